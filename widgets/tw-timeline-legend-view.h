/* tw-timeline-legend-view.h: the timeline's legend as a widget, for a popover
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TW_TYPE_TIMELINE_LEGEND_VIEW (tw_timeline_legend_view_get_type ())
G_DECLARE_FINAL_TYPE (TwTimelineLegendView, tw_timeline_legend_view, TW, TIMELINE_LEGEND_VIEW, GtkWidget)

GtkWidget *tw_timeline_legend_view_new            (void);
void       tw_timeline_legend_view_set_path_shown (TwTimelineLegendView *self,
                                                   gboolean              shown);
gboolean   tw_timeline_legend_view_get_path_shown (TwTimelineLegendView *self);

G_END_DECLS
