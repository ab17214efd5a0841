/* test-lost-events.c: losses as events of the store, and what they cover
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

static void
test_none (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 user = tw_test_add_simple_type (trace, "user", TW_EVENT_KIND_USER);
  g_autoptr(TwLostEvents) lost = NULL;
  gsize n;

  tw_trace_append (trace, 10, 0, user, TW_TASK_NONE, 1, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  lost = tw_lost_events_new (trace);
  tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_reports, ==, 0);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 0)->n_reports, ==, 0);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 0, G_MAXUINT64), ==, 0);
}

/* CPU 0: events at 100, 200, a loss of 5 known at 400 (gap 200–400), 500; CPU 1: a
 * loss of unknown size at 300 after an event at 250; a loss without CPU at 600 that
 * says it began at 550. */
static TwTrace *
new_lossy_trace (void)
{
  TwTrace *trace = tw_trace_new ();
  guint16 user = tw_test_add_simple_type (trace, "user", TW_EVENT_KIND_USER);
  guint16 lost = tw_lost_events_add_type (trace, "lost_events", NULL);

  tw_trace_append (trace, 100, 0, user, TW_TASK_NONE, 1, NULL);
  tw_trace_append (trace, 200, 0, user, TW_TASK_NONE, 1, NULL);
  tw_trace_append (trace, 250, 1, user, TW_TASK_NONE, 1, NULL);
  tw_lost_events_append (trace, lost, 300, 1, TW_LOST_COUNT_UNKNOWN, 0, TW_TIME_NONE);
  tw_lost_events_append (trace, lost, 400, 0, 5, 0, TW_TIME_NONE);
  tw_trace_append (trace, 400, 0, user, TW_TASK_NONE, 1, NULL);
  tw_trace_append (trace, 500, 0, user, TW_TASK_NONE, 1, NULL);
  tw_lost_events_append (trace, lost, 600, TW_CPU_NONE, 3, 0, 550);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static void
test_losses (void)
{
  g_autoptr(TwTrace) trace = new_lossy_trace ();
  g_autoptr(TwLostEvents) lost = tw_lost_events_new (trace);
  const TwLoss *losses;
  TwEvent ev;
  gsize n;

  /* in the store: arg = count, fields count and since when known */
  g_assert_true (tw_trace_get_event (trace, 4, &ev));
  g_assert_cmpuint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_LOST);
  g_assert_cmpuint (ev.arg, ==, 5);
  g_assert_cmpuint (ev.task, ==, TW_TASK_NONE);
  {
    g_autofree char *count = tw_test_dup_event_field (trace, 4, "count");
    g_autofree char *since = tw_test_dup_event_field (trace, 4, "since");
    g_autofree char *unknown = tw_test_dup_event_field (trace, 3, "count");
    g_autofree char *text = tw_trace_format_args (trace, &ev);

    g_assert_cmpstr (count, ==, "5");
    g_assert_null (since);
    g_assert_null (unknown);
    g_assert_cmpstr (text, ==, "count=5");
  }

  losses = tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (losses[0].end, ==, 300);
  g_assert_cmpuint (losses[0].begin, ==, 250);
  g_assert_cmpuint (losses[0].cpu, ==, 1);
  g_assert_cmpuint (losses[0].count, ==, TW_LOST_COUNT_UNKNOWN);
  g_assert_cmpuint (losses[1].begin, ==, 200);
  g_assert_cmpuint (losses[1].end, ==, 400);
  g_assert_cmpuint (losses[1].count, ==, 5);
  g_assert_cmpuint (losses[1].index, ==, 4);
  g_assert_cmpuint (losses[2].begin, ==, 550);
  g_assert_cmpuint (losses[2].cpu, ==, TW_CPU_NONE);

  g_assert_cmpuint (tw_lost_events_get_totals (lost, 0)->n_reports, ==, 1);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 0)->n_lost, ==, 5);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 1)->n_unknown, ==, 1);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 1)->n_lost, ==, 0);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 7)->n_reports, ==, 0);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_reports, ==, 3);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_lost, ==, 8);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_unknown, ==, 1);
}

/* A measurement is flagged by every gap it overlaps, on any CPU; an unknown count is at
 * least one event. */
static void
test_count_between (void)
{
  g_autoptr(TwTrace) trace = new_lossy_trace ();
  g_autoptr(TwLostEvents) lost = tw_lost_events_new (trace);

  g_assert_cmpuint (tw_lost_events_count_between (lost, 0, 200), ==, 0);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 100, 201), ==, 5);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 260, 270), ==, 1 + 5);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 300, 399), ==, 5);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 400, 550), ==, 0);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 500, 560), ==, 3);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 350, 350), ==, 5);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 0, G_MAXUINT64), ==, 9);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 601, G_MAXUINT64), ==, 0);
}

/* Whole packets lost (CTF) count their packets: each held at least one event. */
static void
test_packets (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 lost = tw_lost_events_add_type (trace, "discarded_packets", NULL);
  g_autoptr(TwLostEvents) losses = NULL;

  tw_lost_events_append (trace, lost, 900, 2, TW_LOST_COUNT_UNKNOWN, 3, 700);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  losses = tw_lost_events_new (trace);
  g_assert_cmpuint (tw_lost_events_get_totals (losses, 2)->n_packets, ==, 3);
  g_assert_cmpuint (tw_lost_events_get_totals (losses, 2)->n_unknown, ==, 1);
  g_assert_cmpuint (tw_lost_events_count_between (losses, 800, 850), ==, 3);
  g_assert_cmpuint (tw_lost_events_count_between (losses, 600, 700), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/data/lost-events/none", test_none);
  g_test_add_func ("/tw/data/lost-events/losses", test_losses);
  g_test_add_func ("/tw/data/lost-events/count-between", test_count_between);
  g_test_add_func ("/tw/data/lost-events/packets", test_packets);

  return g_test_run ();
}
