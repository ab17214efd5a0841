/* tw-automaton-canvas.c: the metric-automaton designer: an editable canvas with a palette
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-automaton-canvas-private.h"
#include "tw-automaton-label-editor.h"

#include <tw-automaton-file.h>

/*
 * The canvas is a view of a TwAutomatonDocument: a toolbar (tw-automaton-canvas-actions.c)
 * above a drawing area whose drawing and hit testing are the painter's, and whose pointer
 * input is tw-automaton-canvas-input.c. Edits go to the document, which records them for
 * undo and says ::changed; the canvas then redraws. The canvas's own state is only the
 * view: zoom, pan, selection and the step mode's highlight.
 *
 * Edits that only change the automaton are the document's own (get it with
 * tw_automaton_canvas_get_document()); the few here are those the view takes part in: a
 * new state or transition is selected, a removed one is not, undo closes the label
 * editor, a layout brings its edge routes.
 */

#define ZOOM_MIN 0.2
#define ZOOM_MAX 4.0

enum {
  SIGNAL_CHANGED,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAutomatonCanvas, tw_automaton_canvas, GTK_TYPE_WIDGET)

static TwAutomaton *
automaton (TwAutomatonCanvas *self)
{
  return tw_automaton_document_get_automaton (self->document);
}

static void
clamp_selection (TwAutomatonCanvas *self)
{
  if (self->selected_state >= (int) tw_automaton_get_n_states (automaton (self)))
    self->selected_state = -1;
  if (self->selected_transition >= (int) tw_automaton_get_n_transitions (automaton (self)))
    self->selected_transition = -1;
}

static void
document_changed_cb (TwAutomatonCanvas *self)
{
  clamp_selection (self);
  _tw_automaton_canvas_update_actions (self);
  gtk_widget_queue_draw (self->area);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
document_automaton_cb (TwAutomatonCanvas *self)
{
  tw_automaton_painter_set_automaton (self->painter, automaton (self));
}

static void
popdown_label_editor (TwAutomatonCanvas *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->label_editor));
}

/* ---- edits ---- */

/**
 * tw_automaton_canvas_undo:
 *
 * Returns: %TRUE when there was an edit to undo
 */
gboolean
tw_automaton_canvas_undo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  popdown_label_editor (self);
  return tw_automaton_document_undo (self->document);
}

/**
 * tw_automaton_canvas_redo:
 *
 * Returns: %TRUE when there was an undone edit to redo
 */
gboolean
tw_automaton_canvas_redo (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);

  popdown_label_editor (self);
  return tw_automaton_document_redo (self->document);
}

/**
 * tw_automaton_canvas_add_state:
 *
 * Adds a state (see tw_automaton_document_add_state()) and selects it.
 *
 * Returns: the new state's index
 */
int
tw_automaton_canvas_add_state (TwAutomatonCanvas *self,
                               TwStateKind        kind,
                               double             x,
                               double             y)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);
  g_return_val_if_fail ((guint) kind < TW_N_STATE_KINDS, -1);

  /* selected before the document says ::changed, so its listeners see the selection */
  self->selected_state = tw_automaton_get_n_states (automaton (self));
  self->selected_transition = -1;
  return tw_automaton_document_add_state (self->document, kind, x, y);
}

void
tw_automaton_canvas_remove_state (TwAutomatonCanvas *self,
                                  guint              state)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_state = -1;
  self->selected_transition = -1;
  tw_automaton_document_remove_state (self->document, state);
}

/**
 * tw_automaton_canvas_connect:
 *
 * Adds a transition (see tw_automaton_document_connect()) and selects it.
 *
 * Returns: the new transition's index
 */
int
tw_automaton_canvas_connect (TwAutomatonCanvas *self,
                             guint              from,
                             guint              to,
                             TwLabelKind        label,
                             const char        *event,
                             TwTaskMatch        task,
                             TwTaskField        task_field)
{
  guint n;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);
  n = tw_automaton_get_n_states (automaton (self));
  g_return_val_if_fail (from < n && to < n, -1);

  self->selected_state = -1;
  self->selected_transition = tw_automaton_get_n_transitions (automaton (self));
  return tw_automaton_document_connect (self->document, from, to, label, event, task, task_field);
}

void
tw_automaton_canvas_remove_transition (TwAutomatonCanvas *self,
                                       guint              transition)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_transition = -1;
  tw_automaton_document_remove_transition (self->document, transition);
}

/**
 * tw_automaton_canvas_delete_selection:
 *
 * Removes the selected state (with its transitions) or the selected transition.
 */
void
tw_automaton_canvas_delete_selection (TwAutomatonCanvas *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  if (self->selected_state >= 0)
    tw_automaton_canvas_remove_state (self, self->selected_state);
  else if (self->selected_transition >= 0)
    tw_automaton_canvas_remove_transition (self, self->selected_transition);
}

/**
 * tw_automaton_canvas_auto_layout:
 *
 * Arranges all states with tw_automaton_layout_full(), as one undoable step, draws
 * the transitions along the layout's routes and shows the result whole.
 */
void
tw_automaton_canvas_auto_layout (TwAutomatonCanvas *self)
{
  g_autoptr(GPtrArray) routes = NULL;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  tw_automaton_document_begin_edit (self->document);
  routes = tw_automaton_layout_full (automaton (self));
  tw_automaton_painter_set_routes (self->painter, routes);
  tw_automaton_document_end_edit (self->document);
  tw_automaton_canvas_zoom_to_fit (self);
}

/* ---- viewport ---- */

/**
 * tw_automaton_canvas_get_viewport:
 * @viewport: (out caller-allocates): what the drawing area shows now
 */
void
tw_automaton_canvas_get_viewport (TwAutomatonCanvas   *self,
                                  TwAutomatonViewport *vp)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  tw_automaton_viewport_init (vp, gtk_widget_get_width (self->area),
                              gtk_widget_get_height (self->area));
  vp->zoom = self->zoom;
  vp->pan_x = self->pan_x;
  vp->pan_y = self->pan_y;
  vp->selected_state = self->selected_state;
  vp->selected_transition = self->selected_transition;
  vp->active_state = self->active_state;
  if (self->visits->len > 0)
    {
      vp->visits = (const guint *) self->visits->data;
      vp->n_visits = self->visits->len;
    }
  vp->pending_from = self->pending_from;
  vp->pending_x = self->pending_x;
  vp->pending_y = self->pending_y;
}

/**
 * tw_automaton_canvas_zoom_to_fit:
 *
 * Shows the whole automaton, at most at zoom 1.5; before the canvas has a size, it does
 * so at its first allocation.
 */
void
tw_automaton_canvas_zoom_to_fit (TwAutomatonCanvas *self)
{
  int w = gtk_widget_get_width (self->area), h = gtk_widget_get_height (self->area);
  double bx, by, bw, bh;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  if (w <= 1 || h <= 1)
    {
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;
  if (!tw_automaton_painter_get_bounds (self->painter, &bx, &by, &bw, &bh))
    {
      self->zoom = 1;
      self->pan_x = self->pan_y = 0;
      gtk_widget_queue_draw (self->area);
      return;
    }
  /* leave room for the legend (top right) and the problem list (bottom) */
  self->zoom = CLAMP (MIN ((w - 300.0) / bw, (h - 60.0) / bh), ZOOM_MIN, 1.5);
  if (w - 300.0 < bw * ZOOM_MIN)
    self->zoom = CLAMP (MIN ((w - 40.0) / bw, (h - 40.0) / bh), ZOOM_MIN, 1.5);
  self->pan_x = 20 - bx * self->zoom + MAX (0, (w - 290.0 - bw * self->zoom) / 2);
  self->pan_y = (h - bh * self->zoom) / 2 - by * self->zoom;
  gtk_widget_queue_draw (self->area);
}

/**
 * tw_automaton_canvas_set_zoom:
 * @anchor_x: px x that stays over the same model point
 * @anchor_y: px y that stays over the same model point
 */
void
tw_automaton_canvas_set_zoom (TwAutomatonCanvas *self,
                              double             zoom,
                              double             anchor_x,
                              double             anchor_y)
{
  double mx, my;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  zoom = CLAMP (zoom, ZOOM_MIN, ZOOM_MAX);
  mx = (anchor_x - self->pan_x) / self->zoom;
  my = (anchor_y - self->pan_y) / self->zoom;
  self->zoom = zoom;
  self->pan_x = anchor_x - mx * zoom;
  self->pan_y = anchor_y - my * zoom;
  gtk_widget_queue_draw (self->area);
}

/* ---- selection and step view ---- */

void
tw_automaton_canvas_select_state (TwAutomatonCanvas *self,
                                  int                state)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_state = state < (int) tw_automaton_get_n_states (automaton (self)) ? MAX (state, -1) : -1;
  self->selected_transition = -1;
  _tw_automaton_canvas_update_actions (self);
  gtk_widget_queue_draw (self->area);
}

void
tw_automaton_canvas_select_transition (TwAutomatonCanvas *self,
                                       int                transition)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->selected_transition = transition < (int) tw_automaton_get_n_transitions (automaton (self))
                              ? MAX (transition, -1) : -1;
  self->selected_state = -1;
  _tw_automaton_canvas_update_actions (self);
  gtk_widget_queue_draw (self->area);
}

int
tw_automaton_canvas_get_selected_state (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);

  return self->selected_state;
}

int
tw_automaton_canvas_get_selected_transition (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), -1);

  return self->selected_transition;
}

/**
 * tw_automaton_canvas_set_step_view:
 * @active_state: the state index to light up, or -1
 * @visits: (nullable) (array length=n_visits): visits per state index, or %NULL for none
 *
 * What the step mode shows; it is not an edit.
 */
void
tw_automaton_canvas_set_step_view (TwAutomatonCanvas *self,
                                   int                active_state,
                                   const guint       *visits,
                                   guint              n_visits)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  self->active_state = active_state;
  g_array_set_size (self->visits, 0);
  if (visits)
    g_array_append_vals (self->visits, visits, n_visits);
  gtk_widget_queue_draw (self->area);
}

/* ---- the label editor ---- */

static void
label_apply_cb (TwAutomatonLabelEditor *editor,
                guint                   transition,
                int                     label,
                const char             *event,
                int                     task,
                int                     task_field,
                TwAutomatonCanvas      *self)
{
  if (transition < tw_automaton_get_n_transitions (automaton (self)))
    tw_automaton_document_set_transition_label (self->document, transition, label, event, task,
                                                task_field);
}

static void
label_delete_cb (TwAutomatonLabelEditor *editor,
                 guint                   transition,
                 TwAutomatonCanvas      *self)
{
  if (transition < tw_automaton_get_n_transitions (automaton (self)))
    tw_automaton_canvas_remove_transition (self, transition);
}

static void
label_editor_closed_cb (TwAutomatonCanvas *self)
{
  gtk_widget_grab_focus (self->area);
}

/**
 * tw_automaton_canvas_edit_transition:
 *
 * Opens the label editor on a transition's label.
 */
void
tw_automaton_canvas_edit_transition (TwAutomatonCanvas *self,
                                     guint              transition)
{
  TwAutomatonViewport vp;
  double x, y;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (transition < tw_automaton_get_n_transitions (automaton (self)));

  tw_automaton_canvas_select_transition (self, transition);
  tw_automaton_label_editor_edit (TW_AUTOMATON_LABEL_EDITOR (self->label_editor), transition,
                                  tw_automaton_get_transition (automaton (self), transition));
  tw_automaton_canvas_get_viewport (self, &vp);
  if (!tw_automaton_painter_get_label_position (self->painter, &vp, transition, &x, &y))
    {
      x = vp.width / 2.0;
      y = vp.height / 2.0;
    }
  gtk_popover_set_pointing_to (GTK_POPOVER (self->label_editor),
                               &(GdkRectangle) { (int) x - 4, (int) y - 8, 8, 16 });
  if (gtk_widget_get_mapped (self->area))
    tw_automaton_label_editor_popup (TW_AUTOMATON_LABEL_EDITOR (self->label_editor));
}

/**
 * tw_automaton_canvas_set_event_names:
 * @names: (array zero-terminated=1) (nullable): the event names to offer in the label
 *   editor (the open trace's type names and the canonical kind names); sorted and
 *   de-duplicated here
 */
void
tw_automaton_canvas_set_event_names (TwAutomatonCanvas  *self,
                                     const char * const *names)
{
  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));

  tw_automaton_label_editor_set_event_names (TW_AUTOMATON_LABEL_EDITOR (self->label_editor), names);
}

/**
 * tw_automaton_canvas_get_event_completion:
 *
 * Returns: (transfer none): the completion of the label editor's event entry; its
 *   model's column 0 holds the names
 */
GtkEntryCompletion *
tw_automaton_canvas_get_event_completion (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return tw_automaton_label_editor_get_completion (TW_AUTOMATON_LABEL_EDITOR (self->label_editor));
}

/* ---- construction ---- */

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  TwAutomatonCanvas *self = user_data;
  TwAutomatonViewport vp;
  TwPalette palette;

  tw_automaton_canvas_get_viewport (self, &vp);
  tw_palette_init_from_widget (&palette, GTK_WIDGET (area));
  vp.width = width;
  vp.height = height;
  vp.palette = &palette;
  tw_automaton_painter_draw (self->painter, cr, &vp);
}

static void
area_resize_cb (GtkDrawingArea    *area,
                int                width,
                int                height,
                TwAutomatonCanvas *self)
{
  if (self->fit_pending)
    tw_automaton_canvas_zoom_to_fit (self);
}

static void
tw_automaton_canvas_dispose (GObject *object)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  if (self->document)
    g_signal_handlers_disconnect_by_data (self->document, self);
  g_clear_pointer (&self->label_editor, gtk_widget_unparent);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->toolbar, gtk_widget_unparent);
  g_clear_pointer (&self->area, gtk_widget_unparent);
  G_OBJECT_CLASS (tw_automaton_canvas_parent_class)->dispose (object);
}

static void
tw_automaton_canvas_finalize (GObject *object)
{
  TwAutomatonCanvas *self = TW_AUTOMATON_CANVAS (object);

  g_clear_object (&self->painter);
  g_clear_object (&self->document);
  g_clear_pointer (&self->visits, g_array_unref);
  G_OBJECT_CLASS (tw_automaton_canvas_parent_class)->finalize (object);
}

static void
tw_automaton_canvas_class_init (TwAutomatonCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_automaton_canvas_dispose;
  object_class->finalize = tw_automaton_canvas_finalize;

  /**
   * TwAutomatonCanvas::changed:
   *
   * The document's ::changed, after the canvas has followed it: emitted once after
   * every edit, undo and redo that changed the automaton, and when a new automaton is
   * set or loaded: the moment to re-run it over the trace.
   */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);

  _tw_automaton_canvas_class_add_actions (widget_class);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "automaton-canvas");
}

static void
build_area (TwAutomatonCanvas *self)
{
  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_vexpand (self->area, TRUE);
  gtk_widget_set_focusable (self->area, TRUE);
  gtk_widget_set_focus_on_click (self->area, TRUE);
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (self->area), 480);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self->area), 320);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_cb, self, NULL);
  gtk_widget_set_parent (self->area, GTK_WIDGET (self));
  g_signal_connect (self->area, "resize", G_CALLBACK (area_resize_cb), self);
  _tw_automaton_canvas_add_controllers (self);

  self->label_editor = tw_automaton_label_editor_new ();
  gtk_widget_set_parent (self->label_editor, self->area);
  g_signal_connect (self->label_editor, "apply", G_CALLBACK (label_apply_cb), self);
  g_signal_connect (self->label_editor, "delete", G_CALLBACK (label_delete_cb), self);
  g_signal_connect_swapped (self->label_editor, "closed", G_CALLBACK (label_editor_closed_cb), self);

  self->context_menu = _tw_automaton_canvas_build_context_menu ();
  gtk_widget_set_parent (self->context_menu, self->area);
}

static void
tw_automaton_canvas_init (TwAutomatonCanvas *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->document = tw_automaton_document_new ();
  self->painter = tw_automaton_painter_new (automaton (self));
  self->visits = g_array_new (FALSE, FALSE, sizeof (guint));
  self->zoom = 1;
  self->selected_state = -1;
  self->selected_transition = -1;
  self->active_state = -1;
  self->pending_from = -1;
  self->double_click_kind = TW_STATE_KIND_OUT;
  self->fit_pending = TRUE;
  g_signal_connect_swapped (self->document, "changed", G_CALLBACK (document_changed_cb), self);
  g_signal_connect_swapped (self->document, "notify::automaton", G_CALLBACK (document_automaton_cb), self);
  g_signal_connect_swapped (self->document, "notify::can-undo",
                            G_CALLBACK (_tw_automaton_canvas_update_actions), self);
  g_signal_connect_swapped (self->document, "notify::can-redo",
                            G_CALLBACK (_tw_automaton_canvas_update_actions), self);

  self->toolbar = _tw_automaton_canvas_build_toolbar ();
  gtk_widget_set_parent (self->toolbar, GTK_WIDGET (self));
  build_area (self);
  _tw_automaton_canvas_update_actions (self);
}

GtkWidget *
tw_automaton_canvas_new (void)
{
  return g_object_new (TW_TYPE_AUTOMATON_CANVAS, NULL);
}

/**
 * tw_automaton_canvas_get_document:
 *
 * Returns: (transfer none): the document the canvas shows and edits; the same object
 *   for the canvas's life
 */
TwAutomatonDocument *
tw_automaton_canvas_get_document (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->document;
}

/**
 * tw_automaton_canvas_get_automaton:
 *
 * Returns: (transfer none): the automaton being edited; edits change it in place, so it
 *   stays the same object until tw_automaton_canvas_set_automaton() or _load()
 */
TwAutomaton *
tw_automaton_canvas_get_automaton (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return automaton (self);
}

/**
 * tw_automaton_canvas_set_automaton:
 * @automaton: (transfer none): the automaton to edit (edited in place)
 *
 * Starts editing @automaton with an empty history, shown whole. States without
 * positions (see tw_automaton_layout_needed()) are laid out first. Emits ::changed.
 */
void
tw_automaton_canvas_set_automaton (TwAutomatonCanvas *self,
                                   TwAutomaton       *automaton)
{
  g_autoptr(GPtrArray) routes = NULL;

  g_return_if_fail (TW_IS_AUTOMATON_CANVAS (self));
  g_return_if_fail (TW_IS_AUTOMATON (automaton));

  if (tw_automaton_layout_needed (automaton))
    routes = tw_automaton_layout_full (automaton);
  self->selected_state = -1;
  self->selected_transition = -1;
  self->active_state = -1;
  g_array_set_size (self->visits, 0);
  popdown_label_editor (self);
  /* the painter follows the document's notify::automaton, which drops the routes */
  tw_automaton_document_set_automaton (self->document, automaton);
  tw_automaton_painter_set_routes (self->painter, routes);
  tw_automaton_canvas_zoom_to_fit (self);
}

/**
 * tw_automaton_canvas_load:
 *
 * Opens an automaton file (see tw_automaton_load()) and edits it.
 *
 * Returns: %FALSE with @error set (naming the file) when it cannot be read; the canvas
 *   is then unchanged
 */
gboolean
tw_automaton_canvas_load (TwAutomatonCanvas  *self,
                          const char         *path,
                          GError            **error)
{
  g_autoptr(TwAutomaton) loaded = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  loaded = tw_automaton_load (path, error);
  if (loaded == NULL)
    return FALSE;
  tw_automaton_document_set_path (self->document, path);
  tw_automaton_canvas_set_automaton (self, loaded);
  return TRUE;
}

/**
 * tw_automaton_canvas_get_painter:
 *
 * Returns: (transfer none): the painter that draws the canvas
 */
TwAutomatonPainter *
tw_automaton_canvas_get_painter (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->painter;
}

/**
 * tw_automaton_canvas_get_drawing_area:
 *
 * Returns: (transfer none): the area the automaton is drawn in (viewport coordinates are
 *   relative to it)
 */
GtkWidget *
tw_automaton_canvas_get_drawing_area (TwAutomatonCanvas *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_CANVAS (self), NULL);

  return self->area;
}
