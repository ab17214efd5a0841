/* test-story-first-frame.c: a cold open shows the timeline before the load is complete
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue "Scale" §3: the window draws a trace's first frame as soon as the first rows are
 * read, the CPU rows drawn, while the state model is still being built; once the load is
 * complete, the model is the one a single update builds (every element, every summary
 * from bins and exact) and the timeline paints the same pixels as on that model.
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS   120000
#define N_EVENTS  6000000

static TwApplication *app;

typedef struct {
  TwWindow *window;
  gboolean  seen;
  gboolean  loading;        /* at the first frame */
  char     *page;
  guint64   n_processed;    /* of the model shown, at the first frame */
  guint     cpu_colours;    /* distinct colours along CPU 0's row */
} FirstFrame;

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

static gboolean
frame_seen (gpointer data)
{
  return ((FirstFrame *) data)->seen;
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guint8 *row = cairo_image_surface_get_data (surface) + (gsize) y * cairo_image_surface_get_stride (surface);

  return ((const guint32 *) row)[x];
}

/* Distinct colours along the middle of CPU 0's row, in the time area. */
static guint
count_cpu_colours (GtkWidget *timeline)
{
  TwTimelinePainter *painter = tw_timeline_get_painter (TW_TIMELINE (timeline));
  TwTimelineLayout *layout = tw_timeline_painter_get_layout (painter);
  g_autoptr(GHashTable) colours = g_hash_table_new (NULL, NULL);
  cairo_surface_t *surface = tw_test_grab_widget (timeline);
  int index = tw_timeline_layout_find_cpu_row (layout, 0);
  const TwTimelineRow *rows;
  guint n_rows;
  int y, width = cairo_image_surface_get_width (surface);

  g_assert_cmpint (index, >=, 0);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  y = TW_TIMELINE_RULER_HEIGHT + rows[index].y + rows[index].height * 3 / 4;
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  cairo_surface_flush (surface);
  for (int x = TW_TIMELINE_LABEL_WIDTH + 2; x < width - 2; x++)
    g_hash_table_add (colours, GUINT_TO_POINTER (pixel_at (surface, x, y)));
  cairo_surface_destroy (surface);
  return g_hash_table_size (colours);
}

static void
first_frame_cb (TwWindow   *window,
                FirstFrame *ff)
{
  TwViewState *state = tw_window_get_view_state (window);

  g_assert_false (ff->seen);
  ff->seen = TRUE;
  ff->loading = tw_window_get_loading (window);
  ff->page = g_strdup (tw_window_get_page (window));
  g_assert_nonnull (state);
  ff->n_processed = tw_state_model_get_n_processed (tw_view_state_get_model (state));
  ff->cpu_colours = count_cpu_colours (tw_window_get_timeline (window));
}

static void
assert_same_summaries (TwStateModel *a,
                       TwStateModel *b,
                       TwSeries      series,
                       guint         id)
{
  TwTrace *trace = tw_state_model_get_trace (a);
  guint64 first = tw_trace_get_first_time (trace);
  guint64 last = tw_trace_get_last_time (trace) + 1;
  const guint widths[] = { 7, 300, 1920 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint exact = 0; exact < 2; exact++)
      {
        g_autofree TwSummary *sa = g_new (TwSummary, widths[w]);
        g_autofree TwSummary *sb = g_new (TwSummary, widths[w]);
        double per = (double) (last - first) / widths[w];

        tw_state_model_summarize (a, series, id, first, per, widths[w], exact, sa);
        tw_state_model_summarize (b, series, id, first, per, widths[w], exact, sb);
        g_assert_cmpmem (sa, widths[w] * sizeof *sa, sb, widths[w] * sizeof *sb);
      }
}

/* Every element and summary of the two models agree. */
static void
assert_same_models (TwStateModel *a,
                    TwStateModel *b)
{
  TwTrace *trace = tw_state_model_get_trace (a);

  g_assert_cmpuint (tw_state_model_get_n_processed (a), ==, tw_state_model_get_n_processed (b));
  g_assert_cmpuint (tw_state_model_get_n_cpus (a), ==, tw_state_model_get_n_cpus (b));
  for (guint c = 0; c < tw_state_model_get_n_cpus (a); c++)
    {
      gsize na, nb;
      const TwRunInterval *ra = tw_state_model_get_cpu_runs (a, c, &na);
      const TwRunInterval *rb = tw_state_model_get_cpu_runs (b, c, &nb);

      g_assert_cmpuint (na, ==, nb);
      for (gsize i = 0; i < na; i++)
        g_assert_true (ra[i].start == rb[i].start && ra[i].end == rb[i].end && ra[i].task == rb[i].task);
      tw_state_model_get_cpu_irqs (a, c, &na);
      tw_state_model_get_cpu_irqs (b, c, &nb);
      g_assert_cmpuint (na, ==, nb);
      assert_same_summaries (a, b, TW_SERIES_CPU_RUNS, c);
      assert_same_summaries (a, b, TW_SERIES_CPU_IRQS, c);
      assert_same_summaries (a, b, TW_SERIES_CPU_MARKS, c);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      gsize na, nb;
      const TwTaskInterval *sa = tw_state_model_get_task_states (a, k, &na);
      const TwTaskInterval *sb = tw_state_model_get_task_states (b, k, &nb);

      g_assert_cmpuint (na, ==, nb);
      for (gsize i = 0; i < na; i++)
        g_assert_true (sa[i].start == sb[i].start && sa[i].end == sb[i].end &&
                       sa[i].cpu == sb[i].cpu && sa[i].state == sb[i].state);
      g_assert_cmpuint (tw_state_model_get_task_cpu_time (a, k), ==, tw_state_model_get_task_cpu_time (b, k));
      assert_same_summaries (a, b, TW_SERIES_TASK_STATES, k);
      assert_same_summaries (a, b, TW_SERIES_TASK_MARKS, k);
    }
}

static cairo_surface_t *
paint (TwTimelinePainter *painter,
       guint64            begin,
       guint64            end)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 600);
  TwTimelineViewport vp = { 0 };
  cairo_t *cr = cairo_create (surface);

  vp.begin_ns = begin;
  vp.end_ns = end;
  vp.width = 1920;
  vp.height = 600;
  vp.cursor_ns = TW_TIME_NONE;
  tw_timeline_painter_draw (painter, cr, &vp);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
assert_same_frames (TwTimelinePainter *a,
                    TwTimelinePainter *b,
                    guint64            begin,
                    guint64            end)
{
  cairo_surface_t *sa = paint (a, begin, end);
  cairo_surface_t *sb = paint (b, begin, end);
  gsize bytes = (gsize) cairo_image_surface_get_stride (sa) * cairo_image_surface_get_height (sa);

  g_assert_cmpmem (cairo_image_surface_get_data (sa), bytes, cairo_image_surface_get_data (sb), bytes);
  cairo_surface_destroy (sa);
  cairo_surface_destroy (sb);
}

static char *
simulate_dump (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-first-frame-XXXXXX", NULL);
  char *path = g_build_filename (dir, "cold.shark", NULL);
  g_autoptr(GError) error = NULL;
  TwSimulatorOptions options;

  tw_simulator_options_init (&options);
  options.max_events = N_EVENTS;
  options.n_tasks = 8;
  options.utilization = 0.8;
  options.overrun_probability = 0.01;
  g_assert_true (tw_simulator_write_file (&options, path, NULL, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_first_frame_early (void)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(TwStateModel) reference = NULL;
  g_autoptr(TwTimelinePainter) reference_painter = NULL;
  g_autoptr(GError) error = NULL;
  FirstFrame ff = { 0 };
  TwStateModel *shown;
  TwTrace *trace;
  guint64 first, last;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  path = simulate_dump ();
  file = g_file_new_for_path (path);
  tw_trace_cache_set_default_enabled (FALSE);
  ff.window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (ff.window), 1280, 900);
  g_signal_connect (ff.window, "first-frame", G_CALLBACK (first_frame_cb), &ff);

  tw_window_open_file (ff.window, file);
  g_assert_true (tw_test_wait_until (not_loading, ff.window, WAIT_MS));

  /* the first frame came while the load went on, the trace page on, CPU 0's runs drawn
   * (its idle background and the colours of several tasks) */
  g_assert_true (ff.seen);
  g_assert_true (ff.loading);
  g_assert_cmpstr (ff.page, ==, "trace");
  shown = tw_view_state_get_model (tw_window_get_view_state (ff.window));
  trace = tw_state_model_get_trace (shown);
  g_assert_cmpuint (tw_trace_get_n_events (trace), >, N_EVENTS / 2);
  g_assert_cmpuint (ff.n_processed, >, 0);
  g_assert_cmpuint (ff.n_processed, <, tw_trace_get_n_events (trace));
  g_assert_cmpuint (ff.cpu_colours, >=, 3);

  /* complete: the model a single update builds, the same pixels */
  g_assert_true (tw_trace_is_sealed (trace));
  reference = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (reference, NULL, &error));
  g_assert_no_error (error);
  assert_same_models (shown, reference);
  reference_painter = tw_timeline_painter_new (reference);
  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace) + 1;
  assert_same_frames (tw_timeline_get_painter (TW_TIMELINE (tw_window_get_timeline (ff.window))),
                      reference_painter, first, last);
  assert_same_frames (tw_timeline_get_painter (TW_TIMELINE (tw_window_get_timeline (ff.window))),
                      reference_painter, first + (last - first) / 3, first + (last - first) / 3 + 50000000);
  /* the rows in the order a layout of the whole model gives */
  {
    TwTimelinePainter *painter = tw_timeline_get_painter (TW_TIMELINE (tw_window_get_timeline (ff.window)));
    guint na, nb;
    const TwTimelineRow *ra = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &na);
    const TwTimelineRow *rb = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (reference_painter), &nb);

    g_assert_cmpuint (na, ==, nb);
    g_assert_cmpmem (ra, na * sizeof *ra, rb, nb * sizeof *rb);
  }
  /* the panes got the trace */
  g_assert_true (tw_event_list_get_view_state (tw_window_get_event_list (ff.window)) ==
                 tw_window_get_view_state (ff.window));

  tw_test_close_window (GTK_WINDOW (ff.window));
  g_free (ff.page);
  g_unlink (path);
  {
    g_autofree char *dir = g_path_get_dirname (path);

    g_rmdir (dir);
  }
}

/* Rows out of time order: the reader sorts them at the end, after the window showed
 * them; the view is dropped before and shown again on the sorted trace. */
static void
test_rows_sorted_at_seal (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-first-frame-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "unsorted.csv", NULL);
  g_autoptr(GString) csv = g_string_new ("time_ns,cpu,task,event,next,prev_state\n");
  g_autoptr(GFile) file = NULL;
  g_autoptr(TwStateModel) reference = NULL;
  g_autoptr(GError) error = NULL;
  FirstFrame ff = { 0 };
  TwStateModel *shown;
  const guint n = 300000;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  /* the later half of the switches first */
  for (guint half = 0; half < 2; half++)
    for (guint i = 0; i < n / 2; i++)
      {
        guint k = (half == 0 ? n / 2 : 0) + i;

        g_string_append_printf (csv, "%u,%u,t%u,switch,t%u,%s\n", 1000 + k * 10, k % 2, k % 5,
                                (k + 1) % 5, k % 3 ? "R" : "S");
      }
  g_assert_true (g_file_set_contents (path, csv->str, csv->len, &error));
  file = g_file_new_for_path (path);
  tw_trace_cache_set_default_enabled (FALSE);
  ff.window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (ff.window), 1280, 900);
  g_signal_connect (ff.window, "first-frame", G_CALLBACK (first_frame_cb), &ff);

  tw_window_open_file (ff.window, file);
  g_assert_true (tw_test_wait_until (not_loading, ff.window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (ff.window));
  g_assert_cmpstr (tw_window_get_page (ff.window), ==, "trace");
  /* a load that ends before the frame clock painted has its first frame just after */
  g_assert_true (tw_test_wait_until (frame_seen, &ff, WAIT_MS));
  shown = tw_view_state_get_model (tw_window_get_view_state (ff.window));
  g_assert_cmpuint (tw_trace_get_n_events (tw_state_model_get_trace (shown)), ==, n);
  reference = tw_state_model_new (tw_state_model_get_trace (shown));
  g_assert_true (tw_state_model_update (reference, NULL, &error));
  assert_same_models (shown, reference);

  tw_test_close_window (GTK_WINDOW (ff.window));
  g_free (ff.page);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/story-first-frame/early-then-same", test_first_frame_early);
  g_test_add_func ("/tw/app/story-first-frame/rows-sorted-at-seal", test_rows_sorted_at_seal);
  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
