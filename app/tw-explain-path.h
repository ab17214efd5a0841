/* tw-explain-path.h: an explanation of a measurement as a path over the timeline's rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-evaluators.h>
#include <tw-widgets.h>

G_BEGIN_DECLS

TwTimelineHighlight *tw_explain_path_new_highlight (const TwExplanation *explanation,
                                                    TwTrace             *trace);

G_END_DECLS
