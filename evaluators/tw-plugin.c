/* tw-plugin.c: evaluation modules loaded from shared objects (tw-evaluator.h ABI)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-plugin.h"

#include "tw-evaluation.h"

#include <gmodule.h>
#include <math.h>

struct _TwPlugin {
  GObject                  parent_instance;

  char                    *path;
  GModule                 *module;
  const TwEvaluatorModule *desc;
  const TwEvaluatorBatchFuncs *batch;  /* or NULL: prepare/commit only */
};

static void tw_plugin_evaluator_init (TwEvaluatorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwPlugin, tw_plugin, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR, tw_plugin_evaluator_init))

G_DEFINE_QUARK (tw-plugin-error-quark, tw_plugin_error)

static void
tw_plugin_finalize (GObject *object)
{
  TwPlugin *self = TW_PLUGIN (object);

  /* Updates hold a reference to the plugin, so no module code can run past here. */
  g_clear_pointer (&self->module, g_module_close);
  g_clear_pointer (&self->path, g_free);

  G_OBJECT_CLASS (tw_plugin_parent_class)->finalize (object);
}

static void
tw_plugin_class_init (TwPluginClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_plugin_finalize;
}

static void
tw_plugin_init (TwPlugin *self)
{
}

static gboolean
check_module (const TwEvaluatorModule  *desc,
              const char               *path,
              GError                  **error)
{
  if (desc->abi_version != TW_EVALUATOR_ABI_VERSION)
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_VERSION,
                   "%s: built for evaluator ABI version %u, but this Trace Workbench speaks "
                   "version %u: rebuild it against this tw-evaluator.h",
                   path, desc->abi_version, TW_EVALUATOR_ABI_VERSION);
      return FALSE;
    }
  if (desc->struct_size < sizeof (TwEvaluatorModule))
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID,
                   "%s: module description has %u bytes, expected %zu", path,
                   desc->struct_size, sizeof (TwEvaluatorModule));
      return FALSE;
    }
  if (desc->name == NULL || desc->prepare == NULL || desc->commit == NULL ||
      (desc->n_event_names > 0 && desc->event_names == NULL) ||
      (desc->n_columns > 0 && desc->column_names == NULL) ||
      (desc->n_event_names == 0 && !(desc->flags & TW_EVALUATOR_FLAG_ALL_EVENTS)) ||
      desc->n_event_names >= G_MAXUINT16 - 1 || desc->n_columns > 4096)
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID,
                   "%s: module description lacks a name, prepare/commit, or events to consume",
                   path);
      return FALSE;
    }
  for (guint i = 0; i < desc->n_event_names; i++)
    if (desc->event_names[i] == NULL)
      {
        g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID,
                     "%s: event name %u is NULL", path, i);
        return FALSE;
      }
  for (guint i = 0; i < desc->n_columns; i++)
    if (desc->column_names[i] == NULL)
      {
        g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID,
                     "%s: column name %u is NULL", path, i);
        return FALSE;
      }
  return TRUE;
}

/**
 * tw_plugin_new_for_path:
 * @path: a shared object exporting `tw_evaluator_module_get` (tw-evaluator.h)
 *
 * Loads the module and checks that it speaks this host's ABI version.
 *
 * Returns: (transfer full) (nullable): the plugin, or %NULL with @error naming @path
 *   and what is wrong (not loadable, no entry point, other ABI version, incomplete)
 */
TwPlugin *
tw_plugin_new_for_path (const char  *path,
                        GError     **error)
{
  g_autoptr(TwPlugin) self = NULL;
  g_autofree char *absolute = NULL;
  TwEvaluatorModuleGetFunc get = NULL;
  TwEvaluatorBatchGetFunc get_batch = NULL;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (TW_TYPE_PLUGIN, NULL);
  self->path = g_strdup (path);
  /* a file the user names, not a library to look up: `--plugin a.so` means ./a.so, where
   * dlopen would search the library path for a name without a slash */
  absolute = g_canonicalize_filename (path, NULL);
  self->module = g_module_open (absolute, G_MODULE_BIND_LOCAL);
  if (self->module == NULL)
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_OPEN,
                   "cannot load evaluation module: %s", g_module_error ());
      return NULL;
    }
  if (!g_module_symbol (self->module, TW_EVALUATOR_MODULE_SYMBOL, (gpointer *) &get) ||
      get == NULL)
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_SYMBOL,
                   "%s: exports no %s(): not a Trace Workbench evaluation module",
                   path, TW_EVALUATOR_MODULE_SYMBOL);
      return NULL;
    }
  self->desc = get (TW_EVALUATOR_ABI_VERSION);
  if (self->desc == NULL)
    {
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_VERSION,
                   "%s: the module does not support evaluator ABI version %u",
                   path, TW_EVALUATOR_ABI_VERSION);
      return NULL;
    }
  if (!check_module (self->desc, path, error))
    return NULL;

  /* optional: a module without it runs through prepare/commit */
  if (g_module_symbol (self->module, TW_EVALUATOR_BATCH_SYMBOL, (gpointer *) &get_batch) &&
      get_batch != NULL)
    {
      self->batch = get_batch (self->desc, TW_EVALUATOR_ABI_VERSION);
      if (self->batch != NULL &&
          (self->batch->abi_version != TW_EVALUATOR_ABI_VERSION ||
           self->batch->struct_size < sizeof (TwEvaluatorBatchFuncs) ||
           self->batch->process == NULL))
        {
          g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID,
                       "%s: %s() gave an incomplete batch description (ABI version %u, "
                       "%u bytes)", path, TW_EVALUATOR_BATCH_SYMBOL,
                       self->batch->abi_version, self->batch->struct_size);
          return NULL;
        }
    }
  return g_steal_pointer (&self);
}

/**
 * tw_plugin_get_path:
 *
 * Returns: (transfer none): the file the module was loaded from
 */
const char *
tw_plugin_get_path (TwPlugin *self)
{
  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  return self->path;
}

/**
 * tw_plugin_get_name:
 *
 * Returns: (transfer none): the module's name
 */
const char *
tw_plugin_get_name (TwPlugin *self)
{
  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  return self->desc->name;
}

/**
 * tw_plugin_get_description:
 *
 * Returns: (transfer none): the module's description ("" when it has none)
 */
const char *
tw_plugin_get_description (TwPlugin *self)
{
  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  return self->desc->description ? self->desc->description : "";
}

/**
 * tw_plugin_get_module:
 *
 * Returns: (transfer none): the module's description
 */
const TwEvaluatorModule *
tw_plugin_get_module (TwPlugin *self)
{
  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  return self->desc;
}

/**
 * tw_plugin_get_batch_funcs:
 *
 * Returns: (transfer none) (nullable): the module's batch entry
 *   (`tw_evaluator_module_get_batch`), or %NULL when it only has prepare/commit
 */
const TwEvaluatorBatchFuncs *
tw_plugin_get_batch_funcs (TwPlugin *self)
{
  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  return self->batch;
}

/**
 * tw_plugin_new_table:
 *
 * Returns: (transfer full): an empty table with the module's name and free columns
 */
TwMeasurementTable *
tw_plugin_new_table (TwPlugin *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;
  TwMeasurementTable *table;

  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);

  for (guint i = 0; i < self->desc->n_columns; i++)
    g_strv_builder_add (b, self->desc->column_names[i]);
  names = g_strv_builder_end (b);
  table = tw_measurement_table_new ((const char *const *) names);
  tw_measurement_table_set_name (table, self->desc->name);
  return table;
}

/* ------------------------------------------------------------- the host side */

typedef struct {
  TwEvaluatorHost     host;      /* first: the module gets &host, we get back to us */
  TwPlugin           *plugin;
  void               *context;
  TwTrace            *trace;
  guint32            *ids;       /* per event name: its id or TW_EVALUATOR_EVENT_ABSENT */
  double             *columns;   /* scratch, n_columns */
  TwMeasurementTable *table;
  TwHistogram        *histogram;
  TwEvaluatorEvent    event;
  guint32            *type_ids;  /* batches: per trace type, what the module sees */
  guint               n_type_ids;
  GArray             *rows;      /* batches: TwMeasurementRow scratch */
} PluginEval;

static void
plugin_eval_free (gpointer data)
{
  PluginEval *pe = data;

  if (pe->plugin->desc->context_free != NULL)
    pe->plugin->desc->context_free (pe->context);
  g_free (pe->ids);
  g_free (pe->columns);
  g_free (pe->type_ids);
  g_clear_pointer (&pe->rows, g_array_unref);
  g_clear_object (&pe->table);
  g_clear_object (&pe->histogram);
  g_clear_object (&pe->trace);
  g_clear_object (&pe->plugin);
  g_free (pe);
}

static gboolean
to_evaluator_value (TwTrace          *trace,
                    const TwValue    *in,
                    TwEvaluatorValue *out)
{
  switch (in->type)
    {
    case TW_FIELD_U8:
    case TW_FIELD_U16:
    case TW_FIELD_U32:
    case TW_FIELD_U64:
      out->type = TW_EVALUATOR_VALUE_UINT;
      out->v.u = in->u;
      return TRUE;
    case TW_FIELD_I32:
    case TW_FIELD_I64:
      out->type = TW_EVALUATOR_VALUE_INT;
      out->v.i = in->i;
      return TRUE;
    case TW_FIELD_F64:
      out->type = TW_EVALUATOR_VALUE_DOUBLE;
      out->v.f = in->f;
      return TRUE;
    case TW_FIELD_STRING:
      out->type = TW_EVALUATOR_VALUE_STRING;
      out->v.s = tw_trace_get_string (trace, in->str);
      return out->v.s != NULL;
    default:
      out->type = TW_EVALUATOR_VALUE_NONE;
      return FALSE;
    }
}

static bool
host_get_field (const TwEvaluatorHost  *host,
                const TwEvaluatorEvent *event,
                const char             *name,
                TwEvaluatorValue       *value)
{
  const PluginEval *pe = (const PluginEval *) host;
  TwValue v;

  value->type = TW_EVALUATOR_VALUE_NONE;
  if (event == NULL || event->host_event == NULL || name == NULL ||
      !tw_trace_get_event_field (pe->trace, event->host_event, name, &v))
    return false;
  return to_evaluator_value (pe->trace, &v, value);
}

static bool
host_get_field_at (const TwEvaluatorHost  *host,
                   const TwEvaluatorEvent *event,
                   unsigned                index,
                   TwEvaluatorValue       *value)
{
  const PluginEval *pe = (const PluginEval *) host;
  const TwEvent *ev;
  const TwEventType *type;
  TwValue v;

  value->type = TW_EVALUATOR_VALUE_NONE;
  if (event == NULL || event->host_event == NULL)
    return false;
  ev = event->host_event;
  type = tw_trace_get_event_type (pe->trace, ev->type);
  if (type == NULL || index >= type->n_fields || ev->payload == NULL ||
      !tw_event_type_get_field (type, ev->payload, index, &v))
    return false;
  return to_evaluator_value (pe->trace, &v, value);
}

static unsigned
host_get_n_fields (const TwEvaluatorHost  *host,
                   const TwEvaluatorEvent *event)
{
  const PluginEval *pe = (const PluginEval *) host;
  const TwEventType *type;

  if (event == NULL || event->host_event == NULL)
    return 0;
  type = tw_trace_get_event_type (pe->trace, ((const TwEvent *) event->host_event)->type);
  return type ? type->n_fields : 0;
}

static const char *
host_task_label (const TwEvaluatorHost *host,
                 uint32_t               task)
{
  const PluginEval *pe = (const PluginEval *) host;

  if (task >= tw_trace_get_n_tasks (pe->trace))
    return "";
  /* interned: lives with the trace */
  return tw_trace_get_task (pe->trace, task)->source_id ? tw_trace_get_task (pe->trace, task)->source_id : "";
}

static void
host_emit_measurement (const TwEvaluatorHost        *host,
                       const TwEvaluatorMeasurement *measurement)
{
  const PluginEval *pe = (const PluginEval *) host;
  guint n_columns = pe->plugin->desc->n_columns;
  TwMeasurementRow m;

  if (measurement == NULL)
    return;
  m.task = measurement->task < tw_trace_get_n_tasks (pe->trace) ? measurement->task : TW_TASK_NONE;
  m.intermediate_events = measurement->intermediate_events;
  m.begin = measurement->begin_ns;
  m.end = measurement->end_ns;
  m.length = measurement->length_ns;
  /* Columns the module did not fill stay empty rather than reading past its array. */
  for (guint c = 0; c < n_columns; c++)
    pe->columns[c] = measurement->columns != NULL && c < measurement->n_columns
                     ? measurement->columns[c] : NAN;
  if (pe->table)
    tw_measurement_table_append (pe->table, &m, pe->columns);
  if (pe->histogram)
    tw_histogram_insert (pe->histogram, (double) m.length);
}

/* A batch's measurements: the same rows as host_emit_measurement() would append one
 * by one, in one append. */
static void
host_emit_measurements (const TwEvaluatorHost        *host,
                        const TwEvaluatorMeasurement *measurements,
                        size_t                        n)
{
  const PluginEval *pe = (const PluginEval *) host;
  guint n_tasks = tw_trace_get_n_tasks (pe->trace);
  TwMeasurementRow *rows;

  if (measurements == NULL || n == 0)
    return;
  if (pe->plugin->desc->n_columns > 0)
    {
      for (size_t i = 0; i < n; i++)
        host_emit_measurement (host, &measurements[i]);
      return;
    }
  g_array_set_size (pe->rows, n);
  rows = (TwMeasurementRow *) (gpointer) pe->rows->data;
  for (size_t i = 0; i < n; i++)
    {
      rows[i].task = measurements[i].task < n_tasks ? measurements[i].task : TW_TASK_NONE;
      rows[i].intermediate_events = measurements[i].intermediate_events;
      rows[i].begin = measurements[i].begin_ns;
      rows[i].end = measurements[i].end_ns;
      rows[i].length = measurements[i].length_ns;
    }
  if (pe->table)
    tw_measurement_table_append_rows (pe->table, rows, n);
  if (pe->histogram)
    for (size_t i = 0; i < n; i++)
      tw_histogram_insert (pe->histogram, (double) rows[i].length);
}

static void
host_emit_value (const TwEvaluatorHost *host,
                 double                 value)
{
  const PluginEval *pe = (const PluginEval *) host;

  if (pe->histogram && !isnan (value))
    tw_histogram_insert (pe->histogram, value);
}

static gboolean
plugin_bind (gpointer       context,
             gpointer       func_data,
             TwEvaluation  *evaluation,
             GError       **error)
{
  PluginEval *pe = func_data;
  const TwEvaluatorModule *desc = pe->plugin->desc;
  TwTrace *trace = tw_evaluation_get_trace (evaluation);

  g_set_object (&pe->trace, trace);
  for (guint i = 0; i < desc->n_event_names; i++)
    {
      pe->ids[i] = TW_EVALUATOR_EVENT_ABSENT;
      for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
        if (tw_update_selector_matches (desc->event_names[i], tw_trace_get_event_type (trace, t)))
          {
            pe->ids[i] = i;
            break;
          }
    }
  if (desc->bind != NULL && !desc->bind (pe->context, &pe->host, pe->ids))
    {
      /* whoever chose the file names it */
      g_set_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_BIND,
                   "module “%s” refused the trace (events it needs are missing?)", desc->name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
plugin_prepare (gpointer       context,
                gpointer       func_data,
                const TwEvent *event,
                guint          selector)
{
  PluginEval *pe = func_data;
  const TwEvaluatorModule *desc = pe->plugin->desc;

  if (selector < desc->n_event_names)
    {
      /* A type that appeared after bind under a name the module was told is absent. */
      if (pe->ids[selector] == TW_EVALUATOR_EVENT_ABSENT)
        return FALSE;
      pe->event.event_id = pe->ids[selector];
    }
  else
    pe->event.event_id = TW_EVALUATOR_EVENT_OTHER;
  pe->event.time_ns = event->time;
  pe->event.task = event->task;
  pe->event.arg = event->arg;
  pe->event.cpu = event->cpu;
  pe->event.host_event = event;
  return desc->prepare (pe->context, &pe->event);
}

static void
plugin_commit (gpointer context,
               gpointer func_data,
               gboolean ok)
{
  PluginEval *pe = func_data;

  pe->plugin->desc->commit (pe->context, ok);
  pe->event.host_event = NULL;
}

static void
plugin_finish (gpointer context,
               gpointer func_data)
{
  PluginEval *pe = func_data;

  if (pe->plugin->desc->finish != NULL)
    pe->plugin->desc->finish (pe->context);
}

/* Events [first, first + n_rows) of @chunk as one TwEvaluatorBatch (a module with
 * tw_evaluator_module_get_batch). */
static void
plugin_batch (gpointer            context,
              gpointer            func_data,
              const TwEventChunk *chunk,
              guint               first,
              guint               n_rows,
              const guint16      *slots,
              guint               n_types)
{
  PluginEval *pe = func_data;
  const TwEvaluatorModule *desc = pe->plugin->desc;
  TwEvaluatorBatch batch = { 0 };

  if (n_types > pe->n_type_ids)
    {
      /* the same ids prepare would get; a type that appeared after bind under a name
       * the module was told is absent stays absent, as plugin_prepare() refuses it */
      pe->type_ids = g_renew (guint32, pe->type_ids, n_types);
      for (guint t = pe->n_type_ids; t < n_types; t++)
        {
          guint slot = slots[t];

          if (slot == 0)
            pe->type_ids[t] = TW_EVALUATOR_EVENT_ABSENT;
          else if (slot - 1 < desc->n_event_names)
            pe->type_ids[t] = pe->ids[slot - 1];
          else
            pe->type_ids[t] = TW_EVALUATOR_EVENT_OTHER;
        }
      pe->n_type_ids = n_types;
    }
  batch.n_events = n_rows;
  batch.time_ns = chunk->time + first;
  batch.task = chunk->task + first;
  batch.arg = chunk->arg + first;
  batch.cpu = chunk->cpu + first;
  batch.type = chunk->type + first;
  batch.type_ids = pe->type_ids;
  batch.n_types = pe->n_type_ids;
  batch.emit_measurements = host_emit_measurements;
  pe->plugin->batch->process (pe->context, &batch);
}

/* The module's event names, and `*` when it wants every other event too. */
static GStrv
dup_selectors (TwPlugin *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();

  for (guint i = 0; i < self->desc->n_event_names; i++)
    g_strv_builder_add (b, self->desc->event_names[i]);
  if (self->desc->flags & TW_EVALUATOR_FLAG_ALL_EVENTS)
    g_strv_builder_add (b, "*");
  return g_strv_builder_end (b);
}

static const TwUpdateFuncs plugin_funcs = {
  plugin_bind, plugin_prepare, plugin_commit, plugin_finish,
};

/**
 * tw_plugin_create_update:
 * @table: (nullable): receives the module's measurements (tw_plugin_new_table())
 * @histogram: (nullable): receives its values and measurement lengths
 *
 * A new instance of the module (its own context) as an update: the events it names
 * are resolved when the update joins an evaluation. A module with a batch entry gets
 * runs of events through it where the evaluation allows (tw_update_set_batch_func()).
 *
 * Returns: (transfer full): the update
 */
TwUpdate *
tw_plugin_create_update (TwPlugin           *self,
                         TwMeasurementTable *table,
                         TwHistogram        *histogram)
{
  g_auto(GStrv) selectors = NULL;
  PluginEval *pe;
  TwUpdate *update;

  g_return_val_if_fail (TW_IS_PLUGIN (self), NULL);
  g_return_val_if_fail (table == NULL ||
                        tw_measurement_table_get_n_columns (table) == self->desc->n_columns, NULL);

  pe = g_new0 (PluginEval, 1);
  pe->host.struct_size = sizeof (TwEvaluatorHost);
  pe->host.abi_version = TW_EVALUATOR_ABI_VERSION;
  pe->host.host_data = pe;
  pe->host.get_field = host_get_field;
  pe->host.get_field_at = host_get_field_at;
  pe->host.get_n_fields = host_get_n_fields;
  pe->host.task_label = host_task_label;
  pe->host.emit_measurement = host_emit_measurement;
  pe->host.emit_value = host_emit_value;
  pe->plugin = g_object_ref (self);
  pe->context = self->desc->context_new ? self->desc->context_new () : NULL;
  pe->ids = g_new0 (guint32, MAX (self->desc->n_event_names, 1));
  pe->columns = g_new0 (double, MAX (self->desc->n_columns, 1));
  pe->table = table ? g_object_ref (table) : NULL;
  pe->histogram = histogram ? g_object_ref (histogram) : NULL;
  pe->rows = g_array_new (FALSE, FALSE, sizeof (TwMeasurementRow));

  selectors = dup_selectors (self);
  update = tw_update_new (&plugin_funcs, pe, plugin_eval_free, NULL,
                          (const char *const *) selectors);
  if (self->batch != NULL)
    tw_update_set_batch_func (update, plugin_batch);
  return update;
}

static const char *
plugin_get_name (TwEvaluator *evaluator)
{
  return tw_plugin_get_name (TW_PLUGIN (evaluator));
}

static const char *
plugin_get_description (TwEvaluator *evaluator)
{
  return tw_plugin_get_description (TW_PLUGIN (evaluator));
}

static GStrv
plugin_dup_required_events (TwEvaluator *evaluator)
{
  return dup_selectors (TW_PLUGIN (evaluator));
}

static TwMeasurementTable *
plugin_new_table (TwEvaluator *evaluator)
{
  return tw_plugin_new_table (TW_PLUGIN (evaluator));
}

/* The module's values go into the histogram beside the lengths (emit_value). */
static TwUpdate *
plugin_create_update (TwEvaluator        *evaluator,
                      TwMeasurementTable *table,
                      TwHistogram        *histogram)
{
  return tw_plugin_create_update (TW_PLUGIN (evaluator), table, histogram);
}

static void
tw_plugin_evaluator_init (TwEvaluatorInterface *iface)
{
  iface->get_name = plugin_get_name;
  iface->get_description = plugin_get_description;
  iface->dup_required_events = plugin_dup_required_events;
  iface->new_table = plugin_new_table;
  iface->create_update = plugin_create_update;
}
