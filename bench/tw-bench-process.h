/* tw-bench-process.h: timing whole processes, as the benchmarks that compare us with a
 * reference tool do
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <stdlib.h>
#include <sys/resource.h>

typedef struct {
  double wall;   /* s */
  double cpu;    /* s, user + system */
} Timing;

/* CPU time of the children waited for so far, in seconds. */
/* `NAME [--rounds N] TRACE...`: sets *@rounds when given; returns the index of the first
 * trace in @argv, or -1 after printing the usage when there is none. */
static inline int
tw_bench_parse_rounds (int          argc,
                       char       **argv,
                       const char  *name,
                       int         *rounds)
{
  int first = 1;

  if (argc > 2 && g_strcmp0 (argv[1], "--rounds") == 0)
    {
      *rounds = MAX (1, atoi (argv[2]));
      first = 3;
    }
  if (argc <= first)
    {
      g_printerr ("usage: %s [--rounds N] TRACE...\n", name);
      return -1;
    }
  return first;
}

static inline double
children_cpu (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec
         + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/* One whole process, its output thrown away. With @must_succeed a failed exit ends the
 * benchmark, since a tool that stopped early would look fast. */
static inline Timing
tw_bench_run_process (const char *const *argv,
                      gboolean           must_succeed)
{
  g_autoptr(GError) error = NULL;
  double cpu0 = children_cpu ();
  gint64 t0 = g_get_monotonic_time ();
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, NULL, NULL, &status, &error))
    g_error ("%s: %s", argv[0], error->message);
  if (must_succeed && !g_spawn_check_wait_status (status, &error))
    g_error ("%s %s: %s", argv[0], argv[1] ? argv[1] : "", error->message);
  return (Timing) { (g_get_monotonic_time () - t0) / 1e6, children_cpu () - cpu0 };
}
