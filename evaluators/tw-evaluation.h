/* tw-evaluation.h: runs updates over a trace in strict time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-event-costs.h"
#include "tw-update.h"

G_BEGIN_DECLS

#define TW_EVALUATION_ERROR (tw_evaluation_error_quark ())

typedef enum {
  TW_EVALUATION_ERROR_FAILED,
  TW_EVALUATION_ERROR_BIND,
} TwEvaluationError;

GQuark tw_evaluation_error_quark (void);

/* Whether the source still holds event @index as it was when it was prepared (a live
 * sensor may have overwritten it meanwhile); called after prepare, before commit. */
typedef gboolean (*TwEvaluationCheckFunc) (guint64  index,
                                           gpointer user_data);

/**
 * TwEventCostCounters:
 * @cpu: per CPU number: the tracing cost (ps) of the events evaluated on it before the
 *   current one (TW_CPU_NONE's stays 0); never moves
 * @trace: the cost (ps) of every event evaluated before the current one
 * @current: the cost (ps) of the current event
 * @current_cpu: the current event's CPU
 *
 * The per-type tracing costs of tw_evaluation_use_event_costs() summed the way the
 * event counts are (tw_evaluation_get_cpu_counts(), an event's index), so that an
 * update that counts a measurement's intermediate events as a difference of counts
 * gets their cost, exactly, as the same difference of these.
 */
typedef struct {
  guint64 *cpu;
  guint64  trace;
  guint64  current;
  guint16  current_cpu;
} TwEventCostCounters;

#define TW_TYPE_EVALUATION (tw_evaluation_get_type ())
G_DECLARE_FINAL_TYPE (TwEvaluation, tw_evaluation, TW, EVALUATION, GObject)

TwEvaluation *tw_evaluation_new             (TwTrace        *trace);
TwTrace      *tw_evaluation_get_trace       (TwEvaluation   *self);
guint64       tw_evaluation_get_position    (TwEvaluation   *self);
guint         tw_evaluation_get_n_updates   (TwEvaluation   *self);
guint64       tw_evaluation_get_cpu_event_count (TwEvaluation *self,
                                             guint16         cpu);
const guint64 *tw_evaluation_get_cpu_counts (TwEvaluation   *self);
gboolean      tw_evaluation_use_event_costs (TwEvaluation   *self,
                                             TwEventCosts   *costs,
                                             GError        **error);
const TwEventCostCounters *tw_evaluation_get_cost_counters (TwEvaluation *self);

void          tw_evaluation_set_check_func  (TwEvaluation   *self,
                                             TwEvaluationCheckFunc check,
                                             gpointer        user_data);
gboolean      tw_evaluation_add_update      (TwEvaluation   *self,
                                             TwUpdate       *update,
                                             GError        **error);
void          tw_evaluation_remove_update   (TwEvaluation   *self,
                                             TwUpdate       *update);
void          tw_evaluation_report_error    (TwEvaluation   *self,
                                             GError         *error);

gboolean      tw_evaluation_run_to          (TwEvaluation   *self,
                                             guint64         end,
                                             TwProgressFunc  progress,
                                             gpointer        progress_data,
                                             GCancellable   *cancellable,
                                             GError        **error);
gboolean      tw_evaluation_run             (TwEvaluation   *self,
                                             TwProgressFunc  progress,
                                             gpointer        progress_data,
                                             GCancellable   *cancellable,
                                             GError        **error);
void          tw_evaluation_finish          (TwEvaluation   *self);

gboolean      tw_evaluation_run_update      (TwTrace        *trace,
                                             TwUpdate       *update,
                                             TwProgressFunc  progress,
                                             gpointer        progress_data,
                                             GCancellable   *cancellable,
                                             GError        **error);

G_END_DECLS
