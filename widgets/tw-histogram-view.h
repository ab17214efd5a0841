/* tw-histogram-view.h: a live histogram with its statistics and the measurements of a bin
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-evaluators.h>

#include "tw-histogram-painter.h"
#include "tw-measurement-list.h"
#include "tw-view-state.h"

G_BEGIN_DECLS

/* at most this many redraws per second while values stream in */
#define TW_HISTOGRAM_VIEW_MAX_FPS 30
/* up to this many values, exact percentiles once the values settle (else estimated) */
#define TW_HISTOGRAM_VIEW_EXACT_LIMIT 1000000

#define TW_TYPE_HISTOGRAM_VIEW (tw_histogram_view_get_type ())
G_DECLARE_FINAL_TYPE (TwHistogramView, tw_histogram_view, TW, HISTOGRAM_VIEW, GtkWidget)

GtkWidget                 *tw_histogram_view_new              (void);
void                       tw_histogram_view_set_histogram    (TwHistogramView    *self,
                                                               TwHistogram        *histogram,
                                                               TwMeasurementTable *table,
                                                               TwTrace            *trace);
TwHistogram               *tw_histogram_view_get_histogram    (TwHistogramView    *self);
void                       tw_histogram_view_set_view_state   (TwHistogramView    *self,
                                                               TwViewState        *view_state);
void                       tw_histogram_view_changed          (TwHistogramView    *self);
guint                      tw_histogram_view_get_n_refreshes  (TwHistogramView    *self);
const TwHistogramSnapshot *tw_histogram_view_get_snapshot     (TwHistogramView    *self);
TwHistogramPainter        *tw_histogram_view_get_painter      (TwHistogramView    *self);
GtkWidget                 *tw_histogram_view_get_plot         (TwHistogramView    *self);
void                       tw_histogram_view_set_y_scale      (TwHistogramView    *self,
                                                               TwHistogramYScale   scale);
void                       tw_histogram_view_set_cumulative   (TwHistogramView    *self,
                                                               gboolean            cumulative);
int                        tw_histogram_view_bin_at           (TwHistogramView    *self,
                                                               double              x,
                                                               double              y);
void                       tw_histogram_view_select_bin       (TwHistogramView    *self,
                                                               int                 bin);
int                        tw_histogram_view_get_selected_bin (TwHistogramView    *self);
TwMeasurementList         *tw_histogram_view_get_bin_list     (TwHistogramView    *self);
void                       tw_histogram_view_pick_measurement (TwHistogramView    *self,
                                                               gsize               row);
gboolean                   tw_histogram_view_export_image     (TwHistogramView    *self,
                                                               TwHistogramExportFormat format,
                                                               const char         *path,
                                                               GError            **error);

G_END_DECLS
