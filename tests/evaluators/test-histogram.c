/* test-histogram.c: bins, exact statistics and percentiles
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The nearest-rank percentile, computed here independently from a sorted copy. */
static double
reference_percentile (const double *sorted,
                      guint         n,
                      guint         permille)
{
  /* rank = ceil (permille · n / 1000) in integers, at least 1 */
  guint64 rank = ((guint64) permille * n + 999) / 1000;

  return sorted[MAX (rank, 1) - 1];
}

static void
test_fixed_bins (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (0, 100, 10, TW_HISTOGRAM_SCALE_LINEAR);
  static const double values[] = { -1, 0, 5, 9.999, 10, 55, 99, 100, 100.5, 250 };
  double lo, hi;

  tw_histogram_insert_many (h, values, G_N_ELEMENTS (values));

  g_assert_cmpuint (tw_histogram_get_count (h), ==, 10);
  g_assert_cmpuint (tw_histogram_get_underflow (h), ==, 1);  /* -1 */
  g_assert_cmpuint (tw_histogram_get_overflow (h), ==, 2);   /* 100.5, 250 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 0, &lo, &hi), ==, 3); /* 0, 5, 9.999 */
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 10);
  g_assert_cmpuint (tw_histogram_get_bin (h, 1, NULL, NULL), ==, 1); /* 10 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 5, NULL, NULL), ==, 1); /* 55 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 9, NULL, NULL), ==, 2); /* 99 and the top edge */
  g_assert_cmpfloat (tw_histogram_get_min (h), ==, -1);
  g_assert_cmpfloat (tw_histogram_get_max (h), ==, 250);
  g_assert_cmpfloat_with_epsilon (tw_histogram_get_mean (h),
                                  (-1 + 0 + 5 + 9.999 + 10 + 55 + 99 + 100 + 100.5 + 250) / 10,
                                  1e-12);
}

static void
test_log_bins (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (1, 1e6, 6, TW_HISTOGRAM_SCALE_LOG);
  static const double values[] = { 0, -5, 0.5, 1, 9, 10, 999, 1000, 12345, 999999, 1e6, 2e6 };
  double lo, hi;

  tw_histogram_insert_many (h, values, G_N_ELEMENTS (values));
  /* decades [1,10) [10,100) ... [1e5,1e6] */
  g_assert_cmpuint (tw_histogram_get_underflow (h), ==, 3);  /* 0, -5, 0.5 */
  g_assert_cmpuint (tw_histogram_get_overflow (h), ==, 1);   /* 2e6 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 0, &lo, &hi), ==, 2); /* 1, 9 */
  g_assert_cmpfloat_with_epsilon (lo, 1, 1e-9);
  g_assert_cmpfloat_with_epsilon (hi, 10, 1e-9);
  g_assert_cmpuint (tw_histogram_get_bin (h, 1, NULL, NULL), ==, 1); /* 10 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 2, NULL, NULL), ==, 1); /* 999 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 3, NULL, NULL), ==, 1); /* 1000 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 4, NULL, NULL), ==, 1); /* 12345 */
  g_assert_cmpuint (tw_histogram_get_bin (h, 5, &lo, &hi), ==, 2); /* 999999, 1e6 */
  g_assert_cmpfloat_with_epsilon (hi, 1e6, 1e-3);
}

static void
test_percentiles (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (64, TW_HISTOGRAM_SCALE_LINEAR);
  GRand *rand = g_rand_new_with_seed (42);
  guint n = 12345;
  g_autofree double *values = g_new (double, n);
  static const guint permilles[] = { 0, 1, 500, 900, 990, 999, 1000 };
  double sum = 0;

  for (guint i = 0; i < n; i++)
    {
      /* Integer nanoseconds with a long tail. */
      values[i] = floor (1000 + g_rand_double (rand) * 5000 +
                         (g_rand_int_range (rand, 0, 100) == 0 ? 1e6 * g_rand_double (rand) : 0));
      sum += values[i];
      tw_histogram_insert (h, values[i]);
    }
  g_rand_free (rand);
  qsort (values, n, sizeof (double), compare_double);

  g_assert_cmpuint (tw_histogram_get_count (h), ==, n);
  g_assert_cmpfloat (tw_histogram_get_min (h), ==, values[0]);
  g_assert_cmpfloat (tw_histogram_get_max (h), ==, values[n - 1]);
  g_assert_cmpfloat (tw_histogram_get_sum (h), ==, sum); /* integers: exact */
  g_assert_cmpfloat (tw_histogram_get_mean (h), ==, sum / n);
  for (guint p = 0; p < G_N_ELEMENTS (permilles); p++)
    g_assert_cmpfloat (tw_histogram_get_percentile (h, permilles[p] / 10.0), ==,
                       reference_percentile (values, n, permilles[p]));

  /* Nearest rank on a small set: p50 of 1..4 is 2, p99.9 of 1..1000 is 999. */
  {
    g_autoptr(TwHistogram) s = tw_histogram_new_auto (8, TW_HISTOGRAM_SCALE_LINEAR);

    for (guint i = 1000; i >= 1; i--)
      tw_histogram_insert (s, i);
    g_assert_cmpfloat (tw_histogram_get_percentile (s, 99.9), ==, 999);
    g_assert_cmpfloat (tw_histogram_get_percentile (s, 50), ==, 500);
    g_assert_cmpfloat (tw_histogram_get_percentile (s, 90), ==, 900);
  }
}

static void
test_empty (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (16, TW_HISTOGRAM_SCALE_LOG);
  g_autofree char *text = NULL;

  g_assert_cmpuint (tw_histogram_get_count (h), ==, 0);
  g_assert_true (isnan (tw_histogram_get_mean (h)));
  g_assert_true (isnan (tw_histogram_get_percentile (h, 50)));
  g_assert_false (tw_histogram_get_range (h, NULL, NULL));
  text = tw_histogram_format_text (h, 20);
  g_assert_nonnull (strstr (text, "count 0"));
}

static void
assert_same_bins (TwHistogram *a,
                  TwHistogram *b)
{
  double alo, ahi, blo, bhi;

  g_assert_cmpuint (tw_histogram_get_n_bins (a), ==, tw_histogram_get_n_bins (b));
  g_assert_true (tw_histogram_get_range (a, &alo, &ahi));
  g_assert_true (tw_histogram_get_range (b, &blo, &bhi));
  g_assert_cmpfloat (alo, ==, blo);
  g_assert_cmpfloat (ahi, ==, bhi);
  for (guint i = 0; i < tw_histogram_get_n_bins (a); i++)
    g_assert_cmpuint (tw_histogram_get_bin (a, i, NULL, NULL), ==,
                      tw_histogram_get_bin (b, i, NULL, NULL));
  g_assert_cmpuint (tw_histogram_get_underflow (a), ==, tw_histogram_get_underflow (b));
  g_assert_cmpuint (tw_histogram_get_overflow (a), ==, tw_histogram_get_overflow (b));
  g_assert_cmpfloat (tw_histogram_get_percentile (a, 99), ==, tw_histogram_get_percentile (b, 99));
  g_assert_cmpfloat (tw_histogram_get_percentile (a, 50), ==, tw_histogram_get_percentile (b, 50));
}

/* Live use: queries between inserts (sorting a prefix, fixing the auto range early) must
 * end in exactly what a batch insert gives. */
static void
test_incremental_equals_batch (void)
{
  for (int scale = 0; scale < 2; scale++)
    {
      g_autoptr(TwHistogram) live = tw_histogram_new_auto (32, scale);
      g_autoptr(TwHistogram) batch = tw_histogram_new_auto (32, scale);
      GRand *rand = g_rand_new_with_seed (7);
      guint n = 5000;
      g_autofree double *values = g_new (double, n);
      guint64 generation = tw_histogram_get_generation (live);

      for (guint i = 0; i < n; i++)
        values[i] = scale ? exp (g_rand_double_range (rand, 0, 20)) : g_rand_double_range (rand, -50, 1e5);
      g_rand_free (rand);

      for (guint i = 0; i < n; i++)
        {
          tw_histogram_insert (live, values[i]);
          if (i % 97 == 0)
            {
              g_autofree char *text = tw_histogram_format_text (live, 10);

              g_assert_cmpfloat (tw_histogram_get_percentile (live, 50), >=, tw_histogram_get_min (live));
            }
        }
      g_assert_cmpuint (tw_histogram_get_generation (live), !=, generation);
      tw_histogram_insert_many (batch, values, n);
      assert_same_bins (live, batch);

      /* Every value is in a bin: auto ranges grow instead of overflowing. */
      {
        guint64 total = tw_histogram_get_underflow (live) + tw_histogram_get_overflow (live);
        double lo, hi;

        for (guint i = 0; i < tw_histogram_get_n_bins (live); i++)
          total += tw_histogram_get_bin (live, i, NULL, NULL);
        g_assert_cmpuint (total, ==, n);
        g_assert_cmpuint (tw_histogram_get_overflow (live), ==, 0);
        tw_histogram_get_range (live, &lo, &hi);
        g_assert_cmpfloat (lo, <=, tw_histogram_get_min (live));
        g_assert_cmpfloat (hi, >, tw_histogram_get_max (live));
      }
    }
}

/* Auto bins double by merging pairs: check against counting each value's bin by hand. */
static void
test_auto_bins_counts (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (8, TW_HISTOGRAM_SCALE_LINEAR);
  static const double values[] = { 100, 101, 150, 3, 900, 77, 1023, 512 };
  double lo, hi;

  tw_histogram_insert_many (h, values, G_N_ELEMENTS (values));
  g_assert_true (tw_histogram_get_range (h, &lo, &hi));
  /* non-negative values: the grown range is the aligned one from 0, 8 bins of 128 */
  g_assert_cmpfloat (lo, ==, 0);
  g_assert_cmpfloat (hi, ==, 1024);
  for (guint b = 0; b < 8; b++)
    {
      double blo, bhi;
      guint64 expected = 0;
      guint64 count = tw_histogram_get_bin (h, b, &blo, &bhi);

      for (guint i = 0; i < G_N_ELEMENTS (values); i++)
        expected += values[i] >= blo && values[i] < bhi;
      g_assert_cmpuint (count, ==, expected);
    }
}

static void
test_text (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_fixed (0, 4000, 4, TW_HISTOGRAM_SCALE_LINEAR);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  tw_histogram_insert (h, 500);
  tw_histogram_insert (h, 1500);
  tw_histogram_insert (h, 1600);
  tw_histogram_insert (h, 3500);
  tw_histogram_insert (h, 5000);
  text = tw_histogram_format_text (h, 10);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 8);
  g_assert_cmpstr (lines[0], ==, "count 5  min 500 ns  mean 2.42 µs  max 5 µs");
  g_assert_cmpstr (lines[1], ==, "p50 1.6 µs  p90 5 µs  p99 5 µs  p99.9 5 µs");
  g_assert_cmpstr (lines[2], ==, "  [      0 ns,       1 µs) |#####      1");
  g_assert_cmpstr (lines[3], ==, "  [      1 µs,       2 µs) |########## 2");
  g_assert_cmpstr (lines[4], ==, "  [      2 µs,       3 µs) |           0");
  g_assert_cmpstr (lines[5], ==, "  [      3 µs,       4 µs] |#####      1");
  g_assert_cmpstr (lines[6], ==, "                    > 4 µs |#####      1");
  g_assert_cmpstr (lines[7], ==, "");
}

static void
test_unit_and_clear (void)
{
  g_autoptr(TwHistogram) h = tw_histogram_new_auto (4, TW_HISTOGRAM_SCALE_LINEAR);
  g_autofree char *v = NULL;
  g_autofree char *d = NULL;
  double lo;

  tw_histogram_insert (h, 1234567);
  d = tw_histogram_format_value (h, 1234567);
  g_assert_cmpstr (d, ==, "1.235 ms");
  tw_histogram_set_unit (h, "cycles");
  v = tw_histogram_format_value (h, 1234567);
  g_assert_cmpstr (v, ==, "1.23457e+06 cycles");

  tw_histogram_clear (h);
  g_assert_cmpuint (tw_histogram_get_count (h), ==, 0);
  g_assert_false (tw_histogram_get_range (h, NULL, NULL));
  /* the range starts afresh around the next value */
  tw_histogram_insert (h, -8);
  g_assert_true (tw_histogram_get_range (h, &lo, NULL));
  g_assert_cmpfloat (lo, <=, -8);
  g_assert_cmpfloat (lo, >, -100);
  g_assert_cmpfloat (tw_histogram_get_min (h), ==, -8);
  g_assert_cmpfloat (tw_histogram_get_sum (h), ==, -8);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/histogram/fixed-bins", test_fixed_bins);
  g_test_add_func ("/tw/evaluators/histogram/log-bins", test_log_bins);
  g_test_add_func ("/tw/evaluators/histogram/percentiles", test_percentiles);
  g_test_add_func ("/tw/evaluators/histogram/empty", test_empty);
  g_test_add_func ("/tw/evaluators/histogram/incremental-equals-batch", test_incremental_equals_batch);
  g_test_add_func ("/tw/evaluators/histogram/auto-bins", test_auto_bins_counts);
  g_test_add_func ("/tw/evaluators/histogram/text", test_text);
  g_test_add_func ("/tw/evaluators/histogram/unit-and-clear", test_unit_and_clear);

  return g_test_run ();
}
