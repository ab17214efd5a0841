/* tw-gtop-types.c: the event types the libgtop sampler writes, and what they measure
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The sampler (tw-live-gtop.c) and every reader of a recorded session (a CSV file keeps
 * the names, not the field flags) give the same schemas: the field flags say which
 * field is a CPU's load and which the memory in use, so that the counter tracks
 * (data/tw-counter-tracks.h) graph them without knowing libgtop's names.
 */
#include "config.h"

#include "tw-gtop-types.h"

#include <string.h>

static const TwFieldSpec cpu_load_fields[] = {
  { "load_pct",   TW_FIELD_F64, TW_FIELD_FLAG_CPU_LOAD },
  { "user_pct",   TW_FIELD_F64, TW_FIELD_FLAG_NONE },
  { "system_pct", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
  { "iowait_pct", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
};

static const TwFieldSpec memory_fields[] = {
  { "total",    TW_FIELD_U64, TW_FIELD_FLAG_MEMORY_TOTAL },
  { "used",     TW_FIELD_U64, TW_FIELD_FLAG_MEMORY_USED },
  { "free",     TW_FIELD_U64, TW_FIELD_FLAG_NONE },
  { "cached",   TW_FIELD_U64, TW_FIELD_FLAG_NONE },
  { "buffer",   TW_FIELD_U64, TW_FIELD_FLAG_NONE },
  { "used_pct", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
};

static const struct {
  const char        *name;
  TwCounterKind      kind;
  const TwFieldSpec *fields;
  guint              n_fields;
} gtop_types[] = {
  { "gtop_cpu_load", TW_COUNTER_CPU_LOAD, cpu_load_fields, G_N_ELEMENTS (cpu_load_fields) },
  { "gtop_memory",   TW_COUNTER_MEMORY,   memory_fields,   G_N_ELEMENTS (memory_fields) },
};

/**
 * tw_gtop_add_type:
 * @kind: %TW_COUNTER_CPU_LOAD for `gtop_cpu_load`, %TW_COUNTER_MEMORY for `gtop_memory`
 *
 * Registers (or finds) the event type the libgtop sampler writes for @kind.
 *
 * Returns: the type, or %TW_TYPE_NONE with @error set when @trace has the name with
 *   other fields
 */
guint16
tw_gtop_add_type (TwTrace        *trace,
                  TwCounterKind   kind,
                  GError        **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), TW_TYPE_NONE);

  for (guint i = 0; i < G_N_ELEMENTS (gtop_types); i++)
    if (gtop_types[i].kind == kind)
      return tw_trace_add_event_type (trace, gtop_types[i].name, "gtop", TW_EVENT_KIND_OTHER,
                                      gtop_types[i].fields, gtop_types[i].n_fields, error);
  g_return_val_if_reached (TW_TYPE_NONE);
}

/**
 * tw_gtop_field_flags:
 *
 * For a reader of a recorded session: what the sampler says field @field_name of its
 * event @type_name measures.
 *
 * Returns: the counter flag of the field (%TW_FIELD_FLAG_CPU_LOAD, ...), or
 *   %TW_FIELD_FLAG_NONE when the sampler writes no such field
 */
TwFieldFlags
tw_gtop_field_flags (const char *type_name,
                     const char *field_name)
{
  for (guint i = 0; i < G_N_ELEMENTS (gtop_types); i++)
    if (strcmp (gtop_types[i].name, type_name) == 0)
      for (guint f = 0; f < gtop_types[i].n_fields; f++)
        if (strcmp (gtop_types[i].fields[f].name, field_name) == 0)
          return gtop_types[i].fields[f].flags;
  return TW_FIELD_FLAG_NONE;
}
