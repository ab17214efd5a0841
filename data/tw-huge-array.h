/* tw-huge-array.h: a growable array of fixed-size elements that moves to huge pages
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * TwHugeArray:
 * @data: the elements
 * @len: how many
 * @cap: bytes available at @data
 * @element_size: bytes per element
 * @mapped: whether @data is an address-space reservation (else malloc memory or
 *   a private mapping)
 * @map_size: bytes mapped at @data: the private mapping, or the reservation of a
 *   @mapped array (whose @cap is what it may fill without calling reserve); 0 for malloc
 *   memory
 * @borrowed: @data belongs to someone else (a mapped cache file): never freed, and
 *   copied into memory of the array's own before it grows
 * @spill: (nullable): the file holding the array's elements once the process's big
 *   arrays outgrew their share of memory; %NULL while they are anonymous memory
 * @accounted: bytes of the array counted in the process's total of big arrays
 *
 * For arrays that grow to millions of elements one at a time (histogram values, the
 * state model's interval series, measurement rows). Small ones live in malloc; past
 * 1 MiB in a private mapping that grows by mremap (page tables move, bytes do not)
 * and whose pages are populated a quarter ahead with one call (on virtual machines a
 * page fault per 4 KiB page costs several µs); past 4 MiB the array moves once, by
 * mremap again, into a reservation of 16 GiB of address space
 * (MAP_NORESERVE: only touched pages count), 2 MiB aligned and advised as huge pages,
 * where it grows in place without copying and takes one page fault per 2 MiB instead
 * of one per 4 KiB: on virtual machines first touch of fresh memory costs more than
 * the work that fills it. Only an array outgrowing its reservation moves (mremap:
 * page tables move, bytes do not). Append is inline.
 *
 * Arrays that do not fit in memory: once the big arrays of the process (those in a
 * reservation) hold more than a quarter of the memory the process may use (the
 * machine's, or its control group's limit when lower; `TRACEWB_MEMORY_BUDGET`
 * overrides), the array growing past that is moved, in place, into a file of the
 * user's cache folder (unlinked: it goes with the process), mapped shared: its pages
 * are then the page cache's, which the kernel writes back and evicts under pressure,
 * where anonymous memory without swap can only grow until the process is killed. The
 * address does not change. A disk without room leaves the rest of the array in
 * anonymous memory.
 *
 * The fields may be read directly; @len may be lowered to drop elements at the end.
 */
typedef struct {
  guint8   *data;
  gsize     len;
  gsize     cap;
  guint     element_size;
  gboolean  mapped;
  gsize     map_size;
  gboolean  borrowed;
  struct _TwHugeSpill *spill;
  gsize     accounted;
} TwHugeArray;

void tw_huge_array_init    (TwHugeArray *self,
                            guint        element_size);
void tw_huge_array_init_borrowed (TwHugeArray *self,
                                  guint        element_size,
                                  gpointer     data,
                                  gsize        n_elements);
void tw_huge_array_reserve (TwHugeArray *self,
                            gsize        n_elements);
void tw_huge_array_append  (TwHugeArray  *self,
                            gconstpointer elements,
                            gsize         n_elements);
void tw_huge_array_clear   (TwHugeArray *self);

gsize tw_huge_array_get_memory_budget (void);
void  tw_huge_array_set_memory_budget (gsize bytes);

/* tests: new reservations of @bytes (a multiple of 2 MiB) rather than kept ones or
 * 16 GiB; 0 resets */
void  _tw_huge_array_set_reservation_bytes (gsize bytes);

/* Room for one more element at the end; returns it (uninitialised). */
static inline gpointer
tw_huge_array_push (TwHugeArray *self)
{
  if G_UNLIKELY ((self->len + 1) * self->element_size > self->cap)
    tw_huge_array_reserve (self, self->len + 1);
  return self->data + self->len++ * self->element_size;
}

#define TW_HUGE_ARRAY_AT(array, type, i) (((type *) (gpointer) (array)->data)[i])

G_END_DECLS
