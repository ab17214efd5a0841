/* test-story-reopen.c: reopening a trace from the trace cache shows what reading it shows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Story 1 (open a trace), issue 16 §1: the second open of an unchanged trace maps its
 * cache file, state model included (no model is built), and the window's timeline is
 * the same, pixel for pixel, as that of the trace read with the cache off (--no-cache).
 * The suite runs with TRACEWB_NO_CACHE=1; this test turns the cache on, in its own
 * isolated cache folder.
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

/* Opens @path as File → Open does, waits for the load, and grabs the timeline. */
static cairo_surface_t *
open_and_grab (TwWindow   *window,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *timeline;

  tw_window_open_file (window, file);
  g_assert_true (tw_test_wait_until (not_loading, window, WAIT_MS));
  g_assert_cmpstr (tw_window_get_page (window), ==, "trace");
  timeline = tw_window_get_timeline (window);
  tw_test_wait_frames (timeline, 3);
  return tw_test_grab_widget (timeline);
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int h = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  g_assert_cmpint (cairo_image_surface_get_width (a), ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (h, ==, cairo_image_surface_get_height (b));
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  g_assert_cmpmem (cairo_image_surface_get_data (a), (gsize) h * stride,
                   cairo_image_surface_get_data (b), (gsize) h * stride);
}

static void
test_reopen_same_timeline (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  TwWindow *window;
  cairo_surface_t *read, *first, *reopened;
  TwStateModel *model;

  if (path == NULL)
    return;
  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (window), 1280, 900);

  /* --no-cache: read from the trace */
  tw_trace_cache_set_default_enabled (FALSE);
  read = open_and_grab (window, path);
  g_assert_false (tw_state_model_get_from_cache (tw_view_state_get_model (tw_window_get_view_state (window))));

  /* the cache on: the first open reads and stores (the window's model with it) */
  tw_trace_cache_set_default_enabled (TRUE);
  g_setenv ("TRACEWB_NO_CACHE", "0", TRUE);
  first = open_and_grab (window, path);
  tw_trace_cache_wait_default ();
  g_assert_false (tw_state_model_get_from_cache (tw_view_state_get_model (tw_window_get_view_state (window))));

  /* the reopen maps the store and the model */
  reopened = open_and_grab (window, path);
  model = tw_view_state_get_model (tw_window_get_view_state (window));
  g_assert_true (tw_state_model_get_from_cache (model));
  assert_same_pixels (read, first);
  assert_same_pixels (read, reopened);

  cairo_surface_destroy (read);
  cairo_surface_destroy (first);
  cairo_surface_destroy (reopened);
  tw_test_close_window (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/story-reopen/same-timeline", test_reopen_same_timeline);
  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
