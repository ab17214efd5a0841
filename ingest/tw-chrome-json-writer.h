/* tw-chrome-json-writer.h: any trace as Chrome trace event JSON (Perfetto's UI opens it)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

gboolean tw_chrome_json_writer_write (TwTrace        *trace,
                                      GOutputStream  *stream,
                                      GCancellable   *cancellable,
                                      GError        **error);

G_END_DECLS
