/* tw-evaluations-pane.h: evaluations over the open trace: histograms, tables, worst cases
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_EVALUATIONS_PANE (tw_evaluations_pane_get_type ())
G_DECLARE_FINAL_TYPE (TwEvaluationsPane, tw_evaluations_pane, TW, EVALUATIONS_PANE, GtkWidget)

GtkWidget          *tw_evaluations_pane_new                (void);
void                tw_evaluations_pane_set_view_state     (TwEvaluationsPane  *self,
                                                            TwViewState        *view_state);
void                tw_evaluations_pane_set_live           (TwEvaluationsPane  *self,
                                                            gboolean            live);
void                tw_evaluations_pane_advance            (TwEvaluationsPane  *self);
void                tw_evaluations_pane_set_log_bins       (TwEvaluationsPane  *self,
                                                            gboolean            log_bins);

gboolean            tw_evaluations_pane_add_evaluator      (TwEvaluationsPane  *self,
                                                            TwEvaluator        *evaluator,
                                                            const char         *title,
                                                            GError            **error);
gboolean            tw_evaluations_pane_add_system_metric  (TwEvaluationsPane  *self,
                                                            const char         *name,
                                                            GError            **error);
gboolean            tw_evaluations_pane_add_user_metric    (TwEvaluationsPane  *self,
                                                            const char         *initial_event,
                                                            const char         *final_event,
                                                            gboolean            include_system,
                                                            GError            **error);
gboolean            tw_evaluations_pane_add_plugin         (TwEvaluationsPane  *self,
                                                            const char         *path,
                                                            GError            **error);
gboolean            tw_evaluations_pane_add_automaton      (TwEvaluationsPane  *self,
                                                            const char         *path,
                                                            GError            **error);
GListModel         *tw_evaluations_pane_get_evaluations    (TwEvaluationsPane  *self);
guint               tw_evaluations_pane_get_n_evaluations  (TwEvaluationsPane  *self);
const char         *tw_evaluations_pane_get_name           (TwEvaluationsPane  *self,
                                                            guint               index);
gboolean            tw_evaluations_pane_is_running         (TwEvaluationsPane  *self,
                                                            guint               index);
const char         *tw_evaluations_pane_get_error_message  (TwEvaluationsPane  *self,
                                                            guint               index);
void                tw_evaluations_pane_cancel             (TwEvaluationsPane  *self,
                                                            guint               index);
TwMeasurementTable *tw_evaluations_pane_get_table          (TwEvaluationsPane  *self,
                                                            guint               index);
TwHistogramView    *tw_evaluations_pane_get_histogram_view (TwEvaluationsPane  *self,
                                                            guint               index);
GtkWidget          *tw_evaluations_pane_get_page           (TwEvaluationsPane  *self,
                                                            guint               index);
void                tw_evaluations_pane_remove             (TwEvaluationsPane  *self,
                                                            guint               index);
gboolean            tw_evaluations_pane_export_csv         (TwEvaluationsPane  *self,
                                                            guint               index,
                                                            const char         *path,
                                                            GError            **error);
gboolean            tw_evaluations_pane_export_bins_csv    (TwEvaluationsPane  *self,
                                                            guint               index,
                                                            const char         *path,
                                                            GError            **error);
gboolean            tw_evaluations_pane_export_image       (TwEvaluationsPane  *self,
                                                            guint               index,
                                                            TwHistogramExportFormat format,
                                                            const char         *path,
                                                            GError            **error);

gboolean            tw_evaluations_pane_compute_worst_case (TwEvaluationsPane  *self,
                                                            const char         *initial_event,
                                                            const char         *final_event,
                                                            GError            **error);
gboolean            tw_evaluations_pane_is_worst_case_running (TwEvaluationsPane *self);
TwWorstCase        *tw_evaluations_pane_get_worst_case     (TwEvaluationsPane  *self);
void                tw_evaluations_pane_show_page          (TwEvaluationsPane  *self,
                                                            GtkWidget          *page);

G_END_DECLS
