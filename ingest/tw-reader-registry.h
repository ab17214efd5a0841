/* tw-reader-registry.h: format probing and loading a file with the right reader
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

GPtrArray *tw_reader_registry_dup_readers (void);
TwReader  *tw_reader_registry_find        (const char      *name);
TwReader  *tw_reader_registry_probe_file  (const char      *path,
                                           GError         **error);
TwTrace   *tw_reader_registry_load_file   (const char      *path,
                                           const char      *format,
                                           TwProgressFunc   progress,
                                           gpointer         progress_data,
                                           GCancellable    *cancellable,
                                           GError         **error);

G_END_DECLS
