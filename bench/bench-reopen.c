/* bench-reopen.c: the window's time to first frame on reopening a trace from the trace
 * cache, beside its cold open from the trace, in the same process and run
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-reopen [--rounds N] TRACE...
 *
 * What the window's load thread and first draw do, stage by stage, timed in process
 * (best of N rounds; the trace's and the cache file's pages in the page cache, as a
 * reopen has them):
 *   cold:   read the trace (no cache) → state model → timeline painter → first frame
 *   reopen: map the cache file (every check) → state model → painter → first frame
 * twice: from a cache file of the store alone (what a reopen was before the state model
 * was cached: the model is built again) and from one holding the state model too, as the
 * window's background store now leaves it. The frame is 1920×1080 over the whole trace.
 * The cache folder is a temporary one, removed at the end.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-bench-process.h"

static int rounds = 3;

typedef struct {
  double load;
  double model;
  double frame;   /* painter made and first frame drawn */
} Stages;

static double
seconds_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
total (const Stages *s)
{
  return s->load + s->model + s->frame;
}

static void
keep_best (Stages       *best,
           const Stages *s)
{
  if (total (s) < total (best))
    *best = *s;
}

/* Model, painter and first frame of @trace; the model stays in @model_out. */
static void
model_and_frame (TwTrace       *trace,
                 Stages        *s,
                 TwStateModel **model_out)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(TwTimelinePainter) painter = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
  TwTimelineViewport vp = { 0 };
  gint64 t0 = g_get_monotonic_time ();

  if (!tw_state_model_update (model, NULL, &error))
    g_error ("state model: %s", error->message);
  s->model = seconds_since (t0);

  t0 = g_get_monotonic_time ();
  painter = tw_timeline_painter_new (model);
  vp.begin_ns = tw_trace_get_first_time (trace);
  vp.end_ns = tw_trace_get_last_time (trace) + 1;
  vp.width = 1920;
  vp.height = 1080;
  vp.cursor_ns = TW_TIME_NONE;
  tw_timeline_painter_time_frame (painter, surface, &vp);
  s->frame = seconds_since (t0);
  cairo_surface_destroy (surface);
  if (model_out)
    *model_out = g_steal_pointer (&model);
}

static void
print_stages (const char   *label,
              const Stages *s)
{
  g_print ("  %-34s %8.3f s  (load %.3f, state model %.3f, painter + frame %.3f)\n", label,
           total (s), s->load, s->model, s->frame);
}

/* Stores @trace's cache file (with @model's arrays when set), then reopens it N times. */
static Stages
reopen_best (const char   *path,
             TwTraceCache *cache,
             const char   *key,
             TwStateModel *model,
             double       *store_s)
{
  g_autoptr(GError) error = NULL;
  Stages best = { G_MAXDOUBLE, 0, 0 };
  gint64 t0;

  tw_trace_cache_clear (cache, NULL, NULL);
  {
    g_autoptr(TwTrace) trace = tw_trace_cache_lookup (cache, key, NULL, NULL);
    g_autoptr(TwTrace) read = NULL;

    g_assert_null (trace);
    read = model ? g_object_ref (tw_state_model_get_trace (model))
                 : tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL,
                                                      NULL, NULL, &error);
    if (read == NULL)
      g_error ("%s", error->message);
    t0 = g_get_monotonic_time ();
    if (!tw_trace_cache_store_with_model (cache, key, read, model, &error))
      g_error ("%s", error->message);
    *store_s = seconds_since (t0);
  }

  for (int r = 0; r < rounds; r++)
    {
      g_autoptr(TwTrace) trace = NULL;
      Stages s = { 0 };

      t0 = g_get_monotonic_time ();
      trace = tw_trace_cache_lookup (cache, key, NULL, &error);
      if (trace == NULL)
        g_error ("%s: no cache to map: %s", path, error ? error->message : "missing");
      s.load = seconds_since (t0);
      model_and_frame (trace, &s, NULL);
      keep_best (&best, &s);
      /* the model built on a store alone is written into its file in the background:
       * the next round reopens the store alone again */
      tw_trace_cache_wait (cache);
      if (model == NULL && !tw_trace_cache_store_with_model (cache, key, trace, NULL, &error))
        g_error ("%s", error->message);
    }
  return best;
}

static void
bench_trace (const char   *path,
             TwTraceCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *key = tw_trace_cache_dup_key (path, &error);
  g_autoptr(TwStateModel) built = NULL;
  Stages cold = { G_MAXDOUBLE, 0, 0 }, store_only, reopen;
  double store_s, store_model_s;
  guint64 n_events = 0, cache_bytes = 0;

  if (key == NULL)
    g_error ("%s", error->message);

  for (int r = 0; r < rounds; r++)
    {
      g_autoptr(TwTrace) trace = NULL;
      g_autoptr(TwStateModel) model = NULL;
      Stages s = { 0 };
      gint64 t0 = g_get_monotonic_time ();

      trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                                 NULL, &error);
      if (trace == NULL)
        g_error ("%s", error->message);
      s.load = seconds_since (t0);
      model_and_frame (trace, &s, &model);
      keep_best (&cold, &s);
      n_events = tw_trace_get_n_events (trace);
      if (r == 0)
        built = g_steal_pointer (&model);
    }

  store_only = reopen_best (path, cache, key, NULL, &store_s);
  reopen = reopen_best (path, cache, key, built, &store_model_s);
  {
    g_autoptr(GPtrArray) entries = tw_trace_cache_list (cache, NULL);

    if (entries && entries->len == 1)
      cache_bytes = ((TwTraceCacheEntry *) entries->pdata[0])->disk_bytes;
  }

  g_print ("%s: %" G_GUINT64_FORMAT " events, cache file %.1f MB on disk (stored in %.2f s, "
           "%.2f s with the state model)\n", path, n_events, cache_bytes / 1e6, store_s,
           store_model_s);
  print_stages ("cold open, first frame", &cold);
  print_stages ("reopen, store cached alone", &store_only);
  print_stages ("reopen, store + state model cached", &reopen);
  g_print ("  reopen: %.0f ms to first frame, %.1fx faster than the cold open\n",
           total (&reopen) * 1e3, total (&cold) / total (&reopen));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = g_dir_make_tmp ("bench-reopen-XXXXXX", NULL);
  g_autofree char *cache_dir = g_build_filename (dir, "tracewb", "traces", NULL);
  g_autoptr(TwTraceCache) cache = tw_trace_cache_new (cache_dir);
  int first = tw_bench_parse_rounds (argc, argv, "bench-reopen", &rounds);

  if (first < 0)
    return 2;
  g_unsetenv ("TRACEWB_NO_CACHE");
  if (!g_getenv ("TRACEWB_READER_HELPER"))
    g_setenv ("TRACEWB_READER_HELPER", TW_READER_HELPER_BUILT, TRUE);
  /* unlimited but for the disk */
  tw_trace_cache_set_limit (cache, G_MAXUINT64);

  for (int i = first; i < argc; i++)
    bench_trace (argv[i], cache);

  tw_trace_cache_clear (cache, NULL, NULL);
  g_rmdir (cache_dir);
  {
    g_autofree char *parent = g_path_get_dirname (cache_dir);

    g_rmdir (parent);
  }
  g_rmdir (dir);
  return 0;
}
