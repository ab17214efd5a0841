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
