/* test-story-compare.c: `tracewb A B --compare`, the window a user compares two runs in
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A run with more load (the "interference") against a clean one: the window must show
 * the figures `tracewb-cli compare` prints, follow the task and evaluation the user
 * picks, draw both runs, and let Cancel stop a long read.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "tw-application.h"
#include "tw-compare-timelines.h"
#include "tw-compare-window.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"

#define WAIT_MS 120000

static TwApplication *app;

typedef struct {
  char *dir;
  char *clean;
  char *loaded;
} Runs;

static char *
simulate (const char *dir,
          const char *name,
          const char *utilization,
          const char *events)
{
  char *path = g_build_filename (dir, name, NULL);
  const char *const args[] = { "simulate", "-o", path, "--events", events, "--utilization",
                               utilization, "--seed", "5", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  return path;
}

static void
runs_set_up (Runs          *runs,
             gconstpointer  data)
{
  runs->dir = g_dir_make_tmp ("tw-story-compare-XXXXXX", NULL);
  runs->clean = simulate (runs->dir, "clean.shark", "0.5", "60000");
  runs->loaded = simulate (runs->dir, "loaded.shark", "0.85", "60000");
}

static void
runs_tear_down (Runs          *runs,
                gconstpointer  data)
{
  g_unlink (runs->clean);
  g_unlink (runs->loaded);
  g_rmdir (runs->dir);
  g_free (runs->clean);
  g_free (runs->loaded);
  g_free (runs->dir);
}

static gboolean
shows_comparison (gpointer data)
{
  return tw_compare_window_get_comparison (data) != NULL;
}

static GtkWidget *
find_descendant (GtkWidget  *root,
                 GType       type,
                 const char *label)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  tw_test_collect_descendants (root, type, found);
  for (guint i = 0; i < found->len; i++)
    {
      GtkWidget *w = g_ptr_array_index (found, i);

      if (label == NULL ||
          (GTK_IS_LABEL (w) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (w)), label) == 0) ||
          (GTK_IS_CHECK_BUTTON (w) && g_strcmp0 (gtk_check_button_get_label (GTK_CHECK_BUTTON (w)), label) == 0))
        return w;
    }
  return NULL;
}

/* The label right of the statistics grid's row heading @stat, in column @column. */
static const char *
stats_cell (GtkWidget  *window,
            const char *stat,
            int         column)
{
  GtkWidget *heading = find_descendant (window, GTK_TYPE_LABEL, stat);
  GtkWidget *grid = gtk_widget_get_parent (heading);
  int row;

  gtk_grid_query_child (GTK_GRID (grid), heading, NULL, &row, NULL, NULL);
  return gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), column, row)));
}

/* The CLI's JSON group of @task (NULL: all tasks); lengths compensated by @costs when
 * set. */
static JsonObject *
cli_compare_full (Runs       *runs,
                  const char *metric,
                  const char *task,
                  const char *costs,
                  JsonParser *parser)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autofree char *out = NULL, *err = NULL;
  int status;

  for (const char *const *a = (const char *const[]) { "compare", runs->clean, runs->loaded,
                                                      "--metric", metric, "--json", NULL }; *a; a++)
    g_ptr_array_add (args, (gpointer) *a);
  if (task)
    {
      g_ptr_array_add (args, (gpointer) "--task");
      g_ptr_array_add (args, (gpointer) task);
    }
  if (costs)
    {
      g_ptr_array_add (args, (gpointer) "--compensated");
      g_ptr_array_add (args, (gpointer) "--event-cost");
      g_ptr_array_add (args, (gpointer) costs);
    }
  g_ptr_array_add (args, NULL);
  g_assert_true (tw_test_run_cli ((const char *const *) args->pdata, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  return json_array_get_object_element (
    json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "groups"), 0);
}

static JsonObject *
cli_compare (Runs       *runs,
             const char *metric,
             const char *task,
             JsonParser *parser)
{
  return cli_compare_full (runs, metric, task, NULL, parser);
}

static void
assert_cell_is (GtkWidget  *window,
                JsonObject *group,
                const char *stat,
                int         column)
{
  JsonObject *s = json_object_get_object_member (json_object_get_object_member (group, "stats"), stat);
  double ns = json_object_get_double_member (s, column == 1 ? "a" : "b");
  g_autofree char *expected = strcmp (stat, "n") == 0 ? g_strdup_printf ("%.0f", ns)
                                                      : g_strdup_printf ("%.3f", ns / 1e3);

  g_assert_cmpstr (stats_cell (window, stat, column), ==, expected);
}

/* Pixels of the two runs' colours in the histogram. */
static void
count_run_pixels (GtkWidget *histogram,
                  guint     *n_a,
                  guint     *n_b)
{
  cairo_surface_t *surface = tw_test_grab_widget (histogram);
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guchar *data = cairo_image_surface_get_data (surface);
  GdkRGBA a, b;

  tw_compare_histogram_get_run_color (0, &a);
  tw_compare_histogram_get_run_color (1, &b);
  *n_a = *n_b = 0;
  for (int i = 0; i < w * h; i++)
    {
      guint32 pixel = *(const guint32 *) (data + (i / w) * stride + (i % w) * 4);
      int r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, bl = pixel & 0xff;

      if (ABS (r - (int) (a.red * 255)) < 3 && ABS (g - (int) (a.green * 255)) < 3 &&
          ABS (bl - (int) (a.blue * 255)) < 3)
        (*n_a)++;
      if (ABS (r - (int) (b.red * 255)) < 3 && ABS (g - (int) (b.green * 255)) < 3 &&
          ABS (bl - (int) (b.blue * 255)) < 3)
        (*n_b)++;
    }
  cairo_surface_destroy (surface);
}

static void
test_figures_task_and_evaluation (Runs          *runs,
                                  gconstpointer  data)
{
  g_autoptr(GFile) clean = g_file_new_for_path (runs->clean);
  g_autoptr(GFile) loaded = g_file_new_for_path (runs->loaded);
  g_autoptr(JsonParser) parser = json_parser_new ();
  TwCompareWindow *window;
  GtkWidget *task_list, *evaluator_list, *histogram;
  JsonObject *group;
  guint n_a, n_b, position;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  window = tw_compare_window_new (GTK_APPLICATION (app), clean, loaded);
  tw_test_present_window (GTK_WINDOW (window), 1100, 800);
  g_assert_true (tw_test_wait_until (shows_comparison, window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 3);

  /* the S.Ha.R.K. runs default to the job response times, as the CLI computes them */
  group = cli_compare (runs, "response-time", NULL, parser);
  for (const char *const *s = (const char *const[]) { "n", "min", "p50", "p99", "p99.9", "max", NULL }; *s; s++)
    {
      assert_cell_is (GTK_WIDGET (window), group, *s, 1);
      assert_cell_is (GTK_WIDGET (window), group, *s, 2);
    }
  g_assert_nonnull (find_descendant (GTK_WIDGET (window), GTK_TYPE_LABEL, "Per task (µs; tasks matched by name)"));

  histogram = find_descendant (GTK_WIDGET (window), TW_TYPE_COMPARE_HISTOGRAM, NULL);
  count_run_pixels (histogram, &n_a, &n_b);
  g_assert_cmpuint (n_a, >, 50);
  g_assert_cmpuint (n_b, >, 50);

  /* one task: its figures */
  task_list = gtk_widget_get_next_sibling (find_descendant (GTK_WIDGET (window), GTK_TYPE_LABEL, "Task"));
  g_assert_true (GTK_IS_DROP_DOWN (task_list));
  g_assert_true (tw_run_comparison_find_group (tw_compare_window_get_comparison (window), "280", &position));
  gtk_drop_down_set_selected (GTK_DROP_DOWN (task_list), position);
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  group = cli_compare (runs, "response-time", "280", parser);
  assert_cell_is (GTK_WIDGET (window), group, "n", 1);
  assert_cell_is (GTK_WIDGET (window), group, "p99", 2);

  /* another evaluation: computed again in its thread, the task kept */
  evaluator_list = gtk_widget_get_next_sibling (find_descendant (GTK_WIDGET (window), GTK_TYPE_LABEL, "Evaluation"));
  for (position = 0; position < g_list_model_get_n_items (gtk_drop_down_get_model (GTK_DROP_DOWN (evaluator_list))); position++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (evaluator_list))), position),
                   "run-slice") == 0)
      break;
  gtk_drop_down_set_selected (GTK_DROP_DOWN (evaluator_list), position);
  g_assert_true (tw_test_wait_until (shows_comparison, window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  g_assert_cmpstr (gtk_string_object_get_string (gtk_drop_down_get_selected_item (GTK_DROP_DOWN (task_list))), ==, "280");
  group = cli_compare (runs, "run-slice", "280", parser);
  assert_cell_is (GTK_WIDGET (window), group, "n", 2);
  assert_cell_is (GTK_WIDGET (window), group, "max", 1);

  tw_test_close_window (GTK_WINDOW (window));
}

/* The window's own stack (drop-downs hold stacks of their own). */
static GtkStack *
find_pages (GtkWidget *window)
{
  g_autoptr(GPtrArray) stacks = g_ptr_array_new ();

  tw_test_collect_descendants (window, GTK_TYPE_STACK, stacks);
  for (guint i = 0; i < stacks->len; i++)
    if (gtk_stack_get_child_by_name (g_ptr_array_index (stacks, i), "error"))
      return g_ptr_array_index (stacks, i);
  g_error ("the compare window has no page named error");
}

static gboolean
shows_error (gpointer data)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (find_pages (data)), "error") == 0;
}

/* A long read, cancelled: the window says so and stays usable. */
static void
test_cancel (Runs          *runs,
             gconstpointer  data)
{
  g_autofree char *big = NULL;
  g_autoptr(GFile) a = NULL, b = NULL;
  TwCompareWindow *window;
  GtkWidget *error;

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  big = simulate (runs->dir, "big.shark", "0.6", "6000000");
  a = g_file_new_for_path (big);
  b = g_file_new_for_path (big);
  window = tw_compare_window_new (GTK_APPLICATION (app), a, b);
  tw_test_present_window (GTK_WINDOW (window), 900, 600);
  /* the window's Cancel button, pressed while both traces are still being read */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "compare.cancel", NULL));
  g_assert_true (tw_test_wait_until (shows_error, window, WAIT_MS));
  error = gtk_stack_get_child_by_name (find_pages (GTK_WIDGET (window)), "error");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error)), !=, "");
  g_assert_null (tw_compare_window_get_comparison (window));
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  tw_test_close_window (GTK_WINDOW (window));
  g_unlink (big);
}

/* Columns of the histogram holding run A's colour: how widely its bars spread. */
static guint
count_run_a_columns (GtkWidget *histogram)
{
  cairo_surface_t *surface = tw_test_grab_widget (histogram);
  int w = cairo_image_surface_get_width (surface), h = cairo_image_surface_get_height (surface);
  int stride = cairo_image_surface_get_stride (surface);
  const guchar *data = cairo_image_surface_get_data (surface);
  guint columns = 0;
  GdkRGBA a;

  tw_compare_histogram_get_run_color (0, &a);
  for (int x = 0; x < w; x++)
    for (int y = 0; y < h; y++)
      {
        guint32 pixel = *(const guint32 *) (data + y * stride + x * 4);

        if (ABS ((int) ((pixel >> 16) & 0xff) - (int) (a.red * 255)) < 3
            && ABS ((int) ((pixel >> 8) & 0xff) - (int) (a.green * 255)) < 3
            && ABS ((int) (pixel & 0xff) - (int) (a.blue * 255)) < 3)
          {
            columns++;
            break;
          }
      }
  cairo_surface_destroy (surface);
  return columns;
}

/* Two real recordings: wakeup latencies of a few µs with tails of 50 and 500 ms. In
 * linear bins all but a handful fall into the first; the window starts them in
 * logarithmic bins, where the bulk spreads over many, and the user can switch back. */
/* The compare window on the two shared ftrace recordings, showing its comparison; NULL
 * (the test skipped) without a display or the recordings. */
static TwCompareWindow *
open_recordings (void)
{
  g_autofree char *path_a = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *path_b = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_all_2s.dat");
  g_autoptr(GFile) a = NULL, b = NULL;
  TwCompareWindow *window;

  if (app == NULL || path_a == NULL || path_b == NULL)
    {
      g_test_skip (app == NULL ? "no display" : "the shared ftrace recordings are missing");
      return NULL;
    }
  a = g_file_new_for_path (path_a);
  b = g_file_new_for_path (path_b);
  window = tw_compare_window_new (GTK_APPLICATION (app), a, b);
  tw_test_present_window (GTK_WINDOW (window), 1100, 800);
  g_assert_true (tw_test_wait_until (shows_comparison, window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 3);
  return window;
}

static void
test_log_lengths (void)
{
  TwCompareWindow *window = open_recordings ();
  GtkWidget *log_lengths, *histogram;
  guint spread_log, spread_linear;

  if (window == NULL)
    return;
  log_lengths = find_descendant (GTK_WIDGET (window), GTK_TYPE_CHECK_BUTTON, "Logarithmic lengths");
  g_assert_nonnull (log_lengths);
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (log_lengths)));
  histogram = find_descendant (GTK_WIDGET (window), TW_TYPE_COMPARE_HISTOGRAM, NULL);
  spread_log = count_run_a_columns (histogram);

  gtk_check_button_set_active (GTK_CHECK_BUTTON (log_lengths), FALSE);
  tw_test_wait_frames (GTK_WIDGET (window), 3);
  spread_linear = count_run_a_columns (histogram);
  g_test_message ("run A's bars span %u columns in log bins, %u in linear ones", spread_log, spread_linear);
  g_assert_cmpuint (spread_log, >, 4 * spread_linear);

  /* the user's choice holds for another task */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gtk_widget_get_next_sibling (
                                find_descendant (GTK_WIDGET (window), GTK_TYPE_LABEL, "Task"))), 1);
  tw_test_wait_frames (GTK_WIDGET (window), 2);
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (log_lengths)));

  tw_test_close_window (GTK_WINDOW (window));
}

static gboolean
timelines_ready (gpointer data)
{
  return tw_compare_timelines_is_ready (data);
}

static guint64
duration_of (TwViewState *view)
{
  TwTrace *trace = tw_view_state_get_trace (view);

  return tw_trace_get_last_time (trace) + 1 - tw_trace_get_first_time (trace);
}

/* The Timelines page: run A (5.5 s) above run B (2.7 s). On one time scale B's view
 * runs on past its end as far as A's, and zooming A to a second of its middle shows
 * the same second of B from B's start; without one scale B fills its own width. */
static void
test_timelines (void)
{
  TwCompareWindow *window = open_recordings ();
  TwCompareTimelines *timelines;
  GtkWidget *switcher_button;
  TwViewState *a, *b;
  guint64 a_begin, a_end, b_begin, b_end, a_first, b_first;

  if (window == NULL)
    return;
  timelines = TW_COMPARE_TIMELINES (find_descendant (GTK_WIDGET (window), TW_TYPE_COMPARE_TIMELINES, NULL));
  /* the page as a user opens it: the switcher's Timelines button */
  switcher_button = find_descendant (GTK_WIDGET (window), GTK_TYPE_LABEL, "Timelines");
  g_assert_nonnull (switcher_button);
  g_signal_emit_by_name (gtk_widget_get_ancestor (switcher_button, GTK_TYPE_TOGGLE_BUTTON), "clicked");
  g_assert_true (tw_test_wait_until (timelines_ready, timelines, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 3);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tw_compare_timelines_get_timeline (timelines, 1))));

  a = tw_timeline_get_view_state (tw_compare_timelines_get_timeline (timelines, 0));
  b = tw_timeline_get_view_state (tw_compare_timelines_get_timeline (timelines, 1));
  a_first = tw_trace_get_first_time (tw_view_state_get_trace (a));
  b_first = tw_trace_get_first_time (tw_view_state_get_trace (b));
  g_assert_cmpuint (duration_of (a), >, duration_of (b) * 3 / 2);
  tw_view_state_get_visible_range (a, &a_begin, &a_end);
  tw_view_state_get_visible_range (b, &b_begin, &b_end);
  g_assert_cmpuint (a_end - a_begin, ==, b_end - b_begin);
  g_assert_cmpuint (b_end, >, b_first + duration_of (a) - 1);

  tw_view_state_set_visible_range (a, a_first + 2000000000, a_first + 3000000000);
  tw_view_state_get_visible_range (b, &b_begin, &b_end);
  g_assert_cmpuint (b_begin, ==, b_first + 2000000000);
  g_assert_cmpuint (b_end, ==, b_first + 3000000000);
  /* and the other way */
  tw_view_state_set_visible_range (b, b_first + 500000000, b_first + 700000000);
  tw_view_state_get_visible_range (a, &a_begin, &a_end);
  g_assert_cmpuint (a_begin, ==, a_first + 500000000);
  g_assert_cmpuint (a_end, ==, a_first + 700000000);

  tw_compare_timelines_set_one_scale (timelines, FALSE);
  tw_view_state_get_visible_range (b, &b_begin, &b_end);
  g_assert_cmpuint (b_begin, ==, b_first);
  g_assert_cmpuint (b_end, ==, b_first + duration_of (b));
  tw_view_state_set_visible_range (a, a_first + 2000000000, a_first + 3000000000);
  tw_view_state_get_visible_range (b, &b_begin, &b_end);
  g_assert_cmpuint (b_begin, ==, b_first);

  tw_test_close_window (GTK_WINDOW (window));
}

static gboolean
comparison_replaced (gpointer data)
{
  gpointer *old_and_window = data;
  TwRunComparison *now = tw_compare_window_get_comparison (old_and_window[1]);

  return now != NULL && (gpointer) now != old_and_window[0];
}

/* Subtract tracing cost with costs stored per event type (calibrate --set
 * shark:kind:switch=5us): the window subtracts each event's own cost, as the CLI does. */
static void
test_type_costs (Runs          *runs,
                 gconstpointer  data)
{
  g_autoptr(GFile) clean = g_file_new_for_path (runs->clean);
  g_autoptr(GFile) loaded = g_file_new_for_path (runs->loaded);
  g_autoptr(JsonParser) typed_parser = json_parser_new ();
  g_autoptr(JsonParser) uniform_parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  TwEventCostCalibration per_event = { .cost_ns = 1000, .n_rounds = 1 };
  TwEventCostCalibration per_switch = { .cost_ns = 5000, .n_rounds = 1 };
  JsonObject *typed, *uniform;
  TwCompareWindow *window;
  GtkWidget *compensate;
  gpointer old_and_window[2];

  if (app == NULL)
    {
      g_test_skip ("no display");
      return;
    }
  g_assert_true (tw_event_cost_store ("shark", &per_event, &error));
  g_assert_true (tw_event_cost_store ("shark:kind:switch", &per_switch, &error));
  g_assert_no_error (error);
  /* the CLI reads the same store through the same folder */
  g_setenv ("XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);

  window = tw_compare_window_new (GTK_APPLICATION (app), clean, loaded);
  tw_test_present_window (GTK_WINDOW (window), 1100, 800);
  g_assert_true (tw_test_wait_until (shows_comparison, window, WAIT_MS));
  compensate = find_descendant (GTK_WIDGET (window), GTK_TYPE_CHECK_BUTTON, "Subtract tracing cost");
  g_assert_true (gtk_widget_get_sensitive (compensate));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (compensate), "kind:switch 5.000 µs"));

  old_and_window[0] = tw_compare_window_get_comparison (window);
  old_and_window[1] = window;
  gtk_check_button_set_active (GTK_CHECK_BUTTON (compensate), TRUE);
  g_assert_true (tw_test_wait_until (comparison_replaced, old_and_window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (window), 2);

  typed = cli_compare_full (runs, "response-time", NULL, "kind:switch=5us,*=1us", typed_parser);
  uniform = cli_compare_full (runs, "response-time", NULL, "1us", uniform_parser);
  /* the switches' own cost matters here */
  g_assert_cmpfloat (json_object_get_double_member (json_object_get_object_member (
                       json_object_get_object_member (typed, "stats"), "p50"), "a"), !=,
                     json_object_get_double_member (json_object_get_object_member (
                       json_object_get_object_member (uniform, "stats"), "p50"), "a"));
  for (const char *const *s = (const char *const[]) { "n", "p50", "max", NULL }; *s; s++)
    {
      assert_cell_is (GTK_WIDGET (window), typed, *s, 1);
      assert_cell_is (GTK_WIDGET (window), typed, *s, 2);
    }
  tw_test_close_window (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add ("/tw/story/compare/figures", Runs, NULL, runs_set_up,
              test_figures_task_and_evaluation, runs_tear_down);
  g_test_add ("/tw/story/compare/cancel", Runs, NULL, runs_set_up, test_cancel, runs_tear_down);
  g_test_add ("/tw/story/compare/type-costs", Runs, NULL, runs_set_up, test_type_costs,
              runs_tear_down);
  g_test_add_func ("/tw/story/compare/log-lengths", test_log_lengths);
  g_test_add_func ("/tw/story/compare/timelines", test_timelines);
  return g_test_run ();
}
