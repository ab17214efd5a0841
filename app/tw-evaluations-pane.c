/* tw-evaluations-pane.c: evaluations over the open trace: histograms, tables, worst cases
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pane chooses evaluators — a metric offered by name (tw-evaluator-factory.h), a
 * user metric, a plugin, an automaton — and gives each a TwEvaluationPage that runs it
 * (a thread over a file, or stepped as a live trace grows) and shows its results. The
 * evaluations are a list model of those pages; the worst-case analysis has a page of
 * its own (TwWorstCasePage).
 */
#include "config.h"

#include "tw-evaluations-pane.h"
#include "tw-evaluation-page.h"
#include "tw-file-chooser.h"
#include "tw-event-name-entry.h"
#include "tw-tab-name.h"
#include "tw-worst-case-page.h"

#include <glib/gi18n-lib.h>

#define HISTOGRAM_BINS 50

struct _TwEvaluationsPane
{
  GtkWidget     parent_instance;

  /* template widgets */
  GtkWidget    *notebook;
  GtkWidget    *metric_dropdown;
  GtkWidget    *initial_entry;
  GtkWidget    *final_entry;
  GtkWidget    *include_system;
  GtkWidget    *log_bins;
  GtkWidget    *message;

  /* owned */
  TwViewState  *view_state;
  GListStore   *evaluations;   /* TwEvaluationPage, in the order they were added */
  GtkWidget    *worst_case;    /* TwWorstCasePage, in the notebook once computed */
  gboolean      live;          /* the trace grows: evaluations follow it */
};

G_DEFINE_FINAL_TYPE (TwEvaluationsPane, tw_evaluations_pane, GTK_TYPE_WIDGET)

static TwEvaluationPage *
page_at (TwEvaluationsPane *self,
         guint              index)
{
  g_autoptr(TwEvaluationPage) page = g_list_model_get_item (G_LIST_MODEL (self->evaluations), index);

  g_return_val_if_fail (page != NULL, NULL);
  return page;   /* the list keeps it */
}

static gboolean
check_trace (TwEvaluationsPane *self,
             GError           **error)
{
  if (self->view_state)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED, _("No trace is open"));
  return FALSE;
}

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
page_message_cb (TwEvaluationsPane *self,
                 const char        *text)
{
  gtk_label_set_text (GTK_LABEL (self->message), text);
  gtk_widget_set_tooltip_text (self->message, text);
}

static void
page_remove_cb (TwEvaluationsPane *self,
                TwEvaluationPage  *page)
{
  guint index;

  if (g_list_store_find (self->evaluations, page, &index))
    tw_evaluations_pane_remove (self, index);
}

/**
 * tw_evaluations_pane_add_evaluator:
 * @evaluator: what to evaluate
 * @title: the name of its page (made unique among the tabs)
 *
 * Runs @evaluator over the open trace — in a thread, or following the trace when it is
 * live (tw_evaluations_pane_set_live()) — on a page of its own. Any TwEvaluator: the
 * pane never asks which kind.
 *
 * Returns: %FALSE with @error set when there is no trace or the evaluator refuses it
 *   (a live trace is not checked: it may log the events later)
 */
gboolean
tw_evaluations_pane_add_evaluator (TwEvaluationsPane  *self,
                                   TwEvaluator        *evaluator,
                                   const char         *title,
                                   GError            **error)
{
  g_autoptr(TwEvaluatorRun) run = NULL;
  g_autofree char *name = NULL;
  TwTrace *trace;
  GtkWidget *page;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  g_return_val_if_fail (TW_IS_EVALUATOR (evaluator), FALSE);
  g_return_val_if_fail (title != NULL, FALSE);

  if (!check_trace (self, error))
    return FALSE;
  trace = tw_view_state_get_trace (self->view_state);
  if (!self->live && !tw_evaluator_check (evaluator, trace, error))
    return FALSE;

  run = tw_evaluator_run_new (evaluator, trace, HISTOGRAM_BINS,
                              gtk_check_button_get_active (GTK_CHECK_BUTTON (self->log_bins))
                              ? TW_HISTOGRAM_SCALE_LOG : TW_HISTOGRAM_SCALE_LINEAR);
  if (self->live && !tw_evaluator_run_start_live (run, error))
    return FALSE;
  if (!self->live)
    tw_evaluator_run_start (run);

  name = tw_tab_name_dup_unique (GTK_NOTEBOOK (self->notebook), title);
  page = tw_evaluation_page_new (run, name, self->view_state);
  g_signal_connect_swapped (page, "remove", G_CALLBACK (page_remove_cb), self);
  g_signal_connect_swapped (page, "message", G_CALLBACK (page_message_cb), self);
  g_list_store_append (self->evaluations, page);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self->notebook),
                                 gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), page,
                                                           gtk_label_new (name)));
  return TRUE;
}

/**
 * tw_evaluations_pane_add_system_metric:
 * @name: a metric offered by name (tw_evaluator_factory_list_registered()), with its
 *   parameter after a colon when it takes one
 *
 * Returns: %FALSE with @error set when there is no trace, no such metric or (unless the
 *   trace is live) it names an event the trace does not have
 */
gboolean
tw_evaluations_pane_add_system_metric (TwEvaluationsPane  *self,
                                       const char         *name,
                                       GError            **error)
{
  g_autoptr(TwEvaluator) evaluator = NULL;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!check_trace (self, error) || !(evaluator = tw_evaluator_factory_create_for_spec (name, error)))
    return FALSE;
  return tw_evaluations_pane_add_evaluator (self, evaluator, name, error);
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

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error))
    return FALSE;
  if (initial_event == NULL || final_event == NULL || !*initial_event || !*final_event)
    {
      g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                           _("A user metric needs a start and an end event"));
      return FALSE;
    }
  name = g_strdup_printf ("%s → %s%s", initial_event, final_event,
                          include_system ? "" : _(" (no system)"));
  metric = tw_metric_new_user (name, initial_event, final_event, include_system);
  return tw_evaluations_pane_add_evaluator (self, TW_EVALUATOR (metric), name, error);
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

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error) || !(plugin = tw_plugin_new_for_path (path, error)))
    return FALSE;
  return tw_evaluations_pane_add_evaluator (self, TW_EVALUATOR (plugin),
                                            tw_plugin_get_name (plugin), error);
}

/**
 * tw_evaluations_pane_add_automaton:
 * @path: a metric automaton JSON file
 *
 * Runs the automaton interpreter; its measurements fill the table and histogram. Its
 * status line names the events of its labels that the trace does not have.
 *
 * Returns: %FALSE with @error set when the file cannot be read or the automaton has
 *   design errors
 */
gboolean
tw_evaluations_pane_add_automaton (TwEvaluationsPane  *self,
                                   const char         *path,
                                   GError            **error)
{
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(TwAutomatonEvaluator) evaluator = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error) || !(automaton = tw_automaton_load (path, error)) ||
      !(evaluator = tw_automaton_evaluator_new (automaton, error)))
    return FALSE;
  name = g_path_get_basename (path);
  return tw_evaluations_pane_add_evaluator (self, TW_EVALUATOR (evaluator), name, error);
}

/* ------------------------------------------------------------------ the controls */

static void
add_metric_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (widget);
  TwEvaluatorFactory *factory = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (self->metric_dropdown));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;

  if (factory == NULL)
    return;
  /* a metric with a parameter (an event name) takes it from the Start field; an empty
   * one leaves the metric's default (response-time's S.Ha.R.K. job events) */
  if (tw_evaluator_factory_get_parameter (factory)
      && *gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)) != '\0')
    name = g_strdup_printf ("%s:%s", tw_evaluator_factory_get_name (factory),
                            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)));
  else
    name = g_strdup (tw_evaluator_factory_get_name (factory));
  report (self, tw_evaluations_pane_add_system_metric (self, name, &error), &error);
}

static void
add_user_metric_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (widget);
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_add_user_metric (self,
            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)),
            gtk_editable_get_text (GTK_EDITABLE (self->final_entry)),
            gtk_check_button_get_active (GTK_CHECK_BUTTON (self->include_system)), &error), &error);
}

static void
worst_case_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (widget);
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_compute_worst_case (self,
            gtk_editable_get_text (GTK_EDITABLE (self->initial_entry)),
            gtk_editable_get_text (GTK_EDITABLE (self->final_entry)), &error), &error);
}

static void
open_automaton_chosen_cb (GtkWidget  *owner,
                          const char *path,
                          gpointer    user_data)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (owner);
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_add_automaton (self, path, &error), &error);
}

static void
open_plugin_chosen_cb (GtkWidget  *owner,
                       const char *path,
                       gpointer    user_data)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (owner);
  g_autoptr(GError) error = NULL;

  report (self, tw_evaluations_pane_add_plugin (self, path, &error), &error);
}

/* evaluations.open-plugin, evaluations.open-automaton */
static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  gboolean automaton = g_str_equal (action_name, "evaluations.open-automaton");
  GtkFileChooserNative *dialog;

  dialog = tw_file_chooser_new (widget, GTK_FILE_CHOOSER_ACTION_OPEN,
                                automaton ? _("Open Metric Automaton") : _("Open Evaluation Module"),
                                _("_Open"), automaton ? open_automaton_chosen_cb : open_plugin_chosen_cb,
                                NULL, NULL);
  tw_file_chooser_add_filter (dialog, automaton ? _("Metric automata (*.json)") : _("Modules (*.so)"),
                              automaton ? "json" : "so");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------------ GObject */

static void
tw_evaluations_pane_dispose (GObject *object)
{
  TwEvaluationsPane *self = TW_EVALUATIONS_PANE (object);
  GtkWidget *child;

  if (self->evaluations)
    g_list_store_remove_all (self->evaluations);
  g_clear_object (&self->evaluations);
  self->worst_case = NULL;   /* the notebook owns it */
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_EVALUATIONS_PANE);
  /* the template's rows have no name to be unparented by */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->view_state);

  G_OBJECT_CLASS (tw_evaluations_pane_parent_class)->dispose (object);
}

static void
tw_evaluations_pane_class_init (TwEvaluationsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_evaluations_pane_dispose;
  gtk_widget_class_set_css_name (widget_class, "evaluationspane");

  g_type_ensure (TW_TYPE_EVENT_NAME_ENTRY);
  g_type_ensure (TW_TYPE_EVALUATOR_FACTORY);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-evaluations-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, notebook);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, metric_dropdown);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, initial_entry);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, final_entry);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, include_system);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, log_bins);
  gtk_widget_class_bind_template_child (widget_class, TwEvaluationsPane, message);

  gtk_widget_class_install_action (widget_class, "evaluations.add-metric", NULL, add_metric_action);
  gtk_widget_class_install_action (widget_class, "evaluations.add-user-metric", NULL,
                                   add_user_metric_action);
  gtk_widget_class_install_action (widget_class, "evaluations.worst-case", NULL, worst_case_action);
  gtk_widget_class_install_action (widget_class, "evaluations.open-plugin", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "evaluations.open-automaton", NULL, open_action);
}

static void
tw_evaluations_pane_init (TwEvaluationsPane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->evaluations = g_list_store_new (TW_TYPE_EVALUATION_PAGE);
  /* the list follows what is registered, also after the pane was made */
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->metric_dropdown),
                           tw_evaluator_factory_list_registered ());
}

/* ------------------------------------------------------------------ public */

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
  while (g_list_model_get_n_items (G_LIST_MODEL (self->evaluations)) > 0)
    tw_evaluations_pane_remove (self, 0);
  if (self->worst_case)
    gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook),
                              gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), self->worst_case));
  self->worst_case = NULL;
  g_set_object (&self->view_state, view_state);

  trace = view_state ? tw_view_state_get_trace (view_state) : NULL;
  tw_event_name_entry_set_trace (TW_EVENT_NAME_ENTRY (self->initial_entry), trace);
  tw_event_name_entry_set_trace (TW_EVENT_NAME_ENTRY (self->final_entry), trace);
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
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->evaluations)); i++)
    tw_evaluator_run_advance (tw_evaluation_page_get_run (page_at (self, i)));
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
 * tw_evaluations_pane_get_evaluations:
 *
 * Returns: (transfer none): the evaluations, a #GListModel of #TwEvaluationPage in the
 *   order they were added
 */
GListModel *
tw_evaluations_pane_get_evaluations (TwEvaluationsPane *self)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), NULL);
  return G_LIST_MODEL (self->evaluations);
}

/**
 * tw_evaluations_pane_get_n_evaluations:
 *
 * Returns: how many evaluations the pane shows
 */
guint
tw_evaluations_pane_get_n_evaluations (TwEvaluationsPane *self)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), 0);
  return g_list_model_get_n_items (G_LIST_MODEL (self->evaluations));
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
  return tw_evaluation_page_get_title (page_at (self, index));
}

/**
 * tw_evaluations_pane_is_running:
 * @index: an evaluation
 *
 * Returns: whether its thread still runs (or it still follows a live trace)
 */
gboolean
tw_evaluations_pane_is_running (TwEvaluationsPane *self,
                                guint              index)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return tw_evaluator_run_is_running (tw_evaluation_page_get_run (page_at (self, index)));
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
  return tw_evaluator_run_get_error_message (tw_evaluation_page_get_run (page_at (self, index)));
}

/**
 * tw_evaluations_pane_cancel:
 * @index: an evaluation
 *
 * Stops its thread (or stops following a live trace); the page stays and says so.
 */
void
tw_evaluations_pane_cancel (TwEvaluationsPane *self,
                            guint              index)
{
  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));
  tw_evaluator_run_cancel (tw_evaluation_page_get_run (page_at (self, index)));
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
  return tw_evaluator_run_get_table (tw_evaluation_page_get_run (page_at (self, index)));
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
  return tw_evaluation_page_get_histogram_view (page_at (self, index));
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
  return GTK_WIDGET (page_at (self, index));
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
  TwEvaluationPage *page;

  g_return_if_fail (TW_IS_EVALUATIONS_PANE (self));

  page = page_at (self, index);
  g_signal_handlers_disconnect_by_data (page, self);
  gtk_notebook_remove_page (GTK_NOTEBOOK (self->notebook),
                            gtk_notebook_page_num (GTK_NOTEBOOK (self->notebook), GTK_WIDGET (page)));
  g_list_store_remove (self->evaluations, index);
}

/**
 * tw_evaluations_pane_export_csv:
 * @index: a finished evaluation
 * @path: the file to write
 *
 * Writes its measurement table (`task,begin_ns,end_ns,length_ns,intermediate_events,lost`).
 *
 * Returns: %FALSE with @error set on failure
 */
gboolean
tw_evaluations_pane_export_csv (TwEvaluationsPane  *self,
                                guint               index,
                                const char         *path,
                                GError            **error)
{
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return tw_evaluation_page_export_csv (page_at (self, index), path, error);
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
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return tw_evaluation_page_export_bins_csv (page_at (self, index), path, error);
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
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);
  return tw_evaluation_page_export_image (page_at (self, index), format, path, error);
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
  g_return_val_if_fail (TW_IS_EVALUATIONS_PANE (self), FALSE);

  if (!check_trace (self, error))
    return FALSE;
  if (initial_event == NULL || final_event == NULL || !*initial_event || !*final_event)
    {
      g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                           _("The worst-case table needs the job's start and end events"));
      return FALSE;
    }
  if (self->worst_case == NULL)
    {
      self->worst_case = tw_worst_case_page_new (self->view_state);
      gtk_notebook_append_page (GTK_NOTEBOOK (self->notebook), self->worst_case,
                                gtk_label_new (_("Worst case / RTA")));
    }
  tw_worst_case_page_compute (TW_WORST_CASE_PAGE (self->worst_case), initial_event, final_event);
  tw_evaluations_pane_show_page (self, self->worst_case);
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
  return self->worst_case && tw_worst_case_page_is_running (TW_WORST_CASE_PAGE (self->worst_case));
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
  return self->worst_case ? tw_worst_case_page_get_worst_case (TW_WORST_CASE_PAGE (self->worst_case))
                          : NULL;
}
