/* test-histogram-over-time.c: histograms per stretch of time, their maxima and the click
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-test-gtk.h"
#include "tw-test-utils.h"

/* 64 + 8 + 20 × 8 px: twenty windows of 1 ms over 20 ms */
#define WIDTH   232
#define HEIGHT  180
#define SPAN_NS 20000000

static void
append (TwMeasurementTable *table,
        guint64             end,
        guint64             length)
{
  TwMeasurementRow row = { 0, 0, end - length, end, length };

  tw_measurement_table_append (table, &row, NULL);
}

static void
on_row_activated (TwHistogramOverTime *view,
                  guint64              row,
                  guint64             *activated)
{
  *activated = row;
}

static void
click_at (GtkWidget *widget,
          double     x,
          double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        g_signal_emit_by_name (controller, "pressed", 1, x, y);
    }
}

static gboolean
is_worst_red (cairo_surface_t *surface,
              int              x,
              int              y)
{
  const guchar *p = cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) + x * 4;

  /* BGRA: red well above blue and green */
  return p[2] > 180 && p[1] < 90 && p[0] < 90;
}

/* Windows of 1 ms; measurements of 10 µs in every window but 5 (none), a burst of a
 * hundred in window 8, and the longest, 2 ms, ending in window 13. */
static void
test_windows_and_worst (void)
{
  g_autoptr(TwMeasurementTable) table = tw_measurement_table_new (NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = tw_histogram_over_time_new ();
  guint64 activated = G_MAXUINT64;
  gsize worst;
  cairo_surface_t *pixels;
  int found = 0;

  for (guint w = 0; w < 20; w++)
    if (w != 5)
      append (table, w * 1000000 + 500000, 10000);
  for (guint i = 0; i < 100; i++)
    append (table, 8 * 1000000 + 1000 + i * 100, 12000);
  append (table, 13 * 1000000 + 900000, 2000000);
  worst = tw_measurement_table_get_n_rows (table) - 1;

  tw_histogram_over_time_set_table (TW_HISTOGRAM_OVER_TIME (view), table, 0, SPAN_NS);
  gtk_widget_set_size_request (view, WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), view);
  tw_test_present_window (GTK_WINDOW (window), WIDTH, HEIGHT);
  tw_test_wait_frames (view, 3);

  g_assert_cmpuint (tw_histogram_over_time_get_n_windows (TW_HISTOGRAM_OVER_TIME (view)), ==, 20);
  g_assert_cmpuint (tw_histogram_over_time_get_worst_row (TW_HISTOGRAM_OVER_TIME (view)), ==, worst);
  g_assert_cmpuint (tw_histogram_over_time_get_max_row (TW_HISTOGRAM_OVER_TIME (view), 13), ==, worst);
  g_assert_cmpuint (tw_histogram_over_time_get_max_row (TW_HISTOGRAM_OVER_TIME (view), 5), ==, G_MAXSIZE);
  g_assert_cmpuint (tw_histogram_over_time_get_max_row (TW_HISTOGRAM_OVER_TIME (view), 8), >=, 19);
  g_assert_cmpuint (tw_histogram_over_time_window_at (TW_HISTOGRAM_OVER_TIME (view), 64 + 13 * 8 + 4), ==, 13);
  g_assert_cmpuint (tw_histogram_over_time_window_at (TW_HISTOGRAM_OVER_TIME (view), 10), ==, G_MAXUINT);

  /* the longest is a red dot in window 13, at the top */
  pixels = tw_test_grab_widget (view);
  for (int y = 0; y < 20; y++)
    for (int x = 64 + 13 * 8; x < 64 + 14 * 8; x++)
      found += is_worst_red (pixels, x, y);
  g_assert_cmpint (found, >, 4);
  cairo_surface_destroy (pixels);

  /* a click in a window activates its longest measurement; an empty window nothing */
  g_signal_connect (view, "row-activated", G_CALLBACK (on_row_activated), &activated);
  click_at (view, 64 + 5 * 8 + 4, 100);
  g_assert_cmpuint (activated, ==, G_MAXUINT64);
  click_at (view, 64 + 13 * 8 + 4, 100);
  g_assert_cmpuint (activated, ==, worst);

  /* the table grows (live): drawn anew from it */
  append (table, 2 * 1000000 + 10, 3000000);
  tw_test_wait_frames (view, 2);
  g_assert_cmpuint (tw_histogram_over_time_get_worst_row (TW_HISTOGRAM_OVER_TIME (view)), ==, worst + 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();
  g_test_add_func ("/tw/widgets/histogram-over-time", test_windows_and_worst);
  return g_test_run ();
}
