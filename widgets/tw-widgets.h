/* tw-widgets.h: the widgets layer, for the application
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-event-filter-bar.h"
#include "tw-event-list.h"
#include "tw-histogram-painter.h"
#include "tw-compare-histogram.h"
#include "tw-histogram-over-time.h"
#include "tw-histogram-view.h"
#include "tw-measurement-item.h"
#include "tw-measurement-list.h"
#include "tw-shortcuts.h"
#include "tw-span.h"
#include "tw-task-chooser.h"
#include "tw-time-text.h"
#include "tw-view-state.h"
#include "tw-wrap-box.h"
#include "tw-automaton-painter.h"
#include "tw-automaton-canvas.h"
#include "tw-timeline-describe.h"
#include "tw-timeline-highlight.h"
#include "tw-timeline-layout.h"
#include "tw-palette.h"
#include "tw-timeline-image.h"
#include "tw-timeline-legend-view.h"
#include "tw-timeline-legend.h"
#include "tw-timeline-painter.h"
#include "tw-timeline-style.h"
#include "tw-timeline.h"
