/* test-ctf-writer.c: the CTF writer, read back by our CTF reader and by babeltrace2
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ctf-packer.h>
#include <tw-ctf-writer-private.h>
#include <tw-ingest.h>
#include <tw-kernel-common-private.h>
#include <tw-test-utils.h>

#include <glib/gstdio.h>
#include <string.h>

/* A sched_switch as the live kernel source stores it (ftrace's fields). */
static void
append_switch (TwTrace    *trace,
               guint16     type,
               guint64     time_ns,
               guint16     cpu,
               guint32     prev,
               guint32     next,
               const char *prev_state)
{
  const TwEventType *info = tw_trace_get_event_type (trace, type);
  guint8 payload[128] = { 0 };
  TwValue v = { .type = TW_FIELD_STRING };

  g_assert_cmpuint (info->payload_size, <=, sizeof payload);
  v.str = tw_trace_intern_task_state (trace, prev_state, _tw_kernel_task_state (prev_state));
  tw_event_type_set_field (info, payload, 3, &v);
  v = (TwValue) { .type = TW_FIELD_I64, .i = 120 };
  tw_event_type_set_field (info, payload, 2, &v);
  tw_trace_append (trace, time_ns, cpu, type, prev, next, payload);
}

/* What a live session's store holds: kernel events of the live kernel source (tasks
 * keyed by tid, idle tasks per CPU), a sensor's elements (no CPU, a task without a
 * thread id), libgtop samples and a loss. Times are distinct, so that the order of the
 * events read back (merged from several stream files) is the order written. */
static TwTrace *
make_session_trace (guint n_rounds)
{
  static const TwFieldSpec sensor_fields[] = {
    { "x",     TW_FIELD_F64,    TW_FIELD_FLAG_NONE },
    { "n",     TW_FIELD_U32,    TW_FIELD_FLAG_NONE },
    { "flags", TW_FIELD_U16,    TW_FIELD_FLAG_HEX },
    { "label", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "delta", TW_FIELD_I64,    TW_FIELD_FLAG_NONE },
  };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  guint16 sw, irq, sensor, cpu_load, lost;
  guint32 idle[2], worker, shell, ctl;
  guint64 t = 1000;

  sw = tw_trace_add_event_type (trace, "sched_switch", "sched", TW_EVENT_KIND_SWITCH,
                                _tw_kernel_switch_fields, G_N_ELEMENTS (_tw_kernel_switch_fields), &error);
  irq = tw_trace_add_event_type (trace, "irq_handler_entry", "irq", TW_EVENT_KIND_IRQ_ENTRY,
                                 _tw_kernel_irq_entry_fields, G_N_ELEMENTS (_tw_kernel_irq_entry_fields), &error);
  sensor = tw_trace_add_event_type (trace, "ctl", "sensor", TW_EVENT_KIND_SENSOR, sensor_fields,
                                    G_N_ELEMENTS (sensor_fields), &error);
  g_assert_no_error (error);
  cpu_load = tw_test_add_gtop_type (trace, FALSE);
  lost = tw_lost_events_add_type (trace, "discarded_events", &error);
  g_assert_no_error (error);

  for (guint c = 0; c < 2; c++)
    {
      g_autofree char *id = g_strdup_printf ("0/%u", c);
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);

      idle[c] = tw_trace_add_task (trace, id, name, 0, 0);
      tw_trace_set_task_flags (trace, idle[c], TW_TASK_FLAG_IDLE);
    }
  worker = tw_trace_add_task (trace, "1234", "worker", -1, 1234);
  shell = tw_trace_add_task (trace, "77", "bash", -1, 77);
  ctl = tw_trace_add_task (trace, "sensor:4321:ctl", "ctl", 4321, -1);

  for (guint r = 0; r < n_rounds; r++)
    {
      const TwEventType *type;
      guint8 payload[128];
      guint16 c = r % 2;
      TwValue v;

      append_switch (trace, sw, t += 10, c, idle[c], r % 3 ? worker : shell, "R");
      append_switch (trace, sw, t += 10, c, r % 3 ? worker : shell, idle[c], r % 5 ? "S" : "R+");

      type = tw_trace_get_event_type (trace, irq);
      memset (payload, 0, sizeof payload);
      v = (TwValue) { .type = TW_FIELD_I64, .i = 17 };
      tw_event_type_set_field (type, payload, 0, &v);
      v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, "eth0") };
      tw_event_type_set_field (type, payload, 1, &v);
      tw_trace_append (trace, t += 10, c, irq, idle[c], 17, payload);

      type = tw_trace_get_event_type (trace, sensor);
      memset (payload, 0, sizeof payload);
      v = (TwValue) { .type = TW_FIELD_F64, .f = r * 0.5 };
      tw_event_type_set_field (type, payload, 0, &v);
      v = (TwValue) { .type = TW_FIELD_U32, .u = r };
      tw_event_type_set_field (type, payload, 1, &v);
      v = (TwValue) { .type = TW_FIELD_U16, .u = 0xbeef };
      tw_event_type_set_field (type, payload, 2, &v);
      v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, r % 2 ? "odd, \"quoted\"" : "even") };
      tw_event_type_set_field (type, payload, 3, &v);
      v = (TwValue) { .type = TW_FIELD_I64, .i = -(gint64) r };
      tw_event_type_set_field (type, payload, 4, &v);
      tw_trace_append (trace, t += 10, TW_CPU_NONE, sensor, ctl, 2, payload);

      tw_test_append_gtop_sample (trace, cpu_load, t += 10, c, TW_TASK_NONE, 12.5 + r, 0);
      if (r % 7 == 3)
        {
          t += 10;
          tw_lost_events_append (trace, lost, t, c, 5 + r, 0, t - 5);
        }
    }
  tw_trace_seal (trace, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

static TwTrace *
read_ctf (const char *path)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_ctf_reader_info.read (path, trace, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  tw_trace_seal (trace, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

static char *
dup_arg (TwTrace       *trace,
         const TwEvent *ev)
{
  TwEventKind kind = tw_trace_get_event_type (trace, ev->type)->kind;

  if (kind == TW_EVENT_KIND_SWITCH || kind == TW_EVENT_KIND_WAKEUP)
    return g_strdup (ev->arg == TW_TASK_NONE ? "(none)" : tw_test_get_task_source_id (trace, ev->arg));
  return g_strdup_printf ("%u", ev->arg);
}

static char *
dup_task (TwTrace *trace,
          guint32  index)
{
  const TwTask *task = tw_trace_get_task (trace, index);

  if (task == NULL)
    return g_strdup ("(none)");
  return g_strdup_printf ("%s “%s” pid %" G_GINT64_FORMAT " tid %" G_GINT64_FORMAT "%s", task->source_id,
                          task->name ? task->name : "", task->pid, task->tid,
                          task->flags & TW_TASK_FLAG_IDLE ? " idle" : "");
}

/* @b was read back from what the writer made of @a: the same events, times, CPUs, kinds,
 * families, tasks (ids, names, pids, tids, idle flags), arguments and fields. Kernel
 * kinds come back with LTTng's fields: of those, prev_state is compared. */
static void
assert_same_events (TwTrace *a,
                    TwTrace *b)
{
  g_assert_cmpuint (tw_trace_get_n_events (a), ==, tw_trace_get_n_events (b));
  for (guint64 e = 0; e < tw_trace_get_n_events (a); e++)
    {
      TwEvent ea, eb;
      const TwEventType *ta, *tb;
      g_autofree char *arg_a = NULL, *arg_b = NULL, *task_a = NULL, *task_b = NULL;

      tw_trace_get_event (a, e, &ea);
      tw_trace_get_event (b, e, &eb);
      ta = tw_trace_get_event_type (a, ea.type);
      tb = tw_trace_get_event_type (b, eb.type);
      g_assert_cmpuint (ea.time, ==, eb.time);
      g_assert_cmpuint (ea.cpu, ==, eb.cpu);
      g_assert_cmpstr (ta->name, ==, tb->name);
      g_assert_cmpint (ta->kind, ==, tb->kind);
      g_assert_cmpstr (ta->family, ==, tb->family);
      task_a = dup_task (a, ea.task);
      task_b = dup_task (b, eb.task);
      g_assert_cmpstr (task_a, ==, task_b);
      arg_a = dup_arg (a, &ea);
      arg_b = dup_arg (b, &eb);
      g_assert_cmpstr (arg_a, ==, arg_b);
      if (ta->kind == TW_EVENT_KIND_SWITCH)
        {
          g_autofree char *state_a = tw_test_dup_event_field (a, e, "prev_state");
          g_autofree char *state_b = tw_test_dup_event_field (b, e, "prev_state");

          g_assert_cmpstr (state_a, ==, state_b);
          continue;
        }
      g_assert_cmpuint (ta->n_fields, ==, tb->n_fields);
      for (guint f = 0; f < ta->n_fields; f++)
        {
          g_autofree char *va = tw_test_dup_event_field (a, e, ta->fields[f].name);
          g_autofree char *vb = tw_test_dup_event_field (b, e, ta->fields[f].name);

          g_assert_cmpstr (ta->fields[f].name, ==, tb->fields[f].name);
          g_assert_cmpint (ta->fields[f].type, ==, tb->fields[f].type);
          g_assert_cmpstr (va, ==, vb);
          /* what libgtop's fields measure comes back with them */
          g_assert_cmpint (ta->fields[f].flags & (TW_FIELD_FLAG_CPU_LOAD | TW_FIELD_FLAG_HEX), ==,
                           tb->fields[f].flags & (TW_FIELD_FLAG_CPU_LOAD | TW_FIELD_FLAG_HEX));
        }
    }
}

static char *
make_out_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("tw-ctf-writer-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

static guint
count_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  while (dir && g_dir_read_name (dir))
    n++;
  return n;
}

/* babeltrace2's text output of @path, one line per event; NULL when it is not installed. */
static char *
babeltrace2_print (const char *path)
{
  g_autofree char *program = g_find_program_in_path ("babeltrace2");
  const char *argv[] = { "babeltrace2", path, NULL };
  int status = 0;
  char *out;

  if (program == NULL)
    return NULL;
  out = tw_test_run_tool (argv, &status);
  g_assert_cmpint (status, ==, 0);
  return out;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n;
}

static void
test_round_trip (void)
{
  g_autoptr(TwTrace) trace = make_session_trace (200);
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "session", NULL);
  g_autofree char *metadata = g_build_filename (path, "metadata", NULL);
  g_autofree char *cpu0 = g_build_filename (path, "cpu0", NULL);
  g_autofree char *tasks = g_build_filename (path, "tasks", NULL);
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *printed = NULL;

  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path, NULL, NULL,
                                             NULL, &error));
  g_assert_no_error (error);
  /* a folder as LTTng's: metadata and a stream file per CPU, plus the events without one */
  g_assert_true (g_file_test (metadata, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (cpu0, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_file_test (tasks, G_FILE_TEST_IS_REGULAR));
  /* nothing else beside it: the hidden partial folder is gone */
  g_assert_cmpuint (count_entries (dir), ==, 1);

  back = read_ctf (path);
  assert_same_events (trace, back);

  printed = babeltrace2_print (path);
  if (printed == NULL)
    g_test_message ("babeltrace2 is not installed: its reading of the trace is not checked");
  else
    {
      g_assert_cmpuint (count_lines (printed), ==, tw_trace_get_n_events (trace));
      /* LTTng's names: a kernel switch as LTTng writes it, a task's context */
      g_assert_nonnull (strstr (printed, "sched_switch:"));
      g_assert_nonnull (strstr (printed, "prev_comm = \"worker\""));
      g_assert_nonnull (strstr (printed, "procname = \"ctl\""));
      g_assert_nonnull (strstr (printed, "cpu_id = 1"));
    }

  /* a folder that exists is never written over */
  g_assert_false (tw_ctf_writer_write_events (trace, 10, path, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, path));
  tw_test_remove_tree (dir);
}

/* A recording of a live session of two targets: CPU 0 of alpha and CPU 0 of beta are two
 * store CPUs, tasks are a host's; the folder keeps which is whose, and reading it back
 * gives every CPU and task its host again (a task only ever switched to as well). */
static void
test_hosts (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "two-hosts", NULL);
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;
  const char *hosts[] = { "alpha", "alpha", "beta", "beta" };
  guint32 tasks[4], idle_a0, idle_a1;
  guint16 sw, cpu_b0, cpu_a1, cpu_a0;

  sw = tw_trace_add_event_type (trace, "sched_switch", "sched", TW_EVENT_KIND_SWITCH,
                                _tw_kernel_switch_fields, G_N_ELEMENTS (_tw_kernel_switch_fields), &error);
  g_assert_no_error (error);
  cpu_b0 = tw_trace_add_host_cpu (trace, "beta", 0);
  cpu_a1 = tw_trace_add_host_cpu (trace, "alpha", 1);
  cpu_a0 = tw_trace_add_host_cpu (trace, "alpha", 0);
  for (guint i = 0; i < G_N_ELEMENTS (tasks); i++)
    {
      g_autofree char *id = g_strdup_printf ("%s/%u", hosts[i], 100 + i % 2);

      tasks[i] = tw_trace_add_task (trace, id, "worker", 100 + i % 2, 100 + i % 2);
      tw_trace_set_task_host (trace, tasks[i], hosts[i]);
    }
  /* idle tasks as a session of several targets names them: HOST/0/CPU on the host */
  idle_a0 = tw_trace_add_task (trace, "alpha/0/0", "swapper/0", 0, 0);
  idle_a1 = tw_trace_add_task (trace, "alpha/0/1", "swapper/1", 0, 0);
  tw_trace_set_task_host (trace, idle_a0, "alpha");
  tw_trace_set_task_host (trace, idle_a1, "alpha");
  tw_trace_set_task_flags (trace, idle_a0, TW_TASK_FLAG_IDLE);
  tw_trace_set_task_flags (trace, idle_a1, TW_TASK_FLAG_IDLE);
  append_switch (trace, sw, 500, cpu_a1, idle_a1, tasks[0], "R");
  append_switch (trace, sw, 1000, cpu_a0, tasks[0], tasks[1], "S");
  append_switch (trace, sw, 2000, cpu_b0, tasks[2], tasks[3], "R");
  append_switch (trace, sw, 2500, cpu_a0, tasks[1], idle_a0, "S");
  append_switch (trace, sw, 3000, cpu_a1, tasks[0], TW_TASK_NONE, "S");
  g_assert_true (tw_trace_seal (trace, NULL, &error));

  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path, NULL, NULL,
                                             NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (path);
  assert_same_events (trace, back);
  g_assert_cmpuint (tw_trace_get_n_hosts (back), ==, 2);
  for (guint16 c = 0; c < tw_trace_get_n_cpus (trace); c++)
    {
      guint16 host_cpu, back_host_cpu;

      g_assert_cmpstr (tw_trace_get_cpu_host (back, c, &back_host_cpu), ==,
                       tw_trace_get_cpu_host (trace, c, &host_cpu));
      g_assert_cmpuint (back_host_cpu, ==, host_cpu);
    }
  for (guint i = 0; i < G_N_ELEMENTS (tasks); i++)
    {
      const char *id = tw_trace_get_task (trace, tasks[i])->source_id;
      guint32 task = tw_trace_lookup_task (back, id);

      g_assert_cmpuint (task, !=, TW_TASK_NONE);
      g_assert_cmpstr (tw_trace_get_task (back, task)->host, ==, hosts[i]);
    }
  for (guint32 t = 0; t < tw_trace_get_n_tasks (back); t++)
    g_assert_nonnull (tw_trace_get_task (back, t)->host);
  g_assert_true (tw_trace_get_task (back, tw_trace_lookup_task (back, "alpha/0/1"))->flags & TW_TASK_FLAG_IDLE);
  tw_test_remove_tree (dir);
}

/* A snapshot of a store that keeps growing: the rows published at the start. */
static void
test_snapshot_of_growing_store (void)
{
  g_autoptr(TwTrace) trace = make_session_trace (50);
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "half", NULL);
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_ctf_writer_write_events (trace, 101, path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (back), ==, 101);
  tw_test_remove_tree (dir);
}

/* A live store holds a row the merge could not place (a remote target's element older
 * than what was already emitted: "late"): the recording writes every row at its own
 * time, in time order, instead of moving the late one forward. */
static void
test_late_row_keeps_its_time (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "late", NULL);
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;
  const guint64 times[] = { 1000, 2000, 5000, 3000, 6000 };   /* 3000 came late */
  const guint64 sorted[] = { 1000, 2000, 3000, 5000, 6000 };
  guint16 type = tw_trace_add_event_type (trace, "tick", NULL, TW_EVENT_KIND_USER, NULL, 0, &error);
  guint32 task = tw_trace_add_task (trace, "7", "worker", 7, 7);

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    tw_trace_append (trace, times[i], 0, type, task, i, NULL);
  g_assert_false (tw_trace_is_sealed (trace));
  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (back), ==, G_N_ELEMENTS (times));
  for (guint i = 0; i < G_N_ELEMENTS (sorted); i++)
    {
      TwEvent ev;

      g_assert_true (tw_trace_get_event (back, i, &ev));
      g_assert_cmpuint (ev.time - tw_trace_get_time (back, 0), ==, sorted[i] - sorted[0]);
      /* the row that came late is the one written third */
      if (i == 2)
        g_assert_cmpuint (ev.arg, ==, 3);
    }
  tw_test_remove_tree (dir);
}

static void
cancel_at_progress (double   fraction,
                    gpointer user_data)
{
  if (fraction > 0 && fraction < 1)
    g_cancellable_cancel (user_data);
}

/* Cancel, before or while writing, leaves nothing: neither the trace nor its hidden
 * partial folder. The packer itself, cancelled while three threads pack: every worker
 * stops and the call says so. */
static void
test_cancel_leaves_nothing (void)
{
  g_autoptr(TwTrace) trace = make_session_trace (40000);
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "cancelled", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path,
                                              cancel_at_progress, cancellable, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_cancellable_is_cancelled (cancellable));
  g_assert_cmpuint (count_entries (dir), ==, 0);
  g_clear_error (&error);

  g_assert_false (tw_ctf_writer_write_events (trace, 10, path, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (count_entries (dir), ==, 0);
  g_clear_error (&error);

  g_cancellable_reset (cancellable);
  g_assert_false (tw_ctf_packer_write_range (trace, 0, tw_trace_get_n_events (trace), path, NULL, 3,
                                             cancel_at_progress, cancellable, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  tw_test_remove_tree (dir);
}

/* No events is a trace too: it opens as 0 events, in babeltrace2 and in tracewb. */
static void
test_empty (void)
{
  g_autoptr(TwTrace) trace = make_session_trace (0);
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "empty", NULL);
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *printed = NULL;

  g_assert_true (tw_ctf_writer_write_events (trace, 0, path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (back), ==, 0);
  printed = babeltrace2_print (path);
  if (printed)
    g_assert_cmpstr (printed, ==, "");
  tw_test_remove_tree (dir);
}

/* ---------------------------------------------------------------- the packer and babeltrace2's writer */

/* A store with a type of every kind, more types than a compact event header numbers
 * (31), a type without fields, a field of each width, a hexadecimal one, a task
 * reference, an absent optional one, names TSDL reserves, strings with quotes, a gap of
 * seconds (a full timestamp), a row that goes back in time on its CPU (the writers hold
 * it at the CPU's last time) and a loss since a time not known. */
static TwTrace *
make_every_kind_trace (void)
{
  static const TwFieldSpec other_fields[] = {
    { "u8",    TW_FIELD_U8,     TW_FIELD_FLAG_NONE },
    { "u16",   TW_FIELD_U16,    TW_FIELD_FLAG_HEX },
    { "u32",   TW_FIELD_U32,    TW_FIELD_FLAG_NONE },
    { "u64",   TW_FIELD_U64,    TW_FIELD_FLAG_NONE },
    { "i32",   TW_FIELD_I32,    TW_FIELD_FLAG_NONE },
    { "event", TW_FIELD_I64,    TW_FIELD_FLAG_NONE },
    { "_x",    TW_FIELD_F64,    TW_FIELD_FLAG_NONE },
    { "text",  TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "owner", TW_FIELD_U32,    TW_FIELD_FLAG_TASK },
    { "maybe", TW_FIELD_U32,    TW_FIELD_FLAG_OPTIONAL },
  };
  static const TwFieldSpec user_fields[] = { { "value", TW_FIELD_I32, TW_FIELD_FLAG_NONE } };
  static const struct { const char *name; TwEventKind kind; } simple[] = {
    { "sched_process_fork", TW_EVENT_KIND_TASK_CREATE }, { "sched_process_exit", TW_EVENT_KIND_TASK_EXIT },
    { "lock_acquire", TW_EVENT_KIND_MUTEX_LOCK },         { "lock_release", TW_EVENT_KIND_MUTEX_UNLOCK },
    { "lock_contended", TW_EVENT_KIND_MUTEX_WAIT },       { "marker", TW_EVENT_KIND_OTHER },
  };
  g_autoptr(TwTrace) trace = make_session_trace (20);
  g_autoptr(GError) error = NULL;
  guint16 types[64];
  guint n_types = 0, first_other;
  guint64 t;
  TwEvent last = { 0 };
  guint32 worker = tw_trace_lookup_task (trace, "1234"), shell = tw_trace_lookup_task (trace, "77");

  /* a sealed store takes no rows: start again from its rows */
  g_autoptr(TwTrace) out = tw_trace_new ();
  for (guint32 s = 0; tw_trace_get_string (trace, s); s++)
    tw_trace_intern_string (out, tw_trace_get_string (trace, s));
  for (guint k = 0; k < tw_trace_get_n_event_types (trace); k++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, k);

      tw_trace_add_event_type (out, type->name, type->family, type->kind, type->fields, type->n_fields, &error);
      g_assert_no_error (error);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      const TwTask *task = tw_trace_get_task (trace, k);

      tw_trace_add_task (out, task->source_id, task->name, task->pid, task->tid);
      tw_trace_set_task_flags (out, k, task->flags);
    }
  for (guint64 e = 0; e < tw_trace_get_n_events (trace); e++)
    {
      tw_trace_get_event (trace, e, &last);
      tw_trace_append (out, last.time, last.cpu, last.type, last.task, last.arg, last.payload);
    }
  t = last.time;

  types[n_types++] = tw_trace_add_event_type (out, "sched_wakeup", "sched", TW_EVENT_KIND_WAKEUP,
                                              _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields),
                                              &error);
  types[n_types++] = tw_trace_add_event_type (out, "irq_handler_exit", "irq", TW_EVENT_KIND_IRQ_EXIT,
                                              _tw_kernel_irq_exit_fields, G_N_ELEMENTS (_tw_kernel_irq_exit_fields),
                                              &error);
  types[n_types++] = tw_trace_add_event_type (out, "softirq_entry", "irq", TW_EVENT_KIND_SOFTIRQ_ENTRY,
                                              _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields),
                                              &error);
  types[n_types++] = tw_trace_add_event_type (out, "softirq_exit", "irq", TW_EVENT_KIND_SOFTIRQ_EXIT,
                                              _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields),
                                              &error);
  types[n_types++] = tw_trace_add_event_type (out, "user_mark", "user", TW_EVENT_KIND_USER, user_fields,
                                              G_N_ELEMENTS (user_fields), &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (simple); i++)
    types[n_types++] = tw_test_add_simple_type (out, simple[i].name, simple[i].kind);
  first_other = n_types;
  for (guint i = 0; n_types < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *name = g_strdup_printf ("probe \"%u\"", i);

      types[n_types++] = tw_trace_add_event_type (out, name, "probes", TW_EVENT_KIND_OTHER, other_fields,
                                                  G_N_ELEMENTS (other_fields), &error);
      g_assert_no_error (error);
    }

  for (guint i = 0; i < n_types * 3; i++)
    {
      const TwEventType *type = tw_trace_get_event_type (out, types[i % n_types]);
      guint8 payload[256] = { 0 };
      guint16 cpu = i % 3 == 2 ? TW_CPU_NONE : i % 3;
      guint32 arg = type->kind == TW_EVENT_KIND_OTHER ? i : (i % 2 ? worker : shell);

      g_assert_cmpuint (type->payload_size, <=, sizeof payload);
      for (guint f = 0; f < type->n_fields; f++)
        {
          TwValue v = { .type = type->fields[f].type };

          if (type->fields[f].flags & TW_FIELD_FLAG_OPTIONAL)
            continue;
          if (type->fields[f].flags & TW_FIELD_FLAG_TASK)
            v.u = i % 2 ? worker : shell;
          else if (v.type == TW_FIELD_STRING)
            v.str = tw_trace_intern_string (out, i % 2 ? "a \"quoted\" \\ string" : "");
          else if (v.type == TW_FIELD_F64)
            v.f = -1.0 / (i + 3);
          else if (v.type == TW_FIELD_I32 || v.type == TW_FIELD_I64)
            v.i = -(gint64) i * 1000003;
          else
            v.u = G_MAXUINT64 - i;
          tw_event_type_set_field (type, payload, f, &v);
        }
      t += i == n_types ? 3 * G_GUINT64_CONSTANT (1000000000) : 7;
      tw_trace_append (out, i == first_other + 1 ? t - 100 : t, cpu, types[i % n_types],
                       i % 2 ? worker : shell, arg, type->n_fields ? payload : NULL);
    }
  /* a loss whose beginning is not known */
  tw_lost_events_append (out, tw_lost_events_add_type (out, "lost_unknown_since", &error), t += 7, 1, 9, 0,
                         TW_TIME_NONE);
  g_assert_no_error (error);
  tw_trace_seal (out, NULL, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&out);
}

/* Rows [@first, @end) of @trace written by the packer and by babeltrace2's sink.ctf.fs:
 * our reader reads the same store back from both, and, with @print, babeltrace2 prints
 * both the same. */
static void
assert_packer_equals_bt_writer (TwTrace  *trace,
                                guint64   first,
                                guint64   end,
                                gboolean  print)
{
  g_autofree char *dir = make_out_dir ();
  g_autofree char *packed = g_build_filename (dir, "packed", NULL);
  g_autofree char *bt = g_build_filename (dir, "bt", NULL);
  g_autoptr(TwTrace) back_packed = NULL;
  g_autoptr(TwTrace) back_bt = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *printed_packed = NULL;
  g_autofree char *printed_bt = NULL;

  g_assert_true (tw_ctf_writer_write_range (trace, first, end, packed, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (_tw_ctf_bt_writer_write_range (trace, first, end, bt, &error));
  g_assert_no_error (error);

  back_packed = read_ctf (packed);
  back_bt = read_ctf (bt);
  assert_same_events (back_bt, back_packed);
  g_assert_cmpuint (tw_trace_get_n_tasks (back_packed), ==, tw_trace_get_n_tasks (back_bt));

  if (!print)
    {
      tw_test_remove_tree (dir);
      return;
    }
  printed_packed = babeltrace2_print (packed);
  printed_bt = babeltrace2_print (bt);
  if (printed_bt == NULL)
    g_test_message ("babeltrace2 is not installed: its reading of the traces is not compared");
  else
    {
      g_assert_cmpuint (count_lines (printed_packed), ==, end - first);
      g_assert_cmpstr (printed_packed, ==, printed_bt);
    }
  tw_test_remove_tree (dir);
}

/* The trace's uuid, the one thing two packings of the same rows may differ in, made
 * zero: in each packet's header of a stream file, on the metadata's `uuid =` line. */
static void
forget_uuids (char  *contents,
              gsize  length,
              gboolean metadata)
{
  if (metadata)
    {
      for (char *at = strstr (contents, "\tuuid = \""); at; at = strstr (at + 1, "\tuuid = \""))
        for (char *c = at + 9; *c && *c != '"'; c++)
          *c = '0';
      return;
    }
  /* magic, uuid[16], stream_id, stream_instance_id, timestamp_begin, timestamp_end,
   * content_size, packet_size (bits): each packet says where the next one starts */
  for (gsize at = 0; at + 64 <= length;)
    {
      guint64 bits;

      memset (contents + at + 4, 0, 16);
      memcpy (&bits, contents + at + 56, 8);
      bits = GUINT64_FROM_LE (bits);
      g_assert_cmpuint (bits, >=, 64 * 8);
      at += bits / 8;
    }
}

/* The files of the trace folder @b equal those of @a, but for the trace's uuid. */
static void
assert_same_trace_files (const char *a,
                         const char *b)
{
  g_autoptr(GDir) dir = g_dir_open (a, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpuint (count_entries (a), ==, count_entries (b));
  while ((name = g_dir_read_name (dir)))
    {
      g_autofree char *path_a = g_build_filename (a, name, NULL);
      g_autofree char *path_b = g_build_filename (b, name, NULL);
      g_autofree char *contents_a = NULL, *contents_b = NULL;
      gsize length_a, length_b;

      g_assert_true (g_file_get_contents (path_a, &contents_a, &length_a, NULL));
      g_assert_true (g_file_get_contents (path_b, &contents_b, &length_b, NULL));
      g_assert_cmpuint (length_a, ==, length_b);
      forget_uuids (contents_a, length_a, strcmp (name, "metadata") == 0);
      forget_uuids (contents_b, length_b, strcmp (name, "metadata") == 0);
      g_assert_cmpmem (contents_a, length_a, contents_b, length_b);
    }
}

/* Rows [@first, @end) packed by one thread and by 2, 3 and 4 (each owning some of the
 * stream files): the same files, so what babeltrace2 and our reader make of them is
 * what assert_packer_equals_bt_writer() checks of the one thread's. */
static void
assert_threads_pack_the_same (TwTrace *trace,
                              guint64  first,
                              guint64  end)
{
  g_autofree char *dir = make_out_dir ();
  g_autofree char *one = g_build_filename (dir, "one", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_ctf_packer_write_range (trace, first, end, one, NULL, 1, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  for (guint n = 2; n <= 4; n++)
    {
      g_autofree char *name = g_strdup_printf ("threads-%u", n);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_true (tw_ctf_packer_write_range (trace, first, end, path, NULL, n, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      assert_same_trace_files (one, path);
    }
  tw_test_remove_tree (dir);
}

static void
test_packer_threads (void)
{
  g_autoptr(TwTrace) session = make_session_trace (3000);
  g_autoptr(TwTrace) kinds = make_every_kind_trace ();
  g_autoptr(TwTrace) many = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (many, 200, 3000, 7);
  g_autoptr(GError) error = NULL;

  assert_threads_pack_the_same (session, 0, tw_trace_get_n_events (session));
  assert_threads_pack_the_same (session, 1001, 5003);
  /* a row out of time order: packed in time order by every worker */
  assert_threads_pack_the_same (kinds, 0, tw_trace_get_n_events (kinds));
  tw_test_schedule_append (schedule, 60000);
  tw_trace_seal (many, NULL, &error);
  g_assert_no_error (error);
  assert_threads_pack_the_same (many, 0, tw_trace_get_n_events (many));
}

static void
test_packer_every_kind (void)
{
  g_autoptr(TwTrace) trace = make_every_kind_trace ();
  g_autoptr(TwTrace) back = NULL;
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "kinds", NULL);
  g_autoptr(GError) error = NULL;

  assert_packer_equals_bt_writer (trace, 0, tw_trace_get_n_events (trace), TRUE);
  /* a range inside: the types and tasks of its rows only */
  assert_packer_equals_bt_writer (trace, 37, 151, TRUE);

  /* the store itself comes back but for the row held at its CPU's last time */
  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (path);
  g_assert_cmpuint (tw_trace_get_n_events (back), ==, tw_trace_get_n_events (trace));
  tw_test_remove_tree (dir);
}

static void
test_packer_session (void)
{
  g_autoptr(TwTrace) trace = make_session_trace (300);

  assert_packer_equals_bt_writer (trace, 0, tw_trace_get_n_events (trace), TRUE);
}

/* A busy kernel of 200 CPUs: 200 stream files, packets of a MiB filled and cut. */
static void
test_packer_many_streams (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTestSchedule) schedule = tw_test_schedule_new (trace, 200, 3000, 7);
  g_autoptr(GError) error = NULL;

  tw_test_schedule_append (schedule, 60000);
  tw_trace_seal (trace, NULL, &error);
  g_assert_no_error (error);
  assert_packer_equals_bt_writer (trace, 0, tw_trace_get_n_events (trace), TRUE);
}

/* A string larger than a packet (of a MiB): its event gets a packet of its own size.
 * Read back by our reader only: babeltrace2 takes a minute to print a MiB string. */
#define BIG_STRING (1024 * 1024 + 4096)

static void
test_packer_big_strings (void)
{
  static const TwFieldSpec fields[] = { { "blob", TW_FIELD_STRING, TW_FIELD_FLAG_NONE } };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *big = g_malloc (BIG_STRING + 1);
  guint32 task = tw_trace_add_task (trace, "42", "writer", 42, 42);
  guint16 type = tw_trace_add_event_type (trace, "dump", "app", TW_EVENT_KIND_OTHER, fields, 1, &error);

  g_assert_no_error (error);
  for (guint i = 0; i < BIG_STRING; i++)
    big[i] = (char) ('a' + i % 26);
  big[BIG_STRING] = '\0';
  for (guint i = 0; i < 4; i++)
    {
      const TwEventType *info = tw_trace_get_event_type (trace, type);
      guint8 payload[16] = { 0 };
      TwValue v = { .type = TW_FIELD_STRING };

      v.str = tw_trace_intern_string (trace, i % 2 ? big + i * 1000 : "small");
      tw_event_type_set_field (info, payload, 0, &v);
      tw_trace_append (trace, 1000 + i, 0, type, task, 0, payload);
    }
  tw_trace_seal (trace, NULL, &error);
  g_assert_no_error (error);
  assert_packer_equals_bt_writer (trace, 0, tw_trace_get_n_events (trace), FALSE);
}

/* A field name CTF cannot hold is an error naming it, and leaves nothing. */
static void
test_packer_bad_field_name (void)
{
  static const TwFieldSpec fields[] = { { "load %", TW_FIELD_F64, TW_FIELD_FLAG_NONE } };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "bad", NULL);
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, "sample", NULL, TW_EVENT_KIND_OTHER, fields, 1, &error);
  guint8 payload[8] = { 0 };

  g_assert_no_error (error);
  tw_trace_append (trace, 10, 0, type, TW_TASK_NONE, 0, payload);
  g_assert_false (tw_ctf_writer_write_events (trace, 1, path, NULL, NULL, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "load %"));
  g_assert_nonnull (strstr (error->message, path));
  g_assert_cmpuint (count_entries (dir), ==, 0);
  tw_test_remove_tree (dir);
}

/* Real traces read in (ftrace's trace.dat with its own event formats and fields, an
 * LTTng kernel trace), written by both writers: their first 20000 events compared, and
 * all of them read back. */
static void
check_real_trace (const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwTrace) back = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("a shared trace is not here");
      return;
    }
  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  if (g_error_matches (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  g_test_message ("%s: %" G_GUINT64_FORMAT " events", relative, tw_trace_get_n_events (trace));
  assert_packer_equals_bt_writer (trace, 0, MIN (20000, tw_trace_get_n_events (trace)), TRUE);

  dir = make_out_dir ();
  out = g_build_filename (dir, "all", NULL);
  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), out, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  back = read_ctf (out);
  g_assert_cmpuint (tw_trace_get_n_events (back), ==, tw_trace_get_n_events (trace));
  tw_test_remove_tree (dir);
}

static void
test_packer_real_traces (void)
{
  check_real_trace ("ftrace/recorded/sched_irq_5s.dat");
  check_real_trace ("ctf/lttng-kernel-flipping-endianness/trace");
}

/* ---------------------------------------------------------------- Keep recording */

typedef struct {
  TwTrace      *trace;
  GCancellable *stop;
  const char   *path;
  guint         n_chunks;    /* atomic */
  guint64       n_written;   /* read once the thread is joined */
  gboolean      ok;
  GError       *error;
} Keep;

static void
keep_chunk_done (guint64  n_events,
                 guint    n_chunks,
                 gpointer user_data)
{
  Keep *keep = user_data;

  g_atomic_int_set (&keep->n_chunks, n_chunks);
  keep->n_written = n_events;
}

static gpointer
keep_thread (gpointer user_data)
{
  Keep *keep = user_data;

  keep->ok = tw_ctf_writer_keep_recording (keep->trace, keep->path, 40, keep->stop, keep_chunk_done,
                                           keep, &keep->error);
  return NULL;
}

/* The recording thread does not wake the main context: poll. */
static gboolean
wait_for_chunks (Keep  *keep,
                 guint  n_chunks)
{
  for (guint i = 0; i < 1000; i++)
    {
      if ((guint) g_atomic_int_get (&keep->n_chunks) >= n_chunks)
        return TRUE;
      g_usleep (10 * 1000);
    }
  return FALSE;
}

/* The recording grows while the session runs: each chunk is a whole CTF trace once it
 * appears, readable before the recording stops; after the stop the folder holds every
 * event, in babeltrace2 and in tracewb. */
static void
test_keep_recording (void)
{
  g_autoptr(TwTrace) source = make_session_trace (300);
  g_autoptr(TwTrace) live = tw_trace_new ();
  g_autofree char *dir = make_out_dir ();
  g_autofree char *path = g_build_filename (dir, "kept", NULL);
  g_autoptr(GCancellable) stop = g_cancellable_new ();
  g_autoptr(TwTrace) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *printed = NULL;
  Keep keep = { live, stop, path, 0, 0, FALSE, NULL };
  guint64 n = tw_trace_get_n_events (source);
  guint64 half = n / 2;
  guint chunks_before;
  GThread *thread;

  /* the "session": the same tables, rows appended in two bursts; payload strings are
   * ids of the source's table, the same ids when interned in the same order first */
  for (guint32 s = 0; tw_trace_get_string (source, s); s++)
    g_assert_cmpuint (tw_trace_intern_string (live, tw_trace_get_string (source, s)), ==, s);
  for (guint t = 0; t < tw_trace_get_n_event_types (source); t++)
    {
      const TwEventType *type = tw_trace_get_event_type (source, t);

      tw_trace_add_event_type (live, type->name, type->family, type->kind, type->fields, type->n_fields, &error);
      g_assert_no_error (error);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (source); k++)
    {
      const TwTask *task = tw_trace_get_task (source, k);

      tw_trace_add_task (live, task->source_id, task->name, task->pid, task->tid);
      tw_trace_set_task_flags (live, k, task->flags);
    }
  for (guint64 e = 0; e < half; e++)
    {
      TwEvent ev;

      tw_trace_get_event (source, e, &ev);
      tw_trace_append (live, ev.time, ev.cpu, ev.type, ev.task, ev.arg, ev.payload);
    }

  thread = g_thread_new ("keep-recording", keep_thread, &keep);
  g_assert_true (wait_for_chunks (&keep, 1));
  /* a chunk on disk is a whole trace while the recording goes on */
  {
    g_autofree char *first = g_build_filename (path, "chunk-000001", NULL);
    g_autoptr(TwTrace) part = read_ctf (first);

    g_assert_cmpuint (tw_trace_get_n_events (part), ==, half);
  }
  chunks_before = g_atomic_int_get (&keep.n_chunks);

  for (guint64 e = half; e < n; e++)
    {
      TwEvent ev;

      tw_trace_get_event (source, e, &ev);
      tw_trace_append (live, ev.time, ev.cpu, ev.type, ev.task, ev.arg, ev.payload);
    }
  g_assert_true (wait_for_chunks (&keep, chunks_before + 1));
  g_cancellable_cancel (stop);
  g_thread_join (thread);
  g_assert_no_error (keep.error);
  g_assert_true (keep.ok);
  g_assert_cmpuint (keep.n_written, ==, n);

  back = read_ctf (path);
  assert_same_events (source, back);
  printed = babeltrace2_print (path);
  if (printed == NULL)
    g_test_message ("babeltrace2 is not installed: its reading of the recording is not checked");
  else
    g_assert_cmpuint (count_lines (printed), ==, n);
  tw_test_remove_tree (dir);
}

static void
skip_unavailable (void)
{
  g_test_skip ("CTF cannot be written here (babeltrace2 or its ctf plugin missing)");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!tw_ctf_writer_is_available (&error))
    {
      g_test_message ("CTF cannot be written here: %s", error->message);
      g_test_add_func ("/ctf-writer/unavailable", skip_unavailable);
      return g_test_run ();
    }
  g_test_add_func ("/ctf-writer/round-trip", test_round_trip);
  g_test_add_func ("/ctf-writer/hosts", test_hosts);
  g_test_add_func ("/ctf-writer/snapshot-of-growing-store", test_snapshot_of_growing_store);
  g_test_add_func ("/ctf-writer/late-row-keeps-its-time", test_late_row_keeps_its_time);
  g_test_add_func ("/ctf-writer/cancel-leaves-nothing", test_cancel_leaves_nothing);
  g_test_add_func ("/ctf-writer/empty", test_empty);
  g_test_add_func ("/ctf-writer/keep-recording", test_keep_recording);
  g_test_add_func ("/ctf-writer/packer/session", test_packer_session);
  g_test_add_func ("/ctf-writer/packer/every-kind", test_packer_every_kind);
  g_test_add_func ("/ctf-writer/packer/many-streams", test_packer_many_streams);
  g_test_add_func ("/ctf-writer/packer/big-strings", test_packer_big_strings);
  g_test_add_func ("/ctf-writer/packer/bad-field-name", test_packer_bad_field_name);
  g_test_add_func ("/ctf-writer/packer/real-traces", test_packer_real_traces);
  g_test_add_func ("/ctf-writer/packer/threads", test_packer_threads);
  return g_test_run ();
}
