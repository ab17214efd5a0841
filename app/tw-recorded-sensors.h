/* tw-recorded-sensors.h: the sensors of a recording, their counts and declared streams checked
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-stream-check.h"

G_BEGIN_DECLS

/* One sensor of a recording: a sensor type (`<task>@<sensor>`) on its task. */
typedef struct {
  char               *host;       /* NULL when the recording names none */
  char               *task;
  char               *sensor;
  char               *fields;     /* its named fields, "seq, value" */
  guint64             elements;   /* its rows in the recording */
  guint64             missed;     /* what its loss rows count, or its monitor's count when more */
  gboolean            have_counts;
  guint64             received;   /* the monitor's own counts, as recorded */
  guint64             monitor_missed;
  guint64             torn;
  guint64             first_time;
  guint64             last_time;
  TwStreamDeclaration declared;
  TwStreamCheck       check;
} TwRecordedSensor;

gboolean   tw_recorded_sensors_present      (TwTrace              *trace);
void       tw_recorded_sensors_read_async   (TwTrace              *trace,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              data);
GPtrArray *tw_recorded_sensors_read_finish  (GAsyncResult         *result,
                                             GError              **error);
GPtrArray *tw_recorded_sensors_read         (TwTrace              *trace,
                                             GCancellable         *cancellable,
                                             GError              **error);

G_END_DECLS
