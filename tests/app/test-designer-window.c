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
#include "tw-test-gtk.h"
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

/* The view redraws at most 30 times a second: waits for the snapshot to catch up, then
 * checks it against the interpreter's measurements (count, bins, max). */
static void
check_histogram (Fixture           *f,
                 TwAutomatonInterp *interp)
{
  guint64 count = tw_automaton_interp_get_n_measurements (interp);
  const TwHistogramSnapshot *snapshot;
  guint64 in_bins = 0, max = 0;

  g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==, (gint64) count);
  snapshot = tw_test_wait_histogram_count (tw_designer_window_get_histogram_view (f->designer),
                                           count, 10000);
  g_assert_nonnull (snapshot);
  for (guint b = 0; b < snapshot->n_bins; b++)
    in_bins += snapshot->bins[b];
  g_assert_cmpuint (in_bins, ==, count);
  for (gsize i = 0; i < count; i++)
    max = MAX (max, tw_automaton_interp_get_measurement (interp, i)->length_ns);
  if (count > 0)
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
  tw_automaton_document_set_state_kind (tw_automaton_canvas_get_document (canvas), run,
                                        TW_STATE_KIND_OUT);
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
  tw_automaton_document_set_state_kind (tw_automaton_canvas_get_document (canvas), end,
                                        TW_STATE_KIND_CANCEL);
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
  table = tw_evaluator_evaluate (TW_EVALUATOR (plugin), f->trace, NULL, NULL, NULL, NULL, &error);
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

/* Every button the window shows (header bar, toolbar, step bar, preview) lies inside it. */
static void
assert_buttons_inside (GtkWidget *window)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  int width = gtk_widget_get_width (window);
  int height = gtk_widget_get_height (window);
  guint n_checked = 0;

  tw_test_collect_descendants (window, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkWidget *button = buttons->pdata[i];
      graphene_rect_t bounds;

      /* popovers' contents (menus, the label editor) are not on screen now */
      if (!gtk_widget_is_drawable (button) || gtk_widget_get_ancestor (button, GTK_TYPE_POPOVER))
        continue;
      g_assert_true (gtk_widget_compute_bounds (button, window, &bounds));
      if (bounds.origin.x < 0 || bounds.origin.y < 0
          || bounds.origin.x + bounds.size.width > width
          || bounds.origin.y + bounds.size.height > height)
        g_error ("%s \"%s\" (%s) at %g,%g %g×%g is outside the %d×%d window",
                 G_OBJECT_TYPE_NAME (button),
                 GTK_IS_BUTTON (button) && gtk_button_get_label (GTK_BUTTON (button))
                   ? gtk_button_get_label (GTK_BUTTON (button)) : "",
                 gtk_widget_get_tooltip_text (button) ? gtk_widget_get_tooltip_text (button) : "",
                 bounds.origin.x, bounds.origin.y, bounds.size.width, bounds.size.height,
                 width, height);
      n_checked++;
    }
  /* Open, Save, Export, undo … zoom in, Reset, Step, ×10, Log count, Cumulative */
  g_assert_cmpuint (n_checked, >=, 20);
}

static void
test_fits_small_screen (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (f->designer);
  g_autoptr(GPtrArray) wrap_boxes = g_ptr_array_new ();
  int min, nat;

  /* a 1280 px screen (and a 1366 px laptop) holds it with room to spare; it was 1405 */
  gtk_widget_measure (gtk_window_get_child (GTK_WINDOW (window)), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min, &nat, NULL, NULL);
  g_assert_cmpint (min, <=, 1200);
  gtk_widget_measure (gtk_window_get_titlebar (GTK_WINDOW (window)), GTK_ORIENTATION_HORIZONTAL, -1,
                      &min, &nat, NULL, NULL);
  g_assert_cmpint (min, <=, 1200);
  gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &min, &nat, NULL, NULL);
  g_assert_cmpint (min, <=, 1200);

  /* presented on the 1280×1024 screen, it draws, at its default size */
  tw_test_wait_frames (window, 3);
  g_assert_cmpint (gtk_widget_get_width (window), <=, 1280);
  assert_buttons_inside (window);

  /* 1024 wide: the canvas's toolbar takes a second line, every control stays in view */
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  tw_test_wait_frames (window, 3);
  g_assert_cmpint (gtk_widget_get_width (window), <=, 1024);
  tw_test_collect_descendants (window, TW_TYPE_WRAP_BOX, wrap_boxes);
  g_assert_cmpuint (wrap_boxes->len, ==, 1);
  g_assert_cmpuint (tw_wrap_box_get_n_lines (wrap_boxes->pdata[0]), >=, 2);
  assert_buttons_inside (window);
}

/* The ready-made automata the Open menu offers: (designer.template, NAME) items. */
static GPtrArray *
menu_template_names (GMenuModel *model)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autofree char *action = NULL;
      g_autofree char *target = NULL;

      if (section)
        {
          g_autoptr(GPtrArray) inner = menu_template_names (section);

          for (guint k = 0; k < inner->len; k++)
            g_ptr_array_add (names, g_strdup (inner->pdata[k]));
          continue;
        }
      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action)
          && g_str_equal (action, "designer.template")
          && g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_TARGET, "s", &target))
        g_ptr_array_add (names, g_steal_pointer (&target));
    }
  return g_steal_pointer (&names);
}

static gboolean
str_in (GPtrArray  *strings,
        const char *s)
{
  return g_ptr_array_find_with_equal_func (strings, s, g_str_equal, NULL);
}

static void
test_every_shipped_automaton_reachable (Fixture       *f,
                                        gconstpointer  data)
{
  g_autofree char *dir_path = g_build_filename (TW_SOURCE_DIR, "data", "automata", NULL);
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autoptr(GPtrArray) in_menu = NULL;
  g_autoptr(GPtrArray) shipped = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  GMenuModel *model = NULL;
  const char *file;

  /* the header bar's Open button */
  tw_test_collect_descendants (gtk_window_get_titlebar (GTK_WINDOW (f->designer)), GTK_TYPE_MENU_BUTTON,
                               buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_menu_button_get_label (buttons->pdata[i]), "Open") == 0)
      model = gtk_menu_button_get_menu_model (buttons->pdata[i]);
  g_assert_nonnull (model);
  in_menu = menu_template_names (model);

  dir = g_dir_open (dir_path, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (dir)))
    if (g_str_has_suffix (file, ".json"))
      g_ptr_array_add (shipped, g_strndup (file, strlen (file) - strlen (".json")));
  g_assert_cmpuint (shipped->len, >=, 7);

  for (guint i = 0; i < shipped->len; i++)
    {
      const char *name = shipped->pdata[i];
      g_autofree char *path = g_strdup_printf ("%s/%s.json", dir_path, name);
      g_autofree char *resource = g_strdup_printf ("/org/tracewb/Workbench/automata/%s.json", name);
      g_autofree char *contents = NULL;
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(GPtrArray) problems = NULL;
      TwAutomaton *automaton;
      gsize length;

      g_test_message ("%s", name);
      /* in the resource, byte for byte */
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      bytes = g_resources_lookup_data (resource, G_RESOURCE_LOOKUP_FLAGS_NONE, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), contents, length);
      /* in Open ▸ Ready-made */
      if (!str_in (in_menu, name))
        g_error ("data/automata/%s.json is not in the designer's Open ▸ Ready-made menu", name);
      /* what the menu item does: it opens, valid, with the file's name */
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->designer), "designer.template", "s", name));
      automaton = tw_automaton_canvas_get_automaton (tw_designer_window_get_canvas (f->designer));
      {
        g_autoptr(TwAutomaton) from_file = tw_automaton_load (path, &error);

        g_assert_no_error (error);
        g_assert_cmpstr (tw_automaton_get_name (automaton), ==, tw_automaton_get_name (from_file));
        g_assert_cmpuint (tw_automaton_get_n_states (automaton), ==, tw_automaton_get_n_states (from_file));
        g_assert_cmpuint (tw_automaton_get_n_transitions (automaton), ==,
                          tw_automaton_get_n_transitions (from_file));
      }
      problems = tw_automaton_validate (automaton);
      g_assert_cmpuint (problems->len, ==, 0);
      /* and it runs over the demo */
      wait_for_preview (f);
      g_assert_cmpint (tw_designer_window_get_n_measurements (f->designer), ==,
                       (gint64) count_directly (f, name, NULL));
    }

  /* and the menu offers nothing that is not shipped */
  for (guint i = 0; i < in_menu->len; i++)
    if (!str_in (shipped, in_menu->pdata[i]))
      g_error ("the Ready-made menu offers %s, not in data/automata/", (char *) in_menu->pdata[i]);
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
  ADD ("/tw/app/designer/fits-small-screen", test_fits_small_screen);
  ADD ("/tw/app/designer/every-shipped-automaton-reachable", test_every_shipped_automaton_reachable);
#undef ADD

  return g_test_run ();
}
