/* tw-compare-window.h: two runs, one evaluation, side by side (`tracewb A B --compare`)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_COMPARE_WINDOW (tw_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (TwCompareWindow, tw_compare_window, TW, COMPARE_WINDOW, GtkApplicationWindow)

TwCompareWindow *tw_compare_window_new            (GtkApplication  *application,
                                                   GFile           *a,
                                                   GFile           *b);
TwRunComparison *tw_compare_window_get_comparison (TwCompareWindow *self);

G_END_DECLS
