/* tw-window.c: the main window: welcome, loading, and one trace's panes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-window.h"
#include "tw-designer-window.h"

#include <tw-ingest.h>

#include "tw-cursor-state-pane.h"
#include "tw-details-pane.h"
#include "tw-go-to-time.h"
#include "tw-sensors-pane.h"

/*
 * Loading runs in a GTask thread (read + seal, then the state model). The thread only
 * stores its progress in an atomic; a 30 Hz timer on the main loop shows it, so a reader
 * calling its progress function a million times costs a million atomic stores, not a
 * million main-loop wakeups. Errors go to an in-window banner and leave whatever was
 * shown before (the previous trace or the welcome page) usable.
 */

#define PROGRESS_INTERVAL_MS 33          /* ≈ 30 updates per second */
#define READ_SHARE           0.9         /* of the bar; the state model gets the rest */
#define RECENT_APP_NAME      "tracewb"
#define RECENT_MAX           10
#define LIVE_SPAN_NS         (G_GUINT64_CONSTANT (5) * 1000000000)  /* shown at attach */
#define LIVE_RELAYOUT_US     (250 * 1000)
#define LIVE_TIMELINE_US     (30 * 1000)    /* the followed timeline moves at ~30 Hz */

typedef struct {
  char    *path;          /* NULL when the trace was handed in */
  char    *title;         /* what the user calls it: file name, "Demo trace" */
  TwTrace *trace;         /* handed in (programmatic), or read by the thread */
  gint     permille;      /* atomic: progress, 0..1000 */
  gint     stage;         /* atomic: 0 reading, 1 building the state model */
} LoadJob;

struct _TwWindow
{
  GtkApplicationWindow  parent_instance;

  /* template children */
  GtkWidget            *recent_button;
  GtkWidget            *primary_button;
  GtkWidget            *go_to_time_button;
  GtkWidget            *go_to_time_popover;
  GtkWidget            *error_revealer;
  GtkWidget            *error_label;
  GtkWidget            *stack;
  GtkWidget            *loading_label;
  GtkWidget            *progress_bar;
  GtkWidget            *trace_paned;
  GtkWidget            *timeline_slot;
  GtkWidget            *notebook;
  GtkWidget            *event_list;
  GtkWidget            *details_pane;
  GtkWidget            *cursor_state_pane;
  GtkWidget            *evaluations_pane;
  GtkWidget            *timeline_scroller; /* in timeline_slot */
  GtkWidget            *timeline;        /* in timeline_scroller */

  TwViewState          *view_state;
  GCancellable         *load_cancellable;
  LoadJob              *load_job;        /* borrowed from the running task */
  guint                 progress_source;
  char                 *previous_page;   /* shown again when loading fails or is cancelled */
  GMenu                *recent_menu;
  gulong                recent_changed_handler;

  /* live mode (tw_window_attach_live) */
  TwLiveSession        *live_session;
  GtkWidget            *live_controls;   /* in the header bar */
  GtkWidget            *follow_button;
  GtkWidget            *pause_button;
  GtkWidget            *sensors_pane;
  guint                 live_n_tasks;
  guint                 live_n_cpus;
  guint64               live_n_events;
  gint64                live_relayout_us;
  gint64                live_timeline_us;
};

G_DEFINE_FINAL_TYPE (TwWindow, tw_window, GTK_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_VIEW_STATE,
  PROP_LOADING,
  N_PROPS
};

enum {
  LOAD_FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static const char *trace_actions[] = {
  "zoom-in", "zoom-out", "zoom-fit", "pan-left", "pan-right",
  "next-event", "previous-event", "go-to-time", "find", "export-timeline",
};

static const char *live_actions[] = { "live-follow", "live-pause", "record" };

static void
load_job_free (LoadJob *job)
{
  g_free (job->path);
  g_free (job->title);
  g_clear_object (&job->trace);
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

static void
update_actions (TwWindow *self)
{
  gboolean has_trace = self->view_state != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (trace_actions); i++)
    set_action_enabled (self, trace_actions[i], has_trace);
  set_action_enabled (self, "cancel-load", self->load_cancellable != NULL);
  for (guint i = 0; i < G_N_ELEMENTS (live_actions); i++)
    set_action_enabled (self, live_actions[i], self->live_session != NULL);
  gtk_widget_set_visible (self->go_to_time_button, has_trace);
}

static void
show_error (TwWindow   *self,
            const char *title,
            GError     *error)
{
  g_autofree char *text = NULL;

  /* Reader errors name the file and line/offset themselves; the title says which open
   * failed even when a message does not. */
  text = g_strdup_printf ("Could not open “%s”: %s", title, error->message);
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

static void
show_error_text (TwWindow   *self,
                 const char *text)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

static void
dismiss_error (TwWindow *self)
{
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), FALSE);
}

static void
install_view_state (TwWindow     *self,
                    TwStateModel *model)
{
  g_autoptr(TwViewState) view_state = tw_view_state_new (model);

  g_set_object (&self->view_state, view_state);
  tw_timeline_set_view_state (TW_TIMELINE (self->timeline), view_state);
  tw_event_list_set_view_state (TW_EVENT_LIST (self->event_list), view_state);
  tw_details_pane_set_view_state (TW_DETAILS_PANE (self->details_pane), view_state);
  tw_cursor_state_pane_set_view_state (TW_CURSOR_STATE_PANE (self->cursor_state_pane), view_state);
  tw_evaluations_pane_set_view_state (TW_EVALUATIONS_PANE (self->evaluations_pane), view_state);
  tw_go_to_time_set_trace (TW_GO_TO_TIME (self->go_to_time_popover), tw_view_state_get_trace (view_state));
  update_actions (self);
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

static void detach_live (TwWindow *self);

/* A file opened in a live window replaces the live session. */
static void
leave_live_mode (TwWindow *self)
{
  int page;

  if (self->live_session == NULL)
    return;
  detach_live (self);
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

  g_atomic_int_set (&job->permille, (gint) (CLAMP (fraction, 0.0, 1.0) * READ_SHARE * 1000));
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadJob *job = task_data;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTrace) trace = NULL;
  GError *error = NULL;

  if (job->trace)
    trace = g_object_ref (job->trace);
  else if (!(trace = tw_reader_registry_load_file_full (job->path, NULL, TW_LOAD_OUT_OF_PROCESS,
                                                        load_progress_cb, job, cancellable, &error)))
    {
      g_task_return_error (task, error);
      return;
    }

  g_atomic_int_set (&job->stage, 1);
  g_atomic_int_set (&job->permille, (gint) (READ_SHARE * 1000));
  model = tw_state_model_new (trace);
  if (!tw_state_model_update (model, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_atomic_int_set (&job->permille, 1000);
  g_task_return_pointer (task, g_steal_pointer (&model), g_object_unref);
}

static gboolean
progress_tick_cb (gpointer user_data)
{
  TwWindow *self = user_data;
  g_autofree char *text = NULL;
  int permille;

  if (self->load_job == NULL)
    return G_SOURCE_CONTINUE;

  permille = g_atomic_int_get (&self->load_job->permille);
  text = g_strdup_printf ("%s %d %%", g_atomic_int_get (&self->load_job->stage) ? "Building states…" : "Reading…",
                          permille / 10);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), permille / 1000.0);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), text);
  return G_SOURCE_CONTINUE;
}

static void
finish_loading (TwWindow *self)
{
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_object (&self->load_cancellable);
  self->load_job = NULL;
  update_actions (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOADING]);
}

static void
load_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  TwWindow *self = TW_WINDOW (object);
  GTask *task = G_TASK (result);
  LoadJob *job = g_task_get_task_data (task);
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *title = NULL;

  /* a newer load replaced this one: it owns the page and the progress */
  if (g_task_get_cancellable (task) != self->load_cancellable)
    {
      model = g_task_propagate_pointer (task, NULL);   /* dropped on return */
      return;
    }

  model = g_task_propagate_pointer (task, &error);
  finish_loading (self);

  if (model == NULL)
    {
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), self->previous_page);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, job->title, error);
      g_signal_emit (self, signals[LOAD_FINISHED], 0, FALSE);
      return;
    }

  leave_live_mode (self);
  install_view_state (self, model);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "trace");
  title = g_strdup_printf ("%s — Trace Workbench", job->title);
  gtk_window_set_title (GTK_WINDOW (self), title);
  if (job->path)
    add_to_recent (job->path);
  gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (TW_EVENT_LIST (self->event_list))));
  g_signal_emit (self, signals[LOAD_FINISHED], 0, TRUE);
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
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  dismiss_error (self);

  label = g_strdup_printf ("Opening %s", job->title);
  gtk_label_set_text (GTK_LABEL (self->loading_label), label);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), 0.0);
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), "Reading…");
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");

  task = g_task_new (self, self->load_cancellable, load_done_cb, NULL);
  g_task_set_source_tag (task, start_loading);
  g_task_set_task_data (task, job, (GDestroyNotify) load_job_free);
  self->load_job = job;
  if (self->progress_source == 0)
    self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick_cb, self);
  update_actions (self);
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

/* ------------------------------------------------------------------ navigation */

/* Brings @time_ns into view, keeping the zoom, when it is outside. */
static void
reveal_time (TwWindow *self,
             guint64   time_ns)
{
  tw_view_state_reveal_time (self->view_state, time_ns);
}

/* Scans the type column from @from in @direction (±1) for the next row of @type;
 * memory-bound, no allocation. */
static guint64
find_event_of_type (TwTrace *trace,
                    guint64  from,
                    int      direction,
                    guint16  type)
{
  guint64 n = tw_trace_get_n_events (trace);
  guint64 i = from;

  while (direction > 0 ? i + 1 < n : i > 0)
    {
      const TwEventChunk *chunk;

      i = direction > 0 ? i + 1 : i - 1;
      chunk = tw_trace_get_chunk (trace, i >> TW_CHUNK_SHIFT);
      if (chunk->type[i & TW_CHUNK_MASK] == type)
        return i;
    }
  return TW_EVENT_NONE;
}

static void
step_event (TwWindow *self,
            int       direction)
{
  TwTrace *trace = tw_view_state_get_trace (self->view_state);
  guint64 selected = tw_view_state_get_selected_event (self->view_state);
  guint64 next;
  TwEvent event;

  if (selected == TW_EVENT_NONE)
    {
      /* nothing selected yet: start from the event at the cursor (or the first one) */
      guint64 cursor = tw_view_state_get_cursor (self->view_state);
      next = cursor == TW_TIME_NONE ? 0 : tw_trace_find_event_at (trace, cursor);
    }
  else
    {
      tw_trace_get_event (trace, selected, &event);
      next = find_event_of_type (trace, selected, direction, event.type);
    }
  if (next == TW_EVENT_NONE || next >= tw_trace_get_n_events (trace))
    {
      gtk_widget_error_bell (GTK_WIDGET (self));
      return;
    }
  tw_view_state_set_selected_event (self->view_state, next);
  reveal_time (self, tw_trace_get_time (trace, next));
}

/**
 * tw_window_go_to_time:
 * @text: a time as the event list shows it, or as the go-to-time popover reads it
 *   (tw_time_text_resolve())
 *
 * Selects the event nearest that time; a bad time is reported in the go-to popover.
 */
void
tw_window_go_to_time (TwWindow   *self,
                      const char *text)
{
  g_return_if_fail (TW_IS_WINDOW (self));

  if (self->view_state != NULL)
    tw_go_to_time_choose (TW_GO_TO_TIME (self->go_to_time_popover), text);
}

static void
go_to_time_chosen_cb (TwWindow *self,
                      guint64   time_ns)
{
  TwTrace *trace = tw_view_state_get_trace (self->view_state);
  guint64 index = tw_trace_find_event_at (trace, time_ns);

  if (index == TW_EVENT_NONE)
    return;
  tw_view_state_set_selected_event (self->view_state, index);
  reveal_time (self, tw_trace_get_time (trace, index));
}

/* ------------------------------------------------------------------ actions */

/* The window's navigation actions (menus, tests) are the timeline's: one set, one
 * behaviour whatever starts it. */
static void
timeline_forward_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;
  g_autofree char *name = g_strconcat ("timeline.", g_action_get_name (G_ACTION (action)), NULL);

  gtk_widget_activate_action (self->timeline, name, NULL);
}

static void
next_event_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  step_event (user_data, +1);
}

static void
previous_event_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  step_event (user_data, -1);
}

static void
go_to_time_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;

  gtk_menu_button_popup (GTK_MENU_BUTTON (self->go_to_time_button));
}

static void
find_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;

  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->event_list));
  tw_event_list_focus_search (TW_EVENT_LIST (self->event_list));
}

static void
dismiss_error_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  dismiss_error (user_data);
}

static void
cancel_load_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  tw_window_cancel_loading (user_data);
}

static void
export_timeline_response_cb (GtkNativeDialog *dialog,
                             int              response,
                             TwWindow        *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)))
      && (path = g_file_get_path (file))
      && !tw_timeline_export (TW_TIMELINE (self->timeline), path, &error))
    {
      g_autofree char *text = g_strdup_printf ("Could not export the timeline: %s", error->message);

      gtk_label_set_text (GTK_LABEL (self->error_label), text);
      gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
    }
  g_object_unref (dialog);
}

/* What the timeline shows now, at its size, as PNG or SVG by the file's extension. */
static void
export_timeline_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) png = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) svg = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new ("Export Timeline", GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
  gtk_file_filter_set_name (png, "PNG image");
  gtk_file_filter_add_suffix (png, "png");
  gtk_file_filter_set_name (svg, "SVG image");
  gtk_file_filter_add_suffix (svg, "svg");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), png);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), svg);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "timeline.png");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (export_timeline_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* The designer measures the trace open now; with none open it still edits and saves. */
static void
designer_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;
  TwDesignerWindow *designer = tw_designer_window_new (GTK_WINDOW (self),
                                                       tw_window_get_view_state (self));

  gtk_window_present (GTK_WINDOW (designer));
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  tw_window_open_file (user_data, file);
}

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
                        paused ? "Paused" : following ? "Following" : "Follow (End)");
  gtk_widget_set_tooltip_text (self->follow_button,
                               following ? "The view follows the newest data; pan or zoom back to stop"
                                         : "Show the newest data and follow it (End)");
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

static void
detach_live (TwWindow *self)
{
  if (self->live_session == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->live_session, self);
  if (self->view_state)
    g_signal_handlers_disconnect_by_func (self->view_state, update_live_controls, self);
  tw_live_session_stop (self->live_session);
  g_clear_object (&self->live_session);
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
  guint64 now = tw_live_monotonic_ns ();
  int page;

  g_return_if_fail (TW_IS_WINDOW (self));
  g_return_if_fail (TW_IS_LIVE_SESSION (session));

  if (self->load_cancellable)
    g_cancellable_cancel (self->load_cancellable);
  detach_live (self);
  dismiss_error (self);
  self->live_session = g_object_ref (session);
  tw_evaluations_pane_set_live (TW_EVALUATIONS_PANE (self->evaluations_pane), TRUE);
  install_view_state (self, tw_live_session_get_model (session));
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
                                     gtk_label_new ("Sensors"));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook), page);
  gtk_widget_set_visible (self->live_controls, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "trace");
  title = g_strdup_printf ("Live: %s — Trace Workbench", tw_live_session_get_sensor_dir (session));
  gtk_window_set_title (GTK_WINDOW (self), title);
  update_actions (self);
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
  show_error_text (self, text);
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
 * @path: the file to write (CSV events)
 *
 * Saves what the live session stored so far; an error also shows in the window.
 *
 * Returns: %FALSE with @error set on failure
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
    g_set_error_literal (&local, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "No live session to record");
  else if (tw_live_session_record (self->live_session, path, &local))
    {
      dismiss_error (self);
      return TRUE;
    }
  text = g_strdup_printf ("Could not record the live session: %s", local->message);
  show_error_text (self, text);
  g_propagate_error (error, g_steal_pointer (&local));
  return FALSE;
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
record_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  TwWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path == NULL)
        show_error_text (self, "Could not record the live session: only local files can be written");
      else
        tw_window_record (self, path, NULL);
    }
  g_object_unref (dialog);
}

static void
record_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) csv = gtk_file_filter_new ();

  if (self->live_session == NULL)
    return;
  dialog = gtk_file_chooser_native_new ("Record Live Session", GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, "_Record", "_Cancel");
  gtk_file_filter_set_name (csv, "CSV events (opens again in Trace Workbench)");
  gtk_file_filter_add_suffix (csv, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), csv);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "live-session.csv");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (record_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
build_live_controls (TwWindow *self)
{
  GtkWidget *record;

  self->live_controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->follow_button = gtk_button_new_with_label ("Following");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->follow_button), "win.live-follow");
  gtk_box_append (GTK_BOX (self->live_controls), self->follow_button);
  self->pause_button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->pause_button), "media-playback-pause-symbolic");
  gtk_widget_set_tooltip_text (self->pause_button, "Pause the display; data keeps being stored (P)");
  g_signal_connect (self->pause_button, "toggled", G_CALLBACK (pause_toggled_cb), self);
  gtk_box_append (GTK_BOX (self->live_controls), self->pause_button);
  record = gtk_button_new_from_icon_name ("media-record-symbolic");
  gtk_widget_set_tooltip_text (record, "Record what was received so far to a file (Ctrl+R)");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (record), "win.record");
  gtk_box_append (GTK_BOX (self->live_controls), record);
  gtk_widget_set_visible (self->live_controls, FALSE);
  /* not a bound template child: the window itself disposes its titlebar */
  gtk_header_bar_pack_start (GTK_HEADER_BAR (gtk_window_get_titlebar (GTK_WINDOW (self))),
                             self->live_controls);

  self->sensors_pane = g_object_ref_sink (tw_sensors_pane_new ());
}

static const GActionEntry window_actions[] = {
  { "zoom-in", timeline_forward_action },
  { "zoom-out", timeline_forward_action },
  { "zoom-fit", timeline_forward_action },
  { "pan-left", timeline_forward_action },
  { "pan-right", timeline_forward_action },
  { "next-event", next_event_action },
  { "previous-event", previous_event_action },
  { "go-to-time", go_to_time_action },
  { "find", find_action },
  { "dismiss-error", dismiss_error_action },
  { "cancel-load", cancel_load_action },
  { "open-recent", open_recent_action, "s" },
  { "export-timeline", export_timeline_action },
  { "designer", designer_action },
  { "live-follow", live_follow_action },
  { "live-pause", live_pause_action, NULL, "false" },
  { "record", record_action },
};

/* The window's own keys, and the timeline's, work wherever the focus is in the trace
 * panes (the timeline, the event list, a tab, Details); text typed into an entry stays
 * text (tw_shortcuts_attach()). */
static const TwShortcut window_shortcuts[] = {
  { "n|<Control>Right", "win.next-event", 0 },
  { "<Shift>n|<Control>Left", "win.previous-event", 0 },
  { "f", "win.live-follow", 0 },
  { "End", "win.live-follow", TW_SHORTCUT_NAVIGATION },
  { "p|Pause", "win.live-pause", 0 },
};

/**
 * tw_window_get_shortcuts:
 * @n_shortcuts: (out): how many
 *
 * Returns: (transfer none) (array length=n_shortcuts): the keys the window adds to the
 *   timeline's in its trace panes
 */
const TwShortcut *
tw_window_get_shortcuts (guint *n_shortcuts)
{
  *n_shortcuts = G_N_ELEMENTS (window_shortcuts);
  return window_shortcuts;
}

static void
add_trace_shortcuts (TwWindow *self)
{
  tw_shortcuts_attach (self->trace_paned, GTK_WIDGET (self), window_shortcuts,
                       G_N_ELEMENTS (window_shortcuts));
  tw_timeline_attach_shortcuts (TW_TIMELINE (self->timeline), self->trace_paned);
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
  detach_live (self);
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

  g_type_ensure (TW_TYPE_GO_TO_TIME);
  g_type_ensure (TW_TYPE_EVENT_LIST);
  g_type_ensure (TW_TYPE_DETAILS_PANE);
  g_type_ensure (TW_TYPE_CURSOR_STATE_PANE);
  g_type_ensure (TW_TYPE_EVALUATIONS_PANE);
  g_type_ensure (TW_TYPE_TIMELINE_LEGEND_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TwWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, primary_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, go_to_time_button);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, go_to_time_popover);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, error_revealer);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, trace_paned);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, timeline_slot);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, notebook);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, details_pane);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, cursor_state_pane);
  gtk_widget_class_bind_template_child (widget_class, TwWindow, evaluations_pane);
  gtk_widget_class_bind_template_callback (widget_class, go_to_time_chosen_cb);
}

static void
tw_window_init (TwWindow *self)
{
  GtkDropTarget *drop;
  GtkRecentManager *recent = gtk_recent_manager_get_default ();

  gtk_widget_init_template (GTK_WIDGET (self));

  g_action_map_add_action_entries (G_ACTION_MAP (self), window_actions,
                                   G_N_ELEMENTS (window_actions), self);
  build_live_controls (self);

  /* rows scroll under a fixed ruler: the timeline is the scrolled window's GtkScrollable */
  self->timeline = tw_timeline_new ();
  self->timeline_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->timeline_scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (self->timeline_scroller), FALSE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->timeline_scroller), self->timeline);
  gtk_widget_set_vexpand (self->timeline_scroller, TRUE);
  gtk_widget_set_hexpand (self->timeline_scroller, TRUE);
  gtk_box_append (GTK_BOX (self->timeline_slot), self->timeline_scroller);
  add_trace_shortcuts (self);
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
  update_actions (self);
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
