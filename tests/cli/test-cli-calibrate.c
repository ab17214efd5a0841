/* test-cli-calibrate.c: `tracewb-cli calibrate` and the --compensated evaluations
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every test has a config folder of its own (G_TEST_OPTION_ISOLATE_DIRS), handed to the
 * tracewb-cli it runs, so the user's stored costs are never read or written.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <tw-evaluators.h>
#include <unistd.h>

#include "tw-test-utils.h"

/* GLib isolates this process's folders per test; the environment a child inherits
 * must name the same one. */
static void
isolate_config (void)
{
  g_assert_true (g_mkdir_with_parents (g_get_user_config_dir (), 0700) == 0);
  g_setenv ("XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
}

static void
test_sensor (void)
{
  const char *const args[] = { "calibrate", "--sensor", "--rounds", "5", "--events", "20000", NULL };
  const char *const show[] = { "calibrate", "--show", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto(TwEventCostCalibration) stored = { 0 };
  g_autoptr(GError) error = NULL;
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (show, &out, &err, &status);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "no tracing cost stored in "));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "sensor "));
  g_assert_nonnull (strstr (out, "5 rounds of 20000 events"));
  g_assert_true (tw_event_cost_lookup ("sensor", &stored, &error));
  g_assert_no_error (error);
  /* a write and a commit into shared memory: more than nothing, far below a syscall */
  g_assert_cmpfloat (stored.cost_ns, >, 0.5);
  g_assert_cmpfloat (stored.cost_ns, <, 5000);
  g_assert_cmpuint (stored.n_rounds, ==, 5);
  g_assert_cmpfloat (stored.spread_ns, >=, 0);
  g_assert_nonnull (stored.measured);
}

static void
test_ftrace (void)
{
  const char *const args[] = { "calibrate", "--ftrace", "--rounds", "3", "--events", "20000", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto(TwEventCostCalibration) stored = { 0 };
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  if (geteuid () != 0 || !g_file_test ("/sys/kernel/tracing/events/syscalls", G_FILE_TEST_IS_DIR))
    {
      /* the user is told why, and nothing is stored */
      g_assert_cmpint (status, ==, 1);
      g_assert_true (g_str_has_prefix (err, "tracewb-cli calibrate: ftrace: "));
      g_assert_false (tw_event_cost_lookup ("ftrace", &stored, NULL));
      g_test_skip ("timing an ftrace event needs root and tracefs with syscall tracepoints");
      return;
    }
  g_assert_cmpint (status, ==, 0);
  g_assert_true (tw_event_cost_lookup ("ftrace", &stored, NULL));
  g_assert_cmpfloat (stored.cost_ns, >, 0);
  /* the private instance is gone */
  {
    g_autofree char *instance = g_strdup_printf ("/sys/kernel/tracing/instances/tracewb-%d-0",
                                                 (int) getpid ());
    g_assert_false (g_file_test (instance, G_FILE_TEST_EXISTS));
  }
}

static char *
demo_path (void)
{
  return g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
}

/* `calibrate --set` stores a cost given, which --compensated then takes for the source
 * of the trace; the worst-case table says it subtracted it. */
static void
test_compensated_eval (void)
{
  g_autofree char *demo = demo_path ();
  const char *const uncalibrated[] = { "eval", demo, "--worst-case", "--compensated", NULL };
  const char *const set[] = { "calibrate", "--set", "shark=2us", NULL };
  const char *const given[] = { "eval", demo, "--worst-case", "--compensated", "--event-cost",
                                "2000ns", NULL };
  const char *const raw[] = { "eval", demo, "--worst-case", NULL };
  const char *const csv[] = { "eval", demo, "--metric", "wakeup-latency", "--event-cost",
                              "calibrated", "--csv", "-", NULL };
  g_autofree char *out = NULL, *err = NULL, *out_given = NULL, *out_raw = NULL;
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (uncalibrated, &out, &err, &status);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "no tracing cost for shark events on this machine"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (set, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==, "shark      2000.0 ns per event (given)\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (uncalibrated, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Worst case per task (µs; Espinosa 2003 Fig. 4; "
                                        "tracing cost 2.000 µs per event subtracted)\n"));
  g_assert_nonnull (strstr (out, "eq. (1), rate-monotonic priorities (µs; tracing cost 2.000 µs"));
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (given, &out_given, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out_given, ==, out);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (raw, &out_raw, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out_raw, "Worst case per task (µs; Espinosa 2003 Fig. 4; "
                                            "raw lengths, tracing cost not subtracted)\n"));
  g_assert_cmpstr (out_raw, !=, out);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (csv, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "task,begin_ns,end_ns,length_ns,intermediate_events,lost,"
                                        "compensated_length_ns"));
}

/* Costs per event type: given with --event-cost, or stored per type by calibrate --set
 * SOURCE:TYPE=COST and taken by `calibrated`; a cost without a unit is refused. */
static void
test_per_type_costs (void)
{
  g_autofree char *demo = demo_path ();
  const char *const set[] = { "calibrate", "--set", "shark=1us", "--set", "shark:kind:switch=5us", NULL };
  const char *const given[] = { "eval", demo, "--metric", "wakeup-latency", "--event-cost",
                                "kind:switch=5us,*=1us", "--csv", "-", NULL };
  const char *const calibrated[] = { "eval", demo, "--metric", "wakeup-latency", "--event-cost",
                                     "calibrated", "--csv", "-", NULL };
  const char *const uniform[] = { "eval", demo, "--metric", "wakeup-latency", "--event-cost",
                                  "1us", "--csv", "-", NULL };
  const char *const worst[] = { "eval", demo, "--worst-case", "--compensated", NULL };
  const char *const bare[] = { "eval", demo, "--metric", "wakeup-latency", "--event-cost",
                               "kind:switch=5,*=1us", NULL };
  g_autofree char *out_given = NULL, *out_calibrated = NULL, *out_uniform = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (given, &out_given, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out_given, "task,begin_ns,end_ns,length_ns,intermediate_events,"
                                              "lost,compensated_length_ns"));
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (uniform, &out_uniform, &err, &status);
  g_assert_cmpint (status, ==, 0);
  /* switches inside wakeup latencies cost 5 µs, not 1 */
  g_assert_cmpstr (out_given, !=, out_uniform);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (set, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (calibrated, &out_calibrated, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out_calibrated, ==, out_given);
  g_clear_pointer (&err, g_free);

  /* --show lists the single type's cost after its source's */
  tw_test_run_cli_or_fail ((const char *const[]) { "calibrate", "--show", NULL }, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "shark      1000.0 ns per event (given, "));
  g_assert_nonnull (strstr (out, "\nshark:kind:switch    5000.0 ns per event (given, "));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (worst, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (out, "Worst case per task (µs; Espinosa 2003 Fig. 4; tracing cost "
                                        "kind:switch 5.000 µs, * 1.000 µs per event subtracted)\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (bare, &out, &err, &status);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (err, "--event-cost “5”: a number without a unit"));
}

static void
test_compensated_compare (void)
{
  g_autofree char *demo = demo_path ();
  const char *const args[] = { "compare", demo, demo, "--metric", "wakeup-latency", "--compensated",
                               "--event-cost", "1us", "--json", NULL };
  const char *const alone[] = { "compare", demo, demo, "--metric", "wakeup-latency",
                                "--event-cost", "1us", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out, "\"event_cost_ns\" : {\n    \"a\" : 1000.0,\n    \"b\" : 1000.0"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a cost without --compensated would change nothing: refused */
  tw_test_run_cli_or_fail (alone, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  g_assert_true (g_str_has_prefix (err, "usage: tracewb-cli compare"));
}

/* The text from "Worst case per task" on. */
static const char *
worst_case_part (const char *out)
{
  const char *part = strstr (out, "Worst case per task");

  g_assert_nonnull (part);
  return part;
}

/* compare --worst-case subtracts each event's own cost from the Fig. 4 cells, as eval
 * does, and says which costs it subtracted. */
static void
test_compare_type_costs (void)
{
  g_autofree char *demo = demo_path ();
  const char *const typed[] = { "compare", demo, demo, "--metric", "wakeup-latency", "--compensated",
                                "--event-cost", "kind:switch=5us,*=1us", "--worst-case", NULL };
  const char *const uniform[] = { "compare", demo, demo, "--metric", "wakeup-latency", "--compensated",
                                  "--event-cost", "1us", "--worst-case", NULL };
  const char *const json[] = { "compare", demo, demo, "--metric", "wakeup-latency", "--compensated",
                               "--event-cost", "kind:switch=5us,*=1us", "--json", NULL };
  g_autofree char *out_typed = NULL, *out_uniform = NULL, *out_json = NULL, *err = NULL;
  int status;

  isolate_config ();

  tw_test_run_cli_or_fail (typed, &out_typed, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out_typed, "(A: kind:switch 5.000 µs, * 1.000 µs per event; "));
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (uniform, &out_uniform, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (worst_case_part (out_typed), !=, worst_case_part (out_uniform));
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (json, &out_json, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_nonnull (strstr (out_json, "\"a\" : \"kind:switch 5.000 µs, * 1.000 µs per event\""));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/tw/cli/calibrate/sensor", test_sensor);
  g_test_add_func ("/tw/cli/calibrate/ftrace", test_ftrace);
  g_test_add_func ("/tw/cli/calibrate/compensated-eval", test_compensated_eval);
  g_test_add_func ("/tw/cli/calibrate/per-type-costs", test_per_type_costs);
  g_test_add_func ("/tw/cli/calibrate/compensated-compare", test_compensated_compare);
  g_test_add_func ("/tw/cli/calibrate/compare-type-costs", test_compare_type_costs);
  return g_test_run ();
}
