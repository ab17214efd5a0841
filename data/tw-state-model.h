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

/* What a mark on a CPU row says: events were lost there, or the model repaired an
 * inconsistent sequence of switches (a repair ends a run the trace never ended). */
typedef enum {
  TW_CPU_MARK_LOST = 0,     /* a TW_EVENT_KIND_LOST event of the CPU */
  TW_CPU_MARK_STALE_RUN,    /* a switch here named another task as switched out than the
                             * one running: the switch-out of @task was lost */
  TW_CPU_MARK_DOUBLE_RUN,   /* @task, running here, was switched in on another CPU */
} TwCpuMarkKind;

/* An instant on a CPU row. For repairs, @index is the switch that showed the
 * inconsistency (on another CPU for TW_CPU_MARK_DOUBLE_RUN) and @task the task whose
 * run on this CPU ended here; its state is unknown from then on until the trace says. */
typedef struct {
  guint64 time;
  guint64 index;    /* event index in the trace */
  guint32 task;     /* TW_TASK_NONE for losses */
  guint32 kind;     /* TwCpuMarkKind */
} TwCpuMark;

typedef enum {
  TW_SERIES_CPU_RUNS,     /* id = CPU */
  TW_SERIES_CPU_IRQS,     /* id = CPU */
  TW_SERIES_TASK_STATES,  /* id = task */
  TW_SERIES_TASK_MARKS,   /* id = task */
  TW_SERIES_CPU_MARKS,    /* id = CPU */
} TwSeries;

/* What the elements of a series that meet one pixel column amount to, for painters.
 * @task: for TW_SERIES_CPU_RUNS, the first task in the column that is not idle, else
 *   TW_TASK_NONE (unused, TW_TASK_NONE, for the other series).
 * @bits: for CPU runs, TW_SUMMARY_RUN_*; for irqs, TW_SUMMARY_IRQ_BIT (lane, what) of
 *   every handler (lane = MIN (depth, 3) - 1); for task states, 1 << TwTaskState of every
 *   state; for marks, TW_SUMMARY_MARK_* of every mark; for CPU marks,
 *   TW_SUMMARY_CPU_MARK_* of every mark. */
typedef struct {
  guint32 task;
  guint32 bits;
} TwSummary;

#define TW_SUMMARY_RUN_ANY        (1u << 0)  /* something ran, idle or not */
#define TW_SUMMARY_RUN_IDLE       (1u << 1)  /* an idle task ran, or the trace says nothing did */
#define TW_SUMMARY_IRQ_LANES      3
#define TW_SUMMARY_IRQ_HARD       0
#define TW_SUMMARY_IRQ_SOFT       1
#define TW_SUMMARY_IRQ_UNCLOSED   2          /* no exit seen, whatever the kind */
#define TW_SUMMARY_IRQ_BIT(lane, what) (1u << ((lane) * 3 + (what)))
#define TW_SUMMARY_MARK_WAKEUP    (1u << 0)
#define TW_SUMMARY_MARK_MUTEX     (1u << 1)
#define TW_SUMMARY_MARK_OTHER     (1u << 2)  /* user, sensor, other */
#define TW_SUMMARY_CPU_MARK_LOST   (1u << 0)
#define TW_SUMMARY_CPU_MARK_REPAIR (1u << 1)

typedef enum {
  TW_SUMMARIZE_DEFAULT = 0,
  TW_SUMMARIZE_EXACT   = 1 << 0,  /* from the elements themselves, not the bins: same result */
} TwSummarizeFlags;

#define TW_TYPE_STATE_MODEL (tw_state_model_get_type ())
G_DECLARE_FINAL_TYPE (TwStateModel, tw_state_model, TW, STATE_MODEL, GObject)

TwStateModel         *tw_state_model_new              (TwTrace        *trace);
TwStateModel         *tw_state_model_new_window       (TwTrace        *trace,
                                                       guint64         first_event,
                                                       guint64         end_event);
TwTrace              *tw_state_model_get_trace        (TwStateModel   *self);
gboolean              tw_state_model_update           (TwStateModel   *self,
                                                       GCancellable   *cancellable,
                                                       GError        **error);
gboolean              tw_state_model_update_some      (TwStateModel   *self,
                                                       guint64         max_events,
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
const TwCpuMark      *tw_state_model_get_cpu_marks    (TwStateModel   *self,
                                                       guint           cpu,
                                                       gsize          *n_marks);
guint64               tw_state_model_get_cpu_repairs  (TwStateModel   *self,
                                                       guint           cpu);
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
void                  tw_state_model_summarize        (TwStateModel   *self,
                                                       TwSeries        series,
                                                       guint           id,
                                                       guint64         begin_ns,
                                                       double          ns_per_column,
                                                       guint           n_columns,
                                                       TwSummarizeFlags flags,
                                                       TwSummary      *out);
gsize                 tw_state_model_get_memory_size  (TwStateModel   *self);
gboolean              tw_state_model_get_from_cache   (TwStateModel   *self);

G_END_DECLS
