/* tw-timeline-painter-private.h: what the painter's files share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "tw-timeline-painter.h"
#include "tw-timeline-style.h"

G_BEGIN_DECLS

#define IRQ_LANE_HEIGHT TW_TIMELINE_IRQ_LANE_HEIGHT
#define IRQ_MAX_LANES   TW_TIMELINE_IRQ_MAX_LANES

struct _TwTimelinePainter
{
  GObject           parent_instance;

  TwStateModel     *model;
  TwTrace          *trace;
  TwTimelineLayout *layout;
  GArray           *colors;        /* double[3] per task */
  gboolean          exact;         /* summarize from the intervals, not the bins */

  /* Row and ruler labels repeat from frame to frame: their layouts are kept, shaped,
   * in one context that each frame updates from its cairo_t (which invalidates them
   * when the font options or the transformation changed). */
  PangoContext     *text_context;
  cairo_font_options_t *text_surface_options;  /* what text_context was last updated from */
  cairo_font_options_t *text_cr_options;
  cairo_matrix_t    text_matrix;
  PangoFontDescription *font;
  GHashTable       *text_layouts;  /* "width text" → PangoLayout */
};

/* Rectangles of one colour go into one path, and touching ones merge, so cairo sees a
 * fill per colour change rather than per interval. */
typedef struct {
  cairo_t *cr;
  double   rgba[4];
  double   x0, x1, y, h;
  gboolean pending;
  gboolean in_path;
} TwRectBatch;

/* An ARGB32 or RGB24 image that rows can be written into directly. Cairo composites one
 * box per rectangle, and on wide views rows change colour at most pixel columns: for
 * hundreds of rows that is most of a frame, while writing the pixels is a few µs a row.
 * Used only when user space maps to whole device pixels and the row's clip is one
 * rectangle; anything else (SVG, scaled or rotated contexts) draws through cairo. */
typedef struct {
  cairo_surface_t *surface;   /* NULL when not usable at all */
  guint8          *data;
  int              stride;
  gboolean         opaque;    /* RGB24 */
  int              dx, dy;    /* device = user + (dx, dy) */
  gboolean         row_ok;    /* the current row's clip is the rectangle below */
  int              clip_x0, clip_y0, clip_x1, clip_y1;
} TwDirectTarget;

/* A run of pixel columns that show the same key. */
typedef struct {
  guint32 key;
  guint   x0;     /* columns [x0, x1) */
  guint   x1;
} TwPaintSegment;

/* One frame being drawn: the viewport's geometry and scratch space sized to its columns. */
typedef struct {
  TwTimelinePainter        *self;
  const TwTimelineViewport *vp;
  TwDirectTarget             *direct;
  double                    plot_x0;
  double                    plot_x1;
  double                    ns_per_px;
  guint                     n_columns;  /* pixel columns of the plot */
  TwSummary                *summaries;  /* n_columns, scratch for one series */
  guint32                  *keys;       /* n_columns, scratch: what each column shows */
  GArray                   *segments;   /* TwPaintSegment, scratch */
  const TwTimelineColors   *colors;
} TwPaintFrame;

void     _tw_rect_batch_add                       (TwRectBatch         *b,
                                                   double               x0,
                                                   double               x1,
                                                   double               y,
                                                   double               h,
                                                   const double         rgba[4]);
void     _tw_rect_batch_flush                     (TwRectBatch         *b);

void     _tw_direct_target_begin                  (TwDirectTarget      *dt,
                                                   cairo_t             *cr);
void     _tw_direct_target_row_begin              (TwDirectTarget      *dt,
                                                   cairo_t             *cr);
void     _tw_direct_target_row_end                (TwDirectTarget      *dt);

void     _tw_timeline_painter_show_text           (TwTimelinePainter   *self,
                                                   cairo_t             *cr,
                                                   const char          *text,
                                                   double               x,
                                                   double               y,
                                                   double               max_width);
void     _tw_timeline_painter_draw_text           (PangoLayout         *layout,
                                                   cairo_t             *cr,
                                                   const char          *text,
                                                   double               x,
                                                   double               y,
                                                   double               max_width);
void     _tw_timeline_painter_draw_cpu_runs       (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   guint                cpu,
                                                   double               y,
                                                   double               h);
void     _tw_timeline_painter_draw_cpu_irqs       (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   guint                cpu,
                                                   double               y);
void     _tw_timeline_painter_draw_task_states    (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   guint32              task,
                                                   double               y,
                                                   double               h);
void     _tw_timeline_painter_draw_task_marks     (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   guint32              task,
                                                   double               y);
void     _tw_timeline_painter_draw_counter_track  (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   guint                track_index,
                                                   double               y,
                                                   double               h);
void     _tw_timeline_painter_draw_counter_scale  (const TwPaintFrame  *f,
                                                   cairo_t             *cr,
                                                   PangoLayout         *layout,
                                                   const TwTimelineRow *row,
                                                   double               y);

/* tw-timeline-painter-highlight.c */
void     _tw_timeline_painter_draw_highlight     (const TwPaintFrame  *f,
                                                  cairo_t             *cr);

G_END_DECLS
