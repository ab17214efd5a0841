/* tw-automaton-history.c: undo and redo for edits of a metric automaton
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-automaton-history.h"
#include "tw-automaton-file.h"

/*
 * Each step keeps a copy of the automaton before and after the edit (a memento).
 * Automata are small, so this costs little, and it makes undo exact by construction:
 * restoring a copy brings back the order of states and transitions, unknown JSON
 * members and the initial state, which inverse operations on the model could not all
 * promise (removing a state also removes its transitions from the middle of the list).
 * Restoring rewrites the caller's TwAutomaton in place, so whoever holds it (the live
 * preview) never sees it replaced by an undo.
 */

#define MAX_STEPS 500

typedef struct {
  TwAutomaton *before;
  TwAutomaton *after;
} Step;

struct _TwAutomatonHistory
{
  GObject      parent_instance;

  GPtrArray   *undo_steps;   /* Step, oldest first */
  GPtrArray   *redo_steps;   /* Step, next redo last */
  TwAutomaton *pending;      /* the automaton at begin(), until commit() */
  char        *pending_text; /* its file text: what commit() compares */
};

G_DEFINE_FINAL_TYPE (TwAutomatonHistory, tw_automaton_history, G_TYPE_OBJECT)

static void
step_free (gpointer data)
{
  Step *step = data;

  g_clear_object (&step->before);
  g_clear_object (&step->after);
  g_free (step);
}

/* Makes @dst a copy of @src, in place; extras are shared (they are never modified). */
static void
copy_into (TwAutomaton *dst,
           TwAutomaton *src)
{
  while (tw_automaton_get_n_transitions (dst) > 0)
    tw_automaton_remove_transition (dst, tw_automaton_get_n_transitions (dst) - 1);
  while (tw_automaton_get_n_states (dst) > 0)
    tw_automaton_remove_state (dst, tw_automaton_get_n_states (dst) - 1);
  tw_automaton_set_name (dst, tw_automaton_get_name (src));
  tw_automaton_set_initial (dst, tw_automaton_get_initial (src));
  tw_automaton_set_extra (dst, tw_automaton_get_extra (src));
  for (guint i = 0; i < tw_automaton_get_n_states (src); i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (src, i);
      guint k = tw_automaton_add_state (dst, s->id, s->kind, s->x, s->y);
      tw_automaton_set_state_extra (dst, k, s->extra);
    }
  for (guint i = 0; i < tw_automaton_get_n_transitions (src); i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (src, i);
      guint k = tw_automaton_add_transition (dst, t->from, t->to, t->label, t->event, t->task,
                                             t->task_field);
      tw_automaton_set_transition_extra (dst, k, t->extra);
    }
}

static TwAutomaton *
snapshot (TwAutomaton *src)
{
  TwAutomaton *copy = tw_automaton_new (tw_automaton_get_name (src));

  copy_into (copy, src);
  return copy;
}

static void
tw_automaton_history_finalize (GObject *object)
{
  TwAutomatonHistory *self = TW_AUTOMATON_HISTORY (object);

  g_clear_pointer (&self->undo_steps, g_ptr_array_unref);
  g_clear_pointer (&self->redo_steps, g_ptr_array_unref);
  g_clear_object (&self->pending);
  g_clear_pointer (&self->pending_text, g_free);
  G_OBJECT_CLASS (tw_automaton_history_parent_class)->finalize (object);
}

static void
tw_automaton_history_class_init (TwAutomatonHistoryClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_automaton_history_finalize;
}

static void
tw_automaton_history_init (TwAutomatonHistory *self)
{
  self->undo_steps = g_ptr_array_new_with_free_func (step_free);
  self->redo_steps = g_ptr_array_new_with_free_func (step_free);
}

TwAutomatonHistory *
tw_automaton_history_new (void)
{
  return g_object_new (TW_TYPE_AUTOMATON_HISTORY, NULL);
}

/**
 * tw_automaton_history_begin:
 * @automaton: the automaton about to be edited
 *
 * Remembers @automaton as it is now; the next tw_automaton_history_commit() makes
 * whatever changed since one step. A second begin before a commit starts over.
 */
void
tw_automaton_history_begin (TwAutomatonHistory *self,
                            TwAutomaton        *automaton)
{
  g_return_if_fail (TW_IS_AUTOMATON_HISTORY (self));
  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  g_clear_object (&self->pending);
  g_free (self->pending_text);
  self->pending = snapshot (automaton);
  self->pending_text = tw_automaton_to_data (automaton, NULL);
}

/**
 * tw_automaton_history_commit:
 * @automaton: the same automaton as at tw_automaton_history_begin(), edited
 *
 * Records the edit since tw_automaton_history_begin() as one step and drops what could
 * be redone. An edit that changed nothing the file would say leaves no step.
 *
 * Returns: %TRUE when a step was recorded
 */
gboolean
tw_automaton_history_commit (TwAutomatonHistory *self,
                             TwAutomaton        *automaton)
{
  g_autoptr(TwAutomaton) before = NULL;
  g_autofree char *before_text = NULL;
  g_autofree char *after_text = NULL;
  Step *step;

  g_return_val_if_fail (TW_IS_AUTOMATON_HISTORY (self), FALSE);
  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);
  g_return_val_if_fail (self->pending != NULL, FALSE);

  before = g_steal_pointer (&self->pending);
  before_text = g_steal_pointer (&self->pending_text);
  after_text = tw_automaton_to_data (automaton, NULL);
  if (g_strcmp0 (before_text, after_text) == 0)
    return FALSE;
  step = g_new0 (Step, 1);
  step->before = g_steal_pointer (&before);
  step->after = snapshot (automaton);
  g_ptr_array_add (self->undo_steps, step);
  if (self->undo_steps->len > MAX_STEPS)
    g_ptr_array_remove_index (self->undo_steps, 0);
  g_ptr_array_set_size (self->redo_steps, 0);
  return TRUE;
}

static gboolean
step (GPtrArray   *from,
      GPtrArray   *to,
      TwAutomaton *automaton,
      gboolean     undo)
{
  Step *s;

  if (from->len == 0)
    return FALSE;
  s = g_ptr_array_steal_index (from, from->len - 1);
  copy_into (automaton, undo ? s->before : s->after);
  g_ptr_array_add (to, s);
  return TRUE;
}

/**
 * tw_automaton_history_undo:
 * @automaton: the automaton the steps were recorded on; rewritten in place
 *
 * Returns: %TRUE when there was a step to undo
 */
gboolean
tw_automaton_history_undo (TwAutomatonHistory *self,
                           TwAutomaton        *automaton)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_HISTORY (self), FALSE);
  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);

  return step (self->undo_steps, self->redo_steps, automaton, TRUE);
}

/**
 * tw_automaton_history_redo:
 * @automaton: the automaton the steps were recorded on; rewritten in place
 *
 * Returns: %TRUE when there was an undone step to redo
 */
gboolean
tw_automaton_history_redo (TwAutomatonHistory *self,
                           TwAutomaton        *automaton)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_HISTORY (self), FALSE);
  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);

  return step (self->redo_steps, self->undo_steps, automaton, FALSE);
}

gboolean
tw_automaton_history_can_undo (TwAutomatonHistory *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_HISTORY (self), FALSE);

  return self->undo_steps->len > 0;
}

gboolean
tw_automaton_history_can_redo (TwAutomatonHistory *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_HISTORY (self), FALSE);

  return self->redo_steps->len > 0;
}

/**
 * tw_automaton_history_clear:
 *
 * Forgets every step and an edit begun but not committed.
 */
void
tw_automaton_history_clear (TwAutomatonHistory *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_HISTORY (self));

  g_ptr_array_set_size (self->undo_steps, 0);
  g_ptr_array_set_size (self->redo_steps, 0);
  g_clear_object (&self->pending);
  g_clear_pointer (&self->pending_text, g_free);
}
