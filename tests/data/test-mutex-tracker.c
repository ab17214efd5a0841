/* test-mutex-tracker.c: owners and waiters of mutexes replayed from events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

static guint32
waiter (const TwMutexState *state,
        guint               i)
{
  g_assert_cmpuint (i, <, state->waiters->len);
  return g_array_index (state->waiters, guint32, i);
}

static void
test_owner_and_waiters (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwMutexTracker) tracker = NULL;
  guint16 lock = tw_test_add_simple_type (trace, "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  guint16 unlock = tw_test_add_simple_type (trace, "mutex_unlock", TW_EVENT_KIND_MUTEX_UNLOCK);
  guint16 wait = tw_test_add_simple_type (trace, "mutex_wait", TW_EVENT_KIND_MUTEX_WAIT);
  guint16 other = tw_test_add_simple_type (trace, "other", TW_EVENT_KIND_OTHER);
  const TwMutexState *m7;
  const TwMutexState *m9;

  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *id = g_strdup_printf ("t%u", t);
      tw_trace_add_task (trace, id, id, -1, -1);
    }
  tw_trace_append (trace, 10, 0, lock, 0, 7, NULL);    /* t0 takes m7 */
  tw_trace_append (trace, 20, 1, wait, 1, 7, NULL);    /* t1 waits on m7 */
  tw_trace_append (trace, 25, 1, other, 1, 7, NULL);   /* not a mutex event */
  tw_trace_append (trace, 30, 1, wait, 2, 7, NULL);    /* t2 waits on m7 */
  tw_trace_append (trace, 35, 0, lock, 0, 9, NULL);    /* t0 takes m9 */
  tw_trace_append (trace, 40, 0, unlock, 0, 7, NULL);  /* t0 frees m7 */
  tw_trace_append (trace, 50, 1, lock, 2, 7, NULL);    /* t2 takes m7, t1 still waits */
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  tracker = tw_mutex_tracker_new (trace);
  g_assert_true (tw_mutex_tracker_has_mutexes (tracker));

  tw_mutex_tracker_advance_to (tracker, 30);
  g_assert_cmpuint (tw_mutex_tracker_get_n_mutexes (tracker), ==, 1);
  m7 = tw_mutex_tracker_get_mutex (tracker, 0);
  g_assert_cmpuint (m7->mutex, ==, 7);
  g_assert_cmpuint (m7->owner, ==, 0);
  g_assert_cmpuint (m7->owned_since, ==, 10);
  g_assert_cmpuint (m7->waiters->len, ==, 2);
  g_assert_cmpuint (waiter (m7, 0), ==, 1);
  g_assert_cmpuint (waiter (m7, 1), ==, 2);

  tw_mutex_tracker_advance_to (tracker, 45);
  g_assert_cmpuint (tw_mutex_tracker_get_n_mutexes (tracker), ==, 2);
  m7 = tw_mutex_tracker_get_mutex (tracker, 0);
  m9 = tw_mutex_tracker_get_mutex (tracker, 1);
  g_assert_cmpuint (m7->owner, ==, TW_TASK_NONE);
  g_assert_cmpuint (m9->owner, ==, 0);

  tw_mutex_tracker_advance_to (tracker, 1000);
  m7 = tw_mutex_tracker_get_mutex (tracker, 0);
  g_assert_cmpuint (m7->owner, ==, 2);
  g_assert_cmpuint (m7->owned_since, ==, 50);
  g_assert_cmpuint (m7->waiters->len, ==, 1);
  g_assert_cmpuint (waiter (m7, 0), ==, 1);

  /* going back replays from the start */
  tw_mutex_tracker_advance_to (tracker, 15);
  g_assert_cmpuint (tw_mutex_tracker_get_n_mutexes (tracker), ==, 1);
  m7 = tw_mutex_tracker_get_mutex (tracker, 0);
  g_assert_cmpuint (m7->owner, ==, 0);
  g_assert_cmpuint (m7->waiters->len, ==, 0);
}

static void
test_no_mutexes (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwMutexTracker) tracker = NULL;
  guint16 other = tw_test_add_simple_type (trace, "other", TW_EVENT_KIND_OTHER);

  tw_trace_append (trace, 10, 0, other, TW_TASK_NONE, 7, NULL);
  tracker = tw_mutex_tracker_new (trace);
  g_assert_false (tw_mutex_tracker_has_mutexes (tracker));
  tw_mutex_tracker_advance_to (tracker, 100);
  g_assert_cmpuint (tw_mutex_tracker_get_n_mutexes (tracker), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/data/mutex-tracker/owner-and-waiters", test_owner_and_waiters);
  g_test_add_func ("/tw/data/mutex-tracker/no-mutexes", test_no_mutexes);

  return g_test_run ();
}
