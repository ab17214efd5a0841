/* tw-ftrace-text-reader.h: reads the text of `trace-cmd report` and of tracefs `trace`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

extern const TwReaderInfo tw_ftrace_text_reader_info;

G_END_DECLS
