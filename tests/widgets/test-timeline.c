/* test-timeline.c: the real timeline widget in a window, checked by its pixels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-widgets.h>

#include "tw-test-gtk.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"

typedef struct {
  TwTrace      *trace;
  TwStateModel *model;
  TwViewState  *state;
  GtkWidget    *window;
  TwTimeline   *timeline;
  guint32       a;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  guint16 sw = 0;
  guint32 idle;

  f->trace = tw_trace_new ();
  sw = tw_test_add_switch_type (f->trace);
  idle = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (f->trace, idle, TW_TASK_FLAG_IDLE);
  f->a = tw_trace_add_task (f->trace, "10", "a", 10, 10);
  tw_test_append_switch (f->trace, sw, 0, 0, idle, idle, NULL);
  tw_test_append_switch (f->trace, sw, 2000, 0, idle, f->a, NULL);
  tw_test_append_switch (f->trace, sw, 6000, 0, f->a, idle, "S");
  tw_test_append_switch (f->trace, sw, 10000, 0, idle, idle, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->state = tw_view_state_new (f->model);

  f->timeline = tw_test_present_timeline (f->state, 900, 300, &f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&f->window)));
  g_clear_object (&f->state);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

static int
cpu0_run_y (Fixture *f)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (f->timeline), &n);

  g_assert_cmpuint (rows[1].kind, ==, TW_TIMELINE_ROW_CPU);
  return TW_TIMELINE_RULER_HEIGHT + rows[1].y + rows[1].height - 8;
}

static void
test_draws_span (Fixture       *f,
                 gconstpointer  data)
{
  cairo_surface_t *surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  TwTimelineViewport vp;
  double a_rgb[3], px[3];

  tw_timeline_get_viewport (f->timeline, &vp);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (f->timeline), f->a, a_rgb);
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 4000), cpu0_run_y (f), px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 1000), cpu0_run_y (f), px);
  g_assert_false (tw_test_rgb_near (px, a_rgb));
  cairo_surface_destroy (surface);
}

static void
test_actions_zoom_around_cursor (Fixture       *f,
                                 gconstpointer  data)
{
  TwTimelineViewport before, after;
  cairo_surface_t *surface;
  double a_rgb[3], px[3];

  tw_view_state_set_cursor (f->state, 3000);
  tw_timeline_get_viewport (f->timeline, &before);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.zoom-in", NULL));
  tw_timeline_get_viewport (f->timeline, &after);
  g_assert_cmpuint (after.end_ns - after.begin_ns, <, before.end_ns - before.begin_ns);
  g_assert_cmpfloat (fabs (tw_timeline_viewport_time_to_x (&after, 3000)
                           - tw_timeline_viewport_time_to_x (&before, 3000)), <, 1.5);

  /* the zoomed frame really shows a's span wider than before */
  tw_test_wait_frames (GTK_WIDGET (f->timeline), 1);
  surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (f->timeline), f->a, a_rgb);
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&after, 2100), cpu0_run_y (f), px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  cairo_surface_destroy (surface);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.zoom-fit", NULL));
  tw_timeline_get_viewport (f->timeline, &after);
  g_assert_cmpuint (after.begin_ns, ==, 0);
  g_assert_cmpuint (after.end_ns, ==, 10001);

  /* showing all of it, a pan moves only into the margin of a twentieth at each end */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.pan-right", NULL));
  tw_timeline_get_viewport (f->timeline, &after);
  g_assert_cmpuint (after.begin_ns, ==, 500);
  g_assert_cmpuint (after.end_ns, ==, 10501);
}

static void
test_markers (Fixture       *f,
              gconstpointer  data)
{
  tw_view_state_set_cursor (f->state, 1000);
  gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.add-marker", NULL);
  tw_timeline_add_marker (f->timeline, 7000, "end of a");
  g_assert_cmpuint (tw_timeline_get_n_markers (f->timeline), ==, 2);
  g_assert_cmpstr (tw_timeline_get_marker (f->timeline, 0)->name, ==, "M1");
  g_assert_cmpstr (tw_timeline_get_marker (f->timeline, 1)->name, ==, "end of a");

  tw_view_state_set_cursor (f->state, 2000);
  gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.next-marker", NULL);
  g_assert_cmpuint (tw_view_state_get_cursor (f->state), ==, 7000);
  gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.previous-marker", NULL);
  g_assert_cmpuint (tw_view_state_get_cursor (f->state), ==, 1000);
}

static int
find_task_row (Fixture *f,
               guint32  task)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (f->timeline), &n);

  for (guint i = 0; i < n; i++)
    if (rows[i].kind == TW_TIMELINE_ROW_TASK && rows[i].id == task)
      return i;
  return -1;
}

static void
test_row_actions (Fixture       *f,
                  gconstpointer  data)
{
  TwTimelinePainter *painter = tw_timeline_get_painter (f->timeline);
  int row = find_task_row (f, f->a);
  guint n_before, n;

  g_assert_cmpint (row, >=, 0);
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &n_before);

  /* collapse the CPU section from its row, then expand it again */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.toggle-row", "u", 0));
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &n);
  g_assert_cmpuint (n, ==, n_before - 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.toggle-row", "u", 0));

  /* only a's row, then all again */
  row = find_task_row (f, f->a);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.filter-tasks", "u", row));
  g_assert_cmpint (find_task_row (f, f->a), >=, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.show-all-tasks", NULL));
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &n);
  g_assert_cmpuint (n, ==, n_before);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.sort", "s", "name"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.sort", "s", "cpu-time"));
  g_assert_cmpint (find_task_row (f, f->a), >=, 0);
}

static void
test_marker_naming (Fixture       *f,
                    gconstpointer  data)
{
  tw_view_state_set_cursor (f->state, 4000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->timeline), "timeline.add-marker", NULL));
  g_assert_cmpuint (tw_timeline_get_n_markers (f->timeline), ==, 1);
  g_assert_cmpstr (tw_timeline_get_marker (f->timeline, 0)->name, ==, "M1");

  tw_timeline_rename_marker (f->timeline, 0, "irq storm");
  g_assert_cmpstr (tw_timeline_get_marker (f->timeline, 0)->name, ==, "irq storm");
  g_assert_cmpuint (tw_timeline_get_marker (f->timeline, 0)->time, ==, 4000);
}

static void
test_export (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "timeline.png", NULL);
  g_autofree char *svg = g_build_filename (g_get_tmp_dir (), "timeline.svg", NULL);
  g_autofree char *bad = g_build_filename (g_get_tmp_dir (), "timeline.bmp", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *svg_text = NULL;
  cairo_surface_t *surface;
  TwTimelineViewport vp;
  double a_rgb[3], px[3];

  g_assert_true (tw_timeline_export (f->timeline, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  tw_timeline_get_viewport (f->timeline, &vp);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (f->timeline), f->a, a_rgb);
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 4000), cpu0_run_y (f), px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  cairo_surface_destroy (surface);

  g_assert_true (tw_timeline_export (f->timeline, svg, &error));
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));

  g_assert_false (tw_timeline_export (f->timeline, bad, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* A view 20 px high under the ruler, less than a CPU row: the rows scroll by pixels
 * through it, revealing it shows its top, and what is drawn follows. */
static void
test_row_taller_than_view (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *window = NULL;
  TwTimeline *timeline = tw_test_present_timeline (f->state, 900, TW_TIMELINE_RULER_HEIGHT + 20, &window);
  GtkAdjustment *vadj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_parent (GTK_WIDGET (timeline))));
  TwTimelineLayout *layout = tw_timeline_get_layout (timeline);
  int cpu0 = tw_timeline_layout_find_cpu_row (layout, 0);
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (layout, &n);
  cairo_surface_t *surface;
  TwTimelineViewport vp;
  double a_rgb[3], px[3];

  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (timeline)), <, TW_TIMELINE_RULER_HEIGHT + TW_TIMELINE_CPU_HEIGHT);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (vadj), <, rows[cpu0].height);

  tw_timeline_reveal_row (timeline, cpu0);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, rows[cpu0].y);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.page-down", NULL));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), >, rows[cpu0].y);

  /* scrolled to where a's run sits near the row's bottom: it is drawn there */
  gtk_adjustment_set_value (vadj, rows[cpu0].y + rows[cpu0].height - 20);
  tw_test_wait_frames (GTK_WIDGET (timeline), 2);
  surface = tw_test_grab_widget (GTK_WIDGET (timeline));
  tw_timeline_get_viewport (timeline, &vp);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (timeline), f->a, a_rgb);
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 4000),
                           cpu0_run_y (f) - (int) gtk_adjustment_get_value (vadj), px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  cairo_surface_destroy (surface);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A task of @host, named as a source of several targets names it. */
static guint32
add_host_task (TwTrace    *trace,
               const char *host,
               const char *id,
               const char *name)
{
  g_autofree char *source_id = g_strdup_printf ("%s/%s", host, id);
  guint32 task = tw_trace_add_task (trace, source_id, name, atoi (id), atoi (id));

  tw_trace_set_task_host (trace, task, host);
  return task;
}

/* The colour at (@x, @y) of what @timeline shows now. */
static void
pixel_at (TwTimeline *timeline,
          int         x,
          int         y,
          double      rgb[3])
{
  cairo_surface_t *surface;

  tw_test_wait_frames (GTK_WIDGET (timeline), 1);
  surface = tw_test_grab_widget (GTK_WIDGET (timeline));
  tw_test_surface_get_rgb (surface, x, y, rgb);
  cairo_surface_destroy (surface);
}

/* Two machines on one timeline: each has a header row in the theme's host colour, its CPU
 * rows below it show its tasks; Enter on the timeline folds the header over the top row,
 * or over the selected event's row, and what the folded host showed is gone from the
 * screen while the other host moves up. */
static void
test_host_headers (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwViewState) state = NULL;
  GtkWidget *window = NULL;
  TwTimeline *timeline;
  TwTimelineLayout *layout;
  TwTimelineColors colors;
  TwTimelineViewport vp;
  TwPalette palette;
  const TwTimelineRow *rows;
  guint n_rows;
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 b0 = tw_trace_add_host_cpu (trace, "beta", 0);
  guint16 a0 = tw_trace_add_host_cpu (trace, "alpha", 0);
  guint32 idle_a = add_host_task (trace, "alpha", "0", "swapper");
  guint32 idle_b = add_host_task (trace, "beta", "0", "swapper");
  guint32 work_a = add_host_task (trace, "alpha", "10", "work");
  guint32 work_b = add_host_task (trace, "beta", "10", "work");
  double px[3], a_rgb[3], b_rgb[3];
  int x_run, y_header0, y_cpu1, y_header_beta;

  tw_trace_set_task_flags (trace, idle_a, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (trace, idle_b, TW_TASK_FLAG_IDLE);
  tw_test_append_switch (trace, sw, 0, a0, idle_a, work_a, NULL);
  tw_test_append_switch (trace, sw, 0, b0, idle_b, work_b, NULL);
  tw_test_append_switch (trace, sw, 10000, a0, work_a, idle_a, "S");
  tw_test_append_switch (trace, sw, 10000, b0, work_b, idle_b, "S");
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  state = tw_view_state_new (model);
  timeline = tw_test_present_timeline (state, 900, 400, &window);
  layout = tw_timeline_get_layout (timeline);
  tw_palette_init_from_widget (&palette, GTK_WIDGET (timeline));
  tw_timeline_colors_init (&colors, &palette);
  tw_timeline_get_viewport (timeline, &vp);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (timeline), work_a, a_rgb);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (timeline), work_b, b_rgb);
  g_assert_false (tw_test_rgb_near (a_rgb, b_rgb));

  /* alpha's header, its CPU, its task; beta's header, its CPU, its task */
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_cmpuint (n_rows, ==, 6);
  g_assert_cmpuint (rows[0].kind, ==, TW_TIMELINE_ROW_HOST);
  g_assert_cmpuint (rows[1].kind, ==, TW_TIMELINE_ROW_CPU);
  g_assert_cmpuint (rows[1].id, ==, a0);
  g_assert_cmpuint (rows[3].kind, ==, TW_TIMELINE_ROW_HOST);
  g_assert_cmpuint (rows[4].id, ==, b0);
  x_run = (int) tw_timeline_viewport_time_to_x (&vp, 5000);
  y_header0 = TW_TIMELINE_RULER_HEIGHT + rows[0].y + rows[0].height / 2;
  y_cpu1 = TW_TIMELINE_RULER_HEIGHT + rows[1].y + rows[1].height - 8;
  y_header_beta = TW_TIMELINE_RULER_HEIGHT + rows[3].y + rows[3].height / 2;

  /* headers are the theme's host colour across the plot, unlike a section's */
  g_assert_false (tw_test_rgb_near (colors.host, colors.section));
  pixel_at (timeline, x_run, y_header0, px);
  g_assert_true (tw_test_rgb_near (px, colors.host));
  pixel_at (timeline, x_run, y_header_beta, px);
  g_assert_true (tw_test_rgb_near (px, colors.host));
  pixel_at (timeline, x_run, y_cpu1, px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));

  /* Enter with nothing selected folds the header over the top row: alpha; beta's rows
   * move up under it, its CPU showing beta's task where alpha's CPU was */
  gtk_widget_grab_focus (GTK_WIDGET (timeline));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.toggle-header", NULL));
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_cmpuint (n_rows, ==, 4);
  g_assert_true (tw_timeline_layout_is_collapsed (layout, 0));
  g_assert_cmpint (tw_timeline_layout_find_cpu_row (layout, a0), ==, 0);
  pixel_at (timeline, x_run, TW_TIMELINE_RULER_HEIGHT + rows[1].y + rows[1].height / 2, px);
  g_assert_true (tw_test_rgb_near (px, colors.host));
  pixel_at (timeline, x_run, TW_TIMELINE_RULER_HEIGHT + rows[2].y + rows[2].height - 8, px);
  g_assert_true (tw_test_rgb_near (px, b_rgb));

  /* an event of beta selected: Enter folds beta's header, the one over its row */
  tw_view_state_set_selected_event (state, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.toggle-header", NULL));
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  g_assert_cmpuint (n_rows, ==, 2);
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, work_b), ==, 1);
  pixel_at (timeline, x_run, TW_TIMELINE_RULER_HEIGHT + 2 * TW_TIMELINE_SECTION_HEIGHT + 10, px);
  g_assert_false (tw_test_rgb_near (px, b_rgb));
  g_assert_false (tw_test_rgb_near (px, a_rgb));
  /* and again unfolds it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (timeline), "timeline.toggle-header", NULL));
  g_assert_cmpuint ((tw_timeline_layout_get_rows (layout, &n_rows), n_rows), ==, 4);

  tw_test_close_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/widgets/timeline/draws-span", test_draws_span);
  ADD ("/tw/widgets/timeline/actions-zoom-around-cursor", test_actions_zoom_around_cursor);
  ADD ("/tw/widgets/timeline/markers", test_markers);
  ADD ("/tw/widgets/timeline/export", test_export);
  ADD ("/tw/widgets/timeline/row-actions", test_row_actions);
  ADD ("/tw/widgets/timeline/marker-naming", test_marker_naming);
  ADD ("/tw/widgets/timeline/row-taller-than-view", test_row_taller_than_view);
#undef ADD

  g_test_add_func ("/tw/widgets/timeline/host-headers", test_host_headers);
  return g_test_run ();
}
