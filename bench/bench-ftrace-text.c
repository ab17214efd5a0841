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
#include <sys/resource.h>
#include <time.h>
#include <tw-ingest.h>

/* Wall time and CPU time: on a shared, loaded machine CPU time is the steadier figure. */
typedef struct {
  double wall;
  double cpu;
} Timing;

static double
children_cpu (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static double
self_cpu (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
keep_best (Timing       *best,
           const Timing *t)
{
  best->wall = MIN (best->wall, t->wall);
  best->cpu = MIN (best->cpu, t->cpu);
}

static char *
default_trace (void)
{
  return g_build_filename (TW_SOURCE_DIR, "..", "shared", "traces", "ftrace", "recorded",
                           "sched_irq_5s.dat", NULL);
}

static Timing
run_trace_cmd (const char *dat,
               const char *out)
{
  double cpu_start = children_cpu ();
  Timing t;
  const char *argv[] = { "/bin/sh", "-c", "exec trace-cmd report \"$1\" > \"$2\"", "sh",
                         dat, out, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;
  gint64 start = g_get_monotonic_time ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                     NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, &error))
    g_error ("trace-cmd report %s: %s", dat, error->message);
  t.wall = (g_get_monotonic_time () - start) / 1e6;
  t.cpu = children_cpu () - cpu_start;
  return t;
}

static Timing
run_ingest (const char *text,
            guint64    *n_events,
            gsize      *memory)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  gint64 start = g_get_monotonic_time ();
  double cpu_start = self_cpu ();
  Timing t;

  trace = tw_reader_registry_load_file (text, "ftrace-text", NULL, NULL, NULL, &error);
  t.wall = (g_get_monotonic_time () - start) / 1e6;
  t.cpu = self_cpu () - cpu_start;
  if (trace == NULL)
    g_error ("%s", error->message);
  *n_events = tw_trace_get_n_events (trace);
  *memory = tw_trace_get_memory_size (trace);
  return t;
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
  Timing peer = { G_MAXDOUBLE, G_MAXDOUBLE };
  Timing ours = { G_MAXDOUBLE, G_MAXDOUBLE };
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
    {
      Timing t = run_trace_cmd (dat, text);

      keep_best (&peer, &t);
    }

  /* warm the page cache so both sides read from memory */
  if (!g_file_get_contents (text, &contents, &text_len, &error))
    g_error ("%s", error->message);
  g_clear_pointer (&contents, g_free);

  for (guint i = 0; i < runs; i++)
    {
      Timing t = run_ingest (text, &n_events, &memory);

      keep_best (&ours, &t);
    }

  g_print ("trace          %s\n", dat);
  g_print ("text           %" G_GSIZE_FORMAT " bytes, %" G_GUINT64_FORMAT " events, best of %u\n",
           text_len, n_events, runs);
  g_print ("%-26s %10s %14s %10s %14s\n", "", "wall ms", "events/s", "cpu ms", "events/s");
  g_print ("%-26s %10.1f %14.0f %10.1f %14.0f   (peer)\n", "trace-cmd report > text",
           peer.wall * 1e3, n_events / peer.wall, peer.cpu * 1e3, n_events / peer.cpu);
  g_print ("%-26s %10.1f %14.0f %10.1f %14.0f   %.1f MB/s wall\n", "tracewb ftrace-text read",
           ours.wall * 1e3, n_events / ours.wall, ours.cpu * 1e3, n_events / ours.cpu,
           text_len / ours.wall / 1e6);
  g_print ("%-26s %10.1fx %24.1fx\n", "tracewb faster by", peer.wall / ours.wall,
           peer.cpu / ours.cpu);
  g_print ("store memory              %8.1f bytes/event\n", (double) memory / MAX (n_events, 1));

  g_unlink (text);
  g_rmdir (dir);
  return 0;
}
