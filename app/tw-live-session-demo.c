/* tw-live-session-demo.c: the live demo program a session starts, feeds from and ends
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "tw-live-session-private.h"

#define DEMO_DURATION "86400"   /* the session ends the demo; this is a backstop */

/**
 * tw_live_session_spawn_demo:
 * @program: the demo program (tw_live_find_demo_program)
 *
 * Makes a private sensor directory, which the session uses from then on, for @program
 * to write its sensors into. Call before tw_live_session_start(), which starts
 * @program once the poll thread runs (setting up the kernel source takes seconds, and
 * the demo's JCS-sized buffers would overflow before the first poll). The session ends
 * the demo when it stops.
 *
 * Returns: %FALSE with @error set when the directory cannot be made
 */
gboolean
tw_live_session_spawn_demo (TwLiveSession  *self,
                            const char     *program,
                            GError        **error)
{
  g_autofree char *template = NULL;
  char *dir;

  g_return_val_if_fail (TW_IS_LIVE_SESSION (self), FALSE);
  g_return_val_if_fail (!self->running && self->demo_program == NULL, FALSE);

  /* tmpfs when there is a runtime directory, like the per-user sensor directory */
  template = g_build_filename (g_get_user_runtime_dir (), "tracewb-live-demo-XXXXXX", NULL);
  if ((dir = g_mkdtemp_full (template, 0700)) == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", template,
                   g_strerror (saved));
      return FALSE;
    }
  self->private_dir = g_strdup (dir);
  self->demo_program = g_strdup (program);
  _tw_live_session_watch (self, tw_monitor_new (self->private_dir));
  return TRUE;
}

/* In the demo, before it runs: it ends with tracewb even when tracewb cannot stop it (a
 * crash, a failed test's abort), instead of writing for DEMO_DURATION. */
static void
demo_child_setup (gpointer parent_pid)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
  if (getppid () != GPOINTER_TO_INT (parent_pid))
    _exit (1);
}

/* Once the poll thread runs. Returns: %FALSE with @error set when it cannot start. */
gboolean
_tw_live_session_start_demo (TwLiveSession  *self,
                             GError        **error)
{
  /* its per-sensor summary at exit is for terminals, not for the window */
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE);

  g_subprocess_launcher_setenv (launcher, "TRACEWB_SENSOR_DIR", self->private_dir, TRUE);
  g_subprocess_launcher_set_child_setup (launcher, demo_child_setup,
                                         GINT_TO_POINTER (getpid ()), NULL);
  self->demo = g_subprocess_launcher_spawn (launcher, error, self->demo_program, "--sensor-dir",
                                            self->private_dir, "--duration", DEMO_DURATION, NULL);
  return self->demo != NULL;
}

/* After the demo ended and the monitor stopped reading its sensors. */
void
_tw_live_session_remove_demo_dir (TwLiveSession *self)
{
  g_autoptr (GDir) dir = NULL;
  const char *name;

  if (self->private_dir == NULL)
    return;
  /* the demo removes its files at exit; a killed one leaves them */
  if ((dir = g_dir_open (self->private_dir, 0, NULL)))
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *path = g_build_filename (self->private_dir, name, NULL);
        g_unlink (path);
      }
  g_rmdir (self->private_dir);
  g_clear_pointer (&self->private_dir, g_free);
}

void
_tw_live_session_stop_demo (TwLiveSession *self)
{
  if (self->demo == NULL)
    return;
  /* SIGTERM lets it remove its sensor files; a demo that does not end in a second is
   * killed (it must never outlive the window) */
  g_subprocess_send_signal (self->demo, SIGTERM);
  /* the identifier goes once GLib's worker thread reaped the process */
  for (int i = 0; i < 100 && g_subprocess_get_identifier (self->demo) != NULL; i++)
    g_usleep (10000);
  g_subprocess_force_exit (self->demo);
  g_subprocess_wait (self->demo, NULL, NULL);
  g_clear_object (&self->demo);
}

/**
 * tw_live_dup_demo_search_dirs:
 *
 * Where `tracewb --live-demo` looks for the demo program: beside the running program
 * (the build directory, or an installed bindir), then the configured bindir.
 *
 * Returns: (transfer full): a %NULL-terminated list of directories
 */
char **
tw_live_dup_demo_search_dirs (void)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);

  if (self_exe)
    {
      g_autofree char *dir = g_path_get_dirname (self_exe);
      g_strv_builder_add (builder, dir);
    }
  g_strv_builder_add (builder, TW_BINDIR);
  return g_strv_builder_end (builder);
}

/**
 * tw_live_find_demo_program:
 * @dirs: directories to look in, in order
 *
 * Returns: (transfer full) (nullable): the path of the first executable
 *   `tracewb-demo-rt` in @dirs; %NULL with @error naming every place looked at
 */
char *
tw_live_find_demo_program (const char *const  *dirs,
                           GError            **error)
{
  g_autoptr (GString) tried = g_string_new (NULL);

  for (guint i = 0; dirs && dirs[i]; i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], TW_LIVE_DEMO_PROGRAM, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_REGULAR) && g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&path);
      g_string_append_printf (tried, "%s%s", tried->len ? ", " : "", path);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
               _("The live demo program “%s” was not found (looked for %s); build it "
                 "(it is part of the tracewb build) or install Trace Workbench"),
               TW_LIVE_DEMO_PROGRAM, tried->len ? tried->str : _("nothing: no directories"));
  return NULL;
}
