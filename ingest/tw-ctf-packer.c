/* tw-ctf-packer.c: rows of a store packed straight into CTF 1.8 packets
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-packer.h"
#include "tw-ctf-plan-private.h"
#include "tw-kernel-common-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The trace tw-ctf-bt-writer.c makes through babeltrace2's sink.ctf.fs — the same
 * streams, event classes, fields, clock and environment, so `babeltrace2 DIR` prints
 * the same events and our reader reads the same store back — but written by us: the
 * TSDL `metadata` as text, and each stream's packets serialised from the store's
 * columns into one buffer per stream, written whole (about a MiB a packet, one write()
 * each), with no object per event. sink.ctf.fs costs about 1.5 µs an event in its
 * generic per-field serialiser; this is a few stores and copies.
 *
 * What differs from sink.ctf.fs's output, none of it visible in babeltrace2's text or
 * to our reader: LTTng's compact event header (a 5-bit id and the low 27 bits of the
 * timestamp, the full id and timestamp only when an id is ≥ 31 or 2^27 ns have passed
 * since the stream's last event), byte-aligned members, `vpid`/`vtid` as 32-bit
 * integers (64-bit when a task's ids do not fit), and packets of a MiB instead of
 * 8192 events.
 *
 * Layout: one stream file per CPU (`cpuN`, stream class 0 with the packet context's
 * `cpu_id`, as LTTng's per-CPU buffers) and `tasks` for events without a CPU (stream
 * class 1). Every event has LTTng's context `vpid`, `vtid`, `procname` and
 * `tracewb_task` (the task's id in the store); payloads as tw-ctf-plan.c plans them.
 *
 * A live store is read while it grows: only rows below @end, which the caller took
 * from the event count before this reads the task and type tables (tw-trace.c).
 *
 * Threads: a first pass over the type and CPU columns plans every type and opens every
 * stream in the order of the rows (so the files are the same whatever the number of
 * threads); then each worker thread owns a group of streams, balanced by their rows,
 * reads all the rows and packs and writes those of its streams. Nothing is shared but
 * what the first pass made, read only. The kernel's copy into the page cache, most of
 * the time on this machine's VM, is spread over the threads with the packing.
 */

#define PACKET_BYTES     (1024 * 1024)
#define CHECK_EVERY      (64 * 1024)
#define MAX_WORKERS      4
#define ROWS_PER_WORKER  (256 * 1024)   /* fewer, and a thread costs more than it saves */
#define CTF_MAGIC        0xC1FC1FC1u
#define COMPACT_ID_LIMIT 31
#define COMPACT_TS_BITS  27
#define PACKET_HEADER    32     /* magic, uuid, stream_id, stream_instance_id */
#define PACKET_CONTEXT   32     /* timestamp_begin/end, content_size, packet_size */
#define SHORT_TEXT       32     /* a task's name or id this long or shorter is copied whole */

enum { SC_CPU, SC_TASK };

/* A task's context fields, ready to copy. */
typedef struct {
  const char *name;
  const char *source_id;
  guint32     name_size;      /* with the terminating NUL */
  guint32     source_id_size;
  gint64      pid;
  gint64      tid;
} TaskText;

typedef struct {
  guint8  *buf;
  gsize    len;
  gsize    cap;
  gsize    header;         /* bytes of packet header and context at the buffer's start */
  int      fd;
  guint    sc;
  guint16  cpu;
  guint64  instance;
  guint64  begin;          /* the open packet's first time */
  guint64  clock;          /* the last time written: what a compact timestamp extends */
  guint64  n_rows;         /* rows of the range it takes: what the workers are balanced by */
  guint    worker;         /* the worker that packs and writes it */
  char    *path;
} PackStream;

/* How one member is written, decided once per type: the common members straight from
 * the payload or the task table, the rest through _tw_ctf_member_value(). */
typedef enum {
  OP_PAYLOAD,        /* a number of the payload at @offset, @in_bytes wide */
  OP_TASK_NAME,
  OP_ARG_TASK_NAME,
  OP_TASK_TID,
  OP_ARG_TASK_TID,
  OP_ZERO,
  OP_ARG,
  OP_PREV_STATE,     /* the payload's state string at @offset, parsed once per string */
  OP_GENERIC,
} OpKind;

typedef struct {
  OpKind             kind;
  guint16            offset;
  guint16            field;      /* OP_PAYLOAD, OP_PREV_STATE: the field, for its presence bit */
  guint8             in_bytes;
  guint8             out_bytes;
  gboolean           in_signed;
  gboolean           optional;   /* the payload has a presence bitmap */
  guint64            absent;     /* what an absent field is written as */
  const TwCtfMember *member;
} MemberOp;

typedef struct {
  TwTrace        *trace;
  const char     *dir;
  TwCtfTypePlan  *plans;
  GArray        **ops;         /* per type: MemberOp, or NULL until a row of it comes */
  GString        *types_entry; /* `tracewb_event_types` of the types planned */
  guint16         next_id;
  guint           n_types;
  guint16        *ids;         /* per type: its event id, in both stream classes */
  guint8         *name_ops;    /* per type: its members that are a task's name */
  TaskText       *tasks;
  GString        *texts;       /* the tasks' names and ids, each padded (append_padded_text()) */
  guint32         n_tasks;
  gboolean        wide_ids;    /* a task's pid or tid needs 64 bits */
  guint8          uuid[16];
  GPtrArray      *streams;     /* PackStream, owned */
  PackStream    **by_cpu;
  guint           n_by_cpu;
  PackStream     *no_cpu;
  GError         *error;       /* the first stream file that could not be made */
  gint            stop;        /* atomic: a worker failed or the caller cancelled */
} Packer;

typedef struct {
  guint64 time;
  guint64 index;
} TimedRow;

/* One thread's share: the streams whose worker it is. Every worker reads all the rows
 * and packs those of its streams, so no row is handed between threads. */
typedef struct {
  Packer       *p;
  guint         index;
  GArray       *states;        /* gint64 per string id: a prev_state parsed, or G_MININT64 */
  GError       *error;         /* the first write that failed */
  const TimedRow *order;       /* the rows in time order, or NULL: in store order */
  guint64       first;
  guint64       end;
  TwProgressFunc progress;
  gpointer      progress_data;
  GCancellable *cancellable;
  const guint8 *owner_of_cpu;  /* per CPU: the worker of its stream */
  guint8        owner_no_cpu;
} PackWorker;

/* ---------------------------------------------------------------- buffers */

static void
set_error_from_errno (GError    **error,
                      int         errsv,
                      const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path, g_strerror (errsv));
}

static inline guint8 *
reserve (PackStream *s,
         gsize       n)
{
  if (G_UNLIKELY (s->len + n > s->cap))
    {
      while (s->len + n > s->cap)
        s->cap *= 2;
      s->buf = g_realloc (s->buf, s->cap);
    }
  return s->buf + s->len;
}

static inline void
put_bytes (PackStream *s,
           const void *data,
           gsize       n)
{
  memcpy (reserve (s, n), data, n);
  s->len += n;
}

static inline void
put_u32 (PackStream *s,
         guint32     v)
{
  v = GUINT32_TO_LE (v);
  put_bytes (s, &v, 4);
}

static inline void
put_u64 (PackStream *s,
         guint64     v)
{
  v = GUINT64_TO_LE (v);
  put_bytes (s, &v, 8);
}

static inline void
put_uint (PackStream *s,
          guint64     v,
          guint       bits)
{
  switch (bits)
    {
    case 8:  { guint8 b = (guint8) v; put_bytes (s, &b, 1); break; }
    case 16: { guint16 w = GUINT16_TO_LE ((guint16) v); put_bytes (s, &w, 2); break; }
    case 32: put_u32 (s, (guint32) v); break;
    default: put_u64 (s, v); break;
    }
}

static inline void
put_string (PackStream *s,
            const char *str)
{
  put_bytes (s, str, strlen (str) + 1);
}

/* The emit_ functions write at a row's cursor, in room the row reserved (row_room()):
 * no check per member, and the cursor stays in a register instead of the stream's
 * length being stored and loaded for each. */
static inline guint8 *
emit_bytes (guint8     *at,
            const void *data,
            gsize       n)
{
  memcpy (at, data, n);
  return at + n;
}

/* A task's name or id, from the padded texts: a short one as SHORT_TEXT bytes (a fixed
 * copy, where one of its length takes a slow `rep movs`), its bytes after the NUL
 * overwritten by what comes next. The row's room has SHORT_TEXT bytes to spare. */
static inline guint8 *
emit_text (guint8     *at,
           const char *text,
           gsize       size)
{
  if (G_LIKELY (size <= SHORT_TEXT))
    memcpy (at, text, SHORT_TEXT);
  else
    memcpy (at, text, size);
  return at + size;
}

static inline guint8 *
emit_uint (guint8  *at,
           guint64  v,
           guint    bytes)
{
  switch (bytes)
    {
    case 1:  *at = (guint8) v; return at + 1;
    case 2:  { guint16 w = GUINT16_TO_LE ((guint16) v); return emit_bytes (at, &w, 2); }
    case 4:  { guint32 w = GUINT32_TO_LE ((guint32) v); return emit_bytes (at, &w, 4); }
    default: { guint64 w = GUINT64_TO_LE (v); return emit_bytes (at, &w, 8); }
    }
}

static void
write_all (PackWorker *w,
           PackStream *s,
           const void *data,
           gsize       n)
{
  const guint8 *at = data;

  while (n > 0 && w->error == NULL)
    {
      gssize done = write (s->fd, at, n);

      if (done < 0 && errno == EINTR)
        continue;
      if (done < 0)
        {
          set_error_from_errno (&w->error, errno, s->path);
          g_atomic_int_set (&w->p->stop, 1);
          return;
        }
      at += done;
      n -= (gsize) done;
    }
}

/* ---------------------------------------------------------------- packets */

static void
fill_packet_header (Packer     *p,
                    PackStream *s)
{
  guint8 *at = s->buf;
  guint64 bits = (guint64) s->len * 8;
  guint32 u32;
  guint64 u64;

#define PUT(v, n) do { memcpy (at, &(v), n); at += n; } while (0)
  u32 = GUINT32_TO_LE (CTF_MAGIC);        PUT (u32, 4);
  memcpy (at, p->uuid, 16);              at += 16;
  u32 = GUINT32_TO_LE (s->sc);            PUT (u32, 4);
  u64 = GUINT64_TO_LE (s->instance);      PUT (u64, 8);
  u64 = GUINT64_TO_LE (s->begin);         PUT (u64, 8);
  u64 = GUINT64_TO_LE (s->clock);         PUT (u64, 8);
  u64 = GUINT64_TO_LE (bits);             PUT (u64, 8);   /* content_size */
  u64 = GUINT64_TO_LE (bits);             PUT (u64, 8);   /* packet_size: no padding */
  if (s->sc == SC_CPU)
    {
      u32 = GUINT32_TO_LE ((guint32) s->cpu);
      PUT (u32, 4);
    }
#undef PUT
}

static void
flush_packet (PackWorker *w,
              PackStream *s)
{
  if (s->len == s->header)
    return;
  fill_packet_header (w->p, s);
  write_all (w, s, s->buf, s->len);
  s->len = s->header;
}

static PackStream *
new_stream (Packer     *p,
            guint       sc,
            guint16     cpu,
            const char *name)
{
  /* cache lines of its own: workers write their streams' fields for every row */
  PackStream *s = g_aligned_alloc0 (1, (sizeof (PackStream) + 63) & ~(gsize) 63, 64);

  s->sc = sc;
  s->cpu = cpu;
  s->instance = p->streams->len;
  s->header = PACKET_HEADER + PACKET_CONTEXT + (sc == SC_CPU ? 4 : 0);
  s->cap = PACKET_BYTES + 4096;
  s->buf = g_malloc (s->cap);
  s->len = s->header;
  s->path = g_build_filename (p->dir, name, NULL);
  s->fd = g_open (s->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (s->fd < 0 && p->error == NULL)
    set_error_from_errno (&p->error, errno, s->path);
  g_ptr_array_add (p->streams, s);
  return s;
}

static void
pack_stream_free (gpointer data)
{
  PackStream *s = data;

  if (s->fd >= 0)
    close (s->fd);
  g_free (s->path);
  g_free (s->buf);
  g_aligned_free (s);
}

static PackStream *
stream_for (Packer  *p,
            guint16  cpu)
{
  char name[32];

  if (cpu == TW_CPU_NONE)
    {
      if (p->no_cpu == NULL)
        p->no_cpu = new_stream (p, SC_TASK, cpu, "tasks");
      return p->no_cpu;
    }
  if (cpu < p->n_by_cpu && p->by_cpu[cpu])
    return p->by_cpu[cpu];
  if (cpu >= p->n_by_cpu)
    {
      p->by_cpu = g_renew (PackStream *, p->by_cpu, cpu + 1);
      memset (p->by_cpu + p->n_by_cpu, 0, (cpu + 1 - p->n_by_cpu) * sizeof (PackStream *));
      p->n_by_cpu = cpu + 1;
    }
  g_snprintf (name, sizeof name, "cpu%u", cpu);
  return p->by_cpu[cpu] = new_stream (p, SC_CPU, cpu, name);
}

/* The stream of a row's CPU, made by plan_rows() before any row is packed. */
static inline PackStream *
stream_of (Packer  *p,
           guint16  cpu)
{
  return cpu == TW_CPU_NONE ? p->no_cpu : p->by_cpu[cpu];
}

/* ---------------------------------------------------------------- events */

static const char no_text[SHORT_TEXT] = "";
static const TaskText no_task = { no_text, no_text, 1, 1, -1, -1 };

static const TaskText *
task_text (Packer  *p,
           guint32  task)
{
  return task < p->n_tasks ? &p->tasks[task] : &no_task;
}

#define EVENT_HEADER_MAX 13

static inline guint8 *
emit_event_header (PackStream *s,
                   guint8     *at,
                   guint16     id,
                   guint64     time)
{
  guint64 since = time - s->clock;

  s->clock = time;
  if (id < COMPACT_ID_LIMIT && since < (G_GUINT64_CONSTANT (1) << COMPACT_TS_BITS))
    return emit_uint (at, id | (guint32) ((time & ((1u << COMPACT_TS_BITS) - 1)) << 5), 4);
  at = emit_uint (at, COMPACT_ID_LIMIT, 1);
  at = emit_uint (at, id, 4);
  return emit_uint (at, time, 8);
}

static void
put_generic (Packer            *p,
             PackStream        *s,
             const TwCtfMember *m,
             const TwEventType *type,
             const guint8      *payload,
             const TwTask      *task,
             const TwTask      *arg_task,
             guint32            arg,
             guint16            cpu)
{
  TwCtfValue v;

  _tw_ctf_member_value (p->trace, m, type, payload, task, arg_task, arg, cpu, &v);
  switch (m->out)
    {
    case TW_CTF_OUT_UNSIGNED: put_uint (s, v.u, m->bits); break;
    case TW_CTF_OUT_SIGNED:   put_uint (s, (guint64) v.i, m->bits); break;
    case TW_CTF_OUT_REAL:     { guint64 bits; memcpy (&bits, &v.f, 8); put_u64 (s, bits); break; }
    case TW_CTF_OUT_STRING:
    default:                  put_string (s, v.s); break;
    }
}

static gint64
prev_state (PackWorker *w,
            guint32     id)
{
  gint64 *known;

  if (id >= w->states->len)
    {
      guint old = w->states->len;

      g_array_set_size (w->states, id + 1);
      for (guint i = old; i <= id; i++)
        g_array_index (w->states, gint64, i) = G_MININT64;
    }
  known = &g_array_index (w->states, gint64, id);
  if (*known == G_MININT64)
    *known = (gint64) _tw_kernel_parse_prev_state (tw_trace_get_string (w->p->trace, id));
  return *known;
}

static inline gint64
payload_number (const MemberOp *op,
                const guint8   *payload)
{
  const guint8 *at = payload + op->offset;

  switch (op->in_bytes)
    {
    case 1:  return at[0];
    case 2:  { guint16 v; memcpy (&v, at, 2); return v; }
    case 4:
      if (op->in_signed)
        {
          gint32 v;
          memcpy (&v, at, 4);
          return v;
        }
      else
        {
          guint32 v;
          memcpy (&v, at, 4);
          return v;
        }
    default: { gint64 v; memcpy (&v, at, 8); return v; }
    }
}

/* A member through _tw_ctf_member_value(), whose strings have no bound: the row's
 * cursor is stored, the member put with checks, and the row's room reserved again.
 * Without @tasks, the member reads as absent. */
static guint8 *
emit_generic (Packer            *p,
              PackStream        *s,
              guint8            *at,
              gsize              room,
              const TwCtfMember *m,
              const TwEventType *type,
              const guint8      *payload,
              gboolean           tasks,
              guint32            task,
              guint32            arg,
              guint16            cpu)
{
  const TwTask *t = tasks && task < p->n_tasks ? tw_trace_get_task (p->trace, task) : NULL;
  const TwTask *a = tasks && _tw_ctf_kind_has_arg_task (type->kind) && arg < p->n_tasks
                    ? tw_trace_get_task (p->trace, arg) : NULL;

  s->len = (gsize) (at - s->buf);
  put_generic (p, s, m, type, payload, t, a, arg, cpu);
  reserve (s, room);
  return s->buf + s->len;
}

static inline guint8 *
emit_member (PackWorker        *w,
             PackStream        *s,
             guint8            *at,
             gsize              room,
             const MemberOp    *op,
             const TwEventType *type,
             const guint8      *payload,
             guint32            task,
             guint32            arg,
             guint16            cpu)
{
  Packer *p = w->p;

  if ((op->kind == OP_PAYLOAD || op->kind == OP_PREV_STATE) && op->optional
      && !(payload[op->field / 8] & (1u << (op->field % 8))))
    return emit_uint (at, op->absent, op->out_bytes);
  switch (op->kind)
    {
    case OP_PAYLOAD:
      if (op->in_bytes == op->out_bytes)
        return emit_bytes (at, payload + op->offset, op->out_bytes);
      return emit_uint (at, (guint64) payload_number (op, payload), op->out_bytes);
    case OP_TASK_NAME:
      return emit_text (at, task_text (p, task)->name, task_text (p, task)->name_size);
    case OP_ARG_TASK_NAME:
      return emit_text (at, task_text (p, arg)->name, task_text (p, arg)->name_size);
    case OP_TASK_TID:
      return emit_uint (at, (guint64) task_text (p, task)->tid, op->out_bytes);
    case OP_ARG_TASK_TID:
      return emit_uint (at, (guint64) task_text (p, arg)->tid, op->out_bytes);
    case OP_ZERO:
      return emit_uint (at, 0, op->out_bytes);
    case OP_ARG:
      return emit_uint (at, arg, op->out_bytes);
    case OP_PREV_STATE:
      {
        guint32 id;

        memcpy (&id, payload + op->offset, 4);
        return emit_uint (at, (guint64) prev_state (w, id), op->out_bytes);
      }
    case OP_GENERIC:
    default:
      return emit_generic (p, s, at, room, op->member, type, payload, TRUE, task, arg, cpu);
    }
}

static guint
field_bytes (TwFieldType type)
{
  switch (type)
    {
    case TW_FIELD_U8:  return 1;
    case TW_FIELD_U16: return 2;
    case TW_FIELD_U32:
    case TW_FIELD_I32:
    case TW_FIELD_STRING: return 4;
    default:           return 8;
    }
}

/* The op for member @m of @type: everything that needs no lookup of a value beyond the
 * payload and the task table has its own. Big-endian hosts take the generic way. An
 * absent field is written as _tw_ctf_member_value() gives it: 0, or the maximum of an
 * unsigned member that says so. */
static MemberOp
compile_member (const TwEventType *type,
                const TwCtfMember *m)
{
  MemberOp op = { .kind = OP_GENERIC, .member = m, .out_bytes = m->bits / 8 };
  gboolean has_arg_task = _tw_ctf_kind_has_arg_task (type->kind);
  gboolean plain = G_BYTE_ORDER == G_LITTLE_ENDIAN && m->field >= 0;

  op.optional = type->presence_bytes != 0;
  op.field = m->field >= 0 ? (guint16) m->field : 0;
  op.absent = m->absent_max && m->source == TW_CTF_FROM_FIELD && m->out == TW_CTF_OUT_UNSIGNED ? G_MAXUINT64 : 0;

  switch (m->source)
    {
    case TW_CTF_FROM_FIELD:
      if (plain && !m->task_ref && m->out != TW_CTF_OUT_STRING && type->fields[m->field].type != TW_FIELD_STRING
          && (m->out == TW_CTF_OUT_REAL) == (type->fields[m->field].type == TW_FIELD_F64))
        {
          op.kind = OP_PAYLOAD;
          op.offset = type->offsets[m->field];
          op.in_bytes = (guint8) field_bytes (type->fields[m->field].type);
          op.in_signed = type->fields[m->field].type == TW_FIELD_I32 || type->fields[m->field].type == TW_FIELD_I64;
          if (m->out == TW_CTF_OUT_REAL)
            op.out_bytes = 8;
        }
      break;
    case TW_CTF_FROM_TASK_NAME:     op.kind = OP_TASK_NAME; break;
    case TW_CTF_FROM_TASK_TID:      op.kind = OP_TASK_TID; break;
    case TW_CTF_FROM_ARG_TASK_NAME: op.kind = has_arg_task ? OP_ARG_TASK_NAME : OP_GENERIC; break;
    case TW_CTF_FROM_ARG_TASK_TID:  op.kind = has_arg_task ? OP_ARG_TASK_TID : OP_GENERIC; break;
    case TW_CTF_FROM_ZERO:          op.kind = OP_ZERO; break;
    case TW_CTF_FROM_ARG:           op.kind = OP_ARG; break;
    case TW_CTF_FROM_PREV_STATE:
      if (plain && type->fields[m->field].type == TW_FIELD_STRING)
        {
          op.kind = OP_PREV_STATE;
          op.offset = type->offsets[m->field];
        }
      break;
    default:
      break;
    }
  /* the numbers a payload stores at their width are written at the width planned:
   * equal but for add_number()'s 64-bit members of narrower fields */
  if (op.kind == OP_PAYLOAD && op.in_bytes > op.out_bytes)
    op.kind = OP_GENERIC;
  return op;
}

/* A type's plan, event id and ops, the first time a row of it comes: the metadata is
 * written last, with the types the rows used, in the order they came. */
static void
plan_type (Packer  *p,
           guint16  t)
{
  TwCtfTypePlan *plan = &p->plans[t];

  _tw_ctf_plan_type (plan, tw_trace_get_event_type (p->trace, t));
  _tw_ctf_append_type_entry (p->types_entry, plan);
  p->ids[t] = p->next_id++;
  p->ops[t] = g_array_sized_new (FALSE, FALSE, sizeof (MemberOp), plan->members->len);
  for (guint i = 0; i < plan->members->len; i++)
    {
      MemberOp op = compile_member (plan->type, &g_array_index (plan->members, TwCtfMember, i));

      g_array_append_val (p->ops[t], op);
      p->name_ops[t] += op.kind == OP_TASK_NAME || op.kind == OP_ARG_TASK_NAME;
    }
}

static void
pack_row (PackWorker         *w,
          const TwEventChunk *chunk,
          guint               row)
{
  Packer *p = w->p;
  guint16 cpu = chunk->cpu[row];
  PackStream *s = stream_of (p, cpu);
  guint16 t = chunk->type[row];
  const TwEventType *type = p->plans[t].type;
  const GArray *ops = p->ops[t];
  const guint8 *payload = chunk->payload[row] == TW_PAYLOAD_NONE ? NULL : chunk->blob + chunk->payload[row];
  guint32 task = chunk->task[row];
  const TaskText *ctx = task_text (p, task);
  guint32 arg = chunk->arg[row];
  /* a stream never goes back in time (babeltrace2's muxer stops on one that does);
   * a live store is in time order but for rows the merge could not place */
  guint64 time = MAX (chunk->time[row], s->clock);

  /* every member but a generic one's string (emit_generic() reserves its own) takes at
   * most 8 bytes or a task's name; emit_text() writes up to SHORT_TEXT bytes ahead */
  gsize room = SHORT_TEXT + EVENT_HEADER_MAX + 16 + ctx->name_size + ctx->source_id_size + ops->len * 8
               + p->name_ops[t] * MAX (ctx->name_size, task_text (p, arg)->name_size);
  guint8 *at;

  if (s->len == s->header)
    s->begin = s->clock = time;
  at = reserve (s, room);
  at = emit_event_header (s, at, p->ids[t], time);
  at = emit_uint (at, (guint64) ctx->pid, p->wide_ids ? 8 : 4);
  at = emit_uint (at, (guint64) ctx->tid, p->wide_ids ? 8 : 4);
  at = emit_text (at, ctx->name, ctx->name_size);
  at = emit_text (at, ctx->source_id, ctx->source_id_size);
  for (guint i = 0; i < ops->len; i++)
    {
      const MemberOp *op = &g_array_index (ops, MemberOp, i);

      /* a type without a payload still has its members: they read as absent */
      if (payload == NULL && (op->kind == OP_PAYLOAD || op->kind == OP_PREV_STATE))
        at = emit_generic (p, s, at, room, op->member, type, NULL, FALSE, task, arg, cpu);
      else
        at = emit_member (w, s, at, room, op, type, payload, task, arg, cpu);
    }
  s->len = (gsize) (at - s->buf);
  if (s->len >= PACKET_BYTES)
    flush_packet (w, s);
}

/* ---------------------------------------------------------------- metadata */

static const char *const tsdl_keywords[] = {
  "align", "callsite", "const", "char", "clock", "double", "enum", "env", "event", "floating_point",
  "float", "integer", "int", "long", "short", "signed", "stream", "string", "struct", "trace",
  "typealias", "typedef", "unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary",
};

/* A member name as TSDL spells it: babeltrace2 takes one leading underscore off every
 * name it reads, so keywords and names that start with one get another, as
 * sink.ctf.fs does. Returns: %FALSE when @name cannot be an identifier at all. */
static gboolean
append_identifier (GString    *out,
                   const char *name)
{
  gboolean protect = name[0] == '_';

  if (name[0] == '\0' || g_ascii_isdigit (name[0]))
    return FALSE;
  for (const char *c = name; *c; c++)
    if (!g_ascii_isalnum (*c) && *c != '_')
      return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (tsdl_keywords) && !protect; i++)
    protect = strcmp (name, tsdl_keywords[i]) == 0;
  g_string_append_printf (out, "%s%s", protect ? "_" : "", name);
  return TRUE;
}

static void
append_quoted (GString    *out,
               const char *text)
{
  g_string_append_c (out, '"');
  for (const char *c = text; *c; c++)
    {
      if (*c == '"' || *c == '\\')
        g_string_append_c (out, '\\');
      if (*c == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *c);
    }
  g_string_append_c (out, '"');
}

static void
append_uuid (GString      *out,
             const guint8 *uuid)
{
  for (guint i = 0; i < 16; i++)
    g_string_append_printf (out, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", uuid[i]);
}

static gboolean
append_member (GString            *out,
               const TwCtfMember  *m,
               const TwEventType  *type,
               GError            **error)
{
  g_string_append (out, "\t\t");
  switch (m->out)
    {
    case TW_CTF_OUT_UNSIGNED:
    case TW_CTF_OUT_SIGNED:
      g_string_append_printf (out, "integer { size = %u; align = 8; signed = %s;%s } ", m->bits,
                              m->out == TW_CTF_OUT_SIGNED ? "true" : "false", m->hex ? " base = 16;" : "");
      break;
    case TW_CTF_OUT_REAL:
      g_string_append (out, "floating_point { exp_dig = 11; mant_dig = 53; align = 8; } ");
      break;
    case TW_CTF_OUT_STRING:
    default:
      g_string_append (out, "string { encoding = UTF8; } ");
      break;
    }
  if (!append_identifier (out, m->name))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "event type “%s”: field “%s” has a name CTF cannot hold", type->name, m->name);
      return FALSE;
    }
  g_string_append (out, ";\n");
  return TRUE;
}

static void
append_stream_class (GString  *out,
                     Packer   *p,
                     guint     sc)
{
  guint ids = p->wide_ids ? 64 : 32;

  g_string_append_printf (out,
                          "stream {\n"
                          "\tid = %u;\n"
                          "\tevent.header := struct event_header_compact;\n"
                          "\tpacket.context := struct {\n"
                          "\t\tuint64_clock_monotonic_t timestamp_begin;\n"
                          "\t\tuint64_clock_monotonic_t timestamp_end;\n"
                          "\t\tuint64_t content_size;\n"
                          "\t\tuint64_t packet_size;\n"
                          "%s"
                          "\t} align(8);\n"
                          "\tevent.context := struct {\n"
                          "\t\tinteger { size = %u; align = 8; signed = true; } vpid;\n"
                          "\t\tinteger { size = %u; align = 8; signed = true; } vtid;\n"
                          "\t\tstring { encoding = UTF8; } procname;\n"
                          "\t\tstring { encoding = UTF8; } tracewb_task;\n"
                          "\t} align(8);\n"
                          "};\n\n",
                          sc, sc == SC_CPU ? "\t\tuint32_t cpu_id;\n" : "", ids, ids);
}

static char *
dup_metadata (Packer        *p,
              const char    *types_entry,
              const guint8  *clock_uuid,
              GError       **error)
{
  g_autoptr(GString) out = g_string_new ("/* CTF 1.8 */\n\n");
  g_autofree char *origin = tw_trace_dup_metadata (p->trace, "time_origin");
  g_autofree char *hosts = _tw_ctf_dup_hosts_entry (p->trace);

  g_string_append (out,
                   "typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
                   "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
                   "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
                   "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n"
                   "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
  append_uuid (out, p->uuid);
  g_string_append (out,
                   "\";\n\tbyte_order = le;\n"
                   "\tpacket.header := struct {\n"
                   "\t\tuint32_t magic;\n"
                   "\t\tuint8_t uuid[16];\n"
                   "\t\tuint32_t stream_id;\n"
                   "\t\tuint64_t stream_instance_id;\n"
                   "\t} align(8);\n};\n\n");

  g_string_append (out, "env {\n\ttracer_name = \"tracewb\";\n\thostname = ");
  append_quoted (out, g_get_host_name ());
  g_string_append (out, ";\n\t" TW_CTF_ENV_EVENT_TYPES " = ");
  append_quoted (out, types_entry);
  g_string_append (out, ";\n");
  if (hosts[0])
    {
      g_string_append (out, "\t" TW_CTF_ENV_HOSTS " = ");
      append_quoted (out, hosts);
      g_string_append (out, ";\n");
    }
  for (guint i = 0; i < TW_CTF_N_KEPT_METADATA; i++)
    {
      g_autofree char *value = _tw_ctf_dup_kept_metadata (p->trace, &_tw_ctf_kept_metadata[i]);

      if (value == NULL)
        continue;
      g_string_append_printf (out, "\t%s = ", _tw_ctf_kept_metadata[i].env);
      append_quoted (out, value);
      g_string_append (out, ";\n");
    }
  g_string_append (out, "};\n\n");

  /* the store's times are ns from its clock's origin: a 1 GHz clock at offset 0 gives
   * them back exactly; the chunks of one recording share the clock's uuid, so
   * babeltrace2 merges them */
  g_string_append (out, "clock {\n\tname = \"monotonic\";\n");
  if (clock_uuid)
    {
      g_string_append (out, "\tuuid = \"");
      append_uuid (out, clock_uuid);
      g_string_append (out, "\";\n");
    }
  g_string_append_printf (out, "\tfreq = 1000000000;\n\tprecision = 0;\n\toffset_s = 0;\n\toffset = 0;\n"
                               "\tabsolute = %s;\n};\n\n",
                          origin && strstr (origin, "Unix epoch") ? "true" : "false");

  g_string_append (out,
                   "typealias integer { size = 27; align = 1; signed = false; map = clock.monotonic.value; }"
                   " := uint27_clock_monotonic_t;\n"
                   "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }"
                   " := uint64_clock_monotonic_t;\n\n"
                   "struct event_header_compact {\n"
                   "\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
                   "\tvariant <id> {\n"
                   "\t\tstruct { uint27_clock_monotonic_t timestamp; } compact;\n"
                   "\t\tstruct { uint32_t id; uint64_clock_monotonic_t timestamp; } extended;\n"
                   "\t} v;\n"
                   "} align(8);\n\n");
  append_stream_class (out, p, SC_CPU);
  append_stream_class (out, p, SC_TASK);

  for (guint t = 0; t < p->n_types; t++)
    for (guint sc = 0; sc < 2 && p->plans[t].members; sc++)
      {
        const TwCtfTypePlan *plan = &p->plans[t];

        g_string_append (out, "event {\n\tname = ");
        append_quoted (out, plan->type->name);
        g_string_append_printf (out, ";\n\tid = %u;\n\tstream_id = %u;\n\tfields := struct {\n", p->ids[t], sc);
        for (guint i = 0; i < plan->members->len; i++)
          if (!append_member (out, &g_array_index (plan->members, TwCtfMember, i), plan->type, error))
            return NULL;
        g_string_append (out, "\t} align(8);\n};\n\n");
      }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* ---------------------------------------------------------------- the trace */

static gsize
padded_size (gsize size)
{
  return (size + SHORT_TEXT - 1) / SHORT_TEXT * SHORT_TEXT;
}

/* @text (@size bytes with its NUL) then zeros up to a multiple of SHORT_TEXT bytes, so
 * that emit_text() may copy SHORT_TEXT bytes of any short one. */
static void
append_padded_text (GString    *texts,
                    const char *text,
                    gsize       size)
{
  gsize at = texts->len;

  g_string_set_size (texts, at + padded_size (size));
  memset (texts->str + at, 0, padded_size (size));
  memcpy (texts->str + at, text, size);
}

static void
collect_tasks (Packer *p)
{
  gsize used = 0;

  p->n_tasks = tw_trace_get_n_tasks (p->trace);
  p->tasks = g_new0 (TaskText, MAX (p->n_tasks, 1));
  p->texts = g_string_sized_new (64 * (gsize) p->n_tasks);
  for (guint32 t = 0; t < p->n_tasks; t++)
    {
      const TwTask *task = tw_trace_get_task (p->trace, t);
      TaskText *text = &p->tasks[t];

      text->name_size = (guint32) strlen (_tw_ctf_task_name (task)) + 1;
      text->source_id_size = (guint32) strlen (task->source_id ? task->source_id : "") + 1;
      append_padded_text (p->texts, _tw_ctf_task_name (task), text->name_size);
      append_padded_text (p->texts, task->source_id ? task->source_id : "", text->source_id_size);
      text->pid = task->pid;
      text->tid = task->tid;
      if (task->pid != (gint32) task->pid || task->tid != (gint32) task->tid)
        p->wide_ids = TRUE;
    }
  /* pointers once the texts no longer move */
  for (guint32 t = 0; t < p->n_tasks; t++)
    {
      p->tasks[t].name = p->texts->str + used;
      used += padded_size (p->tasks[t].name_size);
      p->tasks[t].source_id = p->texts->str + used;
      used += padded_size (p->tasks[t].source_id_size);
    }
}

static void
packer_clear (Packer *p)
{
  g_clear_pointer (&p->streams, g_ptr_array_unref);
  for (guint t = 0; p->ops && t < p->n_types; t++)
    if (p->ops[t])
      g_array_unref (p->ops[t]);
  g_free (p->ops);
  if (p->types_entry)
    g_string_free (p->types_entry, TRUE);
  _tw_ctf_plans_free (p->plans, p->n_types);
  g_free (p->ids);
  g_free (p->name_ops);
  g_free (p->tasks);
  if (p->texts)
    g_string_free (p->texts, TRUE);
  g_free (p->by_cpu);
  g_clear_error (&p->error);
}

static gboolean
write_metadata (Packer        *p,
                const char    *types_entry,
                const guint8  *clock_uuid,
                GError       **error)
{
  g_autofree char *text = dup_metadata (p, types_entry, clock_uuid, error);
  g_autofree char *path = g_build_filename (p->dir, "metadata", NULL);

  return text && g_file_set_contents (path, text, -1, error);
}

static gint
compare_timed_rows (gconstpointer a,
                    gconstpointer b,
                    gpointer      data)
{
  guint64 x = ((const TimedRow *) a)->time, y = ((const TimedRow *) b)->time;

  return x < y ? -1 : x > y;
}

/* A live store's rows are in time order but for those the merge could not place (a
 * remote target's batch later than its horizon allowed: counted late). Written as they
 * lie, a stream would have to move them forward in time; written in time order, every
 * row keeps its own time. NULL when [@first, @end) is in order already. */
static TimedRow *
dup_time_order (TwTrace *trace,
                guint64  first,
                guint64  end)
{
  gboolean sorted = TRUE;
  TimedRow *order;

  for (guint64 c = first >> TW_CHUNK_SHIFT; first < end && c <= (end - 1) >> TW_CHUNK_SHIFT; c++)
    sorted &= !tw_trace_get_chunk (trace, (guint) c)->unsorted;
  if (sorted)
    return NULL;
  order = g_new (TimedRow, end - first);
  for (guint64 e = first; e < end; e++)
    order[e - first] = (TimedRow) { tw_trace_get_time (trace, e), e };
  /* stable: rows of one time keep the store's order */
  g_qsort_with_data (order, (gint) (end - first), sizeof *order, compare_timed_rows, NULL);
  return order;
}

/* Runs @body with @chunk and @row set for each row of positions [@from, @to) of a range
 * that starts at @first, in the order rows are written: the store's, or @order's when
 * the range is not in time order. A macro, so that the body is inlined in both loops. */
#define FOR_EACH_ROW(p, order, first, from, to, chunk, row, body)                            \
  do {                                                                                      \
    if (order)                                                                              \
      for (guint64 e_ = (from); e_ < (to); e_++)                                            \
        {                                                                                   \
          guint64 at_ = (order)[e_ - (first)].index;                                        \
          const TwEventChunk *chunk = tw_trace_get_chunk ((p)->trace, (guint) (at_ >> TW_CHUNK_SHIFT)); \
          guint row = (guint) (at_ & TW_CHUNK_MASK);                                        \
          body;                                                                             \
        }                                                                                   \
    else                                                                                    \
      for (guint64 e_ = (from); e_ < (to);)                                                 \
        {                                                                                   \
          const TwEventChunk *chunk = tw_trace_get_chunk ((p)->trace, (guint) (e_ >> TW_CHUNK_SHIFT)); \
          guint64 stop_ = MIN ((to), (e_ | TW_CHUNK_MASK) + 1);                             \
          for (guint row = (guint) (e_ & TW_CHUNK_MASK); e_ < stop_; e_++, row++)           \
            body;                                                                           \
        }                                                                                   \
  } while (0)

/* Before any row is packed, in the order the rows are written (so ids and stream
 * instances come out as one thread packing them would give them): each type the range
 * uses gets its plan and id, each CPU its stream, and each stream counts its rows.
 * Two columns read, a few ns a row. */
static void
plan_rows (Packer         *p,
           const TimedRow *order,
           guint64         first,
           guint64         end)
{
  FOR_EACH_ROW (p, order, first, first, end, chunk, row, {
    guint16 t = chunk->type[row];

    if (G_UNLIKELY (p->ops[t] == NULL))
      plan_type (p, t);
    stream_for (p, chunk->cpu[row])->n_rows++;
  });
  /* an empty range is still a trace: one empty stream, as sink.ctf.fs leaves it */
  if (p->streams->len == 0)
    stream_for (p, TW_CPU_NONE);
}

static gint
compare_busier_first (gconstpointer a,
                      gconstpointer b)
{
  const PackStream *x = *(PackStream *const *) a, *y = *(PackStream *const *) b;

  return x->n_rows > y->n_rows ? -1 : x->n_rows < y->n_rows;
}

/* Streams to at most @n_threads workers (0: one per processor and per ROWS_PER_WORKER
 * rows, so that Keep recording's chunks of a second are packed by the calling thread
 * alone), the busiest first to the least loaded one;
 * per CPU, which worker packs its rows (read by every worker for every row, so kept
 * apart from the streams their owners write). Returns: the number of workers. */
static guint
assign_workers (Packer  *p,
                guint64  n_rows,
                guint    n_threads,
                guint8 **owner_of_cpu,
                guint8  *owner_no_cpu)
{
  guint wanted = n_threads ? n_threads : (guint) MIN (g_get_num_processors (), n_rows / ROWS_PER_WORKER + 1);
  guint n = CLAMP (wanted, 1, MIN (MAX_WORKERS, p->streams->len));
  g_autofree guint64 *load = g_new0 (guint64, n);
  /* a copy keeps the streams' free function: not this one's to call */
  g_autoptr(GPtrArray) by_rows = g_ptr_array_copy (p->streams, NULL, NULL);

  g_ptr_array_set_free_func (by_rows, NULL);
  g_ptr_array_sort (by_rows, compare_busier_first);
  for (guint i = 0; i < by_rows->len; i++)
    {
      PackStream *s = by_rows->pdata[i];
      guint least = 0;

      for (guint k = 1; k < n; k++)
        if (load[k] < load[least])
          least = k;
      s->worker = least;
      load[least] += s->n_rows;
    }
  *owner_of_cpu = g_new0 (guint8, MAX (p->n_by_cpu, 1));
  for (guint c = 0; c < p->n_by_cpu; c++)
    if (p->by_cpu[c])
      (*owner_of_cpu)[c] = (guint8) p->by_cpu[c]->worker;
  *owner_no_cpu = p->no_cpu ? (guint8) p->no_cpu->worker : 0;
  return n;
}

static gpointer
run_worker (gpointer data)
{
  PackWorker *w = data;
  Packer *p = w->p;
  guint8 me = (guint8) w->index;

  for (guint64 e = w->first; e < w->end && !g_atomic_int_get (&p->stop);)
    {
      guint64 stop = MIN (w->end, e + CHECK_EVERY);

      FOR_EACH_ROW (p, w->order, w->first, e, stop, chunk, row, {
        guint16 cpu = chunk->cpu[row];

        if ((cpu == TW_CPU_NONE ? w->owner_no_cpu : w->owner_of_cpu[cpu]) == me)
          pack_row (w, chunk, row);
      });
      e = stop;
      if (g_cancellable_is_cancelled (w->cancellable))
        g_atomic_int_set (&p->stop, 1);
      else if (w->progress)
        w->progress ((double) (e - w->first) / (double) MAX (w->end - w->first, 1), w->progress_data);
    }
  for (guint i = 0; i < p->streams->len && !g_atomic_int_get (&p->stop); i++)
    if (((PackStream *) p->streams->pdata[i])->worker == w->index)
      flush_packet (w, p->streams->pdata[i]);
  return NULL;
}

/* Packs [@first, @end) with up to @n_threads threads, the calling one included: a
 * worker per group of streams, each writing its own files. */
static gboolean
pack_rows (Packer          *p,
           guint64          first,
           guint64          end,
           guint            n_threads,
           TwProgressFunc   progress,
           gpointer         progress_data,
           GCancellable    *cancellable,
           GError         **error)
{
  g_autofree TimedRow *order = end - first <= G_MAXINT ? dup_time_order (p->trace, first, end) : NULL;
  g_autofree guint8 *owner_of_cpu = NULL;
  PackWorker workers[MAX_WORKERS] = { 0 };
  GThread *threads[MAX_WORKERS] = { NULL };
  guint8 owner_no_cpu;
  guint n;
  gboolean ok = TRUE;

  plan_rows (p, order, first, end);
  if (p->error)
    {
      g_propagate_error (error, g_steal_pointer (&p->error));
      return FALSE;
    }
  n = assign_workers (p, end - first, n_threads, &owner_of_cpu, &owner_no_cpu);
  for (guint k = 0; k < n; k++)
    workers[k] = (PackWorker) { .p = p, .index = k, .states = g_array_new (FALSE, FALSE, sizeof (gint64)),
                                .order = order, .first = first, .end = end, .owner_of_cpu = owner_of_cpu,
                                .owner_no_cpu = owner_no_cpu, .cancellable = cancellable,
                                /* progress is reported from the calling thread only */
                                .progress = k == 0 ? progress : NULL, .progress_data = progress_data };
  /* a thread that cannot start leaves its worker to the calling thread, after its own */
  for (guint k = 1; k < n; k++)
    threads[k] = g_thread_try_new ("tw-ctf-packer", run_worker, &workers[k], NULL);
  run_worker (&workers[0]);
  for (guint k = 1; k < n; k++)
    if (threads[k])
      g_thread_join (threads[k]);
    else
      run_worker (&workers[k]);

  for (guint k = 0; k < n; k++)
    {
      if (ok && workers[k].error)
        {
          g_propagate_error (error, g_steal_pointer (&workers[k].error));
          ok = FALSE;
        }
      g_clear_error (&workers[k].error);
      g_array_unref (workers[k].states);
    }
  return ok && !g_cancellable_set_error_if_cancelled (cancellable, error);
}

/**
 * tw_ctf_packer_write_range:
 * @trace: a trace, sealed or growing (a live session's store)
 * @first: the first row to write
 * @end: the row after the last one; at most the rows published when the call starts
 * @path: the trace folder to make; it must not exist
 * @clock_uuid: (nullable): 16 bytes naming the clock, the same for every chunk of one
 *   recording so that babeltrace2 merges them
 * @n_threads: threads to pack with, the calling one included (at most one per stream
 *   file, and 4); 0 for one per processor when the range is large enough to gain
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes rows [@first, @end) of @trace as a CTF trace into @path (not atomically: the
 * caller writes beside and renames). The same rows give the same files whatever
 * @n_threads is, but for the trace's random uuid. A range without rows is still a trace, of 0
 * events: a `metadata` and an empty `tasks` stream.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled; what was
 *   written of @path is left for the caller to remove
 */
gboolean
tw_ctf_packer_write_range (TwTrace         *trace,
                           guint64          first,
                           guint64          end,
                           const char      *path,
                           const guint8    *clock_uuid,
                           guint            n_threads,
                           TwProgressFunc   progress,
                           gpointer         progress_data,
                           GCancellable    *cancellable,
                           GError         **error)
{
  Packer p = { 0 };
  gboolean ok;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* the event count first: the tables read after it cover every row below it */
  end = MIN (end, tw_trace_get_n_events (trace));
  first = MIN (first, end);
  if (g_mkdir (path, 0755) != 0)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }
  p.trace = trace;
  p.dir = path;
  p.n_types = tw_trace_get_n_event_types (trace);
  p.plans = g_new0 (TwCtfTypePlan, MAX (p.n_types, 1));
  p.ids = g_new0 (guint16, MAX (p.n_types, 1));
  p.ops = g_new0 (GArray *, MAX (p.n_types, 1));
  p.name_ops = g_new0 (guint8, MAX (p.n_types, 1));
  p.types_entry = g_string_new (NULL);
  collect_tasks (&p);
  for (guint i = 0; i < 16; i++)
    p.uuid[i] = (guint8) g_random_int_range (0, 256);
  p.uuid[6] = (p.uuid[6] & 0x0f) | 0x40;   /* a version 4 UUID */
  p.uuid[8] = (p.uuid[8] & 0x3f) | 0x80;
  p.streams = g_ptr_array_new_with_free_func (pack_stream_free);

  ok = pack_rows (&p, first, end, n_threads, progress, progress_data, cancellable, error)
       && write_metadata (&p, p.types_entry->str, clock_uuid, error);
  packer_clear (&p);
  return ok;
}
