/* tw-measurement-list.c: a measurement table (or some of its rows) as a GListModel
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-measurement-list.h"
#include "tw-timeline-painter.h"

#define CELL_PADDING 24   /* around a cell's text: cell padding, the resize handle */

/* Items are made on demand, so a table of millions of rows costs no objects until the
 * view shows some of them. */
struct _TwMeasurementList
{
  GObject             parent_instance;
  TwMeasurementTable *table;
  TwTrace            *trace;
  GArray             *rows;      /* gsize; NULL = every row of the table */
  guint               n_items;
};

static void tw_measurement_list_model_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwMeasurementList, tw_measurement_list, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      tw_measurement_list_model_init))

static GType
get_item_type (GListModel *model)
{
  return TW_TYPE_MEASUREMENT_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  return TW_MEASUREMENT_LIST (model)->n_items;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  TwMeasurementList *self = TW_MEASUREMENT_LIST (model);

  if (position >= self->n_items)
    return NULL;
  return tw_measurement_item_new (tw_measurement_list_get_row (self, position));
}

static void
tw_measurement_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
tw_measurement_list_finalize (GObject *object)
{
  TwMeasurementList *self = TW_MEASUREMENT_LIST (object);

  g_clear_object (&self->table);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (tw_measurement_list_parent_class)->finalize (object);
}

static void
tw_measurement_list_class_init (TwMeasurementListClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_measurement_list_finalize;
}

static void
tw_measurement_list_init (TwMeasurementList *self)
{
}

/**
 * tw_measurement_list_new:
 * @table: the rows
 * @trace: (nullable): the trace the rows come from, for task names
 *
 * Returns: (transfer full): a list of every row @table has now
 */
TwMeasurementList *
tw_measurement_list_new (TwMeasurementTable *table,
                         TwTrace            *trace)
{
  TwMeasurementList *self;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (table), NULL);

  self = g_object_new (TW_TYPE_MEASUREMENT_LIST, NULL);
  self->table = g_object_ref (table);
  self->trace = trace ? g_object_ref (trace) : NULL;
  self->n_items = tw_measurement_table_get_n_rows (table);
  return self;
}

/**
 * tw_measurement_list_get_table:
 *
 * Returns: (transfer none): the table
 */
TwMeasurementTable *
tw_measurement_list_get_table (TwMeasurementList *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_LIST (self), NULL);
  return self->table;
}

/**
 * tw_measurement_list_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace
 */
TwTrace *
tw_measurement_list_get_trace (TwMeasurementList *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_LIST (self), NULL);
  return self->trace;
}

static void
replace (TwMeasurementList *self,
         GArray            *rows,
         guint              n_items)
{
  guint removed = self->n_items;

  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = rows;
  self->n_items = n_items;
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, n_items);
}

/**
 * tw_measurement_list_show_all:
 *
 * Lists every row the table has now (rows appended since are added).
 */
void
tw_measurement_list_show_all (TwMeasurementList *self)
{
  g_return_if_fail (TW_IS_MEASUREMENT_LIST (self));
  replace (self, NULL, tw_measurement_table_get_n_rows (self->table));
}

/**
 * tw_measurement_list_show_rows:
 * @rows: (array length=n_rows): row indices of the table, in the order to list them
 *
 * Lists only @rows.
 */
void
tw_measurement_list_show_rows (TwMeasurementList *self,
                               const gsize       *rows,
                               gsize              n_rows)
{
  GArray *copy;

  g_return_if_fail (TW_IS_MEASUREMENT_LIST (self));
  g_return_if_fail (n_rows <= G_MAXUINT);

  copy = g_array_sized_new (FALSE, FALSE, sizeof (gsize), n_rows);
  g_array_append_vals (copy, rows, n_rows);
  replace (self, copy, n_rows);
}

/**
 * tw_measurement_list_get_row:
 * @position: a position in the list
 *
 * Returns: the table row at @position
 */
gsize
tw_measurement_list_get_row (TwMeasurementList *self,
                             guint              position)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_LIST (self), 0);
  g_return_val_if_fail (position < self->n_items, 0);
  return self->rows ? g_array_index (self->rows, gsize, position) : position;
}

/* ------------------------------------------------------------------ the view */

typedef enum {
  COLUMN_TASK,
  COLUMN_BEGIN,
  COLUMN_END,
  COLUMN_LENGTH,
  COLUMN_COMPENSATED,
  COLUMN_INTERMEDIATE,
} Column;

static void
setup_label (GtkSignalListItemFactory *factory,
             GtkListItem              *item,
             gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_INT (data) == COLUMN_TASK ? 0 : 1);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (label), GPOINTER_TO_INT (data) == COLUMN_TASK ? PANGO_ELLIPSIZE_END
                                                                                    : PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            TwMeasurementList        *self)
{
  Column column = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (factory), "tw-column"));
  TwMeasurementItem *m = gtk_list_item_get_item (item);
  const TwMeasurementRow *row = tw_measurement_table_get_row (self->table,
                                                              tw_measurement_item_get_row (m));
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_TASK:
      /* named as the rest of the window names it ("cc1-14300"); the CSV keeps source ids */
      text = self->trace && row->task < tw_trace_get_n_tasks (self->trace)
             ? tw_trace_dup_task_label (self->trace, row->task)
             : tw_measurement_table_dup_task_label (self->trace, row->task);
      break;
    case COLUMN_BEGIN:
      text = tw_timeline_format_time (row->begin, 1);
      break;
    case COLUMN_END:
      text = tw_timeline_format_time (row->end, 1);
      break;
    case COLUMN_LENGTH:
      text = tw_timeline_format_duration (row->length);
      break;
    case COLUMN_COMPENSATED:
      text = tw_timeline_format_duration (tw_measurement_table_compensate (self->table, row));
      break;
    case COLUMN_INTERMEDIATE:
      text = g_strdup_printf ("%u", row->intermediate_events);
      break;
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

static int
text_width (GtkWidget  *widget,
            const char *text)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static int
column_width (GtkWidget  *view,
              const char *title,
              const char *sample)
{
  return MAX (text_width (view, title), text_width (view, sample ? sample : "")) + CELL_PADDING;
}

/* The longest task label of the trace (at most @max characters), to size the Task
 * column for. */
static char *
dup_longest_task_label (TwTrace *trace,
                        glong    max)
{
  char *longest = g_strdup ("");
  glong longest_len = 0;

  for (guint32 t = 0; trace && t < tw_trace_get_n_tasks (trace); t++)
    {
      char *label = tw_trace_dup_task_label (trace, t);
      glong len = g_utf8_strlen (label, -1);

      if (len <= longest_len)
        {
          g_free (label);
          continue;
        }
      g_free (longest);
      longest = label;
      longest_len = len;
    }
  if (longest_len > max)
    *g_utf8_offset_to_pointer (longest, max) = '\0';
  return longest;
}

/* The latest time a row can show: the trace's last, or the table's last row's end. */
static guint64
latest_time (TwMeasurementList *self)
{
  gsize n = tw_measurement_table_get_n_rows (self->table);

  if (self->trace && tw_trace_get_n_events (self->trace) > 0)
    return tw_trace_get_last_time (self->trace);
  return n > 0 ? tw_measurement_table_get_row (self->table, n - 1)->end : 0;
}

/**
 * tw_measurement_list_create_view:
 *
 * Returns: (transfer floating): a GtkColumnView of the list (task, begin, end, length,
 *   the length without the tracing cost where the table has one, intermediate events),
 *   single selection; times fit their columns whole
 */
GtkWidget *
tw_measurement_list_create_view (TwMeasurementList *self)
{
  const char *titles[] = { _("Task"), _("Begin"), _("End"), _("Length"), _("Compensated"),
                           _("Events between") };
  g_autofree char *time = NULL;
  g_autofree char *task = dup_longest_task_label (self->trace, 18);
  const char *samples[G_N_ELEMENTS (titles)] = { NULL };
  GtkSingleSelection *selection;
  GtkWidget *view;

  g_return_val_if_fail (TW_IS_MEASUREMENT_LIST (self), NULL);

  /* autoselect off before the model comes: a new selection would select the first row
   * without anyone asking, and without telling who listens for a selection later */
  selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_model (selection, G_LIST_MODEL (self));
  view = gtk_column_view_new (GTK_SELECTION_MODEL (selection));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  gtk_widget_add_css_class (view, "data-table");

  time = tw_timeline_format_time (latest_time (self), 1);
  g_strcanon (time, ". s", '8');   /* digits of proportional fonts at their widest */
  samples[COLUMN_TASK] = task;
  samples[COLUMN_BEGIN] = time;
  samples[COLUMN_END] = time;
  samples[COLUMN_LENGTH] = "888 ms";
  samples[COLUMN_COMPENSATED] = "888 ms";
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkListItemFactory *factory;
      GtkColumnViewColumn *column;

      /* Espinosa 2003 §2: only a table that knows the tracing cost has this column */
      if (c == COLUMN_COMPENSATED && !tw_measurement_table_has_event_cost (self->table))
        continue;
      factory = gtk_signal_list_item_factory_new ();

      g_object_set_data (G_OBJECT (factory), "tw-column", GINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label), GINT_TO_POINTER (c));
      /* the view holds the list through its model for as long as the factories live */
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label), self);
      column = gtk_column_view_column_new (titles[c], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_column_set_fixed_width (column, column_width (view, titles[c], samples[c]));
      gtk_column_view_column_set_expand (column, c == COLUMN_TASK);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  return view;
}
