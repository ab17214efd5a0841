/* test-evaluator.c: TwEvaluator, its implementations, TwEvaluatorRun and the factory list
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The automaton interpreter as an update must measure exactly what the interpreter
 * measures fed directly, by whichever path the evaluation feeds it (whole chunks,
 * uneven steps, prepare/commit per event under a check function); a live trace that
 * makes the automaton ambiguous stops the run with the interpreter's error; the worst
 * case read back from its per-task table gives the tables the metrics give; a run in a
 * thread gives the synchronous result and can be cancelled.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

#define WAIT_MS 60000

static TwTrace *
schedule_trace (guint64 n_events)
{
  TwTrace *trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 4, 40, 7);

  tw_test_schedule_append (schedule, n_events);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static TwAutomaton *
load_shipped (const char *name)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata", name, NULL);
  g_autoptr(GError) error = NULL;
  TwAutomaton *automaton = tw_automaton_load (path, &error);

  g_assert_no_error (error);
  return automaton;
}

static void
assert_table_is_interp (TwMeasurementTable *table,
                        TwAutomatonInterp  *interp)
{
  gsize n = tw_automaton_interp_get_n_measurements (interp);

  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, n);
  for (gsize i = 0; i < n; i++)
    {
      const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (interp, i);
      const TwMeasurementRow *row = tw_measurement_table_get_row (table, i);

      g_assert_cmpuint (row->task, ==, m->task);
      g_assert_cmpuint (row->begin, ==, m->begin_ns);
      g_assert_cmpuint (row->end, ==, m->end_ns);
      g_assert_cmpuint (row->length, ==, m->length_ns);
      g_assert_cmpuint (row->intermediate_events, ==, MIN (m->intermediate_events, G_MAXUINT32));
    }
}

static gboolean
always_intact (guint64  index,
               gpointer data)
{
  return TRUE;
}

/* The three ways an evaluation feeds an update, against the interpreter run alone. */
static void
test_automaton_paths (void)
{
  const char *const names[] = { "irq-duration.json", "wakeup-latency.json" };
  g_autoptr(TwTrace) trace = schedule_trace (600000);

  for (guint a = 0; a < G_N_ELEMENTS (names); a++)
    {
      g_autoptr(TwAutomaton) automaton = load_shipped (names[a]);
      g_autoptr(TwAutomatonEvaluator) evaluator = tw_automaton_evaluator_new (automaton, NULL);
      g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (automaton, trace, NULL);
      g_autoptr(TwHistogram) histogram = tw_histogram_new_auto (32, TW_HISTOGRAM_SCALE_LINEAR);
      g_autoptr(TwMeasurementTable) whole = NULL;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s: %" G_GUINT64_FORMAT " events", names[a], tw_trace_get_n_events (trace));
      g_assert_true (tw_automaton_interp_run (interp, &error));
      g_assert_cmpuint (tw_automaton_interp_get_n_measurements (interp), >, 100);

      /* batches over whole chunks */
      whole = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), trace, histogram, NULL, NULL, NULL,
                                     &error);
      g_assert_no_error (error);
      assert_table_is_interp (whole, interp);
      g_assert_cmpuint (tw_histogram_get_count (histogram), ==, tw_measurement_table_get_n_rows (whole));
      g_assert_cmpstr (tw_measurement_table_get_name (whole), ==,
                       tw_automaton_get_name (automaton));

      /* per event, through prepare, a check and commit; and in uneven steps */
      for (guint way = 0; way < 2; way++)
        {
          g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
          g_autoptr(TwMeasurementTable) table = tw_evaluator_new_table (TW_EVALUATOR (evaluator));
          g_autoptr(TwUpdate) update = tw_evaluator_create_update (TW_EVALUATOR (evaluator), table, NULL);
          guint64 n = tw_trace_get_n_events (trace);

          if (way == 0)
            tw_evaluation_set_check_func (evaluation, always_intact, NULL);
          g_assert_true (tw_evaluation_add_update (evaluation, update, &error));
          for (guint64 end = 0; end < n; end += 1 + (end * 7919) % 100003)
            g_assert_true (tw_evaluation_run_to (evaluation, end, NULL, NULL, NULL, &error));
          g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
          tw_evaluation_finish (evaluation);
          assert_table_is_interp (table, interp);
        }
    }
}

/* The two labels only collide once a live trace registers sched_switch. */
static const char ALIAS_AUTOMATON[] =
  "{ \"tracewb_automaton\": 1, \"name\": \"alias\", \"initial\": \"o\",\n"
  "  \"states\": [ { \"id\": \"o\", \"kind\": \"out\" }, { \"id\": \"x\", \"kind\": \"out\" },\n"
  "              { \"id\": \"y\", \"kind\": \"out\" } ],\n"
  "  \"transitions\": [\n"
  "    { \"from\": \"o\", \"to\": \"x\", \"event\": \"switch\" },\n"
  "    { \"from\": \"o\", \"to\": \"y\", \"event\": \"sched_switch\" },\n"
  "    { \"from\": \"x\", \"to\": \"o\", \"label\": \"any\" },\n"
  "    { \"from\": \"y\", \"to\": \"o\", \"label\": \"any\" } ] }\n";

static void
test_automaton_live_ambiguous (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = tw_automaton_load_from_data (ALIAS_AUTOMATON, -1, "alias", &error);
  g_autoptr(TwAutomatonEvaluator) evaluator = NULL;
  g_autoptr(TwTrace) live = tw_trace_new ();
  g_autoptr(TwEvaluatorRun) run = NULL;
  guint16 tick, sched_switch;

  g_assert_no_error (error);
  evaluator = tw_automaton_evaluator_new (automaton, &error);
  g_assert_no_error (error);
  tw_test_ensure_tasks (live, 2);
  tick = tw_test_add_simple_type (live, "tick", TW_EVENT_KIND_OTHER);
  tw_trace_append (live, 0, 0, tick, 0, 0, NULL);

  run = tw_evaluator_run_new (TW_EVALUATOR (evaluator), live, 16, TW_HISTOGRAM_SCALE_LINEAR);
  g_assert_true (tw_evaluator_run_start_live (run, &error));
  g_assert_no_error (error);
  g_assert_true (tw_evaluator_run_is_running (run));
  g_assert_null (tw_evaluator_run_get_error_message (run));

  sched_switch = tw_test_add_simple_type (live, "sched_switch", TW_EVENT_KIND_SWITCH);
  tw_trace_append (live, 10, 0, sched_switch, 0, 1, NULL);
  tw_trace_append (live, 20, 0, tick, 1, 0, NULL);
  tw_evaluator_run_advance (run);
  g_assert_false (tw_evaluator_run_is_running (run));
  g_assert_nonnull (tw_evaluator_run_get_error_message (run));
  g_assert_nonnull (strstr (tw_evaluator_run_get_error_message (run), "State “o”"));
  g_assert_nonnull (strstr (tw_evaluator_run_get_error_message (run), "equal specificity"));

  /* the same through an evaluation: every later run says so too */
  {
    g_autoptr(TwTrace) early = tw_trace_new ();
    g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (early);
    g_autoptr(TwUpdate) update = NULL;
    guint16 early_tick;

    tw_test_ensure_tasks (early, 2);
    early_tick = tw_test_add_simple_type (early, "tick", TW_EVENT_KIND_OTHER);
    tw_trace_append (early, 0, 0, early_tick, 0, 0, NULL);
    update = tw_evaluator_create_update (TW_EVALUATOR (evaluator), NULL, NULL);
    g_assert_true (tw_evaluation_add_update (evaluation, update, &error));
    g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
    tw_test_add_simple_type (early, "sched_switch", TW_EVENT_KIND_SWITCH);
    tw_trace_append (early, 10, 0, early_tick, 1, 0, NULL);
    for (guint attempt = 0; attempt < 2; attempt++)
      {
        g_assert_false (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
        g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND);
        g_clear_error (&error);
      }
  }
}

/* Labels say what the automaton requires, a kind name as both spellings; a label the
 * trace lacks is a warning. */
static void
test_automaton_required_events (void)
{
  g_autoptr(TwAutomaton) automaton = load_shipped ("irq-duration.json");
  g_autoptr(TwAutomatonEvaluator) evaluator = tw_automaton_evaluator_new (automaton, NULL);
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 irq_handler_entry/irq_entry 0; "
                                                        "5 irq_handler_exit/irq_exit 0; 7 tick 0");
  g_auto(GStrv) selectors = tw_evaluator_dup_required_events (TW_EVALUATOR (evaluator), NULL);
  g_auto(GStrv) types = tw_evaluator_dup_required_events (TW_EVALUATOR (evaluator), trace);
  g_autofree char *selectors_text = g_strjoinv (" ", selectors);
  g_autofree char *types_text = g_strjoinv (" ", types);
  g_autofree char *warning = tw_evaluator_dup_warning (TW_EVALUATOR (evaluator), trace);
  g_autoptr(TwTrace) other = tw_test_trace_from_script ("0 tick 0");
  g_autofree char *other_warning = tw_evaluator_dup_warning (TW_EVALUATOR (evaluator), other);

  g_assert_cmpstr (selectors_text, ==, "irq_entry kind:irq_entry irq_exit kind:irq_exit *");
  g_assert_cmpstr (types_text, ==, "irq_handler_entry irq_handler_exit tick");
  g_assert_null (warning);
  g_assert_nonnull (other_warning);
  g_assert_nonnull (strstr (other_warning, "no event “irq_entry” in this trace"));
  g_assert_true (tw_evaluator_check (TW_EVALUATOR (evaluator), other, NULL));
  g_assert_cmpstr (tw_evaluator_get_name (TW_EVALUATOR (evaluator)), ==, "Interrupt duration");
}

/* The worst case read back from its run's per-task table is the one the four metrics'
 * tables make (Espinosa et al. 2003 Fig. 4), period included (the analysis uses it). */
static void
test_worst_case_table (void)
{
  g_autoptr(TwTrace) trace = schedule_trace (400000);
  g_autoptr(TwWorstCase) direct = tw_worst_case_new ();
  g_autoptr(TwWorstCase) evaluated = NULL;
  g_autoptr(GError) error = NULL;
  const char *names[] = { "job", "irq-duration", "softirq-duration", "wakeup-handler" };
  TwMeasurementTable *tables[G_N_ELEMENTS (names)];
  g_autofree char *direct_csv = NULL, *evaluated_csv = NULL;
  g_autofree char *direct_rta = NULL, *evaluated_rta = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(TwMetric) metric = i == 0 ? tw_metric_new_user ("job", "kind:wakeup", "kind:switch", FALSE)
                                          : tw_metric_new_system (names[i], NULL);

      tables[i] = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
    }
  tw_worst_case_add_column (direct, "execution", tables[0], -1, TW_WORST_CASE_ROLE_EXECUTION);
  tw_worst_case_add_column (direct, "job_system_time", tables[0],
                            tw_measurement_table_lookup_column (tables[0], "irq_ns"),
                            TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME);
  tw_worst_case_add_column (direct, "system_blocking_irq", tables[1], -1, TW_WORST_CASE_ROLE_SYSTEM_BLOCKING);
  tw_worst_case_add_column (direct, "system_blocking_softirq", tables[2], -1, TW_WORST_CASE_ROLE_SYSTEM_BLOCKING);
  tw_worst_case_add_column (direct, "delay_until_wakeup", tables[3], -1, TW_WORST_CASE_ROLE_WAKEUP);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_object_unref (tables[i]);

  evaluated = tw_worst_case_evaluate (trace, "kind:wakeup", "kind:switch", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_worst_case_get_n_rows (evaluated), >, 10);
  direct_csv = tw_worst_case_to_csv (direct, trace);
  evaluated_csv = tw_worst_case_to_csv (evaluated, trace);
  g_assert_cmpstr (evaluated_csv, ==, direct_csv);
  direct_rta = tw_worst_case_analysis_to_csv (direct, trace);
  evaluated_rta = tw_worst_case_analysis_to_csv (evaluated, trace);
  g_assert_cmpstr (evaluated_rta, ==, direct_rta);
  for (guint r = 0; r < tw_worst_case_get_n_rows (direct); r++)
    g_assert_cmpfloat (tw_worst_case_get_period (evaluated, r), ==, tw_worst_case_get_period (direct, r));
}

static gboolean
run_stopped (gpointer data)
{
  return !tw_evaluator_run_is_running (data);
}

typedef struct {
  GThread *thread;      /* where the run was started */
  guint    updates;
  guint    elsewhere;   /* ::updated emitted on another thread */
} Updates;

static void
count_cb (Updates *u)
{
  u->updates++;
  u->elsewhere += g_thread_self () != u->thread;
}

/* In a thread: the synchronous result, the histogram fed while it runs; cancelled:
 * a message and no table. */
static void
test_run_thread (void)
{
  g_autoptr(TwTrace) trace = schedule_trace (3000000);
  g_autoptr(TwMetric) metric = tw_metric_new_system ("irq-duration", NULL);
  g_autoptr(TwMeasurementTable) expected = NULL;
  g_autoptr(TwEvaluatorRun) run = tw_evaluator_run_new (TW_EVALUATOR (metric), trace, 20,
                                                         TW_HISTOGRAM_SCALE_LOG);
  g_autoptr(TwEvaluatorRun) cancelled = tw_evaluator_run_new (TW_EVALUATOR (metric), trace, 20,
                                                               TW_HISTOGRAM_SCALE_LINEAR);
  g_autofree char *expected_csv = NULL;
  g_autofree char *csv = NULL;
  Updates updates = { g_thread_self (), 0, 0 };

  expected = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, NULL);
  g_signal_connect_swapped (run, "updated", G_CALLBACK (count_cb), &updates);
  tw_evaluator_run_start (run);
  g_assert_true (tw_evaluator_run_is_running (run));
  g_assert_null (tw_evaluator_run_get_table (run));
  /* nobody iterates the main context meanwhile: the batches must wait for it, not run
   * in the worker thread */
  g_usleep (300 * 1000);
  g_assert_cmpuint (updates.updates, ==, 0);
  g_assert_true (tw_test_wait_until (run_stopped, run, WAIT_MS));

  g_assert_null (tw_evaluator_run_get_error_message (run));
  g_assert_cmpfloat (tw_evaluator_run_get_progress (run), ==, 1.0);
  g_assert_cmpuint (updates.updates, >, 0);
  g_assert_cmpuint (updates.elsewhere, ==, 0);
  expected_csv = tw_measurement_table_to_csv (expected, trace);
  csv = tw_measurement_table_to_csv (tw_evaluator_run_get_table (run), trace);
  g_assert_cmpstr (csv, ==, expected_csv);
  g_assert_cmpuint (tw_histogram_get_count (tw_evaluator_run_get_histogram (run)), ==,
                    tw_measurement_table_get_n_rows (expected));
  g_assert_cmpint (tw_histogram_get_scale (tw_evaluator_run_get_histogram (run)), ==,
                   TW_HISTOGRAM_SCALE_LOG);

  tw_evaluator_run_start (cancelled);
  tw_evaluator_run_cancel (cancelled);
  g_assert_true (tw_test_wait_until (run_stopped, cancelled, WAIT_MS));
  g_assert_nonnull (tw_evaluator_run_get_error_message (cancelled));
  g_assert_null (tw_evaluator_run_get_table (cancelled));
}

static TwEvaluator *
new_run_slice (const char  *parameter,
               gpointer     user_data,
               GError     **error)
{
  g_assert_cmpstr (user_data, ==, "data");
  if (parameter != NULL)
    {
      g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID, "takes no %s", parameter);
      return NULL;
    }
  return TW_EVALUATOR (tw_metric_new_system ("run-slice", NULL));
}

/* The system metrics come first, in their order; a registered factory is found by name
 * and gets what follows the colon. */
static void
test_factories (void)
{
  GListModel *list = tw_evaluator_factory_list_registered ();
  guint n_metrics = 0;
  const TwMetricInfo *metrics = tw_metrics_get_system_metrics (&n_metrics);
  g_autoptr(TwEvaluatorFactory) factory = tw_evaluator_factory_new ("slices", NULL, "run slices again",
                                                                     new_run_slice, (gpointer) "data", NULL);
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpuint (g_list_model_get_n_items (list), ==, n_metrics);
  for (guint i = 0; i < n_metrics; i++)
    {
      g_autoptr(TwEvaluatorFactory) item = g_list_model_get_item (list, i);

      g_assert_cmpstr (tw_evaluator_factory_get_name (item), ==, metrics[i].name);
      g_assert_cmpstr (tw_evaluator_factory_get_parameter (item), ==, metrics[i].parameter);
    }
  evaluator = tw_evaluator_factory_create_for_spec ("inter-arrival:tick", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_evaluator_get_name (evaluator), ==, "inter-arrival:tick");
  g_clear_object (&evaluator);
  g_assert_null (tw_evaluator_factory_create_for_spec ("slices", &error));
  g_assert_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN);
  g_clear_error (&error);

  tw_evaluator_factory_register (factory);
  g_assert_cmpuint (g_list_model_get_n_items (list), ==, n_metrics + 1);
  g_assert_true (tw_evaluator_factory_lookup ("slices") == factory);
  evaluator = tw_evaluator_factory_create_for_spec ("slices", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_evaluator_get_name (evaluator), ==, "run-slice");
  g_assert_null (tw_evaluator_factory_create_for_spec ("slices:x", &error));
  g_assert_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/evaluator/automaton-paths", test_automaton_paths);
  g_test_add_func ("/tw/evaluators/evaluator/automaton-live-ambiguous", test_automaton_live_ambiguous);
  g_test_add_func ("/tw/evaluators/evaluator/automaton-required-events", test_automaton_required_events);
  g_test_add_func ("/tw/evaluators/evaluator/worst-case-table", test_worst_case_table);
  g_test_add_func ("/tw/evaluators/evaluator/run-thread", test_run_thread);
  g_test_add_func ("/tw/evaluators/evaluator/factories", test_factories);

  return g_test_run ();
}
