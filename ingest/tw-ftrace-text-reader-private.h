/* tw-ftrace-text-reader-private.h: the ftrace text parser on a memory buffer, for
 * tests and the fuzz target
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-ftrace-text-reader.h"

G_BEGIN_DECLS

TwReaderParseFunc _tw_ftrace_text_parse_buffer;

G_END_DECLS
