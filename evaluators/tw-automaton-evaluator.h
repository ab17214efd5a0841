/* tw-automaton-evaluator.h: a metric automaton, run by the interpreter, as a TwEvaluator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton.h"
#include "tw-evaluator-interface.h"

G_BEGIN_DECLS

#define TW_TYPE_AUTOMATON_EVALUATOR (tw_automaton_evaluator_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonEvaluator, tw_automaton_evaluator, TW, AUTOMATON_EVALUATOR, GObject)

TwAutomatonEvaluator *tw_automaton_evaluator_new           (TwAutomaton          *automaton,
                                                            GError              **error);
TwAutomaton          *tw_automaton_evaluator_get_automaton (TwAutomatonEvaluator *self);

G_END_DECLS
