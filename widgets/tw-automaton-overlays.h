/* tw-automaton-overlays.h: the cards drawn over the automaton: legend, design problems, hint
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton-style.h"

G_BEGIN_DECLS

void tw_automaton_draw_legend       (cairo_t                 *cr,
                                     const TwAutomatonColors *colors,
                                     int                      width,
                                     int                      height);
void tw_automaton_draw_problem_list (cairo_t                 *cr,
                                     const TwAutomatonColors *colors,
                                     int                      width,
                                     int                      height,
                                     GPtrArray               *problems);
void tw_automaton_draw_empty_hint   (cairo_t                 *cr,
                                     const TwAutomatonColors *colors,
                                     int                      width,
                                     int                      height);

G_END_DECLS
