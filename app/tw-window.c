/* tw-window.c: the main window: welcome, loading, and one trace's panes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-window-private.h"

#include <glib/gi18n-lib.h>

#include <tw-ingest.h>

#include "tw-cursor-state-pane.h"
#include "tw-details-pane.h"
#include "tw-go-to-time.h"
#include "tw-recorder.h"
#include "tw-sensors-pane.h"

/*
 * Loading runs in a GTask thread (read + seal); the state model is built on the main
 * loop in steps, the timeline shown from the first rows read (tw-window-growing.c). The
 * thread only stores its progress in an atomic; a 30 Hz timer on the main loop shows it,
 * so a reader calling its progress function a million times costs a million atomic
 * stores, not a million main-loop wakeups. Errors go to an in-window banner and leave
 * whatever was shown before (the previous trace or the welcome page) usable.
 */

#define PROGRESS_INTERVAL_MS 33          /* ≈ 30 updates per second */
#define RECENT_APP_NAME      "tracewb"
#define RECENT_MAX           10

G_DEFINE_FINAL_TYPE (TwWindow, tw_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_VIEW_STATE,
  PROP_LOADING,
  N_PROPS
};

enum {
  LOAD_FINISHED,
  FIRST_FRAME,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char *trace_actions[] = {
  "zoom-in", "zoom-out", "zoom-fit", "pan-left", "pan-right",
  "next-event", "previous-event", "go-to-time", "find", "export-timeline",
};

static const char *live_actions[] = { "live-follow", "live-pause", "record" };

/* they read rows or panes the window connects once the state model is whole */
static const char *whole_trace_actions[] = {
  "next-event", "previous-event", "go-to-time", "find", "export-timeline",
};

static void
load_job_free (LoadJob *job)
{
  g_free (job->path);
  g_free (job->title);
  g_clear_object (&job->trace);
  g_clear_pointer (&job->growing, _tw_growing_unref);
  g_free (job);
}

/* ------------------------------------------------------------------ state */

static void
set_action_enabled (TwWindow   *self,
                    const char *name,
                    gboolean    enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);

  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

void
_tw_window_update_actions (TwWindow *self)
{
  gboolean has_trace = self->view_state != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (trace_actions); i++)
    set_action_enabled (self, trace_actions[i], has_trace);
  for (guint i = 0; i < G_N_ELEMENTS (whole_trace_actions); i++)
    set_action_enabled (self, whole_trace_actions[i], has_trace && self->building == NULL);
  set_action_enabled (self, "cancel-load", self->load_cancellable != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (live_actions); i++)
    set_action_enabled (self, live_actions[i], self->live_session != NULL);
  gtk_widget_set_visible (self->go_to_time_button, has_trace && self->building == NULL);
}

static void
show_error (TwWindow   *self,
            const char *title,
            GError     *error)
{
  g_autofree char *text = NULL;

  /* Reader errors name the file and line/offset themselves; the title says which open
   * failed even when a message does not. */
  text = g_strdup_printf (_("Could not open “%s”: %s"), title, error->message);
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

/* A trace read without the cache (no room on the disk for its file) says so once, in the
 * message bar, with the room needed. */
static void
show_cache_note (TwWindow   *self,
                 const char *title,
                 TwTrace    *trace)
{
  const char *note = tw_reader_registry_get_cache_note (trace);
  g_autofree char *text = NULL;

  if (note == NULL)
    return;
  text = g_strdup_printf ("“%s”: %s", title, note);
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

void
_tw_window_show_error_text (TwWindow   *self,
                 const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

void
_tw_window_dismiss_error (TwWindow *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), FALSE);
}

/* The legend says what an explained path's colours mean while one is on the timeline. */
static void
highlight_changed_cb (TwWindow *self)
{
  /* the panes clear their paths while the window is torn down, its legend gone */
  if (self->legend_view == NULL)
    return;
  tw_timeline_legend_view_set_path_shown (TW_TIMELINE_LEGEND_VIEW (self->legend_view),
                                          self->view_state != NULL &&
                                          tw_view_state_get_highlight (self->view_state) != NULL);
}

void
_tw_window_install_view_state (TwWindow     *self,
                    TwStateModel *model)
{
  g_autoptr(TwViewState) view_state = tw_view_state_new (model);

  g_set_object (&self->view_state, view_state);
  _tw_window_connect_panes (self);
}

/* Every pane shows the view state the timeline shows. */
void
_tw_window_connect_panes (TwWindow *self)
{
  TwViewState *view_state = self->view_state;

  g_signal_connect_object (view_state, "notify::highlight", G_CALLBACK (highlight_changed_cb), self,
                           G_CONNECT_SWAPPED);
  highlight_changed_cb (self);
  tw_timeline_set_view_state (TW_TIMELINE (self->timeline), view_state);
  tw_event_list_set_view_state (TW_EVENT_LIST (self->event_list), view_state);
  tw_details_pane_set_view_state (TW_DETAILS_PANE (self->details_pane), view_state);
  tw_cursor_state_pane_set_view_state (TW_CURSOR_STATE_PANE (self->cursor_state_pane), view_state);
  tw_evaluations_pane_set_view_state (TW_EVALUATIONS_PANE (self->evaluations_pane), view_state);
  tw_go_to_time_set_trace (TW_GO_TO_TIME (self->go_to_time_popover), tw_view_state_get_trace (view_state));
  /* a live session's tab is its own (tw_window_attach_live) */
  if (self->live_session == NULL)
    _tw_window_show_recorded_sensors (self, tw_view_state_get_trace (view_state));
  _tw_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_STATE]);
}

/* ------------------------------------------------------------------ recent */

static void
add_to_recent (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL,
    .description = NULL,
    .mime_type = (char *) "application/octet-stream",
    .app_name = (char *) RECENT_APP_NAME,
    .app_exec = (char *) "tracewb %u",
    .groups = NULL,
    .is_private = FALSE,
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GDateTime *ta = gtk_recent_info_get_modified ((GtkRecentInfo *) a);
  GDateTime *tb = gtk_recent_info_get_modified ((GtkRecentInfo *) b);

  return g_date_time_compare (tb, ta);
}

static void
rebuild_recent_menu (TwWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  items = g_list_sort (items, compare_recent);
  for (GList *l = items; l && n < RECENT_MAX; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      g_autoptr(GMenuItem) item = NULL;

      if (!gtk_recent_info_has_application (info, RECENT_APP_NAME) || !gtk_recent_info_exists (info))
        continue;
      item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  if (n == 0)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new ("No recent traces", "win.no-recent");
      g_menu_append_item (self->recent_menu, item);
    }
}

/* ------------------------------------------------------------------ loading */

/* A file opened in a live window replaces the live session. */
void
_tw_window_leave_live_mode (TwWindow *self)
{
  int page;

  if (self->live_session == NULL)
    return;
  _tw_window_detach_live (self);
  tw_sensors_pane_set_session (TW_SENSORS_PANE (self->sensors_pane), NULL);
  page = gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->sensors_pane);
  if (page >= 0)
    gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook), page);
  gtk_widget_set_visible (self->live_controls, FALSE);
  tw_evaluations_pane_set_live (TW_EVALUATIONS_PANE (self->evaluations_pane), FALSE);
}

static void
load_progress_cb (double   fraction,
                  gpointer user_data)
{
  LoadJob *job = user_data;

  g_atomic_int_set (&job->permille, (gint) (CLAMP (fraction, 0.0, 1.0) * 1000));
}

static void
trace_started_cb (TwTrace  *trace,
                  gpointer  user_data)
{
  _tw_window_trace_started (trace, user_data);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  TwTrace *trace;
  GError *error = NULL;

  if (job->trace)
    trace = g_object_ref (job->trace);
  else if (!(trace = tw_reader_registry_load_file_shown (job->path, NULL,
                                                         TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                         trace_started_cb, job->growing,
                                                         load_progress_cb, job, cancellable,
                                                         &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  g_atomic_int_set (&job->permille, 1000);
  g_task_return_pointer (task, trace, g_object_unref);
}

static gboolean
progress_tick_cb (gpointer user_data)
{
  TwWindow *self = user_data;
  g_autofree char *text = NULL;
  double fraction;

  if (self->building)
    {
      /* the model follows the reader closely: the read says how far the load is */
      if (self->load_job)
        fraction = g_atomic_int_get (&self->load_job->permille) / 1000.0;
      else
        fraction = _tw_window_view_fraction (self);
      text = g_strdup_printf (self->load_job ? _("Reading… %d %%") : _("Building states… %d %%"),
                              (int) (fraction * 100));
      gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->building_progress), fraction);
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->building_progress), text);
      return G_SOURCE_CONTINUE;
    }
  if (self->load_job == NULL)
    return G_SOURCE_CONTINUE;

  fraction = g_atomic_int_get (&self->load_job->permille) / 1000.0;
  text = g_strdup_printf (_("Reading… %d %%"), (int) (fraction * 100));
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), fraction);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
  return G_SOURCE_CONTINUE;
}

static void
finish_loading (TwWindow *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->load_cancellable);
  self->load_job = NULL;
  _tw_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

void
_tw_window_load_failed (TwWindow *self,
                        GError   *error)
{
  finish_loading (self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), self->previous_page);
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error (self, self->loading_title, error);
  g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
}

void
_tw_window_load_complete (TwWindow *self)
{
  g_autofree char *title = g_strdup_printf (_("%s — Trace Workbench"), self->loading_title);

  finish_loading (self);
  gtk_window_set_title (GTK_WINDOW (self), title);
  if (self->loading_path)
    add_to_recent (self->loading_path);
  gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (TW_EVENT_LIST (self->event_list))));
  g_signal_emit (self, signals[LOAD_FINISHED], 0, TRUE);
}

void
_tw_window_emit_first_frame (TwWindow *self)
{
  g_signal_emit (self, signals[FIRST_FRAME], 0);
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TwWindow *self = TW_WINDOW (object);
  GTask *task = G_TASK (result);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  /* a newer load replaced this one: it owns the page and the progress */
  if (g_task_get_cancellable (task) != self->load_cancellable)
    {
      trace = g_task_propagate_pointer (task, NULL);   /* dropped on return */
      return;
    }

  trace = g_task_propagate_pointer (task, &error);
  self->load_job = NULL;   /* freed with the task */
  if (trace == NULL)
    {
      _tw_window_end_view (self, TRUE);
      _tw_window_load_failed (self, error);
      return;
    }
  show_cache_note (self, self->loading_title, trace);
  /* a trace read in a child or mapped from the cache, or one whose rows the reader
   * rewrote: shown from now on */
  if (self->building == NULL || tw_state_model_get_trace (self->building) != trace)
    _tw_window_begin_view (self, trace, NULL);
  _tw_window_view_read (self);
}

static void
start_loading (TwWindow *self,
               LoadJob  *job)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *label = NULL;
  const char *page = gtk_stack_get_visible_child_name (GTK_STACK (self->stack));

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  else
    {
      g_free (self->previous_page);
      self->previous_page = g_strdup (page ? page : "welcome");
    }
  _tw_window_end_view (self, TRUE);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  self->reading_done = FALSE;
  self->first_frame = FIRST_FRAME_NONE;
  g_free (self->loading_title);
  self->loading_title = g_strdup (job->title);
  g_free (self->loading_path);
  self->loading_path = g_strdup (job->path);
  if (job->path)
    job->growing = _tw_growing_new (self);
  _tw_window_dismiss_error (self);

  label = g_strdup_printf (_("Opening %s"), job->title);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->building_progress), 0.0);
  gtk_label_set_text (GTK_LABEL (self->loading_label), label);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0.0);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), _("Reading…"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");

  task = g_task_new (self, self->load_cancellable, load_done_cb, NULL);
  g_task_set_source_tag (task, start_loading);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  self->load_job = job;
  if (self->progress_source == 0)
    self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick_cb, self);
  _tw_window_update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
  g_task_run_in_thread (task, load_thread);
}

/**
 * tw_window_open_file:
 *
 * Reads @file in a thread, showing progress; on failure the error appears in the window
 * and the previous trace (or the welcome page) stays.
 */
void
tw_window_open_file (TwWindow *self,
                     GFile    *file)
{
  LoadJob *job;

  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  job = g_new0 (LoadJob, 1);
  job->path = g_file_get_path (file);
  job->title = g_file_get_basename (file);
  if (job->path == NULL)
    {
      g_autoptr(GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                             "%s: only local files can be opened", job->title);
      show_error (self, job->title, error);
      load_job_free (job);
      g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
      return;
    }
  start_loading (self, job);
}

/**
 * tw_window_load_trace:
 * @trace: a sealed trace
 * @title: what to call it in the window
 *
 * Shows @trace, building its state model in a thread as a file open does.
 */
void
tw_window_load_trace (TwWindow   *self,
                      TwTrace    *trace,
                      const char *title)
{
  LoadJob *job;

  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (TW_IS_TRACE (trace));

  job = g_new0 (LoadJob, 1);
  job->trace = g_object_ref (trace);
  job->title = g_strdup (title);
  start_loading (self, job);
}

gboolean
tw_window_get_loading (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), FALSE);

  return self->load_cancellable != NULL;
}

void
tw_window_cancel_loading (TwWindow *self)
{
  g_return_if_fail (TW_IS_WINDOW (self));

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
}

/* ------------------------------------------------------------------ drag and drop */

static gboolean
drop_cb (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         gpointer       user_data)
{
  TwWindow *self = user_data;
  GSList *files;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = gdk_file_list_get_files (g_value_get_boxed (value));
  if (files == NULL)
    return FALSE;

  tw_window_open_file (self, files->data);
  /* one trace per window: the others get windows of their own */
  if (files->next && app)
    {
      g_autoptr(GPtrArray) rest = g_ptr_array_new ();

      for (GSList *l = files->next; l; l = l->next)
        g_ptr_array_add (rest, l->data);
      g_application_open (G_APPLICATION (app), (GFile **) rest->pdata, rest->len, "");
    }
  g_slist_free (files);
  return TRUE;
}

/* ------------------------------------------------------------------ GObject */

static void
tw_window_dispose (GObject *object)
{
  TwWindow *self = (TwWindow *)object;

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_job = NULL;
  _tw_window_end_view (self, FALSE);
  g_clear_object (&self->before_building);
  _tw_window_detach_live (self);
  /* a recording being written outlives the window (TwRecorder) */
  if (self->recorder)
    g_signal_handlers_disconnect_by_data (self->recorder, self);
  g_clear_object (&self->sensors_pane);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_signal_handler (&self->recent_changed_handler, gtk_recent_manager_get_default ());
  g_clear_object (&self->view_state);
  g_clear_object (&self->recent_menu);

  /* GTK 4.8: a focused widget deep in the template (a list row, the find entry) asks
   * for the window's focus while being torn down; drop the focus first. */
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_WINDOW);

  G_OBJECT_CLASS (tw_window_parent_class)->dispose (object);
}

static void
tw_window_finalize (GObject *object)
{
  TwWindow *self = (TwWindow *)object;

  g_free (self->previous_page);
  g_free (self->loading_title);
  g_free (self->loading_path);

  G_OBJECT_CLASS (tw_window_parent_class)->finalize (object);
}

static void
tw_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  TwWindow *self = TW_WINDOW (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE: g_value_set_object (value, self->view_state); break;
    case PROP_LOADING:    g_value_set_boolean (value, tw_window_get_loading (self)); break;
    default:              G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* menus.ui is loaded by GtkApplication from the resource base path; "application" is
 * set after construction, so the primary menu is picked up when it arrives. */
static void
application_changed_cb (TwWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  GMenu *primary_menu = app ? gtk_application_get_menu_by_id (app, "primary_menu") : NULL;

  if (primary_menu)
    gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->primary_button), G_MENU_MODEL (primary_menu));
}

static void
tw_window_class_init (TwWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_window_dispose;
  object_class->finalize = tw_window_finalize;
  object_class->get_property = tw_window_get_property;

  properties[PROP_VIEW_STATE] =
    g_param_spec_object ("view-state", NULL, NULL, TW_TYPE_VIEW_STATE,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOADING] =
    g_param_spec_boolean ("loading", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwWindow::load-finished:
   * @success: whether a trace is now shown
   *
   * Emitted when a load ends: shown, failed (the error banner says why) or cancelled.
   */
  signals[LOAD_FINISHED] =
    g_signal_new ("load-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  /**
   * TwWindow::first-frame:
   *
   * Emitted once per load, after the first paint of the timeline of the trace being
   * opened (its state model may still be building).
   */
  signals[FIRST_FRAME] =
    g_signal_new ("first-frame", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (TW_TYPE_GO_TO_TIME);
  g_type_ensure (TW_TYPE_EVENT_LIST);
  g_type_ensure (TW_TYPE_DETAILS_PANE);
  g_type_ensure (TW_TYPE_CURSOR_STATE_PANE);
  g_type_ensure (TW_TYPE_EVALUATIONS_PANE);
  g_type_ensure (TW_TYPE_TIMELINE_LEGEND_VIEW);
  g_type_ensure (TW_TYPE_RECORDER);
  g_type_ensure (TW_TYPE_TIMELINE);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TwWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, primary_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, go_to_time_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, go_to_time_popover);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, legend_view);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, building_controls);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, building_progress);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, trace_paned);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, timeline_slot);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, timeline_scroller);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, details_pane);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, cursor_state_pane);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, evaluations_pane);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, live_controls);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, follow_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, pause_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, recorder);
  gtk_widget_class_bind_template_callback_full (widget_class, "go_to_time_chosen_cb",
                                                G_CALLBACK (_tw_window_go_to_time_chosen_cb));
}

static void
tw_window_init (TwWindow *self)
{
  GtkDropTarget *drop;
  GtkRecentManager *recent = gtk_recent_manager_get_default ();

  gtk_widget_init_template (GTK_WIDGET (self));

  _tw_window_init_live (self);
  _tw_window_init_actions (self);
  g_signal_connect (self, "notify::application", G_CALLBACK (application_changed_cb), NULL);

  self->recent_menu = g_menu_new ();
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->recent_button), G_MENU_MODEL (self->recent_menu));
  self->recent_changed_handler = g_signal_connect_swapped (recent, "changed",
                                                           G_CALLBACK (rebuild_recent_menu), self);
  rebuild_recent_menu (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (drop_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  self->previous_page = g_strdup ("welcome");
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "welcome");
  _tw_window_update_actions (self);
}

/**
 * tw_window_new:
 *
 * Returns: (transfer full): a window showing the welcome page
 */
TwWindow *
tw_window_new (GtkApplication *application)
{
  return g_object_new (TW_TYPE_WINDOW, "application", application, NULL);
}

/**
 * tw_window_get_view_state:
 *
 * Returns: (transfer none) (nullable): the shown trace's view state
 */
TwViewState *
tw_window_get_view_state (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->view_state;
}

/**
 * tw_window_get_page:
 *
 * Returns: "welcome", "loading" or "trace"
 */
const char *
tw_window_get_page (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

/**
 * tw_window_get_error_message:
 *
 * Returns: (nullable): the error banner's text while it is shown
 */
const char *
tw_window_get_error_message (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  if (!gtk_revealer_get_reveal_child (GTK_REVEALER (self->error_revealer)))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (self->error_label));
}

/**
 * tw_window_get_event_list:
 *
 * Returns: (transfer none): the event list
 */
TwEventList *
tw_window_get_event_list (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return TW_EVENT_LIST (self->event_list);
}

/**
 * tw_window_get_details_pane:
 *
 * Returns: (transfer none): the details pane
 */
GtkWidget *
tw_window_get_details_pane (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->details_pane;
}

/**
 * tw_window_get_cursor_state_pane:
 *
 * Returns: (transfer none): the state-at-cursor pane
 */
GtkWidget *
tw_window_get_cursor_state_pane (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->cursor_state_pane;
}

/**
 * tw_window_get_evaluations_pane:
 *
 * Returns: (transfer none): the Evaluations tab
 */
TwEvaluationsPane *
tw_window_get_evaluations_pane (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return TW_EVALUATIONS_PANE (self->evaluations_pane);
}

/**
 * tw_window_get_timeline:
 *
 * Returns: (transfer none): the timeline
 */
GtkWidget *
tw_window_get_timeline (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->timeline;
}

/**
 * tw_window_get_timeline_slot:
 *
 * Returns: (transfer none): the box above the notebook that holds the timeline
 */
GtkWidget *
tw_window_get_timeline_slot (TwWindow *self)
{
  g_return_val_if_fail (TW_IS_WINDOW (self), NULL);

  return self->timeline_slot;
}
