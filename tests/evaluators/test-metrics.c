/* test-metrics.c: built-in metrics, user metrics and the worst-case analysis
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

typedef struct {
  TwTrace         *trace;
  TwTestKindTypes  k;
  guint16          x;       /* an unrelated event type */
  guint32          idle0;
  guint32          idle1;
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
  f->idle1 = tw_trace_add_task (f->trace, "0/1", "swapper/1", 0, 0);
  tw_trace_set_task_flags (f->trace, f->idle0, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (f->trace, f->idle1, TW_TASK_FLAG_IDLE);
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

/* @costs_text: (nullable): tracing costs per event type (tw_event_costs_parse()) */
static TwMeasurementTable *
evaluate_costed (TwTrace     *trace,
                 TwEvaluator *evaluator,
                 const char  *costs_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwEventCosts) costs = costs_text ? tw_event_costs_parse (costs_text, &error) : NULL;
  TwMeasurementTable *table;

  g_assert_no_error (error);
  if (!tw_trace_is_sealed (trace))
    g_assert_true (tw_trace_seal (trace, NULL, NULL));
  table = tw_evaluator_evaluate_with_costs (evaluator, trace, costs, NULL, NULL, NULL, NULL,
                                            &error);
  g_assert_no_error (error);
  return table;
}

static TwMeasurementTable *
evaluate_costed_system (TwTrace    *trace,
                        const char *name,
                        const char *costs_text)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system (name, &error);

  g_assert_no_error (error);
  return evaluate_costed (trace, TW_EVALUATOR (metric), costs_text);
}

static TwMeasurementTable *
evaluate (TwTrace    *trace,
          const char *name)
{
  return evaluate_costed_system (trace, name, NULL);
}

static void
assert_row (TwMeasurementTable *table,
            gsize               row,
            guint32             task,
            guint64             begin,
            guint64             end,
            guint64             length,
            guint32             intermediate)
{
  const TwMeasurementRow *m;

  g_assert_cmpuint (row, <, tw_measurement_table_get_n_rows (table));
  m = tw_measurement_table_get_row (table, row);
  g_assert_cmpuint (m->task, ==, task);
  g_assert_cmpuint (m->begin, ==, begin);
  g_assert_cmpuint (m->end, ==, end);
  g_assert_cmpuint (m->length, ==, length);
  g_assert_cmpuint (m->intermediate_events, ==, intermediate);
}

static void
test_irq_duration (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  /* cpu0: irq 10 at 100 (task a) with irq 11 nested 120..130, exit 10 at 150.
   * cpu1: an exit nobody entered, irq 7 with a nested irq 8 whose exit was lost,
   *       and irq 9 still open at the end of the trace. */
  tw_trace_append (f->trace, 100, 0, f->k.irq_in, f->a, 10, NULL);
  tw_trace_append (f->trace, 105, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 11, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.irq_out, f->a, 11, NULL);
  tw_trace_append (f->trace, 140, 1, f->x, f->c, 0, NULL);
  tw_trace_append (f->trace, 150, 0, f->k.irq_out, f->a, 10, NULL);
  tw_trace_append (f->trace, 200, 1, f->k.irq_out, f->c, 5, NULL);
  tw_trace_append (f->trace, 210, 1, f->k.irq_in, f->c, 7, NULL);
  tw_trace_append (f->trace, 215, 1, f->k.irq_in, f->c, 8, NULL);
  tw_trace_append (f->trace, 220, 0, f->k.soft_in, f->a, 3, NULL);
  tw_trace_append (f->trace, 240, 1, f->k.irq_out, f->c, 7, NULL);
  tw_trace_append (f->trace, 250, 0, f->k.soft_out, f->a, 3, NULL);
  tw_trace_append (f->trace, 300, 1, f->k.irq_in, f->c, 9, NULL);
  t = evaluate (f->trace, "irq-duration");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 3);
  assert_row (t, 0, f->a, 120, 130, 10, 0);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 0), ==, 11);  /* irq */
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 1), ==, 2);   /* depth */
  assert_row (t, 1, f->a, 100, 150, 50, 3);  /* wakeup, entry 11, exit 11 on cpu0 */
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 0), ==, 10);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 1), ==, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 2), ==, 0);   /* cpu */
  assert_row (t, 2, f->c, 210, 240, 30, 1);  /* the lost-exit entry of irq 8 */
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 2, 0), ==, 7);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 2, 2), ==, 1);

  {
    g_autoptr(TwMeasurementTable) s = evaluate (f->trace, "softirq-duration");

    g_assert_cmpuint (tw_measurement_table_get_n_rows (s), ==, 1);
    assert_row (s, 0, f->a, 220, 250, 30, 0);
    g_assert_cmpfloat (tw_measurement_table_get_value (s, 0, 0), ==, 3);   /* vector */
  }
}

static void
test_run_slice (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 60, 1, f->c, f->idle1, "S");  /* c's start unknown */
  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "R+");
  tw_trace_append (f->trace, 170, 0, f->k.wake, f->b, f->c, NULL);
  tw_trace_append (f->trace, 180, 0, f->k.irq_in, f->b, 1, NULL);
  tw_trace_append (f->trace, 185, 1, f->x, f->idle1, 0, NULL);
  tw_trace_append (f->trace, 190, 0, f->k.irq_out, f->b, 1, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 300, 0, f->b, f->idle0, "S");
  tw_test_append_switch (f->trace, f->k.sw, 400, 0, f->idle0, f->a, "R");  /* idle slice: not a task */
  tw_test_append_switch (f->trace, f->k.sw, 500, 1, f->idle1, f->c, "R");
  tw_test_append_switch (f->trace, f->k.sw, 520, 1, f->c, f->idle1, "S");
  t = evaluate (f->trace, "run-slice");

  /* a's last slice from 400 never ends */
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 3);
  assert_row (t, 0, f->a, 100, 150, 50, 0);
  assert_row (t, 1, f->b, 150, 300, 150, 3);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 0), ==, 0);
  assert_row (t, 2, f->c, 500, 520, 20, 0);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 2, 0), ==, 1);
}

static void
test_wakeup_latency (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  tw_trace_append (f->trace, 100, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.wake, f->a, f->b, NULL);  /* already woken */
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "R+");
  tw_trace_append (f->trace, 200, 0, f->k.wake, f->a, f->b, NULL);  /* b is running */
  tw_test_append_switch (f->trace, f->k.sw, 250, 0, f->b, f->a, "S");
  tw_trace_append (f->trace, 300, 1, f->k.wake, TW_TASK_NONE, f->b, NULL);
  tw_trace_append (f->trace, 350, 0, f->k.irq_in, f->a, 3, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 400, 1, f->idle1, f->b, "R");
  tw_trace_append (f->trace, 500, 1, f->k.wake, f->b, f->c, NULL);  /* c never runs */
  t = evaluate (f->trace, "wakeup-latency");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 2);
  assert_row (t, 0, f->b, 100, 150, 50, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 0), ==, 0);
  assert_row (t, 1, f->b, 300, 400, 100, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 0), ==, 1);
}

/* a's switch-out on CPU 0 is lost (the switch at 200 names b); before, a stayed
 * "running" and its wakeup at 300 was ignored. b, switched in on CPU 1 while running on
 * CPU 0, has its late switch-out on CPU 0 at 420 ignored: its wakeup at 450 (running
 * on 1) does not count, its slice on 1 is 400 → 500 and no slice spans both CPUs. */
static void
test_repaired_switches (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) latency = NULL;
  g_autoptr(TwMeasurementTable) slices = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->b, f->c, "S");
  tw_trace_append (f->trace, 300, 1, f->k.wake, TW_TASK_NONE, f->a, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 350, 0, f->c, f->b, "S");
  tw_test_append_switch (f->trace, f->k.sw, 360, 1, f->idle1, f->a, "R");
  tw_test_append_switch (f->trace, f->k.sw, 400, 1, f->a, f->b, "R");
  tw_test_append_switch (f->trace, f->k.sw, 420, 0, f->b, f->idle0, "S");
  tw_trace_append (f->trace, 450, 0, f->k.wake, TW_TASK_NONE, f->b, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 500, 1, f->b, f->idle1, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));

  latency = evaluate (f->trace, "wakeup-latency");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (latency), ==, 1);
  assert_row (latency, 0, f->a, 300, 360, 60, 1);

  slices = evaluate (f->trace, "run-slice");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (slices), ==, 3);
  assert_row (slices, 0, f->c, 200, 350, 150, 0);
  assert_row (slices, 1, f->a, 360, 400, 40, 0);
  assert_row (slices, 2, f->b, 400, 500, 100, 0);
}

/* A measurement that spans a loss, on any CPU, says so in the CSV's `lost` column
 * (at least one event when the source does not say how many). */
static void
test_lost_column (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;
  g_autofree char *csv = NULL;
  guint16 lost = tw_lost_events_add_type (f->trace, "lost_events", NULL);

  tw_trace_append (f->trace, 100, 0, f->k.wake, TW_TASK_NONE, f->a, NULL);
  tw_trace_append (f->trace, 120, 1, f->x, f->b, 0, NULL);
  tw_lost_events_append (f->trace, lost, 150, 1, 7, 0, TW_TIME_NONE);
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 300, 0, f->k.wake, TW_TASK_NONE, f->b, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 320, 0, f->a, f->b, "S");
  /* CPU 1's second gap runs from its event at 380 to 410 */
  tw_trace_append (f->trace, 380, 1, f->x, f->b, 0, NULL);
  tw_trace_append (f->trace, 400, 0, f->k.wake, TW_TASK_NONE, f->a, NULL);
  tw_lost_events_append (f->trace, lost, 410, 1, TW_LOST_COUNT_UNKNOWN, 0, TW_TIME_NONE);
  tw_test_append_switch (f->trace, f->k.sw, 450, 0, f->b, f->a, "S");
  t = evaluate (f->trace, "wakeup-latency");

  csv = tw_measurement_table_to_csv (t, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,begin_ns,end_ns,length_ns,intermediate_events,lost,cpu\n"
                   "11,100,200,100,2,7,0\n"
                   "12,300,320,20,0,0,0\n"
                   "11,400,450,50,1,1,0\n");
}

static void
test_wakeup_handler (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  tw_trace_append (f->trace, 100, 0, f->k.irq_in, f->a, 1, NULL);
  tw_trace_append (f->trace, 110, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 115, 1, f->x, f->idle1, 0, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.soft_in, f->a, 1, NULL);
  tw_trace_append (f->trace, 125, 0, f->k.wake, f->a, f->c, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.soft_out, f->a, 1, NULL);
  tw_trace_append (f->trace, 150, 0, f->k.irq_out, f->a, 1, NULL);
  tw_trace_append (f->trace, 200, 0, f->k.wake, f->a, f->b, NULL);   /* not in a handler */
  tw_trace_append (f->trace, 210, 1, f->k.soft_in, f->idle1, 9, NULL);
  tw_trace_append (f->trace, 212, 1, f->k.soft_out, f->idle1, 9, NULL); /* woke nobody */
  t = evaluate (f->trace, "wakeup-handler");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 2);
  assert_row (t, 0, f->b, 100, 150, 50, 4);
  assert_row (t, 1, f->c, 100, 150, 50, 4);
}

static void
add_job_types (Fixture *f,
               guint16 *start,
               guint16 *end)
{
  *start = tw_test_add_simple_type (f->trace, "task_activate", TW_EVENT_KIND_OTHER);
  *end = tw_test_add_simple_type (f->trace, "task_end_cycle", TW_EVENT_KIND_OTHER);
}

static void
test_response_time (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;
  guint16 act, end;

  add_job_types (f, &act, &end);
  tw_trace_append (f->trace, 0, 0, act, f->a, 0, NULL);
  tw_trace_append (f->trace, 5, 1, end, f->b, 0, NULL);    /* end without activation */
  tw_trace_append (f->trace, 10, 1, act, f->b, 0, NULL);
  tw_trace_append (f->trace, 30, 0, end, f->a, 0, NULL);
  tw_trace_append (f->trace, 80, 1, end, f->b, 0, NULL);
  tw_trace_append (f->trace, 100, 0, act, f->a, 0, NULL);
  tw_trace_append (f->trace, 160, 0, end, f->a, 0, NULL);
  tw_trace_append (f->trace, 200, 0, act, f->a, 0, NULL);  /* overruns past 300 */
  tw_trace_append (f->trace, 300, 0, act, f->a, 0, NULL);  /* pending behind it */
  tw_trace_append (f->trace, 310, 0, end, f->a, 0, NULL);
  tw_trace_append (f->trace, 350, 0, end, f->a, 0, NULL);
  tw_trace_append (f->trace, 360, 0, end, f->a, 0, NULL);  /* no job open */
  t = evaluate (f->trace, "response-time");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 5);
  assert_row (t, 0, f->a, 0, 30, 30, 2);
  assert_row (t, 1, f->b, 10, 80, 70, 1);
  assert_row (t, 2, f->a, 100, 160, 60, 0);
  assert_row (t, 3, f->a, 200, 310, 110, 1);
  assert_row (t, 4, f->a, 300, 350, 50, 1);

  {
    g_autoptr(TwMeasurementTable) missing = evaluate (f->trace, "response-time:job_start,job_end");

    g_assert_cmpuint (tw_measurement_table_get_n_rows (missing), ==, 0);
  }
}

static void
test_inter_arrival_jitter (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) ia = NULL;
  g_autoptr(TwMeasurementTable) jt = NULL;
  guint16 tick = tw_test_add_simple_type (f->trace, "tick", TW_EVENT_KIND_USER);

  tw_trace_append (f->trace, 0, 0, tick, f->a, 0, NULL);
  tw_trace_append (f->trace, 50, 0, f->x, f->a, 0, NULL);
  tw_trace_append (f->trace, 100, 1, tick, f->b, 0, NULL);
  tw_trace_append (f->trace, 200, 0, f->x, f->a, 0, NULL);
  tw_trace_append (f->trace, 210, 0, f->x, f->a, 0, NULL);
  tw_trace_append (f->trace, 250, 0, tick, f->a, 0, NULL);
  tw_trace_append (f->trace, 300, 0, tick, f->c, 0, NULL);
  ia = evaluate (f->trace, "inter-arrival:tick");
  jt = evaluate (f->trace, "jitter:kind:user");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (ia), ==, 3);
  assert_row (ia, 0, f->b, 0, 100, 100, 1);
  assert_row (ia, 1, f->a, 100, 250, 150, 2);
  assert_row (ia, 2, f->c, 250, 300, 50, 0);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (jt), ==, 2);
  assert_row (jt, 0, f->a, 100, 250, 50, 2);    /* |150 − 100| */
  assert_row (jt, 1, f->c, 250, 300, 100, 0);   /* |50 − 150| */
}

/* The paper's Fig. 2 behaviour on a hand-built job of task a. */
static void
build_user_job (Fixture *f,
                guint16 *start,
                guint16 *end)
{
  guint16 mark = tw_test_add_simple_type (f->trace, "mark", TW_EVENT_KIND_USER);

  *start = tw_test_add_simple_type (f->trace, "job_start", TW_EVENT_KIND_USER);
  *end = tw_test_add_simple_type (f->trace, "job_end", TW_EVENT_KIND_USER);
  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 5, 1, *end, f->b, 0, NULL);         /* end without start */
  tw_trace_append (f->trace, 10, 0, *start, f->a, 0, NULL);
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
  tw_trace_append (f->trace, 100, 0, *end, f->a, 0, NULL);
  tw_trace_append (f->trace, 200, 1, *start, f->c, 0, NULL);     /* never ends */
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
}

static void
test_user_metric (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMetric) no_sys = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  g_autoptr(TwMetric) with_sys = tw_metric_new_user ("job+sys", "job_start", "job_end", TRUE);
  g_autoptr(TwMeasurementTable) t1 = NULL;
  g_autoptr(TwMeasurementTable) t2 = NULL;
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (16, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(GError) error = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
  t1 = tw_evaluator_evaluate (TW_EVALUATOR (no_sys), f->trace, h, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  t2 = tw_evaluator_evaluate (TW_EVALUATOR (with_sys), f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Running 10–20, 30–40, 70–75, 78–100 = 47; handlers 20–30 and 75–78 = 13;
   * preempted 40–70 = 30. Events while it ran outside handlers: irq entry 20,
   * switch 40, softirq entry 75, mark 80; while current (handlers too): + x 25,
   * irq exit 30, softirq exit 78. */
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t1), ==, 1);
  assert_row (t1, 0, f->a, 10, 100, 47, 4);
  g_assert_cmpfloat (tw_measurement_table_get_value (t1, 0, 0), ==, 47);
  g_assert_cmpfloat (tw_measurement_table_get_value (t1, 0, 1), ==, 13);
  g_assert_cmpfloat (tw_measurement_table_get_value (t1, 0, 2), ==, 30);
  g_assert_cmpuint (tw_histogram_get_count (h), ==, 1);
  g_assert_cmpfloat (tw_histogram_get_max (h), ==, 47);

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t2), ==, 1);
  assert_row (t2, 0, f->a, 10, 100, 90, 7);
}

/* A START while the job is still open (an overrun) queues the next job: it begins when
 * the open one ends, its elapsed time counts from its own START. */
static void
test_user_metric_overrun (Fixture       *f,
                          gconstpointer  data)
{
  guint16 start = tw_test_add_simple_type (f->trace, "job_start", TW_EVENT_KIND_USER);
  guint16 end = tw_test_add_simple_type (f->trace, "job_end", TW_EVENT_KIND_USER);
  g_autoptr(TwMetric) job = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  g_autoptr(TwMeasurementTable) t = NULL;
  g_autoptr(GError) error = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 10, 0, start, f->a, 0, NULL);
  tw_trace_append (f->trace, 20, 0, start, f->a, 0, NULL);
  tw_trace_append (f->trace, 30, 0, f->k.irq_in, f->a, 9, NULL);
  tw_trace_append (f->trace, 35, 0, f->k.irq_out, f->a, 9, NULL);
  tw_trace_append (f->trace, 50, 0, end, f->a, 0, NULL);
  tw_trace_append (f->trace, 55, 0, f->x, f->a, 0, NULL);
  tw_trace_append (f->trace, 60, 0, end, f->a, 0, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  t = tw_evaluator_evaluate (TW_EVALUATOR (job), f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 2);
  /* 10–50 minus the irq 30–35; inside it ran the queued START and the irq entry */
  assert_row (t, 0, f->a, 10, 50, 35, 2);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 1), ==, 5);
  /* runs 50–60 behind the first; waited 20–50 */
  assert_row (t, 1, f->a, 20, 60, 10, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 1, 2), ==, 30);
}

/* S.Ha.R.K. logs task_activate as a wakeup of the activated task (arg), logged by the
 * activator: the job belongs to the activated task, which runs only once switched in. */
static void
test_activation_subject (Fixture       *f,
                         gconstpointer  data)
{
  guint16 act = tw_test_add_simple_type (f->trace, "task_activate", TW_EVENT_KIND_WAKEUP);
  guint16 end = tw_test_add_simple_type (f->trace, "task_end_cycle", TW_EVENT_KIND_OTHER);
  g_autoptr(TwMetric) job = tw_metric_new_user ("job", "task_activate", "task_end_cycle", FALSE);
  g_autoptr(TwMeasurementTable) rt = NULL;
  g_autoptr(TwMeasurementTable) t = NULL;
  g_autoptr(GError) error = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 10, 0, act, f->a, f->b, NULL);      /* a activates b */
  tw_test_append_switch (f->trace, f->k.sw, 30, 0, f->a, f->b, "R+");
  tw_trace_append (f->trace, 40, 0, f->k.irq_in, f->b, 3, NULL);
  tw_trace_append (f->trace, 45, 0, f->k.irq_out, f->b, 3, NULL);
  tw_trace_append (f->trace, 60, 0, end, f->b, 0, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));

  rt = evaluate (f->trace, "response-time");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (rt), ==, 1);
  assert_row (rt, 0, f->b, 10, 60, 50, 3);

  /* b ran 30–40 and 45–60 = 25; the irq took 5; it waited 10–30 = 20. Events while it
   * ran outside handlers: the irq entry at 40. */
  t = tw_evaluator_evaluate (TW_EVALUATOR (job), f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, f->b, 10, 60, 25, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 1), ==, 5);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 2), ==, 20);
}

static void
test_required_events (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TwMetric) user = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  g_autoptr(TwMetric) irq = tw_metric_new_system ("irq-duration", NULL);
  g_autoptr(TwMetric) ia = tw_metric_new_system ("inter-arrival:mark", NULL);
  g_auto(GStrv) u = NULL;
  g_auto(GStrv) i = NULL;
  g_auto(GStrv) sel = NULL;
  g_auto(GStrv) m = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
  u = tw_evaluator_dup_required_events (TW_EVALUATOR (user), f->trace);
  i = tw_evaluator_dup_required_events (TW_EVALUATOR (irq), f->trace);
  sel = tw_evaluator_dup_required_events (TW_EVALUATOR (irq), NULL);
  m = tw_evaluator_dup_required_events (TW_EVALUATOR (ia), f->trace);

  /* type-table order: switch, wakeup, irq_entry, irq_exit, softirq_entry, softirq_exit,
   * x, mark, job_start, job_end */
  {
    const char *const expected[] = { "switch", "irq_entry", "irq_exit", "softirq_entry",
                                     "softirq_exit", "job_start", "job_end", NULL };
    g_assert_true (g_strv_equal ((const char *const *) u, expected));
  }
  {
    const char *const expected[] = { "irq_entry", "irq_exit", NULL };
    const char *const expected_sel[] = { "kind:irq_entry", "kind:irq_exit", NULL };

    g_assert_true (g_strv_equal ((const char *const *) i, expected));
    g_assert_true (g_strv_equal ((const char *const *) sel, expected_sel));
  }
  g_assert_cmpuint (g_strv_length (m), ==, 1);
  g_assert_cmpstr (m[0], ==, "mark");
}

static void
test_bad_names (void)
{
  static const char *const bad[] = {
    "no-such-metric", "irq-duration:7", "inter-arrival", "inter-arrival:", "jitter:*",
    "response-time:a", "response-time:a,a", "response-time:,b",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TwMetric) metric = tw_metric_new_system (bad[i], &error);

      g_assert_null (metric);
      int code = i == 0 ? TW_METRIC_ERROR_UNKNOWN : TW_METRIC_ERROR_INVALID;

      g_assert_error (error, TW_METRIC_ERROR, code);
    }

  {
    guint n;
    const TwMetricInfo *infos = tw_metrics_get_system_metrics (&n);

    g_assert_cmpuint (n, ==, 9);
    for (guint i = 0; i < n; i++)
      {
        g_autofree char *name = infos[i].parameter
                                ? g_strdup_printf ("%s:%s", infos[i].name,
                                                   strchr (infos[i].parameter, ',') ? "s,e" : "e")
                                : g_strdup (infos[i].name);
        g_autoptr(TwMetric) metric = tw_metric_new_system (name, NULL);

        g_assert_nonnull (metric);
        g_assert_cmpstr (tw_metric_get_description (metric), ==, infos[i].description);
      }
  }
}

/* Several metrics in one pass of one evaluation equal separate passes; CSV export. */
static void
test_one_pass_and_csv (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TwEvaluation) evaluation = NULL;
  g_autoptr(TwMetric) irq = tw_metric_new_system ("irq-duration", NULL);
  g_autoptr(TwMetric) slice = tw_metric_new_system ("run-slice", NULL);
  g_autoptr(TwMeasurementTable) ti = tw_metric_new_table (irq);
  g_autoptr(TwMeasurementTable) ts = tw_metric_new_table (slice);
  g_autoptr(TwUpdate) ui = tw_metric_create_update (irq, ti, NULL);
  g_autoptr(TwUpdate) us = tw_metric_create_update (slice, ts, NULL);
  g_autoptr(TwMeasurementTable) alone = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *csv_alone = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 110, 0, f->k.irq_in, f->a, 42, NULL);
  tw_trace_append (f->trace, 117, 0, f->k.irq_out, f->a, 42, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));

  evaluation = tw_evaluation_new (f->trace);
  g_assert_true (tw_evaluation_add_update (evaluation, ui, NULL));
  g_assert_true (tw_evaluation_add_update (evaluation, us, NULL));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));

  csv = tw_measurement_table_to_csv (ti, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,begin_ns,end_ns,length_ns,intermediate_events,lost,irq,depth,cpu\n"
                   "11,110,117,7,0,0,42,1,0\n");
  alone = evaluate (f->trace, "irq-duration");
  csv_alone = tw_measurement_table_to_csv (alone, f->trace);
  g_assert_cmpstr (csv, ==, csv_alone);
  g_clear_pointer (&csv, g_free);
  csv = tw_measurement_table_to_csv (ts, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,begin_ns,end_ns,length_ns,intermediate_events,lost,cpu\n"
                   "11,100,150,50,2,0,0\n");

  /* The stream writer gives the same text. */
  {
    g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
    g_autoptr(GError) error = NULL;
    g_autofree char *text = NULL;

    g_assert_true (tw_measurement_table_write_csv (ti, f->trace, out, NULL, &error));
    g_assert_no_error (error);
    g_assert_true (g_output_stream_write_all (out, "", 1, NULL, NULL, NULL));
    g_output_stream_close (out, NULL, NULL);
    text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (out));
    g_assert_cmpstr (text, ==, csv_alone);
  }
}

static void
append_rows (TwMeasurementTable *table,
             guint32             task,
             const guint64      *begins,
             const guint64      *lengths,
             guint               n)
{
  for (guint i = 0; i < n; i++)
    {
      TwMeasurementRow m = { task, 0, begins[i], begins[i] + lengths[i], lengths[i] };

      tw_measurement_table_append (table, &m, NULL);
    }
}

static void
test_worst_case (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TwWorstCase) wc = tw_worst_case_new ();
  g_autoptr(TwMeasurementTable) exec = tw_measurement_table_new (NULL);
  g_autoptr(TwMeasurementTable) jst = tw_measurement_table_new (NULL);
  g_autoptr(TwMeasurementTable) sb = tw_measurement_table_new (NULL);
  g_autoptr(TwMeasurementTable) duw = tw_measurement_table_new (NULL);
  g_autoptr(GArray) rta = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *rta_csv = NULL;
  const TwResponseTime *r;

  append_rows (exec, f->a, (guint64[]) { 0, 100, 200 }, (guint64[]) { 10, 20, 15 }, 3);
  append_rows (exec, f->b, (guint64[]) { 0, 300 }, (guint64[]) { 50, 40 }, 2);
  append_rows (jst, f->a, (guint64[]) { 0, 100 }, (guint64[]) { 1, 2 }, 2);
  append_rows (jst, f->b, (guint64[]) { 0 }, (guint64[]) { 5 }, 1);
  append_rows (sb, f->a, (guint64[]) { 0 }, (guint64[]) { 3 }, 1);
  append_rows (sb, f->b, (guint64[]) { 0, 7 }, (guint64[]) { 4, 2 }, 2);
  append_rows (duw, f->a, (guint64[]) { 0 }, (guint64[]) { 1 }, 1);
  append_rows (duw, f->b, (guint64[]) { 0 }, (guint64[]) { 6 }, 1);
  append_rows (duw, f->c, (guint64[]) { 0 }, (guint64[]) { 9 }, 1);  /* c: no jobs */

  tw_worst_case_add_column (wc, "execution", exec, -1, TW_WORST_CASE_ROLE_EXECUTION);
  tw_worst_case_add_column (wc, "job_system_time", jst, -1, TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME);
  tw_worst_case_add_column (wc, "system_blocking", sb, -1, TW_WORST_CASE_ROLE_SYSTEM_BLOCKING);
  tw_worst_case_add_column (wc, "delay_until_wakeup", duw, -1, TW_WORST_CASE_ROLE_WAKEUP);

  g_assert_cmpuint (tw_worst_case_get_n_rows (wc), ==, 3);
  csv = tw_worst_case_to_csv (wc, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,execution,job_system_time,system_blocking,delay_until_wakeup\n"
                   "11,20,2,3,1\n"
                   "12,50,5,4,6\n"
                   "13,,,,9\n");

  /* a: T = 100, C = 22; b: T = 300, C = 55; rate monotonic: a first.
   * a: B_crit = SB_b = 4; R = 22 + 4 + ⌈R/300⌉·6 → 32 (B = 10).
   * b: R = 55 + ⌈R/100⌉·22 → 77 (B = 0). */
  rta = tw_worst_case_analyse (wc);
  g_assert_cmpuint (rta->len, ==, 2);
  r = &g_array_index (rta, TwResponseTime, 0);
  g_assert_cmpuint (r->task, ==, f->a);
  g_assert_cmpfloat (r->period, ==, 100);
  g_assert_cmpfloat (r->execution, ==, 22);
  g_assert_cmpfloat (r->blocking, ==, 10);
  g_assert_cmpfloat (r->response, ==, 32);
  g_assert_true (r->converged);
  r = &g_array_index (rta, TwResponseTime, 1);
  g_assert_cmpuint (r->task, ==, f->b);
  g_assert_cmpfloat (r->period, ==, 300);
  g_assert_cmpfloat (r->execution, ==, 55);
  g_assert_cmpfloat (r->blocking, ==, 0);
  g_assert_cmpfloat (r->response, ==, 77);
  g_assert_true (r->converged);

  rta_csv = tw_worst_case_analysis_to_csv (wc, f->trace);
  g_assert_cmpstr (rta_csv, ==,
                   "task,priority,period_ns,C_ns,B_ns,R_ns,converged\n"
                   "11,0,100,22,10,32,yes\n"
                   "12,1,300,55,0,77,yes\n");
}

static void
test_worst_case_overload (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TwWorstCase) wc = tw_worst_case_new ();
  g_autoptr(TwMeasurementTable) exec = tw_measurement_table_new (NULL);
  g_autoptr(GArray) rta = NULL;

  /* a uses 60 of every 100, b 50 of every 120: b cannot fit before its period. */
  append_rows (exec, f->a, (guint64[]) { 0, 100 }, (guint64[]) { 60, 60 }, 2);
  append_rows (exec, f->b, (guint64[]) { 0, 120 }, (guint64[]) { 50, 50 }, 2);
  tw_worst_case_add_column (wc, "execution", exec, -1, TW_WORST_CASE_ROLE_EXECUTION);
  rta = tw_worst_case_analyse (wc);
  g_assert_cmpuint (rta->len, ==, 2);
  g_assert_true (g_array_index (rta, TwResponseTime, 0).converged);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).response, ==, 60);
  g_assert_false (g_array_index (rta, TwResponseTime, 1).converged);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 1).response, >, 120);
}

/* The Fig. 4 terms measured from a trace (the job of build_user_job ()). */
static void
test_worst_case_evaluate (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(TwWorstCase) none = NULL;
  g_autoptr(GArray) rta = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
  wc = tw_worst_case_evaluate (f->trace, "job_start", "job_end", NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* a: running 47, irq time in the job 13, irq 5 (10) and softirq 1 (3) ran while a
   * was current, nobody was woken inside a handler */
  csv = tw_worst_case_to_csv (wc, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,execution,job_system_time,system_blocking_irq,"
                   "system_blocking_softirq,delay_until_wakeup\n"
                   "11,47,13,10,3,\n");
  rta = tw_worst_case_analyse (wc);
  g_assert_cmpuint (rta->len, ==, 1);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).execution, ==, 60);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).response, ==, 60);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).period, ==, 0);

  none = tw_worst_case_evaluate (f->trace, "mark", "job_start", NULL, NULL, NULL, &error);
  g_assert_null (none);
  g_assert_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_NO_DATA);
}

/* Espinosa 2003 §2 and Fig. 4: with a tracing cost of 2 ns an event, each length cell
 * loses its measurement's intermediate events × 2; job system time stays as measured. */
static void
test_worst_case_compensated (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = tw_worst_case_evaluator_new ("job_start", "job_end");
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(GArray) rta = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
  tw_worst_case_evaluator_set_event_cost (evaluator, 2);
  table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  wc = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (tw_worst_case_get_event_cost (wc), ==, 2);

  /* execution 47 − 4 × 2 (irq entry, switch out, softirq entry, mark); irq 5: 10 − 1 × 2
   * (x at 25 inside it); softirq 1: 3 − 0 */
  csv = tw_worst_case_to_csv (wc, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,execution,job_system_time,system_blocking_irq,"
                   "system_blocking_softirq,delay_until_wakeup\n"
                   "11,39,13,8,3,\n");
  rta = tw_worst_case_analyse (wc);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).execution, ==, 39 + 13);
  g_assert_cmpfloat (g_array_index (rta, TwResponseTime, 0).response, ==, 39 + 13);
}

/* Length − intermediate × cost, in the CSV beside the raw length, never below 0. */
static void
test_compensated_length (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) table = tw_measurement_table_new (NULL);
  TwMeasurementRow rows[] = {
    { f->a, 4, 10, 110, 100 },
    { f->b, 30, 10, 60, 50 },    /* 30 × 2.5 = 75 > 50 */
    { f->c, 0, 0, 7, 7 },
  };
  g_autofree char *raw = NULL;
  g_autofree char *csv = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    tw_measurement_table_append (table, &rows[i], NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  g_assert_cmpuint (tw_measurement_table_compensate (table, &rows[0]), ==, 100);
  raw = tw_measurement_table_to_csv (table, f->trace);
  g_assert_null (strstr (raw, "compensated"));

  tw_measurement_table_set_event_cost (table, 2.5);
  g_assert_cmpfloat (tw_measurement_table_get_event_cost (table), ==, 2.5);
  g_assert_cmpuint (tw_measurement_table_compensate (table, &rows[0]), ==, 90);
  g_assert_cmpuint (tw_measurement_table_compensate (table, &rows[1]), ==, 0);
  g_assert_cmpuint (tw_measurement_table_compensate (table, &rows[2]), ==, 7);
  csv = tw_measurement_table_to_csv (table, f->trace);
  g_assert_cmpstr (csv, ==,
                   "task,begin_ns,end_ns,length_ns,intermediate_events,lost,compensated_length_ns\n"
                   "11,10,110,100,4,0,90\n"
                   "12,10,60,50,30,0,0\n"
                   "13,0,7,7,0,0,7\n");
}

/* ------------------------------------------- tracing costs per event type */

static guint64
compensated (TwMeasurementTable *table,
             gsize               row)
{
  return tw_measurement_table_compensate (table, tw_measurement_table_get_row (table, row));
}

/* Per CPU: an irq handler counts the events on its CPU between entry and exit. */
static void
test_costs_per_cpu (Fixture       *f,
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
  t = evaluate_costed_system (f->trace, "irq-duration", "kind:irq_entry=3ns,kind:wakeup=5ns,x=7ns,*=1ns");

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
test_costs_whole_trace (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMeasurementTable) t = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 0, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 100, 0, f->k.wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 110, 1, f->x, f->c, 0, NULL);
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 3, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.irq_out, f->a, 3, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "R+");
  t = evaluate_costed_system (f->trace, "wakeup-latency", "x=7ns,kind:irq_entry=3ns,kind:switch=100ns,*=1ns");

  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t, 0)->intermediate_events, ==, 3);
  g_assert_cmpuint (compensated (t, 0), ==, 50 - (7 + 3 + 1));
}

#define JOB_COSTS "kind:irq_entry=3ns,kind:switch=11ns,kind:softirq_entry=5ns,mark=2ns,x=7ns,*=1ns"

/* Running outside handlers, its intermediate events are irq entry 20 (3), switch out
 * 40 (11), softirq entry 75 (5), mark 80 (2); while current, handlers too: + x 25 (7),
 * irq exit 30 (1), softirq exit 78 (1). */
static void
test_costs_user_metric (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwMetric) no_sys = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  g_autoptr(TwMetric) with_sys = tw_metric_new_user ("job+sys", "job_start", "job_end", TRUE);
  g_autoptr(TwMeasurementTable) t1 = NULL;
  g_autoptr(TwMeasurementTable) t2 = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
  t1 = evaluate_costed (f->trace, TW_EVALUATOR (no_sys), JOB_COSTS);
  t2 = evaluate_costed (f->trace, TW_EVALUATOR (with_sys), JOB_COSTS);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t1), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t1, 0)->length, ==, 47);
  g_assert_cmpuint (compensated (t1, 0), ==, 47 - (3 + 11 + 5 + 2));
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t2), ==, 1);
  g_assert_cmpuint (tw_measurement_table_get_row (t2, 0)->length, ==, 90);
  g_assert_cmpuint (compensated (t2, 0), ==, 90 - (3 + 11 + 5 + 2 + 7 + 1 + 1));
}

/* Fig. 4 with per-type costs: execution 47 − 21; irq 5 (20..30) loses x (7). */
static void
test_costs_worst_case (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = tw_worst_case_evaluator_new ("job_start", "job_end");
  g_autoptr(TwEventCosts) costs = tw_event_costs_parse (JOB_COSTS, NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwWorstCase) wc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *text = NULL;
  guint16 start, end;

  build_user_job (f, &start, &end);
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

/* ------------------------------------------------- the real ftrace trace */

typedef struct {
  guint   cpu;
  guint   number;
  guint64 length;
} Duration;

static int
compare_duration (const void *a,
                  const void *b)
{
  const Duration *x = a;
  const Duration *y = b;

  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  if (x->number != y->number)
    return x->number < y->number ? -1 : 1;
  return (x->length > y->length) - (x->length < y->length);
}

static guint64
parse_report_time (const char *text)
{
  /* "933.349600": seconds, then a fraction of up to 9 digits */
  const char *dot = strchr (text, '.');
  guint64 ns = g_ascii_strtoull (text, NULL, 10) * G_GUINT64_CONSTANT (1000000000);
  guint64 frac = 0;
  guint digits = 0;

  for (const char *p = dot ? dot + 1 : ""; g_ascii_isdigit (*p) && digits < 9; p++, digits++)
    frac = frac * 10 + (*p - '0');
  for (; digits < 9; digits++)
    frac *= 10;
  return ns + frac;
}

/* One line of `trace-cmd report`: "comm-pid [cpu] [flags] secs.frac: name: args".
 * Parsed by hand here, independently of the reader. */
static gboolean
parse_report_line (const char  *line,
                   guint       *cpu,
                   guint64     *time,
                   char       **name,
                   const char **args)
{
  const char *p = line;
  gboolean have_time = FALSE;

  /* the CPU: the first "[digits]" */
  for (;;)
    {
      const char *q;

      p = strchr (p, '[');
      if (p == NULL)
        return FALSE;
      for (q = p + 1; g_ascii_isdigit (*q); q++)
        ;
      if (q > p + 1 && *q == ']')
        {
          *cpu = (guint) g_ascii_strtoull (p + 1, NULL, 10);
          p = q + 1;
          break;
        }
      p++;
    }
  /* then whitespace-separated tokens: optional flags, "secs.frac:", "name:" */
  while (*p)
    {
      const char *start, *stop;

      while (*p == ' ' || *p == '\t')
        p++;
      start = p;
      while (*p && *p != ' ' && *p != '\t')
        p++;
      stop = p;
      if (stop == start || stop[-1] != ':')
        continue;
      if (!have_time && g_ascii_isdigit (*start) && memchr (start, '.', stop - start))
        {
          *time = parse_report_time (start);
          have_time = TRUE;
        }
      else if (have_time)
        {
          *name = g_strndup (start, stop - start - 1);
          while (*p == ' ')
            p++;
          *args = p;
          return TRUE;
        }
    }
  return FALSE;
}

/* Pairs entry/exit lines of the report per CPU and number, in this test's own way, with
 * no code shared with the reader. */
static GArray *
scan_report (const char *path,
             const char *entry_name,
             const char *exit_name,
             const char *number_key)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Duration));
  g_autofree char *key_eq = g_strdup_printf ("%s=", number_key);
  gsize length = 0;
  char *next;

  g_assert_true (g_file_get_contents (path, &text, &length, &error));
  g_assert_no_error (error);
  /* memchr, not g_strsplit: under ASan the strstr inside it rescans the whole text */
  for (char *line = text; line != NULL; line = next)
    {
      g_autofree char *name = NULL;
      g_autofree char *key = NULL;
      const char *args;
      const char *num;
      guint cpu = 0;
      guint64 time = 0;
      guint number;
      guint64 *begin;

      next = memchr (line, '\n', length - (line - text));
      if (next != NULL)
        *next++ = '\0';
      if (!parse_report_line (line, &cpu, &time, &name, &args))
        continue;
      if (strcmp (name, entry_name) != 0 && strcmp (name, exit_name) != 0)
        continue;
      num = strstr (args, key_eq);
      g_assert_nonnull (num);
      number = (guint) g_ascii_strtoull (num + strlen (key_eq), NULL, 10);
      key = g_strdup_printf ("%u/%u", cpu, number);
      if (strcmp (name, entry_name) == 0)
        {
          guint64 *t = g_new (guint64, 1);

          *t = time;
          g_hash_table_insert (open, g_steal_pointer (&key), t);
        }
      else if ((begin = g_hash_table_lookup (open, key)) != NULL)
        {
          Duration d = { cpu, number, time - *begin };

          g_array_append_val (out, d);
          g_hash_table_remove (open, key);
        }
    }
  g_array_sort (out, compare_duration);
  return out;
}

static void
check_against_report (const char *metric_name,
                      const char *entry_name,
                      const char *exit_name,
                      const char *number_key)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(TwReader) reader = tw_reader_registry_find ("ftrace-text");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(GArray) expected = NULL;
  g_autoptr(GArray) got = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }
  if (reader == NULL)
    {
      g_test_skip ("no reader named “ftrace-text” is registered (the ftrace text reader "
                   "is not merged yet)");
      return;
    }

  trace = tw_reader_registry_load_file (path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  table = evaluate (trace, metric_name);
  expected = scan_report (path, entry_name, exit_name, number_key);
  got = g_array_new (FALSE, FALSE, sizeof (Duration));
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    {
      Duration d = {
        (guint) tw_measurement_table_get_value (table, r, 2),
        (guint) tw_measurement_table_get_value (table, r, 0),
        tw_measurement_table_get_row (table, r)->length,
      };

      g_array_append_val (got, d);
    }
  g_array_sort (got, compare_duration);

  g_test_message ("%s: %u measurements", metric_name, expected->len);
  g_assert_cmpuint (expected->len, >, 100);
  g_assert_cmpuint (got->len, ==, expected->len);
  for (guint i = 0; i < got->len; i++)
    {
      g_assert_cmpuint (g_array_index (got, Duration, i).cpu, ==, g_array_index (expected, Duration, i).cpu);
      g_assert_cmpuint (g_array_index (got, Duration, i).number, ==, g_array_index (expected, Duration, i).number);
      g_assert_cmpuint (g_array_index (got, Duration, i).length, ==, g_array_index (expected, Duration, i).length);
    }
}

static void
test_ftrace_irq (void)
{
  check_against_report ("irq-duration", "irq_handler_entry", "irq_handler_exit", "irq");
}

static void
test_ftrace_softirq (void)
{
  check_against_report ("softirq-duration", "softirq_entry", "softirq_exit", "vec");
}

/* ---------------------------------------------------------------- the other metrics on
 * the real ftrace trace, each recomputed here from the report's lines, by rules written
 * out again in this test (docs/evaluators.md), sharing no code with tw-metrics.c. */

typedef struct {
  guint    cpu;
  guint64  time;
  char    *name;
  gint64   pid;       /* the logging task: comm-PID */
  gint64   prev;      /* sched_switch: prev_pid; -1 otherwise */
  gint64   next;      /* sched_switch: next_pid; sched_wakeup: the woken pid; -1 otherwise */
} ReportEvent;

/* A task as a number: the pid, except that the idle tasks (pid 0) are one per CPU. */
static gint64
report_task (gint64 pid,
             guint  cpu)
{
  return pid == 0 ? -1 - (gint64) cpu : pid;
}

/* "comm:pid [prio]" → pid (a comm may hold ':' itself, the pid follows the last one). */
static gint64
parse_comm_pid (const char *text,
                const char *end)
{
  const char *bracket = g_strstr_len (text, end - text, " [");
  const char *colon = NULL;

  g_assert_nonnull (bracket);
  for (const char *p = text; p < bracket; p++)
    if (*p == ':')
      colon = p;
  g_assert_nonnull (colon);
  return (gint64) g_ascii_strtoll (colon + 1, NULL, 10);
}

static GArray *
read_report_events (const char *path)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GArray *events = g_array_new (FALSE, FALSE, sizeof (ReportEvent));
  gsize length = 0;
  char *next;

  g_assert_true (g_file_get_contents (path, &text, &length, &error));
  g_assert_no_error (error);
  for (char *line = text; line != NULL; line = next)
    {
      ReportEvent ev = { 0, 0, NULL, -1, -1, -1 };
      const char *args;
      const char *bracket;
      const char *dash = NULL;

      next = memchr (line, '\n', length - (line - text));
      if (next != NULL)
        *next++ = '\0';
      if (!parse_report_line (line, &ev.cpu, &ev.time, &ev.name, &args))
        continue;
      /* the logging task: "comm-pid" before the CPU's bracket */
      bracket = strchr (line, '[');
      for (const char *p = line; p < bracket; p++)
        if (*p == '-')
          dash = p;
      g_assert_nonnull (dash);
      ev.pid = report_task (g_ascii_strtoll (dash + 1, NULL, 10), ev.cpu);
      if (strcmp (ev.name, "sched_switch") == 0)
        {
          const char *arrow = strstr (args, " ==> ");

          g_assert_nonnull (arrow);
          ev.prev = report_task (parse_comm_pid (args, arrow), ev.cpu);
          ev.next = report_task (parse_comm_pid (arrow + 5, arrow + strlen (arrow)), ev.cpu);
        }
      else if (strcmp (ev.name, "sched_wakeup") == 0)
        ev.next = parse_comm_pid (args, args + strlen (args));
      g_array_append_val (events, ev);
    }
  return events;
}

static void
report_event_clear (gpointer data)
{
  g_free (((ReportEvent *) data)->name);
}

/* One expected measurement: the task as report_task() numbers it. */
typedef struct {
  gint64  task;
  guint64 begin;
  guint64 end;
  guint64 length;
  guint64 intermediate;
} Expected;

static void
expect (GArray  *out,
        gint64   task,
        guint64  begin,
        guint64  end,
        guint64  length,
        guint64  intermediate)
{
  Expected e = { task, begin, end, length, intermediate };

  g_array_append_val (out, e);
}

/* The metric over the trace, compared row by row (both in trace order). */
static void
assert_metric_rows (TwTrace    *trace,
                    const char *metric_name,
                    GArray     *expected)
{
  g_autoptr(TwMeasurementTable) table = evaluate (trace, metric_name);

  g_test_message ("%s: %u measurements", metric_name, expected->len);
  g_assert_cmpuint (expected->len, >, 100);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    {
      const Expected *e = &g_array_index (expected, Expected, i);
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, i);
      const TwTask *task = tw_trace_get_task (trace, m->task);
      gint64 pid = (gint64) g_ascii_strtoll (task->source_id, NULL, 10);

      /* idle tasks are "0/CPU" in the store */
      if (pid == 0)
        pid = -1 - (gint64) g_ascii_strtoll (strchr (task->source_id, '/') + 1, NULL, 10);
      g_assert_cmpint (pid, ==, e->task);
      g_assert_cmpuint (m->begin, ==, e->begin);
      g_assert_cmpuint (m->end, ==, e->end);
      g_assert_cmpuint (m->length, ==, e->length);
      g_assert_cmpuint (m->intermediate_events, ==, e->intermediate);
    }
}

typedef struct {
  char       *path;
  TwTrace    *trace;
  GArray     *events;     /* ReportEvent */
} Report;

static gboolean
report_load (Report *r)
{
  g_autoptr(TwReader) reader = tw_reader_registry_find ("ftrace-text");
  g_autoptr(GError) error = NULL;

  r->path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  if (r->path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return FALSE;
    }
  if (reader == NULL)
    {
      g_test_skip ("no reader named “ftrace-text” is registered");
      return FALSE;
    }
  r->trace = tw_reader_registry_load_file (r->path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  r->events = read_report_events (r->path);
  g_array_set_clear_func (r->events, report_event_clear);
  /* every line of the report is one event of the store */
  g_assert_cmpuint (r->events->len, ==, tw_trace_get_n_events (r->trace));
  return TRUE;
}

static void
report_clear (Report *r)
{
  g_clear_pointer (&r->path, g_free);
  g_clear_object (&r->trace);
  g_clear_pointer (&r->events, g_array_unref);
}

#define REPORT_CPUS 64

static void
test_ftrace_run_slice (void)
{
  Report r = { 0 };
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Expected));
  gint64 current[REPORT_CPUS];
  guint64 since[REPORT_CPUS] = { 0 }, since_at[REPORT_CPUS] = { 0 }, count[REPORT_CPUS] = { 0 };
  gboolean valid[REPORT_CPUS] = { FALSE };

  if (!report_load (&r))
    return;
  for (guint i = 0; i < r.events->len; i++)
    {
      const ReportEvent *ev = &g_array_index (r.events, ReportEvent, i);

      g_assert_cmpuint (ev->cpu, <, REPORT_CPUS);
      if (strcmp (ev->name, "sched_switch") == 0)
        {
          /* a slice of a task that is not idle, whose switch in we saw */
          if (valid[ev->cpu] && current[ev->cpu] == ev->prev && ev->prev > 0)
            expect (expected, ev->prev, since[ev->cpu], ev->time, ev->time - since[ev->cpu],
                    count[ev->cpu] - since_at[ev->cpu] - 1);
          current[ev->cpu] = ev->next;
          since[ev->cpu] = ev->time;
          since_at[ev->cpu] = count[ev->cpu];
          valid[ev->cpu] = TRUE;
        }
      count[ev->cpu]++;
    }
  assert_metric_rows (r.trace, "run-slice", expected);
  report_clear (&r);
}

/* A switch whose prev is not the task the CPU last switched in, or that switches in a
 * task running on another CPU, lost a switch-out: the stale task no longer runs there
 * (its later wakeups count). @running: task → CPU + 1; @current: CPU → task. */
static void
report_switch (GHashTable *running,
               gint64     *current,
               guint       cpu,
               gint64      prev,
               gint64      next)
{
  gint64 stale = current[cpu];
  gint64 next_on;

  if (stale != G_MININT64 && stale != prev
      && GPOINTER_TO_UINT (g_hash_table_lookup (running, &stale)) == cpu + 1)
    g_hash_table_remove (running, &stale);
  if (GPOINTER_TO_UINT (g_hash_table_lookup (running, &prev)) == cpu + 1)
    g_hash_table_remove (running, &prev);
  next_on = GPOINTER_TO_UINT (g_hash_table_lookup (running, &next));
  if (next_on != 0 && next_on != cpu + 1 && current[next_on - 1] == next)
    current[next_on - 1] = G_MININT64;
  g_hash_table_insert (running, g_memdup2 (&next, sizeof next), GUINT_TO_POINTER (cpu + 1));
  current[cpu] = next;
}

static void
test_ftrace_wakeup_latency (void)
{
  Report r = { 0 };
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_autoptr(GHashTable) running = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GHashTable) woken = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  gint64 current[REPORT_CPUS];

  if (!report_load (&r))
    return;
  for (guint c = 0; c < REPORT_CPUS; c++)
    current[c] = G_MININT64;
  for (guint i = 0; i < r.events->len; i++)
    {
      const ReportEvent *ev = &g_array_index (r.events, ReportEvent, i);

      if (strcmp (ev->name, "sched_wakeup") == 0)
        {
          /* the first wakeup of a task that is not running counts */
          if (!g_hash_table_contains (running, &ev->next) &&
              !g_hash_table_contains (woken, &ev->next))
            {
              guint64 *at = g_new (guint64, 2);

              at[0] = ev->time;
              at[1] = i;
              g_hash_table_insert (woken, g_memdup2 (&ev->next, sizeof ev->next), at);
            }
        }
      else if (strcmp (ev->name, "sched_switch") == 0)
        {
          const guint64 *at;

          if ((at = g_hash_table_lookup (woken, &ev->next)) != NULL)
            {
              expect (expected, ev->next, at[0], ev->time, ev->time - at[0], i - at[1] - 1);
              g_hash_table_remove (woken, &ev->next);
            }
          report_switch (running, current, ev->cpu, ev->prev, ev->next);
        }
    }
  assert_metric_rows (r.trace, "wakeup-latency", expected);
  report_clear (&r);
}

static gboolean
is_handler (const char *name,
            gboolean   *entry)
{
  *entry = strcmp (name, "irq_handler_entry") == 0 || strcmp (name, "softirq_entry") == 0;
  return *entry || strcmp (name, "irq_handler_exit") == 0 || strcmp (name, "softirq_exit") == 0;
}

static void
test_ftrace_wakeup_handler (void)
{
  Report r = { 0 };
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Expected));
  guint depth[REPORT_CPUS] = { 0 };
  guint64 since[REPORT_CPUS] = { 0 }, since_at[REPORT_CPUS] = { 0 }, count[REPORT_CPUS] = { 0 };
  GArray *woken[REPORT_CPUS];

  if (!report_load (&r))
    return;
  for (guint c = 0; c < REPORT_CPUS; c++)
    woken[c] = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < r.events->len; i++)
    {
      const ReportEvent *ev = &g_array_index (r.events, ReportEvent, i);
      guint c = ev->cpu;
      gboolean entry;

      if (is_handler (ev->name, &entry))
        {
          /* hard and soft handlers nest in one count; the outermost is the one */
          if (entry && depth[c]++ == 0)
            {
              since[c] = ev->time;
              since_at[c] = count[c];
              g_array_set_size (woken[c], 0);
            }
          else if (!entry && depth[c] > 0 && --depth[c] == 0)
            for (guint w = 0; w < woken[c]->len; w++)
              expect (expected, g_array_index (woken[c], gint64, w), since[c], ev->time,
                      ev->time - since[c], count[c] - since_at[c] - 1);
        }
      else if (strcmp (ev->name, "sched_wakeup") == 0 && depth[c] > 0)
        g_array_append_val (woken[c], ev->next);
      count[c]++;
    }
  for (guint c = 0; c < REPORT_CPUS; c++)
    g_array_unref (woken[c]);
  assert_metric_rows (r.trace, "wakeup-handler", expected);
  report_clear (&r);
}

static void
test_ftrace_inter_arrival_jitter (void)
{
  Report r = { 0 };
  g_autoptr(GArray) arrivals = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_autoptr(GArray) jitters = g_array_new (FALSE, FALSE, sizeof (Expected));
  gboolean have_prev = FALSE, have_delta = FALSE;
  guint64 prev = 0, prev_at = 0, prev_delta = 0;

  if (!report_load (&r))
    return;
  for (guint i = 0; i < r.events->len; i++)
    {
      const ReportEvent *ev = &g_array_index (r.events, ReportEvent, i);

      if (strcmp (ev->name, "sched_wakeup") != 0)
        continue;
      if (have_prev)
        {
          guint64 delta = ev->time - prev;

          expect (arrivals, ev->next, prev, ev->time, delta, i - prev_at - 1);
          if (have_delta)
            expect (jitters, ev->next, prev, ev->time,
                    delta > prev_delta ? delta - prev_delta : prev_delta - delta, i - prev_at - 1);
          prev_delta = delta;
          have_delta = TRUE;
        }
      prev = ev->time;
      prev_at = i;
      have_prev = TRUE;
    }
  assert_metric_rows (r.trace, "inter-arrival:sched_wakeup", arrivals);
  assert_metric_rows (r.trace, "jitter:kind:wakeup", jitters);
  report_clear (&r);
}

/* response-time with START, END = softirq_entry, softirq_exit: per logging task, a
 * START while a job is open queues the next one, which runs from that END. */
static void
test_ftrace_response_time (void)
{
  Report r = { 0 };
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_autoptr(GHashTable) jobs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                      (GDestroyNotify) g_array_unref);

  if (!report_load (&r))
    return;
  for (guint i = 0; i < r.events->len; i++)
    {
      const ReportEvent *ev = &g_array_index (r.events, ReportEvent, i);
      GArray *open = g_hash_table_lookup (jobs, &ev->pid);
      guint64 start[2] = { ev->time, i };

      if (strcmp (ev->name, "softirq_entry") == 0)
        {
          if (open == NULL)
            {
              open = g_array_new (FALSE, FALSE, sizeof start);
              g_hash_table_insert (jobs, g_memdup2 (&ev->pid, sizeof ev->pid), open);
            }
          g_assert_cmpuint (open->len, <, 8);  /* the metric keeps at most 8 queued */
          g_array_append_val (open, start);
        }
      else if (strcmp (ev->name, "softirq_exit") == 0 && open != NULL && open->len > 0)
        {
          const guint64 *job = &g_array_index (open, guint64, 0);

          expect (expected, ev->pid, job[0], ev->time, ev->time - job[0], i - job[1] - 1);
          g_array_remove_index (open, 0);
        }
    }
  assert_metric_rows (r.trace, "response-time:softirq_entry,softirq_exit", expected);
  report_clear (&r);
}

/* ---------------------------------------------------------------- every built-in metric
 * on a small CSV trace, against values computed by hand (in the comments). */

static const char small_csv[] =
  "time_ns,cpu,task,event,kind,next,prev_state,target,irq,vec\n"
  "100,0,a,switch,,b,R,,,\n"            /* E0  cpu0: a → b */
  "110,1,c,switch,,d,S,,,\n"            /* E1  cpu1: c → d */
  "120,0,b,job_start,user,,,,,\n"       /* E2 */
  "130,0,b,irq_entry,,,,,5,\n"          /* E3 */
  "135,0,b,wakeup,,,,c,,\n"             /* E4  c woken inside irq 5 */
  "140,0,b,softirq_entry,,,,,,3\n"      /* E5 */
  "150,0,b,softirq_exit,,,,,,3\n"       /* E6 */
  "160,0,b,irq_exit,,,,,5,\n"           /* E7 */
  "170,1,d,tick,user,,,,,\n"            /* E8 */
  "200,0,b,switch,,c,R,,,\n"            /* E9  b preempted by c */
  "210,1,d,tick,,,,,,\n"                /* E10 */
  "230,0,c,switch,,b,S,,,\n"            /* E11 */
  "250,0,b,job_end,user,,,,,\n"         /* E12 */
  "260,1,d,tick,,,,,,\n"                /* E13 */
  "270,1,d,switch,,a,S,,,\n";           /* E14 */

static guint32
task_by_id (TwTrace    *trace,
            const char *id)
{
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    if (g_strcmp0 (tw_test_get_task_source_id (trace, t), id) == 0)
      return t;
  g_assert_not_reached ();
}

static void
test_csv_hand_computed (void)
{
  g_autofree char *path = tw_test_write_temp_file ("small.csv", small_csv, -1);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMetric) user = NULL;
  g_autoptr(TwMetric) user_own = NULL;
  TwMeasurementTable *t;
  guint32 b, c, d;

  trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 15);
  b = task_by_id (trace, "b");
  c = task_by_id (trace, "c");
  d = task_by_id (trace, "d");

  /* irq 5: E3 → E7 on cpu0, with E4, E5, E6 in between */
  t = evaluate (trace, "irq-duration");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, b, 130, 160, 30, 3);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 0), ==, 5);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 1), ==, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 2), ==, 0);
  g_object_unref (t);

  /* vector 3 nested in irq 5: E5 → E6, nothing between, depth 1 of softirqs */
  t = evaluate (trace, "softirq-duration");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, b, 140, 150, 10, 0);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 0), ==, 3);
  g_object_unref (t);

  /* cpu0: b 100 → 200 (E2..E7 between), c 200 → 230; cpu1: d 110 → 270 (three ticks);
   * the first slices of a and c have no known start */
  t = evaluate (trace, "run-slice");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 3);
  assert_row (t, 0, b, 100, 200, 100, 6);
  assert_row (t, 1, c, 200, 230, 30, 0);
  assert_row (t, 2, d, 110, 270, 160, 3);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 2, 0), ==, 1);
  g_object_unref (t);

  /* c woken at E4, switched in at E9: E5..E8 between, over the whole trace */
  t = evaluate (trace, "wakeup-latency");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, c, 135, 200, 65, 4);
  g_object_unref (t);

  /* the outermost handler around the wakeup: irq 5, E3 → E7 */
  t = evaluate (trace, "wakeup-handler");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, c, 130, 160, 30, 3);
  g_object_unref (t);

  /* b's job: E2 → E12, nine events between */
  t = evaluate (trace, "response-time:job_start,job_end");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, b, 120, 250, 130, 9);
  g_object_unref (t);

  /* ticks at 170 (E8), 210 (E10), 260 (E13): Δ 40 and 50, jitter 10 */
  t = evaluate (trace, "inter-arrival:tick");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 2);
  assert_row (t, 0, d, 170, 210, 40, 1);
  assert_row (t, 1, d, 210, 260, 50, 2);
  g_object_unref (t);
  t = evaluate (trace, "jitter:tick");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, d, 210, 260, 10, 2);
  g_object_unref (t);

  /* b's job 120 → 250: runs 120–130, irq+softirq 130–160, runs 160–200, preempted by c
   * 200–230, runs 230–250. Own time 10 + 40 + 20 = 70, handlers 30, preempted 30.
   * Intermediate events with system time: on cpu0 while b was current, E3..E7 and the
   * switch out E9 = 6; without: while it ran outside handlers, E3 (the entry that
   * interrupts it) and E9 = 2. */
  user = tw_metric_new_user ("job", "job_start", "job_end", TRUE);
  user_own = tw_metric_new_user ("job-own", "job_start", "job_end", FALSE);
  t = tw_evaluator_evaluate (TW_EVALUATOR (user), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, b, 120, 250, 130, 6);
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 0), ==, 70);  /* running_ns */
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 1), ==, 30);  /* irq_ns */
  g_assert_cmpfloat (tw_measurement_table_get_value (t, 0, 2), ==, 30);  /* preempted_ns */
  g_object_unref (t);
  t = tw_evaluator_evaluate (TW_EVALUATOR (user_own), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 1);
  assert_row (t, 0, b, 120, 250, 70, 2);
  g_object_unref (t);
}

/* measured:EVENT takes the measurement an event carries (a target's monitor made it). */
static void
test_measured (void)
{
  static const TwFieldSpec specs[] = {
    { "length_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "begin_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "end_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "intermediate_events", TW_FIELD_U32, TW_FIELD_FLAG_NONE },
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwMeasurementTable) t = NULL;
  guint16 type = tw_trace_add_event_type (trace, "measurement:job", "measurement", TW_EVENT_KIND_USER,
                                          specs, G_N_ELEMENTS (specs), NULL);
  guint16 other = tw_trace_add_event_type (trace, "other", NULL, TW_EVENT_KIND_USER, NULL, 0, NULL);
  guint32 task = tw_trace_add_task (trace, "sensor:7:job", "job", 7, -1);
  const TwEventType *info = tw_trace_get_event_type (trace, type);
  const guint64 rows[][4] = { { 30, 100, 150, 2 }, { 45, 200, 260, 0 } };

  tw_trace_begin_append (trace);
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      guint8 payload[64] = { 0 };

      for (guint f = 0; f < 4; f++)
        {
          TwValue v = { .type = info->fields[f].type, .u = rows[r][f] };

          tw_event_type_set_field (info, payload, f, &v);
        }
      tw_trace_append (trace, rows[r][2], TW_CPU_NONE, type, task, 0, payload);
      tw_trace_append (trace, rows[r][2] + 1, TW_CPU_NONE, other, task, 0, NULL);
    }
  tw_trace_end_append (trace);
  t = evaluate (trace, "measured:measurement:job");
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 2);
  assert_row (t, 0, task, 100, 150, 30, 2);
  assert_row (t, 1, task, 200, 260, 45, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/tw/evaluators/metrics/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("irq-duration", test_irq_duration);
  ADD ("run-slice", test_run_slice);
  ADD ("wakeup-latency", test_wakeup_latency);
  ADD ("repaired-switches", test_repaired_switches);
  ADD ("lost-column", test_lost_column);
  ADD ("wakeup-handler", test_wakeup_handler);
  ADD ("response-time", test_response_time);
  ADD ("inter-arrival-jitter", test_inter_arrival_jitter);
  ADD ("user-metric", test_user_metric);
  ADD ("activation-subject", test_activation_subject);
  ADD ("user-metric-overrun", test_user_metric_overrun);
  ADD ("required-events", test_required_events);
  ADD ("one-pass-csv", test_one_pass_and_csv);
  ADD ("worst-case", test_worst_case);
  ADD ("worst-case-overload", test_worst_case_overload);
  ADD ("worst-case-evaluate", test_worst_case_evaluate);
  ADD ("worst-case-compensated", test_worst_case_compensated);
  ADD ("compensated-length", test_compensated_length);
  ADD ("costs-per-cpu", test_costs_per_cpu);
  ADD ("costs-whole-trace", test_costs_whole_trace);
  ADD ("costs-user-metric", test_costs_user_metric);
  ADD ("costs-worst-case", test_costs_worst_case);
#undef ADD
  g_test_add_func ("/tw/evaluators/metrics/bad-names", test_bad_names);
  g_test_add_func ("/tw/evaluators/metrics/csv-hand-computed", test_csv_hand_computed);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-irq", test_ftrace_irq);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-softirq", test_ftrace_softirq);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-run-slice", test_ftrace_run_slice);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-wakeup-latency", test_ftrace_wakeup_latency);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-wakeup-handler", test_ftrace_wakeup_handler);
  g_test_add_func ("/tw/evaluators/metrics/measured", test_measured);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-inter-arrival-jitter",
                   test_ftrace_inter_arrival_jitter);
  g_test_add_func ("/tw/evaluators/metrics/ftrace-response-time", test_ftrace_response_time);

  return g_test_run ();
}
