/* test-story-evaluator.c: a new kind of evaluation, written only here, everywhere at once
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The story of a newcomer who adds an evaluation: one type implementing TwEvaluator
 * (TestGap below: the time between consecutive events of one type) and one factory
 * registered by name. Nothing else is touched, and it shows up in the Evaluations
 * pane's metric list (added with a real click, measured in a thread, its bars drawn),
 * in `tracewb-cli eval --metric` and `tracewb-cli metrics` (run in-process, the same
 * code as the binary), in the Metric Designer's *Compare with* row (chosen and measured
 * with a real click beside the automaton), and in a live session, growing as the sensors
 * write.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <tw-evaluators.h>
#include <tw-sensor.h>
#include <unistd.h>

#include "tw-application.h"
#include "tw-cli.h"
#include "tw-designer-compare.h"
#include "tw-designer-window.h"
#include "tw-event-name-entry.h"
#include "tw-live-session.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;
static gboolean have_display;

/* ------------------------------------------------------------------ the newcomer's file */

/* Consecutive events of one type: each after the first is a measurement from the one
 * before. The whole of a new kind of evaluation. */
struct _TestGap
{
  GObject  parent_instance;
  char    *name;
  char    *event;
};

#define TEST_TYPE_GAP (test_gap_get_type ())
G_DECLARE_FINAL_TYPE (TestGap, test_gap, TEST, GAP, GObject)

static void test_gap_evaluator_init (TwEvaluatorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestGap, test_gap, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR, test_gap_evaluator_init))

typedef struct {
  TwMeasurementTable *table;
  TwHistogram        *histogram;
  gboolean            have_previous;
  guint64             previous_time;
  guint64             previous_index;
} GapRun;

static void
gap_run_free (gpointer data)
{
  GapRun *run = data;

  g_clear_object (&run->table);
  g_clear_object (&run->histogram);
  g_free (run);
}

static void
gap_step (gpointer       context,
          gpointer       func_data,
          const TwEvent *event)
{
  GapRun *run = func_data;

  if (run->have_previous)
    {
      TwMeasurementRow row = {
        .task = event->task,
        .intermediate_events = (guint32) (event->index - run->previous_index - 1),
        .begin = run->previous_time,
        .end = event->time,
        .length = event->time - run->previous_time,
      };
      double cpu = event->cpu;

      if (run->table)
        tw_measurement_table_append (run->table, &row, &cpu);
      if (run->histogram)
        tw_histogram_insert (run->histogram, (double) row.length);
    }
  run->have_previous = TRUE;
  run->previous_time = event->time;
  run->previous_index = event->index;
}

static gboolean
gap_prepare (gpointer       context,
             gpointer       func_data,
             const TwEvent *event,
             guint          selector)
{
  gap_step (context, func_data, event);
  return TRUE;
}

static void
gap_commit (gpointer context,
            gpointer func_data,
            gboolean ok)
{
}

static const TwUpdateFuncs gap_funcs = { NULL, gap_prepare, gap_commit, NULL };
static const TwUpdateDirectFunc gap_steps[] = { gap_step };

static const char *
gap_get_name (TwEvaluator *evaluator)
{
  return TEST_GAP (evaluator)->name;
}

static GStrv
gap_dup_required_events (TwEvaluator *evaluator)
{
  const char *events[] = { TEST_GAP (evaluator)->event, NULL };

  return g_strdupv ((char **) events);
}

static TwMeasurementTable *
gap_new_table (TwEvaluator *evaluator)
{
  const char *columns[] = { "cpu", NULL };
  TwMeasurementTable *table = tw_measurement_table_new (columns);

  tw_measurement_table_set_name (table, TEST_GAP (evaluator)->name);
  return table;
}

static TwUpdate *
gap_create_update (TwEvaluator        *evaluator,
                   TwMeasurementTable *table,
                   TwHistogram        *histogram)
{
  g_auto(GStrv) selectors = gap_dup_required_events (evaluator);
  GapRun *run = g_new0 (GapRun, 1);
  TwUpdate *update;

  run->table = table ? g_object_ref (table) : NULL;
  run->histogram = histogram ? g_object_ref (histogram) : NULL;
  update = tw_update_new (&gap_funcs, run, gap_run_free, NULL, (const char *const *) selectors);
  tw_update_set_direct_funcs (update, gap_steps, G_N_ELEMENTS (gap_steps));
  return update;
}

static void
test_gap_evaluator_init (TwEvaluatorInterface *iface)
{
  iface->get_name = gap_get_name;
  iface->dup_required_events = gap_dup_required_events;
  iface->new_table = gap_new_table;
  iface->create_update = gap_create_update;
}

static void
test_gap_finalize (GObject *object)
{
  g_free (TEST_GAP (object)->name);
  g_free (TEST_GAP (object)->event);
  G_OBJECT_CLASS (test_gap_parent_class)->finalize (object);
}

static void
test_gap_class_init (TestGapClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_gap_finalize;
}

static void
test_gap_init (TestGap *self)
{
}

static TwEvaluator *
new_gap (const char  *event,
         gpointer     user_data,
         GError     **error)
{
  TestGap *self;

  if (event == NULL || event[0] == '\0')
    {
      g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                           "test-gap needs an event: test-gap:EVENT");
      return NULL;
    }
  self = g_object_new (TEST_TYPE_GAP, NULL);
  self->event = g_strdup (event);
  self->name = g_strdup_printf ("test-gap:%s", event);
  return TW_EVALUATOR (self);
}

static void
register_gap (void)
{
  g_autoptr(TwEvaluatorFactory) factory =
    tw_evaluator_factory_new ("test-gap", "EVENT", "time between consecutive EVENTs (only in this test)",
                              new_gap, NULL, NULL);

  tw_evaluator_factory_register (factory);
}

/* ------------------------------------------------------------------ helpers */

/* Five interrupts on CPU 0 while task 11 runs: entries at 2000, 5000, 8000, 12000, 20000. */
static const char IRQ_CSV[] =
  "time_ns,cpu,task,event,task_name,next,prev_state,irq\n"
  "1000,0,10,switch,idle,11,R,\n"
  "2000,0,11,irq_entry,worker,,,19\n"
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

/* What the CSV export and `eval --csv` must write for test-gap:irq_entry. */
static const char GAP_CSV[] =
  "task,begin_ns,end_ns,length_ns,intermediate_events,lost,cpu\n"
  "11,2000,5000,3000,1,0,0\n"
  "11,5000,8000,3000,2,0,0\n"
  "11,8000,12000,4000,1,0,0\n"
  "11,12000,20000,8000,1,0,0\n";

typedef struct {
  TwWindow *window;
  char     *sensor_dir;
} Fixture;

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (!have_display)
    return;
  fx->sensor_dir = tw_test_use_temp_sensor_dir ();
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (!have_display)
    return;
  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  tw_test_remove_sensor_dir (g_steal_pointer (&fx->sensor_dir));
}

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

/* Opens @file in the window; FALSE (the test skipped) without a display or input. */
static gboolean
open_in_window (Fixture *fx,
                GFile   *file)
{
  if (!have_display || tw_test_input_skip ())
    {
      if (!have_display)
        g_test_skip ("no display (run under xvfb-run)");
      return FALSE;
    }
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  return TRUE;
}

static gboolean
no_transition (gpointer data)
{
  return !gtk_stack_get_transition_running (data);
}

static TwEvaluationsPane *
show_pane (Fixture *fx)
{
  TwEvaluationsPane *pane = tw_window_get_evaluations_pane (fx->window);
  GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_STACK);

  g_assert_true (tw_test_wait_until (no_transition, stack, WAIT_MS));
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  return pane;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  tw_test_collect_descendants (root, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      return g_ptr_array_index (buttons, i);
  g_error ("no button “%s”", label);
}

/* Picks test-gap in a list of registered evaluators (a GtkDropDown of
 * TwEvaluatorFactory), as a user does; it must be offered. */
static void
pick_gap (GtkDropDown *offered)
{
  GListModel *factories = gtk_drop_down_get_model (offered);
  guint position = GTK_INVALID_LIST_POSITION;

  for (guint i = 0; i < g_list_model_get_n_items (factories); i++)
    {
      g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (factories, i);

      if (g_str_equal (tw_evaluator_factory_get_name (factory), "test-gap"))
        position = i;
    }
  g_assert_cmpuint (position, !=, GTK_INVALID_LIST_POSITION);
  gtk_drop_down_set_selected (offered, position);
}

/* Picks test-gap in the metric list, names its event in the Start field and clicks
 * Add Metric with the pointer, as a user does. */
static void
add_gap_with_a_click (Fixture           *fx,
                      TwEvaluationsPane *pane,
                      const char        *event)
{
  GtkWidget *add = find_button (GTK_WIDGET (pane), "_Add Metric");
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  pick_gap (GTK_DROP_DOWN (gtk_widget_get_prev_sibling (add)));
  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_EVENT_NAME_ENTRY, entries);
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), event);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  tw_test_input_click (add, gtk_widget_get_width (add) / 2.0, gtk_widget_get_height (add) / 2.0, 1, NULL);
}

typedef struct {
  TwEvaluationsPane *pane;
  guint              n;
} Count;

static gboolean
has_evaluations (gpointer data)
{
  Count *c = data;

  return tw_evaluations_pane_get_n_evaluations (c->pane) == c->n;
}

static gboolean
first_done (gpointer data)
{
  return !tw_evaluations_pane_is_running (data, 0);
}

/* Runs `tracewb-cli ARGS…` in this process (the same code as the binary), its standard
 * output into a string. */
static int
run_cli_here (const char *const *args,
              char             **out)
{
  g_autofree char *path = g_build_filename (tw_test_get_private_dir (), "cli-stdout.txt", NULL);
  /* option parsing takes the options out of argv without freeing them: free the copy */
  g_auto(GStrv) owned = g_strdupv ((char **) args + 1);
  g_autofree char **argv = g_memdup2 (owned, (g_strv_length (owned) + 1) * sizeof (char *));
  int saved = dup (STDOUT_FILENO);
  int fd;
  int status;

  fflush (stdout);
  fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  dup2 (fd, STDOUT_FILENO);
  close (fd);
  if (g_str_equal (args[0], "eval"))
    status = tw_cli_eval (g_strv_length (owned), argv);
  else
    status = tw_cli_metrics (g_strv_length (owned), argv);
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  g_assert_true (g_file_get_contents (path, out, NULL, NULL));
  return status;
}

/* ------------------------------------------------------------------ the story */

/* In the window: offered in the metric list, added with a click, measured in a thread,
 * its bars drawn and its CSV exported; the pane never heard of it. */
static void
test_pane (Fixture       *fx,
           gconstpointer  data)
{
  static const double BAR_RGB[3] = { 0.26, 0.52, 0.96 };
  g_autofree char *path = tw_test_write_temp_file ("irqs.csv", IRQ_CSV, -1);
  g_autofree char *exported_path = g_build_filename (tw_test_get_private_dir (), "gap.csv", NULL);
  g_autofree char *exported = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwHistogramView *view;
  const TwHistogramSnapshot *snapshot;
  TwMeasurementTable *table;
  cairo_surface_t *surface;
  cairo_rectangle_t bar;
  GtkWidget *plot;
  gboolean said = FALSE;
  int tallest = -1;
  double px[3];
  Count one;

  if (!open_in_window (fx, file))
    return;
  pane = show_pane (fx);

  add_gap_with_a_click (fx, pane, "irq_entry");
  one = (Count) { pane, 1 };
  g_assert_true (tw_test_wait_until (has_evaluations, &one, WAIT_MS));
  g_assert_cmpstr (tw_evaluations_pane_get_name (pane, 0), ==, "test-gap:irq_entry");
  g_assert_true (tw_test_wait_until (first_done, pane, WAIT_MS));
  g_assert_null (tw_evaluations_pane_get_error_message (pane, 0));

  table = tw_evaluations_pane_get_table (pane, 0);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 4);
  g_assert_true (tw_evaluations_pane_export_csv (pane, 0, exported_path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (exported_path, &exported, NULL, NULL));
  g_assert_cmpstr (exported, ==, GAP_CSV);

  tw_test_collect_descendants (tw_evaluations_pane_get_page (pane, 0), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    said |= g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)),
                         "test-gap:irq_entry: 4 measurements");
  g_assert_true (said);

  /* its histogram: four gaps, bars in the bar colour where the painter puts them */
  view = tw_evaluations_pane_get_histogram_view (pane, 0);
  snapshot = tw_test_wait_histogram_count (view, 4, WAIT_MS);
  g_assert_nonnull (snapshot);
  g_assert_cmpfloat (snapshot->min, ==, 3000);
  g_assert_cmpfloat (snapshot->max, ==, 8000);
  for (guint b = 0; b < snapshot->n_bins; b++)
    if (snapshot->bins[b] > 0 && (tallest < 0 || snapshot->bins[b] > snapshot->bins[tallest]))
      tallest = b;
  g_assert_cmpint (tallest, >=, 0);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  plot = tw_histogram_view_get_plot (view);
  surface = tw_test_grab_widget (plot);
  g_assert_true (tw_histogram_painter_get_bar (tw_histogram_view_get_painter (view), snapshot,
                                               gtk_widget_get_width (plot),
                                               gtk_widget_get_height (plot), tallest, &bar));
  tw_test_surface_get_rgb (surface, (int) (bar.x + bar.width / 2), (int) (bar.y + bar.height - 3), px);
  g_assert_true (tw_test_rgb_near (px, BAR_RGB));
  cairo_surface_destroy (surface);
}

/* `tracewb-cli eval --metric test-gap:irq_entry` writes the same CSV and says how many;
 * `tracewb-cli metrics` lists it after the system metrics. */
static void
test_cli (void)
{
  g_autofree char *path = tw_test_write_temp_file ("irqs.csv", IRQ_CSV, -1);
  g_autofree char *csv_path = g_build_filename (tw_test_get_private_dir (), "cli-gap.csv", NULL);
  const char *eval[] = { "eval", "eval", path, "--metric", "test-gap:irq_entry", "--csv", csv_path,
                         NULL };
  const char *missing[] = { "eval", "eval", path, "--metric", "test-gap", NULL };
  const char *metrics[] = { "metrics", "metrics", NULL };
  g_autofree char *out = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *nothing = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_system = 0;

  g_assert_cmpint (run_cli_here (eval, &out), ==, 0);
  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  g_assert_cmpstr (csv, ==, GAP_CSV);
  g_assert_true (g_str_has_prefix (out, "test-gap:irq_entry: 4 measurements\n"));

  /* its own error, through the same path as every metric's */
  g_assert_cmpint (run_cli_here (missing, &nothing), ==, 1);
  g_assert_cmpstr (nothing, ==, "");

  g_assert_cmpint (run_cli_here (metrics, &listing), ==, 0);
  lines = g_strsplit (listing, "\n", -1);
  tw_metrics_get_system_metrics (&n_system);
  g_assert_cmpuint (g_strv_length (lines), ==, n_system + 2);
  g_assert_true (g_str_has_prefix (lines[n_system], "test-gap:EVENT"));
  g_assert_true (g_str_has_suffix (lines[n_system], "time between consecutive EVENTs (only in this test)"));
}

static gboolean
designer_open (gpointer data)
{
  return tw_test_find_toplevel (TW_TYPE_DESIGNER_WINDOW, FALSE) != NULL;
}

static gboolean
comparison_done (gpointer data)
{
  return !tw_designer_compare_get_running (data)
         && !g_str_equal (tw_designer_compare_get_summary (data), "Measuring…");
}

/* In the Metric Designer (Ctrl+D): offered in *Compare with*, chosen, its event typed
 * and measured with a click on *Measure*, beside the automaton; the designer never
 * heard of it. */
static void
test_designer (Fixture       *fx,
               gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("irqs.csv", IRQ_CSV, -1);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) compares = g_ptr_array_new ();
  g_autoptr(GPtrArray) dropdowns = g_ptr_array_new ();
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  TwDesignerWindow *designer;
  TwDesignerCompare *compare;
  GtkWidget *measure;

  if (!open_in_window (fx, file))
    return;
  tw_test_input_keys (GTK_WIDGET (fx->window), "ctrl+d");
  g_assert_true (tw_test_wait_until (designer_open, NULL, WAIT_MS));
  designer = TW_DESIGNER_WINDOW (tw_test_find_toplevel (TW_TYPE_DESIGNER_WINDOW, FALSE));
  tw_test_wait_frames (GTK_WIDGET (designer), 3);

  tw_test_collect_descendants (GTK_WIDGET (designer), TW_TYPE_DESIGNER_COMPARE, compares);
  g_assert_cmpuint (compares->len, ==, 1);
  compare = g_ptr_array_index (compares, 0);
  tw_test_collect_descendants (GTK_WIDGET (compare), GTK_TYPE_DROP_DOWN, dropdowns);
  pick_gap (g_ptr_array_index (dropdowns, 0));
  tw_test_collect_descendants (GTK_WIDGET (compare), GTK_TYPE_ENTRY, entries);
  g_assert_true (gtk_widget_get_sensitive (g_ptr_array_index (entries, 0)));
  g_assert_cmpstr (gtk_entry_get_placeholder_text (g_ptr_array_index (entries, 0)), ==, "EVENT");
  gtk_editable_set_text (GTK_EDITABLE (g_ptr_array_index (entries, 0)), "irq_entry");
  tw_test_wait_frames (GTK_WIDGET (designer), 2);

  measure = find_button (GTK_WIDGET (compare), "_Measure");
  g_assert_true (gtk_widget_is_sensitive (measure));
  tw_test_input_click (measure, gtk_widget_get_width (measure) / 2.0,
                       gtk_widget_get_height (measure) / 2.0, 1, NULL);
  g_assert_true (tw_test_wait_until (comparison_done, compare, WAIT_MS));
  /* gaps of 3000, 3000, 4000 and 8000 ns */
  g_assert_cmpstr (tw_designer_compare_get_summary (compare), ==,
                   "test-gap:irq_entry: 4 measurements · mean 4.5 µs · max 8 µs");
  tw_test_close_window (GTK_WINDOW (designer));
}

typedef struct {
  TwHistogramView *view;
  guint64          count;
} HistCount;

static gboolean
histogram_has (gpointer data)
{
  HistCount *h = data;
  TwHistogram *histogram = tw_histogram_view_get_histogram (h->view);

  return histogram && tw_histogram_get_count (histogram) == h->count;
}

/* Live: added while the session runs, it follows the sensors: one gap per element
 * after the first, as they arrive. */
static void
test_live (Fixture       *fx,
           gconstpointer  data)
{
  g_autoptr(TwLiveSession) session = NULL;
  g_autoptr(GError) error = NULL;
  TwSensor *sensor;
  TwEvaluationsPane *pane;
  guint64 written = 0;
  HistCount h;
  Count one;

  if (!have_display || tw_test_input_skip ())
    {
      if (!have_display)
        g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  sensor = tw_sensor_new ("job", "tick", "u64 seq", 4096, 0);
  g_assert_nonnull (sensor);
  session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_start (session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, session);
  pane = show_pane (fx);

  add_gap_with_a_click (fx, pane, "job@tick");
  one = (Count) { pane, 1 };
  g_assert_true (tw_test_wait_until (has_evaluations, &one, WAIT_MS));
  g_assert_null (tw_evaluations_pane_get_error_message (pane, 0));
  h = (HistCount) { tw_evaluations_pane_get_histogram_view (pane, 0), 0 };
  for (guint round = 0; round < 4; round++)
    {
      for (guint i = 0; i < 10; i++)
        {
          guint64 *element = tw_sensor_write (sensor);

          *element = written++;
          tw_sensor_commit (sensor, element);
          g_usleep (5);
        }
      h.count = written - 1;
      g_assert_true (tw_test_wait_until (histogram_has, &h, WAIT_MS));
      g_assert_true (tw_evaluations_pane_is_running (pane, 0));
    }
  g_assert_cmpuint (tw_measurement_table_get_n_rows (tw_evaluations_pane_get_table (pane, 0)), ==, 39);
  tw_evaluations_pane_remove (pane, 0);
  tw_sensor_free (sensor);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;
  register_gap ();

#define ADD(path, func) g_test_add ("/tw/app/story/evaluator/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("pane", test_pane);
  ADD ("designer", test_designer);
  ADD ("live", test_live);
#undef ADD
  g_test_add_func ("/tw/app/story/evaluator/cli", test_cli);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
