/* tw-timeline.c: the timeline widget
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-timeline-image.h"
#include "tw-timeline-private.h"

/*
 * The widget owns input and scrolling; drawing is the painter's, the rows are the
 * layout's, and what is visible, the cursor and the selection live in the TwViewState
 * shared with the other panes. Rows scroll vertically through GtkScrollable, so a
 * GtkScrolledWindow around the widget provides the scrollbar, while the ruler and the
 * label column stay put; horizontal position is time, which the view state holds.
 *
 * This file: geometry, scrolling, drawing, the view state and revealing what it selects.
 * tw-timeline-actions.c: actions, keys and markers; tw-timeline-input.c: the pointer.
 */

enum {
  PROP_0,
  PROP_VIEW_STATE,
  N_PROPS,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE_WITH_CODE (TwTimeline, tw_timeline, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

/* ---------------------------------------------------------------- geometry */

double
_tw_timeline_get_scroll_y (TwTimeline *self)
{
  return self->vadjustment ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/**
 * tw_timeline_get_viewport:
 * @viewport: (out): what the widget shows now (markers point into the widget)
 */
void
tw_timeline_get_viewport (TwTimeline         *self,
                          TwTimelineViewport *vp)
{
  g_return_if_fail (TW_IS_TIMELINE (self));

  memset (vp, 0, sizeof *vp);
  vp->width = gtk_widget_get_width (GTK_WIDGET (self));
  vp->height = gtk_widget_get_height (GTK_WIDGET (self));
  vp->scroll_y = _tw_timeline_get_scroll_y (self);
  vp->cursor_ns = TW_TIME_NONE;
  vp->markers = (const TwTimelineMarker *) self->markers->data;
  vp->n_markers = self->markers->len;
  if (self->state == NULL)
    {
      vp->end_ns = 1;
      return;
    }
  tw_view_state_get_visible_range (self->state, &vp->begin_ns, &vp->end_ns);
  vp->cursor_ns = tw_view_state_get_cursor (self->state);
  vp->selected_span = tw_view_state_get_selected_span (self->state);
  vp->highlight = tw_view_state_get_highlight (self->state);
  tw_view_state_get_selection (self->state, &vp->selection_begin, &vp->selection_end);
}

double
_tw_timeline_rows_page_height (TwTimeline *self)
{
  return MAX (gtk_widget_get_height (GTK_WIDGET (self)) - TW_TIMELINE_RULER_HEIGHT, 1);
}

void
_tw_timeline_update_vadjustment (TwTimeline *self)
{
  double page = _tw_timeline_rows_page_height (self);
  double upper = self->layout ? tw_timeline_layout_get_height (self->layout) : 0;

  if (self->vadjustment == NULL)
    return;
  upper = MAX (upper, page);
  gtk_adjustment_configure (self->vadjustment,
                            CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, upper - page),
                            0, upper, TW_TIMELINE_TASK_HEIGHT, page * 0.9, page);
}

/* Scrolls the rows by @dy px (positive: down); the adjustment clamps. */
void
_tw_timeline_scroll_by (TwTimeline *self,
                        double      dy)
{
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy);
}

/* The time that stays put when zooming, for every way of zooming: under the pointer
 * while it is over the plot, else the cursor while it is in view, else the middle.
 * @x: (out) (optional): where it is drawn */
guint64
_tw_timeline_zoom_anchor (TwTimeline *self,
                          double     *x)
{
  TwTimelineViewport vp;
  guint64 t;

  tw_timeline_get_viewport (self, &vp);
  if (self->pointer_inside && self->pointer_x >= TW_TIMELINE_LABEL_WIDTH
      && self->pointer_x < vp.width && self->pointer_y >= TW_TIMELINE_RULER_HEIGHT)
    {
      if (x)
        *x = self->pointer_x;
      return tw_timeline_viewport_x_to_time (&vp, self->pointer_x);
    }
  if (vp.cursor_ns != TW_TIME_NONE && vp.cursor_ns >= vp.begin_ns && vp.cursor_ns < vp.end_ns)
    t = vp.cursor_ns;
  else
    t = vp.begin_ns + (vp.end_ns - vp.begin_ns) / 2;
  if (x)
    *x = tw_timeline_viewport_time_to_x (&vp, t);
  return t;
}

/**
 * _tw_timeline_zoom:
 * @factor: > 1 zooms in
 *
 * Zooms around the anchor. Steps that follow each other at the same place (a held key,
 * a turned wheel) keep the first step's anchor time: taken afresh from a view of whole
 * ns at every step, it would creep by up to half a ns per step, which is hundreds of
 * pixels by the time the view is a few ns wide.
 */
void
_tw_timeline_zoom (TwTimeline *self,
                   double      factor)
{
  TwTimelineViewport vp;
  double x;
  guint64 anchor = _tw_timeline_zoom_anchor (self, &x);

  tw_timeline_get_viewport (self, &vp);
  if (self->last_zoom_x == x && self->last_zoom_begin == vp.begin_ns && self->last_zoom_end == vp.end_ns)
    anchor = self->last_zoom_anchor;
  tw_view_state_zoom_at (self->state, factor, anchor,
                         (x - TW_TIMELINE_LABEL_WIDTH) / MAX (1, vp.width - TW_TIMELINE_LABEL_WIDTH));
  tw_view_state_get_visible_range (self->state, &self->last_zoom_begin, &self->last_zoom_end);
  self->last_zoom_x = x;
  self->last_zoom_anchor = anchor;
}

/**
 * tw_timeline_reveal_row:
 * @row: an index into the layout's rows
 *
 * Scrolls the rows so that @row is in view: nothing moves when it is, else it comes to
 * a third of the way down (a row taller than the view shows its top).
 */
void
tw_timeline_reveal_row (TwTimeline *self,
                        guint       row)
{
  const TwTimelineRow *rows;
  guint n_rows;
  double top, page;

  g_return_if_fail (TW_IS_TIMELINE (self));

  if (self->layout == NULL)
    return;
  rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
  g_return_if_fail (row < n_rows);

  top = _tw_timeline_get_scroll_y (self);
  page = _tw_timeline_rows_page_height (self);
  if (rows[row].y >= top && rows[row].y + rows[row].height <= top + page)
    return;
  _tw_timeline_update_vadjustment (self);
  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment,
                              rows[row].height >= page ? rows[row].y
                                                       : rows[row].y - (page - rows[row].height) / 3);
}

/* An event selected elsewhere (the list, Find, next/previous, Go to time) comes into
 * view: its time, centred when off screen with the zoom kept, and its task's row (its
 * CPU's when the task has none: idle, no states), scrolled to unless shown already. An
 * event clicked in the timeline is in view where it was clicked. */
static void
reveal_selected_event (TwTimeline *self)
{
  TwTrace *trace = tw_view_state_get_trace (self->state);
  guint64 index = tw_view_state_get_selected_event (self->state);
  TwEvent event;
  int row;

  if (index == TW_EVENT_NONE || self->layout == NULL || self->selecting)
    return;
  tw_trace_get_event (trace, index, &event);
  tw_view_state_reveal_time (self->state, event.time);

  row = event.task != TW_TASK_NONE ? tw_timeline_layout_find_task_row (self->layout, event.task) : -1;
  if (row < 0 && event.cpu != TW_CPU_NONE)
    row = tw_timeline_layout_find_cpu_row (self->layout, event.cpu);
  if (row >= 0)
    tw_timeline_reveal_row (self, row);
}

/* ---------------------------------------------------------------- drawing */

static void
tw_timeline_snapshot (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  TwTimeline *self = TW_TIMELINE (widget);
  TwTimelineViewport vp;
  TwPalette palette;
  cairo_t *cr;

  tw_timeline_get_viewport (self, &vp);
  if (vp.width <= TW_TIMELINE_LABEL_WIDTH || vp.height <= TW_TIMELINE_RULER_HEIGHT
      || self->painter == NULL)
    return;
  tw_palette_init_from_widget (&palette, widget);
  vp.palette = &palette;

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, vp.width, vp.height));
  tw_timeline_painter_draw (self->painter, cr, &vp);
  cairo_destroy (cr);
}

static void
tw_timeline_size_allocate (GtkWidget *widget,
                           int        width,
                           int        height,
                           int        baseline)
{
  TwTimeline *self = TW_TIMELINE (widget);

  _tw_timeline_update_vadjustment (self);
  /* popovers parented to a custom widget are placed by it */
  if (self->context_menu)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
  if (self->marker_popover)
    gtk_popover_present (GTK_POPOVER (self->marker_popover));
}

static void
tw_timeline_measure (GtkWidget      *widget,
                     GtkOrientation  orientation,
                     int             for_size,
                     int            *minimum,
                     int            *natural,
                     int            *minimum_baseline,
                     int            *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = TW_TIMELINE_LABEL_WIDTH + 100;
      *natural = TW_TIMELINE_LABEL_WIDTH + 800;
    }
  else
    {
      /* a CPU row may be taller than what is left: the rows scroll by pixels */
      *minimum = TW_TIMELINE_RULER_HEIGHT + TW_TIMELINE_TASK_HEIGHT;
      *natural = TW_TIMELINE_RULER_HEIGHT + 400;
    }
}

/* ---------------------------------------------------------------- view state */

static void
state_changed_cb (TwTimeline *self)
{
  _tw_timeline_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
layout_changed_cb (TwTimeline *self)
{
  _tw_timeline_update_vadjustment (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * tw_timeline_set_view_state:
 * @state: (nullable): what to show
 */
void
tw_timeline_set_view_state (TwTimeline  *self,
                            TwViewState *state)
{
  g_return_if_fail (TW_IS_TIMELINE (self));
  g_return_if_fail (!state || TW_IS_VIEW_STATE (state));

  if (self->state == state)
    return;

  if (self->state)
    g_signal_handlers_disconnect_by_data (self->state, self);
  if (self->layout)
    g_signal_handlers_disconnect_by_data (self->layout, self);
  self->layout = NULL;
  self->highlight_filtered = FALSE;
  g_set_object (&self->state, state);
  g_clear_object (&self->painter);
  g_array_set_size (self->markers, 0);

  if (state)
    {
      self->painter = tw_timeline_painter_new (tw_view_state_get_model (state));
      self->layout = tw_timeline_painter_get_layout (self->painter);
      g_signal_connect_swapped (state, "notify", G_CALLBACK (state_changed_cb), self);
      g_signal_connect_swapped (state, "notify::selected-event", G_CALLBACK (reveal_selected_event), self);
      g_signal_connect_swapped (state, "reveal-highlight", G_CALLBACK (_tw_timeline_reveal_highlight), self);
      g_signal_connect_swapped (state, "notify::highlight", G_CALLBACK (_tw_timeline_highlight_changed), self);
      g_signal_connect_swapped (self->layout, "changed", G_CALLBACK (layout_changed_cb), self);
    }

  if (self->vadjustment)
    gtk_adjustment_set_value (self->vadjustment, 0);
  _tw_timeline_update_vadjustment (self);
  _tw_timeline_update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_STATE]);
}

/**
 * tw_timeline_get_view_state:
 *
 * Returns: (transfer none) (nullable): what is shown
 */
TwViewState *
tw_timeline_get_view_state (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->state;
}

/**
 * tw_timeline_get_painter:
 *
 * Returns: (transfer none) (nullable): the painter, once a view state is set
 */
TwTimelinePainter *
tw_timeline_get_painter (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->painter;
}

/**
 * tw_timeline_get_layout:
 *
 * Returns: (transfer none) (nullable): the rows, once a view state is set
 */
TwTimelineLayout *
tw_timeline_get_layout (TwTimeline *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE (self), NULL);

  return self->layout;
}

/* ---------------------------------------------------------------- export */

/**
 * tw_timeline_export:
 * @path: ends in .png or .svg
 *
 * Writes what the widget shows now, at its size, in the light style of images, with the
 * legend under it.
 *
 * Returns: %FALSE with @error set
 */
gboolean
tw_timeline_export (TwTimeline  *self,
                    const char  *path,
                    GError     **error)
{
  TwTimelineViewport vp;

  g_return_val_if_fail (TW_IS_TIMELINE (self), FALSE);

  if (self->painter == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("no trace is open"));
      return FALSE;
    }
  tw_timeline_get_viewport (self, &vp);
  vp.width = MAX (vp.width, TW_TIMELINE_LABEL_WIDTH + 100);
  vp.height = MAX (vp.height, TW_TIMELINE_RULER_HEIGHT + 100);
  return tw_timeline_image_write (self->painter, &vp, TRUE, path, error);
}


/* ---------------------------------------------------------------- GObject */

static void
set_adjustment (TwTimeline     *self,
                GtkAdjustment **slot,
                GtkAdjustment  *adjustment)
{
  if (*slot == adjustment)
    return;
  if (*slot)
    g_signal_handlers_disconnect_by_func (*slot, gtk_widget_queue_draw, self);
  g_set_object (slot, adjustment);
  if (adjustment)
    g_signal_connect_swapped (adjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);
  _tw_timeline_update_vadjustment (self);
}

static void
tw_timeline_dispose (GObject *object)
{
  TwTimeline *self = (TwTimeline *)object;

  tw_timeline_set_view_state (self, NULL);
  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->marker_popover, gtk_widget_unparent);
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);

  G_OBJECT_CLASS (tw_timeline_parent_class)->dispose (object);
}

static void
tw_timeline_finalize (GObject *object)
{
  TwTimeline *self = (TwTimeline *)object;

  g_clear_pointer (&self->markers, g_array_unref);

  G_OBJECT_CLASS (tw_timeline_parent_class)->finalize (object);
}

static void
tw_timeline_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:     g_value_set_object (value, self->state); break;
    case PROP_HADJUSTMENT:    g_value_set_object (value, self->hadjustment); break;
    case PROP_VADJUSTMENT:    g_value_set_object (value, self->vadjustment); break;
    case PROP_HSCROLL_POLICY: g_value_set_enum (value, self->hscroll_policy); break;
    case PROP_VSCROLL_POLICY: g_value_set_enum (value, self->vscroll_policy); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_timeline_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TwTimeline *self = TW_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:     tw_timeline_set_view_state (self, g_value_get_object (value)); break;
    case PROP_HADJUSTMENT:    set_adjustment (self, &self->hadjustment, g_value_get_object (value)); break;
    case PROP_VADJUSTMENT:    set_adjustment (self, &self->vadjustment, g_value_get_object (value)); break;
    case PROP_HSCROLL_POLICY: self->hscroll_policy = g_value_get_enum (value); break;
    case PROP_VSCROLL_POLICY: self->vscroll_policy = g_value_get_enum (value); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_timeline_class_init (TwTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_timeline_dispose;
  object_class->finalize = tw_timeline_finalize;
  object_class->get_property = tw_timeline_get_property;
  object_class->set_property = tw_timeline_set_property;

  widget_class->snapshot = tw_timeline_snapshot;
  widget_class->size_allocate = tw_timeline_size_allocate;
  widget_class->measure = tw_timeline_measure;

  properties[PROP_VIEW_STATE] =
    g_param_spec_object ("view-state", NULL, NULL, TW_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  _tw_timeline_class_init_actions (widget_class);
  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
tw_timeline_init (TwTimeline *self)
{
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  _tw_timeline_init_markers (self);
  _tw_timeline_init_input (self);
  _tw_timeline_update_actions (self);
}

/**
 * tw_timeline_new:
 *
 * Returns: (transfer full): a timeline showing nothing until a view state is set
 */
GtkWidget *
tw_timeline_new (void)
{
  return g_object_new (TW_TYPE_TIMELINE, NULL);
}
