/* tw-explain.h: where the time of one measurement went, and the wakeup chain behind it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

#include "tw-measurement-table.h"

G_BEGIN_DECLS

/**
 * TwExplainKind:
 *
 * What the measured task was doing in a stretch of its measurement (docs/explain.md).
 * Every nanosecond of [begin, end) is in exactly one of them.
 */
typedef enum {
  TW_EXPLAIN_RUNNING = 0,         /* on a CPU, outside handlers */
  TW_EXPLAIN_INTERRUPTED,         /* the CPU's current task, inside a handler: @irq */
  TW_EXPLAIN_PREEMPTED,           /* runnable after it had run; @task ran on its CPU */
  TW_EXPLAIN_WAITING,             /* runnable since a wakeup, not yet run; @task ran */
  TW_EXPLAIN_BLOCKED,             /* sleeping; on @mutex owned by @owner where known */
  TW_EXPLAIN_PRIORITY_INVERSION,  /* blocked on @mutex owned by @owner while @task, not of
                                   * higher priority, ran */
  TW_EXPLAIN_LOST,                /* the trace lost events of the CPU there */
  TW_EXPLAIN_UNACCOUNTED,         /* the trace does not say */
  TW_N_EXPLAIN_KINDS
} TwExplainKind;

#define TW_EXPLAIN_PRIORITY_NONE G_MININT64
#define TW_EXPLAIN_MUTEX_NONE    G_MAXUINT32

/**
 * TwExplainComponent:
 *
 * The time of one kind and one "who", summed over the measurement.
 * @task: the task that ran meanwhile (PREEMPTED, WAITING, PRIORITY_INVERSION; an idle
 *   task or TW_TASK_NONE when the CPU idled or nothing is known), else TW_TASK_NONE
 * @priority: @task's priority as the trace's switch events give it (kernel numbering:
 *   lower is more urgent), TW_EXPLAIN_PRIORITY_NONE when they do not
 * @waker: who woke @task before its first run counted here (PREEMPTED), who woke the
 *   measured task (WAITING), TW_TASK_NONE when nobody or not known
 * @irq, @irq_kind: INTERRUPTED: the handler's number and TwIrqKind
 * @mutex, @owner: BLOCKED, PRIORITY_INVERSION: the mutex id and its owner when the
 *   wait began (TW_EXPLAIN_MUTEX_NONE, TW_TASK_NONE when the trace has no mutex events)
 * @n_stretches: how many separate stretches were summed
 */
typedef struct {
  TwExplainKind kind;
  guint32       task;
  guint32       waker;
  guint32       irq;
  guint32       irq_kind;
  guint32       mutex;
  guint32       owner;
  gint64        priority;
  guint64       time_ns;
  guint64       n_stretches;
} TwExplainComponent;

/* One stretch of the measurement, in time order: for drawing it. */
typedef struct {
  guint64 start;
  guint64 end;
  guint32 component;  /* index into the explanation's components */
  guint16 cpu;        /* the CPU it happened on, or TW_CPU_NONE */
} TwExplainStretch;

typedef enum {
  TW_EXPLAIN_STEP_WAKEUP = 0,   /* @task woken by @waker (a task, or TW_TASK_NONE) */
  TW_EXPLAIN_STEP_IRQ,          /* first cause: the wakeup ran in handler @irq */
  TW_EXPLAIN_STEP_RELEASE,      /* first cause: @task has no earlier wakeup in the trace */
  TW_EXPLAIN_STEP_UNKNOWN,      /* first cause: the waker is not known */
} TwExplainStepKind;

/**
 * TwExplainStep:
 *
 * One link of the critical path, from the measurement's wakeup back to its first cause.
 * @irq, @irq_kind: IRQ: the handler's number and TwIrqKind
 */
typedef struct {
  TwExplainStepKind kind;
  guint32           task;
  guint32           waker;
  guint32           irq;
  guint32           irq_kind;
  guint16           cpu;
  guint64           time;
  guint64           event;    /* event index, or TW_EVENT_NONE */
} TwExplainStep;

/**
 * TwExplanation:
 *
 * @components: TwExplainComponent, by decreasing time; their times sum to end − begin
 * @stretches: TwExplainStretch, in time order, covering [begin, end) without gaps
 * @path: TwExplainStep, the measurement's wakeup first
 */
typedef struct {
  TwMeasurementRow row;
  GArray          *components;
  GArray          *stretches;
  GArray          *path;
} TwExplanation;

TwExplanation *tw_explain_measurement      (TwStateModel             *model,
                                            const TwMeasurementRow   *row);
TwExplanation *tw_explain_measurement_in_window (TwTrace            *trace,
                                            const TwMeasurementRow   *row,
                                            guint64                  *n_events);
void           tw_explanation_free         (TwExplanation            *self);
guint64        tw_explanation_get_total    (const TwExplanation      *self);
guint64        tw_explanation_sum_kind     (const TwExplanation      *self,
                                            TwExplainKind             kind);
const TwExplainComponent *tw_explanation_find (const TwExplanation   *self,
                                            TwExplainKind             kind,
                                            guint32                   task);

const char    *tw_explain_kind_to_string   (TwExplainKind             kind);
char          *tw_explain_dup_who          (TwTrace                  *trace,
                                            const TwExplainComponent *component);
char          *tw_explain_dup_step         (TwTrace                  *trace,
                                            const TwExplainStep      *step);
char          *tw_explanation_to_json      (const TwExplanation      *self,
                                            TwTrace                  *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwExplanation, tw_explanation_free)

G_END_DECLS
