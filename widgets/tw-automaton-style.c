/* tw-automaton-style.c: how the designer draws automata: colours, state shapes and names
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "tw-automaton-painter.h"
#include "tw-automaton-style.h"

#define R TW_AUTOMATON_STATE_RADIUS
#define ARROW_HALF 5.0

/* GNOME HIG colours that mean something whatever the theme */
static const double COLOR_ACCENT[3] = { 0x35 / 255., 0x84 / 255., 0xe4 / 255. };
static const double COLOR_ERROR[3]  = { 0xe0 / 255., 0x1b / 255., 0x24 / 255. };
static const double COLOR_ACTIVE[3] = { 0xf5 / 255., 0xc2 / 255., 0x11 / 255. };
/* a state's inside keeps its colour on a dark canvas, so its name keeps this ink */
static const double STATE_INK[3]    = { 0x24 / 255., 0x1f / 255., 0x31 / 255. };

/* Names are written as large as fits inside the circle: one line in these fonts, then
 * two lines in the last, ellipsized; the canvas's tooltip shows the whole name. */
static const char *const NAME_FONTS[] = {
  "DejaVu Sans Bold 10", "DejaVu Sans Bold 8.5", "DejaVu Sans Bold 7.5", "DejaVu Sans Bold 6.5",
};
#define NAME_PAD 2.5   /* px between a name's ink and the middle of the outline */
#define MAX_RADIUS_SCALE 2.0

static const struct {
  double fill[3];
  double stroke[3];
  gboolean light_text;
  const char *description;
} kind_style[TW_N_STATE_KINDS] = {
  [TW_STATE_KIND_BEGIN]  = { { 0xe3 / 255., 0xf7 / 255., 0xea / 255. },
                             { 0x26 / 255., 0xa2 / 255., 0x69 / 255. }, FALSE,
                             "opens a measurement" },
  [TW_STATE_KIND_END]    = { { 0x3d / 255., 0x38 / 255., 0x46 / 255. },
                             { 0x24 / 255., 0x1f / 255., 0x31 / 255. }, TRUE,
                             "reports the measurement" },
  [TW_STATE_KIND_CANCEL] = { { 0xfc / 255., 0xe6 / 255., 0xe7 / 255. },
                             { 0xc0 / 255., 0x1c / 255., 0x28 / 255. }, FALSE,
                             "drops the measurement" },
  [TW_STATE_KIND_IN]     = { { 0x35 / 255., 0x84 / 255., 0xe4 / 255. },
                             { 0x1a / 255., 0x5f / 255., 0xb4 / 255. }, TRUE,
                             "time counts" },
  [TW_STATE_KIND_OUT]    = { { 1, 1, 1 },
                             { 0x3d / 255., 0x38 / 255., 0x46 / 255. }, FALSE,
                             "time does not count" },
  [TW_STATE_KIND_COND]   = { { 0xfd / 255., 0xf3 / 255., 0xd6 / 255. },
                             { 0xc6 / 255., 0x46 / 255., 0x00 / 255. }, FALSE,
                             "counts if an in state follows" },
};


static TwStateKind
clamp_kind (TwStateKind kind)
{
  return (guint) kind < TW_N_STATE_KINDS ? kind : TW_STATE_KIND_OUT;
}

/**
 * tw_automaton_colors_init:
 * @palette: (nullable): the theme's colours; %NULL for the light style
 *
 * The light style is GNOME's HIG palette: a #fafafa canvas with #deddda dots, #241f31
 * ink; other themes get the same shares of their text colour over their background.
 */
void
tw_automaton_colors_init (TwAutomatonColors *self,
                          const TwPalette   *palette)
{
  palette = tw_palette_or_light (palette);

  tw_palette_mix (palette, 0.02, self->bg);
  tw_palette_mix (palette, palette->dark ? 0.2 : 0.15, self->grid);
  tw_palette_mix (palette, 1, self->ink);
  tw_palette_mix (palette, 0.73, self->edge);
  tw_palette_mix (palette, 0.62, self->muted);
  tw_palette_mix (palette, palette->dark ? 0.09 : 0, self->card);
  tw_palette_mix (palette, 0.29, self->border);
  memcpy (self->accent, COLOR_ACCENT, sizeof COLOR_ACCENT);
  memcpy (self->error, COLOR_ERROR, sizeof COLOR_ERROR);
  memcpy (self->active, COLOR_ACTIVE, sizeof COLOR_ACTIVE);
}

/**
 * tw_automaton_state_kind_get_fill:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour inside a state of @kind,
 *   as drawn below its id (at 0.6 × radius under the centre)
 */
void
tw_automaton_state_kind_get_fill (TwStateKind kind,
                                  double      rgb[3])
{
  memcpy (rgb, kind_style[clamp_kind (kind)].fill, 3 * sizeof (double));
}

/**
 * tw_automaton_state_kind_get_stroke:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour of the outline of @kind
 */
void
tw_automaton_state_kind_get_stroke (TwStateKind kind,
                                    double      rgb[3])
{
  memcpy (rgb, kind_style[clamp_kind (kind)].stroke, 3 * sizeof (double));
}

/**
 * tw_automaton_painter_get_error_color:
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour of validation problems
 */
void
tw_automaton_painter_get_error_color (double rgb[3])
{
  memcpy (rgb, COLOR_ERROR, sizeof COLOR_ERROR);
}

/**
 * tw_automaton_state_kind_describe:
 *
 * Returns: (transfer none): what a visit to a state of @kind does, for legends and tooltips
 */
const char *
tw_automaton_state_kind_describe (TwStateKind kind)
{
  return kind_style[clamp_kind (kind)].description;
}

/**
 * tw_automaton_painter_draw_state_icon:
 *
 * Draws the shape of a state of @kind centred on (@x, @y): the legend's, the palette's
 * and the canvas's states all come from here.
 */
void
tw_automaton_painter_draw_state_icon (cairo_t     *cr,
                                      TwStateKind  kind,
                                      double       x,
                                      double       y,
                                      double       radius)
{
  /* line widths follow the size of small icons, so they look like states; a state grown
   * for its name keeps the usual outline */
  double k = MIN (radius / R, 1.0);

  kind = clamp_kind (kind);
  cairo_save (cr);
  cairo_new_path (cr);
  cairo_arc (cr, x, y, radius, 0, 2 * G_PI);
  tw_automaton_set_rgb (cr, kind_style[kind].fill);
  cairo_fill_preserve (cr);
  tw_automaton_set_rgb (cr, kind_style[kind].stroke);
  cairo_set_line_width (cr, MAX (2.2 * k, 1.0));
  switch (kind)
    {
    case TW_STATE_KIND_BEGIN:
      cairo_set_line_width (cr, MAX (2.8 * k, 1.2));
      cairo_stroke (cr);
      cairo_arc (cr, x, y, radius - 5 * k, 0, 2 * G_PI);
      cairo_set_line_width (cr, MAX (1.6 * k, 0.8));
      cairo_stroke (cr);
      break;
    case TW_STATE_KIND_END:
      cairo_set_line_width (cr, MAX (2.8 * k, 1.2));
      cairo_stroke (cr);
      cairo_arc (cr, x, y, radius - 5 * k, 0, 2 * G_PI);
      cairo_set_source_rgba (cr, 1, 1, 1, 0.85);
      cairo_set_line_width (cr, MAX (1.6 * k, 0.8));
      cairo_stroke (cr);
      break;
    case TW_STATE_KIND_CANCEL:
      cairo_stroke (cr);
      {
        /* the cross stops short of the centre, where the state's id goes */
        double outer = radius * 0.7, inner = radius * 0.36;
        for (int q = 0; q < 4; q++)
          {
            double angle = G_PI / 4 + q * G_PI / 2;
            cairo_move_to (cr, x + inner * cos (angle), y + inner * sin (angle));
            cairo_line_to (cr, x + outer * cos (angle), y + outer * sin (angle));
          }
        tw_automaton_set_rgba (cr, kind_style[kind].stroke, 0.55);
        cairo_set_line_width (cr, MAX (2.4 * k, 1.0));
        cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
        cairo_stroke (cr);
      }
      break;
    case TW_STATE_KIND_COND:
      {
        double dash[2] = { 6 * k, 4 * k };
        cairo_set_dash (cr, dash, 2, 0);
        cairo_set_line_width (cr, MAX (2.6 * k, 1.0));
        cairo_stroke (cr);
      }
      break;
    case TW_STATE_KIND_IN:
    case TW_STATE_KIND_OUT:
    case TW_N_STATE_KINDS:
    default:
      cairo_stroke (cr);
      break;
    }
  cairo_restore (cr);
}


/* Half the width of the circle of @radius at @dy from its centre. */
static double
half_chord (double radius,
            double dy)
{
  return dy >= radius ? 0 : sqrt (radius * radius - dy * dy);
}

/* The ink of @layout's text in @font (NULL: as set), px: what must stay inside. */
static PangoRectangle
name_ink (PangoLayout *layout,
          const char  *font)
{
  PangoRectangle ink;

  if (font)
    {
      PangoFontDescription *desc = pango_font_description_from_string (font);

      pango_layout_set_font_description (layout, desc);
      pango_font_description_free (desc);
    }
  pango_layout_get_pixel_extents (layout, &ink, NULL);
  return ink;
}

/* Whether @ink, centred, lies inside a circle of @radius: its corners do. */
static gboolean
ink_fits (const PangoRectangle *ink,
          double                radius)
{
  return hypot (ink->width / 2.0, ink->height / 2.0) + NAME_PAD <= radius;
}

/**
 * tw_automaton_state_radius:
 * @context: where the name is measured
 *
 * Returns: the radius of the state named @name: TW_AUTOMATON_STATE_RADIUS when its name
 *   fits inside in one of the two larger fonts, else large enough for the second (up to
 *   twice the usual radius; longer names wrap inside)
 */
double
tw_automaton_state_radius (PangoContext *context,
                           const char   *name)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (context);
  double need = 0;

  pango_layout_set_text (layout, name, -1);
  for (guint f = 0; f < 2; f++)
    {
      PangoRectangle ink = name_ink (layout, NAME_FONTS[f]);

      /* 1 px spares rounding between the measuring context and the drawing one */
      need = hypot (ink.width / 2.0, ink.height / 2.0) + NAME_PAD + 1;
      if (need <= R)
        return R;
    }
  return MIN (need, MAX_RADIUS_SCALE * R);
}

/**
 * tw_automaton_draw_state_name:
 * @radius: the state's radius in the units of @cr
 *
 * Writes @name inside the state centred on (@x, @y): in the largest font whose line
 * fits between the outline, else on two lines, ellipsized when even those overflow; a
 * name never spills out over the canvas.
 */
void
tw_automaton_draw_state_name (cairo_t     *cr,
                              TwStateKind  kind,
                              const char  *name,
                              double       x,
                              double       y,
                              double       radius)
{
  g_autoptr(PangoLayout) layout = pango_cairo_create_layout (cr);
  g_autoptr(GString) breakable = g_string_new (NULL);
  PangoRectangle ink = { 0 };

  if (kind_style[clamp_kind (kind)].light_text)
    cairo_set_source_rgb (cr, 1, 1, 1);
  else
    tw_automaton_set_rgb (cr, STATE_INK);
  pango_layout_set_text (layout, name, -1);
  for (guint f = 0; f < G_N_ELEMENTS (NAME_FONTS); f++)
    if (ink_fits ((ink = name_ink (layout, NAME_FONTS[f]), &ink), radius))
      break;
  if (!ink_fits (&ink, radius))
    {
      /* two lines in the smallest font, as wide as the circle is where they end,
       * broken after the separators of identifiers (zero-width spaces) before
       * anywhere inside a word, the rest ellipsized */
      double line_h = ink.height;

      for (const char *p = name; *p; p = g_utf8_next_char (p))
        {
          g_string_append_unichar (breakable, g_utf8_get_char (p));
          if (strchr ("_-.:/", *p))
            g_string_append (breakable, "\u200b");
        }
      pango_layout_set_text (layout, breakable->str, -1);
      pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
      pango_layout_set_width (layout, (int) (2 * (half_chord (radius, line_h) - NAME_PAD) * PANGO_SCALE));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
      pango_layout_set_height (layout, -2);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      ink = name_ink (layout, NULL);
    }
  cairo_move_to (cr, x - ink.x - ink.width / 2.0, y - ink.y - ink.height / 2.0);
  pango_cairo_show_layout (cr, layout);
  cairo_new_path (cr);
}

void
tw_automaton_set_rgb (cairo_t      *cr,
                      const double  rgb[3])
{
  cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
}

void
tw_automaton_set_rgba (cairo_t      *cr,
                       const double  rgb[3],
                       double        alpha)
{
  cairo_set_source_rgba (cr, rgb[0], rgb[1], rgb[2], alpha);
}

/**
 * tw_automaton_draw_text:
 * @align_x: 0 puts the text's left at @x, 0.5 centres it, 1 puts its right there
 * @align_y: the same for @y
 *
 * Writes one line of @text in @font with the current source.
 */
void
tw_automaton_draw_text (cairo_t    *cr,
                        const char *font,
                        const char *text,
                        double      x,
                        double      y,
                        double      align_x,
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

/**
 * tw_automaton_rounded_rect:
 *
 * Adds a rectangle with corners of radius @r (at most half its shorter side) to the path.
 */
void
tw_automaton_rounded_rect (cairo_t *cr,
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

/**
 * tw_automaton_draw_arrow_head:
 * @ux: x of the unit vector the arrow points along
 * @uy: its y
 * @scale: 1 for the size of a transition's arrow
 *
 * Fills an arrowhead whose tip is at (@tip_x, @tip_y).
 */
void
tw_automaton_draw_arrow_head (cairo_t *cr,
                              double   tip_x,
                              double   tip_y,
                              double   ux,
                              double   uy,
                              double   scale)
{
  double bx = tip_x - ux * TW_AUTOMATON_ARROW_LENGTH * scale;
  double by = tip_y - uy * TW_AUTOMATON_ARROW_LENGTH * scale;

  cairo_move_to (cr, tip_x, tip_y);
  cairo_line_to (cr, bx - uy * ARROW_HALF * scale, by + ux * ARROW_HALF * scale);
  cairo_line_to (cr, bx + uy * ARROW_HALF * scale, by - ux * ARROW_HALF * scale);
  cairo_close_path (cr);
  cairo_fill (cr);
}
