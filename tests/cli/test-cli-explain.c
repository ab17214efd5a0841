/* test-cli-explain.c: `tracewb-cli explain` on a simulated dump, against the simulator's
 * ground truth
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "tw-test-utils.h"

typedef struct {
  char       *dump;
  JsonParser *truth;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *truth_path = g_build_filename (tw_test_get_private_dir (), "explain-truth.json", NULL);
  const char *args[] = { "simulate", "-o", NULL, "--events", "100000", "--irq-us", "700",
                         "--truth", truth_path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  f->dump = g_build_filename (tw_test_get_private_dir (), "explain.shark", NULL);
  args[2] = f->dump;
  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  f->truth = json_parser_new ();
  g_assert_true (json_parser_load_from_file (f->truth, truth_path, NULL));
  g_remove (truth_path);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_remove (f->dump);
  g_free (f->dump);
  g_clear_object (&f->truth);
}

static gint64
sum_by_kind (JsonArray  *components,
             const char *kind)
{
  gint64 sum = 0;

  for (guint i = 0; i < json_array_get_length (components); i++)
    {
      JsonObject *c = json_array_get_object_element (components, i);

      if (strcmp (json_object_get_string_member (c, "kind"), kind) == 0)
        sum += json_object_get_int_member (c, "time_ns");
    }
  return sum;
}

static gint64
sum_truth (JsonObject *job,
           const char *member)
{
  JsonArray *items = json_object_get_array_member (job, member);
  gint64 sum = 0;

  for (guint i = 0; i < json_array_get_length (items); i++)
    sum += json_object_get_int_member (json_array_get_object_element (items, i), "ns");
  return sum;
}

/* The worst response time of each task, as --json prints it, is the simulator's worst
 * job of that task, component by component, and sums to its length. */
static void
test_worst_json (Fixture       *f,
                 gconstpointer  data)
{
  JsonArray *tasks = json_object_get_array_member (json_node_get_object (json_parser_get_root (f->truth)),
                                                   "per_task");

  for (guint i = 0; i + 1 < json_array_get_length (tasks); i++)
    {
      JsonObject *task = json_array_get_object_element (tasks, i);
      JsonObject *job = json_object_get_object_member (task, "worst_job");
      g_autofree char *ctx = g_strdup_printf ("%" G_GINT64_FORMAT,
                                              json_object_get_int_member (task, "ctx"));
      const char *args[] = { "explain", f->dump, "--metric", "response-time", "--worst",
                             "--task", ctx, "--json", NULL };
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *root;
      JsonArray *components;
      gint64 total = 0;
      int status;

      g_assert_true (tw_test_run_cli (args, &out, &err, &status));
      g_assert_cmpint (status, ==, 0);
      g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
      root = json_node_get_object (json_parser_get_root (parser));
      components = json_object_get_array_member (root, "components");
      for (guint c = 0; c < json_array_get_length (components); c++)
        total += json_object_get_int_member (json_array_get_object_element (components, c), "time_ns");
      g_assert_cmpint (total, ==, json_object_get_int_member (root, "length_ns"));

      g_assert_cmpint (json_object_get_int_member (root, "begin_ns"), ==,
                       json_object_get_int_member (job, "begin_ns"));
      g_assert_cmpint (json_object_get_int_member (root, "end_ns"), ==,
                       json_object_get_int_member (job, "end_ns"));
      g_assert_cmpint (sum_by_kind (components, "running"), ==,
                       json_object_get_int_member (job, "running_ns"));
      g_assert_cmpint (sum_by_kind (components, "blocked"), ==,
                       json_object_get_int_member (job, "blocked_ns"));
      g_assert_cmpint (sum_by_kind (components, "interrupted"), ==, sum_truth (job, "interrupted"));
      g_assert_cmpint (sum_by_kind (components, "preempted"), ==, sum_truth (job, "preempted"));
      g_assert_cmpint (sum_by_kind (components, "waiting"), ==, sum_truth (job, "waiting"));
      g_assert_cmpint (sum_by_kind (components, "priority-inversion"), ==,
                       sum_truth (job, "inversion"));
      g_assert_cmpuint (json_array_get_length (json_object_get_array_member (root, "critical_path")),
                        ==, 2);
    }
}

/* The table: one line per component, a total equal to the length, the critical path. */
static void
test_text (Fixture       *f,
           gconstpointer  data)
{
  const char *args[] = { "explain", f->dump, "--metric", "response-time", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto(GStrv) lines = NULL;
  int status;
  const char *total_line = NULL;
  g_autofree char *length = NULL;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  lines = g_strsplit (out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "response-time, row "));
  /* "... : 6694.976 µs from ..." */
  length = g_strndup (strstr (lines[0], ": ") + 2,
                      strstr (lines[0], " µs") - (strstr (lines[0], ": ") + 2));
  g_assert_true (g_str_has_prefix (lines[2], "component"));
  for (guint i = 3; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "total"))
      total_line = lines[i];
  g_assert_nonnull (total_line);
  g_assert_nonnull (strstr (total_line, length));
  g_assert_nonnull (strstr (total_line, "100.00%"));
  g_assert_nonnull (strstr (out, "running"));
  g_assert_nonnull (strstr (out, "\ncritical path"));
  g_assert_nonnull (strstr (out, "first cause: irq 0"));
}

static void
test_errors (Fixture       *f,
             gconstpointer  data)
{
  struct {
    const char *args[10];
    int status;
    const char *message;
  } cases[] = {
    { { "explain", f->dump, NULL }, 2, "usage:" },
    { { "explain", f->dump, "--metric", "response-time", "--row", "3", "--worst", NULL }, 2, "usage:" },
    { { "explain", f->dump, "--metric", "response-time", "--row", "99999999", NULL }, 1, "rows" },
    { { "explain", f->dump, "--metric", "response-time", "--task", "nobody", NULL }, 1,
      "--task nobody: no such task" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;
      int status;

      g_assert_true (tw_test_run_cli (cases[i].args, &out, &err, &status));
      g_assert_cmpint (status, ==, cases[i].status);
      g_assert_nonnull (strstr (err, cases[i].message));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/tw/cli/explain/worst-json", Fixture, NULL, fixture_setup, test_worst_json,
              fixture_teardown);
  g_test_add ("/tw/cli/explain/text", Fixture, NULL, fixture_setup, test_text, fixture_teardown);
  g_test_add ("/tw/cli/explain/errors", Fixture, NULL, fixture_setup, test_errors,
              fixture_teardown);

  return g_test_run ();
}
