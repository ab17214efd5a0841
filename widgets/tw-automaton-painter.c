/* tw-automaton-painter.c: draws a metric automaton on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "tw-automaton-painter.h"
#include "tw-automaton-style.h"

/*
 * One painter serves the designer widget, screenshots and the pixel tests, so what users
 * see is what the tests check. Automata are small (tens of states), so every draw and hit
 * test recomputes the geometry and re-runs validation: the picture can never be stale
 * after an edit, and there is no cache to invalidate.
 *
 * Geometry lives in model units (the x, y saved in the file); the viewport maps them to
 * px. Every transition is a cubic Bézier: straight when it is alone between its two
 * states, bent apart when several connect the same pair (either direction), a loop above
 * (then right, below, left) for a state's own transitions.
 */

#define BEND_STEP     44.0
#define LOOP_REACH    58.0
#define ARROW_LENGTH  11.0
#define ARROW_HALF    5.0
#define INITIAL_ARROW 40.0
#define EDGE_SLOP_PX  5.0
#define LOOP_CLEARANCE 0.75   /* rad between a loop and the nearest line of its state */
#define LABEL_PAD_X   5.0
#define LABEL_PAD_Y   2.0
#define UI_FONT       "DejaVu Sans 8.5"
#define UI_FONT_BOLD  "DejaVu Sans Bold 10"
#define SMALL_FONT    "DejaVu Sans 7.5"
#define MAX_LISTED_PROBLEMS 6

typedef struct {
  gboolean valid;      /* both ends name states */
  gboolean loop;
  double   p[4][2];    /* start, control 1, control 2, end (the arrow's tip) */
  double   lx, ly;     /* label centre */
  double   lw, lh;     /* label size */
  char    *label;
} Edge;

struct _TwAutomatonPainter
{
  GObject       parent_instance;

  TwAutomaton  *automaton;
  GPtrArray    *problems;      /* TwAutomatonProblem, from the last draw */
  PangoContext *measure;       /* for label sizes outside a draw */
};

G_DEFINE_FINAL_TYPE (TwAutomatonPainter, tw_automaton_painter, G_TYPE_OBJECT)

static void
set_rgb (cairo_t      *cr,
         const double  rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

static void
set_rgba (cairo_t      *cr,
          const double  rgb[3],
          double        alpha)
{
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
}

static TwStateKind
clamp_kind (TwStateKind kind)
{
  return (guint) kind < TW_N_STATE_KINDS ? kind : TW_STATE_KIND_OUT;
}

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
  g_clear_pointer (&self->problems, g_ptr_array_unref);
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

/* ---- geometry ---- */

static void
bezier_point (const double p[4][2],
              double       t,
              double      *x,
              double      *y)
{
  double u = 1 - t;
  double a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;

  *x = a * p[0][0] + b * p[1][0] + c * p[2][0] + d * p[3][0];
  *y = a * p[0][1] + b * p[1][1] + c * p[2][1] + d * p[3][1];
}

static void
unit (double  dx,
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

static void
measure_text (PangoContext *context,
              const char   *font,
              const char   *text,
              double       *width,
              double       *height)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (context);
  PangoFontDescription *desc = pango_font_description_from_string (font);
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  *width = w;
  *height = h;
}

/* A state's radius in model units: TW_AUTOMATON_STATE_RADIUS, or larger for a name
 * that needs it. */
static double
state_radius (TwAutomatonPainter     *self,
              const TwAutomatonState *s)
{
  return tw_automaton_state_radius (self->measure, s->id);
}

static void
edge_clear (gpointer data)
{
  g_free (((Edge *) data)->label);
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

/* The transitions' curves and label boxes, in model units, indexed like the model. */
static GArray *
compute_edges (TwAutomatonPainter *self)
{
  TwAutomaton *a = self->automaton;
  guint n = tw_automaton_get_n_transitions (a);
  GArray *edges = g_array_sized_new (FALSE, TRUE, sizeof (Edge), n);
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
      Edge *e = &g_array_index (edges, Edge, i);
      const TwAutomatonState *sa, *sb;
      double ra, rb;
      guint group = 0, rank = 0;

      e->label = tw_automaton_format_label (tw_automaton_get_transition (a, i));
      measure_text (self->measure, UI_FONT, e->label, &e->lw, &e->lh);
      e->lw += 2 * LABEL_PAD_X;
      e->lh += 2 * LABEL_PAD_Y;
      if (from[i] < 0 || to[i] < 0)
        continue;
      e->valid = TRUE;
      sa = tw_automaton_get_state (a, from[i]);
      sb = tw_automaton_get_state (a, to[i]);
      ra = state_radius (self, sa);
      rb = state_radius (self, sb);

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
        {
          double theta = loop_angle (a, from, to, n, from[i], rank);
          double reach = ra + LOOP_REACH + (rank / 8) * 24;
          double spread = 0.5, open = 0.78;
          double mx, my;

          e->loop = TRUE;
          e->p[0][0] = sa->x + ra * cos (theta - spread);
          e->p[0][1] = sa->y + ra * sin (theta - spread);
          e->p[1][0] = sa->x + reach * cos (theta - open);
          e->p[1][1] = sa->y + reach * sin (theta - open);
          e->p[2][0] = sa->x + reach * cos (theta + open);
          e->p[2][1] = sa->y + reach * sin (theta + open);
          e->p[3][0] = sa->x + ra * cos (theta + spread);
          e->p[3][1] = sa->y + ra * sin (theta + spread);
          bezier_point ((const double (*)[2]) e->p, 0.5, &mx, &my);
          e->lx = mx + cos (theta) * (e->lh / 2 + 2) + cos (theta) * fabs (cos (theta)) * e->lw / 2;
          e->ly = my + sin (theta) * (e->lh / 2 + 2);
        }
      else
        {
          /* bend relative to the pair's canonical direction so the curves spread apart */
          gboolean canonical = from[i] < to[i];
          const TwAutomatonState *lo = canonical ? sa : sb, *hi = canonical ? sb : sa;
          double ux, uy, nx, ny, qx, qy, sx, sy, tx, ty;
          double offset = group > 1 ? (rank - (group - 1) / 2.0) * BEND_STEP : 0;

          unit (hi->x - lo->x, hi->y - lo->y, &ux, &uy);
          nx = -uy;
          ny = ux;
          qx = (sa->x + sb->x) / 2 + nx * offset * 2;
          qy = (sa->y + sb->y) / 2 + ny * offset * 2;
          unit (qx - sa->x, qy - sa->y, &sx, &sy);
          unit (sb->x - qx, sb->y - qy, &tx, &ty);
          e->p[0][0] = sa->x + sx * ra;
          e->p[0][1] = sa->y + sy * ra;
          e->p[3][0] = sb->x - tx * rb;
          e->p[3][1] = sb->y - ty * rb;
          /* the quadratic through q as a cubic */
          e->p[1][0] = e->p[0][0] + 2.0 / 3.0 * (qx - e->p[0][0]);
          e->p[1][1] = e->p[0][1] + 2.0 / 3.0 * (qy - e->p[0][1]);
          e->p[2][0] = e->p[3][0] + 2.0 / 3.0 * (qx - e->p[3][0]);
          e->p[2][1] = e->p[3][1] + 2.0 / 3.0 * (qy - e->p[3][1]);
          bezier_point ((const double (*)[2]) e->p, 0.5, &e->lx, &e->ly);
        }
    }
  return edges;
}

/* ---- drawing ---- */

static void
draw_text (cairo_t    *cr,
           const char *font,
           const char *text,
           double      x,
           double      y,
           double      align_x,   /* 0 = left at x, 0.5 = centred, 1 = right */
           double      align_y)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = pango_font_description_from_string (font);
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * align_x, y - h * align_y);
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_arrow_head (cairo_t *cr,
                 double   tip_x,
                 double   tip_y,
                 double   ux,
                 double   uy,
                 double   scale)
{
  double bx = tip_x - ux * ARROW_LENGTH * scale, by = tip_y - uy * ARROW_LENGTH * scale;

  cairo_move_to (cr, tip_x, tip_y);
  cairo_line_to (cr, bx - uy * ARROW_HALF * scale, by + ux * ARROW_HALF * scale);
  cairo_line_to (cr, bx + uy * ARROW_HALF * scale, by - ux * ARROW_HALF * scale);
  cairo_close_path (cr);
  cairo_fill (cr);
}

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
  set_rgb (cr, c->grid);
  for (double y = y0; y < vp->height; y += step)
    for (double x = x0; x < vp->width; x += step)
      cairo_rectangle (cr, floor (x), floor (y), 1.5, 1.5);
  cairo_fill (cr);
}

static void
draw_edge (cairo_t                 *cr,
           const TwAutomatonColors *c,
           const Edge              *e,
           gboolean                 selected)
{
  double ux, uy, bx, by;

  /* stop the line under the arrowhead so its end does not poke out of the tip */
  unit (e->p[3][0] - e->p[2][0], e->p[3][1] - e->p[2][1], &ux, &uy);
  bx = e->p[3][0] - ux * ARROW_LENGTH * 0.8;
  by = e->p[3][1] - uy * ARROW_LENGTH * 0.8;
  set_rgb (cr, selected ? c->accent : c->edge);
  cairo_set_line_width (cr, selected ? 2.6 : 1.6);
  cairo_move_to (cr, e->p[0][0], e->p[0][1]);
  cairo_curve_to (cr, e->p[1][0], e->p[1][1], e->p[2][0], e->p[2][1], bx, by);
  cairo_stroke (cr);
  draw_arrow_head (cr, e->p[3][0], e->p[3][1], ux, uy, selected ? 1.15 : 1.0);
}

static void
draw_edge_label (cairo_t                 *cr,
                 const TwAutomatonColors *c,
                 const Edge              *e,
                 gboolean                 selected,
                 gboolean                 broken)
{
  double x = e->lx - e->lw / 2, y = e->ly - e->lh / 2;

  rounded_rect (cr, x, y, e->lw, e->lh, e->lh / 2);
  set_rgb (cr, c->card);
  cairo_fill_preserve (cr);
  set_rgb (cr, broken ? c->error : selected ? c->accent : c->border);
  cairo_set_line_width (cr, selected || broken ? 1.6 : 1.0);
  cairo_stroke (cr);
  set_rgb (cr, broken ? c->error : c->ink);
  draw_text (cr, UI_FONT, e->label, e->lx, e->ly, 0.5, 0.5);
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
      set_rgba (cr, c->active, 0.45);
      cairo_fill (cr);
      cairo_arc (cr, s->x, s->y, r + 4, 0, 2 * G_PI);
      set_rgb (cr, c->active);
      cairo_set_line_width (cr, 3.5);
      cairo_stroke (cr);
    }
  if (problem)
    {
      cairo_arc (cr, s->x, s->y, halo, 0, 2 * G_PI);
      set_rgb (cr, c->error);
      cairo_set_line_width (cr, 3);
      cairo_stroke (cr);
      halo += 5;
    }
  if (index == vp->selected_state)
    {
      cairo_arc (cr, s->x, s->y, halo, 0, 2 * G_PI);
      set_rgba (cr, c->accent, 0.9);
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
    set_rgb (cr, c->bg);
    cairo_set_line_width (cr, 3);
    cairo_stroke_preserve (cr);
    set_rgb (cr, c->muted);
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
      rounded_rect (cr, s->x - w / 2, y, w, h, h / 2);
      set_rgb (cr, c->error);
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

      rounded_rect (cr, bx - w / 2, by - 9, w, 18, 9);
      set_rgb (cr, vp->visits[index] ? c->accent : c->muted);
      cairo_fill_preserve (cr);
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_set_line_width (cr, 1.5);
      cairo_stroke (cr);
      draw_text (cr, SMALL_FONT, count, bx, by, 0.5, 0.5);
    }
}

static void
draw_initial_marker (cairo_t                 *cr,
                     const TwAutomatonColors *c,
                     const TwAutomatonState  *s,
                     double                   r)
{
  double x0 = s->x - r - INITIAL_ARROW, x1 = s->x - r;

  set_rgb (cr, c->ink);
  cairo_arc (cr, x0, s->y, 3.5, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_set_line_width (cr, 2.2);
  cairo_move_to (cr, x0, s->y);
  cairo_line_to (cr, x1 - ARROW_LENGTH * 0.8, s->y);
  cairo_stroke (cr);
  draw_arrow_head (cr, x1, s->y, 1, 0, 1.1);
}

static void
draw_card (cairo_t                 *cr,
           const TwAutomatonColors *c,
           double                   x,
           double                   y,
           double                   w,
           double                   h,
           gboolean                 error)
{
  /* a soft shadow, then the card */
  rounded_rect (cr, x + 1, y + 2, w, h, 8);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.07);
  cairo_fill (cr);
  rounded_rect (cr, x, y, w, h, 8);
  set_rgba (cr, c->card, 0.96);
  cairo_fill_preserve (cr);
  if (error)
    set_rgba (cr, c->error, 0.8);
  else
    set_rgb (cr, c->grid);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

static void
draw_legend (cairo_t                   *cr,
             const TwAutomatonColors   *c,
             const TwAutomatonViewport *vp)
{
  const double row = 22, w = 250;
  double h = 30 + row * (TW_N_STATE_KINDS + 1) + 4;
  double x = vp->width - w - 12, y = 12;

  if (x < 4 || vp->height < h + 24)
    return;
  draw_card (cr, c, x, y, w, h, FALSE);
  set_rgb (cr, c->ink);
  draw_text (cr, "DejaVu Sans Bold 8.5", "States", x + 12, y + 9, 0, 0);
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      double cy = y + 38 + k * row;
      tw_automaton_painter_draw_state_icon (cr, k, x + 22, cy, 8);
      set_rgb (cr, c->ink);
      draw_text (cr, "DejaVu Sans Bold 8", tw_state_kind_to_string (k), x + 38, cy, 0, 0.5);
      set_rgb (cr, c->muted);
      draw_text (cr, SMALL_FONT, tw_automaton_state_kind_describe (k), x + 88, cy, 0, 0.5);
    }
  {
    double cy = y + 38 + TW_N_STATE_KINDS * row;
    set_rgb (cr, c->ink);
    cairo_set_line_width (cr, 1.6);
    cairo_move_to (cr, x + 12, cy);
    cairo_line_to (cr, x + 24, cy);
    cairo_stroke (cr);
    draw_arrow_head (cr, x + 31, cy, 1, 0, 0.7);
    draw_text (cr, "DejaVu Sans Bold 8", "initial", x + 38, cy, 0, 0.5);
    set_rgb (cr, c->muted);
    draw_text (cr, SMALL_FONT, "each task's instance starts here", x + 88, cy, 0, 0.5);
  }
}

static void
draw_problem_list (cairo_t                   *cr,
                   const TwAutomatonColors   *c,
                   const TwAutomatonViewport *vp,
                   GPtrArray                 *problems)
{
  guint shown = MIN (problems->len, MAX_LISTED_PROBLEMS);
  const double row = 17;
  double text_width = 200, w;
  double h = 30 + row * shown + (problems->len > shown ? row : 0) + 4;
  double x = 12, y = vp->height - h - 12;
  g_autofree char *title = NULL;

  for (guint i = 0; i < shown; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);
      g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
      PangoFontDescription *desc = pango_font_description_from_string (SMALL_FONT);
      int tw, th;

      pango_layout_set_font_description (layout, desc);
      pango_font_description_free (desc);
      pango_layout_set_text (layout, p->message, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      text_width = MAX (text_width, tw);
    }
  w = MIN (vp->width - 24, text_width + 32);
  if (w < 120 || y < 4)
    return;
  draw_card (cr, c, x, y, w, h, TRUE);
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w - 8, h);
  cairo_clip (cr);
  cairo_arc (cr, x + 18, y + 15, 7, 0, 2 * G_PI);
  set_rgb (cr, c->error);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  draw_text (cr, "DejaVu Sans Bold 7.5", "!", x + 18, y + 15, 0.5, 0.5);
  title = g_strdup_printf (g_dngettext (NULL, "%u design problem", "%u design problems",
                                        problems->len), problems->len);
  set_rgb (cr, c->error);
  draw_text (cr, "DejaVu Sans Bold 8.5", title, x + 32, y + 15, 0, 0.5);
  set_rgb (cr, c->ink);
  for (guint i = 0; i < shown; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);
      draw_text (cr, SMALL_FONT, p->message, x + 14, y + 30 + i * row, 0, 0);
    }
  if (problems->len > shown)
    {
      g_autofree char *more = g_strdup_printf ("… and %u more", problems->len - shown);
      set_rgb (cr, c->muted);
      draw_text (cr, SMALL_FONT, more, x + 14, y + 30 + shown * row, 0, 0);
    }
  cairo_restore (cr);
}

static void
draw_empty_hint (cairo_t                   *cr,
                 const TwAutomatonColors   *c,
                 const TwAutomatonViewport *vp)
{
  set_rgb (cr, c->muted);
  draw_text (cr, "DejaVu Sans Bold 12", "An empty automaton", vp->width / 2.0,
             vp->height / 2.0 - 14, 0.5, 0.5);
  draw_text (cr, UI_FONT,
             "Add states from the palette or double-click here, then drag from a state's rim to another state",
             vp->width / 2.0, vp->height / 2.0 + 10, 0.5, 0.5);
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
  edges = compute_edges (self);
  n_states = tw_automaton_get_n_states (a);
  initial = tw_automaton_get_initial (a) ? tw_automaton_find_state (a, tw_automaton_get_initial (a)) : -1;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, vp->width, vp->height);
  cairo_clip (cr);
  set_rgb (cr, c->bg);
  cairo_paint (cr);
  draw_grid (cr, c, vp);

  cairo_save (cr);
  cairo_translate (cr, vp->pan_x, vp->pan_y);
  cairo_scale (cr, vp->zoom, vp->zoom);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);

  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
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
      const Edge *e = &g_array_index (edges, Edge, i);
      const TwAutomatonTransition *t = tw_automaton_get_transition (a, i);
      gboolean broken = vp->show_problems && t->label == TW_LABEL_EVENT &&
                        (t->event == NULL || t->event[0] == '\0');
      if (e->valid)
        draw_edge_label (cr, c, e, (int) i == vp->selected_transition, broken);
    }

  if (vp->pending_from >= 0 && (guint) vp->pending_from < n_states)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, vp->pending_from);
      double mx, my, ux, uy;
      double dash[2] = { 5, 4 };

      tw_automaton_viewport_to_model (vp, vp->pending_x, vp->pending_y, &mx, &my);
      /* over a state, ring it and point at its rim: releasing there connects */
      for (guint i = n_states; i-- > 0;)
        {
          const TwAutomatonState *target = tw_automaton_get_state (a, i);
          double rt = state_radius (self, target);

          if ((int) i != vp->pending_from && hypot (mx - target->x, my - target->y) <= rt + 3)
            {
              double tx, ty;
              cairo_new_path (cr);
              cairo_arc (cr, target->x, target->y, rt + 5, 0, 2 * G_PI);
              set_rgb (cr, c->accent);
              cairo_set_line_width (cr, 3);
              cairo_stroke (cr);
              unit (target->x - s->x, target->y - s->y, &tx, &ty);
              mx = target->x - tx * rt;
              my = target->y - ty * rt;
              break;
            }
        }
      unit (mx - s->x, my - s->y, &ux, &uy);
      set_rgb (cr, c->accent);
      cairo_set_line_width (cr, 2);
      cairo_set_dash (cr, dash, 2, 0);
      cairo_move_to (cr, s->x + ux * state_radius (self, s), s->y + uy * state_radius (self, s));
      cairo_line_to (cr, mx - ux * ARROW_LENGTH * 0.8, my - uy * ARROW_LENGTH * 0.8);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      draw_arrow_head (cr, mx, my, ux, uy, 1);
    }
  cairo_restore (cr);

  if (n_states == 0)
    draw_empty_hint (cr, c, vp);
  if (vp->show_legend)
    draw_legend (cr, c, vp);
  if (vp->show_problems && problems->len > 0 && n_states > 0)
    draw_problem_list (cr, c, vp, problems);
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
  edges = compute_edges (self);
  tw_automaton_viewport_to_model (vp, x, y, &mx, &my);

  for (guint i = edges->len; i-- > 0;)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
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
      const Edge *e = &g_array_index (edges, Edge, i);
      if (!e->valid)
        continue;
      for (int k = 0; k <= 32; k++)
        {
          double bx, by, d;
          bezier_point ((const double (*)[2]) e->p, k / 32.0, &bx, &by);
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
  const Edge *e;

  g_return_val_if_fail (TW_IS_AUTOMATON_PAINTER (self), FALSE);

  edges = compute_edges (self);
  if (transition >= edges->len)
    return FALSE;
  e = &g_array_index (edges, Edge, transition);
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
  edges = compute_edges (self);
  for (guint i = 0; i < edges->len; i++)
    {
      const Edge *e = &g_array_index (edges, Edge, i);
      if (!e->valid)
        continue;
      x0 = MIN (x0, e->lx - e->lw / 2);
      x1 = MAX (x1, e->lx + e->lw / 2);
      y0 = MIN (y0, e->ly - e->lh / 2);
      y1 = MAX (y1, e->ly + e->lh / 2);
      for (int k = 1; k < 3; k++)
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
