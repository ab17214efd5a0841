/* test-story-navigate.c: user stories 1–3 in the real window on the real traces, with
 * real keys and pointer: reach every row, zoom to 10 ns on epoch timestamps, stay
 * within the trace, keys wherever the focus is, a picked list row comes into view
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-application.h"
#include "tw-details-pane.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000

static TwApplication *app;

typedef struct {
  TwWindow   *window;
  TwTimeline *timeline;
  TwViewState *state;
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

/* Opens a trace of ../shared/traces in the window, as File ▸ Open does; FALSE (the test
 * skipped) without a display, real input, the trace or the library that reads it. */
static gboolean
open_shared_trace (Fixture    *fx,
                   const char *relative)
{
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;

  if (app == NULL)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return FALSE;
    }
  if (tw_test_input_skip ())
    return FALSE;
  if (g_str_has_prefix (relative, "ctf/") && !HAVE_BABELTRACE)
    {
      g_test_skip ("built without libbabeltrace2");
      return FALSE;
    }
  path = tw_test_dup_shared_trace_path (relative);
  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return FALSE;
    }
  file = g_file_new_for_path (path);
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (fx->window));
  fx->timeline = TW_TIMELINE (tw_window_get_timeline (fx->window));
  fx->state = tw_window_get_view_state (fx->window);
  tw_test_wait_frames (GTK_WIDGET (fx->timeline), 2);
  return TRUE;
}

static GtkAdjustment *
rows_adjustment (Fixture *fx)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (fx->timeline), GTK_TYPE_SCROLLED_WINDOW);

  g_assert_nonnull (scroller);
  return gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
}

static cairo_surface_t *
grab_timeline (Fixture *fx)
{
  tw_test_wait_frames (GTK_WIDGET (fx->timeline), 2);
  return tw_test_grab_widget (GTK_WIDGET (fx->timeline));
}

static guint64
visible_span (Fixture *fx)
{
  guint64 begin, end;

  tw_view_state_get_visible_range (fx->state, &begin, &end);
  return end - begin;
}

typedef struct {
  Fixture *fx;
  guint64  span;
} SpanWait;

static gboolean
span_is (gpointer data)
{
  SpanWait *wait = data;

  return visible_span (wait->fx) == wait->span;
}

/* ------------------------------------------------------------------ story 1: every row */

/* The 8-CPU trace of thousands of threads: the wheel, the keys and the scrollbar reach
 * the last task row, drawn under a ruler and a label column that stayed put. */
static void
test_reach_last_row (Fixture       *fx,
                     gconstpointer  data)
{
  GtkAdjustment *vadj;
  GtkWidget *scrollbar;
  const TwTimelineRow *rows;
  const TwTimelineRow *last;
  cairo_surface_t *before, *after;
  double ruler_before[3], ruler_after[3], swatch[3], colour[3];
  guint n_rows;
  double y;

  if (!open_shared_trace (fx, "ctf/lttng-kernel-many-threads/trace"))
    return;
  vadj = rows_adjustment (fx);
  rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (fx->timeline), &n_rows);
  g_assert_cmpuint (n_rows, >, 1000);
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadj), >, 50 * gtk_adjustment_get_page_size (vadj));
  before = grab_timeline (fx);

  /* three wheel notches over the rows: three task rows each (one by one: GDK merges
   * the scroll events it finds queued together) */
  for (guint i = 0; i < 3; i++)
    tw_test_input_click (GTK_WIDGET (fx->timeline), 600, 300, 5, NULL);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==, 3 * 3 * TW_TIMELINE_TASK_HEIGHT);
  /* Down and Page Down with the focus on the timeline */
  gtk_widget_grab_focus (GTK_WIDGET (fx->timeline));
  tw_test_input_keys (GTK_WIDGET (fx->window), "Down Page_Down");
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), >,
                     9 * TW_TIMELINE_TASK_HEIGHT + 3 * TW_TIMELINE_TASK_HEIGHT
                     + gtk_adjustment_get_page_size (vadj) / 2);

  /* the scrollbar: a press near the bottom of its trough takes the slider there, and
   * dragging on down takes it to the end */
  scrollbar = gtk_scrolled_window_get_vscrollbar (GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (GTK_WIDGET (fx->timeline), GTK_TYPE_SCROLLED_WINDOW)));
  g_assert_true (gtk_widget_get_visible (scrollbar));
  tw_test_input_drag (scrollbar, gtk_widget_get_width (scrollbar) / 2.0, gtk_widget_get_height (scrollbar) - 3,
                      gtk_widget_get_width (scrollbar) / 2.0, gtk_widget_get_height (scrollbar) + 60);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadj), ==,
                     gtk_adjustment_get_upper (vadj) - gtk_adjustment_get_page_size (vadj));

  /* the last task row is drawn whole at the bottom, with its task's colour swatch */
  after = grab_timeline (fx);
  last = &rows[n_rows - 1];
  g_assert_cmpint (last->kind, ==, TW_TIMELINE_ROW_TASK);
  y = TW_TIMELINE_RULER_HEIGHT + last->y - gtk_adjustment_get_value (vadj);
  g_assert_cmpfloat (y, >=, TW_TIMELINE_RULER_HEIGHT);
  g_assert_cmpfloat (y + last->height, <=, gtk_widget_get_height (GTK_WIDGET (fx->timeline)));
  tw_timeline_painter_get_task_color (tw_timeline_get_painter (fx->timeline), last->id, colour);
  tw_test_surface_get_rgb (after, 8 + last->indent * 12 + 4, (int) (y + last->height / 2.0), swatch);
  g_assert_true (tw_test_rgb_near (swatch, colour));

  /* the ruler did not move with the rows */
  tw_test_surface_get_rgb (before, TW_TIMELINE_LABEL_WIDTH + 40, 3, ruler_before);
  tw_test_surface_get_rgb (after, TW_TIMELINE_LABEL_WIDTH + 40, 3, ruler_after);
  g_assert_true (tw_test_rgb_near (ruler_before, ruler_after));
  tw_test_save_widget_png (GTK_WIDGET (fx->window), "lttng-many-threads-last-rows.png");

  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
}

/* ------------------------------------------------------------------ story 2: navigate */

static gboolean
is_dark (const double rgb[3])
{
  return rgb[0] + rgb[1] + rgb[2] < 2.0;
}

/* LTTng times are ~1.457e18 ns: Ctrl+wheel zooms around the pointer down to 10 ns
 * without the pointer's time drifting, the ruler ticks every ns, the cursor lands where
 * it is clicked and is drawn there. */
static void
test_zoom_to_10ns_on_epoch (Fixture       *fx,
                            gconstpointer  data)
{
  TwTimelineViewport vp;
  cairo_surface_t *surface;
  guint64 pointer_time, cursor;
  double rgb[3];
  const double x = 640;
  const double y = TW_TIMELINE_RULER_HEIGHT + 100;
  guint labels = 0;

  if (!open_shared_trace (fx, "ctf/lttng-kernel-many-threads/trace"))
    return;
  tw_timeline_get_viewport (fx->timeline, &vp);
  g_assert_cmpuint (vp.begin_ns, >, G_GUINT64_CONSTANT (1400000000000000000));
  pointer_time = tw_timeline_viewport_x_to_time (&vp, x);

  /* 400 ms to 10 ns is 44 steps of 1.5; more stop at 10 ns */
  tw_test_input_clicks (GTK_WIDGET (fx->timeline), x, y, 4, 50, "ctrl");
  /* a loaded machine takes longer than the input's flush to handle 50 steps */
  tw_test_wait_until (span_is, &(SpanWait) { fx, 10 }, 10000);
  g_assert_cmpuint (visible_span (fx), ==, 10);
  tw_timeline_get_viewport (fx->timeline, &vp);
  g_assert_cmpint (llabs ((gint64) (tw_timeline_viewport_x_to_time (&vp, x) - pointer_time)), <=, 2);

  /* every ns has its tick at the bottom of the ruler; even ones are tall and labelled */
  surface = grab_timeline (fx);
  for (guint64 t = vp.begin_ns + 1; t < vp.end_ns; t++)
    {
      int tx = (int) floor (tw_timeline_viewport_time_to_x (&vp, t));

      tw_test_surface_get_rgb (surface, tx, TW_TIMELINE_RULER_HEIGHT - 3, rgb);
      g_assert_true (is_dark (rgb));
      tw_test_surface_get_rgb (surface, tx, TW_TIMELINE_RULER_HEIGHT - 9, rgb);
      g_assert_true (is_dark (rgb) == (t % 2 == 0));
      if (t % 2 == 0)
        for (int lx = tx + 4; lx < tx + 30; lx++)
          {
            tw_test_surface_get_rgb (surface, lx, 12, rgb);
            if (is_dark (rgb))
              {
                labels++;
                break;
              }
          }
    }
  g_assert_cmpuint (labels, >=, 3);
  cairo_surface_destroy (surface);

  /* a click puts the cursor on the ns under the pointer, and it is drawn there */
  tw_test_input_click (GTK_WIDGET (fx->timeline), x + 53, TW_TIMELINE_RULER_HEIGHT + 5, 1, NULL);
  tw_timeline_get_viewport (fx->timeline, &vp);
  cursor = tw_view_state_get_cursor (fx->state);
  g_assert_cmpuint (cursor, ==, tw_timeline_viewport_x_to_time (&vp, x + 53));
  surface = grab_timeline (fx);
  tw_test_surface_get_rgb (surface, (int) floor (tw_timeline_viewport_time_to_x (&vp, cursor)),
                           TW_TIMELINE_RULER_HEIGHT + 200, rgb);
  g_assert_cmpfloat (rgb[0], >, 0.6);
  g_assert_cmpfloat (rgb[1], <, 0.3);
  cairo_surface_destroy (surface);

  /* GNOME's Ctrl+- zooms out one step, around the pointer */
  tw_test_input_keys (GTK_WIDGET (fx->window), "ctrl+minus");
  tw_test_wait_until (span_is, &(SpanWait) { fx, 15 }, 10000);
  g_assert_cmpuint (visible_span (fx), ==, 15);
}

/* Panning and zooming out stop at the trace's ends (a margin of a twentieth). */
static void
test_pan_and_zoom_bounds (Fixture       *fx,
                          gconstpointer  data)
{
  TwTrace *trace;
  guint64 first, last, lo, hi, begin, end;

  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  trace = tw_view_state_get_trace (fx->state);
  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace) + 1;
  g_assert_true (tw_view_state_get_bounds (fx->state, &lo, &hi));
  g_assert_cmpuint (lo, ==, first - (last - first) / 20);
  g_assert_cmpuint (hi, ==, last + (last - first) / 20);

  gtk_widget_grab_focus (GTK_WIDGET (fx->timeline));
  tw_test_input_keys (GTK_WIDGET (fx->window), "s s s");
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (begin, ==, lo);
  g_assert_cmpuint (end, ==, hi);

  /* two steps in leave less than half the trace in view: thirty tenths pan past the end */
  tw_test_input_keys (GTK_WIDGET (fx->window), "w w");
  tw_test_input_keys (GTK_WIDGET (fx->window), "d d d d d d d d d d d d d d d d d d d d d d d d d d d d d d");
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (end, ==, hi);
  tw_test_input_keys (GTK_WIDGET (fx->window), "a a a a a a a a a a a a a a a a a a a a a a a a a a a a a a");
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (begin, ==, lo);

  /* a drag far past the end stops there too */
  tw_test_input_drag (GTK_WIDGET (fx->timeline), 300, 300, 1100, 300);
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (begin, ==, lo);
  tw_test_input_keys (GTK_WIDGET (fx->window), "Home");
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (begin, ==, first);
  g_assert_cmpuint (end, ==, last);
}

/* A range dragged on the ruler, read, zoomed to; Escape clears it. */
static void
test_ruler_selection (Fixture       *fx,
                      gconstpointer  data)
{
  TwTimelineViewport vp;
  guint64 begin, end;

  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  tw_timeline_get_viewport (fx->timeline, &vp);
  tw_test_input_drag (GTK_WIDGET (fx->timeline), 400, 20, 700, 20);
  g_assert_true (tw_view_state_get_selection (fx->state, &begin, &end));
  g_assert_cmpint (llabs ((gint64) (begin - tw_timeline_viewport_x_to_time (&vp, 400))), <=, 1);
  g_assert_cmpint (llabs ((gint64) (end - tw_timeline_viewport_x_to_time (&vp, 700))), <=, 1);

  gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (tw_window_get_event_list (fx->window))));
  tw_test_input_keys (GTK_WIDGET (fx->window), "z");
  g_assert_cmpuint (visible_span (fx), ==, end - begin);
  tw_test_input_keys (GTK_WIDGET (fx->window), "Escape");
  g_assert_false (tw_view_state_get_selection (fx->state, &begin, &end));
}

/* ------------------------------------------------------------------ story 3: inspect */

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  tw_test_collect_descendants (root, type, found);
  return found->len > 0 ? g_ptr_array_index (found, 0) : NULL;
}

/* The trace.dat of 744 tasks, zoomed into its first millisecond with the rows at the
 * top: End in the event list picks its last row, far away; the timeline brings that
 * event's time into view (zoom kept) and scrolls to its task's row, or its CPU's. */
static void
test_list_pick_reveals (Fixture       *fx,
                        gconstpointer  data)
{
  TwTrace *trace;
  TwTimelineLayout *layout;
  GtkAdjustment *vadj;
  const TwTimelineRow *rows;
  guint n_rows;
  guint64 last, begin, end, selected;
  TwEvent event;
  int row;
  double top;

  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  trace = tw_view_state_get_trace (fx->state);
  tw_view_state_set_visible_range (fx->state, tw_trace_get_first_time (trace),
                                   tw_trace_get_first_time (trace) + 1000000);
  vadj = rows_adjustment (fx);
  gtk_adjustment_set_value (vadj, 0);

  gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (tw_window_get_event_list (fx->window))));
  tw_test_input_keys (GTK_WIDGET (fx->window), "Down End");
  last = tw_trace_get_n_events (trace) - 1;
  selected = tw_view_state_get_selected_event (fx->state);
  g_assert_cmpuint (selected, ==, last);

  tw_trace_get_event (trace, selected, &event);
  tw_view_state_get_visible_range (fx->state, &begin, &end);
  g_assert_cmpuint (end - begin, ==, 1000000);
  g_assert_cmpuint (begin, <=, event.time);
  g_assert_cmpuint (event.time, <, end);

  layout = tw_timeline_get_layout (fx->timeline);
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  row = tw_timeline_layout_find_task_row (layout, event.task);
  if (row < 0)
    row = tw_timeline_layout_find_cpu_row (layout, event.cpu);
  g_assert_cmpint (row, >=, 0);
  top = gtk_adjustment_get_value (vadj);
  g_assert_cmpfloat (rows[row].y, >=, top);
  g_assert_cmpfloat (rows[row].y + rows[row].height, <=, top + gtk_adjustment_get_page_size (vadj));
}

/* A run of a task on CPU 0 with no event near its middle, in the first second. */
static const TwRunInterval *
find_quiet_run (TwViewState *state,
                guint        cpu)
{
  TwStateModel *model = tw_view_state_get_model (state);
  TwTrace *trace = tw_view_state_get_trace (state);
  gsize n;
  const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, cpu, &n);

  for (gsize i = 1; i + 1 < n; i++)
    {
      const TwTask *task = tw_trace_get_task (trace, runs[i].task);
      guint64 d = runs[i].end - runs[i].start;
      guint64 mid = runs[i].start + d / 2;
      guint64 e;
      gboolean quiet = TRUE;

      if (task == NULL || (task->flags & TW_TASK_FLAG_IDLE) || d < 20000)
        continue;
      /* 1.5 d over ~1000 px: nothing within 10 px of the middle */
      for (e = tw_trace_find_first_at_or_after (trace, mid - d / 60);
           e < tw_trace_get_n_events (trace) && tw_trace_get_time (trace, e) <= mid + d / 60 && quiet; e++)
        {
          TwEvent event;

          tw_trace_get_event (trace, e, &event);
          quiet = event.cpu != cpu;
        }
      if (quiet)
        return &runs[i];
    }
  return NULL;
}

/* A click in the middle of a run selects it: the timeline frames it and Details says
 * whose it is, where, when, how long, and what ran before and after on that CPU. */
static void
test_click_span_details (Fixture       *fx,
                         gconstpointer  data)
{
  const TwRunInterval *run;
  const TwSpanRef *span;
  const TwTimelineRow *rows;
  TwTimelineViewport vp;
  cairo_surface_t *surface;
  g_autofree char *details = NULL;
  g_autofree char *begin = NULL;
  g_autofree char *task = NULL;
  guint n_rows;
  int row;
  double x, y, rgb[3];

  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  run = find_quiet_run (fx->state, 0);
  g_assert_nonnull (run);
  tw_view_state_set_visible_range (fx->state, run->start - (run->end - run->start) / 4,
                                   run->end + (run->end - run->start) / 4);
  rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (fx->timeline), &n_rows);
  row = tw_timeline_layout_find_cpu_row (tw_timeline_get_layout (fx->timeline), 0);
  tw_timeline_get_viewport (fx->timeline, &vp);
  x = tw_timeline_viewport_time_to_x (&vp, run->start + (run->end - run->start) / 2);
  y = TW_TIMELINE_RULER_HEIGHT + rows[row].y - vp.scroll_y + rows[row].height - 10;
  tw_test_input_click (GTK_WIDGET (fx->timeline), x, y, 1, NULL);

  span = tw_view_state_get_selected_span (fx->state);
  g_assert_nonnull (span);
  g_assert_cmpint (span->series, ==, TW_SERIES_CPU_RUNS);
  g_assert_cmpuint (span->id, ==, 0);
  g_assert_cmpuint (span->begin, ==, run->start);
  g_assert_cmpuint (span->end, ==, run->end);
  g_assert_cmpuint (tw_view_state_get_selected_event (fx->state), ==, TW_EVENT_NONE);

  details = tw_details_pane_dup_text (TW_DETAILS_PANE (tw_window_get_details_pane (fx->window)));
  begin = tw_timeline_format_time (run->start, 1);
  task = tw_trace_dup_task_label (tw_view_state_get_trace (fx->state), run->task);
  g_assert_nonnull (strstr (details, begin));
  g_assert_nonnull (strstr (details, task));
  g_assert_nonnull (strstr (details, "CPU: 0"));
  g_assert_nonnull (strstr (details, "Duration: "));
  g_assert_nonnull (strstr (details, "Preceded by: "));
  g_assert_nonnull (strstr (details, "Followed by: "));

  /* framed on the timeline: the frame's top edge runs along the row's top */
  surface = grab_timeline (fx);
  tw_test_surface_get_rgb (surface, (int) x, (int) (TW_TIMELINE_RULER_HEIGHT + rows[row].y - vp.scroll_y + 1), rgb);
  g_assert_cmpfloat (rgb[2], >, rgb[0] + 0.2);
  cairo_surface_destroy (surface);

  /* a click on an event's mark selects the event instead, and the span goes */
  tw_view_state_set_selected_event (fx->state, 0);
  g_assert_null (tw_view_state_get_selected_span (fx->state));
}

/* n with the focus on the Events tab's header steps to the next event (it went into
 * Find); typed into Find it stays text; w with the focus on the list zooms. */
static void
test_keys_wherever_focus_is (Fixture       *fx,
                             gconstpointer  data)
{
  TwEventList *list;
  GtkWidget *notebook;
  GtkWidget *search;
  guint64 span;

  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  list = tw_window_get_event_list (fx->window);
  notebook = gtk_widget_get_ancestor (GTK_WIDGET (list), GTK_TYPE_NOTEBOOK);
  search = find_widget (GTK_WIDGET (list), GTK_TYPE_SEARCH_ENTRY);
  g_assert_nonnull (search);

  g_assert_true (gtk_widget_grab_focus (notebook));
  tw_test_input_keys (GTK_WIDGET (fx->window), "n");
  g_assert_cmpuint (tw_view_state_get_selected_event (fx->state), !=, TW_EVENT_NONE);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "");

  tw_event_list_focus_search (list);
  tw_test_input_keys (GTK_WIDGET (fx->window), "n w");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (search)), ==, "nw");

  span = visible_span (fx);
  gtk_widget_grab_focus (GTK_WIDGET (tw_event_list_get_column_view (list)));
  tw_test_input_keys (GTK_WIDGET (fx->window), "w");
  g_assert_cmpuint (visible_span (fx), <, span);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);

#define ADD(path, func) g_test_add ("/tw/story/navigate/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("reach-last-row", test_reach_last_row);
  ADD ("zoom-to-10ns-on-epoch", test_zoom_to_10ns_on_epoch);
  ADD ("pan-and-zoom-bounds", test_pan_and_zoom_bounds);
  ADD ("ruler-selection", test_ruler_selection);
  ADD ("list-pick-reveals", test_list_pick_reveals);
  ADD ("click-span-details", test_click_span_details);
  ADD ("keys-wherever-focus-is", test_keys_wherever_focus_is);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
