/* tw-timeline-legend.c: what every colour and mark of the timeline means
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "tw-timeline-highlight-style.h"
#include "tw-timeline-legend.h"

/*
 * Every swatch is a piece of a row drawn with the painter's own band styles and overlay
 * functions (tw-timeline-style.c), so the legend cannot drift from the timeline. The
 * same items make the window's popover and the strip under exported images.
 */

#define STRIP_MARGIN   10
#define STRIP_CELL_W   230
#define STRIP_ROW_H    (TW_LEGEND_SWATCH_HEIGHT + 6)
#define STRIP_FONT     "Sans 8"

typedef struct {
  TwLegendSection section;
  const char     *title;
  const char     *description;
} ItemText;

static const ItemText items[TW_N_LEGEND_ITEMS] = {
  [TW_LEGEND_TASK_ON_CPU]  = { TW_LEGEND_SECTION_CPUS, N_("Task on the CPU"),
                               N_("Each task has its own colour, from its name and id: the same in every session and export. The square before a task row's label shows it.") },
  [TW_LEGEND_IDLE]         = { TW_LEGEND_SECTION_CPUS, N_("Idle CPU"),
                               N_("No task runs on the CPU (its idle task does).") },
  [TW_LEGEND_HARDIRQ]      = { TW_LEGEND_SECTION_CPUS, N_("Hard irq"),
                               N_("A handler runs. Irqs take lanes at the top of a CPU row, one per nesting level; the tooltip names the handler.") },
  [TW_LEGEND_SOFTIRQ]      = { TW_LEGEND_SECTION_CPUS, N_("Softirq"),
                               N_("A softirq (bottom half) runs, in the same lanes.") },
  [TW_LEGEND_UNCLOSED_IRQ] = { TW_LEGEND_SECTION_CPUS, N_("Irq without exit"),
                               N_("The trace has no exit for the handler: it ended, or lost events, inside it.") },
  [TW_LEGEND_LOST]         = { TW_LEGEND_SECTION_CPUS, N_("Lost events"),
                               N_("The tracer dropped events on the CPU (its buffer overran, or CTF discarded events or packets): a bar where the loss became known, with the count beside it. What ran in the gap is not in the trace; measurements across it are flagged.") },
  [TW_LEGEND_REPAIR]       = { TW_LEGEND_SECTION_CPUS, N_("Repaired switch"),
                               N_("A switch contradicted the task running (its switch-out was lost, or it was switched in on another CPU): that task's run ends there and its state is unknown until the trace says. The tooltip names both tasks.") },
  [TW_LEGEND_RUNNING]      = { TW_LEGEND_SECTION_TASKS, N_("Task running"),
                               N_("The task runs on a CPU: the full row in its colour.") },
  [TW_LEGEND_READY]        = { TW_LEGEND_SECTION_TASKS, N_("Task ready"),
                               N_("Runnable, waiting for a CPU (preempted or woken): a faint band.") },
  [TW_LEGEND_BLOCKED]      = { TW_LEGEND_SECTION_TASKS, N_("Task blocked"),
                               N_("Sleeping or waiting: a hairline. No line: the trace says nothing.") },
  [TW_LEGEND_USER_MARK]    = { TW_LEGEND_SECTION_MARKS, N_("User or sensor event"),
                               N_("An event the task logged. Marks sit at the top of the row; where several meet in one pixel, this one wins.") },
  [TW_LEGEND_MUTEX_MARK]   = { TW_LEGEND_SECTION_MARKS, N_("Mutex event"),
                               N_("The task locked, unlocked or waited for a mutex.") },
  [TW_LEGEND_WAKEUP]       = { TW_LEGEND_SECTION_MARKS, N_("Wakeup"),
                               N_("The task was woken up (drawn on the woken task).") },
  [TW_LEGEND_CURSOR]       = { TW_LEGEND_SECTION_OVERLAYS, N_("Cursor"),
                               N_("Click to place it; its time is written at the top left.") },
  [TW_LEGEND_SELECTION]    = { TW_LEGEND_SECTION_OVERLAYS, N_("Selection"),
                               N_("Drag on the ruler, or Shift+drag, to select a range; its duration is written at its top.") },
  [TW_LEGEND_MARKER]       = { TW_LEGEND_SECTION_OVERLAYS, N_("Marker"),
                               N_("M drops one at the cursor; it keeps its name.") },
  [TW_LEGEND_CPU_LOAD]     = { TW_LEGEND_SECTION_COUNTERS, N_("CPU load"),
                               N_("Sampled load: solid up to a pixel's lowest sample, light up to its highest, a line through its last.") },
  [TW_LEGEND_MEMORY]       = { TW_LEGEND_SECTION_COUNTERS, N_("Memory"),
                               N_("Memory in use, drawn the same way.") },
  [TW_LEGEND_PATH_MEASURED]   = { TW_LEGEND_SECTION_PATH, N_("Explained measurement"),
                                  N_("The measurement being explained, framed on its task's row from its begin to its end.") },
  [TW_LEGEND_PATH_WAKEUP]     = { TW_LEGEND_SECTION_PATH, N_("Wakeup chain"),
                                  N_("The critical path, back from the task's wakeup to its first cause: the line runs along a waker's row while it ran, a dot where it woke the next task, an arrow at the woken task's row. A ring: the first cause is not a row (a release, or not known).") },
  [TW_LEGEND_PATH_RAN_INSTEAD]= { TW_LEGEND_SECTION_PATH, N_("Ran instead"),
                                  N_("Another task (or idle) held the CPU while the measured task waited for it: tinted on that task's row, with a band at its foot.") },
  [TW_LEGEND_PATH_HANDLER]    = { TW_LEGEND_SECTION_PATH, N_("Handler took its time"),
                                  N_("An irq or softirq handler ran instead: tinted on the CPU's row.") },
  [TW_LEGEND_PATH_BLOCKED]    = { TW_LEGEND_SECTION_PATH, N_("Blocked"),
                                  N_("The measured task slept: tinted on the row of the task that held the mutex it waited for, else on its own.") },
  [TW_LEGEND_PATH_LOST]       = { TW_LEGEND_SECTION_PATH, N_("Trace loss"),
                                  N_("The tracer lost events inside the measurement: what ran there is not known.") },
};

static const char *const section_titles[TW_N_LEGEND_SECTIONS] = {
  [TW_LEGEND_SECTION_CPUS]     = N_("CPU rows"),
  [TW_LEGEND_SECTION_TASKS]    = N_("Task rows"),
  [TW_LEGEND_SECTION_MARKS]    = N_("Marks on task rows"),
  [TW_LEGEND_SECTION_OVERLAYS] = N_("Across all rows"),
  [TW_LEGEND_SECTION_COUNTERS] = N_("Load and memory rows"),
  [TW_LEGEND_SECTION_PATH]     = N_("Explained path"),
};

TwLegendSection
tw_legend_item_get_section (TwLegendItem item)
{
  g_return_val_if_fail (item < TW_N_LEGEND_ITEMS, TW_LEGEND_SECTION_CPUS);

  return items[item].section;
}

/**
 * tw_legend_item_get_title:
 *
 * Returns: (transfer none): what the item is called, translated
 */
const char *
tw_legend_item_get_title (TwLegendItem item)
{
  g_return_val_if_fail (item < TW_N_LEGEND_ITEMS, NULL);

  return _(items[item].title);
}

/**
 * tw_legend_item_get_description:
 *
 * Returns: (transfer none): what it means and where it is drawn, translated
 */
const char *
tw_legend_item_get_description (TwLegendItem item)
{
  g_return_val_if_fail (item < TW_N_LEGEND_ITEMS, NULL);

  return _(items[item].description);
}

const char *
tw_legend_section_get_title (TwLegendSection section)
{
  g_return_val_if_fail (section < TW_N_LEGEND_SECTIONS, NULL);

  return _(section_titles[section]);
}

/* ---------------------------------------------------------------- swatches */

/* Three tasks whose colours stand for "every task has its own". */
static void
sample_task_color (guint  i,
                   double rgb[3])
{
  static const char *const names[] = { "bash", "kworker/0:1", "rcu_sched" };
  TwTask task = { names[i % G_N_ELEMENTS (names)], names[i % G_N_ELEMENTS (names)], -1, -1, 0 };

  tw_timeline_task_color (&task, rgb);
}

static void
fill_band (cairo_t                *cr,
           const TwTimelineColors *colors,
           TwTimelineLayer         layer,
           guint32                 key,
           const double            task_rgb[3],
           double                  x0,
           double                  x1,
           double                  y,
           double                  h)
{
  double rgba[4], band_y, band_h;

  if (!tw_timeline_band_style (colors, layer, key, task_rgb, y, h, rgba, &band_y, &band_h))
    return;
  tw_timeline_set_source (cr, rgba);
  cairo_rectangle (cr, x0, band_y, MAX (x1 - x0, 1), band_h);
  cairo_fill (cr);
}

/* A CPU row's top: an irq lane over the interrupted task's band. */
static void
draw_cpu_piece (cairo_t                *cr,
                const TwTimelineColors *colors,
                guint32                 irq_key,
                double                  x,
                double                  y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double lanes = TW_TIMELINE_IRQ_LANE_HEIGHT + 2;
  double task_rgb[3];

  sample_task_color (0, task_rgb);
  fill_band (cr, colors, TW_TIMELINE_LAYER_IRQS, irq_key, task_rgb, x + w / 4, x + w * 3 / 4,
             y + 1, TW_TIMELINE_IRQ_LANE_HEIGHT - 1);
  fill_band (cr, colors, TW_TIMELINE_LAYER_RUNS, 0, task_rgb, x, x + w, y + lanes, h - lanes - 2);
}

/* A CPU row with a loss or a repair over its running task. */
static void
draw_cpu_mark_piece (cairo_t                *cr,
                     const TwTimelineColors *colors,
                     guint32                 bit,
                     double                  x,
                     double                  y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double lanes = TW_TIMELINE_IRQ_LANE_HEIGHT + 2;
  double task_rgb[3];

  sample_task_color (0, task_rgb);
  fill_band (cr, colors, TW_TIMELINE_LAYER_RUNS, 0, task_rgb, x, x + w, y + lanes, h - lanes - 2);
  tw_timeline_draw_cpu_mark (cr, colors, bit, x + w / 2 - 1, y, h);
}

/* A task row with a mark: the mark is a tick at the row's top, the task blocked. */
static void
draw_mark_piece (cairo_t                *cr,
                 const TwTimelineColors *colors,
                 guint32                 mark,
                 double                  x,
                 double                  y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double task_rgb[3];

  sample_task_color (0, task_rgb);
  fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_BLOCKED, task_rgb, x, x + w, y, h);
  fill_band (cr, colors, TW_TIMELINE_LAYER_MARKS, mark, task_rgb, x + w / 2 - 1, x + w / 2 + 1,
             y, TW_TIMELINE_MARK_HEIGHT);
}

/* A piece of an explained path over the row it is drawn on. */
static void
draw_path_piece (cairo_t                *cr,
                 const TwTimelineColors *colors,
                 TwLegendItem            item,
                 double                  x,
                 double                  y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double task_rgb[3], other_rgb[3];

  sample_task_color (0, task_rgb);
  sample_task_color (1, other_rgb);
  switch (item)
    {
    case TW_LEGEND_PATH_MEASURED:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_RUNNING, task_rgb, x, x + w, y, h);
      tw_timeline_draw_highlight_measured (cr, colors, FALSE, x + 4, x + w - 4, y, h - 1);
      tw_timeline_draw_highlight_measured (cr, colors, TRUE, x + 4, x + w - 4, y, h - 1);
      break;
    case TW_LEGEND_PATH_WAKEUP:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_BLOCKED, task_rgb, x, x + w, y, h);
      tw_timeline_set_source (cr, colors->path);
      cairo_rectangle (cr, x + 2, y + 5, w / 2 - 2, 2);
      cairo_fill (cr);
      tw_timeline_draw_highlight_link (cr, colors, x + w / 2, y + 6, y + h - 3);
      break;
    case TW_LEGEND_PATH_RAN_INSTEAD:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_RUNNING, other_rgb, x, x + w, y, h);
      tw_timeline_draw_highlight_stretch (cr, colors, TW_TIMELINE_HIGHLIGHT_CULPRIT, x + 6, x + w - 6, y, h - 1);
      break;
    case TW_LEGEND_PATH_HANDLER:
      draw_cpu_piece (cr, colors, TW_SUMMARY_IRQ_HARD, x, y);
      tw_timeline_draw_highlight_stretch (cr, colors, TW_TIMELINE_HIGHLIGHT_IRQ, x + w / 4, x + w * 3 / 4, y, h - 1);
      break;
    case TW_LEGEND_PATH_BLOCKED:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_RUNNING, other_rgb, x, x + w, y, h);
      tw_timeline_draw_highlight_stretch (cr, colors, TW_TIMELINE_HIGHLIGHT_BLOCKED, x + 6, x + w - 6, y, h - 1);
      break;
    case TW_LEGEND_PATH_LOST:
    default:
      draw_cpu_mark_piece (cr, colors, TW_SUMMARY_CPU_MARK_LOST, x, y);
      tw_timeline_draw_highlight_stretch (cr, colors, TW_TIMELINE_HIGHLIGHT_LOST, x + 6, x + w - 6, y, h - 1);
      break;
    }
}

static void
draw_counter_piece (cairo_t      *cr,
                    const double  base[4],
                    double        x,
                    double        y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double solid[4], light[4], line[4];

  tw_timeline_counter_style (base, solid, light, line);
  tw_timeline_set_source (cr, light);
  cairo_rectangle (cr, x, y + h * 0.25, w, h * 0.75);
  cairo_fill (cr);
  tw_timeline_set_source (cr, solid);
  cairo_rectangle (cr, x, y + h * 0.55, w, h * 0.45);
  cairo_fill (cr);
  tw_timeline_set_source (cr, line);
  cairo_rectangle (cr, x, y + h * 0.4, w, 1);
  cairo_fill (cr);
}

/**
 * tw_legend_draw_swatch:
 *
 * Draws what @item looks like on the timeline into the TW_LEGEND_SWATCH_WIDTH ×
 * TW_LEGEND_SWATCH_HEIGHT px at (@x, @y), on the timeline's background.
 */
void
tw_legend_draw_swatch (cairo_t                *cr,
                       const TwTimelineColors *colors,
                       TwLegendItem            item,
                       double                  x,
                       double                  y)
{
  const double w = TW_LEGEND_SWATCH_WIDTH, h = TW_LEGEND_SWATCH_HEIGHT;
  double task_rgb[3];

  g_return_if_fail (item < TW_N_LEGEND_ITEMS);

  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  tw_timeline_set_source (cr, colors->background);
  cairo_rectangle (cr, x, y, w, h);
  cairo_fill (cr);
  sample_task_color (0, task_rgb);
  switch (item)
    {
    case TW_LEGEND_TASK_ON_CPU:
      for (guint i = 0; i < 3; i++)
        {
          sample_task_color (i, task_rgb);
          fill_band (cr, colors, TW_TIMELINE_LAYER_RUNS, i, task_rgb, x + i * w / 3,
                     x + (i + 1) * w / 3, y + 2, h - 4);
        }
      break;
    case TW_LEGEND_IDLE:
      fill_band (cr, colors, TW_TIMELINE_LAYER_RUNS, TW_TIMELINE_KEY_IDLE, task_rgb, x, x + w, y, h);
      break;
    case TW_LEGEND_HARDIRQ:
      draw_cpu_piece (cr, colors, TW_SUMMARY_IRQ_HARD, x, y);
      break;
    case TW_LEGEND_SOFTIRQ:
      draw_cpu_piece (cr, colors, TW_SUMMARY_IRQ_SOFT, x, y);
      break;
    case TW_LEGEND_UNCLOSED_IRQ:
      draw_cpu_piece (cr, colors, TW_SUMMARY_IRQ_UNCLOSED, x, y);
      break;
    case TW_LEGEND_LOST:
      draw_cpu_mark_piece (cr, colors, TW_SUMMARY_CPU_MARK_LOST, x, y);
      break;
    case TW_LEGEND_REPAIR:
      draw_cpu_mark_piece (cr, colors, TW_SUMMARY_CPU_MARK_REPAIR, x, y);
      break;
    case TW_LEGEND_RUNNING:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_RUNNING, task_rgb, x, x + w, y, h);
      break;
    case TW_LEGEND_READY:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_READY, task_rgb, x, x + w, y, h);
      break;
    case TW_LEGEND_BLOCKED:
      fill_band (cr, colors, TW_TIMELINE_LAYER_STATES, TW_TASK_STATE_BLOCKED, task_rgb, x, x + w, y, h);
      break;
    case TW_LEGEND_USER_MARK:
      draw_mark_piece (cr, colors, TW_SUMMARY_MARK_OTHER, x, y);
      break;
    case TW_LEGEND_MUTEX_MARK:
      draw_mark_piece (cr, colors, TW_SUMMARY_MARK_MUTEX, x, y);
      break;
    case TW_LEGEND_WAKEUP:
      draw_mark_piece (cr, colors, TW_SUMMARY_MARK_WAKEUP, x, y);
      break;
    case TW_LEGEND_CURSOR:
      tw_timeline_draw_cursor_line (cr, colors, x + w / 2, y, y + h);
      break;
    case TW_LEGEND_SELECTION:
      tw_timeline_draw_selection (cr, colors, x + w / 4, x + w * 3 / 4, y, y + h);
      break;
    case TW_LEGEND_MARKER:
      tw_timeline_draw_marker_line (cr, colors, x + w / 2, y, y + h);
      break;
    case TW_LEGEND_CPU_LOAD:
      draw_counter_piece (cr, colors->cpu_load, x, y);
      break;
    case TW_LEGEND_PATH_MEASURED:
    case TW_LEGEND_PATH_WAKEUP:
    case TW_LEGEND_PATH_RAN_INSTEAD:
    case TW_LEGEND_PATH_HANDLER:
    case TW_LEGEND_PATH_BLOCKED:
    case TW_LEGEND_PATH_LOST:
      draw_path_piece (cr, colors, item, x, y);
      break;
    case TW_LEGEND_MEMORY:
    case TW_N_LEGEND_ITEMS:
    default:
      draw_counter_piece (cr, colors->memory, x, y);
      break;
    }
  /* the row's bottom line frames the swatch as a piece of a row */
  tw_timeline_set_source (cr, colors->row_line);
  cairo_rectangle (cr, x, y, w, h);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* ---------------------------------------------------------------- the strip */

/* The strip lists the items every timeline has (the path's only in the popover, while
 * one is shown). */
static guint
strip_n_items (gboolean with_counters)
{
  return with_counters ? TW_LEGEND_PATH_MEASURED : TW_LEGEND_CPU_LOAD;
}

static guint
strip_columns (int width)
{
  return MAX (1, (width - 2 * STRIP_MARGIN) / STRIP_CELL_W);
}

static PangoLayout *
strip_layout (cairo_t *cr)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (STRIP_FONT);

  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  return layout;
}

static const char *
strip_note (void)
{
  return _("Legend. Each task has its own colour (from its name and id; a row's label shows it). "
           "Irqs take lanes at the top of a CPU row, one per nesting level.");
}

/* The note's height when wrapped to @width px. */
static int
note_height (PangoLayout *layout,
             int          width)
{
  int h;

  pango_layout_set_width (layout, (width - 2 * STRIP_MARGIN) * PANGO_SCALE);
  pango_layout_set_wrap (layout, PANGO_WRAP_WORD);
  pango_layout_set_text (layout, strip_note (), -1);
  pango_layout_get_pixel_size (layout, NULL, &h);
  return h;
}

/**
 * tw_legend_strip_get_height:
 * @with_counters: the legend lists the load and memory rows
 *
 * Returns: the px height of the legend strip drawn @width px wide
 */
int
tw_legend_strip_get_height (int      width,
                            gboolean with_counters)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cairo_t *cr = cairo_create (surface);
  g_autoptr(PangoLayout) layout = strip_layout (cr);
  guint rows = (strip_n_items (with_counters) + strip_columns (width) - 1) / strip_columns (width);
  int height = STRIP_MARGIN + note_height (layout, width) + 6 + rows * STRIP_ROW_H + STRIP_MARGIN;

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return height;
}

/**
 * tw_legend_strip_draw:
 *
 * Draws the legend as a strip at (0, 0), @width px wide and tw_legend_strip_get_height()
 * tall: a note on task colours and irq lanes, then each item's swatch and title in
 * columns, for the bottom of exported images.
 */
void
tw_legend_strip_draw (cairo_t                *cr,
                      const TwTimelineColors *colors,
                      int                     width,
                      gboolean                with_counters)
{
  g_autoptr(PangoLayout) layout = strip_layout (cr);
  guint columns = strip_columns (width);
  int top;

  cairo_save (cr);
  tw_timeline_set_source (cr, colors->ruler);
  cairo_rectangle (cr, 0, 0, width, tw_legend_strip_get_height (width, with_counters));
  cairo_fill (cr);
  tw_timeline_set_source (cr, colors->ruler_line);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_fill (cr);

  top = STRIP_MARGIN + note_height (layout, width) + 6;
  tw_timeline_set_source (cr, colors->text);
  cairo_move_to (cr, STRIP_MARGIN, STRIP_MARGIN);
  pango_cairo_show_layout (cr, layout);

  pango_layout_set_width (layout, (STRIP_CELL_W - TW_LEGEND_SWATCH_WIDTH - 14) * PANGO_SCALE);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  for (guint i = 0; i < strip_n_items (with_counters); i++)
    {
      double x = STRIP_MARGIN + (i % columns) * STRIP_CELL_W;
      double y = top + (i / columns) * STRIP_ROW_H;
      int text_h;

      tw_legend_draw_swatch (cr, colors, i, x, y);
      pango_layout_set_text (layout, tw_legend_item_get_title (i), -1);
      pango_layout_get_pixel_size (layout, NULL, &text_h);
      tw_timeline_set_source (cr, colors->text);
      cairo_move_to (cr, x + TW_LEGEND_SWATCH_WIDTH + 8, y + (TW_LEGEND_SWATCH_HEIGHT - text_h) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }
  cairo_restore (cr);
}
