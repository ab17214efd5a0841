/* tw-sensor-layout-private.h: a sensor schema as an event type of the store, and its decoding
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One mapping for every place sensor elements enter a store, so that a sensor looks the
 * same wherever it was read: the monitor reading the ring (tw-monitor.c) and the LTTng
 * decoder taking elements a monitor on a target emitted (tw-lttng-sensor-decoder.c).
 * The type is `<task>@<sensor>`, kind TW_EVENT_KIND_SENSOR, family "sensor", one field
 * per scalar, one per array element (`name[i]`), char[N] as an interned string; the
 * task is `sensor:<pid>:<task>`. The same for the metadata of the store's sensors.
 */
#pragma once

#include <tw-data.h>
#include <tw-sensor.h>

G_BEGIN_DECLS

typedef struct {
  guint32           src_offset;    /* in the sensor payload */
  guint32           dst_offset;    /* in the store payload */
  TwSensorFieldType src_type;
  guint32           string_size;   /* char[N]: N */
} TwSensorFieldPlan;

typedef struct {
  guint16            type;           /* the store type */
  guint              payload_size;   /* of the store type */
  TwSensorFieldPlan *plan;
  guint              n_plan;
  gboolean           same_layout;    /* the store payload is the sensor payload's prefix */
} TwSensorLayout;

gboolean _tw_sensor_layout_init      (TwSensorLayout       *layout,
                                      TwTrace              *trace,
                                      const char           *name,
                                      const TwSensorSchema *schema,
                                      const char           *what,
                                      GError              **error);
void     _tw_sensor_layout_decode    (const TwSensorLayout *layout,
                                      TwTrace              *trace,
                                      const guint8         *payload,
                                      guint8               *out);
void     _tw_sensor_layout_swap      (const TwSensorLayout *layout,
                                      guint8               *payload);
void     _tw_sensor_layout_clear     (TwSensorLayout       *layout);
char    *_tw_sensor_layout_task_id   (gint64                pid,
                                      const char           *task);
guint32  _tw_sensor_layout_add_task  (TwTrace              *trace,
                                      gint64                pid,
                                      const char           *task);

/* The metadata a store keeps of its sensors, however they were read: `sensor_streams`
 * (what each declared) and `sensor_counts` (its monitor's counts). */
void     _tw_sensor_layout_append_declared (GString      *out,
                                            const char   *host,
                                            const char   *name,
                                            const double  declared[5]);
void     _tw_sensor_layout_append_counts   (GString      *out,
                                            const char   *host,
                                            const char   *name,
                                            guint64       received,
                                            guint64       missed,
                                            guint64       torn);

G_END_DECLS
