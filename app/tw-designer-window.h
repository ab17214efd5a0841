/* tw-designer-window.h: draw a metric automaton and see it measure the open trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_DESIGNER_WINDOW (tw_designer_window_get_type ())
G_DECLARE_FINAL_TYPE (TwDesignerWindow, tw_designer_window, TW, DESIGNER_WINDOW, GtkWindow)

TwDesignerWindow  *tw_designer_window_new                (GtkWindow        *parent,
                                                          TwViewState      *state);
TwAutomatonCanvas *tw_designer_window_get_canvas         (TwDesignerWindow *self);
gboolean           tw_designer_window_open               (TwDesignerWindow *self,
                                                          const char       *path,
                                                          GError          **error);
gboolean           tw_designer_window_open_template      (TwDesignerWindow *self,
                                                          const char       *name,
                                                          GError          **error);
void               tw_designer_window_update_preview     (TwDesignerWindow *self);
gboolean           tw_designer_window_get_preview_running (TwDesignerWindow *self);
gint64             tw_designer_window_get_n_measurements (TwDesignerWindow *self);
TwHistogramView   *tw_designer_window_get_histogram_view (TwDesignerWindow *self);
const char        *tw_designer_window_get_summary        (TwDesignerWindow *self);
void               tw_designer_window_select_measurement (TwDesignerWindow *self,
                                                          guint             index);
void               tw_designer_window_set_step_task      (TwDesignerWindow *self,
                                                          guint32           task);
gboolean           tw_designer_window_step               (TwDesignerWindow *self,
                                                          guint             n);
int                tw_designer_window_get_step_state     (TwDesignerWindow *self);
gboolean           tw_designer_window_export_c           (TwDesignerWindow *self,
                                                          const char       *path,
                                                          GError          **error);

G_END_DECLS
