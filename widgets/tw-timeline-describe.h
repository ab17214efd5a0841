/* tw-timeline-describe.h: what the timeline's tooltips say about what is drawn
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

char *tw_timeline_describe_irq      (TwTrace             *trace,
                                     guint                cpu,
                                     const TwIrqInterval *irq);
char *tw_timeline_describe_event    (TwTrace             *trace,
                                     guint64              index);
char *tw_timeline_describe_loss     (TwTrace             *trace,
                                     const TwEvent       *event);
char *tw_timeline_describe_cpu_mark (TwTrace             *trace,
                                     guint                cpu,
                                     const TwCpuMark     *mark);

G_END_DECLS
