/* test-switch-repairs.c: the repairs `tracewb-cli info` counts are the state model's
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

#include <tw-ingest.h>

/* Asserts tw_switch_repairs_count() and a full state model agree on every CPU; returns
 * the total. */
static guint64
check_against_model (TwTrace    *trace,
                     const char *what)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  g_autoptr(GArray) lean = tw_switch_repairs_count (trace);
  guint n_cpus;
  guint64 total = 0;

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  n_cpus = MAX (tw_state_model_get_n_cpus (model), lean->len);
  for (guint c = 0; c < n_cpus; c++)
    {
      guint64 want = tw_state_model_get_cpu_repairs (model, c);
      guint64 got = c < lean->len ? g_array_index (lean, guint64, c) : 0;

      if (got != want)
        g_error ("%s: cpu %u: %" G_GUINT64_FORMAT " repairs counted, the state model made %"
                 G_GUINT64_FORMAT, what, c, got, want);
      total += want;
    }
  return total;
}

/* A switch whose prev_state names @state, which may be any state (a reader could say
 * RUNNING or DEAD), or none at all */
static void
append_switch (TwTrace     *trace,
               guint16      type,
               guint64      t,
               guint16      cpu,
               guint32      prev,
               guint32      next,
               const char  *letters,
               TwTaskState  state)
{
  const TwEventType *info = tw_trace_get_event_type (trace, type);
  guint8 payload[16] = { 0 };

  if (letters != NULL)
    {
      TwValue v = { .type = TW_FIELD_STRING,
                    .str = tw_trace_intern_task_state (trace, letters, state) };

      tw_event_type_set_field (info, payload, 0, &v);
    }
  tw_trace_append (trace, t, cpu, type, prev, next, payload);
}

/* Random kernel-like traces, mostly consistent, with each way a recording goes wrong: a
 * lost switch-out (stale runs), a task switched in on two CPUs (double runs), switches
 * on no CPU, tasks outside the task table, exits of running tasks, wakeups of running
 * tasks, prev_states that name running and dead, idle tasks on several CPUs. */
static TwTrace *
new_random_trace (guint32 seed,
                  guint   n_events)
{
  static const struct { const char *letters; TwTaskState state; } prev_states[] = {
    { "R", TW_TASK_STATE_READY }, { "S", TW_TASK_STATE_BLOCKED }, { "D", TW_TASK_STATE_BLOCKED },
    { "X", TW_TASK_STATE_DEAD }, { "running", TW_TASK_STATE_RUNNING }, { NULL, 0 },
  };
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  TwTrace *trace = tw_trace_new ();
  guint16 sw = tw_test_add_switch_type (trace);
  guint16 wake = tw_test_add_simple_type (trace, "wakeup", TW_EVENT_KIND_WAKEUP);
  guint16 exit = tw_test_add_simple_type (trace, "exit", TW_EVENT_KIND_TASK_EXIT);
  guint16 other = tw_test_add_simple_type (trace, "other", TW_EVENT_KIND_OTHER);
  guint16 lost = tw_lost_events_add_type (trace, "lost_events", NULL);
  guint n_cpus = g_rand_int_range (rand, 1, 5);
  guint n_tasks = g_rand_int_range (rand, 2, 12);
  guint32 running[4];
  guint64 t = 1000;

  for (guint c = 0; c < n_cpus; c++)
    {
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);
      g_autofree char *key = g_strdup_printf ("0/%u", c);

      running[c] = tw_trace_add_task (trace, key, name, 0, 0);
      tw_trace_set_task_flags (trace, running[c], TW_TASK_FLAG_IDLE);
    }
  for (guint k = 0; k < n_tasks; k++)
    {
      g_autofree char *name = g_strdup_printf ("task%u", k);
      g_autofree char *key = g_strdup_printf ("%u", k + 1);

      tw_trace_add_task (trace, key, name, k + 1, k + 1);
    }

  for (guint i = 0; i < n_events; i++)
    {
      guint16 cpu = g_rand_int_range (rand, 0, 50) == 0 ? TW_CPU_NONE
                                                        : (guint16) g_rand_int_range (rand, 0, n_cpus);
      guint32 any = g_rand_int_range (rand, 0, 30) == 0 ? n_cpus + n_tasks + 3
                  : g_rand_int_range (rand, 0, 40) == 0 ? TW_TASK_NONE
                  : (guint32) g_rand_int_range (rand, 0, n_cpus + n_tasks);
      guint dice = g_rand_int_range (rand, 0, 100);

      t += g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 1, 500);
      if (dice < 60)
        {
          guint s = g_rand_int_range (rand, 0, G_N_ELEMENTS (prev_states));
          /* mostly the task the CPU runs, as a consistent trace says */
          guint32 prev = cpu == TW_CPU_NONE || g_rand_int_range (rand, 0, 8) == 0
                         ? any : running[cpu];

          append_switch (trace, sw, t, cpu, prev, any, prev_states[s].letters, prev_states[s].state);
          if (cpu != TW_CPU_NONE)
            running[cpu] = any;
        }
      else if (dice < 75)
        tw_trace_append (trace, t, cpu, wake, TW_TASK_NONE, any, NULL);
      else if (dice < 80)
        tw_trace_append (trace, t, cpu, exit, TW_TASK_NONE, any, NULL);
      else if (dice < 85)
        tw_lost_events_append (trace, lost, t, cpu == TW_CPU_NONE ? 0 : cpu,
                               g_rand_int_range (rand, 0, 10), 0, TW_TIME_NONE);
      else
        tw_trace_append (trace, t, cpu, other, any, 0, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static void
test_random_traces (void)
{
  guint64 total = 0;
  guint with_repairs = 0;

  for (guint32 seed = 1; seed <= 300; seed++)
    {
      g_autoptr(TwTrace) trace = new_random_trace (seed, 50 + seed * 7);
      g_autofree char *what = g_strdup_printf ("random trace %u", seed);
      guint64 n = check_against_model (trace, what);

      total += n;
      with_repairs += n > 0;
    }
  /* the traces exercise the repairs, not only consistent switching */
  g_assert_cmpuint (with_repairs, >, 200);
  g_test_message ("%" G_GUINT64_FORMAT " repairs in %u of 300 random traces", total, with_repairs);
}

/* The traces a user opens: every one a reader takes under tests/fixtures and
 * ../shared/traces (CTF as trace folders and as session folders), read as tracewb-cli
 * reads them. */
static void
collect_traces (const char *dir,
                GPtrArray  *paths)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  const char *name;

  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *parent = g_path_get_dirname (dir);

      g_ptr_array_add (paths, g_strdup (dir));
      if (!g_ptr_array_find_with_equal_func (paths, parent, g_str_equal, NULL))
        g_ptr_array_add (paths, g_steal_pointer (&parent));
      return;
    }
  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        collect_traces (child, paths);
      else if (!g_str_has_suffix (name, ".md"))
        g_ptr_array_add (paths, g_steal_pointer (&child));
    }
}

static void
test_real_traces (void)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *fixtures = tw_test_dup_fixture_path ("");
  g_autofree char *shared = tw_test_dup_shared_trace_path ("");
  guint opened = 0, with_repairs = 0;

  collect_traces (fixtures, paths);
  if (shared != NULL)
    collect_traces (shared, paths);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(TwTrace) trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS,
                                                                    NULL, NULL, NULL, &error);

      if (trace == NULL)
        continue;
      opened++;
      with_repairs += check_against_model (trace, path) > 0;
    }
  g_test_message ("%u traces opened of %u files and folders, %u with repairs", opened,
                  paths->len, with_repairs);
  /* tests/fixtures alone has traces with repairs: the comparison is not vacuous */
  g_assert_cmpuint (opened, >=, 10);
  g_assert_cmpuint (with_repairs, >=, 3);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/switch-repairs/random-traces", test_random_traces);
  g_test_add_func ("/switch-repairs/fixtures-and-shared-traces", test_real_traces);
  return g_test_run ();
}
