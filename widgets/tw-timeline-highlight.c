/* tw-timeline-highlight.c: a path drawn over the timeline's rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-timeline-highlight.h"

/* Shared, not copied, between the view state and the frames that draw it: it does not
 * change once built. */
G_DEFINE_BOXED_TYPE (TwTimelineHighlight, tw_timeline_highlight,
                     tw_timeline_highlight_ref, tw_timeline_highlight_unref)

static void
highlight_clear (gpointer data)
{
  TwTimelineHighlight *self = data;

  g_array_unref (self->segments);
  g_array_unref (self->links);
}

/**
 * tw_timeline_highlight_new:
 * @task: the measured task
 * @begin: the measured interval's begin
 * @end: its end
 *
 * Returns: (transfer full): a highlight of the interval alone
 */
TwTimelineHighlight *
tw_timeline_highlight_new (guint32 task,
                           guint64 begin,
                           guint64 end)
{
  TwTimelineHighlight *self = g_atomic_rc_box_new0 (TwTimelineHighlight);

  self->measured = tw_timeline_place_task (task);
  self->begin = begin;
  self->end = MAX (begin, end);
  self->segments = g_array_new (FALSE, FALSE, sizeof (TwTimelineHighlightSegment));
  self->links = g_array_new (FALSE, FALSE, sizeof (TwTimelineHighlightLink));
  return self;
}

TwTimelineHighlight *
tw_timeline_highlight_ref (TwTimelineHighlight *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
tw_timeline_highlight_unref (TwTimelineHighlight *self)
{
  g_atomic_rc_box_release_full (self, highlight_clear);
}

/* Touching stretches of one row and role (a task preempting twice in a row, with a
 * switch between) become one. */
void
tw_timeline_highlight_add_segment (TwTimelineHighlight     *self,
                                   TwTimelinePlace          place,
                                   TwTimelineHighlightRole  role,
                                   guint64                  begin,
                                   guint64                  end)
{
  TwTimelineHighlightSegment segment = { place, role, begin, MAX (begin, end) };

  g_return_if_fail (self != NULL);

  if (place.kind == TW_TIMELINE_PLACE_NONE || end <= begin)
    return;
  if (self->segments->len > 0)
    {
      TwTimelineHighlightSegment *last = &g_array_index (self->segments, TwTimelineHighlightSegment,
                                                         self->segments->len - 1);

      if (tw_timeline_place_equal (last->place, place) && last->role == role && last->end == begin)
        {
          last->end = segment.end;
          return;
        }
    }
  g_array_append_val (self->segments, segment);
}

void
tw_timeline_highlight_add_link (TwTimelineHighlight *self,
                                TwTimelinePlace      from,
                                TwTimelinePlace      to,
                                guint64              time)
{
  TwTimelineHighlightLink link = { from, to, time };

  g_return_if_fail (self != NULL);

  if (to.kind == TW_TIMELINE_PLACE_NONE)
    return;
  g_array_append_val (self->links, link);
}

/**
 * tw_timeline_highlight_get_bounds:
 *
 * The time range that holds all of it: the interval, its segments and the path back
 * to the first cause.
 */
void
tw_timeline_highlight_get_bounds (const TwTimelineHighlight *self,
                                  guint64                   *begin,
                                  guint64                   *end)
{
  guint64 lo = self->begin, hi = self->end;

  for (guint i = 0; i < self->segments->len; i++)
    {
      const TwTimelineHighlightSegment *s = &g_array_index (self->segments, TwTimelineHighlightSegment, i);

      lo = MIN (lo, s->begin);
      hi = MAX (hi, s->end);
    }
  for (guint i = 0; i < self->links->len; i++)
    {
      guint64 t = g_array_index (self->links, TwTimelineHighlightLink, i).time;

      lo = MIN (lo, t);
      hi = MAX (hi, t);
    }
  *begin = lo;
  *end = hi;
}

gboolean
tw_timeline_place_equal (TwTimelinePlace a,
                         TwTimelinePlace b)
{
  return a.kind == b.kind && (a.kind == TW_TIMELINE_PLACE_NONE || a.id == b.id);
}

/**
 * tw_timeline_place_find_row:
 *
 * Returns: the row of @layout that shows @place (the header standing for it when it
 *   is folded), or -1 when none does (filtered out, or no place)
 */
int
tw_timeline_place_find_row (TwTimelinePlace   place,
                            TwTimelineLayout *layout)
{
  switch (place.kind)
    {
    case TW_TIMELINE_PLACE_TASK: return tw_timeline_layout_find_task_row (layout, place.id);
    case TW_TIMELINE_PLACE_CPU:  return tw_timeline_layout_find_cpu_row (layout, place.id);
    case TW_TIMELINE_PLACE_NONE:
    default:                     return -1;
    }
}
