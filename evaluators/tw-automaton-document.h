/* tw-automaton-document.h: a metric automaton being edited: its edits, undo and redo
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton.h"

G_BEGIN_DECLS

#define TW_TYPE_AUTOMATON_DOCUMENT (tw_automaton_document_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonDocument, tw_automaton_document, TW, AUTOMATON_DOCUMENT, GObject)

TwAutomatonDocument *tw_automaton_document_new                  (void);

TwAutomaton         *tw_automaton_document_get_automaton        (TwAutomatonDocument  *self);
void                 tw_automaton_document_set_automaton        (TwAutomatonDocument  *self,
                                                                 TwAutomaton          *automaton);
const char          *tw_automaton_document_get_path             (TwAutomatonDocument  *self);
void                 tw_automaton_document_set_path             (TwAutomatonDocument  *self,
                                                                 const char           *path);
gboolean             tw_automaton_document_save                 (TwAutomatonDocument  *self,
                                                                 const char           *path,
                                                                 GError              **error);
gboolean             tw_automaton_document_get_modified         (TwAutomatonDocument  *self);

/* Edits: each one is one undoable step and emits ::changed once (none when nothing
 * changed). */
guint                tw_automaton_document_add_state            (TwAutomatonDocument  *self,
                                                                 TwStateKind           kind,
                                                                 double                x,
                                                                 double                y);
void                 tw_automaton_document_set_name             (TwAutomatonDocument  *self,
                                                                 const char           *name);
void                 tw_automaton_document_move_state           (TwAutomatonDocument  *self,
                                                                 guint                 state,
                                                                 double                x,
                                                                 double                y);
void                 tw_automaton_document_set_state_kind       (TwAutomatonDocument  *self,
                                                                 guint                 state,
                                                                 TwStateKind           kind);
void                 tw_automaton_document_set_initial          (TwAutomatonDocument  *self,
                                                                 guint                 state);
void                 tw_automaton_document_remove_state         (TwAutomatonDocument  *self,
                                                                 guint                 state);
guint                tw_automaton_document_connect              (TwAutomatonDocument  *self,
                                                                 guint                 from,
                                                                 guint                 to,
                                                                 TwLabelKind           label,
                                                                 const char           *event,
                                                                 TwTaskMatch           task,
                                                                 TwTaskField           task_field);
void                 tw_automaton_document_set_transition_label (TwAutomatonDocument  *self,
                                                                 guint                 transition,
                                                                 TwLabelKind           label,
                                                                 const char           *event,
                                                                 TwTaskMatch           task,
                                                                 TwTaskField           task_field);
void                 tw_automaton_document_remove_transition    (TwAutomatonDocument  *self,
                                                                 guint                 transition);

void                 tw_automaton_document_begin_edit           (TwAutomatonDocument  *self);
gboolean             tw_automaton_document_end_edit             (TwAutomatonDocument  *self);

gboolean             tw_automaton_document_undo                 (TwAutomatonDocument  *self);
gboolean             tw_automaton_document_redo                 (TwAutomatonDocument  *self);
gboolean             tw_automaton_document_can_undo             (TwAutomatonDocument  *self);
gboolean             tw_automaton_document_can_redo             (TwAutomatonDocument  *self);

G_END_DECLS
