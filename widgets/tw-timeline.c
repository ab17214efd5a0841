/* tw-timeline.c: the timeline widget
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline.h"
#include "tw-timeline-image.h"

/*
 * The widget owns input and scrolling; drawing is the painter's, and what is visible,
 * the cursor and the selection live in the TwViewState shared with the other panes.
 * Vertical scrolling goes through GtkScrollable so a GtkScrolledWindow provides the
 * scrollbar; horizontal position is time, which the view state holds.
 */

#define ZOOM_STEP      1.25
#define PAN_STEP       0.1
#define DRAG_THRESHOLD 3.0

typedef enum {
  DRAG_NONE,
  DRAG_PAN,
  DRAG_SELECT,
} DragMode;

typedef struct {
  guint64  time;
  char    *name;
} Marker;

struct _TwTimeline
{
  GtkWidget          parent_instance;

  TwViewState       *state;
  TwTimelinePainter *painter;
  GtkAdjustment     *hadjustment;
  GtkAdjustment     *vadjustment;
  guint              hscroll_policy : 1;
  guint              vscroll_policy : 1;

  GArray            *markers;        /* Marker, sorted by time */
  GtkWidget         *context_menu;   /* GtkPopoverMenu on row labels */
  GtkWidget         *marker_popover;
  GtkWidget         *marker_entry;
  guint64            marker_editing; /* time of the marker being named */

  double             pointer_x;
  double             pointer_y;
  DragMode           drag_mode;
  gboolean           dragged;
  double             drag_x;
  double             drag_y;
  guint64            drag_begin_ns;
  guint64            drag_end_ns;
  double             drag_scroll_y;
  guint64            drag_anchor_ns;
  double             pinch_last_scale;
};

enum {
  PROP_0,
  PROP_VIEW_STATE,
  N_PROPS,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (TwTimeline, tw_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static void
marker_clear (gpointer data)
{
  g_free (((Marker *) data)->name);
}

static double
scroll_y (TwTimeline *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/**
 * tw_timeline_get_viewport:
 * @viewport: (out): what the widget shows now (markers point into the widget)
 */
void
tw_timeline_get_viewport (TwTimeline         *self,
                          TwTimelineViewport *vp)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  memset (vp, 0, sizeof *vp);
  vp->width = gtk_widget_get_width (GTK_WIDGET (self));
  vp->height = gtk_widget_get_height (GTK_WIDGET (self));
  vp->scroll_y = scroll_y (self);
  vp->cursor_ns = TW_TIME_NONE;
  vp->markers = (const TwTimelineMarker *) self->markers->data;
  vp->n_markers = self->markers->len;
  if (self->state == NULL)
    {
      vp->end_ns = 1;
      return;
    }
  tw_view_state_get_visible_range (self->state, &vp->begin_ns, &vp->end_ns);
  vp->cursor_ns = tw_view_state_get_cursor (self->state);
  tw_view_state_get_selection (self->state, &vp->selection_begin, &vp->selection_end);
}

static void
update_vadjustment (TwTimeline *self)
{
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double page = MAX (height - TW_TIMELINE_RULER_HEIGHT, 1);
  double upper = self->painter ? tw_timeline_painter_get_content_height (self->painter) : 0;

  if (self->vadjustment == NULL)
    return;
  upper = MAX (upper, page);
  gtk_adjustment_configure (self->vadjustment,
                            CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - page),
                            0, upper, TW_TIMELINE_TASK_HEIGHT, page * 0.9, page);
}

static void
tw_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TwTimeline *self = TW_TIMELINE (widget);
  TwTimelineViewport vp;
  TwPalette palette;
  cairo_t *cr;

  tw_timeline_get_viewport (self, &vp);
  if (vp.width <= TW_TIMELINE_LABEL_WIDTH || vp.height <= TW_TIMELINE_RULER_HEIGHT)
    return;
  tw_palette_init_from_widget (&palette, widget);
  vp.palette = &palette;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, vp.width, vp.height));
  if (self->painter)
    tw_timeline_painter_draw (self->painter, cr, &vp);
  else
    {
      cairo_set_source_rgb (cr, palette.background[0], palette.background[1], palette.background[2]);
      cairo_paint (cr);
    }
  cairo_destroy (cr);
}

static void
tw_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  TwTimeline *self = TW_TIMELINE (widget);

  update_vadjustment (self);
  /* popovers parented to a custom widget are placed by it */
  if (self->context_menu)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
  if (self->marker_popover)
    gtk_popover_present (GTK_POPOVER (self->marker_popover));
}

static void
tw_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TW_TIMELINE_LABEL_WIDTH + 100;
      *natural = TW_TIMELINE_LABEL_WIDTH + 800;
    }
  else
    {
      *minimum = TW_TIMELINE_RULER_HEIGHT + TW_TIMELINE_CPU_HEIGHT;
      *natural = TW_TIMELINE_RULER_HEIGHT + 400;
    }
}

/* ---------------------------------------------------------------- view state */

static void
state_changed_cb (TwTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tw_timeline_set_view_state:
 * @state: (nullable): what to show
 */
void
tw_timeline_set_view_state (TwTimeline  *self,
                            TwViewState *state)
{
  g_return_if_fail (TW_IS_TIMELINE (self));
  g_return_if_fail (!state || TW_IS_VIEW_STATE (state));

  if (self->state == state)
    return;

  if (self->state)
    g_signal_handlers_disconnect_by_func (self->state, state_changed_cb, self);
  g_set_object (&self->state, state);
  g_clear_object (&self->painter);
  g_array_set_size (self->markers, 0);

  if (state)
    {
      self->painter = tw_timeline_painter_new (tw_view_state_get_model (state));
      g_signal_connect_swapped (state, "notify", G_CALLBACK (state_changed_cb), self);
    }

  update_vadjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_STATE]);
}

/**
 * tw_timeline_get_view_state:
 *
 * Returns: (transfer none) (nullable): what is shown
 */
TwViewState *
tw_timeline_get_view_state (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->state;
}

/**
 * tw_timeline_get_painter:
 *
 * Returns: (transfer none) (nullable): the painter, once a view state is set
 */
TwTimelinePainter *
tw_timeline_get_painter (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->painter;
}

/* ---------------------------------------------------------------- markers */

static int
compare_marker (gconstpointer a,
                gconstpointer b)
{
  const Marker *ma = a;
  const Marker *mb = b;

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
  Marker marker;

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

  return (const TwTimelineMarker *) &g_array_index (self->markers, Marker, index);
}

static void
jump_to_marker (TwTimeline *self,
                gboolean    forward)
{
  guint64 cursor;
  const Marker *target = NULL;
  guint64 begin, end;

  if (self->state == NULL || self->markers->len == 0)
    return;

  cursor = tw_view_state_get_cursor (self->state);
  for (guint i = 0; i < self->markers->len; i++)
    {
      const Marker *m = &g_array_index (self->markers, Marker, forward ? i : self->markers->len - 1 - i);

      if (cursor == TW_TIME_NONE || (forward ? m->time > cursor : m->time < cursor))
        {
          target = m;
          break;
        }
    }
  if (target == NULL)
    return;

  tw_view_state_set_cursor (self->state, target->time);
  tw_view_state_get_visible_range (self->state, &begin, &end);
  if (target->time < begin || target->time >= end)
    tw_view_state_pan (self->state, ((double) target->time - (double) (begin + (end - begin) / 2))
                                    / (double) (end - begin));
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
  Marker *marker;

  g_return_if_fail (TW_IS_TIMELINE (self));
  g_return_if_fail (index < self->markers->len);
  g_return_if_fail (name != NULL);

  marker = &g_array_index (self->markers, Marker, index);
  g_free (marker->name);
  marker->name = g_strdup (name);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static int
find_marker_near (TwTimeline *self,
                  double      x)
{
  TwTimelineViewport vp;

  tw_timeline_get_viewport (self, &vp);
  for (guint i = 0; i < self->markers->len; i++)
    if (fabs (tw_timeline_viewport_time_to_x (&vp, g_array_index (self->markers, Marker, i).time) - x) <= 4)
      return i;
  return -1;
}

static int
find_marker_at_time (TwTimeline *self,
                     guint64     time)
{
  for (guint i = 0; i < self->markers->len; i++)
    if (g_array_index (self->markers, Marker, i).time == time)
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
static void
edit_marker (TwTimeline *self,
             guint       index)
{
  const Marker *marker = &g_array_index (self->markers, Marker, index);
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

/* ---------------------------------------------------------------- actions */

static guint64
zoom_anchor (TwTimeline *self)
{
  TwTimelineViewport vp;
  guint64 cursor = tw_view_state_get_cursor (self->state);

  tw_timeline_get_viewport (self, &vp);
  if (cursor != TW_TIME_NONE && cursor >= vp.begin_ns && cursor < vp.end_ns)
    return cursor;
  return vp.begin_ns + (vp.end_ns - vp.begin_ns) / 2;
}

static void
timeline_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TwTimeline *self = TW_TIMELINE (widget);
  guint64 a, b;

  if (self->state == NULL)
    return;

  if (g_str_equal (action_name, "timeline.zoom-in"))
    tw_view_state_zoom (self->state, ZOOM_STEP * ZOOM_STEP, zoom_anchor (self));
  else if (g_str_equal (action_name, "timeline.zoom-out"))
    tw_view_state_zoom (self->state, 1.0 / (ZOOM_STEP * ZOOM_STEP), zoom_anchor (self));
  else if (g_str_equal (action_name, "timeline.zoom-fit"))
    tw_view_state_zoom_to_fit (self->state);
  else if (g_str_equal (action_name, "timeline.zoom-selection"))
    {
      if (tw_view_state_get_selection (self->state, &a, &b))
        tw_view_state_set_visible_range (self->state, a, b);
    }
  else if (g_str_equal (action_name, "timeline.pan-left"))
    tw_view_state_pan (self->state, -PAN_STEP);
  else if (g_str_equal (action_name, "timeline.pan-right"))
    tw_view_state_pan (self->state, PAN_STEP);
  else if (g_str_equal (action_name, "timeline.scroll-up") && self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment)
                                                 - 3 * TW_TIMELINE_TASK_HEIGHT);
  else if (g_str_equal (action_name, "timeline.scroll-down") && self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment)
                                                 + 3 * TW_TIMELINE_TASK_HEIGHT);
  else if (g_str_equal (action_name, "timeline.add-marker"))
    {
      guint64 t = zoom_anchor (self);

      tw_timeline_add_marker (self, t, NULL);
      if (gtk_widget_get_mapped (GTK_WIDGET (self)))
        edit_marker (self, find_marker_at_time (self, t));
    }
  else if (g_str_equal (action_name, "timeline.filter-tasks"))
    {
      g_autoptr(GArray) tasks = tw_timeline_painter_dup_row_tasks (self->painter,
                                                                    g_variant_get_uint32 (parameter));

      tw_timeline_painter_set_task_filter (self->painter, (const guint32 *) tasks->data, tasks->len);
      update_vadjustment (self);
      gtk_widget_queue_draw (widget);
    }
  else if (g_str_equal (action_name, "timeline.show-all-tasks"))
    {
      tw_timeline_painter_set_task_filter (self->painter, NULL, 0);
      update_vadjustment (self);
      gtk_widget_queue_draw (widget);
    }
  else if (g_str_equal (action_name, "timeline.toggle-row"))
    {
      tw_timeline_painter_toggle_row (self->painter, g_variant_get_uint32 (parameter));
      update_vadjustment (self);
      gtk_widget_queue_draw (widget);
    }
  else if (g_str_equal (action_name, "timeline.next-marker"))
    jump_to_marker (self, TRUE);
  else if (g_str_equal (action_name, "timeline.previous-marker"))
    jump_to_marker (self, FALSE);
  else if (g_str_equal (action_name, "timeline.sort"))
    {
      const char *by = g_variant_get_string (parameter, NULL);

      tw_timeline_painter_set_task_sort (self->painter,
                                         g_str_equal (by, "name") ? TW_TASK_SORT_NAME
                                         : g_str_equal (by, "id") ? TW_TASK_SORT_ID
                                         : TW_TASK_SORT_CPU_TIME);
      update_vadjustment (self);
      gtk_widget_queue_draw (widget);
    }
}

/* ---------------------------------------------------------------- input */

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TwTimeline               *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  TwTimelineViewport vp;

  if (self->state == NULL)
    return FALSE;
  tw_timeline_get_viewport (self, &vp);

  if (mods & GDK_CONTROL_MASK)
    {
      tw_view_state_zoom (self->state, pow (ZOOM_STEP, -dy),
                          tw_timeline_viewport_x_to_time (&vp, self->pointer_x));
      return TRUE;
    }
  if ((mods & GDK_SHIFT_MASK) || dx != 0)
    {
      tw_view_state_pan (self->state, (dx != 0 ? dx : dy) * PAN_STEP);
      return TRUE;
    }
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment,
                              gtk_adjustment_get_value (self->vadjustment) + dy * 3 * TW_TIMELINE_TASK_HEIGHT);
  return TRUE;
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           TwTimeline               *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TwTimeline     *self)
{
  TwTimelineViewport vp;

  if (self->state == NULL)
    return;

  tw_timeline_get_viewport (self, &vp);
  self->dragged = FALSE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_begin_ns = vp.begin_ns;
  self->drag_end_ns = vp.end_ns;
  self->drag_scroll_y = vp.scroll_y;
  self->drag_anchor_ns = tw_timeline_viewport_x_to_time (&vp, x);

  if (x < TW_TIMELINE_LABEL_WIDTH)
    self->drag_mode = DRAG_NONE;
  else if (y < TW_TIMELINE_RULER_HEIGHT
           || (gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture)) & GDK_SHIFT_MASK))
    self->drag_mode = DRAG_SELECT;
  else
    self->drag_mode = DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TwTimeline     *self)
{
  TwTimelineViewport vp;

  if (self->state == NULL || self->drag_mode == DRAG_NONE)
    return;
  if (!self->dragged && fabs (dx) < DRAG_THRESHOLD && fabs (dy) < DRAG_THRESHOLD)
    return;
  self->dragged = TRUE;
  tw_timeline_get_viewport (self, &vp);

  if (self->drag_mode == DRAG_SELECT)
    {
      guint64 t = tw_timeline_viewport_x_to_time (&vp, MAX (self->drag_x + dx, TW_TIMELINE_LABEL_WIDTH));
      tw_view_state_set_selection (self->state, self->drag_anchor_ns, t);
      return;
    }

  /* Pan: the time under the pointer stays under it. */
  {
    double ns_per_px = (double) (self->drag_end_ns - self->drag_begin_ns)
                       / MAX (1, vp.width - TW_TIMELINE_LABEL_WIDTH);
    double begin = (double) self->drag_begin_ns - dx * ns_per_px;

    begin = MAX (begin, 0);
    tw_view_state_set_visible_range (self->state, (guint64) begin,
                                     (guint64) begin + (self->drag_end_ns - self->drag_begin_ns));
    if (self->vadjustment)
      gtk_adjustment_set_value (self->vadjustment, self->drag_scroll_y - dy);
  }
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TwTimeline     *self)
{
  self->drag_mode = DRAG_NONE;
}

static GMenuModel *
build_row_menu (TwTimeline *self,
                int         row)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) sort = g_menu_new ();
  g_autoptr(GMenu) filter = g_menu_new ();
  guint n_rows;
  const TwTimelineRow *rows = tw_timeline_painter_get_rows (self->painter, &n_rows);

  g_menu_append (sort, "Sort Tasks by _Name", "timeline.sort::name");
  g_menu_append (sort, "Sort Tasks by _Id", "timeline.sort::id");
  g_menu_append (sort, "Sort Tasks by _CPU Time", "timeline.sort::cpu-time");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (sort));

  if (row >= 0 && (guint) row < n_rows)
    {
      if (rows[row].kind == TW_TIMELINE_ROW_TASK)
        {
          g_autoptr(GMenuItem) item = g_menu_item_new ("Show _Only This Task", NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.filter-tasks", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
      else if (rows[row].kind == TW_TIMELINE_ROW_PROCESS)
        {
          g_autoptr(GMenuItem) item = g_menu_item_new ("Show _Only This Process", NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.filter-tasks", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
      if (rows[row].kind == TW_TIMELINE_ROW_SECTION || rows[row].kind == TW_TIMELINE_ROW_PROCESS)
        {
          g_autoptr(GMenuItem) item = g_menu_item_new ("_Collapse or Expand", NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.toggle-row", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
    }
  g_menu_append (filter, "Show _All Tasks", "timeline.show-all-tasks");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (filter));
  return G_MENU_MODEL (menu);
}

static void
context_click_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  TwTimeline      *self)
{
  g_autoptr(GMenuModel) menu = NULL;
  TwTimelineViewport vp;
  TwTimelineHit hit;
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  if (self->state == NULL)
    return;

  tw_timeline_get_viewport (self, &vp);
  tw_timeline_painter_hit_test (self->painter, &vp, x, y, &hit);
  menu = build_row_menu (self, x < TW_TIMELINE_LABEL_WIDTH ? hit.row : -1);
  tw_timeline_hit_clear (&hit);

  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (self->context_menu), menu);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu), &rect);
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
click_cb (GtkGestureClick *gesture,
          int              n_press,
          double           x,
          double           y,
          TwTimeline      *self)
{
  TwTimelineViewport vp;
  TwTimelineHit hit;
  int marker;

  if (self->state == NULL || self->dragged)
    return;

  gtk_widget_grab_focus (GTK_WIDGET (self));

  /* double-click on a marker in the ruler names it */
  if (n_press == 2 && y < TW_TIMELINE_RULER_HEIGHT && (marker = find_marker_near (self, x)) >= 0)
    {
      edit_marker (self, marker);
      return;
    }

  tw_timeline_get_viewport (self, &vp);
  tw_timeline_painter_hit_test (self->painter, &vp, x, y, &hit);

  if (hit.row >= 0 && x < TW_TIMELINE_LABEL_WIDTH)
    {
      tw_timeline_painter_toggle_row (self->painter, hit.row);
      update_vadjustment (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  else if (n_press == 2 && hit.span_end > hit.span_begin)
    tw_view_state_set_visible_range (self->state, hit.span_begin, hit.span_end);
  else if (hit.event != TW_EVENT_NONE)
    tw_view_state_set_selected_event (self->state, hit.event);
  else
    {
      tw_view_state_set_selected_event (self->state, TW_EVENT_NONE);
      tw_view_state_set_cursor (self->state, hit.time);
    }

  if (y < TW_TIMELINE_RULER_HEIGHT && x >= TW_TIMELINE_LABEL_WIDTH)
    tw_view_state_clear_selection (self->state);

  tw_timeline_hit_clear (&hit);
}

static void
pinch_begin_cb (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                TwTimeline       *self)
{
  self->pinch_last_scale = 1.0;
}

static void
pinch_scale_changed_cb (GtkGestureZoom *gesture,
                        double          scale,
                        TwTimeline     *self)
{
  TwTimelineViewport vp;
  double cx, cy;

  if (self->state == NULL || scale <= 0)
    return;
  tw_timeline_get_viewport (self, &vp);
  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &cx, &cy))
    cx = self->pointer_x;
  tw_view_state_zoom (self->state, scale / self->pinch_last_scale,
                      tw_timeline_viewport_x_to_time (&vp, cx));
  self->pinch_last_scale = scale;
}

static gboolean
query_tooltip_cb (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  TwTimeline *self)
{
  TwTimelineViewport vp;
  TwTimelineHit hit;
  gboolean shown = FALSE;

  if (self->painter == NULL || keyboard_mode)
    return FALSE;

  tw_timeline_get_viewport (self, &vp);
  tw_timeline_painter_hit_test (self->painter, &vp, x, y, &hit);
  if (hit.description)
    {
      gtk_tooltip_set_text (tooltip, hit.description);
      shown = TRUE;
    }
  tw_timeline_hit_clear (&hit);
  return shown;
}

/* ---------------------------------------------------------------- export */

/**
 * tw_timeline_export:
 * @path: ends in .png or .svg
 *
 * Writes what the widget shows now, at its size, in the light style of images, with the
 * legend under it.
 *
 * Returns: %FALSE with @error set
 */
gboolean
tw_timeline_export (TwTimeline  *self,
                    const char  *path,
                    GError     **error)
{
  TwTimelineViewport vp;

  g_return_val_if_fail (TW_IS_TIMELINE (self), FALSE);

  if (self->painter == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "no trace is open");
      return FALSE;
    }
  tw_timeline_get_viewport (self, &vp);
  vp.width = MAX (vp.width, TW_TIMELINE_LABEL_WIDTH + 100);
  vp.height = MAX (vp.height, TW_TIMELINE_RULER_HEIGHT + 100);
  return tw_timeline_image_write (self->painter, &vp, TRUE, path, error);
}

/* ---------------------------------------------------------------- GObject */

static void
set_adjustment (TwTimeline     *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (*slot == adjustment)
    return;
  if (*slot)
    g_signal_handlers_disconnect_by_func (*slot, gtk_widget_queue_draw, self);
  g_set_object (slot, adjustment);
  if (adjustment)
    g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  update_vadjustment (self);
}

static void
tw_timeline_dispose (GObject *object)
{
  TwTimeline *self = (TwTimeline *)object;

  tw_timeline_set_view_state (self, NULL);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->marker_popover, gtk_widget_unparent);
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);

  G_OBJECT_CLASS (tw_timeline_parent_class)->dispose (object);
}

static void
tw_timeline_finalize (GObject *object)
{
  TwTimeline *self = (TwTimeline *)object;

  g_clear_pointer (&self->markers, g_array_unref);

  G_OBJECT_CLASS (tw_timeline_parent_class)->finalize (object);
}

static void
tw_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:     g_value_set_object (value, self->state); break;
    case PROP_HADJUSTMENT:    g_value_set_object (value, self->hadjustment); break;
    case PROP_VADJUSTMENT:    g_value_set_object (value, self->vadjustment); break;
    case PROP_HSCROLL_POLICY: g_value_set_enum (value, self->hscroll_policy); break;
    case PROP_VSCROLL_POLICY: g_value_set_enum (value, self->vscroll_policy); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:     tw_timeline_set_view_state (self, g_value_get_object (value)); break;
    case PROP_HADJUSTMENT:    set_adjustment (self, &self->hadjustment, g_value_get_object (value)); break;
    case PROP_VADJUSTMENT:    set_adjustment (self, &self->vadjustment, g_value_get_object (value)); break;
    case PROP_HSCROLL_POLICY: self->hscroll_policy = g_value_get_enum (value); break;
    case PROP_VSCROLL_POLICY: self->vscroll_policy = g_value_get_enum (value); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_key (GtkWidgetClass *widget_class,
         guint           keyval,
         GdkModifierType mods,
         const char     *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

static void
tw_timeline_class_init (TwTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char * const actions[] = {
    "timeline.zoom-in", "timeline.zoom-out", "timeline.zoom-fit", "timeline.zoom-selection",
    "timeline.pan-left", "timeline.pan-right", "timeline.scroll-up", "timeline.scroll-down",
    "timeline.add-marker", "timeline.next-marker", "timeline.previous-marker",
  };

  object_class->dispose = tw_timeline_dispose;
  object_class->finalize = tw_timeline_finalize;
  object_class->get_property = tw_timeline_get_property;
  object_class->set_property = tw_timeline_set_property;

  widget_class->snapshot = tw_timeline_snapshot;
  widget_class->size_allocate = tw_timeline_size_allocate;
  widget_class->measure = tw_timeline_measure;

  properties[PROP_VIEW_STATE] =
    g_param_spec_object ("view-state", NULL, NULL, TW_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, timeline_action);
  gtk_widget_class_install_action (widget_class, "timeline.sort", "s", timeline_action);
  gtk_widget_class_install_action (widget_class, "timeline.filter-tasks", "u", timeline_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-row", "u", timeline_action);
  gtk_widget_class_install_action (widget_class, "timeline.show-all-tasks", NULL, timeline_action);

  /* Keys as KernelShark, Perfetto and Trace Compass users expect them. */
  add_key (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_w, 0, "timeline.zoom-in");
  add_key (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out");
  add_key (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out");
  add_key (widget_class, GDK_KEY_s, 0, "timeline.zoom-out");
  add_key (widget_class, GDK_KEY_Home, 0, "timeline.zoom-fit");
  add_key (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "timeline.zoom-fit");
  add_key (widget_class, GDK_KEY_z, 0, "timeline.zoom-selection");
  add_key (widget_class, GDK_KEY_Left, 0, "timeline.pan-left");
  add_key (widget_class, GDK_KEY_a, 0, "timeline.pan-left");
  add_key (widget_class, GDK_KEY_Right, 0, "timeline.pan-right");
  add_key (widget_class, GDK_KEY_d, 0, "timeline.pan-right");
  add_key (widget_class, GDK_KEY_Up, 0, "timeline.scroll-up");
  add_key (widget_class, GDK_KEY_Down, 0, "timeline.scroll-down");
  add_key (widget_class, GDK_KEY_m, 0, "timeline.add-marker");
  add_key (widget_class, GDK_KEY_bracketright, 0, "timeline.next-marker");
  add_key (widget_class, GDK_KEY_bracketleft, 0, "timeline.previous-marker");

  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
tw_timeline_init (TwTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  self->markers = g_array_new (FALSE, FALSE, sizeof (Marker));
  g_array_set_clear_func (self->markers, marker_clear);

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  g_signal_connect (gesture, "released", G_CALLBACK (click_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (context_click_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  self->context_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));

  self->marker_entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->marker_entry), "Marker name");
  g_signal_connect_swapped (self->marker_entry, "activate", G_CALLBACK (marker_entry_activate_cb), self);
  self->marker_popover = gtk_popover_new ();
  gtk_popover_set_child (GTK_POPOVER (self->marker_popover), self->marker_entry);
  gtk_widget_set_parent (self->marker_popover, GTK_WIDGET (self));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}

/**
 * tw_timeline_new:
 *
 * Returns: (transfer full): a timeline showing nothing until a view state is set
 */
GtkWidget *
tw_timeline_new (void)
{
  return g_object_new (TW_TYPE_TIMELINE, NULL);
}
