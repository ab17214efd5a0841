/* test-huge-array.c: the growable array that moves to huge pages
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-huge-array.h>

#include <sys/mman.h>
#include <glib/gstdio.h>

#define MIB ((gsize) 1 << 20)

/* A value no two indexes share and no zeroed or reused page holds by chance. */
static guint64
value_at (gsize i)
{
  return (guint64) i * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) + 1;
}

static void
assert_values (const TwHugeArray *array,
               gsize              n)
{
  g_assert_cmpuint (array->len, ==, n);
  for (gsize i = 0; i < n; i++)
    if (TW_HUGE_ARRAY_AT (array, guint64, i) != value_at (i))
      g_assert_cmphex (TW_HUGE_ARRAY_AT (array, guint64, i), ==, value_at (i));
}

/* Pushing one element at a time: malloc memory, then a private mapping below 4 MiB,
 * then a 2 MiB aligned reservation that later growth never moves. */
static void
test_growth_across_threshold (void)
{
  TwHugeArray array;
  gsize threshold = 4 * MIB / sizeof (guint64);
  gsize n = 6 * threshold; /* 24 MiB */
  gsize moved_at = 0;
  guint8 *mapped_data = NULL;

  tw_huge_array_init (&array, sizeof (guint64));
  g_assert_null (array.data);
  g_assert_cmpuint (array.len, ==, 0);
  g_assert_cmpuint (array.cap, ==, 0);

  for (gsize i = 0; i < n; i++)
    {
      gboolean was_mapped = array.mapped;

      *(guint64 *) tw_huge_array_push (&array) = value_at (i);
      if (array.mapped && !was_mapped)
        {
          moved_at = i;
          mapped_data = array.data;
        }
      else if (array.mapped)
        g_assert_true (array.data == mapped_data);
    }

  /* malloc doubles 16, 32, … elements: the first capacity of 4 MiB or more is the
   * reservation, taken by the push that finds 2 MiB full */
  g_assert_true (array.mapped);
  g_assert_cmpuint (moved_at, ==, threshold / 2);
  g_assert_cmpuint ((guintptr) array.data % (2 * MIB), ==, 0);
  g_assert_cmpuint (array.map_size, >=, (gsize) 16 << 30);
  g_assert_cmpuint (array.cap, >=, n * sizeof (guint64));
  g_assert_null (array.spill);
  assert_values (&array, n);

  tw_huge_array_clear (&array);
}

/* One reserve straight past the threshold from malloc memory keeps what was there. */
static void
test_reserve_and_append (void)
{
  TwHugeArray array;
  g_autofree guint64 *block = g_new (guint64, 1000);
  gsize big = 8 * MIB / sizeof (guint64);

  tw_huge_array_init (&array, sizeof (guint64));
  for (gsize i = 0; i < 1000; i++)
    block[i] = value_at (i);
  tw_huge_array_append (&array, block, 1000);
  tw_huge_array_append (&array, NULL, 0);
  g_assert_false (array.mapped);
  g_assert_cmpuint (array.cap, >=, 1000 * sizeof (guint64));
  assert_values (&array, 1000);

  tw_huge_array_reserve (&array, big);
  g_assert_true (array.mapped);
  g_assert_cmpuint (array.cap, >=, big * sizeof (guint64));
  assert_values (&array, 1000);

  for (gsize i = 1000; i < big; i += 1000)
    {
      gsize count = MIN (1000, big - i);

      for (gsize j = 0; j < count; j++)
        block[j] = value_at (i + j);
      tw_huge_array_append (&array, block, count);
    }
  assert_values (&array, big);

  /* dropping elements at the end by lowering len, as a series pops its last one */
  array.len = 10;
  *(guint64 *) tw_huge_array_push (&array) = value_at (10);
  assert_values (&array, 11);

  tw_huge_array_clear (&array);
}

/* Elements wider than a byte count that fits a guint, and growth past the 16 GiB
 * reservation (address space only: just four pages are touched). */
static void
test_grow_past_reservation (void)
{
  TwHugeArray array;
  gsize element = MIB;
  gsize first = 17 * 1024; /* 17 GiB */
  gsize second = 40 * 1024;
  guint8 *p;

  tw_huge_array_init (&array, element);
  tw_huge_array_reserve (&array, first);
  g_assert_true (array.mapped);
  g_assert_cmpuint (array.cap, >=, first * element);
  array.data[0] = 0x5a;
  array.data[first * element - 1] = 0xa5;

  tw_huge_array_reserve (&array, second);
  g_assert_cmpuint (array.cap, >=, second * element);
  g_assert_cmpuint (array.data[0], ==, 0x5a);
  g_assert_cmpuint (array.data[first * element - 1], ==, 0xa5);
  g_assert_cmpuint (array.data[first * element], ==, 0);
  p = array.data + second * element - 1;
  *p = 0x3c;
  g_assert_cmpuint (*p, ==, 0x3c);

  tw_huge_array_clear (&array);
}

/* Clear frees both kinds of memory and leaves an empty array that works again. */
static void
test_clear (void)
{
  TwHugeArray array;
  gsize big = 5 * MIB / sizeof (guint64);

  tw_huge_array_init (&array, sizeof (guint64));
  tw_huge_array_clear (&array);
  g_assert_null (array.data);

  for (gsize i = 0; i < 100; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i + 7);
  g_assert_false (array.mapped);
  tw_huge_array_clear (&array);
  g_assert_null (array.data);
  g_assert_cmpuint (array.len, ==, 0);
  g_assert_cmpuint (array.cap, ==, 0);
  g_assert_cmpuint (array.element_size, ==, sizeof (guint64));

  for (gsize i = 0; i < big; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_true (array.mapped);
  assert_values (&array, big);
  tw_huge_array_clear (&array);
  g_assert_null (array.data);
  g_assert_false (array.mapped);
  g_assert_cmpuint (array.len, ==, 0);
  g_assert_cmpuint (array.cap, ==, 0);

  /* reused: starts in malloc again, holds only the new elements */
  for (gsize i = 0; i < 3; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_false (array.mapped);
  assert_values (&array, 3);
  tw_huge_array_clear (&array);
}

/* A cleared reservation serves the next array that grows past the threshold (its pages
 * are still there: no first touch); the new array holds only what it was given. */
static void
test_kept_reservation_reused (void)
{
  TwHugeArray first, second;
  gsize big = 12 * MIB / sizeof (guint64);
  guint8 *first_data;
  unsigned char resident = 0;

  tw_huge_array_init (&first, sizeof (guint64));
  for (gsize i = 0; i < big; i++)
    *(guint64 *) tw_huge_array_push (&first) = ~value_at (i);
  g_assert_true (first.mapped);
  first_data = first.data;
  tw_huge_array_clear (&first);
  g_assert_null (first.data);

  tw_huge_array_init (&second, sizeof (guint64));
  tw_huge_array_reserve (&second, big / 2);
  g_assert_true (second.mapped);
  g_assert_true (second.data == first_data);
  /* not a new mapping at the same address: its first page is there before any write */
  g_assert_cmpint (mincore (second.data, 4096, &resident), ==, 0);
  g_assert_cmpuint (resident & 1, ==, 1);
  for (gsize i = 0; i < big / 2; i++)
    *(guint64 *) tw_huge_array_push (&second) = value_at (i);
  g_assert_cmpuint (second.map_size, >=, (gsize) 16 << 30);
  assert_values (&second, big / 2);
  tw_huge_array_clear (&second);
}

/* Between 1 MiB and 4 MiB: a private mapping whose pages are there before the elements
 * that will fill them (populated ahead, where the kernel can), grown without losing a
 * value, and moved into the reservation at 4 MiB with every value. */
static void
test_private_mapping (void)
{
  TwHugeArray array;
  gsize n = 3 * MIB / 2 / sizeof (guint64);
  gsize big = 5 * MIB / sizeof (guint64);
  gsize next_page;
  unsigned char resident = 0;
  gboolean can_populate;
  guint8 *probe = mmap (NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  g_assert_true (probe != MAP_FAILED);
#ifdef MADV_POPULATE_WRITE
  can_populate = madvise (probe, 4096, MADV_POPULATE_WRITE) == 0;
#else
  can_populate = FALSE;
#endif
  munmap (probe, 4096);

  tw_huge_array_init (&array, sizeof (guint64));
  for (gsize i = 0; i < n; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_false (array.mapped);
  g_assert_cmpuint (array.map_size, >=, 2 * MIB);
  g_assert_cmpuint (array.map_size % 4096, ==, 0);
  g_assert_cmpuint (array.cap, <=, array.map_size);
  g_assert_cmpuint (array.cap, >=, n * sizeof (guint64));
  assert_values (&array, n);

  /* the page after the last element was never written, yet it is there */
  next_page = (n * sizeof (guint64) + 4095) & ~(gsize) 4095;
  if (can_populate && next_page < array.cap)
    {
      g_assert_cmpint (mincore (array.data + next_page, 4096, &resident), ==, 0);
      g_assert_cmpuint (resident & 1, ==, 1);
    }

  for (gsize i = n; i < big; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_true (array.mapped);
  g_assert_cmpuint (array.map_size, >=, (gsize) 16 << 30);
  g_assert_cmpuint ((guintptr) array.data % (2 * MIB), ==, 0);
  assert_values (&array, big);

  tw_huge_array_clear (&array);
  g_assert_null (array.data);
  g_assert_cmpuint (array.map_size, ==, 0);
  g_assert_cmpuint (array.cap, ==, 0);

  /* cleared in the mapping phase, then used again from malloc */
  for (gsize i = 0; i < n; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_cmpuint (array.map_size, >, 0);
  tw_huge_array_clear (&array);
  g_assert_cmpuint (array.map_size, ==, 0);
  *(guint64 *) tw_huge_array_push (&array) = value_at (0);
  assert_values (&array, 1);
  tw_huge_array_clear (&array);
}

/* Whether the mapping at @data is a file's (its inode in /proc/self/maps). */
static gboolean
is_file_mapping (gconstpointer data)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *start = g_strdup_printf ("%" G_GINT64_MODIFIER "x-", (guint64) (guintptr) data);

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], start))
      {
        g_auto(GStrv) fields = g_strsplit_set (lines[i], " ", -1);
        guint n = 0;

        /* address perms offset dev inode [path] */
        for (guint j = 0; fields[j]; j++)
          if (fields[j][0] != '\0' && ++n == 5)
            return g_ascii_strtoull (fields[j], NULL, 10) != 0;
      }
  g_assert_not_reached ();
}

static guint
count_open_files (void)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/fd", 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir))
    n++;
  return n;
}

/* Past the memory budget a growing array moves into a file where it was: every
 * element kept, its address the same, its pages a file's; clearing closes the file. */
static void
test_spill_over_budget (void)
{
  TwHugeArray array;
  gsize n = 160 * MIB / sizeof (guint64);
  guint files = count_open_files ();
  guint8 *mapped_data = NULL;
  gsize spilled_at = 0;

  tw_huge_array_set_memory_budget (16 * MIB);
  tw_huge_array_init (&array, sizeof (guint64));
  for (gsize i = 0; i < n; i++)
    {
      *(guint64 *) tw_huge_array_push (&array) = value_at (i);
      if (array.mapped && mapped_data == NULL)
        mapped_data = array.data;
      if (array.spill && spilled_at == 0)
        spilled_at = i;
    }
  g_assert_true (array.data == mapped_data);
  g_assert_nonnull (array.spill);
  /* counted at each eighth of growth: first over 16 MiB soon after */
  g_assert_cmpuint (spilled_at * sizeof (guint64), >, 16 * MIB);
  g_assert_cmpuint (spilled_at * sizeof (guint64), <=, 16 * MIB * 9 / 8 + 4 * MIB);
  g_assert_true (is_file_mapping (array.data));
  g_assert_cmpuint (count_open_files (), ==, files + 1);
  assert_values (&array, n);

  tw_huge_array_clear (&array);
  g_assert_null (array.spill);
  g_assert_cmpuint (count_open_files (), ==, files);

  /* reused: in memory again while under the budget */
  tw_huge_array_set_memory_budget (1ul << 40);
  for (gsize i = 0; i < n; i++)
    *(guint64 *) tw_huge_array_push (&array) = value_at (i);
  g_assert_null (array.spill);
  g_assert_false (is_file_mapping (array.data));
  assert_values (&array, n);
  tw_huge_array_clear (&array);
  tw_huge_array_set_memory_budget (0);
}

/* A spilled array outgrowing its reservation maps its file again in a larger one. */
static void
test_spill_past_reservation (void)
{
  TwHugeArray array;
  gsize n = 100 * MIB / sizeof (guint64);
  guint moves = 0;
  guint8 *data = NULL;

  tw_huge_array_set_memory_budget (1);
  _tw_huge_array_set_reservation_bytes (8 * MIB);
  tw_huge_array_init (&array, sizeof (guint64));
  for (gsize i = 0; i < n; i++)
    {
      *(guint64 *) tw_huge_array_push (&array) = value_at (i);
      if (array.spill && array.data != data)
        {
          moves++;
          data = array.data;
          g_assert_true (is_file_mapping (data));
        }
    }
  g_assert_cmpuint (moves, >=, 3);
  assert_values (&array, n);
  tw_huge_array_clear (&array);
  _tw_huge_array_set_reservation_bytes (0);
  tw_huge_array_set_memory_budget (0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/tw/data/huge-array/growth-across-threshold", test_growth_across_threshold);
  g_test_add_func ("/tw/data/huge-array/reserve-and-append", test_reserve_and_append);
  g_test_add_func ("/tw/data/huge-array/grow-past-reservation", test_grow_past_reservation);
  g_test_add_func ("/tw/data/huge-array/clear", test_clear);
  g_test_add_func ("/tw/data/huge-array/kept-reservation-reused", test_kept_reservation_reused);
  g_test_add_func ("/tw/data/huge-array/private-mapping", test_private_mapping);
  g_test_add_func ("/tw/data/huge-array/spill-over-budget", test_spill_over_budget);
  g_test_add_func ("/tw/data/huge-array/spill-past-reservation", test_spill_past_reservation);
  return g_test_run ();
}
