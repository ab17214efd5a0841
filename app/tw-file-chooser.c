/* tw-file-chooser.c: ask for a file to open or save, and hear back with its path
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every Open…, Save… and Export… of the app asks the same way: a modal native chooser on
 * the window of the widget that asked, and one callback with a local path. GTK 4.8 has
 * no GtkFileDialog (4.10), so the answer comes through GtkNativeDialog::response.
 */
#include "config.h"

#include "tw-file-chooser.h"

#include <glib/gi18n-lib.h>
#include <tw-ingest.h>

typedef struct {
  GtkWidget        *owner;       /* owned: it outlives the question */
  TwFileChosenFunc  chosen;
  gpointer          user_data;
  GDestroyNotify    destroy;
} FileQuestion;

static void
file_question_free (gpointer data,
                    GClosure *closure)
{
  FileQuestion *question = data;

  if (question->destroy)
    question->destroy (question->user_data);
  g_object_unref (question->owner);
  g_free (question);
}

static void
response_cb (GtkNativeDialog *dialog,
             int              response,
             FileQuestion    *question)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)))
      && (path = g_file_get_path (file)))
    question->chosen (question->owner, path, question->user_data);
  /* the reference tw_file_chooser_new() kept; the question goes with the dialog */
  g_object_unref (dialog);
}

/**
 * tw_file_chooser_new:
 * @owner: the widget that asks; the chooser is modal on its window
 * @title: (nullable): translated
 * @accept_label: translated, with a mnemonic ("_Save")
 * @chosen: called with the path the user chose
 * @destroy: (nullable): frees @user_data once the chooser is answered
 *
 * Makes a chooser that calls @chosen when the user accepts a local file. Add filters or
 * a current name, then show it with gtk_native_dialog_show(); it frees itself once
 * answered.
 *
 * Returns: (transfer none): the chooser
 */
GtkFileChooserNative *
tw_file_chooser_new (GtkWidget            *owner,
                     GtkFileChooserAction  action,
                     const char           *title,
                     const char           *accept_label,
                     TwFileChosenFunc      chosen,
                     gpointer              user_data,
                     GDestroyNotify        destroy)
{
  GtkRoot *root;
  GtkFileChooserNative *dialog;
  FileQuestion *question;

  g_return_val_if_fail (GTK_IS_WIDGET (owner), NULL);
  g_return_val_if_fail (chosen != NULL, NULL);

  root = gtk_widget_get_root (owner);
  dialog = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        action, accept_label, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  question = g_new0 (FileQuestion, 1);
  question->owner = g_object_ref (owner);
  question->chosen = chosen;
  question->user_data = user_data;
  question->destroy = destroy;
  g_signal_connect_data (dialog, "response", G_CALLBACK (response_cb), question,
                         file_question_free, 0);
  return dialog;
}

/**
 * tw_file_chooser_add_filter:
 * @name: translated, as the chooser lists it
 * @suffix: the file name ending it shows, without the dot ("json")
 */
void
tw_file_chooser_add_filter (GtkFileChooserNative *dialog,
                            const char           *name,
                            const char           *suffix)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, suffix);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
}

/**
 * tw_file_chooser_new_trace_filter:
 *
 * The Open dialog's filter of traces: the file names every registered reader
 * (tw_reader_registry_dup_readers()) says its format has, named after their labels, so
 * a new reader's files show without a change here.
 *
 * Returns: (transfer full): the filter
 */
GtkFileFilter *
tw_file_chooser_new_trace_filter (void)
{
  g_autoptr(GPtrArray) readers = tw_reader_registry_dup_readers ();
  g_autoptr(GStrvBuilder) labels = g_strv_builder_new ();
  g_auto(GStrv) label_list = NULL;
  g_autofree char *joined = NULL;
  g_autofree char *name = NULL;
  GtkFileFilter *filter = gtk_file_filter_new ();

  for (guint i = 0; i < readers->len; i++)
    {
      const TwReaderInfo *info = tw_reader_get_info (readers->pdata[i]);

      g_strv_builder_add (labels, info->label);
      for (guint k = 0; info->suffixes && info->suffixes[k]; k++)
        gtk_file_filter_add_suffix (filter, info->suffixes[k]);
      for (guint k = 0; info->file_names && info->file_names[k]; k++)
        gtk_file_filter_add_pattern (filter, info->file_names[k]);
    }
  label_list = g_strv_builder_end (labels);
  joined = g_strjoinv (", ", label_list);
  /* TRANSLATORS: %s lists the formats ("S.Ha.R.K. dump, CSV events, trace.dat, CTF") */
  name = g_strdup_printf (_("Traces (%s)"), joined);
  gtk_file_filter_set_name (filter, name);
  return filter;
}
