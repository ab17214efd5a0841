/* tw-test-lttng-window.h: what the window shows of LTTng targets, for the window tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Conditions for tw_test_wait_until(): the sessions connected; a target's sensors in the
 * Sensors tab with its monitor's figures; a target's tasks in the timeline's rows.
 */
#pragma once

#include <string.h>
#include <tw-widgets.h>

#include "tw-live-session.h"
#include "tw-sensors-pane.h"
#include "tw-test-lttng-target.h"
#include "tw-window.h"

/* Every LTTng session the live session follows is connected (a tw_test_wait_until()
 * condition on a TwLiveSession). */
static inline gboolean
tw_test_live_all_connected (gpointer session)
{
  guint n = tw_live_session_get_n_remotes (session);

  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;

      if (!tw_live_session_get_source_info (session, i, &info)
          || info.connection != TW_LIVE_CONNECTION_CONNECTED)
        return FALSE;
    }
  return n > 0;
}

/* Every sensor @counted (what target @host's monitor printed) has its row in @pane,
 * named "<host>: <task>" as the timeline names a target's tasks, with exactly the
 * monitor's received, missed and torn counts. */
static inline gboolean
tw_test_sensor_rows_show_counts (TwSensorsPane *pane,
                                 const char    *host,
                                 GArray        *counted)
{
  for (guint i = 0; i < counted->len; i++)
    {
      const TwTestCounted *c = &g_array_index (counted, TwTestCounted, i);
      g_autofree char *task = g_strdup_printf ("%s: %s", host, c->task);
      g_autofree char *want_received = g_strdup_printf ("%" G_GUINT64_FORMAT, c->received);
      g_autofree char *want_missed = g_strdup_printf ("%" G_GUINT64_FORMAT, c->missed);
      g_autofree char *want_torn = g_strdup_printf ("%" G_GUINT64_FORMAT, c->inconsistent);
      int row = tw_sensors_pane_find_row (pane, task, c->sensor);

      if (row < 0
          || strcmp (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_RECEIVED), want_received) != 0
          || strcmp (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_MISSED), want_missed) != 0
          || strcmp (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_TORN), want_torn) != 0)
        return FALSE;
    }
  return TRUE;
}

/* The timeline's layout (a relayout comes at most 4 times a second, slower under
 * sanitizers) has a task row of @host's. */
static inline gboolean
tw_test_timeline_has_task_row_of (TwWindow   *window,
                                  const char *host)
{
  TwTimelinePainter *painter = tw_timeline_get_painter (TW_TIMELINE (tw_window_get_timeline (window)));
  TwTimelineLayout *layout = tw_timeline_painter_get_layout (painter);
  TwTrace *trace = tw_live_session_get_trace (tw_window_get_live_session (window));
  const TwTimelineRow *rows;
  guint n_rows;

  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  for (guint r = 0; r < n_rows; r++)
    if (rows[r].kind == TW_TIMELINE_ROW_TASK
        && g_strcmp0 (tw_trace_get_task (trace, rows[r].id)->host, host) == 0)
      return TRUE;
  return FALSE;
}
