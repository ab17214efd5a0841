/* bench-render.c: timeline frames of a large multi-CPU trace, from the bins and exactly
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-test-utils.h"

#include <stdio.h>
#include <stdlib.h>

/*
 * `tracewb-cli render --bench FILE` times a file; S.Ha.R.K. traces have one CPU and a
 * few tasks. This one simulates a busy kernel (several CPUs, hundreds of tasks, nested
 * interrupts) with the same generator the pixel tests use, and times 1920×1080 frames at
 * full view and five zoom levels down to 1 µs. The peer is the same painter drawing
 * from the intervals themselves (the exact path the tests compare the bins with).
 *
 * Usage: bench-render [EVENTS (default 20000000)] [CPUS (8)] [TASKS (200)]
 */

static double
wall_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

int
main (int    argc,
      char **argv)
{
  guint64 n_events = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 20000000;
  guint n_cpus = argc > 2 ? (guint) atoi (argv[2]) : 8;
  guint n_tasks = argc > 3 ? (guint) atoi (argv[3]) : 200;
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelinePainter) painter = NULL;
  cairo_surface_t *surface;
  TwTimelineViewport vp = { 0 };
  guint64 first, last;
  double c0, w0, c_model, w_model, c_frame, w_frame;
  const int width = 1920, height = 1080;

  if (n_events < 1000 || n_cpus < 1 || n_cpus > 256 || n_tasks < 1)
    {
      g_printerr ("usage: bench-render [EVENTS ≥ 1000] [CPUS 1–256] [TASKS ≥ 1]\n");
      return 2;
    }

  schedule = tw_test_schedule_new (trace, n_cpus, n_tasks, 7);
  tw_test_schedule_append (schedule, n_events);
  tw_trace_seal (trace, NULL, NULL);
  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace) + 1;

  /* from a loaded trace to the first frame on screen */
  c0 = tw_thread_cpu_ms ();
  w0 = wall_ms ();
  model = tw_state_model_new (trace);
  tw_state_model_update (model, NULL, NULL);
  painter = tw_timeline_painter_new (model);
  c_model = tw_thread_cpu_ms () - c0;
  w_model = wall_ms () - w0;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  vp.begin_ns = first;
  vp.end_ns = last;
  vp.width = width;
  vp.height = height;
  vp.cursor_ns = TW_TIME_NONE;
  c_frame = tw_timeline_painter_time_frame (painter, surface, &vp);
  w_frame = wall_ms () - w0 - w_model;

  g_print ("simulated trace: %" G_GUINT64_FORMAT " events, %u CPUs, %u tasks, models %.0f MiB "
           "(%.1f B/event)\n", tw_trace_get_n_events (trace), n_cpus, n_tasks,
           tw_state_model_get_memory_size (model) / (1024.0 * 1024.0),
           (double) tw_state_model_get_memory_size (model) / tw_trace_get_n_events (trace));
  g_print ("loaded trace → first frame: models %.0f ms wall (%.0f ms CPU of this thread), "
           "frame %.1f ms wall (%.1f ms CPU)\n\n", w_model, c_model, w_frame, c_frame);

  g_print ("%-12s %22s %26s\n", "", "bins (ms CPU)", "peer: exact (ms CPU)");
  g_print ("%-12s %11s %10s %13s %12s\n", "span", "median", "max", "median", "max");
  for (guint level = 0; level <= TW_TIMELINE_ZOOM_LEVELS; level++)
    {
      double span = tw_timeline_viewport_set_zoom_level (&vp, first, last, level);
      g_autofree char *label = tw_timeline_format_duration ((guint64) span);
      double fast_median, fast_max, exact_median, exact_max;

      tw_timeline_painter_set_exact (painter, FALSE);
      tw_timeline_painter_time_frames (painter, surface, &vp, 15, &fast_median, &fast_max);
      tw_timeline_painter_set_exact (painter, TRUE);
      tw_timeline_painter_time_frames (painter, surface, &vp, 3, &exact_median, &exact_max);
      g_print ("%-12s %11.2f %10.2f %13.2f %12.2f\n", label, fast_median, fast_max,
               exact_median, exact_max);
    }
  cairo_surface_destroy (surface);
  return 0;
}
