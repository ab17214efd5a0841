/* tw-test-lttng.h: a private LTTng session daemon and relay for the LTTng live tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each test gets its own lttng-sessiond and lttng-relayd: LTTNG_HOME in a fresh folder
 * (the daemon's sockets, the apps' registration), the relay's output in another, free
 * loopback ports picked by the kernel. Both run in the foreground as our children: we
 * know their PIDs, stop exactly those and wait for them. No daemon of the machine's is
 * touched. Skipped (g_test_skip) when LTTng is not installed or will not start.
 *
 * As root, lttng-sessiond, the `lttng` client and UST programs ignore LTTNG_HOME and
 * meet in /var/run/lttng, the machine's own: there the session daemon, the client and
 * the UST program run as `nobody` (setpriv), whose session daemon lives in LTTNG_HOME.
 * The relay has no such global state and runs as we do.
 */
#pragma once

#include <arpa/inet.h>
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <pwd.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
  char    *home;         /* LTTNG_HOME */
  char    *output;       /* the relay's --output */
  guint16  ports[3];     /* control, data, live */
  GPid     relayd;
  GPid     sessiond;
  char   **env;          /* ours with LTTNG_HOME */
  char    *hostname;     /* as LTTng names this machine in live URLs */
  char   **as_user;      /* argv prefix running a program as nobody (root only), or NULL */
} TwTestLttng;

/* @argv behind lt->as_user, when there is one. */
static inline GPtrArray *
tw_test_lttng_argv (TwTestLttng       *lt,
                    const char *const *argv)
{
  GPtrArray *all = g_ptr_array_new ();

  for (guint i = 0; lt->as_user && lt->as_user[i]; i++)
    g_ptr_array_add (all, lt->as_user[i]);
  for (guint i = 0; argv[i]; i++)
    g_ptr_array_add (all, (gpointer) argv[i]);
  g_ptr_array_add (all, NULL);
  return all;
}

static inline void
tw_test_lttng_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        tw_test_lttng_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/* Three free loopback ports: bound all at once (so they differ), then released. */
static inline gboolean
tw_test_lttng_pick_ports (guint16 ports[3])
{
  int fds[3] = { -1, -1, -1 };
  gboolean ok = TRUE;

  for (guint i = 0; i < 3 && ok; i++)
    {
      struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
      socklen_t len = sizeof addr;

      fds[i] = socket (AF_INET, SOCK_STREAM, 0);
      ok = fds[i] >= 0 && bind (fds[i], (struct sockaddr *) &addr, sizeof addr) == 0
           && getsockname (fds[i], (struct sockaddr *) &addr, &len) == 0;
      ports[i] = ntohs (addr.sin_port);
    }
  for (guint i = 0; i < 3; i++)
    if (fds[i] >= 0)
      close (fds[i]);
  return ok;
}

static inline gboolean
tw_test_lttng_port_open (guint16 port)
{
  struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons (port),
                              .sin_addr.s_addr = htonl (INADDR_LOOPBACK) };
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  gboolean ok = fd >= 0 && connect (fd, (struct sockaddr *) &addr, sizeof addr) == 0;

  if (fd >= 0)
    close (fd);
  return ok;
}

/* Runs `lttng ARGS…` against our session daemon. */
static inline gboolean
tw_test_lttng_run (TwTestLttng *lt,
                   const char  *first,
                   ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GPtrArray) argv = NULL;
  g_autofree char *out = NULL, *err = NULL;
  int status = -1;
  va_list ap;

  g_ptr_array_add (args, (gpointer) "lttng");
  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  argv = tw_test_lttng_argv (lt, (const char *const *) args->pdata);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, lt->env, G_SPAWN_SEARCH_PATH, NULL, NULL,
                     &out, &err, &status, NULL))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("lttng %s: %s%s", first, out ? out : "", err ? err : "");
      return FALSE;
    }
  return TRUE;
}

/* A test that fails an assertion ends without its teardown: the daemons go with it. */
static inline void
tw_test_lttng_child_setup (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static inline gboolean
tw_test_lttng_spawn (TwTestLttng       *lt,
                     const char *const *argv,
                     gboolean           as_user,
                     GPid              *pid)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) all = as_user ? tw_test_lttng_argv (lt, argv) : NULL;

  /* setpriv execs the program: the PID is the daemon's own */
  if (!g_spawn_async (NULL, all ? (char **) all->pdata : (char **) argv, lt->env,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD
                      | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                      tw_test_lttng_child_setup, NULL, pid, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return FALSE;
    }
  return TRUE;
}

/* Stops @pid (one of ours) and waits for it. */
static inline void
tw_test_lttng_stop_pid (GPid *pid)
{
  int status;

  if (*pid <= 0)
    return;
  kill (*pid, SIGTERM);
  for (guint i = 0; i < 500; i++)
    {
      if (waitpid (*pid, &status, WNOHANG) == *pid)
        {
          *pid = 0;
          return;
        }
      g_usleep (10000);
    }
  kill (*pid, SIGKILL);
  while (waitpid (*pid, &status, 0) < 0 && errno == EINTR)
    ;
  *pid = 0;
}

static inline gboolean
tw_test_lttng_start_relayd (TwTestLttng *lt)
{
  g_autofree char *c = g_strdup_printf ("tcp://127.0.0.1:%u", lt->ports[0]);
  g_autofree char *d = g_strdup_printf ("tcp://127.0.0.1:%u", lt->ports[1]);
  g_autofree char *l = g_strdup_printf ("tcp://127.0.0.1:%u", lt->ports[2]);
  const char *argv[] = { "lttng-relayd", "-C", c, "-D", d, "-L", l, "-o", lt->output, NULL };

  if (!tw_test_lttng_spawn (lt, argv, FALSE, &lt->relayd))
    return FALSE;
  for (guint i = 0; i < 500; i++)
    {
      if (tw_test_lttng_port_open (lt->ports[2]) && tw_test_lttng_port_open (lt->ports[0]))
        return TRUE;
      if (waitpid (lt->relayd, NULL, WNOHANG) == lt->relayd)
        {
          lt->relayd = 0;
          return FALSE;
        }
      g_usleep (10000);
    }
  return FALSE;
}

static inline void
tw_test_lttng_stop_relayd (TwTestLttng *lt)
{
  tw_test_lttng_stop_pid (&lt->relayd);
}

/* Creates live session @name (live timer @timer_us) sending to our relay, all UST
 * events enabled with their thread, process and process name, started. */
static inline gboolean
tw_test_lttng_create_session (TwTestLttng *lt,
                              const char  *name,
                              guint        timer_us)
{
  g_autofree char *live = g_strdup_printf ("--live=%u", timer_us);
  g_autofree char *url = g_strdup_printf ("--set-url=net://127.0.0.1:%u:%u", lt->ports[0], lt->ports[1]);

  /* the thread and process contexts give events their task (the CTF reader's mapping) */
  return tw_test_lttng_run (lt, "create", name, live, url, NULL)
         && tw_test_lttng_run (lt, "enable-event", "-s", name, "-u", "-a", NULL)
         && tw_test_lttng_run (lt, "add-context", "-s", name, "-u", "-t", "vpid", "-t", "vtid",
                               "-t", "procname", NULL)
         && tw_test_lttng_run (lt, "start", name, NULL);
}

/* Runs the test build's UST program: @n events, @delay_us apart. */
static inline gboolean
tw_test_lttng_emit_mode (TwTestLttng *lt,
                         guint        n,
                         guint        delay_us,
                         const char  *mode)
{
  g_autofree char *count = g_strdup_printf ("%u", n);
  g_autofree char *delay = g_strdup_printf ("%u", delay_us);
  const char *args[] = { g_getenv ("TW_LTTNG_EMIT"), count, delay, mode, NULL };
  g_autoptr(GPtrArray) argv = tw_test_lttng_argv (lt, args);
  int status = -1;

  return g_spawn_sync (NULL, (char **) argv->pdata, lt->env, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                       NULL, NULL, &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

static inline gboolean
tw_test_lttng_emit (TwTestLttng *lt,
                    guint        n,
                    guint        delay_us)
{
  return tw_test_lttng_emit_mode (lt, n, delay_us, NULL);
}

static inline char *
tw_test_lttng_url (TwTestLttng *lt,
                   const char  *session)
{
  if (session == NULL)
    return g_strdup_printf ("net://127.0.0.1:%u", lt->ports[2]);
  return g_strdup_printf ("net://127.0.0.1:%u/host/%s/%s", lt->ports[2], lt->hostname, session);
}

static inline void
tw_test_lttng_stop (TwTestLttng *lt)
{
  tw_test_lttng_stop_pid (&lt->sessiond);
  tw_test_lttng_stop_relayd (lt);
  if (lt->home)
    tw_test_lttng_remove_tree (lt->home);
  if (lt->output)
    tw_test_lttng_remove_tree (lt->output);
  g_clear_pointer (&lt->home, g_free);
  g_clear_pointer (&lt->output, g_free);
  g_clear_pointer (&lt->env, g_strfreev);
  g_clear_pointer (&lt->hostname, g_free);
  g_clear_pointer (&lt->as_user, g_strfreev);
}

/* Starts the relay and the session daemon; FALSE (with the test skipped, saying why)
 * when LTTng is missing or does not start here. */
static inline gboolean
tw_test_lttng_start (TwTestLttng *lt)
{
  g_autofree char *sessiond = g_find_program_in_path ("lttng-sessiond");
  g_autofree char *relayd = g_find_program_in_path ("lttng-relayd");
  g_autofree char *lttng = g_find_program_in_path ("lttng");
  const char *emit = g_getenv ("TW_LTTNG_EMIT");
  const char *argv[] = { "lttng-sessiond", "--no-kernel", NULL };
  char host[256];

  memset (lt, 0, sizeof *lt);
  if (!sessiond || !relayd || !lttng)
    {
      g_test_skip ("lttng-sessiond, lttng-relayd or lttng is not installed (Debian: lttng-tools)");
      return FALSE;
    }
  if (!emit || !g_file_test (emit, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the UST test program was not built (Debian: liblttng-ust-dev)");
      return FALSE;
    }
  lt->home = g_dir_make_tmp ("tw-lttng-home-XXXXXX", NULL);
  lt->output = g_dir_make_tmp ("tw-lttng-relay-XXXXXX", NULL);
  lt->env = g_environ_setenv (g_get_environ (), "LTTNG_HOME", lt->home, TRUE);
  if (getuid () == 0)
    {
      struct passwd *nobody = getpwnam ("nobody");
      g_autofree char *setpriv = g_find_program_in_path ("setpriv");

      if (nobody == NULL || setpriv == NULL || chown (lt->home, nobody->pw_uid, nobody->pw_gid) != 0)
        {
          tw_test_lttng_stop (lt);
          g_test_skip ("running as root without a user `nobody` and setpriv to run a private "
                       "lttng-sessiond (root's is the machine's, in /var/run/lttng)");
          return FALSE;
        }
      lt->as_user = g_new0 (char *, 6);
      lt->as_user[0] = g_steal_pointer (&setpriv);
      lt->as_user[1] = g_strdup_printf ("--reuid=%u", (guint) nobody->pw_uid);
      lt->as_user[2] = g_strdup_printf ("--regid=%u", (guint) nobody->pw_gid);
      lt->as_user[3] = g_strdup ("--clear-groups");
      /* a new user clears the parent-death signal: setpriv sets it again */
      lt->as_user[4] = g_strdup ("--pdeathsig=TERM");
    }
  gethostname (host, sizeof host);
  host[sizeof host - 1] = '\0';
  lt->hostname = g_strdup (host);
  if (!tw_test_lttng_pick_ports (lt->ports) || !tw_test_lttng_start_relayd (lt))
    {
      tw_test_lttng_stop (lt);
      g_test_skip ("lttng-relayd did not start on loopback ports");
      return FALSE;
    }
  if (!tw_test_lttng_spawn (lt, argv, TRUE, &lt->sessiond))
    {
      tw_test_lttng_stop (lt);
      g_test_skip ("lttng-sessiond did not start");
      return FALSE;
    }
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *sock = g_build_filename (lt->home, ".lttng", "client-lttng-sessiond", NULL);

      if (g_file_test (sock, G_FILE_TEST_EXISTS) && tw_test_lttng_run (lt, "list", NULL))
        return TRUE;
      if (waitpid (lt->sessiond, NULL, WNOHANG) == lt->sessiond)
        {
          lt->sessiond = 0;
          break;
        }
      g_usleep (10000);
    }
  tw_test_lttng_stop (lt);
  g_test_skip ("lttng-sessiond did not answer");
  return FALSE;
}
