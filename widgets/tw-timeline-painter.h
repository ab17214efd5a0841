/* tw-timeline-painter.h: draws the timeline of a trace on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <tw-data.h>

#include "tw-palette.h"
#include "tw-span.h"
#include "tw-timeline-highlight.h"
#include "tw-timeline-layout.h"

G_BEGIN_DECLS

#define TW_TIMELINE_LABEL_WIDTH   200
#define TW_TIMELINE_RULER_HEIGHT  36

typedef struct {
  guint64     time;
  const char *name;
} TwTimelineMarker;

/* What to draw: the visible time range into a surface of width × height px, with the rows
 * scrolled by @scroll_y. Times are ns in the trace's time base; TW_TIME_NONE = none. */
typedef struct {
  guint64                 begin_ns;
  guint64                 end_ns;
  int                     width;
  int                     height;
  double                  scroll_y;
  guint64                 cursor_ns;
  guint64                 selection_begin;
  guint64                 selection_end;
  const TwTimelineMarker *markers;
  guint                   n_markers;
  const TwSpanRef        *selected_span; /* outlined; NULL = none */
  const TwTimelineHighlight *highlight; /* a path drawn over the rows; NULL = none */
  const TwPalette        *palette;   /* the theme's colours; NULL: the light style of exports */
} TwTimelineViewport;

/* What lies under a point, for tooltips and clicks. */
typedef struct {
  int          row;           /* index into the rows, -1 in the ruler or outside */
  guint64      time;          /* time under the point */
  guint64      span_begin;    /* the span under the point, when there is one */
  guint64      span_end;
  TwSpanRef    span;          /* that span in the model (a run, a handler, a task's state);
                               * span.end == 0 when it is none of those */
  guint64      event;         /* the nearest event of the row within a few px, or TW_EVENT_NONE */
  char        *description;   /* for a tooltip; NULL when nothing is there */
} TwTimelineHit;

void tw_timeline_hit_clear (TwTimelineHit *hit);

#define TW_TYPE_TIMELINE_PAINTER (tw_timeline_painter_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelinePainter, tw_timeline_painter, TW, TIMELINE_PAINTER, GObject)

TwTimelinePainter   *tw_timeline_painter_new             (TwStateModel             *model);
TwStateModel        *tw_timeline_painter_get_model       (TwTimelinePainter        *self);
TwTimelineLayout    *tw_timeline_painter_get_layout      (TwTimelinePainter        *self);
void                 tw_timeline_painter_set_exact       (TwTimelinePainter        *self,
                                                          gboolean                  exact);
void                 tw_timeline_painter_get_task_color  (TwTimelinePainter        *self,
                                                          guint32                   task,
                                                          double                    rgb[3]);
void                 tw_timeline_painter_draw            (TwTimelinePainter        *self,
                                                          cairo_t                  *cr,
                                                          const TwTimelineViewport *viewport);
void                 tw_timeline_painter_hit_test        (TwTimelinePainter        *self,
                                                          const TwTimelineViewport *viewport,
                                                          double                    x,
                                                          double                    y,
                                                          TwTimelineHit            *hit);

double               tw_timeline_viewport_time_to_x      (const TwTimelineViewport *viewport,
                                                          guint64                   time_ns);
guint64              tw_timeline_viewport_x_to_time      (const TwTimelineViewport *viewport,
                                                          double                    x);
char                *tw_timeline_format_time             (guint64                   time_ns,
                                                          guint64                   step_ns);
char                *tw_timeline_format_duration         (guint64                   ns);

/* The render benchmarks' zoom levels (tw-timeline-painter-timing.c): level 0 is the full
 * view, the last a 1 µs span. */
#define TW_TIMELINE_ZOOM_LEVELS 5

double               tw_thread_cpu_ms                    (void);
double               tw_timeline_painter_time_frame      (TwTimelinePainter        *self,
                                                          cairo_surface_t          *surface,
                                                          const TwTimelineViewport *viewport);
void                 tw_timeline_painter_time_frames     (TwTimelinePainter        *self,
                                                          cairo_surface_t          *surface,
                                                          const TwTimelineViewport *viewport,
                                                          guint                     n_frames,
                                                          double                   *median_ms,
                                                          double                   *max_ms);
double               tw_timeline_viewport_set_zoom_level (TwTimelineViewport       *viewport,
                                                          guint64                   first,
                                                          guint64                   end,
                                                          guint                     level);

G_END_DECLS
