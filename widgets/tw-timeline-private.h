/* tw-timeline-private.h: what the timeline's source files share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-timeline.h"

G_BEGIN_DECLS

/* One zoom step (a key press, a wheel notch) and one pan step (a tenth of the view) for
 * every way in: keys, the window's shortcuts, the wheel. */
#define TW_TIMELINE_ZOOM_STEP 1.5
#define TW_TIMELINE_PAN_STEP  0.1

typedef enum {
  TW_TIMELINE_DRAG_NONE,
  TW_TIMELINE_DRAG_PAN,
  TW_TIMELINE_DRAG_SELECT,
} TwTimelineDragMode;

typedef struct {
  guint64  time;
  char    *name;
} TwTimelineMarkerEntry;

struct _TwTimeline
{
  GtkWidget          parent_instance;

  /* owned references */
  TwViewState       *state;
  TwTimelinePainter *painter;
  GtkAdjustment     *hadjustment;
  GtkAdjustment     *vadjustment;
  GArray            *markers;        /* TwTimelineMarkerEntry, sorted by time */

  /* children */
  GtkWidget         *context_menu;   /* GtkPopoverMenu on row labels */
  GtkWidget         *marker_popover;
  GtkWidget         *marker_entry;

  /* borrowed: the painter's */
  TwTimelineLayout  *layout;

  guint64            marker_editing; /* time of the marker being named */

  /* pointer and drags */
  double             pointer_x;
  double             pointer_y;
  TwTimelineDragMode drag_mode;
  double             drag_x;
  double             drag_y;
  guint64            drag_begin_ns;
  double             drag_scroll_y;
  guint64            drag_anchor_ns;
  double             pinch_last_scale;

  /* the last zoom step: where, around what, and the range it made */
  double             last_zoom_x;
  guint64            last_zoom_anchor;
  guint64            last_zoom_begin;
  guint64            last_zoom_end;

  guint              hscroll_policy : 1;
  guint              vscroll_policy : 1;
  guint              pointer_inside : 1;
  guint              dragged : 1;
  guint              selecting : 1;   /* a click selects: what it hit is in view */
  guint              highlight_filtered : 1; /* the task filter is the highlight's */
};

/* tw-timeline.c */
void     _tw_timeline_update_vadjustment (TwTimeline *self);
double   _tw_timeline_rows_page_height   (TwTimeline *self);
double   _tw_timeline_get_scroll_y       (TwTimeline *self);
void     _tw_timeline_scroll_by          (TwTimeline *self,
                                          double      dy);
guint64  _tw_timeline_zoom_anchor        (TwTimeline *self,
                                          double     *x);
void     _tw_timeline_zoom               (TwTimeline *self,
                                          double      factor);

/* tw-timeline-actions.c */
void     _tw_timeline_class_init_actions (GtkWidgetClass *widget_class);
void     _tw_timeline_init_markers       (TwTimeline     *self);
void     _tw_timeline_update_actions     (TwTimeline     *self);
void     _tw_timeline_edit_marker        (TwTimeline     *self,
                                          guint           index);
int      _tw_timeline_find_marker_near   (TwTimeline     *self,
                                          double          x);

/* tw-timeline-highlight-rows.c */
void     _tw_timeline_reveal_highlight   (TwTimeline     *self);
void     _tw_timeline_highlight_changed  (TwTimeline     *self);

/* tw-timeline-input.c */
void     _tw_timeline_init_input         (TwTimeline     *self);

G_END_DECLS
