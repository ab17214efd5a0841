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

/* A task of @host: the way a source of several targets names it. */
static guint32
add_host_task (TwTrace    *trace,
               const char *host,
               const char *id,
               const char *name,
               gint64      pid,
               gint64      tid)
{
  g_autofree char *source_id = g_strdup_printf ("%s/%s", host, id);
  guint32 task = tw_trace_add_task (trace, source_id, name, pid, tid);

  tw_trace_set_task_host (trace, task, host);
  return task;
}

/* Two machines in one trace (LTTng live of two targets): host B's CPU 0 first seen, then
 * host A's CPUs 1 and 0; both run a process pid 100 of two threads. CPU rows go host by
 * host in each one's CPU order, labelled by host; the processes are two, one per host,
 * and collapsing one leaves the other. */
static void
test_hosts (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelineLayout) layout = NULL;
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 b0 = tw_trace_add_host_cpu (trace, "hostB", 0);
  guint16 a1 = tw_trace_add_host_cpu (trace, "hostA", 1);
  guint16 a0 = tw_trace_add_host_cpu (trace, "hostA", 0);
  guint32 idle_a = add_host_task (trace, "hostA", "0", "swapper", 0, 0);
  guint32 idle_b = add_host_task (trace, "hostB", "0", "swapper", 0, 0);
  guint32 a_main = add_host_task (trace, "hostA", "100", "app", 100, 100);
  guint32 a_thread = add_host_task (trace, "hostA", "101", "app", 100, 101);
  guint32 b_main = add_host_task (trace, "hostB", "100", "app", 100, 100);
  guint32 b_thread = add_host_task (trace, "hostB", "101", "app", 100, 101);
  const char *want_cpus[] = { "hostA: CPU 0", "hostA: CPU 1", "hostB: CPU 0" };
  const TwTimelineRow *rows;
  guint n_rows, n_cpu = 0, n_process = 0;
  int process_b = -1;
  guint16 host_cpu;

  g_assert_cmpuint (b0, ==, 0);
  g_assert_cmpuint (a1, ==, 1);
  g_assert_cmpuint (a0, ==, 2);
  g_assert_cmpuint (tw_trace_add_host_cpu (trace, "hostA", 1), ==, a1);
  g_assert_cmpstr (tw_trace_get_cpu_host (trace, a0, &host_cpu), ==, "hostA");
  g_assert_cmpuint (host_cpu, ==, 0);
  g_assert_cmpuint (tw_trace_get_n_hosts (trace), ==, 2);
  g_assert_cmpuint (tw_trace_lookup_task (trace, "hostA/100"), !=, tw_trace_lookup_task (trace, "hostB/100"));
  {
    g_autofree char *label = tw_trace_dup_task_label (trace, b_thread);
    g_autofree char *cpu = tw_trace_dup_cpu_label (trace, a1);

    g_assert_cmpstr (label, ==, "hostB: app-101");
    g_assert_cmpstr (cpu, ==, "hostA/1");
  }
  tw_trace_set_task_flags (trace, idle_a, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (trace, idle_b, TW_TASK_FLAG_IDLE);
  tw_test_append_switch (trace, sw, 0, b0, idle_b, b_main, NULL);
  tw_test_append_switch (trace, sw, 10, a1, idle_a, a_thread, NULL);
  tw_test_append_switch (trace, sw, 20, a0, idle_a, a_main, NULL);
  tw_test_append_switch (trace, sw, 30, b0, b_main, b_thread, "R");
  tw_test_append_switch (trace, sw, 40, b0, b_thread, idle_b, "S");
  tw_test_append_switch (trace, sw, 50, a0, a_main, idle_a, "S");
  tw_test_append_switch (trace, sw, 60, a1, a_thread, idle_a, "S");
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  layout = tw_timeline_layout_new (model);

  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *label = tw_timeline_layout_dup_row_label (layout, &rows[i]);

      if (rows[i].kind == TW_TIMELINE_ROW_CPU)
        g_assert_cmpstr (label, ==, want_cpus[n_cpu++]);
      else if (rows[i].kind == TW_TIMELINE_ROW_PROCESS)
        {
          g_assert_cmpstr (label, ==, n_process == 0 ? "hostA: app (100, 2 threads)" : "hostB: app (100, 2 threads)");
          if (n_process++ == 1)
            process_b = (int) i;
        }
      else if (rows[i].kind == TW_TIMELINE_ROW_TASK)
        g_assert_true (g_str_has_prefix (label, n_process == 1 ? "hostA: " : "hostB: "));
    }
  g_assert_cmpuint (n_cpu, ==, 3);
  g_assert_cmpuint (n_process, ==, 2);

  /* collapsing host B's pid 100 leaves host A's open */
  tw_timeline_layout_toggle_row (layout, (guint) process_b);
  g_assert_true (tw_timeline_layout_is_collapsed (layout, (guint) process_b));
  rows = tw_timeline_layout_get_rows (layout, &n_rows);
  for (guint i = 0; i < n_rows; i++)
    if (rows[i].kind == TW_TIMELINE_ROW_PROCESS && (int) i != process_b)
      g_assert_false (tw_timeline_layout_is_collapsed (layout, i));
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, b_thread), ==, process_b);
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, a_thread), >, 0);
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, a_thread), <, process_b);
}

/* The rows as "kind:label" lines, top to bottom (H host, S section, C CPU, P process,
 * T task, N counter), collapsed headers marked with "+". */
static char *
dup_outline (TwTimelineLayout *layout)
{
  static const char kinds[] = { [TW_TIMELINE_ROW_SECTION] = 'S', [TW_TIMELINE_ROW_CPU] = 'C',
                                [TW_TIMELINE_ROW_PROCESS] = 'P', [TW_TIMELINE_ROW_TASK] = 'T',
                                [TW_TIMELINE_ROW_COUNTER] = 'N', [TW_TIMELINE_ROW_HOST] = 'H' };
  GString *out = g_string_new (NULL);
  guint n_rows;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (layout, &n_rows);

  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *label = tw_timeline_layout_dup_row_label (layout, &rows[i]);

      g_string_append_printf (out, "%c%s%*s%s\n", kinds[rows[i].kind],
                              tw_timeline_layout_is_collapsed (layout, i) ? "+" : ":",
                              rows[i].indent * 2, "", label);
    }
  return g_string_free (out, FALSE);
}

/* Two machines get a header row each, with their CPU and task counts and their CPU rows,
 * then task rows, below; collapsing one hides exactly its rows, and its CPUs' and tasks'
 * rows are its header while it is collapsed (what the selection and Enter land on). A
 * trace of one named machine has no header row. */
static void
test_host_headers (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelineLayout) layout = NULL;
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 b0 = tw_trace_add_host_cpu (trace, "beta", 0);
  guint16 a1 = tw_trace_add_host_cpu (trace, "alpha", 1);
  guint16 a0 = tw_trace_add_host_cpu (trace, "alpha", 0);
  guint32 idle_a = add_host_task (trace, "alpha", "0", "swapper", 0, 0);
  guint32 idle_b = add_host_task (trace, "beta", "0", "swapper", 0, 0);
  guint32 a_main = add_host_task (trace, "alpha", "100", "app", 100, 100);
  guint32 a_thread = add_host_task (trace, "alpha", "101", "app", 100, 101);
  guint32 b_shell = add_host_task (trace, "beta", "7", "sh", 7, 7);
  g_autofree char *expanded = NULL;
  g_autofree char *collapsed = NULL;
  g_autofree char *again = NULL;
  int alpha, beta;
  guint n_rows;

  tw_trace_set_task_flags (trace, idle_a, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (trace, idle_b, TW_TASK_FLAG_IDLE);
  tw_test_append_switch (trace, sw, 0, b0, idle_b, b_shell, NULL);
  tw_test_append_switch (trace, sw, 10, a1, idle_a, a_thread, NULL);
  tw_test_append_switch (trace, sw, 20, a0, idle_a, a_main, NULL);
  tw_test_append_switch (trace, sw, 40, b0, b_shell, idle_b, "S");
  tw_test_append_switch (trace, sw, 50, a0, a_main, idle_a, "S");
  tw_test_append_switch (trace, sw, 60, a1, a_thread, idle_a, "S");
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  layout = tw_timeline_layout_new (model);

  expanded = dup_outline (layout);
  g_assert_cmpstr (expanded, ==,
                   "H:alpha (2 CPUs, 2 tasks)\n"
                   "C:  alpha: CPU 0\n"
                   "C:  alpha: CPU 1\n"
                   "P:  alpha: app (100, 2 threads)\n"
                   "T:    alpha: app-101\n"   /* more CPU time */
                   "T:    alpha: app-100\n"
                   "H:beta (1 CPU, 1 task)\n"
                   "C:  beta: CPU 0\n"
                   "T:  beta: sh-7\n");
  g_assert_cmpuint (tw_timeline_layout_get_n_host_groups (layout), ==, 2);
  alpha = 0;
  beta = 6;
  g_assert_true (tw_timeline_layout_is_header (layout, alpha));
  g_assert_false (tw_timeline_layout_is_header (layout, 1));
  g_assert_cmpint (tw_timeline_layout_find_header (layout, 1), ==, alpha);
  g_assert_cmpint (tw_timeline_layout_find_header (layout, 4), ==, 3);
  g_assert_cmpint (tw_timeline_layout_find_header (layout, 3), ==, 3);
  g_assert_cmpint (tw_timeline_layout_find_header (layout, 8), ==, beta);

  /* a host's header stands for its tasks (Show Only This Host) */
  {
    g_autoptr(GArray) tasks = tw_timeline_layout_dup_row_tasks (layout, beta);

    g_assert_cmpuint (tasks->len, ==, 1);
    g_assert_cmpuint (g_array_index (tasks, guint32, 0), ==, b_shell);
  }

  tw_timeline_layout_toggle_row (layout, alpha);
  collapsed = dup_outline (layout);
  g_assert_cmpstr (collapsed, ==,
                   "H+alpha (2 CPUs, 2 tasks)\n"
                   "H:beta (1 CPU, 1 task)\n"
                   "C:  beta: CPU 0\n"
                   "T:  beta: sh-7\n");
  g_assert_cmpint (tw_timeline_layout_find_cpu_row (layout, a1), ==, 0);
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, a_thread), ==, 0);
  g_assert_cmpint (tw_timeline_layout_find_cpu_row (layout, b0), ==, 2);
  g_assert_cmpint (tw_timeline_layout_find_task_row (layout, b_shell), ==, 3);
  g_assert_cmpint (tw_timeline_layout_get_height (layout), ==,
                   2 * TW_TIMELINE_SECTION_HEIGHT + TW_TIMELINE_CPU_HEIGHT + TW_TIMELINE_TASK_HEIGHT);
  /* the click on a header's row toggles it back; a CPU row is left alone */
  tw_timeline_layout_toggle_row (layout, 2);
  g_assert_cmpuint ((tw_timeline_layout_get_rows (layout, &n_rows), n_rows), ==, 4);
  tw_timeline_layout_toggle_row (layout, alpha);
  again = dup_outline (layout);
  g_assert_cmpstr (again, ==, expanded);

  /* the state lives by host name: a rebuilt layout (a live trace's update) keeps it */
  tw_timeline_layout_toggle_row (layout, beta);
  tw_timeline_layout_update (layout);
  g_assert_true (tw_timeline_layout_is_collapsed (layout, beta));
}

/* Targets traced in user space only (LTTng UST, a target's sensors): their headers count
 * their tasks and say nothing of CPUs they have no rows of ("tA (0 CPUs, 2 tasks)" read
 * as a machine without processors). */
static void
test_host_headers_without_cpus (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelineLayout) layout = NULL;
  guint16 user = tw_trace_add_event_type (trace, "job", NULL, TW_EVENT_KIND_USER, NULL, 0, NULL);
  guint32 a0 = add_host_task (trace, "tA", "10", "demo-rt-0", 10, 10);
  guint32 a1 = add_host_task (trace, "tA", "11", "demo-rt-1", 10, 11);
  guint32 b0 = add_host_task (trace, "tB", "10", "demo-rt-0", 10, 10);
  g_autofree char *outline = NULL;

  tw_trace_append (trace, 0, TW_CPU_NONE, user, a0, 0, NULL);
  tw_trace_append (trace, 5, TW_CPU_NONE, user, a1, 0, NULL);
  tw_trace_append (trace, 10, TW_CPU_NONE, user, b0, 0, NULL);
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  layout = tw_timeline_layout_new (model);
  outline = dup_outline (layout);
  g_test_message ("%s", outline);
  g_assert_true (g_str_has_prefix (outline, "H:tA (2 tasks)\n"));
  g_assert_nonnull (strstr (outline, "\nH:tB (1 task)\n"));
}

/* A trace whose machines are named but one: no header row, rows as in any trace. */
static void
test_one_host_no_header (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwTimelineLayout) layout = NULL;
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 c0 = tw_trace_add_host_cpu (trace, "solo", 0);
  guint32 idle = add_host_task (trace, "solo", "0", "swapper", 0, 0);
  guint32 task = add_host_task (trace, "solo", "5", "w", 5, 5);
  g_autofree char *outline = NULL;

  tw_trace_set_task_flags (trace, idle, TW_TASK_FLAG_IDLE);
  tw_test_append_switch (trace, sw, 0, c0, idle, task, NULL);
  tw_test_append_switch (trace, sw, 10, c0, task, idle, "S");
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  layout = tw_timeline_layout_new (model);
  outline = dup_outline (layout);
  g_assert_cmpstr (outline, ==, "S:CPUs\nC:  solo: CPU 0\nS:Tasks\nT:  solo: w-5\n");
  g_assert_cmpuint (tw_timeline_layout_get_n_host_groups (layout), ==, 0);
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
  g_test_add_func ("/tw/widgets/timeline-layout/hosts", test_hosts);
  g_test_add_func ("/tw/widgets/timeline-layout/host-headers", test_host_headers);
  g_test_add_func ("/tw/widgets/timeline-layout/one-host-no-header", test_one_host_no_header);
  g_test_add_func ("/tw/widgets/timeline-layout/host-headers-without-cpus", test_host_headers_without_cpus);

  return g_test_run ();
}
