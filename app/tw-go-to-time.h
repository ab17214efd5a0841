/* tw-go-to-time.h: the go-to-time popover: a time typed as the event list shows it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_GO_TO_TIME (tw_go_to_time_get_type ())
G_DECLARE_FINAL_TYPE (TwGoToTime, tw_go_to_time, TW, GO_TO_TIME, GtkPopover)

void        tw_go_to_time_set_trace    (TwGoToTime *self,
                                        TwTrace    *trace);
gboolean    tw_go_to_time_choose       (TwGoToTime *self,
                                        const char *text);
GtkWidget  *tw_go_to_time_get_entry    (TwGoToTime *self);
const char *tw_go_to_time_get_feedback (TwGoToTime *self);

G_END_DECLS
