/* tw-ctf-writer-private.h: what the CTF writer's benchmark measures beside it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-ctf-writer.h"

G_BEGIN_DECLS

gboolean _tw_ctf_writer_run_source_only (TwTrace  *trace,
                                         guint64   n_events,
                                         GError  **error);

G_END_DECLS
