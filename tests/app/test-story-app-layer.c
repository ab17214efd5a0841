/* test-story-app-layer.c: the stories issue 14's app-layer changes touch, in the real window
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * - A module exported from the designer runs in the Evaluations tab of the window that
 *   opened it, and a designer no window opened still exports (it never reaches for one).
 * - Going live shows the header bar's controls (now template children) and they drive
 *   the session.
 * - The Sensors pane shows no blank line between the directory and the table while
 *   there is no error to show, and a failed source's state whole, wrapped.
 * - The designer's histogram says "Click a bar to list its measurements" whole, in a
 *   window as wide as a 1280 px screen gives it.
 * - Open…'s filter of traces shows the files of every registered reader (a S.Ha.R.K.
 *   .dump too), named after them: it comes from the readers, not from a list here.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <tw-sensor.h>

#include "tw-designer-window.h"
#include "tw-live-session.h"
#include "tw-sensors-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-record.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 30000

static TwApplication *app;

/* ------------------------------------------------------------------ helpers */

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

/* The designer among the toplevels: the last one opened. */
static TwDesignerWindow *
find_designer (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();   /* (transfer none) */
  g_autoptr(GObject) found = NULL;

  for (guint i = g_list_model_get_n_items (toplevels); i > 0 && found == NULL; i--)
    {
      g_autoptr(GObject) window = g_list_model_get_item (toplevels, i - 1);

      if (TW_IS_DESIGNER_WINDOW (window))
        found = g_steal_pointer (&window);
    }
  return (TwDesignerWindow *) found;
}

/* The first descendant of @widget that has @css_class, depth first. */
static GtkWidget *
find_with_class (GtkWidget  *widget,
                 const char *css_class)
{
  if (gtk_widget_has_css_class (widget, css_class))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_with_class (child, css_class);

      if (found)
        return found;
    }
  return NULL;
}

/* The first button under @widget showing @icon_name or labelled @label. */
static GtkWidget *
find_button (GtkWidget  *widget,
             const char *icon_name,
             const char *label)
{
  if (GTK_IS_BUTTON (widget)
      && ((icon_name && g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (widget)), icon_name) == 0)
          || (label && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, icon_name, label);

      if (found)
        return found;
    }
  return NULL;
}

static TwWindow *
open_demo_window (void)
{
  TwWindow *window = tw_window_new (GTK_APPLICATION (app));

  tw_test_present_window (GTK_WINDOW (window), 1280, 900);
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-demo", NULL);
  g_assert_true (tw_test_wait_until (page_is_trace, window, WAIT_MS));
  return window;
}

/* A window, and a compiler to build what the designer exports; skips without them. */
static gboolean
can_export (void)
{
  g_autofree char *cc = g_find_program_in_path (g_getenv ("CC") && *g_getenv ("CC") ? g_getenv ("CC") : "cc");

  if (app == NULL)
    g_test_skip ("no display (run under xvfb-run)");
  else if (cc == NULL)
    g_test_skip ("no C compiler (cc or $CC) to build the exported module");
  return app != NULL && cc != NULL;
}

static void
remove_exported (const char *dir)
{
  g_autofree char *c_path = g_build_filename (dir, "metric.c", NULL);
  g_autofree char *so_path = g_build_filename (dir, "metric.so", NULL);

  g_remove (c_path);
  g_remove (so_path);
  g_rmdir (dir);
}

/* Export as C into a new temporary directory; returns the C file's path. */
static char *
export_to_temp_dir (TwDesignerWindow  *designer,
                    char             **dir)
{
  g_autoptr(GError) error = NULL;
  char *c_path;

  *dir = g_dir_make_tmp ("tw-app-layer-XXXXXX", &error);
  g_assert_no_error (error);
  c_path = g_build_filename (*dir, "metric.c", NULL);
  g_assert_true (tw_designer_window_export_c (designer, c_path, &error));
  g_assert_no_error (error);
  return c_path;
}

/* ------------------------------------------------------------------ designer */

/* Ctrl+D, then Export as C: the module runs in the Evaluations tab of the window that
 * opened the designer, which hears of it through TwDesignerWindow::module-built. */
static void
test_designer_export_runs_in_window (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *c_path = NULL;
  TwEvaluationsPane *pane;
  TwDesignerWindow *designer;
  TwWindow *window;
  guint n_before;

  if (!can_export ())
    return;
  window = open_demo_window ();
  pane = tw_window_get_evaluations_pane (window);
  n_before = tw_evaluations_pane_get_n_evaluations (pane);
  g_action_group_activate_action (G_ACTION_GROUP (window), "designer", NULL);
  designer = find_designer ();
  g_assert_nonnull (designer);

  c_path = export_to_temp_dir (designer, &dir);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, n_before + 1);
  g_assert_true (g_str_has_suffix (tw_designer_window_get_summary (designer),
                                   "; it runs in the Evaluations tab."));

  tw_test_close_window (GTK_WINDOW (designer));
  tw_test_close_window (GTK_WINDOW (window));
  remove_exported (dir);
}

/* A designer with a trace but no window listening (the CLI's, a test's) builds the
 * module and says only that: it does not look for a main window to put it in. */
static void
test_designer_export_without_window (void)
{
  g_autoptr(TwViewState) state = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *c_path = NULL;
  g_autofree char *so_path = NULL;
  g_autofree char *expected = NULL;
  TwDesignerWindow *designer;
  TwWindow *window;
  guint n_before;

  if (!can_export ())
    return;
  window = open_demo_window ();
  n_before = tw_evaluations_pane_get_n_evaluations (tw_window_get_evaluations_pane (window));
  state = g_object_ref (tw_window_get_view_state (window));
  /* transient for the main window, but opened without it: nobody answers */
  designer = tw_designer_window_new (GTK_WINDOW (window), state);
  tw_test_present_window (GTK_WINDOW (designer), 1000, 700);

  c_path = export_to_temp_dir (designer, &dir);
  so_path = g_build_filename (dir, "metric.so", NULL);
  g_assert_true (g_file_test (so_path, G_FILE_TEST_IS_REGULAR));
  expected = g_strdup_printf ("Wrote %s and built %s.", c_path, so_path);
  g_assert_cmpstr (tw_designer_window_get_summary (designer), ==, expected);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (tw_window_get_evaluations_pane (window)), ==,
                    n_before);

  tw_test_close_window (GTK_WINDOW (designer));
  tw_test_close_window (GTK_WINDOW (window));
  remove_exported (dir);
}

/* ------------------------------------------------------------------ live */

typedef struct {
  char     *sensor_dir;
  TwSensor *sensor;
  TwWindow *window;
  TwLiveSession *session;
} LiveFixture;

static void
live_setup (LiveFixture   *fx,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  if (app == NULL)
    return;
  fx->sensor_dir = tw_test_use_temp_sensor_dir ();
  fx->sensor = tw_sensor_new ("job", "start", "u64 seq", 4096, 0);
  g_assert_nonnull (fx->sensor);
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
  fx->session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
}

static void
live_teardown (LiveFixture   *fx,
               gconstpointer  data)
{
  if (app == NULL)
    return;
  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  g_clear_pointer (&fx->sensor, tw_sensor_free);
  tw_test_remove_sensor_dir (g_steal_pointer (&fx->sensor_dir));
}

static gboolean
pane_has_rows (gpointer data)
{
  return tw_sensors_pane_get_n_rows (data) > 0;
}

/* The Sensors pane: the directory line, then the table; the error line under the
 * directory took a blank line of its own while it had nothing to say. */
static void
test_sensors_pane_no_blank_line (LiveFixture   *fx,
                                 gconstpointer  data)
{
  TwSensorsPane *pane;
  GtkWidget *error_label;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (fx->window));
  g_assert_true (tw_test_wait_until (pane_has_rows, pane, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  error_label = find_with_class (GTK_WIDGET (pane), "error");
  g_assert_nonnull (error_label);
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_cmpint (gtk_widget_get_height (error_label), ==, 0);
}

/* The row of the source whose state says @text, or G_MAXUINT. */
static guint
find_state_row (TwSensorsPane *pane,
                const char    *text)
{
  for (guint i = 0; i < tw_sensors_pane_get_n_rows (pane); i++)
    if (strstr (tw_sensors_pane_get_text (pane, i, TW_SENSORS_COLUMN_STATE), text))
      return i;
  return G_MAXUINT;
}

static gboolean
pane_has_failed_row (gpointer data)
{
  return find_state_row (data, "magic") != G_MAXUINT;
}

/* A file in the sensor directory that is no sensor fails with a message naming it and
 * what is wrong; the State column cut it at 28 characters ("…/junk@fi…") although the
 * pane had room to say it whole. */
static void
test_sensors_pane_state_whole (LiveFixture   *fx,
                               gconstpointer  data)
{
  g_autofree char *junk_path = g_build_filename (fx->sensor_dir, "junk@file.tws", NULL);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  TwSensorsPane *pane;
  GtkWidget *state = NULL;
  const char *text;
  char junk[2048];
  int text_width = 0, text_height = 0;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  memset (junk, 'x', sizeof junk);
  g_assert_true (g_file_set_contents (junk_path, junk, sizeof junk, NULL));
  pane = TW_SENSORS_PANE (tw_window_get_sensors_pane (fx->window));
  g_assert_true (tw_test_wait_until (pane_has_failed_row, pane, WAIT_MS));
  text = tw_sensors_pane_get_text (pane, find_state_row (pane, "magic"), TW_SENSORS_COLUMN_STATE);
  g_assert_nonnull (strstr (text, "junk@file.tws"));
  tw_test_collect_descendants (GTK_WIDGET (pane), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len && state == NULL; i++)
    if (gtk_label_get_text (g_ptr_array_index (labels, i)) == text)
      state = g_ptr_array_index (labels, i);
  g_assert_nonnull (state);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (state))));
  pango_layout_get_pixel_size (gtk_label_get_layout (GTK_LABEL (state)), &text_width, &text_height);
  g_assert_cmpint (text_width, <=, gtk_widget_get_width (state));
  g_assert_cmpint (text_height, <=, gtk_widget_get_height (state));
  g_remove (junk_path);
}

static gboolean
is_paused (gpointer data)
{
  return tw_live_session_get_paused (data);
}

/* Live, the header bar shows Following, Pause and Record; Pause pauses the session. */
static void
test_live_controls (LiveFixture   *fx,
                    gconstpointer  data)
{
  GtkWidget *titlebar;
  GtkWidget *pause;
  GtkWidget *follow;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  titlebar = gtk_window_get_titlebar (GTK_WINDOW (fx->window));
  pause = find_button (titlebar, "media-playback-pause-symbolic", NULL);
  follow = find_button (titlebar, NULL, "Following");
  g_assert_nonnull (pause);
  g_assert_nonnull (follow);
  g_assert_true (gtk_widget_get_mapped (pause));
  g_assert_true (gtk_widget_get_mapped (follow));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (tw_window_get_recorder (fx->window))));

  g_assert_false (tw_live_session_get_paused (fx->session));
  g_signal_emit_by_name (pause, "clicked");
  g_assert_true (tw_test_wait_until (is_paused, fx->session, WAIT_MS));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (pause)));
}

/* ------------------------------------------------------------------ the designer's histogram */

static GtkWidget *
find_label (GtkWidget  *root,
            const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  tw_test_collect_descendants (root, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_str_equal (gtk_label_get_text (g_ptr_array_index (labels, i)), text))
      return g_ptr_array_index (labels, i);
  g_error ("no label “%s”", text);
}

/* The caption over the bin list was laid out for the list's minimum width, wider than
 * the narrow pane gave the list, and the pane cut off its end: it must lie inside the
 * view, its text inside it. */
static void
test_designer_histogram_caption_whole (void)
{
  TwDesignerWindow *designer;
  GtkWidget *view;
  GtkWidget *caption;
  graphene_rect_t bounds;
  int text_width = 0, text_height = 0;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  designer = tw_designer_window_new (NULL, NULL);
  tw_test_present_window (GTK_WINDOW (designer), 1200, 700);
  tw_test_wait_frames (GTK_WIDGET (designer), 3);
  view = GTK_WIDGET (tw_designer_window_get_histogram_view (designer));
  caption = find_label (view, "Click a bar to list its measurements");
  g_assert_true (gtk_widget_get_mapped (caption));
  /* inside the view: the bin list's side of the pane clipped it at the view's edge */
  g_assert_true (gtk_widget_compute_bounds (caption, view, &bounds));
  g_test_message ("caption at x %.0f, %.0f wide, in a view %d wide", bounds.origin.x,
                  bounds.size.width, gtk_widget_get_width (view));
  g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (view));
  /* the lines the label laid its text out in, at the width it was given */
  pango_layout_get_pixel_size (gtk_label_get_layout (GTK_LABEL (caption)), &text_width, &text_height);
  g_test_message ("caption %d × %d, its text %d × %d", gtk_widget_get_width (caption),
                  gtk_widget_get_height (caption), text_width, text_height);
  g_assert_cmpint (text_width, <=, gtk_widget_get_width (caption));
  g_assert_cmpint (text_height, <=, gtk_widget_get_height (caption));
  tw_test_close_window (GTK_WINDOW (designer));
}

/* ------------------------------------------------------------------ Open… */

static gboolean
file_chooser_shown (gpointer data)
{
  return tw_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, TRUE) != NULL;
}

static gboolean
filter_shows (GtkFileFilter *filter,
              const char    *name)
{
  g_autoptr(GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  return gtk_filter_match (GTK_FILTER (filter), info);
}

/* Ctrl+O: the first filter shows every reader's files (each suffix, a CTF trace's
 * metadata) and names every reader; the old hand-written list hid S.Ha.R.K. .dump files. */
static void
test_open_filter_from_readers (void)
{
  g_autoptr(GPtrArray) readers = NULL;
  g_autoptr(GListModel) filters = NULL;
  g_autoptr(GtkFileFilter) traces = NULL;
  TwWindow *window;
  GtkWidget *chooser;

  if (app == NULL || tw_test_input_skip ())
    {
      if (app == NULL)
        g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (window), 1000, 700);
  tw_test_input_keys (GTK_WIDGET (window), "ctrl+o");
  g_assert_true (tw_test_wait_until (file_chooser_shown, NULL, WAIT_MS));
  chooser = GTK_WIDGET (tw_test_find_toplevel (GTK_TYPE_FILE_CHOOSER_DIALOG, TRUE));
  filters = gtk_file_chooser_get_filters (GTK_FILE_CHOOSER (chooser));
  g_assert_cmpuint (g_list_model_get_n_items (filters), ==, 2);
  traces = g_list_model_get_item (filters, 0);

  readers = tw_reader_registry_dup_readers ();
  for (guint i = 0; i < readers->len; i++)
    {
      const TwReaderInfo *info = tw_reader_get_info (readers->pdata[i]);

      g_assert_nonnull (strstr (gtk_file_filter_get_name (traces), info->label));
      for (guint k = 0; info->suffixes && info->suffixes[k]; k++)
        {
          g_autofree char *name = g_strconcat ("trace.", info->suffixes[k], NULL);

          g_assert_true (filter_shows (traces, name));
        }
      for (guint k = 0; info->file_names && info->file_names[k]; k++)
        g_assert_true (filter_shows (traces, info->file_names[k]));
    }
  g_assert_true (filter_shows (traces, "shark-newtracer-test.dump"));
  g_assert_true (filter_shows (traces, "metadata"));
  g_assert_false (filter_shows (traces, "timeline.png"));

  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  tw_test_close_window (GTK_WINDOW (window));
}

/* ------------------------------------------------------------------ */

int
main (int    argc,
      char **argv)
{
  tw_test_record_keep_system_schemas ();
  app = tw_test_init_application (&argc, &argv);

  g_test_add_func ("/tw/app/story/app-layer/designer-export-runs-in-window",
                   test_designer_export_runs_in_window);
  g_test_add_func ("/tw/app/story/app-layer/designer-export-without-window",
                   test_designer_export_without_window);
  g_test_add ("/tw/app/story/app-layer/sensors-pane-no-blank-line", LiveFixture, NULL,
              live_setup, test_sensors_pane_no_blank_line, live_teardown);
  g_test_add ("/tw/app/story/app-layer/sensors-pane-state-whole", LiveFixture, NULL,
              live_setup, test_sensors_pane_state_whole, live_teardown);
  g_test_add ("/tw/app/story/app-layer/live-controls", LiveFixture, NULL,
              live_setup, test_live_controls, live_teardown);
  g_test_add_func ("/tw/app/story/app-layer/designer-histogram-caption-whole",
                   test_designer_histogram_caption_whole);
  g_test_add_func ("/tw/app/story/app-layer/open-filter-from-readers",
                   test_open_filter_from_readers);
  return g_test_run ();
}
