/* tw-window-growing.c: the window shows a trace as it loads
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-window-private.h"

/*
 * A cold open of a 100 M-event dump read for seconds, then built the state model for
 * seconds more, with nothing but a progress bar on screen. Now the timeline shows as
 * soon as the reader published its first rows: the load thread reads into a trace the
 * main thread follows (as in live mode, rows published by tw_trace_end_append()), and
 * the main loop builds the state model in steps of a few milliseconds
 * (tw_state_model_update_some()), drawing in between; rows and tasks arrive as the
 * reader goes, the view keeps the whole trace read so far in sight until the user moves
 * it. The event list, details and evaluations get the trace once the model is whole.
 *
 * The main thread reads rows only while the reader will not change them: before the
 * reader rewrites published rows (sorting at seal, a second pass over the times), it
 * asks the main thread to drop the view (tw_trace_set_rewrite_func()) and waits; the
 * view starts again on the sealed trace.
 */

#define STEP_US          4000    /* main-loop time per model step */
#define STEP_EVENTS      32768   /* events between clock reads within a step */
#define IDLE_WAIT_MS     15      /* model caught up with the reader: look again */
#define REDRAW_US        (100 * 1000)
#define PAINT_SHARE      16      /* paints take at most 1/16 of the main loop's time */
#define RELAYOUT_US      (250 * 1000)

struct _TwGrowing
{
  GMutex    lock;
  GCond     cond;
  GWeakRef  window;
  gboolean  released;   /* the main thread reads no more rows of the trace */
};

TwGrowing *
_tw_growing_new (TwWindow *window)
{
  TwGrowing *self = g_atomic_rc_box_new0 (TwGrowing);

  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_weak_ref_init (&self->window, window);
  return self;
}

static void
growing_clear (TwGrowing *self)
{
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_weak_ref_clear (&self->window);
}

TwGrowing *
_tw_growing_ref (TwGrowing *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
_tw_growing_unref (TwGrowing *self)
{
  g_atomic_rc_box_release_full (self, (GDestroyNotify) growing_clear);
}

/* Main thread: from now on nothing of the window reads the trace's rows. */
static void
growing_release (TwGrowing *self)
{
  g_mutex_lock (&self->lock);
  self->released = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

typedef struct {
  TwWindow  *window;
  TwGrowing *growing;
  TwTrace   *trace;
} Call;

static Call *
call_new (TwWindow  *window,
          TwGrowing *growing,
          TwTrace   *trace)
{
  Call *call = g_new0 (Call, 1);

  call->window = g_object_ref (window);
  call->growing = _tw_growing_ref (growing);
  call->trace = trace ? g_object_ref (trace) : NULL;
  return call;
}

static void
call_free (Call *call)
{
  g_object_unref (call->window);
  _tw_growing_unref (call->growing);
  g_clear_object (&call->trace);
  g_free (call);
}

/* ------------------------------------------------------------------ the view */

static void step_schedule (TwWindow *self, gboolean at_once);
static gboolean step_cb (gpointer data);

static void
after_paint_cb (GdkFrameClock *clock,
                TwWindow      *self)
{
  if (!gtk_widget_get_mapped (self->timeline) || self->view_state == NULL
      || g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), "trace") != 0)
    return;
  g_signal_handlers_disconnect_by_func (clock, after_paint_cb, self);
  self->first_frame = FIRST_FRAME_SHOWN;
  _tw_window_emit_first_frame (self);
}

static void
before_paint_cb (GdkFrameClock *clock,
                 TwWindow      *self)
{
  self->building_paint_start_us = g_get_monotonic_time ();
}

static void
paint_timed_cb (GdkFrameClock *clock,
                TwWindow      *self)
{
  if (self->building_paint_start_us > 0)
    self->building_paint_us = g_get_monotonic_time () - self->building_paint_start_us;
}

static void
time_paints (TwWindow *self,
             gboolean  on)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  self->building_paint_us = 0;
  self->building_paint_start_us = 0;
  if (clock == NULL)
    return;
  g_signal_handlers_disconnect_by_func (clock, before_paint_cb, self);
  g_signal_handlers_disconnect_by_func (clock, paint_timed_cb, self);
  if (!on)
    return;
  g_signal_connect (clock, "before-paint", G_CALLBACK (before_paint_cb), self);
  g_signal_connect (clock, "after-paint", G_CALLBACK (paint_timed_cb), self);
}

/* The "first-frame" signal follows the next paint of the timeline, once per load. */
static void
watch_first_frame (TwWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (self->first_frame != FIRST_FRAME_NONE || clock == NULL)
    return;
  self->first_frame = FIRST_FRAME_WATCHED;
  g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), self);
}

static void
unwatch_first_frame (TwWindow *self)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (self));

  if (self->first_frame != FIRST_FRAME_WATCHED)
    return;
  self->first_frame = FIRST_FRAME_NONE;
  if (clock)
    g_signal_handlers_disconnect_by_func (clock, after_paint_cb, self);
}

/* The whole trace read so far, while the user did not move the view. */
static void
keep_all_in_view (TwWindow *self)
{
  guint64 begin, end;

  tw_view_state_get_visible_range (self->view_state, &begin, &end);
  if (begin != self->building_begin || end != self->building_end)
    return;
  tw_view_state_zoom_to_fit (self->view_state);
  tw_view_state_get_visible_range (self->view_state, &self->building_begin, &self->building_end);
}

static void
refresh_view (TwWindow *self,
              gboolean  force)
{
  TwTrace *trace = tw_view_state_get_trace (self->view_state);
  TwTimelinePainter *painter = tw_timeline_get_painter (TW_TIMELINE (self->timeline));
  gint64 now = g_get_monotonic_time ();
  guint n_tasks = tw_trace_get_n_tasks (trace);
  guint n_cpus = tw_state_model_get_n_cpus (self->building);

  /* the level-of-detail bins grow with the model, so a frame while loading costs what
   * a frame of the whole model does; a slow one (a huge view, a slow display) still
   * comes less often, so that the model keeps going */
  if (!force && now - self->building_draw_us < MAX (REDRAW_US, PAINT_SHARE * self->building_paint_us))
    return;
  self->building_draw_us = now;
  /* rows come with new tasks and CPUs, and with a task's first state or mark */
  if (painter && (force || n_tasks != self->building_n_tasks || n_cpus != self->building_n_cpus
                  || now - self->building_layout_us >= RELAYOUT_US))
    {
      self->building_n_tasks = n_tasks;
      self->building_n_cpus = n_cpus;
      self->building_layout_us = now;
      tw_timeline_layout_update (tw_timeline_painter_get_layout (painter));
    }
  keep_all_in_view (self);
  gtk_widget_queue_draw (self->timeline);
  /* the first frame that shows something */
  if (tw_state_model_get_n_processed (self->building) > 0)
    watch_first_frame (self);
}

/**
 * _tw_window_begin_view:
 * @growing: (nullable): set while the trace is still being read
 *
 * Shows @trace's timeline at once and builds its state model in steps on the main loop.
 */
void
_tw_window_begin_view (TwWindow  *self,
                       TwTrace   *trace,
                       TwGrowing *growing)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(TwViewState) view_state = tw_view_state_new (model);

  _tw_window_leave_live_mode (self);
  if (self->building == NULL)
    g_set_object (&self->before_building, self->view_state);
  _tw_window_end_view (self, FALSE);
  self->building = g_steal_pointer (&model);
  self->growing = growing ? _tw_growing_ref (growing) : NULL;
  g_set_object (&self->view_state, view_state);
  tw_view_state_get_visible_range (view_state, &self->building_begin, &self->building_end);
  self->building_n_tasks = self->building_n_cpus = G_MAXUINT;
  tw_timeline_set_view_state (TW_TIMELINE (self->timeline), view_state);
  gtk_widget_set_visible (self->building_controls, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "trace");
  _tw_window_update_actions (self);
  time_paints (self, TRUE);
  /* the rows read so far are in the first frame */
  step_cb (self);
}

/**
 * _tw_window_end_view:
 * @restore: show again the trace shown before (the load failed or was cancelled)
 *
 * Stops building the model of the trace shown as it loads, and reading its rows.
 */
void
_tw_window_end_view (TwWindow *self,
                     gboolean  restore)
{
  g_clear_handle_id (&self->step_source, g_source_remove);
  if (self->growing)
    {
      growing_release (self->growing);
      g_clear_pointer (&self->growing, _tw_growing_unref);
    }
  if (self->building == NULL)
    return;
  g_clear_object (&self->building);
  unwatch_first_frame (self);
  time_paints (self, FALSE);
  gtk_widget_set_visible (self->building_controls, FALSE);
  if (restore)
    {
      g_set_object (&self->view_state, self->before_building);
      tw_timeline_set_view_state (TW_TIMELINE (self->timeline), self->view_state);
      g_clear_object (&self->before_building);
      _tw_window_update_actions (self);
    }
}

/* The model is whole: the panes get the trace, the load ends. */
static void
complete_view (TwWindow *self)
{
  TwTimelineLayout *layout;

  g_clear_handle_id (&self->step_source, g_source_remove);
  refresh_view (self, TRUE);
  /* tasks keep their rows' order as they come while loading; the order asked for (CPU
   * time, say) is known now */
  layout = tw_timeline_painter_get_layout (tw_timeline_get_painter (TW_TIMELINE (self->timeline)));
  tw_timeline_layout_set_task_sort (layout, tw_timeline_layout_get_task_sort (layout));
  /* the load returned the trace: a cache file kept since the read waits for this model
   * (tw_trace_cache_keep_temp()), which the steps may have offered before */
  tw_trace_cache_offer_state_model (self->building);
  g_clear_object (&self->building);
  g_clear_object (&self->before_building);
  time_paints (self, FALSE);
  gtk_widget_set_visible (self->building_controls, FALSE);
  _tw_window_connect_panes (self);
  _tw_window_load_complete (self);
}

static void
fail_view (TwWindow *self,
           GError   *error)
{
  _tw_window_end_view (self, TRUE);
  _tw_window_load_failed (self, error);
}

static gboolean
step_cb (gpointer data)
{
  TwWindow *self = data;
  TwTrace *trace = tw_state_model_get_trace (self->building);
  gint64 deadline = g_get_monotonic_time () + STEP_US;
  g_autoptr(GError) error = NULL;
  guint64 published;

  self->step_source = 0;
  do
    {
      if (!tw_state_model_update_some (self->building, STEP_EVENTS, self->load_cancellable,
                                       &error))
        {
          fail_view (self, error);
          return G_SOURCE_REMOVE;
        }
      published = tw_trace_get_n_events (trace);
    }
  while (tw_state_model_get_n_processed (self->building) < published
         && g_get_monotonic_time () < deadline);

  if (self->reading_done && tw_state_model_get_n_processed (self->building) == published)
    {
      complete_view (self);
      return G_SOURCE_REMOVE;
    }
  refresh_view (self, FALSE);
  step_schedule (self, tw_state_model_get_n_processed (self->building) < published);
  return G_SOURCE_REMOVE;
}

/* Steps run as idles, below input and drawing, while there is work; once the model
 * caught up with the reader, a timer looks for more. */
static void
step_schedule (TwWindow *self,
               gboolean  at_once)
{
  if (self->step_source || self->building == NULL)
    return;
  self->step_source = at_once ? g_idle_add (step_cb, self)
                              : g_timeout_add (IDLE_WAIT_MS, step_cb, self);
}

/* The reader is done: the model may finish. */
void
_tw_window_view_read (TwWindow *self)
{
  self->reading_done = TRUE;
  if (self->growing)
    {
      growing_release (self->growing);
      g_clear_pointer (&self->growing, _tw_growing_unref);
    }
  g_clear_handle_id (&self->step_source, g_source_remove);
  step_schedule (self, TRUE);
}

double
_tw_window_view_fraction (TwWindow *self)
{
  TwTrace *trace;
  guint64 n;

  if (self->building == NULL)
    return 0;
  trace = tw_state_model_get_trace (self->building);
  n = tw_trace_get_n_events (trace);
  return n ? (double) tw_state_model_get_n_processed (self->building) / n : 0;
}

/* ------------------------------------------------------------------ the load thread */

static gboolean
show_idle_cb (gpointer data)
{
  Call *call = data;
  TwWindow *self = call->window;

  if (self->load_job == NULL || self->load_job->growing != call->growing || call->growing->released)
    return G_SOURCE_REMOVE;
  _tw_window_begin_view (self, call->trace, call->growing);
  return G_SOURCE_REMOVE;
}

/* Load thread: the reader is about to fill @trace. */
void
_tw_window_trace_started (TwTrace   *trace,
                          TwGrowing *growing)
{
  g_autoptr(TwWindow) window = g_weak_ref_get (&growing->window);

  if (window == NULL)
    return;
  tw_trace_set_rewrite_func (trace, _tw_window_trace_rewrite, growing);
  g_idle_add_full (G_PRIORITY_DEFAULT, show_idle_cb, call_new (window, growing, trace),
                   (GDestroyNotify) call_free);
}

static gboolean
stop_idle_cb (gpointer data)
{
  Call *call = data;
  TwWindow *self = call->window;

  if (self->growing == call->growing)
    {
      _tw_window_end_view (self, TRUE);
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
    }
  growing_release (call->growing);
  return G_SOURCE_REMOVE;
}

/* Load thread, before the reader changes rows it published: waits until the main
 * thread dropped the view. */
void
_tw_window_trace_rewrite (TwTrace  *trace,
                          gpointer  data)
{
  TwGrowing *growing = data;
  g_autoptr(TwWindow) window = g_weak_ref_get (&growing->window);

  g_mutex_lock (&growing->lock);
  if (!growing->released && window)
    {
      g_idle_add_full (G_PRIORITY_DEFAULT, stop_idle_cb, call_new (window, growing, NULL),
                       (GDestroyNotify) call_free);
      g_clear_object (&window);
      while (!growing->released)
        g_cond_wait (&growing->cond, &growing->lock);
    }
  growing->released = TRUE;
  g_mutex_unlock (&growing->lock);
}
