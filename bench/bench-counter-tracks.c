/* bench-counter-tracks.c: CPU-load tracks per frame through the min/max pyramid, beside a scan
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <time.h>
#include <tw-data.h>

/*
 * A long recording: N rows, one in 10 a `gtop_cpu_load` sample of one of 4 CPUs, the
 * others plain rows. Measured in thread CPU time:
 *   - reading the trace into the tracks (what the first frame of a loaded file pays);
 *   - one frame's worth of queries at 1600 pixel columns × 4 tracks, exactly what the
 *     painter asks per column (covering samples, their min/max, the last one), at the
 *     full view and at narrower views;
 *   - the peer: the same per-column min/max/last by visiting every sample in view.
 */

#define COLUMNS 1600
#define N_CPUS  4

static double
thread_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One frame the way the painter draws it; returns a checksum of what it would draw. */
static double
frame_pyramid (TwCounterTracks *tracks,
               guint64          begin,
               guint64          end)
{
  double sum = 0;
  double ns_per_px = (double) (end - begin) / COLUMNS;

  for (guint track = 0; track < tw_counter_tracks_get_n_tracks (tracks); track++)
    for (guint col = 0; col < COLUMNS; col++)
      {
        guint64 t0 = begin + (guint64) (col * ns_per_px);
        guint64 t1 = begin + (guint64) ((col + 1) * ns_per_px);
        gsize first, last_end;
        double min, max, last;

        if (!tw_counter_tracks_get_covering (tracks, track, t0, MAX (t1, t0 + 1), &first, &last_end)
            || !tw_counter_tracks_get_extent (tracks, track, first, last_end, &min, &max))
          continue;
        tw_counter_tracks_get_sample (tracks, track, last_end - 1, NULL, &last, NULL);
        sum += min + max + last;
      }
  return sum;
}

/* The peer: every sample in view visited once, binned into its column. */
static double
frame_scan (TwCounterTracks *tracks,
            guint64          begin,
            guint64          end)
{
  static double min[COLUMNS], max[COLUMNS], last[COLUMNS];
  double sum = 0;
  double px_per_ns = (double) COLUMNS / (double) (end - begin);

  for (guint track = 0; track < tw_counter_tracks_get_n_tracks (tracks); track++)
    {
      gsize n = tw_counter_tracks_get_n_samples (tracks, track);
      gsize i = tw_counter_tracks_lower_bound (tracks, track, begin);

      for (guint c = 0; c < COLUMNS; c++)
        {
          min[c] = G_MAXDOUBLE;
          max[c] = -G_MAXDOUBLE;
          last[c] = 0;
        }
      for (; i < n; i++)
        {
          guint64 t;
          double v;
          guint c;

          tw_counter_tracks_get_sample (tracks, track, i, &t, &v, NULL);
          if (t >= end)
            break;
          c = MIN ((guint) ((t - begin) * px_per_ns), COLUMNS - 1);
          min[c] = MIN (min[c], v);
          max[c] = MAX (max[c], v);
          last[c] = v;
        }
      for (guint c = 0; c < COLUMNS; c++)
        if (max[c] >= min[c])
          sum += min[c] + max[c] + last[c];
    }
  return sum;
}

int
main (int    argc,
      char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 20000000;
  static const TwFieldSpec fields[] = {
    { "load_pct", TW_FIELD_F64, TW_FIELD_FLAG_CPU_LOAD },
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = NULL;
  guint16 load = tw_trace_add_event_type (trace, "gtop_cpu_load", "gtop", TW_EVENT_KIND_OTHER,
                                          fields, G_N_ELEMENTS (fields), NULL);
  guint16 other = tw_trace_add_event_type (trace, "tick", NULL, TW_EVENT_KIND_OTHER, NULL, 0, NULL);
  guint32 tasks[N_CPUS];
  guint64 n_samples = 0, last_time;
  double t0, t_update, sink = 0;

  for (guint c = 0; c < N_CPUS; c++)
    {
      g_autofree char *id = g_strdup_printf ("gtop:cpu/%u", c);
      tasks[c] = tw_trace_add_task (trace, id, NULL, -1, -1);
    }
  for (guint64 i = 0; i < n; i++)
    {
      TwEventChunk *chunk = tw_trace_begin_append (trace);

      if (i % 10 == 0)
        {
          double v = (double) ((i * 2654435761u) % 1000) / 10.0;
          guint c = (guint) ((i / 10) % N_CPUS);

          tw_event_chunk_push (chunk, i * 100, (guint16) c, load, tasks[c], 0, (const guint8 *) &v, sizeof v);
          n_samples++;
        }
      else
        tw_event_chunk_push (chunk, i * 100, 0, other, TW_TASK_NONE, 0, NULL, 0);
    }
  tw_trace_end_append (trace);
  tw_trace_seal (trace, NULL, NULL);
  last_time = tw_trace_get_last_time (trace) + 1;

  tracks = tw_counter_tracks_new (trace);
  t0 = thread_ms ();
  tw_counter_tracks_update (tracks);
  t_update = thread_ms () - t0;
  printf ("rows %" G_GUINT64_FORMAT ", load samples %" G_GUINT64_FORMAT " on %u tracks\n",
          n, n_samples, tw_counter_tracks_get_n_tracks (tracks));
  printf ("reading the trace into the tracks: %.1f ms thread CPU (%.0f M rows/s)\n",
          t_update, n / t_update / 1e3);

  printf ("%-14s %14s %14s %12s\n", "view", "pyramid ms", "scan ms (peer)", "samples/px");
  for (guint64 span = last_time; span >= last_time / 10000 && span > COLUMNS; span /= 10)
    {
      guint64 begin = (last_time - span) / 2;
      double a, b, pyramid_ms, scan_ms;
      const int reps = 5;

      t0 = thread_ms ();
      for (int r = 0; r < reps; r++)
        a = frame_pyramid (tracks, begin, begin + span);
      pyramid_ms = (thread_ms () - t0) / reps;
      t0 = thread_ms ();
      for (int r = 0; r < reps; r++)
        b = frame_scan (tracks, begin, begin + span);
      scan_ms = (thread_ms () - t0) / reps;
      sink += a + b;
      printf ("1/%-12" G_GUINT64_FORMAT " %14.3f %14.3f %12.1f\n", last_time / span, pyramid_ms,
              scan_ms, (double) n_samples / N_CPUS * span / last_time / COLUMNS);
    }
  printf ("(checksum %g)\n", sink);
  return 0;
}
