/* tw-trace-cache.h: a read trace kept as an image file, so that reopening it maps it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-state-model.h"
#include "tw-trace.h"

G_BEGIN_DECLS

#define TW_TYPE_TRACE_CACHE (tw_trace_cache_get_type ())
G_DECLARE_FINAL_TYPE (TwTraceCache, tw_trace_cache, TW, TRACE_CACHE, GObject)

/**
 * TwTraceCacheEntry:
 * @file: the cache file
 * @trace_path: (nullable): the trace it holds, as its key names it (%NULL when unreadable)
 * @disk_bytes: what the file takes on disk (it is sparse)
 * @last_used: when it was written or last mapped (its modification time), µs since 1970
 * @state: "current", "stale" (the trace changed since), "missing" (the trace is gone) or
 *   "unreadable"
 */
typedef struct {
  char       *file;
  char       *trace_path;
  guint64     disk_bytes;
  gint64      last_used;
  const char *state;
} TwTraceCacheEntry;

void               tw_trace_cache_entry_free     (TwTraceCacheEntry *entry);

TwTraceCache      *tw_trace_cache_new            (const char     *dir);
TwTraceCache      *tw_trace_cache_get_default    (void);
void               tw_trace_cache_set_default_enabled (gboolean   enabled);
void               tw_trace_cache_set_default_builds_models (gboolean builds);
const char        *tw_trace_cache_get_dir        (TwTraceCache   *self);
void               tw_trace_cache_set_builds_models (TwTraceCache *self,
                                                  gboolean        builds);
void               tw_trace_cache_set_limit      (TwTraceCache   *self,
                                                  guint64         bytes);
guint64            tw_trace_cache_get_limit      (TwTraceCache   *self);
gboolean           tw_trace_cache_parse_size     (const char     *text,
                                                  guint64        *bytes,
                                                  GError        **error);

char              *tw_trace_cache_dup_key        (const char     *path,
                                                  GError        **error);
char              *tw_trace_cache_dup_file_for_key (TwTraceCache *self,
                                                  const char     *key);
TwTrace           *tw_trace_cache_lookup         (TwTraceCache   *self,
                                                  const char     *key,
                                                  const char     *format,
                                                  GError        **error);
gboolean           tw_trace_cache_store          (TwTraceCache   *self,
                                                  const char     *key,
                                                  TwTrace        *trace,
                                                  GError        **error);
gboolean           tw_trace_cache_store_with_model (TwTraceCache *self,
                                                  const char     *key,
                                                  TwTrace        *trace,
                                                  TwStateModel   *model,
                                                  GError        **error);
void               tw_trace_cache_offer_state_model (TwStateModel *model);
void               tw_trace_cache_store_in_background (TwTraceCache *self,
                                                  const char     *key,
                                                  TwTrace        *trace);
void               tw_trace_cache_wait           (TwTraceCache   *self);
void               tw_trace_cache_wait_default   (void);

GPtrArray         *tw_trace_cache_list           (TwTraceCache   *self,
                                                  GError        **error);
guint              tw_trace_cache_clear          (TwTraceCache   *self,
                                                  guint64        *freed,
                                                  GError        **error);

guint64            tw_trace_cache_estimate_file_bytes (TwTraceCache *self,
                                                  const char     *path,
                                                  const char     *format);
gboolean           tw_trace_cache_check_read_room (const char   *path,
                                                   const char   *format,
                                                   guint64      *store_bytes,
                                                   GError      **error);
gboolean           tw_trace_cache_check_room     (TwTraceCache   *self,
                                                  guint64         need,
                                                  char          **why);
int                tw_trace_cache_make_temp      (TwTraceCache   *self,
                                                  char          **temp,
                                                  GError        **error);
TwTrace           *tw_trace_cache_open_temp      (TwTraceCache   *self,
                                                  int             fd,
                                                  const char     *temp,
                                                  GError        **error);
void               tw_trace_cache_keep_temp      (TwTraceCache   *self,
                                                  const char     *key,
                                                  TwTrace        *trace,
                                                  int             fd,
                                                  const char     *temp,
                                                  guint64         index_at,
                                                  guint64         end);

TwTrace           *tw_trace_cache_open_fd        (int             fd,
                                                  char          **key,
                                                  GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTraceCacheEntry, tw_trace_cache_entry_free)

G_END_DECLS
