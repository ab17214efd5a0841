/* bench-automaton-export.c: the Fig. 2 automaton, interpreted vs exported as C
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Over a simulated uniprocessor trace with the Fig. 2 event names (bench-fig2-trace.h),
 * runs fig2-user-metric.json four ways and prints events/s, by wall clock and by
 * thread CPU time (the machine may be shared):
 *   - the interpreter (tw-automaton-interp);
 *   - its exported C module, compiled with the system compiler (-O2) and run by the
 *     host as any plugin (TwEvaluation → tw-plugin), which feeds it whole chunks
 *     through its batch entry (tw_evaluator_module_get_batch) and stores the
 *     measurements in a table, as `tracewb-cli eval --plugin` does;
 *   - the same module's batch entry fed the chunks directly, measurements only
 *     counted: the module's own cost;
 *   - its prepare/commit entries fed directly by a minimal loop over the columns
 *     (the ABI v1 path of modules without a batch entry).
 * All must give the same measurements; it says so.
 *
 * usage: bench-automaton-export [N_EVENTS (default 100000000)] [N_TASKS (default 16)]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <tw-evaluators.h>

#include "bench-fig2-trace.h"

typedef struct {
  double wall;
  double cpu;
} Clock;

static Clock
now (void)
{
  struct timespec ts;
  Clock c;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  c.cpu = ts.tv_sec + ts.tv_nsec / 1e9;
  c.wall = g_get_monotonic_time () / 1e6;
  return c;
}

static void
print_rate (const char *what,
            guint64     n_events,
            Clock       t0,
            Clock       t1,
            double      cpu_mhz)
{
  double cpu = t1.cpu - t0.cpu, wall = t1.wall - t0.wall;

  printf ("%-38s %8.1f M events/s CPU  %8.1f M events/s wall  (%.2f ns/event",
          what, n_events / cpu / 1e6, n_events / wall / 1e6, cpu * 1e9 / n_events);
  if (cpu_mhz > 0)
    printf (", ~%.0f cycles", cpu * 1e9 / n_events * cpu_mhz / 1e3);
  printf (")\n");
}

static double
read_cpu_mhz (void)
{
  g_autofree char *text = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/cpuinfo", &text, NULL, NULL) ||
      !(p = strstr (text, "cpu MHz")) || !(p = strchr (p, ':')))
    return 0;
  return g_ascii_strtod (p + 1, NULL);
}

/* ------------------------------------------------ the module fed directly */

typedef struct {
  TwEvaluatorHost host;
  guint64         n;
  guint64         sum;   /* of lengths, to compare */
} DirectHost;

static void
direct_emit (const TwEvaluatorHost        *host,
             const TwEvaluatorMeasurement *m)
{
  DirectHost *h = (DirectHost *) host;

  h->n++;
  h->sum += m->length_ns;
}

static void
run_direct (const TwEvaluatorModule *module,
            TwTrace                 *trace,
            DirectHost              *h)
{
  g_autofree guint32 *ids = g_new (guint32, module->n_event_names + 1);
  g_autofree guint32 *type_id = NULL;
  guint n_types = tw_trace_get_n_event_types (trace);
  void *context = module->context_new ();
  TwEvaluatorEvent ev = { 0 };

  memset (h, 0, sizeof *h);
  h->host.struct_size = sizeof (TwEvaluatorHost);
  h->host.abi_version = TW_EVALUATOR_ABI_VERSION;
  h->host.emit_measurement = direct_emit;
  /* what the host does at bind: a type gets the id of the first name it matches */
  type_id = g_new (guint32, n_types);
  for (guint i = 0; i < module->n_event_names; i++)
    ids[i] = TW_EVALUATOR_EVENT_ABSENT;
  for (guint t = 0; t < n_types; t++)
    {
      type_id[t] = TW_EVALUATOR_EVENT_OTHER;
      for (guint i = 0; i < module->n_event_names; i++)
        if (tw_update_selector_matches (module->event_names[i], tw_trace_get_event_type (trace, t)))
          {
            type_id[t] = ids[i] = i;
            break;
          }
    }
  if (!module->bind (context, &h->host, ids))
    g_error ("the module refused the trace");
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      for (guint i = 0; i < chunk->n; i++)
        {
          ev.event_id = type_id[chunk->type[i]];
          if (ev.event_id == TW_EVALUATOR_EVENT_OTHER && !(module->flags & TW_EVALUATOR_FLAG_ALL_EVENTS))
            continue;
          ev.time_ns = chunk->time[i];
          ev.task = chunk->task[i];
          ev.arg = chunk->arg[i];
          module->commit (context, module->prepare (context, &ev));
        }
    }
  module->finish (context);
  module->context_free (context);
}

static void
direct_emit_many (const TwEvaluatorHost        *host,
                  const TwEvaluatorMeasurement *m,
                  size_t                        n)
{
  DirectHost *h = (DirectHost *) host;

  h->n += n;
  for (size_t i = 0; i < n; i++)
    h->sum += m[i].length_ns;
}

/* The batch entry fed the trace's chunks as they are: the module's own cost. */
static void
run_direct_batch (const TwEvaluatorModule     *module,
                  const TwEvaluatorBatchFuncs *batch_funcs,
                  TwTrace                     *trace,
                  DirectHost                  *h)
{
  g_autofree guint32 *ids = g_new (guint32, module->n_event_names + 1);
  g_autofree guint32 *type_id = NULL;
  guint n_types = tw_trace_get_n_event_types (trace);
  void *context = module->context_new ();
  TwEvaluatorBatch batch = { 0 };

  memset (h, 0, sizeof *h);
  h->host.struct_size = sizeof (TwEvaluatorHost);
  h->host.abi_version = TW_EVALUATOR_ABI_VERSION;
  h->host.emit_measurement = direct_emit;
  type_id = g_new (guint32, n_types);
  for (guint i = 0; i < module->n_event_names; i++)
    ids[i] = TW_EVALUATOR_EVENT_ABSENT;
  for (guint t = 0; t < n_types; t++)
    {
      type_id[t] = module->flags & TW_EVALUATOR_FLAG_ALL_EVENTS ? TW_EVALUATOR_EVENT_OTHER
                                                                : TW_EVALUATOR_EVENT_ABSENT;
      for (guint i = 0; i < module->n_event_names; i++)
        if (tw_update_selector_matches (module->event_names[i], tw_trace_get_event_type (trace, t)))
          {
            type_id[t] = ids[i] = i;
            break;
          }
    }
  if (!module->bind (context, &h->host, ids))
    g_error ("the module refused the trace");
  batch.type_ids = type_id;
  batch.n_types = n_types;
  batch.emit_measurements = direct_emit_many;
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      batch.n_events = chunk->n;
      batch.time_ns = chunk->time;
      batch.task = chunk->task;
      batch.arg = chunk->arg;
      batch.cpu = chunk->cpu;
      batch.type = chunk->type;
      batch_funcs->process (context, &batch);
    }
  module->finish (context);
  module->context_free (context);
}

static char *
build_module (TwAutomaton *automaton,
              char       **dir_out)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = tw_automaton_codegen_generate (automaton, NULL, NULL, &error);
  g_autofree char *dir = g_dir_make_tmp ("bench-automaton-export-XXXXXX", &error);
  g_autofree char *c_path = NULL;
  g_autofree char *so_path = NULL;
  g_autofree char *include = g_strdup_printf ("-I%s/evaluators", TW_SOURCE_DIR);
  g_autofree char *cc = g_find_program_in_path (g_getenv ("CC") ? g_getenv ("CC") : "cc");
  g_autofree char *err = NULL;
  int status = 0;

  if (source == NULL || dir == NULL)
    g_error ("%s", error->message);
  if (cc == NULL)
    return NULL;
  c_path = g_build_filename (dir, "fig2.c", NULL);
  so_path = g_build_filename (dir, "fig2.so", NULL);
  if (!g_file_set_contents (c_path, source, -1, &error))
    g_error ("%s", error->message);
  {
    const char *argv[] = { cc, "-std=c11", "-O2", "-shared", "-fPIC", include, "-o", so_path,
                           c_path, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err,
                       &status, &error) || !g_spawn_check_wait_status (status, NULL))
      g_error ("compiling the exported module failed: %s", err ? err : error->message);
  }
  g_remove (c_path);
  *dir_out = g_steal_pointer (&dir);
  return g_steal_pointer (&so_path);
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_events = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 100000000;
  guint32 n_tasks = argc > 2 ? (guint32) g_ascii_strtoull (argv[2], NULL, 10) : 16;
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(TwPlugin) plugin = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autofree char *so_path = NULL;
  g_autofree char *dir = NULL;
  double cpu_mhz = read_cpu_mhz ();
  DirectHost direct, direct_batch;
  guint64 interp_sum = 0, plugin_sum = 0;
  gsize n_interp;
  Clock t0, t1;

  if (n_events == 0 || n_tasks == 0)
    {
      fprintf (stderr, "usage: %s [N_EVENTS] [N_TASKS]\n", argv[0]);
      return 2;
    }
  automaton = tw_automaton_load (path, &error);
  if (automaton == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  so_path = build_module (automaton, &dir);
  if (so_path == NULL)
    {
      printf ("no C compiler (cc or $CC): the exported module cannot be measured\n");
      return 0;
    }

  trace = build_trace (n_events, n_tasks);
  n_events = tw_trace_get_n_events (trace);
  printf ("trace: %" G_GUINT64_FORMAT " events, %u tasks; Fig. 2 automaton (%s)\n",
          n_events, n_tasks, path);

  interp = tw_automaton_interp_new (automaton, trace, &error);
  g_assert_no_error (error);
  t0 = now ();
  if (!tw_automaton_interp_run (interp, &error))
    g_error ("%s", error->message);
  t1 = now ();
  n_interp = tw_automaton_interp_get_n_measurements (interp);
  for (gsize i = 0; i < n_interp; i++)
    interp_sum += tw_automaton_interp_get_measurement (interp, i)->length_ns;
  print_rate ("interpreter:", n_events, t0, t1, cpu_mhz);
  g_clear_object (&interp);

  plugin = tw_plugin_new_for_path (so_path, &error);
  g_assert_no_error (error);
  t0 = now ();
  table = tw_plugin_evaluate (plugin, trace, NULL, NULL, NULL, NULL, &error);
  t1 = now ();
  g_assert_no_error (error);
  for (gsize i = 0; i < tw_measurement_table_get_n_rows (table); i++)
    plugin_sum += tw_measurement_table_get_row (table, i)->length;
  print_rate ("exported module, host plugin path:", n_events, t0, t1, cpu_mhz);

  if (tw_plugin_get_batch_funcs (plugin) == NULL)
    g_error ("the exported module has no batch entry");
  t0 = now ();
  run_direct_batch (tw_plugin_get_module (plugin), tw_plugin_get_batch_funcs (plugin), trace,
                    &direct_batch);
  t1 = now ();
  print_rate ("exported module, batches directly:", n_events, t0, t1, cpu_mhz);

  t0 = now ();
  run_direct (tw_plugin_get_module (plugin), trace, &direct);
  t1 = now ();
  print_rate ("exported module, per event directly:", n_events, t0, t1, cpu_mhz);

  printf ("measurements: interpreter %zu, plugin %zu, batches %" G_GUINT64_FORMAT ", per event %"
          G_GUINT64_FORMAT "; total length %s\n", n_interp, tw_measurement_table_get_n_rows (table),
          direct_batch.n, direct.n,
          interp_sum == plugin_sum && plugin_sum == direct.sum && plugin_sum == direct_batch.sum &&
          n_interp == direct.n && n_interp == direct_batch.n ? "identical" : "DIFFERS");
  printf ("targets (DESIGN §7, issue 5): interpreter >= 30 M events/s, exported module >= 150 M "
          "events/s; GRTMon: ~400 cycles/element\n");

  g_clear_object (&plugin);
  g_remove (so_path);
  g_rmdir (dir);
  return 0;
}
