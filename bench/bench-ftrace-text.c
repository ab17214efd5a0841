/* bench-ftrace-text.c: ftrace text ingest beside `trace-cmd report` on the same trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-ftrace-text [TRACE.dat] [RUNS]
 *
 * Times the peer, `trace-cmd report TRACE.dat > text`, then our ftrace-text reader on
 * that text (read + seal, from page cache), best of RUNS each, in the same run.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>

static char *
default_trace (void)
{
  return g_build_filename (TW_SOURCE_DIR, "..", "shared", "traces", "ftrace", "recorded",
                           "sched_irq_5s.dat", NULL);
}

static double
run_trace_cmd (const char *dat,
               const char *out)
{
  const char *argv[] = { "/bin/sh", "-c", "exec trace-cmd report \"$1\" > \"$2\"", "sh",
                         dat, out, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;
  gint64 start = g_get_monotonic_time ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("trace-cmd report %s: %s", dat, error->message);
  return (g_get_monotonic_time () - start) / 1e6;
}

static double
run_ingest (const char *text,
            guint64    *n_events,
            gsize      *memory)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  gint64 start = g_get_monotonic_time ();
  double seconds;

  trace = tw_reader_registry_load_file (text, "ftrace-text", NULL, NULL, NULL, &error);
  seconds = (g_get_monotonic_time () - start) / 1e6;
  if (trace == NULL)
    g_error ("%s", error->message);
  *n_events = tw_trace_get_n_events (trace);
  *memory = tw_trace_get_memory_size (trace);
  return seconds;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *dat = argc > 1 ? g_strdup (argv[1]) : default_trace ();
  guint runs = argc > 2 ? MAX (1, atoi (argv[2])) : 5;
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  g_autofree char *dir = NULL;
  g_autofree char *text = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  double best_peer = G_MAXDOUBLE;
  double best_ours = G_MAXDOUBLE;
  guint64 n_events = 0;
  gsize memory = 0;
  gsize text_len = 0;

  if (trace_cmd == NULL)
    {
      g_printerr ("bench-ftrace-text: trace-cmd is not installed (apt-get install trace-cmd)\n");
      return 77;
    }
  if (!g_file_test (dat, G_FILE_TEST_EXISTS))
    {
      g_printerr ("bench-ftrace-text: %s: no such file\n", dat);
      return 1;
    }
  if (!(dir = g_dir_make_tmp ("bench-ftrace-XXXXXX", &error)))
    g_error ("%s", error->message);
  text = g_build_filename (dir, "report.txt", NULL);

  for (guint i = 0; i < runs; i++)
    best_peer = MIN (best_peer, run_trace_cmd (dat, text));

  /* warm the page cache so both sides read from memory */
  if (!g_file_get_contents (text, &contents, &text_len, &error))
    g_error ("%s", error->message);
  g_clear_pointer (&contents, g_free);

  for (guint i = 0; i < runs; i++)
    best_ours = MIN (best_ours, run_ingest (text, &n_events, &memory));

  g_print ("trace          %s\n", dat);
  g_print ("text           %" G_GSIZE_FORMAT " bytes, %" G_GUINT64_FORMAT " events, best of %u\n",
           text_len, n_events, runs);
  g_print ("trace-cmd report > text   %8.3f ms  %12.0f events/s   (peer)\n",
           best_peer * 1e3, n_events / best_peer);
  g_print ("tracewb ftrace-text read  %8.3f ms  %12.0f events/s  %7.1f MB/s  (%.1fx)\n",
           best_ours * 1e3, n_events / best_ours, text_len / best_ours / 1e6,
           best_peer / best_ours);
  g_print ("store memory              %8.1f bytes/event\n", (double) memory / MAX (n_events, 1));

  g_unlink (text);
  g_rmdir (dir);
  return 0;
}
