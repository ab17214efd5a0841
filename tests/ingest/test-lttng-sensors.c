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

#include "tw-test-lttng-target.h"
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

/* What the workbench holds of sensor @name: its rows, and the misses its loss rows count. */
static void
count_decoded (TwTrace    *trace,
               const char *name,
               guint64    *received,
               guint64    *missed)
{
  g_autofree char *missed_name = g_strdup_printf ("%s:missed", name);
  guint16 type = tw_trace_lookup_event_type (trace, name);
  guint16 lost = tw_trace_lookup_event_type (trace, missed_name);
  guint64 n = tw_trace_get_n_events (trace);

  *received = *missed = 0;
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      if (event.type == type)
        ++*received;
      else if (event.type == lost && lost != TW_TYPE_NONE)
        *missed += event.arg;
    }
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

      count_decoded (trace, c->name, &received, &missed);
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

      count_decoded (trace, c->name, &received, &missed);
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add ("/tw/ingest/lttng-sensors/recorded", Fixture, NULL, fixture_set_up, test_recorded,
              fixture_tear_down);
  g_test_add ("/tw/ingest/lttng-sensors/live", Fixture, NULL, fixture_set_up, test_live,
              fixture_tear_down);
  return g_test_run ();
}
