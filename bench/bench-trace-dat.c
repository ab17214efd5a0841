/* bench-trace-dat.c: `tracewb-cli info` on a trace.dat beside the bare libtracecmd loop
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-trace-dat TRACE.dat [RUNS]
 *
 * Three whole processes per round, in turn so that a busy machine slows all three alike:
 * tracecmd-loop (the bare libtracecmd iteration, bench/tracecmd-loop.c), `tracewb-cli
 * --no-cache info` (which reads in the tracewb-reader helper,
 * docs/out-of-process-reading.md; not from the trace cache) and
 * `trace-cmd report`, output to /dev/null. Medians of RUNS (7) rounds, wall and CPU
 * (children's rusage: the helper's time is in tracewb-cli's), the load average, and the
 * ratios issue 16 sets, judged on CPU: ours ≤ 1.5× the bare loop, ≤ 0.15× trace-cmd
 * report. Record a big trace.dat as docs/trace-dat-and-ctf.md says; none is committed.
 */
#include "config.h"

#include "tw-bench-process.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <glib.h>
#include <glib/gstdio.h>

/* the first field of /proc/loadavg: how busy the machine was (the others' work too) */
static char *
dup_load_average (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  return g_strndup (text, strcspn (text, " "));
}

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static double
median (double *v,
        guint   n)
{
  qsort (v, n, sizeof *v, compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

typedef struct {
  const char *label;
  const char *argv[5];
  double     *wall;
  double     *cpu;
  Timing      median;
} Peer;

static void
print_ratio (const char *what,
             const Peer *ours,
             const Peer *peer,
             double      target)
{
  double wall = ours->median.wall / peer->median.wall;
  double cpu = ours->median.cpu / peer->median.cpu;

  /* judged on CPU: on a shared machine wall time also counts the others' work */
  g_print ("  %-36s %6.2f x wall %6.2f x CPU   (target <= %.2fx CPU: %s)\n", what, wall, cpu,
           target, cpu <= target ? "met" : "NOT met");
}

int
main (int    argc,
      char **argv)
{
  const char *dat = argc > 1 ? argv[1] : NULL;
  guint runs = argc > 2 ? (guint) g_ascii_strtoull (argv[2], NULL, 10) : 7;
  Peer peers[] = {
    { "tracecmd-loop (bare libtracecmd)", { TW_TRACECMD_LOOP_BUILT, dat, NULL } },
    /* reading the file, as the others do: a reopen from the trace cache is
     * bench-trace-cache's */
    { "tracewb-cli --no-cache info", { TW_CLI_BUILT, "--no-cache", "info", dat, NULL } },
    { "trace-cmd report > /dev/null", { "trace-cmd", "report", dat, NULL } },
  };
  GStatBuf st;
  g_autofree char *load_before = NULL;
  g_autofree char *load_after = NULL;

  if (dat == NULL || runs == 0 || g_stat (dat, &st) != 0)
    {
      g_printerr ("usage: bench-trace-dat TRACE.dat [RUNS]\n");
      return 2;
    }
  /* the helper beside tracewb-cli in the build tree, not an installed one */
  g_setenv ("TRACEWB_READER_HELPER", TW_READER_HELPER_BUILT, TRUE);

  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    {
      peers[p].wall = g_new0 (double, runs);
      peers[p].cpu = g_new0 (double, runs);
    }
  load_before = dup_load_average ();
  /* one untimed round so the file is in the page cache for everyone */
  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    tw_bench_run_process (peers[p].argv, TRUE);
  for (guint r = 0; r < runs; r++)
    for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
      {
        Timing t = tw_bench_run_process (peers[p].argv, TRUE);

        peers[p].wall[r] = t.wall;
        peers[p].cpu[r] = t.cpu;
      }

  load_after = dup_load_average ();
  g_print ("trace.dat %s (%.1f MB), median of %u runs, whole processes, load average %s -> %s\n",
           dat, st.st_size / 1e6, runs, load_before, load_after);
  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    {
      peers[p].median = (Timing) { median (peers[p].wall, runs), median (peers[p].cpu, runs) };
      g_print ("  %-36s %7.3f s wall %7.3f s CPU   (wall min %.3f, max %.3f)\n", peers[p].label,
               peers[p].median.wall, peers[p].median.cpu, peers[p].wall[0], peers[p].wall[runs - 1]);
    }
  print_ratio ("tracewb-cli info / bare loop", &peers[1], &peers[0], 1.5);
  print_ratio ("tracewb-cli info / trace-cmd report", &peers[1], &peers[2], 0.15);

  for (guint p = 0; p < G_N_ELEMENTS (peers); p++)
    {
      g_free (peers[p].wall);
      g_free (peers[p].cpu);
    }
  return 0;
}
