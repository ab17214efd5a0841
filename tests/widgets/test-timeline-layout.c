/* test-timeline-layout.c: the timeline's rows: order, stable places, lookups, changed
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-widgets.h>

#include "tw-test-utils.h"

typedef struct {
  TwTrace          *trace;
  TwStateModel     *model;
  TwTimelineLayout *layout;
  guint16           sw;
  guint32           idle, a, b, c;
  guint             n_changed;
} Fixture;

static void
changed_cb (Fixture *f)
{
  f->n_changed++;
}

/* A live trace (never sealed) on CPU 0: a runs [0, 1000), b [1000, 1500), then idle. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->trace = tw_trace_new ();
  f->sw = tw_test_add_switch_type (f->trace);
  f->idle = tw_trace_add_task (f->trace, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (f->trace, f->idle, TW_TASK_FLAG_IDLE);
  f->a = tw_trace_add_task (f->trace, "10", "a", 10, 10);
  f->b = tw_trace_add_task (f->trace, "20", "b", 20, 20);
  tw_test_append_switch (f->trace, f->sw, 0, 0, f->idle, f->a, NULL);
  tw_test_append_switch (f->trace, f->sw, 1000, 0, f->a, f->b, "R");
  tw_test_append_switch (f->trace, f->sw, 1500, 0, f->b, f->idle, "S");
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->layout = tw_timeline_layout_new (f->model);
  g_signal_connect_swapped (f->layout, "changed", G_CALLBACK (changed_cb), f);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->layout);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

/* The task rows' tasks, top to bottom, as "a b c". */
static char *
dup_task_order (Fixture *f)
{
  GString *order = g_string_new (NULL);
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (f->layout, &n);

  for (guint i = 0; i < n; i++)
    if (rows[i].kind == TW_TIMELINE_ROW_TASK)
      g_string_append_printf (order, "%s%s", order->len ? " " : "",
                              tw_trace_get_task (f->trace, rows[i].id)->name);
  return g_string_free (order, FALSE);
}

static void
grow (Fixture *f)
{
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  tw_timeline_layout_update (f->layout);
}

/* Sorted by CPU time at first; as the trace grows and b overtakes a, and a new task c
 * overtakes both, placed rows stay where they are and c comes below them; choosing the
 * sort again sorts everything. */
static void
test_live_order_is_stable (Fixture       *f,
                           gconstpointer  data)
{
  g_autofree char *first = dup_task_order (f);
  g_autofree char *grown = NULL;
  g_autofree char *sorted = NULL;

  g_assert_cmpstr (first, ==, "a b");

  tw_test_append_switch (f->trace, f->sw, 2000, 0, f->idle, f->b, NULL);
  tw_test_append_switch (f->trace, f->sw, 9000, 0, f->b, f->idle, "S");
  f->c = tw_trace_add_task (f->trace, "30", "c", 30, 30);
  tw_test_append_switch (f->trace, f->sw, 10000, 0, f->idle, f->c, NULL);
  tw_test_append_switch (f->trace, f->sw, 30000, 0, f->c, f->idle, "S");
  f->n_changed = 0;
  grow (f);
  g_assert_cmpuint (f->n_changed, ==, 1);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (f->model, f->b), >,
                    tw_state_model_get_task_cpu_time (f->model, f->a));
  grown = dup_task_order (f);
  g_assert_cmpstr (grown, ==, "a b c");

  tw_timeline_layout_set_task_sort (f->layout, TW_TASK_SORT_CPU_TIME);
  sorted = dup_task_order (f);
  g_assert_cmpstr (sorted, ==, "c b a");
  g_assert_cmpuint (f->n_changed, ==, 2);
}

/* A filter shows some tasks and keeps everyone's place for when it is lifted. */
static void
test_filter_keeps_places (Fixture       *f,
                          gconstpointer  data)
{
  g_autofree char *only_b = NULL;
  g_autofree char *all = NULL;

  tw_timeline_layout_set_task_sort (f->layout, TW_TASK_SORT_ID);
  tw_timeline_layout_set_task_filter (f->layout, &f->b, 1);
  only_b = dup_task_order (f);
  g_assert_cmpstr (only_b, ==, "b");
  g_assert_cmpint (tw_timeline_layout_find_task_row (f->layout, f->a), ==, -1);
  tw_timeline_layout_set_task_filter (f->layout, NULL, 0);
  all = dup_task_order (f);
  g_assert_cmpstr (all, ==, "a b");
}

/* The row that shows a task or a CPU: its own, or its collapsed section's header. */
static void
test_find_rows (Fixture       *f,
                gconstpointer  data)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (f->layout, &n);
  int cpu = tw_timeline_layout_find_cpu_row (f->layout, 0);
  int a = tw_timeline_layout_find_task_row (f->layout, f->a);
  int tasks_header;

  g_assert_cmpint (rows[cpu].kind, ==, TW_TIMELINE_ROW_CPU);
  g_assert_cmpint (rows[a].kind, ==, TW_TIMELINE_ROW_TASK);
  g_assert_cmpuint (rows[a].id, ==, f->a);
  g_assert_cmpint (tw_timeline_layout_find_task_row (f->layout, f->idle), ==, -1);
  g_assert_cmpint (tw_timeline_layout_find_cpu_row (f->layout, 5), ==, -1);

  tasks_header = a - 1;
  g_assert_cmpint (rows[tasks_header].kind, ==, TW_TIMELINE_ROW_SECTION);
  tw_timeline_layout_toggle_row (f->layout, tasks_header);
  g_assert_true (tw_timeline_layout_is_collapsed (f->layout, tasks_header));
  g_assert_cmpint (tw_timeline_layout_find_task_row (f->layout, f->a), ==, tasks_header);
  tw_timeline_layout_toggle_row (f->layout, 0);
  g_assert_cmpint (tw_timeline_layout_find_cpu_row (f->layout, 0), ==, 0);
  g_assert_cmpint (tw_timeline_layout_get_height (f->layout), ==, 2 * TW_TIMELINE_SECTION_HEIGHT);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) g_test_add ("/tw/widgets/timeline-layout/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("live-order-is-stable", test_live_order_is_stable);
  ADD ("filter-keeps-places", test_filter_keeps_places);
  ADD ("find-rows", test_find_rows);
#undef ADD

  return g_test_run ();
}
