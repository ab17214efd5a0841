/* tw-timeline-legend.h: what every colour and mark of the timeline means
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-timeline-style.h"

G_BEGIN_DECLS

typedef enum {
  TW_LEGEND_TASK_ON_CPU,
  TW_LEGEND_IDLE,
  TW_LEGEND_HARDIRQ,
  TW_LEGEND_SOFTIRQ,
  TW_LEGEND_UNCLOSED_IRQ,
  TW_LEGEND_LOST,
  TW_LEGEND_REPAIR,
  TW_LEGEND_RUNNING,
  TW_LEGEND_READY,
  TW_LEGEND_BLOCKED,
  TW_LEGEND_USER_MARK,
  TW_LEGEND_MUTEX_MARK,
  TW_LEGEND_WAKEUP,
  TW_LEGEND_CURSOR,
  TW_LEGEND_SELECTION,
  TW_LEGEND_MARKER,
  TW_LEGEND_CPU_LOAD,
  TW_LEGEND_MEMORY,
  /* an explained measurement's path (tw-timeline-highlight.h), while one is shown */
  TW_LEGEND_PATH_MEASURED,
  TW_LEGEND_PATH_WAKEUP,
  TW_LEGEND_PATH_RAN_INSTEAD,
  TW_LEGEND_PATH_HANDLER,
  TW_LEGEND_PATH_BLOCKED,
  TW_LEGEND_PATH_LOST,
  TW_N_LEGEND_ITEMS
} TwLegendItem;

typedef enum {
  TW_LEGEND_SECTION_CPUS,
  TW_LEGEND_SECTION_TASKS,
  TW_LEGEND_SECTION_MARKS,
  TW_LEGEND_SECTION_OVERLAYS,
  TW_LEGEND_SECTION_COUNTERS,
  TW_LEGEND_SECTION_PATH,
  TW_N_LEGEND_SECTIONS
} TwLegendSection;

/* Swatches are drawn this size, px: room for a CPU row's irq lane over its task. */
#define TW_LEGEND_SWATCH_WIDTH  36
#define TW_LEGEND_SWATCH_HEIGHT 24

TwLegendSection  tw_legend_item_get_section        (TwLegendItem            item);
const char      *tw_legend_item_get_title          (TwLegendItem            item);
const char      *tw_legend_item_get_description    (TwLegendItem            item);
const char      *tw_legend_section_get_title       (TwLegendSection         section);
void             tw_legend_draw_swatch             (cairo_t                *cr,
                                                    const TwTimelineColors *colors,
                                                    TwLegendItem            item,
                                                    double                  x,
                                                    double                  y);
int              tw_legend_strip_get_height        (int                     width,
                                                    gboolean                with_counters);
void             tw_legend_strip_draw              (cairo_t                *cr,
                                                    const TwTimelineColors *colors,
                                                    int                     width,
                                                    gboolean                with_counters);

G_END_DECLS
