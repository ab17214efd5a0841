/* test-histogram-painter.c: what the histogram painter draws, checked pixel by pixel
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>
#include <tw-widgets.h>

#include "tw-test-pixels.h"
#include "tw-test-utils.h"

#define WIDTH  640
#define HEIGHT 400
#define PLOT_H (HEIGHT - TW_HISTOGRAM_MARGIN_TOP - TW_HISTOGRAM_MARGIN_BOTTOM)
#define PLOT_W (WIDTH - TW_HISTOGRAM_MARGIN_LEFT - TW_HISTOGRAM_MARGIN_RIGHT)

static const double BAR_RGB[3] = { 0.26, 0.52, 0.96 };
static const double SELECTED_RGB[3] = { 0.95, 0.55, 0.10 };

/* [0, 400) ns in 4 bins: 10 values in bin 0, 5 in bin 1, none in bin 2, 20 in bin 3,
 * one value below (−5) and one above (500) the range. */
static TwHistogram *
build_histogram (void)
{
  TwHistogram *h = tw_histogram_new_fixed (0, 400, 4, TW_HISTOGRAM_SCALE_LINEAR);

  tw_histogram_set_unit (h, "ns");
  for (guint i = 0; i < 10; i++)
    tw_histogram_insert (h, 50 + i);
  for (guint i = 0; i < 5; i++)
    tw_histogram_insert (h, 150);
  for (guint i = 0; i < 20; i++)
    tw_histogram_insert (h, 350);
  tw_histogram_insert (h, -5);
  tw_histogram_insert (h, 500);
  return h;
}

static cairo_surface_t *
render (TwHistogramPainter        *painter,
        const TwHistogramSnapshot *snapshot)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  tw_histogram_painter_draw (painter, cr, snapshot, WIDTH, HEIGHT, NULL);
  cairo_destroy (cr);
  return surface;
}

/* Pixels of bar colour in bin @bin's column counted up from the x axis, found by
 * reading the image (not from the painter's geometry). */
static int
measured_height (cairo_surface_t *surface,
                 guint            bin,
                 guint            n_bins,
                 const double     rgb[3])
{
  int x = TW_HISTOGRAM_MARGIN_LEFT + (int) ((bin + 0.5) * PLOT_W / n_bins);
  int h = 0;

  for (int y = TW_HISTOGRAM_MARGIN_TOP + PLOT_H - 1; y >= 0; y--)
    {
      double px[3];

      tw_test_surface_get_rgb (surface, x, y, px);
      if (!tw_test_rgb_near (px, rgb))
        break;
      h++;
    }
  return h;
}

static void
test_linear (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *surface;
  int h0, h1, h2, h3;
  double above[3];

  tw_histogram_painter_set_show_stats (painter, FALSE);
  surface = render (painter, s);
  h0 = measured_height (surface, 0, 4, BAR_RGB);
  h1 = measured_height (surface, 1, 4, BAR_RGB);
  h2 = measured_height (surface, 2, 4, BAR_RGB);
  h3 = measured_height (surface, 3, 4, BAR_RGB);
  /* the tallest bar (20) reaches the axis top (20); the others in proportion */
  g_assert_cmpint (h3, ==, PLOT_H);
  g_assert_cmpint (h0, ==, (int) round (PLOT_H * 10.0 / 20.0));
  g_assert_cmpint (h1, ==, (int) round (PLOT_H * 5.0 / 20.0));
  g_assert_cmpint (h2, ==, 0);
  g_assert_cmpint (ABS (2 * h0 - h3), <=, 1);
  g_assert_cmpint (ABS (2 * h1 - h0), <=, 1);
  /* the top row of bar 0 is bar-coloured, the row above it is not */
  tw_test_surface_get_rgb (surface, TW_HISTOGRAM_MARGIN_LEFT + PLOT_W / 8,
                           TW_HISTOGRAM_MARGIN_TOP + PLOT_H - h0 - 1, above);
  g_assert_false (tw_test_rgb_near (above, BAR_RGB));
  cairo_surface_destroy (surface);
}

static void
test_log (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *surface;
  int h0, h1, h3;

  tw_histogram_painter_set_show_stats (painter, FALSE);
  tw_histogram_painter_set_y_scale (painter, TW_HISTOGRAM_Y_LOG);
  surface = render (painter, s);
  h0 = measured_height (surface, 0, 4, BAR_RGB);
  h1 = measured_height (surface, 1, 4, BAR_RGB);
  h3 = measured_height (surface, 3, 4, BAR_RGB);
  /* log10(1 + count) against an axis up to 100 */
  g_assert_cmpint (h0, ==, (int) round (PLOT_H * log10 (11) / log10 (101)));
  g_assert_cmpint (h1, ==, (int) round (PLOT_H * log10 (6) / log10 (101)));
  g_assert_cmpint (h3, ==, (int) round (PLOT_H * log10 (21) / log10 (101)));
  /* small counts stand taller against the largest than they do linearly */
  g_assert_cmpfloat ((double) h1 / h3, >, 5.0 / 20.0 + 0.2);
  cairo_surface_destroy (surface);
}

static void
test_cumulative (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *surface;
  int prev = 0;
  /* underflow 1, then 1 + 10, + 5, + 0, + 20; axis top 40 */
  static const double cumulative[4] = { 11, 16, 16, 36 };

  tw_histogram_painter_set_show_stats (painter, FALSE);
  tw_histogram_painter_set_cumulative (painter, TRUE);
  surface = render (painter, s);
  for (guint b = 0; b < 4; b++)
    {
      int hb = measured_height (surface, b, 4, BAR_RGB);

      g_assert_cmpint (hb, >=, prev);
      g_assert_cmpint (hb, ==, (int) round (PLOT_H * cumulative[b] / 40.0));
      prev = hb;
    }
  cairo_surface_destroy (surface);
}

static guint
count_dark_pixels (cairo_surface_t *surface,
                   int x0, int y0, int x1, int y1)
{
  guint n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        double px[3];

        tw_test_surface_get_rgb (surface, x, y, px);
        if (px[0] < 0.35 && px[1] < 0.35 && px[2] < 0.35)
          n++;
      }
  return n;
}

static void
test_stats (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *with, *without;
  int x0 = WIDTH - TW_HISTOGRAM_MARGIN_RIGHT - 120;
  int y0 = TW_HISTOGRAM_MARGIN_TOP + 4;

  /* exact statistics: 37 values, −5 … 500, p50 = rank 19 = 350 */
  g_assert_cmpuint (s->count, ==, 37);
  g_assert_cmpfloat (s->min, ==, -5);
  g_assert_cmpfloat (s->max, ==, 500);
  g_assert_cmpfloat (s->percentiles[0], ==, 350);
  g_assert_cmpuint (s->underflow, ==, 1);
  g_assert_cmpuint (s->overflow, ==, 1);

  with = render (painter, s);
  tw_histogram_painter_set_show_stats (painter, FALSE);
  without = render (painter, s);
  /* text in the top right corner only when the statistics are shown */
  g_assert_cmpuint (count_dark_pixels (with, x0, y0, x0 + 110, y0 + 60), >, 50);
  g_assert_cmpuint (count_dark_pixels (without, x0, y0, x0 + 110, y0 + 60), ==, 0);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

static void
test_bins (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, FALSE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  g_autofree char *text = NULL;
  g_autofree char *csv = NULL;
  cairo_surface_t *surface;
  int y = TW_HISTOGRAM_MARGIN_TOP + PLOT_H - 2;

  /* estimated from the bins: rank 19 is the 3rd of bin 3's 20 values: 300 + 3/20·100 */
  g_assert_false (s->exact_percentiles);
  g_assert_cmpfloat_with_epsilon (s->percentiles[0], 315, 1e-9);

  g_assert_cmpint (tw_histogram_painter_bin_at (painter, s, WIDTH, HEIGHT, TW_HISTOGRAM_MARGIN_LEFT + 1, y), ==, 0);
  g_assert_cmpint (tw_histogram_painter_bin_at (painter, s, WIDTH, HEIGHT,
                                                TW_HISTOGRAM_MARGIN_LEFT + PLOT_W * 0.6, y), ==, 2);
  g_assert_cmpint (tw_histogram_painter_bin_at (painter, s, WIDTH, HEIGHT, 3, y), ==, -1);
  text = tw_histogram_painter_dup_bin_text (painter, s, 1);
  g_assert_cmpstr (text, ==, "[100 ns, 200 ns)\n5 values (13.51 %)");

  csv = tw_histogram_snapshot_to_csv (s);
  g_assert_cmpstr (csv, ==, "lower,upper,count\nunderflow,,1\n0,100,10\n100,200,5\n"
                            "200,300,0\n300,400,20\noverflow,,1\n");

  tw_histogram_painter_set_show_stats (painter, FALSE);
  tw_histogram_painter_set_selected_bin (painter, 3);
  surface = render (painter, s);
  g_assert_cmpint (measured_height (surface, 3, 4, SELECTED_RGB), ==, PLOT_H);
  g_assert_cmpint (measured_height (surface, 0, 4, BAR_RGB), ==, PLOT_H / 2);
  cairo_surface_destroy (surface);
}

static void
test_units (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (0, 4e6, 4, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwHistogramSnapshot) s = NULL;
  g_autofree char *v = NULL;

  tw_histogram_set_unit (h, "ns");
  tw_histogram_insert (h, 2.5e6);
  s = tw_histogram_snapshot_new (h, TRUE);
  v = tw_histogram_painter_format_value (s, 1.5e6);
  g_assert_cmpstr (v, ==, "1.5 ms");
}

static void
test_export (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  g_autofree char *png = g_build_filename (g_get_tmp_dir (), "hist.png", NULL);
  g_autofree char *svg = g_build_filename (g_get_tmp_dir (), "hist.svg", NULL);
  g_autofree char *svg_text = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *read;

  g_assert_true (tw_histogram_painter_export (painter, s, TW_HISTOGRAM_EXPORT_PNG, png, 320, 200, &error));
  g_assert_no_error (error);
  read = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (read), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (read), ==, 320);
  g_assert_cmpint (cairo_image_surface_get_height (read), ==, 200);
  cairo_surface_destroy (read);

  g_assert_true (tw_histogram_painter_export (painter, s, TW_HISTOGRAM_EXPORT_SVG, svg, 320, 200, &error));
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));

  g_assert_false (tw_histogram_painter_export (painter, s, TW_HISTOGRAM_EXPORT_PNG,
                                               "/nonexistent/dir/x.png", 320, 200, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/nonexistent/dir/x.png"));
}

/* An automatic histogram without values has no edges: no bins, no bars. */
static void
test_empty (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (10, TW_HISTOGRAM_SCALE_LOG);
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *surface;
  guint n_bar = 0;

  g_assert_cmpuint (s->n_bins, ==, 0);
  g_assert_cmpuint (s->count, ==, 0);
  g_assert_true (isnan (s->percentiles[0]));
  surface = render (painter, s);
  for (int y = 0; y < HEIGHT; y += 4)
    for (int x = 0; x < WIDTH; x += 4)
      {
        double px[3];

        tw_test_surface_get_rgb (surface, x, y, px);
        n_bar += tw_test_rgb_near (px, BAR_RGB);
      }
  g_assert_cmpuint (n_bar, ==, 0);
  g_assert_cmpint (tw_histogram_painter_bin_at (painter, s, WIDTH, HEIGHT, WIDTH / 2, HEIGHT / 2), ==, -1);
  cairo_surface_destroy (surface);
}


static void
assert_ticks_readable (GArray *ticks,
                       int     width)
{
  g_assert_cmpuint (ticks->len, >=, 3);
  for (guint i = 0; i < ticks->len; i++)
    {
      const TwHistogramTick *t = &g_array_index (ticks, TwHistogramTick, i);

      /* short numbers: never "0.0003162" */
      g_assert_cmpuint (strlen (t->label), <=, 4);
      g_assert_cmpfloat (t->left, >=, 0);
      g_assert_cmpfloat (t->right, <=, width);
      if (i > 0)
        {
          const TwHistogramTick *prev = &g_array_index (ticks, TwHistogramTick, i - 1);

          g_assert_cmpfloat (t->left, >, prev->right);
          g_assert_cmpfloat (t->value, >, prev->value);
        }
    }
}

/* Bins 1024 ns wide used to get labels at their edges (1.024, 2.048 µs): ticks go to
 * round values at any width, and the step between ticks is constant. */
static void
test_round_ticks (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (0, 64 * 1024, 64, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  static const int widths[] = { 300, 480, 640, 1000 };

  tw_histogram_set_unit (h, "ns");
  for (guint i = 0; i < 200; i++)
    tw_histogram_insert (h, 300 + i * 317);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, FALSE);
      g_autoptr(GArray) ticks = tw_histogram_painter_dup_x_ticks (painter, s, widths[w], HEIGHT);
      double step = 0;

      assert_ticks_readable (ticks, widths[w]);
      for (guint i = 1; i < ticks->len; i++)
        {
          double d = g_array_index (ticks, TwHistogramTick, i).value
                     - g_array_index (ticks, TwHistogramTick, i - 1).value;

          if (step == 0)
            step = d;
          g_assert_cmpfloat (fabs (d - step), <, 1e-6);
        }
      /* a whole number of µs, in 1, 2, 5 steps */
      g_assert_cmpfloat (fmod (step, 1000), ==, 0);
    }
}

/* Log bins over five decades: ticks at 1, 2, 5 × 10^k with their own units. */
static void
test_log_ticks (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (40, TW_HISTOGRAM_SCALE_LOG);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  g_autoptr(TwHistogramSnapshot) s = NULL;
  g_autoptr(GArray) ticks = NULL;

  tw_histogram_set_unit (h, "ns");
  for (double v = 316; v < 3e7; v *= 1.1)
    tw_histogram_insert (h, v);
  s = tw_histogram_snapshot_new (h, FALSE);
  ticks = tw_histogram_painter_dup_x_ticks (painter, s, 500, HEIGHT);
  g_assert_cmpuint (ticks->len, >=, 4);
  for (guint i = 0; i < ticks->len; i++)
    {
      const TwHistogramTick *t = &g_array_index (ticks, TwHistogramTick, i);
      double mantissa = t->value / pow (10, floor (log10 (t->value) + 1e-9));

      g_assert_true (fabs (mantissa - 1) < 1e-6 || fabs (mantissa - 2) < 1e-6
                     || fabs (mantissa - 5) < 1e-6);
      g_assert_true (g_str_has_suffix (t->label, "s"));   /* "500 ns", "1 ms" */
      if (i > 0)
        g_assert_cmpfloat (t->left, >, g_array_index (ticks, TwHistogramTick, i - 1).right);
    }
}

/* An empty histogram: a 0 on the y axis alone (no "0 0 0 1 1"), no x ticks, and no bars. */
static void
test_empty_axis (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (10, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  g_autoptr(GArray) ticks = tw_histogram_painter_dup_x_ticks (painter, s, WIDTH, HEIGHT);
  double y_ticks[24];

  g_assert_cmpuint (ticks->len, ==, 0);
  g_assert_cmpuint (tw_histogram_painter_get_y_ticks (painter, s, y_ticks), ==, 1);
  g_assert_cmpfloat (y_ticks[0], ==, 0);
  g_assert_cmpuint (tw_histogram_painter_get_y_ticks (painter, NULL, y_ticks), ==, 1);
}

/* y ticks of counts are whole and evenly spaced: 7 values gave 0, 1.75, 3.5 (drawn as
 * "0 2 4 5 7"). */
static void
test_count_ticks (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (0, 10, 2, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwHistogramSnapshot) s = NULL;
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  double y_ticks[24];
  guint n;

  for (guint i = 0; i < 7; i++)
    tw_histogram_insert (h, 1);
  s = tw_histogram_snapshot_new (h, TRUE);
  n = tw_histogram_painter_get_y_ticks (painter, s, y_ticks);
  g_assert_cmpuint (n, >=, 3);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (y_ticks[i], ==, round (y_ticks[i]));
      if (i > 1)
        g_assert_cmpfloat (y_ticks[i] - y_ticks[i - 1], ==, y_ticks[1] - y_ticks[0]);
    }
  g_assert_cmpfloat (y_ticks[n - 1], >=, 7);
}

/* A dark palette paints the background it is given; bars keep their colour. */
static void
test_dark_palette (void)
{
  g_autoptr(TwHistogram) h = build_histogram ();
  g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (h, TRUE);
  g_autoptr(TwHistogramPainter) painter = tw_histogram_painter_new ();
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  TwPalette dark = { { 0.12, 0.12, 0.12 }, { 1, 1, 1 }, TRUE };
  double px[3];

  tw_histogram_painter_set_show_stats (painter, FALSE);
  tw_histogram_painter_draw (painter, cr, s, WIDTH, HEIGHT, &dark);
  cairo_destroy (cr);
  tw_test_surface_get_rgb (surface, 4, 4, px);
  g_assert_true (tw_test_rgb_near (px, dark.background));
  g_assert_cmpint (measured_height (surface, 3, 4, BAR_RGB), >, 0);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/widgets/histogram-painter/linear", test_linear);
  g_test_add_func ("/tw/widgets/histogram-painter/log", test_log);
  g_test_add_func ("/tw/widgets/histogram-painter/cumulative", test_cumulative);
  g_test_add_func ("/tw/widgets/histogram-painter/stats", test_stats);
  g_test_add_func ("/tw/widgets/histogram-painter/bins", test_bins);
  g_test_add_func ("/tw/widgets/histogram-painter/units", test_units);
  g_test_add_func ("/tw/widgets/histogram-painter/export", test_export);
  g_test_add_func ("/tw/widgets/histogram-painter/empty", test_empty);
  g_test_add_func ("/tw/widgets/histogram-painter/round-ticks", test_round_ticks);
  g_test_add_func ("/tw/widgets/histogram-painter/log-ticks", test_log_ticks);
  g_test_add_func ("/tw/widgets/histogram-painter/empty-axis", test_empty_axis);
  g_test_add_func ("/tw/widgets/histogram-painter/count-ticks", test_count_ticks);
  g_test_add_func ("/tw/widgets/histogram-painter/dark-palette", test_dark_palette);
  return g_test_run ();
}
