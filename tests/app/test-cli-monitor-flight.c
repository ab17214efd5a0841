/* test-cli-monitor-flight.c: `tracewb-cli monitor --flight N --trigger …`, headless
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * This test writes a sensor itself while the CLI monitors it: a burst of more than one
 * store chunk of elements, ticks about every millisecond, a pause longer than the
 * trigger's threshold, ticks again. The trigger (an inter-arrival over the threshold)
 * fires at the first tick after the pause. The sensor's ring holds every element
 * written, read back afterwards: the truth the recording is checked against.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-test-utils.h"

#define BURST        300000           /* more than one chunk (TW_CHUNK_SIZE) */
#define SPAN_NS      800000000ull     /* --flight 800ms */
#define AFTER_NS     300000000ull     /* --after 0.3 */
#define THRESHOLD_NS 400000000ull     /* >400ms */
#define PAUSE_US     (600 * 1000)

typedef struct {
  guint64 seq;
} Tick;

/* A metric automaton measuring from each tick to the next (docs/automata.md: the next
 * tick goes into an `in` state, so that the segment reaches it, then λ to `end`). */
#define PAIR_AUTOMATON \
  "{ \"tracewb_automaton\": 1, \"name\": \"tick to tick\", \"initial\": \"idle\",\n" \
  "  \"states\": [ { \"id\": \"idle\", \"kind\": \"out\", \"x\": 0, \"y\": 0 },\n" \
  "              { \"id\": \"b\", \"kind\": \"begin\", \"x\": 1, \"y\": 0 },\n" \
  "              { \"id\": \"w\", \"kind\": \"in\", \"x\": 2, \"y\": 0 },\n" \
  "              { \"id\": \"d\", \"kind\": \"in\", \"x\": 3, \"y\": 0 },\n" \
  "              { \"id\": \"e\", \"kind\": \"end\", \"x\": 4, \"y\": 0 } ],\n" \
  "  \"transitions\": [ { \"from\": \"idle\", \"to\": \"b\", \"event\": \"flight@tick\" },\n" \
  "                   { \"from\": \"b\", \"to\": \"w\", \"label\": \"lambda\" },\n" \
  "                   { \"from\": \"w\", \"to\": \"d\", \"event\": \"flight@tick\" },\n" \
  "                   { \"from\": \"d\", \"to\": \"e\", \"label\": \"lambda\" },\n" \
  "                   { \"from\": \"e\", \"to\": \"b\", \"label\": \"lambda\" } ] }\n"

/* Ticks about every millisecond for @us microseconds. */
static void
tick_for (TwSensor *sensor,
          guint64  *seq,
          gint64    us)
{
  gint64 until = g_get_monotonic_time () + us;

  while (g_get_monotonic_time () < until)
    {
      Tick *e = tw_sensor_write (sensor);

      e->seq = (*seq)++;
      tw_sensor_commit (sensor, e);
      g_usleep (1000);
    }
}

/* Every element the test wrote, read back from the sensor's file (its ring holds
 * them all): the truth the monitor's store and recordings are checked against. */
static GArray *
read_sensor_times (const char *path)
{
  GArray *times = g_array_new (FALSE, FALSE, sizeof (guint64));
  char message[256];
  TwSensorReader *reader = tw_sensor_reader_open (path, message, sizeof message);
  TwSensorElement element;

  if (reader == NULL)
    g_error ("%s: %s", path, message);
  g_assert_cmpint (tw_sensor_reader_seek_start (reader), ==, 0);
  while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
    {
      g_assert_cmpuint (element.position, ==, times->len);
      if (times->len > 0)
        g_assert_cmpuint (element.timestamp_ns, >=, g_array_index (times, guint64, times->len - 1));
      g_array_append_val (times, element.timestamp_ns);
    }
  tw_sensor_reader_free (reader);
  return times;
}

/* babeltrace2 prints as many events as tracewb reads, when it is installed. */
static void
assert_babeltrace2_count (const char *path,
                          guint64     n_events)
{
  const char *argv[] = { "babeltrace2", path, NULL };
  g_autofree char *out = NULL;
  guint64 lines = 0;

  if ((out = tw_test_run_babeltrace2 (argv, &lines)))
    g_assert_cmpuint (lines, ==, n_events);
}

static JsonObject *
find_flight (JsonParser *parser,
             const char *out)
{
  g_autoptr (GError) error = NULL;
  const char *start = strstr (out, "\n[");
  JsonArray *report;

  g_assert_nonnull (start);
  json_parser_load_from_data (parser, start + 1, -1, &error);
  g_assert_no_error (error);
  report = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (report); i++)
    {
      JsonObject *o = json_array_get_object_element (report, i);

      if (g_strcmp0 (json_object_get_string_member (o, "kind"), "flight") == 0)
        return o;
    }
  g_assert_not_reached ();
}

static guint64
member (JsonObject *o,
        const char *name)
{
  g_assert_true (json_object_has_member (o, name));
  return (guint64) json_object_get_int_member (o, name);
}

/* Runs the monitor on a sensor this test writes: @burst elements at once, then each of
 * @phases (µs, 0 ends): > 0 ticks for so long, < 0 pauses. Returns the monitor's stdout;
 * @n_written: the elements written. */
static char *
run_flight (const char    *dir,
            const char    *records,
            const char    *span,
            const char    *after,
            const char    *trigger,
            guint          burst,
            const gint64  *phases,
            GArray       **times)
{
  g_autofree char *folder = g_build_filename (records, "flights", NULL);
  const char *argv[] = { g_getenv ("TW_CLI"), "monitor", "--sensor-dir", dir, "--duration", "60", "--json",
                         "--flight", span, "--after", after,
                         "--trigger", trigger, "--record", folder, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) monitor = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  g_autofree char *path = NULL;
  TwSensor *sensor;
  guint64 seq = 0;

  g_assert_nonnull (argv[0]);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  monitor = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  /* the monitor makes the folder just before it handles SIGTERM (a slow start, under a
   * sanitizer, would otherwise be killed by it) */
  for (guint i = 0; i < 6000 && !g_file_test (folder, G_FILE_TEST_IS_DIR); i++)
    g_usleep (10 * 1000);
  g_assert_true (g_file_test (folder, G_FILE_TEST_IS_DIR));

  sensor = tw_sensor_new ("flight", "tick", "u64 seq", 1u << 20, 0);
  g_assert_nonnull (sensor);
  for (guint i = 0; i < burst; i++)
    {
      Tick *e = tw_sensor_write (sensor);

      e->seq = seq++;
      tw_sensor_commit (sensor, e);
    }
  for (guint i = 0; phases[i]; i++)
    {
      if (phases[i] > 0)
        tick_for (sensor, &seq, phases[i]);
      else
        g_usleep ((gulong) -phases[i]);
    }
  path = g_strdup (tw_sensor_get_path (sensor));
  tw_sensor_free (sensor);
  /* the monitor drains everything on SIGTERM before it reports */
  g_subprocess_send_signal (monitor, SIGTERM);
  g_subprocess_communicate_utf8 (monitor, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("monitor: %s", err);
  if (g_subprocess_get_if_signaled (monitor))
    g_error ("the monitor was killed by signal %d: %s", g_subprocess_get_term_sig (monitor), err);
  g_assert_true (g_subprocess_get_if_exited (monitor));
  g_assert_cmpint (g_subprocess_get_exit_status (monitor), ==, 0);
  *times = read_sensor_times (path);
  g_assert_cmpuint ((*times)->len, ==, seq);
  return out;
}

/* The trigger fires at the first tick after the pause: the recording holds exactly the
 * rows from 800 ms before it to 300 ms after; the burst, older than 800 ms before the
 * last row, is forgotten and its chunk's memory given back. */
static void
test_trigger_window (gconstpointer data)
{
  gboolean automaton = GPOINTER_TO_INT (data);
  char *dir = tw_test_use_temp_sensor_dir ();
  g_autofree char *records = g_dir_make_tmp ("tw-flight-XXXXXX", NULL);
  const gint64 phases[] = { 1200 * 1000, -PAUSE_US, 700 * 1000, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) times = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (TwTrace) recording = tw_trace_new ();
  g_autofree char *out = NULL;
  g_autofree char *line = NULL;
  JsonObject *flight, *saved;
  JsonArray *list;
  guint64 trigger = 0, last, first_in = G_MAXUINT64, last_in = 0, n_in = 0, n_kept = 0, n_old = 0;

  g_autofree char *automaton_path = g_build_filename (records, "pair.json", NULL);
  g_autofree char *spec = NULL;

  /* the same measurement as an automaton: every tick ends one and begins the next */
  g_assert_true (g_file_set_contents (automaton_path, PAIR_AUTOMATON, -1, NULL));
  spec = automaton ? g_strdup_printf ("automaton:%s>400ms", automaton_path)
                   : g_strdup ("metric:inter-arrival:flight@tick>400ms");
  out = run_flight (dir, records, "800ms", "0.3", spec, BURST, phases, &times);

  /* the truth: the trigger is the first gap over the threshold */
  for (guint i = 1; i < times->len && trigger == 0; i++)
    if (g_array_index (times, guint64, i) - g_array_index (times, guint64, i - 1) > THRESHOLD_NS)
      trigger = g_array_index (times, guint64, i);
  g_assert_cmpuint (trigger, >, 0);
  last = g_array_index (times, guint64, times->len - 1);
  for (guint i = 0; i < times->len; i++)
    {
      guint64 t = g_array_index (times, guint64, i);

      if (t >= trigger - SPAN_NS && t <= trigger + AFTER_NS)
        {
          first_in = MIN (first_in, t);
          last_in = MAX (last_in, t);
          n_in++;
        }
      n_kept += t >= last - SPAN_NS;
      n_old += t < last - SPAN_NS;
    }
  /* the window reaches back into the ticks before the pause and on after it */
  g_assert_cmpuint (first_in, <, trigger - PAUSE_US * 1000ull);
  g_assert_cmpuint (last_in, >, trigger);

  flight = find_flight (parser, out);
  g_assert_cmpuint (member (flight, "events"), ==, times->len);
  g_assert_cmpuint (member (flight, "recordings"), ==, 1);
  /* rows older than N before the last one are not kept; the burst's chunk went back */
  g_assert_cmpuint (member (flight, "retained_events"), ==, n_kept);
  g_assert_cmpuint (member (flight, "retained_first_ns"), >=, last - SPAN_NS);
  g_assert_cmpuint (member (flight, "released_events"), >=, 1u << 18);
  g_assert_cmpuint (member (flight, "released_events"), <=, n_old);
  g_assert_cmpuint (member (flight, "released_events") % (1u << 18), ==, 0);
  /* the burst's whole chunk alone takes more (6 MiB of columns) */
  g_assert_cmpuint (member (flight, "store_bytes"), <, (guint64) TW_CHUNK_SIZE * 24);
  g_assert_cmpuint (member (flight, "store_bytes"), <=, member (flight, "peak_store_bytes"));

  list = json_object_get_array_member (flight, "saved");
  g_assert_cmpuint (json_array_get_length (list), ==, 1);
  saved = json_array_get_object_element (list, 0);
  g_assert_cmpuint (member (saved, "index"), ==, 1);
  g_assert_cmpuint (member (saved, "trigger_ns"), ==, trigger);
  g_assert_cmpuint (member (saved, "begin_ns"), ==, trigger - SPAN_NS);
  g_assert_cmpuint (member (saved, "end_ns"), ==, trigger + AFTER_NS);
  g_assert_cmpuint (member (saved, "events"), ==, n_in);
  g_assert_cmpuint (member (saved, "first_ns"), ==, first_in);
  g_assert_cmpuint (member (saved, "last_ns"), ==, last_in);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (saved, "path"), records));

  /* listed on stdout as it was saved */
  line = g_strdup_printf ("flight recording 1: %s  %" G_GUINT64_FORMAT " events  trigger %s at %" G_GUINT64_FORMAT
                          " ns (1 merged)", json_object_get_string_member (saved, "path"), n_in, spec, trigger);
  g_assert_nonnull (strstr (out, line));

  /* the recording holds exactly the window's rows */
  g_assert_true (tw_ctf_reader_info.read (json_object_get_string_member (saved, "path"), recording, NULL, NULL,
                                          NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (recording), ==, n_in);
  g_assert_cmpuint (tw_trace_get_first_time (recording), ==, first_in);
  g_assert_cmpuint (tw_trace_get_last_time (recording), ==, last_in);
  assert_babeltrace2_count (json_object_get_string_member (saved, "path"), n_in);

  tw_test_remove_tree (records);
  tw_test_remove_sensor_dir (dir);
}

/* A trigger while a window is open extends it: one recording from 800 ms before the
 * first trigger to 1 s after the second. */
static void
test_merge (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  g_autofree char *records = g_dir_make_tmp ("tw-flight-XXXXXX", NULL);
  const gint64 phases[] = { 300 * 1000, -500 * 1000, 100 * 1000, -500 * 1000, 1300 * 1000, 0 };
  g_autoptr (GArray) times = NULL;
  g_autoptr (GArray) triggers = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *flight, *saved;
  guint64 t1, t2, first_in = G_MAXUINT64, last_in = 0, n_in = 0;

  out = run_flight (dir, records, "800ms", "1", "metric:inter-arrival:flight@tick>400ms", 0, phases, &times);
  for (guint i = 1; i < times->len; i++)
    if (g_array_index (times, guint64, i) - g_array_index (times, guint64, i - 1) > THRESHOLD_NS)
      g_array_append_val (triggers, g_array_index (times, guint64, i));
  g_assert_cmpuint (triggers->len, ==, 2);
  t1 = g_array_index (triggers, guint64, 0);
  t2 = g_array_index (triggers, guint64, 1);
  for (guint i = 0; i < times->len; i++)
    {
      guint64 t = g_array_index (times, guint64, i);

      if (t >= t1 - SPAN_NS && t <= t2 + 1000000000ull)
        {
          first_in = MIN (first_in, t);
          last_in = MAX (last_in, t);
          n_in++;
        }
    }

  flight = find_flight (parser, out);
  g_assert_cmpuint (member (flight, "events"), ==, times->len);
  g_assert_cmpuint (member (flight, "recordings"), ==, 1);
  saved = json_array_get_object_element (json_object_get_array_member (flight, "saved"), 0);
  g_assert_cmpuint (member (saved, "triggers"), ==, 2);
  g_assert_cmpuint (member (saved, "trigger_ns"), ==, t1);
  g_assert_cmpuint (member (saved, "begin_ns"), ==, t1 - SPAN_NS);
  g_assert_cmpuint (member (saved, "end_ns"), ==, t2 + 1000000000ull);
  g_assert_cmpuint (member (saved, "events"), ==, n_in);
  g_assert_cmpuint (member (saved, "first_ns"), ==, first_in);
  g_assert_cmpuint (member (saved, "last_ns"), ==, last_in);
  g_assert_cmpuint (member (json_array_get_object_element (json_object_get_array_member (flight, "triggers"), 0),
                            "fired"), ==, 2);

  tw_test_remove_tree (records);
  tw_test_remove_sensor_dir (dir);
}

/* By size: whole chunks go from the oldest while the rest is over 8 MB (a full chunk of
 * these elements is 8.4 MB: 24 bytes of columns and 8 of payload a row), so the
 * window starts at the third chunk's first row. */
static void
test_size (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  g_autofree char *records = g_dir_make_tmp ("tw-flight-XXXXXX", NULL);
  const gint64 phases[] = { 200 * 1000, -PAUSE_US, 500 * 1000, 0 };
  const guint64 kept = 2u << 18;
  g_autoptr (GArray) times = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *flight, *saved;
  guint64 trigger = 0, begin, n_in = 0;

  out = run_flight (dir, records, "8MB", "0.3", "metric:inter-arrival:flight@tick>400ms", 2 * BURST, phases, &times);
  for (guint i = 1; i < times->len && trigger == 0; i++)
    if (g_array_index (times, guint64, i) - g_array_index (times, guint64, i - 1) > THRESHOLD_NS)
      trigger = g_array_index (times, guint64, i);
  g_assert_cmpuint (trigger, >, 0);
  begin = g_array_index (times, guint64, kept);
  for (guint i = 0; i < times->len; i++)
    n_in += g_array_index (times, guint64, i) >= begin && g_array_index (times, guint64, i) <= trigger + AFTER_NS;

  flight = find_flight (parser, out);
  g_assert_cmpuint (member (flight, "events"), ==, times->len);
  g_assert_cmpuint (member (flight, "span_bytes"), ==, 8000000);
  g_assert_cmpuint (member (flight, "released_events"), ==, kept);
  g_assert_cmpuint (member (flight, "retained_events"), ==, times->len - kept);
  g_assert_cmpuint (member (flight, "recordings"), ==, 1);
  saved = json_array_get_object_element (json_object_get_array_member (flight, "saved"), 0);
  g_assert_cmpuint (member (saved, "trigger_ns"), ==, trigger);
  g_assert_cmpuint (member (saved, "begin_ns"), ==, begin);
  g_assert_cmpuint (member (saved, "first_ns"), ==, begin);
  g_assert_cmpuint (member (saved, "events"), ==, n_in);

  tw_test_remove_tree (records);
  tw_test_remove_sensor_dir (dir);
}

static void
test_bad_options (void)
{
  const char *cli = g_getenv ("TW_CLI");
  const struct { const char *args[8]; const char *says; } cases[] = {
    { { "--flight", "10s", "--record", "/nonexistent/x", NULL }, "needs at least one --trigger" },
    { { "--flight", "10s", "--trigger", "metric:run-slice", NULL }, "--record DIR" },
    { { "--flight", "ten", "--trigger", "metric:run-slice", "--record", "/nonexistent/x", NULL },
      "expected the time to keep" },
    { { "--flight", "10s", "--trigger", "metric:run-slice>5", "--record", "/nonexistent/x", NULL },
      "is not a time with its unit" },
    { { "--flight", "10s", "--trigger", "run-slice", "--record", "/nonexistent/x", NULL },
      "expected metric:NAME" },
    { { "--trigger", "metric:run-slice", NULL }, "--trigger needs --flight" },
  };
  g_autofree char *sensors = tw_test_use_temp_sensor_dir ();

  g_assert_cmpint (g_mkdir_with_parents (sensors, 0700), ==, 0);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr (GPtrArray) argv = g_ptr_array_new ();
      g_autoptr (GError) error = NULL;
      g_autofree char *err = NULL;
      int status = 0;

      g_ptr_array_add (argv, (gpointer) cli);
      g_ptr_array_add (argv, (gpointer) "monitor");
      g_ptr_array_add (argv, (gpointer) "--duration");
      g_ptr_array_add (argv, (gpointer) "0.1");
      for (guint a = 0; cases[c].args[a]; a++)
        g_ptr_array_add (argv, (gpointer) cases[c].args[a]);
      g_ptr_array_add (argv, NULL);
      g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                    &status, &error);
      g_assert_no_error (error);
      g_assert_true (WIFEXITED (status));
      g_assert_cmpint (WEXITSTATUS (status), !=, 0);
      if (strstr (err, cases[c].says) == NULL)
        g_error ("case %u: “%s” does not say “%s”", c, err, cases[c].says);
    }
  g_assert_false (g_file_test ("/nonexistent/x", G_FILE_TEST_EXISTS));
  tw_test_remove_sensor_dir (g_steal_pointer (&sensors));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_data_func ("/tw/cli/monitor/flight/trigger-window", GINT_TO_POINTER (FALSE), test_trigger_window);
  g_test_add_data_func ("/tw/cli/monitor/flight/automaton-trigger", GINT_TO_POINTER (TRUE), test_trigger_window);
  g_test_add_func ("/tw/cli/monitor/flight/merge", test_merge);
  g_test_add_func ("/tw/cli/monitor/flight/size", test_size);
  g_test_add_func ("/tw/cli/monitor/flight/bad-options", test_bad_options);
  return g_test_run ();
}
