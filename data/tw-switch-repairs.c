/* tw-switch-repairs.c: the state model's switch repairs, counted without the model
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-switch-repairs.h"

/*
 * `tracewb-cli info` prints how many switches the state model repaired, and nothing
 * else of the model: building its runs, states, marks and level-of-detail bins for that
 * was half of what info cost on a big trace.dat beyond reading it. A repair depends on
 * two things only — which task each CPU runs and on which CPU each task runs — so this
 * pass keeps just those, read from the type, CPU, task and arg columns (no payload),
 * and follows tw-state-model.c (handle_switch(), end_stale_run(), end_double_run() and
 * the TASK_EXIT case of tw_state_model_update()) decision for decision. The other
 * events the model handles change a task's state among states that are not running
 * (a wakeup makes a sleeping task ready; a switch-out's prev_state is never read back
 * as running on a CPU), so they cannot change a count. tests/data/test-switch-repairs.c
 * compares both on every trace of the fixtures and the shared traces.
 */

enum {
  ROLE_NONE,
  ROLE_SWITCH,
  ROLE_EXIT,
};

/* What the model knows of a CPU for repairs: whether a run is open and whose. */
typedef struct {
  guint32  task;
  gboolean run_open;
} CpuRun;

typedef struct {
  GArray  *cpus;       /* CpuRun */
  GArray  *repairs;    /* guint64 per CPU */
  guint8  *tracked;    /* per task of the table: neither idle nor TW_TASK_NONE */
  guint16 *running_on; /* per task of the table: the CPU the model has it running on,
                        * TW_CPU_NONE when it is not running (or runs on no CPU) */
  guint32  n_tasks;
} Pass;

static inline CpuRun *
cpu_run (Pass *pass,
         guint cpu)
{
  if G_UNLIKELY (cpu >= pass->cpus->len)
    {
      g_array_set_size (pass->cpus, cpu + 1);
      g_array_set_size (pass->repairs, cpu + 1);
    }
  return &g_array_index (pass->cpus, CpuRun, cpu);
}

static inline gboolean
is_tracked (const Pass *pass,
            guint32     task)
{
  return task < pass->n_tasks && pass->tracked[task];
}

static inline void
add_repair (Pass *pass,
            guint cpu)
{
  g_array_index (pass->repairs, guint64, cpu)++;
}

/* handle_switch() of the state model, its repairs and running tasks only */
static void
pass_switch (Pass    *pass,
             guint16  cpu,
             guint32  prev,
             guint32  next)
{
  if (cpu != TW_CPU_NONE)
    {
      CpuRun *run = cpu_run (pass, cpu);

      /* a stale run: the CPU ran another task than the one switched out */
      if (run->run_open && run->task != prev && prev != TW_TASK_NONE && run->task != TW_TASK_NONE)
        {
          if (is_tracked (pass, run->task) && pass->running_on[run->task] == cpu)
            pass->running_on[run->task] = TW_CPU_NONE;
          add_repair (pass, cpu);
        }
      run->task = next;
      run->run_open = TRUE;
    }

  if (is_tracked (pass, prev) && prev != next)
    {
      guint16 on = pass->running_on[prev];

      if (on == TW_CPU_NONE || on == cpu || cpu == TW_CPU_NONE)
        pass->running_on[prev] = TW_CPU_NONE;
    }
  if (is_tracked (pass, next))
    {
      guint16 other = pass->running_on[next];

      /* a double run: @next still runs on another CPU, whose run ends here */
      if (cpu != TW_CPU_NONE && other != TW_CPU_NONE && other != cpu)
        {
          CpuRun *there = cpu_run (pass, other);

          if (there->run_open && there->task == next)
            there->run_open = FALSE;
          add_repair (pass, other);
        }
      pass->running_on[next] = cpu;
    }
}

/**
 * tw_switch_repairs_count:
 *
 * Counts, per CPU, the switches the state model repairs over the events of @trace:
 * tw_state_model_get_cpu_repairs() of a model updated over all of them, at a fraction
 * of the cost.
 *
 * Returns: (transfer full) (element-type guint64): repairs per CPU, as many CPUs as
 *   the trace's switches name (CPUs past the last one had none)
 */
GArray *
tw_switch_repairs_count (TwTrace *trace)
{
  Pass pass = { 0 };
  guint n_types;
  guint64 n;
  g_autofree guint8 *roles = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  pass.cpus = g_array_new (FALSE, TRUE, sizeof (CpuRun));
  pass.repairs = g_array_new (FALSE, TRUE, sizeof (guint64));

  n_types = tw_trace_get_n_event_types (trace);
  roles = g_new0 (guint8, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    {
      TwEventKind kind = tw_trace_get_event_type (trace, t)->kind;

      roles[t] = kind == TW_EVENT_KIND_SWITCH ? ROLE_SWITCH
               : kind == TW_EVENT_KIND_TASK_EXIT ? ROLE_EXIT : ROLE_NONE;
    }

  pass.n_tasks = tw_trace_get_n_tasks (trace);
  pass.tracked = g_new (guint8, MAX (pass.n_tasks, 1));
  pass.running_on = g_new (guint16, MAX (pass.n_tasks, 1));
  for (guint32 k = 0; k < pass.n_tasks; k++)
    {
      const TwTask *task = tw_trace_get_task (trace, k);

      pass.tracked[k] = task != NULL && !(task->flags & TW_TASK_FLAG_IDLE);
      pass.running_on[k] = TW_CPU_NONE;
    }

  n = tw_trace_get_n_events (trace);
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      guint rows = (guint) MIN ((guint64) chunk->n, n - ((guint64) c << TW_CHUNK_SHIFT));

      for (guint r = 0; r < rows; r++)
        {
          guint16 type = chunk->type[r];
          guint8 role = type < n_types ? roles[type] : ROLE_NONE;

          if G_LIKELY (role == ROLE_NONE)
            continue;
          if (role == ROLE_SWITCH)
            pass_switch (&pass, chunk->cpu[r], chunk->task[r], chunk->arg[r]);
          else if (is_tracked (&pass, chunk->arg[r]))
            pass.running_on[chunk->arg[r]] = TW_CPU_NONE;
        }
    }

  g_array_unref (pass.cpus);
  g_free (pass.tracked);
  g_free (pass.running_on);
  return pass.repairs;
}
