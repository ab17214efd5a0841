/* tw-worst-case-evaluator.h: the per-task worst cases of Espinosa et al. 2003 §4 as a TwEvaluator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-evaluator-interface.h"
#include "tw-worst-case.h"

G_BEGIN_DECLS

#define TW_TYPE_WORST_CASE_EVALUATOR (tw_worst_case_evaluator_get_type ())
G_DECLARE_FINAL_TYPE (TwWorstCaseEvaluator, tw_worst_case_evaluator, TW, WORST_CASE_EVALUATOR, GObject)

TwWorstCaseEvaluator *tw_worst_case_evaluator_new            (const char           *initial_event,
                                                              const char           *final_event);
void                  tw_worst_case_evaluator_set_event_costs (TwWorstCaseEvaluator *self,
                                                               TwEventCosts         *costs);
void                  tw_worst_case_evaluator_set_event_cost (TwWorstCaseEvaluator *self,
                                                              double                cost_ns);
TwWorstCase          *tw_worst_case_evaluator_new_worst_case (TwWorstCaseEvaluator *self,
                                                              TwMeasurementTable   *table,
                                                              GError              **error);

G_END_DECLS
