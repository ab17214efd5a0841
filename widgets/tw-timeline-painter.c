/* tw-timeline-painter.c: draws the timeline of a trace on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-cpu-marks.h"
#include "tw-timeline-painter-private.h"

/*
 * One painter serves the widget, `tracewb-cli render` and the pixel tests, so what a user
 * sees is what the tests check.
 *
 * Cost per frame is O(pixels), not O(events): for each row the model summarizes what
 * meets every pixel column (tw_state_model_summarize(), from pre-aggregated bins on wide
 * views), the painter turns each column into one colour per lane, and runs of equal
 * columns become one rectangle, written straight into image surfaces or, elsewhere,
 * batched into one cairo fill per colour.
 */

G_DEFINE_FINAL_TYPE (TwTimelinePainter, tw_timeline_painter, G_TYPE_OBJECT)

static void
tw_timeline_painter_finalize (GObject *object)
{
  TwTimelinePainter *self = (TwTimelinePainter *)object;

  g_clear_object (&self->model);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->colors, g_array_unref);
  g_clear_pointer (&self->text_layouts, g_hash_table_unref);
  g_clear_pointer (&self->font, pango_font_description_free);
  g_clear_object (&self->text_context);
  g_clear_pointer (&self->text_surface_options, cairo_font_options_destroy);
  g_clear_pointer (&self->text_cr_options, cairo_font_options_destroy);

  G_OBJECT_CLASS (tw_timeline_painter_parent_class)->finalize (object);
}

static void
tw_timeline_painter_class_init (TwTimelinePainterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_timeline_painter_finalize;
}

static void
tw_timeline_painter_init (TwTimelinePainter *self)
{
  self->colors = g_array_new (FALSE, FALSE, sizeof (double) * 3);
  self->font = pango_font_description_from_string ("Sans 9");
  self->text_layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * tw_timeline_painter_new:
 *
 * Returns: (transfer full): a painter for @model, laid out
 */
TwTimelinePainter *
tw_timeline_painter_new (TwStateModel *model)
{
  TwTimelinePainter *self;

  g_return_val_if_fail (TW_IS_STATE_MODEL (model), NULL);

  self = g_object_new (TW_TYPE_TIMELINE_PAINTER, NULL);
  self->model = g_object_ref (model);
  self->trace = tw_state_model_get_trace (model);
  self->layout = tw_timeline_layout_new (model);
  return self;
}

/**
 * tw_timeline_painter_get_model:
 *
 * Returns: (transfer none): the model
 */
TwStateModel *
tw_timeline_painter_get_model (TwTimelinePainter *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (self), NULL);

  return self->model;
}

/**
 * tw_timeline_painter_get_layout:
 *
 * Returns: (transfer none): the rows the painter draws
 */
TwTimelineLayout *
tw_timeline_painter_get_layout (TwTimelinePainter *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (self), NULL);

  return self->layout;
}

/**
 * tw_timeline_painter_set_exact:
 * @exact: %TRUE to draw from the intervals themselves
 *
 * Draws rows from the model's intervals instead of their pre-aggregated bins: the same
 * pixels, at a cost that grows with the events in view. Tests use it to check the bins.
 */
void
tw_timeline_painter_set_exact (TwTimelinePainter *self,
                               gboolean           exact)
{
  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  self->exact = !!exact;
}

/* ---------------------------------------------------------------- colours */

/* Tasks appear as a live trace grows; their colours are computed once. */
static void
ensure_task_colors (TwTimelinePainter *self)
{
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);

  for (guint32 k = self->colors->len; k < n_tasks; k++)
    {
      double rgb[3];

      tw_timeline_task_color (tw_trace_get_task (self->trace, k), rgb);
      g_array_append_vals (self->colors, rgb, 1);
    }
}

void
tw_timeline_painter_get_task_color (TwTimelinePainter *self,
                                    guint32            task,
                                    double             rgb[3])
{
  const TwTask *t;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  if (task < self->colors->len)
    {
      memcpy (rgb, &g_array_index (self->colors, double, task * 3), sizeof (double) * 3);
      return;
    }
  if ((t = tw_trace_get_task (self->trace, task)))
    tw_timeline_task_color (t, rgb);
  else
    rgb[0] = rgb[1] = rgb[2] = 0.6;
}

/* ---------------------------------------------------------------- time and text */

/* Viewport maths works on ns relative to the visible range's begin, as integers until the
 * last step: a double holds an epoch timestamp (~1.5e18 ns) only to 256 ns. */
double
tw_timeline_viewport_time_to_x (const TwTimelineViewport *vp,
                                guint64                   time_ns)
{
  double plot = MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH);
  double span = (double) MAX (vp->end_ns - vp->begin_ns, 1);
  double offset = time_ns >= vp->begin_ns ? (double) (time_ns - vp->begin_ns)
                                          : -(double) (vp->begin_ns - time_ns);

  return TW_TIMELINE_LABEL_WIDTH + offset * plot / span;
}

guint64
tw_timeline_viewport_x_to_time (const TwTimelineViewport *vp,
                                double                    x)
{
  double plot = MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH);
  double span = (double) MAX (vp->end_ns - vp->begin_ns, 1);
  double offset = (x - TW_TIMELINE_LABEL_WIDTH) * span / plot;

  if (offset < 0)
    {
      guint64 back = (guint64) llround (-offset);
      return back >= vp->begin_ns ? 0 : vp->begin_ns - back;
    }
  return vp->begin_ns + (guint64) llround (offset);
}

/**
 * tw_timeline_format_duration:
 *
 * Returns: (transfer full): "1.25 s", "12.5 ms", "250 µs", "42 ns": three significant
 *   digits in the largest unit that keeps the number ≥ 1
 */
char *
tw_timeline_format_duration (guint64 ns)
{
  static const struct { guint64 scale; const char *unit; } units[] = {
    { G_GUINT64_CONSTANT (1000000000), "s" },
    { 1000000, "ms" },
    { 1000, "µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (ns >= units[i].scale)
      {
        double v = (double) ns / units[i].scale;
        int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        g_autofree char *text = g_strdup_printf ("%.*f", decimals, v);
        char *end = text + strlen (text) - 1;

        /* "1.50" reads better as "1.5" */
        if (decimals > 0)
          {
            while (*end == '0')
              *end-- = '\0';
            if (*end == '.')
              *end = '\0';
          }
        return g_strdup_printf ("%s %s", text, units[i].unit);
      }
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

/**
 * tw_timeline_format_time:
 * @step_ns: the precision that matters (the ruler's tick step), ≥ 1
 *
 * Returns: (transfer full): @time_ns in seconds with as many decimals as @step_ns needs
 */
char *
tw_timeline_format_time (guint64 time_ns,
                         guint64 step_ns)
{
  guint64 sec = time_ns / G_GUINT64_CONSTANT (1000000000);
  guint64 frac = time_ns % G_GUINT64_CONSTANT (1000000000);
  int decimals = 0;
  guint64 div = G_GUINT64_CONSTANT (1000000000);

  while (decimals < 9 && step_ns % div != 0)
    {
      div /= 10;
      decimals++;
    }
  if (decimals == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " s", sec);
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT " s", sec, decimals,
                          frac / div);
}

void
_tw_timeline_painter_draw_text (PangoLayout *layout,
                                cairo_t     *cr,
                                const char  *text,
                                double       x,
                                double       y,
                                double       max_width)
{
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (layout, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

/* pango_cairo_update_context() marks the context changed even when nothing did (pango
 * 1.50 sets its matrix anyway), which would shape every kept layout again: the context is
 * updated only when what it takes from @cr (the target's and @cr's font options, the
 * transformation but its offset) differs from the last time. */
static void
update_text_context (TwTimelinePainter *self,
                     cairo_t           *cr)
{
  cairo_font_options_t *surface_options = cairo_font_options_create ();
  cairo_font_options_t *cr_options = cairo_font_options_create ();
  cairo_matrix_t m;

  cairo_surface_get_font_options (cairo_get_target (cr), surface_options);
  cairo_get_font_options (cr, cr_options);
  cairo_get_matrix (cr, &m);
  if (self->text_context != NULL
      && cairo_font_options_equal (surface_options, self->text_surface_options)
      && cairo_font_options_equal (cr_options, self->text_cr_options)
      && m.xx == self->text_matrix.xx && m.yx == self->text_matrix.yx
      && m.xy == self->text_matrix.xy && m.yy == self->text_matrix.yy)
    {
      cairo_font_options_destroy (surface_options);
      cairo_font_options_destroy (cr_options);
      return;
    }

  if (self->text_context == NULL)
    self->text_context = pango_cairo_create_context (cr);
  else
    pango_cairo_update_context (cr, self->text_context);
  g_clear_pointer (&self->text_surface_options, cairo_font_options_destroy);
  g_clear_pointer (&self->text_cr_options, cairo_font_options_destroy);
  self->text_surface_options = surface_options;
  self->text_cr_options = cr_options;
  self->text_matrix = m;
}

/* Ruler labels move with the view: past this many kept layouts, start again. */
#define TEXT_LAYOUTS_MAX 1024

static PangoLayout *
text_layout (TwTimelinePainter *self,
             const char        *text,
             double             max_width)
{
  int width = max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1;
  g_autofree char *key = g_strdup_printf ("%d %s", width, text);
  PangoLayout *layout = g_hash_table_lookup (self->text_layouts, key);

  if (layout != NULL)
    return layout;
  if (g_hash_table_size (self->text_layouts) >= TEXT_LAYOUTS_MAX)
    g_hash_table_remove_all (self->text_layouts);
  layout = pango_layout_new (self->text_context);
  pango_layout_set_font_description (layout, self->font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, width);
  pango_layout_set_ellipsize (layout, width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  g_hash_table_insert (self->text_layouts, g_steal_pointer (&key), layout);
  return layout;
}

/* _tw_timeline_painter_draw_text() with a layout kept from earlier frames: shaping the
 * labels again was a fifth of a frame. */
void
_tw_timeline_painter_show_text (TwTimelinePainter *self,
                                cairo_t           *cr,
                                const char        *text,
                                double             x,
                                double             y,
                                double             max_width)
{
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, text_layout (self, text, max_width));
}

static void
draw_row (const TwPaintFrame  *f,
          cairo_t             *cr,
          PangoLayout         *layout,
          const TwTimelineRow *row,
          guint                index,
          double               y)
{
  TwTimelinePainter *self = f->self;
  g_autofree char *label = tw_timeline_layout_dup_row_label (self->layout, row);
  double label_x = 8 + row->indent * 12;
  double text_y = y + (row->height - 14) / 2.0;

  /* background: sections stand out, other rows alternate faintly */
  tw_timeline_set_source (cr, row->kind == TW_TIMELINE_ROW_HOST ? f->colors->host
                              : row->kind == TW_TIMELINE_ROW_SECTION ? f->colors->section
                              : index % 2 ? f->colors->stripe : f->colors->background);
  cairo_rectangle (cr, 0, y, f->vp->width, row->height);
  cairo_fill (cr);

  if (tw_timeline_layout_is_header (self->layout, index))
    {
      g_autofree char *with_arrow = g_strdup_printf ("%s %s",
                                                     tw_timeline_layout_is_collapsed (self->layout, index) ? "▸" : "▾",
                                                     label);
      g_clear_pointer (&label, g_free);
      label = g_steal_pointer (&with_arrow);
    }

  if (row->kind == TW_TIMELINE_ROW_TASK)
    {
      double rgb[3];

      tw_timeline_painter_get_task_color (self, row->id, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, label_x, y + row->height / 2.0 - 4, 8, 8);
      cairo_fill (cr);
      label_x += 12;
    }

  tw_timeline_set_source (cr, f->colors->text);
  _tw_timeline_painter_show_text (self, cr, label, label_x, text_y, TW_TIMELINE_LABEL_WIDTH - label_x - 6);
  if (row->kind == TW_TIMELINE_ROW_COUNTER)
    _tw_timeline_painter_draw_counter_scale (f, cr, layout, row, y);

  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, y, f->plot_x1 - f->plot_x0, row->height);
  cairo_clip (cr);
  _tw_direct_target_row_begin (f->direct, cr);
  switch (row->kind)
    {
    case TW_TIMELINE_ROW_CPU:
      _tw_timeline_painter_draw_cpu_runs (f, cr, row->id, y + IRQ_MAX_LANES * IRQ_LANE_HEIGHT + 2,
                     row->height - IRQ_MAX_LANES * IRQ_LANE_HEIGHT - 4);
      _tw_timeline_painter_draw_cpu_irqs (f, cr, row->id, y);
      break;
    case TW_TIMELINE_ROW_TASK:
      _tw_timeline_painter_draw_task_states (f, cr, row->id, y, row->height);
      _tw_timeline_painter_draw_task_marks (f, cr, row->id, y);
      break;
    case TW_TIMELINE_ROW_COUNTER:
      _tw_timeline_painter_draw_counter_track (f, cr, row->id, y, row->height);
      break;
    case TW_TIMELINE_ROW_SECTION:
    case TW_TIMELINE_ROW_PROCESS:
    case TW_TIMELINE_ROW_HOST:
    default:
      break;
    }
  _tw_direct_target_row_end (f->direct);
  if (row->kind == TW_TIMELINE_ROW_CPU)
    tw_timeline_cpu_marks_draw (self->model, cr, layout, f->colors, f->vp, row->id, y, row->height);
  cairo_restore (cr);

  tw_timeline_set_source (cr, f->colors->row_line);
  cairo_rectangle (cr, 0, y + row->height - 1, f->vp->width, 1);
  cairo_fill (cr);
}

/* 1, 2, 5 × 10^k ns: the smallest step that leaves @min_px between ticks. */
static guint64
ruler_step (const TwPaintFrame *f,
            double              min_px)
{
  double want = f->ns_per_px * min_px;
  guint64 step = 1;

  while ((double) step < want && step < G_GUINT64_CONSTANT (1000000000000000000))
    {
      if ((double) step * 2 >= want)
        return step * 2;
      if ((double) step * 5 >= want)
        return step * 5;
      step *= 10;
    }
  return step;
}

static void
draw_ruler (const TwPaintFrame *f,
            cairo_t            *cr)
{
  const TwTimelineViewport *vp = f->vp;
  guint64 step = ruler_step (f, 110);
  guint64 minor = step % 5 == 0 && step >= 5 ? step / 5 : step / 2 ? step / 2 : 1;
  guint64 first = (vp->begin_ns / step) * step;
  guint64 base = TW_TIME_NONE;
  double label_end = 0;

  tw_timeline_set_source (cr, f->colors->ruler);
  cairo_rectangle (cr, 0, 0, vp->width, TW_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);

  tw_timeline_set_source (cr, f->colors->ticks);
  for (guint64 t = (vp->begin_ns / minor) * minor; t < vp->end_ns; t += minor)
    {
      double x = tw_timeline_viewport_time_to_x (vp, t);

      if (x < f->plot_x0)
        continue;
      cairo_rectangle (cr, floor (x), TW_TIMELINE_RULER_HEIGHT - (t % step ? 5 : 11), 1,
                       t % step ? 5 : 11);
    }
  cairo_fill (cr);

  /* The first labelled tick shows absolute time; the others show the offset from it in
   * the unit that fits the zoom ("+250 µs"), which stays readable at every zoom. */
  tw_timeline_set_source (cr, f->colors->text);
  for (guint64 t = first; t < vp->end_ns; t += step)
    {
      double x = tw_timeline_viewport_time_to_x (vp, t);
      g_autofree char *text = NULL;
      int width;

      if (x < f->plot_x0)
        continue;
      if (base == TW_TIME_NONE)
        {
          base = t;
          text = tw_timeline_format_time (t, step);
        }
      else
        {
          g_autofree char *d = tw_timeline_format_duration (t - base);
          text = g_strdup_printf ("+%s", d);
        }
      /* a long absolute first label can reach over the next ticks: skip those labels */
      pango_layout_get_pixel_size (text_layout (f->self, text, -1), &width, NULL);
      if (x + 3 < label_end + 8)
        continue;
      _tw_timeline_painter_show_text (f->self, cr, text, x + 3, 4, -1);
      label_end = x + 3 + width;
    }

  tw_timeline_set_source (cr, f->colors->ruler_line);
  cairo_rectangle (cr, 0, TW_TIMELINE_RULER_HEIGHT - 1, vp->width, 1);
  cairo_rectangle (cr, TW_TIMELINE_LABEL_WIDTH - 1, 0, 1, vp->height);
  cairo_fill (cr);
}

/* The picked span gets a frame on its row, inside the plot (its ends may be off it). */
static void
draw_selected_span (const TwPaintFrame *f,
                    cairo_t            *cr)
{
  const TwSpanRef *span = f->vp->selected_span;
  const TwTimelineRow *rows;
  guint n_rows;
  int row;
  double x0, x1, y;

  if (span == NULL)
    return;
  rows = tw_timeline_layout_get_rows (f->self->layout, &n_rows);
  if (span->series == TW_SERIES_TASK_STATES)
    row = tw_timeline_layout_find_task_row (f->self->layout, span->id);
  else
    row = tw_timeline_layout_find_cpu_row (f->self->layout, span->id);
  if (row < 0 || tw_timeline_layout_is_header (f->self->layout, row))
    return;

  x0 = MAX (tw_timeline_viewport_time_to_x (f->vp, span->begin), f->plot_x0 - 3);
  x1 = MIN (tw_timeline_viewport_time_to_x (f->vp, span->end), f->plot_x1 + 3);
  y = TW_TIMELINE_RULER_HEIGHT + rows[row].y - f->vp->scroll_y;
  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, TW_TIMELINE_RULER_HEIGHT, f->plot_x1 - f->plot_x0,
                   f->vp->height - TW_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  tw_timeline_set_source (cr, f->colors->selection_text);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, floor (x0) + 1, y + 1, MAX (floor (x1) - floor (x0) - 2, 1), rows[row].height - 3);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* "1.25 ms: 933.512 s → 933.51325 s": the selection's length, then its ends to the
 * precision of one pixel, so they can be typed into Go to time or compared. */
static char *
describe_selection (const TwPaintFrame *f)
{
  const TwTimelineViewport *vp = f->vp;
  guint64 precision = ruler_step (f, 1);
  g_autofree char *d = tw_timeline_format_duration (vp->selection_end - vp->selection_begin);
  g_autofree char *begin = tw_timeline_format_time (vp->selection_begin, precision);
  g_autofree char *end = tw_timeline_format_time (vp->selection_end, precision);

  return g_strdup_printf ("%s: %s → %s", d, begin, end);
}

static void
draw_overlays (const TwPaintFrame *f,
               cairo_t            *cr,
               PangoLayout        *layout)
{
  const TwTimelineViewport *vp = f->vp;

  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, 0, f->plot_x1 - f->plot_x0, vp->height);
  cairo_clip (cr);

  if (vp->selection_end > vp->selection_begin)
    {
      double x0 = tw_timeline_viewport_time_to_x (vp, vp->selection_begin);
      double x1 = tw_timeline_viewport_time_to_x (vp, vp->selection_end);
      g_autofree char *text = describe_selection (f);

      tw_timeline_draw_selection (cr, f->colors, x0, x1, 0, vp->height);
      tw_timeline_set_source (cr, f->colors->selection_text);
      _tw_timeline_painter_draw_text (layout, cr, text, MAX (x0, f->plot_x0) + 4, 19, -1);
    }

  for (guint i = 0; i < vp->n_markers; i++)
    {
      double x = floor (tw_timeline_viewport_time_to_x (vp, vp->markers[i].time)) + 0.5;

      tw_timeline_draw_marker_line (cr, f->colors, x, TW_TIMELINE_RULER_HEIGHT, vp->height);
      tw_timeline_set_source (cr, f->colors->marker);
      if (vp->markers[i].name)
        _tw_timeline_painter_draw_text (layout, cr, vp->markers[i].name, x + 3, 19, -1);
    }

  if (vp->cursor_ns != TW_TIME_NONE)
    {
      tw_timeline_draw_cursor_line (cr, f->colors, tw_timeline_viewport_time_to_x (vp, vp->cursor_ns),
                                    0, vp->height);
    }
  cairo_restore (cr);

  if (vp->cursor_ns != TW_TIME_NONE)
    {
      g_autofree char *text = tw_timeline_format_time (vp->cursor_ns, 1);

      tw_timeline_set_source (cr, f->colors->cursor);
      _tw_timeline_painter_draw_text (layout, cr, text, 8, 10, TW_TIMELINE_LABEL_WIDTH - 12);
    }
}

/* Rows are opaque, follow one another without gaps and span the width, and the ruler is
 * opaque: when the rows reach from the ruler to the bottom, a background painted first
 * would only be painted over (it was a fill of the whole surface a frame). */
static gboolean
rows_cover_view (TwTimelinePainter        *self,
                 const TwTimelineViewport *vp)
{
  guint n_rows;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
  const TwTimelineRow *last;

  if (n_rows == 0 || tw_timeline_layout_find_row_at (self->layout, vp->scroll_y) < 0)
    return FALSE;
  last = &rows[n_rows - 1];
  return TW_TIMELINE_RULER_HEIGHT + last->y + last->height - vp->scroll_y >= vp->height;
}

/**
 * tw_timeline_painter_draw:
 *
 * Draws the ruler, the rows that intersect the viewport, the selection, markers and the
 * cursor, into (0, 0) – (width, height) of @cr.
 */
void
tw_timeline_painter_draw (TwTimelinePainter        *self,
                          cairo_t                  *cr,
                          const TwTimelineViewport *vp)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree TwSummary *summaries = NULL;
  g_autofree guint32 *keys = NULL;
  g_autoptr(GArray) segments = NULL;
  TwDirectTarget direct;
  TwTimelineColors colors;
  TwPaintFrame f = { self, vp, &direct };
  double rows_top = TW_TIMELINE_RULER_HEIGHT;
  const TwTimelineRow *rows;
  guint n_rows;
  int first;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));
  g_return_if_fail (vp->width > 0 && vp->height > 0);

  /* Live: counter samples published since the last frame extend their tracks; a
   * sampler that appeared since the last layout gets its rows now. */
  if (tw_counter_tracks_update (tw_timeline_layout_get_counter_tracks (self->layout)))
    tw_timeline_layout_update (self->layout);
  ensure_task_colors (self);

  f.plot_x0 = TW_TIMELINE_LABEL_WIDTH;
  f.plot_x1 = MAX (vp->width, TW_TIMELINE_LABEL_WIDTH + 1);
  f.ns_per_px = (double) MAX (vp->end_ns - vp->begin_ns, 1) / (f.plot_x1 - f.plot_x0);
  f.n_columns = (guint) (f.plot_x1 - f.plot_x0);
  summaries = g_new (TwSummary, f.n_columns);
  keys = g_new (guint32, f.n_columns);
  segments = g_array_new (FALSE, FALSE, sizeof (TwPaintSegment));
  f.summaries = summaries;
  f.keys = keys;
  f.segments = segments;
  tw_timeline_colors_init (&colors, vp->palette);
  f.colors = &colors;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, vp->width, vp->height);
  cairo_clip (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  if (!rows_cover_view (self, vp))
    {
      tw_timeline_set_source (cr, colors.background);
      cairo_paint (cr);
    }
  _tw_direct_target_begin (&direct, cr);

  update_text_context (self, cr);
  layout = pango_layout_new (self->text_context);
  pango_layout_set_font_description (layout, self->font);

  cairo_save (cr);
  cairo_rectangle (cr, 0, rows_top, vp->width, vp->height - rows_top);
  cairo_clip (cr);
  rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
  first = tw_timeline_layout_find_row_at (self->layout, vp->scroll_y);
  for (guint i = MAX (first, 0); i < n_rows; i++)
    {
      const TwTimelineRow *row = &rows[i];
      double y = rows_top + row->y - vp->scroll_y;

      if (y >= vp->height)
        break;
      draw_row (&f, cr, layout, row, i, y);
    }
  cairo_restore (cr);

  draw_selected_span (&f, cr);
  _tw_timeline_painter_draw_highlight (&f, cr);
  draw_ruler (&f, cr);
  draw_overlays (&f, cr, layout);
  cairo_restore (cr);
}
