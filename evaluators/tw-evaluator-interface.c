/* tw-evaluator-interface.c: TwEvaluator, the one interface every kind of evaluation implements
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-evaluator-interface.h"

#include "tw-evaluation.h"

G_DEFINE_INTERFACE (TwEvaluator, tw_evaluator, G_TYPE_OBJECT)

static void
tw_evaluator_default_init (TwEvaluatorInterface *iface)
{
}

/**
 * tw_evaluator_get_name:
 *
 * Returns: (transfer none): its short name
 */
const char *
tw_evaluator_get_name (TwEvaluator *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);
  return TW_EVALUATOR_GET_IFACE (self)->get_name (self);
}

/**
 * tw_evaluator_get_description:
 *
 * Returns: (transfer none) (nullable): one line saying what it measures
 */
const char *
tw_evaluator_get_description (TwEvaluator *self)
{
  TwEvaluatorInterface *iface;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);

  iface = TW_EVALUATOR_GET_IFACE (self);
  return iface->get_description ? iface->get_description (self) : NULL;
}

/**
 * tw_evaluator_dup_required_events:
 * @trace: (nullable): the trace whose type table names the events
 *
 * The events the evaluator depends on (Espinosa et al. 2003 §2, Events_Required_By):
 * the set to keep when a trace is filtered.
 *
 * Returns: (transfer full): with @trace, the names of its event types the evaluator
 *   consumes, in type-table order; without, its selectors (type names, `kind:NAME`, `*`)
 */
GStrv
tw_evaluator_dup_required_events (TwEvaluator *self,
                                  TwTrace     *trace)
{
  g_auto(GStrv) selectors = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);
  g_return_val_if_fail (trace == NULL || TW_IS_TRACE (trace), NULL);

  selectors = TW_EVALUATOR_GET_IFACE (self)->dup_required_events (self);
  if (trace == NULL)
    return g_steal_pointer (&selectors);

  builder = g_strv_builder_new ();
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, t);

      for (guint s = 0; selectors[s]; s++)
        if (g_str_equal (selectors[s], "*") || tw_update_selector_matches (selectors[s], type))
          {
            g_strv_builder_add (builder, type->name);
            break;
          }
    }
  return g_strv_builder_end (builder);
}

/**
 * tw_evaluator_check:
 * @trace: the trace it is about to measure
 *
 * Returns: %FALSE with @error set when it cannot measure anything in @trace (e.g. a
 *   metric names an event @trace does not have: the message names the closest ones)
 */
gboolean
tw_evaluator_check (TwEvaluator  *self,
                    TwTrace      *trace,
                    GError      **error)
{
  TwEvaluatorInterface *iface;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  iface = TW_EVALUATOR_GET_IFACE (self);
  return iface->check == NULL || iface->check (self, trace, error);
}

/**
 * tw_evaluator_dup_warning:
 * @trace: the trace it measures
 *
 * Returns: (transfer full) (nullable): what to say beside its results about @trace,
 *   %NULL when nothing
 */
char *
tw_evaluator_dup_warning (TwEvaluator *self,
                          TwTrace     *trace)
{
  TwEvaluatorInterface *iface;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  iface = TW_EVALUATOR_GET_IFACE (self);
  return iface->dup_warning ? iface->dup_warning (self, trace) : NULL;
}

/**
 * tw_evaluator_new_table:
 *
 * Returns: (transfer full): an empty table for its measurements, with its free columns
 */
TwMeasurementTable *
tw_evaluator_new_table (TwEvaluator *self)
{
  TwEvaluatorInterface *iface;
  TwMeasurementTable *table;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);

  iface = TW_EVALUATOR_GET_IFACE (self);
  if (iface->new_table)
    return iface->new_table (self);
  table = tw_measurement_table_new (NULL);
  tw_measurement_table_set_name (table, tw_evaluator_get_name (self));
  return table;
}

/**
 * tw_evaluator_create_update:
 * @table: (nullable): receives the measurements; tw_evaluator_new_table() makes one that
 *   fits
 * @histogram: (nullable): receives each measurement's length (and whatever else the
 *   evaluator documents, e.g. a plugin's values)
 *
 * One run of the evaluator as an update for a #TwEvaluation, with state of its own: it
 * takes part in one evaluation, so make one per run.
 *
 * Returns: (transfer full): the update
 */
TwUpdate *
tw_evaluator_create_update (TwEvaluator        *self,
                            TwMeasurementTable *table,
                            TwHistogram        *histogram)
{
  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);
  g_return_val_if_fail (table == NULL || TW_IS_MEASUREMENT_TABLE (table), NULL);
  g_return_val_if_fail (histogram == NULL || TW_IS_HISTOGRAM (histogram), NULL);

  return TW_EVALUATOR_GET_IFACE (self)->create_update (self, table, histogram);
}

/**
 * tw_evaluator_evaluate:
 * @trace: a sealed trace
 * @histogram: (nullable): also receives the lengths (see tw_evaluator_create_update())
 * @progress: (nullable): fraction done
 * @cancellable: (nullable): stops the scan
 *
 * Get_Metric_Result of Espinosa et al. 2003 §2 for any evaluator: one pass over @trace
 * in the calling thread. It does not call tw_evaluator_check(): callers that want the
 * events checked before a long read do that first.
 *
 * Returns: (transfer full) (nullable): the measurements, or %NULL with @error set when
 *   the evaluator refuses @trace or on cancel
 */
TwMeasurementTable *
tw_evaluator_evaluate (TwEvaluator    *self,
                       TwTrace        *trace,
                       TwHistogram    *histogram,
                       TwProgressFunc  progress,
                       gpointer        progress_data,
                       GCancellable   *cancellable,
                       GError        **error)
{
  return tw_evaluator_evaluate_with_costs (self, trace, NULL, histogram, progress,
                                           progress_data, cancellable, error);
}

/**
 * tw_evaluator_evaluate_with_costs:
 * @costs: (nullable): the tracing cost of each event type: the table gets a
 *   compensated length per row (tw_measurement_table_set_event_costs())
 *
 * tw_evaluator_evaluate() with the tracing costs set on the table before the run, so
 * that producers that sum per-type costs see them.
 *
 * Returns: (transfer full) (nullable): the measurements
 */
TwMeasurementTable *
tw_evaluator_evaluate_with_costs (TwEvaluator    *self,
                                  TwTrace        *trace,
                                  TwEventCosts   *costs,
                                  TwHistogram    *histogram,
                                  TwProgressFunc  progress,
                                  gpointer        progress_data,
                                  GCancellable   *cancellable,
                                  GError        **error)
{
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwUpdate) update = NULL;

  g_return_val_if_fail (TW_IS_EVALUATOR (self), NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  table = tw_evaluator_new_table (self);
  tw_measurement_table_set_event_costs (table, costs);
  update = tw_evaluator_create_update (self, table, histogram);
  if (!tw_evaluation_run_update (trace, update, progress, progress_data, cancellable, error))
    return NULL;
  return g_steal_pointer (&table);
}
