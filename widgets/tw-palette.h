/* tw-palette.h: the theme's colours, for painters that draw on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * TwPalette:
 * @background: what a view is painted on
 * @foreground: its text
 * @dark: the background is dark (light text on it)
 * @accent: the theme's accent colour (`accent_color`), for what the user asked to see
 *
 * Painters take the chrome of a drawing (background, grid, axes, text) from a palette and
 * keep the colours that carry data (task colours, bars, irq kinds) their own, tuned to be
 * told apart on either background. A widget fills one from its style at every draw;
 * exported images use the light one, as they end up in documents.
 */
typedef struct {
  double   background[3];
  double   foreground[3];
  gboolean dark;
  double   accent[3];
} TwPalette;

void            tw_palette_init_light       (TwPalette       *self);
void            tw_palette_init_from_widget (TwPalette       *self,
                                             GtkWidget       *widget);
void            tw_palette_mix              (const TwPalette *self,
                                             double           amount,
                                             double           rgb[3]);
const TwPalette *tw_palette_or_light        (const TwPalette *self);

G_END_DECLS
