/* test-trace.c: the event store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"
#include "tw-trace-private.h"

static void
test_append_across_chunks (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 type = tw_test_add_simple_type (trace, "tick", TW_EVENT_KIND_OTHER);
  const guint64 n = 3 * TW_CHUNK_SIZE + 17;
  TwEvent ev;

  for (guint64 i = 0; i < n; i++)
    tw_trace_append (trace, i * 10, i % 3, type, TW_TASK_NONE, (guint32) i, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, n);
  g_assert_cmpuint (tw_trace_get_n_chunks (trace), ==, 4);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 3);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, 0);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, (n - 1) * 10);

  g_assert_true (tw_trace_get_event (trace, TW_CHUNK_SIZE + 5, &ev));
  g_assert_cmpuint (ev.time, ==, (TW_CHUNK_SIZE + 5) * 10);
  g_assert_cmpuint (ev.arg, ==, TW_CHUNK_SIZE + 5);
  g_assert_cmpuint (ev.cpu, ==, (TW_CHUNK_SIZE + 5) % 3);
  g_assert_null (ev.payload);
  g_assert_false (tw_trace_get_event (trace, n, &ev));
  g_assert_cmpuint (tw_trace_get_memory_size (trace), ==, n * 24);
}

/* A trace gets the memory of the trace freed before it (tw-trace.c keeps it): what it
 * reads back must be its own rows and payloads, never the previous trace's. */
static guint16
add_value_type (TwTrace *trace)
{
  static const TwFieldSpec fields[] = { { "v", TW_FIELD_U64, TW_FIELD_FLAG_NONE } };

  return tw_trace_add_event_type (trace, "value", NULL, TW_EVENT_KIND_OTHER, fields, 1, NULL);
}

/* A flight recorder's store: whole chunks below the first needed row give their memory
 * back, keep their indexes and read as zeros; the chunk being appended to stays. */
static void
test_release_before (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 type = add_value_type (trace);
  const guint64 n = 3 * TW_CHUNK_SIZE + 10;
  gsize before;
  TwEvent ev;

  for (guint64 i = 0; i < n; i++)
    {
      guint64 v = i + 1;

      tw_trace_append (trace, (i + 1) * 10, 0, type, TW_TASK_NONE, (guint32) i, (const guint8 *) &v);
    }
  tw_trace_end_append (trace);
  before = tw_trace_get_memory_size (trace);

  /* a row inside the second chunk: only the first goes */
  g_assert_cmpuint (tw_trace_release_before (trace, TW_CHUNK_SIZE + 5), ==, TW_CHUNK_SIZE);
  g_assert_cmpuint (tw_trace_get_memory_size (trace), <, before);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, n);
  g_assert_true (tw_trace_get_event (trace, 7, &ev));
  g_assert_cmpuint (ev.time, ==, 0);
  g_assert_true (tw_trace_get_event (trace, TW_CHUNK_SIZE, &ev));
  g_assert_cmpuint (ev.time, ==, (TW_CHUNK_SIZE + 1) * 10);
  g_assert_cmpuint (*(const guint64 *) ev.payload, ==, TW_CHUNK_SIZE + 1);

  /* past the end: the last chunk, which may still grow, stays */
  g_assert_cmpuint (tw_trace_release_before (trace, n + 100), ==, 3 * TW_CHUNK_SIZE);
  g_assert_true (tw_trace_get_event (trace, n - 1, &ev));
  g_assert_cmpuint (ev.time, ==, n * 10);
  g_assert_cmpuint (tw_trace_find_first_at_or_after (trace, (n - 2) * 10), ==, n - 3);
  /* appending goes on */
  tw_trace_append (trace, (n + 1) * 10, 0, type, TW_TASK_NONE, 0, (const guint8 *) &n);
  tw_trace_end_append (trace);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, (n + 1) * 10);
  g_assert_cmpuint (tw_trace_get_memory_size (trace), <, (gsize) TW_CHUNK_SIZE * 24);
}

static void
test_reused_memory (void)
{
  const guint64 n_first = 2 * TW_CHUNK_SIZE + 100;
  const guint64 n_second = TW_CHUNK_SIZE + TW_CHUNK_SIZE / 2;
  TwTrace *first = tw_trace_new ();
  g_autoptr(TwTrace) second = NULL;
  guint16 type = add_value_type (first);
  guint64 value;
  TwValue field;
  TwEvent ev;

  for (guint64 i = 0; i < n_first; i++)
    {
      value = G_GUINT64_CONSTANT (0xAAAAAAAAAAAAAAAA) ^ i;
      tw_trace_append (first, i, 5, type, 1000, 0xFFFF, (const guint8 *) &value);
    }
  g_assert_true (tw_trace_seal (first, NULL, NULL));
  g_object_unref (first);

  second = tw_trace_new ();
  type = add_value_type (second);
  for (guint64 i = 0; i < n_second; i++)
    {
      value = i * 7;
      tw_trace_append (second, 3 * i, i % 2, type, TW_TASK_NONE, (guint32) i, (const guint8 *) &value);
    }
  g_assert_true (tw_trace_seal (second, NULL, NULL));

  g_assert_cmpuint (tw_trace_get_n_events (second), ==, n_second);
  g_assert_cmpuint (tw_trace_get_n_cpus (second), ==, 2);
  g_assert_cmpuint (tw_trace_get_last_time (second), ==, 3 * (n_second - 1));
  for (guint64 i = 0; i < n_second; i++)
    {
      g_assert_true (tw_trace_get_event (second, i, &ev));
      g_assert_cmpuint (ev.time, ==, 3 * i);
      g_assert_cmpuint (ev.cpu, ==, i % 2);
      g_assert_cmpuint (ev.arg, ==, i);
      g_assert_cmpuint (ev.task, ==, TW_TASK_NONE);
      g_assert_true (tw_trace_get_event_field (second, &ev, "v", &field));
      g_assert_cmpuint (field.u, ==, i * 7);
    }
  g_assert_cmpuint (tw_trace_get_memory_size (second), >=, n_second * (24 + 8));
}

static void
test_lookups (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 type = tw_test_add_simple_type (trace, "e", TW_EVENT_KIND_OTHER);
  static const guint64 times[] = { 100, 200, 200, 200, 300, 1000 };
  guint64 first, end;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    tw_trace_append (trace, times[i], 0, type, TW_TASK_NONE, i, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  g_assert_cmpuint (tw_trace_find_first_at_or_after (trace, 0), ==, 0);
  g_assert_cmpuint (tw_trace_find_first_at_or_after (trace, 200), ==, 1);
  g_assert_cmpuint (tw_trace_find_first_at_or_after (trace, 201), ==, 4);
  g_assert_cmpuint (tw_trace_find_first_at_or_after (trace, 1001), ==, 6);

  /* closest event; ties go to the earlier one, and the first of equal times */
  g_assert_cmpuint (tw_trace_find_event_at (trace, 0), ==, 0);
  g_assert_cmpuint (tw_trace_find_event_at (trace, 150), ==, 0);
  g_assert_cmpuint (tw_trace_find_event_at (trace, 151), ==, 1);
  g_assert_cmpuint (tw_trace_find_event_at (trace, 260), ==, 4);
  g_assert_cmpuint (tw_trace_find_event_at (trace, 5000), ==, 5);

  tw_trace_find_range (trace, 200, 300, &first, &end);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (end, ==, 4);
  tw_trace_find_range (trace, 300, 300, &first, &end);
  g_assert_cmpuint (first, ==, end);
}

/* A live trace's payload blobs never move while they grow (a reader on another thread
 * may hold a pointer into one), and every payload reads back. */
static void
test_stable_payloads (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  const TwFieldSpec fields[] = { { "value", TW_FIELD_U64, TW_FIELD_FLAG_NONE } };
  guint16 type;
  const guint8 *blob = NULL;
  const guint n = 100000;   /* 800 kB of payload: far past the first blob size */

  tw_trace_set_stable_payloads (trace);
  type = tw_trace_add_event_type (trace, "sample", NULL, TW_EVENT_KIND_OTHER, fields, 1, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < n; i++)
    {
      guint64 value = (guint64) i * 3;
      const TwEventChunk *chunk;

      tw_trace_append (trace, 1000 + i, 0, type, TW_TASK_NONE, 0, (const guint8 *) &value);
      tw_trace_end_append (trace);
      chunk = tw_trace_get_chunk (trace, 0);
      if (blob == NULL)
        blob = chunk->blob;
      g_assert_true (chunk->blob == blob);
    }
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, n);
  for (guint i = 0; i < n; i += 997)
    {
      TwEvent event;
      TwValue value;

      g_assert_true (tw_trace_get_event (trace, i, &event));
      g_assert_true (tw_trace_get_event_field (trace, &event, "value", &value));
      g_assert_cmpuint (value.u, ==, (guint64) i * 3);
    }
}

static void
test_empty (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();

  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 0);
  g_assert_cmpuint (tw_trace_find_event_at (trace, 5), ==, TW_EVENT_NONE);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, 0);
}

static void
test_sort_is_stable (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 type = tw_test_add_simple_type (trace, "e", TW_EVENT_KIND_OTHER);
  /* Out of order across a chunk boundary, with ties that must keep arrival order. */
  const guint n = TW_CHUNK_SIZE + 100;
  guint64 prev_time = 0;
  guint32 prev_arg = 0;

  for (guint i = 0; i < n; i++)
    tw_trace_append (trace, (n - i) / 2, 0, type, TW_TASK_NONE, i, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  for (guint64 i = 0; i < n; i++)
    {
      TwEvent ev;

      g_assert_true (tw_trace_get_event (trace, i, &ev));
      g_assert_cmpuint (ev.time, >=, prev_time);
      if (i > 0 && ev.time == prev_time)
        g_assert_cmpuint (ev.arg, >, prev_arg);
      prev_time = ev.time;
      prev_arg = ev.arg;
    }
}

static void
test_fields (void)
{
  static const TwFieldSpec fields[] = {
    { "irq", TW_FIELD_U16, TW_FIELD_FLAG_NONE },
    { "name", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
    { "addr", TW_FIELD_U64, TW_FIELD_FLAG_HEX | TW_FIELD_FLAG_OPTIONAL },
    { "ratio", TW_FIELD_F64, TW_FIELD_FLAG_OPTIONAL },
    { "delta", TW_FIELD_I32, TW_FIELD_FLAG_OPTIONAL },
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, "irq_handler_entry", "irq",
                                          TW_EVENT_KIND_IRQ_ENTRY, fields,
                                          G_N_ELEMENTS (fields), &error);
  const TwEventType *t;
  guint8 payload[64] = { 0 };
  TwValue v;
  TwEvent ev;
  g_autofree char *args = NULL;

  g_assert_no_error (error);
  t = tw_trace_get_event_type (trace, type);
  g_assert_cmpstr (t->name, ==, "irq_handler_entry");
  g_assert_cmpstr (t->family, ==, "irq");
  g_assert_cmpuint (t->presence_bytes, ==, 1);
  g_assert_cmpuint (t->payload_size, ==, 1 + 2 + 4 + 8 + 8 + 4);
  g_assert_cmpint (tw_event_type_lookup_field (t, "addr"), ==, 2);
  g_assert_cmpint (tw_event_type_lookup_field (t, "nope"), ==, -1);

  v = (TwValue) { .type = TW_FIELD_U16, .u = 19 };
  tw_event_type_set_field (t, payload, 0, &v);
  v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, "eth0") };
  tw_event_type_set_field (t, payload, 1, &v);
  v = (TwValue) { .type = TW_FIELD_I32, .i = -7 };
  tw_event_type_set_field (t, payload, 4, &v);
  tw_trace_append (trace, 5, 1, type, TW_TASK_NONE, 19, payload);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));

  g_assert_true (tw_trace_get_event (trace, 0, &ev));
  g_assert_true (tw_trace_get_event_field (trace, &ev, "irq", &v));
  g_assert_cmpuint (v.u, ==, 19);
  g_assert_true (tw_trace_get_event_field (trace, &ev, "name", &v));
  g_assert_cmpstr (tw_trace_get_string (trace, v.str), ==, "eth0");
  g_assert_false (tw_trace_get_event_field (trace, &ev, "addr", &v));
  g_assert_true (tw_trace_get_event_field (trace, &ev, "delta", &v));
  g_assert_cmpint (v.i, ==, -7);

  args = tw_trace_format_args (trace, &ev);
  g_assert_cmpstr (args, ==, "irq=19 name=eth0 delta=-7");

  /* Same name, same schema: the same type. Different schema: an error. */
  g_assert_cmpuint (tw_trace_add_event_type (trace, "irq_handler_entry", "irq",
                                             TW_EVENT_KIND_IRQ_ENTRY, fields,
                                             G_N_ELEMENTS (fields), NULL), ==, type);
  g_assert_cmpuint (tw_trace_add_event_type (trace, "irq_handler_entry", "irq",
                                             TW_EVENT_KIND_IRQ_ENTRY, fields, 1, &error),
                    ==, TW_TYPE_NONE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

static void
test_tasks_and_strings (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint32 a = tw_trace_add_task (trace, "100", "bash", 100, 100);
  guint32 b = tw_trace_add_task (trace, "ctx 3", NULL, -1, -1);
  guint32 context = tw_trace_add_task (trace, "7", NULL, 1042, 1042);
  guint32 unnamed = tw_trace_add_task (trace, "200", NULL, 200, 200);
  g_autofree char *la = NULL;
  g_autofree char *lb = NULL;
  g_autofree char *lcontext = NULL;
  g_autofree char *lunnamed = NULL;
  g_autofree char *none = NULL;

  g_assert_cmpuint (a, ==, 0);
  g_assert_cmpuint (b, ==, 1);
  g_assert_cmpuint (tw_trace_add_task (trace, "100", "sh", 100, 100), ==, a);
  g_assert_cmpstr (tw_trace_get_task (trace, a)->name, ==, "sh");
  g_assert_cmpuint (tw_trace_lookup_task (trace, "ctx 3"), ==, b);
  g_assert_cmpuint (tw_trace_lookup_task (trace, "nope"), ==, TW_TASK_NONE);
  g_assert_null (tw_trace_get_task (trace, 4));

  la = tw_trace_dup_task_label (trace, a);
  lb = tw_trace_dup_task_label (trace, b);
  none = tw_trace_dup_task_label (trace, TW_TASK_NONE);
  g_assert_cmpstr (la, ==, "sh-100");
  g_assert_cmpstr (lb, ==, "ctx 3");
  g_assert_cmpstr (none, ==, "-");
  /* a S.Ha.R.K. context with its pid; a kernel pid seen without a comm says it once */
  lcontext = tw_trace_dup_task_label (trace, context);
  lunnamed = tw_trace_dup_task_label (trace, unnamed);
  g_assert_cmpstr (lcontext, ==, "7 (pid 1042)");
  g_assert_cmpstr (lunnamed, ==, "200");

  g_assert_cmpuint (tw_trace_intern_string (trace, "x"), ==, tw_trace_intern_string (trace, "x"));
  g_assert_null (tw_trace_get_string (trace, 999999));
}

static void
test_metadata (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_auto(GStrv) keys = NULL;
  g_autofree char *clock = NULL;

  tw_trace_set_metadata (trace, "format", "csv");
  tw_trace_set_metadata (trace, "clock", "mono");
  tw_trace_set_metadata (trace, "clock", "tsc");
  clock = tw_trace_dup_metadata (trace, "clock");
  g_assert_cmpstr (clock, ==, "tsc");
  keys = tw_trace_dup_metadata_keys (trace);
  g_assert_cmpuint (g_strv_length (keys), ==, 2);
  g_assert_cmpstr (keys[0], ==, "clock");
  g_assert_null (tw_trace_dup_metadata (trace, "nope"));
}

static void
test_kind_names (void)
{
  TwEventKind kind;

  for (guint k = TW_EVENT_KIND_OTHER + 1; k < TW_N_EVENT_KINDS; k++)
    {
      g_assert_true (tw_event_kind_from_string (tw_event_kind_to_string (k), &kind));
      g_assert_cmpuint (kind, ==, k);
    }
  g_assert_false (tw_event_kind_from_string ("other", &kind));
  g_assert_false (tw_event_kind_from_string ("sched_switch", &kind));
}

/* A full string table does not end the program (a live target sending unique messages
 * fills it): new strings read as one placeholder and are counted; known ones still
 * intern to their ids. An image with more strings than a table holds is refused. */
static void
test_string_table_full (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTrace) restored = tw_trace_new ();
  g_autoptr(TwTrace) too_many = tw_trace_new ();
  const char run[] = "a\0b\0c\0d\0e";
  guint32 full;

  _tw_trace_set_max_strings (trace, 8);
  for (char c = 'a'; c <= 'g'; c++)
    g_assert_cmpuint (tw_trace_intern_string (trace, (char[]) { c, 0 }), ==, (guint32) (c - 'a'));
  g_assert_cmpuint (tw_trace_get_n_strings_dropped (trace), ==, 0);
  full = tw_trace_intern_string (trace, "h");
  g_assert_cmpuint (full, ==, 7);
  g_assert_cmpstr (tw_trace_get_string (trace, full), ==, "(string table full)");
  g_assert_cmpuint (tw_trace_intern_string (trace, "i"), ==, full);
  g_assert_cmpuint (tw_trace_intern_string (trace, "a"), ==, 0);
  g_assert_cmpuint (tw_trace_get_n_strings_dropped (trace), ==, 2);
  g_assert_cmpuint (_tw_trace_get_n_strings (trace), ==, 8);

  _tw_trace_set_max_strings (restored, 4);
  g_assert_true (_tw_trace_restore_strings (restored, run, 8));
  g_assert_cmpuint (_tw_trace_get_n_strings (restored), ==, 4);
  g_assert_cmpuint (tw_trace_intern_string (restored, "z"), <, 4);
  g_assert_cmpuint (tw_trace_get_n_strings_dropped (restored), ==, 1);

  _tw_trace_set_max_strings (too_many, 4);
  g_assert_false (_tw_trace_restore_strings (too_many, run, sizeof run));
  g_assert_cmpuint (_tw_trace_get_n_strings (too_many), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/data/trace/append-across-chunks", test_append_across_chunks);
  g_test_add_func ("/tw/data/trace/reused-memory", test_reused_memory);
  g_test_add_func ("/tw/data/trace/release-before", test_release_before);
  g_test_add_func ("/tw/data/trace/lookups", test_lookups);
  g_test_add_func ("/tw/data/trace/empty", test_empty);
  g_test_add_func ("/tw/data/trace/stable-payloads", test_stable_payloads);
  g_test_add_func ("/tw/data/trace/sort-is-stable", test_sort_is_stable);
  g_test_add_func ("/tw/data/trace/fields", test_fields);
  g_test_add_func ("/tw/data/trace/tasks-and-strings", test_tasks_and_strings);
  g_test_add_func ("/tw/data/trace/metadata", test_metadata);
  g_test_add_func ("/tw/data/trace/string-table-full", test_string_table_full);
  g_test_add_func ("/tw/data/trace/kind-names", test_kind_names);

  return g_test_run ();
}
