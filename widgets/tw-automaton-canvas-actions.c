/* tw-automaton-canvas-actions.c: the designer canvas's actions, keys, toolbar and context menu
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include <math.h>

#include "tw-automaton-canvas-private.h"
#include "tw-wrap-box.h"

/* Every command is a `canvas.` action, so the toolbar, the context menu, the keys and
 * the tests all go through the same code. */

/**
 * _tw_automaton_canvas_update_actions:
 *
 * Enables the actions that make sense for the selection and the history.
 */
void
_tw_automaton_canvas_update_actions (TwAutomatonCanvas *self)
{
  GtkWidget *w = GTK_WIDGET (self);
  gboolean state = self->selected_state >= 0;
  gboolean transition = self->selected_transition >= 0;

  gtk_widget_action_set_enabled (w, "canvas.undo", tw_automaton_document_can_undo (self->document));
  gtk_widget_action_set_enabled (w, "canvas.redo", tw_automaton_document_can_redo (self->document));
  gtk_widget_action_set_enabled (w, "canvas.delete", state || transition);
  gtk_widget_action_set_enabled (w, "canvas.set-initial", state);
  gtk_widget_action_set_enabled (w, "canvas.set-kind", state);
  gtk_widget_action_set_enabled (w, "canvas.nudge", state);
  gtk_widget_action_set_enabled (w, "canvas.edit-label", transition);
}

static TwStateKind
kind_from_variant (GVariant *parameter)
{
  TwStateKind kind = TW_STATE_KIND_OUT;

  if (parameter)
    tw_state_kind_from_string (g_variant_get_string (parameter, NULL), &kind);
  return kind;
}

/* a free spot near the middle of the view for a state added from the palette */
static void
free_spot (TwAutomatonCanvas *self,
           double            *x,
           double            *y)
{
  TwAutomaton *a = tw_automaton_document_get_automaton (self->document);
  TwAutomatonViewport vp;
  gboolean taken = TRUE;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_automaton_viewport_to_model (&vp, MAX (vp.width - 280, 200) / 2.0, vp.height / 2.0, x, y);
  for (int tries = 0; taken && tries < 50; tries++)
    {
      taken = FALSE;
      for (guint i = 0; i < tw_automaton_get_n_states (a); i++)
        {
          const TwAutomatonState *s = tw_automaton_get_state (a, i);
          if (fabs (s->x - *x) < 2 * TW_AUTOMATON_STATE_RADIUS &&
              fabs (s->y - *y) < 2 * TW_AUTOMATON_STATE_RADIUS)
            taken = TRUE;
        }
      if (taken)
        {
          *x += 40;
          *y += 30;
        }
    }
}

static void
zoom_by (TwAutomatonCanvas *self,
         double             factor)
{
  tw_automaton_canvas_set_zoom (self, self->zoom * factor,
                                gtk_widget_get_width (self->area) / 2.0,
                                gtk_widget_get_height (self->area) / 2.0);
}

static void
add_state_action (TwAutomatonCanvas *self,
                  GVariant          *parameter)
{
  double x, y;

  free_spot (self, &x, &y);
  self->double_click_kind = kind_from_variant (parameter);
  tw_automaton_canvas_add_state (self, self->double_click_kind, x, y);
}

static void
nudge_action (TwAutomatonCanvas *self,
              GVariant          *parameter)
{
  TwAutomaton *a = tw_automaton_document_get_automaton (self->document);
  const TwAutomatonState *s;
  int dx, dy;

  g_variant_get (parameter, "(ii)", &dx, &dy);
  if (self->selected_state < 0)
    return;
  s = tw_automaton_get_state (a, self->selected_state);
  tw_automaton_document_move_state (self->document, self->selected_state, s->x + dx, s->y + dy);
}

static void
canvas_action (GtkWidget  *widget,
               const char *name,
               GVariant   *parameter)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (widget);

  if (g_str_equal (name, "canvas.undo"))
    tw_automaton_canvas_undo (self);
  else if (g_str_equal (name, "canvas.redo"))
    tw_automaton_canvas_redo (self);
  else if (g_str_equal (name, "canvas.delete"))
    tw_automaton_canvas_delete_selection (self);
  else if (g_str_equal (name, "canvas.add-state"))
    add_state_action (self, parameter);
  else if (g_str_equal (name, "canvas.set-kind"))
    {
      if (self->selected_state >= 0)
        tw_automaton_document_set_state_kind (self->document, self->selected_state, kind_from_variant (parameter));
    }
  else if (g_str_equal (name, "canvas.set-initial"))
    {
      if (self->selected_state >= 0)
        tw_automaton_document_set_initial (self->document, self->selected_state);
    }
  else if (g_str_equal (name, "canvas.edit-label"))
    {
      if (self->selected_transition >= 0)
        tw_automaton_canvas_edit_transition (self, self->selected_transition);
    }
  else if (g_str_equal (name, "canvas.nudge"))
    nudge_action (self, parameter);
  else if (g_str_equal (name, "canvas.auto-layout"))
    tw_automaton_canvas_auto_layout (self);
  else if (g_str_equal (name, "canvas.zoom-in"))
    zoom_by (self, TW_AUTOMATON_CANVAS_ZOOM_STEP);
  else if (g_str_equal (name, "canvas.zoom-out"))
    zoom_by (self, 1 / TW_AUTOMATON_CANVAS_ZOOM_STEP);
  else if (g_str_equal (name, "canvas.zoom-fit"))
    tw_automaton_canvas_zoom_to_fit (self);
  else if (g_str_equal (name, "canvas.escape"))
    {
      self->drag_mode = TW_CANVAS_DRAG_NONE;
      self->pending_from = -1;
      tw_automaton_canvas_select_state (self, -1);
    }
}

static void
add_key (GtkWidgetClass  *widget_class,
         guint            keyval,
         GdkModifierType  mods,
         const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

static void
add_keys (GtkWidgetClass *widget_class)
{
  static const struct { guint key; int dx, dy; } arrows[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 }, { GDK_KEY_Up, 0, -1 }, { GDK_KEY_Down, 0, 1 },
  };

  add_key (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "canvas.undo");
  add_key (widget_class, GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_Z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_y, GDK_CONTROL_MASK, "canvas.redo");
  add_key (widget_class, GDK_KEY_Delete, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_KP_Delete, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_BackSpace, 0, "canvas.delete");
  add_key (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "canvas.set-initial");
  add_key (widget_class, GDK_KEY_Return, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_KP_Enter, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_F2, 0, "canvas.edit-label");
  add_key (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "canvas.auto-layout");
  add_key (widget_class, GDK_KEY_plus, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_equal, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_KP_Add, 0, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_key (widget_class, GDK_KEY_minus, 0, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_KP_Subtract, 0, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_key (widget_class, GDK_KEY_0, 0, "canvas.zoom-fit");
  add_key (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_key (widget_class, GDK_KEY_Escape, 0, "canvas.escape");
  /* arrows move the selected state by a grid step, with Shift by one unit */
  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    {
      gtk_widget_class_add_binding_action (widget_class, arrows[i].key, 0, "canvas.nudge", "(ii)",
                                           arrows[i].dx * 24, arrows[i].dy * 24);
      gtk_widget_class_add_binding_action (widget_class, arrows[i].key, GDK_SHIFT_MASK,
                                           "canvas.nudge", "(ii)", arrows[i].dx, arrows[i].dy);
    }
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1 + k, GDK_CONTROL_MASK,
                                         "canvas.add-state", "s", tw_state_kind_to_string (k));
}

/**
 * _tw_automaton_canvas_class_add_actions:
 *
 * Installs the `canvas.` actions and their keys.
 */
void
_tw_automaton_canvas_class_add_actions (GtkWidgetClass *widget_class)
{
  static const char * const actions[] = {
    "canvas.undo", "canvas.redo", "canvas.delete", "canvas.set-initial", "canvas.edit-label",
    "canvas.auto-layout", "canvas.zoom-in", "canvas.zoom-out", "canvas.zoom-fit",
    "canvas.escape",
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.add-state", "s", canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.set-kind", "s", canvas_action);
  gtk_widget_class_install_action (widget_class, "canvas.nudge", "(ii)", canvas_action);
  add_keys (widget_class);
}

static void
palette_icon_draw (GtkDrawingArea *area,
                   cairo_t        *cr,
                   int             width,
                   int             height,
                   gpointer        user_data)
{
  tw_automaton_painter_draw_state_icon (cr, GPOINTER_TO_UINT (user_data), width / 2.0,
                                        height / 2.0, MIN (width, height) / 2.0 - 1.5);
}

static GtkWidget *
icon_button (const char *icon,
             const char *action,
             const char *tooltip)
{
  GtkWidget *button = gtk_button_new_from_icon_name (icon);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static GtkWidget *
palette_button (TwStateKind kind)
{
  static const char * const key_hint[TW_N_STATE_KINDS] = {
    "Ctrl+1", "Ctrl+2", "Ctrl+3", "Ctrl+4", "Ctrl+5", "Ctrl+6",
  };
  GtkWidget *button = gtk_button_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *icon = gtk_drawing_area_new ();
  g_autofree char *tooltip = NULL;

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (icon), 18);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (icon), 18);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (icon), palette_icon_draw,
                                  GUINT_TO_POINTER (kind), NULL);
  gtk_box_append (GTK_BOX (content), icon);
  gtk_box_append (GTK_BOX (content), gtk_label_new (tw_state_kind_to_string (kind)));
  gtk_button_set_child (GTK_BUTTON (button), content);
  gtk_widget_add_css_class (button, "flat");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "canvas.add-state");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (button), "s", tw_state_kind_to_string (kind));
  tooltip = g_strdup_printf (_("Add a%s %s state: %s (%s).\nDouble-clicking the canvas "
                               "then adds this kind too."),
                             kind == TW_STATE_KIND_IN || kind == TW_STATE_KIND_OUT ? "n" : "",
                             tw_state_kind_to_string (kind), tw_automaton_state_kind_describe (kind),
                             key_hint[kind]);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

/**
 * _tw_automaton_canvas_build_toolbar:
 *
 * The toolbar wraps onto a second line in a narrow window rather than widening it (the
 * designer must fit a 1280 px screen beside its preview). What belongs together stays
 * together on a line: undo with redo, "Add" with the first kind, the zoom buttons.
 *
 * Returns: (transfer floating): the toolbar
 */
GtkWidget *
_tw_automaton_canvas_build_toolbar (void)
{
  GtkWidget *bar = tw_wrap_box_new (4);
  GtkWidget *group, *label, *spacer;

  gtk_widget_add_css_class (bar, "toolbar");

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (group), icon_button ("edit-undo-symbolic", "canvas.undo", _("Undo (Ctrl+Z)")));
  gtk_box_append (GTK_BOX (group), icon_button ("edit-redo-symbolic", "canvas.redo",
                                                _("Redo (Ctrl+Shift+Z)")));
  tw_wrap_box_append (TW_WRAP_BOX (bar), group);
  tw_wrap_box_append (TW_WRAP_BOX (bar), gtk_separator_new (GTK_ORIENTATION_VERTICAL));

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  label = gtk_label_new (_("Add"));
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_start (label, 4);
  gtk_widget_set_margin_end (label, 2);
  gtk_box_append (GTK_BOX (group), label);
  gtk_box_append (GTK_BOX (group), palette_button (0));
  tw_wrap_box_append (TW_WRAP_BOX (bar), group);
  for (guint k = 1; k < TW_N_STATE_KINDS; k++)
    tw_wrap_box_append (TW_WRAP_BOX (bar), palette_button (k));
  tw_wrap_box_append (TW_WRAP_BOX (bar), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("go-home-symbolic", "canvas.set-initial",
                                                      _("Make the selected state the initial one (Ctrl+I)")));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("edit-delete-symbolic", "canvas.delete",
                                                      _("Delete the selection (Delete)")));
  tw_wrap_box_append (TW_WRAP_BOX (bar), icon_button ("view-grid-symbolic", "canvas.auto-layout",
                                                      _("Arrange the states in ranks from the initial state (Ctrl+L)")));

  /* whole or on the next line, never cut to "Dr…" */
  spacer = gtk_label_new (_("Drag from a rim to connect"));
  gtk_widget_add_css_class (spacer, "dim-label");
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_widget_set_halign (spacer, GTK_ALIGN_END);
  gtk_widget_set_margin_end (spacer, 6);
  tw_wrap_box_append (TW_WRAP_BOX (bar), spacer);

  group = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-out-symbolic", "canvas.zoom-out", _("Zoom out (−)")));
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-fit-best-symbolic", "canvas.zoom-fit",
                                                _("Show the whole automaton (0)")));
  gtk_box_append (GTK_BOX (group), icon_button ("zoom-in-symbolic", "canvas.zoom-in", _("Zoom in (+)")));
  tw_wrap_box_append (TW_WRAP_BOX (bar), group);
  return bar;
}

/**
 * _tw_automaton_canvas_build_context_menu:
 *
 * Returns: (transfer floating): the menu a right click on a state opens
 */
GtkWidget *
_tw_automaton_canvas_build_context_menu (void)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) kinds = g_menu_new ();
  g_autoptr(GMenu) actions = g_menu_new ();
  GtkWidget *popover;

  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      g_autofree char *action = g_strdup_printf ("canvas.set-kind::%s", tw_state_kind_to_string (k));
      g_autofree char *label = g_strdup_printf ("%s — %s", tw_state_kind_to_string (k),
                                                tw_automaton_state_kind_describe (k));
      g_menu_append (kinds, label, action);
    }
  g_menu_append_section (menu, _("Kind"), G_MENU_MODEL (kinds));
  g_menu_append (actions, _("Make _Initial"), "canvas.set-initial");
  g_menu_append (actions, _("_Delete State"), "canvas.delete");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (actions));
  popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu));
  gtk_popover_set_has_arrow (GTK_POPOVER (popover), FALSE);
  gtk_widget_set_halign (popover, GTK_ALIGN_START);
  return popover;
}
