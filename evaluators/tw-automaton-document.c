/* tw-automaton-document.c: a metric automaton being edited: its edits, undo and redo
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tw-automaton-document.h"
#include "tw-automaton-file.h"
#include "tw-automaton-history.h"

/*
 * The document is what the designer edits, apart from any view of it: views listen to
 * ::changed and never change the automaton behind the document's back, except between
 * tw_automaton_document_begin_edit() and _end_edit() (a drag moves a state live, and
 * the whole drag is one step). The automaton stays the same object across edits, undo
 * and redo, so holders of it (the designer's live preview) see every change.
 */

struct _TwAutomatonDocument
{
  GObject             parent_instance;

  TwAutomaton        *automaton;
  TwAutomatonHistory *history;
  char               *path;        /* the file last loaded or saved, or NULL */
  char               *saved_text;  /* the file text when last set or saved: "modified" */
};

enum {
  PROP_0,
  PROP_AUTOMATON,
  PROP_PATH,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  N_PROPS,
};

enum {
  SIGNAL_CHANGED,
  N_SIGNALS,
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAutomatonDocument, tw_automaton_document, G_TYPE_OBJECT)

static void
notify_history (TwAutomatonDocument *self,
                gboolean             could_undo,
                gboolean             could_redo)
{
  if (could_undo != tw_automaton_history_can_undo (self->history))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (could_redo != tw_automaton_history_can_redo (self->history))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
}

static void
tw_automaton_document_finalize (GObject *object)
{
  TwAutomatonDocument *self = TW_AUTOMATON_DOCUMENT (object);

  g_clear_object (&self->automaton);
  g_clear_object (&self->history);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->saved_text, g_free);
  G_OBJECT_CLASS (tw_automaton_document_parent_class)->finalize (object);
}

static void
tw_automaton_document_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  TwAutomatonDocument *self = TW_AUTOMATON_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_AUTOMATON: g_value_set_object (value, self->automaton); break;
    case PROP_PATH:      g_value_set_string (value, self->path); break;
    case PROP_CAN_UNDO:  g_value_set_boolean (value, tw_automaton_history_can_undo (self->history)); break;
    case PROP_CAN_REDO:  g_value_set_boolean (value, tw_automaton_history_can_redo (self->history)); break;
    default:             G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_automaton_document_class_init (TwAutomatonDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_automaton_document_finalize;
  object_class->get_property = tw_automaton_document_get_property;

  properties[PROP_AUTOMATON] =
    g_param_spec_object ("automaton", NULL, NULL, TW_TYPE_AUTOMATON,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwAutomatonDocument::changed:
   *
   * Emitted once after every edit, undo and redo that changed the automaton, and when
   * a new automaton is set: the moment to redraw it and to re-run it over the trace.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_automaton_document_init (TwAutomatonDocument *self)
{
  self->automaton = tw_automaton_new ("Untitled automaton");
  self->history = tw_automaton_history_new ();
  self->saved_text = tw_automaton_to_data (self->automaton, NULL);
}

/**
 * tw_automaton_document_new:
 *
 * Returns: (transfer full): a document holding an empty automaton
 */
TwAutomatonDocument *
tw_automaton_document_new (void)
{
  return g_object_new (TW_TYPE_AUTOMATON_DOCUMENT, NULL);
}

/**
 * tw_automaton_document_get_automaton:
 *
 * Returns: (transfer none): the automaton; edits, undo and redo change it in place, so
 *   it stays the same object until tw_automaton_document_set_automaton()
 */
TwAutomaton *
tw_automaton_document_get_automaton (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), NULL);

  return self->automaton;
}

/**
 * tw_automaton_document_set_automaton:
 * @automaton: (transfer none): the automaton to edit from now on (edited in place)
 *
 * Starts over with @automaton and an empty history; it counts as unmodified. The path
 * stays. Emits ::changed.
 */
void
tw_automaton_document_set_automaton (TwAutomatonDocument *self,
                                     TwAutomaton         *automaton)
{
  gboolean could_undo, could_redo;

  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  could_undo = tw_automaton_history_can_undo (self->history);
  could_redo = tw_automaton_history_can_redo (self->history);
  g_set_object (&self->automaton, automaton);
  tw_automaton_history_clear (self->history);
  g_free (self->saved_text);
  self->saved_text = tw_automaton_to_data (automaton, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOMATON]);
  notify_history (self, could_undo, could_redo);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/**
 * tw_automaton_document_get_path:
 *
 * Returns: (nullable): the file the automaton was last loaded from or saved to
 */
const char *
tw_automaton_document_get_path (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), NULL);

  return self->path;
}

/**
 * tw_automaton_document_set_path:
 * @path: (nullable): the file the automaton was read from
 */
void
tw_automaton_document_set_path (TwAutomatonDocument *self,
                                const char          *path)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));

  if (g_strcmp0 (self->path, path) == 0)
    return;
  g_free (self->path);
  self->path = g_strdup (path);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PATH]);
}

/**
 * tw_automaton_document_save:
 *
 * Writes the automaton to @path (see tw_automaton_save()); it becomes the document's
 * path, and the automaton counts as unmodified.
 *
 * Returns: %FALSE with @error set (naming the file) when it cannot be written
 */
gboolean
tw_automaton_document_save (TwAutomatonDocument  *self,
                            const char           *path,
                            GError              **error)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!tw_automaton_save (self->automaton, path, error))
    return FALSE;
  tw_automaton_document_set_path (self, path);
  g_free (self->saved_text);
  self->saved_text = tw_automaton_to_data (self->automaton, NULL);
  return TRUE;
}

/**
 * tw_automaton_document_get_modified:
 *
 * Returns: %TRUE when the automaton differs from what was last set or saved
 */
gboolean
tw_automaton_document_get_modified (TwAutomatonDocument *self)
{
  g_autofree char *now = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  now = tw_automaton_to_data (self->automaton, NULL);
  return g_strcmp0 (now, self->saved_text) != 0;
}

/**
 * tw_automaton_document_begin_edit:
 *
 * Starts an edit made of several changes to the automaton, made directly on it (a drag
 * that moves a state as the pointer goes). Views redraw on their own meanwhile; the
 * document says nothing until tw_automaton_document_end_edit().
 */
void
tw_automaton_document_begin_edit (TwAutomatonDocument *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));

  tw_automaton_history_begin (self->history, self->automaton);
}

/**
 * tw_automaton_document_end_edit:
 *
 * Records the changes since tw_automaton_document_begin_edit() as one undoable step
 * and emits ::changed; an edit that changed nothing leaves no step and emits nothing.
 *
 * Returns: %TRUE when the automaton changed
 */
gboolean
tw_automaton_document_end_edit (TwAutomatonDocument *self)
{
  gboolean could_undo, could_redo;

  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  could_undo = tw_automaton_history_can_undo (self->history);
  could_redo = tw_automaton_history_can_redo (self->history);
  if (!tw_automaton_history_commit (self->history, self->automaton))
    return FALSE;
  notify_history (self, could_undo, could_redo);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

static gboolean
step_history (TwAutomatonDocument *self,
              gboolean             undo)
{
  gboolean could_undo = tw_automaton_history_can_undo (self->history);
  gboolean could_redo = tw_automaton_history_can_redo (self->history);
  gboolean stepped = undo ? tw_automaton_history_undo (self->history, self->automaton)
                          : tw_automaton_history_redo (self->history, self->automaton);

  if (!stepped)
    return FALSE;
  notify_history (self, could_undo, could_redo);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
  return TRUE;
}

/**
 * tw_automaton_document_undo:
 *
 * Returns: %TRUE when there was an edit to undo
 */
gboolean
tw_automaton_document_undo (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  return step_history (self, TRUE);
}

/**
 * tw_automaton_document_redo:
 *
 * Returns: %TRUE when there was an undone edit to redo
 */
gboolean
tw_automaton_document_redo (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  return step_history (self, FALSE);
}

gboolean
tw_automaton_document_can_undo (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  return tw_automaton_history_can_undo (self->history);
}

gboolean
tw_automaton_document_can_redo (TwAutomatonDocument *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), FALSE);

  return tw_automaton_history_can_redo (self->history);
}

static char *
new_state_id (TwAutomaton *a)
{
  for (guint n = 0;; n++)
    {
      g_autofree char *id = g_strdup_printf ("%u", n);

      if (tw_automaton_find_state (a, id) < 0)
        return g_steal_pointer (&id);
    }
}

/**
 * tw_automaton_document_add_state:
 *
 * Adds a state of @kind at model position (@x, @y), rounded to whole units, with the
 * smallest free numeric id. The first `out` state of an automaton without an initial
 * state becomes its initial state, as part of the same step.
 *
 * Returns: the new state's index
 */
guint
tw_automaton_document_add_state (TwAutomatonDocument *self,
                                 TwStateKind          kind,
                                 double               x,
                                 double               y)
{
  g_autofree char *id = NULL;
  const char *initial;
  guint index;

  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), 0);
  g_return_val_if_fail ((guint) kind < TW_N_STATE_KINDS, 0);

  tw_automaton_document_begin_edit (self);
  id = new_state_id (self->automaton);
  index = tw_automaton_add_state (self->automaton, id, kind, round (x), round (y));
  initial = tw_automaton_get_initial (self->automaton);
  if (kind == TW_STATE_KIND_OUT &&
      (initial == NULL || tw_automaton_find_state (self->automaton, initial) < 0))
    tw_automaton_set_initial (self->automaton, id);
  tw_automaton_document_end_edit (self);
  return index;
}

/**
 * tw_automaton_document_set_name:
 * @name: (nullable): the automaton's name: what its measurements, its file and its
 *   exported C module are called; %NULL is ""
 */
void
tw_automaton_document_set_name (TwAutomatonDocument *self,
                                const char          *name)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));

  tw_automaton_document_begin_edit (self);
  tw_automaton_set_name (self->automaton, name);
  tw_automaton_document_end_edit (self);
}

/**
 * tw_automaton_document_move_state:
 *
 * Moves a state to model position (@x, @y), rounded to whole units.
 */
void
tw_automaton_document_move_state (TwAutomatonDocument *self,
                                  guint                state,
                                  double               x,
                                  double               y)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  tw_automaton_document_begin_edit (self);
  tw_automaton_set_state_position (self->automaton, state, round (x), round (y));
  tw_automaton_document_end_edit (self);
}

void
tw_automaton_document_set_state_kind (TwAutomatonDocument *self,
                                      guint                state,
                                      TwStateKind          kind)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));
  g_return_if_fail ((guint) kind < TW_N_STATE_KINDS);

  tw_automaton_document_begin_edit (self);
  tw_automaton_set_state_kind (self->automaton, state, kind);
  tw_automaton_document_end_edit (self);
}

void
tw_automaton_document_set_initial (TwAutomatonDocument *self,
                                   guint                state)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  tw_automaton_document_begin_edit (self);
  tw_automaton_set_initial (self->automaton, tw_automaton_get_state (self->automaton, state)->id);
  tw_automaton_document_end_edit (self);
}

/**
 * tw_automaton_document_remove_state:
 *
 * Removes a state with every transition from or to it; removing the initial state
 * leaves the automaton without one (validation says so).
 */
void
tw_automaton_document_remove_state (TwAutomatonDocument *self,
                                    guint                state)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  tw_automaton_document_begin_edit (self);
  /* otherwise the next state given the freed id would silently become the initial one */
  if (g_strcmp0 (tw_automaton_get_initial (self->automaton),
                 tw_automaton_get_state (self->automaton, state)->id) == 0)
    tw_automaton_set_initial (self->automaton, NULL);
  tw_automaton_remove_state (self->automaton, state);
  tw_automaton_document_end_edit (self);
}

/**
 * tw_automaton_document_connect:
 * @event: (nullable): the event name of a %TW_LABEL_EVENT label; "" or %NULL makes a
 *   label still to be named (shown as `?` and reported by validation)
 *
 * Adds a transition from state @from to state @to (the same index for a self-loop).
 *
 * Returns: the new transition's index
 */
guint
tw_automaton_document_connect (TwAutomatonDocument *self,
                               guint                from,
                               guint                to,
                               TwLabelKind          label,
                               const char          *event,
                               TwTaskMatch          task,
                               TwTaskField          task_field)
{
  guint n;
  guint index;

  g_return_val_if_fail (TW_IS_AUTOMATON_DOCUMENT (self), 0);
  n = tw_automaton_get_n_states (self->automaton);
  g_return_val_if_fail (from < n && to < n, 0);

  tw_automaton_document_begin_edit (self);
  index = tw_automaton_add_transition (self->automaton,
                                       tw_automaton_get_state (self->automaton, from)->id,
                                       tw_automaton_get_state (self->automaton, to)->id,
                                       label, event, task, task_field);
  tw_automaton_document_end_edit (self);
  return index;
}

typedef struct {
  char        *from;
  char        *to;
  TwLabelKind  label;
  char        *event;
  TwTaskMatch  task;
  TwTaskField  task_field;
  JsonObject  *extra;
} TransitionCopy;

/* The model has no setter for a label: rebuild the tail of the list so the edited
 * transition keeps its place (and so its place in the saved file). */
static void
replace_transition (TwAutomaton *a,
                    guint        index,
                    TwLabelKind  label,
                    const char  *event,
                    TwTaskMatch  task,
                    TwTaskField  task_field)
{
  guint n = tw_automaton_get_n_transitions (a);
  g_autofree TransitionCopy *tail = g_new0 (TransitionCopy, n - index);

  for (guint i = index; i < n; i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      TransitionCopy *c = &tail[i - index];

      c->from = g_strdup (t->from);
      c->to = g_strdup (t->to);
      c->label = t->label;
      c->event = g_strdup (t->event);
      c->task = t->task;
      c->task_field = t->task_field;
      c->extra = t->extra ? json_object_ref (t->extra) : NULL;
    }
  g_free (tail[0].event);
  tail[0].label = label;
  tail[0].event = g_strdup (event);
  tail[0].task = task;
  tail[0].task_field = task_field;
  while (tw_automaton_get_n_transitions (a) > index)
    tw_automaton_remove_transition (a, tw_automaton_get_n_transitions (a) - 1);
  for (guint i = 0; i < n - index; i++)
    {
      TransitionCopy *c = &tail[i];
      guint k = tw_automaton_add_transition (a, c->from, c->to, c->label, c->event, c->task,
                                             c->task_field);
      tw_automaton_set_transition_extra (a, k, c->extra);
      g_free (c->from);
      g_free (c->to);
      g_free (c->event);
      g_clear_pointer (&c->extra, json_object_unref);
    }
}

/**
 * tw_automaton_document_set_transition_label:
 * @event: (nullable): the event name for %TW_LABEL_EVENT (leading and trailing blanks
 *   are dropped)
 *
 * Changes a transition's label, keeping its place in the list.
 */
void
tw_automaton_document_set_transition_label (TwAutomatonDocument *self,
                                            guint                transition,
                                            TwLabelKind          label,
                                            const char          *event,
                                            TwTaskMatch          task,
                                            TwTaskField          task_field)
{
  g_autofree char *name = NULL;

  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (self->automaton));

  name = g_strstrip (g_strdup (event ? event : ""));
  tw_automaton_document_begin_edit (self);
  replace_transition (self->automaton, transition, label, name, task, task_field);
  tw_automaton_document_end_edit (self);
}

void
tw_automaton_document_remove_transition (TwAutomatonDocument *self,
                                         guint                transition)
{
  g_return_if_fail (TW_IS_AUTOMATON_DOCUMENT (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (self->automaton));

  tw_automaton_document_begin_edit (self);
  tw_automaton_remove_transition (self->automaton, transition);
  tw_automaton_document_end_edit (self);
}
