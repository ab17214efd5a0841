/* sensor-outside.c: an instrumented program that knows only `pkg-config tracewb-sensor`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built by test-sensor-outside.sh with the pkg-config flags and nothing else (no GLib,
 * no project include paths): "write N" commits N elements and _exits without freeing
 * the sensor, "read" attaches as a monitor from position 0 and prints what it got.
 */
#include <tw-sensor.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct job {
  uint64_t seq;
  uint32_t cpu;
  double   ms;
  char     name[16];
};

int
main (int argc, char **argv)
{
  if (argc == 3 && strcmp (argv[1], "write") == 0)
    {
      long n = atol (argv[2]);
      TwSensor *sensor = tw_sensor_new ("outside", "jobs", "u64 seq; u32 cpu; f64 ms; char name[16]", 4096, 0);

      if (!sensor)
        {
          perror ("tw_sensor_new");
          return 1;
        }
      for (long i = 0; i < n; i++)
        {
          struct job *job = tw_sensor_write (sensor);

          job->seq = (uint64_t) i;
          job->cpu = (uint32_t) (i % 4);
          job->ms = (double) i / 8;
          snprintf (job->name, sizeof job->name, "job-%d", (int) (i % 1000000));
          tw_sensor_commit (sensor, job);
        }
      _exit (0);   /* no tw_sensor_free (), as if it crashed: the file stays for the monitor */
    }
  if (argc == 2 && strcmp (argv[1], "read") == 0)
    {
      TwSensorDirEntry *entries;
      TwSensorReader *reader;
      TwSensorReaderCounts counts;
      TwSensorElement element;
      const TwSensorSchema *schema;
      uint64_t sum = 0;
      size_t n_entries;
      char error[512], text[64];
      int seq_field, name_field;

      if (tw_sensor_dir_list (&entries, &n_entries) < 0 || n_entries != 1)
        {
          fprintf (stderr, "expected one sensor in the directory\n");
          return 1;
        }
      printf ("sensor %s/%s alive %d\n", entries[0].task, entries[0].sensor, entries[0].alive);
      reader = tw_sensor_reader_open (entries[0].path, error, sizeof error);
      free (entries);
      if (!reader)
        {
          fprintf (stderr, "%s\n", error);
          return 1;
        }
      schema = tw_sensor_reader_get_schema (reader);
      seq_field = tw_sensor_schema_find_field (schema, "seq");
      name_field = tw_sensor_schema_find_field (schema, "name");
      tw_sensor_reader_seek_start (reader);
      while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
        {
          uint64_t seq;

          memcpy (&seq, (const char *) element.payload + tw_sensor_schema_get_field (schema, (size_t) seq_field)->offset,
                  sizeof seq);
          sum += seq;
        }
      tw_sensor_field_format (tw_sensor_schema_get_field (schema, (size_t) name_field), element.payload,
                              text, sizeof text);
      counts = tw_sensor_reader_get_counts (reader);
      printf ("received %llu missed %llu sum %llu last %s\n", (unsigned long long) counts.received,
              (unsigned long long) counts.missed, (unsigned long long) sum, text);
      tw_sensor_reader_free (reader);
      return 0;
    }
  fprintf (stderr, "usage: %s write N | read\n", argv[0]);
  return 2;
}
