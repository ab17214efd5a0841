/* test-timeline-painter.c: what the timeline draws, checked pixel by pixel
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-test-pixels.h"
#include "tw-test-utils.h"
#include "tw-timeline-painter-private.h"

#include <stdlib.h>

#define WIDTH  1200
#define HEIGHT 400

/* Task a runs on CPU 1 in [1000, 5000) ns; irq 7 hits CPU 1 in [2000, 2500); b runs on
 * CPU 0 in [500, 9000); a logs a user event at 3000. The trace ends at 10000. */
typedef struct {
  TwTrace           *trace;
  TwStateModel      *model;
  TwTimelinePainter *painter;
  guint32            a;
  guint32            b;
  guint32            idle1;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  guint16 sw, irq_in, irq_out, user;
  guint32 idle0;

  f->trace = tw_trace_new ();
  sw = tw_test_add_switch_type (f->trace);
  irq_in = tw_test_add_simple_type (f->trace, "irq_entry", TW_EVENT_KIND_IRQ_ENTRY);
  irq_out = tw_test_add_simple_type (f->trace, "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  user = tw_test_add_simple_type (f->trace, "user", TW_EVENT_KIND_USER);
  idle0 = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  f->idle1 = tw_trace_add_task (f->trace, "0/1", "swapper/1", 0, 0);
  tw_trace_set_task_flags (f->trace, idle0, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (f->trace, f->idle1, TW_TASK_FLAG_IDLE);
  f->a = tw_trace_add_task (f->trace, "10", "a", 10, 10);
  f->b = tw_trace_add_task (f->trace, "20", "b", 20, 20);

  tw_test_append_switch (f->trace, sw, 0, 1, TW_TASK_NONE, f->idle1, NULL);
  tw_test_append_switch (f->trace, sw, 500, 0, idle0, f->b, NULL);
  tw_test_append_switch (f->trace, sw, 1000, 1, f->idle1, f->a, NULL);
  tw_trace_append (f->trace, 2000, 1, irq_in, f->a, 7, NULL);
  tw_trace_append (f->trace, 2500, 1, irq_out, f->a, 7, NULL);
  tw_trace_append (f->trace, 3000, 1, user, f->a, 1, NULL);
  tw_test_append_switch (f->trace, sw, 5000, 1, f->a, f->idle1, "S");
  tw_test_append_switch (f->trace, sw, 9000, 0, f->b, idle0, "S");
  tw_test_append_switch (f->trace, sw, 10000, 1, f->idle1, f->idle1, NULL);
  g_assert_true (tw_trace_seal (f->trace, NULL, NULL));

  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->painter = tw_timeline_painter_new (f->model);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->painter);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

static cairo_surface_t *
render_with (TwTimelinePainter        *painter,
             const TwTimelineViewport *vp)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp->width, vp->height);
  cairo_t *cr = cairo_create (surface);

  tw_timeline_painter_draw (painter, cr, vp);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static cairo_surface_t *
render_through_group (TwTimelinePainter        *painter,
                      const TwTimelineViewport *vp)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, vp->width, vp->height);
  cairo_t *cr = cairo_create (surface);

  cairo_push_group (cr);
  tw_timeline_painter_draw (painter, cr, vp);
  cairo_pop_group_to_source (cr);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static cairo_surface_t *
render (Fixture                  *f,
        const TwTimelineViewport *vp)
{
  return render_with (f->painter, vp);
}

static const TwTimelineRow *
find_row (Fixture           *f,
          TwTimelineRowKind  kind,
          guint32            id)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n);

  for (guint i = 0; i < n; i++)
    if (rows[i].kind == kind && rows[i].id == id)
      return &rows[i];
  g_assert_not_reached ();
}

static TwTimelineViewport
full_view (void)
{
  TwTimelineViewport vp = { 0, 10000, WIDTH, HEIGHT, 0, TW_TIME_NONE };

  return vp;
}

static void
test_cpu_span_and_irq (Fixture       *f,
                       gconstpointer  data)
{
  TwTimelineViewport vp = full_view ();
  cairo_surface_t *surface = render (f, &vp);
  const TwTimelineRow *cpu1 = find_row (f, TW_TIMELINE_ROW_CPU, 1);
  int y_run = TW_TIMELINE_RULER_HEIGHT + cpu1->y + cpu1->height - 8;
  int y_irq = TW_TIMELINE_RULER_HEIGHT + cpu1->y + 3;
  int x1 = (int) tw_timeline_viewport_time_to_x (&vp, 1000);
  int x2 = (int) tw_timeline_viewport_time_to_x (&vp, 5000);
  double a_rgb[3], b_rgb[3], px[3];
  const double red[3] = { 0.88, 0.11, 0.14 };

  tw_timeline_painter_get_task_color (f->painter, f->a, a_rgb);
  tw_timeline_painter_get_task_color (f->painter, f->b, b_rgb);
  g_assert_false (tw_test_rgb_near (a_rgb, b_rgb));

  /* a's colour fills CPU 1 from t1 to t2, and only there */
  for (int x = x1 + 1; x < x2 - 1; x += 7)
    {
      tw_test_surface_get_rgb (surface, x, y_run, px);
      g_assert_true (tw_test_rgb_near (px, a_rgb));
    }
  tw_test_surface_get_rgb (surface, x1 - 3, y_run, px);
  g_assert_false (tw_test_rgb_near (px, a_rgb));
  tw_test_surface_get_rgb (surface, x2 + 3, y_run, px);
  g_assert_false (tw_test_rgb_near (px, a_rgb));

  /* irq 7 is drawn above the span, in the irq lane, for [2000, 2500) */
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 2250), y_irq, px);
  g_assert_true (tw_test_rgb_near (px, red));
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 3000), y_irq, px);
  g_assert_false (tw_test_rgb_near (px, red));

  /* b on CPU 0 */
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 6000),
                           TW_TIMELINE_RULER_HEIGHT + find_row (f, TW_TIMELINE_ROW_CPU, 0)->y
                           + TW_TIMELINE_CPU_HEIGHT - 8, px);
  g_assert_true (tw_test_rgb_near (px, b_rgb));

  cairo_surface_destroy (surface);
}

static void
test_task_rows (Fixture       *f,
                gconstpointer  data)
{
  TwTimelineViewport vp = full_view ();
  cairo_surface_t *surface = render (f, &vp);
  const TwTimelineRow *row_a = find_row (f, TW_TIMELINE_ROW_TASK, f->a);
  int y_mid = TW_TIMELINE_RULER_HEIGHT + row_a->y + row_a->height / 2;
  double a_rgb[3], px[3];
  guint n;

  tw_timeline_painter_get_task_color (f->painter, f->a, a_rgb);

  /* running [1000, 5000) in the task's colour; blocked after it is not */
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 4000), y_mid, px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 7000), y_mid - 3, px);
  g_assert_false (tw_test_rgb_near (px, a_rgb));

  /* the user event at 3000 is a mark at the top of a's row */
  tw_test_surface_get_rgb (surface, (int) tw_timeline_viewport_time_to_x (&vp, 3000),
                           TW_TIMELINE_RULER_HEIGHT + row_a->y + 1, px);
  g_assert_false (tw_test_rgb_near (px, a_rgb));
  g_assert_cmpfloat (px[0] + px[1] + px[2], <, 1.5);

  /* idle tasks get no task row; a and b do; the busier one (b) comes first */
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n);
  g_assert_cmpuint (n, ==, 2 + 2 + 2); /* two sections, two CPUs, two tasks */
  g_assert_cmpint (find_row (f, TW_TIMELINE_ROW_TASK, f->b)->y, <, row_a->y);

  cairo_surface_destroy (surface);
}

static void
test_zoom_keeps_anchor (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(TwViewState) state = tw_view_state_new (f->model);
  TwTimelineViewport vp = full_view ();
  double x = 700;
  guint64 before, after;

  tw_view_state_get_visible_range (state, &vp.begin_ns, &vp.end_ns);
  g_assert_cmpuint (vp.begin_ns, ==, 0);
  g_assert_cmpuint (vp.end_ns, ==, 10001);

  before = tw_timeline_viewport_x_to_time (&vp, x);
  tw_view_state_zoom (state, 4.0, before);
  tw_view_state_get_visible_range (state, &vp.begin_ns, &vp.end_ns);
  g_assert_cmpint (llabs ((gint64) (vp.end_ns - vp.begin_ns) - 10001 / 4), <=, 1);
  after = tw_timeline_viewport_x_to_time (&vp, x);
  g_assert_cmpint (llabs ((gint64) after - (gint64) before), <=, 2);

  tw_view_state_zoom (state, 0.25, before);
  tw_view_state_get_visible_range (state, &vp.begin_ns, &vp.end_ns);
  after = tw_timeline_viewport_x_to_time (&vp, x);
  g_assert_cmpint (llabs ((gint64) after - (gint64) before), <=, 4);
}

static void
test_narrow_spans_still_show (Fixture       *f,
                              gconstpointer  data)
{
  /* Zoomed far out (10 s for a 10 µs trace), a's 4 µs span is far below a pixel, yet
   * a mark in its colour remains. */
  TwTimelineViewport vp = { 0, G_GUINT64_CONSTANT (10000000000), WIDTH, HEIGHT, 0, TW_TIME_NONE };
  cairo_surface_t *surface = render (f, &vp);
  const TwTimelineRow *cpu1 = find_row (f, TW_TIMELINE_ROW_CPU, 1);
  double a_rgb[3], px[3];

  tw_timeline_painter_get_task_color (f->painter, f->a, a_rgb);
  tw_test_surface_get_rgb (surface, TW_TIMELINE_LABEL_WIDTH,
                           TW_TIMELINE_RULER_HEIGHT + cpu1->y + cpu1->height - 8, px);
  g_assert_true (tw_test_rgb_near (px, a_rgb));
  cairo_surface_destroy (surface);
}

static void
test_hit_test (Fixture       *f,
               gconstpointer  data)
{
  TwTimelineViewport vp = full_view ();
  const TwTimelineRow *cpu1 = find_row (f, TW_TIMELINE_ROW_CPU, 1);
  const TwTimelineRow *row_a = find_row (f, TW_TIMELINE_ROW_TASK, f->a);
  TwTimelineHit hit;

  /* the run of a on CPU 1 */
  tw_timeline_painter_hit_test (f->painter, &vp, tw_timeline_viewport_time_to_x (&vp, 4000),
                                TW_TIMELINE_RULER_HEIGHT + cpu1->y + cpu1->height - 8, &hit);
  g_assert_cmpuint (hit.span_begin, ==, 1000);
  g_assert_cmpuint (hit.span_end, ==, 5000);
  g_assert_nonnull (strstr (hit.description, "a-10 on CPU 1"));
  tw_timeline_hit_clear (&hit);

  /* the irq above it */
  tw_timeline_painter_hit_test (f->painter, &vp, tw_timeline_viewport_time_to_x (&vp, 2200),
                                TW_TIMELINE_RULER_HEIGHT + cpu1->y + 2, &hit);
  g_assert_cmpuint (hit.span_begin, ==, 2000);
  g_assert_cmpuint (hit.span_end, ==, 2500);
  g_assert_nonnull (strstr (hit.description, "irq=7 on CPU 1"));
  tw_timeline_hit_clear (&hit);

  /* the user mark selects its event */
  tw_timeline_painter_hit_test (f->painter, &vp, tw_timeline_viewport_time_to_x (&vp, 3000),
                                TW_TIMELINE_RULER_HEIGHT + row_a->y + 4, &hit);
  g_assert_cmpuint (hit.event, ==, 5);
  g_assert_nonnull (strstr (hit.description, "user"));
  tw_timeline_hit_clear (&hit);

  /* the ruler is no row */
  tw_timeline_painter_hit_test (f->painter, &vp, 500, 5, &hit);
  g_assert_cmpint (hit.row, ==, -1);
  tw_timeline_hit_clear (&hit);
}

static void
test_collapse_and_filter (Fixture       *f,
                          gconstpointer  data)
{
  guint n_before, n;

  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n_before);
  tw_timeline_layout_toggle_row (tw_timeline_painter_get_layout (f->painter), 0); /* "CPUs" */
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n);
  g_assert_cmpuint (n, ==, n_before - 2);
  tw_timeline_layout_toggle_row (tw_timeline_painter_get_layout (f->painter), 0);

  tw_timeline_layout_set_task_filter (tw_timeline_painter_get_layout (f->painter), &f->a, 1);
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n);
  g_assert_cmpuint (n, ==, n_before - 1);
  tw_timeline_layout_set_task_filter (tw_timeline_painter_get_layout (f->painter), NULL, 0);
  tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n);
  g_assert_cmpuint (n, ==, n_before);
}


/* The bins of wide views draw exactly what the intervals themselves draw, at every zoom,
 * on a busy three-CPU trace; and what they draw is not an empty picture. */
static void
test_bins_draw_like_exact (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 3, 10, 5);
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelinePainter) painter = NULL;
  guint64 first, last;

  tw_test_schedule_append (schedule, 600000);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  painter = tw_timeline_painter_new (model);
  first = tw_trace_get_first_time (trace);
  last = tw_trace_get_last_time (trace) + 1;

  for (int level = 0; level <= 8; level++)
    {
      double span = (double) (last - first) / pow (3.0, level);
      TwTimelineViewport vp = { 0 };
      cairo_surface_t *fast, *exact, *via_cairo;
      const guint8 *a, *b, *c;
      int stride, differing = 0, coloured = 0;

      vp.begin_ns = level == 0 ? first : first + (guint64) ((last - first) * 0.37);
      vp.end_ns = vp.begin_ns + MAX ((guint64) span, 1);
      /* 300 columns: on the wider views, dozens to thousands of intervals per column, so
       * the bins of every row take part */
      vp.width = TW_TIMELINE_LABEL_WIDTH + 300;
      vp.height = 700;
      vp.cursor_ns = TW_TIME_NONE;

      tw_timeline_painter_set_exact (painter, FALSE);
      fast = render_with (painter, &vp);
      tw_timeline_painter_set_exact (painter, TRUE);
      exact = render_with (painter, &vp);

      a = cairo_image_surface_get_data (fast);
      b = cairo_image_surface_get_data (exact);
      stride = cairo_image_surface_get_stride (fast);
      for (int y = TW_TIMELINE_RULER_HEIGHT; y < vp.height; y++)
        for (int x = TW_TIMELINE_LABEL_WIDTH; x < vp.width; x++)
          {
            guint32 pa = *(const guint32 *) (a + y * stride + x * 4);
            guint32 pb = *(const guint32 *) (b + y * stride + x * 4);
            guint r = (pa >> 16) & 0xff, g = (pa >> 8) & 0xff, bl = pa & 0xff;

            differing += pa != pb;
            /* saturated: a task's colour or an irq, not the grey and white of the grid */
            coloured += MAX (r, MAX (g, bl)) - MIN (r, MIN (g, bl)) > 40;
          }
      g_assert_cmpint (differing, ==, 0);
      g_assert_cmpint (coloured, >, 3000);

      /* through a group the painter cannot write pixels itself and draws through cairo:
       * the same picture, up to rounding of translucent bands */
      tw_timeline_painter_set_exact (painter, FALSE);
      via_cairo = render_through_group (painter, &vp);
      c = cairo_image_surface_get_data (via_cairo);
      for (int y = 0; y < vp.height; y++)
        for (int x = 0; x < vp.width; x++)
          {
            guint32 pa = *(const guint32 *) (a + y * stride + x * 4);
            guint32 pc = *(const guint32 *) (c + y * stride + x * 4);

            for (int shift = 0; shift < 32; shift += 8)
              g_assert_cmpint (abs ((int) ((pa >> shift) & 0xff) - (int) ((pc >> shift) & 0xff)), <=, 2);
          }

      cairo_surface_destroy (via_cairo);
      cairo_surface_destroy (fast);
      cairo_surface_destroy (exact);
    }
}

/* An image of @vp's size × @scale filled with @fill, after @painter drew @vp into it
 * scaled by @scale */
static cairo_surface_t *
render_over (TwTimelinePainter        *painter,
             const TwTimelineViewport *vp,
             double                    scale,
             guint32                   fill)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) (vp->width * scale),
                                                         (int) (vp->height * scale));
  guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  cairo_t *cr;

  for (int y = 0; y < cairo_image_surface_get_height (surface); y++)
    for (int x = 0; x < cairo_image_surface_get_width (surface); x++)
      *(guint32 *) (data + y * stride + x * 4) = fill;
  cairo_surface_mark_dirty (surface);
  cr = cairo_create (surface);
  cairo_scale (cr, scale, scale);
  tw_timeline_painter_draw (painter, cr, vp);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);

  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  g_assert_cmpint (stride, ==, cairo_image_surface_get_stride (b));
  for (int y = 0; y < height; y++)
    if (memcmp (cairo_image_surface_get_data (a) + y * stride,
                cairo_image_surface_get_data (b) + y * stride, stride) != 0)
      g_error ("pixel line %d differs", y);
}

/* Labels are laid out once and kept: a second frame of the view shapes no text again
 * (the context is not marked changed, no layout is added) and draws what a new painter
 * draws; a frame at another scale updates them, and back at the first scale the
 * picture is the first one again. */
static void
test_labels_kept (Fixture       *f,
                  gconstpointer  data)
{
  TwTimelineViewport vp = full_view ();
  g_autoptr(TwTimelinePainter) fresh = tw_timeline_painter_new (f->model);
  cairo_surface_t *first = render_over (f->painter, &vp, 1, 0);
  guint serial = pango_context_get_serial (f->painter->text_context);
  guint n_layouts = g_hash_table_size (f->painter->text_layouts);
  cairo_surface_t *again, *scaled, *scaled_fresh, *back;

  g_assert_cmpuint (n_layouts, >, 4);
  again = render_over (f->painter, &vp, 1, 0);
  g_assert_cmpuint (pango_context_get_serial (f->painter->text_context), ==, serial);
  g_assert_cmpuint (g_hash_table_size (f->painter->text_layouts), ==, n_layouts);
  assert_same_pixels (again, first);

  scaled = render_over (f->painter, &vp, 2, 0);
  scaled_fresh = render_over (fresh, &vp, 2, 0);
  assert_same_pixels (scaled, scaled_fresh);
  back = render_over (f->painter, &vp, 1, 0);
  assert_same_pixels (back, first);

  cairo_surface_destroy (back);
  cairo_surface_destroy (scaled_fresh);
  cairo_surface_destroy (scaled);
  cairo_surface_destroy (again);
  cairo_surface_destroy (first);
}

/* Rows that fill the view leave no pixel of what was under them (the background is
 * not painted first there), scrolled by a fraction of a pixel or not; where they end
 * above the bottom, the background shows below them. */
static void
test_background_under_rows (Fixture       *f,
                            gconstpointer  data)
{
  guint n_rows;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_painter_get_layout (f->painter), &n_rows);
  int rows_height = rows[n_rows - 1].y + rows[n_rows - 1].height;
  const int heights[] = { TW_TIMELINE_RULER_HEIGHT + rows_height / 2, TW_TIMELINE_RULER_HEIGHT + rows_height,
                          TW_TIMELINE_RULER_HEIGHT + rows_height + 50 };
  const double scrolls[] = { 0, 10.5, 17 };

  for (guint h = 0; h < G_N_ELEMENTS (heights); h++)
    for (guint s = 0; s < G_N_ELEMENTS (scrolls); s++)
      {
        TwTimelineViewport vp = full_view ();
        cairo_surface_t *over_magenta, *over_clear;
        TwTimelineColors colors;
        double px[3];

        vp.height = heights[h];
        vp.scroll_y = scrolls[s];
        over_magenta = render_over (f->painter, &vp, 1, 0xffff00ff);
        over_clear = render_over (f->painter, &vp, 1, 0);
        assert_same_pixels (over_magenta, over_clear);

        tw_timeline_colors_init (&colors, NULL);
        tw_test_surface_get_rgb (over_magenta, vp.width / 2, vp.height - 1, px);
        if (TW_TIMELINE_RULER_HEIGHT + rows_height - vp.scroll_y < vp.height - 1)
          g_assert_true (tw_test_rgb_near (px, colors.background));
        cairo_surface_destroy (over_clear);
        cairo_surface_destroy (over_magenta);
      }
}

static void
test_format (void)
{
  g_autofree char *d1 = tw_timeline_format_duration (1500000000);
  g_autofree char *d2 = tw_timeline_format_duration (250000);
  g_autofree char *d3 = tw_timeline_format_duration (42);
  g_autofree char *d4 = tw_timeline_format_duration (12340000);
  g_autofree char *t1 = tw_timeline_format_time (G_GUINT64_CONSTANT (933349600000), 1000);
  g_autofree char *t2 = tw_timeline_format_time (G_GUINT64_CONSTANT (2000000000), 1000000000);
  g_autofree char *t3 = tw_timeline_format_time (G_GUINT64_CONSTANT (933349600123), 1);

  g_assert_cmpstr (d1, ==, "1.5 s");
  g_assert_cmpstr (d2, ==, "250 µs");
  g_assert_cmpstr (d3, ==, "42 ns");
  g_assert_cmpstr (d4, ==, "12.3 ms");
  g_assert_cmpstr (t1, ==, "933.349600 s");
  g_assert_cmpstr (t2, ==, "2 s");
  g_assert_cmpstr (t3, ==, "933.349600123 s");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/widgets/timeline-painter/cpu-span-and-irq", test_cpu_span_and_irq);
  ADD ("/tw/widgets/timeline-painter/task-rows", test_task_rows);
  ADD ("/tw/widgets/timeline-painter/zoom-keeps-anchor", test_zoom_keeps_anchor);
  ADD ("/tw/widgets/timeline-painter/narrow-spans-still-show", test_narrow_spans_still_show);
  ADD ("/tw/widgets/timeline-painter/hit-test", test_hit_test);
  ADD ("/tw/widgets/timeline-painter/collapse-and-filter", test_collapse_and_filter);
  ADD ("/tw/widgets/timeline-painter/labels-kept", test_labels_kept);
  ADD ("/tw/widgets/timeline-painter/background-under-rows", test_background_under_rows);
#undef ADD
  g_test_add_func ("/tw/widgets/timeline-painter/format", test_format);
  g_test_add_func ("/tw/widgets/timeline-painter/bins-draw-like-exact", test_bins_draw_like_exact);

  return g_test_run ();
}
