/* tw-test-task-marks.h: whether the window's timeline draws a task's instant events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Shows [@from, @to] in the window, finds the task row whose task's name starts with
 * @name_prefix (and, in a window of several targets, whose task is @host's) — that of the
 * task that logged the event at @mark_time where several match, since a traced program's
 * threads share its name's start — exports the timeline as a PNG and reads it back: around @mark_time the
 * row differs from its background (a mark is drawn), at @empty_time the row is one
 * colour (nothing is drawn). Used by window tests on traces whose tasks have only
 * instant events (LTTng UST without kernel events).
 */
#pragma once

#include <glib/gstdio.h>
#include <tw-widgets.h>

#include "tw-test-gtk.h"
#include "tw-test-pixels.h"
#include "tw-window.h"

static inline void
tw_test_assert_host_task_marks (TwWindow   *window,
                                TwTrace    *trace,
                                const char *host,
                                const char *name_prefix,
                           guint64     from,
                           guint64     to,
                           guint64     mark_time,
                           guint64     empty_time)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tw-task-marks-XXXXXX", &error);
  g_autofree char *png = g_build_filename (dir, "timeline.png", NULL);
  GtkWidget *timeline = tw_window_get_timeline (window);
  TwTimelinePainter *painter;
  TwTimelineViewport vp;
  const TwTimelineRow *rows;
  cairo_surface_t *surface;
  guint n_rows;
  int task_row = -1, y, mark_x, empty_x;
  guint32 marking_task = TW_TASK_NONE;
  gboolean differs = FALSE, empty_uniform = TRUE;
  double first_empty[3], mark_rgb[3], empty_rgb[3];

  g_assert_no_error (error);
  /* a live view may still move (a last batch, follow mode) after the range is set: set it
   * until the timeline draws both times */
  for (guint tries = 0; tries < 50; tries++)
    {
      tw_view_state_set_visible_range (tw_window_get_view_state (window), from, to);
      tw_test_wait_frames (timeline, 2);
      tw_timeline_get_viewport (TW_TIMELINE (timeline), &vp);
      if (vp.begin_ns <= MIN (mark_time, empty_time) && vp.end_ns > MAX (mark_time, empty_time))
        break;
      g_test_message ("the view shows %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ", not the mark at %"
                      G_GUINT64_FORMAT " and the empty time at %" G_GUINT64_FORMAT ": set again",
                      vp.begin_ns, vp.end_ns, mark_time, empty_time);
    }
  g_assert_cmpuint (vp.begin_ns, <=, MIN (mark_time, empty_time));
  g_assert_cmpuint (vp.end_ns, >, MAX (mark_time, empty_time));

  painter = tw_timeline_get_painter (TW_TIMELINE (timeline));
  rows = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (painter), &n_rows);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace) && marking_task == TW_TASK_NONE; i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      if (event.time == mark_time)
        marking_task = event.task;
    }
  for (int pass = 0; pass < 2 && task_row < 0; pass++)
    for (guint r = 0; r < n_rows && task_row < 0; r++)
      if (rows[r].kind == TW_TIMELINE_ROW_TASK
          && g_str_has_prefix (tw_trace_get_task (trace, rows[r].id)->name, name_prefix)
          && (host == NULL || g_strcmp0 (tw_trace_get_task (trace, rows[r].id)->host, host) == 0)
          && (pass == 1 || rows[r].id == marking_task))
        task_row = (int) r;
  if (task_row < 0)
    g_test_message ("no task row for a task named %s… of host %s among %u rows", name_prefix,
                    host ? host : "(any)", n_rows);
  g_assert_cmpint (task_row, >=, 0);

  g_assert_true (tw_timeline_export (TW_TIMELINE (timeline), png, &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  tw_timeline_get_viewport (TW_TIMELINE (timeline), &vp);
  y = TW_TIMELINE_RULER_HEIGHT + rows[task_row].y - (int) vp.scroll_y;
  g_assert_cmpint (y + rows[task_row].height, <, cairo_image_surface_get_height (surface));
  mark_x = (int) tw_timeline_viewport_time_to_x (&vp, mark_time);
  empty_x = (int) tw_timeline_viewport_time_to_x (&vp, empty_time);
  g_assert_cmpint (ABS (empty_x - mark_x), >, 10);

  tw_test_surface_get_rgb (surface, empty_x, y + 2, first_empty);
  for (int dy = 2; dy < rows[task_row].height - 2; dy++)
    {
      tw_test_surface_get_rgb (surface, empty_x, y + dy, empty_rgb);
      empty_uniform &= tw_test_rgb_near (empty_rgb, first_empty);
      for (int dx = -2; dx <= 2; dx++)
        {
          tw_test_surface_get_rgb (surface, mark_x + dx, y + dy, mark_rgb);
          differs |= !tw_test_rgb_near (mark_rgb, empty_rgb);
        }
    }
  g_assert_true (empty_uniform);
  g_assert_true (differs);
  cairo_surface_destroy (surface);
  g_unlink (png);
  g_rmdir (dir);
}

static inline void
tw_test_assert_task_marks (TwWindow   *window,
                           TwTrace    *trace,
                           const char *name_prefix,
                           guint64     from,
                           guint64     to,
                           guint64     mark_time,
                           guint64     empty_time)
{
  tw_test_assert_host_task_marks (window, trace, NULL, name_prefix, from, to, mark_time, empty_time);
}
