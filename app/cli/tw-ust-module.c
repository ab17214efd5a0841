/* tw-ust-module.c: tracewb-ust.so, the LTTng-UST tracepoints of `tracewb-cli monitor --lttng`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The tracepoint provider itself (tw-ust-tp.h) and a table of functions that fire its
 * tracepoints (tw-ust-emitter.h). tracewb-cli loads it with GModule only for --lttng,
 * so that liblttng-ust (and its registration with a session daemon) is loaded only then.
 * Plain C, libc and liblttng-ust only.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "tw-ust-tp.h"

#include <string.h>

#include "tw-ust-emitter.h"

#define TW_UST_EXPORT __attribute__ ((visibility ("default")))

static void
emit_sensor_schema (uint32_t monitor, uint32_t sensor, int64_t pid, const char *task,
                    const char *sensor_name, const char *schema, uint32_t element_size,
                    uint32_t payload_size, const double jcs[5])
{
  lttng_ust_tracepoint (tracewb, sensor_schema, monitor, sensor, pid, task, sensor_name, schema,
                        element_size, payload_size, jcs);
}

static void
emit_sensor_elements (uint32_t monitor, uint32_t sensor, uint64_t first_position,
                      const uint8_t *elements, unsigned n, size_t stride, uint16_t payload_size,
                      uint64_t missed)
{
  for (unsigned i = 0; i < n; i++)
    {
      const uint8_t *element = elements + (size_t) i * stride;
      uint64_t timestamp;

      memcpy (&timestamp, element, sizeof timestamp);
      lttng_ust_tracepoint (tracewb, sensor_element, monitor, sensor, first_position + i, missed,
                            timestamp, element + 8, payload_size);
    }
}

static void
emit_sensor_counts (uint32_t monitor, uint32_t sensor, uint64_t received, uint64_t missed,
                    uint64_t inconsistent, uint64_t nonmonotonic)
{
  lttng_ust_tracepoint (tracewb, sensor_counts, monitor, sensor, received, missed, inconsistent,
                        nonmonotonic);
}

static void
emit_measurement (uint32_t monitor, const char *evaluation, const char *task_id,
                  const char *task_name, int64_t task_pid, uint64_t begin_ns, uint64_t end_ns,
                  uint64_t length_ns, uint32_t intermediate_events)
{
  lttng_ust_tracepoint (tracewb, measurement, monitor, evaluation, task_id, task_name, task_pid,
                        begin_ns, end_ns, length_ns, intermediate_events);
}

static void
emit_histogram (uint32_t monitor, const char *evaluation, uint64_t count, double min, double max,
                double mean, double low, double width, const uint64_t *bins, uint32_t n_bins)
{
  lttng_ust_tracepoint (tracewb, histogram, monitor, evaluation, count, min, max, mean, low,
                        width, bins, n_bins);
}

static const TwUstEmitter emitter = {
  .version = TW_UST_EMITTER_VERSION,
  .sensor_schema = emit_sensor_schema,
  .sensor_elements = emit_sensor_elements,
  .sensor_counts = emit_sensor_counts,
  .measurement = emit_measurement,
  .histogram = emit_histogram,
};

TW_UST_EXPORT const TwUstEmitter *tw_ust_emitter_get (void);

const TwUstEmitter *
tw_ust_emitter_get (void)
{
  return &emitter;
}
