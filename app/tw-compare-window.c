/* tw-compare-window.c: two runs, one evaluation, side by side (`tracewb A B --compare`)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What `tracewb-cli compare` prints, in a window: both traces are read, then the
 * chosen evaluator runs over each and TwRunComparison sets their lengths side by side
 * — the histograms overlaid in shared bins, the statistics with their changes, the two
 * tests and a table per task. Reading and evaluating run in a thread each, with
 * progress and Cancel; the thread touches no widget (progress is read from the main
 * loop).
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <tw-ingest.h>

#include "tw-compare-timelines.h"
#include "tw-compare-window.h"

/* the per-task table shows this many tasks, those of the longest max in B first */
#define MAX_TASK_ROWS 100

struct _TwCompareWindow
{
  GtkApplicationWindow parent_instance;

  /* template widgets */
  GtkWidget       *controls;
  GtkWidget       *evaluator;
  GtkWidget       *task;
  GtkWidget       *compensate;
  GtkWidget       *log_lengths;
  GtkWidget       *stack;
  GtkWidget       *working_label;
  GtkWidget       *progress;
  GtkWidget       *error_label;
  GtkWidget       *runs_label;
  GtkWidget       *histogram;
  GtkWidget       *stats;
  GtkWidget       *tests;
  GtkWidget       *tasks;
  GtkWidget       *views;
  GtkWidget       *timelines;

  /* owned */
  GFile           *files[2];
  TwTrace         *traces[2];
  TwEventCosts    *event_costs[2];   /* calibrated for each trace's source, NULL: none */
  GListModel      *factories;        /* the evaluator dropdown's, in its order */
  GCancellable    *cancellable;      /* of the work running, NULL when idle */
  gint             permille;         /* its progress, written by its thread */
  guint            progress_id;
  TwRunComparison *comparison;
  gboolean         filling_tasks;    /* the task list is being rebuilt */
  gboolean         scale_chosen;     /* the user set Logarithmic lengths: keep it */
  gboolean         setting_scale;    /* we are setting it */
};

G_DEFINE_FINAL_TYPE (TwCompareWindow, tw_compare_window, GTK_TYPE_APPLICATION_WINDOW)

enum { FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ working */

static void
progress_func (double   fraction,
               gpointer user_data)
{
  TwCompareWindow *self = user_data;

  g_atomic_int_set (&self->permille, (gint) CLAMP (fraction * 1000, 0, 1000));
}

static gboolean
progress_tick_cb (gpointer user_data)
{
  TwCompareWindow *self = user_data;

  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress),
                                 g_atomic_int_get (&self->permille) / 1000.0);
  return G_SOURCE_CONTINUE;
}

static GCancellable *
start_work (TwCompareWindow *self,
            const char      *what)
{
  g_atomic_int_set (&self->permille, 0);
  gtk_label_set_text (GTK_LABEL (self->working_label), what);
  gtk_progress_bar_set_fraction (GTK_PROGRESS_BAR (self->progress), 0);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "working");
  gtk_widget_set_sensitive (self->controls, FALSE);
  if (self->progress_id == 0)
    self->progress_id = g_timeout_add (30, progress_tick_cb, self);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  return g_object_ref (self->cancellable);
}

static void
end_work (TwCompareWindow *self)
{
  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_object (&self->cancellable);
}

static void
show_error (TwCompareWindow *self,
            const char      *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "error");
  g_signal_emit (self, signals[FINISHED], 0, FALSE);
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  TwCompareWindow *self = TW_COMPARE_WINDOW (widget);

  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
}

/* ------------------------------------------------------------------ showing results */

static GtkWidget *
cell (const char *text,
      gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1 : 0);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  return label;
}

static void
grid_clear (GtkWidget *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (grid)))
    gtk_grid_remove (GTK_GRID (grid), child);
}

static void
grid_add_header (GtkWidget         *grid,
                 const char *const *titles)
{
  for (guint c = 0; titles[c]; c++)
    {
      GtkWidget *label = cell (_(titles[c]), c > 0);

      gtk_widget_add_css_class (label, "heading");
      gtk_grid_attach (GTK_GRID (grid), label, c, 0, 1, 1);
    }
}

static void
show_stats (TwCompareWindow *self,
            guint            group)
{
  static const char *const titles[] = { N_("Statistic"), N_("A (µs)"), N_("B (µs)"),
                                        N_("B − A"), N_("B/A − 1"), NULL };

  grid_clear (self->stats);
  grid_add_header (self->stats, titles);
  for (TwSampleStat s = 0; s < TW_N_SAMPLE_STATS; s++)
    {
      double a = tw_run_comparison_get_stats (self->comparison, group, TW_RUN_A)->value[s];
      double b = tw_run_comparison_get_stats (self->comparison, group, TW_RUN_B)->value[s];
      g_autofree char *ta = tw_sample_stat_format (s, a), *tb = tw_sample_stat_format (s, b);
      g_autofree char *delta = NULL, *relative = NULL;
      double absolute, ratio;

      tw_run_comparison_get_delta (self->comparison, group, s, &absolute, &ratio);
      delta = tw_sample_stat_format_delta (s, absolute);
      relative = tw_sample_stat_format_relative (ratio);
      gtk_grid_attach (GTK_GRID (self->stats), cell (tw_sample_stat_get_name (s), FALSE), 0, s + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (self->stats), cell (ta, TRUE), 1, s + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (self->stats), cell (tb, TRUE), 2, s + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (self->stats), cell (delta, TRUE), 3, s + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (self->stats), cell (relative, TRUE), 4, s + 1, 1, 1);
    }
}

static void
show_tests (TwCompareWindow *self,
            guint            group)
{
  TwMannWhitney mw;
  TwKolmogorovSmirnov ks;
  g_autofree char *p_mw = NULL, *p_ks = NULL, *text = NULL;
  const char *direction = "";

  tw_run_comparison_get_tests (self->comparison, group, &mw, &ks);
  p_mw = tw_p_value_format (mw.p_value);
  p_ks = tw_p_value_format (ks.p_value);
  if (mw.p_value < 0.05)
    direction = mw.z > 0 ? _("; A's lengths rank higher") : _("; B's lengths rank higher");
  text = g_strdup_printf (_("Mann–Whitney U: z = %.2f, %s: %s%s\n"
                            "Kolmogorov–Smirnov: D = %.4f, %s: %s"),
                          mw.z, p_mw, tw_p_value_describe (mw.p_value), direction,
                          ks.d, p_ks, tw_p_value_describe (ks.p_value));
  gtk_label_set_text (GTK_LABEL (self->tests), text);
}

static const TwSampleStats *
stats_of (TwCompareWindow *self,
          guint            group,
          TwRun            run)
{
  return tw_run_comparison_get_stats (self->comparison, group, run);
}

static int
compare_b_max (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TwCompareWindow *self = user_data;
  double x = stats_of (self, *(const guint *) a, TW_RUN_B)->value[TW_SAMPLE_STAT_MAX];
  double y = stats_of (self, *(const guint *) b, TW_RUN_B)->value[TW_SAMPLE_STAT_MAX];

  /* NaN (no measurement in B) last */
  if (isnan (x) || isnan (y))
    return isnan (x) - isnan (y);
  return (x < y) - (x > y);
}

static void
show_task_table (TwCompareWindow *self)
{
  static const char *const titles[] = { N_("Task"), N_("n A"), N_("n B"), N_("p99 A"),
                                        N_("p99 B"), N_("p99 Δ"), N_("max A"), N_("max B"),
                                        N_("max Δ"), NULL };
  static const TwSampleStat columns[] = { TW_SAMPLE_STAT_N, TW_SAMPLE_STAT_P99, TW_SAMPLE_STAT_MAX };
  guint n = tw_run_comparison_get_n_groups (self->comparison);
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint g = 1; g < n; g++)
    g_array_append_val (order, g);
  g_array_sort_with_data (order, compare_b_max, self);
  grid_clear (self->tasks);
  grid_add_header (self->tasks, titles);
  for (guint i = 0; i < MIN (order->len, MAX_TASK_ROWS); i++)
    {
      guint g = g_array_index (order, guint, i), col = 0;

      gtk_grid_attach (GTK_GRID (self->tasks),
                       cell (tw_run_comparison_get_group_name (self->comparison, g), FALSE),
                       col++, i + 1, 1, 1);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        {
          TwSampleStat s = columns[c];
          g_autofree char *ta = tw_sample_stat_format (s, stats_of (self, g, TW_RUN_A)->value[s]);
          g_autofree char *tb = tw_sample_stat_format (s, stats_of (self, g, TW_RUN_B)->value[s]);
          double ratio;

          gtk_grid_attach (GTK_GRID (self->tasks), cell (ta, TRUE), col++, i + 1, 1, 1);
          gtk_grid_attach (GTK_GRID (self->tasks), cell (tb, TRUE), col++, i + 1, 1, 1);
          if (s == TW_SAMPLE_STAT_N)
            continue;
          tw_run_comparison_get_delta (self->comparison, g, s, NULL, &ratio);
          {
            g_autofree char *relative = tw_sample_stat_format_relative (ratio);

            gtk_grid_attach (GTK_GRID (self->tasks), cell (relative, TRUE), col++, i + 1, 1, 1);
          }
        }
    }
}

static guint
selected_group (TwCompareWindow *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->task));

  return selected == GTK_INVALID_LIST_POSITION ? 0 : selected;
}

static void
show_group (TwCompareWindow *self)
{
  guint group = selected_group (self);
  TwHistogramScale scale = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->log_lengths))
                           ? TW_HISTOGRAM_SCALE_LOG : TW_HISTOGRAM_SCALE_LINEAR;
  g_autoptr(TwHistogram) a = tw_run_comparison_new_histogram (self->comparison, group, TW_RUN_A, 40, scale);
  g_autoptr(TwHistogram) b = tw_run_comparison_new_histogram (self->comparison, group, TW_RUN_B, 40, scale);
  g_autofree char *name_a = g_file_get_basename (self->files[0]);
  g_autofree char *name_b = g_file_get_basename (self->files[1]);
  g_autofree char *label_a = g_strdup_printf ("A: %s", name_a);
  g_autofree char *label_b = g_strdup_printf ("B: %s", name_b);

  tw_compare_histogram_set_histograms (TW_COMPARE_HISTOGRAM (self->histogram), a, b, label_a, label_b);
  show_stats (self, group);
  show_tests (self, group);
}

/* "All measurements", then the task names; the task chosen before stays chosen. */
static void
fill_tasks (TwCompareWindow *self)
{
  g_autofree char *previous = NULL;
  GtkStringList *names = gtk_string_list_new (NULL);
  guint select = 0;

  if (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (self->task)))
    previous = g_strdup (gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (self->task))));
  gtk_string_list_append (names, _("All measurements"));
  for (guint g = 1; g < tw_run_comparison_get_n_groups (self->comparison); g++)
    {
      const char *name = tw_run_comparison_get_group_name (self->comparison, g);

      gtk_string_list_append (names, name);
      if (g_strcmp0 (previous, name) == 0)
        select = g;
    }
  self->filling_tasks = TRUE;
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->task), G_LIST_MODEL (names));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->task), select);
  self->filling_tasks = FALSE;
  g_object_unref (names);
}

/* Latencies of a real system have tails a thousand times their median: in linear bins
 * every measurement but the outliers falls into the first one. Such runs start with
 * logarithmic bins, unless the user chose. */
static void
choose_scale (TwCompareWindow *self)
{
  gboolean heavy = FALSE;

  if (self->scale_chosen)
    return;
  for (TwRun r = TW_RUN_A; r <= TW_RUN_B; r++)
    {
      const TwSampleStats *all = stats_of (self, 0, r);

      heavy |= all->value[TW_SAMPLE_STAT_MAX] > 100 * all->value[TW_SAMPLE_STAT_P50];
    }
  self->setting_scale = TRUE;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->log_lengths), heavy);
  self->setting_scale = FALSE;
}

static void
scale_changed_cb (TwCompareWindow *self)
{
  if (self->setting_scale)
    return;
  self->scale_chosen = TRUE;
  if (self->comparison)
    show_group (self);
}

static void
show_comparison (TwCompareWindow *self)
{
  g_autofree char *text = NULL;
  g_autofree char *a = g_file_get_parse_name (self->files[0]);
  g_autofree char *b = g_file_get_parse_name (self->files[1]);
  const TwSampleStats *all_a = stats_of (self, 0, TW_RUN_A), *all_b = stats_of (self, 0, TW_RUN_B);

  text = g_strdup_printf (_("A: %s (%.0f measurements)\nB: %s (%.0f measurements)"),
                          a, all_a->value[TW_SAMPLE_STAT_N], b, all_b->value[TW_SAMPLE_STAT_N]);
  gtk_label_set_text (GTK_LABEL (self->runs_label), text);
  fill_tasks (self);
  choose_scale (self);
  show_group (self);
  show_task_table (self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "results");
  g_signal_emit (self, signals[FINISHED], 0, TRUE);
}

static void
task_changed_cb (TwCompareWindow *self)
{
  if (!self->filling_tasks && self->comparison)
    show_group (self);
}

/* ------------------------------------------------------------------ evaluating */

typedef struct {
  TwEvaluator     *evaluator;
  TwTrace         *traces[2];
  TwEventCosts    *costs[2];         /* NULL: raw lengths */
  TwCompareWindow *window;     /* for progress only */
} EvalData;

static void
eval_data_free (EvalData *data)
{
  g_clear_object (&data->evaluator);
  g_clear_object (&data->traces[0]);
  g_clear_object (&data->traces[1]);
  g_clear_object (&data->costs[0]);
  g_clear_object (&data->costs[1]);
  g_free (data);
}

static void
eval_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  EvalData *data = task_data;
  g_autoptr(TwMeasurementTable) a = NULL;
  g_autoptr(TwMeasurementTable) b = NULL;
  GError *error = NULL;

  /* the costs go in before the evaluation: per type, the producers sum them */
  if (!(a = tw_evaluator_evaluate_with_costs (data->evaluator, data->traces[0], data->costs[0],
                                              NULL, progress_func, data->window, cancellable,
                                              &error)) ||
      !(b = tw_evaluator_evaluate_with_costs (data->evaluator, data->traces[1], data->costs[1],
                                              NULL, progress_func, data->window, cancellable,
                                              &error)))
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, tw_run_comparison_new (a, data->traces[0], b, data->traces[1]),
                         g_object_unref);
}

static void
eval_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TwCompareWindow *self = TW_COMPARE_WINDOW (source);
  g_autoptr(GError) error = NULL;
  TwRunComparison *comparison = g_task_propagate_pointer (G_TASK (result), &error);

  /* a newer evaluation replaced this one and owns the progress now */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      g_clear_object (&comparison);
      return;
    }
  end_work (self);
  gtk_widget_set_sensitive (self->controls, TRUE);
  if (comparison == NULL)
    {
      show_error (self, error->message);
      return;
    }
  g_clear_object (&self->comparison);
  self->comparison = comparison;
  show_comparison (self);
}

static TwEvaluatorFactory *
selected_factory (TwCompareWindow *self)
{
  guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (self->evaluator));

  if (self->factories == NULL || selected >= g_list_model_get_n_items (self->factories))
    return NULL;
  return g_list_model_get_item (self->factories, selected);
}

static void
evaluate (TwCompareWindow *self)
{
  g_autoptr(TwEvaluatorFactory) factory = selected_factory (self);
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  gboolean compensate = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->compensate));
  EvalData *data;

  if (factory == NULL || self->traces[0] == NULL)
    return;
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  data = g_new0 (EvalData, 1);
  data->evaluator = tw_evaluator_factory_create (factory, NULL, &error);
  for (guint r = 0; data->evaluator && r < 2; r++)
    {
      if (!tw_evaluator_check (data->evaluator, self->traces[r], &error))
        break;
      data->traces[r] = g_object_ref (self->traces[r]);
      data->costs[r] = compensate && self->event_costs[r] ? g_object_ref (self->event_costs[r]) : NULL;
    }
  if (error)
    {
      eval_data_free (data);
      end_work (self);
      gtk_widget_set_sensitive (self->controls, TRUE);
      show_error (self, error->message);
      return;
    }
  data->window = self;
  cancellable = start_work (self, _("Evaluating both runs…"));
  task = g_task_new (self, cancellable, eval_done_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify) eval_data_free);
  g_task_run_in_thread (task, eval_thread);
}

static void
evaluator_changed_cb (TwCompareWindow *self)
{
  evaluate (self);
}

/* ------------------------------------------------------------------ loading */

typedef struct {
  char            *paths[2];
  TwTrace         *traces[2];
  TwCompareWindow *window;
} LoadData;

static void
load_data_free (LoadData *data)
{
  for (guint r = 0; r < 2; r++)
    {
      g_free (data->paths[r]);
      g_clear_object (&data->traces[r]);
    }
  g_free (data);
}

typedef struct {
  TwCompareWindow *window;
  guint            run;
} LoadProgress;

static void
load_progress (double   fraction,
               gpointer user_data)
{
  LoadProgress *p = user_data;

  progress_func ((p->run + fraction) / 2, p->window);
}

static void
load_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  LoadData *data = task_data;
  GError *error = NULL;

  for (guint r = 0; r < 2; r++)
    {
      LoadProgress progress = { data->window, r };

      data->traces[r] = tw_reader_registry_load_file_full (data->paths[r], NULL,
                                                           TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                           load_progress,
                                                           &progress, cancellable, &error);
      /* a reader that finished before it looked at @cancellable: Cancel still wins */
      if (data->traces[r] == NULL || g_cancellable_set_error_if_cancelled (cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

/* The first of the evaluators users compare runs by that both traces can measure. */
static guint
default_evaluator (TwCompareWindow *self)
{
  static const char *const preferred[] = { "response-time", "wakeup-latency", "irq-duration",
                                           "run-slice" };

  for (guint p = 0; p < G_N_ELEMENTS (preferred); p++)
    for (guint i = 0; i < g_list_model_get_n_items (self->factories); i++)
      {
        g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (self->factories, i);
        g_autoptr(TwEvaluator) evaluator = NULL;

        if (g_strcmp0 (tw_evaluator_factory_get_name (factory), preferred[p]) != 0)
          continue;
        evaluator = tw_evaluator_factory_create (factory, NULL, NULL);
        if (evaluator && tw_evaluator_check (evaluator, self->traces[0], NULL) &&
            tw_evaluator_check (evaluator, self->traces[1], NULL))
          return i;
      }
  return 0;
}

static void
fill_evaluators (TwCompareWindow *self)
{
  GtkStringList *names = gtk_string_list_new (NULL);

  /* the registry lives as long as the process: a window holds a reference, not it */
  self->factories = g_object_ref (tw_evaluator_factory_list_registered ());
  for (guint i = 0; i < g_list_model_get_n_items (self->factories); i++)
    {
      g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (self->factories, i);

      gtk_string_list_append (names, tw_evaluator_factory_get_name (factory));
    }
  g_signal_handlers_block_by_func (self->evaluator, evaluator_changed_cb, self);
  gtk_drop_down_set_model (GTK_DROP_DOWN (self->evaluator), G_LIST_MODEL (names));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->evaluator), default_evaluator (self));
  g_signal_handlers_unblock_by_func (self->evaluator, evaluator_changed_cb, self);
  g_object_unref (names);
}

/* The check button offers what `tracewb-cli calibrate` stored for both sources. */
static void
fill_event_costs (TwCompareWindow *self)
{
  g_autoptr(GString) why = g_string_new (NULL);

  for (guint r = 0; r < 2; r++)
    {
      const char *source = tw_event_cost_source_for_trace (self->traces[r]);
      g_auto(TwEventCostCalibration) calibration = { 0 };
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;

      g_clear_object (&self->event_costs[r]);
      /* the source's cost with those stored for its single types */
      self->event_costs[r] = tw_event_cost_lookup_for_trace (self->traces[r]);
      if (self->event_costs[r])
        text = tw_event_costs_to_string (self->event_costs[r]);
      else if (source && !tw_event_cost_lookup (source, &calibration, &error))
        text = g_strdup (error->message);   /* why there is none */
      g_string_append_printf (why, "%s: %s\n", r == 0 ? "A" : "B",
                              text ? text : _("a trace of mixed sources"));
    }
  g_strchomp (why->str);
  gtk_widget_set_sensitive (self->compensate, self->event_costs[0] && self->event_costs[1]);
  gtk_widget_set_tooltip_text (self->compensate, why->str);
}

static void
show_timelines (TwCompareWindow *self)
{
  g_autofree char *a = g_file_get_basename (self->files[0]);
  g_autofree char *b = g_file_get_basename (self->files[1]);
  g_autofree char *label_a = g_strdup_printf ("A: %s", a);
  g_autofree char *label_b = g_strdup_printf ("B: %s", b);

  tw_compare_timelines_set_traces (TW_COMPARE_TIMELINES (self->timelines), self->traces[0],
                                   self->traces[1], label_a, label_b);
}

static void
load_done_cb (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  TwCompareWindow *self = TW_COMPARE_WINDOW (source);
  LoadData *data = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  end_work (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      show_error (self, error->message);
      return;
    }
  for (guint r = 0; r < 2; r++)
    self->traces[r] = g_steal_pointer (&data->traces[r]);
  show_timelines (self);
  fill_evaluators (self);
  fill_event_costs (self);
  evaluate (self);
}

/**
 * tw_compare_window_new:
 * @a: the reference run's trace
 * @b: the run compared with it
 *
 * Returns: (transfer full): a window reading both traces
 */
TwCompareWindow *
tw_compare_window_new (GtkApplication *application,
                       GFile          *a,
                       GFile          *b)
{
  TwCompareWindow *self;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GTask) task = NULL;
  LoadData *data;

  g_return_val_if_fail (G_IS_FILE (a) && G_IS_FILE (b), NULL);

  self = g_object_new (TW_TYPE_COMPARE_WINDOW, "application", application, NULL);
  self->files[0] = g_object_ref (a);
  self->files[1] = g_object_ref (b);
  data = g_new0 (LoadData, 1);
  data->paths[0] = g_file_get_path (a);
  data->paths[1] = g_file_get_path (b);
  data->window = self;
  cancellable = start_work (self, _("Reading both traces…"));
  task = g_task_new (self, cancellable, load_done_cb, NULL);
  g_task_set_task_data (task, data, (GDestroyNotify) load_data_free);
  g_task_run_in_thread (task, load_thread);
  return self;
}

/**
 * tw_compare_window_get_comparison:
 *
 * Returns: (transfer none) (nullable): what the window shows, %NULL while it works
 */
TwRunComparison *
tw_compare_window_get_comparison (TwCompareWindow *self)
{
  g_return_val_if_fail (TW_IS_COMPARE_WINDOW (self), NULL);
  return self->cancellable ? NULL : self->comparison;
}

/* ------------------------------------------------------------------ GObject */

static void
tw_compare_window_dispose (GObject *object)
{
  TwCompareWindow *self = TW_COMPARE_WINDOW (object);

  /* a thread still running holds its own references; it only needs to stop */
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  end_work (self);
  g_clear_object (&self->comparison);
  g_clear_object (&self->factories);
  for (guint r = 0; r < 2; r++)
    {
      g_clear_object (&self->traces[r]);
      g_clear_object (&self->files[r]);
      g_clear_object (&self->event_costs[r]);
    }
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_COMPARE_WINDOW);
  G_OBJECT_CLASS (tw_compare_window_parent_class)->dispose (object);
}

static void
tw_compare_window_class_init (TwCompareWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_compare_window_dispose;

  /**
   * TwCompareWindow::finished:
   * @success: the comparison is shown; %FALSE: an error (or Cancel) is
   *
   * Emitted each time reading or evaluating ends.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  g_type_ensure (TW_TYPE_COMPARE_HISTOGRAM);
  g_type_ensure (TW_TYPE_COMPARE_TIMELINES);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, controls);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, evaluator);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, task);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, compensate);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, log_lengths);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, views);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, timelines);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, working_label);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, progress);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, runs_label);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, histogram);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, stats);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, tests);
  gtk_widget_class_bind_template_child (widget_class, TwCompareWindow, tasks);
  gtk_widget_class_bind_template_callback (widget_class, evaluator_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, task_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, scale_changed_cb);
  gtk_widget_class_install_action (widget_class, "compare.cancel", NULL, cancel_action);
}

static void
tw_compare_window_init (TwCompareWindow *self)
{
  GtkExpression *name = gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string");

  gtk_widget_init_template (GTK_WIDGET (self));
  /* thousands of tasks in a kernel trace: the task list is searched by typing */
  gtk_drop_down_set_expression (GTK_DROP_DOWN (self->task), name);
  gtk_drop_down_set_enable_search (GTK_DROP_DOWN (self->task), TRUE);
  gtk_expression_unref (name);
}
