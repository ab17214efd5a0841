/* test-story-explain.c: a user selects a measurement in the Evaluations pane and reads
 * where its time went, beside it, and follows its critical path on the timeline
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-application.h"
#include "tw-evaluation-page.h"
#include "tw-test-app.h"
#include "tw-test-explain.h"
#include "tw-test-gtk.h"
#include "tw-worst-case-page.h"

#define WAIT_MS TW_TEST_EXPLAIN_WAIT_MS

static TwApplication *app;
static gboolean have_display;

typedef TwTestExplainFixture Fixture;

static gboolean
no_transition (gpointer data)
{
  return !gtk_stack_get_transition_running (data);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  tw_test_explain_fixture_setup (fx, have_display ? GTK_APPLICATION (app) : NULL);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  tw_test_explain_fixture_teardown (fx);
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

/* The user picks @name in the System metric drop-down, leaves the Start field empty and
 * presses Add Metric: a metric with an optional parameter gets its default (the
 * drop-down used to add "response-time:", which failed). */
static void
add_metric_from_dropdown (TwEvaluationsPane *pane,
                          const char        *name)
{
  g_autoptr(GPtrArray) dropdowns = g_ptr_array_new ();
  GtkDropDown *dropdown;
  GListModel *model;
  guint found = GTK_INVALID_LIST_POSITION;

  tw_test_collect_descendants (GTK_WIDGET (pane), GTK_TYPE_DROP_DOWN, dropdowns);
  g_assert_cmpuint (dropdowns->len, >=, 1);
  dropdown = g_ptr_array_index (dropdowns, 0);
  model = gtk_drop_down_get_model (dropdown);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (model, i);

      if (g_strcmp0 (tw_evaluator_factory_get_name (factory), name) == 0)
        found = i;
    }
  g_assert_cmpuint (found, !=, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (dropdown, found);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (pane), "evaluations.add-metric", NULL));
}

static void
test_select_measurement (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  g_autoptr(GPtrArray) stacks = g_ptr_array_new ();
  const TwSimulatorJobTruth *job;
  TwEvaluationsPane *pane;
  GtkWidget *page, *notebook;
  TwExplainPanel *panel;
  TwMeasurementTable *table;
  TwViewState *view_state;
  GtkSingleSelection *selection;
  TwMeasurementList *list;
  const TwExplanation *e;
  const TwExplainStep *first;
  GtkListBoxRow *step_row;
  Running running;
  guint position = GTK_INVALID_LIST_POSITION, task_index;
  guint64 begin, end;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  truth = tw_test_open_simulated_dump (fx->window, &fx->dump);
  job = tw_test_explain_worst_job (truth, &task_index);
  /* the loading page fades out */
  g_assert_true (tw_test_wait_until (no_transition, gtk_widget_get_ancestor (GTK_WIDGET (tw_window_get_evaluations_pane (fx->window)), GTK_TYPE_STACK), WAIT_MS));
  view_state = tw_window_get_view_state (fx->window);

  /* the Evaluations tab, response times */
  pane = tw_window_get_evaluations_pane (fx->window);
  notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  add_metric_from_dropdown (pane, "response-time");
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 1);
  running = (Running) { pane, 0 };
  g_assert_true (tw_test_wait_until (evaluation_done, &running, WAIT_MS));
  page = tw_evaluations_pane_get_page (pane, 0);
  table = tw_evaluations_pane_get_table (pane, 0);
  panel = tw_evaluation_page_get_explain_panel (TW_EVALUATION_PAGE (page));

  /* the page's Measurements: the list with the panel beside it */
  tw_test_collect_descendants (page, GTK_TYPE_STACK, stacks);
  g_assert_cmpuint (stacks->len, ==, 1);
  gtk_stack_set_visible_child_name (g_ptr_array_index (stacks, 0), "table");
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (panel), page));
  tw_test_collect_descendants (gtk_widget_get_parent (GTK_WIDGET (panel)), GTK_TYPE_COLUMN_VIEW, views);
  g_assert_cmpuint (views->len, ==, 1);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (panel)));
  selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (g_ptr_array_index (views, 0)));
  list = TW_MEASUREMENT_LIST (gtk_single_selection_get_model (selection));

  /* the user selects the row of the simulator's worst job of that task */
  for (guint p = 0; p < g_list_model_get_n_items (G_LIST_MODEL (list)); p++)
    if (tw_measurement_table_get_row (table, tw_measurement_list_get_row (list, p))->begin == job->begin_ns)
      position = p;
  g_assert_cmpuint (position, !=, GTK_INVALID_LIST_POSITION);
  gtk_single_selection_set_selected (selection, position);
  g_assert_true (tw_test_wait_until (tw_test_explain_panel_done, panel, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  /* the timeline draws the explanation's path */
  g_assert_nonnull (tw_explain_panel_get_highlight (panel));
  g_assert_true (tw_view_state_get_highlight (view_state) == tw_explain_panel_get_highlight (panel));

  /* the measurement's interval is the timeline's selection */
  g_assert_true (tw_view_state_get_selection (view_state, &begin, &end));
  g_assert_cmpuint (begin, ==, job->begin_ns);
  g_assert_cmpuint (end, ==, job->end_ns);
  /* and the timeline shows it */
  {
    guint64 lo, hi;

    tw_view_state_get_visible_range (view_state, &lo, &hi);
    g_assert_cmpuint (lo, <=, begin);
    g_assert_cmpuint (hi, >=, end);
    g_assert_cmpuint (hi - lo, <=, 4 * (end - begin));
  }

  /* the panel shows the simulator's truth, summing to the length */
  e = tw_explain_panel_get_explanation (panel);
  g_assert_cmpuint (tw_explanation_get_total (e), ==, job->end_ns - job->begin_ns);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, job->running_ns);
  {
    guint64 preempted = 0, waiting = 0;

    for (guint k = 0; k < truth->n_tasks; k++)
      {
        preempted += job->preempted_ns[k];
        waiting += job->waiting_ns[k];
      }
    g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_PREEMPTED), ==, preempted);
    g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_WAITING), ==, waiting);
  }
  /* one grid row of five cells per component */
  {
    g_autoptr(GPtrArray) grids = g_ptr_array_new ();
    GtkWidget *grid;
    guint n_cells = 0;

    tw_test_collect_descendants (GTK_WIDGET (panel), GTK_TYPE_GRID, grids);
    g_assert_cmpuint (grids->len, ==, 1);
    grid = g_ptr_array_index (grids, 0);
    for (GtkWidget *c = gtk_widget_get_first_child (grid); c; c = gtk_widget_get_next_sibling (c))
      n_cells++;
    g_assert_cmpuint (n_cells, ==, 5 * e->components->len);
  }
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "explain-panel.png");

  /* activating the path's first step (the measurement's wakeup) puts the cursor and the
   * event selection on it */
  g_assert_cmpuint (e->path->len, >=, 2);
  first = &g_array_index (e->path, TwExplainStep, 0);
  step_row = gtk_list_box_get_row_at_index (GTK_LIST_BOX (tw_explain_panel_get_path_list (panel)), 0);
  g_assert_nonnull (step_row);
  g_assert_true (gtk_widget_activate (GTK_WIDGET (step_row)));
  g_assert_cmpuint (tw_view_state_get_cursor (view_state), ==, first->time);
  g_assert_cmpuint (tw_view_state_get_selected_event (view_state), ==, first->event);

  /* unselecting clears the panel, and its path on the timeline */
  gtk_selection_model_unselect_item (GTK_SELECTION_MODEL (selection), position);
  g_assert_null (tw_explain_panel_get_explanation (panel));
  g_assert_null (tw_view_state_get_highlight (view_state));
  g_assert_cmpuint (task_index, <, truth->n_tasks);
}

/* In the worst-case page, a click on a task's row of Fig. 4 explains that task's worst
 * job beside the tables: the simulator's worst job of the task. */
static void
test_worst_case_row (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GPtrArray) pages = g_ptr_array_new ();
  g_autoptr(GPtrArray) views = g_ptr_array_new ();
  TwEvaluationsPane *pane;
  TwWorstCasePage *page;
  TwExplainPanel *panel;
  TwWorstCase *wc;
  GtkColumnView *fig4;
  const TwExplanation *e;
  const TwSimulatorJobTruth *job;
  guint row = G_MAXUINT;
  guint task_index;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  truth = tw_test_open_simulated_dump (fx->window, &fx->dump);
  job = tw_test_explain_worst_job (truth, &task_index);
  pane = tw_window_get_evaluations_pane (fx->window);
  {
    GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);

    gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                   gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  }
  g_assert_true (tw_evaluations_pane_compute_worst_case (pane, "task_activate", "task_end_cycle", NULL));
  g_assert_true (tw_test_wait_until (tw_test_worst_case_done, pane, WAIT_MS));
  wc = tw_evaluations_pane_get_worst_case (pane);
  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_WORST_CASE_PAGE, pages);
  g_assert_cmpuint (pages->len, ==, 1);
  page = g_ptr_array_index (pages, 0);
  panel = tw_worst_case_page_get_explain_panel (page);

  /* the first table is Fig. 4, one row per task */
  tw_test_collect_descendants (GTK_WIDGET (page), GTK_TYPE_COLUMN_VIEW, views);
  g_assert_cmpuint (views->len, ==, 2);
  fig4 = g_ptr_array_index (views, 0);
  g_assert_true (gtk_column_view_get_single_click_activate (fig4));
  for (guint r = 0; r < tw_worst_case_get_n_rows (wc); r++)
    {
      const TwTask *t = tw_trace_get_task (tw_view_state_get_trace (tw_window_get_view_state (fx->window)),
                                           tw_worst_case_get_task (wc, r));

      if (t->pid == truth->tasks[task_index].pid)
        row = r;
    }
  g_assert_cmpuint (row, !=, G_MAXUINT);
  g_signal_emit_by_name (fig4, "activate", row);
  g_assert_true (tw_test_wait_until (tw_test_explain_panel_done, panel, WAIT_MS));

  e = tw_explain_panel_get_explanation (panel);
  g_assert_cmpuint (e->row.begin, ==, job->begin_ns);
  g_assert_cmpuint (e->row.end, ==, job->end_ns);
  g_assert_cmpuint (tw_explanation_get_total (e), ==, job->end_ns - job->begin_ns);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_RUNNING), ==, job->running_ns);
  g_assert_cmpuint (tw_explanation_sum_kind (e, TW_EXPLAIN_BLOCKED), ==, job->blocked_ns);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "explain-worst-case.png");
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

  g_test_add ("/tw/app/story/explain/select-measurement", Fixture, NULL, fixture_setup,
              test_select_measurement, fixture_teardown);
  g_test_add ("/tw/app/story/explain/worst-case-row", Fixture, NULL, fixture_setup,
              test_worst_case_row, fixture_teardown);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
