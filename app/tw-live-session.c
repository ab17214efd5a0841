/* tw-live-session.c: a live session: a monitor on a sensor directory, polled and shown as it grows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A poll thread and a main-loop timer drive a session:
 *
 * - the poll thread drains the sensors into the store every POLL_INTERVAL_MS through
 *   tw_monitor_poll(); the store takes one writer and any number of readers (counts
 *   published with release stores, tables that never move, and payload blobs reserved
 *   whole: tw_trace_set_stable_payloads), so the main thread reads it without a lock;
 * - the display update (main loop) brings the state model up to the store
 *   (tw_state_model_update is incremental) and emits ::updated, on which the window
 *   moves the followed view, runs the open evaluations forward and refreshes the
 *   Sensors pane. It runs as soon as a poll stored rows (the thread wakes the main loop),
 *   at most once per MIN_UPDATE_US, and otherwise every TICK_INTERVAL_MS so that a
 *   followed view keeps moving: commit-to-histogram latency is then the poll period plus
 *   the reorder window plus one frame, not a fixed tick's phase on top
 *   (bench/bench-live-latency). A paused session skips the tick: the store keeps growing, the views
 *   stay as they are, and resuming catches up with everything at once.
 *
 * Why a thread: the first version polled on the main loop, and the live demo lost ~40 %
 * of its job-start/job-end elements. Their buffers are sized by the JCS functions for a
 * monitor that reads every 10 ms (a few elements, tens of ms of headroom), while one
 * frame of a busy timeline with the kernel's context switches takes longer than that on
 * this machine. The poll thread keeps its period whatever the main thread paints.
 *
 * The monitor itself is not thread-safe: @lock is held by every poll and by every
 * main-thread call into it (source infos, detach, the stream checks and rates the
 * element hook updates). A poll of the demo holds it for tens of µs. Monitored programs
 * are never blocked either way: writers are wait-free and a late monitor only misses
 * elements, which are counted.
 */
#include "config.h"

#include "tw-live-session-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#define TICK_INTERVAL_MS  33
#define SCAN_INTERVAL_NS  (20 * 1000 * 1000)
#define WINDOW_NS         (2 * 1000 * 1000)   /* reorder window without the kernel source */
#define MIN_UPDATE_US     (15 * 1000)          /* ≈ one frame: data-driven updates at most */

G_DEFINE_FINAL_TYPE (TwLiveSession, tw_live_session, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_PAUSED,
  N_PROPS
};

enum {
  UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* With @lock held. Returns the rows stored. */
static guint64
poll_locked (TwLiveSession *self)
{
  guint64 start, end, emitted;

  start = tw_live_monotonic_ns ();
  if (self->last_poll_ns)
    self->max_gap_ns = MAX (self->max_gap_ns, start - self->last_poll_ns);
  self->last_poll_ns = start;
  emitted = tw_monitor_poll (self->monitor);
  end = tw_live_monotonic_ns ();
  self->max_poll_ns = MAX (self->max_poll_ns, end - start);
  self->n_polls++;
  _tw_live_session_update_rates (self, end);
  return emitted;
}

static void update_soon (TwLiveSession *self);

static gboolean
data_arrived_cb (gpointer data)
{
  TwLiveSession *self = data;

  g_atomic_int_set (&self->wake_pending, 0);
  if (self->running)
    update_soon (self);
  return G_SOURCE_REMOVE;
}

/**
 * tw_live_session_poll:
 *
 * Drains the sources into the store now (the poll thread does it every 10 ms).
 */
void
tw_live_session_poll (TwLiveSession *self)
{
  g_return_if_fail (TW_IS_LIVE_SESSION (self));

  g_mutex_lock (&self->lock);
  if (self->running)
    poll_locked (self);
  g_mutex_unlock (&self->lock);
}

static gpointer
poll_thread (gpointer data)
{
  TwLiveSession *self = data;
  gint64 next = g_get_monotonic_time ();
  struct sched_param param = { .sched_priority = 1 };

  /* A monitor that misses its period loses elements of JCS-sized buffers (Riegel 2005,
   * §4.2 presumes it meets d). The lowest real-time priority when permitted: it runs
   * for µs per period; otherwise it stays a normal thread, and misses are counted. */
  pthread_setschedparam (pthread_self (), SCHED_FIFO, &param);

  g_mutex_lock (&self->lock);
  while (!self->stop_thread)
    {
      gint64 now;

      if (poll_locked (self) > 0 && g_atomic_int_compare_and_exchange (&self->wake_pending, 0, 1))
        g_idle_add_full (G_PRIORITY_DEFAULT, data_arrived_cb, g_object_ref (self), g_object_unref);
      /* a fixed period, not a fixed pause: a long poll does not push the next one */
      next += POLL_INTERVAL_MS * 1000;
      now = g_get_monotonic_time ();
      if (next < now)
        next = now;
      while (!self->stop_thread && g_cond_wait_until (&self->wake, &self->lock, next))
        ;
    }
  g_mutex_unlock (&self->lock);
  return NULL;
}

/**
 * tw_live_session_update:
 *
 * Brings the state model up to the store and emits ::updated, unless paused (the tick
 * timer does it about 30 times a second). Main thread.
 */
void
tw_live_session_update (TwLiveSession *self)
{
  g_autoptr (GError) error = NULL;

  g_return_if_fail (TW_IS_LIVE_SESSION (self));

  if (self->paused)
    return;
  self->last_update_us = g_get_monotonic_time ();
  if (!tw_state_model_update (self->model, NULL, &error))
    g_warning ("live state model: %s", error->message);
  g_signal_emit (self, signals[UPDATED], 0);
}

static gboolean
deferred_update_cb (gpointer data)
{
  TwLiveSession *self = data;

  self->deferred_id = 0;
  tw_live_session_update (self);
  return G_SOURCE_REMOVE;
}

/* Updates now, or once MIN_UPDATE_US passed since the last update. */
static void
update_soon (TwLiveSession *self)
{
  gint64 since = g_get_monotonic_time () - self->last_update_us;

  if (self->deferred_id)
    return;
  if (since >= MIN_UPDATE_US)
    tw_live_session_update (self);
  else
    self->deferred_id = g_timeout_add (MAX (1, (guint) ((MIN_UPDATE_US - since) / 1000)),
                                       deferred_update_cb, self);
}

static gboolean
tick_cb (gpointer data)
{
  update_soon (data);
  return G_SOURCE_CONTINUE;
}

/* ------------------------------------------------------------------ GObject */

/**
 * tw_live_session_stop:
 *
 * Stops polling, ends a demo the session started, stops the sources (the kernel source
 * restores the tracing it changed) and brings the views up to what was stored. The
 * store stays available.
 */
void
tw_live_session_stop (TwLiveSession *self)
{
  g_return_if_fail (TW_IS_LIVE_SESSION (self));

  g_clear_handle_id (&self->tick_id, g_source_remove);
  g_clear_handle_id (&self->deferred_id, g_source_remove);
  if (self->thread)
    {
      g_mutex_lock (&self->lock);
      self->stop_thread = TRUE;
      g_cond_signal (&self->wake);
      g_mutex_unlock (&self->lock);
      g_clear_pointer (&self->thread, g_thread_join);
    }
  _tw_live_session_stop_demo (self);
  if (self->running)
    {
      self->running = FALSE;
      tw_monitor_stop (self->monitor);
      if (!self->paused)
        tw_live_session_update (self);
    }
  _tw_live_session_remove_demo_dir (self);
}

static void
tw_live_session_dispose (GObject *object)
{
  TwLiveSession *self = TW_LIVE_SESSION (object);

  tw_live_session_stop (self);
  G_OBJECT_CLASS (tw_live_session_parent_class)->dispose (object);
}

static void
tw_live_session_finalize (GObject *object)
{
  TwLiveSession *self = TW_LIVE_SESSION (object);

  /* a remote session that never started still owns its sources */
  g_clear_pointer (&self->remote_sources, g_ptr_array_unref);
  g_clear_pointer (&self->remote_urls, g_ptr_array_unref);
  g_clear_pointer (&self->lttng_sources, g_ptr_array_unref);
  g_free (self->remote_url);

  g_clear_object (&self->model);
  g_clear_object (&self->monitor);
  g_clear_pointer (&self->sources, g_array_unref);
  g_clear_pointer (&self->remote_checks, g_hash_table_unref);
  g_string_free (self->notes, TRUE);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->wake);
  g_free (self->sensor_dir);
  g_free (self->private_dir);
  g_free (self->demo_program);

  G_OBJECT_CLASS (tw_live_session_parent_class)->finalize (object);
}

static void
tw_live_session_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TwLiveSession *self = TW_LIVE_SESSION (object);

  switch (prop_id)
    {
    case PROP_PAUSED: g_value_set_boolean (value, self->paused); break;
    default:          G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_live_session_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TwLiveSession *self = TW_LIVE_SESSION (object);

  switch (prop_id)
    {
    case PROP_PAUSED: tw_live_session_set_paused (self, g_value_get_boolean (value)); break;
    default:          G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_live_session_class_init (TwLiveSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_live_session_dispose;
  object_class->finalize = tw_live_session_finalize;
  object_class->get_property = tw_live_session_get_property;
  object_class->set_property = tw_live_session_set_property;

  properties[PROP_PAUSED] =
    g_param_spec_boolean ("paused", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwLiveSession::updated:
   *
   * Emitted at display rate (unless paused) once the state model holds everything
   * stored so far: the views may show it.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_live_session_init (TwLiveSession *self)
{
  self->sources = _tw_live_session_sources_new ();
  self->remote_checks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  self->lttng_sources = g_ptr_array_new ();
  self->notes = g_string_new (NULL);
  g_mutex_init (&self->lock);
  g_cond_init (&self->wake);
}

/**
 * tw_live_session_new:
 * @sensor_dir: (nullable): the sensor directory; %NULL: `$TRACEWB_SENSOR_DIR`, else the
 *   per-user one
 *
 * Returns: (transfer full): a session, not yet started
 */
TwLiveSession *
tw_live_session_new (const char *sensor_dir)
{
  TwLiveSession *self = g_object_new (TW_TYPE_LIVE_SESSION, NULL);

  _tw_live_session_watch (self, tw_monitor_new (sensor_dir));
  return self;
}

/* Makes @monitor (transfer full) the session's, with a store and state model of its own. */
void
_tw_live_session_watch (TwLiveSession *self,
                        TwMonitor     *monitor)
{
  TwTrace *trace = tw_monitor_get_trace (monitor);

  g_clear_object (&self->model);
  g_set_object (&self->monitor, monitor);
  g_object_unref (monitor);
  g_array_set_size (self->sources, 0);
  g_free (self->sensor_dir);
  self->sensor_dir = g_strdup (tw_monitor_get_sensor_dir (monitor));
  tw_trace_set_stable_payloads (trace);
  tw_trace_set_metadata (trace, "format", "live session");
  self->model = tw_state_model_new (trace);
  /* sensors already there at attach time are read from their first element: their
   * received + missed then adds up to what they committed */
  tw_monitor_set_from_start (monitor, TRUE);
  tw_monitor_set_element_func (monitor, _tw_live_session_on_element, self);
  tw_monitor_set_scan_interval (monitor, SCAN_INTERVAL_NS);
}

static void
free_remote_source (gpointer data)
{
  TwLiveSource *source = data;

  source->klass->free (source);
}

/**
 * tw_live_session_new_for_remote:
 * @source: (transfer full): the source reading the target (tw_live_lttng_new)
 * @url: what the session is of, for titles
 *
 * A session on a remote target instead of a sensor directory; started, polled and
 * shown like any other (tw_live_session_start: pass no flags for the target alone).
 * More targets join it with tw_live_session_add_remote().
 */
TwLiveSession *
tw_live_session_new_for_remote (TwLiveSource *source,
                                const char   *url)
{
  TwLiveSession *self = tw_live_session_new (NULL);

  tw_monitor_set_watch_sensors (self->monitor, FALSE);
  g_clear_pointer (&self->sensor_dir, g_free);
  self->remote_sources = g_ptr_array_new_with_free_func (free_remote_source);
  self->remote_urls = g_ptr_array_new_with_free_func (g_free);
  tw_live_session_add_remote (self, source, url);
  return self;
}

/**
 * tw_live_session_add_remote:
 * @source: (transfer full): another target's source (tw_live_lttng_new)
 * @url: what it reads, for titles
 *
 * Several targets on one timeline: the monitor merges their rows in time order (LTTng
 * targets share a time base: each target's clock in ns from the Unix epoch, as
 * babeltrace2 correlates it). When they are different hosts, each one's tasks and
 * CPUs are named by its host in the store (tw_live_lttng_set_host), so that they do
 * not collide. Before tw_live_session_start(), on a session made by
 * tw_live_session_new_for_remote().
 */
void
tw_live_session_add_remote (TwLiveSession *self,
                            TwLiveSource  *source,
                            const char    *url)
{
  g_autoptr(GString) title = g_string_new (NULL);

  g_return_if_fail (TW_IS_LIVE_SESSION (self));
  g_return_if_fail (self->remote_sources != NULL && !self->running);

  g_ptr_array_add (self->remote_sources, source);
  g_ptr_array_add (self->remote_urls, g_strdup (url));
  for (guint i = 0; i < self->remote_urls->len; i++)
    g_string_append_printf (title, "%s%s", i ? " + " : "", (char *) self->remote_urls->pdata[i]);
  g_free (self->remote_url);
  self->remote_url = g_string_free (g_steal_pointer (&title), FALSE);
}

/**
 * tw_live_session_get_n_remotes:
 *
 * Returns: how many remote targets the session reads (0 for a sensor directory's)
 */
guint
tw_live_session_get_n_remotes (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), 0);
  return self->remote_urls ? self->remote_urls->len : 0;
}

/**
 * tw_live_session_is_running:
 *
 * Returns: whether the session polls its sources (a remote source that lost its
 *   connection keeps the session running while it reconnects)
 */
gboolean
tw_live_session_is_running (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  return self->running;
}

/**
 * tw_live_session_get_remote_url:
 *
 * Returns: (nullable): the remote session's URL (several targets': their URLs joined by
 *   " + "), %NULL for a sensor directory's session
 */
const char *
tw_live_session_get_remote_url (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), NULL);
  return self->remote_url;
}

static void
add_note (TwLiveSession *self,
          const char    *what,
          GError        *error)
{
  if (self->notes->len)
    g_string_append_c (self->notes, '\n');
  g_string_append_printf (self->notes, "%s: %s", what, error->message);
}

/**
 * tw_live_session_start:
 * @flags: which optional sources to try; one that cannot be had (not root, no tracefs,
 *   built without libgtop) is not an error: tw_live_session_get_notes() says why
 *
 * Attaches to the sensor directory (created, mode 0700, when it is the per-user default
 * and does not exist yet) and starts polling.
 *
 * Returns: %FALSE with @error set when the directory cannot be read
 */
gboolean
tw_live_session_start (TwLiveSession      *self,
                       TwLiveSessionFlags  flags,
                       GError            **error)
{
  gboolean kernel = FALSE;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  g_return_val_if_fail (!self->running, FALSE);

  if (self->remote_url)
    {
      tw_live_lttng_name_hosts ((TwLiveSource **) self->remote_sources->pdata,
                                self->remote_sources->len);
      /* the monitor takes each source, even one it refuses */
      while (self->remote_sources->len > 0)
        {
          TwLiveSource *source = g_ptr_array_steal_index (self->remote_sources, 0);

          /* the targets' sensors' declared streams are checked here, as local ones */
          if (tw_live_lttng_is_lttng (source))
            tw_live_lttng_set_arrival_func (source, _tw_live_session_on_arrival, self);
          if (!tw_monitor_add_source (self->monitor, source, error))
            return FALSE;
          /* the monitor owns it from now on, as long as the session holds the monitor */
          if (tw_live_lttng_is_lttng (source))
            g_ptr_array_add (self->lttng_sources, source);
        }
    }
  else if (self->sensor_dir == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("No sensor directory: set TRACEWB_SENSOR_DIR or choose one"));
      return FALSE;
    }
  else if (!g_file_test (self->sensor_dir, G_FILE_TEST_EXISTS)
      && g_mkdir_with_parents (self->sensor_dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s",
                   self->sensor_dir, g_strerror (saved));
      return FALSE;
    }
  if (!self->remote_url && !tw_monitor_scan (self->monitor, error))
    return FALSE;

  if (flags & TW_LIVE_SESSION_KERNEL)
    {
      g_autoptr (GError) local = NULL;
      TwLiveSource *source = NULL;

      kernel = tw_live_kernel_is_supported (&local)
               && (source = tw_live_kernel_new (&local))
               && tw_monitor_add_source (self->monitor, source, &local);
      if (!kernel)
        add_note (self, _("Kernel trace buffer not attached"), local);
    }
  if (flags & TW_LIVE_SESSION_GTOP)
    {
      g_autoptr (GError) local = NULL;
      TwLiveSource *source = NULL;

      if (!tw_live_gtop_is_supported (&local)
          || !(source = tw_live_gtop_new (0, &local))
          || !tw_monitor_add_source (self->monitor, source, &local))
        add_note (self, _("CPU load and memory (libgtop) not sampled"), local);
    }

  /* The kernel's per-CPU buffers need the monitor's default window; sensors stamp with
   * CLOCK_MONOTONIC right before publishing, 2 ms covers a writer preempted in between
   * (one that is later still gets stored, counted late). */
  if (!kernel)
    tw_monitor_set_reorder_window (self->monitor, WINDOW_NS);
  self->running = TRUE;
  tw_live_session_poll (self);
  self->thread = g_thread_new ("tw-live-poll", poll_thread, self);
  self->tick_id = g_timeout_add (TICK_INTERVAL_MS, tick_cb, self);

  if (self->demo_program && !_tw_live_session_start_demo (self, error))
    {
      tw_live_session_stop (self);
      return FALSE;
    }
  return TRUE;
}

/**
 * tw_live_session_get_trace:
 *
 * Returns: (transfer none): the live store
 */
TwTrace *
tw_live_session_get_trace (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), NULL);
  return tw_monitor_get_trace (self->monitor);
}

/**
 * tw_live_session_get_model:
 *
 * Returns: (transfer none): the state model, up to date at the last ::updated
 */
TwStateModel *
tw_live_session_get_model (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), NULL);
  return self->model;
}

/**
 * tw_live_session_get_sensor_dir:
 *
 * Returns: (nullable): the sensor directory
 */
const char *
tw_live_session_get_sensor_dir (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), NULL);
  return self->sensor_dir;
}

/**
 * tw_live_session_get_notes:
 *
 * Returns: why optional sources were not attached, one per line ("" when all were)
 */
const char *
tw_live_session_get_notes (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), NULL);
  return self->notes->str;
}

/**
 * tw_live_session_get_newest_time:
 *
 * Returns: the time up to which the store is complete (the merge's horizon), or the
 *   last stored time when that is later; 0 before anything arrived
 */
guint64
tw_live_session_get_newest_time (TwLiveSession *self)
{
  TwTrace *trace;
  guint64 emitted;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), 0);

  trace = tw_monitor_get_trace (self->monitor);
  g_mutex_lock (&self->lock);
  emitted = tw_monitor_get_emitted_until (self->monitor);
  g_mutex_unlock (&self->lock);
  return MAX (emitted, tw_trace_get_n_events (trace) ? tw_trace_get_last_time (trace) : 0);
}

gboolean
tw_live_session_get_paused (TwLiveSession *self)
{
  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  return self->paused;
}

/**
 * tw_live_session_set_paused:
 *
 * Pausing freezes the display (the state model and the views) while the store keeps
 * growing; resuming shows everything that arrived meanwhile at once.
 */
void
tw_live_session_set_paused (TwLiveSession *self,
                            gboolean       paused)
{
  g_return_if_fail (TW_IS_LIVE_SESSION (self));

  paused = !!paused;
  if (self->paused == paused)
    return;
  self->paused = paused;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAUSED]);
  if (!paused)
    tw_live_session_update (self);
}

/**
 * tw_live_session_get_poll_stats:
 * @n_polls: (out): polls so far
 * @max_gap_ns: (out): the longest time between two polls
 * @max_poll_ns: (out): the longest poll
 */
void
tw_live_session_get_poll_stats (TwLiveSession *self,
                                guint64       *n_polls,
                                guint64       *max_gap_ns,
                                guint64       *max_poll_ns)
{
  g_return_if_fail (TW_IS_LIVE_SESSION (self));

  g_mutex_lock (&self->lock);
  *n_polls = self->n_polls;
  *max_gap_ns = self->max_gap_ns;
  *max_poll_ns = self->max_poll_ns;
  g_mutex_unlock (&self->lock);
}
