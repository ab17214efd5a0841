/* test-atomic-file.c: a file written through tw_atomic_file_write appears complete or not at all
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/stat.h>
#include <tw-ingest.h>

#include <string.h>

typedef struct {
  char       *dir;
  char       *path;
  const char *text;        /* what the write function writes */
  gboolean    fail;        /* fail after writing half of it */
  char       *seen_at_path; /* what @path held while the write ran, or NULL when absent */
  guint       seen_entries; /* files in @dir while the write ran */
} Fixture;

static guint
count_entries (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  g_assert_nonnull (d);
  while (g_dir_read_name (d))
    n++;
  return n;
}

static gboolean
write_text (GOutputStream  *stream,
            gpointer        user_data,
            GCancellable   *cancellable,
            GError        **error)
{
  Fixture *fx = user_data;
  gsize len = strlen (fx->text);

  if (!g_output_stream_write_all (stream, fx->text, fx->fail ? len / 2 : len, NULL,
                                  cancellable, error))
    return FALSE;
  g_file_get_contents (fx->path, &fx->seen_at_path, NULL, NULL);
  fx->seen_entries = count_entries (fx->dir);
  if (fx->fail)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "the disk is full");
  return !fx->fail;
}

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fx->dir = g_dir_make_tmp ("tw-atomic-XXXXXX", &error);
  g_assert_no_error (error);
  fx->path = g_build_filename (fx->dir, "out.csv", NULL);
  fx->text = "time_ns,cpu,task,event\n1,0,a,x\n";
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  g_unlink (fx->path);
  g_assert_cmpuint (count_entries (fx->dir), ==, 0);
  g_rmdir (fx->dir);
  g_free (fx->seen_at_path);
  g_free (fx->path);
  g_free (fx->dir);
}

static char *
read_path (Fixture *fx)
{
  char *text = NULL;

  g_file_get_contents (fx->path, &text, NULL, NULL);
  return text;
}

/* While the contents are written, nothing is at the final name (only a hidden partial
 * file beside it); afterwards the whole contents are, with the usual permissions. */
static void
test_new_file (Fixture       *fx,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;
  mode_t mask = umask (022);

  g_assert_true (tw_atomic_file_write (fx->path, write_text, fx, NULL, &error));
  umask (mask);
  g_assert_no_error (error);
  g_assert_null (fx->seen_at_path);
  g_assert_cmpuint (fx->seen_entries, ==, 1);
  text = read_path (fx);
  g_assert_cmpstr (text, ==, fx->text);
  g_assert_cmpuint (count_entries (fx->dir), ==, 1);
  g_assert_cmpint (g_stat (fx->path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);
}

/* An existing file keeps its contents until the new ones are complete. */
static void
test_replace (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (fx->path, "old", -1, NULL));
  g_assert_true (tw_atomic_file_write (fx->path, write_text, fx, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (fx->seen_at_path, ==, "old");
  text = read_path (fx);
  g_assert_cmpstr (text, ==, fx->text);
}

/* A failed write leaves no file (and an existing one untouched); the error names it. */
static void
test_failure (Fixture       *fx,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  fx->fail = TRUE;
  g_assert_false (tw_atomic_file_write (fx->path, write_text, fx, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  g_assert_true (g_str_has_prefix (error->message, fx->path));
  g_assert_nonnull (strstr (error->message, "the disk is full"));
  g_assert_false (g_file_test (fx->path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (fx->dir), ==, 0);
  g_clear_error (&error);

  g_assert_true (g_file_set_contents (fx->path, "old", -1, NULL));
  g_assert_false (tw_atomic_file_write (fx->path, write_text, fx, NULL, &error));
  text = read_path (fx);
  g_assert_cmpstr (text, ==, "old");
  g_assert_cmpuint (count_entries (fx->dir), ==, 1);
}

/* Cancelled while writing: nothing is put in place. */
static void
test_cancel (Fixture       *fx,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;

  g_cancellable_cancel (cancellable);
  g_assert_false (tw_atomic_file_write (fx->path, write_text, fx, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (g_str_has_prefix (error->message, fx->path));
  g_assert_false (g_file_test (fx->path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (fx->dir), ==, 0);
}

/* A directory that does not exist: the error names the file. */
static void
test_missing_dir (Fixture       *fx,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = g_build_filename (fx->dir, "no-such-dir", "out.csv", NULL);

  g_assert_false (tw_atomic_file_write (bad, write_text, fx, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_true (g_str_has_prefix (error->message, bad));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

#define ADD(path, func) \
  g_test_add ("/tw/ingest/atomic-file/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("new-file", test_new_file);
  ADD ("replace", test_replace);
  ADD ("failure", test_failure);
  ADD ("cancel", test_cancel);
  ADD ("missing-dir", test_missing_dir);
#undef ADD

  return g_test_run ();
}
