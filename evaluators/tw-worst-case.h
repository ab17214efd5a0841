/* tw-worst-case.h: per-task worst cases across metrics and the response-time analysis
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-histogram.h"
#include "tw-measurement-table.h"

G_BEGIN_DECLS

/**
 * TwWorstCaseRole:
 *
 * What a column means to the response-time analysis of Espinosa 2003 eq. (1)–(5).
 */
typedef enum {
  TW_WORST_CASE_ROLE_NONE = 0,        /* shown only */
  TW_WORST_CASE_ROLE_EXECUTION,       /* C_i^user; its begin times give the period T_i */
  TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME, /* JST_i */
  TW_WORST_CASE_ROLE_SYSTEM_BLOCKING, /* SB_k */
  TW_WORST_CASE_ROLE_WAKEUP,          /* DUW_k (Delay Until Wakeup) */
} TwWorstCaseRole;

/**
 * TwResponseTime:
 *
 * One task's row of the analysis, ns. Priorities are rate monotonic (shorter period
 * first; equal periods: lower task index first); a task with fewer than two jobs has
 * no period (@period = 0) and the lowest priority. @converged is %FALSE when R_i grew
 * past the period (the deadline), where the iteration stops.
 */
typedef struct {
  guint32  task;
  guint    priority;   /* 0 = highest */
  double   period;     /* T_i: smallest distance between two job releases */
  double   execution;  /* C_i = C_i^user + JST_i (eq. 2) */
  double   blocking;   /* B_i = B_i^activation + B_i^critical (eq. 3–5) */
  double   response;   /* R_i (eq. 1) */
  gboolean converged;
} TwResponseTime;

#define TW_TYPE_WORST_CASE (tw_worst_case_get_type ())
G_DECLARE_FINAL_TYPE (TwWorstCase, tw_worst_case, TW, WORST_CASE, GObject)

TwWorstCase *tw_worst_case_new            (void);
TwWorstCase *tw_worst_case_new_for_table  (TwMeasurementTable *table);
TwWorstCase *tw_worst_case_evaluate       (TwTrace            *trace,
                                           const char         *initial_event,
                                           const char         *final_event,
                                           TwProgressFunc      progress,
                                           gpointer            progress_data,
                                           GCancellable       *cancellable,
                                           GError            **error);
void         tw_worst_case_add_column     (TwWorstCase        *self,
                                           const char         *name,
                                           TwMeasurementTable *table,
                                           int                 free_column,
                                           TwWorstCaseRole     role);
double       tw_worst_case_get_event_cost (TwWorstCase        *self);
char        *tw_worst_case_dup_event_cost_text (TwWorstCase   *self);
guint        tw_worst_case_get_n_columns  (TwWorstCase        *self);
const char  *tw_worst_case_get_column_name (TwWorstCase       *self,
                                           guint               column);
guint        tw_worst_case_get_n_rows     (TwWorstCase        *self);
guint32      tw_worst_case_get_task       (TwWorstCase        *self,
                                           guint               row);
double       tw_worst_case_get_value      (TwWorstCase        *self,
                                           guint               row,
                                           guint               column);
double       tw_worst_case_get_period     (TwWorstCase        *self,
                                           guint               row);
GArray      *tw_worst_case_analyse        (TwWorstCase        *self);
char        *tw_worst_case_to_csv         (TwWorstCase        *self,
                                           TwTrace            *trace);
char        *tw_worst_case_analysis_to_csv (TwWorstCase       *self,
                                           TwTrace            *trace);

TwMeasurementTable *tw_worst_case_new_table  (void);
void         tw_worst_case_fill_table     (TwWorstCase        *self,
                                           TwMeasurementTable *jobs,
                                           TwMeasurementTable *table,
                                           TwHistogram        *histogram);

G_END_DECLS
