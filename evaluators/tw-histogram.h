/* tw-histogram.h: histograms with exact statistics, fed one value at a time
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

typedef enum {
  TW_HISTOGRAM_SCALE_LINEAR = 0,
  TW_HISTOGRAM_SCALE_LOG, /* bins of equal width in log10(value) */
} TwHistogramScale;

#define TW_TYPE_HISTOGRAM (tw_histogram_get_type ())
G_DECLARE_FINAL_TYPE (TwHistogram, tw_histogram, TW, HISTOGRAM, GObject)

TwHistogram     *tw_histogram_new_fixed      (double            min,
                                              double            max,
                                              guint             n_bins,
                                              TwHistogramScale  scale);
TwHistogram     *tw_histogram_new_auto       (guint             n_bins,
                                              TwHistogramScale  scale);

void             tw_histogram_set_unit       (TwHistogram      *self,
                                              const char       *unit);
const char      *tw_histogram_get_unit       (TwHistogram      *self);
TwHistogramScale tw_histogram_get_scale      (TwHistogram      *self);
gboolean         tw_histogram_is_auto        (TwHistogram      *self);

void             tw_histogram_insert         (TwHistogram      *self,
                                              double            value);
void             tw_histogram_insert_many    (TwHistogram      *self,
                                              const double     *values,
                                              gsize             n_values);
void             tw_histogram_clear          (TwHistogram      *self);
guint64          tw_histogram_get_generation (TwHistogram      *self);

guint64          tw_histogram_get_count      (TwHistogram      *self);
double           tw_histogram_get_min        (TwHistogram      *self);
double           tw_histogram_get_max        (TwHistogram      *self);
double           tw_histogram_get_mean       (TwHistogram      *self);
double           tw_histogram_get_sum        (TwHistogram      *self);
double           tw_histogram_get_percentile (TwHistogram      *self,
                                              double            percent);

guint            tw_histogram_get_n_bins     (TwHistogram      *self);
guint64          tw_histogram_get_bin        (TwHistogram      *self,
                                              guint             bin,
                                              double           *lower,
                                              double           *upper);
guint64          tw_histogram_get_underflow  (TwHistogram      *self);
guint64          tw_histogram_get_overflow   (TwHistogram      *self);
gboolean         tw_histogram_get_range      (TwHistogram      *self,
                                              double           *lower,
                                              double           *upper);

char            *tw_histogram_format_value   (TwHistogram      *self,
                                              double            value);
char            *tw_histogram_format_text    (TwHistogram      *self,
                                              guint             bar_width);

G_END_DECLS
