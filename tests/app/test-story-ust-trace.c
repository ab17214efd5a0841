/* test-story-ust-trace.c: a user opens an LTTng UST trace that has no kernel events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tests/fixtures/ctf/ust-only: five tracelog start/end pairs of tests/lib/lttng-emit,
 * recorded by LTTng with the vpid/vtid/procname contexts, no kernel events: no context
 * switch says when the program ran. Its task still gets a row, and its events are drawn
 * on it where they happened, as the sensor tasks of a live session are.
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-task-marks.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 30000

static TwApplication *app;

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

static void
test_task_row (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("ctf/ust-only");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  TwWindow *window;
  TwTrace *trace;
  guint64 first, last, start, end;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!HAVE_BABELTRACE)
    {
      g_test_skip ("built without libbabeltrace2");
      return;
    }
  window = tw_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 800);
  gtk_window_present (GTK_WINDOW (window));
  tw_window_open_file (window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (window));
  trace = tw_view_state_get_trace (tw_window_get_view_state (window));
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 10);
  first = tw_trace_get_time (trace, 0);
  last = tw_trace_get_time (trace, 9);
  start = tw_trace_get_time (trace, 2);
  end = tw_trace_get_time (trace, 3);

  /* "start 1" is drawn; halfway to its "end 1", 1 ms later, nothing is */
  tw_test_assert_task_marks (window, trace, "lttng-emit", first, last, start, start + (end - start) / 2);
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/ust-trace/task-row", test_task_row);
  return g_test_run ();
}
