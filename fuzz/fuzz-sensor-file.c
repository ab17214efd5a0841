/* fuzz-sensor-file.c: hostile sensor files and schemas against the monitor-side reader
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is a whole sensor file, served from a memfd through /proc/self/fd so the
 * reader maps it exactly as it maps a file in the sensor directory. The same bytes are
 * also parsed as schema text.
 */
#include "config.h"

#include <tw-sensor.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char path[64], error[512], text[128];
  TwSensorReader *reader;
  TwSensorSchema *schema;
  char *string;
  int fd;

  string = malloc (size + 1);
  if (!string)
    return 0;
  memcpy (string, data, size);
  string[size] = '\0';
  schema = tw_sensor_schema_parse (string, error, sizeof error);
  if (schema)
    {
      unsigned char payload[256] = { 0 };

      for (size_t i = 0; i < tw_sensor_schema_get_n_fields (schema); i++)
        if (tw_sensor_schema_get_size (schema) <= sizeof payload)
          tw_sensor_field_format (tw_sensor_schema_get_field (schema, i), payload, text, sizeof text);
      tw_sensor_schema_free (schema);
    }
  free (string);

  fd = memfd_create ("fuzz-sensor", MFD_CLOEXEC);
  if (fd < 0)
    return 0;
  if (write (fd, data, size) != (ssize_t) size)
    {
      close (fd);
      return 0;
    }
  snprintf (path, sizeof path, "/proc/self/fd/%d", fd);
  reader = tw_sensor_reader_open (path, error, sizeof error);
  if (reader)
    {
      TwSensorElement element;
      TwSensorInfo info;
      uint64_t committed, first;
      unsigned char batch[4 * (8 + 65536 + 8)];

      tw_sensor_reader_get_info (reader, &info);
      tw_sensor_reader_get_committed (reader, &committed);
      tw_sensor_reader_seek_start (reader);
      for (int i = 0; i < 64 && tw_sensor_reader_next (reader, &element) > 0; i++)
        {
          const TwSensorSchema *s = tw_sensor_reader_get_schema (reader);

          for (size_t f = 0; f < tw_sensor_schema_get_n_fields (s); f++)
            tw_sensor_field_format (tw_sensor_schema_get_field (s, f), element.payload, text, sizeof text);
        }
      tw_sensor_reader_seek_start (reader);
      if (info.element_size <= sizeof batch / 4)
        tw_sensor_reader_read_batch (reader, batch, 4, &first);
      tw_sensor_reader_writer_alive (reader);
      tw_sensor_reader_free (reader);
    }
  close (fd);
  return 0;
}
