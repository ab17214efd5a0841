/* tw-ctf-packer.h: rows of a store packed straight into CTF 1.8 packets
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

gboolean tw_ctf_packer_write_range (TwTrace         *trace,
                                    guint64          first,
                                    guint64          end,
                                    const char      *path,
                                    const guint8    *clock_uuid,
                                    guint            n_threads,
                                    TwProgressFunc   progress,
                                    gpointer         progress_data,
                                    GCancellable    *cancellable,
                                    GError         **error);

G_END_DECLS
