/* tw-timeline-cpu-marks.h: losses and repairs drawn on the timeline's CPU rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pango/pangocairo.h>

#include "tw-timeline-painter.h"
#include "tw-timeline-style.h"

G_BEGIN_DECLS

void     tw_timeline_cpu_marks_draw (TwStateModel             *model,
                                     cairo_t                  *cr,
                                     PangoLayout              *layout,
                                     const TwTimelineColors   *colors,
                                     const TwTimelineViewport *viewport,
                                     guint                     cpu,
                                     double                    y,
                                     double                    height);
gboolean tw_timeline_cpu_marks_hit  (TwStateModel             *model,
                                     guint                     cpu,
                                     guint64                   time_ns,
                                     guint64                   slop_ns,
                                     guint64                  *event,
                                     char                    **description);

G_END_DECLS
