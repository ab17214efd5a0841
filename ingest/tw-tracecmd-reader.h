/* tw-tracecmd-reader.h: reads trace-cmd trace.dat files through libtracecmd
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

#define TW_TYPE_TRACECMD_READER (tw_tracecmd_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwTracecmdReader, tw_tracecmd_reader, TW, TRACECMD_READER, GObject)

TwReader *tw_tracecmd_reader_new (void);

G_END_DECLS
