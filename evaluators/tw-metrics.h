/* tw-metrics.h: built-in system metrics and the Metrics interface (Espinosa 2003 §2)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-evaluator-interface.h"

G_BEGIN_DECLS

#define TW_METRIC_ERROR (tw_metric_error_quark ())

typedef enum {
  TW_METRIC_ERROR_UNKNOWN,     /* no system metric of that name */
  TW_METRIC_ERROR_INVALID,     /* bad parameter */
  TW_METRIC_ERROR_NO_DATA,     /* the trace has nothing to measure */
  TW_METRIC_ERROR_UNKNOWN_EVENT, /* it names an event the trace does not have */
} TwMetricError;

GQuark tw_metric_error_quark (void);

/**
 * TwMetricInfo:
 * @name: what tw_metric_new_system() takes
 * @parameter: (nullable): what may follow the name after a colon, e.g. "EVENT"
 * @description: one line
 */
typedef struct {
  const char *name;
  const char *parameter;
  const char *description;
} TwMetricInfo;

const TwMetricInfo *tw_metrics_get_system_metrics (guint *n_metrics);

/*
 * Results are TwMeasurementRow rows (task, begin, end, length, intermediate events: the
 * paper's Fig. 1). Intermediate events, as the paper means them ("number of trace
 * events detected while making the measure", the tracing overhead inside Length),
 * count the events strictly between the measurement's begin and end event (those two
 * excluded) that fall inside the measured activity:
 *
 * | metric               | length                                  | intermediate events                    |
 * |----------------------|-----------------------------------------|----------------------------------------|
 * | irq-duration         | exit − entry (nested handlers included) | events on that CPU in between          |
 * | softirq-duration     | exit − entry                            | events on that CPU in between          |
 * | run-slice            | switch out − switch in                  | events on that CPU in between          |
 * | wakeup-latency       | switch in − wakeup                      | events of the whole trace in between   |
 * | wakeup-handler       | handler exit − entry                    | events on that CPU in between          |
 * | response-time        | end − start event (wall time)           | events of the whole trace in between   |
 * | inter-arrival, jitter| see tw_metrics_get_system_metrics()     | events of the whole trace in between   |
 * | user metric, system  | end − start (wall time)                 | events on the task's CPU while it was  |
 * |                      |                                         | the CPU's current task (handlers too)  |
 * | user metric, no sys. | the task's running time outside irq and | events on the task's CPU while it ran  |
 * |                      | softirq handlers (preemption excluded)  | outside handlers                       |
 *
 * An event counts as "while it ran" by the state just before the event: a switch out
 * of the task and the irq entry that interrupts it count, the switch in does not.
 *
 * The task of response-time, inter-arrival, jitter and user-metric measurements is the
 * event's subject: the woken / created / switched-in task (arg column) for wakeup,
 * task_create and switch events, else the task that logged it (S.Ha.R.K.'s
 * task_activate is a wakeup of the activated task logged by the activator). A START
 * while the task's job is still open queues the next job, which begins when the open
 * one ends (response time counted from its own START).
 */

/* System and user metrics alike are TwEvaluators (tw-evaluator-interface.h). */
#define TW_TYPE_METRIC (tw_metric_get_type ())
G_DECLARE_FINAL_TYPE (TwMetric, tw_metric, TW, METRIC, GObject)

TwMetric           *tw_metric_new_system           (const char          *name,
                                                    GError             **error);
TwMetric           *tw_metric_new_user             (const char          *name,
                                                    const char          *initial_event,
                                                    const char          *final_event,
                                                    gboolean             include_system);

const char         *tw_metric_get_name             (TwMetric            *self);
const char         *tw_metric_get_description      (TwMetric            *self);
gboolean            tw_metric_is_user              (TwMetric            *self);
const char *const  *tw_metric_get_column_names     (TwMetric            *self);
gboolean            tw_metric_check_events         (TwMetric            *self,
                                                    TwTrace             *trace,
                                                    GError             **error);

TwUpdate           *tw_metric_create_update        (TwMetric            *self,
                                                    TwMeasurementTable  *table,
                                                    TwHistogram         *histogram);
TwMeasurementTable *tw_metric_new_table            (TwMetric            *self);

G_END_DECLS
