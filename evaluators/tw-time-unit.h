/* tw-time-unit.h: the time units that thresholds, limits and durations are written in
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean tw_time_unit_get_ns (const char *unit,
                              double     *ns);

G_END_DECLS
