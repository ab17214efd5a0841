/* tw-test-gtk.h: waiting for real widgets to draw, for the GUI test programs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <tw-widgets.h>

/* Queues a redraw of @widget and iterates the main loop until its frame clock has drawn
 * @n more frames; a display that stops drawing fails the test instead of hanging it.
 * The deadline is generous and the redraw asked for again each second: under a
 * sanitizer, with another GUI test beside it, one frame of a big trace can take many
 * seconds, and a request made while a frame was being drawn can be lost. */
static inline void
tw_test_wait_frames (GtkWidget *widget,
                     guint      n)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);

  g_assert_nonnull (clock);
  for (guint i = 0; i < n; i++)
    {
      gint64 counter = gdk_frame_clock_get_frame_counter (clock);
      gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
      gint64 ask_again = 0;

      /* never a blocking iteration: when the clock stalls with no source ready, that
       * would wait forever instead of failing at the deadline */
      while (gdk_frame_clock_get_frame_counter (clock) == counter
             && g_get_monotonic_time () < deadline)
        {
          if (g_get_monotonic_time () >= ask_again)
            {
              gtk_widget_queue_draw (widget);
              ask_again = g_get_monotonic_time () + G_USEC_PER_SEC;
            }
          if (!g_main_context_iteration (NULL, FALSE))
            g_usleep (1000);
        }
      g_assert_cmpint (gdk_frame_clock_get_frame_counter (clock), >, counter);
    }
}

/* Iterates the main loop until @view's snapshot holds @count values (it redraws at most
 * 30 times a second) or @ms pass. Returns: the snapshot, or NULL at the deadline. */
static inline const TwHistogramSnapshot *
tw_test_wait_histogram_count (TwHistogramView *view,
                              guint64          count,
                              guint            ms)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) ms * 1000;
  const TwHistogramSnapshot *snapshot;

  while (((snapshot = tw_histogram_view_get_snapshot (view)) == NULL || snapshot->count != count)
         && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  return snapshot != NULL && snapshot->count == count ? snapshot : NULL;
}

/* The first toplevel window that is a @type (a designer, a file chooser's dialog), or
 * NULL; with @visible_only, among the shown ones. */
static inline GtkWindow *
tw_test_find_toplevel (GType    type,
                       gboolean visible_only)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type)
          && (!visible_only || gtk_widget_get_visible (GTK_WIDGET (window))))
        return GTK_WINDOW (window);
    }
  return NULL;
}

/* Adds every descendant of @widget that is a @type to @found, depth first. */
static inline void
tw_test_collect_descendants (GtkWidget *widget,
                             GType      type,
                             GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      tw_test_collect_descendants (child, type, found);
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

/* What @widget shows, rendered by its window's own renderer, as an ARGB32 surface. */
static inline cairo_surface_t *
tw_test_grab_widget (GtkWidget *widget)
{
  int w = gtk_widget_get_width (widget);
  int h = gtk_widget_get_height (widget);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  cairo_surface_t *surface;

  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)),
                                         node, &GRAPHENE_RECT_INIT (0, 0, w, h));
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  gdk_texture_download (texture, cairo_image_surface_get_data (surface),
                        cairo_image_surface_get_stride (surface));
  cairo_surface_mark_dirty (surface);
  return surface;
}

/* With TW_TEST_PNG_DIR set, saves what @widget shows there as @name (the screenshots of
 * docs/ come from real test runs). */
static inline void
tw_test_save_widget_png (GtkWidget  *widget,
                         const char *name)
{
  const char *dir = g_getenv ("TW_TEST_PNG_DIR");
  g_autofree char *path = NULL;
  cairo_surface_t *surface;

  if (dir == NULL)
    return;
  /* a screenshot for docs/ must not catch a page still fading out (GtkStack's crossfade
   * runs a few hundred ms after the switch the test waited for) */
  tw_test_wait_frames (widget, 30);
  path = g_build_filename (dir, name, NULL);
  surface = tw_test_grab_widget (widget);
  g_assert_cmpint (cairo_surface_write_to_png (surface, path), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (surface);
}

/* Shows @window at @width × @height and waits until it has drawn. */
static inline void
tw_test_present_window (GtkWindow *window,
                        int        width,
                        int        height)
{
  tw_test_keep_recent_dir ();
  gtk_window_set_default_size (window, width, height);
  gtk_window_present (window);
  tw_test_wait_frames (GTK_WIDGET (window), 2);
}

/* Destroys @window (may be NULL) and lets what it left pending run, such as the recent
 * manager's save, while that directory still exists. */
static inline void
tw_test_close_window (GtkWindow *window)
{
  if (window != NULL)
    gtk_window_destroy (window);
  tw_test_keep_recent_dir ();
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* A timeline on @state in a scrolled window of its own (*@window, for the caller to
 * close), shown at @width × @height and drawn. */
static inline TwTimeline *
tw_test_present_timeline (TwViewState *state,
                          int          width,
                          int          height,
                          GtkWidget  **window)
{
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  TwTimeline *timeline = TW_TIMELINE (tw_timeline_new ());

  *window = gtk_window_new ();
  tw_timeline_set_view_state (timeline, state);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (timeline));
  gtk_window_set_child (GTK_WINDOW (*window), scrolled);
  tw_test_present_window (GTK_WINDOW (*window), width, height);
  tw_test_wait_frames (GTK_WIDGET (timeline), 2);
  return timeline;
}
