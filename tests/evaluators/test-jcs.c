/* test-jcs.c: jitter-constrained stream math against the paper and a brute-force simulation
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The simulation below does not use the closed forms: it builds element times from the
 * stream's definition (Riegel 2005 §4.2: period T, distance >= D, earliness <= τ) and runs a
 * monitor that behaves as the paper's worst case does (§4.2.1, Fig. 11): at the start of
 * each period it checks the buffer in zero time and sees only elements produced strictly
 * before that instant, takes at most R of the oldest, and finishes evaluating them all at
 * the deadline. Latencies and backlogs are measured with ε → 0 (evaluation ends exactly at
 * kT_M + d, and an element produced exactly then is not yet evaluated), which is what the
 * paper's strong bounds l(R) and b_max(R) describe.
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-test-utils.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include <sys/wait.h>

#define SEC G_GINT64_CONSTANT (1000000000)

typedef struct {
  gint64  max_latency;  /* max over elements of (end of its evaluation − its production) */
  gint64  max_backlog;  /* max over time of produced − evaluated */
} SimResult;

/* With @rand, a monitor that is not always the worst one: each period it checks at a
 * random time before its deadline and ends its evaluations at a random time between the
 * check and the deadline. Without, the paper's worst case. */
static SimResult
simulate_monitor (const gint64 *t,
                  gsize         n,
                  gint64        T_M,
                  gint64        d,
                  guint64       R,
                  GRand        *rand)
{
  SimResult result = { 0, 0 };
  gsize next = 0, seen = 0, produced = 0;

  /* The monitor starts at 0 with an empty buffer; its check at 0 sees nothing. */
  for (gint64 k = 1; next < n; k++)
    {
      gint64 check = k * T_M + (rand ? g_rand_int_range (rand, 0, (gint32) d) : 0);
      gint64 done = rand ? check + g_rand_int_range (rand, 0, (gint32) (k * T_M + d - check) + 1)
                         : check + d;
      gsize take;

      while (seen < n && t[seen] < check)
        seen++;
      while (produced < n && t[produced] < done)
        produced++;
      /* Right before this period's evaluations end: the largest backlog since the
       * previous end, because between two ends elements only arrive. */
      result.max_backlog = MAX (result.max_backlog, (gint64) (produced - next));
      take = MIN ((gsize) R, seen - next);
      for (gsize e = next; e < next + take; e++)
        result.max_latency = MAX (result.max_latency, done - t[e]);
      next += take;
    }
  return result;
}

static SimResult
simulate (const gint64 *t,
          gsize         n,
          gint64        T_M,
          gint64        d,
          guint64       R)
{
  return simulate_monitor (t, n, T_M, d, R, NULL);
}

/* The dense stream of Fig. 10: the first element on time at @offset, every later one as
 * early as the distance D and the earliness τ allow. Built greedily from the definition,
 * not from eq. (6). */
static void
make_dense_stream (const TwJcsStream *s,
                   gint64             offset,
                   gint64            *t,
                   gsize              n)
{
  t[0] = offset;
  for (gsize e = 1; e < n; e++)
    t[e] = MAX (t[e - 1] + s->D, offset + (gint64) e * s->T - s->tau);
}

/* Any stream the parameters allow: element e in [max(t[e−1] + D, eT − τ), eT] relative to
 * a reference point, biased towards the edges so bursts after gaps are common. */
static void
make_random_stream (const TwJcsStream *s,
                    GRand             *rand,
                    gint64             offset,
                    gint64            *t,
                    gsize              n)
{
  gint64 first = 0;

  for (gsize e = 0; e < n; e++)
    {
      gint64 lo = (gint64) e * s->T - s->tau;
      gint64 hi = (gint64) e * s->T;

      if (e > 0)
        lo = MAX (lo, t[e - 1] + s->D);
      switch (g_rand_int_range (rand, 0, 4))
        {
        case 0:
          t[e] = lo;
          break;
        case 1:
          t[e] = hi;
          break;
        default:
          t[e] = g_rand_int_range (rand, 0, (gint32) (hi - lo + 1)) + lo;
          break;
        }
    }
  first = t[0];
  for (gsize e = 0; e < n; e++)
    t[e] += offset - first;
}

/* The stream's definition, checked independently of how the times were built. */
static void
assert_stream_valid (const TwJcsStream *s,
                     const gint64      *t,
                     gsize              n)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;

  for (gsize e = 0; e < n; e++)
    {
      if (e > 0)
        g_assert_cmpint (t[e] - t[e - 1], >=, s->D);
      lo = MIN (lo, t[e] - (gint64) e * s->T);
      hi = MAX (hi, t[e] - (gint64) e * s->T);
    }
  g_assert_cmpint (hi - lo, <=, s->tau);
}

/* Streams built from the definition never trip the monitor's arrival check. */
static void
assert_arrivals_conform (const TwJcs  *jcs,
                         const gint64 *t,
                         gsize         n)
{
  TwJcsArrivals arrivals;

  tw_jcs_arrivals_init (&arrivals);
  for (gsize e = 0; e < n; e++)
    g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, jcs, t[e]), ==, TW_JCS_ARRIVAL_OK);
}

/* Most elements in any half-open window of length @w. */
static guint64
max_in_window (const gint64 *t,
               gsize         n,
               gint64        w)
{
  guint64 best = 0;
  gsize j = 0;

  for (gsize i = 0; i < n; i++)
    {
      j = MAX (j, i);
      while (j < n && t[j] < t[i] + w)
        j++;
      best = MAX (best, (guint64) (j - i));
    }
  return best;
}

static void
init_or_die (TwJcs  *jcs,
             gint64  T,
             gint64  D,
             gint64  tau,
             gint64  T_M,
             gint64  d)
{
  g_autoptr(GError) error = NULL;
  TwJcsStream stream = { T, D, tau };
  TwJcsMonitor monitor = { T_M, d };

  g_assert_true (tw_jcs_init (jcs, &stream, &monitor, &error));
  g_assert_no_error (error);
}

/* §4.2.1, Figs. 10–12: a dense (3, 2, 3, 0)-stream and a monitor with T_M = 5, d = 4. The
 * paper's numbers are unit-free; run them in ns and in seconds. */
static void
test_paper_example (void)
{
  /* Fig. 10: elements at 0, 2, 4, 6 (the burst), then 9, 12, 15, ... E(t) counts the
   * ones strictly before t. */
  static const guint64 E_hand[] = { 0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7 };
  static const gint64 units[] = { 1, SEC };

  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    {
      gint64 s = units[u];
      g_autoptr(GError) error = NULL;
      TwJcsBacklog backlog;
      TwJcs jcs;
      guint64 R = 0;

      init_or_die (&jcs, 3 * s, 2 * s, 3 * s, 5 * s, 4 * s);

      g_assert_cmpuint (jcs.L, ==, 4);              /* Fig. 10: a burst of four */
      for (guint t = 0; t < G_N_ELEMENTS (E_hand); t++)
        g_assert_cmpuint (tw_jcs_elements_before (&jcs, t * s), ==, E_hand[t]);
      g_assert_cmpint (jcs.l_min, ==, 9 * s);       /* eq. (1): T_M + d */
      g_assert_cmpuint (jcs.R_min, ==, 2);          /* "R_min is 2 and R_max is 3" */
      g_assert_cmpuint (jcs.R_max, ==, 3);

      /* "the configuration shown in Figure 11 yields k_b = 0, k_a = 1, and b_a = 4" */
      for (R = jcs.R_min; R <= jcs.R_max; R++)
        {
          g_assert_cmpint (tw_jcs_max_backlog (&jcs, R, &backlog), ==, 4);
          g_assert_cmpint (backlog.k_b, ==, 0);
          g_assert_false (backlog.has_b_b);
          g_assert_cmpint (backlog.k_a, ==, 1);
          g_assert_cmpint (backlog.b_a, ==, 4);
        }

      /* "If R is equal to R_max, then l is equal to l_min"; with R = 2 eq. (18) gives
       * 9 + max(1·(5 − 4), 2·(5 − 6) + 3) = 10 (by hand from Fig. 11: element 2, produced
       * at 4, is evaluated by the end of the third period, 14 − ε). */
      g_assert_cmpint (tw_jcs_latency (&jcs, 3), ==, 9 * s);
      g_assert_cmpint (tw_jcs_latency (&jcs, 4), ==, 9 * s);
      g_assert_cmpint (tw_jcs_latency (&jcs, 2), ==, 10 * s);
      g_assert_cmpint (tw_jcs_latency (&jcs, 1), ==, TW_JCS_UNBOUNDED);
      g_assert_cmpint (tw_jcs_max_backlog (&jcs, 1, NULL), ==, TW_JCS_UNBOUNDED);

      /* B(l) = E(l), eq. (3): elements before 9 are 0, 2, 4, 6; before 10 also 9. */
      g_assert_cmpuint (tw_jcs_buffer_size (&jcs, 9 * s), ==, 4);
      g_assert_cmpuint (tw_jcs_buffer_size (&jcs, 10 * s), ==, 5);

      g_assert_true (tw_jcs_rate_for_latency (&jcs, 9 * s, &R, &error));
      g_assert_cmpuint (R, ==, 3);
      g_assert_true (tw_jcs_rate_for_latency (&jcs, 10 * s - 1, &R, &error));
      g_assert_cmpuint (R, ==, 3);
      g_assert_true (tw_jcs_rate_for_latency (&jcs, 10 * s, &R, &error));
      g_assert_cmpuint (R, ==, 2);
      g_assert_true (tw_jcs_rate_for_latency (&jcs, 1000 * s, &R, &error));
      g_assert_cmpuint (R, ==, 2);
      g_assert_no_error (error);
      g_assert_false (tw_jcs_rate_for_latency (&jcs, 9 * s - 1, &R, &error));
      g_assert_error (error, TW_JCS_ERROR, TW_JCS_ERROR_INFEASIBLE);
    }
}

/* Fig. 11 by simulation: the worst case reaches the numbers above exactly. */
static void
test_paper_example_simulated (void)
{
  TwJcsStream stream = { 3, 2, 3 };
  gint64 t[40];
  SimResult r;

  make_dense_stream (&stream, 0, t, G_N_ELEMENTS (t));
  g_assert_cmpint (t[3], ==, 6);
  g_assert_cmpint (t[4], ==, 9);
  g_assert_cmpint (t[5], ==, 12);

  r = simulate (t, G_N_ELEMENTS (t), 5, 4, 3);
  g_assert_cmpint (r.max_latency, ==, 9);  /* l_min, reached by element 0 */
  g_assert_cmpint (r.max_backlog, ==, 4);
  r = simulate (t, G_N_ELEMENTS (t), 5, 4, 2);
  g_assert_cmpint (r.max_latency, ==, 10);
  g_assert_cmpint (r.max_backlog, ==, 4);
}

/* Eq. (21) prints ⌊⌋ where eq. (20) says E(), which is ⌈⌉ (eq. 2). With d = 5 instead of 4
 * the printed ⌊(k_a T_M + d + τ)/T⌋ = ⌊13/3⌋ = 4, but five elements (at 0, 2, 4, 6, 9)
 * wait before the first evaluation ends at 10 − ε. */
static void
test_backlog_rounding (void)
{
  TwJcsStream stream = { 3, 2, 3 };
  TwJcsBacklog backlog;
  gint64 t[40];
  TwJcs jcs;

  init_or_die (&jcs, 3, 2, 3, 5, 5);
  make_dense_stream (&stream, 0, t, G_N_ELEMENTS (t));
  for (guint64 R = jcs.R_min; R <= jcs.R_max; R++)
    {
      g_assert_cmpint (simulate (t, G_N_ELEMENTS (t), 5, 5, R).max_backlog, ==, 5);
      g_assert_cmpint (tw_jcs_max_backlog (&jcs, R, &backlog), ==, 5);
      g_assert_cmpint (backlog.k_a, ==, 1);
      g_assert_cmpint (backlog.b_a, ==, 5);
      g_assert_cmpint ((1 * 5 + 5 + 3) / 3, ==, 4);  /* the printed floor, one short */
    }
}

/* Footnote 27: eqs. (22)–(23) assume R < R_max. At R = R_max the k_b/k_a rules would give
 * max(b_b, b_a) = max(4, 3) here, but the monitor then drains every period and the backlog
 * peaks before its first evaluation: E(T_M + d) = 5 elements (0, 2, 4, 6, 8). */
static void
test_backlog_at_max_rate (void)
{
  TwJcsStream stream = { 3, 2, 10 };
  TwJcsBacklog backlog;
  gint64 t[60];
  TwJcs jcs;

  init_or_die (&jcs, 3, 2, 10, 5, 5);
  g_assert_cmpuint (jcs.L, ==, 11);
  g_assert_cmpuint (jcs.R_max, ==, 3);
  g_assert_cmpint (tw_jcs_max_backlog (&jcs, 3, &backlog), ==, 5);
  g_assert_cmpint (backlog.k_b, ==, 3);
  g_assert_cmpint (backlog.k_a, ==, 4);
  g_assert_cmpint (backlog.b_b, ==, 4);
  g_assert_cmpint (backlog.b_a, ==, 3);
  g_assert_cmpuint (tw_jcs_buffer_size (&jcs, jcs.l_min), ==, 5);
  make_dense_stream (&stream, 0, t, G_N_ELEMENTS (t));
  g_assert_cmpint (simulate (t, G_N_ELEMENTS (t), 5, 5, 3).max_backlog, ==, 5);
  /* Below R_max the paper's rules hold: with R = 2, b_b = ⌈20/2⌉ − 2·2 = 6 and
   * b_a = ⌈35/3⌉ − 2·3 = 6, while b(1) = ⌈10/2⌉ = 5. */
  g_assert_cmpint (tw_jcs_max_backlog (&jcs, 2, &backlog), ==, 6);
  g_assert_cmpint (backlog.b_b, ==, 6);
  g_assert_cmpint (backlog.b_a, ==, 6);
  g_assert_cmpint (simulate (t, G_N_ELEMENTS (t), 5, 5, 2).max_backlog, ==, 6);
}

/* Random parameters in small integer units, so windows and ties happen often. */
static void
random_params (GRand  *rand,
               gint64 *p)
{
  gint64 T = g_rand_int_range (rand, 1, 21);
  gint64 T_M = g_rand_int_range (rand, 1, 61);

  p[0] = T;
  /* D = T, D = 0 and τ = 0 are edge cases worth hitting often. */
  switch (g_rand_int_range (rand, 0, 6))
    {
    case 0:
      p[1] = T;
      break;
    case 1:
      p[1] = 0;
      break;
    default:
      p[1] = g_rand_int_range (rand, 0, (gint32) T + 1);
      break;
    }
  p[2] = g_rand_boolean (rand) ? g_rand_int_range (rand, 0, 61) : g_rand_int_range (rand, 0, 8);
  p[3] = T_M;
  p[4] = g_rand_boolean (rand) ? T_M : g_rand_int_range (rand, 1, (gint32) T_M + 1);
}

/* A handful of R values in [R_min, R_max + 1], always including the ends. */
static GArray *
pick_rates (GRand       *rand,
            const TwJcs *jcs)
{
  GArray *rates = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 span = jcs->R_max + 1 - jcs->R_min;

  if (span <= 12)
    for (guint64 R = jcs->R_min; R <= jcs->R_max + 1; R++)
      g_array_append_val (rates, R);
  else
    {
      const guint64 ends[] = { jcs->R_min, jcs->R_min + 1, jcs->R_max - 1, jcs->R_max,
                               jcs->R_max + 1 };

      g_array_append_vals (rates, ends, G_N_ELEMENTS (ends));
      for (guint i = 0; i < 8; i++)
        {
          guint64 R = jcs->R_min + (guint64) g_rand_int_range (rand, 0, (gint32) span);
          g_array_append_val (rates, R);
        }
    }
  return rates;
}

/* Closed forms vs. simulation over many random parameter sets: (a) no stream the
 * parameters allow and no phase of the monitor exceeds l(R), b_max(R) or B(l(R)); (b) the
 * paper's worst case (dense stream, the monitor's first check exactly at its first
 * element) reaches l(R) and b_max(R) exactly, and E(t) exactly. */
static void
test_simulation (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20051);
  guint n_sets = g_test_thorough () ? 3000 : 600;
  guint64 n_tight_latency = 0, n_burst_cases = 0;

  for (guint set = 0; set < n_sets; set++)
    {
      gint64 p[5];
      TwJcs jcs;
      TwJcsStream stream;
      g_autoptr(GArray) rates = NULL;
      g_autofree gint64 *dense = NULL;
      g_autofree gint64 *other = NULL;
      gsize n;

      random_params (rand, p);
      init_or_die (&jcs, p[0], p[1], p[2], p[3], p[4]);
      stream = jcs.stream;
      /* Past the burst, the slowest drain at R_min and several periods of steady state. */
      n = jcs.L + 2 * jcs.R_max + (gsize) ((2 * p[2] + 20 * p[3]) / p[0]) + 20;
      dense = g_new (gint64, n);
      other = g_new (gint64, n);

      make_dense_stream (&stream, 0, dense, n);
      assert_stream_valid (&stream, dense, n);
      /* (b) for E: the dense stream has exactly E(t) elements before t. */
      for (gsize i = 0, t = 0; t <= (gsize) dense[n - 1]; t++)
        {
          while (i < n && dense[i] < (gint64) t)
            i++;
          g_assert_cmpuint (tw_jcs_elements_before (&jcs, (gint64) t), ==, i);
        }

      rates = pick_rates (rand, &jcs);
      for (guint r = 0; r < rates->len; r++)
        {
          guint64 R = g_array_index (rates, guint64, r);
          gint64 l = tw_jcs_latency (&jcs, R);
          gint64 b_max = tw_jcs_max_backlog (&jcs, R, NULL);
          gint64 B = (gint64) tw_jcs_buffer_size (&jcs, l);
          SimResult worst = simulate (dense, n, p[3], p[4], R);

          /* (b) */
          g_assert_cmpint (worst.max_latency, ==, l);
          g_assert_cmpint (worst.max_backlog, ==, b_max);
          n_tight_latency += l > jcs.l_min;
          n_burst_cases += R < jcs.R_max && jcs.L > 1;
          g_assert_cmpint (b_max, <=, B);

          /* (a): other phases and other streams */
          for (guint trial = 0; trial < 6; trial++)
            {
              gint64 offset = g_rand_int_range (rand, 0, (gint32) (2 * p[3]));
              SimResult sim;

              if (trial < 2)
                make_dense_stream (&stream, offset, other, n);
              else
                make_random_stream (&stream, rand, offset, other, n);
              assert_stream_valid (&stream, other, n);
              assert_arrivals_conform (&jcs, other, n);
              sim = simulate (other, n, p[3], p[4], R);
              g_assert_cmpint (sim.max_latency, <=, l);
              g_assert_cmpint (sim.max_backlog, <=, b_max);
              sim = simulate_monitor (other, n, p[3], p[4], R, rand);
              g_assert_cmpint (sim.max_latency, <=, l);
              g_assert_cmpint (sim.max_backlog, <=, b_max);
              if (trial == 2)
                for (gint64 w = 1; w <= 2 * p[3] + p[4]; w += 1 + w / 8)
                  g_assert_cmpuint (max_in_window (other, n, w), <=,
                                    tw_jcs_elements_before (&jcs, w));
            }
        }
    }
  /* The random sets must exercise the burst branch of eq. (18), not only l_min. */
  g_assert_cmpuint (n_burst_cases, >, n_sets / 4);
  g_assert_cmpuint (n_tight_latency, >, n_sets / 10);
}

/* The numbers are unit-free: scaling every parameter scales times and keeps counts. */
static void
test_scaling (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);

  for (guint set = 0; set < 500; set++)
    {
      gint64 p[5];
      gint64 scale = g_rand_boolean (rand) ? 1000 : 1000003;
      TwJcs small, big;

      random_params (rand, p);
      init_or_die (&small, p[0], p[1], p[2], p[3], p[4]);
      init_or_die (&big, p[0] * scale, p[1] * scale, p[2] * scale, p[3] * scale,
                   p[4] * scale);
      g_assert_cmpuint (small.L, ==, big.L);
      g_assert_cmpuint (small.R_min, ==, big.R_min);
      g_assert_cmpuint (small.R_max, ==, big.R_max);
      for (guint64 R = small.R_min; R <= small.R_max; R++)
        {
          g_assert_cmpint (tw_jcs_latency (&small, R) * scale, ==, tw_jcs_latency (&big, R));
          g_assert_cmpint (tw_jcs_max_backlog (&small, R, NULL), ==,
                           tw_jcs_max_backlog (&big, R, NULL));
        }
      for (gint64 t = 0; t < 4 * p[3]; t++)
        g_assert_cmpuint (tw_jcs_elements_before (&small, t), ==,
                          tw_jcs_elements_before (&big, t * scale));
    }
}

/* l(R) and b_max(R) never grow with R; l never drops below l_min and is l_min from R_max
 * on; the binary search returns the smallest R that meets a latency. */
static void
test_monotonic_and_search (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (1805);

  for (guint set = 0; set < 2000; set++)
    {
      gint64 p[5];
      TwJcs jcs;
      gint64 prev_l = TW_JCS_UNBOUNDED, prev_b = TW_JCS_UNBOUNDED;

      random_params (rand, p);
      if (g_rand_boolean (rand))
        for (guint i = 0; i < 5; i++)
          p[i] *= 997;
      init_or_die (&jcs, p[0], p[1], p[2], p[3], p[4]);
      g_assert_cmpuint (jcs.R_min, <=, jcs.R_max);
      g_assert_cmpint (tw_jcs_latency (&jcs, jcs.R_min - 1), ==, TW_JCS_UNBOUNDED);
      g_assert_cmpint (tw_jcs_max_backlog (&jcs, jcs.R_min - 1, NULL), ==, TW_JCS_UNBOUNDED);
      for (guint64 R = jcs.R_min; R <= jcs.R_max + 3; R++)
        {
          gint64 l = tw_jcs_latency (&jcs, R);
          gint64 b = tw_jcs_max_backlog (&jcs, R, NULL);

          g_assert_cmpint (l, <=, prev_l);
          g_assert_cmpint (l, >=, jcs.l_min);
          g_assert_cmpint (b, <=, prev_b);
          g_assert_cmpint (b, >=, 1);
          if (R >= jcs.R_max)
            {
              g_assert_cmpint (l, ==, jcs.l_min);
              g_assert_cmpuint (b, ==, tw_jcs_buffer_size (&jcs, jcs.l_min));
            }
          prev_l = l;
          prev_b = b;
        }

      for (guint i = 0; i < 10; i++)
        {
          g_autoptr(GError) error = NULL;
          gint64 worst = tw_jcs_latency (&jcs, jcs.R_min);
          gint64 latency = jcs.l_min + g_rand_int_range (rand, 0, (gint32) (worst - jcs.l_min + 3));
          guint64 R = 0, linear = jcs.R_min;

          g_assert_true (tw_jcs_rate_for_latency (&jcs, latency, &R, &error));
          g_assert_no_error (error);
          while (tw_jcs_latency (&jcs, linear) > latency)
            linear++;
          g_assert_cmpuint (R, ==, linear);
          g_assert_cmpint (tw_jcs_latency (&jcs, R), <=, latency);
          if (R > jcs.R_min)
            g_assert_cmpint (tw_jcs_latency (&jcs, R - 1), >, latency);
        }
    }
}

/* The pairwise definition (any two elements i > j of the current run: t_i − t_j >=
 * max((i − j)D, (i − j)T − τ)), O(n²), to check the O(1) incremental check against. */
static TwJcsArrival
brute_force_arrival (const TwJcsStream *s,
                     const gint64      *t,
                     gsize              start,
                     gsize              i)
{
  if (i == start)
    return TW_JCS_ARRIVAL_OK;
  if (t[i] < t[i - 1])
    return TW_JCS_ARRIVAL_BACKWARDS;
  if (t[i] - t[i - 1] < s->D)
    return TW_JCS_ARRIVAL_TOO_CLOSE;
  for (gsize j = start; j < i; j++)
    if (t[i] - t[j] < (gint64) (i - j) * s->T - s->tau)
      return TW_JCS_ARRIVAL_TOO_EARLY;
  return TW_JCS_ARRIVAL_OK;
}

static void
test_arrivals (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31337);
  TwJcsArrivals arrivals;
  TwJcs jcs;
  guint64 counts[TW_JCS_ARRIVAL_TOO_EARLY + 1] = { 0 };

  /* The paper's (3, 2, 3) stream: 0, 2, 4, 6 is its burst; 8 is one too early (the
   * earliest fifth element is at 4T − τ = 9), 11 after a restart at 8 is fine. */
  init_or_die (&jcs, 3, 2, 3, 5, 4);
  tw_jcs_arrivals_init (&arrivals);
  for (gint64 t = 0; t <= 6; t += 2)
    g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, t), ==, TW_JCS_ARRIVAL_OK);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 8), ==, TW_JCS_ARRIVAL_TOO_EARLY);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 11), ==, TW_JCS_ARRIVAL_OK);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 12), ==, TW_JCS_ARRIVAL_TOO_CLOSE);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 10), ==, TW_JCS_ARRIVAL_BACKWARDS);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, -1), ==, TW_JCS_ARRIVAL_OUT_OF_RANGE);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, G_MAXINT64), ==,
                   TW_JCS_ARRIVAL_OUT_OF_RANGE);
  /* A pause is allowed (the stream bounds the rate from above only), and then a burst
   * of L elements again. */
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 1000), ==, TW_JCS_ARRIVAL_OK);
  for (gint64 t = 1002; t <= 1006; t += 2)
    g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, t), ==, TW_JCS_ARRIVAL_OK);
  g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, 1008), ==, TW_JCS_ARRIVAL_TOO_EARLY);
  g_assert_cmpstr (tw_jcs_arrival_to_string (TW_JCS_ARRIVAL_TOO_EARLY), ==,
                   "earlier than the period and tau allow");

  /* Random sequences, some conforming and some not, against the pairwise definition. */
  for (guint set = 0; set < 400; set++)
    {
      gint64 p[5];
      gint64 t[300];
      gsize start = 0;

      random_params (rand, p);
      init_or_die (&jcs, p[0], p[1], p[2], p[3], p[4]);
      tw_jcs_arrivals_init (&arrivals);
      t[0] = g_rand_int_range (rand, 0, 100);
      for (gsize i = 1; i < G_N_ELEMENTS (t); i++)
        t[i] = t[i - 1] + g_rand_int_range (rand, -1, (gint32) (2 * p[0] + 2));
      for (gsize i = 0; i < G_N_ELEMENTS (t); i++)
        {
          TwJcsArrival expected = brute_force_arrival (&jcs.stream, t, start, i);

          g_assert_cmpint (tw_jcs_arrivals_add (&arrivals, &jcs, t[i]), ==, expected);
          counts[expected]++;
          if (expected != TW_JCS_ARRIVAL_OK)
            start = i;
        }
    }
  /* Every verdict but OUT_OF_RANGE occurred often enough to mean something. */
  g_assert_cmpuint (counts[TW_JCS_ARRIVAL_OK], >, 10000);
  g_assert_cmpuint (counts[TW_JCS_ARRIVAL_BACKWARDS], >, 100);
  g_assert_cmpuint (counts[TW_JCS_ARRIVAL_TOO_CLOSE], >, 100);
  g_assert_cmpuint (counts[TW_JCS_ARRIVAL_TOO_EARLY], >, 100);
}

static void
assert_invalid (gint64      T,
                gint64      D,
                gint64      tau,
                gint64      T_M,
                gint64      d,
                TwJcsError  code,
                const char *fragment)
{
  g_autoptr(GError) error = NULL;
  TwJcsStream stream = { T, D, tau };
  TwJcsMonitor monitor = { T_M, d };
  TwJcs jcs;

  g_assert_false (tw_jcs_init (&jcs, &stream, &monitor, &error));
  g_assert_error (error, TW_JCS_ERROR, (gint) code);
  g_assert_nonnull (strstr (error->message, fragment));
}

static void
test_invalid (void)
{
  assert_invalid (0, 0, 0, 5, 4, TW_JCS_ERROR_INVALID, "T = 0 s is invalid");
  assert_invalid (-3, 0, 0, 5, 4, TW_JCS_ERROR_INVALID, "T = -3e-09 s");
  assert_invalid (3, 4, 0, 5, 4, TW_JCS_ERROR_INVALID, "D must be between 0 and T");
  assert_invalid (3, -1, 0, 5, 4, TW_JCS_ERROR_INVALID, "D = ");
  assert_invalid (3, 2, -1, 5, 4, TW_JCS_ERROR_INVALID, "tau must be >= 0");
  assert_invalid (3, 2, 3, 0, 0, TW_JCS_ERROR_INVALID, "T_M must be > 0");
  assert_invalid (3, 2, 3, 5, 0, TW_JCS_ERROR_INVALID, "d must be > 0 and <= T_M");
  assert_invalid (3, 2, 3, 5, 6, TW_JCS_ERROR_INVALID, "d = 6e-09 s");
  /* One ns less than a period between elements and a year of earliness: L = 3.2e16. */
  assert_invalid (SEC, SEC - 1, 365 * 86400 * SEC, SEC, SEC, TW_JCS_ERROR_TOO_LARGE,
                  "too large");
  assert_invalid (G_MAXINT64 / 2, 1, 0, G_MAXINT64 / 2, 1, TW_JCS_ERROR_TOO_LARGE,
                  "too large");
}

/* D = T: no two elements closer than a period, so no burst whatever τ says. */
static void
test_distance_equals_period (void)
{
  TwJcs with_tau, without;
  TwJcsStream stream = { 4, 4, 0 };
  gint64 t[64];

  init_or_die (&with_tau, 4, 4, 11, 10, 7);
  init_or_die (&without, 4, 4, 0, 10, 7);
  g_assert_cmpuint (with_tau.L, ==, 1);
  g_assert_cmpint (with_tau.stream.tau, ==, 0);
  g_assert_cmpuint (with_tau.R_min, ==, 3);
  g_assert_cmpuint (with_tau.R_max, ==, 3);
  for (gint64 x = 0; x < 40; x++)
    g_assert_cmpuint (tw_jcs_elements_before (&with_tau, x), ==, (x + 3) / 4);
  g_assert_cmpint (tw_jcs_latency (&with_tau, 3), ==, 17);
  g_assert_cmpint (tw_jcs_max_backlog (&with_tau, 3, NULL), ==, 5);  /* ⌈17/4⌉ */
  make_dense_stream (&stream, 0, t, G_N_ELEMENTS (t));
  g_assert_cmpint (simulate (t, G_N_ELEMENTS (t), 10, 7, 3).max_backlog, ==, 5);
  g_assert_cmpint (simulate (t, G_N_ELEMENTS (t), 10, 7, 3).max_latency, ==, 17);
}

static JsonObject *
run_cli_json (const char * const *args,
              JsonParser         *parser)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "jcs");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, (gpointer) "--json");
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, &error));
  g_assert_no_error (error);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli_json (void)
{
  static const char * const example[] = { "--T", "3", "--D", "2", "--tau", "3", "--TM", "5",
                                          "--d", "4", NULL };
  static const char * const latency[] = { "--T", "3s", "--D", "2000ms", "--tau", "3",
                                          "--TM", "5", "--d", "4", "--latency", "10", NULL };
  static const char * const lateness[] = { "--T", "3", "--D", "2", "--tau", "1",
                                           "--tau-late", "2", "--TM", "5", "--d", "4", NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) parser2 = json_parser_new ();
  g_autoptr(JsonParser) parser3 = json_parser_new ();
  JsonObject *o;

  if (!g_getenv ("TW_CLI"))
    {
      g_test_skip ("TW_CLI is not set (run through meson test)");
      return;
    }

  o = run_cli_json (example, parser);
  g_assert_cmpint (json_object_get_int_member (o, "L"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "R_min"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "R_max"), ==, 3);
  g_assert_cmpfloat (json_object_get_double_member (o, "l_min"), ==, 9.0);
  g_assert_cmpint (json_object_get_int_member (o, "R"), ==, 3);
  g_assert_cmpfloat (json_object_get_double_member (o, "l"), ==, 9.0);
  g_assert_cmpint (json_object_get_int_member (o, "B"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "k_b"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "k_a"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "b_max"), ==, 4);

  o = run_cli_json (latency, parser2);
  g_assert_cmpint (json_object_get_int_member (o, "R"), ==, 2);
  g_assert_cmpfloat (json_object_get_double_member (o, "l"), ==, 10.0);
  g_assert_cmpint (json_object_get_int_member (o, "l_ns"), ==, 10 * SEC);
  g_assert_cmpint (json_object_get_int_member (o, "B"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (o, "b_max"), ==, 4);

  /* (T, D, τ, τ') = (3, 2, 1, 2) is the paper's (3, 2, 3, 0) stream. */
  o = run_cli_json (lateness, parser3);
  g_assert_cmpint (json_object_get_int_member (o, "L"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "R_max"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (o, "b_max"), ==, 4);
}

static void
assert_cli_fails (const char * const *args,
                  const char         *fragment)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = -1;

  g_ptr_array_add (argv, (gpointer) cli);
  g_ptr_array_add (argv, (gpointer) "jcs");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, fragment));
}

static void
test_cli_errors (void)
{
  static const char * const zero_period[] = { "--T", "0", "--D", "0", "--tau", "3",
                                              "--TM", "5", "--d", "4", "--json", NULL };
  static const char * const negative[] = { "--T", "3", "--D", "2", "--tau", "-1ms",
                                            "--TM", "5", "--d", "4", NULL };
  static const char * const too_low[] = { "--T", "3", "--D", "2", "--tau", "3",
                                           "--TM", "5", "--d", "4", "--latency", "8.5",
                                           "--json", NULL };
  static const char * const not_a_duration[] = { "--T", "3 parsecs", "--D", "2", "--tau", "3",
                                                  "--TM", "5", "--d", "4", NULL };
  static const char * const late_deadline[] = { "--T", "3", "--D", "2", "--tau", "3",
                                                 "--TM", "5", "--d", "6", NULL };

  if (!g_getenv ("TW_CLI"))
    {
      g_test_skip ("TW_CLI is not set (run through meson test)");
      return;
    }
  assert_cli_fails (zero_period, "T = 0 s is invalid: T must be > 0");
  assert_cli_fails (negative, "tau = -0.001 s is invalid");
  assert_cli_fails (too_low, "a latency of 8.5 s is impossible");
  assert_cli_fails (too_low, "l_min = T_M + d = 9 s");
  assert_cli_fails (not_a_duration, "--T “3 parsecs” is not a duration");
  assert_cli_fails (late_deadline, "d must be > 0 and <= T_M");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/jcs/paper-example", test_paper_example);
  g_test_add_func ("/tw/evaluators/jcs/paper-example-simulated", test_paper_example_simulated);
  g_test_add_func ("/tw/evaluators/jcs/backlog-rounding", test_backlog_rounding);
  g_test_add_func ("/tw/evaluators/jcs/backlog-at-max-rate", test_backlog_at_max_rate);
  g_test_add_func ("/tw/evaluators/jcs/simulation", test_simulation);
  g_test_add_func ("/tw/evaluators/jcs/scaling", test_scaling);
  g_test_add_func ("/tw/evaluators/jcs/monotonic-and-search", test_monotonic_and_search);
  g_test_add_func ("/tw/evaluators/jcs/arrivals", test_arrivals);
  g_test_add_func ("/tw/evaluators/jcs/invalid", test_invalid);
  g_test_add_func ("/tw/evaluators/jcs/distance-equals-period", test_distance_equals_period);
  g_test_add_func ("/tw/evaluators/jcs/cli-json", test_cli_json);
  g_test_add_func ("/tw/evaluators/jcs/cli-errors", test_cli_errors);

  return g_test_run ();
}
