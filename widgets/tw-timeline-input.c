/* tw-timeline-input.c: the timeline's pointer: wheel, drags, clicks, pinch, tooltips
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "tw-timeline-private.h"

#define DRAG_THRESHOLD      3.0
#define WHEEL_ROWS          3     /* task rows scrolled per wheel notch */
#define SMOOTH_ZOOM_PX      30.0  /* touchpad travel, in px, worth one zoom step */

static double
ns_per_px (const TwTimelineViewport *vp)
{
  return (double) (vp->end_ns - vp->begin_ns) / MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH);
}

/* Ctrl+wheel zooms around the pointer; Shift+wheel and horizontal scrolling move in
 * time; the plain wheel scrolls the rows. A touchpad's smooth deltas are pixels: rows
 * and time follow the fingers. */
static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TwTimeline               *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean smooth = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_SURFACE;
  TwTimelineViewport vp;

  if (self->state == NULL)
    return FALSE;
  tw_timeline_get_viewport (self, &vp);

  if (mods & GDK_CONTROL_MASK)
    {
      _tw_timeline_zoom (self, pow (TW_TIMELINE_ZOOM_STEP, smooth ? -dy / SMOOTH_ZOOM_PX : -dy));
      return TRUE;
    }
  if ((mods & GDK_SHIFT_MASK) && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  if (dx != 0)
    {
      if (smooth)
        tw_view_state_pan_ns (self->state, (gint64) llround (dx * ns_per_px (&vp)));
      else
        tw_view_state_pan (self->state, dx * TW_TIMELINE_PAN_STEP);
    }
  if (dy != 0)
    _tw_timeline_scroll_by (self, smooth ? dy : dy * WHEEL_ROWS * TW_TIMELINE_TASK_HEIGHT);
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
  self->pointer_inside = TRUE;
}

static void
leave_cb (GtkEventControllerMotion *controller,
          TwTimeline               *self)
{
  self->pointer_inside = FALSE;
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               TwTimeline     *self)
{
  TwTimelineViewport vp;
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  if (self->state == NULL)
    return;

  tw_timeline_get_viewport (self, &vp);
  self->dragged = FALSE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_begin_ns = vp.begin_ns;
  self->drag_scroll_y = vp.scroll_y;
  self->drag_anchor_ns = tw_timeline_viewport_x_to_time (&vp, x);

  if (x < TW_TIMELINE_LABEL_WIDTH)
    self->drag_mode = TW_TIMELINE_DRAG_NONE;
  else if (y < TW_TIMELINE_RULER_HEIGHT || (mods & GDK_SHIFT_MASK))
    self->drag_mode = TW_TIMELINE_DRAG_SELECT;
  else
    self->drag_mode = TW_TIMELINE_DRAG_PAN;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                TwTimeline     *self)
{
  TwTimelineViewport vp;
  guint64 span;
  gint64 shift;
  guint64 begin;

  if (self->state == NULL || self->drag_mode == TW_TIMELINE_DRAG_NONE)
    return;
  if (!self->dragged && fabs (dx) < DRAG_THRESHOLD && fabs (dy) < DRAG_THRESHOLD)
    return;
  self->dragged = TRUE;
  tw_timeline_get_viewport (self, &vp);

  if (self->drag_mode == TW_TIMELINE_DRAG_SELECT)
    {
      guint64 t = tw_timeline_viewport_x_to_time (&vp, MAX (self->drag_x + dx, TW_TIMELINE_LABEL_WIDTH));
      tw_view_state_set_selection (self->state, self->drag_anchor_ns, t);
      return;
    }

  /* Pan: the time and the row under the pointer stay under it (until an end stops it). */
  span = vp.end_ns - vp.begin_ns;
  shift = (gint64) llround (-dx * ns_per_px (&vp));
  if (shift < 0)
    begin = (guint64) -shift > self->drag_begin_ns ? 0 : self->drag_begin_ns - (guint64) -shift;
  else
    begin = self->drag_begin_ns + (guint64) shift;
  tw_view_state_set_visible_range (self->state, begin, begin + span);
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, self->drag_scroll_y - dy);
}

static void
drag_end_cb (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             TwTimeline     *self)
{
  self->drag_mode = TW_TIMELINE_DRAG_NONE;
}

static GMenuModel *
build_row_menu (TwTimeline *self,
                int         row)
{
  GMenu *menu = g_menu_new ();
  g_autoptr(GMenu) sort = g_menu_new ();
  g_autoptr(GMenu) filter = g_menu_new ();
  guint n_rows;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (self->layout, &n_rows);

  g_menu_append (sort, _("Sort Tasks by _Name"), "timeline.sort::name");
  g_menu_append (sort, _("Sort Tasks by _Id"), "timeline.sort::id");
  g_menu_append (sort, _("Sort Tasks by _CPU Time"), "timeline.sort::cpu-time");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (sort));

  if (row >= 0 && (guint) row < n_rows)
    {
      if (rows[row].kind == TW_TIMELINE_ROW_TASK)
        {
          g_autoptr(GMenuItem) item = g_menu_item_new (_("Show _Only This Task"), NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.filter-tasks", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
      else if (rows[row].kind == TW_TIMELINE_ROW_PROCESS)
        {
          g_autoptr(GMenuItem) item = g_menu_item_new (_("Show _Only This Process"), NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.filter-tasks", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
      else if (rows[row].kind == TW_TIMELINE_ROW_HOST)
        {
          /* its tasks: the other hosts keep their CPU rows, for comparison */
          g_autoptr(GMenuItem) item = g_menu_item_new (_("Show Only This _Host’s Tasks"), NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.filter-tasks", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
      if (tw_timeline_layout_is_header (self->layout, row))
        {
          g_autoptr(GMenuItem) item = g_menu_item_new (_("_Collapse or Expand"), NULL);
          g_menu_item_set_action_and_target_value (item, "timeline.toggle-row", g_variant_new_uint32 (row));
          g_menu_append_item (filter, item);
        }
    }
  g_menu_append (filter, _("Show _All Tasks"), "timeline.show-all-tasks");
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
  if (n_press == 2 && y < TW_TIMELINE_RULER_HEIGHT && (marker = _tw_timeline_find_marker_near (self, x)) >= 0)
    {
      _tw_timeline_edit_marker (self, marker);
      return;
    }

  tw_timeline_get_viewport (self, &vp);
  tw_timeline_painter_hit_test (self->painter, &vp, x, y, &hit);

  if (hit.row >= 0 && x < TW_TIMELINE_LABEL_WIDTH)
    tw_timeline_layout_toggle_row (self->layout, hit.row);
  else if (n_press == 2 && hit.span_end > hit.span_begin)
    tw_view_state_set_visible_range (self->state, hit.span_begin, hit.span_end);
  else if (hit.event != TW_EVENT_NONE)
    {
      self->selecting = TRUE;
      tw_view_state_set_selected_event (self->state, hit.event);
      self->selecting = FALSE;
    }
  else
    {
      /* a run, a handler or a task's state is picked where no event is near */
      tw_view_state_set_selected_event (self->state, TW_EVENT_NONE);
      tw_view_state_set_selected_span (self->state, hit.span.end > hit.span.begin ? &hit.span : NULL);
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

void
_tw_timeline_init_input (TwTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "enter", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  g_signal_connect (controller, "leave", G_CALLBACK (leave_cb), self);
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

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (pinch_begin_cb), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (pinch_scale_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  self->context_menu = gtk_popover_menu_new_from_model (NULL);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_parent (self->context_menu, GTK_WIDGET (self));
}
