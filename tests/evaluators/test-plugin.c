/* test-plugin.c: evaluation modules loaded as plugins through tw-evaluator.h
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

static char *
module_path (const char *name)
{
  return g_test_build_filename (G_TEST_BUILT, name, NULL);
}

/* Irqs on two CPUs with nesting, a lost exit and events in between. */
static TwTrace *
new_irq_trace (void)
{
  TwTrace *trace = tw_trace_new ();
  TwTestKindTypes k;
  guint32 a, b;

  tw_test_add_kind_types (trace, &k);
  a = tw_trace_add_task (trace, "11", "a", 11, 11);
  b = tw_trace_add_task (trace, "12", "b", 12, 12);
  tw_trace_append (trace, 100, 0, k.irq_in, a, 10, NULL);
  tw_trace_append (trace, 105, 0, k.wake, a, b, NULL);
  tw_trace_append (trace, 120, 0, k.irq_in, a, 11, NULL);
  tw_trace_append (trace, 130, 0, k.irq_out, a, 11, NULL);
  tw_trace_append (trace, 140, 1, k.irq_in, b, 7, NULL);
  tw_trace_append (trace, 145, 1, k.irq_in, b, 8, NULL);
  tw_trace_append (trace, 150, 0, k.irq_out, a, 10, NULL);
  tw_trace_append (trace, 155, TW_CPU_NONE, k.wake, TW_TASK_NONE, a, NULL);
  tw_trace_append (trace, 190, 1, k.irq_out, b, 7, NULL);
  for (guint i = 0; i < 50; i++)
    {
      tw_trace_append (trace, 1000 + 100 * i, i % 2, k.irq_in, i % 2 ? a : b, 20 + i % 3, NULL);
      tw_trace_append (trace, 1000 + 100 * i + 7 * (i % 10 + 1), i % 2, k.irq_out, i % 2 ? a : b, 20 + i % 3, NULL);
    }
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  return trace;
}

static void
assert_same_as_builtin (TwPlugin *plugin)
{
  g_autoptr(TwTrace) trace = new_irq_trace ();
  g_autoptr(TwHistogram) hist = tw_histogram_new_auto (16, TW_HISTOGRAM_SCALE_LINEAR);
  g_autoptr(TwMetric) metric = tw_metric_new_system ("irq-duration", NULL);
  g_autoptr(TwMeasurementTable) builtin = NULL;
  g_autoptr(TwMeasurementTable) got = NULL;
  g_autoptr(GError) error = NULL;
  gsize n;

  got = tw_evaluator_evaluate (TW_EVALUATOR (plugin), trace, hist, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  builtin = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  n = tw_measurement_table_get_n_rows (builtin);
  g_assert_cmpuint (n, ==, 3 + 50);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (got), ==, n);
  g_assert_cmpuint (tw_measurement_table_get_n_columns (got), ==, 1);
  g_assert_cmpstr (tw_measurement_table_get_column_name (got, 0), ==, "irq");
  for (gsize r = 0; r < n; r++)
    {
      const TwMeasurementRow *x = tw_measurement_table_get_row (got, r);
      const TwMeasurementRow *y = tw_measurement_table_get_row (builtin, r);

      g_assert_cmpuint (x->task, ==, y->task);
      g_assert_cmpuint (x->begin, ==, y->begin);
      g_assert_cmpuint (x->end, ==, y->end);
      g_assert_cmpuint (x->length, ==, y->length);
      g_assert_cmpuint (x->intermediate_events, ==, y->intermediate_events);
      g_assert_cmpfloat (tw_measurement_table_get_value (got, r, 0), ==,
                         tw_measurement_table_get_value (builtin, r, 0));
    }
  /* the lengths, plus the module's own value at finish: the 108 events with a CPU */
  g_assert_cmpuint (tw_histogram_get_count (hist), ==, n + 1);
  g_assert_cmpfloat (tw_histogram_get_max (hist), ==, 108);
  g_assert_cmpfloat (tw_histogram_get_percentile (hist, 0), ==, 7);
  g_assert_cmpfloat (tw_histogram_get_sum (hist), ==, 10 + 50 + 50 + 7 * 5 * 55 + 108);
}

static void
test_load_sample (void)
{
  g_autofree char *path = module_path ("sample-module.so");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (tw_plugin_get_name (plugin), ==, "sample-irq");
  g_assert_cmpuint (tw_plugin_get_module (plugin)->n_event_names, ==, 2);
  assert_same_as_builtin (plugin);
}

/* A bare file name is a file in the current directory, as a user typing
 * `tracewb-cli eval … --plugin a.so` means it, not a library for dlopen to search. */
static void
test_load_relative (void)
{
  g_autofree char *path = module_path ("sample-module.so");
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *cwd = g_get_current_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = NULL;

  g_assert_cmpint (g_chdir (dir), ==, 0);
  plugin = tw_plugin_new_for_path ("sample-module.so", &error);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_plugin_get_name (plugin), ==, "sample-irq");
}

static void
test_version_mismatch (void)
{
  g_autofree char *path = module_path ("sample-module-abi99.so");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);

  g_assert_null (plugin);
  g_assert_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_VERSION);
  g_assert_nonnull (strstr (error->message, "ABI version 99"));
  g_assert_nonnull (strstr (error->message, path));
}

static void
test_missing_symbol (void)
{
  g_autofree char *path = module_path ("sample-module-noentry.so");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);

  g_assert_null (plugin);
  g_assert_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_SYMBOL);
  g_assert_nonnull (strstr (error->message, "tw_evaluator_module_get"));
}

static void
test_bad_batch (void)
{
  g_autofree char *path = module_path ("sample-module-badbatch.so");
  g_autofree char *good_path = module_path ("sample-module.so");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);
  g_autoptr(TwPlugin) good = tw_plugin_new_for_path (good_path, NULL);

  g_assert_null (plugin);
  g_assert_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "tw_evaluator_module_get_batch"));
  g_assert_nonnull (strstr (error->message, path));
  /* the batch entry is optional: without it, a module loads and runs per event */
  g_assert_nonnull (good);
  g_assert_null (tw_plugin_get_batch_funcs (good));
}

static void
test_not_a_module (void)
{
  g_autofree char *path = tw_test_write_temp_file ("junk.so", "not an ELF file", -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);

  g_assert_null (plugin);
  g_assert_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_OPEN);
}

static void
test_bind_refused (void)
{
  g_autofree char *path = module_path ("sample-module.so");
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, NULL);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(GError) error = NULL;

  /* no irq events: the sample refuses to bind */
  tw_test_add_switch_type (trace);
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  g_assert_nonnull (plugin);
  table = tw_evaluator_evaluate (TW_EVALUATOR (plugin), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_null (table);
  g_assert_error (error, TW_PLUGIN_ERROR, TW_PLUGIN_ERROR_BIND);
}

/* A module reads payload fields by name and by index through the host. */
static void
test_fields (void)
{
  g_autofree char *path = module_path ("field-module.so");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = tw_plugin_new_for_path (path, &error);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwMeasurementTable) table = NULL;
  guint16 sw = tw_test_add_switch_type (trace);
  guint32 a = tw_trace_add_task (trace, "1", "a", 1, 1);
  guint32 b = tw_trace_add_task (trace, "2", "b", 2, 2);

  g_assert_no_error (error);
  tw_test_append_switch (trace, sw, 10, 0, a, b, "S");
  tw_test_append_switch (trace, sw, 20, 0, b, a, NULL);   /* prev_state absent */
  g_assert_true (tw_trace_seal (trace, NULL, NULL));
  table = tw_evaluator_evaluate (TW_EVALUATOR (plugin), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 2);
  g_assert_cmpuint (tw_measurement_table_get_row (table, 0)->task, ==, a);
  g_assert_cmpuint (tw_measurement_table_get_row (table, 0)->begin, ==, 10);
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 0, 0), ==, 1);
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 0, 1), ==, 'S');
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 0, 2), ==, 'S');
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 0, 3), ==, -1);
  g_assert_cmpuint (tw_measurement_table_get_row (table, 1)->task, ==, b);
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 1, 1), ==, 0);
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 1, 2), ==, 0);
}

static gboolean
run (const char *const *argv,
     char              **err)
{
  int status = -1;
  g_autoptr(GError) error = NULL;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, err,
                     &status, &error))
    return FALSE;
  return g_spawn_check_wait_status (status, NULL);
}

/* The header is self-contained: the module builds with a plain compiler outside meson,
 * with nothing but tw-evaluator.h on the include path, and the result loads. */
static void
test_out_of_tree (void)
{
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *cxx = g_find_program_in_path ("c++");
  g_autofree char *inc = g_strconcat ("-I", TW_SOURCE_DIR, "/evaluators", NULL);
  g_autofree char *src = g_build_filename (TW_SOURCE_DIR, "tests", "plugin", "sample-module.c", NULL);
  g_autofree char *header = g_build_filename (TW_SOURCE_DIR, "evaluators", "tw-evaluator.h", NULL);
  g_autofree char *out = g_build_filename (g_get_tmp_dir (), "out-of-tree-sample.so", NULL);
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TwPlugin) plugin = NULL;

  if (cc == NULL)
    {
      g_test_skip ("no C compiler named cc in PATH");
      return;
    }
  {
    const char *argv[] = { cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-shared",
                           "-fPIC", inc, src, "-o", out, NULL };

    if (!run (argv, &err))
      g_error ("out-of-tree build failed: %s", err);
  }
  plugin = tw_plugin_new_for_path (out, &error);
  g_assert_no_error (error);
  assert_same_as_builtin (plugin);

  /* Strict C99 too (the static asserts fall back to a negative-size array). */
  {
    const char *argv[] = { cc, "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror",
                           "-fsyntax-only", inc, src, NULL };

    g_clear_pointer (&err, g_free);
    if (!run (argv, &err))
      g_error ("C99 compile of the sample module failed: %s", err);
  }

  /* TW_BEGIN_DECLS and the static asserts also hold for C++. */
  if (cxx != NULL)
    {
      const char *argv[] = { cxx, "-std=c++11", "-pedantic", "-Wall", "-Wextra", "-Werror",
                             "-fsyntax-only", "-x", "c++", header, NULL };

      g_clear_pointer (&err, g_free);
      if (!run (argv, &err))
        g_error ("C++ compile of tw-evaluator.h failed: %s", err);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/plugin/load-sample", test_load_sample);
  g_test_add_func ("/tw/evaluators/plugin/load-relative", test_load_relative);
  g_test_add_func ("/tw/evaluators/plugin/version-mismatch", test_version_mismatch);
  g_test_add_func ("/tw/evaluators/plugin/missing-symbol", test_missing_symbol);
  g_test_add_func ("/tw/evaluators/plugin/bad-batch", test_bad_batch);
  g_test_add_func ("/tw/evaluators/plugin/not-a-module", test_not_a_module);
  g_test_add_func ("/tw/evaluators/plugin/bind-refused", test_bind_refused);
  g_test_add_func ("/tw/evaluators/plugin/fields", test_fields);
  g_test_add_func ("/tw/evaluators/plugin/out-of-tree", test_out_of_tree);

  return g_test_run ();
}
