/* test-automaton-codegen.c: exported C modules agree with the interpreter exactly
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every module is generated, compiled with the system compiler like a user would
 * (-std=c11 -Wall -Wextra -Werror -O2, only tw-evaluator.h), loaded through tw-plugin
 * and run by the host, then compared field by field and in order with the
 * interpreter. Many automata share one shared object: each generated file gets its own
 * entry point, and a small wrapper exports tw_evaluator_module_get() returning the
 * module chosen by an exported variable the test sets before loading.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gmodule.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

static char *
dup_compiler (void)
{
  const char *cc = g_getenv ("CC");

  return g_find_program_in_path (cc && cc[0] ? cc : "cc");
}

/* Compiles @sources into one shared object; the compiler's messages on failure. */
static void
compile (GPtrArray  *sources,
         const char *optimize,
         const char *output)
{
  g_autofree char *cc = dup_compiler ();
  g_autofree char *include = g_strdup_printf ("-I%s/evaluators", TW_SOURCE_DIR);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  g_assert_nonnull (cc);
  for (const char *const *a = (const char *const[]) { cc, "-std=c11", "-Wall", "-Wextra",
                                                       "-Werror", optimize, "-shared", "-fPIC",
                                                       "-pipe", include, "-o", output, NULL };
       *a; a++)
    g_ptr_array_add (args, (gpointer) *a);
  for (guint i = 0; i < sources->len; i++)
    g_ptr_array_add (args, g_ptr_array_index (sources, i));
  g_ptr_array_add (args, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) args->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               &out, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("compiling %s failed:\n%s", output, err);
  /* -Werror: a warning would have failed; nothing else is printed either */
  g_assert_cmpstr (err, ==, "");
}

static gboolean
have_compiler (void)
{
  g_autofree char *cc = dup_compiler ();

  if (cc == NULL)
    {
      g_test_skip ("no C compiler (cc or $CC) on PATH: exported modules cannot be built");
      return FALSE;
    }
  return TRUE;
}

/* Removes a directory the test made, with the files in it. */
static void
remove_dir (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* One shared object holding many modules. */
typedef struct {
  char     *dir;
  char     *path;
  GModule  *module;
  guint    *select;
  guint     n;
} Batch;

static void
batch_free (Batch *b)
{
  g_clear_pointer (&b->module, g_module_close);
  remove_dir (b->dir);
  g_free (b->dir);
  g_free (b->path);
  g_free (b);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Batch, batch_free)

/* The modules go into one translation unit, each with its own prefix and entry point
 * (one compiler run is what costs; the code itself compiles fast). */
static Batch *
build_batch (GPtrArray  *automata,
             const char *optimize)
{
  g_autoptr(GString) all = g_string_new (NULL);
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  char *source_path;
  Batch *b = g_new0 (Batch, 1);

  b->dir = g_dir_make_tmp ("tw-codegen-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < automata->len; i++)
    {
      g_autofree char *symbol = g_strdup_printf ("tw_batch_get_%u", i);
      g_autofree char *prefix = g_strdup_printf ("m%u_", i);
      g_autofree char *source = tw_automaton_codegen_generate (g_ptr_array_index (automata, i),
                                                               symbol, prefix, &error);

      g_assert_no_error (error);
      g_string_append (all, source);
    }
  g_string_append (all, "unsigned tw_batch_select;\n"
                        "static const TwEvaluatorModule *(*const getters[]) (unsigned) = {\n");
  for (guint i = 0; i < automata->len; i++)
    g_string_append_printf (all, "  tw_batch_get_%u,\n", i);
  g_string_append_printf (all, "};\n"
                          "const TwEvaluatorModule *tw_evaluator_module_get (unsigned v);\n"
                          "const TwEvaluatorModule *tw_evaluator_module_get (unsigned v)\n"
                          "{\n"
                          "  return tw_batch_select < %u ? getters[tw_batch_select] (v) : 0;\n"
                          "}\n", automata->len);
  /* the optional batch entry, named after each module's entry point */
  g_string_append (all, "static const TwEvaluatorBatchFuncs *(*const batch_getters[]) "
                        "(const TwEvaluatorModule *, unsigned) = {\n");
  for (guint i = 0; i < automata->len; i++)
    g_string_append_printf (all, "  tw_batch_get_%u_batch,\n", i);
  g_string_append_printf (all, "};\n"
                          "const TwEvaluatorBatchFuncs *tw_evaluator_module_get_batch "
                          "(const TwEvaluatorModule *m, unsigned v);\n"
                          "const TwEvaluatorBatchFuncs *tw_evaluator_module_get_batch "
                          "(const TwEvaluatorModule *m, unsigned v)\n"
                          "{\n"
                          "  return tw_batch_select < %u ? batch_getters[tw_batch_select] (m, v) : 0;\n"
                          "}\n", automata->len);
  source_path = g_build_filename (b->dir, "batch.c", NULL);
  g_assert_true (g_file_set_contents (source_path, all->str, -1, &error));
  g_assert_no_error (error);
  g_ptr_array_add (sources, source_path);

  b->path = g_build_filename (b->dir, "batch.so", NULL);
  b->n = automata->len;
  compile (sources, optimize, b->path);
  b->module = g_module_open (b->path, G_MODULE_BIND_LOCAL);
  g_assert_nonnull (b->module);
  g_assert_true (g_module_symbol (b->module, "tw_batch_select", (gpointer *) &b->select));
  return b;
}

static TwPlugin *
batch_load (Batch *b,
            guint  index)
{
  g_autoptr(GError) error = NULL;
  TwPlugin *plugin;

  *b->select = index;
  plugin = tw_plugin_new_for_path (b->path, &error);
  g_assert_no_error (error);
  return plugin;
}

/* A check function makes the evaluation call prepare/commit per event (no batches). */
static gboolean
event_intact (guint64  index,
              gpointer user_data)
{
  return TRUE;
}

/* How the host feeds the module: batches over whole chunks (what tw_evaluator_evaluate()
 * does), prepare/commit per event, or batches cut where a live trace would stop. */
typedef enum { FEED_BATCH, FEED_PER_EVENT, FEED_BATCH_STEPS, N_FEEDS } Feed;

static TwMeasurementTable *
run_plugin (TwPlugin *plugin,
            TwTrace  *trace,
            Feed      feed)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwMeasurementTable) table = tw_plugin_new_table (plugin);
  g_autoptr(TwUpdate) update = tw_plugin_create_update (plugin, table, NULL);
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (trace);
  guint64 n = tw_trace_get_n_events (trace);

  if (feed == FEED_PER_EVENT)
    tw_evaluation_set_check_func (evaluation, event_intact, NULL);
  g_assert_true (tw_evaluation_add_update (evaluation, update, &error));
  g_assert_no_error (error);
  if (feed == FEED_BATCH_STEPS)
    for (guint64 end = n / 3; end < n; end += 1 + n / 3)
      g_assert_true (tw_evaluation_run_to (evaluation, end, NULL, NULL, NULL, &error));
  g_assert_true (tw_evaluation_run (evaluation, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_evaluation_get_position (evaluation), ==, n);
  tw_evaluation_finish (evaluation);
  return g_steal_pointer (&table);
}

/* Runs the interpreter and the module fed each way, and compares every field of every
 * measurement, in order. Returns how many. */
static gsize
compare (TwAutomaton *automaton,
         TwPlugin    *plugin,
         TwTrace     *trace)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomatonInterp) interp = tw_automaton_interp_new (automaton, trace, &error);
  gsize n;

  g_assert_no_error (error);
  g_assert_true (tw_automaton_interp_run (interp, &error));
  /* generated modules have the batch entry, so FEED_BATCH is not prepare/commit again */
  g_assert_nonnull (tw_plugin_get_batch_funcs (plugin));
  n = tw_automaton_interp_get_n_measurements (interp);
  for (Feed feed = 0; feed < N_FEEDS; feed++)
    {
      g_autoptr(TwMeasurementTable) table = run_plugin (plugin, trace, feed);

      g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, n);
      for (gsize i = 0; i < n; i++)
        {
          const TwAutomatonMeasurement *want = tw_automaton_interp_get_measurement (interp, i);
          const TwMeasurementRow *got = tw_measurement_table_get_row (table, i);

          g_assert_cmpuint (got->task, ==, want->task);
          g_assert_cmpuint (got->begin, ==, want->begin_ns);
          g_assert_cmpuint (got->end, ==, want->end_ns);
          g_assert_cmpuint (got->length, ==, want->length_ns);
          g_assert_cmpuint (got->intermediate_events, ==, want->intermediate_events);
        }
    }
  return n;
}

static TwTrace *
load_trace (const char *path,
            const char *format)
{
  g_autoptr(GError) error = NULL;
  TwTrace *trace = tw_reader_registry_load_file (path, format, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* Fig. 2 names, by hand: task 1 from initial_event to final_event, an interrupt and a
 * preemption by task 2 in between, and a taskless interrupt. */
static TwTrace *
fig2_trace (void)
{
  return tw_test_trace_from_script ("10 initial_event 1;"
                                    "15 A/user 1;"
                                    "20 interrupt -;"
                                    "25 No_Preempt 1;"
                                    "30 context_end 1;"
                                    "33 A 2;"
                                    "35 context_end 2;"
                                    "40 context_end 1;"
                                    "45 A 1;"
                                    "50 final_event 1;"
                                    "60 initial_event 2;"
                                    "70 final_event 2");
}

static void
test_shipped (void)
{
  g_autofree char *dir = g_build_filename (TW_SOURCE_DIR, "data", "automata", NULL);
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autofree char *ftrace = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.report.txt");
  g_autoptr(GPtrArray) automata = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GDir) d = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(Batch) batch = NULL;
  const char *file;
  gsize total = 0;

  if (!have_compiler ())
    return;
  d = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, file, NULL);

      if (!g_str_has_suffix (file, ".json"))
        continue;
      g_ptr_array_add (automata, tw_automaton_load (path, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (automata->len, >=, 6);
  {
    /* and one with no event name at all: only `*` labels */
    TwAutomaton *a = tw_automaton_new ("stars");

    tw_automaton_add_state (a, "idle", TW_STATE_KIND_OUT, 0, 0);
    tw_automaton_add_state (a, "b", TW_STATE_KIND_BEGIN, 0, 0);
    tw_automaton_add_state (a, "e", TW_STATE_KIND_END, 0, 0);
    tw_automaton_set_initial (a, "idle");
    tw_automaton_add_any (a, "idle", "b");
    tw_automaton_add_any (a, "b", "e");
    tw_automaton_add_any (a, "e", "b");
    g_ptr_array_add (automata, a);
  }
  batch = build_batch (automata, "-O2");

  g_ptr_array_add (traces, load_trace (demo, "shark"));
  if (ftrace)
    g_ptr_array_add (traces, load_trace (ftrace, "ftrace-text"));
  else
    g_test_message ("shared/traces/ftrace/recorded/sched_irq_5s.report.txt is not there: "
                    "only the demo and hand-made traces");
  g_ptr_array_add (traces, fig2_trace ());
  g_ptr_array_add (traces, tw_test_trace_from_script (
    "5 sched_switch/switch 0 1; 6 irq_handler_entry/irq_entry 1; 9 irq_handler_exit/irq_exit 1;"
    "10 marker/user 1; 12 sched_wakeup/wakeup 3 2; 14 sys_enter 1; 15 sys_exit 1;"
    "16 sched_switch 1 2; 18 irq_handler_entry 2; 19 irq_handler_exit 2; 20 sched_switch 2 1;"
    "25 marker 1; 26 sched_switch 1 0"));

  for (guint i = 0; i < automata->len; i++)
    {
      g_autoptr(TwPlugin) plugin = batch_load (batch, i);

      g_assert_cmpstr (tw_plugin_get_name (plugin), ==,
                       tw_automaton_get_name (g_ptr_array_index (automata, i)));
      for (guint t = 0; t < traces->len; t++)
        total += compare (g_ptr_array_index (automata, i), plugin, g_ptr_array_index (traces, t));
    }
  g_test_message ("%" G_GSIZE_FORMAT " measurements compared", total);
  g_assert_cmpuint (total, >, 1000);
}

/* ------------------------------------------------------------ differential */

static const char *const label_names[] = { "A", "B", "C", "switch", "user", "wakeup", "X" };

static TwAutomaton *
random_automaton (GRand *rand)
{
  g_autoptr(TwAutomaton) a = tw_automaton_new ("random");
  guint n = g_rand_int_range (rand, 2, 9);
  char id[2][8];

  for (guint s = 0; s < n; s++)
    {
      TwStateKind kind = s == 0 ? TW_STATE_KIND_OUT : g_rand_int_range (rand, 0, TW_N_STATE_KINDS);

      g_snprintf (id[0], sizeof id[0], "s%u", s);
      tw_automaton_add_state (a, id[0], kind, 0, 0);
    }
  tw_automaton_set_initial (a, "s0");
  for (guint s = 0; s < n; s++)
    {
      guint n_exits = g_rand_int_range (rand, 0, 6);

      g_snprintf (id[0], sizeof id[0], "s%u", s);
      if (s > 0 && g_rand_int_range (rand, 0, 4) == 0)
        {
          g_snprintf (id[1], sizeof id[1], "s%u", g_rand_int_range (rand, 0, n));
          tw_automaton_add_lambda (a, id[0], id[1]);
          continue;
        }
      for (guint e = 0; e < n_exits; e++)
        {
          const char *name = label_names[g_rand_int_range (rand, 0, G_N_ELEMENTS (label_names))];
          TwTaskMatch task = g_rand_int_range (rand, 0, 3);
          gboolean has_task_arg = g_str_equal (name, "switch") || g_str_equal (name, "wakeup");
          TwTaskField field = has_task_arg && g_rand_boolean (rand)
                              ? TW_TASK_FIELD_ARG : TW_TASK_FIELD_TASK;

          g_snprintf (id[1], sizeof id[1], "s%u",
                      e == 0 && s + 1 < n ? s + 1 : (guint) g_rand_int_range (rand, 0, n));
          if (g_rand_int_range (rand, 0, 6) == 0)
            tw_automaton_add_any (a, id[0], id[1]);
          else
            tw_automaton_add_transition (a, id[0], id[1], TW_LABEL_EVENT, name, task, field);
        }
    }
  return g_steal_pointer (&a);
}

/* Types matched by raw name, by kind, by both (a raw "user" of kind other and a
 * "wakeup" of kind wakeup), and by none. */
static TwTrace *
random_trace (GRand *rand,
              guint  n)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  guint16 types[8];
  guint64 time = 0;

  tw_test_ensure_tasks (trace, 6);
  types[0] = tw_test_add_simple_type (trace, "A", TW_EVENT_KIND_OTHER);
  types[1] = tw_test_add_simple_type (trace, "B", TW_EVENT_KIND_OTHER);
  types[2] = tw_test_add_simple_type (trace, "U", TW_EVENT_KIND_USER);
  types[3] = tw_test_add_simple_type (trace, "sw", TW_EVENT_KIND_SWITCH);
  types[4] = tw_test_add_simple_type (trace, "wakeup", TW_EVENT_KIND_WAKEUP);
  types[5] = tw_test_add_simple_type (trace, "user", TW_EVENT_KIND_OTHER);
  types[6] = tw_test_add_simple_type (trace, "C", TW_EVENT_KIND_OTHER);
  types[7] = tw_test_add_simple_type (trace, "D", TW_EVENT_KIND_OTHER);
  for (guint i = 0; i < n; i++)
    {
      guint32 task = g_rand_int_range (rand, 0, 7);
      guint32 arg = g_rand_int_range (rand, 0, 7);

      time += g_rand_int_range (rand, 0, 3);
      tw_trace_append (trace, time, 0, types[g_rand_int_range (rand, 0, 8)],
                       task == 6 ? TW_TASK_NONE : task, arg == 6 ? TW_TASK_NONE : arg, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return g_steal_pointer (&trace);
}

static void
run_differential (guint       n_automata,
                  guint       traces_per_automaton,
                  guint64     seed,
                  const char *optimize)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  const guint per_batch = 50;
  guint n_done = 0, n_all_events = 0;
  gsize n_measurements = 0;

  if (!have_compiler ())
    return;
  while (n_done < n_automata)
    {
      g_autoptr(GPtrArray) automata = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(Batch) batch = NULL;

      while (automata->len < MIN (per_batch, n_automata - n_done))
        {
          g_autoptr(TwAutomaton) a = random_automaton (rand);
          g_autoptr(GPtrArray) problems = tw_automaton_validate (a);

          if (problems->len == 0)
            g_ptr_array_add (automata, g_steal_pointer (&a));
        }
      batch = build_batch (automata, optimize);
      for (guint i = 0; i < automata->len; i++)
        {
          g_autoptr(TwPlugin) plugin = batch_load (batch, i);

          n_all_events += (tw_plugin_get_module (plugin)->flags & TW_EVALUATOR_FLAG_ALL_EVENTS) != 0;
          for (guint t = 0; t < traces_per_automaton; t++)
            {
              /* now and then one across chunks, where batches are cut */
              guint n_events = i == 0 && t == 0 ? TW_CHUNK_SIZE + g_rand_int_range (rand, 1, 5000)
                                                : (guint) g_rand_int_range (rand, 1, 400);
              g_autoptr(TwTrace) trace = random_trace (rand, n_events);

              n_measurements += compare (g_ptr_array_index (automata, i), plugin, trace);
            }
        }
      n_done += automata->len;
      g_test_message ("%u of %u automata compared", n_done, n_automata);
    }
  g_test_message ("%u automata (%u asking for every event), %" G_GSIZE_FORMAT
                  " measurements", n_done, n_all_events, n_measurements);
  /* both module flavours and plenty of results were exercised */
  g_assert_cmpuint (n_all_events, >, 0);
  g_assert_cmpuint (n_all_events, <, n_done);
  g_assert_cmpuint (n_measurements, >=, n_automata);
}

static void
test_differential (void)
{
  run_differential (200, 3, 20261122, "-O2");
}

/* Compiling is what takes time (about 0.1 s of CPU per module at -O2, a third of that
 * at -O0): the big run trades the optimizer for more automata and traces. */
static void
test_differential_slow (void)
{
  run_differential (2000, 6, 977, "-O0");
}

/* ------------------------------------------------------------------ hostile */

static void
test_hostile_strings (void)
{
  g_autofree char *long_name = NULL;
  g_autoptr(GString) lg = g_string_new (NULL);
  const char *const hostile[] = {
    "\"; system(\"rm -rf /\"); \"",
    "back\\slash\\",
    "new\nline\r\t",
    "*/ int x; /*",
    /* split so that this file has no trigraph itself */
    "?" "?/ ?" "?= ?" "?( ?" "?' trigraphs",
    "%s%n%d",
    "caf\xc3\xa9 \xe2\x9c\x93 \xf0\x9f\x98\x80",
    "#define N_STATES 0",
    "}; static int y; {",
    "kind:switch",
    "*",
  };
  g_autoptr(TwAutomaton) a = tw_automaton_new ("name \"*/ ?" "?/ \\n\n%s");
  g_autoptr(GPtrArray) automata = g_ptr_array_new ();
  g_autoptr(Batch) batch = NULL;
  g_autoptr(TwPlugin) plugin = NULL;
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  g_autofree char *source = NULL;
  const TwEvaluatorModule *module;
  guint16 types[G_N_ELEMENTS (hostile) + 1];
  guint n_raw = 0;
  gsize n;

  if (!have_compiler ())
    return;
  for (guint i = 0; i < 3000; i++)
    g_string_append (lg, "\"\\*/?" "?/");
  long_name = g_string_free (g_steal_pointer (&lg), FALSE);

  /* every hostile string as a state id, and as the event between two states */
  tw_automaton_add_state (a, hostile[0], TW_STATE_KIND_OUT, 0, 0);
  tw_automaton_set_initial (a, hostile[0]);
  tw_automaton_add_state (a, long_name, TW_STATE_KIND_BEGIN, 0, 0);
  tw_automaton_add_state (a, hostile[1], TW_STATE_KIND_IN, 0, 0);
  tw_automaton_add_state (a, hostile[2], TW_STATE_KIND_END, 0, 0);
  tw_automaton_add_event (a, hostile[0], long_name, long_name, TW_TASK_MATCH_SAME);
  tw_automaton_add_lambda (a, long_name, hostile[1]);
  for (guint i = 0; i < G_N_ELEMENTS (hostile); i++)
    tw_automaton_add_event (a, hostile[1], hostile[1], hostile[i], TW_TASK_MATCH_ANY);
  tw_automaton_add_event (a, hostile[1], hostile[2], long_name, TW_TASK_MATCH_SAME);
  tw_automaton_add_lambda (a, hostile[2], hostile[0]);
  {
    g_autoptr(GPtrArray) problems = tw_automaton_validate (a);

    g_assert_cmpuint (problems->len, ==, 0);
  }
  source = tw_automaton_codegen_generate (a, NULL, NULL, NULL);
  /* no user byte outside a string literal: nothing but escapes of the specials */
  g_assert_null (strstr (source, "rm -rf /\""));
  g_assert_null (strstr (source, "?" "?"));
  g_assert_null (strstr (source, "\n#define N_STATES 0"));
  g_assert_null (strstr (source, "\\\\"));

  g_ptr_array_add (automata, a);
  batch = build_batch (automata, "-O2");
  plugin = batch_load (batch, 0);
  module = tw_plugin_get_module (plugin);
  g_assert_cmpstr (module->name, ==, tw_automaton_get_name (a));
  /* raw names first ("*" and "kind:…" cannot be raw selectors), then kind names */
  for (guint i = 0; i < module->n_event_names; i++)
    if (!g_str_has_prefix (module->event_names[i], "kind:"))
      n_raw++;
  g_assert_cmpuint (n_raw, ==, G_N_ELEMENTS (hostile) - 2 + 1);
  g_assert_cmpstr (module->event_names[0], ==, long_name);
  for (guint i = 0; i + 2 < G_N_ELEMENTS (hostile); i++)
    g_assert_cmpstr (module->event_names[i + 1], ==, hostile[i]);
  g_assert_cmpuint (module->n_event_names, ==, n_raw);

  /* a trace whose types carry the hostile names */
  tw_test_ensure_tasks (trace, 3);
  types[0] = tw_test_add_simple_type (trace, long_name, TW_EVENT_KIND_OTHER);
  for (guint i = 0; i + 2 < G_N_ELEMENTS (hostile); i++)
    types[i + 1] = tw_test_add_simple_type (trace, hostile[i], TW_EVENT_KIND_OTHER);
  for (guint i = 0; i < 2000; i++)
    tw_trace_append (trace, i * 10, 0, types[g_rand_int_range (rand, 0, G_N_ELEMENTS (hostile) - 1)],
                     g_rand_int_range (rand, 0, 3), 0, NULL);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  n = compare (a, plugin, trace);
  g_assert_cmpuint (n, >, 10);
}

/* ------------------------------------------------------- batches, fed directly */

typedef struct {
  TwEvaluatorHost host;
  GArray         *rows;   /* TwEvaluatorMeasurement */
} CollectHost;

static void
collect_one (const TwEvaluatorHost        *host,
             const TwEvaluatorMeasurement *m)
{
  g_array_append_vals (((CollectHost *) host)->rows, m, 1);
}

static void
collect_many (const TwEvaluatorHost        *host,
              const TwEvaluatorMeasurement *m,
              size_t                        n)
{
  g_array_append_vals (((CollectHost *) host)->rows, m, n);
}

/* The module's ids per type as a host binds them: the first name a type matches, OTHER
 * for the rest when the module takes every event; @unfed gets ABSENT, as a type that a
 * live trace registers after bind under a name the module was told is absent. */
static guint32 *
bind_module (const TwEvaluatorModule *module,
             void                    *context,
             CollectHost             *h,
             TwTrace                 *trace,
             guint16                  unfed)
{
  g_autofree guint32 *ids = g_new (guint32, module->n_event_names + 1);
  guint n_types = tw_trace_get_n_event_types (trace);
  guint32 *type_id = g_new (guint32, n_types);

  h->host.struct_size = sizeof (TwEvaluatorHost);
  h->host.abi_version = TW_EVALUATOR_ABI_VERSION;
  h->host.emit_measurement = collect_one;
  h->rows = g_array_new (FALSE, FALSE, sizeof (TwEvaluatorMeasurement));
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
  g_assert_true (module->flags & TW_EVALUATOR_FLAG_ALL_EVENTS);
  type_id[unfed] = TW_EVALUATOR_EVENT_ABSENT;
  g_assert_true (module->bind (context, &h->host, ids));
  return type_id;
}

/* A module with a state whose `*` self-visits it counts (Fig. 2's state 2) numbers the
 * events it is fed. Batches skip, in one pass, the events nothing reacts to; one that
 * holds an event the module is not fed must still number the others as prepare/commit
 * of the fed ones would: the same measurements, event counts included. */
static void
test_batch_with_unfed_events (void)
{
  g_autofree char *path = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) automaton = tw_automaton_load (path, &error);
  g_autoptr(GPtrArray) automata = g_ptr_array_new ();
  g_autoptr(Batch) batch = NULL;
  g_autoptr(TwPlugin) plugin = NULL;
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GRand) rand = g_rand_new_with_seed (12);
  static const char *const names[] = {
    "initial_event", "final_event", "interrupt", "No_Preempt", "context_end", "work", "unfed",
  };
  guint16 types[G_N_ELEMENTS (names)];
  const TwEvaluatorModule *module;
  const TwEvaluatorBatchFuncs *funcs;
  CollectHost by_batch = { 0 }, by_event = { 0 };
  g_autofree guint32 *batch_ids = NULL;
  g_autofree guint32 *event_ids = NULL;
  void *batch_context, *event_context;
  gboolean measuring[4] = { FALSE };
  guint32 current = 0;
  guint64 time = 0;
  guint n_unfed = 0;

  g_assert_no_error (error);
  if (!have_compiler ())
    return;
  tw_test_ensure_tasks (trace, 4);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    types[i] = tw_test_add_simple_type (trace, names[i], TW_EVENT_KIND_OTHER);
  /* the first blocks without unfed events, the later ones with some */
  for (guint i = 0; i < 6000; i++)
    {
      guint r = g_rand_int_range (rand, 0, 100);
      guint16 type = types[5];
      guint32 task = current;

      time += g_rand_int_range (rand, 1, 50);
      if (i > 2000 && r < 8)
        {
          type = types[6];
          n_unfed++;
        }
      else if (r < 30)
        {
          type = measuring[current] ? types[1] : types[0];
          measuring[current] = !measuring[current];
        }
      else if (r < 45)
        {
          type = types[2];
          task = TW_TASK_NONE;
        }
      else if (r < 52)
        {
          type = types[3];
          task = TW_TASK_NONE;
        }
      else if (r < 60)
        {
          current = g_rand_int_range (rand, 0, 4);
          type = types[4];
          task = current;
        }
      tw_trace_append (trace, time, 0, type, task, 0, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  g_assert_cmpuint (n_unfed, >, 100);

  g_ptr_array_add (automata, automaton);
  batch = build_batch (automata, "-O2");
  plugin = batch_load (batch, 0);
  module = tw_plugin_get_module (plugin);
  funcs = tw_plugin_get_batch_funcs (plugin);
  g_assert_nonnull (funcs);
  batch_context = module->context_new ();
  event_context = module->context_new ();
  batch_ids = bind_module (module, batch_context, &by_batch, trace, types[6]);
  event_ids = bind_module (module, event_context, &by_event, trace, types[6]);

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      TwEvaluatorBatch b = {
        .n_events = chunk->n, .time_ns = chunk->time, .task = chunk->task, .arg = chunk->arg,
        .cpu = chunk->cpu, .type = chunk->type, .type_ids = batch_ids,
        .n_types = tw_trace_get_n_event_types (trace), .emit_measurements = collect_many,
      };

      funcs->process (batch_context, &b);
      for (guint i = 0; i < chunk->n; i++)
        {
          TwEvaluatorEvent ev = {
            .time_ns = chunk->time[i], .task = chunk->task[i], .arg = chunk->arg[i],
            .event_id = event_ids[chunk->type[i]],
          };

          if (ev.event_id != TW_EVALUATOR_EVENT_ABSENT)
            module->commit (event_context, module->prepare (event_context, &ev));
        }
    }
  module->finish (batch_context);
  module->finish (event_context);

  g_assert_cmpuint (by_batch.rows->len, >, 100);
  g_assert_cmpuint (by_batch.rows->len, ==, by_event.rows->len);
  for (guint i = 0; i < by_batch.rows->len; i++)
    {
      const TwEvaluatorMeasurement *a = &g_array_index (by_batch.rows, TwEvaluatorMeasurement, i);
      const TwEvaluatorMeasurement *b = &g_array_index (by_event.rows, TwEvaluatorMeasurement, i);

      g_assert_cmpuint (a->task, ==, b->task);
      g_assert_cmpuint (a->begin_ns, ==, b->begin_ns);
      g_assert_cmpuint (a->end_ns, ==, b->end_ns);
      g_assert_cmpuint (a->length_ns, ==, b->length_ns);
      g_assert_cmpuint (a->intermediate_events, ==, b->intermediate_events);
    }
  module->context_free (batch_context);
  module->context_free (event_context);
  g_array_unref (by_batch.rows);
  g_array_unref (by_event.rows);
}

/* ---------------------------------------------------------------------- API */

/* Which automata need every event: instances are created at a task's first event of
 * any type, which only matters when a state reacts to others' or unnamed events. */
static void
test_needs_all_events (void)
{
  g_autoptr(TwAutomaton) own = tw_automaton_new ("own events only");
  g_autoptr(TwAutomaton) broken = tw_automaton_new ("broken");
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *source = NULL;

  tw_automaton_add_state (own, "idle", TW_STATE_KIND_OUT, 0, 0);
  tw_automaton_add_state (own, "b", TW_STATE_KIND_BEGIN, 0, 0);
  tw_automaton_add_state (own, "e", TW_STATE_KIND_END, 0, 0);
  tw_automaton_set_initial (own, "idle");
  tw_automaton_add_event (own, "idle", "b", "A", TW_TASK_MATCH_SAME);
  tw_automaton_add_event (own, "b", "e", "B", TW_TASK_MATCH_SAME);
  tw_automaton_add_lambda (own, "e", "idle");
  g_assert_false (tw_automaton_codegen_needs_all_events (own));

  /* a `*` self-loop on an out state changes nothing: still not needed */
  tw_automaton_add_any (own, "idle", "idle");
  g_assert_false (tw_automaton_codegen_needs_all_events (own));
  /* another task's event moves an instance */
  tw_automaton_add_event (own, "b", "idle", "C", TW_TASK_MATCH_OTHER);
  g_assert_true (tw_automaton_codegen_needs_all_events (own));
  tw_automaton_remove_transition (own, tw_automaton_get_n_transitions (own) - 1);
  g_assert_false (tw_automaton_codegen_needs_all_events (own));
  /* an unnamed event does */
  tw_automaton_add_any (own, "b", "b");
  g_assert_true (tw_automaton_codegen_needs_all_events (own));

  /* the stream variant writes what generate returns */
  source = tw_automaton_codegen_generate (own, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_codegen_write (own, stream, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (stream)),
                   g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (stream)),
                   source, strlen (source));

  /* design errors are refused with the validation's error */
  tw_automaton_add_state (broken, "s", TW_STATE_KIND_IN, 0, 0);
  tw_automaton_set_initial (broken, "s");
  g_assert_false (tw_automaton_codegen_needs_all_events (broken));
  g_assert_null (tw_automaton_codegen_generate (broken, NULL, NULL, &error));
  g_assert_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_INVALID);
}

/* ---------------------------------------------------------------------- CLI */

static void
test_cli (void)
{
  g_autofree char *um = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                          "user-metric.json", NULL);
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tw-codegen-cli-XXXXXX", NULL);
  g_autofree char *c_path = g_build_filename (dir, "um.c", NULL);
  g_autofree char *so_path = g_build_filename (dir, "um.so", NULL);
  g_autofree char *bad = NULL;
  g_autofree char *malformed = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *csv_interp = NULL, *csv_plugin = NULL;
  g_autofree char *hist_interp = NULL, *hist_plugin = NULL;
  int status;

  if (!have_compiler ())
    return;
  g_assert_nonnull (dir);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "check", um, NULL },
                                  &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "ok\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  bad = tw_test_write_temp_file ("bad.json",
    "{\"tracewb_automaton\": 1, \"initial\": \"a\", \"states\": ["
    "{\"id\": \"a\", \"kind\": \"in\"}, {\"id\": \"b\", \"kind\": \"out\"},"
    "{\"id\": \"c\", \"kind\": \"end\"}],"
    "\"transitions\": [{\"from\": \"a\", \"to\": \"b\", \"label\": \"lambda\"},"
    "{\"from\": \"a\", \"to\": \"b\", \"event\": \"E\"}]}", -1);
  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "check", bad, NULL },
                                  &out, &err, &status));
  g_assert_cmpint (status, ==, 1);
  /* initial not out, λ from the initial state, λ with other exits, c unreachable */
  g_assert_nonnull (strstr (out, "state “a”"));
  g_assert_nonnull (strstr (out, "state “c”"));
  {
    guint n_lines = 0;

    for (const char *p = out; *p; p++)
      n_lines += *p == '\n';
    g_assert_cmpuint (n_lines, ==, 4);
  }
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  malformed = tw_test_write_temp_file ("malformed.json", "{\"tracewb_automaton\": 1,\n  [", -1);
  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "check", malformed, NULL },
                                  &out, &err, &status));
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "malformed.json:1:"));
  g_assert_nonnull (strstr (err, "Parse error"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "check",
                                                           "/nonexistent/a.json", NULL },
                                  &out, &err, &status));
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/a.json"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "export-c", bad, "-o",
                                                           c_path, NULL },
                                  &out, &err, &status));
  g_assert_cmpint (status, !=, 0);
  g_assert_false (g_file_test (c_path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "export-c", um, "-o",
                                                           c_path, "--build", NULL },
                                  &out, &err, &status));
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_test (so_path, G_FILE_TEST_IS_REGULAR));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--automaton", um,
                                                           "--csv", "-", NULL },
                                  &csv_interp, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_str_has_prefix (csv_interp, "task,begin_ns,end_ns,length_ns,intermediate_events,lost\n"));
  g_assert_cmpuint (strlen (csv_interp), >, 1000);
  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--plugin", so_path,
                                                           "--csv", "-", NULL },
                                  &csv_plugin, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpstr (csv_plugin, ==, csv_interp);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--automaton", um,
                                                           "--hist", NULL },
                                  &hist_interp, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_str_has_prefix (hist_interp, "User metric"));
  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--plugin", so_path,
                                                           "--hist", NULL },
                                  &hist_plugin, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (hist_plugin, ==, hist_interp);
  remove_dir (dir);
}

/* The Done-when of issue 5 on the command line: Fig. 2 for S.Ha.R.K. measures the demo
 * with the interpreter and, exported and built, as a plugin: the same CSV, byte for byte. */
static void
test_cli_fig2_shark (void)
{
  g_autofree char *fig2 = g_build_filename (TW_SOURCE_DIR, "data", "automata", "fig2-shark.json", NULL);
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autofree char *dir = g_dir_make_tmp ("tw-codegen-fig2-XXXXXX", NULL);
  g_autofree char *c_path = g_build_filename (dir, "fig2.c", NULL);
  g_autofree char *so_path = g_build_filename (dir, "fig2.so", NULL);
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *csv_interp = NULL, *csv_plugin = NULL;
  g_auto(GStrv) lines = NULL;
  int status;

  if (!have_compiler ())
    return;
  g_assert_nonnull (dir);
  g_assert_true (tw_test_run_cli ((const char *const[]) { "automaton", "export-c", fig2, "-o",
                                                           c_path, "--build", NULL },
                                  &out, &err, &status));
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);

  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--automaton", fig2,
                                                           "--csv", "-", NULL },
                                  &csv_interp, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_true (tw_test_run_cli ((const char *const[]) { "eval", demo, "--plugin", so_path,
                                                           "--csv", "-", NULL },
                                  &csv_plugin, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (csv_plugin, ==, csv_interp);

  /* a header and the demo's 355 jobs; the first one checked by hand against `tracewb-cli
   * events`: task 288 from 1004792 to 4606198 minus three timer handlers of 474, 436 and
   * 444 ns; its 7 events are the 3 handler starts, the mutex lock and unlock, a
   * task_schedule and the user_event_1 */
  lines = g_strsplit (csv_interp, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 355 + 1);
  g_assert_cmpstr (lines[0], ==, "task,begin_ns,end_ns,length_ns,intermediate_events,lost");
  g_assert_cmpstr (lines[1], ==, "288,1004792,4606198,3600052,7,0");
  g_assert_cmpstr (lines[356], ==, "");
  remove_dir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/automaton-codegen/shipped", test_shipped);
  g_test_add_func ("/tw/evaluators/automaton-codegen/hostile-strings", test_hostile_strings);
  g_test_add_func ("/tw/evaluators/automaton-codegen/cli", test_cli);
  g_test_add_func ("/tw/evaluators/automaton-codegen/cli-fig2-shark", test_cli_fig2_shark);
  g_test_add_func ("/tw/evaluators/automaton-codegen/needs-all-events", test_needs_all_events);
  g_test_add_func ("/tw/evaluators/automaton-codegen/batch-with-unfed-events",
                   test_batch_with_unfed_events);
  if (g_test_slow ())
    g_test_add_func ("/tw/evaluators/automaton-codegen/differential-2000",
                     test_differential_slow);
  else
    g_test_add_func ("/tw/evaluators/automaton-codegen/differential", test_differential);

  return g_test_run ();
}
