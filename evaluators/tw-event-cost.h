/* tw-event-cost.h: what storing one trace event costs, given or calibrated
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Espinosa et al., *Getting System Metrics Using POSIX Tracing Services* (Ada-Europe
 * 2003), §2: a measurement's Length includes the time the tracing system took to store
 * the events logged while it ran — its intermediate events — and Fig. 4 is given "with
 * the interference caused by the tracing system subtracted". The cost of one event
 * depends on how events are stored: an ftrace event in the kernel's ring buffer, a
 * sensor's write and commit, an LTTng-UST tracepoint. So a cost belongs to a source:
 * the trace's format says which.
 */
#pragma once

#include <tw-data.h>

#include "tw-event-costs.h"

G_BEGIN_DECLS

typedef struct {
  double  cost_ns;        /* the median cost of one event */
  double  spread_ns;      /* the interquartile range of the rounds' costs */
  guint   n_rounds;
  guint64 events_per_round;
  char   *measured;       /* ISO 8601, UTC */
  char   *machine;        /* host, kernel and CPU it was measured on */
} TwEventCostCalibration;

void        tw_event_cost_calibration_clear (TwEventCostCalibration  *calibration);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (TwEventCostCalibration, tw_event_cost_calibration_clear)

gboolean    tw_event_cost_parse             (const char              *text,
                                             double                  *cost_ns,
                                             GError                 **error);
const char *tw_event_cost_source_for_trace  (TwTrace                 *trace);

char       *tw_event_cost_dup_store_path    (void);
GStrv       tw_event_cost_dup_stored        (GError                 **error);
gboolean    tw_event_cost_lookup            (const char              *source,
                                             TwEventCostCalibration  *calibration,
                                             GError                 **error);
TwEventCosts *tw_event_cost_lookup_for_trace (TwTrace             *trace);
gboolean    tw_event_cost_store             (const char              *source,
                                             const TwEventCostCalibration *calibration,
                                             GError                 **error);

G_END_DECLS
