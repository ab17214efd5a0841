/* tw-timeline-painter-counters.c: counter tracks (CPU load, memory) as area graphs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-painter-private.h"

static double
counter_scale (const TwCounterTrack *track)
{
  return track->scale_max > 0 ? track->scale_max : 1.0;
}

/* px above the graph's bottom for @value, within [0, graph_h] */
static double
counter_height (const TwCounterTrack *track,
                double                value,
                double                graph_h)
{
  return CLAMP (round (value / counter_scale (track) * graph_h), 0, graph_h);
}

/* Time at the left edge of pixel column @col: a sample at or after it belongs to @col
 * or a later column. */
static guint64
counter_column_start (const TwPaintFrame *f,
                      double              col)
{
  if (col <= f->plot_x0)
    return f->vp->begin_ns;
  return f->vp->begin_ns + (guint64) ceil ((col - f->plot_x0) * f->ns_per_px);
}

/* An area graph in O(pixel columns): per column, two binary searches find the samples
 * that speak for it and the track's pyramid gives their min and max; the column is
 * filled solid up to the min, lighter up to the max, and a dark line follows the last
 * sample of each column (what a zoomed-in view shows as a step line). */
void
_tw_timeline_painter_draw_counter_track (const TwPaintFrame *f,
                                         cairo_t            *cr,
                                         guint               track_index,
                                         double              y,
                                         double              h)
{
  TwCounterTracks *counters = tw_timeline_layout_get_counter_tracks (f->self->layout);
  const TwCounterTrack *track = tw_counter_tracks_get_track (counters, track_index);
  double graph_bottom = y + h - TW_TIMELINE_COUNTER_PAD_BOTTOM;
  double graph_h = h - TW_TIMELINE_COUNTER_PAD_TOP - TW_TIMELINE_COUNTER_PAD_BOTTOM;
  double solid[4], light[4], line[4];
  TwRectBatch solid_b = { cr, { -1 } }, light_b = { cr, { -1 } }, line_b = { cr, { -1 } };
  double prev_line_y = -1;

  tw_timeline_counter_style (track->kind == TW_COUNTER_MEMORY ? f->colors->memory
                                                              : f->colors->cpu_load,
                             solid, light, line);

  for (double col = f->plot_x0; col < f->plot_x1; col++)
    {
      guint64 t0 = counter_column_start (f, col);
      guint64 t1 = counter_column_start (f, col + 1);
      gsize first, end;
      double min, max, last, h_min, h_max, line_y;

      if (!tw_counter_tracks_get_covering (counters, track_index, t0, MAX (t1, t0 + 1), &first, &end)
          || !tw_counter_tracks_get_extent (counters, track_index, first, end, &min, &max))
        {
          prev_line_y = -1;
          continue;
        }
      tw_counter_tracks_get_sample (counters, track_index, end - 1, NULL, &last, NULL);
      h_min = counter_height (track, min, graph_h);
      h_max = counter_height (track, max, graph_h);
      line_y = MIN (graph_bottom - counter_height (track, last, graph_h), graph_bottom - 1);

      if (h_min > 0)
        _tw_rect_batch_add (&solid_b, col, col + 1, graph_bottom - h_min, h_min, solid);
      if (h_max > h_min)
        _tw_rect_batch_add (&light_b, col, col + 1, graph_bottom - h_max, h_max - h_min, light);
      if (prev_line_y < 0 || prev_line_y == line_y)
        _tw_rect_batch_add (&line_b, col, col + 1, line_y, 1, line);
      else
        _tw_rect_batch_add (&line_b, col, col + 1, MIN (prev_line_y, line_y),
                   fabs (prev_line_y - line_y) + 1, line);
      prev_line_y = line_y;
    }
  _tw_rect_batch_flush (&solid_b);
  _tw_rect_batch_flush (&light_b);
  _tw_rect_batch_flush (&line_b);
}

/* The top of the scale, right-aligned in the label column: "100 %", "23.5 GiB". */
void
_tw_timeline_painter_draw_counter_scale (const TwPaintFrame  *f,
                                         cairo_t             *cr,
                                         PangoLayout         *layout,
                                         const TwTimelineRow *row,
                                         double               y)
{
  const TwCounterTrack *track = tw_counter_tracks_get_track (tw_timeline_layout_get_counter_tracks (f->self->layout),
                                                             row->id);
  g_autofree char *text = track->kind == TW_COUNTER_CPU_LOAD
                          ? g_strdup_printf ("%g %%", counter_scale (track))
                          : tw_counter_format_value (track, counter_scale (track));
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  tw_timeline_set_source (cr, f->colors->dim_text);
  _tw_timeline_painter_draw_text (layout, cr, text, TW_TIMELINE_LABEL_WIDTH - 6 - width, y + 2, -1);
}
