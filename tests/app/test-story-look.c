/* test-story-look.c: what the views mean and how they look, in the real window
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Stories 1 and 7 of USER-STORIES.md: can a user tell what every colour and mark means
 * (the legend, the irq tooltip), and does the window hold up at 1024×768 and in a dark
 * theme (timeline, histogram and designer drawn in the theme's colours, exports light).
 */
#include "config.h"

#include <math.h>

#include "tw-application.h"
#include "tw-designer-window.h"
#include "tw-evaluations-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 30000
#define WIDTH   1024
#define HEIGHT  768

static TwApplication *app;

/* ------------------------------------------------------------------ the trace */

/* CPU 0: alpha, then beta from 1000 µs; irq 19 "eth0" in [2000, 2500) µs over beta.
 * CPU 1: gamma all along. Long enough spans that each is many pixels wide. */
static TwTrace *
build_trace (void)
{
  static const TwFieldSpec irq_fields[] = {
    { "irq", TW_FIELD_I64, TW_FIELD_FLAG_NONE },
    { "name", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  TwTrace *trace = tw_trace_new ();
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 irq_in = tw_trace_add_event_type (trace, "irq_handler_entry", NULL, TW_EVENT_KIND_IRQ_ENTRY,
                                            irq_fields, G_N_ELEMENTS (irq_fields), NULL);
  const TwEventType *irq_type = tw_trace_get_event_type (trace, irq_in);
  guint16 irq_out = tw_test_add_simple_type (trace, "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT);
  guint32 alpha = tw_trace_add_task (trace, "10", "alpha", 10, 10);
  guint32 beta = tw_trace_add_task (trace, "20", "beta", 20, 20);
  guint32 gamma = tw_trace_add_task (trace, "30", "gamma", 30, 30);
  guint8 payload[32] = { 0 };
  TwValue number = { .type = TW_FIELD_I64, .i = 19 };
  TwValue name = { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, "eth0") };

  g_assert_cmpuint (irq_type->payload_size, <=, sizeof payload);
  tw_event_type_set_field (irq_type, payload, 0, &number);
  tw_event_type_set_field (irq_type, payload, 1, &name);
  tw_test_append_switch (trace, sw, 0, 0, TW_TASK_NONE, alpha, NULL);
  tw_test_append_switch (trace, sw, 0, 1, TW_TASK_NONE, gamma, NULL);
  tw_test_append_switch (trace, sw, 1000000, 0, alpha, beta, "S");
  tw_trace_append (trace, 2000000, 0, irq_in, beta, 19, payload);
  tw_trace_append (trace, 2500000, 0, irq_out, beta, 19, NULL);
  tw_test_append_switch (trace, sw, 4000000, 1, gamma, alpha, "R+");
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

/* ------------------------------------------------------------------ helpers */

typedef struct {
  TwWindow *window;
} Fixture;

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (app == NULL)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), WIDTH, HEIGHT);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (app == NULL)
    return;
  tw_test_close_window (GTK_WINDOW (fx->window));
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
}

static gboolean
skip_without_display (void)
{
  if (app != NULL)
    return FALSE;
  g_test_skip ("no display");
  return TRUE;
}

static void
load_built_trace (Fixture *fx)
{
  g_autoptr(TwTrace) trace = build_trace ();

  tw_window_load_trace (fx->window, trace, "built");
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
}

/* FALSE (the test skipped) when the shared traces are not there. */
static gboolean
load_shared_trace (Fixture    *fx,
                   const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GFile) file = NULL;

  if (path == NULL)
    {
      g_test_skip ("the shared traces are missing");
      return FALSE;
    }
  file = g_file_new_for_path (path);
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  return TRUE;
}

static TwTimeline *
timeline_of (Fixture *fx)
{
  return TW_TIMELINE (tw_window_get_timeline (fx->window));
}

static const TwTimelineRow *
find_row (TwTimeline        *timeline,
          TwTimelineRowKind  kind,
          guint32            id)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (timeline), &n);

  for (guint i = 0; i < n; i++)
    if (rows[i].kind == kind && rows[i].id == id)
      return &rows[i];
  g_error ("no row of kind %d and id %u", kind, id);
}

/* The largest drawing area inside @widget: a view's plot rather than its icons. */
static GtkWidget *
find_drawing_area (GtkWidget *widget)
{
  g_autoptr(GPtrArray) areas = g_ptr_array_new ();
  GtkWidget *largest = NULL;

  tw_test_collect_descendants (widget, GTK_TYPE_DRAWING_AREA, areas);
  for (guint i = 0; i < areas->len; i++)
    if (largest == NULL
        || gtk_widget_get_width (areas->pdata[i]) * gtk_widget_get_height (areas->pdata[i])
           > gtk_widget_get_width (largest) * gtk_widget_get_height (largest))
      largest = areas->pdata[i];
  g_assert_nonnull (largest);
  return largest;
}

/* Whether @surface has a pixel of @rgba (opaque) in the box. */
static gboolean
box_has_rgb (cairo_surface_t *surface,
             const double     rgba[4],
             int              x0,
             int              y0,
             int              x1,
             int              y1)
{
  for (int y = MAX (y0, 0); y < MIN (y1, cairo_image_surface_get_height (surface)); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, cairo_image_surface_get_width (surface)); x++)
      {
        double px[3];

        tw_test_surface_get_rgb (surface, x, y, px);
        if (tw_test_rgb_near (px, rgba))
          return TRUE;
      }
  return FALSE;
}

static double
luma (const double rgb[3])
{
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/* The luma of a widget's background as drawn (its top left corner): dark or light. */
static double
background_luma (GtkWidget *widget)
{
  cairo_surface_t *surface = tw_test_grab_widget (widget);
  double px[3];

  tw_test_surface_get_rgb (surface, 3, 3, px);
  cairo_surface_destroy (surface);
  return luma (px);
}

static void
collect_menu_buttons (GtkWidget *widget,
                      GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_MENU_BUTTON (child))
        g_ptr_array_add (found, child);
      collect_menu_buttons (child, found);
    }
}

/* The header bar's button whose popover holds the legend. */
static GtkMenuButton *
find_legend_button (TwWindow *window)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  collect_menu_buttons (gtk_window_get_titlebar (GTK_WINDOW (window)), buttons);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkPopover *popover = gtk_menu_button_get_popover (buttons->pdata[i]);

      if (popover && TW_IS_TIMELINE_LEGEND_VIEW (gtk_popover_get_child (popover)))
        return buttons->pdata[i];
    }
  g_error ("no legend button in the header bar");
}

/* ------------------------------------------------------------------ legend */

/* The header bar's Legend button opens a popover whose hard-irq swatch has the colour the
 * timeline paints the irq lane of CPU 0 with, in the theme's colours. */
static void
test_legend_popover (Fixture       *fx,
                     gconstpointer  data)
{
  GtkMenuButton *button;
  GtkPopover *popover;
  GtkWidget *legend;
  TwTimeline *timeline;
  TwTimelineViewport vp;
  TwTimelineColors colors;
  TwPalette palette;
  const TwTimelineRow *cpu0;
  cairo_surface_t *surface;
  int irq_x, row_y;

  if (skip_without_display ())
    return;
  load_built_trace (fx);
  timeline = timeline_of (fx);

  button = find_legend_button (fx->window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (button)));
  popover = gtk_menu_button_get_popover (button);
  gtk_menu_button_popup (button);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  tw_test_wait_frames (GTK_WIDGET (popover), 3);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  legend = gtk_popover_get_child (popover);

  tw_palette_init_from_widget (&palette, legend);
  tw_timeline_colors_init (&colors, &palette);
  surface = tw_test_grab_widget (legend);
  g_assert_true (box_has_rgb (surface, colors.hardirq, 0, 0, 80, cairo_image_surface_get_height (surface)));
  g_assert_true (box_has_rgb (surface, colors.softirq, 0, 0, 80, cairo_image_surface_get_height (surface)));
  g_assert_true (box_has_rgb (surface, colors.unclosed_irq, 0, 0, 80, cairo_image_surface_get_height (surface)));
  cairo_surface_destroy (surface);

  /* the timeline draws the irq with the very same colour */
  tw_timeline_get_viewport (timeline, &vp);
  cpu0 = find_row (timeline, TW_TIMELINE_ROW_CPU, 0);
  irq_x = (int) tw_timeline_viewport_time_to_x (&vp, 2250000);
  row_y = TW_TIMELINE_RULER_HEIGHT + cpu0->y - (int) vp.scroll_y;
  surface = tw_test_grab_widget (GTK_WIDGET (timeline));
  g_assert_true (box_has_rgb (surface, colors.hardirq, irq_x - 1, row_y, irq_x + 2,
                              row_y + TW_TIMELINE_IRQ_LANE_HEIGHT + 1));
  cairo_surface_destroy (surface);
  gtk_popover_popdown (popover);
}

/* Export timeline writes the light style with the legend strip under the rows, even in a
 * dark window. */
static void
test_export_has_legend (Fixture       *fx,
                        gconstpointer  data)
{
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "story-look-export.png", NULL);
  g_autoptr(GError) error = NULL;
  TwTimeline *timeline;
  TwTimelineColors light;
  cairo_surface_t *surface;
  int h, legend_h;
  double px[3];

  if (skip_without_display ())
    return;
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  load_built_trace (fx);
  timeline = timeline_of (fx);

  g_assert_true (tw_timeline_export (timeline, png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  h = gtk_widget_get_height (GTK_WIDGET (timeline));
  legend_h = tw_timeline_image_get_legend_height (tw_timeline_get_painter (timeline),
                                                  gtk_widget_get_width (GTK_WIDGET (timeline)));
  g_assert_cmpint (legend_h, >, 40);
  g_assert_cmpint (cairo_image_surface_get_height (surface), ==, h + legend_h);
  tw_timeline_colors_init (&light, NULL);
  /* light rows above, the legend's swatches below */
  tw_test_surface_get_rgb (surface, WIDTH - 20, TW_TIMELINE_RULER_HEIGHT + 2, px);
  g_assert_cmpfloat (luma (px), >, 0.7);
  g_assert_true (box_has_rgb (surface, light.hardirq, 0, h, WIDTH, h + legend_h));
  g_assert_true (box_has_rgb (surface, light.cursor, 0, h, WIDTH, h + legend_h));
  cairo_surface_destroy (surface);
  g_remove (png);
}

/* ------------------------------------------------------------------ irq tooltip */

/* Story 1 on the recorded trace.dat: the tooltip of an irq on a CPU row names its
 * handler as irq_handler_entry gave it. */
static void
test_irq_tooltip_names_handler (Fixture       *fx,
                                gconstpointer  data)
{
  TwTimeline *timeline;
  TwStateModel *model;
  const TwIrqInterval *irqs;
  const TwIrqInterval *irq = NULL;
  const TwTimelineRow *cpu1;
  TwTimelineViewport vp;
  TwTimelineHit hit;
  gsize n;

  if (skip_without_display () || !load_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  timeline = timeline_of (fx);
  model = tw_view_state_get_model (tw_window_get_view_state (fx->window));
  irqs = tw_state_model_get_cpu_irqs (model, 1, &n);
  for (gsize i = 0; i < n && irq == NULL; i++)
    if (irqs[i].kind == TW_IRQ_HARD && irqs[i].number == 36 && irqs[i].depth == 1)
      irq = &irqs[i];
  g_assert_nonnull (irq);

  /* zoom to the handler, as a user would before pointing at it */
  tw_view_state_set_visible_range (tw_window_get_view_state (fx->window), irq->start - 1000,
                                   irq->end + 1000);
  tw_test_wait_frames (GTK_WIDGET (timeline), 2);
  tw_timeline_get_viewport (timeline, &vp);
  cpu1 = find_row (timeline, TW_TIMELINE_ROW_CPU, 1);
  tw_timeline_painter_hit_test (tw_timeline_get_painter (timeline), &vp,
                                tw_timeline_viewport_time_to_x (&vp, (irq->start + irq->end) / 2),
                                TW_TIMELINE_RULER_HEIGHT + cpu1->y - vp.scroll_y + 2, &hit);
  g_assert_nonnull (hit.description);
  g_assert_nonnull (strstr (hit.description, "irq=36 name=virtio1-req.0 on CPU 1"));
  tw_timeline_hit_clear (&hit);
}

/* ------------------------------------------------------------------ 1024×768 */

/* Dragging the divider up past the timeline's minimum kept allocating the minimum and
 * shifted the timeline up under the header bar, cutting the ruler's labels: the divider
 * now stops there and the ruler stays whole. */
static void
test_pane_divider_keeps_ruler (Fixture       *fx,
                               gconstpointer  data)
{
  GtkWidget *timeline;
  GtkWidget *paned;
  graphene_point_t top;

  if (skip_without_display ())
    return;
  load_built_trace (fx);
  timeline = GTK_WIDGET (timeline_of (fx));
  paned = gtk_widget_get_ancestor (timeline, GTK_TYPE_PANED);
  g_assert_nonnull (paned);

  /* what a drag of the handle to the top does */
  gtk_paned_set_position (GTK_PANED (paned), 10);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  g_assert_true (gtk_widget_compute_point (timeline, paned, &GRAPHENE_POINT_INIT (0, 0), &top));
  g_assert_cmpfloat (top.y, >=, 0);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), >=,
                   TW_TIMELINE_RULER_HEIGHT + TW_TIMELINE_CPU_HEIGHT);

  /* and to the bottom: the notebook keeps its own minimum */
  gtk_paned_set_position (GTK_PANED (paned), HEIGHT);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  g_assert_cmpint (gtk_paned_get_position (GTK_PANED (paned)), <,
                   gtk_widget_get_height (paned) - 100);
}

/* Brings the window's Evaluations tab to the front, as a click on it does. */
static void
show_evaluations (TwEvaluationsPane *pane)
{
  GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);
  GtkWidget *page = GTK_WIDGET (pane);

  while (gtk_widget_get_parent (page) != notebook)
    page = gtk_widget_get_parent (page);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), page));
}

static gboolean
evaluation_done (gpointer data)
{
  return !tw_evaluations_pane_is_running (data, 0);
}

/* Story 4 at 1024×768 on the trace.dat: the irq-duration histogram's x ticks are round
 * values (not 1.024 µs bin edges) and no two labels overlap. */
static void
test_histogram_ticks_at_1024 (Fixture       *fx,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  GtkWidget *area;
  g_autoptr(GArray) ticks = NULL;
  const TwHistogramSnapshot *snapshot;

  if (skip_without_display () || !load_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  pane = tw_window_get_evaluations_pane (fx->window);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (evaluation_done, pane, WAIT_MS));
  show_evaluations (pane);
  tw_evaluations_pane_show_page (pane, tw_evaluations_pane_get_page (pane, 0));
  view = tw_evaluations_pane_get_histogram_view (pane, 0);
  tw_test_wait_frames (GTK_WIDGET (view), 3);
  snapshot = tw_histogram_view_get_snapshot (view);
  g_assert_nonnull (snapshot);
  g_assert_cmpuint (snapshot->n_bins, >, 0);

  area = find_drawing_area (GTK_WIDGET (view));
  ticks = tw_histogram_painter_dup_x_ticks (tw_histogram_view_get_painter (view), snapshot,
                                            gtk_widget_get_width (area),
                                            gtk_widget_get_height (area));
  g_assert_cmpuint (ticks->len, >=, 3);
  for (guint i = 0; i < ticks->len; i++)
    {
      const TwHistogramTick *t = &g_array_index (ticks, TwHistogramTick, i);
      double step = i > 0 ? t->value - g_array_index (ticks, TwHistogramTick, i - 1).value : 0;

      g_assert_cmpuint (strlen (t->label), <=, 4);
      if (i > 0)
        {
          /* a 1, 2 or 5 × 10^k ns step */
          double mantissa = step / pow (10, floor (log10 (step) + 1e-9));

          g_assert_true (fabs (mantissa - 1) < 1e-6 || fabs (mantissa - 2) < 1e-6
                         || fabs (mantissa - 5) < 1e-6);
          g_assert_cmpfloat (t->left, >, g_array_index (ticks, TwHistogramTick, i - 1).right);
        }
    }
}

/* ------------------------------------------------------------------ dark theme */

/* Story 7 in a dark theme: the timeline, a histogram and the designer's canvas are
 * drawn dark, not white. */
static void
test_dark_theme (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  g_autoptr(GPtrArray) canvases = g_ptr_array_new ();
  GtkWindow *designer;

  if (skip_without_display ())
    return;
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  load_built_trace (fx);
  g_assert_cmpfloat (background_luma (GTK_WIDGET (timeline_of (fx))), <, 0.35);

  pane = tw_window_get_evaluations_pane (fx->window);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (evaluation_done, pane, WAIT_MS));
  show_evaluations (pane);
  tw_evaluations_pane_show_page (pane, tw_evaluations_pane_get_page (pane, 0));
  view = tw_evaluations_pane_get_histogram_view (pane, 0);
  tw_test_wait_frames (GTK_WIDGET (view), 3);
  g_assert_cmpfloat (background_luma (find_drawing_area (GTK_WIDGET (view))), <, 0.35);

  g_action_group_activate_action (G_ACTION_GROUP (fx->window), "designer", NULL);
  designer = NULL;
  {
    GListModel *toplevels = gtk_window_get_toplevels ();

    for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
      {
        g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

        if (TW_IS_DESIGNER_WINDOW (window))
          designer = GTK_WINDOW (window);
      }
  }
  g_assert_nonnull (designer);
  tw_test_wait_frames (GTK_WIDGET (designer), 3);
  tw_test_collect_descendants (GTK_WIDGET (designer), TW_TYPE_AUTOMATON_CANVAS, canvases);
  g_assert_cmpuint (canvases->len, ==, 1);
  g_assert_cmpfloat (background_luma (find_drawing_area (canvases->pdata[0])), <, 0.35);
  tw_test_close_window (designer);
}

int
main (int   argc,
      char *argv[])
{
  /* the dark test switches the theme through GtkSettings, which GTK_THEME overrides */
  g_unsetenv ("GTK_THEME");
  app = tw_test_init_application (&argc, &argv);

  g_test_add ("/story/look/legend-popover", Fixture, NULL, fixture_setup,
              test_legend_popover, fixture_teardown);
  g_test_add ("/story/look/export-has-legend", Fixture, NULL, fixture_setup,
              test_export_has_legend, fixture_teardown);
  g_test_add ("/story/look/irq-tooltip-names-handler", Fixture, NULL, fixture_setup,
              test_irq_tooltip_names_handler, fixture_teardown);
  g_test_add ("/story/look/pane-divider-keeps-ruler", Fixture, NULL, fixture_setup,
              test_pane_divider_keeps_ruler, fixture_teardown);
  g_test_add ("/story/look/histogram-ticks-at-1024", Fixture, NULL, fixture_setup,
              test_histogram_ticks_at_1024, fixture_teardown);
  g_test_add ("/story/look/dark-theme", Fixture, NULL, fixture_setup,
              test_dark_theme, fixture_teardown);
  return g_test_run ();
}
