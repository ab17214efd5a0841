/* tw-stream-check.c: a sensor's declared stream checked as its elements arrive
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lives in app/, the only layer that sees both the monitor (ingest/) and the
 * jitter-constrained-stream math (evaluators/): docs/monitor.md, *Stream check*.
 */
#include "config.h"

#include <math.h>

#include "tw-stream-check.h"

TwStreamDeclaration
tw_stream_declaration_of_source (const TwMonitorSourceInfo *info)
{
  return (TwStreamDeclaration) { info->period_ns, info->min_distance_ns, info->earliness_ns,
                                 info->monitor_period_ns, info->deadline_ns };
}

TwStreamDeclaration
tw_stream_declaration_of_target (const TwLttngRemoteSensor *sensor)
{
  return (TwStreamDeclaration) { sensor->period_ns, sensor->min_distance_ns,
                                 sensor->earliness_ns, sensor->monitor_period_ns,
                                 sensor->deadline_ns };
}

/* @poll_period_ns serves as T_M and d for a stream declared without a monitor. */
void
tw_stream_check_init (TwStreamCheck             *self,
                      const TwStreamDeclaration *declared,
                      gint64                     poll_period_ns)
{
  TwJcsStream stream = { llround (declared->period_ns), llround (declared->min_distance_ns),
                         llround (declared->earliness_ns) };
  TwJcsMonitor monitor = { llround (declared->monitor_period_ns),
                           llround (declared->deadline_ns) };
  g_autoptr (GError) error = NULL;

  self->initialized = TRUE;
  self->declared = declared->period_ns > 0;
  if (!self->declared)
    return;
  if (monitor.T_M <= 0)
    monitor = (TwJcsMonitor) { poll_period_ns, poll_period_ns };
  self->valid = tw_jcs_init (&self->jcs, &stream, &monitor, &error);
  if (!self->valid)
    self->error = g_strdup (error->message);
  tw_jcs_arrivals_init (&self->arrivals);
}

void
tw_stream_check_add (TwStreamCheck *self,
                     guint64        position,
                     guint64        time_ns)
{
  TwJcsArrival arrival;

  if (!self->valid)
    return;
  if (position != self->next_position && self->arrivals.n > 0)
    {
      tw_jcs_arrivals_init (&self->arrivals);
      self->restarts++;
    }
  self->next_position = position + 1;
  arrival = tw_jcs_arrivals_add (&self->arrivals, &self->jcs, (gint64) time_ns);
  if (arrival != TW_JCS_ARRIVAL_OK && self->violations++ == 0)
    self->first_violation = arrival;
}

void
tw_stream_check_clear (TwStreamCheck *self)
{
  g_clear_pointer (&self->error, g_free);
}

/**
 * tw_stream_check_get_status:
 * @detail: (out) (optional) (transfer none): the first violation or why the declared
 *   stream is invalid, %NULL otherwise
 *
 * Returns: whether the arrivals so far fit the stream declared, as the Sensors tab says
 *   it of a live sensor and of a recorded one alike
 */
TwLiveStreamStatus
tw_stream_check_get_status (const TwStreamCheck  *self,
                            const char          **detail)
{
  if (detail)
    *detail = NULL;
  if (!self->declared)
    return TW_LIVE_STREAM_NONE;
  if (!self->valid)
    {
      if (detail)
        *detail = self->error;
      return TW_LIVE_STREAM_INVALID;
    }
  if (self->violations == 0)
    return TW_LIVE_STREAM_OK;
  if (detail)
    *detail = tw_jcs_arrival_to_string (self->first_violation);
  return TW_LIVE_STREAM_BROKEN;
}
