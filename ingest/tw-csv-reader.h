/* tw-csv-reader.h: CSV events, one event per line (docs/csv-format.md)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

extern const TwReaderInfo tw_csv_reader_info;

G_END_DECLS
