/* bench-eval.c: evaluation throughput of the built-in metrics over a large synthetic trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-eval [N_EVENTS [METRIC]]   (default 100 M events, every metric)
 *
 * Builds a scheduling-like trace on 4 CPUs (switches, wakeups, irqs with wakeups
 * inside, softirqs, job start/end and S.Ha.R.K.-style activation/end-of-cycle events)
 * with the store's hot append path, then runs each built-in metric over it with one
 * histogram insert per measurement, and prints events/s beside GRTMon's figure (~400
 * cycles per element, Riegel 2005 §5.3) converted with this CPU's clock.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tw-evaluators.h>

#define N_CPUS  4
#define N_TASKS 256

enum {
  T_SWITCH, T_WAKEUP, T_IRQ_IN, T_IRQ_OUT, T_SOFT_IN, T_SOFT_OUT,
  T_ACTIVATE, T_END_CYCLE, T_JOB_START, T_JOB_END, T_TICK, N_TYPES
};

static guint64
xorshift (guint64 *s)
{
  guint64 x = *s;

  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return *s = x;
}

static TwTrace *
build_trace (guint64 n_events)
{
  static const struct { const char *name; TwEventKind kind; } types[N_TYPES] = {
    { "sched_switch", TW_EVENT_KIND_SWITCH },
    { "sched_wakeup", TW_EVENT_KIND_WAKEUP },
    { "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY },
    { "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT },
    { "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY },
    { "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT },
    { "task_activate", TW_EVENT_KIND_OTHER },
    { "task_end_cycle", TW_EVENT_KIND_OTHER },
    { "job_start", TW_EVENT_KIND_USER },
    { "job_end", TW_EVENT_KIND_USER },
    { "tick", TW_EVENT_KIND_USER },
  };
  TwTrace *trace = tw_trace_new ();
  guint16 ids[N_TYPES];
  guint32 current[N_CPUS];
  guint step[N_CPUS] = { 0 };
  guint32 next[N_CPUS] = { 0 };
  guint64 seed = 0x9E3779B97F4A7C15ull;
  guint64 time = 0;
  TwEventChunk *chunk;

  for (guint t = 0; t < N_TYPES; t++)
    ids[t] = tw_trace_add_event_type (trace, types[t].name, NULL, types[t].kind, NULL, 0, NULL);
  for (guint t = 0; t < N_TASKS; t++)
    {
      char id[16];

      g_snprintf (id, sizeof id, "%u", 100 + t);
      tw_trace_add_task (trace, id, "worker", 100 + t, 100 + t);
    }
  for (guint c = 0; c < N_CPUS; c++)
    current[c] = c;

  chunk = tw_trace_begin_append (trace);
  for (guint64 i = 0; i < n_events; i++)
    {
      guint64 r = xorshift (&seed);
      guint cpu = r & (N_CPUS - 1);
      guint32 task = current[cpu];
      guint type;
      guint32 arg = 0;

      time += 1 + ((r >> 8) & 63);
      /* Each CPU walks a job: wakeup, switch in, activation, an irq that wakes the
       * next task, a softirq, a tick, end of cycle. */
      switch (step[cpu]++ % 12)
        {
        case 0:
          next[cpu] = (guint32) (cpu + N_CPUS * ((r >> 20) % (N_TASKS / N_CPUS)));
          type = T_WAKEUP, arg = next[cpu];
          break;
        case 1:
          type = T_SWITCH, arg = next[cpu];
          current[cpu] = next[cpu];
          break;
        case 2:  type = T_ACTIVATE, task = current[cpu]; break;
        case 3:  type = T_JOB_START; break;
        case 4:  type = T_IRQ_IN, arg = 16 + (r >> 40) % 8; break;
        case 5:  type = T_WAKEUP, arg = (task + N_CPUS) % N_TASKS; break;
        case 6:  type = T_IRQ_OUT, arg = 0xFFFFFFFFu; break; /* fixed below */
        case 7:  type = T_SOFT_IN, arg = 1 + (r >> 30) % 9; break;
        case 8:  type = T_SOFT_OUT, arg = 0xFFFFFFFFu; break;
        case 9:  type = T_TICK; break;
        case 10: type = T_JOB_END; break;
        default: type = T_END_CYCLE; break;
        }
      /* exits name the number their entry used: remembered per CPU */
      {
        static guint32 open_irq[N_CPUS], open_soft[N_CPUS];

        if (type == T_IRQ_IN)
          open_irq[cpu] = arg;
        else if (type == T_IRQ_OUT)
          arg = open_irq[cpu];
        else if (type == T_SOFT_IN)
          open_soft[cpu] = arg;
        else if (type == T_SOFT_OUT)
          arg = open_soft[cpu];
      }

      if G_UNLIKELY (chunk->n == TW_CHUNK_SIZE)
        chunk = tw_trace_begin_append (trace);
      tw_event_chunk_push (chunk, time, cpu, ids[type], task, arg, NULL, 0);
    }
  tw_trace_end_append (trace);
  tw_trace_seal (trace, NULL, NULL);
  return trace;
}

static double
cpu_mhz (void)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL) ||
      (p = strstr (text, "cpu MHz")) == NULL || (p = strchr (p, ':')) == NULL)
    return 0;
  return g_ascii_strtod (p + 1, NULL);
}

/* The machine is shared: CPU time of this thread is the figure, wall time beside it. */
static double
thread_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
run (TwTrace    *trace,
     const char *label,
     TwMetric  **metrics,
     guint       n_metrics,
     double      mhz)
{
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  g_autoptr(GPtrArray) hists = g_ptr_array_new_with_free_func (g_object_unref);
  guint64 n = tw_trace_get_n_events (trace);
  guint64 measurements = 0;
  gint64 start, end;
  double cpu_start, seconds, rate;

  for (guint m = 0; m < n_metrics; m++)
    {
      TwHistogram *h = tw_histogram_new_auto (64, TW_HISTOGRAM_SCALE_LINEAR);
      g_autoptr(TwUpdate) update = tw_metric_create_update (metrics[m], NULL, h);

      g_ptr_array_add (hists, h);
      tw_evaluation_add_update (evaluation, update, NULL);
    }
  start = g_get_monotonic_time ();
  cpu_start = thread_seconds ();
  tw_evaluation_run (evaluation, NULL, NULL, NULL, NULL);
  tw_evaluation_finish (evaluation);
  seconds = thread_seconds () - cpu_start;
  end = g_get_monotonic_time ();

  for (guint m = 0; m < hists->len; m++)
    measurements += tw_histogram_get_count (hists->pdata[m]);
  rate = n / seconds;
  printf ("%-30s %7.1f M events/s %6.2f ns/event %6.1f cycles/event (wall %6.1f M/s) %9"
          G_GUINT64_FORMAT " measurements\n",
          label, rate / 1e6, 1e9 / rate, mhz > 0 ? mhz * 1e6 / rate : 0,
          n / ((end - start) / 1e6) / 1e6, measurements);
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_events = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 100000000;
  const char *only = argc > 2 ? argv[2] : NULL;
  double mhz = cpu_mhz ();
  g_autoptr(TwTrace) trace = NULL;
  static const char *const names[] = {
    "irq-duration", "softirq-duration", "run-slice", "wakeup-latency", "wakeup-handler",
    "response-time", "inter-arrival:tick", "jitter:tick",
  };
  TwMetric *metrics[G_N_ELEMENTS (names) + 1];
  gint64 t0;

  if (n_events == 0)
    {
      fprintf (stderr, "usage: bench-eval [N_EVENTS [METRIC]]\n");
      return 2;
    }

  t0 = g_get_monotonic_time ();
  trace = build_trace (n_events);
  printf ("synthetic trace: %" G_GUINT64_FORMAT " events on %d CPUs, %d tasks, built in %.1f s\n",
          tw_trace_get_n_events (trace), N_CPUS, N_TASKS, (g_get_monotonic_time () - t0) / 1e6);
  printf ("figures: thread CPU time, one histogram insert per measurement\n");
  printf ("peer: GRTMon ~400 cycles per element (Riegel 2005 §5.3) = %.1f M events/s at this "
          "CPU's %.0f MHz; target ≥ 50 M events/s\n\n", mhz > 0 ? mhz / 400 : 0, mhz);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      metrics[i] = tw_metric_new_system (names[i], NULL);
      if (only == NULL || strcmp (only, names[i]) == 0)
        run (trace, names[i], &metrics[i], 1, mhz);
    }
  metrics[G_N_ELEMENTS (names)] = tw_metric_new_user ("job", "job_start", "job_end", FALSE);
  if (only == NULL || strcmp (only, "user") == 0)
    run (trace, "user metric job_start,job_end", &metrics[G_N_ELEMENTS (names)], 1, mhz);
  if (only == NULL)
    run (trace, "all of the above in one pass", metrics, G_N_ELEMENTS (metrics), mhz);

  for (guint i = 0; i < G_N_ELEMENTS (metrics); i++)
    g_object_unref (metrics[i]);
  return 0;
}
