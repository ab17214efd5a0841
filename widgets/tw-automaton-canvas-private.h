/* tw-automaton-canvas-private.h: the canvas's state, shared by its input and actions files
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-automaton-document.h>

#include "tw-automaton-canvas.h"

G_BEGIN_DECLS

#define TW_AUTOMATON_CANVAS_ZOOM_STEP 1.2

typedef enum {
  TW_CANVAS_DRAG_NONE,
  TW_CANVAS_DRAG_MOVE,
  TW_CANVAS_DRAG_CONNECT,
  TW_CANVAS_DRAG_PAN,
} TwCanvasDragMode;

struct _TwAutomatonCanvas
{
  GtkWidget            parent_instance;

  /* child widgets */
  GtkWidget           *toolbar;
  GtkWidget           *area;
  GtkWidget           *context_menu;
  GtkWidget           *label_editor;

  /* owned references */
  TwAutomatonDocument *document;
  TwAutomatonPainter  *painter;

  /* the view: model units × zoom + pan = px of the area */
  double               zoom;
  double               pan_x;
  double               pan_y;
  gboolean             fit_pending;     /* zoom to fit at the next allocation */

  int                  selected_state;       /* index or -1 */
  int                  selected_transition;  /* index or -1 */
  int                  active_state;         /* step mode's current state or -1 */
  GArray              *visits;               /* guint per state, step mode */
  TwStateKind          double_click_kind;    /* the palette's last kind */

  /* the pointer */
  TwCanvasDragMode     drag_mode;
  int                  drag_state;
  double               drag_origin_x;   /* state position (model) or pan (px) at drag begin */
  double               drag_origin_y;
  gboolean             drag_moved;
  int                  pending_from;    /* state a transition is dragged from, or -1 */
  double               pending_x;       /* px */
  double               pending_y;
  double               pointer_x;       /* px, last motion */
  double               pointer_y;
};

void       _tw_automaton_canvas_class_add_actions  (GtkWidgetClass    *widget_class);
GtkWidget *_tw_automaton_canvas_build_toolbar      (void);
GtkWidget *_tw_automaton_canvas_build_context_menu (void);
void       _tw_automaton_canvas_update_actions     (TwAutomatonCanvas *self);
void       _tw_automaton_canvas_add_controllers    (TwAutomatonCanvas *self);

G_END_DECLS
