/* tw-timeline-painter-timing.c: how long the painter takes per frame, at each zoom
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb-cli render --bench` (any trace) and bench-render (a simulated busy kernel)
 * print the same figures: 1920 × 1080 frames at full view and at five zoom levels down to
 * a 1 µs span around the middle, panning a little between frames so that nothing is
 * cached from one to the next.
 */
#include "config.h"

#include <math.h>
#include <time.h>

#include "tw-timeline-painter.h"

/**
 * tw_thread_cpu_ms:
 *
 * Thread CPU time, which the render figures are in: they stay meaningful on a machine
 * shared with other jobs, where wall time mostly measures the scheduler.
 *
 * Returns: the CPU time the calling thread used so far, in ms
 */
double
tw_thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db;
}

/**
 * tw_timeline_painter_time_frame:
 * @surface: an image surface of the viewport's size
 *
 * Returns: the CPU time of this thread, in ms, to draw @vp into @surface
 */
double
tw_timeline_painter_time_frame (TwTimelinePainter        *self,
                                cairo_surface_t          *surface,
                                const TwTimelineViewport *vp)
{
  cairo_t *cr = cairo_create (surface);
  double t0 = tw_thread_cpu_ms ();

  tw_timeline_painter_draw (self, cr, vp);
  cairo_surface_flush (surface);
  cairo_destroy (cr);
  return tw_thread_cpu_ms () - t0;
}

/**
 * tw_timeline_painter_time_frames:
 * @n_frames: 1 to 64
 * @median_ms: (out): the median frame's CPU time
 * @max_ms: (out): the slowest frame's
 *
 * Draws @n_frames frames of @vp's span, each panned 1 % further than the last.
 */
void
tw_timeline_painter_time_frames (TwTimelinePainter        *self,
                                 cairo_surface_t          *surface,
                                 const TwTimelineViewport *vp,
                                 guint                     n_frames,
                                 double                   *median_ms,
                                 double                   *max_ms)
{
  double ms[64];
  guint64 span = vp->end_ns - vp->begin_ns;

  g_return_if_fail (n_frames >= 1 && n_frames <= G_N_ELEMENTS (ms));

  for (guint i = 0; i < n_frames; i++)
    {
      TwTimelineViewport moved = *vp;
      guint64 shift = span * i / 100;

      moved.begin_ns += shift;
      moved.end_ns += shift;
      ms[i] = tw_timeline_painter_time_frame (self, surface, &moved);
    }
  qsort (ms, n_frames, sizeof ms[0], compare_double);
  *median_ms = ms[n_frames / 2];
  *max_ms = ms[n_frames - 1];
}

/**
 * tw_timeline_viewport_set_zoom_level:
 * @first: the trace's first time
 * @end: just after its last
 * @level: 0 the whole of [@first, @end), then 1 to %TW_TIMELINE_ZOOM_LEVELS geometric
 *   steps around the middle down to a 1 µs span
 *
 * Sets @vp's begin and end to the span the render benchmarks time at @level.
 *
 * Returns: that span in ns
 */
double
tw_timeline_viewport_set_zoom_level (TwTimelineViewport *vp,
                                     guint64             first,
                                     guint64             end,
                                     guint               level)
{
  double full = (double) (end - first);
  guint64 mid = first + (end - first) / 2;
  double span = level == 0 ? full : full * pow (1000.0 / full, (double) level / TW_TIMELINE_ZOOM_LEVELS);

  vp->begin_ns = level == 0 ? first : (guint64) MAX ((double) mid - span / 2, 0);
  vp->end_ns = vp->begin_ns + MAX ((guint64) span, 1);
  return span;
}
