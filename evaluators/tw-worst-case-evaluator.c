/* tw-worst-case-evaluator.c: the per-task worst cases of Espinosa et al. 2003 §4 as a TwEvaluator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run measures, in the same pass, the four metrics whose per-task maxima make the
 * columns of Fig. 4: its update consumes no event itself; when it joins an evaluation
 * it adds one update per metric beside it, and at the end of the input it fills its
 * table with one row per task (tw_worst_case_fill_table()).
 */
#include "config.h"

#include "tw-worst-case-evaluator.h"

#include "tw-evaluation.h"
#include "tw-metrics.h"

#include <glib/gi18n-lib.h>
#include <math.h>

enum { JOB, IRQ, SOFTIRQ, WAKEUP_HANDLER, N_METRICS };

struct _TwWorstCaseEvaluator
{
  GObject   parent_instance;

  TwMetric *metrics[N_METRICS];
  char     *initial_event;
  char     *final_event;
  char     *description;
  TwEventCosts *costs;      /* nullable */
};

static void tw_worst_case_evaluator_iface_init (TwEvaluatorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwWorstCaseEvaluator, tw_worst_case_evaluator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR,
                                                      tw_worst_case_evaluator_iface_init))

/* One run: the state of the update. */
typedef struct {
  TwMetric           *metrics[N_METRICS];
  TwMeasurementTable *tables[N_METRICS];
  TwMeasurementTable *table;      /* nullable */
  TwHistogram        *histogram;  /* nullable */
  TwEventCosts       *costs;      /* nullable */
} WorstCaseRun;

static void
worst_case_run_free (gpointer data)
{
  WorstCaseRun *run = data;

  for (guint i = 0; i < N_METRICS; i++)
    {
      g_clear_object (&run->metrics[i]);
      g_clear_object (&run->tables[i]);
    }
  g_clear_object (&run->table);
  g_clear_object (&run->histogram);
  g_clear_object (&run->costs);
  g_free (run);
}

/* The metrics join the evaluation beside this update, so that they see the same events. */
static gboolean
worst_case_bind (gpointer       context,
                 gpointer       func_data,
                 TwEvaluation  *evaluation,
                 GError       **error)
{
  WorstCaseRun *run = func_data;

  for (guint i = 0; i < N_METRICS; i++)
    {
      g_autoptr(TwUpdate) update = NULL;

      g_clear_object (&run->tables[i]);
      run->tables[i] = tw_metric_new_table (run->metrics[i]);
      tw_measurement_table_set_event_costs (run->tables[i], run->costs);
      update = tw_metric_create_update (run->metrics[i], run->tables[i], NULL);
      if (!tw_evaluation_add_update (evaluation, update, error))
        return FALSE;
    }
  return TRUE;
}

/* It consumes no event (its selectors are empty): the metrics do. */
static gboolean
worst_case_prepare (gpointer       context,
                    gpointer       func_data,
                    const TwEvent *event,
                    guint          selector)
{
  return FALSE;
}

static void
worst_case_commit (gpointer context,
                   gpointer func_data,
                   gboolean ok)
{
}

/* The metrics joined before this update, so their finish (if any) has run. */
static void
worst_case_finish (gpointer context,
                   gpointer func_data)
{
  WorstCaseRun *run = func_data;
  g_autoptr(TwWorstCase) worst_case = tw_worst_case_new ();

  if (run->table == NULL)
    return;
  /* the per-task table says whether its cells are compensated */
  tw_measurement_table_set_event_costs (run->table, run->costs);
  tw_worst_case_add_column (worst_case, "execution", run->tables[JOB], -1,
                            TW_WORST_CASE_ROLE_EXECUTION);
  tw_worst_case_add_column (worst_case, "job_system_time", run->tables[JOB],
                            tw_measurement_table_lookup_column (run->tables[JOB], "irq_ns"),
                            TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME);
  tw_worst_case_add_column (worst_case, "system_blocking_irq", run->tables[IRQ], -1,
                            TW_WORST_CASE_ROLE_SYSTEM_BLOCKING);
  tw_worst_case_add_column (worst_case, "system_blocking_softirq", run->tables[SOFTIRQ], -1,
                            TW_WORST_CASE_ROLE_SYSTEM_BLOCKING);
  tw_worst_case_add_column (worst_case, "delay_until_wakeup", run->tables[WAKEUP_HANDLER], -1,
                            TW_WORST_CASE_ROLE_WAKEUP);
  tw_worst_case_fill_table (worst_case, run->tables[JOB], run->table, run->histogram);
}

static const TwUpdateFuncs worst_case_funcs = {
  worst_case_bind, worst_case_prepare, worst_case_commit, worst_case_finish,
};

static void
tw_worst_case_evaluator_finalize (GObject *object)
{
  TwWorstCaseEvaluator *self = TW_WORST_CASE_EVALUATOR (object);

  for (guint i = 0; i < N_METRICS; i++)
    g_clear_object (&self->metrics[i]);
  g_clear_pointer (&self->initial_event, g_free);
  g_clear_pointer (&self->final_event, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_object (&self->costs);

  G_OBJECT_CLASS (tw_worst_case_evaluator_parent_class)->finalize (object);
}

static void
tw_worst_case_evaluator_class_init (TwWorstCaseEvaluatorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_worst_case_evaluator_finalize;
}

static void
tw_worst_case_evaluator_init (TwWorstCaseEvaluator *self)
{
}

static const char *
worst_case_get_name (TwEvaluator *evaluator)
{
  return "worst case";
}

static const char *
worst_case_get_description (TwEvaluator *evaluator)
{
  return TW_WORST_CASE_EVALUATOR (evaluator)->description;
}

static GStrv
worst_case_dup_required_events (TwEvaluator *evaluator)
{
  TwWorstCaseEvaluator *self = TW_WORST_CASE_EVALUATOR (evaluator);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < N_METRICS; i++)
    {
      g_auto(GStrv) selectors = tw_evaluator_dup_required_events (TW_EVALUATOR (self->metrics[i]),
                                                                  NULL);

      for (guint s = 0; selectors[s]; s++)
        if (g_hash_table_add (seen, g_strdup (selectors[s])))
          g_strv_builder_add (builder, selectors[s]);
    }
  return g_strv_builder_end (builder);
}

/* Without the job's events there are no jobs to analyse. */
static gboolean
worst_case_check (TwEvaluator  *evaluator,
                  TwTrace      *trace,
                  GError      **error)
{
  return tw_metric_check_events (TW_WORST_CASE_EVALUATOR (evaluator)->metrics[JOB], trace, error);
}

static TwMeasurementTable *
worst_case_new_table (TwEvaluator *evaluator)
{
  return tw_worst_case_new_table ();
}

/* The histogram gets each task's longest job. */
static TwUpdate *
worst_case_create_update (TwEvaluator        *evaluator,
                          TwMeasurementTable *table,
                          TwHistogram        *histogram)
{
  static const char *const no_event[] = { NULL };
  TwWorstCaseEvaluator *self = TW_WORST_CASE_EVALUATOR (evaluator);
  WorstCaseRun *run = g_new0 (WorstCaseRun, 1);

  for (guint i = 0; i < N_METRICS; i++)
    run->metrics[i] = g_object_ref (self->metrics[i]);
  run->table = table ? g_object_ref (table) : NULL;
  run->histogram = histogram ? g_object_ref (histogram) : NULL;
  run->costs = self->costs ? g_object_ref (self->costs) : NULL;
  return tw_update_new (&worst_case_funcs, run, worst_case_run_free, NULL, no_event);
}

static void
tw_worst_case_evaluator_iface_init (TwEvaluatorInterface *iface)
{
  iface->get_name = worst_case_get_name;
  iface->get_description = worst_case_get_description;
  iface->dup_required_events = worst_case_dup_required_events;
  iface->check = worst_case_check;
  iface->new_table = worst_case_new_table;
  iface->create_update = worst_case_create_update;
}

/**
 * tw_worst_case_evaluator_new:
 * @initial_event: the event a task logs when a job starts (e.g. "task_activate")
 * @final_event: the event it logs when the job ends (e.g. "task_end_cycle")
 *
 * Measures, per task, the largest:
 *
 * - execution (C^user): the user metric @initial_event → @final_event without system
 *   time (the job's own running time);
 * - job_system_time (JST): the irq/softirq time that interrupted the job while it ran
 *   (the user metric's irq_ns);
 * - system_blocking_irq / _softirq (SB): the longest irq / softirq handler that ran
 *   while the task was the current one: non-preemptible system work charged to it;
 * - delay_until_wakeup (DUW): the longest handler in which the task was woken
 *   (wakeup-handler).
 *
 * Its table holds one row per task (tw_worst_case_fill_table());
 * tw_worst_case_evaluator_new_worst_case() reads it back for the response-time analysis.
 *
 * Returns: (transfer full): the evaluator
 */
TwWorstCaseEvaluator *
tw_worst_case_evaluator_new (const char *initial_event,
                             const char *final_event)
{
  TwWorstCaseEvaluator *self;

  g_return_val_if_fail (initial_event != NULL && final_event != NULL, NULL);

  self = g_object_new (TW_TYPE_WORST_CASE_EVALUATOR, NULL);
  self->initial_event = g_strdup (initial_event);
  self->final_event = g_strdup (final_event);
  self->metrics[JOB] = tw_metric_new_user ("job", initial_event, final_event, FALSE);
  self->metrics[IRQ] = tw_metric_new_system ("irq-duration", NULL);
  self->metrics[SOFTIRQ] = tw_metric_new_system ("softirq-duration", NULL);
  self->metrics[WAKEUP_HANDLER] = tw_metric_new_system ("wakeup-handler", NULL);
  self->description = g_strdup_printf (_("per-task worst cases and response times, jobs %s → %s"),
                                       initial_event, final_event);
  return self;
}

/**
 * tw_worst_case_evaluator_set_event_cost:
 * @cost_ns: the tracing cost of one event (tw-event-cost.h), 0 for none
 *
 * With a cost, the cells that are lengths of measurements — execution, the blocking
 * handlers, delay until wakeup — are compensated (tw_measurement_table_compensate()),
 * as Espinosa et al. 2003 give Fig. 4 "with the interference caused by the tracing
 * system subtracted"; so is each task's longest job, which is chosen by its
 * compensated length. Job system time, a sum of handler times the job's metric adds
 * up, stays as measured: its handlers' own events are not counted per job.
 */
void
tw_worst_case_evaluator_set_event_cost (TwWorstCaseEvaluator *self,
                                        double                cost_ns)
{
  g_autoptr(TwEventCosts) costs = NULL;

  g_return_if_fail (TW_IS_WORST_CASE_EVALUATOR (self));
  g_return_if_fail (cost_ns >= 0);
  costs = cost_ns > 0 ? tw_event_costs_new_uniform (cost_ns) : NULL;
  tw_worst_case_evaluator_set_event_costs (self, costs);
}

/**
 * tw_worst_case_evaluator_set_event_costs:
 * @costs: (nullable): the tracing cost of each event type; %NULL for none
 *
 * tw_worst_case_evaluator_set_event_cost() with a cost per event type: each length
 * cell then loses the sum of its intermediate events' own costs.
 */
void
tw_worst_case_evaluator_set_event_costs (TwWorstCaseEvaluator *self,
                                         TwEventCosts         *costs)
{
  g_return_if_fail (TW_IS_WORST_CASE_EVALUATOR (self));
  g_set_object (&self->costs, costs);
}

/**
 * tw_worst_case_evaluator_new_worst_case:
 * @table: the table a finished run of @self filled
 *
 * Returns: (transfer full) (nullable): the Fig. 4 summary, or %NULL with
 *   %TW_METRIC_ERROR_NO_DATA when no task logged a job
 */
TwWorstCase *
tw_worst_case_evaluator_new_worst_case (TwWorstCaseEvaluator  *self,
                                        TwMeasurementTable    *table,
                                        GError               **error)
{
  int execution;

  g_return_val_if_fail (TW_IS_WORST_CASE_EVALUATOR (self), NULL);
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (table), NULL);

  execution = tw_measurement_table_lookup_column (table, "execution");
  g_return_val_if_fail (execution >= 0, NULL);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    if (!isnan (tw_measurement_table_get_value (table, r, execution)))
      return tw_worst_case_new_for_table (table);
  g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_NO_DATA,
               _("no task logged a job (%s → %s by the same task)"), self->initial_event,
               self->final_event);
  return NULL;
}
