/* tw-live-session-sources.c: per source: its declared stream checked as elements arrive, its rate
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-live-session-private.h"

#define RATE_INTERVAL_NS  G_GUINT64_CONSTANT (1000000000)

static void
source_state_clear (gpointer data)
{
  tw_stream_check_clear (&((SourceState *) data)->check);
}

/* Returns: (transfer full): an empty SourceState array, one per monitor source index */
GArray *
_tw_live_session_sources_new (void)
{
  GArray *sources = g_array_new (FALSE, TRUE, sizeof (SourceState));

  g_array_set_clear_func (sources, source_state_clear);
  return sources;
}

static SourceState *
get_source_state (TwLiveSession *self,
                  guint          source)
{
  if (source >= self->sources->len)
    g_array_set_size (self->sources, source + 1);
  return &g_array_index (self->sources, SourceState, source);
}

static void
init_local_check (SourceState               *state,
                  const TwMonitorSourceInfo *info)
{
  TwStreamDeclaration declared = tw_stream_declaration_of_source (info);

  tw_stream_check_init (&state->check, &declared, POLL_INTERVAL_MS * G_GINT64_CONSTANT (1000000));
}

static void
init_remote_check (SourceState               *state,
                   const TwLttngRemoteSensor *rs)
{
  TwStreamDeclaration declared = tw_stream_declaration_of_target (rs);

  tw_stream_check_init (&state->check, &declared, POLL_INTERVAL_MS * G_GINT64_CONSTANT (1000000));
}

/* The monitor's element hook, in the poll thread with @lock held. */
void
_tw_live_session_on_element (guint    source,
                             guint64  position,
                             guint64  time_ns,
                             gpointer data)
{
  TwLiveSession *self = data;
  SourceState *state = get_source_state (self, source);

  if (!state->check.initialized)
    {
      TwMonitorSourceInfo info;

      if (!tw_monitor_get_source_info (self->monitor, source, &info))
        return;
      init_local_check (state, &info);
    }
  tw_stream_check_add (&state->check, position, time_ns);
}

/* The stream check of sensor @index of the LTTng source @source, with @lock held. */
static SourceState *
get_remote_state (TwLiveSession *self,
                  TwLiveSource  *source,
                  guint          index)
{
  GArray *states = g_hash_table_lookup (self->remote_checks, source);

  if (states == NULL)
    {
      states = _tw_live_session_sources_new ();
      g_hash_table_insert (self->remote_checks, source, states);
    }
  if (index >= states->len)
    g_array_set_size (states, index + 1);
  return &g_array_index (states, SourceState, index);
}

/* An LTTng source's arrival hook: an element of a target's sensor that declared a stream,
 * in the poll thread with @lock held. */
void
_tw_live_session_on_arrival (TwLiveSource *source,
                             guint         index,
                             guint64       position,
                             guint64       time_ns,
                             gpointer      data)
{
  TwLiveSession *self = data;
  SourceState *state = get_remote_state (self, source, index);

  if (!state->check.initialized)
    {
      TwLttngRemoteSensor rs;

      if (!tw_live_lttng_get_sensor (source, index, &rs))
        return;
      init_remote_check (state, &rs);
    }
  tw_stream_check_add (&state->check, position, time_ns);
}

/* With @lock held, after a poll. */
void
_tw_live_session_update_rates (TwLiveSession *self,
                               guint64        now)
{
  guint n = tw_monitor_get_n_sources (self->monitor);

  for (guint i = 0; i < n; i++)
    {
      SourceState *state = get_source_state (self, i);
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (self->monitor, i, &info);
      if (state->rate_base_ns == 0)
        {
          state->rate_base_ns = now;
          state->rate_base_received = info.counts.received;
          continue;
        }
      if (now - state->rate_base_ns < RATE_INTERVAL_NS)
        continue;
      state->rate = (double) (info.counts.received - state->rate_base_received) * 1e9
                    / (double) (now - state->rate_base_ns);
      state->rate_base_ns = now;
      state->rate_base_received = info.counts.received;
    }
}

/**
 * tw_live_session_get_rate:
 * @source: a monitor source index
 *
 * Returns: the elements per second it received over the last full second
 */
double
tw_live_session_get_rate (TwLiveSession *self,
                          guint          source)
{
  double rate;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), 0);
  g_mutex_lock (&self->lock);
  rate = source < self->sources->len ? g_array_index (self->sources, SourceState, source).rate : 0;
  g_mutex_unlock (&self->lock);
  return rate;
}

static TwLiveStreamStatus
stream_status (const SourceState  *state,
               const char        **detail)
{
  return tw_stream_check_get_status (&state->check, detail);
}

static TwLiveStreamStatus
get_stream_status_locked (TwLiveSession  *self,
                          guint           source,
                          const char    **detail)
{
  SourceState *state;
  TwMonitorSourceInfo info;

  if (detail)
    *detail = NULL;
  if (!tw_monitor_get_source_info (self->monitor, source, &info))
    return TW_LIVE_STREAM_NONE;
  state = get_source_state (self, source);
  if (!state->check.initialized && info.period_ns > 0)
    init_local_check (state, &info);
  return stream_status (state, detail);
}

/**
 * tw_live_session_get_stream_status:
 * @source: a monitor source index
 * @detail: (out) (optional) (transfer none): the first violation or why the declared
 *   stream is invalid, %NULL otherwise
 *
 * Returns: whether @source's arrivals fit the jitter-constrained stream it declared
 */
TwLiveStreamStatus
tw_live_session_get_stream_status (TwLiveSession  *self,
                                   guint           source,
                                   const char    **detail)
{
  TwLiveStreamStatus status;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), TW_LIVE_STREAM_NONE);

  g_mutex_lock (&self->lock);
  status = get_stream_status_locked (self, source, detail);
  g_mutex_unlock (&self->lock);
  return status;
}

/**
 * tw_live_session_get_n_sources:
 *
 * Returns: how many sources the monitor has seen (sensors, kernel, samplers)
 */
guint
tw_live_session_get_n_sources (TwLiveSession *self)
{
  guint n;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), 0);
  g_mutex_lock (&self->lock);
  n = tw_monitor_get_n_sources (self->monitor);
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * tw_live_session_get_source_info:
 * @info: (out): a snapshot; its strings stay valid while the session lives
 *
 * tw_monitor_get_source_info() under the session's lock (the poll thread updates the
 * counts).
 *
 * Returns: %FALSE when @source is out of range
 */
gboolean
tw_live_session_get_source_info (TwLiveSession       *self,
                                 guint                source,
                                 TwMonitorSourceInfo *info)
{
  gboolean ok;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  g_mutex_lock (&self->lock);
  ok = tw_monitor_get_source_info (self->monitor, source, info);
  g_mutex_unlock (&self->lock);
  return ok;
}

/**
 * tw_live_session_get_n_remote_sensors:
 *
 * Returns: how many sensors the monitors on the session's LTTng targets reported so far
 *   (`tracewb-cli monitor --lttng`), all targets together; they are never forgotten
 */
guint
tw_live_session_get_n_remote_sensors (TwLiveSession *self)
{
  guint n = 0;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), 0);
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->lttng_sources->len; i++)
    n += tw_live_lttng_get_n_sensors (self->lttng_sources->pdata[i]);
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * tw_live_session_get_remote_sensor:
 * @index: target by target (in the order they were added), then in the order each
 *   target's sensors appeared
 * @sensor: (out): a snapshot, taken under the session's lock (the poll thread updates it)
 *
 * Returns: %FALSE when @index is out of range
 */
gboolean
tw_live_session_get_remote_sensor (TwLiveSession       *self,
                                   guint                index,
                                   TwLttngRemoteSensor *sensor)
{
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->lttng_sources->len && !ok; i++)
    {
      guint n = tw_live_lttng_get_n_sensors (self->lttng_sources->pdata[i]);

      if (index < n)
        ok = tw_live_lttng_get_sensor (self->lttng_sources->pdata[i], index, sensor);
      else
        index -= n;
    }
  g_mutex_unlock (&self->lock);
  return ok;
}

/**
 * tw_live_session_get_remote_stream_status:
 * @index: as for tw_live_session_get_remote_sensor()
 * @detail: (out) (optional) (transfer none): the first violation or why the declared
 *   stream is invalid, %NULL otherwise
 *
 * Returns: whether the arrivals of a target's sensor fit the jitter-constrained stream
 *   it declared there, checked as a local sensor's (tw_live_session_get_stream_status)
 */
TwLiveStreamStatus
tw_live_session_get_remote_stream_status (TwLiveSession  *self,
                                          guint           index,
                                          const char    **detail)
{
  TwLiveStreamStatus status = TW_LIVE_STREAM_NONE;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), TW_LIVE_STREAM_NONE);
  if (detail)
    *detail = NULL;
  g_mutex_lock (&self->lock);
  for (guint i = 0; i < self->lttng_sources->len; i++)
    {
      TwLiveSource *source = self->lttng_sources->pdata[i];
      guint n = tw_live_lttng_get_n_sensors (source);
      TwLttngRemoteSensor rs;
      SourceState *state;

      if (index >= n)
        {
          index -= n;
          continue;
        }
      state = get_remote_state (self, source, index);
      /* declared, no element yet: OK so far, as a local sensor's */
      if (!state->check.initialized && tw_live_lttng_get_sensor (source, index, &rs) && rs.period_ns > 0)
        init_remote_check (state, &rs);
      status = stream_status (state, detail);
      break;
    }
  g_mutex_unlock (&self->lock);
  return status;
}

/**
 * tw_live_session_set_source_attached:
 * @source: a sensor's monitor source index
 *
 * Detaches a sensor (it is no longer read) or attaches it again (from the writer's
 * current end), see tw_monitor_set_source_detached().
 *
 * Returns: %FALSE with @error set when @source is not a sensor being read
 */
gboolean
tw_live_session_set_source_attached (TwLiveSession  *self,
                                     guint           source,
                                     gboolean        attached,
                                     GError        **error)
{
  SourceState *state;
  gboolean ok;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);

  g_mutex_lock (&self->lock);
  ok = tw_monitor_set_source_detached (self->monitor, source, !attached, error);
  /* the elements skipped while detached are not a gap in the stream */
  state = get_source_state (self, source);
  if (ok && state->check.valid)
    tw_jcs_arrivals_init (&state->check.arrivals);
  g_mutex_unlock (&self->lock);
  return ok;
}
