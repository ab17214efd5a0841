/* tw-live-gtop.h: a libgtop sampler (CPU load, memory, per-process CPU time) as a live source
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-monitor.h"

G_BEGIN_DECLS

gboolean      tw_live_gtop_is_supported (GError  **error);
TwLiveSource *tw_live_gtop_new          (guint64   interval_ns,
                                         GError  **error);

G_END_DECLS
