/* tw-histogram-over-time.c: one histogram per stretch of the trace, side by side in time
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A soak test of hours has one histogram that hides *when* the long measurements came:
 * a drift, a burst at minute 40, a daily job. Here time runs left to right in windows,
 * length bottom to top on a log scale, and a cell's shade is how many measurements of
 * that window fell in that length bin (log counts, so a single outlier stays visible).
 * Each window's longest measurement is marked, the longest of all with a dot; a click
 * on a window activates its longest (::row-activated), which the page shows on the
 * timeline.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tw-histogram-over-time.h"
#include "tw-palette.h"
#include "tw-timeline-painter.h"

#define N_BINS        24
#define WINDOW_PX     8
#define MARGIN_LEFT   64
#define MARGIN_RIGHT  8
#define MARGIN_TOP    6
#define MARGIN_BOTTOM 18

struct _TwHistogramOverTime
{
  GtkWidget           parent_instance;

  TwMeasurementTable *table;
  guint64             start;
  guint64             end;

  /* the grid, for n_windows and the table's generation it was made from */
  guint               n_windows;
  guint64             generation;
  guint32            *counts;        /* n_windows × N_BINS */
  guint32             max_count;
  gsize              *max_rows;      /* per window, G_MAXSIZE when empty */
  gsize               worst_row;
  double              log_lo;        /* log10 of the lengths' bounds (ns) */
  double              log_hi;
};

G_DEFINE_FINAL_TYPE (TwHistogramOverTime, tw_histogram_over_time, GTK_TYPE_WIDGET)

enum { ROW_ACTIVATED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* data colours of its own (the palette gives the chrome) */
static const double cell_rgb[3] = { 0.21, 0.52, 0.89 };
static const double worst_rgb[3] = { 0.86, 0.20, 0.18 };

static guint
plot_windows (int width)
{
  return CLAMP ((width - MARGIN_LEFT - MARGIN_RIGHT) / WINDOW_PX, 4, 400);
}

static guint
window_of (TwHistogramOverTime *self,
           guint64              time)
{
  guint64 span = self->end > self->start ? self->end - self->start : 1;
  guint64 offset = time > self->start ? MIN (time - self->start, span - 1) : 0;

  return (guint) ((double) offset / span * self->n_windows);
}

static guint
bin_of (TwHistogramOverTime *self,
        guint64              length)
{
  double u;

  if (self->log_hi <= self->log_lo)
    return 0;
  u = (log10 (MAX (length, 1)) - self->log_lo) / (self->log_hi - self->log_lo);
  return (guint) CLAMP (u * N_BINS, 0, N_BINS - 1);
}

static void
find_length_bounds (TwHistogramOverTime *self)
{
  gsize n = tw_measurement_table_get_n_rows (self->table);
  guint64 lo = G_MAXUINT64, hi = 0;

  for (gsize r = 0; r < n; r++)
    {
      guint64 length = MAX (tw_measurement_table_get_row (self->table, r)->length, 1);

      lo = MIN (lo, length);
      hi = MAX (hi, length);
    }
  self->log_lo = n ? log10 (lo) : 0;
  self->log_hi = n ? log10 (hi) : 0;
}

/* One pass over the rows: counts per cell, the longest row per window and of all. */
static void
build_grid (TwHistogramOverTime *self,
            guint                n_windows)
{
  gsize n = self->table ? tw_measurement_table_get_n_rows (self->table) : 0;

  self->n_windows = n_windows;
  self->generation = self->table ? tw_measurement_table_get_generation (self->table) : 0;
  g_free (self->counts);
  g_free (self->max_rows);
  self->counts = g_new0 (guint32, (gsize) n_windows * N_BINS);
  self->max_rows = g_new (gsize, n_windows);
  for (guint w = 0; w < n_windows; w++)
    self->max_rows[w] = G_MAXSIZE;
  self->worst_row = G_MAXSIZE;
  self->max_count = 0;
  if (n == 0)
    return;
  find_length_bounds (self);
  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (self->table, r);
      guint w = window_of (self, m->end);
      guint32 *cell = &self->counts[(gsize) w * N_BINS + bin_of (self, m->length)];

      self->max_count = MAX (self->max_count, ++*cell);
      if (self->max_rows[w] == G_MAXSIZE ||
          m->length > tw_measurement_table_get_row (self->table, self->max_rows[w])->length)
        self->max_rows[w] = r;
      if (self->worst_row == G_MAXSIZE ||
          m->length > tw_measurement_table_get_row (self->table, self->worst_row)->length)
        self->worst_row = r;
    }
}

static void
ensure_grid (TwHistogramOverTime *self,
             int                  width)
{
  guint n_windows = plot_windows (width);

  if (self->counts == NULL || n_windows != self->n_windows ||
      (self->table && tw_measurement_table_get_generation (self->table) != self->generation))
    build_grid (self, n_windows);
}

static double
y_of_log (TwHistogramOverTime *self,
          double               log_length,
          int                  height)
{
  double plot_h = height - MARGIN_TOP - MARGIN_BOTTOM;
  double u = self->log_hi > self->log_lo
             ? (log_length - self->log_lo) / (self->log_hi - self->log_lo) : 0.5;

  return height - MARGIN_BOTTOM - u * plot_h;
}

static void
draw_cells (TwHistogramOverTime *self,
            cairo_t             *cr,
            const TwPalette     *palette,
            int                  width,
            int                  height)
{
  double window_w = (double) (width - MARGIN_LEFT - MARGIN_RIGHT) / self->n_windows;
  double bin_h = (double) (height - MARGIN_TOP - MARGIN_BOTTOM) / N_BINS;
  double log_max = log1p (self->max_count);

  for (guint w = 0; w < self->n_windows; w++)
    for (guint b = 0; b < N_BINS; b++)
      {
        guint32 count = self->counts[(gsize) w * N_BINS + b];
        double shade;

        if (count == 0)
          continue;
        /* log counts: one measurement is still a visible cell */
        shade = 0.2 + 0.8 * log1p (count) / log_max;
        cairo_set_source_rgb (cr,
                              palette->background[0] + (cell_rgb[0] - palette->background[0]) * shade,
                              palette->background[1] + (cell_rgb[1] - palette->background[1]) * shade,
                              palette->background[2] + (cell_rgb[2] - palette->background[2]) * shade);
        cairo_rectangle (cr, MARGIN_LEFT + w * window_w, height - MARGIN_BOTTOM - (b + 1) * bin_h,
                         ceil (window_w), ceil (bin_h));
        cairo_fill (cr);
      }
}

static void
draw_maxima (TwHistogramOverTime *self,
             cairo_t             *cr,
             const TwPalette     *palette,
             int                  width,
             int                  height)
{
  double window_w = (double) (width - MARGIN_LEFT - MARGIN_RIGHT) / self->n_windows;

  cairo_set_source_rgb (cr, palette->foreground[0], palette->foreground[1], palette->foreground[2]);
  cairo_set_line_width (cr, 1.5);
  for (guint w = 0; w < self->n_windows; w++)
    {
      double y;

      if (self->max_rows[w] == G_MAXSIZE)
        continue;
      y = y_of_log (self, log10 (MAX (tw_measurement_table_get_row (self->table, self->max_rows[w])->length, 1)), height);
      cairo_move_to (cr, MARGIN_LEFT + w * window_w, y);
      cairo_line_to (cr, MARGIN_LEFT + (w + 1) * window_w, y);
    }
  cairo_stroke (cr);
  if (self->worst_row != G_MAXSIZE)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (self->table, self->worst_row);
      guint w = window_of (self, m->end);

      cairo_set_source_rgb (cr, worst_rgb[0], worst_rgb[1], worst_rgb[2]);
      cairo_arc (cr, MARGIN_LEFT + (w + 0.5) * window_w, y_of_log (self, log10 (MAX (m->length, 1)), height),
                 4, 0, 2 * G_PI);
      cairo_fill (cr);
    }
}

static void
draw_axes (TwHistogramOverTime *self,
           cairo_t             *cr,
           const TwPalette     *palette,
           int                  width,
           int                  height)
{
  g_autofree char *span = tw_timeline_format_duration (self->end - self->start);

  cairo_set_source_rgb (cr, palette->foreground[0], palette->foreground[1], palette->foreground[2]);
  cairo_set_font_size (cr, 10);
  for (guint t = 0; t <= 2; t++)
    {
      double log_length = self->log_lo + (self->log_hi - self->log_lo) * t / 2;
      g_autofree char *text = tw_timeline_format_duration ((guint64) round (pow (10, log_length)));

      cairo_move_to (cr, 2, y_of_log (self, log_length, height) + 4);
      cairo_show_text (cr, text);
    }
  cairo_move_to (cr, MARGIN_LEFT, height - 5);
  cairo_show_text (cr, "0");
  {
    cairo_text_extents_t ext;

    cairo_text_extents (cr, span, &ext);
    cairo_move_to (cr, width - MARGIN_RIGHT - ext.x_advance, height - 5);
    cairo_show_text (cr, span);
  }
}

static void
tw_histogram_over_time_snapshot (GtkWidget   *widget,
                                 GtkSnapshot *snapshot)
{
  TwHistogramOverTime *self = TW_HISTOGRAM_OVER_TIME (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  TwPalette palette;
  cairo_t *cr;

  if (self->table == NULL || width <= MARGIN_LEFT + MARGIN_RIGHT || height <= MARGIN_TOP + MARGIN_BOTTOM)
    return;
  ensure_grid (self, width);
  tw_palette_init_from_widget (&palette, widget);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw_cells (self, cr, &palette, width, height);
  draw_maxima (self, cr, &palette, width, height);
  draw_axes (self, cr, &palette, width, height);
  cairo_destroy (cr);
}

/**
 * tw_histogram_over_time_window_at:
 * @x: in widget coordinates
 *
 * Returns: the window under @x, or G_MAXUINT outside the plot
 */
guint
tw_histogram_over_time_window_at (TwHistogramOverTime *self,
                                  double               x)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double plot_w = width - MARGIN_LEFT - MARGIN_RIGHT;

  g_return_val_if_fail (TW_IS_HISTOGRAM_OVER_TIME (self), G_MAXUINT);

  ensure_grid (self, width);
  if (x < MARGIN_LEFT || x >= MARGIN_LEFT + plot_w || plot_w <= 0)
    return G_MAXUINT;
  return MIN ((guint) ((x - MARGIN_LEFT) / plot_w * self->n_windows), self->n_windows - 1);
}

static void
pressed_cb (GtkGestureClick     *gesture,
            int                  n_press,
            double               x,
            double               y,
            TwHistogramOverTime *self)
{
  guint window = tw_histogram_over_time_window_at (self, x);
  gsize row = window == G_MAXUINT ? G_MAXSIZE : self->max_rows[window];

  if (row != G_MAXSIZE)
    g_signal_emit (self, signals[ROW_ACTIVATED], 0, (guint64) row);
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    data)
{
  TwHistogramOverTime *self = TW_HISTOGRAM_OVER_TIME (widget);
  guint window = tw_histogram_over_time_window_at (self, x);
  g_autofree char *from = NULL, *to = NULL, *longest = NULL, *text = NULL;
  guint64 span = self->end - self->start;
  guint n = 0;

  if (window == G_MAXUINT || self->max_rows[window] == G_MAXSIZE)
    return FALSE;
  for (guint b = 0; b < N_BINS; b++)
    n += self->counts[(gsize) window * N_BINS + b];
  from = tw_timeline_format_duration (span * window / self->n_windows);
  to = tw_timeline_format_duration (span * (window + 1) / self->n_windows);
  longest = tw_timeline_format_duration (tw_measurement_table_get_row (self->table, self->max_rows[window])->length);
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%s to %s: %u measurement, the longest %s (click to show it)",
                                       "%s to %s: %u measurements, the longest %s (click to show it)",
                                       n),
                          from, to, n, longest);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
tw_histogram_over_time_measure (GtkWidget      *widget,
                                GtkOrientation  orientation,
                                int             for_size,
                                int            *minimum,
                                int            *natural,
                                int            *minimum_baseline,
                                int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : 120;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 600 : 200;
}

static void
tw_histogram_over_time_finalize (GObject *object)
{
  TwHistogramOverTime *self = TW_HISTOGRAM_OVER_TIME (object);

  g_clear_object (&self->table);
  g_clear_pointer (&self->counts, g_free);
  g_clear_pointer (&self->max_rows, g_free);
  G_OBJECT_CLASS (tw_histogram_over_time_parent_class)->finalize (object);
}

static void
tw_histogram_over_time_class_init (TwHistogramOverTimeClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tw_histogram_over_time_finalize;
  widget_class->snapshot = tw_histogram_over_time_snapshot;
  widget_class->measure = tw_histogram_over_time_measure;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);

  /**
   * TwHistogramOverTime::row-activated:
   * @row: the table row of the longest measurement of the window clicked
   */
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass),
                                         G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
tw_histogram_over_time_init (TwHistogramOverTime *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), NULL);
  self->worst_row = G_MAXSIZE;
}

GtkWidget *
tw_histogram_over_time_new (void)
{
  return g_object_new (TW_TYPE_HISTOGRAM_OVER_TIME, NULL);
}

/**
 * tw_histogram_over_time_set_table:
 * @table: (nullable): the measurements; a table that grows (live) is drawn anew
 * @start: the trace's first time, the left edge
 * @end: its last time, the right edge
 */
void
tw_histogram_over_time_set_table (TwHistogramOverTime *self,
                                  TwMeasurementTable  *table,
                                  guint64              start,
                                  guint64              end)
{
  g_return_if_fail (TW_IS_HISTOGRAM_OVER_TIME (self));

  g_set_object (&self->table, table);
  self->start = start;
  self->end = MAX (end, start + 1);
  g_clear_pointer (&self->counts, g_free);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Returns: the number of windows at the widget's width */
guint
tw_histogram_over_time_get_n_windows (TwHistogramOverTime *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_OVER_TIME (self), 0);
  ensure_grid (self, gtk_widget_get_width (GTK_WIDGET (self)));
  return self->n_windows;
}

/* Returns: the row of @window's longest measurement, G_MAXSIZE for an empty window */
gsize
tw_histogram_over_time_get_max_row (TwHistogramOverTime *self,
                                    guint                window)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_OVER_TIME (self), G_MAXSIZE);
  ensure_grid (self, gtk_widget_get_width (GTK_WIDGET (self)));
  g_return_val_if_fail (window < self->n_windows, G_MAXSIZE);
  return self->max_rows[window];
}

/* Returns: the row of the longest measurement, G_MAXSIZE without any */
gsize
tw_histogram_over_time_get_worst_row (TwHistogramOverTime *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_OVER_TIME (self), G_MAXSIZE);
  ensure_grid (self, gtk_widget_get_width (GTK_WIDGET (self)));
  return self->worst_row;
}
