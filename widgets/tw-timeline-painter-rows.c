/* tw-timeline-painter-rows.c: a row's plot from the model's per-column summaries
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-painter-private.h"

static void
batch_flush_rect (TwRectBatch *b)
{
  if (!b->pending)
    return;
  cairo_rectangle (b->cr, b->x0, b->y, MAX (b->x1 - b->x0, 1.0), b->h);
  b->pending = FALSE;
  b->in_path = TRUE;
}

void
_tw_rect_batch_flush (TwRectBatch *b)
{
  batch_flush_rect (b);
  if (!b->in_path)
    return;
  cairo_set_source_rgba (b->cr, b->rgba[0], b->rgba[1], b->rgba[2], b->rgba[3]);
  cairo_fill (b->cr);
  b->in_path = FALSE;
}

void
_tw_rect_batch_add (TwRectBatch  *b,
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
      _tw_rect_batch_flush (b);
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


/* Rows are drawn per pixel column from the model's summaries: each column shows one
 * thing per lane (a task's colour, a state, an irq kind), chosen so that something short
 * never disappears at any zoom. Runs of equal columns become one rectangle and the
 * rectangles of one colour one fill. */
#define KEY_NONE G_MAXUINT32
#define KEY_IDLE TW_TIMELINE_KEY_IDLE

static int
compare_segments (gconstpointer a,
                  gconstpointer b)
{
  const TwPaintSegment *sa = a;
  const TwPaintSegment *sb = b;

  if (sa->key != sb->key)
    return sa->key < sb->key ? -1 : 1;
  return sa->x0 < sb->x0 ? -1 : sa->x0 > sb->x0;
}

/* The colour and band of the row a key is drawn in. */
static gboolean
layer_style (const TwPaintFrame *f,
             TwTimelineLayer     layer,
             guint32             id,
             guint32             key,
             double              y,
             double              h,
             double              rgba[4],
             double             *band_y,
             double             *band_h)
{
  double task_rgb[3] = { 0, 0, 0 };

  /* runs show the key's task, states the row's */
  if (layer == TW_TIMELINE_LAYER_RUNS && key != KEY_IDLE)
    tw_timeline_painter_get_task_color (f->self, key, task_rgb);
  else if (layer == TW_TIMELINE_LAYER_STATES)
    tw_timeline_painter_get_task_color (f->self, id, task_rgb);
  return tw_timeline_band_style (f->colors, layer, key, task_rgb, y, h, rgba, band_y, band_h);
}

void
_tw_direct_target_begin (TwDirectTarget *dt,
                         cairo_t        *cr)
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
void
_tw_direct_target_row_begin (TwDirectTarget *dt,
                             cairo_t        *cr)
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

void
_tw_direct_target_row_end (TwDirectTarget *dt)
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

/* Narrower runs are stored pixel by pixel: a call per line would cost more. */
#define DIRECT_COPY_MIN 16

/* OVER, premultiplied: dst × (1 − a) + src */
static inline guint32
blend_over (guint32  d,
            guint    a,
            guint    r,
            guint    g,
            guint    b,
            gboolean opaque)
{
  guint inv = 255 - a;
  guint da = opaque ? 255 : d >> 24;
  guint dr = (d >> 16) & 0xff, dg = (d >> 8) & 0xff, db = d & 0xff;

  return ((a + (da * inv + 127) / 255) << 24)
         | ((r + (dr * inv + 127) / 255) << 16)
         | ((g + (dg * inv + 127) / 255) << 8)
         | (b + (db * inv + 127) / 255);
}

/* What direct_fill() writes for one colour in one band: the premultiplied colour and
 * the pixel lines whose centres lie in [y0, y1) (user space), as cairo fills a rectangle
 * without antialiasing. */
typedef struct {
  guint32 pixel;
  guint   a, r, g, b;
  int     py0, py1;
} TwDirectPen;

static void
direct_pen (const TwDirectTarget *dt,
            double                y0,
            double                y1,
            const double          rgba[4],
            TwDirectPen          *pen)
{
  pen->py0 = MAX ((int) ceil (y0 - 0.5) + dt->dy, dt->clip_y0);
  pen->py1 = MIN ((int) ceil (y1 - 0.5) + dt->dy, dt->clip_y1);
  pen->a = channel_8 (rgba[3]);
  pen->r = channel_8 (rgba[0] * rgba[3]);
  pen->g = channel_8 (rgba[1] * rgba[3]);
  pen->b = channel_8 (rgba[2] * rgba[3]);
  pen->pixel = (pen->a << 24) | (pen->r << 16) | (pen->g << 8) | pen->b;
}

/* The pixels of @pen's lines whose centres lie in [x0, x1) (user space). */
static void
direct_fill (TwDirectTarget    *dt,
             double             x0,
             double             x1,
             const TwDirectPen *pen)
{
  int px0 = MAX ((int) ceil (x0 - 0.5) + dt->dx, dt->clip_x0);
  int px1 = MIN ((int) ceil (x1 - 0.5) + dt->dx, dt->clip_x1);
  guint32 under = 0, over = 0;
  gboolean blended = FALSE;

  if (px0 >= px1 || pen->py0 >= pen->py1)
    return;
  if (pen->a == 255)
    {
      guint32 *first = (guint32 *) (dt->data + (gsize) pen->py0 * dt->stride);

      /* Wide runs: the lines below are copies of the first, which memcpy() stores many
       * pixels at a time where a loop stores one (a zoomed-in frame's running tasks
       * are most of its pixels). */
      for (int x = px0; x < px1; x++)
        first[x] = pen->pixel;
      for (int y = pen->py0 + 1; y < pen->py1; y++)
        {
          guint32 *row = (guint32 *) (dt->data + (gsize) y * dt->stride);

          if (px1 - px0 >= DIRECT_COPY_MIN)
            memcpy (row + px0, first + px0, (gsize) (px1 - px0) * sizeof *row);
          else
            for (int x = px0; x < px1; x++)
              row[x] = pen->pixel;
        }
      return;
    }
  for (int y = pen->py0; y < pen->py1; y++)
    {
      guint32 *row = (guint32 *) (dt->data + (gsize) y * dt->stride);

      for (int x = px0; x < px1; x++)
        {
          /* translucent bands mostly lie on a row's plain background: blend each
           * background pixel value once */
          if (!blended || row[x] != under)
            {
              under = row[x];
              over = blend_over (under, pen->a, pen->r, pen->g, pen->b, dt->opaque);
              blended = TRUE;
            }
          row[x] = over;
        }
    }
}

/* Pens of the keys met in one band, so that a wide view's runs of a column or two do
 * not each work out their colour again (that was a tenth of such a frame): keys map
 * to a slot by their low bits, and a key that finds its slot taken recomputes. */
#define DIRECT_PENS 16

typedef struct {
  guint32     keys[DIRECT_PENS];   /* KEY_NONE: empty */
  gboolean    drawn[DIRECT_PENS];
  TwDirectPen pens[DIRECT_PENS];
} DirectPens;

static const TwDirectPen *
key_pen (const TwPaintFrame *f,
         DirectPens         *pens,
         TwTimelineLayer     layer,
         guint32             id,
         guint32             key,
         double              y,
         double              h)
{
  guint slot = key % DIRECT_PENS;
  double rgba[4], band_y, band_h;

  if (pens->keys[slot] != key)
    {
      pens->keys[slot] = key;
      pens->drawn[slot] = layer_style (f, layer, id, key, y, h, rgba, &band_y, &band_h);
      if (pens->drawn[slot])
        direct_pen (f->direct, band_y, band_y + band_h, rgba, &pens->pens[slot]);
    }
  return pens->drawn[slot] ? &pens->pens[slot] : NULL;
}

/* Fills the columns of f->keys that are not KEY_NONE, in band [y, y + h) of the row. */
static void
fill_keys (const TwPaintFrame *f,
           cairo_t            *cr,
           TwTimelineLayer     layer,
           guint32             id,
           double              y,
           double              h)
{
  GArray *segments = f->segments;
  TwRectBatch b = { cr, { -1 } };
  DirectPens pens;

  memset (pens.keys, 0xff, sizeof pens.keys);
  g_array_set_size (segments, 0);
  for (guint c = 0; c < f->n_columns;)
    {
      guint32 key = f->keys[c];
      guint c1 = c + 1;

      while (c1 < f->n_columns && f->keys[c1] == key)
        c1++;
      if (key != KEY_NONE && f->direct->row_ok)
        {
          const TwDirectPen *pen = key_pen (f, &pens, layer, id, key, y, h);

          if (pen != NULL)
            direct_fill (f->direct, f->plot_x0 + c, f->plot_x0 + c1, pen);
        }
      else if (key != KEY_NONE)
        {
          TwPaintSegment seg = { key, c, c1 };
          g_array_append_val (segments, seg);
        }
      c = c1;
    }
  g_array_sort (segments, compare_segments);

  for (guint i = 0; i < segments->len; i++)
    {
      const TwPaintSegment *seg = &g_array_index (segments, TwPaintSegment, i);
      double rgba[4], band_y, band_h;

      if (layer_style (f, layer, id, seg->key, y, h, rgba, &band_y, &band_h))
        _tw_rect_batch_add (&b, f->plot_x0 + seg->x0, f->plot_x0 + seg->x1, band_y, band_h, rgba);
    }
  _tw_rect_batch_flush (&b);
}

static void
summarize (const TwPaintFrame *f,
           TwSeries            series,
           guint               id)
{
  tw_state_model_summarize (f->self->model, series, id, f->vp->begin_ns, f->ns_per_px,
                            f->n_columns,
                            f->self->exact ? TW_SUMMARIZE_EXACT : TW_SUMMARIZE_DEFAULT,
                            f->summaries);
}

/* A column where a task ran shows the first such task, so a busy CPU never looks idle. */
void
_tw_timeline_painter_draw_cpu_runs (const TwPaintFrame *f,
                                    cairo_t            *cr,
                                    guint               cpu,
                                    double              y,
                                    double              h)
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
void
_tw_timeline_painter_draw_cpu_irqs (const TwPaintFrame *f,
                                    cairo_t            *cr,
                                    guint               cpu,
                                    double              y)
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
void
_tw_timeline_painter_draw_task_states (const TwPaintFrame *f,
                                       cairo_t            *cr,
                                       guint32             task,
                                       double              y,
                                       double              h)
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
void
_tw_timeline_painter_draw_task_marks (const TwPaintFrame *f,
                                      cairo_t            *cr,
                                      guint32             task,
                                      double              y)
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
