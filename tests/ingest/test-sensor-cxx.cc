/* test-sensor-cxx.cc: the public header compiles and links as C++
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <tw-sensor.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

int
main ()
{
  char dir[] = "/tmp/tw-sensor-cxx-XXXXXX";
  if (!mkdtemp (dir))
    return 1;
  setenv ("TRACEWB_SENSOR_DIR", dir, 1);

  TwSensorParams params = {};
  params.max_writers = 4;
  TwSensor *sensor = tw_sensor_new_full ("cxx", "s", "u64 v", 8, TW_SENSOR_CONCURRENT | TW_SENSOR_UNLINK_ON_FREE,
                                         &params);
  if (!sensor)
    return 1;
  for (std::uint64_t i = 0; i < 3; i++)
    {
      auto *v = static_cast<std::uint64_t *> (tw_sensor_write (sensor));
      *v = i * 10;
      tw_sensor_commit (sensor, v);
    }
  TwSensorReader *reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), nullptr, 0);
  if (!reader)
    return 1;
  tw_sensor_reader_seek_start (reader);
  TwSensorElement element;
  std::uint64_t sum = 0;
  while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
    sum += *static_cast<const std::uint64_t *> (element.payload);
  TwSensorReaderCounts counts = tw_sensor_reader_get_counts (reader);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  rmdir (dir);
  std::printf ("received %llu sum %llu\n", (unsigned long long) counts.received, (unsigned long long) sum);
  return counts.received == 3 && sum == 30 ? 0 : 1;
}
