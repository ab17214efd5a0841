/* test-csv-reader.c: the CSV events reader, rule by rule (docs/csv-format.md)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-test-utils.h>

#include <string.h>

static TwTrace *
load_text (const char  *text,
           gssize       len,
           char       **path_out,
           GError     **error)
{
  g_autofree char *path = tw_test_write_temp_file ("events.csv", text, len);
  TwTrace *trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, error);

  if (path_out)
    *path_out = g_steal_pointer (&path);
  return trace;
}

static TwTrace *
load_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  TwTrace *trace = load_text (text, -1, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* Loads @text, expects a TW_READER_ERROR @code whose message is "PATH: line LINE: …"
 * and contains every one of the NULL-terminated fragments. */
static void
assert_load_fails (const char *text,
                   gssize      len,
                   int         code,
                   guint       line,
                   ...)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_autoptr(TwTrace) trace = load_text (text, len, &path, &error);
  const char *fragment;
  va_list args;

  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, code);
  prefix = g_strdup_printf ("%s: line %u: ", path, line);
  if (!g_str_has_prefix (error->message, prefix))
    g_error ("message “%s” does not start with “%s”", error->message, prefix);

  va_start (args, line);
  while ((fragment = va_arg (args, const char *)))
    if (strstr (error->message, fragment) == NULL)
      g_error ("message “%s” lacks “%s”", error->message, fragment);
  va_end (args);
}

static void
assert_event (TwTrace    *trace,
              guint64     index,
              guint64     time,
              guint16     cpu,
              const char *task,
              const char *type_name,
              TwEventKind kind)
{
  TwEvent ev;
  const TwEventType *type;

  g_assert_true (tw_trace_get_event (trace, index, &ev));
  type = tw_trace_get_event_type (trace, ev.type);
  g_assert_cmpuint (ev.time, ==, time);
  g_assert_cmpuint (ev.cpu, ==, cpu);
  g_assert_cmpstr (tw_test_get_task_source_id (trace, ev.task), ==, task);
  g_assert_cmpstr (type->name, ==, type_name);
  g_assert_cmpstr (tw_event_kind_to_string (type->kind), ==, tw_event_kind_to_string (kind));
}

static guint32
event_arg (TwTrace *trace,
           guint64  index)
{
  TwEvent ev;

  g_assert_true (tw_trace_get_event (trace, index, &ev));
  return ev.arg;
}

static void
assert_field (TwTrace    *trace,
              guint64     index,
              const char *name,
              const char *expected)
{
  g_autofree char *value = tw_test_dup_event_field (trace, index, name);

  g_assert_cmpstr (value, ==, expected);
}

static const TwFieldSpec *
field_spec (TwTrace    *trace,
            const char *type_name,
            const char *field_name)
{
  const TwEventType *type = tw_trace_get_event_type (trace,
                                                     tw_trace_lookup_event_type (trace, type_name));
  int field;

  g_assert_nonnull (type);
  field = tw_event_type_lookup_field (type, field_name);
  g_assert_cmpint (field, >=, 0);
  return &type->fields[field];
}

static void
test_every_kind (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/kinds.csv");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_autofree char *format = NULL;
  const TwTask *task;
  const TwEventType *type;
  const TwFieldSpec *spec;

  g_assert_no_error (error);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "csv");
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 15);
  g_assert_cmpuint (tw_trace_get_n_event_types (trace), ==, 14);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 2);
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), ==, 4);

  /* tasks, in order of first mention; names from task_name, ids from task_pid/task_tid */
  g_assert_cmpstr (tw_test_get_task_source_id (trace, 0), ==, "10");
  g_assert_cmpstr (tw_test_get_task_source_id (trace, 1), ==, "11");
  g_assert_cmpstr (tw_test_get_task_source_id (trace, 2), ==, "12");
  g_assert_cmpstr (tw_test_get_task_source_id (trace, 3), ==, "13");
  task = tw_trace_get_task (trace, 1);
  g_assert_cmpstr (task->name, ==, "worker");
  g_assert_cmpint (task->pid, ==, 42);
  g_assert_cmpint (task->tid, ==, 43);
  task = tw_trace_get_task (trace, 0);
  g_assert_cmpstr (task->name, ==, "idle-0");
  g_assert_cmpint (task->pid, ==, -1);
  g_assert_cmpint (task->tid, ==, -1);
  g_assert_cmpstr (tw_trace_get_task (trace, 2)->name, ==, "logger");
  g_assert_null (tw_trace_get_task (trace, 3)->name);

  assert_event (trace, 0, 1000, 0, "10", "switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 0), ==, 1);
  assert_field (trace, 0, "next", "worker-43");
  assert_field (trace, 0, "prev_state", "R");
  assert_field (trace, 0, "note", NULL);

  assert_event (trace, 1, 1100, 0, "11", "irq_entry", TW_EVENT_KIND_IRQ_ENTRY);
  g_assert_cmpuint (event_arg (trace, 1), ==, 7);
  assert_field (trace, 1, "irq", "7");
  assert_event (trace, 2, 1200, 0, "11", "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  g_assert_cmpuint (event_arg (trace, 2), ==, 7);

  assert_event (trace, 3, 1300, 0, "11", "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY);
  g_assert_cmpuint (event_arg (trace, 3), ==, 3);
  assert_field (trace, 3, "vec", "3");
  assert_event (trace, 4, 1400, 0, "11", "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT);
  g_assert_cmpuint (event_arg (trace, 4), ==, 3);

  assert_event (trace, 5, 1500, 1, "11", "wakeup", TW_EVENT_KIND_WAKEUP);
  g_assert_cmpuint (event_arg (trace, 5), ==, 2);
  assert_field (trace, 5, "target", "logger");

  assert_event (trace, 6, 1600, 1, "11", "task_create", TW_EVENT_KIND_TASK_CREATE);
  g_assert_cmpuint (event_arg (trace, 6), ==, 3);
  assert_field (trace, 6, "target", "13");
  assert_event (trace, 7, 1700, 1, "13", "task_exit", TW_EVENT_KIND_TASK_EXIT);
  g_assert_cmpuint (event_arg (trace, 7), ==, 3);

  assert_event (trace, 8, 1800, 0, "11", "user", TW_EVENT_KIND_USER);
  g_assert_cmpuint (event_arg (trace, 8), ==, 5);
  assert_field (trace, 8, "id", "5");

  assert_event (trace, 9, 1900, 0, "11", "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  g_assert_cmpuint (event_arg (trace, 9), ==, 0x1234);
  assert_field (trace, 9, "mutex", "0x1234");
  assert_event (trace, 10, 2000, 0, "11", "mutex_wait", TW_EVENT_KIND_MUTEX_WAIT);
  g_assert_cmpuint (event_arg (trace, 10), ==, 4660);
  assert_field (trace, 10, "mutex", "4660");
  assert_event (trace, 11, 2100, 0, "11", "mutex_unlock", TW_EVENT_KIND_MUTEX_UNLOCK);
  g_assert_cmpuint (event_arg (trace, 11), ==, 0x1234);

  assert_event (trace, 12, 2200, TW_CPU_NONE, "12", "sensor", TW_EVENT_KIND_SENSOR);
  g_assert_cmpuint (event_arg (trace, 12), ==, 2);

  assert_event (trace, 13, 2300, 1, NULL, "marker", TW_EVENT_KIND_OTHER);
  g_assert_cmpuint (event_arg (trace, 13), ==, 0);
  assert_field (trace, 13, "note", "phase 1, warm-up");

  assert_event (trace, 14, 2400, 0, "11", "switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 14), ==, 0);
  assert_field (trace, 14, "next", "idle-0");
  assert_field (trace, 14, "prev_state", "S");

  /* schemas: only the columns a type uses, task columns as task indexes */
  type = tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "switch"));
  g_assert_cmpuint (type->n_fields, ==, 2);
  spec = field_spec (trace, "switch", "next");
  g_assert_cmpint (spec->type, ==, TW_FIELD_U32);
  g_assert_cmpint (spec->flags, ==, TW_FIELD_FLAG_TASK | TW_FIELD_FLAG_OPTIONAL);
  spec = field_spec (trace, "switch", "prev_state");
  g_assert_cmpint (spec->type, ==, TW_FIELD_STRING);
  g_assert_cmpint (spec->flags, ==, TW_FIELD_FLAG_OPTIONAL);
  spec = field_spec (trace, "mutex_lock", "mutex");
  g_assert_cmpint (spec->type, ==, TW_FIELD_U64);
  g_assert_cmpint (spec->flags, ==, TW_FIELD_FLAG_HEX | TW_FIELD_FLAG_OPTIONAL);
  spec = field_spec (trace, "mutex_wait", "mutex");
  g_assert_cmpint (spec->type, ==, TW_FIELD_I64);
  spec = field_spec (trace, "marker", "note");
  g_assert_cmpint (spec->type, ==, TW_FIELD_STRING);
  type = tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "marker"));
  g_assert_cmpuint (type->n_fields, ==, 1);
}

static void
test_field_types (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,a,b,c,d,e,f,big,neg\n"
    "1,0,1,x,5,0x1f,1.5,-3,\"42\",,18446744073709551615,9223372036854775807\n"
    "2,0,1,x,-7,0xff,2,abc,\"\",,1,-9223372036854775808\n"
    "3,0,1,y,abc,,,,,,,\n"
    "4,0,1,x,,,,,,,,\n");
  const TwEventType *x = tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "x"));
  const TwEventType *y = tw_trace_get_event_type (trace, tw_trace_lookup_event_type (trace, "y"));

  /* f is empty everywhere: no type has it */
  g_assert_cmpuint (x->n_fields, ==, 7);
  g_assert_cmpint (tw_event_type_lookup_field (x, "f"), ==, -1);
  g_assert_cmpuint (y->n_fields, ==, 1);

  g_assert_cmpint (field_spec (trace, "x", "a")->type, ==, TW_FIELD_I64);
  g_assert_cmpint (field_spec (trace, "x", "b")->type, ==, TW_FIELD_U64);
  g_assert_cmpint (field_spec (trace, "x", "b")->flags, ==, TW_FIELD_FLAG_HEX | TW_FIELD_FLAG_OPTIONAL);
  g_assert_cmpint (field_spec (trace, "x", "c")->type, ==, TW_FIELD_F64);
  g_assert_cmpint (field_spec (trace, "x", "d")->type, ==, TW_FIELD_STRING);
  g_assert_cmpint (field_spec (trace, "x", "e")->type, ==, TW_FIELD_STRING);
  g_assert_cmpint (field_spec (trace, "x", "big")->type, ==, TW_FIELD_U64);
  g_assert_cmpint (field_spec (trace, "x", "neg")->type, ==, TW_FIELD_I64);
  /* the same column is a string for y, which only has text in it */
  g_assert_cmpint (field_spec (trace, "y", "a")->type, ==, TW_FIELD_STRING);

  assert_field (trace, 0, "a", "5");
  assert_field (trace, 0, "b", "0x1f");
  assert_field (trace, 0, "c", "1.5");
  assert_field (trace, 0, "d", "-3");
  assert_field (trace, 0, "e", "42");
  assert_field (trace, 0, "big", "18446744073709551615");
  assert_field (trace, 0, "neg", "9223372036854775807");
  assert_field (trace, 1, "a", "-7");
  assert_field (trace, 1, "b", "0xff");
  assert_field (trace, 1, "c", "2");
  assert_field (trace, 1, "d", "abc");
  /* "" is an empty text, present; an unquoted empty cell is absent */
  assert_field (trace, 1, "e", "");
  assert_field (trace, 1, "neg", "-9223372036854775808");
  assert_field (trace, 2, "a", "abc");
  for (guint i = 0; i < x->n_fields; i++)
    assert_field (trace, 3, x->fields[i].name, NULL);
}

static void
test_quoting (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,msg\n"
    "1,0,\"task, one\",ev,\"a \"\"quoted\"\" word\"\n"
    "2,0,t2,ev,\"two\n"
    "lines, two\"\n"
    "3,0,t2,ev,  \"  padded  \"  \n"
    "4,0, spaced ,ev, x y \t\n"
    "5,0,t2,ev\n");

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 5);
  assert_event (trace, 0, 1, 0, "task, one", "ev", TW_EVENT_KIND_OTHER);
  assert_field (trace, 0, "msg", "a \"quoted\" word");
  assert_field (trace, 1, "msg", "two\nlines, two");
  assert_field (trace, 2, "msg", "  padded  ");
  assert_event (trace, 3, 4, 0, "spaced", "ev", TW_EVENT_KIND_OTHER);
  assert_field (trace, 3, "msg", "x y");
  /* a short line: the missing trailing cells are empty */
  assert_event (trace, 4, 5, 0, "t2", "ev", TW_EVENT_KIND_OTHER);
  assert_field (trace, 4, "msg", NULL);

  /* line numbers count the physical lines inside quoted cells */
  assert_load_fails ("time_ns,cpu,task,event,msg\n"
                     "1,0,a,ev,\"x\ny\nz\"\n"
                     "bad,0,a,ev,\n",
                     -1, TW_READER_ERROR_INVALID, 5, "column “time_ns”", "“bad”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,msg\n"
                     "1,0,a,ev,x\n"
                     "2,0,a,ev,\"never closed\n"
                     "3,0,a,ev,x\n",
                     -1, TW_READER_ERROR_TRUNCATED, 3, "not closed", NULL);
  assert_load_fails ("time_ns,cpu,task,event,msg\n"
                     "1,0,a,ev,\"ab\"c\n",
                     -1, TW_READER_ERROR_INVALID, 2, "after the closing quote", NULL);
}

static void
test_crlf_and_bom (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "\xEF\xBB\xBFtime_ns,cpu,task,event,msg\r\n"
    "1,0,a,ev,hi\r\n"
    "2,1,b,ev,\"q\"\r\n"
    "# comment\r\n"
    "\r\n"
    "3,0,a,ev2,\r\n");

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 3);
  assert_event (trace, 0, 1, 0, "a", "ev", TW_EVENT_KIND_OTHER);
  assert_field (trace, 0, "msg", "hi");
  assert_event (trace, 1, 2, 1, "b", "ev", TW_EVENT_KIND_OTHER);
  assert_field (trace, 1, "msg", "q");
  assert_event (trace, 2, 3, 0, "a", "ev2", TW_EVENT_KIND_OTHER);
  g_assert_cmpuint (tw_trace_get_event_type (trace, 1)->n_fields, ==, 0);
}

static void
test_comments_and_blank_lines (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "# exported by hand\n"
    "\n"
    "   # indented comment\n"
    "time_ns,cpu,task,event\n"
    "10,0,a,start\n"
    "  \t \n"
    "# between rows, with, commas\n"
    "20,0,a,stop\n"
    "\n");

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 2);
  assert_event (trace, 0, 10, 0, "a", "start", TW_EVENT_KIND_OTHER);
  assert_event (trace, 1, 20, 0, "a", "stop", TW_EVENT_KIND_OTHER);

  /* errors name the physical line, comments and blank lines included */
  assert_load_fails ("# one\n\ntime_ns,cpu,task,event\n# four\n10,0,a,x\n\n20,zero,a,x\n",
                     -1, TW_READER_ERROR_INVALID, 7, "column “cpu”", "“zero”", NULL);
  /* a header alone is a valid, empty trace */
  {
    g_autoptr(TwTrace) empty = load_ok ("time_ns,cpu,task,event\n");
    g_assert_cmpuint (tw_trace_get_n_events (empty), ==, 0);
  }
}

static void
test_empty_cells (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,next,target\n"
    "10,,,tick,,\n"
    "20,0,a,switch,,\n"
    "30,0,,wakeup,,\n"
    "40,0,a,task_exit,,\n");

  assert_event (trace, 0, 10, TW_CPU_NONE, NULL, "tick", TW_EVENT_KIND_OTHER);
  /* a switch to nobody and a wakeup of nobody say so with TW_TASK_NONE */
  assert_event (trace, 1, 20, 0, "a", "switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 1), ==, TW_TASK_NONE);
  assert_event (trace, 2, 30, 0, NULL, "wakeup", TW_EVENT_KIND_WAKEUP);
  g_assert_cmpuint (event_arg (trace, 2), ==, TW_TASK_NONE);
  /* without a target, a task_exit is the exit of its own task */
  g_assert_cmpuint (event_arg (trace, 3), ==, tw_trace_lookup_task (trace, "a"));
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 1);
}

static void
test_tasks (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,prev,next,task_name,task_pid,task_tid,pid\n"
    "1,0,a,switch,b,c,bee,7,,99\n"
    "2,0,c,user,,,sea,,8,\n"
    "3,0,c,user,,,sea2,,,\n"
    "4,0,b,tick,,,,,,\n");
  guint32 a = tw_trace_lookup_task (trace, "a");
  guint32 b = tw_trace_lookup_task (trace, "b");
  guint32 c = tw_trace_lookup_task (trace, "c");

  /* prev names the task switched out: it replaces the task column, which never becomes
   * a task of its own */
  g_assert_cmpuint (a, ==, TW_TASK_NONE);
  assert_event (trace, 0, 1, 0, "b", "switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 0), ==, c);
  assert_field (trace, 0, "prev", "bee");
  /* pid is an ordinary argument; task_pid/task_tid describe the task */
  assert_field (trace, 0, "pid", "99");
  g_assert_cmpint (tw_trace_get_task (trace, b)->pid, ==, 7);
  g_assert_cmpint (tw_trace_get_task (trace, b)->tid, ==, -1);
  g_assert_cmpint (tw_trace_get_task (trace, c)->tid, ==, 8);
  /* the last name given wins */
  g_assert_cmpstr (tw_trace_get_task (trace, c)->name, ==, "sea2");
  g_assert_cmpstr (tw_trace_get_task (trace, b)->name, ==, "bee");
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), ==, 2);
}

/* task_idle marks a CPU's idle task: the state model then gives it no running states
 * and the CPU rows show it as idle; the last cell given wins. */
static void
test_task_idle (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,next,prev_state,task_name,task_pid,task_idle\n"
    "1,0,0/0,switch,w,R,swapper/0,0,1\n"
    "2,1,w2,user,,,,,\n"
    "3,1,w2,user,,,,,0\n"
    "4,0,w,switch,0/0,S,worker,,\n"
    "5,1,was-idle,user,,,,,1\n"
    "6,1,was-idle,user,,,,,0\n");
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(GError) error = NULL;
  guint32 idle = tw_trace_lookup_task (trace, "0/0");
  gsize n_states;

  g_assert_cmpuint (tw_trace_get_task (trace, idle)->flags, ==, TW_TASK_FLAG_IDLE);
  g_assert_cmpuint (tw_trace_get_task (trace, tw_trace_lookup_task (trace, "w"))->flags, ==, 0);
  g_assert_cmpuint (tw_trace_get_task (trace, tw_trace_lookup_task (trace, "w2"))->flags, ==, 0);
  g_assert_cmpuint (tw_trace_get_task (trace, tw_trace_lookup_task (trace, "was-idle"))->flags,
                    ==, 0);

  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  tw_state_model_get_task_states (model, idle, &n_states);
  g_assert_cmpuint (n_states, ==, 0);
  g_assert_cmpuint (tw_state_model_get_running_task (model, 0, 4), ==, idle);

  assert_load_fails ("time_ns,cpu,task,event,task_idle\n1,0,a,x,yes\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “task_idle”", "“yes”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,task_idle\n1,0,a,x,2\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “task_idle”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,task_idle\n1,0,a,x,\"1\"\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “task_idle”", NULL);
}

static void
test_kind_column (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,kind,next,irq\n"
    "1,0,a,sched_switch,switch,b,\n"
    "2,0,b,sched_switch,,a,\n"
    "3,0,a,switch,other,b,\n"
    "4,0,a,hardirq,irq_entry,,0x1f\n");

  assert_event (trace, 0, 1, 0, "a", "sched_switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 0), ==, tw_trace_lookup_task (trace, "b"));
  assert_event (trace, 1, 2, 0, "b", "sched_switch", TW_EVENT_KIND_SWITCH);
  g_assert_cmpuint (event_arg (trace, 1), ==, tw_trace_lookup_task (trace, "a"));
  /* a raw event that happens to be called "switch" but is not one */
  assert_event (trace, 2, 3, 0, "a", "switch", TW_EVENT_KIND_OTHER);
  g_assert_cmpuint (event_arg (trace, 2), ==, 0);
  g_assert_cmpint (field_spec (trace, "switch", "next")->type, ==, TW_FIELD_STRING);
  assert_event (trace, 3, 4, 0, "a", "hardirq", TW_EVENT_KIND_IRQ_ENTRY);
  g_assert_cmpuint (event_arg (trace, 3), ==, 31);

  assert_load_fails ("time_ns,cpu,task,event,kind\n1,0,a,x,user\n2,0,a,x,\n3,0,a,x,sensor\n",
                     -1, TW_READER_ERROR_INVALID, 4, "“x” is sensor here but user on line 2",
                     NULL);
  assert_load_fails ("time_ns,cpu,task,event,kind\n1,0,a,x,sleep\n",
                     -1, TW_READER_ERROR_INVALID, 2, "“sleep” is not a kind", NULL);
}

static void
test_arg_prefix (void)
{
  g_autoptr(TwTrace) trace = load_ok ("time_ns,cpu,task,event,arg:cpu,arg:kind\n1,3,a,e,7,x\n");

  assert_event (trace, 0, 1, 3, "a", "e", TW_EVENT_KIND_OTHER);
  assert_field (trace, 0, "cpu", "7");
  assert_field (trace, 0, "kind", "x");
  assert_load_fails ("time_ns,cpu,task,event,irq,arg:irq\n", -1, TW_READER_ERROR_INVALID, 1,
                     "“arg:irq” appears twice", NULL);
}

/* Two files into one trace: a type of the same name must have the same arguments. */
static void
test_existing_type (void)
{
  g_autoptr(TwReader) reader = tw_reader_registry_find ("csv");
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *first = tw_test_write_temp_file ("first.csv", "time_ns,cpu,task,event,n\n1,0,a,e,5\n", -1);
  g_autofree char *same = tw_test_write_temp_file ("same.csv", "time_ns,cpu,task,event,n\n2,0,a,e,6\n", -1);
  g_autofree char *other = tw_test_write_temp_file ("other.csv", "time_ns,cpu,task,event,n\n3,0,a,e,x\n", -1);
  g_autofree char *expected = NULL;

  g_assert_true (tw_reader_read (reader, first, trace, NULL, NULL, NULL, &error));
  g_assert_true (tw_reader_read (reader, same, trace, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 2);
  g_assert_cmpuint (tw_trace_get_n_event_types (trace), ==, 1);

  g_assert_false (tw_reader_read (reader, other, trace, NULL, NULL, NULL, &error));
  expected = g_strdup_printf ("%s: event type “e” already exists with other arguments", other);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 2);
}

static void
test_header_errors (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/missing-column.csv");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  g_autofree char *expected = g_strdup_printf ("%s: line 1: no “cpu” column (the header must "
                                               "name time_ns, cpu, task and event)", path);

  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);

  assert_load_fails ("# comment\ntime_ns,cpu,task,event,cpu\n", -1, TW_READER_ERROR_INVALID, 2,
                     "“cpu” appears twice", NULL);
  assert_load_fails ("time_ns,cpu,,task,event\n", -1, TW_READER_ERROR_INVALID, 1,
                     "column 3 has no name", NULL);
  assert_load_fails ("# only a comment\n", -1, TW_READER_ERROR_INVALID, 2, "no header line", NULL);
  assert_load_fails ("", 0, TW_READER_ERROR_INVALID, 1, "no header line", NULL);
}

static void
test_bad_numbers (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/bad-number.csv");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  g_autofree char *expected = g_strdup_printf ("%s: line 3: column “cpu”: “x1” is not a CPU "
                                               "number (0 to 65534)", path);

  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);

  assert_load_fails ("time_ns,cpu,task,event\n-5,0,a,x\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “time_ns”", "“-5”", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n1.5,0,a,x\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “time_ns”", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n18446744073709551616,0,a,x\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “time_ns”", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n,0,a,x\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “time_ns”", "required", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n1,65535,a,x\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “cpu”", "“65535”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,irq\n1,0,a,irq_entry,abc\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “irq”", "“abc”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,irq\n1,0,a,irq_entry,4294967296\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “irq”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,mutex\n1,0,a,mutex_lock,-1\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “mutex”", NULL);
  assert_load_fails ("time_ns,cpu,task,event,task_pid\n1,0,a,x,p1\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “task_pid”", NULL);

  /* the largest values that fit */
  {
    g_autoptr(TwTrace) ok = load_ok ("time_ns,cpu,task,event,irq\n"
                                     "18446744073709551614,65534,a,irq_entry,4294967295\n");
    assert_event (ok, 0, G_GUINT64_CONSTANT (18446744073709551614), 65534, "a", "irq_entry",
                  TW_EVENT_KIND_IRQ_ENTRY);
    g_assert_cmpuint (event_arg (ok, 0), ==, G_MAXUINT32);
  }
}

static void
test_structure_errors (void)
{
  assert_load_fails ("time_ns,cpu,task,event\n1,0,a,x,extra\n", -1, TW_READER_ERROR_INVALID, 2,
                     "5 cells but the header names 4 columns", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n1,0,a,\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “event” is empty", NULL);
  assert_load_fails ("time_ns,cpu,task,event\n1,0,a\n", -1, TW_READER_ERROR_INVALID, 2,
                     "column “event” is empty", NULL);
  static const char nul[] = "time_ns,cpu,task,event\n1,0,a,x\0y\n";

  assert_load_fails (nul, sizeof nul - 1, TW_READER_ERROR_INVALID, 2, "NUL byte", NULL);
  assert_load_fails ("time_ns,cpu,task,event,m\n1,0,a,x,\xff\xfe\n", -1,
                     TW_READER_ERROR_INVALID, 2, "column “m”: not valid UTF-8", NULL);
}

static void
test_probe (void)
{
  g_autoptr(TwReader) reader = tw_reader_registry_find ("csv");
  static const char csv[] = "\xEF\xBB\xBF# comment\n\nevent,task,cpu,time_ns,irq\n1,2,3";
  static const char ftrace[] =
    "# tracer: nop\n#\n"
    "          <idle>-0     [000] d..2.  1234.567890: sched_switch: prev_comm=swapper/0\n";
  static const char partial[] = "time_ns,cpu,task,name\n1,0,a,x\n";
  static const guint8 binary[] = { 0x10, 0x00, 0x00, 0x00, 0xff, 0x01, 0x02, 0x03 };
  g_autofree char *path = tw_test_write_temp_file ("probe.csv", csv, sizeof csv - 1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) probed = NULL;

  g_assert_nonnull (reader);
  g_assert_cmpstr (tw_reader_get_name (reader), ==, "csv");
  g_assert_cmpuint (tw_reader_probe (reader, "x.csv", (const guint8 *) csv, sizeof csv - 1), ==, 90);
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) ftrace, sizeof ftrace - 1), ==, 0);
  g_assert_cmpuint (tw_reader_probe (reader, "x.csv", (const guint8 *) partial, sizeof partial - 1), ==, 0);
  g_assert_cmpuint (tw_reader_probe (reader, "x", binary, sizeof binary), ==, 0);
  g_assert_cmpuint (tw_reader_probe (reader, "x", NULL, 0), ==, 0);
  /* a head cut inside the header line is not enough */
  g_assert_cmpuint (tw_reader_probe (reader, "x", (const guint8 *) "time_ns,cpu,ta", 14), ==, 0);

  probed = tw_reader_registry_probe_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_reader_get_name (probed), ==, "csv");
}

static void
test_wrong_format (void)
{
  static const char ftrace[] =
    "# tracer: nop\n#\n"
    "          <idle>-0     [000] d..2.  1234.567890: sched_switch: prev_comm=swapper/0\n";
  static const guint8 binary[] = { 0x10, 0x00, 0x00, 0x00, 0xff, 0x01, 0x02, 0x03, '\n' };

  assert_load_fails (ftrace, -1, TW_READER_ERROR_INVALID, 3, "no “time_ns” column", NULL);
  assert_load_fails ((const char *) binary, sizeof binary, TW_READER_ERROR_INVALID, 1,
                     "NUL byte", NULL);
}

/* A real CSV that is not CSV events: the S.Ha.R.K. decoder's table. */
static void
test_other_csv (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("shark/shark-newtracer-test.decoded.csv");
  g_autoptr(TwReader) reader = tw_reader_registry_find ("csv");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *head = NULL;
  g_autofree char *expected = NULL;
  gsize len;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/shark/shark-newtracer-test.decoded.csv is not there");
      return;
    }

  g_file_get_contents (path, &head, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_reader_probe (reader, path, (const guint8 *) head, MIN (len, 65536)), ==, 0);

  trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  expected = g_strdup_printf ("%s: line 1: no “time_ns” column (the header must name time_ns, "
                              "cpu, task and event)", path);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_missing_file (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) reader = tw_reader_registry_find ("csv");
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "no-such.csv", NULL);

  g_assert_false (tw_reader_read (reader, path, trace, NULL, NULL, NULL, &error));
  g_assert_error (error, G_FILE_ERROR, G_FILE_ERROR_NOENT);
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_out_of_order (void)
{
  g_autoptr(TwTrace) trace = load_ok ("time_ns,cpu,task,event,n\n"
                                      "30,0,a,e,1\n"
                                      "10,0,a,e,2\n"
                                      "30,1,a,e,3\n"
                                      "20,0,a,e,4\n"
                                      "10,1,a,e,5\n");
  static const guint64 times[] = { 10, 10, 20, 30, 30 };
  static const char * const order[] = { "2", "5", "4", "1", "3" };
  static const guint16 cpus[] = { 0, 1, 0, 0, 1 };

  /* sorted by time; equal times keep their file order */
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      assert_event (trace, i, times[i], cpus[i], "a", "e", TW_EVENT_KIND_OTHER);
      assert_field (trace, i, "n", order[i]);
    }
}

static char *
big_csv (guint lines)
{
  GString *text = g_string_new ("time_ns,cpu,task,event,irq\n");

  for (guint i = 0; i < lines; i++)
    g_string_append_printf (text, "%u,%u,t%u,%s,%u\n", i * 10, i % 4, i % 7,
                            i % 2 ? "irq_exit" : "irq_entry", i % 3);
  return g_string_free (text, FALSE);
}

static void
cancel_cb (double   fraction,
           gpointer user_data)
{
  g_cancellable_cancel (user_data);
}

static void
test_cancel (void)
{
  g_autofree char *text = big_csv (20000);
  g_autofree char *path = tw_test_write_temp_file ("big.csv", text, -1);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "csv", cancel_cb, cancellable,
                                                           cancellable, &error);

  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

static void
progress_cb (double   fraction,
             gpointer user_data)
{
  GArray *seen = user_data;

  g_array_append_val (seen, fraction);
}

static void
test_progress (void)
{
  g_autofree char *text = big_csv (20000);
  g_autofree char *path = tw_test_write_temp_file ("big.csv", text, -1);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, "csv", progress_cb, seen,
                                                           NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 20000);
  assert_event (trace, 19999, 199990, 3, "t0", "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  g_assert_cmpuint (event_arg (trace, 19999), ==, 19999 % 3);
  /* 4 calls in each of the two passes, then the final 1.0 */
  g_assert_cmpuint (seen->len, ==, 9);
  for (guint i = 1; i < seen->len; i++)
    g_assert_cmpfloat (g_array_index (seen, double, i), >, g_array_index (seen, double, i - 1));
  g_assert_cmpfloat (g_array_index (seen, double, 0), >, 0.0);
  g_assert_cmpfloat (g_array_index (seen, double, seen->len - 1), ==, 1.0);
}

static void
assert_run (const TwRunInterval *run,
            guint64              start,
            guint64              end,
            guint32              task)
{
  g_assert_cmpuint (run->start, ==, start);
  g_assert_cmpuint (run->end, ==, end);
  g_assert_cmpuint (run->task, ==, task);
}

static void
assert_state (const TwTaskInterval *s,
              guint64               start,
              guint64               end,
              TwTaskState           state,
              guint16               cpu)
{
  g_assert_cmpuint (s->start, ==, start);
  g_assert_cmpuint (s->end, ==, end);
  g_assert_cmpstr (tw_task_state_to_string (s->state), ==, tw_task_state_to_string (state));
  g_assert_cmpuint (s->cpu, ==, cpu);
}

static void
test_state_model (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/sched.csv");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_autoptr(TwStateModel) model = NULL;
  const TwRunInterval *runs;
  const TwIrqInterval *irqs;
  const TwTaskInterval *states;
  guint32 a, b;
  gsize n;

  g_assert_no_error (error);
  a = tw_trace_lookup_task (trace, "1");
  b = tw_trace_lookup_task (trace, "2");
  g_assert_cmpstr (tw_trace_get_task (trace, a)->name, ==, "A");
  g_assert_cmpstr (tw_trace_get_task (trace, b)->name, ==, "B");

  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_state_model_get_n_cpus (model), ==, 2);

  runs = tw_state_model_get_cpu_runs (model, 0, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_run (&runs[0], 100, 600, a);
  assert_run (&runs[1], 600, 800, b);
  assert_run (&runs[2], 800, 900, a);
  runs = tw_state_model_get_cpu_runs (model, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_run (&runs[0], 150, 400, b);
  assert_run (&runs[1], 400, 900, TW_TASK_NONE);

  irqs = tw_state_model_get_cpu_irqs (model, 0, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (irqs[0].start, ==, 200);
  g_assert_cmpuint (irqs[0].end, ==, 350);
  g_assert_cmpuint (irqs[0].number, ==, 10);
  g_assert_cmpuint (irqs[0].depth, ==, 1);
  g_assert_cmpuint (irqs[0].kind, ==, TW_IRQ_HARD);
  g_assert_cmpuint (irqs[0].unclosed, ==, 0);
  g_assert_cmpuint (irqs[1].start, ==, 250);
  g_assert_cmpuint (irqs[1].end, ==, 300);
  g_assert_cmpuint (irqs[1].number, ==, 11);
  g_assert_cmpuint (irqs[1].depth, ==, 2);
  g_assert_cmpuint (irqs[2].start, ==, 700);
  g_assert_cmpuint (irqs[2].end, ==, 750);
  g_assert_cmpuint (irqs[2].number, ==, 3);
  g_assert_cmpuint (irqs[2].depth, ==, 1);
  g_assert_cmpuint (irqs[2].kind, ==, TW_IRQ_SOFT);
  tw_state_model_get_cpu_irqs (model, 1, &n);
  g_assert_cmpuint (n, ==, 0);

  states = tw_state_model_get_task_states (model, a, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_state (&states[0], 100, 600, TW_TASK_STATE_RUNNING, 0);
  assert_state (&states[1], 600, 800, TW_TASK_STATE_READY, TW_CPU_NONE);
  assert_state (&states[2], 800, 900, TW_TASK_STATE_RUNNING, 0);

  /* B blocks (prev_state S), is woken by A, preempts it, then dies (X) */
  states = tw_state_model_get_task_states (model, b, &n);
  g_assert_cmpuint (n, ==, 4);
  assert_state (&states[0], 150, 400, TW_TASK_STATE_RUNNING, 1);
  assert_state (&states[1], 400, 500, TW_TASK_STATE_BLOCKED, TW_CPU_NONE);
  assert_state (&states[2], 500, 600, TW_TASK_STATE_READY, TW_CPU_NONE);
  assert_state (&states[3], 600, 800, TW_TASK_STATE_RUNNING, 0);

  g_assert_cmpuint (tw_state_model_get_running_task (model, 0, 700), ==, b);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, a), ==, 600);
  g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, b), ==, 450);
}

/* The TwTaskState the reader gave the prev_state of event @index. */
static TwTaskState
prev_state_of (TwTrace *trace,
               guint64  index)
{
  TwEvent event;
  TwValue value;

  g_assert_true (tw_trace_get_event (trace, index, &event));
  g_assert_true (tw_trace_get_event_field (trace, &event, "prev_state", &value));
  g_assert_cmpint (value.type, ==, TW_FIELD_STRING);
  return tw_trace_get_string_task_state (trace, value.str);
}

/* The reader says what a prev_state names; a column of integers is the kernel's raw
 * value (0: still runnable), kept as the text it was. */
static void
test_prev_state_names_a_state (void)
{
  g_autoptr(TwTrace) letters = load_ok ("time_ns,cpu,task,event,next,prev_state\n"
                                        "1,0,a,switch,b,R+\n2,0,b,switch,a,D\n"
                                        "3,0,a,switch,b,Z\n4,0,b,switch,c,\n");
  g_autoptr(TwTrace) numbers = load_ok ("time_ns,cpu,task,event,next,prev_state\n"
                                        "1,0,a,switch,b,0\n2,0,b,switch,a,1\n");

  g_assert_cmpint (prev_state_of (letters, 0), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (prev_state_of (letters, 1), ==, TW_TASK_STATE_BLOCKED);
  g_assert_cmpint (prev_state_of (letters, 2), ==, TW_TASK_STATE_DEAD);
  g_assert_cmpint (prev_state_of (numbers, 0), ==, TW_TASK_STATE_READY);
  g_assert_cmpint (prev_state_of (numbers, 1), ==, TW_TASK_STATE_BLOCKED);
  assert_field (numbers, 1, "prev_state", "1");
}

/* A recorded libgtop session: its load and memory fields are flagged as the sampler
 * flags them, so that they are counters again. */
static void
test_recorded_gtop_counters (void)
{
  g_autoptr(TwTrace) trace = load_ok (
    "time_ns,cpu,task,event,load_pct,user_pct,total,used,free\n"
    "500,1,gtop:cpu/1,gtop_cpu_load,12.5,10,,,\n"
    "500,,gtop:memory,gtop_memory,,,8000,3000,5000\n"
    "600,1,gtop:cpu/1,other_load,40,,,,\n");

  g_assert_cmpint (field_spec (trace, "gtop_cpu_load", "load_pct")->flags & ~TW_FIELD_FLAG_OPTIONAL,
                   ==, TW_FIELD_FLAG_CPU_LOAD);
  g_assert_cmpint (field_spec (trace, "gtop_cpu_load", "user_pct")->flags, ==, TW_FIELD_FLAG_OPTIONAL);
  g_assert_cmpint (field_spec (trace, "gtop_memory", "used")->flags & ~TW_FIELD_FLAG_OPTIONAL,
                   ==, TW_FIELD_FLAG_MEMORY_USED);
  g_assert_cmpint (field_spec (trace, "gtop_memory", "total")->flags & ~TW_FIELD_FLAG_OPTIONAL,
                   ==, TW_FIELD_FLAG_MEMORY_TOTAL);
  g_assert_cmpint (field_spec (trace, "gtop_memory", "free")->flags, ==, TW_FIELD_FLAG_OPTIONAL);
  g_assert_cmpint (field_spec (trace, "other_load", "load_pct")->flags, ==, TW_FIELD_FLAG_OPTIONAL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/csv/prev-state-names-a-state", test_prev_state_names_a_state);
  g_test_add_func ("/tw/ingest/csv/recorded-gtop-counters", test_recorded_gtop_counters);

  g_test_add_func ("/tw/ingest/csv/every-kind", test_every_kind);
  g_test_add_func ("/tw/ingest/csv/field-types", test_field_types);
  g_test_add_func ("/tw/ingest/csv/quoting", test_quoting);
  g_test_add_func ("/tw/ingest/csv/crlf-and-bom", test_crlf_and_bom);
  g_test_add_func ("/tw/ingest/csv/comments-and-blank-lines", test_comments_and_blank_lines);
  g_test_add_func ("/tw/ingest/csv/empty-cells", test_empty_cells);
  g_test_add_func ("/tw/ingest/csv/tasks", test_tasks);
  g_test_add_func ("/tw/ingest/csv/task-idle", test_task_idle);
  g_test_add_func ("/tw/ingest/csv/kind-column", test_kind_column);
  g_test_add_func ("/tw/ingest/csv/arg-prefix", test_arg_prefix);
  g_test_add_func ("/tw/ingest/csv/existing-type", test_existing_type);
  g_test_add_func ("/tw/ingest/csv/header-errors", test_header_errors);
  g_test_add_func ("/tw/ingest/csv/bad-numbers", test_bad_numbers);
  g_test_add_func ("/tw/ingest/csv/structure-errors", test_structure_errors);
  g_test_add_func ("/tw/ingest/csv/probe", test_probe);
  g_test_add_func ("/tw/ingest/csv/wrong-format", test_wrong_format);
  g_test_add_func ("/tw/ingest/csv/other-csv", test_other_csv);
  g_test_add_func ("/tw/ingest/csv/missing-file", test_missing_file);
  g_test_add_func ("/tw/ingest/csv/out-of-order", test_out_of_order);
  g_test_add_func ("/tw/ingest/csv/cancel", test_cancel);
  g_test_add_func ("/tw/ingest/csv/progress", test_progress);
  g_test_add_func ("/tw/ingest/csv/state-model", test_state_model);

  return g_test_run ();
}
