/* tw-measurement-table.h: measurement rows (task, begin, end, length, intermediate events)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-event-costs.h"

G_BEGIN_DECLS

/**
 * TwMeasurementRow:
 *
 * One result element of a metric (Espinosa 2003 §2, the Fig. 1 table). Every producer
 * (built-in metrics, automaton interpreter, plugins) fills this same struct.
 */
typedef struct {
  guint32 task;                /* task index of the trace, or TW_TASK_NONE */
  guint32 intermediate_events; /* what the producer documents; see tw-metrics.h */
  guint64 begin;               /* ns, the trace's time base */
  guint64 end;                 /* ns, ≥ begin */
  guint64 length;              /* ns, the measured time (≤ end − begin for most metrics) */
} TwMeasurementRow;

G_STATIC_ASSERT (sizeof (TwMeasurementRow) == 32);

#define TW_TYPE_MEASUREMENT_TABLE (tw_measurement_table_get_type ())
G_DECLARE_FINAL_TYPE (TwMeasurementTable, tw_measurement_table, TW, MEASUREMENT_TABLE, GObject)

TwMeasurementTable  *tw_measurement_table_new          (const char *const  *column_names);
const char          *tw_measurement_table_get_name     (TwMeasurementTable *self);
void                 tw_measurement_table_set_name     (TwMeasurementTable *self,
                                                        const char         *name);
guint                tw_measurement_table_get_n_columns (TwMeasurementTable *self);
const char          *tw_measurement_table_get_column_name (TwMeasurementTable *self,
                                                        guint               column);
int                  tw_measurement_table_lookup_column (TwMeasurementTable *self,
                                                        const char         *name);

void                 tw_measurement_table_append       (TwMeasurementTable  *self,
                                                        const TwMeasurementRow *row,
                                                        const double        *columns);
void                 tw_measurement_table_append_rows  (TwMeasurementTable  *self,
                                                        const TwMeasurementRow *rows,
                                                        gsize               n_rows);
void                 tw_measurement_table_clear        (TwMeasurementTable  *self);

gsize                tw_measurement_table_get_n_rows   (TwMeasurementTable *self);
const TwMeasurementRow *tw_measurement_table_get_row      (TwMeasurementTable *self,
                                                        gsize               row);
double               tw_measurement_table_get_value    (TwMeasurementTable *self,
                                                        gsize               row,
                                                        guint               column);
guint64              tw_measurement_table_get_generation (TwMeasurementTable *self);
void                 tw_measurement_table_set_event_cost (TwMeasurementTable *self,
                                                          double              cost_ns);
double               tw_measurement_table_get_event_cost (TwMeasurementTable *self);
void                 tw_measurement_table_set_event_costs (TwMeasurementTable *self,
                                                           TwEventCosts       *costs);
TwEventCosts        *tw_measurement_table_get_type_costs (TwMeasurementTable *self);
gboolean             tw_measurement_table_has_event_cost (TwMeasurementTable *self);
char                *tw_measurement_table_dup_event_cost_text (TwMeasurementTable *self);
void                 tw_measurement_table_append_with_overhead (TwMeasurementTable     *self,
                                                           const TwMeasurementRow *row,
                                                           guint64                 overhead_ps,
                                                           const double           *columns);
guint64              tw_measurement_table_get_overhead (TwMeasurementTable     *self,
                                                        const TwMeasurementRow *row);
guint64              tw_measurement_table_compensate   (TwMeasurementTable     *self,
                                                        const TwMeasurementRow *row);

char                *tw_measurement_table_dup_task_label (TwTrace           *trace,
                                                        guint32             task);
gboolean             tw_measurement_table_write_csv    (TwMeasurementTable *self,
                                                        TwTrace            *trace,
                                                        GOutputStream      *stream,
                                                        GCancellable       *cancellable,
                                                        GError            **error);
char                *tw_measurement_table_to_csv       (TwMeasurementTable *self,
                                                        TwTrace            *trace);

G_END_DECLS
