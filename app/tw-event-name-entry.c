/* tw-event-name-entry.c: an entry for an event name, completed and checked against a trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Users name events the way their tracer spells them, or the way they remember them:
 * "wakeup" for sched_wakeup, "irq_entry" for irq_handler_entry, "sched_wakup". The
 * completion offers every name of the trace that contains what was typed, and the
 * trace's closest names (tw_event_names_dup_closest()) when none does; a name the trace
 * does not have gets a warning icon whose tooltip names the closest ones, and a click
 * on the icon takes the best of them.
 */
#include "config.h"

#include "tw-event-name-entry.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <tw-evaluators.h>

#define MAX_SUGGESTIONS 5

struct _TwEventNameEntry
{
  GtkEntry       parent_instance;

  TwTrace       *trace;           /* owned; NULL until a trace is open */
  GtkListStore  *names;           /* the trace's names, column 0 */
  guint          n_types;         /* trace types listed in @names */
  /* the completion's closest names for @closest_key (case-folded), computed once per key
   * rather than once per row */
  char          *closest_key;
  GStrv          closest;
};

G_DEFINE_FINAL_TYPE (TwEventNameEntry, tw_event_name_entry, GTK_TYPE_ENTRY)

static gboolean
is_blank (const char *text)
{
  while (g_ascii_isspace (*text))
    text++;
  return *text == '\0';
}

static GStrv
dup_closest (TwEventNameEntry *self,
             const char       *name)
{
  return tw_event_names_dup_closest (self->trace, name, TW_EVENT_NAME_SELECTOR, MAX_SUGGESTIONS);
}

/* @key comes case-folded and normalized from GtkEntryCompletion. */
static gboolean
completion_match_cb (GtkEntryCompletion *completion,
                     const char         *key,
                     GtkTreeIter        *iter,
                     gpointer            data)
{
  TwEventNameEntry *self = data;
  g_autofree char *name = NULL;
  g_autofree char *normalized = NULL;
  g_autofree char *folded = NULL;

  gtk_tree_model_get (GTK_TREE_MODEL (self->names), iter, 0, &name, -1);
  if (name == NULL || self->trace == NULL)
    return FALSE;
  normalized = g_utf8_normalize (name, -1, G_NORMALIZE_ALL);
  folded = g_utf8_casefold (normalized, -1);
  /* a name typed whole has nothing left to complete: offering it again would keep the
   * popup open over the pane after the user moved on */
  if (strcmp (folded, key) == 0)
    return FALSE;
  if (strstr (folded, key) != NULL)
    return TRUE;

  if (g_strcmp0 (self->closest_key, key) != 0)
    {
      g_free (self->closest_key);
      g_strfreev (self->closest);
      self->closest_key = g_strdup (key);
      self->closest = tw_event_names_contain_text (self->trace, key, TW_EVENT_NAME_SELECTOR)
                      ? g_new0 (char *, 1) : dup_closest (self, key);
    }
  return g_strv_contains ((const char *const *) self->closest, name);
}

static void
set_warning (TwEventNameEntry *self,
             const char       *text)
{
  GtkEntry *entry = GTK_ENTRY (self);

  if (text == NULL)
    {
      gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY, NULL);
      gtk_widget_remove_css_class (GTK_WIDGET (self), "warning");
      return;
    }
  gtk_entry_set_icon_from_icon_name (entry, GTK_ENTRY_ICON_SECONDARY, "dialog-warning-symbolic");
  gtk_entry_set_icon_tooltip_text (entry, GTK_ENTRY_ICON_SECONDARY, text);
  gtk_widget_add_css_class (GTK_WIDGET (self), "warning");
}

/* Warns about a name the trace lacks once it is no part of one either: until then the
 * user may still be typing it, and the completion shows where it leads. */
static void
check_name (TwEventNameEntry *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self));
  g_autofree char *unknown = NULL;
  g_auto(GStrv) closest = NULL;
  g_autofree char *tooltip = NULL;

  if (!tw_event_name_entry_is_unknown (self) ||
      tw_event_names_contain_text (self->trace, text, TW_EVENT_NAME_SELECTOR))
    {
      set_warning (self, NULL);
      return;
    }
  unknown = tw_event_names_dup_unknown_text (self->trace, text, TW_EVENT_NAME_SELECTOR);
  closest = dup_closest (self, text);
  tooltip = closest[0] ? g_strdup_printf (_("%s. Click to use %s."), unknown, closest[0])
                       : g_strdup_printf ("%s.", unknown);
  tooltip[0] = g_ascii_toupper (tooltip[0]);
  set_warning (self, tooltip);
}

static void
icon_press_cb (GtkEntry             *entry,
               GtkEntryIconPosition  position,
               gpointer              data)
{
  TwEventNameEntry *self = TW_EVENT_NAME_ENTRY (entry);
  g_auto(GStrv) closest = NULL;

  if (position != GTK_ENTRY_ICON_SECONDARY || !tw_event_name_entry_is_unknown (self))
    return;
  closest = dup_closest (self, gtk_editable_get_text (GTK_EDITABLE (self)));
  if (closest[0] != NULL)
    gtk_editable_set_text (GTK_EDITABLE (self), closest[0]);
}

static void
tw_event_name_entry_dispose (GObject *object)
{
  TwEventNameEntry *self = TW_EVENT_NAME_ENTRY (object);

  g_clear_object (&self->trace);
  g_clear_object (&self->names);
  g_clear_pointer (&self->closest_key, g_free);
  g_clear_pointer (&self->closest, g_strfreev);
  G_OBJECT_CLASS (tw_event_name_entry_parent_class)->dispose (object);
}

static void
tw_event_name_entry_class_init (TwEventNameEntryClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_event_name_entry_dispose;
}

static void
tw_event_name_entry_init (TwEventNameEntry *self)
{
  GtkEntryCompletion *completion = gtk_entry_completion_new ();

  self->names = gtk_list_store_new (1, G_TYPE_STRING);
  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (self->names));
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_minimum_key_length (completion, 1);
  gtk_entry_completion_set_match_func (completion, completion_match_cb, self, NULL);
  gtk_entry_set_completion (GTK_ENTRY (self), completion);
  g_object_unref (completion);

  gtk_editable_set_width_chars (GTK_EDITABLE (self), 18);
  g_signal_connect_swapped (self, "changed", G_CALLBACK (check_name), self);
  g_signal_connect (self, "icon-press", G_CALLBACK (icon_press_cb), NULL);
}

/**
 * tw_event_name_entry_new:
 * @placeholder: what to name ("Start event")
 *
 * Returns: (transfer floating): an entry for a type name or kind:NAME (a selector)
 */
GtkWidget *
tw_event_name_entry_new (const char *placeholder)
{
  return g_object_new (TW_TYPE_EVENT_NAME_ENTRY, "placeholder-text", placeholder, NULL);
}

/**
 * tw_event_name_entry_set_trace:
 * @trace: (nullable): the trace whose names complete and check what is typed
 */
void
tw_event_name_entry_set_trace (TwEventNameEntry *self,
                               TwTrace          *trace)
{
  g_return_if_fail (TW_IS_EVENT_NAME_ENTRY (self));
  g_return_if_fail (trace == NULL || TW_IS_TRACE (trace));

  g_set_object (&self->trace, trace);
  self->n_types = G_MAXUINT;   /* whatever was listed belonged to another trace */
  tw_event_name_entry_update_names (self);
}

/**
 * tw_event_name_entry_update_names:
 *
 * Lists the event types the trace gained since (a live trace learns types as they
 * arrive) and checks the name typed again.
 */
void
tw_event_name_entry_update_names (TwEventNameEntry *self)
{
  g_auto(GStrv) names = NULL;
  guint n_types;

  g_return_if_fail (TW_IS_EVENT_NAME_ENTRY (self));

  n_types = self->trace ? tw_trace_get_n_event_types (self->trace) : 0;
  if (n_types == self->n_types)
    return;
  self->n_types = n_types;
  g_clear_pointer (&self->closest_key, g_free);
  g_clear_pointer (&self->closest, g_strfreev);
  gtk_list_store_clear (self->names);
  names = self->trace ? tw_event_names_dup_all (self->trace, TW_EVENT_NAME_SELECTOR)
                      : g_new0 (char *, 1);
  for (guint i = 0; names[i]; i++)
    gtk_list_store_insert_with_values (self->names, NULL, -1, 0, names[i], -1);
  check_name (self);
}

/**
 * tw_event_name_entry_is_unknown:
 *
 * Returns: whether a name is typed that selects no event of the trace
 */
gboolean
tw_event_name_entry_is_unknown (TwEventNameEntry *self)
{
  const char *text;

  g_return_val_if_fail (TW_IS_EVENT_NAME_ENTRY (self), FALSE);

  text = gtk_editable_get_text (GTK_EDITABLE (self));
  return self->trace != NULL && !is_blank (text) &&
         !tw_event_names_is_known (self->trace, text, TW_EVENT_NAME_SELECTOR);
}
