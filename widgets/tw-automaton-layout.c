/* tw-automaton-layout.c: places a metric automaton's states with Graphviz's dot
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "tw-automaton-layout.h"
#include "tw-automaton-edges.h"
#include "tw-automaton-style.h"

/* after GLib: Graphviz's headers define MIN, MAX, TRUE and FALSE their own way */
#include <gvc.h>

/*
 * dot (Gansner et al., "A Technique for Drawing Directed Graphs") ranks the states left
 * to right from the initial one, orders each rank to cross few transitions, spaces the
 * ranks so the transitions' labels fit between them and routes each transition around
 * the states. We take the states' positions and, as routes, the transitions' curves and
 * label positions; the painter draws a route while its two states stay where dot put
 * them, and its own curve from the states' positions once one is moved.
 *
 * One model unit is one Graphviz point. dot sizes every node and label from what we
 * tell it: nodes are fixed-size circles as large as a state, and each label is an HTML
 * table of the size the painter draws it. That keeps Graphviz from measuring text
 * itself, which it does with its own Pango plugin (in Graphviz 2.43 that path reads
 * freed memory, as AddressSanitizer shows).
 *
 * Graphviz keeps global state (attribute defaults, its error handler, the plugins it
 * loaded): one context serves the process, and a lock keeps layouts one at a time.
 */

#define LAYOUT_MARGIN   110.0   /* model units left and above the drawing */
#define NODE_SEP        0.7     /* inches between states of one rank: room for the kind
                                   caption and a problem badge under a state */
#define RANK_SEP        0.3     /* inches between ranks, besides the labels */

static GMutex graphviz_lock;

static int
graphviz_error_cb (char *message)
{
  g_debug ("Graphviz: %s", g_strchomp (message));
  return 0;
}

/* The process's one Graphviz context; call with graphviz_lock held. */
static GVC_t *
graphviz_context (void)
{
  static GVC_t *context;

  if (context == NULL)
    {
      agseterrf (graphviz_error_cb);
      context = gvContext ();
    }
  return context;
}

/**
 * tw_automaton_layout_needed:
 *
 * Returns: %TRUE when the states carry no usable positions: two or more states, all at
 *   one point (a file written without "x" and "y" loads them all at 0, 0)
 */
gboolean
tw_automaton_layout_needed (TwAutomaton *automaton)
{
  guint n;
  const TwAutomatonState *first;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), FALSE);

  n = tw_automaton_get_n_states (automaton);
  if (n < 2)
    return FALSE;
  first = tw_automaton_get_state (automaton, 0);
  for (guint i = 1; i < n; i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (automaton, i);
      if (s->x != first->x || s->y != first->y)
        return FALSE;
    }
  return TRUE;
}

/* Graphviz 2.43 takes char * for the strings it only reads. */
static void
set_attribute (void       *object,
               const char *name,
               const char *value)
{
  agsafeset (object, (char *) name, (char *) value, (char *) "");
}

static void
set_default (Agraph_t   *g,
             int         kind,
             const char *name,
             const char *value)
{
  agattr (g, kind, (char *) name, (char *) value);
}

static void
set_inches (void       *object,
            const char *name,
            double      points)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (text, sizeof text, "%.3f", points / POINTS_PER_INCH);
  set_attribute (object, name, text);
}

static Agnode_t *
add_state_node (Agraph_t     *g,
                TwAutomaton  *a,
                guint         index,
                PangoContext *measure)
{
  const TwAutomatonState *s = tw_automaton_get_state (a, index);
  g_autofree char *name = g_strdup_printf ("s%u", index);
  Agnode_t *node = agnode (g, name, TRUE);

  set_inches (node, "width", 2 * tw_automaton_state_radius (measure, s->id));
  return node;
}

/* A label dot reserves room for without measuring text: an empty HTML table of the
 * label's drawn size. */
static void
set_label_size (Agraph_t                    *g,
                Agedge_t                    *edge,
                const TwAutomatonTransition *t,
                PangoContext                *measure)
{
  g_autofree char *text = tw_automaton_format_label (t);
  g_autofree char *html = NULL;
  char *label;
  double w, h;

  tw_automaton_label_get_size (measure, text, &w, &h);
  html = g_strdup_printf ("<TABLE FIXEDSIZE=\"TRUE\" WIDTH=\"%d\" HEIGHT=\"%d\" BORDER=\"0\" "
                          "CELLBORDER=\"0\" CELLPADDING=\"0\" CELLSPACING=\"0\">"
                          "<TR><TD></TD></TR></TABLE>",
                          (int) ceil (w), (int) ceil (h));
  label = agstrdup_html (g, html);
  set_attribute (edge, "label", label);
  agstrfree (g, label);
}

static gboolean
has_transition (TwAutomaton *a,
                const char  *id)
{
  for (guint i = 0; i < tw_automaton_get_n_transitions (a); i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      if (g_strcmp0 (t->from, id) == 0 || g_strcmp0 (t->to, id) == 0)
        return TRUE;
    }
  return FALSE;
}

/* The automaton as a dot graph: node i is state i, created initial state first so
 * that dot's cycle breaking starts there. */
static Agraph_t *
build_graph (TwAutomaton   *a,
             PangoContext  *measure,
             Agnode_t     **nodes)
{
  Agraph_t *g = agopen ((char *) "automaton", Agdirected, NULL);
  guint n = tw_automaton_get_n_states (a);
  const char *initial_id = tw_automaton_get_initial (a);
  int initial = initial_id ? tw_automaton_find_state (a, initial_id) : -1;
  Agraph_t *first, *last;

  set_default (g, AGRAPH, "rankdir", "LR");
  set_inches (g, "nodesep", NODE_SEP * POINTS_PER_INCH);
  set_inches (g, "ranksep", RANK_SEP * POINTS_PER_INCH);
  set_default (g, AGNODE, "shape", "circle");
  set_default (g, AGNODE, "fixedsize", "true");
  set_default (g, AGNODE, "label", "");
  /* the painter draws the arrowheads: routes run from outline to outline */
  set_default (g, AGEDGE, "dir", "none");
  first = agsubg (g, (char *) "first", TRUE);
  set_attribute (first, "rank", "min");
  last = agsubg (g, (char *) "last", TRUE);
  set_attribute (last, "rank", "sink");
  if (initial >= 0)
    {
      nodes[initial] = add_state_node (g, a, initial, measure);
      agsubnode (first, nodes[initial], TRUE);
    }
  for (guint i = 0; i < n; i++)
    {
      if ((int) i == initial)
        continue;
      nodes[i] = add_state_node (g, a, i, measure);
      /* states no transition touches get a rank of their own after the others, as
       * they are unreachable (dot would put them anywhere, even over the labels it
       * keeps room for between the ranks) */
      if (!has_transition (a, tw_automaton_get_state (a, i)->id))
        agsubnode (last, nodes[i], TRUE);
    }

  for (guint i = 0; i < tw_automaton_get_n_transitions (a); i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      int from = tw_automaton_find_state (a, t->from), to = tw_automaton_find_state (a, t->to);
      g_autofree char *name = g_strdup_printf ("t%u", i);

      if (from >= 0 && to >= 0)
        set_label_size (g, agedge (g, nodes[from], nodes[to], name, TRUE), t, measure);
    }
  return g;
}

void
tw_automaton_route_free (TwAutomatonRoute *route)
{
  if (route == NULL)
    return;
  g_free (route->from);
  g_free (route->to);
  g_free (route->points);
  g_free (route);
}

/* dot's coordinates have y up and start anywhere: model units have y down, with the
 * drawing's top left at (LAYOUT_MARGIN, LAYOUT_MARGIN). */
static void
to_model (Agraph_t *g,
          pointf    p,
          double   *x,
          double   *y)
{
  *x = LAYOUT_MARGIN + p.x - GD_bb (g).LL.x;
  *y = LAYOUT_MARGIN + GD_bb (g).UR.y - p.y;
}

static TwAutomatonRoute *
make_route (Agraph_t                    *g,
            Agedge_t                    *edge,
            const TwAutomatonTransition *t,
            const TwAutomatonState      *from,
            const TwAutomatonState      *to)
{
  TwAutomatonRoute *route;
  const bezier *bz;

  /* several pieces only come with options we do not set (concentrate, compounds) */
  if (ED_spl (edge) == NULL || ED_spl (edge)->size != 1 || ED_spl (edge)->list[0].size < 4)
    return NULL;
  bz = &ED_spl (edge)->list[0];
  route = g_new0 (TwAutomatonRoute, 1);
  route->from = g_strdup (t->from);
  route->to = g_strdup (t->to);
  route->from_x = from->x;
  route->from_y = from->y;
  route->to_x = to->x;
  route->to_y = to->y;
  route->n_points = bz->size;
  route->points = g_malloc_n (bz->size, sizeof *route->points);
  for (int k = 0; k < bz->size; k++)
    to_model (g, bz->list[k], &route->points[k][0], &route->points[k][1]);
  if (ED_label (edge) && ED_label (edge)->set)
    to_model (g, ED_label (edge)->pos, &route->label_x, &route->label_y);
  else
    to_model (g, bz->list[bz->size / 2], &route->label_x, &route->label_y);
  return route;
}

/* The routes of what dot laid out, indexed like the transitions; NULL for one it did
 * not draw. Call after the states have their new positions. */
static GPtrArray *
collect_routes (Agraph_t    *g,
                TwAutomaton *a,
                Agnode_t   **nodes)
{
  guint n = tw_automaton_get_n_transitions (a);
  GPtrArray *routes = g_ptr_array_new_full (n, (GDestroyNotify) tw_automaton_route_free);

  for (guint i = 0; i < n; i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      int from = tw_automaton_find_state (a, t->from), to = tw_automaton_find_state (a, t->to);
      g_autofree char *name = g_strdup_printf ("t%u", i);
      Agedge_t *edge = from >= 0 && to >= 0 ? agedge (g, nodes[from], nodes[to], name, FALSE) : NULL;

      g_ptr_array_add (routes, edge ? make_route (g, edge, t, tw_automaton_get_state (a, from),
                                                  tw_automaton_get_state (a, to))
                                    : NULL);
    }
  return routes;
}

/**
 * tw_automaton_layout:
 *
 * Places the states as tw_automaton_layout_full() does.
 */
void
tw_automaton_layout (TwAutomaton *automaton)
{
  g_autoptr(GPtrArray) routes = tw_automaton_layout_full (automaton);
}

/**
 * tw_automaton_layout_full:
 *
 * Places the states with Graphviz's dot, left to right in ranks from the initial state
 * (the first rank), with room for the transitions' labels between the ranks. Positions
 * are whole model units, the drawing's top left at (110, 110).
 *
 * Returns: (transfer full) (element-type TwAutomatonRoute): the transitions' routes,
 *   indexed like the transitions (an element is %NULL for a transition whose states do
 *   not exist); empty when there is no state
 */
GPtrArray *
tw_automaton_layout_full (TwAutomaton *automaton)
{
  g_autofree Agnode_t **nodes = NULL;
  g_autoptr(GMutexLocker) locker = NULL;
  PangoContext *measure;
  GPtrArray *routes;
  GVC_t *gvc;
  Agraph_t *g;
  guint n;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);

  n = tw_automaton_get_n_states (automaton);
  if (n == 0)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) tw_automaton_route_free);
  nodes = g_new0 (Agnode_t *, n);
  measure = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  locker = g_mutex_locker_new (&graphviz_lock);
  gvc = graphviz_context ();
  g = build_graph (automaton, measure, nodes);
  g_object_unref (measure);
  if (gvLayout (gvc, g, (char *) "dot") != 0)
    {
      g_warning ("Graphviz could not lay out %s (is its dot plugin installed?)",
                 tw_automaton_get_name (automaton));
      agclose (g);
      return g_ptr_array_new_with_free_func ((GDestroyNotify) tw_automaton_route_free);
    }
  for (guint i = 0; i < n; i++)
    {
      double x, y;

      to_model (g, ND_coord (nodes[i]), &x, &y);
      tw_automaton_set_state_position (automaton, i, round (x), round (y));
    }
  routes = collect_routes (g, automaton, nodes);
  gvFreeLayout (gvc, g);
  agclose (g);
  return routes;
}
