/* tw-span.c: one interval of the state model that a user picked
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-span.h"
#include "tw-timeline-painter.h"

/*
 * What Details shows for a picked span, as Trace Compass and KernelShark users read it:
 * whose it is, where, its ends to the ns, how long, and its neighbours in the same
 * series — what ran before and after on that CPU, the state a task left and entered,
 * the handler before and after — with the gaps between them.
 */

G_DEFINE_BOXED_TYPE (TwSpanRef, tw_span_ref, tw_span_ref_copy, tw_span_ref_free)

TwSpanRef *
tw_span_ref_copy (const TwSpanRef *span)
{
  return g_memdup2 (span, sizeof *span);
}

void
tw_span_ref_free (TwSpanRef *span)
{
  g_free (span);
}

gboolean
tw_span_ref_equal (const TwSpanRef *a,
                   const TwSpanRef *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return a->series == b->series && a->id == b->id && a->index == b->index
         && a->begin == b->begin && a->end == b->end;
}

static char *
dup_task_text (TwTrace *trace,
               guint32  task)
{
  g_autofree char *label = tw_trace_dup_task_label (trace, task);
  const TwTask *t = tw_trace_get_task (trace, task);

  if (t && (t->flags & TW_TASK_FLAG_IDLE))
    return g_strdup_printf (_("%s (idle)"), label);
  return g_steal_pointer (&label);
}

static char *
dup_state_text (const TwTaskInterval *state)
{
  if (state->state == TW_TASK_STATE_RUNNING)
    return g_strdup_printf (_("running on CPU %u"), state->cpu);
  return g_strdup (tw_task_state_to_string (state->state));
}

static char *
dup_irq_text (const TwIrqInterval *irq,
              guint                cpu)
{
  return g_strdup_printf (irq->kind == TW_IRQ_HARD ? _("irq %u on CPU %u") : _("softirq %u on CPU %u"),
                          irq->number, cpu);
}

/* "task 2, 1.2 µs before" / "…, 3 µs after": a neighbour and the gap to it. */
static char *
dup_neighbour_text (const char *what,
                    guint64     gap,
                    gboolean    before)
{
  g_autofree char *d = NULL;

  if (gap == 0)
    return g_strdup_printf (before ? _("%s, up to its start") : _("%s, from its end"), what);
  d = tw_timeline_format_duration (gap);
  return g_strdup_printf (before ? _("%s, ended %s before") : _("%s, began %s after"), what, d);
}

/**
 * tw_span_ref_dup_title:
 *
 * Returns: (transfer full): what the span is: "alpha-10 on CPU 1", "alpha-10 ready",
 *   "irq 19 on CPU 0"
 */
char *
tw_span_ref_dup_title (const TwSpanRef *span,
                       TwStateModel    *model)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  gsize n;

  switch (span->series)
    {
    case TW_SERIES_CPU_RUNS:
      {
        const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, span->id, &n);
        g_autofree char *task = span->index < n ? dup_task_text (trace, runs[span->index].task) : NULL;

        return g_strdup_printf (_("%s on CPU %u"), task ? task : "?", span->id);
      }
    case TW_SERIES_CPU_IRQS:
      {
        const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (model, span->id, &n);

        return span->index < n ? dup_irq_text (&irqs[span->index], span->id) : g_strdup ("?");
      }
    case TW_SERIES_TASK_STATES:
    case TW_SERIES_TASK_MARKS:
    default:
      {
        const TwTaskInterval *states = tw_state_model_get_task_states (model, span->id, &n);
        g_autofree char *task = dup_task_text (trace, span->id);
        g_autofree char *state = span->index < n ? dup_state_text (&states[span->index]) : NULL;

        return g_strdup_printf ("%s %s", task, state ? state : "?");
      }
    }
}

static void
describe_run (const TwSpanRef *span,
              TwStateModel    *model,
              TwSpanFieldFunc  func,
              gpointer         user_data)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  gsize n;
  const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, span->id, &n);
  g_autofree char *task = dup_task_text (trace, runs[span->index].task);
  g_autofree char *cpu = g_strdup_printf ("%u", span->id);

  func (_("Task"), task, user_data);
  func (_("CPU"), cpu, user_data);
  if (span->index > 0)
    {
      g_autofree char *prev = dup_task_text (trace, runs[span->index - 1].task);
      g_autofree char *text = dup_neighbour_text (prev, span->begin - MIN (runs[span->index - 1].end, span->begin), TRUE);
      func (_("Preceded by"), text, user_data);
    }
  if (span->index + 1 < n)
    {
      g_autofree char *next = dup_task_text (trace, runs[span->index + 1].task);
      g_autofree char *text = dup_neighbour_text (next, MAX (runs[span->index + 1].start, span->end) - span->end, FALSE);
      func (_("Followed by"), text, user_data);
    }
}

static void
describe_irq (const TwSpanRef *span,
              TwStateModel    *model,
              TwSpanFieldFunc  func,
              gpointer         user_data)
{
  gsize n;
  const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (model, span->id, &n);
  const TwIrqInterval *irq = &irqs[span->index];
  g_autofree char *number = g_strdup_printf ("%u", irq->number);
  g_autofree char *cpu = g_strdup_printf ("%u", span->id);
  g_autofree char *depth = g_strdup_printf (irq->depth == 1 ? _("%u (outermost)") : _("%u (nested)"),
                                            irq->depth);

  func (irq->kind == TW_IRQ_HARD ? _("IRQ") : _("Softirq vector"), number, user_data);
  func (_("CPU"), cpu, user_data);
  func (_("Nesting level"), depth, user_data);
  if (irq->unclosed)
    func (_("Exit"), _("none seen: the trace ended, or lost it"), user_data);
  if (span->index > 0)
    {
      g_autofree char *prev = dup_irq_text (&irqs[span->index - 1], span->id);
      g_autofree char *text = dup_neighbour_text (prev, span->begin - MIN (irqs[span->index - 1].end, span->begin), TRUE);
      func (_("Preceded by"), text, user_data);
    }
  if (span->index + 1 < n)
    {
      g_autofree char *next = dup_irq_text (&irqs[span->index + 1], span->id);
      g_autofree char *text = dup_neighbour_text (next, MAX (irqs[span->index + 1].start, span->end) - span->end, FALSE);
      func (_("Followed by"), text, user_data);
    }
}

static void
describe_state (const TwSpanRef *span,
                TwStateModel    *model,
                TwSpanFieldFunc  func,
                gpointer         user_data)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  gsize n;
  const TwTaskInterval *states = tw_state_model_get_task_states (model, span->id, &n);
  g_autofree char *task = dup_task_text (trace, span->id);
  g_autofree char *state = dup_state_text (&states[span->index]);

  func (_("Task"), task, user_data);
  func (_("State"), state, user_data);
  if (span->index > 0)
    {
      g_autofree char *prev = dup_state_text (&states[span->index - 1]);
      g_autofree char *d = tw_timeline_format_duration (states[span->index - 1].end - states[span->index - 1].start);
      g_autofree char *text = g_strdup_printf (_("%s for %s"), prev, d);
      func (_("Preceded by"), text, user_data);
    }
  if (span->index + 1 < n)
    {
      g_autofree char *next = dup_state_text (&states[span->index + 1]);
      g_autofree char *d = tw_timeline_format_duration (states[span->index + 1].end - states[span->index + 1].start);
      g_autofree char *text = g_strdup_printf (_("%s for %s"), next, d);
      func (_("Followed by"), text, user_data);
    }
}

/**
 * tw_span_ref_describe:
 * @func: (scope call): gets each line
 *
 * Describes @span line by line: whose and where, begin and end to the ns, its length,
 * and what preceded and followed it in its series.
 */
void
tw_span_ref_describe (const TwSpanRef *span,
                      TwStateModel    *model,
                      TwSpanFieldFunc  func,
                      gpointer         user_data)
{
  g_autofree char *title = NULL;
  g_autofree char *begin = NULL;
  g_autofree char *end = NULL;
  g_autofree char *duration = NULL;
  gsize n = 0;

  g_return_if_fail (span != NULL);
  g_return_if_fail (TW_IS_STATE_MODEL (model));

  if (span->series == TW_SERIES_CPU_RUNS)
    tw_state_model_get_cpu_runs (model, span->id, &n);
  else if (span->series == TW_SERIES_CPU_IRQS)
    tw_state_model_get_cpu_irqs (model, span->id, &n);
  else if (span->series == TW_SERIES_TASK_STATES)
    tw_state_model_get_task_states (model, span->id, &n);
  g_return_if_fail (span->index < n);

  title = tw_span_ref_dup_title (span, model);
  begin = tw_timeline_format_time (span->begin, 1);
  end = tw_timeline_format_time (span->end, 1);
  duration = tw_timeline_format_duration (span->end - span->begin);
  func (_("Span"), title, user_data);
  func (_("Begin"), begin, user_data);
  func (_("End"), end, user_data);
  func (_("Duration"), duration, user_data);

  if (span->series == TW_SERIES_CPU_RUNS)
    describe_run (span, model, func, user_data);
  else if (span->series == TW_SERIES_CPU_IRQS)
    describe_irq (span, model, func, user_data);
  else
    describe_state (span, model, func, user_data);
}
