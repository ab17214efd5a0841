/* tw-ctf-reader.h: reads CTF traces (LTTng) through libbabeltrace2
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

#define TW_TYPE_CTF_READER (tw_ctf_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwCtfReader, tw_ctf_reader, TW, CTF_READER, GObject)

TwReader *tw_ctf_reader_new (void);

G_END_DECLS
