/* tw-automaton-tables.c: an automaton as indexes, for the validator, the interpreter
 * and the C generator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The validator, the interpreter and the C generator each used to turn state ids into
 * indexes, collect the label names and search a state's winning exit on their own.
 * The winning-exit rule is the heart of DESIGN §4: the interpreter and the module the
 * generator writes must agree on it to the last tie, so it exists once, here.
 */
#include "config.h"

#include "tw-automaton-tables-private.h"

/**
 * _tw_automaton_tables_init:
 * @tables: (out caller-allocates): where the tables go; clear them with
 *   _tw_automaton_tables_clear()
 * @automaton: any automaton, valid or not
 *
 * Builds the tables of @automaton as it is now.
 */
void
_tw_automaton_tables_init (TwAutomatonTables *tables,
                           TwAutomaton       *automaton)
{
  g_autoptr(GHashTable) name_index = g_hash_table_new (g_str_hash, g_str_equal);
  TwAutomatonTables *t = tables;

  *t = (TwAutomatonTables) { 0 };
  t->n_states = tw_automaton_get_n_states (automaton);
  t->state_ids = g_new0 (char *, t->n_states + 1);
  t->kind = g_new (guint8, t->n_states + 1);
  t->lambda_next = g_new (int, t->n_states + 1);
  t->state_index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint s = 0; s < t->n_states; s++)
    {
      const TwAutomatonState *state = tw_automaton_get_state (automaton, s);

      t->state_ids[s] = g_strdup (state->id);
      t->kind[s] = state->kind;
      t->lambda_next[s] = -1;
      /* the first state of an id wins: the validator reports the others as duplicates */
      if (t->state_ids[s][0] != '\0' && !g_hash_table_contains (t->state_index, t->state_ids[s]))
        g_hash_table_insert (t->state_index, t->state_ids[s], GUINT_TO_POINTER (s + 1));
    }
  t->initial = _tw_automaton_tables_lookup_state (t, tw_automaton_get_initial (automaton));

  t->n_transitions = tw_automaton_get_n_transitions (automaton);
  t->transitions = g_new0 (TwAutomatonTransition, t->n_transitions + 1);
  t->from = g_new (int, t->n_transitions + 1);
  t->to = g_new (int, t->n_transitions + 1);
  t->name = g_new (int, t->n_transitions + 1);
  t->names = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < t->n_transitions; i++)
    {
      const TwAutomatonTransition *tr = tw_automaton_get_transition (automaton, i);
      gpointer value;

      t->transitions[i].label = tr->label;
      t->transitions[i].task = tr->task;
      t->transitions[i].task_field = tr->task_field;
      t->from[i] = _tw_automaton_tables_lookup_state (t, tr->from);
      t->to[i] = _tw_automaton_tables_lookup_state (t, tr->to);
      t->name[i] = -1;
      if (tr->label == TW_LABEL_LAMBDA && t->from[i] >= 0 && t->to[i] >= 0)
        t->lambda_next[t->from[i]] = t->to[i];
      if (tr->label != TW_LABEL_EVENT || tr->event == NULL)
        continue;
      if (!g_hash_table_lookup_extended (name_index, tr->event, NULL, &value))
        {
          value = GUINT_TO_POINTER (t->names->len);
          g_ptr_array_add (t->names, g_strdup (tr->event));
          g_hash_table_insert (name_index, g_ptr_array_index (t->names, t->names->len - 1), value);
        }
      t->name[i] = GPOINTER_TO_INT (value);
      t->transitions[i].event = g_ptr_array_index (t->names, t->name[i]);
    }

  t->arg_task_transition = g_new (int, t->names->len + 1);
  for (guint n = 0; n < t->names->len; n++)
    t->arg_task_transition[n] = -1;
  for (guint i = t->n_transitions; i-- > 0;)
    {
      const TwAutomatonTransition *tr = &t->transitions[i];

      if (t->name[i] >= 0 && tr->task_field == TW_TASK_FIELD_ARG && tr->task != TW_TASK_MATCH_ANY)
        t->arg_task_transition[t->name[i]] = (int) i;
    }
}

void
_tw_automaton_tables_clear (TwAutomatonTables *tables)
{
  g_clear_pointer (&tables->state_ids, g_strfreev);
  g_clear_pointer (&tables->kind, g_free);
  g_clear_pointer (&tables->state_index, g_hash_table_unref);
  g_clear_pointer (&tables->transitions, g_free);
  g_clear_pointer (&tables->from, g_free);
  g_clear_pointer (&tables->to, g_free);
  g_clear_pointer (&tables->name, g_free);
  g_clear_pointer (&tables->lambda_next, g_free);
  g_clear_pointer (&tables->names, g_ptr_array_unref);
  g_clear_pointer (&tables->arg_task_transition, g_free);
  tables->n_states = tables->n_transitions = 0;
}

/**
 * _tw_automaton_tables_lookup_state:
 * @id: (nullable): a state id
 *
 * Returns: the index of the first state called @id, or -1 (also for %NULL and "")
 */
int
_tw_automaton_tables_lookup_state (const TwAutomatonTables *tables,
                                   const char              *id)
{
  if (id == NULL)
    return -1;
  return GPOINTER_TO_INT (g_hash_table_lookup (tables->state_index, id)) - 1;
}

/* The winning exit of @state for an input: an event matching the names where @names
 * is nonzero, whose task and arg columns relate to the instance's task as @input_class
 * says (bit 0: the task column is the instance's task; bit 1: the arg column is). The
 * most specific label wins: (E, i) and (E, not i) over E over `*`; λ exits never take
 * an event. Returns -1 when no label matches; *tie is another winner or -1. */
static int
find_winner (const TwAutomatonTables *t,
             guint                    state,
             const guint8            *names,
             guint                    input_class,
             int                     *tie)
{
  int best = -1, best_spec = -1;

  *tie = -1;
  for (guint i = 0; i < t->n_transitions; i++)
    {
      const TwAutomatonTransition *tr = &t->transitions[i];
      int spec;

      if (t->from[i] != (int) state || tr->label == TW_LABEL_LAMBDA)
        continue;
      if (tr->label == TW_LABEL_ANY)
        spec = 0;
      else if (t->name[i] < 0 || !names[t->name[i]])
        continue;
      else if (tr->task == TW_TASK_MATCH_ANY)
        spec = 1;
      else
        {
          gboolean is_i = tr->task_field == TW_TASK_FIELD_ARG ? (input_class >> 1) & 1
                                                               : input_class & 1;

          if (is_i != (tr->task == TW_TASK_MATCH_SAME))
            continue;
          spec = 2;
        }
      if (spec > best_spec)
        {
          best = i;
          best_spec = spec;
          *tie = -1;
        }
      else if (spec == best_spec)
        *tie = i;
    }
  return best;
}

/**
 * _tw_automaton_tables_fill_next:
 * @tables: the tables of a valid automaton
 * @n_syms: how many symbols the caller's events have
 * @sym_names: (array length=n_syms): per symbol, per name of @tables: nonzero when
 *   the events of that symbol match the name
 * @next: (out caller-allocates): n_states × @n_syms × 4 entries, filled as
 *   `next[(state * n_syms + sym) * 4 + class]`
 * @tie: (out caller-allocates): the first tie when there is one
 *
 * Fills the transition table both the interpreter and the generated module run on:
 * per state, symbol and input class (bit 0: the event's task column is the instance's
 * task; bit 1: its arg column is), the target of the winning transition, or -1 when
 * no label matches or the winner is a self-loop on an `out`, `end` or `cancel` state
 * (the visit that entered the state already closed the segment, dropped the run and,
 * for `end` and `cancel`, the measurement: another visit changes nothing, and -1 lets
 * the hot loops skip it).
 *
 * Returns: %FALSE when two exits of a state match one symbol with equal specificity
 *   (@tie says which; @next is then incomplete)
 */
gboolean
_tw_automaton_tables_fill_next (const TwAutomatonTables *tables,
                                guint                    n_syms,
                                const guint8 *const     *sym_names,
                                gint32                  *next,
                                TwAutomatonTie          *tie)
{
  const TwAutomatonTables *t = tables;

  for (guint s = 0; s < t->n_states; s++)
    for (guint sym = 0; sym < n_syms; sym++)
      for (guint c = 0; c < 4; c++)
        {
          int other;
          int best = find_winner (t, s, sym_names[sym], c, &other);

          if (other >= 0)
            {
              *tie = (TwAutomatonTie) { s, (guint) best, (guint) other };
              return FALSE;
            }
          if (best >= 0 && t->to[best] == (int) s &&
              (t->kind[s] == TW_STATE_KIND_OUT || t->kind[s] == TW_STATE_KIND_END ||
               t->kind[s] == TW_STATE_KIND_CANCEL))
            best = -1;
          next[((gsize) s * n_syms + sym) * 4 + c] = best >= 0 ? t->to[best] : -1;
        }
  return TRUE;
}

/**
 * _tw_automaton_tables_dup_label:
 *
 * Returns: (transfer full): the label of transition number @transition, as
 *   tw_automaton_transition_dup_label() writes it
 */
char *
_tw_automaton_tables_dup_label (const TwAutomatonTables *tables,
                                guint                    transition)
{
  g_return_val_if_fail (transition < tables->n_transitions, NULL);

  return tw_automaton_transition_dup_label (&tables->transitions[transition]);
}

/**
 * _tw_event_kind_has_task_arg:
 *
 * Returns: whether events of @kind carry a task index in their arg column (the next
 *   task of a switch, the woken task, the created or exiting task), the only kinds a
 *   label with `"task_field": "arg"` can compare with the instance's task
 */
gboolean
_tw_event_kind_has_task_arg (TwEventKind kind)
{
  return kind == TW_EVENT_KIND_SWITCH || kind == TW_EVENT_KIND_WAKEUP ||
         kind == TW_EVENT_KIND_TASK_CREATE || kind == TW_EVENT_KIND_TASK_EXIT;
}
