/* tw-compare-histogram.h: two runs' histograms in the same bins, as shares of each run
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-evaluators.h>

G_BEGIN_DECLS

#define TW_TYPE_COMPARE_HISTOGRAM (tw_compare_histogram_get_type ())
G_DECLARE_FINAL_TYPE (TwCompareHistogram, tw_compare_histogram, TW, COMPARE_HISTOGRAM, GtkWidget)

GtkWidget *tw_compare_histogram_new            (void);
void       tw_compare_histogram_set_histograms (TwCompareHistogram *self,
                                                TwHistogram        *a,
                                                TwHistogram        *b,
                                                const char         *label_a,
                                                const char         *label_b);
void       tw_compare_histogram_get_run_color  (guint               run,
                                                GdkRGBA            *color);

G_END_DECLS
