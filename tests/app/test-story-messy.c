/* test-story-messy.c: real traces are messy, and the window says so
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Issue 13 §2 in the real window: events the tracer lost are marked on their CPU's row
 * with their count, a switch the state model repaired is marked there too and its task's
 * later wakeup is measured, the legend explains both, a click on a mark shows it in
 * Details, exported measurements flag the ones that span a loss, and a trace.dat or CTF
 * trace this system's libraries cannot read says why.
 */
#include "config.h"

#include <glib/gstdio.h>

#include "tw-application.h"
#include "tw-details-pane.h"
#include "tw-evaluations-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;

typedef struct {
  TwWindow    *window;
  TwTimeline  *timeline;
  TwViewState *state;
} Fixture;

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

static gboolean
not_loading (gpointer data)
{
  return !tw_window_get_loading (data);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (app == NULL)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1200, 860);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (app != NULL)
    tw_test_close_window (GTK_WINDOW (fx->window));
}

static gboolean
skip_without_display (void)
{
  if (app != NULL)
    return FALSE;
  g_test_skip ("no display (run under xvfb-run)");
  return TRUE;
}

/* Opens @path as File ▸ Open does. */
static void
open_path (Fixture    *fx,
           const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (fx->window));
  fx->timeline = TW_TIMELINE (tw_window_get_timeline (fx->window));
  fx->state = tw_window_get_view_state (fx->window);
  tw_test_wait_frames (GTK_WIDGET (fx->timeline), 3);
}

static char *
dup_overrun_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "ftrace", "overrun.dat", NULL);
}

/* The top of a row of the timeline, in the timeline's pixels. */
static double
row_top (Fixture           *fx,
         TwTimelineRowKind  kind,
         guint32            id,
         double            *height)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (fx->timeline), &n);
  TwTimelineViewport vp;

  tw_timeline_get_viewport (fx->timeline, &vp);
  for (guint i = 0; i < n; i++)
    if (rows[i].kind == kind && rows[i].id == id)
      {
        *height = rows[i].height;
        return TW_TIMELINE_RULER_HEIGHT + rows[i].y - vp.scroll_y;
      }
  g_error ("no row of kind %d and id %u", kind, id);
}

static double
time_x (Fixture *fx,
        guint64  time_ns)
{
  TwTimelineViewport vp;

  tw_timeline_get_viewport (fx->timeline, &vp);
  return tw_timeline_viewport_time_to_x (&vp, time_ns);
}

/* Whether the box of the timeline as drawn has a pixel of @rgba. */
static gboolean
box_has_rgb (cairo_surface_t *surface,
             const double     rgba[4],
             int              x0,
             int              y0,
             int              x1,
             int              y1)
{
  for (int y = MAX (y0, 0); y < MIN (y1, cairo_image_surface_get_height (surface)); y++)
    for (int x = MAX (x0, 0); x < MIN (x1, cairo_image_surface_get_width (surface)); x++)
      {
        double px[3];

        tw_test_surface_get_rgb (surface, x, y, px);
        if (tw_test_rgb_near (px, rgba))
          return TRUE;
      }
  return FALSE;
}

static void
theme_colors (Fixture          *fx,
              TwTimelineColors *colors)
{
  TwPalette palette;

  tw_palette_init_from_widget (&palette, GTK_WIDGET (fx->timeline));
  tw_timeline_colors_init (colors, &palette);
}

/* What the timeline's tooltip says at (@x, @y). */
static char *
dup_tooltip (Fixture *fx,
             double   x,
             double   y)
{
  TwTimelineViewport vp;
  TwTimelineHit hit;
  char *text;

  tw_timeline_get_viewport (fx->timeline, &vp);
  tw_timeline_painter_hit_test (tw_timeline_get_painter (fx->timeline), &vp, x, y, &hit);
  text = g_strdup (hit.description);
  tw_timeline_hit_clear (&hit);
  return text;
}

static char *
dup_details (Fixture *fx)
{
  return tw_details_pane_dup_text (TW_DETAILS_PANE (tw_window_get_details_pane (fx->window)));
}

/* ------------------------------------------------------------------ losses */

/* A recording whose buffer overran on CPU 1: each loss is a bar on CPU 1's row with its
 * count beside it, its tooltip says how many and since when, and a click on it shows the
 * lost event in Details. */
static void
test_lost_marks (Fixture       *fx,
                 gconstpointer  data)
{
  g_autofree char *path = dup_overrun_path ();
  g_autofree char *tooltip = NULL;
  g_autofree char *details = NULL;
  TwTimelineColors colors;
  cairo_surface_t *surface;
  guint64 loss = G_GUINT64_CONSTANT (20395980034813);
  double y, h, x;
  TwEvent ev;

  if (skip_without_display () || tw_test_input_skip ())
    return;
  if (!HAVE_LIBTRACECMD)
    {
      g_test_skip ("built without libtracecmd");
      return;
    }
  open_path (fx, path);
  theme_colors (fx, &colors);
  y = row_top (fx, TW_TIMELINE_ROW_CPU, 1, &h);
  x = time_x (fx, loss);

  surface = tw_test_grab_widget (GTK_WIDGET (fx->timeline));
  /* the bar through the row, the count written right of it, none on CPU 0 */
  g_assert_true (box_has_rgb (surface, colors.lost, x - 1, y + h - 6, x + 2, y + h - 3));
  g_assert_true (box_has_rgb (surface, colors.lost, x + 8, y + 2, x + 60, y + 14));
  {
    double y0, h0;

    y0 = row_top (fx, TW_TIMELINE_ROW_CPU, 0, &h0);
    g_assert_false (box_has_rgb (surface, colors.lost, TW_TIMELINE_LABEL_WIDTH, y0,
                                 cairo_image_surface_get_width (surface), y0 + h0));
  }
  cairo_surface_destroy (surface);

  tooltip = dup_tooltip (fx, x, y + h / 2);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "2248 events lost on CPU 1"));

  /* a real click on the bar picks the lost event */
  tw_test_input_click (GTK_WIDGET (fx->timeline), x, y + h / 2, 1, NULL);
  g_assert_true (tw_trace_get_event (tw_view_state_get_trace (fx->state),
                                     tw_view_state_get_selected_event (fx->state), &ev));
  g_assert_cmpuint (ev.time, ==, loss);
  details = dup_details (fx);
  g_assert_nonnull (strstr (details, "Type: lost_events\n"));
  g_assert_nonnull (strstr (details, "Kind: lost\n"));
  g_assert_nonnull (strstr (details, "count: 2248\n"));
}

static gboolean
evaluation_done (gpointer data)
{
  return !tw_evaluations_pane_is_running (data, 0);
}

/* The wakeup latencies exported from the Evaluations pane flag those that span a loss. */
static void
test_lost_column_in_export (Fixture       *fx,
                            gconstpointer  data)
{
  g_autofree char *path = dup_overrun_path ();
  g_autofree char *csv_path = g_build_filename (tw_test_get_private_dir (), "latency.csv", NULL);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  guint flagged = 0, clean = 0;

  if (skip_without_display ())
    return;
  if (!HAVE_LIBTRACECMD)
    {
      g_test_skip ("built without libtracecmd");
      return;
    }
  open_path (fx, path);
  pane = tw_window_get_evaluations_pane (fx->window);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "wakeup-latency", &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (evaluation_done, pane, WAIT_MS));
  g_assert_true (tw_evaluations_pane_export_csv (pane, 0, csv_path, &error));
  g_assert_no_error (error);

  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  lines = g_strsplit (csv, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "task,begin_ns,end_ns,length_ns,intermediate_events,lost,cpu");
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
      guint64 begin = g_ascii_strtoull (cells[1], NULL, 10);
      guint64 end = g_ascii_strtoull (cells[2], NULL, 10);
      guint64 lost = g_ascii_strtoull (cells[5], NULL, 10);
      /* CPU 1's gaps end at the two losses; the first one began before the trace had
       * anything of CPU 1, the second after its event at 20395.986798992 */
      gboolean spans = begin < G_GUINT64_CONSTANT (20395980034813)
                       || (end > G_GUINT64_CONSTANT (20395986798992)
                           && begin < G_GUINT64_CONSTANT (20395991284876));

      if (spans)
        g_assert_cmpuint (lost, >=, 1893);
      else
        g_assert_cmpuint (lost, ==, 0);
      flagged += lost > 0;
      clean += lost == 0;
    }
  g_assert_cmpuint (flagged, >, 0);
  g_assert_cmpuint (clean, >, 100);
}

/* ------------------------------------------------------------------ repairs */

/* a runs on CPU 0 from 100 µs; at 300 µs CPU 0 switches out b, not a: a's switch-out
 * was lost. a is woken at 400 µs and runs on CPU 1 from 450 µs. */
static const char repair_text[] =
  "cpus=2\n"
  "          <idle>-0     [000]     1.000100: sched_switch:         swapper/0:0 [120] R ==> a:1 [120]\n"
  "               b-2     [000]     1.000300: sched_switch:         b:2 [120] S ==> swapper/0:0 [120]\n"
  "          <idle>-0     [001]     1.000400: sched_wakeup:         a:1 [120] CPU:001\n"
  "          <idle>-0     [001]     1.000450: sched_switch:         swapper/1:0 [120] R ==> a:1 [120]\n"
  "               a-1     [001]     1.000900: sched_switch:         a:1 [120] S ==> swapper/1:0 [120]\n"
  "          <idle>-0     [000]     1.001000: sched_switch:         swapper/0:0 [120] R ==> swapper/0:0 [120]\n";

/* The repair is marked on CPU 0, a's row stops showing it running there, the tooltip and
 * Details say what was repaired, and a's wakeup is measured. */
static void
test_repair_mark (Fixture       *fx,
                  gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("repair.txt", repair_text, -1);
  g_autofree char *tooltip = NULL;
  g_autofree char *details = NULL;
  g_autoptr(GError) error = NULL;
  TwEvaluationsPane *pane;
  TwMeasurementTable *table;
  const TwMeasurementRow *row;
  TwTimelineColors colors;
  cairo_surface_t *surface;
  guint32 a;
  double a_rgb[4] = { 0, 0, 0, 1 };
  double y, h, ya, ha, x;

  if (skip_without_display () || tw_test_input_skip ())
    return;
  open_path (fx, path);
  theme_colors (fx, &colors);
  a = tw_trace_lookup_task (tw_view_state_get_trace (fx->state), "1");
  g_assert_cmpuint (a, !=, TW_TASK_NONE);
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (fx->timeline), a, a_rgb);
  y = row_top (fx, TW_TIMELINE_ROW_CPU, 0, &h);
  ya = row_top (fx, TW_TIMELINE_ROW_TASK, a, &ha);
  x = time_x (fx, G_GUINT64_CONSTANT (1000300000));

  surface = tw_test_grab_widget (GTK_WIDGET (fx->timeline));
  g_assert_true (box_has_rgb (surface, colors.repair, x - 2, y + h - 8, x + 3, y + h - 3));
  /* a: running on CPU 0 before the repair, not between it and its wakeup */
  g_assert_true (box_has_rgb (surface, a_rgb, time_x (fx, 1000200000), ya, time_x (fx, 1000200000) + 1,
                              ya + ha));
  g_assert_false (box_has_rgb (surface, a_rgb, time_x (fx, 1000320000), ya,
                               time_x (fx, 1000380000), ya + ha));
  cairo_surface_destroy (surface);

  tooltip = dup_tooltip (fx, x, y + h - 4);
  g_assert_nonnull (tooltip);
  g_assert_nonnull (strstr (tooltip, "the switch names b-2 as switched out, but a-1 was running on CPU 0"));

  /* a real click on the mark picks the switch that called for the repair */
  tw_test_input_click (GTK_WIDGET (fx->timeline), x, y + h - 4, 1, NULL);
  g_assert_cmpuint (tw_view_state_get_selected_event (fx->state), ==, 1);
  details = dup_details (fx);
  g_assert_nonnull (strstr (details, "Repair: Repaired at "));
  g_assert_nonnull (strstr (details, "a-1's run here ends"));

  /* the wakeup after the lost switch-out is measured */
  pane = tw_window_get_evaluations_pane (fx->window);
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "wakeup-latency", &error));
  g_assert_no_error (error);
  g_assert_true (tw_test_wait_until (evaluation_done, pane, WAIT_MS));
  table = tw_evaluations_pane_get_table (pane, 0);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 1);
  row = tw_measurement_table_get_row (table, 0);
  g_assert_cmpuint (row->task, ==, a);
  g_assert_cmpuint (row->length, ==, 50000);
}

/* ------------------------------------------------------------------ legend */

static void
collect_menu_buttons (GtkWidget *widget,
                      GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_MENU_BUTTON (child))
        g_ptr_array_add (found, child);
      collect_menu_buttons (child, found);
    }
}

static void
collect_label_texts (GtkWidget *widget,
                     GString   *out)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      if (GTK_IS_LABEL (child))
        g_string_append_printf (out, "%s\n", gtk_label_get_text (GTK_LABEL (child)));
      collect_label_texts (child, out);
    }
}

/* The Legend popover shows both marks, in the colours the rows are drawn with. */
static void
test_legend (Fixture       *fx,
             gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("repair.txt", repair_text, -1);
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  g_autoptr(GString) texts = g_string_new (NULL);
  GtkMenuButton *button = NULL;
  GtkPopover *popover;
  GtkWidget *legend;
  TwTimelineColors colors;
  TwPalette palette;
  cairo_surface_t *surface;

  if (skip_without_display ())
    return;
  open_path (fx, path);
  collect_menu_buttons (gtk_window_get_titlebar (GTK_WINDOW (fx->window)), buttons);
  for (guint i = 0; i < buttons->len && button == NULL; i++)
    {
      GtkPopover *p = gtk_menu_button_get_popover (buttons->pdata[i]);

      if (p && TW_IS_TIMELINE_LEGEND_VIEW (gtk_popover_get_child (p)))
        button = buttons->pdata[i];
    }
  g_assert_nonnull (button);
  popover = gtk_menu_button_get_popover (button);
  gtk_menu_button_popup (button);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  tw_test_wait_frames (GTK_WIDGET (popover), 3);
  legend = gtk_popover_get_child (popover);

  collect_label_texts (legend, texts);
  g_assert_nonnull (strstr (texts->str, "Lost events\n"));
  g_assert_nonnull (strstr (texts->str, "Repaired switch\n"));
  tw_palette_init_from_widget (&palette, legend);
  tw_timeline_colors_init (&colors, &palette);
  surface = tw_test_grab_widget (legend);
  g_assert_true (box_has_rgb (surface, colors.lost, 0, 0, 80, cairo_image_surface_get_height (surface)));
  g_assert_true (box_has_rgb (surface, colors.repair, 0, 0, 80, cairo_image_surface_get_height (surface)));
  cairo_surface_destroy (surface);
  gtk_popover_popdown (popover);
}

/* ------------------------------------------------------------------ messages */

/* Opening what this system's libraries cannot read leaves the window usable and says
 * why in its banner: a codec libtracecmd lacks, CTF 2 before babeltrace2 2.1. */
static void
test_messages (Fixture       *fx,
               gconstpointer  data)
{
  g_autofree char *overrun = dup_overrun_path ();
  g_autofree char *data_bytes = NULL;
  g_autofree char *zlib = NULL;
  g_autofree char *ctf2 = g_build_filename (tw_test_get_private_dir (), "ctf2", NULL);
  g_autofree char *metadata = g_build_filename (ctf2, "metadata", NULL);
  g_autoptr(GFile) file = NULL;
  const char *message;
  gsize len;

  if (skip_without_display ())
    return;
  if (HAVE_LIBTRACECMD)
    {
      g_assert_true (g_file_get_contents (overrun, &data_bytes, &len, NULL));
      g_assert_cmpstr (data_bytes + 18, ==, "zstd");
      memcpy (data_bytes + 18, "zlib", 4);
      zlib = tw_test_write_temp_file ("zlib.dat", data_bytes, len);
      file = g_file_new_for_path (zlib);
      tw_window_open_file (fx->window, file);
      g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));
      message = tw_window_get_error_message (fx->window);
      g_assert_nonnull (message);
      g_test_message ("%s", message);
      g_assert_null (strstr (message, "corrupt"));
      if (strstr (message, "compressed with zlib") == NULL)
        g_test_message ("this libtracecmd reads zlib");
      else
        g_assert_nonnull (strstr (message, "compressed with zlib; this system's libtracecmd reads zstd"));
      g_clear_object (&file);
    }
  if (HAVE_BABELTRACE)
    {
      g_assert_cmpint (g_mkdir_with_parents (ctf2, 0755), ==, 0);
      g_assert_true (g_file_set_contents (metadata, "\x1e{\"type\":\"preamble\",\"version\":2}\n", -1, NULL));
      file = g_file_new_for_path (ctf2);
      tw_window_open_file (fx->window, file);
      g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));
      message = tw_window_get_error_message (fx->window);
      g_assert_nonnull (message);
      g_test_message ("%s", message);
      g_assert_nonnull (strstr (message, "CTF 2 needs babeltrace2 ≥ 2.1; this system has "));
    }
  /* the window still opens a trace */
  {
    g_autofree char *path = tw_test_write_temp_file ("repair.txt", repair_text, -1);

    open_path (fx, path);
  }
}

int
main (int    argc,
      char **argv)
{
  app = tw_test_init_application (&argc, &argv);

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/story/messy/lost-marks", test_lost_marks);
  ADD ("/story/messy/lost-column-in-export", test_lost_column_in_export);
  ADD ("/story/messy/repair-mark", test_repair_mark);
  ADD ("/story/messy/legend", test_legend);
  ADD ("/story/messy/messages", test_messages);
#undef ADD

  return g_test_run ();
}
