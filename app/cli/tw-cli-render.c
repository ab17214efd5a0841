/* tw-cli-render.c: `tracewb-cli render FILE -o out.png|out.svg`, and its benchmark
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <tw-widgets.h>

#include "tw-cli.h"

/* Full view, then five zoom levels down to a 1 µs span around the middle of the trace:
 * median and max ms per 1920×1080 frame at each. */
static void
run_bench (TwTimelinePainter *painter,
           TwTrace           *trace,
           cairo_surface_t   *surface,
           int                width,
           int                height)
{
  guint64 first = tw_trace_get_first_time (trace);
  guint64 end = tw_trace_get_last_time (trace) + 1;

  g_print ("%-14s %12s %10s %10s\n", "span", "view", "median ms", "max ms");
  for (guint level = 0; level <= TW_TIMELINE_ZOOM_LEVELS; level++)
    {
      TwTimelineViewport vp = { .width = width, .height = height, .cursor_ns = TW_TIME_NONE };
      double span = tw_timeline_viewport_set_zoom_level (&vp, first, end, level);
      g_autofree char *label = tw_timeline_format_duration ((guint64) span);
      double median, max;

      tw_timeline_painter_time_frames (painter, surface, &vp, 15, &median, &max);
      g_print ("%-14s %12s %10.2f %10.2f\n", label, level == 0 ? "full" : "zoomed", median, max);
    }
}

int
tw_cli_render (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE — draw the timeline to PNG or SVG");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelinePainter) painter = NULL;
  g_autofree char *output = NULL;
  g_autofree char *format = NULL;
  gint64 from = -1, to = -1;
  int width = 1920, height = 1080;
  gboolean bench = FALSE;
  gboolean no_legend = FALSE;
  TwTimelineViewport vp = { 0 };
  GError *error = NULL;
  double t0 = tw_thread_cpu_ms ();
  double wall0 = g_get_monotonic_time () / 1000.0;
  double t_loaded, t_model, t_frame, wall_frame;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "Where to write (.png or .svg)", "FILE" },
    { "from", 0, 0, G_OPTION_ARG_INT64, &from, "First visible time (ns)", "NS" },
    { "to", 0, 0, G_OPTION_ARG_INT64, &to, "Last visible time (ns)", "NS" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Width in px (default 1920)", "W" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Height in px (default 1080)", "H" },
    { "bench", 0, 0, G_OPTION_ARG_NONE, &bench, "Time frames at full view and 5 zoom levels", NULL },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Reader to use instead of probing", "NAME" },
    { "no-legend", 0, 0, G_OPTION_ARG_NONE, &no_legend, "Leave out the legend strip at the bottom", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2 || (!output && !bench) || width < TW_TIMELINE_LABEL_WIDTH + 10 || height < 60
      || width > 32768 || height > 32768)
    {
      g_printerr ("usage: tracewb-cli render FILE [--from NS --to NS] [--width W --height H] "
                  "[--no-legend] -o out.png|out.svg\n       tracewb-cli render --bench FILE\n");
      return 2;
    }

  if (!(trace = tw_cli_load_trace (argv[1], format, &error)))
    return tw_cli_fail ("render", error);
  t_loaded = tw_thread_cpu_ms ();

  model = tw_state_model_new (trace);
  if (!tw_state_model_update (model, NULL, &error))
    return tw_cli_fail ("render", error);
  painter = tw_timeline_painter_new (model);
  t_model = tw_thread_cpu_ms ();

  vp.begin_ns = from >= 0 ? (guint64) from : tw_trace_get_first_time (trace);
  vp.end_ns = to >= 0 ? (guint64) to : tw_trace_get_last_time (trace) + 1;
  if (vp.end_ns <= vp.begin_ns)
    {
      g_printerr ("tracewb-cli render: --to must be after --from\n");
      return 2;
    }
  vp.width = width;
  vp.height = height;
  vp.cursor_ns = TW_TIME_NONE;

  if (bench)
    {
      /* the frames of the levels reuse this surface: the first frame pays for its pages */
      cairo_surface_t *first = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);

      t_frame = tw_timeline_painter_time_frame (painter, first, &vp);
      wall_frame = g_get_monotonic_time () / 1000.0;
      g_print ("%s: %" G_GUINT64_FORMAT " events, %u CPUs, %u tasks, models %.1f MiB\n", argv[1],
               tw_trace_get_n_events (trace), tw_trace_get_n_cpus (trace),
               tw_trace_get_n_tasks (trace),
               tw_state_model_get_memory_size (model) / (1024.0 * 1024.0));
      g_print ("time to first frame: %.0f ms CPU (load %.0f ms, models %.0f ms, frame %.1f ms), "
               "%.0f ms wall\n\n",
               t_frame + (t_model - t0), t_loaded - t0, t_model - t_loaded, t_frame,
               wall_frame - wall0);
      run_bench (painter, trace, first, width, height);
      cairo_surface_destroy (first);
      return 0;
    }

  /* the image is W × H with the legend: the rows get what the strip leaves */
  if (!no_legend)
    vp.height = MAX (height - tw_timeline_image_get_legend_height (painter, width),
                     TW_TIMELINE_RULER_HEIGHT + 1);
  if (!tw_timeline_image_write (painter, &vp, !no_legend, output, &error))
    {
      gboolean usage = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);

      g_printerr ("tracewb-cli render: %s\n", error->message);
      g_error_free (error);
      return usage ? 2 : 1;
    }
  return 0;
}
