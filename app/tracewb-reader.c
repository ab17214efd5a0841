/* tracewb-reader.c: the helper that reads one trace for tracewb and tracewb-cli
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Readers built on outside libraries run here, so that a crash of the library ends this
 * process and not the program that wanted the trace (ingest/tw-reader-process.c).
 * With --lttng-live / --lttng-sessions it follows an LTTng live session or lists a
 * relay's sessions for the same reason (ingest/tw-lttng-live-child.c).
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>

int
main (int    argc,
      char **argv)
{
  if (argc > 1 && (strcmp (argv[1], "--lttng-live") == 0 || strcmp (argv[1], "--lttng-sessions") == 0))
    return tw_lttng_live_child_main (argc, argv);
  return tw_reader_process_main (argc, argv);
}
