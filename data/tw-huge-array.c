/* tw-huge-array.c: a growable array of fixed-size elements that moves to huge pages
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-huge-array.h"

#include "tw-pages.h"

#include <string.h>
#include <sys/mman.h>

#define MAP_FROM_BYTES  (1u << 20)
#define HUGE_FROM_BYTES (4u << 20)
#define PAGE_BYTES      ((gsize) 4096)
#define RESERVE_BYTES   (G_GUINT64_CONSTANT (16) << 30)
#define HUGE_ALIGN      TW_PAGES_HUGE_BYTES

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
  *self = (TwHugeArray) { NULL, 0, 0, element_size, FALSE, 0, FALSE };
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
  *self = (TwHugeArray) { data, n_elements, n_elements * element_size, element_size, FALSE, 0, TRUE };
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

  if (self->map_size > 0 && need <= self->map_size)
    {
      populate_ahead (self, need);
      return;
    }

  cap = MAX (MAX (need, (self->map_size > 0 ? self->map_size : self->cap) * 2),
             16 * self->element_size);
  if (!self->mapped && cap < MAP_FROM_BYTES)
    {
      self->data = g_realloc (self->data, cap);
      self->cap = cap;
      return;
    }
  if (!self->mapped && cap < HUGE_FROM_BYTES)
    {
      grow_private_mapping (self, page_round_up (cap));
      populate_ahead (self, need);
      return;
    }

  if (self->mapped)
    {
      /* past the reservation: move page tables, not bytes */
      cap = (cap + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1);
      if ((data = mremap (self->data, self->cap, cap, MREMAP_MAYMOVE)) == MAP_FAILED)
        g_error ("tw-huge-array: out of memory growing to %" G_GSIZE_FORMAT " bytes", cap);
    }
  else
    {
      cap = MAX ((gsize) RESERVE_BYTES, (cap + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1));
      if ((data = tw_page_pool_take (&kept_reservations, cap, &cap)) == NULL &&
          (data = tw_pages_map_aligned (cap, TW_PAGES_HUGE | TW_PAGES_NORESERVE)) == NULL)
        g_error ("tw-huge-array: cannot reserve %" G_GSIZE_FORMAT " bytes of address space", cap);
      move_to_reservation (self, data);
      self->mapped = TRUE;
    }

  self->data = data;
  self->cap = cap;
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
 * within bounds); the array is empty again and can be reused.
 */
void
tw_huge_array_clear (TwHugeArray *self)
{
  if (self->borrowed)
    ;
  else if (self->mapped)
    {
      gsize used = (self->len * self->element_size + HUGE_ALIGN - 1) & ~(gsize) (HUGE_ALIGN - 1);

      if (!tw_page_pool_give (&kept_reservations, self->data, self->cap, used))
        munmap (self->data, self->cap);
    }
  else if (self->map_size > 0)
    munmap (self->data, self->map_size);
  else
    g_free (self->data);
  self->data = NULL;
  self->len = self->cap = self->map_size = 0;
  self->mapped = self->borrowed = FALSE;
}
