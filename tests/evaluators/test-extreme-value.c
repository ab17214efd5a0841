/* test-extreme-value.c: the Gumbel tail fitted to block maxima, and its checks
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <tw-evaluators.h>

/* x = μ − β ln(−ln U): Gumbel by inversion */
static double *
gumbel_sample (GRand  *rand,
               gsize   n,
               double  location,
               double  scale)
{
  double *x = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    x[i] = location - scale * log (-log (g_rand_double_range (rand, 1e-12, 1.0)));
  return x;
}

/* Maxima drawn from a known Gumbel (blocks of one): the fit finds its parameters, and
 * the quantiles are the distribution's. */
static void
test_recovers_gumbel (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autofree double *x = gumbel_sample (rand, 20000, 1000, 50);
  g_autoptr(GError) error = NULL;
  TwTailFit fit;
  double q9;

  g_assert_true (tw_tail_fit_compute (x, 20000, 1, &fit, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (fit.n_blocks, ==, 20000);
  g_assert_cmpfloat_with_epsilon (fit.location, 1000, 2);
  g_assert_cmpfloat_with_epsilon (fit.scale, 50, 1.5);
  g_assert_cmpfloat (fit.fit_p_value, >, 0.01);
  g_assert_cmpfloat (fit.independence_p_value, >, 0.001);
  /* the value exceeded with probability 1e-9 is μ − β ln(−ln(1 − 1e-9)) ≈ μ + 20.72 β */
  q9 = tw_tail_fit_exceeded_with (&fit, 1e-9);
  g_assert_cmpfloat_with_epsilon (q9, fit.location + fit.scale * 20.7233, 0.01);
  g_assert_cmpfloat (tw_tail_fit_exceeded_with (&fit, 1e-6), <, q9);
}

/* Blocks of 50 uniform lengths: b = 50 enters the per-measurement probability. */
static void
test_block_probability (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  gsize n = 50 * 400;
  g_autofree double *x = g_new (double, n);
  TwTailFit fit;
  double q;

  for (gsize i = 0; i < n; i++)
    x[i] = 100 + g_rand_double_range (rand, 0, 10) + g_rand_double_range (rand, 0, 10);
  g_assert_true (tw_tail_fit_compute (x, n, 50, &fit, NULL));
  g_assert_cmpuint (fit.block_size, ==, 50);
  g_assert_cmpuint (fit.n_blocks, ==, 400);
  g_assert_cmpfloat (fit.observed_max, <=, 120);
  /* probability 1/50 a measurement is 1 − (1 − 1/50)^50 ≈ 0.636 a block: near the
   * median of the block maxima */
  q = tw_tail_fit_exceeded_with (&fit, 1.0 / 50);
  g_assert_cmpfloat (q, ==, fit.location - fit.scale * log (-log1p (-(-expm1 (50 * log1p (-1.0 / 50))))));
  g_assert_cmpfloat (tw_tail_fit_exceeded_with (&fit, 1e-9), >, fit.observed_max);
}

/* A trend (lengths growing with time) is not independent: the runs test says so. */
static void
test_independence (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  gsize n = 5000;
  g_autofree double *x = g_new (double, n);
  TwTailFit fit;

  for (gsize i = 0; i < n; i++)
    x[i] = i + g_rand_double_range (rand, 0, 100);
  g_assert_true (tw_tail_fit_compute (x, n, 50, &fit, NULL));
  g_assert_cmpfloat (fit.independence_p_value, <, 1e-6);
}

static void
test_refusals (void)
{
  double few[19 * 50], flat[40 * 5];
  g_autoptr(GError) error = NULL;
  TwTailFit fit;

  for (guint i = 0; i < G_N_ELEMENTS (few); i++)
    few[i] = i;
  for (guint i = 0; i < G_N_ELEMENTS (flat); i++)
    flat[i] = 7;
  g_assert_false (tw_tail_fit_compute (few, G_N_ELEMENTS (few), 50, &fit, &error));
  g_assert_error (error, TW_TAIL_FIT_ERROR, TW_TAIL_FIT_ERROR_TOO_FEW);
  g_assert_nonnull (strstr (error->message, "950 measurements make 19 blocks of 50"));
  g_clear_error (&error);
  g_assert_false (tw_tail_fit_compute (flat, G_N_ELEMENTS (flat), 5, &fit, &error));
  g_assert_error (error, TW_TAIL_FIT_ERROR, TW_TAIL_FIT_ERROR_DEGENERATE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tw/evaluators/tail/recovers-gumbel", test_recovers_gumbel);
  g_test_add_func ("/tw/evaluators/tail/block-probability", test_block_probability);
  g_test_add_func ("/tw/evaluators/tail/independence", test_independence);
  g_test_add_func ("/tw/evaluators/tail/refusals", test_refusals);
  return g_test_run ();
}
