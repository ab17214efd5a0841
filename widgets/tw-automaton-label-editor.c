/* tw-automaton-label-editor.c: the popover that edits a transition's label
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-automaton-label-editor.h"

/*
 * The editor only shows a label and says what the user chose (::apply, ::delete); the
 * canvas turns that into an edit of its document. Enter in the event entry applies.
 */

struct _TwAutomatonLabelEditor
{
  GtkPopover          parent_instance;

  GtkWidget          *title;
  GtkWidget          *event_toggle;
  GtkWidget          *lambda_toggle;
  GtkWidget          *any_toggle;
  GtkWidget          *event_grid;
  GtkWidget          *entry;
  GtkWidget          *task;
  GtkWidget          *arg_check;
  GtkEntryCompletion *completion;
  GtkListStore       *event_store;
  int                 transition;   /* the one being edited, or -1 */
};

enum {
  SIGNAL_APPLY,
  SIGNAL_DELETE,
  N_SIGNALS,
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (TwAutomatonLabelEditor, tw_automaton_label_editor, GTK_TYPE_POPOVER)

static TwTaskMatch
task_from_dropdown (guint position)
{
  static const TwTaskMatch map[] = { TW_TASK_MATCH_ANY, TW_TASK_MATCH_SAME, TW_TASK_MATCH_OTHER };

  return position < G_N_ELEMENTS (map) ? map[position] : TW_TASK_MATCH_ANY;
}

static guint
dropdown_from_task (TwTaskMatch task)
{
  return task == TW_TASK_MATCH_SAME ? 1 : task == TW_TASK_MATCH_OTHER ? 2 : 0;
}

static void
kind_toggled_cb (GtkToggleButton        *button,
                 TwAutomatonLabelEditor *self)
{
  gboolean event = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->event_toggle));

  gtk_widget_set_sensitive (self->event_grid, event);
}

static void
apply_cb (GtkWidget              *widget,
          TwAutomatonLabelEditor *self)
{
  int transition = self->transition;
  TwLabelKind label = TW_LABEL_EVENT;
  g_autofree char *event = NULL;

  if (transition < 0)
    return;
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->lambda_toggle)))
    label = TW_LABEL_LAMBDA;
  else if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->any_toggle)))
    label = TW_LABEL_ANY;
  /* the signal's handler may change the entry's text */
  event = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry)));
  g_signal_emit (self, signals[SIGNAL_APPLY], 0, (guint) transition, label, event,
                 task_from_dropdown (gtk_drop_down_get_selected (GTK_DROP_DOWN (self->task))),
                 gtk_check_button_get_active (GTK_CHECK_BUTTON (self->arg_check))
                   ? TW_TASK_FIELD_ARG : TW_TASK_FIELD_TASK);
  gtk_popover_popdown (GTK_POPOVER (self));
}

static void
delete_cb (GtkButton              *button,
           TwAutomatonLabelEditor *self)
{
  int transition = self->transition;

  gtk_popover_popdown (GTK_POPOVER (self));
  if (transition >= 0)
    g_signal_emit (self, signals[SIGNAL_DELETE], 0, (guint) transition);
}

static void
tw_automaton_label_editor_closed (GtkPopover *popover)
{
  TW_AUTOMATON_LABEL_EDITOR (popover)->transition = -1;
}

static gboolean
completion_match (GtkEntryCompletion *completion,
                  const char         *key,
                  GtkTreeIter        *iter,
                  gpointer            user_data)
{
  GtkTreeModel *model = gtk_entry_completion_get_model (completion);
  g_autofree char *name = NULL;
  g_autofree char *folded = NULL;

  gtk_tree_model_get (model, iter, 0, &name, -1);
  if (name == NULL)
    return FALSE;
  /* the key arrives normalised and case-folded; match anywhere in the name, so "switch"
   * finds sched_switch */
  folded = g_utf8_casefold (name, -1);
  return strstr (folded, key) != NULL;
}

static GtkWidget *
build_kind_toggles (TwAutomatonLabelEditor *self)
{
  GtkWidget *kinds = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_add_css_class (kinds, "linked");
  gtk_widget_set_halign (kinds, GTK_ALIGN_FILL);
  gtk_box_set_homogeneous (GTK_BOX (kinds), TRUE);
  self->event_toggle = gtk_toggle_button_new_with_label (_("Event"));
  gtk_widget_set_tooltip_text (self->event_toggle, _("Taken on an event of a given type"));
  self->lambda_toggle = gtk_toggle_button_new_with_label ("λ");
  gtk_widget_set_tooltip_text (self->lambda_toggle,
                               _("λ: taken at once, without consuming an event"));
  self->any_toggle = gtk_toggle_button_new_with_label (_("*  any other"));
  gtk_widget_set_tooltip_text (self->any_toggle,
                               _("*: taken on any event that no other label of the state matches"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->lambda_toggle),
                               GTK_TOGGLE_BUTTON (self->event_toggle));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (self->any_toggle),
                               GTK_TOGGLE_BUTTON (self->event_toggle));
  gtk_box_append (GTK_BOX (kinds), self->event_toggle);
  gtk_box_append (GTK_BOX (kinds), self->lambda_toggle);
  gtk_box_append (GTK_BOX (kinds), self->any_toggle);
  g_signal_connect (self->event_toggle, "toggled", G_CALLBACK (kind_toggled_cb), self);
  return kinds;
}

static GtkWidget *
grid_caption (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
build_event_entry (TwAutomatonLabelEditor *self)
{
  self->entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->entry), _("sched_switch, switch, irq_entry…"));
  gtk_widget_set_tooltip_text (self->entry,
                               _("The event's name as the trace writes it, or a canonical kind "
                                 "name (switch, wakeup, irq_entry, user…) that matches every "
                                 "event of that kind"));
  gtk_widget_set_hexpand (self->entry, TRUE);
  gtk_widget_set_size_request (self->entry, 240, -1);
  self->event_store = gtk_list_store_new (1, G_TYPE_STRING);
  self->completion = gtk_entry_completion_new ();
  gtk_entry_completion_set_model (self->completion, GTK_TREE_MODEL (self->event_store));
  gtk_entry_completion_set_text_column (self->completion, 0);
  gtk_entry_completion_set_minimum_key_length (self->completion, 1);
  gtk_entry_completion_set_popup_completion (self->completion, TRUE);
  gtk_entry_completion_set_inline_completion (self->completion, FALSE);
  gtk_entry_completion_set_match_func (self->completion, completion_match, NULL, NULL);
  gtk_entry_set_completion (GTK_ENTRY (self->entry), self->completion);
  g_signal_connect (self->entry, "activate", G_CALLBACK (apply_cb), self);
}

static GtkWidget *
build_event_grid (TwAutomatonLabelEditor *self)
{
  GtkWidget *grid = gtk_grid_new ();
  static const char * const tasks[] = {
    N_("Any task — E"), N_("Same task — (E, i)"), N_("Another task — (E, ¬i)"), NULL,
  };
  const char *translated[G_N_ELEMENTS (tasks)];

  for (guint i = 0; i < G_N_ELEMENTS (tasks); i++)
    translated[i] = tasks[i] ? _(tasks[i]) : NULL;
  self->event_grid = grid;
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 10);
  gtk_grid_attach (GTK_GRID (grid), grid_caption (_("Event")), 0, 0, 1, 1);
  build_event_entry (self);
  gtk_grid_attach (GTK_GRID (grid), self->entry, 1, 0, 1, 1);

  gtk_grid_attach (GTK_GRID (grid), grid_caption (_("Logged by")), 0, 1, 1, 1);
  self->task = gtk_drop_down_new_from_strings (translated);
  gtk_widget_set_tooltip_text (self->task,
                               _("Whose event it must be: any task, the instance's own task i, "
                                 "or another task"));
  gtk_grid_attach (GTK_GRID (grid), self->task, 1, 1, 1, 1);

  self->arg_check = gtk_check_button_new_with_label (_("Compare the event's arg task"));
  gtk_widget_set_tooltip_text (self->arg_check,
                               _("Compare i with the task the event is about (switch: the task "
                                 "switched in; wakeup: the woken task) instead of the task that "
                                 "logged it"));
  gtk_grid_attach (GTK_GRID (grid), self->arg_check, 1, 2, 1, 1);
  return grid;
}

static GtkWidget *
build_buttons (TwAutomatonLabelEditor *self)
{
  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *remove = gtk_button_new_with_mnemonic (_("_Delete"));
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));

  gtk_widget_add_css_class (remove, "destructive-action");
  gtk_widget_set_tooltip_text (remove, _("Delete this transition (Delete)"));
  g_signal_connect (remove, "clicked", G_CALLBACK (delete_cb), self);
  gtk_widget_add_css_class (apply, "suggested-action");
  gtk_widget_set_hexpand (apply, TRUE);
  gtk_widget_set_halign (apply, GTK_ALIGN_END);
  g_signal_connect (apply, "clicked", G_CALLBACK (apply_cb), self);
  gtk_box_append (GTK_BOX (buttons), remove);
  gtk_box_append (GTK_BOX (buttons), apply);
  gtk_popover_set_default_widget (GTK_POPOVER (self), apply);
  return buttons;
}

static void
tw_automaton_label_editor_dispose (GObject *object)
{
  TwAutomatonLabelEditor *self = TW_AUTOMATON_LABEL_EDITOR (object);

  g_clear_object (&self->completion);
  g_clear_object (&self->event_store);
  G_OBJECT_CLASS (tw_automaton_label_editor_parent_class)->dispose (object);
}

static void
tw_automaton_label_editor_class_init (TwAutomatonLabelEditorClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_automaton_label_editor_dispose;
  GTK_POPOVER_CLASS (klass)->closed = tw_automaton_label_editor_closed;

  /**
   * TwAutomatonLabelEditor::apply:
   * @transition: the transition's index
   * @label: a #TwLabelKind
   * @event: the event name as typed
   * @task: a #TwTaskMatch
   * @task_field: a #TwTaskField
   *
   * The user applied this label to the transition.
   */
  signals[SIGNAL_APPLY] =
    g_signal_new ("apply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 5, G_TYPE_UINT, G_TYPE_INT, G_TYPE_STRING, G_TYPE_INT, G_TYPE_INT);
  /**
   * TwAutomatonLabelEditor::delete:
   * @transition: the transition's index
   *
   * The user asked to delete the transition.
   */
  signals[SIGNAL_DELETE] =
    g_signal_new ("delete", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
tw_automaton_label_editor_init (TwAutomatonLabelEditor *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 10);

  self->transition = -1;
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);

  self->title = gtk_label_new ("");
  gtk_widget_add_css_class (self->title, "heading");
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_box_append (GTK_BOX (box), self->title);
  gtk_box_append (GTK_BOX (box), build_kind_toggles (self));
  gtk_box_append (GTK_BOX (box), build_event_grid (self));
  gtk_box_append (GTK_BOX (box), build_buttons (self));
  gtk_popover_set_child (GTK_POPOVER (self), box);
  gtk_popover_set_position (GTK_POPOVER (self), GTK_POS_BOTTOM);
}

GtkWidget *
tw_automaton_label_editor_new (void)
{
  return g_object_new (TW_TYPE_AUTOMATON_LABEL_EDITOR, NULL);
}

/**
 * tw_automaton_label_editor_edit:
 * @transition: the index of @t in its automaton
 * @t: the transition whose label to show
 *
 * Shows @t's label, to be applied to @transition; tw_automaton_label_editor_popup()
 * then shows the editor.
 */
void
tw_automaton_label_editor_edit (TwAutomatonLabelEditor      *self,
                                guint                        transition,
                                const TwAutomatonTransition *t)
{
  g_autofree char *title = NULL;
  GtkWidget *toggle;

  g_return_if_fail (TW_IS_AUTOMATON_LABEL_EDITOR (self));
  g_return_if_fail (t != NULL);

  self->transition = transition;
  title = g_strdup_printf (_("Transition %s → %s"), t->from, t->to);
  gtk_label_set_text (GTK_LABEL (self->title), title);
  toggle = t->label == TW_LABEL_LAMBDA ? self->lambda_toggle
           : t->label == TW_LABEL_ANY ? self->any_toggle : self->event_toggle;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (self->entry), t->event ? t->event : "");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->task), dropdown_from_task (t->task));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->arg_check), t->task_field == TW_TASK_FIELD_ARG);
}

/**
 * tw_automaton_label_editor_popup:
 *
 * Shows the editor, with the event entry focused for typing when the label is an
 * event's.
 */
void
tw_automaton_label_editor_popup (TwAutomatonLabelEditor *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_LABEL_EDITOR (self));

  gtk_popover_popup (GTK_POPOVER (self));
  if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->event_toggle)))
    gtk_widget_grab_focus (self->entry);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/**
 * tw_automaton_label_editor_set_event_names:
 * @names: (array zero-terminated=1) (nullable): the event names to offer; sorted and
 *   de-duplicated here
 */
void
tw_automaton_label_editor_set_event_names (TwAutomatonLabelEditor *self,
                                           const char * const     *names)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  g_return_if_fail (TW_IS_AUTOMATON_LABEL_EDITOR (self));

  for (guint i = 0; names && names[i]; i++)
    if (names[i][0] != '\0')
      g_ptr_array_add (sorted, (gpointer) names[i]);
  g_ptr_array_sort (sorted, compare_names);
  gtk_list_store_clear (self->event_store);
  for (guint i = 0; i < sorted->len; i++)
    {
      if (i > 0 && strcmp (sorted->pdata[i], sorted->pdata[i - 1]) == 0)
        continue;
      gtk_list_store_insert_with_values (self->event_store, NULL, -1, 0, sorted->pdata[i], -1);
    }
}

/**
 * tw_automaton_label_editor_get_completion:
 *
 * Returns: (transfer none): the completion of the event entry; its model's column 0
 *   holds the names
 */
GtkEntryCompletion *
tw_automaton_label_editor_get_completion (TwAutomatonLabelEditor *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_LABEL_EDITOR (self), NULL);

  return self->completion;
}
