/* tw-atomic-file.c: write a file so that it appears complete or not at all
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixoutputstream.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

/*
 * The contents go to a hidden file beside @path (".NAME.XXXXXX": the same directory, so
 * the final rename(2) stays on one file system and is atomic), which is flushed to disk
 * and renamed over @path only once everything is written. Until then @path is absent or
 * keeps its previous contents; a failure or a cancel removes the hidden file. This is
 * g_file_set_contents() for contents that are written as a stream: g_file_replace() is
 * not enough, because for a file that does not exist yet it writes under the final name.
 */

static void
set_error_from_errno (GError    **error,
                      int         errsv,
                      const char *path)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path,
               g_strerror (errsv));
}

/* Contents on disk before the rename, so that a crash cannot leave @path renamed but
 * empty (file systems may order the rename before the data otherwise). */
static gboolean
sync_to_disk (int          fd,
              const char  *path,
              GError     **error)
{
  if (fsync (fd) == 0)
    return TRUE;
  set_error_from_errno (error, errno, path);
  return FALSE;
}

static gboolean
rename_over (const char  *partial,
             const char  *path,
             GError     **error)
{
  if (g_rename (partial, path) == 0)
    return TRUE;
  set_error_from_errno (error, errno, path);
  return FALSE;
}

/**
 * tw_atomic_file_write:
 * @path: the file to write (local)
 * @write: writes the contents to the stream it is given
 * @cancellable: (nullable): checked once more before the file is put in place
 *
 * Calls @write on a stream into a new hidden file in @path's directory, and renames that
 * file over @path when @write succeeded: @path never holds partial contents, and a failed
 * or cancelled write leaves no file behind (an existing @path keeps its contents). The
 * new file gets the usual permissions (0666 less the umask). May run in any thread.
 *
 * Returns: %FALSE with @error set, its message starting with @path, on failure
 */
gboolean
tw_atomic_file_write (const char         *path,
                      TwStreamWriteFunc   write,
                      gpointer            user_data,
                      GCancellable       *cancellable,
                      GError            **error)
{
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *partial = NULL;
  g_autoptr(GOutputStream) stream = NULL;
  g_autoptr(GError) local = NULL;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (write != NULL, FALSE);

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  partial = g_strdup_printf ("%s%s.%s.XXXXXX", dir, G_DIR_SEPARATOR_S, base);
  fd = g_mkstemp_full (partial, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      set_error_from_errno (error, errno, path);
      return FALSE;
    }

  stream = g_unix_output_stream_new (fd, TRUE);
  if (write (stream, user_data, cancellable, &local)
      && sync_to_disk (fd, path, &local)
      && !g_cancellable_set_error_if_cancelled (cancellable, &local)
      && g_output_stream_close (stream, NULL, &local)
      && rename_over (partial, path, &local))
    return TRUE;

  g_output_stream_close (stream, NULL, NULL);
  g_unlink (partial);
  if (strstr (local->message, path))
    g_propagate_error (error, g_steal_pointer (&local));
  else
    g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return FALSE;
}
