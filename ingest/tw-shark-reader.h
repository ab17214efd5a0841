/* tw-shark-reader.h: reader of S.Ha.R.K. tracer binary dumps
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

extern const TwReaderInfo tw_shark_reader_info;

G_END_DECLS
