/* test-explain-path.c: an explanation becomes the timeline's highlighted path: each
 * stretch on the row of whoever had the time, each wakeup a link from the waker's row,
 * on hand-made traces and against the simulator's ground truth
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-explain-path.h"
#include "tw-test-utils.h"

/* The time of @role's segments on @place, within [lo, hi). */
static guint64
segment_time (const TwTimelineHighlight *h,
              TwTimelinePlace            place,
              TwTimelineHighlightRole    role,
              guint64                    lo,
              guint64                    hi)
{
  guint64 sum = 0;

  for (guint i = 0; i < h->segments->len; i++)
    {
      const TwTimelineHighlightSegment *s = &g_array_index (h->segments, TwTimelineHighlightSegment, i);
      guint64 b = MAX (s->begin, lo), e = MIN (s->end, hi);

      if (s->role == role && tw_timeline_place_equal (s->place, place) && e > b)
        sum += e - b;
    }
  return sum;
}

/* The time of @role's segments on any CPU's row, within [lo, hi). */
static guint64
cpu_segment_time (const TwTimelineHighlight *h,
                  TwTimelineHighlightRole    role,
                  guint64                    lo,
                  guint64                    hi)
{
  guint64 sum = 0;

  for (guint cpu = 0; cpu < 64; cpu++)
    sum += segment_time (h, tw_timeline_place_cpu (cpu), role, lo, hi);
  return sum;
}

static void
assert_link (const TwTimelineHighlight *h,
             guint                      index,
             TwTimelinePlace            from,
             TwTimelinePlace            to,
             guint64                    time)
{
  const TwTimelineHighlightLink *link;

  g_assert_cmpuint (index, <, h->links->len);
  link = &g_array_index (h->links, TwTimelineHighlightLink, index);
  g_assert_true (tw_timeline_place_equal (link->from, from));
  g_assert_true (tw_timeline_place_equal (link->to, to));
  g_assert_cmpuint (link->time, ==, time);
}

typedef struct {
  TwTrace         *trace;
  TwTestKindTypes  k;
  guint32          idle0;
  guint32          idle1;
  guint32          a;
  guint32          b;
  guint32          c;
} Tasks;

static void
add_tasks (Tasks *t)
{
  t->trace = tw_trace_new ();
  tw_test_add_kind_types (t->trace, &t->k);
  t->idle0 = tw_trace_add_task (t->trace, "0/0", "swapper/0", 0, 0);
  t->idle1 = tw_trace_add_task (t->trace, "0/1", "swapper/1", 0, 0);
  tw_trace_set_task_flags (t->trace, t->idle0, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (t->trace, t->idle1, TW_TASK_FLAG_IDLE);
  t->a = tw_trace_add_task (t->trace, "11", "a", 11, 11);
  t->b = tw_trace_add_task (t->trace, "12", "b", 12, 12);
  t->c = tw_trace_add_task (t->trace, "13", "c", 13, 13);
}

/* a sleeps from 50; c is woken at 80 inside irq 5 on cpu1; c wakes a at 100 while b
 * runs on cpu0; a runs 130..160. The path is one line: from cpu1's row (the handler,
 * tinted 75..80) to c's at 80, along c's row to 100, to a's row; b's row is tinted
 * while a waited for it. */
static void
test_chain (void)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  g_autoptr(TwTimelineHighlight) h = NULL;
  TwMeasurementRow row;
  Tasks t;

  add_tasks (&t);
  tw_test_append_switch (t.trace, t.k.sw, 10, 0, t.idle0, t.a, "R");
  tw_test_append_switch (t.trace, t.k.sw, 50, 0, t.a, t.b, "S");
  tw_trace_append (t.trace, 75, 1, t.k.irq_in, t.idle1, 5, NULL);
  tw_trace_append (t.trace, 80, 1, t.k.wake, t.idle1, t.c, NULL);
  tw_trace_append (t.trace, 85, 1, t.k.irq_out, t.idle1, 5, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 90, 1, t.idle1, t.c, "R");
  tw_trace_append (t.trace, 100, 1, t.k.wake, t.c, t.a, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 130, 0, t.b, t.a, "R+");
  tw_test_append_switch (t.trace, t.k.sw, 160, 0, t.a, t.b, "S");
  model = tw_test_new_state_model (t.trace);
  row = (TwMeasurementRow) { t.a, 0, 100, 160, 60 };
  e = tw_explain_measurement (model, &row);
  h = tw_explain_path_new_highlight (e, t.trace);

  g_assert_true (tw_timeline_place_equal (h->measured, tw_timeline_place_task (t.a)));
  g_assert_cmpuint (h->begin, ==, 100);
  g_assert_cmpuint (h->end, ==, 160);
  g_assert_cmpuint (segment_time (h, tw_timeline_place_task (t.b), TW_TIMELINE_HIGHLIGHT_CULPRIT, 0, 1000), ==, 30);
  g_assert_cmpuint (segment_time (h, tw_timeline_place_cpu (1), TW_TIMELINE_HIGHLIGHT_IRQ, 0, 1000), ==, 5);
  g_assert_cmpuint (h->links->len, ==, 2);
  assert_link (h, 0, tw_timeline_place_task (t.c), tw_timeline_place_task (t.a), 100);
  assert_link (h, 1, tw_timeline_place_cpu (1), tw_timeline_place_task (t.c), 80);
  {
    guint64 lo, hi;

    tw_timeline_highlight_get_bounds (h, &lo, &hi);
    g_assert_cmpuint (lo, ==, 75);
    g_assert_cmpuint (hi, ==, 160);
  }
  g_object_unref (t.trace);
}

/* One CPU. c locks mutex 7; a blocks on it; b runs meanwhile (an inversion); c unlocks
 * and a runs. Blocking is tinted on the owner's row, the inversion on b's too. */
static void
test_mutex (void)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  g_autoptr(TwTimelineHighlight) h = NULL;
  TwMeasurementRow row;
  guint16 lock, unlock, wait;
  Tasks t;

  add_tasks (&t);
  lock = tw_test_add_simple_type (t.trace, "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  unlock = tw_test_add_simple_type (t.trace, "mutex_unlock", TW_EVENT_KIND_MUTEX_UNLOCK);
  wait = tw_test_add_simple_type (t.trace, "mutex_wait", TW_EVENT_KIND_MUTEX_WAIT);
  tw_test_append_switch (t.trace, t.k.sw, 10, 0, t.idle0, t.c, "R");
  tw_trace_append (t.trace, 20, 0, lock, t.c, 7, NULL);
  tw_trace_append (t.trace, 38, 0, t.k.wake, t.c, t.a, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 40, 0, t.c, t.a, "R+");
  tw_trace_append (t.trace, 50, 0, wait, t.a, 7, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 55, 0, t.a, t.c, "S");
  tw_trace_append (t.trace, 60, 0, t.k.wake, t.c, t.b, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 60, 0, t.c, t.b, "R+");
  tw_test_append_switch (t.trace, t.k.sw, 80, 0, t.b, t.c, "S");
  tw_trace_append (t.trace, 90, 0, unlock, t.c, 7, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 95, 0, t.c, t.a, "R+");
  tw_trace_append (t.trace, 96, 0, lock, t.a, 7, NULL);
  tw_test_append_switch (t.trace, t.k.sw, 120, 0, t.a, t.c, "S");
  model = tw_test_new_state_model (t.trace);
  row = (TwMeasurementRow) { t.a, 0, 40, 100, 60 };
  e = tw_explain_measurement (model, &row);
  h = tw_explain_path_new_highlight (e, t.trace);

  /* blocked 15 ns, and the 20 ns of inversion, on the owner's row */
  g_assert_cmpuint (segment_time (h, tw_timeline_place_task (t.c), TW_TIMELINE_HIGHLIGHT_BLOCKED, 0, 1000), ==, 15 + 20);
  g_assert_cmpuint (segment_time (h, tw_timeline_place_task (t.b), TW_TIMELINE_HIGHLIGHT_CULPRIT, 0, 1000), ==, 20);
  /* c ran 5 ns while a waited after the unlock */
  g_assert_cmpuint (segment_time (h, tw_timeline_place_task (t.c), TW_TIMELINE_HIGHLIGHT_CULPRIT, 0, 1000), ==, 5);
  g_assert_cmpuint (segment_time (h, tw_timeline_place_task (t.a), TW_TIMELINE_HIGHLIGHT_BLOCKED, 0, 1000), ==, 0);
  g_object_unref (t.trace);
}

/* Every task's worst job of a simulated dump: the time tinted on each other task's row
 * is what the simulator counted of that task preempting it, running while it waited, or
 * inverting its priority; the handlers' time is tinted on the CPU's row; the release is
 * a link from the timer's CPU row at the wakeup, with the handler tinted up to it. */
static void
test_ground_truth (void)
{
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system ("response-time", NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autofree char *path = NULL;
  TwSimulatorOptions options;
  guint checked = 0;

  tw_simulator_options_init (&options);
  options.max_events = 100000;
  options.irq_mean_interval_us = 500;
  bytes = tw_simulator_generate (&options, &truth, &error);
  g_assert_no_error (error);
  path = tw_test_write_temp_file ("path-truth.shark", g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes));
  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i + 1 < truth->n_tasks; i++)
    {
      const TwSimulatorJobTruth *job = &truth->tasks[i].worst_job;
      guint32 task = tw_test_find_task_by_pid (trace, truth->tasks[i].pid);
      const TwMeasurementRow *row = NULL;
      g_autoptr(TwExplanation) e = NULL;
      g_autoptr(TwTimelineHighlight) h = NULL;
      const TwExplainStep *wakeup, *release;
      guint64 interrupted = 0, idle = 0;

      if (job->end_ns == 0)
        continue;
      for (gsize r = 0; r < tw_measurement_table_get_n_rows (table) && row == NULL; r++)
        if (tw_measurement_table_get_row (table, r)->task == task
            && tw_measurement_table_get_row (table, r)->begin == job->begin_ns)
          row = tw_measurement_table_get_row (table, r);
      g_assert_nonnull (row);
      e = tw_explain_measurement_in_window (trace, row, NULL);
      h = tw_explain_path_new_highlight (e, trace);

      g_assert_true (tw_timeline_place_equal (h->measured, tw_timeline_place_task (task)));
      g_assert_cmpuint (h->begin, ==, job->begin_ns);
      g_assert_cmpuint (h->end, ==, job->end_ns);
      for (guint k = 0; k < truth->n_tasks; k++)
        {
          guint32 other = tw_test_find_task_by_pid (trace, truth->tasks[k].pid);
          guint64 expected = job->preempted_ns[k] + job->waiting_ns[k] + job->inversion_ns[k];

          /* the idle task's time is the CPU's, tinted on its row */
          if (tw_trace_get_task (trace, other)->flags & TW_TASK_FLAG_IDLE)
            {
              idle += expected;
              continue;
            }
          g_assert_cmpuint (segment_time (h, tw_timeline_place_task (other), TW_TIMELINE_HIGHLIGHT_CULPRIT,
                                          h->begin, h->end), ==, expected);
        }
      g_assert_cmpuint (cpu_segment_time (h, TW_TIMELINE_HIGHLIGHT_CULPRIT, h->begin, h->end), ==, idle);
      for (guint irq = 0; irq < TW_SIMULATOR_MAX_IRQ; irq++)
        interrupted += job->interrupted_ns[irq];
      g_assert_cmpuint (cpu_segment_time (h, TW_TIMELINE_HIGHLIGHT_IRQ, h->begin, h->end), ==, interrupted);

      /* released by the timer: its handler's wakeup, from the CPU's row */
      g_assert_cmpuint (e->path->len, ==, 2);
      wakeup = &g_array_index (e->path, TwExplainStep, 0);
      release = &g_array_index (e->path, TwExplainStep, 1);
      g_assert_cmpuint (h->links->len, ==, 1);
      assert_link (h, 0, tw_timeline_place_cpu (wakeup->cpu), tw_timeline_place_task (task), wakeup->time);
      g_assert_cmpuint (segment_time (h, tw_timeline_place_cpu (wakeup->cpu), TW_TIMELINE_HIGHLIGHT_IRQ,
                                      release->time, wakeup->time), ==, wakeup->time - release->time);
      checked++;
    }
  g_assert_cmpuint (checked, ==, truth->n_tasks - 1);
  g_remove (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tw/app/explain-path/chain", test_chain);
  g_test_add_func ("/tw/app/explain-path/mutex", test_mutex);
  g_test_add_func ("/tw/app/explain-path/ground-truth", test_ground_truth);
  return g_test_run ();
}
