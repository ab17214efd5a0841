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
 *             our live source; then N more read by `babeltrace2 --input-format=lttng-live
 *             URL` printing text into a pipe we count lines of (a relay takes one viewer
 *             per session: one after the other, same session): both from their first to
 *             their last event; the count received beside the count emitted and LTTng's
 *             discarded events (never silently different).
 *
 * Usage: bench-lttng-live [N] [TIMER_US]. Not a CI gate: it prints figures.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tw-ingest.h>

#include "tw-test-lttng.h"

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

typedef struct {
  GInputStream *stream;
  guintptr      lines;      /* read by the main thread while this one counts */
  gint64        first_us, last_us;
} LineCounter;

static gpointer
count_lines (gpointer data)
{
  LineCounter *c = data;
  char buf[65536];
  gssize n;

  while ((n = g_input_stream_read (c->stream, buf, sizeof buf, NULL, NULL)) > 0)
    {
      gssize k = 0;

      for (gssize i = 0; i < n; i++)
        k += buf[i] == '\n';
      g_atomic_pointer_add (&c->lines, k);
      if (c->first_us == 0)
        c->first_us = g_get_monotonic_time ();
      c->last_us = g_get_monotonic_time ();
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

static void
bench_throughput (TwTestLttng *lt,
                  guint        n,
                  guint        timer_us)
{
  g_autoptr(TwMonitor) monitor = NULL;
  g_autoptr(GSubprocess) peer = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = tw_test_lttng_url (lt, "rate");
  LineCounter peer_count = { 0 };
  GThread *counter;
  TwMonitorSourceInfo info;
  guint64 ours = 0, first_us = 0, last_us = 0, idle_since = 0;
  guint16 type = TW_TYPE_NONE;
  TwTrace *trace;
  gint64 t0;

  if (!tw_test_lttng_create_session (lt, "rate", timer_us) || !tw_test_lttng_emit (lt, 0, 0))
    g_error ("could not make the session");
  monitor = attach (lt, "rate");
  trace = tw_monitor_get_trace (monitor);
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
      if (type == TW_TYPE_NONE)
        type = tw_trace_lookup_event_type (trace, TRACEF_NAME);
      tw_monitor_get_source_info (monitor, 0, &info);
      count = info.counts.received;
      if (count != ours)
        {
          if (first_us == 0)
            first_us = now;
          last_us = now;
          ours = count;
          idle_since = now;
        }
      else if (idle_since && now - idle_since > 2 * G_USEC_PER_SEC)
        break;
      else if (idle_since == 0)
        idle_since = now;
      g_usleep (2000);
    }
  tw_monitor_flush (monitor);
  tw_monitor_get_source_info (monitor, 0, &info);
  tw_monitor_stop (monitor);   /* the relay takes one viewer per session */

  peer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error,
                           "babeltrace2", "--input-format=lttng-live", url, NULL);
  if (peer == NULL)
    g_error ("%s", error->message);
  peer_count.stream = g_subprocess_get_stdout_pipe (peer);
  counter = g_thread_new ("peer-lines", count_lines, &peer_count);
  g_usleep (1500000);
  if (!tw_test_lttng_emit (lt, n, 0))
    g_error ("the UST program failed");
  {
    guintptr seen = G_MAXSIZE;

    /* until its output stops for 2 s */
    while (seen != (guintptr) g_atomic_pointer_get (&peer_count.lines))
      {
        seen = (guintptr) g_atomic_pointer_get (&peer_count.lines);
        g_usleep (2 * G_USEC_PER_SEC);
      }
  }
  g_subprocess_force_exit (peer);   /* ours, by its PID */
  g_subprocess_wait (peer, NULL, NULL);
  g_thread_join (counter);

  printf ("events/s through one relay (live timer %.0f ms; one viewer, then the other)\n", timer_us / 1000.0);
  printf ("  tracewb live source     %10.0f events/s  received %" G_GUINT64_FORMAT
          "  LTTng discarded %" G_GUINT64_FORMAT "  emitted %u\n",
          last_us > first_us ? info.counts.received / ((last_us - first_us) / 1e6) : 0.0,
          info.counts.received, info.counts.missed, n);
  printf ("  babeltrace2 text        %10.0f events/s  lines %" G_GUINT64_FORMAT "\n",
          peer_count.last_us > peer_count.first_us
          ? peer_count.lines / ((peer_count.last_us - peer_count.first_us) / 1e6) : 0.0,
          (guint64) peer_count.lines);
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
