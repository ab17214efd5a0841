/* tw-evaluator-interface.h: TwEvaluator, the one interface every kind of evaluation implements
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An evaluator says what it measures and makes, for each run, a fresh measurement
 * table and an update (tw-update.h) bound to that table and to a histogram. Whatever
 * runs it — tw_evaluator_evaluate() for `tracewb-cli eval`, TwEvaluatorRun in a worker
 * thread for the Evaluations pane and the designer's preview, or stepped as a live
 * store grows — only ever talks to this interface, so a new kind of evaluation is one
 * type implementing it (and, to be offered by name, one TwEvaluatorFactory).
 *
 * A GInterface rather than a final GObject with a table of functions: the evaluators
 * are already objects with identity and their own constructors and accessors (TwMetric,
 * TwPlugin, ...), and a test or a newcomer's file adds one more with
 * G_DEFINE_FINAL_TYPE_WITH_CODE (…, G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR, …)), the
 * way GTK and GIO types take on GListModel or GAction. The header is not called
 * tw-evaluator.h because that name belongs to the installed, GLib-free ABI of evaluation
 * modules, which external modules include by that name.
 *
 * Implementations: TwMetric (system and user metrics), TwPlugin (evaluation modules and
 * exported automata), TwAutomatonEvaluator (the interpreter), TwWorstCaseEvaluator
 * (Espinosa et al. 2003 §4).
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-histogram.h"
#include "tw-measurement-table.h"
#include "tw-update.h"

G_BEGIN_DECLS

#define TW_TYPE_EVALUATOR (tw_evaluator_get_type ())
G_DECLARE_INTERFACE (TwEvaluator, tw_evaluator, TW, EVALUATOR, GObject)

/**
 * TwEvaluatorInterface:
 * @get_name: a short name: the tab's title, the CLI's first output line
 * @get_description: (nullable): one line saying what it measures
 * @dup_required_events: the selectors of the events it consumes (raw type names,
 *   `kind:NAME`, or `*`): Espinosa et al. 2003 §2, Events_Required_By
 * @check: (nullable): whether it can measure @trace at all; a metric refuses events the
 *   user named that @trace lacks. Not called for live traces, which may log them later.
 * @dup_warning: (nullable): what a user should read beside the results, e.g. the labels
 *   of an automaton that name no event of @trace (it still runs)
 * @new_table: (nullable): an empty table with its name and free columns; without it, a
 *   table without free columns named after the evaluator
 * @create_update: an update with state of its own that appends each measurement to
 *   @table and puts each length (or what the evaluator documents) into @histogram; both
 *   may be %NULL. It may refuse a trace when it joins an evaluation (its bind function).
 */
struct _TwEvaluatorInterface
{
  GTypeInterface parent_iface;

  const char         *(*get_name)            (TwEvaluator         *self);
  const char         *(*get_description)     (TwEvaluator         *self);
  GStrv               (*dup_required_events) (TwEvaluator         *self);
  gboolean            (*check)               (TwEvaluator         *self,
                                              TwTrace             *trace,
                                              GError             **error);
  char               *(*dup_warning)         (TwEvaluator         *self,
                                              TwTrace             *trace);
  TwMeasurementTable *(*new_table)           (TwEvaluator         *self);
  TwUpdate           *(*create_update)       (TwEvaluator         *self,
                                              TwMeasurementTable  *table,
                                              TwHistogram         *histogram);
};

const char         *tw_evaluator_get_name            (TwEvaluator         *self);
const char         *tw_evaluator_get_description     (TwEvaluator         *self);
GStrv               tw_evaluator_dup_required_events (TwEvaluator         *self,
                                                      TwTrace             *trace);
gboolean            tw_evaluator_check               (TwEvaluator         *self,
                                                      TwTrace             *trace,
                                                      GError             **error);
char               *tw_evaluator_dup_warning         (TwEvaluator         *self,
                                                      TwTrace             *trace);
TwMeasurementTable *tw_evaluator_new_table           (TwEvaluator         *self);
TwUpdate           *tw_evaluator_create_update       (TwEvaluator         *self,
                                                      TwMeasurementTable  *table,
                                                      TwHistogram         *histogram);
TwMeasurementTable *tw_evaluator_evaluate            (TwEvaluator         *self,
                                                      TwTrace             *trace,
                                                      TwHistogram         *histogram,
                                                      TwProgressFunc       progress,
                                                      gpointer             progress_data,
                                                      GCancellable        *cancellable,
                                                      GError             **error);
TwMeasurementTable *tw_evaluator_evaluate_with_costs (TwEvaluator         *self,
                                                      TwTrace             *trace,
                                                      TwEventCosts        *costs,
                                                      TwHistogram         *histogram,
                                                      TwProgressFunc       progress,
                                                      gpointer             progress_data,
                                                      GCancellable        *cancellable,
                                                      GError             **error);

G_END_DECLS
