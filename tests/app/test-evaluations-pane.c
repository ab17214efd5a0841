/* test-evaluations-pane.c: the Evaluations tab of the window against tracewb-cli eval
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-application.h"
#include "tw-explain-panel.h"
#include "tw-test-pixels.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;
static gboolean have_display;

/* Five interrupts on CPU 0 while task 11 runs: 300, 900, 150, 2000 and 500 ns. */
static const char IRQ_CSV[] =
  "time_ns,cpu,task,event,task_name,next,prev_state,irq\n"
  "1000,0,10,switch,idle,11,R,\n"
  "1001,0,11,tick,worker,,,\n"
  "2000,0,11,irq_entry,,,,19\n"
  "2300,0,11,irq_exit,,,,19\n"
  "5000,0,11,irq_entry,,,,19\n"
  "5400,0,11,tick,,,,\n"
  "5900,0,11,irq_exit,,,,19\n"
  "8000,0,11,irq_entry,,,,20\n"
  "8150,0,11,irq_exit,,,,20\n"
  "12000,0,11,irq_entry,,,,19\n"
  "14000,0,11,irq_exit,,,,19\n"
  "20000,0,11,irq_entry,,,,21\n"
  "20500,0,11,irq_exit,,,,21\n"
  "30000,0,11,switch,,10,S,\n";

typedef struct {
  TwWindow *window;
} Fixture;

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (!have_display)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (have_display)
    tw_test_close_window (GTK_WINDOW (fx->window));
}

static gboolean
no_transition (gpointer data)
{
  return !gtk_stack_get_transition_running (data);
}

static void
open_path (Fixture    *fx,
           const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (tw_window_get_evaluations_pane (fx->window)),
                                              GTK_TYPE_STACK);

  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  /* the loading page fades out */
  g_assert_nonnull (stack);
  g_assert_true (tw_test_wait_until (no_transition, stack, WAIT_MS));
}

static TwEvaluationsPane *
show_pane (Fixture *fx)
{
  TwEvaluationsPane *pane = tw_window_get_evaluations_pane (fx->window);
  GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);

  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  return pane;
}

typedef struct {
  TwEvaluationsPane *pane;
  guint              index;
} Running;

static gboolean
evaluation_done (gpointer data)
{
  Running *r = data;

  return !tw_evaluations_pane_is_running (r->pane, r->index);
}

static void
wait_evaluation (TwEvaluationsPane *pane,
                 guint              index)
{
  Running r = { pane, index };

  g_assert_true (tw_test_wait_until (evaluation_done, &r, WAIT_MS));
  g_assert_null (tw_evaluations_pane_get_error_message (pane, index));
}

/* The table as tracewb-cli eval writes it for the same file and source. */
static char *
cli_csv (const char *path,
         const char *option,
         const char *value)
{
  const char *args[] = { "eval", path, option, value, "--csv", "-", NULL };
  g_autofree char *err = NULL;
  char *out = NULL;
  int status = -1;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  return out;
}

static void
test_irq_duration (Fixture       *fx,
                   gconstpointer  data)
{
  static const double BAR_RGB[3] = { 0.26, 0.52, 0.96 };
  g_autofree char *path = tw_test_write_temp_file ("irqs.csv", IRQ_CSV, -1);
  g_autofree char *expected = NULL;
  g_autofree char *exported = NULL;
  g_autofree char *exported_path = NULL;
  g_autofree char *png_path = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  TwEvaluationsPane *pane;
  TwMeasurementTable *table;
  TwHistogramView *view;
  const TwHistogramSnapshot *snapshot;
  cairo_surface_t *surface;
  cairo_rectangle_t bar;
  GtkWidget *plot;
  int tallest = -1;
  guint64 begin, end;
  double px[3];
  cairo_surface_t *png;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 1);
  wait_evaluation (pane, 0);

  /* the same rows as the CLI prints, and the lengths of the file */
  table = tw_evaluations_pane_get_table (pane, 0);
  expected = cli_csv (path, "--metric", "irq-duration");
  lines = g_strsplit (expected, "\n", -1);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 5);
  g_assert_cmpuint (g_strv_length (lines) - 2, ==, 5);   /* header, trailing "" */
  g_assert_cmpuint (tw_measurement_table_get_row (table, 1)->length, ==, 900);
  g_assert_true (g_str_has_prefix (lines[2], "11,5000,5900,900,"));
  g_assert_cmpuint (tw_measurement_table_get_row (table, 3)->length, ==, 2000);

  /* exported CSV = the CLI's */
  exported_path = g_build_filename (g_get_tmp_dir (), "irq.csv", NULL);
  g_assert_true (tw_evaluations_pane_export_csv (pane, 0, exported_path, &error));
  g_assert_true (g_file_get_contents (exported_path, &exported, NULL, NULL));
  g_assert_cmpstr (exported, ==, expected);

  /* the histogram: bars where the painter puts them, in bar colour */
  view = tw_evaluations_pane_get_histogram_view (pane, 0);
  plot = tw_histogram_view_get_plot (view);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  snapshot = tw_histogram_view_get_snapshot (view);
  g_assert_nonnull (snapshot);
  g_assert_cmpuint (snapshot->count, ==, 5);
  g_assert_cmpfloat (snapshot->min, ==, 150);
  g_assert_cmpfloat (snapshot->max, ==, 2000);
  for (guint b = 0; b < snapshot->n_bins; b++)
    if (snapshot->bins[b] > 0 && (tallest < 0 || snapshot->bins[b] > snapshot->bins[tallest]))
      tallest = b;
  g_assert_cmpint (tallest, >=, 0);
  surface = tw_test_grab_widget (plot);
  g_assert_true (tw_histogram_painter_get_bar (tw_histogram_view_get_painter (view), snapshot,
                                               gtk_widget_get_width (plot),
                                               gtk_widget_get_height (plot), tallest, &bar));
  g_assert_cmpfloat (bar.height, >, 10);
  tw_test_surface_get_rgb (surface, (int) (bar.x + bar.width / 2), (int) (bar.y + bar.height - 3), px);
  g_assert_true (tw_test_rgb_near (px, BAR_RGB));
  tw_test_surface_get_rgb (surface, (int) (bar.x + bar.width / 2), (int) bar.y - 3, px);
  g_assert_false (tw_test_rgb_near (px, BAR_RGB));
  cairo_surface_destroy (surface);

  /* the bin of the 900 ns interrupt lists it; picking it selects [5000, 5900) */
  for (guint b = 0; b < snapshot->n_bins; b++)
    if (snapshot->edges[b] <= 900 && 900 < snapshot->edges[b + 1])
      tw_histogram_view_select_bin (view, b);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tw_histogram_view_get_bin_list (view))), ==, 1);
  tw_histogram_view_pick_measurement (view, tw_measurement_list_get_row (tw_histogram_view_get_bin_list (view), 0));
  g_assert_true (tw_view_state_get_selection (tw_window_get_view_state (fx->window), &begin, &end));
  g_assert_cmpuint (begin, ==, 5000);
  g_assert_cmpuint (end, ==, 5900);

  png_path = g_build_filename (g_get_tmp_dir (), "irq.png", NULL);
  g_assert_true (tw_evaluations_pane_export_image (pane, 0, TW_HISTOGRAM_EXPORT_PNG, png_path, &error));
  png = cairo_image_surface_create_from_png (png_path);
  g_assert_cmpint (cairo_surface_status (png), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (png);

  {
    g_autofree char *bins_path = g_build_filename (g_get_tmp_dir (), "bins.csv", NULL);
    g_autofree char *bins = NULL;
    g_autofree char *expected_bins = NULL;
    g_autoptr(TwHistogramSnapshot) s = tw_histogram_snapshot_new (tw_histogram_view_get_histogram (view), FALSE);
    guint64 total = 0;

    g_assert_true (tw_evaluations_pane_export_bins_csv (pane, 0, bins_path, &error));
    g_assert_true (g_file_get_contents (bins_path, &bins, NULL, NULL));
    expected_bins = tw_histogram_snapshot_to_csv (s);
    g_assert_cmpstr (bins, ==, expected_bins);
    g_assert_true (g_str_has_prefix (bins, "lower,upper,count\nunderflow,,0\n"));
    for (guint b = 0; b < s->n_bins; b++)
      total += s->bins[b];
    g_assert_cmpuint (total, ==, 5);
  }

  tw_evaluations_pane_remove (pane, 0);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 0);
}

static gboolean
worst_case_done (gpointer data)
{
  return !tw_evaluations_pane_is_worst_case_running (data);
}

static void
test_user_metric_and_worst_case (Fixture       *fx,
                                 gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("irqs.csv", IRQ_CSV, -1);
  g_autofree char *expected = NULL;
  g_autofree char *actual = NULL;
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  g_assert_false (tw_evaluations_pane_add_user_metric (pane, "irq_entry", "", TRUE, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, "irq_entry", "irq_exit", TRUE, &error));
  wait_evaluation (pane, 0);
  expected = cli_csv (path, "--user-metric", "irq_entry,irq_exit");
  actual = tw_measurement_table_to_csv (tw_evaluations_pane_get_table (pane, 0),
                                        tw_view_state_get_trace (tw_window_get_view_state (fx->window)));
  g_assert_cmpstr (actual, ==, expected);

  g_assert_false (tw_evaluations_pane_add_system_metric (pane, "no-such-metric", &error));
  g_assert_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN);
  g_clear_error (&error);

  g_assert_true (tw_evaluations_pane_compute_worst_case (pane, "irq_entry", "irq_exit", &error));
  g_assert_true (tw_test_wait_until (worst_case_done, pane, WAIT_MS));
  g_assert_nonnull (tw_evaluations_pane_get_worst_case (pane));
  {
    g_autoptr(TwWorstCase) direct = tw_worst_case_evaluate (tw_view_state_get_trace (tw_window_get_view_state (fx->window)),
                                                            "irq_entry", "irq_exit", NULL, NULL, NULL, &error);
    TwTrace *trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
    g_autofree char *a = tw_worst_case_to_csv (tw_evaluations_pane_get_worst_case (pane), trace);
    g_autofree char *b = tw_worst_case_to_csv (direct, trace);

    g_assert_no_error (error);
    g_assert_cmpstr (a, ==, b);
    g_assert_cmpuint (tw_worst_case_get_n_rows (direct), >=, 1);
  }
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
}

static GtkCheckButton *
find_check_button (GtkWidget  *root,
                   const char *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  tw_test_collect_descendants (root, GTK_TYPE_CHECK_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_check_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      return g_ptr_array_index (buttons, i);
  g_error ("no check button “%s”", label);
}

static const char *
worst_case_status (TwEvaluationsPane *pane)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GtkWidget *page = gtk_widget_get_parent (GTK_WIDGET (find_check_button (GTK_WIDGET (pane),
                                                                          "Subtract tracing cost")));

  tw_test_collect_descendants (page, GTK_TYPE_LABEL, labels);
  return gtk_label_get_text (g_ptr_array_index (labels, 0));
}

/* Two jobs (irq_entry → irq_exit) of task 11: 2000 ns holding five events, 1700 ns
 * holding none. */
static const char JOBS_CSV[] =
  "time_ns,cpu,task,event,task_name,next,prev_state,irq\n"
  "1000,0,10,switch,idle,11,R,\n"
  "2000,0,11,irq_entry,worker,,,19\n"
  "2100,0,11,tick,,,,\n"
  "2200,0,11,tick,,,,\n"
  "2300,0,11,tick,,,,\n"
  "2400,0,11,tick,,,,\n"
  "2500,0,11,tick,,,,\n"
  "4000,0,11,irq_exit,,,,19\n"
  "10000,0,11,irq_entry,,,,19\n"
  "11700,0,11,irq_exit,,,,19\n"
  "30000,0,11,switch,,10,S,\n";

/* Espinosa 2003 §2: the check button subtracts the cost `tracewb-cli calibrate` stored
 * for the trace's source; without one it cannot be checked and says why. */
static void
test_worst_case_compensated (Fixture       *fx,
                             gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("jobs.csv", JOBS_CSV, -1);
  TwEventCostCalibration csv_cost = { 100, 1, 5, 1000, (char *) "2026-11-27T14:00:00Z",
                                      (char *) "test" };
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  GtkCheckButton *compensate;
  TwTrace *trace;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));

  g_assert_true (tw_evaluations_pane_compute_worst_case (pane, "irq_entry", "irq_exit", &error));
  g_assert_true (tw_test_wait_until (worst_case_done, pane, WAIT_MS));
  compensate = find_check_button (GTK_WIDGET (pane), "Subtract tracing cost");
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (compensate)));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (compensate)),
                            "tracewb-cli calibrate"));
  g_assert_cmpstr (worst_case_status (pane), ==, "Raw lengths: tracing cost not subtracted");
  /* the tables name the task as the rest of the window does, not by its source id */
  {
    g_autoptr(GPtrArray) labels = g_ptr_array_new ();
    g_autofree char *label = tw_trace_dup_task_label (trace, tw_trace_lookup_task (trace, "11"));
    guint named = 0, bare = 0;

    tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
    tw_test_collect_descendants (gtk_widget_get_parent (GTK_WIDGET (compensate)), GTK_TYPE_LABEL, labels);
    tw_test_collect_descendants (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (compensate))),
                                 GTK_TYPE_LABEL, labels);
    for (guint i = 0; i < labels->len; i++)
      {
        const char *text = gtk_label_get_text (g_ptr_array_index (labels, i));

        named += g_strcmp0 (text, label) == 0;
        bare += g_strcmp0 (text, "11") == 0;
      }
    g_assert_cmpstr (label, !=, "11");
    g_assert_cmpuint (named, >, 0);
    g_assert_cmpuint (bare, ==, 0);
  }

  /* 100 ns an event: the job of 2000 ns is 1500 without its five events' cost, so the
   * one of 1700 ns becomes the worst */
  g_assert_true (tw_event_cost_store ("csv", &csv_cost, &error));
  g_assert_true (tw_evaluations_pane_compute_worst_case (pane, "irq_entry", "irq_exit", &error));
  g_assert_true (tw_test_wait_until (worst_case_done, pane, WAIT_MS));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (compensate)));
  g_assert_true (gtk_widget_activate (GTK_WIDGET (compensate)));
  g_assert_true (gtk_check_button_get_active (compensate));
  g_assert_true (tw_test_wait_until (worst_case_done, pane, WAIT_MS));
  g_assert_cmpfloat (tw_worst_case_get_event_cost (tw_evaluations_pane_get_worst_case (pane)), ==, 100);
  g_assert_cmpstr (worst_case_status (pane), ==, "Tracing cost subtracted: 0.100 µs per event");
  {
    g_autoptr(TwWorstCaseEvaluator) evaluator = tw_worst_case_evaluator_new ("irq_entry", "irq_exit");
    g_autoptr(TwMeasurementTable) table = NULL;
    g_autoptr(TwWorstCase) direct = NULL;
    g_autofree char *a = NULL, *b = NULL, *raw = NULL;

    tw_worst_case_evaluator_set_event_cost (evaluator, 100);
    table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), trace, NULL, NULL, NULL, NULL, &error);
    direct = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error);
    g_assert_no_error (error);
    a = tw_worst_case_to_csv (tw_evaluations_pane_get_worst_case (pane), trace);
    b = tw_worst_case_to_csv (direct, trace);
    g_assert_cmpstr (a, ==, b);
    tw_worst_case_evaluator_set_event_cost (evaluator, 0);
    g_clear_object (&table);
    g_clear_object (&direct);
    table = tw_evaluator_evaluate (TW_EVALUATOR (evaluator), trace, NULL, NULL, NULL, NULL, &error);
    direct = tw_worst_case_evaluator_new_worst_case (evaluator, table, &error);
    raw = tw_worst_case_to_csv (direct, trace);
    g_assert_true (g_str_has_suffix (raw, "\n11,2000,0,2000,,\n"));
    g_assert_true (g_str_has_suffix (a, "\n11,1700,0,1700,,\n"));
  }

  /* unchecked: raw lengths again */
  g_assert_true (gtk_widget_activate (GTK_WIDGET (compensate)));
  g_assert_true (tw_test_wait_until (worst_case_done, pane, WAIT_MS));
  g_assert_cmpfloat (tw_worst_case_get_event_cost (tw_evaluations_pane_get_worst_case (pane)), ==, 0);

  /* any evaluation's table knows the cost, and its list shows the compensated length */
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, "irq_entry", "irq_exit", TRUE, &error));
  wait_evaluation (pane, 0);
  g_assert_cmpfloat (tw_measurement_table_get_event_cost (tw_evaluations_pane_get_table (pane, 0)), ==, 100);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  {
    g_autoptr(GPtrArray) views = g_ptr_array_new ();
    guint n_compensated = 0;

    tw_test_collect_descendants (GTK_WIDGET (pane), GTK_TYPE_COLUMN_VIEW, views);
    for (guint v = 0; v < views->len; v++)
      {
        GListModel *columns = gtk_column_view_get_columns (g_ptr_array_index (views, v));

        for (guint c = 0; c < g_list_model_get_n_items (columns); c++)
          {
            g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, c);

            n_compensated += g_strcmp0 (gtk_column_view_column_get_title (column), "Compensated") == 0;
          }
      }
    /* the measurement list and the histogram's bin list; not the raw worst-case table */
    g_assert_cmpuint (n_compensated, ==, 2);
  }
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
}

static gboolean
explained (gpointer data)
{
  return !tw_explain_panel_is_running (data);
}

/* What a pick in a bar's list or the over-time view must lead to: the Measurements tab
 * with that row selected, explained beside it, and shown on the timeline. */
static void
assert_measurement_shown (Fixture                *fx,
                          TwEvaluationsPane      *pane,
                          const TwMeasurementRow *row)
{
  g_autoptr(GPtrArray) panels = g_ptr_array_new ();
  g_autoptr(GPtrArray) stacks = g_ptr_array_new ();
  const TwExplanation *e;
  guint64 begin = 0, end = 0;

  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_EXPLAIN_PANEL, panels);
  g_assert_cmpuint (panels->len, >=, 1);
  g_assert_true (tw_test_wait_until (explained, g_ptr_array_index (panels, 0), WAIT_MS));
  e = tw_explain_panel_get_explanation (g_ptr_array_index (panels, 0));
  if (e == NULL)
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();

      tw_test_collect_descendants (g_ptr_array_index (panels, 0), GTK_TYPE_LABEL, labels);
      g_error ("not explained: %s", labels->len ? gtk_label_get_text (g_ptr_array_index (labels, 0)) : "");
    }
  g_assert_cmpuint (e->row.begin, ==, row->begin);
  g_assert_cmpuint (e->row.end, ==, row->end);
  g_assert_true (tw_view_state_get_selection (tw_window_get_view_state (fx->window), &begin, &end));
  g_assert_cmpuint (begin, ==, row->begin);
  g_assert_cmpuint (end, ==, row->end);
  tw_test_collect_descendants (GTK_WIDGET (pane), GTK_TYPE_STACK, stacks);
  for (guint i = 0; i < stacks->len; i++)
    if (gtk_stack_get_child_by_name (g_ptr_array_index (stacks, i), "over-time"))
      g_assert_cmpstr (gtk_stack_get_visible_child_name (g_ptr_array_index (stacks, i)), ==, "table");
}

/* The Over Time tab: a click on the window holding the longest measurement shows and
 * explains that measurement. */
static void
test_over_time (Fixture       *fx,
                gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("jobs.csv", JOBS_CSV, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autoptr(GListModel) controllers = NULL;
  TwEvaluationsPane *pane;
  TwHistogramOverTime *over_time;
  const TwMeasurementRow *worst;
  gsize worst_row;
  int x;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, "irq_entry", "irq_exit", TRUE, &error));
  wait_evaluation (pane, 0);
  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_HISTOGRAM_OVER_TIME, views);
  g_assert_cmpuint (views->len, ==, 1);
  over_time = g_ptr_array_index (views, 0);
  gtk_stack_set_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (over_time))), "over-time");
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  worst_row = tw_histogram_over_time_get_worst_row (over_time);
  g_assert_cmpuint (worst_row, !=, G_MAXSIZE);
  worst = tw_measurement_table_get_row (tw_evaluations_pane_get_table (pane, 0), worst_row);
  g_assert_cmpuint (worst->length, ==, 2000);
  for (x = 0; x < gtk_widget_get_width (GTK_WIDGET (over_time)); x++)
    {
      guint window = tw_histogram_over_time_window_at (over_time, x);

      if (window != G_MAXUINT && tw_histogram_over_time_get_max_row (over_time, window) == worst_row)
        break;
    }
  g_assert_cmpint (x, <, gtk_widget_get_width (GTK_WIDGET (over_time)));
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (over_time));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        g_signal_emit_by_name (controller, "pressed", 1, (double) x, 20.0);
    }
  assert_measurement_shown (fx, pane, worst);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
}

/* A histogram bar's tail: picking a measurement from the bar's list explains it. */
static void
test_bar_tail_explained (Fixture       *fx,
                         gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("jobs.csv", JOBS_CSV, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  GtkSingleSelection *bin_selection = NULL;
  TwMeasurementList *bin_list;
  const TwHistogramSnapshot *snapshot;
  const TwMeasurementRow *picked;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  g_assert_true (tw_evaluations_pane_add_user_metric (pane, "irq_entry", "irq_exit", TRUE, &error));
  wait_evaluation (pane, 0);
  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_HISTOGRAM_VIEW, views);
  view = g_ptr_array_index (views, 0);
  snapshot = tw_histogram_view_get_snapshot (view);
  g_assert_nonnull (snapshot);
  /* the last bar holds the longest */
  tw_histogram_view_select_bin (view, snapshot->n_bins - 1);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  tw_test_collect_descendants (GTK_WIDGET (view), GTK_TYPE_COLUMN_VIEW, lists);
  g_assert_cmpuint (lists->len, ==, 1);
  bin_selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (g_ptr_array_index (lists, 0)));
  bin_list = TW_MEASUREMENT_LIST (gtk_single_selection_get_model (bin_selection));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (bin_list)), >=, 1);
  picked = tw_measurement_table_get_row (tw_evaluations_pane_get_table (pane, 0),
                                         tw_measurement_list_get_row (bin_list, 0));
  g_assert_cmpuint (picked->length, ==, 2000);
  gtk_single_selection_set_selected (bin_selection, 0);
  assert_measurement_shown (fx, pane, picked);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
}

/* A big trace: the evaluation runs in its thread while the main loop keeps turning; a
 * cancelled one says so and has no table; the next one runs to the end, and its
 * live-fed histogram counts every row. */
static void
test_cancel_and_live (Fixture       *fx,
                      gconstpointer  data)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 irq_in = tw_test_add_simple_type (trace, "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY);
  guint16 irq_out = tw_test_add_simple_type (trace, "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT);
  guint32 task = tw_trace_add_task (trace, "1", "worker", 1, 1);
  const guint n_irqs = 2000000;
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  GtkWidget *stack;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  for (guint i = 0; i < n_irqs; i++)
    {
      tw_trace_append (trace, 1000 * (guint64) i, 0, irq_in, task, 5, NULL);
      tw_trace_append (trace, 1000 * (guint64) i + 100 + i % 400, 0, irq_out, task, 5, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  tw_window_load_trace (fx->window, trace, "big");
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  stack = gtk_widget_get_ancestor (GTK_WIDGET (tw_window_get_evaluations_pane (fx->window)), GTK_TYPE_STACK);
  g_assert_true (tw_test_wait_until (no_transition, stack, WAIT_MS));
  pane = show_pane (fx);

  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_true (tw_evaluations_pane_is_running (pane, 0));
  tw_evaluations_pane_cancel (pane, 0);
  {
    Running r = { pane, 0 };
    g_assert_true (tw_test_wait_until (evaluation_done, &r, WAIT_MS));
  }
  g_assert_nonnull (tw_evaluations_pane_get_error_message (pane, 0));
  g_assert_null (tw_evaluations_pane_get_table (pane, 0));

  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  wait_evaluation (pane, 1);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (tw_evaluations_pane_get_table (pane, 1)), ==, n_irqs);
  view = tw_evaluations_pane_get_histogram_view (pane, 1);
  g_assert_cmpuint (tw_histogram_get_count (tw_histogram_view_get_histogram (view)), ==, n_irqs);
  g_assert_cmpfloat (tw_histogram_get_min (tw_histogram_view_get_histogram (view)), ==, 100);
  g_assert_cmpfloat (tw_histogram_get_max (tw_histogram_view_get_histogram (view)), ==, 499);
}

/* The real ftrace recording: irq handler durations and wakeup latencies, as the docs
 * show them; the counts agree with the CLI. */
static void
test_real_trace (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autofree char *automaton = g_build_filename (TW_SOURCE_DIR, "data", "automata", "wakeup-latency.json", NULL);
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  const TwHistogramSnapshot *snapshot;
  int tallest = 0;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  if (path == NULL)
    {
      g_test_skip ("../shared/traces/ftrace/recorded/sched_irq_5s.report.txt is absent");
      return;
    }
  open_path (fx, path);
  pane = show_pane (fx);
  /* room for the pane; latencies have a long tail: log bins */
  gtk_paned_set_position (GTK_PANED (gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_PANED)), 120);
  tw_evaluations_pane_set_log_bins (pane, TRUE);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "wakeup-latency", &error));
  tw_evaluations_pane_set_log_bins (pane, FALSE);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_true (tw_evaluations_pane_add_automaton (pane, automaton, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < 3; i++)
    wait_evaluation (pane, i);

  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *csv = cli_csv (path, "--metric", i == 0 ? "wakeup-latency" : "irq-duration");
      g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);

      g_assert_cmpuint (tw_measurement_table_get_n_rows (tw_evaluations_pane_get_table (pane, i)), ==,
                        g_strv_length (lines) - 2);
      g_assert_cmpuint (tw_measurement_table_get_n_rows (tw_evaluations_pane_get_table (pane, i)), >, 10);
    }

  /* the automaton's rows are the interpreter's measurements */
  {
    g_autoptr(TwAutomaton) a = tw_automaton_load (automaton, &error);
    g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (a, tw_view_state_get_trace (tw_window_get_view_state (fx->window)), &error);
    TwMeasurementTable *table = tw_evaluations_pane_get_table (pane, 2);
    gsize n;

    g_assert_true (tw_automaton_interp_run (interp, &error));
    n = tw_automaton_interp_get_n_measurements (interp);
    g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, n);
    g_assert_cmpuint (n, >, 0);
    for (gsize i = 0; i < n; i += MAX (1, n / 50))
      {
        const TwAutomatonMeasurement *m = tw_automaton_interp_get_measurement (interp, i);
        const TwMeasurementRow *row = tw_measurement_table_get_row (table, i);

        g_assert_cmpuint (row->begin, ==, m->begin_ns);
        g_assert_cmpuint (row->end, ==, m->end_ns);
        g_assert_cmpuint (row->length, ==, m->length_ns);
        g_assert_cmpuint (row->task, ==, m->task);
      }
  }

  /* screenshots: wakeup latency with its largest bin listed, then irq durations */
  for (guint i = 0; i < 2; i++)
    {
      view = tw_evaluations_pane_get_histogram_view (pane, i);
      snapshot = tw_histogram_view_get_snapshot (view);
      for (guint b = 0; b < snapshot->n_bins; b++)
        if (snapshot->bins[b] > snapshot->bins[tallest])
          tallest = b;
      tw_histogram_view_select_bin (view, tallest);
      if (i == 1)
        tw_histogram_view_set_y_scale (view, TW_HISTOGRAM_Y_LOG);   /* the tail shows */
      tw_evaluations_pane_show_page (pane, tw_evaluations_pane_get_page (pane, i));
      tw_test_wait_frames (GTK_WIDGET (fx->window), 4);
      tw_test_save_widget_png (GTK_WIDGET (fx->window), i == 0 ? "evaluations-wakeup-latency.png"
                                                       : "evaluations-irq-duration.png");
      tallest = 0;
    }
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func) g_test_add ("/tw/app/evaluations/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("irq-duration", test_irq_duration);
  ADD ("user-metric-and-worst-case", test_user_metric_and_worst_case);
  ADD ("worst-case-compensated", test_worst_case_compensated);
  ADD ("over-time", test_over_time);
  ADD ("bar-tail-explained", test_bar_tail_explained);
  ADD ("cancel-and-live", test_cancel_and_live);
  ADD ("real-trace", test_real_trace);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
