/* tw-trace-image.c: a trace's store in a file that two processes map
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tw-pages.h"
#include "tw-trace-private.h"

/*
 * The file (a memfd) is laid out as
 *
 *   [0, HEADER_BYTES)       ImageHeader, written last by the writer
 *   slot k at HEADER_BYTES + k × SLOT_BYTES:
 *     the chunk's columns   TW_TRACE_COLUMNS_BYTES, exactly as TwEventChunk lays them out
 *     the payload blob      up to TW_TRACE_BLOB_RESERVE (the file is sparse: only pages
 *                           written take memory)
 *   the index               after the last slot: a GVariant of the trace's tables and of
 *                           each chunk's slot and counts
 *
 * The writer (the reading child process) makes its chunks in slots, so the rows are
 * written once, where the other process maps them; the tables (types, tasks, strings,
 * metadata) are small and go through the index. Rows need no code here: whatever a
 * reader appends (any kind, any payload) is in the columns and the blob.
 *
 * Fresh shared memory is dear: the kernel clears each page, and with shmem on small pages
 * (huge pages for shmem are off by default) the writer takes a fault per 4 KiB. So the
 * mapping side keeps an image whose trace was closed, with its mappings, for the next read
 * (a bounded pool, as the store keeps column mappings): the next writer then writes into
 * pages that exist, mapping them in one call, and the mapping side finds them mapped.
 */

#define IMAGE_MAGIC   "TWIMAGE1"
#define INDEX_VERSION 4
#define INDEX_TYPE    "(uuaya{ss}a(uuuuu)a(uuu)a(uuxxuu)a(uutqt)aya(uqq))"
G_STATIC_ASSERT (sizeof (INDEX_TYPE) <= 64);
#define HEADER_BYTES  ((gsize) 2 << 20)
#define SLOT_BYTES    (TW_TRACE_COLUMNS_BYTES + TW_TRACE_BLOB_RESERVE)
#define MAX_INDEX     ((gsize) 1 << 30)
#define POOL_IMAGES   4

/* A new field in these must travel through the index: a changed size stops the build
 * here so that nobody adds one without looking at build_index() and restore_tables(). */
G_STATIC_ASSERT (sizeof (TwTask) == 48);
G_STATIC_ASSERT (sizeof (TwEventType) == 48);
G_STATIC_ASSERT (sizeof (TwFieldSpec) == 16);

typedef struct {
  char    magic[8];
  guint32 version;
  guint32 n_slots;        /* the writer's slots are [0, n_slots) */
  guint64 index_offset;
  guint64 index_len;
  char    index_type[64]; /* INDEX_TYPE: a helper from another build is refused */
} ImageHeader;

G_STATIC_ASSERT (sizeof (ImageHeader) == 96);

typedef struct {
  guint8  *columns;       /* NULL while not mapped in this process */
  guint8  *blob;
  gsize    blob_map;      /* bytes mapped at @blob */
  gboolean fresh;         /* writer: a slot of holes, whose blocks are allocated as written */
  gsize    anonymous_from; /* writer: the blob is anonymous memory from here on (no room) */
} Slot;

struct _TwTraceImage
{
  gatomicrefcount  ref_count;
  int              fd;
  gboolean         writer;
  GArray          *slots;       /* Slot, by index; may hold unmapped ones */
  GArray          *free_slots;  /* writer: guint indexes to take, the lowest last */
  guint            n_warm;      /* slots [0, n_warm) held pages when handed over */
  gsize            file_size;
  gboolean         opened;      /* mapping side: holds a published trace, so its pages
                                 * are known (an image whose writer died is not kept) */
  gboolean         published;   /* writer: its slots are the mapping side's now */
  gboolean         failed;      /* writer: the file had no room; see fail_over() */
};

static GMutex        pool_lock;
static TwTraceImage *pool[POOL_IMAGES];
static guint         pool_len;

static gsize
slot_offset (guint slot)
{
  return HEADER_BYTES + (gsize) slot * SLOT_BYTES;
}

static gsize
round_to_page (gsize size)
{
  return (size + 4095) & ~(gsize) 4095;
}

static gboolean
set_errno_error (GError     **error,
                 const char  *what)
{
  int saved = errno;

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "trace image: %s: %s",
               what, g_strerror (saved));
  return FALSE;
}

static gboolean
write_all (int            fd,
           gconstpointer  data,
           gsize          len,
           gsize          offset,
           GError       **error)
{
  const guint8 *p = data;

  while (len > 0)
    {
      gssize n = pwrite (fd, p, len, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return set_errno_error (error, "writing");
      p += n;
      len -= n;
      offset += n;
    }
  return TRUE;
}

static gboolean
read_all (int       fd,
          gpointer  data,
          gsize     len,
          gsize     offset,
          GError  **error)
{
  guint8 *p = data;

  while (len > 0)
    {
      gssize n = pread (fd, p, len, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return set_errno_error (error, "reading");
      if (n == 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "trace image: the file ends at offset %" G_GSIZE_FORMAT, offset);
          return FALSE;
        }
      p += n;
      len -= n;
      offset += n;
    }
  return TRUE;
}

static Slot *
slot_at (TwTraceImage *self,
         guint         slot)
{
  if (slot >= self->slots->len)
    g_array_set_size (self->slots, slot + 1);
  return &g_array_index (self->slots, Slot, slot);
}

static void
unmap_slot (TwTraceImage *self,
            guint         slot)
{
  Slot *s = slot_at (self, slot);

  if (s->columns)
    munmap (s->columns, TW_TRACE_COLUMNS_BYTES);
  if (s->blob)
    munmap (s->blob, s->blob_map);
  *s = (Slot) { NULL, NULL, 0, FALSE, 0 };
}

static TwTraceImage *
image_new (int      fd,
           gboolean writer,
           guint    n_warm)
{
  TwTraceImage *self = g_new0 (TwTraceImage, 1);
  struct stat st;

  g_atomic_ref_count_init (&self->ref_count);
  self->fd = fd;
  self->writer = writer;
  self->slots = g_array_new (FALSE, TRUE, sizeof (Slot));
  self->free_slots = g_array_new (FALSE, FALSE, sizeof (guint));
  self->n_warm = n_warm;
  self->file_size = fstat (fd, &st) == 0 ? (gsize) st.st_size : 0;
  return self;
}

static void
image_free (TwTraceImage *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    unmap_slot (self, i);
  g_array_unref (self->slots);
  g_array_unref (self->free_slots);
  close (self->fd);
  g_free (self);
}

/* Bytes of memory an image's file holds, roughly: its slots' columns and mapped blobs. */
static gsize
image_resident (TwTraceImage *self)
{
  gsize bytes = 0;

  for (guint i = 0; i < self->slots->len; i++)
    {
      const Slot *s = &g_array_index (self->slots, Slot, i);

      bytes += (s->columns ? TW_TRACE_COLUMNS_BYTES : 0) + s->blob_map;
    }
  return bytes;
}

/* An eighth of the machine's memory: shmem pages are not given back under pressure as
 * the store's MADV_FREE pools are (there is no swap to put them in). */
static gsize
pool_limit (void)
{
  long pages = sysconf (_SC_PHYS_PAGES);
  long page_size = sysconf (_SC_PAGESIZE);

  return pages > 0 && page_size > 0 ? (gsize) pages * page_size / 8 : 0;
}

/* Keeps a closed trace's image for the next read; FALSE when the pool is full. */
static gboolean
pool_give (TwTraceImage *self)
{
  gsize resident = image_resident (self);
  gsize pooled = 0;
  gboolean kept = FALSE;

  if (self->writer || !self->opened || resident == 0)
    return FALSE;
  g_mutex_lock (&pool_lock);
  for (guint i = 0; i < pool_len; i++)
    pooled += image_resident (pool[i]);
  if (pool_len < POOL_IMAGES && pooled + resident <= pool_limit ())
    {
      pool[pool_len++] = self;
      kept = TRUE;
    }
  g_mutex_unlock (&pool_lock);
  return kept;
}

/* The pooled image with the most slots, or NULL. */
static TwTraceImage *
pool_take (void)
{
  TwTraceImage *self = NULL;
  guint best = 0;

  g_mutex_lock (&pool_lock);
  for (guint i = 1; i < pool_len; i++)
    if (pool[i]->slots->len > pool[best]->slots->len)
      best = i;
  if (pool_len > 0)
    {
      self = pool[best];
      pool[best] = pool[--pool_len];
    }
  g_mutex_unlock (&pool_lock);
  return self;
}

/**
 * tw_trace_image_new:
 *
 * An image to hand to a writer process: one kept from an earlier read when there is one
 * (its pages and mappings are reused), else a new memory file.
 *
 * Returns: (transfer full) (nullable): the image, or %NULL with @error set
 */
TwTraceImage *
tw_trace_image_new (GError **error)
{
  static const ImageHeader blank = { { 0 } };
  TwTraceImage *self = pool_take ();
  int fd;

  if (self == NULL)
    {
      if ((fd = memfd_create ("tracewb-trace", MFD_CLOEXEC)) < 0)
        {
          set_errno_error (error, "memfd_create");
          return NULL;
        }
      self = image_new (fd, FALSE, 0);
    }
  self->n_warm = self->slots->len;
  self->opened = FALSE;
  /* a writer that dies leaves no header: the old one must not pass for its work */
  if (!write_all (self->fd, &blank, sizeof blank, 0, error))
    {
      image_free (self);
      return NULL;
    }
  return self;
}

int
tw_trace_image_get_fd (TwTraceImage *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->fd;
}

/**
 * tw_trace_image_get_n_warm_slots:
 *
 * Returns: how many slots of the file hold pages already (a writer reuses them first)
 */
guint
tw_trace_image_get_n_warm_slots (TwTraceImage *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_warm;
}

/**
 * tw_trace_image_new_for_fd:
 * @fd: the image's file, from tw_trace_image_get_fd() of the mapping process; the
 *   image closes it
 * @n_warm_slots: tw_trace_image_get_n_warm_slots() of the mapping process
 *
 * The writing side of an image.
 *
 * Returns: (transfer full): the image
 */
TwTraceImage *
tw_trace_image_new_for_fd (int   fd,
                           guint n_warm_slots)
{
  TwTraceImage *self;

  g_return_val_if_fail (fd >= 0, NULL);

  self = image_new (fd, TRUE, n_warm_slots);
  g_array_set_size (self->slots, n_warm_slots);
  for (guint i = n_warm_slots; i-- > 0;)
    g_array_append_val (self->free_slots, i);
  return self;
}

/**
 * tw_trace_image_new_trace:
 *
 * Returns: (transfer full): an empty trace whose chunks are made in slots of @self
 */
TwTrace *
tw_trace_image_new_trace (TwTraceImage *self)
{
  TwTrace *trace;

  g_return_val_if_fail (self != NULL && self->writer, NULL);

  trace = tw_trace_new ();
  _tw_trace_set_image (trace, self);
  return trace;
}

static gpointer
map_or_die (gsize  len,
            int    flags,
            int    fd,
            gsize  offset)
{
  gpointer p = mmap (NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | flags, fd, offset);

  if (p == MAP_FAILED)
    g_error ("tw-trace-image: cannot map %" G_GSIZE_FORMAT " bytes at %" G_GSIZE_FORMAT ": %s",
             len, offset, g_strerror (errno));
  return p;
}

/* The writer ran out of room in its file: from now on the store goes on in anonymous
 * memory (a write to a shared file page without blocks raises SIGBUS), and the image is
 * not published. */
static void
fail_over (TwTraceImage *self)
{
  if (!self->failed)
    g_debug ("trace image: no room left in the file (%s); the rest of the read stays in memory",
             g_strerror (errno));
  self->failed = TRUE;
}

static gpointer
map_anonymous_or_die (gpointer at,
                      gsize    len)
{
  gpointer p = mmap (at, len, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (at ? MAP_FIXED : 0), -1, 0);

  if (p == MAP_FAILED)
    g_error ("tw-trace-image: cannot map %" G_GSIZE_FORMAT " bytes: %s", len, g_strerror (errno));
  return p;
}

/*
 * The writer's slot for a new chunk: a warm one first, else the next in the file. A warm
 * slot (one of the mapping side's pool, [0, n_warm)) holds pages: its columns are mapped
 * populated. Any other slot is holes (new, or given back and punched): its columns'
 * blocks are allocated first (tw_pages_populate_new_file_pages()), and populated in the
 * same go except for the first chunk of a fresh file, which a small trace fills only in
 * part. A file that has no room for them has the chunk in anonymous memory (fail_over()).
 * The blob is the slot's whole reservation, mapped as it grows.
 */
guint8 *
_tw_trace_image_take_slot (TwTraceImage  *self,
                           guint         *slot,
                           guint8       **blob)
{
  gboolean warm;
  Slot *s;

  g_assert (self->writer);

  if (self->free_slots->len > 0)
    *slot = g_array_index (self->free_slots, guint, --self->free_slots->len);
  else
    *slot = self->slots->len;
  warm = *slot < self->n_warm;
  s = slot_at (self, *slot);
  /* a file on disk may be smaller than the slots want (ext4: 16 TiB, 4 000 slots) */
  if (slot_offset (*slot + 1) > self->file_size && !self->failed)
    {
      if (ftruncate (self->fd, slot_offset (*slot + 1)) == 0)
        self->file_size = slot_offset (*slot + 1);
      else
        fail_over (self);
    }
  s->fresh = !warm;
  if (self->failed && !warm)
    s->columns = map_anonymous_or_die (NULL, TW_TRACE_COLUMNS_BYTES);
  else
    s->columns = map_or_die (TW_TRACE_COLUMNS_BYTES, warm ? MAP_POPULATE : 0, self->fd,
                             slot_offset (*slot));
  if (!warm && (self->failed ||
                !tw_pages_populate_new_file_pages (*slot > 0 ? s->columns : NULL,
                                                   TW_TRACE_COLUMNS_BYTES, self->fd,
                                                   slot_offset (*slot))))
    {
      fail_over (self);
      map_anonymous_or_die (s->columns, TW_TRACE_COLUMNS_BYTES);
      s->blob = map_anonymous_or_die (NULL, TW_TRACE_BLOB_RESERVE);
      s->anonymous_from = 0;
    }
  else
    {
      s->blob = map_or_die (TW_TRACE_BLOB_RESERVE, MAP_NORESERVE, self->fd,
                            slot_offset (*slot) + TW_TRACE_COLUMNS_BYTES);
      s->anonymous_from = TW_TRACE_BLOB_RESERVE;
    }
  s->blob_map = TW_TRACE_BLOB_RESERVE;
  *blob = s->blob;
  return s->columns;
}

/* The writer's blob of @slot grows into [@from, @to): its pages in one call (kernels
 * before 5.14 refuse; the pages then fault in one by one). A fresh slot's are holes,
 * allocated in a batch (tw_pages_populate_new_file_pages()); when the file has no room
 * for them, the blob's rest, [@from, reservation), becomes anonymous memory in place
 * (the blob does not move: readers may hold pointers into it), and so does every later
 * chunk's (fail_over()). A warm slot's are populated for reading: a shared shmem mapping
 * needs no write fault to write (no dirty tracking), and read faults map a page's
 * neighbours that the file holds already in the same fault, which makes a warm image's
 * blob cost half of what MADV_POPULATE_WRITE does (100 against 200 ms/GB here). */
void
_tw_trace_image_grow_blob (TwTraceImage *self,
                           guint         slot,
                           gsize         from,
                           gsize         to)
{
  Slot *s = slot_at (self, slot);

  if (from >= s->anonymous_from)
    {
      tw_pages_populate (s->blob + from, to - from);
      return;
    }
  if (!s->fresh)
    {
#ifdef MADV_POPULATE_READ
      madvise (s->blob + from, to - from, MADV_POPULATE_READ);
#endif
      return;
    }
  if (!self->failed &&
      tw_pages_populate_new_file_pages (s->blob + from, to - from, self->fd,
                                        slot_offset (slot) + TW_TRACE_COLUMNS_BYTES + from))
    return;
  fail_over (self);
  map_anonymous_or_die (s->blob + from, s->blob_map - from);
  s->anonymous_from = from;
  tw_pages_populate (s->blob + from, to - from);
}

/**
 * tw_trace_image_is_failed:
 *
 * Returns: whether the writer's file ran out of room: part of the trace is in this
 *   process's memory only, and the image cannot be published
 */
gboolean
tw_trace_image_is_failed (TwTraceImage *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->failed;
}

/* Unmaps @slot here and gives its pages back: memory nobody would see otherwise. */
static void
release_slot (TwTraceImage *self,
              guint         slot)
{
  unmap_slot (self, slot);
  if (slot_offset (slot + 1) <= self->file_size)
    fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, slot_offset (slot),
               SLOT_BYTES);
}

/* A chunk is done with its slot. A writer's chunk gives it up (a sort makes new chunks and
 * drops the old ones) for a later chunk to take; the mapping side keeps its mappings for
 * the next trace. */
void
_tw_trace_image_give_slot (TwTraceImage *self,
                           guint         slot)
{
  if (!self->writer)
    return;
  /* a published trace's chunks go with the writer; their pages stay for the mapping side */
  if (self->published)
    {
      unmap_slot (self, slot);
      return;
    }
  release_slot (self, slot);
  g_array_append_val (self->free_slots, slot);
}

/*
 * A live store's chunk whose rows are forgotten (tw_trace_release_before(): a flight
 * recorder): its slot's blocks go back to the disk (a hole), and its mappings become
 * anonymous zero pages in place, so that a reader still holding a pointer reads zeros
 * and the pages leave the page cache. The slot is free for a later chunk, so the file
 * stays as big as the rows kept; the placeholder mappings are the chunk's now
 * (@columns of TW_TRACE_COLUMNS_BYTES, @blob of TW_TRACE_BLOB_RESERVE), to unmap when
 * it is freed.
 */
void
_tw_trace_image_forget_slot (TwTraceImage *self,
                             guint         slot)
{
  Slot *s = slot_at (self, slot);

  g_assert (self->writer && !self->published);

  if (slot_offset (slot + 1) <= self->file_size)
    fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, slot_offset (slot),
               SLOT_BYTES);
  map_anonymous_or_die (s->columns, TW_TRACE_COLUMNS_BYTES);
  map_anonymous_or_die (s->blob, s->blob_map);
  *s = (Slot) { NULL, NULL, 0, FALSE, 0 };
  g_array_append_val (self->free_slots, slot);
}

/*
 * A live store's image past its memory budget (tw_trace_set_spills()): an unlinked
 * file of the cache folder (tw_pages_open_spill_file()) whose pages the kernel writes
 * back and reclaims, instead of anonymous memory, which it cannot (no swap) and for
 * which it kills the process. %NULL when the folder cannot be written.
 */
TwTraceImage *
_tw_trace_image_new_spilled (void)
{
  int fd = tw_pages_open_spill_file ();

  if (fd < 0)
    {
      g_debug ("live store: no file in the cache folder (%s): the store stays in memory",
               g_strerror (errno));
      return NULL;
    }
  return tw_trace_image_new_for_fd (fd, 0);
}

/* The mapping side: the slots @trace does not use (an earlier, bigger trace's, or chunks
 * a sort replaced) go, so that a small trace does not hold a big one's memory; the next
 * writer gets the slots that remain. */
static void
release_unused_slots (TwTraceImage *self,
                      TwTrace      *trace)
{
  g_autofree gboolean *used = g_new0 (gboolean, MAX (self->slots->len, 1));
  guint n_used = 0;

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      guint slot = _tw_event_chunk_get_slot (tw_trace_get_chunk (trace, c));

      used[slot] = TRUE;
      n_used = MAX (n_used, slot + 1);
    }
  for (guint i = 0; i < self->slots->len; i++)
    if (!used[i])
      release_slot (self, i);
  g_array_set_size (self->slots, n_used);
}

/* ---------------------------------------------------------------- the index */

/*
 * The index is one GVariant of type INDEX_TYPE: the format version, the number of CPUs,
 * the string table as one run of NUL-terminated strings (ids are their order), the
 * metadata, the type, field, task and chunk tables as arrays of fixed-size tuples,
 * which GLib hands over as C arrays (the structs below have the tuples' layout), and the
 * task state each string names (1 + TwTaskState by string id, 0: none), and the CPUs of
 * named hosts (a trace of several machines: store CPU, host, number there). Strings are ids
 * into the string table. Nothing is parsed per entry but the strings: reading
 * the index of a trace with 25 000 strings and 8 000 tasks takes a few ms.
 */
#define NO_STRING  G_MAXUINT32

enum { INDEX_VERSION_AT, INDEX_N_CPUS, INDEX_STRINGS, INDEX_METADATA, INDEX_TYPES,
       INDEX_FIELDS, INDEX_TASKS, INDEX_CHUNKS, INDEX_TASK_STATES, INDEX_CPU_HOSTS };

typedef struct {
  guint32 name, family, kind, first_field, n_fields;
} IndexType;

typedef struct {
  guint32 name, type, flags;
} IndexField;

/* GVariant's normal form has zero padding: the padding is spelled out, so that the rows'
 * initialisers clear it. */
typedef struct {
  guint32 source_id, name;
  gint64  pid, tid;
  guint32 flags;
  guint32 host;
} IndexTask;

typedef struct {
  guint32 slot, n;
  guint64 blob_len;
  guint16 max_cpu_plus_one;
  guint16 padding[3];
  guint64 last_time;
} IndexChunk;

typedef struct {
  guint32 host;
  guint16 cpu, host_cpu;
} IndexCpuHost;

G_STATIC_ASSERT (sizeof (IndexType) == 20);
G_STATIC_ASSERT (sizeof (IndexCpuHost) == 8);
G_STATIC_ASSERT (sizeof (IndexField) == 12);
G_STATIC_ASSERT (sizeof (IndexTask) == 32);
G_STATIC_ASSERT (sizeof (IndexChunk) == 32);

/* The id of a string the trace holds already (type and task names are interned). */
static guint32
string_id (TwTrace    *trace,
           const char *str)
{
  return str ? tw_trace_intern_string (trace, str) : NO_STRING;
}

static GVariant *
fixed_array (const char    *tuple,
             const GArray  *rows)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE (tuple), rows->data, rows->len,
                                    g_array_get_element_size ((GArray *) rows));
}

static GVariant *
strings_variant (TwTrace *trace)
{
  guint n_strings = _tw_trace_get_n_strings (trace);
  g_autoptr(GByteArray) all = g_byte_array_new ();

  for (guint i = 0; i < n_strings; i++)
    {
      const char *str = tw_trace_get_string (trace, i);

      g_byte_array_append (all, (const guint8 *) str, strlen (str) + 1);
    }
  return g_variant_new_fixed_array (G_VARIANT_TYPE_BYTE, all->data, all->len, 1);
}

static GVariant *
metadata_variant (TwTrace *trace)
{
  g_auto(GVariantBuilder) metadata = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  g_auto(GStrv) keys = tw_trace_dup_metadata_keys (trace);

  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = tw_trace_dup_metadata (trace, keys[i]);

      g_variant_builder_add (&metadata, "{ss}", keys[i], value);
    }
  return g_variant_builder_end (&metadata);
}

static GVariant *
build_index (TwTrace  *trace,
             gboolean  slot_by_order)
{
  g_autoptr(GArray) types = g_array_new (FALSE, FALSE, sizeof (IndexType));
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (IndexField));
  g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (IndexTask));
  g_autoptr(GArray) chunks = g_array_new (FALSE, FALSE, sizeof (IndexChunk));
  g_autoptr(GArray) cpu_hosts = g_array_new (FALSE, FALSE, sizeof (IndexCpuHost));
  g_autoptr(GBytes) task_states = NULL;
  GVariant *children[10];

  for (guint i = 0; i < tw_trace_get_n_event_types (trace); i++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, i);
      IndexType row = { string_id (trace, type->name), string_id (trace, type->family),
                        type->kind, fields->len, type->n_fields };

      g_array_append_val (types, row);
      for (guint f = 0; f < type->n_fields; f++)
        {
          IndexField field = { string_id (trace, type->fields[f].name), type->fields[f].type,
                               type->fields[f].flags };

          g_array_append_val (fields, field);
        }
    }
  for (guint32 i = 0; i < tw_trace_get_n_tasks (trace); i++)
    {
      const TwTask *task = tw_trace_get_task (trace, i);
      IndexTask row = { .source_id = string_id (trace, task->source_id),
                        .name = string_id (trace, task->name),
                        .pid = task->pid, .tid = task->tid, .flags = task->flags,
                        .host = string_id (trace, task->host) };

      g_array_append_val (tasks, row);
    }
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      IndexChunk row = { .slot = slot_by_order ? c : _tw_event_chunk_get_slot (chunk),
                         .n = chunk->n,
                         .blob_len = chunk->blob_len,
                         .max_cpu_plus_one = chunk->max_cpu_plus_one,
                         .last_time = chunk->last_time };

      g_array_append_val (chunks, row);
    }

  for (guint c = 0; c < tw_trace_get_n_cpus (trace); c++)
    {
      guint16 host_cpu;
      const char *host = tw_trace_get_cpu_host (trace, c, &host_cpu);
      IndexCpuHost row = { .host = string_id (trace, host), .cpu = c, .host_cpu = host_cpu };

      if (host)
        g_array_append_val (cpu_hosts, row);
    }

  /* the strings last: string_id() above adds none, but ask once all ids are known */
  children[INDEX_VERSION_AT] = g_variant_new_uint32 (INDEX_VERSION);
  children[INDEX_N_CPUS] = g_variant_new_uint32 (tw_trace_get_n_cpus (trace));
  children[INDEX_STRINGS] = strings_variant (trace);
  children[INDEX_METADATA] = metadata_variant (trace);
  children[INDEX_TYPES] = fixed_array ("(uuuuu)", types);
  children[INDEX_FIELDS] = fixed_array ("(uuu)", fields);
  children[INDEX_TASKS] = fixed_array ("(uuxxuu)", tasks);
  children[INDEX_CHUNKS] = fixed_array ("(uutqt)", chunks);
  task_states = _tw_trace_dup_task_states (trace);
  children[INDEX_TASK_STATES] = g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING,
                                                          task_states, TRUE);
  children[INDEX_CPU_HOSTS] = fixed_array ("(uqq)", cpu_hosts);
  return g_variant_new_tuple (children, G_N_ELEMENTS (children));
}

/* The columns' blocks past the last chunk's rows go back: they were allocated for rows
 * that never came (a small trace's cache file would otherwise take a whole chunk's). */
static void
release_unused_rows (TwTraceImage *self,
                     TwTrace      *trace)
{
  static const struct { gsize offset, width; } columns[] = {
    { 0, 8 }, { TW_CHUNK_TASK_OFFSET, 4 }, { TW_CHUNK_ARG_OFFSET, 4 },
    { TW_CHUNK_PAYLOAD_OFFSET, 4 }, { TW_CHUNK_TYPE_OFFSET, 2 }, { TW_CHUNK_CPU_OFFSET, 2 },
  };
  guint n_chunks = tw_trace_get_n_chunks (trace);
  const TwEventChunk *last;
  guint slot;

  if (n_chunks == 0)
    return;
  last = tw_trace_get_chunk (trace, n_chunks - 1);
  slot = _tw_event_chunk_get_slot (last);
  if (!slot_at (self, slot)->fresh || slot_at (self, slot)->anonymous_from == 0)
    return;
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    {
      gsize from = round_to_page (columns[c].offset + (gsize) last->n * columns[c].width);
      gsize to = columns[c].offset + (gsize) TW_CHUNK_SIZE * columns[c].width;

      if (from < to)
        fallocate (self->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
                   slot_offset (slot) + from, to - from);
    }
}

/* The writer's slots of a published image: its rows are final, and a cache file's
 * (a trace shown as it was written, tw-reader-registry.c) must not change under the
 * digest of its store; read-only, as the mapping side maps them. */
static void
protect_slots (TwTraceImage *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      const Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->columns)
        mprotect (s->columns, TW_TRACE_COLUMNS_BYTES, PROT_READ);
      if (s->blob)
        mprotect (s->blob, s->blob_map, PROT_READ);
    }
}

/**
 * tw_trace_image_publish:
 * @trace: a sealed trace made by tw_trace_image_new_trace()
 * @index_at: (out) (optional): the offset of the index
 * @end: (out) (optional): the offset where the image ends (a caller may append after it)
 *
 * Writes the index of @trace's tables and chunks, then the header that makes the image
 * complete. The rows are in the file already; @trace's mappings of them become
 * read-only.
 *
 * Returns: %FALSE with @error set when the file cannot be written
 */
gboolean
tw_trace_image_publish (TwTraceImage  *self,
                        TwTrace       *trace,
                        guint64       *index_at,
                        guint64       *end,
                        GError       **error)
{
  g_autoptr(GVariant) index = NULL;
  ImageHeader header = { IMAGE_MAGIC, INDEX_VERSION, 0, 0, 0, INDEX_TYPE };

  g_return_val_if_fail (self != NULL && self->writer, FALSE);
  g_return_val_if_fail (tw_trace_is_sealed (trace), FALSE);

  if (self->failed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
                   "trace image: no room left in the file for the trace's rows");
      return FALSE;
    }
  release_unused_rows (self, trace);
  index = g_variant_ref_sink (build_index (trace, FALSE));
  header.n_slots = self->slots->len;
  header.index_offset = slot_offset (self->slots->len);
  header.index_len = g_variant_get_size (index);
  if (!write_all (self->fd, g_variant_get_data (index), header.index_len, header.index_offset,
                  error) ||
      !write_all (self->fd, &header, sizeof header, 0, error))
    return FALSE;
  self->published = TRUE;
  protect_slots (self);
  if (index_at)
    *index_at = header.index_offset;
  if (end)
    *end = header.index_offset + header.index_len;
  return TRUE;
}

/* A fixed-size array of the index, as C rows. */
static gconstpointer
index_rows (GVariant *index,
            guint     at,
            gsize     row_size,
            gsize    *n_rows)
{
  g_autoptr(GVariant) child = g_variant_get_child_value (index, at);

  /* the index holds a reference to its children's data */
  return g_variant_get_fixed_array (child, n_rows, row_size);
}

/* The strings, and the task states some of them name. */
static gboolean
restore_strings (TwTrace  *trace,
                 GVariant *index)
{
  gsize len, n_states;
  const char *run = index_rows (index, INDEX_STRINGS, 1, &len);
  const guint8 *states = index_rows (index, INDEX_TASK_STATES, 1, &n_states);

  return _tw_trace_restore_strings (trace, run, len) &&
         _tw_trace_restore_task_states (trace, states, n_states);
}

/* The string @id names, or NULL for NO_STRING; *ok turns FALSE for an id out of range. */
static const char *
string_at (TwTrace  *trace,
           guint32   id,
           gboolean *ok)
{
  const char *str;

  if (id == NO_STRING)
    return NULL;
  if ((str = tw_trace_get_string (trace, id)) == NULL)
    *ok = FALSE;
  return str;
}

static gboolean
restore_types (TwTrace  *trace,
               GVariant *index)
{
  gsize n_types, n_fields;
  const IndexType *types = index_rows (index, INDEX_TYPES, sizeof (IndexType), &n_types);
  const IndexField *fields = index_rows (index, INDEX_FIELDS, sizeof (IndexField), &n_fields);
  g_autofree TwFieldSpec *specs = g_new0 (TwFieldSpec, MAX (n_fields, 1));
  gboolean ok = TRUE;

  for (gsize f = 0; f < n_fields; f++)
    {
      if (fields[f].type > TW_FIELD_STRING)
        return FALSE;
      specs[f] = (TwFieldSpec) { string_at (trace, fields[f].name, &ok), fields[f].type,
                                 fields[f].flags };
    }
  for (gsize i = 0; i < n_types && ok; i++)
    {
      const IndexType *t = &types[i];
      const char *name = string_at (trace, t->name, &ok);

      if (!ok || name == NULL || t->kind >= TW_N_EVENT_KINDS ||
          t->first_field > n_fields || t->n_fields > n_fields - t->first_field ||
          tw_trace_add_event_type (trace, name, string_at (trace, t->family, &ok), t->kind,
                                   specs + t->first_field, t->n_fields, NULL) != i)
        return FALSE;
    }
  return ok;
}

static gboolean
restore_tasks (TwTrace  *trace,
               GVariant *index)
{
  gsize n_tasks;
  const IndexTask *tasks = index_rows (index, INDEX_TASKS, sizeof (IndexTask), &n_tasks);
  gboolean ok = TRUE;

  for (gsize i = 0; i < n_tasks && ok; i++)
    {
      const char *source_id = string_at (trace, tasks[i].source_id, &ok);

      if (!ok || source_id == NULL ||
          tw_trace_add_task (trace, source_id, string_at (trace, tasks[i].name, &ok),
                             tasks[i].pid, tasks[i].tid) != i)
        return FALSE;
      tw_trace_set_task_flags (trace, i, tasks[i].flags);
      if (tasks[i].host != NO_STRING)
        {
          const char *host = string_at (trace, tasks[i].host, &ok);

          if (ok)
            tw_trace_set_task_host (trace, i, host);
        }
    }
  return ok;
}

/* CPUs keep their store numbers: rows name them so. */
static gboolean
restore_cpu_hosts (TwTrace  *trace,
                   GVariant *index)
{
  gsize n;
  const IndexCpuHost *cpus = index_rows (index, INDEX_CPU_HOSTS, sizeof (IndexCpuHost), &n);
  gboolean ok = TRUE;

  for (gsize i = 0; i < n && ok; i++)
    {
      const char *host = string_at (trace, cpus[i].host, &ok);

      if (!ok || host == NULL || cpus[i].cpu == TW_CPU_NONE ||
          !tw_trace_set_cpu_host (trace, cpus[i].cpu, host, cpus[i].host_cpu))
        return FALSE;
    }
  return TRUE;
}

static gboolean
restore_tables (TwTrace   *trace,
                GVariant  *index,
                GError   **error)
{
  g_autoptr(GVariant) metadata = g_variant_get_child_value (index, INDEX_METADATA);
  g_autoptr(GVariant) n_cpus = g_variant_get_child_value (index, INDEX_N_CPUS);
  GVariantIter iter;
  const char *key, *value;

  g_variant_iter_init (&iter, metadata);
  while (g_variant_iter_next (&iter, "{&s&s}", &key, &value))
    tw_trace_set_metadata (trace, key, value);
  if (!restore_strings (trace, index) || !restore_types (trace, index) ||
      !restore_tasks (trace, index) || !restore_cpu_hosts (trace, index))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: the index of its tables is inconsistent");
      return FALSE;
    }
  if (g_variant_get_uint32 (n_cpus) > 0)
    tw_trace_note_cpu (trace, MIN (g_variant_get_uint32 (n_cpus), TW_CPU_NONE) - 1);
  return TRUE;
}

/* The mapping side's view of @slot with at least @blob_len bytes of blob; a slot mapped
 * for an earlier trace is reused as it is (its pages are mapped), or grown. The columns
 * of full chunks are mapped populated: the state model reads every row next. Payloads
 * are not: `tracewb-cli info` reads none, the state model only those of switches, and a
 * read fault maps a page's neighbours with it (fault-around). */
static gboolean
map_slot (TwTraceImage  *self,
          guint          slot,
          gsize          blob_len,
          gboolean       full,
          GError       **error)
{
  Slot *s = slot_at (self, slot);
  gsize want = round_to_page (blob_len);
  int populate = full ? MAP_POPULATE : 0;
  gpointer p;

  if (s->columns == NULL)
    {
      p = mmap (NULL, TW_TRACE_COLUMNS_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | populate,
                self->fd, slot_offset (slot));
      if (p == MAP_FAILED)
        return set_errno_error (error, "mapping a chunk");
      s->columns = p;
    }
  if (want <= s->blob_map)
    return TRUE;
  if (s->blob)
    p = mremap (s->blob, s->blob_map, want, MREMAP_MAYMOVE);
  else
    p = mmap (NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
              slot_offset (slot) + TW_TRACE_COLUMNS_BYTES);
  if (p == MAP_FAILED)
    return set_errno_error (error, "mapping a chunk's payloads");
  s->blob = p;
  s->blob_map = want;
  return TRUE;
}

static gboolean
map_chunks (TwTraceImage  *self,
            TwTrace       *trace,
            GVariant      *index,
            guint          n_slots,
            GError       **error)
{
  gsize n_chunks;
  const IndexChunk *chunks = index_rows (index, INDEX_CHUNKS, sizeof (IndexChunk), &n_chunks);

  for (gsize c = 0; c < n_chunks; c++)
    {
      const IndexChunk *chunk = &chunks[c];
      Slot *s;

      if (chunk->slot >= n_slots || chunk->n > TW_CHUNK_SIZE ||
          (c + 1 < n_chunks && chunk->n != TW_CHUNK_SIZE) ||
          chunk->blob_len > TW_TRACE_BLOB_RESERVE ||
          slot_offset (chunk->slot) + TW_TRACE_COLUMNS_BYTES + chunk->blob_len > self->file_size)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "trace image: chunk %" G_GSIZE_FORMAT " lies outside the file", c);
          return FALSE;
        }
      if (!map_slot (self, chunk->slot, chunk->blob_len, chunk->n == TW_CHUNK_SIZE, error))
        return FALSE;
      s = slot_at (self, chunk->slot);
      _tw_trace_add_mapped_chunk (trace, chunk->slot, s->columns,
                                  chunk->blob_len ? s->blob : NULL, chunk->n, chunk->blob_len,
                                  chunk->max_cpu_plus_one, chunk->last_time);
    }
  return TRUE;
}

/**
 * tw_trace_image_open_trace:
 *
 * Maps what a writer published into @self as a sealed trace. The trace keeps @self.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
TwTrace *
tw_trace_image_open_trace (TwTraceImage  *self,
                           GError       **error)
{
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GVariant) index = NULL;
  g_autofree guint8 *bytes = NULL;
  ImageHeader header;
  struct stat st;

  g_return_val_if_fail (self != NULL && !self->writer, NULL);

  if (!read_all (self->fd, &header, sizeof header, 0, error))
    return NULL;
  if (fstat (self->fd, &st) < 0)
    {
      set_errno_error (error, "fstat");
      return NULL;
    }
  self->file_size = st.st_size;
  if (memcmp (header.magic, IMAGE_MAGIC, sizeof header.magic) != 0 ||
      header.version != INDEX_VERSION ||
      strncmp (header.index_type, INDEX_TYPE, sizeof header.index_type) != 0 ||
      header.index_len > MAX_INDEX ||
      header.index_offset != slot_offset (header.n_slots) ||
      header.index_offset + header.index_len > self->file_size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: no complete trace in the file");
      return NULL;
    }
  bytes = g_malloc (MAX (header.index_len, 1));
  if (!read_all (self->fd, bytes, header.index_len, header.index_offset, error))
    return NULL;
  index = g_variant_ref_sink (g_variant_new_from_data (G_VARIANT_TYPE (INDEX_TYPE), bytes,
                                                       header.index_len, FALSE, NULL, NULL));

  /* slots the writer touched hold pages, mapped here or not: the next writer reuses them */
  if (header.n_slots > self->slots->len)
    g_array_set_size (self->slots, header.n_slots);
  trace = tw_trace_new ();
  _tw_trace_set_image (trace, self);
  if (!restore_tables (trace, index, error) ||
      !map_chunks (self, trace, index, header.n_slots, error))
    return NULL;
  _tw_trace_seal_mapped (trace);
  release_unused_slots (self, trace);
  self->opened = TRUE;
  /* the index's pages are not needed any more; the slots in use stay for the next read */
  if (ftruncate (self->fd, slot_offset (self->slots->len)) == 0)
    self->file_size = slot_offset (self->slots->len);
  return g_steal_pointer (&trace);
}

TwTraceImage *
tw_trace_image_ref (TwTraceImage *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

/**
 * tw_trace_image_unref:
 *
 * The last reference of a mapping side's image puts it in the pool for the next read,
 * within bounds; otherwise the mappings and the file go.
 */
void
tw_trace_image_unref (TwTraceImage *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_atomic_ref_count_init (&self->ref_count);
  if (!pool_give (self))
    image_free (self);
}

/* ---------------------------------------------------------------- image files on disk */

/*
 * The same layout in a file of its own (the trace cache, data/tw-trace-cache.c): chunk c
 * in slot c, written from any sealed trace (read in memory or mapped from an image), and
 * mapped back read-only. Unlike the memfd above, such a file outlives the process and
 * another may have written it: nothing maps it for writing, nothing truncates or punches
 * it, and it never goes into the pool of images a writer reuses.
 */

/* The store holds at most this many chunks (MAX_CHUNKS of tw-trace.c). */
#define TW_MAX_IMAGE_FILE_CHUNKS (1u << 14)

/* The used part of each column of @chunk, where slot @slot has it, then its blob; the
 * rest of the slot stays a hole. */
static gboolean
write_chunk_to_slot (int                  fd,
                     const TwEventChunk  *chunk,
                     guint                slot,
                     GError             **error)
{
  const struct { gconstpointer data; gsize offset, width; } columns[] = {
    { chunk->time, 0, 8 },
    { chunk->task, TW_CHUNK_TASK_OFFSET, 4 },
    { chunk->arg, TW_CHUNK_ARG_OFFSET, 4 },
    { chunk->payload, TW_CHUNK_PAYLOAD_OFFSET, 4 },
    { chunk->type, TW_CHUNK_TYPE_OFFSET, 2 },
    { chunk->cpu, TW_CHUNK_CPU_OFFSET, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    if (!write_all (fd, columns[i].data, (gsize) chunk->n * columns[i].width,
                    slot_offset (slot) + columns[i].offset, error))
      return FALSE;
  return chunk->blob_len == 0 ||
         write_all (fd, chunk->blob, chunk->blob_len, slot_offset (slot) + TW_TRACE_COLUMNS_BYTES,
                    error);
}

/**
 * tw_trace_image_write_file:
 * @trace: a sealed trace, of any origin
 * @fd: an empty file opened for writing
 * @index_at: (out) (optional): the offset of the index
 * @end: (out) (optional): the offset where the image ends (a caller may append after it)
 *
 * Writes @trace into @fd in the image's layout, chunk c in slot c, the index, then the
 * header that makes it complete. The file is sparse: only rows and payloads take room.
 *
 * Returns: %FALSE with @error set when @fd cannot be written
 */
gboolean
tw_trace_image_write_file (TwTrace  *trace,
                           int       fd,
                           guint64  *index_at,
                           guint64  *end,
                           GError  **error)
{
  g_autoptr(GVariant) index = NULL;
  ImageHeader header = { IMAGE_MAGIC, INDEX_VERSION, 0, 0, 0, INDEX_TYPE };
  guint n_chunks;

  g_return_val_if_fail (TW_IS_TRACE (trace) && tw_trace_is_sealed (trace), FALSE);
  g_return_val_if_fail (fd >= 0, FALSE);

  n_chunks = tw_trace_get_n_chunks (trace);
  for (guint c = 0; c < n_chunks; c++)
    if (!write_chunk_to_slot (fd, tw_trace_get_chunk (trace, c), c, error))
      return FALSE;
  index = g_variant_ref_sink (build_index (trace, TRUE));
  header.n_slots = n_chunks;
  header.index_offset = slot_offset (n_chunks);
  header.index_len = g_variant_get_size (index);
  if (!write_all (fd, g_variant_get_data (index), header.index_len, header.index_offset,
                  error) ||
      !write_all (fd, &header, sizeof header, 0, error))
    return FALSE;
  if (index_at)
    *index_at = header.index_offset;
  if (end)
    *end = header.index_offset + header.index_len;
  return TRUE;
}

/* The header and index of an image file, checked against the file's size; *@end is
 * where the index ends. */
static GVariant *
read_file_index (TwTraceImage  *self,
                 guint         *n_slots,
                 guint64       *index_at,
                 guint64       *end,
                 GError       **error)
{
  g_autofree guint8 *bytes = NULL;
  guint8 *data;
  ImageHeader header;

  if (self->file_size < sizeof header)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: the file is shorter than its header");
      return NULL;
    }
  if (!read_all (self->fd, &header, sizeof header, 0, error))
    return NULL;
  if (memcmp (header.magic, IMAGE_MAGIC, sizeof header.magic) != 0 ||
      header.version != INDEX_VERSION ||
      strncmp (header.index_type, INDEX_TYPE, sizeof header.index_type) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "trace image: another version of the format (version %u)", header.version);
      return NULL;
    }
  if (header.index_len > MAX_INDEX || header.index_offset != slot_offset (header.n_slots) ||
      header.index_offset > self->file_size ||
      header.index_len > self->file_size - header.index_offset)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: the index lies outside the file");
      return NULL;
    }
  bytes = g_malloc (MAX (header.index_len, 1));
  if (!read_all (self->fd, bytes, header.index_len, header.index_offset, error))
    return NULL;
  *n_slots = header.n_slots;
  *index_at = header.index_offset;
  *end = header.index_offset + header.index_len;
  data = g_steal_pointer (&bytes);
  /* the variant frees @data when it goes: g_free (user_data) */
  return g_variant_ref_sink (g_variant_new_from_data (G_VARIANT_TYPE (INDEX_TYPE), data,
                                                      header.index_len, FALSE, g_free, data));
}

/* Each chunk's slot, mapped private and read-only: the file is never written through the
 * mapping. tw_trace_image_write_file() puts chunk c in slot c; a reader child writing the
 * file (tw_trace_image_new_for_fd()) puts a chunk where a slot was free, and a sort
 * leaves the slots of the chunks it replaced empty: each chunk in a slot of its own. */
static gboolean
map_file_chunks (TwTraceImage  *self,
                 TwTrace       *trace,
                 GVariant      *index,
                 guint          n_slots,
                 GError       **error)
{
  gsize n_chunks;
  const IndexChunk *chunks = index_rows (index, INDEX_CHUNKS, sizeof (IndexChunk), &n_chunks);
  g_autofree guint8 *taken = g_new0 (guint8, MAX (n_slots, 1));

  if (n_chunks > n_slots)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: %" G_GSIZE_FORMAT " chunks in %u slots", n_chunks, n_slots);
      return FALSE;
    }
  for (gsize c = 0; c < n_chunks; c++)
    {
      const IndexChunk *chunk = &chunks[c];
      Slot *s;
      gpointer p;

      if (chunk->slot >= n_slots || taken[chunk->slot] || chunk->n > TW_CHUNK_SIZE ||
          (c + 1 < n_chunks && chunk->n != TW_CHUNK_SIZE) ||
          chunk->blob_len > TW_TRACE_BLOB_RESERVE ||
          slot_offset (chunk->slot) + TW_TRACE_COLUMNS_BYTES + chunk->blob_len > self->file_size)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "trace image: chunk %" G_GSIZE_FORMAT " lies outside the file", c);
          return FALSE;
        }
      taken[chunk->slot] = 1;
      s = slot_at (self, chunk->slot);
      /* populated: the rows are all checked next, and one call maps the pages the page
       * cache holds faster than a fault per few pages */
      p = mmap (NULL, TW_TRACE_COLUMNS_BYTES, PROT_READ, MAP_PRIVATE | MAP_POPULATE, self->fd,
                slot_offset (chunk->slot));
      if (p == MAP_FAILED)
        return set_errno_error (error, "mapping a chunk");
      s->columns = p;
      if (chunk->blob_len > 0)
        {
          p = mmap (NULL, round_to_page (chunk->blob_len), PROT_READ, MAP_PRIVATE, self->fd,
                    slot_offset (chunk->slot) + TW_TRACE_COLUMNS_BYTES);
          if (p == MAP_FAILED)
            return set_errno_error (error, "mapping a chunk's payloads");
          s->blob = p;
          s->blob_map = round_to_page (chunk->blob_len);
        }
      _tw_trace_add_mapped_chunk (trace, chunk->slot, s->columns, s->blob, chunk->n,
                                  chunk->blob_len, chunk->max_cpu_plus_one, chunk->last_time);
    }
  return TRUE;
}

/**
 * tw_trace_image_open_file:
 * @fd: a file written by tw_trace_image_write_file() or by a writer of
 *   tw_trace_image_new_for_fd(), opened for reading; taken (closed when the trace goes,
 *   or on error)
 * @index_at: (out) (optional): where the index starts in the file
 * @end: (out) (optional): where the image ends in the file
 *
 * Maps the trace of an image file, read-only. The header, the index's tables and every
 * chunk's place are checked against the file, which may be of another version, cut or
 * damaged; the rows are not (tw-trace-cache.c checks them).
 *
 * Returns: (transfer full) (nullable): the sealed trace, or %NULL with @error set
 */
TwTrace *
tw_trace_image_open_file (int       fd,
                          guint64  *index_at,
                          guint64  *end,
                          GError  **error)
{
  g_autoptr(TwTraceImage) self = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GVariant) index = NULL;
  guint n_slots = 0;
  guint64 index_start = 0, index_end = 0;

  g_return_val_if_fail (fd >= 0, NULL);

  /* never opened: its last reference frees it, it does not go into the pool */
  self = image_new (fd, FALSE, 0);
  if (!(index = read_file_index (self, &n_slots, &index_start, &index_end, error)))
    return NULL;
  if (n_slots > TW_MAX_IMAGE_FILE_CHUNKS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "trace image: %u chunks, more than a trace holds", n_slots);
      return NULL;
    }
  trace = tw_trace_new ();
  _tw_trace_set_image (trace, self);
  if (!restore_tables (trace, index, error) ||
      !map_file_chunks (self, trace, index, n_slots, error))
    return NULL;
  _tw_trace_seal_mapped (trace);
  if (index_at)
    *index_at = index_start;
  if (end)
    *end = index_end;
  return g_steal_pointer (&trace);
}
