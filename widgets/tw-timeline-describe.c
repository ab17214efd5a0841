/* tw-timeline-describe.c: what the timeline's tooltips say about what is drawn
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-timeline-describe.h"
#include "tw-timeline-painter.h"

/* Events sharing the irq's entry time looked at to find its entry: a few on one CPU,
 * more when every CPU logged at the same ns. */
#define ENTRY_SCAN_LIMIT 256

/* Events looked at, back from a loss, for the last one its CPU kept before it. */
#define LOSS_SCAN_LIMIT 65536

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

/**
 * tw_timeline_describe_event:
 *
 * Returns: (transfer full) (nullable): "sched_switch at 933.349603 s", its task and its
 *   arguments, one per line; %NULL when there is no such event
 */
char *
tw_timeline_describe_event (TwTrace *trace,
                            guint64  index)
{
  g_autofree char *args = NULL;
  g_autofree char *task = NULL;
  g_autofree char *time = NULL;
  TwEvent ev;

  if (!tw_trace_get_event (trace, index, &ev))
    return NULL;
  args = tw_trace_format_args (trace, &ev);
  task = tw_trace_dup_task_label (trace, ev.task);
  time = tw_timeline_format_time (ev.time, 1);
  return g_strdup_printf ("%s at %s\n%s%s%s", tw_trace_get_event_type (trace, ev.type)->name,
                          time, task, *args ? "\n" : "", args);
}

/**
 * tw_timeline_describe_loss:
 * @event: a lost event (TW_EVENT_KIND_LOST)
 *
 * Returns: (transfer full): what a CPU row writes beside the loss: "2248 lost",
 *   "3 packets lost", "lost" when the source did not count
 */
char *
tw_timeline_describe_loss (TwTrace       *trace,
                           const TwEvent *event)
{
  g_autofree char *n = NULL;
  TwValue value;

  if (tw_trace_get_event_field (trace, event, "count", &value))
    {
      n = g_strdup_printf ("%" G_GUINT64_FORMAT, value.u);
      /* TRANSLATORS: a number of events the tracer lost, written beside its mark */
      return g_strdup_printf (_("%s lost"), n);
    }
  if (tw_trace_get_event_field (trace, event, "packets", &value))
    {
      n = g_strdup_printf ("%" G_GUINT64_FORMAT, value.u);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s packet lost", "%s packets lost",
                                           value.u), n);
    }
  return g_strdup (_("lost"));
}

/* Where the gap of a loss began: its `since`, else the CPU's last event before it. */
static guint64
loss_since (TwTrace       *trace,
            const TwEvent *loss)
{
  TwValue value;

  if (tw_trace_get_event_field (trace, loss, "since", &value))
    return value.u;
  for (guint64 i = loss->index, k = 0; i > 0 && k < LOSS_SCAN_LIMIT; i--, k++)
    {
      TwEvent ev;

      if (tw_trace_get_event (trace, i - 1, &ev) && ev.cpu == loss->cpu)
        return ev.time;
    }
  return TW_TIME_NONE;
}

/* "2248 events lost on CPU 1", "1 packet lost on CPU 0 (its events were not counted)" */
static char *
dup_loss_headline (TwTrace       *trace,
                   const TwEvent *ev)
{
  g_autofree char *n = NULL;
  TwValue value;

  if (tw_trace_get_event_field (trace, ev, "count", &value))
    {
      n = g_strdup_printf ("%" G_GUINT64_FORMAT, value.u);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event lost on CPU %u",
                                           "%s events lost on CPU %u", value.u), n, ev->cpu);
    }
  if (tw_trace_get_event_field (trace, ev, "packets", &value))
    {
      n = g_strdup_printf ("%" G_GUINT64_FORMAT, value.u);
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "%s packet lost on CPU %u (its events were not counted)",
                                           "%s packets lost on CPU %u (their events were not counted)",
                                           value.u), n, ev->cpu);
    }
  return g_strdup_printf (_("Events lost on CPU %u (the tracer did not count them)"), ev->cpu);
}

static char *
describe_lost_mark (TwTrace         *trace,
                    const TwCpuMark *mark)
{
  g_autofree char *headline = NULL;
  g_autofree char *until = tw_timeline_format_time (mark->time, 1);
  g_autofree char *from = NULL;
  guint64 since;
  TwEvent ev;

  if (!tw_trace_get_event (trace, mark->index, &ev))
    return NULL;
  headline = dup_loss_headline (trace, &ev);
  since = loss_since (trace, &ev);
  if (since == TW_TIME_NONE)
    return g_strdup_printf (_("%s before %s\n"
                              "What ran meanwhile is not in the trace."), headline, until);
  from = tw_timeline_format_time (since, 1);
  return g_strdup_printf (_("%s between %s and %s\n"
                            "What ran meanwhile is not in the trace; measurements across the gap "
                            "are flagged."), headline, from, until);
}

/**
 * tw_timeline_describe_cpu_mark:
 *
 * Returns: (transfer full) (nullable): what a mark on @cpu's row stands for: the loss,
 *   or the repair and the switch that called for it
 */
char *
tw_timeline_describe_cpu_mark (TwTrace         *trace,
                               guint            cpu,
                               const TwCpuMark *mark)
{
  g_autofree char *task = tw_trace_dup_task_label (trace, mark->task);
  g_autofree char *when = tw_timeline_format_time (mark->time, 1);
  g_autofree char *named = NULL;
  TwEvent sw;

  if (mark->kind == TW_CPU_MARK_LOST)
    return describe_lost_mark (trace, mark);
  if (!tw_trace_get_event (trace, mark->index, &sw))
    return NULL;
  if (mark->kind == TW_CPU_MARK_DOUBLE_RUN)
    return g_strdup_printf (_("Repaired at %s: %s, running on CPU %u, was switched in on CPU %u\n"
                              "Its switch-out here was lost (or the CPUs' clocks disagree): "
                              "its run here ends."),
                            when, task, cpu, sw.cpu);
  named = tw_trace_dup_task_label (trace, sw.task);
  return g_strdup_printf (_("Repaired at %s: the switch names %s as switched out, but %s was "
                            "running on CPU %u\n"
                            "A switch was lost: %s's run here ends, its state is unknown until "
                            "the trace says."),
                          when, named, task, cpu, task);
}
