/* tw-compare-timelines.h: two runs' timelines, one above the other, on one time scale
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>
#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_COMPARE_TIMELINES (tw_compare_timelines_get_type ())
G_DECLARE_FINAL_TYPE (TwCompareTimelines, tw_compare_timelines, TW, COMPARE_TIMELINES, GtkWidget)

void         tw_compare_timelines_set_traces    (TwCompareTimelines *self,
                                                 TwTrace            *a,
                                                 TwTrace            *b,
                                                 const char         *label_a,
                                                 const char         *label_b);
TwTimeline  *tw_compare_timelines_get_timeline  (TwCompareTimelines *self,
                                                 guint               run);
gboolean     tw_compare_timelines_is_ready      (TwCompareTimelines *self);
void         tw_compare_timelines_set_one_scale (TwCompareTimelines *self,
                                                 gboolean            one_scale);

G_END_DECLS
