/* tw-automaton-interp.h: the exact metric automaton interpreter (DESIGN §4)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

#include "tw-automaton.h"

G_BEGIN_DECLS

/**
 * TwSegment:
 * @first_ns: time of its first visit (a `cond` run's first visit when it was kept)
 * @last_ns: time of its last visit
 * @visits: how many visits it has; its size is @visits − 1
 */
typedef struct {
  guint64 first_ns;
  guint64 last_ns;
  guint64 visits;
} TwSegment;

/**
 * TwAutomatonMeasurement:
 * @task: task index of the instance that measured it
 * @n_segments: how many closed segments it has
 * @begin_ns: time of the visit of the `begin` state
 * @end_ns: time of the visit of the `end` state
 * @length_ns: sum of the durations (last − first) of its closed segments
 * @intermediate_events: sum of the sizes (visits − 1) of its closed segments
 * @end_event: index of the trace event whose processing ended it
 * @segments: (array length=n_segments) (nullable): its segments in time order, for
 *   drawing; %NULL when it has none
 * @overhead_ps: with per-type tracing costs, the sum of its intermediate events' own
 *   costs (the visits that @intermediate_events counts), in ps; else 0
 */
typedef struct {
  guint32          task;
  guint32          n_segments;
  guint64          begin_ns;
  guint64          end_ns;
  guint64          length_ns;
  guint64          intermediate_events;
  guint64          end_event;
  const TwSegment *segments;
  guint64          overhead_ps;
} TwAutomatonMeasurement;

/**
 * TwInstanceInfo:
 * @state: index of the state the instance is in
 * @has_measurement: a measurement is open, since @measurement_begin_ns
 * @has_segment: a segment is open: @segment_first_ns .. @segment_last_ns, @segment_visits
 * @has_run: a `cond` run is pending since @run_first_ns, with @run_visits visits
 * @length_ns: length of the open measurement so far (closed segments only)
 * @intermediate_events: its intermediate events so far (closed segments only)
 *
 * What one instance holds between two events, for a step mode.
 */
typedef struct {
  guint    state;
  gboolean has_measurement;
  gboolean has_segment;
  gboolean has_run;
  guint64  measurement_begin_ns;
  guint64  length_ns;
  guint64  intermediate_events;
  guint64  segment_first_ns;
  guint64  segment_last_ns;
  guint64  segment_visits;
  guint64  run_first_ns;
  guint64  run_visits;
} TwInstanceInfo;

#define TW_TYPE_AUTOMATON_INTERP (tw_automaton_interp_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonInterp, tw_automaton_interp, TW, AUTOMATON_INTERP, GObject)

TwAutomatonInterp   *tw_automaton_interp_new              (TwAutomaton        *automaton,
                                                           TwTrace            *trace,
                                                           GError            **error);
void                 tw_automaton_interp_reset            (TwAutomatonInterp  *self);
gboolean             tw_automaton_interp_feed             (TwAutomatonInterp  *self,
                                                           guint64             first,
                                                           guint64             end,
                                                           GError            **error);
gboolean             tw_automaton_interp_run              (TwAutomatonInterp  *self,
                                                           GError            **error);
guint64              tw_automaton_interp_get_position     (TwAutomatonInterp  *self);

gsize                tw_automaton_interp_get_n_measurements (TwAutomatonInterp *self);
const TwAutomatonMeasurement *tw_automaton_interp_get_measurement  (TwAutomatonInterp  *self,
                                                           gsize               index);

int                  tw_automaton_interp_get_instance_state (TwAutomatonInterp *self,
                                                           guint32             task);
gboolean             tw_automaton_interp_get_instance     (TwAutomatonInterp  *self,
                                                           guint32             task,
                                                           TwInstanceInfo     *info);
GStrv                tw_automaton_interp_dup_unbound_events (TwAutomatonInterp *self);

G_END_DECLS
