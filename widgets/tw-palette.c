/* tw-palette.c: the theme's colours, for painters that draw on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-palette.h"

/* Adwaita's light view: white, with the dark grey it writes on and its blue accent */
static const TwPalette light_palette = {
  { 1.0, 1.0, 1.0 },
  { 0.14, 0.14, 0.16 },
  FALSE,
  { 0.11, 0.44, 0.85 },
};

/* Adwaita's accent on dark backgrounds, for themes that name none */
static const double dark_accent[3] = { 0.47, 0.68, 0.93 };

/* Rec. 709 luma of gamma-encoded values: enough to tell a dark background from a light one */
static double
luma (const double rgb[3])
{
  return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];
}

/**
 * tw_palette_init_light:
 *
 * Dark text on white: exported images and the command line's drawings.
 */
void
tw_palette_init_light (TwPalette *self)
{
  *self = light_palette;
}

/**
 * tw_palette_or_light:
 * @self: (nullable): a palette
 *
 * Returns: (transfer none): @self, or the light palette when it is %NULL
 */
const TwPalette *
tw_palette_or_light (const TwPalette *self)
{
  return self ? self : &light_palette;
}

/**
 * tw_palette_init_from_widget:
 *
 * The colours @widget is drawn with now: its CSS colour over the theme's view background
 * (`view_bg_color`, GTK 3's `theme_base_color` for themes that lack it). Themes write
 * text as a translucent colour; the palette holds it composited over the background.
 */
void
tw_palette_init_from_widget (TwPalette *self,
                             GtkWidget *widget)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  GdkRGBA fg, bg, accent;

  gtk_style_context_get_color (context, &fg);
  if (!gtk_style_context_lookup_color (context, "view_bg_color", &bg)
      && !gtk_style_context_lookup_color (context, "theme_base_color", &bg))
    {
      /* a theme without named colours: the background opposite to the text */
      double text[3] = { fg.red, fg.green, fg.blue };

      bg = luma (text) > 0.5 ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
    }

  self->background[0] = bg.red;
  self->background[1] = bg.green;
  self->background[2] = bg.blue;
  self->foreground[0] = fg.red * fg.alpha + bg.red * (1 - fg.alpha);
  self->foreground[1] = fg.green * fg.alpha + bg.green * (1 - fg.alpha);
  self->foreground[2] = fg.blue * fg.alpha + bg.blue * (1 - fg.alpha);
  self->dark = luma (self->background) < 0.5;
  if (gtk_style_context_lookup_color (context, "accent_color", &accent))
    {
      self->accent[0] = accent.red;
      self->accent[1] = accent.green;
      self->accent[2] = accent.blue;
    }
  else
    memcpy (self->accent, self->dark ? dark_accent : light_palette.accent, sizeof self->accent);
}

/**
 * tw_palette_mix:
 * @amount: 0 for the background, 1 for the foreground
 * @rgb: (out caller-allocates) (array fixed-size=3): the colour between them
 *
 * Greys of the chrome (grid lines, stripes, dimmed text) as a share of the text colour,
 * so they keep their contrast on a dark background as on a light one.
 */
void
tw_palette_mix (const TwPalette *self,
                double           amount,
                double           rgb[3])
{
  for (int i = 0; i < 3; i++)
    rgb[i] = self->background[i] + (self->foreground[i] - self->background[i]) * amount;
}
