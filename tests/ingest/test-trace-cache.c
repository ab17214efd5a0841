/* test-trace-cache.c: the trace cache — round trips, staleness, damaged files, the folder
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every test has a cache folder of its own (G_TEST_OPTION_ISOLATE_DIRS).
 */
#include "config.h"

#include <fcntl.h>
#include <signal.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tw-test-reader-process.h"
#include "tw-test-utils.h"

#define HEADER_BYTES  ((gsize) 2 << 20)
#define SLOT_BYTES    ((gsize) TW_CHUNK_SIZE * 24 + ((gsize) G_MAXUINT32 + 1))

static TwTraceCache *
new_cache (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", "traces", NULL);

  return tw_trace_cache_new (dir);
}

/* A file standing for the trace (its key is what matters), in the test's own folder. */
static char *
make_trace_file (const char *name,
                 const char *contents)
{
  char *path = g_build_filename (g_get_user_data_dir (), name, NULL);

  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static TwTrace *
synthetic_trace (guint64 n,
                 guint   seed)
{
  TwTrace *trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  tw_test_fill_synthetic (trace, n, seed);
  g_assert_true (tw_trace_seal (trace, NULL, &error));
  g_assert_no_error (error);
  return trace;
}

/* Stores @trace for @path and gives the key and the cache file: the store alone unless
 * @model (tests of the store need no state model, and building one is the slow part). */
static char *
store_full (TwTraceCache *cache,
            const char   *path,
            TwTrace      *trace,
            gboolean      model,
            char        **file)
{
  g_autoptr(GError) error = NULL;
  char *key = tw_trace_cache_dup_key (path, &error);

  g_assert_no_error (error);
  if (model)
    g_assert_true (tw_trace_cache_store (cache, key, trace, &error));
  else
    g_assert_true (tw_trace_cache_store_with_model (cache, key, trace, NULL, &error));
  g_assert_no_error (error);
  *file = tw_trace_cache_dup_file_for_key (cache, key);
  g_assert_true (g_file_test (*file, G_FILE_TEST_IS_REGULAR));
  return key;
}

static char *
store (TwTraceCache *cache,
       const char   *path,
       TwTrace      *trace,
       char        **file)
{
  return store_full (cache, path, trace, FALSE, file);
}

/* Whether this process maps @file (a trace from the cache is its mapping). */
static gboolean
maps_file (const char *file)
{
  g_autofree char *maps = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  return strstr (maps, file) != NULL;
}

/* The temporary files in the default cache's folder (a store or a reader child going on):
 * the folder of the first test that used it. */
static guint
count_temp_files (void)
{
  g_autoptr(GDir) dir = g_dir_open (tw_trace_cache_get_dir (tw_trace_cache_get_default ()), 0, NULL);
  const char *name;
  guint n = 0;

  while (dir && (name = g_dir_read_name (dir)))
    n += g_str_has_prefix (name, ".tmp-");
  return n;
}

/* Every table and row of a trace of every kind, over two chunks, with strings and
 * optional fields, comes back from its cache file the same; the file is sparse. */
static void
test_round_trip_synthetic (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (3 * TW_CHUNK_SIZE / 2 + 77, 5);
  g_autofree char *path = make_trace_file ("synthetic.txt", "stands for a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store (cache, path, trace, &file);
  g_autofree char *expected = tw_test_dup_trace_digest (trace);
  g_autofree char *digest = NULL;
  g_autoptr(TwTrace) mapped = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf st;

  mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (mapped);
  g_assert_true (tw_trace_is_sealed (mapped));
  digest = tw_test_dup_trace_digest (mapped);
  g_assert_cmpstr (digest, ==, expected);
  g_assert_cmpuint (tw_trace_get_n_chunks (mapped), ==, 2);
  g_assert_true (maps_file (file));

  /* two slots of 4 GiB apart, but only the rows and payloads take room */
  g_assert_true (g_stat (file, &st) == 0);
  g_assert_cmpuint (st.st_size, >, SLOT_BYTES);
  g_assert_cmpuint ((guint64) st.st_blocks * 512, <, 64 << 20);

  /* the format asked for must be the one the cache holds */
  g_clear_object (&mapped);
  mapped = tw_trace_cache_lookup (cache, key, "csv", &error);
  g_assert_no_error (error);
  g_assert_null (mapped);
  mapped = tw_trace_cache_lookup (cache, key, "synthetic", &error);
  g_assert_nonnull (mapped);
}

/* What each in-process reader and the trace.dat reader (out of process) make comes back
 * the same through the registry, and the second load maps the cache file. */
static void
test_round_trip_readers (void)
{
  static const char *const fixtures[] = {
    "csv/sched.csv", "csv/kinds.csv", "ftrace/tracefs-sched-irq.txt",
    "ftrace/report-x86-tsc.txt", "trace-dat/sched-irq-v7.dat",
  };
  TwTraceCache *cache;

  /* this test is the one user of the default cache, made in this test's folders */
  g_unsetenv ("TRACEWB_NO_CACHE");
  cache = tw_trace_cache_get_default ();
  g_assert_nonnull (cache);
  g_assert_true (g_str_has_prefix (tw_trace_cache_get_dir (cache), g_get_user_cache_dir ()));

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures",
                                                       fixtures[i], NULL);
      g_autofree char *base = g_path_get_basename (source);
      g_autofree char *path = g_build_filename (g_get_user_data_dir (), base, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *key = NULL;
      g_autofree char *file = NULL;
      g_autofree char *read_digest = NULL;
      g_autofree char *mapped_digest = NULL;
      g_autoptr(TwTrace) read = NULL;
      g_autoptr(TwTrace) mapped = NULL;
      g_autoptr(GError) error = NULL;
      gsize len;

      /* a copy: the key names the path, and the fixture must stay as it is */
      g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
      g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
      g_assert_true (g_file_set_contents (path, contents, len, NULL));
      key = tw_trace_cache_dup_key (path, &error);
      g_assert_no_error (error);
      file = tw_trace_cache_dup_file_for_key (cache, key);

      read = tw_reader_registry_load_file_full (path, NULL,
                                                TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      tw_trace_cache_wait (cache);
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
      /* the file the reader (child or in process) made the trace in became the cache
       * file, renamed: the trace read maps it */
      g_assert_true (maps_file (file));
      g_assert_cmpuint (count_temp_files (), ==, 0);

      mapped = tw_reader_registry_load_file_full (path, NULL,
                                                  TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                  NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (maps_file (file));
      read_digest = tw_test_dup_trace_digest (read);
      mapped_digest = tw_test_dup_trace_digest (mapped);
      g_assert_cmpstr (mapped_digest, ==, read_digest);
      g_test_message ("%s: %" G_GUINT64_FORMAT " events, digest %s", fixtures[i],
                      tw_trace_get_n_events (mapped), mapped_digest);
    }

  /* turned off, nothing is mapped */
  tw_trace_cache_set_default_enabled (FALSE);
  g_assert_null (tw_trace_cache_get_default ());
  tw_trace_cache_set_default_enabled (TRUE);
}

/* A trace changed since (touched, or rewritten) has another key: its old cache file is
 * not used, and storing the new one removes it. */
static void
test_stale (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (1000, 1);
  g_autofree char *path = make_trace_file ("stale.txt", "version one");
  g_autofree char *old_file = NULL, *new_file = NULL;
  g_autofree char *old_key = store (cache, path, trace, &old_file);
  g_autofree char *new_key = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(TwTrace) found = NULL;
  g_autoptr(GError) error = NULL;
  struct timespec times[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };

  g_assert_true (utimensat (AT_FDCWD, path, times, 0) == 0);
  new_key = tw_trace_cache_dup_key (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (new_key, !=, old_key);
  found = tw_trace_cache_lookup (cache, new_key, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (found);

  entries = tw_trace_cache_list (cache, &error);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpstr (((TwTraceCacheEntry *) entries->pdata[0])->state, ==, "stale");
  g_assert_cmpstr (((TwTraceCacheEntry *) entries->pdata[0])->trace_path, ==, path);
  g_clear_pointer (&entries, g_ptr_array_unref);

  g_clear_pointer (&new_key, g_free);
  new_key = store (cache, path, trace, &new_file);
  g_assert_false (g_file_test (old_file, G_FILE_TEST_EXISTS));
  entries = tw_trace_cache_list (cache, &error);
  g_assert_cmpuint (entries->len, ==, 1);
  g_assert_cmpstr (((TwTraceCacheEntry *) entries->pdata[0])->state, ==, "current");

  /* the same size and time but other bytes at its end: the hash of its edges tells */
  g_clear_pointer (&old_key, g_free);
  old_key = g_strdup (new_key);
  {
    GStatBuf st;
    struct timespec keep[2];
    int fd;

    g_assert_true (g_stat (path, &st) == 0);
    keep[0] = st.st_atim;
    keep[1] = st.st_mtim;
    fd = open (path, O_WRONLY);
    g_assert_cmpint (pwrite (fd, "V", 1, 0), ==, 1);
    close (fd);
    g_assert_true (utimensat (AT_FDCWD, path, keep, 0) == 0);
  }
  g_clear_pointer (&new_key, g_free);
  new_key = tw_trace_cache_dup_key (path, &error);
  g_assert_cmpstr (new_key, !=, old_key);
}

/* Writes @len bytes of @bytes as @file. */
static void
put_file (const char   *file,
          const guint8 *bytes,
          gsize         len)
{
  int fd = open (file, O_WRONLY | O_CREAT | O_TRUNC, 0600);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, bytes, len), ==, (gssize) len);
  close (fd);
}

/* The written extents of a sparse @file, as (offset, length) pairs. */
static GArray *
data_extents (const char *file)
{
  GArray *extents = g_array_new (FALSE, FALSE, sizeof (guint64));
  int fd = open (file, O_RDONLY);
  off_t end = lseek (fd, 0, SEEK_END), at = 0;

  while (at < end)
    {
      off_t data = lseek (fd, at, SEEK_DATA), hole;
      guint64 pair[2];

      if (data < 0)
        break;
      hole = lseek (fd, data, SEEK_HOLE);
      pair[0] = data;
      pair[1] = hole - data;
      g_array_append_vals (extents, pair, 2);
      at = hole;
    }
  close (fd);
  return extents;
}

/* Copies @from to @to with @len bytes at @offset changed by @change (sparse: holes stay). */
static void
copy_changed (const char *from,
              const char *to,
              guint64     offset,
              gconstpointer change,
              gsize       len,
              guint64     cut)
{
  g_autoptr(GArray) extents = data_extents (from);
  int in = open (from, O_RDONLY);
  int out = open (to, O_WRONLY | O_CREAT | O_TRUNC, 0600);

  for (guint i = 0; i < extents->len; i += 2)
    {
      guint64 at = g_array_index (extents, guint64, i);
      guint64 n = g_array_index (extents, guint64, i + 1);
      g_autofree guint8 *buf = NULL;

      if (at >= cut)
        break;
      n = MIN (n, cut - at);
      buf = g_malloc (n);
      g_assert_cmpint (pread (in, buf, n, at), ==, (gssize) n);
      g_assert_cmpint (pwrite (out, buf, n, at), ==, (gssize) n);
    }
  g_assert_true (ftruncate (out, cut) == 0);
  if (change && offset + len <= cut)
    g_assert_cmpint (pwrite (out, change, len, offset), ==, (gssize) len);
  close (in);
  close (out);
}

/* Copies @from to @to with one random bit of the byte at @offset flipped. */
static void
copy_flipped (const char *from,
              const char *to,
              guint64     offset,
              guint64     size)
{
  int in = open (from, O_RDONLY);
  guint8 byte;

  g_assert_cmpint (pread (in, &byte, 1, offset), ==, 1);
  close (in);
  byte ^= 1u << g_test_rand_int_range (0, 8);
  copy_changed (from, to, offset, &byte, 1, size);
}

/* Where a cache file's state model section lies, its header and records' length, and
 * where its key begins (from its trailer: model offset, length, digest, key length). */
static void
model_extent (const char *file,
              guint64    *model_at,
              guint64    *model_bytes,
              guint64    *records,
              guint64    *key_at)
{
  int fd = open (file, O_RDONLY);
  off_t size = lseek (fd, 0, SEEK_END);
  guint8 trailer[60];
  guint32 key_len;

  g_assert_cmpint (pread (fd, trailer, sizeof trailer, size - sizeof trailer), ==, sizeof trailer);
  memcpy (model_at, trailer, 8);
  memcpy (model_bytes, trailer + 8, 8);
  memcpy (&key_len, trailer + 48, 4);
  *key_at = size - sizeof trailer - key_len;
  *records = 0;
  /* a damaged trailer may place it anywhere */
  if (*model_bytes > 0 && pread (fd, records, 8, *model_at + 48) != 8)
    *records = 0;
  close (fd);
}

/* ---------------------------------------------------------------- the state model */

/* The model of @trace as tw_state_model_new() makes it: mapped from the cache file when
 * the trace came from one with a model section. */
static TwStateModel *
model_of (TwTrace *trace)
{
  TwStateModel *model = tw_state_model_new (trace);
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  return model;
}

static void
assert_same_series (TwStateModel  *a,
                    TwStateModel  *b,
                    TwSeries       series,
                    guint          id,
                    gconstpointer  items_a,
                    gconstpointer  items_b,
                    gsize          n_a,
                    gsize          n_b,
                    gsize          size)
{
  guint64 first = tw_trace_get_first_time (tw_state_model_get_trace (a));
  guint64 last = tw_trace_get_last_time (tw_state_model_get_trace (a)) + 1;
  const guint widths[] = { 7, 300, 1920 };

  g_assert_cmpuint (n_a, ==, n_b);
  /* field by field: padding bytes are not part of an element */
  for (gsize i = 0; i < n_a; i++)
    {
      const guint8 *ea = (const guint8 *) items_a + i * size, *eb = (const guint8 *) items_b + i * size;

      switch (series)
        {
        case TW_SERIES_CPU_RUNS:
          {
            const TwRunInterval *x = (gconstpointer) ea, *y = (gconstpointer) eb;

            g_assert_true (x->start == y->start && x->end == y->end && x->task == y->task);
          }
          break;
        case TW_SERIES_CPU_IRQS:
          {
            const TwIrqInterval *x = (gconstpointer) ea, *y = (gconstpointer) eb;

            g_assert_true (x->start == y->start && x->end == y->end && x->number == y->number &&
                           x->depth == y->depth && x->kind == y->kind && x->unclosed == y->unclosed);
          }
          break;
        case TW_SERIES_TASK_STATES:
          {
            const TwTaskInterval *x = (gconstpointer) ea, *y = (gconstpointer) eb;

            g_assert_true (x->start == y->start && x->end == y->end && x->cpu == y->cpu &&
                           x->state == y->state);
          }
          break;
        default:
          /* marks have no padding */
          g_assert_cmpmem (ea, size, eb, size);
          break;
        }
    }
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint exact = 0; exact < 2; exact++)
      {
        g_autofree TwSummary *sa = g_new (TwSummary, widths[w]);
        g_autofree TwSummary *sb = g_new (TwSummary, widths[w]);
        double per = (double) (last - first) / widths[w];

        tw_state_model_summarize (a, series, id, first, per, widths[w], exact, sa);
        tw_state_model_summarize (b, series, id, first, per, widths[w], exact, sb);
        g_assert_cmpmem (sa, widths[w] * sizeof *sa, sb, widths[w] * sizeof *sb);
      }
  for (guint k = 0; k <= 16; k++)
    {
      guint64 t = first + (last - first) / 16 * k;

      g_assert_cmpuint (tw_state_model_lower_bound (a, series, id, t), ==,
                        tw_state_model_lower_bound (b, series, id, t));
      g_assert_cmpuint (tw_state_model_lower_bound_from (a, series, id, n_a / 3, t), ==,
                        tw_state_model_lower_bound_from (b, series, id, n_a / 3, t));
    }
}

/* Every array, bin and query of two models of one trace agree. */
static void
assert_same_models (TwStateModel *a,
                    TwStateModel *b)
{
  TwTrace *trace = tw_state_model_get_trace (a);
  guint64 first = tw_trace_get_first_time (trace);
  guint64 last = tw_trace_get_last_time (trace);

  g_assert_cmpuint (tw_state_model_get_n_cpus (a), ==, tw_state_model_get_n_cpus (b));
  g_assert_cmpuint (tw_state_model_get_n_processed (a), ==, tw_state_model_get_n_processed (b));
  g_assert_cmpuint (tw_state_model_get_memory_size (a), ==, tw_state_model_get_memory_size (b));
  for (guint c = 0; c < tw_state_model_get_n_cpus (a); c++)
    {
      gsize na, nb;
      gconstpointer ia, ib;

      ia = tw_state_model_get_cpu_runs (a, c, &na);
      ib = tw_state_model_get_cpu_runs (b, c, &nb);
      assert_same_series (a, b, TW_SERIES_CPU_RUNS, c, ia, ib, na, nb, sizeof (TwRunInterval));
      ia = tw_state_model_get_cpu_irqs (a, c, &na);
      ib = tw_state_model_get_cpu_irqs (b, c, &nb);
      assert_same_series (a, b, TW_SERIES_CPU_IRQS, c, ia, ib, na, nb, sizeof (TwIrqInterval));
      ia = tw_state_model_get_cpu_marks (a, c, &na);
      ib = tw_state_model_get_cpu_marks (b, c, &nb);
      assert_same_series (a, b, TW_SERIES_CPU_MARKS, c, ia, ib, na, nb, sizeof (TwCpuMark));
      g_assert_cmpuint (tw_state_model_get_cpu_repairs (a, c), ==, tw_state_model_get_cpu_repairs (b, c));
      for (guint64 t = first; t <= last; t += MAX ((last - first) / 50, 1))
        g_assert_cmpuint (tw_state_model_get_running_task (a, c, t), ==,
                          tw_state_model_get_running_task (b, c, t));
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace) + 2; k++)
    {
      gsize na, nb;
      gconstpointer ia, ib;

      ia = tw_state_model_get_task_states (a, k, &na);
      ib = tw_state_model_get_task_states (b, k, &nb);
      assert_same_series (a, b, TW_SERIES_TASK_STATES, k, ia, ib, na, nb, sizeof (TwTaskInterval));
      ia = tw_state_model_get_task_marks (a, k, &na);
      ib = tw_state_model_get_task_marks (b, k, &nb);
      assert_same_series (a, b, TW_SERIES_TASK_MARKS, k, ia, ib, na, nb, sizeof (TwTaskMark));
      g_assert_cmpuint (tw_state_model_get_task_cpu_time (a, k), ==, tw_state_model_get_task_cpu_time (b, k));
      for (guint64 t = first; t <= last; t += MAX ((last - first) / 50, 1))
        g_assert_cmpint (tw_state_model_get_task_state (a, k, t), ==, tw_state_model_get_task_state (b, k, t));
    }
}

/* Reads every element and summary of @model, as views do: nothing may be out of range. */
static void
walk_model (TwStateModel *model)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  guint64 first = tw_trace_get_first_time (trace), last = tw_trace_get_last_time (trace) + 1;
  const TwSeries cpu_series[] = { TW_SERIES_CPU_RUNS, TW_SERIES_CPU_IRQS, TW_SERIES_CPU_MARKS };
  TwSummary sums[64];

  for (guint c = 0; c < tw_state_model_get_n_cpus (model); c++)
    {
      gsize n;
      const TwCpuMark *marks = tw_state_model_get_cpu_marks (model, c, &n);

      for (gsize i = 0; i < n; i++)
        {
          TwEvent event;

          g_assert_true (tw_trace_get_event (trace, marks[i].index, &event));
        }
      for (guint s = 0; s < G_N_ELEMENTS (cpu_series); s++)
        tw_state_model_summarize (model, cpu_series[s], c, first, (last - first) / 64.0 + 1, 64, 0, sums);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      gsize n_states, n;
      const TwTaskInterval *states = tw_state_model_get_task_states (model, k, &n_states);
      const TwTaskMark *marks = tw_state_model_get_task_marks (model, k, &n);

      for (gsize i = 0; i < n_states; i++)
        g_assert_true (states[i].cpu == TW_CPU_NONE || states[i].cpu < tw_trace_get_n_cpus (trace));
      for (gsize i = 0; i < n; i++)
        {
          TwEvent event;

          g_assert_true (tw_trace_get_event (trace, marks[i].index, &event));
        }
      tw_state_model_summarize (model, TW_SERIES_TASK_STATES, k, first, (last - first) / 64.0 + 1, 64, 0, sums);
      tw_state_model_summarize (model, TW_SERIES_TASK_MARKS, k, first, (last - first) / 64.0 + 1, 64, 0, sums);
    }
}

/* Looks @key up where its cache file was replaced and reads every row and the state
 * model: whether the change was refused, at the lookup (with an error) or when the rows
 * of its chunk were first read (the chunk then reads as rows of nothing); the file is
 * removed either way. A change no check can see (a number in range) reads whole. */
static gboolean
lookup_refuses (TwTraceCache *cache,
                const char   *key,
                const char   *file)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  guint64 model_at = 0, model_bytes = 0, records, key_at;

  if (g_file_test (file, G_FILE_TEST_EXISTS))
    {
      GStatBuf st;

      g_assert_true (g_stat (file, &st) == 0);
      if (st.st_size >= 60)
        model_extent (file, &model_at, &model_bytes, &records, &key_at);
    }
  trace = tw_trace_cache_lookup (cache, key, NULL, &error);
  if (trace == NULL)
    {
      g_assert_nonnull (error);
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
      return TRUE;
    }
  g_assert_no_error (error);
  g_free (tw_test_dup_trace_digest (trace));
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;

      g_assert_true (tw_trace_get_event (trace, i, &event));
      g_assert_nonnull (tw_trace_get_event_type (trace, event.type));
    }
  /* the model of a file that has one: mapped, walked as views read it */
  if (model_bytes > 0)
    {
      g_autoptr(TwStateModel) model = model_of (trace);

      g_assert_true (tw_state_model_get_from_cache (model));
      walk_model (model);
    }
  return !g_file_test (file, G_FILE_TEST_EXISTS);
}

/* A cache file cut anywhere is refused and removed. */
static void
test_truncated (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (3 * TW_CHUNK_SIZE / 2, 3);
  g_autofree char *path = make_trace_file ("cut.txt", "a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store (cache, path, trace, &file);
  g_autofree char *good = g_strconcat (file, ".good", NULL);
  GStatBuf st;

  g_assert_true (g_rename (file, good) == 0);
  g_assert_true (g_stat (good, &st) == 0);
  {
    const guint64 cuts[] = { 0, 5, 95, 96, HEADER_BYTES, HEADER_BYTES + 1000,
                             HEADER_BYTES + SLOT_BYTES, st.st_size / 2, st.st_size - 200,
                             st.st_size - 13, st.st_size - 12, st.st_size - 1 };

    for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
      {
        copy_changed (good, file, 0, NULL, 0, cuts[i]);
        g_assert_true (lookup_refuses (cache, key, file));
      }
  }
  /* and whole, it is fine */
  copy_changed (good, file, 0, NULL, 0, st.st_size);
  g_assert_false (lookup_refuses (cache, key, file));
}

/* Bit flips anywhere written (header, columns, payloads, index, key) never crash: each is
 * refused, or is a change no check can see and the trace reads. Flips in the header,
 * index and key are all refused. */
static void
test_bit_flips (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (TW_CHUNK_SIZE + 5000, 7);
  g_autofree char *path = make_trace_file ("flips.txt", "a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store (cache, path, trace, &file);
  g_autofree char *good = g_strconcat (file, ".good", NULL);
  g_autoptr(GArray) extents = NULL;
  guint64 index_at = HEADER_BYTES + 2 * SLOT_BYTES;
  guint64 model_at, model_bytes, records, key_at;
  guint refused = 0, tried = 0;
  GStatBuf st;

  g_assert_true (g_rename (file, good) == 0);
  g_assert_true (g_stat (good, &st) == 0);
  model_extent (good, &model_at, &model_bytes, &records, &key_at);
  g_assert_cmpuint (model_bytes, ==, 0);   /* test_model_damaged flips the model's bytes */
  model_at = key_at;
  extents = data_extents (good);
  for (guint i = 0; i < extents->len; i += 2)
    {
      guint64 at = g_array_index (extents, guint64, i);
      guint64 n = g_array_index (extents, guint64, i + 1);

      for (guint k = 0; k < 12; k++)
        {
          guint64 offset = at + g_test_rand_int_range (0, (gint32) MIN (n, G_MAXINT32));
          gboolean must_refuse;

          copy_flipped (good, file, offset, st.st_size);
          /* the header, index, the model's records and the key are checked whole; a
           * row's number, or an element's of the model, may stay in range */
          must_refuse = offset < 96 || (offset >= index_at && offset < model_at) ||
                        (offset >= model_at && offset < model_at + records) || offset >= key_at;
          tried++;
          if (lookup_refuses (cache, key, file))
            refused++;
          else
            g_assert_false (must_refuse);
        }
    }
  g_test_message ("%u of %u bit flips refused", refused, tried);
  g_assert_cmpuint (refused, >, 0);
}

static void
change_u16 (const char *good,
            const char *file,
            guint64     offset,
            guint16     value,
            guint64     size)
{
  copy_changed (good, file, offset, &value, 2, size);
}

/* Rows that name what does not exist are refused: a type, a task, a CPU, a payload past
 * its blob, a string id, a time going back. */
static void
test_bad_rows (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (4000, 9);
  g_autofree char *path = make_trace_file ("rows.txt", "a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store (cache, path, trace, &file);
  g_autofree char *good = g_strconcat (file, ".good", NULL);
  const TwEventChunk *chunk = tw_trace_get_chunk (trace, 0);
  guint64 columns = HEADER_BYTES;
  guint32 big = G_MAXUINT32 - 1, time_back = 0;
  guint row_with_string = 0;
  GStatBuf st;

  g_assert_true (g_rename (file, good) == 0);
  g_assert_true (g_stat (good, &st) == 0);

  change_u16 (good, file, columns + TW_CHUNK_TYPE_OFFSET + 2 * 10, 60000, st.st_size);
  {
    /* the lookup maps it; the first read of the chunk finds the row, and the chunk reads
     * as rows of nothing, in order */
    g_autoptr(TwTrace) mapped = tw_trace_cache_lookup (cache, key, NULL, NULL);
    TwEvent event;

    g_assert_nonnull (mapped);
    g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
    g_assert_true (tw_trace_get_event (mapped, 10, &event));
    g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
    g_assert_cmpuint (event.type, ==, 0);
    g_assert_cmpuint (event.task, ==, TW_TASK_NONE);
    g_assert_cmpuint (event.cpu, ==, TW_CPU_NONE);
    g_assert_null (event.payload);
    g_assert_cmpuint (event.time, ==, tw_trace_get_chunk (mapped, 0)->last_time);
    g_assert_cmpuint (tw_trace_get_n_events (mapped), ==, tw_trace_get_n_events (trace));
  }
  change_u16 (good, file, columns + TW_CHUNK_TYPE_OFFSET + 2 * 10, 60000, st.st_size);
  g_assert_true (lookup_refuses (cache, key, file));
  change_u16 (good, file, columns + TW_CHUNK_CPU_OFFSET + 2 * 10, 500, st.st_size);
  g_assert_true (lookup_refuses (cache, key, file));
  copy_changed (good, file, columns + TW_CHUNK_TASK_OFFSET + 4 * 10, &big, 4, st.st_size);
  g_assert_true (lookup_refuses (cache, key, file));
  /* row 1 has fields (kind 1 of 3 has): a payload offset past the blob */
  g_assert_cmpuint (chunk->payload[1], !=, TW_PAYLOAD_NONE);
  copy_changed (good, file, columns + TW_CHUNK_PAYLOAD_OFFSET + 4 * 1, &big, 4, st.st_size);
  g_assert_true (lookup_refuses (cache, key, file));
  /* row 3000's time before row 2999's */
  copy_changed (good, file, columns + 8 * 3000, &time_back, 4, st.st_size);
  g_assert_true (lookup_refuses (cache, key, file));

  /* a present string field holding an id past the string table */
  for (guint i = 0; i < chunk->n && !row_with_string; i++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, chunk->type[i]);
      TwValue value;

      if (type->n_fields > 1 && tw_event_type_get_field (type, chunk->blob + chunk->payload[i], 1,
                                                        &value))
        row_with_string = i;
    }
  g_assert_cmpuint (row_with_string, >, 0);
  {
    const TwEventType *type = tw_trace_get_event_type (trace, chunk->type[row_with_string]);
    guint64 at = HEADER_BYTES + (gsize) TW_CHUNK_SIZE * 24 + chunk->payload[row_with_string] +
                 type->offsets[1];

    copy_changed (good, file, at, &big, 4, st.st_size);
    g_assert_true (lookup_refuses (cache, key, file));
  }

  copy_changed (good, file, 0, NULL, 0, st.st_size);
  g_assert_false (lookup_refuses (cache, key, file));
}

/* A file of another version of the format (or not an image at all) is refused as such. */
static void
test_version (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (100, 2);
  g_autofree char *path = make_trace_file ("version.txt", "a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store (cache, path, trace, &file);
  g_autofree char *good = g_strconcat (file, ".good", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) found = NULL;
  guint32 version;
  GStatBuf st;
  int fd;

  g_assert_true (g_rename (file, good) == 0);
  g_assert_true (g_stat (good, &st) == 0);
  fd = open (good, O_RDONLY);
  g_assert_cmpint (pread (fd, &version, 4, 8), ==, 4);
  close (fd);
  version++;
  copy_changed (good, file, 8, &version, 4, st.st_size);
  found = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_nonnull (strstr (error->message, "another version"));
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  g_clear_error (&error);

  /* a file of the right name holding something else */
  put_file (file, (const guint8 *) "not a cache file at all", 23);
  found = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_null (found);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
}

/* Over its limit, the folder loses its least recently used files first; a trace over the
 * whole limit is not stored; clear empties it. */
static void
test_limit (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (20000, 4);
  char *files[3] = { NULL };
  char *keys[3] = { NULL };
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) found = NULL;
  guint64 one, freed;

  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("limit-%u.txt", i);
      g_autofree char *path = make_trace_file (name, name);
      struct timespec times[2] = { { 0, UTIME_OMIT }, { 1000000 + i * 1000, 0 } };

      keys[i] = store (cache, path, trace, &files[i]);
      /* in the order written, each a thousand seconds after the one before */
      g_assert_true (utimensat (AT_FDCWD, files[i], times, 0) == 0);
      if (i == 0)
        {
          entries = tw_trace_cache_list (cache, &error);
          one = ((TwTraceCacheEntry *) entries->pdata[0])->disk_bytes;
          g_clear_pointer (&entries, g_ptr_array_unref);
          tw_trace_cache_set_limit (cache, 2 * one + one / 2);
        }
      if (i == 1)
        {
          /* using the first makes it the most recent: the second goes next */
          found = tw_trace_cache_lookup (cache, keys[0], NULL, &error);
          g_assert_nonnull (found);
        }
    }
  g_assert_cmpuint (tw_trace_cache_get_limit (cache), ==, 2 * one + one / 2);
  g_assert_true (g_file_test (files[0], G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (files[1], G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (files[2], G_FILE_TEST_EXISTS));

  /* larger than the whole limit: not stored, and nothing fails */
  {
    g_autofree char *path = make_trace_file ("huge.txt", "huge");
    g_autofree char *key = tw_trace_cache_dup_key (path, &error);
    g_autofree char *file = tw_trace_cache_dup_file_for_key (cache, key);

    tw_trace_cache_set_limit (cache, one / 2);
    g_assert_true (tw_trace_cache_store (cache, key, trace, &error));
    g_assert_no_error (error);
    g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  }

  g_assert_cmpuint (tw_trace_cache_clear (cache, &freed, &error), ==, 2);
  g_assert_no_error (error);
  g_assert_cmpuint (freed, >=, 2 * one - 8192);
  entries = tw_trace_cache_list (cache, &error);
  g_assert_cmpuint (entries->len, ==, 0);
  /* the trace mapped from a removed file reads on */
  g_free (tw_test_dup_trace_digest (found));
  for (guint i = 0; i < 3; i++)
    {
      g_free (files[i]);
      g_free (keys[i]);
    }
}

/* The state model made on a trace mapped from its cache borrows the file's arrays and is
 * the model built from the events: every array, bin, summary and query. A file stored
 * without a model gives a model built again. */
static void
test_model_round_trip (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (TW_CHUNK_SIZE / 2 + 77, 11);
  g_autoptr(TwStateModel) built = model_of (trace);
  g_autofree char *path = make_trace_file ("model.txt", "stands for a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store_full (cache, path, trace, TRUE, &file);
  g_autoptr(GError) error = NULL;

  for (guint pass = 0; pass < 3; pass++)
    {
      g_autoptr(TwTrace) mapped = NULL;
      g_autoptr(TwStateModel) model = NULL;

      /* 0: the model the store built; 1: the one handed to it; 2: none */
      if (pass > 0)
        g_assert_true (tw_trace_cache_store_with_model (cache, key, trace, pass == 1 ? built : NULL,
                                                        &error));
      g_assert_no_error (error);
      mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (mapped);
      model = model_of (mapped);
      g_assert_cmpint (tw_state_model_get_from_cache (model), ==, pass < 2);
      g_assert_false (tw_state_model_get_from_cache (built));
      assert_same_models (built, model);
      /* a second update of a mapped model changes nothing */
      g_assert_true (tw_state_model_update (model, NULL, NULL));
      assert_same_models (built, model);
    }
}

/* Two machines, beta's trace stopping at 20005, a tenth of alpha's, with enough
 * switches for bins. */
static TwTrace *
two_host_trace (guint16 *beta_cpu,
                guint32 *beta_task)
{
  TwTrace *trace = tw_trace_new ();
  TwTestKindTypes types;
  guint32 on[2][2];
  guint16 cpus[2];
  g_autoptr(GError) error = NULL;

  tw_test_add_kind_types (trace, &types);
  for (guint h = 0; h < 2; h++)
    {
      const char *host = h ? "beta" : "alpha";

      cpus[h] = tw_trace_add_host_cpu (trace, host, 0);
      for (guint k = 0; k < 2; k++)
        {
          g_autofree char *id = g_strdup_printf ("%s/%u", host, k);

          on[h][k] = tw_trace_add_task (trace, id, id, k, k);
          tw_trace_set_task_host (trace, on[h][k], host);
        }
    }
  for (guint i = 1; i <= 20000; i++)
    {
      for (guint h = 0; h < 2 && (h == 0 || i <= 2000); h++)
        tw_test_append_switch (trace, types.sw, 10 * i + h, cpus[h], on[h][i % 2 == 0], on[h][i % 2], "S");
      /* beta's last event: an irq it never leaves */
      if (i == 2000)
        tw_trace_append (trace, 10 * i + 5, cpus[1], types.irq_in, on[1][0], 3, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, &error));
  g_assert_no_error (error);
  *beta_cpu = cpus[1];
  *beta_task = on[1][0];
  return trace;
}

/* A reopened model of several machines keeps each one's end, update after update. */
static void
test_model_hosts (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  guint16 beta_cpu;
  guint32 beta_task;
  g_autoptr(TwTrace) trace = two_host_trace (&beta_cpu, &beta_task);
  g_autoptr(TwStateModel) built = model_of (trace);
  g_autofree char *path = make_trace_file ("hosts.txt", "stands for a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store_full (cache, path, trace, TRUE, &file);
  g_autoptr(TwTrace) mapped = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GError) error = NULL;
  const TwRunInterval *runs;
  const TwTaskInterval *states;
  gsize n;

  mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (mapped);
  model = model_of (mapped);
  g_assert_true (tw_state_model_get_from_cache (model));
  for (guint pass = 0; pass < 2; pass++)
    {
      runs = tw_state_model_get_cpu_runs (model, beta_cpu, &n);
      g_assert_cmpuint (runs[n - 1].end, ==, 20005);
      states = tw_state_model_get_task_states (model, beta_task, &n);
      g_assert_cmpuint (states[n - 1].end, ==, 20005);
      assert_same_models (built, model);
      g_assert_true (tw_state_model_update (model, NULL, NULL));
    }
}

/* A store in background writes the model its trace's window offered while it wrote the
 * store, rather than building one. */
static void
test_model_offered (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (TW_CHUNK_SIZE / 4 + 99, 13);
  g_autoptr(TwStateModel) built = NULL;
  g_autofree char *path = make_trace_file ("offered.txt", "stands for a trace");
  g_autofree char *key = tw_trace_cache_dup_key (path, NULL);
  g_autoptr(TwTrace) mapped = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GError) error = NULL;

  tw_trace_cache_store_in_background (cache, key, trace);
  built = model_of (trace);   /* offers itself on completion */
  tw_trace_cache_wait (cache);
  mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (mapped);
  model = model_of (mapped);
  g_assert_true (tw_state_model_get_from_cache (model));
  assert_same_models (built, model);
}

/* A cache that builds no models (the CLI's) stores the events alone; the first model
 * built on the mapped trace (the window's, on a reopen) is stored into its file, and
 * the trace mapped from the file it replaced still reads. */
static void
test_model_added_later (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (TW_CHUNK_SIZE / 3 + 41, 17);
  g_autofree char *path = make_trace_file ("later.txt", "stands for a trace");
  g_autofree char *key = tw_trace_cache_dup_key (path, NULL);
  g_autofree char *file = tw_trace_cache_dup_file_for_key (cache, key);
  g_autoptr(TwTrace) first = NULL;
  g_autoptr(TwTrace) second = NULL;
  g_autoptr(TwStateModel) built = NULL;
  g_autoptr(TwStateModel) mapped = NULL;
  g_autoptr(GError) error = NULL;
  guint64 model_at, model_bytes, records, key_at;

  tw_trace_cache_set_builds_models (cache, FALSE);
  tw_trace_cache_store_in_background (cache, key, trace);
  tw_trace_cache_wait (cache);
  model_extent (file, &model_at, &model_bytes, &records, &key_at);
  g_assert_cmpuint (model_bytes, ==, 0);

  first = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (first);
  built = model_of (first);   /* offers itself on completion */
  g_assert_false (tw_state_model_get_from_cache (built));
  tw_trace_cache_wait (cache);
  model_extent (file, &model_at, &model_bytes, &records, &key_at);
  g_assert_cmpuint (model_bytes, >, 0);

  second = tw_trace_cache_lookup (cache, key, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (second);
  mapped = model_of (second);
  g_assert_true (tw_state_model_get_from_cache (mapped));
  assert_same_models (built, mapped);
  g_assert_cmpuint (tw_trace_get_n_events (first), ==, tw_trace_get_n_events (trace));
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i += 997)
    g_assert_cmpuint (tw_trace_get_time (first, i), ==, tw_trace_get_time (trace, i));
}

/* A model section that is damaged is never trusted into a crash: flips in its header and
 * records, a trailer that places it wrong, another version, and a cut file are refused
 * (the file removed: the trace is read and its model built again); flips in its arrays
 * are refused or give a model whose every element reads. */
static void
test_model_damaged (void)
{
  g_autoptr(TwTraceCache) cache = new_cache ();
  g_autoptr(TwTrace) trace = synthetic_trace (TW_CHUNK_SIZE / 4 + 5000, 17);
  g_autofree char *path = make_trace_file ("model-flips.txt", "a trace");
  g_autofree char *file = NULL;
  g_autofree char *key = store_full (cache, path, trace, TRUE, &file);
  g_autofree char *good = g_strconcat (file, ".good", NULL);
  guint64 model_at, model_bytes, records, key_at;
  guint refused = 0;
  GStatBuf st;

  g_assert_true (g_rename (file, good) == 0);
  g_assert_true (g_stat (good, &st) == 0);
  model_extent (good, &model_at, &model_bytes, &records, &key_at);
  g_assert_cmpuint (model_bytes, >, 0);
  g_assert_cmpuint (records, >, 0);
  g_assert_cmpuint (records, <, model_bytes);

  for (guint k = 0; k < 24; k++)
    {
      copy_flipped (good, file, model_at + g_test_rand_int_range (0, (gint32) records), st.st_size);
      g_assert_true (lookup_refuses (cache, key, file));
    }
  for (guint k = 0; k < 40; k++)
    {
      copy_flipped (good, file, model_at + records +
                    g_test_rand_int_range (0, (gint32) (model_bytes - records)), st.st_size);
      refused += lookup_refuses (cache, key, file);
    }
  g_test_message ("%u of 40 flips in the model's arrays refused", refused);

  {
    /* the trailer's offset and length of the model, each moved */
    const guint64 wrong_at[] = { model_at + 4096, model_at - 65536, 0 };
    const guint64 wrong_bytes[] = { model_bytes - 64, model_bytes + 64, G_MAXUINT64 };

    for (guint i = 0; i < G_N_ELEMENTS (wrong_at); i++)
      {
        copy_changed (good, file, st.st_size - 60, &wrong_at[i], 8, st.st_size);
        g_assert_true (lookup_refuses (cache, key, file));
        copy_changed (good, file, st.st_size - 52, &wrong_bytes[i], 8, st.st_size);
        g_assert_true (lookup_refuses (cache, key, file));
      }
  }
  /* another version of the model's format: the one before */
  {
    guint32 version = 1;

    copy_changed (good, file, model_at + 8, &version, 4, st.st_size);
    g_assert_true (lookup_refuses (cache, key, file));
  }
  /* cut inside the model */
  copy_changed (good, file, 0, NULL, 0, model_at + records / 2);
  g_assert_true (lookup_refuses (cache, key, file));
  copy_changed (good, file, 0, NULL, 0, key_at - 1);
  g_assert_true (lookup_refuses (cache, key, file));

  /* whole, it maps, and its model comes from it */
  copy_changed (good, file, 0, NULL, 0, st.st_size);
  g_assert_false (lookup_refuses (cache, key, file));
  {
    g_autoptr(TwTrace) mapped = tw_trace_cache_lookup (cache, key, NULL, NULL);
    g_autoptr(TwStateModel) model = model_of (mapped);
    g_autoptr(TwStateModel) built = model_of (trace);

    g_assert_true (tw_state_model_get_from_cache (model));
    assert_same_models (built, model);
  }
}

static void
test_parse_size (void)
{
  g_autoptr(GError) error = NULL;
  guint64 bytes;

  g_assert_true (tw_trace_cache_parse_size ("5G", &bytes, &error));
  g_assert_cmpuint (bytes, ==, (guint64) 5 << 30);
  g_assert_true (tw_trace_cache_parse_size ("1.5MiB", &bytes, &error));
  g_assert_cmpuint (bytes, ==, 3 << 19);
  g_assert_true (tw_trace_cache_parse_size ("4096", &bytes, &error));
  g_assert_cmpuint (bytes, ==, 4096);
  g_assert_false (tw_trace_cache_parse_size ("lots", &bytes, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (tw_trace_cache_parse_size ("5X", &bytes, &error));
}

/* A reader child writes into a temporary file of the cache folder as it reads; killed
 * (a crash), it leaves neither a cache file nor the temporary one. */
typedef struct {
  const char *path;
  GError     *error;
  TwTrace    *trace;
} ChildLoad;

static gpointer
child_load_thread (gpointer data)
{
  ChildLoad *load = data;

  load->trace = tw_reader_registry_load_file_full (load->path, NULL,
                                                   TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                   NULL, NULL, NULL, &load->error);
  return NULL;
}

static gboolean
temp_file_there (gpointer data)
{
  return count_temp_files () == 1 && tw_test_find_reader_child () > 0;
}

static void
test_child_killed (void)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures", "trace-dat",
                                                   "sched-irq-v7.dat", NULL);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "killed.dat", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  g_autoptr(TwReader) reader = tw_reader_new (&tw_tracecmd_reader_info);
  ChildLoad load = { path, NULL, NULL };
  TwTraceCache *cache;
  GThread *thread;
  GPid child;
  gsize len;

  if (tw_reader_get_library (reader) == NULL)
    {
      g_test_skip ("trace.dat support is missing");
      return;
    }
  g_unsetenv ("TRACEWB_NO_CACHE");
  cache = tw_trace_cache_get_default ();
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  key = tw_trace_cache_dup_key (path, NULL);
  file = tw_trace_cache_dup_file_for_key (cache, key);

  g_setenv (TW_TEST_READER_HOOK_ENV, "stall-after-progress", TRUE);
  thread = g_thread_new ("load", child_load_thread, &load);
  g_assert_true (tw_test_wait_until (temp_file_there, NULL, 60000));
  g_unsetenv (TW_TEST_READER_HOOK_ENV);
  child = tw_test_find_reader_child ();
  g_assert_cmpint (child, >, 0);
  g_assert_cmpint (kill (child, SIGKILL), ==, 0);
  g_thread_join (thread);

  g_assert_null (load.trace);
  g_assert_error (load.error, TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED);
  g_clear_error (&load.error);
  tw_trace_cache_wait (cache);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_temp_files (), ==, 0);
}

/* Without room on the disk (a free figure given), a trace is read without the cache and
 * the load says how much the file needs; with room, it is cached. */
static void
test_no_room (void)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures", "csv",
                                                   "sched.csv", NULL);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "room.csv", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  TwTraceCache *cache;
  const char *note;
  guint64 need;
  gsize len;

  g_unsetenv ("TRACEWB_NO_CACHE");
  cache = tw_trace_cache_get_default ();
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  key = tw_trace_cache_dup_key (path, NULL);
  file = tw_trace_cache_dup_file_for_key (cache, key);
  need = tw_trace_cache_estimate_file_bytes (cache, path, "csv");
  g_assert_cmpuint (need, >, len);

  g_setenv ("TRACEWB_CACHE_FREE", "1000", TRUE);
  g_assert_false (tw_trace_cache_check_room (cache, need, NULL));
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                             NULL, NULL, NULL, &error);
  g_unsetenv ("TRACEWB_CACHE_FREE");
  g_assert_no_error (error);
  tw_trace_cache_wait (cache);
  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  note = tw_reader_registry_get_cache_note (trace);
  g_assert_nonnull (note);
  g_test_message ("%s", note);
  g_assert_nonnull (strstr (note, "needs about"));
  g_assert_nonnull (strstr (note, "kB free on "));
  g_assert_nonnull (strstr (note, tw_trace_cache_get_dir (cache)));
  g_clear_object (&trace);

  g_assert_true (tw_trace_cache_check_room (cache, need, NULL));
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                             NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (tw_reader_registry_get_cache_note (trace));
  tw_trace_cache_wait (cache);
  g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
}

/* A cache folder that cannot be made (a file stands where it goes) does not stop the
 * trace from being read. */
static void
test_unwritable (void)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures", "csv",
                                                   "sched.csv", NULL);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "unwritable.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  TwTraceCache *cache;
  const char *dir;
  gsize len;

  g_unsetenv ("TRACEWB_NO_CACHE");
  cache = tw_trace_cache_get_default ();
  dir = tw_trace_cache_get_dir (cache);
  tw_trace_cache_clear (cache, NULL, NULL);
  g_rmdir (dir);
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_mkdir_with_parents (dir, 0700) == 0 && g_rmdir (dir) == 0);
  g_assert_true (g_file_set_contents (dir, "not a folder", -1, NULL));
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (path, contents, len, NULL));

  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                             NULL, NULL, NULL, &error);
  tw_trace_cache_wait (cache);
  g_unlink (dir);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 13);
}

static void
remember_started (TwTrace  *trace,
                  gpointer  data)
{
  *(TwTrace **) data = trace;
}

/* A trace shown while it is read in process (the window's load) is the trace built in
 * the cache folder's temporary file; it is stored once its whole state model is offered,
 * with that model, and a trace dropped before takes its file with it. */
static void
test_shown_waits_for_model (void)
{
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "fixtures", "csv",
                                                   "sched.csv", NULL);
  g_autofree char *path = g_build_filename (g_get_user_data_dir (), "shown.csv", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;
  TwTraceCache *cache;
  gsize len;

  g_unsetenv ("TRACEWB_NO_CACHE");
  g_unsetenv ("TRACEWB_CACHE_FREE");
  cache = tw_trace_cache_get_default ();
  g_assert_true (g_file_get_contents (source, &contents, &len, NULL));
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_file_set_contents (path, contents, len, NULL));
  key = tw_trace_cache_dup_key (path, NULL);
  file = tw_trace_cache_dup_file_for_key (cache, key);

  /* 0: dropped before its model is complete; 1: its model offered */
  for (guint modelled = 0; modelled < 2; modelled++)
    {
      g_autoptr(TwTrace) trace = NULL;
      g_autoptr(TwTrace) mapped = NULL;
      g_autoptr(TwStateModel) model = NULL;
      TwTrace *started = NULL;

      trace = tw_reader_registry_load_file_shown (path, NULL,
                                                  TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                  remember_started, &started, NULL, NULL, NULL,
                                                  &error);
      g_assert_no_error (error);
      g_assert_true (trace == started);
      tw_trace_cache_wait (cache);
      g_assert_cmpuint (count_temp_files (), ==, 1);
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
      if (!modelled)
        {
          g_clear_object (&trace);
          g_assert_cmpuint (count_temp_files (), ==, 0);
          continue;
        }
      /* a whole model of the sealed trace offers itself */
      model = tw_state_model_new (trace);
      g_assert_true (tw_state_model_update (model, NULL, &error));
      tw_trace_cache_wait (cache);
      g_assert_cmpuint (count_temp_files (), ==, 0);
      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
      mapped = tw_trace_cache_lookup (cache, key, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (mapped);
      g_clear_object (&model);
      model = tw_state_model_new (mapped);
      g_assert_true (tw_state_model_update (model, NULL, &error));
      g_assert_true (tw_state_model_get_from_cache (model));
      g_assert_cmpuint (tw_trace_get_n_events (mapped), ==, tw_trace_get_n_events (trace));
    }
  g_unlink (file);
  g_unlink (path);
}

/* The events of the disk-full test: an interrupt entry with its number per row, so that
 * both the columns and the payloads (the number) fill the cache's small disk. */
#define FULL_ROWS 700000

static char *
make_big_csv (void)
{
  g_autoptr(GString) csv = g_string_new ("time_ns,cpu,task,event,irq\n");
  char *path = g_build_filename (g_get_user_data_dir (), "full.csv", NULL);

  for (guint i = 0; i < FULL_ROWS; i++)
    g_string_append_printf (csv, "%u,%u,,%s,%u\n", 1000 + i, i % 4,
                            i % 2 ? "irq_exit" : "irq_entry", i % 1000);
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_file_set_contents (path, csv->str, csv->len, NULL));
  return path;
}

/* In a process of its own (a mount namespace of its own, so that nothing stays mounted
 * whatever happens): the cache folder is an 8 MiB file system, the free figure says
 * there is room, and the trace's store needs about 20 MB. The disk fills during the read:
 * the trace is read whole all the same, and no file is left in the folder. */
static void
test_disk_full_subprocess (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", "traces", NULL);
  g_autofree char *path = make_big_csv ();
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  g_autoptr(GError) error = NULL;
  TwTraceCache *cache;
  TwEvent ev;
  TwValue irq;

  g_assert_true (g_mkdir_with_parents (dir, 0700) == 0);
  if (unshare (CLONE_NEWNS) < 0 || mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
      mount ("tmpfs", dir, "tmpfs", 0, "size=8m") < 0)
    {
      g_autofree char *why = g_strdup_printf ("cannot mount a small file system: %s",
                                              g_strerror (errno));

      g_assert_true (g_file_set_contents (g_getenv ("TW_TEST_NO_MOUNT"), why, -1, NULL));
      return;
    }
  g_unsetenv ("TRACEWB_NO_CACHE");
  g_setenv ("TRACEWB_CACHE_FREE", "100G", TRUE);
  cache = tw_trace_cache_get_default ();
  g_assert_cmpstr (tw_trace_cache_get_dir (cache), ==, dir);
  key = tw_trace_cache_dup_key (path, NULL);
  file = tw_trace_cache_dup_file_for_key (cache, key);

  /* read as the CLI reads, then as the window does, shown while it is read */
  for (guint shown = 0; shown < 2; shown++)
    {
      g_autoptr(TwTrace) trace = NULL;
      TwTrace *started = NULL;

      trace = tw_reader_registry_load_file_shown (path, NULL,
                                                  TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                  shown ? remember_started : NULL, &started,
                                                  NULL, NULL, NULL, &error);
      tw_trace_cache_wait (cache);
      g_assert_no_error (error);
      g_assert_true (!shown || trace == started);
      g_assert_cmpuint (tw_trace_get_n_events (trace), ==, FULL_ROWS);
      for (guint64 i = 0; i < FULL_ROWS; i++)
        {
          g_assert_true (tw_trace_get_event (trace, i, &ev));
          g_assert_cmpuint (ev.time, ==, 1000 + i);
          g_assert_true (tw_trace_get_event_field (trace, &ev, "irq", &irq));
          g_assert_cmpuint (irq.u, ==, i % 1000);
        }
      g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
      g_assert_cmpuint (count_temp_files (), ==, 0);
    }
}

static void
test_disk_full (void)
{
  g_autofree char *no_mount = g_build_filename (g_get_user_runtime_dir (), "no-mount", NULL);
  g_autofree char *why = NULL;

  if (getuid () != 0)
    {
      g_test_skip ("mounting a small file system for the cache folder needs root");
      return;
    }
  g_assert_true (g_mkdir_with_parents (g_get_user_runtime_dir (), 0700) == 0);
  g_setenv ("TW_TEST_NO_MOUNT", no_mount, TRUE);
  g_test_trap_subprocess ("/trace-cache/round-trip/disk-full/subprocess", 600 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDERR);
  if (g_file_get_contents (no_mount, &why, NULL, NULL))
    {
      g_test_skip (why);
      return;
    }
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/trace-cache/round-trip/synthetic", test_round_trip_synthetic);
  g_test_add_func ("/trace-cache/round-trip/readers", test_round_trip_readers);
  /* after the test that makes the default cache in its folders */
  g_test_add_func ("/trace-cache/round-trip/child-killed", test_child_killed);
  g_test_add_func ("/trace-cache/round-trip/no-room", test_no_room);
  g_test_add_func ("/trace-cache/round-trip/unwritable", test_unwritable);
  g_test_add_func ("/trace-cache/round-trip/shown", test_shown_waits_for_model);
  g_test_add_func ("/trace-cache/round-trip/disk-full", test_disk_full);
  g_test_add_func ("/trace-cache/round-trip/disk-full/subprocess", test_disk_full_subprocess);
  g_test_add_func ("/trace-cache/stale", test_stale);
  g_test_add_func ("/trace-cache/truncated", test_truncated);
  g_test_add_func ("/trace-cache/bit-flips", test_bit_flips);
  g_test_add_func ("/trace-cache/bad-rows", test_bad_rows);
  g_test_add_func ("/trace-cache/version", test_version);
  g_test_add_func ("/trace-cache/limit", test_limit);
  g_test_add_func ("/trace-cache/parse-size", test_parse_size);
  g_test_add_func ("/trace-cache/model/round-trip", test_model_round_trip);
  g_test_add_func ("/trace-cache/model/offered", test_model_offered);
  g_test_add_func ("/trace-cache/model/hosts", test_model_hosts);
  g_test_add_func ("/trace-cache/model/added-later", test_model_added_later);
  g_test_add_func ("/trace-cache/model/damaged", test_model_damaged);
  return g_test_run ();
}
