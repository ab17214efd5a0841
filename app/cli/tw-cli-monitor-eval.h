/* tw-cli-monitor-eval.h: `tracewb-cli monitor --metric|--automaton|--plugin`: an evaluation beside the sensors
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <tw-evaluators.h>

#include "tw-ust-emitter.h"

G_BEGIN_DECLS

typedef struct _TwCliMonitorEval TwCliMonitorEval;

TwCliMonitorEval *tw_cli_monitor_eval_new     (TwTrace            *trace,
                                               const char         *metric,
                                               const char         *automaton,
                                               const char         *plugin,
                                               GError            **error);
void              tw_cli_monitor_eval_set_emitter (TwCliMonitorEval   *self,
                                               const TwUstEmitter *emit,
                                               guint32             monitor);
gboolean          tw_cli_monitor_eval_advance (TwCliMonitorEval   *self,
                                               gboolean            final,
                                               GError            **error);
guint64           tw_cli_monitor_eval_get_n_measurements (TwCliMonitorEval *self);
TwMeasurementTable *tw_cli_monitor_eval_get_table (TwCliMonitorEval *self);
void              tw_cli_monitor_eval_forget  (TwCliMonitorEval   *self);
void              tw_cli_monitor_eval_report  (TwCliMonitorEval   *self,
                                               JsonBuilder        *builder);
void              tw_cli_monitor_eval_free    (TwCliMonitorEval   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwCliMonitorEval, tw_cli_monitor_eval_free)

G_END_DECLS
