/* test-event-costs.c: tracing costs per event type, and the overhead each metric sums
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Espinosa 2003 §2: compensated length = length − the cost of storing the measurement's
 * intermediate events. With a cost per type, each intermediate event costs its own;
 * test-metrics.c checks the paper's arithmetic on hand-made traces, these that the
 * sums count what the counts count, also for an update that joins mid-run.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

static TwEventCosts *
parse (const char *text)
{
  g_autoptr(GError) error = NULL;
  TwEventCosts *costs = tw_event_costs_parse (text, &error);

  g_assert_no_error (error);
  return costs;
}

static TwMeasurementTable *
evaluate_system (TwTrace      *trace,
                 const char   *name,
                 TwEventCosts *costs)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system (name, &error);
  TwMeasurementTable *table;

  g_assert_no_error (error);
  table = tw_evaluator_evaluate_with_costs (TW_EVALUATOR (metric), trace, costs, NULL, NULL,
                                            NULL, NULL, &error);
  g_assert_no_error (error);
  return table;
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
  g_autoptr(TwEventCosts) costs = parse ("no_such_type=9us,*=3ns");

  tw_test_schedule_append (schedule, 200000);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    {
      g_autoptr(TwMeasurementTable) t = evaluate_system (trace, metrics[i], costs);
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
  g_test_add_func ("/event-costs/sums-match-counts", test_sums_match_counts);
  g_test_add_func ("/event-costs/join-mid-run", test_join_mid_run);
  return g_test_run ();
}
