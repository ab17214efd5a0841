/* test-reader-process.c: reading in a child process into a shared store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The trace a child reads and we map is the trace read in this process, table for table
 * and row for row, on every real trace and on a synthetic one with every event kind; a
 * child that aborts, is killed or is cancelled is one clear error, and a cancelled child
 * is gone.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tw-huge-array.h"
#include "tw-test-reader-process.h"
#include "tw-test-utils.h"

/* ---------------------------------------------------------------- every real trace */

static void
test_identical (gconstpointer data)
{
  const char *relative = data;
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) in = NULL;
  g_autoptr(TwTrace) out = NULL;
  g_autofree char *in_digest = NULL;
  g_autofree char *out_digest = NULL;

  if (path == NULL)
    {
      g_test_skip_printf ("shared/traces/%s is not there", relative);
      return;
    }
  in = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_IN_PROCESS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  out = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL, NULL,
                                           &error);
  g_assert_no_error (error);
  g_assert_true (tw_trace_is_sealed (out));
  g_assert_cmpuint (tw_trace_get_n_events (out), ==, tw_trace_get_n_events (in));
  g_assert_cmpuint (tw_trace_get_n_tasks (out), ==, tw_trace_get_n_tasks (in));
  g_assert_cmpuint (tw_trace_get_n_event_types (out), ==, tw_trace_get_n_event_types (in));
  g_assert_cmpuint (tw_trace_get_n_cpus (out), ==, tw_trace_get_n_cpus (in));
  in_digest = tw_test_dup_trace_digest (in);
  out_digest = tw_test_dup_trace_digest (out);
  g_assert_cmpstr (out_digest, ==, in_digest);
  g_test_message ("%s: %" G_GUINT64_FORMAT " events, digest %s", relative,
                  tw_trace_get_n_events (out), out_digest);
}

/* The real traces: every CTF trace and every recorded trace.dat of shared/traces. Returns
 * their paths, which the tests use until the end. */
static GPtrArray *
add_identical_tests (void)
{
  g_autofree char *ctf = tw_test_dup_shared_trace_path ("ctf");
  g_autofree char *recorded = tw_test_dup_shared_trace_path ("ftrace/recorded");
  g_autoptr(GDir) ctf_dir = ctf ? g_dir_open (ctf, 0, NULL) : NULL;
  g_autoptr(GDir) recorded_dir = recorded ? g_dir_open (recorded, 0, NULL) : NULL;
  GPtrArray *relatives = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (ctf_dir && (name = g_dir_read_name (ctf_dir)))
    g_ptr_array_add (relatives, g_strdup_printf ("ctf/%s/trace", name));
  while (recorded_dir && (name = g_dir_read_name (recorded_dir)))
    if (g_str_has_suffix (name, ".dat"))
      g_ptr_array_add (relatives, g_strdup_printf ("ftrace/recorded/%s", name));
  /* without the shared traces, one test says so */
  if (relatives->len == 0)
    g_ptr_array_add (relatives, g_strdup ("ctf/lttng-kernel-many-threads/trace"));
  g_ptr_array_sort (relatives, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < relatives->len; i++)
    {
      g_autofree char *test = g_strdup_printf ("/tw/ingest/reader-process/identical/%s",
                                               (char *) relatives->pdata[i]);

      g_test_add_data_func (test, relatives->pdata[i], test_identical);
    }
  return relatives;
}

/* ---------------------------------------------------------------- a synthetic trace */

/* Writes a synthetic trace into @image the way the helper does, but in this process;
 * returns the digest of the same trace made in memory. */
static char *
write_synthetic (TwTraceImage *image,
                 guint64       n,
                 guint         seed)
{
  int fd = dup (tw_trace_image_get_fd (image));
  g_autoptr(TwTraceImage) writer = tw_trace_image_new_for_fd (fd,
                                                              tw_trace_image_get_n_warm_slots (image));
  g_autoptr(TwTrace) written = tw_trace_image_new_trace (writer);
  g_autoptr(TwTrace) expected = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  tw_test_fill_synthetic (written, n, seed);
  g_assert_true (tw_trace_seal (written, NULL, &error));
  g_assert_true (tw_trace_image_publish (writer, written, NULL, NULL, &error));
  g_assert_no_error (error);
  tw_test_fill_synthetic (expected, n, seed);
  g_assert_true (tw_trace_seal (expected, NULL, &error));
  return tw_test_dup_trace_digest (expected);
}

/* Rows of any kind come across as they were written, over several chunks, sorted; a
 * second trace reuses the first one's pages and leaves nothing of it behind. */
static void
test_image_round_trip (void)
{
  const guint64 sizes[] = { 3 * TW_CHUNK_SIZE / 2 + 77, TW_CHUNK_SIZE / 3 };

  for (guint round = 0; round < G_N_ELEMENTS (sizes); round++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(TwTraceImage) image = tw_trace_image_new (&error);
      g_autofree char *expected = NULL;
      g_autofree char *digest = NULL;
      g_autoptr(TwTrace) trace = NULL;

      g_assert_no_error (error);
      /* the second image is the first one, back from the pool with its pages */
      if (round > 0)
        g_assert_cmpuint (tw_trace_image_get_n_warm_slots (image), >=, 2);
      expected = write_synthetic (image, sizes[round], round + 1);
      trace = tw_trace_image_open_trace (image, &error);
      g_assert_no_error (error);
      g_assert_true (tw_trace_is_sealed (trace));
      g_assert_cmpuint (tw_trace_get_n_events (trace), ==, sizes[round]);
      g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 12);
      digest = tw_test_dup_trace_digest (trace);
      g_test_message ("round %u: %s", round, digest);
      g_assert_cmpstr (digest, ==, expected);
      for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
        g_assert_cmpstr (tw_trace_get_task (trace, t)->host, ==, t % 3 == 1 ? "host-a" : NULL);
    }
}

/* An image whose writer published nothing holds no trace. */
static void
test_image_unpublished (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTraceImage) image = tw_trace_image_new (&error);
  g_autoptr(TwTrace) trace = NULL;

  g_assert_no_error (error);
  trace = tw_trace_image_open_trace (image, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
}

/* ---------------------------------------------------------------- a crashing library */

/* Whether babeltrace2's own program dies on @path; TRUE when it is not installed. */
static gboolean
babeltrace_cli_dies (const char *path)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  g_autofree char *out = NULL;
  int status = 0;

  if ((out = tw_test_run_tool (argv, &status)) == NULL)
    return TRUE;
  return WIFSIGNALED (status);
}

static gboolean
have_babeltrace (void)
{
  g_autoptr(TwReader) ctf = tw_reader_new (&tw_ctf_reader_info);

  return tw_reader_get_library (ctf) != NULL;
}

/* In this process, the library's abort ends the program (what the child prevents). */
static void
test_library_abort_in_process (void)
{
  g_autofree char *path = tw_test_dup_fixture_path (TW_TEST_BT2_ABORT_FIXTURE);

  if (!have_babeltrace ())
    {
      g_test_skip ("CTF support was not built");
      return;
    }
  if (!babeltrace_cli_dies (path))
    {
      g_test_skip ("this babeltrace2 reads the fixture: there is no crash to contain");
      return;
    }
  if (g_test_subprocess ())
    {
      TwTrace *trace = tw_reader_registry_load_file (path, "ctf", NULL, NULL, NULL, NULL);

      g_clear_object (&trace);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();
  g_test_trap_assert_stderr ("*Assertion*failed*");
}

/* Out of process: one error naming the file, the library, the signal and its last words. */
static void
test_library_abort (void)
{
  g_autofree char *path = tw_test_dup_fixture_path (TW_TEST_BT2_ABORT_FIXTURE);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;

  if (!have_babeltrace ())
    {
      g_test_skip ("CTF support was not built");
      return;
    }
  if (!babeltrace_cli_dies (path))
    {
      g_test_skip ("this babeltrace2 reads the fixture: there is no crash to contain");
      return;
    }
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                             NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "libbabeltrace2 2."));
  g_assert_nonnull (strstr (error->message, "SIGABRT"));
  g_assert_nonnull (strstr (error->message, "Assertion `tgt_fc` failed"));
  g_assert_null (strchr (error->message, '\n'));
}

/* A child killed mid-load (as the out-of-memory killer does) is one error too. */
static void
test_killed (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwReader) reader = tw_reader_new (&tw_tracecmd_reader_info);

  if (path == NULL || tw_reader_get_library (reader) == NULL)
    {
      g_test_skip ("the shared trace.dat or trace.dat support is missing");
      return;
    }
  g_setenv (TW_TEST_READER_HOOK_ENV, "kill-after-progress", TRUE);
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                             NULL, &error);
  g_unsetenv (TW_TEST_READER_HOOK_ENV);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_LIBRARY_FAILED);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, "libtracecmd"));
  g_assert_nonnull (strstr (error->message, "SIGKILL"));
  g_assert_cmpuint (tw_test_find_reader_child (), ==, 0);
}

/* ---------------------------------------------------------------- progress and cancel */

typedef struct {
  const char   *path;
  GCancellable *cancellable;
  gint          n_progress;   /* atomic */
  GError       *error;
  TwTrace      *trace;
} Load;

static void
count_progress_cb (double   fraction,
                   gpointer user_data)
{
  Load *load = user_data;

  g_atomic_int_inc (&load->n_progress);
}

static gpointer
load_thread (gpointer data)
{
  Load *load = data;

  load->trace = tw_reader_registry_load_file_full (load->path, NULL, TW_LOAD_OUT_OF_PROCESS,
                                                   count_progress_cb, load, load->cancellable,
                                                   &load->error);
  return NULL;
}

static gboolean
progress_arrived (gpointer data)
{
  Load *load = data;

  return g_atomic_int_get (&load->n_progress) > 0;
}

/* Cancel kills the child, that one, and reaps it. */
static void
test_cancel_kills_child (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  Load load = { path, cancellable, 0, NULL, NULL };
  GThread *thread;
  GPid child;

  if (path == NULL || !have_babeltrace ())
    {
      g_test_skip ("the shared CTF trace or CTF support is missing");
      return;
    }
  g_setenv (TW_TEST_READER_HOOK_ENV, "stall-after-progress", TRUE);
  thread = g_thread_new ("load", load_thread, &load);
  g_assert_true (tw_test_wait_until (progress_arrived, &load, 60000));
  g_unsetenv (TW_TEST_READER_HOOK_ENV);
  child = tw_test_find_reader_child ();
  g_assert_cmpint (child, >, 0);
  g_assert_true (tw_test_pid_exists (child));

  g_cancellable_cancel (cancellable);
  g_thread_join (thread);
  g_assert_null (load.trace);
  g_assert_error (load.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&load.error);
  /* killed and reaped: not even a zombie is left */
  g_assert_false (tw_test_pid_exists (child));
}

static void
note_fraction_cb (double   fraction,
                  gpointer user_data)
{
  GArray *fractions = user_data;

  g_array_append_val (fractions, fraction);
}

/* Progress comes through the pipe, coarse and rising, to 1. */
static void
test_progress (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autoptr(GArray) fractions = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;

  if (path == NULL || !have_babeltrace ())
    {
      g_test_skip ("the shared CTF trace or CTF support is missing");
      return;
    }
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS,
                                             note_fraction_cb, fractions, NULL, &error);
  g_assert_no_error (error);
  /* coarse: at most one report every 30 ms, the last one at the end */
  g_assert_cmpuint (fractions->len, >=, 2);
  g_assert_cmpuint (fractions->len, <=, 1001);
  for (guint i = 1; i < fractions->len; i++)
    g_assert_cmpfloat (g_array_index (fractions, double, i), >,
                       g_array_index (fractions, double, i - 1));
  g_assert_cmpfloat (g_array_index (fractions, double, fractions->len - 1), ==, 1.0);
}

/* ---------------------------------------------------------------- errors */

/* A reader's own error (a file cut in its headers) is the same error out of process. */
static void
test_reader_error (void)
{
  g_autofree char *source = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *cut = NULL;
  g_autofree char *data = NULL;
  g_autoptr(GError) in_error = NULL;
  g_autoptr(GError) out_error = NULL;
  g_autoptr(TwTrace) in = NULL;
  g_autoptr(TwTrace) out = NULL;
  g_autoptr(TwReader) reader = tw_reader_new (&tw_tracecmd_reader_info);

  if (source == NULL || tw_reader_get_library (reader) == NULL)
    {
      g_test_skip ("the shared trace.dat or trace.dat support is missing");
      return;
    }
  g_assert_true (g_file_get_contents (source, &data, NULL, NULL));
  cut = g_build_filename (tw_test_get_private_dir (), "cut.dat", NULL);
  g_assert_true (g_file_set_contents (cut, data, 3000, NULL));

  in = tw_reader_registry_load_file_full (cut, NULL, TW_LOAD_IN_PROCESS, NULL, NULL, NULL,
                                          &in_error);
  out = tw_reader_registry_load_file_full (cut, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL, NULL,
                                           &out_error);
  g_assert_null (in);
  g_assert_null (out);
  g_assert_nonnull (in_error);
  g_assert_error (out_error, in_error->domain, in_error->code);
  g_assert_cmpstr (out_error->message, ==, in_error->message);
}

/* Without the helper, the error says where it looked and how to point at it. */
static void
test_helper_missing (void)
{
  g_autofree char *path = tw_test_dup_fixture_path (TW_TEST_BT2_ABORT_FIXTURE);
  g_autofree char *saved = g_strdup (g_getenv (TW_READER_HELPER_ENV));
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;

  if (!have_babeltrace ())
    {
      g_test_skip ("CTF support was not built");
      return;
    }
  g_setenv (TW_READER_HELPER_ENV, "/nonexistent/tracewb-reader", TRUE);
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                             NULL, &error);
  if (saved)
    g_setenv (TW_READER_HELPER_ENV, saved, TRUE);
  else
    g_unsetenv (TW_READER_HELPER_ENV);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, TW_READER_HELPER_ENV "=/nonexistent/tracewb-reader"));
}

/* Formats of our own stay in this process even when asked to isolate libraries. */
static void
test_own_readers_in_process (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("ftrace/tracefs-sched-irq.txt");
  g_autofree char *saved = g_strdup (g_getenv (TW_READER_HELPER_ENV));
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;

  /* no helper to be found: only an in-process read can succeed */
  g_setenv (TW_READER_HELPER_ENV, "/nonexistent/tracewb-reader", TRUE);
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                             NULL, &error);
  if (saved)
    g_setenv (TW_READER_HELPER_ENV, saved, TRUE);
  else
    g_unsetenv (TW_READER_HELPER_ENV);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), >, 0);
}

/* ---------------------------------------------------------------- past the memory budget */

/* Mappings of this process onto unlinked files of the cache folder (spill files), not
 * memory files. */
static guint
count_spill_mappings (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    if (strstr (lines[i], dir) && g_str_has_suffix (lines[i], " (deleted)"))
      n++;
  return n;
}

static char *
dup_digest_within_budget (const char  *path,
                          TwLoadFlags  flags)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;

  tw_huge_array_set_memory_budget (0);
  trace = tw_reader_registry_load_file_full (path, NULL, flags, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return tw_test_dup_trace_digest (trace);
}

/* Reads @path without the cache past a memory budget of one byte: the read maps a spill
 * file it did not before, and its rows are those of a read within the budget (with
 * @reference_flags). Returns the trace. */
static TwTrace *
read_past_budget (const char  *path,
                  TwLoadFlags  reference_flags)
{
  g_autofree char *expected = dup_digest_within_budget (path, reference_flags);
  g_autofree char *digest = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  guint before = count_spill_mappings ();

  tw_huge_array_set_memory_budget (1);
  trace = tw_reader_registry_load_file_full (path, NULL, TW_LOAD_OUT_OF_PROCESS, NULL, NULL,
                                             NULL, &error);
  tw_huge_array_set_memory_budget (0);
  g_assert_no_error (error);
  g_assert_cmpuint (count_spill_mappings (), >, before);
  digest = tw_test_dup_trace_digest (trace);
  g_assert_cmpstr (digest, ==, expected);
  return g_steal_pointer (&trace);
}

/* A trace larger than the memory budget read by the helper without the cache: the
 * helper's image is an unlinked file of the cache folder, whose pages the kernel can
 * write back, not a memory file that would have the process killed. */
static void
test_over_budget_child (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autoptr(TwTrace) trace = NULL;

  if (path == NULL)
    {
      g_test_skip ("shared/traces/ftrace/recorded/sched_irq_5s.dat is not there");
      return;
    }
  trace = read_past_budget (path, TW_LOAD_IN_PROCESS);
}

/* The same read in this process (a format of our own): the chunks past the budget are
 * made in a spill file, the rows before stay in memory, and all read as they would. */
static void
test_over_budget_in_process (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-over-budget-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "big.csv", NULL);
  g_autoptr(GString) csv = g_string_new ("time_ns,cpu,task,event,irq\n");
  g_autoptr(TwTrace) trace = NULL;

  /* three chunks of rows */
  for (guint i = 0; i < 600000; i++)
    g_string_append_printf (csv, "%u,%u,,%s,%u\n", 1000 + i, i % 4,
                            i % 2 ? "irq_exit" : "irq_entry", i % 1000);
  g_assert_true (g_file_set_contents (path, csv->str, csv->len, NULL));
  trace = read_past_budget (path, TW_LOAD_OUT_OF_PROCESS);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 600000);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) traces = NULL;

  g_test_init (&argc, &argv, NULL);

  traces = add_identical_tests ();
  g_test_add_func ("/tw/ingest/reader-process/image-round-trip", test_image_round_trip);
  g_test_add_func ("/tw/ingest/reader-process/image-unpublished", test_image_unpublished);
  g_test_add_func ("/tw/ingest/reader-process/library-abort", test_library_abort);
  g_test_add_func ("/tw/ingest/reader-process/library-abort-in-process",
                   test_library_abort_in_process);
  g_test_add_func ("/tw/ingest/reader-process/killed", test_killed);
  g_test_add_func ("/tw/ingest/reader-process/cancel-kills-child", test_cancel_kills_child);
  g_test_add_func ("/tw/ingest/reader-process/progress", test_progress);
  g_test_add_func ("/tw/ingest/reader-process/reader-error", test_reader_error);
  g_test_add_func ("/tw/ingest/reader-process/helper-missing", test_helper_missing);
  g_test_add_func ("/tw/ingest/reader-process/own-readers-in-process", test_own_readers_in_process);
  g_test_add_func ("/tw/ingest/reader-process/over-budget/child", test_over_budget_child);
  g_test_add_func ("/tw/ingest/reader-process/over-budget/in-process", test_over_budget_in_process);
  return g_test_run ();
}
