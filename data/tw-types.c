/* tw-types.c: names of the canonical kinds and task states
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-types.h"

static const char * const kind_names[TW_N_EVENT_KINDS] = {
  [TW_EVENT_KIND_OTHER] = "other",
  [TW_EVENT_KIND_SWITCH] = "switch",
  [TW_EVENT_KIND_WAKEUP] = "wakeup",
  [TW_EVENT_KIND_IRQ_ENTRY] = "irq_entry",
  [TW_EVENT_KIND_IRQ_EXIT] = "irq_exit",
  [TW_EVENT_KIND_SOFTIRQ_ENTRY] = "softirq_entry",
  [TW_EVENT_KIND_SOFTIRQ_EXIT] = "softirq_exit",
  [TW_EVENT_KIND_TASK_CREATE] = "task_create",
  [TW_EVENT_KIND_TASK_EXIT] = "task_exit",
  [TW_EVENT_KIND_USER] = "user",
  [TW_EVENT_KIND_MUTEX_LOCK] = "mutex_lock",
  [TW_EVENT_KIND_MUTEX_UNLOCK] = "mutex_unlock",
  [TW_EVENT_KIND_MUTEX_WAIT] = "mutex_wait",
  [TW_EVENT_KIND_SENSOR] = "sensor",
  [TW_EVENT_KIND_LOST] = "lost",
};

const char *
tw_event_kind_to_string (TwEventKind kind)
{
  g_return_val_if_fail (kind < TW_N_EVENT_KINDS, "other");

  return kind_names[kind];
}

/**
 * tw_event_kind_from_string:
 * @name: an event name
 * @kind: (out): the kind when @name is one of the canonical names
 *
 * Returns: %TRUE when @name names a canonical kind ("other" does not count: it is
 *   what every non-canonical event already is).
 */
gboolean
tw_event_kind_from_string (const char  *name,
                           TwEventKind *kind)
{
  for (guint i = TW_EVENT_KIND_OTHER + 1; i < TW_N_EVENT_KINDS; i++)
    {
      if (g_strcmp0 (name, kind_names[i]) == 0)
        {
          *kind = i;
          return TRUE;
        }
    }
  return FALSE;
}

const char *
tw_task_state_to_string (TwTaskState state)
{
  switch (state)
    {
    case TW_TASK_STATE_RUNNING: return "running";
    case TW_TASK_STATE_READY:   return "ready";
    case TW_TASK_STATE_BLOCKED: return "blocked";
    case TW_TASK_STATE_DEAD:    return "dead";
    case TW_TASK_STATE_UNKNOWN:
    default:                    return "unknown";
    }
}
