/* tw-histogram-snapshot.h: a copy of a histogram's bins and statistics, for drawing
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-evaluators.h>

G_BEGIN_DECLS

/**
 * TwHistogramSnapshot:
 *
 * What the painter draws: a copy of a histogram's bins and statistics, O(bins) to take
 * (percentiles excepted when @exact_percentiles), so a live view never touches values.
 * @edges has @n_bins + 1 entries. Percentiles are NaN when the histogram is empty.
 * Only the occupied bins are kept: snapshot bin b is histogram bin @first_bin + b.
 */
typedef struct {
  guint             first_bin;
  guint             n_bins;
  guint64          *bins;
  double           *edges;
  TwHistogramScale  scale;
  char             *unit;
  guint64           count;
  guint64           underflow;
  guint64           overflow;
  double            min;
  double            max;
  double            mean;
  double            percentiles[4];      /* p50, p90, p99, p99.9 */
  gboolean          exact_percentiles;   /* FALSE: estimated from the bins */
  guint64           generation;
} TwHistogramSnapshot;

TwHistogramSnapshot *tw_histogram_snapshot_new   (TwHistogram         *histogram,
                                                  gboolean             exact_percentiles);
TwHistogramSnapshot *tw_histogram_snapshot_new_from_bins (const guint64 *bins,
                                                  guint                n_bins,
                                                  double               low,
                                                  double               width,
                                                  guint64              count,
                                                  double               min,
                                                  double               max,
                                                  double               mean,
                                                  const char          *unit);
void                 tw_histogram_snapshot_free  (TwHistogramSnapshot *snapshot);
char                *tw_histogram_snapshot_to_csv (const TwHistogramSnapshot *snapshot);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwHistogramSnapshot, tw_histogram_snapshot_free)

G_END_DECLS
