/* tw-live-session-private.h: what the live session's files share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-evaluators.h>

#include "tw-live-session.h"
#include "tw-stream-check.h"

G_BEGIN_DECLS

#define POLL_INTERVAL_MS  10

typedef struct {
  TwStreamCheck  check;
  /* elements/s over the last second */
  guint64        rate_base_ns;
  guint64        rate_base_received;
  double         rate;
} SourceState;

struct _TwLiveSession
{
  GObject        parent_instance;

  char          *sensor_dir;
  char          *remote_url;    /* a session on remote sources (LTTng live) instead: what
                                 * they are, for titles */
  GPtrArray     *remote_urls;   /* char*, one per remote source */
  GPtrArray     *remote_sources;/* TwLiveSource*, until started: then the monitor's */
  GPtrArray     *lttng_sources; /* TwLiveSource* the monitor owns: for their sensors */
  TwMonitor     *monitor;
  TwStateModel  *model;
  GArray        *sources;       /* SourceState per monitor source index */
  GHashTable    *remote_checks; /* LTTng TwLiveSource → SourceState per its sensor index:
                                 * the stream checks of the targets' sensors */
  GString       *notes;
  gboolean       running;
  gboolean       paused;
  guint          tick_id;
  GSubprocess   *demo;
  char          *demo_program;  /* started by tw_live_session_start */
  char          *private_dir;   /* made for the demo, removed at stop */
  GThread       *thread;
  GMutex         lock;          /* the monitor and @sources: see tw-live-session.c */
  GCond          wake;
  gboolean       stop_thread;   /* under @lock */
  gint           wake_pending;  /* atomic: the thread asked the main loop for an update */
  gint64         last_update_us;
  guint          deferred_id;   /* an update waiting for MIN_UPDATE_US to pass */

  guint64        n_polls;
  guint64        last_poll_ns;
  guint64        max_gap_ns;
  guint64        max_poll_ns;
};

/* tw-live-session.c */
void     _tw_live_session_watch             (TwLiveSession *self,
                                             TwMonitor     *monitor);

/* tw-live-session-sources.c */
GArray  *_tw_live_session_sources_new       (void);
void     _tw_live_session_on_element        (guint          source,
                                             guint64        position,
                                             guint64        time_ns,
                                             gpointer       data);
void     _tw_live_session_update_rates      (TwLiveSession *self,
                                             guint64        now);
void     _tw_live_session_on_arrival        (TwLiveSource  *source,
                                             guint          index,
                                             guint64        position,
                                             guint64        time_ns,
                                             gpointer       data);

/* tw-live-session-demo.c */
gboolean _tw_live_session_start_demo        (TwLiveSession *self,
                                             GError       **error);
void     _tw_live_session_stop_demo         (TwLiveSession *self);
void     _tw_live_session_remove_demo_dir   (TwLiveSession *self);

G_END_DECLS
