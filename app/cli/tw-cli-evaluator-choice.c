/* tw-cli-evaluator-choice.c: the options that choose an evaluator, for eval and compare
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tw-cli.h"
#include "tw-cli-evaluator-choice.h"

/* The exclusive options that choose what to evaluate: each turns its value into an
 * evaluator, before the (possibly large) trace is read. Everything after that is the
 * same for every evaluator (tw-evaluator-interface.h); `--metric` reaches every
 * evaluator registered by name (tw-evaluator-factory.h). */
typedef struct {
  gsize        value_offset;   /* of the option's char * in TwCliEvaluatorChoice */
  TwEvaluator *(*choose) (const char *value, GError **error);
  gboolean     names_file;     /* its warnings and run errors name the file */
} EvalChoice;

/* START,END[,--no-system]: the events of the Fig. 2 user metric. */
static TwEvaluator *
choose_user_metric (const char  *spec,
                    GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (spec, ",", -1);
  guint n = g_strv_length (parts);
  gboolean include_system = TRUE;

  if (n == 3 && (strcmp (parts[2], "--no-system") == 0 || strcmp (parts[2], "no-system") == 0))
    include_system = FALSE;
  else if (n != 2)
    n = 0;
  if (n == 0 || !parts[0][0] || !parts[1][0])
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--user-metric “%s”: expected START,END or START,END,--no-system", spec);
      return NULL;
    }
  return TW_EVALUATOR (tw_metric_new_user (spec, parts[0], parts[1], include_system));
}

static TwEvaluator *
choose_plugin (const char  *path,
               GError     **error)
{
  return (TwEvaluator *) tw_plugin_new_for_path (path, error);
}

static TwEvaluator *
choose_automaton (const char  *path,
                  GError     **error)
{
  g_autoptr(TwAutomaton) automaton = tw_automaton_load (path, error);
  TwEvaluator *evaluator;

  if (automaton == NULL)
    return NULL;
  if (!(evaluator = (TwEvaluator *) tw_automaton_evaluator_new (automaton, error)))
    g_prefix_error (error, "%s: ", path);
  return evaluator;
}

static const EvalChoice choices[] = {
  { G_STRUCT_OFFSET (TwCliEvaluatorChoice, metric_name), tw_evaluator_factory_create_for_spec, FALSE },
  { G_STRUCT_OFFSET (TwCliEvaluatorChoice, user_metric), choose_user_metric, FALSE },
  { G_STRUCT_OFFSET (TwCliEvaluatorChoice, plugin_path), choose_plugin, TRUE },
  { G_STRUCT_OFFSET (TwCliEvaluatorChoice, automaton_path), choose_automaton, TRUE },
};

static const char *
choice_value (const TwCliEvaluatorChoice *self,
              const EvalChoice           *choice)
{
  return G_STRUCT_MEMBER (const char *, self, choice->value_offset);
}

void
tw_cli_evaluator_choice_clear (TwCliEvaluatorChoice *self)
{
  g_clear_pointer (&self->metric_name, g_free);
  g_clear_pointer (&self->user_metric, g_free);
  g_clear_pointer (&self->plugin_path, g_free);
  g_clear_pointer (&self->automaton_path, g_free);
}

void
tw_cli_evaluator_choice_add_entries (TwCliEvaluatorChoice *self,
                                     GOptionContext       *context)
{
  const GOptionEntry entries[] = {
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &self->metric_name,
      "A system metric (see `tracewb-cli metrics`)", "NAME[:PARAM]" },
    { "user-metric", 'u', 0, G_OPTION_ARG_STRING, &self->user_metric,
      "Time a task spends between two of its events; ,--no-system excludes irq and "
      "preemption time", "START,END[,--no-system]" },
    { "plugin", 'p', 0, G_OPTION_ARG_FILENAME, &self->plugin_path,
      "An evaluation module (tw-evaluator.h)", "X.so" },
    { "automaton", 'a', 0, G_OPTION_ARG_FILENAME, &self->automaton_path,
      "A metric automaton file, run by the interpreter (docs/automata.md)", "A.json" },
    { NULL }
  };

  /* GLib copies the entries */
  g_option_context_add_main_entries (context, entries, NULL);
}

/* Returns: how many of the choosing options were given */
guint
tw_cli_evaluator_choice_count (TwCliEvaluatorChoice *self)
{
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    n += choice_value (self, &choices[i]) != NULL;
  return n;
}

/**
 * tw_cli_evaluator_choice_create:
 * @named: (out): the file the evaluator came from (for its warnings and errors), or
 *   %NULL
 *
 * Returns: (transfer full) (nullable): the evaluator the one given option chooses
 */
TwEvaluator *
tw_cli_evaluator_choice_create (TwCliEvaluatorChoice  *self,
                                const char           **named,
                                GError               **error)
{
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    {
      const char *value = choice_value (self, &choices[i]);

      if (value == NULL)
        continue;
      *named = choices[i].names_file ? value : NULL;
      return choices[i].choose (value, error);
    }
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "no evaluation chosen (--metric, --user-metric, --plugin or --automaton)");
  return NULL;
}

static void
print_progress (double   fraction,
                gpointer user_data)
{
  fprintf (stderr, "\revaluating %3.0f%%", fraction * 100.0);
  if (fraction >= 1.0)
    fprintf (stderr, "\r                 \r");
}

/* The costs --event-cost gives (one, or per type: tw_event_costs_parse()); "calibrated"
 * (the default with --compensated) is what `tracewb-cli calibrate` stored for the
 * source of @trace, with its per-type entries. *costs stays NULL without either. */
static gboolean
resolve_event_costs (const TwCliCompensation  *compensation,
                     TwTrace                  *trace,
                     const char               *path,
                     TwEventCosts            **costs,
                     GError                  **error)
{
  const char *spec = compensation->event_cost;
  const char *source;
  g_auto(TwEventCostCalibration) calibration = { 0 };

  *costs = NULL;
  if (spec == NULL && !compensation->compensated)
    return TRUE;
  if (spec != NULL && strcmp (spec, "calibrated") != 0)
    return (*costs = tw_event_costs_parse (spec, error)) != NULL;
  if (!(source = tw_event_cost_source_for_trace (trace)))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "%s: no calibrated tracing cost applies to a trace of mixed sources; "
                   "give --event-cost COST (or TYPE=COST,…,*=COST)", path);
      return FALSE;
    }
  if (!(*costs = tw_event_cost_lookup_for_trace (trace)))
    {
      /* its error says how to get one */
      tw_event_cost_lookup (source, &calibration, error);
      return FALSE;
    }
  return TRUE;
}

static void
fill_compensated (TwHistogram        *histogram,
                  TwMeasurementTable *table)
{
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    tw_histogram_insert (histogram,
                         tw_measurement_table_compensate (table, tw_measurement_table_get_row (table, r)));
}

/**
 * tw_cli_evaluate:
 * @named: (nullable): the file the evaluator came from, for its warnings and errors
 * @format: (nullable): a reader name, or %NULL to probe
 * @compensation: with an event cost the table gets a compensated length beside the
 *   raw one; compensated, @histogram gets those and a worst-case evaluator
 *   subtracts the cost from its cells
 * @trace: (inout): the trace read from @path; one already read when not %NULL
 *
 * Reads the trace and runs @evaluator over it: the part every evaluator shares.
 *
 * Returns: (transfer full) (nullable): the measurements
 */
TwMeasurementTable *
tw_cli_evaluate (const char              *command,
                 TwEvaluator             *evaluator,
                 const char              *named,
                 const char              *path,
                 const char              *format,
                 const TwCliCompensation *compensation,
                 TwHistogram             *histogram,
                 TwTrace                **trace,
                 GError                 **error)
{
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autofree char *warning = NULL;
  TwProgressFunc progress = isatty (fileno (stderr)) ? print_progress : NULL;
  g_autoptr(TwEventCosts) costs = NULL;

  if (*trace == NULL && !(*trace = tw_cli_load_trace (path, format, error)))
    return NULL;
  /* an evaluator that cannot measure this trace says so instead of "0 measurements" */
  if (!tw_evaluator_check (evaluator, *trace, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  if (!resolve_event_costs (compensation, *trace, path, &costs, error))
    return NULL;
  if (compensation->compensated && TW_IS_WORST_CASE_EVALUATOR (evaluator))
    tw_worst_case_evaluator_set_event_costs (TW_WORST_CASE_EVALUATOR (evaluator), costs);
  /* a worst-case table says itself whether its cells are compensated */
  table = tw_evaluator_evaluate_with_costs (evaluator, *trace,
                                            TW_IS_WORST_CASE_EVALUATOR (evaluator) ? NULL : costs,
                                            compensation->compensated ? NULL : histogram,
                                            progress, NULL, NULL, error);
  if (table == NULL)
    {
      if (named)
        g_prefix_error (error, "%s: ", named);
      return NULL;
    }
  if (compensation->compensated && histogram)
    fill_compensated (histogram, table);
  if ((warning = tw_evaluator_dup_warning (evaluator, *trace)))
    g_printerr ("tracewb-cli %s: warning: %s%s%s\n", command, named ? named : "",
                named ? ": " : "", warning);
  return g_steal_pointer (&table);
}
