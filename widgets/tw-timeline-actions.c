/* tw-timeline-actions.c: the timeline's actions, its keys and its markers
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tw-shortcuts.h"
#include "tw-timeline-private.h"

/*
 * Every way of navigating — keys on the timeline, the same keys anywhere in the
 * window's trace area (tw_timeline_attach_shortcuts()), menus — activates these
 * actions, so a key does the same whatever has the focus.
 */

/* Keys as KernelShark, Perfetto and Trace Compass users expect them, and GNOME's
 * Ctrl++ / Ctrl+- / Ctrl+0. The shortcuts window (F1) lists each of them. */
static const TwShortcut timeline_shortcuts[] = {
  { "plus|equal|KP_Add|w|<Control>plus|<Control>equal|<Control>KP_Add", "timeline.zoom-in", 0 },
  { "minus|KP_Subtract|s|<Control>minus|<Control>KP_Subtract", "timeline.zoom-out", 0 },
  { "<Control>0|<Control>KP_0", "timeline.zoom-fit", 0 },
  { "Home", "timeline.zoom-fit", TW_SHORTCUT_NAVIGATION },
  { "z", "timeline.zoom-selection", 0 },
  { "a", "timeline.pan-left", 0 },
  { "Left", "timeline.pan-left", TW_SHORTCUT_NAVIGATION },
  { "d", "timeline.pan-right", 0 },
  { "Right", "timeline.pan-right", TW_SHORTCUT_NAVIGATION },
  { "Up", "timeline.scroll-up", TW_SHORTCUT_NAVIGATION },
  { "Down", "timeline.scroll-down", TW_SHORTCUT_NAVIGATION },
  { "Page_Up", "timeline.page-up", TW_SHORTCUT_NAVIGATION },
  { "Page_Down", "timeline.page-down", TW_SHORTCUT_NAVIGATION },
  { "m", "timeline.add-marker", 0 },
  { "bracketright", "timeline.next-marker", 0 },
  { "bracketleft", "timeline.previous-marker", 0 },
  { "Escape", "timeline.clear-selection", TW_SHORTCUT_NAVIGATION },
};

/**
 * tw_timeline_get_shortcuts:
 * @n_shortcuts: (out): how many
 *
 * Returns: (transfer none) (array length=n_shortcuts): the timeline's keys
 */
const TwShortcut *
tw_timeline_get_shortcuts (guint *n_shortcuts)
{
  *n_shortcuts = G_N_ELEMENTS (timeline_shortcuts);
  return timeline_shortcuts;
}

/**
 * tw_timeline_attach_shortcuts:
 * @area: a widget around the timeline (the window's trace panes)
 *
 * Makes the timeline's keys work wherever the focus is inside @area: on the event list,
 * a tab, a pane. Text typed into entries stays text; a focused list keeps its arrows.
 */
void
tw_timeline_attach_shortcuts (TwTimeline *self,
                              GtkWidget  *area)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  tw_shortcuts_attach (area, GTK_WIDGET (self), timeline_shortcuts, G_N_ELEMENTS (timeline_shortcuts));
}

/* ---------------------------------------------------------------- markers */

static void
marker_clear (gpointer data)
{
  g_free (((TwTimelineMarkerEntry *) data)->name);
}

static int
compare_marker (gconstpointer a,
                gconstpointer b)
{
  const TwTimelineMarkerEntry *ma = a;
  const TwTimelineMarkerEntry *mb = b;

  return ma->time < mb->time ? -1 : ma->time > mb->time;
}

/**
 * tw_timeline_add_marker:
 * @name: (nullable): a name; "M<n>" when %NULL
 */
void
tw_timeline_add_marker (TwTimeline *self,
                        guint64     time_ns,
                        const char *name)
{
  TwTimelineMarkerEntry marker;

  g_return_if_fail (TW_IS_TIMELINE (self));

  marker.time = time_ns;
  marker.name = name ? g_strdup (name) : g_strdup_printf ("M%u", self->markers->len + 1);
  g_array_append_val (self->markers, marker);
  g_array_sort (self->markers, compare_marker);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
tw_timeline_get_n_markers (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), 0);

  return self->markers->len;
}

/**
 * tw_timeline_get_marker:
 *
 * Returns: (transfer none): the marker, in time order
 */
const TwTimelineMarker *
tw_timeline_get_marker (TwTimeline *self,
                        guint       index)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);
  g_return_val_if_fail (index < self->markers->len, NULL);

  return (const TwTimelineMarker *) &g_array_index (self->markers, TwTimelineMarkerEntry, index);
}

/**
 * tw_timeline_rename_marker:
 *
 * Gives the marker at @index a new name; markers stay sorted by time.
 */
void
tw_timeline_rename_marker (TwTimeline *self,
                           guint       index,
                           const char *name)
{
  TwTimelineMarkerEntry *marker;

  g_return_if_fail (TW_IS_TIMELINE (self));
  g_return_if_fail (index < self->markers->len);
  g_return_if_fail (name != NULL);

  marker = &g_array_index (self->markers, TwTimelineMarkerEntry, index);
  g_free (marker->name);
  marker->name = g_strdup (name);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
jump_to_marker (TwTimeline *self,
                gboolean    forward)
{
  guint64 cursor = tw_view_state_get_cursor (self->state);
  guint n = self->markers->len;

  for (guint i = 0; i < n; i++)
    {
      const TwTimelineMarkerEntry *m = &g_array_index (self->markers, TwTimelineMarkerEntry,
                                                       forward ? i : n - 1 - i);

      if (cursor == TW_TIME_NONE || (forward ? m->time > cursor : m->time < cursor))
        {
          tw_view_state_set_cursor (self->state, m->time);
          tw_view_state_reveal_time (self->state, m->time);
          return;
        }
    }
  gtk_widget_error_bell (GTK_WIDGET (self));
}

int
_tw_timeline_find_marker_near (TwTimeline *self,
                               double      x)
{
  TwTimelineViewport vp;

  tw_timeline_get_viewport (self, &vp);
  for (guint i = 0; i < self->markers->len; i++)
    {
      guint64 t = g_array_index (self->markers, TwTimelineMarkerEntry, i).time;

      if (fabs (tw_timeline_viewport_time_to_x (&vp, t) - x) <= 4)
        return i;
    }
  return -1;
}

static int
find_marker_at_time (TwTimeline *self,
                     guint64     time)
{
  for (guint i = 0; i < self->markers->len; i++)
    if (g_array_index (self->markers, TwTimelineMarkerEntry, i).time == time)
      return i;
  return -1;
}

static void
marker_entry_activate_cb (TwTimeline *self)
{
  int index = find_marker_at_time (self, self->marker_editing);
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->marker_entry));

  if (index >= 0 && *text)
    tw_timeline_rename_marker (self, index, text);
  gtk_popover_popdown (GTK_POPOVER (self->marker_popover));
}

/* A popover under the marker in the ruler, to name it. */
void
_tw_timeline_edit_marker (TwTimeline *self,
                          guint       index)
{
  const TwTimelineMarkerEntry *marker = &g_array_index (self->markers, TwTimelineMarkerEntry, index);
  TwTimelineViewport vp;
  GdkRectangle rect;

  tw_timeline_get_viewport (self, &vp);
  rect = (GdkRectangle) { (int) tw_timeline_viewport_time_to_x (&vp, marker->time), 4, 1,
                          TW_TIMELINE_RULER_HEIGHT - 8 };
  self->marker_editing = marker->time;
  gtk_editable_set_text (GTK_EDITABLE (self->marker_entry), marker->name);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->marker_popover), &rect);
  gtk_popover_popup (GTK_POPOVER (self->marker_popover));
  gtk_widget_grab_focus (self->marker_entry);
  gtk_editable_select_region (GTK_EDITABLE (self->marker_entry), 0, -1);
}

void
_tw_timeline_init_markers (TwTimeline *self)
{
  self->markers = g_array_new (FALSE, FALSE, sizeof (TwTimelineMarkerEntry));
  g_array_set_clear_func (self->markers, marker_clear);

  self->marker_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->marker_entry), _("Marker name"));
  g_signal_connect_swapped (self->marker_entry, "activate", G_CALLBACK (marker_entry_activate_cb), self);
  self->marker_popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->marker_popover), self->marker_entry);
  gtk_widget_set_parent (self->marker_popover, GTK_WIDGET (self));
}

/* ---------------------------------------------------------------- actions */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);
  gboolean in = g_str_equal (action_name, "timeline.zoom-in");
  guint64 begin, end;

  if (self->state == NULL)
    return;
  if (g_str_equal (action_name, "timeline.zoom-fit"))
    tw_view_state_zoom_to_fit (self->state);
  else if (g_str_equal (action_name, "timeline.zoom-selection"))
    {
      if (tw_view_state_get_selection (self->state, &begin, &end))
        tw_view_state_set_visible_range (self->state, begin, end);
      else
        gtk_widget_error_bell (widget);
    }
  else
    _tw_timeline_zoom (self, in ? TW_TIMELINE_ZOOM_STEP : 1.0 / TW_TIMELINE_ZOOM_STEP);
}

static void
move_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);
  double page = MAX (gtk_widget_get_height (widget) - TW_TIMELINE_RULER_HEIGHT, 1) * 0.9;

  if (self->state == NULL)
    return;
  if (g_str_equal (action_name, "timeline.pan-left"))
    tw_view_state_pan (self->state, -TW_TIMELINE_PAN_STEP);
  else if (g_str_equal (action_name, "timeline.pan-right"))
    tw_view_state_pan (self->state, TW_TIMELINE_PAN_STEP);
  else if (g_str_equal (action_name, "timeline.scroll-up"))
    _tw_timeline_scroll_by (self, -3 * TW_TIMELINE_TASK_HEIGHT);
  else if (g_str_equal (action_name, "timeline.scroll-down"))
    _tw_timeline_scroll_by (self, 3 * TW_TIMELINE_TASK_HEIGHT);
  else if (g_str_equal (action_name, "timeline.page-up"))
    _tw_timeline_scroll_by (self, -page);
  else if (g_str_equal (action_name, "timeline.page-down"))
    _tw_timeline_scroll_by (self, page);
}

static void
marker_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);

  if (self->state == NULL)
    return;
  if (g_str_equal (action_name, "timeline.add-marker"))
    {
      guint64 t = _tw_timeline_zoom_anchor (self, NULL);

      tw_timeline_add_marker (self, t, NULL);
      if (gtk_widget_get_mapped (widget))
        _tw_timeline_edit_marker (self, find_marker_at_time (self, t));
    }
  else if (g_str_equal (action_name, "timeline.next-marker"))
    jump_to_marker (self, TRUE);
  else if (g_str_equal (action_name, "timeline.previous-marker"))
    jump_to_marker (self, FALSE);
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);

  if (self->state == NULL)
    return;
  tw_view_state_clear_selection (self->state);
  tw_view_state_set_highlight (self->state, NULL);
}

/* Escape is only taken while there is a range selection or a highlighted path to clear:
 * otherwise it goes on to whatever else uses it. */
void
_tw_timeline_update_actions (TwTimeline *self)
{
  guint64 begin, end;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.clear-selection",
                                 self->state && (tw_view_state_get_selection (self->state, &begin, &end)
                                                 || tw_view_state_get_highlight (self->state)));
}

/* Enter folds what the user looks at: the header over the selected event's row (its task's,
 * else its CPU's), or over the top row in view when nothing is selected; Shift+Enter the
 * outermost one (a machine's header in a trace of several). Pressed again on the header
 * that now shows the event, it unfolds. */
static void
toggle_header (TwTimeline *self,
               gboolean    outermost)
{
  guint64 index = self->state ? tw_view_state_get_selected_event (self->state) : TW_EVENT_NONE;
  int row = -1;
  int header;

  if (index != TW_EVENT_NONE)
    {
      TwEvent event;

      tw_trace_get_event (tw_view_state_get_trace (self->state), index, &event);
      if (event.task != TW_TASK_NONE)
        row = tw_timeline_layout_find_task_row (self->layout, event.task);
      if (row < 0 && event.cpu != TW_CPU_NONE)
        row = tw_timeline_layout_find_cpu_row (self->layout, event.cpu);
    }
  if (row < 0)
    row = tw_timeline_layout_find_row_at (self->layout, _tw_timeline_get_scroll_y (self));
  if (row < 0 || (header = tw_timeline_layout_find_header (self->layout, row)) < 0)
    return;
  while (outermost && header > 0)
    {
      int above;
      guint n_rows;
      const TwTimelineRow *rows = tw_timeline_layout_get_rows (self->layout, &n_rows);

      /* the header's own header: the nearest one above it with a smaller indent */
      for (above = header - 1; above >= 0; above--)
        if (tw_timeline_layout_is_header (self->layout, above) && rows[above].indent < rows[header].indent)
          break;
      if (above < 0)
        break;
      header = above;
    }
  tw_timeline_layout_toggle_row (self->layout, header);
  tw_timeline_reveal_row (self, header);
}

static void
rows_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);

  if (self->layout == NULL)
    return;
  if (g_str_equal (action_name, "timeline.filter-tasks"))
    {
      g_autoptr(GArray) tasks = tw_timeline_layout_dup_row_tasks (self->layout,
                                                                   g_variant_get_uint32 (parameter));

      self->highlight_filtered = FALSE;
      tw_timeline_layout_set_task_filter (self->layout, (const guint32 *) tasks->data, tasks->len);
    }
  else if (g_str_equal (action_name, "timeline.show-all-tasks"))
    {
      self->highlight_filtered = FALSE;
      tw_timeline_layout_set_task_filter (self->layout, NULL, 0);
    }
  else if (g_str_equal (action_name, "timeline.toggle-row"))
    tw_timeline_layout_toggle_row (self->layout, g_variant_get_uint32 (parameter));
  else if (g_str_equal (action_name, "timeline.toggle-header"))
    toggle_header (self, FALSE);
  else if (g_str_equal (action_name, "timeline.toggle-outer-header"))
    toggle_header (self, TRUE);
  else if (g_str_equal (action_name, "timeline.sort"))
    {
      const char *by = g_variant_get_string (parameter, NULL);

      tw_timeline_layout_set_task_sort (self->layout,
                                        g_str_equal (by, "name") ? TW_TASK_SORT_NAME
                                        : g_str_equal (by, "id") ? TW_TASK_SORT_ID
                                        : TW_TASK_SORT_CPU_TIME);
    }
}

void
_tw_timeline_class_init_actions (GtkWidgetClass *widget_class)
{
  static const char * const zooms[] = {
    "timeline.zoom-in", "timeline.zoom-out", "timeline.zoom-fit", "timeline.zoom-selection",
  };
  static const char * const moves[] = {
    "timeline.pan-left", "timeline.pan-right", "timeline.scroll-up", "timeline.scroll-down",
    "timeline.page-up", "timeline.page-down",
  };
  static const char * const markers[] = {
    "timeline.add-marker", "timeline.next-marker", "timeline.previous-marker",
  };

  for (guint i = 0; i < G_N_ELEMENTS (zooms); i++)
    gtk_widget_class_install_action (widget_class, zooms[i], NULL, zoom_action);
  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    gtk_widget_class_install_action (widget_class, moves[i], NULL, move_action);
  for (guint i = 0; i < G_N_ELEMENTS (markers); i++)
    gtk_widget_class_install_action (widget_class, markers[i], NULL, marker_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.sort", "s", rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.filter-tasks", "u", rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-row", "u", rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all-tasks", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-header", NULL, rows_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-outer-header", NULL, rows_action);
  /* on the timeline only: anywhere else in the window Enter activates what has the focus */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "timeline.toggle-header", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, 0, "timeline.toggle-header", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_SHIFT_MASK,
                                       "timeline.toggle-outer-header", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_SHIFT_MASK,
                                       "timeline.toggle-outer-header", NULL);

  tw_shortcuts_add_bindings (widget_class, timeline_shortcuts, G_N_ELEMENTS (timeline_shortcuts));
}
