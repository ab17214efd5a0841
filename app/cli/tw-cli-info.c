/* tw-cli-info.c: `tracewb-cli info FILE`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdio.h>

#include "tw-cli.h"
#include "tw-cli-info-defects.h"

static guint64 *
count_types (TwTrace *trace)
{
  guint64 *counts = g_new0 (guint64, MAX (tw_trace_get_n_event_types (trace), 1));
  guint64 n = tw_trace_get_n_events (trace);

  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      guint rows = MIN ((guint64) chunk->n, n - ((guint64) c << TW_CHUNK_SHIFT));

      for (guint r = 0; r < rows; r++)
        counts[chunk->type[r]]++;
    }
  return counts;
}

/* Lost events are rows of the store, not events of the trace: counted apart. */
static gboolean
is_event_type (TwTrace *trace,
               guint    type)
{
  return tw_trace_get_event_type (trace, type)->kind != TW_EVENT_KIND_LOST;
}

static void
print_json (TwTrace            *trace,
            const guint64      *counts,
            const TwCliDefects *defects)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *format = tw_trace_dup_metadata (trace, "format");
  g_autofree char *text = NULL;
  guint64 first, last;

  tw_cli_defects_get_time_bounds (defects, trace, &first, &last);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, format);
  json_builder_set_member_name (builder, "events");
  json_builder_add_int_value (builder, tw_trace_get_n_events (trace)
                                       - tw_cli_defects_get_n_lost_reports (defects));
  json_builder_set_member_name (builder, "cpus");
  json_builder_add_int_value (builder, tw_trace_get_n_cpus (trace));
  json_builder_set_member_name (builder, "tasks");
  json_builder_add_int_value (builder, tw_trace_get_n_tasks (trace));
  json_builder_set_member_name (builder, "first_ns");
  json_builder_add_int_value (builder, first);
  json_builder_set_member_name (builder, "last_ns");
  json_builder_add_int_value (builder, last);
  json_builder_set_member_name (builder, "duration_ns");
  json_builder_add_int_value (builder, last - first);
  json_builder_set_member_name (builder, "types");
  json_builder_begin_object (builder);
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    {
      if (counts[t] == 0 || !is_event_type (trace, t))
        continue;
      json_builder_set_member_name (builder, tw_trace_get_event_type (trace, t)->name);
      json_builder_add_int_value (builder, counts[t]);
    }
  json_builder_end_object (builder);
  tw_cli_defects_add_json (defects, builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static char *
format_duration (guint64 ns)
{
  if (ns >= G_GUINT64_CONSTANT (1000000000))
    return g_strdup_printf ("%.6f s", ns / 1e9);
  if (ns >= 1000000)
    return g_strdup_printf ("%.3f ms", ns / 1e6);
  if (ns >= 1000)
    return g_strdup_printf ("%.3f µs", ns / 1e3);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

static void
print_text (TwTrace            *trace,
            const guint64      *counts,
            const TwCliDefects *defects)
{
  g_auto(GStrv) keys = tw_trace_dup_metadata_keys (trace);
  g_autofree char *duration = NULL;
  guint64 first, last;

  tw_cli_defects_get_time_bounds (defects, trace, &first, &last);
  duration = format_duration (last - first);

  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = tw_trace_dup_metadata (trace, keys[i]);
      g_print ("%-14s %s\n", keys[i], value);
    }
  g_print ("%-14s %" G_GUINT64_FORMAT "\n", "events",
           tw_trace_get_n_events (trace) - tw_cli_defects_get_n_lost_reports (defects));
  g_print ("%-14s %u\n", "cpus", tw_trace_get_n_cpus (trace));
  g_print ("%-14s %u\n", "tasks", tw_trace_get_n_tasks (trace));
  g_print ("%-14s %" G_GUINT64_FORMAT " ns\n", "first", first);
  g_print ("%-14s %" G_GUINT64_FORMAT " ns\n", "last", last);
  g_print ("%-14s %s\n", "duration", duration);
  tw_cli_defects_print (defects);
  g_print ("\n%-32s %-14s %12s\n", "type", "kind", "count");
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, t);

      if (counts[t] == 0 || !is_event_type (trace, t))
        continue;
      g_print ("%-32s %-14s %12" G_GUINT64_FORMAT "\n", type->name,
               tw_event_kind_to_string (type->kind), counts[t]);
    }
}

int
tw_cli_info (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE — what a trace holds");
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *format = NULL;
  g_autofree guint64 *counts = NULL;
  g_autoptr(TwCliDefects) defects = NULL;
  gboolean json = FALSE;
  GError *error = NULL;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "One JSON object", NULL },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Reader to use instead of probing", "NAME" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2)
    {
      g_printerr ("usage: tracewb-cli info [--json] [--format NAME] FILE\n");
      return 2;
    }

  if (!(trace = tw_cli_load_trace (argv[1], format, &error)))
    return tw_cli_fail ("info", error);

  counts = count_types (trace);
  defects = tw_cli_defects_new (trace);
  if (json)
    print_json (trace, counts, defects);
  else
    print_text (trace, counts, defects);
  return 0;
}
