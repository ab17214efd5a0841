/* tw-test-utils.c: what every test program shares
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

#include <tw-gtop-types.h>

#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

/**
 * tw_test_dup_fixture_path:
 *
 * Returns: (transfer full): the path of a file under tests/fixtures/
 */
char *
tw_test_dup_fixture_path (const char *name)
{
  return g_build_filename (TW_SOURCE_DIR, "tests", "fixtures", name, NULL);
}

/**
 * tw_test_dup_shared_trace_path:
 * @relative: a path below shared/traces/
 *
 * Real traces sit beside the repository (../shared/traces), or where TW_SHARED_DIR says.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL when the file is not there
 *   (the caller skips with g_test_skip)
 */
char *
tw_test_dup_shared_trace_path (const char *relative)
{
  const char *shared = g_getenv ("TW_SHARED_DIR");
  g_autofree char *dir = shared ? g_strdup (shared)
                                : g_build_filename (TW_SOURCE_DIR, "..", "shared", NULL);
  char *path = g_build_filename (dir, "traces", relative, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_free (path);
      return NULL;
    }
  return path;
}

static char *private_dir;

/**
 * tw_test_remove_tree:
 * @path: a file or folder; what is below it goes too (symbolic links are not followed)
 */
void
tw_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        tw_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
remove_private_dir (void)
{
  tw_test_remove_tree (private_dir);
}

/**
 * tw_test_find_task_by_pid:
 *
 * Returns: the first task of @trace with @pid (a simulator truth's task), or TW_TASK_NONE
 */
guint32
tw_test_find_task_by_pid (TwTrace *trace,
                          gint64   pid)
{
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    if (tw_trace_get_task (trace, t)->pid == pid)
      return t;
  return TW_TASK_NONE;
}

/**
 * tw_test_new_state_model:
 *
 * Returns: (transfer full): the state model of @trace, sealed first if it is not, built
 */
TwStateModel *
tw_test_new_state_model (TwTrace *trace)
{
  g_autoptr(GError) error = NULL;
  TwStateModel *model;

  if (!tw_trace_is_sealed (trace))
    g_assert_true (tw_trace_seal (trace, NULL, NULL));
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, &error));
  g_assert_no_error (error);
  return model;
}

/**
 * tw_test_get_private_dir:
 *
 * G_TEST_OPTION_ISOLATE_DIRS does not isolate the temporary directory, and test programs
 * run in parallel (and in several builds at once): scratch files go to a directory of
 * this process, removed when it exits.
 *
 * Returns: (transfer none): the directory
 */
const char *
tw_test_get_private_dir (void)
{
  if (private_dir == NULL)
    {
      g_autoptr(GError) error = NULL;

      private_dir = g_dir_make_tmp ("tracewb-test-XXXXXX", &error);
      g_assert_no_error (error);
      atexit (remove_private_dir);
    }
  return private_dir;
}

/**
 * tw_test_write_temp_file:
 * @length: bytes, or -1 for a NUL-terminated string
 *
 * Returns: (transfer full): the path of a new file in the test's private directory
 */
char *
tw_test_write_temp_file (const char *basename,
                         const void *contents,
                         gssize      length)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (tw_test_get_private_dir (), basename, NULL);

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

guint16
tw_test_add_switch_type (TwTrace *trace)
{
  static const TwFieldSpec fields[] = {
    { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  };
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, "switch", "sched", TW_EVENT_KIND_SWITCH,
                                          fields, G_N_ELEMENTS (fields), &error);

  g_assert_no_error (error);
  return type;
}

guint16
tw_test_add_simple_type (TwTrace     *trace,
                         const char  *name,
                         TwEventKind  kind)
{
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, name, NULL, kind, NULL, 0, &error);

  g_assert_no_error (error);
  return type;
}

/* The tests spell prev_state as ftrace does and, like a reader, say what it names. */
static TwTaskState
state_named (const char *letters)
{
  switch (letters[0])
    {
    case 'R':
      return TW_TASK_STATE_READY;
    case 'X':
    case 'Z':
      return TW_TASK_STATE_DEAD;
    default:
      return TW_TASK_STATE_BLOCKED;
    }
}

void
tw_test_append_switch (TwTrace    *trace,
                       guint16     type,
                       guint64     time_ns,
                       guint16     cpu,
                       guint32     prev,
                       guint32     next,
                       const char *prev_state)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);
  guint8 payload[16] = { 0 };

  g_assert_cmpuint (t->payload_size, <=, sizeof payload);
  if (prev_state)
    {
      TwValue v = { .type = TW_FIELD_STRING,
                    .str = tw_trace_intern_task_state (trace, prev_state, state_named (prev_state)) };
      tw_event_type_set_field (t, payload, 0, &v);
    }
  tw_trace_append (trace, time_ns, cpu, type, prev, next, payload);
}

static gboolean
wait_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * tw_test_wait_until:
 * @condition: checked after every main-loop iteration
 * @timeout_ms: how long to wait at most
 *
 * Spins the default main context until @condition holds (threads finish, idles run,
 * frames get drawn).
 *
 * Returns: %TRUE when @condition held, %FALSE on timeout
 */
gboolean
tw_test_wait_until (TwTestCondition condition,
                    gpointer        data,
                    guint           timeout_ms)
{
  gboolean timed_out = FALSE;
  guint source = g_timeout_add (timeout_ms, wait_timeout_cb, &timed_out);

  while (!condition (data))
    {
      if (timed_out)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  if (!timed_out)
    g_source_remove (source);
  return TRUE;
}

/**
 * tw_test_dup_event_field:
 *
 * Returns: (transfer full) (nullable): the field @name of event @index as
 *   tw_trace_format_value() shows it, or %NULL when the event lacks it
 */
char *
tw_test_dup_event_field (TwTrace    *trace,
                         guint64     index,
                         const char *name)
{
  const TwEventType *type;
  TwEvent ev;
  TwValue value;
  int field;

  g_assert_true (tw_trace_get_event (trace, index, &ev));
  type = tw_trace_get_event_type (trace, ev.type);
  field = tw_event_type_lookup_field (type, name);
  if (field < 0 || !tw_event_type_get_field (type, ev.payload, field, &value))
    return NULL;
  return tw_trace_format_value (trace, &type->fields[field], &value);
}

/**
 * tw_test_get_task_source_id:
 *
 * Returns: (transfer none) (nullable): the source id of @task, %NULL for TW_TASK_NONE
 */
const char *
tw_test_get_task_source_id (TwTrace *trace,
                            guint32  task)
{
  const TwTask *t;

  if (task == TW_TASK_NONE)
    return NULL;
  t = tw_trace_get_task (trace, task);
  g_assert_nonnull (t);
  return t->source_id;
}

/**
 * tw_test_ensure_tasks:
 *
 * Makes the task table hold at least @n_tasks tasks, the new ones called "tN" with
 * pid = tid = N, so that task index N is task "tN".
 *
 * Returns: the number of tasks
 */
guint32
tw_test_ensure_tasks (TwTrace *trace,
                      guint32  n_tasks)
{
  for (guint32 i = tw_trace_get_n_tasks (trace); i < n_tasks; i++)
    {
      g_autofree char *id = g_strdup_printf ("t%u", i);
      guint32 task = tw_trace_add_task (trace, id, id, i, i);

      g_assert_cmpuint (task, ==, i);
    }
  return tw_trace_get_n_tasks (trace);
}

static guint32
parse_task (const char *word)
{
  guint64 value;

  if (g_str_equal (word, "-"))
    return TW_TASK_NONE;
  if (!g_ascii_string_to_unsigned (word, 10, 0, G_MAXUINT32 - 1, &value, NULL))
    g_error ("trace script: “%s” is no task index", word);
  return (guint32) value;
}

/**
 * tw_test_trace_from_script:
 * @script: one event per line (or per ';'): `TIME NAME TASK [ARG]`
 *
 * Builds a small sealed trace for hand-checked tests. TIME is in ns; NAME is the raw
 * type name, written `NAME/KIND` (KIND a canonical kind name) the first time to give it
 * a kind (default: other); TASK and ARG are task indexes or `-` for none (ARG defaults
 * to 0 and is stored as given). Tasks "t0", "t1", … are created up to the largest
 * index named. Rows may go back in time: sealing sorts them stably, like a reader.
 *
 * Returns: (transfer full): the trace
 */
TwTrace *
tw_test_trace_from_script (const char *script)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_auto(GStrv) lines = g_strsplit_set (script, ";\n", -1);
  g_autoptr(GError) error = NULL;

  for (guint l = 0; lines[l]; l++)
    {
      g_auto(GStrv) words = NULL;
      g_auto(GStrv) name_kind = NULL;
      guint64 time;
      guint16 type;
      guint32 task, arg = 0;
      guint n;

      g_strstrip (lines[l]);
      if (lines[l][0] == '\0')
        continue;
      words = g_strsplit_set (lines[l], " \t", -1);
      n = 0;
      for (guint w = 0; words[w]; w++)
        if (words[w][0] != '\0')
          words[n++] = words[w];
        else
          g_free (words[w]);
      words[n] = NULL;
      if (n < 3 || n > 4)
        g_error ("trace script line “%s”: expected TIME NAME TASK [ARG]", lines[l]);
      if (!g_ascii_string_to_unsigned (words[0], 10, 0, G_MAXUINT64, &time, NULL))
        g_error ("trace script line “%s”: bad time", lines[l]);

      name_kind = g_strsplit (words[1], "/", 2);
      type = tw_trace_lookup_event_type (trace, name_kind[0]);
      if (type == TW_TYPE_NONE)
        {
          TwEventKind kind = TW_EVENT_KIND_OTHER;

          if (name_kind[1] && !tw_event_kind_from_string (name_kind[1], &kind))
            g_error ("trace script line “%s”: unknown kind", lines[l]);
          type = tw_trace_add_event_type (trace, name_kind[0], NULL, kind, NULL, 0, &error);
          g_assert_no_error (error);
        }

      task = parse_task (words[2]);
      if (n == 4)
        arg = parse_task (words[3]);
      if (task != TW_TASK_NONE)
        tw_test_ensure_tasks (trace, task + 1);
      if (n == 4 && arg != TW_TASK_NONE)
        tw_test_ensure_tasks (trace, arg + 1);
      tw_trace_append (trace, time, 0, type, task, arg, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, &error));
  g_assert_no_error (error);
  return g_steal_pointer (&trace);
}

/**
 * tw_test_add_kind_types:
 * @types: (out): the new types: "switch" (with prev_state), "wakeup", "irq_entry",
 *   "irq_exit", "softirq_entry", "softirq_exit", of the canonical kinds of their names
 */
void
tw_test_add_kind_types (TwTrace         *trace,
                        TwTestKindTypes *types)
{
  types->sw = tw_test_add_switch_type (trace);
  types->wake = tw_test_add_simple_type (trace, "wakeup", TW_EVENT_KIND_WAKEUP);
  types->irq_in = tw_test_add_simple_type (trace, "irq_entry", TW_EVENT_KIND_IRQ_ENTRY);
  types->irq_out = tw_test_add_simple_type (trace, "irq_exit", TW_EVENT_KIND_IRQ_EXIT);
  types->soft_in = tw_test_add_simple_type (trace, "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY);
  types->soft_out = tw_test_add_simple_type (trace, "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT);
}

/**
 * tw_test_run_cli:
 * @args: (array zero-terminated=1): arguments after the program name
 * @out: (out) (transfer full): its standard output
 * @err: (out) (transfer full): its standard error
 * @status: (out): its exit status (-1 when it did not exit normally)
 *
 * Runs the tracewb-cli named by $TW_CLI (tests/meson.build sets it).
 *
 * Returns: %FALSE when $TW_CLI is unset or the program could not be started
 */
gboolean
tw_test_run_cli (const char *const  *args,
                 char              **out,
                 char              **err,
                 int                *status)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  *out = NULL;
  *err = NULL;
  *status = -1;
  if (cli == NULL)
    return FALSE;
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                     out, err, &wait_status, &error))
    return FALSE;
  *status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : -1;
  return TRUE;
}

/* As tw_test_run_cli(), for tests that cannot go on without the program. */
void
tw_test_run_cli_or_fail (const char *const  *args,
                         char              **out,
                         char              **err,
                         int                *status)
{
  if (!tw_test_run_cli (args, out, err, status))
    g_error ("cannot run tracewb-cli: is TW_CLI set?");
}

/**
 * tw_test_use_temp_sensor_dir:
 *
 * A fresh sensor directory for one test (not created yet: the sensor library creates it
 * 0700), exported as `TRACEWB_SENSOR_DIR`.
 *
 * Returns: (transfer full): its path, for tw_test_remove_sensor_dir()
 */
char *
tw_test_use_temp_sensor_dir (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *parent = g_dir_make_tmp ("tw-sensors-XXXXXX", &error);
  char *dir;

  g_assert_no_error (error);
  dir = g_build_filename (parent, "sensors", NULL);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  return dir;
}

/**
 * tw_test_remove_sensor_dir:
 * @dir: (transfer full): from tw_test_use_temp_sensor_dir()
 *
 * Removes the directory, its files and its temporary parent.
 */
void
tw_test_remove_sensor_dir (char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *parent = g_path_get_dirname (dir);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_rmdir (parent);
  g_free (dir);
}

/**
 * tw_test_run_tool:
 * @argv: (array zero-terminated=1): a reference tool and its arguments, found in PATH
 * @status: (out) (optional): its wait status
 *
 * Runs a reference tool (trace-cmd, babeltrace2) to compare against.
 *
 * Returns: (transfer full) (nullable): its standard output, or %NULL when the tool is
 *   not installed (the caller skips with g_test_skip)
 */
char *
tw_test_run_tool (const char *const *argv,
                  int               *status)
{
  g_autofree char *found = g_find_program_in_path (argv[0]);
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int wait_status = 0;

  if (found == NULL)
    return NULL;
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &wait_status, &error))
    g_error ("running %s: %s", argv[0], error->message);
  if (status)
    *status = wait_status;
  return out;
}

/**
 * tw_test_run_babeltrace2:
 * @argv: (array zero-terminated=1): `babeltrace2`, the trace, options
 * @n_lines: (out) (optional): lines it printed
 *
 * Runs babeltrace2 on a trace the test wrote, which it must read (exit status 0).
 *
 * Returns: (transfer full) (nullable): what it printed, or %NULL, with a test message,
 *   when babeltrace2 is not installed (the test checks the rest without it)
 */
char *
tw_test_run_babeltrace2 (const char *const *argv,
                         guint64           *n_lines)
{
  char *out;
  int status = 0;

  if ((out = tw_test_run_tool (argv, &status)) == NULL)
    {
      g_test_message ("babeltrace2 is not installed: its reading of %s is not checked", argv[1]);
      return NULL;
    }
  g_assert_cmpint (status, ==, 0);
  if (n_lines)
    {
      *n_lines = 0;
      for (const char *p = out; *p; p++)
        *n_lines += *p == '\n';
    }
  return out;
}

/**
 * tw_test_add_gtop_type:
 * @memory: %TRUE for `gtop_memory`, %FALSE for `gtop_cpu_load`
 *
 * Returns: a type with the fields the libgtop sampler (ingest/tw-live-gtop.c) gives it
 */
guint16
tw_test_add_gtop_type (TwTrace  *trace,
                       gboolean  memory)
{
  g_autoptr(GError) error = NULL;
  guint16 type = tw_gtop_add_type (trace, memory ? TW_COUNTER_MEMORY : TW_COUNTER_CPU_LOAD,
                                   &error);

  g_assert_no_error (error);
  return type;
}

/**
 * tw_test_append_gtop_sample:
 * @value: load_pct of a `gtop_cpu_load` row, `used` bytes of a `gtop_memory` row
 * @total: `total` bytes of a memory row (ignored for load)
 *
 * Appends (and publishes) one sampler row, as the live monitor would.
 */
void
tw_test_append_gtop_sample (TwTrace *trace,
                            guint16  type,
                            guint64  time_ns,
                            guint16  cpu,
                            guint32  task,
                            double   value,
                            guint64  total)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);
  guint8 payload[64] = { 0 };
  gboolean memory = g_str_equal (t->name, "gtop_memory");
  TwValue v;

  g_assert_cmpuint (t->payload_size, <=, sizeof payload);
  if (memory)
    {
      v = (TwValue) { .type = TW_FIELD_U64, .u = total };
      tw_event_type_set_field (t, payload, (guint) tw_event_type_lookup_field (t, "total"), &v);
      v = (TwValue) { .type = TW_FIELD_U64, .u = (guint64) value };
      tw_event_type_set_field (t, payload, (guint) tw_event_type_lookup_field (t, "used"), &v);
    }
  else
    {
      v = (TwValue) { .type = TW_FIELD_F64, .f = value };
      tw_event_type_set_field (t, payload, (guint) tw_event_type_lookup_field (t, "load_pct"), &v);
    }
  tw_trace_append (trace, time_ns, cpu, type, task, 0, payload);
}

#define SCHEDULE_MAX_DEPTH 4

typedef struct {
  guint32 running;
  guint   depth;
  guint32 number[SCHEDULE_MAX_DEPTH];
  gboolean soft[SCHEDULE_MAX_DEPTH];
} ScheduleCpu;

struct _TwTestSchedule {
  TwTrace         *trace;
  TwTestKindTypes  types;
  guint16          user;
  guint16          mutex;
  guint            n_cpus;
  guint            n_tasks;
  guint32          first_task;   /* ordinary tasks are first_task .. first_task + n_tasks - 1 */
  guint32         *idle;         /* per CPU */
  gint            *on_cpu;       /* per ordinary task, -1 when not running */
  ScheduleCpu     *cpus;
  guint32          states[3];    /* interned prev_state strings */
  guint64          rng;
  guint64          time;
  guint64          n_written;
};

static guint64
schedule_next (TwTestSchedule *s)
{
  /* xorshift64*: fast and the same on every machine */
  s->rng ^= s->rng >> 12;
  s->rng ^= s->rng << 25;
  s->rng ^= s->rng >> 27;
  return (s->rng * G_GUINT64_CONSTANT (2685821657736338717)) >> 11;
}

/**
 * tw_test_schedule_new:
 * @n_cpus: CPUs, each with its idle task "swapper/N" (flagged idle)
 * @n_tasks: ordinary tasks "task-N", four threads per process
 * @seed: the same seed writes the same events
 *
 * Adds the types and tasks of a simulated multi-CPU kernel to @trace; then
 * tw_test_schedule_append() writes its events, in time order, in as many pieces as a
 * test wants (a live trace). Events: context switches with prev_state, wakeups, hard
 * and soft interrupts nested up to four deep with a few exits lost, user and mutex
 * events; the pace changes every few thousand events so that density varies a
 * thousandfold along the trace.
 *
 * Returns: (transfer full): the simulation
 */
TwTestSchedule *
tw_test_schedule_new (TwTrace *trace,
                      guint    n_cpus,
                      guint    n_tasks,
                      guint32  seed)
{
  TwTestSchedule *s = g_new0 (TwTestSchedule, 1);

  g_assert_cmpuint (n_cpus, >, 0);
  g_assert_cmpuint (n_tasks, >, 0);

  s->trace = g_object_ref (trace);
  s->n_cpus = n_cpus;
  s->n_tasks = n_tasks;
  s->rng = G_GUINT64_CONSTANT (0x9E3779B97F4A7C15) ^ seed;
  tw_test_add_kind_types (trace, &s->types);
  s->user = tw_test_add_simple_type (trace, "user", TW_EVENT_KIND_USER);
  s->mutex = tw_test_add_simple_type (trace, "mutex_lock", TW_EVENT_KIND_MUTEX_LOCK);
  s->states[0] = tw_trace_intern_task_state (trace, "R", TW_TASK_STATE_READY);
  s->states[1] = tw_trace_intern_task_state (trace, "S", TW_TASK_STATE_BLOCKED);
  s->states[2] = tw_trace_intern_task_state (trace, "D", TW_TASK_STATE_BLOCKED);

  s->idle = g_new (guint32, n_cpus);
  s->cpus = g_new0 (ScheduleCpu, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    {
      g_autofree char *id = g_strdup_printf ("0/%u", c);
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);

      s->idle[c] = tw_trace_add_task (trace, id, name, 0, 0);
      tw_trace_set_task_flags (trace, s->idle[c], TW_TASK_FLAG_IDLE);
      s->cpus[c].running = s->idle[c];
    }
  s->on_cpu = g_new (gint, n_tasks);
  for (guint k = 0; k < n_tasks; k++)
    {
      g_autofree char *id = g_strdup_printf ("%u", 100 + k);
      g_autofree char *name = g_strdup_printf ("task-%u", k);
      guint32 task = tw_trace_add_task (trace, id, name, 100 + k / 4 * 4, 100 + k);

      if (k == 0)
        s->first_task = task;
      s->on_cpu[k] = -1;
    }
  return s;
}

static void
schedule_switch (TwTestSchedule *s,
                 guint           cpu,
                 guint64         r)
{
  ScheduleCpu *sc = &s->cpus[cpu];
  guint k = (guint) (r % (s->n_tasks + 1));
  guint32 next = s->idle[cpu];
  guint32 prev = sc->running;
  const TwEventType *t = tw_trace_get_event_type (s->trace, s->types.sw);
  guint8 payload[16] = { 0 };
  TwValue v = { .type = TW_FIELD_STRING, .str = s->states[(r >> 20) % 3] };

  if (k < s->n_tasks && s->on_cpu[k] < 0)
    next = s->first_task + k;
  if (prev != s->idle[cpu])
    s->on_cpu[prev - s->first_task] = -1;
  if (next != s->idle[cpu])
    s->on_cpu[next - s->first_task] = (gint) cpu;
  sc->running = next;

  tw_event_type_set_field (t, payload, 0, &v);
  tw_trace_append (s->trace, s->time, cpu, s->types.sw, prev, next, payload);
}

static void
schedule_irq (TwTestSchedule *s,
              guint           cpu,
              guint64         r)
{
  ScheduleCpu *sc = &s->cpus[cpu];

  if (sc->depth < SCHEDULE_MAX_DEPTH && (sc->depth == 0 || (r & 3) == 0))
    {
      gboolean soft = (r >> 8) % 3 == 0;

      sc->number[sc->depth] = (guint32) ((r >> 12) % 16);
      sc->soft[sc->depth] = soft;
      tw_trace_append (s->trace, s->time, cpu, soft ? s->types.soft_in : s->types.irq_in,
                       sc->running, sc->number[sc->depth], NULL);
      sc->depth++;
      return;
    }
  if (sc->depth == 0)
    return;

  /* now and then the innermost exit is lost: the one around it exits */
  if (sc->depth >= 2 && (r >> 16) % 40 == 0)
    sc->depth--;
  sc->depth--;
  tw_trace_append (s->trace, s->time, cpu,
                   sc->soft[sc->depth] ? s->types.soft_out : s->types.irq_out,
                   sc->running, sc->number[sc->depth], NULL);
}

/**
 * tw_test_schedule_append:
 *
 * Appends @n_events more events of the simulation to its trace (not sealed).
 */
void
tw_test_schedule_append (TwTestSchedule *s,
                         guint64         n_events)
{
  static const guint64 paces[] = { 20, 300, 4000, 60000 };

  for (guint64 i = 0; i < n_events; i++, s->n_written++)
    {
      guint64 r = schedule_next (s);
      guint64 pace = paces[(s->n_written >> 12) * 2654435761u % G_N_ELEMENTS (paces)];
      guint cpu = (guint) ((r >> 32) % s->n_cpus);
      guint action = (guint) ((r >> 40) % 100);

      s->time += 1 + r % pace;
      if (action < 35)
        schedule_switch (s, cpu, r);
      else if (action < 50)
        tw_trace_append (s->trace, s->time, cpu, s->types.wake, s->cpus[cpu].running,
                         s->first_task + (guint32) ((r >> 8) % s->n_tasks), NULL);
      else if (action < 85)
        schedule_irq (s, cpu, r);
      else if (action < 95)
        tw_trace_append (s->trace, s->time, cpu, s->user, s->cpus[cpu].running,
                         (guint32) (r % 4), NULL);
      else
        tw_trace_append (s->trace, s->time, cpu, s->mutex, s->cpus[cpu].running,
                         (guint32) (r % 8), NULL);
    }
}

void
tw_test_schedule_free (TwTestSchedule *s)
{
  g_object_unref (s->trace);
  g_free (s->idle);
  g_free (s->on_cpu);
  g_free (s->cpus);
  g_free (s);
}
