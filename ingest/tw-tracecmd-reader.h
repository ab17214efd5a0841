/* tw-tracecmd-reader.h: reads trace-cmd trace.dat files through libtracecmd
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

extern const TwReaderInfo tw_tracecmd_reader_info;

G_END_DECLS
