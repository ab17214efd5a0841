/* test-string-cache.c: the readers' string cache in front of the trace's string table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-kernel-common-private.h"
#include "tw-lttng-live-protocol-private.h"
#include "tw-lttng-string-slots-private.h"

/* Text unique to each event (an LTTng tracef message) must not grow the cache without
 * end — every probe of a table of millions of slots is a miss to memory — and emptying
 * a full cache must not give a string seen before another id, nor forget the task state
 * a prev_state string names. */
static void
test_bounded (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  const guint n = 300000;
  g_autofree guint32 *ids = g_new (guint32, n);
  TwStringCache cache;
  guint32 running;

  _tw_string_cache_init (&cache, trace);
  running = _tw_string_cache_get_prev_state (&cache, "R+", 2);
  g_assert_cmpint (tw_trace_get_string_task_state (trace, running), ==, TW_TASK_STATE_READY);

  for (guint i = 0; i < n; i++)
    {
      char text[32];
      int len = g_snprintf (text, sizeof text, "tick %u", i);

      ids[i] = _tw_string_cache_get (&cache, text, len);
      g_assert_cmpuint (cache.mask + 1, <=, 1u << 17);
      /* each a new string of the table, none twice */
      g_assert_cmpuint (ids[i], ==, ids[0] + i);
    }

  /* every one again, after the cache was emptied several times: the same ids */
  for (guint i = 0; i < n; i += 7)
    {
      char text[32];
      int len = g_snprintf (text, sizeof text, "tick %u", i);

      g_assert_cmpuint (_tw_string_cache_get (&cache, text, len), ==, ids[i]);
    }
  g_assert_cmpuint (tw_trace_intern_string (trace, "one more"), ==, ids[n - 1] + 1);
  g_assert_cmpuint (_tw_string_cache_get_prev_state (&cache, "R+", 2), ==, running);
  g_assert_cmpint (tw_trace_get_string_task_state (trace, running), ==, TW_TASK_STATE_READY);
  _tw_string_cache_clear (&cache);
}

/* The LTTng live helper names payload strings by slots of a ring the parent keeps
 * (tw-lttng-string-slots-private.h). Played here as the helper and its parent play it:
 * rows gathered with the slots their strings got, new slots told before the rows, a
 * batch shipped at the latest when TW_LTTNG_STRING_SLOTS_PER_BATCH new slots wait. Every
 * row must read back its own text — also long after the ring came round, for strings
 * that repeat (a tracelog's file and function) beside strings unique to their event,
 * and for strings seen again a cache's worth later. */
typedef struct {
  guint32 id;
  char   *want;
} PendingRow;

static void
ship_rows (GPtrArray *ring,
           GArray    *news,
           GArray    *rows)
{
  for (guint i = 0; i < news->len; i++)
    {
      PendingRow *n = &g_array_index (news, PendingRow, i);

      g_assert_true (n->id & TW_LTTNG_STRING_SLOT);
      g_free (ring->pdata[n->id & (TW_LTTNG_STRING_SLOTS - 1)]);
      ring->pdata[n->id & (TW_LTTNG_STRING_SLOTS - 1)] = g_steal_pointer (&n->want);
    }
  g_array_set_size (news, 0);
  for (guint i = 0; i < rows->len; i++)
    {
      PendingRow *r = &g_array_index (rows, PendingRow, i);

      g_assert_cmpstr (ring->pdata[r->id & (TW_LTTNG_STRING_SLOTS - 1)], ==, r->want);
      g_free (r->want);
    }
  g_array_set_size (rows, 0);
}

static void
test_slots (void)
{
  TwLttngStringSlots *slots = _tw_lttng_string_slots_new ();
  g_autoptr(GPtrArray) ring = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) news = g_array_new (FALSE, FALSE, sizeof (PendingRow));
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (PendingRow));
  const guint n = 5 * TW_LTTNG_STRING_SLOTS;
  guint fresh_total = 0, hits = 0;

  g_ptr_array_set_size (ring, TW_LTTNG_STRING_SLOTS);
  for (guint i = 0; i < n; i++)
    {
      char text[64];
      int len;
      gboolean fresh;
      PendingRow row;

      if (i % 3 == 0)
        len = g_snprintf (text, sizeof text, "tw-emit.c:%u", i % 5);
      else if (i % 3 == 1 && i > TW_LTTNG_STRING_SLOTS_CACHED)
        len = g_snprintf (text, sizeof text, "tick %u", i - TW_LTTNG_STRING_SLOTS_CACHED + 2);
      else
        len = g_snprintf (text, sizeof text, "tick %u", i);
      row.id = _tw_lttng_string_slots_get (slots, text, len, &fresh);
      row.want = g_strdup (text);
      if (fresh)
        {
          PendingRow told = { row.id, g_strdup (text) };

          g_array_append_val (news, told);
          fresh_total++;
        }
      else
        hits++;
      g_array_append_val (rows, row);
      if (news->len >= TW_LTTNG_STRING_SLOTS_PER_BATCH)
        ship_rows (ring, news, rows);
    }
  ship_rows (ring, news, rows);
  /* the ring came round several times, and repeated strings were found in the cache */
  g_assert_cmpuint (fresh_total, >, 2 * TW_LTTNG_STRING_SLOTS);
  g_assert_cmpuint (hits, >, n / 4);
  _tw_lttng_string_slots_free (slots);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tw/ingest/string-cache/bounded", test_bounded);
  g_test_add_func ("/tw/ingest/string-cache/lttng-slots", test_slots);
  return g_test_run ();
}
