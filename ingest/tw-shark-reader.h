/* tw-shark-reader.h: reader of S.Ha.R.K. tracer binary dumps
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

#define TW_TYPE_SHARK_READER (tw_shark_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwSharkReader, tw_shark_reader, TW, SHARK_READER, GObject)

TwReader *tw_shark_reader_new (void);

G_END_DECLS
