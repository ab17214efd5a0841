/* test-story-lttng-targets.c: a user follows two LTTng targets in one window
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two targets in namespaces of their own (hostnames tA and tB, tests/lib/tw-test-lttng-lab.h)
 * behind one relay. The user starts `tracewb --live URL_A --live URL_B`: one window,
 * one timeline, each host's emitter with a row of its own labelled by its host, the rows
 * of one host together, each row drawing its events (pixels read back from the
 * exported timeline). Or, in File ▸ Attach to LTTng…, lists the lab's relay and a second
 * relay, checks a session of each host, and attaches them all to one window.
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-lttng-attach-dialog.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-lttng-lab.h"
#include "tw-test-lttng-window.h"
#include "tw-test-task-marks.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS     30000
#define TRACEF_NAME "lttng_ust_tracef:event"

static TwApplication *app;

typedef struct {
  TwLiveSession *session;
  guint64        want_a, want_b;
} Follow;

static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    g_main_context_iteration (NULL, FALSE), g_usleep (1000);
}

/* The first and last time of @host's tracef events, and how many; @first_task: the name
 * of the task that logged the first one. */
static guint64
host_events_full (TwTrace     *trace,
                  const char  *host,
                  guint64     *first,
                  guint64     *last,
                  const char **first_task)
{
  guint16 type = tw_trace_lookup_event_type (trace, TRACEF_NAME);
  guint64 n = 0;

  *first = G_MAXUINT64;
  *last = 0;
  for (guint64 i = 0; type != TW_TYPE_NONE && i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const TwTask *task;

      tw_trace_get_event (trace, i, &event);
      task = tw_trace_get_task (trace, event.task);
      if (event.type != type || task == NULL || g_strcmp0 (task->host, host) != 0)
        continue;
      if (event.time < *first && first_task)
        *first_task = task->name;
      *first = MIN (*first, event.time);
      *last = MAX (*last, event.time);
      n++;
    }
  return n;
}

static guint64
host_events (TwTrace    *trace,
             const char *host,
             guint64    *first,
             guint64    *last)
{
  return host_events_full (trace, host, first, last, NULL);
}

static gboolean
stored_all (gpointer data)
{
  Follow *f = data;
  TwTrace *trace = tw_live_session_get_trace (f->session);
  guint64 first, last;

  return host_events (trace, "tA", &first, &last) == f->want_a
         && host_events (trace, "tB", &first, &last) == f->want_b;
}

/* The timeline's layout has a task row of each host. */
static gboolean
both_hosts_have_rows (gpointer data)
{
  return tw_test_timeline_has_task_row_of (data, "tA") && tw_test_timeline_has_task_row_of (data, "tB");
}

static void
test_two_targets (void)
{
  TwTestLab lab;
  g_autofree char *url_a = NULL, *url_b = NULL;
  TwWindow *window;
  Follow f = { NULL, 30, 20 };
  TwTimelinePainter *painter;
  TwTimelineLayout *layout;
  const TwTimelineRow *rows;
  TwTrace *trace;
  guint n_rows;
  int row_a = -1, row_b = -1, cpu_rows = 0;
  guint64 first_a, last_a, first_b, last_b, from, to;
  const char *task_a = NULL, *task_b = NULL;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  if (!tw_test_lab_start (&lab))
    return;
  tw_test_lab_open_sessions (&lab, "bench", &url_a, &url_b);

  window = tw_application_start_lttng_live (app, (const char *[]) { url_a, url_b, NULL }, NULL);
  g_assert_null (tw_window_get_error_message (window));
  f.session = g_object_ref (tw_window_get_live_session (window));
  g_assert_cmpuint (tw_live_session_get_n_remotes (f.session), ==, 2);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "/host/tB/bench"));
  g_assert_true (tw_test_wait_until (tw_test_live_all_connected, f.session, WAIT_MS));
  spin (300);   /* a new viewer attaches at the streams' end: a live timer to settle */
  g_assert_true (tw_test_lab_emit (&lab, 0, 30, 1000));
  g_assert_true (tw_test_lab_emit (&lab, 1, 20, 1000));
  g_assert_true (tw_test_wait_until (stored_all, &f, WAIT_MS));
  g_assert_true (tw_test_wait_until (both_hosts_have_rows, window, WAIT_MS));
  spin (300);   /* the relayout's frame */

  /* each host's emitter has its row, labelled by its host; tA's rows before tB's */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.live-pause", NULL));
  trace = tw_live_session_get_trace (f.session);
  painter = tw_timeline_get_painter (TW_TIMELINE (tw_window_get_timeline (window)));
  layout = tw_timeline_painter_get_layout (painter);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  for (guint r = 0; r < n_rows; r++)
    {
      g_autofree char *label = tw_timeline_layout_dup_row_label (layout, &rows[r]);

      if (rows[r].kind == TW_TIMELINE_ROW_CPU)
        {
          /* a CPU of one host or the other, never a bare number */
          g_assert_true (g_str_has_prefix (label, "tA: CPU ") || g_str_has_prefix (label, "tB: CPU "));
          cpu_rows++;
        }
      if (rows[r].kind != TW_TIMELINE_ROW_TASK && rows[r].kind != TW_TIMELINE_ROW_PROCESS)
        continue;
      g_test_message ("row %u: %s", r, label);
      g_assert_true (g_str_has_prefix (label, "tA: ") || g_str_has_prefix (label, "tB: "));
      if (g_str_has_prefix (label, "tA: ") && row_a < 0)
        row_a = (int) r;
      if (g_str_has_prefix (label, "tB: "))
        {
          row_b = (int) r;
          g_assert_cmpint (row_a, >=, 0);   /* grouped: no tA row after a tB row */
        }
      else
        g_assert_cmpint (row_b, <, 0);
    }
  g_assert_cmpint (row_a, >=, 0);
  g_assert_cmpint (row_b, >, row_a);
  g_assert_cmpint (cpu_rows, >=, 2);

  /* a header row per host, tA's on top; folding it leaves only tB's rows under tB's */
  g_assert_cmpuint (tw_timeline_layout_get_n_host_groups (layout), ==, 2);
  g_assert_cmpuint (rows[0].kind, ==, TW_TIMELINE_ROW_HOST);
  {
    g_autofree char *label = tw_timeline_layout_dup_row_label (layout, &rows[0]);

    g_test_message ("row 0: %s", label);
    g_assert_true (g_str_has_prefix (label, "tA ("));
  }
  g_assert_true (gtk_widget_activate_action (tw_window_get_timeline (window), "timeline.toggle-row", "u", 0));
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_true (tw_timeline_layout_is_collapsed (layout, 0));
  g_assert_cmpuint (rows[1].kind, ==, TW_TIMELINE_ROW_HOST);
  for (guint r = 2; r < n_rows; r++)
    {
      g_autofree char *label = tw_timeline_layout_dup_row_label (layout, &rows[r]);

      if (rows[r].kind == TW_TIMELINE_ROW_CPU || rows[r].kind == TW_TIMELINE_ROW_TASK)
        g_assert_true (g_str_has_prefix (label, "tB: "));
    }
  g_assert_true (gtk_widget_activate_action (tw_window_get_timeline (window), "timeline.toggle-row", "u", 0));

  /* both rows draw their events: each host's run, then nothing after it */
  /* each host's emitter has threads of similar names ("lttng-emit-…", "lttng-emit-ust-…"):
   * the row checked is that of the task that logged the first event */
  g_assert_cmpuint (host_events_full (trace, "tA", &first_a, &last_a, &task_a), ==, 30);
  g_assert_cmpuint (host_events_full (trace, "tB", &first_b, &last_b, &task_b), ==, 20);
  from = MIN (first_a, first_b);
  to = MAX (last_a, last_b);
  to += to - from;
  /* a margin before the first event: the host that happens to log first would otherwise
   * have its first mark on the view's left edge, half outside the picture */
  from -= MIN (from, (to - from) / 8);
  tw_test_assert_host_task_marks (window, trace, "tA", task_a, from, to, first_a,
                                  to - (to - MAX (last_a, last_b)) / 4);
  tw_test_assert_host_task_marks (window, trace, "tB", task_b, from, to, first_b,
                                  to - (to - MAX (last_a, last_b)) / 4);

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_clear_object (&f.session);
  tw_test_lab_stop (&lab);
}

typedef struct {
  TwLttngAttachDialog *dialog;
  guint                n;
} Listed;

static gboolean
dialog_listed (gpointer data)
{
  Listed *l = data;

  return tw_lttng_attach_dialog_get_n_sessions (l->dialog) == l->n
         && strstr (tw_lttng_attach_dialog_get_status (l->dialog), "Asking") == NULL;
}

static void
attached (TwLttngAttachDialog *dialog,
          const char *const   *urls,
          gpointer             data)
{
  TwWindow **window = data;

  g_assert_cmpuint (g_strv_length ((GStrv) urls), ==, 3);
  *window = tw_application_start_lttng_live (app, urls, NULL);
}

static gboolean
three_connected (gpointer data)
{
  TwLiveSession *session = data;

  for (guint i = 0; i < 3; i++)
    {
      TwMonitorSourceInfo info;

      if (!tw_live_session_get_source_info (session, i, &info)
          || info.connection != TW_LIVE_CONNECTION_CONNECTED)
        return FALSE;
    }
  return TRUE;
}

/* The dialog lists the lab's relay (two targets), then a second relay (this machine's
 * own session): three sessions, all checked, one window of three hosts. */
static void
test_dialog_two_relays (void)
{
  TwTestLab lab;
  TwTestLttng local;
  g_autofree char *relay_a = NULL, *relay_b = NULL;
  TwWindow *window = NULL;
  Listed listed;
  TwLiveSession *session;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  if (!tw_test_lab_start (&lab))
    return;
  if (!tw_test_lttng_start (&local))
    {
      tw_test_lab_stop (&lab);
      return;
    }
  g_assert_true (tw_test_lab_create_session (&lab, 0, "bench"));
  g_assert_true (tw_test_lab_create_session (&lab, 1, "bench"));
  g_assert_true (tw_test_lttng_create_session (&local, "here", 100000));
  g_assert_true (tw_test_lab_emit (&lab, 0, 0, 0));
  g_assert_true (tw_test_lab_emit (&lab, 1, 0, 0));
  g_assert_true (tw_test_lttng_emit (&local, 0, 0));
  relay_a = g_strdup_printf ("net://127.0.0.1:%u", lab.relay.ports[2]);
  relay_b = tw_test_lttng_url (&local, NULL);

  listed.dialog = tw_lttng_attach_dialog_new (NULL);
  g_signal_connect (listed.dialog, "attach", G_CALLBACK (attached), &window);
  gtk_window_present (GTK_WINDOW (listed.dialog));
  tw_lttng_attach_dialog_list (listed.dialog, relay_a);
  listed.n = 2;
  g_assert_true (tw_test_wait_until (dialog_listed, &listed, WAIT_MS));
  g_assert_true (g_str_has_prefix (tw_lttng_attach_dialog_get_status (listed.dialog), "2 sessions: "));
  /* the same relay again replaces its own rows */
  tw_lttng_attach_dialog_list (listed.dialog, relay_a);
  g_assert_true (tw_test_wait_until (dialog_listed, &listed, WAIT_MS));
  /* a second relay adds its sessions below */
  tw_lttng_attach_dialog_list (listed.dialog, relay_b);
  listed.n = 3;
  g_assert_true (tw_test_wait_until (dialog_listed, &listed, WAIT_MS));
  g_assert_nonnull (strstr (tw_lttng_attach_dialog_get_status (listed.dialog), "3 sessions"));
  for (guint i = 0; i < 3; i++)
    g_assert_true (tw_lttng_attach_dialog_select (listed.dialog, i, TRUE));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (listed.dialog), "lttng-attach.attach", NULL));

  g_assert_nonnull (window);
  g_assert_null (tw_window_get_error_message (window));
  session = tw_window_get_live_session (window);
  g_assert_cmpuint (tw_live_session_get_n_remotes (session), ==, 3);
  g_assert_true (tw_test_wait_until (three_connected, session, WAIT_MS));

  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  tw_test_lttng_stop (&local);
  tw_test_lab_stop (&lab);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/lttng-live/two-targets", test_two_targets);
  g_test_add_func ("/tw/app/lttng-live/dialog-two-relays", test_dialog_two_relays);
  return g_test_run ();
}
