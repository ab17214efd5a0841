/* tw-jcs.h: jitter-constrained streams — buffer sizes and monitor rates (Riegel 2005 §4.2)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define TW_JCS_ERROR (tw_jcs_error_quark ())

typedef enum {
  TW_JCS_ERROR_INVALID,    /* a parameter is outside its domain (T <= 0, D > T, d > T_M, ...) */
  TW_JCS_ERROR_TOO_LARGE,  /* the parameters make the counts overflow 64-bit integers */
  TW_JCS_ERROR_INFEASIBLE, /* a latency below l_min was asked for */
} TwJcsError;

/* l(R) and b_max(R) for R < R_min: the monitor falls behind for ever. */
#define TW_JCS_UNBOUNDED G_MAXINT64

/**
 * TwJcsStream:
 * @T: period, ns, > 0
 * @D: minimal distance between two elements, ns, 0 <= D <= T
 * @tau: maximal earliness, ns, >= 0 (a lateness τ' is folded in: (T, D, τ, τ') and
 *   (T, D, τ + τ', 0) are the same stream, §4.2)
 *
 * A sensor's output rate as a jitter-constrained stream. All times are integer
 * nanoseconds so every ⌈⌉ and ⌊⌋ of the paper is exact (docs/jcs.md).
 */
typedef struct {
  gint64 T;
  gint64 D;
  gint64 tau;
} TwJcsStream;

/**
 * TwJcsMonitor:
 * @T_M: the monitor's period, ns, > 0
 * @d: its relative deadline, ns, 0 < d <= T_M
 */
typedef struct {
  gint64 T_M;
  gint64 d;
} TwJcsMonitor;

/**
 * TwJcs:
 *
 * A validated sensor/monitor pair with the quantities that depend on no choice of R.
 * Fill it with tw_jcs_init(); every other function takes it read-only.
 */
typedef struct {
  TwJcsStream  stream;  /* as given, except τ = 0 when D = T (docs/jcs.md) */
  TwJcsMonitor monitor;
  guint64      L;       /* maximal burst length, eq. before (1) */
  gint64       l_min;   /* T_M + d, eq. (1), ns */
  guint64      R_min;   /* ⌈T_M / T⌉, eq. (4) */
  guint64      R_max;   /* E(T_M), eq. (5) */
} TwJcs;

/**
 * TwJcsBacklog:
 *
 * The pieces of b_max(R) (eqs. 19–23) for a report.
 */
typedef struct {
  gint64   k_b;      /* ⌈(LD − d)/T_M⌉ − 1, as computed (b_b is discarded when < 1) */
  gint64   k_a;      /* ⌈(LD − d)/T_M⌉, raised to 1 when smaller */
  gboolean has_b_b;  /* k_b >= 1 */
  gint64   b_b;      /* eq. (22), valid when has_b_b */
  gint64   b_a;      /* eq. (23) */
} TwJcsBacklog;

/**
 * TwJcsArrival:
 * @TW_JCS_ARRIVAL_OK: the element keeps the stream within its declaration
 * @TW_JCS_ARRIVAL_OUT_OF_RANGE: its time is outside [0, 2^62) ns (a hostile or broken
 *   sensor; no clock that starts at boot gets there)
 * @TW_JCS_ARRIVAL_BACKWARDS: its time is before the previous element's
 * @TW_JCS_ARRIVAL_TOO_CLOSE: it came less than D after the previous element
 * @TW_JCS_ARRIVAL_TOO_EARLY: it came more than τ earlier than the period allows, counted
 *   from any earlier element
 */
typedef enum {
  TW_JCS_ARRIVAL_OK,
  TW_JCS_ARRIVAL_OUT_OF_RANGE,
  TW_JCS_ARRIVAL_BACKWARDS,
  TW_JCS_ARRIVAL_TOO_CLOSE,
  TW_JCS_ARRIVAL_TOO_EARLY,
} TwJcsArrival;

/**
 * TwJcsArrivals:
 *
 * Incremental check of observed element times against a declared stream; zero it (or
 * call tw_jcs_arrivals_init()) before the first element. Fields are private.
 */
typedef struct {
  guint64 n;           /* elements since the check (re)started */
  gint64  first;       /* time of the first of them, ns */
  gint64  last;        /* time of the latest, ns */
  gint64  max_offset;  /* max over them of (t_j − first) − jT, ns */
} TwJcsArrivals;

GQuark   tw_jcs_error_quark       (void);

gboolean tw_jcs_init              (TwJcs              *jcs,
                                   const TwJcsStream  *stream,
                                   const TwJcsMonitor *monitor,
                                   GError            **error);

guint64  tw_jcs_elements_before   (const TwJcs        *jcs,
                                   gint64              t);
guint64  tw_jcs_buffer_size       (const TwJcs        *jcs,
                                   gint64              latency);
gint64   tw_jcs_latency           (const TwJcs        *jcs,
                                   guint64             R);
gboolean tw_jcs_rate_for_latency  (const TwJcs        *jcs,
                                   gint64              latency,
                                   guint64            *R,
                                   GError            **error);
gint64   tw_jcs_max_backlog       (const TwJcs        *jcs,
                                   guint64             R,
                                   TwJcsBacklog       *detail);

void         tw_jcs_arrivals_init (TwJcsArrivals      *arrivals);
TwJcsArrival tw_jcs_arrivals_add  (TwJcsArrivals      *arrivals,
                                   const TwJcs        *jcs,
                                   gint64              t);
const char  *tw_jcs_arrival_to_string (TwJcsArrival    arrival);

G_END_DECLS
