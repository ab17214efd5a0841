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
#include "tw-cli-evaluator-choice.h"

typedef struct {
  /* options */
  TwCliEvaluatorChoice choice;
  char     *format;
  char     *csv;
  char     *rta_csv;
  char     *event_cost;
  gboolean  compensated;
  gboolean  hist;
  gboolean  log_bins;
  gboolean  worst_case;
  gboolean  tail;
  int       block;
  int       bins;
} CliEval;

static void
cli_eval_clear (CliEval *self)
{
  tw_cli_evaluator_choice_clear (&self->choice);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->csv, g_free);
  g_clear_pointer (&self->rta_csv, g_free);
  g_clear_pointer (&self->event_cost, g_free);
}

static TwCliCompensation
cli_eval_compensation (CliEval *self)
{
  return (TwCliCompensation) { self->event_cost, self->compensated };
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliEval, cli_eval_clear)

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

/* One line of the tail table: @lengths in the order they were measured. */
static void
print_tail_line (const char   *label,
                 const double *lengths,
                 gsize         n,
                 guint         block)
{
  g_autoptr(GError) error = NULL;
  TwTailFit fit;

  if (!tw_tail_fit_compute (lengths, n, block, &fit, &error))
    {
      g_print ("%-24s %s\n", label, error->message);
      return;
    }
  g_print ("%-24s %5u×%-4u %12.3f %12.3f %12.3f %8.3g %8.3g%s\n", label, fit.n_blocks,
           fit.block_size, fit.observed_max / 1e3, tw_tail_fit_exceeded_with (&fit, 1e-6) / 1e3,
           tw_tail_fit_exceeded_with (&fit, 1e-9) / 1e3, fit.fit_p_value, fit.independence_p_value,
           fit.fit_p_value < 0.05 || fit.independence_p_value < 0.05 ? "  (!)" : "");
}

/* Beside each max, how likely a longer one is (issue: "how sure is the worst case"):
 * all measurements, then each task with enough of them to fill the blocks. */
static void
print_tail (TwMeasurementTable *table,
            TwTrace            *trace,
            guint               block,
            gboolean            compensated)
{
  gsize n = tw_measurement_table_get_n_rows (table);
  g_autoptr(GArray) all = g_array_sized_new (FALSE, FALSE, sizeof (double), n);
  g_autoptr(GHashTable) per_task = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  g_autofree gpointer *tasks = NULL;
  guint n_tasks;

  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);
      double length = compensated ? tw_measurement_table_compensate (table, m) : m->length;
      GArray *lengths;

      g_array_append_val (all, length);
      if (m->task == TW_TASK_NONE)
        continue;
      if (!(lengths = g_hash_table_lookup (per_task, GUINT_TO_POINTER (m->task))))
        g_hash_table_insert (per_task, GUINT_TO_POINTER (m->task),
                             lengths = g_array_new (FALSE, FALSE, sizeof (double)));
      g_array_append_val (lengths, length);
    }
  g_print ("\nTail estimate: Gumbel fit to the maxima of blocks of %u measurements in measured order\n"
           "(an estimate, not a bound; (!) marks a fit p or independence p below 0.05)\n", block);
  g_print ("%-24s %10s %12s %12s %12s %8s %8s\n", "", "blocks", "max (µs)", "p=1e-6", "p=1e-9",
           "fit p", "indep. p");
  print_tail_line ("all measurements", (double *) all->data, all->len, block);
  tasks = g_hash_table_get_keys_as_array (per_task, &n_tasks);
  for (guint i = 0; i < n_tasks; i++)
    {
      GArray *lengths = g_hash_table_lookup (per_task, tasks[i]);
      g_autofree char *label = NULL;

      /* tasks too short for a fit would only print the refusal */
      if (lengths->len < (gsize) block * TW_TAIL_FIT_MIN_BLOCKS)
        continue;
      label = tw_trace_dup_task_label (trace, GPOINTER_TO_UINT (tasks[i]));
      print_tail_line (label, (double *) lengths->data, lengths->len, block);
    }
}

static int
run_choice (CliEval    *self,
            const char *path)
{
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwHistogram) histogram = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  const char *named = NULL;
  TwCliCompensation compensation;
  GError *error = NULL;

  if (!(evaluator = tw_cli_evaluator_choice_create (&self->choice, &named, &error)))
    return tw_cli_fail ("eval", error);
  histogram = tw_histogram_new_auto (self->bins, self->log_bins ? TW_HISTOGRAM_SCALE_LOG
                                                                : TW_HISTOGRAM_SCALE_LINEAR);
  compensation = cli_eval_compensation (self);
  if (!(table = tw_cli_evaluate ("eval", evaluator, named, path, self->format, &compensation,
                                 histogram, &trace, &error)))
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
      if (self->compensated)
        {
          g_autofree char *costs = tw_measurement_table_dup_event_cost_text (table);

          fprintf (out, "compensated lengths: tracing cost of each intermediate event "
                   "subtracted (%s)\n", costs);
        }
      fputs (text, out);
    }
  if (self->tail)
    print_tail (table, trace, self->block, self->compensated);
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
  const char *jobs = self->choice.user_metric;
  g_auto(GStrv) parts = g_strsplit (jobs ? jobs : "task_activate,task_end_cycle", ",", 3);
  TwCliCompensation compensation;
  g_autofree char *which = NULL;
  g_autofree char *costs = NULL;

  if (g_strv_length (parts) < 2 || !parts[0][0] || !parts[1][0])
    {
      g_printerr ("tracewb-cli eval: --worst-case takes the job's events as "
                  "--user-metric START,END (default task_activate,task_end_cycle)\n");
      return 2;
    }
  evaluator = tw_worst_case_evaluator_new (parts[0], parts[1]);
  compensation = cli_eval_compensation (self);
  if (!(table = tw_cli_evaluate ("eval", TW_EVALUATOR (evaluator), NULL, path, self->format,
                                 &compensation, NULL, &trace, &error)))
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

  /* the paper's Fig. 4 subtracts the tracing system's interference: say whether we did */
  costs = tw_worst_case_dup_event_cost_text (wc);
  which = costs ? g_strdup_printf ("tracing cost %s subtracted", costs)
                : g_strdup ("raw lengths, tracing cost not subtracted");
  g_print ("Worst case per task (µs; Espinosa 2003 Fig. 4; %s)\n", which);
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
  g_print ("\nResponse times, eq. (1), rate-monotonic priorities (µs; %s)\n", which);
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
  g_auto(CliEval) self = { .bins = 32, .block = 50 };
  guint n_chosen;
  const GOptionEntry entries[] = {
    { "worst-case", 'w', 0, G_OPTION_ARG_NONE, &self.worst_case,
      "Per-task worst cases and the response-time analysis of Espinosa 2003 eq. (1); jobs from "
      "--user-metric START,END (default task_activate,task_end_cycle)", NULL },
    { "csv", 'o', 0, G_OPTION_ARG_FILENAME, &self.csv,
      "Write the measurements (with --worst-case: the per-task table) as CSV; - for stdout",
      "OUT" },
    { "rta-csv", 0, 0, G_OPTION_ARG_FILENAME, &self.rta_csv,
      "With --worst-case: write the response-time analysis as CSV", "OUT" },
    { "event-cost", 0, 0, G_OPTION_ARG_STRING, &self.event_cost,
      "The tracing cost of one event (e.g. 0.8us), or the one `tracewb-cli calibrate` stored "
      "for the trace's source; adds compensated_length_ns to the CSV", "COST|calibrated" },
    { "compensated", 0, 0, G_OPTION_ARG_NONE, &self.compensated,
      "Statistics, histogram and worst cases of lengths without the tracing cost "
      "(Espinosa 2003 §2; --event-cost, default calibrated)", NULL },
    { "hist", 0, 0, G_OPTION_ARG_NONE, &self.hist, "Print the histogram and statistics", NULL },
    { "tail", 0, 0, G_OPTION_ARG_NONE, &self.tail,
      "Estimate the lengths exceeded with probability 1e-6 and 1e-9 per measurement "
      "(Gumbel fit to block maxima), for all measurements and each task", NULL },
    { "block", 0, 0, G_OPTION_ARG_INT, &self.block, "With --tail: measurements per block (default 50)",
      "N" },
    { "log", 0, 0, G_OPTION_ARG_NONE, &self.log_bins, "Logarithmic histogram bins", NULL },
    { "bins", 0, 0, G_OPTION_ARG_INT, &self.bins, "Histogram bins (default 32)", "N" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &self.format, "Reader to use instead of probing",
      "NAME" },
    { NULL }
  };

  tw_cli_evaluator_choice_add_entries (&self.choice, context);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;

  n_chosen = tw_cli_evaluator_choice_count (&self.choice);
  /* with --worst-case, --user-metric names the jobs */
  if (self.worst_case && self.choice.user_metric != NULL)
    n_chosen--;
  if (argc != 2 || (n_chosen != 1 && !self.worst_case) || (self.worst_case && n_chosen > 0) ||
      self.bins < 2 || self.bins > 100000 || self.block < 1 || (self.tail && self.worst_case))
    {
      g_printerr ("usage: tracewb-cli eval FILE (--metric NAME | --user-metric START,END[,--no-system]"
                  " | --plugin X.so | --automaton A.json) [--csv OUT|-] [--hist] [--log] [--bins N]"
                  " [--event-cost COST|calibrated] [--compensated] [--tail [--block N]]\n"
                  "       tracewb-cli eval FILE --worst-case [--user-metric START,END] "
                  "[--csv OUT|-] [--rta-csv OUT|-] [--event-cost COST|calibrated] [--compensated]\n");
      return 2;
    }

  if (self.worst_case)
    return run_worst_case (&self, argv[1]);
  return run_choice (&self, argv[1]);
}
