/* tw-timeline-style.c: how the timeline looks: colours, bands and overlay marks
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-style.h"

/*
 * The painter and the legend both take every colour and band from here, so a legend can
 * never describe something the timeline does not draw.
 *
 * Greys (stripes, grid, idle, blocked) are shares of the theme's text colour over its
 * background; marks and irqs have a lighter variant for dark backgrounds, where the
 * deep colours of the light style vanish. Task colours do not depend on the theme: a
 * task has one colour in the window, in exports and on the command line.
 */

/* Relative luminance bounds of task colours: ≥ 2:1 contrast against white and against
 * Adwaita's dark view (#1e1e1e), so no task disappears into either background. */
#define TASK_LUMINANCE_MIN 0.10
#define TASK_LUMINANCE_MAX 0.45

typedef struct {
  double light[4];
  double dark[4];
} Pair;

static const Pair hardirq        = { { 0.88, 0.11, 0.14, 1 }, { 0.96, 0.33, 0.33, 1 } };
static const Pair softirq        = { { 1.0, 0.47, 0.0, 1 },   { 1.0, 0.62, 0.22, 1 } };
static const Pair unclosed_irq   = { { 0.55, 0.0, 0.05, 1 },  { 1.0, 0.72, 0.76, 1 } };
static const Pair wakeup         = { { 0.15, 0.6, 0.25, 1 },  { 0.38, 0.82, 0.47, 1 } };
static const Pair mutex          = { { 0.55, 0.35, 0.1, 1 },  { 0.87, 0.64, 0.33, 1 } };
static const Pair user_mark      = { { 0.38, 0.21, 0.51, 1 }, { 0.76, 0.58, 0.96, 1 } };
static const Pair marker         = { { 0.1, 0.45, 0.3, 1 },   { 0.42, 0.82, 0.62, 1 } };
static const Pair cursor         = { { 0.75, 0.11, 0.16, 1 }, { 1.0, 0.42, 0.42, 1 } };
static const Pair selection      = { { 0.21, 0.52, 0.89, 0.18 }, { 0.35, 0.6, 0.95, 0.28 } };
static const Pair selection_text = { { 0.1, 0.3, 0.6, 1 },    { 0.6, 0.78, 1.0, 1 } };
static const Pair cpu_load       = { { 0.16, 0.42, 0.78, 1 }, { 0.4, 0.6, 0.95, 1 } };
static const Pair memory         = { { 0.16, 0.55, 0.33, 1 }, { 0.36, 0.76, 0.5, 1 } };
static const Pair lost           = { { 0.78, 0.0, 0.5, 1 },   { 1.0, 0.45, 0.8, 1 } };
static const Pair culprit        = { { 0.9, 0.62, 0.0, 1 },   { 1.0, 0.8, 0.3, 1 } };
static const Pair repair         = { { 0.0, 0.45, 0.62, 1 },  { 0.3, 0.8, 0.95, 1 } };

static void
pick (const TwPalette *palette,
      const Pair      *pair,
      double           rgba[4])
{
  memcpy (rgba, palette->dark ? pair->dark : pair->light, sizeof (double) * 4);
}

static void
grey (const TwPalette *palette,
      double           amount,
      double           rgba[4])
{
  tw_palette_mix (palette, amount, rgba);
  rgba[3] = 1;
}

/**
 * tw_timeline_colors_init:
 * @palette: (nullable): the theme's colours; %NULL for the light style of exports
 */
void
tw_timeline_colors_init (TwTimelineColors *self,
                         const TwPalette  *palette)
{
  palette = tw_palette_or_light (palette);

  grey (palette, 0, self->background);
  grey (palette, palette->dark ? 0.045 : 0.029, self->stripe);
  grey (palette, 0.15, self->section);
  /* a machine holds sections' worth of rows: its header stands out more */
  grey (palette, palette->dark ? 0.3 : 0.25, self->host);
  grey (palette, 0.17, self->row_line);
  grey (palette, palette->dark ? 0.07 : 0.047, self->ruler);
  grey (palette, 0.52, self->ticks);
  grey (palette, 0.29, self->ruler_line);
  grey (palette, 1, self->text);
  grey (palette, 0.64, self->dim_text);
  grey (palette, palette->dark ? 0.4 : 0.29, self->idle);
  grey (palette, palette->dark ? 0.55 : 0.465, self->blocked);
  pick (palette, &hardirq, self->hardirq);
  pick (palette, &softirq, self->softirq);
  pick (palette, &unclosed_irq, self->unclosed_irq);
  pick (palette, &wakeup, self->wakeup);
  pick (palette, &mutex, self->mutex);
  pick (palette, &user_mark, self->user_mark);
  pick (palette, &marker, self->marker);
  pick (palette, &cursor, self->cursor);
  pick (palette, &selection, self->selection);
  pick (palette, &selection_text, self->selection_text);
  pick (palette, &cpu_load, self->cpu_load);
  pick (palette, &memory, self->memory);
  pick (palette, &lost, self->lost);
  pick (palette, &repair, self->repair);
  pick (palette, &culprit, self->culprit);
  memcpy (self->path, palette->accent, sizeof palette->accent);
  self->path[3] = 1;
}

/* ---------------------------------------------------------------- task colours */

static void
hsv_to_rgb (double h,
            double s,
            double v,
            double rgb[3])
{
  double c = v * s;
  double hp = fmod (h, 360.0) / 60.0;
  double x = c * (1 - fabs (fmod (hp, 2.0) - 1));
  double m = v - c;
  double r = 0, g = 0, b = 0;

  if (hp < 1)      { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else             { r = c; b = x; }

  rgb[0] = r + m;
  rgb[1] = g + m;
  rgb[2] = b + m;
}

static double
linear_channel (double v)
{
  return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
}

/* WCAG relative luminance */
static double
luminance (const double rgb[3])
{
  return 0.2126 * linear_channel (rgb[0]) + 0.7152 * linear_channel (rgb[1])
         + 0.0722 * linear_channel (rgb[2]);
}

/**
 * tw_timeline_task_color:
 * @rgb: (out caller-allocates) (array fixed-size=3): the task's colour
 *
 * A hue, saturation and value from a hash of the task's id and name, so a task has the
 * same colour in every session, window and export. Yellows too pale for white and blues
 * too deep for a dark background get their value moved until the colour's luminance is
 * in bounds that keep it visible on both.
 */
void
tw_timeline_task_color (const TwTask *task,
                        double        rgb[3])
{
  guint hash = g_str_hash (task->source_id) * 31 + (task->name ? g_str_hash (task->name) : 0);
  double hue = (hash % 3600) / 10.0;
  double sat = 0.45 + ((hash >> 12) % 30) / 100.0;
  double val = 0.72 + ((hash >> 20) % 20) / 100.0;
  double lo = 0.2, hi = 1.0;
  double l;

  hsv_to_rgb (hue, sat, val, rgb);
  l = luminance (rgb);
  if (l >= TASK_LUMINANCE_MIN && l <= TASK_LUMINANCE_MAX)
    return;
  /* luminance grows with the value: bisect towards the nearer bound */
  for (int i = 0; i < 20; i++)
    {
      val = (lo + hi) / 2;
      hsv_to_rgb (hue, sat, val, rgb);
      l = luminance (rgb);
      if (l > TASK_LUMINANCE_MAX)
        hi = val;
      else if (l < TASK_LUMINANCE_MIN)
        lo = val;
      else
        return;
    }
}

/* ---------------------------------------------------------------- bands */

/**
 * tw_timeline_band_style:
 * @task_rgb: the colour of the row's task (states) or the key's task (runs)
 * @y: top of the row's band for the layer
 * @h: its height
 * @rgba: (out caller-allocates): the colour to fill with
 * @band_y: (out): the top of the rectangle to fill
 * @band_h: (out): its height
 *
 * The colour and rectangle that show @key of @layer: a running task fills its band, a
 * ready one a faint middle strip, a blocked one a hairline, idle a thin line.
 *
 * Returns: %FALSE when @key is not drawn
 */
gboolean
tw_timeline_band_style (const TwTimelineColors *colors,
                        TwTimelineLayer         layer,
                        guint32                 key,
                        const double            task_rgb[3],
                        double                  y,
                        double                  h,
                        double                  rgba[4],
                        double                 *band_y,
                        double                 *band_h)
{
  const double *fixed = NULL;

  *band_y = y;
  *band_h = h;
  switch (layer)
    {
    case TW_TIMELINE_LAYER_RUNS:
      if (key == TW_TIMELINE_KEY_IDLE)
        {
          fixed = colors->idle;
          *band_y = y + h / 2 - 1;
          *band_h = 2;
        }
      else
        {
          memcpy (rgba, task_rgb, sizeof (double) * 3);
          rgba[3] = 1.0;
        }
      break;

    case TW_TIMELINE_LAYER_IRQS:
      fixed = key == TW_SUMMARY_IRQ_UNCLOSED ? colors->unclosed_irq
              : key == TW_SUMMARY_IRQ_HARD ? colors->hardirq : colors->softirq;
      break;

    case TW_TIMELINE_LAYER_STATES:
      switch (key)
        {
        case TW_TASK_STATE_RUNNING:
          memcpy (rgba, task_rgb, sizeof (double) * 3);
          rgba[3] = 1.0;
          *band_y = y + 2;
          *band_h = h - 4;
          break;
        case TW_TASK_STATE_READY:
          memcpy (rgba, task_rgb, sizeof (double) * 3);
          rgba[3] = 0.35;
          *band_y = y + h / 2 - 3;
          *band_h = 6;
          break;
        case TW_TASK_STATE_BLOCKED:
          fixed = colors->blocked;
          *band_y = y + h / 2;
          *band_h = 1;
          break;
        default:
          return FALSE;
        }
      break;

    case TW_TIMELINE_LAYER_MARKS:
    default:
      fixed = key == TW_SUMMARY_MARK_WAKEUP ? colors->wakeup
              : key == TW_SUMMARY_MARK_MUTEX ? colors->mutex : colors->user_mark;
      break;
    }
  if (fixed)
    memcpy (rgba, fixed, sizeof (double) * 4);
  return TRUE;
}

/**
 * tw_timeline_counter_style:
 * @base: the track's colour (cpu_load or memory)
 *
 * A counter track's area graph: @solid up to a column's lowest sample, @light up to its
 * highest, a darker @line through its last.
 */
void
tw_timeline_counter_style (const double base[4],
                           double       solid[4],
                           double       light[4],
                           double       line[4])
{
  memcpy (solid, base, sizeof (double) * 3);
  solid[3] = 0.55;
  memcpy (light, base, sizeof (double) * 3);
  light[3] = 0.22;
  for (int i = 0; i < 3; i++)
    line[i] = base[i] * 0.6;
  line[3] = 1.0;
}

/* ---------------------------------------------------------------- overlays */

void
tw_timeline_set_source (cairo_t      *cr,
                        const double  rgba[4])
{
  cairo_set_source_rgba (cr, rgba[0], rgba[1], rgba[2], rgba[3]);
}

/* The cursor: a solid line one pixel wide. */
void
tw_timeline_draw_cursor_line (cairo_t                *cr,
                              const TwTimelineColors *colors,
                              double                  x,
                              double                  y0,
                              double                  y1)
{
  tw_timeline_set_source (cr, colors->cursor);
  cairo_rectangle (cr, floor (x), y0, 1, y1 - y0);
  cairo_fill (cr);
}

/* A marker: a dashed line, so it never reads as the cursor. */
void
tw_timeline_draw_marker_line (cairo_t                *cr,
                              const TwTimelineColors *colors,
                              double                  x,
                              double                  y0,
                              double                  y1)
{
  const double dash[] = { 4, 3 };

  x = floor (x) + 0.5;
  cairo_save (cr);
  tw_timeline_set_source (cr, colors->marker);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, 2, 0);
  cairo_move_to (cr, x, y0);
  cairo_line_to (cr, x, y1);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/**
 * tw_timeline_draw_cpu_mark:
 * @bit: TW_SUMMARY_CPU_MARK_LOST or TW_SUMMARY_CPU_MARK_REPAIR
 * @x: the left edge of the mark's pixel column
 * @y: the top of the CPU row
 * @h: its height
 *
 * A loss is a bar through the whole row, like the gap it stands for; a repair is a block
 * at the row's foot, framed in the background so no task colour swallows it, and wider
 * than a loss's bar, which often falls on the same switch.
 */
void
tw_timeline_draw_cpu_mark (cairo_t                *cr,
                           const TwTimelineColors *colors,
                           guint32                 bit,
                           double                  x,
                           double                  y,
                           double                  h)
{
  x = floor (x);
  if (bit == TW_SUMMARY_CPU_MARK_LOST)
    {
      tw_timeline_set_source (cr, colors->lost);
      cairo_rectangle (cr, x, y, 2, h - 1);
      cairo_fill (cr);
      return;
    }
  tw_timeline_set_source (cr, colors->background);
  cairo_rectangle (cr, x - 4, y + h - 10, 10, 9);
  cairo_fill (cr);
  tw_timeline_set_source (cr, colors->repair);
  cairo_rectangle (cr, x - 3, y + h - 9, 8, 7);
  cairo_fill (cr);
}

/* The selection: a translucent band over everything it spans. */
void
tw_timeline_draw_selection (cairo_t                *cr,
                            const TwTimelineColors *colors,
                            double                  x0,
                            double                  x1,
                            double                  y0,
                            double                  y1)
{
  tw_timeline_set_source (cr, colors->selection);
  cairo_rectangle (cr, x0, y0, MAX (x1 - x0, 1), y1 - y0);
  cairo_fill (cr);
}
