/* tw-shark-reader-private.h: the S.Ha.R.K. parser on a memory buffer (for the reader's
 * mmap path, the fuzzer and the tests)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

gboolean tw_shark_parse_buffer       (const guint8    *data,
                                      gsize            len,
                                      const char      *path,
                                      TwTrace         *trace,
                                      TwProgressFunc   progress,
                                      gpointer         progress_data,
                                      GCancellable    *cancellable,
                                      GError         **error);
guint    tw_shark_probe_buffer       (const guint8    *head,
                                      gsize            head_len,
                                      guint64          file_size);
gboolean tw_shark_detect_big_endian  (const guint8    *data,
                                      gsize            n_records);

G_END_DECLS
