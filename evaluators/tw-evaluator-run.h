/* tw-evaluator-run.h: one evaluator over one trace, in a worker thread or live, and its results
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-evaluator-interface.h"

G_BEGIN_DECLS

#define TW_TYPE_EVALUATOR_RUN (tw_evaluator_run_get_type ())
G_DECLARE_FINAL_TYPE (TwEvaluatorRun, tw_evaluator_run, TW, EVALUATOR_RUN, GObject)

TwEvaluatorRun     *tw_evaluator_run_new               (TwEvaluator      *evaluator,
                                                        TwTrace          *trace,
                                                        guint             n_bins,
                                                        TwHistogramScale  scale);
TwEvaluator        *tw_evaluator_run_get_evaluator     (TwEvaluatorRun   *self);
TwTrace            *tw_evaluator_run_get_trace         (TwEvaluatorRun   *self);
TwHistogram        *tw_evaluator_run_get_histogram     (TwEvaluatorRun   *self);
TwMeasurementTable *tw_evaluator_run_get_table         (TwEvaluatorRun   *self);
gboolean            tw_evaluator_run_is_running        (TwEvaluatorRun   *self);
gboolean            tw_evaluator_run_is_live           (TwEvaluatorRun   *self);
double              tw_evaluator_run_get_progress      (TwEvaluatorRun   *self);
const char         *tw_evaluator_run_get_error_message (TwEvaluatorRun   *self);
const char         *tw_evaluator_run_get_warning       (TwEvaluatorRun   *self);

void                tw_evaluator_run_start             (TwEvaluatorRun   *self);
gboolean            tw_evaluator_run_start_live        (TwEvaluatorRun   *self,
                                                        GError          **error);
void                tw_evaluator_run_advance           (TwEvaluatorRun   *self);
void                tw_evaluator_run_cancel            (TwEvaluatorRun   *self);

G_END_DECLS
