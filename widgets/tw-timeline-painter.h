/* tw-timeline-painter.h: draws the timeline of a trace on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <tw-data.h>

#include "tw-palette.h"

G_BEGIN_DECLS

#define TW_TIMELINE_LABEL_WIDTH   200
#define TW_TIMELINE_RULER_HEIGHT  36
#define TW_TIMELINE_SECTION_HEIGHT 22
#define TW_TIMELINE_CPU_HEIGHT    40
#define TW_TIMELINE_TASK_HEIGHT   18

/* Counter tracks (libgtop CPU load, memory): the graph fills the rows
 * [y + PAD_TOP, y + height - PAD_BOTTOM) of its row; a value v of a track whose scale
 * is s reaches round (v / s × (height - PAD_TOP - PAD_BOTTOM)) px above the bottom. */
#define TW_TIMELINE_COUNTER_HEIGHT      36
#define TW_TIMELINE_COUNTER_PAD_TOP     4
#define TW_TIMELINE_COUNTER_PAD_BOTTOM  3

typedef enum {
  TW_TIMELINE_ROW_SECTION,   /* section header; id 0 = CPUs, 1 = tasks, 2 = counters */
  TW_TIMELINE_ROW_CPU,       /* id = CPU index */
  TW_TIMELINE_ROW_PROCESS,   /* id = index into the process table (a header row) */
  TW_TIMELINE_ROW_TASK,      /* id = task index */
  TW_TIMELINE_ROW_COUNTER,   /* id = track index of the painter's TwCounterTracks */
} TwTimelineRowKind;

typedef struct {
  TwTimelineRowKind kind;
  guint32           id;
  int               y;        /* px from the top of the rows area */
  int               height;
  int               indent;   /* nesting level of the label */
} TwTimelineRow;

typedef enum {
  TW_TASK_SORT_NAME,
  TW_TASK_SORT_ID,
  TW_TASK_SORT_CPU_TIME,
} TwTaskSort;

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
  const TwPalette        *palette;   /* the theme's colours; NULL: the light style of exports */
} TwTimelineViewport;

/* What lies under a point, for tooltips and clicks. */
typedef struct {
  int          row;           /* index into the rows, -1 in the ruler or outside */
  guint64      time;          /* time under the point */
  guint64      span_begin;    /* the span under the point, when there is one */
  guint64      span_end;
  guint64      event;         /* the nearest event of the row within a few px, or TW_EVENT_NONE */
  char        *description;   /* for a tooltip; NULL when nothing is there */
} TwTimelineHit;

void tw_timeline_hit_clear (TwTimelineHit *hit);

#define TW_TYPE_TIMELINE_PAINTER (tw_timeline_painter_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelinePainter, tw_timeline_painter, TW, TIMELINE_PAINTER, GObject)

TwTimelinePainter   *tw_timeline_painter_new             (TwStateModel             *model);
TwStateModel        *tw_timeline_painter_get_model       (TwTimelinePainter        *self);
TwCounterTracks     *tw_timeline_painter_get_counter_tracks (TwTimelinePainter     *self);
void                 tw_timeline_painter_set_exact       (TwTimelinePainter        *self,
                                                          gboolean                  exact);
void                 tw_timeline_painter_relayout        (TwTimelinePainter        *self);
const TwTimelineRow *tw_timeline_painter_get_rows        (TwTimelinePainter        *self,
                                                          guint                    *n_rows);
int                  tw_timeline_painter_get_content_height (TwTimelinePainter     *self);
int                  tw_timeline_painter_find_row_at     (TwTimelinePainter        *self,
                                                          double                    y_in_rows);
void                 tw_timeline_painter_toggle_row      (TwTimelinePainter        *self,
                                                          guint                     row);
void                 tw_timeline_painter_set_task_sort   (TwTimelinePainter        *self,
                                                          TwTaskSort                sort);
void                 tw_timeline_painter_set_task_filter (TwTimelinePainter        *self,
                                                          const guint32            *tasks,
                                                          guint                     n_tasks);
GArray              *tw_timeline_painter_dup_row_tasks   (TwTimelinePainter        *self,
                                                          guint                     row);
char                *tw_timeline_painter_dup_row_label   (TwTimelinePainter        *self,
                                                          const TwTimelineRow      *row);
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

G_END_DECLS
