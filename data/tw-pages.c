/* tw-pages.c: how large, write-once memory is mapped, touched and kept
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-pages.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/**
 * tw_pages_get_physical_bytes:
 *
 * Returns: the machine's memory in bytes, 0 when the system does not say
 */
gsize
tw_pages_get_physical_bytes (void)
{
  static gsize bytes_plus_one;

  if (g_once_init_enter (&bytes_plus_one))
    {
      long pages = sysconf (_SC_PHYS_PAGES);
      long page_size = sysconf (_SC_PAGESIZE);

      g_once_init_leave (&bytes_plus_one,
                         (pages > 0 && page_size > 0 ? (gsize) pages * page_size : 0) + 1);
    }
  return bytes_plus_one - 1;
}

/* The lowest memory limit of the control group at @path under @root and of its
 * parents, from the file @name of each ("max" is none); G_MAXSIZE when none is set. */
static gsize
read_group_limit (const char *root,
                  const char *path,
                  const char *name)
{
  g_autofree char *dir = g_build_filename (root, path, NULL);
  gsize limit = G_MAXSIZE;

  while (g_str_has_prefix (dir, root))
    {
      g_autofree char *file = g_build_filename (dir, name, NULL);
      g_autofree char *text = NULL;
      char *parent;
      guint64 value;

      if (g_file_get_contents (file, &text, NULL, NULL) &&
          g_ascii_string_to_unsigned (g_strstrip (text), 10, 1, G_MAXUINT64, &value, NULL))
        limit = MIN (limit, (gsize) value);
      parent = g_path_get_dirname (dir);
      if (strlen (parent) >= strlen (dir))
        {
          g_free (parent);
          break;
        }
      g_free (dir);
      dir = parent;
    }
  return limit;
}

/* The memory limit of the process's control groups (version 1 and 2), G_MAXSIZE when
 * there is none. */
static gsize
read_control_group_limit (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gsize limit = G_MAXSIZE;

  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, NULL))
    return limit;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (lines[i], ":", 3);
      g_auto(GStrv) controllers = NULL;

      if (g_strv_length (parts) != 3)
        continue;
      controllers = g_strsplit (parts[1], ",", -1);
      if (g_strv_contains ((const char * const *) controllers, "memory"))
        limit = MIN (limit, read_group_limit ("/sys/fs/cgroup/memory", parts[2],
                                              "memory.limit_in_bytes"));
      else if (g_str_equal (parts[0], "0") && parts[1][0] == '\0')
        {
          limit = MIN (limit, read_group_limit ("/sys/fs/cgroup", parts[2], "memory.max"));
          limit = MIN (limit, read_group_limit ("/sys/fs/cgroup/unified", parts[2],
                                                "memory.max"));
        }
    }
  return limit;
}

/**
 * tw_pages_get_memory_limit_bytes:
 *
 * What the process may hold in memory: the machine's memory, or its control group's
 * limit when that is lower (a container, a `systemd-run -p MemoryMax=` unit, a test).
 * Read again at every call: a group's limit can change.
 *
 * Returns: bytes, 0 when the system does not say
 */
gsize
tw_pages_get_memory_limit_bytes (void)
{
  gsize physical = tw_pages_get_physical_bytes ();
  gsize group = read_control_group_limit ();

  return physical == 0 ? (group == G_MAXSIZE ? 0 : group) : MIN (physical, group);
}

/**
 * tw_pages_map_aligned:
 * @size: bytes, a multiple of the page size
 * @flags: %TW_PAGES_HUGE to advise huge pages, %TW_PAGES_NORESERVE for address space
 *   that only counts once touched
 *
 * A private anonymous mapping aligned to %TW_PAGES_HUGE_BYTES, so that the kernel can
 * back it with huge pages from its first byte. Without %TW_PAGES_HUGE it stays on small
 * pages: a small user (the first chunk of a trace) touches a few of them, where a huge
 * page would have the kernel clear 2 MiB at once.
 *
 * Returns: (nullable): the mapping, free it with munmap(); %NULL when out of address
 *   space
 */
guint8 *
tw_pages_map_aligned (gsize        size,
                      TwPagesFlags flags)
{
  gsize len = size + TW_PAGES_HUGE_BYTES;
  int map_flags = MAP_PRIVATE | MAP_ANONYMOUS | (flags & TW_PAGES_NORESERVE ? MAP_NORESERVE : 0);
  guint8 *raw = mmap (NULL, len, PROT_READ | PROT_WRITE, map_flags, -1, 0);
  guint8 *aligned;
  gsize tail;

  if (raw == MAP_FAILED)
    return NULL;
  aligned = (guint8 *) (((guintptr) raw + TW_PAGES_HUGE_BYTES - 1) &
                        ~(guintptr) (TW_PAGES_HUGE_BYTES - 1));
  tail = (gsize) ((raw + len) - (aligned + size));
  if (aligned > raw)
    munmap (raw, aligned - raw);
  if (tail > 0)
    munmap (aligned + size, tail);
  if (flags & TW_PAGES_HUGE)
    tw_pages_advise_huge (aligned, size);
  return aligned;
}

/**
 * tw_pages_advise_huge:
 *
 * Asks for huge pages under [@data, @data + @size) (best effort: transparent huge
 * pages may be off).
 */
void
tw_pages_advise_huge (gpointer data,
                      gsize    size)
{
#ifdef MADV_HUGEPAGE
  madvise (data, size, MADV_HUGEPAGE);
#endif
}

/**
 * tw_pages_populate:
 *
 * Maps the pages of [@data, @data + @size), about to be written, in one call: measured
 * here 1.2 ns per byte against 3.1 ns when every 4 KiB page faults on first write.
 * Kernels before 5.14 refuse the advice; the pages then fault in one by one.
 */
void
tw_pages_populate (gpointer data,
                   gsize    size)
{
#ifdef MADV_POPULATE_WRITE
  if (size > 0)
    madvise (data, size, MADV_POPULATE_WRITE);
#endif
}

/**
 * tw_pages_populate_new_file_pages:
 * @data: a shared mapping of the memory file @fd (memfd or tmpfs) at @offset
 * @size: bytes, of file holes (never written) about to be written
 *
 * Allocates the file's pages in one call (fallocate) and then maps them writable in
 * one more. Faulting a hole in, as MAP_POPULATE or MADV_POPULATE_* do, allocates one
 * page at a time through the fault path; fallocate allocates them in a batch and the
 * fault only clears and maps each: 71 against 89 ms for 138 MB here (kernel 6.18),
 * about 20 ms of the 0.5 s `tracewb-cli info` takes on a 126 MB trace.dat. On pages
 * the file has already, write faults cost more than read faults mapping a page's
 * neighbours at once (tw-trace-image.c keeps MADV_POPULATE_READ for those).
 *
 * Nothing is mapped when fallocate fails: writing to a page of a shared file mapping
 * whose blocks cannot be allocated (a full disk) raises SIGBUS, so the caller must not
 * write there.
 *
 * Returns: %FALSE with errno set when the file's blocks could not be allocated
 */
gboolean
tw_pages_populate_new_file_pages (gpointer data,
                                  gsize    size,
                                  int      fd,
                                  goffset  offset)
{
  if (size == 0)
    return TRUE;
  if (fallocate (fd, 0, offset, (goffset) size) < 0)
    return FALSE;
#ifdef MADV_POPULATE_WRITE
  if (data)
    madvise (data, size, MADV_POPULATE_WRITE);
#endif
  return TRUE;
}

/**
 * tw_pages_alloc_block:
 * @size: bytes
 *
 * Memory for a block that will be filled and never moves (free it with free()). A
 * block of more than half a huge page gets huge pages of its own, aligned and advised:
 * results of hundreds of MiB are written once, and first touch is what costs most.
 * Smaller blocks come from malloc, whose pages are often warm. Running out of memory
 * aborts, as g_malloc() does.
 *
 * Returns: (transfer full): the block
 */
gpointer
tw_pages_alloc_block (gsize size)
{
  void *block = NULL;

  if (size > TW_PAGES_HUGE_BYTES / 2)
    {
      gsize rounded = (size + TW_PAGES_HUGE_BYTES - 1) & ~(TW_PAGES_HUGE_BYTES - 1);

      if (posix_memalign (&block, TW_PAGES_HUGE_BYTES, rounded) == 0)
        {
          tw_pages_advise_huge (block, rounded);
          return block;
        }
    }
  block = malloc (size);
  if (block == NULL)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, size);
  return block;
}

/**
 * tw_page_pool_take:
 * @size: bytes wanted
 * @cap: (out): bytes of the region returned
 *
 * The smallest kept region of at least @size bytes, the one kept last among equals
 * (the likeliest to still be resident).
 *
 * Returns: (nullable) (transfer full): the region, or %NULL when none fits
 */
guint8 *
tw_page_pool_take (TwPagePool *pool,
                   gsize       size,
                   gsize      *cap)
{
  guint8 *data = NULL;
  guint best = G_MAXUINT;

  g_mutex_lock (&pool->lock);
  for (guint i = pool->len; i-- > 0;)
    if (pool->slots[i].cap >= size &&
        (best == G_MAXUINT || pool->slots[i].cap < pool->slots[best].cap))
      best = i;
  if (best != G_MAXUINT)
    {
      data = pool->slots[best].data;
      *cap = pool->slots[best].cap;
      pool->bytes -= pool->slots[best].resident;
      pool->slots[best] = pool->slots[--pool->len];
    }
  g_mutex_unlock (&pool->lock);
  return data;
}

/**
 * tw_page_pool_give:
 * @data: (transfer full): a mapping of @cap bytes
 * @resident: how many of its bytes from @data on were touched
 *
 * Keeps a region when the pool has room. With @advise_free, its touched pages are
 * advised MADV_FREE before another thread can take it.
 *
 * Returns: %TRUE when the pool took it; else the caller still owns it
 */
gboolean
tw_page_pool_give (TwPagePool *pool,
                   guint8     *data,
                   gsize       cap,
                   gsize       resident)
{
  gboolean kept = FALSE;
  gsize limit;

  resident = MIN (resident, cap);
  g_mutex_lock (&pool->lock);
  limit = pool->max_bytes > 0 ? pool->max_bytes
                              : tw_pages_get_physical_bytes () / MAX (pool->memory_divisor, 1);
  if (pool->len < pool->n_slots && pool->bytes + resident <= limit &&
      (!pool->advise_free || resident == 0 || madvise (data, resident, MADV_FREE) == 0))
    {
      pool->slots[pool->len++] = (TwPageSlot) { data, cap, resident };
      pool->bytes += resident;
      kept = TRUE;
    }
  g_mutex_unlock (&pool->lock);
  return kept;
}

/**
 * tw_pages_open_spill_file:
 *
 * A file of the user's cache folder (`$XDG_CACHE_HOME/tracewb`, where the trace cache
 * is) that is gone when closed: O_TMPFILE, else made and unlinked at once. Memory past
 * what the process should hold goes there (tw-huge-array.c, a live store), so the kernel
 * writes it back and can reclaim its pages instead of the process being killed.
 *
 * Returns: a descriptor opened read-write, close-on-exec; -1 with errno set when the
 *   folder cannot be written
 */
int
tw_pages_open_spill_file (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  g_autofree char *path = NULL;
  int fd;

  if (g_mkdir_with_parents (dir, 0700) < 0)
    return -1;
  if ((fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600)) >= 0)
    return fd;
  path = g_build_filename (dir, ".spill-XXXXXX", NULL);
  if ((fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC, 0600)) >= 0)
    unlink (path);
  return fd;
}
