/* test-pages.c: the page-fault policy the store, TwHugeArray and the interpreter share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-pages.h>

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((gsize) 1 << 20)

static gboolean
is_huge_aligned (gconstpointer p)
{
  return ((guintptr) p & (TW_PAGES_HUGE_BYTES - 1)) == 0;
}

static void
test_map_aligned (void)
{
  guint8 *small = tw_pages_map_aligned (6 * MIB, TW_PAGES_SMALL);
  guint8 *huge = tw_pages_map_aligned (4 * MIB, TW_PAGES_HUGE | TW_PAGES_NORESERVE);

  g_assert_nonnull (small);
  g_assert_nonnull (huge);
  g_assert_true (is_huge_aligned (small));
  g_assert_true (is_huge_aligned (huge));
  /* all of it is there and writable, and populating it keeps what it holds */
  memset (small, 0xab, 6 * MIB);
  tw_pages_populate (small + 2 * MIB, 4 * MIB);
  g_assert_cmpuint (small[6 * MIB - 1], ==, 0xab);
  huge[4 * MIB - 1] = 1;
  g_assert_cmpint (munmap (small, 6 * MIB), ==, 0);
  g_assert_cmpint (munmap (huge, 4 * MIB), ==, 0);
  g_assert_cmpuint (tw_pages_get_physical_bytes (), >, 0);
}

/* More than half a huge page gets huge pages of its own; less comes from malloc. */
static void
test_alloc_block (void)
{
  guint8 *big = tw_pages_alloc_block (3 * MIB / 2);
  guint8 *bigger = tw_pages_alloc_block (5 * MIB);
  guint8 *small = tw_pages_alloc_block (100);

  g_assert_true (is_huge_aligned (big));
  g_assert_true (is_huge_aligned (bigger));
  memset (big, 1, 3 * MIB / 2);
  memset (bigger, 2, 5 * MIB);
  memset (small, 3, 100);
  free (big);
  free (bigger);
  free (small);
}

/* The holes of a memory file are allocated and mapped at once, read as zeros, and what
 * is written through the mapping is in the file; the pages around stay holes. */
static void
test_populate_new_file_pages (void)
{
  int fd = memfd_create ("test-pages", MFD_CLOEXEC);
  guint8 *map;
  guint8 *other;
  struct stat st;
  guint8 byte = 0xff;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, 8 * MIB), ==, 0);
  map = mmap (NULL, 8 * MIB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  g_assert_true (map != MAP_FAILED);

  tw_pages_populate_new_file_pages (map + 2 * MIB, 3 * MIB, fd, 2 * MIB);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_cmpint (st.st_blocks * 512, ==, 3 * MIB);
  /* nothing to do for nothing */
  tw_pages_populate_new_file_pages (map, 0, fd, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_cmpint (st.st_blocks * 512, ==, 3 * MIB);
  for (gsize i = 2 * MIB; i < 5 * MIB; i += 4096)
    g_assert_cmpuint (map[i], ==, 0);
  memset (map + 2 * MIB, 0x5a, 3 * MIB);
  g_assert_cmpint (pread (fd, &byte, 1, 5 * MIB - 1), ==, 1);
  g_assert_cmpuint (byte, ==, 0x5a);
  other = mmap (NULL, 8 * MIB, PROT_READ, MAP_SHARED, fd, 0);
  g_assert_true (other != MAP_FAILED);
  g_assert_cmpmem (other + 2 * MIB, 3 * MIB, map + 2 * MIB, 3 * MIB);
  g_assert_cmpuint (other[2 * MIB - 1], ==, 0);
  g_assert_cmpuint (other[5 * MIB], ==, 0);

  munmap (other, 8 * MIB);
  munmap (map, 8 * MIB);
  close (fd);
}

/* The smallest region that fits, the newest among equals; bounded by slots and bytes. */
static void
test_pool (void)
{
  static TwPageSlot slots[3];
  static TwPagePool pool = TW_PAGE_POOL_INIT (slots, 9 * MIB, 0, FALSE);
  guint8 *a = tw_pages_map_aligned (4 * MIB, TW_PAGES_SMALL);
  guint8 *b = tw_pages_map_aligned (2 * MIB, TW_PAGES_SMALL);
  guint8 *c = tw_pages_map_aligned (2 * MIB, TW_PAGES_SMALL);
  guint8 *d = tw_pages_map_aligned (4 * MIB, TW_PAGES_SMALL);
  gsize cap = 0;

  a[0] = 'a';
  g_assert_true (tw_page_pool_give (&pool, a, 4 * MIB, 4 * MIB));
  g_assert_true (tw_page_pool_give (&pool, b, 2 * MIB, 2 * MIB));
  /* 6 of 9 MiB are kept: 4 more do not fit */
  g_assert_false (tw_page_pool_give (&pool, d, 4 * MIB, 4 * MIB));
  g_assert_true (tw_page_pool_give (&pool, c, 2 * MIB, 2 * MIB));
  /* three slots taken: nothing more, however small */
  g_assert_false (tw_page_pool_give (&pool, d, 4 * MIB, 0));

  g_assert_true (tw_page_pool_take (&pool, MIB, &cap) == c);
  g_assert_cmpuint (cap, ==, 2 * MIB);
  g_assert_true (tw_page_pool_take (&pool, 3 * MIB, &cap) == a);
  g_assert_cmpuint (cap, ==, 4 * MIB);
  /* kept without MADV_FREE: what it held is still there */
  g_assert_cmpint (a[0], ==, 'a');
  g_assert_null (tw_page_pool_take (&pool, 3 * MIB, &cap));
  g_assert_true (tw_page_pool_give (&pool, d, 4 * MIB, 4 * MIB));
  g_assert_true (tw_page_pool_take (&pool, 2 * MIB, &cap) == b);
  g_assert_true (tw_page_pool_take (&pool, 2 * MIB, &cap) == d);
  g_assert_null (tw_page_pool_take (&pool, 1, &cap));

  munmap (a, 4 * MIB);
  munmap (b, 2 * MIB);
  munmap (c, 2 * MIB);
  munmap (d, 4 * MIB);
}

/* A pool bounded by a share of memory counts only what is resident; kept pages are
 * advised MADV_FREE and stay mapped. */
static void
test_pool_memory_share (void)
{
  static TwPageSlot slots[2];
  static TwPagePool pool = TW_PAGE_POOL_INIT (slots, 0, 1, TRUE);
  guint8 *a = tw_pages_map_aligned (8 * MIB, TW_PAGES_HUGE | TW_PAGES_NORESERVE);
  gsize cap = 0;

  memset (a, 1, 2 * MIB);
  g_assert_true (tw_page_pool_give (&pool, a, 8 * MIB, 2 * MIB));
  g_assert_cmpuint (pool.bytes, ==, 2 * MIB);
  g_assert_true (tw_page_pool_take (&pool, 8 * MIB, &cap) == a);
  g_assert_cmpuint (pool.bytes, ==, 0);
  memset (a, 2, 8 * MIB);
  munmap (a, 8 * MIB);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tw/data/pages/map-aligned", test_map_aligned);
  g_test_add_func ("/tw/data/pages/alloc-block", test_alloc_block);
  g_test_add_func ("/tw/data/pages/populate-new-file-pages", test_populate_new_file_pages);
  g_test_add_func ("/tw/data/pages/pool", test_pool);
  g_test_add_func ("/tw/data/pages/pool-memory-share", test_pool_memory_share);

  return g_test_run ();
}
