/* tw-ctf-writer.c: any trace as a CTF trace folder
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ctf-writer.h"
#include "tw-ctf-writer-private.h"
#include "tw-ctf-packer.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/*
 * A CTF trace folder of our own packing (tw-ctf-packer.c: one stream file per CPU plus
 * `tasks`, LTTng's kernel payloads and task contexts, a TSDL `metadata`), which
 * `babeltrace2`, Trace Compass and our own CTF reader all open; written beside its
 * final name and renamed when whole, or, while a session runs, as a folder of trace
 * chunks ("Keep recording").
 */

gboolean
tw_ctf_writer_path_is_csv (const char *path)
{
  return path && g_str_has_suffix (path, ".csv");
}

/* ---------------------------------------------------------------- folders */

static void
set_error_from_errno (GError    **error,
                      int         errsv,
                      const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path,
               g_strerror (errsv));
}

/* Removes @path and what is below it (the partial folder of a failed recording). */
static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Contents on disk before the rename, as tw_atomic_file_write() does for a file. */
static gboolean
sync_tree (const char  *path,
           GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;
  int fd;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        {
          if (!sync_tree (child, error))
            return FALSE;
          continue;
        }
      fd = g_open (child, O_RDONLY | O_CLOEXEC, 0);
      if (fd < 0 || fsync (fd) != 0)
        {
          set_error_from_errno (error, errno, child);
          if (fd >= 0)
            close (fd);
          return FALSE;
        }
      close (fd);
    }
  fd = g_open (path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd >= 0)
    {
      fsync (fd);
      close (fd);
    }
  return TRUE;
}

static gboolean
check_new_path (const char  *path,
                GError     **error)
{
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               "%s: already exists (a CTF trace is a new folder: choose another name)", path);
  return FALSE;
}

/**
 * tw_ctf_writer_is_available:
 *
 * The packer needs nothing but the file system; what a recording is for, reading it
 * back in the app and checking it in `babeltrace2`, needs babeltrace2's ctf plugin.
 *
 * Returns: whether this build and system can write CTF and read it back (babeltrace2
 *   and its ctf plugin); %FALSE with @error set saying what is missing
 */
gboolean
tw_ctf_writer_is_available (GError **error)
{
  return _tw_ctf_bt_writer_is_available (error);
}

/**
 * tw_ctf_writer_write_range:
 * @trace: a trace, sealed or growing (a live session's store)
 * @first: the first row to write
 * @end: the row after the last one; at most the rows published when the call starts
 * @path: the trace folder to make; it must not exist
 * @clock_uuid: (nullable): 16 bytes naming the clock, the same for every chunk of one
 *   recording so that babeltrace2 merges them
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes rows [@first, @end) of @trace as a CTF trace into @path (not atomically: see
 * tw_ctf_writer_write_events()). A range without rows is still a trace, of 0 events.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled; what was
 *   written of @path is left for the caller to remove
 */
gboolean
tw_ctf_writer_write_range (TwTrace         *trace,
                           guint64          first,
                           guint64          end,
                           const char      *path,
                           const guint8    *clock_uuid,
                           TwProgressFunc   progress,
                           gpointer         progress_data,
                           GCancellable    *cancellable,
                           GError         **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_new_path (path, error)
      || !tw_ctf_packer_write_range (trace, first, end, path, clock_uuid, 0, progress, progress_data, cancellable,
                                     error))
    return FALSE;
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

/* Writes the range into a hidden folder beside @path, then renames it to @path: the
 * trace appears whole or not at all, and a failure or Cancel leaves nothing. */
static gboolean
write_range_atomically (TwTrace         *trace,
                        guint64          first,
                        guint64          end,
                        const char      *path,
                        const guint8    *clock_uuid,
                        TwProgressFunc   progress,
                        gpointer         progress_data,
                        GCancellable    *cancellable,
                        GError         **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *holder = g_strdup_printf ("%s%s.%s.partial-XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  g_autofree char *partial = NULL;
  g_autoptr(GError) local = NULL;

  if (!check_new_path (path, error))
    return FALSE;
  if (g_mkdtemp_full (holder, 0755) == NULL)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }
  partial = g_build_filename (holder, base, NULL);
  if (tw_ctf_writer_write_range (trace, first, end, partial, clock_uuid, progress, progress_data,
                                 cancellable, &local)
      && sync_tree (partial, &local)
      && !g_cancellable_set_error_if_cancelled (cancellable, &local))
    {
      if (g_rename (partial, path) == 0)
        {
          g_rmdir (holder);
          return TRUE;
        }
      set_error_from_errno (&local, errno, path);
    }
  remove_tree (holder);
  if (strstr (local->message, path))
    g_propagate_error (error, g_steal_pointer (&local));
  else
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return FALSE;
}

/**
 * tw_ctf_writer_write_events:
 * @trace: a trace, sealed or growing (a live session's store)
 * @n_events: how many events to write: the first @n_events of @trace, at most the ones
 *   published when the call starts
 * @path: the trace folder to make; it must not exist
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes the first @n_events events of @trace as a CTF trace folder (a `metadata` file
 * and one stream file per CPU, plus `tasks` for events without a CPU), which
 * `babeltrace2 PATH` prints and Trace Workbench opens with the same events, tasks and
 * fields. The folder appears complete or not at all.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_ctf_writer_write_events (TwTrace         *trace,
                            guint64          n_events,
                            const char      *path,
                            TwProgressFunc   progress,
                            gpointer         progress_data,
                            GCancellable    *cancellable,
                            GError         **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!tw_ctf_writer_is_available (error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return write_range_atomically (trace, 0, n_events, path, NULL, progress, progress_data,
                                 cancellable, error);
}

/**
 * tw_ctf_writer_write_events_range:
 * @trace: a trace, sealed or growing (a live session's store)
 * @first: the first row to write
 * @end: the row after the last one; at most the rows published when the call starts
 * @path: the trace folder to make; it must not exist
 *
 * Writes rows [@first, @end) of @trace as a CTF trace folder, like
 * tw_ctf_writer_write_events(): complete or not at all. A flight recorder's window.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_ctf_writer_write_events_range (TwTrace       *trace,
                                  guint64        first,
                                  guint64        end,
                                  const char    *path,
                                  GCancellable  *cancellable,
                                  GError       **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (first <= end, FALSE);

  if (!tw_ctf_writer_is_available (error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  return write_range_atomically (trace, first, end, path, NULL, NULL, NULL, cancellable, error);
}

/* Waits @ms or until @stop is cancelled. Returns: whether it was. */
static gboolean
wait_or_stop (GCancellable *stop,
              guint         ms)
{
  GPollFD fd;
  gint64 until = g_get_monotonic_time () + (gint64) ms * 1000;

  if (!g_cancellable_make_pollfd (stop, &fd))
    {
      g_usleep ((gulong) ms * 1000);
      return g_cancellable_is_cancelled (stop);
    }
  while (!g_cancellable_is_cancelled (stop))
    {
      gint64 left = until - g_get_monotonic_time ();

      if (left <= 0)
        break;
      g_poll (&fd, 1, (gint) MAX (1, left / 1000));
    }
  g_cancellable_release_fd (stop);
  return g_cancellable_is_cancelled (stop);
}

/**
 * tw_ctf_writer_keep_recording:
 * @trace: a growing trace (a live session's store)
 * @path: the recording's folder: made now, it must not exist or be empty
 * @chunk_ms: how often a chunk is closed, ms (TW_CTF_KEEP_CHUNK_MS)
 * @stop: cancelled to stop: the rows published by then go into a last chunk
 * @chunk_done: (nullable): called after each chunk, from the calling thread
 *
 * "Keep recording": appends @trace's rows to @path while it grows, in the calling
 * thread, until @stop is cancelled. Every @chunk_ms the rows published since the last
 * chunk become a CTF trace `chunk-NNNNNN` in @path (written as a hidden folder, then
 * renamed), as `lttng rotate` cuts an LTTng session into trace chunks: `babeltrace2
 * PATH` and Trace Workbench read the folder as one trace, and a crash loses at most the
 * chunk being written. One chunk per interval, not one packet: a chunk is a whole
 * trace that appears at once by its rename, while packets appended to one trace would
 * need its `metadata` to grow with each new event type and leave a stream cut
 * mid-packet after a crash.
 *
 * Returns: %FALSE with @error set when a chunk could not be written; the chunks
 *   written before stay
 */
gboolean
tw_ctf_writer_keep_recording (TwTrace         *trace,
                              const char      *path,
                              guint            chunk_ms,
                              GCancellable    *stop,
                              TwCtfChunkFunc   chunk_done,
                              gpointer         chunk_data,
                              GError         **error)
{
  guint8 uuid[16];
  guint64 first = 0;
  guint n_chunks = 0;
  gboolean stopping = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (G_IS_CANCELLABLE (stop), FALSE);

  if (!tw_ctf_writer_is_available (error))
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);

      if (dir == NULL || g_dir_read_name (dir) != NULL)
        return check_new_path (path, error);
    }
  else if (g_mkdir_with_parents (path, 0755) != 0)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }
  for (guint i = 0; i < sizeof uuid; i++)
    uuid[i] = (guint8) g_random_int_range (0, 256);
  uuid[6] = (uuid[6] & 0x0f) | 0x40;   /* a version 4 UUID */
  uuid[8] = (uuid[8] & 0x3f) | 0x80;

  while (!stopping)
    {
      guint64 end;

      stopping = wait_or_stop (stop, MAX (chunk_ms, 1));
      end = tw_trace_get_n_events (trace);
      /* an empty recording is still a trace (of 0 events) */
      if (end > first || (stopping && n_chunks == 0))
        {
          g_autofree char *name = g_strdup_printf ("chunk-%06u", n_chunks + 1);
          g_autofree char *chunk = g_build_filename (path, name, NULL);

          if (!write_range_atomically (trace, first, end, chunk, uuid, NULL, NULL, NULL, error))
            return FALSE;
          first = end;
          n_chunks++;
          if (chunk_done)
            chunk_done (first, n_chunks, chunk_data);
        }
    }
  return TRUE;
}
