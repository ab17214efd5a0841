/* tw-automaton-edges.c: where a metric automaton's transitions are drawn: curves and labels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-automaton-edges.h"
#include "tw-automaton-style.h"

/*
 * A transition follows the route Graphviz drew for it (tw_automaton_layout_full()) as
 * long as its two states stay where that layout put them. Otherwise it is a cubic
 * Bézier computed from the states' positions, so that it follows a state as it is
 * dragged: straight when it is alone between its two states, bent apart when several
 * connect the same pair (either direction), a loop above (then right, below, left) for
 * a state's own transitions. Automata are small (tens of states), so the painter
 * recomputes this on every draw and hit test.
 */

#define BEND_STEP      44.0
#define LOOP_REACH     58.0
#define LOOP_CLEARANCE 0.75   /* rad between a loop and the nearest line of its state */
#define LABEL_PAD_X    5.0
#define LABEL_PAD_Y    2.0

/**
 * tw_automaton_format_label:
 *
 * Returns: (transfer full): the label as the designer shows it: `(E, i)`, `(E, ¬i)`, `E`,
 *   `λ` or `*`; "@arg" marks a label that compares the event's arg task; an event label
 *   without a name shows as `?`
 */
char *
tw_automaton_format_label (const TwAutomatonTransition *t)
{
  const char *event;
  const char *field;

  g_return_val_if_fail (t != NULL, NULL);

  if (t->label == TW_LABEL_LAMBDA)
    return g_strdup ("λ");
  if (t->label == TW_LABEL_ANY)
    return g_strdup ("*");
  event = t->event && t->event[0] ? t->event : "?";
  field = t->task_field == TW_TASK_FIELD_ARG ? "@arg" : "";
  switch (t->task)
    {
    case TW_TASK_MATCH_SAME:
      return g_strdup_printf ("(%s, i%s)", event, field);
    case TW_TASK_MATCH_OTHER:
      return g_strdup_printf ("(%s, ¬i%s)", event, field);
    case TW_TASK_MATCH_ANY:
    default:
      return g_strdup (event);
    }
}

/**
 * tw_automaton_edge_point:
 * @t: 0 at the start, 1 at the arrow's tip
 */
void
tw_automaton_edge_point (const TwAutomatonEdge *e,
                         double                 t,
                         double                *x,
                         double                *y)
{
  guint n_segments = (e->n_points - 1) / 3;
  guint segment = MIN ((guint) (CLAMP (t, 0, 1) * n_segments), n_segments - 1);
  const double (*p)[2] = (const double (*)[2]) e->p + 3 * segment;
  double u, a, b, c, d;

  t = t * n_segments - segment;
  u = 1 - t;
  a = u * u * u;
  b = 3 * u * u * t;
  c = 3 * u * t * t;
  d = t * t * t;
  *x = a * p[0][0] + b * p[1][0] + c * p[2][0] + d * p[3][0];
  *y = a * p[0][1] + b * p[1][1] + c * p[2][1] + d * p[3][1];
}

/**
 * tw_automaton_unit_vector:
 *
 * The direction of (@dx, @dy) as a vector of length 1; (1, 0) for a null vector.
 */
void
tw_automaton_unit_vector (double  dx,
                          double  dy,
                          double *ux,
                          double *uy)
{
  double len = hypot (dx, dy);

  if (len < 1e-9)
    {
      *ux = 1;
      *uy = 0;
      return;
    }
  *ux = dx / len;
  *uy = dy / len;
}

/**
 * tw_automaton_label_get_size:
 * @width: (out): the width of the label's box, model units
 * @height: (out): its height
 */
void
tw_automaton_label_get_size (PangoContext *measure,
                             const char   *label,
                             double       *width,
                             double       *height)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (measure);
  PangoFontDescription *desc = pango_font_description_from_string (TW_AUTOMATON_LABEL_FONT);
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_text (layout, label, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  *width = w + 2 * LABEL_PAD_X;
  *height = h + 2 * LABEL_PAD_Y;
}

static void
edge_clear (gpointer data)
{
  TwAutomatonEdge *e = data;

  g_free (e->label);
  g_free (e->p);
}

/* The direction of a state's loop number @rank: of eight directions (up first), the
 * ones farthest from the state's other transitions, so loops do not sit on lines. */
static double
loop_angle (TwAutomaton *a,
            const int   *from,
            const int   *to,
            guint        n,
            int          state,
            guint        rank)
{
  const TwAutomatonState *s = tw_automaton_get_state (a, state);
  double clearance[8];
  gboolean used[8] = { FALSE };
  int best = 0;

  for (guint d = 0; d < 8; d++)
    {
      double theta = -G_PI / 2 + d * G_PI / 4;
      clearance[d] = G_PI;
      for (guint j = 0; j < n; j++)
        {
          int other = from[j] == state ? to[j] : to[j] == state ? from[j] : -1;
          const TwAutomatonState *o;
          double diff;

          if (other < 0 || other == state)
            continue;
          o = tw_automaton_get_state (a, other);
          diff = fabs (remainder (atan2 (o->y - s->y, o->x - s->x) - theta, 2 * G_PI));
          clearance[d] = MIN (clearance[d], diff);
        }
    }
  /* up is where a reader looks for a loop first; below is the kind caption, left of
   * the initial state its marker */
  if (g_strcmp0 (tw_automaton_get_initial (a), s->id) == 0)
    clearance[6] = 0;
  for (guint k = 0; k <= rank; k++)
    {
      static const guint preference[8] = { 0, 2, 6, 1, 7, 3, 5, 4 };

      best = -1;
      for (guint p = 0; p < 8 && best < 0; p++)
        if (!used[preference[p]] && clearance[preference[p]] >= LOOP_CLEARANCE)
          best = preference[p];
      for (guint p = 0; p < 8 && best < 0; p++)
        if (!used[preference[p]])
          best = preference[p];
      for (guint p = 0; p < 8; p++)
        if (!used[preference[p]] && clearance[preference[p]] > clearance[best] + 0.01 &&
            clearance[best] < LOOP_CLEARANCE)
          best = preference[p];
      if (best < 0)
        return -G_PI / 2 + rank * G_PI / 4;
      used[best] = TRUE;
      /* neighbours of a taken direction would overlap the loop there */
      clearance[(best + 1) % 8] = MIN (clearance[(best + 1) % 8], 0.2);
      clearance[(best + 7) % 8] = MIN (clearance[(best + 7) % 8], 0.2);
    }
  return -G_PI / 2 + best * G_PI / 4;
}

static void
place_loop (TwAutomatonEdge        *e,
            const TwAutomatonState *s,
            double                  r,
            double                  theta,
            guint                   rank)
{
  double reach = r + LOOP_REACH + (rank / 8) * 24;
  double spread = 0.5, open = 0.78;
  double mx, my;

  e->p[0][0] = s->x + r * cos (theta - spread);
  e->p[0][1] = s->y + r * sin (theta - spread);
  e->p[1][0] = s->x + reach * cos (theta - open);
  e->p[1][1] = s->y + reach * sin (theta - open);
  e->p[2][0] = s->x + reach * cos (theta + open);
  e->p[2][1] = s->y + reach * sin (theta + open);
  e->p[3][0] = s->x + r * cos (theta + spread);
  e->p[3][1] = s->y + r * sin (theta + spread);
  tw_automaton_edge_point (e, 0.5, &mx, &my);
  e->lx = mx + cos (theta) * (e->lh / 2 + 2) + cos (theta) * fabs (cos (theta)) * e->lw / 2;
  e->ly = my + sin (theta) * (e->lh / 2 + 2);
}

/* A line from @sa to @sb bent by @offset along the normal of the pair's canonical
 * direction (@lo to @hi), so the curves of one pair spread apart. */
static void
place_line (TwAutomatonEdge        *e,
            const TwAutomatonState *sa,
            double                  ra,
            const TwAutomatonState *sb,
            double                  rb,
            const TwAutomatonState *lo,
            const TwAutomatonState *hi,
            double                  offset)
{
  double ux, uy, nx, ny, qx, qy, sx, sy, tx, ty;

  tw_automaton_unit_vector (hi->x - lo->x, hi->y - lo->y, &ux, &uy);
  nx = -uy;
  ny = ux;
  qx = (sa->x + sb->x) / 2 + nx * offset * 2;
  qy = (sa->y + sb->y) / 2 + ny * offset * 2;
  tw_automaton_unit_vector (qx - sa->x, qy - sa->y, &sx, &sy);
  tw_automaton_unit_vector (sb->x - qx, sb->y - qy, &tx, &ty);
  e->p[0][0] = sa->x + sx * ra;
  e->p[0][1] = sa->y + sy * ra;
  e->p[3][0] = sb->x - tx * rb;
  e->p[3][1] = sb->y - ty * rb;
  /* the quadratic through q as a cubic */
  e->p[1][0] = e->p[0][0] + 2.0 / 3.0 * (qx - e->p[0][0]);
  e->p[1][1] = e->p[0][1] + 2.0 / 3.0 * (qy - e->p[0][1]);
  e->p[2][0] = e->p[3][0] + 2.0 / 3.0 * (qx - e->p[3][0]);
  e->p[2][1] = e->p[3][1] + 2.0 / 3.0 * (qy - e->p[3][1]);
  tw_automaton_edge_point (e, 0.5, &e->lx, &e->ly);
}

/* @route, when it was made for the states' positions now. */
static gboolean
follow_route (TwAutomatonEdge             *e,
              const TwAutomatonRoute      *route,
              const TwAutomatonTransition *t,
              const TwAutomatonState      *from,
              const TwAutomatonState      *to)
{
  if (route == NULL || g_strcmp0 (route->from, t->from) != 0 || g_strcmp0 (route->to, t->to) != 0 ||
      route->from_x != from->x || route->from_y != from->y ||
      route->to_x != to->x || route->to_y != to->y)
    return FALSE;
  g_free (e->p);
  e->n_points = route->n_points;
  e->p = g_memdup2 (route->points, route->n_points * sizeof *route->points);
  e->lx = route->label_x;
  e->ly = route->label_y;
  return TRUE;
}

/**
 * tw_automaton_edges_compute:
 * @measure: the context that measures label and state-name text
 * @routes: (nullable) (element-type TwAutomatonRoute): what the last layout drew,
 *   indexed like the transitions
 *
 * Returns: (transfer full) (element-type TwAutomatonEdge): the transitions' curves and
 *   label boxes, in model units, indexed like the automaton's transitions
 */
GArray *
tw_automaton_edges_compute (TwAutomaton  *a,
                            PangoContext *measure,
                            GPtrArray    *routes)
{
  guint n = tw_automaton_get_n_transitions (a);
  GArray *edges = g_array_sized_new (FALSE, TRUE, sizeof (TwAutomatonEdge), n);
  g_autofree int *from = g_new (int, MAX (n, 1));
  g_autofree int *to = g_new (int, MAX (n, 1));

  g_array_set_clear_func (edges, edge_clear);
  g_array_set_size (edges, n);
  for (guint i = 0; i < n; i++)
    {
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      from[i] = tw_automaton_find_state (a, t->from);
      to[i] = tw_automaton_find_state (a, t->to);
    }

  for (guint i = 0; i < n; i++)
    {
      TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      const TwAutomatonState *sa, *sb;
      double ra, rb;
      guint group = 0, rank = 0;

      e->label = tw_automaton_format_label (t);
      tw_automaton_label_get_size (measure, e->label, &e->lw, &e->lh);
      if (from[i] < 0 || to[i] < 0)
        continue;
      e->valid = TRUE;
      sa = tw_automaton_get_state (a, from[i]);
      sb = tw_automaton_get_state (a, to[i]);
      if (routes && i < routes->len && follow_route (e, routes->pdata[i], t, sa, sb))
        continue;
      e->n_points = 4;
      e->p = g_malloc_n (4, sizeof *e->p);
      ra = tw_automaton_state_radius (measure, sa->id);
      rb = tw_automaton_state_radius (measure, sb->id);

      /* the transitions sharing this one's pair of states, and this one's rank among them */
      for (guint j = 0; j < n; j++)
        {
          gboolean same = from[i] == to[i]
                          ? from[j] == from[i] && to[j] == to[i]
                          : (from[j] == from[i] && to[j] == to[i]) ||
                            (from[j] == to[i] && to[j] == from[i]);
          if (!same)
            continue;
          if (j < i)
            rank++;
          group++;
        }

      if (from[i] == to[i])
        place_loop (e, sa, ra, loop_angle (a, from, to, n, from[i], rank), rank);
      else
        {
          gboolean canonical = from[i] < to[i];

          place_line (e, sa, ra, sb, rb, canonical ? sa : sb, canonical ? sb : sa,
                      group > 1 ? (rank - (group - 1) / 2.0) * BEND_STEP : 0);
        }
    }
  return edges;
}
