/* tw-tracecmd-reader.c: reads trace-cmd trace.dat files through libtracecmd
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-tracecmd-reader.h"
#include "tw-kernel-common-private.h"

#include <string.h>
#include <sys/stat.h>

#if HAVE_LIBTRACECMD
#include <trace-cmd.h>
#endif

/*
 * The store a trace.dat gives equals the one its `trace-cmd report` text gives through
 * the ftrace text reader (tests check it event by event):
 *
 * Time: the record's timestamp as libtracecmd returns it (the file's trace clock, with
 * the file's offsets applied), in ns; "clock" metadata names the clock.
 *
 * Tasks: one per pid, pid 0 one idle task per CPU (see TwKernelTasks). A task takes the
 * latest name it is mentioned with: the file's saved cmdlines for the pid that logged an
 * event, and the comm fields of sched_switch / sched_wakeup / fork / exit. Like the
 * report's sched_switch plugin, a comm seen in those fields names a pid the saved
 * cmdlines do not know for the events that pid logs later.
 *
 * Fields: the canonical events keep the text reader's schemas (prev_state as letters,
 * irq_handler_exit's ret as handled/unhandled, softirq's action name); every other event
 * gets one field per field of its format: numbers at their width and sign (pointers in
 * hex), char arrays and __data_loc strings as strings, other arrays as hex text.
 *
 * Losses: a record whose page lost events before it (missed_events, an overrun of the
 * ring buffer) is preceded by an event `lost_events` of kind TW_EVENT_KIND_LOST at its
 * time on its CPU, count unknown when the page did not say: where `trace-cmd report`
 * prints `CPU:N [M EVENTS DROPPED]`.
 */

#define TRACE_DAT_MAGIC     "\x17\x08\x44tracing"
#define TRACE_DAT_MAGIC_LEN 10
#define CHECK_EVERY         4096

#if HAVE_LIBTRACECMD

/* Exported by libtracecmd 1.3 but missing from its public header. */
const char *tracecmd_get_trace_clock (struct tracecmd_input *handle);
bool tracecmd_compress_is_supported (const char *name, const char *version);
int tracecmd_compress_protos_get (char ***names, char ***versions);

typedef enum {
  DECODE_GENERIC = 0,
  DECODE_SWITCH,
  DECODE_WAKEUP,
  DECODE_IRQ_ENTRY,
  DECODE_IRQ_EXIT,
  DECODE_SOFTIRQ,
  DECODE_FORK,
  DECODE_EXIT,
} Decode;

static const struct {
  const char        *name;
  TwEventKind        kind;
  Decode             decode;
  const TwFieldSpec *fields;  /* NULL: from the event's format */
  guint              n_fields;
} known_events[] = {
  { "sched_switch", TW_EVENT_KIND_SWITCH, DECODE_SWITCH,
    _tw_kernel_switch_fields, G_N_ELEMENTS (_tw_kernel_switch_fields) },
  { "sched_wakeup", TW_EVENT_KIND_WAKEUP, DECODE_WAKEUP,
    _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "sched_wakeup_new", TW_EVENT_KIND_WAKEUP, DECODE_WAKEUP,
    _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY, DECODE_IRQ_ENTRY,
    _tw_kernel_irq_entry_fields, G_N_ELEMENTS (_tw_kernel_irq_entry_fields) },
  { "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT, DECODE_IRQ_EXIT,
    _tw_kernel_irq_exit_fields, G_N_ELEMENTS (_tw_kernel_irq_exit_fields) },
  { "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY, DECODE_SOFTIRQ,
    _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
  { "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT, DECODE_SOFTIRQ,
    _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
  { "sched_process_fork", TW_EVENT_KIND_TASK_CREATE, DECODE_FORK, NULL, 0 },
  { "sched_process_exit", TW_EVENT_KIND_TASK_EXIT, DECODE_EXIT, NULL, 0 },
};

#define COMM_BYTES  16

typedef enum {
  FIELD_NUMBER,
  FIELD_CHARS,     /* char[N] */
  FIELD_DYN_CHARS, /* __data_loc char[] */
  FIELD_ARRAY,     /* any other array, as hex text */
} FieldForm;

typedef struct {
  int       offset;
  int       size;
  guint     elem_size;
  FieldForm form;
  gboolean  is_signed;
  gboolean  relative;  /* __rel_loc */
  gboolean  dynamic;
  /* generic fields only: where the value goes in the type's payload, resolved once per
   * type so that each event's fields are copied without going through a TwValue */
  guint16   store_offset;
  guint8    store_width;   /* bytes: 1, 2, 4 or 8 */
  /* a short string field's last bytes and their id: consecutive events of a type often
   * carry the same comm or name, and a compare is cheaper than hashing it again */
  guint32   last_id_plus_one;
  guint8    last_bytes[COMM_BYTES];
} FieldMap;

/* One event id of the file: its row in the trace's type table and how to decode it. */
typedef struct {
  guint16            type;
  const TwEventType *info;
  TwEventKind        kind;
  Decode             decode;
  FieldMap          *maps;     /* per schema field (generic), or the fields below */
  guint              n_maps;
  /* the fields the canonical decoders read, by role; offset −1 when absent */
  FieldMap           comm, pid, prio, state, next_comm, next_pid, next_prio, target_cpu;
  FieldMap           irq, name, ret, vec;
} DatType;

#define STATE_CACHE 1024
#define SOFTIRQ_CACHE 16

typedef struct {
  guint8  bytes[COMM_BYTES];
  guint32 id_plus_one;
} PidComm;

typedef struct {
  TwTrace               *trace;
  const char            *path;
  struct tep_handle     *tep;
  gboolean               swap;
  DatType              **types;    /* by event id */
  guint                  n_types;
  TwKernelTasks          tasks;
  TwStringCache          strings;
  guint32               *line_comm; /* pid → string id + 1 of the comm the report shows */
  PidComm               *pid_comms; /* pid → its last comm field, see read_comm() */
  guint                  n_pid_comms;
  guint32                state_ids[STATE_CACHE];
  guint32                ret_ids[2];     /* string id + 1 of "unhandled", "handled" */
  guint32                softirq_ids[SOFTIRQ_CACHE]; /* by vec: id + 1 of its action name */
  guint                  n_line_comm;
  guint8                *payload;
  gsize                  payload_cap;
  GString               *text;
  TwEventChunk          *chunk;
  guint16                lost_type;  /* TW_TYPE_NONE until the first loss */
  guint64                skipped;
  guint64                rec_offset; /* of the record being read, for messages */
  guint64                n_events;
  guint                  since_check;
  gint64                 file_size;
  guint64                bytes_read;  /* record bytes with headers, roughly: for progress */
  TwProgressFunc         progress;
  gpointer               progress_data;
  GCancellable          *cancellable;
  gboolean               cancelled;
  GError                *error;
} DatReader;

static void
dat_type_free (DatType *t)
{
  if (t == NULL)
    return;
  g_free (t->maps);
  g_free (t);
}

static FieldMap
map_field (const struct tep_format_field *f)
{
  FieldMap m = { .offset = -1 };

  if (f == NULL)
    return m;
  m.offset = f->offset;
  m.size = f->size;
  m.is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
  m.elem_size = f->elementsize ? f->elementsize : 1;
  m.dynamic = (f->flags & TEP_FIELD_IS_DYNAMIC) != 0;
  m.relative = (f->flags & TEP_FIELD_IS_RELATIVE) != 0;
  if (f->flags & TEP_FIELD_IS_ARRAY || m.dynamic)
    {
      gboolean chars = (f->flags & TEP_FIELD_IS_STRING) || m.elem_size == 1
                       || (f->type && strstr (f->type, "char") != NULL);

      m.form = m.dynamic ? (chars ? FIELD_DYN_CHARS : FIELD_ARRAY)
                         : (chars ? FIELD_CHARS : FIELD_ARRAY);
    }
  else if (f->flags & TEP_FIELD_IS_STRING)
    m.form = FIELD_CHARS;
  else
    m.form = m.size == 1 || m.size == 2 || m.size == 4 || m.size == 8 ? FIELD_NUMBER : FIELD_ARRAY;
  return m;
}

static inline guint64
read_raw (DatReader    *self,
          const guint8 *p,
          int           size)
{
  switch (size)
    {
    case 1:
      return *p;
    case 2:
      {
        guint16 v;

        memcpy (&v, p, 2);
        return self->swap ? GUINT16_SWAP_LE_BE (v) : v;
      }
    case 4:
      {
        guint32 v;

        memcpy (&v, p, 4);
        return self->swap ? GUINT32_SWAP_LE_BE (v) : v;
      }
    case 8:
      {
        guint64 v;

        memcpy (&v, p, 8);
        return self->swap ? GUINT64_SWAP_LE_BE (v) : v;
      }
    default:
      return 0;
    }
}

/* A number field of @rec: FALSE when the field is absent or outside the record. */
static inline gboolean
read_number (DatReader             *self,
             const struct tep_record *rec,
             const FieldMap        *m,
             gint64                *out)
{
  guint64 v;

  if (m->offset < 0 || m->form != FIELD_NUMBER || m->offset + m->size > rec->size)
    return FALSE;
  v = read_raw (self, (const guint8 *) rec->data + m->offset, m->size);
  if (m->is_signed && m->size < 8)
    {
      guint shift = 64 - 8 * m->size;

      *out = (gint64) (v << shift) >> shift;
    }
  else
    *out = (gint64) v;
  return TRUE;
}

/* Where a string or array field's bytes are in @rec, bounded by the record. */
static gboolean
field_span (DatReader               *self,
            const struct tep_record *rec,
            const FieldMap          *m,
            const guint8           **start,
            gsize                   *len)
{
  const guint8 *data = rec->data;

  if (m->offset < 0 || m->offset + m->size > rec->size)
    return FALSE;
  if (m->dynamic)
    {
      guint32 loc = read_raw (self, data + m->offset, 4);
      guint off = loc & 0xffff;
      guint n = loc >> 16;

      if (m->relative)
        off += m->offset + m->size;
      if (off + n > (guint) rec->size)
        return FALSE;
      *start = data + off;
      *len = n;
    }
  else
    {
      *start = data + m->offset;
      *len = m->size;
    }
  return TRUE;
}

/* Whether a char[N] field is short enough for its last value to be kept in its map. */
static inline gboolean
len_fits_last (const FieldMap *m)
{
  return m->size > 0 && m->size <= COMM_BYTES;
}

static gboolean
read_string (DatReader               *self,
             const struct tep_record *rec,
             FieldMap                *m,
             guint32                 *id)
{
  const guint8 *s;
  gsize len;
  gboolean short_chars = !m->dynamic && len_fits_last (m);

  if (!field_span (self, rec, m, &s, &len))
    return FALSE;
  if (short_chars && m->last_id_plus_one != 0 && memcmp (m->last_bytes, s, len) == 0)
    {
      *id = m->last_id_plus_one - 1;
      return TRUE;
    }
  *id = _tw_string_cache_get (&self->strings, (const char *) s, strnlen ((const char *) s, len));
  if (short_chars)
    {
      memcpy (m->last_bytes, s, len);
      m->last_id_plus_one = *id + 1;
    }
  return TRUE;
}

static gboolean
read_array_text (DatReader               *self,
                 const struct tep_record *rec,
                 const FieldMap          *m,
                 guint32                 *id)
{
  const guint8 *s;
  gsize len;
  guint elem = m->elem_size == 2 || m->elem_size == 4 || m->elem_size == 8 ? m->elem_size : 1;

  if (!field_span (self, rec, m, &s, &len))
    return FALSE;
  g_string_truncate (self->text, 0);
  for (gsize i = 0; i + elem <= len; i += elem)
    g_string_append_printf (self->text, i ? ",0x%" G_GINT64_MODIFIER "x" : "0x%" G_GINT64_MODIFIER "x",
                            read_raw (self, s + i, elem));
  *id = _tw_string_cache_get (&self->strings, self->text->str, self->text->len);
  return TRUE;
}

/* The canonical decoders' fields, written straight into the payload: their schemas
 * (tw-kernel-common) fix each field's type, which the asserts hold them to. */
static inline void
set_i64 (const TwEventType *info,
         guint8            *payload,
         guint              field,
         gint64             value)
{
  g_assert (field < info->n_fields && info->fields[field].type == TW_FIELD_I64);
  memcpy (payload + info->offsets[field], &value, 8);
  if (info->presence_bytes)
    payload[field / 8] |= 1u << (field % 8);
}

static inline void
set_str (const TwEventType *info,
         guint8            *payload,
         guint              field,
         guint32            id)
{
  g_assert (field < info->n_fields && info->fields[field].type == TW_FIELD_STRING);
  memcpy (payload + info->offsets[field], &id, 4);
  if (info->presence_bytes)
    payload[field / 8] |= 1u << (field % 8);
}

static DatType *
create_type (DatReader    *self,
             int           id,
             GError      **error)
{
  struct tep_event *event = tep_find_event (self->tep, id);
  g_autofree TwFieldSpec *specs = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  DatType *t;
  guint n = 0;
  int k = -1;

  if (event == NULL)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, self->path, self->rec_offset,
                                     "an event of id %d that the file does not describe", id);
      return NULL;
    }

  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    if (strcmp (known_events[i].name, event->name) == 0)
      k = i;

  t = g_new0 (DatType, 1);
  t->kind = k >= 0 ? known_events[k].kind : TW_EVENT_KIND_OTHER;
  t->decode = k >= 0 ? known_events[k].decode : DECODE_GENERIC;

  if (k >= 0 && known_events[k].fields)
    {
      t->type = tw_trace_add_event_type (self->trace, event->name, event->system, t->kind,
                                         known_events[k].fields, known_events[k].n_fields,
                                         error);
      switch (t->decode)
        {
        case DECODE_SWITCH:
          t->comm = map_field (tep_find_field (event, "prev_comm"));
          t->pid = map_field (tep_find_field (event, "prev_pid"));
          t->prio = map_field (tep_find_field (event, "prev_prio"));
          t->state = map_field (tep_find_field (event, "prev_state"));
          t->next_comm = map_field (tep_find_field (event, "next_comm"));
          t->next_pid = map_field (tep_find_field (event, "next_pid"));
          t->next_prio = map_field (tep_find_field (event, "next_prio"));
          break;
        case DECODE_WAKEUP:
          t->comm = map_field (tep_find_field (event, "comm"));
          t->pid = map_field (tep_find_field (event, "pid"));
          t->prio = map_field (tep_find_field (event, "prio"));
          t->target_cpu = map_field (tep_find_field (event, "target_cpu"));
          break;
        case DECODE_IRQ_ENTRY:
          t->irq = map_field (tep_find_field (event, "irq"));
          t->name = map_field (tep_find_field (event, "name"));
          break;
        case DECODE_IRQ_EXIT:
          t->irq = map_field (tep_find_field (event, "irq"));
          t->ret = map_field (tep_find_field (event, "ret"));
          break;
        case DECODE_SOFTIRQ:
          t->vec = map_field (tep_find_field (event, "vec"));
          break;
        case DECODE_GENERIC:
        case DECODE_FORK:
        case DECODE_EXIT:
        default:
          break;
        }
    }
  else
    {
      struct tep_format_field **fields = tep_event_fields (event);

      for (guint i = 0; fields && fields[i]; i++)
        n++;
      specs = g_new0 (TwFieldSpec, MAX (n, 1));
      t->maps = g_new0 (FieldMap, MAX (n, 1));
      t->n_maps = n;
      for (guint i = 0; i < n; i++)
        {
          const struct tep_format_field *f = fields[i];
          FieldMap m = map_field (f);
          char *name;

          t->maps[i] = m;
          name = g_strdup (f->name);
          g_ptr_array_add (names, name);
          specs[i].name = name;
          specs[i].flags = (f->flags & TEP_FIELD_IS_POINTER) ? TW_FIELD_FLAG_HEX : 0;
          if (m.form != FIELD_NUMBER)
            specs[i].type = TW_FIELD_STRING;
          else if (m.is_signed)
            specs[i].type = m.size == 8 ? TW_FIELD_I64 : TW_FIELD_I32;
          else
            specs[i].type = m.size == 1 ? TW_FIELD_U8 : m.size == 2 ? TW_FIELD_U16
                            : m.size == 4 ? TW_FIELD_U32 : TW_FIELD_U64;
          if (t->decode == DECODE_FORK && strcmp (f->name, "child_pid") == 0)
            t->pid = m;
          if (t->decode == DECODE_FORK && strcmp (f->name, "child_comm") == 0)
            t->comm = m;
          if (t->decode == DECODE_EXIT && strcmp (f->name, "pid") == 0)
            t->pid = m;
          if (t->decode == DECODE_EXIT && strcmp (f->name, "comm") == 0)
            t->comm = m;
        }
      free (fields);
      if (t->decode == DECODE_FORK || t->decode == DECODE_EXIT)
        {
          /* the roles above were filled only when the format has them */
          if (t->pid.size == 0)
            t->pid.offset = -1;
          if (t->comm.size == 0)
            t->comm.offset = -1;
        }
      t->type = tw_trace_add_event_type (self->trace, event->name, event->system, t->kind,
                                         specs, n, error);
    }

  if (t->type == TW_TYPE_NONE)
    {
      g_prefix_error (error, "%s: ", self->path);
      dat_type_free (t);
      return NULL;
    }
  t->info = tw_trace_get_event_type (self->trace, t->type);
  for (guint i = 0; i < t->n_maps; i++)
    {
      t->maps[i].store_offset = t->info->offsets[i];
      switch (t->info->fields[i].type)
        {
        case TW_FIELD_U8:
          t->maps[i].store_width = 1;
          break;
        case TW_FIELD_U16:
          t->maps[i].store_width = 2;
          break;
        case TW_FIELD_U32:
        case TW_FIELD_I32:
        case TW_FIELD_STRING:
          t->maps[i].store_width = 4;
          break;
        case TW_FIELD_U64:
        case TW_FIELD_I64:
        case TW_FIELD_F64:
        default:
          t->maps[i].store_width = 8;
          break;
        }
    }
  if (t->info->payload_size > self->payload_cap)
    {
      self->payload_cap = t->info->payload_size;
      self->payload = g_realloc (self->payload, self->payload_cap);
    }
  return t;
}

static inline DatType *
lookup_type (DatReader *self,
             int        id)
{
  if (id < 0 || id > G_MAXUINT16)
    return NULL;
  if ((guint) id >= self->n_types)
    {
      guint n = MAX ((guint) id + 1, self->n_types * 2);

      self->types = g_renew (DatType *, self->types, n);
      memset (self->types + self->n_types, 0, (n - self->n_types) * sizeof (DatType *));
      self->n_types = n;
    }
  if (self->types[id] == NULL && self->error == NULL)
    self->types[id] = create_type (self, id, &self->error);
  return self->types[id];
}

/* The comm `trace-cmd report` prints for @pid: the saved cmdline, else a comm the
 * sched_switch plugin registered, else `<...>`. */
static guint32 *
line_comm_slot (DatReader *self,
                gint64     pid)
{
  if (pid < 0 || pid >= (1 << 22))
    return NULL;
  if ((guint64) pid >= self->n_line_comm)
    {
      guint n = MAX ((guint) pid + 1, MIN (MAX (self->n_line_comm, 256) * 2, 1u << 22));

      self->line_comm = g_renew (guint32, self->line_comm, n);
      memset (self->line_comm + self->n_line_comm, 0, (n - self->n_line_comm) * sizeof (guint32));
      self->n_line_comm = n;
    }
  return &self->line_comm[pid];
}

static guint32
line_comm (DatReader *self,
           gint64     pid)
{
  guint32 *slot = line_comm_slot (self, pid);
  const char *comm;

  if (slot && *slot)
    return *slot - 1;
  comm = tep_data_comm_from_pid (self->tep, pid);
  if (comm == NULL)
    comm = "<...>";
  if (slot == NULL)
    return _tw_string_cache_get (&self->strings, comm, strlen (comm));
  *slot = _tw_string_cache_get (&self->strings, comm, strlen (comm)) + 1;
  return *slot - 1;
}

static void
register_comm (DatReader *self,
               gint64     pid,
               guint32    comm)
{
  guint32 *slot = line_comm_slot (self, pid);
  const char *known;

  if (slot == NULL || pid == 0)
    return;
  line_comm (self, pid);
  /* every switch and wakeup names its tasks again: the usual case changes nothing */
  if (*slot == comm + 1)
    return;
  known = tw_trace_get_string (self->trace, *slot - 1);
  if (!_tw_kernel_comm_is_known (known, strlen (known)))
    *slot = comm + 1;
}

/* A comm field (char[16]) of @pid: the last bytes seen for the pid are kept, so the
 * usual case, the same comm again, costs one compare instead of a hash lookup. */
static gboolean
read_comm (DatReader               *self,
           const struct tep_record *rec,
           FieldMap                *m,
           gint64                   pid,
           guint32                 *id)
{
  const guint8 *s;
  gsize len;
  PidComm *slot;

  if (m->dynamic || m->size != COMM_BYTES || pid < 0 || pid >= (1 << 22))
    return read_string (self, rec, m, id);
  if (!field_span (self, rec, m, &s, &len))
    return FALSE;
  if ((guint64) pid >= self->n_pid_comms)
    {
      guint n = MAX ((guint) pid + 1, MIN (MAX (self->n_pid_comms, 256) * 2, 1u << 22));

      self->pid_comms = g_renew (PidComm, self->pid_comms, n);
      memset (self->pid_comms + self->n_pid_comms, 0, (n - self->n_pid_comms) * sizeof (PidComm));
      self->n_pid_comms = n;
    }
  slot = &self->pid_comms[pid];
  if (slot->id_plus_one == 0 || memcmp (slot->bytes, s, COMM_BYTES) != 0)
    {
      memcpy (slot->bytes, s, COMM_BYTES);
      slot->id_plus_one = _tw_string_cache_get (&self->strings, (const char *) s,
                                                strnlen ((const char *) s, COMM_BYTES)) + 1;
    }
  *id = slot->id_plus_one - 1;
  return TRUE;
}

/* prev_state's letters, by raw value, with the task state they name */
static guint32
state_id (DatReader *self,
          gint64     value)
{
  char state[24];
  gsize len;

  if (value >= 0 && value < STATE_CACHE && self->state_ids[value])
    return self->state_ids[value] - 1;
  len = _tw_kernel_format_prev_state (value, state, sizeof state);
  if (value >= 0 && value < STATE_CACHE)
    return (self->state_ids[value] = _tw_string_cache_get_prev_state (&self->strings, state, len) + 1) - 1;
  return _tw_string_cache_get_prev_state (&self->strings, state, len);
}

/* Every field of a generic event, straight from the record into the payload at the
 * place and width create_type() resolved for it. */
static void
fill_generic (DatReader               *self,
              DatType                 *t,
              const struct tep_record *rec)
{
  guint8 *payload = self->payload;
  const guint8 *data = rec->data;
  gboolean presence = t->info->presence_bytes > 0;

  for (guint i = 0; i < t->n_maps; i++)
    {
      FieldMap *m = &t->maps[i];
      guint8 *p = payload + m->store_offset;

      if (m->form == FIELD_NUMBER)
        {
          guint64 v;

          if (m->offset < 0 || m->offset + m->size > rec->size)
            continue;
          v = read_raw (self, data + m->offset, m->size);
          if (m->is_signed && m->size < m->store_width)
            {
              guint shift = 64 - 8 * m->size;

              v = (guint64) ((gint64) (v << shift) >> shift);
            }
          switch (m->store_width)
            {
            case 1: { guint8 w = v;  memcpy (p, &w, 1); break; }
            case 2: { guint16 w = v; memcpy (p, &w, 2); break; }
            case 4: { guint32 w = v; memcpy (p, &w, 4); break; }
            default: memcpy (p, &v, 8); break;
            }
        }
      else
        {
          guint32 id;

          if (!(m->form == FIELD_ARRAY ? read_array_text (self, rec, m, &id)
                                       : read_string (self, rec, m, &id)))
            continue;
          memcpy (p, &id, 4);
        }
      if (presence)
        payload[i / 8] |= 1u << (i % 8);
    }
}

static void
push_record (DatReader    *self,
             guint64       time,
             int           cpu,
             guint16       type,
             guint32       task,
             guint32       arg,
             const guint8 *payload,
             guint         payload_size)
{
  if (self->chunk->n == TW_CHUNK_SIZE)
    {
      /* a second chunk means a big trace: its payloads in one blob (of huge pages, once
       * big), sized like the last chunk's, since untouched reserve costs clearing too */
      gsize last = self->chunk->blob_len;

      self->chunk = tw_trace_begin_append (self->trace);
      tw_event_chunk_reserve_blob (self->chunk, last + last / 16);
    }
  tw_event_chunk_push (self->chunk, time, cpu, type, task, arg, payload, payload_size);
}

/* The events @rec's page lost before it (-1: some, uncounted), as a lost event. */
static gboolean
push_lost (DatReader               *self,
           const struct tep_record *rec,
           int                      cpu)
{
  guint64 count = rec->missed_events > 0 ? (guint64) rec->missed_events : TW_LOST_COUNT_UNKNOWN;
  const TwEventType *info;
  guint8 payload[64];

  if (self->lost_type == TW_TYPE_NONE
      && (self->lost_type = tw_lost_events_add_type (self->trace, "lost_events", &self->error)) == TW_TYPE_NONE)
    return FALSE;
  info = tw_trace_get_event_type (self->trace, self->lost_type);
  g_assert (info->payload_size <= sizeof payload);
  tw_lost_events_pack (info, payload, count, 0, TW_TIME_NONE);
  push_record (self, rec->ts, cpu, self->lost_type, TW_TASK_NONE, tw_lost_events_arg (count),
               payload, info->payload_size);
  return TRUE;
}

/* A record too short for its own format: counted (metadata `skipped_records`), not kept. */
static int
skip_record (DatReader *self)
{
  self->skipped++;
  return 0;
}

static int
handle_record (struct tracecmd_input *handle,
               struct tep_record     *rec,
               int                    cpu,
               void                  *data)
{
  DatReader *self = data;
  DatType *t;
  guint8 *payload = self->payload;
  guint32 task;
  guint32 arg = 0;
  guint32 id;
  gint64 pid;
  gint64 v;

  /* Records come merged in time from per-CPU sections, so their offsets jump back and
   * forth: progress counts the bytes read instead, which only grows. */
  self->bytes_read += rec->size + 8;
  if (G_UNLIKELY (++self->since_check == CHECK_EVERY))
    {
      self->since_check = 0;
      tw_trace_end_append (self->trace);
      if (g_cancellable_is_cancelled (self->cancellable))
        {
          self->cancelled = TRUE;
          return 1;
        }
      if (self->progress && self->file_size > 0)
        self->progress (MIN (0.99, (double) self->bytes_read / self->file_size), self->progress_data);
    }

  if (cpu < 0 || cpu >= TW_CPU_NONE)
    return skip_record (self);
  if (rec->missed_events != 0 && !push_lost (self, rec, cpu))
    return 1;
  if (rec->size < 8)
    return skip_record (self);

  self->rec_offset = rec->offset;
  t = lookup_type (self, (int) read_raw (self, rec->data, 2));
  if (t == NULL)
    return 1;

  pid = (gint32) read_raw (self, (const guint8 *) rec->data + 4, 4);
  task = _tw_kernel_tasks_get (&self->tasks, pid, cpu);
  _tw_kernel_tasks_rename (&self->tasks, task, line_comm (self, pid));

  memset (payload, 0, t->info->payload_size);
  switch (t->decode)
    {
    case DECODE_SWITCH:
      {
        gint64 next_pid;
        guint32 prev_comm = 0, next_comm = 0;
        gboolean have_prev_comm, have_next_comm;

        if (!read_number (self, rec, &t->pid, &pid) || !read_number (self, rec, &t->next_pid, &next_pid))
          return skip_record (self);
        have_prev_comm = read_comm (self, rec, &t->comm, pid, &prev_comm);
        have_next_comm = read_comm (self, rec, &t->next_comm, next_pid, &next_comm);
        if (have_prev_comm)
          set_str (t->info, payload, 0, prev_comm);
        set_i64 (t->info, payload, 1, pid);
        if (read_number (self, rec, &t->prio, &v))
          set_i64 (t->info, payload, 2, v);
        if (read_number (self, rec, &t->state, &v))
          set_str (t->info, payload, 3, state_id (self, v));
        if (have_next_comm)
          set_str (t->info, payload, 4, next_comm);
        set_i64 (t->info, payload, 5, next_pid);
        if (read_number (self, rec, &t->next_prio, &v))
          set_i64 (t->info, payload, 6, v);

        task = _tw_kernel_tasks_get (&self->tasks, pid, cpu);
        if (have_prev_comm)
          {
            _tw_kernel_tasks_rename (&self->tasks, task, prev_comm);
            register_comm (self, pid, prev_comm);
          }
        arg = _tw_kernel_tasks_get (&self->tasks, next_pid, cpu);
        if (have_next_comm)
          {
            _tw_kernel_tasks_rename (&self->tasks, arg, next_comm);
            register_comm (self, next_pid, next_comm);
          }
      }
      break;

    case DECODE_WAKEUP:
      {
        gint64 target = cpu;
        gboolean have_comm;

        if (!read_number (self, rec, &t->pid, &pid))
          return skip_record (self);
        have_comm = read_comm (self, rec, &t->comm, pid, &id);
        if (have_comm)
          set_str (t->info, payload, 0, id);
        set_i64 (t->info, payload, 1, pid);
        if (read_number (self, rec, &t->prio, &v))
          set_i64 (t->info, payload, 2, v);
        if (read_number (self, rec, &t->target_cpu, &target))
          set_i64 (t->info, payload, 3, target);
        if (target < 0 || target >= TW_CPU_NONE)
          target = cpu;
        arg = _tw_kernel_tasks_get (&self->tasks, pid, target);
        if (have_comm)
          {
            _tw_kernel_tasks_rename (&self->tasks, arg, id);
            register_comm (self, pid, id);
          }
      }
      break;

    case DECODE_IRQ_ENTRY:
    case DECODE_IRQ_EXIT:
      if (!read_number (self, rec, &t->irq, &v) || v < 0 || v > G_MAXUINT32)
        return skip_record (self);
      arg = v;
      set_i64 (t->info, payload, 0, v);
      if (t->decode == DECODE_IRQ_ENTRY && read_string (self, rec, &t->name, &id))
        set_str (t->info, payload, 1, id);
      if (t->decode == DECODE_IRQ_EXIT && read_number (self, rec, &t->ret, &v))
        {
          guint32 *slot = &self->ret_ids[v != 0];

          if (*slot == 0)
            {
              const char *ret = v ? "handled" : "unhandled";

              *slot = _tw_string_cache_get (&self->strings, ret, strlen (ret)) + 1;
            }
          set_str (t->info, payload, 1, *slot - 1);
        }
      break;

    case DECODE_SOFTIRQ:
      {
        const char *action;

        if (!read_number (self, rec, &t->vec, &v) || v < 0 || v > G_MAXUINT32)
          return skip_record (self);
        arg = v;
        set_i64 (t->info, payload, 0, v);
        if (v < SOFTIRQ_CACHE && self->softirq_ids[v] != 0)
          set_str (t->info, payload, 1, self->softirq_ids[v] - 1);
        else if ((action = _tw_kernel_softirq_name (v)))
          {
            id = _tw_string_cache_get (&self->strings, action, strlen (action));
            if (v < SOFTIRQ_CACHE)
              self->softirq_ids[v] = id + 1;
            set_str (t->info, payload, 1, id);
          }
      }
      break;

    case DECODE_FORK:
      fill_generic (self, t, rec);
      arg = TW_TASK_NONE;
      if (read_number (self, rec, &t->pid, &pid))
        {
          arg = _tw_kernel_tasks_get (&self->tasks, pid, cpu);
          if (read_string (self, rec, &t->comm, &id))
            _tw_kernel_tasks_rename (&self->tasks, arg, id);
        }
      break;

    case DECODE_EXIT:
      {
        gint64 line_pid = pid;

        fill_generic (self, t, rec);
        if (read_number (self, rec, &t->pid, &pid) && pid != line_pid)
          {
            task = _tw_kernel_tasks_get (&self->tasks, pid, cpu);
            if (read_string (self, rec, &t->comm, &id))
              _tw_kernel_tasks_rename (&self->tasks, task, id);
          }
        arg = task;
      }
      break;

    case DECODE_GENERIC:
    default:
      fill_generic (self, t, rec);
      break;
    }

  push_record (self, rec->ts, cpu, t->type, task, arg, payload, t->info->payload_size);
  self->n_events++;
  return 0;
}

static void
dat_reader_clear (DatReader *self)
{
  for (guint i = 0; i < self->n_types; i++)
    dat_type_free (self->types[i]);
  g_clear_pointer (&self->types, g_free);
  g_clear_pointer (&self->line_comm, g_free);
  g_clear_pointer (&self->pid_comms, g_free);
  g_clear_pointer (&self->payload, g_free);
  if (self->text)
    g_string_free (g_steal_pointer (&self->text), TRUE);
  _tw_kernel_tasks_clear (&self->tasks);
  _tw_string_cache_clear (&self->strings);
}

/* libtracecmd 1.3's tracecmd_close() crashes on a handle whose tracecmd_init_data()
 * failed. Such a handle is kept, reachable, for the life of the process instead: a few
 * kB per broken file a user tried to open. */
static void
keep_broken_handle (struct tracecmd_input *handle)
{
  static GPtrArray *broken;
  G_LOCK_DEFINE_STATIC (broken);

  G_LOCK (broken);
  if (broken == NULL)
    broken = g_ptr_array_new ();
  g_ptr_array_add (broken, handle);
  G_UNLOCK (broken);
}

/* "zstd", "zstd and zlib": what this libtracecmd decompresses, asked at run time
 * (distributions build it with different codecs). */
static char *
dup_codecs (void)
{
  char **names = NULL;
  char **versions = NULL;
  int n = tracecmd_compress_protos_get (&names, &versions);
  GString *out = g_string_new (NULL);

  for (int i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append (out, i + 1 == n ? " and " : ", ");
      g_string_append (out, names[i]);
    }
  free (names);
  free (versions);
  return g_string_free (out, FALSE);
}

/* Version 7 files name their codec after the page size: a codec this libtracecmd lacks
 * would otherwise fail as "truncated or corrupt". */
static gboolean
check_compression (const char  *path,
                   const char  *data,
                   gsize        len,
                   gsize        offset,
                   GError     **error)
{
  const char *name = data + offset;
  const char *name_end = offset < len ? memchr (name, '\0', len - offset) : NULL;
  const char *version;
  g_autofree char *codecs = NULL;

  if (name_end == NULL || memchr (name_end + 1, '\0', data + len - (name_end + 1)) == NULL)
    return TRUE;  /* cut: libtracecmd says so */
  version = name_end + 1;
  if (strcmp (name, "none") == 0 || tracecmd_compress_is_supported (name, version))
    return TRUE;
  codecs = dup_codecs ();
  if (codecs[0] == '\0')
    tw_reader_set_error_at_offset (error, TW_READER_ERROR_UNSUPPORTED, path, offset,
                                   "compressed with %.32s; this system's libtracecmd reads "
                                   "no compressed trace.dat", name);
  else if (tracecmd_compress_is_supported (name, NULL))
    tw_reader_set_error_at_offset (error, TW_READER_ERROR_UNSUPPORTED, path, offset,
                                   "compressed with %.32s %.32s; this system's libtracecmd "
                                   "cannot read that version", name, version);
  else
    tw_reader_set_error_at_offset (error, TW_READER_ERROR_UNSUPPORTED, path, offset,
                                   "compressed with %.32s; this system's libtracecmd reads "
                                   "%s only", name, codecs);
  return FALSE;
}

/* libtracecmd reports what it cannot read on stderr and returns NULL; say what we know. */
static gboolean
check_header (const char  *path,
              char        *version,
              gsize        version_len,
              GError     **error)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, error);
  const char *data;
  gsize len;

  if (file == NULL)
    return FALSE;
  data = g_mapped_file_get_contents (file);
  len = g_mapped_file_get_length (file);
  if (len < TRACE_DAT_MAGIC_LEN || memcmp (data, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN) != 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                     "not a trace.dat file (no “\\x17\\x08\\x44tracing” magic)");
      return FALSE;
    }
  /* the magic is followed by the file version as NUL-terminated decimal text */
  version[0] = '\0';
  for (gsize i = 0; i + 1 < version_len && TRACE_DAT_MAGIC_LEN + i < len; i++)
    {
      char c = data[TRACE_DAT_MAGIC_LEN + i];

      if (!g_ascii_isdigit (c))
        break;
      version[i] = c;
      version[i + 1] = '\0';
    }
  /* then endianness (1 byte), size of a long (1), page size (4), and from version 7
   * on the codec's name and version, each NUL-terminated */
  if (g_ascii_strtoull (version, NULL, 10) >= 7)
    return check_compression (path, data, len, TRACE_DAT_MAGIC_LEN + strlen (version) + 1 + 6,
                              error);
  return TRUE;
}

static gboolean
read_trace_dat (const char      *path,
                TwTrace         *trace,
                TwProgressFunc   progress,
                gpointer         progress_data,
                GCancellable    *cancellable,
                GError         **error)
{
  DatReader self = { 0 };
  struct tracecmd_input *handle;
  struct stat st;
  const char *clock;
  g_autoptr(GString) buffers = g_string_new (NULL);
  char version[16];
  int n_buffers;
  int n_cpus;
  int status;
  gboolean ok = FALSE;

  if (!check_header (path, version, sizeof version, error))
    return FALSE;

  tracecmd_set_loglevel (TEP_LOG_NONE);
  tep_set_loglevel (TEP_LOG_NONE);
  handle = tracecmd_open_head (path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
  if (handle == NULL)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                     "libtracecmd cannot open this trace.dat (its headers are "
                                     "truncated or corrupt, or its version is unknown)");
      return FALSE;
    }
  /* tracecmd_open() would do this too, but crashes closing the handle when it fails */
  if (tracecmd_init_data (handle) < 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_TRUNCATED, path, 0,
                                     "libtracecmd cannot find the event data this trace.dat "
                                     "announces (the file is truncated or its CPU sections are "
                                     "corrupt)");
      keep_broken_handle (handle);
      return FALSE;
    }

  self.trace = trace;
  self.path = path;
  self.lost_type = TW_TYPE_NONE;
  self.tep = tracecmd_get_tep (handle);
  self.swap = tep_is_file_bigendian (self.tep) != (G_BYTE_ORDER == G_BIG_ENDIAN);
  self.payload_cap = 64;
  self.payload = g_malloc0 (self.payload_cap);
  self.text = g_string_sized_new (64);
  self.file_size = stat (path, &st) == 0 ? st.st_size : 0;
  self.progress = progress;
  self.progress_data = progress_data;
  self.cancellable = cancellable;
  _tw_kernel_tasks_init (&self.tasks, trace);
  _tw_string_cache_init (&self.strings, trace);

  n_cpus = tep_get_cpus (self.tep);
  if (n_cpus > 0)
    tw_trace_note_cpu (trace, MIN (n_cpus, TW_CPU_NONE) - 1);

  self.chunk = tw_trace_begin_append (trace);
  status = tracecmd_iterate_events (handle, NULL, 0, handle_record, &self);

  /* `trace-cmd record/extract -B NAME` puts tracefs instances in buffers of their own,
   * often with nothing in the top one: their events join the same store */
  n_buffers = tracecmd_buffer_instances (handle);
  for (int i = 0; i < n_buffers && status >= 0 && !self.cancelled && self.error == NULL; i++)
    {
      struct tracecmd_input *buffer = tracecmd_buffer_instance_handle (handle, i);
      const char *name = tracecmd_buffer_instance_name (handle, i);

      if (buffer == NULL)
        {
          tw_trace_end_append (trace);
          tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                         "libtracecmd cannot open the buffer “%s” of this trace.dat",
                                         name ? name : "?");
          goto out;
        }
      if (buffers->len)
        g_string_append (buffers, ", ");
      g_string_append (buffers, name ? name : "?");
      status = tracecmd_iterate_events (buffer, NULL, 0, handle_record, &self);
      tracecmd_close (buffer);
    }
  tw_trace_end_append (trace);
  if (buffers->len)
    tw_trace_set_metadata (trace, "trace_dat_buffers", buffers->str);

  if (self.error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&self.error));
      goto out;
    }
  if (self.cancelled)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      goto out;
    }
  if (status < 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                     "libtracecmd failed reading the event data after %" G_GUINT64_FORMAT
                                     " events", self.n_events);
      goto out;
    }
  clock = tracecmd_get_trace_clock (handle);
  if (clock != NULL)
    tw_trace_set_metadata (trace, "clock", clock);
  tw_trace_set_metadata (trace, "time_origin", "absolute kernel trace clock");
  if (version[0] != '\0')
    tw_trace_set_metadata (trace, "trace_dat_version", version);
  if (self.skipped > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self.skipped);

      tw_trace_set_metadata (trace, "skipped_records", n);
    }
  if (progress)
    progress (1.0, progress_data);
  ok = TRUE;

out:
  dat_reader_clear (&self);
  tracecmd_close (handle);
  return ok;
}

static const char *
tw_tracecmd_reader_get_library (void)
{
  return "libtracecmd " TW_LIBTRACECMD_VERSION;
}

#endif /* HAVE_LIBTRACECMD */

/* ---------------------------------------------------------------- the reader */

/* The magic is recognised even without libtracecmd, so the error can say what is missing. */
static guint
tw_tracecmd_reader_probe (const char   *path,
                          const guint8 *head,
                          gsize         head_len)
{
  return head_len >= TRACE_DAT_MAGIC_LEN
         && memcmp (head, TRACE_DAT_MAGIC, TRACE_DAT_MAGIC_LEN) == 0 ? 100 : 0;
}

const TwReaderInfo tw_tracecmd_reader_info = {
  .name = "trace-dat",
  .label = "trace.dat",
  .description = "trace-cmd trace.dat (versions 6 and 7), through libtracecmd",
  .suffixes = (const char *const[]) { "dat", NULL },
  .probe = tw_tracecmd_reader_probe,
#if HAVE_LIBTRACECMD
  .read = read_trace_dat,
  .get_library = tw_tracecmd_reader_get_library,
#endif
  .build_package = "libtracecmd-dev",
};
