/* tw-trace.h: the columnar, chunked event store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <string.h>

#include "tw-types.h"

G_BEGIN_DECLS

/* Events live in chunks of 256 Ki rows; a chunk never moves once allocated, so live
 * readers may keep pointers into sealed chunks while the writer appends. 256 Ki rows of
 * 24 bytes are exactly three 2 MiB huge pages. */
#define TW_CHUNK_SHIFT 18
#define TW_CHUNK_SIZE  (1u << TW_CHUNK_SHIFT)
#define TW_CHUNK_MASK  (TW_CHUNK_SIZE - 1)

/* Where each column of a chunk starts in its one mapping, from the time column: hot
 * loops may address every column from chunk->time alone. */
#define TW_CHUNK_TASK_OFFSET    ((gsize) TW_CHUNK_SIZE * 8)
#define TW_CHUNK_ARG_OFFSET     ((gsize) TW_CHUNK_SIZE * 12)
#define TW_CHUNK_PAYLOAD_OFFSET ((gsize) TW_CHUNK_SIZE * 16)
#define TW_CHUNK_TYPE_OFFSET    ((gsize) TW_CHUNK_SIZE * 20)
#define TW_CHUNK_CPU_OFFSET     ((gsize) TW_CHUNK_SIZE * 22)

/**
 * TwEventChunk:
 *
 * One chunk of the store, column by column: 24 bytes per event (8 time, 4 task, 4 arg,
 * 4 payload offset, 2 type, 2 CPU), all columns in one mapping of TW_CHUNK_SIZE × 24
 * bytes advised as huge pages (first touch of fresh memory is the main cost of ingest
 * on virtual machines otherwise). Variable data sits in @blob, addressed by
 * @payload[i] (TW_PAYLOAD_NONE when the type has no fields). Rows are sorted by time
 * once the trace is sealed (ties keep their order of arrival).
 */
typedef struct {
  guint64 *time;                   /* [TW_CHUNK_SIZE] ns in the trace's time base */
  guint32 *task;                   /* task index or TW_TASK_NONE */
  guint32 *arg;                    /* canonical argument, see TwEventKind */
  guint32 *payload;                /* byte offset into blob or TW_PAYLOAD_NONE */
  guint16 *type;                   /* event type index */
  guint16 *cpu;                    /* CPU index or TW_CPU_NONE */
  guint8  *blob;                   /* mapping of blob_cap bytes, or NULL */
  gsize    blob_len;
  gsize    blob_cap;
  guint    n;                      /* rows used, ≤ TW_CHUNK_SIZE */
  guint16  max_cpu_plus_one;       /* 0 when no row names a CPU */
  gboolean unsorted;               /* a row went back in time */
  guint64  last_time;
} TwEventChunk;

/**
 * TwEventType:
 *
 * One row of the type table. @payload_size is fixed per type: numbers are stored at
 * their width, strings as 32-bit ids, and optional fields get a presence bitmap of
 * @presence_bytes at the start of the payload.
 */
typedef struct {
  const char  *name;          /* raw name as the source spells it (interned) */
  const char  *family;        /* source's grouping (interned), may be NULL */
  TwEventKind  kind;
  guint16      n_fields;
  guint16      payload_size;
  guint16      presence_bytes;
  TwFieldSpec *fields;
  guint16     *offsets;       /* byte offset of each field in the payload */
} TwEventType;

typedef enum {
  TW_TASK_FLAG_NONE = 0,
  TW_TASK_FLAG_IDLE = 1 << 0, /* the CPU's idle task (swapper/N): drawn as idle */
} TwTaskFlags;

typedef struct {
  const char  *source_id;     /* the id as the source knows it (interned) */
  const char  *name;          /* latest name (interned); may be NULL */
  gint64       pid;           /* process id, -1 when unknown */
  gint64       tid;           /* thread id, -1 when unknown */
  TwTaskFlags  flags;
  /* the machine it runs on (interned), when the trace holds several (LTTng live of
   * several targets): tids of different hosts are different tasks. NULL: the trace's
   * only machine. */
  const char  *host;
} TwTask;

/* One event, decoded from the columns. @payload points into the store. */
typedef struct {
  guint64        index;
  guint64        time;
  guint32        task;
  guint32        arg;
  guint16        type;
  guint16        cpu;
  const guint8  *payload;
} TwEvent;

#define TW_TYPE_TRACE (tw_trace_get_type ())
G_DECLARE_FINAL_TYPE (TwTrace, tw_trace, TW, TRACE, GObject)

TwTrace            *tw_trace_new                  (void);

/* metadata: format, path, clock, and what a reader wants users to see */
void                tw_trace_set_metadata         (TwTrace        *self,
                                                   const char     *key,
                                                   const char     *value);
char               *tw_trace_dup_metadata         (TwTrace        *self,
                                                   const char     *key);
GStrv               tw_trace_dup_metadata_keys    (TwTrace        *self);

/* strings */
guint32             tw_trace_intern_string        (TwTrace        *self,
                                                   const char     *str);
const char         *tw_trace_get_string           (TwTrace        *self,
                                                   guint32         id);
guint64             tw_trace_get_n_strings_dropped (TwTrace       *self);
guint32             tw_trace_intern_task_state    (TwTrace        *self,
                                                   const char     *name,
                                                   TwTaskState     state);
TwTaskState         tw_trace_get_string_task_state (TwTrace       *self,
                                                   guint32         id);

/* type table */
guint16             tw_trace_add_event_type       (TwTrace           *self,
                                                   const char        *name,
                                                   const char        *family,
                                                   TwEventKind        kind,
                                                   const TwFieldSpec *fields,
                                                   guint              n_fields,
                                                   GError           **error);
guint               tw_trace_get_n_event_types    (TwTrace        *self);
const TwEventType  *tw_trace_get_event_type       (TwTrace        *self,
                                                   guint16         type);
guint16             tw_trace_lookup_event_type    (TwTrace        *self,
                                                   const char     *name);
int                 tw_event_type_lookup_field    (const TwEventType *type,
                                                   const char        *name);

/* payload packing, for readers: @payload is a buffer of type->payload_size bytes that
 * starts zeroed (all optional fields absent). */
void                tw_event_type_set_field       (const TwEventType *type,
                                                   guint8            *payload,
                                                   guint              field,
                                                   const TwValue     *value);
gboolean            tw_event_type_get_field       (const TwEventType *type,
                                                   const guint8      *payload,
                                                   guint              field,
                                                   TwValue           *value);

/* task table */
guint32             tw_trace_add_task             (TwTrace        *self,
                                                   const char     *source_id,
                                                   const char     *name,
                                                   gint64          pid,
                                                   gint64          tid);
guint32             tw_trace_lookup_task          (TwTrace        *self,
                                                   const char     *source_id);
guint32             tw_trace_get_n_tasks          (TwTrace        *self);
const TwTask       *tw_trace_get_task             (TwTrace        *self,
                                                   guint32         task);
void                tw_trace_set_task_name        (TwTrace        *self,
                                                   guint32         task,
                                                   const char     *name);
void                tw_trace_set_task_ids         (TwTrace        *self,
                                                   guint32         task,
                                                   gint64          pid,
                                                   gint64          tid);
void                tw_trace_set_task_flags       (TwTrace        *self,
                                                   guint32         task,
                                                   TwTaskFlags     flags);
void                tw_trace_set_task_host        (TwTrace        *self,
                                                   guint32         task,
                                                   const char     *host);
char               *tw_trace_dup_task_label       (TwTrace        *self,
                                                   guint32         task);

/* CPUs of several machines */
guint16             tw_trace_add_host_cpu         (TwTrace        *self,
                                                   const char     *host,
                                                   guint16         host_cpu);
gboolean            tw_trace_set_cpu_host         (TwTrace        *self,
                                                   guint16         cpu,
                                                   const char     *host,
                                                   guint16         host_cpu);
const char         *tw_trace_get_cpu_host         (TwTrace        *self,
                                                   guint16         cpu,
                                                   guint16        *host_cpu);
guint               tw_trace_get_n_hosts          (TwTrace        *self);
char               *tw_trace_dup_cpu_label        (TwTrace        *self,
                                                   guint16         cpu);

/* appending */
TwEventChunk       *tw_trace_begin_append         (TwTrace        *self);
void                tw_trace_end_append           (TwTrace        *self);
void                tw_trace_set_stable_payloads  (TwTrace        *self);
void                tw_trace_set_spills           (TwTrace        *self);
/* Called in the writer's thread before rows already published change or move; returns
 * once the readers that follow the trace stopped reading its rows. */
typedef void (*TwTraceRewriteFunc) (TwTrace *trace,
                                    gpointer user_data);
void                tw_trace_set_rewrite_func     (TwTrace            *self,
                                                   TwTraceRewriteFunc  func,
                                                   gpointer            user_data);
void                tw_trace_begin_rewrite        (TwTrace        *self);
void                tw_trace_append               (TwTrace        *self,
                                                   guint64         time_ns,
                                                   guint16         cpu,
                                                   guint16         type,
                                                   guint32         task,
                                                   guint32         arg,
                                                   const guint8   *payload);
void                tw_event_chunk_reserve_blob   (TwEventChunk   *chunk,
                                                   gsize           needed);
void                tw_trace_note_cpu             (TwTrace        *self,
                                                   guint16         cpu);
gboolean            tw_trace_seal                 (TwTrace        *self,
                                                   GCancellable   *cancellable,
                                                   GError        **error);
gboolean            tw_trace_is_sealed            (TwTrace        *self);

/* reading */
guint64             tw_trace_get_n_events         (TwTrace        *self);
guint               tw_trace_get_n_cpus           (TwTrace        *self);
guint               tw_trace_get_n_chunks         (TwTrace        *self);
const TwEventChunk *tw_trace_get_chunk            (TwTrace        *self,
                                                   guint           chunk);
gboolean            tw_trace_get_event            (TwTrace        *self,
                                                   guint64         index,
                                                   TwEvent        *event);
guint64             tw_trace_get_time             (TwTrace        *self,
                                                   guint64         index);
guint64             tw_trace_get_first_time       (TwTrace        *self);
guint64             tw_trace_get_last_time        (TwTrace        *self);
guint64             tw_trace_find_first_at_or_after (TwTrace      *self,
                                                   guint64         time_ns);
guint64             tw_trace_find_event_at        (TwTrace        *self,
                                                   guint64         time_ns);
void                tw_trace_find_range           (TwTrace        *self,
                                                   guint64         begin_ns,
                                                   guint64         end_ns,
                                                   guint64        *first,
                                                   guint64        *end);
gboolean            tw_trace_get_event_field      (TwTrace        *self,
                                                   const TwEvent  *event,
                                                   const char     *name,
                                                   TwValue        *value);
char               *tw_trace_format_value         (TwTrace        *self,
                                                   const TwFieldSpec *spec,
                                                   const TwValue  *value);
char               *tw_trace_format_args          (TwTrace        *self,
                                                   const TwEvent  *event);
gsize               tw_trace_get_memory_size      (TwTrace        *self);
guint64             tw_trace_release_before       (TwTrace        *self,
                                                   guint64         index);

/**
 * tw_event_chunk_push:
 * @payload: (nullable): a packed payload of @payload_size bytes
 *
 * The hot append path, for readers that fill chunks in a tight loop: the caller owns
 * @chunk from tw_trace_begin_append() and checks `chunk->n < TW_CHUNK_SIZE` first.
 */
static inline void
tw_event_chunk_push (TwEventChunk *chunk,
                     guint64       time_ns,
                     guint16       cpu,
                     guint16       type,
                     guint32       task,
                     guint32       arg,
                     const guint8 *payload,
                     guint         payload_size)
{
  guint i = chunk->n++;

  chunk->time[i] = time_ns;
  chunk->cpu[i] = cpu;
  chunk->type[i] = type;
  chunk->task[i] = task;
  chunk->arg[i] = arg;
  chunk->unsorted |= time_ns < chunk->last_time;
  chunk->last_time = time_ns;
  if (cpu != TW_CPU_NONE && cpu >= chunk->max_cpu_plus_one)
    chunk->max_cpu_plus_one = cpu + 1;

  if (payload_size == 0)
    {
      chunk->payload[i] = TW_PAYLOAD_NONE;
      return;
    }

  if G_UNLIKELY (chunk->blob_len + payload_size > chunk->blob_cap)
    tw_event_chunk_reserve_blob (chunk, chunk->blob_len + payload_size);
  chunk->payload[i] = (guint32) chunk->blob_len;
  memcpy (chunk->blob + chunk->blob_len, payload, payload_size);
  chunk->blob_len += payload_size;
}

G_END_DECLS
