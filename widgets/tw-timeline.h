/* tw-timeline.h: the timeline widget
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tw-shortcuts.h"
#include "tw-timeline-painter.h"
#include "tw-view-state.h"

G_BEGIN_DECLS

#define TW_TYPE_TIMELINE (tw_timeline_get_type ())
G_DECLARE_FINAL_TYPE (TwTimeline, tw_timeline, TW, TIMELINE, GtkWidget)

GtkWidget         *tw_timeline_new             (void);
TwViewState       *tw_timeline_get_view_state  (TwTimeline         *self);
void               tw_timeline_set_view_state  (TwTimeline         *self,
                                                TwViewState        *state);
TwTimelinePainter *tw_timeline_get_painter     (TwTimeline         *self);
TwTimelineLayout  *tw_timeline_get_layout      (TwTimeline         *self);
void               tw_timeline_get_viewport    (TwTimeline         *self,
                                                TwTimelineViewport *viewport);
void               tw_timeline_add_marker      (TwTimeline         *self,
                                                guint64             time_ns,
                                                const char         *name);
void               tw_timeline_rename_marker   (TwTimeline         *self,
                                                guint               index,
                                                const char         *name);
guint              tw_timeline_get_n_markers   (TwTimeline         *self);
const TwTimelineMarker *tw_timeline_get_marker (TwTimeline         *self,
                                                guint               index);
gboolean           tw_timeline_export          (TwTimeline         *self,
                                                const char         *path,
                                                GError            **error);
void               tw_timeline_reveal_row      (TwTimeline         *self,
                                                guint               row);
const TwShortcut  *tw_timeline_get_shortcuts   (guint              *n_shortcuts);
void               tw_timeline_attach_shortcuts (TwTimeline        *self,
                                                GtkWidget          *area);

G_END_DECLS
