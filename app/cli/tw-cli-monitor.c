/* tw-cli-monitor.c: `tracewb-cli monitor`, attach live to sensors (and the kernel), report counts
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The monitor's element hook hands over each element with its stream position, and each
 * sensor's declared stream is checked as it arrives (app/tw-stream-check.h, shared with
 * the live window).
 */
#include "config.h"

#include <glib-unix.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-cli.h"
#include "tw-cli-deadline.h"
#include "tw-cli-lttng.h"
#include "tw-cli-monitor-eval.h"
#include "tw-cli-monitor-flight.h"
#include "tw-cli-ust.h"
#include "tw-stream-check.h"

typedef struct {
  TwMonitor  *monitor;
  GMainLoop  *loop;
  guint64     next_event;       /* rows below this were checked (and dumped) */
  GArray     *checks;           /* TwStreamCheck per source index */
  GHashTable *remote_checks;    /* LTTng source → TwStreamCheck per its target's sensor */
  GHashTable *dumped_types;     /* types whose CSV header was printed */
  gboolean    dump;
  gint64      period_ns;
  /* --lttng-live: without --reconnect a fault ends the command (exit 1) */
  gboolean    lttng;
  GPtrArray  *lttng_sources;    /* TwLiveSource*, the monitor's: their targets' sensors */
  gboolean    reconnect;
  int         status;
  /* --lttng: the sensors' elements out as LTTng-UST events */
  TwCliUst   *ust;
  /* --metric/--automaton/--plugin: evaluated at each poll */
  TwCliMonitorEval *eval;
  /* --flight: the last rows only, a recording per trigger */
  TwCliFlight *flight;
} Session;

static void
stream_check_clear (gpointer data)
{
  tw_stream_check_clear (data);
}

static TwStreamCheck *
get_check (Session *session,
           guint    source)
{
  if (source >= session->checks->len)
    g_array_set_size (session->checks, source + 1);
  return &g_array_index (session->checks, TwStreamCheck, source);
}

static char *
csv_quote (const char *text)
{
  GString *out;

  if (strpbrk (text, ",\"\n\r") == NULL)
    return g_strdup (text);
  out = g_string_new ("\"");
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static void
dump_event (Session           *session,
            TwTrace           *trace,
            const TwEventType *type,
            const TwEvent     *event)
{
  g_autoptr (GString) line = g_string_new (NULL);
  g_autofree char *name = csv_quote (type->name);

  if (!g_hash_table_contains (session->dumped_types, type->name))
    {
      g_hash_table_add (session->dumped_types, (gpointer) type->name);
      g_string_append (line, "sensor,time_ns");
      for (guint f = 0; f < type->n_fields; f++)
        {
          g_autofree char *field = csv_quote (type->fields[f].name);
          g_string_append_printf (line, ",%s", field);
        }
      printf ("# %s\n", line->str);
      g_string_truncate (line, 0);
    }

  g_string_append_printf (line, "%s,%" G_GUINT64_FORMAT, name, event->time);
  for (guint f = 0; f < type->n_fields; f++)
    {
      TwValue value;

      g_string_append_c (line, ',');
      if (!tw_event_type_get_field (type, event->payload, f, &value))
        continue;
      switch (value.type)
        {
        case TW_FIELD_U8:
        case TW_FIELD_U16:
        case TW_FIELD_U32:
        case TW_FIELD_U64:
          g_string_append_printf (line, "%" G_GUINT64_FORMAT, value.u);
          break;
        case TW_FIELD_I32:
        case TW_FIELD_I64:
          g_string_append_printf (line, "%" G_GINT64_FORMAT, value.i);
          break;
        case TW_FIELD_F64:
          {
            char buffer[G_ASCII_DTOSTR_BUF_SIZE];
            g_string_append (line, g_ascii_dtostr (buffer, sizeof buffer, value.f));
            break;
          }
        case TW_FIELD_STRING:
        default:
          {
            g_autofree char *text = csv_quote (tw_trace_get_string (trace, value.str));
            g_string_append (line, text);
            break;
          }
        }
    }
  printf ("%s\n", line->str);
}

static void
on_element (guint    source,
            guint64  position,
            guint64  time_ns,
            gpointer data)
{
  Session *session = data;
  TwStreamCheck *check = get_check (session, source);

  if (!check->initialized)
    {
      TwMonitorSourceInfo info;
      TwStreamDeclaration declared;

      if (!tw_monitor_get_source_info (session->monitor, source, &info))
        return;
      declared = tw_stream_declaration_of_source (&info);
      tw_stream_check_init (check, &declared, session->period_ns);
    }
  tw_stream_check_add (check, position, time_ns);
}

/* The check of sensor @index of the LTTng source @source (its target's). */
static TwStreamCheck *
get_remote_check (Session      *session,
                  TwLiveSource *source,
                  guint         index)
{
  GArray *checks = g_hash_table_lookup (session->remote_checks, source);

  if (checks == NULL)
    {
      checks = g_array_new (FALSE, TRUE, sizeof (TwStreamCheck));
      g_array_set_clear_func (checks, stream_check_clear);
      g_hash_table_insert (session->remote_checks, source, checks);
    }
  if (index >= checks->len)
    g_array_set_size (checks, index + 1);
  return &g_array_index (checks, TwStreamCheck, index);
}

/* The check of a target's sensor, its declaration read when first needed. */
static TwStreamCheck *
get_remote_check_ready (Session      *session,
                        TwLiveSource *source,
                        guint         index)
{
  TwStreamCheck *check = get_remote_check (session, source, index);
  TwLttngRemoteSensor rs;

  if (!check->initialized && tw_live_lttng_get_sensor (source, index, &rs))
    {
      TwStreamDeclaration declared = tw_stream_declaration_of_target (&rs);

      tw_stream_check_init (check, &declared, session->period_ns);
    }
  return check;
}

/* An element of a target's sensor that declared a stream: checked as a local one. */
static void
on_arrival (TwLiveSource *source,
            guint         index,
            guint64       position,
            guint64       time_ns,
            gpointer      data)
{
  tw_stream_check_add (get_remote_check_ready (data, source, index), position, time_ns);
}

/* Dumps the rows the last poll appended. */
static void
walk_new_rows (Session *session)
{
  TwTrace *trace = tw_monitor_get_trace (session->monitor);
  guint64 n = tw_trace_get_n_events (trace);

  for (guint64 i = session->next_event; i < n; i++)
    {
      TwEvent event;
      const TwEventType *type;

      tw_trace_get_event (trace, i, &event);
      type = tw_trace_get_event_type (trace, event.type);
      if (type->kind != TW_EVENT_KIND_SENSOR)
        continue;
      if (session->dump)
        dump_event (session, trace, type, &event);
    }
  session->next_event = n;
  if (session->dump)
    fflush (stdout);
}

/* An LTTng live source lost its relay or session: one line, and the end unless
 * --reconnect (scripts want to know; a watcher wants it to carry on). */
static void
check_connections (Session *session)
{
  guint n = tw_monitor_get_n_sources (session->monitor);

  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (session->monitor, i, &info);
      if (info.connection != TW_LIVE_CONNECTION_LOST && info.connection != TW_LIVE_CONNECTION_ENDED)
        continue;
      if (session->reconnect)
        continue;
      g_printerr ("tracewb-cli monitor: %s: %s: %s\n", info.name,
                  info.connection == TW_LIVE_CONNECTION_ENDED ? "session ended" : "connection lost",
                  info.connection_error ? info.connection_error : "?");
      session->status = 1;
      g_main_loop_quit (session->loop);
      return;
    }
}

/* One period's work: on the main loop, or in the --deadline thread (then only there). */
static void
poll_once (gpointer data)
{
  Session *session = data;
  g_autoptr (GError) error = NULL;

  tw_monitor_poll (session->monitor);
  if (session->ust)
    tw_cli_ust_poll (session->ust, FALSE);
  walk_new_rows (session);
  if (session->eval && session->status == 0 && !tw_cli_monitor_eval_advance (session->eval, FALSE, &error))
    {
      g_printerr ("tracewb-cli monitor: %s\n", error->message);
      session->status = 1;
      g_main_loop_quit (session->loop);
    }
  if (session->flight && session->status == 0 && !tw_cli_flight_advance (session->flight, FALSE, &error))
    {
      g_printerr ("tracewb-cli monitor: --flight: %s\n", error->message);
      session->status = 1;
      g_main_loop_quit (session->loop);
    }
  if (session->lttng && session->status == 0)
    check_connections (session);
}

static gboolean
on_poll (gpointer data)
{
  poll_once (data);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_stop (gpointer data)
{
  Session *session = data;

  g_main_loop_quit (session->loop);
  return G_SOURCE_CONTINUE;
}

static const char *
state_name (TwMonitorSourceState state)
{
  switch (state)
    {
    case TW_MONITOR_SOURCE_ATTACHED: return "attached";
    case TW_MONITOR_SOURCE_GONE:     return "gone";
    case TW_MONITOR_SOURCE_FAILED:
    default:                         return "failed";
    }
}

static void
add_uint (JsonBuilder *builder,
          const char  *name,
          guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) value);
}

static void
add_string (JsonBuilder *builder,
            const char  *name,
            const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* stream_ok: null when the sensor declared no stream (nothing to check). */
static void
add_stream_check (JsonBuilder       *builder,
                  const TwStreamCheck *check)
{
  json_builder_set_member_name (builder, "stream_ok");
  if (check->valid)
    json_builder_add_boolean_value (builder, check->violations == 0);
  else
    json_builder_add_null_value (builder);
  add_uint (builder, "stream_violations", check->violations);
  add_uint (builder, "stream_restarts", check->restarts);
  add_string (builder, "stream_error",
              check->error ? check->error
              : check->violations ? tw_jcs_arrival_to_string (check->first_violation) : NULL);
}

static void
add_remote_stream_check (TwLiveSource *source,
                         guint         index,
                         JsonBuilder  *builder,
                         gpointer      data)
{
  add_stream_check (builder, get_remote_check_ready (data, source, index));
}

static void
print_json (Session *session)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  guint n = tw_monitor_get_n_sources (session->monitor);

  json_builder_begin_array (builder);
  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;
      TwStreamCheck *check = get_check (session, i);

      tw_monitor_get_source_info (session->monitor, i, &info);
      json_builder_begin_object (builder);
      add_string (builder, "kind", info.kind);
      add_string (builder, "task", info.task);
      add_string (builder, "sensor", info.sensor);
      add_string (builder, "name", info.name);
      add_string (builder, "path", info.path);
      add_string (builder, "schema", info.schema);
      add_string (builder, "state", state_name (info.state));
      add_string (builder, "error", info.error);
      add_uint (builder, "received", info.counts.received);
      add_uint (builder, "missed", info.counts.missed);
      add_uint (builder, "inconsistent", info.counts.inconsistent);
      add_uint (builder, "nonmonotonic", info.counts.nonmonotonic);
      add_uint (builder, "late", info.counts.late);
      if (!check->initialized)
        {
          TwStreamDeclaration declared = tw_stream_declaration_of_source (&info);

          tw_stream_check_init (check, &declared, session->period_ns);
        }
      add_stream_check (builder, check);
      if (info.connection != TW_LIVE_CONNECTION_LOCAL)
        {
          add_string (builder, "connection", tw_cli_lttng_connection_name (info.connection));
          add_string (builder, "connection_error", info.connection_error);
          add_uint (builder, "reconnects", info.n_reconnects);
          tw_cli_lttng_report (tw_monitor_get_trace (session->monitor), info.name, builder);
        }
      json_builder_end_object (builder);
    }
  if (session->lttng_sources)
    tw_cli_lttng_report_sensors (session->lttng_sources, builder, add_remote_stream_check, session);
  if (session->eval)
    tw_cli_monitor_eval_report (session->eval, builder);
  if (session->flight)
    tw_cli_flight_report (session->flight, builder);
  json_builder_end_array (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  printf ("%s\n", text);
}

static void
print_text (Session *session)
{
  guint n = tw_monitor_get_n_sources (session->monitor);

  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (session->monitor, i, &info);
      g_printerr ("%-40s %-8s received %" G_GUINT64_FORMAT "  missed %" G_GUINT64_FORMAT
                  "  inconsistent %" G_GUINT64_FORMAT "  nonmonotonic %" G_GUINT64_FORMAT "%s%s\n",
                  info.name, state_name (info.state), info.counts.received, info.counts.missed,
                  info.counts.inconsistent, info.counts.nonmonotonic,
                  info.error ? "  " : "", info.error ? info.error : "");
      if (info.connection != TW_LIVE_CONNECTION_LOCAL)
        {
          g_printerr ("  %s, %u reconnect(s)%s%s\n", tw_cli_lttng_connection_name (info.connection),
                      info.n_reconnects, info.connection_error ? "; last fault: " : "",
                      info.connection_error ? info.connection_error : "");
          tw_cli_lttng_report (tw_monitor_get_trace (session->monitor), info.name, NULL);
        }
    }
  if (session->lttng_sources)
    tw_cli_lttng_report_sensors (session->lttng_sources, NULL, add_remote_stream_check, session);
  if (session->eval)
    tw_cli_monitor_eval_report (session->eval, NULL);
  if (session->flight)
    tw_cli_flight_report (session->flight, NULL);
}

static gboolean
write_recording (GOutputStream  *stream,
                 gpointer        trace,
                 GCancellable   *cancellable,
                 GError        **error)
{
  return tw_csv_writer_write (trace, stream, cancellable, error);
}

/* --record PATH at the end: a CTF trace folder, or CSV events for a `.csv` name; either
 * appears complete or not at all (tw_atomic_file_write, tw_ctf_writer_write_events). */
static gboolean
record (TwTrace     *trace,
        const char  *path,
        GError     **error)
{
  if (!tw_trace_seal (trace, NULL, error))
    return FALSE;
  if (tw_ctf_writer_path_is_csv (path))
    return tw_atomic_file_write (path, write_recording, trace, NULL, error);
  return tw_ctf_writer_write_events (trace, tw_trace_get_n_events (trace), path, NULL, NULL, NULL, error);
}

/* --record DIR --keep-recording: CTF chunks appended while the session runs, in a
 * thread of their own so that polling never waits for the disk. */
typedef struct {
  TwTrace      *trace;
  char         *path;
  GCancellable *stop;
  GThread      *thread;
  GError       *error;
} KeepRecording;

static gpointer
keep_recording_thread (gpointer data)
{
  KeepRecording *keep = data;

  tw_ctf_writer_keep_recording (keep->trace, keep->path, TW_CTF_KEEP_CHUNK_MS, keep->stop, NULL, NULL,
                                &keep->error);
  return NULL;
}

static KeepRecording *
keep_recording_start (TwTrace    *trace,
                      const char *path)
{
  KeepRecording *keep = g_new0 (KeepRecording, 1);

  keep->trace = g_object_ref (trace);
  keep->path = g_strdup (path);
  keep->stop = g_cancellable_new ();
  keep->thread = g_thread_new ("keep-recording", keep_recording_thread, keep);
  return keep;
}

/* After the monitor stopped: the last chunk holds every event. */
static gboolean
keep_recording_finish (KeepRecording  *keep,
                       GError        **error)
{
  gboolean ok;

  g_cancellable_cancel (keep->stop);
  g_thread_join (keep->thread);
  ok = keep->error == NULL;
  if (!ok)
    g_propagate_error (error, keep->error);
  g_object_unref (keep->stop);
  g_object_unref (keep->trace);
  g_free (keep->path);
  g_free (keep);
  return ok;
}

int
tw_cli_monitor (int    argc,
                char **argv)
{
  g_autoptr (GOptionContext) context = g_option_context_new ("— attach live to sensors and report what arrives");
  g_autofree char *sensor_dir = NULL;
  g_autofree char *record_path = NULL;
  g_auto (GStrv) lttng_urls = NULL;
  const char *lttng_url = NULL;
  g_autoptr (TwMonitor) monitor = NULL;
  g_autoptr (GMainLoop) loop = NULL;
  g_autoptr (GArray) checks = NULL;
  g_autoptr (GHashTable) remote_checks = NULL;
  g_autoptr (GHashTable) dumped = NULL;
  gboolean from_start = FALSE, json = FALSE, dump = FALSE, kernel = FALSE, gtop = FALSE;
  gboolean reconnect = FALSE, keep_recording = FALSE, lttng_emit = FALSE, deadline = FALSE;
  g_autofree char *metric = NULL;
  g_autofree char *automaton_path = NULL;
  g_autofree char *plugin_path = NULL;
  g_autoptr (TwCliUst) ust = NULL;
  g_autoptr (TwCliMonitorEval) eval = NULL;
  g_autoptr (GPtrArray) lttng_sources = NULL;
  g_autofree char *flight_span = NULL;
  g_auto (GStrv) triggers = NULL;
  g_autoptr (TwCliFlight) flight = NULL;
  guint64 span_ns = 0, span_bytes = 0;
  double after_s = 1;
  TwCliDeadlineRunner *runner = NULL;
  KeepRecording *keep = NULL;
  double duration = 0, period_ms = 10, window_ms = 5;
  GError *error = NULL;
  Session session = { 0 };
  guint timers[4] = { 0 };
  const GOptionEntry entries[] = {
    { "sensor-dir", 0, 0, G_OPTION_ARG_FILENAME, &sensor_dir,
      "Sensor directory (default: $TRACEWB_SENSOR_DIR, else /dev/shm/tracewb-UID)", "DIR" },
    { "from-start", 0, 0, G_OPTION_ARG_NONE, &from_start,
      "Read the sensors present at start from stream position 0 (received + missed = committed)", NULL },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, "Stop after S seconds (default: at SIGINT/SIGTERM)", "S" },
    { "period", 0, 0, G_OPTION_ARG_DOUBLE, &period_ms, "Poll every MS milliseconds (default 10)", "MS" },
    { "window", 0, 0, G_OPTION_ARG_DOUBLE, &window_ms, "Reorder window of the merge, ms (default 5)", "MS" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "Print one JSON object per source at the end", NULL },
    { "dump", 0, 0, G_OPTION_ARG_NONE, &dump, "Print every received sensor element as CSV, decoded by its schema", NULL },
    { "kernel", 0, 0, G_OPTION_ARG_NONE, &kernel, "Also read the kernel trace buffer live (root, tracefs)", NULL },
    { "gtop", 0, 0, G_OPTION_ARG_NONE, &gtop, "Also sample CPU load, memory and process CPU time (libgtop)", NULL },
    { "record", 0, 0, G_OPTION_ARG_FILENAME, &record_path,
      "Save the merged session at the end as a CTF trace folder (babeltrace2 reads it), or as CSV events when PATH ends in .csv", "PATH" },
    { "keep-recording", 0, 0, G_OPTION_ARG_NONE, &keep_recording,
      "--record DIR: append to the CTF folder while the session runs (a chunk trace a second) instead of writing it at the end", NULL },
    { "lttng-live", 0, 0, G_OPTION_ARG_STRING_ARRAY, &lttng_urls,
      "Read an LTTng live session through its relay (net://HOST[:PORT]/host/TARGET/SESSION); "
      "repeat for several targets merged in time order, tasks and CPUs named by host; "
      "net://HOST[:PORT] alone lists the relay's sessions", "URL" },
    { "reconnect", 0, 0, G_OPTION_ARG_NONE, &reconnect,
      "--lttng-live: when the relay goes away or the session ends, keep trying (default: say so and exit 1)", NULL },
    { "lttng", 0, 0, G_OPTION_ARG_NONE, &lttng_emit,
      "Emit every sensor element (and measurement) as an LTTng-UST event (provider tracewb) "
      "for a session of this machine's lttng-sessiond to carry to a workbench", NULL },
    { "metric", 0, 0, G_OPTION_ARG_STRING, &metric,
      "Evaluate a system metric live next to the sensors (see `tracewb-cli metrics`)", "NAME[:PARAM]" },
    { "automaton", 0, 0, G_OPTION_ARG_FILENAME, &automaton_path,
      "Evaluate a metric automaton live next to the sensors (docs/automata.md)", "A.json" },
    { "plugin", 0, 0, G_OPTION_ARG_FILENAME, &plugin_path,
      "Evaluate an evaluation module (an exported automaton, a plugin) live next to the sensors", "M.so" },
    { "flight", 0, 0, G_OPTION_ARG_STRING, &flight_span,
      "Flight recorder: keep only the last N seconds (30, 30s, 500ms) or N MB (64MB) of rows; "
      "each --trigger saves the window around it as a CTF recording under --record DIR", "N" },
    { "trigger", 0, 0, G_OPTION_ARG_STRING_ARRAY, &triggers,
      "--flight: save a recording when a measurement comes (over TIME when given): "
      "metric:NAME[:PARAM][>TIME], automaton:FILE.json[>TIME] or plugin:M.so[>TIME]; repeatable", "TRIGGER" },
    { "after", 0, 0, G_OPTION_ARG_DOUBLE, &after_s,
      "--flight: how long a recording goes on after its last trigger, seconds (default 1)", "S" },
    { "deadline", 0, 0, G_OPTION_ARG_NONE, &deadline,
      "Run the monitor's polls and evaluation in a SCHED_DEADLINE thread sized by the sensors' "
      "jitter-constrained streams and the per-element cost measured at start (root)", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc > 1)
    {
      g_printerr ("tracewb-cli monitor: unexpected argument “%s”\n", argv[1]);
      return 2;
    }
  if (!(duration >= 0 && duration < 1e9) || !(period_ms >= 0.1 && period_ms <= 60000)
      || !(window_ms >= 0 && window_ms <= 60000))
    {
      g_printerr ("tracewb-cli monitor: --duration must be ≥ 0, --period within 0.1..60000 ms, "
                  "--window within 0..60000 ms\n");
      return 2;
    }

  if ((metric != NULL) + (automaton_path != NULL) + (plugin_path != NULL) > 1)
    {
      g_printerr ("tracewb-cli monitor: choose one of --metric, --automaton, --plugin\n");
      return 2;
    }

  if (flight_span && !tw_cli_flight_parse_span (flight_span, &span_ns, &span_bytes, &error))
    {
      g_printerr ("tracewb-cli monitor: %s\n", error->message);
      return 2;
    }
  if ((flight_span != NULL) != (triggers != NULL) || !(after_s >= 0 && after_s < 1e6)
      || (flight_span && (record_path == NULL || tw_ctf_writer_path_is_csv (record_path) || keep_recording)))
    {
      g_printerr ("tracewb-cli monitor: --flight N needs at least one --trigger and --record DIR (the folder of "
                  "its recordings; not --keep-recording), --trigger needs --flight, --after is ≥ 0 s\n");
      return 2;
    }

  if (keep_recording && (record_path == NULL || tw_ctf_writer_path_is_csv (record_path)))
    {
      g_printerr ("tracewb-cli monitor: --keep-recording needs --record DIR (a CTF trace folder)\n");
      return 2;
    }
  if (record_path && !tw_ctf_writer_path_is_csv (record_path) && !tw_ctf_writer_is_available (&error))
    return tw_cli_fail ("monitor --record", error);

  lttng_url = lttng_urls ? lttng_urls[0] : NULL;
  for (guint i = 0; lttng_urls && lttng_urls[i]; i++)
    {
      g_autofree char *session_name = NULL;

      if (!tw_live_lttng_parse_url (lttng_urls[i], NULL, NULL, &session_name, &error))
        return tw_cli_fail ("monitor --lttng-live", error);
      if (session_name == NULL && lttng_urls[1] == NULL)
        return tw_cli_lttng_list (lttng_urls[i], json);
      if (session_name == NULL)
        {
          g_printerr ("tracewb-cli monitor: %s names no session: list a relay's sessions "
                      "with one --lttng-live alone\n", lttng_urls[i]);
          return 2;
        }
    }

  checks = g_array_new (FALSE, TRUE, sizeof (TwStreamCheck));
  g_array_set_clear_func (checks, stream_check_clear);
  session.checks = checks;
  remote_checks = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  session.remote_checks = remote_checks;
  session.period_ns = llround (period_ms * 1e6);
  monitor = tw_monitor_new (sensor_dir);
  session.monitor = monitor;
  tw_monitor_set_from_start (monitor, from_start);
  tw_monitor_set_element_func (monitor, on_element, &session);
  tw_monitor_set_reorder_window (monitor, (guint64) llround (window_ms * 1e6));
  /* before the first scan: the sensors attached by it get the emitter's hook */
  if (lttng_emit)
    {
      if (!(ust = tw_cli_ust_new (monitor, &error)))
        return tw_cli_fail ("monitor --lttng", error);
      session.ust = ust;
    }
  /* an LTTng session alone does not read the local sensors unless asked to */
  if (lttng_url && sensor_dir == NULL)
    tw_monitor_set_watch_sensors (monitor, FALSE);
  else if (!tw_monitor_scan (monitor, &error))
    return tw_cli_fail ("monitor", error);
  if (lttng_url)
    {
      g_autoptr (GPtrArray) sources = g_ptr_array_new ();

      for (guint i = 0; lttng_urls[i]; i++)
        {
          TwLiveSource *source = tw_live_lttng_new (lttng_urls[i], &error);

          if (source == NULL)
            {
              for (guint k = 0; k < sources->len; k++)
                ((TwLiveSource *) sources->pdata[k])->klass->free (sources->pdata[k]);
              return tw_cli_fail ("monitor --lttng-live", error);
            }
          tw_live_lttng_set_reconnect (source, reconnect);
          tw_live_lttng_set_arrival_func (source, on_arrival, &session);
          g_ptr_array_add (sources, source);
        }
      /* several targets: one store, tasks and CPUs named by host */
      tw_live_lttng_name_hosts ((TwLiveSource **) sources->pdata, sources->len);
      /* the monitor takes each source, even one it refuses */
      for (guint i = 0; i < sources->len; i++)
        if (!tw_monitor_add_source (monitor, sources->pdata[i], &error))
          {
            for (guint k = i + 1; k < sources->len; k++)
              ((TwLiveSource *) sources->pdata[k])->klass->free (sources->pdata[k]);
            return tw_cli_fail ("monitor --lttng-live", error);
          }
      session.lttng = TRUE;
      lttng_sources = g_steal_pointer (&sources);
      session.lttng_sources = lttng_sources;
      session.reconnect = reconnect;
    }
  if (metric || automaton_path || plugin_path)
    {
      eval = tw_cli_monitor_eval_new (tw_monitor_get_trace (monitor), metric, automaton_path, plugin_path,
                                      &error);
      if (eval == NULL)
        return tw_cli_fail ("monitor", error);
      if (ust)
        tw_cli_monitor_eval_set_emitter (eval, tw_cli_ust_get_emitter (ust), tw_cli_ust_get_monitor (ust));
      session.eval = eval;
    }
  if (flight_span)
    {
      flight = tw_cli_flight_new (monitor, span_ns, span_bytes, (guint64) llround (after_s * 1e9), record_path,
                                  (const char * const *) triggers, &error);
      if (flight == NULL)
        return tw_cli_fail ("monitor --flight", error);
      session.flight = flight;
    }
  if (kernel)
    {
      TwLiveSource *source = tw_live_kernel_new (&error);

      if (source == NULL || !tw_monitor_add_source (monitor, source, &error))
        return tw_cli_fail ("monitor --kernel", error);
    }
  if (gtop)
    {
      TwLiveSource *source = tw_live_gtop_new (0, &error);

      if (source == NULL || !tw_monitor_add_source (monitor, source, &error))
        return tw_cli_fail ("monitor --gtop", error);
    }

  if (keep_recording)
    keep = keep_recording_start (tw_monitor_get_trace (monitor), record_path);

  loop = g_main_loop_new (NULL, FALSE);
  dumped = g_hash_table_new (NULL, NULL);
  session.loop = loop;
  session.dumped_types = dumped;
  session.dump = dump;

  if (deadline)
    runner = tw_cli_deadline_runner_start (monitor, (guint64) llround (period_ms * 1e6), poll_once, &session,
                                           loop);
  else
    {
      on_poll (&session);
      timers[0] = g_timeout_add (MAX (1, (guint) llround (period_ms)), on_poll, &session);
    }
  timers[1] = g_unix_signal_add (SIGINT, on_stop, &session);
  timers[2] = g_unix_signal_add (SIGTERM, on_stop, &session);
  if (duration > 0)
    timers[3] = g_timeout_add ((guint) llround (duration * 1000), on_stop, &session);
  g_main_loop_run (loop);
  for (guint i = 0; i < G_N_ELEMENTS (timers); i++)
    if (timers[i])
      g_source_remove (timers[i]);

  if (runner && !tw_cli_deadline_runner_stop (runner, &error))
    {
      tw_monitor_stop (monitor);
      return tw_cli_fail ("monitor --deadline", error);
    }
  tw_monitor_stop (monitor);
  if (ust)
    tw_cli_ust_poll (ust, TRUE);
  walk_new_rows (&session);
  if (eval && session.status == 0 && !tw_cli_monitor_eval_advance (eval, TRUE, &error))
    return tw_cli_fail ("monitor", error);
  if (flight && session.status == 0 && !tw_cli_flight_advance (flight, TRUE, &error))
    return tw_cli_fail ("monitor --flight", error);

  if (json)
    print_json (&session);
  else
    print_text (&session);
  if (keep && !keep_recording_finish (keep, &error))
    return tw_cli_fail ("monitor --keep-recording", error);
  if (record_path && !keep && !flight && !record (tw_monitor_get_trace (monitor), record_path, &error))
    return tw_cli_fail ("monitor --record", error);
  return session.status;
}
