/* tw-test-lttng-lab.h: two "remote" LTTng targets and a relay on one machine, for the multi-target tests
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each target is a private lttng-sessiond in a UTS namespace of its own (its hostname,
 * "tA" or "tB", is what LTTng names it by in the relay's URLs: lttng-sessiond has no
 * hostname option) and a network namespace of its own, joined to this one by a veth
 * pair: the target sees only its veth address and loopback, and reaches the relay
 * through its end of the pair. The relay runs here, its control and data ports on the
 * first pair's address, its live port on loopback for the workbench.
 *
 * The namespaces are `unshare -u -n` made for the daemon, which unshare then execs: the
 * PID we spawn is the daemon's, we stop exactly it, and the namespace (with its veth
 * pair) goes when its last process does. Whatever runs on a target (its lttng commands,
 * emitters, the demo and its monitor) runs in its namespaces (nsenter), as nobody. Needs root (namespaces; the daemons then run as nobody, as in
 * tw-test-lttng.h); skipped with a message otherwise.
 */
#pragma once

#include <stdlib.h>

#include "tw-test-lttng.h"

#define TW_LAB_TARGETS 2

typedef struct {
  TwTestLttng  relay;                    /* its relayd, output and ports */
  TwTestLttng  targets[TW_LAB_TARGETS];  /* their sessiond, home, env and hostname */
  char        *veth[TW_LAB_TARGETS];     /* our end of each pair */
  char        *gateway[TW_LAB_TARGETS];  /* its address, the target's route out */
  char        *address[TW_LAB_TARGETS];  /* the target's end */
  char        *uts[TW_LAB_TARGETS];      /* its UTS namespace ("uts:[INODE]") */
} TwTestLab;

/* Ends what is left in the UTS namespace @uts, which we made: a session daemon that had
 * to be killed leaves its consumer daemons and run-as helper there. Each is one of ours
 * by the namespace it lives in; each is killed by its PID, and we wait until none is
 * left (bounded). */
static inline void
tw_test_lab_end_namespace (const char *uts)
{
  for (guint round = 0; round < 100; round++)
    {
      g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
      const char *name;
      gboolean any = FALSE;

      while (proc && (name = g_dir_read_name (proc)))
        {
          g_autofree char *link = NULL;
          g_autofree char *path = NULL;
          char *end = NULL;
          long pid = strtol (name, &end, 10);

          if (pid <= 1 || *end || pid == getpid ())
            continue;
          path = g_strdup_printf ("/proc/%ld/ns/uts", pid);
          link = g_file_read_link (path, NULL);
          if (link == NULL || g_strcmp0 (link, uts) != 0)
            continue;
          any = TRUE;
          kill ((pid_t) pid, SIGKILL);
        }
      if (!any)
        return;
      g_usleep (10000);
    }
}

/* Runs @argv (ours, as root) and says whether it succeeded. */
static inline gboolean
tw_test_lab_run (const char *const *argv)
{
  g_autofree char *err = NULL;
  int status = -1;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &err, &status, NULL))
    return FALSE;
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_test_message ("%s: %s", argv[0], err ? err : "");
      return FALSE;
    }
  return TRUE;
}

static inline void
tw_test_lab_stop (TwTestLab *lab)
{
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      tw_test_lttng_stop (&lab->targets[k]);
      if (lab->uts[k])
        tw_test_lab_end_namespace (lab->uts[k]);
      g_clear_pointer (&lab->uts[k], g_free);
      /* gone with the namespace already, unless a daemon outlived its stop */
      if (lab->veth[k])
        {
          const char *del[] = { "ip", "link", "del", lab->veth[k], NULL };
          g_autofree char *path = g_strdup_printf ("/sys/class/net/%s", lab->veth[k]);

          if (g_file_test (path, G_FILE_TEST_EXISTS))
            tw_test_lab_run (del);
        }
      g_clear_pointer (&lab->veth[k], g_free);
      g_clear_pointer (&lab->gateway[k], g_free);
      g_clear_pointer (&lab->address[k], g_free);
    }
  tw_test_lttng_stop (&lab->relay);
}

/* The target's setup inside its new namespaces, then the daemon in its place. */
static const char tw_test_lab_script[] =
  "set -e\n"
  "hostname \"$1\"\n"
  "ip link set lo up\n"
  "i=0; while ! ip link show lab0 >/dev/null 2>&1; do\n"
  "  i=$((i+1)); [ $i -lt 500 ] || exit 9; sleep 0.01; done\n"
  "ip addr add \"$2\"/24 dev lab0\n"
  "ip link set lab0 up\n"
  "ip route add default via \"$3\"\n"
  "shift 3\n"
  "exec \"$@\"\n";

/* From now on, what runs "on" target @k (its lttng commands, emitters, the demo, a
 * monitor: tw_test_lttng_argv) runs in its namespaces, as nobody: nsenter and setpriv
 * both exec, so a PID spawned is the program's own. */
static inline void
tw_test_lab_enter_target (TwTestLab *lab,
                          guint      k)
{
  TwTestLttng *t = &lab->targets[k];
  g_autoptr(GStrvBuilder) prefix = g_strv_builder_new ();
  g_autofree char *target = g_strdup_printf ("--target=%d", t->sessiond);
  /* a full path: not every spawn searches PATH */
  g_autofree char *nsenter = g_find_program_in_path ("nsenter");

  g_strv_builder_add_many (prefix, nsenter, target, "-u", "-n", NULL);
  g_strv_builder_addv (prefix, (const char **) lab->relay.as_user);
  g_strfreev (t->as_user);
  t->as_user = g_strv_builder_end (prefix);
}

/* Target @k: its home for nobody, its namespaces, its daemon, its end of a veth pair. */
static inline gboolean
tw_test_lab_start_target (TwTestLab *lab,
                          guint      k)
{
  TwTestLttng *t = &lab->targets[k];
  guint net = (guint) getpid () % 250;
  g_autofree char *pid_text = NULL;
  g_autofree char *host_side = NULL;

  t->hostname = g_strdup_printf ("t%c", 'A' + k);
  t->home = g_dir_make_tmp ("tw-lab-home-XXXXXX", NULL);
  t->env = g_environ_setenv (g_get_environ (), "LTTNG_HOME", t->home, TRUE);
  t->as_user = g_strdupv (lab->relay.as_user);
  if (chown (t->home, 65534, 65534) != 0)
    return FALSE;
  lab->address[k] = g_strdup_printf ("10.%u.%u.2", 230 + k, net);
  lab->gateway[k] = g_strdup_printf ("10.%u.%u.1", 230 + k, net);
  lab->veth[k] = g_strdup_printf ("twl%u%c", (guint) getpid () % 1000000, 'a' + k);
  {
    g_autoptr(GPtrArray) argv = g_ptr_array_new ();
    const char *daemon[] = { "lttng-sessiond", "--no-kernel", NULL };

    g_ptr_array_add (argv, (gpointer) "unshare");
    g_ptr_array_add (argv, (gpointer) "-u");
    g_ptr_array_add (argv, (gpointer) "-n");
    g_ptr_array_add (argv, (gpointer) "sh");
    g_ptr_array_add (argv, (gpointer) "-c");
    g_ptr_array_add (argv, (gpointer) tw_test_lab_script);
    g_ptr_array_add (argv, (gpointer) "lab-target");
    g_ptr_array_add (argv, t->hostname);
    g_ptr_array_add (argv, lab->address[k]);
    g_ptr_array_add (argv, lab->gateway[k]);
    for (guint i = 0; t->as_user[i]; i++)
      g_ptr_array_add (argv, t->as_user[i]);
    for (guint i = 0; daemon[i]; i++)
      g_ptr_array_add (argv, (gpointer) daemon[i]);
    g_ptr_array_add (argv, NULL);
    if (!tw_test_lttng_spawn (t, (const char *const *) argv->pdata, FALSE, &t->sessiond))
      return FALSE;
  }
  pid_text = g_strdup_printf ("%d", t->sessiond);
  host_side = g_strdup_printf ("%s/24", lab->gateway[k]);
  /* the namespace exists once unshare ran: a few tries while it starts */
  for (guint i = 0; i < 100; i++)
    {
      const char *add[] = { "ip", "link", "add", lab->veth[k], "type", "veth", "peer", "name", "lab0",
                            "netns", pid_text, NULL };
      g_autofree char *ns = g_strdup_printf ("/proc/%d/ns/net", t->sessiond);
      g_autofree char *own = g_file_read_link ("/proc/self/ns/net", NULL);
      g_autofree char *theirs = g_file_read_link (ns, NULL);

      if (theirs && g_strcmp0 (own, theirs) != 0)
        {
          g_autofree char *uts = g_strdup_printf ("/proc/%d/ns/uts", t->sessiond);

          const char *addr[] = { "ip", "addr", "add", host_side, "dev", lab->veth[k], NULL };
          const char *up[] = { "ip", "link", "set", lab->veth[k], "up", NULL };

          lab->uts[k] = g_file_read_link (uts, NULL);
          if (!tw_test_lab_run (add) || !tw_test_lab_run (addr) || !tw_test_lab_run (up))
            return FALSE;
          tw_test_lab_enter_target (lab, k);
          break;
        }
      if (waitpid (t->sessiond, NULL, WNOHANG) == t->sessiond)
        {
          t->sessiond = 0;
          return FALSE;
        }
      g_usleep (10000);
    }
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *sock = g_build_filename (t->home, ".lttng", "client-lttng-sessiond", NULL);

      if (g_file_test (sock, G_FILE_TEST_EXISTS) && tw_test_lttng_run (t, "--no-sessiond", "list", NULL))
        return TRUE;
      if (waitpid (t->sessiond, NULL, WNOHANG) == t->sessiond)
        {
          t->sessiond = 0;
          return FALSE;
        }
      g_usleep (10000);
    }
  return FALSE;
}

/* Starts both targets and the relay; FALSE (the test skipped, saying why) where that
 * cannot be done here. */
static inline gboolean
tw_test_lab_start (TwTestLab *lab)
{
  const char *tools[] = { "lttng-sessiond", "lttng-relayd", "lttng", "unshare", "nsenter", "ip", "setpriv", NULL };
  const char *emit = g_getenv ("TW_LTTNG_EMIT");

  memset (lab, 0, sizeof *lab);
  for (guint i = 0; tools[i]; i++)
    {
      g_autofree char *path = g_find_program_in_path (tools[i]);

      if (path == NULL)
        {
          g_autofree char *why = g_strdup_printf ("%s is not installed: no namespaced LTTng targets "
                                                  "(Debian: lttng-tools, util-linux, iproute2)", tools[i]);
          g_test_skip (why);
          return FALSE;
        }
    }
  if (!emit || !g_file_test (emit, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("the UST test program was not built (Debian: liblttng-ust-dev)");
      return FALSE;
    }
  if (getuid () != 0 || getpwnam ("nobody") == NULL)
    {
      g_test_skip ("network and UTS namespaces for the targets need root (and a user nobody)");
      return FALSE;
    }
  {
    const char *probe[] = { "unshare", "-u", "-n", "true", NULL };

    if (!tw_test_lab_run (probe))
      {
        g_test_skip ("unshare -u -n fails here: no namespaces for the targets");
        return FALSE;
      }
  }
  lab->relay.as_user = g_new0 (char *, 6);
  lab->relay.as_user[0] = g_find_program_in_path ("setpriv");
  lab->relay.as_user[1] = g_strdup ("--reuid=65534");
  lab->relay.as_user[2] = g_strdup ("--regid=65534");
  lab->relay.as_user[3] = g_strdup ("--clear-groups");
  lab->relay.as_user[4] = g_strdup ("--pdeathsig=TERM");
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    if (!tw_test_lab_start_target (lab, k))
      {
        tw_test_lab_stop (lab);
        g_test_skip ("a namespaced lttng-sessiond (target) did not start");
        return FALSE;
      }
  /* the relay once the pairs have their addresses: it binds the first one's */
  lab->relay.output = g_dir_make_tmp ("tw-lab-relay-XXXXXX", NULL);
  lab->relay.env = g_get_environ ();
  if (tw_test_lttng_pick_ports (lab->relay.ports))
    {
      g_autofree char *c = g_strdup_printf ("tcp://%s:%u", lab->gateway[0], lab->relay.ports[0]);
      g_autofree char *d = g_strdup_printf ("tcp://%s:%u", lab->gateway[0], lab->relay.ports[1]);
      g_autofree char *l = g_strdup_printf ("tcp://127.0.0.1:%u", lab->relay.ports[2]);
      const char *argv[] = { "lttng-relayd", "-C", c, "-D", d, "-L", l, "-o", lab->relay.output, NULL };

      if (tw_test_lttng_spawn (&lab->relay, argv, FALSE, &lab->relay.relayd))
        for (guint i = 0; i < 500; i++)
          {
            if (tw_test_lttng_port_open (lab->relay.ports[2]))
              return TRUE;
            if (waitpid (lab->relay.relayd, NULL, WNOHANG) == lab->relay.relayd)
              {
                lab->relay.relayd = 0;
                break;
              }
            g_usleep (10000);
          }
    }
  tw_test_lab_stop (lab);
  g_test_skip ("lttng-relayd did not start on the lab's addresses");
  return FALSE;
}

/* Creates live session @name on target @k, sending to the lab's relay, UST events with
 * their thread, process and process name, started. */
static inline gboolean
tw_test_lab_create_session (TwTestLab  *lab,
                            guint       k,
                            const char *name)
{
  TwTestLttng *t = &lab->targets[k];
  g_autofree char *url = g_strdup_printf ("--set-url=net://%s:%u:%u", lab->gateway[0],
                                          lab->relay.ports[0], lab->relay.ports[1]);

  return tw_test_lttng_run (t, "--no-sessiond", "create", name, "--live=100000", url, NULL)
         && tw_test_lttng_run (t, "--no-sessiond", "enable-event", "-s", name, "-u", "-a", NULL)
         && tw_test_lttng_run (t, "--no-sessiond", "add-context", "-s", name, "-u", "-t", "vpid",
                               "-t", "vtid", "-t", "procname", NULL)
         && tw_test_lttng_run (t, "--no-sessiond", "start", name, NULL);
}

/* Runs the UST test program in target @k's namespaces: @n events, @delay_us apart. */
static inline gboolean
tw_test_lab_emit (TwTestLab *lab,
                  guint      k,
                  guint      n,
                  guint      delay_us)
{
  TwTestLttng *t = &lab->targets[k];
  g_autofree char *count = g_strdup_printf ("%u", n);
  g_autofree char *delay = g_strdup_printf ("%u", delay_us);
  const char *args[] = { g_getenv ("TW_LTTNG_EMIT"), count, delay, NULL };
  g_autoptr(GPtrArray) argv = tw_test_lttng_argv (t, args);
  int status = -1;

  return g_spawn_sync (NULL, (char **) argv->pdata, t->env, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, &status, NULL)
         && g_spawn_check_wait_status (status, NULL);
}

/* The live URL of session @name of target @k. */
static inline char *
tw_test_lab_url (TwTestLab  *lab,
                 guint       k,
                 const char *name)
{
  return g_strdup_printf ("net://127.0.0.1:%u/host/%s/%s", lab->relay.ports[2],
                          lab->targets[k].hostname, name);
}

/* Session @name on both targets (as tw_test_lab_create_session()), each with an app
 * registered (the streams a viewer attaches to), and their live URLs. */
static inline void
tw_test_lab_open_sessions (TwTestLab   *lab,
                           const char  *name,
                           char       **url_a,
                           char       **url_b)
{
  for (guint k = 0; k < TW_LAB_TARGETS; k++)
    {
      g_assert_true (tw_test_lab_create_session (lab, k, name));
      g_assert_true (tw_test_lab_emit (lab, k, 0, 0));
    }
  *url_a = tw_test_lab_url (lab, 0, name);
  *url_b = tw_test_lab_url (lab, 1, name);
}
