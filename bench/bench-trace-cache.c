/* bench-trace-cache.c: reopening a trace from the trace cache, beside reading it and
 * beside `cat` of the file, as whole processes in the same run
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-trace-cache [--rounds N] TRACE...
 *
 * For each trace, best of N rounds (the trace's pages in the page cache, as a reopen has
 * them): `cat TRACE > /dev/null`; `tracewb-cli --no-cache info TRACE` (read from the
 * trace); the first `tracewb-cli info TRACE` with an empty cache folder (read, and store
 * the cache before exiting); `tracewb-cli info TRACE` again (mapped from the cache). Then
 * in this process: mapping the cache (the whole load of a reopen, the check of every row
 * included), and the state model built on the trace read with and without a store of it
 * running beside (what the window does before its first frame). The cache folder is a
 * temporary one, removed at the end.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>

#include "tw-bench-process.h"

static int rounds = 3;

static Timing
best_of (const char *const *argv,
         gboolean           clear_cache_first,
         TwTraceCache      *cache)
{
  Timing best = { G_MAXDOUBLE, G_MAXDOUBLE };

  for (int r = 0; r < rounds; r++)
    {
      Timing t;

      if (clear_cache_first)
        tw_trace_cache_clear (cache, NULL, NULL);
      t = tw_bench_run_process (argv, TRUE);
      best.wall = MIN (best.wall, t.wall);
      best.cpu = MIN (best.cpu, t.cpu);
    }
  return best;
}

static double
seconds_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e6;
}

/* The state model of @trace, in seconds, with a store of @trace running beside when
 * @cache is set (as the window's load thread leaves one running). */
static double
model_seconds (TwTrace      *trace,
               TwTraceCache *cache,
               const char   *key)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(GError) error = NULL;
  gint64 t0;
  double s;

  if (cache)
    {
      tw_trace_cache_clear (cache, NULL, NULL);
      tw_trace_cache_store_in_background (cache, key, trace);
    }
  t0 = g_get_monotonic_time ();
  if (!tw_state_model_update (model, NULL, &error))
    g_error ("state model: %s", error->message);
  s = seconds_since (t0);
  if (cache)
    tw_trace_cache_wait (cache);
  return s;
}

static void
bench_trace (const char   *cli,
             const char   *path,
             TwTraceCache *cache)
{
  const char *const cat[] = { "cat", path, NULL };
  const char *const no_cache[] = { cli, "--no-cache", "info", path, NULL };
  const char *const info[] = { cli, "info", path, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *key = tw_trace_cache_dup_key (path, &error);
  g_autoptr(TwTrace) read = NULL;
  g_autoptr(TwTrace) mapped = NULL;
  Timing t_cat, t_cold, t_store, t_warm;
  double map_best = G_MAXDOUBLE, model_alone = G_MAXDOUBLE, model_beside = G_MAXDOUBLE;
  GStatBuf st;
  guint64 cache_bytes = 0;

  if (key == NULL)
    g_error ("%s", error->message);
  g_assert_true (g_stat (path, &st) == 0);

  t_cat = best_of (cat, FALSE, cache);
  t_cold = best_of (no_cache, FALSE, cache);
  t_store = best_of (info, TRUE, cache);
  t_warm = best_of (info, FALSE, cache);
  {
    g_autoptr(GPtrArray) entries = tw_trace_cache_list (cache, NULL);

    if (entries && entries->len == 1)
      cache_bytes = ((TwTraceCacheEntry *) entries->pdata[0])->disk_bytes;
  }

  for (int r = 0; r < rounds; r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      g_clear_object (&mapped);
      mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
      if (mapped == NULL)
        g_error ("%s: no cache to map: %s", path, error ? error->message : "missing");
      map_best = MIN (map_best, seconds_since (t0));
    }

  read = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                            NULL, &error);
  if (read == NULL)
    g_error ("%s", error->message);
  for (int r = 0; r < MAX (rounds - 1, 1); r++)
    {
      model_alone = MIN (model_alone, model_seconds (read, NULL, NULL));
      model_beside = MIN (model_beside, model_seconds (read, cache, key));
    }

  g_print ("%s: %.1f MB, %" G_GUINT64_FORMAT " events, cache file %.1f MB on disk\n", path,
           st.st_size / 1e6, tw_trace_get_n_events (mapped), cache_bytes / 1e6);
  g_print ("  cat FILE > /dev/null                  %7.3f s  (cpu %.3f s)\n", t_cat.wall, t_cat.cpu);
  g_print ("  tracewb-cli --no-cache info (read)    %7.3f s  (cpu %.3f s)  %5.2fx cat\n",
           t_cold.wall, t_cold.cpu, t_cold.wall / t_cat.wall);
  g_print ("  tracewb-cli info, first (read+store)  %7.3f s  (cpu %.3f s)  %5.2fx cat\n",
           t_store.wall, t_store.cpu, t_store.wall / t_cat.wall);
  g_print ("  tracewb-cli info, reopen (cache)      %7.3f s  (cpu %.3f s)  %5.2fx cat, %.1fx faster than read\n",
           t_warm.wall, t_warm.cpu, t_warm.wall / t_cat.wall, t_cold.wall / t_warm.wall);
  g_print ("  in process: map the cache, rows checked %6.3f s\n", map_best);
  g_print ("  in process: state model alone          %6.3f s, with a store running beside %.3f s (%+.0f %%)\n",
           model_alone, model_beside, 100.0 * (model_beside / model_alone - 1));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("bench-trace-cache-XXXXXX", NULL);
  g_autofree char *cache_dir = g_build_filename (dir, "tracewb", "traces", NULL);
  g_autoptr(TwTraceCache) cache = tw_trace_cache_new (cache_dir);
  const char *cli = g_getenv ("TW_CLI") ? g_getenv ("TW_CLI") : TW_CLI_BUILT;
  int first = tw_bench_parse_rounds (argc, argv, "bench-trace-cache", &rounds);

  if (first < 0)
    return 2;
  /* the children's cache is this run's, on and unlimited but for the disk */
  g_setenv ("XDG_CACHE_HOME", dir, TRUE);
  g_unsetenv ("TRACEWB_NO_CACHE");
  g_unsetenv ("TRACEWB_CACHE_LIMIT");
  if (!g_getenv ("TRACEWB_READER_HELPER"))
    g_setenv ("TRACEWB_READER_HELPER", TW_READER_HELPER_BUILT, TRUE);

  for (int i = first; i < argc; i++)
    bench_trace (cli, argv[i], cache);

  tw_trace_cache_clear (cache, NULL, NULL);
  g_rmdir (cache_dir);
  {
    g_autofree char *parent = g_path_get_dirname (cache_dir);

    g_rmdir (parent);
  }
  g_rmdir (dir);
  return 0;
}
