/* tw-cli-lttng.c: `tracewb-cli monitor --lttng-live`: sessions of a relay, what a session sent
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <tw-ingest.h>

#include "tw-cli.h"
#include "tw-cli-lttng.h"

/* `--lttng-live net://HOST[:PORT]` without a session: the relay's sessions, as
 * `babeltrace2 --input-format=lttng-live net://HOST` lists them. */
int
tw_cli_lttng_list (const char *url,
                   gboolean    json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) sessions = tw_live_lttng_list_sessions (url, NULL, &error);

  if (sessions == NULL)
    return tw_cli_fail ("monitor --lttng-live", g_steal_pointer (&error));
  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autoptr(JsonNode) root = NULL;
      g_autofree char *text = NULL;

      json_builder_begin_array (builder);
      for (guint i = 0; i < sessions->len; i++)
        {
          const TwLttngSessionInfo *s = sessions->pdata[i];

          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "url");
          json_builder_add_string_value (builder, s->url);
          json_builder_set_member_name (builder, "target");
          json_builder_add_string_value (builder, s->hostname);
          json_builder_set_member_name (builder, "session");
          json_builder_add_string_value (builder, s->name);
          json_builder_set_member_name (builder, "timer_us");
          json_builder_add_int_value (builder, (gint64) s->timer_us);
          json_builder_set_member_name (builder, "streams");
          json_builder_add_int_value (builder, (gint64) s->n_streams);
          json_builder_set_member_name (builder, "clients");
          json_builder_add_int_value (builder, (gint64) s->n_clients);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
      root = json_builder_get_root (builder);
      json_generator_set_root (generator, root);
      json_generator_set_pretty (generator, TRUE);
      text = json_generator_to_data (generator, NULL);
      printf ("%s\n", text);
      return 0;
    }
  for (guint i = 0; i < sessions->len; i++)
    {
      const TwLttngSessionInfo *s = sessions->pdata[i];

      printf ("%s (timer %" G_GUINT64_FORMAT " us, %" G_GUINT64_FORMAT " stream(s), %"
              G_GUINT64_FORMAT " client(s))\n", s->url, s->timer_us, s->n_streams, s->n_clients);
    }
  if (sessions->len == 0)
    g_printerr ("tracewb-cli monitor: %s serves no session\n", url);
  return 0;
}

/* The host of @event in a store of several targets: its task's, else its CPU's. */
static const char *
event_host (TwTrace       *trace,
            const TwEvent *event)
{
  const TwTask *task = tw_trace_get_task (trace, event->task);

  if (task && task->host)
    return task->host;
  return tw_trace_get_cpu_host (trace, event->cpu, NULL);
}

/* The store's events by name (losses apart) and the losses by CPU (one LTTng stream per
 * CPU and channel) of source @url: into @builder's current object, or as text. In a store
 * of several targets, only the events of @url's target count. */
void
tw_cli_lttng_report (TwTrace     *trace,
                     const char  *url,
                     JsonBuilder *builder)
{
  guint n_types = tw_trace_get_n_event_types (trace);
  g_autofree guint64 *per_type = g_new0 (guint64, MAX (n_types, 1));
  g_autoptr(GArray) lost_per_cpu = g_array_new (FALSE, TRUE, sizeof (guint64));
  guint64 n = tw_trace_get_n_events (trace);
  g_autofree char *host = NULL;

  if (tw_trace_get_n_hosts (trace) > 0)
    tw_live_lttng_parse_url (url, NULL, &host, NULL, NULL);
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent event;

      tw_trace_get_event (trace, i, &event);
      if (host && g_strcmp0 (event_host (trace, &event), host) != 0)
        continue;
      if (tw_trace_get_event_type (trace, event.type)->kind == TW_EVENT_KIND_LOST)
        {
          guint cpu = event.cpu == TW_CPU_NONE ? 0 : event.cpu;

          if (cpu >= lost_per_cpu->len)
            g_array_set_size (lost_per_cpu, cpu + 1);
          g_array_index (lost_per_cpu, guint64, cpu) += event.arg;
        }
      else if (event.type < n_types)
        per_type[event.type]++;
    }
  if (builder)
    {
      json_builder_set_member_name (builder, "events");
      json_builder_begin_object (builder);
    }
  for (guint t = 0; t < n_types; t++)
    if (per_type[t])
      {
        const char *name = tw_trace_get_event_type (trace, t)->name;

        if (builder)
          {
            json_builder_set_member_name (builder, name);
            json_builder_add_int_value (builder, (gint64) per_type[t]);
          }
        else
          g_printerr ("  %-38s %" G_GUINT64_FORMAT "\n", name, per_type[t]);
      }
  if (builder)
    {
      json_builder_end_object (builder);
      json_builder_set_member_name (builder, "lost_per_cpu");
      json_builder_begin_object (builder);
    }
  for (guint cpu = 0; cpu < lost_per_cpu->len; cpu++)
    if (g_array_index (lost_per_cpu, guint64, cpu))
      {
        /* "HOST/N" when the store holds several targets */
        g_autofree char *key = tw_trace_dup_cpu_label (trace, cpu);

        if (builder)
          {
            json_builder_set_member_name (builder, key);
            json_builder_add_int_value (builder, (gint64) g_array_index (lost_per_cpu, guint64, cpu));
          }
        else
          g_printerr ("  lost on CPU %-26s %" G_GUINT64_FORMAT "\n", key,
                      g_array_index (lost_per_cpu, guint64, cpu));
      }
  if (builder)
    json_builder_end_object (builder);
}

const char *
tw_cli_lttng_connection_name (TwLiveConnection connection)
{
  switch (connection)
    {
    case TW_LIVE_CONNECTION_CONNECTING: return "connecting";
    case TW_LIVE_CONNECTION_CONNECTED:  return "connected";
    case TW_LIVE_CONNECTION_LOST:       return "lost";
    case TW_LIVE_CONNECTION_ENDED:      return "ended";
    case TW_LIVE_CONNECTION_LOCAL:
    default:                            return NULL;
    }
}

static void
add_count (JsonBuilder *builder,
           const char  *name,
           guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) value);
}

/**
 * tw_cli_lttng_report_sensors:
 * @sources: (element-type TwLiveSource): the LTTng live sources, owned by the monitor
 * @builder: (nullable): the JSON array of sources to add to; %NULL: lines on stderr
 *
 * The sensors the targets' monitors (`monitor --lttng`) sent, one object each like a
 * local sensor's (kind `sensor`), with the counts those monitors keep at the rings and
 * the target's `host`; @stream_func adds the check of the stream each declared.
 */
void
tw_cli_lttng_report_sensors (GPtrArray             *sources,
                             JsonBuilder           *builder,
                             TwCliStreamReportFunc  stream_func,
                             gpointer               stream_data)
{
  for (guint i = 0; i < sources->len; i++)
    for (guint k = 0; k < tw_live_lttng_get_n_sensors (sources->pdata[i]); k++)
      {
        TwLttngRemoteSensor rs;
        g_autofree char *name = NULL;

        tw_live_lttng_get_sensor (sources->pdata[i], k, &rs);
        name = g_strdup_printf ("%s@%s", rs.task, rs.sensor);
        if (builder == NULL)
          {
            g_printerr ("%s: %-36s received %" G_GUINT64_FORMAT "  missed %" G_GUINT64_FORMAT
                        "  inconsistent %" G_GUINT64_FORMAT "  nonmonotonic %" G_GUINT64_FORMAT
                        "  (monitor %u%s)\n", rs.host, name, rs.counts.received, rs.counts.missed,
                        rs.counts.inconsistent, rs.counts.nonmonotonic, rs.monitor,
                        rs.have_counts ? "" : ", no counts from it yet");
            continue;
          }
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "kind");
        json_builder_add_string_value (builder, "sensor");
        json_builder_set_member_name (builder, "host");
        json_builder_add_string_value (builder, rs.host);
        json_builder_set_member_name (builder, "task");
        json_builder_add_string_value (builder, rs.task);
        json_builder_set_member_name (builder, "sensor");
        json_builder_add_string_value (builder, rs.sensor);
        json_builder_set_member_name (builder, "name");
        json_builder_add_string_value (builder, name);
        json_builder_set_member_name (builder, "schema");
        json_builder_add_string_value (builder, rs.schema);
        add_count (builder, "monitor", rs.monitor);
        /* the target monitor's own accounting, as its --json prints it */
        json_builder_set_member_name (builder, "counted_at_target");
        json_builder_add_boolean_value (builder, rs.have_counts);
        add_count (builder, "received", rs.counts.received);
        add_count (builder, "missed", rs.counts.missed);
        add_count (builder, "inconsistent", rs.counts.inconsistent);
        add_count (builder, "nonmonotonic", rs.counts.nonmonotonic);
        json_builder_set_member_name (builder, "rate");
        json_builder_add_double_value (builder, rs.rate);
        /* what reached us: elements decoded, element events LTTng dropped */
        add_count (builder, "decoded", rs.decoded);
        add_count (builder, "lttng_lost", rs.lost);
        /* the stream check (docs/remote.md): delivered twice, and new streams */
        add_count (builder, "duplicates", rs.duplicates);
        add_count (builder, "restarts", rs.restarts);
        stream_func (sources->pdata[i], k, builder, stream_data);
        json_builder_end_object (builder);
      }
}
