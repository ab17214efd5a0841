/* tw-compare-histogram.c: two runs' histograms in the same bins, as shares of each run
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs of different lengths compare by shape: each bin's height is the share of its
 * run's measurements, and the two runs stand side by side in every bin (A left, B
 * right) rather than on top of each other, so neither hides the other's tail. The bins
 * must be the same for both (tw_run_comparison_new_histogram()).
 */
#include "config.h"

#include <math.h>

#include "tw-compare-histogram.h"
#include "tw-palette.h"

#define MARGIN_LEFT   48
#define MARGIN_RIGHT  12
#define MARGIN_TOP    24
#define MARGIN_BOTTOM 22

struct _TwCompareHistogram
{
  GtkWidget    parent_instance;

  TwHistogram *runs[2];
  char        *labels[2];
};

G_DEFINE_FINAL_TYPE (TwCompareHistogram, tw_compare_histogram, GTK_TYPE_WIDGET)

/* Data colours of their own, told apart on light and dark backgrounds alike (the
 * palette gives only the chrome). */
static const double run_rgb[2][3] = {
  { 0.21, 0.52, 0.89 },   /* A: blue */
  { 0.93, 0.51, 0.13 },   /* B: orange */
};

void
tw_compare_histogram_get_run_color (guint    run,
                                    GdkRGBA *color)
{
  g_return_if_fail (run < 2);
  *color = (GdkRGBA) { run_rgb[run][0], run_rgb[run][1], run_rgb[run][2], 1 };
}

static double
share (TwHistogram *histogram,
       guint        bin)
{
  guint64 count = tw_histogram_get_count (histogram);

  return count ? (double) tw_histogram_get_bin (histogram, bin, NULL, NULL) / count : 0;
}

/* A step of 1, 2 or 5 × 10^k giving three to five ticks up to @top. */
static double
tick_step (double top)
{
  double unit = pow (10, floor (log10 (top / 4)));

  for (guint i = 0; i < 3; i++)
    {
      double step = unit * (double[]) { 1, 2, 5 }[i];

      if (top / step <= 5)
        return step;
    }
  return unit * 10;
}

static void
show_text_at (cairo_t    *cr,
              const char *text,
              double      x,
              double      y,
              double      align)
{
  cairo_text_extents_t ext;

  cairo_text_extents (cr, text, &ext);
  cairo_move_to (cr, x - ext.x_advance * align, y);
  cairo_show_text (cr, text);
}

/* A log axis: its ends, and each power of ten between them where there is room for
 * its label, at its place (the middle of the axis is the geometric mean, not the
 * arithmetic one). */
static void
draw_log_ticks (TwCompareHistogram *self,
                cairo_t            *cr,
                double              lower,
                double              upper,
                int                 width,
                int                 height)
{
  double plot_w = width - MARGIN_LEFT - MARGIN_RIGHT;
  double span = log10 (upper) - log10 (lower);
  double room = 70, last_x = MARGIN_LEFT;

  for (guint t = 0; t <= 1; t++)
    {
      g_autofree char *text = tw_histogram_format_value (self->runs[0], t ? upper : lower);

      show_text_at (cr, text, MARGIN_LEFT + plot_w * t, height - 6, t);
    }
  for (double decade = ceil (log10 (lower)); decade < log10 (upper); decade++)
    {
      double x = MARGIN_LEFT + plot_w * (decade - log10 (lower)) / span;
      g_autofree char *text = NULL;

      if (x - last_x < room || MARGIN_LEFT + plot_w - x < room)
        continue;
      text = tw_histogram_format_value (self->runs[0], pow (10, decade));
      cairo_move_to (cr, x + 0.5, height - MARGIN_BOTTOM + 1);
      cairo_line_to (cr, x + 0.5, height - MARGIN_BOTTOM + 4);
      cairo_stroke (cr);
      show_text_at (cr, text, x, height - 6, 0.5);
      last_x = x;
    }
}

static void
draw_axes (TwCompareHistogram *self,
           cairo_t            *cr,
           const TwPalette    *palette,
           double              top_share,
           double              step,
           int                 width,
           int                 height)
{
  double plot_h = height - MARGIN_TOP - MARGIN_BOTTOM;
  double lower, upper;
  guint n = tw_histogram_get_n_bins (self->runs[0]);

  cairo_set_source_rgb (cr, palette->foreground[0], palette->foreground[1], palette->foreground[2]);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, MARGIN_LEFT - 0.5, MARGIN_TOP);
  cairo_line_to (cr, MARGIN_LEFT - 0.5, height - MARGIN_BOTTOM + 0.5);
  cairo_line_to (cr, width - MARGIN_RIGHT, height - MARGIN_BOTTOM + 0.5);
  cairo_stroke (cr);

  cairo_set_font_size (cr, 10);
  for (double share = 0; share <= top_share * (1 + 1e-9); share += step)
    {
      g_autofree char *text = g_strdup_printf ("%g %%", round (share * 1000) / 10);

      show_text_at (cr, text, MARGIN_LEFT - 6, height - MARGIN_BOTTOM - plot_h * share / top_share + 3, 1);
    }
  tw_histogram_get_bin (self->runs[0], 0, &lower, NULL);
  tw_histogram_get_bin (self->runs[0], n - 1, NULL, &upper);
  if (tw_histogram_get_scale (self->runs[0]) == TW_HISTOGRAM_SCALE_LOG && lower > 0 && upper > lower)
    {
      draw_log_ticks (self, cr, lower, upper, width, height);
      return;
    }
  for (guint t = 0; t <= 2; t++)
    {
      g_autofree char *text = tw_histogram_format_value (self->runs[0], lower + (upper - lower) * t / 2);
      double x = MARGIN_LEFT + (width - MARGIN_LEFT - MARGIN_RIGHT) * t / 2.0;

      show_text_at (cr, text, x, height - 6, t / 2.0);
    }
}

static void
draw_legend (TwCompareHistogram *self,
             cairo_t            *cr,
             const TwPalette    *palette)
{
  double x = MARGIN_LEFT;

  cairo_set_font_size (cr, 11);
  for (guint r = 0; r < 2; r++)
    {
      cairo_text_extents_t ext;

      cairo_set_source_rgb (cr, run_rgb[r][0], run_rgb[r][1], run_rgb[r][2]);
      cairo_rectangle (cr, x, 6, 12, 12);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, palette->foreground[0], palette->foreground[1],
                            palette->foreground[2]);
      cairo_move_to (cr, x + 16, 16);
      cairo_show_text (cr, self->labels[r]);
      cairo_text_extents (cr, self->labels[r], &ext);
      x += 16 + ext.x_advance + 18;
    }
}

static void
draw (TwCompareHistogram *self,
      cairo_t            *cr,
      int                 width,
      int                 height)
{
  TwPalette palette;
  guint n = tw_histogram_get_n_bins (self->runs[0]);
  double top = 0, plot_w = width - MARGIN_LEFT - MARGIN_RIGHT;
  double plot_h = height - MARGIN_TOP - MARGIN_BOTTOM, bin_w, step;

  tw_palette_init_from_widget (&palette, GTK_WIDGET (self));
  if (plot_w < 10 || plot_h < 10 || n == 0)
    return;
  for (guint i = 0; i < n; i++)
    top = MAX (top, MAX (share (self->runs[0], i), share (self->runs[1], i)));
  /* the axis ends on the first round tick above the tallest bar */
  top = top > 0 ? top : 1;
  step = tick_step (top);
  top = ceil (top / step - 1e-9) * step;
  bin_w = plot_w / n;
  for (guint i = 0; i < n; i++)
    for (guint r = 0; r < 2; r++)
      {
        double h = plot_h * share (self->runs[r], i) / top;
        double x = MARGIN_LEFT + i * bin_w + r * bin_w / 2;

        if (h <= 0)
          continue;
        cairo_set_source_rgb (cr, run_rgb[r][0], run_rgb[r][1], run_rgb[r][2]);
        /* a bar of a single measurement stays visible */
        cairo_rectangle (cr, x + 1, height - MARGIN_BOTTOM - MAX (h, 1), MAX (bin_w / 2 - 1, 1),
                         MAX (h, 1));
        cairo_fill (cr);
      }
  draw_axes (self, cr, &palette, top, step, width, height);
  draw_legend (self, cr, &palette);
}

static void
tw_compare_histogram_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot)
{
  TwCompareHistogram *self = TW_COMPARE_HISTOGRAM (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr;

  if (self->runs[0] == NULL || self->runs[1] == NULL)
    return;
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (self, cr, width, height);
  cairo_destroy (cr);
}

static void
tw_compare_histogram_measure (GtkWidget      *widget,
                              GtkOrientation  orientation,
                              int             for_size,
                              int            *minimum,
                              int            *natural,
                              int            *minimum_baseline,
                              int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 240 : 160;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 640 : 240;
}

static void
tw_compare_histogram_finalize (GObject *object)
{
  TwCompareHistogram *self = TW_COMPARE_HISTOGRAM (object);

  for (guint r = 0; r < 2; r++)
    {
      g_clear_object (&self->runs[r]);
      g_clear_pointer (&self->labels[r], g_free);
    }
  G_OBJECT_CLASS (tw_compare_histogram_parent_class)->finalize (object);
}

static void
tw_compare_histogram_class_init (TwCompareHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tw_compare_histogram_finalize;
  widget_class->snapshot = tw_compare_histogram_snapshot;
  widget_class->measure = tw_compare_histogram_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
tw_compare_histogram_init (TwCompareHistogram *self)
{
}

GtkWidget *
tw_compare_histogram_new (void)
{
  return g_object_new (TW_TYPE_COMPARE_HISTOGRAM, NULL);
}

/**
 * tw_compare_histogram_set_histograms:
 * @a: (nullable): run A's histogram
 * @b: (nullable): run B's, in the same bins as @a
 * @label_a: what the legend calls A
 * @label_b: what it calls B
 */
void
tw_compare_histogram_set_histograms (TwCompareHistogram *self,
                                     TwHistogram        *a,
                                     TwHistogram        *b,
                                     const char         *label_a,
                                     const char         *label_b)
{
  g_return_if_fail (TW_IS_COMPARE_HISTOGRAM (self));
  g_return_if_fail (a == NULL || b == NULL ||
                    tw_histogram_get_n_bins (a) == tw_histogram_get_n_bins (b));

  g_set_object (&self->runs[0], a);
  g_set_object (&self->runs[1], b);
  g_free (self->labels[0]);
  g_free (self->labels[1]);
  self->labels[0] = g_strdup (label_a);
  self->labels[1] = g_strdup (label_b);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
