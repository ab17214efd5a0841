/* bench-lttng-sensors.c: sensor elements through LTTng (monitor --lttng → relay → workbench), exact counts
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A private lttng-sessiond and lttng-relayd (tests/lib/tw-test-lttng.h), a session whose
 * UST channel holds 8 × 4 MiB sub-buffers per CPU, and on the "target":
 *
 *   writer    this program in --write mode: one sensor ("bench@elements", u64 seq;
 *             u64 value), RATE elements/s (default 1 000 000) for SECONDS (default 2),
 *             a ring of 2^21 elements
 *   monitor   `tracewb-cli monitor --lttng --from-start --period 5 --json`: reads the
 *             ring and emits one tracewb:sensor_element event per element
 *
 * Figures: the writer's rate; the monitor's received + missed (the exact count at the
 * ring) and its CPU per element (where the time goes on the target); LTTng's discarded
 * events; then the relay's recording decoded by the workbench (the CTF reader) — per
 * sensor received + missed, which must equal the monitor's — beside `babeltrace2 DIR`
 * printing the same recording as text (the peer), both in elements/s.
 *
 * Usage: bench-lttng-sensors [RATE] [SECONDS]. Not a CI gate: it prints figures.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-test-lttng.h"

#define RING (1u << 21)

typedef struct {
  guint64 seq;
  guint64 value;
} Element;

/* --write DIR RATE SECONDS: the target's instrumented program */
static int
write_elements (const char *dir,
                double      rate,
                double      seconds)
{
  TwSensor *sensor;
  guint64 n = (guint64) (rate * seconds), start;
  struct timespec ts;

  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  sensor = tw_sensor_new ("bench", "elements", "u64 seq; u64 value", RING, 0);
  if (sensor == NULL)
    {
      perror ("tw_sensor_new");
      return 1;
    }
  /* the monitor attaches at its first scan: let it */
  g_usleep (300000);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  start = (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
  for (guint64 i = 0; i < n; i++)
    {
      Element *e = tw_sensor_write (sensor);

      e->seq = i;
      e->value = i * 3;
      tw_sensor_commit (sensor, e);
      /* paced in steps of 1000 elements */
      if (i % 1000 == 999)
        {
          guint64 due = start + (guint64) ((double) (i + 1) / rate * 1e9), now;

          clock_gettime (CLOCK_MONOTONIC, &ts);
          now = (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
          if (due > now)
            g_usleep ((due - now) / 1000);
        }
    }
  clock_gettime (CLOCK_MONOTONIC, &ts);
  printf ("%" G_GUINT64_FORMAT " %.6f\n", n,
          ((guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec - start) / 1e9);
  /* the file stays (no TW_SENSOR_UNLINK_ON_FREE) for the monitor to drain */
  tw_sensor_free (sensor);
  return 0;
}

static GSubprocess *
spawn_as (TwTestLttng        *lt,
          const char *const  *args,
          GSubprocessFlags    flags)
{
  g_autoptr(GPtrArray) argv = tw_test_lttng_argv (lt, args);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (flags);
  g_autoptr(GError) error = NULL;
  GSubprocess *p;

  g_subprocess_launcher_set_environ (launcher, lt->env);
  p = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  if (p == NULL)
    g_error ("%s: %s", args[0], error->message);
  return p;
}

static double
children_cpu_s (void)
{
  struct rusage ru;

  getrusage (RUSAGE_CHILDREN, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static char *
find_session_folder (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      g_autofree char *ust = g_build_filename (child, "ust", NULL);
      char *found;

      if (!g_file_test (child, G_FILE_TEST_IS_DIR))
        continue;
      if (g_file_test (ust, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&child);
      if ((found = find_session_folder (child)))
        return found;
    }
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  TwTestLttng lt;
  double rate, seconds, t0, wall, cpu_before, monitor_cpu, read_s, peer_s;
  g_autofree char *dir = NULL, *duration = NULL, *rate_text = NULL, *seconds_text = NULL;
  g_autofree char *monitor_out = NULL, *writer_out = NULL, *folder = NULL;
  g_autofree char *url = NULL;
  g_autoptr(GSubprocess) writer = NULL, monitor = NULL, peer = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 received = 0, missed = 0, written = 0, decoded = 0, decoded_missed = 0, discarded = 0, lines = 0;
  double write_s = 0;
  JsonArray *sources;

  if (argc == 5 && strcmp (argv[1], "--write") == 0)
    return write_elements (argv[2], g_ascii_strtod (argv[3], NULL), g_ascii_strtod (argv[4], NULL));
  rate = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 1e6;
  seconds = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 2;
  if (g_getenv ("TW_LTTNG_EMIT") == NULL)
    g_setenv ("TW_LTTNG_EMIT", TW_LTTNG_EMIT_BUILT, FALSE);
  if (g_getenv ("TRACEWB_READER_HELPER") == NULL)
    g_setenv ("TRACEWB_READER_HELPER", TW_READER_HELPER_BUILT, FALSE);
  g_test_init (&argc, &argv, NULL);   /* g_test_skip() of the LTTng helper prints */
  if (!tw_test_lttng_start (&lt))
    {
      printf ("bench-lttng-sensors: LTTng is not available here\n");
      return 0;
    }
  url = g_strdup_printf ("net://127.0.0.1:%u:%u", lt.ports[0], lt.ports[1]);
  if (!tw_test_lttng_run (&lt, "create", "bench", "--live=100000", "--set-url", url, NULL)
      || !tw_test_lttng_run (&lt, "enable-channel", "-s", "bench", "-u", "--subbuf-size=4M",
                             "--num-subbuf=8", "big", NULL)
      || !tw_test_lttng_run (&lt, "enable-event", "-s", "bench", "-u", "-c", "big", "tracewb:*", NULL)
      || !tw_test_lttng_run (&lt, "start", "bench", NULL))
    g_error ("cannot set up the LTTng session");

  dir = g_dir_make_tmp ("bench-lttng-sensors-XXXXXX", NULL);
  if (lt.as_user)
    {
      struct passwd *nobody = getpwnam ("nobody");

      if (chown (dir, nobody->pw_uid, nobody->pw_gid) != 0)
        g_error ("chown %s: %s", dir, g_strerror (errno));
    }
  rate_text = g_strdup_printf ("%.0f", rate);
  seconds_text = g_strdup_printf ("%g", seconds);
  duration = g_strdup_printf ("%g", seconds + 1.5);

  cpu_before = children_cpu_s ();
  t0 = g_get_monotonic_time () / 1e6;
  monitor = spawn_as (&lt, (const char *const[]) { TW_CLI_BUILT, "monitor", "--lttng", "--from-start",
                                                   "--period", "5", "--sensor-dir", dir, "--duration",
                                                   duration, "--json", NULL },
                      G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  writer = spawn_as (&lt, (const char *const[]) { argv[0], "--write", dir, rate_text, seconds_text, NULL },
                     G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_communicate_utf8 (writer, NULL, NULL, &writer_out, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (monitor, NULL, NULL, &monitor_out, NULL, &error);
  g_assert_no_error (error);
  wall = g_get_monotonic_time () / 1e6 - t0;
  monitor_cpu = children_cpu_s () - cpu_before;
  sscanf (writer_out ? writer_out : "", "%" G_GUINT64_FORMAT " %lf", &written, &write_s);
  if (!json_parser_load_from_data (parser, monitor_out, -1, &error))
    g_error ("monitor --json: %s", error->message);
  sources = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (sources); i++)
    {
      JsonObject *o = json_array_get_object_element (sources, i);

      if (g_strcmp0 (json_object_get_string_member (o, "name"), "bench@elements") == 0)
        {
          received = json_object_get_int_member (o, "received");
          missed = json_object_get_int_member (o, "missed");
        }
    }
  tw_test_lttng_run (&lt, "stop", "bench", NULL);
  tw_test_lttng_run (&lt, "destroy", "bench", NULL);

  folder = find_session_folder (lt.output);
  if (folder == NULL)
    g_error ("no recording under %s", lt.output);
  t0 = g_get_monotonic_time () / 1e6;
  trace = tw_reader_registry_load_file (folder, NULL, NULL, NULL, NULL, &error);
  read_s = g_get_monotonic_time () / 1e6 - t0;
  g_assert_no_error (error);
  {
    guint16 type = tw_trace_lookup_event_type (trace, "bench@elements");
    guint16 lost = tw_trace_lookup_event_type (trace, "bench@elements:missed");
    guint64 n = tw_trace_get_n_events (trace);

    for (guint64 i = 0; i < n; i++)
      {
        TwEvent event;
        const TwEventType *info;

        tw_trace_get_event (trace, i, &event);
        info = tw_trace_get_event_type (trace, event.type);
        if (event.type == type)
          decoded++;
        else if (lost != TW_TYPE_NONE && event.type == lost)
          decoded_missed += event.arg;
        else if (info->kind == TW_EVENT_KIND_LOST)
          discarded += event.arg;
      }
  }

  t0 = g_get_monotonic_time () / 1e6;
  peer = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, "babeltrace2", folder, NULL);
  g_assert_no_error (error);
  {
    GInputStream *out = g_subprocess_get_stdout_pipe (peer);
    char buf[65536];
    gssize n;

    while ((n = g_input_stream_read (out, buf, sizeof buf, NULL, NULL)) > 0)
      for (gssize i = 0; i < n; i++)
        lines += buf[i] == '\n';
  }
  g_subprocess_wait (peer, NULL, NULL);
  peer_s = g_get_monotonic_time () / 1e6 - t0;

  printf ("sensor elements through LTTng (monitor --lttng → relay → workbench), %.0f elements/s asked for %g s\n",
          rate, seconds);
  printf ("  writer on the target     %10" G_GUINT64_FORMAT " elements in %.3f s = %10.0f elements/s\n",
          written, write_s, write_s > 0 ? written / write_s : 0);
  printf ("  monitor at the ring      received %" G_GUINT64_FORMAT " + missed %" G_GUINT64_FORMAT " = %" G_GUINT64_FORMAT
          " (%s)\n", received, missed, received + missed, received + missed == written ? "= written" : "≠ written");
  printf ("  target CPU (monitor, writer) %.3f s for %.3f s wall: %.0f ns per element\n",
          monitor_cpu, wall, received ? monitor_cpu * 1e9 / received : 0);
  printf ("  workbench decoded        received %" G_GUINT64_FORMAT " + missed %" G_GUINT64_FORMAT
          "; LTTng discarded %" G_GUINT64_FORMAT " events  %s\n", decoded, decoded_missed, discarded,
          decoded == received && decoded_missed == missed ? "EXACT (= the monitor's)" : "DIFFERENT");
  printf ("  workbench read (CTF)     %10.0f elements/s  (%.3f s)\n", read_s > 0 ? decoded / read_s : 0, read_s);
  printf ("  babeltrace2 text         %10.0f events/s    (%.3f s, %" G_GUINT64_FORMAT " lines)\n",
          peer_s > 0 ? lines / peer_s : 0, peer_s, lines);
  tw_test_lttng_remove_tree (dir);
  tw_test_lttng_stop (&lt);
  return 0;
}
