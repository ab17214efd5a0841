/* tw-live-kernel.h: the Linux kernel trace buffer as a live source of the monitor
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-monitor.h"

G_BEGIN_DECLS

gboolean      tw_live_kernel_is_supported (GError **error);
TwLiveSource *tw_live_kernel_new          (GError **error);

G_END_DECLS
