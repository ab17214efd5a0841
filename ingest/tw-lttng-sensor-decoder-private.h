/* tw-lttng-sensor-decoder-private.h: sensor elements and measurements back from LTTng-UST events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb-cli monitor --lttng` on a target emits the `tracewb:*` events of
 * app/cli/tw-ust-tp.h. The CTF decoding (tw-ctf-reader.c, for recorded sessions and for
 * the LTTng live helper alike) hands them here, and they come out as the rows a local
 * monitor would have stored: the sensor's own type `<task>@<sensor>` with its named
 * fields, its task `sensor:<pid>:<task>` (`HOST/sensor:<pid>:<task>` with its host in a
 * folder of several targets), at the element's own time; the elements the
 * target's monitor missed as lost-event rows (`<task>@<sensor>:missed`) on its task;
 * measurements as `measurement:<evaluation>` rows and histogram snapshots as
 * `histogram:<evaluation>` rows with value fields and the target's hostname (their arg: the
 * monitor's pid).
 */
#pragma once

#include "config.h"

#include <tw-data.h>

#include "tw-monitor.h"

#if HAVE_BABELTRACE
#include <babeltrace2/babeltrace.h>

#include "tw-ctf-decoder-private.h"

G_BEGIN_DECLS

typedef enum {
  TW_LTTNG_SENSOR_EVENT_NONE = 0,   /* not one of ours */
  TW_LTTNG_SENSOR_EVENT_SCHEMA,
  TW_LTTNG_SENSOR_EVENT_ELEMENT,
  TW_LTTNG_SENSOR_EVENT_COUNTS,
  TW_LTTNG_SENSOR_EVENT_MEASUREMENT,
  TW_LTTNG_SENSOR_EVENT_HISTOGRAM,
} TwLttngSensorEvent;

/* What the decoder knows of one sensor of one monitor (for reports and tests). */
typedef struct {
  const char *name;        /* `<task>@<sensor>` */
  const char *task;        /* the sensor's task name, valid UTF-8 */
  const char *sensor_name;
  const char *schema;
  gint64      pid;         /* of the program that writes the sensor */
  guint32     monitor;     /* the emitting monitor's pid */
  guint32     sensor;      /* the monitor's index of the sensor */
  gboolean    big_endian;  /* the target's byte order (its payloads are converted) */
  const char *host;        /* the hostname of the trace that carried it, "" unnamed */
  /* the jitter-constrained stream the sensor declared (tw_sensor_new_full), all 0 when
   * none or when its monitor did not send it */
  double      period_ns, min_distance_ns, earliness_ns, monitor_period_ns, deadline_ns;
  /* the target monitor's own accounting (received, missed, inconsistent, nonmonotonic)
   * from its latest counts event, and its rate between the last two */
  gboolean    have_counts;
  TwLiveCounts counts;
  double      rate;
  guint64     generation;  /* changes when the schema, the counts or @lost change */
  guint64     received;    /* elements decoded */
  guint64     missed;      /* missed at the monitor, as far as told */
  guint64     lost;        /* elements whose events LTTng did not deliver (position gaps) */
  guint64     duplicates;  /* elements delivered again (their position just received) */
  guint64     restarts;    /* positions going back: the monitor started a new stream */
  guint64     n_counts;    /* counts events received (one a second while it runs) */
  guint64     undecoded;   /* elements before their schema arrived */
} TwLttngSensorStats;

typedef struct _TwLttngSensorDecoder TwLttngSensorDecoder;

/* an element of sensor @sensor of monitor @monitor at @position of its ring, at @time_ns */
typedef void (*TwLttngSensorElementFunc) (guint32  monitor,
                                          guint32  sensor,
                                          guint64  position,
                                          guint64  time_ns,
                                          gpointer data);

TwLttngSensorEvent    _tw_lttng_sensor_event_from_name (const char           *name);
TwLttngSensorDecoder *_tw_lttng_sensor_decoder_new     (TwTrace              *trace,
                                                        const char           *what);
gboolean              _tw_lttng_sensor_decoder_handle  (TwLttngSensorDecoder *self,
                                                        TwLttngSensorEvent    kind,
                                                        const bt_message     *msg,
                                                        gint64                time_ns,
                                                        TwCtfRowFunc          emit,
                                                        gpointer              emit_data,
                                                        GError              **error);
gint64                _tw_lttng_sensor_decoder_get_lag (TwLttngSensorDecoder *self);
void                  _tw_lttng_sensor_decoder_set_element_func (TwLttngSensorDecoder     *self,
                                                                 TwLttngSensorElementFunc  func,
                                                                 gpointer                  data);
guint                 _tw_lttng_sensor_decoder_get_n_sensors (TwLttngSensorDecoder *self);
void                  _tw_lttng_sensor_decoder_get_stats (TwLttngSensorDecoder *self,
                                                        guint                 index,
                                                        TwLttngSensorStats   *stats);
void                  _tw_lttng_sensor_decoder_free    (TwLttngSensorDecoder *self);

/* the sensor decoding of a CTF decoder (tw-ctf-reader.c), for the live helper's reports */
TwLttngSensorDecoder *_tw_ctf_decoder_get_sensors      (TwCtfDecoder         *decoder);

G_END_DECLS

#endif /* HAVE_BABELTRACE */
