/* test-histogram-view.c: the live histogram view: coalesced redraws, bins, picking
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-test-gtk.h"
#include "tw-test-utils.h"

#define N_LIVE 1000

typedef struct {
  GtkWidget          *window;
  TwHistogramView    *view;
  TwTrace            *trace;
  TwStateModel       *model;
  TwViewState        *state;
  TwHistogram        *histogram;
  TwMeasurementTable *table;
  guint               inserted;
} Fixture;

static void
append (Fixture *f,
        guint32  task,
        guint64  begin,
        guint64  end)
{
  TwMeasurementRow row = { task, 0, begin, end, end - begin };

  tw_measurement_table_append (f->table, &row, NULL);
  tw_histogram_insert (f->histogram, (double) row.length);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  guint16 sw;
  guint32 idle, a;

  f->trace = tw_trace_new ();
  sw = tw_test_add_switch_type (f->trace);
  idle = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (f->trace, idle, TW_TASK_FLAG_IDLE);
  a = tw_trace_add_task (f->trace, "10", "a", 10, 10);
  tw_test_append_switch (f->trace, sw, 0, 0, idle, a, NULL);
  tw_test_append_switch (f->trace, sw, 100000, 0, a, idle, "S");
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->state = tw_view_state_new (f->model);

  f->histogram = tw_histogram_new_fixed (0, 400, 4, TW_HISTOGRAM_SCALE_LINEAR);
  tw_histogram_set_unit (f->histogram, "ns");
  f->table = tw_measurement_table_new (NULL);

  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  f->view = TW_HISTOGRAM_VIEW (tw_histogram_view_new ());
  tw_histogram_view_set_histogram (f->view, f->histogram, f->table, f->trace);
  tw_histogram_view_set_view_state (f->view, f->state);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->view));
  gtk_window_present (GTK_WINDOW (f->window));
  tw_test_wait_frames (GTK_WIDGET (f->view), 2);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->histogram);
  g_clear_object (&f->table);
  g_clear_object (&f->state);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

#define BURST 25

/* BURST values per call, each followed by a change notification, as a sensor would */
static gboolean
insert_cb (gpointer data)
{
  Fixture *f = data;

  for (guint i = 0; i < BURST; i++)
    {
      guint64 length = 10 + (f->inserted * 37) % 380;

      append (f, 0, 1000 + f->inserted, 1000 + f->inserted + length);
      tw_histogram_view_changed (f->view);
      f->inserted++;
    }
  return f->inserted < N_LIVE ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static gboolean
settled (gpointer data)
{
  const TwHistogramSnapshot *s = tw_histogram_view_get_snapshot (data);

  return s && s->count == N_LIVE && s->exact_percentiles;
}

static void
test_live (Fixture       *f,
           gconstpointer  data)
{
  guint before = tw_histogram_view_get_n_refreshes (f->view);
  gint64 start = g_get_monotonic_time ();
  double seconds;
  guint refreshes;
  const TwHistogramSnapshot *s;

  g_timeout_add (5, insert_cb, f);
  while (f->inserted < N_LIVE)
    g_main_context_iteration (NULL, TRUE);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  refreshes = tw_histogram_view_get_n_refreshes (f->view) - before;
  g_test_message ("%u values in %.2f s, %u redraws", N_LIVE, seconds, refreshes);
  /* no more than 30 redraws a second, and at most one per burst of notifications
   * however slow the machine (a redraw never runs inside a burst) */
  g_assert_cmpuint (refreshes, >=, 1);
  g_assert_cmpuint (refreshes, <=, (guint) (seconds * TW_HISTOGRAM_VIEW_MAX_FPS) + 2);
  g_assert_cmpuint (refreshes, <=, N_LIVE / BURST + 1);

  g_assert_true (tw_test_wait_until (settled, f->view, 5000));
  s = tw_histogram_view_get_snapshot (f->view);
  for (guint b = 0; b < 4; b++)
    {
      guint64 expected = 0;

      /* the bins counted independently from the lengths inserted */
      for (guint i = 0; i < N_LIVE; i++)
        {
          guint64 length = 10 + (i * 37) % 380;
          expected += length / 100 == b;
        }
      g_assert_cmpuint (s->bins[b], ==, expected);
    }
  g_assert_cmpfloat (s->min, ==, 10);
}

static gboolean
settled_count_6 (gpointer data)
{
  const TwHistogramSnapshot *s = tw_histogram_view_get_snapshot (data);

  return s && s->count == 6 && s->exact_percentiles;
}

static void
test_bin_list_and_pick (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *plot = tw_histogram_view_get_plot (f->view);
  TwMeasurementList *list;
  int width, height, bin;
  guint64 begin, end, vis_begin, vis_end;
  GtkSelectionModel *selection;
  g_autoptr(GPtrArray) column_views = g_ptr_array_new ();
  GtkWidget *column_view;

  append (f, 1, 1000, 1100);   /* 100: bin 1 */
  append (f, 1, 2000, 2150);   /* 150: bin 1 */
  append (f, 1, 3000, 3250);   /* 250: bin 2 */
  append (f, 1, 4000, 4350);   /* 350: bin 3 */
  append (f, 1, 5000, 5360);   /* 360: bin 3 */
  append (f, 1, 6000, 6050);   /* 50: bin 0 */
  tw_histogram_view_changed (f->view);
  g_assert_true (tw_test_wait_until (settled_count_6, f->view, 5000));
  tw_test_wait_frames (GTK_WIDGET (f->view), 2);

  width = gtk_widget_get_width (plot);
  height = gtk_widget_get_height (plot);
  /* the middle of bin 3's column, just above the axis */
  bin = tw_histogram_view_bin_at (f->view,
                                  TW_HISTOGRAM_MARGIN_LEFT
                                  + 3.5 * (width - TW_HISTOGRAM_MARGIN_LEFT - TW_HISTOGRAM_MARGIN_RIGHT) / 4,
                                  height - TW_HISTOGRAM_MARGIN_BOTTOM - 2);
  g_assert_cmpint (bin, ==, 3);
  tw_histogram_view_select_bin (f->view, bin);
  list = tw_histogram_view_get_bin_list (f->view);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2);
  g_assert_cmpuint (tw_measurement_list_get_row (list, 0), ==, 3);
  g_assert_cmpuint (tw_measurement_list_get_row (list, 1), ==, 4);

  tw_histogram_view_select_bin (f->view, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 2);
  g_assert_cmpuint (tw_measurement_list_get_row (list, 0), ==, 0);
  g_assert_cmpuint (tw_measurement_list_get_row (list, 1), ==, 1);

  /* picking the second listed measurement (row 1: [2000, 2150)) through the list's
   * selection, as a click on it does */
  tw_test_collect_descendants (GTK_WIDGET (f->view), GTK_TYPE_COLUMN_VIEW, column_views);
  column_view = column_views->len > 0 ? g_ptr_array_index (column_views, 0) : NULL;
  g_assert_nonnull (column_view);
  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view));
  gtk_selection_model_select_item (selection, 1, TRUE);
  g_assert_true (tw_view_state_get_selection (f->state, &begin, &end));
  g_assert_cmpuint (begin, ==, 2000);
  g_assert_cmpuint (end, ==, 2150);
  tw_view_state_get_visible_range (f->state, &vis_begin, &vis_end);
  g_assert_cmpuint (vis_begin, <=, 2000);
  g_assert_cmpuint (vis_end, >=, 2150);
  g_assert_cmpuint (vis_end - vis_begin, <=, 10 * 150 + 2000);

  tw_histogram_view_select_bin (f->view, -1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (list)), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/widgets/histogram-view/live", test_live);
  ADD ("/tw/widgets/histogram-view/bin-list-and-pick", test_bin_list_and_pick);
#undef ADD

  return g_test_run ();
}
