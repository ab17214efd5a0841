/* tw-trace.c: the columnar, chunked event store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>

#include "tw-huge-array.h"
#include "tw-pages.h"
#include "tw-trace-private.h"

/*
 * Threading: one writer (a reader thread while loading, the monitor thread when live)
 * and any number of readers. Tables are paged arrays with a fixed directory, so an entry
 * never moves; counts are published with release stores after the entry is complete.
 * Readers only look at entries below the published counts.
 */

#define MAX_CHUNKS      (1u << 14)   /* 2^32 events */
#define HUGE_PAGE       TW_PAGES_HUGE_BYTES
#define COLUMNS_BYTES   TW_TRACE_COLUMNS_BYTES
#define BLOB_MIN        (64u << 10)
/* payload offsets are 32-bit: no chunk's blob is ever larger */
#define BLOB_RESERVE    TW_TRACE_BLOB_RESERVE
#define TASK_PAGE_SHIFT 10
#define MAX_TASK_PAGES  (1u << 14)   /* 16 Mi tasks */
#define STR_PAGE_SHIFT  12
#define MAX_STR_PAGES   (1u << 14)   /* 64 Mi strings */
#define MAX_STRINGS     (MAX_STR_PAGES << STR_PAGE_SHIFT)
#define FULL_STRING     "(string table full)"
#define TYPE_PAGE_SHIFT 8
#define MAX_TYPE_PAGES  (1u << 8)    /* 64 Ki types, indexes fit guint16 minus TW_TYPE_NONE */
#define MAX_FIELDS      512

/* Where a store CPU is on its machine. */
typedef struct {
  const char *host;      /* interned; NULL: not a named host's CPU */
  guint16     host_cpu;
} TwCpuHost;

#define CPU_HOST_PAGE_SHIFT 8
#define CPU_HOST_PAGES      (65536u >> CPU_HOST_PAGE_SHIFT)

struct _TwTrace
{
  GObject        parent_instance;

  TwEventChunk **chunks;        /* MAX_CHUNKS slots */
  guint          n_chunks;      /* published */
  guint          n_released;    /* chunks below this were released (tw_trace_release_before) */
  guint64        n_events;      /* published */
  guint          n_cpus;        /* published */
  gboolean       sealed;
  gboolean       stable_blobs;  /* tw_trace_set_stable_payloads */
  gboolean       spills;        /* tw_trace_set_spills, until its file is made or refused */
  TwTraceImage  *image;         /* the file new chunks are made in, or NULL */

  /* strings: id → interned pointer */
  GMutex         lock;          /* writer-side: interning and table growth */
  GStringChunk  *string_chunk;
  GHashTable    *string_ids;    /* const char* → id + 1 */
  char          *restored;      /* strings restored from an image, one run, or NULL */
  gsize          restored_len;
  gboolean       restored_unhashed; /* they are not in string_ids yet */
  const char  ***str_pages;     /* MAX_STR_PAGES slots */
  guint          n_strings;
  guint          max_strings;   /* MAX_STRINGS; less in tests */
  guint32        full_id;       /* FULL_STRING's id once the table is full, else G_MAXUINT32 */
  guint64        n_strings_dropped;
  GArray        *task_states;   /* guint8 by string id: 1 + the TwTaskState it names, 0: none */

  TwEventType  **type_pages;    /* MAX_TYPE_PAGES slots */
  guint          n_types;
  GHashTable    *type_ids;      /* name → index + 1 */

  TwTask       **task_pages;    /* MAX_TASK_PAGES slots */
  guint          n_tasks;
  GHashTable    *task_ids;      /* source id → index + 1 */

  /* CPUs of named hosts (tw_trace_add_host_cpu): pages that never move, so the main
   * thread reads them while the live poll thread adds CPUs */
  TwCpuHost    **cpu_host_pages; /* CPU_HOST_PAGES slots, NULL until a host CPU is added */
  GHashTable    *host_cpu_ids;   /* "host\ncpu" → store CPU + 1 */
  GHashTable    *hosts;          /* interned host names */
  guint          next_host_cpu;

  GHashTable    *metadata;
  GBytes        *state_image;    /* _tw_trace_set_state_image, or NULL */

  /* _tw_trace_set_chunk_check: each chunk checked when first read */
  TwChunkCheckFunc chunk_check;
  gpointer       chunk_check_data;
  GDestroyNotify chunk_check_destroy;
  GMutex         check_lock;
  gint          *chunk_state;
  TwTraceRewriteFunc rewrite_func;  /* tw_trace_set_rewrite_func */
  gpointer       rewrite_data;    /* CHUNK_UNCHECKED, CHUNK_GOOD or CHUNK_REPLACED */
  TwEventChunk **replacements;   /* for chunks that failed their check */
};

enum {
  CHUNK_UNCHECKED = 0,
  CHUNK_GOOD,
  CHUNK_REPLACED,
};

G_DEFINE_FINAL_TYPE (TwTrace, tw_trace, G_TYPE_OBJECT)

G_STATIC_ASSERT (COLUMNS_BYTES % HUGE_PAGE == 0);
G_STATIC_ASSERT (TW_CHUNK_CPU_OFFSET + TW_CHUNK_SIZE * 2 == COLUMNS_BYTES);

static gpointer
map_or_die (gsize size)
{
  gpointer p = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (p == MAP_FAILED)
    g_error ("tw-trace: out of memory mapping %" G_GSIZE_FORMAT " bytes", size);
  return p;
}

/*
 * Freed huge-page column mappings are kept for the next trace of the process (closing a
 * trace and opening another, reloading, the next run of a benchmark): fresh memory is
 * the main cost of ingest on virtual machines (tw-pages.h). At most a quarter of the
 * machine's memory; kept pages are advised MADV_FREE (only rows below a chunk's count
 * are ever read, so pages the kernel takes back and returns zeroed are as good).
 */
static TwPageSlot column_slots[4096];
static TwPagePool column_pool = TW_PAGE_POOL_INIT (column_slots, 0, 4, TRUE);

/* A kept mapping when there is one (for the first chunk too: its pages are there already,
 * so nothing is cleared), else a fresh one; *huge says which kind it is. The first chunk
 * of a trace stays on small pages: a small trace touches a few of them, where huge pages
 * would have the kernel clear 6 MiB. */
static guint8 *
map_columns (gboolean *huge)
{
  gsize cap;
  guint8 *columns = tw_page_pool_take (&column_pool, COLUMNS_BYTES, &cap);

  if (columns)
    {
      *huge = TRUE;
      return columns;
    }
  columns = tw_pages_map_aligned (COLUMNS_BYTES, *huge ? TW_PAGES_HUGE : TW_PAGES_SMALL);
  if (columns == NULL)
    g_error ("tw-trace: out of memory mapping %" G_GSIZE_FORMAT " bytes", (gsize) COLUMNS_BYTES);
  return columns;
}

static void
unmap_columns (guint8   *columns,
               gboolean  huge)
{
  if (!huge || !tw_page_pool_give (&column_pool, columns, COLUMNS_BYTES, COLUMNS_BYTES))
    munmap (columns, COLUMNS_BYTES);
}

/* Payload blobs are kept too (a chunk's blob is mostly the size of its predecessor's,
 * so the next trace of the same kind finds blobs that fit), but as they are: blobs are
 * on small pages, and a small page advised MADV_FREE costs more on its next write
 * under some hypervisors than a fresh page. So this pool is small: 128 MiB stay
 * resident at most. */
static TwPageSlot blob_slots[256];
static TwPagePool blob_pool = TW_PAGE_POOL_INIT (blob_slots, (gsize) 128 << 20, 0, FALSE);

static void
blob_pool_give (guint8 *blob,
                gsize   cap)
{
  if (cap < BLOB_MIN || !tw_page_pool_give (&blob_pool, blob, cap, cap))
    munmap (blob, cap);
}

/* A chunk and what only this file needs to know about it. */
typedef struct {
  TwEventChunk  chunk;
  gboolean      huge;
  TwTraceImage *image;   /* whose slot @slot holds the chunk (borrowed), or NULL */
  guint         slot;
  gboolean      released; /* tw_trace_release_before: its pages went back to the kernel */
} ChunkAlloc;

static void
chunk_set_columns (TwEventChunk *chunk,
                   guint8       *columns)
{
  chunk->time = (guint64 *) columns;
  chunk->task = (guint32 *) (columns + TW_CHUNK_TASK_OFFSET);
  chunk->arg = (guint32 *) (columns + TW_CHUNK_ARG_OFFSET);
  chunk->payload = (guint32 *) (columns + TW_CHUNK_PAYLOAD_OFFSET);
  chunk->type = (guint16 *) (columns + TW_CHUNK_TYPE_OFFSET);
  chunk->cpu = (guint16 *) (columns + TW_CHUNK_CPU_OFFSET);
}

/* A chunk in a slot of @image: the blob is the slot's whole reservation, whose pages
 * are mapped as it grows (tw_event_chunk_reserve_blob), so it never moves. */
static TwEventChunk *
chunk_new_in_image (TwTraceImage *image,
                    gsize         blob_hint)
{
  ChunkAlloc *alloc = g_new0 (ChunkAlloc, 1);

  alloc->image = image;
  chunk_set_columns (&alloc->chunk, _tw_trace_image_take_slot (image, &alloc->slot,
                                                               &alloc->chunk.blob));
  if (blob_hint > 0)
    tw_event_chunk_reserve_blob (&alloc->chunk, blob_hint);
  return &alloc->chunk;
}

static TwEventChunk *
chunk_new (gboolean huge,
           gsize    blob_hint,
           gboolean stable_blob)
{
  ChunkAlloc *alloc = g_new0 (ChunkAlloc, 1);
  TwEventChunk *chunk = &alloc->chunk;
  guint8 *columns = map_columns (&huge);

  alloc->huge = huge;
  /* address space only (MAP_NORESERVE): pages count once touched */
  if (stable_blob)
    {
      chunk->blob = mmap (NULL, BLOB_RESERVE, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (chunk->blob == MAP_FAILED)
        g_error ("tw-trace: cannot reserve %" G_GSIZE_FORMAT " bytes of address space", BLOB_RESERVE);
      chunk->blob_cap = BLOB_RESERVE;
    }

  chunk_set_columns (chunk, columns);
  if (blob_hint > 0)
    tw_event_chunk_reserve_blob (chunk, blob_hint);
  return chunk;
}

static void
chunk_free (TwEventChunk *chunk)
{
  ChunkAlloc *alloc = (ChunkAlloc *) chunk;

  if (alloc->image && alloc->released)
    {
      /* the slot went back to the image: the placeholders are the chunk's */
      munmap (chunk->time, COLUMNS_BYTES);
      munmap (chunk->blob, BLOB_RESERVE);
      g_free (alloc);
      return;
    }
  if (alloc->image)
    {
      _tw_trace_image_give_slot (alloc->image, alloc->slot);
      g_free (alloc);
      return;
    }
  unmap_columns ((guint8 *) chunk->time, alloc->huge);
  if (chunk->blob)
    blob_pool_give (chunk->blob, chunk->blob_cap);
  g_free (alloc);
}

static gsize
round_to_page (gsize size)
{
  gsize page = 4096;

  return (size + page - 1) & ~(page - 1);
}

/**
 * tw_event_chunk_reserve_blob:
 * @needed: bytes the blob must hold
 *
 * Grows the payload blob, doubling, with mremap: the pages move, nothing is copied.
 * A blob in a trace image never moves (its slot reserves 4 GiB), so it grows by a
 * thirty-second (at least 64 KiB) instead: a chunk starts with the previous chunk's
 * blob size, and doubling when it needs a few bytes more had the helper populate
 * (allocate and clear) twice the shared memory the payloads take, a third of its kernel
 * time on a big trace.dat; the more calls growing by little takes cost far less.
 */
void
tw_event_chunk_reserve_blob (TwEventChunk *chunk,
                             gsize         needed)
{
  gsize cap;
  gsize old_cap = chunk->blob_cap;
  guint8 *blob;

  if (needed <= chunk->blob_cap)
    return;

  cap = round_to_page (MAX (MAX (needed, chunk->blob_cap * 2), BLOB_MIN));
  if (((ChunkAlloc *) chunk)->image)
    {
      cap = round_to_page (MAX (needed, old_cap + MAX (old_cap / 32, BLOB_MIN)));
      if (needed > BLOB_RESERVE)
        g_error ("tw-trace: a chunk's payloads outgrow %" G_GSIZE_FORMAT " bytes", BLOB_RESERVE);
      chunk->blob_cap = MIN (cap, BLOB_RESERVE);
      _tw_trace_image_grow_blob (((ChunkAlloc *) chunk)->image, ((ChunkAlloc *) chunk)->slot,
                                 old_cap, chunk->blob_cap);
      return;
    }
  if ((blob = tw_page_pool_take (&blob_pool, cap, &cap)) != NULL)
    {
      /* Kept pages are mapped already: copying what the blob holds into them costs
       * less than mapping fresh ones. */
      if (chunk->blob)
        {
          memcpy (blob, chunk->blob, chunk->blob_len);
          blob_pool_give (chunk->blob, chunk->blob_cap);
        }
      chunk->blob = blob;
      chunk->blob_cap = cap;
      return;
    }
  if (chunk->blob == NULL)
    blob = map_or_die (cap);
  else if ((blob = mremap (chunk->blob, chunk->blob_cap, cap, MREMAP_MAYMOVE)) == MAP_FAILED)
    g_error ("tw-trace: out of memory growing a payload blob to %" G_GSIZE_FORMAT " bytes", cap);
  chunk->blob = blob;
  chunk->blob_cap = cap;
  /* a big blob is a big trace's: first touch of small pages costs as much as the rest of
   * a binary reader's ingest on virtual machines (as for the columns) */
  if (cap >= 2 * HUGE_PAGE)
    tw_pages_advise_huge (blob, cap);
  /* the new pages will be written: map them all in one call */
  tw_pages_populate (blob + old_cap, cap - old_cap);
}

static void
tw_trace_finalize (GObject *object)
{
  TwTrace *self = (TwTrace *)object;

  for (guint i = 0; i < self->n_chunks; i++)
    chunk_free (self->chunks[i]);
  g_free (self->chunks);
  g_clear_pointer (&self->image, tw_trace_image_unref);
  g_clear_pointer (&self->state_image, g_bytes_unref);
  for (guint i = 0; self->replacements && i < self->n_chunks; i++)
    if (self->replacements[i])
      {
        g_free (self->replacements[i]->time);
        g_free (self->replacements[i]);
      }
  g_free (self->replacements);
  g_free (self->chunk_state);
  if (self->chunk_check_destroy)
    self->chunk_check_destroy (self->chunk_check_data);
  g_mutex_clear (&self->check_lock);

  for (guint i = 0; i < MAX_STR_PAGES && self->str_pages[i]; i++)
    g_free (self->str_pages[i]);
  for (guint i = 0; i < self->n_types; i++)
    {
      TwEventType *type = &self->type_pages[i >> TYPE_PAGE_SHIFT][i & ((1u << TYPE_PAGE_SHIFT) - 1)];
      g_free (type->fields);
      g_free (type->offsets);
    }
  for (guint i = 0; i < MAX_TYPE_PAGES && self->type_pages[i]; i++)
    g_free (self->type_pages[i]);
  for (guint i = 0; i < MAX_TASK_PAGES && self->task_pages[i]; i++)
    g_free (self->task_pages[i]);
  g_free (self->str_pages);
  g_free (self->type_pages);
  g_free (self->task_pages);

  g_clear_pointer (&self->string_chunk, g_string_chunk_free);
  g_clear_pointer (&self->restored, g_free);
  g_clear_pointer (&self->string_ids, g_hash_table_unref);
  g_clear_pointer (&self->task_states, g_array_unref);
  g_clear_pointer (&self->type_ids, g_hash_table_unref);
  g_clear_pointer (&self->task_ids, g_hash_table_unref);
  if (self->cpu_host_pages)
    for (guint i = 0; i < CPU_HOST_PAGES; i++)
      g_free (self->cpu_host_pages[i]);
  g_free (self->cpu_host_pages);
  g_clear_pointer (&self->host_cpu_ids, g_hash_table_unref);
  g_clear_pointer (&self->hosts, g_hash_table_unref);
  g_clear_pointer (&self->metadata, g_hash_table_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (tw_trace_parent_class)->finalize (object);
}

static void
tw_trace_class_init (TwTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_trace_finalize;
}

static void
tw_trace_init (TwTrace *self)
{
  g_mutex_init (&self->lock);
  g_mutex_init (&self->check_lock);
  self->chunks = g_new0 (TwEventChunk *, MAX_CHUNKS);
  self->str_pages = g_new0 (const char **, MAX_STR_PAGES);
  self->max_strings = MAX_STRINGS;
  self->full_id = G_MAXUINT32;
  self->type_pages = g_new0 (TwEventType *, MAX_TYPE_PAGES);
  self->task_pages = g_new0 (TwTask *, MAX_TASK_PAGES);
  self->string_chunk = g_string_chunk_new (64 * 1024);
  self->string_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->task_states = g_array_new (FALSE, TRUE, sizeof (guint8));
  self->type_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->task_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/**
 * tw_trace_new:
 *
 * Returns: (transfer full): an empty, growing trace
 */
TwTrace *
tw_trace_new (void)
{
  return g_object_new (TW_TYPE_TRACE, NULL);
}

/* ---------------------------------------------------------------- metadata */

void
tw_trace_set_metadata (TwTrace    *self,
                       const char *key,
                       const char *value)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (key != NULL);

  g_mutex_lock (&self->lock);
  if (value == NULL)
    g_hash_table_remove (self->metadata, key);
  else
    g_hash_table_replace (self->metadata, g_strdup (key), g_strdup (value));
  g_mutex_unlock (&self->lock);
}

/**
 * tw_trace_dup_metadata:
 *
 * Returns: (transfer full) (nullable): the value, such as "format", "path", "clock"
 */
char *
tw_trace_dup_metadata (TwTrace    *self,
                       const char *key)
{
  char *ret;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  g_mutex_lock (&self->lock);
  ret = g_strdup (g_hash_table_lookup (self->metadata, key));
  g_mutex_unlock (&self->lock);
  return ret;
}

/**
 * tw_trace_dup_metadata_keys:
 *
 * Returns: (transfer full): the keys, sorted
 */
GStrv
tw_trace_dup_metadata_keys (TwTrace *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GList) keys = NULL;
  GStrv ret;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  g_mutex_lock (&self->lock);
  keys = g_list_sort (g_hash_table_get_keys (self->metadata), (GCompareFunc) g_strcmp0);
  for (const GList *l = keys; l; l = l->next)
    g_strv_builder_add (builder, l->data);
  ret = g_strv_builder_end (builder);
  g_mutex_unlock (&self->lock);
  return ret;
}

/* ---------------------------------------------------------------- strings */

static void hash_restored_strings (TwTrace *self);

static guint32
add_string_locked (TwTrace    *self,
                   const char *str)
{
  guint id = self->n_strings;
  const char *copy;

  if (self->str_pages[id >> STR_PAGE_SHIFT] == NULL)
    self->str_pages[id >> STR_PAGE_SHIFT] = g_new0 (const char *, 1u << STR_PAGE_SHIFT);
  copy = g_string_chunk_insert (self->string_chunk, str);
  self->str_pages[id >> STR_PAGE_SHIFT][id & ((1u << STR_PAGE_SHIFT) - 1)] = copy;
  g_hash_table_insert (self->string_ids, (gpointer) copy, GUINT_TO_POINTER (id + 1));
  g_atomic_int_set (&self->n_strings, id + 1);
  return id;
}

/* A live target sending unique messages fills the table in about a minute at 1 M/s. The
 * session goes on: a new string then reads as FULL_STRING, kept in the table's last
 * slot (or found there, in a full table restored from an image), and is counted. */
static guint32
string_table_full (TwTrace *self)
{
  gpointer found;

  self->n_strings_dropped++;
  if G_LIKELY (self->full_id != G_MAXUINT32)
    return self->full_id;
  g_message ("tw-trace: more than %u distinct strings: the others read as “%s”",
             self->max_strings - 1, FULL_STRING);
  if ((found = g_hash_table_lookup (self->string_ids, FULL_STRING)))
    self->full_id = GPOINTER_TO_UINT (found) - 1;
  else if (self->n_strings < self->max_strings)
    self->full_id = add_string_locked (self, FULL_STRING);
  else
    self->full_id = self->n_strings - 1;
  return self->full_id;
}

static guint32
intern_string_locked (TwTrace    *self,
                      const char *str)
{
  gpointer found;

  if G_UNLIKELY (self->restored_unhashed)
    hash_restored_strings (self);
  found = g_hash_table_lookup (self->string_ids, str);
  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  if G_UNLIKELY (self->n_strings + 1 >= self->max_strings)
    return string_table_full (self);
  return add_string_locked (self, str);
}

/**
 * tw_trace_intern_string:
 *
 * Returns: the id of @str in the string table, adding it once
 */
guint32
tw_trace_intern_string (TwTrace    *self,
                        const char *str)
{
  guint32 id;

  g_return_val_if_fail (TW_IS_TRACE (self), 0);
  g_return_val_if_fail (str != NULL, 0);

  g_mutex_lock (&self->lock);
  id = intern_string_locked (self, str);
  g_mutex_unlock (&self->lock);
  return id;
}

/**
 * tw_trace_get_n_strings_dropped:
 *
 * Returns: how many strings were not kept because the string table was full (they
 *   read as "(string table full)")
 */
guint64
tw_trace_get_n_strings_dropped (TwTrace *self)
{
  guint64 n;

  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  g_mutex_lock (&self->lock);
  n = self->n_strings_dropped;
  g_mutex_unlock (&self->lock);
  return n;
}

/* Tests fill a smaller table. */
void
_tw_trace_set_max_strings (TwTrace *self,
                           guint    max_strings)
{
  g_return_if_fail (max_strings >= 2 && max_strings <= MAX_STRINGS);
  self->max_strings = max_strings;
}

/**
 * tw_trace_get_string:
 *
 * Returns: (transfer none) (nullable): the string, valid as long as @self
 */
const char *
tw_trace_get_string (TwTrace *self,
                     guint32  id)
{
  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  if (id >= (guint) g_atomic_int_get (&self->n_strings))
    return NULL;
  return self->str_pages[id >> STR_PAGE_SHIFT][id & ((1u << STR_PAGE_SHIFT) - 1)];
}

static void
set_task_state_locked (TwTrace     *self,
                       guint32      id,
                       TwTaskState  state)
{
  if (id >= self->task_states->len)
    g_array_set_size (self->task_states, id + 1);
  g_array_index (self->task_states, guint8, id) = 1 + state;
}

/**
 * tw_trace_intern_task_state:
 * @name: how the source spells a task state ("R+", "S")
 * @state: the canonical state @name stands for
 *
 * Interns @name as tw_trace_intern_string() does and records the state it names. A
 * reader gives a switch's `prev_state` field such a string (tw-types.h): the models read
 * the state, users and exports the source's own spelling.
 *
 * Returns: the id of @name in the string table
 */
guint32
tw_trace_intern_task_state (TwTrace     *self,
                            const char  *name,
                            TwTaskState  state)
{
  guint32 id;

  g_return_val_if_fail (TW_IS_TRACE (self), 0);
  g_return_val_if_fail (name != NULL, 0);

  g_mutex_lock (&self->lock);
  id = intern_string_locked (self, name);
  set_task_state_locked (self, id, state);
  g_mutex_unlock (&self->lock);
  return id;
}

/**
 * tw_trace_get_string_task_state:
 * @id: a string id
 *
 * Returns: the state the string names, given by tw_trace_intern_task_state(), or
 *   %TW_TASK_STATE_UNKNOWN when the string was never given one
 */
TwTaskState
tw_trace_get_string_task_state (TwTrace *self,
                                guint32  id)
{
  TwTaskState state = TW_TASK_STATE_UNKNOWN;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_TASK_STATE_UNKNOWN);

  g_mutex_lock (&self->lock);
  if (id < self->task_states->len && g_array_index (self->task_states, guint8, id) != 0)
    state = g_array_index (self->task_states, guint8, id) - 1;
  g_mutex_unlock (&self->lock);
  return state;
}

static const char *
intern_locked (TwTrace    *self,
               const char *str)
{
  if (str == NULL)
    return NULL;
  /* a restored string is the table's own already (tables restored from an image name
   * their strings so, without hashing them all) */
  if (self->restored && str >= self->restored && str < self->restored + self->restored_len &&
      (str == self->restored || str[-1] == '\0'))
    return str;
  return tw_trace_get_string (self, intern_string_locked (self, str));
}

/* ---------------------------------------------------------------- types */

static guint
field_width (TwFieldType type)
{
  switch (type)
    {
    case TW_FIELD_U8:     return 1;
    case TW_FIELD_U16:    return 2;
    case TW_FIELD_U32:
    case TW_FIELD_I32:
    case TW_FIELD_STRING: return 4;
    case TW_FIELD_U64:
    case TW_FIELD_I64:
    case TW_FIELD_F64:    return 8;
    default:              g_return_val_if_reached (8);
    }
}

static TwEventType *
type_at (TwTrace *self,
         guint    index)
{
  return &self->type_pages[index >> TYPE_PAGE_SHIFT][index & ((1u << TYPE_PAGE_SHIFT) - 1)];
}

/**
 * tw_trace_add_event_type:
 * @name: the raw name as the source spells it
 * @family: (nullable): the source's grouping ("sched", "task", ...)
 * @fields: (array length=n_fields): the schema
 *
 * Adds a type, or returns the existing type of that name when its schema is the same.
 *
 * Returns: the type index, or %TW_TYPE_NONE with @error set
 */
guint16
tw_trace_add_event_type (TwTrace            *self,
                         const char         *name,
                         const char         *family,
                         TwEventKind         kind,
                         const TwFieldSpec  *fields,
                         guint               n_fields,
                         GError            **error)
{
  TwEventType *type;
  gpointer found;
  guint index;
  guint offset;
  gboolean any_optional = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_TYPE_NONE);
  g_return_val_if_fail (name != NULL, TW_TYPE_NONE);
  g_return_val_if_fail (n_fields == 0 || fields != NULL, TW_TYPE_NONE);

  g_mutex_lock (&self->lock);

  if ((found = g_hash_table_lookup (self->type_ids, name)))
    {
      index = GPOINTER_TO_UINT (found) - 1;
      type = type_at (self, index);
      g_mutex_unlock (&self->lock);
      if (type->n_fields != n_fields || type->kind != kind)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "event type “%s” declared twice with different fields", name);
          return TW_TYPE_NONE;
        }
      return index;
    }

  if (n_fields > MAX_FIELDS)
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "event type “%s” has %u fields; at most %u are supported",
                   name, n_fields, MAX_FIELDS);
      return TW_TYPE_NONE;
    }

  index = self->n_types;
  if (index >= TW_TYPE_NONE)
    {
      g_mutex_unlock (&self->lock);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "too many event types (more than %u)", TW_TYPE_NONE);
      return TW_TYPE_NONE;
    }
  if (self->type_pages[index >> TYPE_PAGE_SHIFT] == NULL)
    self->type_pages[index >> TYPE_PAGE_SHIFT] = g_new0 (TwEventType, 1u << TYPE_PAGE_SHIFT);

  type = type_at (self, index);
  type->name = intern_locked (self, name);
  type->family = intern_locked (self, family);
  type->kind = kind;
  type->n_fields = n_fields;
  type->fields = g_new0 (TwFieldSpec, MAX (n_fields, 1));
  type->offsets = g_new0 (guint16, MAX (n_fields, 1));

  for (guint i = 0; i < n_fields; i++)
    any_optional |= (fields[i].flags & TW_FIELD_FLAG_OPTIONAL) != 0;
  type->presence_bytes = any_optional ? (n_fields + 7) / 8 : 0;

  offset = type->presence_bytes;
  for (guint i = 0; i < n_fields; i++)
    {
      type->fields[i].name = intern_locked (self, fields[i].name);
      type->fields[i].type = fields[i].type;
      type->fields[i].flags = fields[i].flags;
      type->offsets[i] = offset;
      offset += field_width (fields[i].type);
    }
  type->payload_size = offset;

  g_hash_table_insert (self->type_ids, (gpointer) type->name, GUINT_TO_POINTER (index + 1));
  g_atomic_int_set (&self->n_types, index + 1);
  g_mutex_unlock (&self->lock);

  return index;
}

guint
tw_trace_get_n_event_types (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return g_atomic_int_get (&self->n_types);
}

/**
 * tw_trace_get_event_type:
 *
 * Returns: (transfer none) (nullable): the type, valid as long as @self
 */
const TwEventType *
tw_trace_get_event_type (TwTrace *self,
                         guint16  type)
{
  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  if (type >= (guint) g_atomic_int_get (&self->n_types))
    return NULL;
  return type_at (self, type);
}

/**
 * tw_trace_lookup_event_type:
 *
 * Returns: the index of the type named @name, or %TW_TYPE_NONE
 */
guint16
tw_trace_lookup_event_type (TwTrace    *self,
                            const char *name)
{
  gpointer found;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_TYPE_NONE);

  g_mutex_lock (&self->lock);
  found = g_hash_table_lookup (self->type_ids, name);
  g_mutex_unlock (&self->lock);
  return found ? GPOINTER_TO_UINT (found) - 1 : TW_TYPE_NONE;
}

/**
 * tw_event_type_lookup_field:
 *
 * Returns: the index of the field named @name, or -1
 */
int
tw_event_type_lookup_field (const TwEventType *type,
                            const char        *name)
{
  g_return_val_if_fail (type != NULL, -1);

  for (guint i = 0; i < type->n_fields; i++)
    if (g_strcmp0 (type->fields[i].name, name) == 0)
      return i;
  return -1;
}

void
tw_event_type_set_field (const TwEventType *type,
                         guint8            *payload,
                         guint              field,
                         const TwValue     *value)
{
  guint8 *p;

  g_return_if_fail (type != NULL);
  g_return_if_fail (field < type->n_fields);
  g_return_if_fail (value->type == type->fields[field].type);

  p = payload + type->offsets[field];
  switch (type->fields[field].type)
    {
    case TW_FIELD_U8:     { guint8 v = value->u;    memcpy (p, &v, 1); break; }
    case TW_FIELD_U16:    { guint16 v = value->u;   memcpy (p, &v, 2); break; }
    case TW_FIELD_U32:    { guint32 v = value->u;   memcpy (p, &v, 4); break; }
    case TW_FIELD_I32:    { gint32 v = value->i;    memcpy (p, &v, 4); break; }
    case TW_FIELD_STRING: { guint32 v = value->str; memcpy (p, &v, 4); break; }
    case TW_FIELD_U64:    memcpy (p, &value->u, 8); break;
    case TW_FIELD_I64:    memcpy (p, &value->i, 8); break;
    case TW_FIELD_F64:    memcpy (p, &value->f, 8); break;
    default:              g_return_if_reached ();
    }

  if (type->presence_bytes)
    payload[field / 8] |= 1u << (field % 8);
}

/**
 * tw_event_type_get_field:
 * @value: (out): the value
 *
 * Returns: %FALSE when the field is absent from this event
 */
gboolean
tw_event_type_get_field (const TwEventType *type,
                         const guint8      *payload,
                         guint              field,
                         TwValue           *value)
{
  const guint8 *p;

  g_return_val_if_fail (type != NULL, FALSE);
  g_return_val_if_fail (field < type->n_fields, FALSE);

  if (payload == NULL)
    return FALSE;
  if (type->presence_bytes && !(payload[field / 8] & (1u << (field % 8))))
    return FALSE;

  p = payload + type->offsets[field];
  value->type = type->fields[field].type;
  switch (value->type)
    {
    case TW_FIELD_U8:     value->u = p[0]; break;
    case TW_FIELD_U16:    { guint16 v; memcpy (&v, p, 2); value->u = v; break; }
    case TW_FIELD_U32:    { guint32 v; memcpy (&v, p, 4); value->u = v; break; }
    case TW_FIELD_I32:    { gint32 v;  memcpy (&v, p, 4); value->i = v; break; }
    case TW_FIELD_STRING: { guint32 v; memcpy (&v, p, 4); value->str = v; break; }
    case TW_FIELD_U64:    memcpy (&value->u, p, 8); break;
    case TW_FIELD_I64:    memcpy (&value->i, p, 8); break;
    case TW_FIELD_F64:    memcpy (&value->f, p, 8); break;
    default:              g_return_val_if_reached (FALSE);
    }
  return TRUE;
}

/* ---------------------------------------------------------------- tasks */

static TwTask *
task_at (TwTrace *self,
         guint32  index)
{
  return &self->task_pages[index >> TASK_PAGE_SHIFT][index & ((1u << TASK_PAGE_SHIFT) - 1)];
}

/**
 * tw_trace_add_task:
 * @source_id: the id as the source knows it: unique within the trace
 * @name: (nullable): the task's name
 *
 * Adds a task, or returns the task with that source id (updating its name when given).
 *
 * Returns: the task index
 */
guint32
tw_trace_add_task (TwTrace    *self,
                   const char *source_id,
                   const char *name,
                   gint64      pid,
                   gint64      tid)
{
  gpointer found;
  guint32 index;
  TwTask *task;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_TASK_NONE);
  g_return_val_if_fail (source_id != NULL, TW_TASK_NONE);

  g_mutex_lock (&self->lock);
  if ((found = g_hash_table_lookup (self->task_ids, source_id)))
    {
      index = GPOINTER_TO_UINT (found) - 1;
      if (name)
        task_at (self, index)->name = intern_locked (self, name);
      g_mutex_unlock (&self->lock);
      return index;
    }

  index = self->n_tasks;
  if ((index >> TASK_PAGE_SHIFT) >= MAX_TASK_PAGES)
    g_error ("tw-trace: more than %u tasks", MAX_TASK_PAGES << TASK_PAGE_SHIFT);
  if (self->task_pages[index >> TASK_PAGE_SHIFT] == NULL)
    self->task_pages[index >> TASK_PAGE_SHIFT] = g_new0 (TwTask, 1u << TASK_PAGE_SHIFT);

  task = task_at (self, index);
  task->source_id = intern_locked (self, source_id);
  task->name = intern_locked (self, name);
  task->pid = pid;
  task->tid = tid;
  g_hash_table_insert (self->task_ids, (gpointer) task->source_id, GUINT_TO_POINTER (index + 1));
  g_atomic_int_set (&self->n_tasks, index + 1);
  g_mutex_unlock (&self->lock);

  return index;
}

/**
 * tw_trace_lookup_task:
 *
 * Returns: the index of the task with @source_id, or %TW_TASK_NONE
 */
guint32
tw_trace_lookup_task (TwTrace    *self,
                      const char *source_id)
{
  gpointer found;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_TASK_NONE);

  g_mutex_lock (&self->lock);
  found = g_hash_table_lookup (self->task_ids, source_id);
  g_mutex_unlock (&self->lock);
  return found ? GPOINTER_TO_UINT (found) - 1 : TW_TASK_NONE;
}

guint32
tw_trace_get_n_tasks (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return g_atomic_int_get (&self->n_tasks);
}

/**
 * tw_trace_get_task:
 *
 * Returns: (transfer none) (nullable): the task, valid as long as @self
 */
const TwTask *
tw_trace_get_task (TwTrace *self,
                   guint32  task)
{
  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  if (task >= (guint) g_atomic_int_get (&self->n_tasks))
    return NULL;
  return task_at (self, task);
}

void
tw_trace_set_task_name (TwTrace    *self,
                        guint32     task,
                        const char *name)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (task < tw_trace_get_n_tasks (self));

  g_mutex_lock (&self->lock);
  task_at (self, task)->name = intern_locked (self, name);
  g_mutex_unlock (&self->lock);
}

void
tw_trace_set_task_ids (TwTrace *self,
                       guint32  task,
                       gint64   pid,
                       gint64   tid)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (task < tw_trace_get_n_tasks (self));

  task_at (self, task)->pid = pid;
  task_at (self, task)->tid = tid;
}

/**
 * tw_trace_set_task_host:
 * @host: (nullable): the machine the task runs on, when the trace holds several
 *
 * Call it before rows name the task: readers take a task's host as fixed.
 */
void
tw_trace_set_task_host (TwTrace    *self,
                        guint32     task,
                        const char *host)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (task < tw_trace_get_n_tasks (self));

  g_mutex_lock (&self->lock);
  task_at (self, task)->host = intern_locked (self, host);
  if (host && self->hosts == NULL)
    self->hosts = g_hash_table_new (g_str_hash, g_str_equal);
  if (host)
    g_hash_table_add (self->hosts, (gpointer) task_at (self, task)->host);
  g_mutex_unlock (&self->lock);
}

/* ---------------------------------------------------------------- CPUs of hosts */

static void
ensure_host_tables_locked (TwTrace *self)
{
  if (self->host_cpu_ids == NULL)
    {
      self->host_cpu_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      self->cpu_host_pages = g_new0 (TwCpuHost *, CPU_HOST_PAGES);
      if (self->hosts == NULL)
        self->hosts = g_hash_table_new (g_str_hash, g_str_equal);
    }
}

/* Store CPU @cpu is (@host, @host_cpu); @key is "host\ncpu", taken. */
static void
place_host_cpu_locked (TwTrace    *self,
                       guint       cpu,
                       const char *host,
                       guint16     host_cpu,
                       char       *key)
{
  TwCpuHost *page;

  self->next_host_cpu = MAX (self->next_host_cpu, cpu + 1);
  if ((page = self->cpu_host_pages[cpu >> CPU_HOST_PAGE_SHIFT]) == NULL)
    {
      page = g_new0 (TwCpuHost, 1u << CPU_HOST_PAGE_SHIFT);
      g_atomic_pointer_set (&self->cpu_host_pages[cpu >> CPU_HOST_PAGE_SHIFT], page);
    }
  page[cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host_cpu = host_cpu;
  g_atomic_pointer_set (&page[cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host,
                        intern_locked (self, host));
  g_hash_table_add (self->hosts, (gpointer) page[cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host);
  g_hash_table_insert (self->host_cpu_ids, key, GUINT_TO_POINTER (cpu + 1));
}

/**
 * tw_trace_add_host_cpu:
 * @host: the machine, as its traces name it (LTTng: the target's hostname)
 * @host_cpu: the CPU's number on @host
 *
 * A trace of several machines numbers their CPUs one after the other, in the order they
 * first appear: CPU 0 of host A and CPU 0 of host B are two store CPUs, each knowing
 * its host and number there (tw_trace_get_cpu_host). Adding the same pair again returns
 * the same CPU.
 *
 * Returns: the store's CPU index for (@host, @host_cpu), %TW_CPU_NONE when the trace
 *   has no CPU index left
 */
guint16
tw_trace_add_host_cpu (TwTrace    *self,
                       const char *host,
                       guint16     host_cpu)
{
  g_autofree char *key = NULL;
  gpointer found;
  guint cpu;

  g_return_val_if_fail (TW_IS_TRACE (self), TW_CPU_NONE);
  g_return_val_if_fail (host != NULL, TW_CPU_NONE);

  key = g_strdup_printf ("%s\n%u", host, host_cpu);
  g_mutex_lock (&self->lock);
  ensure_host_tables_locked (self);
  if ((found = g_hash_table_lookup (self->host_cpu_ids, key)))
    {
      g_mutex_unlock (&self->lock);
      return GPOINTER_TO_UINT (found) - 1;
    }
  /* after every CPU the trace has already, named or not */
  cpu = MAX (self->next_host_cpu, (guint) g_atomic_int_get (&self->n_cpus));
  if (cpu >= TW_CPU_NONE)
    {
      g_mutex_unlock (&self->lock);
      return TW_CPU_NONE;
    }
  place_host_cpu_locked (self, cpu, host, host_cpu, g_steal_pointer (&key));
  g_mutex_unlock (&self->lock);
  tw_trace_note_cpu (self, cpu);
  return cpu;
}

/**
 * tw_trace_set_cpu_host:
 * @cpu: a store CPU
 * @host: its machine
 * @host_cpu: its number on @host
 *
 * Gives store CPU @cpu the place (@host, @host_cpu), for a trace read back from a file
 * that kept its CPU numbers (a trace image, a CTF recording): tw_trace_add_host_cpu()
 * would number them in the order of the calls instead.
 *
 * Returns: %FALSE when @cpu has a host already or (@host, @host_cpu) is another CPU
 */
gboolean
tw_trace_set_cpu_host (TwTrace    *self,
                        guint16     cpu,
                        const char *host,
                        guint16     host_cpu)
{
  g_autofree char *key = NULL;
  gpointer found;

  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);
  g_return_val_if_fail (host != NULL && cpu != TW_CPU_NONE, FALSE);

  key = g_strdup_printf ("%s\n%u", host, host_cpu);
  g_mutex_lock (&self->lock);
  ensure_host_tables_locked (self);
  if ((found = g_hash_table_lookup (self->host_cpu_ids, key)) ||
      (self->cpu_host_pages[cpu >> CPU_HOST_PAGE_SHIFT] &&
       self->cpu_host_pages[cpu >> CPU_HOST_PAGE_SHIFT][cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host))
    {
      g_mutex_unlock (&self->lock);
      return found && GPOINTER_TO_UINT (found) - 1 == cpu;
    }
  place_host_cpu_locked (self, cpu, host, host_cpu, g_steal_pointer (&key));
  g_mutex_unlock (&self->lock);
  tw_trace_note_cpu (self, cpu);
  return TRUE;
}

/**
 * tw_trace_get_cpu_host:
 * @host_cpu: (out) (optional): the CPU's number on its host (@cpu when it has none)
 *
 * Returns: (nullable): the host @cpu belongs to (tw_trace_add_host_cpu), %NULL for a
 *   trace of one machine
 */
const char *
tw_trace_get_cpu_host (TwTrace  *self,
                       guint16   cpu,
                       guint16  *host_cpu)
{
  TwCpuHost **pages;
  TwCpuHost *page;
  const char *host = NULL;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  if (host_cpu)
    *host_cpu = cpu;
  pages = g_atomic_pointer_get (&self->cpu_host_pages);
  if (pages == NULL || cpu == TW_CPU_NONE
      || (page = g_atomic_pointer_get (&pages[cpu >> CPU_HOST_PAGE_SHIFT])) == NULL)
    return NULL;
  host = g_atomic_pointer_get (&page[cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host);
  if (host && host_cpu)
    *host_cpu = page[cpu & ((1u << CPU_HOST_PAGE_SHIFT) - 1)].host_cpu;
  return host;
}

/**
 * tw_trace_get_n_hosts:
 *
 * Returns: how many named hosts the tasks and CPUs belong to (0 for a trace of one
 *   machine)
 */
guint
tw_trace_get_n_hosts (TwTrace *self)
{
  guint n;

  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  g_mutex_lock (&self->lock);
  n = self->hosts ? g_hash_table_size (self->hosts) : 0;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * tw_trace_dup_cpu_label:
 *
 * Returns: (transfer full): "3" for a trace of one machine, "HOST/3" for CPU 3 of HOST
 *   in a trace of several; "-" for %TW_CPU_NONE
 */
char *
tw_trace_dup_cpu_label (TwTrace *self,
                        guint16  cpu)
{
  guint16 host_cpu;
  const char *host;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  if (cpu == TW_CPU_NONE)
    return g_strdup ("-");
  host = tw_trace_get_cpu_host (self, cpu, &host_cpu);
  return host ? g_strdup_printf ("%s/%u", host, host_cpu) : g_strdup_printf ("%u", cpu);
}

void
tw_trace_set_task_flags (TwTrace     *self,
                         guint32      task,
                         TwTaskFlags  flags)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (task < tw_trace_get_n_tasks (self));

  task_at (self, task)->flags = flags;
}

/**
 * tw_trace_dup_task_label:
 *
 * Returns: (transfer full): "name-tid" as ftrace prints tasks, the name alone; for a task
 *   without a name its source id, followed by " (pid N)" when its thread id is known and
 *   differs (S.Ha.R.K. contexts); "-" for %TW_TASK_NONE. A task of a named host
 *   (tw_trace_set_task_host) is "HOST: " and that.
 */
char *
tw_trace_dup_task_label (TwTrace *self,
                         guint32  task)
{
  const TwTask *t = tw_trace_get_task (self, task);

  if (t == NULL)
    return g_strdup ("-");
  if (t->host)
    {
      TwTask local = *t;
      g_autofree char *label = NULL;

      /* the label of the same task without its host, then the host before it */
      local.host = NULL;
      if (local.name && local.tid >= 0)
        label = g_strdup_printf ("%s-%" G_GINT64_FORMAT, local.name, local.tid);
      else if (local.name)
        label = g_strdup (local.name);
      else
        {
          /* sources name a host's tasks "HOST/id" so that ids of two hosts differ */
          gsize n = strlen (t->host);
          gboolean prefixed = strncmp (local.source_id, t->host, n) == 0 && local.source_id[n] == '/';

          label = g_strdup (prefixed ? local.source_id + n + 1 : local.source_id);
        }
      return g_strdup_printf ("%s: %s", t->host, label);
    }
  if (t->name && t->tid >= 0)
    return g_strdup_printf ("%s-%" G_GINT64_FORMAT, t->name, t->tid);
  if (t->name)
    return g_strdup (t->name);
  if (t->tid >= 0)
    {
      g_autofree char *tid = g_strdup_printf ("%" G_GINT64_FORMAT, t->tid);

      if (g_strcmp0 (tid, t->source_id) != 0)
        return g_strdup_printf ("%s (pid %s)", t->source_id, tid);
    }
  return g_strdup (t->source_id);
}

/* ---------------------------------------------------------------- appending */

/* Whether the rows of a store that spills held in memory (its anonymous chunks not released,
 * payloads as written) are past what big arrays may hold (tw-huge-array.c). */
static gboolean
over_memory_budget (TwTrace *self)
{
  gsize size = 0;

  for (guint c = self->n_released; c < self->n_chunks; c++)
    if (((ChunkAlloc *) self->chunks[c])->image == NULL)
      size += (gsize) self->chunks[c]->n * 24 + self->chunks[c]->blob_len;
  return size > tw_huge_array_get_memory_budget ();
}

/**
 * tw_trace_begin_append:
 *
 * Returns: (transfer none): the chunk to push into, with room for at least one row.
 *   Call tw_trace_end_append() to publish what was pushed.
 */
TwEventChunk *
tw_trace_begin_append (TwTrace *self)
{
  TwEventChunk *chunk;
  gsize blob_hint;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);
  g_return_val_if_fail (!self->sealed, NULL);

  if (self->n_chunks > 0)
    {
      chunk = self->chunks[self->n_chunks - 1];
      if (chunk->n < TW_CHUNK_SIZE)
        return chunk;
      tw_trace_end_append (self);
    }

  if (self->n_chunks == MAX_CHUNKS)
    g_error ("tw-trace: more than %" G_GUINT64_FORMAT " events",
             (guint64) MAX_CHUNKS << TW_CHUNK_SHIFT);

  /* The previous chunk's payload size is the best guess for this one's. */
  blob_hint = self->n_chunks > 0 ? self->chunks[self->n_chunks - 1]->blob_len : 0;
  if (self->spills && self->image == NULL && over_memory_budget (self))
    {
      self->spills = FALSE;
      self->image = _tw_trace_image_new_spilled ();
    }
  if (self->image)
    chunk = chunk_new_in_image (self->image, blob_hint);
  else
    chunk = chunk_new (self->n_chunks > 0, blob_hint, self->stable_blobs);
  chunk->last_time = self->n_chunks > 0 ? self->chunks[self->n_chunks - 1]->last_time : 0;
  self->chunks[self->n_chunks] = chunk;
  g_atomic_int_set (&self->n_chunks, self->n_chunks + 1);

  return chunk;
}

/**
 * tw_trace_set_stable_payloads:
 *
 * For a trace written by one thread while others read it (a live session): payload
 * blobs are then reserved whole when their chunk is made (4 GiB of address space each,
 * touched pages only), so they never move. Otherwise a growing blob may move (mremap)
 * under a reader of an earlier payload of the same chunk. Call before appending.
 */
void
tw_trace_set_stable_payloads (TwTrace *self)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (self->n_chunks == 0);

  self->stable_blobs = TRUE;
}

/**
 * tw_trace_set_spills:
 *
 * For a store that may grow for hours (a live session) or past the memory the process
 * may hold (a trace read without a cache file): once the rows it holds in
 * memory pass the memory budget of big arrays (tw_huge_array_get_memory_budget(): a
 * quarter of what the process may hold), its next chunks are made in an unlinked file
 * of the cache folder, whose pages the kernel writes back and reclaims, instead of
 * anonymous memory, for which it kills the process. Rows already written stay where
 * they are; all stay readable. Only past the budget: fresh page-cache pages cost the
 * writer more than anonymous ones (0.23 against 0.14 µs a row at 1 M rows/s,
 * docs/monitor.md), and a session that fits in memory writes nothing to the disk.
 * When the folder cannot be written, or the disk fills, the rest stays in memory.
 * Call before appending.
 */
void
tw_trace_set_spills (TwTrace *self)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (self->n_chunks == 0);

  self->spills = TRUE;
}

/**
 * tw_trace_set_rewrite_func:
 * @func: (nullable): what tw_trace_begin_rewrite() calls
 *
 * For a trace read in one thread while another shows the rows published so far (a
 * file shown as it loads): the writer calls @func before it rewrites or moves rows it
 * published (sorting them at tw_trace_seal(), a reader's second pass over the times),
 * and @func returns once the other thread no longer reads them.
 */
void
tw_trace_set_rewrite_func (TwTrace            *self,
                           TwTraceRewriteFunc  func,
                           gpointer            user_data)
{
  g_return_if_fail (TW_IS_TRACE (self));

  self->rewrite_func = func;
  self->rewrite_data = user_data;
}

/**
 * tw_trace_begin_rewrite:
 *
 * Says that the writer is about to change rows it published: see
 * tw_trace_set_rewrite_func().
 */
void
tw_trace_begin_rewrite (TwTrace *self)
{
  g_return_if_fail (TW_IS_TRACE (self));

  if (self->rewrite_func)
    self->rewrite_func (self, self->rewrite_data);
}

/**
 * tw_trace_end_append:
 *
 * Publishes the rows pushed since tw_trace_begin_append() to readers.
 */
void
tw_trace_end_append (TwTrace *self)
{
  TwEventChunk *last;
  guint64 n;

  g_return_if_fail (TW_IS_TRACE (self));

  if (self->n_chunks == 0)
    return;

  last = self->chunks[self->n_chunks - 1];
  n = ((guint64) (self->n_chunks - 1) << TW_CHUNK_SHIFT) + last->n;
  if (last->max_cpu_plus_one > self->n_cpus)
    g_atomic_int_set (&self->n_cpus, last->max_cpu_plus_one);

  /* 64-bit publication: a release fence, then a plain aligned store. */
  __atomic_store_n (&self->n_events, n, __ATOMIC_RELEASE);
}

/**
 * tw_trace_append:
 * @payload: (nullable): packed payload of the type's payload_size, or %NULL when the
 *   type has no fields
 *
 * Appends one event. Rows may arrive out of time order; tw_trace_seal() sorts them.
 */
void
tw_trace_append (TwTrace      *self,
                 guint64       time_ns,
                 guint16       cpu,
                 guint16       type,
                 guint32       task,
                 guint32       arg,
                 const guint8 *payload)
{
  const TwEventType *t = tw_trace_get_event_type (self, type);
  TwEventChunk *chunk;

  g_return_if_fail (t != NULL);
  g_return_if_fail (payload != NULL || t->payload_size == 0);

  chunk = tw_trace_begin_append (self);
  tw_event_chunk_push (chunk, time_ns, cpu, type, task, arg, payload, t->payload_size);
  tw_trace_end_append (self);
}

/**
 * tw_trace_note_cpu:
 *
 * Makes the trace have at least @cpu + 1 CPUs, for CPUs known from a header even when
 * no event names them.
 */
void
tw_trace_note_cpu (TwTrace *self,
                   guint16  cpu)
{
  g_return_if_fail (TW_IS_TRACE (self));

  if (cpu != TW_CPU_NONE && cpu >= self->n_cpus)
    g_atomic_int_set (&self->n_cpus, cpu + 1);
}

typedef struct {
  guint64 time;
  guint64 index;
} SortKey;

static int
sort_key_compare (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const SortKey *ka = a;
  const SortKey *kb = b;

  if (ka->time != kb->time)
    return ka->time < kb->time ? -1 : 1;
  return ka->index < kb->index ? -1 : (ka->index > kb->index);
}

static gboolean
needs_sort (TwTrace *self)
{
  for (guint c = 0; c < self->n_chunks; c++)
    {
      const TwEventChunk *chunk = self->chunks[c];

      if (chunk->unsorted)
        return TRUE;
      if (c > 0 && chunk->n > 0 && chunk->time[0] < self->chunks[c - 1]->last_time)
        return TRUE;
    }
  return FALSE;
}

/* Stable sort by time: build keys, sort them, and copy the rows into fresh chunks. */
static gboolean
sort_rows (TwTrace       *self,
           GCancellable  *cancellable,
           GError       **error)
{
  guint64 n = self->n_events;
  g_autofree SortKey *keys = g_new (SortKey, MAX (n, 1));
  TwEventChunk **old = self->chunks;
  guint n_old = self->n_chunks;

  for (guint64 i = 0; i < n; i++)
    {
      keys[i].time = old[i >> TW_CHUNK_SHIFT]->time[i & TW_CHUNK_MASK];
      keys[i].index = i;
    }
  g_qsort_with_data (keys, n, sizeof *keys, sort_key_compare, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  self->chunks = g_new0 (TwEventChunk *, MAX_CHUNKS);
  self->n_chunks = 0;
  self->n_events = 0;

  for (guint64 i = 0; i < n; i++)
    {
      guint64 src = keys[i].index;
      const TwEventChunk *from = old[src >> TW_CHUNK_SHIFT];
      guint row = src & TW_CHUNK_MASK;
      const TwEventType *type = type_at (self, from->type[row]);
      TwEventChunk *to = tw_trace_begin_append (self);
      const guint8 *payload = from->payload[row] == TW_PAYLOAD_NONE ? NULL
                              : from->blob + from->payload[row];

      tw_event_chunk_push (to, from->time[row], from->cpu[row], from->type[row],
                           from->task[row], from->arg[row], payload,
                           payload ? type->payload_size : 0);
    }
  tw_trace_end_append (self);

  for (guint c = 0; c < n_old; c++)
    chunk_free (old[c]);
  g_free (old);

  return TRUE;
}

/**
 * tw_trace_seal:
 *
 * Ends loading: sorts rows by time when they arrived out of order (stable, so equal
 * times keep file order) and trims blobs. A live trace is never sealed.
 *
 * Returns: %FALSE when cancelled
 */
gboolean
tw_trace_seal (TwTrace       *self,
               GCancellable  *cancellable,
               GError       **error)
{
  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);
  g_return_val_if_fail (!self->sealed, FALSE);

  tw_trace_end_append (self);

  if (needs_sort (self))
    {
      tw_trace_begin_rewrite (self);
      if (!sort_rows (self, cancellable, error))
        return FALSE;
    }

  for (guint c = 0; c < self->n_chunks; c++)
    {
      TwEventChunk *chunk = self->chunks[c];

      gsize keep = round_to_page (chunk->blob_len);

      chunk->unsorted = FALSE;
      /* an image's pages stay for the next trace read into it */
      if (((ChunkAlloc *) chunk)->image)
        continue;
      if (chunk->blob && keep == 0)
        {
          munmap (chunk->blob, chunk->blob_cap);
          chunk->blob = NULL;
          chunk->blob_cap = 0;
        }
      else if (chunk->blob && keep < chunk->blob_cap)
        {
          munmap (chunk->blob + keep, chunk->blob_cap - keep);
          chunk->blob_cap = keep;
        }
    }

  self->sealed = TRUE;
  return TRUE;
}

gboolean
tw_trace_is_sealed (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);

  return self->sealed;
}

/* ---------------------------------------------------------------- reading */

guint64
tw_trace_get_n_events (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return __atomic_load_n (&self->n_events, __ATOMIC_ACQUIRE);
}

guint
tw_trace_get_n_cpus (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return g_atomic_int_get (&self->n_cpus);
}

guint
tw_trace_get_n_chunks (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return (tw_trace_get_n_events (self) + TW_CHUNK_MASK) >> TW_CHUNK_SHIFT;
}

/* What a chunk that failed its check reads as: as many rows, all of type 0 at the time
 * its index gave as its last, naming no task, CPU or payload. The views stay in range;
 * the damage shows as rows of nothing. */
static TwEventChunk *
neutral_chunk (const TwEventChunk *chunk)
{
  ChunkAlloc *alloc = g_new0 (ChunkAlloc, 1);
  TwEventChunk *neutral = &alloc->chunk;
  guint n = chunk->n;
  guint8 *columns = g_malloc ((gsize) MAX (n, 1) * 24);

  alloc->slot = _tw_event_chunk_get_slot_any (chunk);
  neutral->time = (guint64 *) (gpointer) columns;
  neutral->task = (guint32 *) (gpointer) (columns + (gsize) n * 8);
  neutral->arg = neutral->task + n;
  neutral->payload = neutral->arg + n;
  neutral->type = (guint16 *) (gpointer) (neutral->payload + n);
  neutral->cpu = neutral->type + n;
  for (guint i = 0; i < n; i++)
    {
      neutral->time[i] = chunk->last_time;
      neutral->task[i] = TW_TASK_NONE;
      neutral->arg[i] = 0;
      neutral->payload[i] = TW_PAYLOAD_NONE;
      neutral->type[i] = 0;
      neutral->cpu[i] = TW_CPU_NONE;
    }
  neutral->n = n;
  neutral->last_time = chunk->last_time;
  return neutral;
}

static const TwEventChunk *
checked_chunk (TwTrace *self,
               guint    c)
{
  gint state = g_atomic_int_get (&self->chunk_state[c]);

  if G_LIKELY (state == CHUNK_GOOD)
    return self->chunks[c];
  if (state == CHUNK_UNCHECKED)
    {
      g_mutex_lock (&self->check_lock);
      state = self->chunk_state[c];
      if (state == CHUNK_UNCHECKED)
        {
          if (self->chunk_check (self, self->chunks[c], c, self->chunk_check_data))
            state = CHUNK_GOOD;
          else
            {
              self->replacements[c] = neutral_chunk (self->chunks[c]);
              state = CHUNK_REPLACED;
            }
          g_atomic_int_set (&self->chunk_state[c], state);
        }
      g_mutex_unlock (&self->check_lock);
    }
  return state == CHUNK_GOOD ? self->chunks[c] : self->replacements[c];
}

/* Chunk @c as readers may see it: checked first when the trace came from an untrusted
 * file (tw-trace-cache.c). */
static inline const TwEventChunk *
chunk_at (TwTrace *self,
          guint    c)
{
  if G_LIKELY (self->chunk_check == NULL)
    return self->chunks[c];
  return checked_chunk (self, c);
}

/**
 * _tw_trace_set_chunk_check:
 * @check: called once per chunk, before any reader sees the chunk's rows (under a lock:
 *   it must not read the trace's rows through the trace)
 *
 * For a sealed trace mapped from a file that is untrusted input: instead of checking
 * every row before the trace is used, which reads the whole file, each chunk is checked
 * when first read, and one that fails reads as rows of nothing (neutral_chunk()).
 */
void
_tw_trace_set_chunk_check (TwTrace          *self,
                           TwChunkCheckFunc  check,
                           gpointer          data,
                           GDestroyNotify    destroy)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (self->sealed && self->chunk_check == NULL);

  self->chunk_state = g_new0 (gint, MAX (self->n_chunks, 1));
  self->replacements = g_new0 (TwEventChunk *, MAX (self->n_chunks, 1));
  self->chunk_check_data = data;
  self->chunk_check_destroy = destroy;
  self->chunk_check = check;
}

/**
 * tw_trace_get_chunk:
 *
 * For hot loops over the columns. Only rows below tw_trace_get_n_events() are valid:
 * the last chunk of a growing trace may hold rows not yet published.
 *
 * Returns: (transfer none): the chunk
 */
const TwEventChunk *
tw_trace_get_chunk (TwTrace *self,
                    guint    chunk)
{
  g_return_val_if_fail (TW_IS_TRACE (self), NULL);
  g_return_val_if_fail (chunk < tw_trace_get_n_chunks (self), NULL);

  return chunk_at (self, chunk);
}

/**
 * tw_trace_get_event:
 * @event: (out): the decoded row
 *
 * Returns: %FALSE when @index is past the end
 */
gboolean
tw_trace_get_event (TwTrace *self,
                    guint64  index,
                    TwEvent *event)
{
  const TwEventChunk *chunk;
  guint row;

  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);

  if (index >= tw_trace_get_n_events (self))
    return FALSE;

  chunk = chunk_at (self, index >> TW_CHUNK_SHIFT);
  row = index & TW_CHUNK_MASK;
  event->index = index;
  event->time = chunk->time[row];
  event->task = chunk->task[row];
  event->arg = chunk->arg[row];
  event->type = chunk->type[row];
  event->cpu = chunk->cpu[row];
  event->payload = chunk->payload[row] == TW_PAYLOAD_NONE ? NULL : chunk->blob + chunk->payload[row];
  return TRUE;
}

guint64
tw_trace_get_time (TwTrace *self,
                   guint64  index)
{
  g_return_val_if_fail (TW_IS_TRACE (self), TW_TIME_NONE);
  g_return_val_if_fail (index < tw_trace_get_n_events (self), TW_TIME_NONE);

  return chunk_at (self, index >> TW_CHUNK_SHIFT)->time[index & TW_CHUNK_MASK];
}

/**
 * tw_trace_get_first_time:
 *
 * Returns: the time of the first event, or 0 for an empty trace
 */
guint64
tw_trace_get_first_time (TwTrace *self)
{
  return tw_trace_get_n_events (self) ? tw_trace_get_time (self, 0) : 0;
}

/**
 * tw_trace_get_last_time:
 *
 * Returns: the time of the last event, or 0 for an empty trace
 */
guint64
tw_trace_get_last_time (TwTrace *self)
{
  guint64 n = tw_trace_get_n_events (self);

  return n ? tw_trace_get_time (self, n - 1) : 0;
}

/**
 * tw_trace_find_first_at_or_after:
 *
 * Binary search over the time column (chunks first, then rows).
 *
 * Returns: the index of the first event with time ≥ @time_ns, or the number of events
 */
guint64
tw_trace_find_first_at_or_after (TwTrace *self,
                                 guint64  time_ns)
{
  guint64 n = tw_trace_get_n_events (self);
  guint64 lo = 0;
  guint64 hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (chunk_at (self, mid >> TW_CHUNK_SHIFT)->time[mid & TW_CHUNK_MASK] < time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * tw_trace_find_event_at:
 *
 * Returns: the index of the event closest to @time_ns (the earlier one on a tie, the
 *   first of several at the same time), or %TW_EVENT_NONE for an empty trace
 */
guint64
tw_trace_find_event_at (TwTrace *self,
                        guint64  time_ns)
{
  guint64 n = tw_trace_get_n_events (self);
  guint64 after;
  guint64 before;
  guint64 t_after;
  guint64 t_before;

  if (n == 0)
    return TW_EVENT_NONE;

  after = tw_trace_find_first_at_or_after (self, time_ns);
  if (after == 0)
    return 0;
  if (after == n)
    return tw_trace_find_first_at_or_after (self, tw_trace_get_time (self, n - 1));

  t_after = tw_trace_get_time (self, after);
  if (t_after == time_ns)
    return after;

  t_before = tw_trace_get_time (self, after - 1);
  before = tw_trace_find_first_at_or_after (self, t_before);
  return (time_ns - t_before) <= (t_after - time_ns) ? before : after;
}

/**
 * tw_trace_find_range:
 * @first: (out): index of the first event with time ≥ @begin_ns
 * @end: (out): index one past the last event with time < @end_ns
 *
 * The events in [@begin_ns, @end_ns) are [@first, @end).
 */
void
tw_trace_find_range (TwTrace *self,
                     guint64  begin_ns,
                     guint64  end_ns,
                     guint64 *first,
                     guint64 *end)
{
  g_return_if_fail (TW_IS_TRACE (self));

  *first = tw_trace_find_first_at_or_after (self, begin_ns);
  *end = end_ns <= begin_ns ? *first : tw_trace_find_first_at_or_after (self, end_ns);
}

/**
 * tw_trace_get_event_field:
 * @value: (out): the value
 *
 * Returns: %FALSE when the event's type has no such field or this event lacks it
 */
gboolean
tw_trace_get_event_field (TwTrace       *self,
                          const TwEvent *event,
                          const char    *name,
                          TwValue       *value)
{
  const TwEventType *type = tw_trace_get_event_type (self, event->type);
  int field;

  if (type == NULL || (field = tw_event_type_lookup_field (type, name)) < 0)
    return FALSE;
  return tw_event_type_get_field (type, event->payload, field, value);
}

/**
 * tw_trace_format_value:
 *
 * Returns: (transfer full): the value as users read it
 */
char *
tw_trace_format_value (TwTrace           *self,
                       const TwFieldSpec *spec,
                       const TwValue     *value)
{
  if (spec->flags & TW_FIELD_FLAG_TASK)
    return tw_trace_dup_task_label (self, value->u);

  switch (value->type)
    {
    case TW_FIELD_U8:
    case TW_FIELD_U16:
    case TW_FIELD_U32:
    case TW_FIELD_U64:
      if (spec->flags & TW_FIELD_FLAG_HEX)
        return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", value->u);
      return g_strdup_printf ("%" G_GUINT64_FORMAT, value->u);
    case TW_FIELD_I32:
    case TW_FIELD_I64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, value->i);
    case TW_FIELD_F64:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_dtostr (buf, sizeof buf, value->f));
      }
    case TW_FIELD_STRING:
      return g_strdup (tw_trace_get_string (self, value->str));
    default:
      g_return_val_if_reached (g_strdup ("?"));
    }
}

/**
 * tw_trace_format_args:
 *
 * Returns: (transfer full): "name=value name=value" for the fields this event has
 */
char *
tw_trace_format_args (TwTrace       *self,
                      const TwEvent *event)
{
  const TwEventType *type = tw_trace_get_event_type (self, event->type);
  GString *str = g_string_new (NULL);

  if (type == NULL)
    return g_string_free (str, FALSE);

  for (guint i = 0; i < type->n_fields; i++)
    {
      g_autofree char *text = NULL;
      TwValue value;

      if (!tw_event_type_get_field (type, event->payload, i, &value))
        continue;
      text = tw_trace_format_value (self, &type->fields[i], &value);
      if (str->len)
        g_string_append_c (str, ' ');
      g_string_append_printf (str, "%s=%s", type->fields[i].name, text);
    }
  return g_string_free (str, FALSE);
}

/**
 * tw_trace_get_memory_size:
 *
 * Returns: bytes held by the event columns and payload blobs (the core store)
 */
gsize
tw_trace_get_memory_size (TwTrace *self)
{
  gsize size = 0;
  guint n_chunks = tw_trace_get_n_chunks (self);

  for (guint c = self->n_released; c < n_chunks; c++)
    size += (gsize) self->chunks[c]->n * 24 + self->chunks[c]->blob_cap;
  return size;
}

/**
 * tw_trace_release_before:
 * @index: the first row still needed
 *
 * For a live store that keeps only its last rows (a flight recorder): gives the memory
 * of every whole chunk below @index back to the kernel. The rows keep their indexes and
 * the chunks their mappings, so a reader that still looks at a released row reads
 * zeros (time 0, type 0, no task) instead of faulting; the caller reads none of them
 * again. Pages are dropped in place (MADV_DONTNEED) rather than unmapped so that no
 * pointer a reader took from tw_trace_get_chunk() ever dangles. A chunk in a slot of a
 * live store's file (tw_trace_set_spills()) gives its slot's disk blocks
 * back too, and the slot to a later chunk: its mappings become anonymous zero pages in
 * place. Chunks of another trace image (a read's, mapped by another process) and the
 * chunk being appended to are kept.
 *
 * Returns: the rows released so far (a multiple of TW_CHUNK_SIZE): rows below it read
 *   as zeros
 */
guint64
tw_trace_release_before (TwTrace *self,
                         guint64  index)
{
  guint whole;

  g_return_val_if_fail (TW_IS_TRACE (self), 0);
  g_return_val_if_fail (!self->sealed, 0);

  whole = (guint) (MIN (index, tw_trace_get_n_events (self)) >> TW_CHUNK_SHIFT);
  /* the last chunk may still be appended to, even when full */
  if (self->n_chunks > 0)
    whole = MIN (whole, self->n_chunks - 1);
  for (; self->n_released < whole; self->n_released++)
    {
      ChunkAlloc *alloc = (ChunkAlloc *) self->chunks[self->n_released];
      TwEventChunk *chunk = &alloc->chunk;

      if (alloc->released || (alloc->image && alloc->image != self->image))
        continue;
      alloc->released = TRUE;
      if (alloc->image)
        {
          _tw_trace_image_forget_slot (alloc->image, alloc->slot);
          continue;
        }
      madvise (chunk->time, COLUMNS_BYTES, MADV_DONTNEED);
      if (chunk->blob)
        madvise (chunk->blob, chunk->blob_cap, MADV_DONTNEED);
    }
  return (guint64) self->n_released << TW_CHUNK_SHIFT;
}

/* ---------------------------------------------------------------- image files */

/* The writing side: chunks made from now on live in slots of @image. The mapping side:
 * the trace keeps @image, whose mappings its chunks are. Takes a reference. */
void
_tw_trace_set_image (TwTrace      *self,
                     TwTraceImage *image)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (self->n_chunks == 0);

  g_clear_pointer (&self->image, tw_trace_image_unref);
  self->image = tw_trace_image_ref (image);
}

guint
_tw_trace_get_n_strings (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), 0);

  return g_atomic_int_get (&self->n_strings);
}

/* The image slot of a chunk made in an image. */
guint
_tw_event_chunk_get_slot_any (const TwEventChunk *chunk)
{
  return ((const ChunkAlloc *) chunk)->slot;
}

guint
_tw_event_chunk_get_slot (const TwEventChunk *chunk)
{
  const ChunkAlloc *alloc = (const ChunkAlloc *) chunk;

  g_return_val_if_fail (alloc->image != NULL, 0);

  return alloc->slot;
}

/* The mapping side: appends a chunk another process wrote, as mapped from the image set
 * with _tw_trace_set_image(). Only the last chunk may hold fewer than TW_CHUNK_SIZE rows. */
void
_tw_trace_add_mapped_chunk (TwTrace *self,
                            guint    slot,
                            guint8  *columns,
                            guint8  *blob,
                            guint    n,
                            gsize    blob_len,
                            guint16  max_cpu_plus_one,
                            guint64  last_time)
{
  ChunkAlloc *alloc;

  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (self->image != NULL && !self->sealed);
  g_return_if_fail (self->n_chunks < MAX_CHUNKS);

  alloc = g_new0 (ChunkAlloc, 1);
  alloc->image = self->image;
  alloc->slot = slot;
  chunk_set_columns (&alloc->chunk, columns);
  alloc->chunk.blob = blob;
  alloc->chunk.blob_len = blob_len;
  alloc->chunk.blob_cap = round_to_page (blob_len);
  alloc->chunk.n = n;
  alloc->chunk.max_cpu_plus_one = max_cpu_plus_one;
  alloc->chunk.last_time = last_time;
  self->chunks[self->n_chunks++] = &alloc->chunk;
  if (max_cpu_plus_one > self->n_cpus)
    self->n_cpus = max_cpu_plus_one;
}

/* Interning needs every string in the hash: those restored from an image go in at the
 * first interning, which a trace restored from an image may never see. */
static void
hash_restored_strings (TwTrace *self)
{
  self->restored_unhashed = FALSE;
  for (guint id = 0; id < self->n_strings; id++)
    g_hash_table_insert (self->string_ids, (gpointer) tw_trace_get_string (self, id),
                         GUINT_TO_POINTER (id + 1));
}

/* The mapping side: the string table of the trace an image holds, @len bytes of
 * NUL-terminated strings in id order, into an empty table. The types and tasks restored
 * next name these strings by the pointers tw_trace_get_string() gives. */
gboolean
_tw_trace_restore_strings (TwTrace    *self,
                           const char *run,
                           gsize       len)
{
  guint id = 0;
  gsize n = 0;

  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);
  g_return_val_if_fail (self->n_strings == 0 && self->restored == NULL, FALSE);

  if (len > 0 && run[len - 1] != '\0')
    return FALSE;
  /* an image is input: more strings than a table holds is a damaged one */
  for (const char *p = run; p < run + len && (p = memchr (p, '\0', run + len - p)); p++)
    if (++n > self->max_strings)
      return FALSE;
  g_mutex_lock (&self->lock);
  self->restored = g_memdup2 (run, len);
  self->restored_len = len;
  for (const char *p = self->restored; p < self->restored + len; p += strlen (p) + 1, id++)
    {
      if (self->str_pages[id >> STR_PAGE_SHIFT] == NULL)
        self->str_pages[id >> STR_PAGE_SHIFT] = g_new0 (const char *, 1u << STR_PAGE_SHIFT);
      self->str_pages[id >> STR_PAGE_SHIFT][id & ((1u << STR_PAGE_SHIFT) - 1)] = p;
    }
  self->restored_unhashed = TRUE;
  g_atomic_int_set (&self->n_strings, id);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/* The states strings name (tw_trace_intern_task_state()): 1 + state by string id, 0 for
 * none, for the image's index. */
GBytes *
_tw_trace_dup_task_states (TwTrace *self)
{
  GBytes *states;

  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  g_mutex_lock (&self->lock);
  states = g_bytes_new (self->task_states->data, self->task_states->len);
  g_mutex_unlock (&self->lock);
  return states;
}

/* The mapping side: what _tw_trace_dup_task_states() gave, after
 * _tw_trace_restore_strings(), into a trace that names no states yet. */
gboolean
_tw_trace_restore_task_states (TwTrace      *self,
                               const guint8 *states,
                               gsize         len)
{
  g_return_val_if_fail (TW_IS_TRACE (self), FALSE);
  g_return_val_if_fail (self->task_states->len == 0, FALSE);

  if (len > self->n_strings)
    return FALSE;
  for (gsize id = 0; id < len; id++)
    if (states[id] > 1 + TW_TASK_STATE_DEAD)
      return FALSE;
  g_mutex_lock (&self->lock);
  g_array_append_vals (self->task_states, states, len);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

void
_tw_trace_set_state_image (TwTrace *self,
                           GBytes  *image)
{
  g_return_if_fail (TW_IS_TRACE (self));

  g_clear_pointer (&self->state_image, g_bytes_unref);
  self->state_image = image ? g_bytes_ref (image) : NULL;
}

GBytes *
_tw_trace_get_state_image (TwTrace *self)
{
  g_return_val_if_fail (TW_IS_TRACE (self), NULL);

  return self->state_image;
}

/* The mapping side: publishes the mapped chunks as a sealed trace. */
void
_tw_trace_seal_mapped (TwTrace *self)
{
  g_return_if_fail (TW_IS_TRACE (self));
  g_return_if_fail (!self->sealed);

  tw_trace_end_append (self);
  self->sealed = TRUE;
}
