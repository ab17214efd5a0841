/* tw-automaton-painter.c: draws a metric automaton on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "tw-automaton-painter.h"
#include "tw-automaton-edges.h"
#include "tw-automaton-overlays.h"
#include "tw-automaton-style.h"

/*
 * One painter serves the designer widget, screenshots and the pixel tests, so what users
 * see is what the tests check. Automata are small (tens of states), so every draw and hit
 * test recomputes the geometry (tw_automaton_edges_compute()) and re-runs validation: the
 * picture can never be stale after an edit, and there is no cache to invalidate.
 *
 * Geometry lives in model units (the x, y saved in the file); the viewport maps them to
 * px.
 */

#define INITIAL_ARROW 40.0
#define EDGE_SLOP_PX  5.0
#define SMALL_FONT    "DejaVu Sans 7.5"

struct _TwAutomatonPainter
{
  GObject       parent_instance;

  TwAutomaton  *automaton;
  GPtrArray    *routes;        /* TwAutomatonRoute from the last layout, or NULL */
  GPtrArray    *problems;      /* TwAutomatonProblem, from the last draw */
  PangoContext *measure;       /* for label sizes outside a draw */
};

G_DEFINE_FINAL_TYPE (TwAutomatonPainter, tw_automaton_painter, G_TYPE_OBJECT)

static TwStateKind
clamp_kind (TwStateKind kind)
{
  return (guint) kind < TW_N_STATE_KINDS ? kind : TW_STATE_KIND_OUT;
}

void
tw_automaton_viewport_init (TwAutomatonViewport *vp,
                            int                  width,
                            int                  height)
{
  memset (vp, 0, sizeof *vp);
  vp->width = width;
  vp->height = height;
  vp->zoom = 1;
  vp->selected_state = -1;
  vp->selected_transition = -1;
  vp->active_state = -1;
  vp->pending_from = -1;
  vp->show_legend = TRUE;
  vp->show_problems = TRUE;
}

void
tw_automaton_viewport_to_screen (const TwAutomatonViewport *vp,
                                 double                     mx,
                                 double                     my,
                                 double                    *sx,
                                 double                    *sy)
{
  *sx = mx * vp->zoom + vp->pan_x;
  *sy = my * vp->zoom + vp->pan_y;
}

void
tw_automaton_viewport_to_model (const TwAutomatonViewport *vp,
                                double                     sx,
                                double                     sy,
                                double                    *mx,
                                double                    *my)
{
  double zoom = vp->zoom > 0 ? vp->zoom : 1;

  *mx = (sx - vp->pan_x) / zoom;
  *my = (sy - vp->pan_y) / zoom;
}

static void
tw_automaton_painter_finalize (GObject *object)
{
  TwAutomatonPainter *self = TW_AUTOMATON_PAINTER (object);

  g_clear_object (&self->automaton);
  g_clear_pointer (&self->routes, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_object (&self->measure);
  G_OBJECT_CLASS (tw_automaton_painter_parent_class)->finalize (object);
}

static void
tw_automaton_painter_class_init (TwAutomatonPainterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_automaton_painter_finalize;
}

static void
tw_automaton_painter_init (TwAutomatonPainter *self)
{
  PangoFontMap *map = pango_cairo_font_map_get_default ();

  self->measure = pango_font_map_create_context (map);
}

/**
 * tw_automaton_painter_new:
 * @automaton: (transfer none): the automaton to draw
 */
TwAutomatonPainter *
tw_automaton_painter_new (TwAutomaton *automaton)
{
  TwAutomatonPainter *self;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);

  self = g_object_new (TW_TYPE_AUTOMATON_PAINTER, NULL);
  self->automaton = g_object_ref (automaton);
  return self;
}

/**
 * tw_automaton_painter_get_automaton:
 *
 * Returns: (transfer none): the automaton drawn
 */
TwAutomaton *
tw_automaton_painter_get_automaton (TwAutomatonPainter *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_PAINTER (self), NULL);

  return self->automaton;
}

void
tw_automaton_painter_set_automaton (TwAutomatonPainter *self,
                                    TwAutomaton        *automaton)
{
  g_return_if_fail (TW_IS_AUTOMATON_PAINTER (self));
  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  g_set_object (&self->automaton, automaton);
  g_clear_pointer (&self->routes, g_ptr_array_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
}

/**
 * tw_automaton_painter_set_routes:
 * @routes: (nullable) (element-type TwAutomatonRoute): the routes of the automaton's
 *   last layout (tw_automaton_layout_full()), or %NULL for none
 *
 * Draws each transition along its route while its states stay where the layout put
 * them. Setting another automaton drops the routes.
 */
void
tw_automaton_painter_set_routes (TwAutomatonPainter *self,
                                 GPtrArray          *routes)
{
  g_return_if_fail (TW_IS_AUTOMATON_PAINTER (self));

  if (routes)
    g_ptr_array_ref (routes);
  g_clear_pointer (&self->routes, g_ptr_array_unref);
  self->routes = routes;
}

/**
 * tw_automaton_painter_get_problems:
 *
 * Validates the automaton as it is now.
 *
 * Returns: (transfer none) (element-type TwAutomatonProblem): its design problems,
 *   valid until the next call or draw
 */
GPtrArray *
tw_automaton_painter_get_problems (TwAutomatonPainter *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_PAINTER (self), NULL);

  g_clear_pointer (&self->problems, g_ptr_array_unref);
  self->problems = tw_automaton_validate (self->automaton);
  return self->problems;
}

/* A state's radius in model units: TW_AUTOMATON_STATE_RADIUS, or larger for a name
 * that needs it. */
static double
state_radius (TwAutomatonPainter     *self,
              const TwAutomatonState *s)
{
  return tw_automaton_state_radius (self->measure, s->id);
}

/* ---- drawing ---- */

static const char *
short_problem (TwAutomatonErrorCode code)
{
  switch (code)
    {
    case TW_AUTOMATON_ERROR_EMPTY_STATE_ID:          return "empty id";
    case TW_AUTOMATON_ERROR_DUPLICATE_STATE:         return "duplicate id";
    case TW_AUTOMATON_ERROR_UNKNOWN_STATE:           return "unknown state";
    case TW_AUTOMATON_ERROR_EMPTY_EVENT:             return "label without event";
    case TW_AUTOMATON_ERROR_INITIAL_NOT_OUT:         return "initial must be out";
    case TW_AUTOMATON_ERROR_OVERLAPPING_LABELS:      return "labels overlap";
    case TW_AUTOMATON_ERROR_LAMBDA_WITH_OTHER_EXITS: return "λ with other exits";
    case TW_AUTOMATON_ERROR_LAMBDA_CYCLE:            return "λ cycle";
    case TW_AUTOMATON_ERROR_LAMBDA_FROM_INITIAL:     return "λ from initial";
    case TW_AUTOMATON_ERROR_UNREACHABLE:             return "unreachable";
    case TW_AUTOMATON_ERROR_NO_STATES:
    case TW_AUTOMATON_ERROR_NO_INITIAL:
    case TW_AUTOMATON_ERROR_UNKNOWN_INITIAL:
    case TW_AUTOMATON_ERROR_INVALID:
    case TW_AUTOMATON_ERROR_BIND:
    default:                                         return "problem";
    }
}

static void
draw_grid (cairo_t                   *cr,
           const TwAutomatonColors   *c,
           const TwAutomatonViewport *vp)
{
  double step = 24 * vp->zoom;
  double x0, y0;

  while (step < 12)
    step *= 2;
  x0 = fmod (vp->pan_x, step);
  y0 = fmod (vp->pan_y, step);
  if (x0 < 0)
    x0 += step;
  if (y0 < 0)
    y0 += step;
  tw_automaton_set_rgb (cr, c->grid);
  for (double y = y0; y < vp->height; y += step)
    for (double x = x0; x < vp->width; x += step)
      cairo_rectangle (cr, floor (x), floor (y), 1.5, 1.5);
  cairo_fill (cr);
}

static void
draw_edge (cairo_t                 *cr,
           const TwAutomatonColors *c,
           const TwAutomatonEdge   *e,
           gboolean                 selected)
{
  const double *tip = e->p[e->n_points - 1], *control = e->p[e->n_points - 2];
  double ux, uy;

  tw_automaton_set_rgb (cr, selected ? c->accent : c->edge);
  cairo_set_line_width (cr, selected ? 2.6 : 1.6);
  cairo_move_to (cr, e->p[0][0], e->p[0][1]);
  for (guint k = 1; k + 2 < e->n_points; k += 3)
    {
      /* stop the line under the arrowhead so its end does not poke out of the tip */
      double end_x = e->p[k + 2][0], end_y = e->p[k + 2][1];

      if (k + 3 == e->n_points)
        {
          tw_automaton_unit_vector (tip[0] - control[0], tip[1] - control[1], &ux, &uy);
          end_x -= ux * TW_AUTOMATON_ARROW_LENGTH * 0.8;
          end_y -= uy * TW_AUTOMATON_ARROW_LENGTH * 0.8;
        }
      cairo_curve_to (cr, e->p[k][0], e->p[k][1], e->p[k + 1][0], e->p[k + 1][1], end_x, end_y);
    }
  cairo_stroke (cr);
  tw_automaton_unit_vector (tip[0] - control[0], tip[1] - control[1], &ux, &uy);
  tw_automaton_draw_arrow_head (cr, tip[0], tip[1], ux, uy, selected ? 1.15 : 1.0);
}

static void
draw_edge_label (cairo_t                 *cr,
                 const TwAutomatonColors *c,
                 const TwAutomatonEdge              *e,
                 gboolean                 selected,
                 gboolean                 broken)
{
  double x = e->lx - e->lw / 2, y = e->ly - e->lh / 2;

  tw_automaton_rounded_rect (cr, x, y, e->lw, e->lh, e->lh / 2);
  tw_automaton_set_rgb (cr, c->card);
  cairo_fill_preserve (cr);
  tw_automaton_set_rgb (cr, broken ? c->error : selected ? c->accent : c->border);
  cairo_set_line_width (cr, selected || broken ? 1.6 : 1.0);
  cairo_stroke (cr);
  tw_automaton_set_rgb (cr, broken ? c->error : c->ink);
  tw_automaton_draw_text (cr, TW_AUTOMATON_LABEL_FONT, e->label, e->lx, e->ly, 0.5, 0.5);
}

static gboolean
state_problem (GPtrArray                 *problems,
               const char                *id,
               const TwAutomatonProblem **first)
{
  for (guint i = 0; problems && i < problems->len; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);
      if (p->state_id && g_strcmp0 (p->state_id, id) == 0)
        {
          *first = p;
          return TRUE;
        }
    }
  return FALSE;
}

static void
draw_state (cairo_t                   *cr,
            const TwAutomatonColors   *c,
            const TwAutomatonState    *s,
            int                        index,
            const TwAutomatonViewport *vp,
            const TwAutomatonProblem  *problem,
            double                     r)
{
  TwStateKind kind = clamp_kind (s->kind);
  double halo = r + 5;

  cairo_new_path (cr);

  if (index == vp->active_state)
    {
      cairo_arc (cr, s->x, s->y, r + 7, 0, 2 * G_PI);
      tw_automaton_set_rgba (cr, c->active, 0.45);
      cairo_fill (cr);
      cairo_arc (cr, s->x, s->y, r + 4, 0, 2 * G_PI);
      tw_automaton_set_rgb (cr, c->active);
      cairo_set_line_width (cr, 3.5);
      cairo_stroke (cr);
    }
  if (problem)
    {
      cairo_arc (cr, s->x, s->y, halo, 0, 2 * G_PI);
      tw_automaton_set_rgb (cr, c->error);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
      halo += 5;
    }
  if (index == vp->selected_state)
    {
      cairo_arc (cr, s->x, s->y, halo, 0, 2 * G_PI);
      tw_automaton_set_rgba (cr, c->accent, 0.9);
      cairo_set_line_width (cr, 2.5);
      cairo_stroke (cr);
    }

  tw_automaton_painter_draw_state_icon (cr, kind, s->x, s->y, r);

  tw_automaton_draw_state_name (cr, kind, s->id, s->x, s->y, r);

  /* the caption gets a halo of background so lines passing under it stay readable */
  {
    g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
    PangoFontDescription *desc = pango_font_description_from_string (SMALL_FONT);
    int w, h;

    pango_layout_set_font_description (layout, desc);
    pango_font_description_free (desc);
    pango_layout_set_text (layout, tw_state_kind_to_string (kind), -1);
    pango_layout_get_pixel_size (layout, &w, &h);
    cairo_move_to (cr, s->x - w / 2.0, s->y + r + (problem ? 9 : 3));
    pango_cairo_layout_path (cr, layout);
    tw_automaton_set_rgb (cr, c->bg);
    cairo_set_line_width (cr, 3);
    cairo_stroke_preserve (cr);
    tw_automaton_set_rgb (cr, c->muted);
    cairo_fill (cr);
  }

  if (problem)
    {
      const char *text = short_problem (problem->code);
      double w, h, y = s->y + r + 22;
      g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
      PangoFontDescription *desc = pango_font_description_from_string (SMALL_FONT);
      int pw, ph;

      pango_layout_set_font_description (layout, desc);
      pango_font_description_free (desc);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &pw, &ph);
      w = pw + 10;
      h = ph + 2;
      tw_automaton_rounded_rect (cr, s->x - w / 2, y, w, h, h / 2);
      tw_automaton_set_rgb (cr, c->error);
      cairo_fill (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_move_to (cr, s->x - pw / 2.0, y + 1);
      pango_cairo_show_layout (cr, layout);
      cairo_new_path (cr);
    }

  if (vp->visits && (guint) index < vp->n_visits)
    {
      g_autofree char *count = g_strdup_printf ("%u", vp->visits[index]);
      double bx = s->x + r * 0.78, by = s->y - r * 0.78;
      double w = MAX (18, 8 + 7 * strlen (count));

      tw_automaton_rounded_rect (cr, bx - w / 2, by - 9, w, 18, 9);
      tw_automaton_set_rgb (cr, vp->visits[index] ? c->accent : c->muted);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      tw_automaton_draw_text (cr, SMALL_FONT, count, bx, by, 0.5, 0.5);
    }
}

static void
draw_initial_marker (cairo_t                 *cr,
                     const TwAutomatonColors *c,
                     const TwAutomatonState  *s,
                     double                   r)
{
  double x0 = s->x - r - INITIAL_ARROW, x1 = s->x - r;

  tw_automaton_set_rgb (cr, c->ink);
  cairo_arc (cr, x0, s->y, 3.5, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_set_line_width (cr, 2.2);
  cairo_move_to (cr, x0, s->y);
  cairo_line_to (cr, x1 - TW_AUTOMATON_ARROW_LENGTH * 0.8, s->y);
  cairo_stroke (cr);
  tw_automaton_draw_arrow_head (cr, x1, s->y, 1, 0, 1.1);
}

/* The transition being dragged out of a state, to the pointer. */
static void
draw_pending (TwAutomatonPainter        *self,
              cairo_t                   *cr,
              const TwAutomatonColors   *c,
              const TwAutomatonViewport *vp)
{
  TwAutomaton *a = self->automaton;
  const TwAutomatonState *s = tw_automaton_get_state (a, vp->pending_from);
  double mx, my, ux, uy;
  double dash[2] = { 5, 4 };

  tw_automaton_viewport_to_model (vp, vp->pending_x, vp->pending_y, &mx, &my);
  /* over a state, ring it and point at its rim: releasing there connects */
  for (guint i = tw_automaton_get_n_states (a); i-- > 0;)
    {
      const TwAutomatonState *target = tw_automaton_get_state (a, i);
      double rt = state_radius (self, target);
      double tx, ty;

      if ((int) i == vp->pending_from || hypot (mx - target->x, my - target->y) > rt + 3)
        continue;
      cairo_new_path (cr);
      cairo_arc (cr, target->x, target->y, rt + 5, 0, 2 * G_PI);
      tw_automaton_set_rgb (cr, c->accent);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
      tw_automaton_unit_vector (target->x - s->x, target->y - s->y, &tx, &ty);
      mx = target->x - tx * rt;
      my = target->y - ty * rt;
      break;
    }
  tw_automaton_unit_vector (mx - s->x, my - s->y, &ux, &uy);
  tw_automaton_set_rgb (cr, c->accent);
  cairo_set_line_width (cr, 2);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, s->x + ux * state_radius (self, s), s->y + uy * state_radius (self, s));
  cairo_line_to (cr, mx - ux * TW_AUTOMATON_ARROW_LENGTH * 0.8, my - uy * TW_AUTOMATON_ARROW_LENGTH * 0.8);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
  tw_automaton_draw_arrow_head (cr, mx, my, ux, uy, 1);
}

/**
 * tw_automaton_painter_draw:
 *
 * Draws the automaton with its validation problems (re-validated now) into the
 * viewport's width × height px of @cr.
 */
void
tw_automaton_painter_draw (TwAutomatonPainter        *self,
                           cairo_t                   *cr,
                           const TwAutomatonViewport *vp)
{
  TwAutomaton *a;
  g_autoptr(GArray) edges = NULL;
  GPtrArray *problems;
  guint n_states;
  int initial;
  TwAutomatonColors colors;
  const TwAutomatonColors *c = &colors;

  g_return_if_fail (TW_IS_AUTOMATON_PAINTER (self));
  g_return_if_fail (vp->zoom > 0);

  tw_automaton_colors_init (&colors, vp->palette);

  a = self->automaton;
  problems = tw_automaton_painter_get_problems (self);
  edges = tw_automaton_edges_compute (self->automaton, self->measure, self->routes);
  n_states = tw_automaton_get_n_states (a);
  initial = tw_automaton_get_initial (a) ? tw_automaton_find_state (a, tw_automaton_get_initial (a)) : -1;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, vp->width, vp->height);
  cairo_clip (cr);
  tw_automaton_set_rgb (cr, c->bg);
  cairo_paint (cr);
  draw_grid (cr, c, vp);

  cairo_save (cr);
  cairo_translate (cr, vp->pan_x, vp->pan_y);
  cairo_scale (cr, vp->zoom, vp->zoom);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i < edges->len; i++)
    {
      const TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      if (e->valid)
        draw_edge (cr, c, e, (int) i == vp->selected_transition);
    }
  if (initial >= 0)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, initial);

      draw_initial_marker (cr, c, s, state_radius (self, s));
    }
  for (guint i = 0; i < n_states; i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, i);
      const TwAutomatonProblem *problem = NULL;

      if (vp->show_problems)
        state_problem (problems, s->id, &problem);
      draw_state (cr, c, s, i, vp, problem, state_radius (self, s));
    }
  for (guint i = 0; i < edges->len; i++)
    {
      const TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      gboolean broken = vp->show_problems && t->label == TW_LABEL_EVENT &&
                        (t->event == NULL || t->event[0] == '\0');
      if (e->valid)
        draw_edge_label (cr, c, e, (int) i == vp->selected_transition, broken);
    }

  if (vp->pending_from >= 0 && (guint) vp->pending_from < n_states)
    draw_pending (self, cr, c, vp);
  cairo_restore (cr);

  if (n_states == 0)
    tw_automaton_draw_empty_hint (cr, c, vp->width, vp->height);
  if (vp->show_legend)
    tw_automaton_draw_legend (cr, c, vp->width, vp->height);
  if (vp->show_problems && problems->len > 0 && n_states > 0)
    tw_automaton_draw_problem_list (cr, c, vp->width, vp->height, problems);
  cairo_restore (cr);
}

/* ---- hit testing ---- */

/**
 * tw_automaton_painter_hit_test:
 * @hit: (out caller-allocates): what lies at (@x, @y) px: a transition's label first (it
 *   is drawn on top), then a state (its rim band, where drags connect, or its inside),
 *   then a transition's line
 */
void
tw_automaton_painter_hit_test (TwAutomatonPainter        *self,
                               const TwAutomatonViewport *vp,
                               double                     x,
                               double                     y,
                               TwAutomatonHit            *hit)
{
  TwAutomaton *a;
  g_autoptr(GArray) edges = NULL;
  double mx, my, best = G_MAXDOUBLE;
  int best_edge = -1;

  g_return_if_fail (TW_IS_AUTOMATON_PAINTER (self));

  hit->kind = TW_AUTOMATON_HIT_NONE;
  hit->index = -1;
  a = self->automaton;
  edges = tw_automaton_edges_compute (self->automaton, self->measure, self->routes);
  tw_automaton_viewport_to_model (vp, x, y, &mx, &my);

  for (guint i = edges->len; i-- > 0;)
    {
      const TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      if (e->valid && fabs (mx - e->lx) <= e->lw / 2 && fabs (my - e->ly) <= e->lh / 2)
        {
          hit->kind = TW_AUTOMATON_HIT_TRANSITION;
          hit->index = i;
          return;
        }
    }

  /* the topmost (last drawn) state wins */
  for (guint i = tw_automaton_get_n_states (a); i-- > 0;)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, i);
      double d = hypot (mx - s->x, my - s->y) * vp->zoom;   /* px */
      double r = state_radius (self, s) * vp->zoom;

      if (d <= r + 3)
        {
          hit->kind = d >= r - TW_AUTOMATON_RIM_WIDTH ? TW_AUTOMATON_HIT_STATE_RIM
                                                      : TW_AUTOMATON_HIT_STATE;
          hit->index = i;
          return;
        }
    }

  for (guint i = 0; i < edges->len; i++)
    {
      const TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      if (!e->valid)
        continue;
      guint samples = 32 * (e->n_points - 1) / 3;

      for (guint k = 0; k <= samples; k++)
        {
          double bx, by, d;
          tw_automaton_edge_point (e, k / (double) samples, &bx, &by);
          d = hypot (bx - mx, by - my) * vp->zoom;
          if (d < best)
            {
              best = d;
              best_edge = i;
            }
        }
    }
  if (best_edge >= 0 && best <= EDGE_SLOP_PX)
    {
      hit->kind = TW_AUTOMATON_HIT_TRANSITION;
      hit->index = best_edge;
    }
}

/**
 * tw_automaton_painter_get_label_position:
 * @x: (out): the px x of the centre of the transition's label
 * @y: (out): its px y
 *
 * Returns: %FALSE when the transition does not connect two existing states (not drawn)
 */
gboolean
tw_automaton_painter_get_label_position (TwAutomatonPainter        *self,
                                         const TwAutomatonViewport *vp,
                                         guint                      transition,
                                         double                    *x,
                                         double                    *y)
{
  g_autoptr(GArray) edges = NULL;
  const TwAutomatonEdge *e;

  g_return_val_if_fail (TW_IS_AUTOMATON_PAINTER (self), FALSE);

  edges = tw_automaton_edges_compute (self->automaton, self->measure, self->routes);
  if (transition >= edges->len)
    return FALSE;
  e = &g_array_index (edges, TwAutomatonEdge, transition);
  if (!e->valid)
    return FALSE;
  tw_automaton_viewport_to_screen (vp, e->lx, e->ly, x, y);
  return TRUE;
}

/**
 * tw_automaton_painter_get_bounds:
 *
 * The model-unit box holding every state with its loops, labels and kind captions, for
 * zoom-to-fit.
 *
 * Returns: %FALSE when there is no state
 */
gboolean
tw_automaton_painter_get_bounds (TwAutomatonPainter *self,
                                 double             *x,
                                 double             *y,
                                 double             *width,
                                 double             *height)
{
  g_autoptr(GArray) edges = NULL;
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  guint n;

  g_return_val_if_fail (TW_IS_AUTOMATON_PAINTER (self), FALSE);

  n = tw_automaton_get_n_states (self->automaton);
  if (n == 0)
    return FALSE;
  for (guint i = 0; i < n; i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (self->automaton, i);
      double r = state_radius (self, s);

      x0 = MIN (x0, s->x - r - 10);
      x1 = MAX (x1, s->x + r + 10);
      y0 = MIN (y0, s->y - r - 10);
      y1 = MAX (y1, s->y + r + 40);   /* kind caption and problem badge */
      if (g_strcmp0 (s->id, tw_automaton_get_initial (self->automaton)) == 0)
        x0 = MIN (x0, s->x - r - INITIAL_ARROW - 8);
    }
  edges = tw_automaton_edges_compute (self->automaton, self->measure, self->routes);
  for (guint i = 0; i < edges->len; i++)
    {
      const TwAutomatonEdge *e = &g_array_index (edges, TwAutomatonEdge, i);
      if (!e->valid)
        continue;
      x0 = MIN (x0, e->lx - e->lw / 2);
      x1 = MAX (x1, e->lx + e->lw / 2);
      y0 = MIN (y0, e->ly - e->lh / 2);
      y1 = MAX (y1, e->ly + e->lh / 2);
      for (guint k = 0; k < e->n_points; k++)
        {
          x0 = MIN (x0, e->p[k][0]);
          x1 = MAX (x1, e->p[k][0]);
          y0 = MIN (y0, e->p[k][1]);
          y1 = MAX (y1, e->p[k][1]);
        }
    }
  *x = x0;
  *y = y0;
  *width = x1 - x0;
  *height = y1 - y0;
  return TRUE;
}
