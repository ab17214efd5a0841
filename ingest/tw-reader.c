/* tw-reader.c: the interface every trace file reader implements
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-reader.h"

G_DEFINE_QUARK (tw-reader-error-quark, tw_reader_error)
G_DEFINE_INTERFACE (TwReader, tw_reader, G_TYPE_OBJECT)

static void
tw_reader_default_init (TwReaderInterface *iface)
{
}

const char *
tw_reader_get_name (TwReader *self)
{
  g_return_val_if_fail (TW_IS_READER (self), NULL);

  return TW_READER_GET_IFACE (self)->get_name (self);
}

const char *
tw_reader_get_description (TwReader *self)
{
  g_return_val_if_fail (TW_IS_READER (self), NULL);

  return TW_READER_GET_IFACE (self)->get_description (self);
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
  TwReaderInterface *iface;

  g_return_val_if_fail (TW_IS_READER (self), NULL);

  iface = TW_READER_GET_IFACE (self);
  return iface->get_library ? iface->get_library (self) : NULL;
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

  return MIN (100, TW_READER_GET_IFACE (self)->probe (self, path, head, head_len));
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
  g_return_val_if_fail (TW_IS_READER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  return TW_READER_GET_IFACE (self)->read (self, path, trace, progress, progress_data,
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
