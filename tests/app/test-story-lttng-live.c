/* test-story-lttng-live.c: a user attaches the window to an LTTng live session
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A private session daemon and relay (tests/lib/tw-test-lttng.h), a UST program
 * emitting job start/end pairs as tracelog events. The user lists the relay's sessions
 * in File ▸ Attach to LTTng…, attaches (or starts `tracewb --live net://…`), sees rows
 * arrive, adds a duration metric start → end whose histogram grows as jobs run, and
 * sees the Sensors tab say so when the relay goes away, with nothing received lost.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-evaluations-pane.h"
#include "tw-live-session.h"
#include "tw-lttng-attach-dialog.h"
#include "tw-sensors-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-lttng.h"
#include "tw-test-task-marks.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 30000

static TwApplication *app;

typedef struct {
  TwTestLttng    lt;
  TwWindow      *window;
  TwLiveSession *session;
  guint16        start_type, end_type;
  guint64        want;
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  tw_test_lttng_start (&fx->lt);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (fx->window)
    gtk_window_destroy (GTK_WINDOW (fx->window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&fx->session);
  tw_test_lttng_stop (&fx->lt);
}

/* Runs the main loop for @ms. */
static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

static TwMonitorSourceInfo
source_info (Fixture *fx)
{
  TwMonitorSourceInfo info;

  g_assert_true (tw_live_session_get_source_info (fx->session, 0, &info));
  return info;
}

static gboolean
connected (gpointer data)
{
  Fixture *fx = data;

  return source_info (fx).connection == TW_LIVE_CONNECTION_CONNECTED;
}

static gboolean
lost (gpointer data)
{
  Fixture *fx = data;

  return source_info (fx).connection == TW_LIVE_CONNECTION_LOST;
}

/* The tracelog types of the pairs (their names are lttng-ust's), once they arrived. */
static gboolean
have_pair_types (gpointer data)
{
  Fixture *fx = data;
  TwTrace *trace = tw_live_session_get_trace (fx->session);

  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    {
      const char *name = tw_trace_get_event_type (trace, t)->name;

      if (g_str_has_prefix (name, "lttng_ust_tracelog:") && strstr (name, "INFO"))
        fx->start_type = t;
      else if (g_str_has_prefix (name, "lttng_ust_tracelog:") && strstr (name, "WARN"))
        fx->end_type = t;
    }
  return fx->start_type != TW_TYPE_NONE && fx->end_type != TW_TYPE_NONE;
}

static guint64
count_type (TwTrace *trace,
            guint16  type)
{
  guint64 n = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      n += event.type == type;
    }
  return n;
}

/* The time of the @n-th (from 0) event of @type. */
static guint64
time_of_nth (TwTrace *trace,
             guint16  type,
             guint64  n)
{
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      if (event.type == type && n-- == 0)
        return event.time;
    }
  g_assert_not_reached ();
  return 0;
}

static gboolean
store_has_pairs (gpointer data)
{
  Fixture *fx = data;

  return have_pair_types (fx)
         && count_type (tw_live_session_get_trace (fx->session), fx->end_type) == fx->want;
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

static gboolean
dialog_listed (gpointer data)
{
  return tw_lttng_attach_dialog_get_n_sessions (data) > 0;
}

static void
attached (TwLttngAttachDialog *dialog,
          const char *const   *urls,
          gpointer             data)
{
  Fixture *fx = data;

  g_assert_cmpuint (g_strv_length ((GStrv) urls), ==, 1);
  fx->window = tw_application_start_lttng_live (app, urls, NULL);
}

/* Jobs as rows, the window following, a metric's histogram counting them as they come. */
static void
follow_jobs (Fixture *fx)
{
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  HistCount h;

  g_assert_nonnull (fx->window);
  fx->session = g_object_ref (tw_window_get_live_session (fx->window));
  g_assert_true (tw_test_wait_until (connected, fx, WAIT_MS));
  fx->start_type = fx->end_type = TW_TYPE_NONE;

  /* the new viewer attaches at the streams' end: a live timer period to settle */
  spin (300);
  g_assert_true (tw_test_lttng_emit_mode (&fx->lt, 10, 1000, "pairs"));
  fx->want = 10;
  g_assert_true (tw_test_wait_until (store_has_pairs, fx, WAIT_MS));
  g_assert_cmpuint (count_type (tw_live_session_get_trace (fx->session), fx->start_type), ==, 10);
  g_assert_cmpuint (tw_live_session_get_newest_time (fx->session), >, 0);

  pane = tw_window_get_evaluations_pane (fx->window);
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, tw_trace_get_event_type (tw_live_session_get_trace (fx->session), fx->start_type)->name,
                                                      tw_trace_get_event_type (tw_live_session_get_trace (fx->session), fx->end_type)->name,
                                                      TRUE, &error));
  g_assert_no_error (error);
  h = (HistCount) { tw_evaluations_pane_get_histogram_view (pane, 0), 10 };
  g_assert_true (tw_test_wait_until (histogram_has, &h, WAIT_MS));

  /* more jobs: the live evaluation counts them as they arrive */
  g_assert_true (tw_test_lttng_emit_mode (&fx->lt, 25, 1000, "pairs"));
  h.count = 35;
  g_assert_true (tw_test_wait_until (histogram_has, &h, WAIT_MS));
  g_assert_true (tw_evaluations_pane_is_running (pane, 0));
  g_assert_null (tw_evaluations_pane_get_error_message (pane, 0));
}

typedef struct {
  TwStateModel *model;
  TwTrace      *trace;
  guint64       time;
} ModelReach;

/* Whether the state model has taken every row up to @time. */
static gboolean
model_reached (gpointer data)
{
  ModelReach *reach = data;
  guint64 n = tw_state_model_get_n_processed (reach->model);
  TwEvent event;

  if (n == 0)
    return FALSE;
  tw_trace_get_event (reach->trace, n - 1, &event);
  return event.time >= reach->time;
}

/* No kernel events: the emitter's task still has a row, the end of the first ten jobs
 * drawn on it, the wait before the next 25 empty. */
static void
check_task_marks (Fixture *fx)
{
  TwTrace *trace = tw_live_session_get_trace (fx->session);
  guint64 last_end, next_start;

  last_end = time_of_nth (trace, fx->end_type, 9);
  next_start = time_of_nth (trace, fx->start_type, 10);
  /* Pause freezes the state model: it must have taken the events drawn here first
   * (under ASan it lags the store by more than the relayout's wait) */
  g_assert_true (tw_test_wait_until (model_reached, &(ModelReach) {
                   tw_live_session_get_model (fx->session), trace, next_start }, WAIT_MS));
  spin (400);   /* a relayout (≤ 4 per second) gives the task its row */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
  g_assert_cmpuint (next_start, >, last_end);
  tw_test_assert_task_marks (fx->window, trace, "lttng-emit", last_end - (next_start - last_end), next_start,
                             last_end, last_end + (next_start - last_end) / 2);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
}

/* `tracewb --live net://…`, then the relay goes away: the Sensors tab says so, the
 * window keeps what it has, no dialog. */
static void
test_command_line (Fixture       *fx,
                   gconstpointer  data)
{
  g_autofree char *url = NULL;
  g_autofree char *said = NULL;
  TwMonitorSourceInfo info;
  guint64 rows;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "bench", 100000));
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  url = tw_test_lttng_url (&fx->lt, "bench");
  fx->window = tw_application_start_lttng_live (app, (const char *[]) { url, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (fx->window));
  follow_jobs (fx);
  check_task_marks (fx);

  rows = tw_trace_get_n_events (tw_live_session_get_trace (fx->session));
  tw_test_lttng_stop_relayd (&fx->lt);
  g_assert_true (tw_test_wait_until (lost, fx, WAIT_MS));
  info = source_info (fx);
  said = tw_sensors_pane_describe_connection (&info);
  g_test_message ("Sensors tab: %s", said);
  g_assert_nonnull (strstr (said, "connection lost"));
  g_assert_null (tw_window_get_error_message (fx->window));
  g_assert_cmpuint (tw_trace_get_n_events (tw_live_session_get_trace (fx->session)), ==, rows);
  g_assert_true (tw_live_session_is_running (fx->session));
}

/* File ▸ Attach to LTTng…: the relay's sessions listed, one chosen. */
static void
test_dialog (Fixture       *fx,
             gconstpointer  data)
{
  g_autofree char *relay = NULL;
  TwLttngAttachDialog *dialog;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "chosen", 100000));
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  relay = tw_test_lttng_url (&fx->lt, NULL);
  dialog = tw_lttng_attach_dialog_new (NULL);
  g_signal_connect (dialog, "attach", G_CALLBACK (attached), fx);
  gtk_window_present (GTK_WINDOW (dialog));
  tw_lttng_attach_dialog_list (dialog, relay);
  g_assert_true (tw_test_wait_until (dialog_listed, dialog, WAIT_MS));
  g_assert_cmpuint (tw_lttng_attach_dialog_get_n_sessions (dialog), ==, 1);
  g_assert_cmpstr (tw_lttng_attach_dialog_get_status (dialog), ==, "1 session");
  g_assert_true (tw_lttng_attach_dialog_select (dialog, 0, TRUE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (dialog), "lttng-attach.attach", NULL));
  follow_jobs (fx);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add ("/tw/app/lttng-live/command-line", Fixture, NULL, fixture_setup, test_command_line, fixture_teardown);
  g_test_add ("/tw/app/lttng-live/dialog", Fixture, NULL, fixture_setup, test_dialog, fixture_teardown);
  return g_test_run ();
}
