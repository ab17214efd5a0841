/* tw-histogram-painter.h: draws a histogram with axes and statistics on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>
#include <tw-evaluators.h>

#include "tw-histogram-snapshot.h"
#include "tw-palette.h"

G_BEGIN_DECLS

#define TW_HISTOGRAM_MARGIN_LEFT   64
#define TW_HISTOGRAM_MARGIN_RIGHT  16
#define TW_HISTOGRAM_MARGIN_TOP    16
#define TW_HISTOGRAM_MARGIN_BOTTOM 40


/**
 * TwHistogramTick:
 * @value: where the tick is, in the histogram's unit
 * @x: its px position
 * @left: the left end of its label, px
 * @right: the right end
 * @label: its text
 */
typedef struct {
  double  value;
  double  x;
  double  left;
  double  right;
  char   *label;
} TwHistogramTick;

typedef enum {
  TW_HISTOGRAM_Y_LINEAR,
  TW_HISTOGRAM_Y_LOG,
} TwHistogramYScale;

typedef enum {
  TW_HISTOGRAM_EXPORT_PNG,
  TW_HISTOGRAM_EXPORT_SVG,
} TwHistogramExportFormat;

#define TW_TYPE_HISTOGRAM_PAINTER (tw_histogram_painter_get_type ())
G_DECLARE_FINAL_TYPE (TwHistogramPainter, tw_histogram_painter, TW, HISTOGRAM_PAINTER, GObject)

TwHistogramPainter *tw_histogram_painter_new            (void);
void                tw_histogram_painter_set_y_scale    (TwHistogramPainter        *self,
                                                         TwHistogramYScale          scale);
TwHistogramYScale   tw_histogram_painter_get_y_scale    (TwHistogramPainter        *self);
void                tw_histogram_painter_set_cumulative (TwHistogramPainter        *self,
                                                         gboolean                   cumulative);
gboolean            tw_histogram_painter_get_cumulative (TwHistogramPainter        *self);
void                tw_histogram_painter_set_show_stats (TwHistogramPainter        *self,
                                                         gboolean                   show);
void                tw_histogram_painter_set_selected_bin (TwHistogramPainter      *self,
                                                         int                        bin);
void                tw_histogram_painter_draw           (TwHistogramPainter        *self,
                                                         cairo_t                   *cr,
                                                         const TwHistogramSnapshot *snapshot,
                                                         int                        width,
                                                         int                        height,
                                                         const TwPalette           *palette);
gboolean            tw_histogram_painter_get_bar        (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         int                        width,
                                                         int                        height,
                                                         guint                      bin,
                                                         cairo_rectangle_t         *bar);
int                 tw_histogram_painter_bin_at         (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         int                        width,
                                                         int                        height,
                                                         double                     x,
                                                         double                     y);
char               *tw_histogram_painter_dup_bin_text   (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         guint                      bin);
GArray             *tw_histogram_painter_dup_x_ticks    (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         int                        width,
                                                         int                        height);
guint               tw_histogram_painter_get_y_ticks    (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         double                     ticks[24]);
char               *tw_histogram_painter_format_value   (const TwHistogramSnapshot *snapshot,
                                                         double                     value);
gboolean            tw_histogram_painter_export         (TwHistogramPainter        *self,
                                                         const TwHistogramSnapshot *snapshot,
                                                         TwHistogramExportFormat    format,
                                                         const char                *path,
                                                         int                        width,
                                                         int                        height,
                                                         GError                   **error);

G_END_DECLS
