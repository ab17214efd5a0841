/* tw-histogram-painter.c: draws a histogram with axes and statistics on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-histogram-painter.h"

#include <math.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

static const double PERCENTS[4] = { 50, 90, 99, 99.9 };
static const char *const PERCENT_NAMES[4] = { "p50", "p90", "p99", "p99.9" };

struct _TwHistogramPainter
{
  GObject           parent_instance;
  TwHistogramYScale y_scale;
  gboolean          cumulative;
  gboolean          show_stats;
  int               selected_bin;
};

G_DEFINE_FINAL_TYPE (TwHistogramPainter, tw_histogram_painter, G_TYPE_OBJECT)

/* ------------------------------------------------------------------ snapshots */

/* Nearest-rank percentile from the bins: linear inside the bin that holds the rank,
 * the exact min/max when the rank falls among the values outside the range. */
static double
estimate_percentile (const TwHistogramSnapshot *s,
                     double                     percent)
{
  guint64 rank;
  guint64 seen;

  if (s->count == 0)
    return NAN;
  rank = (guint64) MAX (1.0, ceil (percent / 100.0 * (double) s->count - 1e-9));
  if (rank <= s->underflow)
    return s->min;
  seen = s->underflow;
  for (guint b = 0; b < s->n_bins; b++)
    {
      if (s->bins[b] > 0 && rank <= seen + s->bins[b])
        {
          double f = (double) (rank - seen) / (double) s->bins[b];
          double v = s->edges[b] + f * (s->edges[b + 1] - s->edges[b]);
          return CLAMP (v, s->min, s->max);
        }
      seen += s->bins[b];
    }
  return s->max;
}

/**
 * tw_histogram_snapshot_new:
 * @histogram: the histogram
 * @exact_percentiles: compute exact percentiles (O(values) the first time after an
 *   insert); %FALSE estimates them from the bins
 *
 * Returns: (transfer full): a copy of @histogram's occupied bins (from the first to the
 *   last non-empty one) and its statistics
 */
TwHistogramSnapshot *
tw_histogram_snapshot_new (TwHistogram *histogram,
                           gboolean     exact_percentiles)
{
  TwHistogramSnapshot *s;

  g_return_val_if_fail (TW_IS_HISTOGRAM (histogram), NULL);

  guint n_all = tw_histogram_get_n_bins (histogram);
  guint first = n_all, last = 0;

  /* Empty bins at both ends are left out: an automatic log histogram spans whole
   * decades, and the data may sit in a few of its bins. */
  for (guint b = 0; b < n_all; b++)
    if (tw_histogram_get_bin (histogram, b, NULL, NULL) > 0)
      {
        first = MIN (first, b);
        last = b;
      }
  s = g_new0 (TwHistogramSnapshot, 1);
  /* nothing in range: no bins (an automatic histogram has no edges yet) */
  s->first_bin = first == n_all ? 0 : first;
  s->n_bins = first == n_all ? 0 : last - first + 1;
  s->bins = g_new0 (guint64, MAX (s->n_bins, 1));
  s->edges = g_new0 (double, s->n_bins + 1);
  s->scale = tw_histogram_get_scale (histogram);
  s->unit = g_strdup (tw_histogram_get_unit (histogram));
  s->count = tw_histogram_get_count (histogram);
  s->underflow = tw_histogram_get_underflow (histogram);
  s->overflow = tw_histogram_get_overflow (histogram);
  s->min = tw_histogram_get_min (histogram);
  s->max = tw_histogram_get_max (histogram);
  s->mean = tw_histogram_get_mean (histogram);
  s->generation = tw_histogram_get_generation (histogram);
  for (guint b = 0; b < s->n_bins; b++)
    {
      double lower = 0, upper = 0;

      s->bins[b] = tw_histogram_get_bin (histogram, first + b, &lower, &upper);
      s->edges[b] = lower;
      s->edges[b + 1] = upper;
    }
  s->exact_percentiles = exact_percentiles;
  for (guint p = 0; p < G_N_ELEMENTS (PERCENTS); p++)
    s->percentiles[p] = exact_percentiles ? tw_histogram_get_percentile (histogram, PERCENTS[p])
                                          : estimate_percentile (s, PERCENTS[p]);
  return s;
}

/**
 * tw_histogram_snapshot_free:
 * @snapshot: (nullable): a snapshot
 */
void
tw_histogram_snapshot_free (TwHistogramSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_free (snapshot->bins);
  g_free (snapshot->edges);
  g_free (snapshot->unit);
  g_free (snapshot);
}

/**
 * tw_histogram_snapshot_to_csv:
 * @snapshot: a snapshot
 *
 * The bins as CSV: `lower,upper,count`, values in the histogram's unit, then the
 * values below and above the range as `underflow` and `overflow` rows.
 *
 * Returns: (transfer full): the CSV text
 */
char *
tw_histogram_snapshot_to_csv (const TwHistogramSnapshot *snapshot)
{
  GString *csv = g_string_new ("lower,upper,count\n");
  char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (snapshot != NULL, NULL);

  /* the values outside the range, named in the first column */
  g_string_append_printf (csv, "underflow,,%" G_GUINT64_FORMAT "\n", snapshot->underflow);
  for (guint b = 0; b < snapshot->n_bins; b++)
    g_string_append_printf (csv, "%s,%s,%" G_GUINT64_FORMAT "\n",
                            g_ascii_dtostr (lo, sizeof lo, snapshot->edges[b]),
                            g_ascii_dtostr (hi, sizeof hi, snapshot->edges[b + 1]),
                            snapshot->bins[b]);
  g_string_append_printf (csv, "overflow,,%" G_GUINT64_FORMAT "\n", snapshot->overflow);
  return g_string_free (csv, FALSE);
}

/* ------------------------------------------------------------------ units */

typedef struct {
  double      divisor;
  const char *name;
} AxisUnit;

/* ns/µs/ms/s by the largest value shown, for a histogram of nanoseconds */
static AxisUnit
pick_unit (const TwHistogramSnapshot *s)
{
  double top = s->n_bins > 0 ? fabs (s->edges[s->n_bins]) : 0;

  if (g_strcmp0 (s->unit, "ns") != 0)
    return (AxisUnit) { 1, s->unit ? s->unit : "" };
  if (!isnan (s->max))
    top = MAX (top, fabs (s->max));
  if (top >= 1e9)
    return (AxisUnit) { 1e9, "s" };
  if (top >= 1e6)
    return (AxisUnit) { 1e6, "ms" };
  if (top >= 1e3)
    return (AxisUnit) { 1e3, "µs" };
  return (AxisUnit) { 1, "ns" };
}

/**
 * tw_histogram_painter_format_value:
 * @snapshot: a snapshot
 * @value: a value in the histogram's unit
 *
 * Returns: (transfer full): @value with its unit (ns, µs, ms or s by its magnitude for a
 *   histogram of nanoseconds)
 */
char *
tw_histogram_painter_format_value (const TwHistogramSnapshot *snapshot,
                                   double                     value)
{
  static const struct { double scale; const char *name; } ns_units[] = {
    { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" },
  };

  if (isnan (value))
    return g_strdup ("–");
  if (g_strcmp0 (snapshot->unit, "ns") != 0)
    return g_strdup_printf ("%.4g%s%s", value, snapshot->unit && snapshot->unit[0] ? " " : "",
                            snapshot->unit ? snapshot->unit : "");
  /* each value in its own unit: a statistic of 9 µs reads badly as 0.009 ms */
  for (guint i = 0; i < G_N_ELEMENTS (ns_units); i++)
    if (fabs (value) >= ns_units[i].scale)
      return g_strdup_printf ("%.4g %s", value / ns_units[i].scale, ns_units[i].name);
  return g_strdup_printf ("%.4g ns", value);
}

/* ------------------------------------------------------------------ painter */

static void
tw_histogram_painter_class_init (TwHistogramPainterClass *klass)
{
}

static void
tw_histogram_painter_init (TwHistogramPainter *self)
{
  self->show_stats = TRUE;
  self->selected_bin = -1;
}

/**
 * tw_histogram_painter_new:
 *
 * Returns: (transfer full): a painter: linear y, counts per bin, statistics shown
 */
TwHistogramPainter *
tw_histogram_painter_new (void)
{
  return g_object_new (TW_TYPE_HISTOGRAM_PAINTER, NULL);
}

/**
 * tw_histogram_painter_set_y_scale:
 * @scale: linear counts, or log10(1 + count)
 */
void
tw_histogram_painter_set_y_scale (TwHistogramPainter *self,
                                  TwHistogramYScale   scale)
{
  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));
  self->y_scale = scale;
}

/**
 * tw_histogram_painter_get_y_scale:
 *
 * Returns: the y scale
 */
TwHistogramYScale
tw_histogram_painter_get_y_scale (TwHistogramPainter *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), TW_HISTOGRAM_Y_LINEAR);
  return self->y_scale;
}

/**
 * tw_histogram_painter_set_cumulative:
 * @cumulative: draw, for each bin, the values up to its upper edge (underflow included)
 */
void
tw_histogram_painter_set_cumulative (TwHistogramPainter *self,
                                     gboolean            cumulative)
{
  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));
  self->cumulative = !!cumulative;
}

/**
 * tw_histogram_painter_get_cumulative:
 *
 * Returns: whether bars are cumulative
 */
gboolean
tw_histogram_painter_get_cumulative (TwHistogramPainter *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), FALSE);
  return self->cumulative;
}

/**
 * tw_histogram_painter_set_show_stats:
 * @show: draw the statistics box in the top right corner
 */
void
tw_histogram_painter_set_show_stats (TwHistogramPainter *self,
                                     gboolean            show)
{
  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));
  self->show_stats = !!show;
}

/**
 * tw_histogram_painter_set_selected_bin:
 * @bin: the bin drawn highlighted, or -1
 */
void
tw_histogram_painter_set_selected_bin (TwHistogramPainter *self,
                                       int                 bin)
{
  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));
  self->selected_bin = bin;
}

static double
bar_value (TwHistogramPainter        *self,
           const TwHistogramSnapshot *s,
           guint                      bin)
{
  guint64 c = s->bins[bin];

  if (self->cumulative)
    {
      c = s->underflow;
      for (guint b = 0; b <= bin; b++)
        c += s->bins[b];
    }
  return (double) c;
}

static double
max_bar_value (TwHistogramPainter        *self,
               const TwHistogramSnapshot *s)
{
  double top = 0;
  guint64 sum = s->underflow;

  for (guint b = 0; b < s->n_bins; b++)
    {
      sum += s->bins[b];
      top = MAX (top, self->cumulative ? (double) sum : (double) s->bins[b]);
    }
  return top;
}

/* Linear: a round step above the largest count; log: the next power of ten. */
static double
axis_top (TwHistogramPainter *self,
          double              top)
{
  double step;

  if (top <= 0)
    return 1;
  if (self->y_scale == TW_HISTOGRAM_Y_LOG)
    return pow (10, ceil (log10 (top + 1)));
  step = pow (10, floor (log10 (top)));
  return ceil (top / step) * step;
}

static double
height_fraction (TwHistogramPainter *self,
                 double              value,
                 double              top)
{
  if (value <= 0)
    return 0;
  if (self->y_scale == TW_HISTOGRAM_Y_LOG)
    return log10 (value + 1) / log10 (top + 1);
  return value / top;
}

typedef struct {
  double x0, y0, w, h;   /* the plot area */
} PlotArea;

static PlotArea
plot_area (int width,
           int height)
{
  PlotArea a = {
    TW_HISTOGRAM_MARGIN_LEFT, TW_HISTOGRAM_MARGIN_TOP,
    MAX (1, width - TW_HISTOGRAM_MARGIN_LEFT - TW_HISTOGRAM_MARGIN_RIGHT),
    MAX (1, height - TW_HISTOGRAM_MARGIN_TOP - TW_HISTOGRAM_MARGIN_BOTTOM),
  };
  return a;
}

/**
 * tw_histogram_painter_get_bar:
 * @bin: a bin of @snapshot
 * @bar: (out): the bar's rectangle in px; zero height for an empty bin
 *
 * Returns: %FALSE when @bin is out of range
 */
gboolean
tw_histogram_painter_get_bar (TwHistogramPainter        *self,
                              const TwHistogramSnapshot *snapshot,
                              int                        width,
                              int                        height,
                              guint                      bin,
                              cairo_rectangle_t         *bar)
{
  PlotArea a = plot_area (width, height);
  double top;
  double bw;
  double h;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), FALSE);
  g_return_val_if_fail (snapshot != NULL && bar != NULL, FALSE);

  if (bin >= snapshot->n_bins)
    return FALSE;
  top = axis_top (self, max_bar_value (self, snapshot));
  bw = a.w / snapshot->n_bins;
  /* whole pixels so that neighbouring bars never blend and tests read exact rows */
  h = round (a.h * height_fraction (self, bar_value (self, snapshot, bin), top));
  bar->x = round (a.x0 + bin * bw);
  bar->width = MAX (1, round (a.x0 + (bin + 1) * bw) - bar->x - (bw >= 4 ? 1 : 0));
  bar->y = a.y0 + a.h - h;
  bar->height = h;
  return TRUE;
}

/**
 * tw_histogram_painter_bin_at:
 * @x: px from the left
 * @y: px from the top
 *
 * Returns: the bin whose column holds (@x, @y) in the plot area, or -1
 */
int
tw_histogram_painter_bin_at (TwHistogramPainter        *self,
                             const TwHistogramSnapshot *snapshot,
                             int                        width,
                             int                        height,
                             double                     x,
                             double                     y)
{
  PlotArea a = plot_area (width, height);
  int bin;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), -1);
  if (snapshot == NULL || snapshot->n_bins == 0)
    return -1;
  if (x < a.x0 || x >= a.x0 + a.w || y < a.y0 || y > a.y0 + a.h)
    return -1;
  bin = (int) floor ((x - a.x0) / (a.w / snapshot->n_bins));
  return CLAMP (bin, 0, (int) snapshot->n_bins - 1);
}

/**
 * tw_histogram_painter_dup_bin_text:
 * @bin: a bin
 *
 * Returns: (transfer full) (nullable): "[lower, upper): count (share %)" for a tooltip
 */
char *
tw_histogram_painter_dup_bin_text (TwHistogramPainter        *self,
                                   const TwHistogramSnapshot *snapshot,
                                   guint                      bin)
{
  g_autofree char *lo = NULL;
  g_autofree char *hi = NULL;
  double share;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), NULL);
  if (snapshot == NULL || bin >= snapshot->n_bins)
    return NULL;
  lo = tw_histogram_painter_format_value (snapshot, snapshot->edges[bin]);
  hi = tw_histogram_painter_format_value (snapshot, snapshot->edges[bin + 1]);
  share = snapshot->count ? 100.0 * snapshot->bins[bin] / snapshot->count : 0;
  if (self->cumulative)
    return g_strdup_printf ("[%s, %s)\n%" G_GUINT64_FORMAT " values (%.2f %%)\n"
                            "%.0f up to %s (%.2f %%)", lo, hi, snapshot->bins[bin], share,
                            bar_value (self, snapshot, bin), hi,
                            snapshot->count ? 100.0 * bar_value (self, snapshot, bin) / snapshot->count : 0);
  return g_strdup_printf ("[%s, %s)\n%" G_GUINT64_FORMAT " values (%.2f %%)", lo, hi,
                          snapshot->bins[bin], share);
}

static void
draw_text (cairo_t     *cr,
           PangoLayout *layout,
           const char  *text,
           double       x,
           double       y,
           double       x_align,
           double       y_align)
{
  int w, h;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, round (x - x_align * w), round (y - y_align * h));
  pango_cairo_show_layout (cr, layout);
}

static char *
format_count (double c)
{
  if (c >= 1e6)
    return g_strdup_printf ("%.3gM", c / 1e6);
  if (c >= 1e4)
    return g_strdup_printf ("%.3gk", c / 1e3);
  return g_strdup_printf ("%.0f", c);
}

static char *
stats_text (const TwHistogramSnapshot *s)
{
  GString *t = g_string_new (NULL);
  g_autofree char *min = tw_histogram_painter_format_value (s, s->min);
  g_autofree char *max = tw_histogram_painter_format_value (s, s->max);
  g_autofree char *mean = tw_histogram_painter_format_value (s, s->mean);

  g_string_append_printf (t, "count %" G_GUINT64_FORMAT "\nmin %s\nmax %s\nmean %s",
                          s->count, min, max, mean);
  for (guint p = 0; p < G_N_ELEMENTS (PERCENTS); p++)
    {
      g_autofree char *v = tw_histogram_painter_format_value (s, s->percentiles[p]);
      g_string_append_printf (t, "\n%s %s%s", PERCENT_NAMES[p], s->exact_percentiles ? "" : "≈ ", v);
    }
  g_string_append_printf (t, "\nbelow %" G_GUINT64_FORMAT "  above %" G_GUINT64_FORMAT,
                          s->underflow, s->overflow);
  return g_string_free (t, FALSE);
}

/**
 * tw_histogram_painter_draw:
 * @snapshot: (nullable): what to draw; %NULL draws empty axes
 *
 * Draws the background, the axes with their units, the bars and the statistics box.
 */
void
tw_histogram_painter_draw (TwHistogramPainter        *self,
                           cairo_t                   *cr,
                           const TwHistogramSnapshot *snapshot,
                           int                        width,
                           int                        height)
{
  PlotArea a = plot_area (width, height);
  g_autoptr(PangoLayout) layout = NULL;
  PangoFontDescription *font;
  AxisUnit unit = { 1, "" };
  double top = 1;

  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));

  cairo_save (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);

  if (snapshot)
    {
      unit = pick_unit (snapshot);
      top = axis_top (self, max_bar_value (self, snapshot));
    }

  /* grid and y labels */
  cairo_set_line_width (cr, 1);
  {
    double ticks[12];
    guint n_ticks = 0;

    if (self->y_scale == TW_HISTOGRAM_Y_LOG)
      for (double t = 1; t <= top && n_ticks < G_N_ELEMENTS (ticks); t *= 10)
        ticks[n_ticks++] = t;
    else
      for (guint i = 0; i <= 4; i++)
        ticks[n_ticks++] = top * i / 4;
    for (guint i = 0; i < n_ticks; i++)
      {
        double y = round (a.y0 + a.h - a.h * height_fraction (self, ticks[i], top)) + 0.5;
        g_autofree char *label = format_count (ticks[i]);

        cairo_set_source_rgb (cr, 0.9, 0.9, 0.9);
        cairo_move_to (cr, a.x0, y);
        cairo_line_to (cr, a.x0 + a.w, y);
        cairo_stroke (cr);
        cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
        draw_text (cr, layout, label, a.x0 - 4, y, 1, 0.5);
      }
  }

  /* bars */
  if (snapshot)
    for (guint b = 0; b < snapshot->n_bins; b++)
      {
        cairo_rectangle_t r;

        tw_histogram_painter_get_bar (self, snapshot, width, height, b, &r);
        if (r.height <= 0)
          continue;
        if ((int) b == self->selected_bin)
          cairo_set_source_rgb (cr, 0.95, 0.55, 0.10);
        else
          cairo_set_source_rgb (cr, 0.26, 0.52, 0.96);
        cairo_rectangle (cr, r.x, r.y, r.width, r.height);
        cairo_fill (cr);
      }

  /* axes */
  cairo_set_source_rgb (cr, 0.2, 0.2, 0.2);
  cairo_move_to (cr, a.x0 - 0.5, a.y0);
  cairo_line_to (cr, a.x0 - 0.5, a.y0 + a.h + 0.5);
  cairo_line_to (cr, a.x0 + a.w, a.y0 + a.h + 0.5);
  cairo_stroke (cr);

  /* x labels at bin edges, as many as fit */
  if (snapshot && snapshot->n_bins > 0)
    {
      double bw = a.w / snapshot->n_bins;
      guint step = MAX (1, (guint) ceil (70.0 / bw));

      for (guint e = 0; e <= snapshot->n_bins; e += step)
        {
          double x = round (a.x0 + e * bw) + 0.5;
          g_autofree char *label = g_strdup_printf ("%.4g", snapshot->edges[e] / unit.divisor);

          cairo_move_to (cr, x, a.y0 + a.h);
          cairo_line_to (cr, x, a.y0 + a.h + 4);
          cairo_stroke (cr);
          draw_text (cr, layout, label, x, a.y0 + a.h + 5, e == 0 ? 0 : 0.5, 0);
        }
    }
  {
    g_autofree char *x_title = g_strdup_printf ("%s%s%s%s", snapshot && snapshot->scale == TW_HISTOGRAM_SCALE_LOG ? "log bins, " : "",
                                                unit.name[0] ? "value (" : "value", unit.name,
                                                unit.name[0] ? ")" : "");
    g_autofree char *y_title = g_strdup_printf ("%s%s", self->cumulative ? "cumulative count" : "count",
                                                self->y_scale == TW_HISTOGRAM_Y_LOG ? " (log)" : "");

    draw_text (cr, layout, x_title, a.x0 + a.w / 2, height - 2, 0.5, 1);
    cairo_save (cr);
    cairo_translate (cr, 2, a.y0 + a.h / 2);
    cairo_rotate (cr, -G_PI / 2);
    pango_cairo_update_layout (cr, layout);
    draw_text (cr, layout, y_title, 0, 0, 0.5, 0);
    cairo_restore (cr);
    pango_cairo_update_layout (cr, layout);
  }

  /* statistics */
  if (self->show_stats && snapshot)
    {
      g_autofree char *text = stats_text (snapshot);
      int w, h;

      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
      cairo_rectangle (cr, a.x0 + a.w - w - 12, a.y0 + 2, w + 8, h + 6);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 0.6, 0.6, 0.6);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.1);
      cairo_move_to (cr, a.x0 + a.w - w - 8, a.y0 + 5);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_restore (cr);
}

/**
 * tw_histogram_painter_export:
 * @format: PNG or SVG
 * @path: the file to write
 *
 * Returns: %FALSE with @error set when the file cannot be written
 */
gboolean
tw_histogram_painter_export (TwHistogramPainter        *self,
                             const TwHistogramSnapshot *snapshot,
                             TwHistogramExportFormat    format,
                             const char                *path,
                             int                        width,
                             int                        height,
                             GError                   **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (format == TW_HISTOGRAM_EXPORT_SVG)
    surface = cairo_svg_surface_create (path, width, height);
  else
    surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cr = cairo_create (surface);
  tw_histogram_painter_draw (self, cr, snapshot, width, height);
  cairo_destroy (cr);
  if (format == TW_HISTOGRAM_EXPORT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  else
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Cannot write “%s”: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
