/* tw-recorded-sensors.c: the sensors of a recording, their counts and declared streams checked
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A recording keeps each sensor's elements as rows of its type `<task>@<sensor>` (kind
 * sensor) on its task, from a target's monitor the elements it missed as loss rows
 * `<task>@<sensor>:missed` on that task (ingest/tw-sensor-layout-private.h), and what
 * each sensor declared and its monitor's last counts as metadata (`sensor_streams`,
 * `sensor_counts`: ingest/tw-lttng-sensor-decoder.c for a target's monitor,
 * ingest/tw-monitor.c for a local one). One pass over the rows in time order counts them
 * and runs the declared-stream check a live session runs (tw-stream-check.c) over the
 * elements. A recording keeps no ring positions: the elements are numbered in order, and
 * a loss row moves the number on by what it counts, so the check starts over there as it
 * does live at a gap. A local recording has no loss rows (its monitor's count in the
 * metadata says how many it missed, not where): there the check runs on across a gap.
 */
#include "config.h"

#include <string.h>

#include "tw-live-session-private.h"
#include "tw-recorded-sensors.h"

/* The check counts as cancelled between blocks of this many rows. */
#define BLOCK 65536

typedef struct {
  guint64 position;   /* the next element's number */
} Progress;

static void
recorded_sensor_free (gpointer data)
{
  TwRecordedSensor *s = data;

  tw_stream_check_clear (&s->check);
  g_free (s->host);
  g_free (s->task);
  g_free (s->sensor);
  g_free (s->fields);
  g_free (s);
}

/* A sensor type's name without the `#N` a second sensor of the same name gets. */
static char *
base_name (const char *type_name)
{
  const char *hash = strrchr (type_name, '#');

  if (hash && hash[1] && strspn (hash + 1, "0123456789") == strlen (hash + 1))
    return g_strndup (type_name, (gsize) (hash - type_name));
  return g_strdup (type_name);
}

/**
 * tw_recorded_sensors_present:
 *
 * Returns: whether @trace holds sensor elements or declares sensor streams
 */
gboolean
tw_recorded_sensors_present (TwTrace *trace)
{
  g_autofree char *declared = tw_trace_dup_metadata (trace, "sensor_streams");
  guint n = tw_trace_get_n_event_types (trace);

  if (declared && *declared)
    return TRUE;
  for (guint i = 0; i < n; i++)
    if (tw_trace_get_event_type (trace, (guint16) i)->kind == TW_EVENT_KIND_SENSOR)
      return TRUE;
  return FALSE;
}

/* The entry of a metadata list ("HOST: NAME k=v …; …") for @name on @host (any host when
 * NULL: a recording of one host names none on its tasks), from its first " k=v". */
static const char *
find_entry (GStrv       entries,
            const char *host,
            const char *name)
{
  for (guint i = 0; entries && entries[i]; i++)
    {
      const char *e = entries[i], *colon = strstr (e, ": ");
      const char *at = strchr (e, '@');
      const char *n = e;
      gsize len;

      /* a host is before ": " and has no '@' */
      if (colon && (at == NULL || colon < at))
        n = colon + 2;
      len = strlen (name);
      if (strncmp (n, name, len) != 0 || n[len] != ' ')
        continue;
      if (n != e && host && (strlen (host) != (gsize) (colon - e) || strncmp (e, host, (gsize) (colon - e)) != 0))
        continue;
      return n + len;
    }
  return NULL;
}

static double
value_of (const char *entry,
          const char *key)
{
  g_autofree char *needle = g_strdup_printf (" %s=", key);
  const char *at = strstr (entry, needle);

  return at ? g_ascii_strtod (at + strlen (needle), NULL) : 0;
}

/* What @s declared and its monitor counted, from the recording's metadata. */
static void
read_metadata (TwRecordedSensor *s,
               const char       *name,
               GStrv             streams,
               GStrv             counts)
{
  const char *entry = find_entry (streams, s->host, name);

  if (entry)
    s->declared = (TwStreamDeclaration) { value_of (entry, "T"), value_of (entry, "D"), value_of (entry, "tau"),
                                          value_of (entry, "T_M"), value_of (entry, "d") };
  entry = find_entry (counts, s->host, name);
  if (entry)
    {
      s->have_counts = TRUE;
      s->received = (guint64) value_of (entry, "received");
      s->monitor_missed = (guint64) value_of (entry, "missed");
      s->torn = (guint64) value_of (entry, "torn");
    }
  /* a stream declared without a monitor period is checked as a live session checks it:
   * T_M and d its poll period */
  tw_stream_check_init (&s->check, &s->declared, POLL_INTERVAL_MS * G_GINT64_CONSTANT (1000000));
}

static char *
describe_fields (const TwEventType *type)
{
  GString *fields = g_string_new (NULL);

  for (guint i = 0; i < type->n_fields; i++)
    g_string_append_printf (fields, "%s%s", i ? ", " : "", type->fields[i].name);
  return g_string_free (fields, FALSE);
}

typedef struct {
  TwTrace    *trace;
  GPtrArray  *sensors;     /* TwRecordedSensor */
  GArray     *progress;    /* Progress, beside @sensors */
  GHashTable *by_key;      /* sensor type << 32 | task → index + 1 */
  guint16    *sensor_of;   /* type → the sensor type it is or counts the losses of, TW_TYPE_NONE */
  GStrv       streams;
  GStrv       counts;
} Scan;

/* Which types are sensors' elements or losses. */
static void
scan_types (Scan *scan)
{
  guint n = tw_trace_get_n_event_types (scan->trace);

  scan->sensor_of = g_new (guint16, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    scan->sensor_of[i] = TW_TYPE_NONE;
  for (guint i = 0; i < n; i++)
    {
      const TwEventType *type = tw_trace_get_event_type (scan->trace, (guint16) i);
      g_autofree char *base = NULL, *missed = NULL;
      guint16 lost;

      if (type->kind != TW_EVENT_KIND_SENSOR)
        continue;
      scan->sensor_of[i] = (guint16) i;
      base = base_name (type->name);
      missed = g_strdup_printf ("%s:missed", base);
      lost = tw_trace_lookup_event_type (scan->trace, missed);
      if (lost != TW_TYPE_NONE && lost < n)
        scan->sensor_of[lost] = (guint16) i;
    }
}

/* The sensor of @type (a sensor type) on @task, made at its first row. */
static guint
sensor_index (Scan    *scan,
              guint16  type,
              guint32  task)
{
  guint64 key = (guint64) type << 32 | task;
  gpointer found = g_hash_table_lookup (scan->by_key, &key);
  const TwEventType *info;
  const TwTask *t;
  TwRecordedSensor *s;
  g_autofree char *base = NULL;
  const char *at;
  Progress progress = { 0 };

  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  info = tw_trace_get_event_type (scan->trace, type);
  t = tw_trace_get_task (scan->trace, task);
  base = base_name (info->name);
  at = strrchr (base, '@');
  s = g_new0 (TwRecordedSensor, 1);
  s->host = t && t->host ? g_strdup (t->host) : NULL;
  s->task = g_strdup (t && t->name ? t->name : "?");
  s->sensor = g_strdup (at ? at + 1 : base);
  s->fields = describe_fields (info);
  read_metadata (s, base, scan->streams, scan->counts);
  g_ptr_array_add (scan->sensors, s);
  g_array_append_val (scan->progress, progress);
  g_hash_table_insert (scan->by_key, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (scan->sensors->len));
  return scan->sensors->len - 1;
}

static void
scan_row (Scan          *scan,
          const TwEvent *event)
{
  guint16 sensor_type = scan->sensor_of[event->type];
  TwRecordedSensor *s;
  Progress *p;
  guint i;

  if (sensor_type == TW_TYPE_NONE)
    return;
  i = sensor_index (scan, sensor_type, event->task);
  s = g_ptr_array_index (scan->sensors, i);
  p = &g_array_index (scan->progress, Progress, i);
  if (event->type != sensor_type)
    {
      /* a loss row: its arg counts the elements missed before the next one */
      s->missed += event->arg;
      p->position += event->arg;
      return;
    }
  if (s->elements++ == 0)
    s->first_time = event->time;
  s->last_time = event->time;
  tw_stream_check_add (&s->check, p->position++, event->time);
}

static void
scan_clear (Scan *scan)
{
  g_clear_pointer (&scan->sensors, g_ptr_array_unref);
  g_clear_pointer (&scan->progress, g_array_unref);
  g_clear_pointer (&scan->by_key, g_hash_table_unref);
  g_clear_pointer (&scan->sensor_of, g_free);
  g_clear_pointer (&scan->streams, g_strfreev);
  g_clear_pointer (&scan->counts, g_strfreev);
}

static GStrv
split_metadata (TwTrace    *trace,
                const char *key)
{
  g_autofree char *value = tw_trace_dup_metadata (trace, key);

  return value && *value ? g_strsplit (value, "; ", -1) : NULL;
}

/**
 * tw_recorded_sensors_read:
 * @trace: a sealed trace
 *
 * Counts each sensor's rows and checks its elements against the stream it declared, in
 * one pass over @trace (seconds for a recording of 10⁸ rows: call it in a thread).
 *
 * Returns: (transfer full) (element-type TwRecordedSensor): the sensors in the order of
 *   their first rows, %NULL when cancelled
 */
GPtrArray *
tw_recorded_sensors_read (TwTrace       *trace,
                          GCancellable  *cancellable,
                          GError       **error)
{
  Scan scan = { trace };
  guint64 n = tw_trace_get_n_events (trace);
  GPtrArray *sensors;

  scan.sensors = g_ptr_array_new_with_free_func (recorded_sensor_free);
  scan.progress = g_array_new (FALSE, FALSE, sizeof (Progress));
  scan.by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  scan.streams = split_metadata (trace, "sensor_streams");
  scan.counts = split_metadata (trace, "sensor_counts");
  scan_types (&scan);
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;

      if (i % BLOCK == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          scan_clear (&scan);
          return NULL;
        }
      tw_trace_get_event (trace, i, &event);
      scan_row (&scan, &event);
    }
  sensors = g_steal_pointer (&scan.sensors);
  scan_clear (&scan);
  /* a local monitor stores the elements it received and counts the others, with no loss
   * rows: its count says what was missed (a target's monitor has loss rows for each) */
  for (guint i = 0; i < sensors->len; i++)
    {
      TwRecordedSensor *s = g_ptr_array_index (sensors, i);

      s->missed = MAX (s->missed, s->monitor_missed);
    }
  return sensors;
}

static void
read_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *sensors = tw_recorded_sensors_read (task_data, cancellable, &error);

  if (sensors == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, sensors, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * tw_recorded_sensors_read_async:
 *
 * tw_recorded_sensors_read() in a thread.
 */
void
tw_recorded_sensors_read_async (TwTrace             *trace,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, data);

  g_task_set_source_tag (task, tw_recorded_sensors_read_async);
  g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
  g_task_run_in_thread (task, read_thread);
}

/**
 * tw_recorded_sensors_read_finish:
 *
 * Returns: (transfer full) (element-type TwRecordedSensor): as tw_recorded_sensors_read()
 */
GPtrArray *
tw_recorded_sensors_read_finish (GAsyncResult  *result,
                                 GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
