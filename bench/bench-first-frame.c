/* bench-first-frame.c: the window's cold time to first frame, whole process, beside
 * `cat` of the same file
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-first-frame [--rounds N] TRACE...     (needs a display: run under xvfb-run)
 *
 * For each trace, best of N rounds, the file in the page cache (a cold open of a trace
 * the user just wrote or copied; the trace cache off, so the trace is read and its
 * state model built):
 *   cat TRACE > /dev/null
 *   tracewb --no-cache --exit-after-first-frame TRACE: start, read, first paint of the
 *     timeline (the process quits there)
 *   tracewb --no-cache --exit-after-startup TRACE: until the load is complete (the whole
 *     state model built, every pane showing the trace)
 * With TW_TRACEWB_BEFORE=PATH, also PATH --no-cache --exit-after-startup TRACE: a
 * build from before the window drew traces as they load, whose first frame came once
 * the load was complete. The children get private data, config and cache folders.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "tw-bench-process.h"

static int rounds = 3;

/* Best wall time of N runs, with its CPU time (user + system): on a shared machine the
 * steadier figure. */
static Timing
best_of (const char *const *argv)
{
  Timing best = { G_MAXDOUBLE, 0 };

  for (int r = 0; r < rounds; r++)
    {
      Timing t = tw_bench_run_process (argv, TRUE);

      if (t.wall < best.wall)
        best = t;
    }
  return best;
}

static void
bench_trace (const char *tracewb,
             const char *before,
             const char *path)
{
  g_autofree char *quoted = g_shell_quote (path);
  g_autofree char *cat = g_strdup_printf ("cat %s > /dev/null", quoted);
  const char *cat_argv[] = { "/bin/sh", "-c", cat, NULL };
  const char *first_argv[] = { tracewb, "--no-cache", "--exit-after-first-frame", path, NULL };
  const char *whole_argv[] = { tracewb, "--no-cache", "--exit-after-startup", path, NULL };
  const char *before_argv[] = { before, "--no-cache", "--exit-after-startup", path, NULL };
  Timing cat_t, first_t, whole_t;
  GStatBuf st;

  if (g_stat (path, &st) != 0)
    g_error ("%s: cannot stat", path);
  tw_bench_run_process (cat_argv, TRUE);   /* into the page cache */
  cat_t = best_of (cat_argv);
  first_t = best_of (first_argv);
  whole_t = best_of (whole_argv);

  g_print ("%s: %.1f MB\n", path, st.st_size / 1e6);
  g_print ("  cat FILE > /dev/null                  %7.3f s  (cpu %.3f s)\n", cat_t.wall, cat_t.cpu);
  g_print ("  tracewb, cold: first frame            %7.3f s  (cpu %.3f s)  %.1fx cat\n", first_t.wall,
           first_t.cpu, first_t.wall / cat_t.wall);
  g_print ("  tracewb, cold: load complete          %7.3f s  (cpu %.3f s)  %.1fx cat\n", whole_t.wall,
           whole_t.cpu, whole_t.wall / cat_t.wall);
  if (before)
    {
      Timing before_t = best_of (before_argv);

      g_print ("  before (first frame = load complete)  %7.3f s  (cpu %.3f s)  %.1fx cat: "
               "first frame %.1fx sooner now\n", before_t.wall, before_t.cpu,
               before_t.wall / cat_t.wall, before_t.wall / first_t.wall);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("bench-first-frame-XXXXXX", NULL);
  const char *tracewb = g_getenv ("TW_TRACEWB") ? g_getenv ("TW_TRACEWB") : TW_TRACEWB_BUILT;
  const char *before = g_getenv ("TW_TRACEWB_BEFORE");
  int first = tw_bench_parse_rounds (argc, argv, "bench-first-frame", &rounds);
  const char *subdirs[] = { "data", "config", "cache" };
  const char *vars[] = { "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME" };

  if (first < 0)
    return 2;
  if (!g_getenv ("DISPLAY") && !g_getenv ("WAYLAND_DISPLAY"))
    {
      g_printerr ("bench-first-frame: no display (run it under xvfb-run)\n");
      return 2;
    }
  /* the recent files list and the cache folder of the runs are not the user's */
  for (guint i = 0; i < G_N_ELEMENTS (subdirs); i++)
    {
      g_autofree char *sub = g_build_filename (dir, subdirs[i], NULL);

      g_mkdir (sub, 0700);
      g_setenv (vars[i], sub, TRUE);
    }
  g_setenv ("TRACEWB_NO_CACHE", "1", TRUE);

  for (int i = first; i < argc; i++)
    bench_trace (tracewb, before, argv[i]);

  {
    g_autofree char *rm = g_strdup_printf ("rm -rf %s", dir);
    const char *rm_argv[] = { "/bin/sh", "-c", rm, NULL };

    tw_bench_run_process (rm_argv, FALSE);
  }
  return 0;
}
