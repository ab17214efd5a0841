/* bench-render.c: timeline frames of a large multi-CPU trace, from the bins and exactly
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
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
 *
 * bench-render TRACE: frames of a model that grows, as the window draws a trace it reads
 * for the first time: the model built in steps of 32768 events (the window's steps read
 * the clock as often), and at every tenth of the events 1920×1080 frames of what is built
 * so far (the whole of it, as the window keeps it in view), each after the rows were
 * laid out again. Prints the CPU of the steps (bins grown as they go) beside one update
 * of a model built at once.
 */

#define GROWING_STEP 32768

static double
wall_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

static int
bench_growing (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_IN_PROCESS,
                                                                NULL, NULL, NULL, &error);
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelinePainter) painter = NULL;
  cairo_surface_t *surface;
  TwTimelineViewport vp = { 0 };
  guint64 n_events, next;
  double steps_ms = 0, once_ms, c0, worst = 0;
  guint n_steps = 0;

  if (trace == NULL)
    {
      g_printerr ("bench-render: %s\n", error->message);
      return 1;
    }
  n_events = tw_trace_get_n_events (trace);
  model = tw_state_model_new (trace);
  painter = tw_timeline_painter_new (model);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1920, 1080);
  vp.width = 1920;
  vp.height = 1080;
  vp.cursor_ns = TW_TIME_NONE;
  vp.begin_ns = tw_trace_get_first_time (trace);

  g_print ("%s: %" G_GUINT64_FORMAT " events; the model built in steps of %u events, "
           "1920×1080 frames of what is built so far (ms CPU)\n", path, n_events, GROWING_STEP);
  g_print ("%-10s %10s %10s\n", "built", "median", "max");
  for (guint tenth = 1; tenth <= 10; tenth++)
    {
      double median, max;
      TwEvent ev;

      next = n_events / 10 * tenth + (tenth == 10 ? n_events % 10 : 0);
      while (tw_state_model_get_n_processed (model) < next)
        {
          c0 = tw_thread_cpu_ms ();
          tw_state_model_update_some (model, MIN (GROWING_STEP, next - tw_state_model_get_n_processed (model)),
                                      NULL, NULL);
          steps_ms += tw_thread_cpu_ms () - c0;
          n_steps++;
        }
      tw_timeline_layout_update (tw_timeline_painter_get_layout (painter));
      g_assert_true (tw_trace_get_event (trace, next - 1, &ev));
      vp.end_ns = ev.time + 1;
      tw_timeline_painter_time_frames (painter, surface, &vp, 5, &median, &max);
      worst = MAX (worst, max);
      g_print ("%8u %% %10.2f %10.2f\n", tenth * 10, median, max);
    }
  g_clear_object (&painter);
  g_clear_object (&model);

  model = tw_state_model_new (trace);
  c0 = tw_thread_cpu_ms ();
  tw_state_model_update (model, NULL, NULL);
  once_ms = tw_thread_cpu_ms () - c0;
  g_print ("worst frame %.2f ms; model in %u steps %.0f ms CPU, at once %.0f ms CPU\n", worst,
           n_steps, steps_ms, once_ms);
  cairo_surface_destroy (surface);
  return 0;
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

  if (argc == 2 && !g_ascii_isdigit (argv[1][0]))
    return bench_growing (argv[1]);
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
