/* main.c: the tracewb entry point
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-application.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(TwApplication) app = NULL;

  g_set_application_name ("Trace Workbench");
  app = tw_application_new ();
  return tw_application_run (app, argc, argv);
}
