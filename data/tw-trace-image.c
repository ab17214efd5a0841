/* tw-trace-image.c: a trace's store in a file that two processes map
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

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
#define INDEX_VERSION 1
#define HEADER_BYTES  ((gsize) 2 << 20)
#define SLOT_BYTES    (TW_TRACE_COLUMNS_BYTES + TW_TRACE_BLOB_RESERVE)
#define MAX_INDEX     ((gsize) 1 << 30)
#define INDEX_TYPE    "(uua{ss}asa(smsua(suu))a(smsxxu)a(uutqt))"
#define POOL_IMAGES   4

/* A new field in these must travel through the index: a changed size stops the build
 * here so that nobody adds one without looking at fill_index() and restore_tables(). */
G_STATIC_ASSERT (sizeof (TwTask) == 40);
G_STATIC_ASSERT (sizeof (TwEventType) == 48);
G_STATIC_ASSERT (sizeof (TwFieldSpec) == 16);

typedef struct {
  char    magic[8];
  guint32 version;
  guint32 n_slots;        /* slots the writer touched: [0, n_slots) hold pages */
  guint64 index_offset;
  guint64 index_len;
} ImageHeader;

G_STATIC_ASSERT (sizeof (ImageHeader) == 32);

typedef struct {
  guint8 *columns;        /* NULL while not mapped in this process */
  guint8 *blob;
  gsize   blob_map;       /* bytes mapped at @blob */
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
unmap_slots (TwTraceImage *self)
{
  for (guint i = 0; i < self->slots->len; i++)
    {
      Slot *s = &g_array_index (self->slots, Slot, i);

      if (s->columns)
        munmap (s->columns, TW_TRACE_COLUMNS_BYTES);
      if (s->blob)
        munmap (s->blob, s->blob_map);
      *s = (Slot) { NULL, NULL, 0 };
    }
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
  unmap_slots (self);
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

/*
 * The writer's slot for a new chunk: a warm one first, else the next in the file. Its
 * columns are mapped populated (one call instead of a fault per page), except for the
 * first chunk of a fresh file, which a small trace fills only in part; the blob is the
 * slot's whole reservation, mapped as it grows.
 */
guint8 *
_tw_trace_image_take_slot (TwTraceImage  *self,
                           guint         *slot,
                           guint8       **blob)
{
  gboolean warm = self->free_slots->len > 0;
  Slot *s;

  g_assert (self->writer);

  if (warm)
    *slot = g_array_index (self->free_slots, guint, --self->free_slots->len);
  else
    *slot = self->slots->len;
  s = slot_at (self, *slot);
  if (slot_offset (*slot + 1) > self->file_size)
    {
      if (ftruncate (self->fd, slot_offset (*slot + 1)) < 0)
        g_error ("tw-trace-image: cannot grow the image to %" G_GSIZE_FORMAT " bytes: %s",
                 slot_offset (*slot + 1), g_strerror (errno));
      self->file_size = slot_offset (*slot + 1);
    }
  s->columns = map_or_die (TW_TRACE_COLUMNS_BYTES, warm || *slot > 0 ? MAP_POPULATE : 0,
                           self->fd, slot_offset (*slot));
  s->blob = map_or_die (TW_TRACE_BLOB_RESERVE, MAP_NORESERVE, self->fd,
                        slot_offset (*slot) + TW_TRACE_COLUMNS_BYTES);
  s->blob_map = TW_TRACE_BLOB_RESERVE;
  *blob = s->blob;
  return s->columns;
}

/* The writer's blob grows into [@from, @to): its pages in one call (kernels before 5.14
 * refuse; the pages then fault in one by one). */
void
_tw_trace_image_grow_blob (TwTraceImage *self,
                           guint8       *blob,
                           gsize         from,
                           gsize         to)
{
#ifdef MADV_POPULATE_WRITE
  madvise (blob + from, to - from, MADV_POPULATE_WRITE);
#endif
}

/* A chunk is done with its slot. The writer may take it again (a sort makes new chunks
 * and drops the old ones); the mapping side keeps its mappings for the next trace. */
void
_tw_trace_image_give_slot (TwTraceImage *self,
                           guint         slot)
{
  Slot *s;

  if (!self->writer)
    return;
  s = slot_at (self, slot);
  munmap (s->columns, TW_TRACE_COLUMNS_BYTES);
  munmap (s->blob, s->blob_map);
  *s = (Slot) { NULL, NULL, 0 };
  g_array_append_val (self->free_slots, slot);
}

/* ---------------------------------------------------------------- the index */

static GVariant *
build_index (TwTrace *trace)
{
  g_auto(GVariantBuilder) metadata = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a{ss}"));
  g_auto(GVariantBuilder) strings = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("as"));
  g_auto(GVariantBuilder) types = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(smsua(suu))"));
  g_auto(GVariantBuilder) tasks = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(smsxxu)"));
  g_auto(GVariantBuilder) chunks = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(uutqt)"));
  g_auto(GStrv) keys = tw_trace_dup_metadata_keys (trace);
  guint n_strings = _tw_trace_get_n_strings (trace);

  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = tw_trace_dup_metadata (trace, keys[i]);

      g_variant_builder_add (&metadata, "{ss}", keys[i], value);
    }
  for (guint i = 0; i < n_strings; i++)
    g_variant_builder_add (&strings, "s", tw_trace_get_string (trace, i));
  for (guint i = 0; i < tw_trace_get_n_event_types (trace); i++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, i);
      g_auto(GVariantBuilder) fields = G_VARIANT_BUILDER_INIT (G_VARIANT_TYPE ("a(suu)"));

      for (guint f = 0; f < type->n_fields; f++)
        g_variant_builder_add (&fields, "(suu)", type->fields[f].name,
                               (guint32) type->fields[f].type, (guint32) type->fields[f].flags);
      g_variant_builder_add (&types, "(smsua(suu))", type->name, type->family,
                             (guint32) type->kind, &fields);
    }
  for (guint32 i = 0; i < tw_trace_get_n_tasks (trace); i++)
    {
      const TwTask *task = tw_trace_get_task (trace, i);

      g_variant_builder_add (&tasks, "(smsxxu)", task->source_id, task->name, task->pid,
                             task->tid, (guint32) task->flags);
    }
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      g_variant_builder_add (&chunks, "(uutqt)", _tw_event_chunk_get_slot (chunk), chunk->n,
                             (guint64) chunk->blob_len, chunk->max_cpu_plus_one,
                             chunk->last_time);
    }
  return g_variant_new ("(uua{ss}asa(smsua(suu))a(smsxxu)a(uutqt))", INDEX_VERSION,
                        tw_trace_get_n_cpus (trace), &metadata, &strings, &types, &tasks,
                        &chunks);
}

/**
 * tw_trace_image_publish:
 * @trace: a sealed trace made by tw_trace_image_new_trace()
 *
 * Writes the index of @trace's tables and chunks, then the header that makes the image
 * complete. The rows are in the file already.
 *
 * Returns: %FALSE with @error set when the file cannot be written
 */
gboolean
tw_trace_image_publish (TwTraceImage  *self,
                        TwTrace       *trace,
                        GError       **error)
{
  g_autoptr(GVariant) index = NULL;
  ImageHeader header = { IMAGE_MAGIC, INDEX_VERSION, 0, 0, 0 };

  g_return_val_if_fail (self != NULL && self->writer, FALSE);
  g_return_val_if_fail (tw_trace_is_sealed (trace), FALSE);

  index = g_variant_ref_sink (build_index (trace));
  header.n_slots = self->slots->len;
  header.index_offset = slot_offset (self->slots->len);
  header.index_len = g_variant_get_size (index);
  return write_all (self->fd, g_variant_get_data (index), header.index_len,
                    header.index_offset, error) &&
         write_all (self->fd, &header, sizeof header, 0, error);
}

static gboolean
restore_tables (TwTrace   *trace,
                GVariant  *index,
                GError   **error)
{
  g_autoptr(GVariantIter) metadata = NULL;
  g_autoptr(GVariantIter) strings = NULL;
  g_autoptr(GVariantIter) types = NULL;
  g_autoptr(GVariantIter) tasks = NULL;
  guint32 version, n_cpus, kind;
  const char *key, *value, *name, *family;
  g_autoptr(GVariantIter) fields = NULL;
  gint64 pid, tid;
  guint32 flags;
  guint i;

  g_variant_get (index, "(uua{ss}asa(smsua(suu))a(smsxxu)a(uutqt))", &version, &n_cpus,
                 &metadata, &strings, &types, &tasks, NULL);
  while (g_variant_iter_next (metadata, "{&s&s}", &key, &value))
    tw_trace_set_metadata (trace, key, value);
  for (i = 0; g_variant_iter_next (strings, "&s", &name); i++)
    if (tw_trace_intern_string (trace, name) != i)
      goto inconsistent;
  for (i = 0; g_variant_iter_next (types, "(&sm&sua(suu))", &name, &family, &kind, &fields); i++)
    {
      g_autofree TwFieldSpec *specs = g_new0 (TwFieldSpec, MAX (g_variant_iter_n_children (fields), 1));
      guint n = 0;
      guint32 ftype, fflags;

      while (g_variant_iter_next (fields, "(&suu)", &specs[n].name, &ftype, &fflags))
        {
          if (ftype > TW_FIELD_STRING)
            goto inconsistent;
          specs[n].type = ftype;
          specs[n++].flags = fflags;
        }
      g_clear_pointer (&fields, g_variant_iter_free);
      if (kind >= TW_N_EVENT_KINDS ||
          tw_trace_add_event_type (trace, name, family, kind, specs, n, error) != i)
        goto inconsistent;
    }
  for (i = 0; g_variant_iter_next (tasks, "(&sm&sxxu)", &key, &name, &pid, &tid, &flags); i++)
    {
      if (tw_trace_add_task (trace, key, name, pid, tid) != i)
        goto inconsistent;
      tw_trace_set_task_flags (trace, i, flags);
    }
  if (n_cpus > 0)
    tw_trace_note_cpu (trace, MIN (n_cpus, TW_CPU_NONE) - 1);
  return TRUE;

inconsistent:
  g_clear_error (error);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "trace image: the index of its tables is inconsistent");
  return FALSE;
}

/* The mapping side's view of @slot with at least @blob_len bytes of blob; a slot mapped
 * for an earlier trace is reused as it is (its pages are mapped), or grown. Full chunks
 * are mapped populated: the state model reads every row next. */
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
    p = mmap (NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED | populate, self->fd,
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
  g_autoptr(GVariant) chunks = g_variant_get_child_value (index, 6);
  gsize n_chunks = g_variant_n_children (chunks);

  for (gsize c = 0; c < n_chunks; c++)
    {
      guint32 slot, n;
      guint64 blob_len, last_time;
      guint16 max_cpu;
      Slot *s;

      g_variant_get_child (chunks, c, "(uutqt)", &slot, &n, &blob_len, &max_cpu, &last_time);
      if (slot >= n_slots || n > TW_CHUNK_SIZE || (c + 1 < n_chunks && n != TW_CHUNK_SIZE) ||
          blob_len > TW_TRACE_BLOB_RESERVE ||
          slot_offset (slot) + TW_TRACE_COLUMNS_BYTES + blob_len > self->file_size)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       "trace image: chunk %" G_GSIZE_FORMAT " lies outside the file", c);
          return FALSE;
        }
      if (!map_slot (self, slot, blob_len, n == TW_CHUNK_SIZE, error))
        return FALSE;
      s = slot_at (self, slot);
      _tw_trace_add_mapped_chunk (trace, slot, s->columns, blob_len ? s->blob : NULL, n,
                                  blob_len, max_cpu, last_time);
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
      header.version != INDEX_VERSION || header.index_len > MAX_INDEX ||
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
  self->opened = TRUE;
  /* the index's pages are not needed any more; the slots stay for the next read */
  if (ftruncate (self->fd, header.index_offset) == 0)
    self->file_size = header.index_offset;
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
