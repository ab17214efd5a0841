/* test-chrome-json-writer.c: Chrome trace JSON export against the state model
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

#define CPU_PID 1000000000

/* What the model says the JSON must hold. */
typedef struct {
  guint cpu_runs;     /* non-idle runs on CPUs */
  guint irqs;
  guint softirqs;
  guint task_runs;    /* RUNNING intervals of non-idle tasks */
  guint instants;     /* OTHER and USER events */
} Expected;

static void
expect (TwTrace      *trace,
        TwStateModel *model,
        Expected     *e)
{
  memset (e, 0, sizeof *e);
  for (guint cpu = 0; cpu < tw_state_model_get_n_cpus (model); cpu++)
    {
      gsize n;
      const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, cpu, &n);
      const TwIrqInterval *irqs;

      for (gsize i = 0; i < n; i++)
        e->cpu_runs += runs[i].task != TW_TASK_NONE
                       && !(tw_trace_get_task (trace, runs[i].task)->flags & TW_TASK_FLAG_IDLE);
      irqs = tw_state_model_get_cpu_irqs (model, cpu, &n);
      for (gsize i = 0; i < n; i++)
        {
          if (irqs[i].kind == TW_IRQ_SOFT)
            e->softirqs++;
          else
            e->irqs++;
        }
    }
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      gsize n;
      const TwTaskInterval *states;

      if (tw_trace_get_task (trace, t)->flags & TW_TASK_FLAG_IDLE)
        continue;
      states = tw_state_model_get_task_states (model, t, &n);
      for (gsize i = 0; i < n; i++)
        e->task_runs += states[i].state == TW_TASK_STATE_RUNNING;
    }
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;
      TwEventKind kind;

      tw_trace_get_event (trace, i, &ev);
      kind = tw_trace_get_event_type (trace, ev.type)->kind;
      if (kind != TW_EVENT_KIND_OTHER && kind != TW_EVENT_KIND_USER)
        continue;
      /* the writer drops what has neither a task nor a CPU to sit on */
      if ((ev.task != TW_TASK_NONE && !(tw_trace_get_task (trace, ev.task)->flags & TW_TASK_FLAG_IDLE))
          || ev.cpu != TW_CPU_NONE)
        e->instants++;
    }
}

static JsonParser *
parse_export (TwTrace *trace)
{
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  JsonParser *parser = json_parser_new ();

  g_assert_true (tw_chrome_json_writer_write (trace, out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (out, NULL, NULL));
  g_assert_true (json_parser_load_from_data (
    parser, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (out)),
    g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (out)), &error));
  g_assert_no_error (error);
  return parser;
}

static void
check_export (const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GHashTable) named_threads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  JsonObject *root;
  JsonArray *events;
  Expected e, got = { 0 };
  guint64 origin;
  gboolean checked_first_run = FALSE;
  gsize n_runs0;
  const TwRunInterval *runs0;
  gsize first_run0 = 0;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  if (g_error_matches (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED))
    {
      g_test_skip (error->message);
      return;
    }
  g_assert_no_error (error);
  model = tw_state_model_new (trace);
  g_assert_true (tw_state_model_update (model, NULL, NULL));
  expect (trace, model, &e);
  g_assert_cmpuint (e.cpu_runs, >, 0);

  parser = parse_export (trace);
  root = json_node_get_object (json_parser_get_root (parser));
  origin = g_ascii_strtoull (json_object_get_string_member (json_object_get_object_member (root, "otherData"),
                                                            "time_origin_ns"), NULL, 10);
  g_assert_cmpuint (origin, ==, tw_trace_get_first_time (trace));
  events = json_object_get_array_member (root, "traceEvents");

  /* the first non-idle run on CPU 0, to compare with its slice exactly */
  runs0 = tw_state_model_get_cpu_runs (model, 0, &n_runs0);
  while (first_run0 < n_runs0 && (runs0[first_run0].task == TW_TASK_NONE
                                  || tw_trace_get_task (trace, runs0[first_run0].task)->flags & TW_TASK_FLAG_IDLE))
    first_run0++;
  g_assert_cmpuint (first_run0, <, n_runs0);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *ev = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (ev, "ph");
      gint64 pid = json_object_get_int_member (ev, "pid");
      gint64 tid = json_object_get_int_member (ev, "tid");

      if (strcmp (ph, "M") == 0)
        {
          if (strcmp (json_object_get_string_member (ev, "name"), "thread_name") == 0)
            g_hash_table_add (named_threads, g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid));
          continue;
        }
      {
        /* every track is named before its first slice or instant */
        g_autofree char *key = g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid, tid);

        g_assert_true (g_hash_table_contains (named_threads, key));
      }
      if (strcmp (ph, "X") == 0)
        {
          const char *cat = json_object_get_string_member (ev, "cat");
          double ts = json_object_get_double_member (ev, "ts");
          double dur = json_object_get_double_member (ev, "dur");

          g_assert_cmpfloat (dur, >=, 0);
          if (pid == CPU_PID && strcmp (cat, "running") == 0)
            {
              if (tid == 0 && !checked_first_run)
                {
                  g_autofree char *label = tw_trace_dup_task_label (trace, runs0[first_run0].task);

                  checked_first_run = TRUE;
                  g_assert_cmpfloat_with_epsilon (ts, (runs0[first_run0].start - origin) / 1000.0, 1e-4);
                  g_assert_cmpfloat_with_epsilon (dur, (runs0[first_run0].end - runs0[first_run0].start) / 1000.0, 1e-4);
                  g_assert_cmpstr (json_object_get_string_member (ev, "name"), ==, label);
                }
              got.cpu_runs++;
            }
          else if (pid == CPU_PID && strcmp (cat, "irq") == 0)
            got.irqs++;
          else if (pid == CPU_PID && strcmp (cat, "softirq") == 0)
            got.softirqs++;
          else if (strcmp (cat, "running") == 0)
            got.task_runs++;
          else
            g_assert_not_reached ();
        }
      else if (strcmp (ph, "i") == 0)
        got.instants++;
      else
        g_assert_not_reached ();
    }

  g_assert_true (checked_first_run);
  g_assert_cmpuint (got.cpu_runs, ==, e.cpu_runs);
  g_assert_cmpuint (got.irqs, ==, e.irqs);
  g_assert_cmpuint (got.softirqs, ==, e.softirqs);
  g_assert_cmpuint (got.task_runs, ==, e.task_runs);
  g_assert_cmpuint (got.instants, ==, e.instants);
  /* every CPU has its named track */
  for (guint cpu = 0; cpu < tw_state_model_get_n_cpus (model); cpu++)
    {
      g_autofree char *key = g_strdup_printf ("%d/%u", CPU_PID, cpu);

      g_assert_true (g_hash_table_contains (named_threads, key));
    }
}

static void
test_trace_dat (void)
{
  check_export ("ftrace/recorded/sched_irq_5s.dat");
}

static void
test_ctf (void)
{
  /* statedump events make instants */
  check_export ("ctf/lttng-kernel-flipping-endianness/trace");
}

/* `tracewb-cli convert DIR --to chrome-json -o OUT` writes a file that parses, with a
 * slice per irq handler at least (5,841 in this trace) and its 80 statedump instants. */
static void
test_cli (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-flipping-endianness/trace");
  g_autofree char *out = g_build_filename (tw_test_get_private_dir (), "out.json", NULL);
  const char *cli = g_getenv ("TW_CLI");
  const char *argv[] = { cli, "convert", path, "--to", "chrome-json", "-o", out, NULL };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
#if !HAVE_BABELTRACE
  g_test_skip ("CTF support was not built");
  return;
#endif
  g_assert_nonnull (cli);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (json_parser_load_from_file (parser, out, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_node_get_object (json_parser_get_root (parser)), "traceEvents")), >, 5841 + 80);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/chrome-json/trace-dat", test_trace_dat);
  g_test_add_func ("/tw/ingest/chrome-json/ctf", test_ctf);
  g_test_add_func ("/tw/ingest/chrome-json/cli", test_cli);

  return g_test_run ();
}
