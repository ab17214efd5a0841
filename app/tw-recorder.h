/* tw-recorder.h: the live window's Record control: a trace written as CTF (or CSV) in a worker thread
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_RECORDER (tw_recorder_get_type ())
G_DECLARE_FINAL_TYPE (TwRecorder, tw_recorder, TW, RECORDER, GtkWidget)

GtkWidget  *tw_recorder_new               (void);
void        tw_recorder_choose_file       (TwRecorder  *self,
                                           TwTrace     *trace);
GtkNativeDialog *tw_recorder_get_chooser  (TwRecorder  *self);
gboolean    tw_recorder_start             (TwRecorder  *self,
                                           TwTrace     *trace,
                                           const char  *path,
                                           GError     **error);
void        tw_recorder_cancel            (TwRecorder  *self);
void        tw_recorder_stop              (TwRecorder  *self);
gboolean    tw_recorder_get_keep_recording (TwRecorder *self);
void        tw_recorder_set_keep_recording (TwRecorder *self,
                                           gboolean     keep);
gboolean    tw_recorder_get_busy          (TwRecorder  *self);
double      tw_recorder_get_fraction      (TwRecorder  *self);
guint64     tw_recorder_get_n_events      (TwRecorder  *self);
const char *tw_recorder_get_path          (TwRecorder  *self);
const char *tw_recorder_get_status        (TwRecorder  *self);
GtkWidget  *tw_recorder_get_cancel_button (TwRecorder  *self);

G_END_DECLS
