/* tw-designer-compare.c: the designer's row that runs any registered evaluator beside the automaton
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-designer-compare.h"

#include <glib/gi18n-lib.h>
#include <tw-evaluators.h>

/*
 * A user drawing an automaton checks it against what they trust: the system metric it
 * should agree with, or another evaluation. The row offers every registered evaluator
 * (tw_evaluator_factory_list_registered(), the Evaluations tab's list), runs the chosen
 * one through TwEvaluatorRun over the designer's trace and says what it measured in the
 * words of the automaton's own preview. It knows no evaluator by name: one registered
 * anywhere appears here.
 */

struct _TwDesignerCompare
{
  GtkWidget       parent_instance;

  GtkWidget      *controls;
  GtkWidget      *dropdown;
  GtkWidget      *parameter;
  GtkWidget      *measure;
  GtkWidget      *summary;

  TwTrace        *trace;   /* nullable: no trace open */
  TwEvaluatorRun *run;     /* the run going on, NULL when none */
};

G_DEFINE_FINAL_TYPE (TwDesignerCompare, tw_designer_compare, GTK_TYPE_WIDGET)

/**
 * tw_designer_compare_dup_lengths_text:
 * @table: measurements
 *
 * Returns: (transfer full): "N measurements · mean … · max …", or "0 measurements"
 */
char *
tw_designer_compare_dup_lengths_text (TwMeasurementTable *table)
{
  gsize n = tw_measurement_table_get_n_rows (table);
  guint64 total = 0, max = 0;
  g_autofree char *mean = NULL;
  g_autofree char *longest = NULL;

  if (n == 0)
    return g_strdup (_("0 measurements"));
  for (gsize i = 0; i < n; i++)
    {
      guint64 length = tw_measurement_table_get_row (table, i)->length;

      total += length;
      max = MAX (max, length);
    }
  mean = tw_timeline_format_duration (total / n);
  longest = tw_timeline_format_duration (max);
  return g_strdup_printf (_("%lu measurements · mean %s · max %s"), (gulong) n, mean, longest);
}

static void
set_summary (TwDesignerCompare *self,
             const char        *text)
{
  gtk_label_set_text (GTK_LABEL (self->summary), text);
  /* no blank line under the row before anything was measured */
  gtk_widget_set_visible (self->summary, text[0] != '\0');
}

static void
stop (TwDesignerCompare *self)
{
  if (self->run == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->run, self);
  tw_evaluator_run_cancel (self->run);
  g_clear_object (&self->run);
}

static void
run_done_cb (TwDesignerCompare *self)
{
  g_autoptr(TwEvaluatorRun) run = NULL;
  g_autofree char *lengths = NULL;
  g_autofree char *text = NULL;
  TwMeasurementTable *table;

  if (tw_evaluator_run_is_running (self->run))
    return;
  run = g_object_ref (self->run);
  stop (self);
  if ((table = tw_evaluator_run_get_table (run)) == NULL)
    {
      text = g_strdup_printf (_("Cannot run over this trace: %s"),
                              tw_evaluator_run_get_error_message (run));
      set_summary (self, text);
      return;
    }
  lengths = tw_designer_compare_dup_lengths_text (table);
  text = g_strdup_printf ("%s: %s", tw_evaluator_get_name (tw_evaluator_run_get_evaluator (run)),
                          lengths);
  set_summary (self, text);
}

/* "name" or "name:parameter", as the CLI's --metric and the Evaluations tab spell it. */
static char *
dup_spec (TwDesignerCompare *self)
{
  TwEvaluatorFactory *factory = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (self->dropdown));
  const char *parameter = gtk_editable_get_text (GTK_EDITABLE (self->parameter));

  if (factory == NULL)
    return NULL;
  if (tw_evaluator_factory_get_parameter (factory) == NULL || parameter[0] == '\0')
    return g_strdup (tw_evaluator_factory_get_name (factory));
  return g_strdup_printf ("%s:%s", tw_evaluator_factory_get_name (factory), parameter);
}

/**
 * tw_designer_compare_measure:
 *
 * Runs the chosen evaluator over the trace in a worker thread (what *Measure* does); the
 * summary says what it measured, or why it could not.
 */
void
tw_designer_compare_measure (TwDesignerCompare *self)
{
  g_autofree char *spec = NULL;
  g_autoptr(TwEvaluator) evaluator = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (TW_IS_DESIGNER_COMPARE (self));

  stop (self);
  if (self->trace == NULL || (spec = dup_spec (self)) == NULL)
    return;
  if (!(evaluator = tw_evaluator_factory_create_for_spec (spec, &error))
      || !tw_evaluator_check (evaluator, self->trace, &error))
    {
      set_summary (self, error->message);
      return;
    }
  self->run = tw_evaluator_run_new (evaluator, self->trace, 50, TW_HISTOGRAM_SCALE_LINEAR);
  g_signal_connect_swapped (self->run, "notify::running", G_CALLBACK (run_done_cb), self);
  set_summary (self, _("Measuring…"));
  tw_evaluator_run_start (self->run);
}

static void
measure_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  tw_designer_compare_measure (TW_DESIGNER_COMPARE (widget));
}

/* The parameter entry asks for what the chosen evaluator takes ("EVENT"), if anything. */
static void
selected_cb (TwDesignerCompare *self)
{
  TwEvaluatorFactory *factory = gtk_drop_down_get_selected_item (GTK_DROP_DOWN (self->dropdown));
  const char *parameter = factory ? tw_evaluator_factory_get_parameter (factory) : NULL;

  gtk_widget_set_sensitive (self->parameter, parameter != NULL);
  gtk_entry_set_placeholder_text (GTK_ENTRY (self->parameter), parameter ? parameter : "");
}

static void
tw_designer_compare_dispose (GObject *object)
{
  TwDesignerCompare *self = TW_DESIGNER_COMPARE (object);

  stop (self);
  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_DESIGNER_COMPARE);
  G_OBJECT_CLASS (tw_designer_compare_parent_class)->dispose (object);
}

static void
tw_designer_compare_class_init (TwDesignerCompareClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_designer_compare_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-designer-compare.ui");
  gtk_widget_class_bind_template_child (widget_class, TwDesignerCompare, controls);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerCompare, dropdown);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerCompare, parameter);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerCompare, measure);
  gtk_widget_class_bind_template_child (widget_class, TwDesignerCompare, summary);
  gtk_widget_class_install_action (widget_class, "compare.measure", NULL, measure_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
tw_designer_compare_init (TwDesignerCompare *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 6);
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->dropdown), tw_evaluator_factory_list_registered ());
  g_signal_connect_swapped (self->dropdown, "notify::selected", G_CALLBACK (selected_cb), self);
  selected_cb (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.measure", FALSE);
}

GtkWidget *
tw_designer_compare_new (void)
{
  return g_object_new (TW_TYPE_DESIGNER_COMPARE, NULL);
}

/**
 * tw_designer_compare_set_trace:
 * @trace: (nullable): the trace to measure; %NULL when none is open
 *
 * Forgets what was measured before.
 */
void
tw_designer_compare_set_trace (TwDesignerCompare *self,
                               TwTrace           *trace)
{
  g_return_if_fail (TW_IS_DESIGNER_COMPARE (self));

  stop (self);
  g_set_object (&self->trace, trace);
  set_summary (self, "");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "compare.measure", trace != NULL);
}

gboolean
tw_designer_compare_get_running (TwDesignerCompare *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_COMPARE (self), FALSE);

  return self->run != NULL;
}

const char *
tw_designer_compare_get_summary (TwDesignerCompare *self)
{
  g_return_val_if_fail (TW_IS_DESIGNER_COMPARE (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->summary));
}
