/* tw-automaton.h: the metric automaton model and its design-error validation
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * TwStateKind:
 *
 * What visiting a state does to the measurement bookkeeping (DESIGN §4).
 */
typedef enum {
  TW_STATE_KIND_BEGIN = 0,
  TW_STATE_KIND_END,
  TW_STATE_KIND_CANCEL,
  TW_STATE_KIND_IN,
  TW_STATE_KIND_OUT,
  TW_STATE_KIND_COND,
  TW_N_STATE_KINDS
} TwStateKind;

const char *tw_state_kind_to_string   (TwStateKind  kind);
gboolean    tw_state_kind_from_string (const char  *name,
                                       TwStateKind *kind);

typedef enum {
  TW_LABEL_EVENT = 0, /* E, (E, i) or (E, not i) */
  TW_LABEL_LAMBDA,    /* λ: taken at once without consuming input */
  TW_LABEL_ANY,       /* *: taken when no other label of the state matches */
} TwLabelKind;

typedef enum {
  TW_TASK_MATCH_ANY = 0, /* E */
  TW_TASK_MATCH_SAME,    /* (E, i) */
  TW_TASK_MATCH_OTHER,   /* (E, not i) */
} TwTaskMatch;

/**
 * TwTaskField:
 * @TW_TASK_FIELD_TASK: the event's task column (who logged it; for a switch the task
 *   switched out)
 * @TW_TASK_FIELD_ARG: the event's arg column, for the kinds whose arg is a task index
 *   (switch: the task switched in; wakeup: the woken task; task_create: the created
 *   task; task_exit: the exiting task)
 *
 * Which column an `(E, i)` / `(E, not i)` label compares with the instance's task.
 * This is our extension of the paper's labels (docs/automata.md); instances are still
 * created from the task column only (DESIGN §4).
 */
typedef enum {
  TW_TASK_FIELD_TASK = 0,
  TW_TASK_FIELD_ARG,
} TwTaskField;

/**
 * TwAutomatonState:
 * @extra: (nullable): members of the state's JSON object that this version does not
 *   know, kept so that saving a file loses nothing
 */
typedef struct {
  char        *id;
  TwStateKind  kind;
  double       x;
  double       y;
  JsonObject  *extra;
} TwAutomatonState;

/**
 * TwAutomatonTransition:
 * @from: id of the source state (may name no state: validation reports it)
 * @to: id of the target state
 * @event: the event name for %TW_LABEL_EVENT (raw name or canonical kind name), else %NULL
 */
typedef struct {
  char        *from;
  char        *to;
  TwLabelKind  label;
  char        *event;
  TwTaskMatch  task;
  TwTaskField  task_field;
  JsonObject  *extra;
} TwAutomatonTransition;

typedef enum {
  TW_AUTOMATON_ERROR_NO_STATES,
  TW_AUTOMATON_ERROR_NO_INITIAL,
  TW_AUTOMATON_ERROR_UNKNOWN_INITIAL,
  TW_AUTOMATON_ERROR_EMPTY_STATE_ID,
  TW_AUTOMATON_ERROR_DUPLICATE_STATE,
  TW_AUTOMATON_ERROR_UNKNOWN_STATE,
  TW_AUTOMATON_ERROR_EMPTY_EVENT,
  TW_AUTOMATON_ERROR_INITIAL_NOT_OUT,
  TW_AUTOMATON_ERROR_OVERLAPPING_LABELS,
  TW_AUTOMATON_ERROR_LAMBDA_WITH_OTHER_EXITS,
  TW_AUTOMATON_ERROR_LAMBDA_CYCLE,
  TW_AUTOMATON_ERROR_LAMBDA_FROM_INITIAL,
  TW_AUTOMATON_ERROR_UNREACHABLE,
  TW_AUTOMATON_ERROR_INVALID,   /* the GError summary of a failed validation */
  TW_AUTOMATON_ERROR_BIND,      /* the automaton cannot run over a given trace */
} TwAutomatonErrorCode;

#define TW_AUTOMATON_ERROR (tw_automaton_error_quark ())
GQuark tw_automaton_error_quark (void);

/**
 * TwAutomatonProblem:
 * @code: what is wrong
 * @state_id: the id of the state the problem is about (what the designer marks)
 * @message: a sentence for users, naming the state
 *
 * One design error found by tw_automaton_validate().
 */
typedef struct {
  TwAutomatonErrorCode  code;
  char                 *state_id;
  char                 *message;
} TwAutomatonProblem;

void tw_automaton_problem_free (TwAutomatonProblem *problem);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwAutomatonProblem, tw_automaton_problem_free)

#define TW_TYPE_AUTOMATON (tw_automaton_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomaton, tw_automaton, TW, AUTOMATON, GObject)

TwAutomaton                 *tw_automaton_new                (const char   *name);

const char                  *tw_automaton_get_name           (TwAutomaton  *self);
void                         tw_automaton_set_name           (TwAutomaton  *self,
                                                              const char   *name);
const char                  *tw_automaton_get_initial        (TwAutomaton  *self);
void                         tw_automaton_set_initial        (TwAutomaton  *self,
                                                              const char   *state_id);
JsonObject                  *tw_automaton_get_extra          (TwAutomaton  *self);
void                         tw_automaton_set_extra          (TwAutomaton  *self,
                                                              JsonObject   *extra);

guint                        tw_automaton_get_n_states       (TwAutomaton  *self);
const TwAutomatonState      *tw_automaton_get_state          (TwAutomaton  *self,
                                                              guint         index);
int                          tw_automaton_find_state         (TwAutomaton  *self,
                                                              const char   *id);
guint                        tw_automaton_add_state          (TwAutomaton  *self,
                                                              const char   *id,
                                                              TwStateKind   kind,
                                                              double        x,
                                                              double        y);
void                         tw_automaton_set_state_kind     (TwAutomaton  *self,
                                                              guint         index,
                                                              TwStateKind   kind);
void                         tw_automaton_set_state_position (TwAutomaton  *self,
                                                              guint         index,
                                                              double        x,
                                                              double        y);
void                         tw_automaton_set_state_extra    (TwAutomaton  *self,
                                                              guint         index,
                                                              JsonObject   *extra);
void                         tw_automaton_remove_state       (TwAutomaton  *self,
                                                              guint         index);

guint                        tw_automaton_get_n_transitions  (TwAutomaton  *self);
const TwAutomatonTransition *tw_automaton_get_transition     (TwAutomaton  *self,
                                                              guint         index);
guint                        tw_automaton_add_transition     (TwAutomaton  *self,
                                                              const char   *from,
                                                              const char   *to,
                                                              TwLabelKind   label,
                                                              const char   *event,
                                                              TwTaskMatch   task,
                                                              TwTaskField   task_field);
guint                        tw_automaton_add_event          (TwAutomaton  *self,
                                                              const char   *from,
                                                              const char   *to,
                                                              const char   *event,
                                                              TwTaskMatch   task);
guint                        tw_automaton_add_lambda         (TwAutomaton  *self,
                                                              const char   *from,
                                                              const char   *to);
guint                        tw_automaton_add_any            (TwAutomaton  *self,
                                                              const char   *from,
                                                              const char   *to);
void                         tw_automaton_set_transition_extra (TwAutomaton *self,
                                                              guint         index,
                                                              JsonObject   *extra);
void                         tw_automaton_remove_transition  (TwAutomaton  *self,
                                                              guint         index);

char                        *tw_automaton_dup_label          (TwAutomaton  *self,
                                                              guint         transition);
char                        *tw_automaton_transition_dup_label (const TwAutomatonTransition *t);
GStrv                        tw_automaton_dup_event_names    (TwAutomaton  *self);

GPtrArray                   *tw_automaton_validate           (TwAutomaton  *self);
gboolean                     tw_automaton_check              (TwAutomaton  *self,
                                                              GError      **error);

G_END_DECLS
