/* tw-histogram-over-time.h: one histogram per stretch of the trace, side by side in time
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-evaluators.h>

G_BEGIN_DECLS

#define TW_TYPE_HISTOGRAM_OVER_TIME (tw_histogram_over_time_get_type ())
G_DECLARE_FINAL_TYPE (TwHistogramOverTime, tw_histogram_over_time, TW, HISTOGRAM_OVER_TIME, GtkWidget)

GtkWidget *tw_histogram_over_time_new           (void);
void       tw_histogram_over_time_set_table     (TwHistogramOverTime *self,
                                                 TwMeasurementTable  *table,
                                                 guint64              start,
                                                 guint64              end);
guint      tw_histogram_over_time_get_n_windows (TwHistogramOverTime *self);
gsize      tw_histogram_over_time_get_max_row   (TwHistogramOverTime *self,
                                                 guint                window);
gsize      tw_histogram_over_time_get_worst_row (TwHistogramOverTime *self);
guint      tw_histogram_over_time_window_at     (TwHistogramOverTime *self,
                                                 double               x);

G_END_DECLS
