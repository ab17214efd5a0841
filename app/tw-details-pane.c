/* tw-details-pane.c: every field of the selected event
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tw-details-pane.h"

#include <glib/gi18n-lib.h>

struct _TwDetailsPane
{
  GtkWidget    parent_instance;

  TwViewState *view_state;

  GtkWidget   *scroller;
  GtkWidget   *grid;
  GtkWidget   *placeholder;
  guint        n_rows;
};

G_DEFINE_FINAL_TYPE (TwDetailsPane, tw_details_pane, GTK_TYPE_WIDGET)

static void
add_row (TwDetailsPane *self,
         const char    *name,
         const char    *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 1.0);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0.0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_widget_set_hexpand (value_label, TRUE);
  gtk_grid_attach (GTK_GRID (self->grid), name_label, 0, self->n_rows, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), value_label, 1, self->n_rows, 1, 1);
  self->n_rows++;
}

/* Whether @label already names @t by its source id ("288", "288 (pid 4)"). */
static gboolean
label_is_source_id (const char   *label,
                    const TwTask *t)
{
  gsize n = strlen (t->source_id);

  return strncmp (label, t->source_id, n) == 0 && (label[n] == '\0' || label[n] == ' ');
}

/* The task's label, then the ids it does not show already: a S.Ha.R.K. context's label is
 * "id (pid N)" itself. */
static void
add_task_row (TwDetailsPane *self,
              TwTrace       *trace,
              const char    *name,
              guint32        task)
{
  g_autofree char *label = tw_trace_dup_task_label (trace, task);
  const TwTask *t = tw_trace_get_task (trace, task);
  g_autoptr(GString) ids = g_string_new (NULL);
  g_autofree char *text = NULL;

  if (t && t->pid >= 0)
    {
      g_autofree char *in_label = g_strdup_printf (" (pid %" G_GINT64_FORMAT ")", t->pid);

      if (!g_str_has_suffix (label, in_label))
        g_string_append_printf (ids, "pid %" G_GINT64_FORMAT, t->pid);
    }
  if (t && !label_is_source_id (label, t))
    g_string_append_printf (ids, "%sid %s", ids->len ? ", " : "", t->source_id);
  text = ids->len ? g_strdup_printf ("%s (%s)", label, ids->str) : g_strdup (label);
  add_row (self, name, text);
}

/* What the arg column means, per tw-types.h's table; skipped when the reader also kept
 * the value as a payload field of the usual name (it is listed with the fields). */
static void
add_canonical_row (TwDetailsPane     *self,
                   TwTrace           *trace,
                   const TwEventType *type,
                   const TwEvent     *event)
{
  static const char *field_names[TW_N_EVENT_KINDS] = {
    [TW_EVENT_KIND_IRQ_ENTRY] = "irq",
    [TW_EVENT_KIND_IRQ_EXIT] = "irq",
    [TW_EVENT_KIND_SOFTIRQ_ENTRY] = "vec",
    [TW_EVENT_KIND_SOFTIRQ_EXIT] = "vec",
    [TW_EVENT_KIND_USER] = "id",
    [TW_EVENT_KIND_MUTEX_LOCK] = "mutex",
    [TW_EVENT_KIND_MUTEX_UNLOCK] = "mutex",
    [TW_EVENT_KIND_MUTEX_WAIT] = "mutex",
    [TW_EVENT_KIND_SENSOR] = "sensor",
  };
  g_autofree char *text = NULL;

  if (type->kind < TW_N_EVENT_KINDS && field_names[type->kind]
      && tw_event_type_lookup_field (type, field_names[type->kind]) >= 0)
    return;

  switch (type->kind)
    {
    case TW_EVENT_KIND_SWITCH:
      add_task_row (self, trace, _("Next task"), event->arg);
      return;
    case TW_EVENT_KIND_WAKEUP:
      add_task_row (self, trace, _("Woken task"), event->arg);
      return;
    case TW_EVENT_KIND_TASK_CREATE:
      add_task_row (self, trace, _("Created task"), event->arg);
      return;
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
      text = g_strdup_printf ("%u", event->arg);
      add_row (self, _("IRQ"), text);
      return;
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      text = g_strdup_printf ("%u", event->arg);
      add_row (self, _("Softirq vector"), text);
      return;
    case TW_EVENT_KIND_USER:
      text = g_strdup_printf ("%u", event->arg);
      add_row (self, _("User event id"), text);
      return;
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
      text = g_strdup_printf ("0x%x", event->arg);
      add_row (self, _("Mutex"), text);
      return;
    case TW_EVENT_KIND_SENSOR:
      text = g_strdup_printf ("%u", event->arg);
      add_row (self, _("Sensor"), text);
      return;
    case TW_EVENT_KIND_LOST:
      /* a count is listed with the fields; say when there is none */
      if (event->arg == 0)
        add_row (self, _("Events lost"), _("not counted by the tracer"));
      return;
    case TW_EVENT_KIND_TASK_EXIT:
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:
      return;
    }
}

/* The repairs the state model made at the selected switch: on its CPU (its prev was not
 * the task running there) and on the CPU its next task was still running on. */
static void
add_repair_rows (TwDetailsPane *self,
                 TwTrace       *trace,
                 const TwEvent *event)
{
  TwStateModel *model = tw_view_state_get_model (self->view_state);

  if (model == NULL || tw_trace_get_event_type (trace, event->type)->kind != TW_EVENT_KIND_SWITCH)
    return;
  for (guint cpu = 0; cpu < tw_state_model_get_n_cpus (model); cpu++)
    {
      gsize n;
      const TwCpuMark *marks = tw_state_model_get_cpu_marks (model, cpu, &n);

      for (gsize i = tw_state_model_lower_bound (model, TW_SERIES_CPU_MARKS, cpu, event->time);
           i < n && marks[i].time == event->time; i++)
        if (marks[i].index == event->index && marks[i].kind != TW_CPU_MARK_LOST)
          {
            g_autofree char *text = tw_timeline_describe_cpu_mark (trace, cpu, &marks[i]);

            add_row (self, _("Repair"), text);
          }
    }
}

static void
add_span_field_cb (const char *name,
                   const char *value,
                   gpointer    user_data)
{
  add_row (user_data, name, value);
}

static void
rebuild (TwDetailsPane *self)
{
  GtkWidget *child;
  TwTrace *trace;
  const TwEventType *type;
  guint64 index;
  TwEvent event;
  g_autofree char *text = NULL;

  while ((child = gtk_widget_get_first_child (self->grid)))
    gtk_grid_remove (GTK_GRID (self->grid), child);
  self->n_rows = 0;

  /* a span picked on the timeline (a run, a handler, a task's state) */
  if (self->view_state && tw_view_state_get_selected_span (self->view_state))
    {
      gtk_widget_set_visible (self->placeholder, FALSE);
      gtk_widget_set_visible (self->scroller, TRUE);
      tw_span_ref_describe (tw_view_state_get_selected_span (self->view_state),
                            tw_view_state_get_model (self->view_state), add_span_field_cb, self);
      return;
    }

  index = self->view_state ? tw_view_state_get_selected_event (self->view_state) : TW_EVENT_NONE;
  trace = self->view_state ? tw_view_state_get_trace (self->view_state) : NULL;
  if (index == TW_EVENT_NONE || !tw_trace_get_event (trace, index, &event))
    {
      gtk_widget_set_visible (self->placeholder, TRUE);
      gtk_widget_set_visible (self->scroller, FALSE);
      return;
    }
  gtk_widget_set_visible (self->placeholder, FALSE);
  gtk_widget_set_visible (self->scroller, TRUE);
  type = tw_trace_get_event_type (trace, event.type);

  text = g_strdup_printf ("%" G_GUINT64_FORMAT, index);
  add_row (self, _("Event"), text);
  g_clear_pointer (&text, g_free);

  text = tw_time_text_format (event.time);
  add_row (self, _("Time"), text);
  g_clear_pointer (&text, g_free);
  text = g_strdup_printf ("%" G_GUINT64_FORMAT " ns", event.time);
  add_row (self, "", text);
  g_clear_pointer (&text, g_free);

  text = event.cpu == TW_CPU_NONE ? g_strdup (_("none")) : tw_trace_dup_cpu_label (trace, event.cpu);
  add_row (self, _("CPU"), text);
  g_clear_pointer (&text, g_free);

  add_task_row (self, trace, _("Task"), event.task);
  add_row (self, _("Type"), type->name);
  if (type->family)
    add_row (self, _("Family"), type->family);
  add_row (self, _("Kind"), tw_event_kind_to_string (type->kind));
  add_canonical_row (self, trace, type, &event);
  add_repair_rows (self, trace, &event);

  for (guint i = 0; i < type->n_fields; i++)
    {
      g_autofree char *value_text = NULL;
      TwValue value;

      if (!tw_event_type_get_field (type, event.payload, i, &value))
        add_row (self, type->fields[i].name, _("(absent)"));
      else
        {
          value_text = tw_trace_format_value (trace, &type->fields[i], &value);
          add_row (self, type->fields[i].name, value_text);
        }
    }
}

static void
tw_details_pane_dispose (GObject *object)
{
  TwDetailsPane *self = (TwDetailsPane *)object;

  tw_details_pane_set_view_state (self, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_DETAILS_PANE);

  G_OBJECT_CLASS (tw_details_pane_parent_class)->dispose (object);
}

static void
tw_details_pane_class_init (TwDetailsPaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_details_pane_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "detailspane");
  gtk_widget_class_set_template_from_resource (widget_class, "/org/tracewb/Workbench/tw-details-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TwDetailsPane, scroller);
  gtk_widget_class_bind_template_child (widget_class, TwDetailsPane, grid);
  gtk_widget_class_bind_template_child (widget_class, TwDetailsPane, placeholder);
}

static void
tw_details_pane_init (TwDetailsPane *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tw_details_pane_new:
 *
 * Returns: (transfer floating): a details pane
 */
GtkWidget *
tw_details_pane_new (void)
{
  return g_object_new (TW_TYPE_DETAILS_PANE, NULL);
}

/**
 * tw_details_pane_set_view_state:
 * @view_state: (nullable): whose selected event to show
 */
void
tw_details_pane_set_view_state (TwDetailsPane *self,
                                TwViewState   *view_state)
{
  g_return_if_fail (TW_IS_DETAILS_PANE (self));

  if (self->view_state == view_state)
    return;
  if (self->view_state)
    g_signal_handlers_disconnect_by_data (self->view_state, self);
  g_set_object (&self->view_state, view_state);
  if (view_state)
    {
      g_signal_connect_swapped (view_state, "notify::selected-event", G_CALLBACK (rebuild), self);
      g_signal_connect_swapped (view_state, "notify::selected-span", G_CALLBACK (rebuild), self);
    }
  if (self->grid)
    rebuild (self);
}

/**
 * tw_details_pane_dup_text:
 *
 * Returns: (transfer full): the shown fields as "name: value" lines (for tests and copy)
 */
char *
tw_details_pane_dup_text (TwDetailsPane *self)
{
  GString *str = g_string_new (NULL);

  g_return_val_if_fail (TW_IS_DETAILS_PANE (self), NULL);

  for (guint row = 0; row < self->n_rows; row++)
    {
      GtkWidget *name = gtk_grid_get_child_at (GTK_GRID (self->grid), 0, row);
      GtkWidget *value = gtk_grid_get_child_at (GTK_GRID (self->grid), 1, row);

      g_string_append_printf (str, "%s: %s\n", gtk_label_get_text (GTK_LABEL (name)),
                              gtk_label_get_text (GTK_LABEL (value)));
    }
  return g_string_free (str, FALSE);
}
