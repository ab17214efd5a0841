/* tw-live-session.h: a live session: a monitor on a sensor directory, polled and shown as it grows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>
#include <tw-ingest.h>

G_BEGIN_DECLS

#define TW_LIVE_DEMO_PROGRAM "tracewb-demo-rt"

typedef enum {
  TW_LIVE_SESSION_KERNEL = 1 << 0,   /* try the kernel trace buffer (root, tracefs) */
  TW_LIVE_SESSION_GTOP   = 1 << 1,   /* try the libgtop sampler */
} TwLiveSessionFlags;

typedef enum {
  TW_LIVE_STREAM_NONE,     /* the sensor declared no jitter-constrained stream */
  TW_LIVE_STREAM_OK,       /* every arrival so far fits the declared stream */
  TW_LIVE_STREAM_BROKEN,   /* an arrival broke it */
  TW_LIVE_STREAM_INVALID,  /* the declared parameters are not a valid stream */
} TwLiveStreamStatus;

#define TW_TYPE_LIVE_SESSION (tw_live_session_get_type ())
G_DECLARE_FINAL_TYPE (TwLiveSession, tw_live_session, TW, LIVE_SESSION, GObject)

TwLiveSession *tw_live_session_new              (const char     *sensor_dir);
TwLiveSession *tw_live_session_new_for_remote   (TwLiveSource   *source,
                                                 const char     *url);
void           tw_live_session_add_remote       (TwLiveSession  *self,
                                                 TwLiveSource   *source,
                                                 const char     *url);
const char    *tw_live_session_get_remote_url   (TwLiveSession  *self);
guint          tw_live_session_get_n_remotes    (TwLiveSession  *self);
gboolean       tw_live_session_is_running       (TwLiveSession  *self);
gboolean       tw_live_session_start            (TwLiveSession  *self,
                                                 TwLiveSessionFlags flags,
                                                 GError        **error);
gboolean       tw_live_session_spawn_demo       (TwLiveSession  *self,
                                                 const char     *program,
                                                 GError        **error);
void           tw_live_session_stop             (TwLiveSession  *self);

TwTrace       *tw_live_session_get_trace        (TwLiveSession  *self);
TwStateModel  *tw_live_session_get_model        (TwLiveSession  *self);
const char    *tw_live_session_get_sensor_dir   (TwLiveSession  *self);
const char    *tw_live_session_get_notes        (TwLiveSession  *self);
guint64        tw_live_session_get_newest_time  (TwLiveSession  *self);

gboolean       tw_live_session_get_paused       (TwLiveSession  *self);
void           tw_live_session_set_paused       (TwLiveSession  *self,
                                                 gboolean        paused);
void           tw_live_session_poll             (TwLiveSession  *self);
void           tw_live_session_update           (TwLiveSession  *self);

double         tw_live_session_get_rate         (TwLiveSession  *self,
                                                 guint           source);
TwLiveStreamStatus tw_live_session_get_stream_status (TwLiveSession *self,
                                                 guint           source,
                                                 const char    **detail);
guint          tw_live_session_get_n_sources    (TwLiveSession  *self);
gboolean       tw_live_session_get_source_info  (TwLiveSession  *self,
                                                 guint           source,
                                                 TwMonitorSourceInfo *info);
guint          tw_live_session_get_n_remote_sensors (TwLiveSession *self);
gboolean       tw_live_session_get_remote_sensor (TwLiveSession *self,
                                                 guint           index,
                                                 TwLttngRemoteSensor *sensor);
TwLiveStreamStatus tw_live_session_get_remote_stream_status (TwLiveSession *self,
                                                 guint           index,
                                                 const char    **detail);
gboolean       tw_live_session_set_source_attached (TwLiveSession *self,
                                                 guint           source,
                                                 gboolean        attached,
                                                 GError        **error);

void           tw_live_session_get_poll_stats   (TwLiveSession  *self,
                                                 guint64        *n_polls,
                                                 guint64        *max_gap_ns,
                                                 guint64        *max_poll_ns);

char          *tw_live_find_demo_program        (const char *const *dirs,
                                                 GError        **error);
char         **tw_live_dup_demo_search_dirs     (void);

G_END_DECLS
