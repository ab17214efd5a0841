/* test-cli-deadline.c: `tracewb-cli monitor --deadline`: sized from the streams, and clear when refused
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <pwd.h>
#include <string.h>
#include <unistd.h>

#include "tw-cli-deadline.h"

/* runtime > deadline: the kernel says EINVAL before it looks at privileges */
static void
test_invalid (void)
{
  TwCliDeadline d = { 5000000, 1000000, 10000000 };
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_cli_deadline_apply (&d, &error));
  g_assert_nonnull (error);
  g_assert_true (strstr (error->message, "the kernel refused SCHED_DEADLINE") != NULL);
  g_assert_true (strstr (error->message, "runtime 5.000 ms, deadline 1.000 ms, period 10.000 ms") != NULL);
  g_assert_true (strstr (error->message, "invalid parameters") != NULL);
}

static void
test_messages (void)
{
  TwCliDeadline d = { 100000, 1000000, 1000000 };
  g_autofree char *perm = tw_cli_deadline_describe_errno (EPERM, &d);
  g_autofree char *nosys = tw_cli_deadline_describe_errno (ENOSYS, &d);
  g_autofree char *busy = tw_cli_deadline_describe_errno (EBUSY, &d);

  g_assert_true (strstr (perm, "not permitted") && strstr (perm, "root"));
  g_assert_true (strstr (nosys, "no SCHED_DEADLINE"));
  g_assert_true (strstr (busy, "admission control"));
}

/* Riegel 2005 §3.5: R elements per period at the measured cost, with the margin */
static void
test_size (void)
{
  TwCliDeadlineBudget budget = { .elements = 100, .declared = 100, .element_ns = 500, .poll_ns = 10000,
                                 .element_measured = TRUE };
  TwCliDeadline d;
  g_autoptr(GError) error = NULL;

  g_assert_true (tw_cli_deadline_size (&budget, 10000000, 5000000, &d, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (d.period_ns, ==, 10000000);
  g_assert_cmpuint (d.deadline_ns, ==, 5000000);
  g_assert_cmpuint (d.runtime_ns, ==, 2 * (10000 + 100 * 500));

  budget.elements = 100000;
  g_assert_false (tw_cli_deadline_size (&budget, 10000000, 5000000, &d, &error));
  g_assert_true (strstr (error->message, "more than the deadline") != NULL);
}

/* End to end: as a user without the privilege, the command says why and exits 1. */
static void
test_cli_not_permitted (void)
{
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  struct passwd *nobody = getpwnam ("nobody");
  g_autofree char *dir = g_dir_make_tmp ("tw-deadline-XXXXXX", NULL);
  g_autofree char *uid = NULL, *gid = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  int status = -1;

  if (getuid () == 0 && (setpriv == NULL || nobody == NULL))
    {
      g_test_skip ("root without setpriv and a user nobody: cannot run as an unprivileged user");
      g_rmdir (dir);
      return;
    }
  if (getuid () == 0)
    {
      /* the sensor folder must be the user's */
      g_assert_cmpint (chown (dir, nobody->pw_uid, nobody->pw_gid), ==, 0);
      uid = g_strdup_printf ("--reuid=%u", (guint) nobody->pw_uid);
      gid = g_strdup_printf ("--regid=%u", (guint) nobody->pw_gid);
      g_ptr_array_add (argv, setpriv);
      g_ptr_array_add (argv, uid);
      g_ptr_array_add (argv, gid);
      g_ptr_array_add (argv, (gpointer) "--clear-groups");
    }
  for (const char *const *a = (const char *const[]) { g_getenv ("TW_CLI"), "monitor", "--deadline",
                                                      "--duration", "2", "--sensor-dir", dir, NULL }; *a; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL,
                               NULL, &err, &status, &error));
  g_assert_no_error (error);
  g_rmdir (dir);
  g_test_message ("%s", err);
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_true (strstr (err, "the kernel refused SCHED_DEADLINE") != NULL);
  g_assert_true (strstr (err, "not permitted") != NULL);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/tw/cli/deadline/invalid", test_invalid);
  g_test_add_func ("/tw/cli/deadline/messages", test_messages);
  g_test_add_func ("/tw/cli/deadline/size", test_size);
  g_test_add_func ("/tw/cli/deadline/not-permitted", test_cli_not_permitted);
  return g_test_run ();
}
