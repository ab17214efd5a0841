/* test-shark-reader.c: the S.Ha.R.K. dump reader on the real dump and on hand-made ones
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-shark-reader-private.h>

#include "tw-test-utils.h"

/* ---------------------------------------------------------------- helpers */

typedef struct {
  guint16 code;
  guint16 par1;
  guint64 tsc;
  guint32 par2;
} Rec;

static GBytes *
make_dump (const Rec *recs,
           guint      n,
           gboolean   big_endian)
{
  guint8 *buf = g_malloc0 (MAX (n, 1) * 16);

  for (guint i = 0; i < n; i++)
    {
      guint8 *p = buf + i * 16;

      if (!big_endian)
        tw_shark_record_write_le (p, recs[i].code, recs[i].par1, recs[i].tsc, recs[i].par2);
      else
        {
          guint16 c = GUINT16_TO_BE (recs[i].code);
          guint16 a = GUINT16_TO_BE (recs[i].par1);
          guint32 hi = GUINT32_TO_BE ((guint32) (recs[i].tsc >> 32));
          guint32 lo = GUINT32_TO_BE ((guint32) recs[i].tsc);
          guint32 b = GUINT32_TO_BE (recs[i].par2);

          memcpy (p, &c, 2);
          memcpy (p + 2, &a, 2);
          memcpy (p + 4, &hi, 4);
          memcpy (p + 8, &lo, 4);
          memcpy (p + 12, &b, 4);
        }
    }
  return g_bytes_new_take (buf, n * 16);
}

static TwTrace *
parse (GBytes  *bytes,
       GError **error)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  if (!tw_shark_parse_buffer (data, len, "test.dump", trace, NULL, NULL, NULL, error))
    return NULL;
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return g_steal_pointer (&trace);
}

static TwTrace *
parse_ok (const Rec *recs,
          guint      n,
          gboolean   big_endian)
{
  g_autoptr(GBytes) bytes = make_dump (recs, n, big_endian);
  g_autoptr(GError) error = NULL;
  TwTrace *trace = parse (bytes, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static const char *
type_name (TwTrace       *trace,
           const TwEvent *ev)
{
  return tw_trace_get_event_type (trace, ev->type)->name;
}

/* Field @index of the event; -1 when absent. */
static gint64
field (TwTrace       *trace,
       const TwEvent *ev,
       guint          index)
{
  const TwEventType *type = tw_trace_get_event_type (trace, ev->type);
  TwValue v;

  if (index >= type->n_fields || !tw_event_type_get_field (type, ev->payload, index, &v))
    return -1;
  return v.u;
}

static char *
string_field (TwTrace       *trace,
              const TwEvent *ev,
              const char    *name)
{
  TwValue v;

  if (!tw_trace_get_event_field (trace, ev, name, &v))
    return NULL;
  return g_strdup (tw_trace_get_string (trace, v.str));
}

static guint32
task_of_ctx (TwTrace *trace,
             guint    ctx)
{
  g_autofree char *id = g_strdup_printf ("%u", ctx);

  return tw_trace_lookup_task (trace, id);
}

static TwEvent
event_at (TwTrace *trace,
          guint64  index)
{
  TwEvent ev;

  g_assert_true (tw_trace_get_event (trace, index, &ev));
  return ev;
}

/* ---------------------------------------------------------------- the real dump */

static void
test_real_dump (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("shark/shark-newtracer-test.dump");
  g_autofree char *csv_path = tw_test_dup_shared_trace_path ("shark/shark-newtracer-test.decoded.csv");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autofree char *format = NULL;
  g_autofree char *cpm = NULL;
  char *line;
  char *next;
  guint rows = 0;
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  /* README.md of shared/traces/shark: the 17 types of the dump. */
  static const struct { const char *name; guint count; } expected[] = {
    { "trace_start", 1 }, { "trace_stop", 1 }, { "id", 5 }, { "task_create", 1 },
    { "task_activate", 397 }, { "task_end", 1 }, { "task_end_cycle", 2359 },
    { "task_schedule", 4720 }, { "task_timer", 1963 }, { "interrupt_start", 1 },
    { "interrupt_end", 1 }, { "context_switch", 2366 }, { "set_mutex_lock", 1 },
    { "timer_post", 6682 }, { "timer_delete", 3931 }, { "timer_wakeup_start", 2748 },
    { "timer_wakeup_end", 2748 },
  };
  guint64 tsc0 = 0;
  guint n_types = 0;

  if (path == NULL || csv_path == NULL)
    {
      g_test_skip ("shared/traces/shark/shark-newtracer-test.dump (or its .decoded.csv) is not there");
      return;
    }

  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "shark");
  cpm = tw_trace_dup_metadata (trace, "cycles_per_msec");
  g_assert_cmpstr (cpm, ==, "367483");
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 27926);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 1);

  g_assert_true (g_file_get_contents (csv_path, &csv, NULL, NULL));
  /* Lines cut in place: g_strsplit on the whole file is quadratic under ASan. */
  next = strchr (csv, '\n');
  g_assert_nonnull (next);
  *next = '\0';
  g_assert_cmpstr (csv, ==, "index,offset,type_hex,name,par1,tsc_high,tsc_low,tsc,par2");

  for (line = next + 1; *line; line = next + 1)
    {
      g_auto(GStrv) cols = NULL;
      guint64 index, tsc, expected_ns;
      TwEvent ev;

      next = strchr (line, '\n');
      g_assert_nonnull (next);
      *next = '\0';
      cols = g_strsplit (line, ",", -1);
      rows++;
      g_assert_cmpuint (g_strv_length (cols), ==, 9);
      index = g_ascii_strtoull (cols[0], NULL, 10);
      tsc = g_ascii_strtoull (cols[7], NULL, 10);
      ev = event_at (trace, index);
      if (index == 0)
        tsc0 = tsc;
      expected_ns = (guint64) ((unsigned __int128) (tsc - tsc0) * 1000000 / 367483);
      g_assert_cmpstr (type_name (trace, &ev), ==, cols[3]);
      g_assert_cmpint (field (trace, &ev, 0), ==, g_ascii_strtoll (cols[4], NULL, 10));
      g_assert_cmpint (field (trace, &ev, 1), ==, g_ascii_strtoll (cols[8], NULL, 10));
      g_assert_cmpuint (ev.time, ==, expected_ns);
      g_assert_cmpuint (ev.cpu, ==, 0);
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, type_name (trace, &ev))), <, G_MAXUINT);
      g_hash_table_insert (counts, (gpointer) type_name (trace, &ev),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, type_name (trace, &ev))) + 1));
    }

  g_assert_cmpuint (rows, ==, 27926);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, expected[i].name)), ==,
                      expected[i].count);
  g_assert_cmpuint (g_hash_table_size (counts), ==, G_N_ELEMENTS (expected));
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    n_types++;
  g_assert_cmpuint (n_types, ==, 17);
  g_assert_cmpstr (tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "context_switch"))->family,
                   ==, "priority");
  g_assert_cmpint (tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "context_switch"))->kind,
                   ==, TW_EVENT_KIND_SWITCH);

  /* ctx → pid from the five id events and the task_create of ctx 296. */
  for (guint k = 0; k < 6; k++)
    {
      guint32 task = task_of_ctx (trace, 256 + 8 * k);

      g_assert_cmpuint (task, !=, TW_TASK_NONE);
      g_assert_cmpint (tw_trace_get_task (trace, task)->pid, ==, k);
    }
  /* 248 appears only as a context parameter, without an id. */
  g_assert_cmpint (tw_trace_get_task (trace, task_of_ctx (trace, 248))->pid, ==, -1);
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), ==, 7);

  /* Records 14 (context_switch to 296: nothing switched before) and 20 (296 → 256 after
   * 296 ended its cycle) and 24 (256 → 264 after task_end of 256). */
  {
    TwEvent ev = event_at (trace, 14);
    g_autofree char *s14 = string_field (trace, &ev, "prev_state");
    TwEvent ev20 = event_at (trace, 20);
    g_autofree char *s20 = string_field (trace, &ev20, "prev_state");
    TwEvent ev24 = event_at (trace, 24);
    g_autofree char *s24 = string_field (trace, &ev24, "prev_state");
    TwEvent ev8 = event_at (trace, 8);

    g_assert_cmpuint (ev.task, ==, TW_TASK_NONE);
    g_assert_cmpuint (ev.arg, ==, task_of_ctx (trace, 296));
    g_assert_cmpstr (s14, ==, "R");
    g_assert_cmpuint (ev20.task, ==, task_of_ctx (trace, 296));
    g_assert_cmpuint (ev20.arg, ==, task_of_ctx (trace, 256));
    g_assert_cmpstr (s20, ==, "S");
    g_assert_cmpuint (ev24.task, ==, task_of_ctx (trace, 256));
    g_assert_cmpstr (s24, ==, "X");
    /* timer_post (no context) before any task runs: no task. */
    g_assert_cmpuint (ev8.task, ==, TW_TASK_NONE);
  }
}

/* ---------------------------------------------------------------- hand-made dumps */

#define T0 (G_GUINT64_CONSTANT (7) << 32)

static const Rec small[] = {
  { 0x20, 5, T0, 1000 },                 /* trace_start: 1000 clk/ms = 1 µs per tick */
  { 0x60, 10, T0 + 1, 3 },               /* id 10 → pid 3 */
  { 0x02, 20, T0 + 2, 4 },               /* task_create 20 pid 4 */
  { 0x12, 10, T0 + 3, 0 },               /* task_activate 10 */
  { 0x82, 10, T0 + 4, 10 },              /* task_schedule 10 */
  { 0x15, 10, T0 + 5, 0 },               /* context_switch → 10 */
  { 0x0B, 0, T0 + 6, 0 },                /* timer_post: running task 10 */
  { 0x59, 1, T0 + 7, 2 },                /* user_event_5 */
  { 0x03, 7, T0 + 8, 0 },                /* interrupt_start irq 7 */
  { 0x13, 7, T0 + 9, 0 },                /* interrupt_end irq 7 */
  { 0x16, 10, T0 + 10, 0xabcd },         /* set_mutex_lock */
  { 0x43, 10, T0 + 11, 0xabcd },         /* set_mutex_unlock, manual's code */
  { 0x36, 10, T0 + 12, 0xabcd },         /* set_mutex_unlock, kernel's code */
  { 0x62, 10, T0 + 13, 0 },              /* task_end_cycle 10 */
  { 0x15, 20, T0 + 14, 0 },              /* context_switch 10 → 20: S */
  { 0x15, 10, T0 + 15, 0 },              /* context_switch 20 → 10: R (preempted) */
  { 0x46, 10, T0 + 16, 0x55 },           /* set_mutex_wait 10 */
  { 0x15, 20, T0 + 17, 0 },              /* context_switch 10 → 20: S (blocked) */
  { 0x42, 20, T0 + 18, 4 },              /* task_end 20 */
  { 0x15, 10, T0 + 19, 0 },              /* context_switch 20 → 10: X */
  { 0x2B, 0, T0 + 20, 0 },               /* timer_wakeup_start */
  { 0x3B, 10, T0 + 21, 0 },              /* timer_wakeup_end ctx 10 */
  { 0x30, 0, T0 + 1000, 0 },             /* trace_stop, 1 ms later */
};

static void
check_small (TwTrace *trace)
{
  guint32 t10 = task_of_ctx (trace, 10);
  guint32 t20 = task_of_ctx (trace, 20);
  static const char * const states[] = { "R", "S", "R", "S", "X" };
  static const guint switches[] = { 5, 14, 15, 17, 19 };
  TwEvent ev;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, G_N_ELEMENTS (small));
  g_assert_cmpuint (t10, !=, TW_TASK_NONE);
  g_assert_cmpint (tw_trace_get_task (trace, t10)->pid, ==, 3);
  g_assert_cmpint (tw_trace_get_task (trace, t20)->pid, ==, 4);

  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    {
      ev = event_at (trace, i);
      g_assert_cmpuint (ev.time, ==, (small[i].tsc - T0) * 1000);
      g_assert_cmpint (field (trace, &ev, 0), ==, small[i].par1);
      g_assert_cmpint (field (trace, &ev, 1), ==, small[i].par2);
    }

  ev = event_at (trace, 2);
  g_assert_cmpstr (type_name (trace, &ev), ==, "task_create");
  g_assert_cmpuint (ev.task, ==, TW_TASK_NONE);
  g_assert_cmpuint (ev.arg, ==, t20);
  ev = event_at (trace, 3);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_WAKEUP);
  g_assert_cmpuint (ev.arg, ==, t10);
  ev = event_at (trace, 6);
  g_assert_cmpstr (type_name (trace, &ev), ==, "timer_post");
  g_assert_cmpuint (ev.task, ==, t10); /* no context parameter: the running task */
  ev = event_at (trace, 7);
  g_assert_cmpstr (type_name (trace, &ev), ==, "user_event_5");
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->family, ==, "user");
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_USER);
  g_assert_cmpuint (ev.arg, ==, 5);
  ev = event_at (trace, 8);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_IRQ_ENTRY);
  g_assert_cmpuint (ev.arg, ==, 7);
  g_assert_cmpuint (ev.task, ==, t10);
  ev = event_at (trace, 10);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_MUTEX_LOCK);
  g_assert_cmpuint (ev.arg, ==, 0xabcd);
  {
    TwEvent a = event_at (trace, 11);
    TwEvent b = event_at (trace, 12);

    g_assert_cmpstr (type_name (trace, &a), ==, "set_mutex_unlock");
    g_assert_cmpuint (a.type, ==, b.type);
    g_assert_cmpint (tw_trace_get_event_type (trace, a.type)->kind, ==, TW_EVENT_KIND_MUTEX_UNLOCK);
  }
  ev = event_at (trace, 16);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_MUTEX_WAIT);
  ev = event_at (trace, 18);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_TASK_EXIT);
  g_assert_cmpuint (ev.task, ==, t20);
  g_assert_cmpuint (ev.arg, ==, t20);
  ev = event_at (trace, 20);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_IRQ_ENTRY);
  g_assert_cmpuint (ev.arg, ==, 0);
  ev = event_at (trace, 21);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_IRQ_EXIT);
  g_assert_cmpuint (ev.task, ==, t10);

  for (guint k = 0; k < G_N_ELEMENTS (switches); k++)
    {
      g_autofree char *state = NULL;

      ev = event_at (trace, switches[k]);
      state = string_field (trace, &ev, "prev_state");
      g_assert_cmpstr (type_name (trace, &ev), ==, "context_switch");
      g_assert_cmpstr (state, ==, states[k]);
      g_assert_cmpuint (ev.arg, ==, task_of_ctx (trace, small[switches[k]].par1));
    }
  ev = event_at (trace, 14);
  g_assert_cmpuint (ev.task, ==, t10);
  ev = event_at (trace, 19);
  g_assert_cmpuint (ev.task, ==, t20);
}

static void
test_little_endian (void)
{
  g_autoptr(TwTrace) trace = parse_ok (small, G_N_ELEMENTS (small), FALSE);
  g_autofree char *order = tw_trace_dup_metadata (trace, "byte_order");
  g_autofree char *origin = tw_trace_dup_metadata (trace, "tsc_origin");

  g_assert_cmpstr (order, ==, "little-endian");
  g_assert_cmpstr (origin, ==, "30064771072");
  check_small (trace);
}

static void
test_big_endian (void)
{
  g_autoptr(TwTrace) trace = parse_ok (small, G_N_ELEMENTS (small), TRUE);
  g_autofree char *order = tw_trace_dup_metadata (trace, "byte_order");

  g_assert_cmpstr (order, ==, "big-endian");
  check_small (trace);
}

static void
test_state_model (void)
{
  g_autoptr(TwTrace) trace = parse_ok (small, G_N_ELEMENTS (small), FALSE);
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  guint32 t10 = task_of_ctx (trace, 10);
  guint32 t20 = task_of_ctx (trace, 20);

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  /* 10 runs 5–14, 15–17, 19–1000 µs; 20 runs 14–15, 17–18 (then dies). */
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, t10), ==, (9 + 2 + 981) * 1000);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, t20), ==, 2 * 1000);
  g_assert_cmpint (tw_state_model_get_task_state (model, t10, 14500), ==, TW_TASK_STATE_BLOCKED);
  g_assert_cmpint (tw_state_model_get_task_state (model, t20, 15500), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (tw_state_model_get_task_state (model, t10, 17500), ==, TW_TASK_STATE_BLOCKED);
}

static void
test_unknown_and_fast (void)
{
  static const Rec recs[] = {
    { 0x10, 0, 100, 2000 },       /* cycles_per_msec 2000: 0.5 µs per tick */
    { 0x0C, 9, 101, 77 },         /* no table lists 0x0C */
    { 0x8001, 42, 104, 0xdead },  /* fast ipoint: par2 not written */
    { 0x0001, 43, 106, 5 },       /* normal ipoint */
  };
  g_autoptr(TwTrace) trace = parse_ok (recs, G_N_ELEMENTS (recs), FALSE);
  g_autofree char *fast = tw_trace_dup_metadata (trace, "fast_ipoints");
  TwEvent ev;

  ev = event_at (trace, 1);
  g_assert_cmpstr (type_name (trace, &ev), ==, "code_0x0c");
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->family, ==, "unknown");
  g_assert_cmpint (field (trace, &ev, 0), ==, 9);
  g_assert_cmpint (field (trace, &ev, 1), ==, 77);
  g_assert_cmpuint (ev.time, ==, 500);

  ev = event_at (trace, 2);
  g_assert_cmpstr (type_name (trace, &ev), ==, "ipoint");
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_USER);
  g_assert_cmpuint (ev.arg, ==, 42);
  g_assert_cmpint (field (trace, &ev, 0), ==, 42);
  g_assert_cmpint (field (trace, &ev, 1), ==, -1);
  g_assert_cmpuint (ev.time, ==, 2000);
  ev = event_at (trace, 3);
  g_assert_cmpint (field (trace, &ev, 1), ==, 5);
  g_assert_cmpstr (fast, ==, "1");
}

static void
test_control_records (void)
{
  static const Rec recs[] = {
    { 0x00, 0, 0, 0 },            /* empty slot at the start */
    { 0x0B, 0, 1000, 0 },
    { 0xFF, 0, 1100, 0 },         /* next_chunk */
    { 0x1B, 0, 1200, 0 },
    { 0x00, 0, 0, 0 },
  };
  g_autoptr(TwTrace) trace = parse_ok (recs, G_N_ELEMENTS (recs), FALSE);
  g_autofree char *control = tw_trace_dup_metadata (trace, "control_records");
  g_autofree char *clock = tw_trace_dup_metadata (trace, "clock");
  g_autofree char *cpm = tw_trace_dup_metadata (trace, "cycles_per_msec");
  TwEvent ev;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 2);
  g_assert_cmpstr (control, ==, "3");
  g_assert_null (cpm);
  g_assert_true (g_str_has_prefix (clock, "tsc (no cycles_per_msec"));
  ev = event_at (trace, 0);
  g_assert_cmpstr (type_name (trace, &ev), ==, "timer_post");
  g_assert_cmpuint (ev.time, ==, 0);
  ev = event_at (trace, 1);
  g_assert_cmpstr (type_name (trace, &ev), ==, "timer_delete");
  g_assert_cmpuint (ev.time, ==, 200); /* no rate: 1 tick = 1 ns */
  g_assert_cmpuint (tw_trace_lookup_event_type (trace, "next_chunk"), ==, TW_TYPE_NONE);
  g_assert_cmpuint (tw_trace_lookup_event_type (trace, "empty"), ==, TW_TYPE_NONE);
}

static void
test_wrapped (void)
{
  /* A cyclic chunk dumped in ring order: the newest records first. */
  static const Rec recs[] = {
    { 0x0B, 0, 5000, 1 },
    { 0x0B, 0, 6000, 2 },
    { 0x0B, 0, 1000, 3 },
    { 0x0B, 0, 2000, 4 },
  };
  g_autoptr(TwTrace) trace = parse_ok (recs, G_N_ELEMENTS (recs), FALSE);
  g_autofree char *origin = tw_trace_dup_metadata (trace, "tsc_origin");
  static const guint64 times[] = { 0, 1000, 4000, 5000 };
  static const gint64 order[] = { 3, 4, 1, 2 };

  g_assert_cmpstr (origin, ==, "1000");
  for (guint i = 0; i < 4; i++)
    {
      TwEvent ev = event_at (trace, i);

      g_assert_cmpuint (ev.time, ==, times[i]);
      g_assert_cmpint (field (trace, &ev, 1), ==, order[i]);
    }
}

static void
test_time_exact (void)
{
  /* An odd rate and deltas from 1 tick to past 2^62 ticks (the slow path). */
  static const guint64 deltas[] = {
    0, 1, 2, 366999, 367000, 367001, G_GUINT64_CONSTANT (123456789012345),
    G_GUINT64_CONSTANT (4611686018427387903), G_GUINT64_CONSTANT (4611686018427387904),
    G_GUINT64_CONSTANT (9000000000000000000),
  };
  Rec recs[G_N_ELEMENTS (deltas) + 1];
  g_autoptr(TwTrace) trace = NULL;
  const guint64 cpm = 4294967291u;   /* a large prime */

  recs[0] = (Rec) { 0x10, 0, 0, (guint32) cpm };
  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    recs[i + 1] = (Rec) { 0x0B, 0, deltas[i], 0 };
  trace = parse_ok (recs, G_N_ELEMENTS (recs), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (deltas); i++)
    {
      TwEvent ev = event_at (trace, i + 1);

      g_assert_cmpuint (ev.time, ==, (guint64) ((unsigned __int128) deltas[i] * 1000000 / cpm));
    }
}

static void
test_time_rates (void)
{
  /* Each rate from 2 clk/ms to 2^32 − 1, deltas on both sides of the one-division bound
   * (delta · 1e6 < 2^62, i.e. delta < 4611686018427) and random ones below and above it,
   * against a 128-bit division. */
  static const guint32 rates[] = { 2, 3, 7, 1000, 367483, 2999999999u, 2147483648u, 4294967295u };
  const guint64 bound = (G_GUINT64_CONSTANT (1) << 62) / 1000000;
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);

  for (guint r = 0; r < G_N_ELEMENTS (rates); r++)
    {
      guint64 deltas[64];
      Rec recs[G_N_ELEMENTS (deltas) + 1];
      g_autoptr(TwTrace) trace = NULL;
      guint n = 0;

      deltas[n++] = 0;
      deltas[n++] = bound - 1;
      deltas[n++] = bound;
      deltas[n++] = bound + 1;
      while (n < G_N_ELEMENTS (deltas))
        {
          guint64 d = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);

          /* Half below the bound, half above it up to (rate / 2) · bound ticks, at most
           * 2^20 · bound: below 2^62 ns, and below 2^62 ticks. */
          deltas[n] = (n % 2) ? d % bound : bound + d % (MIN (rates[r] / 2, 1u << 20) * bound);
          n++;
        }
      /* Times go forward in the file: sort the deltas. */
      for (guint i = 1; i < n; i++)
        for (guint j = i; j > 0 && deltas[j - 1] > deltas[j]; j--)
          {
            guint64 t = deltas[j];
            deltas[j] = deltas[j - 1];
            deltas[j - 1] = t;
          }

      recs[0] = (Rec) { 0x10, 0, 0, rates[r] };
      for (guint i = 0; i < n; i++)
        recs[i + 1] = (Rec) { 0x0B, 0, deltas[i], 0 };
      trace = parse_ok (recs, n + 1, r % 2 == 1);
      for (guint i = 0; i < n; i++)
        {
          TwEvent ev = event_at (trace, i + 1);

          g_assert_cmpuint (ev.time, ==, (guint64) ((unsigned __int128) deltas[i] * 1000000 / rates[r]));
        }
    }
}

static void
test_full_chunk_then_control (void)
{
  /* Rows fill the first chunk exactly; only control records follow: no second chunk. A
   * row after them starts one. */
  guint n = TW_CHUNK_SIZE + 3;
  g_autofree Rec *recs = g_new (Rec, n + 1);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *control = NULL;
  gsize len;
  const guint8 *data;

  for (guint i = 0; i < TW_CHUNK_SIZE; i++)
    recs[i] = (Rec) { 0x0B, (guint16) (i % 3), 1000 + i, 0 };
  for (guint i = TW_CHUNK_SIZE; i < n; i++)
    recs[i] = (Rec) { (i % 2) ? 0xFF : 0x00, 0, 0, 0 };
  bytes = make_dump (recs, n, FALSE);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (tw_shark_parse_buffer (data, len, "x", trace, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, TW_CHUNK_SIZE);
  g_assert_cmpuint (tw_trace_get_n_chunks (trace), ==, 1);
  control = tw_trace_dup_metadata (trace, "control_records");
  g_assert_cmpstr (control, ==, "3");

  g_clear_object (&trace);
  g_clear_pointer (&bytes, g_bytes_unref);
  trace = tw_trace_new ();
  recs[n] = (Rec) { 0x1B, 9, 5000000, 4 };
  bytes = make_dump (recs, n + 1, FALSE);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (tw_shark_parse_buffer (data, len, "x", trace, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, TW_CHUNK_SIZE + 1);
  g_assert_cmpuint (tw_trace_get_n_chunks (trace), ==, 2);
  {
    TwEvent ev = event_at (trace, TW_CHUNK_SIZE);

    g_assert_cmpstr (type_name (trace, &ev), ==, "timer_delete");
    g_assert_cmpuint (ev.time, ==, 5000000 - 1000);
    g_assert_cmpint (field (trace, &ev, 0), ==, 9);
    g_assert_cmpint (field (trace, &ev, 1), ==, 4);
    ev = event_at (trace, TW_CHUNK_SIZE - 1);
    g_assert_cmpuint (ev.time, ==, TW_CHUNK_SIZE - 1);
    g_assert_cmpint (field (trace, &ev, 0), ==, (TW_CHUNK_SIZE - 1) % 3);
  }
}

static void
test_out_of_range (void)
{
  /* 1 clk/ms: a delta of 2^60 ticks is 2^60 ms, past 2^64 ns. */
  static const Rec recs[] = {
    { 0x10, 0, 0, 1 },
    { 0x0B, 0, G_GUINT64_CONSTANT (1) << 60, 0 },
  };
  g_autoptr(GBytes) bytes = make_dump (recs, G_N_ELEMENTS (recs), FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = parse (bytes, &error);

  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "offset 16"));
}

static void
test_truncated (void)
{
  g_autoptr(GBytes) bytes = make_dump (small, 3, FALSE);
  g_autofree guint8 *data = g_malloc (3 * 16 + 5);
  g_autofree char *path = NULL;
  g_autoptr(TwReader) reader = tw_reader_new (&tw_shark_reader_info);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  memcpy (data, g_bytes_get_data (bytes, NULL), 3 * 16);
  memset (data + 48, 0x11, 5);
  path = tw_test_write_temp_file ("cut.dump", data, 3 * 16 + 5);

  g_assert_false (tw_reader_read (reader, path, trace, NULL, NULL, NULL, &error));
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_TRUNCATED);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "offset 48"));
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 0);

  /* The probe still claims it weakly, so loading names the truncation. */
  g_clear_error (&error);
  g_assert_null (tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_TRUNCATED);
}

static void
test_empty (void)
{
  g_autofree char *path = tw_test_write_temp_file ("empty.dump", "", 0);
  g_autoptr(TwReader) reader = tw_reader_new (&tw_shark_reader_info);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_reader_read (reader, path, trace, NULL, NULL, NULL, &error));
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "empty file"));
  g_assert_true (g_str_has_prefix (error->message, path));
}

static void
test_probe (void)
{
  g_autoptr(GBytes) dump = make_dump (small, G_N_ELEMENTS (small), FALSE);
  g_autoptr(GBytes) dump_be = make_dump (small, G_N_ELEMENTS (small), TRUE);
  const char *csv = "time_ns,cpu,task,event\n100,0,a,switch\n200,0,b,wakeup\n300,1,c,user\n"
                    "400,0,a,switch\n500,0,b,wakeup\n600,1,c,user\n";
  const char *ftrace = "# tracer: nop\n#\n          <idle>-0     [000] d..2  100.000: sched_switch: "
                       "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a\n";
  guint8 tracedat[64] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '6', 0 };
  g_autoptr(TwReader) reader = tw_reader_new (&tw_shark_reader_info);
  g_autofree char *text_path = tw_test_write_temp_file ("events.csv", csv, -1);
  gsize len;
  const guint8 *data = g_bytes_get_data (dump, &len);

  g_assert_cmpuint (tw_shark_probe_buffer (data, len, len), ==, 90);
  data = g_bytes_get_data (dump_be, &len);
  g_assert_cmpuint (tw_shark_probe_buffer (data, len, len), ==, 90);
  g_assert_cmpuint (tw_shark_probe_buffer ((const guint8 *) csv, 96, 96), ==, 0);
  g_assert_cmpuint (tw_shark_probe_buffer ((const guint8 *) ftrace, 96, 96), ==, 0);
  g_assert_cmpuint (tw_shark_probe_buffer (tracedat, sizeof tracedat, sizeof tracedat), ==, 0);
  g_assert_cmpuint (tw_shark_probe_buffer (data, 8, 8), ==, 0);
  g_assert_cmpuint (tw_reader_probe (reader, text_path, (const guint8 *) csv, strlen (csv)), ==, 0);
  g_assert_cmpstr (tw_reader_get_name (reader), ==, "shark");
}

static void
test_cancel (void)
{
  g_autoptr(GBytes) bytes = make_dump (small, G_N_ELEMENTS (small), FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data = g_bytes_get_data (bytes, &len);

  g_cancellable_cancel (cancellable);
  g_assert_false (tw_shark_parse_buffer (data, len, "x", trace, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
cancel_on_progress (double   fraction,
                    gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

static void
test_cancel_midway (void)
{
  /* Cancelled from the first progress report: the read stops at the next block. */
  guint n = 200000;
  g_autofree Rec *recs = g_new (Rec, n);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  gsize len;
  const guint8 *data;

  for (guint i = 0; i < n; i++)
    recs[i] = (Rec) { 0x0B, 0, 1000 + i, 0 };
  bytes = make_dump (recs, n, FALSE);
  data = g_bytes_get_data (bytes, &len);
  g_assert_false (tw_shark_parse_buffer (data, len, "x", trace, cancel_on_progress, cancellable,
                                         cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (tw_trace_get_n_events (trace), <, n);
}

static void
count_progress (double   fraction,
                gpointer user_data)
{
  double *last = user_data;

  g_assert_cmpfloat (fraction, >=, *last);
  *last = fraction;
}

static void
test_chunks_and_progress (void)
{
  /* More than one store chunk: the dedup cache restarts per chunk and stays right. */
  guint n = TW_CHUNK_SIZE * 2 + 100;
  g_autofree Rec *recs = g_new (Rec, n);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  double last = 0.0;
  gsize len;
  const guint8 *data;

  for (guint i = 0; i < n; i++)
    recs[i] = (Rec) { (i % 3) ? 0x0B : 0x15, (guint16) (i % 5), 1000 + i, i % 7 };
  bytes = make_dump (recs, n, FALSE);
  data = g_bytes_get_data (bytes, &len);
  g_assert_true (tw_shark_parse_buffer (data, len, "x", trace, count_progress, &last, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, n);
  for (guint i = 0; i < n; i += 997)
    {
      TwEvent ev = event_at (trace, i);

      g_assert_cmpint (field (trace, &ev, 0), ==, i % 5);
      g_assert_cmpint (field (trace, &ev, 1), ==, i % 7);
      g_assert_cmpuint (ev.time, ==, i);
    }
  /* Identical payloads are shared: far fewer payload bytes than rows. */
  g_assert_cmpuint (tw_trace_get_memory_size (trace), <, (gsize) n * 25);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/shark/real-dump", test_real_dump);
  g_test_add_func ("/tw/ingest/shark/little-endian", test_little_endian);
  g_test_add_func ("/tw/ingest/shark/big-endian", test_big_endian);
  g_test_add_func ("/tw/ingest/shark/state-model", test_state_model);
  g_test_add_func ("/tw/ingest/shark/unknown-and-fast", test_unknown_and_fast);
  g_test_add_func ("/tw/ingest/shark/control-records", test_control_records);
  g_test_add_func ("/tw/ingest/shark/wrapped", test_wrapped);
  g_test_add_func ("/tw/ingest/shark/time-exact", test_time_exact);
  g_test_add_func ("/tw/ingest/shark/time-rates", test_time_rates);
  g_test_add_func ("/tw/ingest/shark/full-chunk-then-control", test_full_chunk_then_control);
  g_test_add_func ("/tw/ingest/shark/out-of-range", test_out_of_range);
  g_test_add_func ("/tw/ingest/shark/truncated", test_truncated);
  g_test_add_func ("/tw/ingest/shark/empty", test_empty);
  g_test_add_func ("/tw/ingest/shark/probe", test_probe);
  g_test_add_func ("/tw/ingest/shark/cancel", test_cancel);
  g_test_add_func ("/tw/ingest/shark/cancel-midway", test_cancel_midway);
  g_test_add_func ("/tw/ingest/shark/chunks-and-progress", test_chunks_and_progress);

  return g_test_run ();
}
