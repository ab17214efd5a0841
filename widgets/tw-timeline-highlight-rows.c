/* tw-timeline-highlight-rows.c: bringing the rows of a highlighted path into view
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-timeline-private.h"

/*
 * A path touches the measured task's row, its wakers', the rows of tasks that took its
 * time and CPU rows. In a trace of hundreds of tasks those rows lie far apart, and no
 * scrolling shows them together: then, unless the user filtered the tasks already, the
 * timeline shows only the path's tasks until the path is cleared or replaced (or the
 * user picks Show All Tasks), so the path reads as one drawing.
 */

/* The distinct rows the highlight touches, the measured task's first. */
static GArray *
dup_wanted_rows (TwTimeline          *self,
                 TwTimelineHighlight *h)
{
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) places = g_array_new (FALSE, FALSE, sizeof (TwTimelinePlace));

  g_array_append_val (places, h->measured);
  for (guint i = 0; i < h->links->len; i++)
    {
      const TwTimelineHighlightLink *link = &g_array_index (h->links, TwTimelineHighlightLink, i);

      g_array_append_val (places, link->from);
      g_array_append_val (places, link->to);
    }
  for (guint i = 0; i < h->segments->len; i++)
    g_array_append_val (places, g_array_index (h->segments, TwTimelineHighlightSegment, i).place);

  for (guint i = 0; i < places->len; i++)
    {
      int row = tw_timeline_place_find_row (g_array_index (places, TwTimelinePlace, i), self->layout);
      gboolean seen = row < 0;

      for (guint j = 0; j < rows->len && !seen; j++)
        seen = g_array_index (rows, int, j) == row;
      if (!seen)
        g_array_append_val (rows, row);
    }
  return rows;
}

/* How many of @wanted lie wholly in [top, top + page). */
static guint
count_rows_in (const TwTimelineRow *rows,
               GArray              *wanted,
               double               top,
               double               page)
{
  guint n = 0;

  for (guint i = 0; i < wanted->len; i++)
    {
      const TwTimelineRow *r = &rows[g_array_index (wanted, int, i)];

      n += r->y >= top && r->y + r->height <= top + page;
    }
  return n;
}

/* The scroll position whose page holds the measured row (@wanted's first) and most of
 * the others: a page that starts at a wanted row's top or ends at one's bottom. */
static double
best_page_top (const TwTimelineRow *rows,
               GArray              *wanted,
               double               page,
               guint               *n_shown)
{
  const TwTimelineRow *m = &rows[g_array_index (wanted, int, 0)];
  double best_top = m->y - (page - m->height) / 3;
  guint best = count_rows_in (rows, wanted, best_top, page);

  for (guint i = 0; i < wanted->len; i++)
    {
      const TwTimelineRow *r = &rows[g_array_index (wanted, int, i)];
      double tops[2] = { r->y, r->y + r->height - page };

      for (guint t = 0; t < 2; t++)
        {
          guint n;

          if (tops[t] > m->y || tops[t] + page < m->y + m->height)
            continue;
          n = count_rows_in (rows, wanted, tops[t], page);
          if (n > best)
            {
              best = n;
              best_top = tops[t];
            }
        }
    }
  *n_shown = best;
  return best_top;
}

/* A task of the path folded into its process's (or its machine's, or the task
 * section's) header would be drawn on that header: it unfolds, as many levels as it
 * is folded in. */
static void
unfold_task (TwTimeline *self,
             guint32     task)
{
  for (guint level = 0; level < 4; level++)
    {
      int row = tw_timeline_layout_find_task_row (self->layout, task);
      guint n_rows;
      const TwTimelineRow *rows = tw_timeline_layout_get_rows (self->layout, &n_rows);

      if (row < 0 || rows[row].kind == TW_TIMELINE_ROW_TASK
          || !tw_timeline_layout_is_collapsed (self->layout, row))
        return;
      tw_timeline_layout_toggle_row (self->layout, row);
    }
}

static void
unfold_highlight (TwTimeline          *self,
                  TwTimelineHighlight *h)
{
  if (h->measured.kind == TW_TIMELINE_PLACE_TASK)
    unfold_task (self, h->measured.id);
  for (guint i = 0; i < h->links->len; i++)
    {
      const TwTimelineHighlightLink *link = &g_array_index (h->links, TwTimelineHighlightLink, i);

      if (link->from.kind == TW_TIMELINE_PLACE_TASK)
        unfold_task (self, link->from.id);
      if (link->to.kind == TW_TIMELINE_PLACE_TASK)
        unfold_task (self, link->to.id);
    }
  for (guint i = 0; i < h->segments->len; i++)
    {
      const TwTimelineHighlightSegment *s = &g_array_index (h->segments, TwTimelineHighlightSegment, i);

      if (s->place.kind == TW_TIMELINE_PLACE_TASK)
        unfold_task (self, s->place.id);
    }
}

/* Only the highlight's tasks get rows. */
static void
filter_to_highlight (TwTimeline          *self,
                     TwTimelineHighlight *h)
{
  g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_array_append_val (tasks, h->measured.id);
  for (guint i = 0; i < h->links->len; i++)
    {
      const TwTimelineHighlightLink *link = &g_array_index (h->links, TwTimelineHighlightLink, i);

      if (link->from.kind == TW_TIMELINE_PLACE_TASK)
        g_array_append_val (tasks, link->from.id);
      g_array_append_val (tasks, link->to.id);
    }
  for (guint i = 0; i < h->segments->len; i++)
    {
      const TwTimelineHighlightSegment *s = &g_array_index (h->segments, TwTimelineHighlightSegment, i);

      if (s->place.kind == TW_TIMELINE_PLACE_TASK)
        g_array_append_val (tasks, s->place.id);
    }
  tw_timeline_layout_set_task_filter (self->layout, (const guint32 *) tasks->data, tasks->len);
  self->highlight_filtered = TRUE;
}

/**
 * _tw_timeline_reveal_highlight:
 *
 * The highlight's rows come into view: their tasks unfolded from folded processes,
 * all of them when one page can hold them (the tasks filtered to the path's when it
 * takes that), else the measured task's with as many others as fit. Nothing moves
 * when the view shows as many already.
 */
void
_tw_timeline_reveal_highlight (TwTimeline *self)
{
  TwTimelineHighlight *h = tw_view_state_get_highlight (self->state);
  g_autoptr(GArray) wanted = NULL;
  const TwTimelineRow *rows, *m;
  guint n_rows, n_shown;
  double page = _tw_timeline_rows_page_height (self), top, scroll;

  if (h == NULL || self->layout == NULL || h->measured.kind == TW_TIMELINE_PLACE_NONE)
    return;
  unfold_highlight (self, h);
  wanted = dup_wanted_rows (self, h);
  if (wanted->len == 0 || tw_timeline_place_find_row (h->measured, self->layout) < 0)
    return;
  rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
  m = &rows[g_array_index (wanted, int, 0)];
  if (m->height >= page)
    {
      tw_timeline_reveal_row (self, g_array_index (wanted, int, 0));
      return;
    }
  top = best_page_top (rows, wanted, page, &n_shown);
  if (n_shown < wanted->len && !tw_timeline_layout_has_task_filter (self->layout))
    {
      filter_to_highlight (self, h);
      g_clear_pointer (&wanted, g_array_unref);
      wanted = dup_wanted_rows (self, h);
      rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
      m = &rows[g_array_index (wanted, int, 0)];
      top = best_page_top (rows, wanted, page, &n_shown);
    }
  scroll = _tw_timeline_get_scroll_y (self);
  if (m->y >= scroll && m->y + m->height <= scroll + page
      && count_rows_in (rows, wanted, scroll, page) >= n_shown)
    return;
  _tw_timeline_update_vadjustment (self);
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, top);
}

/**
 * _tw_timeline_highlight_changed:
 *
 * A highlight cleared or replaced gives back the rows its filter took.
 */
void
_tw_timeline_highlight_changed (TwTimeline *self)
{
  if (!self->highlight_filtered || self->layout == NULL)
    return;
  self->highlight_filtered = FALSE;
  tw_timeline_layout_set_task_filter (self->layout, NULL, 0);
}
