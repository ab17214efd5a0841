/* tw-timeline-image.h: the timeline as a PNG or SVG file, with its legend
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tw-timeline-painter.h"

G_BEGIN_DECLS

int      tw_timeline_image_get_legend_height (TwTimelinePainter        *painter,
                                              int                       width);
gboolean tw_timeline_image_write             (TwTimelinePainter        *painter,
                                              const TwTimelineViewport *viewport,
                                              gboolean                  legend,
                                              const char               *path,
                                              GError                  **error);

G_END_DECLS
