/* tw-automaton-overlays.c: the cards drawn over the automaton: legend, design problems, hint
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <pango/pangocairo.h>

#include "tw-automaton-overlays.h"

/* The overlays stay put in screen px whatever the zoom and pan; each one gives up when
 * the drawing is too small for it rather than covering the states. */

#define SMALL_FONT          "DejaVu Sans 7.5"
#define MAX_LISTED_PROBLEMS 6

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
  tw_automaton_rounded_rect (cr, x + 1, y + 2, w, h, 8);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.07);
  cairo_fill (cr);
  tw_automaton_rounded_rect (cr, x, y, w, h, 8);
  tw_automaton_set_rgba (cr, c->card, 0.96);
  cairo_fill_preserve (cr);
  if (error)
    tw_automaton_set_rgba (cr, c->error, 0.8);
  else
    tw_automaton_set_rgb (cr, c->grid);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
}

/**
 * tw_automaton_draw_legend:
 *
 * The state kinds and the initial marker, in a card at the top right of a @width ×
 * @height px drawing.
 */
void
tw_automaton_draw_legend (cairo_t                 *cr,
                          const TwAutomatonColors *c,
                          int                      width,
                          int                      height)
{
  const double row = 22, w = 250;
  double h = 30 + row * (TW_N_STATE_KINDS + 1) + 4;
  double x = width - w - 12, y = 12;
  double cy;

  if (x < 4 || height < h + 24)
    return;
  draw_card (cr, c, x, y, w, h, FALSE);
  tw_automaton_set_rgb (cr, c->ink);
  tw_automaton_draw_text (cr, "DejaVu Sans Bold 8.5", "States", x + 12, y + 9, 0, 0);
  for (guint k = 0; k < TW_N_STATE_KINDS; k++)
    {
      cy = y + 38 + k * row;
      tw_automaton_painter_draw_state_icon (cr, k, x + 22, cy, 8);
      tw_automaton_set_rgb (cr, c->ink);
      tw_automaton_draw_text (cr, "DejaVu Sans Bold 8", tw_state_kind_to_string (k), x + 38, cy, 0, 0.5);
      tw_automaton_set_rgb (cr, c->muted);
      tw_automaton_draw_text (cr, SMALL_FONT, tw_automaton_state_kind_describe (k), x + 88, cy, 0, 0.5);
    }
  cy = y + 38 + TW_N_STATE_KINDS * row;
  tw_automaton_set_rgb (cr, c->ink);
  cairo_set_line_width (cr, 1.6);
  cairo_move_to (cr, x + 12, cy);
  cairo_line_to (cr, x + 24, cy);
  cairo_stroke (cr);
  tw_automaton_draw_arrow_head (cr, x + 31, cy, 1, 0, 0.7);
  tw_automaton_draw_text (cr, "DejaVu Sans Bold 8", "initial", x + 38, cy, 0, 0.5);
  tw_automaton_set_rgb (cr, c->muted);
  tw_automaton_draw_text (cr, SMALL_FONT, "each task's instance starts here", x + 88, cy, 0, 0.5);
}

/**
 * tw_automaton_draw_problem_list:
 * @problems: (element-type TwAutomatonProblem): the design problems, at least one
 *
 * The first few problems' messages, in a card at the bottom left.
 */
void
tw_automaton_draw_problem_list (cairo_t                 *cr,
                                const TwAutomatonColors *c,
                                int                      width,
                                int                      height,
                                GPtrArray               *problems)
{
  guint shown = MIN (problems->len, MAX_LISTED_PROBLEMS);
  const double row = 17;
  double text_width = 200, w;
  double h = 30 + row * shown + (problems->len > shown ? row : 0) + 4;
  double x = 12, y = height - h - 12;
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
  w = MIN (width - 24, text_width + 32);
  if (w < 120 || y < 4)
    return;
  draw_card (cr, c, x, y, w, h, TRUE);
  cairo_save (cr);
  cairo_rectangle (cr, x, y, w - 8, h);
  cairo_clip (cr);
  cairo_arc (cr, x + 18, y + 15, 7, 0, 2 * G_PI);
  tw_automaton_set_rgb (cr, c->error);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  tw_automaton_draw_text (cr, "DejaVu Sans Bold 7.5", "!", x + 18, y + 15, 0.5, 0.5);
  title = g_strdup_printf (g_dngettext (NULL, "%u design problem", "%u design problems",
                                        problems->len), problems->len);
  tw_automaton_set_rgb (cr, c->error);
  tw_automaton_draw_text (cr, "DejaVu Sans Bold 8.5", title, x + 32, y + 15, 0, 0.5);
  tw_automaton_set_rgb (cr, c->ink);
  for (guint i = 0; i < shown; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);
      tw_automaton_draw_text (cr, SMALL_FONT, p->message, x + 14, y + 30 + i * row, 0, 0);
    }
  if (problems->len > shown)
    {
      g_autofree char *more = g_strdup_printf ("… and %u more", problems->len - shown);
      tw_automaton_set_rgb (cr, c->muted);
      tw_automaton_draw_text (cr, SMALL_FONT, more, x + 14, y + 30 + shown * row, 0, 0);
    }
  cairo_restore (cr);
}

/**
 * tw_automaton_draw_empty_hint:
 *
 * What to do first, in the middle of the drawing of an automaton without states.
 */
void
tw_automaton_draw_empty_hint (cairo_t                 *cr,
                              const TwAutomatonColors *c,
                              int                      width,
                              int                      height)
{
  tw_automaton_set_rgb (cr, c->muted);
  tw_automaton_draw_text (cr, "DejaVu Sans Bold 12", "An empty automaton", width / 2.0,
                          height / 2.0 - 14, 0.5, 0.5);
  tw_automaton_draw_text (cr, "DejaVu Sans 8.5",
                          "Add states from the palette or double-click here, then drag from a state's rim to another state",
                          width / 2.0, height / 2.0 + 10, 0.5, 0.5);
}
