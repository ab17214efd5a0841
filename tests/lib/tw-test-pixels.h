/* tw-test-pixels.h: reading pixels of what widgets and painters drew
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>
#include <math.h>

/* The RGB of pixel (x, y) of an ARGB32 image surface, each in [0, 1]. */
static inline void
tw_test_surface_get_rgb (cairo_surface_t *surface,
                         int              x,
                         int              y,
                         double           rgb[3])
{
  const guint8 *data;
  guint32 pixel;

  cairo_surface_flush (surface);
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  data = cairo_image_surface_get_data (surface);
  pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + x * 4);
  rgb[0] = ((pixel >> 16) & 0xff) / 255.0;
  rgb[1] = ((pixel >> 8) & 0xff) / 255.0;
  rgb[2] = (pixel & 0xff) / 255.0;
}

static inline gboolean
tw_test_rgb_near (const double a[3],
                  const double b[3])
{
  return fabs (a[0] - b[0]) < 0.02 && fabs (a[1] - b[1]) < 0.02 && fabs (a[2] - b[2]) < 0.02;
}
