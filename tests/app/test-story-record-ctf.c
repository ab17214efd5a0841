/* test-story-record-ctf.c: Record… to CTF during a live demo, reopened in the window;
 * Cancel leaves nothing; Keep recording grows while the session runs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb --live-demo`, Record… (Ctrl+R) into a CTF trace folder while it runs, reopen
 * it: the same events per type, the same times, tasks and fields; babeltrace2 prints as
 * many. A sensor of the test adds a burst of elements first, so that the session is
 * large enough for writing it to take a while.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include <string.h>
#include <unistd.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-recorder.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-record.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define BULK_EVENTS    (4 * TW_TEST_RECORD_BURST)

static TwApplication *app;
static gboolean have_display;

typedef TwTestRecord Fixture;

#define SKIP_WITHOUT_DEMO_OR_CTF()                                    \
  G_STMT_START {                                                      \
    g_autoptr(GError) ctf_error = NULL;                               \
    if (!have_display)                                                \
      {                                                               \
        g_test_skip ("no display (run under xvfb-run)");              \
        return;                                                       \
      }                                                               \
    if (g_getenv ("TW_DEMO_RT") == NULL)                              \
      {                                                               \
        g_test_skip ("TW_DEMO_RT not set (run through meson test)");  \
        return;                                                       \
      }                                                               \
    if (!tw_ctf_writer_is_available (&ctf_error))                     \
      {                                                               \
        g_test_skip (ctf_error->message);                             \
        return;                                                       \
      }                                                               \
  } G_STMT_END

/* ------------------------------------------------------------------ helpers */

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  tw_test_record_setup (fx, have_display ? app : NULL, "tw-story-record-ctf-XXXXXX");
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  tw_test_record_teardown (fx);
}

/* The recording read back holds the first @n events of the live store: the same count
 * per type, and each sensor element of the test's bulk sensor with its task and field. */
static void
assert_same_as_live (TwTrace *live,
                     TwTrace *reread,
                     guint64  n)
{
  g_autoptr(GHashTable) live_counts = tw_test_record_count_types (live, n);
  g_autoptr(GHashTable) reread_counts = tw_test_record_count_types (reread, n);
  GHashTableIter iter;
  gpointer name, count;
  guint64 n_bulk = 0;

  g_assert_cmpuint (tw_trace_get_n_events (reread), ==, n);
  g_assert_cmpuint (g_hash_table_size (reread_counts), ==, g_hash_table_size (live_counts));
  g_hash_table_iter_init (&iter, live_counts);
  while (g_hash_table_iter_next (&iter, &name, &count))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (reread_counts, name)), ==, GPOINTER_TO_UINT (count));

  for (guint64 e = 0; e < n; e++)
    {
      TwEvent ev;
      const TwEventType *type;
      const TwTask *task;
      g_autofree char *seq = NULL;

      tw_trace_get_event (reread, e, &ev);
      type = tw_trace_get_event_type (reread, ev.type);
      if (type->kind != TW_EVENT_KIND_SENSOR || tw_event_type_lookup_field (type, "seq") < 0)
        continue;
      g_assert_cmpstr (type->family, ==, "sensor");
      task = tw_trace_get_task (reread, ev.task);
      g_assert_nonnull (task);
      g_assert_cmpstr (task->name, ==, "bulk");
      g_assert_cmpint (task->pid, ==, getpid ());
      seq = tw_test_dup_event_field (reread, e, "seq");
      g_assert_cmpstr (seq, !=, NULL);
      n_bulk++;
    }
  g_assert_cmpuint (n_bulk, >=, TW_TEST_RECORD_BURST);
}

/* The recording keeps what the demo's sensors declared and the session's counts of its
 * sensors, as a local monitor's recording does (docs/monitor.md, *Recording*). */
static void
assert_kept_sensors (TwTrace *reread)
{
  g_autofree char *streams = tw_trace_dup_metadata (reread, "sensor_streams");
  g_autofree char *counts = tw_trace_dup_metadata (reread, "sensor_counts");

  g_test_message ("sensor_streams: %s\nsensor_counts: %s", streams, counts);
  g_assert_nonnull (streams);
  g_assert_nonnull (counts);
  g_assert_true (g_regex_match_simple ("(^|; )demo-rt-0@job-start T=[0-9]+ D=0 tau=[0-9]+ T_M=10000000 d=10000000(;|$)",
                                       streams, 0, 0));
  /* the test's sensor declared nothing */
  g_assert_null (strstr (streams, "bulk@tick"));
  g_assert_true (g_regex_match_simple ("(^|; )bulk@tick received=[1-9][0-9]* missed=[0-9]+ torn=[0-9]+(;|$)",
                                       counts, 0, 0));
}

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

/* babeltrace2 prints one line per event of the folder, when installed. */
static void
assert_babeltrace2_prints (const char *path,
                           guint64     n)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  guint64 lines = 0;
  g_autofree char *out = tw_test_run_babeltrace2 (argv, &lines);

  if (out == NULL)
    return;
  g_assert_cmpuint (lines, ==, n);
  /* the test's sensor's task, as LTTng's context names a process */
  g_assert_nonnull (strstr (out, "procname = \"bulk\""));
}

/* Opens @path in the window, as Open… does, and checks it holds @n events. */
static void
reopen_in_window (Fixture    *fx,
                  const char *path,
                  guint64     n)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (not_loading, fx->window, TW_TEST_RECORD_WAIT_MS));
  g_assert_null (tw_window_get_error_message (fx->window));
  g_assert_cmpuint (tw_trace_get_n_events (tw_state_model_get_trace (tw_view_state_get_model (tw_window_get_view_state (fx->window)))),
                    ==, n);
}

/* ------------------------------------------------------------------ tests */

static gboolean
chooser_points_at_session (gpointer data)
{
  return tw_test_record_chooser_names (data, "session");
}

/* Ctrl+R asks for a name, CTF by default; the trace folder appears whole, babeltrace2
 * prints it and the window reopens it with the events of the live store. */
static void
test_record_ctf (Fixture       *fx,
                 gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) folder = NULL;
  g_autoptr(TwTrace) reread = NULL;
  g_autofree char *path = g_build_filename (fx->record_dir, "session", NULL);
  g_autofree char *metadata = g_build_filename (path, "metadata", NULL);
  g_autofree char *name = NULL;
  GtkFileFilter *filter;
  GtkNativeDialog *chooser;
  guint64 n_before, n_recorded;

  SKIP_WITHOUT_DEMO_OR_CTF ();
  if (tw_test_input_skip ())
    return;
  tw_test_record_start_demo (fx, BULK_EVENTS);
  tw_test_input_keys (GTK_WIDGET (fx->window), "ctrl+r");
  g_assert_true (tw_test_wait_until (tw_test_record_has_chooser, tw_test_record_recorder (fx), TW_TEST_RECORD_WAIT_MS));
  chooser = tw_recorder_get_chooser (tw_test_record_recorder (fx));
  name = gtk_file_chooser_get_current_name (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpstr (name, ==, "live-session");
  filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (chooser));
  g_assert_nonnull (filter);
  g_assert_true (g_str_has_prefix (gtk_file_filter_get_name (filter), "CTF"));
  folder = g_file_new_for_path (fx->record_dir);
  g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, &error));
  g_assert_no_error (error);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "session");
  /* answered as GTK answers it once the name is checked (see test-story-record.c) */
  g_assert_true (tw_test_wait_until (chooser_points_at_session, fx, TW_TEST_RECORD_WAIT_MS));
  n_before = tw_trace_get_n_events (tw_test_record_live_trace (fx));
  gtk_native_dialog_hide (chooser);
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_ACCEPT);

  g_assert_true (tw_test_wait_until (tw_test_record_idle, tw_test_record_recorder (fx), TW_TEST_RECORD_WAIT_MS));
  g_assert_no_error (fx->finished_error);
  g_assert_cmpuint (fx->n_finished, ==, 1);
  g_assert_cmpstr (tw_recorder_get_path (tw_test_record_recorder (fx)), ==, path);
  g_assert_cmpstr (tw_recorder_get_status (tw_test_record_recorder (fx)), ==, "Saved session");
  g_assert_true (g_file_test (metadata, G_FILE_TEST_IS_REGULAR));
  /* the folder alone: its hidden partial folder is gone */
  g_assert_cmpuint (tw_test_record_count_entries (fx->record_dir, ""), ==, 1);

  n_recorded = tw_recorder_get_n_events (tw_test_record_recorder (fx));
  g_assert_cmpuint (n_recorded, >=, n_before);
  g_assert_cmpuint (n_recorded, >=, BULK_EVENTS);
  reread = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_same_as_live (tw_test_record_live_trace (fx), reread, n_recorded);
  assert_kept_sensors (reread);
  assert_babeltrace2_prints (path, n_recorded);
  reopen_in_window (fx, path, n_recorded);
}

/* Cancel at once: neither the folder nor a hidden partial folder is left. */
static void
test_cancel (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (fx->record_dir, "cancelled", NULL);

  SKIP_WITHOUT_DEMO_OR_CTF ();
  tw_test_record_start_demo (fx, BULK_EVENTS);
  g_assert_true (tw_window_record (fx->window, path, &error));
  g_assert_no_error (error);
  g_assert_true (tw_recorder_get_busy (tw_test_record_recorder (fx)));
  gtk_widget_activate (tw_recorder_get_cancel_button (tw_test_record_recorder (fx)));
  g_assert_true (tw_test_wait_until (tw_test_record_idle, tw_test_record_recorder (fx), TW_TEST_RECORD_WAIT_MS));
  g_assert_cmpuint (fx->n_finished, ==, 1);
  /* a recording quicker than the click is whole; else nothing is there */
  if (fx->finished_error)
    {
      g_assert_error (fx->finished_error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_cmpuint (tw_test_record_count_entries (fx->record_dir, ""), ==, 0);
    }
  else
    g_test_message ("the recording was whole before Cancel");
  g_assert_null (tw_window_get_error_message (fx->window));
}

static gboolean
first_chunk_on_disk (gpointer data)
{
  g_autofree char *metadata = g_build_filename (data, "chunk-000001", "metadata", NULL);

  return g_file_test (metadata, G_FILE_TEST_IS_REGULAR);
}

static gboolean
n_chunks_at_least_2 (gpointer data)
{
  g_autofree char *metadata = g_build_filename (data, "chunk-000002", "metadata", NULL);

  return g_file_test (metadata, G_FILE_TEST_IS_REGULAR);
}

/* The Keep recording toggle: chunks appear while the session runs, each readable on
 * its own; Stop writes the last one; the folder reopens with every event recorded. */
static void
test_keep_recording (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) first = NULL;
  g_autofree char *path = g_build_filename (fx->record_dir, "kept", NULL);
  g_autofree char *chunk = g_build_filename (path, "chunk-000001", NULL);
  guint64 n_recorded;

  SKIP_WITHOUT_DEMO_OR_CTF ();
  tw_test_record_start_demo (fx, TW_TEST_RECORD_BURST);
  tw_recorder_set_keep_recording (tw_test_record_recorder (fx), TRUE);
  g_assert_true (tw_window_record (fx->window, path, &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (first_chunk_on_disk, path, TW_TEST_RECORD_WAIT_MS));
  g_assert_true (tw_recorder_get_busy (tw_test_record_recorder (fx)));
  first = tw_reader_registry_load_file (chunk, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (first), >, 0);
  g_assert_true (tw_test_wait_until (n_chunks_at_least_2, path, TW_TEST_RECORD_WAIT_MS));
  g_assert_true (g_str_has_prefix (tw_recorder_get_status (tw_test_record_recorder (fx)), "Recording… "));

  /* the session ends (the window's Stop is the recorder's) */
  tw_live_session_stop (fx->session);
  tw_recorder_stop (tw_test_record_recorder (fx));
  g_assert_true (tw_test_wait_until (tw_test_record_idle, tw_test_record_recorder (fx), TW_TEST_RECORD_WAIT_MS));
  g_assert_no_error (fx->finished_error);
  n_recorded = tw_recorder_get_n_events (tw_test_record_recorder (fx));
  g_assert_cmpuint (n_recorded, ==, tw_trace_get_n_events (tw_test_record_live_trace (fx)));
  g_assert_cmpuint (tw_test_record_count_entries (path, "."), ==, 0);
  assert_babeltrace2_prints (path, n_recorded);
  reopen_in_window (fx, path, n_recorded);
}

int
main (int    argc,
      char **argv)
{
  tw_test_record_keep_system_schemas ();
  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func) \
  g_test_add ("/tw/app/story-record-ctf/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("record", test_record_ctf);
  ADD ("cancel", test_cancel);
  ADD ("keep-recording", test_keep_recording);
#undef ADD

  return g_test_run ();
}
