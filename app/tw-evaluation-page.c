/* tw-evaluation-page.c: one evaluation's page of the Evaluations pane: status, histogram, table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The page shows a TwEvaluatorRun, whatever evaluator it runs: a status line, the
 * histogram (fed while the run goes on) or the whole measurement table, and the buttons
 * that cancel, export or remove it. It never asks which kind of evaluation it shows.
 */
#include "config.h"

#include "tw-evaluation-page.h"
#include "tw-explain-panel.h"
#include "tw-file-chooser.h"

#include <glib/gi18n-lib.h>

struct _TwEvaluationPage
{
  GtkWidget        parent_instance;

  /* template widgets */
  GtkWidget       *status;
  GtkWidget       *progress;
  GtkWidget       *cancel;
  GtkWidget       *stack;
  GtkWidget       *table_scrolled;
  TwHistogramView *histogram_view;
  GtkWidget       *over_time;
  TwExplainPanel  *explain_panel;

  /* owned */
  TwEvaluatorRun  *run;
  char            *title;
};

G_DEFINE_FINAL_TYPE (TwEvaluationPage, tw_evaluation_page, GTK_TYPE_WIDGET)

enum {
  REMOVE,
  MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
show_status (TwEvaluationPage *self)
{
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);
  const char *error = tw_evaluator_run_get_error_message (self->run);
  const char *warning = tw_evaluator_run_get_warning (self->run);
  g_autofree char *text = NULL;

  if (error != NULL)
    text = g_strdup_printf ("%s: %s", self->title, error);
  else if (tw_evaluator_run_is_running (self->run) && tw_evaluator_run_is_live (self->run))
    text = g_strdup_printf (_("%s: %lu measurements (live)"), self->title,
                            (gulong) tw_measurement_table_get_n_rows (table));
  else if (tw_evaluator_run_is_running (self->run))
    text = g_strdup_printf (_("%s: evaluating…"), self->title);
  else
    text = g_strdup_printf (_("%s: %lu measurements%s%s"), self->title,
                            (gulong) tw_measurement_table_get_n_rows (table), warning ? "; " : "",
                            warning ? warning : "");
  gtk_label_set_text (GTK_LABEL (self->status), text);
  gtk_widget_set_tooltip_text (self->status, text);   /* ellipsized */
  if (error != NULL)
    gtk_widget_add_css_class (self->status, "error");
}

/* The measurements over the trace's whole span (a live trace's span so far). */
static void
show_over_time (TwEvaluationPage *self)
{
  TwTrace *trace = tw_evaluator_run_get_trace (self->run);
  gboolean has_events = trace && tw_trace_get_n_events (trace) > 0;

  tw_histogram_over_time_set_table (TW_HISTOGRAM_OVER_TIME (self->over_time),
                                    tw_evaluator_run_get_table (self->run),
                                    has_events ? tw_trace_get_first_time (trace) : 0,
                                    has_events ? tw_trace_get_last_time (trace) : 0);
}

/* A measurement picked in a bar's list or the over-time view: the Measurements tab, its
 * row selected (which explains it beside the list, and shows it on the timeline). */
static void
show_measurement (TwEvaluationPage *self,
                  guint64           row)
{
  GtkWidget *view = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (self->table_scrolled));
  GtkSingleSelection *selection;

  if (!GTK_IS_COLUMN_VIEW (view))
    return;
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "table");
  selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)));
  /* the list holds every row of the table, in order */
  gtk_single_selection_set_selected (selection, (guint) row);
  for (GtkWidget *child = gtk_widget_get_first_child (view); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", (guint) row);
}

static void
measurement_picked_cb (TwEvaluationPage *self,
                       guint64           row)
{
  show_measurement (self, row);
}

/* A click on a window of the over-time view shows its longest measurement. */
static void
over_time_row_activated_cb (TwEvaluationPage *self,
                            guint64           row)
{
  show_measurement (self, row);
}

static void
run_updated_cb (TwEvaluationPage *self)
{
  tw_histogram_view_changed (self->histogram_view);
  if (tw_evaluator_run_is_live (self->run))
    show_over_time (self);
  if (tw_evaluator_run_is_live (self->run))
    show_status (self);
}

static void
run_progress_cb (TwEvaluationPage *self)
{
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress),
                                 tw_evaluator_run_get_progress (self->run));
}

/* A measurement selected in the table: why it took that long, beside it. */
static void
measurement_selected_cb (TwEvaluationPage   *self,
                         GParamSpec         *pspec,
                         GtkSingleSelection *selection)
{
  TwMeasurementList *list = TW_MEASUREMENT_LIST (gtk_single_selection_get_model (selection));
  guint position = gtk_single_selection_get_selected (selection);

  if (position == GTK_INVALID_LIST_POSITION)
    {
      tw_explain_panel_clear (self->explain_panel);
      return;
    }
  tw_explain_panel_explain (self->explain_panel, tw_measurement_list_get_trace (list),
                            tw_measurement_table_get_row (tw_measurement_list_get_table (list),
                                                          tw_measurement_list_get_row (list, position)));
}

/* The run ended: its results, or why there are none. */
static void
run_stopped_cb (TwEvaluationPage *self)
{
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);
  TwTrace *trace = tw_evaluator_run_get_trace (self->run);
  g_autoptr(TwMeasurementList) list = NULL;
  GtkWidget *view;

  if (tw_evaluator_run_is_running (self->run))
    return;
  gtk_widget_set_visible (self->progress, FALSE);
  gtk_widget_set_visible (self->cancel, FALSE);
  show_status (self);
  if (table == NULL)
    return;
  /* the histogram the update made, with the measurements for the bins' lists */
  tw_histogram_view_set_histogram (self->histogram_view, tw_evaluator_run_get_histogram (self->run),
                                   table, trace);
  list = tw_measurement_list_new (table, trace);
  view = tw_measurement_list_create_view (list);
  g_signal_connect_object (gtk_column_view_get_model (GTK_COLUMN_VIEW (view)), "notify::selected",
                           G_CALLBACK (measurement_selected_cb), self, G_CONNECT_SWAPPED);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->table_scrolled), view);
  show_over_time (self);
}

/* ------------------------------------------------------------------ export */

typedef enum {
  EXPORT_PNG,
  EXPORT_SVG,
  EXPORT_CSV,
  EXPORT_BINS_CSV,
} ExportKind;

static const struct {
  const char *target;          /* the page.export action's parameter */
  const char *file_name;       /* what the dialog proposes */
} exports[] = {
  [EXPORT_PNG] = { "png", "histogram.png" },
  [EXPORT_SVG] = { "svg", "histogram.svg" },
  [EXPORT_CSV] = { "csv", "measurements.csv" },
  [EXPORT_BINS_CSV] = { "bins-csv", "bins.csv" },
};


static gboolean
export_to (TwEvaluationPage  *self,
           ExportKind         kind,
           const char        *path,
           GError           **error)
{
  switch (kind)
    {
    case EXPORT_PNG:
      return tw_evaluation_page_export_image (self, TW_HISTOGRAM_EXPORT_PNG, path, error);
    case EXPORT_SVG:
      return tw_evaluation_page_export_image (self, TW_HISTOGRAM_EXPORT_SVG, path, error);
    case EXPORT_CSV:
      return tw_evaluation_page_export_csv (self, path, error);
    case EXPORT_BINS_CSV:
    default:
      return tw_evaluation_page_export_bins_csv (self, path, error);
    }
}

/* @user_data: the ExportKind */
static void
export_chosen_cb (GtkWidget  *owner,
                  const char *path,
                  gpointer    user_data)
{
  g_autoptr(GError) error = NULL;
  gboolean ok = export_to (TW_EVALUATION_PAGE (owner), GPOINTER_TO_UINT (user_data), path, &error);

  g_signal_emit (owner, signals[MESSAGE], 0, ok ? "" : error->message);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  const char *target = g_variant_get_string (parameter, NULL);
  ExportKind kind = 0;
  GtkFileChooserNative *dialog;

  for (guint k = 0; k < G_N_ELEMENTS (exports); k++)
    if (g_str_equal (exports[k].target, target))
      kind = k;
  dialog = tw_file_chooser_new (widget, GTK_FILE_CHOOSER_ACTION_SAVE, _("Export"), _("_Export"),
                                export_chosen_cb, GUINT_TO_POINTER (kind), NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), exports[kind].file_name);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  tw_evaluator_run_cancel (TW_EVALUATION_PAGE (widget)->run);
}

static void
remove_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  g_signal_emit (widget, signals[REMOVE], 0);
}

/* ------------------------------------------------------------------ GObject */

static void
tw_evaluation_page_dispose (GObject *object)
{
  TwEvaluationPage *self = TW_EVALUATION_PAGE (object);
  GtkWidget *child;

  if (self->run != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      /* a thread nobody shows stops */
      tw_evaluator_run_cancel (self->run);
      g_clear_object (&self->run);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_EVALUATION_PAGE);
  /* the template's rows have no name to be unparented by */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tw_evaluation_page_parent_class)->dispose (object);
}

static void
tw_evaluation_page_finalize (GObject *object)
{
  g_free (TW_EVALUATION_PAGE (object)->title);

  G_OBJECT_CLASS (tw_evaluation_page_parent_class)->finalize (object);
}

static void
tw_evaluation_page_class_init (TwEvaluationPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_evaluation_page_dispose;
  object_class->finalize = tw_evaluation_page_finalize;

  /**
   * TwEvaluationPage::remove:
   *
   * The user asked to remove the page (its evaluation with it).
   */
  signals[REMOVE] = g_signal_new ("remove", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * TwEvaluationPage::message:
   * @text: what the last export said, "" when it went well
   */
  signals[MESSAGE] = g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  g_type_ensure (TW_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (TW_TYPE_HISTOGRAM_OVER_TIME);
  g_type_ensure (TW_TYPE_EXPLAIN_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-evaluation-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, status);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, progress);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, cancel);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, stack);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, table_scrolled);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, over_time);
  gtk_widget_class_bind_template_callback (widget_class, over_time_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, measurement_picked_cb);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationPage, explain_panel);

  gtk_widget_class_install_action (widget_class, "page.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "page.remove", NULL, remove_action);
  gtk_widget_class_install_action (widget_class, "page.export", "s", export_action);
}

static void
tw_evaluation_page_init (TwEvaluationPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tw_evaluation_page_new:
 * @run: a started run
 * @title: the page's title (its tab's label)
 * @view_state: (nullable): picking a measurement selects it there
 *
 * Returns: (transfer floating): the page
 */
GtkWidget *
tw_evaluation_page_new (TwEvaluatorRun *run,
                        const char     *title,
                        TwViewState    *view_state)
{
  TwEvaluationPage *self;

  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (run), NULL);
  g_return_val_if_fail (title != NULL, NULL);

  self = g_object_new (TW_TYPE_EVALUATION_PAGE, NULL);
  self->run = g_object_ref (run);
  self->title = g_strdup (title);
  tw_histogram_view_set_view_state (self->histogram_view, view_state);
  tw_explain_panel_set_view_state (self->explain_panel, view_state);
  /* live while it runs; the measurements (bin lists) come with the result */
  tw_histogram_view_set_histogram (self->histogram_view, tw_evaluator_run_get_histogram (run),
                                   NULL, NULL);
  if (tw_evaluator_run_is_live (run))
    {
      gtk_widget_set_visible (self->progress, FALSE);
      gtk_widget_set_tooltip_text (self->cancel, _("Stop updating this evaluation"));
    }
  g_signal_connect_swapped (run, "updated", G_CALLBACK (run_updated_cb), self);
  g_signal_connect_swapped (run, "notify::progress", G_CALLBACK (run_progress_cb), self);
  g_signal_connect_swapped (run, "notify::running", G_CALLBACK (run_stopped_cb), self);
  show_status (self);
  run_stopped_cb (self);
  return GTK_WIDGET (self);
}

/**
 * tw_evaluation_page_get_run:
 *
 * Returns: (transfer none): the run it shows
 */
TwEvaluatorRun *
tw_evaluation_page_get_run (TwEvaluationPage *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), NULL);
  return self->run;
}

/**
 * tw_evaluation_page_get_title:
 *
 * Returns: (transfer none): its title
 */
const char *
tw_evaluation_page_get_title (TwEvaluationPage *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), NULL);
  return self->title;
}

/**
 * tw_evaluation_page_get_histogram_view:
 *
 * Returns: (transfer none): its histogram view
 */
TwHistogramView *
tw_evaluation_page_get_histogram_view (TwEvaluationPage *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), NULL);
  return self->histogram_view;
}

/**
 * tw_evaluation_page_get_explain_panel:
 *
 * Returns: (transfer none): the panel beside the measurements that explains the selected one
 */
TwExplainPanel *
tw_evaluation_page_get_explain_panel (TwEvaluationPage *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), NULL);
  return self->explain_panel;
}

static TwMeasurementTable *
results (TwEvaluationPage  *self,
         GError           **error)
{
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);

  if (table == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PENDING, _("“%s” has no results yet"), self->title);
  return table;
}

/**
 * tw_evaluation_page_export_csv:
 * @path: the file to write
 *
 * Writes its measurement table (the bytes `tracewb-cli eval --csv` writes).
 *
 * Returns: %FALSE with @error set when it has no results yet or writing failed
 */
gboolean
tw_evaluation_page_export_csv (TwEvaluationPage  *self,
                               const char        *path,
                               GError           **error)
{
  TwMeasurementTable *table;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), FALSE);

  if (!(table = results (self, error)))
    return FALSE;
  csv = tw_measurement_table_to_csv (table, tw_evaluator_run_get_trace (self->run));
  return g_file_set_contents (path, csv, -1, error);
}

/**
 * tw_evaluation_page_export_bins_csv:
 * @path: the file to write
 *
 * Returns: %FALSE with @error set when it has no results yet or writing failed
 */
gboolean
tw_evaluation_page_export_bins_csv (TwEvaluationPage  *self,
                                    const char        *path,
                                    GError           **error)
{
  g_autoptr(TwHistogramSnapshot) snapshot = NULL;
  g_autofree char *csv = NULL;

  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), FALSE);

  if (!results (self, error))
    return FALSE;
  snapshot = tw_histogram_snapshot_new (tw_evaluator_run_get_histogram (self->run), FALSE);
  csv = tw_histogram_snapshot_to_csv (snapshot);
  return g_file_set_contents (path, csv, -1, error);
}

/**
 * tw_evaluation_page_export_image:
 * @format: PNG or SVG
 * @path: the file to write
 *
 * Returns: %FALSE with @error set when it has no results yet or writing failed
 */
gboolean
tw_evaluation_page_export_image (TwEvaluationPage         *self,
                                 TwHistogramExportFormat   format,
                                 const char               *path,
                                 GError                  **error)
{
  g_return_val_if_fail (TW_IS_EVALUATION_PAGE (self), FALSE);

  if (!results (self, error))
    return FALSE;
  return tw_histogram_view_export_image (self->histogram_view, format, path, error);
}
