/* tw-explain-panel.h: why one measurement took as long as it did
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_EXPLAIN_PANEL (tw_explain_panel_get_type ())
G_DECLARE_FINAL_TYPE (TwExplainPanel, tw_explain_panel, TW, EXPLAIN_PANEL, GtkWidget)

GtkWidget           *tw_explain_panel_new             (void);
void                 tw_explain_panel_set_view_state  (TwExplainPanel         *self,
                                                       TwViewState            *view_state);
void                 tw_explain_panel_explain         (TwExplainPanel         *self,
                                                       TwTrace                *trace,
                                                       const TwMeasurementRow *row);
void                 tw_explain_panel_explain_worst_job (TwExplainPanel     *self,
                                                       TwTrace                *trace,
                                                       guint32                 task,
                                                       const char             *initial_event,
                                                       const char             *final_event);
void                 tw_explain_panel_clear           (TwExplainPanel         *self);
gboolean             tw_explain_panel_is_running      (TwExplainPanel         *self);
const TwExplanation *tw_explain_panel_get_explanation (TwExplainPanel         *self);
GtkWidget           *tw_explain_panel_get_path_list   (TwExplainPanel         *self);
TwTimelineHighlight *tw_explain_panel_get_highlight   (TwExplainPanel         *self);

G_END_DECLS
