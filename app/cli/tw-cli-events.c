/* tw-cli-events.c: `tracewb-cli events FILE`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <tw-evaluators.h>

#include "tw-cli.h"

int
tw_cli_events (int    argc,
               char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("FILE — one line per event");
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *format = NULL;
  g_autofree char *type_name = NULL;
  g_autofree char *task_id = NULL;
  gint64 from = 0;
  gint64 to = -1;
  guint16 type = TW_TYPE_NONE;
  guint32 task = TW_TASK_NONE;
  guint64 first, end;
  GError *error = NULL;
  const GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_INT64, &from, "First time (ns, inclusive)", "NS" },
    { "to", 0, 0, G_OPTION_ARG_INT64, &to, "Last time (ns, exclusive)", "NS" },
    { "type", 0, 0, G_OPTION_ARG_STRING, &type_name, "Only events of this type (raw name)", "NAME" },
    { "task", 0, 0, G_OPTION_ARG_STRING, &task_id, "Only events of this task (id as the source names it)", "ID" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Reader to use instead of probing", "NAME" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2 || from < 0)
    {
      g_printerr ("usage: tracewb-cli events [--from NS] [--to NS] [--type NAME] [--task ID] FILE\n");
      return 2;
    }

  if (!(trace = tw_cli_load_trace (argv[1], format, &error)))
    return tw_cli_fail ("events", error);

  if (type_name && (type = tw_trace_lookup_event_type (trace, type_name)) == TW_TYPE_NONE)
    {
      g_autofree char *text = tw_event_names_dup_unknown_text (trace, type_name, TW_EVENT_NAME_RAW);

      g_printerr ("tracewb-cli events: %s: %s\n", argv[1], text);
      return 1;
    }
  if (task_id && (task = tw_trace_lookup_task (trace, task_id)) == TW_TASK_NONE)
    {
      g_printerr ("tracewb-cli events: %s has no task “%s”\n", argv[1], task_id);
      return 1;
    }

  tw_trace_find_range (trace, from, to < 0 ? G_MAXUINT64 : (guint64) to, &first, &end);
  if (to < 0)
    end = tw_trace_get_n_events (trace);

  for (guint64 i = first; i < end; i++)
    {
      g_autofree char *label = NULL;
      g_autofree char *args = NULL;
      TwEvent ev;

      tw_trace_get_event (trace, i, &ev);
      if ((type != TW_TYPE_NONE && ev.type != type) || (task != TW_TASK_NONE && ev.task != task))
        continue;

      label = tw_trace_dup_task_label (trace, ev.task);
      args = tw_trace_format_args (trace, &ev);
      if (ev.cpu == TW_CPU_NONE)
        printf ("%20" G_GUINT64_FORMAT "   - %-24s %-24s %s\n", ev.time, label,
                tw_trace_get_event_type (trace, ev.type)->name, args);
      else
        printf ("%20" G_GUINT64_FORMAT " %3u %-24s %-24s %s\n", ev.time, ev.cpu, label,
                tw_trace_get_event_type (trace, ev.type)->name, args);
    }
  return 0;
}
