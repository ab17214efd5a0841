/* tw-timeline-painter-hit.c: what lies under a point of the timeline, for tooltips and clicks
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-timeline-cpu-marks.h"
#include "tw-timeline-describe.h"
#include "tw-timeline-painter-private.h"

#define HIT_SLOP_PX     4
#define SCAN_LIMIT      20000 /* events looked at around a click for the row's nearest */

void
tw_timeline_hit_clear (TwTimelineHit *hit)
{
  g_clear_pointer (&hit->description, g_free);
}

/* First interval of a non-overlapping series that ends after @t. */
static gsize
series_first_visible (TwStateModel *model,
                      TwSeries      series,
                      guint         id,
                      const guint8 *base,
                      gsize         stride,
                      gsize         n,
                      guint64       t)
{
  gsize i = tw_state_model_lower_bound (model, series, id, t);
  guint64 end;

  if (i == 0 || i > n)
    return MIN (i, n);
  memcpy (&end, base + (i - 1) * stride + sizeof (guint64), sizeof end);
  return end > t ? i - 1 : i;
}

static gboolean
task_is_idle (TwTimelinePainter *self,
              guint32            task)
{
  const TwTask *t = tw_trace_get_task (self->trace, task);

  return t == NULL || (t->flags & TW_TASK_FLAG_IDLE);
}

static guint64
nearest_event (TwTimelinePainter *self,
               guint64            time,
               guint16            cpu,
               guint32            task,
               guint64            max_distance)
{
  guint64 n = tw_trace_get_n_events (self->trace);
  guint64 center = tw_trace_find_first_at_or_after (self->trace, time);
  guint64 best = TW_EVENT_NONE;
  guint64 best_dist = max_distance + 1;

  /* Walk out both ways from the time; the row's events are usually close by. */
  for (guint64 step = 0; step < SCAN_LIMIT; step++)
    {
      gboolean any = FALSE;

      for (int side = 0; side < 2; side++)
        {
          guint64 i;
          TwEvent ev;
          guint64 dist;

          if (side == 0 ? center + step >= n : step + 1 > center)
            continue;
          i = side == 0 ? center + step : center - step - 1;
          tw_trace_get_event (self->trace, i, &ev);
          dist = ev.time > time ? ev.time - time : time - ev.time;
          if (dist >= best_dist)
            continue;
          any = TRUE;
          if ((cpu != TW_CPU_NONE && ev.cpu == cpu)
              || (task != TW_TASK_NONE && (ev.task == task || ev.arg == task)))
            {
              best = i;
              best_dist = dist;
            }
        }
      if (!any)
        break;
    }
  return best;
}

static void
describe_span (TwTimelineHit *hit,
               const char    *what,
               guint64        begin,
               guint64        end)
{
  g_autofree char *d = tw_timeline_format_duration (end - begin);
  g_autofree char *from = tw_timeline_format_time (begin, 1);

  hit->span_begin = begin;
  hit->span_end = end;
  hit->description = g_strdup_printf (_("%s\n%s from %s"), what, d, from);
}

static void
hit_cpu_row (TwTimelinePainter        *self,
             const TwTimelineViewport *vp,
             const TwTimelineRow      *row,
             double                    y_in_row,
             guint64                   slop,
             TwTimelineHit            *hit)
{
  gsize n;
  guint32 task;

  if (tw_timeline_cpu_marks_hit (self->model, row->id, hit->time, slop, &hit->event, &hit->description))
    return;
  if (y_in_row < IRQ_MAX_LANES * IRQ_LANE_HEIGHT + 1)
    {
      const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (self->model, row->id, &n);
      gsize i = tw_state_model_lower_bound (self->model, TW_SERIES_CPU_IRQS, row->id, hit->time + 1);

      /* innermost handler containing the time, widened by the slop for tiny ones */
      while (i > 0)
        {
          const TwIrqInterval *irq = &irqs[--i];

          if (irq->start + slop < hit->time && irq->end + slop < hit->time && irq->depth == 1)
            break;
          if (irq->start <= hit->time + slop && irq->end + slop >= hit->time)
            {
              g_autofree char *what = tw_timeline_describe_irq (self->trace, row->id, irq);
              describe_span (hit, what, irq->start, irq->end);
              hit->span = (TwSpanRef) { TW_SERIES_CPU_IRQS, row->id, i, irq->start, irq->end };
              return;
            }
        }
    }

  task = tw_state_model_get_running_task (self->model, row->id, hit->time);
  if (task != TW_TASK_NONE)
    {
      const TwRunInterval *runs = tw_state_model_get_cpu_runs (self->model, row->id, &n);
      gsize i = series_first_visible (self->model, TW_SERIES_CPU_RUNS, row->id,
                                      (const guint8 *) runs, sizeof *runs, n, hit->time);
      g_autofree char *label = tw_trace_dup_task_label (self->trace, task);
      /* the CPU's number, or HOST/N in a trace of several machines */
      g_autofree char *cpu = tw_trace_dup_cpu_label (self->trace, row->id);
      g_autofree char *what = g_strdup_printf (_("%s on CPU %s%s"), label, cpu,
                                               task_is_idle (self, task) ? _(" (idle)") : "");

      if (i < n)
        {
          describe_span (hit, what, runs[i].start, runs[i].end);
          hit->span = (TwSpanRef) { TW_SERIES_CPU_RUNS, row->id, i, runs[i].start, runs[i].end };
        }
    }
  hit->event = nearest_event (self, hit->time, row->id, TW_TASK_NONE, slop);
}

static void
hit_task_row (TwTimelinePainter   *self,
              const TwTimelineRow *row,
              guint64              slop,
              TwTimelineHit       *hit)
{
  gsize n;
  const TwTaskMark *marks = tw_state_model_get_task_marks (self->model, row->id, &n);
  gsize i = tw_state_model_lower_bound (self->model, TW_SERIES_TASK_MARKS, row->id,
                                        hit->time > slop ? hit->time - slop : 0);
  const TwTaskInterval *states;

  if (i < n && marks[i].time <= hit->time + slop)
    {
      /* the mark nearest the pointer: dense sensors put several within the slop */
      gsize best = i;
      guint64 best_dist = G_MAXUINT64;

      for (gsize k = i; k < n && k < i + 256 && marks[k].time <= hit->time + slop; k++)
        {
          guint64 dist = marks[k].time > hit->time ? marks[k].time - hit->time
                                                   : hit->time - marks[k].time;
          if (dist < best_dist)
            {
              best = k;
              best_dist = dist;
            }
        }
      hit->event = marks[best].index;
      hit->description = tw_timeline_describe_event (self->trace, marks[best].index);
      return;
    }

  states = tw_state_model_get_task_states (self->model, row->id, &n);
  i = series_first_visible (self->model, TW_SERIES_TASK_STATES, row->id,
                            (const guint8 *) states, sizeof *states, n, hit->time);
  if (i < n && states[i].start <= hit->time)
    {
      g_autofree char *label = tw_trace_dup_task_label (self->trace, row->id);
      g_autofree char *what = NULL;

      if (states[i].state == TW_TASK_STATE_RUNNING)
        {
          g_autofree char *cpu = tw_trace_dup_cpu_label (self->trace, states[i].cpu);

          what = g_strdup_printf (_("%s running on CPU %s"), label, cpu);
        }
      else
        what = g_strdup_printf ("%s %s", label, tw_task_state_to_string (states[i].state));
      describe_span (hit, what, states[i].start, states[i].end);
      hit->span = (TwSpanRef) { TW_SERIES_TASK_STATES, row->id, i, states[i].start, states[i].end };
    }
  hit->event = nearest_event (self, hit->time, TW_CPU_NONE, row->id, slop);
}

static void
hit_counter_row (TwTimelinePainter   *self,
                 const TwTimelineRow *row,
                 TwTimelineHit       *hit)
{
  TwCounterTracks *counters = tw_timeline_layout_get_counter_tracks (self->layout);
  const TwCounterTrack *track = tw_counter_tracks_get_track (counters, row->id);
  g_autofree char *label = tw_counter_tracks_dup_label (counters, row->id);
  g_autofree char *value_text = NULL;
  g_autofree char *when = NULL;
  guint64 time, begin, end;
  double value;
  gsize sample;

  if (!tw_counter_tracks_get_value_at (counters, row->id, hit->time, &sample))
    return;
  tw_counter_tracks_get_sample (counters, row->id, sample, &time, &value, &hit->event);
  tw_counter_tracks_get_span (counters, row->id, sample, &begin, &end);
  value_text = tw_counter_format_value (track, value);
  when = tw_timeline_format_time (time, 1);
  hit->span_begin = begin;
  hit->span_end = end;
  if (track->kind == TW_COUNTER_MEMORY)
    {
      g_autofree char *total = tw_counter_format_value (track, track->scale_max);

      hit->description = g_strdup_printf (_("%s: %s of %s\nsampled at %s"), label, value_text,
                                          total, when);
    }
  else
    {
      g_autofree char *d = tw_timeline_format_duration (end - begin);

      hit->description = g_strdup_printf (_("%s: %s\nover %s up to %s"), label, value_text,
                                          d, when);
    }
}

/**
 * tw_timeline_painter_hit_test:
 * @hit: (out): what lies at (@x, @y); free its description with tw_timeline_hit_clear()
 */
void
tw_timeline_painter_hit_test (TwTimelinePainter        *self,
                              const TwTimelineViewport *vp,
                              double                    x,
                              double                    y,
                              TwTimelineHit            *hit)
{
  const TwTimelineRow *row;
  guint n_rows;
  guint64 slop;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  hit->row = -1;
  hit->time = tw_timeline_viewport_x_to_time (vp, MAX (x, TW_TIMELINE_LABEL_WIDTH));
  hit->span_begin = hit->span_end = 0;
  memset (&hit->span, 0, sizeof hit->span);
  hit->event = TW_EVENT_NONE;
  hit->description = NULL;

  if (y < TW_TIMELINE_RULER_HEIGHT)
    return;
  hit->row = tw_timeline_layout_find_row_at (self->layout, y - TW_TIMELINE_RULER_HEIGHT + vp->scroll_y);
  if (hit->row < 0 || x < TW_TIMELINE_LABEL_WIDTH)
    return;

  row = &tw_timeline_layout_get_rows (self->layout, &n_rows)[hit->row];
  slop = (guint64) (HIT_SLOP_PX * (double) (vp->end_ns - vp->begin_ns)
                    / MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH));

  if (row->kind == TW_TIMELINE_ROW_CPU)
    hit_cpu_row (self, vp, row,
                 y - TW_TIMELINE_RULER_HEIGHT + vp->scroll_y - row->y, slop, hit);
  else if (row->kind == TW_TIMELINE_ROW_TASK)
    hit_task_row (self, row, slop, hit);
  else if (row->kind == TW_TIMELINE_ROW_COUNTER)
    hit_counter_row (self, row, hit);
}
