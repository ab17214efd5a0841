/* tw-ust-emitter.h: what the LTTng-UST module of tracewb-cli offers (tracewb-ust.so)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb-cli monitor --lttng` emits sensor elements, measurements and histogram
 * snapshots as LTTng-UST events (provider `tracewb`, tw-ust-tp.h). The tracepoints live
 * in a module of their own, loaded only when asked for: linking liblttng-ust into
 * tracewb-cli would make every run of it register with a session daemon, and machines
 * without liblttng-ust would not run tracewb-cli at all. The module depends on nothing
 * but liblttng-ust and libc; this header is all the two sides share.
 *
 * Every event carries @monitor, the emitting monitor's process id, so that the events
 * of several monitors of one target (per-user buffers mix them) stay apart; @sensor is
 * the monitor's own index of a sensor, @evaluation an evaluation's name. A viewer that
 * attaches late must still decode: schemas are sent again every second.
 * Times are CLOCK_MONOTONIC ns, the sensors' clock, which is also LTTng-UST's.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#define TW_UST_EMITTER_VERSION 2
#define TW_UST_EMITTER_SYMBOL  "tw_ust_emitter_get"
#define TW_UST_MODULE_NAME     "tracewb-ust.so"

typedef struct {
  uint32_t version;   /* TW_UST_EMITTER_VERSION */
  /* once per sensor when the monitor attaches it; @jcs: the stream it declared, ns
   * (T, D, τ, T_M, d; all 0: none) */
  void (*sensor_schema)   (uint32_t monitor, uint32_t sensor, int64_t pid, const char *task,
                           const char *sensor_name, const char *schema, uint32_t element_size,
                           uint32_t payload_size, const double jcs[5]);
  /* @n consecutive elements of @stride bytes (u64 timestamp, payload), one event each */
  void (*sensor_elements) (uint32_t monitor, uint32_t sensor, uint64_t first_position,
                           const uint8_t *elements, unsigned n, size_t stride,
                           uint16_t payload_size, uint64_t missed);
  /* the sensor's counts at the monitor (every second, and at the end) */
  void (*sensor_counts)   (uint32_t monitor, uint32_t sensor, uint64_t received, uint64_t missed,
                           uint64_t inconsistent, uint64_t nonmonotonic);
  /* one measurement: the measured task (`sensor:<pid>:<task>` id and name, or empty) */
  void (*measurement)     (uint32_t monitor, const char *evaluation, const char *task_id,
                           const char *task_name, int64_t task_pid, uint64_t begin_ns,
                           uint64_t end_ns, uint64_t length_ns, uint32_t intermediate_events);
  /* a snapshot of the evaluation's histogram: @n_bins counts from @low, @width apart */
  void (*histogram)       (uint32_t monitor, const char *evaluation, uint64_t count, double min,
                           double max, double mean, double low, double width,
                           const uint64_t *bins, uint32_t n_bins);
} TwUstEmitter;

typedef const TwUstEmitter *(*TwUstEmitterGetFunc) (void);
