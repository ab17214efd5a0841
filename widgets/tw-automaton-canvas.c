/* tw-automaton-canvas.c: the metric-automaton designer: an editable canvas with a palette
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "tw-automaton-canvas.h"
#include "tw-wrap-box.h"

#include <tw-automaton-file.h>

/*
 * The widget is a toolbar (undo/redo, one palette button per state kind, layout and
 * zoom; it wraps onto a second line when narrow) above a drawing area; drawing and hit
 * testing are the painter's.
 *
 * Undo keeps, per edit, a copy of the automaton before and after (a memento command).
 * Automata are small, so this costs little, and it makes undo exact by construction:
 * restoring a copy brings back the order of states and transitions, unknown JSON
 * members and the initial state, which inverse operations on the model could not all
 * promise (removing a state also removes its transitions from the middle of the list).
 * Restoring rewrites the same TwAutomaton in place, so holders of the automaton (the
 * live preview) never see it replaced by an edit.
 */

#define ZOOM_STEP       1.2
#define ZOOM_MIN        0.2
#define ZOOM_MAX        4.0
#define SCROLL_PAN_PX   40.0
#define LAYER_SPACING   190.0
#define ROW_SPACING     150.0
#define LAYOUT_MARGIN   110.0
#define MAX_HISTORY     500

typedef struct {
  char        *label;
  TwAutomaton *before;
  TwAutomaton *after;
} Command;

typedef enum {
  DRAG_NONE,
  DRAG_MOVE,
  DRAG_CONNECT,
  DRAG_PAN,
} DragMode;

struct _TwAutomatonCanvas
{
  GtkWidget           parent_instance;

  GtkWidget          *toolbar;
  GtkWidget          *area;
  GtkWidget          *context_menu;

  /* the label editor */
  GtkWidget          *label_popover;
  GtkWidget          *label_title;
  GtkWidget          *label_event_toggle;
  GtkWidget          *label_lambda_toggle;
  GtkWidget          *label_any_toggle;
  GtkWidget          *label_event_grid;
  GtkWidget          *label_entry;
  GtkWidget          *label_task;
  GtkWidget          *label_arg_check;
  GtkEntryCompletion *completion;
  GtkListStore       *event_store;
  int                 editing_transition;

  TwAutomaton        *automaton;
  TwAutomatonPainter *painter;
  char               *path;

  double              zoom;
  double              pan_x;
  double              pan_y;
  gboolean            fit_pending;

  int                 selected_state;
  int                 selected_transition;
  int                 active_state;
  GArray             *visits;     /* guint per state */

  GPtrArray          *undo_stack; /* Command, oldest first */
  GPtrArray          *redo_stack; /* Command, next redo last */
  TwAutomaton        *edit_before;       /* the automaton at begin_edit() */
  char               *edit_before_text;
  char               *saved_data; /* the text last loaded or saved, for "modified" */
  TwStateKind         double_click_kind;

  DragMode            drag_mode;
  int                 drag_state;
  double              drag_origin_x;   /* state position (model) or pan (px) at drag begin */
  double              drag_origin_y;
  gboolean            drag_moved;
  int                 pending_from;
  double              pending_x;
  double              pending_y;
  double              pointer_x;
  double              pointer_y;
};

enum {
  PROP_0,
  PROP_AUTOMATON,
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

G_DEFINE_FINAL_TYPE (TwAutomatonCanvas, tw_automaton_canvas, GTK_TYPE_WIDGET)

static void
command_free (gpointer data)
{
  Command *c = data;

  g_free (c->label);
  g_clear_object (&c->before);
  g_clear_object (&c->after);
  g_free (c);
}

/* ---- the model, edits and history ---- */

static TwAutomaton *automaton_clone (TwAutomaton *src);

static void
update_actions (TwAutomatonCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean state = self->selected_state >= 0;
  gboolean transition = self->selected_transition >= 0;

  gtk_widget_action_set_enabled (w, "canvas.undo", self->undo_stack->len > 0);
  gtk_widget_action_set_enabled (w, "canvas.redo", self->redo_stack->len > 0);
  gtk_widget_action_set_enabled (w, "canvas.delete", state || transition);
  gtk_widget_action_set_enabled (w, "canvas.set-initial", state);
  gtk_widget_action_set_enabled (w, "canvas.set-kind", state);
  gtk_widget_action_set_enabled (w, "canvas.nudge", state);
  gtk_widget_action_set_enabled (w, "canvas.edit-label", transition);
}

static void
clamp_selection (TwAutomatonCanvas *self)
{
  if (self->selected_state >= (int) tw_automaton_get_n_states (self->automaton))
    self->selected_state = -1;
  if (self->selected_transition >= (int) tw_automaton_get_n_transitions (self->automaton))
    self->selected_transition = -1;
}

static void
model_changed (TwAutomatonCanvas *self)
{
  clamp_selection (self);
  update_actions (self);
  gtk_widget_queue_draw (self->area);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
begin_edit (TwAutomatonCanvas *self)
{
  g_free (self->edit_before_text);
  self->edit_before_text = tw_automaton_to_data (self->automaton, NULL);
  g_clear_object (&self->edit_before);
  self->edit_before = automaton_clone (self->automaton);
}

/* Records the edit since begin_edit() as one undo step; an edit that changed nothing
 * leaves no step and emits nothing. */
static gboolean
commit_edit (TwAutomatonCanvas *self,
             const char        *label)
{
  g_autofree char *after = tw_automaton_to_data (self->automaton, NULL);
  g_autofree char *before_text = g_steal_pointer (&self->edit_before_text);
  g_autoptr(TwAutomaton) before = g_steal_pointer (&self->edit_before);
  gboolean could_undo = self->undo_stack->len > 0, could_redo = self->redo_stack->len > 0;
  Command *c;

  g_return_val_if_fail (before != NULL, FALSE);

  /* the file text says everything the automaton holds */
  if (strcmp (before_text, after) == 0)
    {
      gtk_widget_queue_draw (self->area);
      return FALSE;
    }
  c = g_new0 (Command, 1);
  c->label = g_strdup (label);
  c->before = g_steal_pointer (&before);
  c->after = automaton_clone (self->automaton);
  g_ptr_array_add (self->undo_stack, c);
  if (self->undo_stack->len > MAX_HISTORY)
    g_ptr_array_remove_index (self->undo_stack, 0);
  g_ptr_array_set_size (self->redo_stack, 0);
  if (!could_undo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  if (could_redo)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  model_changed (self);
  return TRUE;
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
automaton_clone (TwAutomaton *src)
{
  TwAutomaton *copy = tw_automaton_new (tw_automaton_get_name (src));

  copy_into (copy, src);
  return copy;
}

static gboolean
step_history (TwAutomatonCanvas *self,
              GPtrArray         *from,
              GPtrArray         *to,
              gboolean           undo)
{
  Command *c;

  if (from->len == 0)
    return FALSE;
  c = g_ptr_array_steal_index (from, from->len - 1);
  copy_into (self->automaton, undo ? c->before : c->after);
  g_ptr_array_add (to, c);
  if (self->label_popover)
    gtk_popover_popdown (GTK_POPOVER (self->label_popover));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  model_changed (self);
  return TRUE;
}

/**
 * tw_automaton_canvas_undo:
 *
 * Returns: %TRUE when there was an edit to undo
 */
gboolean
tw_automaton_canvas_undo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  return step_history (self, self->undo_stack, self->redo_stack, TRUE);
}

/**
 * tw_automaton_canvas_redo:
 *
 * Returns: %TRUE when there was an undone edit to redo
 */
gboolean
tw_automaton_canvas_redo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  return step_history (self, self->redo_stack, self->undo_stack, FALSE);
}

gboolean
tw_automaton_canvas_can_undo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  return self->undo_stack->len > 0;
}

gboolean
tw_automaton_canvas_can_redo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  return self->redo_stack->len > 0;
}

static char *
new_state_id (TwAutomaton *a)
{
  for (guint n = 0;; n++)
    {
      char *id = g_strdup_printf ("%u", n);
      if (tw_automaton_find_state (a, id) < 0)
        return id;
      g_free (id);
    }
}

/**
 * tw_automaton_canvas_add_state:
 *
 * Adds a state of @kind at model position (@x, @y) with the smallest free numeric id.
 * The first `out` state of an automaton without an initial state becomes its initial
 * state, as part of the same step.
 *
 * Returns: the new state's index
 */
int
tw_automaton_canvas_add_state (TwAutomatonCanvas *self,
                               TwStateKind        kind,
                               double             x,
                               double             y)
{
  g_autofree char *id = NULL;
  const char *initial;
  guint index;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);
  g_return_val_if_fail ((guint) kind < TW_N_STATE_KINDS, -1);

  begin_edit (self);
  id = new_state_id (self->automaton);
  index = tw_automaton_add_state (self->automaton, id, kind, round (x), round (y));
  initial = tw_automaton_get_initial (self->automaton);
  if (kind == TW_STATE_KIND_OUT &&
      (initial == NULL || tw_automaton_find_state (self->automaton, initial) < 0))
    tw_automaton_set_initial (self->automaton, id);
  self->selected_state = index;
  self->selected_transition = -1;
  commit_edit (self, "Add state");
  return index;
}

/**
 * tw_automaton_canvas_set_name:
 * @name: (nullable): the automaton's name: what its measurements, its file and its
 *   exported C module are called; %NULL is ""
 *
 * Renames the automaton, as one undoable step (none when the name is the same).
 */
void
tw_automaton_canvas_set_name (TwAutomatonCanvas *self,
                              const char        *name)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  begin_edit (self);
  tw_automaton_set_name (self->automaton, name);
  commit_edit (self, "Rename");
}

/**
 * tw_automaton_canvas_move_state:
 *
 * Moves a state to model position (@x, @y), rounded to whole units.
 */
void
tw_automaton_canvas_move_state (TwAutomatonCanvas *self,
                                guint              state,
                                double             x,
                                double             y)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  begin_edit (self);
  tw_automaton_set_state_position (self->automaton, state, round (x), round (y));
  commit_edit (self, "Move state");
}

void
tw_automaton_canvas_set_state_kind (TwAutomatonCanvas *self,
                                    guint              state,
                                    TwStateKind        kind)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));
  g_return_if_fail ((guint) kind < TW_N_STATE_KINDS);

  begin_edit (self);
  tw_automaton_set_state_kind (self->automaton, state, kind);
  commit_edit (self, "Change state kind");
}

void
tw_automaton_canvas_set_initial (TwAutomatonCanvas *self,
                                 guint              state)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  begin_edit (self);
  tw_automaton_set_initial (self->automaton, tw_automaton_get_state (self->automaton, state)->id);
  commit_edit (self, "Set initial state");
}

/**
 * tw_automaton_canvas_remove_state:
 *
 * Removes a state with every transition from or to it; removing the initial state leaves
 * the automaton without one (validation says so).
 */
void
tw_automaton_canvas_remove_state (TwAutomatonCanvas *self,
                                  guint              state)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (state < tw_automaton_get_n_states (self->automaton));

  begin_edit (self);
  /* otherwise the next state given the freed id would silently become the initial one */
  if (g_strcmp0 (tw_automaton_get_initial (self->automaton),
                 tw_automaton_get_state (self->automaton, state)->id) == 0)
    tw_automaton_set_initial (self->automaton, NULL);
  tw_automaton_remove_state (self->automaton, state);
  self->selected_state = -1;
  self->selected_transition = -1;
  commit_edit (self, "Delete state");
}

/**
 * tw_automaton_canvas_connect:
 * @event: (nullable): the event name of a %TW_LABEL_EVENT label; "" or %NULL makes a
 *   label still to be named (shown as `?` and reported by validation)
 *
 * Adds a transition from state @from to state @to (the same index for a self-loop).
 *
 * Returns: the new transition's index
 */
int
tw_automaton_canvas_connect (TwAutomatonCanvas *self,
                             guint              from,
                             guint              to,
                             TwLabelKind        label,
                             const char        *event,
                             TwTaskMatch        task,
                             TwTaskField        task_field)
{
  guint n;
  guint index;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);
  n = tw_automaton_get_n_states (self->automaton);
  g_return_val_if_fail (from < n && to < n, -1);

  begin_edit (self);
  index = tw_automaton_add_transition (self->automaton,
                                       tw_automaton_get_state (self->automaton, from)->id,
                                       tw_automaton_get_state (self->automaton, to)->id,
                                       label, event, task, task_field);
  self->selected_state = -1;
  self->selected_transition = index;
  commit_edit (self, "Add transition");
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
 * tw_automaton_canvas_set_transition_label:
 * @event: (nullable): the event name for %TW_LABEL_EVENT (leading and trailing blanks
 *   are dropped)
 *
 * Changes a transition's label, keeping its place in the list.
 */
void
tw_automaton_canvas_set_transition_label (TwAutomatonCanvas *self,
                                          guint              transition,
                                          TwLabelKind        label,
                                          const char        *event,
                                          TwTaskMatch        task,
                                          TwTaskField        task_field)
{
  g_autofree char *name = NULL;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (self->automaton));

  name = g_strstrip (g_strdup (event ? event : ""));
  begin_edit (self);
  replace_transition (self->automaton, transition, label, name, task, task_field);
  commit_edit (self, "Edit label");
}

void
tw_automaton_canvas_remove_transition (TwAutomatonCanvas *self,
                                       guint              transition)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (self->automaton));

  begin_edit (self);
  tw_automaton_remove_transition (self->automaton, transition);
  self->selected_transition = -1;
  commit_edit (self, "Delete transition");
}

/**
 * tw_automaton_canvas_delete_selection:
 *
 * Removes the selected state (with its transitions) or the selected transition.
 */
void
tw_automaton_canvas_delete_selection (TwAutomatonCanvas *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  if (self->selected_state >= 0)
    tw_automaton_canvas_remove_state (self, self->selected_state);
  else if (self->selected_transition >= 0)
    tw_automaton_canvas_remove_transition (self, self->selected_transition);
}

/* ---- layout ---- */

/**
 * tw_automaton_layout_needed:
 *
 * Returns: %TRUE when the states carry no usable positions: two or more states, all at
 *   one point (a file written without "x" and "y" loads them all at 0, 0)
 */
gboolean
tw_automaton_layout_needed (TwAutomaton *automaton)
{
  guint n;
  const TwAutomatonState *first;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);

  n = tw_automaton_get_n_states (automaton);
  if (n < 2)
    return FALSE;
  first = tw_automaton_get_state (automaton, 0);
  for (guint i = 1; i < n; i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (automaton, i);
      if (s->x != first->x || s->y != first->y)
        return FALSE;
    }
  return TRUE;
}

/**
 * tw_automaton_layout:
 *
 * Places the states in layers, left to right: layer k holds the states first reached
 * after k transitions from the initial state (breadth-first); states that cannot be
 * reached follow, again breadth-first from the first of them. Each layer is centred
 * vertically.
 */
void
tw_automaton_layout (TwAutomaton *automaton)
{
  guint n, n_trans, next_seed = 0, max_layer = 0, max_rows = 0;
  g_autofree int *layer = NULL;
  g_autofree guint *order = NULL;  /* states in discovery order */
  g_autofree guint *row = NULL;
  g_autofree guint *rows_in_layer = NULL;
  guint n_ordered = 0, head = 0;
  int initial;

  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  n = tw_automaton_get_n_states (automaton);
  n_trans = tw_automaton_get_n_transitions (automaton);
  if (n == 0)
    return;
  layer = g_new (int, n);
  order = g_new (guint, n);
  row = g_new0 (guint, n);
  rows_in_layer = g_new0 (guint, n + 1);
  for (guint i = 0; i < n; i++)
    layer[i] = -1;

  initial = tw_automaton_get_initial (automaton)
            ? tw_automaton_find_state (automaton, tw_automaton_get_initial (automaton)) : -1;
  while (n_ordered < n)
    {
      guint seed;

      if (initial >= 0 && layer[initial] < 0)
        seed = initial;
      else
        {
          while (layer[next_seed] >= 0)
            next_seed++;
          seed = next_seed;
        }
      layer[seed] = n_ordered == 0 ? 0 : (int) max_layer + 1;
      order[n_ordered++] = seed;
      while (head < n_ordered)
        {
          guint s = order[head++];
          const char *id = tw_automaton_get_state (automaton, s)->id;

          for (guint t = 0; t < n_trans; t++)
            {
              const TwAutomatonTransition *tr = tw_automaton_get_transition (automaton, t);
              int to;

              if (g_strcmp0 (tr->from, id) != 0)
                continue;
              to = tw_automaton_find_state (automaton, tr->to);
              if (to < 0 || layer[to] >= 0)
                continue;
              layer[to] = layer[s] + 1;
              order[n_ordered++] = to;
            }
          max_layer = MAX (max_layer, (guint) layer[s]);
        }
    }

  for (guint i = 0; i < n; i++)
    {
      guint s = order[i];
      row[s] = rows_in_layer[layer[s]]++;
      max_rows = MAX (max_rows, rows_in_layer[layer[s]]);
    }
  for (guint s = 0; s < n; s++)
    {
      double offset = (max_rows - rows_in_layer[layer[s]]) * ROW_SPACING / 2;
      tw_automaton_set_state_position (automaton, s,
                                       LAYOUT_MARGIN + layer[s] * LAYER_SPACING,
                                       LAYOUT_MARGIN + offset + row[s] * ROW_SPACING);
    }
}

/**
 * tw_automaton_canvas_auto_layout:
 *
 * Arranges all states with tw_automaton_layout(), as one undoable step.
 */
void
tw_automaton_canvas_auto_layout (TwAutomatonCanvas *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  begin_edit (self);
  tw_automaton_layout (self->automaton);
  if (commit_edit (self, "Arrange states"))
    tw_automaton_canvas_zoom_to_fit (self);
}

/* ---- viewport ---- */

/**
 * tw_automaton_canvas_get_viewport:
 * @viewport: (out caller-allocates): what the drawing area shows now
 */
void
tw_automaton_canvas_get_viewport (TwAutomatonCanvas   *self,
                                  TwAutomatonViewport *vp)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  tw_automaton_viewport_init (vp, gtk_widget_get_width (self->area),
                              gtk_widget_get_height (self->area));
  vp->zoom = self->zoom;
  vp->pan_x = self->pan_x;
  vp->pan_y = self->pan_y;
  vp->selected_state = self->selected_state;
  vp->selected_transition = self->selected_transition;
  vp->active_state = self->active_state;
  if (self->visits->len > 0)
    {
      vp->visits = (const guint *) self->visits->data;
      vp->n_visits = self->visits->len;
    }
  vp->pending_from = self->pending_from;
  vp->pending_x = self->pending_x;
  vp->pending_y = self->pending_y;
}

/**
 * tw_automaton_canvas_zoom_to_fit:
 *
 * Shows the whole automaton, at most at zoom 1.5; before the canvas has a size, it does
 * so at its first allocation.
 */
void
tw_automaton_canvas_zoom_to_fit (TwAutomatonCanvas *self)
{
  int w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);
  double bx, by, bw, bh;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  if (w <= 1 || h <= 1)
    {
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  if (!tw_automaton_painter_get_bounds (self->painter, &bx, &by, &bw, &bh))
    {
      self->zoom = 1;
      self->pan_x = self->pan_y = 0;
      gtk_widget_queue_draw (self->area);
      return;
    }
  /* leave room for the legend (top right) and the problem list (bottom) */
  self->zoom = CLAMP (MIN ((w - 300.0) / bw, (h - 60.0) / bh), ZOOM_MIN, 1.5);
  if (w - 300.0 < bw * ZOOM_MIN)
    self->zoom = CLAMP (MIN ((w - 40.0) / bw, (h - 40.0) / bh), ZOOM_MIN, 1.5);
  self->pan_x = 20 - bx * self->zoom + MAX (0, (w - 290.0 - bw * self->zoom) / 2);
  self->pan_y = (h - bh * self->zoom) / 2 - by * self->zoom;
  gtk_widget_queue_draw (self->area);
}

/**
 * tw_automaton_canvas_set_zoom:
 * @anchor_x: px x that stays over the same model point
 * @anchor_y: px y that stays over the same model point
 */
void
tw_automaton_canvas_set_zoom (TwAutomatonCanvas *self,
                              double             zoom,
                              double             anchor_x,
                              double             anchor_y)
{
  double mx, my;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  mx = (anchor_x - self->pan_x) / self->zoom;
  my = (anchor_y - self->pan_y) / self->zoom;
  self->zoom = zoom;
  self->pan_x = anchor_x - mx * zoom;
  self->pan_y = anchor_y - my * zoom;
  gtk_widget_queue_draw (self->area);
}

static void
zoom_by (TwAutomatonCanvas *self,
         double             factor)
{
  tw_automaton_canvas_set_zoom (self, self->zoom * factor,
                                gtk_widget_get_width (self->area) / 2.0,
                                gtk_widget_get_height (self->area) / 2.0);
}

/* ---- selection and step view ---- */

void
tw_automaton_canvas_select_state (TwAutomatonCanvas *self,
                                  int                state)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_state = state < (int) tw_automaton_get_n_states (self->automaton) ? MAX (state, -1) : -1;
  self->selected_transition = -1;
  update_actions (self);
  gtk_widget_queue_draw (self->area);
}

void
tw_automaton_canvas_select_transition (TwAutomatonCanvas *self,
                                       int                transition)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_transition = transition < (int) tw_automaton_get_n_transitions (self->automaton)
                              ? MAX (transition, -1) : -1;
  self->selected_state = -1;
  update_actions (self);
  gtk_widget_queue_draw (self->area);
}

int
tw_automaton_canvas_get_selected_state (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);

  return self->selected_state;
}

int
tw_automaton_canvas_get_selected_transition (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);

  return self->selected_transition;
}

/**
 * tw_automaton_canvas_set_step_view:
 * @active_state: the state index to light up, or -1
 * @visits: (nullable) (array length=n_visits): visits per state index, or %NULL for none
 *
 * What the step mode shows; it is not an edit.
 */
void
tw_automaton_canvas_set_step_view (TwAutomatonCanvas *self,
                                   int                active_state,
                                   const guint       *visits,
                                   guint              n_visits)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->active_state = active_state;
  g_array_set_size (self->visits, 0);
  if (visits)
    g_array_append_vals (self->visits, visits, n_visits);
  gtk_widget_queue_draw (self->area);
}

/* ---- the label editor ---- */

static TwTaskMatch
task_from_dropdown (guint position)
{
  static const TwTaskMatch map[] = { TW_TASK_MATCH_ANY, TW_TASK_MATCH_SAME, TW_TASK_MATCH_OTHER };

  return position < G_N_ELEMENTS (map) ? map[position] : TW_TASK_MATCH_ANY;
}

static guint
dropdown_from_task (TwTaskMatch task)
{
  return task == TW_TASK_MATCH_SAME ? 1 : task == TW_TASK_MATCH_OTHER ? 2 : 0;
}

static void
label_kind_toggled_cb (GtkToggleButton   *button,
                       TwAutomatonCanvas *self)
{
  gboolean event = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->label_event_toggle));

  gtk_widget_set_sensitive (self->label_event_grid, event);
}

static void
label_apply (TwAutomatonCanvas *self)
{
  int index = self->editing_transition;
  TwLabelKind label = TW_LABEL_EVENT;

  if (index < 0 || index >= (int) tw_automaton_get_n_transitions (self->automaton))
    return;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->label_lambda_toggle)))
    label = TW_LABEL_LAMBDA;
  else if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->label_any_toggle)))
    label = TW_LABEL_ANY;
  tw_automaton_canvas_set_transition_label (
      self, index, label, gtk_editable_get_text (GTK_EDITABLE (self->label_entry)),
      task_from_dropdown (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->label_task))),
      gtk_check_button_get_active (GTK_CHECK_BUTTON (self->label_arg_check))
        ? TW_TASK_FIELD_ARG : TW_TASK_FIELD_TASK);
  gtk_popover_popdown (GTK_POPOVER (self->label_popover));
}

static void
label_apply_cb (GtkWidget         *widget,
                TwAutomatonCanvas *self)
{
  label_apply (self);
}

static void
label_delete_cb (GtkButton         *button,
                 TwAutomatonCanvas *self)
{
  int index = self->editing_transition;

  gtk_popover_popdown (GTK_POPOVER (self->label_popover));
  if (index >= 0 && index < (int) tw_automaton_get_n_transitions (self->automaton))
    tw_automaton_canvas_remove_transition (self, index);
}

static void
label_popover_closed_cb (GtkPopover        *popover,
                         TwAutomatonCanvas *self)
{
  self->editing_transition = -1;
  gtk_widget_grab_focus (self->area);
}

/**
 * tw_automaton_canvas_edit_transition:
 *
 * Opens the label editor on a transition's label.
 */
void
tw_automaton_canvas_edit_transition (TwAutomatonCanvas *self,
                                     guint              transition)
{
  TwAutomatonViewport vp;
  const TwAutomatonTransition *t;
  g_autofree char *title = NULL;
  double x, y;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (self->automaton));

  t = tw_automaton_get_transition (self->automaton, transition);
  tw_automaton_canvas_select_transition (self, transition);
  self->editing_transition = transition;
  title = g_strdup_printf ("Transition %s → %s", t->from, t->to);
  gtk_label_set_text (GTK_LABEL (self->label_title), title);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (
      t->label == TW_LABEL_LAMBDA ? self->label_lambda_toggle
      : t->label == TW_LABEL_ANY ? self->label_any_toggle : self->label_event_toggle), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->label_entry), t->event ? t->event : "");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->label_task), dropdown_from_task (t->task));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->label_arg_check),
                               t->task_field == TW_TASK_FIELD_ARG);

  tw_automaton_canvas_get_viewport (self, &vp);
  if (!tw_automaton_painter_get_label_position (self->painter, &vp, transition, &x, &y))
    {
      x = vp.width / 2.0;
      y = vp.height / 2.0;
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->label_popover),
                               &(GdkRectangle) { (int) x - 4, (int) y - 8, 8, 16 });
  if (gtk_widget_get_mapped (self->area))
    {
      gtk_popover_popup (GTK_POPOVER (self->label_popover));
      if (t->label == TW_LABEL_EVENT)
        gtk_widget_grab_focus (self->label_entry);
    }
}

static gboolean
completion_match (GtkEntryCompletion *completion,
                  const char         *key,
                  GtkTreeIter        *iter,
                  gpointer            user_data)
{
  GtkTreeModel *model = gtk_entry_completion_get_model (completion);
  g_autofree char *name = NULL;
  g_autofree char *folded = NULL;

  gtk_tree_model_get (model, iter, 0, &name, -1);
  if (name == NULL)
    return FALSE;
  /* the key arrives normalised and case-folded; match anywhere in the name, so "switch"
   * finds sched_switch */
  folded = g_utf8_casefold (name, -1);
  return strstr (folded, key) != NULL;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * tw_automaton_canvas_set_event_names:
 * @names: (array zero-terminated=1) (nullable): the event names to offer in the label
 *   editor (the open trace's type names and the canonical kind names); sorted and
 *   de-duplicated here
 */
void
tw_automaton_canvas_set_event_names (TwAutomatonCanvas  *self,
                                     const char * const *names)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  for (guint i = 0; names && names[i]; i++)
    if (names[i][0] != '\0')
      g_ptr_array_add (sorted, (gpointer) names[i]);
  g_ptr_array_sort (sorted, compare_names);
  gtk_list_store_clear (self->event_store);
  for (guint i = 0; i < sorted->len; i++)
    {
      if (i > 0 && strcmp (sorted->pdata[i], sorted->pdata[i - 1]) == 0)
        continue;
      gtk_list_store_insert_with_values (self->event_store, NULL, -1, 0, sorted->pdata[i], -1);
    }
}

/**
 * tw_automaton_canvas_get_event_completion:
 *
 * Returns: (transfer none): the completion of the label editor's event entry; its
 *   model's column 0 holds the names
 */
GtkEntryCompletion *
tw_automaton_canvas_get_event_completion (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->completion;
}

static GtkWidget *
build_label_popover (TwAutomatonCanvas *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 10);
  GtkWidget *kinds = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label, *apply, *remove;
  static const char * const tasks[] = {
    "Any task — E", "Same task — (E, i)", "Another task — (E, ¬i)", NULL,
  };

  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  self->label_title = gtk_label_new ("");
  gtk_widget_add_css_class (self->label_title, "heading");
  gtk_label_set_xalign (GTK_LABEL (self->label_title), 0);
  gtk_box_append (GTK_BOX (box), self->label_title);

  gtk_widget_add_css_class (kinds, "linked");
  gtk_widget_set_halign (kinds, GTK_ALIGN_FILL);
  gtk_box_set_homogeneous (GTK_BOX (kinds), TRUE);
  self->label_event_toggle = gtk_toggle_button_new_with_label ("Event");
  gtk_widget_set_tooltip_text (self->label_event_toggle, _("Taken on an event of a given type"));
  self->label_lambda_toggle = gtk_toggle_button_new_with_label ("λ");
  gtk_widget_set_tooltip_text (self->label_lambda_toggle,
                               _("λ: taken at once, without consuming an event"));
  self->label_any_toggle = gtk_toggle_button_new_with_label ("*  any other");
  gtk_widget_set_tooltip_text (self->label_any_toggle,
                               _("*: taken on any event that no other label of the state matches"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->label_lambda_toggle),
                               GTK_TOGGLE_BUTTON (self->label_event_toggle));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->label_any_toggle),
                               GTK_TOGGLE_BUTTON (self->label_event_toggle));
  gtk_box_append (GTK_BOX (kinds), self->label_event_toggle);
  gtk_box_append (GTK_BOX (kinds), self->label_lambda_toggle);
  gtk_box_append (GTK_BOX (kinds), self->label_any_toggle);
  gtk_box_append (GTK_BOX (box), kinds);
  g_signal_connect (self->label_event_toggle, "toggled", G_CALLBACK (label_kind_toggled_cb), self);

  self->label_event_grid = grid;
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  label = gtk_label_new (_("Event"));
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 1, 1);
  self->label_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->label_entry), _("sched_switch, switch, irq_entry…"));
  gtk_widget_set_tooltip_text (self->label_entry,
                               "The event's name as the trace writes it, or a canonical kind "
                               "name (switch, wakeup, irq_entry, user…) that matches every "
                               "event of that kind");
  gtk_widget_set_hexpand (self->label_entry, TRUE);
  gtk_widget_set_size_request (self->label_entry, 240, -1);
  self->event_store = gtk_list_store_new (1, G_TYPE_STRING);
  self->completion = gtk_entry_completion_new ();
  gtk_entry_completion_set_model (self->completion, GTK_TREE_MODEL (self->event_store));
  gtk_entry_completion_set_text_column (self->completion, 0);
  gtk_entry_completion_set_minimum_key_length (self->completion, 1);
  gtk_entry_completion_set_popup_completion (self->completion, TRUE);
  gtk_entry_completion_set_inline_completion (self->completion, FALSE);
  gtk_entry_completion_set_match_func (self->completion, completion_match, NULL, NULL);
  gtk_entry_set_completion (GTK_ENTRY (self->label_entry), self->completion);
  g_signal_connect (self->label_entry, "activate", G_CALLBACK (label_apply_cb), self);
  gtk_grid_attach (GTK_GRID (grid), self->label_entry, 1, 0, 1, 1);

  label = gtk_label_new (_("Logged by"));
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_grid_attach (GTK_GRID (grid), label, 0, 1, 1, 1);
  self->label_task = gtk_drop_down_new_from_strings (tasks);
  gtk_widget_set_tooltip_text (self->label_task,
                               "Whose event it must be: any task, the instance's own task i, "
                               "or another task");
  gtk_grid_attach (GTK_GRID (grid), self->label_task, 1, 1, 1, 1);

  self->label_arg_check = gtk_check_button_new_with_label (_("Compare the event's arg task"));
  gtk_widget_set_tooltip_text (self->label_arg_check,
                               "Compare i with the task the event is about (switch: the task "
                               "switched in; wakeup: the woken task) instead of the task that "
                               "logged it");
  gtk_grid_attach (GTK_GRID (grid), self->label_arg_check, 1, 2, 1, 1);
  gtk_box_append (GTK_BOX (box), grid);

  remove = gtk_button_new_with_mnemonic (_("_Delete"));
  gtk_widget_add_css_class (remove, "destructive-action");
  gtk_widget_set_tooltip_text (remove, _("Delete this transition (Delete)"));
  g_signal_connect (remove, "clicked", G_CALLBACK (label_delete_cb), self);
  apply = gtk_button_new_with_mnemonic (_("_Apply"));
  gtk_widget_add_css_class (apply, "suggested-action");
  gtk_widget_set_hexpand (apply, TRUE);
  gtk_widget_set_halign (apply, GTK_ALIGN_END);
  g_signal_connect (apply, "clicked", G_CALLBACK (label_apply_cb), self);
  gtk_box_append (GTK_BOX (buttons), remove);
  gtk_box_append (GTK_BOX (buttons), apply);
  gtk_box_append (GTK_BOX (box), buttons);

  self->label_popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->label_popover), box);
  gtk_popover_set_position (GTK_POPOVER (self->label_popover), GTK_POS_BOTTOM);
  gtk_popover_set_default_widget (GTK_POPOVER (self->label_popover), apply);
  gtk_widget_set_parent (self->label_popover, self->area);
  g_signal_connect (self->label_popover, "closed", G_CALLBACK (label_popover_closed_cb), self);
  return self->label_popover;
}

/* ---- input ---- */

static void
update_cursor (TwAutomatonCanvas *self,
               double             x,
               double             y)
{
  TwAutomatonViewport vp;
  TwAutomatonHit hit;
  const char *name = NULL;

  if (self->drag_mode == DRAG_PAN)
    name = "grabbing";
  else if (self->drag_mode == DRAG_CONNECT)
    name = "crosshair";
  else if (self->drag_mode == DRAG_MOVE)
    name = "move";
  else
    {
      tw_automaton_canvas_get_viewport (self, &vp);
      tw_automaton_painter_hit_test (self->painter, &vp, x, y, &hit);
      if (hit.kind == TW_AUTOMATON_HIT_STATE_RIM)
        name = "crosshair";
      else if (hit.kind == TW_AUTOMATON_HIT_STATE)
        name = "move";
      else if (hit.kind == TW_AUTOMATON_HIT_TRANSITION)
        name = "pointer";
    }
  gtk_widget_set_cursor_from_name (self->area, name);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           TwAutomatonCanvas        *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  update_cursor (self, x, y);
}

static void
drag_begin_cb (GtkGestureDrag    *gesture,
               double             x,
               double             y,
               TwAutomatonCanvas *self)
{
  TwAutomatonViewport vp;
  TwAutomatonHit hit;
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  gtk_widget_grab_focus (self->area);
  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_painter_hit_test (self->painter, &vp, x, y, &hit);
  self->drag_moved = FALSE;
  self->drag_state = -1;
  switch (hit.kind)
    {
    case TW_AUTOMATON_HIT_STATE_RIM:
    case TW_AUTOMATON_HIT_STATE:
      self->drag_state = hit.index;
      tw_automaton_canvas_select_state (self, hit.index);
      if (hit.kind == TW_AUTOMATON_HIT_STATE_RIM || (mods & GDK_SHIFT_MASK))
        {
          self->drag_mode = DRAG_CONNECT;
          self->pending_x = x;
          self->pending_y = y;
        }
      else
        {
          const TwAutomatonState *s = tw_automaton_get_state (self->automaton, hit.index);
          self->drag_mode = DRAG_MOVE;
          self->drag_origin_x = s->x;
          self->drag_origin_y = s->y;
          begin_edit (self);
        }
      break;
    case TW_AUTOMATON_HIT_TRANSITION:
      tw_automaton_canvas_select_transition (self, hit.index);
      self->drag_mode = DRAG_NONE;
      break;
    case TW_AUTOMATON_HIT_NONE:
    default:
      tw_automaton_canvas_select_state (self, -1);
      self->drag_mode = DRAG_PAN;
      self->drag_origin_x = self->pan_x;
      self->drag_origin_y = self->pan_y;
      break;
    }
  update_cursor (self, x, y);
}

static void
drag_update_cb (GtkGestureDrag    *gesture,
                double             dx,
                double             dy,
                TwAutomatonCanvas *self)
{
  double sx, sy;

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if (fabs (dx) + fabs (dy) > 2)
    self->drag_moved = TRUE;
  switch (self->drag_mode)
    {
    case DRAG_MOVE:
      if (self->drag_moved)
        tw_automaton_set_state_position (self->automaton, self->drag_state,
                                         round (self->drag_origin_x + dx / self->zoom),
                                         round (self->drag_origin_y + dy / self->zoom));
      break;
    case DRAG_CONNECT:
      if (self->drag_moved)
        self->pending_from = self->drag_state;
      self->pending_x = sx + dx;
      self->pending_y = sy + dy;
      break;
    case DRAG_PAN:
      self->pan_x = self->drag_origin_x + dx;
      self->pan_y = self->drag_origin_y + dy;
      break;
    case DRAG_NONE:
    default:
      return;
    }
  gtk_widget_queue_draw (self->area);
}

static void
drag_end_cb (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             TwAutomatonCanvas *self)
{
  DragMode mode = self->drag_mode;
  double sx, sy;

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  self->drag_mode = DRAG_NONE;
  self->pending_from = -1;
  switch (mode)
    {
    case DRAG_MOVE:
      commit_edit (self, "Move state");
      break;
    case DRAG_CONNECT:
      {
        TwAutomatonViewport vp;
        TwAutomatonHit hit;

        tw_automaton_canvas_get_viewport (self, &vp);
        tw_automaton_painter_hit_test (self->painter, &vp, sx + dx, sy + dy, &hit);
        /* a click on the rim without a drag only selects; a release on a state connects
         * (on the same state: a loop) */
        if (self->drag_moved &&
            (hit.kind == TW_AUTOMATON_HIT_STATE || hit.kind == TW_AUTOMATON_HIT_STATE_RIM))
          {
            int t = tw_automaton_canvas_connect (self, self->drag_state, hit.index,
                                                 TW_LABEL_EVENT, "", TW_TASK_MATCH_ANY,
                                                 TW_TASK_FIELD_TASK);
            tw_automaton_canvas_edit_transition (self, t);
          }
      }
      break;
    case DRAG_PAN:
    case DRAG_NONE:
    default:
      break;
    }
  gtk_widget_queue_draw (self->area);
  update_cursor (self, sx + dx, sy + dy);
}

static void
click_pressed_cb (GtkGestureClick   *gesture,
                  int                n_press,
                  double             x,
                  double             y,
                  TwAutomatonCanvas *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  TwAutomatonViewport vp;
  TwAutomatonHit hit;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_painter_hit_test (self->painter, &vp, x, y, &hit);
  if (button == GDK_BUTTON_SECONDARY)
    {
      gtk_widget_grab_focus (self->area);
      if (hit.kind == TW_AUTOMATON_HIT_STATE || hit.kind == TW_AUTOMATON_HIT_STATE_RIM)
        tw_automaton_canvas_select_state (self, hit.index);
      else if (hit.kind == TW_AUTOMATON_HIT_TRANSITION)
        {
          tw_automaton_canvas_edit_transition (self, hit.index);
          return;
        }
      else
        return;
      gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                                   &(GdkRectangle) { (int) x, (int) y, 1, 1 });
      gtk_popover_popup (GTK_POPOVER (self->context_menu));
      return;
    }
  if (button != GDK_BUTTON_PRIMARY || n_press != 2)
    return;
  if (hit.kind == TW_AUTOMATON_HIT_NONE)
    {
      double mx, my;
      tw_automaton_viewport_to_model (&vp, x, y, &mx, &my);
      tw_automaton_canvas_add_state (self, self->double_click_kind, mx, my);
    }
  else if (hit.kind == TW_AUTOMATON_HIT_TRANSITION)
    tw_automaton_canvas_edit_transition (self, hit.index);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TwAutomatonCanvas        *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (mods & GDK_CONTROL_MASK)
    {
      tw_automaton_canvas_set_zoom (self, self->zoom * pow (ZOOM_STEP, -dy),
                                    self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  self->pan_x -= dx * (wheel ? SCROLL_PAN_PX : 1);
  self->pan_y -= dy * (wheel ? SCROLL_PAN_PX : 1);
  gtk_widget_queue_draw (self->area);
  return TRUE;
}

static gboolean
query_tooltip_cb (GtkWidget         *widget,
                  int                x,
                  int                y,
                  gboolean           keyboard,
                  GtkTooltip        *tooltip,
                  TwAutomatonCanvas *self)
{
  TwAutomatonViewport vp;
  TwAutomatonHit hit;
  g_autofree char *text = NULL;

  if (keyboard || self->drag_mode != DRAG_NONE)
    return FALSE;
  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_painter_hit_test (self->painter, &vp, x, y, &hit);
  switch (hit.kind)
    {
    case TW_AUTOMATON_HIT_STATE_RIM:
      text = g_strdup ("Drag from the rim to another state to connect them (to itself: a loop)");
      break;
    case TW_AUTOMATON_HIT_STATE:
      {
        const TwAutomatonState *s = tw_automaton_get_state (self->automaton, hit.index);
        text = g_strdup_printf ("State %s (%s: %s)\nDrag to move, Shift+drag or drag from the "
                                "rim to connect, right-click for kind and initial",
                                s->id, tw_state_kind_to_string (s->kind),
                                tw_automaton_state_kind_describe (s->kind));
      }
      break;
    case TW_AUTOMATON_HIT_TRANSITION:
      text = g_strdup ("Double-click or press Enter to edit the label; Delete removes it");
      break;
    case TW_AUTOMATON_HIT_NONE:
    default:
      text = g_strdup ("Double-click to add a state, drag to pan, Ctrl+scroll to zoom");
      break;
    }
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TwAutomatonCanvas *self = user_data;
  TwAutomatonViewport vp;
  TwPalette palette;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_palette_init_from_widget (&palette, GTK_WIDGET (area));
  vp.width = width;
  vp.height = height;
  vp.palette = &palette;
  tw_automaton_painter_draw (self->painter, cr, &vp);
}

static void
area_resize_cb (GtkDrawingArea    *area,
                int                width,
                int                height,
                TwAutomatonCanvas *self)
{
  if (self->fit_pending)
    tw_automaton_canvas_zoom_to_fit (self);
}

/* ---- actions ---- */

static TwStateKind
kind_from_variant (GVariant *parameter)
{
  TwStateKind kind = TW_STATE_KIND_OUT;

  if (parameter)
    tw_state_kind_from_string (g_variant_get_string (parameter, NULL), &kind);
  return kind;
}

/* a free spot near the middle of the view for a state added from the palette */
static void
free_spot (TwAutomatonCanvas *self,
           double            *x,
           double            *y)
{
  TwAutomatonViewport vp;
  gboolean taken = TRUE;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_viewport_to_model (&vp, MAX (vp.width - 280, 200) / 2.0, vp.height / 2.0, x, y);
  for (int tries = 0; taken && tries < 50; tries++)
    {
      taken = FALSE;
      for (guint i = 0; i < tw_automaton_get_n_states (self->automaton); i++)
        {
          const TwAutomatonState *s = tw_automaton_get_state (self->automaton, i);
          if (fabs (s->x - *x) < 2 * TW_AUTOMATON_STATE_RADIUS &&
              fabs (s->y - *y) < 2 * TW_AUTOMATON_STATE_RADIUS)
            taken = TRUE;
        }
      if (taken)
        {
          *x += 40;
          *y += 30;
        }
    }
}

static void
canvas_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (widget);

  if (g_str_equal (name, "canvas.undo"))
    tw_automaton_canvas_undo (self);
  else if (g_str_equal (name, "canvas.redo"))
    tw_automaton_canvas_redo (self);
  else if (g_str_equal (name, "canvas.delete"))
    tw_automaton_canvas_delete_selection (self);
  else if (g_str_equal (name, "canvas.add-state"))
    {
      double x, y;
      free_spot (self, &x, &y);
      self->double_click_kind = kind_from_variant (parameter);
      tw_automaton_canvas_add_state (self, self->double_click_kind, x, y);
    }
  else if (g_str_equal (name, "canvas.set-kind"))
    {
      if (self->selected_state >= 0)
        tw_automaton_canvas_set_state_kind (self, self->selected_state, kind_from_variant (parameter));
    }
  else if (g_str_equal (name, "canvas.set-initial"))
    {
      if (self->selected_state >= 0)
        tw_automaton_canvas_set_initial (self, self->selected_state);
    }
  else if (g_str_equal (name, "canvas.edit-label"))
    {
      if (self->selected_transition >= 0)
        tw_automaton_canvas_edit_transition (self, self->selected_transition);
    }
  else if (g_str_equal (name, "canvas.nudge"))
    {
      int dx, dy;

      g_variant_get (parameter, "(ii)", &dx, &dy);
      if (self->selected_state >= 0)
        {
          const TwAutomatonState *s = tw_automaton_get_state (self->automaton, self->selected_state);
          tw_automaton_canvas_move_state (self, self->selected_state, s->x + dx, s->y + dy);
        }
    }
  else if (g_str_equal (name, "canvas.auto-layout"))
    tw_automaton_canvas_auto_layout (self);
  else if (g_str_equal (name, "canvas.zoom-in"))
    zoom_by (self, ZOOM_STEP);
  else if (g_str_equal (name, "canvas.zoom-out"))
    zoom_by (self, 1 / ZOOM_STEP);
  else if (g_str_equal (name, "canvas.zoom-fit"))
    tw_automaton_canvas_zoom_to_fit (self);
  else if (g_str_equal (name, "canvas.escape"))
    {
      self->drag_mode = DRAG_NONE;
      self->pending_from = -1;
      tw_automaton_canvas_select_state (self, -1);
    }
}

/* ---- construction ---- */

static void
palette_icon_draw (GtkDrawingArea *area,
                   cairo_t        *cr,
                   int             width,
                   int             height,
                   gpointer        user_data)
{
  tw_automaton_painter_draw_state_icon (cr, GPOINTER_TO_UINT (user_data), width / 2.0,
                                        height / 2.0, MIN (width, height) / 2.0 - 1.5);
}

static GtkWidget *
icon_button (const char *icon,
             const char *action,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

/* The toolbar wraps onto a second line in a narrow window rather than widening it (the
 * designer must fit a 1280 px screen beside its preview). What belongs together stays
 * together on a line: undo with redo, "Add" with the first kind, the zoom buttons. */
static GtkWidget *
build_toolbar (TwAutomatonCanvas *self)
{
  GtkWidget *bar = tw_wrap_box_new (4);
  GtkWidget *group, *label, *spacer;
  static const char * const key_hint[TW_N_STATE_KINDS] = {
    "Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6",
  };

  gtk_widget_add_css_class (bar, "toolbar");

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (group), icon_button ("edit-undo-symbolic", "canvas.undo", "Undo (Ctrl+Z)"));
  gtk_box_append (GTK_BOX (group), icon_button ("edit-redo-symbolic", "canvas.redo",
                                                "Redo (Ctrl+Shift+Z)"));
  tw_wrap_box_append (TW_WRAP_BOX (bar), group);
  tw_wrap_box_append (TW_WRAP_BOX (bar), gtk_separator_new (GTK_ORIENTATION_VERTICAL));

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  label = gtk_label_new (_("Add"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 4);
  gtk_widget_set_margin_end (label, 2);
  gtk_box_append (GTK_BOX (group), label);
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      GtkWidget *button = gtk_button_new ();
      GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *icon = gtk_drawing_area_new ();
      g_autofree char *tooltip = NULL;

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (icon), 18);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (icon), 18);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (icon), palette_icon_draw,
                                      GUINT_TO_POINTER (k), NULL);
      gtk_box_append (GTK_BOX (content), icon);
      gtk_box_append (GTK_BOX (content), gtk_label_new (tw_state_kind_to_string (k)));
      gtk_button_set_child (GTK_BUTTON (button), content);
      gtk_widget_add_css_class (button, "flat");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "canvas.add-state");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", tw_state_kind_to_string (k));
      tooltip = g_strdup_printf ("Add a%s %s state: %s (%s).\nDouble-clicking the canvas "
                                 "then adds this kind too.",
                                 k == TW_STATE_KIND_IN || k == TW_STATE_KIND_OUT ? "n" : "",
                                 tw_state_kind_to_string (k), tw_automaton_state_kind_describe (k),
                                 key_hint[k]);
      gtk_widget_set_tooltip_text (button, tooltip);
      if (k == 0)
        {
          gtk_box_append (GTK_BOX (group), button);
          tw_wrap_box_append (TW_WRAP_BOX (bar), group);
        }
      else
        tw_wrap_box_append (TW_WRAP_BOX (bar), button);
    }
  tw_wrap_box_append (TW_WRAP_BOX (bar), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("go-home-symbolic", "canvas.set-initial",
                                                      "Make the selected state the initial one (Ctrl+I)"));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("edit-delete-symbolic", "canvas.delete",
                                                      "Delete the selection (Delete)"));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("view-grid-symbolic", "canvas.auto-layout",
                                                      "Arrange the states in layers from the initial state (Ctrl+L)"));

  /* whole or on the next line, never cut to "Dr…" */
  spacer = gtk_label_new (_("Drag from a rim to connect"));
  gtk_widget_add_css_class (spacer, "dim-label");
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_widget_set_halign (spacer, GTK_ALIGN_END);
  gtk_widget_set_margin_end (spacer, 6);
  tw_wrap_box_append (TW_WRAP_BOX (bar), spacer);

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-out-symbolic", "canvas.zoom-out", "Zoom out (−)"));
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-fit-best-symbolic", "canvas.zoom-fit",
                                                "Show the whole automaton (0)"));
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-in-symbolic", "canvas.zoom-in", "Zoom in (+)"));
  tw_wrap_box_append (TW_WRAP_BOX (bar), group);
  return bar;
}

static GtkWidget *
build_context_menu (TwAutomatonCanvas *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) kinds = g_menu_new ();
  g_autoptr(GMenu) actions = g_menu_new ();
  GtkWidget *popover;

  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      g_autofree char *action = g_strdup_printf ("canvas.set-kind::%s", tw_state_kind_to_string (k));
      g_autofree char *label = g_strdup_printf ("%s — %s", tw_state_kind_to_string (k),
                                                tw_automaton_state_kind_describe (k));
      g_menu_append (kinds, label, action);
    }
  g_menu_append_section (menu, "Kind", G_MENU_MODEL (kinds));
  g_menu_append (actions, "Make _Initial", "canvas.set-initial");
  g_menu_append (actions, "_Delete State", "canvas.delete");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (actions));
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  gtk_widget_set_parent (popover, self->area);
  return popover;
}

static void
tw_automaton_canvas_dispose (GObject *object)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  g_clear_pointer (&self->label_popover, gtk_widget_unparent);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->toolbar, gtk_widget_unparent);
  g_clear_pointer (&self->area, gtk_widget_unparent);
  g_clear_object (&self->completion);
  g_clear_object (&self->event_store);
  G_OBJECT_CLASS (tw_automaton_canvas_parent_class)->dispose (object);
}

static void
tw_automaton_canvas_finalize (GObject *object)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  g_clear_object (&self->painter);
  g_clear_object (&self->automaton);
  g_clear_pointer (&self->undo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->redo_stack, g_ptr_array_unref);
  g_clear_pointer (&self->visits, g_array_unref);
  g_clear_object (&self->edit_before);
  g_free (self->edit_before_text);
  g_free (self->saved_data);
  g_free (self->path);
  G_OBJECT_CLASS (tw_automaton_canvas_parent_class)->finalize (object);
}

static void
tw_automaton_canvas_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  switch (prop_id)
    {
    case PROP_AUTOMATON: g_value_set_object (value, self->automaton); break;
    case PROP_CAN_UNDO:  g_value_set_boolean (value, self->undo_stack->len > 0); break;
    case PROP_CAN_REDO:  g_value_set_boolean (value, self->redo_stack->len > 0); break;
    default:             G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_automaton_canvas_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  switch (prop_id)
    {
    case PROP_AUTOMATON: tw_automaton_canvas_set_automaton (self, g_value_get_object (value)); break;
    default:             G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_key (GtkWidgetClass  *widget_class,
         guint            keyval,
         GdkModifierType  mods,
         const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

static void
tw_automaton_canvas_class_init (TwAutomatonCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const actions[] = {
    "canvas.undo", "canvas.redo", "canvas.delete", "canvas.set-initial", "canvas.edit-label",
    "canvas.auto-layout", "canvas.zoom-in", "canvas.zoom-out", "canvas.zoom-fit",
    "canvas.escape",
  };

  object_class->dispose = tw_automaton_canvas_dispose;
  object_class->finalize = tw_automaton_canvas_finalize;
  object_class->get_property = tw_automaton_canvas_get_property;
  object_class->set_property = tw_automaton_canvas_set_property;

  properties[PROP_AUTOMATON] =
    g_param_spec_object ("automaton", NULL, NULL, TW_TYPE_AUTOMATON,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwAutomatonCanvas::changed:
   *
   * Emitted once after every edit, undo and redo that changed the automaton, and when a
   * new automaton is set or loaded: the moment to re-run it over the trace.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.add-state", "s", canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.set-kind", "s", canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.nudge", "(ii)", canvas_action);

  add_key (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "canvas.undo");
  add_key (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_Delete, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_KP_Delete, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_BackSpace, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "canvas.set-initial");
  add_key (widget_class, GDK_KEY_Return, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_KP_Enter, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_F2, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "canvas.auto-layout");
  add_key (widget_class, GDK_KEY_plus, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_equal, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_KP_Add, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_minus, 0, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_KP_Subtract, 0, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_0, 0, "canvas.zoom-fit");
  add_key (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_key (widget_class, GDK_KEY_Escape, 0, "canvas.escape");
  /* arrows move the selected state by a grid step, with Shift by one unit */
  {
    static const struct { guint key; int dx, dy; } arrows[] = {
      { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, -1 }, { GDK_KEY_Down, 0, 1 },
    };
    for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
      {
        gtk_widget_class_add_binding_action (widget_class, arrows[i].key, 0, "canvas.nudge", "(ii)",
                                             arrows[i].dx * 24, arrows[i].dy * 24);
        gtk_widget_class_add_binding_action (widget_class, arrows[i].key, GDK_SHIFT_MASK,
                                             "canvas.nudge", "(ii)", arrows[i].dx, arrows[i].dy);
      }
  }
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + k, GDK_CONTROL_MASK,
                                         "canvas.add-state", "s", tw_state_kind_to_string (k));

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "automaton-canvas");
}

static void
tw_automaton_canvas_init (TwAutomatonCanvas *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->automaton = tw_automaton_new ("Untitled automaton");
  self->painter = tw_automaton_painter_new (self->automaton);
  self->undo_stack = g_ptr_array_new_with_free_func (command_free);
  self->redo_stack = g_ptr_array_new_with_free_func (command_free);
  self->visits = g_array_new (FALSE, FALSE, sizeof (guint));
  self->zoom = 1;
  self->selected_state = -1;
  self->selected_transition = -1;
  self->active_state = -1;
  self->pending_from = -1;
  self->editing_transition = -1;
  self->double_click_kind = TW_STATE_KIND_OUT;
  self->fit_pending = TRUE;
  self->saved_data = tw_automaton_to_data (self->automaton, NULL);

  self->toolbar = build_toolbar (self);
  gtk_widget_set_parent (self->toolbar, GTK_WIDGET (self));

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_focus_on_click (self->area, TRUE);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self->area), 480);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area), 320);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  gtk_widget_set_parent (self->area, GTK_WIDGET (self));
  g_signal_connect (self->area, "resize", G_CALLBACK (area_resize_cb), self);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->area, controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (self->area, controller);

  build_label_popover (self);
  self->context_menu = build_context_menu (self);
  update_actions (self);
}

GtkWidget *
tw_automaton_canvas_new (void)
{
  return g_object_new (TW_TYPE_AUTOMATON_CANVAS, NULL);
}

/**
 * tw_automaton_canvas_get_automaton:
 *
 * Returns: (transfer none): the automaton being edited; edits change it in place, so it
 *   stays the same object until tw_automaton_canvas_set_automaton() or _load()
 */
TwAutomaton *
tw_automaton_canvas_get_automaton (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->automaton;
}

/**
 * tw_automaton_canvas_set_automaton:
 * @automaton: (transfer none): the automaton to edit (edited in place)
 *
 * Starts editing @automaton with an empty history. States without positions (see
 * tw_automaton_layout_needed()) are laid out first. Emits ::changed.
 */
void
tw_automaton_canvas_set_automaton (TwAutomatonCanvas *self,
                                   TwAutomaton       *automaton)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  if (tw_automaton_layout_needed (automaton))
    tw_automaton_layout (automaton);
  g_set_object (&self->automaton, automaton);
  tw_automaton_painter_set_automaton (self->painter, automaton);
  g_ptr_array_set_size (self->undo_stack, 0);
  g_ptr_array_set_size (self->redo_stack, 0);
  g_clear_object (&self->edit_before);
  g_clear_pointer (&self->edit_before_text, g_free);
  g_free (self->saved_data);
  self->saved_data = tw_automaton_to_data (automaton, NULL);
  self->selected_state = -1;
  self->selected_transition = -1;
  self->active_state = -1;
  g_array_set_size (self->visits, 0);
  if (self->label_popover)
    gtk_popover_popdown (GTK_POPOVER (self->label_popover));
  tw_automaton_canvas_zoom_to_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOMATON]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
  model_changed (self);
}

/**
 * tw_automaton_canvas_load:
 *
 * Opens an automaton file (see tw_automaton_load()) and edits it.
 *
 * Returns: %FALSE with @error set (naming the file) when it cannot be read; the canvas
 *   is then unchanged
 */
gboolean
tw_automaton_canvas_load (TwAutomatonCanvas  *self,
                          const char         *path,
                          GError            **error)
{
  g_autoptr(TwAutomaton) automaton = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  automaton = tw_automaton_load (path, error);
  if (automaton == NULL)
    return FALSE;
  g_free (self->path);
  self->path = g_strdup (path);
  tw_automaton_canvas_set_automaton (self, automaton);
  return TRUE;
}

/**
 * tw_automaton_canvas_save:
 *
 * Writes the automaton to @path (see tw_automaton_save()); it becomes the canvas's path.
 */
gboolean
tw_automaton_canvas_save (TwAutomatonCanvas  *self,
                          const char         *path,
                          GError            **error)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!tw_automaton_save (self->automaton, path, error))
    return FALSE;
  if (path != self->path)
    {
      g_free (self->path);
      self->path = g_strdup (path);
    }
  g_free (self->saved_data);
  self->saved_data = tw_automaton_to_data (self->automaton, NULL);
  return TRUE;
}

/**
 * tw_automaton_canvas_get_path:
 *
 * Returns: (nullable): the file last loaded or saved
 */
const char *
tw_automaton_canvas_get_path (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->path;
}

/**
 * tw_automaton_canvas_get_modified:
 *
 * Returns: %TRUE when the automaton differs from what was last set, loaded or saved
 */
gboolean
tw_automaton_canvas_get_modified (TwAutomatonCanvas *self)
{
  g_autofree char *now = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  now = tw_automaton_to_data (self->automaton, NULL);
  return g_strcmp0 (now, self->saved_data) != 0;
}

/**
 * tw_automaton_canvas_get_painter:
 *
 * Returns: (transfer none): the painter that draws the canvas
 */
TwAutomatonPainter *
tw_automaton_canvas_get_painter (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->painter;
}

/**
 * tw_automaton_canvas_get_drawing_area:
 *
 * Returns: (transfer none): the area the automaton is drawn in (viewport coordinates are
 *   relative to it)
 */
GtkWidget *
tw_automaton_canvas_get_drawing_area (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->area;
}
