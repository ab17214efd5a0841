/* tw-window-actions.c: the window's actions on a trace: navigation, go to time, find,
 * export, the designer, recent traces; and the keys of the trace panes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-window-private.h"
#include "tw-designer-window.h"
#include "tw-file-chooser.h"
#include "tw-go-to-time.h"

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

void
_tw_window_go_to_time_chosen_cb (TwWindow *self,
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
  _tw_window_dismiss_error (user_data);
}

static void
cancel_load_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  tw_window_cancel_loading (user_data);
}

static void
export_timeline_chosen_cb (GtkWidget  *owner,
                           const char *path,
                           gpointer    user_data)
{
  TwWindow *self = TW_WINDOW (owner);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (tw_timeline_export (TW_TIMELINE (self->timeline), path, &error))
    return;
  text = g_strdup_printf (_("Could not export the timeline: %s"), error->message);
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_revealer_set_reveal_child (GTK_REVEALER (self->error_revealer), TRUE);
}

/* What the timeline shows now, at its size, as PNG or SVG by the file's extension. */
static void
export_timeline_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkFileChooserNative *dialog;

  dialog = tw_file_chooser_new (GTK_WIDGET (user_data), GTK_FILE_CHOOSER_ACTION_SAVE,
                                _("Export Timeline"), _("_Export"), export_timeline_chosen_cb,
                                NULL, NULL);
  tw_file_chooser_add_filter (dialog, _("PNG image"), "png");
  tw_file_chooser_add_filter (dialog, _("SVG image"), "svg");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "timeline.png");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* A module the designer exported runs over the open trace in the Evaluations tab. */
static gboolean
designer_module_built_cb (TwWindow   *self,
                          const char *path,
                          GError    **error)
{
  return tw_evaluations_pane_add_plugin (TW_EVALUATIONS_PANE (self->evaluations_pane), path, error);
}

/* The designer measures the trace open now; with none open it still edits and saves. */
static void
designer_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwWindow *self = user_data;
  TwDesignerWindow *designer = tw_designer_window_new (GTK_WINDOW (self),
                                                       tw_window_get_view_state (self));

  g_signal_connect_object (designer, "module-built", G_CALLBACK (designer_module_built_cb),
                           self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (designer));
}

static void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  tw_window_open_file (user_data, file);
}

static const GActionEntry trace_action_entries[] = {
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

/* The window's actions on a trace, and the keys of its trace panes. */
void
_tw_window_init_actions (TwWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), trace_action_entries,
                                   G_N_ELEMENTS (trace_action_entries), self);
  tw_shortcuts_attach (self->trace_paned, GTK_WIDGET (self), window_shortcuts,
                       G_N_ELEMENTS (window_shortcuts));
  tw_timeline_attach_shortcuts (TW_TIMELINE (self->timeline), self->trace_paned);
}
