/* test-reader-registry.c: a reader that is only a TwReaderInfo, known to the registry
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Readers are described, not subclassed: the "ticks" reader below exists only in this
 * file, and once added it is probed, found by name and read like the built-in ones.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <tw-ingest.h>

#include "tw-test-utils.h"

#define TICKS_MAGIC "TICKS\n"

/* "TICKS" then one "TIME CPU" line per event, all of one type "tick". */
static guint
ticks_probe (const char   *path,
             const guint8 *head,
             gsize         head_len)
{
  return head_len >= strlen (TICKS_MAGIC) && memcmp (head, TICKS_MAGIC, strlen (TICKS_MAGIC)) == 0
         ? 100 : 0;
}

static gboolean
ticks_read (const char      *path,
            TwTrace         *trace,
            TwProgressFunc   progress,
            gpointer         progress_data,
            GCancellable    *cancellable,
            GError         **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint16 tick;

  if (!g_file_get_contents (path, &text, NULL, error))
    return FALSE;
  tick = tw_trace_add_event_type (trace, "tick", "ticks", TW_EVENT_KIND_OTHER, NULL, 0, error);
  if (tick == TW_TYPE_NONE)
    return FALSE;
  lines = g_strsplit (text + strlen (TICKS_MAGIC), "\n", -1);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      guint64 time, cpu;

      if (sscanf (lines[i], "%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT, &time, &cpu) != 2)
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, path, i + 2,
                                       "not “TIME CPU”");
          return FALSE;
        }
      tw_trace_append (trace, time, (guint16) cpu, tick, TW_TASK_NONE, 0, NULL);
    }
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

static const TwReaderInfo ticks_reader_info = {
  .name = "ticks",
  .label = "tick list",
  .description = "A list of ticks, for the registry's test",
  .suffixes = (const char *const[]) { "ticks", NULL },
  .probe = ticks_probe,
  .read = ticks_read,
};

/* A twin of the CSV reader, as sure as it is of the same files: only the file's name can
 * tell the two apart. Its probe and read are the CSV reader's, given in main(). */
static TwReaderInfo csv_twin_reader_info = {
  .name = "csv-twin",
  .label = "twin CSV",
  .description = "Reads CSV files whose name ends in .twin",
  .suffixes = (const char *const[]) { "twin", NULL },
};

static void
add_test_readers (void)
{
  csv_twin_reader_info.probe = tw_csv_reader_info.probe;
  csv_twin_reader_info.read = tw_csv_reader_info.read;
  csv_twin_reader_info.parse = tw_csv_reader_info.parse;
  tw_reader_registry_add (&ticks_reader_info);
  tw_reader_registry_add (&csv_twin_reader_info);
}

/* ---------------------------------------------------------------- tests */

static void
test_added_reader_loads (void)
{
  g_autofree char *path = tw_test_write_temp_file ("three.ticks",
                                                   TICKS_MAGIC "10 0\n20 1\n30 0\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) found = tw_reader_registry_find ("ticks");
  g_autoptr(TwReader) probed = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwTrace) isolated = NULL;
  g_autofree char *format = NULL;

  g_assert_nonnull (found);
  g_assert_true (tw_reader_get_info (found) == &ticks_reader_info);
  g_assert_null (tw_reader_get_library (found));

  probed = tw_reader_registry_probe_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_reader_get_name (probed), ==, "ticks");

  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tw_trace_is_sealed (trace));
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 3);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 2);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, 30);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "ticks");

  /* no outside library: asking for isolation reads it here all the same */
  isolated = tw_reader_registry_load_file_full (path, "ticks", TW_LOAD_OUT_OF_PROCESS, NULL,
                                                NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (isolated), ==, 3);
}

static void
test_added_reader_errors (void)
{
  g_autofree char *path = tw_test_write_temp_file ("bad.ticks", TICKS_MAGIC "10 0\nten\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *expected = g_strdup_printf ("%s: line 3: not “TIME CPU”", path);

  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
assert_probed_as (const char *basename,
                  const char *reader_name)
{
  g_autofree char *path = tw_test_write_temp_file (basename,
                                                   "time_ns,cpu,task,event\n1,0,a,user\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) reader = tw_reader_registry_probe_file (path, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (tw_reader_get_name (reader), ==, reader_name);
}

/* Equally sure readers: the one whose suffix the file has, else the first listed. */
static void
test_suffix_breaks_ties (void)
{
  assert_probed_as ("events.csv", "csv");
  assert_probed_as ("events.twin", "csv-twin");
  assert_probed_as ("events.txt", "csv");
  assert_probed_as ("events", "csv");
}

/* A reader whose library was not built still knows its files, and says what to install. */
static void
test_reader_without_its_library (void)
{
  static const TwReaderInfo unbuilt = {
    .name = "ticks-lib",
    .label = "library ticks",
    .probe = ticks_probe,
    .build_package = "libticks-dev",
  };
  g_autofree char *path = tw_test_write_temp_file ("one.ticks", TICKS_MAGIC "1 0\n", -1);
  g_autoptr(TwReader) reader = tw_reader_new (&unbuilt);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = g_strdup_printf (
    "%s: library ticks support was not built (install libticks-dev and rebuild)", path);

  g_assert_cmpuint (tw_reader_probe (reader, path, (const guint8 *) TICKS_MAGIC,
                                     strlen (TICKS_MAGIC)), ==, 100);
  g_assert_false (tw_reader_read (reader, path, trace, NULL, NULL, NULL, &error));
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED);
  g_assert_cmpstr (error->message, ==, expected);
}

/* The message lists what every reader reads, the added ones too. */
static void
test_unknown_format_lists_readers (void)
{
  g_autofree char *path = tw_test_write_temp_file ("noise.ticks", "neither of these lines\n", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) reader = tw_reader_registry_probe_file (path, &error);
  g_autofree char *expected = g_strdup_printf (
    "%s: not a trace format Trace Workbench knows (S.Ha.R.K. dump, CSV events, ftrace text, "
    "trace.dat, CTF, tick list, twin CSV)", path);

  g_assert_null (reader);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT);
  g_assert_cmpstr (error->message, ==, expected);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  add_test_readers ();

  g_test_add_func ("/tw/ingest/reader-registry/added-reader-loads", test_added_reader_loads);
  g_test_add_func ("/tw/ingest/reader-registry/added-reader-errors", test_added_reader_errors);
  g_test_add_func ("/tw/ingest/reader-registry/suffix-breaks-ties", test_suffix_breaks_ties);
  g_test_add_func ("/tw/ingest/reader-registry/unknown-format-lists-readers",
                   test_unknown_format_lists_readers);
  g_test_add_func ("/tw/ingest/reader-registry/reader-without-its-library",
                   test_reader_without_its_library);

  return g_test_run ();
}
