/* test-window.c: the tracewb window under Xvfb: open, list ↔ view state, errors, pixels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-csv-writer.h>
#include <tw-ingest.h>

#include "tw-application.h"
#include "tw-cursor-state-pane.h"
#include "tw-details-pane.h"
#include "tw-renderer-choice.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 20000
#define N_TICKS 300
#define N_EVENTS (6 + N_TICKS + 2)

static TwApplication *app;
static gboolean have_display;

/* ------------------------------------------------------------------ the trace */

/*
 * CPU 0: alpha → beta at 1000 (alpha sleeps), irq 19 on beta in [2000, 2500),
 *        beta locks mutex 7 at 3000, unlocks it at 40000.
 * CPU 1: gamma → alpha at 1500 (gamma preempted), alpha waits for mutex 7 at 3500 and
 *        gets it at 40100.
 * Ticks: N_TICKS "tick" events at 4000 + 100 i, on CPU i % 2.
 */
static TwTrace *
build_trace (void)
{
  TwTrace *trace = tw_trace_new ();
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 irq_in = tw_test_add_simple_type (trace, "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY);
  guint16 irq_out = tw_test_add_simple_type (trace, "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT);
  guint16 lock = tw_test_add_simple_type (trace, "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  guint16 unlock = tw_test_add_simple_type (trace, "mutex_unlock", TW_EVENT_KIND_MUTEX_UNLOCK);
  guint16 wait = tw_test_add_simple_type (trace, "mutex_wait", TW_EVENT_KIND_MUTEX_WAIT);
  guint16 tick = tw_test_add_simple_type (trace, "tick", TW_EVENT_KIND_OTHER);
  guint32 alpha = tw_trace_add_task (trace, "10", "alpha", 10, 10);
  guint32 beta = tw_trace_add_task (trace, "20", "beta", 20, 20);
  guint32 gamma = tw_trace_add_task (trace, "30", "gamma", 30, 30);

  tw_test_append_switch (trace, sw, 1000, 0, alpha, beta, "S");          /* 0 */
  tw_test_append_switch (trace, sw, 1500, 1, gamma, alpha, "R+");        /* 1 */
  tw_trace_append (trace, 2000, 0, irq_in, beta, 19, NULL);              /* 2 */
  tw_trace_append (trace, 2500, 0, irq_out, beta, 19, NULL);             /* 3 */
  tw_trace_append (trace, 3000, 0, lock, beta, 7, NULL);                 /* 4 */
  tw_trace_append (trace, 3500, 1, wait, alpha, 7, NULL);                /* 5 */
  for (guint i = 0; i < N_TICKS; i++)                                    /* 6 … */
    tw_trace_append (trace, 4000 + 100 * i, i % 2, tick, i % 2 ? alpha : beta, 0, NULL);
  tw_trace_append (trace, 40000, 0, unlock, beta, 7, NULL);
  tw_trace_append (trace, 40100, 1, lock, alpha, 7, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, N_EVENTS);
  return trace;
}

/* ------------------------------------------------------------------ helpers */

typedef struct {
  TwWindow *window;
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

static gboolean
not_filtering (gpointer data)
{
  return !tw_event_list_get_filtering (data);
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (!have_display)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (have_display)
    tw_test_close_window (GTK_WINDOW (fx->window));
}

static void
load_built_trace (Fixture *fx)
{
  g_autoptr(TwTrace) trace = build_trace ();

  tw_window_load_trace (fx->window, trace, "built");
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "loading");
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
}

static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget))
    return widget;
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    {
      GtkWidget *found = find_list_view (c);
      if (found)
        return found;
    }
  return NULL;
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *texts)
{
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (texts, g_strdup (gtk_label_get_text (GTK_LABEL (widget))));
  for (GtkWidget *c = gtk_widget_get_first_child (widget); c; c = gtk_widget_get_next_sibling (c))
    collect_labels (c, texts);
}

/* The row widget of the event list whose first cell (the time) reads @time_text, with
 * its cells' texts; NULL when no drawn row shows that time. */
static GtkWidget *
find_row (TwEventList *list,
          const char  *time_text,
          GPtrArray  **cells)
{
  GtkWidget *list_view = find_list_view (GTK_WIDGET (tw_event_list_get_column_view (list)));

  g_assert_nonnull (list_view);
  for (GtkWidget *row = gtk_widget_get_first_child (list_view); row; row = gtk_widget_get_next_sibling (row))
    {
      g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

      if (!gtk_widget_get_child_visible (row))
        continue;
      collect_labels (row, texts);
      if (texts->len > 0 && g_strcmp0 (texts->pdata[0], time_text) == 0)
        {
          if (cells)
            *cells = g_steal_pointer (&texts);
          return row;
        }
    }
  return NULL;
}

/* RGBA bytes of what @widget draws now (premultiplied BGRA in memory, cairo's ARGB32). */
typedef struct {
  guint8 *data;
  int     width;
  int     height;
  gsize   stride;
} Pixels;

static void
pixels_clear (Pixels *px)
{
  g_clear_pointer (&px->data, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Pixels, pixels_clear)

static void
render_widget (GtkWidget *widget,
               Pixels    *px)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GskRenderer *renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));

  px->width = gtk_widget_get_width (widget);
  px->height = gtk_widget_get_height (widget);
  g_assert_cmpint (px->width, >, 0);
  g_assert_cmpint (px->height, >, 0);
  gdk_paintable_snapshot (paintable, snapshot, px->width, px->height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, px->width, px->height));
  if (g_getenv ("TW_TEST_SAVE_PNG"))
    gdk_texture_save_to_png (texture, g_getenv ("TW_TEST_SAVE_PNG"));
  px->stride = (gsize) px->width * 4;
  px->data = g_malloc (px->stride * px->height);
  gdk_texture_download (texture, px->data, px->stride);
}

static void
mean_color (const Pixels *px,
            int           x0,
            int           y0,
            int           x1,
            int           y1,
            double        rgb[3])
{
  double sum[3] = { 0, 0, 0 };
  guint n = 0;

  x0 = CLAMP (x0, 0, px->width);
  x1 = CLAMP (x1, 0, px->width);
  y0 = CLAMP (y0, 0, px->height);
  y1 = CLAMP (y1, 0, px->height);
  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      {
        const guint8 *p = px->data + y * px->stride + x * 4;
        sum[0] += p[2];
        sum[1] += p[1];
        sum[2] += p[0];
        n++;
      }
  g_assert_cmpuint (n, >, 0);
  for (int i = 0; i < 3; i++)
    rgb[i] = sum[i] / n;
}

static guint
count_dark_pixels (const Pixels *px,
                   int           y0,
                   int           y1)
{
  guint n = 0;

  for (int y = MAX (y0, 0); y < MIN (y1, px->height); y++)
    for (int x = 0; x < px->width; x++)
      {
        const guint8 *p = px->data + y * px->stride + x * 4;
        if ((p[0] + p[1] + p[2]) / 3 < 100)
          n++;
      }
  return n;
}

/* Pixels of a horizontal band that stand out from the band's background (its colour at
 * the right end, where no column has text): the glyphs, whatever the theme's colours. */
static guint
count_contrast_pixels (const Pixels *px,
                       int           y0,
                       int           y1)
{
  guint n = 0;

  y0 = MAX (y0, 0);
  y1 = MIN (y1, px->height);
  for (int y = y0; y < y1; y++)
    {
      const guint8 *bg = px->data + ((y0 + y1) / 2) * px->stride + (px->width - 3) * 4;

      for (int x = 0; x < px->width; x++)
        {
          const guint8 *p = px->data + y * px->stride + x * 4;
          if (abs (p[0] - bg[0]) + abs (p[1] - bg[1]) + abs (p[2] - bg[2]) > 150)
            n++;
        }
    }
  return n;
}

static char *
line_containing (const char *text,
                 const char *needle)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], needle))
      return g_strdup (lines[i]);
  return NULL;
}

/* ------------------------------------------------------------------ tests */

/* Mesa's software rasterizers are recognised by what GL_RENDERER says, GPUs are not. */
static void
test_renderer_choice_strings (void)
{
  g_assert_true (tw_renderer_choice_is_software_gl ("llvmpipe (LLVM 15.0.6, 256 bits)"));
  g_assert_true (tw_renderer_choice_is_software_gl ("softpipe"));
  g_assert_true (tw_renderer_choice_is_software_gl ("Software Rasterizer"));
  g_assert_true (tw_renderer_choice_is_software_gl ("Mesa DRI swrast"));
  g_assert_false (tw_renderer_choice_is_software_gl ("Mesa Intel(R) UHD Graphics 620 (KBL GT2)"));
  g_assert_false (tw_renderer_choice_is_software_gl ("AMD Radeon RX 6600 (navi23, LLVM 15.0.6, DRM 3.49)"));
  g_assert_false (tw_renderer_choice_is_software_gl ("NVIDIA GeForce GTX 1080/PCIe/SSE2"));
  g_assert_false (tw_renderer_choice_is_software_gl (""));
}

/* The choice made at startup is the renderer windows get: GSK_RENDERER=cairo was set
 * before GSK made its first renderer. */
static void
test_renderer_choice_applied (Fixture       *fx,
                              gconstpointer  data)
{
  GskRenderer *renderer;

  if (!have_display)
    {
      g_test_skip ("no display");
      return;
    }
  renderer = gtk_native_get_renderer (GTK_NATIVE (fx->window));
  g_assert_nonnull (renderer);
  if (g_strcmp0 (g_getenv ("GSK_RENDERER"), "cairo") == 0)
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), ==, "GskCairoRenderer");
  else
    g_assert_cmpstr (G_OBJECT_TYPE_NAME (renderer), !=, "GskCairoRenderer");
}

static void
test_open_and_list (Fixture       *fx,
                    gconstpointer  data)
{
  TwEventList *list;
  g_autoptr(GPtrArray) cells = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }

  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "welcome");
  g_assert_null (tw_window_get_view_state (fx->window));
  load_built_trace (fx);

  list = tw_window_get_event_list (fx->window);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (list))), ==, N_EVENTS);

  /* the irq row, as drawn */
  g_assert_nonnull (find_row (list, "0.000002000", &cells));
  g_assert_cmpuint (cells->len, ==, 5);
  g_assert_cmpstr (cells->pdata[1], ==, "0");
  g_assert_cmpstr (cells->pdata[2], ==, "beta-20");
  g_assert_cmpstr (cells->pdata[3], ==, "irq_handler_entry");
  g_assert_cmpstr (cells->pdata[4], ==, "irq=19");
  g_clear_pointer (&cells, g_ptr_array_unref);

  g_assert_nonnull (find_row (list, "0.000001500", &cells));
  g_assert_cmpstr (cells->pdata[2], ==, "gamma-30");
  g_assert_cmpstr (cells->pdata[3], ==, "switch");
  g_assert_cmpstr (cells->pdata[4], ==, "next=alpha-10 prev_state=R+");
}

static void
test_list_selection_sync (Fixture       *fx,
                          gconstpointer  data)
{
  TwEventList *list;
  TwViewState *state;
  GtkSelectionModel *selection;
  GtkWidget *row;
  GtkWidget *scroller;
  graphene_rect_t bounds;
  g_autofree char *details = NULL;
  guint64 far;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  list = tw_window_get_event_list (fx->window);
  state = tw_window_get_view_state (fx->window);
  selection = gtk_column_view_get_model (tw_event_list_get_column_view (list));

  /* a row selected in the list moves the cursor to its event */
  g_assert_cmpuint (tw_view_state_get_cursor (state), ==, TW_TIME_NONE);
  gtk_selection_model_select_item (selection, 2, TRUE);
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 2);
  g_assert_cmpuint (tw_view_state_get_cursor (state), ==, 2000);

  details = tw_details_pane_dup_text (TW_DETAILS_PANE (tw_window_get_details_pane (fx->window)));
  g_assert_nonnull (strstr (details, "Type: irq_handler_entry\n"));
  g_assert_nonnull (strstr (details, "Kind: irq_entry\n"));
  g_assert_nonnull (strstr (details, "IRQ: 19\n"));
  g_assert_nonnull (strstr (details, "Time: 0.000002000 s\n"));
  g_assert_nonnull (strstr (details, "Task: beta-20 (pid 20, id 20)\n"));

  /* an event selected elsewhere (the timeline) selects its row and scrolls it into view */
  far = N_EVENTS - 3;   /* the last tick, far below the first screen */
  tw_view_state_set_selected_event (state, far);
  g_assert_cmpuint (tw_event_list_get_selected_position (list), ==, far);
  g_assert_true (gtk_selection_model_is_selected (selection, far));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 4);
  {
    g_autofree char *time_text = g_strdup_printf ("0.%09u", 4000 + 100 * (N_TICKS - 1));
    row = find_row (list, time_text, NULL);
  }
  g_assert_nonnull (row);
  scroller = gtk_widget_get_parent (GTK_WIDGET (tw_event_list_get_column_view (list)));
  g_assert_true (gtk_widget_compute_bounds (row, scroller, &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (scroller) + 0.5);
  g_assert_cmpuint (tw_view_state_get_cursor (state), ==, 4000 + 100 * (N_TICKS - 1));
}

/* the list shows a new model after each filter */
static guint
n_shown (TwEventList *list)
{
  return g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (list)));
}

static void
test_filters (Fixture       *fx,
              gconstpointer  data)
{
  TwEventList *list;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  list = tw_window_get_event_list (fx->window);

  tw_event_list_set_filter_text (list, "tick");
  g_assert_true (tw_test_wait_until (not_filtering, list, WAIT_MS));
  g_assert_cmpuint (n_shown (list), ==, N_TICKS);

  tw_event_list_set_filter_cpu (list, 1);
  g_assert_true (tw_test_wait_until (not_filtering, list, WAIT_MS));
  g_assert_cmpuint (n_shown (list), ==, N_TICKS / 2);

  /* the mutex events: by type name text, on every CPU */
  tw_event_list_set_filter_cpu (list, TW_CPU_NONE);
  tw_event_list_set_filter_text (list, "MUTEX");
  g_assert_true (tw_test_wait_until (not_filtering, list, WAIT_MS));
  g_assert_cmpuint (n_shown (list), ==, 4);

  /* selecting a filtered-in event from the view state selects its filtered position */
  tw_view_state_set_selected_event (tw_window_get_view_state (fx->window), N_EVENTS - 1);
  g_assert_cmpuint (tw_event_list_get_selected_position (list), ==, 3);

  tw_event_list_set_filter_text (list, "");
  g_assert_true (tw_test_wait_until (not_filtering, list, WAIT_MS));
  g_assert_cmpuint (n_shown (list), ==, N_EVENTS);
  g_assert_cmpuint (tw_event_list_get_selected_position (list), ==, N_EVENTS - 1);
}

static void
test_cursor_state (Fixture       *fx,
                   gconstpointer  data)
{
  TwCursorStatePane *pane;
  g_autofree char *text = NULL;
  g_autofree char *later = NULL;
  g_autofree char *line = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  pane = TW_CURSOR_STATE_PANE (tw_window_get_cursor_state_pane (fx->window));

  tw_view_state_set_cursor (tw_window_get_view_state (fx->window), 3600);
  text = tw_cursor_state_pane_dup_text (pane);
  g_assert_nonnull (strstr (text, "At 0.000003600 s\n"));

  line = line_containing (text, "CPU 0 ");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "beta-20"));
  g_clear_pointer (&line, g_free);
  line = line_containing (text, "CPU 1 ");
  g_assert_nonnull (strstr (line, "alpha-10"));
  g_clear_pointer (&line, g_free);

  line = line_containing (text, "gamma-30");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "ready"));
  g_clear_pointer (&line, g_free);

  line = line_containing (text, "mutex 0x7 ");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "owned by beta-20 since 0.000003000 s"));
  g_assert_nonnull (strstr (line, "waiting: alpha-10"));
  g_clear_pointer (&line, g_free);

  tw_view_state_set_cursor (tw_window_get_view_state (fx->window), 40200);
  later = tw_cursor_state_pane_dup_text (pane);
  line = line_containing (later, "mutex 0x7 ");
  g_assert_nonnull (strstr (line, "owned by alpha-10 since 0.000040100 s"));
  g_assert_null (strstr (line, "waiting"));
}

/* In a trace of two machines, each CPU of the state at the cursor is named by its host
 * (both hosts have a CPU 0). */
static void
test_cursor_state_hosts (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 sw = tw_test_add_switch_type (trace);
  /* met in another order than the hosts': listed by host, then number */
  guint16 cpu_b = tw_trace_add_host_cpu (trace, "beta", 0);
  guint16 cpu_a1 = tw_trace_add_host_cpu (trace, "alpha", 1);
  guint16 cpu_a = tw_trace_add_host_cpu (trace, "alpha", 0);
  guint32 idle_a = tw_trace_add_task (trace, "alpha/0", "swapper", 0, 0);
  guint32 idle_b = tw_trace_add_task (trace, "beta/0", "swapper", 0, 0);
  guint32 worker = tw_trace_add_task (trace, "alpha/7", "worker", 7, 7);
  guint32 logger = tw_trace_add_task (trace, "beta/7", "logger", 7, 7);
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  tw_trace_set_task_host (trace, idle_a, "alpha");
  tw_trace_set_task_host (trace, worker, "alpha");
  tw_trace_set_task_host (trace, idle_b, "beta");
  tw_trace_set_task_host (trace, logger, "beta");
  tw_test_append_switch (trace, sw, 1000, cpu_a, idle_a, worker, "R");
  tw_test_append_switch (trace, sw, 1100, cpu_b, idle_b, logger, "R");
  tw_test_append_switch (trace, sw, 5000, cpu_a, worker, idle_a, "S");
  tw_test_append_switch (trace, sw, 5000, cpu_b, logger, idle_b, "S");
  tw_test_append_switch (trace, sw, 6000, cpu_a1, idle_a, worker, "R");
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  tw_window_load_trace (fx->window, trace, "hosts");
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));

  tw_view_state_set_cursor (tw_window_get_view_state (fx->window), 2000);
  text = tw_cursor_state_pane_dup_text (TW_CURSOR_STATE_PANE (tw_window_get_cursor_state_pane (fx->window)));
  line = line_containing (text, "CPU alpha/0 ");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "worker"));
  g_clear_pointer (&line, g_free);
  line = line_containing (text, "CPU beta/0 ");
  g_assert_nonnull (line);
  g_assert_nonnull (strstr (line, "logger"));
  g_assert_true (strstr (text, "CPU alpha/0 ") < strstr (text, "CPU alpha/1 "));
  g_assert_true (strstr (text, "CPU alpha/1 ") < strstr (text, "CPU beta/0 "));
}

static void
test_navigation (Fixture       *fx,
                 gconstpointer  data)
{
  TwViewState *state;
  guint64 begin, end;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  state = tw_window_get_view_state (fx->window);

  /* go to time: nearest event, and bad text is reported, not acted on */
  tw_window_go_to_time (fx->window, "2 us");
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 2);
  tw_window_go_to_time (fx->window, "0.0024 ms");
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 3);
  tw_window_go_to_time (fx->window, "soon");
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 3);
  /* "+": since the first event (at 1000 ns): +2 us is 3000 ns, the mutex_lock */
  tw_window_go_to_time (fx->window, " +2 us");
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 4);
  tw_window_go_to_time (fx->window, "+soon");
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 4);

  /* next / previous event of the selected event's type */
  tw_view_state_set_selected_event (state, 4);   /* mutex_lock at 3000 */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.next-event", NULL));
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, N_EVENTS - 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.previous-event", NULL));
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, 4);

  /* zoom around the cursor (at 3000 now), then fit */
  tw_view_state_zoom_to_fit (state);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.zoom-in", NULL));
  tw_view_state_get_visible_range (state, &begin, &end);
  g_assert_cmpuint (end - begin, ==, 26067);   /* 39101 ns / TW_TIMELINE_ZOOM_STEP (1.5) */
  g_assert_cmpuint (begin, <=, 3000);
  g_assert_cmpuint (end, >=, 3000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.pan-right", NULL));
  {
    guint64 b2, e2;
    tw_view_state_get_visible_range (state, &b2, &e2);
    g_assert_cmpuint (b2, >, begin);
    g_assert_cmpuint (e2 - b2, ==, end - begin);
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.zoom-fit", NULL));
  tw_view_state_get_visible_range (state, &begin, &end);
  g_assert_cmpuint (begin, ==, 1000);
  g_assert_cmpuint (end, ==, 40101);
}

static void
test_bad_file_then_good (Fixture       *fx,
                         gconstpointer  data)
{
  g_autofree char *bad = NULL;
  g_autofree char *good = NULL;
  g_autoptr(GFile) bad_file = NULL;
  g_autoptr(GFile) good_file = NULL;
  g_autoptr(TwTrace) trace = build_trace ();
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  TwViewState *before;
  const char *message;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  before = tw_window_get_view_state (fx->window);

  bad = tw_test_write_temp_file ("garbage.trace", "this is \x01\x02 not a trace\n", -1);
  bad_file = g_file_new_for_path (bad);
  tw_window_open_file (fx->window, bad_file);
  g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));

  /* the error is in the window, names the file, and the previous trace is still shown */
  message = tw_window_get_error_message (fx->window);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "garbage.trace"));
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "trace");
  g_assert_true (tw_window_get_view_state (fx->window) == before);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 20);   /* the revealer's slide */

  {
    /* the banner is drawn, tinted with the error colour: red above green and blue */
    g_auto(Pixels) px = { 0 };
    GtkWidget *revealer = gtk_widget_get_first_child (gtk_window_get_child (GTK_WINDOW (fx->window)));
    double rgb[3];

    g_assert_true (GTK_IS_REVEALER (revealer));
    g_assert_true (gtk_widget_get_mapped (revealer));
    render_widget (revealer, &px);
    mean_color (&px, 0, 0, px.width, px.height, rgb);
    g_assert_cmpfloat (rgb[0], >, rgb[1] + 8);
    g_assert_cmpfloat (rgb[0], >, rgb[2] + 8);
    g_assert_cmpuint (count_dark_pixels (&px, 0, px.height), >, 50);  /* its text */
  }

  /* a good file (CSV, through the real reader) opens after that */
  good = g_build_filename (g_get_tmp_dir (), "good.csv", NULL);
  good_file = g_file_new_for_path (good);
  out = g_file_replace (good_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tw_csv_writer_write (trace, G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));

  tw_window_open_file (fx->window, good_file);
  g_assert_null (tw_window_get_error_message (fx->window));
  g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));
  g_assert_null (tw_window_get_error_message (fx->window));
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "trace");
  g_assert_true (tw_window_get_view_state (fx->window) != before);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (tw_window_get_event_list (fx->window)))),
                    ==, N_EVENTS);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (fx->window)), "good.csv"));

  /* and it is among the recent traces now */
  {
    g_autofree char *uri = g_file_get_uri (good_file);
    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }
}

static void
test_drop_file (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(TwTrace) trace = build_trace ();
  g_autoptr(GFileOutputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GListModel) controllers = NULL;
  GtkDropTarget *drop = NULL;
  GValue value = G_VALUE_INIT;
  GSList *files = NULL;
  gboolean accepted = FALSE;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  path = g_build_filename (g_get_tmp_dir (), "dropped.csv", NULL);
  file = g_file_new_for_path (path);
  out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tw_csv_writer_write (trace, G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));

  /* the window's drop target, given what a file manager drops */
  controllers = gtk_widget_observe_controllers (GTK_WIDGET (fx->window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        drop = GTK_DROP_TARGET (c);
    }
  g_assert_nonnull (drop);
  g_assert_true (gdk_content_formats_contain_gtype (gtk_drop_target_get_formats (drop), GDK_TYPE_FILE_LIST));

  files = g_slist_prepend (NULL, file);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_list (files));
  g_signal_emit_by_name (drop, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_slist_free (files);
  g_assert_true (accepted);

  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (tw_window_get_event_list (fx->window)))),
                    ==, N_EVENTS);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (fx->window)), "dropped.csv"));
}

static void
test_error_on_welcome (Fixture       *fx,
                       gconstpointer  data)
{
  g_autoptr(GFile) missing = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  missing = g_file_new_for_path ("/nonexistent/dir/missing.dat");
  tw_window_open_file (fx->window, missing);
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "loading");
  g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "welcome");
  g_assert_nonnull (strstr (tw_window_get_error_message (fx->window), "missing.dat"));

  /* dismissing hides it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.dismiss-error", NULL));
  g_assert_null (tw_window_get_error_message (fx->window));
}

static void
test_cancel (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(TwTrace) trace = build_trace ();
  TwViewState *before;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  before = tw_window_get_view_state (fx->window);

  tw_window_load_trace (fx->window, trace, "second");
  g_assert_true (tw_window_get_loading (fx->window));
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "loading");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.cancel-load", NULL));
  g_assert_true (tw_test_wait_until (not_loading, fx->window, WAIT_MS));

  /* cancelled: back to the trace shown before, no error */
  g_assert_cmpstr (tw_window_get_page (fx->window), ==, "trace");
  g_assert_true (tw_window_get_view_state (fx->window) == before);
  g_assert_null (tw_window_get_error_message (fx->window));
}

static void
test_pixels (Fixture       *fx,
             gconstpointer  data)
{
  TwEventList *list;
  GtkWidget *row;
  GtkWidget *other;
  graphene_rect_t row_bounds, other_bounds;
  g_auto(Pixels) px = { 0 };
  double selected_rgb[3], other_rgb[3];

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  load_built_trace (fx);
  list = tw_window_get_event_list (fx->window);
  tw_view_state_set_selected_event (tw_window_get_view_state (fx->window), 2);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  row = find_row (list, "0.000002000", NULL);
  other = find_row (list, "0.000003000", NULL);
  g_assert_nonnull (row);
  g_assert_nonnull (other);
  g_assert_true (gtk_widget_compute_bounds (row, GTK_WIDGET (list), &row_bounds));
  g_assert_true (gtk_widget_compute_bounds (other, GTK_WIDGET (list), &other_bounds));

  render_widget (GTK_WIDGET (list), &px);

  /* rows carry text: glyph pixels inside each row's band (dark on light, or light on
   * the selection colour) */
  g_assert_cmpuint (count_contrast_pixels (&px, row_bounds.origin.y, row_bounds.origin.y + row_bounds.size.height), >, 100);
  g_assert_cmpuint (count_contrast_pixels (&px, other_bounds.origin.y, other_bounds.origin.y + other_bounds.size.height), >, 100);
  g_assert_cmpuint (count_dark_pixels (&px, other_bounds.origin.y, other_bounds.origin.y + other_bounds.size.height), >, 100);

  /* the selected row is highlighted: its background differs from an unselected row's */
  mean_color (&px, 0, row_bounds.origin.y, px.width, row_bounds.origin.y + row_bounds.size.height, selected_rgb);
  mean_color (&px, 0, other_bounds.origin.y, px.width, other_bounds.origin.y + other_bounds.size.height, other_rgb);
  g_assert_cmpfloat (fabs (selected_rgb[0] - other_rgb[0]) + fabs (selected_rgb[1] - other_rgb[1])
                     + fabs (selected_rgb[2] - other_rgb[2]), >, 6.0);
}

static gboolean
shortcuts_window_shown (gpointer data)
{
  GtkWidget **found = data;
  GListModel *toplevels = gtk_window_get_toplevels ();   /* transfer none */

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);
      if (GTK_IS_SHORTCUTS_WINDOW (w) && gtk_widget_get_mapped (w))
        {
          *found = w;
          return TRUE;
        }
    }
  return FALSE;
}

/* The keypad's keys and "=" (plus without Shift on most layouts) are aliases: the
 * window lists the key they stand for, as GTK's own shortcut windows do. */
static guint
listed_key (guint key)
{
  switch (key)
    {
    case GDK_KEY_KP_Add:
    case GDK_KEY_equal:
      return GDK_KEY_plus;
    case GDK_KEY_KP_Subtract:
      return GDK_KEY_minus;
    case GDK_KEY_KP_0:
      return GDK_KEY_0;
    default:
      return key;
    }
}

/* Every key of a widget's shortcut table is listed (F1), as some item's accelerator. */
static void
assert_every_key_listed (GtkWidget        *overlay,
                         const TwShortcut *(*get_table) (guint *n))
{
  g_autoptr(GPtrArray) items = g_ptr_array_new ();
  guint n;
  const TwShortcut *table = get_table (&n);

  tw_test_collect_descendants (overlay, GTK_TYPE_SHORTCUTS_SHORTCUT, items);
  g_assert_cmpuint (items->len, >, 0);
  for (guint i = 0; i < n; i++)
    {
      g_auto(GStrv) accels = g_strsplit (table[i].accels, "|", -1);

      for (guint a = 0; accels[a]; a++)
        {
          guint key, item_key;
          GdkModifierType mods, item_mods;
          gboolean listed = FALSE;

          g_assert_true (gtk_accelerator_parse (accels[a], &key, &mods));
          key = listed_key (key);
          for (guint k = 0; k < items->len && !listed; k++)
            {
              g_autofree char *accelerator = NULL;
              g_auto(GStrv) listed_accels = NULL;

              g_object_get (items->pdata[k], "accelerator", &accelerator, NULL);
              listed_accels = g_strsplit (accelerator ? accelerator : "", " ", -1);
              for (guint l = 0; listed_accels[l] && !listed; l++)
                listed = gtk_accelerator_parse (listed_accels[l], &item_key, &item_mods)
                         && item_key == key && item_mods == mods;
            }
          if (!listed)
            g_error ("%s (%s) is not in the shortcuts window", accels[a], table[i].action);
        }
    }
}

static void
test_shortcuts (Fixture       *fx,
                gconstpointer  data)
{
  static const struct {
    const char *action;
    const char *accel;
  } expected[] = {
    { "app.open", "<Control>o" },
    { "app.quit", "<Control>q" },
    { "win.show-help-overlay", "F1" },
    { "win.go-to-time", "<Control>g" },
    { "win.find", "<Control>f" },
  };
  GtkWidget *overlay = NULL;
  g_autoptr(GPtrArray) titles = g_ptr_array_new_with_free_func (g_free);
  gboolean has_go_to = FALSE;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), expected[i].action);
      g_assert_true (g_strv_contains ((const char * const *) accels, expected[i].accel));
    }

  /* app.shortcuts shows the window built from gtk/help-overlay.ui */
  g_action_group_activate_action (G_ACTION_GROUP (app), "shortcuts", NULL);
  g_assert_true (tw_test_wait_until (shortcuts_window_shown, &overlay, WAIT_MS));
  /* the shortcuts' titles are in the window's widget tree */
  collect_labels (overlay, titles);
  for (guint i = 0; i < titles->len; i++)
    has_go_to |= g_strcmp0 (titles->pdata[i], "Go to time") == 0;
  g_assert_true (has_go_to);
  assert_every_key_listed (overlay, tw_timeline_get_shortcuts);
  assert_every_key_listed (overlay, tw_window_get_shortcuts);
  {
    /* it fits a 1024×768 screen: columns and pages, not one wide sheet */
    int width, height;

    tw_test_wait_frames (overlay, 3);
    width = gtk_widget_get_width (overlay);
    height = gtk_widget_get_height (overlay);
    g_test_message ("shortcuts window: %d×%d", width, height);
    g_assert_cmpint (width, <=, 1024);
    g_assert_cmpint (height, <=, 768);
  }
  gtk_window_close (GTK_WINDOW (overlay));   /* hides: the app window owns its help overlay */
}

static void
test_demo (Fixture       *fx,
           gconstpointer  data)
{
  g_autofree char *source = NULL;
  g_autofree char *extracted = NULL;
  g_autoptr(TwTrace) expected = NULL;
  g_autoptr(GError) error = NULL;
  GAction *action;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  source = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (app), "open-demo");
  if (!g_file_test (source, G_FILE_TEST_EXISTS))
    {
      g_assert_false (g_action_get_enabled (action));
      g_test_skip ("this build has no demo trace (data/demo/demo.shark)");
      return;
    }
  g_assert_true (g_action_get_enabled (action));

  /* the embedded copy is the shipped file, byte for byte, read back by the real reader */
  extracted = tw_application_dup_demo_path (&error);
  g_assert_no_error (error);
  {
    g_autofree char *a = NULL;
    g_autofree char *b = NULL;
    gsize a_len = 0, b_len = 0;

    g_assert_true (g_file_get_contents (source, &a, &a_len, NULL));
    g_assert_true (g_file_get_contents (extracted, &b, &b_len, NULL));
    g_assert_cmpuint (a_len, ==, b_len);
    g_assert_cmpint (memcmp (a, b, a_len), ==, 0);
  }
  expected = tw_reader_registry_load_file (source, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  gtk_window_present (GTK_WINDOW (fx->window));
  g_action_group_activate_action (G_ACTION_GROUP (app), "open-demo", NULL);
  g_assert_true (tw_window_get_loading (fx->window));
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (tw_window_get_event_list (fx->window)))),
                    ==, tw_trace_get_n_events (expected));
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func) g_test_add ("/tw/app/window/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  g_test_add_func ("/tw/app/window/renderer-choice/strings", test_renderer_choice_strings);
  ADD ("renderer-choice/applied", test_renderer_choice_applied);
  ADD ("open-and-list", test_open_and_list);
  ADD ("list-selection-sync", test_list_selection_sync);
  ADD ("filters", test_filters);
  ADD ("cursor-state", test_cursor_state);
  ADD ("cursor-state/hosts", test_cursor_state_hosts);
  ADD ("navigation", test_navigation);
  ADD ("bad-file-then-good", test_bad_file_then_good);
  ADD ("error-on-welcome", test_error_on_welcome);
  ADD ("cancel", test_cancel);
  ADD ("pixels", test_pixels);
  ADD ("shortcuts", test_shortcuts);
  ADD ("demo", test_demo);
  ADD ("drop-file", test_drop_file);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
