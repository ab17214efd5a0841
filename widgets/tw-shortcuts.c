/* tw-shortcuts.c: one table of keys per widget, bound wherever its users type
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-shortcuts.h"

/*
 * A widget declares its keys once, in a table; the same table gives the widget its own
 * key bindings (it has the focus) and lets a window make the keys work anywhere in an
 * area around it (the focus is on a list, a tab, a pane). Plain letters typed into an
 * entry stay text, and a focused list keeps its arrow keys: the area's letters are
 * looked at before the focused widget (capture), but yield to editable text; its
 * navigation keys only come after the focused widget passed them on (bubble).
 */

typedef struct {
  GtkWidget *target;   /* weak */
  char      *action;
} Activation;

static void
activation_free (gpointer data)
{
  Activation *activation = data;

  g_clear_weak_pointer (&activation->target);
  g_free (activation->action);
  g_free (activation);
}

static gboolean
focus_in_editable (GtkWidget *area)
{
  GtkRoot *root = gtk_widget_get_root (area);
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  for (; focus != NULL; focus = gtk_widget_get_parent (focus))
    if (GTK_IS_EDITABLE (focus) || GTK_IS_TEXT_VIEW (focus))
      return TRUE;
  return FALSE;
}

static gboolean
activate_cb (GtkWidget *area,
             GVariant  *args,
             gpointer   user_data)
{
  Activation *activation = user_data;

  if (activation->target == NULL || focus_in_editable (area))
    return FALSE;
  return gtk_widget_activate_action (activation->target, activation->action, NULL);
}

/**
 * tw_shortcuts_add_bindings:
 *
 * Binds every key of @shortcuts to its action on the widgets of @widget_class, for when
 * one of them has the focus.
 */
void
tw_shortcuts_add_bindings (GtkWidgetClass   *widget_class,
                           const TwShortcut *shortcuts,
                           guint             n_shortcuts)
{
  for (guint i = 0; i < n_shortcuts; i++)
    {
      g_auto(GStrv) accels = g_strsplit (shortcuts[i].accels, "|", -1);

      for (guint a = 0; accels[a]; a++)
        {
          GtkShortcutTrigger *trigger = gtk_shortcut_trigger_parse_string (accels[a]);

          g_assert (trigger != NULL);
          gtk_widget_class_add_shortcut (widget_class,
                                         gtk_shortcut_new (trigger,
                                                           gtk_named_action_new (shortcuts[i].action)));
        }
    }
}

static GtkEventController *
new_controller (GtkWidget           *target,
                const TwShortcut    *shortcuts,
                guint                n_shortcuts,
                gboolean             navigation,
                GtkPropagationPhase  phase)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  gtk_event_controller_set_propagation_phase (controller, phase);
  for (guint i = 0; i < n_shortcuts; i++)
    {
      g_auto(GStrv) accels = NULL;

      if (!!(shortcuts[i].flags & TW_SHORTCUT_NAVIGATION) != navigation)
        continue;
      accels = g_strsplit (shortcuts[i].accels, "|", -1);
      for (guint a = 0; accels[a]; a++)
        {
          Activation *activation = g_new0 (Activation, 1);

          g_set_weak_pointer (&activation->target, target);
          activation->action = g_strdup (shortcuts[i].action);
          gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                                gtk_shortcut_new (gtk_shortcut_trigger_parse_string (accels[a]),
                                                                  gtk_callback_action_new (activate_cb, activation,
                                                                                           activation_free)));
        }
    }
  return controller;
}

/**
 * tw_shortcuts_attach:
 * @area: where the keys work: the focus is on it or inside it
 * @target: the widget whose actions the keys activate (inside @area, or its window)
 *
 * Makes the keys of @shortcuts work wherever the focus is inside @area, except that text
 * typed into an entry stays text and a focused list keeps its navigation keys.
 */
void
tw_shortcuts_attach (GtkWidget        *area,
                     GtkWidget        *target,
                     const TwShortcut *shortcuts,
                     guint             n_shortcuts)
{
  g_return_if_fail (GTK_IS_WIDGET (area));
  g_return_if_fail (GTK_IS_WIDGET (target));

  gtk_widget_add_controller (area, new_controller (target, shortcuts, n_shortcuts, FALSE,
                                                   GTK_PHASE_CAPTURE));
  gtk_widget_add_controller (area, new_controller (target, shortcuts, n_shortcuts, TRUE,
                                                   GTK_PHASE_BUBBLE));
}
