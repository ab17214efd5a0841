/* tw-automaton-style.h: how the designer draws automata: colours, state shapes and names
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pango.h>
#include <tw-automaton.h>

#include "tw-palette.h"

G_BEGIN_DECLS

/* Length of a transition's arrowhead, model units. */
#define TW_AUTOMATON_ARROW_LENGTH 11.0

/* The canvas's chrome follows the theme; accent, error and the step-mode highlight keep
 * their GNOME colours on either background. */
typedef struct {
  double bg[3];
  double grid[3];
  double ink[3];
  double edge[3];
  double muted[3];
  double card[3];
  double border[3];
  double accent[3];
  double error[3];
  double active[3];
} TwAutomatonColors;

void        tw_automaton_colors_init             (TwAutomatonColors *self,
                                                  const TwPalette   *palette);

void        tw_automaton_painter_draw_state_icon (cairo_t           *cr,
                                                  TwStateKind        kind,
                                                  double             x,
                                                  double             y,
                                                  double             radius);
double      tw_automaton_state_radius            (PangoContext      *context,
                                                  const char        *name);
void        tw_automaton_draw_state_name         (cairo_t           *cr,
                                                  TwStateKind        kind,
                                                  const char        *name,
                                                  double             x,
                                                  double             y,
                                                  double             radius);
void        tw_automaton_state_kind_get_fill     (TwStateKind        kind,
                                                  double             rgb[3]);
void        tw_automaton_state_kind_get_stroke   (TwStateKind        kind,
                                                  double             rgb[3]);
void        tw_automaton_painter_get_error_color (double             rgb[3]);
const char *tw_automaton_state_kind_describe     (TwStateKind        kind);

void        tw_automaton_set_rgb                 (cairo_t           *cr,
                                                  const double       rgb[3]);
void        tw_automaton_set_rgba                (cairo_t           *cr,
                                                  const double       rgb[3],
                                                  double             alpha);
void        tw_automaton_draw_text               (cairo_t           *cr,
                                                  const char        *font,
                                                  const char        *text,
                                                  double             x,
                                                  double             y,
                                                  double             align_x,
                                                  double             align_y);
void        tw_automaton_rounded_rect            (cairo_t           *cr,
                                                  double             x,
                                                  double             y,
                                                  double             w,
                                                  double             h,
                                                  double             r);
void        tw_automaton_draw_arrow_head         (cairo_t           *cr,
                                                  double             tip_x,
                                                  double             tip_y,
                                                  double             ux,
                                                  double             uy,
                                                  double             scale);

G_END_DECLS
