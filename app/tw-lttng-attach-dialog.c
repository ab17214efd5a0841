/* tw-lttng-attach-dialog.c: File ▸ Attach to LTTng…: relays' sessions, those to attach to
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The relay is asked for its sessions in a thread (tw_live_lttng_list_sessions runs
 * babeltrace2's query in the helper process and may wait seconds for a relay that does
 * not answer); a new listing or closing the dialog cancels the one running. Listing
 * another relay adds its sessions below the others' (listing one again replaces its
 * own), so that targets behind several relays can go on one timeline. Every session
 * has a check box; ::attach hands the checked sessions' URLs to whoever opened the
 * dialog, which then closes.
 */
#include "config.h"

#include "tw-lttng-attach-dialog.h"

#include <glib/gi18n-lib.h>
#include <tw-ingest.h>

struct _TwLttngAttachDialog
{
  GtkWindow     parent_instance;

  GtkWidget    *url_entry;
  GtkWidget    *list_button;
  GtkWidget    *attach_button;
  GtkWidget    *session_list;
  GtkWidget    *spinner;
  GtkWidget    *status_label;
  GCancellable *cancellable;
  guint         n_sessions;
};

G_DEFINE_FINAL_TYPE (TwLttngAttachDialog, tw_lttng_attach_dialog, GTK_TYPE_WINDOW)

enum {
  ATTACH,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GtkCheckButton *
row_check (GtkWidget *row)
{
  return g_object_get_data (G_OBJECT (row), "check");
}

/* The URLs to attach to: the checked sessions', else the entry's when it names one. */
static GStrv
dup_chosen_urls (TwLttngAttachDialog *self)
{
  g_autoptr(GStrvBuilder) urls = g_strv_builder_new ();
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->url_entry));
  g_autofree char *session = NULL;
  gboolean any = FALSE;

  for (GtkWidget *row = gtk_widget_get_first_child (self->session_list); row;
       row = gtk_widget_get_next_sibling (row))
    if (GTK_IS_LIST_BOX_ROW (row) && gtk_check_button_get_active (row_check (row)))
      {
        g_strv_builder_add (urls, g_object_get_data (G_OBJECT (row), "url"));
        any = TRUE;
      }
  if (!any && tw_live_lttng_parse_url (text, NULL, NULL, &session, NULL) && session)
    {
      g_strv_builder_add (urls, text);
      any = TRUE;
    }
  return any ? g_strv_builder_end (urls) : NULL;
}

static void
update_attach (TwLttngAttachDialog *self)
{
  g_auto(GStrv) urls = dup_chosen_urls (self);
  guint n = urls ? g_strv_length (urls) : 0;

  gtk_widget_set_sensitive (self->attach_button, n > 0);
  /* several sessions go on one timeline: say so on the button */
  gtk_button_set_label (GTK_BUTTON (self->attach_button),
                        n > 1 ? _("_Attach to All Checked") : _("_Attach"));
}

/* Removes the rows of @relay (all rows when %NULL). */
static void
clear_sessions (TwLttngAttachDialog *self,
                const char          *relay)
{
  GtkWidget *child = gtk_widget_get_first_child (self->session_list);

  while (child)
    {
      GtkWidget *next = gtk_widget_get_next_sibling (child);

      if (relay == NULL || g_strcmp0 (g_object_get_data (G_OBJECT (child), "relay"), relay) == 0)
        {
          gtk_list_box_remove (GTK_LIST_BOX (self->session_list), child);
          self->n_sessions--;
        }
      child = next;
    }
}

static void
check_toggled_cb (TwLttngAttachDialog *self)
{
  update_attach (self);
}

static GtkWidget *
session_row (TwLttngAttachDialog      *self,
             const char               *relay,
             const TwLttngSessionInfo *info)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *title = gtk_label_new (NULL);
  GtkWidget *detail = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped (_("<b>%s</b> on %s"), info->name, info->hostname);
  g_autofree char *text = g_strdup_printf (_("live timer %.0f ms · %" G_GUINT64_FORMAT " streams · %"
                                             G_GUINT64_FORMAT " viewers · %s"),
                                           info->timer_us / 1000.0, info->n_streams, info->n_clients,
                                           info->url);

  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_text (GTK_LABEL (detail), text);
  gtk_label_set_xalign (GTK_LABEL (detail), 0);
  gtk_label_set_ellipsize (GTK_LABEL (detail), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (detail, "dim-label");
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_end (box, 6);
  gtk_widget_set_margin_top (box, 4);
  gtk_widget_set_margin_bottom (box, 4);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), detail);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (check, 6);
  gtk_accessible_update_property (GTK_ACCESSIBLE (check), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  info->url, -1);
  g_signal_connect_swapped (check, "toggled", G_CALLBACK (check_toggled_cb), self);
  gtk_box_append (GTK_BOX (line), check);
  gtk_box_append (GTK_BOX (line), box);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), line);
  g_object_set_data (G_OBJECT (row), "check", check);
  g_object_set_data_full (G_OBJECT (row), "url", g_strdup (info->url), g_free);
  g_object_set_data_full (G_OBJECT (row), "relay", g_strdup (relay), g_free);
  return row;
}

static void
list_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *sessions = tw_live_lttng_list_sessions (task_data, cancellable, &error);

  if (sessions)
    g_task_return_pointer (task, sessions, (GDestroyNotify) g_ptr_array_unref);
  else
    g_task_return_error (task, error);
}

static void
list_done (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sessions = g_task_propagate_pointer (G_TASK (result), &error);
  TwLttngAttachDialog *self;

  const char *relay;
  gboolean first;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;  /* a newer listing, or the dialog closed */
  self = TW_LTTNG_ATTACH_DIALOG (source);
  relay = g_task_get_task_data (G_TASK (result));
  gtk_spinner_stop (GTK_SPINNER (self->spinner));
  gtk_widget_set_sensitive (self->list_button, TRUE);
  if (sessions == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
      gtk_widget_add_css_class (self->status_label, "error");
      return;
    }
  clear_sessions (self, relay);
  first = self->n_sessions == 0;
  for (guint i = 0; i < sessions->len; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->session_list), session_row (self, relay, sessions->pdata[i]));
  self->n_sessions += sessions->len;
  if (sessions->len == 0)
    gtk_label_set_text (GTK_LABEL (self->status_label),
                        _("The relay serves no session now. Start one on the target with "
                          "`lttng create NAME --live` and list again."));
  else
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u session", "%u sessions", self->n_sessions),
                                               self->n_sessions);
      g_autofree char *more = NULL;

      if (self->n_sessions > 1)
        more = g_strdup_printf (_("%s: check those to follow; several go on one timeline"), text);
      gtk_label_set_text (GTK_LABEL (self->status_label), more ? more : text);
      /* one relay's first session is what most users want; several they check */
      if (first)
        gtk_check_button_set_active (row_check (GTK_WIDGET (gtk_list_box_get_row_at_index (
                                       GTK_LIST_BOX (self->session_list), 0))), TRUE);
    }
  update_attach (self);
}

/**
 * tw_lttng_attach_dialog_list:
 * @relay_url: `net://HOST[:PORT]`
 *
 * Lists @relay_url's sessions (in the background).
 */
void
tw_lttng_attach_dialog_list (TwLttngAttachDialog *self,
                             const char          *relay_url)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *relay = NULL;

  g_return_if_fail (TW_IS_LTTNG_ATTACH_DIALOG (self));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->url_entry)), relay_url) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->url_entry), relay_url);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_remove_css_class (self->status_label, "error");
  if (!tw_live_lttng_parse_url (relay_url, &relay, NULL, NULL, &error))
    {
      gtk_label_set_text (GTK_LABEL (self->status_label), error->message);
      gtk_widget_add_css_class (self->status_label, "error");
      update_attach (self);
      return;
    }
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, list_done, NULL);
  g_task_set_task_data (task, g_steal_pointer (&relay), g_free);
  gtk_spinner_start (GTK_SPINNER (self->spinner));
  gtk_widget_set_sensitive (self->list_button, FALSE);
  gtk_label_set_text (GTK_LABEL (self->status_label), _("Asking the relay…"));
  g_task_run_in_thread (task, list_thread);
  update_attach (self);
}

static void
list_clicked_cb (TwLttngAttachDialog *self)
{
  tw_lttng_attach_dialog_list (self, gtk_editable_get_text (GTK_EDITABLE (self->url_entry)));
}

static void
url_changed_cb (TwLttngAttachDialog *self)
{
  update_attach (self);
}

static void
attach_clicked_cb (TwLttngAttachDialog *self)
{
  g_auto(GStrv) urls = dup_chosen_urls (self);

  if (urls == NULL)
    return;
  g_signal_emit (self, signals[ATTACH], 0, urls);
  gtk_window_close (GTK_WINDOW (self));
}

static void
attach_action (GtkWidget  *widget,
               const char *action,
               GVariant   *parameter)
{
  attach_clicked_cb (TW_LTTNG_ATTACH_DIALOG (widget));
}

/* a click on a session's row checks it or unchecks it */
static void
row_activated_cb (TwLttngAttachDialog *self,
                  GtkListBoxRow       *row)
{
  GtkCheckButton *check = row_check (GTK_WIDGET (row));

  gtk_check_button_set_active (check, !gtk_check_button_get_active (check));
}

static void
cancel_clicked_cb (TwLttngAttachDialog *self)
{
  gtk_window_close (GTK_WINDOW (self));
}

static void
tw_lttng_attach_dialog_dispose (GObject *object)
{
  TwLttngAttachDialog *self = TW_LTTNG_ATTACH_DIALOG (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* the list and entry tell of their teardown: nothing to update then */
  if (self->session_list)
    g_signal_handlers_disconnect_by_data (self->session_list, self);
  if (self->url_entry)
    g_signal_handlers_disconnect_by_data (self->url_entry, self);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_LTTNG_ATTACH_DIALOG);
  G_OBJECT_CLASS (tw_lttng_attach_dialog_parent_class)->dispose (object);
}

static void
tw_lttng_attach_dialog_class_init (TwLttngAttachDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_lttng_attach_dialog_dispose;

  /**
   * TwLttngAttachDialog::attach:
   * @urls: the chosen sessions' `net://HOST:PORT/host/TARGET/SESSION`, one or more: one
   *   timeline for all of them
   */
  signals[ATTACH] = g_signal_new ("attach", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRV);

  gtk_widget_class_install_action (widget_class, "lttng-attach.attach", NULL, attach_action);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-lttng-attach-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, url_entry);
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, list_button);
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, attach_button);
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, session_list);
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, TwLttngAttachDialog, status_label);
  gtk_widget_class_bind_template_callback (widget_class, list_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, url_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, attach_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, cancel_clicked_cb);
}

static void
tw_lttng_attach_dialog_init (TwLttngAttachDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  update_attach (self);
}

/**
 * tw_lttng_attach_dialog_new:
 *
 * Returns: (transfer none): the dialog (a toplevel: GTK keeps it until it closes)
 */
TwLttngAttachDialog *
tw_lttng_attach_dialog_new (GtkWindow *parent)
{
  return g_object_new (TW_TYPE_LTTNG_ATTACH_DIALOG, "transient-for", parent, NULL);
}

guint
tw_lttng_attach_dialog_get_n_sessions (TwLttngAttachDialog *self)
{
  g_return_val_if_fail (TW_IS_LTTNG_ATTACH_DIALOG (self), 0);
  return self->n_sessions;
}

/* Checks (or unchecks) the @index-th session listed; FALSE when there is none. */
gboolean
tw_lttng_attach_dialog_select (TwLttngAttachDialog *self,
                               guint                index,
                               gboolean             checked)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (TW_IS_LTTNG_ATTACH_DIALOG (self), FALSE);
  row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (self->session_list), index);
  if (row)
    gtk_check_button_set_active (row_check (GTK_WIDGET (row)), checked);
  return row != NULL;
}

const char *
tw_lttng_attach_dialog_get_status (TwLttngAttachDialog *self)
{
  g_return_val_if_fail (TW_IS_LTTNG_ATTACH_DIALOG (self), NULL);
  return gtk_label_get_text (GTK_LABEL (self->status_label));
}
