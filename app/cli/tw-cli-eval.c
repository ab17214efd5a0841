/* tw-cli-eval.c: `tracewb-cli eval FILE`: metrics, user metrics, plugins, worst cases
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <tw-evaluators.h>

#include "tw-cli.h"

typedef struct {
  /* options */
  char     *format;
  char     *metric_name;
  char     *user_metric;
  char     *plugin_path;
  char     *automaton_path;
  char     *csv;
  char     *rta_csv;
  gboolean  hist;
  gboolean  log_bins;
  gboolean  worst_case;
  int       bins;
} CliEval;

static void
cli_eval_clear (CliEval *self)
{
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->metric_name, g_free);
  g_clear_pointer (&self->user_metric, g_free);
  g_clear_pointer (&self->plugin_path, g_free);
  g_clear_pointer (&self->automaton_path, g_free);
  g_clear_pointer (&self->csv, g_free);
  g_clear_pointer (&self->rta_csv, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliEval, cli_eval_clear)

/* The exclusive options that choose what to evaluate: each turns its value into an
 * evaluator, before the (possibly large) trace is read. Everything after that is the
 * same for every evaluator (tw-evaluator-interface.h); `--metric` reaches every
 * evaluator registered by name (tw-evaluator-factory.h). */
typedef struct {
  gsize        value_offset;   /* of the option's char * in CliEval */
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
  { G_STRUCT_OFFSET (CliEval, metric_name), tw_evaluator_factory_create_for_spec, FALSE },
  { G_STRUCT_OFFSET (CliEval, user_metric), choose_user_metric, FALSE },
  { G_STRUCT_OFFSET (CliEval, plugin_path), choose_plugin, TRUE },
  { G_STRUCT_OFFSET (CliEval, automaton_path), choose_automaton, TRUE },
};

static const char *
choice_value (const CliEval    *self,
              const EvalChoice *choice)
{
  return G_STRUCT_MEMBER (const char *, self, choice->value_offset);
}

static void
print_progress (double   fraction,
                gpointer user_data)
{
  fprintf (stderr, "\revaluating %3.0f%%", fraction * 100.0);
  if (fraction >= 1.0)
    fprintf (stderr, "\r                 \r");
}

static TwProgressFunc
progress_func (void)
{
  return isatty (fileno (stderr)) ? print_progress : NULL;
}

static gboolean
write_text (const char  *path,
            const char  *text,
            GError     **error)
{
  if (strcmp (path, "-") == 0)
    {
      fputs (text, stdout);
      fflush (stdout);
      if (ferror (stdout))
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
                       "writing to standard output: %s", g_strerror (errno));
          return FALSE;
        }
      return TRUE;
    }
  return g_file_set_contents (path, text, -1, error);
}

static gboolean
write_table_csv (TwMeasurementTable  *table,
                 TwTrace             *trace,
                 const char          *path,
                 GError             **error)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autofree char *text = NULL;

  if (strcmp (path, "-") == 0)
    {
      text = tw_measurement_table_to_csv (table, trace);
      return write_text (path, text, error);
    }
  file = g_file_new_for_commandline_arg (path);
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  return stream != NULL &&
         tw_measurement_table_write_csv (table, trace, G_OUTPUT_STREAM (stream), NULL, error) &&
         g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

/* Reads the trace and runs @evaluator over it (the part every evaluator shares).
 * @named: (nullable): the file the evaluator came from, for its warnings and errors */
static TwMeasurementTable *
evaluate (CliEval      *self,
          TwEvaluator  *evaluator,
          const char   *named,
          const char   *path,
          TwHistogram  *histogram,
          TwTrace     **trace,
          GError      **error)
{
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autofree char *warning = NULL;

  if (!(*trace = tw_cli_load_trace (path, self->format, error)))
    return NULL;
  /* an evaluator that cannot measure this trace says so instead of "0 measurements" */
  if (!tw_evaluator_check (evaluator, *trace, error))
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  table = tw_evaluator_evaluate (evaluator, *trace, histogram, progress_func (), NULL, NULL, error);
  if (table == NULL)
    {
      if (named)
        g_prefix_error (error, "%s: ", named);
      return NULL;
    }
  if ((warning = tw_evaluator_dup_warning (evaluator, *trace)))
    g_printerr ("tracewb-cli eval: warning: %s%s%s\n", named ? named : "", named ? ": " : "",
                warning);
  return g_steal_pointer (&table);
}

static int
run_choice (CliEval          *self,
            const EvalChoice *choice,
            const char       *path)
{
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwHistogram) histogram = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  GError *error = NULL;

  if (!(evaluator = choice->choose (choice_value (self, choice), &error)))
    return tw_cli_fail ("eval", error);
  histogram = tw_histogram_new_auto (self->bins, self->log_bins ? TW_HISTOGRAM_SCALE_LOG
                                                                : TW_HISTOGRAM_SCALE_LINEAR);
  if (!(table = evaluate (self, evaluator, choice->names_file ? choice_value (self, choice) : NULL,
                          path, histogram, &trace, &error)))
    return tw_cli_fail ("eval", error);

  if (self->csv && !write_table_csv (table, trace, self->csv, &error))
    return tw_cli_fail ("eval", error);

  if (self->hist || self->csv == NULL || strcmp (self->csv, "-") != 0)
    {
      g_autofree char *text = tw_histogram_format_text (histogram, self->hist ? 50 : 0);
      /* without --hist only the statistics lines */
      char *bins = self->hist ? NULL : strchr (strchr (text, '\n') + 1, '\n');
      FILE *out = self->csv && strcmp (self->csv, "-") == 0 ? stderr : stdout;

      if (bins)
        bins[1] = '\0';
      fprintf (out, "%s: %" G_GSIZE_FORMAT " measurements\n", tw_evaluator_get_name (evaluator),
               tw_measurement_table_get_n_rows (table));
      fputs (text, out);
    }
  return 0;
}

/* Espinosa 2003 §4: Fig. 4 (largest measurement per task of each metric) and eq. (1). */
static int
run_worst_case (CliEval    *self,
                const char *path)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(GArray) rta = NULL;
  GError *error = NULL;
  g_auto(GStrv) parts = g_strsplit (self->user_metric ? self->user_metric
                                                      : "task_activate,task_end_cycle", ",", 3);

  if (g_strv_length (parts) < 2 || !parts[0][0] || !parts[1][0])
    {
      g_printerr ("tracewb-cli eval: --worst-case takes the job's events as "
                  "--user-metric START,END (default task_activate,task_end_cycle)\n");
      return 2;
    }
  evaluator = tw_worst_case_evaluator_new (parts[0], parts[1]);
  if (!(table = evaluate (self, TW_EVALUATOR (evaluator), NULL, path, NULL, &trace, &error)))
    return tw_cli_fail ("eval", error);
  if (!(wc = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error)))
    {
      g_prefix_error (&error, "%s: ", path);
      return tw_cli_fail ("eval", error);
    }

  if (self->csv)
    {
      g_autofree char *csv = tw_worst_case_to_csv (wc, trace);

      if (!write_text (self->csv, csv, &error))
        return tw_cli_fail ("eval", error);
    }
  if (self->rta_csv)
    {
      g_autofree char *csv = tw_worst_case_analysis_to_csv (wc, trace);

      if (!write_text (self->rta_csv, csv, &error))
        return tw_cli_fail ("eval", error);
    }
  if (self->csv && strcmp (self->csv, "-") == 0)
    return 0;

  g_print ("Worst case per task (µs; Espinosa 2003 Fig. 4)\n");
  g_print ("%-24s %12s %12s %12s %12s %12s\n", "task", "execution", "job system",
           "blocking irq", "blocking soft", "wakeup");
  for (guint r = 0; r < tw_worst_case_get_n_rows (wc); r++)
    {
      g_autofree char *label = tw_trace_dup_task_label (trace, tw_worst_case_get_task (wc, r));

      g_print ("%-24s", label);
      for (guint c = 0; c < tw_worst_case_get_n_columns (wc); c++)
        {
          double v = tw_worst_case_get_value (wc, r, c);

          if (v != v)
            g_print (" %12s", "-");
          else
            g_print (" %12.3f", v / 1e3);
        }
      g_print ("\n");
    }

  rta = tw_worst_case_analyse (wc);
  g_print ("\nResponse times, eq. (1), rate-monotonic priorities (µs)\n");
  g_print ("%-24s %4s %12s %12s %12s %12s\n", "task", "prio", "T", "C", "B", "R");
  for (guint i = 0; i < rta->len; i++)
    {
      const TwResponseTime *rt = &g_array_index (rta, TwResponseTime, i);
      g_autofree char *label = tw_trace_dup_task_label (trace, rt->task);

      g_autofree char *period = rt->period > 0 ? g_strdup_printf ("%.3f", rt->period / 1e3)
                                               : g_strdup ("- (1 job)");

      g_print ("%-24s %4u %12s %12.3f %12.3f %12.3f%s\n", label, rt->priority, period,
               rt->execution / 1e3, rt->blocking / 1e3, rt->response / 1e3,
               rt->converged ? "" : "  (exceeds its period)");
    }
  return 0;
}

int
tw_cli_eval (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("FILE — evaluate a metric, a user metric, a plugin or an automaton over a trace");
  g_auto(CliEval) self = { .bins = 32 };
  const EvalChoice *chosen = NULL;
  guint n_chosen = 0;
  const GOptionEntry entries[] = {
    { "metric", 'm', 0, G_OPTION_ARG_STRING, &self.metric_name,
      "A system metric (see `tracewb-cli metrics`)", "NAME[:PARAM]" },
    { "user-metric", 'u', 0, G_OPTION_ARG_STRING, &self.user_metric,
      "Time a task spends between two of its events; ,--no-system excludes irq and "
      "preemption time", "START,END[,--no-system]" },
    { "plugin", 'p', 0, G_OPTION_ARG_FILENAME, &self.plugin_path,
      "An evaluation module (tw-evaluator.h)", "X.so" },
    { "automaton", 'a', 0, G_OPTION_ARG_FILENAME, &self.automaton_path,
      "A metric automaton file, run by the interpreter (docs/automata.md)", "A.json" },
    { "worst-case", 'w', 0, G_OPTION_ARG_NONE, &self.worst_case,
      "Per-task worst cases and the response-time analysis of Espinosa 2003 eq. (1); jobs from "
      "--user-metric START,END (default task_activate,task_end_cycle)", NULL },
    { "csv", 'o', 0, G_OPTION_ARG_FILENAME, &self.csv,
      "Write the measurements (with --worst-case: the per-task table) as CSV; - for stdout",
      "OUT" },
    { "rta-csv", 0, 0, G_OPTION_ARG_FILENAME, &self.rta_csv,
      "With --worst-case: write the response-time analysis as CSV", "OUT" },
    { "hist", 0, 0, G_OPTION_ARG_NONE, &self.hist, "Print the histogram and statistics", NULL },
    { "log", 0, 0, G_OPTION_ARG_NONE, &self.log_bins, "Logarithmic histogram bins", NULL },
    { "bins", 0, 0, G_OPTION_ARG_INT, &self.bins, "Histogram bins (default 32)", "N" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &self.format, "Reader to use instead of probing",
      "NAME" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;

  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (choice_value (&self, &choices[i]) != NULL)
      {
        chosen = &choices[i];
        n_chosen++;
      }
  /* with --worst-case, --user-metric names the jobs */
  if (self.worst_case && self.user_metric != NULL)
    n_chosen--;
  if (argc != 2 || (n_chosen != 1 && !self.worst_case) || (self.worst_case && n_chosen > 0) ||
      self.bins < 2 || self.bins > 100000)
    {
      g_printerr ("usage: tracewb-cli eval FILE (--metric NAME | --user-metric START,END[,--no-system]"
                  " | --plugin X.so | --automaton A.json) [--csv OUT|-] [--hist] [--log] [--bins N]\n"
                  "       tracewb-cli eval FILE --worst-case [--user-metric START,END] "
                  "[--csv OUT|-] [--rta-csv OUT|-]\n");
      return 2;
    }

  if (self.worst_case)
    return run_worst_case (&self, argv[1]);
  return run_choice (&self, chosen, argv[1]);
}
