/* tw-sensor-private.h: the sensor file format and in-library helpers (not installed)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A sensor file, all integers little-endian (host order; monitors run on the writer's
 * machine):
 *
 *   0     TwSensorFileHeader (512 bytes of description, then three 64-byte lines holding
 *         the shared counters so that writers and readers never false-share them with
 *         the read-mostly description)
 *   ...   schema text, NUL-terminated (schema_offset, schema_size including the NUL)
 *   ...   concurrent sensors only: index array, `slots` × u64 (index_offset, 64-aligned)
 *   ...   elements, `slots` × element_size (elements_offset, 64-aligned); each element is
 *         u64 timestamp (CLOCK_MONOTONIC ns) followed by the payload
 *
 * Simple sensor: `head` is the element counter (committed elements). The element at
 * stream position p lives in slot p % slots. The writer always writes position `head`,
 * so the readable window is [max(0, head - (slots - 1)), head): one spare slot (Riegel 2005
 * §4.1.1). A reader that copied position p is consistent iff, read after the copy,
 * head - p < slots.
 *
 * Concurrent sensor (Riegel 2005 §4.1.2): `slots` is a power of two. index[p % slots] holds a
 * tagged index (p's low 40 bits << 24 | element index) for stream position p; `head` is
 * the next position to commit, `tail` the next position whose element a writer takes for
 * reuse. Positions start at `first_position` (= slots: the initial dummy elements). An
 * element at position p is intact iff, read after the copy, tail <= p.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tw-sensor.h"

#define TW_SENSOR_MAGIC            "TWSENSOR"
#define TW_SENSOR_FORMAT_VERSION   1u
#define TW_SENSOR_HEADER_SIZE      704u
#define TW_SENSOR_MAX_SLOTS        (1u << 24)
#define TW_SENSOR_TAG_BITS         40
#define TW_SENSOR_INDEX_BITS       24
#define TW_SENSOR_INDEX_MASK       ((UINT64_C (1) << TW_SENSOR_INDEX_BITS) - 1)
#define TW_SENSOR_TAG_MASK         ((UINT64_C (1) << TW_SENSOR_TAG_BITS) - 1)
#define TW_SENSOR_DEFAULT_WRITERS  64u
#define TW_SENSOR_STATE_CLOSED     1u

typedef struct {
  char     magic[8];
  uint32_t version;
  uint32_t header_size;
  uint32_t flags;                /* TW_SENSOR_CONCURRENT */
  uint32_t element_size;         /* stride, multiple of 8, >= 8 */
  uint64_t slots;
  uint64_t first_position;
  uint64_t file_size;
  uint64_t schema_offset;
  uint64_t schema_size;          /* including the NUL */
  uint64_t index_offset;         /* 0 for simple sensors */
  uint64_t elements_offset;
  int64_t  pid;
  uint64_t pid_start_time;       /* /proc/<pid>/stat field 22, 0 when unknown */
  uint64_t created_monotonic_ns;
  uint64_t created_realtime_ns;
  uint32_t clock_source;         /* 0 clock_gettime, 1 calibrated TSC */
  uint32_t max_writers;
  double   period_ns, min_distance_ns, earliness_ns, monitor_period_ns, deadline_ns;
  char     task[TW_SENSOR_NAME_MAX];
  char     sensor[TW_SENSOR_NAME_MAX];
  uint8_t  reserved[512 - 160 - 2 * TW_SENSOR_NAME_MAX];
  _Alignas (64) _Atomic uint64_t head;
  _Alignas (64) _Atomic uint64_t tail;
  _Alignas (64) _Atomic uint64_t dropped;
  _Atomic uint32_t state;
} TwSensorFileHeader;

_Static_assert (offsetof (TwSensorFileHeader, task) == 160, "header layout");
_Static_assert (offsetof (TwSensorFileHeader, head) == 512, "header layout");
_Static_assert (sizeof (TwSensorFileHeader) == TW_SENSOR_HEADER_SIZE, "header size");

/* Timestamps: see tw-sensor-clock.c. One mapping from TSC to CLOCK_MONOTONIC ns; the
 * ring lets writer threads keep using a mapping while another thread installs the next. */
typedef struct {
  uint64_t anchor_tsc;
  uint64_t anchor_ns;
  uint64_t mult;                 /* ns per cycle, 32.32 fixed point */
} TwSensorClockMap;

#define TW_SENSOR_CLOCK_RING 8

typedef struct {
  bool              use_tsc;
  uint64_t          reanchor_cycles;
  uint64_t          first_tsc, first_ns;
  _Atomic uint64_t  generation;
  _Atomic int       reanchoring;
  TwSensorClockMap  maps[TW_SENSOR_CLOCK_RING];
} TwSensorClock;

TwSensorClock *tw_sensor_clock_get   (void);
uint64_t tw_sensor_clock_now_slow  (TwSensorClock *clock, uint64_t tsc);
uint64_t tw_sensor_monotonic_ns    (void);
uint64_t tw_sensor_realtime_ns     (void);

#if defined(__x86_64__) || defined(__i386__)
# include <x86intrin.h>
# define TW_SENSOR_HAVE_TSC 1
static inline uint64_t
tw_sensor_rdtsc (void)
{
  return __rdtsc ();
}
#else
# define TW_SENSOR_HAVE_TSC 0
static inline uint64_t
tw_sensor_rdtsc (void)
{
  return 0;
}
#endif

static inline uint64_t
tw_sensor_clock_map_apply (const TwSensorClockMap *map, uint64_t tsc)
{
  int64_t delta = (int64_t) (tsc - map->anchor_tsc);

  /* Another CPU's TSC may read a hair behind the anchor: never step backwards. */
  if (delta <= 0)
    return map->anchor_ns;
  __extension__ unsigned __int128 scaled = (unsigned __int128) (uint64_t) delta * map->mult;
  return map->anchor_ns + (uint64_t) (scaled >> 32);
}

/* Lock-free: a reader only retries when the ring went all the way round under it. */
static inline uint64_t
tw_sensor_clock_now (TwSensorClock *clock)
{
  if (!clock->use_tsc)
    return tw_sensor_monotonic_ns ();

  for (;;)
    {
      uint64_t gen = atomic_load_explicit (&clock->generation, memory_order_acquire);
      const TwSensorClockMap *map = &clock->maps[gen % TW_SENSOR_CLOCK_RING];
      TwSensorClockMap copy = *map;
      uint64_t tsc = tw_sensor_rdtsc ();

      atomic_thread_fence (memory_order_acquire);
      if (atomic_load_explicit (&clock->generation, memory_order_relaxed) - gen
          >= TW_SENSOR_CLOCK_RING - 1)
        continue;
      if (tsc - copy.anchor_tsc > clock->reanchor_cycles
          && (int64_t) (tsc - copy.anchor_tsc) > 0)
        return tw_sensor_clock_now_slow (clock, tsc);
      return tw_sensor_clock_map_apply (&copy, tsc);
    }
}

/* Schema text → layout; the reader reuses the writer's parser on untrusted text. */
TwSensorReader *tw_sensor_reader_open_mapped (const char *path,
                                              bool        populate,
                                              char       *error,
                                              size_t      error_size);
bool tw_sensor_name_is_valid (const char *name);
void tw_sensor_set_error     (char *error, size_t error_size, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));
int  tw_sensor_dir_ensure    (char *buffer, size_t buffer_size);
bool tw_sensor_pid_alive     (int64_t pid, uint64_t start_time);
uint64_t tw_sensor_pid_start_time (int64_t pid);
