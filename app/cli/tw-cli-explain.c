/* tw-cli-explain.c: `tracewb-cli explain FILE`: where the time of one measurement went
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tw-evaluators.h>

#include "tw-cli.h"
#include "tw-cli-evaluator-choice.h"

typedef struct {
  TwCliEvaluatorChoice choice;
  char     *format;
  char     *task;
  gint64    row;
  gboolean  worst;
  gboolean  json;
  gboolean  timings;
} CliExplain;

static void
cli_explain_clear (CliExplain *self)
{
  tw_cli_evaluator_choice_clear (&self->choice);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->task, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliExplain, cli_explain_clear)

/* A task by its label ("name-tid"), name, source id or thread id. */
static guint32
find_task (TwTrace    *trace,
           const char *spec)
{
  char *end = NULL;
  gint64 tid = g_ascii_strtoll (spec, &end, 10);
  gboolean numeric = end != spec && *end == '\0';

  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);
      g_autofree char *label = tw_trace_dup_task_label (trace, t);

      if (g_strcmp0 (label, spec) == 0 || g_strcmp0 (task->name, spec) == 0
          || g_strcmp0 (task->source_id, spec) == 0 || (numeric && task->tid == tid))
        return t;
    }
  return TW_TASK_NONE;
}

/* The row to explain: @row when given, else the longest (of @task when given). */
static gboolean
pick_row (CliExplain          *self,
          TwMeasurementTable  *table,
          TwTrace             *trace,
          gsize               *picked,
          GError             **error)
{
  gsize n = tw_measurement_table_get_n_rows (table);
  guint32 task = TW_TASK_NONE;
  gboolean found = FALSE;

  if (self->row >= 0)
    {
      if ((guint64) self->row >= n)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       "--row %" G_GINT64_FORMAT ": the evaluation has %" G_GSIZE_FORMAT " rows",
                       self->row, n);
          return FALSE;
        }
      *picked = self->row;
      return TRUE;
    }
  if (self->task && (task = find_task (trace, self->task)) == TW_TASK_NONE)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--task %s: no such task in the trace", self->task);
      return FALSE;
    }
  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

      if (task != TW_TASK_NONE && m->task != task)
        continue;
      if (!found || m->length > tw_measurement_table_get_row (table, *picked)->length)
        *picked = r;
      found = TRUE;
    }
  if (!found)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "no measurement%s%s",
                 self->task ? " of task " : "", self->task ? self->task : "");
  return found;
}

/* ns as µs with three decimals: exact, so the column sums to the total */
static char *
format_us (guint64 ns)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%03u", ns / 1000, (guint) (ns % 1000));
}

static char *
format_time (guint64 ns)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%09u s", ns / 1000000000,
                          (guint) (ns % 1000000000));
}

static void
print_text (const TwExplanation *e,
            TwTrace             *trace,
            const char          *metric,
            gsize                row)
{
  guint64 length = e->row.end - e->row.begin;
  g_autofree char *label = tw_trace_dup_task_label (trace, e->row.task);
  g_autofree char *total = format_us (length);
  g_autofree char *begin = format_time (e->row.begin);
  g_autofree char *end = format_time (e->row.end);

  g_print ("%s, row %" G_GSIZE_FORMAT ", task %s: %s µs from %s to %s\n\n", metric, row, label,
           total, begin, end);
  g_print ("%-20s %-52s %14s %8s\n", "component", "who", "time (µs)", "share");
  for (guint i = 0; i < e->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (e->components, TwExplainComponent, i);
      g_autofree char *who = tw_explain_dup_who (trace, c);
      g_autofree char *us = format_us (c->time_ns);

      g_print ("%-20s %-52s %14s %7.2f%%\n", tw_explain_kind_to_string (c->kind), who, us,
               length ? 100.0 * c->time_ns / length : 0.0);
    }
  g_print ("%-20s %-52s %14s %7.2f%%\n", "total", "", total, length ? 100.0 : 0.0);

  g_print ("\ncritical path (from the measurement's wakeup back to its first cause):\n");
  for (guint i = 0; i < e->path->len; i++)
    {
      const TwExplainStep *step = &g_array_index (e->path, TwExplainStep, i);
      g_autofree char *text = tw_explain_dup_step (trace, step);
      g_autofree char *when = format_time (step->time);

      if (step->cpu != TW_CPU_NONE)
        g_print ("  %s  cpu %u  %s\n", when, step->cpu, text);
      else
        g_print ("  %s  %s\n", when, text);
    }
}

static int
run_explain (CliExplain *self,
             const char *path)
{
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwExplanation) explanation = NULL;
  TwCliCompensation compensation = { NULL, FALSE };
  const char *named = NULL;
  GError *error = NULL;
  gint64 t0, t1, t2;
  guint64 n_events = 0;
  gsize row = 0;

  if (!(evaluator = tw_cli_evaluator_choice_create (&self->choice, &named, &error)))
    return tw_cli_fail ("explain", error);
  t0 = g_get_monotonic_time ();
  if (!(table = tw_cli_evaluate ("explain", evaluator, named, path, self->format, &compensation,
                                 NULL, &trace, &error)))
    return tw_cli_fail ("explain", error);
  t1 = g_get_monotonic_time ();
  if (!pick_row (self, table, trace, &row, &error))
    {
      g_prefix_error (&error, "%s: ", path);
      return tw_cli_fail ("explain", error);
    }
  /* a state model of the events around the measurement, not of the whole trace */
  explanation = tw_explain_measurement_in_window (trace, tw_measurement_table_get_row (table, row),
                                                  &n_events);
  t2 = g_get_monotonic_time ();

  if (self->json)
    {
      g_autofree char *json = tw_explanation_to_json (explanation, trace);

      fputs (json, stdout);
      fputc ('\n', stdout);
    }
  else
    print_text (explanation, trace, tw_evaluator_get_name (evaluator), row);
  fflush (stdout);
  if (self->timings)
    g_printerr ("reading and evaluation %.3f s; explanation %.3f s after it (a state model of "
                "%" G_GUINT64_FORMAT " events around the measurement)\n",
                (t1 - t0) / 1e6, (t2 - t1) / 1e6, n_events);
  return 0;
}

int
tw_cli_explain (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("FILE — where the time of one measurement went, and its critical path");
  g_auto(CliExplain) self = { .row = -1 };
  const GOptionEntry entries[] = {
    { "worst", 'w', 0, G_OPTION_ARG_NONE, &self.worst,
      "Explain the longest measurement (the default without --row)", NULL },
    { "task", 't', 0, G_OPTION_ARG_STRING, &self.task,
      "With --worst: the longest measurement of this task (label, name, id or tid)", "TASK" },
    { "row", 'r', 0, G_OPTION_ARG_INT64, &self.row,
      "Explain the measurement of this row of the evaluation (from 0)", "N" },
    { "json", 'j', 0, G_OPTION_ARG_NONE, &self.json, "Print JSON", NULL },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &self.timings,
      "Say on standard error how long the evaluation and the explanation took", NULL },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &self.format, "Reader to use instead of probing",
      "NAME" },
    { NULL }
  };

  tw_cli_evaluator_choice_add_entries (&self.choice, context);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;

  if (argc != 2 || tw_cli_evaluator_choice_count (&self.choice) != 1
      || (self.row >= 0 && (self.worst || self.task)))
    {
      g_printerr ("usage: tracewb-cli explain FILE (--metric NAME | --user-metric START,END"
                  "[,--no-system] | --plugin X.so | --automaton A.json) "
                  "[--worst [--task TASK] | --row N] [--json] [--timings]\n");
      return 2;
    }
  return run_explain (&self, argv[1]);
}
