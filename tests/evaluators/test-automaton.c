/* test-automaton.c: automaton validation and the interpreter, hand-checked (DESIGN §4)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

/* Builds an automaton from two small scripts. @states: `id:kind …`, the first one is
 * the initial state. @transitions: `from>to LABEL; …` where LABEL is `*`, `L` (λ),
 * `E`, `E,i`, `E,!i`, and `@arg` after `i`/`!i` picks the arg task field. */
static TwAutomaton *
build (const char *states,
       const char *transitions)
{
  g_autoptr(TwAutomaton) automaton = tw_automaton_new ("test");
  g_auto(GStrv) state_words = g_strsplit (states, " ", -1);
  g_auto(GStrv) trans_items = g_strsplit (transitions, ";", -1);

  for (guint i = 0; state_words[i]; i++)
    {
      g_auto(GStrv) id_kind = g_strsplit (state_words[i], ":", 2);
      TwStateKind kind;

      if (id_kind[0][0] == '\0')
        continue;
      g_assert_nonnull (id_kind[1]);
      g_assert_true (tw_state_kind_from_string (id_kind[1], &kind));
      tw_automaton_add_state (automaton, id_kind[0], kind, i * 100, 0);
      if (i == 0)
        tw_automaton_set_initial (automaton, id_kind[0]);
    }

  for (guint i = 0; trans_items[i]; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (trans_items[i]));
      g_auto(GStrv) ends_label = NULL;
      g_auto(GStrv) ends = NULL;
      g_auto(GStrv) event_task = NULL;
      TwTaskMatch task = TW_TASK_MATCH_ANY;
      TwTaskField field = TW_TASK_FIELD_TASK;
      const char *q;

      if (item[0] == '\0')
        continue;
      ends_label = g_strsplit (item, " ", 2);
      g_assert_nonnull (ends_label[1]);
      ends = g_strsplit (ends_label[0], ">", 2);
      g_assert_nonnull (ends[1]);
      if (g_str_equal (ends_label[1], "*"))
        {
          tw_automaton_add_any (automaton, ends[0], ends[1]);
          continue;
        }
      if (g_str_equal (ends_label[1], "L"))
        {
          tw_automaton_add_lambda (automaton, ends[0], ends[1]);
          continue;
        }
      event_task = g_strsplit (ends_label[1], ",", 2);
      q = event_task[1];
      if (q)
        {
          task = q[0] == '!' ? TW_TASK_MATCH_OTHER : TW_TASK_MATCH_SAME;
          field = g_str_has_suffix (q, "@arg") ? TW_TASK_FIELD_ARG : TW_TASK_FIELD_TASK;
        }
      tw_automaton_add_transition (automaton, ends[0], ends[1], TW_LABEL_EVENT,
                                   event_task[0], task, field);
    }
  return g_steal_pointer (&automaton);
}

typedef struct {
  guint32 task;
  guint64 begin, end, length, events;
} Expected;

static TwAutomatonInterp *
run (TwAutomaton *automaton,
     TwTrace     *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (automaton, trace, &error);

  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_automaton_interp_get_position (interp), ==,
                    tw_trace_get_n_events (trace));
  return g_steal_pointer (&interp);
}

static void
assert_measurements (TwAutomatonInterp *interp,
                     const Expected    *expected,
                     gsize              n_expected)
{
  gsize n = tw_automaton_interp_get_n_measurements (interp);

  g_assert_cmpuint (n, ==, n_expected);
  for (gsize i = 0; i < n; i++)
    {
      const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (interp, i);

      g_test_message ("measurement %zu: task %u %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT
                      " length %" G_GUINT64_FORMAT " events %" G_GUINT64_FORMAT,
                      i, m->task, m->begin_ns, m->end_ns, m->length_ns,
                      m->intermediate_events);
      g_assert_cmpuint (m->task, ==, expected[i].task);
      g_assert_cmpuint (m->begin_ns, ==, expected[i].begin);
      g_assert_cmpuint (m->end_ns, ==, expected[i].end);
      g_assert_cmpuint (m->length_ns, ==, expected[i].length);
      g_assert_cmpuint (m->intermediate_events, ==, expected[i].events);
    }
}

static void
assert_segments (TwAutomatonInterp *interp,
                 gsize              measurement,
                 const guint64     *triples,
                 gsize              n_segments)
{
  const TwAutomatonMeasurement *m;

  g_assert_cmpuint (measurement, <, tw_automaton_interp_get_n_measurements (interp));
  m = tw_automaton_interp_get_measurement (interp, measurement);
  g_assert_cmpuint (m->n_segments, ==, n_segments);
  for (gsize i = 0; i < n_segments; i++)
    {
      const TwSegment *s = &m->segments[i];

      g_assert_cmpuint (s->first_ns, ==, triples[3 * i]);
      g_assert_cmpuint (s->last_ns, ==, triples[3 * i + 1]);
      g_assert_cmpuint (s->visits, ==, triples[3 * i + 2]);
    }
}

static void
assert_state (TwAutomaton       *automaton,
              TwAutomatonInterp *interp,
              guint32            task,
              const char        *id)
{
  int s = tw_automaton_interp_get_instance_state (interp, task);

  if (id == NULL)
    {
      g_assert_cmpint (s, ==, -1);
      return;
    }
  g_assert_cmpint (s, >=, 0);
  g_assert_cmpstr (tw_automaton_get_state (automaton, s)->id, ==, id);
}

/* ---- the interpreter, rule by rule ---- */

#define START_STOP_STATES "o:out b:begin p:in f:in e:end"

/* begin, in extended by `*` visits, the in + λ end at the final event */
static void
test_begin_in_end (void)
{
  g_autoptr(TwAutomaton) a = build (START_STOP_STATES,
                                    "o>b start,i; o>o *; b>p L; p>p *; p>f stop,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("10 start 0; 20 x 1; 30 x 0; 45 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 10, 45, 35, 3 } };
  static const guint64 segments[] = { 10, 45, 4 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 1);
  assert_state (a, interp, 0, "o");
  assert_state (a, interp, 1, "o");
}

/* without `*` on p, the x events match nothing there: no visit, not counted */
static void
test_ignored_events (void)
{
  g_autoptr(TwAutomaton) a = build (START_STOP_STATES,
                                    "o>b start,i; o>o *; b>p L; p>f stop,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("10 start 0; 20 x 1; 30 x 0; 45 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 10, 45, 35, 1 } };
  static const guint64 segments[] = { 10, 45, 2 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 1);
}

/* an out state closes the segment at its last visit, a taskless E matches, and the
 * segment restarts at the event that re-enters the in state */
static void
test_out_excludes (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin r:in x:out f:in e:end",
                                    "o>b start,i; o>o *; b>r L; r>r *; r>x irq; r>f stop,i;"
                                    "x>r irq_exit; x>x *; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 start 0; 10 a 0; 20 irq -; 25 b -; 30 irq_exit -; 40 c 0; 50 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 50, 30, 3 } };
  static const guint64 segments[] = { 0, 10, 2, 30, 50, 3 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 2);
}

/* a taskless event never matches (E, i) but matches (E, not i); (E, i) cancels */
static void
test_taskless_and_cancel_by_same (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin w:in e:end c:cancel",
                                    "o>b go,i; o>o *; b>w L; w>e ping,!i; w>c ping,i;"
                                    "e>o L; c>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 go 0; 10 ping -; 20 go 0; 25 ping 0; 30 go 0; 40 ping 1");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 10, 0, 0 }, { 0, 30, 40, 0, 0 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* (E, i) over E over *, checked on the state each instance is in after every event */
static void
test_specificity_same (void)
{
  g_autoptr(TwAutomaton) a = build ("s:out x:out y:out z:out",
                                    "s>x E,i; s>y E; s>z *; x>s *; y>s *; z>s *");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 E 0; 1 E 1; 2 E 1; 3 F 1; 4 E -");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (a, trace, &error);
  static const char * const task0[] = { "x", "s", "y", "s", "y" };
  static const char * const task1[] = { NULL, "x", "s", "z", "s" };

  g_assert_no_error (error);
  for (guint k = 0; k < G_N_ELEMENTS (task0); k++)
    {
      g_assert_true (tw_automaton_interp_feed (interp, k, k + 1, &error));
      assert_state (a, interp, 0, task0[k]);
      assert_state (a, interp, 1, task1[k]);
    }
}

/* (E, not i) over E; a taskless E takes (E, not i) */
static void
test_specificity_other (void)
{
  g_autoptr(TwAutomaton) a = build ("s:out x:out n:out y:out z:out",
                                    "s>x E,i; s>n E,!i; s>y E; s>z *; x>s *; n>s *; y>s *; z>s *");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 E 0; 1 F -; 2 E -; 3 F -; 4 E 1");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (a, trace, &error);
  static const char * const task0[] = { "x", "s", "n", "s", "n" };

  g_assert_no_error (error);
  for (guint k = 0; k < G_N_ELEMENTS (task0); k++)
    {
      g_assert_true (tw_automaton_interp_feed (interp, k, k + 1, &error));
      assert_state (a, interp, 0, task0[k]);
    }
  /* task 1's first event is its first input: (E, i) */
  assert_state (a, interp, 1, "x");
}

/* a cond run followed by in joins the segment (first time and visits), one followed
 * by out is dropped; the event that leaves a segment directly into end is not counted */
static void
test_cond_kept_and_dropped (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in q:cond x:out e:end",
                                    "o>b go,i; o>o *; b>p L; p>p *; p>q c; p>e stop,i;"
                                    "q>q *; q>p ok; q>x no; x>p back; x>x *; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 go 0; 10 c 0; 20 z 0; 30 ok 0; 40 c 0; 50 z 0; 60 no 0; 70 back 0; 80 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 80, 20, 2 } };
  static const guint64 segments[] = { 0, 0, 1, 10, 30, 3, 70, 70, 1 };
  g_autoptr(TwAutomatonInterp) step = NULL;
  g_autoptr(GError) error = NULL;
  TwInstanceInfo info;

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 3);

  /* step by step: after "20 z" the run 10.. has two visits; after "30 ok" it became
   * the segment 10..30 with three; after "50 z" a new run 40.. has two */
  step = tw_automaton_interp_new (a, trace, &error);
  g_assert_no_error (error);
  g_assert_false (tw_automaton_interp_get_instance (step, 0, &info));
  g_assert_true (tw_automaton_interp_feed (step, 0, 3, &error));
  g_assert_true (tw_automaton_interp_get_instance (step, 0, &info));
  g_assert_cmpstr (tw_automaton_get_state (a, info.state)->id, ==, "q");
  g_assert_true (info.has_measurement && info.has_run && !info.has_segment);
  g_assert_cmpuint (info.measurement_begin_ns, ==, 0);
  g_assert_cmpuint (info.run_first_ns, ==, 10);
  g_assert_cmpuint (info.run_visits, ==, 2);
  g_assert_true (tw_automaton_interp_feed (step, 3, 4, &error));
  g_assert_true (tw_automaton_interp_get_instance (step, 0, &info));
  g_assert_true (info.has_segment && !info.has_run);
  g_assert_cmpuint (info.segment_first_ns, ==, 10);
  g_assert_cmpuint (info.segment_last_ns, ==, 30);
  g_assert_cmpuint (info.segment_visits, ==, 3);
  g_assert_true (tw_automaton_interp_feed (step, 4, 6, &error));
  g_assert_true (tw_automaton_interp_get_instance (step, 0, &info));
  g_assert_true (info.has_run && !info.has_segment);
  g_assert_cmpuint (info.run_first_ns, ==, 40);
  g_assert_cmpuint (info.run_visits, ==, 2);
  g_assert_cmpuint (info.length_ns, ==, 20);
  g_assert_cmpuint (info.intermediate_events, ==, 2);
}

/* a cond run pending when the measurement ends is dropped by end */
static void
test_cond_dropped_by_end (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in q:cond e:end",
                                    "o>b go,i; o>o *; b>p L; p>p *; p>q c; q>q *; q>e stop,i; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 go 0; 5 z 0; 10 c 0; 20 z 0; 30 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 30, 5, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* λ chains: every state of the chain is visited at the event's time */
static void
test_lambda_chain (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin c1:cond c2:cond p:in e:end",
                                    "o>b go,i; o>o *; b>c1 L; c1>c2 L; c2>p L; p>e stop,i; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 go 0; 10 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 10, 0, 2 } };
  static const guint64 segments[] = { 0, 0, 3 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 1);
  assert_state (a, interp, 0, "o");
}

/* begin while a measurement is open drops it and its segment */
static void
test_begin_drops_open (void)
{
  g_autoptr(TwAutomaton) a = build (START_STOP_STATES,
                                    "o>b go,i; o>o *; b>p L; p>p *; p>b go,i; p>f stop,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 go 0; 10 x 0; 20 go 0; 30 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 20, 30, 10, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* cancel drops the measurement; an end with none open reports nothing, and the
 * segment it closes counts for nothing */
static void
test_cancel_and_end_without_measurement (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in f:in e:end c:cancel",
                                    "o>b go,i; o>f stop,i; o>o *; b>p L; p>p *; p>c abort;"
                                    "p>f stop,i; f>e L; e>o L; c>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 go 0; 10 abort -; 20 stop 0; 30 go 0; 40 stop 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 30, 40, 10, 1 } };
  static const guint64 segments[] = { 30, 40, 2 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 1);
}

/* equal times keep file order, also when rows arrived out of order */
static void
test_ties_in_file_order (void)
{
  g_autoptr(TwAutomaton) a = build (START_STOP_STATES,
                                    "o>b go,i; o>o *; b>p L; p>p *; p>f stop,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("20 stop 0; 10 stop 0; 10 go 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 10, 20, 10, 1 } };
  g_autoptr(TwTrace) reversed = tw_test_trace_from_script ("20 stop 0; 10 go 0; 10 stop 0");
  g_autoptr(TwAutomatonInterp) interp2 = run (a, reversed);
  static const Expected expected2[] = { { 0, 10, 10, 0, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_measurements (interp2, expected2, G_N_ELEMENTS (expected2));
}

/* an instance exists from its task's first event on, and that event is its first
 * input; events before it never reach it */
static void
test_instance_creation (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in e:end",
                                    "o>b ping,!i; o>o *; b>p L; p>p *; p>e stop,i; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 ping 0; 10 x 1; 20 ping 0; 30 stop 1");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 1, 20, 30, 0, 0 } };
  g_autoptr(TwAutomaton) first = build (START_STOP_STATES,
                                        "o>b go,i; o>o *; b>p L; p>p *; p>f stop,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace2 = tw_test_trace_from_script ("0 x 0; 10 go 1; 20 stop 1");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp2 = tw_automaton_interp_new (first, trace2, &error);
  static const Expected expected2[] = { { 1, 10, 20, 10, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));

  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_feed (interp2, 0, 1, &error));
  assert_state (first, interp2, 0, "o");
  assert_state (first, interp2, 1, NULL);
  g_assert_true (tw_automaton_interp_feed (interp2, 1, 3, &error));
  assert_measurements (interp2, expected2, G_N_ELEMENTS (expected2));
}

/* several instances ending on one event report in task order */
static void
test_same_event_order (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in e:end",
                                    "o>b start,i; o>o *; b>p L; p>e tick; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 start 2; 1 start 0; 2 start 1; 10 tick -");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = {
    { 0, 1, 10, 0, 0 }, { 1, 2, 10, 0, 0 }, { 2, 0, 10, 0, 0 },
  };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* the arg task field: (switch, i by arg) is "switched in"; canonical kind names match
 * raw types of that kind; a task seen only in an arg gets no instance */
static void
test_arg_task_field (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin r:in f:in e:end",
                                    "o>b switch,i@arg; o>o *; b>r L; r>f switch,i; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 sched_switch/switch 0 1; 5 x 1; 10 sched_switch 1 0; 25 sched_switch 0 1;"
    "40 sched_switch 1 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 10, 25, 15, 1 }, { 1, 25, 40, 15, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_state (a, interp, 0, "r");
}

static void
test_bind_errors (void)
{
  g_autoptr(TwAutomaton) alias = build ("o:out x:out y:out", "o>x switch; o>y sched_switch; x>o *; y>o *");
  g_autoptr(TwAutomaton) bad_arg = build ("o:out x:out", "o>x tick,i@arg; x>o *");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 sched_switch/switch 0 1; 1 tick 0");
  g_autoptr(TwAutomaton) unbound = build ("o:out x:out", "o>x nosuch; x>o tick");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(GPtrArray) problems = tw_automaton_validate (alias);
  g_auto(GStrv) names = NULL;

  /* the two names only alias through this trace's type table */
  g_assert_cmpuint (problems->len, ==, 0);
  interp = tw_automaton_interp_new (alias, trace, &error);
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND);
  g_assert_null (interp);
  g_assert_nonnull (strstr (error->message, "State “o”"));
  g_clear_error (&error);

  interp = tw_automaton_interp_new (bad_arg, trace, &error);
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND);
  g_assert_nonnull (strstr (error->message, "“tick”"));
  g_clear_error (&error);

  interp = tw_automaton_interp_new (unbound, trace, &error);
  g_assert_no_error (error);
  names = tw_automaton_interp_dup_unbound_events (interp);
  g_assert_cmpuint (g_strv_length (names), ==, 1);
  g_assert_cmpstr (names[0], ==, "nosuch");
}

/* a live trace that gains a type making two labels collide: every feed fails, none
 * runs on half-built tables */
static void
test_live_bind_error (void)
{
  g_autoptr(TwAutomaton) alias = build ("o:out x:out y:out", "o>x switch; o>y sched_switch; x>o *; y>o *");
  g_autoptr(TwTrace) live = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  guint16 tick, sched_switch;

  tw_test_ensure_tasks (live, 2);
  tick = tw_test_add_simple_type (live, "tick", TW_EVENT_KIND_OTHER);
  tw_trace_append (live, 0, 0, tick, 0, 0, NULL);
  interp = tw_automaton_interp_new (alias, live, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_run (interp, &error));

  sched_switch = tw_test_add_simple_type (live, "sched_switch", TW_EVENT_KIND_SWITCH);
  tw_trace_append (live, 10, 0, sched_switch, 0, 1, NULL);
  for (guint attempt = 0; attempt < 2; attempt++)
    {
      g_assert_false (tw_automaton_interp_run (interp, &error));
      g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND);
      g_clear_error (&error);
      g_assert_cmpuint (tw_automaton_interp_get_position (interp), ==, 1);
    }
  tw_automaton_interp_reset (interp);
  g_assert_false (tw_automaton_interp_run (interp, &error));
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND);
}

static void
test_invalid_refused (void)
{
  g_autoptr(TwAutomaton) a = build ("o:in", "o>o *");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script ("0 x 0");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (a, trace, &error);

  g_assert_null (interp);
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "“o”"));
}

/* a live trace: feeding in pieces, with a type added between feeds, gives what one
 * run over the whole trace gives */
static void
test_incremental_live (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin r:in x:out f:in e:end",
                                    "o>b start,i; o>o *; b>r L; r>r *; r>x irq; r>f stop,i;"
                                    "x>r irq_exit; x>x *; f>e L; e>o L");
  g_autoptr(TwTrace) live = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  static const Expected expected[] = { { 0, 0, 50, 30, 3 } };
  guint16 start, a_type, irq, irq_exit, stop;

  tw_test_ensure_tasks (live, 1);
  start = tw_test_add_simple_type (live, "start", TW_EVENT_KIND_USER);
  a_type = tw_test_add_simple_type (live, "a", TW_EVENT_KIND_OTHER);
  tw_trace_append (live, 0, 0, start, 0, 0, NULL);
  tw_trace_append (live, 10, 0, a_type, 0, 0, NULL);

  interp = tw_automaton_interp_new (a, live, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_feed (interp, 0, G_MAXUINT64, &error));
  g_assert_cmpuint (tw_automaton_interp_get_position (interp), ==, 2);

  irq = tw_test_add_simple_type (live, "irq", TW_EVENT_KIND_IRQ_ENTRY);
  irq_exit = tw_test_add_simple_type (live, "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  tw_trace_append (live, 20, 0, irq, TW_TASK_NONE, 3, NULL);
  tw_trace_append (live, 25, 0, a_type, TW_TASK_NONE, 0, NULL);
  g_assert_true (tw_automaton_interp_feed (interp, 2, 4, &error));
  tw_trace_append (live, 30, 0, irq_exit, TW_TASK_NONE, 3, NULL);
  tw_trace_append (live, 40, 0, a_type, 0, 0, NULL);
  stop = tw_test_add_simple_type (live, "stop", TW_EVENT_KIND_USER);
  tw_trace_append (live, 50, 0, stop, 0, 0, NULL);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  g_assert_no_error (error);
  assert_measurements (interp, expected, G_N_ELEMENTS (expected));

  tw_automaton_interp_reset (interp);
  g_assert_cmpuint (tw_automaton_interp_get_position (interp), ==, 0);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}


/* many measurements, over many result blocks: every one is kept, in order, with its
 * segments, and pointers handed out early stay valid while feeding goes on */
static void
test_many_measurements (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin r:in x:out f:in e:end",
                                    "o>b start,i; o>o *; b>r L; r>r *; r>x irq; r>f stop,i;"
                                    "x>r irq_exit; x>x *; f>e L; e>o L");
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  const guint n = 150000;
  guint16 start, irq, irq_exit, stop;
  const TwAutomatonMeasurement *first;

  tw_test_ensure_tasks (trace, 3);
  start = tw_test_add_simple_type (trace, "start", TW_EVENT_KIND_USER);
  irq = tw_test_add_simple_type (trace, "irq", TW_EVENT_KIND_IRQ_ENTRY);
  irq_exit = tw_test_add_simple_type (trace, "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  stop = tw_test_add_simple_type (trace, "stop", TW_EVENT_KIND_USER);
  /* measurement k of task k % 3: start at 100k, irq at 100k+10 to 100k+(20 + k % 7),
   * stop at 100k+50. No event falls between, so the first segment is [100k, 100k]
   * (closed at its last visit) and the second [100k+20+k%7, 100k+50]: length
   * 30 - k % 7, one intermediate event. When k % 5 == 0 a second irq 100k+40..45
   * leaves [100k+20+k%7] alone and [100k+45, 100k+50]: length 5, three segments. */
  for (guint k = 0; k < n; k++)
    {
      guint64 t = 100 * (guint64) k;

      tw_trace_append (trace, t, 0, start, k % 3, 0, NULL);
      tw_trace_append (trace, t + 10, 0, irq, TW_TASK_NONE, 0, NULL);
      tw_trace_append (trace, t + 20 + k % 7, 0, irq_exit, TW_TASK_NONE, 0, NULL);
      if (k % 5 == 0)
        {
          tw_trace_append (trace, t + 40, 0, irq, TW_TASK_NONE, 0, NULL);
          tw_trace_append (trace, t + 45, 0, irq_exit, TW_TASK_NONE, 0, NULL);
        }
      tw_trace_append (trace, t + 50, 0, stop, k % 3, 0, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  interp = tw_automaton_interp_new (a, trace, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_feed (interp, 0, 1000, &error));
  g_assert_cmpuint (tw_automaton_interp_get_n_measurements (interp), >, 0);
  first = tw_automaton_interp_get_measurement (interp, 0);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  g_assert_true (first == tw_automaton_interp_get_measurement (interp, 0));

  g_assert_cmpuint (tw_automaton_interp_get_n_measurements (interp), ==, n);
  for (guint k = 0; k < n; k++)
    {
      const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (interp, k);
      guint64 t = 100 * (guint64) k;

      g_assert_cmpuint (m->task, ==, k % 3);
      g_assert_cmpuint (m->begin_ns, ==, t);
      g_assert_cmpuint (m->end_ns, ==, t + 50);
      g_assert_cmpuint (m->length_ns, ==, k % 5 == 0 ? 5 : 30 - k % 7);
      g_assert_cmpuint (m->n_segments, ==, k % 5 == 0 ? 3 : 2);
      g_assert_cmpuint (m->intermediate_events, ==, 1);
      g_assert_cmpuint (m->segments[0].last_ns, ==, t);
      g_assert_cmpuint (m->segments[0].first_ns, ==, t);
      g_assert_cmpuint (m->segments[m->n_segments - 1].last_ns, ==, t + 50);
    }
}

static void
test_labels (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out", "o>o E,i; o>o E,!i; o>o E; o>o L; o>o *; o>o sw,i@arg");
  static const char * const expected[] = {
    "(E, i)", "(E, not i)", "E", "λ", "*", "(sw, i by arg)",
  };

  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *label = tw_automaton_dup_label (a, i);

      g_assert_cmpstr (label, ==, expected[i]);
    }
}

/* the edits a designer makes */
static void
test_model_edits (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in e:end",
                                    "o>b go,i; o>o *; b>p L; p>e stop,i; e>o L");
  g_autoptr(GPtrArray) problems = NULL;

  g_assert_cmpstr (tw_automaton_get_name (a), ==, "test");
  tw_automaton_set_name (a, "renamed");
  g_assert_cmpstr (tw_automaton_get_name (a), ==, "renamed");
  /* setting what it already holds (a designer's "apply" without a change) */
  tw_automaton_set_name (a, tw_automaton_get_name (a));
  g_assert_cmpstr (tw_automaton_get_name (a), ==, "renamed");
  tw_automaton_set_initial (a, tw_automaton_get_initial (a));
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "o");
  g_assert_cmpint (tw_automaton_find_state (a, "p"), ==, 2);
  g_assert_cmpint (tw_automaton_find_state (a, "nope"), ==, -1);

  tw_automaton_set_state_kind (a, 2, TW_STATE_KIND_COND);
  tw_automaton_set_state_position (a, 2, 12.5, -4);
  g_assert_cmpint (tw_automaton_get_state (a, 2)->kind, ==, TW_STATE_KIND_COND);
  g_assert_cmpfloat (tw_automaton_get_state (a, 2)->x, ==, 12.5);
  g_assert_cmpfloat (tw_automaton_get_state (a, 2)->y, ==, -4);

  /* removing p removes b>p and p>e: b has no exit left and e is unreachable */
  tw_automaton_remove_state (a, 2);
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 3);
  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, 3);
  problems = tw_automaton_validate (a);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpint (((TwAutomatonProblem *) g_ptr_array_index (problems, 0))->code, ==,
                   TW_AUTOMATON_ERROR_UNREACHABLE);
  g_assert_cmpstr (((TwAutomatonProblem *) g_ptr_array_index (problems, 0))->state_id, ==, "e");

  tw_automaton_remove_transition (a, 0);
  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, 2);
  g_assert_cmpstr (tw_automaton_get_transition (a, 0)->from, ==, "o");
  g_assert_cmpint (tw_automaton_get_transition (a, 0)->label, ==, TW_LABEL_ANY);
}

/* ---- validation: one test per design error, each naming its state ---- */

static void
assert_problems (TwAutomaton          *automaton,
                 TwAutomatonErrorCode  code,
                 const char * const   *state_ids)
{
  g_autoptr(GPtrArray) problems = tw_automaton_validate (automaton);
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);

      g_test_message ("problem: %s", p->message);
      g_assert_cmpint (p->code, ==, code);
      g_assert_nonnull (state_ids[n]);
      g_assert_cmpstr (p->state_id, ==, state_ids[n]);
      if (state_ids[n][0] != '\0')
        {
          g_autofree char *quoted = g_strdup_printf ("“%s”", state_ids[n]);

          g_assert_nonnull (strstr (p->message, quoted));
        }
      n++;
    }
  g_assert_null (state_ids[n]);
}

#define IDS(...) ((const char * const[]) { __VA_ARGS__, NULL })

static void
test_validate_overlaps (void)
{
  static const struct {
    const char *labels; /* two exits of state o to x */
    gboolean overlap;
  } cases[] = {
    { "o>x E; o>y E", TRUE },
    { "o>x E,i; o>y E,i", TRUE },
    { "o>x E,!i; o>y E,!i", TRUE },
    { "o>x *; o>y *", TRUE },
    { "o>x E,i; o>y E,!i", FALSE },
    { "o>x E,i; o>y E", FALSE },
    { "o>x E; o>y *", FALSE },
    { "o>x E; o>y F", FALSE },
    { "o>x E,i; o>y F,i", FALSE },
    { "o>x E,i@arg; o>y E,!i@arg", FALSE },
    { "o>x E,i@arg; o>y E,!i", TRUE },
    { "o>x E,i@arg; o>y E,i", TRUE },
    { "o>x E,!i@arg; o>y E,!i", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *transitions = g_strdup_printf ("%s; x>o *; y>o *", cases[i].labels);
      g_autoptr(TwAutomaton) a = build ("o:out x:out y:out", transitions);

      g_test_message ("case %s", cases[i].labels);
      if (cases[i].overlap)
        assert_problems (a, TW_AUTOMATON_ERROR_OVERLAPPING_LABELS, IDS ("o"));
      else
        assert_problems (a, 0, IDS (NULL));
    }
}

static void
test_validate_lambda_with_other_exits (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out b:begin p:in", "o>b go; b>p L; b>o stop; p>o *");
  g_autoptr(TwAutomaton) two = build ("o:out b:begin p:in", "o>b go; b>p L; b>o L; p>o *");

  assert_problems (a, TW_AUTOMATON_ERROR_LAMBDA_WITH_OTHER_EXITS, IDS ("b"));
  assert_problems (two, TW_AUTOMATON_ERROR_LAMBDA_WITH_OTHER_EXITS, IDS ("b"));
}

static void
test_validate_lambda_cycle (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out p:in q:in r:in", "o>p go; p>q L; q>r L; r>q L");
  g_autoptr(TwAutomaton) self_loop = build ("o:out p:in", "o>p go; p>p L");

  assert_problems (a, TW_AUTOMATON_ERROR_LAMBDA_CYCLE, IDS ("q", "r"));
  assert_problems (self_loop, TW_AUTOMATON_ERROR_LAMBDA_CYCLE, IDS ("p"));
}

static void
test_validate_lambda_from_initial (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out p:in", "o>p L; p>o go");

  assert_problems (a, TW_AUTOMATON_ERROR_LAMBDA_FROM_INITIAL, IDS ("o"));
}

static void
test_validate_unreachable (void)
{
  g_autoptr(TwAutomaton) a = build ("o:out p:in lost:end", "o>p go; p>o stop; lost>o L");

  assert_problems (a, TW_AUTOMATON_ERROR_UNREACHABLE, IDS ("lost"));
}

static void
test_validate_initial_not_out (void)
{
  g_autoptr(TwAutomaton) a = build ("s:begin p:in", "s>p go; p>s stop");

  assert_problems (a, TW_AUTOMATON_ERROR_INITIAL_NOT_OUT, IDS ("s"));
}

static void
test_validate_structure (void)
{
  g_autoptr(TwAutomaton) unknown = build ("o:out p:in", "o>p go; p>nowhere stop");
  g_autoptr(TwAutomaton) duplicate = build ("o:out p:in p:out", "o>p go; p>o stop");
  g_autoptr(TwAutomaton) no_initial = build ("o:out", "o>o go");
  g_autoptr(TwAutomaton) bad_initial = build ("o:out", "o>o go");
  g_autoptr(TwAutomaton) empty_event = build ("o:out", "o>o go");
  g_autoptr(TwAutomaton) none = tw_automaton_new ("none");

  assert_problems (unknown, TW_AUTOMATON_ERROR_UNKNOWN_STATE, IDS ("nowhere"));
  assert_problems (duplicate, TW_AUTOMATON_ERROR_DUPLICATE_STATE, IDS ("p"));

  tw_automaton_set_initial (no_initial, NULL);
  assert_problems (no_initial, TW_AUTOMATON_ERROR_NO_INITIAL, IDS (""));
  tw_automaton_set_initial (bad_initial, "gone");
  assert_problems (bad_initial, TW_AUTOMATON_ERROR_UNKNOWN_INITIAL, IDS ("gone"));
  tw_automaton_add_event (empty_event, "o", "o", "", TW_TASK_MATCH_SAME);
  assert_problems (empty_event, TW_AUTOMATON_ERROR_EMPTY_EVENT, IDS ("o"));
  assert_problems (none, TW_AUTOMATON_ERROR_NO_STATES, IDS (""));
}

/* every problem is listed, not just the first; the GError sums them up */
static void
test_validate_all_and_check (void)
{
  g_autoptr(TwAutomaton) a = build ("s:in p:in lost:out", "s>p L; p>p *; p>s *");
  g_autoptr(GPtrArray) problems = tw_automaton_validate (a);
  g_autoptr(GError) error = NULL;
  static const TwAutomatonErrorCode expected[] = {
    TW_AUTOMATON_ERROR_INITIAL_NOT_OUT,
    TW_AUTOMATON_ERROR_OVERLAPPING_LABELS,
    TW_AUTOMATON_ERROR_LAMBDA_FROM_INITIAL,
    TW_AUTOMATON_ERROR_UNREACHABLE,
  };

  g_assert_cmpuint (problems->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < problems->len; i++)
    g_assert_cmpint (((TwAutomatonProblem *) g_ptr_array_index (problems, i))->code, ==,
                     expected[i]);
  g_assert_false (tw_automaton_check (a, &error));
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "4 design errors"));
  g_assert_nonnull (strstr (error->message, "“lost”"));
}

/* ---- the shipped automata ---- */

static TwAutomaton *
load_shipped (const char *name)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata", name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load (path, &error);
  g_autoptr(GPtrArray) problems = NULL;

  g_assert_no_error (error);
  problems = tw_automaton_validate (a);
  g_assert_cmpuint (problems->len, ==, 0);
  return g_steal_pointer (&a);
}

/* Fig. 2 as drawn in the paper, with the MaRTE OS event names. A uniprocessor: the
 * interrupt handler runs at 20..26, then task 1 preempts task 0 until 40. */
static void
test_shipped_fig2 (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("fig2-user-metric.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 initial_event 0; 10 work 0; 20 interrupt -; 22 timer -; 25 No_Preempt -;"
    "30 work 0; 35 interrupt -; 38 context_end 1; 40 context_end 0; 50 work 0;"
    "60 final_event 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* segments 0..10 (visits at 0 and 10), 25..30 (25, 30), 40..60 (40 and 50 in
   * state 2, 60 in state 3) */
  static const Expected expected[] = { { 0, 0, 60, 10 + 5 + 20, 1 + 1 + 2 } };
  static const guint64 segments[] = { 0, 10, 2, 25, 30, 2, 40, 60, 3 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 3);
}

/* The Linux user metric on one CPU: task 0 between two user events, minus an irq
 * (100..110), a softirq (130..135) and a preemption by task 1 (150..170); system
 * time counts. */
static const char linux_script[] =
  "0 x/user 1; 50 print/user 0; 60 work 0; 100 irq/irq_entry 0; 110 irqx/irq_exit 0;"
  "120 sys_enter 0; 130 sirq/softirq_entry 0; 135 sirqx/softirq_exit 0;"
  "140 sys_exit 0; 150 sched_switch/switch 0 1; 160 work 1; 170 sched_switch 1 0;"
  "200 print 0";

static void
test_shipped_user_metric (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("user-metric.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (linux_script);
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* segments 50..100, 110..130, 135..150, 170..200 */
  static const Expected expected[] = { { 0, 50, 200, 50 + 20 + 15 + 30, 2 + 2 + 2 + 1 } };
  static const guint64 segments[] = { 50, 100, 3, 110, 130, 3, 135, 150, 3, 170, 200, 2 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 4);
}

static void
test_shipped_user_metric_no_system (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("user-metric-no-system.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (linux_script);
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* segments 50..100, 110..120 (the syscall 120..140 is out), 140..150, 170..200 */
  static const Expected expected[] = { { 0, 50, 200, 50 + 10 + 10 + 30, 2 + 1 + 1 + 1 } };
  static const guint64 segments[] = { 50, 100, 3, 110, 120, 2, 140, 150, 2, 170, 200, 2 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 0, segments, 4);
}

static void
test_shipped_irq_duration (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("irq-duration.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 irq/irq_entry 0; 4 x 1; 7 irqx/irq_exit 0; 10 irq 1; 12 irq 0; 15 irqx 1; 20 irqx 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = {
    { 0, 0, 7, 7, 2 }, { 1, 10, 15, 5, 2 }, { 0, 12, 20, 8, 2 },
  };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

static void
test_shipped_wakeup_latency (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("wakeup-latency.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 sched_switch/switch 1 0; 10 sched_waking/wakeup 0 1; 12 sched_waking 0 1;"
    "15 x 0; 25 sched_switch 0 1; 30 sched_switch 1 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* woken at 10 (the second wakeup at 12 is a `*` visit), switched in at 25 */
  static const Expected expected[] = { { 1, 10, 25, 15, 3 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* tracewb-demo-rt's first task, from its job-start to its job-end sensor element, as a
 * target's monitor runs it (docs/remote.md). A job-start while a job is open starts
 * over: the demo's ring overflowed and that job's job-end was missed. */
static void
test_shipped_demo_rt_job (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("demo-rt-job.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 demo-rt-0@job-start 0; 2 demo-rt@steps 0; 3 demo-rt-1@job-start 1; 5 demo-rt-0@job-end 0;"
    "7 demo-rt-1@job-end 1; 10 demo-rt-0@job-start 0; 12 demo-rt@steps 0;"
    "20 demo-rt-0@job-start 0; 21 demo-rt-0@job-end 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  static const Expected expected[] = { { 0, 0, 5, 5, 3 }, { 0, 20, 21, 1, 1 } };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* Espinosa 2003, Fig. 3 on S.Ha.R.K. event names: the timer handler that activates task i. */
static void
test_shipped_delay_until_wakeup (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("delay-until-wakeup.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 x 0; 1 x 1; 2 x 2;"
    "10 timer_wakeup_start/irq_entry 0; 11 task_activate/wakeup 0 1; 12 timer_post 0;"
    "14 timer_wakeup_end/irq_exit 0;"
    "20 timer_wakeup_start 1; 21 task_activate 1 2; 22 task_activate 1 0;"
    "25 timer_wakeup_end 1; 30 timer_wakeup_start 0; 32 timer_wakeup_end 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* the handler 10..14 woke task 1 (visits at 10, 11, 12, 14); 20..25 woke 2 and 0,
   * reported in task order; 30..32 woke nobody */
  static const Expected expected[] = {
    { 1, 10, 14, 4, 3 }, { 0, 20, 25, 5, 3 }, { 2, 20, 25, 5, 3 },
  };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
}

/* On the demo trace, against a scan of its timer handlers: every task activated in a
 * handler whose instance existed when the handler began is measured, from the
 * handler's start to its end, with the events inside it plus its end. */
static void
test_shipped_delay_until_wakeup_demo (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autoptr(TwAutomaton) a = load_shipped ("delay-until-wakeup.json");
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "shark", NULL, NULL, NULL, NULL);
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_autofree gboolean *seen = NULL;
  g_autofree gboolean *at_start = NULL;
  g_autoptr(GArray) woken = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean in_handler = FALSE;
  guint64 start = 0, inside = 0;
  guint32 n_tasks;

  g_assert_nonnull (trace);
  n_tasks = tw_trace_get_n_tasks (trace);
  seen = g_new0 (gboolean, n_tasks);
  at_start = g_new0 (gboolean, n_tasks);
  for (guint64 k = 0; k < tw_trace_get_n_events (trace); k++)
    {
      TwEvent ev;
      const char *name;

      g_assert_true (tw_trace_get_event (trace, k, &ev));
      name = tw_trace_get_event_type (trace, ev.type)->name;
      if (ev.task != TW_TASK_NONE)
        seen[ev.task] = TRUE;
      if (in_handler && g_str_equal (name, "timer_wakeup_end"))
        {
          /* task order, as the interpreter reports one event's measurements */
          for (guint32 t = 0; t < n_tasks; t++)
            for (guint w = 0; w < woken->len; w++)
              if (g_array_index (woken, guint32, w) == t)
                {
                  Expected e = { t, start, ev.time, ev.time - start, inside + 1 };

                  g_array_append_val (want, e);
                  break;
                }
          in_handler = FALSE;
        }
      else if (in_handler)
        {
          inside++;
          if (g_str_equal (name, "task_activate") && ev.arg < n_tasks && at_start[ev.arg])
            g_array_append_val (woken, ev.arg);
        }
      else if (g_str_equal (name, "timer_wakeup_start"))
        {
          in_handler = TRUE;
          start = ev.time;
          inside = 0;
          g_array_set_size (woken, 0);
          memcpy (at_start, seen, n_tasks * sizeof (gboolean));
        }
    }
  g_assert_cmpuint (want->len, >, 300);
  interp = run (a, trace);
  assert_measurements (interp, (const Expected *) want->data, want->len);
}


/* Fig. 2 with the S.Ha.R.K. names, by hand: task 0's job (10..50) is interrupted by the
 * timer handler (20..24), switched out for task 1 (26..36; task 1's own job runs
 * 30..35), interrupted by a device (40..43) and blocked on a mutex (46..48). */
static void
test_shipped_fig2_shark (void)
{
  g_autoptr(TwAutomaton) a = load_shipped ("fig2-shark.json");
  g_autoptr(TwTrace) trace = tw_test_trace_from_script (
    "0 x 0; 1 x 1;"
    "10 user_event_0/user 0; 12 a 0; 20 timer_wakeup_start/irq_entry 0;"
    "21 task_activate/wakeup 0 1; 24 timer_wakeup_end/irq_exit 0; 25 task_schedule 1;"
    "26 context_switch/switch 0 1; 30 user_event_0 1; 35 user_event_1/user 1;"
    "36 context_switch 1 0; 40 interrupt_start/irq_entry 0; 43 interrupt_end/irq_exit 0;"
    "45 set_mutex_wait/mutex_wait 0; 46 context_switch 0 1; 48 context_switch 1 0;"
    "50 user_event_1 0");
  g_autoptr(TwAutomatonInterp) interp = run (a, trace);
  /* task 0: segments 10..20 (visits 10, 12, 20 in state 7), 24..26 (24, 25, 26 in 8),
   * 36..40, 43..46 (43, 45, 46), 48..50 */
  static const Expected expected[] = {
    { 1, 30, 35, 5, 1 },
    { 0, 10, 50, 10 + 2 + 4 + 3 + 2, 2 + 2 + 1 + 2 + 1 },
  };
  static const guint64 segments[] = { 10, 20, 3, 24, 26, 3, 36, 40, 2, 43, 46, 3, 48, 50, 2 };

  assert_measurements (interp, expected, G_N_ELEMENTS (expected));
  assert_segments (interp, 1, segments, 5);
  assert_state (a, interp, 0, "0");
  assert_state (a, interp, 1, "0");
}

typedef struct {
  guint32 task;
  guint64 begin, end;
  guint64 first, last;  /* event indexes of its user_event_0 and user_event_1 */
} DemoJob;

/* The time task @task holds the CPU in [begin, end] minus the interrupt handlers, from
 * the state model's intervals (no handler nests in a S.Ha.R.K. trace: checked). */
static guint64
cpu_time_without_irqs (TwStateModel *model,
                       guint32       task,
                       guint64       begin,
                       guint64       end)
{
  gsize n_runs, n_irqs;
  const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, 0, &n_runs);
  const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (model, 0, &n_irqs);
  guint64 total = 0;

  for (gsize r = 0; r < n_runs; r++)
    {
      guint64 lo = MAX (runs[r].start, begin), hi = MIN (runs[r].end, end);

      if (runs[r].task != task || lo >= hi)
        continue;
      total += hi - lo;
      for (gsize q = 0; q < n_irqs; q++)
        {
          guint64 ilo = MAX (irqs[q].start, lo), ihi = MIN (irqs[q].end, hi);

          if (ilo < ihi)
            total -= ihi - ilo;
        }
    }
  return total;
}

/* Fig. 2 for S.Ha.R.K. on the demo trace, against two computations that share nothing
 * with the interpreter: per job (a task's user_event_0 to its next user_event_1), the
 * length is the task's running time from the state model's per-CPU run intervals minus
 * its irq intervals; the same length and the intermediate events also come from a walk
 * over the events that only tracks who runs (the switches' arg column) and whether a
 * handler is open (irq kinds): an event counts when the job's task ran outside a
 * handler just before it, and adds the time since the previous event. */
static void
test_shipped_fig2_shark_demo (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autoptr(TwAutomaton) a = load_shipped ("fig2-shark.json");
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "shark", NULL, NULL, NULL, NULL);
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(GArray) jobs = g_array_new (FALSE, FALSE, sizeof (DemoJob));
  g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (Expected));
  g_autofree gint64 *open_job = NULL;
  g_autofree guint64 *times = NULL;
  g_autofree guint32 *running_before = NULL;   /* who ran just before event k */
  g_autofree guint8 *in_irq_before = NULL;
  guint32 running = TW_TASK_NONE, n_tasks;
  guint depth = 0, n_switched_out = 0, n_blocked = 0;
  guint64 n_events;
  gsize n_irqs;
  const TwIrqInterval *irqs;

  g_assert_nonnull (trace);
  n_tasks = tw_trace_get_n_tasks (trace);
  n_events = tw_trace_get_n_events (trace);
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  g_assert_cmpuint (tw_state_model_get_n_cpus (model), ==, 1);
  irqs = tw_state_model_get_cpu_irqs (model, 0, &n_irqs);
  g_assert_cmpuint (n_irqs, >, 3000);
  for (gsize q = 0; q < n_irqs; q++)
    g_assert_cmpuint (irqs[q].depth, ==, 1);

  open_job = g_new (gint64, n_tasks);
  for (guint32 t = 0; t < n_tasks; t++)
    open_job[t] = -1;
  times = g_new (guint64, n_events);
  running_before = g_new (guint32, n_events);
  in_irq_before = g_new (guint8, n_events);
  for (guint64 k = 0; k < n_events; k++)
    {
      TwEvent ev;
      const TwEventType *type;

      g_assert_true (tw_trace_get_event (trace, k, &ev));
      type = tw_trace_get_event_type (trace, ev.type);
      times[k] = ev.time;
      running_before[k] = running;
      in_irq_before[k] = depth > 0;
      if (type->kind == TW_EVENT_KIND_SWITCH)
        running = ev.arg;
      else if (type->kind == TW_EVENT_KIND_IRQ_ENTRY)
        depth++;
      else if (type->kind == TW_EVENT_KIND_IRQ_EXIT && depth > 0)
        depth--;
      if (ev.task == TW_TASK_NONE)
        continue;
      if (g_str_equal (type->name, "user_event_0"))
        open_job[ev.task] = (gint64) k;
      else if (g_str_equal (type->name, "user_event_1") && open_job[ev.task] >= 0)
        {
          DemoJob job = { ev.task, times[open_job[ev.task]], ev.time, (guint64) open_job[ev.task], k };

          g_array_append_val (jobs, job);
          open_job[ev.task] = -1;
        }
    }
  g_assert_cmpuint (jobs->len, ==, 355);

  for (guint j = 0; j < jobs->len; j++)
    {
      const DemoJob *job = &g_array_index (jobs, DemoJob, j);
      Expected e = { job->task, job->begin, job->end, 0, 0 };
      guint64 walked = 0;
      gboolean left = FALSE;

      for (guint64 k = job->first + 1; k <= job->last; k++)
        {
          gboolean counting = running_before[k] == job->task && !in_irq_before[k];

          if (counting)
            {
              walked += times[k] - times[k - 1];
              e.events++;
            }
          else if (running_before[k] != job->task)
            left = TRUE;
        }
      e.length = cpu_time_without_irqs (model, job->task, job->begin, job->end);
      g_assert_cmpuint (walked, ==, e.length);
      n_switched_out += left;
      {
        /* a job whose task blocked on the mutex: the time others ran is not counted */
        for (guint64 k = job->first; k <= job->last; k++)
          {
            TwEvent ev;

            g_assert_true (tw_trace_get_event (trace, k, &ev));
            if (ev.task == job->task
                && g_str_equal (tw_trace_get_event_type (trace, ev.type)->name, "set_mutex_wait"))
              {
                n_blocked++;
                break;
              }
          }
      }
      g_array_append_val (want, e);
    }
  /* the paths beyond interrupts are taken: preemptions, and every mutex wait (4) */
  g_assert_cmpuint (n_switched_out, >, 20);
  g_assert_cmpuint (n_blocked, ==, 4);

  interp = run (a, trace);
  assert_measurements (interp, (const Expected *) want->data, want->len);
}

/* ---- differential: the tables and member lists against a plain reading of §4 ---- */

typedef struct {
  guint    state;
  gboolean meas, seg, run;
  guint64  meas_begin, meas_length, meas_events;
  guint64  seg_first, seg_last, seg_visits;
  guint64  run_first, run_visits;
  GArray  *closed;
} RefInstance;

static gboolean
ref_name_matches (const char        *name,
                  const TwEventType *type)
{
  TwEventKind kind;

  return g_str_equal (name, type->name) ||
         (tw_event_kind_from_string (name, &kind) && kind == type->kind);
}

static void
ref_close_segment (RefInstance *in)
{
  if (!in->seg)
    return;
  in->seg = FALSE;
  if (in->meas)
    {
      TwSegment seg = { in->seg_first, in->seg_last, in->seg_visits };

      in->meas_length += in->seg_last - in->seg_first;
      in->meas_events += in->seg_visits - 1;
      g_array_append_val (in->closed, seg);
    }
}

static void
ref_visit (TwStateKind  kind,
           RefInstance *in,
           guint32      task,
           guint64      time,
           GArray      *out,
           GArray      *out_segments)
{
  switch (kind)
    {
    case TW_STATE_KIND_BEGIN:
      in->seg = in->run = FALSE;
      g_array_set_size (in->closed, 0);
      in->meas = TRUE;
      in->meas_begin = time;
      in->meas_length = in->meas_events = 0;
      break;
    case TW_STATE_KIND_IN:
      if (in->run)
        {
          in->run = FALSE;
          in->seg = TRUE;
          in->seg_first = in->run_first;
          in->seg_visits = in->run_visits + 1;
          in->seg_last = time;
        }
      else if (in->seg)
        {
          in->seg_last = time;
          in->seg_visits++;
        }
      else
        {
          in->seg = TRUE;
          in->seg_first = in->seg_last = time;
          in->seg_visits = 1;
        }
      break;
    case TW_STATE_KIND_COND:
      ref_close_segment (in);
      if (in->run)
        in->run_visits++;
      else
        {
          in->run = TRUE;
          in->run_first = time;
          in->run_visits = 1;
        }
      break;
    case TW_STATE_KIND_OUT:
      ref_close_segment (in);
      in->run = FALSE;
      break;
    case TW_STATE_KIND_END:
      ref_close_segment (in);
      in->run = FALSE;
      if (in->meas)
        {
          TwAutomatonMeasurement m = { .task = task, .begin_ns = in->meas_begin, .end_ns = time,
                              .length_ns = in->meas_length,
                              .intermediate_events = in->meas_events,
                              .n_segments = in->closed->len,
                              /* the reference keeps the offset in @out_segments */
                              .end_event = out_segments->len };

          g_array_append_vals (out_segments, in->closed->data, in->closed->len);
          g_array_append_val (out, m);
          g_array_set_size (in->closed, 0);
          in->meas = FALSE;
        }
      break;
    case TW_STATE_KIND_CANCEL:
    default:
      in->meas = in->seg = in->run = FALSE;
      g_array_set_size (in->closed, 0);
      break;
    }
}

/* Every event to every existing instance, in task order, the winner found by scanning
 * the state's exits. */
static void
ref_run (TwAutomaton *a,
         TwTrace     *trace,
         GArray      *out,
         GArray      *out_segments)
{
  guint32 n_tasks = tw_trace_get_n_tasks (trace);
  g_autofree RefInstance *inst = g_new0 (RefInstance, n_tasks);
  g_autofree gboolean *exists = g_new0 (gboolean, n_tasks);
  guint initial = tw_automaton_find_state (a, tw_automaton_get_initial (a));

  for (guint32 t = 0; t < n_tasks; t++)
    inst[t].closed = g_array_new (FALSE, FALSE, sizeof (TwSegment));

  for (guint64 k = 0; k < tw_trace_get_n_events (trace); k++)
    {
      TwEvent ev;
      const TwEventType *type;
      gboolean arg_is_task;

      g_assert_true (tw_trace_get_event (trace, k, &ev));
      type = tw_trace_get_event_type (trace, ev.type);
      arg_is_task = type->kind == TW_EVENT_KIND_SWITCH;
      if (ev.task != TW_TASK_NONE && !exists[ev.task])
        {
          exists[ev.task] = TRUE;
          inst[ev.task].state = initial;
        }
      for (guint32 i = 0; i < n_tasks; i++)
        {
          int best = -1, best_spec = -1;
          guint s;

          if (!exists[i])
            continue;
          for (guint t = 0; t < tw_automaton_get_n_transitions (a); t++)
            {
              const TwAutomatonTransition *tr = tw_automaton_get_transition (a, t);
              int spec;

              if ((guint) tw_automaton_find_state (a, tr->from) != inst[i].state ||
                  tr->label == TW_LABEL_LAMBDA)
                continue;
              if (tr->label == TW_LABEL_ANY)
                spec = 0;
              else if (!ref_name_matches (tr->event, type))
                continue;
              else if (tr->task == TW_TASK_MATCH_ANY)
                spec = 1;
              else
                {
                  guint32 who = tr->task_field == TW_TASK_FIELD_ARG
                                ? (arg_is_task ? ev.arg : TW_TASK_NONE) : ev.task;

                  if ((who == i) != (tr->task == TW_TASK_MATCH_SAME))
                    continue;
                  spec = 2;
                }
              if (spec > best_spec)
                {
                  best = t;
                  best_spec = spec;
                }
            }
          if (best < 0)
            continue;
          s = tw_automaton_find_state (a, tw_automaton_get_transition (a, best)->to);
          for (;;)
            {
              int lambda = -1;

              ref_visit (tw_automaton_get_state (a, s)->kind, &inst[i], i, ev.time, out,
                         out_segments);
              for (guint t = 0; t < tw_automaton_get_n_transitions (a); t++)
                {
                  const TwAutomatonTransition *tr = tw_automaton_get_transition (a, t);

                  if (tr->label == TW_LABEL_LAMBDA && (guint) tw_automaton_find_state (a, tr->from) == s)
                    lambda = tw_automaton_find_state (a, tr->to);
                }
              if (lambda < 0)
                break;
              s = lambda;
            }
          inst[i].state = s;
        }
    }
  for (guint32 t = 0; t < n_tasks; t++)
    g_array_unref (inst[t].closed);
}

static TwAutomaton *
random_automaton (GRand *rand)
{
  static const char * const names[] = { "A", "B", "C", "switch" };
  g_autoptr(TwAutomaton) a = tw_automaton_new ("random");
  guint n = g_rand_int_range (rand, 2, 8);
  char id[2][8];

  for (guint s = 0; s < n; s++)
    {
      TwStateKind kind = s == 0 ? TW_STATE_KIND_OUT : g_rand_int_range (rand, 0, TW_N_STATE_KINDS);

      g_snprintf (id[0], sizeof id[0], "s%u", s);
      tw_automaton_add_state (a, id[0], kind, 0, 0);
    }
  tw_automaton_set_initial (a, "s0");
  for (guint s = 0; s < n; s++)
    {
      guint n_exits = g_rand_int_range (rand, 0, 5);

      g_snprintf (id[0], sizeof id[0], "s%u", s);
      if (s > 0 && g_rand_int_range (rand, 0, 4) == 0)
        {
          g_snprintf (id[1], sizeof id[1], "s%u", g_rand_int_range (rand, 0, n));
          tw_automaton_add_lambda (a, id[0], id[1]);
          continue;
        }
      for (guint e = 0; e < n_exits; e++)
        {
          const char *name = names[g_rand_int_range (rand, 0, G_N_ELEMENTS (names))];
          TwTaskMatch task = g_rand_int_range (rand, 0, 3);
          TwTaskField field = g_str_equal (name, "switch") && g_rand_boolean (rand)
                              ? TW_TASK_FIELD_ARG : TW_TASK_FIELD_TASK;

          /* reach later states first, so that most automata are connected */
          g_snprintf (id[1], sizeof id[1], "s%u",
                      e == 0 && s + 1 < n ? s + 1 : (guint) g_rand_int_range (rand, 0, n));
          if (g_rand_int_range (rand, 0, 5) == 0)
            tw_automaton_add_any (a, id[0], id[1]);
          else
            tw_automaton_add_transition (a, id[0], id[1], TW_LABEL_EVENT, name, task, field);
        }
    }
  return g_steal_pointer (&a);
}

static TwTrace *
random_trace (GRand *rand)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 types[5];
  guint64 time = 0;
  guint n = g_rand_int_range (rand, 1, 300);

  tw_test_ensure_tasks (trace, 5);
  types[0] = tw_test_add_simple_type (trace, "A", TW_EVENT_KIND_OTHER);
  types[1] = tw_test_add_simple_type (trace, "B", TW_EVENT_KIND_USER);
  types[2] = tw_test_add_simple_type (trace, "C", TW_EVENT_KIND_OTHER);
  types[3] = tw_test_add_simple_type (trace, "sw", TW_EVENT_KIND_SWITCH);
  types[4] = tw_test_add_simple_type (trace, "D", TW_EVENT_KIND_OTHER);
  for (guint i = 0; i < n; i++)
    {
      guint32 task = g_rand_int_range (rand, 0, 6);
      guint32 arg = g_rand_int_range (rand, 0, 6);

      time += g_rand_int_range (rand, 0, 3);
      tw_trace_append (trace, time, 0, types[g_rand_int_range (rand, 0, 5)],
                       task == 5 ? TW_TASK_NONE : task, arg == 5 ? TW_TASK_NONE : arg, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return g_steal_pointer (&trace);
}

static void
test_differential (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20260522);
  guint n_valid = 0, n_measurements = 0;

  for (guint attempt = 0; attempt < 20000 && n_valid < 1500; attempt++)
    {
      g_autoptr(TwAutomaton) a = random_automaton (rand);
      g_autoptr(GPtrArray) problems = tw_automaton_validate (a);
      g_autoptr(TwTrace) trace = NULL;
      g_autoptr(TwAutomatonInterp) interp = NULL;
      g_autoptr(GArray) want = g_array_new (FALSE, FALSE, sizeof (TwAutomatonMeasurement));
      g_autoptr(GArray) want_segments = g_array_new (FALSE, FALSE, sizeof (TwSegment));
      g_autoptr(GError) error = NULL;
      gsize n;
      guint64 pos = 0;

      if (problems->len > 0)
        continue;
      n_valid++;
      trace = random_trace (rand);
      ref_run (a, trace, want, want_segments);

      interp = tw_automaton_interp_new (a, trace, &error);
      g_assert_no_error (error);
      /* fed in random pieces, as a live view would */
      while (pos < tw_trace_get_n_events (trace))
        {
          guint64 end = pos + g_rand_int_range (rand, 1, 50);

          g_assert_true (tw_automaton_interp_feed (interp, pos, end, &error));
          pos = tw_automaton_interp_get_position (interp);
        }
      n = tw_automaton_interp_get_n_measurements (interp);
      g_assert_cmpuint (n, ==, want->len);
      for (gsize i = 0; i < n; i++)
        {
          const TwAutomatonMeasurement *got = tw_automaton_interp_get_measurement (interp, i);
          const TwAutomatonMeasurement *w = &g_array_index (want, TwAutomatonMeasurement, i);

          g_assert_cmpuint (got->task, ==, w->task);
          g_assert_cmpuint (got->begin_ns, ==, w->begin_ns);
          g_assert_cmpuint (got->end_ns, ==, w->end_ns);
          g_assert_cmpuint (got->length_ns, ==, w->length_ns);
          g_assert_cmpuint (got->intermediate_events, ==, w->intermediate_events);
          g_assert_cmpuint (got->n_segments, ==, w->n_segments);
          if (got->n_segments > 0)
            g_assert_cmpmem (got->segments, got->n_segments * sizeof (TwSegment),
                             &g_array_index (want_segments, TwSegment, w->end_event),
                             w->n_segments * sizeof (TwSegment));
          else
            g_assert_null (got->segments);
        }
      n_measurements += n;
    }
  g_test_message ("%u valid automata, %u measurements", n_valid, n_measurements);
  g_assert_cmpuint (n_valid, >=, 1000);
  g_assert_cmpuint (n_measurements, >=, 1000);
}

/* With per-type costs, a measurement's overhead sums its intermediate visits' own
 * costs: every event at 3 ns through the sums (a type named that never occurs makes
 * the costs per type) gives exactly intermediate × 3, on the random automata and
 * traces of the differential test, through the evaluator a window runs. */
static void
test_differential_costs (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261127);
  g_autoptr(TwEventCosts) costs = tw_event_costs_parse ("no_such_type=9us,*=3ns", NULL);
  guint n_valid = 0, n_measurements = 0;

  for (guint attempt = 0; attempt < 20000 && n_valid < 400; attempt++)
    {
      g_autoptr(TwAutomaton) a = random_automaton (rand);
      g_autoptr(GPtrArray) problems = tw_automaton_validate (a);
      g_autoptr(TwTrace) trace = NULL;
      g_autoptr(TwAutomatonEvaluator) evaluator = NULL;
      g_autoptr(TwMeasurementTable) table = NULL;
      g_autoptr(GError) error = NULL;

      if (problems->len > 0)
        continue;
      n_valid++;
      trace = random_trace (rand);
      evaluator = tw_automaton_evaluator_new (a, NULL);
      table = tw_evaluator_evaluate_with_costs (TW_EVALUATOR (evaluator), trace, costs, NULL,
                                                NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (tw_measurement_table_get_type_costs (table));
      for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
        {
          const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

          g_assert_cmpuint (tw_measurement_table_get_overhead (table, m), ==,
                            3 * (guint64) m->intermediate_events);
        }
      n_measurements += tw_measurement_table_get_n_rows (table);
    }
  g_assert_cmpuint (n_valid, >=, 300);
  g_assert_cmpuint (n_measurements, >=, 300);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/automaton/interp/begin-in-end", test_begin_in_end);
  g_test_add_func ("/tw/evaluators/automaton/interp/ignored-events", test_ignored_events);
  g_test_add_func ("/tw/evaluators/automaton/interp/out-excludes", test_out_excludes);
  g_test_add_func ("/tw/evaluators/automaton/interp/taskless-and-cancel",
                   test_taskless_and_cancel_by_same);
  g_test_add_func ("/tw/evaluators/automaton/interp/specificity-same", test_specificity_same);
  g_test_add_func ("/tw/evaluators/automaton/interp/specificity-other", test_specificity_other);
  g_test_add_func ("/tw/evaluators/automaton/interp/cond-kept-and-dropped",
                   test_cond_kept_and_dropped);
  g_test_add_func ("/tw/evaluators/automaton/interp/cond-dropped-by-end",
                   test_cond_dropped_by_end);
  g_test_add_func ("/tw/evaluators/automaton/interp/lambda-chain", test_lambda_chain);
  g_test_add_func ("/tw/evaluators/automaton/interp/begin-drops-open", test_begin_drops_open);
  g_test_add_func ("/tw/evaluators/automaton/interp/cancel-and-lone-end",
                   test_cancel_and_end_without_measurement);
  g_test_add_func ("/tw/evaluators/automaton/interp/ties-in-file-order",
                   test_ties_in_file_order);
  g_test_add_func ("/tw/evaluators/automaton/interp/instance-creation", test_instance_creation);
  g_test_add_func ("/tw/evaluators/automaton/interp/same-event-order", test_same_event_order);
  g_test_add_func ("/tw/evaluators/automaton/interp/arg-task-field", test_arg_task_field);
  g_test_add_func ("/tw/evaluators/automaton/interp/bind-errors", test_bind_errors);
  g_test_add_func ("/tw/evaluators/automaton/interp/live-bind-error", test_live_bind_error);
  g_test_add_func ("/tw/evaluators/automaton/interp/invalid-refused", test_invalid_refused);
  g_test_add_func ("/tw/evaluators/automaton/interp/incremental-live", test_incremental_live);
  g_test_add_func ("/tw/evaluators/automaton/interp/differential", test_differential);
  g_test_add_func ("/tw/evaluators/automaton/interp/differential-costs", test_differential_costs);
  g_test_add_func ("/tw/evaluators/automaton/interp/many-measurements", test_many_measurements);

  g_test_add_func ("/tw/evaluators/automaton/labels", test_labels);
  g_test_add_func ("/tw/evaluators/automaton/model-edits", test_model_edits);
  g_test_add_func ("/tw/evaluators/automaton/validate/overlaps", test_validate_overlaps);
  g_test_add_func ("/tw/evaluators/automaton/validate/lambda-with-other-exits",
                   test_validate_lambda_with_other_exits);
  g_test_add_func ("/tw/evaluators/automaton/validate/lambda-cycle", test_validate_lambda_cycle);
  g_test_add_func ("/tw/evaluators/automaton/validate/lambda-from-initial",
                   test_validate_lambda_from_initial);
  g_test_add_func ("/tw/evaluators/automaton/validate/unreachable", test_validate_unreachable);
  g_test_add_func ("/tw/evaluators/automaton/validate/initial-not-out",
                   test_validate_initial_not_out);
  g_test_add_func ("/tw/evaluators/automaton/validate/structure", test_validate_structure);
  g_test_add_func ("/tw/evaluators/automaton/validate/all-and-check", test_validate_all_and_check);

  g_test_add_func ("/tw/evaluators/automaton/shipped/fig2", test_shipped_fig2);
  g_test_add_func ("/tw/evaluators/automaton/shipped/fig2-shark", test_shipped_fig2_shark);
  g_test_add_func ("/tw/evaluators/automaton/shipped/fig2-shark-demo", test_shipped_fig2_shark_demo);
  g_test_add_func ("/tw/evaluators/automaton/shipped/user-metric", test_shipped_user_metric);
  g_test_add_func ("/tw/evaluators/automaton/shipped/user-metric-no-system",
                   test_shipped_user_metric_no_system);
  g_test_add_func ("/tw/evaluators/automaton/shipped/irq-duration", test_shipped_irq_duration);
  g_test_add_func ("/tw/evaluators/automaton/shipped/demo-rt-job", test_shipped_demo_rt_job);
  g_test_add_func ("/tw/evaluators/automaton/shipped/wakeup-latency",
                   test_shipped_wakeup_latency);
  g_test_add_func ("/tw/evaluators/automaton/shipped/delay-until-wakeup",
                   test_shipped_delay_until_wakeup);
  g_test_add_func ("/tw/evaluators/automaton/shipped/delay-until-wakeup-demo",
                   test_shipped_delay_until_wakeup_demo);

  return g_test_run ();
}
