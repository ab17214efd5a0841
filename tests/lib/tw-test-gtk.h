/* tw-test-gtk.h: waiting for real widgets to draw, for the GUI test programs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <gtk/gtk.h>

/* Queues a redraw of @widget and iterates the main loop until its frame clock has drawn
 * @n more frames; a display that stops drawing fails the test instead of hanging it. */
static inline void
tw_test_wait_frames (GtkWidget *widget,
                     guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  g_assert_nonnull (clock);
  for (guint i = 0; i < n; i++)
    {
      gint64 counter = gdk_frame_clock_get_frame_counter (clock);
      gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

      gtk_widget_queue_draw (widget);
      while (gdk_frame_clock_get_frame_counter (clock) == counter
             && g_get_monotonic_time () < deadline)
        g_main_context_iteration (NULL, TRUE);
      g_assert_cmpint (gdk_frame_clock_get_frame_counter (clock), >, counter);
    }
}

/* The recent-files manager is a process-wide singleton that saves into the data dir of
 * the first test; isolated dirs are per test, so keep that directory there. */
static inline void
tw_test_keep_recent_dir (void)
{
  g_autofree char *filename = NULL;
  g_autofree char *dir = NULL;

  g_object_get (gtk_recent_manager_get_default (), "filename", &filename, NULL);
  dir = g_path_get_dirname (filename);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
}
