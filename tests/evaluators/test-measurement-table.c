/* test-measurement-table.c: measurement rows and their CSV
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-test-utils.h"

#include <math.h>

static void
test_rows_and_csv (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  static const char *const columns[] = { "irq", "note,x", NULL };
  g_autoptr(TwMeasurementTable) table = tw_measurement_table_new (columns);
  guint32 plain = tw_trace_add_task (trace, "4711", "worker", 4711, 4711);
  guint32 odd = tw_trace_add_task (trace, "a,\"b\"", NULL, -1, -1);
  TwMeasurementRow m1 = { plain, 3, 1000, 1500, 400 };
  TwMeasurementRow m2 = { odd, 0, G_GUINT64_CONSTANT (18446744073709551000), G_MAXUINT64, 615 };
  TwMeasurementRow m3 = { TW_TASK_NONE, 1, 7, 9, 2 };
  double c1[] = { 42, 0.5 };
  double c2[] = { NAN, -1 };
  g_autofree char *csv = NULL;
  guint64 generation = tw_measurement_table_get_generation (table);

  tw_measurement_table_set_name (table, "irq-duration");
  tw_measurement_table_append (table, &m1, c1);
  tw_measurement_table_append (table, &m2, c2);
  tw_measurement_table_append (table, &m3, NULL);

  g_assert_cmpstr (tw_measurement_table_get_name (table), ==, "irq-duration");
  g_assert_cmpuint (tw_measurement_table_get_generation (table), ==, generation + 3);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (table), ==, 3);
  g_assert_cmpuint (tw_measurement_table_get_n_columns (table), ==, 2);
  g_assert_cmpint (tw_measurement_table_lookup_column (table, "note,x"), ==, 1);
  g_assert_cmpint (tw_measurement_table_lookup_column (table, "nope"), ==, -1);
  g_assert_cmpuint (tw_measurement_table_get_row (table, 1)->begin, ==,
                    G_GUINT64_CONSTANT (18446744073709551000));
  g_assert_cmpfloat (tw_measurement_table_get_value (table, 0, 0), ==, 42);
  g_assert_true (isnan (tw_measurement_table_get_value (table, 2, 1)));

  /* task as its source names it (quoted when it needs it), integers as they are,
   * empty cells for missing values */
  csv = tw_measurement_table_to_csv (table, trace);
  g_assert_cmpstr (csv, ==,
                   "task,begin_ns,end_ns,length_ns,intermediate_events,lost,irq,\"note,x\"\n"
                   "4711,1000,1500,400,3,0,42,0.5\n"
                   "\"a,\"\"b\"\"\",18446744073709551000,18446744073709551615,615,0,0,,-1\n"
                   ",7,9,2,1,0,,\n");

  tw_measurement_table_clear (table);
  g_clear_pointer (&csv, g_free);
  csv = tw_measurement_table_to_csv (table, NULL);
  g_assert_cmpstr (csv, ==, "task,begin_ns,end_ns,length_ns,intermediate_events,lost,irq,\"note,x\"\n");
}

/* Past a few MiB the rows move to a mapping of their own: one by one and in blocks,
 * every row keeps its values, the free columns follow, and clear starts over. */
static void
test_many_rows (void)
{
  const char *const columns[] = { "x", NULL };
  g_autoptr(TwMeasurementTable) t = tw_measurement_table_new (columns);
  TwMeasurementRow block[1000];
  const gsize n = 600000;
  gsize i = 0;

  while (i < n)
    {
      if ((i / 1000) % 2 == 0)
        {
          for (guint k = 0; k < G_N_ELEMENTS (block); k++, i++)
            block[k] = (TwMeasurementRow) { (guint32) (i % 7), (guint32) i, i, 2 * i, 3 * i };
          tw_measurement_table_append_rows (t, block, G_N_ELEMENTS (block));
        }
      else
        for (guint k = 0; k < 1000; k++, i++)
          {
            TwMeasurementRow row = { (guint32) (i % 7), (guint32) i, i, 2 * i, 3 * i };
            double x = (double) i;

            tw_measurement_table_append (t, &row, &x);
          }
    }
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, n);
  for (i = 0; i < n; i += 997)
    {
      const TwMeasurementRow *row = tw_measurement_table_get_row (t, i);

      g_assert_cmpuint (row->task, ==, i % 7);
      g_assert_cmpuint (row->intermediate_events, ==, i);
      g_assert_cmpuint (row->begin, ==, i);
      g_assert_cmpuint (row->end, ==, 2 * i);
      g_assert_cmpuint (row->length, ==, 3 * i);
      if ((i / 1000) % 2 == 0)
        g_assert_true (isnan (tw_measurement_table_get_value (t, i, 0)));
      else
        g_assert_cmpfloat (tw_measurement_table_get_value (t, i, 0), ==, (double) i);
    }
  tw_measurement_table_clear (t);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (t), ==, 0);
  tw_measurement_table_append (t, &(TwMeasurementRow) { 1, 2, 3, 4, 1 }, NULL);
  g_assert_cmpuint (tw_measurement_table_get_row (t, 0)->end, ==, 4);
}

static void
test_write_file (void)
{
  g_autoptr(TwMeasurementTable) table = tw_measurement_table_new (NULL);
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "m.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;

  /* more rows than one write batch */
  for (guint i = 0; i < 10000; i++)
    {
      TwMeasurementRow m = { TW_TASK_NONE, i % 7, i * 10, i * 10 + 5, 5 };

      tw_measurement_table_append (table, &m, NULL);
    }
  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (tw_measurement_table_write_csv (table, NULL, G_OUTPUT_STREAM (stream), NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, &error));
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  expected = tw_measurement_table_to_csv (table, NULL);
  g_assert_cmpstr (text, ==, expected);
  g_assert_cmpuint (strlen (text), >, 10000 * 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/measurement-table/rows-and-csv", test_rows_and_csv);
  g_test_add_func ("/tw/evaluators/measurement-table/write-file", test_write_file);
  g_test_add_func ("/tw/evaluators/measurement-table/many-rows", test_many_rows);

  return g_test_run ();
}
