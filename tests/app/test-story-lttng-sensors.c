/* test-story-lttng-sensors.c: a target's sensors in the window's Sensors tab, as its monitor counts them
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The "target" (a private LTTng session daemon and relay, tests/lib/tw-test-lttng.h) runs
 * the demo and `tracewb-cli monitor --lttng`, which misses elements of the demo's small
 * rings. The user follows the target's session in the window: the Sensors tab has a row
 * per sensor of the target, named by the sensor's task (with its host) and name as a
 * local sensor's row is, and its received, missed and torn counts are exactly what the
 * target's monitor printed for that sensor. The monitor also evaluates a metric there:
 * below the rows, the tab draws the target's own histogram of it as its snapshots
 * arrive, and at the end holds exactly the measurements and maximum the target printed.
 * Recorded (Record… of the window's session), the trace babeltrace2 prints keeps what
 * each target sensor declared and its monitor's final counts: reopened, each sensor has
 * those counts and its declared stream checked, as the recording's Sensors tab shows it.
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-recorded-sensors.h"
#include "tw-recorder.h"
#include "tw-sensors-pane.h"
#include "tw-target-histograms.h"
#include "tw-test-app.h"
#include "tw-test-lttng-target.h"
#include "tw-test-lttng-window.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS  60000
#define TIMER_US 100000
#define METRIC   "response-time:demo-rt-0@job-start,demo-rt-0@job-end"

static TwApplication *app;

typedef struct {
  TwSensorsPane *pane;
  const char    *host;
  GArray        *counted;   /* TwTestCounted: the target monitor's figures */
  TwLiveSession *session;
  double         max_rate;  /* the most the pane said of any target sensor while it ran */
  GHashTable    *counts_seen; /* the histogram's counts shown while it ran */
  TwTestEvaluated evaluated;
} Watch;

/* Every sensor of the target has its row, showing the target monitor's final counts. */
static gboolean
shows_target_counts (gpointer data)
{
  Watch *w = data;

  return tw_test_sensor_rows_show_counts (w->pane, w->host, w->counted);
}

/* The target's final histogram is shown: its count is what the target measured. */
static gboolean
shows_final_histogram (gpointer data)
{
  Watch *w = data;
  TwTargetHistograms *h = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (w->pane));

  return tw_target_histograms_get_n (h) == 1
         && tw_target_histograms_get_snapshot (h, 0, NULL)->count == w->evaluated.measurements;
}

/* While the target runs: the highest rate a target sensor's row showed. */
static gboolean
note_rates (gpointer data)
{
  Watch *w = data;

  for (guint r = 0; r < tw_sensors_pane_get_n_rows (w->pane); r++)
    if (g_str_has_prefix (tw_sensors_pane_get_text (w->pane, r, TW_SENSORS_COLUMN_TASK), w->host))
      w->max_rate = MAX (w->max_rate, g_ascii_strtod (tw_sensors_pane_get_text (w->pane, r, TW_SENSORS_COLUMN_RATE),
                                                      NULL));
  {
    TwTargetHistograms *h = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (w->pane));

    if (tw_target_histograms_get_n (h) > 0)
      g_hash_table_add (w->counts_seen, GUINT_TO_POINTER ((guint) tw_target_histograms_get_snapshot (h, 0, NULL)->count));
  }
  return G_SOURCE_CONTINUE;
}

static guint64
count_snapshot_rows (TwTrace *trace)
{
  guint16 type = tw_trace_lookup_event_type (trace, "histogram:" METRIC);
  guint64 n = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      n += event.type == type;
    }
  return n;
}

/* The histogram shown is the target's: its count and maximum as the target printed them,
 * its bins holding every measurement, and it grew while the demo ran (snapshots every
 * second: the 2 s run sends at least two before the last). */
static void
check_histogram (Watch *w)
{
  TwTargetHistograms *h = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (w->pane));
  const char *name = NULL;
  const TwHistogramSnapshot *s = tw_target_histograms_get_snapshot (h, 0, &name);
  guint64 in_bins = 0;

  g_assert_cmpstr (name, ==, METRIC);
  for (guint b = 0; b < s->n_bins; b++)
    in_bins += s->bins[b];
  g_test_message ("histogram shown: %" G_GUINT64_FORMAT " values (target: %" G_GUINT64_FORMAT
                  "), %u bins, max %.0f (target: %.0f); %u counts seen while running; “%s”",
                  s->count, w->evaluated.measurements, s->n_bins, s->max, w->evaluated.max,
                  g_hash_table_size (w->counts_seen), tw_target_histograms_get_summary (h, 0));
  g_assert_cmpuint (s->count, ==, w->evaluated.measurements);
  g_assert_cmpuint (in_bins, ==, s->count);
  g_assert_cmpfloat (s->max, ==, w->evaluated.max);
  g_assert_cmpuint (s->n_bins, >, 1);
  g_assert_cmpfloat (s->edges[0], <=, s->min);
  g_assert_cmpfloat (s->edges[s->n_bins], >=, s->max);
  /* the target sent a snapshot a second while the demo ran: several rows, the newest
   * shown (test-target-histograms checks the newest replaces the older ones). How many
   * the window drew meanwhile depends on how far behind a loaded machine keeps it. */
  g_assert_cmpuint (count_snapshot_rows (tw_live_session_get_trace (w->session)), >=, 2);
  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT " values", s->count);

    g_assert_true (g_str_has_prefix (tw_target_histograms_get_summary (h, 0), count));
  }
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (h)) && gtk_widget_get_mapped (GTK_WIDGET (h)));
}

static gboolean
recorder_idle (gpointer recorder)
{
  return !tw_recorder_get_busy (recorder);
}

/* babeltrace2 reads the recording whole, when installed. */
static void
assert_babeltrace2_prints (const char *path)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  g_autofree char *out = tw_test_run_babeltrace2 (argv, NULL);

  g_assert_true (out == NULL || out[0] != '\0');
}

static const TwRecordedSensor *
find_recorded (GPtrArray           *sensors,
               const TwTestCounted *c)
{
  for (guint i = 0; i < sensors->len; i++)
    {
      const TwRecordedSensor *s = g_ptr_array_index (sensors, i);

      if (g_strcmp0 (s->task, c->task) == 0 && g_strcmp0 (s->sensor, c->sensor) == 0)
        return s;
    }
  return NULL;
}

/* The recording's metadata holds, under the target's host, the counts its monitor
 * printed for each sensor, and a declared stream for each sensor that declared one. */
static void
check_recorded_metadata (TwTrace    *reread,
                         const char *host,
                         GArray     *counted)
{
  g_autofree char *streams = tw_trace_dup_metadata (reread, "sensor_streams");
  g_autofree char *counts = tw_trace_dup_metadata (reread, "sensor_counts");
  g_auto(GStrv) stream_entries = g_strsplit (streams ? streams : "", "; ", -1);
  g_auto(GStrv) count_entries = g_strsplit (counts ? counts : "", "; ", -1);

  g_test_message ("recorded sensor_streams: %s\nrecorded sensor_counts: %s", streams, counts);
  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      g_autofree char *expected = g_strdup_printf ("%s: %s received=%" G_GUINT64_FORMAT " missed=%" G_GUINT64_FORMAT
                                                   " torn=%" G_GUINT64_FORMAT, host, c->name, c->received,
                                                   c->missed, c->inconsistent);
      g_autofree char *declared = g_strdup_printf ("%s: %s T=", host, c->name);
      gboolean found = FALSE;

      g_assert_true (g_strv_contains ((const char *const *) count_entries, expected));
      for (guint k = 0; stream_entries[k]; k++)
        found |= g_str_has_prefix (stream_entries[k], declared);
      g_assert_cmpint (found, ==, c->declared);
    }
}

/* Record… of the window's session, as its chooser starts it once a name is given; the
 * recording reopened has the target monitor's counts and declared streams. */
static void
check_recording (TwWindow      *window,
                 TwLiveSession *session,
                 const char    *host,
                 GArray        *counted)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tw-lttng-record-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "target", NULL);
  TwRecorder *recorder = tw_window_get_recorder (window);
  g_autoptr(TwTrace) reread = NULL;
  g_autoptr(GPtrArray) sensors = NULL;

  g_assert_no_error (error);
  g_assert_true (tw_recorder_start (recorder, tw_live_session_get_trace (session), path, &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (recorder_idle, recorder, WAIT_MS));
  g_assert_cmpstr (tw_recorder_get_path (recorder), ==, path);
  assert_babeltrace2_prints (path);
  reread = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_recorded_metadata (reread, host, counted);

  sensors = tw_recorded_sensors_read (reread, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      const TwRecordedSensor *s = find_recorded (sensors, c);
      const char *detail = NULL;
      TwLiveStreamStatus status;

      g_assert_nonnull (s);
      status = tw_stream_check_get_status (&s->check, &detail);
      g_test_message ("%s recorded: received %" G_GUINT64_FORMAT " missed %" G_GUINT64_FORMAT " torn %"
                      G_GUINT64_FORMAT ", stream status %d %s", c->name, s->received, s->monitor_missed, s->torn,
                      status, detail ? detail : "");
      g_assert_true (s->have_counts);
      g_assert_cmpuint (s->received, ==, c->received);
      g_assert_cmpuint (s->monitor_missed, ==, c->missed);
      g_assert_cmpuint (s->torn, ==, c->inconsistent);
      if (!c->declared)
        g_assert_cmpint (status, ==, TW_LIVE_STREAM_NONE);
      else if (c->stream_ok)
        g_assert_cmpint (status, ==, TW_LIVE_STREAM_OK);
      else
        g_assert_cmpint (status, !=, TW_LIVE_STREAM_NONE);
    }
  tw_test_remove_tree (dir);
}

typedef struct {
  TwTestLttng *lt;
  const char  *sensor_dir;
  Watch       *w;
  gint         done;
} MonitorRun;

static gpointer
run_monitor_thread (gpointer data)
{
  MonitorRun *run = data;
  GArray *counted = tw_test_target_run_monitor (run->lt, run->sensor_dir, "2.5", METRIC, &run->w->evaluated);

  g_atomic_int_set (&run->done, 1);
  return counted;
}

static gboolean
monitor_done (gpointer data)
{
  return g_atomic_int_get (&((MonitorRun *) data)->done);
}

static void
test_sensor_rows (void)
{
  TwTestLttng lt;
  g_autofree char *sensor_dir = NULL, *url = NULL;
  g_autoptr(GArray) counted = NULL;
  TwWindow *window;
  TwLiveSession *session;
  Watch w = { 0 };
  guint64 missed_total = 0;
  guint rate_id;
  GPid demo;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  if (!tw_test_lttng_start (&lt))
    return;
  sensor_dir = tw_test_target_make_sensor_dir (&lt);
  g_assert_true (tw_test_lttng_create_session (&lt, "sensors", TIMER_US));
  /* an app registered: the session has the streams a viewer attaches to */
  g_assert_true (tw_test_lttng_emit (&lt, 0, 0));
  url = tw_test_lttng_url (&lt, "sensors");

  window = tw_application_start_lttng_live (app, (const char *[]) { url, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (window));
  session = g_object_ref (tw_window_get_live_session (window));
  g_assert_true (tw_test_wait_until (tw_test_live_all_connected, session, WAIT_MS));
  w.pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (window));
  w.session = session;
  w.host = lt.hostname;
  rate_id = g_timeout_add (100, note_rates, &w);

  /* the demo outlives the monitor: its last counts (and the rate between them) are of a
   * running demo, however late the window draws them */
  demo = tw_test_target_start_demo (&lt, sensor_dir, "4");
  /* the monitor blocks; the window keeps following meanwhile (its poll thread) */
  w.counts_seen = g_hash_table_new (NULL, NULL);
  /* the window follows while the target's monitor runs: its main loop keeps turning */
  {
    MonitorRun run = { &lt, sensor_dir, &w, 0 };
    GThread *thread = g_thread_new ("target-monitor", run_monitor_thread, &run);

    g_assert_true (tw_test_wait_until (monitor_done, &run, WAIT_MS));
    counted = g_thread_join (thread);
  }
  tw_test_target_wait (demo);
  w.counted = counted;
  g_assert_cmpuint (counted->len, >=, 5);
  g_assert_true (tw_test_wait_until (shows_target_counts, &w, WAIT_MS));
  g_assert_cmpuint (w.evaluated.measurements, >, 10);
  g_assert_true (tw_test_wait_until (shows_final_histogram, &w, WAIT_MS));
  g_source_remove (rate_id);
  /* a loaded machine may draw all of it at once, at the end: the final rows count too */
  note_rates (&w);
  check_histogram (&w);

  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      g_autofree char *task = g_strdup_printf ("%s: %s", lt.hostname, c->task);
      int row = tw_sensors_pane_find_row (w.pane, task, c->sensor);
      const char *stream;

      g_test_message ("%s: target received %" G_GUINT64_FORMAT " missed %" G_GUINT64_FORMAT
                      " torn %" G_GUINT64_FORMAT "; row %d: %s %s %s %s", c->name, c->received, c->missed,
                      c->inconsistent, row, tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_RECEIVED),
                      tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_MISSED),
                      tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_TORN),
                      tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_STATE));
      /* the sensor's own schema, and where it runs */
      g_assert_cmpstr (tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_SCHEMA), !=, "");
      /* the stream check of a real run: a sensor that declared a stream is checked against
       * it as the target's monitor checks it there (a loaded machine makes the demo's jobs
       * late, then early: its verdict either way), and every element the monitor sent
       * arrived, once, in order (its misses are the monitor's, counted above) */
      stream = tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_STREAM);
      g_test_message ("%s: declared %d, the target's monitor found it %s; Stream: %s", c->name, c->declared,
                      c->stream_ok ? "OK" : "broken", stream);
      if (!c->declared)
        g_assert_cmpstr (stream, ==, "continuous");
      else if (c->stream_ok)
        g_assert_cmpstr (stream, ==, "OK");
      else
        g_assert_true (g_str_has_prefix (stream, "broken: ") && strchr (stream, ',') == NULL);
      g_assert_nonnull (strstr (tw_sensors_pane_get_text (w.pane, row, TW_SENSORS_COLUMN_STATE), lt.hostname));
      missed_total += c->missed;
    }
  /* the run must have missed something, or equal misses prove nothing */
  g_assert_cmpuint (missed_total, >, 0);
  /* the monitor's rate while the demo ran (1 and 2 ms periods: hundreds a second), as
   * the rows showed it at some refresh */
  g_test_message ("highest rate shown: %.0f/s", w.max_rate);
  g_assert_cmpfloat (w.max_rate, >, 100);
  /* the session's own row is still there, with its connection */
  g_assert_cmpstr (tw_sensors_pane_get_text (w.pane, 0, TW_SENSORS_COLUMN_STATE), ==, "connected");
  check_recording (window, session, lt.hostname, counted);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (session);
  g_hash_table_unref (w.counts_seen);
  tw_test_lttng_stop (&lt);
  tw_test_lttng_remove_tree (sensor_dir);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/lttng-live/target-sensors", test_sensor_rows);
  return g_test_run ();
}
