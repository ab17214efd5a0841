/* tw-automaton-interp-private.h: how an evaluation feeds the interpreter as an update
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton-interp.h"
#include "tw-event-costs.h"

G_BEGIN_DECLS

gboolean _tw_automaton_interp_feed_rows    (TwAutomatonInterp   *self,
                                            const TwEventChunk  *chunk,
                                            guint                first,
                                            guint                n,
                                            GError             **error);
void     _tw_automaton_interp_skip         (TwAutomatonInterp   *self);
void     _tw_automaton_interp_set_position (TwAutomatonInterp   *self,
                                            guint64              position);
void     _tw_automaton_interp_set_event_costs (TwAutomatonInterp *self,
                                            TwEventCosts        *costs);

G_END_DECLS
