/* tw-sensors-pane.h: the sources of a live session: sensors, kernel buffer, samplers, with their counts
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tw-live-session.h"

G_BEGIN_DECLS

typedef enum {
  TW_SENSORS_COLUMN_ATTACHED,
  TW_SENSORS_COLUMN_TASK,
  TW_SENSORS_COLUMN_SENSOR,
  TW_SENSORS_COLUMN_SCHEMA,
  TW_SENSORS_COLUMN_RATE,
  TW_SENSORS_COLUMN_RECEIVED,
  TW_SENSORS_COLUMN_MISSED,
  TW_SENSORS_COLUMN_TORN,
  TW_SENSORS_COLUMN_STREAM,
  TW_SENSORS_COLUMN_STATE,
  TW_SENSORS_N_COLUMNS
} TwSensorsColumn;

#define TW_TYPE_SENSORS_PANE (tw_sensors_pane_get_type ())
G_DECLARE_FINAL_TYPE (TwSensorsPane, tw_sensors_pane, TW, SENSORS_PANE, GtkWidget)

GtkWidget  *tw_sensors_pane_new          (void);
void        tw_sensors_pane_set_session  (TwSensorsPane *self,
                                          TwLiveSession *session);
void        tw_sensors_pane_set_recording (TwSensorsPane *self,
                                          TwTrace       *trace);
gboolean    tw_sensors_pane_get_checking (TwSensorsPane *self);
void        tw_sensors_pane_refresh      (TwSensorsPane *self);
guint       tw_sensors_pane_get_n_rows   (TwSensorsPane *self);
const char *tw_sensors_pane_get_text     (TwSensorsPane *self,
                                          guint          row,
                                          TwSensorsColumn column);
int         tw_sensors_pane_find_row     (TwSensorsPane *self,
                                          const char    *task,
                                          const char    *sensor);
GtkWidget  *tw_sensors_pane_get_target_histograms (TwSensorsPane *self);
GtkWidget  *tw_sensors_pane_get_attach_button (TwSensorsPane *self,
                                          guint          row);
const char *tw_sensors_pane_get_notes    (TwSensorsPane *self);
GtkWidget  *tw_sensors_pane_get_heading  (TwSensorsPane *self);
GtkWidget  *tw_sensors_pane_get_column_title (TwSensorsPane  *self,
                                          TwSensorsColumn column);

char *tw_sensors_pane_describe_connection (const TwMonitorSourceInfo *info);

G_END_DECLS
