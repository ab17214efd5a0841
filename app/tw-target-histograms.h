/* tw-target-histograms.h: the latest histogram of each evaluation a target's monitor runs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>
#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_TARGET_HISTOGRAMS (tw_target_histograms_get_type ())
G_DECLARE_FINAL_TYPE (TwTargetHistograms, tw_target_histograms, TW, TARGET_HISTOGRAMS, GtkWidget)

GtkWidget                 *tw_target_histograms_new          (void);
void                       tw_target_histograms_set_trace    (TwTargetHistograms *self,
                                                              TwTrace            *trace);
void                       tw_target_histograms_refresh      (TwTargetHistograms *self);
guint                      tw_target_histograms_get_n        (TwTargetHistograms *self);
const TwHistogramSnapshot *tw_target_histograms_get_snapshot (TwTargetHistograms *self,
                                                              guint               index,
                                                              const char        **evaluation);
const char                *tw_target_histograms_get_summary  (TwTargetHistograms *self,
                                                              guint               index);
const char                *tw_target_histograms_get_title    (TwTargetHistograms *self,
                                                              guint               index);

G_END_DECLS
