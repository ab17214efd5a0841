/* tw-sensor-clock.c: CLOCK_MONOTONIC nanoseconds at the cost of one rdtsc
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Timestamps. Elements carry CLOCK_MONOTONIC nanoseconds so that a monitor can merge
 * them with the kernel's live trace (ftrace trace_clock=mono) without conversion. GRTMon
 * stamps with rdtsc; clock_gettime through the vDSO costs ~25 ns here, more than the
 * whole 15 ns budget of a simple write+commit, while rdtsc costs ~10 ns. So, when the CPU
 * has an invariant TSC (CPUID 0x80000007 EDX bit 8) and TRACEWB_SENSOR_CLOCK is not
 * "monotonic", the process maps TSC to CLOCK_MONOTONIC linearly and re-anchors the map
 * every ~50 ms of cycles from inside commit: the re-anchor reads CLOCK_MONOTONIC,
 * measures the TSC rate over the clock's whole life, and slews the slope so that the
 * map meets CLOCK_MONOTONIC again at the next anchor. The map stays continuous, so a
 * thread's timestamps never run backwards, and they stay within a few microseconds of
 * CLOCK_MONOTONIC (the TSC/NTP drift accumulated over one 50 ms period). Without an
 * invariant TSC every timestamp is a plain clock_gettime (CLOCK_MONOTONIC).
 *
 * One map serves every sensor of the process. Each sensor used to keep its own, and two
 * maps anchored at different times disagree by those few microseconds: a job that logs
 * its start on one sensor and its end on another, microseconds later, had its end
 * stamped before its start, and a user metric lost the measurement.
 */
#include "config.h"

#include "tw-sensor-private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if TW_SENSOR_HAVE_TSC
# include <cpuid.h>
#endif

#define REANCHOR_NS  50000000u
#define CALIBRATE_NS 2000000u
#define MAX_FORWARD_SLEW_NS 1000000u

static pthread_once_t process_clock_once = PTHREAD_ONCE_INIT;
static TwSensorClock process_clock;

uint64_t
tw_sensor_monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

uint64_t
tw_sensor_realtime_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_REALTIME, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* The TSC value in the middle of the narrowest of a few brackets around clock_gettime. */
static void
read_clock_pair (uint64_t *tsc, uint64_t *ns)
{
  uint64_t best_width = UINT64_MAX;

  for (int i = 0; i < 5; i++)
    {
      uint64_t before = tw_sensor_rdtsc ();
      uint64_t now = tw_sensor_monotonic_ns ();
      uint64_t after = tw_sensor_rdtsc ();

      if (after - before < best_width)
        {
          best_width = after - before;
          *tsc = before + (after - before) / 2;
          *ns = now;
        }
    }
}

static uint64_t
mult_from_span (uint64_t span_ns, uint64_t span_tsc)
{
  __extension__ unsigned __int128 scaled = (unsigned __int128) span_ns << 32;

  return span_tsc ? (uint64_t) (scaled / span_tsc) : 0;
}

/* A fork while another thread re-anchored leaves the child without that thread: the
 * child may re-anchor. */
static void
process_clock_after_fork (void)
{
  atomic_store_explicit (&process_clock.reanchoring, 0, memory_order_relaxed);
}

/* Calibrates the TSC against CLOCK_MONOTONIC over CALIBRATE_NS and anchors the first
 * map; leaves use_tsc false where the TSC is not worth trusting. */
static void
process_clock_init (void)
{
  TwSensorClock *clock = &process_clock;
  const char *env = getenv ("TRACEWB_SENSOR_CLOCK");
  uint64_t tsc0, ns0, tsc1, ns1, mult;

  if (env && strcmp (env, "monotonic") == 0)
    return;
#if TW_SENSOR_HAVE_TSC
  {
    unsigned eax, ebx, ecx, edx;

    if (!__get_cpuid (0x80000000, &eax, &ebx, &ecx, &edx) || eax < 0x80000007)
      return;
    __get_cpuid (0x80000007, &eax, &ebx, &ecx, &edx);
    if (!(edx & (1u << 8)))
      return;
  }
  read_clock_pair (&tsc0, &ns0);
  do
    read_clock_pair (&tsc1, &ns1);
  while (ns1 - ns0 < CALIBRATE_NS);
  /* A TSC slower than 1 cycle per 16 ns or not advancing is not worth trusting. */
  if (tsc1 <= tsc0)
    return;
  mult = mult_from_span (ns1 - ns0, tsc1 - tsc0);
  if (mult == 0 || mult >= (UINT64_C (16) << 32))
    return;
  clock->first_tsc = tsc1;
  clock->first_ns = ns1;
  clock->maps[0].anchor_tsc = tsc1;
  clock->maps[0].anchor_ns = ns1;
  clock->maps[0].mult = mult;
  clock->reanchor_cycles = (uint64_t) (((__extension__ (unsigned __int128) REANCHOR_NS) << 32) / mult);
  atomic_store_explicit (&clock->generation, 0, memory_order_release);
  clock->use_tsc = true;
  pthread_atfork (NULL, NULL, process_clock_after_fork);
#else
  (void) clock; (void) tsc0; (void) ns0; (void) tsc1; (void) ns1; (void) mult;
#endif
}

/**
 * tw_sensor_clock_get:
 *
 * Returns: the process's clock, calibrated on first use
 */
TwSensorClock *
tw_sensor_clock_get (void)
{
  pthread_once (&process_clock_once, process_clock_init);
  return &process_clock;
}

/* Called when the current map is older than the re-anchor period. One thread installs
 * the next map; concurrent callers keep using the current one. */
uint64_t
tw_sensor_clock_now_slow (TwSensorClock *clock, uint64_t tsc)
{
  uint64_t gen = atomic_load_explicit (&clock->generation, memory_order_acquire);
  TwSensorClockMap current = clock->maps[gen % TW_SENSOR_CLOCK_RING];
  TwSensorClockMap next;
  uint64_t now_tsc, now_ns, predicted, rate;

  if (atomic_exchange_explicit (&clock->reanchoring, 1, memory_order_acquire))
    return tw_sensor_clock_map_apply (&current, tsc);

  read_clock_pair (&now_tsc, &now_ns);
  predicted = tw_sensor_clock_map_apply (&current, now_tsc);
  rate = mult_from_span (now_ns - clock->first_ns, now_tsc - clock->first_tsc);
  if (rate == 0)
    rate = current.mult;

  next.anchor_tsc = now_tsc;
  if (now_ns > predicted + MAX_FORWARD_SLEW_NS)
    {
      /* Long idle: jump forward rather than slew for ages. */
      next.anchor_ns = now_ns;
      next.mult = rate;
    }
  else
    {
      __extension__ unsigned __int128 period_cycles =
        (((unsigned __int128) REANCHOR_NS) << 32) / rate;
      uint64_t target = now_ns + REANCHOR_NS;

      next.anchor_ns = predicted;
      next.mult = period_cycles
        ? (uint64_t) ((((unsigned __int128) (target - predicted)) << 32) / period_cycles)
        : rate;
      if (next.mult < rate / 2)
        next.mult = rate / 2;
      if (next.mult > rate * 2)
        next.mult = rate * 2;
    }

  clock->maps[(gen + 1) % TW_SENSOR_CLOCK_RING] = next;
  atomic_store_explicit (&clock->generation, gen + 1, memory_order_release);
  atomic_store_explicit (&clock->reanchoring, 0, memory_order_release);
  return tw_sensor_clock_map_apply (&next, tsc);
}
