/* test-story-trust.c: nothing a file does takes the workbench down
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Story 1 (open a trace): a CTF trace on which libbabeltrace2 2.0.4 aborts, opened in the
 * real window while another window shows a trace and the designer holds an unsaved
 * automaton: one error names the file, the library, the signal and the library's last
 * words; the window shows what it showed before and opens the next file; the other
 * window and the designer are untouched. The same file through tracewb-cli: exit 1 and
 * that one line. A reader killed mid-load (as the out-of-memory killer would) is such an
 * error too; Cancel on a load kills the reader and reaps it.
 */
#include "config.h"

#include <sys/wait.h>
#include <tw-evaluators.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-designer-window.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-reader-process.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;
static gboolean have_display;

typedef struct {
  TwWindow *window;
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (!have_display)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1280, 900);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (have_display)
    tw_test_close_window (GTK_WINDOW (fx->window));
}

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

/* Opens @path as File → Open does and waits for the load to end. */
static void
open_and_wait (TwWindow   *window,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (window, file);
  g_assert_cmpstr (tw_window_get_page (window), ==, "loading");
  g_assert_true (tw_test_wait_until (not_loading, window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 2);
}

static gboolean
have_ctf_crash (const char *path)
{
  g_autoptr(TwReader) ctf = tw_reader_new (&tw_ctf_reader_info);
  const char *argv[] = { "babeltrace2", path, NULL };
  g_autofree char *out = NULL;
  int status = 0;

  if (tw_reader_get_library (ctf) == NULL)
    {
      g_test_skip ("CTF support was not built");
      return FALSE;
    }
  /* babeltrace2's own program dies on it too, unless a later babeltrace2 reads it */
  if ((out = tw_test_run_tool (argv, &status)) != NULL && !WIFSIGNALED (status))
    {
      g_test_skip ("this babeltrace2 reads the fixture: there is no crash to contain");
      return FALSE;
    }
  return TRUE;
}

static void
assert_crash_message (const char *message,
                      const char *path)
{
  g_assert_nonnull (message);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, path));
  g_assert_nonnull (strstr (message, "libbabeltrace2 2."));
  g_assert_nonnull (strstr (message, "SIGABRT"));
  g_assert_nonnull (strstr (message, "Assertion `tgt_fc` failed"));
}

static TwDesignerWindow *
find_designer (void)
{
  return (TwDesignerWindow *) tw_test_find_toplevel (TW_TYPE_DESIGNER_WINDOW, FALSE);
}

static gboolean
preview_finished (gpointer data)
{
  return !tw_designer_window_get_preview_running (data);
}

/* ---------------------------------------------------------------- tests */

static void
test_cli_library_crash (void)
{
  g_autofree char *path = tw_test_dup_fixture_path (TW_TEST_BT2_ABORT_FIXTURE);
  const char *argv[] = { g_getenv ("TW_CLI"), "info", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  int status = 0;

  if (!have_ctf_crash (path))
    return;
  g_assert_nonnull (argv[0]);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out,
                               &err, &status, &error));
  g_assert_no_error (error);
  /* it exits, with a failure, not by the library's signal */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpstr (out, ==, "");
  lines = g_strsplit (g_strchomp (err), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1);
  g_assert_true (g_str_has_prefix (lines[0], "tracewb-cli info: "));
  assert_crash_message (lines[0], path);
}

static void
test_library_crash_in_window (Fixture       *fx,
                              gconstpointer  data)
{
  g_autofree char *crash = tw_test_dup_fixture_path (TW_TEST_BT2_ABORT_FIXTURE);
  g_autofree char *dat = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *ctf = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autofree char *text = tw_test_dup_fixture_path ("ftrace/tracefs-sched-irq.txt");
  TwWindow *other;
  TwDesignerWindow *designer;
  TwAutomaton *automaton;
  TwViewState *before, *other_state;
  guint n_states;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (dat == NULL || ctf == NULL)
    {
      g_test_skip ("the shared traces are not there");
      return;
    }
  if (!have_ctf_crash (crash))
    return;

  /* a trace here, another in a second window, an unsaved automaton in the designer */
  open_and_wait (fx->window, dat);
  g_assert_true (page_is_trace (fx->window));
  before = tw_window_get_view_state (fx->window);
  other = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (other), 1000, 700);
  open_and_wait (other, ctf);
  g_assert_true (page_is_trace (other));
  other_state = tw_window_get_view_state (other);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.designer", NULL));
  designer = find_designer ();
  g_assert_nonnull (designer);
  g_assert_true (tw_designer_window_open_template (designer, "irq-duration", NULL));
  automaton = tw_automaton_canvas_get_automaton (tw_designer_window_get_canvas (designer));
  tw_automaton_canvas_add_state (tw_designer_window_get_canvas (designer), TW_STATE_KIND_IN,
                                 900, 500);
  n_states = tw_automaton_get_n_states (automaton);

  /* the file babeltrace2 aborts on */
  open_and_wait (fx->window, crash);
  assert_crash_message (tw_window_get_error_message (fx->window), crash);
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "trace");
  /* past the loading page's cross-fade */
  tw_test_wait_frames (GTK_WIDGET (fx->window), 40);
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "reader-crash.png");
  g_assert_true (tw_window_get_view_state (fx->window) == before);

  /* the other window, the designer and its edit are all there */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (other)));
  g_assert_true (page_is_trace (other));
  g_assert_true (tw_window_get_view_state (other) == other_state);
  tw_test_wait_frames (GTK_WIDGET (other), 2);
  g_assert_true (find_designer () == designer);
  g_assert_cmpuint (tw_automaton_get_n_states (automaton), ==, n_states);
  g_assert_true (tw_automaton_canvas_undo (tw_designer_window_get_canvas (designer)));
  tw_designer_window_update_preview (designer);
  g_assert_true (tw_test_wait_until (preview_finished, designer, WAIT_MS));
  g_assert_cmpint (tw_designer_window_get_n_measurements (designer), >, 0);

  /* and this window goes on: the error goes away, the next file opens */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.dismiss-error", NULL));
  g_assert_null (tw_window_get_error_message (fx->window));
  open_and_wait (fx->window, text);
  g_assert_true (page_is_trace (fx->window));
  g_assert_null (tw_window_get_error_message (fx->window));

  gtk_window_destroy (GTK_WINDOW (designer));
  tw_test_close_window (GTK_WINDOW (other));
}

/* A reader killed mid-load: one error with the signal, and the window reads again. */
static void
test_killed_reader (Fixture       *fx,
                    gconstpointer  data)
{
  g_autofree char *dat = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  const char *message;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (dat == NULL)
    {
      g_test_skip ("the shared traces are not there");
      return;
    }
  g_setenv (TW_TEST_READER_HOOK_ENV, "kill-after-progress", TRUE);
  open_and_wait (fx->window, dat);
  g_unsetenv (TW_TEST_READER_HOOK_ENV);
  message = tw_window_get_error_message (fx->window);
  g_assert_nonnull (message);
  g_test_message ("%s", message);
  /* the window's file has its path made canonical */
  g_assert_nonnull (strstr (message, "/shared/traces/ftrace/recorded/sched_irq_5s.dat: "));
  g_assert_nonnull (strstr (message, "libtracecmd"));
  g_assert_nonnull (strstr (message, "SIGKILL"));
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "welcome");

  open_and_wait (fx->window, dat);
  g_assert_true (page_is_trace (fx->window));
  g_assert_null (tw_window_get_error_message (fx->window));
}

static gboolean
reader_running (gpointer data)
{
  GPid *pid = data;

  return (*pid = tw_test_find_reader_child ()) > 0;
}

static GtkWidget *
find_cancel_button (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget) &&
      g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "win.cancel-load") == 0)
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_cancel_button (c);

      if (found)
        return found;
    }
  return NULL;
}

/* Cancel on the loading page kills the reader (that process) and reaps it. */
static void
test_cancel_kills_reader (Fixture       *fx,
                          gconstpointer  data)
{
  g_autofree char *ctf = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autoptr(GFile) file = NULL;
  GtkWidget *cancel;
  GPid pid = 0;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (ctf == NULL)
    {
      g_test_skip ("the shared traces are not there");
      return;
    }
  /* the reader stops after its first progress report, until it is killed */
  g_setenv (TW_TEST_READER_HOOK_ENV, "stall-after-progress", TRUE);
  file = g_file_new_for_path (ctf);
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (reader_running, &pid, WAIT_MS));
  g_unsetenv (TW_TEST_READER_HOOK_ENV);
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "loading");
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);

  cancel = find_cancel_button (GTK_WIDGET (fx->window));
  g_assert_nonnull (cancel);
  g_assert_true (gtk_widget_is_sensitive (cancel) && gtk_widget_is_drawable (cancel));
  gtk_widget_activate (cancel);
  g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));

  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "welcome");
  g_assert_null (tw_window_get_error_message (fx->window));
  g_assert_false (tw_test_pid_exists (pid));
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

  g_test_add_func ("/tw/app/story-trust/cli-library-crash", test_cli_library_crash);
#define ADD(path, func) g_test_add ("/tw/app/story-trust/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("library-crash-in-window", test_library_crash_in_window);
  ADD ("killed-reader", test_killed_reader);
  ADD ("cancel-kills-reader", test_cancel_kills_reader);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
