/* tw-evaluators.h: the evaluator layer, for the layers above it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton.h"
#include "tw-automaton-codegen.h"
#include "tw-automaton-evaluator.h"
#include "tw-automaton-file.h"
#include "tw-automaton-interp.h"
#include "tw-evaluation.h"
#include "tw-evaluator.h"
#include "tw-evaluator-factory.h"
#include "tw-evaluator-interface.h"
#include "tw-evaluator-run.h"
#include "tw-event-cost.h"
#include "tw-event-names.h"
#include "tw-explain.h"
#include "tw-extreme-value.h"
#include "tw-histogram.h"
#include "tw-jcs.h"
#include "tw-measurement-table.h"
#include "tw-metrics.h"
#include "tw-plugin.h"
#include "tw-run-comparison.h"
#include "tw-sample-stats.h"
#include "tw-time-unit.h"
#include "tw-update.h"
#include "tw-worst-case.h"
#include "tw-worst-case-evaluator.h"
