/* tw-csv-writer.h: any trace as CSV events, in the format the CSV reader reads
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

gboolean tw_csv_writer_write        (TwTrace         *trace,
                                     GOutputStream   *stream,
                                     GCancellable    *cancellable,
                                     GError         **error);
gboolean tw_csv_writer_write_events (TwTrace         *trace,
                                     guint64          n_events,
                                     GOutputStream   *stream,
                                     TwProgressFunc   progress,
                                     gpointer         progress_data,
                                     GCancellable    *cancellable,
                                     GError         **error);

G_END_DECLS
