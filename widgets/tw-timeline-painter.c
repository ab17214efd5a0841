/* tw-timeline-painter.c: draws the timeline of a trace on any cairo_t
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <pango/pangocairo.h>

#include "tw-timeline-cpu-marks.h"
#include "tw-timeline-describe.h"
#include "tw-timeline-painter.h"
#include "tw-timeline-style.h"

/*
 * One painter serves the widget, `tracewb-cli render` and the pixel tests, so what a user
 * sees is what the tests check.
 *
 * Cost per frame is O(pixels), not O(events): for each row the model summarizes what
 * meets every pixel column (tw_state_model_summarize(), from pre-aggregated bins on wide
 * views), the painter turns each column into one colour per lane, and runs of equal
 * columns become one rectangle, written straight into image surfaces or, elsewhere,
 * batched into one cairo fill per colour.
 */

#define IRQ_LANE_HEIGHT TW_TIMELINE_IRQ_LANE_HEIGHT
#define IRQ_MAX_LANES   TW_TIMELINE_IRQ_MAX_LANES
#define HIT_SLOP_PX     4
#define SCAN_LIMIT      20000 /* events looked at around a click for the row's nearest */

struct _TwTimelinePainter
{
  GObject           parent_instance;

  TwStateModel     *model;
  TwTrace          *trace;
  TwTimelineLayout *layout;
  GArray           *colors;        /* double[3] per task */
  gboolean          exact;         /* summarize from the intervals, not the bins */
};

G_DEFINE_FINAL_TYPE (TwTimelinePainter, tw_timeline_painter, G_TYPE_OBJECT)

void
tw_timeline_hit_clear (TwTimelineHit *hit)
{
  g_clear_pointer (&hit->description, g_free);
}

static void
tw_timeline_painter_finalize (GObject *object)
{
  TwTimelinePainter *self = (TwTimelinePainter *)object;

  g_clear_object (&self->model);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->colors, g_array_unref);

  G_OBJECT_CLASS (tw_timeline_painter_parent_class)->finalize (object);
}

static void
tw_timeline_painter_class_init (TwTimelinePainterClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_timeline_painter_finalize;
}

static void
tw_timeline_painter_init (TwTimelinePainter *self)
{
  self->colors = g_array_new (FALSE, FALSE, sizeof (double) * 3);
}

/**
 * tw_timeline_painter_new:
 *
 * Returns: (transfer full): a painter for @model, laid out
 */
TwTimelinePainter *
tw_timeline_painter_new (TwStateModel *model)
{
  TwTimelinePainter *self;

  g_return_val_if_fail (TW_IS_STATE_MODEL (model), NULL);

  self = g_object_new (TW_TYPE_TIMELINE_PAINTER, NULL);
  self->model = g_object_ref (model);
  self->trace = tw_state_model_get_trace (model);
  self->layout = tw_timeline_layout_new (model);
  return self;
}

/**
 * tw_timeline_painter_get_model:
 *
 * Returns: (transfer none): the model
 */
TwStateModel *
tw_timeline_painter_get_model (TwTimelinePainter *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (self), NULL);

  return self->model;
}

/**
 * tw_timeline_painter_get_layout:
 *
 * Returns: (transfer none): the rows the painter draws
 */
TwTimelineLayout *
tw_timeline_painter_get_layout (TwTimelinePainter *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_PAINTER (self), NULL);

  return self->layout;
}

/**
 * tw_timeline_painter_set_exact:
 * @exact: %TRUE to draw from the intervals themselves
 *
 * Draws rows from the model's intervals instead of their pre-aggregated bins: the same
 * pixels, at a cost that grows with the events in view. Tests use it to check the bins.
 */
void
tw_timeline_painter_set_exact (TwTimelinePainter *self,
                               gboolean           exact)
{
  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  self->exact = !!exact;
}

/* ---------------------------------------------------------------- colours */

/* Tasks appear as a live trace grows; their colours are computed once. */
static void
ensure_task_colors (TwTimelinePainter *self)
{
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);

  for (guint32 k = self->colors->len; k < n_tasks; k++)
    {
      double rgb[3];

      tw_timeline_task_color (tw_trace_get_task (self->trace, k), rgb);
      g_array_append_vals (self->colors, rgb, 1);
    }
}

void
tw_timeline_painter_get_task_color (TwTimelinePainter *self,
                                    guint32            task,
                                    double             rgb[3])
{
  const TwTask *t;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  if (task < self->colors->len)
    {
      memcpy (rgb, &g_array_index (self->colors, double, task * 3), sizeof (double) * 3);
      return;
    }
  if ((t = tw_trace_get_task (self->trace, task)))
    tw_timeline_task_color (t, rgb);
  else
    rgb[0] = rgb[1] = rgb[2] = 0.6;
}

/* ---------------------------------------------------------------- time and text */

/* Viewport maths works on ns relative to the visible range's begin, as integers until the
 * last step: a double holds an epoch timestamp (~1.5e18 ns) only to 256 ns. */
double
tw_timeline_viewport_time_to_x (const TwTimelineViewport *vp,
                                guint64                   time_ns)
{
  double plot = MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH);
  double span = (double) MAX (vp->end_ns - vp->begin_ns, 1);
  double offset = time_ns >= vp->begin_ns ? (double) (time_ns - vp->begin_ns)
                                          : -(double) (vp->begin_ns - time_ns);

  return TW_TIMELINE_LABEL_WIDTH + offset * plot / span;
}

guint64
tw_timeline_viewport_x_to_time (const TwTimelineViewport *vp,
                                double                    x)
{
  double plot = MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH);
  double span = (double) MAX (vp->end_ns - vp->begin_ns, 1);
  double offset = (x - TW_TIMELINE_LABEL_WIDTH) * span / plot;

  if (offset < 0)
    {
      guint64 back = (guint64) llround (-offset);
      return back >= vp->begin_ns ? 0 : vp->begin_ns - back;
    }
  return vp->begin_ns + (guint64) llround (offset);
}

/**
 * tw_timeline_format_duration:
 *
 * Returns: (transfer full): "1.25 s", "12.5 ms", "250 µs", "42 ns": three significant
 *   digits in the largest unit that keeps the number ≥ 1
 */
char *
tw_timeline_format_duration (guint64 ns)
{
  static const struct { guint64 scale; const char *unit; } units[] = {
    { G_GUINT64_CONSTANT (1000000000), "s" },
    { 1000000, "ms" },
    { 1000, "µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (ns >= units[i].scale)
      {
        double v = (double) ns / units[i].scale;
        int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
        g_autofree char *text = g_strdup_printf ("%.*f", decimals, v);
        char *end = text + strlen (text) - 1;

        /* "1.50" reads better as "1.5" */
        if (decimals > 0)
          {
            while (*end == '0')
              *end-- = '\0';
            if (*end == '.')
              *end = '\0';
          }
        return g_strdup_printf ("%s %s", text, units[i].unit);
      }
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

/**
 * tw_timeline_format_time:
 * @step_ns: the precision that matters (the ruler's tick step), ≥ 1
 *
 * Returns: (transfer full): @time_ns in seconds with as many decimals as @step_ns needs
 */
char *
tw_timeline_format_time (guint64 time_ns,
                         guint64 step_ns)
{
  guint64 sec = time_ns / G_GUINT64_CONSTANT (1000000000);
  guint64 frac = time_ns % G_GUINT64_CONSTANT (1000000000);
  int decimals = 0;
  guint64 div = G_GUINT64_CONSTANT (1000000000);

  while (decimals < 9 && step_ns % div != 0)
    {
      div /= 10;
      decimals++;
    }
  if (decimals == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " s", sec);
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT " s", sec, decimals,
                          frac / div);
}

/* ---------------------------------------------------------------- drawing */

/* Rectangles of one colour go into one path, and touching ones merge, so cairo sees a
 * fill per colour change rather than per interval. */
typedef struct {
  cairo_t *cr;
  double   rgba[4];
  double   x0, x1, y, h;
  gboolean pending;
  gboolean in_path;
} RectBatch;

static void
batch_flush_rect (RectBatch *b)
{
  if (!b->pending)
    return;
  cairo_rectangle (b->cr, b->x0, b->y, MAX (b->x1 - b->x0, 1.0), b->h);
  b->pending = FALSE;
  b->in_path = TRUE;
}

static void
batch_flush (RectBatch *b)
{
  batch_flush_rect (b);
  if (!b->in_path)
    return;
  cairo_set_source_rgba (b->cr, b->rgba[0], b->rgba[1], b->rgba[2], b->rgba[3]);
  cairo_fill (b->cr);
  b->in_path = FALSE;
}

static void
batch_add (RectBatch    *b,
           double        x0,
           double        x1,
           double        y,
           double        h,
           const double  rgba[4])
{
  x0 = floor (x0);
  x1 = MAX (ceil (x1), x0 + 1);

  if (memcmp (rgba, b->rgba, sizeof b->rgba) != 0)
    {
      batch_flush (b);
      memcpy (b->rgba, rgba, sizeof b->rgba);
    }
  else if (b->pending && y == b->y && h == b->h && x0 <= b->x1)
    {
      b->x1 = MAX (b->x1, x1);
      return;
    }

  batch_flush_rect (b);
  b->x0 = x0;
  b->x1 = x1;
  b->y = y;
  b->h = h;
  b->pending = TRUE;
}

/* An ARGB32 or RGB24 image that rows can be written into directly. Cairo composites one
 * box per rectangle, and on wide views rows change colour at most pixel columns: for
 * hundreds of rows that is most of a frame, while writing the pixels is a few µs a row.
 * Used only when user space maps to whole device pixels and the row's clip is one
 * rectangle; anything else (SVG, scaled or rotated contexts) draws through cairo. */
typedef struct {
  cairo_surface_t *surface;   /* NULL when not usable at all */
  guint8          *data;
  int              stride;
  gboolean         opaque;    /* RGB24 */
  int              dx, dy;    /* device = user + (dx, dy) */
  gboolean         row_ok;    /* the current row's clip is the rectangle below */
  int              clip_x0, clip_y0, clip_x1, clip_y1;
} DirectTarget;

typedef struct {
  TwTimelinePainter        *self;
  const TwTimelineViewport *vp;
  DirectTarget             *direct;
  double                    plot_x0;
  double                    plot_x1;
  double                    ns_per_px;
  guint                     n_columns;  /* pixel columns of the plot */
  TwSummary                *summaries;  /* n_columns, scratch for one series */
  guint32                  *keys;       /* n_columns, scratch: what each column shows */
  GArray                   *segments;   /* Segment, scratch */
  const TwTimelineColors   *colors;
} Frame;

/* First interval of a non-overlapping series that ends after @t. */
static gsize
series_first_visible (TwStateModel *model,
                      TwSeries      series,
                      guint         id,
                      const guint8 *base,
                      gsize         stride,
                      gsize         n,
                      guint64       t)
{
  gsize i = tw_state_model_lower_bound (model, series, id, t);
  guint64 end;

  if (i == 0 || i > n)
    return MIN (i, n);
  memcpy (&end, base + (i - 1) * stride + sizeof (guint64), sizeof end);
  return end > t ? i - 1 : i;
}

static gboolean
task_is_idle (TwTimelinePainter *self,
              guint32            task)
{
  const TwTask *t = tw_trace_get_task (self->trace, task);

  return t == NULL || (t->flags & TW_TASK_FLAG_IDLE);
}

/* Rows are drawn per pixel column from the model's summaries: each column shows one
 * thing per lane (a task's colour, a state, an irq kind), chosen so that something short
 * never disappears at any zoom. Runs of equal columns become one rectangle and the
 * rectangles of one colour one fill. */
#define KEY_NONE G_MAXUINT32
#define KEY_IDLE TW_TIMELINE_KEY_IDLE

typedef struct {
  guint32 key;
  guint   x0;     /* columns [x0, x1) */
  guint   x1;
} Segment;

static int
compare_segments (gconstpointer a,
                  gconstpointer b)
{
  const Segment *sa = a;
  const Segment *sb = b;

  if (sa->key != sb->key)
    return sa->key < sb->key ? -1 : 1;
  return sa->x0 < sb->x0 ? -1 : sa->x0 > sb->x0;
}

/* The colour and band of the row a key is drawn in. */
static gboolean
layer_style (const Frame     *f,
             TwTimelineLayer  layer,
             guint32          id,
             guint32          key,
             double           y,
             double           h,
             double           rgba[4],
             double          *band_y,
             double          *band_h)
{
  double task_rgb[3] = { 0, 0, 0 };

  /* runs show the key's task, states the row's */
  if (layer == TW_TIMELINE_LAYER_RUNS && key != KEY_IDLE)
    tw_timeline_painter_get_task_color (f->self, key, task_rgb);
  else if (layer == TW_TIMELINE_LAYER_STATES)
    tw_timeline_painter_get_task_color (f->self, id, task_rgb);
  return tw_timeline_band_style (f->colors, layer, key, task_rgb, y, h, rgba, band_y, band_h);
}

static void
direct_begin (DirectTarget *dt,
              cairo_t      *cr)
{
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_matrix_t m;
  double sx, sy, ox, oy;
  cairo_format_t format;

  memset (dt, 0, sizeof *dt);
  if (target != cairo_get_target (cr) || cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE)
    return;
  format = cairo_image_surface_get_format (target);
  cairo_get_matrix (cr, &m);
  cairo_surface_get_device_scale (target, &sx, &sy);
  cairo_surface_get_device_offset (target, &ox, &oy);
  if ((format != CAIRO_FORMAT_ARGB32 && format != CAIRO_FORMAT_RGB24)
      || m.xx != 1 || m.yy != 1 || m.xy != 0 || m.yx != 0 || sx != 1 || sy != 1
      || ox != 0 || oy != 0 || m.x0 != floor (m.x0) || m.y0 != floor (m.y0)
      || fabs (m.x0) > 1e6 || fabs (m.y0) > 1e6)
    return;
  cairo_surface_flush (target);
  if ((dt->data = cairo_image_surface_get_data (target)) == NULL)
    return;
  dt->surface = target;
  dt->stride = cairo_image_surface_get_stride (target);
  dt->opaque = format == CAIRO_FORMAT_RGB24;
  dt->dx = (int) m.x0;
  dt->dy = (int) m.y0;
}

/* After the row's clip is set: can the row be written directly, and where? */
static void
direct_row_begin (DirectTarget *dt,
                  cairo_t      *cr)
{
  cairo_rectangle_list_t *clips;

  dt->row_ok = FALSE;
  if (dt->surface == NULL)
    return;
  clips = cairo_copy_clip_rectangle_list (cr);
  if (clips->status == CAIRO_STATUS_SUCCESS && clips->num_rectangles == 1)
    {
      const cairo_rectangle_t *r = &clips->rectangles[0];

      dt->clip_x0 = MAX ((int) ceil (r->x - 0.5) + dt->dx, 0);
      dt->clip_y0 = MAX ((int) ceil (r->y - 0.5) + dt->dy, 0);
      dt->clip_x1 = MIN ((int) ceil (r->x + r->width - 0.5) + dt->dx,
                         cairo_image_surface_get_width (dt->surface));
      dt->clip_y1 = MIN ((int) ceil (r->y + r->height - 0.5) + dt->dy,
                         cairo_image_surface_get_height (dt->surface));
      dt->row_ok = TRUE;
      cairo_surface_flush (dt->surface);
    }
  cairo_rectangle_list_destroy (clips);
}

static void
direct_row_end (DirectTarget *dt)
{
  if (dt->row_ok && dt->clip_x1 > dt->clip_x0 && dt->clip_y1 > dt->clip_y0)
    cairo_surface_mark_dirty_rectangle (dt->surface, dt->clip_x0, dt->clip_y0,
                                        dt->clip_x1 - dt->clip_x0, dt->clip_y1 - dt->clip_y0);
  dt->row_ok = FALSE;
}

/* Like cairo: a colour channel to 16 bits, then 8; alpha premultiplied. */
static inline guint
channel_8 (double v)
{
  return ((guint) (CLAMP (v, 0.0, 1.0) * 65535.0 + 0.5)) >> 8;
}

/* The pixels whose centres lie in [x0, x1) × [y0, y1) (user space), as cairo fills a
 * rectangle without antialiasing. */
static void
direct_fill (DirectTarget *dt,
             double        x0,
             double        x1,
             double        y0,
             double        y1,
             const double  rgba[4])
{
  int px0 = MAX ((int) ceil (x0 - 0.5) + dt->dx, dt->clip_x0);
  int px1 = MIN ((int) ceil (x1 - 0.5) + dt->dx, dt->clip_x1);
  int py0 = MAX ((int) ceil (y0 - 0.5) + dt->dy, dt->clip_y0);
  int py1 = MIN ((int) ceil (y1 - 0.5) + dt->dy, dt->clip_y1);
  guint a = channel_8 (rgba[3]);
  guint r = channel_8 (rgba[0] * rgba[3]), g = channel_8 (rgba[1] * rgba[3]), b = channel_8 (rgba[2] * rgba[3]);
  guint32 pixel = (a << 24) | (r << 16) | (g << 8) | b;

  if (px0 >= px1 || py0 >= py1)
    return;
  for (int y = py0; y < py1; y++)
    {
      guint32 *row = (guint32 *) (dt->data + (gsize) y * dt->stride);

      if (a == 255)
        for (int x = px0; x < px1; x++)
          row[x] = pixel;
      else
        for (int x = px0; x < px1; x++)
          {
            /* OVER, premultiplied: dst × (1 − a) + src */
            guint32 d = row[x];
            guint inv = 255 - a;
            guint da = dt->opaque ? 255 : d >> 24;
            guint dr = (d >> 16) & 0xff, dg = (d >> 8) & 0xff, db = d & 0xff;

            row[x] = ((a + (da * inv + 127) / 255) << 24)
                     | ((r + (dr * inv + 127) / 255) << 16)
                     | ((g + (dg * inv + 127) / 255) << 8)
                     | (b + (db * inv + 127) / 255);
          }
    }
}

/* Fills the columns of f->keys that are not KEY_NONE, in band [y, y + h) of the row. */
static void
fill_keys (const Frame *f,
           cairo_t     *cr,
           TwTimelineLayer        layer,
           guint32      id,
           double       y,
           double       h)
{
  GArray *segments = f->segments;
  RectBatch b = { cr, { -1 } };

  g_array_set_size (segments, 0);
  for (guint c = 0; c < f->n_columns;)
    {
      guint32 key = f->keys[c];
      guint c1 = c + 1;

      while (c1 < f->n_columns && f->keys[c1] == key)
        c1++;
      if (key != KEY_NONE && f->direct->row_ok)
        {
          double rgba[4], band_y, band_h;

          if (layer_style (f, layer, id, key, y, h, rgba, &band_y, &band_h))
            direct_fill (f->direct, f->plot_x0 + c, f->plot_x0 + c1, band_y, band_y + band_h, rgba);
        }
      else if (key != KEY_NONE)
        {
          Segment seg = { key, c, c1 };
          g_array_append_val (segments, seg);
        }
      c = c1;
    }
  g_array_sort (segments, compare_segments);

  for (guint i = 0; i < segments->len; i++)
    {
      const Segment *seg = &g_array_index (segments, Segment, i);
      double rgba[4], band_y, band_h;

      if (layer_style (f, layer, id, seg->key, y, h, rgba, &band_y, &band_h))
        batch_add (&b, f->plot_x0 + seg->x0, f->plot_x0 + seg->x1, band_y, band_h, rgba);
    }
  batch_flush (&b);
}

static void
summarize (const Frame *f,
           TwSeries     series,
           guint        id)
{
  tw_state_model_summarize (f->self->model, series, id, f->vp->begin_ns, f->ns_per_px,
                            f->n_columns,
                            f->self->exact ? TW_SUMMARIZE_EXACT : TW_SUMMARIZE_DEFAULT,
                            f->summaries);
}

/* A column where a task ran shows the first such task, so a busy CPU never looks idle. */
static void
draw_cpu_runs (const Frame *f,
               cairo_t     *cr,
               guint        cpu,
               double       y,
               double       h)
{
  summarize (f, TW_SERIES_CPU_RUNS, cpu);
  for (guint c = 0; c < f->n_columns; c++)
    {
      const TwSummary *sum = &f->summaries[c];

      f->keys[c] = sum->task != TW_TASK_NONE ? sum->task
                   : (sum->bits & TW_SUMMARY_RUN_IDLE) ? KEY_IDLE : KEY_NONE;
    }
  fill_keys (f, cr, TW_TIMELINE_LAYER_RUNS, cpu, y, h);
}

/* One lane per nesting level (deeper ones share the last); a handler without exit wins
 * its column, then a hard irq, then a softirq. */
static void
draw_cpu_irqs (const Frame *f,
               cairo_t     *cr,
               guint        cpu,
               double       y)
{
  summarize (f, TW_SERIES_CPU_IRQS, cpu);
  for (guint lane = 0; lane < IRQ_MAX_LANES; lane++)
    {
      for (guint c = 0; c < f->n_columns; c++)
        {
          guint32 bits = f->summaries[c].bits;

          f->keys[c] = bits & TW_SUMMARY_IRQ_BIT (lane, TW_SUMMARY_IRQ_UNCLOSED) ? TW_SUMMARY_IRQ_UNCLOSED
                       : bits & TW_SUMMARY_IRQ_BIT (lane, TW_SUMMARY_IRQ_HARD) ? TW_SUMMARY_IRQ_HARD
                       : bits & TW_SUMMARY_IRQ_BIT (lane, TW_SUMMARY_IRQ_SOFT) ? TW_SUMMARY_IRQ_SOFT
                       : KEY_NONE;
        }
      fill_keys (f, cr, TW_TIMELINE_LAYER_IRQS, cpu, y + 1 + lane * IRQ_LANE_HEIGHT, IRQ_LANE_HEIGHT - 1);
    }
}

/* The most active state in the column wins: a task that ran at all shows it. */
static void
draw_task_states (const Frame *f,
                  cairo_t     *cr,
                  guint32      task,
                  double       y,
                  double       h)
{
  summarize (f, TW_SERIES_TASK_STATES, task);
  for (guint c = 0; c < f->n_columns; c++)
    {
      guint32 bits = f->summaries[c].bits;

      f->keys[c] = bits & (1u << TW_TASK_STATE_RUNNING) ? TW_TASK_STATE_RUNNING
                   : bits & (1u << TW_TASK_STATE_READY) ? TW_TASK_STATE_READY
                   : bits & (1u << TW_TASK_STATE_BLOCKED) ? TW_TASK_STATE_BLOCKED
                   : KEY_NONE;
    }
  fill_keys (f, cr, TW_TIMELINE_LAYER_STATES, task, y, h);
}

/* One mark per column: a user or sensor event before a mutex event before a wakeup. */
static void
draw_task_marks (const Frame *f,
                 cairo_t     *cr,
                 guint32      task,
                 double       y)
{
  summarize (f, TW_SERIES_TASK_MARKS, task);
  for (guint c = 0; c < f->n_columns; c++)
    {
      guint32 bits = f->summaries[c].bits;

      f->keys[c] = bits & TW_SUMMARY_MARK_OTHER ? TW_SUMMARY_MARK_OTHER
                   : bits & TW_SUMMARY_MARK_MUTEX ? TW_SUMMARY_MARK_MUTEX
                   : bits & TW_SUMMARY_MARK_WAKEUP ? TW_SUMMARY_MARK_WAKEUP
                   : KEY_NONE;
    }
  fill_keys (f, cr, TW_TIMELINE_LAYER_MARKS, task, y, TW_TIMELINE_MARK_HEIGHT);
}

/* ---------------------------------------------------------------- counter tracks */

static void draw_text (PangoLayout *layout,
                       cairo_t     *cr,
                       const char  *text,
                       double       x,
                       double       y,
                       double       max_width);

static double
counter_scale (const TwCounterTrack *track)
{
  return track->scale_max > 0 ? track->scale_max : 1.0;
}

/* px above the graph's bottom for @value, within [0, graph_h] */
static double
counter_height (const TwCounterTrack *track,
                double                value,
                double                graph_h)
{
  return CLAMP (round (value / counter_scale (track) * graph_h), 0, graph_h);
}

/* Time at the left edge of pixel column @col: a sample at or after it belongs to @col
 * or a later column. */
static guint64
counter_column_start (const Frame *f,
                      double       col)
{
  if (col <= f->plot_x0)
    return f->vp->begin_ns;
  return f->vp->begin_ns + (guint64) ceil ((col - f->plot_x0) * f->ns_per_px);
}

/* An area graph in O(pixel columns): per column, two binary searches find the samples
 * that speak for it and the track's pyramid gives their min and max; the column is
 * filled solid up to the min, lighter up to the max, and a dark line follows the last
 * sample of each column (what a zoomed-in view shows as a step line). */
static void
draw_counter_track (const Frame *f,
                    cairo_t     *cr,
                    guint        track_index,
                    double       y,
                    double       h)
{
  TwCounterTracks *counters = tw_timeline_layout_get_counter_tracks (f->self->layout);
  const TwCounterTrack *track = tw_counter_tracks_get_track (counters, track_index);
  double graph_bottom = y + h - TW_TIMELINE_COUNTER_PAD_BOTTOM;
  double graph_h = h - TW_TIMELINE_COUNTER_PAD_TOP - TW_TIMELINE_COUNTER_PAD_BOTTOM;
  double solid[4], light[4], line[4];
  RectBatch solid_b = { cr, { -1 } }, light_b = { cr, { -1 } }, line_b = { cr, { -1 } };
  double prev_line_y = -1;

  tw_timeline_counter_style (track->kind == TW_COUNTER_MEMORY ? f->colors->memory
                                                              : f->colors->cpu_load,
                             solid, light, line);

  for (double col = f->plot_x0; col < f->plot_x1; col++)
    {
      guint64 t0 = counter_column_start (f, col);
      guint64 t1 = counter_column_start (f, col + 1);
      gsize first, end;
      double min, max, last, h_min, h_max, line_y;

      if (!tw_counter_tracks_get_covering (counters, track_index, t0, MAX (t1, t0 + 1), &first, &end)
          || !tw_counter_tracks_get_extent (counters, track_index, first, end, &min, &max))
        {
          prev_line_y = -1;
          continue;
        }
      tw_counter_tracks_get_sample (counters, track_index, end - 1, NULL, &last, NULL);
      h_min = counter_height (track, min, graph_h);
      h_max = counter_height (track, max, graph_h);
      line_y = MIN (graph_bottom - counter_height (track, last, graph_h), graph_bottom - 1);

      if (h_min > 0)
        batch_add (&solid_b, col, col + 1, graph_bottom - h_min, h_min, solid);
      if (h_max > h_min)
        batch_add (&light_b, col, col + 1, graph_bottom - h_max, h_max - h_min, light);
      if (prev_line_y < 0 || prev_line_y == line_y)
        batch_add (&line_b, col, col + 1, line_y, 1, line);
      else
        batch_add (&line_b, col, col + 1, MIN (prev_line_y, line_y),
                   fabs (prev_line_y - line_y) + 1, line);
      prev_line_y = line_y;
    }
  batch_flush (&solid_b);
  batch_flush (&light_b);
  batch_flush (&line_b);
}

/* The top of the scale, right-aligned in the label column: "100 %", "23.5 GiB". */
static void
draw_counter_scale (const Frame         *f,
                    cairo_t             *cr,
                    PangoLayout         *layout,
                    const TwTimelineRow *row,
                    double               y)
{
  const TwCounterTrack *track = tw_counter_tracks_get_track (tw_timeline_layout_get_counter_tracks (f->self->layout),
                                                             row->id);
  g_autofree char *text = track->kind == TW_COUNTER_CPU_LOAD
                          ? g_strdup_printf ("%g %%", counter_scale (track))
                          : tw_counter_format_value (track, counter_scale (track));
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  tw_timeline_set_source (cr, f->colors->dim_text);
  draw_text (layout, cr, text, TW_TIMELINE_LABEL_WIDTH - 6 - width, y + 2, -1);
}

static void
draw_text (PangoLayout *layout,
           cairo_t     *cr,
           const char  *text,
           double       x,
           double       y,
           double       max_width)
{
  pango_layout_set_text (layout, text, -1);
  pango_layout_set_width (layout, max_width > 0 ? (int) (max_width * PANGO_SCALE) : -1);
  pango_layout_set_ellipsize (layout, max_width > 0 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_row (const Frame         *f,
          cairo_t             *cr,
          PangoLayout         *layout,
          const TwTimelineRow *row,
          guint                index,
          double               y)
{
  TwTimelinePainter *self = f->self;
  g_autofree char *label = tw_timeline_layout_dup_row_label (self->layout, row);
  double label_x = 8 + row->indent * 12;
  double text_y = y + (row->height - 14) / 2.0;

  /* background: sections stand out, other rows alternate faintly */
  tw_timeline_set_source (cr, row->kind == TW_TIMELINE_ROW_SECTION ? f->colors->section
                              : index % 2 ? f->colors->stripe : f->colors->background);
  cairo_rectangle (cr, 0, y, f->vp->width, row->height);
  cairo_fill (cr);

  if (row->kind == TW_TIMELINE_ROW_SECTION || row->kind == TW_TIMELINE_ROW_PROCESS)
    {
      g_autofree char *with_arrow = g_strdup_printf ("%s %s",
                                                     tw_timeline_layout_is_collapsed (self->layout, index) ? "▸" : "▾",
                                                     label);
      g_clear_pointer (&label, g_free);
      label = g_steal_pointer (&with_arrow);
    }

  if (row->kind == TW_TIMELINE_ROW_TASK)
    {
      double rgb[3];

      tw_timeline_painter_get_task_color (self, row->id, rgb);
      cairo_set_source_rgb (cr, rgb[0], rgb[1], rgb[2]);
      cairo_rectangle (cr, label_x, y + row->height / 2.0 - 4, 8, 8);
      cairo_fill (cr);
      label_x += 12;
    }

  tw_timeline_set_source (cr, f->colors->text);
  draw_text (layout, cr, label, label_x, text_y, TW_TIMELINE_LABEL_WIDTH - label_x - 6);
  if (row->kind == TW_TIMELINE_ROW_COUNTER)
    draw_counter_scale (f, cr, layout, row, y);

  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, y, f->plot_x1 - f->plot_x0, row->height);
  cairo_clip (cr);
  direct_row_begin (f->direct, cr);
  switch (row->kind)
    {
    case TW_TIMELINE_ROW_CPU:
      draw_cpu_runs (f, cr, row->id, y + IRQ_MAX_LANES * IRQ_LANE_HEIGHT + 2,
                     row->height - IRQ_MAX_LANES * IRQ_LANE_HEIGHT - 4);
      draw_cpu_irqs (f, cr, row->id, y);
      break;
    case TW_TIMELINE_ROW_TASK:
      draw_task_states (f, cr, row->id, y, row->height);
      draw_task_marks (f, cr, row->id, y);
      break;
    case TW_TIMELINE_ROW_COUNTER:
      draw_counter_track (f, cr, row->id, y, row->height);
      break;
    case TW_TIMELINE_ROW_SECTION:
    case TW_TIMELINE_ROW_PROCESS:
    default:
      break;
    }
  direct_row_end (f->direct);
  if (row->kind == TW_TIMELINE_ROW_CPU)
    tw_timeline_cpu_marks_draw (self->model, cr, layout, f->colors, f->vp, row->id, y, row->height);
  cairo_restore (cr);

  tw_timeline_set_source (cr, f->colors->row_line);
  cairo_rectangle (cr, 0, y + row->height - 1, f->vp->width, 1);
  cairo_fill (cr);
}

/* 1, 2, 5 × 10^k ns: the smallest step that leaves @min_px between ticks. */
static guint64
ruler_step (const Frame *f,
            double       min_px)
{
  double want = f->ns_per_px * min_px;
  guint64 step = 1;

  while ((double) step < want && step < G_GUINT64_CONSTANT (1000000000000000000))
    {
      if ((double) step * 2 >= want)
        return step * 2;
      if ((double) step * 5 >= want)
        return step * 5;
      step *= 10;
    }
  return step;
}

static void
draw_ruler (const Frame *f,
            cairo_t     *cr,
            PangoLayout *layout)
{
  const TwTimelineViewport *vp = f->vp;
  guint64 step = ruler_step (f, 110);
  guint64 minor = step % 5 == 0 && step >= 5 ? step / 5 : step / 2 ? step / 2 : 1;
  guint64 first = (vp->begin_ns / step) * step;
  guint64 base = TW_TIME_NONE;
  double label_end = 0;

  tw_timeline_set_source (cr, f->colors->ruler);
  cairo_rectangle (cr, 0, 0, vp->width, TW_TIMELINE_RULER_HEIGHT);
  cairo_fill (cr);

  tw_timeline_set_source (cr, f->colors->ticks);
  for (guint64 t = (vp->begin_ns / minor) * minor; t < vp->end_ns; t += minor)
    {
      double x = tw_timeline_viewport_time_to_x (vp, t);

      if (x < f->plot_x0)
        continue;
      cairo_rectangle (cr, floor (x), TW_TIMELINE_RULER_HEIGHT - (t % step ? 5 : 11), 1,
                       t % step ? 5 : 11);
    }
  cairo_fill (cr);

  /* The first labelled tick shows absolute time; the others show the offset from it in
   * the unit that fits the zoom ("+250 µs"), which stays readable at every zoom. */
  tw_timeline_set_source (cr, f->colors->text);
  for (guint64 t = first; t < vp->end_ns; t += step)
    {
      double x = tw_timeline_viewport_time_to_x (vp, t);
      g_autofree char *text = NULL;
      int width;

      if (x < f->plot_x0)
        continue;
      if (base == TW_TIME_NONE)
        {
          base = t;
          text = tw_timeline_format_time (t, step);
        }
      else
        {
          g_autofree char *d = tw_timeline_format_duration (t - base);
          text = g_strdup_printf ("+%s", d);
        }
      /* a long absolute first label can reach over the next ticks: skip those labels */
      pango_layout_set_text (layout, text, -1);
      pango_layout_set_width (layout, -1);
      pango_layout_get_pixel_size (layout, &width, NULL);
      if (x + 3 < label_end + 8)
        continue;
      draw_text (layout, cr, text, x + 3, 4, -1);
      label_end = x + 3 + width;
    }

  tw_timeline_set_source (cr, f->colors->ruler_line);
  cairo_rectangle (cr, 0, TW_TIMELINE_RULER_HEIGHT - 1, vp->width, 1);
  cairo_rectangle (cr, TW_TIMELINE_LABEL_WIDTH - 1, 0, 1, vp->height);
  cairo_fill (cr);
}

/* The picked span gets a frame on its row, inside the plot (its ends may be off it). */
static void
draw_selected_span (const Frame *f,
                    cairo_t     *cr)
{
  const TwSpanRef *span = f->vp->selected_span;
  const TwTimelineRow *rows;
  guint n_rows;
  int row;
  double x0, x1, y;

  if (span == NULL)
    return;
  rows = tw_timeline_layout_get_rows (f->self->layout, &n_rows);
  if (span->series == TW_SERIES_TASK_STATES)
    row = tw_timeline_layout_find_task_row (f->self->layout, span->id);
  else
    row = tw_timeline_layout_find_cpu_row (f->self->layout, span->id);
  if (row < 0 || rows[row].kind == TW_TIMELINE_ROW_SECTION || rows[row].kind == TW_TIMELINE_ROW_PROCESS)
    return;

  x0 = MAX (tw_timeline_viewport_time_to_x (f->vp, span->begin), f->plot_x0 - 3);
  x1 = MIN (tw_timeline_viewport_time_to_x (f->vp, span->end), f->plot_x1 + 3);
  y = TW_TIMELINE_RULER_HEIGHT + rows[row].y - f->vp->scroll_y;
  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, TW_TIMELINE_RULER_HEIGHT, f->plot_x1 - f->plot_x0,
                   f->vp->height - TW_TIMELINE_RULER_HEIGHT);
  cairo_clip (cr);
  tw_timeline_set_source (cr, f->colors->selection_text);
  cairo_set_line_width (cr, 2);
  cairo_rectangle (cr, floor (x0) + 1, y + 1, MAX (floor (x1) - floor (x0) - 2, 1), rows[row].height - 3);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* "1.25 ms: 933.512 s → 933.51325 s": the selection's length, then its ends to the
 * precision of one pixel, so they can be typed into Go to time or compared. */
static char *
describe_selection (const Frame *f)
{
  const TwTimelineViewport *vp = f->vp;
  guint64 precision = ruler_step (f, 1);
  g_autofree char *d = tw_timeline_format_duration (vp->selection_end - vp->selection_begin);
  g_autofree char *begin = tw_timeline_format_time (vp->selection_begin, precision);
  g_autofree char *end = tw_timeline_format_time (vp->selection_end, precision);

  return g_strdup_printf ("%s: %s → %s", d, begin, end);
}

static void
draw_overlays (const Frame *f,
               cairo_t     *cr,
               PangoLayout *layout)
{
  const TwTimelineViewport *vp = f->vp;

  cairo_save (cr);
  cairo_rectangle (cr, f->plot_x0, 0, f->plot_x1 - f->plot_x0, vp->height);
  cairo_clip (cr);

  if (vp->selection_end > vp->selection_begin)
    {
      double x0 = tw_timeline_viewport_time_to_x (vp, vp->selection_begin);
      double x1 = tw_timeline_viewport_time_to_x (vp, vp->selection_end);
      g_autofree char *text = describe_selection (f);

      tw_timeline_draw_selection (cr, f->colors, x0, x1, 0, vp->height);
      tw_timeline_set_source (cr, f->colors->selection_text);
      draw_text (layout, cr, text, MAX (x0, f->plot_x0) + 4, 19, -1);
    }

  for (guint i = 0; i < vp->n_markers; i++)
    {
      double x = floor (tw_timeline_viewport_time_to_x (vp, vp->markers[i].time)) + 0.5;

      tw_timeline_draw_marker_line (cr, f->colors, x, TW_TIMELINE_RULER_HEIGHT, vp->height);
      tw_timeline_set_source (cr, f->colors->marker);
      if (vp->markers[i].name)
        draw_text (layout, cr, vp->markers[i].name, x + 3, 19, -1);
    }

  if (vp->cursor_ns != TW_TIME_NONE)
    {
      tw_timeline_draw_cursor_line (cr, f->colors, tw_timeline_viewport_time_to_x (vp, vp->cursor_ns),
                                    0, vp->height);
    }
  cairo_restore (cr);

  if (vp->cursor_ns != TW_TIME_NONE)
    {
      g_autofree char *text = tw_timeline_format_time (vp->cursor_ns, 1);

      tw_timeline_set_source (cr, f->colors->cursor);
      draw_text (layout, cr, text, 8, 10, TW_TIMELINE_LABEL_WIDTH - 12);
    }
}

/**
 * tw_timeline_painter_draw:
 *
 * Draws the ruler, the rows that intersect the viewport, the selection, markers and the
 * cursor, into (0, 0) – (width, height) of @cr.
 */
void
tw_timeline_painter_draw (TwTimelinePainter        *self,
                          cairo_t                  *cr,
                          const TwTimelineViewport *vp)
{
  g_autoptr(PangoLayout) layout = NULL;
  g_autofree TwSummary *summaries = NULL;
  g_autofree guint32 *keys = NULL;
  g_autoptr(GArray) segments = NULL;
  PangoFontDescription *font;
  DirectTarget direct;
  TwTimelineColors colors;
  Frame f = { self, vp, &direct };
  double rows_top = TW_TIMELINE_RULER_HEIGHT;
  const TwTimelineRow *rows;
  guint n_rows;
  int first;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));
  g_return_if_fail (vp->width > 0 && vp->height > 0);

  /* Live: counter samples published since the last frame extend their tracks; a
   * sampler that appeared since the last layout gets its rows now. */
  if (tw_counter_tracks_update (tw_timeline_layout_get_counter_tracks (self->layout)))
    tw_timeline_layout_update (self->layout);
  ensure_task_colors (self);

  f.plot_x0 = TW_TIMELINE_LABEL_WIDTH;
  f.plot_x1 = MAX (vp->width, TW_TIMELINE_LABEL_WIDTH + 1);
  f.ns_per_px = (double) MAX (vp->end_ns - vp->begin_ns, 1) / (f.plot_x1 - f.plot_x0);
  f.n_columns = (guint) (f.plot_x1 - f.plot_x0);
  summaries = g_new (TwSummary, f.n_columns);
  keys = g_new (guint32, f.n_columns);
  segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  f.summaries = summaries;
  f.keys = keys;
  f.segments = segments;
  tw_timeline_colors_init (&colors, vp->palette);
  f.colors = &colors;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, vp->width, vp->height);
  cairo_clip (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  tw_timeline_set_source (cr, colors.background);
  cairo_paint (cr);
  direct_begin (&direct, cr);

  layout = pango_cairo_create_layout (cr);
  font = pango_font_description_from_string ("Sans 9");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);

  cairo_save (cr);
  cairo_rectangle (cr, 0, rows_top, vp->width, vp->height - rows_top);
  cairo_clip (cr);
  rows = tw_timeline_layout_get_rows (self->layout, &n_rows);
  first = tw_timeline_layout_find_row_at (self->layout, vp->scroll_y);
  for (guint i = MAX (first, 0); i < n_rows; i++)
    {
      const TwTimelineRow *row = &rows[i];
      double y = rows_top + row->y - vp->scroll_y;

      if (y >= vp->height)
        break;
      draw_row (&f, cr, layout, row, i, y);
    }
  cairo_restore (cr);

  draw_selected_span (&f, cr);
  draw_ruler (&f, cr, layout);
  draw_overlays (&f, cr, layout);
  cairo_restore (cr);
}

/* ---------------------------------------------------------------- hit testing */

static guint64
nearest_event (TwTimelinePainter *self,
               guint64            time,
               guint16            cpu,
               guint32            task,
               guint64            max_distance)
{
  guint64 n = tw_trace_get_n_events (self->trace);
  guint64 center = tw_trace_find_first_at_or_after (self->trace, time);
  guint64 best = TW_EVENT_NONE;
  guint64 best_dist = max_distance + 1;

  /* Walk out both ways from the time; the row's events are usually close by. */
  for (guint64 step = 0; step < SCAN_LIMIT; step++)
    {
      gboolean any = FALSE;

      for (int side = 0; side < 2; side++)
        {
          guint64 i;
          TwEvent ev;
          guint64 dist;

          if (side == 0 ? center + step >= n : step + 1 > center)
            continue;
          i = side == 0 ? center + step : center - step - 1;
          tw_trace_get_event (self->trace, i, &ev);
          dist = ev.time > time ? ev.time - time : time - ev.time;
          if (dist >= best_dist)
            continue;
          any = TRUE;
          if ((cpu != TW_CPU_NONE && ev.cpu == cpu)
              || (task != TW_TASK_NONE && (ev.task == task || ev.arg == task)))
            {
              best = i;
              best_dist = dist;
            }
        }
      if (!any)
        break;
    }
  return best;
}

static void
describe_span (TwTimelineHit *hit,
               const char    *what,
               guint64        begin,
               guint64        end)
{
  g_autofree char *d = tw_timeline_format_duration (end - begin);
  g_autofree char *from = tw_timeline_format_time (begin, 1);

  hit->span_begin = begin;
  hit->span_end = end;
  hit->description = g_strdup_printf ("%s\n%s from %s", what, d, from);
}

static void
hit_cpu_row (TwTimelinePainter        *self,
             const TwTimelineViewport *vp,
             const TwTimelineRow      *row,
             double                    y_in_row,
             guint64                   slop,
             TwTimelineHit            *hit)
{
  gsize n;
  guint32 task;

  if (tw_timeline_cpu_marks_hit (self->model, row->id, hit->time, slop, &hit->event, &hit->description))
    return;
  if (y_in_row < IRQ_MAX_LANES * IRQ_LANE_HEIGHT + 1)
    {
      const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (self->model, row->id, &n);
      gsize i = tw_state_model_lower_bound (self->model, TW_SERIES_CPU_IRQS, row->id, hit->time + 1);

      /* innermost handler containing the time, widened by the slop for tiny ones */
      while (i > 0)
        {
          const TwIrqInterval *irq = &irqs[--i];

          if (irq->start + slop < hit->time && irq->end + slop < hit->time && irq->depth == 1)
            break;
          if (irq->start <= hit->time + slop && irq->end + slop >= hit->time)
            {
              g_autofree char *what = tw_timeline_describe_irq (self->trace, row->id, irq);
              describe_span (hit, what, irq->start, irq->end);
              hit->span = (TwSpanRef) { TW_SERIES_CPU_IRQS, row->id, i, irq->start, irq->end };
              return;
            }
        }
    }

  task = tw_state_model_get_running_task (self->model, row->id, hit->time);
  if (task != TW_TASK_NONE)
    {
      const TwRunInterval *runs = tw_state_model_get_cpu_runs (self->model, row->id, &n);
      gsize i = series_first_visible (self->model, TW_SERIES_CPU_RUNS, row->id,
                                      (const guint8 *) runs, sizeof *runs, n, hit->time);
      g_autofree char *label = tw_trace_dup_task_label (self->trace, task);
      g_autofree char *what = g_strdup_printf ("%s on CPU %u%s", label, row->id,
                                               task_is_idle (self, task) ? " (idle)" : "");

      if (i < n)
        {
          describe_span (hit, what, runs[i].start, runs[i].end);
          hit->span = (TwSpanRef) { TW_SERIES_CPU_RUNS, row->id, i, runs[i].start, runs[i].end };
        }
    }
  hit->event = nearest_event (self, hit->time, row->id, TW_TASK_NONE, slop);
}

static void
hit_task_row (TwTimelinePainter   *self,
              const TwTimelineRow *row,
              guint64              slop,
              TwTimelineHit       *hit)
{
  gsize n;
  const TwTaskMark *marks = tw_state_model_get_task_marks (self->model, row->id, &n);
  gsize i = tw_state_model_lower_bound (self->model, TW_SERIES_TASK_MARKS, row->id,
                                        hit->time > slop ? hit->time - slop : 0);
  const TwTaskInterval *states;

  if (i < n && marks[i].time <= hit->time + slop)
    {
      /* the mark nearest the pointer: dense sensors put several within the slop */
      gsize best = i;
      guint64 best_dist = G_MAXUINT64;

      for (gsize k = i; k < n && k < i + 256 && marks[k].time <= hit->time + slop; k++)
        {
          guint64 dist = marks[k].time > hit->time ? marks[k].time - hit->time
                                                   : hit->time - marks[k].time;
          if (dist < best_dist)
            {
              best = k;
              best_dist = dist;
            }
        }
      hit->event = marks[best].index;
      hit->description = tw_timeline_describe_event (self->trace, marks[best].index);
      return;
    }

  states = tw_state_model_get_task_states (self->model, row->id, &n);
  i = series_first_visible (self->model, TW_SERIES_TASK_STATES, row->id,
                            (const guint8 *) states, sizeof *states, n, hit->time);
  if (i < n && states[i].start <= hit->time)
    {
      g_autofree char *label = tw_trace_dup_task_label (self->trace, row->id);
      g_autofree char *what = NULL;

      if (states[i].state == TW_TASK_STATE_RUNNING)
        what = g_strdup_printf ("%s running on CPU %u", label, states[i].cpu);
      else
        what = g_strdup_printf ("%s %s", label, tw_task_state_to_string (states[i].state));
      describe_span (hit, what, states[i].start, states[i].end);
      hit->span = (TwSpanRef) { TW_SERIES_TASK_STATES, row->id, i, states[i].start, states[i].end };
    }
  hit->event = nearest_event (self, hit->time, TW_CPU_NONE, row->id, slop);
}

static void
hit_counter_row (TwTimelinePainter   *self,
                 const TwTimelineRow *row,
                 TwTimelineHit       *hit)
{
  TwCounterTracks *counters = tw_timeline_layout_get_counter_tracks (self->layout);
  const TwCounterTrack *track = tw_counter_tracks_get_track (counters, row->id);
  g_autofree char *label = tw_counter_tracks_dup_label (counters, row->id);
  g_autofree char *value_text = NULL;
  g_autofree char *when = NULL;
  guint64 time, begin, end;
  double value;
  gsize sample;

  if (!tw_counter_tracks_get_value_at (counters, row->id, hit->time, &sample))
    return;
  tw_counter_tracks_get_sample (counters, row->id, sample, &time, &value, &hit->event);
  tw_counter_tracks_get_span (counters, row->id, sample, &begin, &end);
  value_text = tw_counter_format_value (track, value);
  when = tw_timeline_format_time (time, 1);
  hit->span_begin = begin;
  hit->span_end = end;
  if (track->kind == TW_COUNTER_MEMORY)
    {
      g_autofree char *total = tw_counter_format_value (track, track->scale_max);

      hit->description = g_strdup_printf ("%s: %s of %s\nsampled at %s", label, value_text,
                                          total, when);
    }
  else
    {
      g_autofree char *d = tw_timeline_format_duration (end - begin);

      hit->description = g_strdup_printf ("%s: %s\nover %s up to %s", label, value_text,
                                          d, when);
    }
}

/**
 * tw_timeline_painter_hit_test:
 * @hit: (out): what lies at (@x, @y); free its description with tw_timeline_hit_clear()
 */
void
tw_timeline_painter_hit_test (TwTimelinePainter        *self,
                              const TwTimelineViewport *vp,
                              double                    x,
                              double                    y,
                              TwTimelineHit            *hit)
{
  const TwTimelineRow *row;
  guint n_rows;
  guint64 slop;

  g_return_if_fail (TW_IS_TIMELINE_PAINTER (self));

  hit->row = -1;
  hit->time = tw_timeline_viewport_x_to_time (vp, MAX (x, TW_TIMELINE_LABEL_WIDTH));
  hit->span_begin = hit->span_end = 0;
  memset (&hit->span, 0, sizeof hit->span);
  hit->event = TW_EVENT_NONE;
  hit->description = NULL;

  if (y < TW_TIMELINE_RULER_HEIGHT)
    return;
  hit->row = tw_timeline_layout_find_row_at (self->layout, y - TW_TIMELINE_RULER_HEIGHT + vp->scroll_y);
  if (hit->row < 0 || x < TW_TIMELINE_LABEL_WIDTH)
    return;

  row = &tw_timeline_layout_get_rows (self->layout, &n_rows)[hit->row];
  slop = (guint64) (HIT_SLOP_PX * (double) (vp->end_ns - vp->begin_ns)
                    / MAX (1, vp->width - TW_TIMELINE_LABEL_WIDTH));

  if (row->kind == TW_TIMELINE_ROW_CPU)
    hit_cpu_row (self, vp, row,
                 y - TW_TIMELINE_RULER_HEIGHT + vp->scroll_y - row->y, slop, hit);
  else if (row->kind == TW_TIMELINE_ROW_TASK)
    hit_task_row (self, row, slop, hit);
  else if (row->kind == TW_TIMELINE_ROW_COUNTER)
    hit_counter_row (self, row, hit);
}
