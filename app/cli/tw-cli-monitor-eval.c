/* tw-cli-monitor-eval.c: `tracewb-cli monitor --metric|--automaton|--plugin`: an evaluation beside the sensors
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The GRTMon monitor (Riegel 2005 §3.5, §4.3): the same evaluation code that runs over a
 * file in `tracewb-cli eval` and live in the window runs headless on the target, next to
 * the sensors, through the same TwEvaluatorRun (live: forward over what each poll
 * stored). With --lttng each new measurement leaves as a `tracewb:measurement` event and
 * the histogram as a `tracewb:histogram` snapshot every second (and at the end), so only
 * results cross the network when bandwidth is short.
 */
#include "config.h"

#include "tw-cli-monitor-eval.h"

#define HISTOGRAM_BINS     64
#define SNAPSHOT_EVERY_US  G_USEC_PER_SEC

struct _TwCliMonitorEval {
  TwTrace            *trace;
  TwEvaluatorRun     *run;
  const TwUstEmitter *emit;
  guint32             monitor;
  gsize               emitted_rows;    /* measurement rows already sent */
  gint64              last_snapshot_us;
  guint64             snapshot_generation;
};

static TwEvaluator *
choose_evaluator (const char  *metric,
                  const char  *automaton_path,
                  const char  *plugin_path,
                  GError     **error)
{
  if (metric)
    return tw_evaluator_factory_create_for_spec (metric, error);
  if (plugin_path)
    return (TwEvaluator *) tw_plugin_new_for_path (plugin_path, error);
  {
    g_autoptr(TwAutomaton) automaton = tw_automaton_load (automaton_path, error);
    TwEvaluator *evaluator;

    if (automaton == NULL)
      return NULL;
    if (!(evaluator = (TwEvaluator *) tw_automaton_evaluator_new (automaton, error)))
      g_prefix_error (error, "%s: ", automaton_path);
    return evaluator;
  }
}

/**
 * tw_cli_monitor_eval_new:
 * @trace: the monitor's live store
 * @metric: (nullable): a metric spec (`tracewb-cli metrics`)
 * @automaton: (nullable): an automaton file
 * @plugin: (nullable): an evaluation module
 *
 * Exactly one of @metric, @automaton, @plugin. Starts the evaluation live over @trace.
 *
 * Returns: (transfer full) (nullable): %NULL with @error naming the file or metric
 */
TwCliMonitorEval *
tw_cli_monitor_eval_new (TwTrace     *trace,
                         const char  *metric,
                         const char  *automaton,
                         const char  *plugin,
                         GError     **error)
{
  g_autoptr(TwEvaluator) evaluator = choose_evaluator (metric, automaton, plugin, error);
  g_autoptr(TwCliMonitorEval) self = NULL;

  if (evaluator == NULL)
    return NULL;
  self = g_new0 (TwCliMonitorEval, 1);
  self->trace = g_object_ref (trace);
  self->run = tw_evaluator_run_new (evaluator, trace, HISTOGRAM_BINS, TW_HISTOGRAM_SCALE_LINEAR);
  if (!tw_evaluator_run_start_live (self->run, error))
    {
      g_prefix_error (error, "%s: ", tw_evaluator_get_name (evaluator));
      return NULL;
    }
  self->last_snapshot_us = g_get_monotonic_time ();
  return g_steal_pointer (&self);
}

/* Measurements and histogram snapshots out as LTTng-UST events from now on. */
void
tw_cli_monitor_eval_set_emitter (TwCliMonitorEval   *self,
                                 const TwUstEmitter *emit,
                                 guint32             monitor)
{
  self->emit = emit;
  self->monitor = monitor;
}

static void
emit_new_rows (TwCliMonitorEval *self)
{
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);
  const char *name = tw_evaluator_get_name (tw_evaluator_run_get_evaluator (self->run));
  gsize n = tw_measurement_table_get_n_rows (table);

  for (; self->emitted_rows < n; self->emitted_rows++)
    {
      const TwMeasurementRow *row = tw_measurement_table_get_row (table, self->emitted_rows);
      const TwTask *task = row->task != TW_TASK_NONE ? tw_trace_get_task (self->trace, row->task) : NULL;

      self->emit->measurement (self->monitor, name, task && task->source_id ? task->source_id : "",
                               task && task->name ? task->name : "", task ? task->pid : -1,
                               row->begin, row->end, row->length, row->intermediate_events);
    }
}

static void
emit_snapshot (TwCliMonitorEval *self)
{
  TwHistogram *histogram = tw_evaluator_run_get_histogram (self->run);
  const char *name = tw_evaluator_get_name (tw_evaluator_run_get_evaluator (self->run));
  guint n_bins = tw_histogram_get_n_bins (histogram);
  g_autofree guint64 *bins = g_new0 (guint64, MAX (n_bins, 1));
  double low = 0, high = 0, width = 0;

  for (guint i = 0; i < n_bins; i++)
    bins[i] = tw_histogram_get_bin (histogram, i, NULL, NULL);
  if (tw_histogram_get_range (histogram, &low, &high) && n_bins > 0)
    width = (high - low) / n_bins;
  self->emit->histogram (self->monitor, name, tw_histogram_get_count (histogram),
                         tw_histogram_get_min (histogram), tw_histogram_get_max (histogram),
                         tw_histogram_get_mean (histogram), low, width, bins, n_bins);
}

/**
 * tw_cli_monitor_eval_advance:
 * @final: the monitor stopped: send the last histogram snapshot
 *
 * Evaluates what the last poll stored; with an emitter, sends the new measurements and,
 * every second when it changed, the histogram.
 *
 * Returns: %FALSE with @error when the evaluation stopped (an automaton made ambiguous by
 *   a new event type, a module that failed)
 */
gboolean
tw_cli_monitor_eval_advance (TwCliMonitorEval  *self,
                             gboolean           final,
                             GError           **error)
{
  gint64 now = g_get_monotonic_time ();
  guint64 generation;
  const char *failed;

  tw_evaluator_run_advance (self->run);
  if ((failed = tw_evaluator_run_get_error_message (self->run)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s",
                   tw_evaluator_get_name (tw_evaluator_run_get_evaluator (self->run)), failed);
      return FALSE;
    }
  if (self->emit == NULL)
    return TRUE;
  emit_new_rows (self);
  generation = tw_histogram_get_generation (tw_evaluator_run_get_histogram (self->run));
  if ((final || now - self->last_snapshot_us >= SNAPSHOT_EVERY_US) && generation != self->snapshot_generation)
    {
      self->last_snapshot_us = now;
      self->snapshot_generation = generation;
      emit_snapshot (self);
    }
  return TRUE;
}

guint64
tw_cli_monitor_eval_get_n_measurements (TwCliMonitorEval *self)
{
  return tw_measurement_table_get_n_rows (tw_evaluator_run_get_table (self->run));
}

/* The measurements so far, for a flight recorder's trigger. */
TwMeasurementTable *
tw_cli_monitor_eval_get_table (TwCliMonitorEval *self)
{
  return tw_evaluator_run_get_table (self->run);
}

/* Drops the measurements and the histogram's values (it keeps every value for its
 * percentiles): a flight recorder's trigger looks at each measurement once and runs
 * for days. */
void
tw_cli_monitor_eval_forget (TwCliMonitorEval *self)
{
  tw_measurement_table_clear (tw_evaluator_run_get_table (self->run));
  tw_histogram_clear (tw_evaluator_run_get_histogram (self->run));
}

/**
 * tw_cli_monitor_eval_report:
 * @builder: (nullable): a JSON array being built; %NULL: text on stderr
 *
 * The evaluation's results at the end: one object (kind "evaluation") or one line.
 */
void
tw_cli_monitor_eval_report (TwCliMonitorEval *self,
                            JsonBuilder      *builder)
{
  TwHistogram *histogram = tw_evaluator_run_get_histogram (self->run);
  const char *name = tw_evaluator_get_name (tw_evaluator_run_get_evaluator (self->run));
  guint64 n = tw_cli_monitor_eval_get_n_measurements (self);

  if (builder == NULL)
    {
      g_autofree char *text = tw_histogram_format_text (histogram, 0);

      g_printerr ("%s: %" G_GUINT64_FORMAT " measurements\n%s", name, n, text);
      return;
    }
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, "evaluation");
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "measurements");
  json_builder_add_int_value (builder, (gint64) n);
  json_builder_set_member_name (builder, "min");
  json_builder_add_double_value (builder, n ? tw_histogram_get_min (histogram) : 0);
  json_builder_set_member_name (builder, "max");
  json_builder_add_double_value (builder, n ? tw_histogram_get_max (histogram) : 0);
  json_builder_set_member_name (builder, "mean");
  json_builder_add_double_value (builder, n ? tw_histogram_get_mean (histogram) : 0);
  json_builder_end_object (builder);
}

void
tw_cli_monitor_eval_free (TwCliMonitorEval *self)
{
  if (self == NULL)
    return;
  if (self->run)
    tw_evaluator_run_cancel (self->run);
  g_clear_object (&self->run);
  g_clear_object (&self->trace);
  g_free (self);
}
