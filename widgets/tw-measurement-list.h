/* tw-measurement-list.h: a measurement table (or some of its rows) as a GListModel
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#include <tw-evaluators.h>

#include "tw-measurement-item.h"

G_BEGIN_DECLS

#define TW_TYPE_MEASUREMENT_LIST (tw_measurement_list_get_type ())
G_DECLARE_FINAL_TYPE (TwMeasurementList, tw_measurement_list, TW, MEASUREMENT_LIST, GObject)

TwMeasurementList  *tw_measurement_list_new         (TwMeasurementTable *table,
                                                     TwTrace            *trace);
TwMeasurementTable *tw_measurement_list_get_table   (TwMeasurementList  *self);
TwTrace            *tw_measurement_list_get_trace   (TwMeasurementList  *self);
void                tw_measurement_list_show_all    (TwMeasurementList  *self);
void                tw_measurement_list_show_rows   (TwMeasurementList  *self,
                                                     const gsize        *rows,
                                                     gsize               n_rows);
gsize               tw_measurement_list_get_row     (TwMeasurementList  *self,
                                                     guint               position);
GtkWidget          *tw_measurement_list_create_view (TwMeasurementList  *self);

G_END_DECLS
