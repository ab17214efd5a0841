/* tw-event-filter-bar.c: the event list's filters (Find, type, task, CPU) and its count
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "tw-event-filter-bar.h"
#include "tw-task-chooser.h"

/*
 * A row of controls that says which rows to show, as a TwEventFilter, and emits
 * ::changed when the user changes one. Its controls keep their places whatever they
 * show: the drop-downs' buttons and the task chooser have fixed widths (a long type
 * name is ellipsized), and the count is as wide as the longest count the trace can
 * have, so nothing moves when a filter is picked or the count changes.
 *
 * Position 0 of the type and CPU drop-downs is "all"; position p > 0 is type or CPU
 * p - 1. A growing trace gets new choices from tw_event_filter_bar_update().
 */

#define TYPE_CHARS 16
#define CPU_CHARS  8

struct _TwEventFilterBar
{
  GtkWidget  parent_instance;

  TwTrace   *trace;
  char      *find_text;  /* Find's text as last reported by ::changed */
  guint      n_types;   /* types, CPUs and tasks offered */
  guint      n_cpus;
  guint32    n_tasks;

  GtkWidget *search_entry;
  GtkWidget *type_dropdown;
  GtkWidget *task_chooser;
  GtkWidget *cpu_dropdown;
  GtkWidget *count_label;
};

G_DEFINE_FINAL_TYPE (TwEventFilterBar, tw_event_filter_bar, GTK_TYPE_WIDGET)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
emit_changed (TwEventFilterBar *self)
{

  g_signal_emit (self, signals[CHANGED], 0);
}

/* GtkSearchEntry reports a change 150 ms after the text changed, even when the text was
 * set (and reported) by tw_event_filter_bar_set_text(): report each text once. */
static void
search_changed_cb (TwEventFilterBar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_strcmp0 (text, self->find_text) == 0)
    return;
  g_free (self->find_text);
  self->find_text = g_strdup (text);
  emit_changed (self);
}

/* Without ::changed: replacing the text passes through "", which the entry reports at
 * once, and the new text, which it reports later and search_changed_cb() ignores. */
static void
set_find_text (TwEventFilterBar *self,
               const char       *text)
{
  g_autofree char *copy = g_strdup (text ? text : "");

  g_signal_handlers_block_by_func (self->search_entry, search_changed_cb, self);
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), copy);
  g_signal_handlers_unblock_by_func (self->search_entry, search_changed_cb, self);
  g_free (self->find_text);
  self->find_text = g_steal_pointer (&copy);
}

static GtkStringList *
dropdown_strings (GtkWidget *dropdown)
{
  return GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (dropdown)));
}

static gboolean
text_matches (const char *needle,
              const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);

  return strstr (folded, needle) != NULL;
}

/* Offers the types and CPUs the trace has beyond those offered; returns whether a new
 * type or task matches @needle (folded Find text; NULL: none). */
static gboolean
add_choices (TwEventFilterBar *self,
             const char       *needle)
{
  guint n_types = tw_trace_get_n_event_types (self->trace);
  guint n_cpus = tw_trace_get_n_cpus (self->trace);
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);
  gboolean matched = FALSE;

  for (; self->n_types < n_types; self->n_types++)
    {
      const char *name = tw_trace_get_event_type (self->trace, self->n_types)->name;

      gtk_string_list_append (dropdown_strings (self->type_dropdown), name);
      matched = matched || (needle && text_matches (needle, name));
    }
  for (; self->n_cpus < n_cpus; self->n_cpus++)
    {
      /* TRANSLATORS: a CPU filter's choice; %u is the CPU number */
      g_autofree char *label = g_strdup_printf (_("CPU %u"), self->n_cpus);

      gtk_string_list_append (dropdown_strings (self->cpu_dropdown), label);
    }
  for (; self->n_tasks < n_tasks; self->n_tasks++)
    if (needle && !matched)
      {
        g_autofree char *label = tw_trace_dup_task_label (self->trace, self->n_tasks);

        matched = text_matches (needle, label);
      }
  return matched;
}

static void
reset_dropdown (TwEventFilterBar *self,
                GtkWidget        *dropdown,
                const char       *all)
{
  const char *strings[] = { all, NULL };
  g_autoptr(GtkStringList) list = gtk_string_list_new (strings);

  g_signal_handlers_block_by_func (dropdown, emit_changed, self);
  gtk_drop_down_set_model (GTK_DROP_DOWN (dropdown), G_LIST_MODEL (list));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 0);
  g_signal_handlers_unblock_by_func (dropdown, emit_changed, self);
}

static char *
dup_count_text (guint64  n_shown,
                guint64  n_total,
                gboolean filtered)
{
  g_autofree char *shown = g_strdup_printf ("%" G_GUINT64_FORMAT, n_shown);
  g_autofree char *total = g_strdup_printf ("%" G_GUINT64_FORMAT, n_total);

  if (!filtered)
    return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events", (gulong) n_shown), shown);
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s of %s event", "%s of %s events", (gulong) n_total),
                          shown, total);
}

static void
choice_setup_cb (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  chars)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (GPOINTER_TO_INT (chars) > 0)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_width_chars (GTK_LABEL (label), GPOINTER_TO_INT (chars));
      gtk_label_set_max_width_chars (GTK_LABEL (label), GPOINTER_TO_INT (chars));
    }
  gtk_list_item_set_child (list_item, label);
}

static void
choice_bind_cb (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (list_item)));
}

/* @chars > 0: labels of that many characters, ellipsized; 0: as long as their text */
static GtkListItemFactory *
new_choice_factory (int chars)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (choice_setup_cb), GINT_TO_POINTER (chars));
  g_signal_connect (factory, "bind", G_CALLBACK (choice_bind_cb), NULL);
  return factory;
}

/* A drop-down whose button keeps its width whatever is chosen; its list shows whole names. */
static GtkWidget *
new_dropdown (TwEventFilterBar *self,
              int               chars,
              const char       *tooltip)
{
  g_autoptr(GtkListItemFactory) button_factory = new_choice_factory (chars);
  g_autoptr(GtkListItemFactory) list_factory = new_choice_factory (0);
  GtkWidget *dropdown = gtk_drop_down_new (NULL, NULL);

  gtk_drop_down_set_factory (GTK_DROP_DOWN (dropdown), button_factory);
  gtk_drop_down_set_list_factory (GTK_DROP_DOWN (dropdown), list_factory);
  gtk_widget_set_tooltip_text (dropdown, tooltip);
  g_signal_connect_swapped (dropdown, "notify::selected", G_CALLBACK (emit_changed), self);
  return dropdown;
}

static void
tw_event_filter_bar_dispose (GObject *object)
{
  TwEventFilterBar *self = TW_EVENT_FILTER_BAR (object);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (tw_event_filter_bar_parent_class)->dispose (object);
}

static void
tw_event_filter_bar_finalize (GObject *object)
{
  g_free (TW_EVENT_FILTER_BAR (object)->find_text);

  G_OBJECT_CLASS (tw_event_filter_bar_parent_class)->finalize (object);
}

static void
tw_event_filter_bar_class_init (TwEventFilterBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_event_filter_bar_dispose;
  object_class->finalize = tw_event_filter_bar_finalize;

  /**
   * TwEventFilterBar::changed:
   *
   * The user changed a filter: tw_event_filter_bar_dup_filter() says which rows to show.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "eventfilterbar");
}

static void
tw_event_filter_bar_init (TwEventFilterBar *self)
{
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  gtk_widget_add_css_class (GTK_WIDGET (self), "toolbar");

  self->search_entry = gtk_search_entry_new ();
  g_object_set (self->search_entry, "placeholder-text", _("Find type or task…"), NULL);
  gtk_widget_set_hexpand (self->search_entry, TRUE);
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed_cb), self);
  gtk_widget_set_parent (self->search_entry, GTK_WIDGET (self));

  self->type_dropdown = new_dropdown (self, TYPE_CHARS, _("Show one event type"));
  gtk_widget_set_parent (self->type_dropdown, GTK_WIDGET (self));

  self->task_chooser = tw_task_chooser_new ();
  tw_task_chooser_set_all_label (TW_TASK_CHOOSER (self->task_chooser), _("All tasks"));
  gtk_widget_set_tooltip_text (self->task_chooser, _("Show one task's events"));
  g_signal_connect_swapped (self->task_chooser, "notify::selected-task", G_CALLBACK (emit_changed), self);
  gtk_widget_set_parent (self->task_chooser, GTK_WIDGET (self));

  self->cpu_dropdown = new_dropdown (self, CPU_CHARS, _("Show one CPU's events"));
  gtk_widget_set_parent (self->cpu_dropdown, GTK_WIDGET (self));

  self->count_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->count_label), 1.0);
  gtk_widget_add_css_class (self->count_label, "dim-label");
  gtk_widget_add_css_class (self->count_label, "numeric");
  gtk_widget_set_parent (self->count_label, GTK_WIDGET (self));

  tw_event_filter_bar_set_trace (self, NULL);
}

/**
 * tw_event_filter_bar_new:
 *
 * Returns: (transfer floating): a filter bar without a trace
 */
GtkWidget *
tw_event_filter_bar_new (void)
{
  return g_object_new (TW_TYPE_EVENT_FILTER_BAR, NULL);
}

/**
 * tw_event_filter_bar_set_trace:
 * @trace: (nullable): whose types, tasks and CPUs to offer
 *
 * Offers @trace's choices and resets every filter (without ::changed); clears the count.
 */
void
tw_event_filter_bar_set_trace (TwEventFilterBar *self,
                               TwTrace          *trace)
{
  g_return_if_fail (TW_IS_EVENT_FILTER_BAR (self));
  g_return_if_fail (trace == NULL || TW_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  set_find_text (self, "");
  reset_dropdown (self, self->type_dropdown, _("All types"));
  reset_dropdown (self, self->cpu_dropdown, _("All CPUs"));
  self->n_types = 0;
  self->n_cpus = 0;
  self->n_tasks = 0;
  if (trace)
    add_choices (self, NULL);
  g_signal_handlers_block_by_func (self->task_chooser, emit_changed, self);
  tw_task_chooser_set_trace (TW_TASK_CHOOSER (self->task_chooser), trace);
  g_signal_handlers_unblock_by_func (self->task_chooser, emit_changed, self);
  gtk_label_set_text (GTK_LABEL (self->count_label), "");
}

/**
 * tw_event_filter_bar_update:
 *
 * Offers the types, tasks and CPUs a growing (live) trace added since the last call.
 *
 * Returns: whether Find's text matches one of the new types or tasks: a filter made
 *   before they appeared does not show their rows
 */
gboolean
tw_event_filter_bar_update (TwEventFilterBar *self)
{
  const char *text;
  g_autofree char *needle = NULL;
  gboolean matched;

  g_return_val_if_fail (TW_IS_EVENT_FILTER_BAR (self), FALSE);

  if (self->trace == NULL)
    return FALSE;
  text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));
  if (text[0] != '\0')
    needle = g_utf8_casefold (text, -1);
  matched = add_choices (self, needle);
  tw_task_chooser_update (TW_TASK_CHOOSER (self->task_chooser));
  return matched;
}

/**
 * tw_event_filter_bar_dup_filter:
 *
 * Returns: (transfer full): the rows the controls select (a Find text resolved against
 *   the trace's types and tasks as they are now)
 */
TwEventFilter *
tw_event_filter_bar_dup_filter (TwEventFilterBar *self)
{
  TwEventFilter *filter;
  guint type_pos, cpu_pos;
  guint32 task;

  g_return_val_if_fail (TW_IS_EVENT_FILTER_BAR (self), NULL);

  filter = tw_event_filter_new ();
  type_pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->type_dropdown));
  if (type_pos != GTK_INVALID_LIST_POSITION && type_pos > 0)
    tw_event_filter_add_type (filter, type_pos - 1);
  task = tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (self->task_chooser));
  if (task != TW_TASK_NONE)
    tw_event_filter_add_task (filter, task);
  cpu_pos = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->cpu_dropdown));
  if (cpu_pos != GTK_INVALID_LIST_POSITION && cpu_pos > 0)
    tw_event_filter_add_cpu (filter, cpu_pos - 1);
  if (self->trace)
    tw_event_filter_set_text (filter, self->trace,
                              gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  return filter;
}

/**
 * tw_event_filter_bar_set_text:
 * @text: (nullable): what a shown row's type or task contains
 *
 * Sets Find's text and emits ::changed at once (not after the entry's search delay).
 */
void
tw_event_filter_bar_set_text (TwEventFilterBar *self,
                              const char       *text)
{
  g_return_if_fail (TW_IS_EVENT_FILTER_BAR (self));

  set_find_text (self, text);
  emit_changed (self);
}

/**
 * tw_event_filter_bar_set_cpu:
 * @cpu: the CPU to show, or %TW_CPU_NONE for all
 */
void
tw_event_filter_bar_set_cpu (TwEventFilterBar *self,
                             guint16           cpu)
{
  g_return_if_fail (TW_IS_EVENT_FILTER_BAR (self));

  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->cpu_dropdown),
                              cpu == TW_CPU_NONE ? 0 : (guint) cpu + 1);
}

/**
 * tw_event_filter_bar_set_count:
 * @n_shown: rows shown
 * @n_total: rows of the trace
 * @filtered: whether a filter is in effect ("N of M events")
 */
void
tw_event_filter_bar_set_count (TwEventFilterBar *self,
                               guint64           n_shown,
                               guint64           n_total,
                               gboolean          filtered)
{
  g_autofree char *text = NULL;
  g_autofree char *widest = NULL;

  g_return_if_fail (TW_IS_EVENT_FILTER_BAR (self));

  text = dup_count_text (n_shown, n_total, filtered);
  /* as wide as the longest count of this trace */
  widest = dup_count_text (n_total, n_total, TRUE);
  gtk_label_set_width_chars (GTK_LABEL (self->count_label), (int) g_utf8_strlen (widest, -1));
  gtk_label_set_text (GTK_LABEL (self->count_label), text);
}

/**
 * tw_event_filter_bar_focus_search:
 *
 * Moves the keyboard focus to Find and selects its text.
 */
void
tw_event_filter_bar_focus_search (TwEventFilterBar *self)
{
  g_return_if_fail (TW_IS_EVENT_FILTER_BAR (self));

  gtk_widget_grab_focus (self->search_entry);
  gtk_editable_select_region (GTK_EDITABLE (self->search_entry), 0, -1);
}
