/* tw-live-lttng.h: an LTTng live session (through a relay) as a live source
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-monitor.h"

G_BEGIN_DECLS

/* lttng-relayd's default live port */
#define TW_LTTNG_LIVE_DEFAULT_PORT 5344

/* A target's monitor sends its counts every second: this long without new ones, it is
 * gone (ended, or killed). */
#define TW_LTTNG_SENSOR_QUIET_S 3.0

/**
 * TwLttngSessionInfo:
 *
 * One session a relay serves, as babeltrace2's `sessions` query of src.ctf.lttng-live
 * tells it.
 */
typedef struct {
  char    *url;        /* net://HOST:PORT/host/TARGET/SESSION, to attach to */
  char    *hostname;   /* the target's */
  char    *name;       /* the session's */
  guint64  timer_us;   /* live timer: how often the target flushes to the relay */
  guint64  n_streams;
  guint64  n_clients;  /* viewers attached */
} TwLttngSessionInfo;

/**
 * TwLttngRemoteSensor:
 *
 * A sensor that a monitor on the target (`tracewb-cli monitor --lttng`) reads and sends
 * through the session. Strings are interned: they stay valid for the program's life.
 */
typedef struct {
  const char   *host;         /* the target's hostname, from the URL */
  const char   *task;         /* the sensor's task name */
  const char   *sensor;       /* the sensor's name */
  const char   *schema;
  gint64        pid;          /* of the program that writes it */
  guint32       monitor;      /* the pid of the monitor that reads it */
  /* the monitor's own accounting at the ring (received, missed, inconsistent,
   * nonmonotonic) from its latest counts event, and its elements/s between its last
   * two; @have_counts FALSE until the first counts event arrived */
  gboolean      have_counts;
  TwLiveCounts  counts;
  double        rate;
  gboolean      big_endian;   /* the target's byte order */
  guint64       decoded;      /* elements decoded here */
  guint64       lost;         /* element events LTTng did not deliver (its buffers full) */
  guint64       duplicates;   /* element events delivered twice (stored once) */
  guint64       restarts;     /* times its positions went back: its monitor started over */
  guint64       n_counts;     /* its monitor's counts events heard: one a second while it runs */
  gboolean      connected;    /* the session it comes through is */
  /* the jitter-constrained stream the sensor declared on the target, all 0 when none
   * (or its monitor is older than the field) */
  double        period_ns, min_distance_ns, earliness_ns;
  double        monitor_period_ns, deadline_ns;
} TwLttngRemoteSensor;

/**
 * TwLttngArrivalFunc:
 * @source: the LTTng source
 * @index: the sensor's index in @source (tw_live_lttng_get_sensor)
 * @position: the element's position in the sensor's ring on the target; a jump means
 *   elements were missed or lost on the way, a step back that its monitor started over
 * @time_ns: the element's time in the store
 *
 * An element of a target's sensor that declared a jitter-constrained stream, once
 * stored (a duplicate is not), in the order its monitor sent them: what a local
 * monitor's element hook (TwMonitorElementFunc) hands over, for the same check. Called
 * in the thread that polls the source.
 */
typedef void (*TwLttngArrivalFunc) (TwLiveSource *source,
                                    guint         index,
                                    guint64       position,
                                    guint64       time_ns,
                                    gpointer      user_data);

void          tw_lttng_session_info_free   (TwLttngSessionInfo *info);

gboolean      tw_live_lttng_is_supported   (GError       **error);
gboolean      tw_live_lttng_parse_url      (const char    *url,
                                            char         **relay_url,
                                            char         **target,
                                            char         **session,
                                            GError       **error);
TwLiveSource *tw_live_lttng_new            (const char    *url,
                                            GError       **error);
void          tw_live_lttng_set_reconnect  (TwLiveSource  *source,
                                            gboolean       reconnect);
char         *tw_live_lttng_dup_target     (TwLiveSource  *source);
gboolean      tw_live_lttng_is_lttng       (TwLiveSource  *source);
guint         tw_live_lttng_get_n_sensors  (TwLiveSource  *source);
gboolean      tw_live_lttng_get_sensor     (TwLiveSource  *source,
                                            guint          index,
                                            TwLttngRemoteSensor *sensor);
void          tw_live_lttng_set_arrival_func (TwLiveSource      *source,
                                              TwLttngArrivalFunc func,
                                              gpointer           user_data);
void          tw_live_lttng_set_host       (TwLiveSource  *source,
                                            const char    *host);
guint         tw_live_lttng_name_hosts     (TwLiveSource **sources,
                                            guint          n_sources);
GPtrArray    *tw_live_lttng_list_sessions  (const char    *relay_url,
                                            GCancellable  *cancellable,
                                            GError       **error);
int           tw_lttng_live_child_main     (int            argc,
                                            char         **argv);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwLttngSessionInfo, tw_lttng_session_info_free)

G_END_DECLS
