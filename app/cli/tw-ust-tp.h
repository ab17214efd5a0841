/* tw-ust-tp.h: the LTTng-UST tracepoints of `tracewb-cli monitor --lttng` (provider `tracewb`)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Read by the workbench's CTF decoding (ingest/tw-lttng-sensor-decoder.c): change a
 * field here and there together. Included only by tw-ust-module.c.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER tracewb

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./tw-ust-tp.h"

#if !defined(TW_UST_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define TW_UST_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT (tracewb, sensor_schema,
  LTTNG_UST_TP_ARGS (uint32_t, monitor, uint32_t, sensor, int64_t, pid, const char *, task,
                     const char *, sensor_name, const char *, schema, uint32_t, element_size,
                     uint32_t, payload_size, const double *, jcs),
  LTTNG_UST_TP_FIELDS (
    lttng_ust_field_integer (uint32_t, monitor, monitor)
    lttng_ust_field_integer (uint32_t, sensor, sensor)
    lttng_ust_field_integer (int64_t, pid, pid)
    lttng_ust_field_string (task, task)
    lttng_ust_field_string (sensor_name, sensor_name)
    lttng_ust_field_string (schema, schema)
    lttng_ust_field_integer (uint32_t, element_size, element_size)
    lttng_ust_field_integer (uint32_t, payload_size, payload_size)
    /* payloads are the target's memory: the workbench converts them when it differs */
    lttng_ust_field_integer (uint8_t, big_endian, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)
    /* the jitter-constrained stream the sensor declared (tw_sensor_new_full), ns, all 0
     * when none: T, D, τ, then the monitor's T_M and d. After every older field, so a
     * reader of older recordings finds them absent and the sensor undeclared */
    lttng_ust_field_float (double, jcs_period_ns, jcs[0])
    lttng_ust_field_float (double, jcs_min_distance_ns, jcs[1])
    lttng_ust_field_float (double, jcs_earliness_ns, jcs[2])
    lttng_ust_field_float (double, jcs_monitor_period_ns, jcs[3])
    lttng_ust_field_float (double, jcs_deadline_ns, jcs[4])
  )
)

LTTNG_UST_TRACEPOINT_EVENT (tracewb, sensor_element,
  LTTNG_UST_TP_ARGS (uint32_t, monitor, uint32_t, sensor, uint64_t, position, uint64_t, missed,
                     uint64_t, timestamp, const uint8_t *, payload, uint16_t, payload_size),
  LTTNG_UST_TP_FIELDS (
    lttng_ust_field_integer (uint32_t, monitor, monitor)
    lttng_ust_field_integer (uint32_t, sensor, sensor)
    lttng_ust_field_integer (uint64_t, position, position)
    lttng_ust_field_integer (uint64_t, missed, missed)
    lttng_ust_field_integer (uint64_t, timestamp, timestamp)
    lttng_ust_field_sequence (uint8_t, payload, payload, uint16_t, payload_size)
  )
)

LTTNG_UST_TRACEPOINT_EVENT (tracewb, sensor_counts,
  LTTNG_UST_TP_ARGS (uint32_t, monitor, uint32_t, sensor, uint64_t, received, uint64_t, missed,
                     uint64_t, inconsistent, uint64_t, nonmonotonic),
  LTTNG_UST_TP_FIELDS (
    lttng_ust_field_integer (uint32_t, monitor, monitor)
    lttng_ust_field_integer (uint32_t, sensor, sensor)
    lttng_ust_field_integer (uint64_t, received, received)
    lttng_ust_field_integer (uint64_t, missed, missed)
    lttng_ust_field_integer (uint64_t, inconsistent, inconsistent)
    lttng_ust_field_integer (uint64_t, nonmonotonic, nonmonotonic)
  )
)

LTTNG_UST_TRACEPOINT_EVENT (tracewb, measurement,
  LTTNG_UST_TP_ARGS (uint32_t, monitor, const char *, evaluation, const char *, task_id,
                     const char *, task_name, int64_t, task_pid, uint64_t, begin_ns,
                     uint64_t, end_ns, uint64_t, length_ns, uint32_t, intermediate_events),
  LTTNG_UST_TP_FIELDS (
    lttng_ust_field_integer (uint32_t, monitor, monitor)
    lttng_ust_field_string (evaluation, evaluation)
    lttng_ust_field_string (task_id, task_id)
    lttng_ust_field_string (task_name, task_name)
    lttng_ust_field_integer (int64_t, task_pid, task_pid)
    lttng_ust_field_integer (uint64_t, begin_ns, begin_ns)
    lttng_ust_field_integer (uint64_t, end_ns, end_ns)
    lttng_ust_field_integer (uint64_t, length_ns, length_ns)
    lttng_ust_field_integer (uint32_t, intermediate_events, intermediate_events)
  )
)

LTTNG_UST_TRACEPOINT_EVENT (tracewb, histogram,
  LTTNG_UST_TP_ARGS (uint32_t, monitor, const char *, evaluation, uint64_t, count, double, min,
                     double, max, double, mean, double, low, double, width,
                     const uint64_t *, bins, uint32_t, n_bins),
  LTTNG_UST_TP_FIELDS (
    lttng_ust_field_integer (uint32_t, monitor, monitor)
    lttng_ust_field_string (evaluation, evaluation)
    lttng_ust_field_integer (uint64_t, count, count)
    lttng_ust_field_float (double, min, min)
    lttng_ust_field_float (double, max, max)
    lttng_ust_field_float (double, mean, mean)
    lttng_ust_field_float (double, low, low)
    lttng_ust_field_float (double, width, width)
    lttng_ust_field_sequence (uint64_t, bins, bins, uint32_t, n_bins)
  )
)

#endif /* TW_UST_TP_H */

#include <lttng/tracepoint-event.h>
