/* tw-automaton-evaluator.c: a metric automaton, run by the interpreter, as a TwEvaluator
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The interpreter (tw-automaton-interp.c) becomes an update: it consumes every event
 * (an instance starts at its task's first event of any type, and `*` labels take any
 * event), gets whole runs of rows through the batch entry when the evaluation does
 * not check events one by one, and single rows through prepare/commit when it does (a
 * live sensor). After each, the measurements it completed go to the table and their
 * lengths to the histogram, in the interpreter's order.
 */
#include "config.h"

#include "tw-automaton-evaluator.h"

#include "tw-automaton-file.h"
#include "tw-automaton-interp-private.h"
#include "tw-evaluation.h"
#include "tw-event-names.h"

#include <glib/gi18n-lib.h>

struct _TwAutomatonEvaluator
{
  GObject      parent_instance;

  TwAutomaton *automaton;   /* a copy nobody edits: runs read it from their threads */
  char        *name;
  char        *description;
};

static void tw_automaton_evaluator_iface_init (TwEvaluatorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwAutomatonEvaluator, tw_automaton_evaluator, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR,
                                                      tw_automaton_evaluator_iface_init))

/* One run: the state of the update. */
typedef struct {
  TwAutomaton        *automaton;
  TwMeasurementTable *table;       /* nullable */
  TwHistogram        *histogram;   /* nullable */
  TwAutomatonInterp  *interp;      /* made when the update joins: it binds to the trace */
  TwEvaluation       *evaluation;  /* unowned, while the update takes part */
  TwTrace            *trace;
  gsize               n_reported;  /* the interpreter's measurements passed on so far */
  guint64             prepared;    /* the event prepare saw */
  gboolean            failed;      /* a new event type made the automaton ambiguous */
} AutomatonRun;

static void
automaton_run_free (gpointer data)
{
  AutomatonRun *run = data;

  g_clear_object (&run->automaton);
  g_clear_object (&run->table);
  g_clear_object (&run->histogram);
  g_clear_object (&run->interp);
  g_clear_object (&run->trace);
  g_free (run);
}

/* The measurements the interpreter completed since the last call, in its order. */
static void
report_new (AutomatonRun *run)
{
  gsize n = tw_automaton_interp_get_n_measurements (run->interp);

  for (gsize i = run->n_reported; i < n; i++)
    {
      const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (run->interp, i);
      /* the interpreter saturates nothing: the table's field is 32 bits */
      TwMeasurementRow row = {
        .task = m->task,
        .intermediate_events = (guint32) MIN (m->intermediate_events, G_MAXUINT32),
        .begin = m->begin_ns,
        .end = m->end_ns,
        .length = m->length_ns,
      };

      if (run->table)
        tw_measurement_table_append_with_overhead (run->table, &row, m->overhead_ps, NULL);
      if (run->histogram)
        tw_histogram_insert (run->histogram, (double) m->length_ns);
    }
  run->n_reported = n;
}

static void
feed_rows (AutomatonRun       *run,
           const TwEventChunk *chunk,
           guint               first,
           guint               n)
{
  GError *error = NULL;

  if (run->failed)
    return;
  if (!_tw_automaton_interp_feed_rows (run->interp, chunk, first, n, &error))
    {
      run->failed = TRUE;
      tw_evaluation_report_error (run->evaluation, error);
      return;
    }
  report_new (run);
}

static gboolean
automaton_bind (gpointer       context,
                gpointer       func_data,
                TwEvaluation  *evaluation,
                GError       **error)
{
  AutomatonRun *run = func_data;

  g_return_val_if_fail (run->interp == NULL, FALSE);

  run->trace = g_object_ref (tw_evaluation_get_trace (evaluation));
  run->interp = tw_automaton_interp_new (run->automaton, run->trace, error);
  if (run->interp == NULL)
    return FALSE;
  /* the table's per-type costs: the interpreter sums them itself, from the rows */
  if (run->table != NULL && tw_measurement_table_get_type_costs (run->table) != NULL)
    _tw_automaton_interp_set_event_costs (run->interp, tw_measurement_table_get_type_costs (run->table));
  _tw_automaton_interp_set_position (run->interp, tw_evaluation_get_position (evaluation));
  run->evaluation = evaluation;
  return TRUE;
}

static gboolean
automaton_prepare (gpointer       context,
                   gpointer       func_data,
                   const TwEvent *event,
                   guint          selector)
{
  AutomatonRun *run = func_data;

  run->prepared = event->index;
  return !run->failed;
}

/* Per event (a live sensor's evaluation): the row is read from the store, which keeps
 * it; an event found overwritten is stepped over. */
static void
automaton_commit (gpointer context,
                  gpointer func_data,
                  gboolean ok)
{
  AutomatonRun *run = func_data;

  if (!ok)
    {
      if (!run->failed)
        _tw_automaton_interp_skip (run->interp);
      return;
    }
  feed_rows (run, tw_trace_get_chunk (run->trace, run->prepared >> TW_CHUNK_SHIFT),
             run->prepared & TW_CHUNK_MASK, 1);
}

static void
automaton_batch (gpointer            context,
                 gpointer            func_data,
                 const TwEventChunk *chunk,
                 guint               first,
                 guint               n_rows,
                 const guint16      *slots,
                 guint               n_types)
{
  feed_rows (func_data, chunk, first, n_rows);
}

static const TwUpdateFuncs automaton_funcs = {
  automaton_bind, automaton_prepare, automaton_commit, NULL,
};

static void
tw_automaton_evaluator_finalize (GObject *object)
{
  TwAutomatonEvaluator *self = TW_AUTOMATON_EVALUATOR (object);

  g_clear_object (&self->automaton);
  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);

  G_OBJECT_CLASS (tw_automaton_evaluator_parent_class)->finalize (object);
}

static void
tw_automaton_evaluator_class_init (TwAutomatonEvaluatorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_automaton_evaluator_finalize;
}

static void
tw_automaton_evaluator_init (TwAutomatonEvaluator *self)
{
}

static const char *
automaton_get_name (TwEvaluator *evaluator)
{
  return TW_AUTOMATON_EVALUATOR (evaluator)->name;
}

static const char *
automaton_get_description (TwEvaluator *evaluator)
{
  return TW_AUTOMATON_EVALUATOR (evaluator)->description;
}

/* The events its labels name, and `*` for a label that takes any event. Instances also
 * start at their task's first event of any type, so a trace filtered to these may
 * start some later. */
static GStrv
automaton_dup_required_events (TwEvaluator *evaluator)
{
  TwAutomaton *automaton = TW_AUTOMATON_EVALUATOR (evaluator)->automaton;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = tw_automaton_dup_event_names (automaton);
  TwEventKind kind;

  for (guint i = 0; names[i]; i++)
    {
      g_strv_builder_add (builder, names[i]);
      /* a label names a raw type or a kind (tw_automaton_interp_new()) */
      if (tw_event_kind_from_string (names[i], &kind))
        {
          g_autofree char *selector = g_strconcat ("kind:", names[i], NULL);

          g_strv_builder_add (builder, selector);
        }
    }
  for (guint i = 0; i < tw_automaton_get_n_transitions (automaton); i++)
    if (tw_automaton_get_transition (automaton, i)->label == TW_LABEL_ANY)
      {
        g_strv_builder_add (builder, "*");
        break;
      }
  return g_strv_builder_end (builder);
}

/* Labels may name other tracers' events on purpose: said beside the results, not
 * refused. */
static char *
automaton_dup_warning (TwEvaluator *evaluator,
                       TwTrace     *trace)
{
  g_auto(GStrv) names = tw_automaton_dup_event_names (TW_AUTOMATON_EVALUATOR (evaluator)->automaton);

  return tw_event_names_check (trace, (const char *const *) names, TW_EVENT_NAME_LABEL);
}

static TwUpdate *
automaton_create_update (TwEvaluator        *evaluator,
                         TwMeasurementTable *table,
                         TwHistogram        *histogram)
{
  static const char *const every_event[] = { "*", NULL };
  AutomatonRun *run = g_new0 (AutomatonRun, 1);
  TwUpdate *update;

  run->automaton = g_object_ref (TW_AUTOMATON_EVALUATOR (evaluator)->automaton);
  run->table = table ? g_object_ref (table) : NULL;
  run->histogram = histogram ? g_object_ref (histogram) : NULL;
  update = tw_update_new (&automaton_funcs, run, automaton_run_free, NULL, every_event);
  tw_update_set_batch_func (update, automaton_batch);
  return update;
}

static void
tw_automaton_evaluator_iface_init (TwEvaluatorInterface *iface)
{
  iface->get_name = automaton_get_name;
  iface->get_description = automaton_get_description;
  iface->dup_required_events = automaton_dup_required_events;
  iface->dup_warning = automaton_dup_warning;
  iface->create_update = automaton_create_update;
}

/**
 * tw_automaton_evaluator_new:
 * @automaton: the automaton; the evaluator keeps a copy, so @automaton may be edited
 *   on while runs go on in other threads
 *
 * Its measurements are the interpreter's (DESIGN §4), in the order it completed them;
 * the table has no free columns and is named after the automaton.
 *
 * Returns: (transfer full) (nullable): the evaluator, or %NULL with @error set when the
 *   automaton has design errors
 */
TwAutomatonEvaluator *
tw_automaton_evaluator_new (TwAutomaton  *automaton,
                            GError      **error)
{
  g_autoptr(TwAutomatonEvaluator) self = NULL;
  g_autofree char *data = NULL;
  const char *name;
  gsize length;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);

  if (!tw_automaton_check (automaton, error))
    return NULL;

  self = g_object_new (TW_TYPE_AUTOMATON_EVALUATOR, NULL);
  data = tw_automaton_to_data (automaton, &length);
  self->automaton = tw_automaton_load_from_data (data, length, "automaton", error);
  if (self->automaton == NULL)
    return NULL;
  /* the name its exported module carries, so that both print the same */
  name = tw_automaton_get_name (automaton);
  self->name = g_strdup (name && name[0] ? name : "automaton");
  self->description = g_strdup_printf (_("metric automaton “%s”, run by the interpreter"),
                                       self->name);
  return g_steal_pointer (&self);
}

/**
 * tw_automaton_evaluator_get_automaton:
 *
 * Returns: (transfer none): the evaluator's own copy of the automaton (do not edit it)
 */
TwAutomaton *
tw_automaton_evaluator_get_automaton (TwAutomatonEvaluator *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_EVALUATOR (self), NULL);
  return self->automaton;
}
