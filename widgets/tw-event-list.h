/* tw-event-list.h: the virtual list of a trace's events, with filters
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tw-view-state.h"

G_BEGIN_DECLS

#define TW_TYPE_EVENT_LIST (tw_event_list_get_type ())
G_DECLARE_FINAL_TYPE (TwEventList, tw_event_list, TW, EVENT_LIST, GtkWidget)

GtkWidget     *tw_event_list_new              (void);
TwViewState   *tw_event_list_get_view_state   (TwEventList *self);
void           tw_event_list_set_view_state   (TwEventList *self,
                                               TwViewState *view_state);
GtkColumnView *tw_event_list_get_column_view  (TwEventList *self);
TwTraceModel  *tw_event_list_get_model        (TwEventList *self);
guint          tw_event_list_get_selected_position (TwEventList *self);
void           tw_event_list_set_filter_text  (TwEventList *self,
                                               const char  *text);
void           tw_event_list_set_filter_cpu   (TwEventList *self,
                                               guint16      cpu);
gboolean       tw_event_list_get_filtering    (TwEventList *self);
void           tw_event_list_focus_search     (TwEventList *self);
gboolean       tw_event_list_get_relative_time (TwEventList *self);
void           tw_event_list_set_relative_time (TwEventList *self,
                                                gboolean     relative_time);

G_END_DECLS
