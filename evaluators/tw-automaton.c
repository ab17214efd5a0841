/* tw-automaton.c: the metric automaton model and its design-error validation
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-automaton.h"

#include "tw-automaton-tables-private.h"

struct _TwAutomaton
{
  GObject     parent_instance;

  char       *name;
  char       *initial;
  JsonObject *extra;
  GArray     *states;      /* TwAutomatonState */
  GArray     *transitions; /* TwAutomatonTransition */
};

G_DEFINE_FINAL_TYPE (TwAutomaton, tw_automaton, G_TYPE_OBJECT)

G_DEFINE_QUARK (tw-automaton-error-quark, tw_automaton_error)

static const char * const state_kind_names[TW_N_STATE_KINDS] = {
  [TW_STATE_KIND_BEGIN] = "begin",
  [TW_STATE_KIND_END] = "end",
  [TW_STATE_KIND_CANCEL] = "cancel",
  [TW_STATE_KIND_IN] = "in",
  [TW_STATE_KIND_OUT] = "out",
  [TW_STATE_KIND_COND] = "cond",
};

const char *
tw_state_kind_to_string (TwStateKind kind)
{
  g_return_val_if_fail (kind < TW_N_STATE_KINDS, "out");

  return state_kind_names[kind];
}

/**
 * tw_state_kind_from_string:
 * @kind: (out): the kind when @name is one
 *
 * Returns: %TRUE when @name is one of begin, end, cancel, in, out, cond
 */
gboolean
tw_state_kind_from_string (const char  *name,
                           TwStateKind *kind)
{
  for (guint i = 0; i < TW_N_STATE_KINDS; i++)
    {
      if (g_strcmp0 (name, state_kind_names[i]) == 0)
        {
          *kind = i;
          return TRUE;
        }
    }
  return FALSE;
}

void
tw_automaton_problem_free (TwAutomatonProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->state_id);
  g_free (problem->message);
  g_free (problem);
}

static void
clear_state (gpointer data)
{
  TwAutomatonState *state = data;

  g_clear_pointer (&state->id, g_free);
  g_clear_pointer (&state->extra, json_object_unref);
}

static void
clear_transition (gpointer data)
{
  TwAutomatonTransition *transition = data;

  g_clear_pointer (&transition->from, g_free);
  g_clear_pointer (&transition->to, g_free);
  g_clear_pointer (&transition->event, g_free);
  g_clear_pointer (&transition->extra, json_object_unref);
}

static void
tw_automaton_finalize (GObject *object)
{
  TwAutomaton *self = TW_AUTOMATON (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->initial, g_free);
  g_clear_pointer (&self->extra, json_object_unref);
  g_clear_pointer (&self->states, g_array_unref);
  g_clear_pointer (&self->transitions, g_array_unref);

  G_OBJECT_CLASS (tw_automaton_parent_class)->finalize (object);
}

static void
tw_automaton_class_init (TwAutomatonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_automaton_finalize;
}

static void
tw_automaton_init (TwAutomaton *self)
{
  self->states = g_array_new (FALSE, TRUE, sizeof (TwAutomatonState));
  g_array_set_clear_func (self->states, clear_state);
  self->transitions = g_array_new (FALSE, TRUE, sizeof (TwAutomatonTransition));
  g_array_set_clear_func (self->transitions, clear_transition);
}

/**
 * tw_automaton_new:
 * @name: (nullable): what users call the metric
 *
 * Returns: (transfer full): an empty automaton
 */
TwAutomaton *
tw_automaton_new (const char *name)
{
  TwAutomaton *self = g_object_new (TW_TYPE_AUTOMATON, NULL);

  self->name = g_strdup (name ? name : "");
  return self;
}

const char *
tw_automaton_get_name (TwAutomaton *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);

  return self->name;
}

void
tw_automaton_set_name (TwAutomaton *self,
                       const char  *name)
{
  g_return_if_fail (TW_IS_AUTOMATON (self));

  /* @name may be our own string (set_name (a, get_name (a))): copy before freeing */
  char *copy = g_strdup (name ? name : "");

  g_free (self->name);
  self->name = copy;
}

/**
 * tw_automaton_get_initial:
 *
 * Returns: (nullable): the id of the initial state as set, which may name no state
 */
const char *
tw_automaton_get_initial (TwAutomaton *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);

  return self->initial;
}

void
tw_automaton_set_initial (TwAutomaton *self,
                          const char  *state_id)
{
  g_return_if_fail (TW_IS_AUTOMATON (self));

  char *copy = g_strdup (state_id);

  g_free (self->initial);
  self->initial = copy;
}

/**
 * tw_automaton_get_extra:
 *
 * Returns: (transfer none) (nullable): top-level file members this version does not know
 */
JsonObject *
tw_automaton_get_extra (TwAutomaton *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);

  return self->extra;
}

/**
 * tw_automaton_set_extra:
 * @extra: (nullable) (transfer none): members to keep
 */
void
tw_automaton_set_extra (TwAutomaton *self,
                        JsonObject  *extra)
{
  g_return_if_fail (TW_IS_AUTOMATON (self));

  if (extra)
    json_object_ref (extra);
  g_clear_pointer (&self->extra, json_object_unref);
  self->extra = extra;
}

guint
tw_automaton_get_n_states (TwAutomaton *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), 0);

  return self->states->len;
}

/**
 * tw_automaton_get_state:
 *
 * Returns: (transfer none): the state, valid until the automaton changes
 */
const TwAutomatonState *
tw_automaton_get_state (TwAutomaton *self,
                        guint        index)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);
  g_return_val_if_fail (index < self->states->len, NULL);

  return &g_array_index (self->states, TwAutomatonState, index);
}

/**
 * tw_automaton_find_state:
 *
 * Returns: the index of the first state called @id, or -1
 */
int
tw_automaton_find_state (TwAutomaton *self,
                         const char  *id)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), -1);

  for (guint i = 0; i < self->states->len; i++)
    if (g_strcmp0 (g_array_index (self->states, TwAutomatonState, i).id, id) == 0)
      return (int) i;
  return -1;
}

/**
 * tw_automaton_add_state:
 *
 * Adds a state; ids are not checked here (validation reports duplicates) so that a
 * file with mistakes can be loaded, shown and fixed.
 *
 * Returns: the new state's index
 */
guint
tw_automaton_add_state (TwAutomaton *self,
                        const char  *id,
                        TwStateKind  kind,
                        double       x,
                        double       y)
{
  TwAutomatonState state = { g_strdup (id ? id : ""), kind, x, y, NULL };

  g_return_val_if_fail (TW_IS_AUTOMATON (self), 0);
  g_return_val_if_fail (kind < TW_N_STATE_KINDS, 0);

  g_array_append_val (self->states, state);
  return self->states->len - 1;
}

void
tw_automaton_set_state_kind (TwAutomaton *self,
                             guint        index,
                             TwStateKind  kind)
{
  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->states->len);
  g_return_if_fail (kind < TW_N_STATE_KINDS);

  g_array_index (self->states, TwAutomatonState, index).kind = kind;
}

void
tw_automaton_set_state_position (TwAutomaton *self,
                                 guint        index,
                                 double       x,
                                 double       y)
{
  TwAutomatonState *state;

  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->states->len);

  state = &g_array_index (self->states, TwAutomatonState, index);
  state->x = x;
  state->y = y;
}

/**
 * tw_automaton_set_state_extra:
 * @extra: (nullable) (transfer none): unknown JSON members to keep with the state
 */
void
tw_automaton_set_state_extra (TwAutomaton *self,
                              guint        index,
                              JsonObject  *extra)
{
  TwAutomatonState *state;

  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->states->len);

  state = &g_array_index (self->states, TwAutomatonState, index);
  if (extra)
    json_object_ref (extra);
  g_clear_pointer (&state->extra, json_object_unref);
  state->extra = extra;
}

/**
 * tw_automaton_remove_state:
 *
 * Removes the state and every transition from or to it.
 */
void
tw_automaton_remove_state (TwAutomaton *self,
                           guint        index)
{
  g_autofree char *id = NULL;

  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->states->len);

  id = g_strdup (g_array_index (self->states, TwAutomatonState, index).id);
  g_array_remove_index (self->states, index);
  for (guint i = self->transitions->len; i-- > 0;)
    {
      const TwAutomatonTransition *t = &g_array_index (self->transitions,
                                                       TwAutomatonTransition, i);

      if (g_strcmp0 (t->from, id) == 0 || g_strcmp0 (t->to, id) == 0)
        g_array_remove_index (self->transitions, i);
    }
}

guint
tw_automaton_get_n_transitions (TwAutomaton *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), 0);

  return self->transitions->len;
}

/**
 * tw_automaton_get_transition:
 *
 * Returns: (transfer none): the transition, valid until the automaton changes
 */
const TwAutomatonTransition *
tw_automaton_get_transition (TwAutomaton *self,
                             guint        index)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);
  g_return_val_if_fail (index < self->transitions->len, NULL);

  return &g_array_index (self->transitions, TwAutomatonTransition, index);
}

/**
 * tw_automaton_add_transition:
 * @event: (nullable): the event name, for %TW_LABEL_EVENT only
 * @task: which task an event label asks for (ignored for λ and *)
 * @task_field: which event column is compared with the instance's task
 *
 * Returns: the new transition's index
 */
guint
tw_automaton_add_transition (TwAutomaton *self,
                             const char  *from,
                             const char  *to,
                             TwLabelKind  label,
                             const char  *event,
                             TwTaskMatch  task,
                             TwTaskField  task_field)
{
  TwAutomatonTransition transition = {
    .from = g_strdup (from ? from : ""),
    .to = g_strdup (to ? to : ""),
    .label = label,
    .event = label == TW_LABEL_EVENT ? g_strdup (event ? event : "") : NULL,
    .task = label == TW_LABEL_EVENT ? task : TW_TASK_MATCH_ANY,
    .task_field = label == TW_LABEL_EVENT ? task_field : TW_TASK_FIELD_TASK,
  };

  g_return_val_if_fail (TW_IS_AUTOMATON (self), 0);

  g_array_append_val (self->transitions, transition);
  return self->transitions->len - 1;
}

guint
tw_automaton_add_event (TwAutomaton *self,
                        const char  *from,
                        const char  *to,
                        const char  *event,
                        TwTaskMatch  task)
{
  return tw_automaton_add_transition (self, from, to, TW_LABEL_EVENT, event, task,
                                      TW_TASK_FIELD_TASK);
}

guint
tw_automaton_add_lambda (TwAutomaton *self,
                         const char  *from,
                         const char  *to)
{
  return tw_automaton_add_transition (self, from, to, TW_LABEL_LAMBDA, NULL,
                                      TW_TASK_MATCH_ANY, TW_TASK_FIELD_TASK);
}

guint
tw_automaton_add_any (TwAutomaton *self,
                      const char  *from,
                      const char  *to)
{
  return tw_automaton_add_transition (self, from, to, TW_LABEL_ANY, NULL,
                                      TW_TASK_MATCH_ANY, TW_TASK_FIELD_TASK);
}

/**
 * tw_automaton_set_transition_extra:
 * @extra: (nullable) (transfer none): unknown JSON members to keep with the transition
 */
void
tw_automaton_set_transition_extra (TwAutomaton *self,
                                   guint        index,
                                   JsonObject  *extra)
{
  TwAutomatonTransition *transition;

  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->transitions->len);

  transition = &g_array_index (self->transitions, TwAutomatonTransition, index);
  if (extra)
    json_object_ref (extra);
  g_clear_pointer (&transition->extra, json_object_unref);
  transition->extra = extra;
}

void
tw_automaton_remove_transition (TwAutomaton *self,
                                guint        index)
{
  g_return_if_fail (TW_IS_AUTOMATON (self));
  g_return_if_fail (index < self->transitions->len);

  g_array_remove_index (self->transitions, index);
}

/**
 * tw_automaton_dup_event_names:
 *
 * Returns: (transfer full): the event names its labels match, each once, in transition
 *   order: raw type names and canonical kind names, as written
 */
GStrv
tw_automaton_dup_event_names (TwAutomaton *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);

  for (guint i = 0; i < self->transitions->len; i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (self, i);

      if (t->label == TW_LABEL_EVENT && g_hash_table_add (seen, t->event))
        g_strv_builder_add (builder, t->event);
    }
  return g_strv_builder_end (builder);
}

/**
 * tw_automaton_transition_dup_label:
 *
 * Returns: (transfer full): the transition's label as the paper writes it:
 *   `(E, i)`, `(E, not i)`, `E`, `λ` or `*` (" by arg" marks the arg task field)
 */
char *
tw_automaton_transition_dup_label (const TwAutomatonTransition *t)
{
  const char *field = t->task_field == TW_TASK_FIELD_ARG ? " by arg" : "";

  switch (t->label)
    {
    case TW_LABEL_LAMBDA:
      return g_strdup ("λ");
    case TW_LABEL_ANY:
      return g_strdup ("*");
    case TW_LABEL_EVENT:
    default:
      break;
    }
  switch (t->task)
    {
    case TW_TASK_MATCH_SAME:
      return g_strdup_printf ("(%s, i%s)", t->event, field);
    case TW_TASK_MATCH_OTHER:
      return g_strdup_printf ("(%s, not i%s)", t->event, field);
    case TW_TASK_MATCH_ANY:
    default:
      return g_strdup (t->event);
    }
}

/**
 * tw_automaton_dup_label:
 *
 * Returns: (transfer full): the label of transition number @transition, see
 *   tw_automaton_transition_dup_label()
 */
char *
tw_automaton_dup_label (TwAutomaton *self,
                        guint        transition)
{
  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);
  g_return_val_if_fail (transition < self->transitions->len, NULL);

  return tw_automaton_transition_dup_label (&g_array_index (self->transitions,
                                                            TwAutomatonTransition, transition));
}

/* validation */

static void
add_problem (GPtrArray            *problems,
             TwAutomatonErrorCode  code,
             const char           *state_id,
             const char           *format,
             ...) G_GNUC_PRINTF (4, 5);

static void
add_problem (GPtrArray            *problems,
             TwAutomatonErrorCode  code,
             const char           *state_id,
             const char           *format,
             ...)
{
  TwAutomatonProblem *problem = g_new0 (TwAutomatonProblem, 1);
  va_list args;

  va_start (args, format);
  problem->code = code;
  problem->state_id = g_strdup (state_id);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (problems, problem);
}

/* Whether two labels of equal specificity can match one same event (DESIGN §4): the
 * decision must never depend on the order of a state's exits. Event names are compared
 * as written; aliases that only a trace reveals (a raw name and its canonical kind) are
 * caught when the automaton is bound to a trace. */
static gboolean
labels_overlap (const TwAutomatonTransition *a,
                const TwAutomatonTransition *b)
{
  if (a->label == TW_LABEL_ANY || b->label == TW_LABEL_ANY)
    return a->label == b->label;
  if (g_strcmp0 (a->event, b->event) != 0)
    return FALSE;
  if (a->task == TW_TASK_MATCH_ANY || b->task == TW_TASK_MATCH_ANY)
    return a->task == b->task;
  /* (E, i) and (E, not i) exclude each other only when they look at the same column:
   * with different columns an event can have the instance's task in one and not the
   * other; and two same-kind qualifiers always share the events that satisfy both. */
  if (a->task != b->task)
    return a->task_field != b->task_field;
  return TRUE;
}

/**
 * tw_automaton_validate:
 *
 * Finds every design error of DESIGN §4 (overlapping labels of equal specificity, a λ
 * exit beside other exits, λ cycles, a λ exit from the initial state, unreachable
 * states, a non-`out` initial state) and every structural error (missing or unknown
 * initial state, empty or duplicate ids, transitions naming no state, event labels
 * without a name). Each problem names the state it is about.
 *
 * Returns: (transfer full) (element-type TwAutomatonProblem): the problems, empty when
 *   the automaton can run
 */
GPtrArray *
tw_automaton_validate (TwAutomaton *self)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) tw_automaton_problem_free);
  g_auto(TwAutomatonTables) tables = { 0 };
  const int *from, *to;
  g_autofree guint *n_exits = NULL;
  g_autofree guint *n_lambda = NULL;
  g_autofree gboolean *reached = NULL;
  guint n_states, n_transitions;
  int initial = -1;

  g_return_val_if_fail (TW_IS_AUTOMATON (self), NULL);

  n_states = self->states->len;
  n_transitions = self->transitions->len;

  if (n_states == 0)
    {
      add_problem (problems, TW_AUTOMATON_ERROR_NO_STATES, "",
                   "The automaton has no states");
      return g_steal_pointer (&problems);
    }

  /* state ids are looked up as the interpreter does: the first state of an id counts */
  _tw_automaton_tables_init (&tables, self);
  from = tables.from;
  to = tables.to;
  for (guint i = 0; i < n_states; i++)
    {
      const TwAutomatonState *s = &g_array_index (self->states, TwAutomatonState, i);

      if (s->id[0] == '\0')
        add_problem (problems, TW_AUTOMATON_ERROR_EMPTY_STATE_ID, "",
                     "State number %u has an empty id", i + 1);
      else if (_tw_automaton_tables_lookup_state (&tables, s->id) != (int) i)
        add_problem (problems, TW_AUTOMATON_ERROR_DUPLICATE_STATE, s->id,
                     "State “%s” is defined more than once", s->id);
    }

  if (self->initial == NULL || self->initial[0] == '\0')
    add_problem (problems, TW_AUTOMATON_ERROR_NO_INITIAL, "",
                 "The automaton has no initial state");
  else if (tables.initial < 0)
    add_problem (problems, TW_AUTOMATON_ERROR_UNKNOWN_INITIAL, self->initial,
                 "The initial state “%s” does not exist", self->initial);
  else
    {
      const TwAutomatonState *s;

      initial = tables.initial;
      s = &g_array_index (self->states, TwAutomatonState, initial);
      if (s->kind != TW_STATE_KIND_OUT)
        add_problem (problems, TW_AUTOMATON_ERROR_INITIAL_NOT_OUT, s->id,
                     "The initial state “%s” is of kind %s; it must be of kind out",
                     s->id, tw_state_kind_to_string (s->kind));
    }

  n_exits = g_new0 (guint, n_states);
  n_lambda = g_new0 (guint, n_states);

  for (guint i = 0; i < n_transitions; i++)
    {
      const TwAutomatonTransition *t = &g_array_index (self->transitions,
                                                       TwAutomatonTransition, i);

      if (from[i] < 0)
        add_problem (problems, TW_AUTOMATON_ERROR_UNKNOWN_STATE, t->from,
                     "Transition %u starts at “%s”, which is no state", i + 1, t->from);
      if (to[i] < 0)
        add_problem (problems, TW_AUTOMATON_ERROR_UNKNOWN_STATE, t->to,
                     "Transition %u from “%s” goes to “%s”, which is no state",
                     i + 1, t->from, t->to);
      if (t->label == TW_LABEL_EVENT && (t->event == NULL || t->event[0] == '\0'))
        add_problem (problems, TW_AUTOMATON_ERROR_EMPTY_EVENT, t->from,
                     "Transition %u from “%s” has an event label without an event name",
                     i + 1, t->from);
      if (from[i] < 0)
        continue;
      n_exits[from[i]]++;
      if (t->label == TW_LABEL_LAMBDA)
        n_lambda[from[i]]++;
    }

  /* labels of one state, pair by pair */
  for (guint a = 0; a < n_transitions; a++)
    {
      const TwAutomatonTransition *ta = &g_array_index (self->transitions,
                                                        TwAutomatonTransition, a);

      if (from[a] < 0 || ta->label == TW_LABEL_LAMBDA)
        continue;
      for (guint b = a + 1; b < n_transitions; b++)
        {
          const TwAutomatonTransition *tb = &g_array_index (self->transitions,
                                                            TwAutomatonTransition, b);
          g_autofree char *la = NULL;
          g_autofree char *lb = NULL;

          if (from[b] != from[a] || tb->label == TW_LABEL_LAMBDA || !labels_overlap (ta, tb))
            continue;
          la = tw_automaton_transition_dup_label (ta);
          lb = tw_automaton_transition_dup_label (tb);
          add_problem (problems, TW_AUTOMATON_ERROR_OVERLAPPING_LABELS, ta->from,
                       "State “%s” has two exits, %s to “%s” and %s to “%s”, that can "
                       "match the same event with equal specificity",
                       ta->from, la, ta->to, lb, tb->to);
        }
    }

  for (guint s = 0; s < n_states; s++)
    {
      const char *id = g_array_index (self->states, TwAutomatonState, s).id;

      if (n_lambda[s] > 0 && n_exits[s] > 1)
        add_problem (problems, TW_AUTOMATON_ERROR_LAMBDA_WITH_OTHER_EXITS, id,
                     "State “%s” has a λ exit and %u other exit%s; a λ exit must be "
                     "the state's only exit", id, n_exits[s] - 1, n_exits[s] > 2 ? "s" : "");
      if ((int) s == initial && n_lambda[s] > 0)
        add_problem (problems, TW_AUTOMATON_ERROR_LAMBDA_FROM_INITIAL, id,
                     "The initial state “%s” has a λ exit", id);
    }

  /* λ cycles: a state is on one when it reaches itself through λ exits alone. With
   * several λ exits per state (already an error) every one of them counts. */
  for (guint s = 0; s < n_states; s++)
    {
      g_autofree gboolean *seen = NULL;
      g_autoptr(GArray) stack = NULL;
      gboolean on_cycle = FALSE;

      if (n_lambda[s] == 0)
        continue;
      seen = g_new0 (gboolean, n_states);
      stack = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (stack, s);
      while (stack->len > 0 && !on_cycle)
        {
          guint u = g_array_index (stack, guint, stack->len - 1);

          g_array_set_size (stack, stack->len - 1);
          for (guint i = 0; i < n_transitions; i++)
            {
              const TwAutomatonTransition *t = &g_array_index (self->transitions,
                                                               TwAutomatonTransition, i);
              guint v;

              if (from[i] != (int) u || to[i] < 0 || t->label != TW_LABEL_LAMBDA)
                continue;
              v = (guint) to[i];
              if (v == s)
                {
                  on_cycle = TRUE;
                  break;
                }
              if (!seen[v])
                {
                  seen[v] = TRUE;
                  g_array_append_val (stack, v);
                }
            }
        }
      if (on_cycle)
        {
          const char *id = g_array_index (self->states, TwAutomatonState, s).id;

          add_problem (problems, TW_AUTOMATON_ERROR_LAMBDA_CYCLE, id,
                       "State “%s” is on a cycle of λ transitions", id);
        }
    }

  if (initial >= 0)
    {
      g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
      guint u = (guint) initial;

      reached = g_new0 (gboolean, n_states);
      reached[u] = TRUE;
      g_array_append_val (stack, u);
      while (stack->len > 0)
        {
          u = g_array_index (stack, guint, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
          for (guint i = 0; i < n_transitions; i++)
            {
              guint v;

              if (from[i] != (int) u || to[i] < 0 || reached[to[i]])
                continue;
              v = (guint) to[i];
              reached[v] = TRUE;
              g_array_append_val (stack, v);
            }
        }
      for (guint s = 0; s < n_states; s++)
        {
          const char *id = g_array_index (self->states, TwAutomatonState, s).id;

          /* a duplicate id is reported once, as a duplicate */
          if (!reached[s] && _tw_automaton_tables_lookup_state (&tables, id) == (int) s)
            add_problem (problems, TW_AUTOMATON_ERROR_UNREACHABLE, id,
                         "State “%s” cannot be reached from the initial state “%s”",
                         id, self->initial);
        }
    }

  return g_steal_pointer (&problems);
}

/**
 * tw_automaton_check:
 *
 * Validates and sums the problems up in one error, one problem per line.
 *
 * Returns: %TRUE when the automaton has no design error
 */
gboolean
tw_automaton_check (TwAutomaton  *self,
                    GError      **error)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GString) text = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON (self), FALSE);

  problems = tw_automaton_validate (self);
  if (problems->len == 0)
    return TRUE;

  text = g_string_new (NULL);
  g_string_append_printf (text, "Automaton “%s” has %u design error%s:",
                          self->name, problems->len, problems->len > 1 ? "s" : "");
  for (guint i = 0; i < problems->len; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);

      g_string_append_printf (text, "\n  %s", p->message);
    }
  g_set_error_literal (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_INVALID, text->str);
  return FALSE;
}
