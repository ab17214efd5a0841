/* tw-cli-info-defects.c: what `tracewb-cli info` says a trace got wrong
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-cli-info-defects.h"

/*
 * Three things a real recording gets wrong, each counted where it happens: events the
 * tracer lost (lost events in the store, per CPU), switches the state model
 * repairs (a switch-out lost without any loss reported, per CPU), and event lines cut
 * off (ftrace text, the reader's `truncated_events`).
 */

struct _TwCliDefects {
  TwTrace      *trace;      /* names CPUs: HOST/N in a trace of several hosts */
  TwLostEvents *lost;
  GArray       *repairs;    /* guint64 per CPU */
  guint64       n_repairs;
  guint64       truncated;
};

/**
 * tw_cli_defects_new:
 *
 * Counts the state model's repairs over @trace (tw_switch_repairs_count(): info prints
 * nothing else of the model, so it does not build one) and collects its losses.
 *
 * Returns: (transfer full): the defects
 */
TwCliDefects *
tw_cli_defects_new (TwTrace *trace)
{
  TwCliDefects *self = g_new0 (TwCliDefects, 1);
  g_autofree char *truncated = tw_trace_dup_metadata (trace, "truncated_events");

  self->trace = g_object_ref (trace);
  self->lost = tw_lost_events_new (trace);
  self->repairs = tw_switch_repairs_count (trace);
  for (guint c = 0; c < self->repairs->len; c++)
    self->n_repairs += g_array_index (self->repairs, guint64, c);
  self->truncated = truncated ? g_ascii_strtoull (truncated, NULL, 10) : 0;
  return self;
}

void
tw_cli_defects_free (TwCliDefects *self)
{
  if (self == NULL)
    return;
  tw_lost_events_free (self->lost);
  g_array_unref (self->repairs);
  g_object_unref (self->trace);
  g_free (self);
}

/**
 * tw_cli_defects_get_n_lost_reports:
 *
 * Returns: the lost events in the store: rows that are no event of the trace
 */
guint64
tw_cli_defects_get_n_lost_reports (const TwCliDefects *self)
{
  return tw_lost_events_get_totals (self->lost, TW_CPU_NONE)->n_reports;
}

static gboolean
is_lost_row (TwTrace *trace,
             guint64  index)
{
  TwEvent ev;

  return tw_trace_get_event (trace, index, &ev)
         && tw_trace_get_event_type (trace, ev.type)->kind == TW_EVENT_KIND_LOST;
}

/**
 * tw_cli_defects_get_time_bounds:
 * @first: (out): the time of the trace's first event, lost events left out
 * @last: (out): that of its last one
 *
 * A loss known at the end of a CTF packet can come after the packet's last event: the
 * bounds `info` prints stay those of the events, as the format's own tools print them.
 */
void
tw_cli_defects_get_time_bounds (const TwCliDefects *self,
                                TwTrace            *trace,
                                guint64            *first,
                                guint64            *last)
{
  guint64 n = tw_trace_get_n_events (trace);
  guint64 lo = 0, hi = n;

  if (tw_cli_defects_get_n_lost_reports (self) > 0)
    {
      while (lo < n && is_lost_row (trace, lo))
        lo++;
      while (hi > lo && is_lost_row (trace, hi - 1))
        hi--;
    }
  *first = lo < hi ? tw_trace_get_time (trace, lo) : tw_trace_get_first_time (trace);
  *last = lo < hi ? tw_trace_get_time (trace, hi - 1) : tw_trace_get_last_time (trace);
}

static void
add_json_totals (JsonBuilder        *builder,
                 const TwLossTotals *totals)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "reports");
  json_builder_add_int_value (builder, totals->n_reports);
  json_builder_set_member_name (builder, "events");
  json_builder_add_int_value (builder, totals->n_lost);
  json_builder_set_member_name (builder, "packets");
  json_builder_add_int_value (builder, totals->n_packets);
  json_builder_set_member_name (builder, "uncounted");
  json_builder_add_int_value (builder, totals->n_unknown);
  json_builder_end_object (builder);
}

/**
 * tw_cli_defects_add_json:
 *
 * Adds `lost` (totals, and per CPU that lost any: reports, events, packets, reports
 * that do not count their events), `repairs` (total and per CPU that had any) and
 * `truncated_events` to the object @builder is in. CPUs are named by their number, or
 * `HOST/N` in a trace of several hosts.
 */
void
tw_cli_defects_add_json (const TwCliDefects *self,
                         JsonBuilder        *builder)
{
  const TwLossTotals *all = tw_lost_events_get_totals (self->lost, TW_CPU_NONE);

  json_builder_set_member_name (builder, "lost");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "total");
  add_json_totals (builder, all);
  json_builder_set_member_name (builder, "cpus");
  json_builder_begin_object (builder);
  for (guint c = 0; c < tw_lost_events_get_n_cpus (self->lost); c++)
    {
      const TwLossTotals *totals = tw_lost_events_get_totals (self->lost, c);
      g_autofree char *name = NULL;

      if (totals->n_reports == 0)
        continue;
      name = tw_trace_dup_cpu_label (self->trace, c);
      json_builder_set_member_name (builder, name);
      add_json_totals (builder, totals);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "repairs");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, self->n_repairs);
  json_builder_set_member_name (builder, "cpus");
  json_builder_begin_object (builder);
  for (guint c = 0; c < self->repairs->len; c++)
    {
      g_autofree char *name = NULL;

      if (g_array_index (self->repairs, guint64, c) == 0)
        continue;
      name = tw_trace_dup_cpu_label (self->trace, c);
      json_builder_set_member_name (builder, name);
      json_builder_add_int_value (builder, g_array_index (self->repairs, guint64, c));
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "truncated_events");
  json_builder_add_int_value (builder, self->truncated);
}

/* "4141 events in 2 reports", "0 events and 1 whole packet in 1 report (1 without an
 * event count)", "1 report without an event count" */
static char *
describe_totals (const TwLossTotals *totals)
{
  GString *out = g_string_new (NULL);

  if (totals->n_lost == 0 && totals->n_packets == 0)
    {
      g_string_append_printf (out, "%" G_GUINT64_FORMAT " report%s without an event count",
                              totals->n_reports, totals->n_reports == 1 ? "" : "s");
      return g_string_free (out, FALSE);
    }
  g_string_append_printf (out, "%" G_GUINT64_FORMAT " event%s", totals->n_lost,
                          totals->n_lost == 1 ? "" : "s");
  if (totals->n_packets > 0)
    g_string_append_printf (out, " and %" G_GUINT64_FORMAT " whole packet%s", totals->n_packets,
                            totals->n_packets == 1 ? "" : "s");
  g_string_append_printf (out, " in %" G_GUINT64_FORMAT " report%s", totals->n_reports,
                          totals->n_reports == 1 ? "" : "s");
  if (totals->n_unknown > 0)
    g_string_append_printf (out, " (%" G_GUINT64_FORMAT " without an event count)",
                            totals->n_unknown);
  return g_string_free (out, FALSE);
}

/**
 * tw_cli_defects_print:
 *
 * Prints `lost` and `repairs` lines, each followed by one line per CPU that had any;
 * nothing for a trace without either (cut lines are in the reader's metadata).
 */
void
tw_cli_defects_print (const TwCliDefects *self)
{
  const TwLossTotals *all = tw_lost_events_get_totals (self->lost, TW_CPU_NONE);

  if (all->n_reports > 0)
    {
      g_autofree char *text = describe_totals (all);

      g_print ("%-14s %s\n", "lost", text);
      for (guint c = 0; c < tw_lost_events_get_n_cpus (self->lost); c++)
        {
          const TwLossTotals *totals = tw_lost_events_get_totals (self->lost, c);
          g_autofree char *cpu_text = NULL;
          g_autofree char *name = NULL;

          if (totals->n_reports == 0)
            continue;
          cpu_text = describe_totals (totals);
          name = tw_trace_dup_cpu_label (self->trace, c);
          g_print ("  cpu %-8s %s\n", name, cpu_text);
        }
    }
  if (self->n_repairs > 0)
    {
      g_print ("%-14s %" G_GUINT64_FORMAT " (switches naming another task than the running one)\n",
               "repairs", self->n_repairs);
      for (guint c = 0; c < self->repairs->len; c++)
        {
          g_autofree char *name = NULL;

          if (g_array_index (self->repairs, guint64, c) == 0)
            continue;
          name = tw_trace_dup_cpu_label (self->trace, c);
          g_print ("  cpu %-8s %" G_GUINT64_FORMAT "\n", name, g_array_index (self->repairs, guint64, c));
        }
    }
}
