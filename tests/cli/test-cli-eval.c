/* test-cli-eval.c: `tracewb-cli eval` and `tracewb-cli metrics`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

static void
test_metrics_list (void)
{
  const char *const args[] = { "metrics", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  int status;
  guint n;
  const TwMetricInfo *infos = tw_metrics_get_system_metrics (&n);

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, n + 1);  /* the last one is empty */
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (g_str_has_prefix (lines[i], infos[i].name));
      g_assert_true (g_str_has_suffix (lines[i], infos[i].description));
    }
}

static void
test_metrics_required (void)
{
  const char *const args[] = { "metrics", "--required", "irq-duration", NULL };
  const char *const bad[] = { "metrics", "--required", "nope", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "kind:irq_entry\nkind:irq_exit\n");

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (bad, &out, &err, &status);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "no system metric named “nope”"));
}

static void
test_eval_errors (void)
{
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "no-such-trace.txt", NULL);
  g_autofree char *junk = tw_test_write_temp_file ("junk-trace.bin", "\x01\x02garbage", -1);
  struct {
    const char *args[8];
    int status;
    const char *message;
  } cases[] = {
    { { "eval", junk, NULL }, 2, "usage:" },
    { { "eval", junk, "--metric", "irq-duration", "--plugin", "x.so", NULL }, 2, "usage:" },
    { { "eval", "--metric", "irq-duration", NULL }, 2, "usage:" },
    { { "eval", junk, "--metric", "no-such-metric", NULL }, 1, "no system metric named" },
    { { "eval", junk, "--metric", "inter-arrival", NULL }, 1, "inter-arrival:EVENT" },
    { { "eval", junk, "--user-metric", "start", NULL }, 1, "START,END" },
    { { "eval", junk, "--plugin", "/nonexistent/x.so", NULL }, 1, "cannot load evaluation module" },
    { { "eval", missing, "--metric", "irq-duration", NULL }, 1, "no-such-trace.txt" },
    { { "eval", junk, "--metric", "irq-duration", NULL }, 1, "junk-trace.bin" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status;

      tw_test_run_cli_or_fail (cases[i].args, &out, &err, &status);
      g_test_message ("case %u: %s", i, err);
      g_assert_cmpint (status, ==, cases[i].status);
      g_assert_nonnull (strstr (err, cases[i].message));
      g_assert_cmpstr (out, ==, "");
    }
}

/* On the real ftrace report (when its reader is there): the CLI writes exactly what
 * the library computes, which test-metrics checks against the report itself. */
static void
test_eval_ftrace (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(TwReader) reader = tw_reader_registry_find ("ftrace-text");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMetric) metric = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwHistogram) hist = tw_histogram_new_auto (32, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *stats = NULL;
  int status;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }
  if (reader == NULL)
    {
      g_test_skip ("no reader named “ftrace-text” is registered (not merged yet)");
      return;
    }

  trace = tw_reader_registry_load_file (path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  metric = tw_metric_new_system ("irq-duration", NULL);
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, hist, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  expected = tw_measurement_table_to_csv (table, trace);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), >, 100);

  {
    const char *const args[] = { "eval", path, "--metric", "irq-duration", "--csv", "-", NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
    g_assert_true (g_str_has_prefix (out, "task,begin_ns,end_ns,length_ns,intermediate_events"));
    g_assert_cmpstr (out, ==, expected);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *const args[] = { "eval", path, "--metric", "irq-duration", "--hist", NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
    stats = g_strdup_printf ("count %" G_GSIZE_FORMAT " ", tw_measurement_table_get_n_rows (table));
    g_assert_nonnull (strstr (out, stats));
    g_assert_nonnull (strstr (out, "p99.9"));
    g_assert_nonnull (strstr (out, "|#"));
  }
}

/* The sample plugin through the CLI on the real report: the same rows as the built-in
 * irq-duration metric (its CSV has the irq column only). */
static void
test_eval_plugin_ftrace (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autofree char *module = g_test_build_filename (G_TEST_BUILT, "sample-module.so", NULL);
  g_autoptr(TwReader) reader = tw_reader_registry_find ("ftrace-text");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMetric) metric = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) expected = g_string_new ("task,begin_ns,end_ns,length_ns,intermediate_events,lost,irq\n");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (path == NULL || reader == NULL)
    {
      g_test_skip ("needs shared/traces/ftrace/recorded/sched_irq_5s.report.txt and the "
                   "“ftrace-text” reader (not merged yet)");
      return;
    }
  trace = tw_reader_registry_load_file (path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  metric = tw_metric_new_system ("irq-duration", NULL);
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);
      g_autofree char *label = tw_measurement_table_dup_task_label (trace, m->task);

      g_string_append_printf (expected, "%s,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
                              G_GUINT64_FORMAT ",%u,0,%.0f\n", label, m->begin, m->end, m->length,
                              m->intermediate_events, tw_measurement_table_get_value (table, r, 0));
    }

  {
    const char *const args[] = { "eval", path, "--plugin", module, "--csv", "-", NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (out, ==, expected->str);
  }
}

/* Fig. 4 and eq. (1) of a real S.Ha.R.K. run (when its reader is there): the CLI's CSVs
 * are the library's tables. */
static void
test_worst_case_shark (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("shark/shark-newtracer-test.dump");
  g_autoptr(TwReader) reader = tw_reader_registry_find ("shark");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *expected_rta = NULL;
  g_autofree char *rta_path = g_build_filename (g_get_tmp_dir (), "rta.csv", NULL);
  g_autofree char *rta = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/shark/shark-newtracer-test.dump is not there");
      return;
    }
  if (reader == NULL)
    {
      g_test_skip ("no reader named “shark” is registered (not merged yet)");
      return;
    }

  trace = tw_reader_registry_load_file (path, "shark", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  wc = tw_worst_case_evaluate (trace, "task_activate", "task_end_cycle", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_worst_case_get_n_rows (wc), >, 0);
  expected = tw_worst_case_to_csv (wc, trace);
  expected_rta = tw_worst_case_analysis_to_csv (wc, trace);

  {
    const char *const args[] = { "eval", path, "--worst-case", "--csv", "-", "--rta-csv",
                                 rta_path, NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpstr (out, ==, expected);
    g_assert_true (g_file_get_contents (rta_path, &rta, NULL, NULL));
    g_assert_cmpstr (rta, ==, expected_rta);
  }
}

/* Against the simulator's ground truth: jobs (task_activate → task_end_cycle) per task
 * exactly, and their running + irq time within 0.1 % of the CPU time it gave each
 * task (the rest is the system work after task_end_cycle, outside any job). */
static void
test_user_metric_simulated (void)
{
  g_autofree char *dump = g_build_filename (g_get_tmp_dir (), "sim.shark", NULL);
  g_autofree char *truth = g_build_filename (g_get_tmp_dir (), "sim.json", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GHashTable) jobs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) busy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  JsonArray *per_task;
  int status;
  guint checked = 0;

  {
    const char *const args[] = { "simulate", "-o", dump, "--events", "12000", "--seed", "5",
                                 "--tasks", "4", "--utilization", "0.75", "--overrun", "0.03",
                                 "--truth", truth, NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    if (status != 0 && strstr (err, "unknown command") != NULL)
      {
        g_test_skip ("tracewb-cli has no simulate command");
        return;
      }
    g_assert_cmpint (status, ==, 0);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  {
    const char *const args[] = { "eval", dump, "--user-metric",
                                 "task_activate,task_end_cycle,--no-system", "--csv", "-", NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
    g_assert_cmpint (status, ==, 0);
  }

  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "task,begin_ns,end_ns,length_ns,intermediate_events,"
                                 "lost,running_ns,irq_ns,preempted_ns");
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
      guint64 *sum;

      g_assert_cmpuint (g_strv_length (cells), ==, 9);
      g_hash_table_insert (jobs, g_strdup (cells[0]),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (jobs, cells[0])) + 1));
      if ((sum = g_hash_table_lookup (busy, cells[0])) == NULL)
        {
          sum = g_new0 (guint64, 1);
          g_hash_table_insert (busy, g_strdup (cells[0]), sum);
        }
      *sum += g_ascii_strtoull (cells[6], NULL, 10) + g_ascii_strtoull (cells[7], NULL, 10);
    }

  g_assert_true (json_parser_load_from_file (parser, truth, &error));
  g_assert_no_error (error);
  per_task = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                           "per_task");
  for (guint i = 0; i < json_array_get_length (per_task); i++)
    {
      JsonObject *t = json_array_get_object_element (per_task, i);
      g_autofree char *ctx = g_strdup_printf ("%" G_GINT64_FORMAT, json_object_get_int_member (t, "ctx"));
      gint64 completed = json_object_get_int_member (t, "jobs_completed");
      double cpu = json_object_get_int_member (t, "cpu_time_ns");
      guint64 *sum = g_hash_table_lookup (busy, ctx);

      if (completed == 0)
        continue;
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (jobs, ctx)), ==, completed);
      g_assert_nonnull (sum);
      g_assert_cmpfloat (*sum, <=, cpu);
      g_assert_cmpfloat (*sum, >=, cpu * 0.999);
      checked++;
    }
  g_assert_cmpuint (checked, ==, 4);
}

/* Interrupts and ticks of one task, for the commands that name events. */
static const char NAMED_CSV[] =
  "time_ns,cpu,task,event,task_name,next,prev_state,irq\n"
  "1000,0,10,switch,idle,11,R,\n"
  "2000,0,11,irq_entry,,,,19\n"
  "2300,0,11,irq_exit,,,,19\n"
  "3000,0,11,tick,worker,,,\n"
  "4000,0,11,tick,,,,\n"
  "5000,0,11,switch,,10,S,\n";

/* An irq-duration automaton whose entry label has a typo. */
static const char TYPO_AUTOMATON[] =
  "{ \"tracewb_automaton\": 1, \"name\": \"typo\", \"initial\": \"idle\",\n"
  "  \"states\": [ { \"id\": \"idle\", \"kind\": \"out\" }, { \"id\": \"begin\", \"kind\": \"begin\" },\n"
  "              { \"id\": \"end\", \"kind\": \"end\" } ],\n"
  "  \"transitions\": [\n"
  "    { \"from\": \"idle\", \"to\": \"begin\", \"event\": \"irq_entri\", \"task\": \"same\" },\n"
  "    { \"from\": \"begin\", \"to\": \"end\", \"event\": \"irq_exit\", \"task\": \"same\" },\n"
  "    { \"from\": \"end\", \"to\": \"idle\", \"label\": \"lambda\" } ] }\n";

/* A metric naming an event the trace lacks fails and names the closest ones, wherever
 * the name was typed; an automaton's label only warns (it may be meant for another
 * tracer's traces). */
static void
test_unknown_events (void)
{
  g_autofree char *csv = tw_test_write_temp_file ("named.csv", NAMED_CSV, -1);
  g_autofree char *automaton = tw_test_write_temp_file ("typo.json", TYPO_AUTOMATON, -1);
  struct {
    const char *args[8];
    int status;
    const char *message;
  } cases[] = {
    { { "eval", csv, "--user-metric", "irq_entry,irq_exti", NULL }, 1,
      "named.csv: no event “irq_exti” in this trace (did you mean irq_exit" },
    { { "eval", csv, "--user-metric", "Tick,irq_exit,--no-system", NULL }, 1,
      "no event “Tick” in this trace (did you mean tick" },
    { { "eval", csv, "--metric", "inter-arrival:tik", NULL }, 1,
      "no event “tik” in this trace (did you mean tick" },
    { { "eval", csv, "--metric", "response-time:tick,kind:irq_exti", NULL }, 1,
      "no event “kind:irq_exti” in this trace (did you mean kind:irq_exit" },
    { { "eval", csv, "--worst-case", "--user-metric", "tick,tock", NULL }, 1,
      "no event “tock” in this trace (did you mean tick" },
    { { "metrics", "--required", "jitter:tik", csv, NULL }, 1,
      "no event “tik” in this trace (did you mean tick" },
    { { "events", "--type", "irq_entri", csv, NULL }, 1,
      "no event “irq_entri” in this trace (did you mean irq_entry" },
    { { "eval", csv, "--automaton", automaton, NULL }, 0,
      "typo.json: no event “irq_entri” in this trace (did you mean irq_entry" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status;

      tw_test_run_cli_or_fail (cases[i].args, &out, &err, &status);
      g_test_message ("case %u: %s", i, err);
      g_assert_cmpint (status, ==, cases[i].status);
      g_assert_nonnull (strstr (err, cases[i].message));
      if (status == 0)
        g_assert_nonnull (strstr (err, "warning: "));
      else
        {
          g_assert_nonnull (strstr (err, csv));
          g_assert_cmpstr (out, ==, "");
        }
    }
}

/* --tail: the figures are those of a fit to the task's own lengths in measured order
 * (from --csv), and the all-measurements line is there. */
static void
test_eval_tail (void)
{
  g_autofree char *dump = g_build_filename (g_get_tmp_dir (), "tail.shark", NULL);
  const char *const simulate[] = { "simulate", "-o", dump, "--events", "80000", "--seed", "3", NULL };
  const char *const tail[] = { "eval", dump, "--metric", "response-time", "--tail", "--block", "20", NULL };
  const char *const csv[] = { "eval", dump, "--metric", "response-time", "--csv", "-", NULL };
  const char *const clash[] = { "eval", dump, "--worst-case", "--tail", NULL };
  g_autofree char *out = NULL, *err = NULL, *rows = NULL, *expected = NULL;
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(GStrv) lines = NULL;
  const char *task_line;
  TwTailFit fit;
  int status;

  tw_test_run_cli_or_fail (simulate, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (tail, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "Tail estimate: Gumbel fit to the maxima of blocks of 20"));
  g_assert_nonnull (strstr (out, "\nall measurements "));

  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (csv, &rows, &err, &status);
  lines = g_strsplit (rows, "\n", -1);
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    if (g_str_has_prefix (lines[i], "288,"))
      {
        g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
        double length = g_ascii_strtod (cells[3], NULL);

        g_array_append_val (lengths, length);
      }
  g_assert_true (tw_tail_fit_compute ((double *) lengths->data, lengths->len, 20, &fit, NULL));
  expected = g_strdup_printf ("%12.3f %12.3f", tw_tail_fit_exceeded_with (&fit, 1e-6) / 1e3,
                              tw_tail_fit_exceeded_with (&fit, 1e-9) / 1e3);
  task_line = strstr (out, "\n288 (pid 4)");
  g_assert_nonnull (task_line);
  g_assert_nonnull (strstr (task_line, expected));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (clash, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  g_unlink (dump);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/cli/metrics/list", test_metrics_list);
  g_test_add_func ("/tw/cli/metrics/required", test_metrics_required);
  g_test_add_func ("/tw/cli/eval/errors", test_eval_errors);
  g_test_add_func ("/tw/cli/eval/unknown-events", test_unknown_events);
  g_test_add_func ("/tw/cli/eval/ftrace", test_eval_ftrace);
  g_test_add_func ("/tw/cli/eval/plugin-ftrace", test_eval_plugin_ftrace);
  g_test_add_func ("/tw/cli/eval/worst-case-shark", test_worst_case_shark);
  g_test_add_func ("/tw/cli/eval/user-metric-simulated", test_user_metric_simulated);
  g_test_add_func ("/tw/cli/eval/tail", test_eval_tail);

  return g_test_run ();
}
