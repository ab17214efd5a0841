/* tw-measurement-table.c: measurement rows (task, begin, end, length, intermediate events)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-measurement-table.h"

#include <tw-huge-array.h>

#include <math.h>
#include <string.h>

struct _TwMeasurementTable {
  GObject  parent_instance;

  char    *name;
  GStrv    column_names;
  guint    n_columns;
  /* TwMeasurementRow. A producer may emit millions (an exported automaton: one per few
   * events): on the heap, each doubling would copy the table and fault its new pages in
   * 4 KiB at a time, which costs more than computing the rows. */
  TwHugeArray rows;
  GArray  *columns;   /* double, n_columns per row, row-major */
  guint64  generation;
  double   event_cost_ns;  /* 0: the tracing cost is not known; else every event's, or
                            * with @type_costs the cost of types it does not name */
  /* Per-type costs (nullable: one cost for all): each row's overhead, in ps, is then
   * its producer's sum of its intermediate events' own costs, in @overheads beside
   * @rows (guint64, one per row) */
  TwEventCosts *type_costs;
  TwHugeArray overheads;
};

G_DEFINE_FINAL_TYPE (TwMeasurementTable, tw_measurement_table, G_TYPE_OBJECT)

static void
tw_measurement_table_finalize (GObject *object)
{
  TwMeasurementTable *self = TW_MEASUREMENT_TABLE (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->column_names, g_strfreev);
  tw_huge_array_clear (&self->rows);
  tw_huge_array_clear (&self->overheads);
  g_clear_object (&self->type_costs);
  g_clear_pointer (&self->columns, g_array_unref);

  G_OBJECT_CLASS (tw_measurement_table_parent_class)->finalize (object);
}

static void
tw_measurement_table_class_init (TwMeasurementTableClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_measurement_table_finalize;
}

static void
tw_measurement_table_init (TwMeasurementTable *self)
{
  self->columns = g_array_new (FALSE, FALSE, sizeof (double));
  tw_huge_array_init (&self->rows, sizeof (TwMeasurementRow));
  tw_huge_array_init (&self->overheads, sizeof (guint64));
}

/**
 * tw_measurement_table_new:
 * @column_names: (nullable) (array zero-terminated=1): names of free numeric columns
 *   carried by each row beside the five fixed values (e.g. "irq")
 *
 * Returns: (transfer full): an empty table
 */
TwMeasurementTable *
tw_measurement_table_new (const char *const *column_names)
{
  TwMeasurementTable *self = g_object_new (TW_TYPE_MEASUREMENT_TABLE, NULL);
  static const char *const none[] = { NULL };

  self->column_names = g_strdupv ((char **) (column_names ? column_names : none));
  self->n_columns = g_strv_length (self->column_names);
  return self;
}

/**
 * tw_measurement_table_get_name:
 *
 * Returns: (transfer none) (nullable): what produced the rows (a metric's name)
 */
const char *
tw_measurement_table_get_name (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);
  return self->name;
}

/**
 * tw_measurement_table_set_name:
 *
 * @name: (nullable): what produced the rows
 */
void
tw_measurement_table_set_name (TwMeasurementTable *self,
                               const char         *name)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_free (self->name);
  self->name = g_strdup (name);
}

/**
 * tw_measurement_table_get_n_columns:
 *
 * Returns: the number of free columns
 */
guint
tw_measurement_table_get_n_columns (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  return self->n_columns;
}

/**
 * tw_measurement_table_get_column_name:
 *
 * Returns: (transfer none): the name of free column @column
 */
const char *
tw_measurement_table_get_column_name (TwMeasurementTable *self,
                                      guint               column)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);
  g_return_val_if_fail (column < self->n_columns, NULL);
  return self->column_names[column];
}

/**
 * tw_measurement_table_lookup_column:
 *
 * Returns: the index of the free column @name, or -1
 */
int
tw_measurement_table_lookup_column (TwMeasurementTable *self,
                                    const char         *name)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), -1);

  for (guint c = 0; c < self->n_columns; c++)
    if (g_strcmp0 (self->column_names[c], name) == 0)
      return c;
  return -1;
}

/* A row whose producer does not sum per-type costs: its intermediate events at the
 * cost of the types not named. */
static guint64
uniform_overhead_ps (TwMeasurementTable     *self,
                     const TwMeasurementRow *row)
{
  return (guint64) llround (row->intermediate_events * self->event_cost_ns * 1e3);
}

static void
append_row (TwMeasurementTable     *self,
            const TwMeasurementRow *row,
            guint64                 overhead_ps,
            const double           *columns)
{
  *(TwMeasurementRow *) tw_huge_array_push (&self->rows) = *row;
  if G_UNLIKELY (self->type_costs != NULL)
    *(guint64 *) tw_huge_array_push (&self->overheads) = overhead_ps;
  if (self->n_columns > 0)
    {
      guint at = self->columns->len;

      g_array_set_size (self->columns, at + self->n_columns);
      for (guint c = 0; c < self->n_columns; c++)
        g_array_index (self->columns, double, at + c) = columns ? columns[c] : NAN;
    }
  self->generation++;
}

/**
 * tw_measurement_table_append:
 * @row: the measurement (copied)
 * @columns: (nullable) (array): one value per free column; %NULL leaves them NaN
 */
void
tw_measurement_table_append (TwMeasurementTable  *self,
                             const TwMeasurementRow *row,
                             const double        *columns)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_return_if_fail (row != NULL);

  append_row (self, row, self->type_costs ? uniform_overhead_ps (self, row) : 0, columns);
}

/**
 * tw_measurement_table_append_rows:
 * @rows: (array length=n_rows): rows in order
 *
 * Appends @n_rows rows at once; their free columns stay empty (NaN).
 */
void
tw_measurement_table_append_rows (TwMeasurementTable     *self,
                                  const TwMeasurementRow *rows,
                                  gsize                   n_rows)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_return_if_fail (rows != NULL || n_rows == 0);

  if (n_rows == 0)
    return;
  tw_huge_array_append (&self->rows, rows, n_rows);
  for (gsize r = 0; self->type_costs != NULL && r < n_rows; r++)
    *(guint64 *) tw_huge_array_push (&self->overheads) = uniform_overhead_ps (self, &rows[r]);
  if (self->n_columns > 0)
    {
      guint at = self->columns->len;

      g_array_set_size (self->columns, at + n_rows * self->n_columns);
      for (gsize c = 0; c < n_rows * self->n_columns; c++)
        g_array_index (self->columns, double, at + c) = NAN;
    }
  self->generation++;
}

/**
 * tw_measurement_table_clear:
 *
 * Drops every row.
 */
void
tw_measurement_table_clear (TwMeasurementTable *self)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  tw_huge_array_clear (&self->rows);
  tw_huge_array_clear (&self->overheads);
  g_array_set_size (self->columns, 0);
  self->generation++;
}

/**
 * tw_measurement_table_get_n_rows:
 *
 * Returns: the number of measurements
 */
gsize
tw_measurement_table_get_n_rows (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  return self->rows.len;
}

/**
 * tw_measurement_table_get_row:
 *
 * Returns: (transfer none): the row; valid until the next append
 */
const TwMeasurementRow *
tw_measurement_table_get_row (TwMeasurementTable *self,
                              gsize               row)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);
  g_return_val_if_fail (row < self->rows.len, NULL);
  return &TW_HUGE_ARRAY_AT (&self->rows, TwMeasurementRow, row);
}

/**
 * tw_measurement_table_get_value:
 *
 * Returns: the free column @column of @row (NaN when the producer left it empty)
 */
double
tw_measurement_table_get_value (TwMeasurementTable *self,
                                gsize               row,
                                guint               column)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NAN);
  g_return_val_if_fail (row < self->rows.len && column < self->n_columns, NAN);
  return g_array_index (self->columns, double, row * self->n_columns + column);
}

/**
 * tw_measurement_table_get_generation:
 *
 * Returns: a number that changes with every append or clear (views poll it)
 */
guint64
tw_measurement_table_get_generation (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  return self->generation;
}

/**
 * tw_measurement_table_set_event_cost:
 * @cost_ns: what storing one event cost the tracing system (tw-event-cost.h), 0 for
 *   unknown
 *
 * With a cost, each row has a compensated length beside its raw one, and the CSV a
 * `compensated_length_ns` column.
 */
void
tw_measurement_table_set_event_cost (TwMeasurementTable *self,
                                     double              cost_ns)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_return_if_fail (cost_ns >= 0);
  g_return_if_fail (self->rows.len == 0 || self->type_costs == NULL);
  g_clear_object (&self->type_costs);
  self->event_cost_ns = cost_ns;
}

/* Returns: the cost of one event (with per-type costs: of the types they do not name) */
double
tw_measurement_table_get_event_cost (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  return self->event_cost_ns;
}

/**
 * tw_measurement_table_set_event_costs:
 * @costs: (nullable): the cost of each event type; %NULL for none
 *
 * Before the first row. Costs of one figure are tw_measurement_table_set_event_cost();
 * with costs per type, the producer gives each row's overhead
 * (tw_measurement_table_append_with_overhead()), which it learns from the evaluation
 * (tw_evaluation_use_event_costs()): every built-in metric does.
 */
void
tw_measurement_table_set_event_costs (TwMeasurementTable *self,
                                      TwEventCosts       *costs)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_return_if_fail (self->rows.len == 0);

  g_clear_object (&self->type_costs);
  self->event_cost_ns = costs ? tw_event_costs_get_default (costs) : 0;
  if (costs != NULL && !tw_event_costs_is_uniform (costs))
    self->type_costs = g_object_ref (costs);
}

/**
 * tw_measurement_table_get_type_costs:
 *
 * Returns: (transfer none) (nullable): the per-type costs its producer sums, %NULL
 *   when every event costs tw_measurement_table_get_event_cost()
 */
TwEventCosts *
tw_measurement_table_get_type_costs (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);
  return self->type_costs;
}

/* Returns: whether its rows have a compensated length */
gboolean
tw_measurement_table_has_event_cost (TwMeasurementTable *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), FALSE);
  return self->event_cost_ns > 0 || self->type_costs != NULL;
}

/**
 * tw_measurement_table_dup_event_cost_text:
 *
 * Returns: (transfer full) (nullable): how headings name the costs subtracted
 *   (tw_event_costs_to_string()), %NULL without
 */
char *
tw_measurement_table_dup_event_cost_text (TwMeasurementTable *self)
{
  g_autoptr(TwEventCosts) uniform = NULL;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);
  if (self->type_costs != NULL)
    return tw_event_costs_to_string (self->type_costs);
  if (self->event_cost_ns <= 0)
    return NULL;
  uniform = tw_event_costs_new_uniform (self->event_cost_ns);
  return tw_event_costs_to_string (uniform);
}

/**
 * tw_measurement_table_append_with_overhead:
 * @overhead_ps: what storing the row's intermediate events cost, summed per type
 *
 * tw_measurement_table_append() for a producer that sums the per-type costs.
 */
void
tw_measurement_table_append_with_overhead (TwMeasurementTable     *self,
                                           const TwMeasurementRow *row,
                                           guint64                 overhead_ps,
                                           const double           *columns)
{
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (self));
  g_return_if_fail (row != NULL);

  append_row (self, row, overhead_ps, columns);
}

/**
 * tw_measurement_table_get_overhead:
 * @row: a row of @self (tw_measurement_table_get_row())
 *
 * Returns: the tracing overhead of @row in ns: its intermediate events times the
 *   cost, or with per-type costs the sum its producer gave, rounded to the ns
 */
guint64
tw_measurement_table_get_overhead (TwMeasurementTable     *self,
                                   const TwMeasurementRow *row)
{
  gsize index;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  if G_LIKELY (self->type_costs == NULL)
    return (guint64) round (row->intermediate_events * self->event_cost_ns);
  index = ((const guint8 *) row - self->rows.data) / sizeof (TwMeasurementRow);
  g_return_val_if_fail (index < self->overheads.len, 0);
  return (TW_HUGE_ARRAY_AT (&self->overheads, guint64, index) + 500) / 1000;
}

/**
 * tw_measurement_table_compensate:
 * @row: a row of @self (tw_measurement_table_get_row())
 *
 * Espinosa et al. 2003 §2: the length without the time the tracing system spent
 * storing the measurement's intermediate events, Length − overhead
 * (tw_measurement_table_get_overhead()), never below 0 (a cost calibrated on another
 * load may exceed what a short measurement held).
 *
 * Returns: the compensated length in ns; the raw length without an event cost
 */
guint64
tw_measurement_table_compensate (TwMeasurementTable     *self,
                                 const TwMeasurementRow *row)
{
  guint64 overhead;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), 0);
  overhead = tw_measurement_table_get_overhead (self, row);
  return overhead >= row->length ? 0 : row->length - overhead;
}

/**
 * tw_measurement_table_dup_task_label:
 *
 * How tables name a task: the task's id as its source names it (TwTask.source_id:
 * the pid/tid for ftrace, the task number for S.Ha.R.K., the `task` cell for CSV), so
 * that a CSV row can be matched against the source; empty for TW_TASK_NONE.
 *
 * Returns: (transfer full): the label
 */
char *
tw_measurement_table_dup_task_label (TwTrace *trace,
                                     guint32  task)
{
  const TwTask *t;

  if (task == TW_TASK_NONE || trace == NULL || task >= tw_trace_get_n_tasks (trace))
    return g_strdup ("");
  t = tw_trace_get_task (trace, task);
  return g_strdup (t->source_id ? t->source_id : "");
}

static void
append_csv_field (GString    *out,
                  const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* @lost: (nullable): the trace's losses, for the `lost` column */
static void
append_rows (TwMeasurementTable *self,
             TwTrace            *trace,
             TwLostEvents       *lost,
             GString            *out,
             gsize               first,
             gsize               end)
{
  for (gsize r = first; r < end; r++)
    {
      const TwMeasurementRow *m = &TW_HUGE_ARRAY_AT (&self->rows, TwMeasurementRow, r);
      g_autofree char *label = tw_measurement_table_dup_task_label (trace, m->task);

      append_csv_field (out, label);
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",%u,%" G_GUINT64_FORMAT,
                              m->begin, m->end, m->length, m->intermediate_events,
                              lost ? tw_lost_events_count_between (lost, m->begin, m->end) : 0);
      if (tw_measurement_table_has_event_cost (self))
        g_string_append_printf (out, ",%" G_GUINT64_FORMAT, tw_measurement_table_compensate (self, m));
      for (guint c = 0; c < self->n_columns; c++)
        {
          double v = g_array_index (self->columns, double, r * self->n_columns + c);
          char buf[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append_c (out, ',');
          if (!isnan (v))
            g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v));
        }
      g_string_append_c (out, '\n');
    }
}

static void
append_header (TwMeasurementTable *self,
               GString            *out)
{
  g_string_append (out, "task,begin_ns,end_ns,length_ns,intermediate_events,lost");
  if (tw_measurement_table_has_event_cost (self))
    g_string_append (out, ",compensated_length_ns");
  for (guint c = 0; c < self->n_columns; c++)
    {
      g_string_append_c (out, ',');
      append_csv_field (out, self->column_names[c]);
    }
  g_string_append_c (out, '\n');
}

/**
 * tw_measurement_table_write_csv:
 * @trace: (nullable): names the tasks (see tw_measurement_table_dup_task_label())
 *
 * Writes the header `task,begin_ns,end_ns,length_ns,intermediate_events,lost` (then the
 * free columns, if any) and one line per row. Times are integers in the trace's time
 * base: for a CSV source exactly its `time_ns` values. Empty cells for NaN columns.
 * `lost` is how many events the source dropped, on any CPU, while the measurement ran
 * (tw_lost_events_count_between(); 0 without @trace): when it is not 0 the length may
 * be wrong, since the events that would have ended or split it may be among them.
 * With an event cost, `compensated_length_ns` follows (tw_measurement_table_compensate()).
 *
 * Returns: %FALSE on a write error (@error set)
 */
gboolean
tw_measurement_table_write_csv (TwMeasurementTable  *self,
                                TwTrace             *trace,
                                GOutputStream       *stream,
                                GCancellable        *cancellable,
                                GError             **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(TwLostEvents) lost = NULL;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  lost = trace ? tw_lost_events_new (trace) : NULL;
  append_header (self, out);
  for (gsize r = 0; r < self->rows.len; r += 4096)
    {
      append_rows (self, trace, lost, out, r, MIN (r + 4096, self->rows.len));
      if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
        return FALSE;
      g_string_truncate (out, 0);
    }
  return out->len == 0 ||
         g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error);
}

/**
 * tw_measurement_table_to_csv:
 * @trace: (nullable): names the tasks
 *
 * Returns: (transfer full): the CSV text of tw_measurement_table_write_csv()
 */
char *
tw_measurement_table_to_csv (TwMeasurementTable *self,
                             TwTrace            *trace)
{
  g_autoptr(TwLostEvents) lost = NULL;
  GString *out;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (self), NULL);

  lost = trace ? tw_lost_events_new (trace) : NULL;
  out = g_string_new (NULL);
  append_header (self, out);
  append_rows (self, trace, lost, out, 0, self->rows.len);
  return g_string_free (out, FALSE);
}
