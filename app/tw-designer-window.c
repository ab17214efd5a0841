/* tw-designer-window.c: draw a metric automaton and see it measure the open trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-designer-window.h"
#include "tw-designer-compare.h"
#include "tw-file-chooser.h"

#include <glib/gi18n-lib.h>
#include <tw-evaluators.h>

/*
 * Every edit re-runs the automaton over the open trace (Espinosa 2003 §3, DESIGN §4) after a
 * short pause, in a worker thread on a copy of the automaton: the canvas keeps editing
 * the original on the main thread meanwhile, and a newer edit cancels the older run.
 * Picking a measurement selects its [begin, end) in the main window's timeline.
 *
 * The designer does not know the main window: an exported module goes out through
 * ::module-built, which the window that opened the designer answers by running it.
 */

#define PREVIEW_DELAY_MS 200
#define MAX_LISTED       10000

struct _TwDesignerWindow
{
  GtkWindow          parent_instance;

  GtkWidget         *canvas_slot;
  GtkWidget         *name_entry;
  GtkWidget         *summary;
  TwDesignerCompare *compare;        /* any registered evaluator over the same trace */
  TwHistogramView   *histogram_view; /* lengths of the last finished preview */
  GtkWidget         *list;
  GtkWidget         *step_task;
  GtkWidget         *step_label;

  /* step mode: an interpreter of its own, fed up to step_position */
  TwAutomatonInterp *step_interp;
  guint64            step_position;
  GArray            *step_counts;    /* guint: steps that ended in each state */

  TwAutomatonCanvas *canvas;
  TwViewState       *state;          /* nullable: no trace open */
  GtkStringList     *strings;        /* owned by selection */
  GtkSingleSelection *selection;     /* owned by list */
  TwMeasurementTable *table;         /* of the last finished preview; the list shows its
                                      * first MAX_LISTED rows */
  gint64             n_measurements; /* of the last finished preview, -1 none */
  TwEvaluatorRun    *preview;        /* the preview running, NULL when none */
  guint              delay_id;
  char              *path;
};

G_DEFINE_FINAL_TYPE (TwDesignerWindow, tw_designer_window, GTK_TYPE_WINDOW)

enum {
  MODULE_BUILT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static TwHistogram *
new_preview_histogram (void)
{
  TwHistogram *histogram = tw_histogram_new_auto (50, TW_HISTOGRAM_SCALE_LINEAR);

  tw_histogram_set_unit (histogram, "ns");
  return histogram;
}

/* An empty plot while the automaton cannot run, so no stale bars stay up. */
static void
clear_histogram (TwDesignerWindow *self)
{
  g_autoptr(TwHistogram) empty = new_preview_histogram ();

  tw_histogram_view_set_histogram (self->histogram_view, empty, NULL, NULL);
}

static void
set_summary (TwDesignerWindow *self,
             const char       *text)
{
  gtk_label_set_text (GTK_LABEL (self->summary), text);
}

static void
show_rows (TwDesignerWindow   *self,
           TwMeasurementTable *table)
{
  TwTrace *trace = tw_view_state_get_trace (self->state);
  gsize n = MIN (tw_measurement_table_get_n_rows (table), MAX_LISTED);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = NULL;

  g_set_object (&self->table, table);
  for (gsize i = 0; i < n; i++)
    {
      const TwMeasurementRow *row = tw_measurement_table_get_row (table, i);
      g_autofree char *task = tw_trace_dup_task_label (trace, row->task);
      g_autofree char *begin = tw_timeline_format_time (row->begin, 1000);
      g_autofree char *length = tw_timeline_format_duration (row->length);
      g_autofree char *line = g_strdup_printf ("%-22s %s  %10s  %u events",
                                               task, begin, length, row->intermediate_events);

      g_strv_builder_add (builder, line);
    }
  lines = g_strv_builder_end (builder);
  gtk_string_list_splice (self->strings, 0, g_list_model_get_n_items (G_LIST_MODEL (self->strings)),
                          (const char * const *) lines);
}

static void
stop_preview (TwDesignerWindow *self)
{
  if (self->preview == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->preview, self);
  tw_evaluator_run_cancel (self->preview);
  g_clear_object (&self->preview);
}

static void
preview_done_cb (TwDesignerWindow *self)
{
  g_autoptr(TwEvaluatorRun) preview = NULL;
  TwMeasurementTable *table;
  g_autofree char *text = NULL;
  g_autofree char *lengths = NULL;
  gsize n;

  if (tw_evaluator_run_is_running (self->preview))
    return;
  preview = g_object_ref (self->preview);
  stop_preview (self);
  if ((table = tw_evaluator_run_get_table (preview)) == NULL)
    {
      text = g_strdup_printf (_("Cannot run over this trace: %s"),
                              tw_evaluator_run_get_error_message (preview));
      set_summary (self, text);
      clear_histogram (self);
      self->n_measurements = -1;
      return;
    }

  n = tw_measurement_table_get_n_rows (table);
  self->n_measurements = n;
  tw_histogram_view_set_histogram (self->histogram_view, tw_evaluator_run_get_histogram (preview),
                                   table, tw_view_state_get_trace (self->state));
  if (n == 0)
    text = g_strdup (_("No measurement: no task's events take the automaton from its begin "
                       "state to an end state in this trace."));
  else
    {
      lengths = tw_designer_compare_dup_lengths_text (table);
      text = g_strconcat (lengths, n > MAX_LISTED ? _(" · the first 10 000 are listed") : "", NULL);
    }
  set_summary (self, text);
  show_rows (self, table);
}

/**
 * tw_designer_window_update_preview:
 *
 * Runs the automaton over the trace now (edits schedule this after a short pause).
 */
void
tw_designer_window_update_preview (TwDesignerWindow *self)
{
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (self->canvas);
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(TwAutomatonEvaluator) evaluator = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_DESIGNER_WINDOW (self));

  g_clear_handle_id (&self->delay_id, g_source_remove);
  stop_preview (self);
  self->n_measurements = -1;

  if (self->state == NULL)
    {
      set_summary (self, _("Open a trace in the main window to see this automaton measure it."));
      return;
    }

  problems = tw_automaton_validate (automaton);
  if (problems->len > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u design error, marked on the canvas: %s",
                                                            "%u design errors, marked on the canvas: %s",
                                                            problems->len),
                                               problems->len,
                                               ((TwAutomatonProblem *) problems->pdata[0])->message);
      set_summary (self, text);
      clear_histogram (self);
      return;
    }

  /* the evaluator keeps a copy: the canvas edits on while the preview runs */
  evaluator = tw_automaton_evaluator_new (automaton, &error);
  g_assert_no_error (error);
  self->preview = tw_evaluator_run_new (TW_EVALUATOR (evaluator), tw_view_state_get_trace (self->state),
                                        50, TW_HISTOGRAM_SCALE_LINEAR);
  g_signal_connect_swapped (self->preview, "notify::running", G_CALLBACK (preview_done_cb), self);
  set_summary (self, _("Measuring…"));
  tw_evaluator_run_start (self->preview);
}

static gboolean
preview_delay_cb (gpointer user_data)
{
  TwDesignerWindow *self = user_data;

  self->delay_id = 0;
  tw_designer_window_update_preview (self);
  return G_SOURCE_REMOVE;
}

static gboolean step_reset (TwDesignerWindow *self);

/* The entry shows the automaton's name; an edit, an undo or a loaded file changes it. */
static void
show_name (TwDesignerWindow *self)
{
  const char *name = tw_automaton_get_name (tw_automaton_canvas_get_automaton (self->canvas));

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->name_entry)), name) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->name_entry), name);
}

static void
name_apply_cb (TwDesignerWindow *self)
{
  g_autofree char *name = NULL;

  /* the entry loses focus when the window is torn down, the canvas with it */
  if (gtk_widget_in_destruction (GTK_WIDGET (self)))
    return;
  name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->name_entry))));
  tw_automaton_document_set_name (tw_automaton_canvas_get_document (self->canvas), name);
  show_name (self);
}

static void
canvas_changed_cb (TwDesignerWindow *self)
{
  show_name (self);
  if (self->step_interp)
    {
      step_reset (self);
      tw_automaton_canvas_set_step_view (self->canvas, -1, NULL, 0);
      gtk_label_set_text (GTK_LABEL (self->step_label), _("The automaton changed: stepping starts over."));
    }
  g_clear_handle_id (&self->delay_id, g_source_remove);
  self->delay_id = g_timeout_add (PREVIEW_DELAY_MS, preview_delay_cb, self);
}

/**
 * tw_designer_window_select_measurement:
 *
 * Selects the listed measurement's time range in the main window's timeline and shows it.
 */
void
tw_designer_window_select_measurement (TwDesignerWindow *self,
                                       guint             index)
{
  const TwMeasurementRow *row;
  guint64 span, margin;

  g_return_if_fail (TW_IS_DESIGNER_WINDOW (self));

  if (self->state == NULL || self->table == NULL ||
      index >= MIN (tw_measurement_table_get_n_rows (self->table), MAX_LISTED))
    return;

  row = tw_measurement_table_get_row (self->table, index);
  span = MAX (row->end - row->begin, 1);
  margin = span / 4 + 1;
  tw_view_state_set_selection (self->state, row->begin, row->end);
  tw_view_state_set_visible_range (self->state, row->begin > margin ? row->begin - margin : 0,
                                   row->end + margin);
  tw_view_state_set_cursor (self->state, row->begin);
}

static void
selection_changed_cb (TwDesignerWindow *self)
{
  guint index = gtk_single_selection_get_selected (self->selection);

  if (index != GTK_INVALID_LIST_POSITION)
    tw_designer_window_select_measurement (self, index);
}

static void
setup_row_cb (GtkSignalListItemFactory *factory,
              GtkListItem              *item)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  gtk_list_item_set_child (item, label);
}

static void
bind_row_cb (GtkSignalListItemFactory *factory,
             GtkListItem              *item)
{
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)),
                      gtk_string_object_get_string (gtk_list_item_get_item (item)));
}

/* ---------------------------------------------------------------- step mode */

static guint32
step_selected_task (TwDesignerWindow *self)
{
  return tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (self->step_task));
}

static void
step_show (TwDesignerWindow *self,
           const char       *what)
{
  guint32 task = step_selected_task (self);
  TwInstanceInfo info;
  g_autofree char *text = NULL;
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (self->canvas);

  if (self->step_interp == NULL || task == TW_TASK_NONE
      || !tw_automaton_interp_get_instance (self->step_interp, task, &info))
    {
      tw_automaton_canvas_set_step_view (self->canvas, -1, NULL, 0);
      gtk_label_set_text (GTK_LABEL (self->step_label), what ? what : "");
      return;
    }

  if (info.state < self->step_counts->len)
    g_array_index (self->step_counts, guint, info.state)++;
  tw_automaton_canvas_set_step_view (self->canvas, info.state, (const guint *) self->step_counts->data,
                                     self->step_counts->len);
  /* TRANSLATORS: the step bar: "<event> · in <state>[ · measuring][ · segment open] ·
   * segment visits <n>[ · cond run pending] · <n> measurements so far". The numbers are
   * cast for %llu: xgettext cannot read G_GUINT64_FORMAT inside a message. */
  text = g_strdup_printf (_("%s · in %s%s%s · segment visits %llu%s · %llu measurements so far"),
                          what ? what : "", tw_automaton_get_state (automaton, info.state)->id,
                          info.has_measurement ? _(" · measuring") : "",
                          info.has_segment ? _(" · segment open") : "",
                          (unsigned long long) (info.has_segment ? info.segment_visits : 0),
                          info.has_run ? _(" · cond run pending") : "",
                          (unsigned long long) tw_automaton_interp_get_n_measurements (self->step_interp));
  gtk_label_set_text (GTK_LABEL (self->step_label), text);
}

/* Steps run over the automaton as drawn now; an edit starts them over. */
static gboolean
step_reset (TwDesignerWindow *self)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (self->canvas);

  g_clear_object (&self->step_interp);
  self->step_position = 0;
  g_array_set_size (self->step_counts, 0);

  if (self->state == NULL)
    return FALSE;
  problems = tw_automaton_validate (automaton);
  if (problems->len > 0)
    {
      step_show (self, _("Fix the design errors to step."));
      return FALSE;
    }
  if (!(self->step_interp = tw_automaton_interp_new (automaton, tw_view_state_get_trace (self->state), &error)))
    {
      step_show (self, error->message);
      return FALSE;
    }
  g_array_set_size (self->step_counts, tw_automaton_get_n_states (automaton));
  return TRUE;
}

/**
 * tw_designer_window_step:
 * @n: how many of the task's events to step over
 *
 * Feeds events, in trace order to every instance, up to and including the selected
 * task's next @n events, then shows where the task's instance is.
 *
 * Returns: %FALSE when the trace has no further event of the task
 */
gboolean
tw_designer_window_step (TwDesignerWindow *self,
                         guint             n)
{
  TwTrace *trace;
  guint32 task = step_selected_task (self);
  guint64 n_events;
  TwEvent ev;
  g_autofree char *what = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), FALSE);

  if (n == 0 || task == TW_TASK_NONE || (self->step_interp == NULL && !step_reset (self)))
    return FALSE;

  trace = tw_view_state_get_trace (self->state);
  n_events = tw_trace_get_n_events (trace);
  for (guint i = 0; i < n; i++)
    {
      guint64 next = self->step_position;

      while (next < n_events && tw_trace_get_event (trace, next, &ev) && ev.task != task)
        next++;
      if (next >= n_events)
        {
          step_show (self, _("End of the trace."));
          return FALSE;
        }
      if (!tw_automaton_interp_feed (self->step_interp, self->step_position, next + 1, &error))
        {
          step_show (self, error->message);
          return FALSE;
        }
      self->step_position = next + 1;
    }

  {
    g_autofree char *time = tw_timeline_format_time (ev.time, 1);
    what = g_strdup_printf (_("#%llu %s at %s"), (unsigned long long) ev.index,
                            tw_trace_get_event_type (trace, ev.type)->name, time);
  }
  tw_view_state_set_selected_event (self->state, ev.index);
  step_show (self, what);
  return TRUE;
}

/**
 * tw_designer_window_get_step_state:
 *
 * Returns: the index of the state the selected task's instance is in after the last
 *   step, or -1
 */
int
tw_designer_window_get_step_state (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), -1);

  if (self->step_interp == NULL)
    return -1;
  return tw_automaton_interp_get_instance_state (self->step_interp, step_selected_task (self));
}

/**
 * tw_designer_window_set_step_task:
 *
 * Follows @task's instance from the start of the trace.
 */
void
tw_designer_window_set_step_task (TwDesignerWindow *self,
                                  guint32           task)
{
  g_return_if_fail (TW_IS_DESIGNER_WINDOW (self));

  tw_task_chooser_set_selected_task (TW_TASK_CHOOSER (self->step_task), task);
}

static void
step_task_changed_cb (TwDesignerWindow *self)
{
  step_reset (self);
  step_show (self, NULL);
}

/* The chooser searches the tasks by name and pid (thousands in a kernel trace). */
static void
fill_step_tasks (TwDesignerWindow *self)
{
  if (self->state == NULL)
    {
      gtk_widget_set_sensitive (self->step_task, FALSE);
      return;
    }
  tw_task_chooser_set_trace (TW_TASK_CHOOSER (self->step_task), tw_view_state_get_trace (self->state));
  g_signal_connect_swapped (self->step_task, "notify::selected-task", G_CALLBACK (step_task_changed_cb), self);
}

/* ---------------------------------------------------------------- files */

static void
set_event_names (TwDesignerWindow *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;
  TwTrace *trace;

  if (self->state == NULL)
    return;

  trace = tw_view_state_get_trace (self->state);
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    g_strv_builder_add (builder, tw_trace_get_event_type (trace, t)->name);
  for (guint k = TW_EVENT_KIND_OTHER + 1; k < TW_N_EVENT_KINDS; k++)
    g_strv_builder_add (builder, tw_event_kind_to_string (k));
  names = g_strv_builder_end (builder);
  tw_automaton_canvas_set_event_names (self->canvas, (const char * const *) names);
}

/**
 * tw_designer_window_open:
 *
 * Returns: %FALSE with @error set when the file cannot be read as an automaton
 */
gboolean
tw_designer_window_open (TwDesignerWindow  *self,
                         const char        *path,
                         GError           **error)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), FALSE);

  if (!tw_automaton_canvas_load (self->canvas, path, error))
    return FALSE;
  g_free (self->path);
  self->path = g_strdup (path);
  return TRUE;
}

/**
 * tw_designer_window_open_template:
 * @name: one of the ready-made automata shipped with the app ("fig2-user-metric", ...)
 *
 * Returns: %FALSE with @error set when there is no such automaton
 */
gboolean
tw_designer_window_open_template (TwDesignerWindow  *self,
                                  const char        *name,
                                  GError           **error)
{
  g_autofree char *resource = g_strdup_printf ("/org/tracewb/Workbench/automata/%s.json", name);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TwAutomaton) automaton = NULL;

  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), FALSE);

  if (!(bytes = g_resources_lookup_data (resource, G_RESOURCE_LOOKUP_FLAGS_NONE, error)))
    return FALSE;
  automaton = tw_automaton_load_from_data (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                           name, error);
  if (automaton == NULL)
    return FALSE;
  if (tw_automaton_layout_needed (automaton))
    tw_automaton_layout (automaton);
  tw_automaton_canvas_set_automaton (self->canvas, automaton);
  g_clear_pointer (&self->path, g_free);
  return TRUE;
}

static void
report_error (TwDesignerWindow *self,
              GError           *error)
{
  set_summary (self, error->message);
}

static void
open_chosen_cb (GtkWidget  *owner,
                const char *path,
                gpointer    user_data)
{
  TwDesignerWindow *self = TW_DESIGNER_WINDOW (owner);
  g_autoptr(GError) error = NULL;

  if (!tw_designer_window_open (self, path, &error))
    report_error (self, error);
}

static void
save_chosen_cb (GtkWidget  *owner,
                const char *path,
                gpointer    user_data)
{
  TwDesignerWindow *self = TW_DESIGNER_WINDOW (owner);
  g_autoptr(GError) error = NULL;

  if (!tw_automaton_document_save (tw_automaton_canvas_get_document (self->canvas), path, &error))
    {
      report_error (self, error);
      return;
    }
  g_free (self->path);
  self->path = g_strdup (path);
}

/**
 * tw_designer_window_export_c:
 * @path: where to write the module's C source (its .so goes beside it)
 *
 * Writes the automaton as a C evaluation module, then, where a C compiler exists,
 * builds it and, when a trace is open, offers it through ::module-built (the main window
 * runs it in its Evaluations tab; its results equal the preview's).
 *
 * Returns: %FALSE with @error set; a missing compiler is not an error (the C file stays)
 */
gboolean
tw_designer_window_export_c (TwDesignerWindow  *self,
                             const char        *path,
                             GError           **error)
{
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (self->canvas);
  g_autofree char *source = NULL;
  g_autofree char *module = NULL;
  g_autofree char *messages = NULL;
  g_autofree char *stem = NULL;
  g_autofree char *compiler = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) local_error = NULL;
  gboolean running = FALSE;

  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), FALSE);

  if (!(source = tw_automaton_codegen_generate (automaton, NULL, NULL, error)))
    return FALSE;
  if (!g_file_set_contents (path, source, -1, error))
    return FALSE;

  compiler = g_find_program_in_path (g_getenv ("CC") && *g_getenv ("CC") ? g_getenv ("CC") : "cc");
  if (compiler == NULL)
    {
      text = g_strdup_printf (_("Wrote %s; no C compiler here to build it."), path);
      set_summary (self, text);
      return TRUE;
    }

  stem = g_str_has_suffix (path, ".c") ? g_strndup (path, strlen (path) - 2) : g_strdup (path);
  module = g_strconcat (stem, ".so", NULL);
  if (!tw_automaton_codegen_build (path, module, &messages, error))
    {
      if (messages && *messages)
        g_prefix_error (error, "%s\n", messages);
      return FALSE;
    }

  if (self->state != NULL)
    g_signal_emit (self, signals[MODULE_BUILT], 0, module, &local_error, &running);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  text = g_strdup_printf (running ? _("Wrote %s and built %s; it runs in the Evaluations tab.")
                                  : _("Wrote %s and built %s."), path, module);
  set_summary (self, text);
  return TRUE;
}

static void
export_chosen_cb (GtkWidget  *owner,
                  const char *path,
                  gpointer    user_data)
{
  TwDesignerWindow *self = TW_DESIGNER_WINDOW (owner);
  g_autoptr(GError) error = NULL;

  if (!tw_designer_window_export_c (self, path, &error))
    report_error (self, error);
}

static void
ask_for_file (TwDesignerWindow     *self,
              GtkFileChooserAction  action,
              TwFileChosenFunc      chosen)
{
  gboolean save = action == GTK_FILE_CHOOSER_ACTION_SAVE;
  gboolean export = chosen == export_chosen_cb;
  GtkFileChooserNative *dialog;

  dialog = tw_file_chooser_new (GTK_WIDGET (self), action,
                                export ? _("Export as C") : save ? _("Save Automaton") : _("Open Automaton"),
                                export ? _("_Export") : save ? _("_Save") : _("_Open"),
                                chosen, NULL, NULL);
  tw_file_chooser_add_filter (dialog, export ? _("C source") : _("Metric automata (JSON)"),
                              export ? "c" : "json");
  if (save)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), export ? "metric.c" : "metric.json");
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
designer_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  TwDesignerWindow *self = TW_DESIGNER_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (g_str_equal (action_name, "designer.open"))
    ask_for_file (self, GTK_FILE_CHOOSER_ACTION_OPEN, open_chosen_cb);
  else if (g_str_equal (action_name, "designer.save"))
    {
      if (self->path == NULL)
        ask_for_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, save_chosen_cb);
      else if (!tw_automaton_document_save (tw_automaton_canvas_get_document (self->canvas),
                                            self->path, &error))
        report_error (self, error);
    }
  else if (g_str_equal (action_name, "designer.new"))
    {
      g_autoptr(TwAutomaton) automaton = tw_automaton_new ("metric");

      tw_automaton_canvas_set_automaton (self->canvas, automaton);
      g_clear_pointer (&self->path, g_free);
    }
  else if (g_str_equal (action_name, "designer.export-c"))
    ask_for_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, export_chosen_cb);
  else if (g_str_equal (action_name, "designer.step"))
    tw_designer_window_step (self, g_variant_get_int32 (parameter));
  else if (g_str_equal (action_name, "designer.step-reset"))
    {
      step_reset (self);
      step_show (self, _("At the start of the trace."));
    }
  else if (g_str_equal (action_name, "designer.template")
           && !tw_designer_window_open_template (self, g_variant_get_string (parameter, NULL), &error))
    report_error (self, error);
}

/* ---------------------------------------------------------------- GObject */

static void
tw_designer_window_dispose (GObject *object)
{
  TwDesignerWindow *self = (TwDesignerWindow *)object;

  g_clear_handle_id (&self->delay_id, g_source_remove);
  stop_preview (self);
  g_clear_object (&self->state);
  g_clear_object (&self->table);
  g_clear_pointer (&self->path, g_free);
  g_clear_object (&self->step_interp);
  g_clear_pointer (&self->step_counts, g_array_unref);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_DESIGNER_WINDOW);

  G_OBJECT_CLASS (tw_designer_window_parent_class)->dispose (object);
}

static void
tw_designer_window_class_init (TwDesignerWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_designer_window_dispose;

  g_type_ensure (TW_TYPE_TASK_CHOOSER);
  g_type_ensure (TW_TYPE_HISTOGRAM_VIEW);
  g_type_ensure (TW_TYPE_DESIGNER_COMPARE);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-designer-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, canvas_slot);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, name_entry);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, summary);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, compare);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, histogram_view);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, list);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, step_task);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerWindow, step_label);

  gtk_widget_class_install_action (widget_class, "designer.open", NULL, designer_action);
  gtk_widget_class_install_action (widget_class, "designer.save", NULL, designer_action);
  gtk_widget_class_install_action (widget_class, "designer.new", NULL, designer_action);
  gtk_widget_class_install_action (widget_class, "designer.template", "s", designer_action);
  gtk_widget_class_install_action (widget_class, "designer.step", "i", designer_action);
  gtk_widget_class_install_action (widget_class, "designer.export-c", NULL, designer_action);
  gtk_widget_class_install_action (widget_class, "designer.step-reset", NULL, designer_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F10, 0, "designer.step", "i", 1);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "designer.save", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "designer.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);

  /**
   * TwDesignerWindow::module-built:
   * @path: the evaluation module (.so) tw_designer_window_export_c() built
   * @error: (type gpointer): a `GError **` to set when running it failed
   *
   * Offers the module to whoever runs evaluations over the open trace; the first
   * handler answers.
   *
   * Returns: %TRUE when the module runs now; %FALSE with @error set when it could not
   *   be run, %FALSE alone when nobody took it
   */
  signals[MODULE_BUILT] = g_signal_new ("module-built", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, g_signal_accumulator_first_wins, NULL, NULL,
                                        G_TYPE_BOOLEAN, 2, G_TYPE_STRING, G_TYPE_POINTER);
}

static void
tw_designer_window_init (TwDesignerWindow *self)
{
  GtkListItemFactory *factory;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->n_measurements = -1;
  self->step_counts = g_array_new (FALSE, TRUE, sizeof (guint));

  self->canvas = TW_AUTOMATON_CANVAS (tw_automaton_canvas_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->canvas), TRUE);
  gtk_box_append (GTK_BOX (self->canvas_slot), GTK_WIDGET (self->canvas));
  g_signal_connect_swapped (self->canvas, "changed", G_CALLBACK (canvas_changed_cb), self);
  g_signal_connect_swapped (self->name_entry, "activate", G_CALLBACK (name_apply_cb), self);
  {
    /* leaving the entry applies too, as clicking elsewhere in a form would */
    GtkEventController *focus = gtk_event_controller_focus_new ();

    g_signal_connect_swapped (focus, "leave", G_CALLBACK (name_apply_cb), self);
    gtk_widget_add_controller (self->name_entry, focus);
  }

  clear_histogram (self);

  self->strings = gtk_string_list_new (NULL);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (self->strings));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (selection_changed_cb), self);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row_cb), NULL);
  gtk_list_view_set_model (GTK_LIST_VIEW (self->list), GTK_SELECTION_MODEL (self->selection));
  g_object_unref (self->selection);
  gtk_list_view_set_factory (GTK_LIST_VIEW (self->list), factory);
  g_object_unref (factory);
}

/* The .ui's default size (1200 × 720) shrunk to the screen the main window is on: on a
 * 1024 × 768 screen the designer would otherwise open partly off it. */
static void
fit_default_size_to_monitor (TwDesignerWindow *self,
                             GtkWindow        *parent)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));
  g_autoptr(GdkMonitor) monitor = NULL;
  GdkRectangle geometry;
  int width, height;

  if (parent && gtk_widget_get_realized (GTK_WIDGET (parent)))
    monitor = g_object_ref (gdk_display_get_monitor_at_surface (display,
                                                                gtk_native_get_surface (GTK_NATIVE (parent))));
  else if (g_list_model_get_n_items (gdk_display_get_monitors (display)) > 0)
    monitor = g_list_model_get_item (gdk_display_get_monitors (display), 0);
  if (monitor == NULL)
    return;
  gdk_monitor_get_geometry (monitor, &geometry);
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (self), MIN (width, geometry.width), MIN (height, geometry.height));
}

/**
 * tw_designer_window_new:
 * @parent: (nullable): the main window
 * @state: (nullable): the open trace's view state; %NULL when no trace is open
 *
 * Returns: (transfer full): a designer with the user metric automaton loaded
 */
TwDesignerWindow *
tw_designer_window_new (GtkWindow   *parent,
                        TwViewState *state)
{
  TwDesignerWindow *self = g_object_new (TW_TYPE_DESIGNER_WINDOW, NULL);

  if (parent)
    gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  fit_default_size_to_monitor (self, parent);
  g_set_object (&self->state, state);
  /* picking a measurement of a bin selects it in the timeline, as the list below does */
  tw_histogram_view_set_view_state (self->histogram_view, state);
  tw_designer_compare_set_trace (self->compare, state ? tw_view_state_get_trace (state) : NULL);
  set_event_names (self);
  fill_step_tasks (self);
  tw_designer_window_open_template (self, "user-metric", NULL);
  return self;
}

/**
 * tw_designer_window_get_canvas:
 *
 * Returns: (transfer none): the canvas
 */
TwAutomatonCanvas *
tw_designer_window_get_canvas (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), NULL);

  return self->canvas;
}

gboolean
tw_designer_window_get_preview_running (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), FALSE);

  return self->preview != NULL || self->delay_id != 0;
}

/**
 * tw_designer_window_get_histogram_view:
 *
 * Returns: (transfer none): the live preview's histogram of measurement lengths
 */
TwHistogramView *
tw_designer_window_get_histogram_view (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), NULL);

  return self->histogram_view;
}

/**
 * tw_designer_window_get_n_measurements:
 *
 * Returns: what the last finished preview measured, or -1 when none finished
 */
gint64
tw_designer_window_get_n_measurements (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), -1);

  return self->n_measurements;
}

const char *
tw_designer_window_get_summary (TwDesignerWindow *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_WINDOW (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->summary));
}
