/* tw-trace-private.h: what the store and its image file share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"
#include "tw-trace-image.h"

G_BEGIN_DECLS

/* A chunk's columns take TW_TRACE_COLUMNS_BYTES; its payload blob is never larger than
 * TW_TRACE_BLOB_RESERVE (payload offsets are 32-bit). */
#define TW_TRACE_COLUMNS_BYTES ((gsize) TW_CHUNK_SIZE * 24)
#define TW_TRACE_BLOB_RESERVE  ((gsize) G_MAXUINT32 + 1)

/* tw-trace.c, for tw-trace-image.c */
void      _tw_trace_set_image         (TwTrace        *self,
                                       TwTraceImage   *image);
guint     _tw_trace_get_n_strings     (TwTrace        *self);
void      _tw_trace_set_max_strings   (TwTrace        *self,
                                       guint           max_strings);
gboolean  _tw_trace_restore_strings   (TwTrace        *self,
                                       const char     *run,
                                       gsize           len);
GBytes   *_tw_trace_dup_task_states   (TwTrace        *self);
gboolean  _tw_trace_restore_task_states (TwTrace      *self,
                                       const guint8   *states,
                                       gsize           len);
guint     _tw_event_chunk_get_slot    (const TwEventChunk *chunk);
guint     _tw_event_chunk_get_slot_any (const TwEventChunk *chunk);
void      _tw_trace_add_mapped_chunk  (TwTrace        *self,
                                       guint           slot,
                                       guint8         *columns,
                                       guint8         *blob,
                                       guint           n,
                                       gsize           blob_len,
                                       guint16         max_cpu_plus_one,
                                       guint64         last_time);
void      _tw_trace_seal_mapped       (TwTrace        *self);

/* tw-trace.c, for the trace cache and tw-state-model.c: a checked state model section of
 * the cache file the trace was mapped from, for its first whole model to adopt */
void      _tw_trace_set_state_image   (TwTrace        *self,
                                       GBytes         *image);
GBytes   *_tw_trace_get_state_image   (TwTrace        *self);

/* tw-trace.c, for the trace cache: rows checked per chunk when first read */
typedef gboolean (*TwChunkCheckFunc) (TwTrace            *trace,
                                      const TwEventChunk *chunk,
                                      guint               index,
                                      gpointer            data);
void      _tw_trace_set_chunk_check   (TwTrace          *self,
                                       TwChunkCheckFunc  check,
                                       gpointer          data,
                                       GDestroyNotify    destroy);

/* tw-trace-image.c, for tw-trace.c: a chunk's memory in the image's file */
guint8   *_tw_trace_image_take_slot   (TwTraceImage   *self,
                                       guint          *slot,
                                       guint8        **blob);
void      _tw_trace_image_grow_blob   (TwTraceImage   *self,
                                       guint           slot,
                                       gsize           from,
                                       gsize           to);
void      _tw_trace_image_give_slot   (TwTraceImage   *self,
                                       guint           slot);
void      _tw_trace_image_forget_slot (TwTraceImage   *self,
                                       guint           slot);
TwTraceImage *_tw_trace_image_new_spilled (void);

G_END_DECLS
