/* test-cli-csv.c: tracewb-cli info, events and convert on CSV traces
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <tw-test-utils.h>

#include <string.h>

/* Runs tracewb-cli with @args (NULL-terminated); returns its exit status. */
static int
run_cli (char       **out,
         char       **err,
         const char  *first,
         ...)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("TW_CLI");
  const char *arg;
  int status = 0;
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, first);
  for (arg = first; arg; arg = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) arg);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out, err,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  return WEXITSTATUS (status);
}

static gint64
member_int (JsonObject *object,
            const char *name)
{
  g_assert_true (json_object_has_member (object, name));
  return json_object_get_int_member (object, name);
}

static void
test_info_json (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/kinds.csv");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *types;

  g_assert_cmpint (run_cli (&out, &err, "info", "--json", path, NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));

  g_assert_cmpstr (json_object_get_string_member (root, "format"), ==, "csv");
  g_assert_cmpint (member_int (root, "events"), ==, 15);
  g_assert_cmpint (member_int (root, "cpus"), ==, 2);
  g_assert_cmpint (member_int (root, "tasks"), ==, 4);
  g_assert_cmpint (member_int (root, "first_ns"), ==, 1000);
  g_assert_cmpint (member_int (root, "last_ns"), ==, 2400);
  g_assert_cmpint (member_int (root, "duration_ns"), ==, 1400);
  types = json_object_get_object_member (root, "types");
  g_assert_cmpuint (json_object_get_size (types), ==, 14);
  g_assert_cmpint (member_int (types, "switch"), ==, 2);
  g_assert_cmpint (member_int (types, "marker"), ==, 1);
  g_assert_cmpint (member_int (types, "mutex_wait"), ==, 1);
}

static GStrv
split_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; lines[i]; i++)
    if (lines[i][0] != '\0')
      g_strv_builder_add (builder, lines[i]);
  return g_strv_builder_end (builder);
}

/* time and type of one `events` line: "TIME CPU TASK TYPE ARGS" */
static void
assert_event_line (const char *line,
                   const char *time,
                   const char *cpu,
                   const char *task,
                   const char *type)
{
  g_autofree char *copy = g_strstrip (g_strdup (line));
  g_auto(GStrv) words = g_strsplit_set (copy, " ", -1);
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();

  for (guint i = 0; words[i]; i++)
    if (words[i][0] != '\0')
      g_ptr_array_add (parts, words[i]);
  g_assert_cmpuint (parts->len, >=, 4);
  g_assert_cmpstr (parts->pdata[0], ==, time);
  g_assert_cmpstr (parts->pdata[1], ==, cpu);
  g_assert_cmpstr (parts->pdata[2], ==, task);
  g_assert_cmpstr (parts->pdata[3], ==, type);
}

static void
test_events_filters (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/kinds.csv");
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_cmpint (run_cli (&out, NULL, "events", path, NULL), ==, 0);
  lines = split_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 15);
  assert_event_line (lines[0], "1000", "0", "idle-0", "switch");
  g_assert_nonnull (strstr (lines[0], "next=worker-43 prev_state=R"));
  assert_event_line (lines[12], "2200", "-", "logger", "sensor");
  assert_event_line (lines[13], "2300", "1", "-", "marker");
  g_assert_nonnull (strstr (lines[13], "note=phase 1, warm-up"));
  g_clear_pointer (&lines, g_strfreev);
  g_clear_pointer (&out, g_free);

  /* [1500, 2000) of task 11: 1700 belongs to task 13, 2000 is past the end */
  g_assert_cmpint (run_cli (&out, NULL, "events", "--from", "1500", "--to", "2000",
                            "--task", "11", path, NULL), ==, 0);
  lines = split_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  assert_event_line (lines[0], "1500", "1", "worker-43", "wakeup");
  assert_event_line (lines[1], "1600", "1", "worker-43", "task_create");
  assert_event_line (lines[2], "1800", "0", "worker-43", "user");
  assert_event_line (lines[3], "1900", "0", "worker-43", "mutex_lock");
  g_clear_pointer (&lines, g_strfreev);
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run_cli (&out, NULL, "events", "--type", "switch", path, NULL), ==, 0);
  lines = split_lines (out);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);
  assert_event_line (lines[0], "1000", "0", "idle-0", "switch");
  assert_event_line (lines[1], "2400", "0", "worker-43", "switch");
  g_clear_pointer (&out, g_free);

  g_assert_cmpint (run_cli (&out, &err, "events", "--type", "nope", path, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "no event “nope” in this trace"));
}

static void
test_convert (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("csv/kinds.csv");
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "converted.csv", NULL);
  g_autofree char *converted = NULL;
  g_autofree char *file_text = NULL;
  g_autofree char *events_before = NULL;
  g_autofree char *events_after = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (run_cli (&converted, &err, "convert", path, "--to", "csv", NULL), ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_str_has_prefix (converted, "# Trace Workbench CSV events"));
  g_assert_nonnull (strstr (converted, "\n# converted from a “csv” trace\n"
                                       "time_ns,cpu,task,event,task_name,task_pid,task_tid,"
                                       "next,prev_state,irq,vec,target,id,mutex,sensor,note\n"
                                       "1000,0,10,switch,\"idle-0\",,,11,\"R\",,,,,,,\n"));

  g_assert_cmpint (run_cli (NULL, NULL, "convert", path, "--to", "csv", "-o", out_path, NULL), ==, 0);
  g_file_get_contents (out_path, &file_text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (file_text, ==, converted);

  /* what `events` prints is the same for the original and the converted file */
  g_assert_cmpint (run_cli (&events_before, NULL, "events", path, NULL), ==, 0);
  g_assert_cmpint (run_cli (&events_after, NULL, "events", out_path, NULL), ==, 0);
  g_assert_cmpstr (events_after, ==, events_before);
}

static void
test_bad_input (void)
{
  g_autofree char *bad = tw_test_dup_fixture_path ("csv/bad-number.csv");
  g_autofree char *missing_column = tw_test_dup_fixture_path ("csv/missing-column.csv");
  g_autofree char *absent = g_build_filename (g_get_tmp_dir (), "absent.csv", NULL);
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "never.csv", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;

  expected = g_strdup_printf ("tracewb-cli convert: %s: line 3: column “cpu”: “x1” is not a "
                              "CPU number (0 to 65534)\n", bad);
  g_assert_cmpint (run_cli (&out, &err, "convert", bad, "--to", "csv", "-o", out_path, NULL), ==, 1);
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpstr (out, ==, "");
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  g_clear_pointer (&err, g_free);
  g_clear_pointer (&expected, g_free);

  expected = g_strdup_printf ("tracewb-cli info: %s: line 3: column “cpu”: “x1” is not a "
                              "CPU number (0 to 65534)\n", bad);
  g_assert_cmpint (run_cli (NULL, &err, "info", "--json", bad, NULL), ==, 1);
  g_assert_cmpstr (err, ==, expected);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (NULL, &err, "events", "--format", "csv", missing_column, NULL), ==, 1);
  g_assert_nonnull (strstr (err, missing_column));
  g_assert_nonnull (strstr (err, "line 1: no “cpu” column"));
  g_clear_pointer (&err, g_free);

  /* without --format, nothing claims the file */
  g_assert_cmpint (run_cli (NULL, &err, "info", missing_column, NULL), ==, 1);
  g_assert_nonnull (strstr (err, "not a trace format"));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (NULL, &err, "convert", absent, "--to", "csv", NULL), ==, 1);
  g_assert_true (g_str_has_prefix (err, "tracewb-cli convert: "));
  g_assert_nonnull (strstr (err, absent));
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (run_cli (NULL, &err, "convert", bad, "--to", "xml", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "unknown output format “xml”"));
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (run_cli (NULL, &err, "convert", bad, NULL), ==, 2);
  g_assert_nonnull (strstr (err, "usage: tracewb-cli convert"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/app/cli/csv/info-json", test_info_json);
  g_test_add_func ("/tw/app/cli/csv/events-filters", test_events_filters);
  g_test_add_func ("/tw/app/cli/csv/convert", test_convert);
  g_test_add_func ("/tw/app/cli/csv/bad-input", test_bad_input);

  return g_test_run ();
}
