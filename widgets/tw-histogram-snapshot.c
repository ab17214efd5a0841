/* tw-histogram-snapshot.c: a copy of a histogram's bins and statistics, for drawing
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-histogram-snapshot.h"

static const double PERCENTS[4] = { 50, 90, 99, 99.9 };

/* Nearest-rank percentile from the bins: linear inside the bin that holds the rank,
 * the exact min/max when the rank falls among the values outside the range. */
static double
estimate_percentile (const TwHistogramSnapshot *s,
                     double                     percent)
{
  guint64 rank;
  guint64 seen;

  if (s->count == 0)
    return NAN;
  rank = (guint64) MAX (1.0, ceil (percent / 100.0 * (double) s->count - 1e-9));
  if (rank <= s->underflow)
    return s->min;
  seen = s->underflow;
  for (guint b = 0; b < s->n_bins; b++)
    {
      if (s->bins[b] > 0 && rank <= seen + s->bins[b])
        {
          double f = (double) (rank - seen) / (double) s->bins[b];
          double v = s->edges[b] + f * (s->edges[b + 1] - s->edges[b]);
          return CLAMP (v, s->min, s->max);
        }
      seen += s->bins[b];
    }
  return s->max;
}

/**
 * tw_histogram_snapshot_new:
 * @histogram: the histogram
 * @exact_percentiles: compute exact percentiles (O(values) the first time after an
 *   insert); %FALSE estimates them from the bins
 *
 * Returns: (transfer full): a copy of @histogram's occupied bins (from the first to the
 *   last non-empty one) and its statistics
 */
TwHistogramSnapshot *
tw_histogram_snapshot_new (TwHistogram *histogram,
                           gboolean     exact_percentiles)
{
  TwHistogramSnapshot *s;

  g_return_val_if_fail (TW_IS_HISTOGRAM (histogram), NULL);

  guint n_all = tw_histogram_get_n_bins (histogram);
  guint first = n_all, last = 0;

  /* Empty bins at both ends are left out: an automatic log histogram spans whole
   * decades, and the data may sit in a few of its bins. */
  for (guint b = 0; b < n_all; b++)
    if (tw_histogram_get_bin (histogram, b, NULL, NULL) > 0)
      {
        first = MIN (first, b);
        last = b;
      }
  s = g_new0 (TwHistogramSnapshot, 1);
  /* nothing in range: no bins (an automatic histogram has no edges yet) */
  s->first_bin = first == n_all ? 0 : first;
  s->n_bins = first == n_all ? 0 : last - first + 1;
  s->bins = g_new0 (guint64, MAX (s->n_bins, 1));
  s->edges = g_new0 (double, s->n_bins + 1);
  s->scale = tw_histogram_get_scale (histogram);
  s->unit = g_strdup (tw_histogram_get_unit (histogram));
  s->count = tw_histogram_get_count (histogram);
  s->underflow = tw_histogram_get_underflow (histogram);
  s->overflow = tw_histogram_get_overflow (histogram);
  s->min = tw_histogram_get_min (histogram);
  s->max = tw_histogram_get_max (histogram);
  s->mean = tw_histogram_get_mean (histogram);
  s->generation = tw_histogram_get_generation (histogram);
  for (guint b = 0; b < s->n_bins; b++)
    {
      double lower = 0, upper = 0;

      s->bins[b] = tw_histogram_get_bin (histogram, first + b, &lower, &upper);
      s->edges[b] = lower;
      s->edges[b + 1] = upper;
    }
  s->exact_percentiles = exact_percentiles;
  for (guint p = 0; p < G_N_ELEMENTS (PERCENTS); p++)
    s->percentiles[p] = exact_percentiles ? tw_histogram_get_percentile (histogram, PERCENTS[p])
                                          : estimate_percentile (s, PERCENTS[p]);
  return s;
}

/**
 * tw_histogram_snapshot_free:
 * @snapshot: (nullable): a snapshot
 */
/**
 * tw_histogram_snapshot_new_from_bins:
 * @bins: (array length=n_bins): counts of equal bins from @low, @width apart
 * @count: all values, those outside the bins included (counted as overflow: the range
 *   of an automatic histogram covers every value, so there are none then)
 *
 * A snapshot of a histogram known only by its bins and statistics: one a monitor on a
 * target sent (`tracewb:histogram`). Percentiles are estimated from the bins.
 *
 * Returns: (transfer full): the snapshot
 */
TwHistogramSnapshot *
tw_histogram_snapshot_new_from_bins (const guint64 *bins,
                                     guint          n_bins,
                                     double         low,
                                     double         width,
                                     guint64        count,
                                     double         min,
                                     double         max,
                                     double         mean,
                                     const char    *unit)
{
  TwHistogramSnapshot *s = g_new0 (TwHistogramSnapshot, 1);
  guint first = n_bins, last = 0;
  guint64 in_bins = 0;

  /* as tw_histogram_snapshot_new(): the empty bins at both ends are left out */
  if (isfinite (low) && isfinite (width) && width > 0)
    for (guint b = 0; b < n_bins; b++)
      if (bins[b] > 0)
        {
          first = MIN (first, b);
          last = b;
        }
  s->first_bin = first == n_bins ? 0 : first;
  s->n_bins = first == n_bins ? 0 : last - first + 1;
  s->bins = g_new0 (guint64, MAX (s->n_bins, 1));
  s->edges = g_new0 (double, s->n_bins + 1);
  for (guint b = 0; b < s->n_bins; b++)
    {
      s->bins[b] = bins[first + b];
      s->edges[b] = low + (first + b) * width;
      in_bins += s->bins[b];
    }
  s->edges[s->n_bins] = low + (first + s->n_bins) * width;
  s->scale = TW_HISTOGRAM_SCALE_LINEAR;
  s->unit = g_strdup (unit);
  s->count = count;
  s->overflow = count > in_bins ? count - in_bins : 0;
  s->min = count ? min : NAN;
  s->max = count ? max : NAN;
  s->mean = count ? mean : NAN;
  for (guint p = 0; p < G_N_ELEMENTS (PERCENTS); p++)
    s->percentiles[p] = estimate_percentile (s, PERCENTS[p]);
  return s;
}

void
tw_histogram_snapshot_free (TwHistogramSnapshot *snapshot)
{
  if (snapshot == NULL)
    return;
  g_free (snapshot->bins);
  g_free (snapshot->edges);
  g_free (snapshot->unit);
  g_free (snapshot);
}

/**
 * tw_histogram_snapshot_to_csv:
 * @snapshot: a snapshot
 *
 * The bins as CSV: `lower,upper,count`, values in the histogram's unit, then the
 * values below and above the range as `underflow` and `overflow` rows.
 *
 * Returns: (transfer full): the CSV text
 */
char *
tw_histogram_snapshot_to_csv (const TwHistogramSnapshot *snapshot)
{
  GString *csv = g_string_new ("lower,upper,count\n");
  char lo[G_ASCII_DTOSTR_BUF_SIZE], hi[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (snapshot != NULL, NULL);

  /* the values outside the range, named in the first column */
  g_string_append_printf (csv, "underflow,,%" G_GUINT64_FORMAT "\n", snapshot->underflow);
  for (guint b = 0; b < snapshot->n_bins; b++)
    g_string_append_printf (csv, "%s,%s,%" G_GUINT64_FORMAT "\n",
                            g_ascii_dtostr (lo, sizeof lo, snapshot->edges[b]),
                            g_ascii_dtostr (hi, sizeof hi, snapshot->edges[b + 1]),
                            snapshot->bins[b]);
  g_string_append_printf (csv, "overflow,,%" G_GUINT64_FORMAT "\n", snapshot->overflow);
  return g_string_free (csv, FALSE);
}

