/* tracecmd-loop.c: the bare libtracecmd iteration loop over a trace.dat, as a process
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: tracecmd-loop TRACE.dat
 *
 * The floor any trace.dat reader built on libtracecmd stands on: open the file, then
 * visit every record in time order and read the two things no reader can skip, its
 * event type and its pid. bench-trace-dat times it as a whole process beside
 * `tracewb-cli info`, so process start, library set-up and exit count on both sides.
 */
#include "config.h"

#include <stdio.h>
#include <trace-cmd.h>

typedef struct {
  struct tep_handle *tep;
  unsigned long long n;
  unsigned long long sum;  /* printed, so the reads cannot be dropped */
} Loop;

static int
visit (struct tracecmd_input *handle,
       struct tep_record     *record,
       int                    cpu,
       void                  *data)
{
  Loop *loop = data;

  loop->n++;
  loop->sum += (unsigned) tep_data_type (loop->tep, record) + (unsigned) tep_data_pid (loop->tep, record);
  return 0;
}

int
main (int    argc,
      char **argv)
{
  struct tracecmd_input *handle;
  Loop loop = { 0 };

  if (argc != 2)
    {
      fprintf (stderr, "usage: tracecmd-loop TRACE.dat\n");
      return 2;
    }
  tracecmd_set_loglevel (TEP_LOG_NONE);
  handle = tracecmd_open (argv[1], TRACECMD_FL_LOAD_NO_PLUGINS);
  if (handle == NULL)
    {
      fprintf (stderr, "tracecmd-loop: libtracecmd cannot open %s\n", argv[1]);
      return 1;
    }
  loop.tep = tracecmd_get_tep (handle);
  if (tracecmd_iterate_events (handle, NULL, 0, visit, &loop) < 0)
    {
      fprintf (stderr, "tracecmd-loop: %s: libtracecmd failed after %llu records\n", argv[1], loop.n);
      tracecmd_close (handle);
      return 1;
    }
  /* the buffer instances, as our reader reads them too */
  for (int i = 0; i < tracecmd_buffer_instances (handle); i++)
    {
      struct tracecmd_input *buffer = tracecmd_buffer_instance_handle (handle, i);

      if (buffer == NULL)
        continue;
      loop.tep = tracecmd_get_tep (buffer);
      tracecmd_iterate_events (buffer, NULL, 0, visit, &loop);
      tracecmd_close (buffer);
    }
  printf ("%llu records (check %llu)\n", loop.n, loop.sum);
  tracecmd_close (handle);
  return 0;
}
