/* tw-data.h: the data layer, for the layers above it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-types.h"
#include "tw-trace.h"
#include "tw-lost-events.h"
#include "tw-trace-image.h"
#include "tw-trace-cache.h"
#include "tw-state-model.h"
#include "tw-switch-repairs.h"
#include "tw-counter-tracks.h"
#include "tw-event-filter.h"
#include "tw-event-item.h"
#include "tw-mutex-tracker.h"
#include "tw-trace-model.h"
