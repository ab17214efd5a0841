/* test-cli-memory-limit.c: a trace whose store and state model do not fit in the memory
 * the process may use is still drawn
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * `tracewb-cli render` of a 20 M-event dump (a store of about 480 MB in the cache file,
 * a state model of about 440 MB) runs in a memory control group limited to 512 MiB:
 * the store's pages are the cache file's and the model's big arrays move into files
 * past a quarter of the limit (data/tw-huge-array.c), so the kernel writes back and
 * evicts instead of killing the process, as it did when the model was anonymous
 * memory. The picture is the one drawn without a limit. A trace larger than the memory
 * and the disk together is refused before it is read (the process was killed). Needs root and a writable
 * memory controller (version 1, or version 2 with delegation); skips otherwise. In the
 * suite `slow`, which the sanitizer build leaves out: its shadow memory would count
 * against the limit.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tw-test-utils.h"

#define LIMIT_BYTES ((guint64) 512 << 20)
#define EVENTS      20000000

static char *dump;   /* the 20 M-event dump the tests share, made by the first */

typedef struct {
  char *dir;         /* the control group made for the test */
  char *procs;       /* its cgroup.procs */
  char *failures;    /* file whose count says the limit was reached */
  gboolean version1;
} TestGroup;

static gboolean
write_text (const char *path,
            const char *text)
{
  return g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

/* A control group below the test's own, limited to LIMIT_BYTES; FALSE (and a reason)
 * when none can be made here. */
static gboolean
make_group (TestGroup *group,
            guint64    limit_bytes,
            char     **why)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (geteuid () != 0)
    return (*why = g_strdup ("needs root to make a memory control group")), FALSE;
  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, NULL))
    return (*why = g_strdup ("no /proc/self/cgroup")), FALSE;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) parts = g_strsplit (lines[i], ":", 3);
      g_autofree char *name = g_strdup_printf ("tw-test-memory-%d", (int) getpid ());
      g_autofree char *limit_file = NULL;
      g_autofree char *limit = g_strdup_printf ("%" G_GUINT64_FORMAT, limit_bytes);
      gboolean v1;

      if (g_strv_length (parts) != 3)
        continue;
      v1 = strstr (parts[1], "memory") != NULL;
      if (!v1 && !(g_str_equal (parts[0], "0") && parts[1][0] == '\0'))
        continue;
      group->dir = g_build_filename (v1 ? "/sys/fs/cgroup/memory" : "/sys/fs/cgroup", parts[2],
                                     name, NULL);
      limit_file = g_build_filename (group->dir, v1 ? "memory.limit_in_bytes" : "memory.max",
                                     NULL);
      if (g_mkdir (group->dir, 0755) == 0 && write_text (limit_file, limit))
        {
          group->version1 = v1;
          group->procs = g_build_filename (group->dir, "cgroup.procs", NULL);
          group->failures = g_build_filename (group->dir, v1 ? "memory.failcnt" : "memory.events",
                                              NULL);
          return TRUE;
        }
      g_rmdir (group->dir);
      g_clear_pointer (&group->dir, g_free);
    }
  *why = g_strdup ("no writable memory control group (cgroup v1 memory controller or a "
                   "delegated cgroup v2 with memory.max)");
  return FALSE;
}

/* In the child, before exec: into the group. Only async-signal-safe calls. */
static void
join_group (gpointer data)
{
  const char *procs = data;
  char text[24];
  int n = 0;
  int fd;

  for (pid_t pid = getpid (); pid > 0; pid /= 10)
    text[n++] = '0' + pid % 10;
  for (int i = 0; i < n / 2; i++)
    {
      char c = text[i];

      text[i] = text[n - 1 - i];
      text[n - 1 - i] = c;
    }
  if ((fd = open (procs, O_WRONLY | O_CLOEXEC)) < 0 || write (fd, text, n) != n)
    _exit (97);
  close (fd);
}

/* How often the group met its limit. */
static guint64
count_limit_reached (const TestGroup *group)
{
  g_autofree char *text = NULL;
  const char *max;

  g_assert_true (g_file_get_contents (group->failures, &text, NULL, NULL));
  if (group->version1)
    return g_ascii_strtoull (text, NULL, 10);
  max = strstr (text, "\nmax ");
  return max ? g_ascii_strtoull (max + 5, NULL, 10) : 0;
}

static void
free_group (TestGroup *group)
{
  g_assert_cmpint (g_rmdir (group->dir), ==, 0);
  g_free (group->dir);
  g_free (group->procs);
  g_free (group->failures);
}

static void
run_cli (const char *const *args,
         TestGroup         *group,
         char             **err,
         int               *status)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int wait_status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT,
                               group ? join_group : NULL, group ? group->procs : NULL,
                               NULL, err, &wait_status, &error));
  g_assert_no_error (error);
  *status = wait_status;
}

/* A group of @limit_bytes, the user's folders and the shared dump; FALSE when the test
 * is skipped. */
static gboolean
set_up (TestGroup *group,
        guint64    limit_bytes)
{
  g_autofree char *why = NULL;
  g_autofree char *count = g_strdup_printf ("%d", EVENTS);
  int status;

  if (!make_group (group, limit_bytes, &why))
    {
      g_test_skip (why);
      return FALSE;
    }
  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  g_assert_true (g_mkdir_with_parents (g_get_user_cache_dir (), 0700) == 0);
  g_setenv ("XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_unsetenv ("TRACEWB_NO_CACHE");
  g_unsetenv ("TRACEWB_MEMORY_BUDGET");
  g_unsetenv ("TRACEWB_CACHE_FREE");
  if (!g_file_test (dump, G_FILE_TEST_EXISTS))
    {
      const char *const args[] = { "simulate", "-o", dump, "--events", count, "--tasks", "40",
                                   NULL };

      run_cli (args, NULL, NULL, &status);
      g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
    }
  return TRUE;
}

/* `render` of the dump in @group draws what it draws without a limit. */
static void
assert_renders_as_unlimited (TestGroup *group)
{
  g_autofree char *limited = g_build_filename (g_get_user_data_dir (), "limited.png", NULL);
  g_autofree char *unlimited = g_build_filename (g_get_user_data_dir (), "unlimited.png", NULL);
  g_autofree char *limited_png = NULL, *unlimited_png = NULL;
  gsize limited_len, unlimited_len;
  int status;

  {
    const char *const args[] = { "render", dump, "-o", limited, NULL };

    run_cli (args, group, NULL, &status);
    /* killed by the kernel (SIGKILL) when the model was anonymous memory */
    g_assert_false (WIFSIGNALED (status));
    g_assert_cmpint (WEXITSTATUS (status), ==, 0);
    g_assert_cmpuint (count_limit_reached (group), >, 0);
  }
  {
    const char *const args[] = { "--no-cache", "render", dump, "-o", unlimited, NULL };

    run_cli (args, NULL, NULL, &status);
    g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  }
  g_assert_true (g_file_get_contents (limited, &limited_png, &limited_len, NULL));
  g_assert_true (g_file_get_contents (unlimited, &unlimited_png, &unlimited_len, NULL));
  g_assert_cmpmem (limited_png, limited_len, unlimited_png, unlimited_len);
}

/* The store's pages are the cache file's, the model's arrays spill. */
static void
test_render_over_limit (void)
{
  TestGroup group = { 0 };

  if (!set_up (&group, LIMIT_BYTES))
    return;
  assert_renders_as_unlimited (&group);
  free_group (&group);
}

/* A trace larger than the memory and the disk the process may use together is refused
 * before it is read, with the figures, instead of the process being killed partway:
 * 20 M events need about 512 MB of store, the group has 256 MiB and the cache folder's
 * disk (TRACEWB_CACHE_FREE) 1 MiB. */
static void
test_refused_without_room (void)
{
  TestGroup group = { 0 };
  g_autofree char *err = NULL;
  int status;

  if (!set_up (&group, LIMIT_BYTES / 2))
    return;
  g_setenv ("TRACEWB_CACHE_FREE", "1M", TRUE);
  {
    const char *const args[] = { "--no-cache", "info", dump, NULL };

    run_cli (args, &group, &err, &status);
  }
  g_unsetenv ("TRACEWB_CACHE_FREE");
  g_assert_false (WIFSIGNALED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "too large to open here"));
  g_assert_nonnull (strstr (err, "268.4"));  /* the group's 256 MiB */
  free_group (&group);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *dump_dir = NULL;
  int result;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* outside the folders of each test, which go with it */
  dump_dir = g_dir_make_tmp ("tw-memory-limit-XXXXXX", NULL);
  g_assert_nonnull (dump_dir);
  dump = g_build_filename (dump_dir, "big.shark", NULL);

  g_test_add_func ("/tw/cli/memory-limit/render-over-limit", test_render_over_limit);
  g_test_add_func ("/tw/cli/memory-limit/refused-without-room", test_refused_without_room);
  result = g_test_run ();
  g_unlink (dump);
  g_rmdir (dump_dir);
  g_free (dump);
  return result;
}
