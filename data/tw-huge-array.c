/* tw-huge-array.c: a growable array of fixed-size elements that moves to huge pages
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-huge-array.h"

#include "tw-pages.h"
#include "tw-trace-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#define MAP_FROM_BYTES  (1u << 20)
#define HUGE_FROM_BYTES (4u << 20)
#define PAGE_BYTES      ((gsize) 4096)
#define RESERVE_BYTES   (G_GUINT64_CONSTANT (16) << 30)
#define HUGE_ALIGN      TW_PAGES_HUGE_BYTES
/* A reservation's capacity grows by an eighth, at least this much: growing is where
 * the array is counted against the memory budget (an array is counted at most an
 * eighth short) and where a spilled array's file grows. A spilled array's next pages
 * are mapped up to POPULATE_STEP ahead. */
#define COMMIT_STEP     ((gsize) 1 << 20)
#define POPULATE_STEP   ((gsize) 64 << 20)

struct _TwHugeSpill {
  int      fd;
  gsize    file_bytes;  /* the reservation's first bytes are the file's, mapped shared */
  gboolean full;        /* the disk had no room: the rest stays anonymous memory */
};

/**
 * tw_huge_array_init:
 * @element_size: bytes per element, > 0
 *
 * Starts an empty array (no memory yet).
 */
void
tw_huge_array_init (TwHugeArray *self,
                    guint        element_size)
{
  g_return_if_fail (element_size > 0);
  *self = (TwHugeArray) { NULL, 0, 0, element_size, FALSE, 0, FALSE, NULL, 0 };
}

/**
 * tw_huge_array_init_borrowed:
 * @data: @n_elements elements that outlive the array (or until it grows)
 *
 * An array over memory it does not own, such as a section of a mapped file: clearing it
 * leaves @data alone, and growing it copies @data into memory of its own first.
 */
void
tw_huge_array_init_borrowed (TwHugeArray *self,
                             guint        element_size,
                             gpointer     data,
                             gsize        n_elements)
{
  g_return_if_fail (element_size > 0);
  *self = (TwHugeArray) { data, n_elements, n_elements * element_size, element_size, FALSE, 0,
                          TRUE, NULL, 0 };
}

/* A borrowed array about to grow takes a copy of what it borrowed. */
static void
own_borrowed (TwHugeArray *self,
              gsize        n_elements)
{
  const guint8 *data = self->data;
  gsize len = self->len;

  tw_huge_array_init (self, self->element_size);
  tw_huge_array_reserve (self, MAX (n_elements, len));
  if (len > 0)
    memcpy (self->data, data, len * self->element_size);
  self->len = len;
}

/*
 * Cleared reservations are kept for the next big array of the process: the table and
 * histogram of the next run of an evaluation (the designer re-runs its automaton at
 * every edit, the Evaluations tab at every new parameter), the next trace's state
 * model (tw-pages.h: first touch of fresh memory is what such arrays cost most). Only
 * the touched part of a reservation is advised MADV_FREE and counted, rounded to huge
 * pages (an array never reads past its length, so what a page then holds does not
 * matter). At most 8 reservations holding at most an eighth of the machine's memory.
 */
static TwPageSlot kept_slots[8];
static TwPagePool kept_reservations = TW_PAGE_POOL_INIT (kept_slots, 0, 8, TRUE);

/*
 * Up to MAP_FROM_BYTES arrays stay in malloc memory: the heap hands back pages the
 * process freed a moment ago (a trace's reader buffers, the previous model's arrays),
 * which cost nothing to touch, where a new mapping's pages are fresh. Measured on the
 * recorded ftrace traces (arrays of 100 KiB to 1 MiB): from 64 KiB the model took 2 to
 * 4 times longer than in malloc memory, from 1 MiB it did not.
 */
static inline gsize
page_round_up (gsize bytes)
{
  return (bytes + PAGE_BYTES - 1) & ~(PAGE_BYTES - 1);
}

/*
 * A private mapping's pages are populated ahead of the elements, a quarter of what is
 * there (at least 512 KiB) at a time, by one call each (tw_pages_populate()).
 */
static void
populate_ahead (TwHugeArray *self,
                gsize        need)
{
  gsize cap = MIN (self->map_size,
                   page_round_up (MAX (need, self->cap + MAX (self->cap / 4, MAP_FROM_BYTES / 2))));

  if (cap > self->cap)
    tw_pages_populate (self->data + self->cap, cap - self->cap);
  self->cap = cap;
}

/* The array's elements move from malloc memory or a private mapping to @data, a
 * reservation: a private mapping's pages move without a copy. */
static void
move_to_reservation (TwHugeArray *self,
                     guint8      *data)
{
  if (self->map_size > 0)
    {
      if (mremap (self->data, self->map_size, self->map_size,
                  MREMAP_MAYMOVE | MREMAP_FIXED, data) == data)
        {
          tw_pages_advise_huge (data, self->map_size);
          self->map_size = 0;
          return;
        }
      memcpy (data, self->data, self->len * self->element_size);
      munmap (self->data, self->map_size);
      self->map_size = 0;
      return;
    }
  if (self->len > 0)
    memcpy (data, self->data, self->len * self->element_size);
  g_free (self->data);
}

/* Grows the private mapping (or makes one from malloc memory) to @size bytes. */
static void
grow_private_mapping (TwHugeArray *self,
                      gsize        size)
{
  guint8 *data;

  if (self->map_size > 0)
    {
      if ((data = mremap (self->data, self->map_size, size, MREMAP_MAYMOVE)) == MAP_FAILED)
        g_error ("tw-huge-array: out of memory growing to %" G_GSIZE_FORMAT " bytes", size);
    }
  else
    {
      data = mmap (NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (data == MAP_FAILED)
        g_error ("tw-huge-array: out of memory growing to %" G_GSIZE_FORMAT " bytes", size);
      if (self->len > 0)
        memcpy (data, self->data, self->len * self->element_size);
      g_free (self->data);
      self->cap = 0;
    }
  self->data = data;
  self->map_size = size;
  /* the elements there are populated already */
  self->cap = MAX (self->cap, page_round_up (self->len * self->element_size));
}

static gsize memory_budget_set;   /* bytes; 0: not set */
static gsize reservation_bytes = RESERVE_BYTES;
static gsize big_array_bytes;     /* anonymous bytes of the arrays past a megabyte */

/**
 * tw_huge_array_get_memory_budget:
 *
 * How many bytes the process's big arrays may hold in anonymous memory before the next
 * one to grow moves into a file: tw_huge_array_set_memory_budget()'s, else
 * `TRACEWB_MEMORY_BUDGET` (e.g. `2G`), else a quarter of what the process may hold
 * (tw_pages_get_memory_limit_bytes(), read once).
 *
 * Returns: bytes
 */
gsize
tw_huge_array_get_memory_budget (void)
{
  static gsize automatic_plus_one;
  gsize set = __atomic_load_n (&memory_budget_set, __ATOMIC_RELAXED);

  if (set > 0)
    return set;
  if (g_once_init_enter (&automatic_plus_one))
    {
      const char *text = g_getenv ("TRACEWB_MEMORY_BUDGET");
      guint64 bytes = 0;

      if (!text || !tw_trace_cache_parse_size (text, &bytes, NULL) || bytes == 0)
        bytes = tw_pages_get_memory_limit_bytes () / 4;
      g_once_init_leave (&automatic_plus_one, (gsize) (bytes > 0 ? bytes : G_MAXSIZE - 1) + 1);
    }
  return automatic_plus_one - 1;
}

/**
 * tw_huge_array_set_memory_budget:
 * @bytes: the budget; 0 goes back to the automatic one
 *
 * Sets the budget of tw_huge_array_get_memory_budget() (tests; a program that knows
 * better).
 */
void
tw_huge_array_set_memory_budget (gsize bytes)
{
  __atomic_store_n (&memory_budget_set, bytes, __ATOMIC_RELAXED);
}

void
_tw_huge_array_set_reservation_bytes (gsize bytes)
{
  reservation_bytes = bytes > 0 ? bytes : RESERVE_BYTES;
}

/* Counts what the array holds now in the process's total of big arrays; returns the
 * total. */
static gsize
account (TwHugeArray *self)
{
  gsize used = self->len * self->element_size;
  gsize total = (gsize) g_atomic_pointer_add (&big_array_bytes,
                                              (gssize) used - (gssize) self->accounted) +
                used - self->accounted;

  self->accounted = used;
  return total;
}

static gboolean
over_budget (void)
{
  return g_atomic_pointer_get (&big_array_bytes) > tw_huge_array_get_memory_budget ();
}

/* Every spilled array holds a descriptor: the process may need more than a desktop
 * session's soft limit of 1024. */
static void
raise_open_file_limit (void)
{
  static gsize done;
  struct rlimit limit;

  if (g_once_init_enter (&done))
    {
      if (getrlimit (RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max)
        {
          limit.rlim_cur = limit.rlim_max;
          setrlimit (RLIMIT_NOFILE, &limit);
        }
      g_once_init_leave (&done, 1);
    }
}

static gboolean
write_all (int           fd,
           const guint8 *data,
           gsize         size)
{
  gsize done = 0;

  while (done < size)
    {
      gssize n = pwrite (fd, data + done, MIN (size - done, (gsize) 1 << 30), (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += (gsize) n;
    }
  return TRUE;
}

/* The array's first @cap bytes become a file's, mapped shared where they were: what the
 * elements hold is written to the file first. FALSE (still anonymous) when there is no
 * file or no room for it. */
static gboolean
spill (TwHugeArray *self,
       gsize        cap)
{
  gsize used = page_round_up (self->len * self->element_size);
  int fd = tw_pages_open_spill_file ();

  if (fd < 0)
    {
      g_debug ("big arrays over the memory budget stay in memory: no file in the cache folder");
      return FALSE;
    }
  if (fallocate (fd, 0, 0, (off_t) cap) < 0 || !write_all (fd, self->data, used))
    {
      g_debug ("big arrays over the memory budget stay in memory: %s", g_strerror (errno));
      close (fd);
      return FALSE;
    }
  if (mmap (self->data, cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
    g_error ("tw-huge-array: cannot map %" G_GSIZE_FORMAT " bytes of a file", cap);
  raise_open_file_limit ();
  self->spill = g_new0 (struct _TwHugeSpill, 1);
  *self->spill = (struct _TwHugeSpill) { fd, cap, FALSE };
  g_atomic_pointer_add (&big_array_bytes, -(gssize) self->accounted);
  self->accounted = 0;
  return TRUE;
}

/* A spilled array's file grows to @cap bytes; on a full disk the rest of the
 * reservation stays anonymous memory (writing where the file has no blocks would
 * raise SIGBUS). */
static void
grow_spill (TwHugeArray *self,
            gsize        cap)
{
  struct _TwHugeSpill *spill = self->spill;
  gsize from = spill->file_bytes;

  if (spill->full || cap <= from)
    return;
  if (fallocate (spill->fd, 0, (off_t) from, (off_t) (cap - from)) < 0)
    {
      g_debug ("a big array's file cannot grow (%s): the rest stays in memory",
               g_strerror (errno));
      spill->full = TRUE;
      return;
    }
  if (mmap (self->data + from, cap - from, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
            spill->fd, (off_t) from) == MAP_FAILED)
    g_error ("tw-huge-array: cannot map %" G_GSIZE_FORMAT " bytes of a file", cap - from);
  spill->file_bytes = cap;
}

/* Capacity within the reservation, for @need bytes: the array is counted against the
 * budget, moved into a file past it, and its next pages are mapped ahead. */
static void
commit (TwHugeArray *self,
        gsize        need)
{
  gsize used = self->len * self->element_size;
  gsize ahead = MAX (COMMIT_STEP, self->cap / 8);
  gsize cap = MIN (self->map_size, (MAX (need, used + ahead) + HUGE_ALIGN - 1) &
                                   ~(gsize) (HUGE_ALIGN - 1));
  gsize total;

  if (self->spill == NULL)
    {
      total = account (self);
      if (total > tw_huge_array_get_memory_budget ())
        spill (self, cap);
    }
  if (self->spill != NULL)
    {
      gsize from = page_round_up (used);

      grow_spill (self, cap);
      if (!self->spill->full && from < cap)
        tw_pages_populate (self->data + from, MIN (cap - from, POPULATE_STEP));
    }
  self->cap = cap;
}

/* The array outgrew its reservation: a larger one, where a spilled array's file is
 * mapped again (no bytes copied but those of a part left in memory). */
static void
grow_reservation (TwHugeArray *self,
                  gsize        size)
{
  struct _TwHugeSpill *spill = self->spill;
  guint8 *data;

  size = (size + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1);
  if (spill == NULL)
    {
      /* page tables move, not bytes; a reservation that began as a private mapping is
       * two mappings, which mremap does not take at once: those bytes are copied */
      if ((data = mremap (self->data, self->map_size, size, MREMAP_MAYMOVE)) == MAP_FAILED)
        {
          if ((data = tw_pages_map_aligned (size, TW_PAGES_HUGE | TW_PAGES_NORESERVE)) == NULL)
            g_error ("tw-huge-array: cannot reserve %" G_GSIZE_FORMAT " bytes of address space",
                     size);
          memcpy (data, self->data, self->len * self->element_size);
          munmap (self->data, self->map_size);
        }
    }
  else
    {
      gsize used = self->len * self->element_size;

      if ((data = tw_pages_map_aligned (size, TW_PAGES_HUGE | TW_PAGES_NORESERVE)) == NULL)
        g_error ("tw-huge-array: cannot reserve %" G_GSIZE_FORMAT " bytes of address space", size);
      if (mmap (data, spill->file_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                spill->fd, 0) == MAP_FAILED)
        g_error ("tw-huge-array: cannot map %" G_GSIZE_FORMAT " bytes of a file", spill->file_bytes);
      if (used > spill->file_bytes)
        memcpy (data + spill->file_bytes, self->data + spill->file_bytes,
                used - spill->file_bytes);
      munmap (self->data, self->map_size);
    }
  self->data = data;
  self->map_size = size;
}

/**
 * tw_huge_array_reserve:
 * @n_elements: elements the array must have room for
 *
 * Grows the capacity (doubling) to at least @n_elements; elements keep their values.
 * Running out of memory or address space aborts, as g_malloc() does.
 */
void
tw_huge_array_reserve (TwHugeArray *self,
                       gsize        n_elements)
{
  gsize need = n_elements * self->element_size;
  gsize cap;
  guint8 *data;

  if (need <= self->cap)
    return;
  if (self->borrowed)
    {
      own_borrowed (self, n_elements);
      return;
    }

  if (self->mapped)
    {
      if (need > self->map_size)
        grow_reservation (self, MAX (need, self->map_size * 2));
      commit (self, need);
      return;
    }

  if (self->map_size > 0 && need <= self->map_size)
    {
      account (self);
      populate_ahead (self, need);
      return;
    }

  cap = MAX (MAX (need, (self->map_size > 0 ? self->map_size : self->cap) * 2),
             16 * self->element_size);
  if (cap < MAP_FROM_BYTES)
    {
      self->data = g_realloc (self->data, cap);
      self->cap = cap;
      return;
    }
  /* over the budget, an array of a megabyte goes to a reservation and a file at once:
   * hundreds of tasks' arrays of a few megabytes each would add up otherwise */
  if (cap < HUGE_FROM_BYTES && !over_budget ())
    {
      grow_private_mapping (self, page_round_up (cap));
      account (self);
      populate_ahead (self, need);
      return;
    }

  cap = MAX (reservation_bytes, (cap + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1));
  if ((reservation_bytes != RESERVE_BYTES ||
       (data = tw_page_pool_take (&kept_reservations, cap, &cap)) == NULL) &&
      (data = tw_pages_map_aligned (cap, TW_PAGES_HUGE | TW_PAGES_NORESERVE)) == NULL)
    g_error ("tw-huge-array: cannot reserve %" G_GSIZE_FORMAT " bytes of address space", cap);
  move_to_reservation (self, data);
  self->data = data;
  self->map_size = cap;
  self->mapped = TRUE;
  self->cap = 0;
  commit (self, need);
}

/**
 * tw_huge_array_append:
 * @elements: (array length=n_elements): @n_elements elements of the array's size
 * @n_elements: how many to copy to the end
 *
 * Appends copies of @n_elements elements, growing once for all of them.
 */
void
tw_huge_array_append (TwHugeArray  *self,
                      gconstpointer elements,
                      gsize         n_elements)
{
  g_return_if_fail (elements != NULL || n_elements == 0);

  if (n_elements == 0)
    return;
  tw_huge_array_reserve (self, self->len + n_elements);
  memcpy (self->data + self->len * self->element_size, elements, n_elements * self->element_size);
  self->len += n_elements;
}

/**
 * tw_huge_array_clear:
 *
 * Frees the elements (a reservation is kept for the next big array of the process,
 * within bounds; a spilled array's file goes); the array is empty again and can be
 * reused.
 */
void
tw_huge_array_clear (TwHugeArray *self)
{
  if (self->borrowed)
    ;
  else if (self->spill)
    {
      munmap (self->data, self->map_size);
      close (self->spill->fd);
      g_clear_pointer (&self->spill, g_free);
    }
  else if (self->mapped)
    {
      gsize used = (self->len * self->element_size + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1);

      g_atomic_pointer_add (&big_array_bytes, -(gssize) self->accounted);
      if (!tw_page_pool_give (&kept_reservations, self->data, self->map_size, used))
        munmap (self->data, self->map_size);
    }
  else if (self->map_size > 0)
    {
      g_atomic_pointer_add (&big_array_bytes, -(gssize) self->accounted);
      munmap (self->data, self->map_size);
    }
  else
    g_free (self->data);
  self->data = NULL;
  self->len = self->cap = self->map_size = self->accounted = 0;
  self->mapped = self->borrowed = FALSE;
}
