/* tw-event-list.c: the virtual list of a trace's events, with filters
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tw-event-filter-bar.h"
#include "tw-event-list.h"

/*
 * A GtkColumnView over a TwTraceModel: items exist only for the rows on screen, so a
 * list of a hundred million rows costs what a list of fifty does. Filters never wrap the
 * model in a GtkFilterListModel (that would make an object per row): a new trace model
 * builds its index of matching rows in a thread and replaces the shown one. It replaces
 * the whole selection model rather than emitting items-changed: GTK 4.8's list takes
 * seconds to process items-changed over tens of millions of rows, and a tenth of a second
 * to start over with a new model.
 *
 * Selection goes through the TwViewState: a selected row sets selected-event, and a
 * selected-event set elsewhere (the timeline) selects and scrolls to its row. A new
 * model keeps the selected row in view, or else the row that was at the top.
 *
 * A live trace grows in another thread and emits nothing: while the trace is not sealed
 * the list looks at it GROWTH_INTERVAL_MS apart and emits items-changed for the rows
 * appended since (tw_trace_model_update). Unlike a replacement, an append at the end
 * costs GTK nothing that grows with the list: 20 000 rows added to 1 M or to 20 M take
 * under 0.1 ms, and the next frame is no slower. The interval bounds the rate of
 * items-changed whatever the event rate. It goes on while the session is paused:
 * pausing freezes the timeline, and the list only grows at its end, under whatever the
 * user is reading.
 */

#define GROWTH_INTERVAL_MS 250
#define TIME_PADDING       24   /* around a Time cell's text: cell padding, resize handle */
#define TITLE_PADDING      36   /* around a column title: the header button's padding */

struct _TwEventList
{
  GtkWidget           parent_instance;

  TwViewState        *view_state;
  gulong              selected_event_handler;
  TwTraceModel       *model;
  GtkSingleSelection *selection;
  GCancellable       *filter_cancellable;
  TwTraceModel       *pending_model;  /* being filtered in a thread, shown when done */
  guint               growth_source;  /* while the trace may grow (it is not sealed) */
  gsize               time_chars;     /* of the longest time text the column fits */
  guint               relative_time : 1;
  guint               syncing : 1;   /* selection change caused by the view state */

  GtkWidget          *box;
  TwEventFilterBar   *filter_bar;
  GtkWidget          *scroller;
  GtkColumnView      *column_view;
  GtkColumnViewColumn *time_column;
};

G_DEFINE_FINAL_TYPE (TwEventList, tw_event_list, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW_STATE,
  PROP_FILTERING,
  PROP_RELATIVE_TIME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  COLUMN_TIME,
  COLUMN_CPU,
  COLUMN_TASK,
  COLUMN_TYPE,
  COLUMN_ARGS,
};

static TwTrace *
get_trace (TwEventList *self)
{
  return self->model ? tw_trace_model_get_trace (self->model) : NULL;
}

static void
update_count_label (TwEventList *self)
{
  if (self->model)
    tw_event_filter_bar_set_count (self->filter_bar, g_list_model_get_n_items (G_LIST_MODEL (self->model)),
                                   tw_trace_get_n_events (get_trace (self)),
                                   tw_trace_model_get_filter (self->model) != NULL);
}

/* ------------------------------------------------------------------ the Time column */

/* What the Time column shows: seconds with every nanosecond digit, as Go to time reads
 * them back; relative to the first event, signed, in relative mode. */
static char *
dup_time_text (TwEventList *self,
               guint64      time_ns)
{
  guint64 origin, offset;

  if (!self->relative_time)
    return g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                            time_ns / 1000000000, time_ns % 1000000000);
  origin = tw_trace_get_first_time (get_trace (self));
  offset = time_ns >= origin ? time_ns - origin : origin - time_ns;
  return g_strdup_printf ("%c%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                          time_ns >= origin ? '+' : '-', offset / 1000000000, offset % 1000000000);
}

static int
text_width (TwEventList *self,
            const char  *text,
            PangoWeight  weight)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->column_view), text);
  PangoAttrList *attrs = pango_attr_list_new ();
  int width;

  pango_attr_list_insert (attrs, pango_attr_weight_new (weight));
  pango_layout_set_attributes (layout, attrs);
  pango_attr_list_unref (attrs);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* Titles the column (with the origin in relative mode) and makes it as wide as its
 * longest text, so no time is ever cut; a trace that grows re-sizes it when its times
 * get longer. */
static void
size_time_column (TwEventList *self)
{
  TwTrace *trace = get_trace (self);
  g_autofree char *widest = NULL;
  g_autofree char *title = NULL;
  int width;

  if (trace == NULL)
    return;
  widest = dup_time_text (self, tw_trace_get_last_time (trace));
  self->time_chars = strlen (widest);
  /* digits of proportional fonts differ in width: size for the widest */
  g_strcanon (widest, "+-.", '8');
  if (self->relative_time)
    {
      g_autofree char *origin = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                                                 tw_trace_get_first_time (trace) / 1000000000,
                                                 tw_trace_get_first_time (trace) % 1000000000);

      /* TRANSLATORS: the Time column's title in relative mode; %s is the first event's time */
      title = g_strdup_printf (_("Time (s) since %s"), origin);
    }
  else
    title = g_strdup (_("Time (s)"));
  /* column titles are bold in Adwaita */
  width = MAX (text_width (self, widest, PANGO_WEIGHT_NORMAL) + TIME_PADDING,
               text_width (self, title, PANGO_WEIGHT_BOLD) + TITLE_PADDING);
  gtk_column_view_column_set_title (self->time_column, title);
  gtk_column_view_column_set_fixed_width (self->time_column, width);
}

/* ------------------------------------------------------------------ keeping a row in view */

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

/* GTK 4.8 has no gtk_column_view_scroll_to(); its inner list view has the
 * list.scroll-to-item action, which anchors the view on the row even when far away. */
static void
scroll_to_position (TwEventList *self,
                    guint        position)
{
  GtkWidget *list_view = find_list_view (GTK_WIDGET (self->column_view));

  if (position >= g_list_model_get_n_items (G_LIST_MODEL (self->model)))
    return;
  if (list_view)
    gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", position);
  else
    {
      GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
      double upper = gtk_adjustment_get_upper (adj);
      double n = MAX (1, g_list_model_get_n_items (G_LIST_MODEL (self->model)));

      gtk_adjustment_set_value (adj, upper * position / n - gtk_adjustment_get_page_size (adj) / 2);
    }
}

/* The event of the row at the top of the view (rows are of one height), or
 * TW_EVENT_NONE for an empty list. */
static guint64
top_row_event (TwEventList *self)
{
  GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->column_view));
  guint n = self->model ? g_list_model_get_n_items (G_LIST_MODEL (self->model)) : 0;
  double upper = gtk_adjustment_get_upper (adj);

  if (n == 0 || upper <= 0)
    return TW_EVENT_NONE;
  return tw_trace_model_get_event_index (self->model,
                                         MIN (n - 1, (guint) (gtk_adjustment_get_value (adj) * n / upper)));
}

static void
sync_from_view_state (TwEventList *self)
{
  guint64 index;
  gboolean exact = FALSE;
  guint position;

  if (self->view_state == NULL || self->model == NULL)
    return;

  index = tw_view_state_get_selected_event (self->view_state);
  self->syncing = TRUE;
  if (index == TW_EVENT_NONE)
    gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  else
    {
      position = tw_trace_model_find_position (self->model, index, &exact);
      gtk_single_selection_set_selected (self->selection,
                                         exact ? position : GTK_INVALID_LIST_POSITION);
      /* a filtered-out event still brings its neighbourhood into view */
      scroll_to_position (self, exact ? position : MIN (position, g_list_model_get_n_items (G_LIST_MODEL (self->model)) - 1));
    }
  self->syncing = FALSE;
}

static void
view_state_selected_event_cb (TwEventList *self)
{
  sync_from_view_state (self);
}

static void
selection_changed_cb (TwEventList *self)
{
  guint position;
  guint64 index;

  if (self->syncing || self->view_state == NULL)
    return;

  position = gtk_single_selection_get_selected (self->selection);
  if (position == GTK_INVALID_LIST_POSITION)
    return;
  index = tw_trace_model_get_event_index (self->model, position);
  g_signal_handler_block (self->view_state, self->selected_event_handler);
  tw_view_state_set_selected_event (self->view_state, index);
  g_signal_handler_unblock (self->view_state, self->selected_event_handler);
}

/* GTK 4.8: a focused row that items-changed removes stays the window's focus child
 * in a broken state (criticals when the window goes away). Take the focus off the rows
 * around model changes and give it back to the list afterwards. */
static gboolean
release_row_focus (TwEventList *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root ? gtk_root_get_focus (root) : NULL;

  if (focus == NULL || !gtk_widget_is_ancestor (focus, GTK_WIDGET (self->column_view)))
    return FALSE;
  gtk_root_set_focus (root, NULL);
  return TRUE;
}

/* Shows @model (or nothing) through a new selection model, keeping the keyboard focus in
 * the list, the view state's selected event selected and in view, or else the event
 * that was at the top of the view at the top. */
static void
install_model (TwEventList  *self,
               TwTraceModel *model)
{
  gboolean refocus = release_row_focus (self);
  guint64 top = top_row_event (self);
  GtkSingleSelection *selection;

  g_set_object (&self->model, model);
  if (model)
    tw_trace_model_update (model);   /* rows a live trace added while it was filtered */

  selection = gtk_single_selection_new (model ? g_object_ref (G_LIST_MODEL (model)) : NULL);
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_single_selection_set_selected (selection, GTK_INVALID_LIST_POSITION);
  g_signal_connect_swapped (selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  if (self->selection)
    g_signal_handlers_disconnect_by_func (self->selection, selection_changed_cb, self);
  g_clear_object (&self->selection);
  self->selection = selection;

  self->syncing = TRUE;
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->syncing = FALSE;
  if (refocus)
    gtk_widget_grab_focus (GTK_WIDGET (self->column_view));

  update_count_label (self);
  if (model && top != TW_EVENT_NONE
      && (self->view_state == NULL || tw_view_state_get_selected_event (self->view_state) == TW_EVENT_NONE))
    scroll_to_position (self, tw_trace_model_find_position (model, top, NULL));
  sync_from_view_state (self);
}

/* ------------------------------------------------------------------ filtering */

static void
filter_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(TwEventList) self = user_data;
  g_autoptr(GError) error = NULL;
  TwTraceModel *model = TW_TRACE_MODEL (object);

  if (!tw_trace_model_set_filter_finish (model, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Filtering events failed: %s", error->message);
      return;
    }
  if (model != self->pending_model)
    return;

  install_model (self, model);
  g_clear_object (&self->pending_model);
  g_clear_object (&self->filter_cancellable);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
}

static void
cancel_filtering (TwEventList *self)
{
  g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  g_clear_object (&self->pending_model);
}

static void
refilter (TwEventList *self)
{
  g_autoptr(TwEventFilter) filter = NULL;
  TwTrace *trace = get_trace (self);

  if (trace == NULL)
    return;

  filter = tw_event_filter_bar_dup_filter (self->filter_bar);
  cancel_filtering (self);
  self->filter_cancellable = g_cancellable_new ();
  self->pending_model = tw_trace_model_new (trace);
  tw_trace_model_set_filter_async (self->pending_model, filter, self->filter_cancellable,
                                   filter_done_cb, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
}

/* ------------------------------------------------------------------ a growing trace */

static gboolean
follow_growth_cb (gpointer data)
{
  TwEventList *self = data;
  TwTrace *trace = get_trace (self);
  g_autofree char *last = NULL;

  tw_trace_model_update (self->model);
  /* a Find text resolved before a type or task it matches appeared misses its rows */
  if (tw_event_filter_bar_update (self->filter_bar))
    refilter (self);
  update_count_label (self);
  last = dup_time_text (self, tw_trace_get_last_time (trace));
  if (strlen (last) != self->time_chars)
    size_time_column (self);

  if (!tw_trace_is_sealed (trace))
    return G_SOURCE_CONTINUE;
  self->growth_source = 0;
  return G_SOURCE_REMOVE;
}

/* ------------------------------------------------------------------ cells */

static void
bind_time (GtkListItem *list_item)
{
  TwEventList *self = g_object_get_data (G_OBJECT (list_item), "tw-event-list");
  TwEventItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = item ? dup_time_text (self, tw_event_item_get_time (item)) : NULL;

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text ? text : "");
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  TwEventList *self = g_object_get_data (G_OBJECT (factory), "tw-event-list");
  int column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_TIME || column == COLUMN_CPU ? 1.0 : 0.0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column == COLUMN_ARGS || column == COLUMN_TASK || column == COLUMN_TYPE)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == COLUMN_TIME)
    {
      /* a Time column made narrower by hand keeps the digits that differ between rows */
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_START);
      gtk_widget_add_css_class (label, "numeric");
      /* the rows on screen change format with the mode; the others at their next bind */
      g_object_set_data (G_OBJECT (list_item), "tw-event-list", self);
      g_signal_connect_object (self, "notify::relative-time", G_CALLBACK (bind_time), list_item,
                               G_CONNECT_SWAPPED);
    }
  gtk_list_item_set_child (list_item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  int column = GPOINTER_TO_INT (user_data);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (list_item));
  TwEventItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;

  switch (column)
    {
    case COLUMN_TIME:
      bind_time (list_item);
      return;
    case COLUMN_CPU:
      text = tw_event_item_dup_cpu_label (item);
      break;
    case COLUMN_TASK:
      text = tw_event_item_dup_task_label (item);
      break;
    case COLUMN_TYPE:
      text = g_strdup (tw_event_item_get_type_name (item));
      break;
    case COLUMN_ARGS:
      text = tw_event_item_dup_args (item);
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_label_set_text (label, text);
}

static GtkListItemFactory *
new_cell_factory (TwEventList *self,
                  int          column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  /* the list owns the column view that owns the factory */
  g_object_set_data (G_OBJECT (factory), "tw-event-list", self);
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GINT_TO_POINTER (column));
  return factory;
}

static GtkColumnViewColumn *
add_column (TwEventList *self,
            const char  *title,
            int          column,
            int          fixed_width)
{
  g_autoptr(GtkColumnViewColumn) col = gtk_column_view_column_new (title, new_cell_factory (self, column));

  gtk_column_view_column_set_resizable (col, TRUE);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (col, fixed_width);
  else
    gtk_column_view_column_set_expand (col, TRUE);
  gtk_column_view_append_column (self->column_view, col);
  return col;
}

/* ------------------------------------------------------------------ the widget */

static void
stop_following_growth (TwEventList *self)
{
  g_clear_handle_id (&self->growth_source, g_source_remove);
}

static void
tw_event_list_dispose (GObject *object)
{
  TwEventList *self = (TwEventList *)object;

  tw_event_list_set_view_state (self, NULL);
  cancel_filtering (self);
  stop_following_growth (self);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (tw_event_list_parent_class)->dispose (object);
}

static void
tw_event_list_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TwEventList *self = TW_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:    g_value_set_object (value, self->view_state); break;
    case PROP_FILTERING:     g_value_set_boolean (value, tw_event_list_get_filtering (self)); break;
    case PROP_RELATIVE_TIME: g_value_set_boolean (value, self->relative_time); break;
    default:                 G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_event_list_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TwEventList *self = TW_EVENT_LIST (object);

  switch (prop_id)
    {
    case PROP_VIEW_STATE:    tw_event_list_set_view_state (self, g_value_get_object (value)); break;
    case PROP_RELATIVE_TIME: tw_event_list_set_relative_time (self, g_value_get_boolean (value)); break;
    default:                 G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_event_list_class_init (TwEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_event_list_dispose;
  object_class->get_property = tw_event_list_get_property;
  object_class->set_property = tw_event_list_set_property;

  properties[PROP_VIEW_STATE] =
    g_param_spec_object ("view-state", NULL, NULL, TW_TYPE_VIEW_STATE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILTERING] =
    g_param_spec_boolean ("filtering", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_RELATIVE_TIME] =
    g_param_spec_boolean ("relative-time", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "eventlist.relative-time", "relative-time");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventlist");
}

static void
tw_event_list_init (TwEventList *self)
{
  g_autoptr(GMenu) time_menu = g_menu_new ();

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->filter_bar = TW_EVENT_FILTER_BAR (tw_event_filter_bar_new ());
  g_signal_connect_swapped (self->filter_bar, "changed", G_CALLBACK (refilter), self);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->filter_bar));

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  self->time_column = add_column (self, _("Time (s)"), COLUMN_TIME, 150);
  g_menu_append (time_menu, _("Time Since the First Event"), "eventlist.relative-time");
  gtk_column_view_column_set_header_menu (self->time_column, G_MENU_MODEL (time_menu));
  add_column (self, _("CPU"), COLUMN_CPU, 50);
  add_column (self, _("Task"), COLUMN_TASK, 180);
  add_column (self, _("Type"), COLUMN_TYPE, 180);
  add_column (self, _("Arguments"), COLUMN_ARGS, -1);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->column_view));
  gtk_box_append (GTK_BOX (self->box), self->scroller);
}

/**
 * tw_event_list_new:
 *
 * Returns: (transfer floating): an empty event list; give it a view state to show a trace
 */
GtkWidget *
tw_event_list_new (void)
{
  return g_object_new (TW_TYPE_EVENT_LIST, NULL);
}

/**
 * tw_event_list_get_view_state:
 *
 * Returns: (transfer none) (nullable): the view state shown
 */
TwViewState *
tw_event_list_get_view_state (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), NULL);

  return self->view_state;
}

/**
 * tw_event_list_set_view_state:
 * @view_state: (nullable): the trace and selection to show and drive
 *
 * Shows every event of @view_state's trace; filters are reset. A trace that is not
 * sealed (a live one) is followed as it grows.
 */
void
tw_event_list_set_view_state (TwEventList *self,
                              TwViewState *view_state)
{
  g_autoptr(TwTraceModel) model = NULL;

  g_return_if_fail (TW_IS_EVENT_LIST (self));
  g_return_if_fail (view_state == NULL || TW_IS_VIEW_STATE (view_state));

  if (self->view_state == view_state)
    return;

  if (self->view_state)
    g_clear_signal_handler (&self->selected_event_handler, self->view_state);
  g_set_object (&self->view_state, view_state);

  cancel_filtering (self);
  stop_following_growth (self);
  if (view_state)
    self->selected_event_handler =
      g_signal_connect_swapped (view_state, "notify::selected-event",
                                G_CALLBACK (view_state_selected_event_cb), self);
  /* a new trace starts at its first row */
  g_clear_object (&self->model);
  if (view_state)
    model = tw_trace_model_new (tw_view_state_get_trace (view_state));
  install_model (self, model);

  g_signal_handlers_block_by_func (self->filter_bar, refilter, self);
  tw_event_filter_bar_set_trace (self->filter_bar, get_trace (self));
  g_signal_handlers_unblock_by_func (self->filter_bar, refilter, self);
  update_count_label (self);
  size_time_column (self);
  if (model && !tw_trace_is_sealed (tw_trace_model_get_trace (model)))
    self->growth_source = g_timeout_add (GROWTH_INTERVAL_MS, follow_growth_cb, self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VIEW_STATE]);
}
/**
 * tw_event_list_get_column_view:
 *
 * Returns: (transfer none): the column view, for tests and keyboard focus
 */
GtkColumnView *
tw_event_list_get_column_view (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), NULL);

  return self->column_view;
}

/**
 * tw_event_list_get_model:
 *
 * Returns: (transfer none) (nullable): the rows shown
 */
TwTraceModel *
tw_event_list_get_model (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), NULL);

  return self->model;
}

/**
 * tw_event_list_get_selected_position:
 *
 * Returns: the selected row's position in the list, or %GTK_INVALID_LIST_POSITION
 */
guint
tw_event_list_get_selected_position (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), GTK_INVALID_LIST_POSITION);

  return self->selection ? gtk_single_selection_get_selected (self->selection) : GTK_INVALID_LIST_POSITION;
}

/**
 * tw_event_list_set_filter_text:
 * @text: (nullable): text a shown row's type or task contains
 */
void
tw_event_list_set_filter_text (TwEventList *self,
                               const char  *text)
{
  g_return_if_fail (TW_IS_EVENT_LIST (self));

  /* refilter now rather than after the entry's search delay */
  tw_event_filter_bar_set_text (self->filter_bar, text);
}

/**
 * tw_event_list_set_filter_cpu:
 * @cpu: the CPU to show, or %TW_CPU_NONE for all
 */
void
tw_event_list_set_filter_cpu (TwEventList *self,
                              guint16      cpu)
{
  g_return_if_fail (TW_IS_EVENT_LIST (self));

  tw_event_filter_bar_set_cpu (self->filter_bar, cpu);
}

/**
 * tw_event_list_get_filtering:
 *
 * Returns: %TRUE while a filter is being computed in a thread
 */
gboolean
tw_event_list_get_filtering (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), FALSE);

  return self->pending_model != NULL;
}

/**
 * tw_event_list_focus_search:
 *
 * Moves the keyboard focus to the find entry and selects its text.
 */
void
tw_event_list_focus_search (TwEventList *self)
{
  g_return_if_fail (TW_IS_EVENT_LIST (self));

  tw_event_filter_bar_focus_search (self->filter_bar);
}

/**
 * tw_event_list_get_relative_time:
 *
 * Returns: whether the Time column shows times since the trace's first event
 */
gboolean
tw_event_list_get_relative_time (TwEventList *self)
{
  g_return_val_if_fail (TW_IS_EVENT_LIST (self), FALSE);

  return self->relative_time;
}

/**
 * tw_event_list_set_relative_time:
 * @relative_time: %TRUE for "+s.nnnnnnnnn" since the first event (its time in the
 *   column's title), %FALSE for the events' own times
 *
 * The Time column's header menu (a right click) toggles it too.
 */
void
tw_event_list_set_relative_time (TwEventList *self,
                                 gboolean     relative_time)
{
  g_return_if_fail (TW_IS_EVENT_LIST (self));

  relative_time = !!relative_time;
  if (self->relative_time == (guint) relative_time)
    return;
  self->relative_time = relative_time;
  size_time_column (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RELATIVE_TIME]);
}
