/* tw-automaton-history.h: undo and redo for edits of a metric automaton
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton.h"

G_BEGIN_DECLS

#define TW_TYPE_AUTOMATON_HISTORY (tw_automaton_history_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonHistory, tw_automaton_history, TW, AUTOMATON_HISTORY, GObject)

TwAutomatonHistory *tw_automaton_history_new      (void);

void                tw_automaton_history_begin    (TwAutomatonHistory *self,
                                                   TwAutomaton        *automaton);
gboolean            tw_automaton_history_commit   (TwAutomatonHistory *self,
                                                   TwAutomaton        *automaton);
gboolean            tw_automaton_history_undo     (TwAutomatonHistory *self,
                                                   TwAutomaton        *automaton);
gboolean            tw_automaton_history_redo     (TwAutomatonHistory *self,
                                                   TwAutomaton        *automaton);
gboolean            tw_automaton_history_can_undo (TwAutomatonHistory *self);
gboolean            tw_automaton_history_can_redo (TwAutomatonHistory *self);
void                tw_automaton_history_clear    (TwAutomatonHistory *self);

G_END_DECLS
