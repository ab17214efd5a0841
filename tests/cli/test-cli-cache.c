/* test-cli-cache.c: tracewb-cli with the trace cache — on by default, --no-cache,
 * `cache list|clear`, TRACEWB_CACHE_LIMIT
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every test has a cache folder of its own (G_TEST_OPTION_ISOLATE_DIRS), handed to the
 * tracewb-cli it runs, so the user's cache is never read or written.
 */
#include "config.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <tw-data.h>

#include "tw-test-utils.h"

/* The children's cache folder is this test's (GLib points theirs at /dev/null), and the
 * cache is on (the suite turns it off for every other test). */
static void
isolate_cache (void)
{
  g_assert_true (g_mkdir_with_parents (g_get_user_cache_dir (), 0700) == 0);
  g_setenv ("XDG_CACHE_HOME", g_get_user_cache_dir (), TRUE);
  g_unsetenv ("TRACEWB_NO_CACHE");
  g_unsetenv ("TRACEWB_CACHE_LIMIT");
}

static char *
cache_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "tracewb", "traces", NULL);
}

/* The number of cache files in the folder. */
static guint
count_cache_files (void)
{
  g_autofree char *dir_path = cache_dir ();
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint n = 0;

  while (dir && (name = g_dir_read_name (dir)))
    n += g_str_has_suffix (name, ".twcache");
  return n;
}

/* A simulated S.Ha.R.K. dump of @events events in the test's data folder. */
static char *
simulate (guint events)
{
  g_autofree char *n = g_strdup_printf ("%u", events);
  char *path = g_build_filename (g_get_user_data_dir (), "run.shark", NULL);
  const char *const args[] = { "simulate", "-o", path, "--events", n, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  g_assert_true (g_mkdir_with_parents (g_get_user_data_dir (), 0700) == 0);
  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  return path;
}

static char *
cli_output (const char *const *args)
{
  char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  return out;
}

/* `info` stores the trace and the second `info` maps it, printing the same; --no-cache
 * neither reads nor writes the cache; a changed trace shows as stale, is read again and
 * replaces its cache file; clear empties the folder. */
static void
test_info_list_clear (void)
{
  g_autofree char *path = NULL;
  g_autofree char *first = NULL, *second = NULL, *uncached = NULL, *list = NULL;
  g_autofree char *cleared = NULL;
  const char *const list_args[] = { "cache", "list", NULL };
  const char *const clear_args[] = { "cache", "clear", NULL };
  struct timespec times[2] = { { 0, UTIME_OMIT }, { 1000000000, 0 } };

  isolate_cache ();
  path = simulate (300000);
  {
    const char *const info[] = { "info", path, NULL };
    const char *const info_no_cache[] = { "--no-cache", "info", path, NULL };

    list = cli_output (list_args);
    g_assert_true (g_str_has_prefix (list, "0 files, 0 bytes of a limit of "));
    g_clear_pointer (&list, g_free);

    uncached = cli_output (info_no_cache);
    g_assert_cmpuint (count_cache_files (), ==, 0);

    first = cli_output (info);
    g_assert_cmpstr (first, ==, uncached);
    g_assert_cmpuint (count_cache_files (), ==, 1);
    list = cli_output (list_args);
    g_assert_nonnull (strstr (list, "current"));
    g_assert_nonnull (strstr (list, path));
    g_assert_nonnull (strstr (list, "1 file, "));
    g_clear_pointer (&list, g_free);

    second = cli_output (info);
    g_assert_cmpstr (second, ==, first);

    /* the trace changes: its cache file is stale, then replaced */
    g_assert_true (utimensat (AT_FDCWD, path, times, 0) == 0);
    list = cli_output (list_args);
    g_assert_nonnull (strstr (list, "stale"));
    g_clear_pointer (&list, g_free);
    g_clear_pointer (&second, g_free);
    second = cli_output (info);
    g_assert_cmpstr (second, ==, first);
    list = cli_output (list_args);
    g_assert_nonnull (strstr (list, "current"));
    g_assert_null (strstr (list, "stale"));
    g_assert_cmpuint (count_cache_files (), ==, 1);
  }

  cleared = cli_output (clear_args);
  g_assert_true (g_str_has_prefix (cleared, "removed 1 file ("));
  g_assert_cmpuint (count_cache_files (), ==, 0);
}

/* The environment turns it off as --no-cache does; a limit smaller than the trace keeps
 * it out; a limit that is not a size is an error for `cache list`. */
static void
test_env (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *const list_args[] = { "cache", "list", NULL };
  int status;

  isolate_cache ();
  path = simulate (100000);
  {
    const char *const info[] = { "info", path, NULL };

    g_setenv ("TRACEWB_NO_CACHE", "1", TRUE);
    g_free (cli_output (info));
    g_assert_cmpuint (count_cache_files (), ==, 0);
    g_unsetenv ("TRACEWB_NO_CACHE");

    g_setenv ("TRACEWB_CACHE_LIMIT", "64K", TRUE);
    g_free (cli_output (info));
    g_assert_cmpuint (count_cache_files (), ==, 0);
    out = cli_output (list_args);
    /* GLib puts a no-break space before the unit */
    g_assert_nonnull (strstr (out, "of a limit of 64.0"));
    g_assert_nonnull (strstr (out, "KiB"));
    g_clear_pointer (&out, g_free);

    g_setenv ("TRACEWB_CACHE_LIMIT", "plenty", TRUE);
    tw_test_run_cli_or_fail (list_args, &out, &err, &status);
    g_assert_cmpint (status, ==, 1);
    g_assert_nonnull (strstr (err, "TRACEWB_CACHE_LIMIT: “plenty” is not a size"));
    g_unsetenv ("TRACEWB_CACHE_LIMIT");
  }
}

/* A damaged cache file is refused, removed and replaced: the output does not change. */
static void
test_damaged (void)
{
  g_autofree char *path = NULL;
  g_autofree char *first = NULL, *again = NULL;
  g_autofree char *dir_path = cache_dir ();
  g_autoptr(GDir) dir = NULL;
  g_autofree char *file = NULL;
  const char *name;
  int fd;

  isolate_cache ();
  path = simulate (100000);
  {
    const char *const info[] = { "info", path, NULL };

    first = cli_output (info);
    dir = g_dir_open (dir_path, 0, NULL);
    while ((name = g_dir_read_name (dir)))
      if (g_str_has_suffix (name, ".twcache"))
        file = g_build_filename (dir_path, name, NULL);
    g_assert_nonnull (file);
    /* the index type string of the header */
    fd = open (file, O_WRONLY);
    g_assert_cmpint (pwrite (fd, "Z", 1, 40), ==, 1);
    close (fd);
    again = cli_output (info);
    g_assert_cmpstr (again, ==, first);
    g_assert_true (g_file_test (file, G_FILE_TEST_EXISTS));
    g_assert_cmpuint (count_cache_files (), ==, 1);
  }
}

/* A disk without room for the cache file (TRACEWB_CACHE_FREE stands for its free space):
 * the trace is read without the cache, and stderr says so once, with the room needed;
 * the output is the same. With room, it is cached and nothing is said. */
static void
test_no_room (void)
{
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL, *cached = NULL;
  g_autofree char *dir_path = cache_dir ();
  g_autofree char *expected = NULL;
  int status;

  isolate_cache ();
  path = simulate (100000);
  {
    const char *const info[] = { "info", path, NULL };

    g_setenv ("TRACEWB_CACHE_FREE", "1M", TRUE);
    tw_test_run_cli_or_fail (info, &out, &err, &status);
    g_unsetenv ("TRACEWB_CACHE_FREE");
    g_test_message ("%s", err);
    g_assert_cmpint (status, ==, 0);
    g_assert_cmpuint (count_cache_files (), ==, 0);
    expected = g_strdup_printf ("tracewb-cli: %s: not cached: the trace cache needs about ", path);
    g_assert_true (g_str_has_prefix (err, expected));
    g_assert_nonnull (strstr (err, "MB free on "));
    g_assert_nonnull (strstr (err, dir_path));
    /* one line */
    g_assert_true (strchr (err, '\n') == err + strlen (err) - 1);

    cached = cli_output (info);
    g_assert_cmpstr (cached, ==, out);
    g_assert_cmpuint (count_cache_files (), ==, 1);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/cli/cache/info-list-clear", test_info_list_clear);
  g_test_add_func ("/cli/cache/env", test_env);
  g_test_add_func ("/cli/cache/damaged", test_damaged);
  g_test_add_func ("/cli/cache/no-room", test_no_room);
  return g_test_run ();
}
