/* tw-automaton-label-editor.h: the popover that edits a transition's label
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-automaton.h>

G_BEGIN_DECLS

#define TW_TYPE_AUTOMATON_LABEL_EDITOR (tw_automaton_label_editor_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonLabelEditor, tw_automaton_label_editor, TW, AUTOMATON_LABEL_EDITOR,
                      GtkPopover)

GtkWidget          *tw_automaton_label_editor_new             (void);
void                tw_automaton_label_editor_edit            (TwAutomatonLabelEditor      *self,
                                                               guint                        transition,
                                                               const TwAutomatonTransition *t);
void                tw_automaton_label_editor_popup           (TwAutomatonLabelEditor      *self);
void                tw_automaton_label_editor_set_event_names (TwAutomatonLabelEditor      *self,
                                                               const char * const          *names);
GtkEntryCompletion *tw_automaton_label_editor_get_completion  (TwAutomatonLabelEditor      *self);

G_END_DECLS
