/* test-run-comparison.c: sample statistics, two-sample tests, run comparison and gates
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <tw-evaluators.h>

/* Ties on purpose: lengths in a trace repeat (clock granularity). */
static double *
random_sample (GRand *rand,
               gsize  n,
               int    lo,
               int    hi)
{
  double *values = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    values[i] = g_rand_int_range (rand, lo, hi);
  tw_sample_sort (values, n);
  return values;
}

static void
test_percentiles_match_histogram (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree double *values = random_sample (rand, 1001, 0, 5000);
  g_autoptr(TwHistogram) histogram = tw_histogram_new_auto (10, TW_HISTOGRAM_SCALE_LINEAR);
  TwSampleStats stats;

  tw_histogram_insert_many (histogram, values, 1001);
  tw_sample_stats_compute (values, 1001, &stats);
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_N], ==, 1001);
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_MIN], ==, tw_histogram_get_min (histogram));
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_MAX], ==, tw_histogram_get_max (histogram));
  g_assert_cmpfloat_with_epsilon (stats.value[TW_SAMPLE_STAT_MEAN],
                                  tw_histogram_get_mean (histogram), 1e-9);
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_P50], ==, tw_histogram_get_percentile (histogram, 50));
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_P99], ==, tw_histogram_get_percentile (histogram, 99));
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_P999], ==,
                     tw_histogram_get_percentile (histogram, 99.9));

  tw_sample_stats_compute (NULL, 0, &stats);
  g_assert_cmpfloat (stats.value[TW_SAMPLE_STAT_N], ==, 0);
  g_assert_true (isnan (stats.value[TW_SAMPLE_STAT_P99]));
}

/* 1…5 against 6…10: U = 0; the textbook normal approximation with continuity gives
 * z = −2.5067 and p = 0.012186. */
static void
test_mann_whitney_textbook (void)
{
  const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
  TwMannWhitney mw;

  tw_mann_whitney_compute (a, 5, b, 5, &mw);
  g_assert_cmpfloat (mw.u, ==, 0);
  g_assert_cmpfloat_with_epsilon (mw.z, -2.5067, 1e-4);
  g_assert_cmpfloat_with_epsilon (mw.p_value, 0.012186, 1e-6);

  tw_mann_whitney_compute (b, 5, a, 5, &mw);
  g_assert_cmpfloat (mw.u, ==, 25);
  g_assert_cmpfloat_with_epsilon (mw.p_value, 0.012186, 1e-6);

  tw_mann_whitney_compute (a, 5, a, 5, &mw);
  g_assert_cmpfloat (mw.p_value, ==, 1.0);
  tw_mann_whitney_compute (a, 5, NULL, 0, &mw);
  g_assert_true (isnan (mw.p_value));
}

/* U counts the pairs (a, b) with a > b, ties ½: checked against that definition on
 * samples full of ties, and U_A + U_B = n_A n_B. */
static void
test_mann_whitney_ties (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);

  for (int round = 0; round < 20; round++)
    {
      gsize n_a = g_rand_int_range (rand, 1, 60), n_b = g_rand_int_range (rand, 1, 60);
      g_autofree double *a = random_sample (rand, n_a, 0, 8);
      g_autofree double *b = random_sample (rand, n_b, 0, 8);
      TwMannWhitney ab, ba;
      double pairs = 0;

      for (gsize i = 0; i < n_a; i++)
        for (gsize j = 0; j < n_b; j++)
          pairs += a[i] > b[j] ? 1 : a[i] == b[j] ? 0.5 : 0;
      tw_mann_whitney_compute (a, n_a, b, n_b, &ab);
      tw_mann_whitney_compute (b, n_b, a, n_a, &ba);
      g_assert_cmpfloat (ab.u, ==, pairs);
      g_assert_cmpfloat (ab.u + ba.u, ==, (double) n_a * n_b);
      if (!isnan (ab.p_value))
        g_assert_cmpfloat_with_epsilon (ab.p_value, ba.p_value, 1e-12);
    }
}

static void
test_kolmogorov_smirnov (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  double a[100], b[100];
  TwKolmogorovSmirnov ks;

  /* 0…99 against 19…118: D = 0.19; with n = m = 100 Kolmogorov's distribution at
   * λ = (√50 + 0.12 + 0.11/√50) · 0.19 = 1.3693 gives p = 0.04705 */
  for (int i = 0; i < 100; i++)
    {
      a[i] = i;
      b[i] = i + 19;
    }
  tw_kolmogorov_smirnov_compute (a, 100, b, 100, &ks);
  g_assert_cmpfloat_with_epsilon (ks.d, 0.19, 1e-12);
  g_assert_cmpfloat_with_epsilon (ks.p_value, 0.047047, 1e-5);

  tw_kolmogorov_smirnov_compute (a, 100, a, 100, &ks);
  g_assert_cmpfloat (ks.d, ==, 0);
  g_assert_cmpfloat (ks.p_value, ==, 1.0);

  /* D is the largest distance of the two step functions, looked for at every value */
  for (int round = 0; round < 20; round++)
    {
      gsize n_a = g_rand_int_range (rand, 1, 50), n_b = g_rand_int_range (rand, 1, 50);
      g_autofree double *x = random_sample (rand, n_a, 0, 10);
      g_autofree double *y = random_sample (rand, n_b, 0, 10);
      double d = 0;

      for (int v = 0; v < 10; v++)
        {
          double fa = 0, fb = 0;

          for (gsize i = 0; i < n_a; i++)
            fa += x[i] <= v;
          for (gsize j = 0; j < n_b; j++)
            fb += y[j] <= v;
          d = MAX (d, fabs (fa / n_a - fb / n_b));
        }
      tw_kolmogorov_smirnov_compute (x, n_a, y, n_b, &ks);
      g_assert_cmpfloat_with_epsilon (ks.d, d, 1e-12);
      g_assert_true (ks.p_value >= 0 && ks.p_value <= 1);
    }
}

/* A trace with tasks "ctl" (two threads), "log" and, in run B, "new". */
static TwTrace *
make_trace (gboolean with_new_task,
            guint32 *tasks)
{
  TwTrace *trace = tw_trace_new ();
  const char *names[] = { "ctl", "ctl", "log", "new" };

  for (guint i = 0; i < (with_new_task ? 4u : 3u); i++)
    {
      g_autofree char *id = g_strdup_printf ("%u", 100 + i + (with_new_task ? 50 : 0));

      tasks[i] = tw_trace_add_task (trace, id, names[i], 100 + i, 100 + i);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static void
append (TwMeasurementTable *table,
        guint32             task,
        guint64             length)
{
  TwMeasurementRow row = { .task = task, .begin = 0, .end = length, .length = length };

  tw_measurement_table_append (table, &row, NULL);
}

static void
test_groups_by_task_name (void)
{
  guint32 ta[4], tb[4];
  g_autoptr(TwTrace) trace_a = make_trace (FALSE, ta);
  g_autoptr(TwTrace) trace_b = make_trace (TRUE, tb);
  g_autoptr(TwMeasurementTable) a = tw_measurement_table_new (NULL);
  g_autoptr(TwMeasurementTable) b = tw_measurement_table_new (NULL);
  g_autoptr(TwRunComparison) cmp = NULL;
  g_autoptr(TwHistogram) ha = NULL, hb = NULL;
  double absolute, relative;
  guint ctl, log, fresh;

  append (a, ta[0], 100);
  append (a, ta[1], 300);   /* the other "ctl" thread: same group */
  append (a, ta[2], 1000);
  append (a, TW_TASK_NONE, 5);
  append (b, tb[0], 200);
  append (b, tb[1], 400);
  append (b, tb[2], 900);
  append (b, tb[3], 50);

  cmp = tw_run_comparison_new (a, trace_a, b, trace_b);
  g_assert_cmpuint (tw_run_comparison_get_n_groups (cmp), ==, 4);
  g_assert_null (tw_run_comparison_get_group_name (cmp, 0));
  g_assert_true (tw_run_comparison_find_group (cmp, "ctl", &ctl));
  g_assert_true (tw_run_comparison_find_group (cmp, "log", &log));
  g_assert_true (tw_run_comparison_find_group (cmp, "new", &fresh));
  g_assert_false (tw_run_comparison_find_group (cmp, "nope", &fresh));
  g_assert_cmpuint (ctl, ==, 1);   /* name order */
  g_assert_cmpstr (tw_run_comparison_get_group_name (cmp, 3), ==, "new");

  /* group 0: every measurement, the one of no task too */
  g_assert_cmpfloat (tw_run_comparison_get_stats (cmp, 0, TW_RUN_A)->value[TW_SAMPLE_STAT_N], ==, 4);
  g_assert_cmpfloat (tw_run_comparison_get_stats (cmp, 0, TW_RUN_A)->value[TW_SAMPLE_STAT_MIN], ==, 5);
  g_assert_cmpfloat (tw_run_comparison_get_stats (cmp, ctl, TW_RUN_A)->value[TW_SAMPLE_STAT_N], ==, 2);
  g_assert_cmpfloat (tw_run_comparison_get_stats (cmp, ctl, TW_RUN_B)->value[TW_SAMPLE_STAT_MEAN], ==, 300);
  tw_run_comparison_get_delta (cmp, ctl, TW_SAMPLE_STAT_MAX, &absolute, &relative);
  g_assert_cmpfloat (absolute, ==, 100);
  g_assert_cmpfloat_with_epsilon (relative, 1.0 / 3, 1e-12);
  tw_run_comparison_get_delta (cmp, fresh, TW_SAMPLE_STAT_MAX, &absolute, &relative);
  g_assert_true (isnan (absolute) && isnan (relative));

  /* the two histograms of a group share their bins */
  ha = tw_run_comparison_new_histogram (cmp, 0, TW_RUN_A, 8, TW_HISTOGRAM_SCALE_LINEAR);
  hb = tw_run_comparison_new_histogram (cmp, 0, TW_RUN_B, 8, TW_HISTOGRAM_SCALE_LINEAR);
  for (guint i = 0; i < 8; i++)
    {
      double la, ua, lb, ub;

      tw_histogram_get_bin (ha, i, &la, &ua);
      tw_histogram_get_bin (hb, i, &lb, &ub);
      g_assert_cmpfloat (la, ==, lb);
      g_assert_cmpfloat (ua, ==, ub);
    }
  g_assert_cmpuint (tw_histogram_get_count (ha), ==, 4);
  g_assert_cmpuint (tw_histogram_get_count (hb), ==, 4);
  g_assert_cmpuint (tw_histogram_get_underflow (hb) + tw_histogram_get_overflow (hb), ==, 0);
}

static void
test_gates (void)
{
  guint32 ta[4], tb[4];
  g_autoptr(TwTrace) trace_a = make_trace (FALSE, ta);
  g_autoptr(TwTrace) trace_b = make_trace (TRUE, tb);
  g_autoptr(TwMeasurementTable) a = tw_measurement_table_new (NULL);
  g_autoptr(TwMeasurementTable) b = tw_measurement_table_new (NULL);
  g_autoptr(TwRunComparison) cmp = NULL;
  const char *bad[] = { "p99", "p98>+1%", ">5us", "max>+5", "max>+5 parsecs", "n>+5us", "max>x%" };
  TwComparisonGate gate;
  guint fresh;

  /* max 100 µs → 110 µs (+10 %, +10 µs); n 1 → 1 */
  append (a, ta[0], 100000);
  append (b, tb[0], 110000);
  cmp = tw_run_comparison_new (a, trace_a, b, trace_b);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (tw_comparison_gate_parse (bad[i], &gate, &error));
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      g_assert_nonnull (strstr (error->message, bad[i]));
    }

  g_assert_true (tw_comparison_gate_parse ("p99>+10%", &gate, NULL));
  g_assert_true (gate.stat == TW_SAMPLE_STAT_P99 && gate.above && gate.relative);
  g_assert_true (tw_comparison_gate_check (&gate, cmp, 0, NULL));       /* exactly +10 % */
  g_assert_true (tw_comparison_gate_parse ("p99 > 9.9 %", &gate, NULL));
  {
    g_autofree char *failure = NULL;

    g_assert_false (tw_comparison_gate_check (&gate, cmp, 0, &failure));
    g_assert_cmpstr (failure, ==, "p99 changed by +10.0 % (A 100.000 µs, B 110.000 µs); "
                                  "at most +9.9 % allowed");
  }
  g_assert_true (tw_comparison_gate_parse ("max>+50us", &gate, NULL));
  g_assert_cmpfloat (gate.limit, ==, 50000);
  g_assert_true (tw_comparison_gate_check (&gate, cmp, 0, NULL));
  g_assert_true (tw_comparison_gate_parse ("max>9.5µs", &gate, NULL));
  g_assert_false (tw_comparison_gate_check (&gate, cmp, 0, NULL));
  g_assert_true (tw_comparison_gate_parse ("mean<-5%", &gate, NULL));
  g_assert_true (tw_comparison_gate_check (&gate, cmp, 0, NULL));
  g_assert_true (tw_comparison_gate_parse ("median<+20%", &gate, NULL));
  g_assert_false (tw_comparison_gate_check (&gate, cmp, 0, NULL));
  g_assert_true (tw_comparison_gate_parse ("n<-1", &gate, NULL));
  g_assert_true (tw_comparison_gate_check (&gate, cmp, 0, NULL));

  /* a group one run has no measurement of cannot pass */
  append (b, tb[3], 50);
  g_clear_object (&cmp);
  cmp = tw_run_comparison_new (a, trace_a, b, trace_b);
  g_assert_true (tw_run_comparison_find_group (cmp, "new", &fresh));
  g_assert_true (tw_comparison_gate_parse ("max>+1s", &gate, NULL));
  g_assert_false (tw_comparison_gate_check (&gate, cmp, fresh, NULL));
  g_assert_true (tw_comparison_gate_check (&gate, cmp, 0, NULL));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tw/evaluators/compare/percentiles", test_percentiles_match_histogram);
  g_test_add_func ("/tw/evaluators/compare/mann-whitney-textbook", test_mann_whitney_textbook);
  g_test_add_func ("/tw/evaluators/compare/mann-whitney-ties", test_mann_whitney_ties);
  g_test_add_func ("/tw/evaluators/compare/kolmogorov-smirnov", test_kolmogorov_smirnov);
  g_test_add_func ("/tw/evaluators/compare/groups", test_groups_by_task_name);
  g_test_add_func ("/tw/evaluators/compare/gates", test_gates);
  return g_test_run ();
}
