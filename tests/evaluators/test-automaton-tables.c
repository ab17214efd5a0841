/* test-automaton-tables.c: the tables the validator, interpreter and C generator share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-automaton-tables-private.h"

/* Ids as the validator sees them: the first state of an id counts, empty ids and
 * unknown ones are no state. */
static void
test_state_index (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("t");
  g_auto(TwAutomatonTables) t = { 0 };

  tw_automaton_add_state (a, "o", TW_STATE_KIND_OUT, 0, 0);
  tw_automaton_add_state (a, "b", TW_STATE_KIND_BEGIN, 0, 0);
  tw_automaton_add_state (a, "o", TW_STATE_KIND_IN, 0, 0);
  tw_automaton_add_state (a, "", TW_STATE_KIND_END, 0, 0);
  tw_automaton_set_initial (a, "b");
  tw_automaton_add_event (a, "o", "b", "go", TW_TASK_MATCH_SAME);
  tw_automaton_add_event (a, "b", "nowhere", "go", TW_TASK_MATCH_ANY);
  tw_automaton_add_lambda (a, "", "o");

  _tw_automaton_tables_init (&t, a);
  g_assert_cmpuint (t.n_states, ==, 4);
  g_assert_cmpint (_tw_automaton_tables_lookup_state (&t, "o"), ==, 0);
  g_assert_cmpint (_tw_automaton_tables_lookup_state (&t, "b"), ==, 1);
  g_assert_cmpint (_tw_automaton_tables_lookup_state (&t, ""), ==, -1);
  g_assert_cmpint (_tw_automaton_tables_lookup_state (&t, NULL), ==, -1);
  g_assert_cmpint (t.initial, ==, 1);
  g_assert_cmpint (t.from[0], ==, 0);
  g_assert_cmpint (t.to[0], ==, 1);
  g_assert_cmpint (t.to[1], ==, -1);
  g_assert_cmpint (t.from[2], ==, -1);
  /* a λ exit from no state is nobody's */
  for (guint s = 0; s < t.n_states; s++)
    g_assert_cmpint (t.lambda_next[s], ==, -1);
  g_assert_cmpuint (t.kind[2], ==, TW_STATE_KIND_IN);
}

/* Names once each in transition order; the first label reading the arg as a task. */
static void
test_names (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("t");
  g_auto(TwAutomatonTables) t = { 0 };
  g_autofree char *label = NULL;

  tw_automaton_add_state (a, "o", TW_STATE_KIND_OUT, 0, 0);
  tw_automaton_add_state (a, "i", TW_STATE_KIND_IN, 0, 0);
  tw_automaton_set_initial (a, "o");
  tw_automaton_add_event (a, "o", "i", "wakeup", TW_TASK_MATCH_ANY);
  tw_automaton_add_transition (a, "i", "o", TW_LABEL_EVENT, "switch", TW_TASK_MATCH_OTHER,
                               TW_TASK_FIELD_ARG);
  tw_automaton_add_any (a, "i", "i");
  tw_automaton_add_transition (a, "o", "o", TW_LABEL_EVENT, "wakeup", TW_TASK_MATCH_SAME,
                               TW_TASK_FIELD_ARG);
  tw_automaton_add_transition (a, "i", "i", TW_LABEL_EVENT, "switch", TW_TASK_MATCH_SAME,
                               TW_TASK_FIELD_ARG);

  _tw_automaton_tables_init (&t, a);
  g_assert_cmpuint (t.names->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (t.names, 0), ==, "wakeup");
  g_assert_cmpstr (g_ptr_array_index (t.names, 1), ==, "switch");
  g_assert_cmpint (t.name[0], ==, 0);
  g_assert_cmpint (t.name[1], ==, 1);
  g_assert_cmpint (t.name[2], ==, -1);
  g_assert_cmpint (t.name[3], ==, 0);
  g_assert_cmpint (t.arg_task_transition[0], ==, 3);
  g_assert_cmpint (t.arg_task_transition[1], ==, 1);
  label = _tw_automaton_tables_dup_label (&t, 1);
  g_assert_cmpstr (label, ==, "(switch, not i by arg)");
  g_assert_true (_tw_event_kind_has_task_arg (TW_EVENT_KIND_SWITCH));
  g_assert_false (_tw_event_kind_has_task_arg (TW_EVENT_KIND_IRQ_ENTRY));
}

static gint32
next_at (const gint32 *next,
         guint         n_syms,
         guint         state,
         guint         sym,
         guint         input_class)
{
  return next[((gsize) state * n_syms + sym) * 4 + input_class];
}

/* The most specific label wins; a self-loop on out, end or cancel is "ignored" (-1). */
static void
test_fill_next (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("t");
  g_auto(TwAutomatonTables) t = { 0 };
  /* symbol 0 matches no name, symbol 1 "e", symbol 2 "f" */
  const guint8 none[] = { 0, 0 }, e[] = { 1, 0 }, f[] = { 0, 1 };
  const guint8 *const sym_names[] = { none, e, f };
  gint32 next[3 * 3 * 4];
  TwAutomatonTie tie = { 0 };

  tw_automaton_add_state (a, "o", TW_STATE_KIND_OUT, 0, 0);
  tw_automaton_add_state (a, "b", TW_STATE_KIND_BEGIN, 0, 0);
  tw_automaton_add_state (a, "i", TW_STATE_KIND_IN, 0, 0);
  tw_automaton_set_initial (a, "o");
  tw_automaton_add_any (a, "o", "o");
  tw_automaton_add_event (a, "o", "b", "e", TW_TASK_MATCH_SAME);
  tw_automaton_add_event (a, "o", "i", "e", TW_TASK_MATCH_ANY);
  tw_automaton_add_lambda (a, "b", "i");
  tw_automaton_add_any (a, "i", "i");
  tw_automaton_add_event (a, "i", "o", "f", TW_TASK_MATCH_ANY);

  _tw_automaton_tables_init (&t, a);
  g_assert_cmpint (t.lambda_next[1], ==, 2);
  g_assert_true (_tw_automaton_tables_fill_next (&t, 3, sym_names, next, &tie));
  for (guint c = 0; c < 4; c++)
    {
      /* the `*` self-loop of an out state changes nothing */
      g_assert_cmpint (next_at (next, 3, 0, 0, c), ==, -1);
      g_assert_cmpint (next_at (next, 3, 0, 1, c), ==, c & 1 ? 1 : 2);
      g_assert_cmpint (next_at (next, 3, 0, 2, c), ==, -1);
      /* a λ state takes no event */
      g_assert_cmpint (next_at (next, 3, 1, 1, c), ==, -1);
      /* the `*` self-loop of an in state is a visit */
      g_assert_cmpint (next_at (next, 3, 2, 0, c), ==, 2);
      g_assert_cmpint (next_at (next, 3, 2, 2, c), ==, 0);
    }

  /* "e" and "f" alias through a trace: one symbol matching both ties in state i */
  {
    const guint8 both[] = { 1, 1 };
    const guint8 *const aliased[] = { none, both };
    g_auto(TwAutomatonTables) t2 = { 0 };

    tw_automaton_add_event (a, "i", "b", "e", TW_TASK_MATCH_ANY);
    _tw_automaton_tables_init (&t2, a);
    g_assert_false (_tw_automaton_tables_fill_next (&t2, 2, aliased, next, &tie));
    g_assert_cmpuint (tie.state, ==, 2);
    g_assert_cmpuint (tie.first, ==, 5);
    g_assert_cmpuint (tie.second, ==, 6);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tw/evaluators/automaton-tables/state-index", test_state_index);
  g_test_add_func ("/tw/evaluators/automaton-tables/names", test_names);
  g_test_add_func ("/tw/evaluators/automaton-tables/fill-next", test_fill_next);

  return g_test_run ();
}
