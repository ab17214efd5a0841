/* tw-task-chooser.h: a button that picks one of a trace's tasks, searched by name or pid
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_TASK_CHOOSER (tw_task_chooser_get_type ())
G_DECLARE_FINAL_TYPE (TwTaskChooser, tw_task_chooser, TW, TASK_CHOOSER, GtkWidget)

GtkWidget *tw_task_chooser_new               (void);
void       tw_task_chooser_set_trace         (TwTaskChooser *self,
                                              TwTrace       *trace);
TwTrace   *tw_task_chooser_get_trace         (TwTaskChooser *self);
void       tw_task_chooser_update            (TwTaskChooser *self);
void       tw_task_chooser_set_all_label     (TwTaskChooser *self,
                                              const char    *label);
const char *tw_task_chooser_get_all_label    (TwTaskChooser *self);
void       tw_task_chooser_set_show_idle     (TwTaskChooser *self,
                                              gboolean       show_idle);
gboolean   tw_task_chooser_get_show_idle     (TwTaskChooser *self);
guint32    tw_task_chooser_get_selected_task (TwTaskChooser *self);
void       tw_task_chooser_set_selected_task (TwTaskChooser *self,
                                              guint32        task);

G_END_DECLS
