/* test-story-target-checks.c: what the Sensors tab says of a target's monitor when things go wrong
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The target monitor's events are made by hand (tests/lib/ust-craft.c fires the
 * tracepoints of tracewb-ust.so, as `tracewb-cli monitor --lttng` does), so that they
 * carry what a real monitor sends only by chance or through faults, and the user follows
 * the target's session live in the window:
 *  - two targets' results-only monitors (measurements and histograms, no sensors) with
 *    the same pid, as pid namespaces give them: two histograms, each with its own
 *    target's count, titled by its host;
 *  - a target sensor whose monitor ended: its Rate falls to 0 and its row says so, as a
 *    local sensor's whose writer is gone;
 *  - a sensor's stream with elements lost on the way, one delivered twice and its
 *    positions going back (a monitor restarted): the row's Missed adds what was lost in
 *    transit to the monitor's misses, its Stream column names the gap, the duplicate and
 *    the restart, and the store holds each element once.
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
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS  60000
#define TIMER_US 100000
/* the monitors of both targets: what pid namespaces make of two containers' monitors */
#define MONITOR  "4242"

static TwApplication *app;

/* Runs ust-craft on @lt's machine with @commands (after the module), and waits for it. */
static void
craft (TwTestLttng       *lt,
       const char *const *commands)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GPtrArray) argv = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = -1;

  g_ptr_array_add (args, (gpointer) g_getenv ("TW_UST_CRAFT"));
  g_ptr_array_add (args, (gpointer) g_getenv ("TW_UST_MODULE"));
  /* a viewer attaches at the streams' end: what follows its attaching is what it reads */
  g_ptr_array_add (args, (gpointer) "sleep");
  g_ptr_array_add (args, (gpointer) "500");
  for (guint i = 0; commands[i]; i++)
    g_ptr_array_add (args, (gpointer) commands[i]);
  g_ptr_array_add (args, NULL);
  argv = tw_test_lttng_argv (lt, (const char *const *) args->pdata);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, lt->env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("ust-craft failed: %s", err);
}

static gboolean
have_craft (void)
{
  if (g_getenv ("TW_UST_CRAFT") == NULL || g_getenv ("TW_UST_MODULE") == NULL)
    {
      g_test_skip ("tracewb-ust.so was not built (Debian: liblttng-ust-dev)");
      return FALSE;
    }
  return TRUE;
}

/* ---------------------------------------------------------------- two targets, one pid */

typedef struct {
  TwSensorsPane *pane;
  guint64        count_a, count_b;
} Histograms;

/* The section shows a histogram per target: "tA: job time" with tA's count, and tB's. */
static gboolean
shows_both_targets (gpointer data)
{
  Histograms *h = data;
  TwTargetHistograms *section = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (h->pane));
  gboolean a = FALSE, b = FALSE;

  for (guint i = 0; i < tw_target_histograms_get_n (section); i++)
    {
      const char *title = tw_target_histograms_get_title (section, i);
      guint64 count = tw_target_histograms_get_snapshot (section, i, NULL)->count;

      a |= strcmp (title, "tA: job time") == 0 && count == h->count_a;
      b |= strcmp (title, "tB: job time") == 0 && count == h->count_b;
    }
  return a && b;
}

static void
test_results_same_pid (void)
{
  TwTestLab lab;
  g_autofree char *url_a = NULL, *url_b = NULL;
  TwTargetHistograms *section;
  TwLiveSession *session;
  TwWindow *window;
  Histograms h = { NULL, 7, 11 };

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  if (!have_craft () || !tw_test_lab_start (&lab))
    return;
  tw_test_lab_open_sessions (&lab, "results", &url_a, &url_b);
  window = tw_application_start_lttng_live (app, (const char *[]) { url_a, url_b, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (window));
  session = g_object_ref (tw_window_get_live_session (window));
  g_assert_true (tw_test_wait_until (tw_test_live_all_connected, session, WAIT_MS));
  h.pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (window));

  /* each target's monitor, pid 4242 on both, sends only its evaluation's snapshots */
  craft (&lab.targets[0], (const char *[]) { "histogram", MONITOR, "job time", "3", "sleep", "300",
                                             "histogram", MONITOR, "job time", "7", NULL });
  craft (&lab.targets[1], (const char *[]) { "histogram", MONITOR, "job time", "11", NULL });
  g_assert_true (tw_test_wait_until (shows_both_targets, &h, WAIT_MS));
  section = TW_TARGET_HISTOGRAMS (tw_sensors_pane_get_target_histograms (h.pane));
  g_assert_cmpuint (tw_target_histograms_get_n (section), ==, 2);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_object_unref (session);
  tw_test_lab_stop (&lab);
}

/* ---------------------------------------------------------------- one target's sensor */

typedef struct {
  TwSensorsPane *pane;
  char          *task;       /* "HOST: probe" */
  const char    *received;   /* the Received cell awaited */
} SensorRow;

static int
find_row (SensorRow *s)
{
  return tw_sensors_pane_find_row (s->pane, s->task, "sample");
}

static gboolean
row_received (gpointer data)
{
  SensorRow *s = data;
  int row = find_row (s);

  return row >= 0 && strcmp (tw_sensors_pane_get_text (s->pane, row, TW_SENSORS_COLUMN_RECEIVED), s->received) == 0;
}

/* A cell of the sensor's row awaited: equal to @text, or holding it (@part). */
typedef struct {
  SensorRow       *s;
  TwSensorsColumn  column;
  const char      *text;
  gboolean         part;
} Cell;

static gboolean
row_shows (gpointer data)
{
  Cell *c = data;
  int row = find_row (c->s);
  const char *text;

  if (row < 0)
    return FALSE;
  text = tw_sensors_pane_get_text (c->s->pane, row, c->column);
  return c->part ? strstr (text, c->text) != NULL : strcmp (text, c->text) == 0;
}

/* Starts a target with a live session followed by a window; FALSE: skipped. */
static gboolean
start_target (TwTestLttng  *lt,
              TwWindow    **window,
              SensorRow    *s)
{
  g_autofree char *url = NULL;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return FALSE;
    }
  if (!have_craft () || !tw_test_lttng_start (lt))
    return FALSE;
  g_assert_true (tw_test_lttng_create_session (lt, "checks", TIMER_US));
  g_assert_true (tw_test_lttng_emit (lt, 0, 0));
  url = tw_test_lttng_url (lt, "checks");
  *window = tw_application_start_lttng_live (app, (const char *[]) { url, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (*window));
  g_assert_true (tw_test_wait_until (tw_test_live_all_connected, tw_window_get_live_session (*window), WAIT_MS));
  s->pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (*window));
  s->task = g_strdup_printf ("%s: probe", lt->hostname);
  return TRUE;
}

static void
stop_target (TwTestLttng *lt,
             TwWindow    *window,
             SensorRow   *s)
{
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_free (s->task);
  tw_test_lttng_stop (lt);
}

static void
test_rate_after_monitor_ended (void)
{
  TwTestLttng lt;
  TwWindow *window;
  SensorRow s = { 0 };
  Cell zero = { &s, TW_SENSORS_COLUMN_RATE, "0/s", FALSE };
  Cell gone = { &s, TW_SENSORS_COLUMN_STATE, "gone", TRUE };
  Cell unheard = { &s, TW_SENSORS_COLUMN_STATE, "not connected", TRUE };
  double rate;
  int row;

  if (!start_target (&lt, &window, &s))
    return;
  /* 100 elements in half a second, counted by the monitor twice, then it ends */
  craft (&lt, (const char *[]) { "schema", "777", "0", "probe", "sample",
                                 "elements", "777", "0", "0", "50", "0", "counts", "777", "0", "50", "0",
                                 "sleep", "500",
                                 "elements", "777", "0", "50", "50", "0", "counts", "777", "0", "100", "0",
                                 NULL });
  s.received = "100";
  g_assert_true (tw_test_wait_until (row_received, &s, WAIT_MS));
  row = find_row (&s);
  rate = g_ascii_strtod (tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_RATE), NULL);
  g_test_message ("rate while its counts are fresh: %s; state %s",
                  tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_RATE),
                  tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_STATE));
  /* its last two counts: 50 elements in about half a second */
  g_assert_cmpfloat (rate, >, 20);

  /* the monitor is gone: no more counts. The rate falls to 0 and the row says why,
   * its counts staying the last ones heard */
  g_assert_true (tw_test_wait_until (row_shows, &zero, WAIT_MS));
  g_test_message ("once the monitor ended: rate %s; state %s",
                  tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_RATE),
                  tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_STATE));
  g_assert_true (row_shows (&gone));
  g_assert_cmpstr (tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_RECEIVED), ==, "100");

  /* the connection lost: the row says so, the rate stays 0 */
  tw_test_lttng_stop_relayd (&lt);
  g_assert_true (tw_test_wait_until (row_shows, &unheard, WAIT_MS));
  g_assert_true (row_shows (&zero));
  stop_target (&lt, window, &s);
}

/* The store holds the 20 elements that arrived once each (the duplicate dropped). */
static gboolean
stored_all (gpointer window)
{
  guint64 elements, missed;

  tw_test_count_sensor_rows (tw_live_session_get_trace (tw_window_get_live_session (window)), "probe@sample",
                             &elements, &missed);
  return elements >= 20;
}


static void
test_stream_check (void)
{
  TwTestLttng lt;
  TwWindow *window;
  SensorRow s = { 0 };
  Cell cell = { &s, TW_SENSORS_COLUMN_STREAM, NULL, FALSE };
  guint64 elements, missed;
  int row;

  if (!start_target (&lt, &window, &s))
    return;
  /* positions 0–9; then 15–19 with the monitor's missed count at 2: of the 5 skipped,
   * 2 the monitor missed at the ring, 3 never arrived; 19 again; the counts (15 read,
   * 2 missed) */
  craft (&lt, (const char *[]) { "schema", "900", "0", "probe", "sample",
                                 "elements", "900", "0", "0", "10", "0",
                                 "elements", "900", "0", "15", "5", "2",
                                 "elements", "900", "0", "19", "1", "2",
                                 "counts", "900", "0", "15", "2", NULL });
  s.received = "15";
  cell.text = "3 lost, 1 duplicate";
  g_assert_true (tw_test_wait_until (row_received, &s, WAIT_MS));
  g_assert_true (tw_test_wait_until (row_shows, &cell, WAIT_MS));
  row = find_row (&s);
  /* missed at the workbench: the monitor's 2 and the 3 lost on the way */
  g_assert_cmpstr (tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_MISSED), ==, "5");

  /* the monitor starts over (same pid, positions from 0 again): a new stream, not a
   * gap of minus 20 nor lost elements */
  craft (&lt, (const char *[]) { "elements", "900", "0", "0", "5", "0", NULL });
  cell.text = "3 lost, 1 duplicate, 1 restart";
  g_assert_true (tw_test_wait_until (row_shows, &cell, WAIT_MS));
  g_test_message ("stream %s, missed %s", tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_STREAM),
                  tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_MISSED));
  g_assert_cmpstr (tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_MISSED), ==, "5");

  /* each element stored once (the duplicate not again), the monitor's misses as loss
   * rows, nothing invented for the restart */
  g_assert_true (tw_test_wait_until (stored_all, window, WAIT_MS));
  tw_test_count_sensor_rows (tw_live_session_get_trace (tw_window_get_live_session (window)), "probe@sample",
                             &elements, &missed);
  g_assert_cmpuint (elements, ==, 10 + 5 + 5);
  g_assert_cmpuint (missed, ==, 2);
  stop_target (&lt, window, &s);
}

/* ---------------------------------------------------------------- declared streams */

typedef struct {
  TwSensorsPane *pane;
  TwLiveSession *session;
  char          *task;      /* "HOST: probe" */
  const char    *sensor;
  const char    *prefix;    /* of the Stream cell awaited */
} StreamCell;

static gboolean
stream_shows (gpointer data)
{
  StreamCell *c = data;
  int row = tw_sensors_pane_find_row (c->pane, c->task, c->sensor);

  return row >= 0 && g_str_has_prefix (tw_sensors_pane_get_text (c->pane, row, TW_SENSORS_COLUMN_STREAM), c->prefix);
}

/* All 20 elements of @data's sensor arrived (its monitor's counts came after them). */
static gboolean
all_decoded (gpointer data)
{
  StreamCell *c = data;
  for (guint i = 0; i < tw_live_session_get_n_remote_sensors (c->session); i++)
    {
      TwLttngRemoteSensor rs;

      if (tw_live_session_get_remote_sensor (c->session, i, &rs) && strcmp (rs.sensor, c->sensor) == 0)
        return rs.decoded == 20;
    }
  return FALSE;
}

/* The target's sensors declared their jitter-constrained streams there
 * (tw_sensor_new_full): the workbench checks each one's arrivals against its own, as a
 * local sensor's. `dense` declares an element every 10 ms, no earliness, and sends 20 at
 * once: too early. `calm` declares 1 ms with 10 s of earliness: any monotonic times fit.
 * `plain` declares nothing: only its continuity is checked. */
static void
test_declared_stream (void)
{
  TwTestLttng lt;
  TwWindow *window;
  SensorRow s = { 0 };
  StreamCell dense = { NULL, NULL, NULL, "dense", "broken: " };
  StreamCell calm = { NULL, NULL, NULL, "calm", "OK" };
  StreamCell plain = { NULL, NULL, NULL, "plain", "continuous" };
  int row;

  if (!start_target (&lt, &window, &s))
    return;
  craft (&lt, (const char *[]) { "schema-jcs", "920", "0", "probe", "dense", "10000000", "0", "0", "10000000", "10000000",
                                 "schema-jcs", "920", "1", "probe", "calm", "1000000", "0", "10000000000", "10000000",
                                 "10000000",
                                 "schema", "920", "2", "probe", "plain",
                                 "elements", "920", "0", "0", "20", "0",
                                 "elements", "920", "1", "0", "20", "0",
                                 "elements", "920", "2", "0", "20", "0",
                                 "counts", "920", "0", "20", "0", "counts", "920", "1", "20", "0",
                                 "counts", "920", "2", "20", "0", NULL });
  dense.pane = calm.pane = plain.pane = s.pane;
  dense.task = calm.task = plain.task = s.task;
  calm.session = tw_window_get_live_session (window);
  g_assert_true (tw_test_wait_until (stream_shows, &dense, WAIT_MS));
  g_assert_true (tw_test_wait_until (stream_shows, &calm, WAIT_MS));
  g_assert_true (tw_test_wait_until (stream_shows, &plain, WAIT_MS));
  row = tw_sensors_pane_find_row (s.pane, s.task, "dense");
  g_test_message ("dense: %s; calm: %s; plain: %s", tw_sensors_pane_get_text (s.pane, row, TW_SENSORS_COLUMN_STREAM),
                  tw_sensors_pane_get_text (s.pane, tw_sensors_pane_find_row (s.pane, s.task, "calm"),
                                            TW_SENSORS_COLUMN_STREAM),
                  tw_sensors_pane_get_text (s.pane, tw_sensors_pane_find_row (s.pane, s.task, "plain"),
                                            TW_SENSORS_COLUMN_STREAM));
  /* the calm one stays OK with all 20 decoded: its arrivals were checked and fit */
  g_assert_true (tw_test_wait_until (all_decoded, &calm, WAIT_MS));
  g_assert_true (stream_shows (&calm));
  stop_target (&lt, window, &s);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/target-checks/results-same-pid", test_results_same_pid);
  g_test_add_func ("/tw/app/target-checks/rate-after-monitor-ended", test_rate_after_monitor_ended);
  g_test_add_func ("/tw/app/target-checks/stream-check", test_stream_check);
  g_test_add_func ("/tw/app/target-checks/declared-stream", test_declared_stream);
  return g_test_run ();
}
