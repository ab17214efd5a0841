/* bench-live-latency.c: commit-to-histogram latency of the live window (issue 6: ≤ 50 ms)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-live-latency [--pairs N] [--interval-ms MS] [--kernel] [--gtop]
 *
 * Needs a display (run under xvfb-run). A real window attaches live to a private sensor
 * directory with a user metric job@start → job@end open on the Evaluations tab, as a user
 * would set it up. A writer thread commits N pairs (default 200), one every MS ms
 * (default 20) at a jittered phase, and notes each job@end element's commit time
 * (CLOCK_MONOTONIC, the sensors' clock). After every frame the window paints
 * (GdkFrameClock::after-paint), the histogram's count says which pairs the painted frame
 * showed: latency = end of that paint − commit (measured in steady state: the writer
 * starts once the window has run for a second). Beside it, the peer from the same run:
 * commit to the state model's catching up at the display tick (the part without
 * evaluation and painting), and the poll thread's largest gap and longest poll.
 * With --kernel (root) and --gtop the kernel's context switches and the sampler load the
 * same window, as in `tracewb --live-demo`.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tw-sensor.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-window.h"

typedef struct {
  guint      n_pairs;
  guint      interval_ms;
  guint64   *commit_ns;        /* job@end commit time per pair */
  gint       n_committed;      /* atomic */
  TwSensor  *start;
  TwSensor  *end;
} Writer;

typedef struct {
  Writer          *writer;
  TwLiveSession   *session;
  TwHistogramView *view;
  GArray          *paint_latency;   /* double ms */
  GArray          *model_latency;   /* double ms */
  guint64          painted;         /* pairs counted by a painted frame */
  guint64          modelled;        /* pairs in the state model at a tick */
  guint64          scanned;         /* rows of the model looked at for job@end */
  GMainLoop       *loop;
} Probe;

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static gpointer
writer_thread (gpointer data)
{
  Writer *w = data;
  GRand *rand = g_rand_new_with_seed (6);

  for (guint i = 0; i < w->n_pairs; i++)
    {
      guint64 *element;

      /* jittered phase: commits do not line up with the poll or the frames */
      g_usleep (w->interval_ms * 1000 / 2 + g_rand_int_range (rand, 0, w->interval_ms * 1000));
      element = tw_sensor_write (w->start);
      *element = i;
      tw_sensor_commit (w->start, element);
      g_usleep (200);
      element = tw_sensor_write (w->end);
      *element = i;
      w->commit_ns[i] = tw_live_monotonic_ns ();
      tw_sensor_commit (w->end, element);
      g_atomic_int_set (&w->n_committed, (gint) i + 1);
    }
  g_rand_free (rand);
  return NULL;
}

static void
after_paint_cb (GdkFrameClock *clock,
                Probe         *probe)
{
  TwHistogram *histogram = tw_histogram_view_get_histogram (probe->view);
  guint64 now = tw_live_monotonic_ns ();
  guint64 count = histogram ? tw_histogram_get_count (histogram) : 0;

  for (; probe->painted < count; probe->painted++)
    {
      double ms = (now - probe->writer->commit_ns[probe->painted]) / 1e6;
      g_array_append_val (probe->paint_latency, ms);
    }
  if (probe->painted == probe->writer->n_pairs)
    g_main_loop_quit (probe->loop);
}

/* The session's display tick: the state model has caught up with the store. */
static void
updated_cb (TwLiveSession *session,
            Probe         *probe)
{
  TwTrace *trace = tw_live_session_get_trace (session);
  guint64 processed = tw_state_model_get_n_processed (tw_live_session_get_model (session));
  guint64 now = tw_live_monotonic_ns ();
  guint64 n = probe->modelled;

  /* the pairs whose job@end row the model has (the kernel's rows are mixed in) */
  for (; probe->scanned < processed; probe->scanned++)
    {
      TwEvent event;

      tw_trace_get_event (trace, probe->scanned, &event);
      n += strcmp (tw_trace_get_event_type (trace, event.type)->name, "job@end") == 0;
    }
  for (; probe->modelled < n && probe->modelled < probe->writer->n_pairs; probe->modelled++)
    {
      double ms = (now - probe->writer->commit_ns[probe->modelled]) / 1e6;
      g_array_append_val (probe->model_latency, ms);
    }
}

static void
print_figure (const char *what,
              GArray     *ms)
{
  double *v = (double *) ms->data;

  if (ms->len == 0)
    {
      printf ("%-44s no samples\n", what);
      return;
    }
  qsort (v, ms->len, sizeof (double), compare_double);
  printf ("%-44s median %6.1f ms  p99 %6.1f ms  max %6.1f ms  (n = %u)\n", what, v[ms->len / 2],
          v[MIN (ms->len - 1, (guint) (ms->len * 0.99))], v[ms->len - 1], ms->len);
}

static gboolean
timeout_cb (gpointer data)
{
  Probe *probe = data;

  g_printerr ("bench-live-latency: timed out with %" G_GUINT64_FORMAT " of %u pairs painted\n",
              probe->painted, probe->writer->n_pairs);
  g_main_loop_quit (probe->loop);
  return G_SOURCE_REMOVE;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— commit-to-histogram latency of the live window");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwApplication) app = NULL;
  g_autoptr(TwLiveSession) session = NULL;
  g_autofree char *parent = NULL, *dir = NULL;
  gint n_pairs = 200, interval_ms = 20;
  gboolean kernel = FALSE, gtop = FALSE;
  const GOptionEntry entries[] = {
    { "pairs", 0, 0, G_OPTION_ARG_INT, &n_pairs, "Pairs to commit (default 200)", "N" },
    { "interval-ms", 0, 0, G_OPTION_ARG_INT, &interval_ms, "Mean time between pairs (default 20)", "MS" },
    { "kernel", 0, 0, G_OPTION_ARG_NONE, &kernel, "Also read the kernel trace buffer (root)", NULL },
    { "gtop", 0, 0, G_OPTION_ARG_NONE, &gtop, "Also sample with libgtop", NULL },
    { NULL }
  };
  Writer writer = { 0 };
  Probe probe = { 0 };
  TwWindow *window;
  GThread *thread;
  GdkFrameClock *clock;
  struct timespec cpu0, cpu1;
  double wall0, wall1;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("bench-live-latency: %s\n", error->message);
      return 2;
    }
  if (n_pairs < 1 || interval_ms < 1)
    {
      g_printerr ("bench-live-latency: --pairs and --interval-ms must be ≥ 1\n");
      return 2;
    }
  if (!gtk_init_check ())
    {
      g_printerr ("bench-live-latency: no display (run under xvfb-run)\n");
      return 1;
    }

  parent = g_dir_make_tmp ("tw-bench-live-XXXXXX", &error);
  g_assert_no_error (error);
  dir = g_build_filename (parent, "sensors", NULL);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  writer.n_pairs = n_pairs;
  writer.interval_ms = interval_ms;
  writer.commit_ns = g_new0 (guint64, n_pairs);
  writer.start = tw_sensor_new ("job", "start", "u64 seq", 4096, TW_SENSOR_UNLINK_ON_FREE);
  writer.end = tw_sensor_new ("job", "end", "u64 seq", 4096, TW_SENSOR_UNLINK_ON_FREE);
  if (writer.start == NULL || writer.end == NULL)
    {
      g_printerr ("bench-live-latency: cannot make sensors in %s\n", dir);
      return 1;
    }

  app = tw_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, NULL);
  window = tw_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));

  session = tw_live_session_new (dir);
  if (!tw_live_session_start (session, (kernel ? TW_LIVE_SESSION_KERNEL : 0) | (gtop ? TW_LIVE_SESSION_GTOP : 0),
                              &error))
    {
      g_printerr ("bench-live-latency: %s\n", error->message);
      return 1;
    }
  if (*tw_live_session_get_notes (session))
    printf ("%s\n", tw_live_session_get_notes (session));
  tw_window_attach_live (window, session);
  /* the metric binds its event types by name: they exist once the sensors were seen */
  while (tw_trace_get_n_event_types (tw_live_session_get_trace (session)) < 2)
    g_main_context_iteration (NULL, TRUE);
  if (!tw_evaluations_pane_add_user_metric (tw_window_get_evaluations_pane (window), "job@start", "job@end",
                                            TRUE, &error))
    {
      g_printerr ("bench-live-latency: %s\n", error->message);
      return 1;
    }
  probe.view = tw_evaluations_pane_get_histogram_view (tw_window_get_evaluations_pane (window), 0);
  /* the Evaluations tab in front: its histogram is what gets painted */
  {
    GtkWidget *page = GTK_WIDGET (tw_window_get_evaluations_pane (window));
    GtkWidget *notebook = gtk_widget_get_ancestor (page, GTK_TYPE_NOTEBOOK);

    while (notebook && gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page) < 0)
      page = gtk_widget_get_parent (page);
    gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook), gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page));
  }

  probe.writer = &writer;
  probe.session = session;
  probe.paint_latency = g_array_new (FALSE, FALSE, sizeof (double));
  probe.model_latency = g_array_new (FALSE, FALSE, sizeof (double));
  probe.loop = g_main_loop_new (NULL, FALSE);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &probe);
  g_signal_connect (session, "updated", G_CALLBACK (updated_cb), &probe);

  /* steady state: the window's first layouts and paints of the new page are done */
  {
    gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC;

    while (g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, FALSE), g_usleep (1000);
  }
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu0);
  wall0 = g_get_monotonic_time () / 1e6;
  thread = g_thread_new ("writer", writer_thread, &writer);
  g_timeout_add_seconds ((guint) (n_pairs * interval_ms * 2 / 1000 + 30), timeout_cb, &probe);
  g_main_loop_run (probe.loop);
  g_thread_join (thread);
  wall1 = g_get_monotonic_time () / 1e6;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &cpu1);

  {
    guint64 n_polls, max_gap, max_poll;

    tw_live_session_get_poll_stats (session, &n_polls, &max_gap, &max_poll);
    printf ("live window, %d pairs every ~%d ms%s%s; %.1f s wall, %.2f s CPU (all threads)\n",
            n_pairs, interval_ms, kernel ? ", kernel" : "", gtop ? ", gtop" : "", wall1 - wall0,
            (cpu1.tv_sec - cpu0.tv_sec) + (cpu1.tv_nsec - cpu0.tv_nsec) / 1e9);
    print_figure ("commit → histogram painted (target ≤ 50 ms)", probe.paint_latency);
    print_figure ("peer: commit → state model at display tick", probe.model_latency);
    printf ("poll thread: %" G_GUINT64_FORMAT " polls, largest gap %.1f ms, longest poll %.2f ms\n",
            n_polls, max_gap / 1e6, max_poll / 1e6);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  tw_live_session_stop (session);
  tw_sensor_free (writer.start);
  tw_sensor_free (writer.end);
  g_rmdir (dir);
  g_rmdir (parent);
  g_free (writer.commit_ns);
  g_array_unref (probe.paint_latency);
  g_array_unref (probe.model_latency);
  g_main_loop_unref (probe.loop);
  return probe.painted == (guint64) n_pairs ? 0 : 1;
}
