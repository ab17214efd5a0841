/* bench-monitor.c: monitor drain rate, 1 M elements/s sustained, commit-to-store latency
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   bench-monitor [--seconds S] [--rate N] [--period-ms MS]
 *
 * 1. Drain: one sensor holding 1 Mi elements (u64 seq; u64 value), read from position 0
 *    by a fresh monitor into its store (poll + flush), best and median of 7; beside it
 *    the peers from the same run: the bare reader (tw_sensor_reader_read_batch) on the same
 *    sensor, and the store's own floor (the same rows pushed straight into a fresh TwTrace).
 * 2. Sustained: a writer thread at N elements/s (default 1 M/s, in bursts of 100 every
 *    100 µs), the sensor sized by the JCS functions (tw_sensor_new_full with capacity 0:
 *    E(T_M + d) for T = 1e9/N ns, D = 0, τ = 100 µs, T_M = d = the monitor period), the
 *    monitor polling every period with clock_nanosleep(TIMER_ABSTIME); missed must be 0.
 * 3. Commit-to-store latency: for every row, the time from its commit timestamp to the
 *    end of the poll that published it in the store (p50, p99, max); includes the poll
 *    period and the reorder window (1 ms here).
 * 4. Resident memory during 2.: RssAnon and RssFile of the process every 10 s, and how
 *    much each grows per hour from the first sample to the last (past the memory budget,
 *    TRACEWB_MEMORY_BUDGET, the live store's chunks are in a file of the cache folder:
 *    tw_trace_set_spills()).
 * CPU time is printed beside wall time: the machine is shared.
 */
#include "config.h"

#include <tw-evaluators.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include <glib/gstdio.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DRAIN_N (1u << 20)

static double
cpu_seconds (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static int
compare_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static void
bench_drain (const char *dir)
{
  TwSensor *sensor = tw_sensor_new ("bench", "drain", "u64 seq; u64 value", DRAIN_N, TW_SENSOR_UNLINK_ON_FREE);
  double monitor_rates[7], reader_rates[7], store_rates[7], monitor_cpu = 0, reader_cpu = 0, store_cpu = 0;
  double monitor_cpu_runs[7];
  char error[256];

  if (sensor == NULL)
    {
      perror ("bench-monitor: sensor");
      exit (1);
    }
  for (guint64 i = 0; i < DRAIN_N; i++)
    {
      guint64 *e = tw_sensor_write (sensor);
      e[0] = i;
      e[1] = i * 3;
      tw_sensor_commit (sensor, e);
    }

  for (int r = 0; r < 7; r++)
    {
      g_autoptr (TwMonitor) monitor = tw_monitor_new (dir);
      TwSensorReader *reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), error, sizeof error);
      TwSensorInfo info;
      void *buffer;
      guint64 t0, t1, got = 0;
      double c0;

      tw_monitor_set_from_start (monitor, TRUE);
      tw_monitor_set_reorder_window (monitor, 0);
      tw_monitor_scan (monitor, NULL);
      c0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
      t0 = tw_live_monotonic_ns ();
      tw_monitor_poll (monitor);
      tw_monitor_flush (monitor);
      t1 = tw_live_monotonic_ns ();
      monitor_cpu_runs[r] = cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - c0;
      monitor_cpu += monitor_cpu_runs[r];
      if (tw_trace_get_n_events (tw_monitor_get_trace (monitor)) != DRAIN_N)
        {
          fprintf (stderr, "bench-monitor: drained %" G_GUINT64_FORMAT " of %u\n",
                   tw_trace_get_n_events (tw_monitor_get_trace (monitor)), DRAIN_N);
          exit (1);
        }
      monitor_rates[r] = DRAIN_N / ((t1 - t0) / 1e9);

      tw_sensor_reader_get_info (reader, &info);
      tw_sensor_reader_seek_start (reader);
      buffer = g_malloc (4096 * info.element_size);
      c0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
      t0 = tw_live_monotonic_ns ();
      for (int n; (n = tw_sensor_reader_read_batch (reader, buffer, 4096, NULL)) > 0;)
        got += (guint64) n;
      t1 = tw_live_monotonic_ns ();
      reader_cpu += cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - c0;
      reader_rates[r] = got / ((t1 - t0) / 1e9);
      g_free (buffer);
      tw_sensor_reader_free (reader);

      /* The store's own floor: the same rows appended straight into a fresh TwTrace. */
      {
        g_autoptr (TwTrace) trace = tw_trace_new ();
        static const TwFieldSpec fields[] = { { "seq", TW_FIELD_U64, 0 }, { "value", TW_FIELD_U64, 0 } };
        guint16 type = tw_trace_add_event_type (trace, "bench@drain", "sensor", TW_EVENT_KIND_SENSOR,
                                                fields, 2, NULL);
        TwEventChunk *chunk;
        guint64 payload[2];

        c0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
        t0 = tw_live_monotonic_ns ();
        chunk = tw_trace_begin_append (trace);
        for (guint64 i = 0; i < DRAIN_N; i++)
          {
            if (chunk->n == TW_CHUNK_SIZE)
              {
                tw_trace_end_append (trace);
                chunk = tw_trace_begin_append (trace);
              }
            payload[0] = i;
            payload[1] = i * 3;
            tw_event_chunk_push (chunk, t0 + i, TW_CPU_NONE, type, 0, 0, (const guint8 *) payload, 16);
          }
        tw_trace_end_append (trace);
        t1 = tw_live_monotonic_ns ();
        store_cpu += cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - c0;
        store_rates[r] = DRAIN_N / ((t1 - t0) / 1e9);
      }
    }
  qsort (monitor_rates, 7, sizeof (double), compare_double);
  qsort (reader_rates, 7, sizeof (double), compare_double);
  qsort (store_rates, 7, sizeof (double), compare_double);
  qsort (monitor_cpu_runs, 7, sizeof (double), compare_double);
  printf ("drain, 1 Mi elements of 16 B into the store (7 runs; wall-clock rates, and thread CPU time,"
          " which is what one core needs on a shared machine):\n"
          "  monitor (read + merge + store)  median %6.1f M/s, best %6.1f M/s, CPU %.4f s per run = %.1f M/s CPU"
          " (target ≥ 50 M/s)\n"
          "  peer: bare reader read_batch    median %6.1f M/s, best %6.1f M/s, CPU %.4f s per run = %.1f M/s CPU"
          " (a fresh reader: its first pass maps the sensor's pages)\n"
          "  floor: rows pushed into a fresh store only  median %6.1f M/s, best %6.1f M/s, CPU %.4f s per run"
          " = %.1f M/s CPU\n",
          monitor_rates[3] / 1e6, monitor_rates[6] / 1e6, monitor_cpu / 7, DRAIN_N * 7 / monitor_cpu / 1e6,
          reader_rates[3] / 1e6, reader_rates[6] / 1e6, reader_cpu / 7, DRAIN_N * 7 / reader_cpu / 1e6,
          store_rates[3] / 1e6, store_rates[6] / 1e6, store_cpu / 7, DRAIN_N * 7 / store_cpu / 1e6);
  /* The mean above includes the first run, which also maps the store's fresh memory; the
   * median run is the steady state of a monitor that has drained before. */
  printf ("  monitor CPU per run: median %.4f s = %.1f M/s CPU, first-run-inclusive mean above, range %.4f–%.4f s\n",
          monitor_cpu_runs[3], DRAIN_N / monitor_cpu_runs[3] / 1e6, monitor_cpu_runs[0], monitor_cpu_runs[6]);
  tw_sensor_free (sensor);
}

typedef struct {
  TwSensor *sensor;
  double    rate;
  double    seconds;
  guint64   written;
  double    cpu;
  guint64   max_lag_ns;      /* how far behind its schedule the writer woke */
  guint64   lagging_bursts;  /* bursts released more than τ late: the stream broke its declaration */
  gboolean  fifo;
} Writer;

static gpointer
run_writer (gpointer data)
{
  Writer *w = data;
  const guint burst = 100;
  guint64 interval = (guint64) llround (burst * 1e9 / w->rate);
  guint64 start = tw_live_monotonic_ns (), end = start + (guint64) (w->seconds * 1e9), next = start;
  double c0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
  struct sched_param param = { .sched_priority = 41 };

  w->fifo = pthread_setschedparam (pthread_self (), SCHED_FIFO, &param) == 0;
  while (next < end)
    {
      struct timespec ts = { (time_t) (next / 1000000000u), (long) (next % 1000000000u) };
      guint64 lag;

      clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
      lag = tw_live_monotonic_ns () - next;
      w->max_lag_ns = MAX (w->max_lag_ns, lag);
      w->lagging_bursts += lag > 100000;
      for (guint i = 0; i < burst; i++)
        {
          guint64 *e = tw_sensor_write (w->sensor);
          e[0] = w->written++;
          e[1] = 0;
          tw_sensor_commit (w->sensor, e);
        }
      next += interval;
    }
  w->cpu = cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - c0;
  return NULL;
}

/* RssAnon and RssFile of the process, in bytes (/proc/self/status). */
static void
sample_rss (guint64 *anon,
            guint64 *file)
{
  g_autofree char *status = NULL;
  const char *at;

  *anon = *file = 0;
  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return;
  if ((at = strstr (status, "RssAnon:")))
    *anon = g_ascii_strtoull (at + 8, NULL, 10) << 10;
  if ((at = strstr (status, "RssFile:")))
    *file = g_ascii_strtoull (at + 8, NULL, 10) << 10;
}

typedef struct {
  guint64 start_ns, next_ns;
  guint64 first_anon, first_file, first_ns;
  guint64 last_anon, last_file, last_ns;
  guint   n;
} RssLog;

/* A sample every 10 s of the sustained run, printed as it is taken; RssAnon less
 * @own_bytes, the benchmark's own samples. */
static void
rss_log_tick (RssLog  *log,
              guint64  now,
              guint64  n_events,
              gsize    own_bytes,
              gboolean last)
{
  guint64 anon, file;

  if (!last && now < log->next_ns)
    return;
  log->next_ns = now + 10 * G_GUINT64_CONSTANT (1000000000);
  sample_rss (&anon, &file);
  /* the benchmark's own latency samples are not the store's */
  anon -= MIN (anon, own_bytes);
  printf ("  t %5.1f s  %11" G_GUINT64_FORMAT " rows  RssAnon %7.1f MiB  RssFile %7.1f MiB\n",
          (now - log->start_ns) / 1e9, n_events, anon / 1048576.0, file / 1048576.0);
  fflush (stdout);
  if (log->n++ == 0)
    {
      log->first_anon = anon;
      log->first_file = file;
      log->first_ns = now;
    }
  log->last_anon = anon;
  log->last_file = file;
  log->last_ns = now;
}

static void
rss_log_report (const RssLog *log)
{
  double hours = (log->last_ns - log->first_ns) / 3.6e12;

  if (log->n < 2 || hours <= 0)
    return;
  printf ("resident growth per hour at this rate (first to last sample): RssAnon %+.0f MiB/h,"
          " RssFile %+.0f MiB/h\n",
          ((double) log->last_anon - (double) log->first_anon) / 1048576.0 / hours,
          ((double) log->last_file - (double) log->first_file) / 1048576.0 / hours);
}

static void
bench_sustained (const char *dir,
                 double      rate,
                 double      seconds,
                 double      period_ms)
{
  gint64 T = llround (1e9 / rate), T_M = llround (period_ms * 1e6);
  TwSensorParams params = { (double) T, 0, 100e3, (double) T_M, (double) T_M, 0 };
  TwJcsStream stream = { T, 0, 100000 };
  TwJcsMonitor jm = { T_M, T_M };
  TwJcs jcs;
  g_autoptr (GError) error = NULL;
  TwSensor *sensor = tw_sensor_new_full ("bench", "sustained", "u64 seq; u64 value", 0, 0, &params);
  g_autoptr (TwMonitor) monitor = tw_monitor_new (dir);
  g_autoptr (GArray) latencies = g_array_new (FALSE, FALSE, sizeof (guint64));
  Writer writer = { sensor, rate, seconds, 0, 0, 0, 0, FALSE };
  GThread *thread;
  TwTrace *trace;
  RssLog rss = { 0 };
  TwMonitorSourceInfo info = { 0 };
  guint64 next_row = 0, next, polls = 0, late_polls = 0;
  gboolean fifo;
  double c0;

  if (sensor == NULL || !tw_jcs_init (&jcs, &stream, &jm, &error))
    {
      fprintf (stderr, "bench-monitor: %s\n", error ? error->message : "cannot create the sensor");
      exit (1);
    }
  tw_monitor_set_from_start (monitor, TRUE);
  tw_monitor_set_reorder_window (monitor, 1000 * 1000);
  tw_monitor_scan (monitor, NULL);
  trace = tw_monitor_get_trace (monitor);

  /* The JCS bound presumes a monitor that meets its deadline d and a writer that keeps
   * its declared stream: both SCHED_FIFO when permitted (writer above the monitor). */
  thread = g_thread_new ("writer", run_writer, &writer);
  {
    struct sched_param param = { .sched_priority = 40 };
    fifo = pthread_setschedparam (pthread_self (), SCHED_FIFO, &param) == 0;
  }
  c0 = cpu_seconds (CLOCK_THREAD_CPUTIME_ID);
  next = tw_live_monotonic_ns ();
  rss.start_ns = rss.next_ns = next;
  for (;;)
    {
      struct timespec ts;
      guint64 n, now;
      gboolean done = writer.cpu > 0;

      next += (guint64) T_M;
      ts = (struct timespec) { (time_t) (next / 1000000000u), (long) (next % 1000000000u) };
      clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
      if (tw_live_monotonic_ns () > next + (guint64) T_M)
        late_polls++;
      if (done)
        tw_monitor_flush (monitor);
      else
        tw_monitor_poll (monitor);
      polls++;
      now = tw_live_monotonic_ns ();
      n = tw_trace_get_n_events (trace);
      for (guint64 i = next_row; i < n; i += 97)   /* a sample of every 97th row */
        {
          TwEvent event;
          guint64 latency;

          tw_trace_get_event (trace, i, &event);
          if (event.type != tw_trace_lookup_event_type (trace, "bench@sustained"))
            continue;
          latency = now - event.time;
          g_array_append_val (latencies, latency);
        }
      next_row = n;
      rss_log_tick (&rss, now, n, latencies->len * sizeof (guint64), done);
      if (done)
        break;
    }
  g_thread_join (thread);
  for (guint i = 0; i < tw_monitor_get_n_sources (monitor); i++)
    if (tw_monitor_get_source_info (monitor, i, &info) && g_strcmp0 (info.name, "bench@sustained") == 0)
      break;

  g_array_sort (latencies, compare_u64);
  printf ("sustained %.2f M elements/s for %.1f s, buffer sized by JCS (T %" G_GINT64_FORMAT " ns, D 0, τ 100 µs,"
          " T_M = d = %.1f ms):\n"
          "  sensor capacity %zu elements (library E(T_M + d)); evaluators E(l_min) = %" G_GUINT64_FORMAT "\n"
          "  written %" G_GUINT64_FORMAT ", received %" G_GUINT64_FORMAT ", missed %" G_GUINT64_FORMAT
          ", inconsistent %" G_GUINT64_FORMAT "\n"
          "  polls %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " woke more than one period late), monitor %s;"
          " monitor CPU %.3f s, writer CPU %.3f s\n",
          rate / 1e6, seconds, T, period_ms, tw_sensor_get_capacity (sensor),
          tw_jcs_buffer_size (&jcs, jcs.l_min),
          writer.written, info.counts.received, info.counts.missed, info.counts.inconsistent,
          polls, late_polls, fifo ? "SCHED_FIFO" : "SCHED_OTHER", cpu_seconds (CLOCK_THREAD_CPUTIME_ID) - c0, writer.cpu);
  printf ("  writer %s, woke up to %.1f µs behind its schedule; %" G_GUINT64_FORMAT
          " bursts more than τ = 100 µs late (the stream then exceeds its declaration)\n",
          writer.fifo ? "SCHED_FIFO" : "SCHED_OTHER", writer.max_lag_ns / 1e3, writer.lagging_bursts);
  if (latencies->len > 0)
    printf ("commit-to-store latency (poll period %.1f ms + window 1 ms): p50 %.2f ms, p99 %.2f ms, max %.2f ms"
            " (%u samples)\n", period_ms,
            g_array_index (latencies, guint64, latencies->len / 2) / 1e6,
            g_array_index (latencies, guint64, (guint) (latencies->len * 0.99)) / 1e6,
            g_array_index (latencies, guint64, latencies->len - 1) / 1e6, latencies->len);
  rss_log_report (&rss);
  tw_sensor_free (sensor);
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *parent = g_dir_make_tmp ("bench-monitor-XXXXXX", &error);
  g_autofree char *dir = NULL;
  double seconds = 3, rate = 1e6, period_ms = 10;

  for (int i = 1; i + 1 < argc; i += 2)
    {
      if (g_str_equal (argv[i], "--seconds"))
        seconds = g_ascii_strtod (argv[i + 1], NULL);
      else if (g_str_equal (argv[i], "--rate"))
        rate = g_ascii_strtod (argv[i + 1], NULL);
      else if (g_str_equal (argv[i], "--period-ms"))
        period_ms = g_ascii_strtod (argv[i + 1], NULL);
    }
  if (parent == NULL || !(seconds > 0) || !(rate >= 1000) || !(period_ms > 0))
    {
      fprintf (stderr, "usage: bench-monitor [--seconds S] [--rate N] [--period-ms MS]\n");
      return 2;
    }
  dir = g_build_filename (parent, "sensors", NULL);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);

  bench_drain (dir);
  bench_sustained (dir, rate, seconds, period_ms);

  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name (d)))
      {
        g_autofree char *file = g_build_filename (dir, name, NULL);
        g_remove (file);
      }
    g_rmdir (dir);
    g_rmdir (parent);
  }
  return 0;
}
