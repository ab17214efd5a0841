/* test-string-cache.c: the readers' string cache in front of the trace's string table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-kernel-common-private.h"

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tw/ingest/string-cache/bounded", test_bounded);
  return g_test_run ();
}
