/* tw-cli-deadline.h: `tracewb-cli monitor --deadline`: the monitor thread under SCHED_DEADLINE
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-ingest.h>

G_BEGIN_DECLS

/**
 * TwCliDeadline:
 *
 * A SCHED_DEADLINE reservation: @runtime_ns of CPU every @period_ns, used up within
 * @deadline_ns of each period's start (runtime ≤ deadline ≤ period).
 */
typedef struct {
  guint64 runtime_ns;
  guint64 deadline_ns;
  guint64 period_ns;
} TwCliDeadline;

/**
 * TwCliDeadlineBudget:
 *
 * How the reservation was sized (Riegel 2005 §3.5, §4.2): R elements per monitor period
 * T_M within its deadline d, each costing @element_ns as measured at start, plus
 * @poll_ns per period whatever arrives.
 */
typedef struct {
  guint64 elements;        /* R: Σ E(T_M) over the sensors' declared streams, plus observed */
  guint64 declared;        /* of which from declared streams */
  double  element_ns;      /* cost of one element (poll, evaluate, emit) */
  gboolean element_measured; /* FALSE: no element came during calibration; assumed */
  double  poll_ns;         /* measured fixed cost of one period's work */
} TwCliDeadlineBudget;

gboolean tw_cli_deadline_size  (const TwCliDeadlineBudget *budget,
                                guint64                    period_ns,
                                guint64                    deadline_ns,
                                TwCliDeadline             *deadline,
                                GError                   **error);
gboolean tw_cli_deadline_apply (const TwCliDeadline       *deadline,
                                GError                   **error);
char    *tw_cli_deadline_describe_errno (int               errsv,
                                const TwCliDeadline       *deadline);

/* The monitor's periodic work: poll the sources, evaluate, emit. */
typedef void (*TwCliPollFunc) (gpointer data);

typedef struct _TwCliDeadlineRunner TwCliDeadlineRunner;

TwCliDeadlineRunner *tw_cli_deadline_runner_start (TwMonitor            *monitor,
                                                   guint64               period_ns,
                                                   TwCliPollFunc         poll,
                                                   gpointer              data,
                                                   GMainLoop            *loop);
gboolean             tw_cli_deadline_runner_stop  (TwCliDeadlineRunner  *runner,
                                                   GError              **error);

G_END_DECLS
