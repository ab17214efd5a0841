/* tw-histogram-painter.c: draws a histogram with axes and statistics on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-histogram-painter.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

#include "tw-axis.h"

static const char *const PERCENT_NAMES[4] = { "p50", "p90", "p99", "p99.9" };

/* The data colours keep their hue on either background; the chrome follows the palette. */
static const double BAR_RGB[3] = { 0.26, 0.52, 0.96 };
static const double SELECTED_BAR_RGB[3] = { 0.95, 0.55, 0.10 };

#define TICK_LABEL_GAP 10   /* px between neighbouring x tick labels */
#define Y_TICKS_WANTED 4

struct _TwHistogramPainter
{
  GObject           parent_instance;
  TwHistogramYScale y_scale;
  gboolean          cumulative;
  gboolean          show_stats;
  int               selected_bin;
};

G_DEFINE_FINAL_TYPE (TwHistogramPainter, tw_histogram_painter, G_TYPE_OBJECT)

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

/* Counts are whole: ticks at 1, 2, 5 × 10^k values and never finer than 1. */
static double
count_step (double top)
{
  return MAX (1, tw_axis_nice_step (top / Y_TICKS_WANTED));
}

/* Linear: the first tick at or above the largest count; log: the next power of ten. */
static double
axis_top (TwHistogramPainter *self,
          double              top)
{
  double step;

  if (top <= 0)
    return 1;
  if (self->y_scale == TW_HISTOGRAM_Y_LOG)
    return pow (10, ceil (log10 (top + 1)));
  step = count_step (top);
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
  for (guint p = 0; p < G_N_ELEMENTS (PERCENT_NAMES); p++)
    {
      g_autofree char *v = tw_histogram_painter_format_value (s, s->percentiles[p]);
      g_string_append_printf (t, "\n%s %s%s", PERCENT_NAMES[p], s->exact_percentiles ? "" : "≈ ", v);
    }
  g_string_append_printf (t, "\nbelow %" G_GUINT64_FORMAT "  above %" G_GUINT64_FORMAT,
                          s->underflow, s->overflow);
  return g_string_free (t, FALSE);
}

/* ------------------------------------------------------------------ axes */

static PangoLayout *
create_layout (cairo_t *cr)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");

  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

typedef TwHistogramTick Tick;

static void
tick_clear (gpointer data)
{
  g_free (((Tick *) data)->label);
}

/* x of @value on the axis: bins have equal widths, and inside a bin the axis is linear,
 * or logarithmic for log bins. NAN outside the bins. */
static double
value_to_x (const TwHistogramSnapshot *s,
            const PlotArea            *a,
            double                     value)
{
  guint lo = 0, hi;
  double e0, e1, frac = 0;

  if (s->n_bins == 0 || value < s->edges[0] || value > s->edges[s->n_bins])
    return NAN;
  hi = s->n_bins;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (s->edges[mid] <= value)
        lo = mid;
      else
        hi = mid;
    }
  e0 = s->edges[lo];
  e1 = s->edges[lo + 1];
  if (e1 > e0 && s->scale == TW_HISTOGRAM_SCALE_LOG && e0 > 0)
    frac = log (value / e0) / log (e1 / e0);
  else if (e1 > e0)
    frac = (value - e0) / (e1 - e0);
  return a->x0 + (lo + CLAMP (frac, 0, 1)) * (a->w / s->n_bins);
}

/* Adds a tick at @value with @label (taken) unless it falls outside the bins. */
static void
add_tick (GArray                    *ticks,
          const TwHistogramSnapshot *s,
          const PlotArea            *a,
          PangoLayout               *layout,
          int                        width,
          double                     value,
          char                      *label)
{
  Tick t = { value, value_to_x (s, a, value), 0, 0, label };
  int w;

  if (isnan (t.x))
    {
      g_free (label);
      return;
    }
  pango_layout_set_text (layout, label, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  t.left = CLAMP (t.x - w / 2.0, 0, MAX (0, width - w));
  t.right = t.left + w;
  g_array_append_val (ticks, t);
}

static gboolean
ticks_fit (GArray *ticks)
{
  for (guint i = 1; i < ticks->len; i++)
    if (g_array_index (ticks, Tick, i).left
        < g_array_index (ticks, Tick, i - 1).right + TICK_LABEL_GAP)
      return FALSE;
  return ticks->len >= 2;
}

/* Linear steps of 1, 2, 5 × 10^k in @unit, from the finest that could fit. */
static GArray *
linear_ticks (const TwHistogramSnapshot *s,
              const PlotArea            *a,
              PangoLayout               *layout,
              int                        width,
              double                     divisor)
{
  double lo = s->edges[0] / divisor, hi = s->edges[s->n_bins] / divisor;
  double step = tw_axis_nice_step ((hi - lo) * 40 / a->w);

  for (int attempt = 0; attempt < 12; attempt++, step = tw_axis_nice_step (step * 1.5))
    {
      g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));

      g_array_set_clear_func (ticks, tick_clear);
      for (double k = ceil (lo / step - 1e-9); k * step <= hi + step * 1e-9; k++)
        add_tick (ticks, s, a, layout, width, MIN (k * step, hi) * divisor,
                  tw_axis_format_tick (k * step, step));
      if (ticks_fit (ticks) || attempt == 11)
        return g_steal_pointer (&ticks);
    }
  g_assert_not_reached ();
}

/* Log bins: 1, 2, 5 in every decade, or 1 in every decade, or in every n-th; each label
 * in the unit that suits it ("100 µs", "1 ms"). NULL when no such tick set fits. */
static GArray *
log_ticks (const TwHistogramSnapshot *s,
           const PlotArea            *a,
           PangoLayout               *layout,
           int                        width)
{
  static const double per_decade[][3] = { { 1, 2, 5 }, { 1, 0, 0 } };
  double lo = s->edges[0], hi = s->edges[s->n_bins];

  if (s->scale != TW_HISTOGRAM_SCALE_LOG || lo <= 0)
    return NULL;
  for (int every = 1; every <= 4; every++)
    for (guint set = every == 1 ? 0 : 1; set < G_N_ELEMENTS (per_decade); set++)
      {
        g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (Tick));

        g_array_set_clear_func (ticks, tick_clear);
        for (int k = (int) floor (log10 (lo)); k <= (int) ceil (log10 (hi)); k++)
          for (guint m = 0; m < 3 && per_decade[set][m] > 0; m++)
            {
              double v = per_decade[set][m] * pow (10, k);

              if (k % every == 0 && v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9))
                add_tick (ticks, s, a, layout, width, CLAMP (v, lo, hi),
                          tw_histogram_painter_format_value (s, v));
            }
        if (ticks_fit (ticks))
          return g_steal_pointer (&ticks);
      }
  return NULL;
}

/* The ticks of the x axis; a range too narrow for two labels keeps its first. */
static GArray *
compute_x_ticks (const TwHistogramSnapshot *s,
                 const PlotArea            *a,
                 PangoLayout               *layout,
                 int                        width,
                 gboolean                  *labels_have_units)
{
  GArray *ticks = log_ticks (s, a, layout, width);

  *labels_have_units = ticks != NULL;
  if (ticks == NULL)
    ticks = linear_ticks (s, a, layout, width, pick_unit (s).divisor);
  for (guint i = 1; i < ticks->len; i++)
    if (g_array_index (ticks, Tick, i).left
        < g_array_index (ticks, Tick, i - 1).right + TICK_LABEL_GAP)
      g_array_remove_index (ticks, i--);
  return ticks;
}

static void
draw_x_ticks (cairo_t                   *cr,
              PangoLayout               *layout,
              const TwHistogramSnapshot *s,
              const PlotArea            *a,
              int                        width,
              gboolean                  *labels_have_units)
{
  g_autoptr(GArray) ticks = compute_x_ticks (s, a, layout, width, labels_have_units);

  for (guint i = 0; i < ticks->len; i++)
    {
      const Tick *t = &g_array_index (ticks, Tick, i);
      double x = round (t->x) + 0.5;

      cairo_move_to (cr, x, a->y0 + a->h);
      cairo_line_to (cr, x, a->y0 + a->h + 4);
      cairo_stroke (cr);
      pango_layout_set_text (layout, t->label, -1);
      cairo_move_to (cr, t->left, a->y0 + a->h + 5);
      pango_cairo_show_layout (cr, layout);
    }
}

/* Counts of the y axis: 0 alone without values, powers of ten on a log scale. */
static guint
compute_y_ticks (TwHistogramPainter *self,
                 double              top,
                 gboolean            empty,
                 double              ticks[24])
{
  guint n_ticks = 0;

  if (empty)
    ticks[n_ticks++] = 0;
  else if (self->y_scale == TW_HISTOGRAM_Y_LOG)
    for (double t = 1; t <= top && n_ticks < 24; t *= 10)
      ticks[n_ticks++] = t;
  else
    for (double t = 0, step = count_step (top); t <= top && n_ticks < 24; t += step)
      ticks[n_ticks++] = t;
  return n_ticks;
}

static void
draw_y_ticks (TwHistogramPainter *self,
              cairo_t            *cr,
              PangoLayout        *layout,
              const PlotArea     *a,
              const TwPalette    *palette,
              double              top,
              gboolean            empty)
{
  double ticks[24];
  guint n_ticks = compute_y_ticks (self, top, empty, ticks);
  double grid[3], ink[3];

  tw_palette_mix (palette, 0.12, grid);
  tw_palette_mix (palette, 0.9, ink);
  for (guint i = 0; i < n_ticks; i++)
    {
      double y = round (a->y0 + a->h - a->h * height_fraction (self, ticks[i], top)) + 0.5;
      g_autofree char *label = format_count (ticks[i]);

      cairo_set_source_rgb (cr, grid[0], grid[1], grid[2]);
      cairo_move_to (cr, a->x0, y);
      cairo_line_to (cr, a->x0 + a->w, y);
      cairo_stroke (cr);
      cairo_set_source_rgb (cr, ink[0], ink[1], ink[2]);
      draw_text (cr, layout, label, a->x0 - 4, y, 1, 0.5);
    }
}

static void
draw_stats (cairo_t                   *cr,
            PangoLayout               *layout,
            const TwHistogramSnapshot *s,
            const PlotArea            *a,
            const TwPalette           *palette)
{
  g_autofree char *text = stats_text (s);
  double border[3];
  int w, h;

  tw_palette_mix (palette, 0.45, border);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_set_source_rgba (cr, palette->background[0], palette->background[1],
                         palette->background[2], 0.85);
  cairo_rectangle (cr, a->x0 + a->w - w - 12, a->y0 + 2, w + 8, h + 6);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, border[0], border[1], border[2]);
  cairo_stroke (cr);
  cairo_set_source_rgb (cr, palette->foreground[0], palette->foreground[1], palette->foreground[2]);
  cairo_move_to (cr, a->x0 + a->w - w - 8, a->y0 + 5);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_titles (TwHistogramPainter        *self,
             cairo_t                   *cr,
             PangoLayout               *layout,
             const TwHistogramSnapshot *snapshot,
             const PlotArea            *a,
             int                        height,
             AxisUnit                   unit,
             gboolean                   labels_have_units)
{
  gboolean log_bins = snapshot && snapshot->scale == TW_HISTOGRAM_SCALE_LOG;
  g_autofree char *x_title = NULL;
  gboolean log_y = self->y_scale == TW_HISTOGRAM_Y_LOG;
  const char *y_title = self->cumulative ? (log_y ? _("cumulative count (log)") : _("cumulative count"))
                                         : (log_y ? _("count (log)") : _("count"));

  if (labels_have_units || !unit.name[0])
    x_title = g_strdup (log_bins ? _("value, log bins") : _("value"));
  else
    x_title = g_strdup_printf (log_bins ? _("value (%s), log bins") : _("value (%s)"), unit.name);
  draw_text (cr, layout, x_title, a->x0 + a->w / 2, height - 2, 0.5, 1);
  cairo_save (cr);
  cairo_translate (cr, 2, a->y0 + a->h / 2);
  cairo_rotate (cr, -G_PI / 2);
  pango_cairo_update_layout (cr, layout);
  draw_text (cr, layout, y_title, 0, 0, 0.5, 0);
  cairo_restore (cr);
  pango_cairo_update_layout (cr, layout);
}

/**
 * tw_histogram_painter_draw:
 * @snapshot: (nullable): what to draw; %NULL draws empty axes
 * @palette: (nullable): the theme's colours; %NULL for the light style of exports
 *
 * Draws the background, the axes with their units, the bars and the statistics box.
 */
void
tw_histogram_painter_draw (TwHistogramPainter        *self,
                           cairo_t                   *cr,
                           const TwHistogramSnapshot *snapshot,
                           int                        width,
                           int                        height,
                           const TwPalette           *palette)
{
  PlotArea a = plot_area (width, height);
  g_autoptr(PangoLayout) layout = NULL;
  AxisUnit unit = { 1, "" };
  gboolean empty = snapshot == NULL || snapshot->n_bins == 0;
  gboolean labels_have_units = FALSE;
  double top = 1;
  double ink[3];

  g_return_if_fail (TW_IS_HISTOGRAM_PAINTER (self));

  palette = tw_palette_or_light (palette);
  tw_palette_mix (palette, 0.9, ink);
  cairo_save (cr);
  cairo_set_source_rgb (cr, palette->background[0], palette->background[1], palette->background[2]);
  cairo_paint (cr);

  layout = create_layout (cr);
  if (snapshot)
    {
      unit = pick_unit (snapshot);
      top = axis_top (self, max_bar_value (self, snapshot));
    }

  cairo_set_line_width (cr, 1);
  draw_y_ticks (self, cr, layout, &a, palette, top, empty);

  /* bars */
  for (guint b = 0; !empty && b < snapshot->n_bins; b++)
    {
      cairo_rectangle_t r;
      const double *rgb = (int) b == self->selected_bin ? SELECTED_BAR_RGB : BAR_RGB;

      tw_histogram_painter_get_bar (self, snapshot, width, height, b, &r);
      if (r.height <= 0)
        continue;
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, r.x, r.y, r.width, r.height);
      cairo_fill (cr);
    }

  /* axes */
  cairo_set_source_rgb (cr, ink[0], ink[1], ink[2]);
  cairo_move_to (cr, a.x0 - 0.5, a.y0);
  cairo_line_to (cr, a.x0 - 0.5, a.y0 + a.h + 0.5);
  cairo_line_to (cr, a.x0 + a.w, a.y0 + a.h + 0.5);
  cairo_stroke (cr);

  if (empty)
    draw_text (cr, layout, snapshot && snapshot->count > 0 ? _("No values inside the bins")
                                                            : _("No values yet"),
               a.x0 + a.w / 2, a.y0 + a.h / 2, 0.5, 0.5);
  else
    draw_x_ticks (cr, layout, snapshot, &a, width, &labels_have_units);
  draw_titles (self, cr, layout, snapshot, &a, height, unit, labels_have_units);

  if (self->show_stats && snapshot)
    draw_stats (cr, layout, snapshot, &a, palette);
  cairo_restore (cr);
}

/**
 * tw_histogram_painter_dup_x_ticks:
 * @snapshot: (nullable): what is drawn
 *
 * Returns: (transfer full) (element-type TwHistogramTick): the ticks under the x axis of
 *   a drawing of @width × @height px, left to right; empty without bins
 */
GArray *
tw_histogram_painter_dup_x_ticks (TwHistogramPainter        *self,
                                  const TwHistogramSnapshot *snapshot,
                                  int                        width,
                                  int                        height)
{
  PlotArea a = plot_area (width, height);
  cairo_surface_t *surface;
  cairo_t *cr;
  g_autoptr(PangoLayout) layout = NULL;
  gboolean labels_have_units;
  GArray *ticks;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), NULL);

  if (snapshot == NULL || snapshot->n_bins == 0)
    {
      ticks = g_array_new (FALSE, FALSE, sizeof (Tick));
      g_array_set_clear_func (ticks, tick_clear);
      return ticks;
    }
  /* labels are measured as a drawing would: the font map of a cairo image */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  layout = create_layout (cr);
  ticks = compute_x_ticks (snapshot, &a, layout, width, &labels_have_units);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return ticks;
}

/**
 * tw_histogram_painter_get_y_ticks:
 * @ticks: (out caller-allocates) (array fixed-size=24): the counts at the y axis's ticks
 *
 * Returns: how many ticks a drawing of @snapshot has, bottom to top
 */
guint
tw_histogram_painter_get_y_ticks (TwHistogramPainter        *self,
                                  const TwHistogramSnapshot *snapshot,
                                  double                     ticks[24])
{
  gboolean empty = snapshot == NULL || snapshot->n_bins == 0;

  g_return_val_if_fail (TW_IS_HISTOGRAM_PAINTER (self), 0);

  return compute_y_ticks (self, empty ? 1 : axis_top (self, max_bar_value (self, snapshot)),
                          empty, ticks);
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
  tw_histogram_painter_draw (self, cr, snapshot, width, height, NULL);
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
