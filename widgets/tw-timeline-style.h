/* tw-timeline-style.h: how the timeline looks: colours, bands and overlay marks
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <tw-data.h>

#include "tw-palette.h"

G_BEGIN_DECLS

/* A CPU row: irq lanes at its top (one per nesting level, deeper ones share the last),
 * the running task below. Marks sit at the top of a task row. */
#define TW_TIMELINE_IRQ_LANE_HEIGHT 5
#define TW_TIMELINE_IRQ_MAX_LANES   3
#define TW_TIMELINE_MARK_HEIGHT     5

/* What a layer's keys mean: RUNS a task index or TW_TIMELINE_KEY_IDLE, IRQS a
 * TW_SUMMARY_IRQ_*, STATES a TwTaskState, MARKS a TW_SUMMARY_MARK_*. */
typedef enum {
  TW_TIMELINE_LAYER_RUNS,
  TW_TIMELINE_LAYER_IRQS,
  TW_TIMELINE_LAYER_STATES,
  TW_TIMELINE_LAYER_MARKS,
} TwTimelineLayer;

#define TW_TIMELINE_KEY_IDLE (G_MAXUINT32 - 1)

/* Every colour the timeline paints, RGBA. */
typedef struct {
  double background[4];
  double stripe[4];          /* every other row */
  double section[4];         /* section header rows */
  double host[4];            /* a machine's header row, in a trace of several */
  double row_line[4];
  double ruler[4];
  double ticks[4];
  double ruler_line[4];
  double text[4];
  double dim_text[4];
  double idle[4];
  double blocked[4];
  double hardirq[4];
  double softirq[4];
  double unclosed_irq[4];
  double wakeup[4];
  double mutex[4];
  double user_mark[4];
  double marker[4];
  double cursor[4];
  double selection[4];
  double selection_text[4];
  double cpu_load[4];
  double memory[4];
  double lost[4];            /* events the tracer lost, on CPU rows */
  double repair[4];          /* a switch the state model repaired */
  double path[4];            /* a highlighted path: the theme's accent */
  double culprit[4];         /* on a highlighted path: who ran instead */
} TwTimelineColors;

void     tw_timeline_colors_init        (TwTimelineColors       *self,
                                         const TwPalette        *palette);
void     tw_timeline_task_color         (const TwTask           *task,
                                         double                  rgb[3]);
gboolean tw_timeline_band_style         (const TwTimelineColors *colors,
                                         TwTimelineLayer         layer,
                                         guint32                 key,
                                         const double            task_rgb[3],
                                         double                  y,
                                         double                  h,
                                         double                  rgba[4],
                                         double                 *band_y,
                                         double                 *band_h);
void     tw_timeline_counter_style      (const double            base[4],
                                         double                  solid[4],
                                         double                  light[4],
                                         double                  line[4]);
void     tw_timeline_set_source         (cairo_t                *cr,
                                         const double            rgba[4]);
void     tw_timeline_draw_cursor_line   (cairo_t                *cr,
                                         const TwTimelineColors *colors,
                                         double                  x,
                                         double                  y0,
                                         double                  y1);
void     tw_timeline_draw_marker_line   (cairo_t                *cr,
                                         const TwTimelineColors *colors,
                                         double                  x,
                                         double                  y0,
                                         double                  y1);
void     tw_timeline_draw_cpu_mark      (cairo_t                *cr,
                                         const TwTimelineColors *colors,
                                         guint32                 bit,
                                         double                  x,
                                         double                  y,
                                         double                  h);
void     tw_timeline_draw_selection     (cairo_t                *cr,
                                         const TwTimelineColors *colors,
                                         double                  x0,
                                         double                  x1,
                                         double                  y0,
                                         double                  y1);

G_END_DECLS
