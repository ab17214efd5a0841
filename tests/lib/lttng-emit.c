/* lttng-emit.c: a small LTTng-UST program for the LTTng live tests and benchmark
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lttng-emit N [DELAY_US [pairs]]: emits N events `lttng_ust_tracef:event` with the
 * message "tick I" (I = 0 … N−1), DELAY_US apart (default 0). With `pairs`, N pairs of
 * tracelog events instead, INFO "start I" then, DELAY_US later, WARNING "end I": a job
 * a duration metric can measure. With N = 0 it only registers with
 * the session daemon, which makes the per-user buffers (the streams a live viewer
 * attaches to). Prints, on stdout, the CLOCK_REALTIME ns just before each of the first
 * 1000 events when TW_LTTNG_EMIT_STAMPS is set (the latency benchmark matches them).
 */
#include <lttng/tracef.h>
#include <lttng/tracelog.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  long n = argc > 1 ? atol (argv[1]) : 0;
  long delay_us = argc > 2 ? atol (argv[2]) : 0;
  int stamps = getenv ("TW_LTTNG_EMIT_STAMPS") != NULL;
  int pairs = argc > 3 && strcmp (argv[3], "pairs") == 0;

  for (long i = 0; i < n; i++)
    {
      if (stamps && i < 1000)
        {
          struct timespec ts;

          clock_gettime (CLOCK_REALTIME, &ts);
          printf ("%ld %lld\n", i, (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec);
        }
      if (pairs)
        {
          lttng_ust_tracelog (LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO, "start %ld", i);
          if (delay_us > 0)
            usleep ((useconds_t) delay_us);
          lttng_ust_tracelog (LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "end %ld", i);
          continue;
        }
      lttng_ust_tracef ("tick %ld", i);
      if (delay_us > 0)
        usleep ((useconds_t) delay_us);
    }
  return 0;
}
