/* tw-reader-registry.h: format probing and loading a file with the right reader
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

/**
 * TwLoadFlags:
 * @TW_LOAD_IN_PROCESS: every reader runs in the calling thread
 * @TW_LOAD_OUT_OF_PROCESS: a reader built on an outside library (tw_reader_get_library())
 *   runs in a child process (tw-reader-process.h), so that a crash in the library is an
 *   error, not the end of the program
 * @TW_LOAD_USE_CACHE: map the trace from the user's trace cache when it holds a valid
 *   copy (tw-trace-cache.h), else read it and store it there in the background; nothing
 *   when the cache is off (`TRACEWB_NO_CACHE=1`, `--no-cache`) or the trace is a folder
 */
typedef enum {
  TW_LOAD_IN_PROCESS     = 0,
  TW_LOAD_OUT_OF_PROCESS = 1 << 0,
  TW_LOAD_USE_CACHE      = 1 << 1,
} TwLoadFlags;

void       tw_reader_registry_add         (const TwReaderInfo *info);
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
TwTrace   *tw_reader_registry_load_file_full (const char    *path,
                                           const char      *format,
                                           TwLoadFlags      flags,
                                           TwProgressFunc   progress,
                                           gpointer         progress_data,
                                           GCancellable    *cancellable,
                                           GError         **error);
const char *tw_reader_registry_get_cache_note (TwTrace   *trace);
/* The trace a reader is about to fill, before its first row (tw_reader_registry_load_file_shown()). */
typedef void (*TwTraceStartedFunc) (TwTrace  *trace,
                                    gpointer  user_data);
TwTrace   *tw_reader_registry_load_file_shown (const char     *path,
                                           const char      *format,
                                           TwLoadFlags      flags,
                                           TwTraceStartedFunc started,
                                           gpointer         started_data,
                                           TwProgressFunc   progress,
                                           gpointer         progress_data,
                                           GCancellable    *cancellable,
                                           GError         **error);
gboolean   tw_reader_registry_read_into   (TwReader        *reader,
                                           const char      *path,
                                           TwTrace         *trace,
                                           TwProgressFunc   progress,
                                           gpointer         progress_data,
                                           GCancellable    *cancellable,
                                           GError         **error);

G_END_DECLS
