/* ust-craft.c: a target monitor's LTTng-UST events made by hand, for the LTTng tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ust-craft MODULE COMMAND... loads tracewb-ust.so (MODULE) as `tracewb-cli monitor
 * --lttng` does and fires its tracepoints as the commands say, with any monitor pid,
 * positions and counts: what a real monitor sends only by chance (two targets' monitors
 * of one pid) or through faults (LTTng dropping element events, a monitor restarted).
 *
 *   schema MONITOR SENSOR TASK NAME          a sensor of schema "u64 seq", pid 4000
 *   schema-jcs MONITOR SENSOR TASK NAME T D TAU T_M DEADLINE
 *                                            the same, declaring that stream (ns)
 *   elements MONITOR SENSOR FIRST N MISSED   N elements from position FIRST, each's seq
 *                                            its position, stamped now (CLOCK_MONOTONIC)
 *   counts MONITOR SENSOR RECEIVED MISSED    the monitor's counts of the sensor
 *   histogram MONITOR EVALUATION COUNT       a snapshot: COUNT values in one bin
 *   sleep MS
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../app/cli/tw-ust-emitter.h"

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static uint64_t
number (const char *text)
{
  return strtoull (text, NULL, 10);
}

/* Runs the command at @argv; returns how many words it took, 0 when it is not one. */
static int
run (const TwUstEmitter *e,
     char              **argv,
     int                 left)
{
  const char *cmd = argv[0];

  if (strcmp (cmd, "schema") == 0 && left >= 5)
    {
      static const double undeclared[5];

      e->sensor_schema ((uint32_t) number (argv[1]), (uint32_t) number (argv[2]), 4000, argv[3], argv[4],
                        "u64 seq", 16, 8, undeclared);
      return 5;
    }
  if (strcmp (cmd, "schema-jcs") == 0 && left >= 10)
    {
      double jcs[5];

      for (int i = 0; i < 5; i++)
        jcs[i] = (double) number (argv[5 + i]);
      e->sensor_schema ((uint32_t) number (argv[1]), (uint32_t) number (argv[2]), 4000, argv[3], argv[4],
                        "u64 seq", 16, 8, jcs);
      return 10;
    }
  if (strcmp (cmd, "elements") == 0 && left >= 6)
    {
      uint64_t first = number (argv[3]);
      unsigned n = (unsigned) number (argv[4]);
      uint8_t *elements = calloc (n ? n : 1, 16);

      for (unsigned i = 0; i < n; i++)
        {
          uint64_t stamp = now_ns (), seq = first + i;

          memcpy (elements + 16 * i, &stamp, 8);
          memcpy (elements + 16 * i + 8, &seq, 8);
        }
      e->sensor_elements ((uint32_t) number (argv[1]), (uint32_t) number (argv[2]), first, elements, n, 16, 8,
                          number (argv[5]));
      free (elements);
      return 6;
    }
  if (strcmp (cmd, "counts") == 0 && left >= 5)
    {
      e->sensor_counts ((uint32_t) number (argv[1]), (uint32_t) number (argv[2]), number (argv[3]),
                        number (argv[4]), 0, 0);
      return 5;
    }
  if (strcmp (cmd, "histogram") == 0 && left >= 4)
    {
      uint64_t count = number (argv[3]);

      e->histogram ((uint32_t) number (argv[1]), argv[2], count, 1500, 1500, 1500, 1000, 1000, &count, 1);
      return 4;
    }
  if (strcmp (cmd, "sleep") == 0 && left >= 2)
    {
      usleep ((useconds_t) number (argv[1]) * 1000);
      return 2;
    }
  return 0;
}

int
main (int    argc,
      char **argv)
{
  void *module;
  TwUstEmitterGetFunc get;
  const TwUstEmitter *e;

  if (argc < 2 || (module = dlopen (argv[1], RTLD_NOW)) == NULL)
    {
      fprintf (stderr, "ust-craft: cannot load %s: %s\n", argc < 2 ? "(no module)" : argv[1], dlerror ());
      return 2;
    }
  get = (TwUstEmitterGetFunc) dlsym (module, TW_UST_EMITTER_SYMBOL);
  if (get == NULL || (e = get ()) == NULL || e->version != TW_UST_EMITTER_VERSION)
    {
      fprintf (stderr, "ust-craft: %s is not tracewb's LTTng-UST module\n", argv[1]);
      return 2;
    }
  for (int i = 2; i < argc;)
    {
      int used = run (e, argv + i, argc - i);

      if (used == 0)
        {
          fprintf (stderr, "ust-craft: what is “%s”?\n", argv[i]);
          return 2;
        }
      i += used;
    }
  return 0;
}
