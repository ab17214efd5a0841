/* tw-csv-reader.h: CSV events, one event per line (docs/csv-format.md)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-reader.h"

G_BEGIN_DECLS

#define TW_TYPE_CSV_READER (tw_csv_reader_get_type ())
G_DECLARE_FINAL_TYPE (TwCsvReader, tw_csv_reader, TW, CSV_READER, GObject)

TwReader *tw_csv_reader_new (void);

G_END_DECLS
