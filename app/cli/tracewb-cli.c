/* tracewb-cli.c: the command-line tool, one sub-command per file
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <string.h>

#include "tw-cli.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "info", tw_cli_info, "What a trace holds: format, events, CPUs, tasks, time span, types" },
  { "events", tw_cli_events, "One line per event, filtered by time, type or task" },
#if HAVE_GUI
  { "render", tw_cli_render_launch, "Draw the timeline to PNG or SVG; --bench times frames" },
#endif
  { "jcs", tw_cli_jcs, "Monitor rate, latency and buffer size for a jitter-constrained stream" },
  { "convert", tw_cli_convert, "Write a trace in another format (--to csv)" },
  { "simulate", tw_cli_simulate, "Write a simulated S.Ha.R.K. dump (and its ground truth)" },
  { "eval", tw_cli_eval, "Evaluate a metric, user metric or plugin: CSV, histogram, worst cases" },
  { "compare", tw_cli_compare, "The same evaluation over two runs: statistics, tests, CI gate" },
  { "explain", tw_cli_explain, "Why one measurement took so long: its time by cause, and its wakeup chain" },
  { "calibrate", tw_cli_calibrate, "Measure what one trace event costs here (--compensated uses it)" },
  { "metrics", tw_cli_metrics, "The system metrics, and the events a metric requires" },
  { "automaton", tw_cli_automaton, "Check a metric automaton file, or export it as a C module" },
  { "cache", tw_cli_cache, "The trace cache: list its files, or clear it (docs/trace-cache.md)" },
  { "monitor", tw_cli_monitor, "Attach live to sensors, the kernel or an LTTng live session; counts, dump, record" },
};

static void
print_usage (void)
{
  g_printerr ("usage: tracewb-cli [--no-cache] COMMAND [OPTIONS] ...\n\n"
              "  --no-cache   read every trace from its file: neither map nor write the trace\n"
              "               cache (the same as TRACEWB_NO_CACHE=1)\n\ncommands:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_printerr ("  %-10s %s\n", commands[i].name, commands[i].summary);
  g_printerr ("\n'tracewb-cli COMMAND --help' for a command's options.\n");
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0)
    {
      print_usage ();
      return argc < 2 ? 2 : 0;
    }
  /* before the command: it holds for every trace the command reads */
  if (strcmp (argv[1], "--no-cache") == 0)
    {
      tw_trace_cache_set_default_enabled (FALSE);
      argv[1] = argv[0];
      argc--;
      argv++;
      if (argc < 2)
        {
          print_usage ();
          return 2;
        }
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("tracewb-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  /* a command that builds no state model does not wait for the cache to build one: the
   * window does it on the first reopen */
  tw_trace_cache_set_default_builds_models (FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (argv[1], commands[i].name) == 0)
      {
        int status = commands[i].run (argc - 1, argv + 1);

        /* a trace read may be being stored in the cache: finish the file, or it is lost */
        tw_trace_cache_wait_default ();
        return status;
      }

  g_printerr ("tracewb-cli: unknown command “%s”\n\n", argv[1]);
  print_usage ();
  return 2;
}
