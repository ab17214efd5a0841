/* tw-extreme-value.c: how sure is a worst case: an extreme-value tail fitted to lengths
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Block maxima of i.i.d. measurements tend to one of three extreme-value distributions;
 * execution and response times, bounded in practice, are fitted with the Gumbel one as
 * in measurement-based probabilistic timing analysis. Probability-weighted moments give
 * its parameters in closed form (no iteration that could fail to converge on a small
 * sample), which is why they are used here rather than maximum likelihood.
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tw-extreme-value.h"
#include "tw-sample-stats.h"

#define EULER_GAMMA 0.57721566490153286

G_DEFINE_QUARK (tw-tail-fit-error-quark, tw_tail_fit_error)

static double
gumbel_cdf (const TwTailFit *fit,
            double           x)
{
  return exp (-exp (-(x - fit->location) / fit->scale));
}

/* Kolmogorov–Smirnov distance of the sorted maxima from the fitted distribution. */
static double
fit_distance (const TwTailFit *fit,
              const double    *sorted,
              guint            n)
{
  double d = 0;

  for (guint i = 0; i < n; i++)
    {
      double f = gumbel_cdf (fit, sorted[i]);

      d = MAX (d, MAX (f - (double) i / n, (double) (i + 1) / n - f));
    }
  return d;
}

/* Wald–Wolfowitz: runs of lengths above / below the median, in measurement order; too
 * few runs mean neighbours resemble each other (a trend, a mode that lasts). */
static double
runs_test_p_value (const double *lengths,
                   gsize         n,
                   double        median)
{
  double above = 0, below = 0, runs = 0, mean, variance;
  int last = 0;

  for (gsize i = 0; i < n; i++)
    {
      int side = lengths[i] > median ? 1 : lengths[i] < median ? -1 : 0;

      if (side == 0)
        continue;
      if (side > 0)
        above++;
      else
        below++;
      if (side != last)
        runs++;
      last = side;
    }
  if (above == 0 || below == 0)
    return NAN;
  mean = 2 * above * below / (above + below) + 1;
  variance = (mean - 1) * (mean - 2) / (above + below - 1);
  if (variance <= 0)
    return NAN;
  return erfc (fabs (runs - mean) / sqrt (variance) / G_SQRT2);
}

/**
 * tw_tail_fit_compute:
 * @lengths: the lengths in the order they were measured (ns)
 * @block_size: measurements per block (50 is usual; each block's maximum is one sample)
 *
 * Returns: %FALSE with TW_TAIL_FIT_ERROR when the sample cannot carry a fit
 */
gboolean
tw_tail_fit_compute (const double  *lengths,
                     gsize          n_lengths,
                     guint          block_size,
                     TwTailFit     *fit,
                     GError       **error)
{
  guint n = block_size ? n_lengths / block_size : 0;
  g_autofree double *maxima = NULL;
  g_autofree double *sorted = NULL;
  double b0 = 0, b1 = 0, en;

  g_return_val_if_fail (block_size > 0, FALSE);

  if (n < TW_TAIL_FIT_MIN_BLOCKS)
    {
      g_set_error (error, TW_TAIL_FIT_ERROR, TW_TAIL_FIT_ERROR_TOO_FEW,
                   _("%" G_GSIZE_FORMAT " measurements make %u blocks of %u; a tail estimate "
                     "needs %u blocks"), n_lengths, n, block_size, TW_TAIL_FIT_MIN_BLOCKS);
      return FALSE;
    }
  maxima = g_new (double, n);
  fit->observed_max = -INFINITY;
  for (guint k = 0; k < n; k++)
    {
      maxima[k] = lengths[(gsize) k * block_size];
      for (guint i = 1; i < block_size; i++)
        maxima[k] = MAX (maxima[k], lengths[(gsize) k * block_size + i]);
    }
  for (gsize i = 0; i < n_lengths; i++)
    fit->observed_max = MAX (fit->observed_max, lengths[i]);
  tw_sample_sort (maxima, n);
  /* probability-weighted moments: b0 the mean, b1 = Σ (i/(n−1)) x_(i) / n */
  for (guint i = 0; i < n; i++)
    {
      b0 += maxima[i] / n;
      b1 += maxima[i] * i / (n - 1) / n;
    }
  fit->block_size = block_size;
  fit->n_blocks = n;
  fit->scale = (2 * b1 - b0) / G_LN2;
  fit->location = b0 - EULER_GAMMA * fit->scale;
  if (maxima[0] == maxima[n - 1] || !(fit->scale > 0))
    {
      g_set_error (error, TW_TAIL_FIT_ERROR, TW_TAIL_FIT_ERROR_DEGENERATE,
                   _("every block of %u measurements has the same maximum: no tail to fit"),
                   block_size);
      return FALSE;
    }
  en = sqrt ((double) n);
  fit->fit_p_value = tw_kolmogorov_q ((en + 0.12 + 0.11 / en) * fit_distance (fit, maxima, n));
  sorted = g_memdup2 (lengths, n_lengths * sizeof (double));
  tw_sample_sort (sorted, n_lengths);
  fit->independence_p_value = runs_test_p_value (lengths, n_lengths,
                                                 tw_sample_percentile (sorted, n_lengths, 50));
  return TRUE;
}

/**
 * tw_tail_fit_exceeded_with:
 * @probability: per measurement, e.g. 1e-9
 *
 * The length one measurement exceeds with @probability: a block of b exceeds it with
 * q = 1 − (1 − p)^b, and the Gumbel quantile of 1 − q is μ − β ln(−ln(1 − q)).
 *
 * Returns: the length in ns
 */
double
tw_tail_fit_exceeded_with (const TwTailFit *fit,
                           double           probability)
{
  /* log1p/expm1 keep 1 − (1 − p)^b exact for p near 1e-12 */
  double q = -expm1 (fit->block_size * log1p (-probability));

  return fit->location - fit->scale * log (-log1p (-q));
}
