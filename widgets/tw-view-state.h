/* tw-view-state.h: what every view of one open trace shares
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

#include "tw-span.h"
#include "tw-timeline-highlight.h"

G_BEGIN_DECLS

#define TW_TYPE_VIEW_STATE (tw_view_state_get_type ())
G_DECLARE_FINAL_TYPE (TwViewState, tw_view_state, TW, VIEW_STATE, GObject)

TwViewState  *tw_view_state_new                (TwStateModel *model);
TwStateModel *tw_view_state_get_model          (TwViewState  *self);
TwTrace      *tw_view_state_get_trace          (TwViewState  *self);

void          tw_view_state_get_visible_range  (TwViewState  *self,
                                                guint64      *begin_ns,
                                                guint64      *end_ns);
void          tw_view_state_set_visible_range  (TwViewState  *self,
                                                guint64       begin_ns,
                                                guint64       end_ns);
void          tw_view_state_zoom_to_fit        (TwViewState  *self);
void          tw_view_state_set_min_duration   (TwViewState  *self,
                                                guint64       duration_ns);
void          tw_view_state_zoom               (TwViewState  *self,
                                                double        factor,
                                                guint64       anchor_ns);
void          tw_view_state_zoom_at            (TwViewState  *self,
                                                double        factor,
                                                guint64       anchor_ns,
                                                double        fraction);
void          tw_view_state_pan                (TwViewState  *self,
                                                double        fraction);
void          tw_view_state_pan_ns             (TwViewState  *self,
                                                gint64        delta_ns);
void          tw_view_state_reveal_time        (TwViewState  *self,
                                                guint64       time_ns);
gboolean      tw_view_state_get_bounds         (TwViewState  *self,
                                                guint64      *lo,
                                                guint64      *hi);

guint64       tw_view_state_get_cursor         (TwViewState  *self);
void          tw_view_state_set_cursor         (TwViewState  *self,
                                                guint64       time_ns);

guint64       tw_view_state_get_selected_event (TwViewState  *self);
void          tw_view_state_set_selected_event (TwViewState  *self,
                                                guint64       index);

const TwSpanRef *tw_view_state_get_selected_span (TwViewState  *self);
void          tw_view_state_set_selected_span  (TwViewState  *self,
                                                const TwSpanRef *span);

gboolean      tw_view_state_get_selection      (TwViewState  *self,
                                                guint64      *begin_ns,
                                                guint64      *end_ns);
void          tw_view_state_set_selection      (TwViewState  *self,
                                                guint64       begin_ns,
                                                guint64       end_ns);
void          tw_view_state_clear_selection    (TwViewState  *self);

TwTimelineHighlight *tw_view_state_get_highlight (TwViewState *self);
void          tw_view_state_set_highlight      (TwViewState  *self,
                                                TwTimelineHighlight *highlight);
void          tw_view_state_reveal_highlight   (TwViewState  *self);

gboolean      tw_view_state_get_following      (TwViewState  *self);
void          tw_view_state_set_following      (TwViewState  *self,
                                                gboolean      following);
void          tw_view_state_follow             (TwViewState  *self,
                                                guint64       newest_ns);

G_END_DECLS
