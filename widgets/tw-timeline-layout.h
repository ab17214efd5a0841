/* tw-timeline-layout.h: the timeline's rows, their order, grouping, filter and heights
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

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
  TW_TIMELINE_ROW_COUNTER,   /* id = track index of the layout's TwCounterTracks */
  TW_TIMELINE_ROW_HOST,      /* a machine's header in a trace of several; id = its index */
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

#define TW_TYPE_TIMELINE_LAYOUT (tw_timeline_layout_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelineLayout, tw_timeline_layout, TW, TIMELINE_LAYOUT, GObject)

TwTimelineLayout    *tw_timeline_layout_new               (TwStateModel      *model);
TwCounterTracks     *tw_timeline_layout_get_counter_tracks (TwTimelineLayout *self);
void                 tw_timeline_layout_update            (TwTimelineLayout  *self);
const TwTimelineRow *tw_timeline_layout_get_rows          (TwTimelineLayout  *self,
                                                           guint             *n_rows);
int                  tw_timeline_layout_get_height        (TwTimelineLayout  *self);
int                  tw_timeline_layout_find_row_at       (TwTimelineLayout  *self,
                                                           double             y_in_rows);
int                  tw_timeline_layout_find_task_row     (TwTimelineLayout  *self,
                                                           guint32            task);
int                  tw_timeline_layout_find_cpu_row      (TwTimelineLayout  *self,
                                                           guint              cpu);
gboolean             tw_timeline_layout_is_header         (TwTimelineLayout  *self,
                                                           guint              row);
int                  tw_timeline_layout_find_header       (TwTimelineLayout  *self,
                                                           guint              row);
guint                tw_timeline_layout_get_n_host_groups (TwTimelineLayout  *self);
gboolean             tw_timeline_layout_is_collapsed      (TwTimelineLayout  *self,
                                                           guint              row);
void                 tw_timeline_layout_toggle_row        (TwTimelineLayout  *self,
                                                           guint              row);
TwTaskSort           tw_timeline_layout_get_task_sort     (TwTimelineLayout  *self);
void                 tw_timeline_layout_set_task_sort     (TwTimelineLayout  *self,
                                                           TwTaskSort         sort);
gboolean             tw_timeline_layout_has_task_filter   (TwTimelineLayout  *self);
void                 tw_timeline_layout_set_task_filter   (TwTimelineLayout  *self,
                                                           const guint32     *tasks,
                                                           guint              n_tasks);
GArray              *tw_timeline_layout_dup_row_tasks     (TwTimelineLayout  *self,
                                                           guint              row);
char                *tw_timeline_layout_dup_row_label     (TwTimelineLayout  *self,
                                                           const TwTimelineRow *row);

G_END_DECLS
