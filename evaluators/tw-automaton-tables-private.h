/* tw-automaton-tables-private.h: an automaton as indexes, for the validator, the
 * interpreter and the C generator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

#include "tw-automaton.h"

G_BEGIN_DECLS

/**
 * TwAutomatonTables:
 * @n_states: how many states
 * @state_ids: (array length=n_states): copies of the states' ids
 * @kind: (array length=n_states): each state's #TwStateKind
 * @state_index: id → index + 1 of the first state with that id (empty ids are none)
 * @initial: index of the initial state, -1 when it names no state
 * @n_transitions: how many transitions
 * @transitions: (array length=n_transitions): the label part of each (@label, @task,
 *   @task_field, and @event pointing into @names); @from and @to are %NULL
 * @from: (array length=n_transitions): index of each transition's source, -1 when
 *   its id names no state
 * @to: (array length=n_transitions): index of its target, -1 likewise
 * @name: (array length=n_transitions): index in @names of an event label's name, -1
 *   for λ and `*`
 * @lambda_next: (array length=n_states): the target of the state's λ exit (the last
 *   one that leads to a state), or -1
 * @names: the distinct event names of the labels, in transition order (owned copies)
 * @arg_task_transition: (array length=names->len): per name, the first transition
 *   whose label compares the event's arg column with the instance's task (`(E, i)` or
 *   `(E, not i)` with `"task_field": "arg"`), or -1: events bound to that name need
 *   an arg that is a task
 *
 * What every user of an automaton rebuilds from its ids: the validator (which also
 * sees automata with unknown or duplicate ids, hence the -1s), the interpreter and the
 * C generator (which only see valid ones). The tables are copies: they stay valid
 * while the automaton is edited.
 */
typedef struct {
  guint                   n_states;
  char                  **state_ids;
  guint8                 *kind;
  GHashTable             *state_index;
  int                     initial;

  guint                   n_transitions;
  TwAutomatonTransition  *transitions;
  int                    *from;
  int                    *to;
  int                    *name;
  int                    *lambda_next;

  GPtrArray              *names;
  int                    *arg_task_transition;
} TwAutomatonTables;

/**
 * TwAutomatonTie:
 * @state: the state whose exits tie
 * @first: the first winning transition
 * @second: another transition as specific as @first that matches the same input
 *
 * Two exits of one state that match one same input with equal specificity: the
 * decision would depend on the order of the exits (DESIGN §4).
 */
typedef struct {
  guint state;
  guint first;
  guint second;
} TwAutomatonTie;

void     _tw_automaton_tables_init             (TwAutomatonTables        *tables,
                                                TwAutomaton              *automaton);
void     _tw_automaton_tables_clear            (TwAutomatonTables        *tables);
int      _tw_automaton_tables_lookup_state     (const TwAutomatonTables  *tables,
                                                const char               *id);
gboolean _tw_automaton_tables_fill_next        (const TwAutomatonTables  *tables,
                                                guint                     n_syms,
                                                const guint8 *const      *sym_names,
                                                gint32                   *next,
                                                TwAutomatonTie           *tie);
char    *_tw_automaton_tables_dup_label        (const TwAutomatonTables  *tables,
                                                guint                     transition);

gboolean _tw_event_kind_has_task_arg           (TwEventKind               kind);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TwAutomatonTables, _tw_automaton_tables_clear)

G_END_DECLS
