/* tw-cli-evaluator-choice.h: the options that choose an evaluator, for eval and compare
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-evaluators.h>

G_BEGIN_DECLS

typedef struct {
  char *metric_name;
  char *user_metric;
  char *plugin_path;
  char *automaton_path;
} TwCliEvaluatorChoice;

void                tw_cli_evaluator_choice_clear       (TwCliEvaluatorChoice  *self);
void                tw_cli_evaluator_choice_add_entries (TwCliEvaluatorChoice  *self,
                                                         GOptionContext        *context);
guint               tw_cli_evaluator_choice_count       (TwCliEvaluatorChoice  *self);
TwEvaluator        *tw_cli_evaluator_choice_create      (TwCliEvaluatorChoice  *self,
                                                         const char           **named,
                                                         GError               **error);

/* How a command treats the tracing cost of events (Espinosa 2003 §2). */
typedef struct {
  const char *event_cost;   /* --event-cost: a cost with its unit, "calibrated", or NULL */
  gboolean    compensated;  /* --compensated: statistics and worst cases without it */
} TwCliCompensation;

TwMeasurementTable *tw_cli_evaluate                     (const char            *command,
                                                         TwEvaluator           *evaluator,
                                                         const char            *named,
                                                         const char            *path,
                                                         const char            *format,
                                                         const TwCliCompensation *compensation,
                                                         TwHistogram           *histogram,
                                                         TwTrace              **trace,
                                                         GError               **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TwCliEvaluatorChoice, tw_cli_evaluator_choice_clear)

G_END_DECLS
