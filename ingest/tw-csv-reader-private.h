/* tw-csv-reader-private.h: the CSV parser's in-tree entry points (fuzzer, writer)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-csv-reader.h"

G_BEGIN_DECLS

TwReaderParseFunc _tw_csv_parse_buffer;
gboolean _tw_csv_column_is_reserved (const char      *name);
const char *_tw_csv_kind_column_for (TwEventKind      kind);

/* A header cell "arg:NAME" is an argument named NAME even when NAME is reserved. */
#define TW_CSV_ARG_PREFIX "arg:"

G_END_DECLS
