/* tw-ftrace-text-reader-private.h: the ftrace text parser on a memory buffer, for
 * tests and the fuzz target
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-ftrace-text-reader.h"

G_BEGIN_DECLS

gboolean _tw_ftrace_text_parse_buffer (TwTrace         *trace,
                                       const char      *path,
                                       const char      *data,
                                       gsize            len,
                                       TwProgressFunc   progress,
                                       gpointer         progress_data,
                                       GCancellable    *cancellable,
                                       GError         **error);

G_END_DECLS
