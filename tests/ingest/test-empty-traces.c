/* test-empty-traces.c: a trace without events opens as 0 events, not an error, in every
 * reader (the same path the window and tracewb-cli take, the reader helper included)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-test-utils.h>

#include <glib/gstdio.h>
#include <string.h>

static char *
make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tw-empty-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* Opens @path as the window does (format probed) and checks it is @format with 0 events. */
static void
assert_opens_empty (const char *path,
                    const char *format)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *read_format = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 0);
  read_format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (read_format, ==, format);
}

static void
test_csv_header_only (void)
{
  static const char text[] = "time_ns,cpu,task,event,next\n";
  g_autofree char *path = tw_test_write_temp_file ("header-only.csv", text, sizeof text - 1);

  assert_opens_empty (path, "csv");
}

static void
test_ftrace_header_only (void)
{
  static const char text[] =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 0/0   #P:2\n"
    "#\n"
    "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
    "#              | |         |   |||||     |         |\n";
  g_autofree char *path = tw_test_write_temp_file ("header-only.txt", text, sizeof text - 1);

  assert_opens_empty (path, "ftrace-text");
}

static void
test_trace_dat_without_events (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("trace-dat/empty-v7.dat");

  assert_opens_empty (path, "trace-dat");
}

/* An empty trace: metadata, and stream files without packets (as LTTng leaves the
 * per-CPU files of a channel nothing was traced on). */
static void
write_empty_ctf (const char *path)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *stream = g_build_filename (path, "chan_0", NULL);

  g_assert_cmpint (g_mkdir_with_parents (parent, 0755), ==, 0);
  g_assert_true (tw_ctf_writer_write_events (trace, 0, path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (stream, "", 0, &error));
  g_assert_no_error (error);
}

static void
test_ctf_empty_streams (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *path = g_build_filename (dir, "trace", NULL);

  write_empty_ctf (path);
  assert_opens_empty (path, "ctf");
  tw_test_remove_tree (dir);
}

/* An LTTng session folder whose only trace, ust/uid/1000/64-bit, holds nothing. */
static void
test_lttng_session_empty_ust (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *session = g_build_filename (dir, "auto-20261127-101010", NULL);
  g_autofree char *ust = g_build_filename (session, "ust", "uid", "1000", "64-bit", NULL);

  write_empty_ctf (ust);
  assert_opens_empty (session, "ctf");
  tw_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/empty-traces/csv-header-only", test_csv_header_only);
  g_test_add_func ("/empty-traces/ftrace-header-only", test_ftrace_header_only);
  if (tw_reader_registry_find ("trace-dat") && tw_reader_get_info (tw_reader_registry_find ("trace-dat"))->read)
    g_test_add_func ("/empty-traces/trace-dat-without-events", test_trace_dat_without_events);
  if (tw_ctf_writer_is_available (&error))
    {
      g_test_add_func ("/empty-traces/ctf-empty-streams", test_ctf_empty_streams);
      g_test_add_func ("/empty-traces/lttng-session-empty-ust", test_lttng_session_empty_ust);
    }
  else
    g_test_message ("no CTF here (%s): the CTF cases are not run", error->message);
  return g_test_run ();
}
