/* test-eval-paths.c: the evaluation's fast paths give what prepare/commit gives
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evaluation dispatches each event through a per-type table and calls an update's
 * direct function (prepare and commit in one call) when it has no check function;
 * with a check function it calls prepare, the check, then commit for every consumed
 * event. Here every built-in metric runs over random live traces both ways: the fast
 * way all in one evaluation that grows with the trace (types registered late, updates
 * joining and leaving mid-run, runs in uneven steps), the reference way one metric per
 * evaluation through prepare/commit. Tables and histograms must be identical. A naive
 * recomputation of irq durations and inter-arrival times from the raw rows checks the
 * numbers themselves.
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

#define N_CPUS  3
#define N_TASKS 12

typedef struct {
  guint64 state;
} Rng;

static guint32
rng_next (Rng *rng)
{
  /* xorshift64*: reproducible from the seed on every platform */
  rng->state ^= rng->state >> 12;
  rng->state ^= rng->state << 25;
  rng->state ^= rng->state >> 27;
  return (guint32) ((rng->state * G_GUINT64_CONSTANT (2685821657736338717)) >> 32);
}

static guint32
rng_below (Rng    *rng,
           guint32 n)
{
  return rng_next (rng) % n;
}

/* The trace under construction, with its types registered in two phases. */
typedef struct {
  TwTrace         *trace;
  TwTestKindTypes  k;
  guint16          job_start;   /* registered late */
  guint16          job_end;     /* registered late */
  guint16          other;
  guint32          tasks[N_TASKS];
  guint32          idle;
  guint64          time;
  guint32          depth[N_CPUS];
  guint32          open_irq[N_CPUS][8];
  gboolean         late_types;
} Gen;

static void
gen_init (Gen  *gen)
{
  memset (gen, 0, sizeof *gen);
  gen->trace = tw_trace_new ();
  tw_test_add_kind_types (gen->trace, &gen->k);
  gen->other = tw_test_add_simple_type (gen->trace, "other", TW_EVENT_KIND_OTHER);
  gen->idle = tw_trace_add_task (gen->trace, "0", "swapper", 0, 0);
  tw_trace_set_task_flags (gen->trace, gen->idle, TW_TASK_FLAG_IDLE);
  for (guint t = 0; t < N_TASKS; t++)
    {
      char id[16];

      g_snprintf (id, sizeof id, "%u", 100 + t);
      gen->tasks[t] = tw_trace_add_task (gen->trace, id, "worker", 100 + t, 100 + t);
    }
}

static guint32
gen_task (Gen *gen,
          Rng *rng)
{
  guint32 r = rng_below (rng, N_TASKS + 2);

  if (r == N_TASKS)
    return gen->idle;
  if (r == N_TASKS + 1)
    return rng_below (rng, 8) == 0 ? TW_TASK_NONE : gen->tasks[0];
  return gen->tasks[r];
}

/* Appends @n events in time order: switches, wakeups, nested irqs and softirqs (some
 * exits lost or unmatched), job events once the late types exist, unrelated events,
 * a few without a CPU or a task. */
static void
gen_append (Gen    *gen,
            Rng    *rng,
            guint   n)
{
  for (guint i = 0; i < n; i++)
    {
      guint16 cpu = (guint16) rng_below (rng, N_CPUS);
      guint32 task = gen_task (gen, rng);
      guint r = rng_below (rng, 100);

      gen->time += rng_below (rng, 4) == 0 ? 0 : 1 + rng_below (rng, 50);
      if (r < 15)
        tw_test_append_switch (gen->trace, gen->k.sw, gen->time, cpu, task,
                               gen_task (gen, rng), rng_below (rng, 2) ? "R" : "S");
      else if (r < 28)
        tw_trace_append (gen->trace, gen->time,
                         rng_below (rng, 10) == 0 ? TW_CPU_NONE : cpu, gen->k.wake, task,
                         gen_task (gen, rng), NULL);
      else if (r < 48)
        {
          /* irq or softirq entry, remembered so most exits match */
          gboolean soft = rng_below (rng, 3) == 0;
          guint32 number = soft ? 1 + rng_below (rng, 4) : 20 + rng_below (rng, 4);

          if (gen->depth[cpu] < G_N_ELEMENTS (gen->open_irq[cpu]))
            gen->open_irq[cpu][gen->depth[cpu]++] = number;
          tw_trace_append (gen->trace, gen->time, cpu, soft ? gen->k.soft_in : gen->k.irq_in,
                           task, number, NULL);
        }
      else if (r < 66)
        {
          guint32 number;
          gboolean soft;

          if (gen->depth[cpu] > 0 && rng_below (rng, 8) != 0)
            number = gen->open_irq[cpu][--gen->depth[cpu]];
          else
            number = rng_below (rng, 2) ? 1 + rng_below (rng, 4) : 20 + rng_below (rng, 4);
          if (rng_below (rng, 10) == 0 && gen->depth[cpu] > 0)
            gen->depth[cpu]--;           /* an exit that will never come */
          soft = number < 20;
          tw_trace_append (gen->trace, gen->time, cpu, soft ? gen->k.soft_out : gen->k.irq_out,
                           task, number, NULL);
        }
      else if (r < 82 && gen->late_types)
        tw_trace_append (gen->trace, gen->time,
                         rng_below (rng, 12) == 0 ? TW_CPU_NONE : cpu,
                         rng_below (rng, 2) ? gen->job_start : gen->job_end, task,
                         gen_task (gen, rng), NULL);
      else
        tw_trace_append (gen->trace, gen->time, cpu, gen->other, task, 0, NULL);
    }
}

static void
gen_add_late_types (Gen *gen)
{
  gen->job_start = tw_test_add_simple_type (gen->trace, "job_start", TW_EVENT_KIND_USER);
  gen->job_end = tw_test_add_simple_type (gen->trace, "job_end", TW_EVENT_KIND_USER);
  gen->late_types = TRUE;
}

static const char *const system_names[] = {
  "irq-duration", "softirq-duration", "run-slice", "wakeup-latency", "wakeup-handler",
  "response-time:job_start,job_end", "response-time", "inter-arrival:job_start",
  "inter-arrival:kind:irq_entry", "jitter:kind:wakeup",
};

#define N_METRICS (G_N_ELEMENTS (system_names) + 2)

static TwMetric *
metric_new (guint m)
{
  g_autoptr(GError) error = NULL;
  TwMetric *metric;

  if (m == G_N_ELEMENTS (system_names))
    return tw_metric_new_user ("job", "job_start", "job_end", TRUE);
  if (m == G_N_ELEMENTS (system_names) + 1)
    return tw_metric_new_user ("job-own", "job_start", "job_end", FALSE);
  metric = tw_metric_new_system (system_names[m], &error);
  g_assert_no_error (error);
  return metric;
}

/* One metric's result. */
typedef struct {
  TwMetric           *metric;
  TwMeasurementTable *table;
  TwHistogram        *histogram;
  TwUpdate           *update;
  guint64             joined;   /* event index at which it joined */
  guint64             left;     /* ... left, G_MAXUINT64 when it stayed */
} Result;

static void
result_init (Result *r,
             guint   m)
{
  r->metric = metric_new (m);
  r->table = tw_metric_new_table (r->metric);
  r->histogram = tw_histogram_new_auto (16, TW_HISTOGRAM_SCALE_LINEAR);
  r->update = tw_metric_create_update (r->metric, r->table, r->histogram);
  r->left = G_MAXUINT64;
}

static void
result_clear (Result *r)
{
  g_clear_object (&r->metric);
  g_clear_object (&r->table);
  g_clear_object (&r->histogram);
  g_clear_pointer (&r->update, tw_update_unref);
}

static gboolean
always_intact (guint64  index,
               gpointer user_data)
{
  guint64 *n_checks = user_data;

  (*n_checks)++;
  return TRUE;
}

static void
assert_same_results (Result *fast,
                     Result *ref)
{
  const char *name = tw_metric_get_name (fast->metric);
  gsize n = tw_measurement_table_get_n_rows (ref->table);
  guint n_columns = tw_measurement_table_get_n_columns (ref->table);

  if (tw_measurement_table_get_n_rows (fast->table) != n)
    g_error ("%s: %" G_GSIZE_FORMAT " rows the fast way, %" G_GSIZE_FORMAT " through "
             "prepare/commit", name, tw_measurement_table_get_n_rows (fast->table), n);
  for (gsize i = 0; i < n; i++)
    {
      const TwMeasurementRow *a = tw_measurement_table_get_row (fast->table, i);
      const TwMeasurementRow *b = tw_measurement_table_get_row (ref->table, i);

      g_assert_cmpuint (a->task, ==, b->task);
      g_assert_cmpuint (a->begin, ==, b->begin);
      g_assert_cmpuint (a->end, ==, b->end);
      g_assert_cmpuint (a->length, ==, b->length);
      g_assert_cmpuint (a->intermediate_events, ==, b->intermediate_events);
      for (guint c = 0; c < n_columns; c++)
        g_assert_cmpfloat (tw_measurement_table_get_value (fast->table, i, c), ==,
                           tw_measurement_table_get_value (ref->table, i, c));
    }

  g_assert_cmpuint (tw_histogram_get_count (fast->histogram), ==, n);
  g_assert_cmpuint (tw_histogram_get_count (ref->histogram), ==, n);
  g_assert_cmpfloat (tw_histogram_get_sum (fast->histogram), ==, tw_histogram_get_sum (ref->histogram));
  g_assert_cmpuint (tw_histogram_get_n_bins (fast->histogram), ==,
                    tw_histogram_get_n_bins (ref->histogram));
  for (guint b = 0; b < tw_histogram_get_n_bins (ref->histogram); b++)
    g_assert_cmpuint (tw_histogram_get_bin (fast->histogram, b, NULL, NULL), ==,
                      tw_histogram_get_bin (ref->histogram, b, NULL, NULL));
  if (n > 0)
    {
      g_assert_cmpfloat (tw_histogram_get_percentile (fast->histogram, 90), ==,
                         tw_histogram_get_percentile (ref->histogram, 90));
      g_assert_cmpfloat (tw_histogram_get_max (fast->histogram), ==,
                         tw_histogram_get_max (ref->histogram));
    }
}

/* Irq durations straight from the rows: per CPU a stack of open irqs; an exit closes
 * the innermost entry of its number and drops the ones above it. */
static void
assert_irq_durations_naive (TwTrace            *trace,
                            const TwTestKindTypes *k,
                            TwMeasurementTable *table)
{
  struct { guint32 number; guint64 begin; guint64 at; guint32 task; } stack[N_CPUS][64];
  guint depth[N_CPUS] = { 0 };
  guint64 count[N_CPUS] = { 0 };
  gsize row = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;

      tw_trace_get_event (trace, i, &ev);
      if (ev.cpu >= N_CPUS)
        continue;
      if (ev.type == k->irq_in)
        {
          if (depth[ev.cpu] == 32)
            {
              memmove (stack[ev.cpu], stack[ev.cpu] + 1, 31 * sizeof stack[ev.cpu][0]);
              depth[ev.cpu]--;
            }
          stack[ev.cpu][depth[ev.cpu]].number = ev.arg;
          stack[ev.cpu][depth[ev.cpu]].begin = ev.time;
          stack[ev.cpu][depth[ev.cpu]].at = count[ev.cpu];
          stack[ev.cpu][depth[ev.cpu]].task = ev.task;
          depth[ev.cpu]++;
        }
      else if (ev.type == k->irq_out)
        for (guint d = depth[ev.cpu]; d-- > 0;)
          if (stack[ev.cpu][d].number == ev.arg)
            {
              const TwMeasurementRow *m = tw_measurement_table_get_row (table, row);

              g_assert_cmpuint (row, <, tw_measurement_table_get_n_rows (table));
              g_assert_cmpuint (m->task, ==, stack[ev.cpu][d].task);
              g_assert_cmpuint (m->begin, ==, stack[ev.cpu][d].begin);
              g_assert_cmpuint (m->end, ==, ev.time);
              g_assert_cmpuint (m->length, ==, ev.time - stack[ev.cpu][d].begin);
              g_assert_cmpuint (m->intermediate_events, ==, count[ev.cpu] - stack[ev.cpu][d].at - 1);
              g_assert_cmpfloat (tw_measurement_table_get_value (table, row, 1), ==, d + 1);
              row++;
              depth[ev.cpu] = d;
              break;
            }
      count[ev.cpu]++;
    }
  g_assert_cmpuint (row, ==, tw_measurement_table_get_n_rows (table));
}

/* Inter-arrival times of irq entries straight from the rows. */
static void
assert_inter_arrival_naive (TwTrace            *trace,
                            guint16             type,
                            TwMeasurementTable *table)
{
  gboolean have_prev = FALSE;
  guint64 prev_time = 0, prev_index = 0;
  gsize row = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;

      tw_trace_get_event (trace, i, &ev);
      if (ev.type != type)
        continue;
      if (have_prev)
        {
          const TwMeasurementRow *m;

          g_assert_cmpuint (row, <, tw_measurement_table_get_n_rows (table));
          m = tw_measurement_table_get_row (table, row++);
          g_assert_cmpuint (m->begin, ==, prev_time);
          g_assert_cmpuint (m->length, ==, ev.time - prev_time);
          g_assert_cmpuint (m->intermediate_events, ==, i - prev_index - 1);
        }
      have_prev = TRUE;
      prev_time = ev.time;
      prev_index = i;
    }
  g_assert_cmpuint (row, ==, tw_measurement_table_get_n_rows (table));
}

static void
run_seed (guint64 seed)
{
  Rng rng = { seed * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) + 1 };
  Gen gen;
  Result fast[N_METRICS];
  g_autoptr(TwEvaluation) evaluation = NULL;
  guint late_metric = 0, leaving_metric = 0;
  guint n_batches = 6 + rng_below (&rng, 4);
  guint64 measurements = 0;

  gen_init (&gen);
  evaluation = tw_evaluation_new (gen.trace);

  /* Most metrics join at the start; one joins late, one leaves early. */
  late_metric = rng_below (&rng, N_METRICS);
  leaving_metric = (late_metric + 1 + rng_below (&rng, N_METRICS - 1)) % N_METRICS;
  for (guint m = 0; m < N_METRICS; m++)
    {
      result_init (&fast[m], m);
      if (m != late_metric)
        {
          g_assert_true (tw_evaluation_add_update (evaluation, fast[m].update, NULL));
          fast[m].joined = 0;
        }
    }

  for (guint b = 0; b < n_batches; b++)
    {
      /* after the late metric joined: nothing but the new types rebuilds the dispatch */
      if (b == 3)
        gen_add_late_types (&gen);
      gen_append (&gen, &rng, 200 + rng_below (&rng, 600));
      /* uneven steps: part of what exists, then the rest */
      g_assert_true (tw_evaluation_run_to (evaluation,
                                           tw_trace_get_n_events (gen.trace) - rng_below (&rng, 50),
                                           NULL, NULL, NULL, NULL));
      if (b == 1)
        {
          fast[late_metric].joined = tw_evaluation_get_position (evaluation);
          g_assert_true (tw_evaluation_add_update (evaluation, fast[late_metric].update, NULL));
        }
      if (b == n_batches - 2)
        {
          fast[leaving_metric].left = tw_evaluation_get_position (evaluation);
          tw_evaluation_remove_update (evaluation, fast[leaving_metric].update);
        }
    }
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, tw_trace_get_n_events (gen.trace));

  /* The reference: each metric alone, through prepare, a check, commit. */
  for (guint m = 0; m < N_METRICS; m++)
    {
      g_autoptr(TwEvaluation) reference = tw_evaluation_new (gen.trace);
      guint64 n_checks = 0;
      Result ref;

      result_init (&ref, m);
      tw_evaluation_set_check_func (reference, always_intact, &n_checks);
      g_assert_true (tw_evaluation_run_to (reference, fast[m].joined, NULL, NULL, NULL, NULL));
      g_assert_true (tw_evaluation_add_update (reference, ref.update, NULL));
      g_assert_true (tw_evaluation_run_to (reference, fast[m].left, NULL, NULL, NULL, NULL));
      /* the check ran, so this was the prepare/commit path (every metric consumes
       * something in these traces except response-time's absent default events) */
      if (strcmp (tw_metric_get_name (ref.metric), "response-time") != 0)
        g_assert_cmpuint (n_checks, >, 0);
      assert_same_results (&fast[m], &ref);
      measurements += tw_measurement_table_get_n_rows (ref.table);
      if (fast[m].joined == 0 && fast[m].left == G_MAXUINT64)
        {
          if (strcmp (tw_metric_get_name (ref.metric), "irq-duration") == 0)
            assert_irq_durations_naive (gen.trace, &gen.k, ref.table);
          else if (strcmp (tw_metric_get_name (ref.metric), "inter-arrival:kind:irq_entry") == 0)
            assert_inter_arrival_naive (gen.trace, gen.k.irq_in, ref.table);
        }
      result_clear (&ref);
    }
  /* the traces are rich enough to measure something */
  g_assert_cmpuint (measurements, >, 100);

  for (guint m = 0; m < N_METRICS; m++)
    result_clear (&fast[m]);
  g_clear_object (&gen.trace);
}

static void
test_fast_equals_prepare_commit (void)
{
  guint n_seeds = g_test_slow () ? 1000 : 60;

  for (guint64 seed = 1; seed <= n_seeds; seed++)
    run_seed (seed);
}

/* Updates sharing a context see each event in the order they joined, whether they
 * have direct functions or not, and whether the evaluation checks events or not. */
typedef struct {
  GString *log;
} OrderContext;

static gboolean
order_prepare (gpointer       context,
               gpointer       func_data,
               const TwEvent *event,
               guint          selector)
{
  OrderContext *oc = context;

  g_string_append_printf (oc->log, "%s%" G_GUINT64_FORMAT ":%u ", (const char *) func_data,
                          event->index, selector);
  return TRUE;
}

static void
order_commit (gpointer context,
              gpointer func_data,
              gboolean ok)
{
}

static void
order_direct_0 (gpointer       context,
                gpointer       func_data,
                const TwEvent *event)
{
  order_prepare (context, func_data, event, 0);
}

static void
order_direct_1 (gpointer       context,
                gpointer       func_data,
                const TwEvent *event)
{
  order_prepare (context, func_data, event, 1);
}

static const TwUpdateFuncs order_funcs = { NULL, order_prepare, order_commit, NULL };
static const TwUpdateDirectFunc order_directs[] = { order_direct_0, order_direct_1 };

static char *
run_order (TwTrace  *trace,
           gboolean  check)
{
  static const char *const sel_a[] = { "kind:wakeup", "kind:irq_entry", NULL };
  static const char *const sel_b[] = { "kind:irq_entry", "*", NULL };
  static const char *const sel_c[] = { "kind:wakeup", NULL };
  OrderContext oc = { g_string_new (NULL) };
  g_autoptr(TwUpdateContext) context = tw_update_context_new (&oc, NULL);
  g_autoptr(TwUpdate) a = tw_update_new (&order_funcs, (gpointer) "a", NULL, context, sel_a);
  g_autoptr(TwUpdate) b = tw_update_new (&order_funcs, (gpointer) "b", NULL, context, sel_b);
  g_autoptr(TwUpdate) c = tw_update_new (&order_funcs, (gpointer) "c", NULL, context, sel_c);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  guint64 n_checks = 0;

  tw_update_set_direct_funcs (a, order_directs, 2);
  tw_update_set_direct_funcs (c, order_directs, 1);
  if (check)
    tw_evaluation_set_check_func (evaluation, always_intact, &n_checks);
  g_assert_true (tw_evaluation_add_update (evaluation, a, NULL));
  g_assert_true (tw_evaluation_add_update (evaluation, b, NULL));
  g_assert_true (tw_evaluation_run_to (evaluation, 3, NULL, NULL, NULL, NULL));
  g_assert_true (tw_evaluation_add_update (evaluation, c, NULL));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
  return g_string_free (oc.log, FALSE);
}

static void
test_shared_context_order (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  TwTestKindTypes k;
  g_autofree char *fast = NULL;
  g_autofree char *checked = NULL;
  guint16 other;

  tw_test_add_kind_types (trace, &k);
  other = tw_test_add_simple_type (trace, "other", TW_EVENT_KIND_OTHER);
  tw_test_ensure_tasks (trace, 3);
  tw_trace_append (trace, 10, 0, k.wake, 0, 1, NULL);
  tw_trace_append (trace, 20, 0, k.irq_in, 0, 5, NULL);
  tw_trace_append (trace, 30, 1, other, 1, 0, NULL);
  tw_trace_append (trace, 40, 0, k.irq_in, 0, 6, NULL);
  tw_trace_append (trace, 50, 1, k.wake, 1, 2, NULL);

  fast = run_order (trace, FALSE);
  checked = run_order (trace, TRUE);
  /* hand-written: a (direct) before b before c (direct, joined at event 3) */
  g_assert_cmpstr (fast, ==, "a0:0 b0:1 a1:1 b1:0 b2:1 a3:1 b3:0 a4:0 b4:1 c4:0 ");
  g_assert_cmpstr (checked, ==, fast);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/eval-paths/fast-equals-prepare-commit",
                   test_fast_equals_prepare_commit);
  g_test_add_func ("/tw/evaluators/eval-paths/shared-context-order", test_shared_context_order);
  return g_test_run ();
}
