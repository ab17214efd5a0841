/* test-update.c: update functions, shared contexts, and evaluations
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-test-utils.h"

/* A trace of "a" and "b" user events alternating, with values in arg. */
static TwTrace *
new_ab_trace (guint n,
              guint16 *type_a,
              guint16 *type_b)
{
  TwTrace *trace = tw_trace_new ();
  guint32 task = tw_trace_add_task (trace, "1", "t", 1, 1);

  *type_a = tw_test_add_simple_type (trace, "a", TW_EVENT_KIND_USER);
  *type_b = tw_test_add_simple_type (trace, "b", TW_EVENT_KIND_USER);
  for (guint i = 0; i < n; i++)
    tw_trace_append (trace, 100 * (i + 1), 0, i % 2 ? *type_b : *type_a, task, i, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

/* A counter that commits only when prepare succeeds: odd args fail to prepare. */
typedef struct {
  guint prepared;
  guint committed;
  guint discarded;
  guint64 sum;
  guint64 pending;
  guint64 last_index;
  gboolean in_order;
  guint finished;
} Counter;

static gboolean
counter_prepare (gpointer       context,
                 gpointer       func_data,
                 const TwEvent *event,
                 guint          selector)
{
  Counter *c = func_data;

  c->prepared++;
  if (c->prepared > 1 && event->index <= c->last_index)
    c->in_order = FALSE;
  c->last_index = event->index;
  c->pending = event->arg;
  return event->arg % 2 == 0;
}

static void
counter_commit (gpointer context,
                gpointer func_data,
                gboolean ok)
{
  Counter *c = func_data;

  if (ok)
    {
      c->committed++;
      c->sum += c->pending;
    }
  else
    c->discarded++;
}

static void
counter_finish (gpointer context,
                gpointer func_data)
{
  ((Counter *) func_data)->finished++;
}

static const TwUpdateFuncs counter_funcs = {
  NULL, counter_prepare, counter_commit, counter_finish,
};

static void
test_prepare_commit (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (10, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  static const char *const all[] = { "*", NULL };
  Counter c = { .in_order = TRUE };
  g_autoptr(TwUpdate) update = tw_update_new (&counter_funcs, &c, NULL, NULL, all);
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_evaluation_add_update (evaluation, update, &error));
  g_assert_no_error (error);
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
  tw_evaluation_finish (evaluation);

  /* args 0..9: even ones prepare, odd ones fail and are committed with ok = FALSE */
  g_assert_cmpuint (c.prepared, ==, 10);
  g_assert_cmpuint (c.committed, ==, 5);
  g_assert_cmpuint (c.discarded, ==, 5);
  g_assert_cmpuint (c.sum, ==, 0 + 2 + 4 + 6 + 8);
  g_assert_true (c.in_order);
  g_assert_cmpuint (c.finished, ==, 1);
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, 10);
}

/* A live source says which elements were overwritten while they were prepared: those
 * are committed with ok = FALSE even though prepare succeeded. */
static gboolean
reject_multiples_of_four (guint64  index,
                          gpointer user_data)
{
  (*(guint *) user_data)++;
  return index % 4 != 0;
}

static void
test_check_func (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (10, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  static const char *const all[] = { "*", NULL };
  Counter c = { .in_order = TRUE };
  g_autoptr(TwUpdate) update = tw_update_new (&counter_funcs, &c, NULL, NULL, all);
  guint checks = 0;

  tw_evaluation_set_check_func (evaluation, reject_multiples_of_four, &checks);
  g_assert_true (tw_evaluation_add_update (evaluation, update, NULL));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));

  /* even args (= indexes) prepare; of those, 0, 4, 8 were "overwritten" */
  g_assert_cmpuint (c.prepared, ==, 10);
  g_assert_cmpuint (checks, ==, 5);
  g_assert_cmpuint (c.committed, ==, 2);
  g_assert_cmpuint (c.sum, ==, 2 + 6);
  g_assert_cmpuint (c.discarded, ==, 8);
}

/* Two update functions over two event types share one context: a state machine that
 * measures a → next b distances (Riegel 2005 §5.1: update functions advancing a shared
 * state). */
typedef struct {
  guint64 a_time;
  gboolean have_a;
  GArray *distances;
  guint64 prepared_time;
} PairState;

static gboolean
pair_a_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  PairState *s = context;

  s->prepared_time = event->time;
  return TRUE;
}

static void
pair_a_commit (gpointer context, gpointer func_data, gboolean ok)
{
  PairState *s = context;

  if (ok)
    {
      s->a_time = s->prepared_time;
      s->have_a = TRUE;
    }
}

static gboolean
pair_b_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  PairState *s = context;

  s->prepared_time = event->time;
  return s->have_a;
}

static void
pair_b_commit (gpointer context, gpointer func_data, gboolean ok)
{
  PairState *s = context;

  if (ok)
    {
      guint64 d = s->prepared_time - s->a_time;

      g_array_append_val (s->distances, d);
      s->have_a = FALSE;
    }
}

static const TwUpdateFuncs pair_a_funcs = { NULL, pair_a_prepare, pair_a_commit, NULL };
static const TwUpdateFuncs pair_b_funcs = { NULL, pair_b_prepare, pair_b_commit, NULL };

static void
pair_state_free (gpointer data)
{
  PairState *s = data;

  g_array_unref (s->distances);
  g_free (s);
}

static void
test_shared_context (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint32 task = tw_trace_add_task (trace, "1", "t", 1, 1);
  guint16 a = tw_test_add_simple_type (trace, "a", TW_EVENT_KIND_USER);
  guint16 b = tw_test_add_simple_type (trace, "b", TW_EVENT_KIND_USER);
  guint16 x = tw_test_add_simple_type (trace, "x", TW_EVENT_KIND_OTHER);
  PairState *state = g_new0 (PairState, 1);
  g_autoptr(TwUpdateContext) context = NULL;
  g_autoptr(TwUpdate) ua = NULL;
  g_autoptr(TwUpdate) ub = NULL;
  g_autoptr(TwEvaluation) evaluation = NULL;
  static const char *const sel_a[] = { "a", NULL };
  static const char *const sel_b[] = { "b", NULL };
  guint64 *d;

  /* b at 50 has no a before it; a 100 → b 130; x ignored; a 200, a 210 → b 260 (50) */
  tw_trace_append (trace, 50, 0, b, task, 0, NULL);
  tw_trace_append (trace, 100, 0, a, task, 0, NULL);
  tw_trace_append (trace, 120, 0, x, task, 0, NULL);
  tw_trace_append (trace, 130, 0, b, task, 0, NULL);
  tw_trace_append (trace, 200, 0, a, task, 0, NULL);
  tw_trace_append (trace, 210, 0, a, task, 0, NULL);
  tw_trace_append (trace, 260, 0, b, task, 0, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  state->distances = g_array_new (FALSE, FALSE, sizeof (guint64));
  context = tw_update_context_new (state, pair_state_free);
  ua = tw_update_new (&pair_a_funcs, NULL, NULL, context, sel_a);
  ub = tw_update_new (&pair_b_funcs, NULL, NULL, context, sel_b);
  g_assert_true (tw_update_get_context (ua) == tw_update_get_context (ub));

  evaluation = tw_evaluation_new (trace);
  g_assert_true (tw_evaluation_add_update (evaluation, ua, NULL));
  g_assert_true (tw_evaluation_add_update (evaluation, ub, NULL));
  g_assert_cmpuint (tw_evaluation_get_n_updates (evaluation), ==, 2);
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));

  g_assert_cmpuint (state->distances->len, ==, 2);
  d = (guint64 *) state->distances->data;
  g_assert_cmpuint (d[0], ==, 30);
  g_assert_cmpuint (d[1], ==, 50);
}

/* Updates join and leave while the evaluation runs, from inside an update function:
 * the change applies from the next event on, without stopping the run. */
typedef struct {
  TwEvaluation *evaluation;
  TwUpdate     *late;     /* added at arg 3 */
  TwUpdate     *self;     /* removes itself at arg 6 */
  guint         seen;
} Driver;

static gboolean
driver_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  Driver *d = func_data;

  d->seen++;
  if (event->arg == 3)
    g_assert_true (tw_evaluation_add_update (d->evaluation, d->late, NULL));
  if (event->arg == 6)
    tw_evaluation_remove_update (d->evaluation, d->self);
  return TRUE;
}

static void
driver_commit (gpointer context, gpointer func_data, gboolean ok)
{
}

static const TwUpdateFuncs driver_funcs = { NULL, driver_prepare, driver_commit, NULL };

static void
test_add_remove_running (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (10, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  static const char *const all[] = { "*", NULL };
  Counter late = { .in_order = TRUE };
  Driver driver = { 0 };
  g_autoptr(TwUpdate) late_update = tw_update_new (&counter_funcs, &late, NULL, NULL, all);
  g_autoptr(TwUpdate) driver_update = tw_update_new (&driver_funcs, &driver, NULL, NULL, all);

  driver.evaluation = evaluation;
  driver.late = late_update;
  driver.self = driver_update;
  g_assert_true (tw_evaluation_add_update (evaluation, driver_update, NULL));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));

  /* The driver saw args 0..6 and left; the late counter saw 4..9 (even: 4, 6, 8). */
  g_assert_cmpuint (driver.seen, ==, 7);
  g_assert_cmpuint (late.prepared, ==, 6);
  g_assert_cmpuint (late.sum, ==, 4 + 6 + 8);
  g_assert_cmpuint (tw_evaluation_get_n_updates (evaluation), ==, 1);

  /* Removing the last one outside a run calls its finish at once. */
  tw_evaluation_remove_update (evaluation, late_update);
  g_assert_cmpuint (late.finished, ==, 1);
  g_assert_cmpuint (tw_evaluation_get_n_updates (evaluation), ==, 0);
}

/* Feeding in steps (live) gives what one run gives; selectors by name and kind. */
static void
test_incremental_feed (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (1000, &a, &b);
  static const char *const only_b[] = { "b", NULL };
  static const char *const by_kind[] = { "kind:user", NULL };
  Counter whole = { .in_order = TRUE }, steps = { .in_order = TRUE }, kinds = { .in_order = TRUE };
  g_autoptr(TwUpdate) uw = tw_update_new (&counter_funcs, &whole, NULL, NULL, only_b);
  g_autoptr(TwUpdate) us = tw_update_new (&counter_funcs, &steps, NULL, NULL, only_b);
  g_autoptr(TwUpdate) uk = tw_update_new (&counter_funcs, &kinds, NULL, NULL, by_kind);
  g_autoptr(TwEvaluation) e1 = tw_evaluation_new (trace);
  g_autoptr(TwEvaluation) e2 = tw_evaluation_new (trace);

  g_assert_true (tw_evaluation_add_update (e1, uw, NULL));
  g_assert_true (tw_evaluation_add_update (e1, uk, NULL));
  g_assert_true (tw_evaluation_run (e1, NULL, NULL, NULL, NULL));
  g_assert_true (tw_evaluation_add_update (e2, us, NULL));
  for (guint64 end = 0; end <= 1000; end += 37)
    g_assert_true (tw_evaluation_run_to (e2, end, NULL, NULL, NULL, NULL));
  g_assert_true (tw_evaluation_run (e2, NULL, NULL, NULL, NULL));

  /* "b" rows carry the odd args: all fail to prepare */
  g_assert_cmpuint (whole.prepared, ==, 500);
  g_assert_cmpuint (whole.committed, ==, 0);
  g_assert_cmpuint (steps.prepared, ==, whole.prepared);
  g_assert_true (steps.in_order);
  g_assert_cmpuint (kinds.prepared, ==, 1000);
  g_assert_cmpuint (kinds.sum, ==, 2 * (0 + 499) * 500 / 2);
}

/* A live trace grows while it is evaluated, types included: an update naming a type
 * that does not exist yet picks it up when it appears. */
static void
test_live_trace (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint32 task = tw_trace_add_task (trace, "1", "t", 1, 1);
  guint16 a = tw_test_add_simple_type (trace, "a", TW_EVENT_KIND_USER);
  guint16 late_type;
  static const char *const only_late[] = { "late", NULL };
  static const char *const by_kind[] = { "kind:user", NULL };
  Counter late = { .in_order = TRUE }, users = { .in_order = TRUE };
  g_autoptr(TwUpdate) ul = tw_update_new (&counter_funcs, &late, NULL, NULL, only_late);
  g_autoptr(TwUpdate) uu = tw_update_new (&counter_funcs, &users, NULL, NULL, by_kind);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);

  g_assert_true (tw_evaluation_add_update (evaluation, ul, NULL));
  g_assert_true (tw_evaluation_add_update (evaluation, uu, NULL));
  for (guint i = 0; i < 10; i++)
    tw_trace_append (trace, 10 * i, 0, a, task, 2 * i, NULL);
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, 10);
  g_assert_cmpuint (users.prepared, ==, 10);
  g_assert_cmpuint (late.prepared, ==, 0);

  late_type = tw_test_add_simple_type (trace, "late", TW_EVENT_KIND_USER);
  for (guint i = 10; i < 15; i++)
    tw_trace_append (trace, 10 * i, 1, i % 2 ? late_type : a, task, 2 * i, NULL);
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, 15);
  g_assert_cmpuint (late.prepared, ==, 2);      /* 11 and 13 */
  g_assert_cmpuint (late.sum, ==, 22 + 26);
  g_assert_cmpuint (users.prepared, ==, 15);
  g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 0), ==, 10);
  g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 1), ==, 5);
  g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 7), ==, 0);
}

static void
cancel_at_half (double   fraction,
                gpointer user_data)
{
  if (fraction >= 0.5)
    g_cancellable_cancel (user_data);
}

static void
test_cancel (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (4 * TW_CHUNK_SIZE, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  static const char *const all[] = { "*", NULL };
  Counter c = { .in_order = TRUE };
  g_autoptr(TwUpdate) update = tw_update_new (&counter_funcs, &c, NULL, NULL, all);

  g_assert_true (tw_evaluation_add_update (evaluation, update, NULL));
  g_assert_false (tw_evaluation_run (evaluation, cancel_at_half, cancellable, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* progress comes per 64 Ki chunk: it stopped after two of four */
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, 2 * TW_CHUNK_SIZE);
  g_assert_cmpuint (c.prepared, ==, 2 * TW_CHUNK_SIZE);
}

/* Another thread adds and removes an update while a run goes on: the update sees one
 * unbroken stretch of events, in order, and the run never stops. */
typedef struct {
  TwEvaluation *evaluation;
  gboolean      ok;
} RunData;

static gpointer
run_thread (gpointer data)
{
  RunData *rd = data;

  rd->ok = tw_evaluation_run (rd->evaluation, NULL, NULL, NULL, NULL);
  return NULL;
}

typedef struct {
  guint64 first;
  guint64 last;
  guint64 n;
  gboolean consecutive;
  gint started;   /* atomic: the other thread waits for it */
} Stretch;

static gboolean
stretch_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  Stretch *st = func_data;

  if (st->n == 0)
    st->first = event->index;
  else if (event->index != st->last + 1)
    st->consecutive = FALSE;
  st->last = event->index;
  st->n++;
  g_atomic_int_set (&st->started, 1);
  return TRUE;
}

static void
stretch_commit (gpointer context, gpointer func_data, gboolean ok)
{
}

static const TwUpdateFuncs stretch_funcs = { NULL, stretch_prepare, stretch_commit, NULL };

static void
test_add_remove_other_thread (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (8 * TW_CHUNK_SIZE, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  static const char *const all[] = { "*", NULL };
  Counter c = { .in_order = TRUE };
  Stretch st = { .consecutive = TRUE };
  g_autoptr(TwUpdate) base = tw_update_new (&counter_funcs, &c, NULL, NULL, all);
  g_autoptr(TwUpdate) late = tw_update_new (&stretch_funcs, &st, NULL, NULL, all);
  RunData rd = { evaluation, FALSE };
  GThread *thread;

  g_assert_true (tw_evaluation_add_update (evaluation, base, NULL));
  thread = g_thread_new ("run", run_thread, &rd);
  g_assert_true (tw_evaluation_add_update (evaluation, late, NULL));
  while (!g_atomic_int_get (&st.started) && tw_evaluation_get_position (evaluation) < 6 * TW_CHUNK_SIZE)
    g_thread_yield ();
  tw_evaluation_remove_update (evaluation, late);
  g_thread_join (thread);

  g_assert_true (rd.ok);
  g_assert_cmpuint (c.prepared, ==, 8 * TW_CHUNK_SIZE);
  g_assert_true (c.in_order);
  g_assert_true (st.consecutive);
  if (st.n > 0)
    g_assert_cmpuint (st.last - st.first + 1, ==, st.n);
  g_assert_cmpuint (tw_evaluation_get_n_updates (evaluation), ==, 1);
}

static gboolean
refuse_bind (gpointer context, gpointer func_data, TwEvaluation *evaluation, GError **error)
{
  g_set_error_literal (error, TW_EVALUATION_ERROR, TW_EVALUATION_ERROR_BIND, "no");
  return FALSE;
}

static const TwUpdateFuncs refusing_funcs = { refuse_bind, counter_prepare, counter_commit, NULL };

static void
test_bind_refused (void)
{
  guint16 a, b;
  g_autoptr(TwTrace) trace = new_ab_trace (4, &a, &b);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  static const char *const all[] = { "*", NULL };
  Counter c = { 0 };
  g_autoptr(TwUpdate) update = tw_update_new (&refusing_funcs, &c, NULL, NULL, all);
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_evaluation_add_update (evaluation, update, &error));
  g_assert_error (error, TW_EVALUATION_ERROR, TW_EVALUATION_ERROR_BIND);
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
  g_assert_cmpuint (c.prepared, ==, 0);
}

/* ------------------------------------------------------------------ batches */

/* Sees events as runs (its batch entry) or one by one (prepare/commit); every event
 * of the test trace carries its index in arg, so it checks that nothing is skipped
 * or seen twice. */
typedef struct {
  guint64  n;
  guint64  next_arg;
  gboolean in_order;
  guint    n_batches;
} Seen;

static void
seen_one (Seen    *seen,
          guint32  arg)
{
  if (seen->n > 0 && arg != seen->next_arg)
    seen->in_order = FALSE;
  seen->next_arg = (guint64) arg + 1;
  seen->n++;
}

static gboolean
seen_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  seen_one (func_data, event->arg);
  return TRUE;
}

static void
seen_commit (gpointer context, gpointer func_data, gboolean ok)
{
}

static void
seen_batch (gpointer            context,
            gpointer            func_data,
            const TwEventChunk *chunk,
            guint               first,
            guint               n_rows,
            const guint16      *slots,
            guint               n_types)
{
  Seen *seen = func_data;

  seen->n_batches++;
  for (guint r = first; r < first + n_rows; r++)
    {
      g_assert_cmpuint (chunk->type[r], <, n_types);
      if (slots[chunk->type[r]] != 0)
        seen_one (seen, chunk->arg[r]);
    }
}

static const TwUpdateFuncs seen_funcs = { NULL, seen_prepare, seen_commit, NULL };

/* Adds @late after event @add_at and removes it after event @remove_at. */
typedef struct {
  TwEvaluation *evaluation;
  TwUpdate     *late;
  guint32       add_at;
  guint32       remove_at;
} Switcher;

static gboolean
switcher_prepare (gpointer context, gpointer func_data, const TwEvent *event, guint selector)
{
  Switcher *s = func_data;

  if (event->arg == s->add_at)
    g_assert_true (tw_evaluation_add_update (s->evaluation, s->late, NULL));
  if (event->arg == s->remove_at)
    tw_evaluation_remove_update (s->evaluation, s->late);
  return TRUE;
}

static const TwUpdateFuncs switcher_funcs = { NULL, switcher_prepare, seen_commit, NULL };

/* Three chunks and a bit; CPUs 0–2, some events on no CPU and some on CPU 300. */
static TwTrace *
new_batch_trace (guint n)
{
  TwTrace *trace = tw_trace_new ();
  guint32 task = tw_trace_add_task (trace, "1", "t", 1, 1);
  guint16 a = tw_test_add_simple_type (trace, "a", TW_EVENT_KIND_USER);

  for (guint i = 0; i < n; i++)
    tw_trace_append (trace, 10 * (guint64) i, i % 7 == 0 ? TW_CPU_NONE : i % 11 == 0 ? 300 : i % 3,
                     a, task, i, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static TwUpdate *
new_seen_update (Seen *seen)
{
  static const char *const all[] = { "*", NULL };
  TwUpdate *update = tw_update_new (&seen_funcs, seen, NULL, NULL, all);

  *seen = (Seen) { .in_order = TRUE };
  tw_update_set_batch_func (update, seen_batch);
  g_assert_true (tw_update_get_batch_func (update) == seen_batch);
  return update;
}

static void
test_batches (void)
{
  const guint n = 3 * TW_CHUNK_SIZE + 1234;
  g_autoptr(TwTrace) trace = new_batch_trace (n);
  guint64 expected_cpu[4] = { 0 };   /* CPUs 0, 1, 2, 300 */
  static const char *const all[] = { "*", NULL };

  for (guint i = 0; i < n; i++)
    if (i % 7 != 0)
      expected_cpu[i % 11 == 0 ? 3 : i % 3]++;

  /* only batch updates: whole chunks, and the per-CPU counts still kept */
  {
    g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
    Seen seen;
    g_autoptr(TwUpdate) update = new_seen_update (&seen);

    g_assert_true (tw_evaluation_add_update (evaluation, update, NULL));
    g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
    g_assert_cmpuint (seen.n, ==, n);
    g_assert_true (seen.in_order);
    g_assert_cmpuint (seen.n_batches, ==, 4);
    for (guint c = 0; c < 3; c++)
      g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, c), ==, expected_cpu[c]);
    g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 300), ==, expected_cpu[3]);
    g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 299), ==, 0);
  }

  /* with a check function, the same update is fed one event at a time */
  {
    g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
    Seen seen;
    g_autoptr(TwUpdate) update = new_seen_update (&seen);
    guint n_checks = 0;

    tw_evaluation_set_check_func (evaluation, reject_multiples_of_four, &n_checks);
    g_assert_true (tw_evaluation_add_update (evaluation, update, NULL));
    g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
    g_assert_cmpuint (seen.n, ==, n);
    g_assert_true (seen.in_order);
    g_assert_cmpuint (seen.n_batches, ==, 0);
    g_assert_cmpuint (n_checks, ==, n);
    g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 300), ==, expected_cpu[3]);
  }

  /* joining after event 1000 and leaving after the one in the middle of the third
   * chunk, both in the middle of a run, while a per-event update takes part: it sees
   * exactly the events between, in runs cut there; in steps as a live trace */
  {
    g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
    Seen late;
    g_autoptr(TwUpdate) late_update = new_seen_update (&late);
    Switcher switcher = { evaluation, late_update, 1000, 2 * TW_CHUNK_SIZE + 5000 };
    g_autoptr(TwUpdate) switcher_update = tw_update_new (&switcher_funcs, &switcher, NULL, NULL, all);

    g_assert_true (tw_evaluation_add_update (evaluation, switcher_update, NULL));
    g_assert_true (tw_evaluation_run_to (evaluation, TW_CHUNK_SIZE + 77, NULL, NULL, NULL, NULL));
    g_assert_cmpuint (late.n, ==, TW_CHUNK_SIZE + 77 - 1001);
    g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL));
    g_assert_cmpuint (late.n, ==, switcher.remove_at - switcher.add_at);
    g_assert_true (late.in_order);
    g_assert_cmpuint (late.next_arg, ==, switcher.remove_at + 1);
    /* chunk 0 from 1001, the step's end, the rest of chunk 1, chunk 2 up to the removal */
    g_assert_cmpuint (late.n_batches, ==, 4);
    g_assert_cmpuint (tw_evaluation_get_cpu_event_count (evaluation, 0), ==, expected_cpu[0]);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/update/prepare-commit", test_prepare_commit);
  g_test_add_func ("/tw/evaluators/update/check-func", test_check_func);
  g_test_add_func ("/tw/evaluators/update/shared-context", test_shared_context);
  g_test_add_func ("/tw/evaluators/update/add-remove-running", test_add_remove_running);
  g_test_add_func ("/tw/evaluators/update/incremental-feed", test_incremental_feed);
  g_test_add_func ("/tw/evaluators/update/live-trace", test_live_trace);
  g_test_add_func ("/tw/evaluators/update/cancel", test_cancel);
  g_test_add_func ("/tw/evaluators/update/add-remove-other-thread", test_add_remove_other_thread);
  g_test_add_func ("/tw/evaluators/update/bind-refused", test_bind_refused);
  g_test_add_func ("/tw/evaluators/update/batches", test_batches);

  return g_test_run ();
}
