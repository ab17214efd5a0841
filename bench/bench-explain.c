/* bench-explain.c: how long explaining the worst measurement of a long trace takes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-explain [N_EVENTS]   (default 100 M events)
 *
 * Simulates a S.Ha.R.K. dump of N_EVENTS, reads it, evaluates response-time and explains
 * its worst measurement: with a state model of the events around it (what `tracewb-cli
 * explain` does, median of 5), and with the whole trace's state model, whose build time
 * is printed beside (what the window saves; the window's explanation must equal it).
 */
#include "config.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

static int
compare_double (const void *a,
                const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

int
main (int   argc,
      char *argv[])
{
  guint64 n_events = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 100000000;
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "bench-explain.shark", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwMetric) metric = tw_metric_new_system ("response-time", NULL);
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(TwExplanation) full = NULL;
  g_autofree char *full_json = NULL;
  const TwMeasurementRow *worst = NULL;
  TwSimulatorOptions options;
  double times[5];
  guint64 window_events = 0;
  gint64 t0;

  tw_simulator_options_init (&options);
  options.max_events = n_events;
  if (!tw_simulator_write_file (&options, path, NULL, &error)
      || !(trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error)))
    {
      g_printerr ("bench-explain: %s\n", error->message);
      return 1;
    }
  g_remove (path);

  t0 = g_get_monotonic_time ();
  table = tw_evaluator_evaluate (TW_EVALUATOR (metric), trace, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  printf ("%" G_GUINT64_FORMAT " events; response-time: %" G_GSIZE_FORMAT
          " measurements in %.3f s\n", tw_trace_get_n_events (trace),
          tw_measurement_table_get_n_rows (table), (g_get_monotonic_time () - t0) / 1e6);
  for (gsize r = 0; r < tw_measurement_table_get_n_rows (table); r++)
    if (worst == NULL || tw_measurement_table_get_row (table, r)->length > worst->length)
      worst = tw_measurement_table_get_row (table, r);

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    {
      g_autoptr(TwExplanation) e = NULL;

      t0 = g_get_monotonic_time ();
      e = tw_explain_measurement_in_window (trace, worst, &window_events);
      times[i] = (g_get_monotonic_time () - t0) / 1e3;
      if (i == 0)
        {
          g_autofree char *json = tw_explanation_to_json (e, trace);

          full_json = g_steal_pointer (&json);
        }
    }
  qsort (times, G_N_ELEMENTS (times), sizeof (double), compare_double);
  printf ("explain --worst (%.3f µs long): %.3f ms median of 5 (a state model of %"
          G_GUINT64_FORMAT " events)\n", worst->length / 1e3, times[2], window_events);

  t0 = g_get_monotonic_time ();
  model = tw_state_model_new (trace);
  tw_state_model_update (model, NULL, NULL);
  printf ("the whole trace's state model, for comparison: %.3f s\n",
          (g_get_monotonic_time () - t0) / 1e6);
  full = tw_explain_measurement (model, worst);
  {
    g_autofree char *json = tw_explanation_to_json (full, trace);

    printf ("window and whole-trace explanations %s\n",
            g_strcmp0 (json, full_json) == 0 ? "are equal" : "DIFFER");
    return g_strcmp0 (json, full_json) == 0 ? 0 : 1;
  }
}
