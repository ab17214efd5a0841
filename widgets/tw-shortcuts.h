/* tw-shortcuts.h: one table of keys per widget, bound wherever its users type
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  TW_SHORTCUT_DEFAULT    = 0,
  /* arrows, Page Up/Down, Home, End: a focused list or entry moves with them first */
  TW_SHORTCUT_NAVIGATION = 1 << 0,
} TwShortcutFlags;

typedef struct {
  const char      *accels;  /* triggers as gtk_shortcut_trigger_parse_string() reads them,
                             * separated by "|": "plus|equal|<Control>plus" */
  const char      *action;  /* "timeline.zoom-in", "win.next-event" */
  TwShortcutFlags  flags;
} TwShortcut;

void tw_shortcuts_add_bindings (GtkWidgetClass   *widget_class,
                                const TwShortcut *shortcuts,
                                guint             n_shortcuts);
void tw_shortcuts_attach       (GtkWidget        *area,
                                GtkWidget        *target,
                                const TwShortcut *shortcuts,
                                guint             n_shortcuts);

G_END_DECLS
