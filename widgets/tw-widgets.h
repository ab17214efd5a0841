/* tw-widgets.h: the widgets layer, for the application
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-view-state.h"
#include "tw-timeline-painter.h"
#include "tw-timeline.h"
