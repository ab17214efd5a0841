/* tw-stream-check.h: a sensor's declared stream checked as its elements arrive
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-live-session.h"

G_BEGIN_DECLS

/* What a sensor declared (tw_sensor_new_full), in ns: T, D, τ, T_M, d; period 0: nothing.
 * A local sensor's come from TwMonitorSourceInfo, a target's from TwLttngRemoteSensor. */
typedef struct {
  double period_ns;
  double min_distance_ns;
  double earliness_ns;
  double monitor_period_ns;
  double deadline_ns;
} TwStreamDeclaration;

TwStreamDeclaration tw_stream_declaration_of_source (const TwMonitorSourceInfo *info);
TwStreamDeclaration tw_stream_declaration_of_target (const TwLttngRemoteSensor *sensor);

/*
 * The check that tracewb-cli monitor and the live window both keep per sensor, local or
 * a target's. The monitor hands over each element with its stream position; a gap in
 * positions (elements missed, lost on the way, or a monitor that started over) restarts
 * the check rather than raising a false alarm: missed elements make j, the count since
 * the first element, too small.
 */
typedef struct {
  gboolean       initialized;
  gboolean       declared;
  gboolean       valid;       /* declared, and tw_jcs_init accepted it */
  char          *error;       /* why not, when declared */
  TwJcs          jcs;
  TwJcsArrivals  arrivals;
  guint64        next_position;
  guint64        restarts;
  guint64        violations;
  TwJcsArrival   first_violation;
} TwStreamCheck;

void tw_stream_check_init  (TwStreamCheck             *self,
                            const TwStreamDeclaration *declared,
                            gint64                     poll_period_ns);
void tw_stream_check_add   (TwStreamCheck             *self,
                            guint64                    position,
                            guint64                    time_ns);
void tw_stream_check_clear (TwStreamCheck             *self);
TwLiveStreamStatus tw_stream_check_get_status (const TwStreamCheck *self,
                                               const char         **detail);

G_END_DECLS
