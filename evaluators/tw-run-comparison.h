/* tw-run-comparison.h: one evaluation's measurements of two runs, side by side
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <tw-data.h>

#include "tw-histogram.h"
#include "tw-measurement-table.h"
#include "tw-sample-stats.h"

G_BEGIN_DECLS

typedef enum {
  TW_RUN_A = 0, /* the reference: the run before the change */
  TW_RUN_B,     /* the run compared with it */
} TwRun;

#define TW_TYPE_RUN_COMPARISON (tw_run_comparison_get_type ())
G_DECLARE_FINAL_TYPE (TwRunComparison, tw_run_comparison, TW, RUN_COMPARISON, GObject)

TwRunComparison     *tw_run_comparison_new             (TwMeasurementTable   *table_a,
                                                        TwTrace              *trace_a,
                                                        TwMeasurementTable   *table_b,
                                                        TwTrace              *trace_b);
guint                tw_run_comparison_get_n_groups    (TwRunComparison      *self);
const char          *tw_run_comparison_get_group_name  (TwRunComparison      *self,
                                                        guint                 group);
gboolean             tw_run_comparison_find_group      (TwRunComparison      *self,
                                                        const char           *task_name,
                                                        guint                *group);
const TwSampleStats *tw_run_comparison_get_stats       (TwRunComparison      *self,
                                                        guint                 group,
                                                        TwRun                 run);
void                 tw_run_comparison_get_delta       (TwRunComparison      *self,
                                                        guint                 group,
                                                        TwSampleStat          stat,
                                                        double               *absolute,
                                                        double               *relative);
void                 tw_run_comparison_get_tests       (TwRunComparison      *self,
                                                        guint                 group,
                                                        TwMannWhitney        *mann_whitney,
                                                        TwKolmogorovSmirnov  *kolmogorov_smirnov);
TwHistogram         *tw_run_comparison_new_histogram   (TwRunComparison      *self,
                                                        guint                 group,
                                                        TwRun                 run,
                                                        guint                 n_bins,
                                                        TwHistogramScale      scale);

/**
 * TwComparisonGate:
 *
 * A condition on how much B may differ from A, for a CI job: `p99>+10%` fails when
 * B's p99 is more than 10 % above A's, `max>+50us` when B's max is more than 50 µs
 * above A's, `mean<-5%` when B's mean fell by more than 5 %.
 */
typedef struct {
  TwSampleStat stat;
  gboolean     above;     /* '>': fails when the change exceeds @limit; '<': when below */
  gboolean     relative;  /* @limit is in percent of A's value, else in ns (a count for n) */
  double       limit;
} TwComparisonGate;

gboolean             tw_comparison_gate_parse          (const char           *text,
                                                        TwComparisonGate     *gate,
                                                        GError              **error);
gboolean             tw_comparison_gate_check          (const TwComparisonGate *gate,
                                                        TwRunComparison      *comparison,
                                                        guint                 group,
                                                        char                **failure);

G_END_DECLS
