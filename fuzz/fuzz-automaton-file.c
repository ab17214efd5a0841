/* fuzz-automaton-file.c: the automaton file reader, validation and interpreter on
 * hostile input
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever the bytes: loading either fails with an error or gives an automaton whose
 * saved form loads again to the same saved form; a valid automaton runs over a small
 * trace with every canonical kind, raw names and taskless events.
 */
#include "config.h"

#include <tw-evaluators.h>

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static TwTrace *
small_trace (void)
{
  static const TwEventKind kinds[] = {
    TW_EVENT_KIND_SWITCH, TW_EVENT_KIND_WAKEUP, TW_EVENT_KIND_IRQ_ENTRY,
    TW_EVENT_KIND_IRQ_EXIT, TW_EVENT_KIND_USER, TW_EVENT_KIND_OTHER,
  };
  static const char * const names[] = { "sched_switch", "sched_wakeup", "irq", "irq_exit",
                                        "user_mark", "E" };
  TwTrace *trace = tw_trace_new ();
  guint16 types[G_N_ELEMENTS (kinds)];

  for (guint i = 0; i < 4; i++)
    {
      g_autofree char *id = g_strdup_printf ("t%u", i);

      tw_trace_add_task (trace, id, id, i, i);
    }
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    types[i] = tw_trace_add_event_type (trace, names[i], NULL, kinds[i], NULL, 0, NULL);
  for (guint i = 0; i < 400; i++)
    {
      guint32 task = (i * 7) % 5;

      tw_trace_append (trace, i / 3, 0, types[(i * 5) % G_N_ELEMENTS (types)],
                       task == 4 ? TW_TASK_NONE : task, (i * 3) % 4, NULL);
    }
  tw_trace_seal (trace, NULL, NULL);
  return trace;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static TwTrace *trace;
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(TwAutomaton) again = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *saved_again = NULL;

  if (size > G_MAXSSIZE)
    return 0;
  if (trace == NULL)
    trace = small_trace ();

  automaton = tw_automaton_load_from_data ((const char *) data, (gssize) size, "fuzz.json",
                                           &error);
  if (automaton == NULL)
    {
      g_assert (error != NULL && error->message[0] != '\0');
      return 0;
    }

  saved = tw_automaton_to_data (automaton, NULL);
  again = tw_automaton_load_from_data (saved, -1, "saved.json", &error);
  g_assert (again != NULL);
  saved_again = tw_automaton_to_data (again, NULL);
  g_assert (g_str_equal (saved, saved_again));

  problems = tw_automaton_validate (automaton);
  if (problems->len == 0)
    {
      g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (automaton, trace, &error);

      if (interp != NULL)
        g_assert (tw_automaton_interp_run (interp, &error));
    }
  return 0;
}
