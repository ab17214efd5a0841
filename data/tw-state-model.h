/* tw-state-model.h: per-CPU and per-task intervals derived from the events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

/* What ran on a CPU in [start, end): a task index, or an idle task (TW_TASK_FLAG_IDLE),
 * or TW_TASK_NONE when the source says nothing runs. */
typedef struct {
  guint64 start;
  guint64 end;
  guint32 task;
} TwRunInterval;

typedef enum {
  TW_IRQ_HARD = 0,
  TW_IRQ_SOFT = 1,
} TwIrqKind;

/* An interrupt or softirq handler in [start, end) on one CPU; @depth 1 is the outermost. */
typedef struct {
  guint64 start;
  guint64 end;
  guint32 number;
  guint16 depth;
  guint8  kind;     /* TwIrqKind */
  guint8  unclosed; /* the trace ended (or the exit was lost) inside the handler */
} TwIrqInterval;

/* A task's state in [start, end); @cpu is the CPU it ran on while RUNNING. */
typedef struct {
  guint64 start;
  guint64 end;
  guint16 cpu;
  guint8  state;    /* TwTaskState */
} TwTaskInterval;

/* An instant event drawn on a task's row: user, sensor and mutex events of the task, and
 * wakeups on the woken task. */
typedef struct {
  guint64 time;
  guint64 index;    /* event index in the trace */
} TwTaskMark;

typedef enum {
  TW_SERIES_CPU_RUNS,     /* id = CPU */
  TW_SERIES_CPU_IRQS,     /* id = CPU */
  TW_SERIES_TASK_STATES,  /* id = task */
  TW_SERIES_TASK_MARKS,   /* id = task */
} TwSeries;

#define TW_TYPE_STATE_MODEL (tw_state_model_get_type ())
G_DECLARE_FINAL_TYPE (TwStateModel, tw_state_model, TW, STATE_MODEL, GObject)

TwStateModel         *tw_state_model_new              (TwTrace        *trace);
TwTrace              *tw_state_model_get_trace        (TwStateModel   *self);
gboolean              tw_state_model_update           (TwStateModel   *self,
                                                       GCancellable   *cancellable,
                                                       GError        **error);
guint64               tw_state_model_get_n_processed  (TwStateModel   *self);

guint                 tw_state_model_get_n_cpus       (TwStateModel   *self);
const TwRunInterval  *tw_state_model_get_cpu_runs     (TwStateModel   *self,
                                                       guint           cpu,
                                                       gsize          *n_runs);
const TwIrqInterval  *tw_state_model_get_cpu_irqs     (TwStateModel   *self,
                                                       guint           cpu,
                                                       gsize          *n_irqs);
const TwTaskInterval *tw_state_model_get_task_states  (TwStateModel   *self,
                                                       guint32         task,
                                                       gsize          *n_states);
const TwTaskMark     *tw_state_model_get_task_marks   (TwStateModel   *self,
                                                       guint32         task,
                                                       gsize          *n_marks);
gsize                 tw_state_model_lower_bound      (TwStateModel   *self,
                                                       TwSeries        series,
                                                       guint           id,
                                                       guint64         time_ns);
gsize                 tw_state_model_lower_bound_from (TwStateModel   *self,
                                                       TwSeries        series,
                                                       guint           id,
                                                       gsize           from,
                                                       guint64         time_ns);
guint32               tw_state_model_get_running_task (TwStateModel   *self,
                                                       guint           cpu,
                                                       guint64         time_ns);
TwTaskState           tw_state_model_get_task_state   (TwStateModel   *self,
                                                       guint32         task,
                                                       guint64         time_ns);
guint64               tw_state_model_get_task_cpu_time (TwStateModel  *self,
                                                       guint32         task);
gsize                 tw_state_model_get_memory_size  (TwStateModel   *self);

G_END_DECLS
