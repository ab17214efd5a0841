/* tw-switch-repairs.h: the state model's switch repairs, counted without the model
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

GArray *tw_switch_repairs_count (TwTrace *trace);

G_END_DECLS
