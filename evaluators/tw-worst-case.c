/* tw-worst-case.c: per-task worst cases across metrics and the response-time analysis
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-worst-case.h"

#include "tw-metrics.h"
#include "tw-worst-case-evaluator.h"

#include <math.h>

#define MAX_ITERATIONS 100000

typedef struct {
  char            *name;
  TwWorstCaseRole  role;
  GArray          *max;        /* double per task index, NaN = no measurement */
  GArray          *last_begin; /* guint64 per task (execution role) */
  GArray          *period;     /* double per task: smallest release distance, 0 = none */
} Column;

struct _TwWorstCase {
  GObject  parent_instance;
  GArray  *columns;            /* Column */
  guint32  n_tasks;            /* 1 + largest task index seen */
  double   event_cost_ns;      /* subtracted from its length cells; 0: none */
  char    *event_cost_text;    /* how its tables name their costs; NULL: none */
};

G_DEFINE_FINAL_TYPE (TwWorstCase, tw_worst_case, G_TYPE_OBJECT)

/* The free columns of a worst-case run's table, before its last one, the period
 * (tw_worst_case_new_for_table()). */
static const struct {
  const char      *name;
  TwWorstCaseRole  role;
} summary_columns[] = {
  { "execution", TW_WORST_CASE_ROLE_EXECUTION },
  { "job_system_time", TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME },
  { "system_blocking_irq", TW_WORST_CASE_ROLE_SYSTEM_BLOCKING },
  { "system_blocking_softirq", TW_WORST_CASE_ROLE_SYSTEM_BLOCKING },
  { "delay_until_wakeup", TW_WORST_CASE_ROLE_WAKEUP },
};

static void
column_clear (gpointer data)
{
  Column *c = data;

  g_free (c->name);
  g_clear_pointer (&c->max, g_array_unref);
  g_clear_pointer (&c->last_begin, g_array_unref);
  g_clear_pointer (&c->period, g_array_unref);
}

static void
tw_worst_case_finalize (GObject *object)
{
  TwWorstCase *self = TW_WORST_CASE (object);

  g_clear_pointer (&self->columns, g_array_unref);
  g_clear_pointer (&self->event_cost_text, g_free);
  G_OBJECT_CLASS (tw_worst_case_parent_class)->finalize (object);
}

static void
tw_worst_case_class_init (TwWorstCaseClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_worst_case_finalize;
}

static void
tw_worst_case_init (TwWorstCase *self)
{
  self->columns = g_array_new (FALSE, TRUE, sizeof (Column));
  g_array_set_clear_func (self->columns, column_clear);
}

/**
 * tw_worst_case_new:
 *
 * The per-task worst-case summary of Espinosa 2003 Fig. 4: one row per task, one column per
 * metric, each cell the largest measurement of that task.
 *
 * Returns: (transfer full): an empty summary
 */
TwWorstCase *
tw_worst_case_new (void)
{
  return g_object_new (TW_TYPE_WORST_CASE, NULL);
}

static void
grow (GArray *array,
      guint   n,
      double  fill)
{
  guint old = array->len;

  if (n <= old)
    return;
  g_array_set_size (array, n);
  for (guint i = old; i < n; i++)
    g_array_index (array, double, i) = fill;
}

static Column
column_new (const char      *name,
            TwWorstCaseRole  role)
{
  Column col = { 0 };

  col.name = g_strdup (name);
  col.role = role;
  col.max = g_array_new (FALSE, FALSE, sizeof (double));
  col.last_begin = g_array_new (FALSE, TRUE, sizeof (guint64));
  col.period = g_array_new (FALSE, FALSE, sizeof (double));
  return col;
}

static void
column_ensure_task (TwWorstCase *self,
                    Column      *col,
                    guint32      task)
{
  if (task >= col->max->len)
    {
      guint len = MAX (task + 1, col->max->len * 2);

      grow (col->max, len, NAN);
      grow (col->period, len, 0);
      g_array_set_size (col->last_begin, len);
    }
  self->n_tasks = MAX (self->n_tasks, task + 1);
}

/**
 * tw_worst_case_add_column:
 * @name: the column's title
 * @table: the measurements of one metric
 * @free_column: -1 for the lengths, else the index of a free column of @table whose
 *   per-task maximum to take (e.g. a user metric's irq_ns for JST)
 * @role: how the response-time analysis uses the column
 */
void
tw_worst_case_add_column (TwWorstCase        *self,
                          const char         *name,
                          TwMeasurementTable *table,
                          int                 free_column,
                          TwWorstCaseRole     role)
{
  Column col;
  gsize n;

  g_return_if_fail (TW_IS_WORST_CASE (self));
  g_return_if_fail (TW_IS_MEASUREMENT_TABLE (table));
  g_return_if_fail (free_column < (int) tw_measurement_table_get_n_columns (table));

  col = column_new (name, role);
  if (free_column < 0)
    self->event_cost_ns = MAX (self->event_cost_ns, tw_measurement_table_get_event_cost (table));
  if (self->event_cost_text == NULL)
    self->event_cost_text = tw_measurement_table_dup_event_cost_text (table);
  n = tw_measurement_table_get_n_rows (table);
  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (table, r);
      double v = free_column < 0 ? (double) tw_measurement_table_compensate (table, m)
                                 : tw_measurement_table_get_value (table, r, free_column);
      double *cell;
      double *period;
      guint64 *last;

      if (m->task == TW_TASK_NONE || isnan (v))
        continue;
      column_ensure_task (self, &col, m->task);
      cell = &g_array_index (col.max, double, m->task);
      period = &g_array_index (col.period, double, m->task);
      last = &g_array_index (col.last_begin, guint64, m->task);
      /* Releases are the begin times of the jobs; the smallest distance is the period
       * (the worst case for interference). +1 marks "seen" in last_begin. */
      if (*last != 0 && m->begin + 1 > *last)
        {
          double d = (double) (m->begin + 1 - *last);

          if (*period == 0 || d < *period)
            *period = d;
        }
      *last = m->begin + 1;
      if (isnan (*cell) || v > *cell)
        *cell = v;
    }
  g_array_append_val (self->columns, col);
}

/**
 * tw_worst_case_new_for_table:
 * @table: a per-task table as a worst-case run leaves it (tw-worst-case-evaluator.h):
 *   one row per task, the free columns of tw_worst_case_evaluator_new_table() (the Fig. 4
 *   columns, then the period)
 *
 * Returns: (transfer full): the summary the table holds, its columns in the roles the
 *   analysis gives them
 */
TwWorstCase *
tw_worst_case_new_for_table (TwMeasurementTable *table)
{
  g_autoptr(TwWorstCase) self = tw_worst_case_new ();
  guint n_columns;
  gsize n_rows;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (table), NULL);
  n_columns = tw_measurement_table_get_n_columns (table);
  g_return_val_if_fail (n_columns == G_N_ELEMENTS (summary_columns) + 1, NULL);

  n_rows = tw_measurement_table_get_n_rows (table);
  self->event_cost_ns = tw_measurement_table_get_event_cost (table);
  self->event_cost_text = tw_measurement_table_dup_event_cost_text (table);
  for (guint c = 0; c < G_N_ELEMENTS (summary_columns); c++)
    {
      Column col = column_new (summary_columns[c].name, summary_columns[c].role);

      for (gsize r = 0; r < n_rows; r++)
        {
          guint32 task = tw_measurement_table_get_row (table, r)->task;
          double v = tw_measurement_table_get_value (table, r, c);

          if (task == TW_TASK_NONE || isnan (v))
            continue;
          column_ensure_task (self, &col, task);
          g_array_index (col.max, double, task) = v;
          g_array_index (col.period, double, task) =
            tw_measurement_table_get_value (table, r, n_columns - 1);
        }
      g_array_append_val (self->columns, col);
    }
  return g_steal_pointer (&self);
}

/**
 * tw_worst_case_evaluate:
 * @initial_event: the event a task logs when a job starts (e.g. "task_activate")
 * @final_event: the event it logs when the job ends (e.g. "task_end_cycle")
 * @progress: (nullable): fraction done
 * @cancellable: (nullable): stops the scan
 *
 * Measures the terms Espinosa et al. 2003 §4 needs in one pass over @trace (see
 * tw_worst_case_evaluator_new()) and fills the Fig. 4 table with them.
 *
 * Returns: (transfer full) (nullable): the summary; %NULL with @error set when
 *   cancelled, when @trace has no event of a name (TW_METRIC_ERROR_UNKNOWN_EVENT) or
 *   when no task logged a job (TW_METRIC_ERROR_NO_DATA)
 */
TwWorstCase *
tw_worst_case_evaluate (TwTrace         *trace,
                        const char      *initial_event,
                        const char      *final_event,
                        TwProgressFunc   progress,
                        gpointer         progress_data,
                        GCancellable    *cancellable,
                        GError         **error)
{
  g_autoptr(TwWorstCaseEvaluator) evaluator = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);
  g_return_val_if_fail (initial_event != NULL && final_event != NULL, NULL);

  evaluator = tw_worst_case_evaluator_new (initial_event, final_event);
  if (!tw_evaluator_check (TW_EVALUATOR (evaluator), trace, error) ||
      !(table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), trace, NULL, progress,
                                       progress_data, cancellable, error)))
    return NULL;
  return tw_worst_case_evaluator_new_worst_case (evaluator, table, error);
}

/**
 * tw_worst_case_dup_event_cost_text:
 *
 * Returns: (transfer full) (nullable): the tracing costs subtracted from the length
 *   cells as headings name them (`2.000 µs per event`, or per type), %NULL when none
 */
char *
tw_worst_case_dup_event_cost_text (TwWorstCase *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), NULL);
  return g_strdup (self->event_cost_text);
}

/**
 * tw_worst_case_get_event_cost:
 *
 * Returns: the tracing cost per event subtracted from the length cells (execution,
 *   blocking, delay until wakeup) and so from the response-time analysis; 0 when the
 *   cells are raw lengths
 */
double
tw_worst_case_get_event_cost (TwWorstCase *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), 0);
  return self->event_cost_ns;
}

/**
 * tw_worst_case_get_n_columns:
 *
 * Returns: the number of metric columns
 */
guint
tw_worst_case_get_n_columns (TwWorstCase *self)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), 0);
  return self->columns->len;
}

/**
 * tw_worst_case_get_column_name:
 *
 * Returns: (transfer none): the title of @column
 */
const char *
tw_worst_case_get_column_name (TwWorstCase *self,
                               guint        column)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), NULL);
  g_return_val_if_fail (column < self->columns->len, NULL);
  return g_array_index (self->columns, Column, column).name;
}

static double
cell (TwWorstCase *self,
      guint        column,
      guint32      task)
{
  Column *c = &g_array_index (self->columns, Column, column);

  return task < c->max->len ? g_array_index (c->max, double, task) : NAN;
}

static gboolean
task_has_values (TwWorstCase *self,
                 guint32      task)
{
  for (guint c = 0; c < self->columns->len; c++)
    if (!isnan (cell (self, c, task)))
      return TRUE;
  return FALSE;
}

/**
 * tw_worst_case_get_n_rows:
 *
 * Returns: the number of tasks with at least one measurement
 */
guint
tw_worst_case_get_n_rows (TwWorstCase *self)
{
  guint n = 0;

  g_return_val_if_fail (TW_IS_WORST_CASE (self), 0);
  for (guint32 t = 0; t < self->n_tasks; t++)
    n += task_has_values (self, t);
  return n;
}

/**
 * tw_worst_case_get_task:
 *
 * Returns: the task of @row (rows in task-index order)
 */
guint32
tw_worst_case_get_task (TwWorstCase *self,
                        guint        row)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), TW_TASK_NONE);
  for (guint32 t = 0; t < self->n_tasks; t++)
    if (task_has_values (self, t) && row-- == 0)
      return t;
  return TW_TASK_NONE;
}

/**
 * tw_worst_case_get_value:
 *
 * Returns: the largest measurement of the row's task in @column (ns), NaN when none
 */
double
tw_worst_case_get_value (TwWorstCase *self,
                         guint        row,
                         guint        column)
{
  g_return_val_if_fail (TW_IS_WORST_CASE (self), NAN);
  g_return_val_if_fail (column < self->columns->len, NAN);
  return cell (self, column, tw_worst_case_get_task (self, row));
}

static double
role_value (TwWorstCase     *self,
            TwWorstCaseRole  role,
            guint32          task,
            double          *period)
{
  double sum = 0;

  for (guint c = 0; c < self->columns->len; c++)
    {
      Column *col = &g_array_index (self->columns, Column, c);
      double v;

      if (col->role != role)
        continue;
      v = cell (self, c, task);
      if (!isnan (v))
        sum += v;
      if (period && task < col->period->len)
        *period = g_array_index (col->period, double, task);
    }
  return sum;
}

/**
 * tw_worst_case_get_period:
 *
 * Returns: T of the row's task (ns): the smallest distance between two releases of
 *   its jobs (the begin times of its execution measurements), 0 with fewer than two
 */
double
tw_worst_case_get_period (TwWorstCase *self,
                          guint        row)
{
  double period = 0;

  g_return_val_if_fail (TW_IS_WORST_CASE (self), 0);
  role_value (self, TW_WORST_CASE_ROLE_EXECUTION, tw_worst_case_get_task (self, row), &period);
  return period;
}

static int
compare_priority (gconstpointer a,
                  gconstpointer b)
{
  const TwResponseTime *x = a;
  const TwResponseTime *y = b;
  double px = x->period > 0 ? x->period : INFINITY;
  double py = y->period > 0 ? y->period : INFINITY;

  if (px != py)
    return px < py ? -1 : 1;
  return (x->task > y->task) - (x->task < y->task);
}

static double
jobs_in (double window,
         double period)
{
  /* ⌈R/T⌉; a task without a period released once in the window. */
  return period > 0 ? ceil (window / period) : 1;
}

/**
 * tw_worst_case_analyse:
 *
 * The response-time analysis of Espinosa 2003 eq. (1) with the measured system terms:
 * R_i = C_i + B_i + Σ_{j∈hp(i)} ⌈R_i/T_j⌉ C_j, with C_i = C_i^user + JST_i (2),
 * B_i = B_i^activation + B_i^critical (3), B_i^critical = max {SB_k : k ∈ lp(i)} (4)
 * and B_i^activation = Σ_{k∈lp(i)} ⌈R_i/T_k⌉ DUW_k (5), solved by fixed-point
 * iteration from R_i = C_i + B_i^critical. Only tasks with an execution measurement
 * take part; the other roles are the per-task maxima of their columns (0 if none).
 *
 * Returns: (transfer full) (element-type TwResponseTime): one row per task, highest
 *   priority first
 */
GArray *
tw_worst_case_analyse (TwWorstCase *self)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (TwResponseTime));
  g_autofree double *jst = NULL;
  g_autofree double *sb = NULL;
  g_autofree double *duw = NULL;
  guint n;

  g_return_val_if_fail (TW_IS_WORST_CASE (self), rows);

  for (guint32 t = 0; t < self->n_tasks; t++)
    {
      TwResponseTime rt = { .task = t };
      double cuser = 0;
      gboolean has = FALSE;

      for (guint c = 0; c < self->columns->len; c++)
        if (g_array_index (self->columns, Column, c).role == TW_WORST_CASE_ROLE_EXECUTION &&
            !isnan (cell (self, c, t)))
          has = TRUE;
      if (!has)
        continue;
      cuser = role_value (self, TW_WORST_CASE_ROLE_EXECUTION, t, &rt.period);
      rt.execution = cuser;
      g_array_append_val (rows, rt);
    }
  g_array_sort (rows, compare_priority);
  n = rows->len;
  jst = g_new0 (double, MAX (n, 1));
  sb = g_new0 (double, MAX (n, 1));
  duw = g_new0 (double, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      TwResponseTime *rt = &g_array_index (rows, TwResponseTime, i);

      rt->priority = i;
      jst[i] = role_value (self, TW_WORST_CASE_ROLE_JOB_SYSTEM_TIME, rt->task, NULL);
      sb[i] = role_value (self, TW_WORST_CASE_ROLE_SYSTEM_BLOCKING, rt->task, NULL);
      duw[i] = role_value (self, TW_WORST_CASE_ROLE_WAKEUP, rt->task, NULL);
      rt->execution += jst[i];
    }

  for (guint i = 0; i < n; i++)
    {
      TwResponseTime *rt = &g_array_index (rows, TwResponseTime, i);
      double critical = 0;
      double r, next = 0, activation = 0;

      for (guint k = i + 1; k < n; k++)
        critical = MAX (critical, sb[k]);

      r = rt->execution + critical;
      rt->converged = FALSE;
      for (guint it = 0; it < MAX_ITERATIONS; it++)
        {
          activation = 0;
          next = rt->execution + critical;
          for (guint k = i + 1; k < n; k++)
            activation += jobs_in (r, g_array_index (rows, TwResponseTime, k).period) * duw[k];
          next += activation;
          for (guint j = 0; j < i; j++)
            {
              const TwResponseTime *hp = &g_array_index (rows, TwResponseTime, j);

              next += jobs_in (r, hp->period) * hp->execution;
            }
          if (next == r)
            {
              rt->converged = TRUE;
              break;
            }
          r = next;
          if (rt->period > 0 && r > rt->period)
            break;
        }
      rt->response = r;
      rt->blocking = activation + critical;
    }
  return rows;
}

static void
append_ns (GString *out,
           double   v)
{
  g_string_append_c (out, ',');
  if (!isnan (v))
    g_string_append_printf (out, "%.0f", v);
}

/**
 * tw_worst_case_to_csv:
 * @trace: (nullable): names the tasks (their source ids)
 *
 * Returns: (transfer full): `task,<column>...` with the per-task maxima in ns
 */
char *
tw_worst_case_to_csv (TwWorstCase *self,
                      TwTrace     *trace)
{
  GString *out = g_string_new ("task");

  g_return_val_if_fail (TW_IS_WORST_CASE (self), NULL);

  for (guint c = 0; c < self->columns->len; c++)
    g_string_append_printf (out, ",%s", g_array_index (self->columns, Column, c).name);
  g_string_append_c (out, '\n');
  for (guint32 t = 0; t < self->n_tasks; t++)
    {
      g_autofree char *label = NULL;

      if (!task_has_values (self, t))
        continue;
      label = tw_measurement_table_dup_task_label (trace, t);
      g_string_append (out, label);
      for (guint c = 0; c < self->columns->len; c++)
        append_ns (out, cell (self, c, t));
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

/**
 * tw_worst_case_analysis_to_csv:
 * @trace: (nullable): names the tasks
 *
 * Returns: (transfer full): `task,priority,period_ns,C_ns,B_ns,R_ns,converged`
 */
char *
tw_worst_case_analysis_to_csv (TwWorstCase *self,
                               TwTrace     *trace)
{
  g_autoptr(GArray) rows = tw_worst_case_analyse (self);
  GString *out = g_string_new ("task,priority,period_ns,C_ns,B_ns,R_ns,converged\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const TwResponseTime *rt = &g_array_index (rows, TwResponseTime, i);
      g_autofree char *label = tw_measurement_table_dup_task_label (trace, rt->task);

      g_string_append_printf (out, "%s,%u", label, rt->priority);
      append_ns (out, rt->period > 0 ? rt->period : NAN);
      append_ns (out, rt->execution);
      append_ns (out, rt->blocking);
      append_ns (out, rt->response);
      g_string_append_printf (out, ",%s\n", rt->converged ? "yes" : "no");
    }
  return g_string_free (out, FALSE);
}

/**
 * tw_worst_case_new_table:
 *
 * Returns: (transfer full): an empty per-task table in the form
 *   tw_worst_case_fill_table() writes and tw_worst_case_new_for_table() reads
 */
TwMeasurementTable *
tw_worst_case_new_table (void)
{
  const char *names[G_N_ELEMENTS (summary_columns) + 2];
  TwMeasurementTable *table;

  for (guint c = 0; c < G_N_ELEMENTS (summary_columns); c++)
    names[c] = summary_columns[c].name;
  names[G_N_ELEMENTS (summary_columns)] = "period_ns";
  names[G_N_ELEMENTS (summary_columns) + 1] = NULL;
  table = tw_measurement_table_new (names);
  tw_measurement_table_set_name (table, "worst case");
  return table;
}

/* Per task, the row of its longest job in @jobs, or G_MAXSIZE. */
static GArray *
longest_jobs (TwMeasurementTable *jobs,
              guint32             n_tasks)
{
  GArray *longest = g_array_new (FALSE, FALSE, sizeof (gsize));

  g_array_set_size (longest, n_tasks);
  for (guint32 t = 0; t < n_tasks; t++)
    g_array_index (longest, gsize, t) = G_MAXSIZE;
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (jobs); r++)
    {
      const TwMeasurementRow *m = tw_measurement_table_get_row (jobs, r);
      gsize *best;

      if (m->task >= n_tasks)
        continue;
      best = &g_array_index (longest, gsize, m->task);
      if (*best == G_MAXSIZE ||
          tw_measurement_table_compensate (jobs, m) >
          tw_measurement_table_compensate (jobs, tw_measurement_table_get_row (jobs, *best)))
        *best = r;
    }
  return longest;
}

/**
 * tw_worst_case_fill_table:
 * @self: a summary whose columns are those of tw_worst_case_new_table()
 * @jobs: the job measurements its execution column came from
 * @table: (transfer none): a table from tw_worst_case_new_table(); its rows are replaced
 * @histogram: (nullable): receives each task's longest job
 *
 * One row per task: its longest job's task, begin, end, length and intermediate events
 * (all 0 for a task without a job), then the Fig. 4 cells and the period, in ns.
 */
void
tw_worst_case_fill_table (TwWorstCase        *self,
                          TwMeasurementTable *jobs,
                          TwMeasurementTable *table,
                          TwHistogram        *histogram)
{
  guint n_columns = G_N_ELEMENTS (summary_columns);
  g_autoptr(GArray) longest = NULL;
  double values[G_N_ELEMENTS (summary_columns) + 1];

  g_return_if_fail (TW_IS_WORST_CASE (self));
  g_return_if_fail (self->columns->len == n_columns);
  g_return_if_fail (tw_measurement_table_get_n_columns (table) == n_columns + 1);

  longest = longest_jobs (jobs, self->n_tasks);
  tw_measurement_table_clear (table);
  for (guint32 task = 0; task < self->n_tasks; task++)
    {
      gsize job = g_array_index (longest, gsize, task);
      TwMeasurementRow row = { .task = task };
      guint64 overhead_ns = 0;

      if (!task_has_values (self, task))
        continue;
      if (job != G_MAXSIZE)
        {
          row = *tw_measurement_table_get_row (jobs, job);
          /* with per-type costs its overhead is the job's sum, not a count × cost */
          overhead_ns = tw_measurement_table_get_overhead (jobs, tw_measurement_table_get_row (jobs, job));
          if (histogram)
            tw_histogram_insert (histogram, (double) row.length);
        }
      for (guint c = 0; c < n_columns; c++)
        values[c] = cell (self, c, task);
      values[n_columns] = 0;
      role_value (self, TW_WORST_CASE_ROLE_EXECUTION, task, &values[n_columns]);
      tw_measurement_table_append_with_overhead (table, &row, overhead_ns * 1000, values);
    }
}
