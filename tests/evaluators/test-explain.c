/* test-explain.c: breakdowns of measurements and their critical paths, on hand-made
 * traces, on random ones (the sum) and against the simulator's ground truth
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

typedef struct {
  TwTrace         *trace;
  TwTestKindTypes  k;
  guint16          lock;
  guint16          unlock;
  guint16          wait;
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
  f->lock = tw_test_add_simple_type (f->trace, "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  f->unlock = tw_test_add_simple_type (f->trace, "mutex_unlock", TW_EVENT_KIND_MUTEX_UNLOCK);
  f->wait = tw_test_add_simple_type (f->trace, "mutex_wait", TW_EVENT_KIND_MUTEX_WAIT);
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

/* The invariant every explanation keeps: components sum to the length, stretches
 * cover [begin, end) in order without gaps and add up to their components. */
static void
assert_consistent (const TwExplanation *e)
{
  guint64 at = e->row.begin;
  g_autofree guint64 *sums = g_new0 (guint64, MAX (e->components->len, 1));

  g_assert_cmpuint (tw_explanation_get_total (e), ==, e->row.end - e->row.begin);
  for (guint i = 0; i < e->stretches->len; i++)
    {
      const TwExplainStretch *s = &g_array_index (e->stretches, TwExplainStretch, i);

      g_assert_cmpuint (s->start, ==, at);
      g_assert_cmpuint (s->end, >, s->start);
      g_assert_cmpuint (s->component, <, e->components->len);
      sums[s->component] += s->end - s->start;
      at = s->end;
    }
  g_assert_cmpuint (at, ==, e->row.end);
  for (guint i = 0; i < e->components->len; i++)
    g_assert_cmpuint (sums[i], ==, g_array_index (e->components, TwExplainComponent, i).time_ns);
}

static TwExplanation *
explain (TwStateModel *model,
         guint32       task,
         guint64       begin,
         guint64       end)
{
  TwMeasurementRow row = { task, 0, begin, end, end - begin };
  TwExplanation *e = tw_explain_measurement (model, &row);

  assert_consistent (e);
  return e;
}

static guint64
irq_time (const TwExplanation *e,
          guint32              number,
          TwIrqKind            kind)
{
  for (guint i = 0; i < e->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (e->components, TwExplainComponent, i);

      if (c->kind == TW_EXPLAIN_INTERRUPTED && c->irq == number && c->irq_kind == kind)
        return c->time_ns;
    }
  return 0;
}

/* a runs on cpu0 100..200 with irq 10 (120..150) holding a nested irq 11 (130..140),
 * and softirq 1 at 170..175: the innermost handler gets the time. */
static void
test_running_and_interrupts (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 10, NULL);
  tw_trace_append (f->trace, 130, 0, f->k.irq_in, f->a, 11, NULL);
  tw_trace_append (f->trace, 140, 0, f->k.irq_out, f->a, 11, NULL);
  tw_trace_append (f->trace, 150, 0, f->k.irq_out, f->a, 10, NULL);
  tw_trace_append (f->trace, 170, 0, f->k.soft_in, f->a, 1, NULL);
  tw_trace_append (f->trace, 175, 0, f->k.soft_out, f->a, 1, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->idle0, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 100, 200);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 65);
  g_assert_cmpuint (irq_time (e, 10, TW_IRQ_HARD), ==, 20);
  g_assert_cmpuint (irq_time (e, 11, TW_IRQ_HARD), ==, 10);
  g_assert_cmpuint (irq_time (e, 1, TW_IRQ_SOFT), ==, 5);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_UNACCOUNTED), ==, 0);
  /* the largest first */
  g_assert_cmpint (g_array_index (e->components, TwExplainComponent, 0).kind, ==,
                   TW_EXPLAIN_RUNNING);

  /* a measurement that begins inside the nested handler */
  {
    g_autoptr(TwExplanation) inside = explain (model, f->a, 135, 160);

    g_assert_cmpuint (irq_time (inside, 11, TW_IRQ_HARD), ==, 5);
    g_assert_cmpuint (irq_time (inside, 10, TW_IRQ_HARD), ==, 10);
    g_assert_cmpuint (tw_explanation_sum_kind (inside, TW_EXPLAIN_RUNNING), ==, 10);
  }
}

/* cpu0: a runs from 100, b (woken by c at 90 on cpu1) preempts it 150..180, a runs
 * again until 200. cpu1: c runs. */
static void
test_preempted (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  const TwExplainComponent *by_b;
  g_autofree char *who = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 50, 1, f->idle1, f->c, "R");
  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 140, 1, f->k.wake, f->c, f->b, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 150, 0, f->a, f->b, "R+");
  tw_test_append_switch (f->trace, f->k.sw, 180, 0, f->b, f->a, "S");
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->idle0, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 100, 200);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 70);
  by_b = tw_explanation_find (e, TW_EXPLAIN_PREEMPTED, f->b);
  g_assert_nonnull (by_b);
  g_assert_cmpuint (by_b->time_ns, ==, 30);
  g_assert_cmpuint (by_b->waker, ==, f->c);
  g_assert_cmpint (by_b->priority, ==, TW_EXPLAIN_PRIORITY_NONE);
  who = tw_explain_dup_who (f->trace, by_b);
  g_assert_nonnull (strstr (who, "woken by c-13"));
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_WAITING), ==, 0);
}

/* a sleeps from 50; c, running on cpu1, is woken at 80 inside irq 5 on cpu1 (by
 * nobody: the handler); c wakes a at 100 while b runs on cpu0; a is switched in at 130. */
static void
test_waiting_and_path (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  const TwExplainComponent *wait;
  const TwExplainStep *step;

  tw_test_append_switch (f->trace, f->k.sw, 10, 0, f->idle0, f->a, "R");
  tw_test_append_switch (f->trace, f->k.sw, 50, 0, f->a, f->b, "S");
  tw_trace_append (f->trace, 75, 1, f->k.irq_in, f->idle1, 5, NULL);
  tw_trace_append (f->trace, 80, 1, f->k.wake, f->idle1, f->c, NULL);
  tw_trace_append (f->trace, 85, 1, f->k.irq_out, f->idle1, 5, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 90, 1, f->idle1, f->c, "R");
  tw_trace_append (f->trace, 100, 1, f->k.wake, f->c, f->a, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 130, 0, f->b, f->a, "R+");
  tw_test_append_switch (f->trace, f->k.sw, 160, 0, f->a, f->b, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 100, 160);
  wait = tw_explanation_find (e, TW_EXPLAIN_WAITING, f->b);
  g_assert_nonnull (wait);
  g_assert_cmpuint (wait->time_ns, ==, 30);
  g_assert_cmpuint (wait->waker, ==, f->c);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 30);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_PREEMPTED), ==, 0);

  /* a ← c (at 100) ← woken in irq 5 at 80 */
  g_assert_cmpuint (e->path->len, ==, 3);
  step = &g_array_index (e->path, TwExplainStep, 0);
  g_assert_cmpint (step->kind, ==, TW_EXPLAIN_STEP_WAKEUP);
  g_assert_cmpuint (step->task, ==, f->a);
  g_assert_cmpuint (step->waker, ==, f->c);
  g_assert_cmpuint (step->time, ==, 100);
  step = &g_array_index (e->path, TwExplainStep, 1);
  g_assert_cmpint (step->kind, ==, TW_EXPLAIN_STEP_WAKEUP);
  g_assert_cmpuint (step->task, ==, f->c);
  g_assert_cmpuint (step->time, ==, 80);
  step = &g_array_index (e->path, TwExplainStep, 2);
  g_assert_cmpint (step->kind, ==, TW_EXPLAIN_STEP_IRQ);
  g_assert_cmpuint (step->irq, ==, 5);
  g_assert_cmpuint (step->time, ==, 75);

  /* the sleep before the wakeup is blocked, on no mutex */
  {
    g_autoptr(TwExplanation) sleep = explain (model, f->a, 40, 100);

    g_assert_cmpuint (tw_explanation_sum_kind (sleep, TW_EXPLAIN_BLOCKED), ==, 50);
    g_assert_cmpuint (tw_explanation_sum_kind (sleep, TW_EXPLAIN_RUNNING), ==, 10);
    g_assert_cmpuint (tw_explanation_find (sleep, TW_EXPLAIN_BLOCKED, TW_TASK_NONE)->mutex, ==,
                      TW_EXPLAIN_MUTEX_NONE);
  }
}

/* One CPU. c (low) locks mutex 7 at 20; a (high) runs from 40, waits for it at 50 and
 * sleeps at 55; c runs; b (middle) is woken at 60 and runs 60..80: a priority
 * inversion; c unlocks at 90, a is switched in at 95 and runs to 100. */
static void
test_mutex_and_inversion (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  const TwExplainComponent *blocked, *inversion, *wait;
  g_autofree char *who = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 10, 0, f->idle0, f->c, "R");
  tw_trace_append (f->trace, 20, 0, f->lock, f->c, 7, NULL);
  tw_trace_append (f->trace, 38, 0, f->k.wake, f->c, f->a, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 40, 0, f->c, f->a, "R+");
  tw_trace_append (f->trace, 50, 0, f->wait, f->a, 7, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 55, 0, f->a, f->c, "S");
  tw_trace_append (f->trace, 60, 0, f->k.wake, f->c, f->b, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 60, 0, f->c, f->b, "R+");
  tw_test_append_switch (f->trace, f->k.sw, 80, 0, f->b, f->c, "S");
  tw_trace_append (f->trace, 90, 0, f->unlock, f->c, 7, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 95, 0, f->c, f->a, "R+");
  tw_trace_append (f->trace, 96, 0, f->lock, f->a, 7, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 120, 0, f->a, f->c, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 40, 100);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 15 + 5);
  blocked = tw_explanation_find (e, TW_EXPLAIN_BLOCKED, TW_TASK_NONE);
  g_assert_nonnull (blocked);
  g_assert_cmpuint (blocked->time_ns, ==, 5 + 10);
  g_assert_cmpuint (blocked->mutex, ==, 7);
  g_assert_cmpuint (blocked->owner, ==, f->c);
  inversion = tw_explanation_find (e, TW_EXPLAIN_PRIORITY_INVERSION, f->b);
  g_assert_nonnull (inversion);
  g_assert_cmpuint (inversion->time_ns, ==, 20);
  g_assert_cmpuint (inversion->owner, ==, f->c);
  who = tw_explain_dup_who (f->trace, inversion);
  g_assert_cmpstr (who, ==, "b-12, woken by c-13; mutex 0x7 owned by c-13");
  /* after the unlock a is runnable, woken by its owner */
  wait = tw_explanation_find (e, TW_EXPLAIN_WAITING, f->c);
  g_assert_nonnull (wait);
  g_assert_cmpuint (wait->time_ns, ==, 5);
  g_assert_cmpuint (wait->waker, ==, f->c);
}

/* With priorities in the switches, a third task more urgent than the blocked one is no
 * inversion, and preemptions carry the preempter's priority. */
static void
test_priorities (Fixture       *f,
                 gconstpointer  data)
{
  static const TwFieldSpec fields[] = {
    { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
    { "next_prio", TW_FIELD_I64, TW_FIELD_FLAG_OPTIONAL },
  };
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  const TwExplainComponent *blocked;
  guint16 sw = tw_trace_add_event_type (f->trace, "sched_switch", "sched", TW_EVENT_KIND_SWITCH,
                                        fields, G_N_ELEMENTS (fields), NULL);
  const TwEventType *type = tw_trace_get_event_type (f->trace, sw);
  struct { guint64 t; guint32 prev, next; const char *state; gint64 prio; } switches[] = {
    { 10, f->idle0, f->c, "R", 120 },
    { 40, f->c, f->a, "R+", 50 },
    { 55, f->a, f->c, "S", 120 },
    { 60, f->c, f->b, "R+", 10 },   /* b is more urgent than a */
    { 80, f->b, f->c, "S", 120 },
    { 95, f->c, f->a, "R+", 50 },
    { 120, f->a, f->c, "S", 120 },
  };

  tw_trace_append (f->trace, 20, 0, f->lock, f->c, 7, NULL);
  tw_trace_append (f->trace, 50, 0, f->wait, f->a, 7, NULL);
  tw_trace_append (f->trace, 90, 0, f->unlock, f->c, 7, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (switches); i++)
    {
      guint8 payload[32] = { 0 };
      TwValue state = { .type = TW_FIELD_STRING,
                        .str = tw_trace_intern_task_state (f->trace, switches[i].state,
                                                           switches[i].state[0] == 'S'
                                                           ? TW_TASK_STATE_BLOCKED
                                                           : TW_TASK_STATE_READY) };
      TwValue prio = { .type = TW_FIELD_I64, .i = switches[i].prio };

      tw_event_type_set_field (type, payload, 0, &state);
      tw_event_type_set_field (type, payload, 1, &prio);
      tw_trace_append (f->trace, switches[i].t, 0, sw, switches[i].prev, switches[i].next, payload);
    }
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 40, 100);
  g_assert_null (tw_explanation_find (e, TW_EXPLAIN_PRIORITY_INVERSION, f->b));
  blocked = tw_explanation_find (e, TW_EXPLAIN_BLOCKED, TW_TASK_NONE);
  g_assert_cmpuint (blocked->time_ns, ==, 35);

  /* c, preempted by a (prio 50) from 40 to 55 */
  {
    g_autoptr(TwExplanation) low = explain (model, f->c, 30, 60);
    const TwExplainComponent *by_a = tw_explanation_find (low, TW_EXPLAIN_PREEMPTED, f->a);

    g_assert_nonnull (by_a);
    g_assert_cmpuint (by_a->time_ns, ==, 15);
    g_assert_cmpint (by_a->priority, ==, 50);
  }
}

/* a runs on cpu0 100..200; cpu0 lost events between 140 and 160 (the loss event says
 * since when); a loss on cpu1 does not touch it. */
static void
test_lost (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  guint16 lost = tw_lost_events_add_type (f->trace, "lost", NULL);

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_lost_events_append (f->trace, lost, 150, 1, 3, 0, 120);
  tw_lost_events_append (f->trace, lost, 160, 0, 7, 0, 140);
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->idle0, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 100, 200);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_LOST), ==, 20);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 80);
}

/* What the trace does not say stays unaccounted: before the task's first event, and a
 * measurement of no task. */
static void
test_unaccounted (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  g_autoptr(TwExplanation) none = NULL;
  g_autoptr(TwExplanation) empty = NULL;

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->idle0, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 50, 150);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_UNACCOUNTED), ==, 50);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, 50);
  none = explain (model, TW_TASK_NONE, 50, 150);
  g_assert_cmpuint (tw_explanation_sum_kind (none, TW_EXPLAIN_UNACCOUNTED), ==, 100);
  g_assert_cmpuint (none->path->len, ==, 0);
  empty = explain (model, f->a, 120, 120);
  g_assert_cmpuint (empty->components->len, ==, 0);
}

/* A window model sees only its events: a's run before it is unknown there, the switch
 * after it never happened. */
static void
test_window_model (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  const TwTaskInterval *states;
  gsize n;

  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");   /* 0 */
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->b, "R+");      /* 1 */
  tw_test_append_switch (f->trace, f->k.sw, 300, 0, f->b, f->a, "S");       /* 2 */
  tw_test_append_switch (f->trace, f->k.sw, 400, 0, f->a, f->idle0, "S");   /* 3 */
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  model = tw_state_model_new_window (f->trace, 1, 3);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  g_assert_cmpuint (tw_state_model_get_n_processed (model), ==, 3);

  states = tw_state_model_get_task_states (model, f->a, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (states[0].start, ==, 200);
  g_assert_cmpint (states[0].state, ==, TW_TASK_STATE_READY);
  g_assert_cmpuint (states[1].start, ==, 300);
  g_assert_cmpint (states[1].state, ==, TW_TASK_STATE_RUNNING);
  g_assert_cmpuint (states[1].end, ==, 300);
}

/* The JSON names the components and the path. */
static void
test_json (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) e = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonObject *root;
  JsonArray *components;

  tw_test_append_switch (f->trace, f->k.sw, 50, 0, f->b, f->idle0, "S");
  tw_trace_append (f->trace, 90, 0, f->k.wake, f->idle0, f->a, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 100, 0, f->idle0, f->a, "R");
  tw_trace_append (f->trace, 120, 0, f->k.irq_in, f->a, 10, NULL);
  tw_trace_append (f->trace, 150, 0, f->k.irq_out, f->a, 10, NULL);
  tw_test_append_switch (f->trace, f->k.sw, 200, 0, f->a, f->idle0, "S");
  model = tw_test_new_state_model (f->trace);

  e = explain (model, f->a, 90, 200);
  text = tw_explanation_to_json (e, f->trace);
  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (root, "length_ns"), ==, 110);
  components = json_object_get_array_member (root, "components");
  g_assert_cmpuint (json_array_get_length (components), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 0),
                                                  "kind"), ==, "running");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 1),
                                                  "who"), ==, "irq 10");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (components, 2),
                                                  "who"), ==, "idle ran; woken by swapper/0-0");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "critical_path")),
                    ==, 2);
}

/* Random multi-CPU kernels (nested handlers, lost exits, mutexes): every measurement of
 * several metrics and random windows of random tasks sum to their length. */
static void
test_sum_random (void)
{
  static const char *const metrics[] = { "run-slice", "wakeup-latency", "irq-duration" };

  for (guint32 seed = 1; seed <= 3; seed++)
    {
      g_autoptr(TwTrace) trace = tw_trace_new ();
      g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 4, 40, seed);
      g_autoptr(TwStateModel) model = NULL;
      GRand *rand = g_rand_new_with_seed (seed);
      guint64 first, last;
      guint n_tasks;

      tw_test_schedule_append (schedule, 60000);
      model = tw_test_new_state_model (trace);
      first = tw_trace_get_first_time (trace);
      last = tw_trace_get_last_time (trace);
      n_tasks = tw_trace_get_n_tasks (trace);

      for (guint m = 0; m < G_N_ELEMENTS (metrics); m++)
        {
          g_autoptr(TwMetric) metric = tw_metric_new_system (metrics[m], NULL);
          g_autoptr(TwMeasurementTable) table =
            tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, NULL);
          gsize n = tw_measurement_table_get_n_rows (table);

          g_assert_cmpuint (n, >, 0);
          for (gsize r = 0, k = 0; r < n; r += 1 + n / 300, k++)
            {
              const TwMeasurementRow *row = tw_measurement_table_get_row (table, r);
              g_autoptr(TwExplanation) e = tw_explain_measurement (model, row);

              assert_consistent (e);
              /* not always equal to @e here: these traces lose handler exits, and a
               * handler left open long before a window is not in it (docs/explain.md) */
              if (k % 15 == 0)
                {
                  g_autoptr(TwExplanation) w = tw_explain_measurement_in_window (trace, row, NULL);

                  assert_consistent (w);
                }
            }
        }
      for (guint i = 0; i < 300; i++)
        {
          guint64 b = first + g_rand_int_range (rand, 0, (gint32) MIN (last - first, G_MAXINT32));
          guint64 e = b + g_rand_int_range (rand, 0, (gint32) MIN (last - b + 1, G_MAXINT32));
          g_autoptr(TwExplanation) x = explain (model, g_rand_int_range (rand, 0, n_tasks), b, e);
        }
      g_rand_free (rand);
    }
}

/* ------------------------------------------------------------------ ground truth */

static guint64
component_time (const TwExplanation *e,
                TwExplainKind        kind,
                guint32              task)
{
  const TwExplainComponent *c = tw_explanation_find (e, kind, task);

  return c ? c->time_ns : 0;
}

/* Every task's worst job, explained from the dump the simulator wrote, equals what the
 * simulator knew of it as it ran: its own run, each handler, each task that preempted
 * it or ran while it waited, its blocking on the mutex and the inversions. */
static void
check_truth (const TwSimulatorOptions *options)
{
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = tw_simulator_generate (options, &truth, &error);
  g_autofree char *path = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system ("response-time", NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  guint checked = 0;
  gboolean saw_inversion = FALSE;

  g_assert_no_error (error);
  path = tw_test_write_temp_file ("truth.shark", g_bytes_get_data (bytes, NULL),
                                  g_bytes_get_size (bytes));
  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  model = tw_test_new_state_model (trace);
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint i = 0; i + 1 < truth->n_tasks; i++)
    {
      const TwSimulatorJobTruth *job = &truth->tasks[i].worst_job;
      guint32 task = tw_test_find_task_by_pid (trace, truth->tasks[i].pid);
      const TwMeasurementRow *row = NULL;
      g_autoptr(TwExplanation) e = NULL;

      if (job->end_ns == 0)
        continue;
      for (gsize r = 0; r < tw_measurement_table_get_n_rows (table) && row == NULL; r++)
        {
          const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

          if (m->task == task && m->begin == job->begin_ns)
            row = m;
        }
      g_assert_nonnull (row);
      g_assert_cmpuint (row->end, ==, job->end_ns);
      e = tw_explain_measurement (model, row);
      assert_consistent (e);
      {
        g_autoptr(TwExplanation) w = tw_explain_measurement_in_window (trace, row, NULL);
        g_autofree char *full_json = tw_explanation_to_json (e, trace);
        g_autofree char *window_json = tw_explanation_to_json (w, trace);

        g_assert_cmpstr (window_json, ==, full_json);
      }

      g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, job->running_ns);
      for (guint irq = 0; irq < TW_SIMULATOR_MAX_IRQ; irq++)
        g_assert_cmpuint (irq_time (e, irq, TW_IRQ_HARD), ==, job->interrupted_ns[irq]);
      for (guint k = 0; k < truth->n_tasks; k++)
        {
          guint32 other = tw_test_find_task_by_pid (trace, truth->tasks[k].pid);

          g_assert_cmpuint (component_time (e, TW_EXPLAIN_PREEMPTED, other), ==,
                            job->preempted_ns[k]);
          g_assert_cmpuint (component_time (e, TW_EXPLAIN_WAITING, other), ==,
                            job->waiting_ns[k]);
          g_assert_cmpuint (component_time (e, TW_EXPLAIN_PRIORITY_INVERSION, other), ==,
                            job->inversion_ns[k]);
          saw_inversion |= job->inversion_ns[k] > 0;
        }
      g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_BLOCKED), ==, job->blocked_ns);
      g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_UNACCOUNTED), ==, 0);
      g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_LOST), ==, 0);
      /* a release is a wakeup inside the timer's handler, irq 0 */
      g_assert_cmpuint (e->path->len, ==, 2);
      g_assert_cmpint (g_array_index (e->path, TwExplainStep, 1).kind, ==, TW_EXPLAIN_STEP_IRQ);
      g_assert_cmpuint (g_array_index (e->path, TwExplainStep, 1).irq, ==, 0);
      checked++;
    }
  g_assert_cmpuint (checked, ==, truth->n_tasks - 1);
  if (g_test_verbose ())
    g_test_message ("seed %" G_GUINT64_FORMAT ": %u worst jobs, inversion seen: %d",
                    options->seed, checked, saw_inversion);
  g_remove (path);
}

static void
test_ground_truth (void)
{
  TwSimulatorOptions options;

  for (guint64 seed = 1; seed <= 4; seed++)
    {
      tw_simulator_options_init (&options);
      options.seed = seed;
      options.max_events = 200000;
      options.irq_mean_interval_us = 500;
      options.n_tasks = 3 + seed % 3;
      check_truth (&options);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/tw/evaluators/explain/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("running-and-interrupts", test_running_and_interrupts);
  ADD ("preempted", test_preempted);
  ADD ("waiting-and-path", test_waiting_and_path);
  ADD ("mutex-and-inversion", test_mutex_and_inversion);
  ADD ("priorities", test_priorities);
  ADD ("lost", test_lost);
  ADD ("unaccounted", test_unaccounted);
  ADD ("json", test_json);
  ADD ("window-model", test_window_model);
#undef ADD
  g_test_add_func ("/tw/evaluators/explain/sum-random", test_sum_random);
  g_test_add_func ("/tw/evaluators/explain/ground-truth", test_ground_truth);

  return g_test_run ();
}
