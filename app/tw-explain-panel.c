/* tw-explain-panel.c: why one measurement took as long as it did
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Beside a measurement list: the selected measurement's time by cause (running, each
 * handler, each task that preempted it or ran while it waited, blocking and priority
 * inversion, trace loss; docs/explain.md) and its critical path. The explanation is
 * computed in a thread from a state model of the events around the measurement, so a
 * selection in a long trace never waits for the whole trace. Selecting a measurement
 * selects its interval on the timeline and shows it there; the explanation is drawn on
 * the timeline's rows as a highlighted path (tw-explain-path.c), which Show on Timeline
 * brings into view; activating a step of the path puts the cursor on it and selects its
 * event.
 */
#include "config.h"

#include "tw-explain-panel.h"
#include "tw-explain-path.h"

#include <glib/gi18n-lib.h>

struct _TwExplainPanel
{
  GtkWidget      parent_instance;

  /* template widgets */
  GtkWidget     *title;
  GtkWidget     *components;
  GtkWidget     *path_title;
  GtkWidget     *path;
  GtkWidget     *timeline_buttons;

  /* owned */
  TwViewState   *view_state;
  TwTrace       *trace;         /* of the explanation shown or being computed */
  TwExplanation *explanation;
  TwTimelineHighlight *highlight; /* the explanation's path, drawn on the timeline */
  GCancellable  *cancellable;   /* of the computation going on, NULL when none */
};

G_DEFINE_FINAL_TYPE (TwExplainPanel, tw_explain_panel, GTK_TYPE_WIDGET)

static const char *
kind_title (TwExplainKind kind)
{
  switch (kind)
    {
    case TW_EXPLAIN_RUNNING:            return _("Running");
    case TW_EXPLAIN_INTERRUPTED:        return _("Interrupted by");
    case TW_EXPLAIN_PREEMPTED:          return _("Preempted by");
    case TW_EXPLAIN_WAITING:            return _("Waiting to run after wakeup");
    case TW_EXPLAIN_BLOCKED:            return _("Blocked");
    case TW_EXPLAIN_PRIORITY_INVERSION: return _("Priority inversion");
    case TW_EXPLAIN_LOST:               return _("Trace lost events");
    case TW_EXPLAIN_UNACCOUNTED:        return _("Not known");
    case TW_N_EXPLAIN_KINDS:
    default:                            return "";
    }
}

static void
clear_components (TwExplainPanel *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->components)))
    gtk_grid_remove (GTK_GRID (self->components), child);
  while ((child = gtk_widget_get_first_child (self->path)))
    gtk_list_box_remove (GTK_LIST_BOX (self->path), child);
  gtk_widget_set_visible (self->path_title, FALSE);
  gtk_widget_set_visible (self->path, FALSE);
  gtk_widget_set_visible (self->timeline_buttons, FALSE);
}

static GtkWidget *
cell (const char *text,
      float       xalign,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_wrap (GTK_LABEL (label), !numeric);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static void
add_component_row (TwExplainPanel           *self,
                   int                       y,
                   const TwExplainComponent *c,
                   guint64                   length)
{
  g_autofree char *who = tw_explain_dup_who (self->trace, c);
  g_autofree char *time = tw_timeline_format_duration (c->time_ns);
  g_autofree char *share = g_strdup_printf ("%.1f %%", length ? 100.0 * c->time_ns / length : 0.0);
  GtkWidget *bar = gtk_level_bar_new_for_interval (0, 1);

  gtk_level_bar_set_value (GTK_LEVEL_BAR (bar), length ? (double) c->time_ns / length : 0.0);
  gtk_widget_set_size_request (bar, 60, -1);
  gtk_widget_set_valign (bar, GTK_ALIGN_CENTER);
  gtk_grid_attach (GTK_GRID (self->components), cell (kind_title (c->kind), 0, FALSE), 0, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->components), cell (who, 0, FALSE), 1, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->components), cell (time, 1, TRUE), 2, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->components), cell (share, 1, TRUE), 3, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->components), bar, 4, y, 1, 1);
}

static void
add_path_row (TwExplainPanel      *self,
              const TwExplainStep *step,
              guint                index)
{
  g_autofree char *text = tw_explain_dup_step (self->trace, step);
  g_autofree char *when = tw_timeline_format_time (step->time, 1);
  g_autofree char *line = g_strdup_printf ("%s  %s", when, text);
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *label = cell (line, 0, FALSE);

  gtk_widget_set_margin_start (label, 6);
  gtk_widget_set_margin_end (label, 6);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
  g_object_set_data (G_OBJECT (row), "step", GUINT_TO_POINTER (index));
  gtk_list_box_append (GTK_LIST_BOX (self->path), row);
}

static void
show_explanation (TwExplainPanel *self)
{
  const TwExplanation *e = self->explanation;
  guint64 length = e->row.end - e->row.begin;
  g_autofree char *task = tw_trace_dup_task_label (self->trace, e->row.task);
  g_autofree char *total = tw_timeline_format_duration (length);
  g_autofree char *title = g_strdup_printf (_("Where the %s of %s went"), total, task);

  clear_components (self);
  gtk_label_set_text (GTK_LABEL (self->title), title);
  for (guint i = 0; i < e->components->len; i++)
    add_component_row (self, i, &g_array_index (e->components, TwExplainComponent, i), length);
  for (guint i = 0; i < e->path->len; i++)
    add_path_row (self, &g_array_index (e->path, TwExplainStep, i), i);
  gtk_widget_set_visible (self->path_title, e->path->len > 0);
  gtk_widget_set_visible (self->path, e->path->len > 0);
  gtk_widget_set_visible (self->timeline_buttons, TRUE);
}

/* The timeline's path goes when it is this panel's: other panels share the view state. */
static void
clear_highlight (TwExplainPanel *self)
{
  if (self->view_state && self->highlight
      && tw_view_state_get_highlight (self->view_state) == self->highlight)
    tw_view_state_set_highlight (self->view_state, NULL);
  g_clear_pointer (&self->highlight, tw_timeline_highlight_unref);
}

static void
show_highlight (TwExplainPanel *self)
{
  g_clear_pointer (&self->highlight, tw_timeline_highlight_unref);
  self->highlight = tw_explain_path_new_highlight (self->explanation, self->trace);
  if (self->view_state)
    tw_view_state_set_highlight (self->view_state, self->highlight);
}

static void
show_on_timeline_cb (TwExplainPanel *self)
{
  if (self->explanation == NULL || self->view_state == NULL)
    return;
  /* Escape or Clear may have taken it off */
  if (self->highlight == NULL || tw_view_state_get_highlight (self->view_state) != self->highlight)
    show_highlight (self);
  tw_view_state_reveal_highlight (self->view_state);
}

static void
clear_timeline_cb (TwExplainPanel *self)
{
  clear_highlight (self);
}

static void
path_row_activated_cb (TwExplainPanel *self,
                       GtkListBoxRow  *row)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "step"));
  const TwExplainStep *step;

  if (self->explanation == NULL || self->view_state == NULL || index >= self->explanation->path->len)
    return;
  step = &g_array_index (self->explanation->path, TwExplainStep, index);
  tw_view_state_set_cursor (self->view_state, step->time);
  tw_view_state_reveal_time (self->view_state, step->time);
  if (step->event != TW_EVENT_NONE)
    tw_view_state_set_selected_event (self->view_state, step->event);
}

/* ------------------------------------------------------------------ the thread */

/* What to explain: @row, or (with @initial_event) the longest job of @task from
 * @initial_event to @final_event, which the thread measures first. */
typedef struct {
  TwTrace          *trace;
  TwMeasurementRow  row;
  guint32           task;
  char             *initial_event;
  char             *final_event;
} Request;

static void
request_free (Request *request)
{
  g_object_unref (request->trace);
  g_free (request->initial_event);
  g_free (request->final_event);
  g_free (request);
}

/* The longest job of the request's task, into its row. */
static gboolean
find_worst_job (Request       *request,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(TwMetric) metric = tw_metric_new_user ("job", request->initial_event,
                                                   request->final_event, TRUE);
  g_autoptr(TwMeasurementTable) table = NULL;
  gboolean found = FALSE;

  if (!(table = tw_evaluator_evaluate (TW_EVALUATOR (metric), request->trace, NULL, NULL, NULL,
                                       cancellable, error)))
    return FALSE;
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);

      if (m->task == request->task && (!found || m->length > request->row.length))
        {
          request->row = *m;
          found = TRUE;
        }
    }
  if (!found)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No job of this task from %s to %s"),
                 request->initial_event, request->final_event);
  return found;
}

static void
explain_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Request *request = task_data;
  GError *error = NULL;

  if (request->initial_event && !find_worst_job (request, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, tw_explain_measurement_in_window (request->trace, &request->row, NULL),
                         (GDestroyNotify) tw_explanation_free);
}

static void
explain_done_cb (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  TwExplainPanel *self = TW_EXPLAIN_PANEL (source);
  g_autoptr(GError) error = NULL;
  TwExplanation *explanation = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer selection, or the panel went away: this one is not wanted */
  if (g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))))
    {
      g_clear_pointer (&explanation, tw_explanation_free);
      return;
    }
  g_clear_object (&self->cancellable);
  if (explanation == NULL)
    {
      gtk_label_set_text (GTK_LABEL (self->title), error->message);
      return;
    }
  g_clear_pointer (&self->explanation, tw_explanation_free);
  self->explanation = explanation;
  show_explanation (self);
  show_highlight (self);
}

/* ------------------------------------------------------------------ GObject */

static void
tw_explain_panel_dispose (GObject *object)
{
  TwExplainPanel *self = TW_EXPLAIN_PANEL (object);
  GtkWidget *child;

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  clear_highlight (self);
  g_clear_object (&self->view_state);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->explanation, tw_explanation_free);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_EXPLAIN_PANEL);
  /* the template's scrolled window has no name to be unparented by */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (tw_explain_panel_parent_class)->dispose (object);
}

static void
tw_explain_panel_class_init (TwExplainPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_explain_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-explain-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, TwExplainPanel, title);
  gtk_widget_class_bind_template_child (widget_class, TwExplainPanel, components);
  gtk_widget_class_bind_template_child (widget_class, TwExplainPanel, path_title);
  gtk_widget_class_bind_template_child (widget_class, TwExplainPanel, path);
  gtk_widget_class_bind_template_child (widget_class, TwExplainPanel, timeline_buttons);
  gtk_widget_class_bind_template_callback (widget_class, path_row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, show_on_timeline_cb);
  gtk_widget_class_bind_template_callback (widget_class, clear_timeline_cb);
}

static void
tw_explain_panel_init (TwExplainPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
tw_explain_panel_new (void)
{
  return g_object_new (TW_TYPE_EXPLAIN_PANEL, NULL);
}

/**
 * tw_explain_panel_set_view_state:
 * @view_state: (nullable): where the measurement and the path's steps are shown
 */
void
tw_explain_panel_set_view_state (TwExplainPanel *self,
                                 TwViewState    *view_state)
{
  g_return_if_fail (TW_IS_EXPLAIN_PANEL (self));

  clear_highlight (self);
  g_set_object (&self->view_state, view_state);
}

/* Forgets what was shown or asked for, and explains @request (owned) in a thread. */
static void
start (TwExplainPanel *self,
       Request        *request)
{
  g_autoptr(GTask) task = NULL;

  tw_explain_panel_clear (self);
  g_set_object (&self->trace, request->trace);
  gtk_label_set_text (GTK_LABEL (self->title), _("Explaining…"));
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, explain_done_cb, NULL);
  g_task_set_source_tag (task, start);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, explain_thread);
}

/**
 * tw_explain_panel_explain:
 * @trace: the trace @row was measured on
 * @row: the measurement
 *
 * Selects the measurement's interval in the view state and explains it in a thread;
 * the panel shows the result when it comes, unless another measurement was asked for
 * meanwhile.
 */
void
tw_explain_panel_explain (TwExplainPanel         *self,
                          TwTrace                *trace,
                          const TwMeasurementRow *row)
{
  Request *request;

  g_return_if_fail (TW_IS_EXPLAIN_PANEL (self));
  g_return_if_fail (TW_IS_TRACE (trace));
  g_return_if_fail (row != NULL);

  request = g_new0 (Request, 1);
  request->trace = g_object_ref (trace);
  request->row = *row;
  start (self, request);
  if (self->view_state)
    {
      /* the measurement, with its own length of context on each side */
      guint64 margin = MAX (row->end - row->begin, 1000);

      tw_view_state_set_selection (self->view_state, row->begin, row->end);
      tw_view_state_set_visible_range (self->view_state,
                                       row->begin > margin ? row->begin - margin : 0,
                                       row->end + margin);
    }
}

/**
 * tw_explain_panel_explain_worst_job:
 * @trace: the trace
 * @task: a task of it
 * @initial_event: the event that starts a job (as the worst-case analysis takes it)
 * @final_event: the event that ends it
 *
 * Measures in a thread the jobs of @task from @initial_event to @final_event (wall
 * time) and explains the longest; it does not select it in the view state, whose
 * selection the user may be using.
 */
void
tw_explain_panel_explain_worst_job (TwExplainPanel *self,
                                    TwTrace        *trace,
                                    guint32         task,
                                    const char     *initial_event,
                                    const char     *final_event)
{
  Request *request;

  g_return_if_fail (TW_IS_EXPLAIN_PANEL (self));
  g_return_if_fail (TW_IS_TRACE (trace));
  g_return_if_fail (initial_event != NULL && final_event != NULL);

  request = g_new0 (Request, 1);
  request->trace = g_object_ref (trace);
  request->task = task;
  request->initial_event = g_strdup (initial_event);
  request->final_event = g_strdup (final_event);
  start (self, request);
}

/**
 * tw_explain_panel_clear:
 *
 * Forgets the explanation shown and any being computed.
 */
void
tw_explain_panel_clear (TwExplainPanel *self)
{
  g_return_if_fail (TW_IS_EXPLAIN_PANEL (self));

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->explanation, tw_explanation_free);
  clear_highlight (self);
  clear_components (self);
  gtk_label_set_text (GTK_LABEL (self->title),
                      _("Select a measurement to see where its time went."));
}

gboolean
tw_explain_panel_is_running (TwExplainPanel *self)
{
  g_return_val_if_fail (TW_IS_EXPLAIN_PANEL (self), FALSE);
  return self->cancellable != NULL;
}

/**
 * tw_explain_panel_get_explanation:
 *
 * Returns: (transfer none) (nullable): the explanation shown
 */
const TwExplanation *
tw_explain_panel_get_explanation (TwExplainPanel *self)
{
  g_return_val_if_fail (TW_IS_EXPLAIN_PANEL (self), NULL);
  return self->explanation;
}

/**
 * tw_explain_panel_get_path_list:
 *
 * Returns: (transfer none): the list box of the critical path's steps
 */
GtkWidget *
tw_explain_panel_get_path_list (TwExplainPanel *self)
{
  g_return_val_if_fail (TW_IS_EXPLAIN_PANEL (self), NULL);
  return self->path;
}

/**
 * tw_explain_panel_get_highlight:
 *
 * Returns: (transfer none) (nullable): the explanation's path as drawn on the timeline,
 *   while the timeline shows it
 */
TwTimelineHighlight *
tw_explain_panel_get_highlight (TwExplainPanel *self)
{
  g_return_val_if_fail (TW_IS_EXPLAIN_PANEL (self), NULL);

  if (self->view_state == NULL || tw_view_state_get_highlight (self->view_state) != self->highlight)
    return NULL;
  return self->highlight;
}
