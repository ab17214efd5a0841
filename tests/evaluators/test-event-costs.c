/* test-event-costs.c: tracing costs per event type, and the overhead each metric sums
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Espinosa 2003 §2: compensated length = length − the cost of storing the measurement's
 * intermediate events. With a cost per type, each intermediate event costs its own:
 * the hand-made traces below give each metric kind (per CPU, whole trace, user metric
 * with and without system time, the worst-case table) a length the paper's arithmetic
 * gives by hand.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

typedef struct {
  TwTrace         *trace;
  TwTestKindTypes  k;
  guint16          x;       /* an unrelated event type */
  guint32          idle0;
  guint32          a;
  guint32          b;
  guint32          c;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->trace = tw_trace_new ();
  tw_test_add_kind_types (f->trace, &f->k);
  f->x = tw_test_add_simple_type (f->trace, "x", TW_EVENT_KIND_OTHER);
  f->idle0 = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (f->trace, f->idle0, TW_TASK_FLAG_IDLE);
  f->a = tw_trace_add_task (f->trace, "11", "a", 11, 11);
  f->b = tw_trace_add_task (f->trace, "12", "b", 12, 12);
  f->c = tw_trace_add_task (f->trace, "13", "c", 13, 13);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->trace);
}

static TwEventCosts *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  TwEventCosts *costs = tw_event_costs_parse (text, &error);

  g_assert_no_error (error);
  return costs;
}

static TwMeasurementTable *
evaluate (TwTrace     *trace,
          TwEvaluator *evaluator,
          const char  *costs_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwEventCosts) costs = parse (costs_text);
  TwMeasurementTable *table;

  if (!tw_trace_is_sealed (trace))
    g_assert_true (tw_trace_seal (trace, NULL, NULL));
  table = tw_evaluator_evaluate_with_costs (evaluator, trace, costs, NULL, NULL, NULL, NULL,
                                            &error);
  g_assert_no_error (error);
  return table;
}

static TwMeasurementTable *
evaluate_system (TwTrace    *trace,
                 const char *name,
                 const char *costs_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system (name, &error);

  g_assert_no_error (error);
  return evaluate (trace, TW_EVALUATOR (metric), costs_text);
}

static guint64
compensated (TwMeasurementTable *table,
             gsize               row)
{
  return tw_measurement_table_compensate (table, tw_measurement_table_get_row (table, row));
}

static void
test_parse (void)
{
  const struct { const char *text; const char *says; } bad[] = {
    { "0.8", "without a unit" },
    { "sched_switch=1.2", "without a unit" },
    { "0.8xs", "unknown unit “xs”" },
    { "sched_switch=1.2us,*=0.8parsec", "unknown unit “parsec”" },
    { "=1us", "event type before “=” is empty" },
    { "sched_switch=1us, =2us", "event type before “=” is empty" },
    { "sched_switch=", "expected the cost of one event" },
  };
  g_autoptr(TwEventCosts) plain = parse ("0.8us");
  g_autoptr(TwEventCosts) star = parse ("*=0.8us");
  g_autoptr(TwEventCosts) typed = parse ("sched_switch=1.2us, irq_handler_entry = 0.6us,*=0.8us");
  g_autoptr(TwEventCosts) equal = parse ("sched_switch=0.8us,*=800ns");
  g_autofree char *text = tw_event_costs_to_string (typed);
  TwEventType sw = { .name = "sched_switch", .kind = TW_EVENT_KIND_SWITCH };
  TwEventType irq = { .name = "irq_handler_entry", .kind = TW_EVENT_KIND_IRQ_ENTRY };
  TwEventType other = { .name = "sched_waking", .kind = TW_EVENT_KIND_WAKEUP };

  g_assert_true (tw_event_costs_is_uniform (plain));
  g_assert_true (tw_event_costs_is_uniform (star));
  g_assert_true (tw_event_costs_is_uniform (equal));
  g_assert_false (tw_event_costs_is_uniform (typed));
  g_assert_cmpfloat (tw_event_costs_get_default (plain), ==, 800);
  g_assert_cmpuint (tw_event_costs_get_type_cost_ps (typed, &sw), ==, 1200000);
  g_assert_cmpuint (tw_event_costs_get_type_cost_ps (typed, &irq), ==, 600000);
  g_assert_cmpuint (tw_event_costs_get_type_cost_ps (typed, &other), ==, 800000);
  g_assert_cmpstr (text, ==, "sched_switch 1.200 µs, irq_handler_entry 0.600 µs, * 0.800 µs per event");

  {
    g_autoptr(TwEventCosts) kinds = parse ("kind:switch=2ns,sched_w*=3ns");

    g_assert_cmpuint (tw_event_costs_get_type_cost_ps (kinds, &sw), ==, 2000);
    g_assert_cmpuint (tw_event_costs_get_type_cost_ps (kinds, &other), ==, 3000);
    g_assert_cmpuint (tw_event_costs_get_type_cost_ps (kinds, &irq), ==, 0);  /* no `*` */
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_null (tw_event_costs_parse (bad[i].text, &error));
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("“%s”: “%s” does not say “%s”", bad[i].text, error->message, bad[i].says);
    }
}

/* Per CPU: an irq handler counts the events on its CPU between entry and exit. */
static void
test_per_cpu (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;
  g_autofree char *csv = NULL;

  tw_trace_append (f->trace, 100, 0, f->k.irq_in, f->a, 10, NULL);
  tw_trace_append (f->trace, 105, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 11, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.irq_out, f->a, 11, NULL);
  tw_trace_append (f->trace, 140, 1, f->x, f->c, 0, NULL);          /* other CPU */
  tw_trace_append (f->trace, 150, 0, f->k.irq_out, f->a, 10, NULL);
  tw_trace_append (f->trace, 210, 1, f->k.irq_in, f->c, 7, NULL);
  tw_trace_append (f->trace, 215, 1, f->x, f->c, 0, NULL);
  tw_trace_append (f->trace, 220, 0, f->x, f->a, 0, NULL);          /* other CPU */
  tw_trace_append (f->trace, 240, 1, f->k.irq_out, f->c, 7, NULL);
  t = evaluate_system (f->trace, "irq-duration", "kind:irq_entry=3ns,kind:wakeup=5ns,x=7ns,*=1ns");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 3);
  g_assert_cmpuint (compensated (t, 0), ==, 10);            /* 120..130: none */
  g_assert_cmpuint (compensated (t, 1), ==, 50 - (5 + 3 + 1)); /* wakeup, entry, exit */
  g_assert_cmpuint (compensated (t, 2), ==, 30 - 7);        /* x on cpu 1 */
  csv = tw_measurement_table_to_csv (t, f->trace);
  g_assert_nonnull (strstr (csv, ",compensated_length_ns,"));
  g_assert_nonnull (strstr (csv, "\n11,100,150,50,3,0,41,"));
}

/* Whole trace: a wakeup latency counts every event between the wakeup and the switch. */
static void
test_whole_trace (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 100, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 110, 1, f->x, f->c, 0, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 3, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.irq_out, f->a, 3, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "R+");
  t = evaluate_system (f->trace, "wakeup-latency", "x=7ns,kind:irq_entry=3ns,kind:switch=100ns,*=1ns");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t, 0)->intermediate_events, ==, 3);
  g_assert_cmpuint (compensated (t, 0), ==, 50 - (7 + 3 + 1));
}

/* The paper's Fig. 2 behaviour on a hand-built job of task a (as test-metrics.c). */
static void
build_user_job (Fixture *f)
{
  guint16 mark = tw_test_add_simple_type (f->trace, "mark", TW_EVENT_KIND_USER);
  guint16 start = tw_test_add_simple_type (f->trace, "job_start", TW_EVENT_KIND_USER);
  guint16 end = tw_test_add_simple_type (f->trace, "job_end", TW_EVENT_KIND_USER);

  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 10, 0, start, f->a, 0, NULL);
  tw_trace_append (f->trace, 20, 0, f->k.irq_in, f->a, 5, NULL);
  tw_trace_append (f->trace, 25, 0, f->x, f->a, 0, NULL);
  tw_trace_append (f->trace, 30, 0, f->k.irq_out, f->a, 5, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 40, 0, f->a, f->b, "R+");
  tw_trace_append (f->trace, 50, 1, f->x, f->c, 0, NULL);        /* other CPU */
  tw_trace_append (f->trace, 60, 0, f->x, f->b, 0, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 70, 0, f->b, f->a, "S");
  tw_trace_append (f->trace, 75, 0, f->k.soft_in, f->a, 1, NULL);
  tw_trace_append (f->trace, 78, 0, f->k.soft_out, f->a, 1, NULL);
  tw_trace_append (f->trace, 80, 0, mark, f->a, 0, NULL);
  tw_trace_append (f->trace, 100, 0, end, f->a, 0, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
}

#define JOB_COSTS "kind:irq_entry=3ns,kind:switch=11ns,kind:softirq_entry=5ns,mark=2ns,x=7ns,*=1ns"

/* Running outside handlers, its intermediate events are irq entry 20 (3), switch out
 * 40 (11), softirq entry 75 (5), mark 80 (2); while current, handlers too: + x 25 (7),
 * irq exit 30 (1), softirq exit 78 (1). */
static void
test_user_metric (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMetric) no_sys = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  g_autoptr(TwMetric) with_sys = tw_metric_new_user ("job+sys", "job_start", "job_end", TRUE);
  g_autoptr(TwMeasurementTable) t1 = NULL;
  g_autoptr(TwMeasurementTable) t2 = NULL;

  build_user_job (f);
  t1 = evaluate (f->trace, TW_EVALUATOR (no_sys), JOB_COSTS);
  t2 = evaluate (f->trace, TW_EVALUATOR (with_sys), JOB_COSTS);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t1), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t1, 0)->length, ==, 47);
  g_assert_cmpuint (compensated (t1, 0), ==, 47 - (3 + 11 + 5 + 2));
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t2), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t2, 0)->length, ==, 90);
  g_assert_cmpuint (compensated (t2, 0), ==, 90 - (3 + 11 + 5 + 2 + 7 + 1 + 1));
}

/* Fig. 4 with per-type costs: execution 47 − 21; irq 5 (20..30) loses x (7). */
static void
test_worst_case (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = tw_worst_case_evaluator_new ("job_start", "job_end");
  g_autoptr(TwEventCosts) costs = parse (JOB_COSTS);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *text = NULL;

  build_user_job (f);
  tw_worst_case_evaluator_set_event_costs (evaluator, costs);
  table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  wc = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error);
  g_assert_no_error (error);
  csv = tw_worst_case_to_csv (wc, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,execution,job_system_time,system_blocking_irq,"
                   "system_blocking_softirq,delay_until_wakeup\n"
                   "11,26,13,3,3,\n");
  text = tw_worst_case_dup_event_cost_text (wc);
  g_assert_nonnull (strstr (text, "mark 0.002 µs"));
  /* the per-task table's row, the task's longest job, keeps the job's own overhead */
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 1);
  g_assert_cmpuint (compensated (table, 0), ==, 47 - (3 + 11 + 5 + 2));
}

/* Every event costing the same through the per-type sums (a type named that never
 * occurs makes the costs per type) gives each row exactly intermediate × cost: the
 * sums count the events the counts count, for every metric, on a busy 4-CPU kernel. */
static void
test_sums_match_counts (void)
{
  const char *metrics[] = {
    "irq-duration", "softirq-duration", "run-slice", "wakeup-latency", "wakeup-handler",
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 4, 40, 17);

  tw_test_schedule_append (schedule, 200000);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      g_autoptr(TwMeasurementTable) t = evaluate_system (trace, metrics[i], "no_such_type=9us,*=3ns");
      gsize n = tw_measurement_table_get_n_rows (t);

      g_assert_nonnull (tw_measurement_table_get_type_costs (t));
      g_assert_cmpuint (n, >, 100);
      for (gsize r = 0; r < n; r++)
        {
          const TwMeasurementRow *m = tw_measurement_table_get_row (t, r);

          if (tw_measurement_table_get_overhead (t, m) != 3 * (guint64) m->intermediate_events)
            g_error ("%s row %" G_GSIZE_FORMAT ": overhead %" G_GUINT64_FORMAT " ns, %u events",
                     metrics[i], r, tw_measurement_table_get_overhead (t, m), m->intermediate_events);
        }
    }
}

/* Adds @update to @evaluation from inside its run, at event @at: a live session's
 * evaluator joining while events flow. */
typedef struct {
  TwEvaluation *evaluation;
  TwUpdate     *update;
  guint64       at;
} Joiner;

static gboolean
joiner_prepare (gpointer       context,
                gpointer       func_data,
                const TwEvent *event,
                guint          selector)
{
  Joiner *joiner = func_data;

  if (event->index == joiner->at)
    g_assert_true (tw_evaluation_add_update (joiner->evaluation, joiner->update, NULL));
  return TRUE;
}

static void
joiner_commit (gpointer context,
               gpointer func_data,
               gboolean ok)
{
}

static const TwUpdateFuncs joiner_funcs = { NULL, joiner_prepare, joiner_commit, NULL };

/* An update that asks for costs joins in the middle of a chunk, while the evaluation
 * runs without them; from its first event on, its rows' overheads are exact (every
 * event costs 3 ns through the per-type sums). */
static void
test_join_mid_run (void)
{
  const char *const all[] = { "*", NULL };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 4, 40, 5);
  g_autoptr(TwMetric) costed = tw_metric_new_system ("wakeup-latency", NULL);
  g_autoptr(TwMeasurementTable) table = tw_metric_new_table (costed);
  g_autoptr(TwEventCosts) costs = parse ("no_such_type=9us,*=3ns");
  g_autoptr(TwUpdate) update = NULL;
  g_autoptr(TwUpdate) joiner_update = NULL;
  g_autoptr(TwEvaluation) evaluation = NULL;
  g_autoptr(GError) error = NULL;
  Joiner joiner;

  tw_test_schedule_append (schedule, 100000);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  evaluation = tw_evaluation_new (trace);
  tw_measurement_table_set_event_costs (table, costs);
  update = tw_metric_create_update (costed, table, NULL);
  joiner = (Joiner) { evaluation, update, tw_trace_get_n_events (trace) / 2 + 1234 };
  joiner_update = tw_update_new (&joiner_funcs, &joiner, NULL, NULL, all);
  g_assert_true (tw_evaluation_add_update (evaluation, joiner_update, &error));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  tw_evaluation_finish (evaluation);

  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), >, 100);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

      g_assert_cmpuint (m->begin, >=, tw_trace_get_time (trace, joiner.at));
      g_assert_cmpuint (tw_measurement_table_get_overhead (table, m), ==,
                        3 * (guint64) m->intermediate_events);
    }

  /* a second update with other costs cannot share the evaluation's sums */
  {
    g_autoptr(TwMeasurementTable) other_table = tw_metric_new_table (costed);
    g_autoptr(TwEventCosts) other = parse ("kind:switch=1us,*=2ns");
    g_autoptr(TwUpdate) other_update = NULL;

    tw_measurement_table_set_event_costs (other_table, other);
    other_update = tw_metric_create_update (costed, other_table, NULL);
    g_assert_false (tw_evaluation_add_update (evaluation, other_update, &error));
    g_assert_error (error, TW_EVALUATION_ERROR, TW_EVALUATION_ERROR_BIND);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-costs/parse", test_parse);
  g_test_add ("/event-costs/per-cpu", Fixture, NULL, fixture_setup, test_per_cpu, fixture_teardown);
  g_test_add ("/event-costs/whole-trace", Fixture, NULL, fixture_setup, test_whole_trace,
              fixture_teardown);
  g_test_add ("/event-costs/user-metric", Fixture, NULL, fixture_setup, test_user_metric,
              fixture_teardown);
  g_test_add ("/event-costs/worst-case", Fixture, NULL, fixture_setup, test_worst_case,
              fixture_teardown);
  g_test_add_func ("/event-costs/sums-match-counts", test_sums_match_counts);
  g_test_add_func ("/event-costs/join-mid-run", test_join_mid_run);
  return g_test_run ();
}
