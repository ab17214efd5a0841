/* tw-worst-case-page.c: the Evaluations pane's page of per-task worst cases and response times
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the worst-case evaluator (Espinosa et al. 2003 §4) through a TwEvaluatorRun like
 * any other evaluation, then shows what only it has: the per-task table of Fig. 4 and
 * the response-time analysis of eq. (1), each exportable as CSV. The paper gives Fig. 4
 * with the tracing system's interference subtracted (§2): a check button does that with
 * the cost `tracewb-cli calibrate` stored for the trace's source (tw-event-cost.h), and
 * the status line says which lengths the tables hold.
 */
#include "config.h"

#include "tw-worst-case-page.h"
#include "tw-explain-panel.h"
#include "tw-file-chooser.h"

#include <glib/gi18n-lib.h>
#include <math.h>

struct _TwWorstCasePage
{
  GtkWidget       parent_instance;

  /* template widgets */
  GtkWidget      *status;
  GtkWidget      *compensate;
  GtkWidget      *tables;
  TwExplainPanel *explain_panel;

  /* owned */
  TwViewState    *view_state;
  char           *initial_event;  /* of the last computation */
  char           *final_event;
  TwEventCosts   *event_costs;    /* calibrated for the trace's source, per type too;
                                   * NULL: none */
  TwEvaluatorRun *run;          /* the last computation, NULL before the first */
  TwWorstCase    *worst_case;   /* its result */
  GArray         *analysis;     /* TwResponseTime, of @worst_case */
};

G_DEFINE_FINAL_TYPE (TwWorstCasePage, tw_worst_case_page, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ the two tables */

typedef char *(*CellText) (TwWorstCasePage *self,
                           gsize            row,
                           guint            column);

/* What a column's factory binds with: the page owns the view that owns the factory. */
typedef struct {
  TwWorstCasePage *page;
  guint            column;
  CellText         text;
} Cell;

static char *
format_ns (double ns)
{
  if (isnan (ns) || ns < 0)
    return g_strdup ("–");
  return tw_timeline_format_duration ((guint64) llround (ns));
}

/* As the rest of the window names a task ("cc1-14300", "256 (pid 0)"); the CSV export
 * keeps the source ids. */
static char *
task_label (TwWorstCasePage *self,
            guint32          task)
{
  TwTrace *trace = tw_evaluator_run_get_trace (self->run);

  if (task < tw_trace_get_n_tasks (trace))
    return tw_trace_dup_task_label (trace, task);
  return tw_measurement_table_dup_task_label (trace, task);
}

/* Fig. 4: the run's table, one row per task, the worst cases in its free columns. */
static char *
worst_case_cell (TwWorstCasePage *self,
                 gsize            row,
                 guint            column)
{
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);

  if (column == 0)
    return task_label (self, tw_measurement_table_get_row (table, row)->task);
  return format_ns (tw_measurement_table_get_value (table, row, column - 1));
}

static char *
analysis_cell (TwWorstCasePage *self,
               gsize            row,
               guint            column)
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
    default: return g_strdup (r->converged ? _("yes") : _("no (past the period)"));
    }
}

static void
cell_setup_cb (GtkSignalListItemFactory *factory,
               GtkListItem              *item,
               Cell                     *cell)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), cell->column == 0 ? 0 : 1);
  gtk_list_item_set_child (item, label);
}

static void
cell_bind_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item,
              Cell                     *cell)
{
  TwMeasurementItem *row = gtk_list_item_get_item (item);
  g_autofree char *text = cell->text (cell->page, tw_measurement_item_get_row (row), cell->column);

  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), text);
}

/* A read-only table over @rows (TwMeasurementItem), its cells from @text. */
static GtkWidget *
grid_new (TwWorstCasePage    *self,
          GListModel         *rows,
          const char *const  *titles,
          guint               n_columns,
          CellText            text)
{
  GtkNoSelection *selection = gtk_no_selection_new (g_object_ref (rows));
  GtkWidget *view = gtk_column_view_new (GTK_SELECTION_MODEL (selection));
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (view), TRUE);
  for (guint c = 0; c < n_columns; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      GtkColumnViewColumn *column;
      Cell *cell = g_new0 (Cell, 1);

      *cell = (Cell) { self, c, text };
      g_signal_connect (factory, "setup", G_CALLBACK (cell_setup_cb), cell);
      g_signal_connect_data (factory, "bind", G_CALLBACK (cell_bind_cb), cell,
                             (GClosureNotify) g_free, 0);
      column = gtk_column_view_column_new (titles[c], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (view), column);
      g_object_unref (column);
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  return scrolled;
}

/* A click on a task's row of Fig. 4: why its worst job took that long, beside it. */
static void
fig4_activate_cb (GtkColumnView   *view,
                  guint            position,
                  TwWorstCasePage *self)
{
  g_autoptr(TwMeasurementItem) item =
    g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);

  if (item == NULL)
    return;
  tw_explain_panel_explain_worst_job (self->explain_panel, tw_evaluator_run_get_trace (self->run),
                                      tw_measurement_table_get_row (table, tw_measurement_item_get_row (item))->task,
                                      self->initial_event, self->final_event);
}

static GListModel *
analysis_rows (TwWorstCasePage *self)
{
  GListStore *rows = g_list_store_new (TW_TYPE_MEASUREMENT_ITEM);

  for (guint r = 0; r < self->analysis->len; r++)
    {
      g_autoptr(TwMeasurementItem) item = tw_measurement_item_new (r);

      g_list_store_append (rows, item);
    }
  return G_LIST_MODEL (rows);
}

static void
show_tables (TwWorstCasePage *self)
{
  const char *rta_titles[] = { _("Task"), _("Priority"), _("Period T"), _("C = C_user + JST"),
                               _("Blocking B"), _("Response R"), _("Converged") };
  guint n_columns = tw_worst_case_get_n_columns (self->worst_case);
  g_autofree const char **titles = g_new0 (const char *, n_columns + 1);
  g_autoptr(TwMeasurementList) fig4_rows = NULL;
  g_autoptr(GListModel) rta_rows = analysis_rows (self);
  GtkWidget *child, *fig4;

  titles[0] = _("Task");
  for (guint c = 0; c < n_columns; c++)
    titles[c + 1] = tw_worst_case_get_column_name (self->worst_case, c);
  fig4_rows = tw_measurement_list_new (tw_evaluator_run_get_table (self->run),
                                       tw_evaluator_run_get_trace (self->run));
  while ((child = gtk_widget_get_first_child (self->tables)))
    gtk_box_remove (GTK_BOX (self->tables), child);
  gtk_box_append (GTK_BOX (self->tables),
                  gtk_label_new (_("Worst case per task (Fig. 4): click a task to explain its worst job")));
  fig4 = grid_new (self, G_LIST_MODEL (fig4_rows), titles, n_columns + 1, worst_case_cell);
  gtk_column_view_set_single_click_activate (GTK_COLUMN_VIEW (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (fig4))),
                                             TRUE);
  g_signal_connect_object (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (fig4)), "activate",
                           G_CALLBACK (fig4_activate_cb), self, 0);
  gtk_box_append (GTK_BOX (self->tables), fig4);
  gtk_box_append (GTK_BOX (self->tables), gtk_label_new (_("Response-time analysis (eq. 1)")));
  gtk_box_append (GTK_BOX (self->tables), grid_new (self, rta_rows, rta_titles,
                                                    G_N_ELEMENTS (rta_titles), analysis_cell));
}

/* ------------------------------------------------------------------ running */

static void
run_stopped_cb (TwWorstCasePage *self)
{
  TwWorstCaseEvaluator *evaluator = TW_WORST_CASE_EVALUATOR (tw_evaluator_run_get_evaluator (self->run));
  TwMeasurementTable *table = tw_evaluator_run_get_table (self->run);
  g_autoptr(GError) error = NULL;
  g_autofree char *costs = NULL;

  if (tw_evaluator_run_is_running (self->run))
    return;
  if (table == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->status), tw_evaluator_run_get_error_message (self->run));
      return;
    }
  if (!(self->worst_case = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error)))
    {
      gtk_label_set_text (GTK_LABEL (self->status), error->message);
      return;
    }
  self->analysis = tw_worst_case_analyse (self->worst_case);
  if ((costs = tw_worst_case_dup_event_cost_text (self->worst_case)) != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Tracing cost subtracted: %s"), costs);

      gtk_label_set_text (GTK_LABEL (self->status), text);
    }
  else
    gtk_label_set_text (GTK_LABEL (self->status), _("Raw lengths: tracing cost not subtracted"));
  show_tables (self);
}

static void
forget_run (TwWorstCasePage *self)
{
  if (self->run != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->run, self);
      tw_evaluator_run_cancel (self->run);
      g_clear_object (&self->run);
    }
  g_clear_object (&self->worst_case);
  g_clear_pointer (&self->analysis, g_array_unref);
}

/* What the check button offers: the stored cost of the trace's source, or why none. */
static void
update_event_cost (TwWorstCasePage *self,
                   TwTrace         *trace)
{
  const char *source = tw_event_cost_source_for_trace (trace);
  g_auto(TwEventCostCalibration) calibration = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *tooltip = NULL;

  g_clear_object (&self->event_costs);
  if (source == NULL)
    tooltip = g_strdup (_("A trace of mixed sources has no single tracing cost"));
  else if (!tw_event_cost_lookup (source, &calibration, &error))
    tooltip = g_strdup (error->message);
  else
    {
      self->event_costs = tw_event_cost_lookup_for_trace (trace);
      tooltip = g_strdup_printf (_("%.3f µs per %s event (%s, on %s)"), calibration.cost_ns / 1e3,
                                 source, calibration.measured, calibration.machine);
    }
  gtk_widget_set_sensitive (self->compensate, self->event_costs != NULL &&
                                             !tw_event_costs_is_zero (self->event_costs));
  gtk_widget_set_tooltip_text (self->compensate, tooltip);
}

static void
start_run (TwWorstCasePage *self)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = NULL;
  TwTrace *trace = tw_view_state_get_trace (self->view_state);
  g_autoptr(GError) error = NULL;

  forget_run (self);
  evaluator = tw_worst_case_evaluator_new (self->initial_event, self->final_event);
  if (gtk_check_button_get_active (GTK_CHECK_BUTTON (self->compensate)))
    tw_worst_case_evaluator_set_event_costs (evaluator, self->event_costs);
  self->run = tw_evaluator_run_new (TW_EVALUATOR (evaluator), trace, 50, TW_HISTOGRAM_SCALE_LINEAR);
  if (!tw_evaluator_check (TW_EVALUATOR (evaluator), trace, &error))
    {
      gtk_label_set_text (GTK_LABEL (self->status), error->message);
      return;
    }
  g_signal_connect_swapped (self->run, "notify::running", G_CALLBACK (run_stopped_cb), self);
  gtk_label_set_text (GTK_LABEL (self->status), _("Computing…"));
  tw_evaluator_run_start (self->run);
}

static void
compensate_toggled_cb (TwWorstCasePage *self)
{
  if (self->initial_event != NULL)
    start_run (self);
}

/**
 * tw_worst_case_page_compute:
 * @initial_event: the event type that starts a job (C_i^user)
 * @final_event: the event type that ends it
 *
 * Computes the per-task worst-case table and the response-time analysis of the view
 * state's trace in a thread (a computation still running is cancelled) and shows them;
 * the status line says why when it cannot.
 */
void
tw_worst_case_page_compute (TwWorstCasePage *self,
                            const char      *initial_event,
                            const char      *final_event)
{
  g_return_if_fail (TW_IS_WORST_CASE_PAGE (self));

  g_free (self->initial_event);
  g_free (self->final_event);
  self->initial_event = g_strdup (initial_event);
  self->final_event = g_strdup (final_event);
  update_event_cost (self, tw_view_state_get_trace (self->view_state));
  if (!gtk_widget_get_sensitive (self->compensate) && gtk_check_button_get_active (GTK_CHECK_BUTTON (self->compensate)))
    gtk_check_button_set_active (GTK_CHECK_BUTTON (self->compensate), FALSE); /* starts it */
  else
    start_run (self);
}

/* ------------------------------------------------------------------ export */


/* @user_data: non-NULL for the response times, NULL for the Fig. 4 table */
static void
export_chosen_cb (GtkWidget  *owner,
                  const char *path,
                  gpointer    user_data)
{
  TwWorstCasePage *self = TW_WORST_CASE_PAGE (owner);
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  TwTrace *trace;

  if (self->worst_case == NULL)
    return;
  trace = tw_evaluator_run_get_trace (self->run);
  csv = user_data ? tw_worst_case_analysis_to_csv (self->worst_case, trace)
                  : tw_worst_case_to_csv (self->worst_case, trace);
  if (!g_file_set_contents (path, csv, -1, &error))
    gtk_label_set_text (GTK_LABEL (self->status), error->message);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  gboolean analysis = g_variant_get_boolean (parameter);
  GtkFileChooserNative *dialog;

  if (TW_WORST_CASE_PAGE (widget)->worst_case == NULL)
    return;
  dialog = tw_file_chooser_new (widget, GTK_FILE_CHOOSER_ACTION_SAVE, _("Export"), _("_Export"),
                                export_chosen_cb, GINT_TO_POINTER (analysis), NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog),
                                     analysis ? "response-time.csv" : "worst-case.csv");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------------ GObject */

static void
tw_worst_case_page_dispose (GObject *object)
{
  TwWorstCasePage *self = TW_WORST_CASE_PAGE (object);
  GtkWidget *child;

  forget_run (self);
  g_clear_object (&self->view_state);
  g_clear_pointer (&self->initial_event, g_free);
  g_clear_pointer (&self->final_event, g_free);
  g_clear_object (&self->event_costs);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_WORST_CASE_PAGE);
  /* the template's rows have no name to be unparented by */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tw_worst_case_page_parent_class)->dispose (object);
}

static void
tw_worst_case_page_class_init (TwWorstCasePageClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_worst_case_page_dispose;
  g_type_ensure (TW_TYPE_EXPLAIN_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-worst-case-page.ui");
  gtk_widget_class_bind_template_child (widget_class, TwWorstCasePage, status);
  gtk_widget_class_bind_template_child (widget_class, TwWorstCasePage, compensate);
  gtk_widget_class_bind_template_callback (widget_class, compensate_toggled_cb);
  gtk_widget_class_bind_template_child (widget_class, TwWorstCasePage, tables);
  gtk_widget_class_bind_template_child (widget_class, TwWorstCasePage, explain_panel);
  gtk_widget_class_install_action (widget_class, "worst-case.export", "b", export_action);
}

static void
tw_worst_case_page_init (TwWorstCasePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tw_worst_case_page_new:
 * @view_state: the open trace's view state
 *
 * Returns: (transfer floating): an empty page; tw_worst_case_page_compute() fills it
 */
GtkWidget *
tw_worst_case_page_new (TwViewState *view_state)
{
  TwWorstCasePage *self;

  g_return_val_if_fail (TW_IS_VIEW_STATE (view_state), NULL);

  self = g_object_new (TW_TYPE_WORST_CASE_PAGE, NULL);
  self->view_state = g_object_ref (view_state);
  tw_explain_panel_set_view_state (self->explain_panel, view_state);
  return GTK_WIDGET (self);
}

/**
 * tw_worst_case_page_get_explain_panel:
 *
 * Returns: (transfer none): the panel that explains the worst job of a task clicked in Fig. 4
 */
TwExplainPanel *
tw_worst_case_page_get_explain_panel (TwWorstCasePage *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE_PAGE (self), NULL);
  return self->explain_panel;
}

/**
 * tw_worst_case_page_is_running:
 *
 * Returns: whether a computation still runs
 */
gboolean
tw_worst_case_page_is_running (TwWorstCasePage *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE_PAGE (self), FALSE);
  return self->run != NULL && tw_evaluator_run_is_running (self->run);
}

/**
 * tw_worst_case_page_get_worst_case:
 *
 * Returns: (transfer none) (nullable): the last worst-case table computed
 */
TwWorstCase *
tw_worst_case_page_get_worst_case (TwWorstCasePage *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE_PAGE (self), NULL);
  return self->worst_case;
}
