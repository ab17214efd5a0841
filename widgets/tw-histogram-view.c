/* tw-histogram-view.c: a live histogram with its statistics and the measurements of a bin
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-histogram-view.h"

#include <math.h>

#define REFRESH_INTERVAL_US (G_USEC_PER_SEC / TW_HISTOGRAM_VIEW_MAX_FPS)
/* exact percentiles once the values have stopped coming for this long */
#define SETTLE_MS 250

struct _TwHistogramView
{
  GtkWidget           parent_instance;

  GtkWidget          *plot;
  GtkWidget          *bin_label;
  GtkWidget          *bin_view;
  GtkWidget          *log_button;
  GtkWidget          *cumulative_button;

  TwHistogramPainter *painter;
  TwHistogram        *histogram;
  TwMeasurementTable *table;
  TwTrace            *trace;
  TwViewState        *view_state;
  TwMeasurementList  *bin_list;
  GtkSingleSelection *bin_selection;

  TwHistogramSnapshot *snapshot;
  guint               refresh_id;
  guint               settle_id;
  gint64              last_refresh_us;
  guint               n_refreshes;
  int                 selected_bin;
};

G_DEFINE_FINAL_TYPE (TwHistogramView, tw_histogram_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ refreshing */

static void
take_snapshot (TwHistogramView *self,
               gboolean         exact)
{
  g_clear_pointer (&self->snapshot, tw_histogram_snapshot_free);
  if (self->histogram)
    self->snapshot = tw_histogram_snapshot_new (self->histogram, exact);
  self->n_refreshes++;
  self->last_refresh_us = g_get_monotonic_time ();
  gtk_widget_queue_draw (self->plot);
}

/* Exact percentiles sort the values, a one-off O(n log n) on this thread: past a size
 * where that would stall the window they stay estimated from the bins. */
static gboolean
exact_allowed (TwHistogramView *self)
{
  return self->histogram == NULL
         || tw_histogram_get_count (self->histogram) <= TW_HISTOGRAM_VIEW_EXACT_LIMIT;
}

static gboolean
settle_cb (gpointer data)
{
  TwHistogramView *self = data;

  self->settle_id = 0;
  take_snapshot (self, exact_allowed (self));
  return G_SOURCE_REMOVE;
}

static gboolean
refresh_cb (gpointer data)
{
  TwHistogramView *self = data;

  self->refresh_id = 0;
  /* O(bins): the percentiles come from the bins until the values settle */
  take_snapshot (self, FALSE);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  self->settle_id = g_timeout_add (SETTLE_MS, settle_cb, self);
  return G_SOURCE_REMOVE;
}

/**
 * tw_histogram_view_changed:
 *
 * Tells the view its histogram has new values. Calls are coalesced: the view redraws
 * at most %TW_HISTOGRAM_VIEW_MAX_FPS times a second, from a copy of the bins.
 */
void
tw_histogram_view_changed (TwHistogramView *self)
{
  gint64 since;
  gint64 wait_us;

  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));

  if (self->refresh_id != 0)
    return;
  since = g_get_monotonic_time () - self->last_refresh_us;
  wait_us = MAX (0, REFRESH_INTERVAL_US - since);
  self->refresh_id = g_timeout_add ((guint) ((wait_us + 999) / 1000), refresh_cb, self);
}

/* ------------------------------------------------------------------ drawing and input */

static void
draw_plot (GtkDrawingArea *area,
           cairo_t        *cr,
           int             width,
           int             height,
           gpointer        data)
{
  TwHistogramView *self = data;
  TwPalette palette;

  tw_palette_init_from_widget (&palette, GTK_WIDGET (area));
  tw_histogram_painter_draw (self->painter, cr, self->snapshot, width, height, &palette);
}

static gboolean
query_tooltip (GtkWidget  *widget,
               int         x,
               int         y,
               gboolean    keyboard,
               GtkTooltip *tooltip,
               gpointer    data)
{
  TwHistogramView *self = data;
  int bin = tw_histogram_view_bin_at (self, x, y);
  g_autofree char *text = NULL;

  if (bin < 0)
    return FALSE;
  text = tw_histogram_painter_dup_bin_text (self->painter, self->snapshot, bin);
  gtk_tooltip_set_text (tooltip, text);
  return text != NULL;
}

static void
plot_pressed (GtkGestureClick *gesture,
              int              n_press,
              double           x,
              double           y,
              gpointer         data)
{
  TwHistogramView *self = data;

  tw_histogram_view_select_bin (self, tw_histogram_view_bin_at (self, x, y));
}

enum { MEASUREMENT_PICKED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
bin_selection_changed (GtkSelectionModel *model,
                       guint              position,
                       guint              n_items,
                       gpointer           data)
{
  TwHistogramView *self = data;
  guint selected = gtk_single_selection_get_selected (self->bin_selection);

  gsize row;

  if (selected == GTK_INVALID_LIST_POSITION || self->bin_list == NULL)
    return;
  row = tw_measurement_list_get_row (self->bin_list, selected);
  tw_histogram_view_pick_measurement (self, row);
  g_signal_emit (self, signals[MEASUREMENT_PICKED], 0, (guint64) row);
}

static void
log_toggled (GtkToggleButton *button,
             gpointer         data)
{
  tw_histogram_view_set_y_scale (data, gtk_toggle_button_get_active (button)
                                       ? TW_HISTOGRAM_Y_LOG : TW_HISTOGRAM_Y_LINEAR);
}

static void
cumulative_toggled (GtkToggleButton *button,
                    gpointer         data)
{
  tw_histogram_view_set_cumulative (data, gtk_toggle_button_get_active (button));
}

/* ------------------------------------------------------------------ the object */

static void
tw_histogram_view_dispose (GObject *object)
{
  TwHistogramView *self = TW_HISTOGRAM_VIEW (object);
  GtkWidget *child;

  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->painter);
  g_clear_object (&self->histogram);
  g_clear_object (&self->table);
  g_clear_object (&self->trace);
  g_clear_object (&self->view_state);
  g_clear_object (&self->bin_list);
  g_clear_pointer (&self->snapshot, tw_histogram_snapshot_free);
  G_OBJECT_CLASS (tw_histogram_view_parent_class)->dispose (object);
}

static void
tw_histogram_view_class_init (TwHistogramViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_histogram_view_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "histogramview");

  /**
   * TwHistogramView::measurement-picked:
   * @row: the table row the user picked from a bar's list
   */
  signals[MEASUREMENT_PICKED] = g_signal_new ("measurement-picked", G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                              G_TYPE_NONE, 1, G_TYPE_UINT64);
}

static void
tw_histogram_view_init (TwHistogramView *self)
{
  GtkWidget *controls = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->painter = tw_histogram_painter_new ();
  self->selected_bin = -1;

  self->log_button = gtk_toggle_button_new_with_label (_("Log count"));
  self->cumulative_button = gtk_toggle_button_new_with_label (_("Cumulative"));
  g_signal_connect (self->log_button, "toggled", G_CALLBACK (log_toggled), self);
  g_signal_connect (self->cumulative_button, "toggled", G_CALLBACK (cumulative_toggled), self);
  gtk_box_append (GTK_BOX (controls), self->log_button);
  gtk_box_append (GTK_BOX (controls), self->cumulative_button);
  gtk_widget_set_parent (controls, GTK_WIDGET (self));

  self->plot = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->plot, 320, 180);
  gtk_widget_set_vexpand (self->plot, TRUE);
  gtk_widget_set_hexpand (self->plot, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->plot), draw_plot, self, NULL);
  gtk_widget_set_has_tooltip (self->plot, TRUE);
  g_signal_connect (self->plot, "query-tooltip", G_CALLBACK (query_tooltip), self);
  g_signal_connect (click, "pressed", G_CALLBACK (plot_pressed), self);
  gtk_widget_add_controller (self->plot, GTK_EVENT_CONTROLLER (click));

  /* Over the whole view, not over the bin's list alone: the pane gives the list less
   * than its minimum width when narrow (the designer's), and a wrapped label there is
   * measured for the minimum width, so its second line was cut off. */
  self->bin_label = gtk_label_new (_("Click a bar to list its measurements"));
  gtk_label_set_xalign (GTK_LABEL (self->bin_label), 0);
  gtk_label_set_wrap (GTK_LABEL (self->bin_label), TRUE);
  gtk_widget_add_css_class (self->bin_label, "dim-label");
  gtk_widget_set_parent (self->bin_label, GTK_WIDGET (self));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_widget_set_size_request (scrolled, 260, 80);
  gtk_widget_set_hexpand (scrolled, TRUE);

  gtk_paned_set_start_child (GTK_PANED (paned), self->plot);
  gtk_paned_set_end_child (GTK_PANED (paned), scrolled);
  /* the plot and a bin's list share the room (320 : 260 at first): a wide pane gives the
   * list its task, begin and end, a narrow one (the designer's) still shows both */
  gtk_paned_set_resize_end_child (GTK_PANED (paned), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_widget_set_vexpand (paned, TRUE);
  gtk_widget_set_parent (paned, GTK_WIDGET (self));
  g_object_set_data (G_OBJECT (self), "tw-bin-scrolled", scrolled);
}

/**
 * tw_histogram_view_new:
 *
 * Returns: (transfer floating): an empty histogram view
 */
GtkWidget *
tw_histogram_view_new (void)
{
  return g_object_new (TW_TYPE_HISTOGRAM_VIEW, NULL);
}

/**
 * tw_histogram_view_set_histogram:
 * @histogram: (nullable): what to show
 * @table: (nullable): the measurements whose lengths fill @histogram, for the bin list
 * @trace: (nullable): the trace they come from, for task names
 */
void
tw_histogram_view_set_histogram (TwHistogramView    *self,
                                 TwHistogram        *histogram,
                                 TwMeasurementTable *table,
                                 TwTrace            *trace)
{
  GtkWidget *scrolled;

  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));

  g_set_object (&self->histogram, histogram);
  g_set_object (&self->table, table);
  g_set_object (&self->trace, trace);
  g_clear_object (&self->bin_list);
  self->bin_selection = NULL;
  scrolled = g_object_get_data (G_OBJECT (self), "tw-bin-scrolled");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), NULL);
  self->bin_view = NULL;
  if (table)
    {
      self->bin_list = tw_measurement_list_new (table, trace);
      tw_measurement_list_show_rows (self->bin_list, NULL, 0);
      self->bin_view = tw_measurement_list_create_view (self->bin_list);
      self->bin_selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (self->bin_view)));
      g_signal_connect (self->bin_selection, "selection-changed",
                        G_CALLBACK (bin_selection_changed), self);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), self->bin_view);
    }
  self->selected_bin = -1;
  tw_histogram_painter_set_selected_bin (self->painter, -1);
  g_clear_handle_id (&self->refresh_id, g_source_remove);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  take_snapshot (self, exact_allowed (self));
}

/**
 * tw_histogram_view_get_histogram:
 *
 * Returns: (transfer none) (nullable): the histogram shown
 */
TwHistogram *
tw_histogram_view_get_histogram (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), NULL);
  return self->histogram;
}

/**
 * tw_histogram_view_set_view_state:
 * @view_state: (nullable): where a picked measurement becomes the selection
 */
void
tw_histogram_view_set_view_state (TwHistogramView *self,
                                  TwViewState     *view_state)
{
  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));
  g_set_object (&self->view_state, view_state);
}

/**
 * tw_histogram_view_get_n_refreshes:
 *
 * Returns: how many snapshots the view has taken (each is one redraw)
 */
guint
tw_histogram_view_get_n_refreshes (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), 0);
  return self->n_refreshes;
}

/**
 * tw_histogram_view_get_snapshot:
 *
 * Returns: (transfer none) (nullable): what the view draws now
 */
const TwHistogramSnapshot *
tw_histogram_view_get_snapshot (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), NULL);
  return self->snapshot;
}

/**
 * tw_histogram_view_get_painter:
 *
 * Returns: (transfer none): the painter
 */
TwHistogramPainter *
tw_histogram_view_get_painter (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), NULL);
  return self->painter;
}

/**
 * tw_histogram_view_get_plot:
 *
 * Returns: (transfer none): the drawing area of the plot
 */
GtkWidget *
tw_histogram_view_get_plot (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), NULL);
  return self->plot;
}

/**
 * tw_histogram_view_set_y_scale:
 * @scale: linear or log counts
 */
void
tw_histogram_view_set_y_scale (TwHistogramView   *self,
                               TwHistogramYScale  scale)
{
  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));
  tw_histogram_painter_set_y_scale (self->painter, scale);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->log_button), scale == TW_HISTOGRAM_Y_LOG);
  gtk_widget_queue_draw (self->plot);
}

/**
 * tw_histogram_view_set_cumulative:
 * @cumulative: draw cumulative counts
 */
void
tw_histogram_view_set_cumulative (TwHistogramView *self,
                                  gboolean         cumulative)
{
  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));
  tw_histogram_painter_set_cumulative (self->painter, cumulative);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->cumulative_button), cumulative);
  gtk_widget_queue_draw (self->plot);
}

/**
 * tw_histogram_view_bin_at:
 * @x: px in the plot
 * @y: px in the plot
 *
 * Returns: the bin under (@x, @y), or -1
 */
int
tw_histogram_view_bin_at (TwHistogramView *self,
                          double           x,
                          double           y)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), -1);
  return tw_histogram_painter_bin_at (self->painter, self->snapshot,
                                      gtk_widget_get_width (self->plot),
                                      gtk_widget_get_height (self->plot), x, y);
}

/**
 * tw_histogram_view_select_bin:
 * @bin: a bin, or -1 for none
 *
 * Highlights @bin and lists the measurements whose length falls in it: lower ≤ length
 * < upper (≤ upper for the last bin).
 */
void
tw_histogram_view_select_bin (TwHistogramView *self,
                              int              bin)
{
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree char *text = NULL;

  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));

  if (self->snapshot == NULL || bin < 0 || (guint) bin >= self->snapshot->n_bins)
    bin = -1;
  self->selected_bin = bin;
  tw_histogram_painter_set_selected_bin (self->painter, bin);
  gtk_widget_queue_draw (self->plot);
  if (self->bin_list == NULL)
    return;
  if (bin >= 0)
    {
      double lower = self->snapshot->edges[bin];
      double upper = self->snapshot->edges[bin + 1];
      gboolean last = (guint) bin == self->snapshot->n_bins - 1;
      gsize n = tw_measurement_table_get_n_rows (self->table);
      g_autofree char *bin_text = tw_histogram_painter_dup_bin_text (self->painter, self->snapshot, bin);

      for (gsize r = 0; r < n; r++)
        {
          double v = (double) tw_measurement_table_get_row (self->table, r)->length;

          if (v >= lower && (v < upper || (last && v <= upper)))
            g_array_append_val (rows, r);
        }
      text = g_strdup_printf (_("%s — %u listed"), bin_text, rows->len);
      g_strdelimit (text, "\n", ' ');
    }
  tw_measurement_list_show_rows (self->bin_list, (const gsize *) rows->data, rows->len);
  gtk_label_set_text (GTK_LABEL (self->bin_label),
                      text ? text : _("Click a bar to list its measurements"));
}

/**
 * tw_histogram_view_get_selected_bin:
 *
 * Returns: the selected bin, or -1
 */
int
tw_histogram_view_get_selected_bin (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), -1);
  return self->selected_bin;
}

/**
 * tw_histogram_view_get_bin_list:
 *
 * Returns: (transfer none) (nullable): the measurements of the selected bin
 */
TwMeasurementList *
tw_histogram_view_get_bin_list (TwHistogramView *self)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), NULL);
  return self->bin_list;
}

/**
 * tw_histogram_view_pick_measurement:
 * @row: a row of the table
 *
 * Selects the measurement's [begin, end) in the view state and shows it with a margin
 * of its own length on each side.
 */
void
tw_histogram_view_pick_measurement (TwHistogramView *self,
                                    gsize            row)
{
  const TwMeasurementRow *m;
  guint64 margin;

  g_return_if_fail (TW_IS_HISTOGRAM_VIEW (self));

  if (self->view_state == NULL || self->table == NULL
      || row >= tw_measurement_table_get_n_rows (self->table))
    return;
  m = tw_measurement_table_get_row (self->table, row);
  tw_view_state_set_selection (self->view_state, m->begin, m->end);
  margin = MAX (m->end - m->begin, 1000);
  tw_view_state_set_visible_range (self->view_state, m->begin > margin ? m->begin - margin : 0,
                                   m->end + margin);
}

/**
 * tw_histogram_view_export_image:
 * @format: PNG or SVG
 * @path: the file to write
 *
 * Writes the plot as the view draws it now, at its size (at least 640 × 400).
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
tw_histogram_view_export_image (TwHistogramView          *self,
                                TwHistogramExportFormat   format,
                                const char               *path,
                                GError                  **error)
{
  g_return_val_if_fail (TW_IS_HISTOGRAM_VIEW (self), FALSE);
  return tw_histogram_painter_export (self->painter, self->snapshot, format, path,
                                      MAX (640, gtk_widget_get_width (self->plot)),
                                      MAX (400, gtk_widget_get_height (self->plot)), error);
}
