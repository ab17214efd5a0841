/* tw-cli-compare.c: `tracewb-cli compare A B`: one evaluation over two runs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The question after a change to a real-time system: did its latencies get worse?
 * Both traces go through the same evaluator; the lengths are compared all together
 * and per task name (TwRunComparison), with a two-sample test saying whether the
 * difference is more than chance, and --fail-if turns it into a CI gate.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tw-cli.h"
#include "tw-cli-evaluator-choice.h"

/* exit status of a run outside a --fail-if gate, distinct from an error's 1 */
#define EXIT_GATE_FAILED 2

typedef struct {
  TwCliEvaluatorChoice choice;
  char     *format;
  char     *task;
  char    **fail_if;
  char     *jobs;
  char     *event_cost;
  gboolean  compensated;
  gboolean  json;
  gboolean  hist;
  gboolean  log_bins;
  gboolean  worst_case;
  int       bins;
} CliCompare;

static void
cli_compare_clear (CliCompare *self)
{
  tw_cli_evaluator_choice_clear (&self->choice);
  g_clear_pointer (&self->format, g_free);
  g_clear_pointer (&self->task, g_free);
  g_clear_pointer (&self->fail_if, g_strfreev);
  g_clear_pointer (&self->jobs, g_free);
  g_clear_pointer (&self->event_cost, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliCompare, cli_compare_clear)

/* One run: its trace, measurements and, with --worst-case, its Fig. 4 table. */
typedef struct {
  const char         *path;
  TwTrace            *trace;
  TwMeasurementTable *table;
  TwWorstCase        *worst_case;
} CompareRun;

static void
compare_run_clear (CompareRun *run)
{
  g_clear_object (&run->trace);
  g_clear_object (&run->table);
  g_clear_object (&run->worst_case);
}

static gboolean
evaluate_run (CliCompare   *self,
              TwEvaluator  *evaluator,
              const char   *named,
              CompareRun   *run,
              GError      **error)
{
  g_autoptr(TwWorstCaseEvaluator) jobs = NULL;
  g_autoptr(TwMeasurementTable) job_table = NULL;
  g_auto(GStrv) parts = NULL;
  /* only compensated lengths are compared with a cost: the comparison takes the
   * table's compensated lengths, which are the raw ones without one */
  TwCliCompensation compensation = { self->compensated ? self->event_cost : NULL,
                                     self->compensated };

  if (!(run->table = tw_cli_evaluate ("compare", evaluator, named, run->path, self->format,
                                      &compensation, NULL, &run->trace, error)))
    return FALSE;
  if (!self->worst_case)
    return TRUE;
  parts = g_strsplit (self->jobs ? self->jobs : "task_activate,task_end_cycle", ",", 3);
  jobs = tw_worst_case_evaluator_new (parts[0], parts[1]);
  if (tw_measurement_table_get_type_costs (run->table))
    tw_worst_case_evaluator_set_event_costs (jobs, tw_measurement_table_get_type_costs (run->table));
  else
    tw_worst_case_evaluator_set_event_cost (jobs, tw_measurement_table_get_event_cost (run->table));
  if (!(job_table = tw_evaluator_evaluate (TW_EVALUATOR (jobs), run->trace, NULL, NULL, NULL,
                                           NULL, error)) ||
      !(run->worst_case = tw_worst_case_evaluator_new_worst_case (jobs, job_table, error)))
    {
      g_prefix_error (error, "%s: ", run->path);
      return FALSE;
    }
  return TRUE;
}

static void
print_group (TwRunComparison *comparison,
             guint            group)
{
  const char *name = tw_run_comparison_get_group_name (comparison, group);
  TwMannWhitney mw;
  TwKolmogorovSmirnov ks;
  g_autofree char *p_mw = NULL, *p_ks = NULL;

  g_print ("%s\n", name ? name : "all measurements");
  g_print ("  %-6s %14s %14s %14s %9s   (µs)\n", "", "A", "B", "B − A", "B/A − 1");
  for (TwSampleStat s = 0; s < TW_N_SAMPLE_STATS; s++)
    {
      const TwSampleStats *a = tw_run_comparison_get_stats (comparison, group, TW_RUN_A);
      const TwSampleStats *b = tw_run_comparison_get_stats (comparison, group, TW_RUN_B);
      g_autofree char *va = tw_sample_stat_format (s, a->value[s]);
      g_autofree char *vb = tw_sample_stat_format (s, b->value[s]);
      g_autofree char *delta = NULL, *relative = NULL;
      double abs_change, rel_change;

      tw_run_comparison_get_delta (comparison, group, s, &abs_change, &rel_change);
      delta = tw_sample_stat_format_delta (s, abs_change);
      relative = tw_sample_stat_format_relative (rel_change);
      g_print ("  %-6s %14s %14s %14s %9s\n", tw_sample_stat_get_name (s), va, vb, delta, relative);
    }
  tw_run_comparison_get_tests (comparison, group, &mw, &ks);
  p_mw = tw_p_value_format (mw.p_value);
  p_ks = tw_p_value_format (ks.p_value);
  g_print ("  Mann–Whitney U = %.0f, z = %.2f, %s: %s%s\n", mw.u, mw.z, p_mw,
           tw_p_value_describe (mw.p_value),
           mw.p_value < 0.05 ? (mw.z > 0 ? "; A's lengths rank higher" : "; B's lengths rank higher")
                             : "");
  g_print ("  Kolmogorov–Smirnov D = %.4f, %s: %s\n", ks.d, p_ks, tw_p_value_describe (ks.p_value));
}

static void
print_task_table (TwRunComparison *comparison)
{
  guint n = tw_run_comparison_get_n_groups (comparison);

  if (n < 2)
    return;
  g_print ("\nPer task (µs; tasks matched by name)\n");
  g_print ("%-24s %8s %8s %12s %12s %9s %12s %12s %9s %9s\n", "task", "n A", "n B", "p99 A",
           "p99 B", "p99 Δ", "max A", "max B", "max Δ", "p (M–W)");
  for (guint g = 1; g < n; g++)
    {
      const TwSampleStats *a = tw_run_comparison_get_stats (comparison, g, TW_RUN_A);
      const TwSampleStats *b = tw_run_comparison_get_stats (comparison, g, TW_RUN_B);
      g_autofree char *p99a = tw_sample_stat_format (TW_SAMPLE_STAT_P99, a->value[TW_SAMPLE_STAT_P99]);
      g_autofree char *p99b = tw_sample_stat_format (TW_SAMPLE_STAT_P99, b->value[TW_SAMPLE_STAT_P99]);
      g_autofree char *maxa = tw_sample_stat_format (TW_SAMPLE_STAT_MAX, a->value[TW_SAMPLE_STAT_MAX]);
      g_autofree char *maxb = tw_sample_stat_format (TW_SAMPLE_STAT_MAX, b->value[TW_SAMPLE_STAT_MAX]);
      g_autofree char *p99d = NULL, *maxd = NULL;
      double rel;
      TwMannWhitney mw;

      tw_run_comparison_get_delta (comparison, g, TW_SAMPLE_STAT_P99, NULL, &rel);
      p99d = tw_sample_stat_format_relative (rel);
      tw_run_comparison_get_delta (comparison, g, TW_SAMPLE_STAT_MAX, NULL, &rel);
      maxd = tw_sample_stat_format_relative (rel);
      tw_run_comparison_get_tests (comparison, g, &mw, NULL);
      g_print ("%-24s %8.0f %8.0f %12s %12s %9s %12s %12s %9s %9.3g\n",
               tw_run_comparison_get_group_name (comparison, g), a->value[TW_SAMPLE_STAT_N],
               b->value[TW_SAMPLE_STAT_N], p99a, p99b, p99d, maxa, maxb, maxd, mw.p_value);
    }
}

/* Both runs' lengths in the same bins, each as a share of its run: runs of different
 * lengths compare by shape. */
static void
print_histograms (CliCompare      *self,
                  TwRunComparison *comparison,
                  guint            group)
{
  TwHistogramScale scale = self->log_bins ? TW_HISTOGRAM_SCALE_LOG : TW_HISTOGRAM_SCALE_LINEAR;
  g_autoptr(TwHistogram) a = tw_run_comparison_new_histogram (comparison, group, TW_RUN_A,
                                                              self->bins, scale);
  g_autoptr(TwHistogram) b = tw_run_comparison_new_histogram (comparison, group, TW_RUN_B,
                                                              self->bins, scale);
  double count_a = MAX (1, tw_histogram_get_count (a));
  double count_b = MAX (1, tw_histogram_get_count (b));

  g_print ("\nHistogram, share of each run's measurements (µs)\n");
  for (guint i = 0; i < tw_histogram_get_n_bins (a); i++)
    {
      double lower, upper;
      double share_a = tw_histogram_get_bin (a, i, &lower, &upper) / count_a;
      double share_b = tw_histogram_get_bin (b, i, NULL, NULL) / count_b;
      g_autofree char *bar_a = g_strnfill ((gsize) round (share_a * 40), 'a');
      g_autofree char *bar_b = g_strnfill ((gsize) round (share_b * 40), 'b');

      g_print ("  [%12.3f, %12.3f)  A %5.1f %% %-40s  B %5.1f %% %s\n", lower / 1e3,
               upper / 1e3, share_a * 100, bar_a, share_b * 100, bar_b);
    }
}

/* Per task name and Fig. 4 column, the larger cell of the tasks of that name. */
static GHashTable *
worst_case_by_name (TwWorstCase *wc,
                    TwTrace     *trace)
{
  GHashTable *cells = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n_columns = tw_worst_case_get_n_columns (wc);

  for (guint r = 0; r < tw_worst_case_get_n_rows (wc); r++)
    {
      const TwTask *task = tw_trace_get_task (trace, tw_worst_case_get_task (wc, r));
      const char *name = task->name ? task->name : task->source_id;
      double *row = g_hash_table_lookup (cells, name);

      if (row == NULL)
        {
          row = g_new (double, n_columns);
          for (guint c = 0; c < n_columns; c++)
            row[c] = NAN;
          g_hash_table_insert (cells, g_strdup (name), row);
        }
      for (guint c = 0; c < n_columns; c++)
        {
          double v = tw_worst_case_get_value (wc, r, c);

          if (!isnan (v) && (isnan (row[c]) || v > row[c]))
            row[c] = v;
        }
    }
  return cells;
}

static int
compare_names (const void *a,
               const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* @task: (nullable): only the tasks of this name */
static void
print_worst_case_diff (CompareRun *a,
                       CompareRun *b,
                       const char *task)
{
  g_autoptr(GHashTable) cells_a = worst_case_by_name (a->worst_case, a->trace);
  g_autoptr(GHashTable) cells_b = worst_case_by_name (b->worst_case, b->trace);
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **sorted = NULL;
  guint n_columns = tw_worst_case_get_n_columns (a->worst_case);
  GHashTableIter iter;
  gpointer key;
  guint n;

  for (GHashTable *t = cells_a; t; t = t == cells_a ? cells_b : NULL)
    for (g_hash_table_iter_init (&iter, t); g_hash_table_iter_next (&iter, &key, NULL);)
      g_hash_table_add (names, key);
  sorted = (const char **) g_hash_table_get_keys_as_array (names, &n);
  qsort (sorted, n, sizeof *sorted, compare_names);

  g_print ("\nWorst case per task (µs; Espinosa 2003 Fig. 4)\n");
  g_print ("%-24s %-24s %14s %14s %14s\n", "task", "", "A", "B", "B − A");
  for (guint i = 0; i < n; i++)
    {
      const double *ra = g_hash_table_lookup (cells_a, sorted[i]);
      const double *rb = g_hash_table_lookup (cells_b, sorted[i]);
      const char *label = sorted[i];

      if (task && strcmp (task, sorted[i]) != 0)
        continue;
      for (guint c = 0; c < n_columns; c++)
        {
          double va = ra ? ra[c] : NAN, vb = rb ? rb[c] : NAN;
          g_autofree char *ta = tw_sample_stat_format (TW_SAMPLE_STAT_MAX, va);
          g_autofree char *tb = tw_sample_stat_format (TW_SAMPLE_STAT_MAX, vb);
          g_autofree char *delta = tw_sample_stat_format_delta (TW_SAMPLE_STAT_MAX, vb - va);

          if (isnan (va) && isnan (vb))
            continue;
          g_print ("%-24s %-24s %14s %14s %14s\n", label,
                   tw_worst_case_get_column_name (a->worst_case, c), ta, tb, delta);
          label = "";
        }
    }
}

static void
add_number (JsonBuilder *builder,
            const char  *member,
            double       value)
{
  json_builder_set_member_name (builder, member);
  if (isnan (value))
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, value);
}

static void
add_json_group (JsonBuilder     *builder,
                TwRunComparison *comparison,
                guint            group)
{
  const char *name = tw_run_comparison_get_group_name (comparison, group);
  TwMannWhitney mw;
  TwKolmogorovSmirnov ks;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "task");
  if (name)
    json_builder_add_string_value (builder, name);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "stats");
  json_builder_begin_object (builder);
  for (TwSampleStat s = 0; s < TW_N_SAMPLE_STATS; s++)
    {
      double absolute, relative;

      tw_run_comparison_get_delta (comparison, group, s, &absolute, &relative);
      json_builder_set_member_name (builder, tw_sample_stat_get_name (s));
      json_builder_begin_object (builder);
      add_number (builder, "a", tw_run_comparison_get_stats (comparison, group, TW_RUN_A)->value[s]);
      add_number (builder, "b", tw_run_comparison_get_stats (comparison, group, TW_RUN_B)->value[s]);
      add_number (builder, "delta", absolute);
      add_number (builder, "relative", relative);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  tw_run_comparison_get_tests (comparison, group, &mw, &ks);
  json_builder_set_member_name (builder, "mann_whitney");
  json_builder_begin_object (builder);
  add_number (builder, "u", mw.u);
  add_number (builder, "z", mw.z);
  add_number (builder, "p", mw.p_value);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "kolmogorov_smirnov");
  json_builder_begin_object (builder);
  add_number (builder, "d", ks.d);
  add_number (builder, "p", ks.p_value);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
}

static void
print_json (CliCompare      *self,
            TwEvaluator     *evaluator,
            CompareRun      *runs,
            TwRunComparison *comparison,
            guint            first,
            guint            last,
            GPtrArray       *failures)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "evaluation");
  json_builder_add_string_value (builder, tw_evaluator_get_name (evaluator));
  json_builder_set_member_name (builder, "unit");
  json_builder_add_string_value (builder, "ns");
  /* the cost per event subtracted from each run's lengths, 0 for raw lengths */
  json_builder_set_member_name (builder, "event_cost_ns");
  json_builder_begin_object (builder);
  add_number (builder, "a", tw_measurement_table_get_event_cost (runs[TW_RUN_A].table));
  add_number (builder, "b", tw_measurement_table_get_event_cost (runs[TW_RUN_B].table));
  json_builder_end_object (builder);
  /* the costs as given, per type where they are */
  json_builder_set_member_name (builder, "event_costs");
  json_builder_begin_object (builder);
  for (TwRun r = TW_RUN_A; r <= TW_RUN_B; r++)
    {
      g_autofree char *costs = tw_measurement_table_dup_event_cost_text (runs[r].table);

      json_builder_set_member_name (builder, r == TW_RUN_A ? "a" : "b");
      if (costs)
        json_builder_add_string_value (builder, costs);
      else
        json_builder_add_null_value (builder);
    }
  json_builder_end_object (builder);
  for (TwRun r = TW_RUN_A; r <= TW_RUN_B; r++)
    {
      json_builder_set_member_name (builder, r == TW_RUN_A ? "a" : "b");
      json_builder_add_string_value (builder, runs[r].path);
    }
  json_builder_set_member_name (builder, "groups");
  json_builder_begin_array (builder);
  for (guint g = first; g < last; g++)
    add_json_group (builder, comparison, g);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "failed");
  json_builder_begin_array (builder);
  for (guint i = 0; i < failures->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (failures, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

/* Every gate on @group; the failures as sentences naming the statistic. */
static gboolean
check_gates (const TwComparisonGate *gates,
             guint                   n_gates,
             char                  **texts,
             TwRunComparison        *comparison,
             guint                   group,
             GPtrArray              *failures)
{
  for (guint i = 0; i < n_gates; i++)
    {
      char *failure = NULL;

      if (!tw_comparison_gate_check (&gates[i], comparison, group, &failure))
        g_ptr_array_add (failures, g_strdup_printf ("--fail-if %s: %s", texts[i], failure));
      g_free (failure);
    }
  return failures->len == 0;
}

static int
usage (void)
{
  g_printerr ("usage: tracewb-cli compare A B (--metric NAME | --user-metric START,END[,--no-system]"
              " | --plugin X.so | --automaton A.json) [--task NAME] [--fail-if STAT>LIMIT]… "
              "[--json] [--hist] [--log] [--bins N] [--worst-case [--jobs START,END]] "
              "[--compensated [--event-cost COST|calibrated]]\n");
  return 2;
}

int
tw_cli_compare (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("A B — the same evaluation over two runs, compared");
  g_auto(CliCompare) self = { .bins = 20 };
  CompareRun runs[2] = { { 0 } };
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(TwRunComparison) comparison = NULL;
  g_autoptr(GPtrArray) failures = g_ptr_array_new_with_free_func (g_free);
  g_autofree TwComparisonGate *gates = NULL;
  const char *named = NULL;
  guint n_gates, group = 0;
  GError *error = NULL;
  int status = 0;
  const GOptionEntry entries[] = {
    { "task", 't', 0, G_OPTION_ARG_STRING, &self.task,
      "Compare only the measurements of tasks of this name", "NAME" },
    { "fail-if", 0, 0, G_OPTION_ARG_STRING_ARRAY, &self.fail_if,
      "Exit 2 when B differs from A so: p99>+10%, max>+50us, mean<-5% … (repeatable)",
      "STAT>LIMIT" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &self.json, "Print the comparison as JSON", NULL },
    { "hist", 0, 0, G_OPTION_ARG_NONE, &self.hist,
      "Print both histograms in the same bins, as shares of each run", NULL },
    { "log", 0, 0, G_OPTION_ARG_NONE, &self.log_bins, "Logarithmic histogram bins", NULL },
    { "bins", 0, 0, G_OPTION_ARG_INT, &self.bins, "Histogram bins (default 20)", "N" },
    { "worst-case", 'w', 0, G_OPTION_ARG_NONE, &self.worst_case,
      "Also diff the per-task worst cases of Espinosa 2003 Fig. 4", NULL },
    { "jobs", 0, 0, G_OPTION_ARG_STRING, &self.jobs,
      "With --worst-case: the job's events (default task_activate,task_end_cycle)", "START,END" },
    { "compensated", 0, 0, G_OPTION_ARG_NONE, &self.compensated,
      "Compare lengths without the tracing cost of their intermediate events "
      "(Espinosa 2003 §2)", NULL },
    { "event-cost", 0, 0, G_OPTION_ARG_STRING, &self.event_cost,
      "With --compensated: the cost of one event (e.g. 0.8us); default: calibrated, the one "
      "`tracewb-cli calibrate` stored for each trace's source", "COST|calibrated" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &self.format, "Reader to use instead of probing",
      "NAME" },
    { NULL }
  };

  tw_cli_evaluator_choice_add_entries (&self.choice, context);
  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 3 || tw_cli_evaluator_choice_count (&self.choice) != 1 ||
      self.bins < 2 || self.bins > 1000)
    return usage ();

  n_gates = self.fail_if ? g_strv_length (self.fail_if) : 0;
  gates = g_new0 (TwComparisonGate, MAX (n_gates, 1));
  for (guint i = 0; i < n_gates; i++)
    if (!tw_comparison_gate_parse (self.fail_if[i], &gates[i], &error))
      {
        tw_cli_fail ("compare", error);
        return 2;
      }
  if ((self.jobs && (!self.worst_case || strchr (self.jobs, ',') == NULL)) ||
      (self.event_cost && !self.compensated))
    return usage ();

  if (!(evaluator = tw_cli_evaluator_choice_create (&self.choice, &named, &error)))
    return tw_cli_fail ("compare", error);
  runs[TW_RUN_A].path = argv[1];
  runs[TW_RUN_B].path = argv[2];
  for (TwRun r = TW_RUN_A; r <= TW_RUN_B && status == 0; r++)
    if (!evaluate_run (&self, evaluator, named, &runs[r], &error))
      status = tw_cli_fail ("compare", error);
  if (status != 0)
    goto out;

  comparison = tw_run_comparison_new (runs[TW_RUN_A].table, runs[TW_RUN_A].trace,
                                      runs[TW_RUN_B].table, runs[TW_RUN_B].trace);
  if (self.task && !tw_run_comparison_find_group (comparison, self.task, &group))
    {
      g_printerr ("tracewb-cli compare: no task named “%s” has a measurement in %s or %s\n",
                  self.task, runs[TW_RUN_A].path, runs[TW_RUN_B].path);
      status = 1;
      goto out;
    }
  if (!check_gates (gates, n_gates, self.fail_if, comparison, group, failures))
    status = EXIT_GATE_FAILED;

  if (self.json)
    print_json (&self, evaluator, runs, comparison, group,
                self.task ? group + 1 : tw_run_comparison_get_n_groups (comparison), failures);
  else
    {
      g_print ("%s: A = %s, B = %s\n", tw_evaluator_get_name (evaluator), runs[TW_RUN_A].path,
               runs[TW_RUN_B].path);
      if (self.compensated)
        {
          g_autofree char *a = tw_measurement_table_dup_event_cost_text (runs[TW_RUN_A].table);
          g_autofree char *b = tw_measurement_table_dup_event_cost_text (runs[TW_RUN_B].table);

          g_print ("compensated lengths: the tracing cost of each intermediate event subtracted "
                   "(A: %s; B: %s)\n", a ? a : "none", b ? b : "none");
        }
      g_print ("\n");
      print_group (comparison, group);
      if (self.hist)
        print_histograms (&self, comparison, group);
      if (!self.task)
        print_task_table (comparison);
      if (self.worst_case)
        print_worst_case_diff (&runs[TW_RUN_A], &runs[TW_RUN_B], self.task);
    }
  for (guint i = 0; i < failures->len; i++)
    g_printerr ("tracewb-cli compare: %s\n", (char *) g_ptr_array_index (failures, i));

out:
  compare_run_clear (&runs[TW_RUN_A]);
  compare_run_clear (&runs[TW_RUN_B]);
  return status;
}
