/* test-csv-writer.c: the CSV writer, and reading back what it wrote
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-csv-reader-private.h>
#include <tw-ingest.h>
#include <tw-test-utils.h>

#include <string.h>

static TwTrace *
parse (const char *text)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  _tw_csv_parse_buffer (trace, "written.csv", text, strlen (text), NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  tw_trace_seal (trace, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

static char *
write_csv (TwTrace *trace)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_csv_writer_write (trace, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, &error));
  g_output_stream_close (stream, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

static char *
dup_fixture_text (const char *name)
{
  g_autofree char *path = tw_test_dup_fixture_path (name);
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* A value as a user reads it, with task fields as source ids so two traces compare. */
static char *
dup_value (TwTrace           *trace,
           const TwFieldSpec *spec,
           const TwValue     *value)
{
  if (spec->flags & TW_FIELD_FLAG_TASK)
    return g_strdup (tw_test_get_task_source_id (trace, value->u));
  return tw_trace_format_value (trace, spec, value);
}

static gboolean
kind_arg_is_task (TwEventKind kind)
{
  return kind == TW_EVENT_KIND_SWITCH || kind == TW_EVENT_KIND_WAKEUP
         || kind == TW_EVENT_KIND_TASK_CREATE || kind == TW_EVENT_KIND_TASK_EXIT;
}

static char *
dup_arg (TwTrace     *trace,
         TwEventKind  kind,
         guint32      arg)
{
  if (kind_arg_is_task (kind))
    return g_strdup (arg == TW_TASK_NONE ? "(none)" : tw_test_get_task_source_id (trace, arg));
  return g_strdup_printf ("%u", arg);
}

/* @b was read back from what the writer made of @a: same events, same arguments. @b may
 * have one field more per event: the canonical column the writer filled from `arg`. */
static void
assert_same_events (TwTrace *a,
                    TwTrace *b)
{
  guint64 n = tw_trace_get_n_events (a);

  g_assert_cmpuint (tw_trace_get_n_events (b), ==, n);
  for (guint64 e = 0; e < n; e++)
    {
      const TwEventType *ta, *tb;
      g_autofree char *arg_a = NULL;
      g_autofree char *arg_b = NULL;
      TwEvent ea, eb;

      tw_trace_get_event (a, e, &ea);
      tw_trace_get_event (b, e, &eb);
      ta = tw_trace_get_event_type (a, ea.type);
      tb = tw_trace_get_event_type (b, eb.type);

      g_assert_cmpuint (ea.time, ==, eb.time);
      g_assert_cmpuint (ea.cpu, ==, eb.cpu);
      g_assert_cmpstr (tw_test_get_task_source_id (a, ea.task), ==,
                       tw_test_get_task_source_id (b, eb.task));
      g_assert_cmpstr (ta->name, ==, tb->name);
      g_assert_cmpint (ta->kind, ==, tb->kind);
      arg_a = dup_arg (a, ta->kind, ea.arg);
      arg_b = dup_arg (b, tb->kind, eb.arg);
      g_assert_cmpstr (arg_a, ==, arg_b);

      for (guint f = 0; f < ta->n_fields; f++)
        {
          int g = tw_event_type_lookup_field (tb, ta->fields[f].name);
          g_autofree char *va = NULL;
          g_autofree char *vb = NULL;
          TwValue value;

          g_assert_cmpint (g, >=, 0);
          if (tw_event_type_get_field (ta, ea.payload, f, &value))
            va = dup_value (a, &ta->fields[f], &value);
          if (tw_event_type_get_field (tb, eb.payload, g, &value))
            {
              vb = dup_value (b, &tb->fields[g], &value);
              /* text stays text, numbers stay numbers */
              g_assert_cmpint (ta->fields[f].type == TW_FIELD_STRING, ==,
                               tb->fields[g].type == TW_FIELD_STRING);
            }
          g_assert_cmpstr (va, ==, vb);
        }

      for (guint g = 0; g < tb->n_fields; g++)
        {
          const char *canon = _tw_csv_kind_column_for (tb->kind);
          g_autofree char *vb = NULL;
          TwValue value;

          if (tw_event_type_lookup_field (ta, tb->fields[g].name) >= 0)
            continue;
          g_assert_cmpstr (tb->fields[g].name, ==, canon);
          if (tw_event_type_get_field (tb, eb.payload, g, &value))
            vb = dup_value (b, &tb->fields[g], &value);
          else
            vb = g_strdup ("(none)");
          g_assert_cmpstr (vb, ==, arg_b);
        }
    }

  for (guint32 k = 0; k < tw_trace_get_n_tasks (a); k++)
    {
      const TwTask *ka = tw_trace_get_task (a, k);
      const TwTask *kb = tw_trace_get_task (b, tw_trace_lookup_task (b, ka->source_id));

      g_assert_nonnull (kb);
      g_assert_cmpstr (ka->name, ==, kb->name);
      g_assert_cmpint (ka->pid, ==, kb->pid);
      g_assert_cmpint (ka->tid, ==, kb->tid);
      g_assert_cmpuint (ka->flags, ==, kb->flags);
    }
  g_assert_cmpuint (tw_trace_get_n_tasks (b), ==, tw_trace_get_n_tasks (a));
}

/* CSV → store → CSV → store: the same events, and the second CSV is the first. */
static void
round_trip_text (const char *text)
{
  g_autoptr(TwTrace) first = parse (text);
  g_autofree char *written = write_csv (first);
  g_autoptr(TwTrace) second = parse (written);
  g_autofree char *rewritten = write_csv (second);

  assert_same_events (first, second);
  g_assert_cmpstr (rewritten, ==, written);
}

static void
test_round_trip_fixtures (void)
{
  static const char * const fixtures[] = { "csv/kinds.csv", "csv/sched.csv" };

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *text = dup_fixture_text (fixtures[i]);

      round_trip_text (text);
    }

  round_trip_text ("time_ns,cpu,task,event,msg,n,x\n"
                   "1,0,\"task, one\",ev,\"a \"\"quoted\"\" word\",0x10,1.5\n"
                   "2,,t2,\"ev, two\",\"two\nlines\",-3,2\n"
                   "3,0,,ev,\"  padded  \",,\n"
                   "4,0, t2 ,ev,\"\",7,\n"
                   "5,0,t2,ev,\"42\",,\n"
                   "0,3,t3,switch,,,\n");
}

static void
test_exact_text (void)
{
  g_autoptr(TwTrace) trace = parse (
    "time_ns,cpu,task,event,task_name,next,note\n"
    "20,1,a,switch,alpha,b,\n"
    "10,,\" b\",mark,,,\"x,y\"\n"
    "30,0,b,mark,,,7\n");
  g_autofree char *text = write_csv (trace);

  /* sorted by time; the event columns first, then task names, then the arguments in the
   * order their types first occur; text always quoted, numbers never */
  g_assert_cmpstr (text, ==,
                   "# Trace Workbench CSV events (docs/csv-format.md)\n"
                   "time_ns,cpu,task,event,task_name,note,next\n"
                   "10,,\" b\",mark,,\"x,y\",\n"
                   "20,1,a,switch,\"alpha\",,b\n"
                   "30,0,b,mark,,\"7\",\n");
}

static guint16
add_type (TwTrace           *trace,
          const char        *name,
          TwEventKind        kind,
          const TwFieldSpec *fields,
          guint              n_fields)
{
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, name, "test", kind, fields, n_fields, &error);

  g_assert_no_error (error);
  return type;
}

static void
set_field (TwTrace    *trace,
           guint16     type,
           guint8     *payload,
           const char *name,
           TwValue     value)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);
  int field = tw_event_type_lookup_field (t, name);

  g_assert_cmpint (field, >=, 0);
  value.type = t->fields[field].type;
  tw_event_type_set_field (t, payload, field, &value);
}

static TwTrace *
build_trace (void)
{
  static const TwFieldSpec sample_fields[] = {
    { "text", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "small", TW_FIELD_U8, TW_FIELD_FLAG_NONE },
    { "medium", TW_FIELD_U16, TW_FIELD_FLAG_NONE },
    { "word", TW_FIELD_U32, TW_FIELD_FLAG_NONE },
    { "signed", TW_FIELD_I32, TW_FIELD_FLAG_NONE },
    { "big", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "wide", TW_FIELD_I64, TW_FIELD_FLAG_NONE },
    { "addr", TW_FIELD_U64, TW_FIELD_FLAG_HEX },
    { "ratio", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "maybe", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  };
  static const TwFieldSpec sched_switch_fields[] = {
    { "prev_comm", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "next_pid", TW_FIELD_I32, TW_FIELD_FLAG_NONE },
  };
  static const TwFieldSpec fake_switch_fields[] = {
    { "cpu", TW_FIELD_I64, TW_FIELD_FLAG_NONE },
    { "next", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "task_name", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  static const TwFieldSpec irq_fields[] = {
    { "irq", TW_FIELD_I32, TW_FIELD_FLAG_NONE },
    { "name", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  static const struct {
    const char *text;
    guint64     small;
    gint64      wide;
    guint64     addr;
    double      ratio;
    const char *maybe;
  } samples[] = {
    { "plain", 0, G_MININT64, G_GUINT64_CONSTANT (0xdeadbeefcafebabe), 1.5, NULL },
    { "with, comma", 255, G_MAXINT64, 0, -2.0, "" },
    { "quote \"x\" and \"\"", 7, -1, 1, 1e300, "42" },
    { "line1\nline2\r\nline3", 1, 0, 16, 0.1, "#not a comment" },
    { "  padded ", 2, 12, 255, -0.0, "é ünïcode ✓" },
    { "", 3, 13, 4096, 123456789.125, "-7" },
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  guint16 sample = add_type (trace, "sample", TW_EVENT_KIND_OTHER, sample_fields,
                             G_N_ELEMENTS (sample_fields));
  guint16 sched_switch = add_type (trace, "sched_switch", TW_EVENT_KIND_SWITCH,
                                   sched_switch_fields, G_N_ELEMENTS (sched_switch_fields));
  guint16 fake_switch = add_type (trace, "switch", TW_EVENT_KIND_OTHER, fake_switch_fields,
                                  G_N_ELEMENTS (fake_switch_fields));
  guint16 irq = add_type (trace, "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY, irq_fields,
                          G_N_ELEMENTS (irq_fields));
  guint16 wake = add_type (trace, "custom_wakeup", TW_EVENT_KIND_WAKEUP, NULL, 0);
  guint16 lock = add_type (trace, "mutex_take", TW_EVENT_KIND_MUTEX_LOCK, NULL, 0);
  guint16 unused = add_type (trace, "never_used", TW_EVENT_KIND_USER, NULL, 0);
  guint32 t1 = tw_trace_add_task (trace, "101", "worker", 100, 101);
  guint32 t2 = tw_trace_add_task (trace, "a,b \"c\"", "odd, name", -1, 7);
  guint32 t3 = tw_trace_add_task (trace, " sp", NULL, -1, -1);
  guint8 payload[128];

  g_assert_cmpuint (unused, !=, TW_TYPE_NONE);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      memset (payload, 0, sizeof payload);
      set_field (trace, sample, payload, "text",
                 (TwValue) { .str = tw_trace_intern_string (trace, samples[i].text) });
      set_field (trace, sample, payload, "small", (TwValue) { .u = samples[i].small });
      set_field (trace, sample, payload, "medium", (TwValue) { .u = 65535 - i });
      set_field (trace, sample, payload, "word", (TwValue) { .u = G_MAXUINT32 - i });
      set_field (trace, sample, payload, "signed", (TwValue) { .i = -1000 * (gint64) i });
      set_field (trace, sample, payload, "big", (TwValue) { .u = G_MAXUINT64 - i });
      set_field (trace, sample, payload, "wide", (TwValue) { .i = samples[i].wide });
      set_field (trace, sample, payload, "addr", (TwValue) { .u = samples[i].addr });
      set_field (trace, sample, payload, "ratio", (TwValue) { .f = samples[i].ratio });
      if (samples[i].maybe)
        set_field (trace, sample, payload, "maybe",
                   (TwValue) { .str = tw_trace_intern_string (trace, samples[i].maybe) });
      /* out of order on purpose: the store sorts, the writer writes sorted */
      tw_trace_append (trace, 1000 - i * 100, i % 3 == 2 ? TW_CPU_NONE : i % 2, sample,
                       i == 4 ? TW_TASK_NONE : (i % 2 ? t2 : t3), 0, payload);
    }

  memset (payload, 0, sizeof payload);
  set_field (trace, sched_switch, payload, "prev_comm",
             (TwValue) { .str = tw_trace_intern_string (trace, "worker") });
  set_field (trace, sched_switch, payload, "prev_state",
             (TwValue) { .str = tw_trace_intern_string (trace, "S") });
  set_field (trace, sched_switch, payload, "next_pid", (TwValue) { .i = 7 });
  tw_trace_append (trace, 2000, 1, sched_switch, t1, t2, payload);
  tw_trace_append (trace, 2100, 1, sched_switch, t2, TW_TASK_NONE, payload);

  memset (payload, 0, sizeof payload);
  set_field (trace, fake_switch, payload, "cpu", (TwValue) { .i = -4 });
  set_field (trace, fake_switch, payload, "next",
             (TwValue) { .str = tw_trace_intern_string (trace, "101") });
  set_field (trace, fake_switch, payload, "task_name",
             (TwValue) { .str = tw_trace_intern_string (trace, "not a task name") });
  tw_trace_append (trace, 2200, 0, fake_switch, t1, 0, payload);

  memset (payload, 0, sizeof payload);
  set_field (trace, irq, payload, "irq", (TwValue) { .i = 19 });
  set_field (trace, irq, payload, "name", (TwValue) { .str = tw_trace_intern_string (trace, "eth0") });
  tw_trace_append (trace, 2300, 0, irq, t1, 19, payload);

  tw_trace_append (trace, 2400, 0, wake, t1, t3, NULL);
  tw_trace_append (trace, 2500, 0, wake, TW_TASK_NONE, t2, NULL);
  tw_trace_append (trace, 2600, 1, lock, t2, 0xfeedu, NULL);

  g_assert_true (tw_trace_seal (trace, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

static void
test_round_trip_built (void)
{
  g_autoptr(TwTrace) built = build_trace ();
  g_autofree char *written = write_csv (built);
  g_autoptr(TwTrace) second = parse (written);
  g_autofree char *rewritten = write_csv (second);
  g_autoptr(TwTrace) third = parse (rewritten);
  g_autofree char *header = NULL;
  g_autofree char *third_text = NULL;
  const char *line;

  g_test_message ("%s", written);
  assert_same_events (built, second);
  assert_same_events (second, third);
  third_text = write_csv (third);
  g_assert_cmpstr (third_text, ==, rewritten);

  /* the columns: kind (sched_switch is not named after its kind, "switch" is not a
   * switch), task descriptions, reserved names as arg:NAME, canonical columns last */
  line = strstr (written, "\ntime_ns,");
  g_assert_nonnull (line);
  header = g_strndup (line + 1, strchr (line + 1, '\n') - line - 1);
  g_assert_cmpstr (header, ==,
                   "time_ns,cpu,task,event,kind,task_name,task_pid,task_tid,text,small,medium,"
                   "word,signed,big,wide,addr,ratio,maybe,prev_comm,prev_state,next_pid,next,"
                   "arg:cpu,arg:task_name,irq,name,target,mutex");
  /* the raw name survives with the kind beside it */
  g_assert_nonnull (strstr (written, "\n2000,1,101,sched_switch,switch,\"worker\",100,101,"));
  g_assert_nonnull (strstr (written, "\n2200,0,101,switch,other,"));
  g_assert_cmpuint (tw_trace_get_event_type (second, tw_trace_lookup_event_type (second, "mutex_take"))->kind,
                    ==, TW_EVENT_KIND_MUTEX_LOCK);
  g_assert_cmpuint (tw_trace_lookup_event_type (second, "never_used"), ==, TW_TYPE_NONE);
}

/* A trace of two machines (an LTTng live session of two targets): every line's CPU is a
 * host's CPU, every task a host's, and both come back from the CSV, numbered on their
 * hosts; a trace of one machine gets no host column. */
static void
test_hosts_round_trip (void)
{
  g_autoptr(TwTrace) built = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  guint16 sw = add_type (built, "switch", TW_EVENT_KIND_SWITCH, NULL, 0);
  guint16 mark = add_type (built, "mark", TW_EVENT_KIND_OTHER, NULL, 0);
  g_autofree char *third_text = NULL;
  guint16 cpus[3];
  guint32 tasks[4];
  const char *task_hosts[] = { "alpha", "alpha", "beta", "beta" };
  g_autofree char *written = NULL;
  g_autofree char *rewritten = NULL;
  g_autoptr(TwTrace) second = NULL;
  g_autoptr(TwTrace) third = NULL;

  /* numbered out of host order, as targets' first rows arrive (and in the order of
   * the lines, so that the reader gives them the same store numbers) */
  cpus[2] = tw_trace_add_host_cpu (built, "alpha", 0);
  cpus[0] = tw_trace_add_host_cpu (built, "beta", 0);
  cpus[1] = tw_trace_add_host_cpu (built, "alpha", 1);
  for (guint i = 0; i < G_N_ELEMENTS (tasks); i++)
    {
      g_autofree char *id = g_strdup_printf ("%s/%u", task_hosts[i], 100 + i % 2);

      tasks[i] = tw_trace_add_task (built, id, "worker", 100 + i % 2, 100 + i % 2);
      tw_trace_set_task_host (built, tasks[i], task_hosts[i]);
    }
  tw_trace_append (built, 10, cpus[2], sw, tasks[0], tasks[1], NULL);
  tw_trace_append (built, 20, cpus[0], sw, tasks[2], tasks[3], NULL);
  tw_trace_append (built, 30, cpus[1], mark, tasks[1], 0, NULL);
  /* no CPU: the line's host is its task's */
  tw_trace_append (built, 40, TW_CPU_NONE, mark, tasks[3], 0, NULL);
  g_assert_true (tw_trace_seal (built, NULL, &error));

  written = write_csv (built);
  g_test_message ("%s", written);
  g_assert_nonnull (strstr (written, "\ntime_ns,cpu,task,event,host,task_name,"));
  g_assert_nonnull (strstr (written, "\n10,0,alpha/100,switch,alpha,"));
  g_assert_nonnull (strstr (written, "\n20,0,beta/100,switch,beta,"));
  g_assert_nonnull (strstr (written, "\n40,,beta/101,mark,beta,"));
  second = parse (written);
  assert_same_events (built, second);
  g_assert_cmpuint (tw_trace_get_n_hosts (second), ==, 2);
  g_assert_cmpuint (tw_trace_get_n_cpus (second), ==, 3);
  for (guint64 e = 0; e < tw_trace_get_n_events (built); e++)
    {
      TwEvent a, b;
      guint16 host_cpu_a, host_cpu_b;

      tw_trace_get_event (built, e, &a);
      tw_trace_get_event (second, e, &b);
      g_assert_cmpstr (tw_trace_get_cpu_host (second, b.cpu, &host_cpu_b), ==,
                       tw_trace_get_cpu_host (built, a.cpu, &host_cpu_a));
      g_assert_cmpuint (host_cpu_b, ==, host_cpu_a);
      g_assert_cmpstr (tw_trace_get_task (second, b.task)->host, ==,
                       tw_trace_get_task (built, a.task)->host);
    }
  for (guint32 t = 0; t < tw_trace_get_n_tasks (second); t++)
    g_assert_nonnull (tw_trace_get_task (second, t)->host);
  rewritten = write_csv (second);
  third = parse (rewritten);
  third_text = write_csv (third);
  g_assert_cmpstr (third_text, ==, rewritten);
}

/* A file may mix lines of no host with hosts' lines: plain CPUs keep their numbers and
 * the hosts' CPUs come after them; a file without the column has no hosts. */
static void
test_hosts_mixed (void)
{
  g_autoptr(TwTrace) mixed = parse (
    "time_ns,cpu,host,task,event\n"
    "10,0,a,a/1,mark\n"
    "20,3,,k,mark\n"
    "30,0,b,b/1,mark\n"
    "40,0,a,a/2,mark\n");
  g_autoptr(TwTrace) plain = parse ("time_ns,cpu,task,event,note\n10,2,1,mark,x\n");
  TwEvent ev;
  guint16 host_cpu;

  g_assert_cmpuint (tw_trace_get_n_hosts (mixed), ==, 2);
  g_assert_cmpuint (tw_trace_get_n_cpus (mixed), ==, 6);
  tw_trace_get_event (mixed, 0, &ev);
  g_assert_cmpuint (ev.cpu, ==, 4);
  g_assert_cmpstr (tw_trace_get_cpu_host (mixed, ev.cpu, &host_cpu), ==, "a");
  g_assert_cmpuint (host_cpu, ==, 0);
  g_assert_cmpstr (tw_trace_get_task (mixed, ev.task)->host, ==, "a");
  tw_trace_get_event (mixed, 1, &ev);
  g_assert_cmpuint (ev.cpu, ==, 3);
  g_assert_null (tw_trace_get_cpu_host (mixed, ev.cpu, NULL));
  g_assert_null (tw_trace_get_task (mixed, ev.task)->host);
  tw_trace_get_event (mixed, 2, &ev);
  g_assert_cmpuint (ev.cpu, ==, 5);
  g_assert_cmpstr (tw_trace_get_cpu_host (mixed, ev.cpu, NULL), ==, "b");
  tw_trace_get_event (mixed, 3, &ev);
  g_assert_cmpuint (ev.cpu, ==, 4);

  g_assert_cmpuint (tw_trace_get_n_hosts (plain), ==, 0);
  g_assert_cmpuint (tw_trace_get_n_cpus (plain), ==, 3);
}

static void
test_cancel (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (tw_csv_writer_write (trace, stream, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static TwStateModel *
build_model (TwTrace *trace)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&model);
}

/* Whether the task running on @cpu at @time is an idle task, by source id and flag. */
static const char *
describe_running (TwStateModel *model,
                  guint         cpu,
                  guint64       time,
                  gboolean     *idle)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  guint32 task = tw_state_model_get_running_task (model, cpu, time);
  const TwTask *t = tw_trace_get_task (trace, task);

  *idle = t != NULL && (t->flags & TW_TASK_FLAG_IDLE);
  return t ? t->source_id : "(none)";
}

/* A kernel trace's idle tasks (swapper/N, pid 0, flagged idle by the kernel readers) stay
 * idle through CSV: the writer says so in `task_idle`, the reader flags them again, so
 * the state model gives them no running states and the CPU rows show them as idle at
 * the same times as before. */
static void
test_idle_stays_idle (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("ftrace/tracefs-sched-irq.txt");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) kernel = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *written = NULL;
  g_autoptr(TwTrace) reread = NULL;
  g_autoptr(TwStateModel) before = NULL;
  g_autoptr(TwStateModel) after = NULL;
  guint n_idle = 0, n_idle_runs = 0;

  g_assert_no_error (error);
  written = write_csv (kernel);
  reread = parse (written);
  g_assert_cmpuint (tw_trace_get_n_events (reread), ==, tw_trace_get_n_events (kernel));
  g_assert_cmpuint (tw_trace_get_n_tasks (reread), ==, tw_trace_get_n_tasks (kernel));

  before = build_model (kernel);
  after = build_model (reread);
  for (guint32 k = 0; k < tw_trace_get_n_tasks (kernel); k++)
    {
      const TwTask *task = tw_trace_get_task (kernel, k);
      guint32 again = tw_trace_lookup_task (reread, task->source_id);
      gsize n_states;

      if (!(task->flags & TW_TASK_FLAG_IDLE))
        continue;
      n_idle++;
      g_assert_true (tw_trace_get_task (reread, again)->flags & TW_TASK_FLAG_IDLE);
      tw_state_model_get_task_states (after, again, &n_states);
      g_assert_cmpuint (n_states, ==, 0);
    }
  g_assert_cmpuint (n_idle, ==, 2);

  /* every run on every CPU: the same task, idle exactly when it was */
  for (guint cpu = 0; cpu < tw_state_model_get_n_cpus (before); cpu++)
    {
      gsize n_runs;
      const TwRunInterval *runs = tw_state_model_get_cpu_runs (before, cpu, &n_runs);

      for (gsize r = 0; r < n_runs; r++)
        {
          guint64 mid = runs[r].start + (runs[r].end - runs[r].start) / 2;
          gboolean idle_before, idle_after;

          g_assert_cmpstr (describe_running (before, cpu, mid, &idle_before), ==,
                           describe_running (after, cpu, mid, &idle_after));
          g_assert_cmpint (idle_before, ==, idle_after);
          n_idle_runs += idle_after;
        }
    }
  g_assert_cmpuint (n_idle_runs, >, 0);
  g_assert_nonnull (strstr (written, "swapper/0\",0,0,1,"));
}

/* A growing trace (a live session's store, appended by another thread) is written as a
 * snapshot: exactly the first N events, with the progress reaching 1. */
typedef struct {
  TwTrace *trace;
  guint16  type;
  guint32  task;
  gint     stop;
} Appender;

static gpointer
append_thread (gpointer data)
{
  Appender *a = data;

  /* bounded: a slow (sanitized) writer must not let the store grow without end */
  for (guint64 t = 1000000; !g_atomic_int_get (&a->stop) && t < 1000000 + 2 * TW_CHUNK_SIZE; t++)
    tw_trace_append (a->trace, t, 0, a->type, a->task, 0, NULL);
  return NULL;
}

static void
record_progress (double   fraction,
                 gpointer data)
{
  double *last = data;

  g_assert_cmpfloat (fraction, >=, *last);
  *last = fraction;
}

static void
test_growing_snapshot (void)
{
  g_autoptr(TwTrace) live = tw_trace_new ();
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) reread = NULL;
  g_autofree char *text = NULL;
  Appender a = { live, 0, 0, 0 };
  GThread *thread;
  double last = 0;
  guint64 n;

  tw_trace_set_stable_payloads (live);
  a.type = tw_trace_add_event_type (live, "tick", NULL, TW_EVENT_KIND_OTHER, NULL, 0, &error);
  a.task = tw_trace_add_task (live, "0/0", "swapper/0", 0, 0);
  tw_trace_set_task_flags (live, a.task, TW_TASK_FLAG_IDLE);
  thread = g_thread_new ("appender", append_thread, &a);
  /* past the first chunk, so that the snapshot ends inside one the appender is filling */
  while (tw_trace_get_n_events (live) < TW_CHUNK_SIZE + 4096)
    g_usleep (1000);

  n = tw_trace_get_n_events (live) - 10;
  g_assert_true (tw_csv_writer_write_events (live, n, stream, record_progress, &last, NULL,
                                             &error));
  g_assert_no_error (error);
  g_atomic_int_set (&a.stop, 1);
  g_thread_join (thread);
  g_assert_cmpfloat (last, ==, 1.0);

  g_assert_true (g_output_stream_write_all (stream, "", 1, NULL, NULL, &error));
  g_output_stream_close (stream, NULL, NULL);
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
  reread = parse (text);
  g_assert_cmpuint (tw_trace_get_n_events (reread), ==, n);
  g_assert_cmpuint (tw_trace_get_last_time (reread), ==, 1000000 + n - 1);
  g_assert_cmpuint (tw_trace_get_task (reread, 0)->flags, ==, TW_TASK_FLAG_IDLE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/csv-writer/round-trip-fixtures", test_round_trip_fixtures);
  g_test_add_func ("/tw/ingest/csv-writer/exact-text", test_exact_text);
  g_test_add_func ("/tw/ingest/csv-writer/round-trip-built", test_round_trip_built);
  g_test_add_func ("/tw/ingest/csv-writer/hosts-round-trip", test_hosts_round_trip);
  g_test_add_func ("/tw/ingest/csv-writer/hosts-mixed", test_hosts_mixed);
  g_test_add_func ("/tw/ingest/csv-writer/cancel", test_cancel);
  g_test_add_func ("/tw/ingest/csv-writer/idle-stays-idle", test_idle_stays_idle);
  g_test_add_func ("/tw/ingest/csv-writer/growing-snapshot", test_growing_snapshot);

  return g_test_run ();
}
