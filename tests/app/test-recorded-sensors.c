/* test-recorded-sensors.c: a recorded session folder with sensors opened in the window
 * gets a Sensors tab, each sensor's declared stream checked over its recorded elements
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The folder is written by hand (tests/lib/tw-test-ust-ctf.h), as a relay records two
 * targets whose monitors emit their sensors' `tracewb:*` events: no LTTng needed.
 *  - tA `probe@dense` declares an element every 10 ms (no earliness) and has 10 at 1 ms:
 *    each after the first comes too early (the check starts over at each violation);
 *  - tA `probe@calm` declares the same and keeps it: 5 elements 10 ms apart, then its
 *    monitor misses 2, then 3 more 10 ms apart, the first only 5 ms after the gap's
 *    start: checked as one stream it would be early, checked again after the gap (as
 *    live) it fits;
 *  - tB `probe@plain` declares nothing.
 * The monitors' counts events give dense 3 torn elements, calm none; plain has none.
 *
 * A local recording is made as `tracewb-cli monitor --record` makes it: a monitor reads
 * two sensors of this process and its store is written as CTF. `probe@burst` declares an
 * element a ms with 10 s of earliness, which 100 elements at once keep; its ring holds
 * 64, so the monitor misses 36 (the monitor stores no loss rows: its count says so);
 * `probe@plain` declares nothing.
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-sensors-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-lttng-target.h"
#include "tw-test-ust-ctf.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000
#define MS      G_GUINT64_CONSTANT (1000000)

static TwApplication *app;

static void
schema (TwTestCtf  *w,
        guint64     time,
        guint       sensor,
        const char *name,
        double      period_ns)
{
  tw_test_ctf_int (w, TW_TEST_CTF_SCHEMA, 4);
  tw_test_ctf_int (w, time, 8);
  tw_test_ctf_int (w, 4242, 4);
  tw_test_ctf_int (w, sensor, 4);
  tw_test_ctf_int (w, 777, 8);
  tw_test_ctf_str (w, "probe");
  tw_test_ctf_str (w, name);
  tw_test_ctf_str (w, "u64 seq");
  tw_test_ctf_int (w, 16, 4);
  tw_test_ctf_int (w, 8, 4);
  tw_test_ctf_int (w, 0, 1);
  /* T, D, τ, T_M, d */
  tw_test_ctf_double (w, period_ns);
  tw_test_ctf_double (w, 0);
  tw_test_ctf_double (w, 0);
  tw_test_ctf_double (w, period_ns);
  tw_test_ctf_double (w, period_ns);
}

/* An element at @timestamp, carried by an event 1 ms later (the monitor's poll). */
static void
element (TwTestCtf *w,
         guint      sensor,
         guint64    position,
         guint64    missed,
         guint64    timestamp)
{
  tw_test_ctf_int (w, TW_TEST_CTF_ELEMENT, 4);
  tw_test_ctf_int (w, timestamp + MS, 8);
  tw_test_ctf_int (w, 4242, 4);
  tw_test_ctf_int (w, sensor, 4);
  tw_test_ctf_int (w, position, 8);
  tw_test_ctf_int (w, missed, 8);
  tw_test_ctf_int (w, timestamp, 8);
  tw_test_ctf_int (w, 8, 2);
  tw_test_ctf_int (w, position, 8);
}

static void
counts (TwTestCtf *w,
        guint64    time,
        guint      sensor,
        guint64    received,
        guint64    missed,
        guint64    torn)
{
  tw_test_ctf_int (w, TW_TEST_CTF_COUNTS, 4);
  tw_test_ctf_int (w, time, 8);
  tw_test_ctf_int (w, 4242, 4);
  tw_test_ctf_int (w, sensor, 4);
  tw_test_ctf_int (w, received, 8);
  tw_test_ctf_int (w, missed, 8);
  tw_test_ctf_int (w, torn, 8);
  tw_test_ctf_int (w, 0, 8);
}

/* Events in time order, as one stream of one packet holds them. */
static void
write_target_a (const char *dir)
{
  static const guint64 calm[] = { 0, 10, 20, 30, 40, 45, 55, 65 };
  TwTestCtf w = { FALSE, g_string_new (NULL) };
  gsize size_at = tw_test_ctf_begin_packet (&w);

  schema (&w, 1 * MS, 0, "dense", 10 * MS);
  schema (&w, 1 * MS, 1, "calm", 10 * MS);
  /* both sensors' elements, merged by their events' times */
  for (guint k = 0, c = 0; k < 10 || c < G_N_ELEMENTS (calm);)
    {
      guint64 dense_t = 100 * MS + k * MS, calm_t = 100 * MS + calm[MIN (c, G_N_ELEMENTS (calm) - 1)] * MS;

      if (k < 10 && (c >= G_N_ELEMENTS (calm) || dense_t <= calm_t))
        element (&w, 0, k, 0, dense_t), k++;
      else
        {
          /* positions 5 and 6 missed: the monitor's count says so at position 7 */
          element (&w, 1, c < 5 ? c : c + 2, c < 5 ? 0 : 2, calm_t);
          c++;
        }
    }
  counts (&w, 300 * MS, 0, 10, 0, 3);
  counts (&w, 300 * MS, 1, 10, 2, 0);
  tw_test_ctf_save_to (&w, size_at, dir, TRUE, "env { hostname = \"tA\"; };\n");
  g_string_free (w.out, TRUE);
}

static void
write_target_b (const char *dir)
{
  TwTestCtf w = { FALSE, g_string_new (NULL) };
  gsize size_at = tw_test_ctf_begin_packet (&w);

  schema (&w, 1 * MS, 0, "plain", 0);
  for (guint k = 0; k < 4; k++)
    element (&w, 0, k, 0, 100 * MS + k * 7 * MS);
  tw_test_ctf_save_to (&w, size_at, dir, TRUE, "env { hostname = \"tB\"; };\n");
  g_string_free (w.out, TRUE);
}

static char *
write_folder (void)
{
  g_autoptr(GError) error = NULL;
  char *folder = g_dir_make_tmp ("tw-recorded-sensors-XXXXXX", &error);
  g_autofree char *a = g_build_filename (folder, "tA", "ust", NULL);
  g_autofree char *b = g_build_filename (folder, "tB", "ust", NULL);

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (a, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (b, 0700), ==, 0);
  write_target_a (a);
  write_target_b (b);
  return folder;
}

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

static gboolean
checked (gpointer data)
{
  return !tw_sensors_pane_get_checking (data);
}

static gboolean
mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static gboolean
tab_shown (TwWindow *window)
{
  return gtk_widget_get_ancestor (tw_window_get_sensors_pane (window), GTK_TYPE_NOTEBOOK) != NULL;
}

static void
open_and_wait (TwWindow   *window,
               const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (window, file);
  g_assert_true (tw_test_wait_until (not_loading, window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (window));
}

static void
assert_row (TwSensorsPane *pane,
            const char    *task,
            const char    *sensor,
            const char    *elements,
            const char    *missed,
            const char    *torn,
            const char    *stream)
{
  int row = tw_sensors_pane_find_row (pane, task, sensor);

  g_assert_cmpint (row, >=, 0);
  g_test_message ("%s %s: %s elements, %s missed, %s torn, stream %s", task, sensor,
                  tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_RECEIVED),
                  tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_MISSED),
                  tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_TORN),
                  tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_STREAM));
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_RECEIVED), ==, elements);
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_MISSED), ==, missed);
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_TORN), ==, torn);
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_STREAM), ==, stream);
  g_assert_cmpstr (tw_sensors_pane_get_text (pane, row, TW_SENSORS_COLUMN_SCHEMA), ==, "seq");
}

/* The folder opened with File ▸ Open: a Sensors tab, a row per sensor; then a trace
 * without sensors opened in the same window: no tab. */
static void
test_recorded_folder (void)
{
  g_autofree char *folder = NULL, *csv = NULL;
  TwWindow *window;
  TwSensorsPane *pane;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  folder = write_folder ();
  window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (window), 1280, 900);
  pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (window));
  g_assert_false (tab_shown (window));

  open_and_wait (window, folder);
  g_assert_true (tab_shown (window));
  g_assert_true (tw_test_wait_until (checked, pane, WAIT_MS));
  g_assert_cmpuint (tw_sensors_pane_get_n_rows (pane), ==, 3);
  assert_row (pane, "tA: probe", "dense", "10", "0", "3",
              "broken: earlier than the period and tau allow (9 violations)");
  assert_row (pane, "tA: probe", "calm", "8", "2", "0", "OK");
  assert_row (pane, "tB: probe", "plain", "4", "0", "—", "none declared");

  /* another trace replaces it: no sensors, no tab */
  csv = g_test_build_filename (G_TEST_DIST, "fixtures", "csv", "sched.csv", NULL);
  open_and_wait (window, csv);
  g_assert_false (tab_shown (window));
  g_assert_cmpuint (tw_sensors_pane_get_n_rows (pane), ==, 0);

  tw_test_close_window (GTK_WINDOW (window));
  tw_test_lttng_remove_tree (folder);
}

static void
commit_now (TwSensor *sensor,
            guint     n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 *element = tw_sensor_write (sensor);

      *element = i;
      tw_sensor_commit (sensor, element);
    }
}

/* A local monitor's recording of two sensors of this process, in a new folder. */
static char *
write_local_recording (void)
{
  TwSensorParams loose = { 1e6, 0, 10e9, 10e6, 10e6, 0 };
  g_autofree char *sensor_dir = tw_test_use_temp_sensor_dir ();
  g_autoptr(TwMonitor) monitor = tw_monitor_new (sensor_dir);
  TwSensor *burst = tw_sensor_new_full ("probe", "burst", "u64 seq", 64, 0, &loose);
  TwSensor *plain = tw_sensor_new ("probe", "plain", "u64 seq", 64, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("tw-local-recording-XXXXXX", &error);
  char *path;

  g_assert_no_error (error);
  g_assert_nonnull (burst);
  g_assert_nonnull (plain);
  tw_monitor_set_from_start (monitor, TRUE);
  commit_now (burst, 100);
  commit_now (plain, 4);
  tw_monitor_poll (monitor);
  tw_monitor_stop (monitor);
  path = g_build_filename (folder, "recording", NULL);
  g_assert_true (tw_ctf_writer_write_events (tw_monitor_get_trace (monitor),
                                             tw_trace_get_n_events (tw_monitor_get_trace (monitor)), path, NULL, NULL,
                                             NULL, &error));
  g_assert_no_error (error);
  tw_sensor_free (burst);
  tw_sensor_free (plain);
  tw_test_remove_sensor_dir (g_steal_pointer (&sensor_dir));
  return path;
}

/* The Sensors tab of a local recording (File ▸ Open): the streams the sensors declared,
 * checked (OK for burst, none declared for plain), their monitor's counts; no Read
 * column (nothing is read in a recording); opened with the focus in another tab, no text
 * of it comes up selected (neither its heading nor a schema). */
static void
test_local_recording (void)
{
  g_autofree char *path = NULL, *folder = NULL;
  TwWindow *window;
  TwSensorsPane *pane;
  GtkNotebook *notebook;
  GtkWidget *heading, *focus;
  int start, end;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  path = write_local_recording ();
  folder = g_path_get_dirname (path);
  window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (window), 1280, 900);
  pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (window));

  open_and_wait (window, path);
  g_assert_true (tab_shown (window));
  g_assert_true (tw_test_wait_until (checked, pane, WAIT_MS));
  g_assert_cmpuint (tw_sensors_pane_get_n_rows (pane), ==, 2);
  assert_row (pane, "probe", "burst", "64", "36", "0", "OK");
  assert_row (pane, "probe", "plain", "4", "0", "0", "none declared");
  g_assert_false (gtk_widget_get_visible (tw_sensors_pane_get_column_title (pane, TW_SENSORS_COLUMN_ATTACHED)));
  g_assert_true (gtk_widget_get_visible (tw_sensors_pane_get_column_title (pane, TW_SENSORS_COLUMN_STREAM)));

  /* the focus in the tab shown, then the Sensors tab opened, as a click on it does */
  notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK));
  g_assert_true (gtk_widget_child_focus (gtk_notebook_get_nth_page (notebook, gtk_notebook_get_current_page (notebook)),
                                         GTK_DIR_TAB_FORWARD));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (pane)));
  gtk_notebook_set_current_page (notebook, gtk_notebook_page_num (notebook, GTK_WIDGET (pane)));
  g_assert_true (tw_test_wait_until (mapped, pane, WAIT_MS));
  heading = tw_sensors_pane_get_heading (pane);
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_false (focus && GTK_IS_LABEL (focus) && gtk_widget_is_ancestor (focus, GTK_WIDGET (pane)));
  g_assert_false (gtk_label_get_selection_bounds (GTK_LABEL (heading), &start, &end));

  tw_test_close_window (GTK_WINDOW (window));
  tw_test_lttng_remove_tree (folder);
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);
  g_test_add_func ("/tw/app/recorded-sensors/folder", test_recorded_folder);
  g_test_add_func ("/tw/app/recorded-sensors/local", test_local_recording);
  return g_test_run ();
}
