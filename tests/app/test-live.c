/* test-live.c: the live window under Xvfb: sensors written in the test, shown as they arrive
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-sensors-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 20000

static TwApplication *app;
static gboolean have_display;

typedef struct {
  char          *sensor_dir;
  TwWindow      *window;
  TwLiveSession *session;
  TwSensor      *start;      /* job@start: u64 seq */
  TwSensor      *end;        /* job@end:   u64 seq */
  guint64        committed;  /* pairs */
} Fixture;

/* ------------------------------------------------------------------ helpers */

/* Runs the main loop for @ms (the session's ticks, the poll thread). */
static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static void
commit_pairs (Fixture *fx,
              guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 *element = tw_sensor_write (fx->start);

      *element = fx->committed;
      tw_sensor_commit (fx->start, element);
      /* a job takes time: equal stamps of two sensors merge in source order, which
       * could put an end before its start */
      g_usleep (5);
      element = tw_sensor_write (fx->end);
      *element = fx->committed;
      tw_sensor_commit (fx->end, element);
      fx->committed++;
    }
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  guint64 capacity = GPOINTER_TO_UINT (data) ? GPOINTER_TO_UINT (data) : 4096;

  if (!have_display)
    return;
  fx->sensor_dir = tw_test_use_temp_sensor_dir ();
  fx->start = tw_sensor_new ("job", "start", "u64 seq", capacity, 0);
  fx->end = tw_sensor_new ("job", "end", "u64 seq", capacity, 0);
  g_assert_nonnull (fx->start);
  g_assert_nonnull (fx->end);

  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
}

static void
start_session (Fixture *fx)
{
  g_autoptr(GError) error = NULL;

  /* NULL: $TRACEWB_SENSOR_DIR, as tracewb --live does */
  fx->session = tw_live_session_new (NULL);
  g_assert_cmpstr (tw_live_session_get_sensor_dir (fx->session), ==, fx->sensor_dir);
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
  g_assert_true (tw_window_get_live_session (fx->window) == fx->session);
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "trace");
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (have_display)
    tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  g_clear_pointer (&fx->start, tw_sensor_free);
  g_clear_pointer (&fx->end, tw_sensor_free);
  if (fx->sensor_dir)
    tw_test_remove_sensor_dir (g_steal_pointer (&fx->sensor_dir));
}

static TwSensorsPane *
sensors_pane (Fixture *fx)
{
  return TW_SENSORS_PANE (tw_window_get_sensors_pane (fx->window));
}

static int
find_sensor_row (Fixture    *fx,
                 const char *sensor)
{
  TwSensorsPane *pane = sensors_pane (fx);

  for (guint i = 0; i < tw_sensors_pane_get_n_rows (pane); i++)
    if (g_strcmp0 (tw_sensors_pane_get_text (pane, i, TW_SENSORS_COLUMN_SENSOR), sensor) == 0)
      return (int) i;
  return -1;
}

typedef struct {
  Fixture    *fx;
  const char *sensor;
  const char *received;
  const char *missed;
} PaneExpect;

static gboolean
pane_shows (gpointer data)
{
  PaneExpect *e = data;
  int row = find_sensor_row (e->fx, e->sensor);
  TwSensorsPane *pane = sensors_pane (e->fx);

  return row >= 0
         && g_strcmp0 (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_RECEIVED), e->received) == 0
         && g_strcmp0 (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_MISSED), e->missed) == 0;
}

static void
assert_pane_shows (Fixture    *fx,
                   const char *sensor,
                   guint64     received,
                   guint64     missed)
{
  g_autofree char *r = g_strdup_printf ("%" G_GUINT64_FORMAT, received);
  g_autofree char *m = g_strdup_printf ("%" G_GUINT64_FORMAT, missed);
  PaneExpect e = { fx, sensor, r, m };

  if (!tw_test_wait_until (pane_shows, &e, WAIT_MS))
    {
      int row = find_sensor_row (fx, sensor);

      g_assert_cmpint (row, >=, 0);
      g_assert_cmpstr (tw_sensors_pane_get_text (sensors_pane (fx), row, TW_SENSORS_COLUMN_RECEIVED), ==, r);
      g_assert_cmpstr (tw_sensors_pane_get_text (sensors_pane (fx), row, TW_SENSORS_COLUMN_MISSED), ==, m);
    }
}

static gboolean
model_has_all (gpointer data)
{
  Fixture *fx = data;
  TwTrace *trace = tw_live_session_get_trace (fx->session);

  return tw_trace_get_n_events (trace) == 2 * fx->committed
         && tw_state_model_get_n_processed (tw_live_session_get_model (fx->session)) == 2 * fx->committed;
}

#define SKIP_WITHOUT_DISPLAY()                                \
  G_STMT_START {                                              \
    if (!have_display)                                        \
      {                                                       \
        g_test_skip ("no display (run under xvfb-run)");      \
        return;                                               \
      }                                                       \
  } G_STMT_END

/* ------------------------------------------------------------------ tests */

/* Elements committed before attaching overflow a buffer of 16: the session reads the
 * sensors present at attach from position 0, so received + missed = committed, and the
 * pane says exactly that; later elements are all received. */
static void
test_sensors_pane (Fixture       *fx,
                   gconstpointer  data)
{
  TwSensorsPane *pane;
  guint64 capacity;
  int row;

  SKIP_WITHOUT_DISPLAY ();
  capacity = tw_sensor_get_capacity (fx->start);
  g_assert_cmpuint (capacity, >=, 16);
  commit_pairs (fx, capacity + 25);
  start_session (fx);
  pane = sensors_pane (fx);
  g_assert_true (gtk_widget_get_parent (GTK_WIDGET (pane)) != NULL);

  assert_pane_shows (fx, "start", capacity, 25);
  assert_pane_shows (fx, "end", capacity, 25);
  row = find_sensor_row (fx, "start");
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_TASK), ==, "job");
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_SCHEMA), ==, "u64 seq");
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_STREAM), ==, "—");
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_STATE), ==, "attached");
  /* overwritten before it was read, none was caught being overwritten while read */
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_TORN), ==, "0");
  /* no kernel or libgtop source was asked for: nothing to explain */
  g_assert_cmpstr (tw_sensors_pane_get_notes (pane), ==, "");

  commit_pairs (fx, 7);
  assert_pane_shows (fx, "start", capacity + 7, 25);

  /* detached: read no more; attached again: from the writer's end, so only what comes
   * after counts */
  gtk_check_button_set_active (GTK_CHECK_BUTTON (tw_sensors_pane_get_attach_button (pane, row)), FALSE);
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_STATE), ==, "detached");
  commit_pairs (fx, 5);
  assert_pane_shows (fx, "end", capacity + 12, 25);
  spin (100);
  assert_pane_shows (fx, "start", capacity + 7, 25);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (tw_sensors_pane_get_attach_button (pane, row)), TRUE);
  commit_pairs (fx, 3);
  assert_pane_shows (fx, "start", capacity + 10, 25);
  assert_pane_shows (fx, "end", capacity + 15, 25);
}

typedef struct {
  Fixture    *fx;
  const char *sensor;
  const char *prefix;
} StreamExpect;

static gboolean
stream_shows (gpointer data)
{
  StreamExpect *e = data;
  int row = find_sensor_row (e->fx, e->sensor);

  return row >= 0 && g_str_has_prefix (tw_sensors_pane_get_text (sensors_pane (e->fx), row,
                                                                  TW_SENSORS_COLUMN_STREAM),
                                       e->prefix);
}

static void
assert_stream_shows (Fixture    *fx,
                     const char *sensor,
                     const char *prefix)
{
  StreamExpect e = { fx, sensor, prefix };

  if (!tw_test_wait_until (stream_shows, &e, WAIT_MS))
    {
      int row = find_sensor_row (fx, sensor);

      g_assert_cmpint (row, >=, 0);
      g_assert_cmpstr (tw_sensors_pane_get_text (sensors_pane (fx), row, TW_SENSORS_COLUMN_STREAM),
                       ==, prefix);
    }
}

static void
commit_now (TwSensor *sensor,
            guint     n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 *element = tw_sensor_write (sensor);

      *element = i;
      tw_sensor_commit (sensor, element);
    }
}

/* A local sensor's declared stream is checked as its elements arrive: 20 elements at once
 * break one at least 10 ms apart; three at once fit one that allows a burst; an
 * undeclared sensor has nothing to check. */
static void
test_declared_stream (Fixture       *fx,
                      gconstpointer  data)
{
  TwSensorParams tight = { 10e6, 10e6, 0, 10e6, 10e6, 0 };
  TwSensorParams loose = { 1e6, 0, 10e9, 10e6, 10e6, 0 };
  TwSensor *dense, *burst;

  SKIP_WITHOUT_DISPLAY ();
  dense = tw_sensor_new_full ("probe", "dense", "u64 seq", 64, 0, &tight);
  burst = tw_sensor_new_full ("probe", "burst", "u64 seq", 64, 0, &loose);
  g_assert_nonnull (dense);
  g_assert_nonnull (burst);
  start_session (fx);
  commit_now (dense, 20);
  commit_now (burst, 3);
  commit_pairs (fx, 1);
  assert_stream_shows (fx, "dense", "broken: ");
  assert_stream_shows (fx, "burst", "OK");
  assert_stream_shows (fx, "start", "—");
  tw_sensor_free (dense);
  tw_sensor_free (burst);
}

typedef struct {
  TwViewState *state;
  guint64      beyond;
} EndBeyond;

static gboolean
view_end_beyond (gpointer data)
{
  EndBeyond *e = data;
  guint64 begin, end;

  tw_view_state_get_visible_range (e->state, &begin, &end);
  return end > e->beyond;
}

/* The view follows new data; a pan back stops following; End resumes. */
static gboolean
is_following (gpointer data)
{
  return tw_view_state_get_following (data);
}

static void
test_follow (Fixture       *fx,
             gconstpointer  data)
{
  TwViewState *state;
  guint64 begin, end, begin2, end2, newest;
  EndBeyond wait;

  SKIP_WITHOUT_DISPLAY ();
  start_session (fx);
  state = tw_window_get_view_state (fx->window);
  g_assert_true (tw_view_state_get_following (state));

  commit_pairs (fx, 10);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  tw_view_state_get_visible_range (state, &begin, &end);
  /* new data scrolls in: the right edge moves past the data's time */
  newest = tw_trace_get_last_time (tw_live_session_get_trace (fx->session));
  wait = (EndBeyond) { state, newest };
  g_assert_true (tw_test_wait_until (view_end_beyond, &wait, WAIT_MS));
  commit_pairs (fx, 10);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  newest = tw_trace_get_last_time (tw_live_session_get_trace (fx->session));
  wait.beyond = newest;
  g_assert_true (tw_test_wait_until (view_end_beyond, &wait, WAIT_MS));
  tw_view_state_get_visible_range (state, &begin2, &end2);
  g_assert_cmpuint (end2, >, end);
  g_assert_cmpuint (end2 - begin2, ==, end - begin);   /* the span is kept */

  /* a pan back in time stops following: the range stays while data arrives */
  tw_view_state_pan (state, -0.5);
  g_assert_false (tw_view_state_get_following (state));
  tw_view_state_get_visible_range (state, &begin, &end);
  commit_pairs (fx, 10);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  spin (150);
  tw_view_state_get_visible_range (state, &begin2, &end2);
  g_assert_cmpuint (begin2, ==, begin);
  g_assert_cmpuint (end2, ==, end);

  /* the keys, pressed for real: f with the focus on the event list, End on the timeline */
  if (tw_test_input_available ())
    {
      gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (tw_window_get_event_list (fx->window))));
      tw_test_input_keys (GTK_WIDGET (fx->window), "f");
      /* under ASan the key can take longer than the input flush to be handled */
      g_assert_true (tw_test_wait_until (is_following, state, WAIT_MS));
      tw_view_state_pan (state, -0.5);
      g_assert_false (tw_view_state_get_following (state));
      gtk_widget_grab_focus (tw_window_get_timeline (fx->window));
      tw_test_input_keys (GTK_WIDGET (fx->window), "End");
      g_assert_true (tw_test_wait_until (is_following, state, WAIT_MS));
      tw_view_state_pan (state, -0.5);
    }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-follow", NULL));
  g_assert_true (tw_view_state_get_following (state));
  commit_pairs (fx, 10);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  wait.beyond = tw_trace_get_last_time (tw_live_session_get_trace (fx->session));
  g_assert_true (tw_test_wait_until (view_end_beyond, &wait, WAIT_MS));
}

static gboolean
store_has_all (gpointer data)
{
  Fixture *fx = data;

  return tw_trace_get_n_events (tw_live_session_get_trace (fx->session)) == 2 * fx->committed;
}

/* Paused: the view range and the state model stay, the store grows; resumed: all of it. */
static void
test_pause (Fixture       *fx,
            gconstpointer  data)
{
  TwViewState *state;
  TwStateModel *model;
  guint64 begin, end, begin2, end2, processed;
  EndBeyond wait;

  SKIP_WITHOUT_DISPLAY ();
  start_session (fx);
  state = tw_window_get_view_state (fx->window);
  model = tw_live_session_get_model (fx->session);
  commit_pairs (fx, 10);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
  g_assert_true (tw_live_session_get_paused (fx->session));
  tw_view_state_get_visible_range (state, &begin, &end);
  processed = tw_state_model_get_n_processed (model);
  g_assert_cmpuint (processed, ==, 20);
  commit_pairs (fx, 15);
  g_assert_true (tw_test_wait_until (store_has_all, fx, WAIT_MS));
  spin (200);
  tw_view_state_get_visible_range (state, &begin2, &end2);
  g_assert_cmpuint (begin2, ==, begin);
  g_assert_cmpuint (end2, ==, end);
  g_assert_cmpuint (tw_state_model_get_n_processed (model), ==, processed);
  g_assert_cmpuint (tw_trace_get_n_events (tw_live_session_get_trace (fx->session)), ==, 50);

  /* resumed: everything that arrived meanwhile, the view at the newest data */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
  g_assert_false (tw_live_session_get_paused (fx->session));
  g_assert_cmpuint (tw_state_model_get_n_processed (model), ==, 50);
  wait = (EndBeyond) { state, tw_trace_get_last_time (tw_live_session_get_trace (fx->session)) };
  g_assert_true (tw_test_wait_until (view_end_beyond, &wait, WAIT_MS));
}

static gboolean
recorder_idle (gpointer data)
{
  return !tw_recorder_get_busy (data);
}

/* Record… writes what was stored (in a worker thread, see test-story-record.c); the file
 * opens again with the same events. */
static void
test_record (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tw-record-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "live.csv", NULL);
  g_autofree char *bad = g_build_filename (dir, "no-such-dir", "live.csv", NULL);
  g_autoptr(TwTrace) reread = NULL;
  TwTrace *trace;
  const char *message;

  SKIP_WITHOUT_DISPLAY ();
  start_session (fx);
  commit_pairs (fx, 40);
  g_assert_true (tw_test_wait_until (store_has_all, fx, WAIT_MS));
  trace = tw_live_session_get_trace (fx->session);

  g_assert_true (tw_window_record (fx->window, path, &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (recorder_idle, tw_window_get_recorder (fx->window), WAIT_MS));
  reread = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (reread), ==, 80);
  for (guint64 i = 0; i < 80; i++)
    g_assert_cmpuint (tw_trace_get_time (reread, i), ==, tw_trace_get_time (trace, i));
  /* the session goes on */
  commit_pairs (fx, 5);
  g_assert_true (tw_test_wait_until (store_has_all, fx, WAIT_MS));

  /* an error names the file and shows in the window */
  g_assert_true (tw_window_record (fx->window, bad, &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (recorder_idle, tw_window_get_recorder (fx->window), WAIT_MS));
  message = tw_window_get_error_message (fx->window);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, bad));
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));

  g_unlink (path);
  g_rmdir (dir);
}

typedef struct {
  TwHistogramView *view;
  guint64          count;
} HistCount;

static gboolean
histogram_has (gpointer data)
{
  HistCount *h = data;
  TwHistogram *histogram = tw_histogram_view_get_histogram (h->view);

  return histogram && tw_histogram_get_count (histogram) == h->count;
}

/* A user metric job@start → job@end added during the session: one measurement per
 * committed pair, counted by the histogram as the pairs arrive. */
static void
test_histogram (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  HistCount h;

  SKIP_WITHOUT_DISPLAY ();
  start_session (fx);
  pane = tw_window_get_evaluations_pane (fx->window);
  commit_pairs (fx, 3);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, "job@start", "job@end", TRUE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 1);
  h = (HistCount) { tw_evaluations_pane_get_histogram_view (pane, 0), 3 };
  g_assert_true (histogram_has (&h));

  for (guint round = 0; round < 5; round++)
    {
      commit_pairs (fx, 17);
      h.count = fx->committed;
      if (!tw_test_wait_until (histogram_has, &h, WAIT_MS))
        {
          TwMonitorSourceInfo info;

          for (guint i = 0; tw_live_session_get_source_info (fx->session, i, &info); i++)
            g_test_message ("%s: received %" G_GUINT64_FORMAT " late %" G_GUINT64_FORMAT, info.name,
                            info.counts.received, info.counts.late);
          g_test_message ("store %" G_GUINT64_FORMAT " rows, histogram %" G_GUINT64_FORMAT ", error %s",
                          tw_trace_get_n_events (tw_live_session_get_trace (fx->session)),
                          tw_histogram_get_count (tw_histogram_view_get_histogram (h.view)),
                          tw_evaluations_pane_get_error_message (pane, 0));
          g_assert_not_reached ();
        }
      g_assert_true (tw_evaluations_pane_is_running (pane, 0));
    }
  g_assert_cmpuint (tw_histogram_get_count (tw_histogram_view_get_histogram (h.view)), ==, 88);
  g_assert_null (tw_evaluations_pane_get_error_message (pane, 0));
}

/* The sensor's task gets a row, and its marks are drawn where the elements are. */
static void
test_pixels (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tw-live-png-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
  GtkWidget *timeline;
  TwTimelinePainter *painter;
  TwTimelineViewport vp;
  const TwTimelineRow *rows;
  cairo_surface_t *surface;
  TwTrace *trace;
  guint n_rows;
  int task_row = -1, y, mark_x, empty_x;
  double mark_rgb[3], empty_rgb[3];
  guint64 mark_time;

  SKIP_WITHOUT_DISPLAY ();
  start_session (fx);
  commit_pairs (fx, 1);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  /* 300 ms later, a second burst: the time between is empty on the row */
  spin (300);
  commit_pairs (fx, 1);
  g_assert_true (tw_test_wait_until (model_has_all, fx, WAIT_MS));
  spin (400);   /* a relayout (≤ 4 per second) gives the task its row */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
  trace = tw_live_session_get_trace (fx->session);
  mark_time = tw_trace_get_time (trace, 0);
  tw_view_state_set_visible_range (tw_window_get_view_state (fx->window), mark_time - 100000000,
                                   mark_time + 500000000);
  timeline = tw_window_get_timeline (fx->window);
  tw_test_wait_frames (timeline, 2);

  painter = tw_timeline_get_painter (TW_TIMELINE (timeline));
  rows = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &n_rows);
  for (guint r = 0; r < n_rows; r++)
    if (rows[r].kind == TW_TIMELINE_ROW_TASK
        && g_strcmp0 (tw_trace_get_task (trace, rows[r].id)->name, "job") == 0)
      task_row = (int) r;
  g_assert_cmpint (task_row, >=, 0);

  g_assert_true (tw_timeline_export (TW_TIMELINE (timeline), png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  tw_timeline_get_viewport (TW_TIMELINE (timeline), &vp);
  y = TW_TIMELINE_RULER_HEIGHT + rows[task_row].y - (int) vp.scroll_y;
  g_assert_cmpint (y + rows[task_row].height, <, cairo_image_surface_get_height (surface));
  mark_x = (int) tw_timeline_viewport_time_to_x (&vp, mark_time);
  empty_x = (int) tw_timeline_viewport_time_to_x (&vp, mark_time + 150000000);
  /* a mark is a small tick in the row at its time; 150 ms later the row is empty */
  {
    gboolean differs = FALSE, empty_uniform = TRUE;
    double first_empty[3];

    tw_test_surface_get_rgb (surface, empty_x, y + 2, first_empty);
    for (int dy = 2; dy < rows[task_row].height - 2; dy++)
      {
        tw_test_surface_get_rgb (surface, empty_x, y + dy, empty_rgb);
        empty_uniform &= tw_test_rgb_near (empty_rgb, first_empty);
        for (int dx = -2; dx <= 2; dx++)
          {
            tw_test_surface_get_rgb (surface, mark_x + dx, y + dy, mark_rgb);
            differs |= !tw_test_rgb_near (mark_rgb, empty_rgb);
          }
      }
    g_assert_true (empty_uniform);
    g_assert_true (differs);
  }
  cairo_surface_destroy (surface);
  g_unlink (png);
  g_rmdir (dir);
}

/* Attach to Sensors… and Record… have their keys; the live actions are off without a
 * live session. */
static void
test_actions (Fixture       *fx,
              gconstpointer  data)
{
  g_auto(GStrv) attach = NULL;
  g_auto(GStrv) record = NULL;

  SKIP_WITHOUT_DISPLAY ();
  attach = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.attach-sensors");
  record = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.record");
  g_assert_true (g_strv_contains ((const char * const *) attach, "<Control>l"));
  g_assert_true (g_strv_contains ((const char * const *) record, "<Control>r"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "attach-sensors"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fx->window), "record"));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fx->window), "live-follow"));
  start_session (fx);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx->window), "record"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fx->window), "live-pause"));
}

typedef struct {
  TwLiveSession *session;
  guint          n_sensors;
} DemoWait;

static gboolean
demo_sensors_received (gpointer data)
{
  DemoWait *w = data;
  guint n = tw_live_session_get_n_sources (w->session), receiving = 0;

  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;

      tw_live_session_get_source_info (w->session, i, &info);
      receiving += info.sensor && info.counts.received > 0;
    }
  return receiving >= w->n_sensors;
}

/* Whether a process runs with @text in its command line. */
static gboolean
process_with_argument (const char *text)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  while (proc && (name = g_dir_read_name (proc)))
    {
      g_autofree char *path = g_build_filename ("/proc", name, "cmdline", NULL);
      g_autofree char *cmdline = NULL;
      gsize len = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &cmdline, &len, NULL))
        continue;
      for (gsize i = 0; i + 1 < len; i++)
        if (cmdline[i] == '\0')
          cmdline[i] = ' ';
      if (strstr (cmdline, text))
        return TRUE;
    }
  return FALSE;
}

/* --live-demo: the demo program writes into a private directory from the session's
 * start; its seven sensors arrive; stopping the session ends the demo and removes the
 * directory. */
static void
test_demo (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  const char *program = g_getenv ("TW_DEMO_RT");
  DemoWait wait;

  SKIP_WITHOUT_DISPLAY ();
  if (program == NULL)
    {
      g_test_skip ("TW_DEMO_RT not set (run through meson test)");
      return;
    }
  fx->session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_spawn_demo (fx->session, program, &error));
  g_assert_no_error (error);
  dir = g_strdup (tw_live_session_get_sensor_dir (fx->session));
  g_assert_cmpstr (dir, !=, fx->sensor_dir);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  g_assert_false (process_with_argument (dir));     /* not before the session starts */
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
  g_assert_true (process_with_argument (dir));

  /* job-start and job-end of three threads, and the shared steps sensor */
  wait = (DemoWait) { fx->session, 7 };
  g_assert_true (tw_test_wait_until (demo_sensors_received, &wait, WAIT_MS));

  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  g_assert_false (process_with_argument (dir));
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

/* tracewb --live-demo looks beside itself and in the bindir; a missing program is an
 * error that says where it looked. */
static void
test_demo_lookup (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *empty = g_dir_make_tmp ("tw-nodemo-XXXXXX", &error);
  g_autofree char *full = g_dir_make_tmp ("tw-demo-XXXXXX", &error);
  g_autofree char *program = g_build_filename (full, TW_LIVE_DEMO_PROGRAM, NULL);
  g_autofree char *found = NULL;
  g_autofree char *expected = g_build_filename (empty, TW_LIVE_DEMO_PROGRAM, NULL);
  const char *dirs[] = { empty, NULL, NULL };
  g_auto(GStrv) defaults = tw_live_dup_demo_search_dirs ();

  g_assert_null (tw_live_find_demo_program (dirs, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, expected));
  g_clear_error (&error);

  /* a file that is not executable is not the program */
  g_assert_true (g_file_set_contents (program, "#!/bin/sh\n", -1, NULL));
  dirs[1] = full;
  g_assert_null (tw_live_find_demo_program (dirs, &error));
  g_clear_error (&error);
  g_assert_cmpint (g_chmod (program, 0755), ==, 0);
  found = tw_live_find_demo_program (dirs, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (found, ==, program);

  /* the defaults: the test program's own directory first, then the bindir */
  g_assert_cmpuint (g_strv_length (defaults), ==, 2);
  g_assert_cmpstr (defaults[1], ==, TW_BINDIR);

  g_unlink (program);
  g_rmdir (full);
  g_rmdir (empty);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func, capacity) \
  g_test_add ("/tw/app/live/" path, Fixture, GUINT_TO_POINTER (capacity), fixture_setup, func, fixture_teardown)
  ADD ("sensors-pane", test_sensors_pane, 16);
  ADD ("declared-stream", test_declared_stream, 0);
  ADD ("follow", test_follow, 0);
  ADD ("pause", test_pause, 0);
  ADD ("record", test_record, 0);
  ADD ("histogram", test_histogram, 0);
  ADD ("pixels", test_pixels, 0);
  ADD ("actions", test_actions, 0);
  ADD ("demo", test_demo, 0);
#undef ADD
  g_test_add_func ("/tw/app/live/demo-lookup", test_demo_lookup);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
