/* tw-lttng-live-child.c: the LTTng live helper: a src.ctf.lttng-live graph, rows to the parent
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Runs in `tracewb-reader --lttng-live URL` (and `--lttng-sessions URL`), never in
 * tracewb itself: libbabeltrace2 may abort() on metadata it does not like, and a relay
 * that goes away ends the graph with an error; either way only this process ends, and
 * the parent (tw-live-lttng.c) says so and starts another one.
 *
 * The graph is babeltrace2's src.ctf.lttng-live into the CTF reader's own sink
 * (tw-ctf-decoder-private.h), so kernel events get the canonical kinds and UST events
 * their fields exactly as when a recorded trace is opened. Event types, tasks and
 * strings go into a trace of this process that holds no rows; the rows go into a batch,
 * and each batch goes to the parent preceded by what it refers to that the parent has
 * not seen yet (tw-lttng-live-protocol-private.h).
 */
#include "config.h"

#include "tw-live-lttng.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "tw-ctf-decoder-private.h"
#include "tw-lttng-live-protocol-private.h"
#include "tw-lttng-sensor-decoder-private.h"
#include "tw-lttng-string-slots-private.h"

#if HAVE_BABELTRACE

/* A batch goes when it holds this much or the stream went quiet (lttng-live said AGAIN:
 * nothing more until the relay has more). */
#define BATCH_BYTES      (64 * 1024)
#define BATCH_MAX_US     20000
/* How long to wait after lttng-live said AGAIN. babeltrace2's CLI waits 100 ms; the
 * live timer of a session is typically 100 ms–1 s, and a shorter retry costs one
 * request to a relay that has nothing yet, so 10 ms keeps the latency near the timer's. */
#define RETRY_US         10000
#define QUERY_TRIES      50

typedef struct {
  const char   *name;
  gint64        pid, tid;
  TwTaskFlags   flags;
} TaskSeen;

typedef struct {
  int           fd;
  TwTrace      *trace;
  GByteArray   *out;        /* frames not written yet */
  GByteArray   *rows;       /* the ROWS frame being gathered (its body) */
  guint         sent_strings;
  guint         sent_types;
  GArray       *tasks_seen; /* TaskSeen per task sent */
  gint64        sent_horizon;
  gint64        batch_start_us;
  TwCtfDecoder *decoder;
  GArray       *sensors_sent; /* guint64: the generation of each sensor last sent */
  GByteArray   *arrivals;   /* the ARRIVALS frame being gathered (its body) */
  TwLttngStringSlots *slots;  /* payload strings */
  GByteArray   *slot_news;  /* STRING frames of the slots given out since the last batch */
  guint         n_slot_news;
} Child;

static void
write_all (int           fd,
           const guint8 *data,
           gsize         len)
{
  while (len > 0)
    {
      gssize n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        _exit (3);   /* the parent is gone: nobody to read for */
      data += n;
      len -= n;
    }
}

static void
frame_begin (GByteArray *out,
             guint32     kind)
{
  TwLttngFrameHeader head = { kind, 0 };

  g_byte_array_append (out, (const guint8 *) &head, sizeof head);
}

/* Sets the size of the frame begun at @start. */
static void
frame_end (GByteArray *out,
           gsize       start)
{
  guint32 size = out->len - start - sizeof (TwLttngFrameHeader);

  memcpy (out->data + start + G_STRUCT_OFFSET (TwLttngFrameHeader, size), &size, sizeof size);
}

static void
put (GByteArray *out,
     const void *data,
     gsize       len)
{
  g_byte_array_append (out, data, len);
}

static void
put_str (GByteArray *out,
         const char *s)
{
  put (out, s ? s : "", strlen (s ? s : "") + 1);
}

static void
send_frame (Child      *child,
            guint32     kind,
            const void *body,
            gsize       len)
{
  gsize start = child->out->len;

  frame_begin (child->out, kind);
  put (child->out, body, len);
  frame_end (child->out, start);
}

static void
flush_out (Child *child)
{
  write_all (child->fd, child->out->data, child->out->len);
  g_byte_array_set_size (child->out, 0);
}

static void
send_text (Child      *child,
           guint32     kind,
           const char *text)
{
  send_frame (child, kind, text, strlen (text));
  flush_out (child);
}

static void G_GNUC_NORETURN
child_fail (Child      *child,
            const char *message)
{
  send_text (child, TW_LTTNG_FRAME_ERROR, message);
  _exit (1);
}

/* ---------------------------------------------------------------- the batch */

static void ship (Child  *child,
                  gint64  horizon);

static void
on_row (guint64       time_ns,
        guint16       cpu,
        guint16       type,
        guint32       task,
        guint32       arg,
        const guint8 *payload,
        guint         payload_size,
        gpointer      user_data)
{
  Child *child = user_data;
  guint8 head[TW_LTTNG_ROW_HEAD];
  guint16 size = payload_size;

  if (child->rows->len == 0)
    child->batch_start_us = g_get_monotonic_time ();
  memcpy (head, &time_ns, 8);
  memcpy (head + 8, &cpu, 2);
  memcpy (head + 10, &type, 2);
  memcpy (head + 12, &task, 4);
  memcpy (head + 16, &arg, 4);
  memcpy (head + 20, &size, 2);
  put (child->rows, head, sizeof head);
  put (child->rows, payload, payload_size);
  /* the parent must see these rows before the ring of slots comes round to theirs */
  if (child->n_slot_news >= TW_LTTNG_STRING_SLOTS_PER_BATCH)
    ship (child, G_MININT64);
}

/* An element of a sensor that declared a stream: the parent checks the stream (app/,
 * where the stream's math may be used), as a local monitor's element hook lets it. */
static void
on_arrival (guint32  monitor,
            guint32  sensor,
            guint64  position,
            guint64  time_ns,
            gpointer user_data)
{
  Child *child = user_data;

  put (child->arrivals, &monitor, 4);
  put (child->arrivals, &sensor, 4);
  put (child->arrivals, &position, 8);
  put (child->arrivals, &time_ns, 8);
}

/* A payload string's slot; a new one goes to the parent before the rows. */
static guint32
on_string (const char *s,
           gsize       len,
           gpointer    user_data)
{
  Child *child = user_data;
  gboolean fresh;
  guint32 id = _tw_lttng_string_slots_get (child->slots, s, len, &fresh);
  guint8 state = TW_TASK_STATE_UNKNOWN;
  gsize start;

  if (!fresh)
    return id;
  start = child->slot_news->len;
  frame_begin (child->slot_news, TW_LTTNG_FRAME_STRING);
  put (child->slot_news, &id, 4);
  put (child->slot_news, &state, 1);
  put (child->slot_news, s, len);
  put (child->slot_news, "", 1);
  frame_end (child->slot_news, start);
  child->n_slot_news++;
  return id;
}

/* What the rows gathered refer to and the parent has not seen: new strings, types, and
 * new or changed (renamed) tasks. */
static void
put_news (Child *child)
{
  guint n_types = tw_trace_get_n_event_types (child->trace);
  guint32 n_tasks = tw_trace_get_n_tasks (child->trace);
  const char *s;

  while ((s = tw_trace_get_string (child->trace, child->sent_strings)))
    {
      gsize start = child->out->len;
      guint8 state = tw_trace_get_string_task_state (child->trace, child->sent_strings);

      frame_begin (child->out, TW_LTTNG_FRAME_STRING);
      put (child->out, &child->sent_strings, 4);
      put (child->out, &state, 1);
      put_str (child->out, s);
      frame_end (child->out, start);
      child->sent_strings++;
    }
  put (child->out, child->slot_news->data, child->slot_news->len);
  g_byte_array_set_size (child->slot_news, 0);
  child->n_slot_news = 0;
  for (; child->sent_types < n_types; child->sent_types++)
    {
      const TwEventType *type = tw_trace_get_event_type (child->trace, child->sent_types);
      guint16 id = child->sent_types, kind = type->kind, n = type->n_fields;
      gsize start = child->out->len;

      frame_begin (child->out, TW_LTTNG_FRAME_TYPE);
      put (child->out, &id, 2);
      put (child->out, &kind, 2);
      put (child->out, &n, 2);
      put_str (child->out, type->name);
      put_str (child->out, type->family);
      for (guint i = 0; i < n; i++)
        {
          guint8 ft = type->fields[i].type, flags = type->fields[i].flags;

          put (child->out, &ft, 1);
          put (child->out, &flags, 1);
          put_str (child->out, type->fields[i].name);
        }
      frame_end (child->out, start);
    }
  for (guint32 id = 0; id < n_tasks; id++)
    {
      const TwTask *task = tw_trace_get_task (child->trace, id);
      TaskSeen now = { task->name, task->pid, task->tid, task->flags };
      guint32 flags = task->flags;
      guint8 has_name = task->name != NULL;
      gsize start;

      if (id < child->tasks_seen->len
          && memcmp (&g_array_index (child->tasks_seen, TaskSeen, id), &now, sizeof now) == 0)
        continue;
      if (id >= child->tasks_seen->len)
        g_array_set_size (child->tasks_seen, id + 1);
      g_array_index (child->tasks_seen, TaskSeen, id) = now;
      start = child->out->len;
      frame_begin (child->out, TW_LTTNG_FRAME_TASK);
      put (child->out, &id, 4);
      put (child->out, &task->pid, 8);
      put (child->out, &task->tid, 8);
      put (child->out, &flags, 4);
      put (child->out, &has_name, 1);
      put_str (child->out, task->source_id);
      put_str (child->out, task->name);
      frame_end (child->out, start);
    }
}

/* The sensors of the target's monitors whose counts or losses changed since last sent:
 * a frame each, a few a second (their counts events come every second). */
static void
put_sensors (Child *child)
{
  TwLttngSensorDecoder *sensors = child->decoder ? _tw_ctf_decoder_get_sensors (child->decoder) : NULL;
  guint n = sensors ? _tw_lttng_sensor_decoder_get_n_sensors (sensors) : 0;

  if (child->sensors_sent->len < n)
    g_array_set_size (child->sensors_sent, n);
  for (guint i = 0; i < n; i++)
    {
      TwLttngSensorStats st;
      guint64 *sent = &g_array_index (child->sensors_sent, guint64, i);
      guint8 flags[2];
      guint64 numbers[9];
      double jcs[5];
      gsize start;

      _tw_lttng_sensor_decoder_get_stats (sensors, i, &st);
      if (st.generation == *sent)
        continue;
      *sent = st.generation;
      flags[0] = st.have_counts;
      flags[1] = st.big_endian;
      numbers[0] = st.counts.received;
      numbers[1] = st.counts.missed;
      numbers[2] = st.counts.inconsistent;
      numbers[3] = st.counts.nonmonotonic;
      numbers[4] = st.received;
      numbers[5] = st.lost;
      numbers[6] = st.duplicates;
      numbers[7] = st.restarts;
      numbers[8] = st.n_counts;
      jcs[0] = st.period_ns;
      jcs[1] = st.min_distance_ns;
      jcs[2] = st.earliness_ns;
      jcs[3] = st.monitor_period_ns;
      jcs[4] = st.deadline_ns;
      start = child->out->len;
      frame_begin (child->out, TW_LTTNG_FRAME_SENSOR);
      put (child->out, &st.monitor, 4);
      put (child->out, &st.sensor, 4);
      put (child->out, &st.pid, 8);
      put (child->out, flags, 2);
      put (child->out, numbers, sizeof numbers);
      put (child->out, &st.rate, 8);
      put (child->out, jcs, sizeof jcs);
      put_str (child->out, st.task);
      put_str (child->out, st.sensor_name);
      put_str (child->out, st.schema);
      frame_end (child->out, start);
    }
}

/* Sends the batch (and the horizon) now. */
static void
ship (Child  *child,
      gint64  horizon)
{
  if (child->rows->len > 0)
    {
      put_news (child);
      send_frame (child, TW_LTTNG_FRAME_ROWS, child->rows->data, child->rows->len);
      g_byte_array_set_size (child->rows, 0);
    }
  put_sensors (child);
  if (child->arrivals->len > 0)
    {
      send_frame (child, TW_LTTNG_FRAME_ARRIVALS, child->arrivals->data, child->arrivals->len);
      g_byte_array_set_size (child->arrivals, 0);
    }
  if (horizon > child->sent_horizon)
    {
      send_frame (child, TW_LTTNG_FRAME_HORIZON, &horizon, sizeof horizon);
      child->sent_horizon = horizon;
    }
  if (child->out->len > 0)
    flush_out (child);
}

/* ---------------------------------------------------------------- babeltrace2 */

static const bt_component_class_source *
find_live_class (const bt_plugin **plugin,
                 GString          *why)
{
  const bt_component_class_source *source = NULL;

  if (bt_plugin_find ("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, plugin)
      != BT_PLUGIN_FIND_STATUS_OK
      || !(source = bt_plugin_borrow_source_component_class_by_name_const (*plugin, "lttng-live")))
    {
      g_free (_tw_ctf_take_bt_error ());
      g_string_assign (why, "babeltrace2's ctf plugin (src.ctf.lttng-live) was not found");
      return NULL;
    }
  return source;
}

static const char *
map_string (const bt_value *map,
            const char     *key)
{
  const bt_value *v = bt_value_map_borrow_entry_value_const (map, key);

  return v && bt_value_is_string (v) ? bt_value_string_get (v) : "";
}

static guint64
map_uint (const bt_value *map,
          const char     *key)
{
  const bt_value *v = bt_value_map_borrow_entry_value_const (map, key);

  if (v && bt_value_is_unsigned_integer (v))
    return bt_value_integer_unsigned_get (v);
  if (v && bt_value_is_signed_integer (v))
    return MAX (bt_value_integer_signed_get (v), 0);
  return 0;
}

/* babeltrace2's `sessions` query of src.ctf.lttng-live: what
 * `babeltrace2 --input-format=lttng-live net://HOST` lists. */
static const bt_value *
query_sessions (const bt_component_class_source *live,
                const char               *url,
                GString                  *why)
{
  bt_value *params = bt_value_map_create ();
  bt_query_executor *query;
  const bt_value *result = NULL;
  bt_query_executor_query_status status = BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN;

  bt_value_map_insert_string_entry (params, "url", url);
  query = bt_query_executor_create (bt_component_class_source_as_component_class_const (live),
                                    "sessions", params);
  for (guint i = 0; query && i < QUERY_TRIES && status == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN; i++)
    {
      status = bt_query_executor_query (query, &result);
      if (status == BT_QUERY_EXECUTOR_QUERY_STATUS_AGAIN)
        g_usleep (RETRY_US * 10);
    }
  bt_value_put_ref (params);
  bt_query_executor_put_ref (query);
  if (status != BT_QUERY_EXECUTOR_QUERY_STATUS_OK || result == NULL || !bt_value_is_array (result))
    {
      g_autofree char *bt = _tw_ctf_take_bt_error ();

      g_string_printf (why, "cannot list the sessions of the relay%s%s",
                       bt[0] ? ": " : " (no answer)", bt);
      bt_value_put_ref (result);
      return NULL;
    }
  return result;
}

static void G_GNUC_NORETURN
list_sessions (Child      *child,
               const char *url)
{
  g_autoptr(GString) why = g_string_new (NULL);
  const bt_plugin *plugin = NULL;
  const bt_component_class_source *live = find_live_class (&plugin, why);
  const bt_value *sessions = live ? query_sessions (live, url, why) : NULL;

  if (sessions == NULL)
    child_fail (child, why->str);
  for (guint64 i = 0; i < bt_value_array_get_length (sessions); i++)
    {
      const bt_value *s = bt_value_array_borrow_element_by_index_const (sessions, i);
      guint64 numbers[3] = { map_uint (s, "timer-us"), map_uint (s, "stream-count"),
                             map_uint (s, "client-count") };
      gsize start = child->out->len;

      frame_begin (child->out, TW_LTTNG_FRAME_SESSION);
      put (child->out, numbers, sizeof numbers);
      put_str (child->out, map_string (s, "url"));
      put_str (child->out, map_string (s, "target-hostname"));
      put_str (child->out, map_string (s, "session-name"));
      frame_end (child->out, start);
    }
  send_text (child, TW_LTTNG_FRAME_END, "");
  _exit (0);
}

static void G_GNUC_NORETURN
follow_session (Child      *child,
                const char *url)
{
  g_autoptr(GString) why = g_string_new (NULL);
  const bt_plugin *plugin = NULL;
  const bt_component_class_source *live = find_live_class (&plugin, why);
  TwCtfDecoder *decoder = _tw_ctf_decoder_new (child->trace, url, on_row, child);
  bt_graph *graph;
  bt_value *params, *inputs = NULL;
  const bt_component_source *source = NULL;
  const bt_component_sink *sink = NULL;
  gboolean connected = FALSE;

  if (live == NULL)
    child_fail (child, why->str);
  child->decoder = decoder;
  _tw_ctf_decoder_set_payload_strings (decoder, on_string, child);
  _tw_lttng_sensor_decoder_set_element_func (_tw_ctf_decoder_get_sensors (decoder), on_arrival, child);
  graph = bt_graph_create (0);
  params = bt_value_map_create ();
  bt_value_map_insert_empty_array_entry (params, "inputs", &inputs);
  bt_value_array_append_string_element (inputs, url);
  /* a session destroyed on the target ends the graph: the parent says so and tries
   * again (the default, "continue", would wait without a word) */
  bt_value_map_insert_string_entry (params, "session-not-found-action", "end");
  if (!_tw_ctf_decoder_add_sink (decoder, graph, &sink)
      || bt_graph_add_source_component (graph, live, "live",
                                        params, BT_LOGGING_LEVEL_NONE, &source)
         != BT_GRAPH_ADD_COMPONENT_STATUS_OK)
    goto bt_failed;
  bt_value_put_ref (params);
  for (guint64 i = 0; i < bt_component_source_get_output_port_count (source); i++)
    {
      guint64 n_in = bt_component_sink_get_input_port_count (sink);

      if (bt_graph_connect_ports (graph, bt_component_source_borrow_output_port_by_index_const (source, i),
                                  bt_component_sink_borrow_input_port_by_index_const (sink, n_in - 1),
                                  NULL) != BT_GRAPH_CONNECT_PORTS_STATUS_OK)
        goto bt_failed;
    }

  for (;;)
    {
      bt_graph_run_once_status status = bt_graph_run_once (graph);
      g_autoptr(GError) error = NULL;

      if (_tw_ctf_decoder_take_error (decoder, &error))
        child_fail (child, error->message);
      if (!connected && status != BT_GRAPH_RUN_ONCE_STATUS_ERROR
          && status != BT_GRAPH_RUN_ONCE_STATUS_MEMORY_ERROR)
        {
          guint32 state = TW_LTTNG_LIVE_STATE_CONNECTED;

          connected = TRUE;
          send_frame (child, TW_LTTNG_FRAME_STATE, &state, sizeof state);
          flush_out (child);
        }
      switch (status)
        {
        case BT_GRAPH_RUN_ONCE_STATUS_OK:
          if (child->rows->len >= BATCH_BYTES
              || (child->rows->len > 0 && g_get_monotonic_time () - child->batch_start_us >= BATCH_MAX_US))
            ship (child, _tw_ctf_decoder_get_horizon (decoder));
          break;
        case BT_GRAPH_RUN_ONCE_STATUS_AGAIN:
          _tw_ctf_decoder_flush_losses (decoder);
          ship (child, _tw_ctf_decoder_get_horizon (decoder));
          g_usleep (RETRY_US);
          break;
        case BT_GRAPH_RUN_ONCE_STATUS_END:
          _tw_ctf_decoder_flush_losses (decoder);
          ship (child, _tw_ctf_decoder_get_horizon (decoder));
          send_text (child, TW_LTTNG_FRAME_END,
                     _tw_ctf_decoder_get_n_events (decoder) > 0
                     ? "the session ended on the relay (destroyed, or its tracing stopped)"
                     : "the relay has no such session (or it ended before any event)");
          _exit (0);
        default:
          _tw_ctf_decoder_flush_losses (decoder);
          ship (child, _tw_ctf_decoder_get_horizon (decoder));
          goto bt_failed;
        }
    }

bt_failed:
  {
    g_autofree char *bt = _tw_ctf_take_bt_error ();

    g_string_printf (why, "babeltrace2's lttng-live source failed%s%s", bt[0] ? ": " : "", bt);
    child_fail (child, why->str);
  }
}

#endif /* HAVE_BABELTRACE */

/**
 * tw_lttng_live_child_main:
 *
 * The helper's LTTng live modes: `tracewb-reader --lttng-live URL` follows a session,
 * `tracewb-reader --lttng-sessions URL` lists a relay's sessions; frames on fd 3
 * (tw-lttng-live-protocol-private.h).
 *
 * Returns: only for bad arguments (2); otherwise the helper leaves with _exit()
 */
int
tw_lttng_live_child_main (int    argc,
                          char **argv)
{
#if HAVE_BABELTRACE
  Child child = { TW_LTTNG_DATA_FD };

  if (argc != 3 || !(strcmp (argv[1], "--lttng-live") == 0 || strcmp (argv[1], "--lttng-sessions") == 0))
    {
      g_printerr ("%s: usage: --lttng-live URL | --lttng-sessions URL\n", argv[0]);
      return 2;
    }
  /* a helper outliving the program that wanted the session only loads the relay */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  signal (SIGPIPE, SIG_IGN);
  close_range (TW_LTTNG_DATA_FD + 1, ~0u, 0);
  child.trace = tw_trace_new ();
  child.out = g_byte_array_new ();
  child.rows = g_byte_array_new ();
  child.tasks_seen = g_array_new (FALSE, TRUE, sizeof (TaskSeen));
  child.sensors_sent = g_array_new (FALSE, TRUE, sizeof (guint64));
  child.arrivals = g_byte_array_new ();
  child.slots = _tw_lttng_string_slots_new ();
  child.slot_news = g_byte_array_new ();
  child.sent_horizon = G_MININT64;
  if (strcmp (argv[1], "--lttng-sessions") == 0)
    list_sessions (&child, argv[2]);
  follow_session (&child, argv[2]);
#else
  g_printerr ("%s: built without babeltrace2: no LTTng live\n", argv[0]);
  return 2;
#endif
}
