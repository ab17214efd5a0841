/* tw-sample-stats.h: summary statistics of a sample and two-sample tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What comparing two runs needs beyond a histogram: the order statistics a real-time
 * engineer quotes (p99, p99.9, max), and whether two samples of lengths come from the
 * same distribution at all. Everything works on samples sorted ascending, so that one
 * sort serves the quantiles and both tests.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TW_SAMPLE_STAT_N = 0,
  TW_SAMPLE_STAT_MIN,
  TW_SAMPLE_STAT_MEAN,
  TW_SAMPLE_STAT_P50,
  TW_SAMPLE_STAT_P99,
  TW_SAMPLE_STAT_P999,
  TW_SAMPLE_STAT_MAX,
  TW_N_SAMPLE_STATS,
} TwSampleStat;

/* value[TW_SAMPLE_STAT_N] is the count; the others are NaN for an empty sample */
typedef struct {
  double value[TW_N_SAMPLE_STATS];
} TwSampleStats;

typedef struct {
  double u;        /* U of the first sample: pairs (a, b) with a > b, ties counted ½ */
  double z;        /* normal approximation, tie-corrected, with continuity correction */
  double p_value;  /* two-sided; NaN when a sample is empty or every value is equal */
} TwMannWhitney;

typedef struct {
  double d;        /* the largest distance between the two empirical distributions */
  double p_value;  /* asymptotic (Kolmogorov's distribution); NaN when a sample is empty */
} TwKolmogorovSmirnov;

const char *tw_sample_stat_get_name      (TwSampleStat         stat);
gboolean    tw_sample_stat_from_name     (const char          *name,
                                          TwSampleStat        *stat);

void        tw_sample_sort               (double              *values,
                                          gsize                n_values);
void        tw_sample_stats_compute      (const double        *sorted,
                                          gsize                n_values,
                                          TwSampleStats       *stats);
double      tw_sample_percentile         (const double        *sorted,
                                          gsize                n_values,
                                          double               percent);

char       *tw_sample_stat_format        (TwSampleStat         stat,
                                          double               value);
char       *tw_sample_stat_format_delta  (TwSampleStat         stat,
                                          double               absolute);
char       *tw_sample_stat_format_relative (double             relative);
char       *tw_p_value_format            (double               p_value);
const char *tw_p_value_describe          (double               p_value);

double      tw_kolmogorov_q              (double               lambda);

void        tw_mann_whitney_compute      (const double        *sorted_a,
                                          gsize                n_a,
                                          const double        *sorted_b,
                                          gsize                n_b,
                                          TwMannWhitney       *result);
void        tw_kolmogorov_smirnov_compute (const double       *sorted_a,
                                           gsize               n_a,
                                           const double       *sorted_b,
                                           gsize               n_b,
                                           TwKolmogorovSmirnov *result);

G_END_DECLS
