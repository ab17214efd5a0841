/* tw-evaluation-page.h: one evaluation's page of the Evaluations pane: status, histogram, table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

#include "tw-explain-panel.h"

G_BEGIN_DECLS

#define TW_TYPE_EVALUATION_PAGE (tw_evaluation_page_get_type ())
G_DECLARE_FINAL_TYPE (TwEvaluationPage, tw_evaluation_page, TW, EVALUATION_PAGE, GtkWidget)

GtkWidget       *tw_evaluation_page_new                (TwEvaluatorRun          *run,
                                                        const char              *title,
                                                        TwViewState             *view_state);
TwEvaluatorRun  *tw_evaluation_page_get_run            (TwEvaluationPage        *self);
const char      *tw_evaluation_page_get_title          (TwEvaluationPage        *self);
TwHistogramView *tw_evaluation_page_get_histogram_view (TwEvaluationPage        *self);
TwExplainPanel  *tw_evaluation_page_get_explain_panel  (TwEvaluationPage        *self);
gboolean         tw_evaluation_page_export_csv         (TwEvaluationPage        *self,
                                                        const char              *path,
                                                        GError                 **error);
gboolean         tw_evaluation_page_export_bins_csv    (TwEvaluationPage        *self,
                                                        const char              *path,
                                                        GError                 **error);
gboolean         tw_evaluation_page_export_image       (TwEvaluationPage        *self,
                                                        TwHistogramExportFormat  format,
                                                        const char              *path,
                                                        GError                 **error);

G_END_DECLS
