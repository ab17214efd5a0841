/* tw-atomic-file.h: write a file so that it appears complete or not at all
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Writes a file's contents to @stream (not closing it); returns %FALSE with @error set
 * when that fails or is cancelled. */
typedef gboolean (*TwStreamWriteFunc) (GOutputStream  *stream,
                                       gpointer        user_data,
                                       GCancellable   *cancellable,
                                       GError        **error);

gboolean tw_atomic_file_write (const char         *path,
                               TwStreamWriteFunc   write,
                               gpointer            user_data,
                               GCancellable       *cancellable,
                               GError            **error);

G_END_DECLS
