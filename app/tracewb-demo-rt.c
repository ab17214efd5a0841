/* tracewb-demo-rt.c: a small real-time program instrumented with sensors, for live demos
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Built like any outside program: plain C, only the public sensor API
 * (`#include <tw-sensor.h>`, `pkg-config --cflags --libs tracewb-sensor`), no GLib.
 *
 *   tracewb-demo-rt [--duration S] [--periods MS,MS,...] [--load F] [--capacity N]
 *                   [--sensor-dir DIR] [--keep]
 *
 * One periodic thread per period (default 5,10,20 ms), released with clock_nanosleep
 * (TIMER_ABSTIME) on CLOCK_MONOTONIC, SCHED_FIFO (priority by rate) when permitted,
 * else normal scheduling. Each job busy-works F × its period (default 0.2) in a few
 * steps. Sensors, in $TRACEWB_SENSOR_DIR or DIR:
 *   demo-rt-<i>@job-start  u64 job; u64 release_ns; u32 thread; u32 cpu; u64 check
 *   demo-rt-<i>@job-end    u64 job; i64 response_ns; u32 thread; u32 cpu; u64 check
 *   demo-rt@steps          (TW_SENSOR_CONCURRENT, shared by all threads)
 *                          u64 job; u32 thread; u32 step; f64 work_us; u64 check
 * job-start and job-end declare their jitter-constrained stream (T = period, D = 0,
 * τ = period) with a 10 ms monitor, so `capacity` 0 sizes them by Riegel 2005 §4.2.
 * `check` is a checksum of the other fields (tw_demo_check below), so a reader can
 * prove no torn element reached it. At exit it prints one line per sensor,
 * `committed <task>@<sensor> <n>`, the ground truth for missed counts. Without --keep
 * the sensor files are removed at exit (TW_SENSOR_UNLINK_ON_FREE). SIGINT/SIGTERM stop
 * it cleanly. The app starts it with exactly this argv (`tracewb --live-demo`).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <tw-sensor.h>

#define MAX_THREADS 16

typedef struct {
  uint64_t job;
  uint64_t release_ns;
  uint32_t thread;
  uint32_t cpu;
  uint64_t check;
} JobStart;

typedef struct {
  uint64_t job;
  int64_t  response_ns;
  uint32_t thread;
  uint32_t cpu;
  uint64_t check;
} JobEnd;

typedef struct {
  uint64_t job;
  uint32_t thread;
  uint32_t step;
  double   work_us;
  uint64_t check;
} Step;

typedef struct {
  unsigned  index;
  uint64_t  period_ns;
  double    load;
  TwSensor *start;
  TwSensor *end;
  TwSensor *steps;
  uint64_t  jobs;
  uint64_t  steps_written;
  int       policy;
} Worker;

static atomic_bool stop_requested;
static uint64_t stop_at_ns;

/* The checksum every demo element carries: a 64-bit mix of its other fields. */
static uint64_t
tw_demo_check (uint64_t a, uint64_t b, uint64_t c)
{
  uint64_t h = a * 0x9E3779B97F4A7C15u ^ (b + 0x632BE59BD9B4E019u) * 0xC2B2AE3D27D4EB4Fu ^ c;

  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9u;
  return h ^ (h >> 29);
}

static uint64_t
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
on_signal (int sig)
{
  (void) sig;
  atomic_store (&stop_requested, true);
}

static void
spin_until (uint64_t t)
{
  while (now_ns () < t)
    ;
}

static void *
run_worker (void *data)
{
  Worker *w = data;
  uint64_t release = now_ns () + w->period_ns;
  int steps = 4;

  while (!atomic_load (&stop_requested) && release < stop_at_ns)
    {
      struct timespec ts = { (time_t) (release / 1000000000u), (long) (release % 1000000000u) };
      JobStart *s;
      JobEnd *e;
      uint64_t work = (uint64_t) ((double) w->period_ns * w->load);

      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        if (atomic_load (&stop_requested))
          return NULL;

      s = tw_sensor_write (w->start);
      s->job = w->jobs;
      s->release_ns = release;
      s->thread = w->index;
      s->cpu = (uint32_t) sched_getcpu ();
      s->check = tw_demo_check (s->job, s->release_ns, (uint64_t) s->thread << 32 | s->cpu);
      tw_sensor_commit (w->start, s);

      for (int i = 0; i < steps; i++)
        {
          uint64_t t0 = now_ns ();
          Step *st;

          spin_until (t0 + work / steps);
          st = tw_sensor_write (w->steps);
          if (st == NULL)        /* more writers in flight than spares: counted as dropped */
            continue;
          st->job = w->jobs;
          st->thread = w->index;
          st->step = (uint32_t) i;
          st->work_us = (double) (now_ns () - t0) / 1e3;
          st->check = tw_demo_check (st->job, (uint64_t) st->thread << 32 | st->step,
                                     (uint64_t) (st->work_us * 1e3));
          tw_sensor_commit (w->steps, st);
          w->steps_written++;
        }

      e = tw_sensor_write (w->end);
      e->job = w->jobs;
      e->response_ns = (int64_t) (now_ns () - release);
      e->thread = w->index;
      e->cpu = (uint32_t) sched_getcpu ();
      e->check = tw_demo_check (e->job, (uint64_t) e->response_ns, (uint64_t) e->thread << 32 | e->cpu);
      tw_sensor_commit (w->end, e);

      w->jobs++;
      release += w->period_ns;
    }
  return NULL;
}

static void
usage (FILE *out)
{
  fprintf (out, "usage: tracewb-demo-rt [--duration S] [--periods MS,MS,...] [--load F]\n"
                "                       [--capacity N] [--sensor-dir DIR] [--keep]\n");
}

static TwSensor *
new_sensor (const char *task, const char *name, const char *schema, size_t capacity,
            unsigned flags, const TwSensorParams *params)
{
  TwSensor *s = tw_sensor_new_full (task, name, schema, capacity, flags, params);

  if (s == NULL)
    {
      fprintf (stderr, "tracewb-demo-rt: cannot create sensor %s@%s: %s\n", task, name, strerror (errno));
      exit (1);
    }
  return s;
}

int
main (int argc, char **argv)
{
  double duration = 10, load = 0.2, periods_ms[MAX_THREADS] = { 5, 10, 20 };
  unsigned n_threads = 3, flags_keep = 0;
  size_t capacity = 0;
  Worker workers[MAX_THREADS];
  pthread_t threads[MAX_THREADS];
  TwSensor *steps;
  struct sigaction sa;

  for (int i = 1; i < argc; i++)
    {
      const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;

      if (strcmp (arg, "--keep") == 0)
        flags_keep = 1;
      else if (strcmp (arg, "--help") == 0 || strcmp (arg, "-h") == 0)
        {
          usage (stdout);
          return 0;
        }
      else if (value == NULL)
        {
          usage (stderr);
          return 2;
        }
      else if (strcmp (arg, "--duration") == 0 && (duration = strtod (value, NULL), ++i))
        ;
      else if (strcmp (arg, "--load") == 0 && (load = strtod (value, NULL), ++i))
        ;
      else if (strcmp (arg, "--capacity") == 0 && (capacity = strtoul (value, NULL, 10), ++i))
        ;
      else if (strcmp (arg, "--sensor-dir") == 0 && ++i)
        setenv ("TRACEWB_SENSOR_DIR", value, 1);
      else if (strcmp (arg, "--periods") == 0 && ++i)
        {
          char *copy = strdup (value), *save = NULL;

          n_threads = 0;
          for (char *t = strtok_r (copy, ",", &save); t && n_threads < MAX_THREADS; t = strtok_r (NULL, ",", &save))
            periods_ms[n_threads++] = strtod (t, NULL);
          free (copy);
        }
      else
        {
          usage (stderr);
          return 2;
        }
    }
  if (!(duration > 0 && duration < 1e6) || !(load >= 0 && load < 1) || n_threads == 0)
    {
      fprintf (stderr, "tracewb-demo-rt: --duration > 0, 0 ≤ --load < 1 and at least one period\n");
      return 2;
    }
  for (unsigned i = 0; i < n_threads; i++)
    if (!(periods_ms[i] >= 0.05 && periods_ms[i] <= 10000))
      {
        fprintf (stderr, "tracewb-demo-rt: periods must be within 0.05..10000 ms\n");
        return 2;
      }

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);

  {
    unsigned flags = flags_keep ? 0 : TW_SENSOR_UNLINK_ON_FREE;

    steps = new_sensor ("demo-rt", "steps", "u64 job; u32 thread; u32 step; f64 work_us; u64 check",
                        capacity ? capacity : 4096, TW_SENSOR_CONCURRENT | flags, NULL);
    for (unsigned i = 0; i < n_threads; i++)
      {
        char task[32];
        double T = periods_ms[i] * 1e6;
        TwSensorParams params = { T, 0, T, 10e6, 10e6, 0 };

        snprintf (task, sizeof task, "demo-rt-%u", i);
        workers[i] = (Worker) { i, (uint64_t) T, load, NULL, NULL, steps, 0, 0, SCHED_OTHER };
        workers[i].start = new_sensor (task, "job-start",
                                       "u64 job; u64 release_ns; u32 thread; u32 cpu; u64 check",
                                       capacity, flags, &params);
        workers[i].end = new_sensor (task, "job-end",
                                     "u64 job; i64 response_ns; u32 thread; u32 cpu; u64 check",
                                     capacity, flags, &params);
      }
  }

  stop_at_ns = now_ns () + (uint64_t) (duration * 1e9);
  for (unsigned i = 0; i < n_threads; i++)
    {
      pthread_attr_t attr;
      struct sched_param param = { 0 };
      int ret;

      /* Rate-monotonic priorities: the shortest period gets the highest. */
      pthread_attr_init (&attr);
      pthread_attr_setinheritsched (&attr, PTHREAD_EXPLICIT_SCHED);
      pthread_attr_setschedpolicy (&attr, SCHED_FIFO);
      param.sched_priority = 50 - (int) i;
      pthread_attr_setschedparam (&attr, &param);
      ret = pthread_create (&threads[i], &attr, run_worker, &workers[i]);
      if (ret == EPERM)
        ret = pthread_create (&threads[i], NULL, run_worker, &workers[i]);
      else if (ret == 0)
        workers[i].policy = SCHED_FIFO;
      pthread_attr_destroy (&attr);
      if (ret != 0)
        {
          fprintf (stderr, "tracewb-demo-rt: cannot start a thread: %s\n", strerror (ret));
          return 1;
        }
    }
  for (unsigned i = 0; i < n_threads; i++)
    pthread_join (threads[i], NULL);

  {
    uint64_t total_steps = 0;

    for (unsigned i = 0; i < n_threads; i++)
      {
        printf ("committed demo-rt-%u@job-start %llu\n", i, (unsigned long long) workers[i].jobs);
        printf ("committed demo-rt-%u@job-end %llu\n", i, (unsigned long long) workers[i].jobs);
        total_steps += workers[i].steps_written;
        fprintf (stderr, "demo-rt-%u: period %.3f ms, %s\n", i, periods_ms[i],
                 workers[i].policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_OTHER");
        tw_sensor_free (workers[i].start);
        tw_sensor_free (workers[i].end);
      }
    printf ("committed demo-rt@steps %llu\n", (unsigned long long) total_steps);
    tw_sensor_free (steps);
  }
  return 0;
}
