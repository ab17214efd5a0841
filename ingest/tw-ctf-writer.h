/* tw-ctf-writer.h: any trace as a CTF trace folder
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/* How often "Keep recording" closes a chunk when nothing else is said, ms. */
#define TW_CTF_KEEP_CHUNK_MS 1000

/* Called from the recording thread after each chunk: @n_events written so far, in
 * @n_chunks chunks. */
typedef void (*TwCtfChunkFunc) (guint64  n_events,
                                guint    n_chunks,
                                gpointer user_data);

gboolean tw_ctf_writer_is_available    (GError         **error);
gboolean tw_ctf_writer_write_events    (TwTrace         *trace,
                                        guint64          n_events,
                                        const char      *path,
                                        TwProgressFunc   progress,
                                        gpointer         progress_data,
                                        GCancellable    *cancellable,
                                        GError         **error);
gboolean tw_ctf_writer_write_range     (TwTrace         *trace,
                                        guint64          first,
                                        guint64          end,
                                        const char      *path,
                                        const guint8    *clock_uuid,
                                        TwProgressFunc   progress,
                                        gpointer         progress_data,
                                        GCancellable    *cancellable,
                                        GError         **error);
gboolean tw_ctf_writer_write_events_range (TwTrace      *trace,
                                        guint64          first,
                                        guint64          end,
                                        const char      *path,
                                        GCancellable    *cancellable,
                                        GError         **error);
gboolean tw_ctf_writer_keep_recording  (TwTrace         *trace,
                                        const char      *path,
                                        guint            chunk_ms,
                                        GCancellable    *stop,
                                        TwCtfChunkFunc   chunk_done,
                                        gpointer         chunk_data,
                                        GError         **error);
gboolean tw_ctf_writer_path_is_csv     (const char      *path);

G_END_DECLS
