/* tw-window-live.c: the window in live mode: attach, follow, pause, record
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <tw-ingest.h>

#include "tw-window-private.h"
#include "tw-recorder.h"
#include "tw-recorded-sensors.h"
#include "tw-sensors-pane.h"

#define LIVE_SPAN_NS         (G_GUINT64_CONSTANT (5) * 1000000000)  /* shown at attach */
#define LIVE_RELAYOUT_US     (250 * 1000)
#define LIVE_TIMELINE_US     (30 * 1000)    /* the followed timeline moves at ~30 Hz */

/* ------------------------------------------------------------------ live mode */

static void
update_live_controls (TwWindow *self)
{
  gboolean following, paused;
  GAction *pause;

  if (self->live_session == NULL || self->view_state == NULL)
    return;
  following = tw_view_state_get_following (self->view_state);
  paused = tw_live_session_get_paused (self->live_session);
  gtk_button_set_label (GTK_BUTTON (self->follow_button),
                        paused ? _("Paused") : following ? _("Following") : _("Follow (End)"));
  gtk_widget_set_tooltip_text (self->follow_button,
                               following ? _("The view follows the newest data; pan or zoom back to stop")
                                         : _("Show the newest data and follow it (End)"));
  if (following && !paused)
    gtk_widget_add_css_class (self->follow_button, "suggested-action");
  else
    gtk_widget_remove_css_class (self->follow_button, "suggested-action");
  gtk_widget_set_sensitive (self->follow_button, !following || paused);
  if (paused != gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->pause_button)))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->pause_button), paused);
  pause = g_action_map_lookup_action (G_ACTION_MAP (self), "live-pause");
  g_simple_action_set_state (G_SIMPLE_ACTION (pause), g_variant_new_boolean (paused));
}

/* At display rate: the state model holds everything stored; show it. */
static void
live_updated_cb (TwWindow *self)
{
  TwTrace *trace = tw_live_session_get_trace (self->live_session);
  TwStateModel *model = tw_live_session_get_model (self->live_session);
  guint n_tasks = tw_trace_get_n_tasks (trace);
  guint n_cpus = tw_trace_get_n_cpus (trace);
  guint64 n_events = tw_state_model_get_n_processed (model);
  gint64 now = g_get_monotonic_time ();

  /* Rows appear with new tasks and CPUs, and with a task's first state or mark (a
   * sensor's task exists before its first element): a relayout (cheap, a pass over
   * the tasks) at once for new tasks and CPUs, at most 4 times a second otherwise. */
  if (n_tasks != self->live_n_tasks || n_cpus != self->live_n_cpus
      || (n_events != self->live_n_events && now - self->live_relayout_us >= LIVE_RELAYOUT_US))
    {
      TwTimelinePainter *painter = tw_timeline_get_painter (TW_TIMELINE (self->timeline));

      self->live_n_tasks = n_tasks;
      self->live_n_cpus = n_cpus;
      self->live_n_events = n_events;
      self->live_relayout_us = now;
      if (painter)
        tw_timeline_layout_update (tw_timeline_painter_get_layout (painter));
    }
  /* Updates come at up to ~60 Hz when data arrives (histograms, counts); redrawing a
   * busy timeline costs more, and 30 Hz scrolls smoothly enough. */
  if (now - self->live_timeline_us >= LIVE_TIMELINE_US)
    {
      self->live_timeline_us = now;
      tw_view_state_follow (self->view_state, tw_live_session_get_newest_time (self->live_session));
      gtk_widget_queue_draw (self->timeline);
    }
  tw_evaluations_pane_advance (TW_EVALUATIONS_PANE (self->evaluations_pane));
  tw_sensors_pane_refresh (TW_SENSORS_PANE (self->sensors_pane));
}

void
_tw_window_detach_live (TwWindow *self)
{
  if (self->live_session == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->live_session, self);
  if (self->view_state)
    g_signal_handlers_disconnect_by_func (self->view_state, update_live_controls, self);
  tw_live_session_stop (self->live_session);
  /* after the session: a Keep recording's last chunk then holds every event */
  tw_recorder_stop (TW_RECORDER (self->recorder));
  g_clear_object (&self->live_session);
}

/* The Sensors tab of a trace that is not live: shown when it has sensors, gone when not. */
void
_tw_window_show_recorded_sensors (TwWindow *self,
                                  TwTrace  *trace)
{
  gboolean shown = trace != NULL && tw_recorded_sensors_present (trace);
  int page = gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->sensors_pane);

  tw_sensors_pane_set_recording (TW_SENSORS_PANE (self->sensors_pane), shown ? trace : NULL);
  if (shown && page < 0)
    gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), self->sensors_pane, gtk_label_new (_("Sensors")));
  else if (!shown && page >= 0)
    gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook), page);
}

/**
 * tw_window_attach_live:
 * @session: a started live session
 *
 * Shows @session live: the timeline follows the newest data, evaluations added from
 * the Evaluations tab keep updating, the Sensors tab lists the sources; the header bar
 * gets Follow, Pause and Record. The window stops the session when it closes.
 */
void
tw_window_attach_live (TwWindow      *self,
                       TwLiveSession *session)
{
  g_autofree char *title = NULL;
  /* sensors are stamped with CLOCK_MONOTONIC, a remote target (LTTng) with its own
   * clock from the Unix epoch */
  guint64 now = tw_live_session_get_remote_url (session) ? (guint64) g_get_real_time () * 1000
                                                         : tw_live_monotonic_ns ();
  int page;

  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (TW_IS_LIVE_SESSION (session));

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  _tw_window_detach_live (self);
  _tw_window_dismiss_error (self);
  self->live_session = g_object_ref (session);
  tw_evaluations_pane_set_live (TW_EVALUATIONS_PANE (self->evaluations_pane), TRUE);
  _tw_window_install_view_state (self, tw_live_session_get_model (session));
  tw_view_state_set_visible_range (self->view_state, now > LIVE_SPAN_NS ? now - LIVE_SPAN_NS : 0, now);
  tw_view_state_follow (self->view_state, MAX (now, tw_live_session_get_newest_time (session)));
  tw_view_state_set_following (self->view_state, TRUE);
  g_signal_connect_swapped (self->view_state, "notify::following", G_CALLBACK (update_live_controls), self);
  g_signal_connect_swapped (session, "notify::paused", G_CALLBACK (update_live_controls), self);
  g_signal_connect_swapped (session, "updated", G_CALLBACK (live_updated_cb), self);

  tw_sensors_pane_set_session (TW_SENSORS_PANE (self->sensors_pane), session);
  page = gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->sensors_pane);
  if (page < 0)
    page = gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), self->sensors_pane,
                                     gtk_label_new (_("Sensors")));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook), page);
  gtk_widget_set_visible (self->live_controls, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "trace");
  title = g_strdup_printf (_("Live: %s — Trace Workbench"),
                           tw_live_session_get_remote_url (session) ? tw_live_session_get_remote_url (session)
                                                                    : tw_live_session_get_sensor_dir (session));
  gtk_window_set_title (GTK_WINDOW (self), title);
  _tw_window_update_actions (self);
  update_live_controls (self);
  live_updated_cb (self);
}

/**
 * tw_window_show_error_message:
 * @what: what failed, shown before the error's message
 *
 * Shows @error in the window's error banner.
 */
void
tw_window_show_error_message (TwWindow   *self,
                              const char *what,
                              GError     *error)
{
  g_autofree char *text = NULL;

  g_return_if_fail (TW_IS_WINDOW (self));
  text = g_strdup_printf ("%s: %s", what, error->message);
  _tw_window_show_error_text (self, text);
}

/**
 * tw_window_get_live_session:
 *
 * Returns: (transfer none) (nullable): the live session shown, if any
 */
TwLiveSession *
tw_window_get_live_session (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  return self->live_session;
}

/**
 * tw_window_get_sensors_pane:
 *
 * Returns: (transfer none): the Sensors pane (in the notebook while live)
 */
GtkWidget *
tw_window_get_sensors_pane (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  return self->sensors_pane;
}

/**
 * tw_window_record:
 * @path: the CTF trace folder to make, or a `.csv` file to export to
 *
 * Starts writing what the live session stored so far to @path in a worker thread
 * (or, with the Keep recording toggle, what arrives until the session ends)
 * (TwRecorder: progress and Cancel in the header bar); failures show in the banner.
 *
 * Returns: %FALSE with @error set when no recording could be started
 */
gboolean
tw_window_record (TwWindow    *self,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (TW_IS_WINDOW (self), FALSE);

  if (self->live_session == NULL)
    g_set_error_literal (&local, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("No live session to record"));
  else if (tw_recorder_start (TW_RECORDER (self->recorder), tw_live_session_get_trace (self->live_session),
                              path, &local))
    {
      _tw_window_dismiss_error (self);
      return TRUE;
    }
  text = g_strdup_printf (_("Could not record the live session: %s"), local->message);
  _tw_window_show_error_text (self, text);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
}

static void
record_finished_cb (TwWindow   *self,
                    const char *path,
                    guint64     n_events,
                    GError     *error)
{
  g_autofree char *text = NULL;

  if (error == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  text = g_strdup_printf (_("Could not record the live session: %s"), error->message);
  _tw_window_show_error_text (self, text);
}

/**
 * tw_window_get_recorder:
 *
 * Returns: (transfer none): the Record control of the header bar (shown while live)
 */
TwRecorder *
tw_window_get_recorder (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);
  return TW_RECORDER (self->recorder);
}

static void
live_follow_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;

  if (self->live_session == NULL)
    return;
  tw_live_session_set_paused (self->live_session, FALSE);
  tw_view_state_set_following (self->view_state, TRUE);
}

static void
live_pause_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;

  if (self->live_session)
    tw_live_session_set_paused (self->live_session, !tw_live_session_get_paused (self->live_session));
}

static void
pause_toggled_cb (GtkToggleButton *button,
                  TwWindow        *self)
{
  if (self->live_session)
    tw_live_session_set_paused (self->live_session, gtk_toggle_button_get_active (button));
}

static void
record_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;

  if (self->live_session)
    tw_recorder_choose_file (TW_RECORDER (self->recorder), tw_live_session_get_trace (self->live_session));
}

static const GActionEntry live_action_entries[] = {
  { "live-follow", live_follow_action },
  { "live-pause", live_pause_action, NULL, "false" },
  { "record", record_action },
};

/* The live actions and what the header bar's live controls (tw-window.ui) do. After
 * gtk_widget_init_template(). */
void
_tw_window_init_live (TwWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), live_action_entries,
                                   G_N_ELEMENTS (live_action_entries), self);
  g_signal_connect (self->pause_button, "toggled", G_CALLBACK (pause_toggled_cb), self);
  g_signal_connect_swapped (self->recorder, "finished", G_CALLBACK (record_finished_cb), self);
  /* a notebook page only while live: not in the template */
  self->sensors_pane = g_object_ref_sink (tw_sensors_pane_new ());
}
