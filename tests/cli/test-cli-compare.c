/* test-cli-compare.c: `tracewb-cli compare A B`, its figures and its CI gate
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

typedef struct {
  char *dir;
  char *light;   /* utilization 0.5 */
  char *heavy;   /* utilization 0.85: longer responses, same tasks */
} Runs;

static char *
simulate (const char *dir,
          const char *name,
          const char *utilization,
          const char *seed)
{
  char *path = g_build_filename (dir, name, NULL);
  const char *const args[] = { "simulate", "-o", path, "--events", "60000", "--utilization",
                               utilization, "--seed", seed, NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  return path;
}

static void
runs_set_up (Runs          *runs,
             gconstpointer  data)
{
  runs->dir = g_dir_make_tmp ("tw-compare-XXXXXX", NULL);
  runs->light = simulate (runs->dir, "light.shark", "0.5", "1");
  runs->heavy = simulate (runs->dir, "heavy.shark", "0.85", "2");
}

static void
runs_tear_down (Runs          *runs,
                gconstpointer  data)
{
  g_unlink (runs->light);
  g_unlink (runs->heavy);
  g_rmdir (runs->dir);
  g_free (runs->light);
  g_free (runs->heavy);
  g_free (runs->dir);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The figure from the run's own measurements (`eval --csv`), by nearest rank. */
static double
eval_p99 (const char *path)
{
  const char *const args[] = { "eval", path, "--metric", "response-time", "--csv", "-", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (double));
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "task,begin_ns,end_ns,length_ns,"));
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_auto(GStrv) cells = g_strsplit (lines[i], ",", -1);
      double length = g_ascii_strtod (cells[3], NULL);

      g_array_append_val (lengths, length);
    }
  g_assert_cmpuint (lengths->len, >, 100);
  g_array_sort (lengths, compare_doubles);
  return g_array_index (lengths, double, (guint) ceil (0.99 * lengths->len) - 1);
}

static JsonObject *
parse_object (const char *text,
              JsonParser *parser)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_json_figures (Runs          *runs,
                   gconstpointer  data)
{
  const char *const args[] = { "compare", runs->light, runs->heavy, "--metric", "response-time",
                               "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *all, *p99, *mw;
  JsonArray *groups;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  root = parse_object (out, parser);
  g_assert_cmpstr (json_object_get_string_member (root, "evaluation"), ==, "response-time");
  groups = json_object_get_array_member (root, "groups");
  /* every measurement, then the simulation's four periodic tasks by name */
  g_assert_cmpuint (json_array_get_length (groups), ==, 5);
  all = json_array_get_object_element (groups, 0);
  g_assert_true (json_object_get_null_member (all, "task"));
  p99 = json_object_get_object_member (json_object_get_object_member (all, "stats"), "p99");

  g_assert_cmpfloat (json_object_get_double_member (p99, "a"), ==, eval_p99 (runs->light));
  g_assert_cmpfloat (json_object_get_double_member (p99, "b"), ==, eval_p99 (runs->heavy));
  g_assert_cmpfloat (json_object_get_double_member (p99, "b"), >,
                     json_object_get_double_member (p99, "a"));
  g_assert_cmpfloat (json_object_get_double_member (p99, "delta"), ==,
                     json_object_get_double_member (p99, "b") - json_object_get_double_member (p99, "a"));
  mw = json_object_get_object_member (all, "mann_whitney");
  g_assert_cmpfloat (json_object_get_double_member (mw, "p"), <, 0.01);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "failed")), ==, 0);
}

static void
test_same_run (Runs          *runs,
               gconstpointer  data)
{
  const char *const args[] = { "compare", runs->light, runs->light, "--metric", "response-time",
                               "--fail-if", "p99>+0%", "--fail-if", "max>+0us", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  g_assert_nonnull (strstr (out, "Mann–Whitney U"));
  g_assert_nonnull (strstr (out, "p = 1: no significant difference"));
  g_assert_nonnull (strstr (out, "Per task"));
}

static void
test_gate_fails (Runs          *runs,
                 gconstpointer  data)
{
  const char *const args[] = { "compare", runs->light, runs->heavy, "--metric", "response-time",
                               "--fail-if", "p99>+10%", "--fail-if", "n>+1000000", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  /* one line, for the gate that failed, naming its statistic */
  g_assert_true (g_str_has_prefix (err, "tracewb-cli compare: --fail-if p99>+10%: p99 changed by +"));
  g_assert_null (strstr (err, "--fail-if n>"));
  g_assert_nonnull (strstr (out, "all measurements"));
}

static void
test_one_task (Runs          *runs,
               gconstpointer  data)
{
  const char *const args[] = { "compare", runs->light, runs->heavy, "--metric", "response-time",
                               "--task", "280", "--worst-case", "--hist", NULL };
  const char *const unknown[] = { "compare", runs->light, runs->heavy, "--metric", "response-time",
                                  "--task", "no-such-task", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_str_has_prefix (strstr (out, "\n\n") + 2, "280\n"));
  g_assert_null (strstr (out, "Per task"));
  g_assert_nonnull (strstr (out, "Histogram, share of each run"));
  g_assert_nonnull (strstr (out, "Worst case per task"));
  g_assert_nonnull (strstr (out, "\n280 "));
  g_assert_null (strstr (out, "\n272 "));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (unknown, &out, &err, &status);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "no task named “no-such-task”"));
}

static void
test_bad_usage (Runs          *runs,
                gconstpointer  data)
{
  const char *const no_metric[] = { "compare", runs->light, runs->heavy, NULL };
  const char *const bad_gate[] = { "compare", runs->light, runs->heavy, "--metric", "run-slice",
                                   "--fail-if", "p98>1%", NULL };
  const char *const missing[] = { "compare", runs->light, "/nonexistent/b.shark", "--metric",
                                  "run-slice", NULL };
  g_autofree char *out = NULL, *err = NULL;
  int status;

  tw_test_run_cli_or_fail (no_metric, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  g_assert_true (g_str_has_prefix (err, "usage: tracewb-cli compare A B"));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (bad_gate, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "“p98” is not a statistic"));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  tw_test_run_cli_or_fail (missing, &out, &err, &status);
  g_assert_cmpint (status, ==, 1);
  g_assert_nonnull (strstr (err, "/nonexistent/b.shark"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/tw/cli/compare/json", Runs, NULL, runs_set_up, test_json_figures, runs_tear_down);
  g_test_add ("/tw/cli/compare/same-run", Runs, NULL, runs_set_up, test_same_run, runs_tear_down);
  g_test_add ("/tw/cli/compare/gate", Runs, NULL, runs_set_up, test_gate_fails, runs_tear_down);
  g_test_add ("/tw/cli/compare/task", Runs, NULL, runs_set_up, test_one_task, runs_tear_down);
  g_test_add ("/tw/cli/compare/usage", Runs, NULL, runs_set_up, test_bad_usage, runs_tear_down);
  return g_test_run ();
}
