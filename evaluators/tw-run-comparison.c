/* tw-run-comparison.c: one evaluation's measurements of two runs, side by side
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two runs of one system are two traces in which the same task has another pid (and
 * often another tid), so tasks are matched by name: the threads of one name are one
 * group, as a user would compare "the control loop" of two runs. Group 0 holds every
 * measurement, including those of no task (per-irq metrics).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tw-run-comparison.h"
#include "tw-time-unit.h"

typedef struct {
  char          *name;        /* NULL for group 0 */
  GArray        *values[2];   /* double ns, sorted once built */
  TwSampleStats  stats[2];
  TwMannWhitney  mann_whitney;
  TwKolmogorovSmirnov kolmogorov_smirnov;
} Group;

struct _TwRunComparison
{
  GObject  parent_instance;
  GArray  *groups;            /* Group */
};

G_DEFINE_FINAL_TYPE (TwRunComparison, tw_run_comparison, G_TYPE_OBJECT)

static void
group_clear (Group *group)
{
  g_clear_pointer (&group->name, g_free);
  g_clear_pointer (&group->values[TW_RUN_A], g_array_unref);
  g_clear_pointer (&group->values[TW_RUN_B], g_array_unref);
}

static void
tw_run_comparison_finalize (GObject *object)
{
  TwRunComparison *self = TW_RUN_COMPARISON (object);

  g_clear_pointer (&self->groups, g_array_unref);
  G_OBJECT_CLASS (tw_run_comparison_parent_class)->finalize (object);
}

static void
tw_run_comparison_class_init (TwRunComparisonClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_run_comparison_finalize;
}

static void
tw_run_comparison_init (TwRunComparison *self)
{
  self->groups = g_array_new (FALSE, TRUE, sizeof (Group));
  g_array_set_clear_func (self->groups, (GDestroyNotify) group_clear);
}

/* The task's name in either run: its host too where the trace holds several. */
static char *
dup_task_name (TwTrace *trace,
               guint32  task)
{
  const TwTask *t;
  const char *name;

  if (task == TW_TASK_NONE || task >= tw_trace_get_n_tasks (trace))
    return NULL;
  t = tw_trace_get_task (trace, task);
  name = t->name ? t->name : t->source_id;
  return t->host ? g_strdup_printf ("%s/%s", t->host, name) : g_strdup (name);
}

static void
collect_names (GHashTable         *names,
               TwMeasurementTable *table,
               TwTrace            *trace)
{
  gsize n = tw_measurement_table_get_n_rows (table);

  for (gsize r = 0; r < n; r++)
    {
      char *name = dup_task_name (trace, tw_measurement_table_get_row (table, r)->task);

      if (name)
        g_hash_table_add (names, name);
    }
}

static void
add_group (TwRunComparison *self,
           const char      *name)
{
  Group group = { .name = g_strdup (name) };

  group.values[TW_RUN_A] = g_array_new (FALSE, FALSE, sizeof (double));
  group.values[TW_RUN_B] = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (self->groups, group);
}

static int
compare_names (const void *a,
               const void *b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Groups 1… in name order, so that output is the same on every run. */
static GHashTable *
make_groups (TwRunComparison    *self,
             TwMeasurementTable *table_a,
             TwTrace            *trace_a,
             TwMeasurementTable *table_b,
             TwTrace            *trace_b)
{
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTable *index = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree const char **sorted = NULL;
  guint n;

  collect_names (names, table_a, trace_a);
  collect_names (names, table_b, trace_b);
  sorted = (const char **) g_hash_table_get_keys_as_array (names, &n);
  qsort (sorted, n, sizeof *sorted, compare_names);
  add_group (self, NULL);
  for (guint i = 0; i < n; i++)
    add_group (self, sorted[i]);
  for (guint i = 1; i < self->groups->len; i++)
    {
      Group *group = &g_array_index (self->groups, Group, i);

      g_hash_table_insert (index, group->name, GUINT_TO_POINTER (i));
    }
  return index;
}

static void
fill_run (TwRunComparison    *self,
          GHashTable         *index,
          TwRun               run,
          TwMeasurementTable *table,
          TwTrace            *trace)
{
  gsize n = tw_measurement_table_get_n_rows (table);
  g_autoptr(GHashTable) task_groups = g_hash_table_new (NULL, NULL);

  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *row = tw_measurement_table_get_row (table, r);
      double length = tw_measurement_table_compensate (table, row);
      gpointer group;

      g_array_append_val (g_array_index (self->groups, Group, 0).values[run], length);
      if (!g_hash_table_lookup_extended (task_groups, GUINT_TO_POINTER (row->task), NULL, &group))
        {
          g_autofree char *name = dup_task_name (trace, row->task);

          group = name ? g_hash_table_lookup (index, name) : NULL;
          g_hash_table_insert (task_groups, GUINT_TO_POINTER (row->task), group);
        }
      if (group)
        g_array_append_val (g_array_index (self->groups, Group, GPOINTER_TO_UINT (group)).values[run],
                            length);
    }
}

static void
group_compute (Group *group)
{
  GArray *a = group->values[TW_RUN_A], *b = group->values[TW_RUN_B];

  tw_sample_sort ((double *) a->data, a->len);
  tw_sample_sort ((double *) b->data, b->len);
  tw_sample_stats_compute ((double *) a->data, a->len, &group->stats[TW_RUN_A]);
  tw_sample_stats_compute ((double *) b->data, b->len, &group->stats[TW_RUN_B]);
  tw_mann_whitney_compute ((double *) a->data, a->len, (double *) b->data, b->len,
                           &group->mann_whitney);
  tw_kolmogorov_smirnov_compute ((double *) a->data, a->len, (double *) b->data, b->len,
                                 &group->kolmogorov_smirnov);
}

/**
 * tw_run_comparison_new:
 * @table_a: the measurements of one evaluation over @trace_a (the reference)
 * @table_b: the same evaluation's over @trace_b
 *
 * Compares the lengths of the measurements, all together (group 0) and per task
 * name: their compensated lengths where a table has an event cost
 * (tw_measurement_table_compensate()).
 */
TwRunComparison *
tw_run_comparison_new (TwMeasurementTable *table_a,
                       TwTrace            *trace_a,
                       TwMeasurementTable *table_b,
                       TwTrace            *trace_b)
{
  TwRunComparison *self;
  g_autoptr(GHashTable) index = NULL;

  g_return_val_if_fail (TW_IS_MEASUREMENT_TABLE (table_a) && TW_IS_MEASUREMENT_TABLE (table_b), NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace_a) && TW_IS_TRACE (trace_b), NULL);

  self = g_object_new (TW_TYPE_RUN_COMPARISON, NULL);
  index = make_groups (self, table_a, trace_a, table_b, trace_b);
  fill_run (self, index, TW_RUN_A, table_a, trace_a);
  fill_run (self, index, TW_RUN_B, table_b, trace_b);
  for (guint i = 0; i < self->groups->len; i++)
    group_compute (&g_array_index (self->groups, Group, i));
  return self;
}

static Group *
get_group (TwRunComparison *self,
           guint            group)
{
  return &g_array_index (self->groups, Group, group);
}

/**
 * tw_run_comparison_get_n_groups:
 *
 * Returns: 1 (every measurement) + the number of task names in either run
 */
guint
tw_run_comparison_get_n_groups (TwRunComparison *self)
{
  g_return_val_if_fail (TW_IS_RUN_COMPARISON (self), 0);
  return self->groups->len;
}

/**
 * tw_run_comparison_get_group_name:
 *
 * Returns: (nullable): the task name (`HOST/NAME` in a trace of several machines),
 *   %NULL for group 0, every measurement
 */
const char *
tw_run_comparison_get_group_name (TwRunComparison *self,
                                  guint            group)
{
  g_return_val_if_fail (TW_IS_RUN_COMPARISON (self), NULL);
  g_return_val_if_fail (group < self->groups->len, NULL);
  return get_group (self, group)->name;
}

gboolean
tw_run_comparison_find_group (TwRunComparison *self,
                              const char      *task_name,
                              guint           *group)
{
  g_return_val_if_fail (TW_IS_RUN_COMPARISON (self), FALSE);

  for (guint i = 1; i < self->groups->len; i++)
    if (strcmp (get_group (self, i)->name, task_name) == 0)
      {
        *group = i;
        return TRUE;
      }
  return FALSE;
}

const TwSampleStats *
tw_run_comparison_get_stats (TwRunComparison *self,
                             guint            group,
                             TwRun            run)
{
  g_return_val_if_fail (TW_IS_RUN_COMPARISON (self), NULL);
  g_return_val_if_fail (group < self->groups->len && run <= TW_RUN_B, NULL);
  return &get_group (self, group)->stats[run];
}

/**
 * tw_run_comparison_get_delta:
 * @absolute: (out) (optional): B − A
 * @relative: (out) (optional): (B − A) / A, NaN when A is 0 or either is NaN
 */
void
tw_run_comparison_get_delta (TwRunComparison *self,
                             guint            group,
                             TwSampleStat     stat,
                             double          *absolute,
                             double          *relative)
{
  const Group *g;
  double a, b;

  g_return_if_fail (TW_IS_RUN_COMPARISON (self));
  g_return_if_fail (group < self->groups->len && stat < TW_N_SAMPLE_STATS);

  g = get_group (self, group);
  a = g->stats[TW_RUN_A].value[stat];
  b = g->stats[TW_RUN_B].value[stat];
  if (absolute)
    *absolute = b - a;
  if (relative)
    *relative = a != 0 ? (b - a) / a : NAN;
}

void
tw_run_comparison_get_tests (TwRunComparison     *self,
                             guint                group,
                             TwMannWhitney       *mann_whitney,
                             TwKolmogorovSmirnov *kolmogorov_smirnov)
{
  g_return_if_fail (TW_IS_RUN_COMPARISON (self));
  g_return_if_fail (group < self->groups->len);

  if (mann_whitney)
    *mann_whitney = get_group (self, group)->mann_whitney;
  if (kolmogorov_smirnov)
    *kolmogorov_smirnov = get_group (self, group)->kolmogorov_smirnov;
}

/**
 * tw_run_comparison_new_histogram:
 *
 * One run's lengths in bins that span both runs, so that the two histograms of a
 * group overlay bin for bin. A log scale starts at the smallest length above zero.
 *
 * Returns: (transfer full): the histogram, its unit ns
 */
TwHistogram *
tw_run_comparison_new_histogram (TwRunComparison  *self,
                                 guint             group,
                                 TwRun             run,
                                 guint             n_bins,
                                 TwHistogramScale  scale)
{
  const Group *g;
  TwHistogram *histogram;
  double lo = INFINITY, hi = -INFINITY;

  g_return_val_if_fail (TW_IS_RUN_COMPARISON (self), NULL);
  g_return_val_if_fail (group < self->groups->len && run <= TW_RUN_B && n_bins > 0, NULL);

  g = get_group (self, group);
  for (guint r = TW_RUN_A; r <= TW_RUN_B; r++)
    {
      GArray *values = g->values[r];

      for (guint i = 0; i < values->len; i++)
        if (scale == TW_HISTOGRAM_SCALE_LINEAR || g_array_index (values, double, i) > 0)
          {
            lo = MIN (lo, g_array_index (values, double, i));
            break;
          }
      if (values->len > 0)
        hi = MAX (hi, g_array_index (values, double, values->len - 1));
    }
  if (!(lo <= hi))
    histogram = tw_histogram_new_auto (n_bins, scale);
  else
    histogram = tw_histogram_new_fixed (lo, hi > lo ? hi : lo + 1, n_bins, scale);
  tw_histogram_set_unit (histogram, "ns");
  tw_histogram_insert_many (histogram, (double *) g->values[run]->data, g->values[run]->len);
  return histogram;
}

/**
 * tw_comparison_gate_parse:
 * @text: STAT>LIMIT or STAT<LIMIT; LIMIT a signed number with `%` or a time unit
 *   (ns, us, µs, ms, s; none for `n`)
 */
gboolean
tw_comparison_gate_parse (const char        *text,
                          TwComparisonGate  *gate,
                          GError           **error)
{
  const char *op = strpbrk (text, "<>");
  g_autofree char *stat_name = NULL;
  const char *unit;
  char *end;
  double scale = 1;

  if (op == NULL || op == text)
    goto bad;
  stat_name = g_strstrip (g_strndup (text, op - text));
  if (!tw_sample_stat_from_name (stat_name, &gate->stat))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--fail-if “%s”: “%s” is not a statistic (n, min, mean, p50, p99, p99.9, max)",
                   text, stat_name);
      return FALSE;
    }
  gate->above = *op == '>';
  gate->limit = g_ascii_strtod (op + 1, &end);
  if (end == op + 1 || !isfinite (gate->limit))
    goto bad;
  unit = end;
  while (*unit == ' ')
    unit++;
  gate->relative = strcmp (unit, "%") == 0;
  if (gate->relative || (gate->stat == TW_SAMPLE_STAT_N && *unit == '\0'))
    return TRUE;
  if (gate->stat != TW_SAMPLE_STAT_N && tw_time_unit_get_ns (unit, &scale))
    {
      gate->limit *= scale;
      return TRUE;
    }

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--fail-if “%s”: expected STAT>LIMIT or STAT<LIMIT, e.g. ‘p99>+10%%’, "
               "‘max>+50us’ (units ns, us, ms, s or %%; a count for n)", text);
  return FALSE;
}

static char *
format_stat_value (TwSampleStat stat,
                   double       value,
                   gboolean     with_sign)
{
  if (stat == TW_SAMPLE_STAT_N)
    return g_strdup_printf (with_sign ? "%+.0f" : "%.0f", value);
  return g_strdup_printf (with_sign ? "%+.3f µs" : "%.3f µs", value / 1e3);
}

/**
 * tw_comparison_gate_check:
 * @failure: (out) (optional): when it fails, a sentence naming the statistic, both
 *   values and the limit
 *
 * A statistic that is NaN in either run (an empty group) fails: a CI gate must not
 * pass a run that measured nothing.
 *
 * Returns: %TRUE when B is within the gate
 */
gboolean
tw_comparison_gate_check (const TwComparisonGate *gate,
                          TwRunComparison        *comparison,
                          guint                   group,
                          char                  **failure)
{
  const TwSampleStats *a = tw_run_comparison_get_stats (comparison, group, TW_RUN_A);
  const TwSampleStats *b = tw_run_comparison_get_stats (comparison, group, TW_RUN_B);
  const char *name = tw_sample_stat_get_name (gate->stat);
  g_autofree char *va = format_stat_value (gate->stat, a->value[gate->stat], FALSE);
  g_autofree char *vb = format_stat_value (gate->stat, b->value[gate->stat], FALSE);
  g_autofree char *limit = gate->relative ? g_strdup_printf ("%+g %%", gate->limit)
                                          : format_stat_value (gate->stat, gate->limit, TRUE);
  g_autofree char *by = NULL;
  double absolute, relative, change;

  tw_run_comparison_get_delta (comparison, group, gate->stat, &absolute, &relative);
  change = gate->relative ? relative * 100 : absolute;
  if (isnan (change))
    {
      if (failure)
        *failure = g_strdup_printf ("%s cannot be compared (A %s, B %s)", name, va, vb);
      return FALSE;
    }
  if (gate->above ? change <= gate->limit : change >= gate->limit)
    return TRUE;
  if (failure == NULL)
    return FALSE;
  by = gate->relative ? g_strdup_printf ("%+.1f %%", change)
                      : format_stat_value (gate->stat, change, TRUE);
  *failure = g_strdup_printf ("%s changed by %s (A %s, B %s); %s %s allowed", name, by, va, vb,
                              gate->above ? "at most" : "at least", limit);
  return FALSE;
}
