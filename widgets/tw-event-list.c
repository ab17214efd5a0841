/* tw-event-list.c: the virtual list of a trace's events, with filters
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-event-list.h"
#include "tw-time-text.h"

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
 * selected-event set elsewhere (the timeline) selects and scrolls to its row.
 */

struct _TwEventList
{
  GtkWidget           parent_instance;

  TwViewState        *view_state;
  gulong              selected_event_handler;
  TwTraceModel       *model;
  GtkSingleSelection *selection;
  GCancellable       *filter_cancellable;
  TwTraceModel       *pending_model;  /* being filtered in a thread, shown when done */
  guint               syncing : 1;   /* selection change caused by the view state */

  GtkWidget          *box;
  GtkWidget          *search_entry;
  GtkWidget          *type_dropdown;
  GtkWidget          *task_dropdown;
  GtkWidget          *cpu_dropdown;
  GtkWidget          *count_label;
  GtkWidget          *scroller;
  GtkColumnView      *column_view;
};

G_DEFINE_FINAL_TYPE (TwEventList, tw_event_list, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_VIEW_STATE,
  PROP_FILTERING,
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

static void
update_count_label (TwEventList *self)
{
  g_autofree char *text = NULL;
  guint n_shown;
  guint64 n_total;

  if (self->model == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->count_label), "");
      return;
    }

  n_shown = g_list_model_get_n_items (G_LIST_MODEL (self->model));
  n_total = tw_trace_get_n_events (tw_trace_model_get_trace (self->model));
  if (tw_trace_model_get_filter (self->model) == NULL)
    text = g_strdup_printf ("%u events", n_shown);
  else
    text = g_strdup_printf ("%u of %" G_GUINT64_FORMAT " events", n_shown, n_total);
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
}

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

static void install_model (TwEventList  *self,
                           TwTraceModel *model);

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
  TwTrace *trace;
  guint type_pos, task_pos, cpu_pos;

  if (self->model == NULL)
    return;

  trace = tw_trace_model_get_trace (self->model);
  filter = tw_event_filter_new ();

  /* position 0 of each drop-down is "all" */
  type_pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->type_dropdown));
  if (type_pos != GTK_INVALID_LIST_POSITION && type_pos > 0)
    tw_event_filter_add_type (filter, type_pos - 1);
  task_pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->task_dropdown));
  if (task_pos != GTK_INVALID_LIST_POSITION && task_pos > 0)
    tw_event_filter_add_task (filter, task_pos - 1);
  cpu_pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->cpu_dropdown));
  if (cpu_pos != GTK_INVALID_LIST_POSITION && cpu_pos > 0)
    tw_event_filter_add_cpu (filter, cpu_pos - 1);
  tw_event_filter_set_text (filter, trace,
                            gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));

  cancel_filtering (self);
  self->filter_cancellable = g_cancellable_new ();
  self->pending_model = tw_trace_model_new (trace);
  tw_trace_model_set_filter_async (self->pending_model, filter, self->filter_cancellable,
                                   filter_done_cb, g_object_ref (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FILTERING]);
}

static GtkStringList *
build_choices (TwTrace    *trace,
               const char *all,
               int         what)
{
  GtkStringList *list = gtk_string_list_new (NULL);

  gtk_string_list_append (list, all);
  if (trace == NULL)
    return list;

  switch (what)
    {
    case COLUMN_TYPE:
      for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
        gtk_string_list_append (list, tw_trace_get_event_type (trace, t)->name);
      break;
    case COLUMN_TASK:
      for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
        {
          g_autofree char *label = tw_trace_dup_task_label (trace, t);
          gtk_string_list_append (list, label);
        }
      break;
    case COLUMN_CPU:
      for (guint c = 0; c < tw_trace_get_n_cpus (trace); c++)
        {
          g_autofree char *label = g_strdup_printf ("CPU %u", c);
          gtk_string_list_append (list, label);
        }
      break;
    default:
      g_assert_not_reached ();
    }
  return list;
}

static void
set_choices (TwEventList *self,
             GtkWidget   *dropdown,
             const char  *all,
             int          what)
{
  TwTrace *trace = self->model ? tw_trace_model_get_trace (self->model) : NULL;
  g_autoptr(GtkStringList) list = build_choices (trace, all, what);

  g_signal_handlers_block_by_func (dropdown, refilter, self);
  gtk_drop_down_set_model (GTK_DROP_DOWN (dropdown), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 0);
  g_signal_handlers_unblock_by_func (dropdown, refilter, self);
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  int column = GPOINTER_TO_INT (user_data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_TIME || column == COLUMN_CPU ? 1.0 : 0.0);
  gtk_label_set_single_line_mode (GTK_LABEL (label), TRUE);
  if (column == COLUMN_ARGS || column == COLUMN_TASK)
    gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (column == COLUMN_TIME)
    gtk_widget_add_css_class (label, "numeric");
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
      {
        guint64 t = tw_event_item_get_time (item);
        text = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                                t / 1000000000, t % 1000000000);
      }
      break;
    case COLUMN_CPU:
      {
        guint16 cpu = tw_event_item_get_cpu (item);
        text = cpu == TW_CPU_NONE ? g_strdup ("-") : g_strdup_printf ("%u", cpu);
      }
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

static void
add_column (TwEventList *self,
            const char  *title,
            int          column,
            int          fixed_width)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) col = NULL;

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind_cb), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, g_object_ref (factory));
  gtk_column_view_column_set_resizable (col, TRUE);
  if (fixed_width > 0)
    gtk_column_view_column_set_fixed_width (col, fixed_width);
  else
    gtk_column_view_column_set_expand (col, TRUE);
  gtk_column_view_append_column (self->column_view, col);
}

/* Shows @model (or nothing) through a new selection model, keeping the keyboard focus in
 * the list and the view state's selected event selected. */
static void
install_model (TwEventList  *self,
               TwTraceModel *model)
{
  gboolean refocus = release_row_focus (self);
  GtkSingleSelection *selection;

  g_set_object (&self->model, model);

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
  sync_from_view_state (self);
}

static void
tw_event_list_dispose (GObject *object)
{
  TwEventList *self = (TwEventList *)object;

  tw_event_list_set_view_state (self, NULL);
  cancel_filtering (self);
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
    case PROP_VIEW_STATE: g_value_set_object (value, self->view_state); break;
    case PROP_FILTERING:  g_value_set_boolean (value, tw_event_list_get_filtering (self)); break;
    default:              G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
    case PROP_VIEW_STATE: tw_event_list_set_view_state (self, g_value_get_object (value)); break;
    default:              G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
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
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventlist");
}

static GtkWidget *
new_dropdown (TwEventList *self,
              const char  *all,
              const char  *tooltip)
{
  g_autoptr(GtkStringList) list = gtk_string_list_new (NULL);
  GtkWidget *dropdown;

  gtk_string_list_append (list, all);
  dropdown = gtk_drop_down_new (G_LIST_MODEL (g_object_ref (list)), NULL);
  gtk_widget_set_tooltip_text (dropdown, tooltip);
  g_signal_connect_swapped (dropdown, "notify::selected", G_CALLBACK (refilter), self);
  return dropdown;
}

static void
tw_event_list_init (TwEventList *self)
{
  GtkWidget *bar;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_box_append (GTK_BOX (self->box), bar);

  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", "Find type or task…", NULL);
  gtk_widget_set_hexpand (self->search_entry, TRUE);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (refilter), self);
  gtk_box_append (GTK_BOX (bar), self->search_entry);

  self->type_dropdown = new_dropdown (self, "All types", "Show one event type");
  self->task_dropdown = new_dropdown (self, "All tasks", "Show one task's events");
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (self->task_dropdown), TRUE);
  self->cpu_dropdown = new_dropdown (self, "All CPUs", "Show one CPU's events");
  gtk_box_append (GTK_BOX (bar), self->type_dropdown);
  gtk_box_append (GTK_BOX (bar), self->task_dropdown);
  gtk_box_append (GTK_BOX (bar), self->cpu_dropdown);

  self->count_label = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->count_label, "dim-label");
  gtk_box_append (GTK_BOX (bar), self->count_label);

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->column_view), "data-table");
  add_column (self, "Time (s)", COLUMN_TIME, 150);
  add_column (self, "CPU", COLUMN_CPU, 50);
  add_column (self, "Task", COLUMN_TASK, 180);
  add_column (self, "Type", COLUMN_TYPE, 180);
  add_column (self, "Arguments", COLUMN_ARGS, -1);

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
 * Shows every event of @view_state's trace; filters are reset.
 */
void
tw_event_list_set_view_state (TwEventList *self,
                              TwViewState *view_state)
{
  g_return_if_fail (TW_IS_EVENT_LIST (self));
  g_return_if_fail (view_state == NULL || TW_IS_VIEW_STATE (view_state));

  if (self->view_state == view_state)
    return;

  if (self->view_state)
    g_clear_signal_handler (&self->selected_event_handler, self->view_state);
  g_set_object (&self->view_state, view_state);

  cancel_filtering (self);
  if (view_state)
    self->selected_event_handler =
      g_signal_connect_swapped (view_state, "notify::selected-event",
                                G_CALLBACK (view_state_selected_event_cb), self);
  {
    g_autoptr(TwTraceModel) model = view_state ? tw_trace_model_new (tw_view_state_get_trace (view_state)) : NULL;
    install_model (self, model);
  }

  g_signal_handlers_block_by_func (self->search_entry, refilter, self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
  g_signal_handlers_unblock_by_func (self->search_entry, refilter, self);
  set_choices (self, self->type_dropdown, "All types", COLUMN_TYPE);
  set_choices (self, self->task_dropdown, "All tasks", COLUMN_TASK);
  set_choices (self, self->cpu_dropdown, "All CPUs", COLUMN_CPU);

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

  /* set directly and refilter now rather than waiting for the entry's search delay */
  g_signal_handlers_block_by_func (self->search_entry, refilter, self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text ? text : "");
  g_signal_handlers_unblock_by_func (self->search_entry, refilter, self);
  refilter (self);
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

  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->cpu_dropdown),
                              cpu == TW_CPU_NONE ? 0 : (guint) cpu + 1);
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

  gtk_widget_grab_focus (self->search_entry);
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}
