/* tw-reader-registry.c: format probing and loading a file with the right reader
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "tw-reader-registry.h"
#include "tw-huge-array.h"
#include "tw-reader-process.h"
#include "tw-trace-cache.h"
#include "tw-trace-image.h"

#include "tw-csv-reader.h"
#include "tw-ctf-reader.h"
#include "tw-ftrace-text-reader.h"
#include "tw-shark-reader.h"
#include "tw-tracecmd-reader.h"

#define PROBE_BYTES (64 * 1024)

/* The order breaks ties between readers equally sure of a file whose name says nothing. */
static const TwReaderInfo *const builtin_readers[] = {
  &tw_shark_reader_info,
  &tw_csv_reader_info,
  &tw_ftrace_text_reader_info,
  &tw_tracecmd_reader_info,
  &tw_ctf_reader_info,
};

static GMutex added_lock;
static GPtrArray *added_readers; /* const TwReaderInfo *, after the built-in ones */

/**
 * tw_reader_registry_add:
 * @info: (transfer none): a reader's description, kept for the life of the program
 *
 * Makes one more reader known to probing, tw_reader_registry_find() and `--format`,
 * after the built-in ones. A reader added so is known in this process only: one with a
 * library (@info->get_library) still reads in this process.
 */
void
tw_reader_registry_add (const TwReaderInfo *info)
{
  g_return_if_fail (info != NULL && info->name != NULL && info->label != NULL);
  g_return_if_fail (info->probe != NULL);

  g_mutex_lock (&added_lock);
  if (added_readers == NULL)
    added_readers = g_ptr_array_new ();
  g_ptr_array_add (added_readers, (gpointer) info);
  g_mutex_unlock (&added_lock);
}

/* Whether the name @path ends in one of @reader's suffixes ("x.dat"). */
static gboolean
has_suffix (TwReader   *reader,
            const char *path)
{
  const char * const *suffixes = tw_reader_get_info (reader)->suffixes;
  const char *dot = strrchr (path, '.');

  return suffixes != NULL && dot != NULL && g_strv_contains (suffixes, dot + 1);
}

/**
 * tw_reader_registry_dup_readers:
 *
 * Returns: (transfer full) (element-type TwReader): one instance of every reader
 */
GPtrArray *
tw_reader_registry_dup_readers (void)
{
  GPtrArray *readers = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < G_N_ELEMENTS (builtin_readers); i++)
    g_ptr_array_add (readers, tw_reader_new (builtin_readers[i]));
  g_mutex_lock (&added_lock);
  for (guint i = 0; added_readers && i < added_readers->len; i++)
    g_ptr_array_add (readers, tw_reader_new (added_readers->pdata[i]));
  g_mutex_unlock (&added_lock);
  return readers;
}

/**
 * tw_reader_registry_find:
 *
 * Returns: (transfer full) (nullable): the reader named @name
 */
TwReader *
tw_reader_registry_find (const char *name)
{
  g_autoptr(GPtrArray) readers = tw_reader_registry_dup_readers ();

  for (guint i = 0; i < readers->len; i++)
    if (g_strcmp0 (tw_reader_get_name (readers->pdata[i]), name) == 0)
      return g_object_ref (readers->pdata[i]);
  return NULL;
}

static gboolean
read_head (const char  *path,
           guint8      *buf,
           gsize       *len,
           GError     **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gssize n;

  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }

  do
    n = read (fd, buf, PROBE_BYTES);
  while (n < 0 && errno == EINTR);

  if (n < 0)
    {
      int saved = errno;
      close (fd);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      return FALSE;
    }

  close (fd);
  *len = n;
  return TRUE;
}

/**
 * tw_reader_registry_probe_file:
 *
 * Returns: (transfer full) (nullable): the reader most sure the file is its format
 */
TwReader *
tw_reader_registry_probe_file (const char  *path,
                               GError     **error)
{
  g_autoptr(GPtrArray) readers = NULL;
  g_autofree guint8 *head = g_malloc (PROBE_BYTES);
  TwReader *best = NULL;
  guint best_score = 0;
  gsize len = 0;

  g_return_val_if_fail (path != NULL, NULL);

  /* a trace that is a directory (CTF) shows what it is in its metadata file; a folder
   * without one (an LTTng session's, with its traces below) is probed with nothing */
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *metadata = g_build_filename (path, "metadata", NULL);

      if (g_file_test (metadata, G_FILE_TEST_EXISTS) && !read_head (metadata, head, &len, error))
        return NULL;
    }
  else if (!read_head (path, head, &len, error))
    return NULL;

  readers = tw_reader_registry_dup_readers ();
  for (guint i = 0; i < readers->len; i++)
    {
      guint score = tw_reader_probe (readers->pdata[i], path, head, len);

      if (score > best_score
          || (score > 0 && score == best_score && !has_suffix (best, path)
              && has_suffix (readers->pdata[i], path)))
        {
          best_score = score;
          best = readers->pdata[i];
        }
    }

  if (best == NULL && g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT,
                   "%s: a folder without a trace (a CTF trace folder holds a metadata "
                   "file, in it or below it; other formats are single files)", path);
      return NULL;
    }
  if (best == NULL)
    {
      g_autoptr(GString) known = g_string_new (NULL);

      for (guint i = 0; i < readers->len; i++)
        g_string_append_printf (known, "%s%s", i ? ", " : "",
                                tw_reader_get_info (readers->pdata[i])->label);
      g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT,
                   "%s: not a trace format Trace Workbench knows (%s)", path, known->str);
      return NULL;
    }
  return g_object_ref (best);
}

/**
 * tw_reader_registry_read_into:
 * @trace: an empty trace
 * @progress: (nullable) (scope call): progress of the read
 *
 * Reads @path with @reader into @trace, in the calling thread, and seals it: what every
 * load does, in this process or in a reader child.
 *
 * Returns: %FALSE with @error set
 */
gboolean
tw_reader_registry_read_into (TwReader        *reader,
                              const char      *path,
                              TwTrace         *trace,
                              TwProgressFunc   progress,
                              gpointer         progress_data,
                              GCancellable    *cancellable,
                              GError         **error)
{
  g_return_val_if_fail (TW_IS_READER (reader), FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  tw_trace_set_metadata (trace, "format", tw_reader_get_name (reader));
  tw_trace_set_metadata (trace, "path", path);
  return tw_reader_read (reader, path, trace, progress, progress_data, cancellable, error) &&
         tw_trace_seal (trace, cancellable, error);
}

/**
 * tw_reader_registry_load_file:
 * @format: (nullable): a reader name, or %NULL to probe
 * @progress: (nullable) (scope call): progress of the read
 *
 * Reads @path into a new trace and seals it. Runs in the calling thread, every reader in
 * this process (tw_reader_registry_load_file_full() can isolate the outside libraries).
 *
 * Returns: (transfer full) (nullable): the trace
 */
TwTrace *
tw_reader_registry_load_file (const char      *path,
                              const char      *format,
                              TwProgressFunc   progress,
                              gpointer         progress_data,
                              GCancellable    *cancellable,
                              GError         **error)
{
  return tw_reader_registry_load_file_full (path, format, TW_LOAD_IN_PROCESS, progress,
                                            progress_data, cancellable, error);
}

/* The reader of @path: @format's, else the one probing finds. */
static TwReader *
find_reader (const char  *path,
             const char  *format,
             GError     **error)
{
  TwReader *reader;

  if (format == NULL)
    return tw_reader_registry_probe_file (path, error);
  if (!(reader = tw_reader_registry_find (format)))
    g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT,
                 "unknown format “%s”", format);
  return reader;
}

/*
 * An in-process reader's trace built in a temporary file of @cache's folder, as a reader
 * child's is (tw_reader_process_load_to_cache()): its chunks are made in slots of the
 * file, so that the store's pages are the file's (page cache, which the kernel writes
 * back and can evict) rather than anonymous memory, and storing it only completes the
 * file. A trace shown as it is read (@started) is the one returned, kept with the file
 * (tw_trace_cache_keep_temp(): stored once the model its window builds is offered);
 * otherwise the trace returned maps the file read-only. A disk that fills during the
 * read has the rest of the store in memory (tw_trace_image_is_failed()): the trace
 * written is returned then, the file goes. *@nothing_to_store says that the caller has
 * nothing to store.
 */
static TwTrace *
read_into_cache_file (TwReader           *reader,
                      const char         *path,
                      TwTraceCache       *cache,
                      const char         *key,
                      int                 fd,
                      const char         *temp,
                      TwTraceStartedFunc  started,
                      gpointer            started_data,
                      gboolean           *nothing_to_store,
                      TwProgressFunc      progress,
                      gpointer            progress_data,
                      GCancellable       *cancellable,
                      GError            **error)
{
  g_autoptr(TwTraceImage) image = NULL;
  g_autoptr(TwTrace) written = NULL;
  guint64 index_at = 0, end = 0;
  gboolean ok;
  int image_fd;

  if ((image_fd = fcntl (fd, F_DUPFD_CLOEXEC, 0)) < 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", temp,
                   g_strerror (saved));
      close (fd);
      g_unlink (temp);
      return NULL;
    }
  image = tw_trace_image_new_for_fd (image_fd, 0);
  written = tw_trace_image_new_trace (image);
  if (started)
    {
      tw_trace_set_stable_payloads (written);
      started (written, started_data);
    }
  ok = tw_reader_registry_read_into (reader, path, written, progress, progress_data,
                                     cancellable, error);
  if (ok && tw_trace_image_is_failed (image))
    {
      g_debug ("trace cache: no room left in %s; %s is read without the cache",
               tw_trace_cache_get_dir (cache), path);
      *nothing_to_store = TRUE;
      close (fd);
      g_unlink (temp);
      return g_steal_pointer (&written);
    }
  ok = ok && tw_trace_image_publish (image, written, &index_at, &end, error);
  if (!ok)
    {
      close (fd);
      g_unlink (temp);
      return NULL;
    }
  if (started)
    {
      *nothing_to_store = TRUE;
      tw_trace_cache_keep_temp (cache, key, written, fd, temp, index_at, end);
      return g_steal_pointer (&written);
    }
  /* the writer's mappings go; the file's pages stay in the page cache for the reader */
  g_clear_object (&written);
  g_clear_pointer (&image, tw_trace_image_unref);
  return tw_trace_cache_open_temp (cache, fd, temp, error);
}

static G_DEFINE_QUARK (tw-reader-registry-cache-note, cache_note)

/**
 * tw_reader_registry_get_cache_note:
 *
 * What a load with %TW_LOAD_USE_CACHE has to tell the user about the cache: that @trace
 * was read without it, as the disk had no room for its cache file, with the room needed.
 *
 * Returns: (nullable): the note, or %NULL
 */
const char *
tw_reader_registry_get_cache_note (TwTrace *trace)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  return g_object_get_qdata (G_OBJECT (trace), cache_note_quark ());
}

/**
 * tw_reader_registry_load_file_full:
 * @format: (nullable): a reader name, or %NULL to probe
 * @progress: (nullable) (scope call): progress of the read, called from the calling thread
 *
 * Reads @path into a new trace and seals it; with %TW_LOAD_OUT_OF_PROCESS, readers built
 * on outside libraries run in a child process and the calling thread waits for it; with
 * %TW_LOAD_USE_CACHE, a valid cache file of @path is mapped instead, and a trace read is
 * stored in the cache by a thread of its own (tw_trace_cache_wait() before exiting). A
 * reader child then writes the trace into the cache folder, where the store completes
 * it; a disk without room for the cache file (tw_trace_cache_check_room()) has the trace
 * read without the cache, and tw_reader_registry_get_cache_note() says so. A trace read
 * without a cache file keeps in memory what the memory budget allows and the rest in
 * unlinked files of the cache folder; one larger than memory and that disk together is
 * refused before it is read (tw_trace_cache_check_read_room()).
 *
 * Returns: (transfer full) (nullable): the trace
 */
TwTrace *
tw_reader_registry_load_file_full (const char      *path,
                                   const char      *format,
                                   TwLoadFlags      flags,
                                   TwProgressFunc   progress,
                                   gpointer         progress_data,
                                   GCancellable    *cancellable,
                                   GError         **error)
{
  return tw_reader_registry_load_file_shown (path, format, flags, NULL, NULL, progress,
                                             progress_data, cancellable, error);
}

/**
 * tw_reader_registry_load_file_shown:
 * @started: (nullable) (scope call): called with the new trace before a reader in this
 *   process fills it, from the calling thread
 *
 * As tw_reader_registry_load_file_full(); when the trace is read in this process (not
 * mapped from the cache, not read by a child), @started gets it first, its payloads
 * stable (tw_trace_set_stable_payloads()): another thread may show the rows as they are
 * published, if it stops reading them when the trace says they will change
 * (tw_trace_set_rewrite_func(), which @started may set). With %TW_LOAD_USE_CACHE, that
 * trace is built in a temporary file of the cache folder as well, and stored (with it)
 * once the caller offers the whole state model it builds for the trace shown
 * (tw_trace_cache_keep_temp()).
 *
 * Returns: (transfer full) (nullable): the trace, sealed
 */
TwTrace *
tw_reader_registry_load_file_shown (const char         *path,
                                    const char         *format,
                                    TwLoadFlags         flags,
                                    TwTraceStartedFunc  started,
                                    gpointer            started_data,
                                    TwProgressFunc      progress,
                                    gpointer            progress_data,
                                    GCancellable       *cancellable,
                                    GError            **error)
{
  g_autoptr(TwReader) reader = NULL;
  g_autoptr(TwTrace) trace = NULL;
  TwTraceCache *cache = (flags & TW_LOAD_USE_CACHE) ? tw_trace_cache_get_default () : NULL;
  g_autofree char *key = NULL;
  g_autofree char *no_room = NULL;
  g_autofree char *temp = NULL;
  g_autoptr(GError) unwritable = NULL;
  TwTraceCache *into;
  gboolean in_child;
  gboolean nothing_to_store = FALSE;
  guint64 need;
  guint64 store_bytes = 0;
  int temp_fd = -1;

  g_return_val_if_fail (path != NULL, NULL);

  /* the key is taken before reading: a trace written meanwhile does not pass for it */
  if (cache && !g_file_test (path, G_FILE_TEST_IS_DIR) &&
      (key = tw_trace_cache_dup_key (path, NULL)))
    {
      g_autoptr(GError) refused = NULL;

      if ((trace = tw_trace_cache_lookup (cache, key, format, &refused)))
        {
          if (progress)
            progress (1.0, progress_data);
          return g_steal_pointer (&trace);
        }
      if (refused)
        g_debug ("%s", refused->message);
    }

  if (!(reader = find_reader (path, format, error)))
    return NULL;
  need = key ? tw_trace_cache_estimate_file_bytes (cache, path, tw_reader_get_name (reader)) : 0;
  if (key && !tw_trace_cache_check_room (cache, need, &no_room))
    g_clear_pointer (&key, g_free);

  /* a trace over the cache's limit is not stored (its size once read decides): its
   * reader writes no file that would only be removed */
  into = key && need <= tw_trace_cache_get_limit (cache) ? cache : NULL;
  in_child = (flags & TW_LOAD_OUT_OF_PROCESS) && tw_reader_get_library (reader) != NULL;
  /* a folder that cannot be written is no reason not to read the trace */
  if (into && (temp_fd = tw_trace_cache_make_temp (into, &temp, &unwritable)) < 0)
    {
      g_debug ("%s", unwritable->message);
      into = NULL;
    }
  /* without a cache file, what does not fit in memory goes to files of the cache folder */
  if (!into && !tw_trace_cache_check_read_room (path, tw_reader_get_name (reader), &store_bytes,
                                                error))
    return NULL;
  if (in_child && into)
    trace = tw_reader_process_load_to_cache (reader, path, into, temp_fd, temp, progress,
                                             progress_data, cancellable, error);
  else if (in_child && store_bytes > tw_huge_array_get_memory_budget ())
    trace = tw_reader_process_load_spilled (reader, path, progress, progress_data, cancellable,
                                            error);
  else if (in_child)
    trace = tw_reader_process_load (reader, path, progress, progress_data, cancellable, error);
  else if (into)
    trace = read_into_cache_file (reader, path, into, key, temp_fd, temp, started, started_data,
                                  &nothing_to_store, progress, progress_data, cancellable, error);
  else
    {
      trace = tw_trace_new ();
      tw_trace_set_spills (trace);
      if (started)
        {
          tw_trace_set_stable_payloads (trace);
          started (trace, started_data);
        }
      if (!tw_reader_registry_read_into (reader, path, trace, progress, progress_data,
                                         cancellable, error))
        return NULL;
    }

  if (trace && key && !nothing_to_store)
    tw_trace_cache_store_in_background (cache, key, trace);
  if (trace && no_room)
    g_object_set_qdata_full (G_OBJECT (trace), cache_note_quark (), g_steal_pointer (&no_room),
                             g_free);
  return g_steal_pointer (&trace);
}
