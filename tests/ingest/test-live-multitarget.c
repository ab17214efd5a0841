/* test-live-multitarget.c: several LTTng targets merged into one store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two targets, each a session daemon in its own UTS and network namespaces (hostnames
 * tA and tB, a veth pair each to the relay: tests/lib/tw-test-lttng-lab.h), one relay,
 * one monitor reading both sessions: the store holds every event each target's emitter
 * sent, each under its host, in time order. And two relays, one killed while the other
 * target keeps sending: the lost one no longer holds the merge back, and joins again
 * once its relay is back.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>
#include <tw-ingest.h>

#include "tw-test-lttng-lab.h"
#include "tw-test-utils.h"

#define WAIT_US     (30 * G_USEC_PER_SEC)
#define TRACEF_NAME "lttng_ust_tracef:event"

/* How many tracef events of @host (NULL: any) the store holds. */
static guint64
count_host (TwTrace    *trace,
            const char *host)
{
  guint16 type = tw_trace_lookup_event_type (trace, TRACEF_NAME);
  guint64 n = tw_trace_get_n_events (trace), count = 0;

  for (guint64 i = 0; type != TW_TYPE_NONE && i < n; i++)
    {
      TwEvent event;
      const TwTask *task;

      tw_trace_get_event (trace, i, &event);
      if (event.type != type)
        continue;
      task = tw_trace_get_task (trace, event.task);
      count += host == NULL || (task && g_strcmp0 (task->host, host) == 0);
    }
  return count;
}

static gboolean
all_connected (TwMonitor *monitor)
{
  for (guint i = 0; i < tw_monitor_get_n_sources (monitor); i++)
    {
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (monitor, i, &info);
      if (info.connection != TW_LIVE_CONNECTION_CONNECTED)
        return FALSE;
    }
  return TRUE;
}

static TwLiveConnection
connection_of (TwMonitor *monitor,
               guint      source)
{
  TwMonitorSourceInfo info;

  g_assert_true (tw_monitor_get_source_info (monitor, source, &info));
  return info.connection;
}

/* Polls @monitor for @ms. */
static void
poll_for (TwMonitor *monitor,
          guint      ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    {
      tw_monitor_poll (monitor);
      g_usleep (10000);
    }
}

/* A monitor reading @urls, their hosts named as the window names them. */
static TwMonitor *
monitor_for (const char *const *urls)
{
  g_autoptr(GError) error = NULL;
  TwMonitor *monitor = tw_monitor_new (NULL);
  TwLiveSource *sources[4];
  guint n = 0;

  tw_monitor_set_watch_sensors (monitor, FALSE);
  for (; urls[n]; n++)
    {
      sources[n] = tw_live_lttng_new (urls[n], &error);
      g_assert_no_error (error);
    }
  tw_live_lttng_name_hosts (sources, n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (tw_monitor_add_source (monitor, sources[i], &error));
      g_assert_no_error (error);
    }
  return monitor;
}

/* The live store of two targets, recorded as a live session records it (CTF) and
 * exported as CSV, then read back: the same events per host, each CPU and task still
 * its host's. */
static void
assert_hosts_kept (TwTrace *trace)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tw-multitarget-XXXXXX", &error);
  g_autofree char *ctf = g_build_filename (dir, "recording", NULL);
  g_autofree char *csv = g_build_filename (dir, "events.csv", NULL);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv);
  g_autoptr(GFileOutputStream) out = g_file_create (csv_file, G_FILE_CREATE_NONE, NULL, &error);
  const char *paths[] = { ctf, csv };

  g_assert_no_error (error);
  g_assert_true (tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), ctf, NULL, NULL,
                                             NULL, &error));
  g_assert_no_error (error);
  g_assert_true (tw_csv_writer_write (trace, G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_true (g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error));
  g_assert_no_error (error);
  for (guint p = 0; p < G_N_ELEMENTS (paths); p++)
    {
      g_autoptr(TwTrace) back = tw_reader_registry_load_file_full (paths[p], NULL, TW_LOAD_IN_PROCESS,
                                                                   NULL, NULL, NULL, &error);

      g_assert_no_error (error);
      g_test_message ("%s: %" G_GUINT64_FORMAT " events, %u hosts", paths[p],
                      tw_trace_get_n_events (back), tw_trace_get_n_hosts (back));
      g_assert_cmpuint (tw_trace_get_n_hosts (back), ==, 2);
      g_assert_cmpuint (count_host (back, "tA"), ==, count_host (trace, "tA"));
      g_assert_cmpuint (count_host (back, "tB"), ==, count_host (trace, "tB"));
      for (guint64 i = 0; i < tw_trace_get_n_events (back); i++)
        {
          TwEvent event;
          const TwTask *task;

          tw_trace_get_event (back, i, &event);
          task = tw_trace_get_task (back, event.task);
          if (task && event.cpu != TW_CPU_NONE)
            g_assert_cmpstr (tw_trace_get_cpu_host (back, event.cpu, NULL), ==, task->host);
        }
    }
  tw_test_remove_tree (dir);
}

/* Two namespaced targets, one relay, one store: both hosts' events, each under its
 * host, the counts each emitter sent, CPUs and tasks apart, in time order. */
static void
test_two_targets (void)
{
  TwTestLab lab;
  g_autofree char *url_a = NULL, *url_b = NULL;
  g_autoptr(TwMonitor) monitor = NULL;
  TwTrace *trace;
  gint64 end;
  guint64 prev = 0, n;

  if (!tw_test_lab_start (&lab))
    return;
  /* the same session name on both: the relay tells them apart by host */
  tw_test_lab_open_sessions (&lab, "bench", &url_a, &url_b);
  g_assert_nonnull (strstr (url_a, "/host/tA/"));
  monitor = monitor_for ((const char *[]) { url_a, url_b, NULL });
  trace = tw_monitor_get_trace (monitor);
  end = g_get_monotonic_time () + WAIT_US;
  while (!all_connected (monitor) && g_get_monotonic_time () < end)
    poll_for (monitor, 10);
  g_assert_true (all_connected (monitor));
  /* a new viewer attaches at the streams' end: a live timer period to settle */
  poll_for (monitor, 300);

  g_assert_true (tw_test_lab_emit (&lab, 0, 40, 200));
  g_assert_true (tw_test_lab_emit (&lab, 1, 25, 200));
  end = g_get_monotonic_time () + WAIT_US;
  while ((count_host (trace, "tA") < 40 || count_host (trace, "tB") < 25) && g_get_monotonic_time () < end)
    poll_for (monitor, 10);
  poll_for (monitor, 300);   /* nothing more may come */
  g_assert_cmpuint (count_host (trace, "tA"), ==, 40);
  g_assert_cmpuint (count_host (trace, "tB"), ==, 25);
  g_assert_cmpuint (count_host (trace, NULL), ==, 65);
  g_assert_cmpuint (tw_trace_get_n_hosts (trace), ==, 2);

  /* every row's task and CPU belong to one host, the same; time never goes back */
  n = tw_trace_get_n_events (trace);
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;
      const TwTask *task;
      const char *cpu_host;
      guint16 host_cpu;

      tw_trace_get_event (trace, i, &event);
      g_assert_cmpuint (event.time, >=, prev);
      prev = event.time;
      task = tw_trace_get_task (trace, event.task);
      cpu_host = tw_trace_get_cpu_host (trace, event.cpu, &host_cpu);
      if (task)
        g_assert_true (g_strcmp0 (task->host, "tA") == 0 || g_strcmp0 (task->host, "tB") == 0);
      if (task && event.cpu != TW_CPU_NONE)
        g_assert_cmpstr (cpu_host, ==, task->host);
    }
  /* each host's tasks are its own, named by it */
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      const TwTask *task = tw_trace_get_task (trace, k);
      g_autofree char *label = tw_trace_dup_task_label (trace, k);
      g_autofree char *prefix = g_strdup_printf ("%s/", task->host);

      g_assert_nonnull (task->host);
      g_assert_true (g_str_has_prefix (task->source_id, prefix));
      g_assert_true (g_str_has_prefix (label, task->host));
    }
  for (guint i = 0; i < tw_monitor_get_n_sources (monitor); i++)
    {
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (monitor, i, &info);
      g_assert_cmpuint (info.counts.late, ==, 0);
    }
  assert_hosts_kept (trace);
  tw_monitor_stop (monitor);
  g_clear_object (&monitor);
  tw_test_lab_stop (&lab);
}

static guint64
count_tracef (TwTrace *trace)
{
  return count_host (trace, NULL);
}

/* Polls until the store holds @want tracef events (or the time is up). */
static guint64
poll_until (TwMonitor *monitor,
            guint64    want)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (count_tracef (tw_monitor_get_trace (monitor)) < want && g_get_monotonic_time () < end)
    poll_for (monitor, 10);
  return count_tracef (tw_monitor_get_trace (monitor));
}

static gboolean
poll_until_connection (TwMonitor        *monitor,
                       guint             source,
                       TwLiveConnection  want)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (connection_of (monitor, source) != want && g_get_monotonic_time () < end)
    poll_for (monitor, 10);
  return connection_of (monitor, source) == want;
}

/* Two relays, one per target; the first relay is killed while the second target keeps
 * sending: its rows still reach the store (the lost target does not hold the merge).
 * The relay comes back, the session is made again, and the first target joins. */
static void
test_relay_lost (void)
{
  TwTestLttng a, b;
  g_autofree char *url_a = NULL, *url_b = NULL;
  g_autoptr(TwMonitor) monitor = NULL;
  TwMonitorSourceInfo info;

  if (!tw_test_lttng_start (&a))
    return;
  if (!tw_test_lttng_start (&b))
    {
      tw_test_lttng_stop (&a);
      return;
    }
  g_assert_true (tw_test_lttng_create_session (&a, "left", 100000));
  g_assert_true (tw_test_lttng_create_session (&b, "right", 100000));
  g_assert_true (tw_test_lttng_emit (&a, 0, 0));
  g_assert_true (tw_test_lttng_emit (&b, 0, 0));
  url_a = tw_test_lttng_url (&a, "left");
  url_b = tw_test_lttng_url (&b, "right");
  monitor = monitor_for ((const char *[]) { url_a, url_b, NULL });
  g_assert_true (poll_until_connection (monitor, 0, TW_LIVE_CONNECTION_CONNECTED));
  g_assert_true (poll_until_connection (monitor, 1, TW_LIVE_CONNECTION_CONNECTED));
  poll_for (monitor, 300);
  g_assert_true (tw_test_lttng_emit (&a, 10, 100));
  g_assert_true (tw_test_lttng_emit (&b, 10, 100));
  g_assert_cmpuint (poll_until (monitor, 20), ==, 20);

  /* the first relay goes away; the second target keeps sending */
  tw_test_lttng_stop_relayd (&a);
  g_assert_true (poll_until_connection (monitor, 0, TW_LIVE_CONNECTION_LOST));
  g_assert_true (tw_test_lttng_emit (&b, 30, 100));
  g_assert_cmpuint (poll_until (monitor, 50), ==, 50);

  /* it comes back: a session made again there, the source reconnects and joins */
  g_assert_true (tw_test_lttng_start_relayd (&a));
  /* the session daemon may have given the session up with its relay already */
  tw_test_lttng_run (&a, "destroy", "left", NULL);
  g_assert_true (tw_test_lttng_create_session (&a, "left", 100000));
  g_assert_true (tw_test_lttng_emit (&a, 0, 0));
  g_assert_true (poll_until_connection (monitor, 0, TW_LIVE_CONNECTION_CONNECTED));
  poll_for (monitor, 300);
  g_assert_true (tw_test_lttng_emit (&a, 7, 100));
  g_assert_true (tw_test_lttng_emit (&b, 5, 100));
  g_assert_cmpuint (poll_until (monitor, 62), ==, 62);
  g_assert_true (tw_monitor_get_source_info (monitor, 0, &info));
  g_assert_cmpuint (info.n_reconnects, >=, 1);

  tw_monitor_stop (monitor);
  g_clear_object (&monitor);
  tw_test_lttng_stop (&b);
  tw_test_lttng_stop (&a);
}

/* tracewb-cli monitor --lttng-live A --lttng-live B: one report per target, each with
 * what that target's emitter sent. */
static void
test_cli_two_targets (void)
{
  TwTestLab lab;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) cli = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *url_a = NULL, *url_b = NULL, *out = NULL, *err = NULL;
  JsonArray *sources;
  const char *hosts[] = { "tA", "tB" };
  const gint64 sent[] = { 12, 8 };

  if (!tw_test_lab_start (&lab))
    return;
  tw_test_lab_open_sessions (&lab, "cli", &url_a, &url_b);
  cli = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                          g_getenv ("TW_CLI"), "monitor", "--lttng-live", url_a, "--lttng-live", url_b,
                          "--duration", "6", "--json", NULL);
  g_assert_no_error (error);
  g_usleep (2 * G_USEC_PER_SEC);
  g_assert_true (tw_test_lab_emit (&lab, 0, sent[0], 100));
  g_assert_true (tw_test_lab_emit (&lab, 1, sent[1], 100));
  g_assert_true (g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, &err, &error));
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  sources = json_node_get_array (json_parser_get_root (parser));
  g_assert_cmpuint (json_array_get_length (sources), ==, 2);
  for (guint k = 0; k < 2; k++)
    {
      JsonObject *source = json_array_get_object_element (sources, k);
      JsonObject *events = json_object_get_object_member (source, "events");
      g_autofree char *part = g_strdup_printf ("/host/%s/", hosts[k]);

      g_assert_nonnull (strstr (json_object_get_string_member (source, "name"), part));
      g_assert_cmpstr (json_object_get_string_member (source, "connection"), ==, "connected");
      g_assert_cmpint (json_object_get_int_member (events, TRACEF_NAME), ==, sent[k]);
    }
  tw_test_lab_stop (&lab);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tw/ingest/lttng-live/two-targets", test_two_targets);
  g_test_add_func ("/tw/ingest/lttng-live/relay-lost", test_relay_lost);
  g_test_add_func ("/tw/ingest/lttng-live/cli-two-targets", test_cli_two_targets);
  return g_test_run ();
}
