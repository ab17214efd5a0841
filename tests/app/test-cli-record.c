/* test-cli-record.c: `tracewb-cli monitor --record` as CTF, CSV and Keep recording
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

typedef struct {
  char *dir;         /* sensors and recordings */
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("tw-cli-record-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  tw_test_remove_tree (fx->dir);
  g_free (fx->dir);
}

static GSubprocess *
spawn (const char *const *argv)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *process = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                            &error);

  g_assert_no_error (error);
  return process;
}

/* The demo writes its sensors for @duration s; the monitor reads them from the start
 * for @monitor_s and records to @record (plus @extra). */
static void
run_session (Fixture    *fx,
             const char *record,
             const char *extra,
             gboolean  (*while_running) (const char *record),
             const char *monitor_s)
{
  g_autofree char *sensors = g_build_filename (fx->dir, "sensors", NULL);
  const char *demo_argv[] = { g_getenv ("TW_DEMO_RT"), "--duration", "3", "--periods", "1,2", "--capacity", "64",
                              "--load", "0.1", "--keep", "--sensor-dir", sensors, NULL };
  const char *monitor_argv[] = { g_getenv ("TW_CLI"), "monitor", "--sensor-dir", sensors, "--from-start",
                                 "--duration", monitor_s, "--record", record, extra, NULL };
  g_autoptr(GSubprocess) demo = NULL;
  g_autoptr(GSubprocess) monitor = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  gboolean seen_while_running = while_running == NULL;

  g_assert_nonnull (demo_argv[0]);
  g_assert_nonnull (monitor_argv[0]);
  g_assert_cmpint (g_mkdir_with_parents (sensors, 0700), ==, 0);
  demo = spawn (demo_argv);
  /* the demo's sensors exist before the monitor scans */
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(GDir) d = g_dir_open (sensors, 0, NULL);

      if (d && g_dir_read_name (d))
        break;
      g_usleep (10 * 1000);
    }
  monitor = spawn (monitor_argv);
  /* while the monitor runs (for @monitor_s seconds) */
  for (guint i = 0; i < 150 && !seen_while_running; i++)
    {
      seen_while_running = while_running (record);
      g_usleep (10 * 1000);
    }
  g_subprocess_communicate_utf8 (monitor, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  g_test_message ("monitor: %s", err);
  g_assert_true (g_subprocess_get_if_exited (monitor));
  g_assert_cmpint (g_subprocess_get_exit_status (monitor), ==, 0);
  g_assert_true (seen_while_running);
  g_subprocess_force_exit (demo);
  g_subprocess_wait (demo, NULL, NULL);
}

static TwTrace *
read_ctf (const char *path)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_ctf_reader_info.read (path, trace, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

/* babeltrace2 prints as many events as tracewb reads, when it is installed. */
static void
assert_babeltrace2_count (const char *path,
                          guint64     n_events)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  g_autofree char *out = NULL;
  guint64 lines = 0;
  int status = 0;

  out = tw_test_run_tool (argv, &status);
  if (out == NULL)
    {
      g_test_message ("babeltrace2 is not installed: its reading of %s is not checked", path);
      return;
    }
  g_assert_cmpint (status, ==, 0);
  for (const char *p = out; *p; p++)
    lines += *p == '\n';
  g_assert_cmpuint (lines, ==, n_events);
}

static guint64
count_sensor_events (TwTrace *trace)
{
  guint64 n = 0;

  for (guint64 e = 0; e < tw_trace_get_n_events (trace); e++)
    {
      TwEvent ev;

      tw_trace_get_event (trace, e, &ev);
      n += tw_trace_get_event_type (trace, ev.type)->kind == TW_EVENT_KIND_SENSOR;
    }
  return n;
}

/* --record DIR: a CTF trace folder at the end, the demo's sensor elements in it as
 * sensor events of their tasks. */
static void
test_record_ctf (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fx->dir, "session", NULL);
  g_autofree char *metadata = g_build_filename (path, "metadata", NULL);
  g_autoptr(TwTrace) trace = NULL;

  run_session (fx, path, NULL, NULL, "1.5");
  g_assert_true (g_file_test (metadata, G_FILE_TEST_IS_REGULAR));
  trace = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (trace), >, 0);
  g_assert_cmpuint (count_sensor_events (trace), ==, tw_trace_get_n_events (trace));
  assert_babeltrace2_count (path, tw_trace_get_n_events (trace));
}

/* --record FILE.csv: CSV stays as an export. */
static void
test_record_csv (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fx->dir, "session.csv", NULL);
  g_autofree char *text = NULL;

  run_session (fx, path, NULL, NULL, "1");
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# Trace Workbench CSV events"));
}

static gboolean
first_chunk_exists (const char *record)
{
  g_autofree char *metadata = g_build_filename (record, "chunk-000001", "metadata", NULL);

  return g_file_test (metadata, G_FILE_TEST_IS_REGULAR);
}

/* --record DIR --keep-recording: whole chunk traces appear while the monitor runs; at
 * the end the folder reads as one trace, in tracewb and in babeltrace2. */
static void
test_keep_recording (Fixture       *fx,
                     gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fx->dir, "kept", NULL);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GDir) dir = NULL;
  guint n_chunks = 0;
  const char *name;

  run_session (fx, path, "--keep-recording", first_chunk_exists, "2.5");
  dir = g_dir_open (path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)))
    {
      /* no hidden partial chunk is left behind */
      g_assert_true (g_str_has_prefix (name, "chunk-"));
      n_chunks++;
    }
  g_assert_cmpuint (n_chunks, >=, 2);
  trace = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (trace), >, 0);
  assert_babeltrace2_count (path, tw_trace_get_n_events (trace));
}

static void
test_keep_needs_folder (void)
{
  const char *argv[] = { g_getenv ("TW_CLI"), "monitor", "--keep-recording", "--record", "x.csv", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  tw_test_run_cli (argv + 1, &out, &err, &status);
  g_assert_nonnull (strstr (err, "--keep-recording needs --record DIR"));
}

static void
skip_unavailable (void)
{
  g_test_skip ("CTF cannot be written here (babeltrace2 or its ctf plugin missing)");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!tw_ctf_writer_is_available (&error))
    {
      g_test_message ("CTF cannot be written here: %s", error->message);
      g_test_add_func ("/cli-record/unavailable", skip_unavailable);
      return g_test_run ();
    }
  g_test_add ("/cli-record/ctf", Fixture, NULL, fixture_setup, test_record_ctf, fixture_teardown);
  g_test_add ("/cli-record/csv", Fixture, NULL, fixture_setup, test_record_csv, fixture_teardown);
  g_test_add ("/cli-record/keep-recording", Fixture, NULL, fixture_setup, test_keep_recording, fixture_teardown);
  g_test_add_func ("/cli-record/keep-needs-folder", test_keep_needs_folder);
  return g_test_run ();
}
