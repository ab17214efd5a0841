/* bench-lttng-live.c: LTTng live through one relay: latency to the store, events/s
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts a private lttng-sessiond and lttng-relayd (tests/lib/tw-test-lttng.h), a live
 * session with the live timer given (default 100 ms), and measures:
 *
 *   latency   an event committed on the target (its LTTng timestamp, the target's
 *             CLOCK_REALTIME-based clock: same machine) until the row is in the store
 *             of a monitor polled every 5 ms; 200 events 20 ms apart. The LTTng relay
 *             sees nothing before the live timer flushes a sub-buffer, so the figure is
 *             compared with the timer: latency − timer should stay ≤ 250 ms.
 *   events/s  N events (default 1 000 000) emitted as fast as the program can, read by
 *             our live source; then N more read by babeltrace2's own lttng-live source
 *             into sink.utils.counter (the source alone: what decoding costs), then N
 *             more by `babeltrace2 --input-format=lttng-live URL` printing text (a relay
 *             takes one viewer per session: one after the other, same session). Each
 *             rate is taken from 5 % to 95 % of what the viewer received (the tail
 *             waits for the live timer to flush the last packets); beside it the
 *             viewer's CPU time per event received (ours: the reader child and this
 *             process); the count received beside
 *             the count emitted and LTTng's discarded events (never silently different).
 *
 * Usage: bench-lttng-live [N] [TIMER_US]. Not a CI gate: it prints figures.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <tw-ingest.h>
#include <unistd.h>

#include "tw-test-lttng.h"
#include "tw-test-reader-process.h"

#define TRACEF_NAME "lttng_ust_tracef:event"

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static guint64
now_realtime_ns (void)
{
  return (guint64) g_get_real_time () * 1000;
}

/* The rate between when a viewer had 5 % and 95 % of what it finally received: it
 * leaves out the start (the viewer's first request) and the tail (the last partial
 * packets wait for the live timer), which say nothing of how fast a viewer goes. Taken
 * from what it received, not from the burst: when LTTng discarded events on a loaded
 * machine, 95 % of the burst never arrives. */
typedef struct {
  gint64  time_us;
  guint64 count;
} ProgressStep;

typedef struct {
  GArray *steps;   /* ProgressStep, each time the count changed */
} Progress;

static void
progress_init (Progress *p)
{
  p->steps = g_array_new (FALSE, FALSE, sizeof (ProgressStep));
}

static void
progress_clear (Progress *p)
{
  g_clear_pointer (&p->steps, g_array_unref);
}

static void
progress_note (Progress *p,
               guint64   count)
{
  ProgressStep step = { g_get_monotonic_time (), count };

  if (count > 0 && (p->steps->len == 0
                    || g_array_index (p->steps, ProgressStep, p->steps->len - 1).count != count))
    g_array_append_val (p->steps, step);
}

static double
progress_rate (const Progress *p)
{
  guint64 total = p->steps->len ? g_array_index (p->steps, ProgressStep, p->steps->len - 1).count : 0;
  const ProgressStep *first = NULL, *last = NULL;

  for (guint i = 0; i < p->steps->len; i++)
    {
      const ProgressStep *step = &g_array_index (p->steps, ProgressStep, i);

      if (first == NULL && step->count * 20 >= total)
        first = step;
      if (last == NULL && step->count * 20 >= total * 19)
        last = step;
    }
  if (first == NULL || last == NULL || last->time_us <= first->time_us)
    return 0.0;
  return (last->count - first->count) / ((last->time_us - first->time_us) / 1e6);
}

/* user + system CPU seconds of process @pid (0 when it is gone) */
static double
process_cpu_s (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;
  const char *after;

  if (!g_file_get_contents (path, &text, NULL, NULL) || (after = strrchr (text, ')')) == NULL)
    return 0.0;
  fields = g_strsplit (after + 2, " ", 0);
  /* fields from the state (3rd of the line): utime and stime are the 14th and 15th */
  if (g_strv_length (fields) < 13)
    return 0.0;
  return (g_ascii_strtoull (fields[11], NULL, 10) + g_ascii_strtoull (fields[12], NULL, 10))
         / (double) sysconf (_SC_CLK_TCK);
}

typedef struct {
  GInputStream *stream;
  gboolean      counter;    /* sink.utils.counter's "N messages (TOTAL)" lines, else text lines */
  guint64       seen;
  Progress      progress;
} PeerOutput;

static gpointer
read_peer (gpointer data)
{
  PeerOutput *c = data;
  g_autoptr(GDataInputStream) lines = g_data_input_stream_new (c->stream);
  char *line;

  while ((line = g_data_input_stream_read_line (lines, NULL, NULL, NULL)))
    {
      if (!c->counter)
        c->seen++;
      else if (strstr (line, "messages (TOTAL)"))
        c->seen = g_ascii_strtoull (g_strchug (line), NULL, 10);
      progress_note (&c->progress, c->seen);
      g_free (line);
    }
  return NULL;
}

static TwMonitor *
attach (TwTestLttng *lt,
        const char  *session)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = tw_test_lttng_url (lt, session);
  TwLiveSource *source = tw_live_lttng_new (url, &error);
  TwMonitor *monitor = tw_monitor_new (NULL);
  gint64 end = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  TwMonitorSourceInfo info = { 0 };

  tw_monitor_set_watch_sensors (monitor, FALSE);
  if (source == NULL || !tw_monitor_add_source (monitor, source, &error))
    g_error ("%s", error->message);
  while (g_get_monotonic_time () < end && info.connection != TW_LIVE_CONNECTION_CONNECTED)
    {
      tw_monitor_poll (monitor);
      tw_monitor_get_source_info (monitor, 0, &info);
      g_usleep (5000);
    }
  /* the viewer attaches at the streams' end: a timer period to settle */
  for (guint i = 0; i < 60; i++)
    tw_monitor_poll (monitor), g_usleep (5000);
  return monitor;
}

static void
bench_latency (TwTestLttng *lt,
               guint        timer_us)
{
  g_autoptr(TwMonitor) monitor = NULL;
  g_autoptr(GSubprocess) emitter = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (guint64));
  const guint n = 200;
  guint64 next = 0;
  gint64 end;
  guint16 type = TW_TYPE_NONE;
  TwTrace *trace;

  if (!tw_test_lttng_create_session (lt, "latency", timer_us) || !tw_test_lttng_emit (lt, 0, 0))
    g_error ("could not make the session");
  monitor = attach (lt, "latency");
  trace = tw_monitor_get_trace (monitor);
  {
    g_autofree char *count = g_strdup_printf ("%u", n);
    g_autoptr(GPtrArray) argv = NULL;
    const char *args[] = { g_getenv ("TW_LTTNG_EMIT"), count, "20000", NULL };
    g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);

    argv = tw_test_lttng_argv (lt, args);
    g_subprocess_launcher_set_environ (launcher, lt->env);
    emitter = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
    if (emitter == NULL)
      g_error ("%s", error->message);
  }
  end = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (latencies->len < n && g_get_monotonic_time () < end)
    {
      guint64 rows;

      tw_monitor_poll (monitor);
      rows = tw_trace_get_n_events (trace);
      for (; next < rows; next++)
        {
          TwEvent event;

          if (type == TW_TYPE_NONE)
            type = tw_trace_lookup_event_type (trace, TRACEF_NAME);
          tw_trace_get_event (trace, next, &event);
          if (event.type == type && type != TW_TYPE_NONE)
            {
              guint64 lat = now_realtime_ns () - event.time;

              g_array_append_val (latencies, lat);
            }
        }
      g_usleep (5000);
    }
  g_subprocess_wait (emitter, NULL, NULL);
  if (latencies->len == 0)
    g_error ("no event arrived");
  qsort (latencies->data, latencies->len, sizeof (guint64), compare_u64);
  {
    guint64 med = g_array_index (latencies, guint64, latencies->len / 2);
    guint64 p95 = g_array_index (latencies, guint64, latencies->len * 95 / 100);
    guint64 max = g_array_index (latencies, guint64, latencies->len - 1);
    double timer_ms = timer_us / 1000.0;

    printf ("latency, target commit → store (%u of %u events, monitor polled every 5 ms)\n", latencies->len, n);
    printf ("  live timer              %8.1f ms\n", timer_ms);
    printf ("  median                  %8.1f ms\n", med / 1e6);
    printf ("  95th percentile         %8.1f ms\n", p95 / 1e6);
    printf ("  max                     %8.1f ms  (max − timer %.1f ms; goal ≤ 250 ms)\n",
            max / 1e6, max / 1e6 - timer_ms);
  }
  tw_monitor_stop (monitor);
}

/* One burst of @n events read by babeltrace2's own lttng-live source into @sink_args
 * (its text output, or sink.utils.counter: the source alone), in its own process. */
static void
bench_peer (TwTestLttng       *lt,
            const char        *session,
            guint              n,
            const char *const *sink_args,
            const char        *label)
{
  g_autofree char *url = tw_test_lttng_url (lt, session);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocess) peer = NULL;
  g_autoptr(GError) error = NULL;
  PeerOutput out = { .counter = sink_args != NULL };
  GThread *reader;
  double cpu = 0.0;
  guint64 seen = G_MAXUINT64;

  g_ptr_array_add (argv, (gpointer) "babeltrace2");
  g_ptr_array_add (argv, (gpointer) "--input-format=lttng-live");
  g_ptr_array_add (argv, url);
  for (guint i = 0; sink_args && sink_args[i]; i++)
    g_ptr_array_add (argv, (gpointer) sink_args[i]);
  g_ptr_array_add (argv, NULL);
  peer = g_subprocess_newv ((const char *const *) argv->pdata, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  if (peer == NULL)
    g_error ("%s", error->message);
  progress_init (&out.progress);
  out.stream = g_subprocess_get_stdout_pipe (peer);
  reader = g_thread_new ("peer-output", read_peer, &out);
  g_usleep (1500000);
  if (!tw_test_lttng_emit (lt, n, 0))
    g_error ("the UST program failed");
  /* until its output stops for 2 s */
  while (seen != out.seen)
    {
      seen = out.seen;
      g_usleep (2 * G_USEC_PER_SEC);
    }
  cpu = process_cpu_s (atoi (g_subprocess_get_identifier (peer)));
  g_subprocess_force_exit (peer);   /* ours, by its PID */
  g_subprocess_wait (peer, NULL, NULL);
  g_thread_join (reader);
  printf ("  %-26s %10.0f events/s  %5.2f µs CPU/event  %s %" G_GUINT64_FORMAT "\n", label,
          progress_rate (&out.progress), cpu * 1e6 / MAX (out.seen, 1),
          out.counter ? "messages" : "lines", out.seen);
  progress_clear (&out.progress);
}

static void
bench_throughput (TwTestLttng *lt,
                  guint        n,
                  guint        timer_us)
{
  const char *counter[] = { "--component=sink.utils.counter", NULL, NULL };
  g_autofree char *step = g_strdup_printf ("--params=step=+%u", MAX (n / 100, 1));
  g_autoptr(TwMonitor) monitor = NULL;
  TwMonitorSourceInfo info;
  Progress progress;
  guint64 ours = 0, idle_since = 0;
  struct rusage before, after;
  double child_cpu, parent_cpu;
  GPid child;
  gint64 t0;

  progress_init (&progress);
  if (!tw_test_lttng_create_session (lt, "rate", timer_us) || !tw_test_lttng_emit (lt, 0, 0))
    g_error ("could not make the session");
  monitor = attach (lt, "rate");
  child = tw_test_find_reader_child ();
  child_cpu = child ? process_cpu_s (child) : 0.0;
  getrusage (RUSAGE_SELF, &before);
  t0 = g_get_monotonic_time ();
  if (!tw_test_lttng_emit (lt, n, 0))
    g_error ("the UST program failed");
  printf ("emitted %u events in %.2f s (%.0f events/s on the target)\n", n,
          (g_get_monotonic_time () - t0) / 1e6, n / ((g_get_monotonic_time () - t0) / 1e6));

  /* ours: until nothing came for 2 s */
  while (TRUE)
    {
      guint64 count, now = g_get_monotonic_time ();

      tw_monitor_poll (monitor);
      tw_monitor_get_source_info (monitor, 0, &info);
      count = info.counts.received;
      progress_note (&progress, count);
      if (count != ours)
        {
          ours = count;
          idle_since = now;
        }
      else if (idle_since && now - idle_since > 2 * G_USEC_PER_SEC)
        break;
      else if (idle_since == 0)
        idle_since = now;
      g_usleep (10000);   /* the window and `monitor` poll every 10 ms */
    }
  tw_monitor_flush (monitor);
  tw_monitor_get_source_info (monitor, 0, &info);
  child_cpu = child ? process_cpu_s (child) - child_cpu : 0.0;
  getrusage (RUSAGE_SELF, &after);
  parent_cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec) + (after.ru_stime.tv_sec - before.ru_stime.tv_sec)
               + ((after.ru_utime.tv_usec - before.ru_utime.tv_usec) + (after.ru_stime.tv_usec - before.ru_stime.tv_usec)) / 1e6;
  tw_monitor_stop (monitor);   /* the relay takes one viewer per session */

  printf ("events/s through one relay, from 5 %% to 95 %% of what each viewer received; CPU per event received"
          " (live timer %.0f ms; one viewer at a time)\n",
          timer_us / 1000.0);
  printf ("  %-26s %10.0f events/s  %5.2f µs CPU/event  received %" G_GUINT64_FORMAT
          "  LTTng discarded %" G_GUINT64_FORMAT "  emitted %u\n", "tracewb live source",
          progress_rate (&progress), (child_cpu + parent_cpu) * 1e6 / MAX (info.counts.received, 1),
          info.counts.received, info.counts.missed, n);
  printf ("  %-26s %10s %10.2f µs in the reader child, %.2f µs in the window's process\n", "", "",
          child_cpu * 1e6 / MAX (info.counts.received, 1), parent_cpu * 1e6 / MAX (info.counts.received, 1));
  progress_clear (&progress);
  counter[1] = step;
  bench_peer (lt, "rate", n, counter, "babeltrace2 source alone");
  bench_peer (lt, "rate", n, NULL, "babeltrace2 text");
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) atol (argv[1]) : 1000000;
  guint timer_us = argc > 2 ? (guint) atol (argv[2]) : 100000;
  TwTestLttng lt;

  if (g_getenv ("TW_LTTNG_EMIT") == NULL)
    g_setenv ("TW_LTTNG_EMIT", TW_LTTNG_EMIT_BUILT, FALSE);
  if (g_getenv ("TRACEWB_READER_HELPER") == NULL)
    g_setenv ("TRACEWB_READER_HELPER", TW_READER_HELPER_BUILT, FALSE);
  if (!tw_test_lttng_start (&lt))
    {
      fprintf (stderr, "bench-lttng-live: LTTng is not available here\n");
      return 77;
    }
  bench_latency (&lt, timer_us);
  bench_throughput (&lt, n, timer_us);
  tw_test_lttng_stop (&lt);
  return 0;
}
