/* tw-cli-simulate.c: `tracewb-cli simulate -o FILE`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-cli.h"

int
tw_cli_simulate (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("— write a simulated S.Ha.R.K. dump of a fixed-priority system");
  g_autoptr(TwSimulatorTruth) truth = NULL;
  g_autofree char *output = NULL;
  g_autofree char *truth_path = NULL;
  TwSimulatorOptions options;
  gint64 events;
  gint64 seed;
  gint tasks;
  gint cpu_mhz;
  gint timer_us;
  gint irq_us;
  GError *error = NULL;

  tw_simulator_options_init (&options);
  events = options.max_events;
  seed = options.seed;
  tasks = options.n_tasks;
  cpu_mhz = options.cpu_mhz;
  timer_us = options.timer_period_us;
  irq_us = options.irq_mean_interval_us;

  {
    const GOptionEntry entries[] = {
      { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The dump to write", "FILE" },
      { "events", 0, 0, G_OPTION_ARG_INT64, &events, "Records to write (the last is trace_stop; default 100000)", "N" },
      { "seed", 0, 0, G_OPTION_ARG_INT64, &seed, "PRNG seed (default 1)", "S" },
      { "tasks", 0, 0, G_OPTION_ARG_INT, &tasks, "Periodic tasks, 1–64 (default 4)", "N" },
      { "utilization", 0, 0, G_OPTION_ARG_DOUBLE, &options.utilization, "Total WCET/period (default 0.7; above 1 overloads)", "U" },
      { "cpu-mhz", 0, 0, G_OPTION_ARG_INT, &cpu_mhz, "TSC rate in MHz (default 367)", "MHZ" },
      { "overrun", 0, 0, G_OPTION_ARG_DOUBLE, &options.overrun_probability, "Probability that a job runs 2.5 × its WCET (default 0)", "P" },
      { "timer-us", 0, 0, G_OPTION_ARG_INT, &timer_us, "Timer interrupt period in µs (default 1000)", "US" },
      { "irq-us", 0, 0, G_OPTION_ARG_INT, &irq_us, "Mean gap between device interrupts in µs, 0 = none (default 5000)", "US" },
      { "truth", 0, 0, G_OPTION_ARG_FILENAME, &truth_path, "Also write the ground truth as JSON", "FILE.json" },
      { NULL }
    };

    g_option_context_add_main_entries (context, entries, NULL);
    if (!tw_cli_parse_options (context, &argc, &argv))
      return 2;
  }
  if (argc != 1 || output == NULL || events < 1 || seed < 0 || tasks < 1 || cpu_mhz < 1 ||
      timer_us < 1 || irq_us < 0)
    {
      g_printerr ("usage: tracewb-cli simulate -o FILE [--events N] [--seed S] [--tasks N] "
                  "[--utilization U] [--cpu-mhz MHZ] [--overrun P] [--timer-us US] "
                  "[--irq-us US] [--truth FILE.json]\n");
      return 2;
    }

  options.max_events = events;
  options.seed = seed;
  options.n_tasks = tasks;
  options.cpu_mhz = cpu_mhz;
  options.timer_period_us = timer_us;
  options.irq_mean_interval_us = irq_us;

  /* the truth costs a division per record: only when asked for */
  if (!tw_simulator_write_file (&options, output, truth_path ? &truth : NULL, &error))
    return tw_cli_fail ("simulate", error);

  if (truth_path)
    {
      g_autofree char *json = tw_simulator_truth_to_json (truth);

      if (!g_file_set_contents (truth_path, json, -1, &error))
        return tw_cli_fail ("simulate", error);
    }
  return 0;
}
