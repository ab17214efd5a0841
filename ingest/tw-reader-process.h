/* tw-reader-process.h: reading a file in a child process, into a shared store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"
#include "tw-trace-cache.h"

G_BEGIN_DECLS

/* The helper program, and the variable that names another one (the build tree's). */
#define TW_READER_HELPER_NAME "tracewb-reader"
#define TW_READER_HELPER_ENV  "TRACEWB_READER_HELPER"

char    *tw_reader_process_dup_helper_path (GError          **error);
TwTrace *tw_reader_process_load            (TwReader         *reader,
                                            const char       *path,
                                            TwProgressFunc    progress,
                                            gpointer          progress_data,
                                            GCancellable     *cancellable,
                                            GError          **error);
TwTrace *tw_reader_process_load_spilled    (TwReader         *reader,
                                            const char       *path,
                                            TwProgressFunc    progress,
                                            gpointer          progress_data,
                                            GCancellable     *cancellable,
                                            GError          **error);
TwTrace *tw_reader_process_load_to_cache   (TwReader         *reader,
                                            const char       *path,
                                            TwTraceCache     *cache,
                                            int               fd,
                                            const char       *temp,
                                            TwProgressFunc    progress,
                                            gpointer          progress_data,
                                            GCancellable     *cancellable,
                                            GError          **error);
int      tw_reader_process_main            (int               argc,
                                            char            **argv);

G_END_DECLS
