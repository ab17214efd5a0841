/* tw-event-name-entry.h: an entry for an event name, completed and checked against a trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_EVENT_NAME_ENTRY (tw_event_name_entry_get_type ())
G_DECLARE_FINAL_TYPE (TwEventNameEntry, tw_event_name_entry, TW, EVENT_NAME_ENTRY, GtkEntry)

GtkWidget *tw_event_name_entry_new          (const char       *placeholder);
void       tw_event_name_entry_set_trace    (TwEventNameEntry *self,
                                             TwTrace          *trace);
void       tw_event_name_entry_update_names (TwEventNameEntry *self);
gboolean   tw_event_name_entry_is_unknown   (TwEventNameEntry *self);

G_END_DECLS
