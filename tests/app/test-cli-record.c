/* test-cli-record.c: `tracewb-cli monitor --record` as CTF, CSV and Keep recording; a CTF
 * recording keeps what its sensors declared and the monitor's counts of them
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
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
spawn (const char *const *argv,
       gboolean           out)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *process = g_subprocess_newv (argv, (out ? G_SUBPROCESS_FLAGS_STDOUT_PIPE : G_SUBPROCESS_FLAGS_STDOUT_SILENCE)
                                                  | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                            &error);

  g_assert_no_error (error);
  return process;
}

/* The demo writes its sensors for @duration s; the monitor reads them from the start
 * for @monitor_s and records to @record (plus @extra); with @report, its --json report. */
static void
run_session (Fixture    *fx,
             const char *record,
             const char *extra,
             gboolean  (*while_running) (const char *record),
             const char *monitor_s,
             char      **report)
{
  g_autofree char *sensors = g_build_filename (fx->dir, "sensors", NULL);
  const char *demo_argv[] = { g_getenv ("TW_DEMO_RT"), "--duration", "3", "--periods", "1,2", "--capacity", "64",
                              "--load", "0.1", "--keep", "--sensor-dir", sensors, NULL };
  const char *monitor_argv[] = { g_getenv ("TW_CLI"), "monitor", "--sensor-dir", sensors, "--from-start",
                                 "--duration", monitor_s, "--record", record,
                                 report ? "--json" : extra, report ? extra : NULL, NULL };
  g_autoptr(GSubprocess) demo = NULL;
  g_autoptr(GSubprocess) monitor = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  gboolean seen_while_running = while_running == NULL;

  g_assert_nonnull (demo_argv[0]);
  g_assert_nonnull (monitor_argv[0]);
  g_assert_cmpint (g_mkdir_with_parents (sensors, 0700), ==, 0);
  demo = spawn (demo_argv, FALSE);
  /* the demo's sensors exist before the monitor scans */
  for (guint i = 0; i < 200; i++)
    {
      g_autoptr(GDir) d = g_dir_open (sensors, 0, NULL);

      if (d && g_dir_read_name (d))
        break;
      g_usleep (10 * 1000);
    }
  monitor = spawn (monitor_argv, report != NULL);
  /* while the monitor runs (for @monitor_s seconds) */
  for (guint i = 0; i < 150 && !seen_while_running; i++)
    {
      seen_while_running = while_running (record);
      g_usleep (10 * 1000);
    }
  g_subprocess_communicate_utf8 (monitor, NULL, NULL, report, &err, &error);
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

  if ((out = tw_test_run_babeltrace2 (argv, &lines)))
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

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The "; "-separated entries of metadata @key of @trace, sorted. */
static GPtrArray *
sorted_entries (TwTrace    *trace,
                const char *key)
{
  g_autofree char *value = tw_trace_dup_metadata (trace, key);
  g_auto(GStrv) entries = NULL;
  GPtrArray *sorted = g_ptr_array_new_with_free_func (g_free);

  g_test_message ("%s: %s", key, value);
  g_assert_nonnull (value);
  entries = g_strsplit (value, "; ", -1);
  for (guint i = 0; entries[i]; i++)
    g_ptr_array_add (sorted, g_strdup (entries[i]));
  g_ptr_array_sort (sorted, compare_strings);
  return sorted;
}

static void
assert_same_entries (GPtrArray *expected,
                     GPtrArray *found)
{
  g_ptr_array_sort (expected, compare_strings);
  g_assert_cmpuint (found->len, ==, expected->len);
  for (guint i = 0; i < expected->len; i++)
    g_assert_cmpstr (found->pdata[i], ==, expected->pdata[i]);
}

/* The recording keeps what each of the demo's sensors declared (its job-start/job-end
 * sensors: T their thread's period, τ = T, T_M = d = 10 ms; `demo-rt@steps` nothing) and
 * the monitor's final counts of each, the same as its --json @report says. */
static void
assert_kept_sensors (TwTrace    *trace,
                     const char *report)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) declared = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) counted = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) streams = sorted_entries (trace, "sensor_streams");
  g_autoptr(GPtrArray) counts = sorted_entries (trace, "sensor_counts");
  g_autoptr(GError) error = NULL;
  JsonArray *sources;

  g_assert_true (json_parser_load_from_data (parser, report, -1, &error));
  g_assert_no_error (error);
  sources = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *o = json_array_get_object_element (sources, i);
      const char *name = json_object_get_string_member (o, "name");
      const char *task = json_object_get_string_member (o, "task");

      g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "sensor");
      g_ptr_array_add (counted, g_strdup_printf ("%s received=%" G_GINT64_FORMAT " missed=%" G_GINT64_FORMAT
                                                 " torn=%" G_GINT64_FORMAT, name,
                                                 json_object_get_int_member (o, "received"),
                                                 json_object_get_int_member (o, "missed"),
                                                 json_object_get_int_member (o, "inconsistent")));
      if (g_str_has_prefix (task, "demo-rt-"))
        {
          guint period_ms = task[8] == '0' ? 1 : 2;

          g_ptr_array_add (declared, g_strdup_printf ("%s T=%u000000 D=0 tau=%u000000 T_M=10000000 d=10000000",
                                                      name, period_ms, period_ms));
        }
    }
  g_assert_cmpuint (declared->len, ==, 4);
  g_assert_cmpuint (counted->len, ==, 5);
  assert_same_entries (declared, streams);
  assert_same_entries (counted, counts);
}

/* babeltrace2, when installed, reads the kept sensors in the recording's environment
 * (which its details sink prints at each stream's beginning: the events, all after the
 * first second of the monotonic clock, trimmed away). */
static void
assert_babeltrace2_environment (const char *path)
{
  const char *argv[] = { "babeltrace2", path, "--end=1", "-c", "sink.text.details", NULL };
  g_autofree char *out = tw_test_run_babeltrace2 (argv, NULL);

  if (out == NULL)
    return;
  g_assert_nonnull (strstr (out, "tracewb_sensor_streams: demo-rt-"));
  g_assert_nonnull (strstr (out, "tracewb_sensor_counts: demo-rt"));
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
  g_autofree char *report = NULL;

  run_session (fx, path, NULL, NULL, "1.5", &report);
  g_assert_true (g_file_test (metadata, G_FILE_TEST_IS_REGULAR));
  trace = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (trace), >, 0);
  g_assert_cmpuint (count_sensor_events (trace), ==, tw_trace_get_n_events (trace));
  assert_babeltrace2_count (path, tw_trace_get_n_events (trace));
  assert_kept_sensors (trace, report);
  assert_babeltrace2_environment (path);
}

/* --record FILE.csv: CSV stays as an export. */
static void
test_record_csv (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fx->dir, "session.csv", NULL);
  g_autofree char *text = NULL;

  run_session (fx, path, NULL, NULL, "1", NULL);
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
  g_autofree char *report = NULL;
  guint n_chunks = 0;
  const char *name;

  run_session (fx, path, "--keep-recording", first_chunk_exists, "2.5", &report);
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
  /* the last chunk's counts, written after the monitor stopped: its final ones */
  assert_kept_sensors (trace, report);
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
