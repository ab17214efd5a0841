/* tw-automaton-painter.h: draws a metric automaton on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <tw-automaton.h>

#include "tw-automaton-edges.h"
#include "tw-automaton-layout.h"
#include "tw-automaton-style.h"
#include "tw-palette.h"

G_BEGIN_DECLS

/* Radius of a state, in model units (one model unit is one pixel at zoom 1). */
#define TW_AUTOMATON_STATE_RADIUS 26.0
/* Width of the band around a state's outline from which a drag draws a transition. */
#define TW_AUTOMATON_RIM_WIDTH    9.0

/**
 * TwAutomatonViewport:
 * @width: width of the drawing, px
 * @height: height of the drawing, px
 * @zoom: px per model unit
 * @pan_x: x of the model origin on the drawing, px
 * @pan_y: y of the model origin on the drawing, px
 * @selected_state: index of the selected state, or -1
 * @selected_transition: index of the selected transition, or -1
 * @active_state: index of the state to light up (step mode), or -1
 * @visits: (nullable) (array length=n_visits): visits per state index, drawn as badges
 * @n_visits: length of @visits
 * @pending_from: state a transition is being dragged from, or -1
 * @pending_x: the pointer's x while dragging a transition, px
 * @pending_y: the pointer's y while dragging a transition, px
 * @show_legend: draw the legend of state kinds
 * @show_problems: mark validation problems on the states and list them
 * @palette: (nullable): the theme's colours; %NULL for the light style
 *
 * What to draw. Screen px = model units × @zoom + pan.
 */
typedef struct {
  int                width;
  int                height;
  double             zoom;
  double             pan_x;
  double             pan_y;
  int                selected_state;
  int                selected_transition;
  int                active_state;
  const guint       *visits;
  guint              n_visits;
  int                pending_from;
  double             pending_x;
  double             pending_y;
  gboolean           show_legend;
  gboolean           show_problems;
  const TwPalette   *palette;
} TwAutomatonViewport;

void tw_automaton_viewport_init (TwAutomatonViewport *viewport,
                                 int                  width,
                                 int                  height);

typedef enum {
  TW_AUTOMATON_HIT_NONE,        /* empty canvas */
  TW_AUTOMATON_HIT_STATE,       /* inside a state */
  TW_AUTOMATON_HIT_STATE_RIM,   /* on a state's outline: where a drag connects */
  TW_AUTOMATON_HIT_TRANSITION,  /* on a transition's line or label */
} TwAutomatonHitKind;

typedef struct {
  TwAutomatonHitKind kind;
  int                index;   /* state or transition index, -1 for none */
} TwAutomatonHit;

#define TW_TYPE_AUTOMATON_PAINTER (tw_automaton_painter_get_type ())
G_DECLARE_FINAL_TYPE (TwAutomatonPainter, tw_automaton_painter, TW, AUTOMATON_PAINTER, GObject)

TwAutomatonPainter *tw_automaton_painter_new                (TwAutomaton               *automaton);
TwAutomaton        *tw_automaton_painter_get_automaton      (TwAutomatonPainter        *self);
void                tw_automaton_painter_set_automaton      (TwAutomatonPainter        *self,
                                                             TwAutomaton               *automaton);
void                tw_automaton_painter_set_routes         (TwAutomatonPainter        *self,
                                                             GPtrArray                 *routes);
void                tw_automaton_painter_draw               (TwAutomatonPainter        *self,
                                                             cairo_t                   *cr,
                                                             const TwAutomatonViewport *viewport);
void                tw_automaton_painter_hit_test           (TwAutomatonPainter        *self,
                                                             const TwAutomatonViewport *viewport,
                                                             double                     x,
                                                             double                     y,
                                                             TwAutomatonHit            *hit);
gboolean            tw_automaton_painter_get_label_position (TwAutomatonPainter        *self,
                                                             const TwAutomatonViewport *viewport,
                                                             guint                      transition,
                                                             double                    *x,
                                                             double                    *y);
gboolean            tw_automaton_painter_get_bounds         (TwAutomatonPainter        *self,
                                                             double                    *x,
                                                             double                    *y,
                                                             double                    *width,
                                                             double                    *height);
GPtrArray          *tw_automaton_painter_get_problems       (TwAutomatonPainter        *self);

void                tw_automaton_viewport_to_screen         (const TwAutomatonViewport *viewport,
                                                             double                     mx,
                                                             double                     my,
                                                             double                    *sx,
                                                             double                    *sy);
void                tw_automaton_viewport_to_model          (const TwAutomatonViewport *viewport,
                                                             double                     sx,
                                                             double                     sy,
                                                             double                    *mx,
                                                             double                    *my);

G_END_DECLS
