/* bench-automaton-export.c: the Fig. 2 automaton, interpreted vs exported as C
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs the paper's Fig. 2 automaton over two 100 M-event simulated traces:
 *   - S.Ha.R.K.: a dump written by the workload simulator (`tracewb-cli simulate`,
 *     the demo trace's generator) read by the S.Ha.R.K. reader, with fig2-shark.json
 *     (Fig. 2 in the events of S.Ha.R.K., data/automata);
 *   - MaRTE: a synthetic uniprocessor trace with the paper's own event names
 *     (bench-fig2-trace.h) in which every step is drawn at random, so that hardly a
 *     branch can be predicted, with fig2-user-metric.json.
 * Each four ways, printing events/s by wall clock and by thread CPU time (the machine
 * may be shared):
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
 * usage: bench-automaton-export [--events N (default 100 M)] [--tasks N (MaRTE trace,
 *        default 16)] [--only shark|marte]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <glib/gstdio.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

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
direct_emit_many (const TwEvaluatorHost        *host,
                  const TwEvaluatorMeasurement *m,
                  size_t                        n)
{
  DirectHost *h = (DirectHost *) host;

  h->n += n;
  for (size_t i = 0; i < n; i++)
    h->sum += m[i].length_ns;
}

/* What the host does at bind: a type gets the id of the first name it matches, the
 * others OTHER when the module takes every event, else ABSENT. Returns the ids by type. */
static guint32 *
bind_direct (const TwEvaluatorModule *module,
             void                    *context,
             TwTrace                 *trace,
             DirectHost              *h)
{
  g_autofree guint32 *ids = g_new (guint32, module->n_event_names + 1);
  guint n_types = tw_trace_get_n_event_types (trace);
  guint32 *type_id = g_new (guint32, n_types);

  memset (h, 0, sizeof *h);
  h->host.struct_size = sizeof (TwEvaluatorHost);
  h->host.abi_version = TW_EVALUATOR_ABI_VERSION;
  h->host.emit_measurement = direct_emit;
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
  return type_id;
}

/* prepare/commit fed by a minimal loop over the columns: the per-event ABI. */
static void
run_direct (const TwEvaluatorModule *module,
            TwTrace                 *trace,
            DirectHost              *h)
{
  void *context = module->context_new ();
  g_autofree guint32 *type_id = bind_direct (module, context, trace, h);
  TwEvaluatorEvent ev = { 0 };

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      for (guint i = 0; i < chunk->n; i++)
        {
          ev.event_id = type_id[chunk->type[i]];
          if (ev.event_id == TW_EVALUATOR_EVENT_ABSENT)
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

/* The batch entry fed the trace's chunks as they are: the module's own cost. */
static void
run_direct_batch (const TwEvaluatorModule     *module,
                  const TwEvaluatorBatchFuncs *batch_funcs,
                  TwTrace                     *trace,
                  DirectHost                  *h)
{
  void *context = module->context_new ();
  g_autofree guint32 *type_id = bind_direct (module, context, trace, h);
  TwEvaluatorBatch batch = { 0 };

  batch.type_ids = type_id;
  batch.n_types = tw_trace_get_n_event_types (trace);
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
  c_path = g_build_filename (dir, "module.c", NULL);
  so_path = g_build_filename (dir, "module.so", NULL);
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

/* What every way reads of an event: its time, type, task and arg. */
static guint64
scan_columns (TwTrace *trace)
{
  guint64 sum = 0;

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      for (guint i = 0; i < chunk->n; i++)
        sum += chunk->time[i] + chunk->type[i] + chunk->task[i] + chunk->arg[i];
    }
  return sum;
}

/* The automaton four ways over @trace; FALSE when they disagree. */
static gboolean
run_scenario (const char *title,
              TwTrace    *trace,
              const char *automaton_file,
              double      cpu_mhz)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata", automaton_file,
                                            NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(TwAutomatonInterp) interp = NULL;
  g_autoptr(TwPlugin) plugin = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autofree char *so_path = NULL;
  g_autofree char *dir = NULL;
  guint64 n_events = tw_trace_get_n_events (trace);
  DirectHost direct, direct_batch;
  guint64 interp_sum = 0, plugin_sum = 0;
  guint64 scan_sum;
  gboolean same;
  gsize n_interp;
  Clock t0, t1;

  automaton = tw_automaton_load (path, &error);
  if (automaton == NULL)
    g_error ("%s", error->message);
  printf ("\n%s: %" G_GUINT64_FORMAT " events, %u tasks; %s (%s)\n", title, n_events,
          tw_trace_get_n_tasks (trace), tw_automaton_get_name (automaton), automaton_file);
  so_path = build_module (automaton, &dir);
  if (so_path == NULL)
    {
      printf ("no C compiler (cc or $CC): the exported module cannot be measured\n");
      return TRUE;
    }

  /* the peer: reading the columns every way reads them; it also brings them in */
  t0 = now ();
  scan_sum = scan_columns (trace);
  t1 = now ();
  print_rate ("plain scan of the columns:", n_events, t0, t1, cpu_mhz);
  if (scan_sum == 0)
    printf ("(the trace's columns are all zero)\n");

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
  table = tw_evaluator_evaluate (TW_EVALUATOR (plugin), trace, NULL, NULL, NULL, NULL, &error);
  t1 = now ();
  g_assert_no_error (error);
  for (gsize i = 0; i < tw_measurement_table_get_n_rows (table); i++)
    plugin_sum += tw_measurement_table_get_row (table, i)->length;
  print_rate ("exported module, host plugin path:", n_events, t0, t1, cpu_mhz);
  /* the same again, as the designer's preview and the Evaluations tab re-run an
   * evaluation: the first table's memory is kept for the next (tw-huge-array.c) */
  g_clear_object (&table);
  t0 = now ();
  table = tw_evaluator_evaluate (TW_EVALUATOR (plugin), trace, NULL, NULL, NULL, NULL, &error);
  t1 = now ();
  g_assert_no_error (error);
  print_rate ("  again (table memory reused):", n_events, t0, t1, cpu_mhz);

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

  same = interp_sum == plugin_sum && plugin_sum == direct.sum && plugin_sum == direct_batch.sum &&
         n_interp == tw_measurement_table_get_n_rows (table) && n_interp == direct.n &&
         n_interp == direct_batch.n;
  printf ("measurements: interpreter %zu, plugin %zu, batches %" G_GUINT64_FORMAT ", per event %"
          G_GUINT64_FORMAT "; total length %s\n", n_interp, tw_measurement_table_get_n_rows (table),
          direct_batch.n, direct.n, same ? "identical" : "DIFFERS");

  g_clear_object (&plugin);
  g_remove (so_path);
  g_rmdir (dir);
  return same;
}

/* A dump of the workload simulator (the demo's generator, default options but the
 * size), read back by the S.Ha.R.K. reader. */
static TwTrace *
simulate_shark_trace (guint64 n_events)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  TwSimulatorOptions options;
  TwTrace *trace;
  int fd;

  tw_simulator_options_init (&options);
  options.seed = 7;
  options.max_events = n_events;
  fd = g_file_open_tmp ("bench-automaton-export-XXXXXX.shark", &path, &error);
  if (fd < 0)
    g_error ("%s", error->message);
  close (fd);
  if (!tw_simulator_write_file (&options, path, NULL, &error))
    g_error ("%s", error->message);
  trace = tw_reader_registry_load_file (path, "shark", NULL, NULL, NULL, &error);
  g_remove (path);
  if (trace == NULL)
    g_error ("%s", error->message);
  return trace;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— the Fig. 2 automaton, interpreted and exported as C");
  g_autoptr(GError) error = NULL;
  g_autofree char *only = NULL;
  gint64 n_events = 100000000;
  int n_tasks = 16;
  double cpu_mhz = read_cpu_mhz ();
  gboolean same = TRUE;
  const GOptionEntry entries[] = {
    { "events", 0, 0, G_OPTION_ARG_INT64, &n_events, "Events per trace (default 100 M)", "N" },
    { "tasks", 0, 0, G_OPTION_ARG_INT, &n_tasks, "Tasks of the MaRTE trace (default 16)", "N" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, "One trace: shark or marte", "TRACE" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_events < 1 || n_tasks < 1 ||
      (only && !g_str_equal (only, "shark") && !g_str_equal (only, "marte")))
    {
      g_printerr ("bench-automaton-export: %s\n", error ? error->message : "bad arguments");
      return 2;
    }
  if (only == NULL || g_str_equal (only, "shark"))
    {
      g_autoptr(TwTrace) trace = simulate_shark_trace (n_events);

      same &= run_scenario ("S.Ha.R.K. trace of the workload simulator (seed 7)", trace,
                            "fig2-shark.json", cpu_mhz);
    }
  if (only == NULL || g_str_equal (only, "marte"))
    {
      g_autoptr(TwTrace) trace = build_trace (n_events, n_tasks);

      same &= run_scenario ("Random uniprocessor trace with the paper's MaRTE OS event names",
                            trace, "fig2-user-metric.json", cpu_mhz);
    }
  printf ("\ntargets (DESIGN §7, issue 5): interpreter >= 30 M events/s, exported module >= 150 M "
          "events/s; GRTMon: ~400 cycles/element\n");
  return same ? 0 : 1;
}
