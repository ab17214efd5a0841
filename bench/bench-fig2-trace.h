/* bench-fig2-trace.h: a large simulated uniprocessor trace with the Fig. 2 event names
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shared by bench-automaton and bench-automaton-export: tasks log work, their user
 * events initial_event / final_event in turns, and interrupts either return to the
 * task (No_Preempt) or switch to another one (context_end).
 */
#pragma once

#include <tw-data.h>

static guint64 rng_state = 0x9e3779b97f4a7c15ull;

static inline guint32
next_random (void)
{
  /* xorshift64*: fast and good enough to shape a synthetic trace */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (guint32) ((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

enum { WORK, INITIAL, FINAL, INTERRUPT, TIMER, NO_PREEMPT, CONTEXT_END, N_TYPES };

static TwTrace *
build_trace (guint64 n_events,
             guint32 n_tasks)
{
  static const char * const names[N_TYPES] = {
    "work", "initial_event", "final_event", "interrupt", "timer", "No_Preempt", "context_end",
  };
  static const TwEventKind kinds[N_TYPES] = {
    TW_EVENT_KIND_OTHER, TW_EVENT_KIND_USER, TW_EVENT_KIND_USER, TW_EVENT_KIND_IRQ_ENTRY,
    TW_EVENT_KIND_OTHER, TW_EVENT_KIND_IRQ_EXIT, TW_EVENT_KIND_OTHER,
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autofree gboolean *measuring = g_new0 (gboolean, n_tasks);
  guint16 types[N_TYPES];
  TwEventChunk *chunk;
  guint64 time = 0, n = 0;
  guint32 current = 0;

  for (guint i = 0; i < N_TYPES; i++)
    types[i] = tw_trace_add_event_type (trace, names[i], NULL, kinds[i], NULL, 0, NULL);
  for (guint32 t = 0; t < n_tasks; t++)
    {
      g_autofree char *id = g_strdup_printf ("task%u", t);

      tw_trace_add_task (trace, id, id, t, t);
    }

  chunk = tw_trace_begin_append (trace);
#define PUSH(type, task, arg)                                                  \
  G_STMT_START {                                                               \
    if (chunk->n == TW_CHUNK_SIZE)                                             \
      {                                                                        \
        tw_trace_end_append (trace);                                           \
        chunk = tw_trace_begin_append (trace);                                 \
      }                                                                        \
    time += 1 + next_random () % 1000;                                         \
    tw_event_chunk_push (chunk, time, 0, types[type], task, arg, NULL, 0);     \
    n++;                                                                       \
  } G_STMT_END

  while (n < n_events)
    {
      guint32 r = next_random () % 100;

      if (r < 60)
        PUSH (WORK, current, 0);
      else if (r < 80)
        {
          PUSH (measuring[current] ? FINAL : INITIAL, current, 0);
          measuring[current] = !measuring[current];
        }
      else
        {
          PUSH (INTERRUPT, TW_TASK_NONE, 0);
          PUSH (TIMER, TW_TASK_NONE, 0);
          if (next_random () % 2)
            PUSH (NO_PREEMPT, TW_TASK_NONE, 0);
          else
            {
              current = next_random () % n_tasks;
              PUSH (CONTEXT_END, current, 0);
            }
        }
    }
#undef PUSH
  tw_trace_end_append (trace);
  g_assert (tw_trace_seal (trace, NULL, NULL));
  return g_steal_pointer (&trace);
}
