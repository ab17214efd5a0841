/* tw-ctf-reader.c: reads CTF traces (LTTng) through libbabeltrace2
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-reader.h"
#include "tw-ctf-decoder-private.h"
#include "tw-ctf-plan-private.h"
#include "tw-gtop-types.h"
#include "tw-kernel-common-private.h"
#include "tw-lttng-sensor-decoder-private.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#if HAVE_BABELTRACE
#include <babeltrace2/babeltrace.h>
#endif

/*
 * A trace directory (or its `metadata` file) goes through babeltrace2's `src.ctf.fs`
 * into a sink of ours with one input port per stream, which merges the streams' message
 * batches by event time itself instead of through babeltrace2's muxer: cheaper, and it
 * keeps working on traces whose packets overlap in time (the muxer stops on them;
 * metadata `ctf_overlapping_packets` counts them). Should a stream's events go back in
 * time, the store sorts them when sealed.
 *
 * Time: each event's default clock snapshot in ns from the clock's origin (for LTTng,
 * the Unix epoch), what `babeltrace2 --clock-seconds` prints.
 * CPU: the packet context's `cpu_id`.
 * Tasks: as the ftrace readers key them (TwKernelTasks), by tid. A kernel event's task is
 * the one sched_switch last switched in on its stream (LTTng kernel streams are per
 * CPU), unless the event carries a `tid`/`vtid` context.
 * Hosts: a folder whose traces name two hostnames or more in their environment (a relay's
 * output of several targets) has each trace's CPUs as CPUs of its host
 * (tw_trace_add_host_cpu) and its tasks as "HOST/TID", as a live session of several
 * targets has them: CPU 0 or tid 1234 of one machine is not another's.
 * Kinds: sched_switch (prev_tid → next_tid; prev_state as letters), sched_wakeup(_new),
 * irq_handler_entry/exit, softirq_entry/exit (irq_softirq_* in LTTng 2.8+),
 * sched_process_fork/exit; every other event (syscalls included) keeps its payload as
 * fields: integers at their width, reals, strings, and compound fields as text.
 * Losses: babeltrace2's discarded-events messages (from the packet context's
 * events_discarded counter) and discarded-packets messages (gaps in packet_seq_num)
 * become events `discarded_events` / `discarded_packets` of kind TW_EVENT_KIND_LOST on
 * the stream's CPU, at the end of the gap, with its beginning as `since`.
 */

#define CHECK_EVERY 4096
#define BIG_BLOB    (2u << 20)

/* CTF 2 metadata is a JSON text sequence (RFC 7464): a record separator, then the
 * preamble fragment. */
static gboolean
is_ctf2_metadata (const guint8 *head,
                  gsize         len)
{
  return len >= 2 && head[0] == 0x1e
         && g_strstr_len ((const char *) head, MIN (len, 256), "\"preamble\"") != NULL;
}

/* The first bytes of a CTF metadata file: TSDL text, or packetized metadata whose
 * packets start with 0x75D11D57 in the trace's byte order, or CTF 2's JSON. */
static gboolean
is_ctf_metadata (const guint8 *head,
                 gsize         len)
{
  static const guint8 magic_be[] = { 0x75, 0xd1, 0x1d, 0x57 };
  static const guint8 magic_le[] = { 0x57, 0x1d, 0xd1, 0x75 };

  if (len >= 4 && (memcmp (head, magic_be, 4) == 0 || memcmp (head, magic_le, 4) == 0))
    return TRUE;
  return (len >= 9 && memcmp (head, "/* CTF 1.", 9) == 0) || is_ctf2_metadata (head, len);
}

#define MAX_SESSION_DEPTH 6

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The trace folders at or below @dir, in name order: an LTTng session folder holds its
 * traces in `kernel/` and `ust/uid/1000/64-bit/`, and babeltrace2 reads them all. */
static void
collect_trace_dirs (const char *dir,
                    guint       depth,
                    GPtrArray  *dirs)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GDir) d = NULL;
  const char *name;

  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    {
      g_ptr_array_add (dirs, g_strdup (dir));
      return;
    }
  if (depth == MAX_SESSION_DEPTH || !(d = g_dir_open (dir, 0, NULL)))
    return;
  names = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (d)))
    g_ptr_array_add (names, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (names, compare_strings);
  for (guint i = 0; i < names->len; i++)
    if (g_file_test (names->pdata[i], G_FILE_TEST_IS_DIR))
      collect_trace_dirs (names->pdata[i], depth + 1, dirs);
}

/* The trace folders of @path: @path itself, the folder of its `metadata` file, or the
 * traces below a session folder. Empty when there is none. */
static GPtrArray *
dup_trace_dirs (const char *path)
{
  GPtrArray *dirs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *base = NULL;

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      collect_trace_dirs (path, 0, dirs);
      return dirs;
    }
  base = g_path_get_basename (path);
  if (strcmp (base, "metadata") == 0)
    g_ptr_array_add (dirs, g_path_get_dirname (path));
  return dirs;
}

#if HAVE_BABELTRACE

typedef enum {
  DECODE_GENERIC = 0,
  DECODE_SWITCH,
  DECODE_WAKEUP,
  DECODE_IRQ,
  DECODE_SOFTIRQ,
  DECODE_FORK,
  DECODE_EXIT,
  DECODE_ARG,       /* the store's arg is a payload member (tw-ctf-writer.c) */
  DECODE_TRACEWB,   /* tracewb-cli monitor --lttng's events (tw-lttng-sensor-decoder.c) */
} Decode;

static const struct {
  const char  *name;
  TwEventKind  kind;
  Decode       decode;
} known_events[] = {
  { "sched_switch",       TW_EVENT_KIND_SWITCH,        DECODE_SWITCH },
  { "sched_wakeup",       TW_EVENT_KIND_WAKEUP,        DECODE_WAKEUP },
  { "sched_wakeup_new",   TW_EVENT_KIND_WAKEUP,        DECODE_WAKEUP },
  { "irq_handler_entry",  TW_EVENT_KIND_IRQ_ENTRY,     DECODE_IRQ },
  { "irq_handler_exit",   TW_EVENT_KIND_IRQ_EXIT,      DECODE_IRQ },
  { "softirq_entry",      TW_EVENT_KIND_SOFTIRQ_ENTRY, DECODE_SOFTIRQ },
  { "softirq_exit",       TW_EVENT_KIND_SOFTIRQ_EXIT,  DECODE_SOFTIRQ },
  { "irq_softirq_entry",  TW_EVENT_KIND_SOFTIRQ_ENTRY, DECODE_SOFTIRQ },
  { "irq_softirq_exit",   TW_EVENT_KIND_SOFTIRQ_EXIT,  DECODE_SOFTIRQ },
  { "sched_process_fork", TW_EVENT_KIND_TASK_CREATE,   DECODE_FORK },
  { "sched_process_exit", TW_EVENT_KIND_TASK_EXIT,     DECODE_EXIT },
};

/* Roles the canonical decoders read, as payload member indexes (−1: absent). */
enum {
  ROLE_PREV_COMM, ROLE_PREV_TID, ROLE_PREV_STATE, ROLE_NEXT_COMM, ROLE_NEXT_TID,
  ROLE_COMM, ROLE_TID, ROLE_TARGET_CPU, ROLE_IRQ, ROLE_VEC,
  ROLE_CHILD_COMM, ROLE_CHILD_TID, ROLE_CHILD_PID,
  N_ROLES
};

static const char *const role_names[N_ROLES] = {
  "prev_comm", "prev_tid", "prev_state", "next_comm", "next_tid",
  "comm", "tid", "target_cpu", "irq", "vec",
  "child_comm", "child_tid", "child_pid",
};

typedef struct {
  guint16            type;
  const TwEventType *info;
  TwEventKind        kind;
  Decode             decode;
  guint              n_members;
  guint              n_fields;      /* the members that are fields: all, or all but the last */
  int                arg_member;    /* DECODE_ARG: the member holding the arg, or −1 */
  int                role[N_ROLES];
  int                state_field;   /* prev_state stored as letters, or −1 */
  TwLttngSensorEvent tracewb;       /* DECODE_TRACEWB: which one */
} CtfType;

/* A discarded gap, told before the events of its stream's packet that it ends with: it
 * goes into the store when the merged events reach its end, so the store stays sorted. */
typedef struct {
  gint64   end;
  guint64  since;
  guint64  count;
  guint64  packets;
  guint16  type;
  guint16  cpu;
} Loss;

typedef struct {
  guint32  current;     /* the task last switched in on this stream */
  guint16  cpu;
  const bt_packet *packet;  /* whose cpu_id @cpu is (borrowed, only compared) */
  const char *host;     /* the trace's hostname in a folder of several hosts, else NULL */
  gboolean have_end;
  gint64   last_end_ns;
  int      ctx_tid;     /* member index of a tid/vtid common context, −1 when none */
  int      ctx_name;    /* … of a procname context */
  int      ctx_pid;     /* … of a pid/vpid context */
  int      ctx_task;    /* … of a tracewb_task context (traces we wrote) */
  gboolean ctx_checked;
  guint32  last_task;   /* the task of the last tracewb_task and procname seen */
  GString *last_task_id;
  GString *last_task_name;
  guint64  discard_overcount; /* events babeltrace2 counted as discarded too many */
} StreamState;

/* One stream's message iterator and the batch it last gave, consumed in time order
 * against the other streams' batches. */
typedef struct {
  bt_message_iterator    *iter;    /* NULL once ended */
  bt_message_array_const  msgs;
  guint64                 count;
  guint64                 pos;
  gint64                  head_ns; /* time of msgs[pos]; G_MININT64: no time, take now */
} Upstream;

typedef struct {
  TwTrace         *trace;
  const char      *path;
  GHashTable      *types;      /* const bt_event_class * → CtfType */
  const bt_event_class *last_class;
  CtfType         *last_type;
  GHashTable      *streams;    /* const bt_stream * → StreamState */
  const bt_stream *last_stream;
  StreamState     *last_state;
  TwKernelTasks    tasks;
  TwStringCache    strings;
  guint8          *payload;
  gsize            payload_cap;
  GString         *text;
  TwEventChunk    *chunk;
  GArray          *upstreams;  /* Upstream, one per stream */
  guint            n_live;
  guint64          n_events;
  guint64          n_clockless;
  guint16          lost_types[2]; /* discarded events, packets; TW_TYPE_NONE until seen */
  GArray          *losses;        /* Loss, waiting for the merge to reach their time */
  guint64          overlapping_packets;
  guint64          size_estimate;
  guint            since_check;
  TwProgressFunc   progress;
  gpointer         progress_data;
  GCancellable    *cancellable;
  GError          *error;
  /* live (tw-ctf-decoder-private.h): rows go to @row_func instead of the store */
  TwCtfRowFunc     row_func;
  gpointer         row_data;
  TwCtfStringFunc  string_func;  /* payload strings, when not the trace's */
  gpointer         string_data;
  gint64           horizon;
  /* sensors and measurements a target's monitor sent through LTTng */
  TwLttngSensorDecoder *sensors;
  /* the traces whose environment was read; in a trace of several machines we wrote
   * (`tracewb_hosts`), the host of each task id, given once every task is known */
  GHashTable      *traces_read;
  GHashTable      *task_hosts;
  gboolean         has_hosts;
  /* a folder of LTTng traces of several machines: their hostnames (interned) */
  GHashTable      *hostnames;
} CtfReader;

static void
stream_state_free (gpointer data)
{
  StreamState *state = data;

  if (state->last_task_id)
    g_string_free (state->last_task_id, TRUE);
  if (state->last_task_name)
    g_string_free (state->last_task_name, TRUE);
  g_free (state);
}

/* ---------------------------------------------------------------- field schemas */

static gboolean
is_int_class (const bt_field_class *fc,
              gboolean             *is_signed)
{
  bt_field_class_type t = bt_field_class_get_type (fc);

  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
    {
      *is_signed = TRUE;
      return TRUE;
    }
  if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
    {
      *is_signed = FALSE;
      return TRUE;
    }
  return FALSE;
}

static TwFieldSpec
spec_for_class (const char           *name,
                const bt_field_class *fc)
{
  TwFieldSpec spec = { .name = name, .type = TW_FIELD_STRING, .flags = TW_FIELD_FLAG_OPTIONAL };
  bt_field_class_type t = bt_field_class_get_type (fc);
  gboolean is_signed;

  if (is_int_class (fc, &is_signed))
    {
      guint64 bits = bt_field_class_integer_get_field_value_range (fc);

      if (is_signed)
        spec.type = bits <= 32 ? TW_FIELD_I32 : TW_FIELD_I64;
      else
        spec.type = bits <= 8 ? TW_FIELD_U8 : bits <= 16 ? TW_FIELD_U16
                    : bits <= 32 ? TW_FIELD_U32 : TW_FIELD_U64;
      if (bt_field_class_integer_get_preferred_display_base (fc)
          == BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL)
        spec.flags |= TW_FIELD_FLAG_HEX;
    }
  else if (t == BT_FIELD_CLASS_TYPE_BOOL)
    spec.type = TW_FIELD_U8;
  else if (t == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
    {
      spec.type = TW_FIELD_U64;
      spec.flags |= TW_FIELD_FLAG_HEX;
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_REAL))
    spec.type = TW_FIELD_F64;
  return spec;
}

static void
append_field_text (GString        *out,
                   const bt_field *f)
{
  const bt_field_class *fc = bt_field_borrow_class_const (f);
  bt_field_class_type t = bt_field_get_class_type (f);
  gboolean is_signed;

  if (is_int_class (fc, &is_signed))
    {
      if (is_signed)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, bt_field_integer_signed_get_value (f));
      else if (bt_field_class_integer_get_preferred_display_base (fc)
               == BT_FIELD_CLASS_INTEGER_PREFERRED_DISPLAY_BASE_HEXADECIMAL)
        g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", bt_field_integer_unsigned_get_value (f));
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, bt_field_integer_unsigned_get_value (f));
    }
  else if (t == BT_FIELD_CLASS_TYPE_BOOL)
    g_string_append (out, bt_field_bool_get_value (f) ? "true" : "false");
  else if (t == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
    g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", bt_field_bit_array_get_value_as_integer (f));
  else if (t == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)
    g_string_append_printf (out, "%g", bt_field_real_single_precision_get_value (f));
  else if (t == BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL)
    g_string_append_printf (out, "%g", bt_field_real_double_precision_get_value (f));
  else if (t == BT_FIELD_CLASS_TYPE_STRING)
    g_string_append_len (out, bt_field_string_get_value (f), bt_field_string_get_length (f));
  else if (t == BT_FIELD_CLASS_TYPE_STRUCTURE)
    {
      guint64 n = bt_field_class_structure_get_member_count (fc);

      g_string_append_c (out, '{');
      for (guint64 i = 0; i < n; i++)
        {
          const bt_field_class_structure_member *m =
            bt_field_class_structure_borrow_member_by_index_const (fc, i);

          g_string_append_printf (out, "%s%s=", i ? ", " : "",
                                  bt_field_class_structure_member_get_name (m));
          append_field_text (out, bt_field_structure_borrow_member_field_by_index_const (f, i));
        }
      g_string_append_c (out, '}');
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_ARRAY))
    {
      guint64 n = bt_field_array_get_length (f);

      g_string_append_c (out, '[');
      for (guint64 i = 0; i < n; i++)
        {
          if (i)
            g_string_append (out, ", ");
          append_field_text (out, bt_field_array_borrow_element_field_by_index_const (f, i));
        }
      g_string_append_c (out, ']');
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_OPTION))
    {
      const bt_field *inner = bt_field_option_borrow_field_const (f);

      if (inner)
        append_field_text (out, inner);
    }
  else if (bt_field_class_type_is (t, BT_FIELD_CLASS_TYPE_VARIANT))
    append_field_text (out, bt_field_variant_borrow_selected_option_field_const (f));
}

static Decode
decode_for_kind (TwEventKind kind)
{
  switch (kind)
    {
    case TW_EVENT_KIND_SWITCH:        return DECODE_SWITCH;
    case TW_EVENT_KIND_WAKEUP:        return DECODE_WAKEUP;
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:      return DECODE_IRQ;
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:  return DECODE_SOFTIRQ;
    case TW_EVENT_KIND_TASK_CREATE:   return DECODE_FORK;
    case TW_EVENT_KIND_TASK_EXIT:     return DECODE_EXIT;
    case TW_EVENT_KIND_USER:
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
    case TW_EVENT_KIND_SENSOR:
    case TW_EVENT_KIND_LOST:          return DECODE_ARG;
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:                          return DECODE_GENERIC;
    }
}

/* What a trace we wrote says of event @name in its environment's
 * `tracewb_event_types` (tw-ctf-writer.c): "kind,family,name,arg member,extra" entries,
 * URI-escaped, joined by ';'. */
static gboolean
lookup_written_type (const bt_trace *trace,
                     const char     *name,
                     TwEventKind    *kind,
                     char          **family,
                     char          **arg_member,
                     gboolean       *arg_extra)
{
  const bt_value *value = trace ? bt_trace_borrow_environment_entry_value_by_name_const (trace, "tracewb_event_types")
                                : NULL;
  g_auto(GStrv) entries = NULL;

  if (value == NULL || !bt_value_is_string (value))
    return FALSE;
  entries = g_strsplit (bt_value_string_get (value), ";", -1);
  for (guint i = 0; entries[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (entries[i], ",", -1);
      g_autofree char *entry_name = NULL;
      g_autofree char *entry_kind = NULL;

      if (g_strv_length (parts) != 5)
        continue;
      entry_name = g_uri_unescape_string (parts[2], NULL);
      if (entry_name == NULL || strcmp (entry_name, name) != 0)
        continue;
      entry_kind = g_uri_unescape_string (parts[0], NULL);
      if (entry_kind == NULL)
        return FALSE;
      if (!tw_event_kind_from_string (entry_kind, kind))
        *kind = TW_EVENT_KIND_OTHER;
      *family = g_uri_unescape_string (parts[1], NULL);
      *arg_member = g_uri_unescape_string (parts[3], NULL);
      *arg_extra = strcmp (parts[4], "1") == 0;
      return TRUE;
    }
  return FALSE;
}

static CtfType *
create_type (CtfReader            *self,
             const bt_event_class *ec,
             const bt_trace       *trace)
{
  g_autofree char *family = NULL;
  g_autofree char *arg_member = NULL;
  gboolean arg_extra = FALSE;
  TwEventKind written_kind;
  const bt_field_class *payload_fc = bt_event_class_borrow_payload_field_class_const (ec);
  const char *name = bt_event_class_get_name (ec);
  g_autofree TwFieldSpec *specs = NULL;
  CtfType *t = g_new0 (CtfType, 1);
  guint n = 0;

  if (name == NULL)
    name = "(unnamed)";
  /* rows of other types (the sensors' own) come out of these: no type of their own */
  if ((t->tracewb = _tw_lttng_sensor_event_from_name (name)) != TW_LTTNG_SENSOR_EVENT_NONE)
    {
      t->decode = DECODE_TRACEWB;
      t->type = TW_TYPE_NONE;
      g_hash_table_insert (self->types, (gpointer) ec, t);
      return t;
    }
  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    if (strcmp (known_events[i].name, name) == 0)
      {
        t->kind = known_events[i].kind;
        t->decode = known_events[i].decode;
      }
  for (guint r = 0; r < N_ROLES; r++)
    t->role[r] = -1;
  t->state_field = -1;
  t->arg_member = -1;
  if (lookup_written_type (trace, name, &written_kind, &family, &arg_member, &arg_extra))
    {
      t->kind = written_kind;
      t->decode = decode_for_kind (written_kind);
      if (family && family[0] == '\0')
        g_clear_pointer (&family, g_free);
    }

  if (payload_fc && bt_field_class_get_type (payload_fc) == BT_FIELD_CLASS_TYPE_STRUCTURE)
    n = bt_field_class_structure_get_member_count (payload_fc);
  specs = g_new0 (TwFieldSpec, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      const bt_field_class_structure_member *m =
        bt_field_class_structure_borrow_member_by_index_const (payload_fc, i);
      const char *member = bt_field_class_structure_member_get_name (m);

      specs[i] = spec_for_class (member, bt_field_class_structure_member_borrow_field_class_const (m));
      /* what the libgtop sampler's fields measure (CTF keeps the names, not the flags) */
      specs[i].flags |= tw_gtop_field_flags (name, member);
      if (t->decode == DECODE_ARG && arg_member && strcmp (member, arg_member) == 0)
        t->arg_member = i;
      for (guint r = 0; r < N_ROLES; r++)
        if (strcmp (member, role_names[r]) == 0)
          t->role[r] = i;
      if (t->decode == DECODE_SWITCH && strcmp (member, "prev_state") == 0)
        {
          /* as letters, the way the ftrace readers keep it, with the state they name */
          specs[i].type = TW_FIELD_STRING;
          specs[i].flags = TW_FIELD_FLAG_OPTIONAL;
          t->state_field = i;
        }
    }
  t->n_members = n;
  /* a member the writer added for the arg only is no field of the type */
  t->n_fields = arg_extra && t->arg_member >= 0 && (guint) t->arg_member == n - 1 ? n - 1 : n;
  if (t->kind == TW_EVENT_KIND_LOST && t->decode == DECODE_ARG)
    t->type = tw_lost_events_add_type (self->trace, name, &self->error);
  else
    t->type = tw_trace_add_event_type (self->trace, name, family, t->kind, specs, t->n_fields, &self->error);
  if (t->type == TW_TYPE_NONE)
    {
      /* two traces of a session folder (or two stream classes) may name one event with
       * different fields: the message must still say which file */
      g_prefix_error (&self->error, "%s: ", self->path);
      g_free (t);
      return NULL;
    }
  t->info = tw_trace_get_event_type (self->trace, t->type);
  if (t->info->payload_size > self->payload_cap)
    {
      self->payload_cap = t->info->payload_size;
      self->payload = g_realloc (self->payload, self->payload_cap);
    }
  g_hash_table_insert (self->types, (gpointer) ec, t);
  return t;
}

/* ---------------------------------------------------------------- hosts */

/* What a trace we wrote says of the machines of a trace of several, in its environment's
 * `tracewb_hosts` (tw-ctf-writer.c): "cpu,CPU,HOST,HOST_CPU" and "task,ID,HOST" entries,
 * URI-escaped, joined by ';'. The streams' `cpu_id` is the store CPU it was written
 * from, so a CPU gets its host at that number. Entries that do not parse are skipped:
 * hosts only label rows. */
static void
read_hosts_entry (CtfReader      *self,
                  const bt_trace *trace)
{
  const bt_value *value;
  g_auto(GStrv) entries = NULL;

  value = bt_trace_borrow_environment_entry_value_by_name_const (trace, "tracewb_hosts");
  if (value == NULL || !bt_value_is_string (value))
    return;
  self->has_hosts = TRUE;
  entries = g_strsplit (bt_value_string_get (value), ";", -1);
  for (guint i = 0; entries[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (entries[i], ",", -1);
      guint n = g_strv_length (parts);
      g_autofree char *host = NULL;
      guint64 cpu, host_cpu;

      if (n == 4 && strcmp (parts[0], "cpu") == 0
          && g_ascii_string_to_unsigned (parts[1], 10, 0, TW_CPU_NONE - 1, &cpu, NULL)
          && g_ascii_string_to_unsigned (parts[3], 10, 0, G_MAXUINT16, &host_cpu, NULL)
          && (host = g_uri_unescape_string (parts[2], NULL)) && host[0])
        tw_trace_set_cpu_host (self->trace, cpu, host, host_cpu);
      else if (n == 3 && strcmp (parts[0], "task") == 0
               && (host = g_uri_unescape_string (parts[2], NULL)) && host[0])
        {
          char *id = g_uri_unescape_string (parts[1], NULL);

          if (id == NULL)
            continue;
          if (self->task_hosts == NULL)
            self->task_hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
          g_hash_table_insert (self->task_hosts, id, g_steal_pointer (&host));
        }
    }
}

/* The store's metadata a trace we wrote kept in its environment (tw-ctf-plan-private.h):
 * its sensors' declared streams and their monitor's counts. A later trace's replaces an
 * earlier one's: the chunks of a recording kept while it ran are met in their order
 * (each stream's beginning goes before any event, in the order of the folders), so the
 * last chunk's, the monitor's latest counts, stay. */
static void
read_kept_metadata (CtfReader      *self,
                    const bt_trace *trace)
{
  for (guint i = 0; i < TW_CTF_N_KEPT_METADATA; i++)
    {
      const TwCtfKeptMetadata *kept = &_tw_ctf_kept_metadata[i];
      const bt_value *value = bt_trace_borrow_environment_entry_value_by_name_const (trace, kept->env);

      if (value && bt_value_is_string (value))
        tw_trace_set_metadata (self->trace, kept->metadata, bt_value_string_get (value));
    }
}

/* What a trace says of itself, once per trace: its machines, its kept metadata. */
static void
read_environment (CtfReader      *self,
                  const bt_trace *trace)
{
  if (trace == NULL || (self->traces_read && g_hash_table_contains (self->traces_read, trace)))
    return;
  if (self->traces_read == NULL)
    self->traces_read = g_hash_table_new (NULL, NULL);
  g_hash_table_add (self->traces_read, (gpointer) trace);
  read_hosts_entry (self, trace);
  read_kept_metadata (self, trace);
}

/* The host of @trace's CPUs and tasks in a folder of several machines, or %NULL (one
 * machine; or a trace we wrote, whose `tracewb_hosts` entry names its hosts). */
static const char *
trace_host (CtfReader      *self,
            const bt_trace *trace)
{
  const bt_value *value;

  if (self->hostnames == NULL || trace == NULL
      || bt_trace_borrow_environment_entry_value_by_name_const (trace, "tracewb_hosts"))
    return NULL;
  value = bt_trace_borrow_environment_entry_value_by_name_const (trace, "hostname");
  if (value == NULL || !bt_value_is_string (value))
    return NULL;
  return g_hash_table_lookup (self->hostnames, bt_value_string_get (value));
}

/* Tasks are made as rows name them (as a row's task, a switch's next, ...): their hosts
 * once all are there. */
static void
apply_task_hosts (CtfReader *self)
{
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);

  if (self->task_hosts == NULL)
    return;
  for (guint32 t = 0; t < n_tasks; t++)
    {
      const TwTask *task = tw_trace_get_task (self->trace, t);
      const char *host = task->host ? NULL : g_hash_table_lookup (self->task_hosts, task->source_id);

      if (host)
        tw_trace_set_task_host (self->trace, t, host);
    }
}

/* The kernel task @tid that an event on @cpu names (a switch's prev and next, a woken
 * task): in a trace of several machines we wrote, the task of @cpu's host, under the id
 * a live session of several targets gave it ("HOST/TID", the idle task "HOST/0/CPU" of
 * the host's CPU number), for tid 1234 of one host is not tid 1234 of another. */
static guint32
kernel_task (CtfReader *self,
             gint64     tid,
             guint16    cpu)
{
  g_autofree char *id = NULL;
  guint16 host_cpu;
  const char *host;
  guint32 task;

  if (!self->has_hosts || tid < 0 || cpu == TW_CPU_NONE
      || (host = tw_trace_get_cpu_host (self->trace, cpu, &host_cpu)) == NULL)
    return _tw_kernel_tasks_get (&self->tasks, tid, cpu == TW_CPU_NONE ? 0 : cpu);
  if (tid == 0)
    {
      const TwTask *t;

      id = g_strdup_printf ("%s/0/%u", host, host_cpu);
      task = tw_trace_add_task (self->trace, id, NULL, 0, 0);
      t = tw_trace_get_task (self->trace, task);
      /* the row that named it first may have been its own (an event's context) */
      if (!(t->flags & TW_TASK_FLAG_IDLE))
        tw_trace_set_task_flags (self->trace, task, t->flags | TW_TASK_FLAG_IDLE);
      if (t->name == NULL)
        {
          g_autofree char *name = g_strdup_printf ("swapper/%u", host_cpu);

          tw_trace_set_task_name (self->trace, task, name);
        }
    }
  else
    {
      id = g_strdup_printf ("%s/%" G_GINT64_FORMAT, host, tid);
      task = tw_trace_add_task (self->trace, id, NULL, -1, tid);
    }
  if (tw_trace_get_task (self->trace, task)->host == NULL)
    tw_trace_set_task_host (self->trace, task, host);
  return task;
}

/* ---------------------------------------------------------------- events */

static StreamState *
stream_state (CtfReader       *self,
              const bt_stream *stream)
{
  StreamState *state;

  if (stream == self->last_stream)
    return self->last_state;
  state = g_hash_table_lookup (self->streams, stream);
  if (state == NULL)
    {
      state = g_new0 (StreamState, 1);
      state->current = TW_TASK_NONE;
      state->cpu = TW_CPU_NONE;
      state->ctx_tid = -1;
      state->ctx_name = -1;
      state->ctx_pid = -1;
      state->ctx_task = -1;
      state->last_task = TW_TASK_NONE;
      g_hash_table_insert (self->streams, (gpointer) stream, state);
      read_environment (self, bt_stream_borrow_trace_const (stream));
      if ((state->host = trace_host (self, bt_stream_borrow_trace_const (stream))))
        self->has_hosts = TRUE;
    }
  self->last_stream = stream;
  self->last_state = state;
  return state;
}

static guint16
packet_cpu (CtfReader       *self,
            StreamState     *state,
            const bt_packet *packet)
{
  const bt_field *ctx;
  const bt_field *cpu;

  if (packet == NULL || packet == state->packet)
    return state->cpu;
  state->packet = packet;
  state->cpu = TW_CPU_NONE;
  ctx = bt_packet_borrow_context_field_const (packet);
  if (ctx && (cpu = bt_field_structure_borrow_member_field_by_name_const (ctx, "cpu_id")))
    {
      gboolean is_signed;

      if (is_int_class (bt_field_borrow_class_const (cpu), &is_signed))
        {
          guint64 v = is_signed ? (guint64) bt_field_integer_signed_get_value (cpu)
                                : bt_field_integer_unsigned_get_value (cpu);

          if (v < TW_CPU_NONE)
            state->cpu = state->host ? tw_trace_add_host_cpu (self->trace, state->host, v) : v;
        }
    }
  return state->cpu;
}

static gboolean
member_i64 (const bt_field *payload,
            int             index,
            gint64         *out)
{
  const bt_field *f;
  gboolean is_signed;

  if (index < 0)
    return FALSE;
  f = bt_field_structure_borrow_member_field_by_index_const (payload, index);
  if (!is_int_class (bt_field_borrow_class_const (f), &is_signed))
    return FALSE;
  *out = is_signed ? bt_field_integer_signed_get_value (f)
                   : (gint64) bt_field_integer_unsigned_get_value (f);
  return TRUE;
}

static gboolean
member_string (CtfReader      *self,
               const bt_field *payload,
               int             index,
               guint32        *id)
{
  const bt_field *f;

  if (index < 0)
    return FALSE;
  f = bt_field_structure_borrow_member_field_by_index_const (payload, index);
  if (bt_field_get_class_type (f) != BT_FIELD_CLASS_TYPE_STRING)
    return FALSE;
  *id = _tw_string_cache_get (&self->strings, bt_field_string_get_value (f),
                              bt_field_string_get_length (f));
  return TRUE;
}

/* The id of a payload string: the live helper's own (string_func), else the trace's. */
static inline guint32
payload_string (CtfReader  *self,
                const char *s,
                gsize       len)
{
  if (self->string_func)
    return self->string_func (s, len, self->string_data);
  return _tw_string_cache_get (&self->strings, s, len);
}

static void
fill_payload (CtfReader      *self,
              const CtfType  *t,
              const bt_field *payload)
{
  for (guint i = 0; i < t->n_fields; i++)
    {
      const bt_field *f = bt_field_structure_borrow_member_field_by_index_const (payload, i);
      TwValue v = { .type = t->info->fields[i].type };

      if ((int) i == t->state_field)
        {
          char state[24];
          gint64 raw;
          gsize len;

          if (!member_i64 (payload, i, &raw))
            continue;
          len = _tw_kernel_format_prev_state (raw, state, sizeof state);
          v.str = _tw_string_cache_get_prev_state (&self->strings, state, len);
        }
      else
        switch (v.type)
          {
          case TW_FIELD_I32:
          case TW_FIELD_I64:
            v.i = bt_field_integer_signed_get_value (f);
            break;
          case TW_FIELD_U8:
            if (bt_field_get_class_type (f) == BT_FIELD_CLASS_TYPE_BOOL)
              {
                v.u = bt_field_bool_get_value (f);
                break;
              }
            v.u = bt_field_integer_unsigned_get_value (f);
            break;
          case TW_FIELD_U64:
            if (bt_field_get_class_type (f) == BT_FIELD_CLASS_TYPE_BIT_ARRAY)
              {
                v.u = bt_field_bit_array_get_value_as_integer (f);
                break;
              }
            v.u = bt_field_integer_unsigned_get_value (f);
            break;
          case TW_FIELD_U16:
          case TW_FIELD_U32:
            v.u = bt_field_integer_unsigned_get_value (f);
            break;
          case TW_FIELD_F64:
            v.f = bt_field_get_class_type (f) == BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL
                  ? bt_field_real_single_precision_get_value (f)
                  : bt_field_real_double_precision_get_value (f);
            break;
          case TW_FIELD_STRING:
          default:
            if (bt_field_get_class_type (f) == BT_FIELD_CLASS_TYPE_STRING)
              v.str = payload_string (self, bt_field_string_get_value (f), bt_field_string_get_length (f));
            else
              {
                g_string_truncate (self->text, 0);
                append_field_text (self->text, f);
                v.str = payload_string (self, self->text->str, self->text->len);
              }
            break;
          }
      tw_event_type_set_field (t->info, self->payload, i, &v);
    }
}

/* A `tid`/`vtid` (and `procname`) in the event's common context names its task. */
static void
check_context (StreamState    *state,
               const bt_event *event)
{
  const bt_field *ctx = bt_event_borrow_common_context_field_const (event);

  state->ctx_checked = TRUE;
  if (ctx == NULL)
    return;
  {
    const bt_field_class *fc = bt_field_borrow_class_const (ctx);
    guint64 n = bt_field_class_structure_get_member_count (fc);

    for (guint64 i = 0; i < n; i++)
      {
        const char *name = bt_field_class_structure_member_get_name (
          bt_field_class_structure_borrow_member_by_index_const (fc, i));

        if (strcmp (name, "tid") == 0 || (strcmp (name, "vtid") == 0 && state->ctx_tid < 0))
          state->ctx_tid = i;
        else if (strcmp (name, "pid") == 0 || (strcmp (name, "vpid") == 0 && state->ctx_pid < 0))
          state->ctx_pid = i;
        else if (strcmp (name, "procname") == 0)
          state->ctx_name = i;
        else if (strcmp (name, "tracewb_task") == 0)
          state->ctx_task = i;
      }
  }
}

/* The task a `tracewb_task` context names (a trace we wrote, tw-ctf-writer.c): kernel
 * tasks ("<tid>", "0/<cpu>") through the kernel task table, as sched_switch payloads
 * name them, every other task by its id, with its name and ids. */
static guint32
context_task (CtfReader      *self,
              StreamState    *state,
              const bt_field *ctx,
              guint16         cpu)
{
  const bt_field *id_field = bt_field_structure_borrow_member_field_by_index_const (ctx, state->ctx_task);
  const bt_field *name_field = state->ctx_name >= 0
                               ? bt_field_structure_borrow_member_field_by_index_const (ctx, state->ctx_name) : NULL;
  const char *id, *name = "";
  char decimal[32];
  gint64 tid = -1, pid = -1;
  guint32 task;

  if (bt_field_get_class_type (id_field) != BT_FIELD_CLASS_TYPE_STRING)
    return state->current;
  id = bt_field_string_get_value (id_field);
  if (name_field && bt_field_get_class_type (name_field) == BT_FIELD_CLASS_TYPE_STRING)
    name = bt_field_string_get_value (name_field);
  if (state->last_task_id && strcmp (state->last_task_id->str, id) == 0
      && strcmp (state->last_task_name->str, name) == 0)
    return state->last_task;

  member_i64 (ctx, state->ctx_tid, &tid);
  member_i64 (ctx, state->ctx_pid, &pid);
  g_snprintf (decimal, sizeof decimal, "%" G_GINT64_FORMAT, tid);
  if (id[0] == '\0')
    task = TW_TASK_NONE;
  else if (tid > 0 && strcmp (id, decimal) == 0)
    task = _tw_kernel_tasks_get (&self->tasks, tid, cpu == TW_CPU_NONE ? 0 : cpu);
  else if (tid == 0 && g_str_has_prefix (id, "0/"))
    task = _tw_kernel_tasks_get (&self->tasks, 0, (guint) g_ascii_strtoull (id + 2, NULL, 10));
  else if (tid == 0 && self->has_hosts && tw_trace_get_cpu_host (self->trace, cpu, NULL))
    task = kernel_task (self, 0, cpu);   /* a host's idle task, as switches name it */
  else
    task = tw_trace_add_task (self->trace, id, NULL, pid, tid);
  if (task != TW_TASK_NONE)
    {
      if (name[0])
        _tw_kernel_tasks_rename (&self->tasks, task, _tw_string_cache_get (&self->strings, name, strlen (name)));
      if (pid >= 0)
        tw_trace_set_task_ids (self->trace, task, pid, tid);
    }
  if (state->last_task_id == NULL)
    {
      state->last_task_id = g_string_new (NULL);
      state->last_task_name = g_string_new (NULL);
    }
  g_string_assign (state->last_task_id, id);
  g_string_assign (state->last_task_name, name);
  state->last_task = task;
  return task;
}

/* The losses that end at or before @time_ns (all of them: G_MAXINT64), into the store. */
static void
flush_losses (CtfReader *self,
              gint64     time_ns)
{
  for (guint i = 0; i < self->losses->len;)
    {
      const Loss *loss = &g_array_index (self->losses, Loss, i);
      const TwEventType *info;
      guint8 payload[64];

      if (loss->end > time_ns)
        {
          i++;
          continue;
        }
      info = tw_trace_get_event_type (self->trace, loss->type);
      g_assert (info->payload_size <= sizeof payload);
      tw_lost_events_pack (info, payload, loss->count, loss->packets, loss->since);
      if (self->row_func)
        self->row_func (loss->end, loss->cpu, loss->type, TW_TASK_NONE,
                        tw_lost_events_arg (loss->count), payload, info->payload_size,
                        self->row_data);
      else
        {
          if (self->chunk->n == TW_CHUNK_SIZE)
            self->chunk = tw_trace_begin_append (self->trace);
          tw_event_chunk_push (self->chunk, loss->end, loss->cpu, loss->type, TW_TASK_NONE,
                               tw_lost_events_arg (loss->count), payload, info->payload_size);
        }
      g_array_remove_index (self->losses, i);
    }
}

/* Where decoded rows go: the live helper's function, else the store. */
static void
store_row (guint64       time_ns,
           guint16       cpu,
           guint16       type,
           guint32       task,
           guint32       arg,
           const guint8 *payload,
           guint         payload_size,
           gpointer      user_data)
{
  CtfReader *self = user_data;

  if (self->row_func)
    {
      self->row_func (time_ns, cpu, type, task, arg, payload, payload_size, self->row_data);
      return;
    }
  if (self->chunk->n == TW_CHUNK_SIZE)
    self->chunk = tw_trace_begin_append (self->trace);
  tw_event_chunk_push (self->chunk, time_ns, cpu, type, task, arg, payload, payload_size);
}

static gboolean
handle_event (CtfReader        *self,
              const bt_message *msg,
              gint64            time_ns)
{
  const bt_event *event = bt_message_event_borrow_event_const (msg);
  const bt_event_class *ec = bt_event_borrow_class_const (event);
  const bt_field *payload = bt_event_borrow_payload_field_const (event);
  StreamState *state = stream_state (self, bt_event_borrow_stream_const (event));
  CtfType *t = ec == self->last_class ? self->last_type : g_hash_table_lookup (self->types, ec);
  guint8 *buf;
  guint16 cpu;
  guint32 task;
  guint32 arg = 0;
  guint32 id;
  gint64 v;

  if (t == NULL
      && (t = create_type (self, ec, bt_stream_borrow_trace_const (bt_event_borrow_stream_const (event)))) == NULL)
    return FALSE;
  self->last_class = ec;
  self->last_type = t;
  buf = self->payload;

  if (t->decode == DECODE_TRACEWB)
    {
      if G_UNLIKELY (self->losses->len > 0)
        flush_losses (self, time_ns);
      self->n_events++;
      self->horizon = time_ns;
      return _tw_lttng_sensor_decoder_handle (self->sensors, t->tracewb, msg, time_ns, store_row, self,
                                              &self->error);
    }

  if (time_ns == G_MININT64)
    {
      time_ns = 0;
      self->n_clockless++;
    }

  cpu = packet_cpu (self, state, bt_event_borrow_packet_const (event));
  if (!state->ctx_checked)
    check_context (state, event);
  task = state->current;
  if (state->ctx_task >= 0)
    task = context_task (self, state, bt_event_borrow_common_context_field_const (event), cpu);
  else if (state->ctx_tid >= 0)
    {
      const bt_field *ctx = bt_event_borrow_common_context_field_const (event);

      if (member_i64 (ctx, state->ctx_tid, &v))
        {
          task = kernel_task (self, v, cpu);
          if (state->ctx_name >= 0 && member_string (self, ctx, state->ctx_name, &id))
            _tw_kernel_tasks_rename (&self->tasks, task, id);
        }
    }

  memset (buf, 0, t->info->payload_size);
  if (payload)
    fill_payload (self, t, payload);

  switch (t->decode)
    {
    case DECODE_SWITCH:
      {
        gint64 prev, next;

        if (!member_i64 (payload, t->role[ROLE_PREV_TID], &prev)
            || !member_i64 (payload, t->role[ROLE_NEXT_TID], &next))
          break;
        task = kernel_task (self, prev, cpu);
        if (member_string (self, payload, t->role[ROLE_PREV_COMM], &id))
          _tw_kernel_tasks_rename (&self->tasks, task, id);
        arg = kernel_task (self, next, cpu);
        if (member_string (self, payload, t->role[ROLE_NEXT_COMM], &id))
          _tw_kernel_tasks_rename (&self->tasks, arg, id);
        state->current = arg;
      }
      break;

    case DECODE_WAKEUP:
      {
        gint64 target = cpu == TW_CPU_NONE ? 0 : cpu;

        if (!member_i64 (payload, t->role[ROLE_TID], &v))
          break;
        if (!member_i64 (payload, t->role[ROLE_TARGET_CPU], &target) || target < 0
            || target >= TW_CPU_NONE)
          target = cpu == TW_CPU_NONE ? 0 : cpu;
        else if (state->host)
          target = tw_trace_add_host_cpu (self->trace, state->host, target);
        arg = kernel_task (self, v, target);
        if (member_string (self, payload, t->role[ROLE_COMM], &id))
          _tw_kernel_tasks_rename (&self->tasks, arg, id);
      }
      break;

    case DECODE_IRQ:
      if (member_i64 (payload, t->role[ROLE_IRQ], &v) && v >= 0 && v <= G_MAXUINT32)
        arg = v;
      break;

    case DECODE_SOFTIRQ:
      if (member_i64 (payload, t->role[ROLE_VEC], &v) && v >= 0 && v <= G_MAXUINT32)
        arg = v;
      break;

    case DECODE_FORK:
      arg = TW_TASK_NONE;
      if (member_i64 (payload, t->role[ROLE_CHILD_TID], &v))
        {
          gint64 child_pid;

          arg = kernel_task (self, v, cpu);
          if (member_i64 (payload, t->role[ROLE_CHILD_PID], &child_pid) && v != 0)
            tw_trace_set_task_ids (self->trace, arg, child_pid, v);
          if (member_string (self, payload, t->role[ROLE_CHILD_COMM], &id))
            _tw_kernel_tasks_rename (&self->tasks, arg, id);
        }
      break;

    case DECODE_EXIT:
      if (member_i64 (payload, t->role[ROLE_TID], &v))
        {
          task = kernel_task (self, v, cpu);
          if (member_string (self, payload, t->role[ROLE_COMM], &id))
            _tw_kernel_tasks_rename (&self->tasks, task, id);
        }
      arg = task;
      break;

    case DECODE_ARG:
      if (member_i64 (payload, t->arg_member, &v))
        arg = (guint32) CLAMP (v, 0, (gint64) G_MAXUINT32);
      if (t->kind == TW_EVENT_KIND_LOST)
        {
          /* a loss's fields say "unknown" by their absence, as the sources store them */
          TwValue count = { 0 }, packets = { 0 }, since = { 0 };
          int f;

          if ((f = tw_event_type_lookup_field (t->info, "count")) >= 0)
            tw_event_type_get_field (t->info, buf, f, &count);
          if ((f = tw_event_type_lookup_field (t->info, "packets")) >= 0)
            tw_event_type_get_field (t->info, buf, f, &packets);
          if ((f = tw_event_type_lookup_field (t->info, "since")) < 0
              || !tw_event_type_get_field (t->info, buf, f, &since))
            since.u = TW_TIME_NONE;
          tw_lost_events_pack (t->info, buf, count.u, packets.u, since.u);
          arg = tw_lost_events_arg (count.u);
        }
      break;

    case DECODE_GENERIC:
    default:
      break;
    }

  if G_UNLIKELY (self->losses->len > 0)
    flush_losses (self, time_ns);
  self->n_events++;
  self->horizon = time_ns;
  if (self->row_func)
    {
      self->row_func (time_ns, cpu, t->type, task, arg, buf, t->info->payload_size, self->row_data);
      return TRUE;
    }
  if (self->chunk->n == TW_CHUNK_SIZE)
    {
      /* a second chunk means a big trace: its payloads in one blob (of huge pages, once
       * big), sized like the last chunk's, since untouched reserve costs clearing too */
      gsize last = self->chunk->blob_len;

      self->chunk = tw_trace_begin_append (self->trace);
      tw_event_chunk_reserve_blob (self->chunk, last + last / 16);
    }
  tw_event_chunk_push (self->chunk, time_ns, cpu, t->type, task, arg, buf, t->info->payload_size);
  return TRUE;
}

static void
handle_packet (CtfReader        *self,
               const bt_message *msg,
               gboolean          beginning)
{
  const bt_packet *packet = beginning ? bt_message_packet_beginning_borrow_packet_const (msg)
                                      : bt_message_packet_end_borrow_packet_const (msg);
  const bt_stream *stream = bt_packet_borrow_stream_const (packet);
  const bt_stream_class *sc = bt_stream_borrow_class_const (stream);
  StreamState *state = stream_state (self, stream);
  const bt_clock_snapshot *snap;
  gint64 ns;

  if (beginning)
    {
      if (!bt_stream_class_packets_have_beginning_default_clock_snapshot (sc))
        return;
      snap = bt_message_packet_beginning_borrow_default_clock_snapshot_const (msg);
      if (bt_clock_snapshot_get_ns_from_origin (snap, &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK
          && state->have_end && ns < state->last_end_ns)
        self->overlapping_packets++;
    }
  else
    {
      if (!bt_stream_class_packets_have_end_default_clock_snapshot (sc))
        return;
      snap = bt_message_packet_end_borrow_default_clock_snapshot_const (msg);
      if (bt_clock_snapshot_get_ns_from_origin (snap, &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
        {
          state->have_end = TRUE;
          state->last_end_ns = ns;
        }
    }
}

/* A discarded-events or -packets message's gap, in ns: [*begin, *end]; FALSE when the
 * stream has no clock snapshots for them. */
static gboolean
discarded_span (const bt_message *msg,
                gint64           *begin,
                gint64           *end)
{
  gboolean events = bt_message_get_type (msg) == BT_MESSAGE_TYPE_DISCARDED_EVENTS;
  const bt_stream *stream = events ? bt_message_discarded_events_borrow_stream_const (msg)
                                   : bt_message_discarded_packets_borrow_stream_const (msg);
  const bt_stream_class *sc = bt_stream_borrow_class_const (stream);
  const bt_clock_snapshot *first, *last;

  if (events ? !bt_stream_class_discarded_events_have_default_clock_snapshots (sc)
             : !bt_stream_class_discarded_packets_have_default_clock_snapshots (sc))
    return FALSE;
  first = events ? bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const (msg)
                 : bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const (msg);
  last = events ? bt_message_discarded_events_borrow_end_default_clock_snapshot_const (msg)
                : bt_message_discarded_packets_borrow_end_default_clock_snapshot_const (msg);
  return bt_clock_snapshot_get_ns_from_origin (first, begin) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK
         && bt_clock_snapshot_get_ns_from_origin (last, end) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK
         && *begin >= 0 && *end >= *begin;
}

/* babeltrace2 2.0.4's lttng-live source counts discarded events as the difference of
 * the packet contexts' events_discarded counters, and under heavy loss sometimes says
 * a count near 2^64: the counter went back by that much since the packet it compared
 * with, after earlier counts had said too many by the same amount (the counts of a
 * stream still add up to LTTng's counter). That one becomes a debt paid from the
 * stream's next counts, so totals stay exact and no loss claims billions of events. */
static guint64
discarded_events_corrected (StreamState *state,
                            guint64      count)
{
  guint64 paid;

  if (count > (guint64) G_MAXINT64)
    {
      state->discard_overcount += G_MAXUINT64 - count + 1;
      return 0;
    }
  paid = MIN (count, state->discard_overcount);
  state->discard_overcount -= paid;
  return count - paid;
}

/* A discarded-events or -packets message: a loss on the stream's CPU at the end of its
 * gap, since its beginning. */
static gboolean
handle_discarded (CtfReader        *self,
                  const bt_message *msg)
{
  gboolean events = bt_message_get_type (msg) == BT_MESSAGE_TYPE_DISCARDED_EVENTS;
  const bt_stream *stream = events ? bt_message_discarded_events_borrow_stream_const (msg)
                                   : bt_message_discarded_packets_borrow_stream_const (msg);
  StreamState *state = stream_state (self, stream);
  guint16 *type = &self->lost_types[events ? 0 : 1];
  Loss loss = { 0, TW_TIME_NONE, TW_LOST_COUNT_UNKNOWN, 0, 0, state->cpu };
  guint64 count = 0;
  gint64 begin;

  if (*type == TW_TYPE_NONE
      && (*type = tw_lost_events_add_type (self->trace, events ? "discarded_events" : "discarded_packets",
                                           &self->error)) == TW_TYPE_NONE)
    return FALSE;
  loss.type = *type;
  if ((events ? bt_message_discarded_events_get_count (msg, &count)
              : bt_message_discarded_packets_get_count (msg, &count)) != BT_PROPERTY_AVAILABILITY_AVAILABLE)
    count = 0;
  if (events && count > 0 && (count = discarded_events_corrected (state, count)) == 0)
    return TRUE;  /* all of it told before */
  if (events && count > 0)
    loss.count = count;
  else if (!events)
    loss.packets = count;
  if (discarded_span (msg, &begin, &loss.end))
    loss.since = begin;
  else
    loss.end = state->have_end ? state->last_end_ns : 0;
  g_array_append_val (self->losses, loss);
  return TRUE;
}

static gboolean
handle_message (CtfReader        *self,
                const bt_message *msg,
                gint64            time_ns)
{
  switch (bt_message_get_type (msg))
    {
    case BT_MESSAGE_TYPE_EVENT:
      return handle_event (self, msg, time_ns);
    case BT_MESSAGE_TYPE_PACKET_BEGINNING:
      handle_packet (self, msg, TRUE);
      break;
    case BT_MESSAGE_TYPE_PACKET_END:
      handle_packet (self, msg, FALSE);
      break;
    case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
    case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
      return handle_discarded (self, msg);
    case BT_MESSAGE_TYPE_MESSAGE_ITERATOR_INACTIVITY:
      {
        /* lttng-live's "nothing until then" on quiet streams: how far the live stream
         * is complete */
        const bt_clock_snapshot *snap = bt_message_message_iterator_inactivity_borrow_clock_snapshot_const (msg);
        gint64 ns;

        if (bt_clock_snapshot_get_ns_from_origin (snap, &ns) == BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK)
          self->horizon = MAX (self->horizon, ns);
      }
      break;
    case BT_MESSAGE_TYPE_STREAM_BEGINNING:
      /* a recording of no rows still says what it kept */
      read_environment (self, bt_stream_borrow_trace_const (bt_message_stream_beginning_borrow_stream_const (msg)));
      break;
    case BT_MESSAGE_TYPE_STREAM_END:
    default:
      break;
    }
  return TRUE;
}

/* ---------------------------------------------------------------- the sink */

static bt_component_class_initialize_method_status
sink_initialize (bt_self_component_sink               *self_component,
                 bt_self_component_sink_configuration *configuration,
                 const bt_value                       *params,
                 void                                 *data)
{
  bt_self_component_set_data (bt_self_component_sink_as_self_component (self_component), data);
  if (bt_self_component_sink_add_input_port (self_component, "in0", NULL, NULL)
      != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
    return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_MEMORY_ERROR;
  return BT_COMPONENT_CLASS_INITIALIZE_METHOD_STATUS_OK;
}

/* One more free port each time one gets connected: one per stream of the source. */
static bt_component_class_port_connected_method_status
sink_input_port_connected (bt_self_component_sink       *self_component,
                           bt_self_component_port_input *self_port,
                           const bt_port_output         *other_port)
{
  const bt_component_sink *comp = bt_self_component_sink_as_component_sink (self_component);
  char name[32];

  g_snprintf (name, sizeof name, "in%" G_GUINT64_FORMAT, bt_component_sink_get_input_port_count (comp));
  if (bt_self_component_sink_add_input_port (self_component, name, NULL, NULL)
      != BT_SELF_COMPONENT_ADD_PORT_STATUS_OK)
    return BT_COMPONENT_CLASS_PORT_CONNECTED_METHOD_STATUS_MEMORY_ERROR;
  return BT_COMPONENT_CLASS_PORT_CONNECTED_METHOD_STATUS_OK;
}

static bt_component_class_sink_graph_is_configured_method_status
sink_graph_is_configured (bt_self_component_sink *self_component)
{
  CtfReader *self = bt_self_component_get_data (bt_self_component_sink_as_self_component (self_component));
  const bt_component_sink *comp = bt_self_component_sink_as_component_sink (self_component);
  guint64 n = bt_component_sink_get_input_port_count (comp);

  for (guint64 i = 0; i < n; i++)
    {
      bt_self_component_port_input *port = bt_self_component_sink_borrow_input_port_by_index (self_component, i);
      Upstream up = { 0 };

      if (!bt_port_is_connected (bt_port_input_as_port_const (
            bt_self_component_port_input_as_port_input (port))))
        continue;
      if (bt_message_iterator_create_from_sink_component (self_component, port, &up.iter)
          != BT_MESSAGE_ITERATOR_CREATE_FROM_SINK_COMPONENT_STATUS_OK)
        return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_ERROR;
      g_array_append_val (self->upstreams, up);
      self->n_live++;
    }
  return BT_COMPONENT_CLASS_SINK_GRAPH_IS_CONFIGURED_METHOD_STATUS_OK;
}

/* The time that orders @msg against the other streams: an event's time; anything else
 * goes first (it only changes per-stream state). */
static gint64
message_time (const bt_message *msg)
{
  const bt_event *event;
  const bt_clock_snapshot *snap;
  gint64 ns;

  if (bt_message_get_type (msg) != BT_MESSAGE_TYPE_EVENT)
    return G_MININT64;
  event = bt_message_event_borrow_event_const (msg);
  if (bt_stream_class_borrow_default_clock_class_const (
        bt_stream_borrow_class_const (bt_event_borrow_stream_const (event))) == NULL)
    return G_MININT64;
  snap = bt_message_event_borrow_default_clock_snapshot_const (msg);
  if (bt_clock_snapshot_get_ns_from_origin (snap, &ns) != BT_CLOCK_SNAPSHOT_GET_NS_FROM_ORIGIN_STATUS_OK
      || ns < 0)
    return G_MININT64;
  return ns;
}

/* Refills @up's batch when it is used up. */
static bt_component_class_sink_consume_method_status
refill (CtfReader *self,
        Upstream  *up)
{
  if (up->iter == NULL || up->pos < up->count)
    return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
  up->pos = up->count = 0;
  switch (bt_message_iterator_next (up->iter, &up->msgs, &up->count))
    {
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
      up->head_ns = message_time (up->msgs[0]);
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
      g_clear_pointer (&up->iter, bt_message_iterator_put_ref);
      self->n_live--;
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_AGAIN;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_MEMORY_ERROR;
    case BT_MESSAGE_ITERATOR_NEXT_STATUS_ERROR:
    default:
      return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
    }
}

/* Merges the streams by time, batch by batch, so the store comes out sorted and sealing
 * has nothing to sort (cheaper than babeltrace2's muxer, which also stops on streams
 * whose packets overlap; a stream going back in time just leaves the store to sort). */
static bt_component_class_sink_consume_method_status
sink_consume (bt_self_component_sink *self_component)
{
  CtfReader *self = bt_self_component_get_data (bt_self_component_sink_as_self_component (self_component));
  Upstream *ups = (Upstream *) (gpointer) self->upstreams->data;
  guint n = self->upstreams->len;
  Upstream *first = NULL;
  gint64 second = G_MAXINT64;

  for (guint i = 0; i < n; i++)
    {
      bt_component_class_sink_consume_method_status status = refill (self, &ups[i]);

      if (status != BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK)
        return status;
    }
  if (self->n_live == 0)
    return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_END;

  for (guint i = 0; i < n; i++)
    {
      if (ups[i].iter == NULL)
        continue;
      if (first == NULL || ups[i].head_ns < first->head_ns)
        {
          if (first)
            second = MIN (second, first->head_ns);
          first = &ups[i];
        }
      else
        second = MIN (second, ups[i].head_ns);
    }

  /* the earliest stream runs until it passes the next one or its batch ends */
  while (first->pos < first->count && first->head_ns <= second)
    {
      const bt_message *msg = first->msgs[first->pos++];
      gboolean ok = handle_message (self, msg, first->head_ns);

      bt_message_put_ref (msg);
      if (!ok)
        return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_ERROR;
      if (first->pos < first->count)
        first->head_ns = message_time (first->msgs[first->pos]);
    }
  return BT_COMPONENT_CLASS_SINK_CONSUME_METHOD_STATUS_OK;
}

static void
sink_finalize (bt_self_component_sink *self_component)
{
  CtfReader *self = bt_self_component_get_data (bt_self_component_sink_as_self_component (self_component));

  for (guint i = 0; i < self->upstreams->len; i++)
    {
      Upstream *up = &g_array_index (self->upstreams, Upstream, i);

      /* a batch cut short by an error still holds references */
      for (; up->pos < up->count; up->pos++)
        bt_message_put_ref (up->msgs[up->pos]);
      g_clear_pointer (&up->iter, bt_message_iterator_put_ref);
    }
  g_array_set_size (self->upstreams, 0);
}

/* ---------------------------------------------------------------- the graph */

/* The causes babeltrace2 left in the thread's error, as one line: the most specific
 * first, without the graph plumbing ones (component and iterator addresses). */
static char *
take_bt_error (void)
{
  const bt_error *error = bt_current_thread_take_error ();
  GString *out = g_string_new (NULL);
  guint64 n;

  if (error == NULL)
    return g_string_free (out, FALSE);
  n = bt_error_get_cause_count (error);
  for (guint64 i = 0; i < n && out->len < 300; i++)
    {
      const char *msg = bt_error_cause_get_message (bt_error_borrow_cause_by_index (error, i));
      const char *nl;

      if (msg == NULL || *msg == '\0' || strstr (msg, "comp-addr=") || strstr (msg, "iter-addr="))
        continue;
      if (out->len)
        g_string_append (out, ": ");
      nl = strchr (msg, '\n');
      g_string_append_len (out, msg, nl ? nl - msg : (gssize) strlen (msg));
    }
  bt_error_release (error);
  return g_string_free (out, FALSE);
}

static guint64
dir_size (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint64 total = 0;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *p = g_build_filename (dir, name, NULL);
      GStatBuf st;

      if (g_stat (p, &st) == 0 && S_ISREG (st.st_mode) && strcmp (name, "metadata") != 0)
        total += st.st_size;
    }
  return total;
}

/* The hostname in the environment of the trace in @dir, as LTTng writes it, or %NULL:
 * src.ctf.fs's `metadata-info` query gives the metadata's text, packetized or not. */
static char *
dup_trace_hostname (const bt_component_class_source *fs_class,
                    const char                      *dir)
{
  bt_value *params = bt_value_map_create ();
  bt_query_executor *query;
  const bt_value *result = NULL;
  const bt_value *text;
  g_autoptr(GRegex) regex = NULL;
  g_autoptr(GMatchInfo) match = NULL;
  char *host = NULL;

  bt_value_map_insert_string_entry (params, "path", dir);
  query = bt_query_executor_create (bt_component_class_source_as_component_class_const (fs_class),
                                    "metadata-info", params);
  bt_value_put_ref (params);
  if (query == NULL || bt_query_executor_query (query, &result) != BT_QUERY_EXECUTOR_QUERY_STATUS_OK)
    {
      g_free (take_bt_error ());
      bt_query_executor_put_ref (query);
      return NULL;
    }
  /* the env block holds no nested braces: its values are integers and strings */
  regex = g_regex_new ("\\benv\\s*\\{[^}]*\\bhostname\\s*=\\s*\"([^\"\\\\]+)\"", 0, 0, NULL);
  if (bt_value_is_map (result) && (text = bt_value_map_borrow_entry_value_const (result, "text"))
      && bt_value_is_string (text) && g_regex_match (regex, bt_value_string_get (text), 0, &match))
    host = g_match_info_fetch (match, 1);
  bt_value_put_ref (result);
  bt_query_executor_put_ref (query);
  return host;
}

/* The hostnames of @dirs' traces when there are two or more (a relay's output of
 * several targets), else %NULL: one machine's folder keeps its plain CPUs and tids. */
static GHashTable *
dup_hostnames (const bt_component_class_source *fs_class,
               GPtrArray                       *dirs)
{
  g_autoptr(GHashTable) hosts = NULL;

  if (dirs->len < 2)
    return NULL;
  hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < dirs->len; i++)
    {
      char *host = dup_trace_hostname (fs_class, dirs->pdata[i]);

      if (host)
        g_hash_table_add (hosts, host);
    }
  return g_hash_table_size (hosts) >= 2 ? g_steal_pointer (&hosts) : NULL;
}

/* One src.ctf.fs per trace folder (several inputs of one must be parts of one trace),
 * each of its streams on an input port of the sink. */
static gboolean
add_trace_source (bt_graph                       *graph,
                  const bt_component_class_source *fs_class,
                  const bt_component_sink         *sink,
                  const char                      *dir,
                  guint                            index)
{
  g_autofree char *name = g_strdup_printf ("src%u", index);
  bt_value *params = bt_value_map_create ();
  bt_value *inputs = NULL;
  const bt_component_source *source = NULL;
  gboolean ok;

  bt_value_map_insert_empty_array_entry (params, "inputs", &inputs);
  bt_value_array_append_string_element (inputs, dir);
  ok = bt_graph_add_source_component (graph, fs_class, name, params, BT_LOGGING_LEVEL_NONE,
                                      &source) == BT_GRAPH_ADD_COMPONENT_STATUS_OK;
  bt_value_put_ref (params);
  for (guint64 i = 0; ok && i < bt_component_source_get_output_port_count (source); i++)
    {
      const bt_port_output *out = bt_component_source_borrow_output_port_by_index_const (source, i);
      guint64 n_in = bt_component_sink_get_input_port_count (sink);
      const bt_port_input *in = bt_component_sink_borrow_input_port_by_index_const (sink, n_in - 1);

      ok = bt_graph_connect_ports (graph, out, in, NULL) == BT_GRAPH_CONNECT_PORTS_STATUS_OK;
    }
  return ok;
}

/* Which traces of a session folder were read, relative to it: `kernel, ust/uid/1000/64-bit`. */
static void
set_session_traces (TwTrace    *trace,
                    const char *path,
                    GPtrArray  *dirs)
{
  g_autoptr(GString) list = g_string_new (NULL);
  gsize prefix = strlen (path);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return;  /* the metadata file of one trace */
  for (guint i = 0; i < dirs->len; i++)
    {
      const char *dir = dirs->pdata[i];

      if (list->len)
        g_string_append (list, ", ");
      g_string_append (list, dir + prefix + (dir[prefix] == G_DIR_SEPARATOR));
    }
  tw_trace_set_metadata (trace, "ctf_traces", list->str);
}

static void
ctf_reader_init (CtfReader  *self,
                 TwTrace    *trace,
                 const char *path)
{
  self->trace = trace;
  self->path = path;
  self->lost_types[0] = self->lost_types[1] = TW_TYPE_NONE;
  self->types = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->streams = g_hash_table_new_full (NULL, NULL, NULL, stream_state_free);
  self->upstreams = g_array_new (FALSE, TRUE, sizeof (Upstream));
  self->losses = g_array_new (FALSE, FALSE, sizeof (Loss));
  self->payload_cap = 64;
  self->payload = g_malloc0 (self->payload_cap);
  self->text = g_string_sized_new (64);
  _tw_kernel_tasks_init (&self->tasks, trace);
  _tw_string_cache_init (&self->strings, trace);
  self->sensors = _tw_lttng_sensor_decoder_new (trace, path);
}

static bt_component_class_sink *
create_sink_class (void)
{
  bt_component_class_sink *sink_class = bt_component_class_sink_create ("tracewb-sink", sink_consume);

  bt_component_class_sink_set_initialize_method (sink_class, sink_initialize);
  bt_component_class_sink_set_input_port_connected_method (sink_class, sink_input_port_connected);
  bt_component_class_sink_set_graph_is_configured_method (sink_class, sink_graph_is_configured);
  bt_component_class_sink_set_finalize_method (sink_class, sink_finalize);
  return sink_class;
}

static void
ctf_reader_clear (CtfReader *self)
{
  g_clear_pointer (&self->types, g_hash_table_unref);
  g_clear_pointer (&self->streams, g_hash_table_unref);
  g_clear_pointer (&self->payload, g_free);
  g_clear_pointer (&self->upstreams, g_array_unref);
  g_clear_pointer (&self->losses, g_array_unref);
  if (self->text)
    g_string_free (g_steal_pointer (&self->text), TRUE);
  _tw_kernel_tasks_clear (&self->tasks);
  _tw_string_cache_clear (&self->strings);
  g_clear_pointer (&self->sensors, _tw_lttng_sensor_decoder_free);
  g_clear_pointer (&self->traces_read, g_hash_table_unref);
  g_clear_pointer (&self->task_hosts, g_hash_table_unref);
  g_clear_pointer (&self->hostnames, g_hash_table_unref);
}

/* babeltrace2 reads CTF 2 from 2.1 on; an older one fails on it as if it were corrupt. */
static gboolean
check_ctf_version (const char  *path,
                   const char  *dir,
                   GError     **error)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autoptr(GMappedFile) file = NULL;

  if (bt_version_get_major () > 2 || (bt_version_get_major () == 2 && bt_version_get_minor () >= 1))
    return TRUE;
  file = g_mapped_file_new (metadata, FALSE, NULL);
  if (file == NULL
      || !is_ctf2_metadata ((const guint8 *) g_mapped_file_get_contents (file),
                            g_mapped_file_get_length (file)))
    return TRUE;
  g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED,
               "%s: CTF 2 needs babeltrace2 ≥ 2.1; this system has %u.%u.%u", path,
               bt_version_get_major (), bt_version_get_minor (), bt_version_get_patch ());
  return FALSE;
}

static gboolean
read_ctf (const char      *path,
          TwTrace         *trace,
          TwProgressFunc   progress,
          gpointer         progress_data,
          GCancellable    *cancellable,
          GError         **error)
{
  g_autoptr(GPtrArray) dirs = dup_trace_dirs (path);
  CtfReader self = { 0 };
  const bt_plugin *plugin = NULL;
  const bt_component_class_source *fs_class;
  bt_component_class_sink *sink_class = NULL;
  bt_graph *graph = NULL;
  const bt_component_sink *sink = NULL;
  gboolean ok = FALSE;
  char *why;

  guint64 size = 0;

  if (dirs->len == 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                     "not a CTF trace directory, its metadata file, or a "
                                     "folder with CTF traces below it");
      return FALSE;
    }
  for (guint i = 0; i < dirs->len; i++)
    {
      if (!check_ctf_version (path, dirs->pdata[i], error))
        return FALSE;
      size += dir_size (dirs->pdata[i]);
    }

  ctf_reader_init (&self, trace, path);
  self.progress = progress;
  self.progress_data = progress_data;
  self.cancellable = cancellable;
  /* a rough size of an LTTng kernel event record, for progress only */
  self.size_estimate = MAX (size / 32, 1);

  if (bt_plugin_find ("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &plugin)
      != BT_PLUGIN_FIND_STATUS_OK
      || !(fs_class = bt_plugin_borrow_source_component_class_by_name_const (plugin, "fs")))
    {
      g_free (take_bt_error ());
      g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED,
                   "%s: babeltrace2's ctf plugin (src.ctf.fs) was not found", path);
      goto out;
    }

  self.hostnames = dup_hostnames (fs_class, dirs);
  sink_class = create_sink_class ();
  graph = bt_graph_create (0);
  if (bt_graph_add_sink_component_with_initialize_method_data (
        graph, sink_class, "sink", NULL, &self, BT_LOGGING_LEVEL_NONE, &sink)
      != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    goto bt_failed;
  for (guint i = 0; i < dirs->len; i++)
    if (!add_trace_source (graph, fs_class, sink, dirs->pdata[i], i))
      goto bt_failed;

  self.chunk = tw_trace_begin_append (trace);
  /* LTTng kernel payloads take about as many bytes in the store as in the streams: a
   * big trace gets its first blob at once (huge pages, no regrowth) */
  if (self.size_estimate * 32 >= 2 * BIG_BLOB)
    tw_event_chunk_reserve_blob (self.chunk, MIN (self.size_estimate * 32, (guint64) TW_CHUNK_SIZE * 32));
  for (;;)
    {
      bt_graph_run_once_status status = bt_graph_run_once (graph);

      if (self.error)
        {
          tw_trace_end_append (trace);
          g_free (take_bt_error ());
          g_propagate_error (error, g_steal_pointer (&self.error));
          goto out;
        }
      if (status == BT_GRAPH_RUN_ONCE_STATUS_END)
        break;
      if (status == BT_GRAPH_RUN_ONCE_STATUS_AGAIN)
        continue;
      if (status != BT_GRAPH_RUN_ONCE_STATUS_OK)
        {
          tw_trace_end_append (trace);
          goto bt_failed;
        }
      if (self.n_events / CHECK_EVERY != self.since_check)
        {
          self.since_check = self.n_events / CHECK_EVERY;
          tw_trace_end_append (trace);
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto out;
          if (progress)
            progress (MIN (0.99, (double) self.n_events / self.size_estimate), progress_data);
        }
    }
  flush_losses (&self, G_MAXINT64);
  tw_trace_end_append (trace);
  apply_task_hosts (&self);

  /* a trace whose streams are empty (a session that recorded nothing) is a trace of
   * 0 events, as babeltrace2 prints it */
  tw_trace_set_metadata (trace, "time_origin", "ns from the CTF clock's origin (LTTng: Unix epoch)");
  tw_trace_set_metadata (trace, "clock", "CTF stream default clock");
  if (dirs->len > 1 || strcmp (dirs->pdata[0], path) != 0)
    set_session_traces (trace, path, dirs);
  if (self.n_clockless > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self.n_clockless);

      tw_trace_set_metadata (trace, "ctf_events_without_time", n);
    }
  if (self.overlapping_packets > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self.overlapping_packets);

      tw_trace_set_metadata (trace, "ctf_overlapping_packets", n);
      tw_trace_set_metadata (trace, "ctf_note",
                             "some packets begin before the previous packet of their stream "
                             "ends; every stream was read whole and the events merged and "
                             "sorted by time (babeltrace2's muxer stops on such traces)");
    }
  if (progress)
    progress (1.0, progress_data);
  ok = TRUE;
  goto out;

bt_failed:
  why = take_bt_error ();
  tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, path, 0,
                                 "babeltrace2 cannot read this CTF trace%s%s",
                                 why[0] ? ": " : "", why);
  g_free (why);

out:
  /* the graph owns the sink, whose finalize drops the iterators before @self goes */
  bt_graph_put_ref (graph);
  bt_component_class_sink_put_ref (sink_class);
  bt_plugin_put_ref (plugin);
  ctf_reader_clear (&self);
  return ok;
}

/* ---------------------------------------------------------------- live decoding */

struct _TwCtfDecoder {
  CtfReader                 reader;
  bt_component_class_sink  *sink_class;
  char                     *what;
};

/**
 * _tw_ctf_decoder_new:
 * @trace: where event types, tasks and strings go (rows go to @func)
 * @what: the URL or path errors name
 *
 * The CTF reader's decoding (kinds, tasks, fields, losses) for a graph someone else
 * builds and runs: src.ctf.lttng-live in the live helper (tw-lttng-live-child.c).
 */
TwCtfDecoder *
_tw_ctf_decoder_new (TwTrace      *trace,
                     const char   *what,
                     TwCtfRowFunc  func,
                     gpointer      user_data)
{
  TwCtfDecoder *self = g_new0 (TwCtfDecoder, 1);

  self->what = g_strdup (what);
  ctf_reader_init (&self->reader, trace, self->what);
  self->reader.row_func = func;
  self->reader.row_data = user_data;
  self->reader.horizon = G_MININT64;
  self->sink_class = create_sink_class ();
  return self;
}

/**
 * _tw_ctf_decoder_add_sink:
 *
 * Adds the decoding sink to @graph; connect the source's output ports to its free input
 * port (the last one), one at a time, as add_trace_source() does.
 */
gboolean
_tw_ctf_decoder_add_sink (TwCtfDecoder             *self,
                          bt_graph                 *graph,
                          const bt_component_sink **sink)
{
  return bt_graph_add_sink_component_with_initialize_method_data (
           graph, self->sink_class, "sink", NULL, &self->reader, BT_LOGGING_LEVEL_NONE, sink)
         == BT_GRAPH_ADD_COMPONENT_STATUS_OK;
}

/**
 * _tw_ctf_decoder_set_payload_strings:
 *
 * Payload string fields (not task names, not prev_state spellings, not what the sensor
 * decoder makes: those stay the trace's) get their ids from @func instead of the
 * trace's string table.
 */
void
_tw_ctf_decoder_set_payload_strings (TwCtfDecoder    *self,
                                     TwCtfStringFunc  func,
                                     gpointer         user_data)
{
  self->reader.string_func = func;
  self->reader.string_data = user_data;
}

/* Stores the losses still waiting for a later event (the live stream went quiet). */
void
_tw_ctf_decoder_flush_losses (TwCtfDecoder *self)
{
  flush_losses (&self->reader, G_MAXINT64);
}

/* The decoding error that stopped the graph, if any. */
gboolean
_tw_ctf_decoder_take_error (TwCtfDecoder  *self,
                            GError       **error)
{
  if (self->reader.error == NULL)
    return FALSE;
  g_propagate_error (error, g_steal_pointer (&self->reader.error));
  return TRUE;
}

/* The time of the last event or inactivity message (G_MININT64 before any), less how
 * far sensor elements come before the events that carry them. */
gint64
_tw_ctf_decoder_get_horizon (TwCtfDecoder *self)
{
  gint64 lag = _tw_lttng_sensor_decoder_get_lag (self->reader.sensors);

  if (self->reader.horizon == G_MININT64)
    return G_MININT64;
  return self->reader.horizon - lag;
}

TwLttngSensorDecoder *
_tw_ctf_decoder_get_sensors (TwCtfDecoder *self)
{
  return self->reader.sensors;
}

guint64
_tw_ctf_decoder_get_n_events (TwCtfDecoder *self)
{
  return self->reader.n_events;
}

/* After the graph is gone (its sink's finalize reads the decoder). */
void
_tw_ctf_decoder_free (TwCtfDecoder *self)
{
  if (self == NULL)
    return;
  bt_component_class_sink_put_ref (self->sink_class);
  ctf_reader_clear (&self->reader);
  g_free (self->what);
  g_free (self);
}

char *
_tw_ctf_take_bt_error (void)
{
  return take_bt_error ();
}

#endif /* HAVE_BABELTRACE */

/* ---------------------------------------------------------------- the reader */

/* @head is the `metadata` file's head (the registry reads it for a directory; nothing
 * for a session folder, whose first trace's metadata is read here). The magic is
 * recognised even without babeltrace2, so the error can say what is missing. */
static guint
tw_ctf_reader_probe (const char   *path,
                     const guint8 *head,
                     gsize         head_len)
{
  g_autoptr(GPtrArray) dirs = dup_trace_dirs (path);
  g_autofree char *metadata = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileInputStream) in = NULL;
  guint8 first[16];
  gsize n = 0;

  if (dirs->len == 0)
    return 0;
  if (head_len > 0)
    return is_ctf_metadata (head, head_len) ? 100 : 0;
  metadata = g_build_filename (dirs->pdata[0], "metadata", NULL);
  file = g_file_new_for_path (metadata);
  if (!(in = g_file_read (file, NULL, NULL))
      || !g_input_stream_read_all (G_INPUT_STREAM (in), first, sizeof first, &n, NULL, NULL))
    return 0;
  return is_ctf_metadata (first, n) ? 100 : 0;
}

#if HAVE_BABELTRACE
/* The version of the libbabeltrace2 loaded, not the one built against. */
static const char *
tw_ctf_reader_get_library (void)
{
  static char *library;

  if (g_once_init_enter (&library))
    g_once_init_leave (&library, g_strdup_printf ("libbabeltrace2 %u.%u.%u",
                                                          bt_version_get_major (),
                                                          bt_version_get_minor (),
                                                          bt_version_get_patch ()));
  return library;
}
#endif

/* A CTF trace is a folder: its name has no suffix to speak of, its metadata file a name. */
const TwReaderInfo tw_ctf_reader_info = {
  .name = "ctf",
  .label = "CTF",
  .description = "CTF 1.8 traces (LTTng), a trace directory or its metadata file, through babeltrace2",
  .file_names = (const char *const[]) { "metadata", NULL },
  .probe = tw_ctf_reader_probe,
#if HAVE_BABELTRACE
  .read = read_ctf,
  .get_library = tw_ctf_reader_get_library,
#endif
  .build_package = "libbabeltrace2-dev",
};
