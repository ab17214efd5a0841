/* tw-ftrace-text-reader.h: reads the text of `trace-cmd report` and of tracefs `trace`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

#define TW_TYPE_FTRACE_TEXT_READER (tw_ftrace_text_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwFtraceTextReader, tw_ftrace_text_reader, TW, FTRACE_TEXT_READER, GObject)

TwReader *tw_ftrace_text_reader_new (void);

G_END_DECLS
