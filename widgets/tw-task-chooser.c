/* tw-task-chooser.c: a button that picks one of a trace's tasks, searched by name or pid
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-task-chooser.h"

/*
 * GTK 4.8's GtkDropDown searches with a prefix match on one string and gives no way to
 * change that, so "2673" could never find the threads of process 2673 nor "consumerd"
 * find lttng-consumerd. This chooser is a menu button whose popover holds a search entry
 * and a list of the tasks whose row text contains what was typed, case-insensitively;
 * the row text names the task as the rest of the window does ("name-tid") and adds the
 * process id when it differs, so a pid finds every thread of its process.
 *
 * The rows are matched against folded labels computed once per task (a search over the
 * 8 000 tasks of an LTTng trace is a pass of strstr), and the list's model is replaced
 * by one splice per search. A live trace gains tasks: tw_task_chooser_update() appends
 * the new ones.
 */

#define LABEL_CHARS 18

struct _TwTaskChooser
{
  GtkWidget           parent_instance;

  TwTrace            *trace;
  char               *all_label;    /* first row, meaning no task; NULL: pick a task */
  guint32             selected;     /* TW_TASK_NONE: the all row (or nothing) */
  guint32             n_seen;       /* trace tasks looked at so far */
  GArray             *tasks;        /* guint32: the tasks offered, in trace order */
  GPtrArray          *labels;       /* what each offered task's row shows */
  GPtrArray          *keys;         /* @labels folded: what a search matches */
  GArray             *matches;      /* guint32 per row shown; TW_TASK_NONE is the all row */
  char               *query;        /* the search text, folded; "" for none */
  guint               show_idle : 1;

  GtkWidget          *button;
  GtkWidget          *button_label;
  GtkWidget          *popover;
  GtkWidget          *search_entry;
  GtkWidget          *list_view;
  GtkStringList      *rows;         /* the labels of @matches: the list view's model */
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (TwTaskChooser, tw_task_chooser, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_TRACE,
  PROP_ALL_LABEL,
  PROP_SHOW_IDLE,
  PROP_SELECTED_TASK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
dup_row_label (TwTrace *trace,
               guint32  task)
{
  const TwTask *t = tw_trace_get_task (trace, task);
  g_autofree char *label = tw_trace_dup_task_label (trace, task);

  g_autofree char *pid = NULL;

  /* a thread's row also names its process, so that the pid finds every thread */
  if (t->name == NULL || t->pid < 0 || t->tid < 0 || t->pid == t->tid)
    return g_steal_pointer (&label);
  pid = g_strdup_printf ("%" G_GINT64_FORMAT, t->pid);
  /* TRANSLATORS: a thread's task label, then its process id */
  return g_strdup_printf (_("%s · pid %s"), label, pid);
}

/* Where @task is in @tasks (trace order, so sorted), or -1 when it is not offered. */
static int
find_offered (TwTaskChooser *self,
              guint32        task)
{
  guint lo = 0, hi = self->tasks->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint32 t = g_array_index (self->tasks, guint32, mid);

      if (t == task)
        return (int) mid;
      if (t < task)
        lo = mid + 1;
      else
        hi = mid;
    }
  return -1;
}

static const char *
label_of (TwTaskChooser *self,
          guint32        task)
{
  int i = find_offered (self, task);

  if (i >= 0)
    return self->labels->pdata[i];
  return self->all_label ? self->all_label : "";
}

static void
update_button_label (TwTaskChooser *self)
{
  gtk_label_set_text (GTK_LABEL (self->button_label), label_of (self, self->selected));
}

static gboolean
key_matches (TwTaskChooser *self,
             guint          i)
{
  return self->query[0] == '\0' || strstr (self->keys->pdata[i], self->query) != NULL;
}

/* Selects the chosen task's row when it is shown, so the list opens on it. */
static void
select_chosen_row (TwTaskChooser *self)
{
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < self->matches->len; i++)
    if (g_array_index (self->matches, guint32, i) == self->selected)
      {
        position = i;
        break;
      }
  gtk_single_selection_set_selected (self->selection, position);
}

/* Shows the rows that match the query: one items-changed for the whole list. */
static void
refresh_rows (TwTaskChooser *self)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  guint old_n = self->matches->len;

  g_array_set_size (self->matches, 0);
  if (self->all_label && self->query[0] == '\0')
    {
      guint32 none = TW_TASK_NONE;

      g_array_append_val (self->matches, none);
      g_ptr_array_add (texts, self->all_label);
    }
  for (guint i = 0; i < self->tasks->len; i++)
    if (key_matches (self, i))
      {
        g_array_append_val (self->matches, g_array_index (self->tasks, guint32, i));
        g_ptr_array_add (texts, self->labels->pdata[i]);
      }
  g_ptr_array_add (texts, NULL);
  gtk_string_list_splice (self->rows, 0, old_n, (const char * const *) texts->pdata);
  select_chosen_row (self);
}

/* Offers the tasks the trace added since the last look; returns whether there were any. */
static gboolean
take_new_tasks (TwTaskChooser *self)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  guint32 n_tasks = self->trace ? tw_trace_get_n_tasks (self->trace) : 0;
  guint old_rows = self->matches->len;

  if (n_tasks <= self->n_seen)
    return FALSE;
  for (guint32 k = self->n_seen; k < n_tasks; k++)
    {
      const TwTask *t = tw_trace_get_task (self->trace, k);
      char *label;

      if ((t->flags & TW_TASK_FLAG_IDLE) && !self->show_idle)
        continue;
      label = dup_row_label (self->trace, k);
      g_array_append_val (self->tasks, k);
      g_ptr_array_add (self->labels, label);
      g_ptr_array_add (self->keys, g_utf8_casefold (label, -1));
      if (key_matches (self, self->tasks->len - 1))
        {
          g_array_append_val (self->matches, k);
          g_ptr_array_add (texts, label);
        }
    }
  self->n_seen = n_tasks;
  g_ptr_array_add (texts, NULL);
  if (self->matches->len > old_rows)
    gtk_string_list_splice (self->rows, old_rows, 0, (const char * const *) texts->pdata);
  return TRUE;
}

static void
choose (TwTaskChooser *self,
        guint32        task)
{
  if (self->selected != task)
    {
      self->selected = task;
      update_button_label (self);
      select_chosen_row (self);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TASK]);
    }
  gtk_popover_popdown (GTK_POPOVER (self->popover));
}

static void
row_activated_cb (TwTaskChooser *self,
                  guint          position)
{
  if (position < self->matches->len)
    choose (self, g_array_index (self->matches, guint32, position));
}

static void
search_changed_cb (TwTaskChooser *self)
{
  g_free (self->query);
  self->query = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), -1);
  g_strstrip (self->query);
  refresh_rows (self);
  /* the list opened on the chosen task, maybe far down: show the first match */
  if (self->matches->len > 0)
    gtk_widget_activate_action (self->list_view, "list.scroll-to-item", "u", 0);
}

/* Enter in the search entry takes the first match, as a dropdown's search does. */
static void
search_activate_cb (TwTaskChooser *self)
{
  row_activated_cb (self, 0);
}

static void
stop_search_cb (TwTaskChooser *self)
{
  gtk_popover_popdown (GTK_POPOVER (self->popover));
}

/* Down from the search entry goes to the rows. */
static gboolean
search_key_pressed_cb (TwTaskChooser   *self,
                       guint            keyval,
                       guint            keycode,
                       GdkModifierType  state)
{
  if (keyval != GDK_KEY_Down && keyval != GDK_KEY_KP_Down)
    return FALSE;
  if (self->matches->len == 0)
    return TRUE;
  gtk_widget_activate_action (self->list_view, "list.scroll-to-item", "u", 0);
  gtk_widget_child_focus (self->list_view, GTK_DIR_TAB_FORWARD);
  return TRUE;
}

/* A new search at each opening, typed straight away, the list on the chosen task. */
static void
popover_shown_cb (TwTaskChooser *self)
{
  guint position;

  if (gtk_editable_get_text (GTK_EDITABLE (self->search_entry))[0] != '\0')
    {
      gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      search_changed_cb (self);
    }
  gtk_widget_grab_focus (self->search_entry);
  position = gtk_single_selection_get_selected (self->selection);
  if (position != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (self->list_view, "list.scroll-to-item", "u", position);
}

static void
row_setup_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (item, label);
}

static void
row_bind_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

static void
tw_task_chooser_dispose (GObject *object)
{
  TwTaskChooser *self = TW_TASK_CHOOSER (object);

  g_clear_pointer (&self->button, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (tw_task_chooser_parent_class)->dispose (object);
}

static void
tw_task_chooser_finalize (GObject *object)
{
  TwTaskChooser *self = TW_TASK_CHOOSER (object);

  g_free (self->all_label);
  g_free (self->query);
  g_array_unref (self->tasks);
  g_ptr_array_unref (self->labels);
  g_ptr_array_unref (self->keys);
  g_array_unref (self->matches);

  G_OBJECT_CLASS (tw_task_chooser_parent_class)->finalize (object);
}

static void
tw_task_chooser_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  TwTaskChooser *self = TW_TASK_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_TRACE:         g_value_set_object (value, self->trace); break;
    case PROP_ALL_LABEL:     g_value_set_string (value, self->all_label); break;
    case PROP_SHOW_IDLE:     g_value_set_boolean (value, self->show_idle); break;
    case PROP_SELECTED_TASK: g_value_set_uint (value, self->selected); break;
    default:                 G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_task_chooser_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  TwTaskChooser *self = TW_TASK_CHOOSER (object);

  switch (prop_id)
    {
    case PROP_TRACE:         tw_task_chooser_set_trace (self, g_value_get_object (value)); break;
    case PROP_ALL_LABEL:     tw_task_chooser_set_all_label (self, g_value_get_string (value)); break;
    case PROP_SHOW_IDLE:     tw_task_chooser_set_show_idle (self, g_value_get_boolean (value)); break;
    case PROP_SELECTED_TASK: tw_task_chooser_set_selected_task (self, g_value_get_uint (value)); break;
    default:                 G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_task_chooser_class_init (TwTaskChooserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_task_chooser_dispose;
  object_class->finalize = tw_task_chooser_finalize;
  object_class->get_property = tw_task_chooser_get_property;
  object_class->set_property = tw_task_chooser_set_property;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, TW_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ALL_LABEL] =
    g_param_spec_string ("all-label", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SHOW_IDLE] =
    g_param_spec_boolean ("show-idle", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_TASK] =
    g_param_spec_uint ("selected-task", NULL, NULL, 0, G_MAXUINT32, TW_TASK_NONE,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "taskchooser");
}

static GtkWidget *
new_popover (TwTaskChooser *self)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();
  GtkWidget *popover = gtk_popover_new ();

  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Name or pid…"), NULL);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  g_signal_connect_swapped (self->search_entry, "activate", G_CALLBACK (search_activate_cb), self);
  g_signal_connect_swapped (self->search_entry, "stop-search", G_CALLBACK (stop_search_cb), self);
  g_signal_connect_swapped (keys, "key-pressed", G_CALLBACK (search_key_pressed_cb), self);
  gtk_widget_add_controller (self->search_entry, keys);
  gtk_box_append (GTK_BOX (box), self->search_entry);

  g_signal_connect (factory, "setup", G_CALLBACK (row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (row_bind_cb), NULL);
  self->list_view = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)),
                                       g_object_ref (factory));
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (self->list_view), TRUE);
  g_signal_connect_swapped (self->list_view, "activate", G_CALLBACK (row_activated_cb), self);
  gtk_search_entry_set_key_capture_widget (GTK_SEARCH_ENTRY (self->search_entry), self->list_view);

  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_width (GTK_SCROLLED_WINDOW (scroller), 300);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 320);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list_view);
  gtk_box_append (GTK_BOX (box), scroller);

  gtk_popover_set_child (GTK_POPOVER (popover), box);
  g_signal_connect_swapped (popover, "show", G_CALLBACK (popover_shown_cb), self);
  return popover;
}

static void
tw_task_chooser_init (TwTaskChooser *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->selected = TW_TASK_NONE;
  self->show_idle = TRUE;
  self->query = g_strdup ("");
  self->tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->labels = g_ptr_array_new_with_free_func (g_free);
  self->keys = g_ptr_array_new_with_free_func (g_free);
  self->matches = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->rows = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->rows));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);

  /* a fixed width: the bar around the button must not move when the choice changes */
  self->button_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->button_label), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (self->button_label), LABEL_CHARS);
  gtk_label_set_max_width_chars (GTK_LABEL (self->button_label), LABEL_CHARS);
  gtk_label_set_xalign (GTK_LABEL (self->button_label), 0);
  gtk_widget_set_hexpand (self->button_label, TRUE);
  gtk_box_append (GTK_BOX (box), self->button_label);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name ("pan-down-symbolic"));

  self->popover = new_popover (self);
  self->button = gtk_menu_button_new ();
  gtk_menu_button_set_child (GTK_MENU_BUTTON (self->button), box);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (self->button), self->popover);
  gtk_widget_set_parent (self->button, GTK_WIDGET (self));
}

/**
 * tw_task_chooser_new:
 *
 * Returns: (transfer floating): a chooser without a trace; set one with
 *   tw_task_chooser_set_trace()
 */
GtkWidget *
tw_task_chooser_new (void)
{
  return g_object_new (TW_TYPE_TASK_CHOOSER, NULL);
}

/**
 * tw_task_chooser_set_trace:
 * @trace: (nullable): whose tasks to offer
 *
 * Offers @trace's tasks and chooses the all row, or the first task without one.
 */
void
tw_task_chooser_set_trace (TwTaskChooser *self,
                           TwTrace       *trace)
{
  guint32 first;

  g_return_if_fail (TW_IS_TASK_CHOOSER (self));
  g_return_if_fail (trace == NULL || TW_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  self->n_seen = 0;
  g_array_set_size (self->tasks, 0);
  g_ptr_array_set_size (self->labels, 0);
  g_ptr_array_set_size (self->keys, 0);
  take_new_tasks (self);
  refresh_rows (self);

  first = self->all_label || self->tasks->len == 0 ? TW_TASK_NONE : g_array_index (self->tasks, guint32, 0);
  gtk_widget_set_sensitive (GTK_WIDGET (self), trace != NULL);
  self->selected = first;
  update_button_label (self);
  select_chosen_row (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TASK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRACE]);
}

/**
 * tw_task_chooser_get_trace:
 *
 * Returns: (transfer none) (nullable): the trace whose tasks are offered
 */
TwTrace *
tw_task_chooser_get_trace (TwTaskChooser *self)
{
  g_return_val_if_fail (TW_IS_TASK_CHOOSER (self), NULL);

  return self->trace;
}

/**
 * tw_task_chooser_update:
 *
 * Offers the tasks a growing (live) trace added since the last call. Costs O(new tasks).
 */
void
tw_task_chooser_update (TwTaskChooser *self)
{
  g_return_if_fail (TW_IS_TASK_CHOOSER (self));

  if (take_new_tasks (self) && self->selected == TW_TASK_NONE && self->all_label == NULL
      && self->tasks->len > 0)
    choose (self, g_array_index (self->tasks, guint32, 0));
}

/**
 * tw_task_chooser_set_all_label:
 * @label: (nullable): the first row's text, which chooses no task ("All tasks"); %NULL
 *   when a task must be chosen
 */
void
tw_task_chooser_set_all_label (TwTaskChooser *self,
                               const char    *label)
{
  g_return_if_fail (TW_IS_TASK_CHOOSER (self));

  if (g_strcmp0 (self->all_label, label) == 0)
    return;
  g_free (self->all_label);
  self->all_label = g_strdup (label);
  refresh_rows (self);
  update_button_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ALL_LABEL]);
}

/**
 * tw_task_chooser_get_all_label:
 *
 * Returns: (nullable): the text of the row that chooses no task
 */
const char *
tw_task_chooser_get_all_label (TwTaskChooser *self)
{
  g_return_val_if_fail (TW_IS_TASK_CHOOSER (self), NULL);

  return self->all_label;
}

/**
 * tw_task_chooser_set_show_idle:
 * @show_idle: whether the CPUs' idle tasks are offered (they are by default); takes
 *   effect at the next tw_task_chooser_set_trace()
 */
void
tw_task_chooser_set_show_idle (TwTaskChooser *self,
                               gboolean       show_idle)
{
  g_return_if_fail (TW_IS_TASK_CHOOSER (self));

  show_idle = !!show_idle;
  if (self->show_idle == (guint) show_idle)
    return;
  self->show_idle = show_idle;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOW_IDLE]);
}

/**
 * tw_task_chooser_get_show_idle:
 *
 * Returns: whether the CPUs' idle tasks are offered
 */
gboolean
tw_task_chooser_get_show_idle (TwTaskChooser *self)
{
  g_return_val_if_fail (TW_IS_TASK_CHOOSER (self), FALSE);

  return self->show_idle;
}

/**
 * tw_task_chooser_get_selected_task:
 *
 * Returns: the chosen task, or %TW_TASK_NONE for the all row (or when there is none)
 */
guint32
tw_task_chooser_get_selected_task (TwTaskChooser *self)
{
  g_return_val_if_fail (TW_IS_TASK_CHOOSER (self), TW_TASK_NONE);

  return self->selected;
}

/**
 * tw_task_chooser_set_selected_task:
 * @task: an offered task, or %TW_TASK_NONE for the all row
 *
 * Chooses @task; a task that is not offered leaves the choice as it is.
 */
void
tw_task_chooser_set_selected_task (TwTaskChooser *self,
                                   guint32        task)
{
  g_return_if_fail (TW_IS_TASK_CHOOSER (self));

  if (task == TW_TASK_NONE ? self->all_label == NULL : find_offered (self, task) < 0)
    return;
  choose (self, task);
}
