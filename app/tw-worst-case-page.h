/* tw-worst-case-page.h: the Evaluations pane's page of per-task worst cases and response times
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

#include "tw-explain-panel.h"

G_BEGIN_DECLS

#define TW_TYPE_WORST_CASE_PAGE (tw_worst_case_page_get_type ())
G_DECLARE_FINAL_TYPE (TwWorstCasePage, tw_worst_case_page, TW, WORST_CASE_PAGE, GtkWidget)

GtkWidget   *tw_worst_case_page_new            (TwViewState     *view_state);
void         tw_worst_case_page_compute        (TwWorstCasePage *self,
                                                const char      *initial_event,
                                                const char      *final_event);
gboolean     tw_worst_case_page_is_running     (TwWorstCasePage *self);
TwWorstCase *tw_worst_case_page_get_worst_case (TwWorstCasePage *self);
TwExplainPanel *tw_worst_case_page_get_explain_panel (TwWorstCasePage *self);

G_END_DECLS
