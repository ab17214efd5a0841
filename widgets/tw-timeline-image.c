/* tw-timeline-image.c: the timeline as a PNG or SVG file, with its legend
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

#include "tw-timeline-image.h"
#include "tw-timeline-legend.h"

/*
 * Images go into reports and papers, read far from the window: they are drawn in the
 * light style whatever the theme, and carry the legend as a strip under the rows, like
 * the key under a figure (no popover to open there).
 */

static gboolean
has_counters (TwTimelinePainter *painter)
{
  return tw_counter_tracks_get_n_tracks (tw_timeline_layout_get_counter_tracks (tw_timeline_painter_get_layout (painter))) > 0;
}

/**
 * tw_timeline_image_get_legend_height:
 *
 * Returns: the px height of the legend strip under an image @width px wide
 */
int
tw_timeline_image_get_legend_height (TwTimelinePainter *painter,
                                     int                width)
{
  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (painter), 0);

  return tw_legend_strip_get_height (width, has_counters (painter));
}

/**
 * tw_timeline_image_write:
 * @viewport: the timeline's part of the image (its palette is ignored: images are light)
 * @legend: add the legend strip under the timeline
 * @path: ends in .png or .svg
 *
 * Returns: %FALSE with @error set when @path has another extension or cannot be written
 */
gboolean
tw_timeline_image_write (TwTimelinePainter        *painter,
                         const TwTimelineViewport *viewport,
                         gboolean                  legend,
                         const char               *path,
                         GError                  **error)
{
  TwTimelineViewport vp = *viewport;
  gboolean svg = g_str_has_suffix (path, ".svg");
  int legend_h = legend ? tw_timeline_image_get_legend_height (painter, vp.width) : 0;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (painter), FALSE);

  if (!svg && !g_str_has_suffix (path, ".png"))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("%s: the file name must end in .png or .svg"), path);
      return FALSE;
    }

  vp.palette = NULL;
  surface = svg ? cairo_svg_surface_create (path, vp.width, vp.height + legend_h)
                : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp.width, vp.height + legend_h);
  cr = cairo_create (surface);
  tw_timeline_painter_draw (painter, cr, &vp);
  if (legend)
    {
      TwTimelineColors colors;

      tw_timeline_colors_init (&colors, NULL);
      cairo_translate (cr, 0, vp.height);
      tw_legend_strip_draw (cr, &colors, vp.width, has_counters (painter));
    }
  cairo_destroy (cr);

  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS && !svg)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
