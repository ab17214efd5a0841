/* tw-monitor.h: attach live to sensors (and custom live sources), merge them in time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/* ---------------------------------------------------------------------------------------
 * Live sources: anything that produces timestamped rows while it runs. The sensor files
 * of a sensor directory are one built-in kind; the kernel trace buffer
 * (tw-live-kernel.h) and the libgtop sampler (tw-live-gtop.h) are others.
 * ------------------------------------------------------------------------------------- */

typedef struct _TwLiveQueue  TwLiveQueue;
typedef struct _TwLiveSource TwLiveSource;

/**
 * TwLiveCounts:
 *
 * What a source (a sensor's reader, the kernel buffer, a sampler) saw. For a sensor read
 * from stream position 0: received + missed = committed. `inconsistent` is the part of
 * `missed` caught being overwritten while read (never committed to the store);
 * `nonmonotonic` counts received elements earlier than their predecessor; `late`
 * counts received elements that arrived after the merge had already emitted a later
 * time (they are still stored, see tw-monitor.c "Merge").
 */
typedef struct {
  guint64 received;
  guint64 missed;
  guint64 inconsistent;
  guint64 nonmonotonic;
  guint64 late;
} TwLiveCounts;

/**
 * TwLiveSourceClass:
 * @start: register event types and tasks in @trace; called once when the source is added
 * @poll: push every row available now into @queue, in the source's time order; a
 *   FALSE return (with @error) detaches the source, the monitor keeps serving the others
 * @stop: (nullable): release what @start acquired (may be called without a prior
 *   successful @start)
 * @free: free the source
 * @append_sensors: (nullable): a source of sensors read by a monitor elsewhere (LTTng
 *   live: a target's) appends what each declared to @streams and that monitor's last
 *   counts of it to @counts, in the text of the store's `sensor_streams` and
 *   `sensor_counts` metadata, each entry with its host; the source bumps
 *   TwLiveSource.sensors_changed whenever that text would change
 *
 * The vtable of a custom live source. The monitor calls everything from one thread.
 */
typedef struct {
  const char *kind;
  gboolean  (*start) (TwLiveSource *source,
                      TwTrace      *trace,
                      GError      **error);
  gboolean  (*poll)  (TwLiveSource *source,
                      TwTrace      *trace,
                      TwLiveQueue  *queue,
                      GError      **error);
  void      (*stop)  (TwLiveSource *source);
  void      (*free)  (TwLiveSource *source);
  void      (*append_sensors) (TwLiveSource *source,
                               GString      *streams,
                               GString      *counts);
} TwLiveSourceClass;

/**
 * TwLiveConnection:
 *
 * Where a source that reads a remote target (LTTng live) stands; local sources stay
 * TW_LIVE_CONNECTION_LOCAL.
 */
typedef enum {
  TW_LIVE_CONNECTION_LOCAL = 0,    /* not remote */
  TW_LIVE_CONNECTION_CONNECTING,   /* (re)connecting */
  TW_LIVE_CONNECTION_CONNECTED,    /* receiving */
  TW_LIVE_CONNECTION_LOST,         /* the relay went away or the reader failed; retrying */
  TW_LIVE_CONNECTION_ENDED,        /* the session ended on the relay (destroyed); retrying */
} TwLiveConnection;

/**
 * TwLiveSource:
 *
 * The common head of every live source; a source embeds it first and fills @counts.
 *
 * Time: rows of local sources are stamped with CLOCK_MONOTONIC, and the merge takes the
 * poll's time as how far a source is complete. A source in another time base (LTTng:
 * the target's clock, ns from the Unix epoch) sets @own_clock and, at each poll,
 * @horizon: it will deliver no row earlier than that.
 */
struct _TwLiveSource {
  const TwLiveSourceClass *klass;
  char                    *name;     /* "task@sensor", "kernel", "gtop" */
  TwLiveCounts             counts;
  /* Set by a poll that stopped at its quota with more to read; @drained_until is then
   * the time of the last row it queued (the merge may not emit past it). */
  gboolean                 more;
  guint64                  drained_until;
  gboolean                 own_clock;
  guint64                  horizon;
  /* set while tw_monitor_flush() polls: a source holding rows back to put them in
   * order (LTTng live) queues them all */
  gboolean                 flushing;
  /* remote sources: the connection, why it last ended (interned: the main thread may
   * read it while the poll thread moves on), and how often it was made again */
  TwLiveConnection         connection;
  const char              *connection_error;
  guint                    n_reconnects;
  /* sources with TwLiveSourceClass.append_sensors: bumped when their sensors changed */
  guint64                  sensors_changed;
};

void tw_live_source_init (TwLiveSource            *source,
                          const TwLiveSourceClass *klass,
                          const char              *name);
void tw_live_queue_push  (TwLiveQueue   *queue,
                          guint64        time_ns,
                          guint16        cpu,
                          guint16        type,
                          guint32        task,
                          guint32        arg,
                          const guint8  *payload,
                          guint          payload_size);
guint64 tw_live_monotonic_ns (void);

/* ---------------------------------------------------------------------------------------
 * The monitor
 * ------------------------------------------------------------------------------------- */

typedef enum {
  TW_MONITOR_SOURCE_ATTACHED,  /* being read */
  TW_MONITOR_SOURCE_GONE,      /* its file disappeared or was replaced; fully drained */
  TW_MONITOR_SOURCE_FAILED,    /* invalid or hostile: see error */
} TwMonitorSourceState;

/**
 * TwMonitorSourceInfo:
 *
 * A snapshot of one source. Sensors have @task, @sensor, @schema and @path; custom
 * sources only @name. @type is the event type of its rows (sensors: `<task>@<sensor>`),
 * TW_TYPE_NONE for sources with several types or none yet.
 */
typedef struct {
  const char           *name;
  const char           *kind;
  const char           *task;
  const char           *sensor;
  const char           *schema;
  const char           *path;
  gint64                pid;
  guint16               type;
  TwMonitorSourceState  state;
  const char           *error;
  TwLiveCounts          counts;
  /* declared jitter-constrained stream, all 0 when the sensor declared none */
  double                period_ns, min_distance_ns, earliness_ns;
  double                monitor_period_ns, deadline_ns;
  /* detached by tw_monitor_set_source_detached (still ATTACHED, but not read) */
  gboolean              detached;
  /* remote sources (TwLiveSource) */
  TwLiveConnection      connection;
  const char           *connection_error;
  guint                 n_reconnects;
} TwMonitorSourceInfo;

/**
 * TwMonitorElementFunc:
 * @source: the source index (tw_monitor_get_source_info; the `arg` of its SENSOR rows)
 * @position: the element's stream position (0 = the first element its writer committed);
 *   a jump means elements were missed in between
 * @time_ns: its timestamp
 *
 * Called for every element a sensor source received, in stream order, while it is
 * drained (before the merge releases it to the store).
 */
typedef void (*TwMonitorElementFunc) (guint    source,
                                      guint64  position,
                                      guint64  time_ns,
                                      gpointer user_data);

/**
 * TwMonitorBatchFunc:
 * @source: the source index
 * @first_position: the stream position of the first element; the @n elements are
 *   consecutive
 * @elements: @n elements of @stride bytes: u64 timestamp (CLOCK_MONOTONIC), then the
 *   payload as the sensor's schema lays it out; valid during the call only
 * @missed: the elements of this sensor missed so far (all of them before @elements:
 *   a batch has no gap)
 *
 * Called for every batch a sensor source received, in stream order, while it is drained.
 */
typedef void (*TwMonitorBatchFunc) (guint          source,
                                    guint64        first_position,
                                    const guint8  *elements,
                                    guint          n,
                                    gsize          stride,
                                    guint64        missed,
                                    gpointer       user_data);

#define TW_TYPE_MONITOR (tw_monitor_get_type ())
G_DECLARE_FINAL_TYPE (TwMonitor, tw_monitor, TW, MONITOR, GObject)

TwMonitor *tw_monitor_new                 (const char    *sensor_dir);
void       tw_monitor_set_from_start      (TwMonitor     *self,
                                           gboolean       from_start);
void       tw_monitor_set_reorder_window  (TwMonitor     *self,
                                           guint64        window_ns);
void       tw_monitor_set_scan_interval   (TwMonitor     *self,
                                           guint64        interval_ns);
void       tw_monitor_set_watch_sensors   (TwMonitor     *self,
                                           gboolean       watch);
void       tw_monitor_set_element_func    (TwMonitor            *self,
                                           TwMonitorElementFunc  func,
                                           gpointer              user_data);
void       tw_monitor_set_batch_func      (TwMonitor            *self,
                                           TwMonitorBatchFunc    func,
                                           gpointer              user_data);
gboolean   tw_monitor_add_source          (TwMonitor     *self,
                                           TwLiveSource  *source,
                                           GError       **error);
gboolean   tw_monitor_scan                (TwMonitor     *self,
                                           GError       **error);
guint64    tw_monitor_poll                (TwMonitor     *self);
guint64    tw_monitor_flush               (TwMonitor     *self);
void       tw_monitor_stop                (TwMonitor     *self);
TwTrace   *tw_monitor_get_trace           (TwMonitor     *self);
const char *tw_monitor_get_sensor_dir     (TwMonitor     *self);
guint      tw_monitor_get_n_sources       (TwMonitor     *self);
gboolean   tw_monitor_get_source_info     (TwMonitor           *self,
                                           guint                index,
                                           TwMonitorSourceInfo *info);
guint64    tw_monitor_get_emitted_until   (TwMonitor     *self);
gboolean   tw_monitor_set_source_detached (TwMonitor     *self,
                                           guint          index,
                                           gboolean       detached,
                                           GError       **error);

G_END_DECLS
