/* tw-event-item.h: the light row object a TwTraceModel hands out for one event
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

#define TW_TYPE_EVENT_ITEM (tw_event_item_get_type ())
G_DECLARE_FINAL_TYPE (TwEventItem, tw_event_item, TW, EVENT_ITEM, GObject)

TwEventItem *tw_event_item_new        (TwTrace     *trace,
                                       guint64      index);
TwTrace     *tw_event_item_get_trace  (TwEventItem *self);
guint64      tw_event_item_get_index  (TwEventItem *self);
gboolean     tw_event_item_get_event  (TwEventItem *self,
                                       TwEvent     *event);
guint64      tw_event_item_get_time   (TwEventItem *self);
guint16      tw_event_item_get_cpu    (TwEventItem *self);
const char  *tw_event_item_get_type_name (TwEventItem *self);
char        *tw_event_item_dup_task_label (TwEventItem *self);
char        *tw_event_item_dup_cpu_label  (TwEventItem *self);
char        *tw_event_item_dup_args   (TwEventItem *self);

G_END_DECLS
