/* tw-evaluations-pane.c: evaluations over the open trace: histograms, tables, worst cases
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-evaluations-pane.h"
#include "tw-event-name-entry.h"
#include "tw-tab-name.h"

#include <math.h>

/* events evaluated between two batches of values sent to the live histogram (and two
 * looks at the cancellable) */
#define EVENT_CHUNK (1u << 18)

typedef enum {
  JOB_METRIC,
  JOB_PLUGIN,
  JOB_AUTOMATON,
  JOB_WORST_CASE,
} JobKind;

/* What a worker thread needs; shared (reference counted) between the thread and the
 * page that shows its progress. The thread alone touches @histogram until it is done. */
typedef struct {
  JobKind       kind;
  guint         page_id;
  TwTrace      *trace;
  TwMetric     *metric;
  TwPlugin     *plugin;
  TwAutomaton  *automaton;
  TwHistogram  *histogram;
  char         *initial_event;
  char         *final_event;
  char         *unknown_events;  /* what the automaton names that the trace lacks */
  gint          permille;
  TwEvaluationsPane *pane;     /* owned by the task, for the batches it sends */
} Job;

/* New measurement lengths for the page's live histogram, rows [@first, @first + n). */
typedef struct {
  TwEvaluationsPane *pane;
  guint              page_id;
  gsize              first;
  GArray            *lengths;   /* double */
} Batch;

typedef struct {
  guint               id;
  char               *name;
  Job                *job;
  GCancellable       *cancellable;
  gboolean            running;
  char               *error_message;
  guint               progress_id;
  GtkWidget          *page;
  GtkWidget          *status;
  GtkWidget          *progress;
  GtkWidget          *cancel;
  GtkWidget          *hist_view;
  GtkWidget          *table_scrolled;
  TwHistogram        *histogram;   /* main thread only; the plugin's comes at the end */
  gsize               rows_fed;    /* rows whose lengths are in @histogram */
  TwMeasurementTable *table;
  /* live (tw_evaluations_pane_set_live): run forward on the main thread as data arrives */
  gboolean            live;
  TwEvaluation       *evaluation;
  TwUpdate           *update;
  TwAutomatonInterp  *interp;
} EvalPage;

struct _TwEvaluationsPane
{
  GtkWidget     parent_instance;

  GtkWidget    *notebook;
  GtkWidget    *metric_dropdown;
  GtkWidget    *initial_entry;
  GtkWidget    *final_entry;
  GtkWidget    *include_system;
  GtkWidget    *log_bins;
  GtkWidget    *message;

  TwViewState  *view_state;
  GPtrArray    *pages;          /* EvalPage */
  guint         next_id;
  gboolean      live;           /* the trace grows: evaluations follow it */

  /* the worst-case page */
  GtkWidget    *wc_page;
  GtkWidget    *wc_status;
  GtkWidget    *wc_tables;
  GCancellable *wc_cancellable;
  guint         wc_id;
  gboolean      wc_running;
  TwWorstCase  *worst_case;
  GArray       *analysis;       /* TwResponseTime */
};

G_DEFINE_FINAL_TYPE (TwEvaluationsPane, tw_evaluations_pane, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ jobs */

static void
job_free (Job *job)
{
  g_clear_object (&job->trace);
  g_clear_object (&job->metric);
  g_clear_object (&job->plugin);
  g_clear_object (&job->automaton);
  g_clear_object (&job->histogram);
  g_free (job->initial_event);
  g_free (job->final_event);
  g_free (job->unknown_events);
}

static void
job_unref (Job *job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) job_free);
}

static void
job_progress (double   fraction,
              gpointer data)
{
  Job *job = data;

  g_atomic_int_set (&job->permille, (int) (CLAMP (fraction, 0, 1) * 1000));
}

static EvalPage *find_page (TwEvaluationsPane *self,
                            guint              id,
                            guint             *index);

static gboolean
batch_arrived (gpointer data)
{
  Batch *batch = data;
  EvalPage *p = find_page (batch->pane, batch->page_id, NULL);

  /* a batch the page already has (the evaluation ended meanwhile) is dropped */
  if (p && p->running && batch->first == p->rows_fed)
    {
      tw_histogram_insert_many (p->histogram, (const double *) batch->lengths->data,
                                batch->lengths->len);
      p->rows_fed += batch->lengths->len;
      tw_histogram_view_changed (TW_HISTOGRAM_VIEW (p->hist_view));
    }
  g_object_unref (batch->pane);
  g_array_unref (batch->lengths);
  g_free (batch);
  return G_SOURCE_REMOVE;
}

/* Sends the lengths of rows [*sent, n) to the main thread (worker side). */
static void
send_batch (Job                *job,
            GArray             *lengths,
            gsize              *sent)
{
  Batch *batch;

  if (lengths->len == 0)
    return;
  batch = g_new0 (Batch, 1);
  batch->pane = g_object_ref (job->pane);
  batch->page_id = job->page_id;
  batch->first = *sent;
  batch->lengths = g_array_ref (lengths);
  *sent += lengths->len;
  g_idle_add (batch_arrived, batch);
}

static void
send_table_rows (Job                *job,
                 TwMeasurementTable *table,
                 gsize              *sent)
{
  gsize n = tw_measurement_table_get_n_rows (table);
  g_autoptr(GArray) lengths = g_array_sized_new (FALSE, FALSE, sizeof (double), n - *sent);

  for (gsize r = *sent; r < n; r++)
    {
      double v = (double) tw_measurement_table_get_row (table, r)->length;
      g_array_append_val (lengths, v);
    }
  send_batch (job, lengths, sent);
}

/* A built-in or user metric, chunk by chunk, its rows sent to the live histogram. */
static TwMeasurementTable *
run_metric (Job           *job,
            GCancellable  *cancellable,
            GError       **error)
{
  g_autoptr(TwMeasurementTable) table = tw_metric_new_table (job->metric);
  g_autoptr(TwUpdate) update = tw_metric_create_update (job->metric, table, NULL);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (job->trace);
  guint64 n = tw_trace_get_n_events (job->trace);
  gsize sent = 0;

  if (!tw_evaluation_add_update (evaluation, update, error))
    return NULL;
  for (guint64 first = 0; first < n; first += EVENT_CHUNK)
    {
      if (!tw_evaluation_run_to (evaluation, MIN (n, first + EVENT_CHUNK), NULL, NULL,
                                 cancellable, error))
        return NULL;
      job_progress ((double) MIN (n, first + EVENT_CHUNK) / n, job);
      send_table_rows (job, table, &sent);
    }
  tw_evaluation_finish (evaluation);
  send_table_rows (job, table, &sent);
  return g_steal_pointer (&table);
}

/* The automaton interpreter's measurements as table rows. */
static TwMeasurementTable *
table_from_automaton (TwAutomatonInterp *interp)
{
  TwMeasurementTable *table = tw_measurement_table_new (NULL);
  gsize n = tw_automaton_interp_get_n_measurements (interp);

  for (gsize i = 0; i < n; i++)
    {
      const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (interp, i);
      TwMeasurementRow row = {
        .task = m->task,
        .intermediate_events = (guint32) MIN (m->intermediate_events, G_MAXUINT32),
        .begin = m->begin_ns,
        .end = m->end_ns,
        .length = m->length_ns,
      };

      tw_measurement_table_append (table, &row, NULL);
    }
  return table;
}

static TwMeasurementTable *
run_automaton (Job           *job,
               GCancellable  *cancellable,
               GError       **error)
{
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (job->automaton, job->trace, error);
  guint64 n = tw_trace_get_n_events (job->trace);
  gsize sent = 0;

  if (interp == NULL)
    return NULL;
  for (guint64 first = 0; first < n; first += EVENT_CHUNK)
    {
      g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (double));

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!tw_automaton_interp_feed (interp, first, MIN (n, first + EVENT_CHUNK), error))
        return NULL;
      job_progress ((double) MIN (n, first + EVENT_CHUNK) / n, job);
      for (gsize i = sent; i < tw_automaton_interp_get_n_measurements (interp); i++)
        {
          double v = (double) tw_automaton_interp_get_measurement (interp, i)->length_ns;
          g_array_append_val (lengths, v);
        }
      send_batch (job, lengths, &sent);
    }
  return table_from_automaton (interp);
}

static void
run_job (GTask        *task,
         gpointer      source,
         gpointer      task_data,
         GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  gpointer result = NULL;

  switch (job->kind)
    {
    case JOB_METRIC:
      result = run_metric (job, cancellable, &error);
      break;
    case JOB_PLUGIN:
      /* a module may put other values than lengths in its histogram: not live */
      result = tw_evaluator_evaluate (TW_EVALUATOR (job->plugin), job->trace, job->histogram, job_progress, job,
                                   cancellable, &error);
      break;
    case JOB_AUTOMATON:
      result = run_automaton (job, cancellable, &error);
      break;
    case JOB_WORST_CASE:
      result = tw_worst_case_evaluate (job->trace, job->initial_event, job->final_event,
                                       job_progress, job, cancellable, &error);
      break;
    }
  if (result)
    g_task_return_pointer (task, result, g_object_unref);
  else
    g_task_return_error (task, error);
}

/* ------------------------------------------------------------------ pages */

static void
eval_page_free (EvalPage *p)
{
  g_clear_handle_id (&p->progress_id, g_source_remove);
  if (p->cancellable)
    g_cancellable_cancel (p->cancellable);
  g_clear_object (&p->cancellable);
  g_clear_pointer (&p->job, job_unref);
  g_clear_object (&p->histogram);
  g_clear_object (&p->table);
  g_clear_object (&p->evaluation);
  g_clear_pointer (&p->update, tw_update_unref);
  g_clear_object (&p->interp);
  g_free (p->name);
  g_free (p->error_message);
  g_free (p);
}

static EvalPage *
find_page (TwEvaluationsPane *self,
           guint              id,
           guint             *index)
{
  /* NULL once disposed: a thread's last batch or result may still arrive */
  if (self->pages == NULL)
    return NULL;
  for (guint i = 0; i < self->pages->len; i++)
    {
      EvalPage *p = g_ptr_array_index (self->pages, i);

      if (p->id == id)
        {
          if (index)
            *index = i;
          return p;
        }
    }
  return NULL;
}

static EvalPage *
page_at (TwEvaluationsPane *self,
         guint              index)
{
  g_return_val_if_fail (index < self->pages->len, NULL);
  return g_ptr_array_index (self->pages, index);
}

static gboolean
progress_cb (gpointer data)
{
  EvalPage *p = data;

  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (p->progress),
                                 g_atomic_int_get (&p->job->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static void
job_done (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (source);
  guint id = GPOINTER_TO_UINT (data);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMeasurementTable) table = g_task_propagate_pointer (G_TASK (result), &error);
  EvalPage *p = find_page (self, id, NULL);
  g_autofree char *text = NULL;
  TwTrace *trace;
  g_autoptr(TwMeasurementList) list = NULL;

  if (p == NULL)
    return;   /* removed while it ran */
  p->running = FALSE;
  g_clear_handle_id (&p->progress_id, g_source_remove);
  gtk_widget_set_visible (p->progress, FALSE);
  gtk_widget_set_visible (p->cancel, FALSE);
  if (table == NULL)
    {
      p->error_message = g_strdup (error->message);
      text = g_strdup_printf ("%s: %s", p->name, error->message);
      gtk_label_set_text (GTK_LABEL (p->status), text);
      gtk_widget_add_css_class (p->status, "error");
      return;
    }
  trace = p->job->trace;
  p->table = g_steal_pointer (&table);
  if (p->job->kind == JOB_PLUGIN)
    g_set_object (&p->histogram, p->job->histogram);
  else
    {
      /* the batches still queued are dropped: the rows they carry are fed from here */
      gsize n = tw_measurement_table_get_n_rows (p->table);

      for (gsize r = p->rows_fed; r < n; r++)
        tw_histogram_insert (p->histogram, (double) tw_measurement_table_get_row (p->table, r)->length);
      p->rows_fed = n;
    }
  text = g_strdup_printf ("%s: %" G_GSIZE_FORMAT " measurements%s%s", p->name,
                          tw_measurement_table_get_n_rows (p->table),
                          p->job->unknown_events ? "; " : "",
                          p->job->unknown_events ? p->job->unknown_events : "");
  gtk_label_set_text (GTK_LABEL (p->status), text);
  gtk_widget_set_tooltip_text (p->status, text);
  tw_histogram_view_set_histogram (TW_HISTOGRAM_VIEW (p->hist_view), p->histogram, p->table, trace);
  list = tw_measurement_list_new (p->table, trace);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (p->table_scrolled),
                                 tw_measurement_list_create_view (list));
}

typedef enum {
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_CSV,
  EXPORT_BINS_CSV,
} ExportKind;

static const char *const export_names[] = { "histogram.png", "histogram.svg",
                                            "measurements.csv", "bins.csv" };

static void
export_response (GtkNativeDialog *dialog,
                 int              response,
                 gpointer         data)
{
  TwEvaluationsPane *self = data;
  guint id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (dialog), "tw-page-id"));
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "tw-export"));
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  guint index;
  gboolean ok = TRUE;

  if (response == GTK_RESPONSE_ACCEPT && find_page (self, id, &index)
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)))
      && (path = g_file_get_path (file)))
    {
      switch (kind)
        {
        case EXPORT_PNG:
          ok = tw_evaluations_pane_export_image (self, index, TW_HISTOGRAM_EXPORT_PNG, path, &error);
          break;
        case EXPORT_SVG:
          ok = tw_evaluations_pane_export_image (self, index, TW_HISTOGRAM_EXPORT_SVG, path, &error);
          break;
        case EXPORT_CSV:
          ok = tw_evaluations_pane_export_csv (self, index, path, &error);
          break;
        case EXPORT_BINS_CSV:
          ok = tw_evaluations_pane_export_bins_csv (self, index, path, &error);
          break;
        }
      gtk_label_set_text (GTK_LABEL (self->message), ok ? "" : error->message);
    }
  g_object_unref (dialog);
}

static void
export_clicked (GtkButton *button,
                gpointer   data)
{
  TwEvaluationsPane *self = data;
  ExportKind kind = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "tw-export"));
  GtkFileChooserNative *dialog;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  dialog = gtk_file_chooser_native_new ("Export", GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), export_names[kind]);
  g_object_set_data (G_OBJECT (dialog), "tw-page-id",
                     g_object_get_data (G_OBJECT (button), "tw-page-id"));
  g_object_set_data (G_OBJECT (dialog), "tw-export", GINT_TO_POINTER (kind));
  g_signal_connect (dialog, "response", G_CALLBACK (export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
cancel_clicked (GtkButton *button,
                gpointer   data)
{
  TwEvaluationsPane *self = data;
  guint index;

  if (find_page (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "tw-page-id")), &index))
    tw_evaluations_pane_cancel (self, index);
}

static void
remove_clicked (GtkButton *button,
                gpointer   data)
{
  TwEvaluationsPane *self = data;
  guint index;

  if (find_page (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "tw-page-id")), &index))
    tw_evaluations_pane_remove (self, index);
}

static GtkWidget *
page_button (TwEvaluationsPane *self,
             GtkWidget         *box,
             const char        *label,
             guint              id,
             GCallback          callback,
             int                export_kind)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  g_object_set_data (G_OBJECT (button), "tw-page-id", GUINT_TO_POINTER (id));
  g_object_set_data (G_OBJECT (button), "tw-export", GINT_TO_POINTER (export_kind));
  g_signal_connect (button, "clicked", callback, self);
  gtk_box_append (GTK_BOX (box), button);
  return button;
}

static void advance_page (TwEvaluationsPane *self,
                          EvalPage          *p);

/* A live page: the evaluation is kept and run forward on the main thread at every
 * tw_evaluations_pane_advance() (display rate), from the rows the last call stopped at,
 * so each arrival costs only its own events. Not in a thread: the live store's payload
 * blob may move while the monitor appends (see tw-live-session.c). */
static gboolean
start_live (TwEvaluationsPane *self,
            EvalPage          *p,
            GError           **error)
{
  Job *job = p->job;
  TwTrace *trace = job->trace;
  guint index = 0;

  p->live = TRUE;
  gtk_widget_set_visible (p->progress, FALSE);
  gtk_widget_set_tooltip_text (p->cancel, "Stop updating this evaluation");
  switch (job->kind)
    {
    case JOB_METRIC:
      p->table = tw_metric_new_table (job->metric);
      p->update = tw_metric_create_update (job->metric, p->table, NULL);
      break;
    case JOB_PLUGIN:
      /* the module's update fills the histogram itself (its values may not be lengths) */
      p->table = tw_plugin_new_table (job->plugin);
      p->update = tw_plugin_create_update (job->plugin, p->table, p->histogram);
      break;
    case JOB_AUTOMATON:
      p->interp = tw_automaton_interp_new (job->automaton, trace, error);
      break;
    case JOB_WORST_CASE:
    default:
      g_assert_not_reached ();
    }
  if (p->update)
    {
      p->evaluation = tw_evaluation_new (trace);
      if (!tw_evaluation_add_update (p->evaluation, p->update, error))
        p->running = FALSE;
    }
  else if (p->interp == NULL)
    p->running = FALSE;
  if (!p->running)
    {
      find_page (self, p->id, &index);
      tw_evaluations_pane_remove (self, index);
      return FALSE;
    }
  advance_page (self, p);
  return TRUE;
}

static gboolean
start_job (TwEvaluationsPane *self,
           Job               *job,
           const char        *name,
           GError           **error)
{
  EvalPage *p;
  GtkWidget *header, *stack, *switcher;
  g_autoptr(GTask) task = NULL;
  g_autofree char *text = NULL;

  p = g_new0 (EvalPage, 1);
  p->id = ++self->next_id;
  name = p->name = tw_tab_name_dup_unique (GTK_NOTEBOOK (self->notebook), name);
  p->job = job;
  p->cancellable = g_cancellable_new ();
  p->running = TRUE;
  job->page_id = p->id;
  job->trace = g_object_ref (tw_view_state_get_trace (self->view_state));
  job->pane = self;
  p->histogram = tw_histogram_new_auto (50, gtk_check_button_get_active (GTK_CHECK_BUTTON (self->log_bins))
                                            ? TW_HISTOGRAM_SCALE_LOG : TW_HISTOGRAM_SCALE_LINEAR);
  tw_histogram_set_unit (p->histogram, "ns");
  if (job->kind == JOB_PLUGIN)
    {
      job->histogram = tw_histogram_new_auto (50, tw_histogram_get_scale (p->histogram));
      tw_histogram_set_unit (job->histogram, "ns");
    }

  p->page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  text = g_strdup_printf ("%s: evaluating…", name);
  p->status = gtk_label_new (text);
  gtk_label_set_xalign (GTK_LABEL (p->status), 0);
  gtk_label_set_ellipsize (GTK_LABEL (p->status), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (p->status, TRUE);
  gtk_box_append (GTK_BOX (header), p->status);
  p->progress = gtk_progress_bar_new ();
  gtk_widget_set_valign (p->progress, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (header), p->progress);
  p->cancel = page_button (self, header, "_Cancel", p->id, G_CALLBACK (cancel_clicked), 0);
  page_button (self, header, "PNG…", p->id, G_CALLBACK (export_clicked), EXPORT_PNG);
  page_button (self, header, "SVG…", p->id, G_CALLBACK (export_clicked), EXPORT_SVG);
  page_button (self, header, "CSV…", p->id, G_CALLBACK (export_clicked), EXPORT_CSV);
  page_button (self, header, "Bins CSV…", p->id, G_CALLBACK (export_clicked), EXPORT_BINS_CSV);
  page_button (self, header, "_Remove", p->id, G_CALLBACK (remove_clicked), 0);
  gtk_box_append (GTK_BOX (p->page), header);

  /* the histogram (with its bin's measurements) and the whole table, one at a time */
  stack = gtk_stack_new ();
  gtk_widget_set_vexpand (stack, TRUE);
  p->hist_view = tw_histogram_view_new ();
  tw_histogram_view_set_view_state (TW_HISTOGRAM_VIEW (p->hist_view), self->view_state);
  /* live while the thread runs; the measurements (bin lists) come with the result */
  tw_histogram_view_set_histogram (TW_HISTOGRAM_VIEW (p->hist_view), p->histogram, NULL, NULL);
  gtk_stack_add_titled (GTK_STACK (stack), p->hist_view, "histogram", "Histogram");
  p->table_scrolled = gtk_scrolled_window_new ();
  gtk_stack_add_titled (GTK_STACK (stack), p->table_scrolled, "table", "Measurements");
  switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), GTK_STACK (stack));
  gtk_box_insert_child_after (GTK_BOX (header), switcher, p->status);
  gtk_box_append (GTK_BOX (p->page), stack);

  g_ptr_array_add (self->pages, p);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook),
                                 gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), p->page,
                                                           gtk_label_new (name)));
  if (self->live)
    return start_live (self, p, error);
  p->progress_id = g_timeout_add (100, progress_cb, p);

  task = g_task_new (self, p->cancellable, job_done, GUINT_TO_POINTER (p->id));
  g_task_set_task_data (task, g_atomic_rc_box_acquire (job), (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, run_job);
  return TRUE;
}

static Job *
job_new (JobKind kind)
{
  Job *job = g_atomic_rc_box_new0 (Job);

  job->kind = kind;
  return job;
}

static gboolean
check_trace (TwEvaluationsPane *self,
             GError           **error)
{
  if (self->view_state)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, "No trace is open");
  return FALSE;
}

static void
stop_live_page (EvalPage   *p,
                const char *error_message)
{
  g_autofree char *text = NULL;

  p->running = FALSE;
  gtk_widget_set_visible (p->cancel, FALSE);
  if (error_message)
    {
      p->error_message = g_strdup (error_message);
      text = g_strdup_printf ("%s: %s", p->name, error_message);
      gtk_label_set_text (GTK_LABEL (p->status), text);
      gtk_widget_add_css_class (p->status, "error");
    }
}

static void
advance_page (TwEvaluationsPane *self,
              EvalPage          *p)
{
  TwTrace *trace = p->job->trace;
  guint64 n = tw_trace_get_n_events (trace);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize n_rows = p->rows_fed;

  if (!p->live || !p->running)
    return;
  if (p->evaluation)
    {
      if (!tw_evaluation_run_to (p->evaluation, n, NULL, NULL, NULL, &error))
        {
          stop_live_page (p, error->message);
          return;
        }
      n_rows = tw_measurement_table_get_n_rows (p->table);
      if (p->job->kind == JOB_METRIC)
        for (gsize r = p->rows_fed; r < n_rows; r++)
          tw_histogram_insert (p->histogram, (double) tw_measurement_table_get_row (p->table, r)->length);
    }
  else
    {
      if (!tw_automaton_interp_feed (p->interp, tw_automaton_interp_get_position (p->interp), n, &error))
        {
          stop_live_page (p, error->message);
          return;
        }
      n_rows = tw_automaton_interp_get_n_measurements (p->interp);
      for (gsize r = p->rows_fed; r < n_rows; r++)
        tw_histogram_insert (p->histogram, (double) tw_automaton_interp_get_measurement (p->interp, r)->length_ns);
    }
  if (n_rows != p->rows_fed || p->job->kind == JOB_PLUGIN)
    tw_histogram_view_changed (TW_HISTOGRAM_VIEW (p->hist_view));
  p->rows_fed = n_rows;
  text = g_strdup_printf ("%s: %" G_GSIZE_FORMAT " measurements (live)", p->name, n_rows);
  gtk_label_set_text (GTK_LABEL (p->status), text);
}

/* Refused: it would measure nothing. A live trace may log them yet: the entry warns. */
static gboolean
check_events (TwEvaluationsPane  *self,
              TwMetric           *metric,
              GError            **error)
{
  return self->live || tw_metric_check_events (metric, tw_view_state_get_trace (self->view_state),
                                               error);
}

/**
 * tw_evaluations_pane_set_live:
 * @live: whether the trace grows (a live session)
 *
 * Evaluations added to a live trace keep running as data arrives: call
 * tw_evaluations_pane_advance() whenever the trace grew.
 */
void
tw_evaluations_pane_set_live (TwEvaluationsPane *self,
                              gboolean           live)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));
  self->live = live;
}

/**
 * tw_evaluations_pane_advance:
 *
 * Runs every live evaluation forward to the end of the trace and updates its
 * histogram; lists event types that appeared since.
 */
void
tw_evaluations_pane_advance (TwEvaluationsPane *self)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));

  tw_event_name_entry_update_names (TW_EVENT_NAME_ENTRY (self->initial_entry));
  tw_event_name_entry_update_names (TW_EVENT_NAME_ENTRY (self->final_entry));
  for (guint i = 0; self->pages && i < self->pages->len; i++)
    advance_page (self, g_ptr_array_index (self->pages, i));
}

/* ------------------------------------------------------------------ public: adding */

/**
 * tw_evaluations_pane_add_system_metric:
 * @name: a system metric, with its parameter after a colon when it takes one
 *
 * Starts evaluating @name over the open trace in a thread and adds its page.
 *
 * Returns: %FALSE with @error set when there is no trace, no such metric or (unless the
 *   trace is live) it names an event the trace does not have
 */
gboolean
tw_evaluations_pane_add_system_metric (TwEvaluationsPane  *self,
                                       const char         *name,
                                       GError            **error)
{
  g_autoptr(TwMetric) metric = NULL;
  Job *job;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!check_trace (self, error) || !(metric = tw_metric_new_system (name, error)) ||
      !check_events (self, metric, error))
    return FALSE;
  job = job_new (JOB_METRIC);
  job->metric = g_steal_pointer (&metric);
  return start_job (self, job, name, error);
}

/**
 * tw_evaluations_pane_add_user_metric:
 * @initial_event: the event type that starts a measurement
 * @final_event: the event type that ends it
 * @include_system: count interrupt and preemption time in the length
 *
 * Returns: %FALSE with @error set when there is no trace, an event name is empty or,
 *   unless the trace is live, names no event of the trace
 */
gboolean
tw_evaluations_pane_add_user_metric (TwEvaluationsPane  *self,
                                     const char         *initial_event,
                                     const char         *final_event,
                                     gboolean            include_system,
                                     GError            **error)
{
  g_autofree char *name = NULL;
  g_autoptr(TwMetric) metric = NULL;
  Job *job;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error))
    return FALSE;
  if (initial_event == NULL || final_event == NULL || !*initial_event || !*final_event)
    {
      g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                           "A user metric needs a start and an end event");
      return FALSE;
    }
  name = g_strdup_printf ("%s → %s%s", initial_event, final_event,
                          include_system ? "" : " (no system)");
  metric = tw_metric_new_user (name, initial_event, final_event, include_system);
  if (!check_events (self, metric, error))
    return FALSE;
  job = job_new (JOB_METRIC);
  job->metric = g_steal_pointer (&metric);
  return start_job (self, job, name, error);
}

/**
 * tw_evaluations_pane_add_plugin:
 * @path: an evaluation module (.so)
 *
 * Returns: %FALSE with @error set when the module cannot be loaded
 */
gboolean
tw_evaluations_pane_add_plugin (TwEvaluationsPane  *self,
                                const char         *path,
                                GError            **error)
{
  g_autoptr(TwPlugin) plugin = NULL;
  Job *job;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error) || !(plugin = tw_plugin_new_for_path (path, error)))
    return FALSE;
  job = job_new (JOB_PLUGIN);
  job->plugin = g_steal_pointer (&plugin);
  return start_job (self, job, tw_plugin_get_name (job->plugin), error);
}

/**
 * tw_evaluations_pane_add_automaton:
 * @path: a metric automaton JSON file
 *
 * Runs the automaton interpreter; its measurements fill the table and histogram. Its
 * status line names the events of its labels that the trace does not have.
 *
 * Returns: %FALSE with @error set when the file cannot be read
 */
gboolean
tw_evaluations_pane_add_automaton (TwEvaluationsPane  *self,
                                   const char         *path,
                                   GError            **error)
{
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autofree char *name = NULL;
  g_auto(GStrv) events = NULL;
  Job *job;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error) || !(automaton = tw_automaton_load (path, error)))
    return FALSE;
  name = g_path_get_basename (path);
  job = job_new (JOB_AUTOMATON);
  /* labels may name other tracers' events on purpose: said beside the count, not refused */
  events = tw_automaton_dup_event_names (automaton);
  job->unknown_events = tw_event_names_check (tw_view_state_get_trace (self->view_state),
                                              (const char *const *) events, TW_EVENT_NAME_LABEL);
  job->automaton = g_steal_pointer (&automaton);
  return start_job (self, job, name, error);
}

/* ------------------------------------------------------------------ public: pages */

/**
 * tw_evaluations_pane_get_n_evaluations:
 *
 * Returns: how many evaluations the pane shows
 */
guint
tw_evaluations_pane_get_n_evaluations (TwEvaluationsPane *self)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), 0);
  return self->pages->len;
}

/**
 * tw_evaluations_pane_get_name:
 * @index: an evaluation
 *
 * Returns: its name (the tab's label)
 */
const char *
tw_evaluations_pane_get_name (TwEvaluationsPane *self,
                              guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return page_at (self, index)->name;
}

/**
 * tw_evaluations_pane_is_running:
 * @index: an evaluation
 *
 * Returns: whether its thread still runs
 */
gboolean
tw_evaluations_pane_is_running (TwEvaluationsPane *self,
                                guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return page_at (self, index)->running;
}

/**
 * tw_evaluations_pane_get_error_message:
 * @index: an evaluation
 *
 * Returns: (nullable): why it failed (or "cancelled"), %NULL when it did not
 */
const char *
tw_evaluations_pane_get_error_message (TwEvaluationsPane *self,
                                       guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return page_at (self, index)->error_message;
}

/**
 * tw_evaluations_pane_cancel:
 * @index: an evaluation
 *
 * Stops its thread; the page stays and says so.
 */
void
tw_evaluations_pane_cancel (TwEvaluationsPane *self,
                            guint              index)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));
  if (page_at (self, index)->live)
    stop_live_page (page_at (self, index), NULL);
  g_cancellable_cancel (page_at (self, index)->cancellable);
}

/**
 * tw_evaluations_pane_get_table:
 * @index: an evaluation
 *
 * Returns: (transfer none) (nullable): its measurements, %NULL until it finished
 */
TwMeasurementTable *
tw_evaluations_pane_get_table (TwEvaluationsPane *self,
                               guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return page_at (self, index)->table;
}

/**
 * tw_evaluations_pane_get_histogram_view:
 * @index: an evaluation
 *
 * Returns: (transfer none): its histogram view
 */
TwHistogramView *
tw_evaluations_pane_get_histogram_view (TwEvaluationsPane *self,
                                        guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return TW_HISTOGRAM_VIEW (page_at (self, index)->hist_view);
}

/**
 * tw_evaluations_pane_get_page:
 * @index: an evaluation
 *
 * Returns: (transfer none): its page in the pane's notebook
 */
GtkWidget *
tw_evaluations_pane_get_page (TwEvaluationsPane *self,
                              guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return page_at (self, index)->page;
}

/**
 * tw_evaluations_pane_show_page:
 * @page: a page of the pane (an evaluation's or the worst-case page)
 */
void
tw_evaluations_pane_show_page (TwEvaluationsPane *self,
                               GtkWidget         *page)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), page));
}

/**
 * tw_evaluations_pane_remove:
 * @index: an evaluation
 *
 * Removes its page, cancelling its thread if it still runs.
 */
void
tw_evaluations_pane_remove (TwEvaluationsPane *self,
                            guint              index)
{
  EvalPage *p;

  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));

  p = page_at (self, index);
  gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook),
                            gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), p->page));
  g_ptr_array_remove_index (self->pages, index);
}

static gboolean
finished_page (TwEvaluationsPane  *self,
               guint               index,
               EvalPage          **page,
               GError            **error)
{
  *page = page_at (self, index);
  if ((*page)->table)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, "“%s” has no results yet", (*page)->name);
  return FALSE;
}

/**
 * tw_evaluations_pane_export_csv:
 * @index: a finished evaluation
 * @path: the file to write
 *
 * Writes its measurement table (`task,begin_ns,end_ns,length_ns,intermediate_events`).
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
tw_evaluations_pane_export_csv (TwEvaluationsPane  *self,
                                guint               index,
                                const char         *path,
                                GError            **error)
{
  EvalPage *p;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  if (!finished_page (self, index, &p, error))
    return FALSE;
  csv = tw_measurement_table_to_csv (p->table, p->job->trace);
  return g_file_set_contents (path, csv, -1, error);
}

/**
 * tw_evaluations_pane_export_bins_csv:
 * @index: a finished evaluation
 * @path: the file to write
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
tw_evaluations_pane_export_bins_csv (TwEvaluationsPane  *self,
                                     guint               index,
                                     const char         *path,
                                     GError            **error)
{
  EvalPage *p;
  g_autoptr(TwHistogramSnapshot) snapshot = NULL;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  if (!finished_page (self, index, &p, error))
    return FALSE;
  snapshot = tw_histogram_snapshot_new (p->histogram, FALSE);
  csv = tw_histogram_snapshot_to_csv (snapshot);
  return g_file_set_contents (path, csv, -1, error);
}

/**
 * tw_evaluations_pane_export_image:
 * @index: a finished evaluation
 * @format: PNG or SVG
 * @path: the file to write
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
tw_evaluations_pane_export_image (TwEvaluationsPane       *self,
                                  guint                    index,
                                  TwHistogramExportFormat  format,
                                  const char              *path,
                                  GError                 **error)
{
  EvalPage *p;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  if (!finished_page (self, index, &p, error))
    return FALSE;
  return tw_histogram_view_export_image (TW_HISTOGRAM_VIEW (p->hist_view), format, path, error);
}

/* ------------------------------------------------------------------ worst case */

typedef char *(*CellText) (TwEvaluationsPane *self,
                           guint              row,
                           guint              column);

static char *
format_ns (double ns)
{
  if (isnan (ns) || ns < 0)
    return g_strdup ("–");
  return tw_timeline_format_duration ((guint64) llround (ns));
}

static char *
task_label (TwEvaluationsPane *self,
            guint32            task)
{
  return tw_measurement_table_dup_task_label (tw_view_state_get_trace (self->view_state), task);
}

static char *
worst_case_cell (TwEvaluationsPane *self,
                 guint              row,
                 guint              column)
{
  if (column == 0)
    return task_label (self, tw_worst_case_get_task (self->worst_case, row));
  return format_ns (tw_worst_case_get_value (self->worst_case, row, column - 1));
}

static char *
analysis_cell (TwEvaluationsPane *self,
               guint              row,
               guint              column)
{
  const TwResponseTime *r = &g_array_index (self->analysis, TwResponseTime, row);

  switch (column)
    {
    case 0: return task_label (self, r->task);
    case 1: return g_strdup_printf ("%u", r->priority);
    case 2: return r->period > 0 ? format_ns (r->period) : g_strdup ("–");
    case 3: return format_ns (r->execution);
    case 4: return format_ns (r->blocking);
    case 5: return format_ns (r->response);
    default: return g_strdup (r->converged ? "yes" : "no (past the period)");
    }
}

static void
grid_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), GPOINTER_TO_UINT (data) == 0 ? 0 : 1);
  gtk_list_item_set_child (item, label);
}

static void
grid_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           TwEvaluationsPane        *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "tw-column"));
  CellText text_func = g_object_get_data (G_OBJECT (factory), "tw-cell-text");
  GtkStringObject *row = gtk_list_item_get_item (item);
  g_autofree char *text = text_func (self, (guint) g_ascii_strtoull (gtk_string_object_get_string (row), NULL, 10), column);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

/* A read-only table of @n_rows whose cells come from @text_func. */
static GtkWidget *
grid_view_new (TwEvaluationsPane  *self,
               guint               n_rows,
               const char *const  *titles,
               guint               n_columns,
               CellText            text_func)
{
  GtkStringList *rows = gtk_string_list_new (NULL);
  GtkWidget *view;
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  for (guint r = 0; r < n_rows; r++)
    {
      char number[16];

      g_snprintf (number, sizeof number, "%u", r);
      gtk_string_list_append (rows, number);
    }
  view = gtk_column_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (rows))));
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  for (guint c = 0; c < n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;

      g_object_set_data (G_OBJECT (factory), "tw-column", GUINT_TO_POINTER (c));
      g_object_set_data (G_OBJECT (factory), "tw-cell-text", text_func);
      g_signal_connect (factory, "setup", G_CALLBACK (grid_setup), GUINT_TO_POINTER (c));
      g_signal_connect (factory, "bind", G_CALLBACK (grid_bind), self);
      column = gtk_column_view_column_new (titles[c], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

static void
show_worst_case (TwEvaluationsPane *self)
{
  static const char *const rta_titles[] = { "Task", "Priority", "Period T", "C = C_user + JST",
                                            "Blocking B", "Response R", "Converged" };
  guint n_columns = tw_worst_case_get_n_columns (self->worst_case);
  g_autofree const char **titles = g_new0 (const char *, n_columns + 1);
  GtkWidget *child;

  titles[0] = "Task";
  for (guint c = 0; c < n_columns; c++)
    titles[c + 1] = tw_worst_case_get_column_name (self->worst_case, c);
  while ((child = gtk_widget_get_first_child (self->wc_tables)))
    gtk_box_remove (GTK_BOX (self->wc_tables), child);
  gtk_box_append (GTK_BOX (self->wc_tables), gtk_label_new ("Worst case per task (Fig. 4)"));
  gtk_box_append (GTK_BOX (self->wc_tables),
                  grid_view_new (self, tw_worst_case_get_n_rows (self->worst_case), titles,
                                 n_columns + 1, worst_case_cell));
  gtk_box_append (GTK_BOX (self->wc_tables), gtk_label_new ("Response-time analysis (eq. 1)"));
  gtk_box_append (GTK_BOX (self->wc_tables),
                  grid_view_new (self, self->analysis->len, rta_titles, G_N_ELEMENTS (rta_titles),
                                 analysis_cell));
}

static void
worst_case_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwWorstCase) wc = g_task_propagate_pointer (G_TASK (result), &error);

  if (GPOINTER_TO_UINT (data) != self->wc_id)
    return;   /* superseded */
  self->wc_running = FALSE;
  if (wc == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->wc_status), error->message);
      return;
    }
  g_set_object (&self->worst_case, wc);
  g_clear_pointer (&self->analysis, g_array_unref);
  self->analysis = tw_worst_case_analyse (wc);
  gtk_label_set_text (GTK_LABEL (self->wc_status), "");
  show_worst_case (self);
}

static void
worst_case_export_response (GtkNativeDialog *dialog,
                            int              response,
                            gpointer         data)
{
  TwEvaluationsPane *self = data;
  gboolean analysis = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "tw-analysis"));
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *csv = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->worst_case
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)))
      && (path = g_file_get_path (file)))
    {
      TwTrace *trace = tw_view_state_get_trace (self->view_state);

      csv = analysis ? tw_worst_case_analysis_to_csv (self->worst_case, trace)
                     : tw_worst_case_to_csv (self->worst_case, trace);
      if (!g_file_set_contents (path, csv, -1, &error))
        gtk_label_set_text (GTK_LABEL (self->wc_status), error->message);
    }
  g_object_unref (dialog);
}

static void
worst_case_export_clicked (GtkButton *button,
                           gpointer   data)
{
  TwEvaluationsPane *self = data;
  gboolean analysis = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "tw-analysis"));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;

  if (self->worst_case == NULL)
    return;
  dialog = gtk_file_chooser_native_new ("Export", GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     analysis ? "response-time.csv" : "worst-case.csv");
  g_object_set_data (G_OBJECT (dialog), "tw-analysis", GINT_TO_POINTER (analysis));
  g_signal_connect (dialog, "response", G_CALLBACK (worst_case_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
ensure_worst_case_page (TwEvaluationsPane *self)
{
  GtkWidget *header, *button;

  if (self->wc_page)
    return;
  self->wc_page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->wc_status = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->wc_status), 0);
  gtk_widget_set_hexpand (self->wc_status, TRUE);
  gtk_box_append (GTK_BOX (header), self->wc_status);
  button = gtk_button_new_with_label ("Worst case CSV…");
  g_signal_connect (button, "clicked", G_CALLBACK (worst_case_export_clicked), self);
  gtk_box_append (GTK_BOX (header), button);
  button = gtk_button_new_with_label ("Analysis CSV…");
  g_object_set_data (G_OBJECT (button), "tw-analysis", GINT_TO_POINTER (TRUE));
  g_signal_connect (button, "clicked", G_CALLBACK (worst_case_export_clicked), self);
  gtk_box_append (GTK_BOX (header), button);
  gtk_box_append (GTK_BOX (self->wc_page), header);
  self->wc_tables = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_vexpand (self->wc_tables, TRUE);
  gtk_box_append (GTK_BOX (self->wc_page), self->wc_tables);
  gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), self->wc_page,
                            gtk_label_new ("Worst case / RTA"));
}

/**
 * tw_evaluations_pane_compute_worst_case:
 * @initial_event: the event type that starts a job (C_i^user)
 * @final_event: the event type that ends it
 *
 * Computes the per-task worst-case table and the response-time analysis in a thread and
 * shows them on the "Worst case / RTA" page.
 *
 * Returns: %FALSE with @error set when there is no trace or an event name is empty
 */
gboolean
tw_evaluations_pane_compute_worst_case (TwEvaluationsPane  *self,
                                        const char         *initial_event,
                                        const char         *final_event,
                                        GError            **error)
{
  g_autoptr(GTask) task = NULL;
  Job *job;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error))
    return FALSE;
  if (initial_event == NULL || final_event == NULL || !*initial_event || !*final_event)
    {
      g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                           "The worst-case table needs the job's start and end events");
      return FALSE;
    }
  ensure_worst_case_page (self);
  if (self->wc_cancellable)
    g_cancellable_cancel (self->wc_cancellable);
  g_clear_object (&self->wc_cancellable);
  self->wc_cancellable = g_cancellable_new ();
  self->wc_running = TRUE;
  gtk_label_set_text (GTK_LABEL (self->wc_status), "Computing…");
  job = job_new (JOB_WORST_CASE);
  job->trace = g_object_ref (tw_view_state_get_trace (self->view_state));
  job->initial_event = g_strdup (initial_event);
  job->final_event = g_strdup (final_event);
  task = g_task_new (self, self->wc_cancellable, worst_case_done, GUINT_TO_POINTER (++self->wc_id));
  g_task_set_task_data (task, job, (GDestroyNotify) job_unref);
  g_task_run_in_thread (task, run_job);
  tw_evaluations_pane_show_page (self, self->wc_page);
  return TRUE;
}

/**
 * tw_evaluations_pane_is_worst_case_running:
 *
 * Returns: whether the worst-case thread still runs
 */
gboolean
tw_evaluations_pane_is_worst_case_running (TwEvaluationsPane *self)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return self->wc_running;
}

/**
 * tw_evaluations_pane_get_worst_case:
 *
 * Returns: (transfer none) (nullable): the last worst-case table computed
 */
TwWorstCase *
tw_evaluations_pane_get_worst_case (TwEvaluationsPane *self)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return self->worst_case;
}

/* ------------------------------------------------------------------ the controls */

/* @error is read here, after the call that set it: as an argument beside that call it
 * could be read before (C leaves the order of evaluation to the compiler). */
static void
report (TwEvaluationsPane  *self,
        gboolean            ok,
        GError            **error)
{
  gtk_label_set_text (GTK_LABEL (self->message), ok ? "" : (*error)->message);
  gtk_widget_set_tooltip_text (self->message, ok ? NULL : (*error)->message);   /* ellipsized */
}

static void
add_metric_clicked (GtkButton *button,
                    gpointer   data)
{
  TwEvaluationsPane *self = data;
  guint n = 0;
  const TwMetricInfo *metrics = tw_metrics_get_system_metrics (&n);
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->metric_dropdown));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (selected >= n)
    return;
  /* a metric with a parameter (an event name) takes it from the Start field */
  if (metrics[selected].parameter)
    name = g_strdup_printf ("%s:%s", metrics[selected].name,
                            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)));
  else
    name = g_strdup (metrics[selected].name);
  report (self, tw_evaluations_pane_add_system_metric (self, name, &error), &error);
}

static void
add_user_clicked (GtkButton *button,
                  gpointer   data)
{
  TwEvaluationsPane *self = data;
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_add_user_metric (self,
            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)),
            gtk_editable_get_text (GTK_EDITABLE (self->final_entry)),
            gtk_check_button_get_active (GTK_CHECK_BUTTON (self->include_system)), &error), &error);
}

static void
worst_case_clicked (GtkButton *button,
                    gpointer   data)
{
  TwEvaluationsPane *self = data;
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_compute_worst_case (self,
            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)),
            gtk_editable_get_text (GTK_EDITABLE (self->final_entry)), &error), &error);
}

static void
open_response (GtkNativeDialog *dialog,
               int              response,
               gpointer         data)
{
  TwEvaluationsPane *self = data;
  gboolean automaton = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "tw-automaton"));
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT
      && (file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog)))
      && (path = g_file_get_path (file)))
    report (self, automaton ? tw_evaluations_pane_add_automaton (self, path, &error)
                            : tw_evaluations_pane_add_plugin (self, path, &error), &error);
  g_object_unref (dialog);
}

static void
open_clicked (GtkButton *button,
              gpointer   data)
{
  TwEvaluationsPane *self = data;
  gboolean automaton = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "tw-automaton"));
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (automaton ? "Open Metric Automaton" : "Open Evaluation Module",
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_filter_set_name (filter, automaton ? "Metric automata (*.json)" : "Modules (*.so)");
  gtk_file_filter_add_pattern (filter, automaton ? "*.json" : "*.so");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_object_unref (filter);
  g_object_set_data (G_OBJECT (dialog), "tw-automaton", GINT_TO_POINTER (automaton));
  g_signal_connect (dialog, "response", G_CALLBACK (open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
tw_evaluations_pane_dispose (GObject *object)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (object);
  GtkWidget *child;

  g_clear_pointer (&self->pages, g_ptr_array_unref);
  if (self->wc_cancellable)
    g_cancellable_cancel (self->wc_cancellable);
  g_clear_object (&self->wc_cancellable);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->view_state);
  g_clear_object (&self->worst_case);
  g_clear_pointer (&self->analysis, g_array_unref);
  G_OBJECT_CLASS (tw_evaluations_pane_parent_class)->dispose (object);
}

static void
tw_evaluations_pane_class_init (TwEvaluationsPaneClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = tw_evaluations_pane_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "evaluationspane");
}

static GtkWidget *
button_in (GtkWidget  *box,
           const char *label,
           GCallback   callback,
           gpointer    data)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  g_signal_connect (button, "clicked", callback, data);
  gtk_box_append (GTK_BOX (box), button);
  return button;
}

static void
tw_evaluations_pane_init (TwEvaluationsPane *self)
{
  GtkWidget *row1 = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *row2 = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkStringList *names = gtk_string_list_new (NULL);
  guint n = 0;
  const TwMetricInfo *metrics = tw_metrics_get_system_metrics (&n);
  GtkWidget *button;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  self->pages = g_ptr_array_new_with_free_func ((GDestroyNotify) eval_page_free);

  for (guint i = 0; i < n; i++)
    gtk_string_list_append (names, metrics[i].name);
  gtk_box_append (GTK_BOX (row1), gtk_label_new ("System metric"));
  self->metric_dropdown = gtk_drop_down_new (G_LIST_MODEL (names), NULL);   /* takes names */
  gtk_widget_set_tooltip_text (self->metric_dropdown,
                               "Metrics that take an event name read it from the Start field");
  gtk_box_append (GTK_BOX (row1), self->metric_dropdown);
  button_in (row1, "_Add Metric", G_CALLBACK (add_metric_clicked), self);
  button = button_in (row1, "_Plugin…", G_CALLBACK (open_clicked), self);
  gtk_widget_set_tooltip_text (button, "Evaluate with an evaluation module (.so)");
  button = button_in (row1, "A_utomaton…", G_CALLBACK (open_clicked), self);
  g_object_set_data (G_OBJECT (button), "tw-automaton", GINT_TO_POINTER (TRUE));
  gtk_widget_set_tooltip_text (button, "Evaluate with a metric automaton (JSON)");
  self->log_bins = gtk_check_button_new_with_mnemonic ("_Log bins");
  gtk_widget_set_tooltip_text (self->log_bins, "Bins of equal width in log(value), for long tails "
                                               "(applies to evaluations added next)");
  gtk_box_append (GTK_BOX (row1), self->log_bins);
  self->message = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->message, "error");
  gtk_label_set_ellipsize (GTK_LABEL (self->message), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->message, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->message), 0);
  gtk_box_append (GTK_BOX (row1), self->message);

  gtk_box_append (GTK_BOX (row2), gtk_label_new ("User metric"));
  self->initial_entry = tw_event_name_entry_new ("Start event");
  self->final_entry = tw_event_name_entry_new ("End event");
  gtk_box_append (GTK_BOX (row2), self->initial_entry);
  gtk_box_append (GTK_BOX (row2), self->final_entry);
  self->include_system = gtk_check_button_new_with_mnemonic ("Include _system time");
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->include_system), TRUE);
  gtk_box_append (GTK_BOX (row2), self->include_system);
  button_in (row2, "Add _User Metric", G_CALLBACK (add_user_clicked), self);
  button = button_in (row2, "_Worst Case / RTA", G_CALLBACK (worst_case_clicked), self);
  gtk_widget_set_tooltip_text (button, "Per-task worst cases and the response-time analysis, "
                                       "jobs from the Start to the End event");

  gtk_widget_set_parent (row1, GTK_WIDGET (self));
  gtk_widget_set_parent (row2, GTK_WIDGET (self));
  self->notebook = gtk_notebook_new ();
  gtk_notebook_set_scrollable (GTK_NOTEBOOK (self->notebook), TRUE);
  gtk_widget_set_vexpand (self->notebook, TRUE);
  gtk_widget_set_parent (self->notebook, GTK_WIDGET (self));
}

/**
 * tw_evaluations_pane_set_log_bins:
 * @log_bins: histograms of evaluations added from now on get bins of equal width in
 *   log10(value)
 */
void
tw_evaluations_pane_set_log_bins (TwEvaluationsPane *self,
                                  gboolean           log_bins)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->log_bins), log_bins);
}

/**
 * tw_evaluations_pane_new:
 *
 * Returns: (transfer floating): an empty pane
 */
GtkWidget *
tw_evaluations_pane_new (void)
{
  return g_object_new (TW_TYPE_EVALUATIONS_PANE, NULL);
}

/**
 * tw_evaluations_pane_set_view_state:
 * @view_state: (nullable): the open trace's view state
 *
 * Evaluations of the previous trace are removed (their threads cancelled).
 */
void
tw_evaluations_pane_set_view_state (TwEvaluationsPane *self,
                                    TwViewState       *view_state)
{
  TwTrace *trace;

  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));

  if (view_state == self->view_state)
    return;
  while (self->pages->len > 0)
    tw_evaluations_pane_remove (self, self->pages->len - 1);
  if (self->wc_page)
    {
      gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook),
                                gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->wc_page));
      self->wc_page = NULL;
      self->wc_running = FALSE;
      self->wc_id++;
    }
  g_clear_object (&self->worst_case);
  g_clear_pointer (&self->analysis, g_array_unref);
  g_set_object (&self->view_state, view_state);

  trace = view_state ? tw_view_state_get_trace (view_state) : NULL;
  tw_event_name_entry_set_trace (TW_EVENT_NAME_ENTRY (self->initial_entry), trace);
  tw_event_name_entry_set_trace (TW_EVENT_NAME_ENTRY (self->final_entry), trace);
}
