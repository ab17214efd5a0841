/* test-lttng-sensors.c: sensors of a target through LTTng, decoded exactly as a local monitor counts them
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One demo run (tracewb-demo-rt with rings small enough to miss elements) is read by
 * `tracewb-cli monitor --lttng --json` on the "target": its JSON is what the monitor
 * counted at the rings. The same run's LTTng session, recorded by our private relay or
 * followed live, is decoded by the workbench: per sensor, the elements received and the
 * missed counts must be exactly the monitor's, with the sensor's own type, fields and
 * task.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-test-lttng-target.h"
#include "tw-test-ust-ctf.h"
#include "tw-test-utils.h"

#define WAIT_US  (60 * G_USEC_PER_SEC)
#define TIMER_US 100000

#define METRIC "response-time:demo-rt-0@job-start,demo-rt-0@job-end"

typedef struct {
  TwTestLttng     lt;
  char           *sensor_dir;
  TwTestEvaluated evaluated;
} Fixture;

static void
fixture_set_up (Fixture       *fx,
                gconstpointer  data)
{
  if (!tw_test_lttng_start (&fx->lt))
    return;
  fx->sensor_dir = tw_test_target_make_sensor_dir (&fx->lt);
}

static void
fixture_tear_down (Fixture       *fx,
                   gconstpointer  data)
{
  tw_test_lttng_stop (&fx->lt);
  if (fx->sensor_dir)
    tw_test_lttng_remove_tree (fx->sensor_dir);
  g_clear_pointer (&fx->sensor_dir, g_free);
}

/* The decoded rows are the sensor's own: kind, fields as the schema names them, the
 * task a local monitor gives them. */
static void
check_type_and_task (TwTrace *trace)
{
  guint16 type = tw_trace_lookup_event_type (trace, "demo-rt-0@job-end");
  const TwEventType *info;
  guint64 n = tw_trace_get_n_events (trace);

  g_assert_cmpuint (type, !=, TW_TYPE_NONE);
  info = tw_trace_get_event_type (trace, type);
  g_assert_cmpint (info->kind, ==, TW_EVENT_KIND_SENSOR);
  g_assert_cmpstr (info->family, ==, "sensor");
  g_assert_cmpint (tw_event_type_lookup_field (info, "response_ns"), >=, 0);
  g_assert_cmpint (tw_event_type_lookup_field (info, "check"), >=, 0);
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;
      const TwTask *task;
      TwValue job;

      tw_trace_get_event (trace, i, &event);
      if (event.type != type)
        continue;
      task = tw_trace_get_task (trace, event.task);
      g_assert_cmpstr (task->name, ==, "demo-rt-0");
      g_assert_true (g_str_has_prefix (task->source_id, "sensor:"));
      g_assert_true (g_str_has_suffix (task->source_id, ":demo-rt-0"));
      g_assert_true (tw_trace_get_event_field (trace, &event, "job", &job));
      return;
    }
  g_assert_not_reached ();
}

static void
compare (TwTrace *trace,
         GArray  *counted)
{
  guint64 missed_total = 0;

  g_assert_cmpuint (counted->len, >=, 5);
  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      guint64 received, missed;

      tw_test_count_sensor_rows (trace, c->name, &received, &missed);
      g_test_message ("%s: target received %" G_GUINT64_FORMAT " missed %" G_GUINT64_FORMAT
                      "; decoded %" G_GUINT64_FORMAT " missed %" G_GUINT64_FORMAT,
                      c->name, c->received, c->missed, received, missed);
      g_assert_cmpuint (received, ==, c->received);
      g_assert_cmpuint (missed, ==, c->missed);
      missed_total += c->missed;
    }
  /* the run must have missed something, or the check of the misses proves nothing */
  g_assert_cmpuint (missed_total, >, 0);
}

/* The target's measurements arrived as `measurement:<metric>` rows, and the `measured`
 * metric over them in the workbench finds what the target found. */
static void
check_measurements (Fixture *fx,
                    TwTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system ("measured:measurement:" METRIC, &error);
  g_autoptr(TwHistogram) histogram = tw_histogram_new_auto (64, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwMeasurementTable) table = NULL;
  guint16 type = tw_trace_lookup_event_type (trace, "measurement:" METRIC);

  g_assert_no_error (error);
  g_assert_cmpuint (type, !=, TW_TYPE_NONE);
  g_assert_cmpuint (fx->evaluated.measurements, >, 10);
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, histogram, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, fx->evaluated.measurements);
  g_assert_cmpfloat (tw_histogram_get_max (histogram), ==, fx->evaluated.max);
  /* the measured task is the sensors' task */
  g_assert_cmpstr (tw_trace_get_task (trace, tw_measurement_table_get_row (table, 0)->task)->name, ==,
                   "demo-rt-0");
  g_assert_cmpuint (tw_trace_lookup_event_type (trace, "histogram:" METRIC), !=, TW_TYPE_NONE);
}

static char *
find_session_folder (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      g_autofree char *ust = g_build_filename (child, "ust", NULL);
      char *found;

      if (!g_file_test (child, G_FILE_TEST_IS_DIR))
        continue;
      if (g_file_test (ust, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&child);
      if ((found = find_session_folder (child)))
        return found;
    }
  return NULL;
}

static void
test_recorded (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GArray) counted = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = NULL;
  GPid demo;

  if (fx->sensor_dir == NULL)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "sensors", TIMER_US));
  demo = tw_test_target_start_demo (&fx->lt, fx->sensor_dir, "2");
  counted = tw_test_target_run_monitor (&fx->lt, fx->sensor_dir, "2.5", METRIC, &fx->evaluated);
  tw_test_target_wait (demo);
  g_assert_true (tw_test_lttng_run (&fx->lt, "stop", "sensors", NULL));
  g_assert_true (tw_test_lttng_run (&fx->lt, "destroy", "sensors", NULL));

  folder = find_session_folder (fx->lt.output);
  g_assert_nonnull (folder);
  trace = tw_reader_registry_load_file (folder, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_type_and_task (trace);
  compare (trace, counted);
  check_measurements (fx, trace);
}

static gboolean
decoded_all (TwTrace *trace,
             GArray  *counted)
{
  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      guint64 received, missed;

      tw_test_count_sensor_rows (trace, c->name, &received, &missed);
      if (received < c->received || missed < c->missed)
        return FALSE;
    }
  return TRUE;
}

static void
test_live (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(GArray) counted = NULL;
  g_autoptr(TwMonitor) monitor = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  TwLiveSource *source;
  gint64 end;
  GPid demo;

  if (fx->sensor_dir == NULL)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "sensors", TIMER_US));
  /* an app of the user registered: the session has the streams a viewer attaches to */
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  url = tw_test_lttng_url (&fx->lt, "sensors");
  source = tw_live_lttng_new (url, &error);
  g_assert_no_error (error);
  monitor = tw_monitor_new (NULL);
  tw_monitor_set_watch_sensors (monitor, FALSE);
  g_assert_true (tw_monitor_add_source (monitor, source, &error));
  g_assert_no_error (error);
  end = g_get_monotonic_time () + WAIT_US;
  while (g_get_monotonic_time () < end)
    {
      TwMonitorSourceInfo info;

      tw_monitor_poll (monitor);
      g_assert_true (tw_monitor_get_source_info (monitor, 0, &info));
      if (info.connection == TW_LIVE_CONNECTION_CONNECTED)
        break;
      g_usleep (10000);
    }

  demo = tw_test_target_start_demo (&fx->lt, fx->sensor_dir, "2");
  counted = tw_test_target_run_monitor (&fx->lt, fx->sensor_dir, "2.5", NULL, NULL);
  tw_test_target_wait (demo);
  end = g_get_monotonic_time () + WAIT_US;
  while (g_get_monotonic_time () < end && !decoded_all (tw_monitor_get_trace (monitor), counted))
    {
      tw_monitor_poll (monitor);
      g_usleep (20000);
    }
  tw_monitor_stop (monitor);
  check_type_and_task (tw_monitor_get_trace (monitor));
  compare (tw_monitor_get_trace (monitor), counted);
}

/* `tracewb-cli monitor --lttng-live URL --json` on the desktop lists the target's sensors
 * as it lists local ones (kind `sensor`), with the target's host and the counts its
 * monitor printed there. */
static void
test_cli (Fixture       *fx,
          gconstpointer  data)
{
  g_autoptr(GArray) counted = NULL;
  g_autoptr(GSubprocess) cli = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL, *out = NULL, *err = NULL;
  JsonArray *sources;
  guint matched = 0;
  GPid demo;

  if (fx->sensor_dir == NULL)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "sensors", TIMER_US));
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  url = tw_test_lttng_url (&fx->lt, "sensors");
  /* long enough for the target's last counts, sent when its monitor stops (at 2.5 s) */
  cli = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                          g_getenv ("TW_CLI"), "monitor", "--lttng-live", url, "--duration", "9",
                          "--json", NULL);
  g_assert_no_error (error);
  g_usleep (G_USEC_PER_SEC + G_USEC_PER_SEC / 2);   /* attached before the target starts */
  demo = tw_test_target_start_demo (&fx->lt, fx->sensor_dir, "2");
  counted = tw_test_target_run_monitor (&fx->lt, fx->sensor_dir, "2.5", NULL, NULL);
  tw_test_target_wait (demo);
  g_assert_true (g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, &err, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  sources = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *o = json_array_get_object_element (sources, i);

      if (g_strcmp0 (json_object_get_string_member (o, "kind"), "sensor") != 0)
        continue;
      g_assert_cmpstr (json_object_get_string_member (o, "host"), ==, fx->lt.hostname);
      g_assert_true (json_object_get_boolean_member (o, "counted_at_target"));
      for (guint k = 0; k < counted->len; k++)
        {
          const TwTestCounted *c = &g_array_index (counted, TwTestCounted, k);

          if (g_strcmp0 (c->name, json_object_get_string_member (o, "name")) != 0)
            continue;
          g_test_message ("%s: target received %" G_GUINT64_FORMAT " missed %" G_GUINT64_FORMAT
                          "; desktop CLI says %" G_GINT64_FORMAT " / %" G_GINT64_FORMAT, c->name,
                          c->received, c->missed, json_object_get_int_member (o, "received"),
                          json_object_get_int_member (o, "missed"));
          g_assert_cmpstr (json_object_get_string_member (o, "task"), ==, c->task);
          g_assert_cmpstr (json_object_get_string_member (o, "sensor"), ==, c->sensor);
          g_assert_cmpint (json_object_get_int_member (o, "received"), ==, c->received);
          g_assert_cmpint (json_object_get_int_member (o, "missed"), ==, c->missed);
          g_assert_cmpint (json_object_get_int_member (o, "inconsistent"), ==, c->inconsistent);
          /* all the elements the target read crossed: LTTng dropped none */
          g_assert_cmpint (json_object_get_int_member (o, "decoded"), ==, c->received);
          g_assert_cmpint (json_object_get_int_member (o, "lttng_lost"), ==, 0);
          /* the stream the sensor declared is checked here as the target checked it */
          g_test_message ("%s: declared %d; stream_ok at the target %d, here %s", c->name, c->declared,
                          c->stream_ok, json_object_get_null_member (o, "stream_ok") ? "null"
                          : json_object_get_boolean_member (o, "stream_ok") ? "true" : "false");
          if (c->declared)
            g_assert_cmpint (json_object_get_boolean_member (o, "stream_ok"), ==, c->stream_ok);
          else
            g_assert_true (json_object_get_null_member (o, "stream_ok"));
          matched++;
        }
    }
  g_assert_cmpuint (counted->len, >=, 5);
  g_assert_cmpuint (matched, ==, counted->len);
}

/* ---------------------------------------------------------------- byte order */

/* A target of the other byte order, made by hand: a CTF trace whose metadata says
 * @big_endian, holding a monitor's schema event (with its byte order) and element
 * events whose payloads are that machine's memory, as tracewb-ust.so writes them. */

#define BO_SCHEMA   "u64 seq; i32 delta; u16 pair[2]; f64 value; f32 ratio; i16 neg; u8 flag; char tag[6]"
#define BO_ELEMENTS 3

/* Element @k's values, the same whatever the byte order. */
static void
bo_values (guint    k,
           guint64 *seq,
           gint32  *delta,
           guint16  pair[2],
           double  *value,
           float   *ratio,
           gint16  *neg)
{
  *seq = G_GUINT64_CONSTANT (0x0102030405060708) + k;
  *delta = -123456789 + (gint32) k;
  pair[0] = 0xBEEF;
  pair[1] = (guint16) (0x0100 + k);
  *value = 1234.5625 * (k + 1);
  *ratio = 0.75f + (float) k;
  *neg = (gint16) (-300 - (gint) k);
}

/* One element's payload as the target's memory holds it. */
static void
bo_payload (TwTestCtf             *w,
            const TwSensorSchema *schema,
            guint                 k)
{
  gsize size = tw_sensor_schema_get_size (schema);
  guint8 *bytes = g_malloc0 (size);
  TwTestCtf field = { w->big, g_string_new (NULL) };
  guint64 seq, d_bits;
  gint32 delta;
  guint16 pair[2];
  double value;
  float ratio;
  gint16 neg;
  guint32 r_bits;

  bo_values (k, &seq, &delta, pair, &value, &ratio, &neg);
  memcpy (&d_bits, &value, 8);
  memcpy (&r_bits, &ratio, 4);
  for (gsize i = 0; i < tw_sensor_schema_get_n_fields (schema); i++)
    {
      const TwSensorField *f = tw_sensor_schema_get_field (schema, i);

      g_string_set_size (field.out, 0);
      if (strcmp (f->name, "seq") == 0)
        tw_test_ctf_int (&field, seq, 8);
      else if (strcmp (f->name, "delta") == 0)
        tw_test_ctf_int (&field, (guint32) delta, 4);
      else if (strcmp (f->name, "pair") == 0)
        tw_test_ctf_int (&field, pair[0], 2), tw_test_ctf_int (&field, pair[1], 2);
      else if (strcmp (f->name, "value") == 0)
        tw_test_ctf_int (&field, d_bits, 8);
      else if (strcmp (f->name, "ratio") == 0)
        tw_test_ctf_int (&field, r_bits, 4);
      else if (strcmp (f->name, "neg") == 0)
        tw_test_ctf_int (&field, (guint16) neg, 2);
      else if (strcmp (f->name, "flag") == 0)
        tw_test_ctf_int (&field, 7, 1);
      else if (strcmp (f->name, "tag") == 0)
        g_string_append_len (field.out, "probe", 6);
      g_assert_cmpuint (field.out->len, ==, f->size);
      memcpy (bytes + f->offset, field.out->str, f->size);
    }
  tw_test_ctf_int (w, size, 2);
  g_string_append_len (w->out, (const char *) bytes, (gssize) size);
  g_string_free (field.out, TRUE);
  g_free (bytes);
}

/* The schema event of monitor 4242's sensor 0, `probe-task@sample` of pid 777. */
static void
bo_schema (TwTestCtf   *w,
           const char *schema,
           gsize       payload_size)
{
  tw_test_ctf_int (w, 0, 4);
  tw_test_ctf_int (w, 1000000, 8);
  tw_test_ctf_int (w, 4242, 4);
  tw_test_ctf_int (w, 0, 4);
  tw_test_ctf_int (w, 777, 8);
  tw_test_ctf_str (w, "probe-task");
  tw_test_ctf_str (w, "sample");
  tw_test_ctf_str (w, schema);
  tw_test_ctf_int (w, 8 + payload_size, 4);
  tw_test_ctf_int (w, payload_size, 4);
  tw_test_ctf_int (w, w->big, 1);
}

/* The head of an element event of monitor 4242's sensor 0 at @position; its payload
 * follows. */
static void
bo_element (TwTestCtf *w,
            guint64   time,
            guint64   position,
            guint64   missed,
            guint64   timestamp)
{
  tw_test_ctf_int (w, 1, 4);
  tw_test_ctf_int (w, time, 8);
  tw_test_ctf_int (w, 4242, 4);
  tw_test_ctf_int (w, 0, 4);
  tw_test_ctf_int (w, position, 8);
  tw_test_ctf_int (w, missed, 8);
  tw_test_ctf_int (w, timestamp, 8);
}

/* Closes the packet begun at @size_at and writes the trace into a new folder. */
static char *
bo_save (TwTestCtf *w,
         gsize     size_at)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tw-lttng-sensors-XXXXXX", &error);

  g_assert_no_error (error);
  tw_test_ctf_save_to (w, size_at, dir, FALSE, "");
  return dir;
}

static char *
bo_write_trace (gboolean big)
{
  TwSensorSchema *schema = tw_sensor_schema_parse (BO_SCHEMA, NULL, 0);
  TwTestCtf w = { big, g_string_new (NULL) };
  gsize size_at = tw_test_ctf_begin_packet (&w);
  char *dir;

  g_assert_nonnull (schema);
  /* the schema, then the elements 1 ms apart */
  bo_schema (&w, BO_SCHEMA, tw_sensor_schema_get_size (schema));
  for (guint k = 0; k < BO_ELEMENTS; k++)
    {
      bo_element (&w, 2000000 + k * 1000000, k, 0, 1500000 + k * 1000000);
      bo_payload (&w, schema, k);
    }
  dir = bo_save (&w, size_at);
  g_string_free (w.out, TRUE);
  tw_sensor_schema_free (schema);
  return dir;
}

static void
test_byte_order (gconstpointer data)
{
  gboolean big = GPOINTER_TO_INT (data);
  g_autofree char *dir = bo_write_trace (big);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);
  guint16 type;
  guint k = 0;

  g_assert_no_error (error);
  type = tw_trace_lookup_event_type (trace, "probe-task@sample");
  g_assert_cmpuint (type, !=, TW_TYPE_NONE);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      guint64 seq;
      gint32 delta;
      guint16 pair[2];
      double value;
      float ratio;
      gint16 neg;
      TwValue v;

      tw_trace_get_event (trace, i, &event);
      if (event.type != type)
        continue;
      bo_values (k, &seq, &delta, pair, &value, &ratio, &neg);
      /* at the element's own time (its timestamp on the clock of the event that carried it) */
      g_assert_cmpuint (event.time, ==, 1500000 + k * 1000000);
      g_assert_true (tw_trace_get_event_field (trace, &event, "seq", &v));
      g_assert_cmphex (v.u, ==, seq);
      g_assert_true (tw_trace_get_event_field (trace, &event, "delta", &v));
      g_assert_cmpint (v.i, ==, delta);
      g_assert_true (tw_trace_get_event_field (trace, &event, "pair[0]", &v));
      g_assert_cmphex (v.u, ==, pair[0]);
      g_assert_true (tw_trace_get_event_field (trace, &event, "pair[1]", &v));
      g_assert_cmphex (v.u, ==, pair[1]);
      g_assert_true (tw_trace_get_event_field (trace, &event, "value", &v));
      g_assert_cmpfloat (v.f, ==, value);
      g_assert_true (tw_trace_get_event_field (trace, &event, "ratio", &v));
      g_assert_cmpfloat (v.f, ==, ratio);
      g_assert_true (tw_trace_get_event_field (trace, &event, "neg", &v));
      g_assert_cmpint (v.i, ==, neg);
      g_assert_true (tw_trace_get_event_field (trace, &event, "flag", &v));
      g_assert_cmpuint (v.u, ==, 7);
      g_assert_true (tw_trace_get_event_field (trace, &event, "tag", &v));
      g_assert_cmpstr (tw_trace_get_string (trace, v.str), ==, "probe");
      k++;
    }
  g_assert_cmpuint (k, ==, BO_ELEMENTS);
  tw_test_lttng_remove_tree (dir);
}

/* ---------------------------------------------------------------- stream check */

/* A monitor's element events as they arrive at the workbench, made by hand: positions
 * 0–9; 15–19 with the monitor's missed count at 2 (3 more never arrived); 19 again;
 * then a restarted monitor of the same pid, positions from 0 with 1 missed. */
static char *
sc_write_trace (void)
{
  static const struct { guint64 first, n, missed; } runs[] = {
    { 0, 10, 0 }, { 15, 5, 2 }, { 19, 1, 2 }, { 0, 5, 1 },
  };
  TwTestCtf w = { FALSE, g_string_new (NULL) };
  gsize size_at = tw_test_ctf_begin_packet (&w);
  guint64 time = 2000000;
  char *dir;

  bo_schema (&w, "u64 seq", 8);
  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    for (guint64 k = 0; k < runs[r].n; k++, time += 1000)
      {
        bo_element (&w, time, runs[r].first + k, runs[r].missed, time - 500);
        tw_test_ctf_int (&w, 8, 2);
        tw_test_ctf_int (&w, runs[r].first + k, 8);
      }
  dir = bo_save (&w, size_at);
  g_string_free (w.out, TRUE);
  return dir;
}

/* The stream check as the store shows it: each element once (the duplicate not
 * again), and the misses of both streams as loss rows, nothing negative for the
 * position that went back. (The Sensors tab's counts of it: test-story-target-checks.) */
static void
test_stream_check (void)
{
  g_autofree char *dir = sc_write_trace ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);
  guint64 received, missed;

  g_assert_no_error (error);
  tw_test_count_sensor_rows (trace, "probe-task@sample", &received, &missed);
  g_assert_cmpuint (received, ==, 10 + 5 + 5);
  g_assert_cmpuint (missed, ==, 2 + 1);
  tw_test_lttng_remove_tree (dir);
}

/* ---------------------------------------------------------------- declared stream */

/* A monitor's schema event with the stream its sensor declared (T 10 ms, D 1 ms, τ 2 ms,
 * T_M 5 ms, d 4 ms) after the older fields, as tracewb-ust.so writes it now; or without
 * them (@declared FALSE), as monitors before the fields wrote it. Then 4 elements. */
static char *
jcs_write_trace (gboolean declared)
{
  static const double jcs[5] = { 10e6, 1e6, 2e6, 5e6, 4e6 };
  TwTestCtf w = { FALSE, g_string_new (NULL) };
  gsize size_at = tw_test_ctf_begin_packet (&w);
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tw-lttng-sensors-XXXXXX", &error);

  g_assert_no_error (error);
  bo_schema (&w, "u64 seq", 8);
  for (guint i = 0; declared && i < G_N_ELEMENTS (jcs); i++)
    tw_test_ctf_double (&w, jcs[i]);
  for (guint k = 0; k < 4; k++)
    {
      bo_element (&w, 2000000 + k * 1000000, k, 0, 1500000 + k * 1000000);
      tw_test_ctf_int (&w, 8, 2);
      tw_test_ctf_int (&w, k, 8);
    }
  tw_test_ctf_save_to (&w, size_at, dir, declared, "");
  g_string_free (w.out, TRUE);
  return dir;
}

/* The stream a target's sensor declared is decoded from its schema event and kept with
 * the recording; a recording of a monitor that did not send it still decodes, its
 * sensor undeclared. (The live check against it: test-story-target-checks.) */
static void
test_declared_stream (gconstpointer data)
{
  gboolean declared = GPOINTER_TO_INT (data);
  g_autofree char *dir = jcs_write_trace (declared);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);
  g_autofree char *streams = NULL;
  guint64 received, missed;

  g_assert_no_error (error);
  tw_test_count_sensor_rows (trace, "probe-task@sample", &received, &missed);
  g_assert_cmpuint (received, ==, 4);
  streams = tw_trace_dup_metadata (trace, "sensor_streams");
  if (declared)
    g_assert_cmpstr (streams, ==, "probe-task@sample T=10000000 D=1000000 tau=2000000 T_M=5000000 d=4000000");
  else
    g_assert_null (streams);
  tw_test_lttng_remove_tree (dir);
}

/* ---------------------------------------------------------------- several targets */

/* A session folder of two targets, tA and tB, as a relay records it: each target's
 * monitor (pid 4242 on both: pid namespaces) sends sensor `probe-task@sample` of its
 * program, pid 777 on both; tA 3 elements, tB 5. */
static char *
mt_write_folder (void)
{
  static const struct { const char *host; guint n; } targets[] = { { "tA", 3 }, { "tB", 5 } };
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp ("tw-lttng-targets-XXXXXX", &error);

  g_assert_no_error (error);
  for (guint t = 0; t < G_N_ELEMENTS (targets); t++)
    {
      g_autofree char *dir = g_build_filename (folder, targets[t].host, "ust", NULL);
      g_autofree char *env = g_strdup_printf ("env { hostname = \"%s\"; };\n", targets[t].host);
      TwTestCtf w = { FALSE, g_string_new (NULL) };
      gsize size_at = tw_test_ctf_begin_packet (&w);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      bo_schema (&w, "u64 seq", 8);
      for (guint k = 0; k < targets[t].n; k++)
        {
          bo_element (&w, 2000000 + k * 1000000 + t * 1000, k, 0, 1500000 + k * 1000000 + t * 1000);
          tw_test_ctf_int (&w, 8, 2);
          tw_test_ctf_int (&w, k, 8);
        }
      tw_test_ctf_save_to (&w, size_at, dir, FALSE, env);
      g_string_free (w.out, TRUE);
    }
  return folder;
}

/* Opened as one trace, the two targets' sensor tasks of one pid and name are two tasks,
 * each with its host and its own elements, as two hosts' kernel tids are two tasks. */
static void
test_targets_same_pid (void)
{
  g_autofree char *folder = mt_write_folder ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (folder, "ctf", NULL, NULL, NULL, &error);
  guint16 type;
  guint32 tasks[2] = { TW_TASK_NONE, TW_TASK_NONE };
  guint64 n[2] = { 0, 0 };

  g_assert_no_error (error);
  type = tw_trace_lookup_event_type (trace, "probe-task@sample");
  g_assert_cmpuint (type, !=, TW_TYPE_NONE);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const TwTask *task;
      guint h;

      tw_trace_get_event (trace, i, &event);
      if (event.type != type)
        continue;
      task = tw_trace_get_task (trace, event.task);
      g_assert_cmpstr (task->name, ==, "probe-task");
      g_assert_cmpint (task->pid, ==, 777);
      g_assert_nonnull (task->host);
      h = strcmp (task->host, "tA") == 0 ? 0 : 1;
      g_assert_cmpstr (task->host, ==, h ? "tB" : "tA");
      g_assert_true (tasks[h] == TW_TASK_NONE || tasks[h] == event.task);
      tasks[h] = event.task;
      n[h]++;
    }
  g_assert_cmpuint (tasks[0], !=, tasks[1]);
  g_assert_cmpuint (n[0], ==, 3);
  g_assert_cmpuint (n[1], ==, 5);
  g_assert_cmpuint (tw_trace_get_n_hosts (trace), ==, 2);
  tw_test_lttng_remove_tree (folder);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/tw/ingest/lttng-sensors/recorded", Fixture, NULL, fixture_set_up, test_recorded,
              fixture_tear_down);
  g_test_add ("/tw/ingest/lttng-sensors/live", Fixture, NULL, fixture_set_up, test_live,
              fixture_tear_down);
  g_test_add ("/tw/ingest/lttng-sensors/cli", Fixture, NULL, fixture_set_up, test_cli,
              fixture_tear_down);
  /* no LTTng needed: hand-made traces of either byte order, read by babeltrace2 */
  g_test_add_data_func ("/tw/ingest/lttng-sensors/big-endian-target", GINT_TO_POINTER (TRUE), test_byte_order);
  g_test_add_data_func ("/tw/ingest/lttng-sensors/little-endian-target", GINT_TO_POINTER (FALSE), test_byte_order);
  g_test_add_func ("/tw/ingest/lttng-sensors/stream-check", test_stream_check);
  g_test_add_func ("/tw/ingest/lttng-sensors/targets-same-pid", test_targets_same_pid);
  g_test_add_data_func ("/tw/ingest/lttng-sensors/declared-stream", GINT_TO_POINTER (TRUE), test_declared_stream);
  g_test_add_data_func ("/tw/ingest/lttng-sensors/declared-before-the-fields", GINT_TO_POINTER (FALSE),
                        test_declared_stream);
  return g_test_run ();
}
