/* tw-timeline-describe.c: what the timeline's tooltips say about what is drawn
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-timeline-describe.h"

/* Events sharing the irq's entry time looked at to find its entry: a few on one CPU,
 * more when every CPU logged at the same ns. */
#define ENTRY_SCAN_LIMIT 256

/* The event that opened @irq: its kind of entry, on @cpu, for its number, at its start. */
static gboolean
find_entry (TwTrace             *trace,
            guint                cpu,
            const TwIrqInterval *irq,
            TwEvent             *entry)
{
  TwEventKind kind = irq->kind == TW_IRQ_HARD ? TW_EVENT_KIND_IRQ_ENTRY : TW_EVENT_KIND_SOFTIRQ_ENTRY;
  guint64 n = tw_trace_get_n_events (trace);
  guint64 i = tw_trace_find_first_at_or_after (trace, irq->start);

  for (guint k = 0; k < ENTRY_SCAN_LIMIT && i < n; k++, i++)
    {
      if (!tw_trace_get_event (trace, i, entry) || entry->time != irq->start)
        return FALSE;
      if (entry->cpu == cpu && entry->arg == irq->number
          && tw_trace_get_event_type (trace, entry->type)->kind == kind)
        return TRUE;
    }
  return FALSE;
}

/* The string field @name of @event, or NULL. */
static const char *
string_field (TwTrace       *trace,
              const TwEvent *event,
              const char    *name)
{
  TwValue value;

  if (!tw_trace_get_event_field (trace, event, name, &value) || value.type != TW_FIELD_STRING)
    return NULL;
  return tw_trace_get_string (trace, value.str);
}

/**
 * tw_timeline_describe_irq:
 *
 * Returns: (transfer full): "irq=36 name=virtio1-req.0 on CPU 2", "softirq vec=7
 *   action=SCHED on CPU 0": the handler's name as the entry event's payload gives it
 *   (ftrace's and LTTng's irq_handler_entry `name`, softirq_entry's `action`), the number
 *   alone when it has none
 */
char *
tw_timeline_describe_irq (TwTrace             *trace,
                          guint                cpu,
                          const TwIrqInterval *irq)
{
  gboolean hard = irq->kind == TW_IRQ_HARD;
  const char *handler = NULL;
  g_autofree char *named = NULL;
  TwEvent entry;

  if (find_entry (trace, cpu, irq, &entry))
    handler = string_field (trace, &entry, hard ? "name" : "action");
  if (handler && *handler)
    named = g_strdup_printf (" %s=%s", hard ? "name" : "action", handler);
  return g_strdup_printf ("%s=%u%s on CPU %u%s", hard ? "irq" : "softirq vec", irq->number,
                          named ? named : "", cpu, irq->unclosed ? " (no exit seen)" : "");
}
