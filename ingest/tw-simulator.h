/* tw-simulator.h: a fixed-priority preemptive single-CPU system that writes S.Ha.R.K. dumps
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct {
  guint64 seed;
  guint   n_tasks;              /* periodic tasks, 1–64 */
  double  utilization;          /* total WCET / period of the periodic tasks */
  guint   cpu_mhz;              /* TSC rate; cycles_per_msec = cpu_mhz * 1000 */
  guint64 max_events;           /* records written, the last is trace_stop */
  double  overrun_probability;  /* a job runs 2.5 × its WCET with this probability */
  guint   timer_period_us;      /* the periodic timer interrupt */
  guint   irq_mean_interval_us; /* mean gap between sporadic interrupts, 0 = none */
} TwSimulatorOptions;

#define TW_SIMULATOR_MAX_IRQ 16  /* irq numbers it raises: the timer's 0 and devices' */

/* Where the time of one job went, [release, end of cycle), as the simulator's own state
 * says at each record it writes (docs/explain.md, "Ground truth"). Arrays are by truth
 * index (the periodic tasks, then the idle task): who was the current task meanwhile. */
typedef struct {
  guint64  begin_ns;                          /* its task_activate; 0: no job tracked */
  guint64  end_ns;                            /* its task_end_cycle */
  guint64  running_ns;                        /* current task, outside handlers */
  guint64  interrupted_ns[TW_SIMULATOR_MAX_IRQ]; /* current task, inside handler N */
  guint64 *preempted_ns;                      /* ready after it had run */
  guint64 *waiting_ns;                        /* ready since its release or an unlock */
  guint64 *inversion_ns;                      /* waiting for the mutex while a task
                                               * other than its owner ran */
  guint64  blocked_ns;                        /* waiting for the mutex, its owner or
                                               * the idle task ran */
  gint     owner;                             /* truth index of the mutex owner when it
                                               * waited, -1 */
} TwSimulatorJobTruth;

/* What the simulator knows of the trace it wrote, counted as it wrote it. */
typedef struct {
  guint16 ctx;
  gint64  pid;
  guint64 jobs_released;   /* task_activate records */
  guint64 jobs_completed;  /* job end markers (user_event_1) */
  guint64 deadline_misses; /* task_deadline_miss records */
  guint64 cpu_time_ns;     /* between a context_switch to the task and the next one */
  TwSimulatorJobTruth worst_job; /* its longest job released while none was pending */
} TwSimulatorTaskTruth;

typedef struct {
  guint64               n_events;
  guint64               first_ns;
  guint64               last_ns;
  guint64               cycles_per_msec;
  guint64               type_counts[256];  /* by event code */
  guint                 n_contexts;        /* distinct task contexts in the records */
  guint64               deadline_misses;
  guint                 n_tasks;           /* the periodic tasks, then the idle task */
  TwSimulatorTaskTruth *tasks;
} TwSimulatorTruth;

void              tw_simulator_options_init (TwSimulatorOptions        *options);
gboolean          tw_simulator_write_file   (const TwSimulatorOptions  *options,
                                             const char                *path,
                                             TwSimulatorTruth         **truth,
                                             GError                   **error);
GBytes           *tw_simulator_generate     (const TwSimulatorOptions  *options,
                                             TwSimulatorTruth         **truth,
                                             GError                   **error);
char             *tw_simulator_truth_to_json (const TwSimulatorTruth   *truth);
void              tw_simulator_truth_free   (TwSimulatorTruth          *truth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwSimulatorTruth, tw_simulator_truth_free)

G_END_DECLS
