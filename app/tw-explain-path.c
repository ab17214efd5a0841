/* tw-explain-path.c: an explanation of a measurement as a path over the timeline's rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-explain-path.h"

/*
 * The timeline knows rows and times, the explanation knows causes: this is where one
 * becomes the other (docs/explain.md, "On the timeline"). Each stretch of the breakdown
 * is tinted on the row of whoever had the time: the task that preempted the measured
 * one or ran while it waited, the CPU whose handler interrupted it, the owner of the
 * mutex it blocked on. Each wakeup of the critical path is a link from the waker's row
 * to the woken task's; a wakeup done inside a handler comes from the CPU's row, where
 * the handler is tinted from its start, and so does one done by an idle CPU.
 */

static gboolean
is_task (TwTrace *trace,
         guint32  task)
{
  const TwTask *t = task != TW_TASK_NONE ? tw_trace_get_task (trace, task) : NULL;

  return t != NULL && !(t->flags & TW_TASK_FLAG_IDLE);
}

/* A task's row, or the CPU's when the task is idle or not known. */
static TwTimelinePlace
task_or_cpu (TwTrace *trace,
             guint32  task,
             guint16  cpu)
{
  return is_task (trace, task) ? tw_timeline_place_task (task) : tw_timeline_place_cpu (cpu);
}

static void
add_stretch (TwTimelineHighlight    *h,
             TwTrace                *trace,
             const TwExplanation    *e,
             const TwExplainStretch *s)
{
  const TwExplainComponent *c = &g_array_index (e->components, TwExplainComponent, s->component);

  switch (c->kind)
    {
    case TW_EXPLAIN_INTERRUPTED:
      tw_timeline_highlight_add_segment (h, tw_timeline_place_cpu (s->cpu), TW_TIMELINE_HIGHLIGHT_IRQ,
                                         s->start, s->end);
      break;
    case TW_EXPLAIN_PREEMPTED:
    case TW_EXPLAIN_WAITING:
      tw_timeline_highlight_add_segment (h, task_or_cpu (trace, c->task, s->cpu),
                                         TW_TIMELINE_HIGHLIGHT_CULPRIT, s->start, s->end);
      break;
    case TW_EXPLAIN_PRIORITY_INVERSION:
      tw_timeline_highlight_add_segment (h, task_or_cpu (trace, c->task, s->cpu),
                                         TW_TIMELINE_HIGHLIGHT_CULPRIT, s->start, s->end);
      G_GNUC_FALLTHROUGH;
    case TW_EXPLAIN_BLOCKED:
      tw_timeline_highlight_add_segment (h, tw_timeline_place_task (c->owner != TW_TASK_NONE ? c->owner : e->row.task),
                                         TW_TIMELINE_HIGHLIGHT_BLOCKED, s->start, s->end);
      break;
    case TW_EXPLAIN_LOST:
      tw_timeline_highlight_add_segment (h, tw_timeline_place_cpu (s->cpu), TW_TIMELINE_HIGHLIGHT_LOST,
                                         s->start, s->end);
      break;
    case TW_EXPLAIN_RUNNING:
    case TW_EXPLAIN_UNACCOUNTED:
    case TW_N_EXPLAIN_KINDS:
    default:
      break;
    }
}

static void
add_step (TwTimelineHighlight *h,
          TwTrace             *trace,
          const TwExplanation *e,
          guint                i)
{
  const TwExplainStep *step = &g_array_index (e->path, TwExplainStep, i);
  const TwExplainStep *cause = i + 1 < e->path->len ? &g_array_index (e->path, TwExplainStep, i + 1) : NULL;
  TwTimelinePlace from;

  switch (step->kind)
    {
    case TW_EXPLAIN_STEP_WAKEUP:
      if (cause && cause->kind == TW_EXPLAIN_STEP_IRQ)
        from = tw_timeline_place_cpu (step->cpu);
      else if (step->waker == step->task)
        from = tw_timeline_place_task (step->task);
      else
        from = task_or_cpu (trace, step->waker, step->cpu);
      tw_timeline_highlight_add_link (h, from, tw_timeline_place_task (step->task), step->time);
      break;
    case TW_EXPLAIN_STEP_IRQ:
      /* the handler, from its entry to the wakeup it did */
      if (i > 0)
        tw_timeline_highlight_add_segment (h, tw_timeline_place_cpu (step->cpu), TW_TIMELINE_HIGHLIGHT_IRQ,
                                           step->time, g_array_index (e->path, TwExplainStep, i - 1).time);
      break;
    case TW_EXPLAIN_STEP_RELEASE:
    case TW_EXPLAIN_STEP_UNKNOWN:
      /* the path starts on a task's row where nothing before woke it (a ring) */
      if (is_task (trace, step->task) && (i == 0 || step->kind == TW_EXPLAIN_STEP_RELEASE))
        tw_timeline_highlight_add_link (h, tw_timeline_place_task (TW_TASK_NONE),
                                        tw_timeline_place_task (step->task), step->time);
      break;
    default:
      break;
    }
}

/**
 * tw_explain_path_new_highlight:
 * @explanation: an explanation of a measurement of @trace
 *
 * Returns: (transfer full): the measurement, its breakdown and its critical path, in the
 *   timeline's rows
 */
TwTimelineHighlight *
tw_explain_path_new_highlight (const TwExplanation *explanation,
                               TwTrace             *trace)
{
  const TwExplanation *e = explanation;
  TwTimelineHighlight *h;

  g_return_val_if_fail (e != NULL, NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  h = tw_timeline_highlight_new (e->row.task, e->row.begin, e->row.end);
  for (guint i = 0; i < e->stretches->len; i++)
    add_stretch (h, trace, e, &g_array_index (e->stretches, TwExplainStretch, i));
  for (guint i = 0; i < e->path->len; i++)
    add_step (h, trace, e, i);
  return h;
}
