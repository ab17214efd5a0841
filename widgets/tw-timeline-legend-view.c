/* tw-timeline-legend-view.c: the timeline's legend as a widget, for a popover
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-timeline-legend-view.h"
#include "tw-timeline-legend.h"

/*
 * Sections of rows, each a swatch drawn by the legend code in the theme's colours (as the
 * timeline beside it is), the item's name and what it means. The list scrolls when the
 * window is too low for all of it.
 */

#define MAX_HEIGHT 520

struct _TwTimelineLegendView
{
  GtkWidget  parent_instance;

  GtkWidget *scrolled;
  GPtrArray *path_rows;   /* GtkWidget: the explained path's heading and rows */
  gboolean   path_shown;
};

G_DEFINE_FINAL_TYPE (TwTimelineLegendView, tw_timeline_legend_view, GTK_TYPE_WIDGET)

static void
draw_swatch (GtkDrawingArea *area,
             cairo_t        *cr,
             int             width,
             int             height,
             gpointer        user_data)
{
  TwPalette palette;
  TwTimelineColors colors;

  tw_palette_init_from_widget (&palette, GTK_WIDGET (area));
  tw_timeline_colors_init (&colors, &palette);
  tw_legend_draw_swatch (cr, &colors, GPOINTER_TO_UINT (user_data), 0.5, 0.5);
}

static GtkWidget *
new_label (const char *text,
           const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  /* wrapped labels ask for their minimum width only: give them a line's worth */
  gtk_label_set_width_chars (GTK_LABEL (label), 44);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 44);
  if (css_class)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static int
attach_item (GtkGrid      *grid,
             TwLegendItem  item,
             int           row,
             GPtrArray    *widgets)
{
  GtkWidget *swatch = gtk_drawing_area_new ();
  GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), TW_LEGEND_SWATCH_WIDTH + 1);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), TW_LEGEND_SWATCH_HEIGHT + 1);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch, GUINT_TO_POINTER (item), NULL);
  gtk_widget_set_valign (swatch, GTK_ALIGN_START);
  gtk_box_append (GTK_BOX (text), new_label (tw_legend_item_get_title (item), NULL));
  gtk_box_append (GTK_BOX (text), new_label (tw_legend_item_get_description (item), "dim-label"));
  gtk_grid_attach (grid, swatch, 0, row, 1, 1);
  gtk_grid_attach (grid, text, 1, row, 1, 1);
  g_ptr_array_add (widgets, swatch);
  g_ptr_array_add (widgets, text);
  return row + 1;
}

/* The explained path's section is there only while a path is shown. */
static GtkWidget *
build_grid (TwTimelineLegendView *self)
{
  GtkWidget *grid = gtk_grid_new ();
  g_autoptr(GPtrArray) others = g_ptr_array_new ();
  int row = 0;

  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 6);
  gtk_widget_set_margin_end (grid, 12);
  gtk_widget_set_margin_top (grid, 6);
  gtk_widget_set_margin_bottom (grid, 6);
  /* the path's section first: when it is there, it is what the user came for */
  for (guint k = 0; k < TW_N_LEGEND_SECTIONS; k++)
    {
      TwLegendSection section = (TW_LEGEND_SECTION_PATH + k) % TW_N_LEGEND_SECTIONS;
      GtkWidget *heading = new_label (tw_legend_section_get_title (section), "heading");
      GPtrArray *widgets = section == TW_LEGEND_SECTION_PATH ? self->path_rows : others;

      if (row > 0)
        gtk_widget_set_margin_top (heading, 8);
      gtk_grid_attach (GTK_GRID (grid), heading, 0, row++, 2, 1);
      g_ptr_array_add (widgets, heading);
      for (TwLegendItem item = 0; item < TW_N_LEGEND_ITEMS; item++)
        if (tw_legend_item_get_section (item) == section)
          row = attach_item (GTK_GRID (grid), item, row, widgets);
    }
  return grid;
}

static void
tw_timeline_legend_view_dispose (GObject *object)
{
  TwTimelineLegendView *self = TW_TIMELINE_LEGEND_VIEW (object);

  g_clear_pointer (&self->scrolled, gtk_widget_unparent);
  g_clear_pointer (&self->path_rows, g_ptr_array_unref);
  G_OBJECT_CLASS (tw_timeline_legend_view_parent_class)->dispose (object);
}

static void
tw_timeline_legend_view_class_init (TwTimelineLegendViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_timeline_legend_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "timeline-legend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
tw_timeline_legend_view_init (TwTimelineLegendView *self)
{
  self->scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scrolled), GTK_POLICY_NEVER,
                                  GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->scrolled), TRUE);
  gtk_scrolled_window_set_propagate_natural_width (GTK_SCROLLED_WINDOW (self->scrolled), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (self->scrolled), MAX_HEIGHT);
  self->path_rows = g_ptr_array_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scrolled), build_grid (self));
  tw_timeline_legend_view_set_path_shown (self, FALSE);
  gtk_widget_set_parent (self->scrolled, GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Timeline legend"), -1);
}

/**
 * tw_timeline_legend_view_new:
 *
 * Returns: (transfer floating): a legend of every colour and mark of the timeline
 */
GtkWidget *
tw_timeline_legend_view_new (void)
{
  return g_object_new (TW_TYPE_TIMELINE_LEGEND_VIEW, NULL);
}

/**
 * tw_timeline_legend_view_set_path_shown:
 * @shown: the timeline shows an explained measurement's path
 *
 * The legend then says what the path's colours mean.
 */
void
tw_timeline_legend_view_set_path_shown (TwTimelineLegendView *self,
                                        gboolean              shown)
{
  g_return_if_fail (TW_IS_TIMELINE_LEGEND_VIEW (self));

  self->path_shown = shown;
  for (guint i = 0; i < self->path_rows->len; i++)
    gtk_widget_set_visible (g_ptr_array_index (self->path_rows, i), shown);
}

gboolean
tw_timeline_legend_view_get_path_shown (TwTimelineLegendView *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LEGEND_VIEW (self), FALSE);
  return self->path_shown;
}
