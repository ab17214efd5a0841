/* tw-cli-render-launch.c: `tracewb-cli render` runs in the tracewb-render program
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "tw-cli.h"

/*
 * Drawing needs GTK's widgets library, and a program linked with GTK loads its sixty
 * shared libraries and runs their constructors at every start: about 8 ms of CPU in
 * each `tracewb-cli info`, 2 % of reading a 126 MB trace.dat (issue 16 compares info
 * with the bare libtracecmd loop). Only render draws, so only tracewb-render links GTK,
 * and tracewb-cli replaces itself with it (exec: the same process, exit status, output
 * and timing as if render had run here).
 *
 * tracewb-render is found like the reader helper: $TRACEWB_RENDER_HELPER, else beside
 * the running program (the build tree), else the installed libexecdir.
 */

#define RENDER_HELPER_NAME "tracewb-render"
#define RENDER_HELPER_ENV  "TRACEWB_RENDER_HELPER"

static char *
executable_in (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, RENDER_HELPER_NAME, NULL);

  return g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) ? g_steal_pointer (&path) : NULL;
}

static char *
find_render_helper (GError **error)
{
  const char *env = g_getenv (RENDER_HELPER_ENV);
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *self_dir = self_exe ? g_path_get_dirname (self_exe) : NULL;
  char *path;

  if (env && *env)
    {
      if (g_file_test (env, G_FILE_TEST_IS_EXECUTABLE))
        return g_strdup (env);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s=%s: no such program",
                   RENDER_HELPER_ENV, env);
      return NULL;
    }
  if (self_dir && (path = executable_in (self_dir)))
    return path;
  if ((path = executable_in (TW_LIBEXECDIR)))
    return path;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               "the drawing program %s is in neither %s nor %s (reinstall Trace Workbench, "
               "or set %s)", RENDER_HELPER_NAME, self_dir ? self_dir : "-", TW_LIBEXECDIR,
               RENDER_HELPER_ENV);
  return NULL;
}

/**
 * tw_cli_render_launch:
 * @argv: the sub-command's arguments, argv[0] = "render"
 *
 * Execs tracewb-render with @argv; returns only when that fails.
 *
 * Returns: the exit status of a failed start
 */
int
tw_cli_render_launch (int    argc,
                      char **argv)
{
  GError *error = NULL;
  g_autofree char *path = find_render_helper (&error);

  if (path == NULL)
    return tw_cli_fail ("render", error);
  execv (path, argv);
  g_printerr ("tracewb-cli render: cannot run %s: %s\n", path, g_strerror (errno));
  return 1;
}
