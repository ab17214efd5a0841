/* tw-recorder.c: the live window's Record control: a trace written as CTF (or CSV) in a worker thread
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-recorder.h"

#include <glib/gi18n-lib.h>
#include <tw-ingest.h>

/*
 * A recording is a snapshot: the events the live store holds when the file is chosen
 * (their count is taken then), written by a GTask thread while the poll thread keeps
 * appending and the window keeps painting. The store allows that without locks: rows
 * below a published count never change and nothing it hands out ever moves (tw-trace.c).
 * The file appears complete or not at all (tw_atomic_file_write; a CTF trace is a folder,
 * written hidden and renamed, tw_ctf_writer_write_events()).
 *
 * CTF is the recording (babeltrace2, Trace Compass and the LTTng tools read it); CSV,
 * chosen by its filter or a `.csv` name, stays as an export. "Keep recording" writes
 * CTF while the session runs instead of one snapshot: a chunk trace a second into the
 * folder (tw_ctf_writer_keep_recording()) until Stop or the end of the session.
 *
 * As for loading in the window, the thread only stores its progress in an atomic and a
 * ~30 Hz timer on the main loop shows it. The application is held while a recording is
 * written, so closing the window lets it finish (and never leaves the hidden partial
 * file behind an exiting process).
 */

#define PROGRESS_INTERVAL_MS 33
#define SAVED_SHOWN_S        8

typedef enum {
  FORMAT_CTF,
  FORMAT_CSV,
} Format;

typedef struct {
  TwTrace      *trace;
  char         *path;
  Format        format;
  gboolean      keep;       /* Keep recording: until @stop */
  GCancellable *stop;
  guint64       n_events;   /* the snapshot */
  gint          permille;   /* atomic: progress, 0..1000 */
  GMutex        lock;       /* Keep recording's counts */
  guint64       written;
  guint         n_chunks;
} Recording;

struct _TwRecorder
{
  GtkWidget     parent_instance;

  /* template children */
  GtkWidget    *stack;
  GtkWidget    *record_button;
  GtkWidget    *saved_label;
  GtkWidget    *progress_bar;
  GtkWidget    *cancel_button;
  GtkWidget    *keep_button;
  GtkNativeDialog *chooser;       /* while Record… asks for a file */
  GtkFileFilter *csv_filter;      /* of the chooser */

  /* owned */
  GCancellable *cancellable;      /* while a recording is written */
  GApplication *application;      /* held while a recording is written */
  char         *path;             /* of the current or last recording */
  char         *status;           /* what the control says, for tests and tooltips */
  guint64       n_events;         /* of the current or last recording */
  gboolean      keep_recording;
  guint         progress_source;
  guint         saved_source;

  /* borrowed from the running task */
  Recording    *recording;
};

G_DEFINE_FINAL_TYPE (TwRecorder, tw_recorder, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_BUSY,
  PROP_KEEP_RECORDING,
  N_PROPS
};

enum {
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
recording_free (Recording *rec)
{
  g_clear_object (&rec->trace);
  g_clear_object (&rec->stop);
  g_mutex_clear (&rec->lock);
  g_free (rec->path);
  g_free (rec);
}

static void
set_status (TwRecorder *self,
            char       *status)
{
  g_free (self->status);
  self->status = status;
}

/* ------------------------------------------------------------------ worker thread */

static void
recording_progress_cb (double   fraction,
                       gpointer user_data)
{
  Recording *rec = user_data;

  g_atomic_int_set (&rec->permille, (gint) (fraction * 1000));
}

static void
recording_chunk_cb (guint64  n_events,
                    guint    n_chunks,
                    gpointer user_data)
{
  Recording *rec = user_data;

  g_mutex_lock (&rec->lock);
  rec->written = n_events;
  rec->n_chunks = n_chunks;
  g_mutex_unlock (&rec->lock);
}

static gboolean
write_recording (GOutputStream  *stream,
                 gpointer        user_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  Recording *rec = user_data;

  return tw_csv_writer_write_events (rec->trace, rec->n_events, stream, recording_progress_cb,
                                     rec, cancellable, error);
}

static void
record_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  Recording *rec = task_data;
  GError *error = NULL;
  gboolean ok;

  if (rec->format == FORMAT_CSV)
    ok = tw_atomic_file_write (rec->path, write_recording, rec, cancellable, &error);
  else if (rec->keep)
    ok = tw_ctf_writer_keep_recording (rec->trace, rec->path, TW_CTF_KEEP_CHUNK_MS, rec->stop,
                                       recording_chunk_cb, rec, &error);
  else
    ok = tw_ctf_writer_write_events (rec->trace, rec->n_events, rec->path, recording_progress_cb, rec,
                                     cancellable, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

/* ------------------------------------------------------------------ main thread */

static gboolean
progress_tick_cb (gpointer user_data)
{
  TwRecorder *self = user_data;
  gint permille;

  if (self->recording == NULL || g_cancellable_is_cancelled (self->cancellable))
    return G_SOURCE_CONTINUE;
  if (self->recording->keep)
    {
      guint64 written;
      guint n_chunks;

      if (g_cancellable_is_cancelled (self->recording->stop))
        return G_SOURCE_CONTINUE;
      g_mutex_lock (&self->recording->lock);
      written = self->recording->written;
      n_chunks = self->recording->n_chunks;
      g_mutex_unlock (&self->recording->lock);
      self->n_events = written;
      {
        g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, written);

        set_status (self, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Recording… %s events, %u chunk",
                                                        "Recording… %s events, %u chunks", n_chunks),
                                           count, n_chunks));
      }
      gtk_progress_bar_pulse (GTK_PROGRESS_BAR (self->progress_bar));
      gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), self->status);
      return G_SOURCE_CONTINUE;
    }
  permille = g_atomic_int_get (&self->recording->permille);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress_bar), permille / 1000.0);
  /* all written: what is left is flushing the file to disk, which takes a while for
   * hundreds of MB on a slow disk */
  if (permille == 1000)
    set_status (self, g_strdup (_("Writing to disk…")));
  else
    set_status (self, g_strdup_printf (_("Recording… %d %%"), permille / 10));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), self->status);
  return G_SOURCE_CONTINUE;
}

static gboolean
hide_saved_cb (gpointer user_data)
{
  TwRecorder *self = user_data;

  self->saved_source = 0;
  gtk_widget_set_visible (self->saved_label, FALSE);
  return G_SOURCE_REMOVE;
}

static void
show_saved (TwRecorder *self)
{
  g_autofree char *name = g_filename_display_basename (self->path);
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_events);
  g_autofree char *tooltip = g_strdup_printf (_("%s events written to %s"), count, self->path);

  set_status (self, g_strdup_printf (_("Saved %s"), name));
  gtk_label_set_text (GTK_LABEL (self->saved_label), self->status);
  gtk_widget_set_tooltip_text (self->saved_label, tooltip);
  gtk_widget_set_visible (self->saved_label, TRUE);
  g_clear_handle_id (&self->saved_source, g_source_remove);
  self->saved_source = g_timeout_add_seconds (SAVED_SHOWN_S, hide_saved_cb, self);
}

static void
record_done_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  TwRecorder *self = TW_RECORDER (source);
  g_autoptr(GError) error = NULL;

  g_task_propagate_boolean (G_TASK (result), &error);
  if (self->recording && self->recording->keep)
    self->n_events = self->recording->written;
  self->recording = NULL;
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->progress_source, g_source_remove);
  if (error == NULL)
    show_saved (self);
  else
    set_status (self, g_strdup (""));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "idle");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);

  g_signal_emit (self, signals[FINISHED], 0, self->path, self->n_events, error);
  if (self->application)
    g_application_release (self->application);
  g_clear_object (&self->application);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  tw_recorder_cancel (TW_RECORDER (widget));
}

/* ------------------------------------------------------------------ GObject */

static void
tw_recorder_dispose (GObject *object)
{
  TwRecorder *self = TW_RECORDER (object);
  GtkNativeDialog *chooser = g_steal_pointer (&self->chooser);

  /* the chooser holds a reference to itself until it is answered */
  if (chooser)
    {
      g_signal_handlers_disconnect_by_data (chooser, self);
      gtk_native_dialog_destroy (chooser);
      g_object_unref (chooser);
    }
  g_clear_object (&self->csv_filter);
  /* a running task holds a reference: no recording is running here */
  g_clear_handle_id (&self->progress_source, g_source_remove);
  g_clear_handle_id (&self->saved_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_RECORDER);

  G_OBJECT_CLASS (tw_recorder_parent_class)->dispose (object);
}

static void
tw_recorder_finalize (GObject *object)
{
  TwRecorder *self = TW_RECORDER (object);

  g_free (self->path);
  g_free (self->status);

  G_OBJECT_CLASS (tw_recorder_parent_class)->finalize (object);
}

static void
tw_recorder_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  TwRecorder *self = TW_RECORDER (object);

  switch (prop_id)
    {
    case PROP_BUSY: g_value_set_boolean (value, tw_recorder_get_busy (self)); break;
    case PROP_KEEP_RECORDING: g_value_set_boolean (value, tw_recorder_get_keep_recording (self)); break;
    default:        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_recorder_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  TwRecorder *self = TW_RECORDER (object);

  switch (prop_id)
    {
    case PROP_KEEP_RECORDING: tw_recorder_set_keep_recording (self, g_value_get_boolean (value)); break;
    default:                  G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_recorder_class_init (TwRecorderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_recorder_dispose;
  object_class->finalize = tw_recorder_finalize;
  object_class->get_property = tw_recorder_get_property;
  object_class->set_property = tw_recorder_set_property;

  /**
   * TwRecorder:busy:
   *
   * Whether a recording is being written.
   */
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /**
   * TwRecorder:keep-recording:
   *
   * Whether the next CTF recording keeps appending while the session runs (until
   * tw_recorder_stop()) instead of writing what was received so far.
   */
  properties[PROP_KEEP_RECORDING] = g_param_spec_boolean ("keep-recording", NULL, NULL, FALSE,
                                                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                          | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwRecorder::finished:
   * @path: the file
   * @n_events: the events of the snapshot
   * @error: (nullable): why nothing was written (%G_IO_ERROR_CANCELLED when cancelled)
   *
   * A recording was written, failed or was cancelled; the file is at @path only when
   * @error is %NULL.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                    G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_ERROR);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-recorder.ui");
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, stack);
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, record_button);
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, saved_label);
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, TwRecorder, keep_button);
  gtk_widget_class_install_action (widget_class, "recorder.cancel", NULL, cancel_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
tw_recorder_init (TwRecorder *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->status = g_strdup ("");
  g_object_bind_property (self, "keep-recording", self->keep_button, "active",
                          G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
}

/* ------------------------------------------------------------------ public API */

GtkWidget *
tw_recorder_new (void)
{
  return g_object_new (TW_TYPE_RECORDER, NULL);
}

static void
report_failure (TwRecorder *self,
                const char *path,
                GError     *error)
{
  g_signal_emit (self, signals[FINISHED], 0, path, (guint64) 0, error);
}

static void
choose_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    TwRecorder      *self)
{
  TwTrace *trace = g_object_get_data (G_OBJECT (dialog), "tw-trace");
  g_autoptr(GFile) file = NULL;
  GtkFileFilter *filter = NULL;   /* borrowed from the chooser */
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
    }
  if (file && (path = g_file_get_path (file)) == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: only local files can be written"), uri);
      report_failure (self, uri, error);
    }
  else if (path)
    {
      /* the CSV filter chosen: an export, whatever the name says */
      if (filter && filter == self->csv_filter && !tw_ctf_writer_path_is_csv (path))
        {
          char *with_suffix = g_strconcat (path, ".csv", NULL);

          g_free (path);
          path = with_suffix;
        }
      if (!tw_recorder_start (self, trace, path, &error))
        report_failure (self, path, error);
    }
  self->chooser = NULL;
  g_clear_object (&self->csv_filter);
  g_object_unref (dialog);
}

/**
 * tw_recorder_choose_file:
 * @trace: the trace to record, see tw_recorder_start()
 *
 * Asks for a name (a CTF trace folder, or CSV events by their filter or a `.csv`
 * name) and starts recording @trace to it; a recording that cannot start is reported by
 * ::finished. Does nothing while a recording is written.
 */
void
tw_recorder_choose_file (TwRecorder *self,
                         TwTrace    *trace)
{
  g_autoptr(GtkFileFilter) ctf = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) csv = gtk_file_filter_new ();
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;

  g_return_if_fail (TW_IS_RECORDER (self));
  g_return_if_fail (TW_IS_TRACE (trace));

  if (tw_recorder_get_busy (self) || self->chooser)
    return;
  dialog = gtk_file_chooser_native_new (_("Record Live Session"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Record"), _("_Cancel"));
  /* a CTF trace is a folder: its filter shows folders only */
  gtk_file_filter_set_name (ctf, _("CTF trace folder (babeltrace2, Trace Compass, Trace Workbench)"));
  gtk_file_filter_add_mime_type (ctf, "inode/directory");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), ctf);
  gtk_file_filter_set_name (csv, _("CSV events (an export; opens again in Trace Workbench)"));
  gtk_file_filter_add_suffix (csv, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), csv);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), ctf);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), "live-session");
  g_set_object (&self->csv_filter, csv);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_object_set_data_full (G_OBJECT (dialog), "tw-trace", g_object_ref (trace), g_object_unref);
  g_signal_connect_object (dialog, "response", G_CALLBACK (choose_response_cb), self, 0);
  self->chooser = GTK_NATIVE_DIALOG (dialog);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * tw_recorder_start:
 * @trace: the trace to record; it may keep growing (a live session's store)
 * @path: the CTF trace folder to make, or with a `.csv` name the CSV events file to write
 *   (docs/csv-format.md)
 *
 * Starts writing the events @trace holds now to @path in a worker thread; the control
 * shows the progress and a Cancel button meanwhile, and emits ::finished at the end.
 * Events that arrive while it writes are not in the file. With
 * TwRecorder:keep-recording and a CTF folder, it keeps appending what arrives instead,
 * until tw_recorder_stop().
 *
 * Returns: %FALSE with @error set (%G_IO_ERROR_BUSY) when a recording is being written
 */
gboolean
tw_recorder_start (TwRecorder  *self,
                   TwTrace     *trace,
                   const char  *path,
                   GError     **error)
{
  g_autoptr(GTask) task = NULL;
  GtkRoot *root;
  Recording *rec;

  g_return_val_if_fail (TW_IS_RECORDER (self), FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->cancellable)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_BUSY, _("%s: still being written"), self->path);
      return FALSE;
    }

  rec = g_new0 (Recording, 1);
  rec->trace = g_object_ref (trace);
  rec->path = g_strdup (path);
  rec->format = tw_ctf_writer_path_is_csv (path) ? FORMAT_CSV : FORMAT_CTF;
  rec->keep = self->keep_recording && rec->format == FORMAT_CTF;
  rec->stop = g_cancellable_new ();
  g_mutex_init (&rec->lock);
  rec->n_events = tw_trace_get_n_events (trace);
  g_free (self->path);
  self->path = g_strdup (path);
  self->n_events = rec->n_events;
  self->recording = rec;
  self->cancellable = g_cancellable_new ();

  root = gtk_widget_get_root (GTK_WIDGET (self));
  if (GTK_IS_WINDOW (root) && gtk_window_get_application (GTK_WINDOW (root)))
    {
      self->application = g_object_ref (G_APPLICATION (gtk_window_get_application (GTK_WINDOW (root))));
      g_application_hold (self->application);
    }

  task = g_task_new (self, self->cancellable, record_done_cb, NULL);
  g_task_set_source_tag (task, tw_recorder_start);
  /* a Cancel that comes after the file was renamed into place must not call it cancelled */
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, rec, (GDestroyNotify) recording_free);
  g_task_run_in_thread (task, record_thread);

  g_clear_handle_id (&self->saved_source, g_source_remove);
  gtk_widget_set_visible (self->saved_label, FALSE);
  gtk_widget_set_tooltip_text (self->progress_bar, path);
  gtk_widget_set_tooltip_text (self->cancel_button,
                               rec->keep ? _("Stop recording: the folder keeps what was recorded")
                                         : _("Cancel the recording: nothing is written"));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "writing");
  self->progress_source = g_timeout_add (PROGRESS_INTERVAL_MS, progress_tick_cb, self);
  progress_tick_cb (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  return TRUE;
}

/**
 * tw_recorder_cancel:
 *
 * Stops the recording being written, if any: no file is written (an existing file at
 * its path keeps its contents). ::finished follows with %G_IO_ERROR_CANCELLED. A Keep
 * recording is stopped instead (tw_recorder_stop()): what it wrote stays.
 */
void
tw_recorder_cancel (TwRecorder *self)
{
  g_return_if_fail (TW_IS_RECORDER (self));

  if (self->cancellable == NULL)
    return;
  if (self->recording && self->recording->keep)
    {
      tw_recorder_stop (self);
      return;
    }
  g_cancellable_cancel (self->cancellable);
  set_status (self, g_strdup (_("Cancelling…")));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), self->status);
}

/**
 * tw_recorder_stop:
 *
 * Ends a Keep recording: the events stored by now go into its last chunk, and
 * ::finished follows once it is on disk. Call it after the session stopped to have
 * every event. Does nothing when no Keep recording runs.
 */
void
tw_recorder_stop (TwRecorder *self)
{
  g_return_if_fail (TW_IS_RECORDER (self));

  if (self->recording == NULL || !self->recording->keep || g_cancellable_is_cancelled (self->recording->stop))
    return;
  g_cancellable_cancel (self->recording->stop);
  set_status (self, g_strdup (_("Stopping…")));
  gtk_progress_bar_set_text (GTK_PROGRESS_BAR (self->progress_bar), self->status);
}

gboolean
tw_recorder_get_keep_recording (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), FALSE);

  return self->keep_recording;
}

/**
 * tw_recorder_set_keep_recording:
 *
 * Whether the next CTF recording keeps appending what arrives (the Keep recording
 * toggle). A recording being written is not changed.
 */
void
tw_recorder_set_keep_recording (TwRecorder *self,
                                gboolean    keep)
{
  g_return_if_fail (TW_IS_RECORDER (self));

  keep = !!keep;
  if (self->keep_recording == keep)
    return;
  self->keep_recording = keep;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KEEP_RECORDING]);
}

gboolean
tw_recorder_get_busy (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), FALSE);

  return self->cancellable != NULL;
}

/**
 * tw_recorder_get_fraction:
 *
 * Returns: how much of the recording being written is written, from 0 to 1; 0 when
 *   none is
 */
double
tw_recorder_get_fraction (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), 0);

  return self->recording ? g_atomic_int_get (&self->recording->permille) / 1000.0 : 0;
}

/**
 * tw_recorder_get_n_events:
 *
 * Returns: the number of events of the current or last recording (its snapshot)
 */
guint64
tw_recorder_get_n_events (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), 0);

  return self->n_events;
}

/**
 * tw_recorder_get_path:
 *
 * Returns: (nullable): the file of the current or last recording
 */
const char *
tw_recorder_get_path (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), NULL);

  return self->path;
}

/**
 * tw_recorder_get_status:
 *
 * Returns: what the control says ("Recording… 42 %", "Saved live.csv"), "" when nothing
 */
const char *
tw_recorder_get_status (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), NULL);

  return self->status;
}

/**
 * tw_recorder_get_chooser:
 *
 * Returns: (transfer none) (nullable): the file chooser tw_recorder_choose_file() shows,
 *   while it is open
 */
GtkNativeDialog *
tw_recorder_get_chooser (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), NULL);

  return self->chooser;
}

/**
 * tw_recorder_get_cancel_button:
 *
 * Returns: (transfer none): the button that cancels the recording being written
 */
GtkWidget *
tw_recorder_get_cancel_button (TwRecorder *self)
{
  g_return_val_if_fail (TW_IS_RECORDER (self), NULL);

  return self->cancel_button;
}
