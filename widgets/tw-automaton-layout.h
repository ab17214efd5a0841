/* tw-automaton-layout.h: places a metric automaton's states with Graphviz's dot
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-automaton.h>

G_BEGIN_DECLS

/**
 * TwAutomatonRoute:
 * @from: id of the transition's source state
 * @to: id of its target state
 * @from_x: x of the source state when the route was made
 * @from_y: its y
 * @to_x: x of the target state when the route was made
 * @to_y: its y
 * @n_points: 3 × k + 1 for a curve of k cubic Bézier segments
 * @points: (array length=n_points): start, then two control points and the end of each
 *   segment, from the source state's outline to the target's
 * @label_x: x of the label's centre
 * @label_y: its y
 *
 * The line a layout drew for one transition, in model units. It holds while the two
 * states stay where the layout put them.
 */
typedef struct {
  char     *from;
  char     *to;
  double    from_x;
  double    from_y;
  double    to_x;
  double    to_y;
  guint     n_points;
  double  (*points)[2];
  double    label_x;
  double    label_y;
} TwAutomatonRoute;

void       tw_automaton_route_free     (TwAutomatonRoute *route);

gboolean   tw_automaton_layout_needed  (TwAutomaton      *automaton);
void       tw_automaton_layout         (TwAutomaton      *automaton);
GPtrArray *tw_automaton_layout_full    (TwAutomaton      *automaton);

G_END_DECLS
