/* tw-event-filter-bar.h: the event list's filters (Find, type, task, CPU) and its count
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_EVENT_FILTER_BAR (tw_event_filter_bar_get_type ())
G_DECLARE_FINAL_TYPE (TwEventFilterBar, tw_event_filter_bar, TW, EVENT_FILTER_BAR, GtkWidget)

GtkWidget     *tw_event_filter_bar_new          (void);
void           tw_event_filter_bar_set_trace    (TwEventFilterBar *self,
                                                 TwTrace          *trace);
gboolean       tw_event_filter_bar_update       (TwEventFilterBar *self);
TwEventFilter *tw_event_filter_bar_dup_filter   (TwEventFilterBar *self);
void           tw_event_filter_bar_set_text     (TwEventFilterBar *self,
                                                 const char       *text);
void           tw_event_filter_bar_set_cpu      (TwEventFilterBar *self,
                                                 guint16           cpu);
void           tw_event_filter_bar_set_count    (TwEventFilterBar *self,
                                                 guint64           n_shown,
                                                 guint64           n_total,
                                                 gboolean          filtered);
void           tw_event_filter_bar_focus_search (TwEventFilterBar *self);

G_END_DECLS
