/* tw-pages.h: how large, write-once memory is mapped, touched and kept
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/*
 * One page-fault policy for the store's columns and blobs (tw-trace.c), TwHugeArray
 * and the automaton interpreter's result blocks. What such memory costs most is its
 * first touch, not the work that fills it: the kernel clears every new page, a fault
 * per 4 KiB page costs several µs under some hypervisors, and a hypervisor that takes
 * freed memory back (free page reporting) makes the first touch of it cost about 1 s
 * per GB. So:
 *   - large regions are 2 MiB aligned and advised as huge pages: one fault per 2 MiB;
 *   - pages about to be written are populated in one call rather than one fault each;
 *   - freed regions are kept for the next big array or trace of the process, advised
 *     MADV_FREE (the kernel may still take them under memory pressure; they then come
 *     back zeroed, which is as good: nobody reads past what they wrote), in pools
 *     bounded by a share of the machine's memory.
 */

/* bytes of a huge page (x86-64, arm64 with 4 KiB pages) */
#define TW_PAGES_HUGE_BYTES ((gsize) 2 << 20)

typedef enum {
  TW_PAGES_SMALL      = 0,
  TW_PAGES_HUGE       = 1 << 0,  /* advise huge pages */
  TW_PAGES_NORESERVE  = 1 << 1,  /* address space only: pages count once touched */
} TwPagesFlags;

gsize    tw_pages_get_physical_bytes (void);
gsize    tw_pages_get_memory_limit_bytes (void);
guint8  *tw_pages_map_aligned        (gsize         size,
                                      TwPagesFlags  flags);
void     tw_pages_advise_huge        (gpointer      data,
                                      gsize         size);
void     tw_pages_populate           (gpointer      data,
                                      gsize         size);
gboolean tw_pages_populate_new_file_pages (gpointer data,
                                           gsize    size,
                                           int      fd,
                                           goffset  offset);
gpointer tw_pages_alloc_block        (gsize         size);
int      tw_pages_open_spill_file    (void);

/* a region a pool keeps */
typedef struct {
  guint8 *data;
  gsize   cap;       /* bytes mapped at @data */
  gsize   resident;  /* bytes of it counted against the pool's bound */
} TwPageSlot;

/**
 * TwPagePool:
 * @slots: (array length=n_slots): room for the kept regions
 * @n_slots: how many regions it may keep
 * @max_bytes: resident bytes it may keep; 0: a share of the machine's memory
 * @memory_divisor: with @max_bytes 0, that share is 1 / @memory_divisor
 * @advise_free: whether a kept region's pages are advised MADV_FREE (the kernel may
 *   take them back) or stay resident
 *
 * Mappings freed by one user, kept for the next: a bounded, thread-safe pool. Declare
 * one static per kind of region with TW_PAGE_POOL_INIT().
 */
typedef struct {
  GMutex      lock;       /* guards @slots, @len and @bytes */
  TwPageSlot *slots;
  guint       n_slots;
  guint       len;        /* regions kept, in @slots[0 .. len) */
  gsize       bytes;      /* their resident bytes */
  gsize       max_bytes;
  guint       memory_divisor;
  gboolean    advise_free;
} TwPagePool;

#define TW_PAGE_POOL_INIT(slot_array, bytes_limit, divisor, free_advice) \
  { { 0 }, (slot_array), G_N_ELEMENTS (slot_array), 0, 0, (bytes_limit), (divisor), (free_advice) }

guint8  *tw_page_pool_take (TwPagePool *pool,
                            gsize       size,
                            gsize      *cap);
gboolean tw_page_pool_give (TwPagePool *pool,
                            guint8     *data,
                            gsize       cap,
                            gsize       resident);

G_END_DECLS
