/* tw-axis.h: round tick values for the axes of plots
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

double  tw_axis_nice_step      (double  at_least);
int     tw_axis_decimals       (double  step);
char   *tw_axis_format_tick    (double  value,
                                double  step);

G_END_DECLS
