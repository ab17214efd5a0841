/* test-automaton-painter.c: the automaton painter, checked by its pixels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-automaton-file.h>
#include <pango/pangocairo.h>
#include <tw-widgets.h>

#include "tw-test-pixels.h"
#include "tw-test-utils.h"

#define W 900
#define H 560
#define R TW_AUTOMATON_STATE_RADIUS

static const double BACKGROUND[3] = { 0xfa / 255., 0xfa / 255., 0xfa / 255. };

/* Draws at zoom 1 with the model origin at the top left, so model = px. */
static cairo_surface_t *
render (TwAutomaton         *automaton,
        TwAutomatonViewport *vp_out,
        gboolean             legend,
        gboolean             problems)
{
  g_autoptr(TwAutomatonPainter) painter = tw_automaton_painter_new (automaton);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  TwAutomatonViewport vp;
  const char *dir = g_getenv ("TW_TEST_PNG_DIR");

  tw_automaton_viewport_init (&vp, W, H);
  vp.show_legend = legend;
  vp.show_problems = problems;
  if (vp_out)
    vp = *vp_out;
  tw_automaton_painter_draw (painter, cr, &vp);
  cairo_destroy (cr);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  if (dir)
    {
      g_autofree char *name = g_strdup_printf ("%s.png", tw_automaton_get_name (automaton));
      g_autofree char *path = g_build_filename (dir, name, NULL);
      cairo_surface_write_to_png (surface, path);
    }
  return surface;
}

static void
pixel (cairo_surface_t *surface,
       double           x,
       double           y,
       double           rgb[3])
{
  tw_test_surface_get_rgb (surface, (int) floor (x), (int) floor (y), rgb);
}

static double
luminance (const double rgb[3])
{
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

static void
assert_fill (cairo_surface_t        *surface,
             const TwAutomatonState *s)
{
  double px[3], fill[3];

  tw_automaton_state_kind_get_fill (s->kind, fill);
  pixel (surface, s->x, s->y + 0.6 * R, px);
  if (!tw_test_rgb_near (px, fill))
    g_error ("state %s (%s) at %g,%g: fill %.2f %.2f %.2f, expected %.2f %.2f %.2f", s->id,
             tw_state_kind_to_string (s->kind), s->x, s->y, px[0], px[1], px[2],
             fill[0], fill[1], fill[2]);
}

/* One state of each kind on a row, no transitions; state "out" is the initial one. */
static TwAutomaton *
one_of_each (void)
{
  TwAutomaton *a = tw_automaton_new ("one-of-each");

  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    tw_automaton_add_state (a, tw_state_kind_to_string (k), k, 100 + k * 120, 200);
  tw_automaton_set_initial (a, "out");
  return a;
}

static void
test_kinds_distinct (void)
{
  g_autoptr(TwAutomaton) a = one_of_each ();
  cairo_surface_t *surface = render (a, NULL, FALSE, FALSE);
  double fills[TW_N_STATE_KINDS][3];
  double px[3], stroke[3];

  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      assert_fill (surface, tw_automaton_get_state (a, k));
      tw_automaton_state_kind_get_fill (k, fills[k]);
    }
  /* begin, end, cancel, in, out, cond: six different insides */
  for (guint i = 0; i < TW_N_STATE_KINDS; i++)
    for (guint j = i + 1; j < TW_N_STATE_KINDS; j++)
      g_assert_false (tw_test_rgb_near (fills[i], fills[j]));
  /* in is filled (dark), out hollow (white), end has a dark fill */
  g_assert_cmpfloat (luminance (fills[TW_STATE_KIND_IN]), <, 0.6);
  g_assert_cmpfloat (luminance (fills[TW_STATE_KIND_OUT]), >, 0.99);
  g_assert_cmpfloat (luminance (fills[TW_STATE_KIND_END]), <, 0.3);
  /* begin's accent is green */
  tw_automaton_state_kind_get_stroke (TW_STATE_KIND_BEGIN, stroke);
  g_assert_cmpfloat (stroke[1], >, stroke[0] + 0.3);
  g_assert_cmpfloat (stroke[1], >, stroke[2] + 0.2);

  /* begin and end are double circles: outline, gap of fill, inner ring; out is single */
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, k);
      double outer[3], gap[3], inner[3];

      tw_automaton_state_kind_get_stroke (k, stroke);
      pixel (surface, s->x, s->y - R, outer);
      pixel (surface, s->x, s->y - R + 2, gap);
      pixel (surface, s->x, s->y - R + 5, inner);
      if (k != TW_STATE_KIND_COND)   /* a dash may or may not cover this one pixel */
        g_assert_true (tw_test_rgb_near (outer, stroke));
      g_assert_true (tw_test_rgb_near (gap, fills[k]));
      if (k == TW_STATE_KIND_BEGIN || k == TW_STATE_KIND_END)
        g_assert_false (tw_test_rgb_near (inner, fills[k]));
      else
        g_assert_true (tw_test_rgb_near (inner, fills[k]));
    }

  /* cancel is crossed: its diagonal is not its fill, unlike the same spot of out */
  pixel (surface, tw_automaton_get_state (a, TW_STATE_KIND_CANCEL)->x + 0.4 * R,
         tw_automaton_get_state (a, TW_STATE_KIND_CANCEL)->y + 0.4 * R, px);
  g_assert_false (tw_test_rgb_near (px, fills[TW_STATE_KIND_CANCEL]));
  tw_automaton_state_kind_get_stroke (TW_STATE_KIND_CANCEL, stroke);
  g_assert_cmpfloat (px[0], >, px[1] + 0.1);
  pixel (surface, tw_automaton_get_state (a, TW_STATE_KIND_OUT)->x + 0.4 * R,
         tw_automaton_get_state (a, TW_STATE_KIND_OUT)->y + 0.4 * R, px);
  g_assert_true (tw_test_rgb_near (px, fills[TW_STATE_KIND_OUT]));

  /* cond's outline is dashed: around the circle some pixels are outline, some are not;
   * out's outline is solid all around */
  for (guint pass = 0; pass < 2; pass++)
    {
      TwStateKind k = pass == 0 ? TW_STATE_KIND_COND : TW_STATE_KIND_OUT;
      const TwAutomatonState *s = tw_automaton_get_state (a, k);
      guint on = 0, off = 0;

      tw_automaton_state_kind_get_stroke (k, stroke);
      for (guint i = 0; i < 180; i++)
        {
          double angle = i * 2 * G_PI / 180;
          double nearest = G_MAXDOUBLE;

          /* the best covered of the pixels across the outline */
          for (double r = R - 1; r <= R + 1; r += 0.5)
            {
              pixel (surface, s->x + r * cos (angle), s->y + r * sin (angle), px);
              nearest = MIN (nearest, fabs (px[0] - stroke[0]) + fabs (px[1] - stroke[1]) +
                                      fabs (px[2] - stroke[2]));
            }
          if (nearest < 0.25)
            on++;
          else
            off++;
        }
      if (k == TW_STATE_KIND_COND)
        {
          g_assert_cmpuint (on, >, 40);
          g_assert_cmpuint (off, >, 40);
        }
      else
        g_assert_cmpuint (off, <, 10);
    }
  cairo_surface_destroy (surface);
}

static void
test_initial_marker (void)
{
  g_autoptr(TwAutomaton) a = one_of_each ();
  cairo_surface_t *surface = render (a, NULL, FALSE, FALSE);
  const TwAutomatonState *initial = tw_automaton_get_state (a, TW_STATE_KIND_OUT);
  const TwAutomatonState *other = tw_automaton_get_state (a, TW_STATE_KIND_IN);
  double px[3];

  /* an arrow comes into the initial state from the left, and into no other */
  for (double d = 6; d < 36; d += 4)
    {
      pixel (surface, initial->x - R - d, initial->y, px);
      g_assert_cmpfloat (luminance (px), <, 0.35);
      pixel (surface, other->x - R - d, other->y, px);
      g_assert_true (tw_test_rgb_near (px, BACKGROUND));
    }
  cairo_surface_destroy (surface);
}

static void
test_transition_arrows (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("arrows");
  cairo_surface_t *surface;
  TwAutomatonViewport vp;
  TwAutomatonHit hit;
  double px[3], lx, ly;
  g_autoptr(TwAutomatonPainter) painter = NULL;

  /* 0 → 1 alone: straight; 2 ⇄ 3: two curves; 4 has a loop */
  tw_automaton_add_state (a, "0", TW_STATE_KIND_OUT, 100, 100);
  tw_automaton_add_state (a, "1", TW_STATE_KIND_IN, 400, 100);
  tw_automaton_add_state (a, "2", TW_STATE_KIND_OUT, 100, 300);
  tw_automaton_add_state (a, "3", TW_STATE_KIND_IN, 400, 300);
  tw_automaton_add_state (a, "4", TW_STATE_KIND_IN, 650, 300);
  tw_automaton_set_initial (a, "0");
  tw_automaton_add_event (a, "0", "1", "go", TW_TASK_MATCH_SAME);
  tw_automaton_add_event (a, "2", "3", "there", TW_TASK_MATCH_ANY);
  tw_automaton_add_event (a, "3", "2", "back", TW_TASK_MATCH_OTHER);
  tw_automaton_add_any (a, "4", "4");
  surface = render (a, NULL, FALSE, TRUE);

  /* the straight line's pixels, away from its label in the middle */
  for (double x = 100 + R + 4; x < 400 - R - 12; x += 3)
    {
      if (fabs (x - 250) < 40)
        continue;
      pixel (surface, x, 100, px);
      g_assert_cmpfloat (luminance (px), <, 0.75);
      pixel (surface, x, 112, px);
      g_assert_true (tw_test_rgb_near (px, BACKGROUND));
    }
  /* the arrowhead fills the line's end, wider than the line */
  pixel (surface, 400 - R - 7, 102, px);
  g_assert_cmpfloat (luminance (px), <, 0.6);

  /* 2 ⇄ 3 bend apart: nothing on the straight line between them, a line above and below */
  for (double x = 100 + R + 10; x < 400 - R - 10; x += 5)
    {
      pixel (surface, x, 300, px);
      g_assert_true (tw_test_rgb_near (px, BACKGROUND));
    }

  painter = tw_automaton_painter_new (a);
  tw_automaton_viewport_init (&vp, W, H);
  g_assert_true (tw_automaton_painter_get_label_position (painter, &vp, 1, &lx, &ly));
  g_assert_cmpfloat (fabs (lx - 250), <, 1);
  g_assert_cmpfloat (fabs (ly - 300), >, 15);
  g_assert_true (tw_automaton_painter_get_label_position (painter, &vp, 2, &px[0], &px[1]));
  g_assert_cmpfloat ((ly - 300) * (px[1] - 300), <, 0);   /* on opposite sides */

  /* the loop's label sits above state 4 */
  g_assert_true (tw_automaton_painter_get_label_position (painter, &vp, 3, &lx, &ly));
  g_assert_cmpfloat (fabs (lx - 650), <, 1);
  g_assert_cmpfloat (ly, <, 300 - R - 20);

  /* hit test: label, state inside and rim, empty canvas */
  tw_automaton_painter_hit_test (painter, &vp, lx, ly, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_TRANSITION);
  g_assert_cmpint (hit.index, ==, 3);
  tw_automaton_painter_hit_test (painter, &vp, 400, 300, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_STATE);
  g_assert_cmpint (hit.index, ==, 3);
  tw_automaton_painter_hit_test (painter, &vp, 400, 300 + R - 2, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_STATE_RIM);
  g_assert_cmpint (hit.index, ==, 3);
  tw_automaton_painter_hit_test (painter, &vp, 150, 100, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_TRANSITION);
  g_assert_cmpint (hit.index, ==, 0);
  tw_automaton_painter_hit_test (painter, &vp, 250, 200, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_NONE);
  g_assert_cmpint (hit.index, ==, -1);

  /* zoomed and panned, the same model point is found at its new place */
  vp.zoom = 2;
  vp.pan_x = -300;
  vp.pan_y = -100;
  tw_automaton_painter_hit_test (painter, &vp, 400 * 2 - 300, 300 * 2 - 100, &hit);
  g_assert_cmpint (hit.kind, ==, TW_AUTOMATON_HIT_STATE);
  g_assert_cmpint (hit.index, ==, 3);
  cairo_surface_destroy (surface);
}

static void
test_fig2 (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load (path, &error);
  g_autoptr(TwAutomatonPainter) painter = NULL;
  cairo_surface_t *surface;
  double px[3], error_rgb[3];

  g_assert_no_error (error);
  tw_automaton_set_name (a, "fig2");
  surface = render (a, NULL, TRUE, TRUE);
  painter = tw_automaton_painter_new (a);
  g_assert_cmpuint (tw_automaton_painter_get_problems (painter)->len, ==, 0);
  tw_automaton_painter_get_error_color (error_rgb);
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 7);
  for (guint i = 0; i < tw_automaton_get_n_states (a); i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, i);
      assert_fill (surface, s);
      /* a valid automaton has no red halo */
      pixel (surface, s->x - R - 5, s->y, px);
      g_assert_false (tw_test_rgb_near (px, error_rgb));
    }
  /* state 1 (begin) and 2 (in) look different at the same offset */
  {
    double begin_px[3], in_px[3];
    pixel (surface, 200, 80 + 0.6 * R, begin_px);
    pixel (surface, 380, 200 + 0.6 * R, in_px);
    g_assert_false (tw_test_rgb_near (begin_px, in_px));
  }
  cairo_surface_destroy (surface);
}

static void
test_validation_error_drawn (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load (path, &error);
  g_autoptr(TwAutomatonPainter) painter = NULL;
  const TwAutomatonState *lost;
  const TwAutomatonProblem *problem;
  cairo_surface_t *surface;
  double px[3], error_rgb[3];
  guint lost_index;

  g_assert_no_error (error);
  /* a state nothing leads to */
  lost_index = tw_automaton_add_state (a, "7", TW_STATE_KIND_CANCEL, 700, 300);
  tw_automaton_set_name (a, "fig2-unreachable");
  surface = render (a, NULL, FALSE, TRUE);
  painter = tw_automaton_painter_new (a);
  g_assert_cmpuint (tw_automaton_painter_get_problems (painter)->len, ==, 1);
  problem = g_ptr_array_index (tw_automaton_painter_get_problems (painter), 0);
  g_assert_cmpint (problem->code, ==, TW_AUTOMATON_ERROR_UNREACHABLE);
  g_assert_cmpstr (problem->state_id, ==, "7");

  tw_automaton_painter_get_error_color (error_rgb);
  lost = tw_automaton_get_state (a, lost_index);
  /* a red ring around the offending state, on every side */
  for (guint i = 0; i < 8; i++)
    {
      double angle = i * G_PI / 4;
      pixel (surface, lost->x + (R + 5) * cos (angle) + 0.5, lost->y + (R + 5) * sin (angle) + 0.5, px);
      g_assert_true (tw_test_rgb_near (px, error_rgb));
    }
  /* and none around a fine state */
  {
    const TwAutomatonState *fine = tw_automaton_get_state (a, 2);
    pixel (surface, fine->x - R - 5, fine->y, px);
    g_assert_false (tw_test_rgb_near (px, error_rgb));
  }
  /* a red message badge under the state */
  {
    guint red = 0;
    for (double x = lost->x - 30; x <= lost->x + 30; x += 1)
      {
        pixel (surface, x, lost->y + R + 24, px);
        red += tw_test_rgb_near (px, error_rgb);
      }
    g_assert_cmpuint (red, >, 10);
  }
  /* the problem list in the bottom left corner opens with a red mark */
  pixel (surface, 12 + 18 - 5, H - 12 - (30 + 17 + 4) + 15, px);
  g_assert_true (tw_test_rgb_near (px, error_rgb));
  cairo_surface_destroy (surface);

  /* without show_problems nothing is red there */
  {
    TwAutomatonViewport vp;
    tw_automaton_viewport_init (&vp, W, H);
    vp.show_legend = FALSE;
    vp.show_problems = FALSE;
    surface = render (a, &vp, FALSE, FALSE);
    pixel (surface, lost->x - R - 5, lost->y, px);
    g_assert_false (tw_test_rgb_near (px, error_rgb));
    cairo_surface_destroy (surface);
  }
}

static void
test_step_view (void)
{
  g_autoptr(TwAutomaton) a = one_of_each ();
  TwAutomatonViewport vp;
  cairo_surface_t *plain, *lit;
  guint visits[TW_N_STATE_KINDS] = { 0, 0, 0, 12, 3, 0 };
  const TwAutomatonState *in = tw_automaton_get_state (a, TW_STATE_KIND_IN);
  double a_px[3], b_px[3];

  plain = render (a, NULL, FALSE, FALSE);
  tw_automaton_viewport_init (&vp, W, H);
  vp.show_legend = FALSE;
  vp.active_state = TW_STATE_KIND_IN;
  vp.visits = visits;
  vp.n_visits = G_N_ELEMENTS (visits);
  lit = render (a, &vp, FALSE, FALSE);

  /* the active state glows: its surroundings are no longer background, and yellow */
  pixel (plain, in->x - R - 4, in->y, a_px);
  pixel (lit, in->x - R - 4, in->y, b_px);
  g_assert_true (tw_test_rgb_near (a_px, BACKGROUND));
  g_assert_false (tw_test_rgb_near (b_px, BACKGROUND));
  g_assert_cmpfloat (b_px[0], >, b_px[2] + 0.4);
  /* the visit badge sits at the top right of the state */
  pixel (plain, in->x + R * 0.78 - 6, in->y - R * 0.78, a_px);
  pixel (lit, in->x + R * 0.78 - 6, in->y - R * 0.78, b_px);
  g_assert_false (tw_test_rgb_near (a_px, b_px));
  cairo_surface_destroy (plain);
  cairo_surface_destroy (lit);
}

/* While a transition is dragged out of a state, a dashed arrow follows the pointer and
 * the state under it is ringed in the accent colour. */
static void
test_pending_connection (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("pending");
  static const double accent[3] = { 0x35 / 255., 0x84 / 255., 0xe4 / 255. };
  TwAutomatonViewport vp;
  cairo_surface_t *surface;
  double px[3];
  guint on_line = 0;

  tw_automaton_add_state (a, "0", TW_STATE_KIND_OUT, 100, 200);
  tw_automaton_add_state (a, "1", TW_STATE_KIND_IN, 400, 200);
  tw_automaton_set_initial (a, "0");
  tw_automaton_viewport_init (&vp, W, H);
  vp.show_legend = FALSE;
  vp.show_problems = FALSE;
  vp.pending_from = 0;
  vp.pending_x = 405;
  vp.pending_y = 195;
  surface = render (a, &vp, FALSE, FALSE);

  for (guint i = 0; i < 8; i++)
    {
      double angle = G_PI / 8 + i * G_PI / 4;
      gboolean ringed = FALSE;

      if (i == 3 || i == 4)   /* where the arrow comes in */
        continue;
      /* the best covered pixel across the ring */
      for (double r = R + 4; r <= R + 6; r += 0.5)
        {
          pixel (surface, 400 + r * cos (angle), 200 + r * sin (angle), px);
          ringed |= tw_test_rgb_near (px, accent);
        }
      g_assert_true (ringed);
    }
  for (double x = 100 + R + 2; x < 400 - R - 14; x += 1)
    {
      pixel (surface, x, 200, px);
      on_line += tw_test_rgb_near (px, BACKGROUND) ? 0 : 1;
    }
  /* dashed: about half of the way is drawn */
  g_assert_cmpuint (on_line, >, 80);
  g_assert_cmpuint (on_line, <, 200);
  pixel (surface, 100 - R - 5, 200 - 30, px);
  g_assert_true (tw_test_rgb_near (px, BACKGROUND));
  cairo_surface_destroy (surface);
}

static void
test_labels (void)
{
  char a[] = "a", b[] = "b", e[] = "E", nothing[] = "";
  TwAutomatonTransition t = { .from = a, .to = b, .label = TW_LABEL_EVENT, .event = e };
  g_autofree char *any = NULL, *same = NULL, *other = NULL, *lambda = NULL, *star = NULL;
  g_autofree char *arg = NULL, *empty = NULL;

  any = tw_automaton_format_label (&t);
  t.task = TW_TASK_MATCH_SAME;
  same = tw_automaton_format_label (&t);
  t.task = TW_TASK_MATCH_OTHER;
  other = tw_automaton_format_label (&t);
  t.task_field = TW_TASK_FIELD_ARG;
  arg = tw_automaton_format_label (&t);
  t.event = nothing;
  empty = tw_automaton_format_label (&t);
  t.label = TW_LABEL_LAMBDA;
  lambda = tw_automaton_format_label (&t);
  t.label = TW_LABEL_ANY;
  star = tw_automaton_format_label (&t);
  g_assert_cmpstr (any, ==, "E");
  g_assert_cmpstr (same, ==, "(E, i)");
  g_assert_cmpstr (other, ==, "(E, ¬i)");
  g_assert_cmpstr (arg, ==, "(E, ¬i@arg)");
  g_assert_cmpstr (empty, ==, "(?, ¬i@arg)");
  g_assert_cmpstr (lambda, ==, "λ");
  g_assert_cmpstr (star, ==, "*");
}


/* Pixels much darker than the canvas in the band of a state's name, between @x0 and
 * @x1: ink that left the circle. */
static guint
ink_outside (cairo_surface_t *surface,
             double           cy,
             double           x0,
             double           x1)
{
  guint n = 0;

  for (double y = cy - 12; y <= cy + 12; y++)
    for (double x = x0; x < x1; x++)
      {
        double px[3];

        pixel (surface, x, y, px);
        n += luminance (px) < 0.6;
      }
  return n;
}

/* A name that does not fit grows its state, up to twice the usual radius, and longer
 * ones wrap and ellipsize inside: no ink outside the outline, and a short name keeps
 * the usual circle. */
static void
test_long_state_names (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("long-names");
  PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  static const char *const names[] = {
    "idle", "blocked_on_mutex", "waiting_for_the_mutex_holder_to_release_it",
  };
  cairo_surface_t *surface;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    tw_automaton_add_state (a, names[i], TW_STATE_KIND_OUT, 150 + i * 250, 200);
  tw_automaton_add_state (a, "x", TW_STATE_KIND_IN, 150, 400);
  tw_automaton_set_initial (a, "x");
  surface = render (a, NULL, FALSE, FALSE);
  g_assert_cmpfloat (tw_automaton_state_radius (context, names[0]), ==, R);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      double cx = 150 + i * 250;
      double r = tw_automaton_state_radius (context, names[i]);
      double px[3], stroke[3];

      g_assert_cmpfloat (r, <=, 2 * R);
      /* the outline is drawn at the radius the hit test and the edges use */
      tw_automaton_state_kind_get_stroke (TW_STATE_KIND_OUT, stroke);
      pixel (surface, cx + r - 0.5, 200, px);
      g_assert_true (tw_test_rgb_near (px, stroke));
      /* the outline is 2.2 px wide: look from just beyond it to the next state */
      g_assert_cmpuint (ink_outside (surface, 200, cx + r + 3, cx + 120), ==, 0);
      g_assert_cmpuint (ink_outside (surface, 200, cx - 120, cx - r - 3), ==, 0);
      /* and something of the name is written inside */
      g_assert_cmpuint (ink_outside (surface, 200, cx - r + 4, cx + r - 4), >, 0);
    }
  cairo_surface_destroy (surface);
  g_object_unref (context);
}

/* A dark palette paints a dark canvas; the states keep their kinds' fills. */
static void
test_dark_canvas (void)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("dark");
  g_autoptr(TwAutomatonPainter) painter = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, W, H);
  cairo_t *cr = cairo_create (surface);
  TwPalette dark = { { 0.12, 0.12, 0.12 }, { 1, 1, 1 }, TRUE };
  TwAutomatonViewport vp;
  double px[3];

  tw_automaton_add_state (a, "0", TW_STATE_KIND_BEGIN, 200, 200);
  painter = tw_automaton_painter_new (a);
  tw_automaton_viewport_init (&vp, W, H);
  vp.show_legend = FALSE;
  vp.palette = &dark;
  tw_automaton_painter_draw (painter, cr, &vp);
  cairo_destroy (cr);
  pixel (surface, W - 5, H - 5, px);
  g_assert_cmpfloat (luminance (px), <, 0.2);
  assert_fill (surface, tw_automaton_get_state (a, 0));
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/widgets/automaton-painter/kinds-distinct", test_kinds_distinct);
  g_test_add_func ("/tw/widgets/automaton-painter/initial-marker", test_initial_marker);
  g_test_add_func ("/tw/widgets/automaton-painter/transition-arrows", test_transition_arrows);
  g_test_add_func ("/tw/widgets/automaton-painter/fig2", test_fig2);
  g_test_add_func ("/tw/widgets/automaton-painter/validation-error-drawn", test_validation_error_drawn);
  g_test_add_func ("/tw/widgets/automaton-painter/step-view", test_step_view);
  g_test_add_func ("/tw/widgets/automaton-painter/pending-connection", test_pending_connection);
  g_test_add_func ("/tw/widgets/automaton-painter/labels", test_labels);
  g_test_add_func ("/tw/widgets/automaton-painter/long-state-names", test_long_state_names);
  g_test_add_func ("/tw/widgets/automaton-painter/dark-canvas", test_dark_canvas);

  return g_test_run ();
}
