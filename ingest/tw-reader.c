/* tw-reader.c: a trace file reader, described by one TwReaderInfo
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-reader.h"


G_DEFINE_QUARK (tw-reader-error-quark, tw_reader_error)

/* The reader's identity is its TwReaderInfo; the object lets callers hold, share and
 * pass a reader like any other. */
struct _TwReader
{
  GObject             parent_instance;
  const TwReaderInfo *info;
};

G_DEFINE_FINAL_TYPE (TwReader, tw_reader, G_TYPE_OBJECT)

static void
tw_reader_class_init (TwReaderClass *klass)
{
}

static void
tw_reader_init (TwReader *self)
{
}

/**
 * tw_reader_new:
 * @info: (transfer none): the reader's description, which must outlive the reader (a
 *   constant, as every built-in reader's is)
 *
 * Returns: (transfer full): the reader @info describes
 */
TwReader *
tw_reader_new (const TwReaderInfo *info)
{
  TwReader *self;

  g_return_val_if_fail (info != NULL && info->name != NULL && info->label != NULL, NULL);
  g_return_val_if_fail (info->probe != NULL, NULL);

  self = g_object_new (TW_TYPE_READER, NULL);
  self->info = info;
  return self;
}

const char *
tw_reader_get_name (TwReader *self)
{
  g_return_val_if_fail (TW_IS_READER (self), NULL);

  return self->info->name;
}

/**
 * tw_reader_get_info:
 *
 * Returns: (transfer none): the description the reader was made from
 */
const TwReaderInfo *
tw_reader_get_info (TwReader *self)
{
  g_return_val_if_fail (TW_IS_READER (self), NULL);

  return self->info;
}

/**
 * tw_reader_get_library:
 *
 * Returns: (nullable): the outside library the reader is built on, with its version, or
 *   %NULL when the reader is ours alone
 */
const char *
tw_reader_get_library (TwReader *self)
{
  g_return_val_if_fail (TW_IS_READER (self), NULL);

  return self->info->get_library ? self->info->get_library () : NULL;
}

/**
 * tw_reader_probe:
 * @head: (array length=head_len): the first bytes of the file
 *
 * Returns: confidence from 0 (not this format) to 100 (certainly this format)
 */
guint
tw_reader_probe (TwReader     *self,
                 const char   *path,
                 const guint8 *head,
                 gsize         head_len)
{
  g_return_val_if_fail (TW_IS_READER (self), 0);

  return MIN (100, self->info->probe (path, head, head_len));
}

/**
 * tw_reader_read:
 * @progress: (nullable) (scope call): called with the fraction done
 *
 * Appends the events of @path to @trace. Does not seal it.
 *
 * Returns: %FALSE with @error set (naming the file and the line or offset)
 */
gboolean
tw_reader_read (TwReader        *self,
                const char      *path,
                TwTrace         *trace,
                TwProgressFunc   progress,
                gpointer         progress_data,
                GCancellable    *cancellable,
                GError         **error)
{
  g_autoptr(GMappedFile) file = NULL;

  g_return_val_if_fail (TW_IS_READER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  if (self->info->read)
    return self->info->read (path, trace, progress, progress_data, cancellable, error);
  if (self->info->parse == NULL)
    {
      g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED,
                   "%s: %s support was not built (install %s and rebuild)", path,
                   self->info->label, self->info->build_package);
      return FALSE;
    }
  if (!(file = g_mapped_file_new (path, FALSE, error)))
    return FALSE;
  return self->info->parse (trace, path, g_mapped_file_get_contents (file),
                            g_mapped_file_get_length (file), progress, progress_data,
                            cancellable, error);
}

static void set_error_at (GError **error, TwReaderError code, const char *path,
                          const char *where, guint64 position, const char *format,
                          va_list args) G_GNUC_PRINTF (6, 0);

static void
set_error_at (GError        **error,
              TwReaderError   code,
              const char     *path,
              const char     *where,
              guint64         position,
              const char     *format,
              va_list         args)
{
  g_autofree char *message = g_strdup_vprintf (format, args);

  g_set_error (error, TW_READER_ERROR, code, "%s: %s %" G_GUINT64_FORMAT ": %s",
               path, where, position, message);
}

void
tw_reader_set_error_at_line (GError        **error,
                             TwReaderError   code,
                             const char     *path,
                             guint64         line,
                             const char     *format,
                             ...)
{
  va_list args;

  va_start (args, format);
  set_error_at (error, code, path, "line", line, format, args);
  va_end (args);
}

void
tw_reader_set_error_at_offset (GError        **error,
                               TwReaderError   code,
                               const char     *path,
                               guint64         offset,
                               const char     *format,
                               ...)
{
  va_list args;

  va_start (args, format);
  set_error_at (error, code, path, "offset", offset, format, args);
  va_end (args);
}
