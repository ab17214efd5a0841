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

/* What the simulator knows of the trace it wrote, counted as it wrote it. */
typedef struct {
  guint16 ctx;
  gint64  pid;
  guint64 jobs_released;   /* task_activate records */
  guint64 jobs_completed;  /* job end markers (user_event_1) */
  guint64 deadline_misses; /* task_deadline_miss records */
  guint64 cpu_time_ns;     /* between a context_switch to the task and the next one */
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
