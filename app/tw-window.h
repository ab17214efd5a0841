/* tw-window.h: the main window: welcome, loading, and one trace's panes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

#include "tw-evaluations-pane.h"
#include "tw-live-session.h"
#include "tw-recorder.h"

G_BEGIN_DECLS

#define TW_TYPE_WINDOW (tw_window_get_type ())
G_DECLARE_FINAL_TYPE (TwWindow, tw_window, TW, WINDOW, GtkApplicationWindow)

TwWindow    *tw_window_new                (GtkApplication *application);
void         tw_window_open_file          (TwWindow       *self,
                                           GFile          *file);
void         tw_window_load_trace         (TwWindow       *self,
                                           TwTrace        *trace,
                                           const char     *title);
gboolean     tw_window_get_loading        (TwWindow       *self);
void         tw_window_cancel_loading     (TwWindow       *self);
TwViewState *tw_window_get_view_state     (TwWindow       *self);
const char  *tw_window_get_page           (TwWindow       *self);
const char  *tw_window_get_error_message  (TwWindow       *self);
TwEventList *tw_window_get_event_list     (TwWindow       *self);
GtkWidget   *tw_window_get_details_pane   (TwWindow       *self);
GtkWidget   *tw_window_get_cursor_state_pane (TwWindow    *self);
TwEvaluationsPane *tw_window_get_evaluations_pane (TwWindow *self);
GtkWidget   *tw_window_get_timeline       (TwWindow       *self);
GtkWidget   *tw_window_get_timeline_slot  (TwWindow       *self);
void         tw_window_go_to_time         (TwWindow       *self,
                                           const char     *text);
void         tw_window_attach_live        (TwWindow       *self,
                                           TwLiveSession  *session);
void         tw_window_show_error_message (TwWindow       *self,
                                           const char     *what,
                                           GError         *error);
TwLiveSession *tw_window_get_live_session (TwWindow       *self);
GtkWidget   *tw_window_get_sensors_pane   (TwWindow       *self);
gboolean     tw_window_record             (TwWindow       *self,
                                           const char     *path,
                                           GError        **error);
const TwShortcut *tw_window_get_shortcuts (guint          *n_shortcuts);
TwRecorder  *tw_window_get_recorder       (TwWindow       *self);

G_END_DECLS
