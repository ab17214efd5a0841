/* tw-lttng-sensor-decoder.c: sensor elements and measurements back from LTTng-UST events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Time. An element event is written when the target's monitor drains the ring, up to a
 * poll period after the element was committed. The row takes the element's own
 * timestamp (CLOCK_MONOTONIC of the target), put in the trace's time base with the
 * event's own clock: LTTng-UST stamps with CLOCK_MONOTONIC too, so the event's time from
 * origin minus its raw clock value is the offset for every monotonic time of that host.
 * Rows so come up to that lag earlier than the event that carried them; the live
 * decoding moves its horizon back by the largest lag seen (and as much again).
 *
 * Missed elements. Each element carries the monitor's missed count so far; a rise
 * becomes one lost-event row on the sensor's task at the next element (what was missed
 * lies between the two), and the count events carry the misses after the last element.
 * The workbench's missed count is then exactly the target monitor's.
 *
 * Stream check. Each element carries its position in the sensor's ring, so what the
 * monitor sent and what arrived are compared per sensor, as a local monitor checks a
 * ring's positions:
 *  - a jump ahead larger than the rise of the missed count: element events lost on the
 *    way (LTTng discarded them, its ring full), counted apart (`lost`), beside LTTng's
 *    own discarded-events rows, never as the sensor's misses;
 *  - the position just received again: a duplicate, counted and not stored twice;
 *  - a position behind the last one: the target's monitor started over (restarted, its
 *    pid the same: pid namespaces give a container's monitor the same pid each time):
 *    a new stream from there, counted (`restarts`), its gap neither negative nor lost;
 *    its missed count starts again from 0 on top of what the old stream missed.
 *
 * Byte order. A payload is the target's memory, its numbers in the target's byte order,
 * which the schema event names (`big_endian`; absent in older recordings: ours). When it
 * is not ours, each number of the payload is reversed before decoding; CTF's own fields
 * (positions, counts, timestamps) babeltrace2 already reads in the trace's byte order.
 *
 * Declared streams. The schema event carries the jitter-constrained stream the sensor
 * declared (`jcs_*`, absent in older recordings: none). The check of arrivals against it
 * is app/'s (evaluators/ holds its math): the decoder hands each declared sensor's
 * elements, with their positions, to an element hook, as a local monitor does.
 *
 * Hosts. A session folder may hold several targets' traces, and their programs may share
 * a pid: a sensor's task is keyed by the hostname of its trace too, and named by it once
 * a second host is met (host_task()).
 *
 * Counts. The monitor's counts events carry its own accounting of each sensor
 * (received, missed, inconsistent, nonmonotonic): kept as they are for the Sensors tab
 * (tw-lttng-live-child.c reports them), with the monitor's rate between two of them, and
 * the latest of each sensor in a recording's metadata (note_counts()).
 *
 * Every field is untrusted: a payload shorter than its schema is zero-filled, one longer
 * is cut, a schema that does not parse fails that sensor (its elements are counted as
 * undecoded), never the trace.
 */
#include "config.h"

#include "tw-lttng-sensor-decoder-private.h"

#if HAVE_BABELTRACE

#include <math.h>
#include <string.h>
#include <tw-sensor.h>

#include "tw-sensor-layout-private.h"

#define MAX_CLASSES  16
#define LAG_SLACK_NS (20 * 1000 * 1000)

enum {
  F_MONITOR, F_SENSOR, F_PID, F_TASK, F_SENSOR_NAME, F_SCHEMA, F_PAYLOAD_SIZE,
  F_POSITION, F_MISSED, F_TIMESTAMP, F_PAYLOAD, F_RECEIVED,
  F_EVALUATION, F_TASK_ID, F_TASK_NAME, F_TASK_PID, F_BEGIN, F_END, F_LENGTH, F_INTERMEDIATE,
  F_COUNT, F_MIN, F_MAX, F_MEAN, F_LOW, F_WIDTH, F_BINS,
  F_INCONSISTENT, F_NONMONOTONIC, F_BIG_ENDIAN,
  F_JCS_PERIOD, F_JCS_MIN_DISTANCE, F_JCS_EARLINESS, F_JCS_MONITOR_PERIOD, F_JCS_DEADLINE,
  N_MEMBERS
};

static const char *const member_names[N_MEMBERS] = {
  "monitor", "sensor", "pid", "task", "sensor_name", "schema", "payload_size",
  "position", "missed", "timestamp", "payload", "received",
  "evaluation", "task_id", "task_name", "task_pid", "begin_ns", "end_ns", "length_ns",
  "intermediate_events",
  "count", "min", "max", "mean", "low", "width", "bins",
  "inconsistent", "nonmonotonic", "big_endian",
  "jcs_period_ns", "jcs_min_distance_ns", "jcs_earliness_ns", "jcs_monitor_period_ns", "jcs_deadline_ns",
};

typedef struct {
  const bt_event_class *klass;
  int                   member[N_MEMBERS];   /* payload member index, −1: absent */
} ClassMembers;

typedef struct {
  char           *name;
  char           *task_name;
  char           *sensor_name;
  char           *schema;
  gint64          pid;
  guint32         monitor;
  guint32         sensor;         /* the monitor's own index of it */
  gboolean        swap;           /* the target's byte order is not ours */
  char           *host;           /* the hostname of the trace that carried it, "" unnamed */
  double          jcs[5];         /* its declared stream (T, D, τ, T_M, d), all 0: none */
  guint           index;          /* in the decoder: the arg of its rows */
  gboolean        decodable;      /* the schema parsed and has a type */
  TwSensorLayout  layout;
  guint           payload_size;   /* of the schema */
  guint8         *element;        /* scratch: the sensor payload */
  guint8         *payload;        /* scratch: the store payload */
  guint32         task;
  gboolean        have_position;
  guint64         next_position;
  guint64         missed;         /* the monitor's count, as far as stored as lost rows */
  guint64         missed_before;  /* missed in the streams before the latest restart */
  guint64         received;
  guint64         lost;
  guint64         duplicates;
  guint64         restarts;
  guint64         n_counts;
  guint64         undecoded;
  guint64         last_time;
  guint16         lost_type;      /* `<task>@<sensor>:missed`, TW_TYPE_NONE until needed */
  /* the monitor's own accounting, from its latest counts event */
  gboolean        have_counts;
  TwLiveCounts    counts;
  gint64          counts_time;
  double          rate;
  guint64         generation;     /* bumped when the schema, counts or losses change */
} SensorStream;

typedef struct {
  guint16 type;
  char   *name;
} Evaluation;

struct _TwLttngSensorDecoder {
  TwTrace      *trace;
  char         *what;
  ClassMembers  classes[MAX_CLASSES];
  guint         n_classes;
  GHashTable   *sensors;        /* stream_key() → index in @streams */
  GHashTable   *hosts;          /* hostname → its number + 1 */
  const bt_trace *last_trace;
  guint64       last_host;
  GPtrArray    *streams;        /* SensorStream */
  guint64       last_key;
  SensorStream *last_stream;
  GHashTable   *evaluations;    /* "measurement:<name>" / "histogram:<name>" → type + 1 */
  GHashTable   *tasks;          /* "HOST\nsensor:<pid>:<task>" → task + 1 */
  GHashTable   *task_hosts;     /* the hosts of @tasks */
  GString      *declared;       /* metadata `sensor_streams`: the declared streams */
  gint64        max_lag;
  TwLttngSensorElementFunc element_func;
  gpointer      element_data;
};

static void
sensor_stream_free (gpointer data)
{
  SensorStream *s = data;

  _tw_sensor_layout_clear (&s->layout);
  g_free (s->name);
  g_free (s->host);
  g_free (s->task_name);
  g_free (s->sensor_name);
  g_free (s->schema);
  g_free (s->element);
  g_free (s->payload);
  g_free (s);
}

/**
 * _tw_lttng_sensor_event_from_name:
 *
 * Returns: which `tracewb:*` event @name is, TW_LTTNG_SENSOR_EVENT_NONE for any other
 */
TwLttngSensorEvent
_tw_lttng_sensor_event_from_name (const char *name)
{
  static const struct { const char *name; TwLttngSensorEvent kind; } ours[] = {
    { "tracewb:sensor_schema",   TW_LTTNG_SENSOR_EVENT_SCHEMA },
    { "tracewb:sensor_element",  TW_LTTNG_SENSOR_EVENT_ELEMENT },
    { "tracewb:sensor_counts",   TW_LTTNG_SENSOR_EVENT_COUNTS },
    { "tracewb:measurement",     TW_LTTNG_SENSOR_EVENT_MEASUREMENT },
    { "tracewb:histogram",       TW_LTTNG_SENSOR_EVENT_HISTOGRAM },
  };

  if (name == NULL || strncmp (name, "tracewb:", 8) != 0)
    return TW_LTTNG_SENSOR_EVENT_NONE;
  for (guint i = 0; i < G_N_ELEMENTS (ours); i++)
    if (strcmp (name, ours[i].name) == 0)
      return ours[i].kind;
  return TW_LTTNG_SENSOR_EVENT_NONE;
}

/**
 * _tw_lttng_sensor_decoder_new:
 * @trace: where types, tasks and strings go
 * @what: the path or URL errors name
 */
TwLttngSensorDecoder *
_tw_lttng_sensor_decoder_new (TwTrace    *trace,
                              const char *what)
{
  TwLttngSensorDecoder *self = g_new0 (TwLttngSensorDecoder, 1);

  self->trace = trace;
  self->what = g_strdup (what);
  self->sensors = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->streams = g_ptr_array_new_with_free_func (sensor_stream_free);
  self->evaluations = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->tasks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->task_hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->declared = g_string_new (NULL);
  return self;
}

void
_tw_lttng_sensor_decoder_free (TwLttngSensorDecoder *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->sensors);
  g_hash_table_unref (self->hosts);
  g_ptr_array_unref (self->streams);
  g_hash_table_unref (self->evaluations);
  g_hash_table_unref (self->tasks);
  g_hash_table_unref (self->task_hosts);
  g_string_free (self->declared, TRUE);
  g_free (self->what);
  g_free (self);
}

static const ClassMembers *
class_members (TwLttngSensorDecoder *self,
               const bt_event_class *ec)
{
  const bt_field_class *fc = bt_event_class_borrow_payload_field_class_const (ec);
  ClassMembers *c;
  guint64 n = 0;

  for (guint i = 0; i < self->n_classes; i++)
    if (self->classes[i].klass == ec)
      return &self->classes[i];
  /* more classes than ours can have (several traces of a session): start over */
  if (self->n_classes == MAX_CLASSES)
    self->n_classes = 0;
  c = &self->classes[self->n_classes++];
  c->klass = ec;
  for (guint m = 0; m < N_MEMBERS; m++)
    c->member[m] = -1;
  if (fc && bt_field_class_get_type (fc) == BT_FIELD_CLASS_TYPE_STRUCTURE)
    n = bt_field_class_structure_get_member_count (fc);
  for (guint64 i = 0; i < n; i++)
    {
      const char *name = bt_field_class_structure_member_get_name (
        bt_field_class_structure_borrow_member_by_index_const (fc, i));

      for (guint m = 0; m < N_MEMBERS; m++)
        if (strcmp (name, member_names[m]) == 0)
          c->member[m] = (int) i;
    }
  return c;
}

static const bt_field *
member (const bt_field     *payload,
        const ClassMembers *c,
        guint               m)
{
  if (payload == NULL || c->member[m] < 0)
    return NULL;
  return bt_field_structure_borrow_member_field_by_index_const (payload, c->member[m]);
}

static gboolean
get_uint (const bt_field     *payload,
          const ClassMembers *c,
          guint               m,
          guint64            *out)
{
  const bt_field *f = member (payload, c, m);

  if (f == NULL)
    return FALSE;
  switch (bt_field_get_class_type (f))
    {
    case BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER:
      *out = bt_field_integer_unsigned_get_value (f);
      return TRUE;
    case BT_FIELD_CLASS_TYPE_SIGNED_INTEGER:
      *out = (guint64) bt_field_integer_signed_get_value (f);
      return TRUE;
    default:
      return FALSE;
    }
}

static double
get_real (const bt_field     *payload,
          const ClassMembers *c,
          guint               m)
{
  const bt_field *f = member (payload, c, m);

  if (f == NULL)
    return 0;
  switch (bt_field_get_class_type (f))
    {
    case BT_FIELD_CLASS_TYPE_DOUBLE_PRECISION_REAL:
      return bt_field_real_double_precision_get_value (f);
    case BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL:
      return bt_field_real_single_precision_get_value (f);
    default:
      return 0;
    }
}

static const char *
get_string (const bt_field     *payload,
            const ClassMembers *c,
            guint               m)
{
  const bt_field *f = member (payload, c, m);

  if (f == NULL || bt_field_get_class_type (f) != BT_FIELD_CLASS_TYPE_STRING)
    return "";
  return bt_field_string_get_value (f);
}

/* The offset from the target's CLOCK_MONOTONIC to the trace's time (ns from origin):
 * the event's own time minus its raw clock value. */
static gint64
monotonic_offset (const bt_message *msg,
                  gint64            time_ns)
{
  const bt_clock_snapshot *snap;
  const bt_clock_class *cc;
  guint64 value, freq;
  gint64 raw;

  if (!bt_message_event_borrow_stream_class_default_clock_class_const (msg))
    return 0;
  snap = bt_message_event_borrow_default_clock_snapshot_const (msg);
  cc = bt_clock_snapshot_borrow_clock_class_const (snap);
  value = bt_clock_snapshot_get_value (snap);
  freq = bt_clock_class_get_frequency (cc);
  if (freq == 1000000000u)
    raw = (gint64) value;
  else
    raw = (gint64) ((value / freq) * 1000000000u + (value % freq) * 1000000000u / freq);
  return time_ns - raw;
}

/* The hostname of the target whose trace carried @msg (LTTng's `hostname` environment
 * entry), "" when the trace does not say: a pid names a monitor on one machine only. */
static const char *
trace_hostname (const bt_message *msg)
{
  const bt_event *event = bt_message_event_borrow_event_const (msg);
  const bt_trace *trace = bt_stream_borrow_trace_const (bt_event_borrow_stream_const (event));
  const bt_value *value = bt_trace_borrow_environment_entry_value_by_name_const (trace, "hostname");

  return value && bt_value_is_string (value) ? bt_value_string_get (value) : "";
}

/* Which sensor of which monitor on which target @msg is about: a session folder holds
 * several targets' traces, and two targets' monitors may share a pid. A monitor's sensor
 * indexes are small (the sensors it found): 20 bits of them, 12 for the target. */
static guint64
stream_key (TwLttngSensorDecoder *self,
            const bt_message     *msg,
            guint64               monitor,
            guint64               sensor)
{
  const bt_trace *trace = bt_stream_borrow_trace_const (
    bt_event_borrow_stream_const (bt_message_event_borrow_event_const (msg)));

  if (trace != self->last_trace)
    {
      const char *host = trace_hostname (msg);
      gpointer found = g_hash_table_lookup (self->hosts, host);

      if (found == NULL)
        {
          found = GUINT_TO_POINTER (g_hash_table_size (self->hosts) + 1);
          g_hash_table_insert (self->hosts, g_strdup (host), found);
        }
      self->last_trace = trace;
      self->last_host = (GPOINTER_TO_UINT (found) - 1) & 0xfff;
    }
  return (monitor & 0xffffffffu) << 32 | self->last_host << 20 | (sensor & 0xfffff);
}

static SensorStream *
lookup_stream (TwLttngSensorDecoder *self,
               guint64               key)
{
  gpointer index;

  if (self->last_stream && self->last_key == key)
    return self->last_stream;
  if (!g_hash_table_lookup_extended (self->sensors, &key, NULL, &index))
    return NULL;
  self->last_key = key;
  self->last_stream = g_ptr_array_index (self->streams, GPOINTER_TO_UINT (index));
  return self->last_stream;
}

/* A trace of several hosts: the tasks met so far take their hosts (the rows of each
 * host's tasks then group under it, as a live session of several targets groups them). */
static void
name_task_hosts (TwLttngSensorDecoder *self)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, self->tasks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *host = key;
      guint32 task = GPOINTER_TO_UINT (value) - 1;

      if (host[0] && tw_trace_get_task (self->trace, task)->host == NULL)
        {
          g_autofree char *name = g_strndup (host, strcspn (host, "\n"));

          tw_trace_set_task_host (self->trace, task, name);
        }
    }
}

/* The task of a target's program: @id (`sensor:<pid>:<task>`) on @host. A session folder
 * may hold several targets' traces whose programs share a pid (pid namespaces, or
 * chance): once sensors of a second host are met, each host's tasks are its own,
 * `HOST/sensor:<pid>:<task>` as a live session of several targets names them, with
 * their host. One host alone keeps the ids a local monitor gives. */
static guint32
host_task (TwLttngSensorDecoder *self,
           const char           *host,
           const char           *id,
           const char           *name,
           gint64                pid)
{
  g_autofree char *key = g_strdup_printf ("%s\n%s", host, id);
  g_autofree char *host_id = NULL;
  gpointer found = g_hash_table_lookup (self->tasks, key);
  gboolean several;
  guint32 task;

  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  if (!g_hash_table_contains (self->task_hosts, host))
    g_hash_table_add (self->task_hosts, g_strdup (host));
  several = g_hash_table_size (self->task_hosts) > 1;
  if (several && host[0])
    id = host_id = g_strdup_printf ("%s/%s", host, id);
  task = tw_trace_add_task (self->trace, id, name, pid, -1);
  g_hash_table_insert (self->tasks, g_steal_pointer (&key), GUINT_TO_POINTER (task + 1));
  if (several)
    name_task_hosts (self);
  return task;
}

/* One loss type per sensor, so that each sensor's misses add up on their own. */
static guint16
lost_type (TwLttngSensorDecoder  *self,
           SensorStream          *s,
           GError               **error)
{
  if (s->lost_type == TW_TYPE_NONE)
    {
      g_autofree char *name = g_strdup_printf ("%s:missed", s->name);

      s->lost_type = tw_lost_events_add_type (self->trace, name, error);
    }
  return s->lost_type;
}

/* The monitor's missed count rose to @missed: a lost row for the rise, at @time_ns. */
static gboolean
note_missed (TwLttngSensorDecoder  *self,
             SensorStream          *s,
             guint64                missed,
             guint64                time_ns,
             TwCtfRowFunc           emit,
             gpointer               emit_data,
             GError               **error)
{
  guint8 payload[64];
  const TwEventType *info;
  guint16 type;
  guint64 count;

  if (missed <= s->missed)
    return TRUE;
  count = missed - s->missed;
  s->missed = missed;
  if ((type = lost_type (self, s, error)) == TW_TYPE_NONE)
    return FALSE;
  info = tw_trace_get_event_type (self->trace, type);
  g_assert (info->payload_size <= sizeof payload);
  tw_lost_events_pack (info, payload, count, 0, s->last_time ? s->last_time : TW_TIME_NONE);
  emit (time_ns, TW_CPU_NONE, type, s->task, tw_lost_events_arg (count), payload,
        info->payload_size, emit_data);
  return TRUE;
}

/* A recording keeps what its sensors declared (_tw_sensor_layout_append_declared). */
static void
note_declared (TwLttngSensorDecoder *self,
               const SensorStream   *s)
{
  if (s->jcs[0] <= 0)
    return;
  _tw_sensor_layout_append_declared (self->declared, s->host, s->name, s->jcs);
  tw_trace_set_metadata (self->trace, "sensor_streams", self->declared->str);
}

/* A recording keeps the monitors' own counts too, the latest of each sensor
 * (_tw_sensor_layout_append_counts). Rebuilt at each counts event, one a second per
 * sensor. */
static void
note_counts (TwLttngSensorDecoder *self)
{
  g_autoptr(GString) counts = g_string_new (NULL);

  for (guint i = 0; i < self->streams->len; i++)
    {
      const SensorStream *s = g_ptr_array_index (self->streams, i);

      if (s->have_counts)
        _tw_sensor_layout_append_counts (counts, s->host, s->name, s->counts.received, s->counts.missed,
                                         s->counts.inconsistent);
    }
  tw_trace_set_metadata (self->trace, "sensor_counts", counts->str);
}

static gboolean
handle_schema (TwLttngSensorDecoder  *self,
               const bt_message      *msg,
               const bt_field        *payload,
               const ClassMembers    *c,
               GError               **error)
{
  guint64 monitor = 0, sensor = 0, pid = 0, big_endian = G_BYTE_ORDER == G_BIG_ENDIAN, key;
  const char *task = get_string (payload, c, F_TASK);
  const char *sensor_name = get_string (payload, c, F_SENSOR_NAME);
  const char *schema_text = get_string (payload, c, F_SCHEMA);
  g_autofree char *name = NULL;
  TwSensorSchema *schema;
  SensorStream *s;
  char why[256];

  if (!get_uint (payload, c, F_MONITOR, &monitor) || !get_uint (payload, c, F_SENSOR, &sensor))
    return TRUE;
  get_uint (payload, c, F_PID, &pid);
  /* absent (a monitor before the field): the target shares our byte order */
  get_uint (payload, c, F_BIG_ENDIAN, &big_endian);
  key = stream_key (self, msg, monitor, sensor);
  if (lookup_stream (self, key))
    return TRUE;   /* sent again every second */

  s = g_new0 (SensorStream, 1);
  /* absent (a monitor before the fields): no stream declared */
  for (guint i = 0; i < G_N_ELEMENTS (s->jcs); i++)
    {
      double v = get_real (payload, c, F_JCS_PERIOD + i);

      s->jcs[i] = isfinite (v) && v > 0 ? v : 0;
    }
  s->host = g_utf8_make_valid (trace_hostname (msg), -1);
  s->monitor = (guint32) monitor;
  s->sensor = (guint32) sensor;
  s->pid = (gint64) pid;
  s->swap = (big_endian != 0) != (G_BYTE_ORDER == G_BIG_ENDIAN);
  /* names as the sensor directory allows them: never empty, bounded */
  if (!task[0])
    task = "?";
  if (!sensor_name[0])
    sensor_name = "?";
  s->task_name = g_utf8_make_valid (task, MIN (strlen (task), TW_SENSOR_NAME_MAX));
  s->sensor_name = g_utf8_make_valid (sensor_name, MIN (strlen (sensor_name), TW_SENSOR_NAME_MAX));
  s->schema = g_utf8_make_valid (schema_text, -1);
  s->generation = 1;
  s->lost_type = TW_TYPE_NONE;
  s->index = self->streams->len;
  s->name = g_strdup_printf ("%.*s@%.*s", TW_SENSOR_NAME_MAX, task, TW_SENSOR_NAME_MAX, sensor_name);
  name = g_utf8_make_valid (s->name, -1);
  g_free (s->name);
  s->name = g_steal_pointer (&name);
  schema = tw_sensor_schema_parse (schema_text, why, sizeof why);
  if (schema == NULL)
    g_message ("%s: sensor %s: its schema “%s” does not parse (%s); its elements are not decoded",
               self->what, s->name, schema_text, why);
  else
    {
      g_autoptr(GError) local = NULL;
      g_autofree char *task_name = g_utf8_make_valid (task, -1);
      g_autofree char *task_id = _tw_sensor_layout_task_id ((gint64) pid, task_name);

      s->decodable = _tw_sensor_layout_init (&s->layout, self->trace, s->name, schema, self->what, &local);
      if (!s->decodable)
        g_message ("%s", local->message);
      s->payload_size = (guint) tw_sensor_schema_get_size (schema);
      s->element = g_malloc0 (MAX (s->payload_size, 1));
      s->payload = g_malloc0 (MAX (s->layout.payload_size, 1));
      s->task = host_task (self, s->host, task_id, task_name, (gint64) pid);
      tw_sensor_schema_free (schema);
    }
  g_hash_table_insert (self->sensors, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->streams->len));
  g_ptr_array_add (self->streams, s);
  note_declared (self, s);
  self->last_stream = NULL;
  return TRUE;
}

/* The stream check of @s at an element of @position, the monitor's missed count then
 * @missed (see the top of this file).
 *
 * Returns: FALSE for a duplicate, which is not stored */
static gboolean
check_position (SensorStream *s,
                guint64       position,
                guint64       missed)
{
  if (!s->have_position)
    return TRUE;
  if (position + 1 == s->next_position)
    {
      s->duplicates++;
      s->generation++;
      return FALSE;
    }
  if (position < s->next_position)
    {
      /* a new stream: its misses count from 0 again, added to the old stream's */
      s->restarts++;
      s->generation++;
      s->missed_before += s->missed;
      s->missed = 0;
      return TRUE;
    }
  if (position > s->next_position)
    {
      guint64 gap = position - s->next_position;
      guint64 told = missed > s->missed ? missed - s->missed : 0;

      if (gap > told)
        {
          s->lost += gap - told;
          s->generation++;
        }
    }
  return TRUE;
}

static gboolean
handle_element (TwLttngSensorDecoder  *self,
                const bt_message      *msg,
                const bt_field        *payload,
                const ClassMembers    *c,
                gint64                 time_ns,
                TwCtfRowFunc           emit,
                gpointer               emit_data,
                GError               **error)
{
  guint64 monitor = 0, sensor = 0, position = 0, missed = 0, timestamp = 0;
  const bt_field *bytes;
  SensorStream *s;
  guint64 n, time;
  gint64 lag;

  if (!get_uint (payload, c, F_MONITOR, &monitor) || !get_uint (payload, c, F_SENSOR, &sensor)
      || !get_uint (payload, c, F_POSITION, &position) || !get_uint (payload, c, F_TIMESTAMP, &timestamp))
    return TRUE;
  get_uint (payload, c, F_MISSED, &missed);
  s = lookup_stream (self, stream_key (self, msg, monitor, sensor));
  if (s == NULL || !s->decodable)
    {
      if (s)
        s->undecoded++;
      return TRUE;
    }

  time = (guint64) MAX ((gint64) timestamp + monotonic_offset (msg, time_ns), 0);
  lag = time_ns - (gint64) time;
  if (lag > self->max_lag)
    self->max_lag = lag;

  if (!check_position (s, position, missed))
    return TRUE;
  s->have_position = TRUE;
  s->next_position = position + 1;
  if (!note_missed (self, s, missed, time, emit, emit_data, error))
    return FALSE;

  bytes = member (payload, c, F_PAYLOAD);
  memset (s->element, 0, s->payload_size);
  if (bytes && (bt_field_get_class_type (bytes) == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITH_LENGTH_FIELD
                || bt_field_get_class_type (bytes) == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITHOUT_LENGTH_FIELD))
    {
      n = MIN (bt_field_array_get_length (bytes), (guint64) s->payload_size);
      for (guint64 i = 0; i < n; i++)
        s->element[i] = (guint8) bt_field_integer_unsigned_get_value (
          bt_field_array_borrow_element_field_by_index_const (bytes, i));
      /* the payload is the target's memory: its numbers in the target's byte order */
      if (s->swap)
        _tw_sensor_layout_swap (&s->layout, s->element);
    }
  _tw_sensor_layout_decode (&s->layout, self->trace, s->element, s->payload);
  emit (time, TW_CPU_NONE, s->layout.type, s->task, s->index, s->payload,
        s->layout.payload_size, emit_data);
  if (self->element_func && s->jcs[0] > 0)
    self->element_func (s->monitor, s->sensor, position, time, self->element_data);
  s->received++;
  s->last_time = time;
  return TRUE;
}

static gboolean
handle_counts (TwLttngSensorDecoder  *self,
               const bt_message      *msg,
               const bt_field        *payload,
               const ClassMembers    *c,
               gint64                 time_ns,
               TwCtfRowFunc           emit,
               gpointer               emit_data,
               GError               **error)
{
  guint64 monitor = 0, sensor = 0, missed = 0, received = 0;
  SensorStream *s;

  if (!get_uint (payload, c, F_MONITOR, &monitor) || !get_uint (payload, c, F_SENSOR, &sensor)
      || !get_uint (payload, c, F_MISSED, &missed))
    return TRUE;
  s = lookup_stream (self, stream_key (self, msg, monitor, sensor));
  if (s == NULL)
    return TRUE;
  /* the monitor's own accounting, shown as it is (a local sensor's row shows the same);
   * the rate is the monitor's, between its last two counts */
  get_uint (payload, c, F_RECEIVED, &received);
  if (s->have_counts && time_ns > s->counts_time && received >= s->counts.received)
    s->rate = (double) (received - s->counts.received) * 1e9 / (double) (time_ns - s->counts_time);
  s->have_counts = TRUE;
  s->counts.received = received;
  s->counts.missed = missed;
  get_uint (payload, c, F_INCONSISTENT, &s->counts.inconsistent);
  get_uint (payload, c, F_NONMONOTONIC, &s->counts.nonmonotonic);
  s->counts_time = time_ns;
  s->n_counts++;
  s->generation++;
  note_counts (self);
  if (!s->decodable)
    return TRUE;
  /* misses after the last element: known only now, at the count's time */
  return note_missed (self, s, missed, (guint64) MAX (time_ns, (gint64) s->last_time), emit, emit_data, error);
}

static guint16
evaluation_type (TwLttngSensorDecoder  *self,
                 const char            *prefix,
                 const char            *evaluation,
                 const TwFieldSpec     *specs,
                 guint                  n_specs,
                 GError               **error)
{
  g_autofree char *valid = g_utf8_make_valid (evaluation[0] ? evaluation : "?", -1);
  g_autofree char *name = g_strdup_printf ("%s:%s", prefix, valid);
  gpointer found = g_hash_table_lookup (self->evaluations, name);
  guint16 type;

  if (found)
    return (guint16) (GPOINTER_TO_UINT (found) - 1);
  type = tw_trace_add_event_type (self->trace, name, "measurement", TW_EVENT_KIND_USER, specs, n_specs, error);
  if (type == TW_TYPE_NONE)
    {
      g_prefix_error (error, "%s: ", self->what);
      return TW_TYPE_NONE;
    }
  g_hash_table_insert (self->evaluations, g_steal_pointer (&name), GUINT_TO_POINTER ((guint) type + 1));
  return type;
}

static gboolean
handle_measurement (TwLttngSensorDecoder  *self,
                    const bt_message      *msg,
                    const bt_field        *payload,
                    const ClassMembers    *c,
                    gint64                 time_ns,
                    TwCtfRowFunc           emit,
                    gpointer               emit_data,
                    GError               **error)
{
  static const TwFieldSpec specs[] = {
    { "length_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "begin_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "end_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "intermediate_events", TW_FIELD_U32, TW_FIELD_FLAG_NONE },
  };
  guint16 type = evaluation_type (self, "measurement", get_string (payload, c, F_EVALUATION), specs,
                                  G_N_ELEMENTS (specs), error);
  gint64 offset = monotonic_offset (msg, time_ns);
  const char *task_id = get_string (payload, c, F_TASK_ID);
  guint64 begin = 0, end = 0, length = 0, intermediate = 0, pid = (guint64) -1;
  const TwEventType *info;
  guint32 task = TW_TASK_NONE;
  guint8 row[64];
  TwValue v;

  if (type == TW_TYPE_NONE)
    return FALSE;
  get_uint (payload, c, F_BEGIN, &begin);
  get_uint (payload, c, F_END, &end);
  get_uint (payload, c, F_LENGTH, &length);
  get_uint (payload, c, F_INTERMEDIATE, &intermediate);
  get_uint (payload, c, F_TASK_PID, &pid);
  begin = (guint64) MAX ((gint64) begin + offset, 0);
  end = (guint64) MAX ((gint64) end + offset, 0);
  if (task_id[0])
    {
      g_autofree char *id = g_utf8_make_valid (task_id, -1);
      g_autofree char *name = g_utf8_make_valid (get_string (payload, c, F_TASK_NAME), -1);
      g_autofree char *host = g_utf8_make_valid (trace_hostname (msg), -1);

      task = host_task (self, host, id, name[0] ? name : NULL, (gint64) pid);
    }
  info = tw_trace_get_event_type (self->trace, type);
  g_assert (info->payload_size <= sizeof row);
  memset (row, 0, info->payload_size);
  v = (TwValue) { .type = TW_FIELD_U64, .u = length };
  tw_event_type_set_field (info, row, 0, &v);
  v.u = begin;
  tw_event_type_set_field (info, row, 1, &v);
  v.u = end;
  tw_event_type_set_field (info, row, 2, &v);
  v = (TwValue) { .type = TW_FIELD_U32, .u = MIN (intermediate, G_MAXUINT32) };
  tw_event_type_set_field (info, row, 3, &v);
  emit (end, TW_CPU_NONE, type, task, 0, row, info->payload_size, emit_data);
  return TRUE;
}

static gboolean
handle_histogram (TwLttngSensorDecoder  *self,
                  const bt_message      *msg,
                  const bt_field        *payload,
                  const ClassMembers    *c,
                  gint64                 time_ns,
                  TwCtfRowFunc           emit,
                  gpointer               emit_data,
                  GError               **error)
{
  static const TwFieldSpec specs[] = {
    { "count", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "min", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "max", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "mean", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "low", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "width", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "bins", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "host", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  guint16 type = evaluation_type (self, "histogram", get_string (payload, c, F_EVALUATION), specs,
                                  G_N_ELEMENTS (specs), error);
  const bt_field *bins = member (payload, c, F_BINS);
  g_autoptr(GString) text = g_string_new (NULL);
  const TwEventType *info;
  guint64 count = 0, monitor = 0;
  guint8 row[128];
  TwValue v;

  if (type == TW_TYPE_NONE)
    return FALSE;
  get_uint (payload, c, F_COUNT, &count);
  if (bins && (bt_field_get_class_type (bins) == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITH_LENGTH_FIELD
               || bt_field_get_class_type (bins) == BT_FIELD_CLASS_TYPE_DYNAMIC_ARRAY_WITHOUT_LENGTH_FIELD))
    for (guint64 i = 0; i < bt_field_array_get_length (bins); i++)
      g_string_append_printf (text, "%s%" G_GUINT64_FORMAT, i ? " " : "",
                              bt_field_integer_unsigned_get_value (
                                bt_field_array_borrow_element_field_by_index_const (bins, i)));
  info = tw_trace_get_event_type (self->trace, type);
  g_assert (info->payload_size <= sizeof row);
  memset (row, 0, info->payload_size);
  v = (TwValue) { .type = TW_FIELD_U64, .u = count };
  tw_event_type_set_field (info, row, 0, &v);
  for (guint f = 1; f <= 5; f++)
    {
      v = (TwValue) { .type = TW_FIELD_F64, .f = get_real (payload, c, F_MIN + f - 1) };
      tw_event_type_set_field (info, row, f, &v);
    }
  v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (self->trace, text->str) };
  tw_event_type_set_field (info, row, 6, &v);
  {
    g_autofree char *host = g_utf8_make_valid (trace_hostname (msg), -1);

    v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (self->trace, host) };
    tw_event_type_set_field (info, row, 7, &v);
  }
  get_uint (payload, c, F_MONITOR, &monitor);
  /* arg: the monitor's pid; with the host, which monitor of which target (two targets'
   * monitors may share a pid: pid namespaces, or chance) */
  emit ((guint64) MAX (time_ns, 0), TW_CPU_NONE, type, TW_TASK_NONE, (guint32) monitor, row,
        info->payload_size, emit_data);
  return TRUE;
}

/**
 * _tw_lttng_sensor_decoder_handle:
 * @kind: _tw_lttng_sensor_event_from_name() of the event's class
 * @time_ns: the event's time from its clock's origin
 * @emit: takes the rows (0, 1 or 2 per event)
 *
 * Returns: %FALSE with @error when the store refused a type
 */
gboolean
_tw_lttng_sensor_decoder_handle (TwLttngSensorDecoder  *self,
                                 TwLttngSensorEvent     kind,
                                 const bt_message      *msg,
                                 gint64                 time_ns,
                                 TwCtfRowFunc           emit,
                                 gpointer               emit_data,
                                 GError               **error)
{
  const bt_event *event = bt_message_event_borrow_event_const (msg);
  const bt_field *payload = bt_event_borrow_payload_field_const (event);
  const ClassMembers *c = class_members (self, bt_event_borrow_class_const (event));

  switch (kind)
    {
    case TW_LTTNG_SENSOR_EVENT_SCHEMA:
      return handle_schema (self, msg, payload, c, error);
    case TW_LTTNG_SENSOR_EVENT_ELEMENT:
      return handle_element (self, msg, payload, c, time_ns, emit, emit_data, error);
    case TW_LTTNG_SENSOR_EVENT_COUNTS:
      return handle_counts (self, msg, payload, c, time_ns, emit, emit_data, error);
    case TW_LTTNG_SENSOR_EVENT_MEASUREMENT:
      return handle_measurement (self, msg, payload, c, time_ns, emit, emit_data, error);
    case TW_LTTNG_SENSOR_EVENT_HISTOGRAM:
      return handle_histogram (self, msg, payload, c, time_ns, emit, emit_data, error);
    case TW_LTTNG_SENSOR_EVENT_NONE:
    default:
      return TRUE;
    }
}

/* How much earlier than the events carrying them rows may come: the largest lag of an
 * element behind its event so far, and as much again for a poll period that grows. */
gint64
_tw_lttng_sensor_decoder_get_lag (TwLttngSensorDecoder *self)
{
  return self->max_lag > 0 ? 2 * self->max_lag + LAG_SLACK_NS : 0;
}

/**
 * _tw_lttng_sensor_decoder_set_element_func:
 *
 * @func is called for every element of a sensor that declared a stream, once decoded
 * and stored (duplicates are not), with its position in the ring and its time: the
 * stream check of the element hook of a local monitor (tw_monitor_set_element_func).
 */
void
_tw_lttng_sensor_decoder_set_element_func (TwLttngSensorDecoder     *self,
                                           TwLttngSensorElementFunc  func,
                                           gpointer                  data)
{
  self->element_func = func;
  self->element_data = data;
}

guint
_tw_lttng_sensor_decoder_get_n_sensors (TwLttngSensorDecoder *self)
{
  return self->streams->len;
}

void
_tw_lttng_sensor_decoder_get_stats (TwLttngSensorDecoder *self,
                                    guint                 index,
                                    TwLttngSensorStats   *stats)
{
  const SensorStream *s = g_ptr_array_index (self->streams, index);

  stats->name = s->name;
  stats->task = s->task_name;
  stats->sensor_name = s->sensor_name;
  stats->schema = s->schema;
  stats->pid = s->pid;
  stats->sensor = s->sensor;
  stats->big_endian = s->swap != (G_BYTE_ORDER == G_BIG_ENDIAN);
  stats->host = s->host;
  stats->period_ns = s->jcs[0];
  stats->min_distance_ns = s->jcs[1];
  stats->earliness_ns = s->jcs[2];
  stats->monitor_period_ns = s->jcs[3];
  stats->deadline_ns = s->jcs[4];
  stats->have_counts = s->have_counts;
  stats->counts = s->counts;
  stats->rate = s->rate;
  stats->generation = s->generation;
  stats->monitor = s->monitor;
  stats->received = s->received;
  stats->missed = s->missed_before + s->missed;
  stats->lost = s->lost;
  stats->duplicates = s->duplicates;
  stats->restarts = s->restarts;
  stats->n_counts = s->n_counts;
  stats->undecoded = s->undecoded;
}

#endif /* HAVE_BABELTRACE */
