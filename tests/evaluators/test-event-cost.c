/* test-event-cost.c: event costs given on the command line and stored by calibrate
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

static void
test_parse (void)
{
  const struct { const char *text; double ns; } good[] = {
    { "800ns", 800 }, { "0.8us", 800 }, { "0.8µs", 800 }, { "0.0008ms", 800 }, { "1.5 us", 1500 },
    { "0ns", 0 },
  };
  const char *bad[] = { "0.8", "", "us", "-1us", "1 parsec", "nanus", "1s" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      double ns = -1;

      g_assert_true (tw_event_cost_parse (good[i].text, &ns, NULL));
      g_assert_cmpfloat_with_epsilon (ns, good[i].ns, 1e-9);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      double ns;

      g_assert_false (tw_event_cost_parse (bad[i], &ns, &error));
      g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      g_assert_nonnull (strstr (error->message, "--event-cost"));
    }
}

static void
test_source_for_trace (void)
{
  const struct { const char *format; const char *source; } map[] = {
    { "trace-dat", "ftrace" }, { "ftrace-text", "ftrace" }, { "ctf", "lttng" },
    { "shark", "shark" }, { "csv", "csv" }, { "live", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    {
      g_autoptr(TwTrace) trace = tw_trace_new ();

      tw_trace_set_metadata (trace, "format", map[i].format);
      g_assert_cmpstr (tw_event_cost_source_for_trace (trace), ==, map[i].source);
    }
}

/* The store keeps each source's entry when another is written; isolated config dir. */
static void
test_store_lookup (void)
{
  TwEventCostCalibration ftrace = { 276.5, 6.9, 21, 200000, (char *) "2026-11-27T14:05:29Z",
                                    (char *) "vm, Linux 6.18" };
  TwEventCostCalibration sensor = { 16, 0.5, 7, 1000, (char *) "2026-11-27T14:05:28Z", (char *) "vm" };
  g_auto(TwEventCostCalibration) got = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tw_event_cost_dup_store_path ();
  g_autofree char *text = NULL;

  g_assert_false (tw_event_cost_lookup ("ftrace", &got, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "tracewb-cli calibrate"));
  g_clear_error (&error);

  g_assert_true (tw_event_cost_store ("ftrace", &ftrace, &error));
  g_assert_no_error (error);
  g_assert_true (tw_event_cost_store ("sensor", &sensor, &error));
  g_assert_true (tw_event_cost_lookup ("ftrace", &got, &error));
  g_assert_cmpfloat (got.cost_ns, ==, 276.5);
  g_assert_cmpfloat (got.spread_ns, ==, 6.9);
  g_assert_cmpuint (got.n_rounds, ==, 21);
  g_assert_cmpuint (got.events_per_round, ==, 200000);
  g_assert_cmpstr (got.machine, ==, "vm, Linux 6.18");
  tw_event_cost_calibration_clear (&got);
  g_assert_true (tw_event_cost_lookup ("sensor", &got, &error));
  g_assert_cmpfloat (got.cost_ns, ==, 16);
  tw_event_cost_calibration_clear (&got);

  /* a hand-edited store with a word for a number is an error naming the file */
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_true (g_file_set_contents (path, "[ftrace]\ncost_ns=fast\n", -1, NULL));
  g_assert_false (tw_event_cost_lookup ("ftrace", &got, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, path));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/tw/evaluators/event-cost/parse", test_parse);
  g_test_add_func ("/tw/evaluators/event-cost/source", test_source_for_trace);
  g_test_add_func ("/tw/evaluators/event-cost/store", test_store_lookup);
  return g_test_run ();
}
