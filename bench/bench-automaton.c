/* bench-automaton.c: interpreter throughput with the paper's Fig. 2 automaton
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Builds a large simulated uniprocessor trace (MaRTE OS event names, as in Fig. 2):
 * tasks log work, their user events initial_event / final_event in turns, and
 * interrupts either return to the task (No_Preempt) or switch to another one
 * (context_end). Prints the interpreter's events/s beside a plain scan of the same
 * columns (the memory-bound ceiling of any evaluator reading the store) and the
 * DESIGN §7 target; then the same automaton as a TwEvaluator, the way the Evaluations
 * tab, the designer and `tracewb-cli eval` run it (TwEvaluation, table and histogram).
 *
 * usage: bench-automaton [N_EVENTS (default 50000000)] [N_TASKS (default 16)]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <tw-evaluators.h>

#include "bench-fig2-trace.h"

/* CPU time of this thread: the machine may be shared, and waiting for a core is not
 * the interpreter's cost */
static double
thread_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static guint64
scan (TwTrace *trace)
{
  guint64 sum = 0;

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      for (guint i = 0; i < chunk->n; i++)
        sum += chunk->time[i] ^ chunk->type[i] ^ chunk->task[i] ^ chunk->arg[i];
    }
  return sum;
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_events = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 50000000;
  guint32 n_tasks = argc > 2 ? (guint32) g_ascii_strtoull (argv[2], NULL, 10) : 16;
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(TwAutomatonEvaluator) evaluator = NULL;
  double best_interp = 0, best_scan = 0, best_evaluator = 0;
  gsize n_measurements = 0, n_segments = 0;
  guint64 sink = 0;

  if (n_events == 0 || n_tasks == 0)
    {
      fprintf (stderr, "usage: %s [N_EVENTS] [N_TASKS]\n", argv[0]);
      return 2;
    }
  automaton = tw_automaton_load (path, &error);
  if (automaton == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  evaluator = tw_automaton_evaluator_new (automaton, &error);
  if (evaluator == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }

  trace = build_trace (n_events, n_tasks);
  n_events = tw_trace_get_n_events (trace);
  printf ("trace: %" G_GUINT64_FORMAT " events, %u tasks, %.0f MiB of core columns\n",
          n_events, n_tasks, tw_trace_get_memory_size (trace) / 1048576.0);

  for (int round = 0; round < 3; round++)
    {
      double t0, t1;

      t0 = thread_seconds ();
      sink += scan (trace);
      t1 = thread_seconds ();
      best_scan = MAX (best_scan, n_events / (t1 - t0));

      g_clear_object (&interp);
      interp = tw_automaton_interp_new (automaton, trace, &error);
      if (interp == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      t0 = thread_seconds ();
      if (!tw_automaton_interp_run (interp, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      t1 = thread_seconds ();
      best_interp = MAX (best_interp, n_events / (t1 - t0));
      n_measurements = tw_automaton_interp_get_n_measurements (interp);
      n_segments = 0;
      for (gsize i = 0; i < n_measurements; i++)
        n_segments += tw_automaton_interp_get_measurement (interp, i)->n_segments;

      {
        g_autoptr(TwHistogram) histogram = tw_histogram_new_auto (50, TW_HISTOGRAM_SCALE_LINEAR);
        g_autoptr(TwMeasurementTable) table = NULL;

        t0 = thread_seconds ();
        table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), trace, histogram, NULL, NULL, NULL,
                                       &error);
        t1 = thread_seconds ();
        if (table == NULL || tw_measurement_table_get_n_rows (table) != n_measurements)
          {
            fprintf (stderr, "the evaluator measured %zu, the interpreter %zu\n",
                     table ? tw_measurement_table_get_n_rows (table) : 0, n_measurements);
            return 1;
          }
        best_evaluator = MAX (best_evaluator, n_events / (t1 - t0));
      }
    }

  printf ("(rates per second of thread CPU time, best of 3)\n");
  printf ("measurements: %zu, segments: %zu (scan checksum %" G_GUINT64_FORMAT ")\n",
          n_measurements, n_segments, sink);
  printf ("plain column scan (ceiling):      %8.1f M events/s\n", best_scan / 1e6);
  printf ("automaton interpreter (Fig. 2):  %8.1f M events/s  (%.1f ns/event)\n",
          best_interp / 1e6, 1e9 / best_interp);
  printf ("as a TwEvaluator (table, histogram): %5.1f M events/s  (%.1f ns/event)\n",
          best_evaluator / 1e6, 1e9 / best_evaluator);
  printf ("DESIGN §7 target:                    30.0 M events/s; GRTMon: ~400 cycles/element\n");
  return 0;
}
