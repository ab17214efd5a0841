/* test-story-explain-path.c: a user explains the worst response time of a task and sees
 * the explanation on the timeline: the measured interval on its row, the tasks that
 * preempted it tinted on theirs, and the critical path back to the timer that released
 * it; Show on Timeline brings it all into view, Escape and Clear take it off
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-application.h"
#include "tw-explain-path.h"
#include "tw-test-app.h"
#include "tw-test-explain.h"
#include "tw-test-gtk.h"
#include "tw-test-pixels.h"
#include "tw-worst-case-page.h"

static TwApplication *app;
static gboolean have_display;

typedef TwTestExplainFixture Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  tw_test_explain_fixture_setup (fx, have_display ? GTK_APPLICATION (app) : NULL);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  tw_test_explain_fixture_teardown (fx);
}

/* Clicks the button of @panel labelled @label. */
static void
click_button (TwExplainPanel *panel,
             const char     *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  tw_test_collect_descendants (GTK_WIDGET (panel), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      {
        g_assert_true (gtk_widget_is_drawable (g_ptr_array_index (buttons, i)));
        g_signal_emit_by_name (g_ptr_array_index (buttons, i), "clicked");
        return;
      }
  g_assert_not_reached ();
}

/* What the timeline shows now, exported as the user would (light style), read back. */
static cairo_surface_t *
export_timeline (TwTimeline *timeline)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (tw_test_get_private_dir (), "explain-path.png", NULL);
  cairo_surface_t *surface;

  g_assert_true (tw_timeline_export (timeline, path, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  g_remove (path);
  return surface;
}

/* The top of @row in the timeline's pixels, asserting the row is in view. */
static int
row_top (TwTimeline               *timeline,
         const TwTimelineViewport *vp,
         int                       row)
{
  const TwTimelineRow *rows;
  guint n_rows;
  int y;

  g_assert_cmpint (row, >=, 0);
  rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows);
  y = TW_TIMELINE_RULER_HEIGHT + rows[row].y - (int) vp->scroll_y;
  g_assert_cmpint (y, >=, TW_TIMELINE_RULER_HEIGHT);
  g_assert_cmpint (y + rows[row].height, <=, vp->height);
  return y;
}

static int
row_height (TwTimeline *timeline,
            int         row)
{
  guint n_rows;

  return tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows)[row].height;
}

static gboolean
pixel_is (cairo_surface_t *surface,
          int              x,
          int              y,
          const double     rgba[4])
{
  double rgb[3];

  tw_test_surface_get_rgb (surface, x, y, rgb);
  return tw_test_rgb_near (rgb, rgba);
}

/* Opens the header bar's Legend popover and tells whether it explains the path's
 * colours: its "Explained path" heading is on screen, and (@colors given) its swatches
 * at the top carry the path's accent and the tint of a task that ran instead. */
static gboolean
legend_explains_path (TwWindow               *window,
                      const TwTimelineColors *colors)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GtkWidget *legend, *popover;
  gboolean heading = FALSE;

  tw_test_collect_descendants (gtk_window_get_titlebar (GTK_WINDOW (window)),
                               TW_TYPE_TIMELINE_LEGEND_VIEW, views);
  g_assert_cmpuint (views->len, ==, 1);
  legend = g_ptr_array_index (views, 0);
  popover = gtk_widget_get_ancestor (legend, GTK_TYPE_POPOVER);
  gtk_menu_button_popup (GTK_MENU_BUTTON (gtk_widget_get_parent (popover)));
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  tw_test_wait_frames (popover, 3);
  g_assert_true (gtk_widget_get_mapped (popover));

  tw_test_collect_descendants (legend, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), "Explained path") == 0)
      heading = gtk_widget_get_mapped (g_ptr_array_index (labels, i));
  if (heading && colors != NULL)
    {
      cairo_surface_t *surface = tw_test_grab_widget (legend);

      tw_test_save_widget_png (legend, "explain-path-legend.png");
      int height = MIN (cairo_image_surface_get_height (surface), 400);
      gboolean path = FALSE, culprit = FALSE;

      for (int y = 0; y < height; y++)
        for (int x = 0; x < 60; x++)
          {
            path |= pixel_is (surface, x, y, colors->path);
            culprit |= pixel_is (surface, x, y, colors->culprit);
          }
      cairo_surface_destroy (surface);
      g_assert_true (path);
      g_assert_true (culprit);
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  return heading;
}

/* The longest culprit stretch on @task's row. */
static const TwTimelineHighlightSegment *
longest_culprit (const TwTimelineHighlight *h,
                 guint32                    task)
{
  const TwTimelineHighlightSegment *found = NULL;

  for (guint i = 0; i < h->segments->len; i++)
    {
      const TwTimelineHighlightSegment *s = &g_array_index (h->segments, TwTimelineHighlightSegment, i);

      if (s->role == TW_TIMELINE_HIGHLIGHT_CULPRIT && s->place.kind == TW_TIMELINE_PLACE_TASK
          && s->place.id == task && (found == NULL || s->end - s->begin > found->end - found->begin))
        found = s;
    }
  return found;
}

/* The worst job of the lowest-priority task, explained from Fig. 4 of the worst-case
 * page, is on the timeline: its interval framed on its row in the accent colour, the
 * task that preempted it most tinted on its row over a stretch it ran, and the link
 * of its release from the timer's CPU row to its row at the wakeup. */
static void
test_show_and_clear (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  cairo_surface_t *shown, *cleared;
  const TwSimulatorJobTruth *job;
  const TwTimelineHighlightSegment *culprit;
  const TwTimelineHighlightLink *link;
  TwTimelineHighlight *h;
  TwTimelineColors colors;
  TwTimelineViewport vp;
  TwEvaluationsPane *pane;
  TwWorstCasePage *page;
  TwExplainPanel *panel;
  TwViewState *view_state;
  TwTimeline *timeline;
  TwTrace *trace;
  TwWorstCase *wc;
  guint task_index, preemptor = G_MAXUINT, row = G_MAXUINT;
  guint32 task;
  int measured_row, culprit_row, from_row, y, x, x0, x1;
  guint64 lo, hi, bounds_lo, bounds_hi;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  truth = tw_test_open_simulated_dump (fx->window, &fx->dump);
  job = tw_test_explain_worst_job (truth, &task_index);
  view_state = tw_window_get_view_state (fx->window);
  trace = tw_view_state_get_trace (view_state);
  timeline = TW_TIMELINE (tw_window_get_timeline (fx->window));
  task = tw_test_find_task_by_pid (trace, truth->tasks[task_index].pid);
  for (guint k = 0; k < truth->n_tasks; k++)
    if (job->preempted_ns[k] > 0 && (preemptor == G_MAXUINT || job->preempted_ns[k] > job->preempted_ns[preemptor]))
      preemptor = k;
  /* the simulator's worst job of its lowest-priority task is preempted */
  g_assert_cmpuint (preemptor, !=, G_MAXUINT);

  /* the worst case, and a click on the task's row of Fig. 4 */
  pane = tw_window_get_evaluations_pane (fx->window);
  {
    GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);

    gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                   gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  }
  g_assert_true (tw_evaluations_pane_compute_worst_case (pane, "task_activate", "task_end_cycle", NULL));
  g_assert_true (tw_test_wait_until (tw_test_worst_case_done, pane, TW_TEST_EXPLAIN_WAIT_MS));
  wc = tw_evaluations_pane_get_worst_case (pane);
  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_WORST_CASE_PAGE, pages);
  g_assert_cmpuint (pages->len, ==, 1);
  page = g_ptr_array_index (pages, 0);
  panel = tw_worst_case_page_get_explain_panel (page);
  tw_test_collect_descendants (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, views);
  for (guint r = 0; r < tw_worst_case_get_n_rows (wc); r++)
    if (tw_worst_case_get_task (wc, r) == task)
      row = r;
  g_assert_cmpuint (row, !=, G_MAXUINT);
  g_signal_emit_by_name (g_ptr_array_index (views, 0), "activate", row);
  g_assert_true (tw_test_wait_until (tw_test_explain_panel_done, panel, TW_TEST_EXPLAIN_WAIT_MS));

  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  /* explained: the path is on the timeline at once */
  h = tw_explain_panel_get_highlight (panel);
  g_assert_nonnull (h);
  g_assert_true (tw_view_state_get_highlight (view_state) == h);
  g_assert_cmpuint (h->begin, ==, job->begin_ns);
  g_assert_cmpuint (h->end, ==, job->end_ns);

  /* the Legend says what the path's colours mean, in the theme's colours */
  {
    TwPalette palette;
    TwTimelineColors theme;

    tw_palette_init_from_widget (&palette, GTK_WIDGET (timeline));
    tw_timeline_colors_init (&theme, &palette);
    g_assert_true (legend_explains_path (fx->window, &theme));
  }

  /* Show on Timeline: the whole path in view, its rows scrolled to */
  tw_view_state_set_visible_range (view_state, tw_trace_get_first_time (trace),
                                   tw_trace_get_first_time (trace) + 1000);
  click_button (panel, "Show on Timeline");
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  tw_view_state_get_visible_range (view_state, &lo, &hi);
  tw_timeline_highlight_get_bounds (h, &bounds_lo, &bounds_hi);
  g_assert_cmpuint (lo, <=, bounds_lo);
  g_assert_cmpuint (hi, >=, bounds_hi);
  g_assert_cmpuint (hi - lo, <=, 2 * (bounds_hi - bounds_lo));
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "explain-path.png");

  tw_timeline_get_viewport (timeline, &vp);
  tw_timeline_colors_init (&colors, NULL);
  shown = export_timeline (timeline);

  /* the measured interval's frame, on the task's row */
  measured_row = tw_timeline_layout_find_task_row (tw_timeline_get_layout (timeline), task);
  y = row_top (timeline, &vp, measured_row);
  x0 = (int) tw_timeline_viewport_time_to_x (&vp, job->begin_ns);
  x1 = (int) tw_timeline_viewport_time_to_x (&vp, job->end_ns);
  g_assert_cmpint (x1 - x0, >, 20);
  for (x = x0 + 4; x < x1 - 4; x += (x1 - x0) / 8)
    g_assert_true (pixel_is (shown, x, y + 1, colors.path));

  /* the preempting task's row, tinted with its foot band over a stretch it ran */
  culprit = longest_culprit (h, tw_test_find_task_by_pid (trace, truth->tasks[preemptor].pid));
  g_assert_nonnull (culprit);
  g_assert_cmpuint (culprit->begin, >=, job->begin_ns);
  g_assert_cmpuint (culprit->end, <=, job->end_ns);
  culprit_row = tw_timeline_layout_find_task_row (tw_timeline_get_layout (timeline), culprit->place.id);
  y = row_top (timeline, &vp, culprit_row) + row_height (timeline, culprit_row) - 3;
  x = (int) tw_timeline_viewport_time_to_x (&vp, culprit->begin + (culprit->end - culprit->begin) / 2);
  g_assert_true (pixel_is (shown, x, y, colors.culprit));

  /* the release: a line from the timer's CPU row down to the task's row at the wakeup */
  g_assert_cmpuint (h->links->len, ==, 1);
  link = &g_array_index (h->links, TwTimelineHighlightLink, 0);
  g_assert_cmpint (link->from.kind, ==, TW_TIMELINE_PLACE_CPU);
  from_row = tw_timeline_layout_find_cpu_row (tw_timeline_get_layout (timeline), link->from.id);
  g_assert_cmpint (from_row, <, measured_row);
  x = (int) floor (tw_timeline_viewport_time_to_x (&vp, link->time));
  y = row_top (timeline, &vp, measured_row) - 4;  /* in a row between, not the task's */
  g_assert_cmpint (y, >, row_top (timeline, &vp, from_row) + row_height (timeline, from_row));
  g_assert_true (pixel_is (shown, x, y, colors.path));
  g_assert_false (pixel_is (shown, x - 8, y, colors.path));

  /* Escape on the timeline takes it off: none of it is drawn */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-selection", NULL));
  g_assert_null (tw_view_state_get_highlight (view_state));
  g_assert_null (tw_explain_panel_get_highlight (panel));
  g_assert_false (legend_explains_path (fx->window, NULL));
  cleared = export_timeline (timeline);
  y = row_top (timeline, &vp, measured_row);
  for (x = x0 + 4; x < x1 - 4; x += (x1 - x0) / 8)
    g_assert_false (pixel_is (cleared, x, y + 1, colors.path));
  x = (int) floor (tw_timeline_viewport_time_to_x (&vp, link->time));
  g_assert_false (pixel_is (cleared, x, y - 4, colors.path));
  y = row_top (timeline, &vp, culprit_row) + row_height (timeline, culprit_row) - 3;
  x = (int) tw_timeline_viewport_time_to_x (&vp, culprit->begin + (culprit->end - culprit->begin) / 2);
  g_assert_false (pixel_is (cleared, x, y, colors.culprit));
  cairo_surface_destroy (cleared);
  cairo_surface_destroy (shown);

  /* Show on Timeline puts it back; Clear takes it off again */
  click_button (panel, "Show on Timeline");
  g_assert_nonnull (tw_view_state_get_highlight (view_state));
  click_button (panel, "Clear");
  g_assert_null (tw_view_state_get_highlight (view_state));
  /* the explanation itself stays in the panel */
  g_assert_nonnull (tw_explain_panel_get_explanation (panel));
}

/* Opens @path in the fixture's window as the user would, once it shows the trace.
 * Returns: (transfer none): the window's view state */
static TwViewState *
open_in_window (Fixture    *fx,
                const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (tw_test_window_shows_trace, fx->window, TW_TEST_EXPLAIN_WAIT_MS));
  return tw_window_get_view_state (fx->window);
}

/* The panel in a window of its own explains @m of the view's trace, and the user
 * clicks Show on Timeline. Returns: the panel's window, for tw_test_close_window(). */
static GtkWidget *
explain_in_panel (TwViewState            *view_state,
                  const TwMeasurementRow *m,
                  TwExplainPanel        **panel_out)
{
  TwExplainPanel *panel = TW_EXPLAIN_PANEL (tw_explain_panel_new ());
  GtkWidget *panel_window = gtk_window_new ();

  gtk_window_set_child (GTK_WINDOW (panel_window), GTK_WIDGET (panel));
  tw_test_present_window (GTK_WINDOW (panel_window), 500, 400);
  tw_explain_panel_set_view_state (panel, view_state);
  tw_explain_panel_explain (panel, tw_view_state_get_trace (view_state), m);
  g_assert_true (tw_test_wait_until (tw_test_explain_panel_done, panel, TW_TEST_EXPLAIN_WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (panel), 2);
  click_button (panel, "Show on Timeline");
  *panel_out = panel;
  return panel_window;
}

/* Whether all task rows of @h lie in the timeline's page of rows now. */
static gboolean
task_rows_in_view (TwTimeline                *timeline,
                   const TwTimelineHighlight *h,
                   guint                     *n_tasks)
{
  TwTimelineLayout *layout = tw_timeline_get_layout (timeline);
  const TwTimelineRow *rows;
  TwTimelineViewport vp;
  guint n_rows;
  double lo = G_MAXDOUBLE, hi = 0;

  tw_timeline_get_viewport (timeline, &vp);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  *n_tasks = 0;
  for (guint i = 0; i <= h->segments->len; i++)
    {
      TwTimelinePlace place = i < h->segments->len
                              ? g_array_index (h->segments, TwTimelineHighlightSegment, i).place
                              : h->measured;
      int row;

      if (place.kind != TW_TIMELINE_PLACE_TASK)
        continue;
      row = tw_timeline_layout_find_task_row (layout, place.id);
      g_assert_cmpint (row, >=, 0);
      lo = MIN (lo, rows[row].y);
      hi = MAX (hi, rows[row].y + rows[row].height);
      (*n_tasks)++;
    }
  return lo >= vp.scroll_y && hi <= vp.scroll_y + vp.height - TW_TIMELINE_RULER_HEIGHT;
}

/* A wakeup latency of a real trace of 744 tasks whose path runs through rows far apart:
 * Show on Timeline shows the path's tasks alone, so every row of it is in view at
 * once; Escape gives all the tasks back. */
static void
test_real_trace_rows (Fixture       *fx,
                      gconstpointer  data)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autoptr(TwMetric) metric = tw_metric_new_system ("wakeup-latency", NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(GError) error = NULL;
  TwTimelineHighlight *h;
  const TwMeasurementRow *chosen = NULL;
  GtkWidget *panel_window;
  TwExplainPanel *panel;
  TwViewState *view_state;
  TwTimeline *timeline;
  TwTrace *trace;
  guint n_all_rows, n_rows, n_tasks;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.dat is not there");
      return;
    }
  view_state = open_in_window (fx, path);
  trace = tw_view_state_get_trace (view_state);
  timeline = TW_TIMELINE (tw_window_get_timeline (fx->window));
  tw_test_wait_frames (GTK_WIDGET (timeline), 2);
  tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_all_rows);

  /* the first latency over 1 ms whose tasks cannot share one page of rows */
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table) && chosen == NULL; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);
      g_autoptr(TwExplanation) e = NULL;
      g_autoptr(TwTimelineHighlight) candidate = NULL;

      if (m->length < 1000000)
        continue;
      e = tw_explain_measurement_in_window (trace, m, NULL);
      candidate = tw_explain_path_new_highlight (e, trace);
      tw_view_state_set_highlight (view_state, candidate);
      tw_view_state_reveal_highlight (view_state);
      if (!task_rows_in_view (timeline, candidate, &n_tasks) || n_tasks < 2)
        {
          tw_view_state_set_highlight (view_state, NULL);
          continue;
        }
      /* they share the page because the rows were filtered to them */
      tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows);
      tw_view_state_set_highlight (view_state, NULL);
      if (n_rows < n_all_rows)
        chosen = m;
    }
  g_assert_nonnull (chosen);
  tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows);
  g_assert_cmpuint (n_rows, ==, n_all_rows);

  /* the user's way: the panel explains it, Show on Timeline */
  panel_window = explain_in_panel (view_state, chosen, &panel);
  h = tw_explain_panel_get_highlight (panel);
  g_assert_nonnull (h);
  g_assert_true (task_rows_in_view (timeline, h, &n_tasks));
  g_assert_cmpuint (n_tasks, >=, 2);
  tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows);
  g_assert_cmpuint (n_rows, <, n_all_rows);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "explain-path-real.png");

  /* Escape: the path and its filter go */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.clear-selection", NULL));
  g_assert_null (tw_view_state_get_highlight (view_state));
  tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n_rows);
  g_assert_cmpuint (n_rows, ==, n_all_rows);
  tw_test_close_window (GTK_WINDOW (panel_window));
}

/* The path's task is a thread of a process the user folded (an LTTng kernel trace of
 * thousands of threads, grouped by process): Show on Timeline unfolds it, so the
 * measured interval is drawn on the task's own row, not on the header. */
static void
test_folded_process (Fixture       *fx,
                     gconstpointer  data)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autoptr(TwMetric) metric = tw_metric_new_system ("wakeup-latency", NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(GError) error = NULL;
  const TwMeasurementRow *chosen = NULL;
  const TwTimelineRow *rows;
  TwTimelineLayout *layout;
  GtkWidget *panel_window;
  TwExplainPanel *panel;
  TwViewState *view_state;
  TwTimeline *timeline;
  TwTrace *trace;
  guint n_rows, n_tasks;
  int row, header = -1;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  if (!HAVE_BABELTRACE || path == NULL)
    {
      g_test_skip ("shared/traces/ctf/lttng-kernel-many-threads is not there, or no babeltrace2");
      return;
    }
  view_state = open_in_window (fx, path);
  trace = tw_view_state_get_trace (view_state);
  timeline = TW_TIMELINE (tw_window_get_timeline (fx->window));
  layout = tw_timeline_get_layout (timeline);
  tw_test_wait_frames (GTK_WIDGET (timeline), 2);

  /* the first latency of a task that is one thread of a process with a header */
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table) && chosen == NULL; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

      row = tw_timeline_layout_find_task_row (layout, m->task);
      if (row < 0 || m->length < 10000)
        continue;
      header = tw_timeline_layout_find_header (layout, row);
      rows = tw_timeline_layout_get_rows (layout, &n_rows);
      if (header >= 0 && rows[header].kind == TW_TIMELINE_ROW_PROCESS)
        chosen = m;
    }
  g_assert_nonnull (chosen);

  /* the user folds the process: the task is drawn on its header */
  tw_timeline_layout_toggle_row (layout, header);
  row = tw_timeline_layout_find_task_row (layout, chosen->task);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_cmpint (rows[row].kind, ==, TW_TIMELINE_ROW_PROCESS);

  panel_window = explain_in_panel (view_state, chosen, &panel);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  /* unfolded: the task has its row again, and the path's task rows are in view */
  row = tw_timeline_layout_find_task_row (layout, chosen->task);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_cmpint (row, >=, 0);
  g_assert_cmpint (rows[row].kind, ==, TW_TIMELINE_ROW_TASK);
  g_assert_cmpuint (rows[row].id, ==, chosen->task);
  g_assert_true (task_rows_in_view (timeline, tw_explain_panel_get_highlight (panel), &n_tasks));
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "explain-path-folded.png");
  tw_test_close_window (GTK_WINDOW (panel_window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

  g_test_add ("/tw/app/story/explain-path/show-and-clear", Fixture, NULL, fixture_setup,
              test_show_and_clear, fixture_teardown);
  g_test_add ("/tw/app/story/explain-path/real-trace-rows", Fixture, NULL, fixture_setup,
              test_real_trace_rows, fixture_teardown);
  g_test_add ("/tw/app/story/explain-path/folded-process", Fixture, NULL, fixture_setup,
              test_folded_process, fixture_teardown);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
