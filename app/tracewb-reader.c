/* tracewb-reader.c: the helper that reads one trace for tracewb and tracewb-cli
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Readers built on outside libraries run here, so that a crash of the library ends this
 * process and not the program that wanted the trace (ingest/tw-reader-process.c).
 */
#include "config.h"

#include <tw-ingest.h>

int
main (int    argc,
      char **argv)
{
  return tw_reader_process_main (argc, argv);
}
