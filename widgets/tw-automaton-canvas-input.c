/* tw-automaton-canvas-input.c: the designer canvas's pointer: drags, clicks, scroll, tooltips
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "tw-automaton-canvas-private.h"

/*
 * A drag on a state moves it (one undoable step for the whole drag: the document's
 * begin_edit/end_edit pair), a drag from its rim or with Shift draws a transition, a
 * drag on empty canvas pans. Hit testing is the painter's, so what the pointer finds is
 * what is drawn there.
 */

#define SCROLL_PAN_PX 40.0

static void
hit_test (TwAutomatonCanvas *self,
          double             x,
          double             y,
          TwAutomatonHit    *hit)
{
  TwAutomatonViewport vp;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_painter_hit_test (self->painter, &vp, x, y, hit);
}

static void
update_cursor (TwAutomatonCanvas *self,
               double             x,
               double             y)
{
  TwAutomatonHit hit;
  const char *name = NULL;

  if (self->drag_mode == TW_CANVAS_DRAG_PAN)
    name = "grabbing";
  else if (self->drag_mode == TW_CANVAS_DRAG_CONNECT)
    name = "crosshair";
  else if (self->drag_mode == TW_CANVAS_DRAG_MOVE)
    name = "move";
  else
    {
      hit_test (self, x, y, &hit);
      if (hit.kind == TW_AUTOMATON_HIT_STATE_RIM)
        name = "crosshair";
      else if (hit.kind == TW_AUTOMATON_HIT_STATE)
        name = "move";
      else if (hit.kind == TW_AUTOMATON_HIT_TRANSITION)
        name = "pointer";
    }
  gtk_widget_set_cursor_from_name (self->area, name);
}

static void
motion_cb (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           TwAutomatonCanvas        *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  update_cursor (self, x, y);
}

static void
begin_state_drag (TwAutomatonCanvas *self,
                  TwAutomatonHit    *hit,
                  GdkModifierType    mods,
                  double             x,
                  double             y)
{
  TwAutomaton *a = tw_automaton_document_get_automaton (self->document);
  const TwAutomatonState *s = tw_automaton_get_state (a, hit->index);

  self->drag_state = hit->index;
  tw_automaton_canvas_select_state (self, hit->index);
  if (hit->kind == TW_AUTOMATON_HIT_STATE_RIM || (mods & GDK_SHIFT_MASK))
    {
      self->drag_mode = TW_CANVAS_DRAG_CONNECT;
      self->pending_x = x;
      self->pending_y = y;
      return;
    }
  self->drag_mode = TW_CANVAS_DRAG_MOVE;
  self->drag_origin_x = s->x;
  self->drag_origin_y = s->y;
  tw_automaton_document_begin_edit (self->document);
}

static void
drag_begin_cb (GtkGestureDrag    *gesture,
               double             x,
               double             y,
               TwAutomatonCanvas *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  TwAutomatonHit hit;

  gtk_widget_grab_focus (self->area);
  hit_test (self, x, y, &hit);
  self->drag_moved = FALSE;
  self->drag_state = -1;
  switch (hit.kind)
    {
    case TW_AUTOMATON_HIT_STATE_RIM:
    case TW_AUTOMATON_HIT_STATE:
      begin_state_drag (self, &hit, mods, x, y);
      break;
    case TW_AUTOMATON_HIT_TRANSITION:
      tw_automaton_canvas_select_transition (self, hit.index);
      self->drag_mode = TW_CANVAS_DRAG_NONE;
      break;
    case TW_AUTOMATON_HIT_NONE:
    default:
      tw_automaton_canvas_select_state (self, -1);
      self->drag_mode = TW_CANVAS_DRAG_PAN;
      self->drag_origin_x = self->pan_x;
      self->drag_origin_y = self->pan_y;
      break;
    }
  update_cursor (self, x, y);
}

static void
drag_update_cb (GtkGestureDrag    *gesture,
                double             dx,
                double             dy,
                TwAutomatonCanvas *self)
{
  double sx, sy;

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  if (fabs (dx) + fabs (dy) > 2)
    self->drag_moved = TRUE;
  switch (self->drag_mode)
    {
    case TW_CANVAS_DRAG_MOVE:
      /* inside the document's begin_edit/end_edit: the whole drag is one step */
      if (self->drag_moved)
        tw_automaton_set_state_position (tw_automaton_document_get_automaton (self->document),
                                         self->drag_state,
                                         round (self->drag_origin_x + dx / self->zoom),
                                         round (self->drag_origin_y + dy / self->zoom));
      break;
    case TW_CANVAS_DRAG_CONNECT:
      if (self->drag_moved)
        self->pending_from = self->drag_state;
      self->pending_x = sx + dx;
      self->pending_y = sy + dy;
      break;
    case TW_CANVAS_DRAG_PAN:
      self->pan_x = self->drag_origin_x + dx;
      self->pan_y = self->drag_origin_y + dy;
      break;
    case TW_CANVAS_DRAG_NONE:
    default:
      return;
    }
  gtk_widget_queue_draw (self->area);
}

/* A click on the rim without a drag only selects; a release on a state connects (on
 * the same state: a loop) and opens the new label. */
static void
end_connect (TwAutomatonCanvas *self,
             double             x,
             double             y)
{
  TwAutomatonHit hit;
  int t;

  hit_test (self, x, y, &hit);
  if (!self->drag_moved ||
      (hit.kind != TW_AUTOMATON_HIT_STATE && hit.kind != TW_AUTOMATON_HIT_STATE_RIM))
    return;
  t = tw_automaton_canvas_connect (self, self->drag_state, hit.index, TW_LABEL_EVENT, "",
                                   TW_TASK_MATCH_ANY, TW_TASK_FIELD_TASK);
  tw_automaton_canvas_edit_transition (self, t);
}

static void
drag_end_cb (GtkGestureDrag    *gesture,
             double             dx,
             double             dy,
             TwAutomatonCanvas *self)
{
  TwCanvasDragMode mode = self->drag_mode;
  double sx, sy;

  gtk_gesture_drag_get_start_point (gesture, &sx, &sy);
  self->drag_mode = TW_CANVAS_DRAG_NONE;
  self->pending_from = -1;
  if (mode == TW_CANVAS_DRAG_MOVE)
    tw_automaton_document_end_edit (self->document);
  else if (mode == TW_CANVAS_DRAG_CONNECT)
    end_connect (self, sx + dx, sy + dy);
  gtk_widget_queue_draw (self->area);
  update_cursor (self, sx + dx, sy + dy);
}

static void
secondary_click (TwAutomatonCanvas    *self,
                 const TwAutomatonHit *hit,
                 double                x,
                 double                y)
{
  gtk_widget_grab_focus (self->area);
  if (hit->kind == TW_AUTOMATON_HIT_TRANSITION)
    {
      tw_automaton_canvas_edit_transition (self, hit->index);
      return;
    }
  if (hit->kind != TW_AUTOMATON_HIT_STATE && hit->kind != TW_AUTOMATON_HIT_STATE_RIM)
    return;
  tw_automaton_canvas_select_state (self, hit->index);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
}

static void
click_pressed_cb (GtkGestureClick   *gesture,
                  int                n_press,
                  double             x,
                  double             y,
                  TwAutomatonCanvas *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  TwAutomatonViewport vp;
  TwAutomatonHit hit;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_painter_hit_test (self->painter, &vp, x, y, &hit);
  if (button == GDK_BUTTON_SECONDARY)
    {
      secondary_click (self, &hit, x, y);
      return;
    }
  if (button != GDK_BUTTON_PRIMARY || n_press != 2)
    return;
  if (hit.kind == TW_AUTOMATON_HIT_NONE)
    {
      double mx, my;
      tw_automaton_viewport_to_model (&vp, x, y, &mx, &my);
      tw_automaton_canvas_add_state (self, self->double_click_kind, mx, my);
    }
  else if (hit.kind == TW_AUTOMATON_HIT_TRANSITION)
    tw_automaton_canvas_edit_transition (self, hit.index);
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           TwAutomatonCanvas        *self)
{
  GdkModifierType mods = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  gboolean wheel = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL;

  if (mods & GDK_CONTROL_MASK)
    {
      tw_automaton_canvas_set_zoom (self, self->zoom * pow (TW_AUTOMATON_CANVAS_ZOOM_STEP, -dy),
                                    self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (mods & GDK_SHIFT_MASK && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  self->pan_x -= dx * (wheel ? SCROLL_PAN_PX : 1);
  self->pan_y -= dy * (wheel ? SCROLL_PAN_PX : 1);
  gtk_widget_queue_draw (self->area);
  return TRUE;
}

static gboolean
query_tooltip_cb (GtkWidget         *widget,
                  int                x,
                  int                y,
                  gboolean           keyboard,
                  GtkTooltip        *tooltip,
                  TwAutomatonCanvas *self)
{
  TwAutomatonHit hit;
  const TwAutomatonState *s;
  g_autofree char *text = NULL;

  if (keyboard || self->drag_mode != TW_CANVAS_DRAG_NONE)
    return FALSE;
  hit_test (self, x, y, &hit);
  switch (hit.kind)
    {
    case TW_AUTOMATON_HIT_STATE_RIM:
      gtk_tooltip_set_text (tooltip, _("Drag from the rim to another state to connect them (to itself: a loop)"));
      break;
    case TW_AUTOMATON_HIT_STATE:
      s = tw_automaton_get_state (tw_automaton_document_get_automaton (self->document), hit.index);
      text = g_strdup_printf (_("State %s (%s: %s)\nDrag to move, Shift+drag or drag from the "
                                "rim to connect, right-click for kind and initial"),
                              s->id, tw_state_kind_to_string (s->kind),
                              tw_automaton_state_kind_describe (s->kind));
      gtk_tooltip_set_text (tooltip, text);
      break;
    case TW_AUTOMATON_HIT_TRANSITION:
      gtk_tooltip_set_text (tooltip, _("Double-click or press Enter to edit the label; Delete removes it"));
      break;
    case TW_AUTOMATON_HIT_NONE:
    default:
      gtk_tooltip_set_text (tooltip, _("Double-click to add a state, drag to pan, Ctrl+scroll to zoom"));
      break;
    }
  return TRUE;
}

/**
 * _tw_automaton_canvas_add_controllers:
 *
 * Puts the pointer's controllers on the drawing area.
 */
void
_tw_automaton_canvas_add_controllers (TwAutomatonCanvas *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (query_tooltip_cb), self);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (drag_update_cb), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (drag_end_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (self->area, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (self->area, controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (motion_cb), self);
  gtk_widget_add_controller (self->area, controller);
}
