/* test-state-model.c: per-CPU and per-task intervals
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"
#include "tw-state-model-private.h"

#include <math.h>
#include <string.h>

typedef struct {
  TwTrace *trace;
  guint16  sw;
  guint16  wake;
  guint16  irq_in;
  guint16  irq_out;
  guint16  soft_in;
  guint16  soft_out;
  guint16  lost;
  guint32  idle;
  guint32  a;
  guint32  b;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->trace = tw_trace_new ();
  f->sw = tw_test_add_switch_type (f->trace);
  f->wake = tw_test_add_simple_type (f->trace, "wakeup", TW_EVENT_KIND_WAKEUP);
  f->irq_in = tw_test_add_simple_type (f->trace, "irq_entry", TW_EVENT_KIND_IRQ_ENTRY);
  f->irq_out = tw_test_add_simple_type (f->trace, "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  f->soft_in = tw_test_add_simple_type (f->trace, "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY);
  f->soft_out = tw_test_add_simple_type (f->trace, "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT);
  f->lost = tw_lost_events_add_type (f->trace, "lost_events", NULL);
  f->idle = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (f->trace, f->idle, TW_TASK_FLAG_IDLE);
  f->a = tw_trace_add_task (f->trace, "1", "a", 1, 1);
  f->b = tw_trace_add_task (f->trace, "2", "b", 2, 2);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->trace);
}

static TwStateModel *
build (Fixture *f)
{
  g_autoptr(GError) error = NULL;
  TwStateModel *model = tw_state_model_new (f->trace);

  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  return model;
}

static void
test_switches (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwRunInterval *runs;
  const TwTaskInterval *states;
  gsize n;

  /* idle → a at 100; a preempted (R) for b at 200; b blocks (S) → idle at 300;
   * a woken at 350 is already ready; idle → a at 400; trace ends at 500. */
  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, "R");
  tw_test_append_switch (f->trace, f->sw, 200, 0, f->a, f->b, "R+");
  tw_test_append_switch (f->trace, f->sw, 300, 0, f->b, f->idle, "S");
  tw_trace_append (f->trace, 350, 0, f->wake, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 400, 0, f->idle, f->a, "R");
  tw_trace_append (f->trace, 450, 0, f->wake, f->a, f->b, NULL);
  tw_trace_append (f->trace, 500, 0, f->irq_in, f->a, 1, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (runs[0].start, ==, 100);
  g_assert_cmpuint (runs[0].end, ==, 200);
  g_assert_cmpuint (runs[0].task, ==, f->a);
  g_assert_cmpuint (runs[2].task, ==, f->idle);
  g_assert_cmpuint (runs[3].start, ==, 400);
  g_assert_cmpuint (runs[3].end, ==, 500);

  g_assert_cmpuint (tw_state_model_get_running_task (model, 0, 250), ==, f->b);
  g_assert_cmpuint (tw_state_model_get_running_task (model, 0, 50), ==, TW_TASK_NONE);
  g_assert_cmpuint (tw_state_model_get_running_task (model, 7, 250), ==, TW_TASK_NONE);

  states = tw_state_model_get_task_states (model, f->a, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (states[0].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (states[0].cpu, ==, 0);
  g_assert_cmpuint (states[1].state, ==, TW_TASK_STATE_READY);
  g_assert_cmpuint (states[1].start, ==, 200);
  g_assert_cmpuint (states[1].end, ==, 400);
  g_assert_cmpuint (states[2].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, f->a), ==, 100 + 100);

  g_assert_cmpint (tw_state_model_get_task_state (model, f->b, 320), ==, TW_TASK_STATE_BLOCKED);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->b, 460), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->b, 10), ==, TW_TASK_STATE_UNKNOWN);

  /* marks: the wakeups of a (350) and b (450), on the woken task */
  {
    const TwTaskMark *marks = tw_state_model_get_task_marks (model, f->b, &n);

    g_assert_cmpuint (n, ==, 1);
    g_assert_cmpuint (marks[0].time, ==, 450);
    g_assert_cmpuint (marks[0].index, ==, 5);
  }

  /* the idle task has no state rows */
  tw_state_model_get_task_states (model, f->idle, &n);
  g_assert_cmpuint (n, ==, 0);

  /* a consistent trace needs no repair */
  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 0), ==, 0);
  g_assert_null (tw_state_model_get_cpu_marks (model, 0, &n));
  g_assert_cmpuint (n, ==, 0);
}

static void
test_lost_switch_out (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwTaskInterval *states;
  gsize n;

  /* a runs on CPU 0 from 100; the trace lost its switch-out: at 300 the CPU switches
   * from b (not a) to idle. a stops running at 300, state unknown after. */
  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 300, 0, f->b, f->idle, "S");
  tw_test_append_switch (f->trace, f->sw, 900, 0, f->idle, f->idle, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  states = tw_state_model_get_task_states (model, f->a, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (states[0].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (states[0].end, ==, 300);
  g_assert_cmpuint (states[1].state, ==, TW_TASK_STATE_UNKNOWN);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, f->a), ==, 200);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 500), ==, TW_TASK_STATE_UNKNOWN);
}

static void
append_switch_state (Fixture  *f,
                     guint64   time,
                     guint32   prev,
                     guint32   next,
                     guint32   state_string)
{
  const TwEventType *t = tw_trace_get_event_type (f->trace, f->sw);
  g_autofree guint8 *payload = g_malloc0 (t->payload_size);
  TwValue state = { .type = TW_FIELD_STRING, .str = state_string };

  tw_event_type_set_field (t, payload, 0, &state);
  tw_trace_append (f->trace, time, 0, f->sw, prev, next, payload);
}

/* The model reads the state the reader gave the prev_state string, never its letters:
 * "S" interned as a plain string says nothing (ready), and any spelling a source has
 * means what its reader said. */
static void
test_prev_state_from_reader (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  guint32 plain_s = tw_trace_intern_string (f->trace, "S");
  guint32 waits = tw_trace_intern_task_state (f->trace, "waits-for-io", TW_TASK_STATE_BLOCKED);
  guint32 gone = tw_trace_intern_task_state (f->trace, "R", TW_TASK_STATE_DEAD);

  g_assert_cmpint (tw_trace_get_string_task_state (f->trace, plain_s), ==, TW_TASK_STATE_UNKNOWN);
  g_assert_cmpint (tw_trace_get_string_task_state (f->trace, waits), ==, TW_TASK_STATE_BLOCKED);
  append_switch_state (f, 100, f->idle, f->a, plain_s);
  append_switch_state (f, 200, f->a, f->b, plain_s);
  append_switch_state (f, 300, f->b, f->a, waits);
  append_switch_state (f, 400, f->a, f->idle, gone);
  tw_test_append_switch (f->trace, f->sw, 900, 0, f->idle, f->idle, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 250), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->b, 350), ==, TW_TASK_STATE_BLOCKED);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 450), ==, TW_TASK_STATE_UNKNOWN);
}

/* The repair is counted and marked on the CPU, and the task's later wakeup counts:
 * before, a stayed "running" for the rest of the trace and its wakeups were ignored. */
static void
test_stale_run_repair (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwCpuMark *marks;
  const TwRunInterval *runs;
  gsize n;

  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 300, 0, f->b, f->idle, "S");
  tw_trace_append (f->trace, 400, 1, f->wake, TW_TASK_NONE, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 450, 1, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 900, 1, f->a, f->idle, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 0), ==, 1);
  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 1), ==, 0);
  marks = tw_state_model_get_cpu_marks (model, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (marks[0].time, ==, 300);
  g_assert_cmpuint (marks[0].index, ==, 1);
  g_assert_cmpuint (marks[0].task, ==, f->a);
  g_assert_cmpuint (marks[0].kind, ==, TW_CPU_MARK_STALE_RUN);

  /* a: running on 0 until the repair, unknown, woken (ready), running on 1 */
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 350), ==, TW_TASK_STATE_UNKNOWN);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 420), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 500), ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, f->a), ==, 200 + 450);
  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (runs[0].task, ==, f->a);
  g_assert_cmpuint (runs[0].end, ==, 300);
}

/* a runs on CPU 0; at 200 it is switched in on CPU 1 without leaving CPU 0: its run on
 * CPU 0 ends there (the repair is CPU 0's); CPU 0's late switch-out of a at 250 leaves
 * a running on CPU 1. */
static void
test_double_run_repair (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwCpuMark *marks;
  const TwRunInterval *runs;
  const TwTaskInterval *states;
  gsize n;

  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 200, 1, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 250, 0, f->a, f->b, "R");
  tw_test_append_switch (f->trace, f->sw, 600, 1, f->a, f->idle, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 0), ==, 1);
  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 1), ==, 0);
  marks = tw_state_model_get_cpu_marks (model, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (marks[0].time, ==, 200);
  g_assert_cmpuint (marks[0].index, ==, 1);
  g_assert_cmpuint (marks[0].task, ==, f->a);
  g_assert_cmpuint (marks[0].kind, ==, TW_CPU_MARK_DOUBLE_RUN);

  /* CPU 0: a until 200, nothing known until b at 250 */
  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (runs[0].task, ==, f->a);
  g_assert_cmpuint (runs[0].end, ==, 200);
  g_assert_cmpuint (runs[1].task, ==, f->b);
  g_assert_cmpuint (runs[1].start, ==, 250);
  g_assert_cmpuint (tw_state_model_get_running_task (model, 0, 220), ==, TW_TASK_NONE);

  /* a: running on 0, then on 1 until it blocks */
  states = tw_state_model_get_task_states (model, f->a, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (states[0].cpu, ==, 0);
  g_assert_cmpuint (states[0].end, ==, 200);
  g_assert_cmpuint (states[1].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (states[1].cpu, ==, 1);
  g_assert_cmpuint (states[1].end, ==, 600);
  g_assert_cmpuint (states[2].state, ==, TW_TASK_STATE_BLOCKED);
}

static void
test_lost_marks (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwCpuMark *marks;
  TwSummary sums[4];
  gsize n;

  tw_test_append_switch (f->trace, f->sw, 100, 1, f->idle, f->a, NULL);
  tw_lost_events_append (f->trace, f->lost, 200, 1, 42, 0, TW_TIME_NONE);
  tw_lost_events_append (f->trace, f->lost, 250, TW_CPU_NONE, 7, 0, TW_TIME_NONE);
  tw_test_append_switch (f->trace, f->sw, 300, 1, f->a, f->idle, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  marks = tw_state_model_get_cpu_marks (model, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (marks[0].time, ==, 200);
  g_assert_cmpuint (marks[0].index, ==, 1);
  g_assert_cmpuint (marks[0].kind, ==, TW_CPU_MARK_LOST);
  g_assert_cmpuint (marks[0].task, ==, TW_TASK_NONE);
  /* a loss is no repair */
  g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, 1), ==, 0);

  tw_state_model_summarize (model, TW_SERIES_CPU_MARKS, 1, 0, 100, 4, TW_SUMMARIZE_EXACT, sums);
  g_assert_cmpuint (sums[1].bits, ==, 0);
  g_assert_cmpuint (sums[2].bits, ==, TW_SUMMARY_CPU_MARK_LOST);
  g_assert_cmpuint (sums[3].bits, ==, 0);
}

static void
test_irq_nesting (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwIrqInterval *irqs;
  gsize n;

  /* softirq 9 [10, 60) holds irq 4 [20, 30); irq 5 [40, ...) never exits; a stray exit
   * of irq 8 at 5 (its entry predates the trace) is ignored. */
  tw_trace_append (f->trace, 5, 1, f->irq_out, TW_TASK_NONE, 8, NULL);
  tw_trace_append (f->trace, 10, 1, f->soft_in, TW_TASK_NONE, 9, NULL);
  tw_trace_append (f->trace, 20, 1, f->irq_in, TW_TASK_NONE, 4, NULL);
  tw_trace_append (f->trace, 30, 1, f->irq_out, TW_TASK_NONE, 4, NULL);
  tw_trace_append (f->trace, 40, 1, f->irq_in, TW_TASK_NONE, 5, NULL);
  tw_trace_append (f->trace, 60, 1, f->soft_out, TW_TASK_NONE, 9, NULL);
  tw_trace_append (f->trace, 70, 1, f->irq_in, TW_TASK_NONE, 6, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  g_assert_cmpuint (tw_state_model_get_n_cpus (model), ==, 2);
  irqs = tw_state_model_get_cpu_irqs (model, 1, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (irqs[0].kind, ==, TW_IRQ_SOFT);
  g_assert_cmpuint (irqs[0].start, ==, 10);
  g_assert_cmpuint (irqs[0].end, ==, 60);
  g_assert_cmpuint (irqs[0].depth, ==, 1);
  g_assert_false (irqs[0].unclosed);
  g_assert_cmpuint (irqs[1].number, ==, 4);
  g_assert_cmpuint (irqs[1].depth, ==, 2);
  g_assert_cmpuint (irqs[1].end, ==, 30);
  g_assert_cmpuint (irqs[2].number, ==, 5);
  g_assert_cmpuint (irqs[2].end, ==, 60);
  g_assert_true (irqs[2].unclosed);
  g_assert_cmpuint (irqs[3].number, ==, 6);
  g_assert_cmpuint (irqs[3].end, ==, 70);
  g_assert_true (irqs[3].unclosed);
}

static void
test_incremental (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (f->trace);
  const TwRunInterval *runs;
  gsize n;

  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, NULL);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (runs[0].end, ==, 100);

  tw_test_append_switch (f->trace, f->sw, 300, 0, f->a, f->b, "D");
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  g_assert_cmpuint (tw_state_model_get_n_processed (model), ==, 2);
  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (runs[0].end, ==, 300);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 301), ==, TW_TASK_STATE_UNKNOWN);
  g_assert_cmpint (tw_state_model_get_task_state (model, f->a, 300), ==, TW_TASK_STATE_BLOCKED);
}

static void
test_cancelled (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (f->trace);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  tw_test_append_switch (f->trace, f->sw, 100, 0, f->idle, f->a, NULL);
  g_cancellable_cancel (cancellable);
  g_assert_false (tw_state_model_update (model, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static gsize
brute_lower_bound (const TwRunInterval *runs,
                   gsize                n,
                   guint64              t)
{
  gsize i = 0;

  while (i < n && runs[i].start < t)
    i++;
  return i;
}

static void
test_lower_bound_index (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  const TwRunInterval *runs;
  guint64 t = 1000;
  gsize n;

  /* 300 k switches with gaps of 0 (zero-length runs are dropped again, popping the
   * index) to 100 ns, so the index spans both of its levels. */
  for (guint i = 0; i < 300000; i++)
    {
      tw_test_append_switch (f->trace, f->sw, t, 0, i % 2 ? f->a : f->b, i % 2 ? f->b : f->a, "R");
      t += g_rand_int_range (rand, 0, 4) == 0 ? 0 : g_rand_int_range (rand, 1, 100);
    }
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);
  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, >, 8 * 64 * 8);

  for (guint k = 0; k < 2000; k++)
    {
      guint64 probe = g_rand_int_range (rand, 0, (gint32) MIN (t + 500, G_MAXINT32));

      g_assert_cmpuint (tw_state_model_lower_bound (model, TW_SERIES_CPU_RUNS, 0, probe), ==,
                        brute_lower_bound (runs, n, probe));
    }
  g_assert_cmpuint (tw_state_model_lower_bound (model, TW_SERIES_CPU_RUNS, 0, 0), ==, 0);
  g_assert_cmpuint (tw_state_model_lower_bound (model, TW_SERIES_CPU_RUNS, 0, G_MAXUINT64), ==, n);
  g_assert_cmpuint (tw_state_model_lower_bound (model, TW_SERIES_CPU_RUNS, 9, 5), ==, 0);
  /* forward searches from any earlier index give the same answers */
  for (guint k = 0; k < 2000; k++)
    {
      guint64 probe = g_rand_int_range (rand, 0, (gint32) MIN (t + 500, G_MAXINT32));
      gsize answer = brute_lower_bound (runs, n, probe);
      gsize from = answer ? g_rand_int_range (rand, 0, (gint32) answer + 1) : 0;

      g_assert_cmpuint (tw_state_model_lower_bound_from (model, TW_SERIES_CPU_RUNS, 0, from, probe),
                        ==, answer);
    }
  g_assert_cmpuint (tw_state_model_lower_bound_from (model, TW_SERIES_CPU_RUNS, 0, n, 5), ==, n);

  for (gsize i = 0; i < n; i += 997)
    g_assert_cmpuint (tw_state_model_lower_bound (model, TW_SERIES_CPU_RUNS, 0, runs[i].start), ==,
                      brute_lower_bound (runs, n, runs[i].start));
}


/* ---------------------------------------------------------------- several hosts */

/* A task of @host, as sources of several machines name them. */
static guint32
add_host_task (TwTrace    *trace,
               const char *host,
               gint64      tid,
               gboolean    idle)
{
  g_autofree char *id = g_strdup_printf ("%s/%" G_GINT64_FORMAT, host, tid);
  guint32 task = tw_trace_add_task (trace, id, idle ? "swapper" : id, tid, tid);

  tw_trace_set_task_host (trace, task, host);
  if (idle)
    tw_trace_set_task_flags (trace, task, TW_TASK_FLAG_IDLE);
  return task;
}

static void
test_host_ends (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  guint16 cpu_a = tw_trace_add_host_cpu (f->trace, "alpha", 0);
  guint16 cpu_b = tw_trace_add_host_cpu (f->trace, "beta", 0);
  guint32 idle_a = add_host_task (f->trace, "alpha", 0, TRUE);
  guint32 idle_b = add_host_task (f->trace, "beta", 0, TRUE);
  guint32 ta = add_host_task (f->trace, "alpha", 7, FALSE);
  guint32 tb = add_host_task (f->trace, "beta", 7, FALSE);
  const TwRunInterval *runs;
  const TwIrqInterval *irqs;
  const TwTaskInterval *states;
  TwSummary columns[10];
  gsize n;

  /* beta's trace stops at 100 with tb running inside an irq whose exit it never saw;
   * alpha's goes on to 1000 */
  tw_test_append_switch (f->trace, f->sw, 10, cpu_b, idle_b, tb, "R");
  tw_test_append_switch (f->trace, f->sw, 20, cpu_a, idle_a, ta, "R");
  tw_trace_append (f->trace, 90, cpu_b, f->irq_in, tb, 5, NULL);
  tw_trace_append (f->trace, 95, cpu_b, f->soft_in, tb, 1, NULL);
  tw_trace_append (f->trace, 100, cpu_b, f->soft_out, tb, 1, NULL);
  tw_test_append_switch (f->trace, f->sw, 500, cpu_a, ta, idle_a, "R");
  tw_test_append_switch (f->trace, f->sw, 1000, cpu_a, idle_a, ta, "R");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  runs = tw_state_model_get_cpu_runs (model, cpu_b, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (runs[0].task, ==, tb);
  g_assert_cmpuint (runs[0].start, ==, 10);
  g_assert_cmpuint (runs[0].end, ==, 100);
  states = tw_state_model_get_task_states (model, tb, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (states[0].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (states[0].end, ==, 100);
  irqs = tw_state_model_get_cpu_irqs (model, cpu_b, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_true (irqs[0].unclosed);
  g_assert_cmpuint (irqs[0].end, ==, 100);
  g_assert_cmpuint (tw_state_model_get_running_task (model, cpu_b, 500), ==, TW_TASK_NONE);
  g_assert_cmpint (tw_state_model_get_task_state (model, tb, 500), ==, TW_TASK_STATE_UNKNOWN);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, tb), ==, 90);

  /* alpha's open elements still reach its own end */
  runs = tw_state_model_get_cpu_runs (model, cpu_a, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (runs[1].end, ==, 1000);
  g_assert_cmpuint (runs[2].start, ==, 1000);
  states = tw_state_model_get_task_states (model, ta, &n);
  g_assert_cmpint (states[1].state, ==, TW_TASK_STATE_READY);
  g_assert_cmpuint (states[1].end, ==, 1000);

  /* drawn: beta's rows are empty past 100 */
  tw_state_model_summarize (model, TW_SERIES_CPU_RUNS, cpu_b, 0, 100, 10, TW_SUMMARIZE_DEFAULT, columns);
  g_assert_cmpuint (columns[0].task, ==, tb);
  for (guint c = 1; c < 10; c++)
    g_assert_cmpuint (columns[c].bits, ==, 0);
  tw_state_model_summarize (model, TW_SERIES_CPU_IRQS, cpu_b, 0, 100, 10, TW_SUMMARIZE_DEFAULT, columns);
  for (guint c = 1; c < 10; c++)
    g_assert_cmpuint (columns[c].bits, ==, 0);
  tw_state_model_summarize (model, TW_SERIES_TASK_STATES, tb, 0, 100, 10, TW_SUMMARIZE_DEFAULT, columns);
  for (guint c = 1; c < 10; c++)
    g_assert_cmpuint (columns[c].bits, ==, 0);
}

/* ---------------------------------------------------------------- column summaries */

#define SUMMARY_EVENTS 300000

static TwTrace *
new_schedule_trace (guint64 n_events)
{
  TwTrace *trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 3, 10, 7);

  tw_test_schedule_append (schedule, n_events);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

typedef struct {
  TwSeries series;
  guint    id;
} SeriesRef;

static GArray *
all_series (TwStateModel *model)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  GArray *refs = g_array_new (FALSE, FALSE, sizeof (SeriesRef));

  for (guint c = 0; c < tw_state_model_get_n_cpus (model); c++)
    {
      SeriesRef runs = { TW_SERIES_CPU_RUNS, c }, irqs = { TW_SERIES_CPU_IRQS, c };
      SeriesRef marks = { TW_SERIES_CPU_MARKS, c };

      g_array_append_val (refs, runs);
      g_array_append_val (refs, irqs);
      g_array_append_val (refs, marks);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      SeriesRef states = { TW_SERIES_TASK_STATES, k }, marks = { TW_SERIES_TASK_MARKS, k };

      g_array_append_val (refs, states);
      g_array_append_val (refs, marks);
    }
  return refs;
}

/* Every series of @a (with @flags_a) and @b (with @flags_b) summarizes alike; returns
 * how many columns had something. */
static guint
assert_summaries_equal (TwStateModel     *a,
                        TwSummarizeFlags  flags_a,
                        TwStateModel     *b,
                        TwSummarizeFlags  flags_b,
                        guint64           begin,
                        double            ns_per_column,
                        guint             n_columns)
{
  g_autoptr(GArray) refs = all_series (a);
  g_autofree TwSummary *sa = g_new (TwSummary, n_columns);
  g_autofree TwSummary *sb = g_new (TwSummary, n_columns);
  guint busy = 0;

  for (guint r = 0; r < refs->len; r++)
    {
      const SeriesRef *ref = &g_array_index (refs, SeriesRef, r);

      tw_state_model_summarize (a, ref->series, ref->id, begin, ns_per_column, n_columns, flags_a, sa);
      tw_state_model_summarize (b, ref->series, ref->id, begin, ns_per_column, n_columns, flags_b, sb);
      for (guint c = 0; c < n_columns; c++)
        {
          if (sa[c].task != sb[c].task || sa[c].bits != sb[c].bits)
            g_error ("series %d/%u, view %" G_GUINT64_FORMAT " + %u × %.3f ns: column %u is "
                     "%u/%x, not %u/%x", ref->series, ref->id, begin, n_columns, ns_per_column,
                     c, sa[c].task, sa[c].bits, sb[c].task, sb[c].bits);
          busy += sa[c].bits != 0;
        }
    }
  return busy;
}

/* Views from the whole trace down to a few ns per column, at the start, the middle and
 * the end, some reaching past the trace. */
static void
for_each_view (TwTrace *trace,
               void   (*check) (guint64 begin, double ns_per_column, guint n_columns, gpointer data),
               gpointer data)
{
  guint64 first = tw_trace_get_first_time (trace);
  guint64 last = tw_trace_get_last_time (trace) + 1;
  const guint widths[] = { 1720, 997 };

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (int level = 0; level <= 12; level++)
      {
        double span = (double) (last - first) / pow (3.3, level);
        guint64 begins[] = { first, first + (last - first) / 2 - (guint64) (span / 2),
                             last - (guint64) (span * 0.8), first > 1000 ? first - 1000 : 0 };

        for (guint b = 0; b < G_N_ELEMENTS (begins); b++)
          check (begins[b], span / widths[w], widths[w], data);
      }
}

static void
check_bins_against_elements (guint64  begin,
                             double   ns_per_column,
                             guint    n_columns,
                             gpointer data)
{
  TwStateModel *model = data;

  assert_summaries_equal (model, TW_SUMMARIZE_DEFAULT, model, TW_SUMMARIZE_EXACT,
                          begin, ns_per_column, n_columns);
}

static void
test_summaries_bins_match_elements (void)
{
  g_autoptr(TwTrace) trace = new_schedule_trace (SUMMARY_EVENTS);
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  gsize with_bins, intervals = 0;

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  for_each_view (trace, check_bins_against_elements, model);

  /* the long series have bins: they take memory beyond the intervals, a summary
   * (8 bytes) per 4 to 16 elements at level 0 and a third more above */
  with_bins = tw_state_model_get_memory_size (model);
  for (guint c = 0; c < tw_state_model_get_n_cpus (model); c++)
    {
      gsize n;

      tw_state_model_get_cpu_runs (model, c, &n);
      intervals += n * sizeof (TwRunInterval);
      tw_state_model_get_cpu_irqs (model, c, &n);
      intervals += n * sizeof (TwIrqInterval);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      gsize n;

      tw_state_model_get_task_states (model, k, &n);
      intervals += n * sizeof (TwTaskInterval);
      tw_state_model_get_task_marks (model, k, &n);
      intervals += n * sizeof (TwTaskMark);
    }
  /* about one bin of 8 bytes per 4 to 16 elements, a third more for the upper levels */
  g_assert_cmpuint (with_bins, >, intervals + intervals / 100);
  g_assert_cmpuint (with_bins, <, intervals + intervals / 16);
}

/* What a column shows, straight from the definition: every element meeting the real
 * interval [begin + c × w, begin + (c + 1) × w), with w a whole number of ns. */
static void
brute_summaries (TwStateModel *model,
                 TwSeries      series,
                 guint         id,
                 guint64       begin,
                 guint64       w,
                 guint         n_columns,
                 TwSummary    *out)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  const guint8 *items;
  gsize n, size;

  for (guint c = 0; c < n_columns; c++)
    out[c] = (TwSummary) { TW_TASK_NONE, 0 };

  switch (series)
    {
    case TW_SERIES_CPU_RUNS: items = (const guint8 *) tw_state_model_get_cpu_runs (model, id, &n); size = sizeof (TwRunInterval); break;
    case TW_SERIES_CPU_IRQS: items = (const guint8 *) tw_state_model_get_cpu_irqs (model, id, &n); size = sizeof (TwIrqInterval); break;
    case TW_SERIES_TASK_STATES: items = (const guint8 *) tw_state_model_get_task_states (model, id, &n); size = sizeof (TwTaskInterval); break;
    case TW_SERIES_CPU_MARKS: items = (const guint8 *) tw_state_model_get_cpu_marks (model, id, &n); size = sizeof (TwCpuMark); break;
    case TW_SERIES_TASK_MARKS:
    default: items = (const guint8 *) tw_state_model_get_task_marks (model, id, &n); size = sizeof (TwTaskMark); break;
    }

  for (gsize i = 0; i < n; i++)
    {
      const guint8 *item = items + i * size;
      TwSummary sum = { TW_TASK_NONE, 0 };
      guint64 s, e;

      memcpy (&s, item, sizeof s);
      if (series == TW_SERIES_TASK_MARKS || series == TW_SERIES_CPU_MARKS)
        e = s + 1;
      else
        {
          memcpy (&e, item + 8, sizeof e);
          e = MAX (e, s + 1);
        }

      switch (series)
        {
        case TW_SERIES_CPU_RUNS:
          {
            const TwTask *task = tw_trace_get_task (trace, ((const TwRunInterval *) item)->task);

            if (task && !(task->flags & TW_TASK_FLAG_IDLE))
              sum = (TwSummary) { ((const TwRunInterval *) item)->task, TW_SUMMARY_RUN_ANY };
            else
              sum.bits = TW_SUMMARY_RUN_ANY | TW_SUMMARY_RUN_IDLE;
          }
          break;
        case TW_SERIES_CPU_IRQS:
          {
            const TwIrqInterval *irq = (const TwIrqInterval *) item;
            guint lane = MIN (irq->depth, 3) - 1;

            sum.bits = TW_SUMMARY_IRQ_BIT (lane, irq->unclosed ? TW_SUMMARY_IRQ_UNCLOSED
                                                 : irq->kind == TW_IRQ_HARD ? TW_SUMMARY_IRQ_HARD
                                                 : TW_SUMMARY_IRQ_SOFT);
          }
          break;
        case TW_SERIES_TASK_STATES:
          sum.bits = 1u << ((const TwTaskInterval *) item)->state;
          break;
        case TW_SERIES_CPU_MARKS:
          sum.bits = ((const TwCpuMark *) item)->kind == TW_CPU_MARK_LOST ? TW_SUMMARY_CPU_MARK_LOST
                                                                           : TW_SUMMARY_CPU_MARK_REPAIR;
          break;
        case TW_SERIES_TASK_MARKS:
        default:
          {
            TwEvent ev;
            TwEventKind kind;

            g_assert_true (tw_trace_get_event (trace, ((const TwTaskMark *) item)->index, &ev));
            kind = tw_trace_get_event_type (trace, ev.type)->kind;
            sum.bits = kind == TW_EVENT_KIND_WAKEUP ? TW_SUMMARY_MARK_WAKEUP
                       : kind == TW_EVENT_KIND_MUTEX_LOCK ? TW_SUMMARY_MARK_MUTEX
                       : TW_SUMMARY_MARK_OTHER;
          }
          break;
        }

      /* columns c with begin + c w < e and begin + (c + 1) w > s */
      for (guint c = s > begin ? (guint) MIN ((s - begin) / w, (guint64) n_columns) : 0;
           c < n_columns && begin + c * w < e; c++)
        if (begin + (c + 1) * w > s)
          {
            if (out[c].task == TW_TASK_NONE)
              out[c].task = sum.task;
            out[c].bits |= sum.bits;
          }
    }
}

static void
test_summaries_by_definition (void)
{
  g_autoptr(TwTrace) trace = new_schedule_trace (SUMMARY_EVENTS);
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(GArray) refs = NULL;
  guint64 first = tw_trace_get_first_time (trace);
  guint64 last = tw_trace_get_last_time (trace);
  const guint64 widths[] = { 1, 7, 250, 3000 };
  const guint n_columns = 800;
  g_autofree TwSummary *got = g_new (TwSummary, n_columns);
  g_autofree TwSummary *want = g_new (TwSummary, n_columns);
  guint busy = 0, first_task = 0;

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  refs = all_series (model);

  /* zoomed in, where columns are narrower than the bins and nothing is rounded */
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint b = 0; b < 5; b++)
      {
        guint64 begin = first + (last - first) / 5 * b + 12345;

        for (guint r = 0; r < refs->len; r++)
          {
            const SeriesRef *ref = &g_array_index (refs, SeriesRef, r);

            tw_state_model_summarize (model, ref->series, ref->id, begin, (double) widths[w],
                                      n_columns, TW_SUMMARIZE_DEFAULT, got);
            brute_summaries (model, ref->series, ref->id, begin, widths[w], n_columns, want);
            for (guint c = 0; c < n_columns; c++)
              {
                g_assert_cmpuint (got[c].task, ==, want[c].task);
                g_assert_cmpuint (got[c].bits, ==, want[c].bits);
                busy += want[c].bits != 0;
                first_task += want[c].task != TW_TASK_NONE;
              }
          }
      }
  /* the views were not empty */
  g_assert_cmpuint (busy, >, 10000);
  g_assert_cmpuint (first_task, >, 1000);
}

/* The schedule with losses and switches that name the wrong task switched out, every
 * 1 in 40 events: thousands of marks on each CPU, enough for bins. */
static TwTrace *
new_messy_trace (guint64 n_events)
{
  TwTrace *trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 3, 10, 7);
  g_autoptr(GRand) rand = g_rand_new_with_seed (5);
  guint16 lost = tw_lost_events_add_type (trace, "lost_events", NULL);
  guint16 sw = tw_trace_lookup_event_type (trace, "switch");
  guint32 n_tasks;
  guint64 first, last;

  tw_test_schedule_append (schedule, n_events);
  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace);
  n_tasks = tw_trace_get_n_tasks (trace);
  for (guint64 i = 0; i < n_events / 40; i++)
    {
      guint64 t = first + (guint64) (g_rand_double (rand) * (double) (last - first));
      guint16 cpu = g_rand_int_range (rand, 0, 3);

      if (i % 2)
        tw_lost_events_append (trace, lost, t, cpu, g_rand_int_range (rand, 0, 100), 0, TW_TIME_NONE);
      else
        tw_test_append_switch (trace, sw, t, cpu, g_rand_int_range (rand, 0, n_tasks),
                               g_rand_int_range (rand, 0, n_tasks), "S");
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

/* CPU marks summarize the same from bins, from the elements and by definition. */
static void
test_cpu_marks_summaries (void)
{
  g_autoptr(TwTrace) trace = new_messy_trace (SUMMARY_EVENTS / 3);
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  guint64 first, last;
  const guint n_columns = 700;
  g_autofree TwSummary *got = g_new (TwSummary, n_columns);
  g_autofree TwSummary *want = g_new (TwSummary, n_columns);
  guint busy = 0;

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  for (guint c = 0; c < 3; c++)
    {
      gsize n;

      tw_state_model_get_cpu_marks (model, c, &n);
      g_assert_cmpuint (n, >, 1024);
      g_assert_cmpuint (tw_state_model_get_cpu_repairs (model, c), >, 100);
    }
  for_each_view (trace, check_bins_against_elements, model);

  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace);
  for (guint64 w = 1; w < (last - first) / n_columns; w *= 37)
    for (guint c = 0; c < 3; c++)
      {
        guint64 begin = first + (last - first) / 3 * c;

        tw_state_model_summarize (model, TW_SERIES_CPU_MARKS, c, begin, (double) w, n_columns,
                                  TW_SUMMARIZE_DEFAULT, got);
        brute_summaries (model, TW_SERIES_CPU_MARKS, c, begin, w, n_columns, want);
        for (guint k = 0; k < n_columns; k++)
          {
            g_assert_cmpuint (got[k].bits, ==, want[k].bits);
            busy += want[k].bits != 0;
          }
      }
  g_assert_cmpuint (busy, >, 100);
}

static void
check_live_against_whole (guint64  begin,
                          double   ns_per_column,
                          guint    n_columns,
                          gpointer data)
{
  TwStateModel **models = data;

  assert_summaries_equal (models[0], TW_SUMMARIZE_DEFAULT, models[1], TW_SUMMARIZE_EXACT,
                          begin, ns_per_column, n_columns);
}

static void
test_summaries_live (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 3, 10, 11);
  g_autoptr(TwStateModel) live = tw_state_model_new (trace);
  g_autoptr(TwStateModel) whole = NULL;
  TwStateModel *models[2];
  const guint64 pieces[] = { 100000, 150000, 25000, 60000, 1 };

  /* a model updated as a live trace grows (bins built, then partly stale, then
   * rebuilt) draws what a model built once over the whole trace draws */
  for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
    {
      tw_test_schedule_append (schedule, pieces[p]);
      g_assert_true (tw_state_model_update (live, NULL, NULL));

      whole = tw_state_model_new (trace);
      g_assert_true (tw_state_model_update (whole, NULL, NULL));
      models[0] = live;
      models[1] = whole;
      for_each_view (trace, check_live_against_whole, models);
      g_clear_object (&whole);
    }
}

/* Every series' bins have taken every element that can no longer change (all but an
 * open run or state; every irq, the open handlers to be added when they close) once it
 * has BINS_MIN_ELEMENTS of them: a model built in steps leaves nothing else to
 * summarize element by element. Returns how many series have bins. */
static guint
assert_bins_cover_final (TwStateModel *model)
{
  guint with_bins = 0;

  for (guint c = 0; c < model->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (model->cpus, c);
      const Series *series[] = { &cs->runs, &cs->irqs, &cs->marks };
      gsize n_final[] = { cs->runs.items.len - (cs->run_open ? 1 : 0),
                          cs->irqs.items.len,
                          cs->marks.items.len };

      for (guint s = 0; s < G_N_ELEMENTS (series); s++)
        {
          if (n_final[s] < BINS_MIN_ELEMENTS)
            continue;
          g_assert_nonnull (series[s]->bins);
          g_assert_cmpuint (series[s]->bins->n_elements, ==, n_final[s]);
          with_bins++;
        }
    }
  for (guint k = 0; k < model->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (model->tasks, k);
      const Series *series[] = { &ts->states, &ts->marks };
      gsize n_final[] = { ts->states.items.len - (ts->open ? 1 : 0), ts->marks.items.len };

      for (guint s = 0; s < G_N_ELEMENTS (series); s++)
        {
          if (n_final[s] < BINS_MIN_ELEMENTS)
            continue;
          g_assert_nonnull (series[s]->bins);
          g_assert_cmpuint (series[s]->bins->n_elements, ==, n_final[s]);
          with_bins++;
        }
    }
  return with_bins;
}

/* The same bins, bin for bin. */
static void
assert_bins_equal (const Series *a,
                   const Series *b)
{
  g_assert_true ((a->bins == NULL) == (b->bins == NULL));
  if (a->bins == NULL)
    return;
  g_assert_cmpuint (a->bins->origin, ==, b->bins->origin);
  g_assert_cmpuint (a->bins->valid_until, ==, b->bins->valid_until);
  g_assert_cmpuint (a->bins->shift, ==, b->bins->shift);
  g_assert_cmpuint (a->bins->n_levels, ==, b->bins->n_levels);
  for (guint k = 0; k < a->bins->n_levels; k++)
    {
      g_assert_cmpuint (a->bins->level[k].len, ==, b->bins->level[k].len);
      g_assert_cmpmem (a->bins->level[k].data, a->bins->level[k].len * sizeof (TwSummary),
                       b->bins->level[k].data, b->bins->level[k].len * sizeof (TwSummary));
    }
}

static void
check_steps_against_whole (guint64  begin,
                           double   ns_per_column,
                           guint    n_columns,
                           gpointer data)
{
  TwStateModel **models = data;

  /* the stepped model from its bins, the whole one from its elements */
  assert_summaries_equal (models[0], TW_SUMMARIZE_DEFAULT, models[1], TW_SUMMARIZE_EXACT,
                          begin, ns_per_column, n_columns);
  assert_summaries_equal (models[0], TW_SUMMARIZE_DEFAULT, models[1], TW_SUMMARIZE_DEFAULT,
                          begin, ns_per_column, n_columns);
}

/* Builds a model of @trace in many small steps (as the window builds it while the trace
 * loads), asking for frames between the steps: its bins have grown in place, holding
 * every element that can no longer change after each step and summarizing as the
 * elements do then, and they end bin for bin as the bins of a model built in one
 * update, for every kind of series (runs, irqs and marks of CPUs, states and marks of
 * tasks). Returns that model built at once. */
static TwStateModel *
build_in_steps (TwTrace *trace,
                guint    min_steps)
{
  g_autoptr(TwStateModel) stepped = tw_state_model_new (trace);
  TwStateModel *whole = tw_state_model_new (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  guint64 first = tw_trace_get_first_time (trace);
  guint64 last = tw_trace_get_last_time (trace) + 1;
  const guint n_columns = 600;
  g_autofree TwSummary *fast = g_new (TwSummary, n_columns);
  g_autofree TwSummary *exact = g_new (TwSummary, n_columns);
  TwStateModel *models[2] = { stepped, whole };
  guint steps = 0, max_with_bins = 0;

  while (tw_state_model_get_n_processed (stepped) < tw_trace_get_n_events (trace))
    {
      g_autoptr(GArray) refs = NULL;
      /* from a few events, where an open interval is rewritten step after step, to
       * thousands */
      guint64 n = g_rand_int_range (rand, 1, 4) == 1 ? g_rand_int_range (rand, 1, 8)
                                                      : g_rand_int_range (rand, 100, 6000);

      g_assert_true (tw_state_model_update_some (stepped, n, NULL, NULL));
      max_with_bins = MAX (max_with_bins, assert_bins_cover_final (stepped));
      if (steps++ % 16 != 0)
        continue;

      /* a frame of the whole view and zoomed ones: the bins agree with the elements */
      refs = all_series (stepped);
      for (guint r = 0; r < refs->len; r++)
        {
          const SeriesRef *ref = &g_array_index (refs, SeriesRef, r);
          guint64 z = first + (guint64) (g_rand_double (rand) * (double) (last - first));
          const double widths[] = { (double) (last - first) / n_columns, 977.5, 20000.25 };

          for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
            {
              guint64 begin = w == 0 ? first : z;

              tw_state_model_summarize (stepped, ref->series, ref->id, begin, widths[w],
                                        n_columns, TW_SUMMARIZE_DEFAULT, fast);
              tw_state_model_summarize (stepped, ref->series, ref->id, begin, widths[w],
                                        n_columns, TW_SUMMARIZE_EXACT, exact);
              for (guint c = 0; c < n_columns; c++)
                {
                  g_assert_cmpuint (fast[c].task, ==, exact[c].task);
                  g_assert_cmphex (fast[c].bits, ==, exact[c].bits);
                }
            }
        }
    }
  /* the steps were small and the series long enough for bins */
  g_assert_cmpuint (steps, >, min_steps);
  g_assert_cmpuint (max_with_bins, >=, 3);

  g_assert_true (tw_state_model_update (whole, NULL, NULL));
  for (guint c = 0; c < whole->cpus->len; c++)
    {
      CpuState *a = g_ptr_array_index (stepped->cpus, c), *b = g_ptr_array_index (whole->cpus, c);

      assert_bins_equal (&a->runs, &b->runs);
      assert_bins_equal (&a->irqs, &b->irqs);
      assert_bins_equal (&a->marks, &b->marks);
    }
  for (guint k = 0; k < whole->tasks->len; k++)
    {
      TaskState *a = g_ptr_array_index (stepped->tasks, k), *b = g_ptr_array_index (whole->tasks, k);

      assert_bins_equal (&a->states, &b->states);
      assert_bins_equal (&a->marks, &b->marks);
    }
  for_each_view (trace, check_steps_against_whole, models);
  return whole;
}

static void
test_summaries_in_steps (void)
{
  g_autoptr(TwTrace) trace = new_messy_trace (SUMMARY_EVENTS);
  g_autoptr(TwStateModel) whole = build_in_steps (trace, 100);

  /* every kind of series had bins */
  for (guint c = 0; c < whole->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (whole->cpus, c);

      g_assert_nonnull (cs->runs.bins);
      g_assert_nonnull (cs->irqs.bins);
      g_assert_nonnull (cs->marks.bins);
      /* handlers whose exits were lost stay open: the irqs after them are in the bins */
      g_assert_cmpuint (cs->irq_stack->len, >, 0);
    }
  for (guint k = 0; k < whole->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (whole->tasks, k);

      if (ts->states.items.len > 4 * BINS_MIN_ELEMENTS)
        {
          g_assert_nonnull (ts->states.bins);
          g_assert_nonnull (ts->marks.bins);
        }
    }
}

/* A CPU switching every millisecond, then every 50 ns: the grid of its runs and its
 * tasks' states, fitted to the sparse start, is made again finer as the series gets
 * denser, at the same counts whatever the steps. */
static void
test_bins_refined_in_steps (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 sw = tw_test_add_switch_type (trace);
  guint32 a = tw_trace_add_task (trace, "1", "a", 1, 1);
  guint32 b = tw_trace_add_task (trace, "2", "b", 2, 2);
  g_autoptr(TwStateModel) whole = NULL;
  guint64 t = 1000;
  CpuState *cs;

  for (guint i = 0; i < 3000; i++)
    tw_test_append_switch (trace, sw, t += 1000000, 0, i % 2 ? b : a, i % 2 ? a : b, "S");
  for (guint i = 0; i < 200000; i++)
    tw_test_append_switch (trace, sw, t += 50, 0, i % 2 ? b : a, i % 2 ? a : b, "S");
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  whole = build_in_steps (trace, 50);
  cs = g_ptr_array_index (whole->cpus, 0);
  g_assert_nonnull (cs->runs.bins);
  g_assert_cmpuint (cs->runs.bins->n_built, >, BINS_MIN_ELEMENTS);
}

/* Enough switches for bins: beta's trace stops at a tenth of alpha's. The bins of a
 * zoomed-out view agree with the elements, and beta's rows are empty past its end. */
static void
test_host_ends_bins (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  guint16 cpu_a = tw_trace_add_host_cpu (f->trace, "alpha", 0);
  guint16 cpu_b = tw_trace_add_host_cpu (f->trace, "beta", 0);
  guint32 on_a[2] = { add_host_task (f->trace, "alpha", 0, TRUE), add_host_task (f->trace, "alpha", 7, FALSE) };
  guint32 on_b[2] = { add_host_task (f->trace, "beta", 0, TRUE), add_host_task (f->trace, "beta", 7, FALSE) };
  const guint n_columns = 300, w = 1000;
  g_autofree TwSummary *got = g_new (TwSummary, n_columns);
  g_autofree TwSummary *want = g_new (TwSummary, n_columns);
  const TwRunInterval *runs;
  gsize n;

  /* alpha switches every 10 ns up to 300000, beta every 10 ns up to 30005 */
  for (guint i = 1; i <= 30000; i++)
    {
      tw_test_append_switch (f->trace, f->sw, 10 * i, cpu_a, on_a[i % 2 == 0], on_a[i % 2], "R");
      if (i <= 3000)
        tw_test_append_switch (f->trace, f->sw, 10 * i + 5, cpu_b, on_b[i % 2 == 0], on_b[i % 2], "S");
    }
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = build (f);

  runs = tw_state_model_get_cpu_runs (model, cpu_b, &n);
  g_assert_cmpuint (runs[n - 1].end, ==, 30005);
  g_assert_nonnull (((CpuState *) g_ptr_array_index (model->cpus, cpu_b))->runs.bins);

  for (guint id = 0; id < 2; id++)
    {
      SeriesRef refs[] = { { TW_SERIES_CPU_RUNS, id ? cpu_b : cpu_a },
                           { TW_SERIES_TASK_STATES, id ? on_b[1] : on_a[1] } };

      for (guint r = 0; r < G_N_ELEMENTS (refs); r++)
        {
          /* zoomed out, from the bins (column edges rounded to their grid) */
          tw_state_model_summarize (model, refs[r].series, refs[r].id, 0, w, n_columns,
                                    TW_SUMMARIZE_DEFAULT, got);
          tw_state_model_summarize (model, refs[r].series, refs[r].id, 0, w, n_columns,
                                    TW_SUMMARIZE_EXACT, want);
          for (guint c = 0; c < n_columns; c++)
            {
              g_assert_cmpuint (got[c].task, ==, want[c].task);
              g_assert_cmpuint (got[c].bits, ==, want[c].bits);
              /* beta: something up to its end at 30005 (column 30, less a rounding),
               * nothing after; alpha: up to its end */
              if (id == 0)
                g_assert_cmpuint (got[c].bits, !=, 0);
              else if (c != 30)
                g_assert_cmpuint (got[c].bits != 0, ==, c < 30);
            }

          /* zoomed in on beta's end, where nothing is rounded: by definition */
          tw_state_model_summarize (model, refs[r].series, refs[r].id, 29000, 7, n_columns,
                                    TW_SUMMARIZE_DEFAULT, got);
          brute_summaries (model, refs[r].series, refs[r].id, 29000, 7, n_columns, want);
          for (guint c = 0; c < n_columns; c++)
            {
              g_assert_cmpuint (got[c].task, ==, want[c].task);
              g_assert_cmpuint (got[c].bits, ==, want[c].bits);
              if (id == 1)
                g_assert_cmpuint (got[c].bits != 0, ==, 29000 + 7 * c < 30005);
            }
        }
    }
  for_each_view (f->trace, check_bins_against_elements, model);
}

/* A live session of two targets where beta's session is destroyed: its last run and
 * state stay where its events stop while alpha's rows keep arriving, update after
 * update; and the model drawn in steps is the one built at once. */
static void
test_host_ends_live (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(TwStateModel) live = tw_state_model_new (f->trace);
  guint16 cpu_a = tw_trace_add_host_cpu (f->trace, "alpha", 0);
  guint16 cpu_b = tw_trace_add_host_cpu (f->trace, "beta", 0);
  guint32 on_a[2] = { add_host_task (f->trace, "alpha", 0, TRUE), add_host_task (f->trace, "alpha", 7, FALSE) };
  guint32 on_b[2] = { add_host_task (f->trace, "beta", 0, TRUE), add_host_task (f->trace, "beta", 7, FALSE) };
  guint i = 1;

  for (guint step = 0; step < 4; step++)
    {
      g_autoptr(TwStateModel) whole = NULL;
      TwStateModel *models[2];
      const TwRunInterval *runs;
      const TwTaskInterval *states;
      gsize n;

      for (; i <= 3000 * (step + 1); i++)
        {
          tw_test_append_switch (f->trace, f->sw, 10 * i, cpu_a, on_a[i % 2 == 0], on_a[i % 2], "R");
          /* beta sends until its session is destroyed after the first step */
          if (i <= 2001)
            tw_test_append_switch (f->trace, f->sw, 10 * i + 5, cpu_b, on_b[i % 2 == 0], on_b[i % 2], "R");
        }
      g_assert_true (tw_state_model_update (live, NULL, NULL));

      runs = tw_state_model_get_cpu_runs (live, cpu_b, &n);
      g_assert_cmpuint (runs[n - 1].task, ==, on_b[1]);
      g_assert_cmpuint (runs[n - 1].end, ==, 20015);
      states = tw_state_model_get_task_states (live, on_b[1], &n);
      g_assert_cmpint (states[n - 1].state, ==, TW_TASK_STATE_RUNNING);
      g_assert_cmpuint (states[n - 1].end, ==, 20015);
      runs = tw_state_model_get_cpu_runs (live, cpu_a, &n);
      g_assert_cmpuint (runs[n - 1].end, ==, 30000 * (step + 1));
      g_assert_cmpint (tw_state_model_get_task_state (live, on_b[1], 20016), ==, TW_TASK_STATE_UNKNOWN);

      whole = tw_state_model_new (f->trace);
      g_assert_true (tw_state_model_update (whole, NULL, NULL));
      models[0] = live;
      models[1] = whole;
      for_each_view (f->trace, check_live_against_whole, models);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/data/state-model/switches", test_switches);
  ADD ("/tw/data/state-model/irq-nesting", test_irq_nesting);
  ADD ("/tw/data/state-model/lost-switch-out", test_lost_switch_out);
  ADD ("/tw/data/state-model/prev-state-from-reader", test_prev_state_from_reader);
  ADD ("/tw/data/state-model/stale-run-repair", test_stale_run_repair);
  ADD ("/tw/data/state-model/double-run-repair", test_double_run_repair);
  ADD ("/tw/data/state-model/lost-marks", test_lost_marks);
  ADD ("/tw/data/state-model/incremental", test_incremental);
  ADD ("/tw/data/state-model/cancelled", test_cancelled);
  ADD ("/tw/data/state-model/lower-bound-index", test_lower_bound_index);
  ADD ("/tw/data/state-model/host-ends", test_host_ends);
  ADD ("/tw/data/state-model/host-ends-bins", test_host_ends_bins);
  ADD ("/tw/data/state-model/host-ends-live", test_host_ends_live);
#undef ADD
  g_test_add_func ("/tw/data/state-model/summaries-bins-match-elements", test_summaries_bins_match_elements);
  g_test_add_func ("/tw/data/state-model/summaries-by-definition", test_summaries_by_definition);
  g_test_add_func ("/tw/data/state-model/summaries-live", test_summaries_live);
  g_test_add_func ("/tw/data/state-model/cpu-marks-summaries", test_cpu_marks_summaries);
  g_test_add_func ("/tw/data/state-model/summaries-in-steps", test_summaries_in_steps);
  g_test_add_func ("/tw/data/state-model/bins-refined-in-steps", test_bins_refined_in_steps);

  return g_test_run ();
}
