/* tracewb-render.c: the program `tracewb-cli render` runs, the only one of the CLI linked
 * with GTK
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * tracewb-cli execs it with the sub-command's own argv (argv[0] = "render"): see
 * tw-cli-render-launch.c for why render is a program of its own.
 */
#include "config.h"

#include <locale.h>

#include "tw-cli.h"

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  return tw_cli_render (argc, argv);
}
