/* tw-timeline-highlight-style.h: how a highlighted path's pieces are drawn, for the
 * painter and the legend alike
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-timeline-highlight.h"
#include "tw-timeline-style.h"

G_BEGIN_DECLS

void tw_timeline_draw_highlight_stretch (cairo_t                 *cr,
                                         const TwTimelineColors  *colors,
                                         TwTimelineHighlightRole  role,
                                         double                   x0,
                                         double                   x1,
                                         double                   y,
                                         double                   h);
void tw_timeline_draw_highlight_measured (cairo_t                *cr,
                                          const TwTimelineColors *colors,
                                          gboolean                border,
                                          double                  x0,
                                          double                  x1,
                                          double                  y,
                                          double                  h);
void tw_timeline_draw_highlight_link    (cairo_t                 *cr,
                                         const TwTimelineColors  *colors,
                                         double                   x,
                                         double                   y0,
                                         double                   y1);
void tw_timeline_draw_highlight_origin  (cairo_t                 *cr,
                                         const TwTimelineColors  *colors,
                                         double                   x,
                                         double                   y);

G_END_DECLS
