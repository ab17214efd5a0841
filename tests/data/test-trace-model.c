/* test-trace-model.c: the event list's GListModel, its filters, and live growth
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

/* A small trace: tasks a (0), b (1), c (2); types switch (0), irq (1), mark (2). */
typedef struct {
  TwTrace *trace;
  guint16  t_switch;
  guint16  t_irq;
  guint16  t_mark;
} Small;

static void
small_build (Small *s)
{
  s->trace = tw_trace_new ();
  s->t_switch = tw_test_add_switch_type (s->trace);
  s->t_irq = tw_test_add_simple_type (s->trace, "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY);
  s->t_mark = tw_test_add_simple_type (s->trace, "user_mark", TW_EVENT_KIND_USER);
  tw_trace_add_task (s->trace, "1", "alpha", 10, 10);
  tw_trace_add_task (s->trace, "2", "beta", 20, 20);
  tw_trace_add_task (s->trace, "3", "gamma", 30, 31);

  /* row: time cpu type task arg */
  tw_test_append_switch (s->trace, s->t_switch, 100, 0, 0, 1, "S");      /* 0 */
  tw_trace_append (s->trace, 150, 1, s->t_irq, 2, 19, NULL);               /* 1 */
  tw_trace_append (s->trace, 200, 0, s->t_mark, 1, 7, NULL);               /* 2 */
  tw_test_append_switch (s->trace, s->t_switch, 300, 1, 2, 0, "R+");     /* 3 */
  tw_trace_append (s->trace, 400, 1, s->t_irq, 0, 19, NULL);               /* 4 */
  tw_trace_append (s->trace, 500, TW_CPU_NONE, s->t_mark, TW_TASK_NONE, 8, NULL); /* 5 */
  g_assert_true (tw_trace_seal (s->trace, NULL, NULL));
}

static guint64
index_at (GListModel *model,
          guint       position)
{
  g_autoptr(TwEventItem) item = g_list_model_get_item (model, position);

  g_assert_nonnull (item);
  return tw_event_item_get_index (item);
}

static void
test_items (void)
{
  Small s;
  g_autoptr(TwTraceModel) model = NULL;
  g_autoptr(TwEventItem) item = NULL;
  g_autofree char *label = NULL;
  g_autofree char *args = NULL;
  g_autofree char *irq_args = NULL;
  g_autoptr(TwEventItem) irq = NULL;

  small_build (&s);
  model = tw_trace_model_new (s.trace);

  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (model)) == TW_TYPE_EVENT_ITEM);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 6);
  g_assert_null (g_list_model_get_item (G_LIST_MODEL (model), 6));

  item = g_list_model_get_item (G_LIST_MODEL (model), 3);
  g_assert_cmpuint (tw_event_item_get_index (item), ==, 3);
  g_assert_cmpuint (tw_event_item_get_time (item), ==, 300);
  g_assert_cmpuint (tw_event_item_get_cpu (item), ==, 1);
  g_assert_cmpstr (tw_event_item_get_type_name (item), ==, "switch");
  label = tw_event_item_dup_task_label (item);
  g_assert_cmpstr (label, ==, "gamma-31");
  args = tw_event_item_dup_args (item);
  g_assert_cmpstr (args, ==, "next=alpha-10 prev_state=R+");

  irq = g_list_model_get_item (G_LIST_MODEL (model), 1);
  irq_args = tw_event_item_dup_args (irq);
  g_assert_cmpstr (irq_args, ==, "irq=19");

  g_object_unref (s.trace);
}

static guint
filtered_count (TwTraceModel  *model,
                TwEventFilter *filter)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_trace_model_set_filter (model, filter, NULL, &error));
  g_assert_no_error (error);
  return g_list_model_get_n_items (G_LIST_MODEL (model));
}

static void
test_filters (void)
{
  Small s;
  g_autoptr(TwTraceModel) model = NULL;
  g_autoptr(TwEventFilter) by_type = tw_event_filter_new ();
  g_autoptr(TwEventFilter) by_task = tw_event_filter_new ();
  g_autoptr(TwEventFilter) by_cpu = tw_event_filter_new ();
  g_autoptr(TwEventFilter) both = tw_event_filter_new ();
  g_autoptr(TwEventFilter) text = tw_event_filter_new ();
  g_autoptr(TwEventFilter) text_task = tw_event_filter_new ();
  g_autoptr(TwEventFilter) nothing = tw_event_filter_new ();

  small_build (&s);
  model = tw_trace_model_new (s.trace);

  tw_event_filter_add_type (by_type, s.t_irq);
  g_assert_cmpuint (filtered_count (model, by_type), ==, 2);
  g_assert_cmpuint (index_at (G_LIST_MODEL (model), 0), ==, 1);
  g_assert_cmpuint (index_at (G_LIST_MODEL (model), 1), ==, 4);

  tw_event_filter_add_task (by_task, 0);
  g_assert_cmpuint (filtered_count (model, by_task), ==, 2);  /* rows 0, 4 */
  g_assert_cmpuint (index_at (G_LIST_MODEL (model), 1), ==, 4);

  tw_event_filter_add_cpu (by_cpu, 1);
  g_assert_cmpuint (filtered_count (model, by_cpu), ==, 3);   /* rows 1, 3, 4 */

  tw_event_filter_add_cpu (both, 1);
  tw_event_filter_add_type (both, s.t_switch);
  g_assert_cmpuint (filtered_count (model, both), ==, 1);     /* row 3 */
  g_assert_cmpuint (index_at (G_LIST_MODEL (model), 0), ==, 3);

  /* "MA" matches the type user_mark and the task gamma (not alpha): rows 1, 2, 3, 5 */
  tw_event_filter_set_text (text, s.trace, "MA");
  g_assert_cmpuint (filtered_count (model, text), ==, 4);

  tw_event_filter_set_text (text_task, s.trace, "beta");
  g_assert_cmpuint (filtered_count (model, text_task), ==, 1); /* row 2 */

  tw_event_filter_set_text (nothing, s.trace, "no such thing");
  g_assert_cmpuint (filtered_count (model, nothing), ==, 0);

  g_assert_cmpuint (filtered_count (model, NULL), ==, 6);
  g_object_unref (s.trace);
}

/* Several chunks: type = i % 3, cpu = i % 4, task = i % 5; counts follow from arithmetic. */
static TwTrace *
build_big (guint64 n)
{
  TwTrace *trace = tw_trace_new ();

  tw_test_add_simple_type (trace, "t0", TW_EVENT_KIND_OTHER);
  tw_test_add_simple_type (trace, "t1", TW_EVENT_KIND_OTHER);
  tw_test_add_simple_type (trace, "t2", TW_EVENT_KIND_OTHER);
  for (guint t = 0; t < 5; t++)
    {
      g_autofree char *id = g_strdup_printf ("%u", t);
      tw_trace_add_task (trace, id, NULL, -1, -1);
    }
  for (guint64 i = 0; i < n; i++)
    tw_trace_append (trace, i * 10, i % 4, i % 3, i % 5, 0, NULL);
  return trace;
}

static guint64
count_residue (guint64 n,
               guint64 modulus,
               guint64 residue)
{
  return n > residue ? (n - residue - 1) / modulus + 1 : 0;
}

static void
filter_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  gboolean *done = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_trace_model_set_filter_finish (TW_TRACE_MODEL (object), result, &error));
  g_assert_no_error (error);
  *done = TRUE;
}

static void
test_big_async (void)
{
  const guint64 n = 3 * TW_CHUNK_SIZE + 1234;   /* many 64 Ki-row index blocks, several chunks */
  g_autoptr(TwTrace) trace = build_big (n);
  g_autoptr(TwTraceModel) model = NULL;
  g_autoptr(TwEventFilter) filter = tw_event_filter_new ();
  gboolean done = FALSE;
  guint n_items;
  guint64 expected;

  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  model = tw_trace_model_new (trace);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);

  /* type 0 and cpu 1: i ≡ 0 (mod 3) and i ≡ 1 (mod 4), i.e. i ≡ 9 (mod 12) */
  tw_event_filter_add_type (filter, 0);
  tw_event_filter_add_cpu (filter, 1);
  tw_trace_model_set_filter_async (model, filter, NULL, filter_done_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);

  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));
  expected = count_residue (n, 12, 9);
  g_assert_cmpuint (n_items, ==, expected);

  for (guint p = 0; p < n_items; p += 997)
    {
      guint64 index = tw_trace_model_get_event_index (model, p);
      gboolean exact = FALSE;

      g_assert_cmpuint (index, ==, 9 + 12 * (guint64) p);
      g_assert_cmpuint (tw_trace_model_find_position (model, index, &exact), ==, p);
      g_assert_true (exact);
      /* a row that is not shown maps to the next shown row */
      g_assert_cmpuint (tw_trace_model_find_position (model, index - 1, &exact), ==, p);
      g_assert_false (exact);
    }
  g_assert_cmpuint (tw_trace_model_find_position (model, n + 5, NULL), ==, n_items);
}

typedef struct {
  guint position;
  guint removed;
  guint added;
  guint count;
} Change;

static void
items_changed_cb (GListModel *model,
                  guint       position,
                  guint       removed,
                  guint       added,
                  Change     *change)
{
  change->position = position;
  change->removed = removed;
  change->added = added;
  change->count++;
}

static void
test_live_growth (void)
{
  g_autoptr(TwTrace) trace = build_big (100);
  g_autoptr(TwTraceModel) model = tw_trace_model_new (trace);
  g_autoptr(TwEventFilter) filter = tw_event_filter_new ();
  Change change = { 0 };

  g_signal_connect (model, "items-changed", G_CALLBACK (items_changed_cb), &change);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 100);

  /* the trace grows (not sealed: live); the model only changes when told to look */
  for (guint64 i = 100; i < 250; i++)
    tw_trace_append (trace, i * 10, i % 4, i % 3, i % 5, 0, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 100);
  tw_trace_model_update (model);
  g_assert_cmpuint (change.count, ==, 1);
  g_assert_cmpuint (change.position, ==, 100);
  g_assert_cmpuint (change.removed, ==, 0);
  g_assert_cmpuint (change.added, ==, 150);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 250);

  /* filtered by task 2: i ≡ 2 (mod 5) */
  tw_event_filter_add_task (filter, 2);
  g_assert_true (tw_trace_model_set_filter (model, filter, NULL, NULL));
  g_assert_cmpuint (change.count, ==, 2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, count_residue (250, 5, 2));

  for (guint64 i = 250; i < 300; i++)
    tw_trace_append (trace, i * 10, i % 4, i % 3, i % 5, 0, NULL);
  tw_trace_model_update (model);
  g_assert_cmpuint (change.count, ==, 3);
  g_assert_cmpuint (change.position, ==, count_residue (250, 5, 2));
  g_assert_cmpuint (change.added, ==, count_residue (300, 5, 2) - count_residue (250, 5, 2));
  g_assert_cmpuint (index_at (G_LIST_MODEL (model), g_list_model_get_n_items (G_LIST_MODEL (model)) - 1), ==, 297);

  /* nothing new: no signal */
  tw_trace_model_update (model);
  g_assert_cmpuint (change.count, ==, 3);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/data/trace-model/items", test_items);
  g_test_add_func ("/tw/data/trace-model/filters", test_filters);
  g_test_add_func ("/tw/data/trace-model/big-async", test_big_async);
  g_test_add_func ("/tw/data/trace-model/live-growth", test_live_growth);

  return g_test_run ();
}
