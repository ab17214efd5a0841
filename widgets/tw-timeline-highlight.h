/* tw-timeline-highlight.h: a path drawn over the timeline's rows: one measured interval,
 * tinted stretches on other rows, and the links that join them
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

#include "tw-timeline-layout.h"

G_BEGIN_DECLS

/* A row of the timeline by what it shows: a task's row or a CPU's row. */
typedef enum {
  TW_TIMELINE_PLACE_NONE = 0,
  TW_TIMELINE_PLACE_TASK,
  TW_TIMELINE_PLACE_CPU,
} TwTimelinePlaceKind;

typedef struct {
  TwTimelinePlaceKind kind;
  guint32             id;     /* task index or CPU */
} TwTimelinePlace;

/* Why a stretch is tinted: the style gives each role its colour. */
typedef enum {
  TW_TIMELINE_HIGHLIGHT_CULPRIT = 0,  /* something else ran instead (a task, or idle) */
  TW_TIMELINE_HIGHLIGHT_IRQ,          /* a handler ran */
  TW_TIMELINE_HIGHLIGHT_BLOCKED,      /* the measured task slept (on a mutex held there) */
  TW_TIMELINE_HIGHLIGHT_LOST,         /* the trace lost events there */
} TwTimelineHighlightRole;

typedef struct {
  TwTimelinePlace         place;
  TwTimelineHighlightRole role;
  guint64                 begin;
  guint64                 end;
} TwTimelineHighlightSegment;

/* At @time, @from made @to runnable (a waker's row, or a CPU's row for a handler);
 * @from NONE: @to's first cause is not another row (a release, or not known). */
typedef struct {
  TwTimelinePlace from;
  TwTimelinePlace to;
  guint64         time;
} TwTimelineHighlightLink;

/**
 * TwTimelineHighlight:
 * @measured: the row of the measured task
 * @begin, @end: the measured interval
 * @segments: TwTimelineHighlightSegment, in time order
 * @links: TwTimelineHighlightLink, from the measurement's wakeup back to the first
 *   cause: link i + 1 made runnable the row link i came from
 *
 * What the timeline highlights, in rows and times only: whoever builds it (the
 * application, from an explanation) knows why; the timeline only draws it.
 */
typedef struct {
  TwTimelinePlace measured;
  guint64         begin;
  guint64         end;
  GArray         *segments;
  GArray         *links;
} TwTimelineHighlight;

#define TW_TYPE_TIMELINE_HIGHLIGHT (tw_timeline_highlight_get_type ())

GType                tw_timeline_highlight_get_type    (void) G_GNUC_CONST;
TwTimelineHighlight *tw_timeline_highlight_new         (guint32                    task,
                                                        guint64                    begin,
                                                        guint64                    end);
TwTimelineHighlight *tw_timeline_highlight_ref         (TwTimelineHighlight       *self);
void                 tw_timeline_highlight_unref       (TwTimelineHighlight       *self);
void                 tw_timeline_highlight_add_segment (TwTimelineHighlight       *self,
                                                        TwTimelinePlace            place,
                                                        TwTimelineHighlightRole    role,
                                                        guint64                    begin,
                                                        guint64                    end);
void                 tw_timeline_highlight_add_link    (TwTimelineHighlight       *self,
                                                        TwTimelinePlace            from,
                                                        TwTimelinePlace            to,
                                                        guint64                    time);
void                 tw_timeline_highlight_get_bounds  (const TwTimelineHighlight *self,
                                                        guint64                   *begin,
                                                        guint64                   *end);
int                  tw_timeline_place_find_row        (TwTimelinePlace            place,
                                                        TwTimelineLayout          *layout);
gboolean             tw_timeline_place_equal           (TwTimelinePlace            a,
                                                        TwTimelinePlace            b);

static inline TwTimelinePlace
tw_timeline_place_task (guint32 task)
{
  return (TwTimelinePlace) { task == TW_TASK_NONE ? TW_TIMELINE_PLACE_NONE : TW_TIMELINE_PLACE_TASK, task };
}

static inline TwTimelinePlace
tw_timeline_place_cpu (guint cpu)
{
  return (TwTimelinePlace) { cpu == TW_CPU_NONE ? TW_TIMELINE_PLACE_NONE : TW_TIMELINE_PLACE_CPU, cpu };
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTimelineHighlight, tw_timeline_highlight_unref)

G_END_DECLS
