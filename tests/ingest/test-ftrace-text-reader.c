/* test-ftrace-text-reader.c: the ftrace text reader against real traces and hand-made lines
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

#include "tw-ftrace-text-reader-private.h"

/* ---------------------------------------------------------------- independent view */

/* What the text says, computed with a regular expression that shares nothing with the
 * reader's hand-written parser: events per name, first and last time. */
typedef struct {
  GHashTable *counts;  /* name → count (GUINT_TO_POINTER) */
  guint64     n;
  guint64     first;
  guint64     last;
} TextCounts;

static guint64
seconds_to_ns (const char *seconds,
               const char *fraction)
{
  guint64 ns = g_ascii_strtoull (seconds, NULL, 10) * G_GUINT64_CONSTANT (1000000000);
  guint64 frac = g_ascii_strtoull (fraction, NULL, 10);

  for (gsize i = strlen (fraction); i < 9; i++)
    frac *= 10;
  return ns + frac;
}

static void
text_counts_clear (TextCounts *c)
{
  g_clear_pointer (&c->counts, g_hash_table_unref);
}

static void
count_text (const char *text,
            TextCounts *c)
{
  g_autoptr(GRegex) re = g_regex_new ("^[ \\t]*.+-\\d+[ \\t]+(?:\\([ \\t]*(?:\\d+|-+)\\)[ \\t]+)?"
                                      "\\[\\d+\\][ \\t]+(?:\\S+[ \\t]+)?(\\d+)\\.(\\d+):"
                                      "[ \\t]+([A-Za-z0-9_]+):",
                                      G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  c->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->n = 0;
  c->first = G_MAXUINT64;
  c->last = 0;
  g_regex_match (re, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *sec = g_match_info_fetch (match, 1);
      g_autofree char *frac = g_match_info_fetch (match, 2);
      char *name = g_match_info_fetch (match, 3);
      guint64 t = seconds_to_ns (sec, frac);

      c->first = MIN (c->first, t);
      c->last = MAX (c->last, t);
      c->n++;
      g_hash_table_insert (c->counts, name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (c->counts, name)) + 1));
      g_match_info_next (match, NULL);
    }
}

/* Events per type name in the store. */
static GHashTable *
count_trace (TwTrace *trace)
{
  GHashTable *counts = g_hash_table_new (g_str_hash, g_str_equal);
  TwEvent event;

  for (guint64 i = 0; tw_trace_get_event (trace, i, &event); i++)
    {
      const char *name = tw_trace_get_event_type (trace, event.type)->name;

      g_hash_table_insert (counts, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
    }
  return counts;
}

static void
assert_trace_agrees_with_text (TwTrace    *trace,
                               const char *text)
{
  TextCounts c = { 0 };
  g_autoptr(GHashTable) counts = count_trace (trace);
  GHashTableIter iter;
  gpointer key, value;

  count_text (text, &c);
  g_assert_cmpuint (c.n, >, 0);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, c.n);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, c.first);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, c.last);
  g_assert_cmpuint (g_hash_table_size (counts), ==, g_hash_table_size (c.counts));
  g_hash_table_iter_init (&iter, c.counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      if (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) != GPOINTER_TO_UINT (value))
        g_error ("%s: reader %u, text %u", (char *) key,
                 GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)), GPOINTER_TO_UINT (value));
    }
  text_counts_clear (&c);
}

/* ---------------------------------------------------------------- helpers */

static TwTrace *
load_path (const char  *path,
           GError     **error)
{
  return tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, error);
}

static TwTrace *
load_text (const char  *text,
           GError     **error)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();

  if (!_tw_ftrace_text_parse_buffer (trace, "test.txt", text, strlen (text), NULL, NULL,
                                     NULL, error))
    return NULL;
  if (!tw_trace_seal (trace, NULL, error))
    return NULL;
  return g_steal_pointer (&trace);
}

static TwTrace *
load_text_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  TwTrace *trace = load_text (text, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static const char *
field_string (TwTrace       *trace,
              const TwEvent *event,
              const char    *name)
{
  TwValue v;

  if (!tw_trace_get_event_field (trace, event, name, &v))
    return NULL;
  g_assert_cmpint (v.type, ==, TW_FIELD_STRING);
  return tw_trace_get_string (trace, v.str);
}

static gint64
field_i64 (TwTrace       *trace,
           const TwEvent *event,
           const char    *name)
{
  TwValue v;

  g_assert_true (tw_trace_get_event_field (trace, event, name, &v));
  g_assert_cmpint (v.type, ==, TW_FIELD_I64);
  return v.i;
}

static const TwTask *
task_by_source (TwTrace    *trace,
                const char *source_id)
{
  guint32 task = tw_trace_lookup_task (trace, source_id);

  g_assert_cmpuint (task, !=, TW_TASK_NONE);
  return tw_trace_get_task (trace, task);
}

static const char *
type_name (TwTrace       *trace,
           const TwEvent *event)
{
  return tw_trace_get_event_type (trace, event->type)->name;
}

static char *
read_file_or_skip (const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  char *text = NULL;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* ---------------------------------------------------------------- the 5 s report */

static void
test_report_5s (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) counts = NULL;
  g_autofree char *format = NULL;
  g_autofree char *skipped = NULL;
  g_autofree char *label = NULL;
  const TwTask *task;
  TwEvent event;
  static const struct { const char *name; guint count; TwEventKind kind; } expected[] = {
    { "sched_switch",      13869, TW_EVENT_KIND_SWITCH },
    { "softirq_entry",      7422, TW_EVENT_KIND_SOFTIRQ_ENTRY },
    { "softirq_exit",       7422, TW_EVENT_KIND_SOFTIRQ_EXIT },
    { "sched_wakeup",       6620, TW_EVENT_KIND_WAKEUP },
    { "irq_handler_entry",  3233, TW_EVENT_KIND_IRQ_ENTRY },
    { "irq_handler_exit",   3233, TW_EVENT_KIND_IRQ_EXIT },
  };

  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }

  trace = load_path (path, &error);
  g_assert_no_error (error);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "ftrace-text");
  skipped = tw_trace_dup_metadata (trace, "skipped_lines");
  g_assert_null (skipped);

  /* the README's table */
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 41799);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 2);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, G_GUINT64_CONSTANT (933349600000));
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, G_GUINT64_CONSTANT (939878530000));
  counts = count_trace (trace);
  g_assert_cmpuint (g_hash_table_size (counts), ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      guint16 type = tw_trace_lookup_event_type (trace, expected[i].name);

      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, expected[i].name)), ==,
                        expected[i].count);
      g_assert_cmpuint (type, !=, TW_TYPE_NONE);
      g_assert_cmpint (tw_trace_get_event_type (trace, type)->kind, ==, expected[i].kind);
    }

  /* line 3: workload.sh-14268 [001] 933.349603: sched_switch:
   *         trace-cmd:14268 [120] R ==> migration/1:21 [0] */
  g_assert_true (tw_trace_get_event (trace, 1, &event));
  g_assert_cmpstr (type_name (trace, &event), ==, "sched_switch");
  g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (933349603000));
  g_assert_cmpuint (event.cpu, ==, 1);
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "14268"));
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "21"));
  g_assert_cmpstr (field_string (trace, &event, "prev_comm"), ==, "trace-cmd");
  g_assert_cmpint (field_i64 (trace, &event, "prev_pid"), ==, 14268);
  g_assert_cmpint (field_i64 (trace, &event, "prev_prio"), ==, 120);
  g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, "R");
  g_assert_cmpstr (field_string (trace, &event, "next_comm"), ==, "migration/1");
  g_assert_cmpint (field_i64 (trace, &event, "next_pid"), ==, 21);
  g_assert_cmpint (field_i64 (trace, &event, "next_prio"), ==, 0);
  label = tw_trace_dup_task_label (trace, event.arg);
  g_assert_cmpstr (label, ==, "migration/1-21");

  /* line 4: migration/1-21 [001] 933.349642: sched_switch: migration/1:21 [0] S ==>
   *         swapper/1:0 [120] — the next task is CPU 1's idle task */
  g_assert_true (tw_trace_get_event (trace, 2, &event));
  g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, "S");
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "0/1"));

  /* first irq: <idle>-0 [001] 933.358513: irq_handler_entry: irq=36 name=virtio1-req.0 */
  g_assert_true (tw_trace_get_event (trace,
                                     tw_trace_find_first_at_or_after (trace, G_GUINT64_CONSTANT (933358513000)),
                                     &event));
  g_assert_cmpstr (type_name (trace, &event), ==, "irq_handler_entry");
  g_assert_cmpuint (event.arg, ==, 36);
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "0/1"));
  g_assert_cmpstr (field_string (trace, &event, "name"), ==, "virtio1-req.0");

  /* softirq: workload.sh-14268 [000] 933.352818: softirq_entry: vec=7 [action=SCHED] */
  g_assert_true (tw_trace_get_event (trace,
                                     tw_trace_find_first_at_or_after (trace, G_GUINT64_CONSTANT (933352818000)),
                                     &event));
  g_assert_cmpstr (type_name (trace, &event), ==, "softirq_entry");
  g_assert_cmpuint (event.arg, ==, 7);
  g_assert_cmpstr (field_string (trace, &event, "action"), ==, "SCHED");

  /* wakeup: workload.sh-14268 [000] 933.352841: sched_wakeup: kworker/0:1:11 [120] CPU:000 */
  g_assert_true (tw_trace_get_event (trace,
                                     tw_trace_find_first_at_or_after (trace, G_GUINT64_CONSTANT (933352841000)),
                                     &event));
  g_assert_cmpstr (type_name (trace, &event), ==, "sched_wakeup");
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "14268"));
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "11"));
  g_assert_cmpstr (field_string (trace, &event, "comm"), ==, "kworker/0:1");
  g_assert_cmpint (field_i64 (trace, &event, "pid"), ==, 11);
  g_assert_cmpint (field_i64 (trace, &event, "target_cpu"), ==, 0);

  /* tasks as the text names them; the idle tasks flagged */
  task = task_by_source (trace, "11");
  g_assert_cmpstr (task->name, ==, "kworker/0:1");
  g_assert_cmpint (task->tid, ==, 11);
  g_assert_cmpint (task->pid, ==, -1);
  task = task_by_source (trace, "21");
  g_assert_cmpstr (task->name, ==, "migration/1");
  for (guint cpu = 0; cpu < 2; cpu++)
    {
      g_autofree char *id = g_strdup_printf ("0/%u", cpu);
      g_autofree char *name = g_strdup_printf ("swapper/%u", cpu);

      task = task_by_source (trace, id);
      g_assert_cmpstr (task->name, ==, name);
      g_assert_cmpuint (task->flags & TW_TASK_FLAG_IDLE, ==, TW_TASK_FLAG_IDLE);
    }
  g_assert_cmpuint (tw_trace_lookup_task (trace, "0"), ==, TW_TASK_NONE);
  g_assert_cmpuint (task_by_source (trace, "14268")->flags & TW_TASK_FLAG_IDLE, ==, 0);
}

/* ---------------------------------------------------------------- trace-cmd agrees */

static void
test_trace_cmd_agrees (gconstpointer data)
{
  const char *relative = data;
  g_autofree char *dat = tw_test_dup_shared_trace_path (relative);
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  g_autofree char *out = NULL;
  g_autofree char *text_path = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *skipped = NULL;
  int status = 0;
  const char *argv[] = { "trace-cmd", "report", NULL, NULL };

  if (dat == NULL)
    {
      g_test_skip_printf ("shared/traces/%s is not there", relative);
      return;
    }
  if (trace_cmd == NULL)
    {
      g_test_skip ("trace-cmd is not installed (apt-get install trace-cmd)");
      return;
    }

  argv[0] = trace_cmd;
  argv[2] = dat;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  text_path = tw_test_write_temp_file ("report.txt", out, -1);
  trace = load_path (text_path, &error);
  g_assert_no_error (error);
  skipped = tw_trace_dup_metadata (trace, "skipped_lines");
  g_assert_null (skipped);
  assert_trace_agrees_with_text (trace, out);

  /* cpus=N is the first line; every CPU counts even if it logged nothing */
  g_assert_true (g_str_has_prefix (out, "cpus="));
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, g_ascii_strtoull (out + 5, NULL, 10));

  if (strstr (relative, "langraph"))
    {
      /* 4 CPUs and kernel_stack events whose `=> func` lines became their text */
      guint16 type = tw_trace_lookup_event_type (trace, "kernel_stack");
      TwEvent event;
      const char *text;

      g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 4);
      g_assert_cmpuint (type, !=, TW_TYPE_NONE);
      g_assert_true (tw_trace_get_event (trace, 1, &event));
      g_assert_cmpuint (event.type, ==, type);
      g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (11370816179000));
      text = field_string (trace, &event, "text");
      g_assert_true (g_str_has_prefix (text, "<stack trace >\n=> try_to_wake_up (ffffffffa8902e5f)\n"));
      g_assert_true (g_str_has_suffix (text, "=> entry_SYSCALL_64_after_hwframe (ffffffffa9600099)"));
    }
}

/* `trace-cmd report -t` (ns timestamps) and `-l` (latency format: CPU glued to the
 * flags, comms cut to 8 characters) hold the same events as the plain report. */
static char *
trace_cmd_report (const char *trace_cmd,
                  const char *dat,
                  const char *option)
{
  const char *argv[] = { trace_cmd, "report", option ? option : dat, option ? dat : NULL, NULL };
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

static void
test_trace_cmd_options (void)
{
  g_autofree char *dat = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  g_autofree char *plain = NULL;
  g_autofree char *ns = NULL;
  g_autofree char *latency = NULL;
  g_autoptr(TwTrace) ns_trace = NULL;
  g_autoptr(TwTrace) latency_trace = NULL;
  g_autoptr(GHashTable) counts = NULL;
  TextCounts c = { 0 };
  GHashTableIter iter;
  gpointer key, value;

  if (dat == NULL || trace_cmd == NULL)
    {
      g_test_skip ("needs shared/traces/ftrace/recorded/sched_irq_5s.dat and trace-cmd");
      return;
    }

  ns = trace_cmd_report (trace_cmd, dat, "-t");
  ns_trace = load_text_ok (ns);
  assert_trace_agrees_with_text (ns_trace, ns);
  g_assert_cmpuint (tw_trace_get_first_time (ns_trace), ==, G_GUINT64_CONSTANT (933349599835));

  plain = trace_cmd_report (trace_cmd, dat, NULL);
  latency = trace_cmd_report (trace_cmd, dat, "-l");
  g_assert_true (g_str_has_prefix (strchr (latency, '\n') + 1, "workload-14268   1dN.4.   933.349600: "));
  latency_trace = load_text_ok (latency);
  count_text (plain, &c);
  g_assert_cmpuint (tw_trace_get_n_events (latency_trace), ==, c.n);
  g_assert_cmpuint (tw_trace_get_first_time (latency_trace), ==, c.first);
  g_assert_cmpuint (tw_trace_get_last_time (latency_trace), ==, c.last);
  counts = count_trace (latency_trace);
  g_hash_table_iter_init (&iter, c.counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)), ==,
                      GPOINTER_TO_UINT (value));
  g_assert_cmpuint (tw_trace_get_n_cpus (latency_trace), ==, 2);
  text_counts_clear (&c);
}

/* The last event of a fixture, and that no line of it was skipped. */
static TwTrace *
load_report_fixture (const char *name,
                     TwEvent    *last)
{
  g_autofree char *path = tw_test_dup_fixture_path (name);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = load_path (path, &error);
  g_autofree char *skipped = NULL;

  g_assert_no_error (error);
  skipped = tw_trace_dup_metadata (trace, "skipped_lines");
  g_assert_null (skipped);
  g_assert_true (tw_trace_get_event (trace, tw_trace_get_n_events (trace) - 1, last));
  return g_steal_pointer (&trace);
}

/* What `trace-cmd report` adds to its lines on request: `(+DELTA)` before the name
 * (--ts-diff), ` Latency: N usecs` after a sched_switch and a summary at the end (-w);
 * and a counter clock's timestamp, wider than its column, touching the `[CPU]`. */
static void
test_trace_cmd_decorations (void)
{
  TwEvent last;
  g_autoptr(TwTrace) diff = load_report_fixture ("ftrace/report-ts-diff.txt", &last);
  g_autoptr(TwTrace) latency = NULL;
  g_autoptr(TwTrace) tsc = NULL;
  TwEvent first;

  /*  kworker/0:0-22371 [000] 20844.475631: (+151)   sched_switch: kworker/0:0:22371 [120] W
   *    ==> trace-cmd:24434 [120] */
  g_assert_cmpuint (last.time, ==, G_GUINT64_CONSTANT (20844475631000));
  g_assert_cmpstr (tw_trace_get_event_type (diff, last.type)->name, ==, "sched_switch");
  g_assert_cmpstr (field_string (diff, &last, "next_comm"), ==, "trace-cmd");
  g_assert_cmpint (tw_trace_lookup_event_type (diff, "function"), ==, TW_TYPE_NONE);

  /* the same line with `Latency: 2352.455 usecs` after it */
  latency = load_report_fixture ("ftrace/report-wakeup-latency.txt", &last);
  g_assert_cmpuint (tw_trace_get_n_events (latency), ==, tw_trace_get_n_events (diff));
  g_assert_cmpstr (tw_trace_get_event_type (latency, last.type)->name, ==, "sched_switch");
  g_assert_cmpstr (field_string (latency, &last, "next_comm"), ==, "trace-cmd");
  g_assert_cmpint (field_i64 (latency, &last, "next_prio"), ==, 120);
  g_assert_cmpuint (last.arg, ==, tw_trace_lookup_task (latency, "24434"));

  /*  cc1-24411 [000]54116388962168: sched_waking: comm=as pid=24412 prio=120 target_cpu=001 */
  tsc = load_report_fixture ("ftrace/report-x86-tsc.txt", &last);
  g_assert_true (tw_trace_get_event (tsc, 0, &first));
  g_assert_cmpuint (first.time, ==, G_GUINT64_CONSTANT (54116388962168));
  g_assert_cmpuint (first.cpu, ==, 0);
  g_assert_cmpstr (tw_trace_get_event_type (tsc, first.type)->name, ==, "sched_waking");
  g_assert_cmpuint (first.task, ==, tw_trace_lookup_task (tsc, "24411"));
}

/* `trace-cmd report -R` prints raw fields: sched_switch without the arrow and with a
 * numeric prev_state, which must come out as the kernel's letters. */
static void
test_trace_cmd_raw (void)
{
  g_autofree char *dat = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *trace_cmd = g_find_program_in_path ("trace-cmd");
  g_autofree char *raw = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GRegex) re = g_regex_new ("prev_state=(\\d+) ", 0, 0, NULL);
  g_autoptr(GArray) states = g_array_new (FALSE, FALSE, sizeof (guint));
  /* the kernel's print fmt for these values (see events/sched/sched_switch/format) */
  static const struct { guint value; const char *letters; } kernel[] = {
    { 0, "R" }, { 1, "S" }, { 2, "D" }, { 32, "Z" }, { 128, "I" }, { 256, "R+" },
  };
  guint16 type;
  guint n = 0;

  if (dat == NULL || trace_cmd == NULL)
    {
      g_test_skip ("needs shared/traces/ftrace/recorded/sched_irq_5s.dat and trace-cmd");
      return;
    }
  raw = trace_cmd_report (trace_cmd, dat, "-R");
  trace = load_text_ok (raw);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 41799);
  type = tw_trace_lookup_event_type (trace, "sched_switch");

  for (const char *line = raw, *eol; *line; line = *eol ? eol + 1 : eol)
    {
      g_autoptr(GMatchInfo) match = NULL;

      eol = strchr (line, '\n');
      if (eol == NULL)
        eol = line + strlen (line);
      if (g_strstr_len (line, eol - line, ": sched_switch:") == NULL)
        continue;
      g_assert_true (g_regex_match_full (re, line, eol - line, 0, 0, &match, NULL));
      {
        g_autofree char *value = g_match_info_fetch (match, 1);
        guint v = atoi (value);

        g_array_append_val (states, v);
      }
    }
  g_assert_cmpuint (states->len, ==, 13869);

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const char *expected = NULL;
      guint value;

      g_assert_true (tw_trace_get_event (trace, i, &event));
      if (event.type != type)
        continue;
      value = g_array_index (states, guint, n++);
      for (guint k = 0; k < G_N_ELEMENTS (kernel); k++)
        if (kernel[k].value == value)
          expected = kernel[k].letters;
      g_assert_nonnull (expected);
      g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, expected);
    }
  g_assert_cmpuint (n, ==, states->len);
}

/* ---------------------------------------------------------------- tracefs fixtures */

static void
test_tracefs_fixture (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = tw_test_dup_fixture_path (name);
  g_autofree char *text = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *source = NULL;
  const char *entries;
  gboolean tgid = strstr (name, "tgid") != NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  trace = load_path (path, &error);
  g_assert_no_error (error);
  source = tw_trace_dup_metadata (trace, "ftrace_source");
  g_assert_cmpstr (source, ==, "tracefs trace");
  assert_trace_agrees_with_text (trace, text);

  /* the header's own count: `# entries-in-buffer/entries-written: N/M` */
  entries = strstr (text, "entries-in-buffer/entries-written: ");
  g_assert_nonnull (entries);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==,
                    g_ascii_strtoull (entries + strlen ("entries-in-buffer/entries-written: "),
                                      NULL, 10));

  if (tgid)
    {
      /* bash-10339 (  10339) [001] ...1. 748.273204: tracing_mark_write: tw marker line */
      const TwTask *task = task_by_source (trace, "10339");
      TwEvent event;

      g_assert_cmpint (task->pid, ==, 10339);
      g_assert_cmpint (task->tid, ==, 10339);
      g_assert_cmpstr (task->name, ==, "bash");
      g_assert_true (tw_trace_get_event (trace, tw_trace_get_n_events (trace) - 1, &event));
      g_assert_cmpstr (type_name (trace, &event), ==, "tracing_mark_write");
      g_assert_cmpstr (field_string (trace, &event, "text"), ==, "tw marker line");
      g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (748273204000));
    }
  else
    {
      /* bash-10595 [000] d..2. 751.175376: sched_switch: prev_comm=bash prev_pid=10595
       * prev_prio=120 prev_state=R ==> next_comm=bash next_pid=10640 next_prio=120 */
      TwEvent event;

      g_assert_true (tw_trace_get_event (trace, 0, &event));
      g_assert_cmpstr (type_name (trace, &event), ==, "sched_switch");
      g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (751175376000));
      g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, "R");
      g_assert_cmpint (field_i64 (trace, &event, "next_pid"), ==, 10640);
      g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "10595"));
      g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "10640"));
      g_assert_cmpint (task_by_source (trace, "10595")->pid, ==, -1);
    }
}

/* ---------------------------------------------------------------- hand-made variants */

/* The reader gives each prev_state the task state it names: the state model reads that. */
static void
test_prev_state_names_a_state (void)
{
  static const char text[] =
    "# tracer: nop\n"
    "#\n"
    "  a-1 [000] d..2. 1.000000: sched_switch: prev_comm=a prev_pid=1 prev_prio=120 "
    "prev_state=R+ ==> next_comm=b next_pid=2 next_prio=120\n"
    "  b-2 [000] d..2. 1.000100: sched_switch: prev_comm=b prev_pid=2 prev_prio=120 "
    "prev_state=D ==> next_comm=c next_pid=3 next_prio=120\n"
    "  c-3 [000] d..2. 1.000200: sched_switch: prev_comm=c prev_pid=3 prev_prio=120 "
    "prev_state=X ==> next_comm=a next_pid=1 next_prio=120\n";
  static const TwTaskState expected[] = {
    TW_TASK_STATE_READY, TW_TASK_STATE_BLOCKED, TW_TASK_STATE_DEAD,
  };
  g_autoptr(TwTrace) trace = load_text_ok (text);

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      TwEvent event;
      TwValue state;

      g_assert_true (tw_trace_get_event (trace, i, &event));
      g_assert_true (tw_trace_get_event_field (trace, &event, "prev_state", &state));
      g_assert_cmpint (tw_trace_get_string_task_state (trace, state.str), ==, expected[i]);
    }
}

static void
test_variants_columns (void)
{
  /* flags column, TGID column, comm with spaces and dashes, 9 decimals, `<...>` */
  static const char text[] =
    "# tracer: nop\n"
    "#\n"
    "   Web Content-x-1234    (   1200) [003] d.h2. 100.123456789: sched_switch: "
    "prev_comm=Web Content-x prev_pid=1234 prev_prio=120 prev_state=R+ ==> "
    "next_comm=kworker/u4:2 next_pid=55 next_prio=120\n"
    "kworker/u4:2-events_unbound-55 [003] 100.123457000: sched_wakeup: "
    "comm=a b pid=77 prio=99 target_cpu=001\n"
    "           <...>-77      [001] ..... 100.200000: irq_handler_exit: irq=3 ret=handled\n"
    "          <idle>-0       [002] d.s..   100.3: softirq_exit: vec=1 [action=TIMER]\r\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  const TwTask *task;
  TwEvent event;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 4);

  g_assert_true (tw_trace_get_event (trace, 0, &event));
  g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (100123456789));
  g_assert_cmpuint (event.cpu, ==, 3);
  g_assert_cmpstr (field_string (trace, &event, "prev_comm"), ==, "Web Content-x");
  g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, "R+");
  task = tw_trace_get_task (trace, event.task);
  g_assert_cmpstr (task->source_id, ==, "1234");
  g_assert_cmpstr (task->name, ==, "Web Content-x");
  g_assert_cmpint (task->pid, ==, 1200);
  g_assert_cmpint (task->tid, ==, 1234);

  /* the comm is everything before the last dash that precedes the pid */
  task = task_by_source (trace, "55");
  g_assert_cmpstr (task->name, ==, "kworker/u4:2-events_unbound");
  g_assert_cmpint (task->pid, ==, -1);

  g_assert_true (tw_trace_get_event (trace, 1, &event));
  g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (100123457000));
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "77"));
  g_assert_cmpstr (field_string (trace, &event, "comm"), ==, "a b");
  g_assert_cmpint (field_i64 (trace, &event, "target_cpu"), ==, 1);

  /* `<...>` does not rename pid 77, which the wakeup named "a b" */
  g_assert_true (tw_trace_get_event (trace, 2, &event));
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "77"));
  g_assert_cmpstr (task_by_source (trace, "77")->name, ==, "a b");
  g_assert_cmpuint (event.arg, ==, 3);
  g_assert_cmpstr (field_string (trace, &event, "ret"), ==, "handled");

  /* one decimal is 0.3 s; CRLF endings; the idle task of CPU 2 */
  g_assert_true (tw_trace_get_event (trace, 3, &event));
  g_assert_cmpuint (event.time, ==, G_GUINT64_CONSTANT (100300000000));
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "0/2"));
  g_assert_cmpstr (field_string (trace, &event, "action"), ==, "TIMER");
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 4);
}

static void
test_variants_report_forms (void)
{
  /* trace-cmd's compact forms, with ':' inside comms and an old kernel's success=1 */
  static const char text[] =
    "cpus=4\n"
    "version = 6\n"
    "CPU 3 is empty\n"
    "     kworker/0:1-11    [000]    10.000001: sched_switch:         kworker/0:1:11 [120] D ==> my:odd comm:42 [98]\n"
    "     my:odd comm-42    [000]    10.000002: sched_wakeup_new:     bash:12 [120] success=1 CPU:002\n"
    "     my:odd comm-42    [000]    10.000003: sched_process_fork:   comm=my:odd comm pid=42 child_comm=my:odd comm child_pid=43\n"
    "     my:odd comm-43    [001]    10.000004: sched_process_exit:   comm=my:odd comm pid=43 prio=120\n"
    "     my:odd comm-42    [000]    10.000005: sched_waking:         comm=bash pid=12 prio=120 target_cpu=002\n"
    "     my:odd comm-42    [000]    10.000006: function:             do_sys_open <-- do_syscall_64\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  TwEvent event;
  guint16 type;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 6);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 4);

  g_assert_true (tw_trace_get_event (trace, 0, &event));
  g_assert_cmpstr (field_string (trace, &event, "prev_comm"), ==, "kworker/0:1");
  g_assert_cmpstr (field_string (trace, &event, "prev_state"), ==, "D");
  g_assert_cmpstr (field_string (trace, &event, "next_comm"), ==, "my:odd comm");
  g_assert_cmpint (field_i64 (trace, &event, "next_prio"), ==, 98);
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "42"));

  g_assert_true (tw_trace_get_event (trace, 1, &event));
  g_assert_cmpint (tw_trace_get_event_type (trace, event.type)->kind, ==, TW_EVENT_KIND_WAKEUP);
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "42"));
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "12"));
  g_assert_cmpint (field_i64 (trace, &event, "target_cpu"), ==, 2);

  g_assert_true (tw_trace_get_event (trace, 2, &event));
  g_assert_cmpint (tw_trace_get_event_type (trace, event.type)->kind, ==, TW_EVENT_KIND_TASK_CREATE);
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "42"));
  g_assert_cmpuint (event.arg, ==, tw_trace_lookup_task (trace, "43"));
  g_assert_cmpstr (field_string (trace, &event, "child_comm"), ==, "my:odd comm");
  g_assert_cmpint (field_i64 (trace, &event, "child_pid"), ==, 43);

  g_assert_true (tw_trace_get_event (trace, 3, &event));
  g_assert_cmpint (tw_trace_get_event_type (trace, event.type)->kind, ==, TW_EVENT_KIND_TASK_EXIT);
  g_assert_cmpuint (event.task, ==, tw_trace_lookup_task (trace, "43"));
  g_assert_cmpuint (event.arg, ==, event.task);

  /* sched_waking is not the wakeup */
  type = tw_trace_lookup_event_type (trace, "sched_waking");
  g_assert_cmpint (tw_trace_get_event_type (trace, type)->kind, ==, TW_EVENT_KIND_OTHER);
  g_assert_true (tw_trace_get_event (trace, 4, &event));
  g_assert_cmpuint (event.arg, ==, 0);
  g_assert_cmpint (field_i64 (trace, &event, "pid"), ==, 12);

  g_assert_true (tw_trace_get_event (trace, 5, &event));
  g_assert_cmpstr (field_string (trace, &event, "text"), ==, "do_sys_open <-- do_syscall_64");
}

static void
test_variants_generic_schema (void)
{
  /* the schema comes from the first line; later misfits land in `text` */
  static const char text[] =
    "a-1 [000] 1.000000: foo: n=5 h=0x1f s=hello world k=v\n"
    "a-1 [000] 1.000001: foo: n=x h=0x20 new=3 s=bye\n"
    "a-1 [000] 1.000002: foo: no pairs at all\n"
    "a-1 [000] 1.000003: bar: free text first\n"
    "a-1 [000] 1.000004: bar: k=v\n"
    "a-1 [000] 1.000005: stat: comm=a pid=1 runtime=1694423 [ns]\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  const TwEventType *foo;
  TwEvent event;
  TwValue v;
  int h;

  foo = tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "foo"));
  g_assert_cmpuint (foo->n_fields, ==, 5);
  h = tw_event_type_lookup_field (foo, "h");
  g_assert_cmpint (foo->fields[h].type, ==, TW_FIELD_U64);
  g_assert_cmpuint (foo->fields[h].flags & TW_FIELD_FLAG_HEX, ==, TW_FIELD_FLAG_HEX);
  g_assert_cmpint (foo->fields[tw_event_type_lookup_field (foo, "n")].type, ==, TW_FIELD_I64);

  g_assert_true (tw_trace_get_event (trace, 0, &event));
  g_assert_cmpint (field_i64 (trace, &event, "n"), ==, 5);
  g_assert_true (tw_trace_get_event_field (trace, &event, "h", &v));
  g_assert_cmpuint (v.u, ==, 0x1f);
  g_assert_cmpstr (field_string (trace, &event, "s"), ==, "hello world");
  g_assert_cmpstr (field_string (trace, &event, "k"), ==, "v");
  g_assert_null (field_string (trace, &event, "text"));

  g_assert_true (tw_trace_get_event (trace, 1, &event));
  g_assert_false (tw_trace_get_event_field (trace, &event, "n", &v));
  g_assert_false (tw_trace_get_event_field (trace, &event, "k", &v));
  g_assert_true (tw_trace_get_event_field (trace, &event, "h", &v));
  g_assert_cmpuint (v.u, ==, 0x20);
  g_assert_cmpstr (field_string (trace, &event, "s"), ==, "bye");
  g_assert_cmpstr (field_string (trace, &event, "text"), ==, "n=x new=3");

  g_assert_true (tw_trace_get_event (trace, 2, &event));
  g_assert_cmpstr (field_string (trace, &event, "text"), ==, "no pairs at all");

  /* an event whose first line has no pairs keeps every line whole */
  g_assert_true (tw_trace_get_event (trace, 4, &event));
  g_assert_cmpuint (tw_trace_get_event_type (trace, event.type)->n_fields, ==, 1);
  g_assert_cmpstr (field_string (trace, &event, "text"), ==, "k=v");

  g_assert_true (tw_trace_get_event (trace, 5, &event));
  g_assert_cmpint (field_i64 (trace, &event, "runtime"), ==, 1694423);
}

/* The kind of the store's event @index. */
static TwEventKind
event_kind (TwTrace *trace,
            guint64  index,
            TwEvent *event)
{
  g_assert_true (tw_trace_get_event (trace, index, event));
  return tw_trace_get_event_type (trace, event->type)->kind;
}

/* LOST lines become lost events on their CPU at its next event (at the end when none
 * follows); lines that are not ftrace are skipped; an event line whose fields do not
 * make a switch is kept, cut. */
static void
test_variants_lost_and_skipped (void)
{
  static const char text[] =
    "cpus=2\n"
    "a-1 [000] 1.000000: foo: x=1\n"
    "CPU:1 [LOST 123 EVENTS]\n"
    "this line is not ftrace\n"
    "a-1 [001] 1.000001: foo: x=2\n"
    "##### CPU 1 buffer started ####\n"
    "a-1 [000] 1.000002: sched_switch: garbage that is no switch\n"
    "CPU:0 [LOST 7 EVENTS]\n"
    "=> orphan (ffff)\n"
    "a-1 [001] 1.000003: foo: x=3\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  g_autofree char *skipped = tw_trace_dup_metadata (trace, "skipped_lines");
  g_autofree char *first = tw_trace_dup_metadata (trace, "first_skipped_line");
  g_autofree char *truncated = tw_trace_dup_metadata (trace, "truncated_events");
  g_autofree char *first_truncated = tw_trace_dup_metadata (trace, "first_truncated_line");
  TwEvent ev;

  /* 4 event lines, 2 losses */
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 6);
  g_assert_cmpstr (skipped, ==, "2");
  g_assert_cmpstr (first, ==, "4");
  g_assert_cmpstr (truncated, ==, "1");
  g_assert_cmpstr (first_truncated, ==, "7");

  g_assert_cmpint (event_kind (trace, 1, &ev), ==, TW_EVENT_KIND_LOST);
  g_assert_cmpuint (ev.time, ==, G_GUINT64_CONSTANT (1000001000));
  g_assert_cmpuint (ev.cpu, ==, 1);
  g_assert_cmpuint (ev.arg, ==, 123);
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->name, ==, "lost_events");
  g_assert_cmpint (event_kind (trace, 3, &ev), ==, TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (ev.arg, ==, TW_TASK_NONE);
  /* CPU 0 has no event after its loss: it is known when the text ends */
  g_assert_cmpint (event_kind (trace, 5, &ev), ==, TW_EVENT_KIND_LOST);
  g_assert_cmpuint (ev.time, ==, G_GUINT64_CONSTANT (1000003000));
  g_assert_cmpuint (ev.cpu, ==, 0);
  g_assert_cmpuint (ev.arg, ==, 7);
}

/* trace-cmd report's forms: `CPU:N [M EVENTS DROPPED]`, and `[EVENTS DROPPED]` when
 * the buffer did not count them. */
static void
test_variants_dropped (void)
{
  static const char text[] =
    "cpus=2\n"
    "          a-1     [000]     1.000000: foo: x=1\n"
    "CPU:1 [EVENTS DROPPED]\n"
    "CPU:0 [2248 EVENTS DROPPED]\n"
    "          a-1     [000]     1.000005: foo: x=2\n"
    "          a-1     [001]     1.000007: foo: x=3\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  g_autoptr(TwLostEvents) lost = tw_lost_events_new (trace);
  const TwLoss *losses;
  gsize n;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 5);
  losses = tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (losses[0].cpu, ==, 0);
  g_assert_cmpuint (losses[0].count, ==, 2248);
  g_assert_cmpuint (losses[0].begin, ==, G_GUINT64_CONSTANT (1000000000));
  g_assert_cmpuint (losses[0].end, ==, G_GUINT64_CONSTANT (1000005000));
  g_assert_cmpuint (losses[1].cpu, ==, 1);
  g_assert_cmpuint (losses[1].count, ==, TW_LOST_COUNT_UNKNOWN);
  g_assert_cmpuint (losses[1].end, ==, G_GUINT64_CONSTANT (1000007000));
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_lost, ==, 2248);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, TW_CPU_NONE)->n_unknown, ==, 1);
  g_assert_null (tw_trace_dup_metadata (trace, "skipped_lines"));
}

/* Lines cut in the middle keep what parses: one event per event header. */
static void
test_variants_truncated (void)
{
  static const char text[] =
    "cpus=2\n"
    "  bash-100   [000] 10.000100: sched_switch: bash:100 [120] S ==> ls:\n"
    "  ls-200     [001] 10.000200: sched_wakeup: \n"
    "  ls-200     [001] 10.000300: irq_handler_entry: irq=\n"
    "  ls-200     [001] 10.000400: irq_handler_exit: irq=19 ret=handled\n"
    "  bash-100   [000] 10.000500: sched_switch: prev_comm=bash prev_pid=100 prev_prio=120 "
    "prev_state=S ==> next_comm=ls next_p\n"
    "  bash-100   [000] 10.000600: foo: x=1 y=2";
  g_autoptr(TwTrace) trace = load_text_ok (text);
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autofree char *truncated = tw_trace_dup_metadata (trace, "truncated_events");
  g_autofree char *first = tw_trace_dup_metadata (trace, "first_truncated_line");
  g_autofree char *state = NULL;
  const TwIrqInterval *irqs;
  TwEvent ev;
  gsize n;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 6);
  g_assert_cmpstr (truncated, ==, "5");
  g_assert_cmpstr (first, ==, "2");
  g_assert_null (tw_trace_dup_metadata (trace, "skipped_lines"));

  /* the switch keeps its prev task and state, its next task is unknown */
  g_assert_cmpint (event_kind (trace, 0, &ev), ==, TW_EVENT_KIND_SWITCH);
  g_assert_cmpstr (tw_trace_get_task (trace, ev.task)->source_id, ==, "100");
  g_assert_cmpuint (ev.arg, ==, TW_TASK_NONE);
  state = tw_test_dup_event_field (trace, 0, "prev_state");
  g_assert_cmpstr (state, ==, "S");
  g_assert_cmpint (event_kind (trace, 1, &ev), ==, TW_EVENT_KIND_WAKEUP);
  g_assert_cmpuint (ev.arg, ==, TW_TASK_NONE);
  g_assert_cmpint (event_kind (trace, 2, &ev), ==, TW_EVENT_KIND_IRQ_ENTRY);
  g_assert_cmpuint (ev.arg, ==, TW_IRQ_NUMBER_UNKNOWN);
  g_assert_cmpint (event_kind (trace, 4, &ev), ==, TW_EVENT_KIND_SWITCH);
  g_assert_cmpstr (tw_trace_get_task (trace, ev.task)->source_id, ==, "100");
  g_assert_cmpuint (ev.arg, ==, TW_TASK_NONE);
  g_assert_cmpint (event_kind (trace, 5, &ev), ==, TW_EVENT_KIND_OTHER);
  g_assert_cmpint (field_i64 (trace, &ev, "y"), ==, 2);

  /* the handler whose number was cut closes with the next exit, which names it */
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  irqs = tw_state_model_get_cpu_irqs (model, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (irqs[0].number, ==, 19);
  g_assert_cmpuint (irqs[0].end, ==, G_GUINT64_CONSTANT (10000400000));
  g_assert_false (irqs[0].unclosed);
}

static void
test_variants_errors (void)
{
  static const struct { const char *text; const char *message; } cases[] = {
    { "hello\nworld\n", "test.txt: line 1: not an ftrace event line: “hello”" },
    { "cpus=2\n\nnot an event\na-1 [000] 1.0: foo: x\n", "test.txt: line 3: " },
    { "a-1 [000] 1.0000000001: foo: ten decimals\n", "test.txt: line 1: " },
    { "a-1 [000] 1.000000 foo: no colon after the time\n", "test.txt: line 1: " },
    { "", "test.txt: line 1: no ftrace events" },
    { "\n\n", "test.txt: line 2: no ftrace events" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TwTrace) trace = load_text (cases[i].text, &error);

      g_assert_null (trace);
      g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
      if (!g_str_has_prefix (error->message, cases[i].message))
        g_error ("case %u: “%s” does not start with “%s”", i, error->message, cases[i].message);
    }
}

static void
test_header_only (void)
{
  /* an empty tracefs buffer is a valid, empty trace */
  static const char text[] =
    "# tracer: nop\n"
    "#\n"
    "# entries-in-buffer/entries-written: 0/0   #P:2\n";
  g_autoptr(TwTrace) trace = load_text_ok (text);

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 0);
}

static void
test_probe (void)
{
  g_autoptr(TwReader) reader = tw_reader_registry_find ("ftrace-text");
  static const char report[] = "cpus=2\n     bash-1 [000]  1.000000: foo: x=1\n";
  static const char tracefs[] = "# tracer: nop\n#\n";
  static const char bare[] = "  bash-1 [000]  1.000000: foo: x=1\n  bash-1 [000]  1.000001: foo: x=1\n";
  static const char csv[] = "time_ns,cpu,task,event\n100,0,a,switch\n";
  static const guint8 binary[] = { 0x01, 0x00, 0x02, 0x00, 0x10, 0x00, 0x00, 0x00, 'a', '\n' };

  g_assert_nonnull (reader);
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) report, strlen (report)), ==, 100);
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) tracefs, strlen (tracefs)), ==, 100);
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) bare, strlen (bare)), >=, 80);
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) csv, strlen (csv)), ==, 0);
  g_assert_cmpuint (tw_reader_probe (reader, "x", binary, sizeof binary), ==, 0);
}

static void
record_progress (double   fraction,
                 gpointer user_data)
{
  g_array_append_val ((GArray *) user_data, fraction);
}

static void
test_progress (void)
{
  g_autofree char *text = read_file_or_skip ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  if (text == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }
  g_assert_true (_tw_ftrace_text_parse_buffer (trace, "x", text, strlen (text), record_progress,
                                               fractions, NULL, &error));
  g_assert_no_error (error);

  /* every 4096 lines of 41,800, then 1.0 at the end */
  g_assert_cmpuint (fractions->len, ==, 41800 / 4096 + 1);
  for (guint i = 1; i < fractions->len; i++)
    g_assert_cmpfloat (g_array_index (fractions, double, i), >, g_array_index (fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (fractions, double, 0), >, 0.0);
  g_assert_cmpfloat (g_array_index (fractions, double, fractions->len - 1), ==, 1.0);
}

static void
test_cancel (void)
{
  g_autofree char *text = read_file_or_skip ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  if (text == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }
  g_cancellable_cancel (cancellable);
  g_assert_false (_tw_ftrace_text_parse_buffer (trace, "x", text, strlen (text), NULL, NULL,
                                                cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---------------------------------------------------------------- state model */

typedef struct {
  guint64 time;
  guint   cpu;
  gint64  next_pid;
} TextSwitch;

static void
test_state_model (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autofree char *text = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) re = NULL;
  g_autoptr(GArray) switches = g_array_new (FALSE, FALSE, sizeof (TextSwitch));
  guint checked = 0;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there");
      return;
    }
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  trace = load_path (path, &error);
  g_assert_no_error (error);
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);

  /* every switch of the text, by its own regular expression, line by line */
  re = g_regex_new ("\\[(\\d+)\\][ \\t]+(\\d+)\\.(\\d+): sched_switch:.* ==> .*:(\\d+) \\[-?\\d+\\]$",
                    G_REGEX_OPTIMIZE, 0, NULL);
  /* (not g_strsplit: under ASan its strstr calls rescan the whole rest of the text) */
  for (const char *line = text, *eol; *line; line = *eol ? eol + 1 : eol)
    {
      g_autoptr(GMatchInfo) match = NULL;
      gssize len;

      eol = strchr (line, '\n');
      if (eol == NULL)
        eol = line + strlen (line);
      len = eol - line;
      if (g_strstr_len (line, len, ": sched_switch:") == NULL)
        continue;
      g_assert_true (g_regex_match_full (re, line, len, 0, 0, &match, NULL));
      {
        g_autofree char *cpu = g_match_info_fetch (match, 1);
        g_autofree char *sec = g_match_info_fetch (match, 2);
        g_autofree char *frac = g_match_info_fetch (match, 3);
        g_autofree char *pid = g_match_info_fetch (match, 4);
        TextSwitch sw = { seconds_to_ns (sec, frac), atoi (cpu), g_ascii_strtoll (pid, NULL, 10) };

        g_array_append_val (switches, sw);
      }
    }
  g_assert_cmpuint (switches->len, ==, 13869);

  /* at 1 ns after every 97th switch, each CPU runs the next task of its last switch */
  for (guint i = 0; i < switches->len; i += 97)
    {
      guint64 t = g_array_index (switches, TextSwitch, i).time + 1;

      for (guint cpu = 0; cpu < 2; cpu++)
        {
          const TextSwitch *last = NULL;
          g_autofree char *id = NULL;

          for (guint j = 0; j < switches->len; j++)
            {
              const TextSwitch *sw = &g_array_index (switches, TextSwitch, j);

              if (sw->cpu == cpu && sw->time <= t)
                last = sw;
            }
          if (last == NULL)
            continue;
          id = last->next_pid == 0 ? g_strdup_printf ("0/%u", cpu)
                                   : g_strdup_printf ("%" G_GINT64_FORMAT, last->next_pid);
          g_assert_cmpuint (tw_state_model_get_running_task (model, cpu, t), ==,
                            tw_trace_lookup_task (trace, id));
          checked++;
        }
    }
  g_assert_cmpuint (checked, >, 250);

  /* hand-read from the text's head: migration/1 blocks (S) at 933.349642; trace-cmd is
   * preempted (R) at 933.349603 on CPU 1 and runs again at 933.349687 on CPU 0 */
  g_assert_cmpint (tw_state_model_get_task_state (model, tw_trace_lookup_task (trace, "21"),
                                                  G_GUINT64_CONSTANT (933349650000)),
                   ==, TW_TASK_STATE_BLOCKED);
  g_assert_cmpint (tw_state_model_get_task_state (model, tw_trace_lookup_task (trace, "14268"),
                                                  G_GUINT64_CONSTANT (933349650000)),
                   ==, TW_TASK_STATE_READY);
  g_assert_cmpint (tw_state_model_get_task_state (model, tw_trace_lookup_task (trace, "14268"),
                                                  G_GUINT64_CONSTANT (933349690000)),
                   ==, TW_TASK_STATE_RUNNING);
}

/* ---------------------------------------------------------------- CLI */

static void
test_cli_info_json (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  const char *cli = g_getenv ("TW_CLI");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root;
  JsonObject *types;
  TextCounts c = { 0 };
  GHashTableIter iter;
  gpointer key, value;
  int status = 0;
  const char *argv[] = { cli, "info", "--json", path, NULL };

  if (path == NULL || cli == NULL)
    {
      g_test_skip ("needs shared/traces/ftrace/recorded/sched_irq_5s.report.txt and $TW_CLI");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (err, ==, "");

  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  count_text (text, &c);
  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "ftrace-text");
  g_assert_cmpint (json_object_get_int_member (root, "events"), ==, c.n);
  g_assert_cmpint (json_object_get_int_member (root, "cpus"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (root, "first_ns"), ==, c.first);
  g_assert_cmpint (json_object_get_int_member (root, "last_ns"), ==, c.last);
  g_assert_cmpint (json_object_get_int_member (root, "duration_ns"), ==, c.last - c.first);
  types = json_object_get_object_member (root, "types");
  g_assert_cmpuint (json_object_get_size (types), ==, g_hash_table_size (c.counts));
  g_hash_table_iter_init (&iter, c.counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpint (json_object_get_int_member (types, key), ==, GPOINTER_TO_UINT (value));
  text_counts_clear (&c);
}

static void
test_cli_skipped_note (void)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autofree char *path = tw_test_write_temp_file ("skipped.txt",
                                                   "cpus=1\n"
                                                   "a-1 [000] 1.000000: foo: x=1\n"
                                                   "garbage\n"
                                                   "a-1 [000] 1.000001: foo: x=2\n", -1);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;
  const char *argv[] = { cli, "info", path, NULL };

  if (cli == NULL)
    {
      g_test_skip ("needs $TW_CLI");
      return;
    }
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  expected = g_strdup_printf ("tracewb-cli: %s: 1 lines skipped (first: line 3)\n", path);
  g_assert_cmpstr (err, ==, expected);
  g_assert_nonnull (strstr (out, "skipped_lines  1\n"));
}

int
main (int    argc,
      char **argv)
{
  static const char *dats[] = {
    "ftrace/recorded/sched_irq_5s.dat",
    "ftrace/recorded/sched_irq_5s.v6.dat",
    "ftrace/recorded/sched_irq_all_2s.dat",
    "ftrace/external/langraph-vbox-x86_64-v7/trace.dat",
  };

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/ftrace-text/report-5s", test_report_5s);
  for (guint i = 0; i < G_N_ELEMENTS (dats); i++)
    {
      g_autofree char *name = g_strdup_printf ("/tw/ingest/ftrace-text/trace-cmd-agrees/%s",
                                               dats[i] + strlen ("ftrace/"));

      g_test_add_data_func (name, dats[i], test_trace_cmd_agrees);
    }
  g_test_add_func ("/tw/ingest/ftrace-text/trace-cmd-options", test_trace_cmd_options);
  g_test_add_func ("/tw/ingest/ftrace-text/trace-cmd-raw", test_trace_cmd_raw);
  g_test_add_func ("/tw/ingest/ftrace-text/trace-cmd-decorations", test_trace_cmd_decorations);
  g_test_add_data_func ("/tw/ingest/ftrace-text/tracefs/no-tgid", "ftrace/tracefs-sched-irq.txt",
                        test_tracefs_fixture);
  g_test_add_data_func ("/tw/ingest/ftrace-text/tracefs/tgid", "ftrace/tracefs-sched-irq-tgid.txt",
                        test_tracefs_fixture);
  g_test_add_func ("/tw/ingest/ftrace-text/prev-state-names-a-state", test_prev_state_names_a_state);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/columns", test_variants_columns);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/report-forms", test_variants_report_forms);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/generic-schema", test_variants_generic_schema);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/lost-and-skipped", test_variants_lost_and_skipped);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/dropped", test_variants_dropped);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/truncated", test_variants_truncated);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/errors", test_variants_errors);
  g_test_add_func ("/tw/ingest/ftrace-text/variants/header-only", test_header_only);
  g_test_add_func ("/tw/ingest/ftrace-text/probe", test_probe);
  g_test_add_func ("/tw/ingest/ftrace-text/progress", test_progress);
  g_test_add_func ("/tw/ingest/ftrace-text/cancel", test_cancel);
  g_test_add_func ("/tw/ingest/ftrace-text/state-model", test_state_model);
  g_test_add_func ("/tw/ingest/ftrace-text/cli/info-json", test_cli_info_json);
  g_test_add_func ("/tw/ingest/ftrace-text/cli/skipped-note", test_cli_skipped_note);

  return g_test_run ();
}
