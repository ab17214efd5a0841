/* test-designer-window.c: the metric designer measures the open trace as you edit
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-application.h"
#include "tw-designer-window.h"
#include "tw-test-utils.h"

typedef struct {
  TwTrace          *trace;
  TwStateModel     *model;
  TwViewState      *state;
  TwDesignerWindow *designer;
} Fixture;

static gboolean
preview_finished (gpointer data)
{
  return !tw_designer_window_get_preview_running (data);
}

static void
wait_for_preview (Fixture *f)
{
  g_assert_true (tw_test_wait_until (preview_finished, f->designer, 30000));
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autoptr(GError) error = NULL;

  f->trace = tw_reader_registry_load_file (demo, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->state = tw_view_state_new (f->model);
  f->designer = tw_designer_window_new (NULL, f->state);
  gtk_window_present (GTK_WINDOW (f->designer));
  tw_designer_window_update_preview (f->designer);
  wait_for_preview (f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->designer)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&f->designer)));
  g_clear_object (&f->state);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

/* What the interpreter measures with the shipped file, run here without the window. */
static gsize
count_directly (Fixture    *f,
                const char *name,
                TwAutomatonMeasurement *first)
{
  g_autofree char *path = g_strdup_printf ("%s/data/automata/%s.json", TW_SOURCE_DIR, name);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = tw_automaton_load (path, &error);
  g_autoptr(TwAutomatonInterp) interp = NULL;

  g_assert_no_error (error);
  interp = tw_automaton_interp_new (automaton, f->trace, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  if (first && tw_automaton_interp_get_n_measurements (interp) > 0)
    *first = *tw_automaton_interp_get_measurement (interp, 0);
  return tw_automaton_interp_get_n_measurements (interp);
}

static void
test_preview_matches_interpreter (Fixture       *f,
                                  gconstpointer  data)
{
  TwAutomatonMeasurement first = { 0 };
  gsize expected = count_directly (f, "user-metric", &first);
  guint64 begin, end;

  /* the demo's jobs are bracketed by user events: the user metric measures them */
  g_assert_cmpuint (expected, >, 100);
  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==, (gint64) expected);
  g_assert_nonnull (strstr (tw_designer_window_get_summary (f->designer), "measurements"));

  /* picking a measurement selects its range in the timeline */
  tw_designer_window_select_measurement (f->designer, 0);
  g_assert_true (tw_view_state_get_selection (f->state, &begin, &end));
  g_assert_cmpuint (begin, ==, first.begin_ns);
  g_assert_cmpuint (end, ==, first.end_ns);
  g_assert_cmpuint (tw_view_state_get_cursor (f->state), ==, first.begin_ns);

  /* another ready-made automaton, another count, again the interpreter's */
  g_assert_true (tw_designer_window_open_template (f->designer, "irq-duration", NULL));
  wait_for_preview (f);
  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==,
                   (gint64) count_directly (f, "irq-duration", NULL));
}

static void
test_design_error_stops_preview (Fixture       *f,
                                 gconstpointer  data)
{
  TwAutomatonCanvas *canvas = tw_designer_window_get_canvas (f->designer);

  /* an unconnected state is unreachable: a design error, named on the canvas */
  tw_automaton_canvas_add_state (canvas, TW_STATE_KIND_IN, 900, 500);
  wait_for_preview (f);
  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==, -1);
  g_assert_nonnull (strstr (tw_designer_window_get_summary (f->designer), "design error"));

  /* undo brings the valid automaton and its measurements back */
  g_assert_true (tw_automaton_canvas_undo (canvas));
  wait_for_preview (f);
  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==,
                   (gint64) count_directly (f, "user-metric", NULL));
}

/* What the interpreter measures with the canvas's automaton as it is now. */
static TwAutomatonInterp *
run_canvas_automaton (Fixture *f)
{
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (tw_designer_window_get_canvas (f->designer));
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (automaton, f->trace, &error);

  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  return g_steal_pointer (&interp);
}

typedef struct {
  TwHistogramView *view;
  guint64          count;
} SnapshotWait;

static gboolean
snapshot_has_count (gpointer data)
{
  SnapshotWait *w = data;
  const TwHistogramSnapshot *snapshot = tw_histogram_view_get_snapshot (w->view);

  return snapshot != NULL && snapshot->count == w->count;
}

/* The view redraws at most 30 times a second: waits for the snapshot to catch up, then
 * checks it against the interpreter's measurements (count, bins, max). */
static void
check_histogram (Fixture           *f,
                 TwAutomatonInterp *interp)
{
  SnapshotWait w = { tw_designer_window_get_histogram_view (f->designer),
                     tw_automaton_interp_get_n_measurements (interp) };
  const TwHistogramSnapshot *snapshot;
  guint64 in_bins = 0, max = 0;

  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==, (gint64) w.count);
  g_assert_true (tw_test_wait_until (snapshot_has_count, &w, 10000));
  snapshot = tw_histogram_view_get_snapshot (w.view);
  for (guint b = 0; b < snapshot->n_bins; b++)
    in_bins += snapshot->bins[b];
  g_assert_cmpuint (in_bins, ==, w.count);
  for (gsize i = 0; i < w.count; i++)
    max = MAX (max, tw_automaton_interp_get_measurement (interp, i)->length_ns);
  if (w.count > 0)
    g_assert_cmpfloat (snapshot->max, ==, (double) max);
}

static void
test_histogram_follows_edits (Fixture       *f,
                              gconstpointer  data)
{
  TwAutomatonCanvas *canvas = tw_designer_window_get_canvas (f->designer);
  TwAutomaton *automaton = tw_automaton_canvas_get_automaton (canvas);
  g_autoptr(TwAutomatonInterp) before = run_canvas_automaton (f);
  g_autoptr(TwAutomatonInterp) as_out = NULL;
  g_autoptr(TwAutomatonInterp) cancelled = NULL;
  int run = tw_automaton_find_state (automaton, "run");
  int end = tw_automaton_find_state (automaton, "end");
  guint64 max_before = 0, max_out = 0;

  g_assert_cmpint (run, >=, 0);
  g_assert_cmpint (end, >=, 0);
  g_assert_cmpuint (tw_automaton_interp_get_n_measurements (before), >, 100);
  check_histogram (f, before);

  /* the running time no longer counts: as many measurements, shorter ones (a cond
   * state would not do: the in state after it takes its run back) */
  tw_automaton_canvas_set_state_kind (canvas, run, TW_STATE_KIND_OUT);
  wait_for_preview (f);
  as_out = run_canvas_automaton (f);
  g_assert_cmpuint (tw_automaton_interp_get_n_measurements (as_out), ==,
                    tw_automaton_interp_get_n_measurements (before));
  for (gsize i = 0; i < tw_automaton_interp_get_n_measurements (before); i++)
    {
      max_before = MAX (max_before, tw_automaton_interp_get_measurement (before, i)->length_ns);
      max_out = MAX (max_out, tw_automaton_interp_get_measurement (as_out, i)->length_ns);
    }
  g_assert_cmpuint (max_out, <, max_before);
  check_histogram (f, as_out);

  /* the end state now cancels: nothing is reported, the histogram empties */
  tw_automaton_canvas_set_state_kind (canvas, end, TW_STATE_KIND_CANCEL);
  wait_for_preview (f);
  cancelled = run_canvas_automaton (f);
  g_assert_cmpuint (tw_automaton_interp_get_n_measurements (cancelled), ==, 0);
  check_histogram (f, cancelled);
}

static void
test_step_mode (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *path = g_strdup_printf ("%s/data/automata/user-metric.json", TW_SOURCE_DIR);
  g_autoptr(TwAutomaton) automaton = tw_automaton_load (path, NULL);
  g_autoptr(TwAutomatonInterp) reference = tw_automaton_interp_new (automaton, f->trace, NULL);
  guint32 task = tw_trace_lookup_task (f->trace, "264");
  guint64 position = 0;
  gboolean saw_measuring = FALSE;

  g_assert_cmpuint (task, !=, TW_TASK_NONE);
  tw_designer_window_set_step_task (f->designer, task);

  /* every step ends at the task's next event; the window's instance agrees with an
   * interpreter fed to the same event here */
  for (guint step = 0; step < 40; step++)
    {
      guint64 selected;
      TwInstanceInfo info;

      g_assert_true (tw_designer_window_step (f->designer, 1));
      selected = tw_view_state_get_selected_event (f->state);
      g_assert_cmpuint (selected, >=, position);
      {
        TwEvent ev;

        g_assert_true (tw_trace_get_event (f->trace, selected, &ev));
        g_assert_cmpuint (ev.task, ==, task);
      }
      g_assert_true (tw_automaton_interp_feed (reference, position, selected + 1, NULL));
      position = selected + 1;
      g_assert_cmpint (tw_designer_window_get_step_state (f->designer), ==,
                       tw_automaton_interp_get_instance_state (reference, task));
      g_assert_true (tw_automaton_interp_get_instance (reference, task, &info));
      saw_measuring |= info.has_measurement;
    }
  g_assert_true (saw_measuring);
}

static void
test_export_c (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "metric.c", NULL);
  g_autofree char *module = g_build_filename (g_get_tmp_dir (), "metric.so", NULL);
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;

  g_assert_true (tw_designer_window_export_c (f->designer, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  if (cc == NULL)
    {
      g_test_skip ("no C compiler: the module was written but not built");
      return;
    }

  /* the exported module measures what the preview measured */
  g_assert_true (g_file_test (module, G_FILE_TEST_IS_REGULAR));
  plugin = tw_plugin_new_for_path (module, &error);
  g_assert_no_error (error);
  table = tw_plugin_evaluate (plugin, f->trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint ((gint64) tw_measurement_table_get_n_rows (table), ==,
                   tw_designer_window_get_n_measurements (f->designer));
}

static void
test_missing_template (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_designer_window_open_template (f->designer, "no-such-metric", &error));
  g_assert_error (error, G_RESOURCE_ERROR, G_RESOURCE_ERROR_NOT_FOUND);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();
  /* the app's resources (window templates, ready-made automata) */
  g_object_unref (tw_application_new ());

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/app/designer/preview-matches-interpreter", test_preview_matches_interpreter);
  ADD ("/tw/app/designer/design-error-stops-preview", test_design_error_stops_preview);
  ADD ("/tw/app/designer/missing-template", test_missing_template);
  ADD ("/tw/app/designer/histogram-follows-edits", test_histogram_follows_edits);
  ADD ("/tw/app/designer/step-mode", test_step_mode);
  ADD ("/tw/app/designer/export-c", test_export_c);
#undef ADD

  return g_test_run ();
}
