/* tw-ctf-writer.c: any trace as a CTF trace folder, through babeltrace2's sink.ctf.fs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-writer.h"
#include "tw-ctf-writer-private.h"

#include "tw-atomic-file.h"
#include "tw-csv-reader-private.h"
#include "tw-kernel-common-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#if HAVE_BABELTRACE
#include <babeltrace2/babeltrace.h>
#endif

/*
 * A graph of two components: a source of ours whose message iterator walks rows of a
 * TwTrace, and babeltrace2's sink.ctf.fs, which writes CTF 1.8 as LTTng does (packets
 * per stream file, a TSDL `metadata`), so `babeltrace2`, Trace Compass and our own CTF
 * reader all open it.
 *
 * babeltrace2 runs in this process, unlike when we read (docs/out-of-process-reading.md):
 * the rule exists because babeltrace2 2.0 can abort() on outside metadata it cannot
 * parse; here every class and value is ours, made through its API, and sink.ctf.fs
 * only serialises them.
 *
 * Layout: one stream per CPU (stream class `cpu`, packet context `cpu_id`, as LTTng's
 * per-CPU buffers) and one stream for the events without a CPU (sensor elements,
 * per-process samples; stream class `task`). Every event has LTTng's context fields
 * `vpid`, `vtid`, `procname` and `tracewb_task` (the task's id in the store, which makes
 * tasks without a thread id, like a sensor's, come back as they were). Kernel kinds
 * are written with the payloads LTTng's kernel tracer gives them (sched_switch's
 * prev_comm, prev_tid, prev_prio, prev_state, next_comm, next_tid, next_prio, ...), from
 * the store's task and arg columns, so every CTF reader decodes them the same way. The
 * trace environment's `tracewb_event_types` says each type's kind and family, which
 * CTF has no place for; our reader takes them back from there. In a trace of several
 * machines (a live session of several targets) `tracewb_hosts` says the host of each
 * CPU (the streams' `cpu_id` is the store's CPU) and of each task, which LTTng keeps
 * one trace per host for.
 *
 * A live store is read while it grows: only rows below the count taken at the start,
 * whose tasks and types lie below the table counts read after it (tw-trace.c).
 */

#define ENV_EVENT_TYPES "tracewb_event_types"
#define ENV_HOSTS       "tracewb_hosts"
#define PACKET_EVENTS   8192
#define PROGRESS_EVERY  (64 * 1024)

gboolean
tw_ctf_writer_path_is_csv (const char *path)
{
  return path && g_str_has_suffix (path, ".csv");
}

/* ---------------------------------------------------------------- folders */

static void
set_error_from_errno (GError    **error,
                      int         errsv,
                      const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path,
               g_strerror (errsv));
}

/* Removes @path and what is below it (the partial folder of a failed recording). */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Contents on disk before the rename, as tw_atomic_file_write() does for a file. */
static gboolean
sync_tree (const char  *path,
           GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;
  int fd;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          if (!sync_tree (child, error))
            return FALSE;
          continue;
        }
      fd = g_open (child, O_RDONLY | O_CLOEXEC, 0);
      if (fd < 0 || fsync (fd) != 0)
        {
          set_error_from_errno (error, errno, child);
          if (fd >= 0)
            close (fd);
          return FALSE;
        }
      close (fd);
    }
  fd = g_open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  return TRUE;
}

static gboolean
check_new_path (const char  *path,
                GError     **error)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               "%s: already exists (a CTF trace is a new folder: choose another name)", path);
  return FALSE;
}

#if HAVE_BABELTRACE

/* ---------------------------------------------------------------- event classes */

typedef enum {
  FROM_FIELD,
  FROM_TASK_NAME,
  FROM_TASK_TID,
  FROM_ARG_TASK_NAME,
  FROM_ARG_TASK_TID,
  FROM_ARG_TASK_PID,
  FROM_ARG,
  FROM_PREV_STATE,
  FROM_CPU,
  FROM_ZERO,
} MemberSource;

typedef enum {
  OUT_UNSIGNED,
  OUT_SIGNED,
  OUT_REAL,
  OUT_STRING,
} MemberOut;

typedef struct {
  const char   *name;
  MemberSource  source;
  MemberOut     out;
  guint8        bits;
  gboolean      hex;
  gboolean      task_ref;   /* a field holding a task index: written as the task's id */
  gboolean      absent_max; /* an absent value is written as the maximum (a loss's `since`) */
  int           field;      /* FROM_FIELD, FROM_PREV_STATE: the type's field, or −1 */
} Member;

typedef struct {
  const TwEventType *type;
  GArray            *members;     /* Member */
  const char        *arg_member;  /* the member the store's arg comes back from, or NULL */
  gboolean           arg_extra;   /* … which is not one of the type's fields */
  bt_event_class    *ec[2];       /* per stream class, made on first use */
} TypePlan;

static void
add_member (GArray       *members,
            const char   *name,
            MemberSource  source,
            MemberOut     out,
            guint8        bits,
            int           field)
{
  Member m = { .name = name, .source = source, .out = out, .bits = bits, .field = field };

  g_array_append_val (members, m);
}

static void
add_field (GArray            *members,
           const TwEventType *type,
           guint              f)
{
  const TwFieldSpec *spec = &type->fields[f];
  Member m = { .name = spec->name, .source = FROM_FIELD, .field = f,
               .hex = (spec->flags & TW_FIELD_FLAG_HEX) != 0 };

  if (spec->flags & TW_FIELD_FLAG_TASK)
    {
      m.out = OUT_STRING;
      m.task_ref = TRUE;
    }
  else
    switch (spec->type)
      {
      case TW_FIELD_U8:  m.out = OUT_UNSIGNED; m.bits = 8; break;
      case TW_FIELD_U16: m.out = OUT_UNSIGNED; m.bits = 16; break;
      case TW_FIELD_U32: m.out = OUT_UNSIGNED; m.bits = 32; break;
      case TW_FIELD_U64: m.out = OUT_UNSIGNED; m.bits = 64; break;
      case TW_FIELD_I32: m.out = OUT_SIGNED; m.bits = 32; break;
      case TW_FIELD_I64: m.out = OUT_SIGNED; m.bits = 64; break;
      case TW_FIELD_F64: m.out = OUT_REAL; m.bits = 64; break;
      case TW_FIELD_STRING:
      default:           m.out = OUT_STRING; break;
      }
  g_array_append_val (members, m);
}

/* A number LTTng's payload has: the type's field of that name, else @fallback. */
static void
add_number (GArray            *members,
            const TwEventType *type,
            const char        *name,
            MemberSource       fallback)
{
  int f = tw_event_type_lookup_field (type, name);

  if (f >= 0 && type->fields[f].type != TW_FIELD_STRING && type->fields[f].type != TW_FIELD_F64)
    add_member (members, name, FROM_FIELD, OUT_SIGNED, 64, f);
  else
    add_member (members, name, fallback, OUT_SIGNED, 64, -1);
}

/* The store's arg as LTTng's member @name (irq, vec): at the width of the type's field
 * of that name when it has one, so the type reads back with the same fields. */
static void
add_arg (GArray            *members,
         const TwEventType *type,
         const char        *name,
         MemberOut          out,
         guint8             bits)
{
  int f = tw_event_type_lookup_field (type, name);

  if (f >= 0 && type->fields[f].type != TW_FIELD_STRING && type->fields[f].type != TW_FIELD_F64
      && !(type->fields[f].flags & TW_FIELD_FLAG_TASK))
    {
      add_field (members, type, f);
      g_array_index (members, Member, members->len - 1).source = FROM_ARG;
      return;
    }
  add_member (members, name, FROM_ARG, out, bits, -1);
}

/* The type's fields but those named in @skip (NULL-terminated). */
static void
add_fields_but (GArray            *members,
                const TwEventType *type,
                const char        *skip)
{
  for (guint f = 0; f < type->n_fields; f++)
    if (skip == NULL || strcmp (type->fields[f].name, skip) != 0)
      add_field (members, type, f);
}

static void
plan_type (TypePlan          *plan,
           const TwEventType *type)
{
  GArray *m = g_array_new (FALSE, TRUE, sizeof (Member));

  plan->type = type;
  plan->members = m;
  switch (type->kind)
    {
    case TW_EVENT_KIND_SWITCH:
      add_member (m, "prev_comm", FROM_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "prev_tid", FROM_TASK_TID, OUT_SIGNED, 32, -1);
      add_number (m, type, "prev_prio", FROM_ZERO);
      add_member (m, "prev_state", FROM_PREV_STATE, OUT_SIGNED, 64,
                  tw_event_type_lookup_field (type, "prev_state"));
      add_member (m, "next_comm", FROM_ARG_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "next_tid", FROM_ARG_TASK_TID, OUT_SIGNED, 32, -1);
      add_number (m, type, "next_prio", FROM_ZERO);
      break;
    case TW_EVENT_KIND_WAKEUP:
      add_member (m, "comm", FROM_ARG_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "tid", FROM_ARG_TASK_TID, OUT_SIGNED, 32, -1);
      add_number (m, type, "prio", FROM_ZERO);
      add_number (m, type, "target_cpu", FROM_CPU);
      break;
    case TW_EVENT_KIND_TASK_CREATE:
      add_member (m, "parent_comm", FROM_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "parent_tid", FROM_TASK_TID, OUT_SIGNED, 32, -1);
      add_member (m, "child_comm", FROM_ARG_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "child_tid", FROM_ARG_TASK_TID, OUT_SIGNED, 32, -1);
      add_member (m, "child_pid", FROM_ARG_TASK_PID, OUT_SIGNED, 32, -1);
      break;
    case TW_EVENT_KIND_TASK_EXIT:
      add_member (m, "comm", FROM_ARG_TASK_NAME, OUT_STRING, 0, -1);
      add_member (m, "tid", FROM_ARG_TASK_TID, OUT_SIGNED, 32, -1);
      add_number (m, type, "prio", FROM_ZERO);
      break;
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
      add_arg (m, type, "irq", OUT_SIGNED, 32);
      add_fields_but (m, type, "irq");
      break;
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      add_arg (m, type, "vec", OUT_UNSIGNED, 32);
      add_fields_but (m, type, "vec");
      break;
    case TW_EVENT_KIND_USER:
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
    case TW_EVENT_KIND_SENSOR:
      /* the store's arg (user event id, mutex, sensor index) as the column the CSV
       * format gives it, last, unless the type has such a field itself */
      add_fields_but (m, type, NULL);
      plan->arg_member = _tw_csv_kind_column_for (type->kind);
      if (tw_event_type_lookup_field (type, plan->arg_member) < 0)
        {
          add_member (m, plan->arg_member, FROM_ARG, OUT_UNSIGNED, 32, -1);
          plan->arg_extra = TRUE;
        }
      break;
    case TW_EVENT_KIND_LOST:
      add_fields_but (m, type, NULL);
      plan->arg_member = "count";
      /* no beginning known is TW_TIME_NONE, which the reader packs back as absent */
      for (guint i = 0; i < m->len; i++)
        if (strcmp (g_array_index (m, Member, i).name, "since") == 0)
          g_array_index (m, Member, i).absent_max = TRUE;
      break;
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:
      add_fields_but (m, type, NULL);
      break;
    }
}

static bt_field_class *
member_class (bt_trace_class *tc,
              const Member   *m)
{
  bt_field_class *fc;

  switch (m->out)
    {
    case OUT_UNSIGNED:
      fc = bt_field_class_integer_unsigned_create (tc);
      bt_field_class_integer_set_field_value_range (fc, m->bits);
      if (m->hex)
        bt_field_class_integer_set_preferred_display_base (fc, BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL);
      return fc;
    case OUT_SIGNED:
      fc = bt_field_class_integer_signed_create (tc);
      bt_field_class_integer_set_field_value_range (fc, m->bits);
      return fc;
    case OUT_REAL:
      return bt_field_class_real_double_precision_create (tc);
    case OUT_STRING:
    default:
      return bt_field_class_string_create (tc);
    }
}

/* One entry per type: "kind,family,name,arg member,1 when that member is not a field",
 * each part URI-escaped, entries joined by ';'. */
static void
append_type_entry (GString        *out,
                   const TypePlan *plan)
{
  const char *parts[4] = {
    tw_event_kind_to_string (plan->type->kind), plan->type->family ? plan->type->family : "",
    plan->type->name, plan->arg_member ? plan->arg_member : "",
  };

  if (out->len)
    g_string_append_c (out, ';');
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_string_append_uri_escaped (out, parts[i], NULL, TRUE);
      g_string_append_c (out, ',');
    }
  g_string_append_c (out, plan->arg_extra ? '1' : '0');
}

/* `tracewb_hosts`: "cpu,CPU,HOST,HOST_CPU" and "task,ID,HOST" entries, URI-escaped,
 * joined by ';'; empty in a trace of one machine. */
static char *
dup_hosts_entry (TwTrace *trace)
{
  GString *out = g_string_new (NULL);
  guint n_cpus = tw_trace_get_n_cpus (trace);
  guint32 n_tasks = tw_trace_get_n_tasks (trace);

  if (tw_trace_get_n_hosts (trace) == 0)
    return g_string_free (out, FALSE);
  for (guint c = 0; c < n_cpus; c++)
    {
      guint16 host_cpu;
      const char *host = tw_trace_get_cpu_host (trace, c, &host_cpu);

      if (host == NULL)
        continue;
      g_string_append_printf (out, "%scpu,%u,", out->len ? ";" : "", c);
      g_string_append_uri_escaped (out, host, NULL, TRUE);
      g_string_append_printf (out, ",%u", host_cpu);
    }
  for (guint32 t = 0; t < n_tasks; t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);

      if (task->host == NULL)
        continue;
      g_string_append_printf (out, "%stask,", out->len ? ";" : "");
      g_string_append_uri_escaped (out, task->source_id, NULL, TRUE);
      g_string_append_c (out, ',');
      g_string_append_uri_escaped (out, task->host, NULL, TRUE);
    }
  return g_string_free (out, FALSE);
}

/* ---------------------------------------------------------------- the source */

typedef struct {
  TwTrace       *trace;
  guint64        first;
  guint64        end;
  guint          n_types;
  const guint8  *clock_uuid;   /* 16 bytes, or NULL */
  guint64        written;      /* rows handed to the sink */
  gboolean       stopping;     /* cancelled: end the streams now */
} WriteJob;

enum { SC_CPU, SC_TASK };

typedef struct {
  bt_stream *stream;
  bt_packet *packet;        /* open packet, or NULL */
  guint      n_in_packet;
  guint64    last_time;
  guint      sc;
  guint16    cpu;
} OutStream;

typedef struct {
  WriteJob                 *job;
  bt_self_message_iterator *self;
  bt_trace_class           *tc;
  bt_stream_class          *sc[2];
  bt_trace                 *trace;
  TypePlan                 *plans;      /* [n_types] */
  GPtrArray                *streams;    /* OutStream, owned */
  OutStream               **by_cpu;
  guint                     n_by_cpu;
  OutStream                *no_cpu;
  GPtrArray                *queue;      /* messages that did not fit the batch */
  guint                     queue_pos;
  guint64                   next;
  gboolean                  ended;
} Iter;

static void
out_stream_free (gpointer data)
{
  OutStream *s = data;

  bt_packet_put_ref (s->packet);
  bt_stream_put_ref (s->stream);
  g_free (s);
}

static void
emit (Iter              *it,
      bt_message        *msg,
      bt_message_array_const msgs,
      guint64            capacity,
      guint64           *count)
{
  if (*count < capacity)
    msgs[(*count)++] = msg;
  else
    g_ptr_array_add (it->queue, msg);
}

static OutStream *
new_stream (Iter       *it,
            guint       sc,
            guint16     cpu,
            const char *name)
{
  OutStream *s = g_new0 (OutStream, 1);

  s->sc = sc;
  s->cpu = cpu;
  s->stream = bt_stream_create (it->sc[sc], it->trace);
  bt_stream_set_name (s->stream, name);
  g_ptr_array_add (it->streams, s);
  return s;
}

static OutStream *
stream_for (Iter              *it,
            guint16            cpu,
            bt_message_array_const msgs,
            guint64            capacity,
            guint64           *count)
{
  OutStream *s;

  if (cpu == TW_CPU_NONE)
    {
      if (it->no_cpu)
        return it->no_cpu;
      s = it->no_cpu = new_stream (it, SC_TASK, cpu, "tasks");
    }
  else
    {
      char name[32];

      if (cpu < it->n_by_cpu && it->by_cpu[cpu])
        return it->by_cpu[cpu];
      if (cpu >= it->n_by_cpu)
        {
          it->by_cpu = g_renew (OutStream *, it->by_cpu, cpu + 1);
          memset (it->by_cpu + it->n_by_cpu, 0, (cpu + 1 - it->n_by_cpu) * sizeof (OutStream *));
          it->n_by_cpu = cpu + 1;
        }
      g_snprintf (name, sizeof name, "cpu%u", cpu);
      s = it->by_cpu[cpu] = new_stream (it, SC_CPU, cpu, name);
    }
  emit (it, bt_message_stream_beginning_create (it->self, s->stream), msgs, capacity, count);
  return s;
}

static bt_event_class *
event_class_for (Iter     *it,
                 TypePlan *plan,
                 guint     sc)
{
  bt_field_class *payload;

  if (plan->ec[sc])
    return plan->ec[sc];
  plan->ec[sc] = bt_event_class_create (it->sc[sc]);
  bt_event_class_set_name (plan->ec[sc], plan->type->name);
  payload = bt_field_class_structure_create (it->tc);
  for (guint i = 0; i < plan->members->len; i++)
    {
      const Member *m = &g_array_index (plan->members, Member, i);
      bt_field_class *fc = member_class (it->tc, m);

      bt_field_class_structure_append_member (payload, m->name, fc);
      bt_field_class_put_ref (fc);
    }
  bt_event_class_set_payload_field_class (plan->ec[sc], payload);
  bt_field_class_put_ref (payload);
  return plan->ec[sc];
}

static const char *
task_name (const TwTask *task)
{
  return task && task->name ? task->name : "";
}

static void
set_member (Iter              *it,
            bt_field          *f,
            const Member      *m,
            const TwEventType *type,
            const guint8      *payload,
            const TwTask      *task,
            const TwTask      *arg_task,
            guint32            arg,
            guint16            cpu)
{
  TwTrace *trace = it->job->trace;
  TwValue v = { 0 };
  const char *s = "";
  gint64 i = 0;

  switch (m->source)
    {
    case FROM_FIELD:
      if (m->field < 0 || payload == NULL || !tw_event_type_get_field (type, payload, m->field, &v))
        {
          if (m->absent_max)
            v.u = G_MAXUINT64;
          break;
        }
      if (m->task_ref)
        {
          const TwTask *t = tw_trace_get_task (trace, (guint32) v.u);

          s = t ? t->source_id : "";
        }
      else if (v.type == TW_FIELD_STRING)
        s = tw_trace_get_string (trace, v.str);
      else if (v.type == TW_FIELD_I32 || v.type == TW_FIELD_I64)
        i = v.i;
      else if (v.type != TW_FIELD_F64)
        i = (gint64) v.u;
      break;
    case FROM_TASK_NAME:     s = task_name (task); break;
    case FROM_TASK_TID:      i = task ? task->tid : -1; break;
    case FROM_ARG_TASK_NAME: s = task_name (arg_task); break;
    case FROM_ARG_TASK_TID:  i = arg_task ? arg_task->tid : -1; break;
    case FROM_ARG_TASK_PID:  i = arg_task ? (arg_task->pid >= 0 ? arg_task->pid : arg_task->tid) : -1; break;
    case FROM_ARG:           i = arg; break;
    case FROM_CPU:           i = cpu == TW_CPU_NONE ? -1 : cpu; break;
    case FROM_PREV_STATE:
      if (m->field >= 0 && payload && tw_event_type_get_field (type, payload, m->field, &v))
        i = v.type == TW_FIELD_STRING ? (gint64) _tw_kernel_parse_prev_state (tw_trace_get_string (trace, v.str))
                                      : v.i;
      break;
    case FROM_ZERO:
    default:
      break;
    }

  switch (m->out)
    {
    case OUT_UNSIGNED: bt_field_integer_unsigned_set_value (f, m->source == FROM_FIELD ? v.u : (guint64) i); break;
    case OUT_SIGNED:   bt_field_integer_signed_set_value (f, i); break;
    case OUT_REAL:     bt_field_real_double_precision_set_value (f, v.type == TW_FIELD_F64 ? v.f : 0); break;
    case OUT_STRING:
    default:           bt_field_string_set_value (f, s); break;
    }
}

static void
close_packet (Iter              *it,
              OutStream         *s,
              bt_message_array_const msgs,
              guint64            capacity,
              guint64           *count)
{
  emit (it, bt_message_packet_end_create_with_default_clock_snapshot (it->self, s->packet, s->last_time),
        msgs, capacity, count);
  g_clear_pointer (&s->packet, bt_packet_put_ref);
  s->n_in_packet = 0;
}

static void
write_row (Iter              *it,
           guint64            index,
           bt_message_array_const msgs,
           guint64            capacity,
           guint64           *count)
{
  TwTrace *trace = it->job->trace;
  const TwEventChunk *chunk = tw_trace_get_chunk (trace, (guint) (index >> TW_CHUNK_SHIFT));
  guint row = (guint) (index & TW_CHUNK_MASK);
  guint16 cpu = chunk->cpu[row];
  TypePlan *plan = &it->plans[chunk->type[row]];
  const guint8 *payload = chunk->payload[row] == TW_PAYLOAD_NONE ? NULL : chunk->blob + chunk->payload[row];
  const TwTask *task = tw_trace_get_task (trace, chunk->task[row]);
  const TwTask *arg_task = NULL;
  guint32 arg = chunk->arg[row];
  OutStream *s = stream_for (it, cpu, msgs, capacity, count);
  guint64 time = MAX (chunk->time[row], s->last_time);
  bt_message *msg;
  bt_event *event;
  bt_field *ctx, *fields;

  /* a stream never goes back in time (babeltrace2's muxer stops on one that does);
   * a live store is in time order but for rows the merge could not place */
  s->last_time = time;
  if (s->packet == NULL)
    {
      s->packet = bt_packet_create (s->stream);
      if (s->sc == SC_CPU)
        bt_field_integer_unsigned_set_value (
          bt_field_structure_borrow_member_field_by_index (bt_packet_borrow_context_field (s->packet), 0),
          s->cpu);
      emit (it, bt_message_packet_beginning_create_with_default_clock_snapshot (it->self, s->packet, time),
            msgs, capacity, count);
    }

  switch (plan->type->kind)
    {
    case TW_EVENT_KIND_SWITCH:
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_TASK_EXIT:
      arg_task = tw_trace_get_task (trace, arg);
      break;
    default:
      break;
    }

  msg = bt_message_event_create_with_packet_and_default_clock_snapshot (it->self, event_class_for (it, plan, s->sc),
                                                                          s->packet, time);
  event = bt_message_event_borrow_event (msg);
  ctx = bt_event_borrow_common_context_field (event);
  bt_field_integer_signed_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 0), task ? task->pid : -1);
  bt_field_integer_signed_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 1), task ? task->tid : -1);
  bt_field_string_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 2), task_name (task));
  bt_field_string_set_value (bt_field_structure_borrow_member_field_by_index (ctx, 3), task ? task->source_id : "");
  fields = bt_event_borrow_payload_field (event);
  for (guint i = 0; i < plan->members->len; i++)
    set_member (it, bt_field_structure_borrow_member_field_by_index (fields, i),
                &g_array_index (plan->members, Member, i), plan->type, payload, task, arg_task, arg, cpu);
  emit (it, msg, msgs, capacity, count);

  if (++s->n_in_packet == PACKET_EVENTS)
    close_packet (it, s, msgs, capacity, count);
}

static void
end_streams (Iter              *it,
             bt_message_array_const msgs,
             guint64            capacity,
             guint64           *count)
{
  /* an empty range is still a trace: one empty stream, so the folder and its metadata
   * exist and open as 0 events */
  if (it->streams->len == 0)
    stream_for (it, TW_CPU_NONE, msgs, capacity, count);
  for (guint i = 0; i < it->streams->len; i++)
    {
      OutStream *s = it->streams->pdata[i];

      if (s->packet)
        close_packet (it, s, msgs, capacity, count);
      emit (it, bt_message_stream_end_create (it->self, s->stream), msgs, capacity, count);
    }
  it->ended = TRUE;
}

static bt_message_iterator_class_next_method_status
iter_next (bt_self_message_iterator *self,
           bt_message_array_const    msgs,
           uint64_t                  capacity,
           uint64_t                 *count)
{
  Iter *it = bt_self_message_iterator_get_data (self);
  WriteJob *job = it->job;

  *count = 0;
  while (it->queue_pos < it->queue->len && *count < capacity)
    msgs[(*count)++] = it->queue->pdata[it->queue_pos++];
  if (it->queue_pos == it->queue->len)
    {
      g_ptr_array_set_size (it->queue, 0);
      it->queue_pos = 0;
    }
  else
    return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;

  /* the graph's batch, filled: one event is one message but for packet boundaries */
  while (*count < capacity && it->next < job->end && !job->stopping)
    write_row (it, it->next++, msgs, capacity, count);
  job->written = it->next - job->first;
  if ((it->next == job->end || job->stopping) && !it->ended && *count < capacity)
    end_streams (it, msgs, capacity, count);
  if (*count == 0 && it->ended)
    return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_END;
  return BT_MESSAGE_ITERATOR_CLASS_NEXT_METHOD_STATUS_OK;
}

static bt_stream_class *
make_stream_class (Iter           *it,
                   bt_clock_class *clock,
                   gboolean        per_cpu)
{
  bt_stream_class *sc = bt_stream_class_create (it->tc);
  bt_field_class *ctx = bt_field_class_structure_create (it->tc);
  static const char *const ctx_names[] = { "vpid", "vtid", "procname", "tracewb_task" };

  bt_stream_class_set_name (sc, per_cpu ? "cpu" : "task");
  bt_stream_class_set_default_clock_class (sc, clock);
  bt_stream_class_set_supports_packets (sc, BT_TRUE, BT_TRUE, BT_TRUE);
  if (per_cpu)
    {
      bt_field_class *pc = bt_field_class_structure_create (it->tc);
      bt_field_class *cpu = bt_field_class_integer_unsigned_create (it->tc);

      bt_field_class_integer_set_field_value_range (cpu, 32);
      bt_field_class_structure_append_member (pc, "cpu_id", cpu);
      bt_stream_class_set_packet_context_field_class (sc, pc);
      bt_field_class_put_ref (cpu);
      bt_field_class_put_ref (pc);
    }
  for (guint i = 0; i < G_N_ELEMENTS (ctx_names); i++)
    {
      bt_field_class *fc = i < 2 ? bt_field_class_integer_signed_create (it->tc)
                                 : bt_field_class_string_create (it->tc);

      bt_field_class_structure_append_member (ctx, ctx_names[i], fc);
      bt_field_class_put_ref (fc);
    }
  bt_stream_class_set_event_common_context_field_class (sc, ctx);
  bt_field_class_put_ref (ctx);
  return sc;
}

static bt_message_iterator_class_initialize_method_status
iter_initialize (bt_self_message_iterator               *self,
                 bt_self_message_iterator_configuration *configuration,
                 bt_self_component_port_output          *port)
{
  bt_self_component *comp = bt_self_message_iterator_borrow_component (self);
  WriteJob *job = bt_self_component_get_data (comp);
  Iter *it = g_new0 (Iter, 1);
  bt_clock_class *clock;
  g_autofree char *origin = tw_trace_dup_metadata (job->trace, "time_origin");
  g_autoptr(GString) types = g_string_new (NULL);
  g_autofree char *hosts = NULL;
  g_autofree gboolean *used = g_new0 (gboolean, MAX (job->n_types, 1));

  it->job = job;
  it->self = self;
  it->next = job->first;
  it->streams = g_ptr_array_new_with_free_func (out_stream_free);
  it->queue = g_ptr_array_new ();
  it->tc = bt_trace_class_create (comp);
  /* the store's times are ns from its clock's origin: a 1 GHz clock at offset 0 gives
   * them back exactly */
  clock = bt_clock_class_create (comp);
  bt_clock_class_set_name (clock, "monotonic");
  bt_clock_class_set_frequency (clock, 1000000000);
  bt_clock_class_set_origin_is_unix_epoch (clock, origin && strstr (origin, "Unix epoch") != NULL);
  /* the chunks of one recording share the clock, so babeltrace2 merges them */
  if (job->clock_uuid)
    bt_clock_class_set_uuid (clock, job->clock_uuid);
  it->sc[SC_CPU] = make_stream_class (it, clock, TRUE);
  it->sc[SC_TASK] = make_stream_class (it, clock, FALSE);
  bt_clock_class_put_ref (clock);

  it->plans = g_new0 (TypePlan, MAX (job->n_types, 1));
  for (guint64 e = job->first; e < job->end; e++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (job->trace, (guint) (e >> TW_CHUNK_SHIFT));
      guint16 t = chunk->type[e & TW_CHUNK_MASK];

      if (!used[t])
        {
          used[t] = TRUE;
          plan_type (&it->plans[t], tw_trace_get_event_type (job->trace, t));
          append_type_entry (types, &it->plans[t]);
        }
    }

  it->trace = bt_trace_create (it->tc);
  bt_trace_set_name (it->trace, "tracewb");
  bt_trace_set_environment_entry_string (it->trace, "tracer_name", "tracewb");
  bt_trace_set_environment_entry_string (it->trace, "hostname", g_get_host_name ());
  bt_trace_set_environment_entry_string (it->trace, ENV_EVENT_TYPES, types->str);
  /* after the rows' tasks: every task they name lies below the count read here */
  hosts = dup_hosts_entry (job->trace);
  if (hosts[0])
    bt_trace_set_environment_entry_string (it->trace, ENV_HOSTS, hosts);
  bt_self_message_iterator_set_data (self, it);
  return BT_MESSAGE_ITERATOR_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

static void
iter_finalize (bt_self_message_iterator *self)
{
  Iter *it = bt_self_message_iterator_get_data (self);

  if (it == NULL)
    return;
  for (guint i = it->queue_pos; i < it->queue->len; i++)
    bt_message_put_ref (it->queue->pdata[i]);
  g_ptr_array_unref (it->queue);
  g_ptr_array_unref (it->streams);
  for (guint t = 0; t < it->job->n_types; t++)
    {
      for (guint sc = 0; sc < 2; sc++)
        bt_event_class_put_ref (it->plans[t].ec[sc]);
      if (it->plans[t].members)
        g_array_unref (it->plans[t].members);
    }
  g_free (it->plans);
  g_free (it->by_cpu);
  bt_trace_put_ref (it->trace);
  bt_stream_class_put_ref (it->sc[SC_CPU]);
  bt_stream_class_put_ref (it->sc[SC_TASK]);
  bt_trace_class_put_ref (it->tc);
  g_free (it);
}

static bt_component_class_initialize_method_status
source_initialize (bt_self_component_source               *self,
                   bt_self_component_source_configuration *configuration,
                   const bt_value                         *params,
                   void                                   *data)
{
  bt_self_component_set_data (bt_self_component_source_as_self_component (self), data);
  if (bt_self_component_source_add_output_port (self, "out", NULL, NULL) != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

/* ---------------------------------------------------------------- the graph */

static char *
take_bt_error (void)
{
  const bt_error *error = bt_current_thread_take_error ();
  GString *out = g_string_new (NULL);

  for (guint64 i = 0; error && i < bt_error_get_cause_count (error) && out->len < 300; i++)
    {
      const char *msg = bt_error_cause_get_message (bt_error_borrow_cause_by_index (error, i));

      if (msg == NULL || *msg == '\0' || strstr (msg, "comp-addr=") || strstr (msg, "iter-addr="))
        continue;
      if (out->len)
        g_string_append (out, ": ");
      g_string_append_len (out, msg, strchr (msg, '\n') ? strchr (msg, '\n') - msg : (gssize) strlen (msg));
    }
  if (error)
    bt_error_release (error);
  return g_string_free (out, FALSE);
}

static const bt_component_class_sink *
find_sink (const char       *plugin_name,
           const char       *sink_name,
           const bt_plugin **plugin)
{
  if (bt_plugin_find (plugin_name, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, plugin) != BT_PLUGIN_FIND_STATUS_OK)
    return NULL;
  return bt_plugin_borrow_sink_component_class_by_name_const (*plugin, sink_name);
}

static const bt_component_class_sink *
find_fs_sink (const bt_plugin **plugin)
{
  return find_sink ("ctf", "fs", plugin);
}

/* Writes rows [first, end) as a CTF trace into @dir, which must not exist; with @dir
 * %NULL, into sink.utils.dummy, which takes the messages and writes nothing. */
static gboolean
run_graph (WriteJob        *job,
           const char      *dir,
           TwProgressFunc   progress,
           gpointer         progress_data,
           GCancellable    *cancellable,
           GError         **error)
{
  const bt_plugin *plugin = NULL;
  const bt_component_class_sink *fs_class = dir ? find_fs_sink (&plugin) : find_sink ("utils", "dummy", &plugin);
  bt_message_iterator_class *iter_class = NULL;
  bt_component_class_source *source_class = NULL;
  bt_graph *graph = NULL;
  bt_value *params = NULL;
  const bt_component_source *source = NULL;
  const bt_component_sink *sink = NULL;
  guint64 reported = 0;
  gboolean ok = FALSE;

  if (fs_class == NULL)
    {
      g_free (take_bt_error ());
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: babeltrace2's %s was not found", dir ? dir : "(no file)",
                   dir ? "ctf plugin (sink.ctf.fs)" : "utils plugin (sink.utils.dummy)");
      goto out;
    }

  iter_class = bt_message_iterator_class_create (iter_next);
  bt_message_iterator_class_set_initialize_method (iter_class, iter_initialize);
  bt_message_iterator_class_set_finalize_method (iter_class, iter_finalize);
  source_class = bt_component_class_source_create ("tracewb-trace", iter_class);
  bt_component_class_source_set_initialize_method (source_class, source_initialize);

  params = bt_value_map_create ();
  if (dir)
    {
      bt_value_map_insert_string_entry (params, "path", dir);
      bt_value_map_insert_bool_entry (params, "assume-single-trace", BT_TRUE);
      bt_value_map_insert_bool_entry (params, "quiet", BT_TRUE);
    }

  graph = bt_graph_create (0);
  if (bt_graph_add_source_component_with_initialize_method_data (graph, source_class, "tracewb", NULL, job,
                                                                  BT_LOGGING_LEVEL_NONE, &source)
      != BT_GRAPH_ADD_COMPONENT_STATUS_OK
      || bt_graph_add_sink_component (graph, fs_class, "ctf-fs", params, BT_LOGGING_LEVEL_NONE, &sink)
         != BT_GRAPH_ADD_COMPONENT_STATUS_OK
      || bt_graph_connect_ports (graph, bt_component_source_borrow_output_port_by_index_const (source, 0),
                                 bt_component_sink_borrow_input_port_by_index_const (sink, 0), NULL)
         != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
    goto bt_failed;

  for (;;)
    {
      bt_graph_run_once_status status;

      /* a cancelled graph still runs to its end, the streams ended at once: sink.ctf.fs
       * 2.0 crashes when its graph goes with streams still open */
      if (!job->stopping && g_cancellable_is_cancelled (cancellable))
        job->stopping = TRUE;
      status = bt_graph_run_once (graph);
      if (status == BT_GRAPH_RUN_ONCE_STATUS_END)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto out;
          break;
        }
      if (status == BT_GRAPH_RUN_ONCE_STATUS_AGAIN)
        continue;
      if (status != BT_GRAPH_RUN_ONCE_STATUS_OK)
        goto bt_failed;
      if (progress && job->written - reported >= PROGRESS_EVERY)
        {
          reported = job->written;
          progress ((double) job->written / (double) MAX (job->end - job->first, 1), progress_data);
        }
    }
  ok = TRUE;
  goto out;

bt_failed:
  {
    g_autofree char *why = take_bt_error ();

    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: babeltrace2 could not write the CTF trace%s%s",
                 dir ? dir : "(no file)", why[0] ? ": " : "", why);
  }

out:
  /* the sink writes `metadata` when its trace goes, with the graph */
  bt_graph_put_ref (graph);
  bt_value_put_ref (params);
  bt_component_class_source_put_ref (source_class);
  bt_message_iterator_class_put_ref (iter_class);
  bt_plugin_put_ref (plugin);
  return ok;
}

#endif /* HAVE_BABELTRACE */

/**
 * _tw_ctf_writer_run_source_only:
 *
 * For bench/bench-ctf-record.c: the first @n_events rows of @trace through our source
 * component into sink.utils.dummy, which writes nothing, so that the time our messages
 * cost can be told from sink.ctf.fs's serialisation.
 *
 * Returns: %FALSE with @error set when the graph failed
 */
gboolean
_tw_ctf_writer_run_source_only (TwTrace  *trace,
                                guint64   n_events,
                                GError  **error)
{
#if HAVE_BABELTRACE
  WriteJob job = { 0 };

  job.trace = trace;
  job.end = MIN (n_events, tw_trace_get_n_events (trace));
  job.n_types = tw_trace_get_n_event_types (trace);
  return run_graph (&job, NULL, NULL, NULL, NULL, error);
#else
  return tw_ctf_writer_is_available (error);
#endif
}

/**
 * tw_ctf_writer_is_available:
 *
 * Returns: whether this build and system can write CTF (babeltrace2 and its ctf
 *   plugin); %FALSE with @error set saying what is missing
 */
gboolean
tw_ctf_writer_is_available (GError **error)
{
#if HAVE_BABELTRACE
  const bt_plugin *plugin = NULL;
  gboolean found = find_fs_sink (&plugin) != NULL;

  bt_plugin_put_ref (plugin);
  if (!found)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                         "babeltrace2's ctf plugin (sink.ctf.fs) was not found");
  return found;
#else
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                       "this build has no babeltrace2 (libbabeltrace2-dev) to write CTF with");
  return FALSE;
#endif
}

/**
 * tw_ctf_writer_write_range:
 * @trace: a trace, sealed or growing (a live session's store)
 * @first: the first row to write
 * @end: the row after the last one; at most the rows published when the call starts
 * @path: the trace folder to make; it must not exist
 * @clock_uuid: (nullable): 16 bytes naming the clock, the same for every chunk of one
 *   recording so that babeltrace2 merges them
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes rows [@first, @end) of @trace as a CTF trace into @path (not atomically: see
 * tw_ctf_writer_write_events()). A range without rows is still a trace, of 0 events.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled; what was
 *   written of @path is left for the caller to remove
 */
gboolean
tw_ctf_writer_write_range (TwTrace         *trace,
                           guint64          first,
                           guint64          end,
                           const char      *path,
                           const guint8    *clock_uuid,
                           TwProgressFunc   progress,
                           gpointer         progress_data,
                           GCancellable    *cancellable,
                           GError         **error)
{
#if HAVE_BABELTRACE
  WriteJob job = { 0 };

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* the event count first: the tables read after it cover every row below it */
  job.trace = trace;
  job.end = MIN (end, tw_trace_get_n_events (trace));
  job.first = MIN (first, job.end);
  job.n_types = tw_trace_get_n_event_types (trace);
  job.clock_uuid = clock_uuid;
  if (!check_new_path (path, error)
      || !run_graph (&job, path, progress, progress_data, cancellable, error))
    return FALSE;
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
#else
  return tw_ctf_writer_is_available (error);
#endif
}

/* Writes the range into a hidden folder beside @path, then renames it to @path: the
 * trace appears whole or not at all, and a failure or Cancel leaves nothing. */
static gboolean
write_range_atomically (TwTrace         *trace,
                        guint64          first,
                        guint64          end,
                        const char      *path,
                        const guint8    *clock_uuid,
                        TwProgressFunc   progress,
                        gpointer         progress_data,
                        GCancellable    *cancellable,
                        GError         **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *holder = g_strdup_printf ("%s%s.%s.partial-XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  g_autofree char *partial = NULL;
  g_autoptr(GError) local = NULL;

  if (!check_new_path (path, error))
    return FALSE;
  if (g_mkdtemp_full (holder, 0755) == NULL)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }
  partial = g_build_filename (holder, base, NULL);
  if (tw_ctf_writer_write_range (trace, first, end, partial, clock_uuid, progress, progress_data,
                                 cancellable, &local)
      && sync_tree (partial, &local)
      && !g_cancellable_set_error_if_cancelled (cancellable, &local))
    {
      if (g_rename (partial, path) == 0)
        {
          g_rmdir (holder);
          return TRUE;
        }
      set_error_from_errno (&local, errno, path);
    }
  remove_tree (holder);
  if (strstr (local->message, path))
    g_propagate_error (error, g_steal_pointer (&local));
  else
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return FALSE;
}

/**
 * tw_ctf_writer_write_events:
 * @trace: a trace, sealed or growing (a live session's store)
 * @n_events: how many events to write: the first @n_events of @trace, at most the ones
 *   published when the call starts
 * @path: the trace folder to make; it must not exist
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes the first @n_events events of @trace as a CTF trace folder (a `metadata` file
 * and one stream file per CPU, plus `tasks` for events without a CPU), which
 * `babeltrace2 PATH` prints and Trace Workbench opens with the same events, tasks and
 * fields. The folder appears complete or not at all.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_ctf_writer_write_events (TwTrace         *trace,
                            guint64          n_events,
                            const char      *path,
                            TwProgressFunc   progress,
                            gpointer         progress_data,
                            GCancellable    *cancellable,
                            GError         **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!tw_ctf_writer_is_available (error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return write_range_atomically (trace, 0, n_events, path, NULL, progress, progress_data,
                                 cancellable, error);
}

/* Waits @ms or until @stop is cancelled. Returns: whether it was. */
static gboolean
wait_or_stop (GCancellable *stop,
              guint         ms)
{
  GPollFD fd;
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  if (!g_cancellable_make_pollfd (stop, &fd))
    {
      g_usleep ((gulong) ms * 1000);
      return g_cancellable_is_cancelled (stop);
    }
  while (!g_cancellable_is_cancelled (stop))
    {
      gint64 left = until - g_get_monotonic_time ();

      if (left <= 0)
        break;
      g_poll (&fd, 1, (gint) MAX (1, left / 1000));
    }
  g_cancellable_release_fd (stop);
  return g_cancellable_is_cancelled (stop);
}

/**
 * tw_ctf_writer_keep_recording:
 * @trace: a growing trace (a live session's store)
 * @path: the recording's folder: made now, it must not exist or be empty
 * @chunk_ms: how often a chunk is closed, ms (TW_CTF_KEEP_CHUNK_MS)
 * @stop: cancelled to stop: the rows published by then go into a last chunk
 * @chunk_done: (nullable): called after each chunk, from the calling thread
 *
 * "Keep recording": appends @trace's rows to @path while it grows, in the calling
 * thread, until @stop is cancelled. Every @chunk_ms the rows published since the last
 * chunk become a CTF trace `chunk-NNNNNN` in @path (written as a hidden folder, then
 * renamed), as `lttng rotate` cuts an LTTng session into trace chunks: `babeltrace2
 * PATH` and Trace Workbench read the folder as one trace, and a crash loses at most the
 * chunk being written. One chunk per interval, not one packet, because sink.ctf.fs
 * writes a trace's `metadata` only when the trace ends (event types may still come).
 *
 * Returns: %FALSE with @error set when a chunk could not be written; the chunks
 *   written before stay
 */
gboolean
tw_ctf_writer_keep_recording (TwTrace         *trace,
                              const char      *path,
                              guint            chunk_ms,
                              GCancellable    *stop,
                              TwCtfChunkFunc   chunk_done,
                              gpointer         chunk_data,
                              GError         **error)
{
  guint8 uuid[16];
  guint64 first = 0;
  guint n_chunks = 0;
  gboolean stopping = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (G_IS_CANCELLABLE (stop), FALSE);

  if (!tw_ctf_writer_is_available (error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);

      if (dir == NULL || g_dir_read_name (dir) != NULL)
        return check_new_path (path, error);
    }
  else if (g_mkdir_with_parents (path, 0755) != 0)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }
  for (guint i = 0; i < sizeof uuid; i++)
    uuid[i] = (guint8) g_random_int_range (0, 256);
  uuid[6] = (uuid[6] & 0x0f) | 0x40;   /* a version 4 UUID */
  uuid[8] = (uuid[8] & 0x3f) | 0x80;

  while (!stopping)
    {
      guint64 end;

      stopping = wait_or_stop (stop, MAX (chunk_ms, 1));
      end = tw_trace_get_n_events (trace);
      /* an empty recording is still a trace (of 0 events) */
      if (end > first || (stopping && n_chunks == 0))
        {
          g_autofree char *name = g_strdup_printf ("chunk-%06u", n_chunks + 1);
          g_autofree char *chunk = g_build_filename (path, name, NULL);

          if (!write_range_atomically (trace, first, end, chunk, uuid, NULL, NULL, NULL, error))
            return FALSE;
          first = end;
          n_chunks++;
          if (chunk_done)
            chunk_done (first, n_chunks, chunk_data);
        }
    }
  return TRUE;
}
