/* tw-ctf-reader.h: reads CTF traces (LTTng) through libbabeltrace2
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

extern const TwReaderInfo tw_ctf_reader_info;

G_END_DECLS
