/* test-live-lttng.c: the LTTng live source against a private session daemon and relay
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <tw-ingest.h>

#include "tw-lttng-live-protocol-private.h"
#include "tw-test-lttng.h"
#include "tw-test-utils.h"

#define WAIT_US     (30 * G_USEC_PER_SEC)
#define TIMER_US    100000
#define TRACEF_NAME "lttng_ust_tracef:event"
/* lttng-emit's `pairs`: "start I" at INFO, "end I" at WARNING */
#define TRACELOG_START_NAME "lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_INFO"
#define TRACELOG_END_NAME "lttng_ust_tracelog:LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING"

typedef struct {
  TwTestLttng lt;
  TwMonitor  *monitor;
} Fixture;

static void
fixture_set_up (Fixture       *fx,
                gconstpointer  data)
{
  tw_test_lttng_start (&fx->lt);
}

static void
fixture_tear_down (Fixture       *fx,
                   gconstpointer  data)
{
  if (fx->monitor)
    tw_monitor_stop (fx->monitor);
  g_clear_object (&fx->monitor);
  tw_test_lttng_stop (&fx->lt);
}

static TwMonitorSourceInfo
source_info (Fixture *fx)
{
  TwMonitorSourceInfo info;

  g_assert_true (tw_monitor_get_source_info (fx->monitor, 0, &info));
  return info;
}

static guint64
count_named (TwTrace    *trace,
             const char *name)
{
  guint16 type = tw_trace_lookup_event_type (trace, name);
  guint64 n = tw_trace_get_n_events (trace), count = 0;

  for (guint64 i = 0; type != TW_TYPE_NONE && i < n; i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      count += event.type == type;
    }
  return count;
}

/* Polls until @name has @want rows (or the time is up); returns how many it has. */
static guint64
poll_until_count (Fixture    *fx,
                  const char *name,
                  guint64     want)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;
  guint64 have = 0;

  while (g_get_monotonic_time () < end && (have = count_named (tw_monitor_get_trace (fx->monitor), name)) < want)
    {
      tw_monitor_poll (fx->monitor);
      g_usleep (10000);
    }
  return have;
}

static gboolean
poll_until_connection (Fixture          *fx,
                       TwLiveConnection  want)
{
  gint64 end = g_get_monotonic_time () + WAIT_US;

  while (g_get_monotonic_time () < end)
    {
      tw_monitor_poll (fx->monitor);
      if (source_info (fx).connection == want)
        return TRUE;
      g_usleep (10000);
    }
  return FALSE;
}

/* Attaches a monitor to session @name, once the session has streams (an app registered). */
static void
attach (Fixture    *fx,
        const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *url = tw_test_lttng_url (&fx->lt, name);
  TwLiveSource *source;

  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  source = tw_live_lttng_new (url, &error);
  g_assert_no_error (error);
  fx->monitor = tw_monitor_new (NULL);
  tw_monitor_set_watch_sensors (fx->monitor, FALSE);
  g_assert_true (tw_monitor_add_source (fx->monitor, source, &error));
  g_assert_no_error (error);
  g_assert_true (poll_until_connection (fx, TW_LIVE_CONNECTION_CONNECTED));
}

static void
test_urls (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *relay = NULL, *target = NULL, *session = NULL;

  g_assert_true (tw_live_lttng_parse_url ("net://relay.lab/host/board-3/rt", &relay, &target, &session, &error));
  g_assert_cmpstr (relay, ==, "net://relay.lab:5344");
  g_assert_cmpstr (target, ==, "board-3");
  g_assert_cmpstr (session, ==, "rt");
  g_clear_pointer (&relay, g_free);
  g_clear_pointer (&target, g_free);
  g_clear_pointer (&session, g_free);
  g_assert_true (tw_live_lttng_parse_url ("net://10.0.0.2:9999", &relay, &target, &session, &error));
  g_assert_cmpstr (relay, ==, "net://10.0.0.2:9999");
  g_assert_null (session);

  g_assert_false (tw_live_lttng_parse_url ("tcp://x/host/a/b", NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "tcp://x/host/a/b"));
  g_clear_error (&error);
  g_assert_false (tw_live_lttng_parse_url ("net://x:99999", NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "99999"));
  g_clear_error (&error);
  g_assert_false (tw_live_lttng_parse_url ("net://x/target/a", NULL, NULL, NULL, &error));
  g_clear_error (&error);
  g_assert_null (tw_live_lttng_new ("net://x", &error));
  g_assert_nonnull (strstr (error->message, "which session"));
}

/* The relay lists the session as babeltrace2 does. */
static void
test_list_sessions (Fixture       *fx,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sessions = NULL;
  g_autofree char *relay = NULL;
  g_autofree char *want = NULL;
  const TwLttngSessionInfo *info;

  if (g_test_failed () || fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "listed", TIMER_US));
  relay = tw_test_lttng_url (&fx->lt, NULL);
  sessions = tw_live_lttng_list_sessions (relay, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sessions->len, ==, 1);
  info = sessions->pdata[0];
  want = tw_test_lttng_url (&fx->lt, "listed");
  g_assert_cmpstr (info->url, ==, want);
  g_assert_cmpstr (info->name, ==, "listed");
  g_assert_cmpstr (info->hostname, ==, fx->lt.hostname);
  g_assert_cmpuint (info->timer_us, ==, TIMER_US);
}

/* Exactly the events the program emitted, in order, with their fields. */
static void
test_exact_events (Fixture       *fx,
                   gconstpointer  data)
{
  const guint n = 5000;
  TwTrace *trace;
  guint16 type;
  guint64 seen = 0;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "exact", TIMER_US));
  attach (fx, "exact");
  g_assert_true (tw_test_lttng_emit (&fx->lt, n, 0));
  g_assert_cmpuint (poll_until_count (fx, TRACEF_NAME, n), ==, n);
  /* nothing more comes: a few live timer periods later the count is the same */
  for (guint i = 0; i < 50; i++)
    tw_monitor_poll (fx->monitor), g_usleep (10000);
  tw_monitor_flush (fx->monitor);
  trace = tw_monitor_get_trace (fx->monitor);
  g_assert_cmpuint (count_named (trace, TRACEF_NAME), ==, n);

  type = tw_trace_lookup_event_type (trace, TRACEF_NAME);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      g_autofree char *msg = NULL;
      g_autofree char *want = NULL;

      tw_trace_get_event (trace, i, &event);
      if (event.type != type)
        continue;
      msg = tw_test_dup_event_field (trace, i, "msg");
      want = g_strdup_printf ("tick %" G_GUINT64_FORMAT, seen);
      g_assert_cmpstr (msg, ==, want);
      /* LTTng's clock: ns from the Unix epoch, so after 2020 */
      g_assert_cmpuint (event.time, >, G_GUINT64_CONSTANT (1577836800) * 1000000000);
      seen++;
    }
  g_assert_cmpuint (seen, ==, n);
  g_assert_cmpuint (source_info (fx).counts.received, >=, n);
  g_assert_cmpuint (source_info (fx).counts.missed, ==, 0);
  g_assert_cmpuint (source_info (fx).n_reconnects, ==, 0);
}

/* The helper names payload strings by slots of a ring (tw-lttng-string-slots-private.h):
 * more strings than the ring has slots, unique ones (each message) beside ones every
 * event repeats (the file and function of a tracelog event), all read back right. A
 * loaded machine may make LTTng discard some (its consumer daemon fell behind): those
 * are counted as missed, and every event that came still reads back its own text. */
static void
test_ring_of_strings (Fixture       *fx,
                      gconstpointer  data)
{
  const guint pairs = 40000;
  gint64 end = g_get_monotonic_time () + WAIT_US;
  guint64 seen = 0, last = 0, missed = 0;
  TwTrace *trace;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "strings", TIMER_US));
  attach (fx, "strings");
  /* 1 µs apart: a pause a pair, so the consumer daemon keeps up on a loaded machine */
  g_assert_true (tw_test_lttng_emit_mode (&fx->lt, pairs, 1, "pairs"));
  trace = tw_monitor_get_trace (fx->monitor);
  while (g_get_monotonic_time () < end
         && count_named (trace, TRACELOG_START_NAME) + count_named (trace, TRACELOG_END_NAME)
            + source_info (fx).counts.missed < 2 * pairs)
    {
      tw_monitor_poll (fx->monitor);
      g_usleep (10000);
    }
  tw_monitor_flush (fx->monitor);
  missed = source_info (fx).counts.missed;
  g_test_message ("LTTng discarded %" G_GUINT64_FORMAT " of %u events", missed, 2 * pairs);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      g_autofree char *msg = tw_test_dup_event_field (trace, i, "msg");
      g_autofree char *func = NULL;
      g_autofree char *file = NULL;
      g_autofree char *want = NULL;
      const char *prefix;
      guint64 index;
      TwEvent event;

      if (msg == NULL)
        continue;
      tw_trace_get_event (trace, i, &event);
      prefix = strcmp (tw_trace_get_event_type (trace, event.type)->name, TRACELOG_END_NAME) == 0 ? "end" : "start";
      index = g_ascii_strtoull (msg + strcspn (msg, " "), NULL, 10);
      want = g_strdup_printf ("%s %" G_GUINT64_FORMAT, prefix, index);
      g_assert_cmpstr (msg, ==, want);
      /* in the order emitted */
      g_assert_cmpuint (index, >=, last);
      last = index;
      func = tw_test_dup_event_field (trace, i, "func");
      file = tw_test_dup_event_field (trace, i, "file");
      g_assert_cmpstr (func, ==, "main");
      g_assert_true (g_str_has_suffix (file, "lttng-emit.c"));
      seen++;
    }
  /* what came and what LTTng said it discarded: every event emitted */
  g_assert_cmpuint (seen + missed, ==, 2 * pairs);
  /* enough came to go round the ring of slots */
  g_assert_cmpuint (seen, >, TW_LTTNG_STRING_SLOTS);
}

/* The relay killed mid-session: said on the source, rows kept; a relay back on its
 * ports and the session made again: the source reconnects by itself and reads on. */
static void
test_relay_killed (Fixture       *fx,
                   gconstpointer  data)
{
  TwMonitorSourceInfo info;
  guint64 before;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "fault", TIMER_US));
  attach (fx, "fault");
  g_assert_true (tw_test_lttng_emit (&fx->lt, 300, 0));
  g_assert_cmpuint (poll_until_count (fx, TRACEF_NAME, 300), ==, 300);

  tw_test_lttng_stop_relayd (&fx->lt);
  g_assert_true (poll_until_connection (fx, TW_LIVE_CONNECTION_LOST));
  info = source_info (fx);
  g_assert_nonnull (info.connection_error);
  g_test_message ("relay gone: %s", info.connection_error);
  g_assert_cmpuint (info.state, ==, TW_MONITOR_SOURCE_ATTACHED);
  before = count_named (tw_monitor_get_trace (fx->monitor), TRACEF_NAME);
  g_assert_cmpuint (before, ==, 300);

  /* the relay comes back; the session daemon lost its session's relay connection, so
   * the session is made again (a target that rebooted does the same) */
  g_assert_true (tw_test_lttng_start_relayd (&fx->lt));
  /* (lttng says the session's last rotation failed, the relay being gone; it is
   * destroyed all the same) */
  tw_test_lttng_run (&fx->lt, "destroy", "fault", NULL);
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "fault", TIMER_US));
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  g_assert_true (poll_until_connection (fx, TW_LIVE_CONNECTION_CONNECTED));
  g_assert_cmpuint (source_info (fx).n_reconnects, >=, 1);
  /* the new helper attaches at the stream's end: give it a timer period to settle */
  for (guint i = 0; i < 30; i++)
    tw_monitor_poll (fx->monitor), g_usleep (10000);
  g_assert_true (tw_test_lttng_emit (&fx->lt, 200, 0));
  g_assert_cmpuint (poll_until_count (fx, TRACEF_NAME, before + 200), ==, before + 200);
}

/* The session destroyed on the target: ENDED, said once, rows kept. */
static void
test_session_destroyed (Fixture       *fx,
                        gconstpointer  data)
{
  TwMonitorSourceInfo info;

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "gone", TIMER_US));
  attach (fx, "gone");
  g_assert_true (tw_test_lttng_emit (&fx->lt, 100, 0));
  g_assert_cmpuint (poll_until_count (fx, TRACEF_NAME, 100), ==, 100);
  g_assert_true (tw_test_lttng_run (&fx->lt, "destroy", "gone", NULL));
  g_assert_true (poll_until_connection (fx, TW_LIVE_CONNECTION_ENDED));
  info = source_info (fx);
  g_test_message ("session gone: %s", info.connection_error);
  g_assert_nonnull (strstr (info.connection_error, "session"));
  g_assert_cmpuint (count_named (tw_monitor_get_trace (fx->monitor), TRACEF_NAME), ==, 100);
}

/* tracewb-cli monitor --lttng-live: the relay's sessions, then what one session sent,
 * counted by event name; the relay gone without --reconnect: one line, exit 1. */
static void
test_cli (Fixture       *fx,
          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) cli = NULL;
  g_autofree char *relay = NULL, *url = NULL, *out = NULL, *err = NULL, *listed = NULL;
  const char *list_argv[] = { g_getenv ("TW_CLI"), "monitor", "--lttng-live", NULL, NULL };

  if (fx->lt.sessiond == 0)
    return;
  g_assert_true (tw_test_lttng_create_session (&fx->lt, "cli", TIMER_US));
  g_assert_true (tw_test_lttng_emit (&fx->lt, 0, 0));
  relay = tw_test_lttng_url (&fx->lt, NULL);
  url = tw_test_lttng_url (&fx->lt, "cli");
  list_argv[3] = relay;
  g_assert_true (g_spawn_sync (NULL, (char **) list_argv, NULL, 0, NULL, NULL, &listed, NULL, NULL, &error));
  g_assert_nonnull (strstr (listed, url));

  cli = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                          g_getenv ("TW_CLI"), "monitor", "--lttng-live", url, "--duration", "20",
                          "--json", NULL);
  g_assert_no_error (error);
  g_usleep (2 * G_USEC_PER_SEC);
  g_assert_true (tw_test_lttng_emit (&fx->lt, 100, 0));
  g_usleep (2 * G_USEC_PER_SEC);
  tw_test_lttng_stop_relayd (&fx->lt);
  g_assert_true (g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, &err, &error));
  g_test_message ("%s", err);
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 1);
  g_assert_nonnull (strstr (err, "connection lost"));
  g_assert_nonnull (strstr (out, "\"" TRACEF_NAME "\" : 100"));
  g_assert_nonnull (strstr (out, "\"connection\" : \"lost\""));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/live-lttng/urls", test_urls);
  g_test_add ("/live-lttng/list-sessions", Fixture, NULL, fixture_set_up, test_list_sessions, fixture_tear_down);
  g_test_add ("/live-lttng/exact-events", Fixture, NULL, fixture_set_up, test_exact_events, fixture_tear_down);
  g_test_add ("/live-lttng/ring-of-strings", Fixture, NULL, fixture_set_up, test_ring_of_strings, fixture_tear_down);
  g_test_add ("/live-lttng/relay-killed", Fixture, NULL, fixture_set_up, test_relay_killed, fixture_tear_down);
  g_test_add ("/live-lttng/session-destroyed", Fixture, NULL, fixture_set_up, test_session_destroyed, fixture_tear_down);
  g_test_add ("/live-lttng/cli", Fixture, NULL, fixture_set_up, test_cli, fixture_tear_down);
  return g_test_run ();
}
