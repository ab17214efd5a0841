/* test-story-cold-cache.c: the window's cold open builds the trace in its cache file
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * docs/trace-cache.md: a trace the window shows while it is read in this process is
 * built in a temporary file of the cache folder (its rows in the page cache, not in
 * anonymous memory), and that trace, the one shown, is stored with the window's state
 * model once the model is complete; a reopen maps the file. A window closed or a load
 * cancelled before the model is complete leaves no temporary file behind. The suite
 * runs with TRACEWB_NO_CACHE=1; this test turns the cache on, in its own isolated
 * cache folder (G_TEST_OPTION_ISOLATE_DIRS).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS   120000
#define N_EVENTS  3000000

static TwApplication *app;

typedef struct {
  TwWindow *window;
  gboolean  seen;
  gboolean  loading;       /* at the first frame */
  TwTrace  *trace;         /* shown at the first frame */
  gboolean  temp_mapped;   /* a temporary file of the cache folder mapped then */
  gboolean  whole;         /* the model complete then */
  gboolean  close;         /* stop by closing the window, else by cancelling the load */
  gboolean  stopped;
} Shown;

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

static const char *
cache_dir (void)
{
  return tw_trace_cache_get_dir (tw_trace_cache_get_default ());
}

/* Whether this process maps a file of the cache folder whose name starts with @prefix. */
static gboolean
maps_cache_file (const char *prefix)
{
  g_autofree char *maps = NULL;
  g_autofree char *start = g_build_filename (cache_dir (), prefix, NULL);
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      const char *path = strchr (lines[i], '/');

      if (path && g_str_has_prefix (path, start))
        return TRUE;
    }
  return FALSE;
}

/* How many files of the cache folder start with @prefix and end with @suffix. */
static guint
count_cache_files (const char *prefix,
                   const char *suffix)
{
  g_autoptr(GDir) dir = g_dir_open (cache_dir (), 0, NULL);
  const char *name;
  guint n = 0;

  while (dir && (name = g_dir_read_name (dir)))
    if (g_str_has_prefix (name, prefix) && g_str_has_suffix (name, suffix))
      n++;
  return n;
}

static gboolean
no_temp_file (gpointer data)
{
  return count_cache_files (".tmp-", "") == 0;
}

static void
first_frame_cb (TwWindow *window,
                Shown    *shown)
{
  TwViewState *state = tw_window_get_view_state (window);

  g_assert_false (shown->seen);
  shown->seen = TRUE;
  shown->loading = tw_window_get_loading (window);
  shown->trace = g_object_ref (tw_state_model_get_trace (tw_view_state_get_model (state)));
  shown->temp_mapped = maps_cache_file (".tmp-");
  shown->whole = tw_trace_is_sealed (shown->trace) &&
                 tw_state_model_get_n_processed (tw_view_state_get_model (state)) ==
                 tw_trace_get_n_events (shown->trace);
}

/* Before the next step of the model (an idle of lower priority): the window closed, or
 * its load cancelled. */
static gboolean
stop_cb (gpointer data)
{
  Shown *shown = data;

  shown->stopped = TRUE;
  if (shown->close)
    {
      gtk_window_destroy (GTK_WINDOW (shown->window));
      shown->window = NULL;
    }
  else
    tw_window_cancel_loading (shown->window);
  return G_SOURCE_REMOVE;
}

static void
stop_at_first_frame_cb (TwWindow *window,
                        Shown    *shown)
{
  first_frame_cb (window, shown);
  g_idle_add_full (G_PRIORITY_HIGH, stop_cb, shown, NULL);
}

static gboolean
stopped (gpointer data)
{
  return ((Shown *) data)->stopped;
}

static char *
simulate_dump (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-cold-cache-XXXXXX", NULL);
  char *path = g_build_filename (dir, "cold.shark", NULL);
  g_autoptr(GError) error = NULL;
  TwSimulatorOptions options;

  tw_simulator_options_init (&options);
  options.max_events = N_EVENTS;
  options.n_tasks = 8;
  options.utilization = 0.8;
  g_assert_true (tw_simulator_write_file (&options, path, NULL, &error));
  g_assert_no_error (error);
  return path;
}

static void
remove_dump (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);

  g_unlink (path);
  g_rmdir (dir);
}

static void
use_cache (void)
{
  g_autoptr(GError) error = NULL;

  tw_trace_cache_set_default_enabled (TRUE);
  g_setenv ("TRACEWB_NO_CACHE", "0", TRUE);
  tw_trace_cache_clear (tw_trace_cache_get_default (), NULL, &error);
  g_assert_no_error (error);
}

static void
open_and_wait (TwWindow   *window,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (window, file);
  g_assert_true (tw_test_wait_until (not_loading, window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (window));
  g_assert_cmpstr (tw_window_get_page (window), ==, "trace");
}

static void
test_cold_open_in_cache_file (void)
{
  g_autofree char *path = NULL;
  Shown shown = { 0 };
  TwStateModel *model;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  use_cache ();
  path = simulate_dump ();
  shown.window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (shown.window), 1280, 900);
  g_signal_connect (shown.window, "first-frame", G_CALLBACK (first_frame_cb), &shown);

  /* while it loads, the trace shown maps a temporary file of the cache folder */
  open_and_wait (shown.window, path);
  g_assert_true (shown.seen);
  g_assert_true (shown.loading);
  g_assert_true (shown.temp_mapped);
  /* the trace shown while it loaded is the one the load returned */
  model = tw_view_state_get_model (tw_window_get_view_state (shown.window));
  g_assert_true (tw_state_model_get_trace (model) == shown.trace);
  g_assert_false (tw_state_model_get_from_cache (model));

  /* stored: the file renamed into place, the window's model in it */
  tw_trace_cache_wait_default ();
  g_assert_cmpuint (count_cache_files ("", ".twcache"), ==, 1);
  g_assert_cmpuint (count_cache_files (".tmp-", ""), ==, 0);
  g_assert_true (maps_cache_file (""));
  g_clear_object (&shown.trace);

  /* the reopen maps the store and the model */
  g_signal_handlers_disconnect_by_func (shown.window, first_frame_cb, &shown);
  open_and_wait (shown.window, path);
  model = tw_view_state_get_model (tw_window_get_view_state (shown.window));
  g_assert_true (tw_state_model_get_from_cache (model));
  g_assert_cmpuint (tw_trace_get_n_events (tw_state_model_get_trace (model)), >, N_EVENTS / 2);

  tw_test_close_window (GTK_WINDOW (shown.window));
  remove_dump (path);
}

/* A window closed, or a load cancelled, once the first frame showed (the model far from
 * complete): no temporary file is left in the cache folder, and nothing is stored. */
static void
stop_early (gboolean close)
{
  g_autofree char *path = NULL;
  Shown shown = { 0 };

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  use_cache ();
  path = simulate_dump ();
  shown.close = close;
  shown.window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (shown.window), 1280, 900);
  g_signal_connect (shown.window, "first-frame", G_CALLBACK (stop_at_first_frame_cb), &shown);
  {
    g_autoptr(GFile) file = g_file_new_for_path (path);

    tw_window_open_file (shown.window, file);
  }
  g_assert_true (tw_test_wait_until (stopped, &shown, WAIT_MS));
  g_assert_true (shown.loading);
  g_assert_true (shown.temp_mapped);
  g_assert_false (shown.whole);
  g_clear_object (&shown.trace);
  if (shown.window)
    g_assert_true (tw_test_wait_until (not_loading, shown.window, WAIT_MS));
  /* the load thread may still hold the trace: it lets go once the read stops */
  g_assert_true (tw_test_wait_until (no_temp_file, NULL, WAIT_MS));
  tw_trace_cache_wait_default ();
  g_assert_cmpuint (count_cache_files (".tmp-", ""), ==, 0);
  g_assert_cmpuint (count_cache_files ("", ".twcache"), ==, 0);

  tw_test_close_window (GTK_WINDOW (shown.window));
  remove_dump (path);
}

static void
test_closed_early (void)
{
  stop_early (TRUE);
}

static void
test_cancelled_early (void)
{
  stop_early (FALSE);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/story-cold-cache/shown-trace-in-cache-file", test_cold_open_in_cache_file);
  g_test_add_func ("/tw/app/story-cold-cache/closed-early", test_closed_early);
  g_test_add_func ("/tw/app/story-cold-cache/cancelled-early", test_cancelled_early);
  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
