/* tw-jcs.c: jitter-constrained streams — buffer sizes and monitor rates (Riegel 2005 §4.2)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every equation below is written out, with its number in the paper and the reading we
 * chose where the extracted text is ambiguous, in docs/jcs.md.
 */
#include "config.h"

#include "tw-jcs.h"

G_DEFINE_QUARK (tw-jcs-error-quark, tw_jcs_error)

/* Integer division rounding towards +∞ for any sign of a and b > 0. */
static gint64
ceil_div (gint64 a,
          gint64 b)
{
  gint64 q = a / b;

  return (a % b != 0 && a > 0) ? q + 1 : q;
}

/* Messages reach users of the CLI and the GUI: seconds read better than 10-digit ns. */
#define SECONDS(ns) ((double) (ns) / 1e9)

static gboolean
check_range (const char  *name,
             gint64       value,
             gboolean     ok,
             const char  *rule,
             GError     **error)
{
  if (!ok)
    g_set_error (error, TW_JCS_ERROR, TW_JCS_ERROR_INVALID,
                 "%s = %.9g s is invalid: %s must be %s", name, SECONDS (value), name, rule);
  return ok;
}

/**
 * tw_jcs_init:
 * @jcs: (out caller-allocates): what to fill
 * @stream: the sensor's jitter-constrained stream
 * @monitor: the monitor's period and deadline
 * @error: set when a parameter is outside its domain or the counts would overflow
 *
 * Validates the parameters against the domains of §4.2 (T > 0, 0 <= D <= T, τ >= 0,
 * T_M > 0, 0 < d <= T_M) and computes L, l_min, R_min and R_max.
 *
 * Returns: %TRUE when @jcs is filled
 */
gboolean
tw_jcs_init (TwJcs              *jcs,
             const TwJcsStream  *stream,
             const TwJcsMonitor *monitor,
             GError            **error)
{
  guint64 sum = 0;
  guint64 bound = 0;

  g_return_val_if_fail (jcs != NULL, FALSE);
  g_return_val_if_fail (stream != NULL, FALSE);
  g_return_val_if_fail (monitor != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_range ("T", stream->T, stream->T > 0, "> 0", error) ||
      !check_range ("D", stream->D, stream->D >= 0 && stream->D <= stream->T,
                    "between 0 and T", error) ||
      !check_range ("tau", stream->tau, stream->tau >= 0, ">= 0", error) ||
      !check_range ("T_M", monitor->T_M, monitor->T_M > 0, "> 0", error) ||
      !check_range ("d", monitor->d, monitor->d > 0 && monitor->d <= monitor->T_M,
                    "> 0 and <= T_M", error))
    return FALSE;

  jcs->stream = *stream;
  jcs->monitor = *monitor;

  /* With D = T no two elements can come closer than a period, so the earliness cannot
   * build a burst: the stream is the strictly periodic (T, T, 0) one, and L = 1 + τ/0
   * is better not evaluated (docs/jcs.md, "D = T"). */
  if (stream->D == stream->T)
    jcs->stream.tau = 0;

  /* Maximal burst: L = 1 + ⌊τ / (T − D)⌋ (§4.2.1, first unnumbered equation). */
  jcs->L = stream->D == stream->T
    ? 1
    : 1 + (guint64) (jcs->stream.tau / (stream->T - stream->D));

  /* Every later product is at most a small multiple of L times a sum of the parameters
   * (docs/jcs.md, "Integer range"); refuse what does not fit instead of wrapping. */
  const gint64 parts[] = { stream->T, stream->D, stream->tau, monitor->T_M, monitor->d };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (!g_uint64_checked_add (&sum, sum, (guint64) parts[i]))
      sum = G_MAXUINT64;
  if (!g_uint64_checked_mul (&bound, jcs->L + 2, sum) ||
      !g_uint64_checked_mul (&bound, bound, 4) ||
      bound > (guint64) G_MAXINT64)
    {
      g_set_error (error, TW_JCS_ERROR, TW_JCS_ERROR_TOO_LARGE,
                   "the stream and monitor parameters are too large to compute with "
                   "(burst length L = %" G_GUINT64_FORMAT "; T + D + tau + T_M + d must stay "
                   "below 2^61 / (L + 2) ns)", jcs->L);
      return FALSE;
    }

  jcs->l_min = monitor->T_M + monitor->d;                        /* eq. (1) */
  jcs->R_min = (guint64) ceil_div (monitor->T_M, stream->T);     /* eq. (4) */
  jcs->R_max = tw_jcs_elements_before (jcs, monitor->T_M);       /* eq. (5) */
  return TRUE;
}

/**
 * tw_jcs_elements_before:
 * @jcs: an initialised #TwJcs
 * @t: a time span, ns
 *
 * E(t), eq. (2): the largest number of elements the stream can produce in any
 * half-open interval of length @t (the dense stream produces them in [0, t)).
 *
 * Returns: E(@t); 0 for @t <= 0
 */
guint64
tw_jcs_elements_before (const TwJcs *jcs,
                        gint64       t)
{
  const TwJcsStream *s = &jcs->stream;

  if (t <= 0)
    return 0;
  if (t >= (gint64) jcs->L * s->D)
    /* ⌈(t + τ) / T⌉, split so that t + τ cannot overflow for any t. */
    return (guint64) (t / s->T + ceil_div (t % s->T + s->tau, s->T));
  /* t < LD implies D > 0 */
  return (guint64) ceil_div (t, s->D);
}

/**
 * tw_jcs_buffer_size:
 * @jcs: an initialised #TwJcs
 * @latency: the latency l the monitor guarantees, ns
 *
 * B(l) = E(l), eq. (3): output elements a sensor buffer needs when every element is
 * evaluated less than @latency after it was produced.
 *
 * Returns: B(@latency)
 */
guint64
tw_jcs_buffer_size (const TwJcs *jcs,
                    gint64       latency)
{
  return tw_jcs_elements_before (jcs, latency);
}

/**
 * tw_jcs_latency:
 * @jcs: an initialised #TwJcs
 * @R: elements the monitor evaluates per period
 *
 * l(R): eq. (18) for R_min <= R < R_max, l_min for R >= R_max, never below l_min.
 * Like the paper's l it is a strong bound: every element is evaluated strictly less
 * than l(R) after it was produced, and the dense stream comes arbitrarily close.
 *
 * Returns: l(@R) in ns, or %TW_JCS_UNBOUNDED when @R < R_min
 */
gint64
tw_jcs_latency (const TwJcs *jcs,
                guint64      R)
{
  const TwJcsStream *s = &jcs->stream;
  const TwJcsMonitor *m = &jcs->monitor;
  gint64 q, burst, after;

  if (R < jcs->R_min)
    return TW_JCS_UNBOUNDED;
  if (R >= jcs->R_max)
    return jcs->l_min;

  /* R < R_max keeps R·T and R·D within the range tw_jcs_init() checked. */
  q = (gint64) ((jcs->L - 1) / R);                   /* e_b / R, eq. (14) */
  burst = q * (m->T_M - (gint64) R * s->D);          /* condition (16) at e_b */
  after = (q + 1) * (m->T_M - (gint64) R * s->T) + s->tau; /* condition (17) at e_a */
  return MAX (jcs->l_min, jcs->l_min + MAX (burst, after));
}

/**
 * tw_jcs_rate_for_latency:
 * @jcs: an initialised #TwJcs
 * @latency: the latency the user asks for, ns
 * @R: (out): the smallest R with l(R) <= @latency
 * @error: set (%TW_JCS_ERROR_INFEASIBLE) when @latency < l_min
 *
 * Binary search over [R_min, R_max], where l(R) is non-increasing (§4.2.1).
 *
 * Returns: %TRUE when @R is set
 */
gboolean
tw_jcs_rate_for_latency (const TwJcs *jcs,
                         gint64       latency,
                         guint64     *R,
                         GError     **error)
{
  guint64 lo = jcs->R_min;
  guint64 hi = jcs->R_max;

  g_return_val_if_fail (R != NULL, FALSE);

  if (latency < jcs->l_min)
    {
      g_set_error (error, TW_JCS_ERROR, TW_JCS_ERROR_INFEASIBLE,
                   "a latency of %.9g s is impossible: a monitor with T_M = %.9g s and "
                   "d = %.9g s cannot guarantee less than l_min = T_M + d = %.9g s",
                   SECONDS (latency), SECONDS (jcs->monitor.T_M), SECONDS (jcs->monitor.d),
                   SECONDS (jcs->l_min));
      return FALSE;
    }

  /* l(R_max) = l_min <= latency, so hi always meets it. */
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (tw_jcs_latency (jcs, mid) <= latency)
        hi = mid;
      else
        lo = mid + 1;
    }
  *R = lo;
  return TRUE;
}

/* b(kT_M + d − ε) = −R(k − 1) + E(kT_M + d), eqs. (20)–(21); saturates rather than
 * wrapping when a huge R makes it very negative. */
static gint64
backlog_before_evaluation (const TwJcs *jcs,
                           guint64      R,
                           gint64       k)
{
  guint64 produced = tw_jcs_elements_before (jcs, k * jcs->monitor.T_M + jcs->monitor.d);
  guint64 evaluated = 0;

  g_assert (k >= 1);
  if (!g_uint64_checked_mul (&evaluated, R, (guint64) (k - 1)))
    return G_MININT64;
  if (evaluated <= produced)
    return (gint64) (produced - evaluated);
  return evaluated - produced > (guint64) G_MAXINT64 ? G_MININT64
                                                     : -(gint64) (evaluated - produced);
}

/**
 * tw_jcs_max_backlog:
 * @jcs: an initialised #TwJcs
 * @R: elements the monitor evaluates per period
 * @detail: (out caller-allocates) (optional): k_b, k_a, b_b and b_a
 *
 * b_max(R), eqs. (19)–(23): the most elements produced but not yet evaluated when the
 * monitor evaluates @R per period. For R_min <= R < R_max it is max(b_b, b_a), with
 * b_b dropped when k_b < 1 and k_a raised to 1 when smaller (§4.2.1). For R >= R_max
 * the monitor drains what it sees every period and the backlog peaks right before its
 * first evaluation: b(T_M + d − ε) = E(T_M + d) = B(l_min).
 *
 * The paper prints ⌊⌋ in eqs. (21)–(23) where eq. (20) has E(), which is ⌈⌉ (eq. 2);
 * we follow eq. (20): ⌊⌋ undercounts by one whenever the division is not exact
 * (docs/jcs.md gives a counterexample, checked by tests/evaluators/test-jcs.c).
 *
 * Returns: b_max(@R), or %TW_JCS_UNBOUNDED when @R < R_min
 */
gint64
tw_jcs_max_backlog (const TwJcs  *jcs,
                    guint64       R,
                    TwJcsBacklog *detail)
{
  TwJcsBacklog local = { 0 };
  TwJcsBacklog *out = detail ? detail : &local;
  gint64 LD = (gint64) jcs->L * jcs->stream.D;

  out->k_a = ceil_div (LD - jcs->monitor.d, jcs->monitor.T_M);
  out->k_b = out->k_a - 1;
  /* k_b < 1: the burst is over before the monitor's first evaluation (T_M + d − ε). */
  out->has_b_b = out->k_b >= 1;
  out->b_b = out->has_b_b ? backlog_before_evaluation (jcs, R, out->k_b) : 0;
  out->k_a = MAX (out->k_a, 1);
  out->b_a = backlog_before_evaluation (jcs, R, out->k_a);

  if (R < jcs->R_min)
    return TW_JCS_UNBOUNDED;
  if (R >= jcs->R_max)
    return backlog_before_evaluation (jcs, R, 1);
  return out->has_b_b ? MAX (out->b_b, out->b_a) : out->b_a;
}

/* Time stamps a monitor accepts: 146 years of CLOCK_MONOTONIC. */
#define TIME_LIMIT (G_GINT64_CONSTANT (1) << 62)

/**
 * tw_jcs_arrivals_init:
 * @arrivals: (out caller-allocates): the check to start
 */
void
tw_jcs_arrivals_init (TwJcsArrivals *arrivals)
{
  *arrivals = (TwJcsArrivals) { 0 };
}

/**
 * tw_jcs_arrivals_add:
 * @arrivals: the running check
 * @jcs: the sensor's declared stream (an initialised #TwJcs)
 * @t: the next element's time stamp, ns (untrusted: any value is handled)
 *
 * GRTMon uses a sensor's stream as an upper bound on its rate (Riegel 2005 §3.2): a sensor
 * may be late or pause, but never denser than the dense stream. Observed times conform
 * exactly when every two elements i > j satisfy t_i − t_j >= max((i − j)D, (i − j)T − τ),
 * which this checks in O(1) per element: the D part against the previous element, the
 * T/τ part against the largest offset t_j − jT seen so far (docs/jcs.md, "Observed
 * arrivals").
 *
 * After a violation the check restarts at the offending element, so a sensor that keeps
 * breaking its declaration is reported once per excess burst, not on every element.
 *
 * Returns: %TW_JCS_ARRIVAL_OK, or what was wrong with @t
 */
TwJcsArrival
tw_jcs_arrivals_add (TwJcsArrivals *arrivals,
                     const TwJcs   *jcs,
                     gint64         t)
{
  TwJcsArrival verdict = TW_JCS_ARRIVAL_OK;
  gint64 offset = 0;

  if (t < 0 || t >= TIME_LIMIT)
    return TW_JCS_ARRIVAL_OUT_OF_RANGE;
  if (arrivals->n == 0)
    {
      arrivals->first = arrivals->last = t;
      arrivals->n = 1;
      arrivals->max_offset = 0;
      return TW_JCS_ARRIVAL_OK;
    }

  /* While the stream conforms, n·T <= t_last − first + τ + T: no overflow for times
   * below TIME_LIMIT and parameters tw_jcs_init() accepted. */
  offset = (t - arrivals->first) - (gint64) arrivals->n * jcs->stream.T;
  if (t < arrivals->last)
    verdict = TW_JCS_ARRIVAL_BACKWARDS;
  else if (t - arrivals->last < jcs->stream.D)
    verdict = TW_JCS_ARRIVAL_TOO_CLOSE;
  else if (offset < arrivals->max_offset - jcs->stream.tau)
    verdict = TW_JCS_ARRIVAL_TOO_EARLY;

  if (verdict != TW_JCS_ARRIVAL_OK)
    {
      arrivals->n = 0;
      tw_jcs_arrivals_add (arrivals, jcs, t);
      return verdict;
    }
  arrivals->last = t;
  arrivals->n++;
  arrivals->max_offset = MAX (arrivals->max_offset, offset);
  return TW_JCS_ARRIVAL_OK;
}

/**
 * tw_jcs_arrival_to_string:
 *
 * Returns: (transfer none): a short English description for a report
 */
const char *
tw_jcs_arrival_to_string (TwJcsArrival arrival)
{
  switch (arrival)
    {
    case TW_JCS_ARRIVAL_OK:
      return "conforms to its stream";
    case TW_JCS_ARRIVAL_OUT_OF_RANGE:
      return "time stamp out of range";
    case TW_JCS_ARRIVAL_BACKWARDS:
      return "time stamp before the previous element's";
    case TW_JCS_ARRIVAL_TOO_CLOSE:
      return "closer than D to the previous element";
    case TW_JCS_ARRIVAL_TOO_EARLY:
      return "earlier than the period and tau allow";
    default:
      return "unknown";
    }
}
