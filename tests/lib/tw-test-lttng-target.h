/* tw-test-lttng-target.h: a "target" for the LTTng sensor tests: the demo writing sensors and
 * `tracewb-cli monitor --lttng` reading them, beside a private session daemon
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The demo (tracewb-demo-rt, 1 and 2 ms periods, 32-element rings) misses elements when
 * the monitor polls every 100 ms (a ring of 32 holds 32 ms of the 1 ms task, far less of
 * the shared steps sensor): the misses the workbench shows must then be exactly the
 * target monitor's. What that monitor counted per sensor is its `--json` output.
 */
#pragma once

#include <json-glib/json-glib.h>
#include <tw-data.h>

#include "tw-test-lttng.h"

typedef struct {
  char    *name;          /* `<task>@<sensor>` */
  char    *task;
  char    *sensor;
  guint64  received;
  guint64  missed;
  guint64  inconsistent;
  gboolean declared;      /* the sensor declared a jitter-constrained stream */
  gboolean stream_ok;     /* … and the monitor found every arrival within it */
} TwTestCounted;

/* The target's evaluation (`--metric`), from the monitor's JSON. */
typedef struct {
  guint64  measurements;
  double   max;
} TwTestEvaluated;

static inline void
tw_test_counted_clear (gpointer data)
{
  TwTestCounted *c = data;

  g_free (c->name);
  g_free (c->task);
  g_free (c->sensor);
}

/* What the workbench holds of a target's sensor @name (`<task>@<sensor>`): its rows, and
 * the misses its loss rows count. */
static inline void
tw_test_count_sensor_rows (TwTrace    *trace,
                           const char *name,
                           guint64    *received,
                           guint64    *missed)
{
  g_autofree char *missed_name = g_strdup_printf ("%s:missed", name);
  guint16 type = tw_trace_lookup_event_type (trace, name);
  guint16 lost = tw_trace_lookup_event_type (trace, missed_name);
  guint64 n = tw_trace_get_n_events (trace);

  *received = *missed = 0;
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      if (event.type == type)
        ++*received;
      else if (event.type == lost && lost != TW_TYPE_NONE)
        *missed += event.arg;
    }
}

/* A sensor folder the target's programs may write (as root they run as nobody). */
static inline char *
tw_test_target_make_sensor_dir (TwTestLttng *lt)
{
  char *dir = g_dir_make_tmp ("tw-lttng-sensors-XXXXXX", NULL);

  g_assert_nonnull (dir);
  if (lt->as_user)
    {
      struct passwd *nobody = getpwnam ("nobody");

      g_assert_cmpint (chown (dir, nobody->pw_uid, nobody->pw_gid), ==, 0);
    }
  return dir;
}

static inline GPid
tw_test_target_start_demo (TwTestLttng *lt,
                           const char  *sensor_dir,
                           const char  *duration)
{
  const char *args[] = { g_getenv ("TW_DEMO_RT"), "--duration", duration, "--periods", "1,2",
                         "--capacity", "32", "--load", "0.1", "--keep", "--sensor-dir", sensor_dir,
                         NULL };
  g_autoptr(GPtrArray) argv = tw_test_lttng_argv (lt, args);
  g_autoptr(GError) error = NULL;
  GPid pid = 0;

  g_assert_nonnull (args[0]);
  g_assert_true (g_spawn_async (NULL, (char **) argv->pdata, lt->env,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                tw_test_lttng_child_setup, NULL, &pid, &error));
  g_assert_no_error (error);
  return pid;
}

static inline void
tw_test_target_wait (GPid pid)
{
  int status;

  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
}

/* `tracewb-cli monitor --lttng --json` on the target (blocks for @duration): what it
 * counted, per sensor; with @option (`--metric`, `--automaton`) and @value, its
 * evaluation's figures in @evaluated. */
static inline GArray *
tw_test_target_run_monitor_evaluating (TwTestLttng     *lt,
                                       const char      *sensor_dir,
                                       const char      *duration,
                                       const char      *option,
                                       const char      *value,
                                       TwTestEvaluated *evaluated)
{
  const char *args[] = { g_getenv ("TW_CLI"), "monitor", "--lttng", "--from-start", "--period", "100",
                         "--sensor-dir", sensor_dir, "--duration", duration, "--json",
                         option, value, NULL };
  g_autoptr(GPtrArray) argv = tw_test_lttng_argv (lt, args);
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  GArray *counted = g_array_new (FALSE, TRUE, sizeof (TwTestCounted));
  JsonArray *sources;
  int status = -1;

  g_array_set_clear_func (counted, tw_test_counted_clear);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, lt->env, 0, NULL, NULL, &out, &err,
                               &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("tracewb-cli monitor --lttng failed: %s", err);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  sources = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *o = json_array_get_object_element (sources, i);
      TwTestCounted c = { 0 };

      if (g_strcmp0 (json_object_get_string_member (o, "kind"), "evaluation") == 0)
        {
          if (g_strcmp0 (option, "--metric") == 0)
            g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, value);
          evaluated->measurements = json_object_get_int_member (o, "measurements");
          evaluated->max = json_object_get_double_member (o, "max");
          continue;
        }
      if (g_strcmp0 (json_object_get_string_member (o, "kind"), "sensor") != 0)
        continue;
      c.name = g_strdup (json_object_get_string_member (o, "name"));
      c.task = g_strdup (json_object_get_string_member (o, "task"));
      c.sensor = g_strdup (json_object_get_string_member (o, "sensor"));
      c.received = json_object_get_int_member (o, "received");
      c.missed = json_object_get_int_member (o, "missed");
      c.inconsistent = json_object_get_int_member (o, "inconsistent");
      c.declared = !json_object_get_null_member (o, "stream_ok");
      c.stream_ok = c.declared && json_object_get_boolean_member (o, "stream_ok");
      g_array_append_val (counted, c);
    }
  return counted;
}

/* The same with @metric (or none). */
static inline GArray *
tw_test_target_run_monitor (TwTestLttng     *lt,
                            const char      *sensor_dir,
                            const char      *duration,
                            const char      *metric,
                            TwTestEvaluated *evaluated)
{
  return tw_test_target_run_monitor_evaluating (lt, sensor_dir, duration, metric ? "--metric" : NULL, metric,
                                                evaluated);
}
