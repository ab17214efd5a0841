/* test-cli-monitor.c: `tracewb-cli monitor` against the live demo program
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tw-test-utils.h"

/* The demo's element checksum (tracewb-demo-rt.c), recomputed independently here. */
static guint64
demo_check (guint64 a, guint64 b, guint64 c)
{
  guint64 h = a * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)
              ^ (b + G_GUINT64_CONSTANT (0x632BE59BD9B4E019)) * G_GUINT64_CONSTANT (0xC2B2AE3D27D4EB4F) ^ c;

  h ^= h >> 31;
  h *= G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  return h ^ (h >> 29);
}

static GSubprocess *
spawn (GPtrArray *argv)
{
  g_autoptr (GError) error = NULL;
  GSubprocess *process;

  g_ptr_array_add (argv, NULL);
  process = g_subprocess_newv ((const char * const *) argv->pdata,
                               G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  return process;
}

static GSubprocess *
spawn_demo (const char *dir,
            const char *duration)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *demo = g_getenv ("TW_DEMO_RT");

  g_assert_nonnull (demo);
  g_ptr_array_add (argv, (gpointer) demo);
  for (const char *const *a = (const char *const[]) { "--duration", duration, "--periods", "1,2",
                                                      "--capacity", "32", "--load", "0.1", "--keep",
                                                      "--sensor-dir", dir, NULL }; *a; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  return spawn (argv);
}

static GSubprocess *
spawn_monitor (const char *dir,
               const char *duration,
               gboolean    dump)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("TW_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (const char *const *a = (const char *const[]) { "monitor", "--sensor-dir", dir, "--from-start",
                                                      "--duration", duration, "--json", NULL }; *a; a++)
    g_ptr_array_add (argv, (gpointer) *a);
  if (dump)
    g_ptr_array_add (argv, (gpointer) "--dump");
  return spawn (argv);
}

static char *
finish (GSubprocess *process)
{
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  g_autofree char *err = NULL;

  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    g_error ("child failed: %s", err);
  return out;
}

/* "committed <task>@<sensor> <n>" lines → name → n */
static GHashTable *
parse_truth (const char *text)
{
  GHashTable *truth = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i]; i++)
    {
      char name[160];
      unsigned long long n;

      if (sscanf (lines[i], "committed %159s %llu", name, &n) == 2)
        g_hash_table_insert (truth, g_strdup (name), GSIZE_TO_POINTER ((gsize) n));
    }
  g_assert_cmpuint (g_hash_table_size (truth), ==, 5);
  return truth;
}

static JsonArray *
parse_report (JsonParser *parser,
              const char *text)
{
  g_autoptr (GError) error = NULL;
  const char *start = strstr (text, "\n[");

  start = g_str_has_prefix (text, "[") ? text : start ? start + 1 : NULL;
  g_assert_nonnull (start);
  json_parser_load_from_data (parser, start, -1, &error);
  g_assert_no_error (error);
  return json_node_get_array (json_parser_get_root (parser));
}

/* Every sensor of the demo: received + missed = committed; simple sensors of 32 slots
 * read after their writer finished: exactly the last 32 received. */
static void
check_report (JsonArray  *report,
              GHashTable *truth,
              gboolean    writer_finished_first)
{
  guint matched = 0;

  for (guint i = 0; i < json_array_get_length (report); i++)
    {
      JsonObject *o = json_array_get_object_element (report, i);
      const char *name = json_object_get_string_member (o, "name");
      gint64 received = json_object_get_int_member (o, "received");
      gint64 missed = json_object_get_int_member (o, "missed");
      gint64 committed;

      g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "sensor");
      g_assert_true (g_hash_table_contains (truth, name));
      committed = (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (truth, name));
      g_assert_cmpint (received + missed, ==, committed);
      g_assert_cmpint (json_object_get_int_member (o, "inconsistent"), <=, missed);
      g_assert_cmpint (json_object_get_int_member (o, "nonmonotonic"), ==, 0);
      if (writer_finished_first && !g_str_has_suffix (name, "@steps"))
        {
          g_assert_cmpint (received, ==, MIN (committed, 32));
          g_assert_cmpint (missed, ==, MAX (committed - 32, 0));
          g_assert_cmpint (json_object_get_int_member (o, "inconsistent"), ==, 0);
        }
      /* job-start/job-end declare a stream: the check ran (its verdict depends on load). */
      if (!g_str_has_suffix (name, "@steps"))
        g_assert_false (json_object_get_null_member (o, "stream_ok"));
      else
        g_assert_true (json_object_get_null_member (o, "stream_ok"));
      matched++;
    }
  g_assert_cmpuint (matched, ==, 5);
}

static void
test_after_writer (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  g_autoptr (GSubprocess) demo = spawn_demo (dir, "0.3");
  g_autofree char *demo_out = finish (demo);
  g_autoptr (GHashTable) truth = parse_truth (demo_out);
  g_autoptr (GSubprocess) monitor = spawn_monitor (dir, "0.2", TRUE);
  g_autofree char *out = finish (monitor);
  g_autoptr (JsonParser) parser = json_parser_new ();
  JsonArray *report = parse_report (parser, out);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  guint64 end_rows = 0, last_job = 0;
  gint64 received_end = -1;
  gboolean header_seen = FALSE;

  /* The demo ran ~300 jobs of 1 ms: the 32-slot sensors lost most of them. */
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (truth, "demo-rt-0@job-end")), >, 100);
  check_report (report, truth, TRUE);

  /* --dump: demo-rt-0@job-end rows decoded by the schema, checksums intact. */
  for (guint i = 0; lines[i]; i++)
    {
      g_auto (GStrv) cells = NULL;
      guint64 job, thread, cpu;
      gint64 response;

      if (g_str_equal (lines[i], "# sensor,time_ns,job,response_ns,thread,cpu,check"))
        header_seen = TRUE;
      if (!g_str_has_prefix (lines[i], "demo-rt-0@job-end,"))
        continue;
      cells = g_strsplit (lines[i], ",", -1);
      g_assert_cmpuint (g_strv_length (cells), ==, 7);
      job = g_ascii_strtoull (cells[2], NULL, 10);
      response = g_ascii_strtoll (cells[3], NULL, 10);
      thread = g_ascii_strtoull (cells[4], NULL, 10);
      cpu = g_ascii_strtoull (cells[5], NULL, 10);
      g_assert_cmpuint (g_ascii_strtoull (cells[6], NULL, 10), ==,
                        demo_check (job, (guint64) response, thread << 32 | cpu));
      g_assert_cmpuint (thread, ==, 0);
      g_assert_cmpint (response, >, 0);
      if (end_rows > 0)
        g_assert_cmpuint (job, ==, last_job + 1);
      last_job = job;
      end_rows++;
    }
  g_assert_true (header_seen);
  for (guint i = 0; i < json_array_get_length (report); i++)
    {
      JsonObject *o = json_array_get_object_element (report, i);

      if (g_str_equal (json_object_get_string_member (o, "name"), "demo-rt-0@job-end"))
        received_end = json_object_get_int_member (o, "received");
    }
  g_assert_cmpint ((gint64) end_rows, ==, received_end);
  g_assert_cmpuint (end_rows, ==, 32);
  /* The last job in the buffer is the last committed one. */
  g_assert_cmpuint (last_job + 1, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (truth, "demo-rt-0@job-end")));

  tw_test_remove_sensor_dir (dir);
}

static void
test_live (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  g_autoptr (GSubprocess) monitor = NULL;
  g_autoptr (GSubprocess) demo = NULL;
  g_autofree char *demo_out = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GHashTable) truth = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();

  /* The monitor watches the empty directory first; the sensors appear under it. */
  g_mkdir_with_parents (dir, 0700);
  monitor = spawn_monitor (dir, "1.5", FALSE);
  g_usleep (200 * 1000);
  demo = spawn_demo (dir, "0.6");
  demo_out = finish (demo);
  truth = parse_truth (demo_out);
  out = finish (monitor);
  check_report (parse_report (parser, out), truth, FALSE);

  tw_test_remove_sensor_dir (dir);
}

static void
test_bad_dir (void)
{
  const char *cli = g_getenv ("TW_CLI");
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;
  int status = 0;
  const char *argv[] = { cli, "monitor", "--sensor-dir", "/nonexistent/tw-sensors", "--duration", "0.1", NULL };

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/tw-sensors"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/cli/monitor/after-writer", test_after_writer);
  g_test_add_func ("/tw/cli/monitor/live", test_live);
  g_test_add_func ("/tw/cli/monitor/bad-dir", test_bad_dir);
  return g_test_run ();
}
