/* test-story-lttng-done.c: issue 15's story end to end: two targets, their sensors and an automaton, one window
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What docs/remote.md ("Walk-through: two targets, sensors and an automaton") has a user
 * do. Two targets in namespaces of their own (tA and tB, tests/lib/tw-test-lttng-lab.h)
 * behind one relay, each with a live session. On each target, tracewb-demo-rt writes its
 * sensors and `tracewb-cli monitor --lttng --automaton data/automata/demo-rt-job.json`
 * reads them there, evaluates the exported automaton and sends elements, counts,
 * measurements and histogram snapshots through LTTng. The user follows both sessions in
 * one window (`tracewb --live URL_A --live URL_B`) and sees:
 *   - task rows of both hosts on the timeline;
 *   - the Sensors tab's rows of both hosts, with exactly the counts each target's monitor
 *     printed (`--json`), and the session rows' missed being LTTng's own losses only;
 *   - the automaton's histogram from each target, titled by its host, holding the
 *     measurements that target's monitor counted;
 * then records the session from the window: `babeltrace2` prints as many events as
 * tracewb reopens in the window, and the same count for every event type (each sensor,
 * its misses, the measurements and snapshots).
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-sensors-pane.h"
#include "tw-target-histograms.h"
#include "tw-test-app.h"
#include "tw-test-lttng-lab.h"
#include "tw-test-lttng-window.h"
#include "tw-test-record.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS   60000
#define SESSION   "walk"
#define AUTOMATON "Demo job time (demo-rt-0, job-start to job-end)"

static TwApplication *app;

/* One target's demo and monitor, and what its monitor printed. */
typedef struct {
  TwTestLttng     *lt;
  char            *sensor_dir;
  GArray          *counted;     /* TwTestCounted */
  TwTestEvaluated  evaluated;
  gint             done;
} Target;

typedef struct {
  TwWindow      *window;
  TwLiveSession *session;
  TwSensorsPane *pane;
  Target         targets[TW_LAB_TARGETS];
  guint64        discarded;   /* events LTTng dropped on the way */
} Story;

static gpointer
run_monitor (gpointer data)
{
  Target *t = data;
  g_autofree char *automaton = g_build_filename (TW_SOURCE_DIR, "data", "automata", "demo-rt-job.json", NULL);

  t->counted = tw_test_target_run_monitor_evaluating (t->lt, t->sensor_dir, "2.5", "--automaton", automaton,
                                                      &t->evaluated);
  g_atomic_int_set (&t->done, 1);
  return NULL;
}

static gboolean
monitors_done (gpointer data)
{
  Story *s = data;

  return g_atomic_int_get (&s->targets[0].done) && g_atomic_int_get (&s->targets[1].done);
}

/* The histogram section's card of @host's automaton, or -1. */
static int
find_histogram (TwTargetHistograms *h,
                const char         *host)
{
  g_autofree char *title = g_strdup_printf ("%s: %s", host, AUTOMATON);

  for (guint i = 0; i < tw_target_histograms_get_n (h); i++)
    if (g_strcmp0 (tw_target_histograms_get_title (h, i), title) == 0)
      return (int) i;
  return -1;
}

/* Each target's sensors have their rows with its monitor's final counts, and its
 * automaton's histogram is titled by its host with the measurements it counted. */
static gboolean
shows_both_targets (gpointer data)
{
  Story *s = data;
  TwTargetHistograms *h = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (s->pane));

  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      const char *host = s->targets[k].lt->hostname;
      int card = find_histogram (h, host);

      if (!tw_test_sensor_rows_show_counts (s->pane, host, s->targets[k].counted) || card < 0
          || tw_target_histograms_get_snapshot (h, (guint) card, NULL)->count != s->targets[k].evaluated.measurements)
        return FALSE;
    }
  return TRUE;
}

static gboolean
both_hosts_have_task_rows (gpointer data)
{
  return tw_test_timeline_has_task_row_of (data, "tA") && tw_test_timeline_has_task_row_of (data, "tB");
}

/* The session rows' missed are what LTTng discarded (its `discarded_*` rows), not the
 * target sensors' misses, which are on the sensors' own rows. */
static void
check_session_rows (Story *s)
{
  TwTrace *trace = tw_live_session_get_trace (s->session);
  guint64 discarded = 0, shown = 0, sensors_missed = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const char *name;

      tw_trace_get_event (trace, i, &event);
      name = tw_trace_get_event_type (trace, event.type)->name;
      if (g_str_has_prefix (name, "discarded_"))
        discarded += event.arg;
    }
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      shown += g_ascii_strtoull (tw_sensors_pane_get_text (s->pane, (int) k, TW_SENSORS_COLUMN_MISSED), NULL, 10);
      for (guint i = 0; i < s->targets[k].counted->len; i++)
        sensors_missed += g_array_index (s->targets[k].counted, TwTestCounted, i).missed;
    }
  g_test_message ("session rows: %" G_GUINT64_FORMAT " missed; LTTng discarded %" G_GUINT64_FORMAT
                  "; the sensors missed %" G_GUINT64_FORMAT " at their rings", shown, discarded, sensors_missed);
  g_assert_cmpuint (shown, ==, discarded);
  /* the demo's small rings overflow: the sensors' misses exist, and are not the session's */
  g_assert_cmpuint (sensors_missed, >, 0);
  s->discarded = discarded;
}

/* The live store holds the targets' elements in their own time order: each monitor
 * sends one ring's batch after another's, and the LTTng source holds rows back until its
 * horizon passed them. A target stalled longer than any lag seen before (a loaded
 * machine) can still send a row the merge has passed: counted late, under 5 %
 * (without the holding back, 6 762 of some 15 000 were). */
static void
check_time_order (Story *s)
{
  TwTrace *trace = tw_live_session_get_trace (s->session);
  guint64 n = tw_trace_get_n_events (trace), back = 0, late = 0, received = 0;

  for (guint i = 0; i < TW_LAB_TARGETS; i++)
    {
      TwMonitorSourceInfo info;

      g_assert_true (tw_live_session_get_source_info (s->session, i, &info));
      late += info.counts.late;
      received += info.counts.received;
    }
  for (guint64 i = 1; i < n; i++)
    back += tw_trace_get_time (trace, i) < tw_trace_get_time (trace, i - 1);
  g_test_message ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " rows came late; %" G_GUINT64_FORMAT
                  " rows of the store earlier than the one before", late, received, back);
  g_assert_cmpuint (late * 20, <=, received);
  if (late == 0)
    g_assert_cmpuint (back, ==, 0);
}

/* The automaton the targets ran, run on the desktop over the recorded elements: as many
 * measurements as the targets' monitors made (each sees the same elements in the same
 * order: a recording writes rows in time order, late ones too), unless LTTng dropped
 * some on the way. */
static void
check_desktop_evaluation (Story      *s,
                          const char *path)
{
  g_autofree char *automaton = g_build_filename (TW_SOURCE_DIR, "data", "automata", "demo-rt-job.json", NULL);
  const char *const args[] = { "eval", path, "--automaton", automaton, NULL };
  g_autofree char *out = NULL, *err = NULL;
  const char *at;
  guint64 desktop, targets = s->targets[0].evaluated.measurements + s->targets[1].evaluated.measurements;
  int status;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  at = strstr (out, ": ");
  g_assert_nonnull (at);
  desktop = g_ascii_strtoull (at + 2, NULL, 10);
  g_test_message ("the automaton over the recording: %" G_GUINT64_FORMAT " measurements; the targets "
                  "made %" G_GUINT64_FORMAT, desktop, targets);
  if (s->discarded == 0)
    g_assert_cmpuint (desktop, ==, targets);
  else
    g_assert_cmpuint (desktop, <=, targets);
}

/* babeltrace2's text output of @path: one line per event; how many of each event name
 * ("[time] (+delta) host NAME: { context }, { payload }"). */
static GHashTable *
babeltrace2_counts (const char *path,
                    guint64    *lines)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *out = NULL;
  g_auto(GStrv) rows = NULL;
  int status = -1;

  out = tw_test_run_tool (argv, &status);
  g_assert_nonnull (out);
  g_assert_cmpint (status, ==, 0);
  rows = g_strsplit (out, "\n", -1);
  *lines = 0;
  for (guint i = 0; rows[i] && rows[i][0]; i++)
    {
      const char *host = strstr (rows[i], ") ");
      const char *name = host ? strchr (host + 2, ' ') : NULL;
      const char *end = name ? strstr (name, ": {") : NULL;
      char *key;

      g_assert_nonnull (end);
      key = g_strndup (name + 1, (gsize) (end - name - 1));
      g_hash_table_insert (counts, key, GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1));
      (*lines)++;
    }
  return counts;
}

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

/* Record from the window; babeltrace2 prints it, the window reopens it: the same events,
 * the same count of every type. */
static void
record_and_reopen (Story      *s,
                   const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GHashTable) printed = NULL, reopened = NULL;
  GHashTableIter iter;
  gpointer name, count;
  TwTrace *trace;
  guint64 recorded, lines = 0, sensor_types = 0;

  g_assert_true (tw_window_record (s->window, path, &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (tw_test_record_idle, tw_window_get_recorder (s->window), WAIT_MS));
  recorded = tw_recorder_get_n_events (tw_window_get_recorder (s->window));
  printed = babeltrace2_counts (path, &lines);

  tw_window_open_file (s->window, file);
  g_assert_true (tw_test_wait_until (not_loading, s->window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (s->window));
  trace = tw_state_model_get_trace (tw_view_state_get_model (tw_window_get_view_state (s->window)));
  reopened = tw_test_record_count_types (trace, tw_trace_get_n_events (trace));
  g_test_message ("recorded %" G_GUINT64_FORMAT " events; babeltrace2 prints %" G_GUINT64_FORMAT
                  "; reopened %" G_GUINT64_FORMAT " in %u types", recorded, lines,
                  tw_trace_get_n_events (trace), g_hash_table_size (reopened));
  g_assert_cmpuint (lines, ==, recorded);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, lines);
  g_assert_cmpuint (g_hash_table_size (reopened), ==, g_hash_table_size (printed));
  g_hash_table_iter_init (&iter, reopened);
  while (g_hash_table_iter_next (&iter, &name, &count))
    {
      if (g_hash_table_lookup (printed, name) != count)
        g_error ("%s: babeltrace2 prints %u, tracewb reopens %u", (const char *) name,
                 GPOINTER_TO_UINT (g_hash_table_lookup (printed, name)), GPOINTER_TO_UINT (count));
      sensor_types += g_str_has_prefix (name, "demo-rt");
    }
  /* the demo's five sensors (two tasks and the shared steps) and the misses of its
   * small rings; the automaton's rows */
  g_assert_cmpuint (sensor_types, >, 5);
  g_assert_nonnull (g_hash_table_lookup (reopened, "measurement:" AUTOMATON));
  g_assert_nonnull (g_hash_table_lookup (reopened, "histogram:" AUTOMATON));
}

static void
test_two_targets_sensors_automaton (void)
{
  TwTestLab lab;
  Story s = { 0 };
  g_autofree char *url_a = NULL, *url_b = NULL, *record_dir = NULL, *path = NULL;
  GPid demos[TW_LAB_TARGETS];
  GThread *monitors[TW_LAB_TARGETS];

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  if (!tw_test_lab_start (&lab))
    return;
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      g_assert_true (tw_test_lab_create_session (&lab, k, SESSION));
      /* an app registered: the session has the streams a viewer attaches to */
      g_assert_true (tw_test_lab_emit (&lab, k, 0, 0));
      s.targets[k].lt = &lab.targets[k];
      s.targets[k].sensor_dir = tw_test_target_make_sensor_dir (&lab.targets[k]);
    }
  url_a = tw_test_lab_url (&lab, 0, SESSION);
  url_b = tw_test_lab_url (&lab, 1, SESSION);

  s.window = tw_application_start_lttng_live (app, (const char *[]) { url_a, url_b, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (s.window));
  s.session = g_object_ref (tw_window_get_live_session (s.window));
  s.pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (s.window));
  g_assert_true (tw_test_wait_until (tw_test_live_all_connected, s.session, WAIT_MS));

  /* each target's demo outlives its monitor, which blocks: a thread each, while the
   * window follows on this one */
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      demos[k] = tw_test_target_start_demo (&lab.targets[k], s.targets[k].sensor_dir, "4");
      monitors[k] = g_thread_new ("target-monitor", run_monitor, &s.targets[k]);
    }
  g_assert_true (tw_test_wait_until (monitors_done, &s, WAIT_MS));
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      g_thread_join (monitors[k]);
      tw_test_target_wait (demos[k]);
      g_test_message ("%s: %u sensors, automaton %" G_GUINT64_FORMAT " measurements", lab.targets[k].hostname,
                      s.targets[k].counted->len, s.targets[k].evaluated.measurements);
      g_assert_cmpuint (s.targets[k].counted->len, ==, 5);
      g_assert_cmpuint (s.targets[k].evaluated.measurements, >, 10);
    }

  g_assert_true (tw_test_wait_until (shows_both_targets, &s, WAIT_MS));
  g_assert_true (tw_test_wait_until (both_hosts_have_task_rows, s.window, WAIT_MS));
  check_session_rows (&s);
  check_time_order (&s);

  record_dir = g_dir_make_tmp ("tw-story-done-XXXXXX", NULL);
  path = g_build_filename (record_dir, "two-targets", NULL);
  record_and_reopen (&s, path);
  check_desktop_evaluation (&s, path);

  gtk_window_destroy (GTK_WINDOW (s.window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (s.session);
  tw_test_lab_stop (&lab);
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      g_array_unref (s.targets[k].counted);
      tw_test_lttng_remove_tree (s.targets[k].sensor_dir);
      g_free (s.targets[k].sensor_dir);
    }
  tw_test_lttng_remove_tree (record_dir);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/lttng-live/done-two-targets-sensors-automaton", test_two_targets_sensors_automaton);
  return g_test_run ();
}
