/* tw-sample-stats.c: summary statistics of a sample and two-sample tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tw-sample-stats.h"

#include <glib/gi18n-lib.h>

static const char *const stat_names[TW_N_SAMPLE_STATS] = {
  "n", "min", "mean", "p50", "p99", "p99.9", "max",
};

const char *
tw_sample_stat_get_name (TwSampleStat stat)
{
  g_return_val_if_fail (stat < TW_N_SAMPLE_STATS, NULL);
  return stat_names[stat];
}

/* Also "median" and "p999", the spellings a shell script is likely to use. */
gboolean
tw_sample_stat_from_name (const char   *name,
                          TwSampleStat *stat)
{
  for (guint i = 0; i < TW_N_SAMPLE_STATS; i++)
    if (g_ascii_strcasecmp (name, stat_names[i]) == 0)
      {
        *stat = i;
        return TRUE;
      }
  if (g_ascii_strcasecmp (name, "median") == 0)
    *stat = TW_SAMPLE_STAT_P50;
  else if (g_ascii_strcasecmp (name, "p999") == 0)
    *stat = TW_SAMPLE_STAT_P999;
  else
    return FALSE;
  return TRUE;
}

/**
 * tw_sample_stat_format:
 *
 * Returns: (transfer full): a count as an integer, a length of ns in µs with three
 *   decimals (the unit of the Fig. 4 tables), "-" for NaN
 */
char *
tw_sample_stat_format (TwSampleStat stat,
                       double       value)
{
  if (isnan (value))
    return g_strdup ("-");
  if (stat == TW_SAMPLE_STAT_N)
    return g_strdup_printf ("%.0f", value);
  return g_strdup_printf ("%.3f", value / 1e3);
}

/* Returns: (transfer full): as tw_sample_stat_format(), with its sign */
char *
tw_sample_stat_format_delta (TwSampleStat stat,
                             double       absolute)
{
  if (isnan (absolute))
    return g_strdup ("-");
  if (stat == TW_SAMPLE_STAT_N)
    return g_strdup_printf ("%+.0f", absolute);
  return g_strdup_printf ("%+.3f", absolute / 1e3);
}

/* Returns: (transfer full): a ratio − 1 as a signed percentage, "-" for NaN */
char *
tw_sample_stat_format_relative (double relative)
{
  return isnan (relative) ? g_strdup ("-") : g_strdup_printf ("%+.1f %%", relative * 100);
}

/* Returns: (transfer full): "p = 0.0123", or "p < 1e-16" below a double's rounding */
char *
tw_p_value_format (double p_value)
{
  if (isnan (p_value))
    return g_strdup ("p = -");
  return p_value < 1e-16 ? g_strdup ("p < 1e-16") : g_strdup_printf ("p = %.3g", p_value);
}

/* Returns: what a reader should conclude, at the usual 1 % and 5 % levels */
const char *
tw_p_value_describe (double p_value)
{
  if (isnan (p_value))
    return _("cannot tell (a run has no measurement or all are equal)");
  if (p_value < 0.01)
    return _("differ (1 % level)");
  if (p_value < 0.05)
    return _("differ (5 % level)");
  return _("no significant difference");
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

void
tw_sample_sort (double *values,
                gsize   n_values)
{
  /* an empty GArray's data is NULL, which qsort may not be given */
  if (n_values > 1)
    qsort (values, n_values, sizeof *values, compare_doubles);
}

/**
 * tw_sample_percentile:
 *
 * By the nearest-rank method, as tw_histogram_get_percentile(): the value of rank
 * ⌈percent/100 · n⌉, so that a run's p99 here is the p99 its histogram shows.
 *
 * Returns: the percentile, NaN for an empty sample
 */
double
tw_sample_percentile (const double *sorted,
                      gsize         n_values,
                      double        percent)
{
  double rank;

  if (n_values == 0)
    return NAN;
  rank = ceil (percent / 100.0 * n_values - 1e-9);
  return sorted[(gsize) CLAMP (rank, 1.0, (double) n_values) - 1];
}

void
tw_sample_stats_compute (const double  *sorted,
                         gsize          n_values,
                         TwSampleStats *stats)
{
  double sum = 0;

  for (gsize i = 0; i < n_values; i++)
    sum += sorted[i];
  stats->value[TW_SAMPLE_STAT_N] = n_values;
  stats->value[TW_SAMPLE_STAT_MIN] = n_values ? sorted[0] : NAN;
  stats->value[TW_SAMPLE_STAT_MEAN] = n_values ? sum / n_values : NAN;
  stats->value[TW_SAMPLE_STAT_P50] = tw_sample_percentile (sorted, n_values, 50);
  stats->value[TW_SAMPLE_STAT_P99] = tw_sample_percentile (sorted, n_values, 99);
  stats->value[TW_SAMPLE_STAT_P999] = tw_sample_percentile (sorted, n_values, 99.9);
  stats->value[TW_SAMPLE_STAT_MAX] = n_values ? sorted[n_values - 1] : NAN;
}

/* Walks both sorted samples in one merge, a group of equal values at a time: the
 * ranks of the pooled sample (ties get their average rank) for Mann–Whitney, the two
 * empirical distribution functions for Kolmogorov–Smirnov. */
typedef struct {
  const double *a, *b;
  gsize n_a, n_b, i, j;
} SampleMerge;

/* Returns: FALSE when both are consumed; else the counts of the next group's value */
static gboolean
sample_merge_next (SampleMerge *m,
                   gsize       *count_a,
                   gsize       *count_b)
{
  double v;

  if (m->i == m->n_a && m->j == m->n_b)
    return FALSE;
  if (m->i == m->n_a)
    v = m->b[m->j];
  else if (m->j == m->n_b)
    v = m->a[m->i];
  else
    v = MIN (m->a[m->i], m->b[m->j]);
  *count_a = *count_b = 0;
  for (; m->i < m->n_a && m->a[m->i] == v; m->i++)
    (*count_a)++;
  for (; m->j < m->n_b && m->b[m->j] == v; m->j++)
    (*count_b)++;
  return TRUE;
}

/**
 * tw_mann_whitney_compute:
 *
 * The Mann–Whitney U test (Wilcoxon rank-sum): whether values of one sample tend to
 * be larger than those of the other, without assuming a distribution, which latency
 * samples never follow. Two-sided p-value by the normal approximation with the tie
 * correction of the variance and a continuity correction: good from about 20 values
 * a sample, and measurement tables hold thousands.
 */
void
tw_mann_whitney_compute (const double  *sorted_a,
                         gsize          n_a,
                         const double  *sorted_b,
                         gsize          n_b,
                         TwMannWhitney *result)
{
  SampleMerge m = { sorted_a, sorted_b, n_a, n_b, 0, 0 };
  double n = (double) n_a + n_b;
  double rank_sum_a = 0, ties = 0, below = 0;
  double mean, variance, distance;
  gsize ca, cb;

  while (sample_merge_next (&m, &ca, &cb))
    {
      double t = (double) ca + cb;

      rank_sum_a += ca * (below + (t + 1) / 2);
      ties += t * t * t - t;
      below += t;
    }
  result->u = rank_sum_a - (double) n_a * (n_a + 1) / 2;
  result->z = NAN;
  result->p_value = NAN;
  if (n_a == 0 || n_b == 0)
    return;
  mean = (double) n_a * n_b / 2;
  variance = (double) n_a * n_b / 12 * ((n + 1) - ties / (n * (n - 1)));
  if (variance <= 0)
    return;
  distance = fabs (result->u - mean);
  result->z = copysign (MAX (distance - 0.5, 0.0), result->u - mean) / sqrt (variance);
  result->p_value = MIN (1.0, erfc (fabs (result->z) / G_SQRT2));
}

/**
 * tw_kolmogorov_q:
 *
 * Q_KS(λ) = 2 Σ (−1)^(k−1) exp(−2 k² λ²): the probability that the scaled largest
 * distance of a sample from its distribution (or of two samples of one distribution)
 * exceeds λ.
 */
double
tw_kolmogorov_q (double lambda)
{
  double sum = 0, sign = 1;

  if (lambda < 0.2)
    return 1.0;
  for (int k = 1; k <= 100; k++)
    {
      double term = sign * exp (-2.0 * k * k * lambda * lambda);

      sum += term;
      if (fabs (term) < 1e-12 * fabs (sum))
        break;
      sign = -sign;
    }
  return CLAMP (2 * sum, 0.0, 1.0);
}

/**
 * tw_kolmogorov_smirnov_compute:
 *
 * The two-sample Kolmogorov–Smirnov test: sensitive to any difference of shape (a
 * second mode, a longer tail) where Mann–Whitney sees only a shift. Its p-value uses
 * Stephens' small-sample correction of the scaled distance.
 */
void
tw_kolmogorov_smirnov_compute (const double        *sorted_a,
                               gsize                n_a,
                               const double        *sorted_b,
                               gsize                n_b,
                               TwKolmogorovSmirnov *result)
{
  SampleMerge m = { sorted_a, sorted_b, n_a, n_b, 0, 0 };
  double seen_a = 0, seen_b = 0, en;
  gsize ca, cb;

  result->d = 0;
  result->p_value = NAN;
  if (n_a == 0 || n_b == 0)
    {
      result->d = NAN;
      return;
    }
  while (sample_merge_next (&m, &ca, &cb))
    {
      seen_a += ca;
      seen_b += cb;
      result->d = MAX (result->d, fabs (seen_a / n_a - seen_b / n_b));
    }
  en = sqrt ((double) n_a * n_b / ((double) n_a + n_b));
  result->p_value = tw_kolmogorov_q ((en + 0.12 + 0.11 / en) * result->d);
}
