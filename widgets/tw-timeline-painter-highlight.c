/* tw-timeline-painter-highlight.c: draws a highlighted path over the timeline's rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-highlight-style.h"
#include "tw-timeline-painter-private.h"

/*
 * Over the rows, in the theme's accent: a frame around the measured interval on its
 * task's row, and the path back to the first cause as one line that runs along a row
 * while that task ran towards the wakeup it caused and crosses to the woken task's row
 * at the wakeup, ending in an arrow. Stretches of other rows that took the measured
 * task's time are tinted by the colour of their role, with a solid band at the row's
 * foot that stays readable over any task colour. A piece whose row is filtered out is
 * left out; a folded task is drawn on the header that stands for it.
 */

#define LINE_WIDTH  2
#define BAND_HEIGHT 3
#define ARROW_SIZE  5
#define TINT_ALPHA  0.3

typedef struct {
  const TwPaintFrame  *f;
  cairo_t             *cr;
  const TwTimelineRow *rows;
} Ctx;

static int
find_row (const Ctx       *ctx,
          TwTimelinePlace  place)
{
  return tw_timeline_place_find_row (place, ctx->f->self->layout);
}

static double
row_top (const Ctx *ctx,
         int        row)
{
  return TW_TIMELINE_RULER_HEIGHT + ctx->rows[row].y - ctx->f->vp->scroll_y;
}

static double
row_middle (const Ctx *ctx,
            int        row)
{
  return floor (row_top (ctx, row) + ctx->rows[row].height / 2.0) - LINE_WIDTH / 2;
}

static double
x_of (const Ctx *ctx,
      guint64    time)
{
  double x = tw_timeline_viewport_time_to_x (ctx->f->vp, time);

  /* far off screen: cairo's fixed point would wrap */
  return floor (CLAMP (x, ctx->f->plot_x0 - 100, ctx->f->plot_x1 + 100));
}

static const double *
role_color (const TwTimelineColors  *colors,
            TwTimelineHighlightRole  role)
{
  switch (role)
    {
    case TW_TIMELINE_HIGHLIGHT_IRQ:     return colors->hardirq;
    case TW_TIMELINE_HIGHLIGHT_BLOCKED: return colors->mutex;
    case TW_TIMELINE_HIGHLIGHT_LOST:    return colors->lost;
    case TW_TIMELINE_HIGHLIGHT_CULPRIT:
    default:                            return colors->culprit;
    }
}

/**
 * tw_timeline_draw_highlight_stretch:
 *
 * A stretch of a row that took the measured task's time, tinted by the colour of its
 * @role, with a solid band at the row's foot (@y, @h: the row).
 */
void
tw_timeline_draw_highlight_stretch (cairo_t                 *cr,
                                    const TwTimelineColors  *colors,
                                    TwTimelineHighlightRole  role,
                                    double                   x0,
                                    double                   x1,
                                    double                   y,
                                    double                   h)
{
  const double *rgba = role_color (colors, role);

  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], TINT_ALPHA);
  cairo_rectangle (cr, x0, y, x1 - x0, h);
  cairo_fill (cr);
  tw_timeline_set_source (cr, rgba);
  cairo_rectangle (cr, x0, y + h - BAND_HEIGHT, x1 - x0, BAND_HEIGHT);
  cairo_fill (cr);
}

/**
 * tw_timeline_draw_highlight_measured:
 *
 * The measured interval on its row: a tint (@border %FALSE) or its frame.
 */
void
tw_timeline_draw_highlight_measured (cairo_t                *cr,
                                     const TwTimelineColors *colors,
                                     gboolean                border,
                                     double                  x0,
                                     double                  x1,
                                     double                  y,
                                     double                  height)
{
  const double *rgba = colors->path;

  if (!border)
    {
      cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], TINT_ALPHA);
      cairo_rectangle (cr, x0, y, x1 - x0, height);
      cairo_fill (cr);
      return;
    }
  tw_timeline_set_source (cr, rgba);
  cairo_rectangle (cr, x0, y, x1 - x0, LINE_WIDTH);
  cairo_rectangle (cr, x0, y + height - LINE_WIDTH, x1 - x0, LINE_WIDTH);
  cairo_rectangle (cr, x0, y, LINE_WIDTH, height);
  cairo_rectangle (cr, x1 - LINE_WIDTH, y, LINE_WIDTH, height);
  cairo_fill (cr);
}

static void
draw_segment (const Ctx                        *ctx,
              const TwTimelineHighlightSegment *s)
{
  int row = find_row (ctx, s->place);
  double x0, x1;

  if (row < 0)
    return;
  x0 = x_of (ctx, s->begin);
  x1 = MAX (x_of (ctx, s->end), x0 + 2);
  tw_timeline_draw_highlight_stretch (ctx->cr, ctx->f->colors, s->role, x0, x1,
                                      row_top (ctx, row), ctx->rows[row].height - 1);
}

static void
draw_measured (const Ctx                 *ctx,
               const TwTimelineHighlight *h,
               gboolean                   border)
{
  int row = find_row (ctx, h->measured);
  double x0, x1;

  if (row < 0)
    return;
  x0 = x_of (ctx, h->begin);
  x1 = MAX (x_of (ctx, h->end), x0 + 2 * LINE_WIDTH);
  tw_timeline_draw_highlight_measured (ctx->cr, ctx->f->colors, border, x0, x1,
                                       row_top (ctx, row), ctx->rows[row].height - 1);
}

/* Along @row from @t0 to @t1: the task ran on towards the wakeup it caused. */
static void
draw_run (const Ctx *ctx,
          int        row,
          guint64    t0,
          guint64    t1)
{
  double x0 = x_of (ctx, MIN (t0, t1));
  double x1 = x_of (ctx, MAX (t0, t1));

  cairo_rectangle (ctx->cr, x0, row_middle (ctx, row), x1 - x0 + LINE_WIDTH, LINE_WIDTH);
  cairo_fill (ctx->cr);
}

static void
draw_arrow_head (cairo_t *cr,
                 double   x,
                 double   y,
                 double   direction)
{
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x - ARROW_SIZE, y - direction * ARROW_SIZE * 1.6);
  cairo_line_to (cr, x + ARROW_SIZE, y - direction * ARROW_SIZE * 1.6);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}

static void
draw_dot (cairo_t *cr,
          double   x,
          double   y,
          gboolean filled)
{
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_DEFAULT);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, filled ? 3.5 : 4, 0, 2 * G_PI);
  if (filled)
    cairo_fill (cr);
  else
    {
      cairo_set_line_width (cr, LINE_WIDTH);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

/**
 * tw_timeline_draw_highlight_link:
 *
 * A wakeup on the path: a dot on the waker's row (at @y0), a line to the woken task's
 * row (@y1) ending in an arrow; @x is the wakeup's time.
 */
void
tw_timeline_draw_highlight_link (cairo_t                *cr,
                                 const TwTimelineColors *colors,
                                 double                  x,
                                 double                  y0,
                                 double                  y1)
{
  tw_timeline_set_source (cr, colors->path);
  cairo_rectangle (cr, x, MIN (y0, y1), LINE_WIDTH, fabs (y1 - y0));
  cairo_fill (cr);
  draw_dot (cr, x + LINE_WIDTH / 2.0, y0, TRUE);
  draw_arrow_head (cr, x + LINE_WIDTH / 2.0, y1, y1 > y0 ? 1 : -1);
}

/**
 * tw_timeline_draw_highlight_origin:
 *
 * The first cause of the path when it is no row (a release, or not known): a ring on
 * the woken task's row.
 */
void
tw_timeline_draw_highlight_origin (cairo_t                *cr,
                                   const TwTimelineColors *colors,
                                   double                  x,
                                   double                  y)
{
  tw_timeline_set_source (cr, colors->path);
  draw_dot (cr, x + LINE_WIDTH / 2.0, y, FALSE);
}

/* From the waker's row to the woken task's at the wakeup, ending in an arrow; a first
 * cause that is no row (a release, or not known) is a ring on the woken task's row. */
static void
draw_link (const Ctx                     *ctx,
           const TwTimelineHighlightLink *link)
{
  int to = find_row (ctx, link->to);
  int from = find_row (ctx, link->from);
  double x = x_of (ctx, link->time);
  double y1, y0;

  if (to < 0)
    return;
  y1 = row_middle (ctx, to) + LINE_WIDTH / 2.0;
  if (from < 0 || from == to)
    {
      tw_timeline_draw_highlight_origin (ctx->cr, ctx->f->colors, x, y1);
      return;
    }
  y0 = row_middle (ctx, from) + LINE_WIDTH / 2.0;
  tw_timeline_draw_highlight_link (ctx->cr, ctx->f->colors, x, y0, y1);
}

static void
draw_path (const Ctx                 *ctx,
           const TwTimelineHighlight *h)
{
  GArray *links = h->links;
  int measured = find_row (ctx, h->measured);

  tw_timeline_set_source (ctx->cr, ctx->f->colors->path);
  /* from the measurement's wakeup to its begin, on its own row */
  if (links->len > 0 && measured >= 0)
    {
      const TwTimelineHighlightLink *first = &g_array_index (links, TwTimelineHighlightLink, 0);

      if (tw_timeline_place_equal (first->to, h->measured) && first->time < h->begin)
        draw_run (ctx, measured, first->time, h->begin);
    }
  for (guint i = 0; i + 1 < links->len; i++)
    {
      const TwTimelineHighlightLink *link = &g_array_index (links, TwTimelineHighlightLink, i);
      const TwTimelineHighlightLink *earlier = &g_array_index (links, TwTimelineHighlightLink, i + 1);
      int row = find_row (ctx, link->from);

      if (row >= 0 && tw_timeline_place_equal (earlier->to, link->from))
        draw_run (ctx, row, earlier->time, link->time);
    }
  for (guint i = 0; i < links->len; i++)
    draw_link (ctx, &g_array_index (links, TwTimelineHighlightLink, i));
}

/**
 * _tw_timeline_painter_draw_highlight:
 *
 * Draws the viewport's highlight, if any, over the rows.
 */
void
_tw_timeline_painter_draw_highlight (const TwPaintFrame *f,
                                     cairo_t            *cr)
{
  const TwTimelineHighlight *h = f->vp->highlight;
  guint n_rows;
  Ctx ctx = { f, cr, NULL };

  if (h == NULL)
    return;
  ctx.rows = tw_timeline_layout_get_rows (f->self->layout, &n_rows);
  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, TW_TIMELINE_RULER_HEIGHT, f->plot_x1 - f->plot_x0,
                   f->vp->height - TW_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  /* the measured task's own stretches (blocked) over its tint, inside its frame */
  draw_measured (&ctx, h, FALSE);
  for (guint i = 0; i < h->segments->len; i++)
    draw_segment (&ctx, &g_array_index (h->segments, TwTimelineHighlightSegment, i));
  draw_measured (&ctx, h, TRUE);
  draw_path (&ctx, h);
  cairo_restore (cr);
}
