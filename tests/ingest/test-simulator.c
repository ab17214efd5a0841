/* test-simulator.c: the workload simulator against its own ground truth, read back by
 * the S.Ha.R.K. reader; the shipped demo trace against the command that made it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-test-utils.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

/* The command recorded in docs/shark-format.md and data/demo/README.md. */
#define DEMO_ARGS "simulate --events 12000 --seed 5 --tasks 4 --utilization 0.75 --overrun 0.03"

/* A directory of this process: parallel test runs (two builds) must not share files. */
static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static TwTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  TwTrace *trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static void
check_against_truth (TwTrace                *trace,
                     const TwSimulatorTruth *truth)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autofree guint64 *counts = g_new0 (guint64, tw_trace_get_n_event_types (trace));
  guint16 activate = tw_trace_lookup_event_type (trace, "task_activate");
  guint16 miss = tw_trace_lookup_event_type (trace, "task_deadline_miss");
  guint16 job_end = tw_trace_lookup_event_type (trace, "user_event_1");
  g_autofree guint64 *released = g_new0 (guint64, tw_trace_get_n_tasks (trace));
  g_autofree guint64 *missed = g_new0 (guint64, tw_trace_get_n_tasks (trace));
  g_autofree guint64 *completed = g_new0 (guint64, tw_trace_get_n_tasks (trace));
  guint n_types = 0;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, truth->n_events);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, truth->first_ns);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, truth->last_ns);
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), ==, truth->n_contexts);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 1);

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;

      tw_trace_get_event (trace, i, &ev);
      counts[ev.type]++;
      if (ev.type == activate)
        released[ev.arg]++;
      else if (ev.type == miss)
        missed[ev.task]++;
      else if (ev.type == job_end && ev.task != TW_TASK_NONE)
        completed[ev.task]++;
    }

  for (guint code = 0; code < 256; code++)
    {
      guint16 type;

      if (truth->type_counts[code] == 0)
        continue;
      n_types++;
      type = tw_trace_lookup_event_type (trace, tw_shark_code_info (code)->name);
      g_assert_cmpuint (type, !=, TW_TYPE_NONE);
      g_assert_cmpuint (counts[type], ==, truth->type_counts[code]);
    }
  g_assert_cmpuint (n_types, ==, tw_trace_get_n_event_types (trace));

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  for (guint i = 0; i < truth->n_tasks; i++)
    {
      const TwSimulatorTaskTruth *t = &truth->tasks[i];
      g_autofree char *id = g_strdup_printf ("%u", t->ctx);
      guint32 task = tw_trace_lookup_task (trace, id);

      if (task == TW_TASK_NONE)
        {
          /* Cut before the task showed up at all. */
          g_assert_cmpuint (t->cpu_time_ns + t->jobs_released, ==, 0);
          continue;
        }
      g_assert_cmpuint (tw_state_model_get_task_cpu_time (model, task), ==, t->cpu_time_ns);
      g_assert_cmpuint (released[task], ==, t->jobs_released);
      g_assert_cmpuint (missed[task], ==, t->deadline_misses);
      g_assert_cmpuint (completed[task], ==, t->jobs_completed);
      g_assert_cmpint (tw_trace_get_task (trace, task)->pid, ==, t->pid);
    }
}

static void
test_determinism (void)
{
  TwSimulatorOptions options;
  g_autoptr(GBytes) a = NULL;
  g_autoptr(GBytes) b = NULL;
  g_autoptr(GBytes) c = NULL;
  g_autoptr(GError) error = NULL;

  tw_simulator_options_init (&options);
  options.max_events = 20000;
  options.seed = 42;
  a = tw_simulator_generate (&options, NULL, &error);
  g_assert_no_error (error);
  b = tw_simulator_generate (&options, NULL, &error);
  g_assert_no_error (error);
  options.seed = 43;
  c = tw_simulator_generate (&options, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (g_bytes_get_size (a), ==, 20000 * 16);
  g_assert_true (g_bytes_equal (a, b));
  g_assert_false (g_bytes_equal (a, c));
}

static void
run_truth_case (guint64 events,
                guint   n_tasks,
                double  utilization,
                double  overrun,
                guint64 seed)
{
  TwSimulatorOptions options;
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *path = tmp_path ("sim.shark");

  tw_simulator_options_init (&options);
  options.max_events = events;
  options.n_tasks = n_tasks;
  options.utilization = utilization;
  options.overrun_probability = overrun;
  options.seed = seed;
  g_assert_true (tw_simulator_write_file (&options, path, &truth, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (truth->n_events, ==, events);
  g_assert_cmpuint (truth->type_counts[0x30], ==, 1); /* trace_stop, last */

  trace = load (path);
  g_unlink (path);
  check_against_truth (trace, truth);
}

static void
test_truth_small (void)
{
  run_truth_case (1000, 4, 0.7, 0.0, 1);
  run_truth_case (1, 4, 0.7, 0.0, 1);
  run_truth_case (7, 3, 0.5, 0.0, 2);
}

static void
test_truth_overload (void)
{
  TwSimulatorOptions options;
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autoptr(GBytes) bytes = NULL;

  run_truth_case (300000, 6, 0.95, 0.05, 9);
  run_truth_case (200000, 2, 1.3, 0.0, 3);

  /* Overload really misses deadlines, and mutex users really block. */
  tw_simulator_options_init (&options);
  options.max_events = 200000;
  options.utilization = 1.3;
  options.n_tasks = 2;
  options.seed = 3;
  bytes = tw_simulator_generate (&options, &truth, NULL);
  g_assert_cmpuint (truth->deadline_misses, >, 0);
  g_assert_cmpuint (truth->deadline_misses, ==, truth->type_counts[0xB2]);
}

static void
test_truth_large (void)
{
  if (!g_test_slow ())
    {
      g_test_skip ("a 5 M-event trace: run with -m slow");
      return;
    }
  run_truth_case (5000000, 8, 0.8, 0.01, 77);
}

static void
test_bad_options (void)
{
  TwSimulatorOptions options;
  g_autoptr(GError) error = NULL;

  tw_simulator_options_init (&options);
  options.n_tasks = 0;
  g_assert_null (tw_simulator_generate (&options, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  tw_simulator_options_init (&options);
  g_assert_false (tw_simulator_write_file (&options, "/nonexistent-dir/x.shark", NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent-dir/x.shark"));
}

static char *
run_cli (const char *args,
         int        *status)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autofree char *command = NULL;
  g_autoptr(GError) error = NULL;
  char *out = NULL;

  g_assert_nonnull (cli);
  command = g_strdup_printf ("%s %s", cli, args);
  g_assert_true (g_spawn_command_line_sync (command, &out, NULL, status, &error));
  g_assert_no_error (error);
  return out;
}

static gint64
member_int (JsonObject *object,
            const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  return json_object_get_int_member (object, name);
}

static void
test_cli_demo (void)
{
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autofree char *out = tmp_path ("demo.shark");
  g_autofree char *truth_path = tmp_path ("demo.json");
  g_autofree char *args = g_strdup_printf (DEMO_ARGS " -o %s --truth %s", out, truth_path);
  g_autofree char *info_args = g_strdup_printf ("info --json %s", out);
  g_autofree char *stdout_text = NULL;
  g_autofree char *info_text = NULL;
  g_autofree char *shipped = NULL;
  g_autofree char *made = NULL;
  g_autoptr(JsonParser) truth_parser = json_parser_new ();
  g_autoptr(JsonParser) info_parser = json_parser_new ();
  JsonObject *truth;
  JsonObject *info;
  JsonObject *types;
  JsonObject *info_types;
  g_autoptr(GList) names = NULL;
  gsize shipped_len, made_len;
  int status = -1;

  stdout_text = run_cli (args, &status);
  g_assert_cmpint (status, ==, 0);

  /* The shipped demo is exactly what the documented command writes. */
  g_assert_true (g_file_get_contents (demo, &shipped, &shipped_len, NULL));
  g_assert_true (g_file_get_contents (out, &made, &made_len, NULL));
  g_assert_cmpuint (made_len, ==, 12000 * 16);
  g_assert_cmpmem (made, made_len, shipped, shipped_len);

  /* info --json agrees with the ground truth the simulator wrote. */
  info_text = run_cli (info_args, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_file (truth_parser, truth_path, NULL));
  g_assert_true (json_parser_load_from_data (info_parser, info_text, -1, NULL));
  truth = json_node_get_object (json_parser_get_root (truth_parser));
  info = json_node_get_object (json_parser_get_root (info_parser));
  g_assert_cmpstr (json_object_get_string_member (info, "format"), ==, "shark");
  g_assert_cmpint (member_int (info, "events"), ==, member_int (truth, "events"));
  g_assert_cmpint (member_int (info, "tasks"), ==, member_int (truth, "tasks"));
  g_assert_cmpint (member_int (info, "first_ns"), ==, member_int (truth, "first_ns"));
  g_assert_cmpint (member_int (info, "last_ns"), ==, member_int (truth, "last_ns"));
  g_assert_cmpint (member_int (info, "duration_ns"), ==, member_int (truth, "duration_ns"));
  g_assert_cmpint (member_int (truth, "deadline_misses"), >=, 1);
  types = json_object_get_object_member (truth, "types");
  info_types = json_object_get_object_member (info, "types");
  g_assert_cmpuint (json_object_get_size (types), ==, json_object_get_size (info_types));
  names = json_object_get_members (types);
  for (const GList *l = names; l; l = l->next)
    g_assert_cmpint (member_int (info_types, l->data), ==, member_int (types, l->data));
  g_assert_true (json_object_has_member (types, "set_mutex_wait"));
  g_assert_true (json_object_has_member (types, "interrupt_start"));

  g_unlink (out);
  g_unlink (truth_path);

  /* Bad options: a clear message and a non-zero status. */
  g_free (run_cli ("simulate --events 10", &status));
  g_assert_cmpint (status, !=, 0);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tmp_dir = g_dir_make_tmp ("tw-test-simulator-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/tw/ingest/simulator/determinism", test_determinism);
  g_test_add_func ("/tw/ingest/simulator/truth-small", test_truth_small);
  g_test_add_func ("/tw/ingest/simulator/truth-overload", test_truth_overload);
  g_test_add_func ("/tw/ingest/simulator/truth-large", test_truth_large);
  g_test_add_func ("/tw/ingest/simulator/bad-options", test_bad_options);
  g_test_add_func ("/tw/ingest/simulator/cli-demo", test_cli_demo);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
