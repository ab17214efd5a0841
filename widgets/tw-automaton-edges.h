/* tw-automaton-edges.h: where a metric automaton's transitions are drawn: curves and labels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pango.h>
#include <tw-automaton.h>

#include "tw-automaton-layout.h"

G_BEGIN_DECLS

/* Font of transition labels. */
#define TW_AUTOMATON_LABEL_FONT "DejaVu Sans 8.5"

/**
 * TwAutomatonEdge:
 * @valid: both ends name states (otherwise nothing is drawn)
 * @n_points: 3 × k + 1 for a curve of k cubic Bézier segments
 * @p: (array length=n_points): the start, then two control points and the end of each
 *   segment; the last end is the arrow's tip. Model units.
 * @lx: x of the label's centre
 * @ly: y of the label's centre
 * @lw: width of the label's box
 * @lh: height of the label's box
 * @label: the label's text (tw_automaton_format_label())
 *
 * One transition's geometry, in model units.
 */
typedef struct {
  gboolean valid;
  guint    n_points;
  double (*p)[2];
  double   lx, ly;
  double   lw, lh;
  char    *label;
} TwAutomatonEdge;

GArray *tw_automaton_edges_compute     (TwAutomaton                 *automaton,
                                        PangoContext                *measure,
                                        GPtrArray                   *routes);
void    tw_automaton_edge_point        (const TwAutomatonEdge       *edge,
                                        double                       t,
                                        double                      *x,
                                        double                      *y);
void    tw_automaton_label_get_size    (PangoContext                *measure,
                                        const char                  *label,
                                        double                      *width,
                                        double                      *height);
char   *tw_automaton_format_label      (const TwAutomatonTransition *transition);
void    tw_automaton_unit_vector       (double                       dx,
                                        double                       dy,
                                        double                      *ux,
                                        double                      *uy);

G_END_DECLS
