/* tw-automaton-canvas.h: the metric-automaton designer: an editable canvas with a palette
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-automaton.h>
#include <tw-automaton-document.h>

#include "tw-automaton-layout.h"
#include "tw-automaton-painter.h"

G_BEGIN_DECLS

#define TW_TYPE_AUTOMATON_CANVAS (tw_automaton_canvas_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonCanvas, tw_automaton_canvas, TW, AUTOMATON_CANVAS, GtkWidget)

GtkWidget          *tw_automaton_canvas_new                  (void);

TwAutomatonDocument *tw_automaton_canvas_get_document        (TwAutomatonCanvas   *self);

TwAutomaton        *tw_automaton_canvas_get_automaton        (TwAutomatonCanvas   *self);
void                tw_automaton_canvas_set_automaton        (TwAutomatonCanvas   *self,
                                                              TwAutomaton         *automaton);
gboolean            tw_automaton_canvas_load                 (TwAutomatonCanvas   *self,
                                                              const char          *path,
                                                              GError             **error);
TwAutomatonPainter *tw_automaton_canvas_get_painter          (TwAutomatonCanvas   *self);
void                tw_automaton_canvas_get_viewport         (TwAutomatonCanvas   *self,
                                                              TwAutomatonViewport *viewport);
GtkWidget          *tw_automaton_canvas_get_drawing_area     (TwAutomatonCanvas   *self);

void                tw_automaton_canvas_set_event_names      (TwAutomatonCanvas   *self,
                                                              const char * const  *names);
GtkEntryCompletion *tw_automaton_canvas_get_event_completion (TwAutomatonCanvas   *self);

/* Edits of the document (tw-automaton-document.h) that the view takes part in (it
 * selects what they add, drops a selection they remove): each one is one undoable step
 * and emits ::changed once. The others go to tw_automaton_canvas_get_document(). */
int                 tw_automaton_canvas_add_state            (TwAutomatonCanvas   *self,
                                                              TwStateKind          kind,
                                                              double               x,
                                                              double               y);
void                tw_automaton_canvas_remove_state         (TwAutomatonCanvas   *self,
                                                              guint                state);
int                 tw_automaton_canvas_connect              (TwAutomatonCanvas   *self,
                                                              guint                from,
                                                              guint                to,
                                                              TwLabelKind          label,
                                                              const char          *event,
                                                              TwTaskMatch          task,
                                                              TwTaskField          task_field);
void                tw_automaton_canvas_remove_transition    (TwAutomatonCanvas   *self,
                                                              guint                transition);
void                tw_automaton_canvas_delete_selection     (TwAutomatonCanvas   *self);
void                tw_automaton_canvas_auto_layout          (TwAutomatonCanvas   *self);

gboolean            tw_automaton_canvas_undo                 (TwAutomatonCanvas   *self);
gboolean            tw_automaton_canvas_redo                 (TwAutomatonCanvas   *self);

void                tw_automaton_canvas_select_state         (TwAutomatonCanvas   *self,
                                                              int                  state);
void                tw_automaton_canvas_select_transition    (TwAutomatonCanvas   *self,
                                                              int                  transition);
int                 tw_automaton_canvas_get_selected_state   (TwAutomatonCanvas   *self);
int                 tw_automaton_canvas_get_selected_transition (TwAutomatonCanvas *self);
void                tw_automaton_canvas_edit_transition      (TwAutomatonCanvas   *self,
                                                              guint                transition);

void                tw_automaton_canvas_set_step_view        (TwAutomatonCanvas   *self,
                                                              int                  active_state,
                                                              const guint         *visits,
                                                              guint                n_visits);

void                tw_automaton_canvas_zoom_to_fit          (TwAutomatonCanvas   *self);
void                tw_automaton_canvas_set_zoom             (TwAutomatonCanvas   *self,
                                                              double               zoom,
                                                              double               anchor_x,
                                                              double               anchor_y);

G_END_DECLS
