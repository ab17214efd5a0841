/* tw-lost-events.c: events a source says it dropped, as events of the store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-lost-events.h"

enum {
  FIELD_COUNT,
  FIELD_PACKETS,
  FIELD_SINCE,
};

static const TwFieldSpec lost_fields[] = {
  [FIELD_COUNT] = { "count", TW_FIELD_U64, TW_FIELD_FLAG_OPTIONAL },
  [FIELD_PACKETS] = { "packets", TW_FIELD_U64, TW_FIELD_FLAG_OPTIONAL },
  [FIELD_SINCE] = { "since", TW_FIELD_U64, TW_FIELD_FLAG_OPTIONAL },
};

struct _TwLostEvents {
  GArray       *losses;     /* TwLoss, by end */
  GArray       *totals;     /* TwLossTotals per CPU */
  TwLossTotals  all;
  guint64       max_span;   /* of end − begin over the losses */
};

/**
 * tw_lost_events_add_type:
 * @name: the source's name for it ("lost_events", "discarded_packets", ...)
 *
 * Adds an event type of kind TW_EVENT_KIND_LOST with the fields of tw-lost-events.h.
 *
 * Returns: the type, or TW_TYPE_NONE with @error set
 */
guint16
tw_lost_events_add_type (TwTrace     *trace,
                         const char  *name,
                         GError     **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), TW_TYPE_NONE);

  return tw_trace_add_event_type (trace, name, NULL, TW_EVENT_KIND_LOST, lost_fields,
                                  G_N_ELEMENTS (lost_fields), error);
}

/**
 * tw_lost_events_pack:
 * @type: a type of tw_lost_events_add_type()
 * @payload: (out caller-allocates): type->payload_size bytes
 * @count: events lost, or TW_LOST_COUNT_UNKNOWN
 * @packets: whole packets lost, or 0
 * @since_ns: when the loss began, or TW_TIME_NONE
 */
void
tw_lost_events_pack (const TwEventType *type,
                     guint8            *payload,
                     guint64            count,
                     guint64            packets,
                     guint64            since_ns)
{
  TwValue value = { .type = TW_FIELD_U64 };

  g_return_if_fail (type != NULL && type->kind == TW_EVENT_KIND_LOST);

  memset (payload, 0, type->payload_size);
  if (count != TW_LOST_COUNT_UNKNOWN)
    {
      value.u = count;
      tw_event_type_set_field (type, payload, FIELD_COUNT, &value);
    }
  if (packets != 0)
    {
      value.u = packets;
      tw_event_type_set_field (type, payload, FIELD_PACKETS, &value);
    }
  if (since_ns != TW_TIME_NONE)
    {
      value.u = since_ns;
      tw_event_type_set_field (type, payload, FIELD_SINCE, &value);
    }
}

/**
 * tw_lost_events_append:
 *
 * Appends a loss of @count events (or TW_LOST_COUNT_UNKNOWN) and @packets packets known
 * at @time_ns on @cpu, begun after @since_ns (or TW_TIME_NONE: after the CPU's previous
 * event).
 */
void
tw_lost_events_append (TwTrace *trace,
                       guint16  type,
                       guint64  time_ns,
                       guint16  cpu,
                       guint64  count,
                       guint64  packets,
                       guint64  since_ns)
{
  const TwEventType *info = tw_trace_get_event_type (trace, type);
  guint8 payload[64];

  g_return_if_fail (info != NULL && info->payload_size <= sizeof payload);

  tw_lost_events_pack (info, payload, count, packets, since_ns);
  tw_trace_append (trace, time_ns, cpu, type, TW_TASK_NONE, tw_lost_events_arg (count), payload);
}

static TwLossTotals *
totals_for (TwLostEvents *self,
            guint16       cpu)
{
  if (cpu >= self->totals->len)
    g_array_set_size (self->totals, cpu + 1);
  return &g_array_index (self->totals, TwLossTotals, cpu);
}

static void
add_totals (TwLossTotals *totals,
            const TwLoss *loss)
{
  totals->n_reports++;
  totals->n_lost += loss->count;
  totals->n_packets += loss->packets;
  totals->n_unknown += loss->count == TW_LOST_COUNT_UNKNOWN;
}

static void
add_loss (TwLostEvents *self,
          TwTrace      *trace,
          const TwEvent *ev,
          guint64       previous)
{
  TwLoss loss = { previous, ev->time, TW_LOST_COUNT_UNKNOWN, 0, ev->index, ev->cpu };
  TwValue value;

  if (tw_trace_get_event_field (trace, ev, "count", &value))
    loss.count = value.u;
  if (tw_trace_get_event_field (trace, ev, "packets", &value))
    loss.packets = value.u;
  if (tw_trace_get_event_field (trace, ev, "since", &value) && value.u <= ev->time)
    loss.begin = value.u;
  g_array_append_val (self->losses, loss);
  self->max_span = MAX (self->max_span, loss.end - loss.begin);

  add_totals (&self->all, &loss);
  if (ev->cpu != TW_CPU_NONE)
    add_totals (totals_for (self, ev->cpu), &loss);
}

static gboolean
has_lost_type (TwTrace *trace)
{
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    if (tw_trace_get_event_type (trace, t)->kind == TW_EVENT_KIND_LOST)
      return TRUE;
  return FALSE;
}

/**
 * tw_lost_events_new:
 *
 * Collects the losses of @trace (sealed, or a live trace as far as it goes). A trace
 * without a type of kind TW_EVENT_KIND_LOST costs nothing; otherwise one pass over the
 * type and CPU columns, to find each loss's previous event on its CPU.
 *
 * Returns: (transfer full): the losses, by time
 */
TwLostEvents *
tw_lost_events_new (TwTrace *trace)
{
  g_autoptr(TwLostEvents) self = g_new0 (TwLostEvents, 1);
  g_autoptr(GArray) previous = NULL;  /* guint64 per CPU, the last one for TW_CPU_NONE */
  guint64 n, first;
  guint n_types;
  g_autofree guint8 *is_lost = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self->losses = g_array_new (FALSE, FALSE, sizeof (TwLoss));
  self->totals = g_array_new (FALSE, TRUE, sizeof (TwLossTotals));
  g_array_set_size (self->totals, tw_trace_get_n_cpus (trace));
  if (!has_lost_type (trace))
    return g_steal_pointer (&self);

  n_types = tw_trace_get_n_event_types (trace);
  is_lost = g_new0 (guint8, n_types);
  for (guint t = 0; t < n_types; t++)
    is_lost[t] = tw_trace_get_event_type (trace, t)->kind == TW_EVENT_KIND_LOST;

  n = tw_trace_get_n_events (trace);
  first = tw_trace_get_first_time (trace);
  previous = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 i = 0; i < n; i++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, i >> TW_CHUNK_SHIFT);
      guint row = i & TW_CHUNK_MASK;
      guint16 cpu = chunk->cpu[row];
      guint slot = cpu == TW_CPU_NONE ? 0 : cpu + 1u;

      if (slot >= previous->len)
        {
          guint old = previous->len;

          g_array_set_size (previous, slot + 1);
          for (guint s = old; s <= slot; s++)
            g_array_index (previous, guint64, s) = first;
        }
      if (chunk->type[row] < n_types && is_lost[chunk->type[row]])
        {
          TwEvent ev;

          tw_trace_get_event (trace, i, &ev);
          add_loss (self, trace, &ev, g_array_index (previous, guint64, slot));
        }
      g_array_index (previous, guint64, slot) = chunk->time[row];
    }
  return g_steal_pointer (&self);
}

void
tw_lost_events_free (TwLostEvents *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->losses, g_array_unref);
  g_clear_pointer (&self->totals, g_array_unref);
  g_free (self);
}

/**
 * tw_lost_events_get_losses:
 * @n_losses: (out): how many
 *
 * Returns: (transfer none) (array length=n_losses): the losses, by end
 */
const TwLoss *
tw_lost_events_get_losses (TwLostEvents *self,
                           gsize        *n_losses)
{
  g_return_val_if_fail (self != NULL, NULL);

  *n_losses = self->losses->len;
  return (const TwLoss *) (gpointer) self->losses->data;
}

/**
 * tw_lost_events_get_n_cpus:
 *
 * Returns: the CPUs tw_lost_events_get_totals() knows (the trace's, at least)
 */
guint
tw_lost_events_get_n_cpus (TwLostEvents *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->totals->len;
}

/**
 * tw_lost_events_get_totals:
 * @cpu: a CPU, or TW_CPU_NONE for the whole trace (losses without a CPU included)
 *
 * Returns: (transfer none): the losses of @cpu summed; zeros for a CPU that lost none
 */
const TwLossTotals *
tw_lost_events_get_totals (TwLostEvents *self,
                           guint         cpu)
{
  static const TwLossTotals none;

  g_return_val_if_fail (self != NULL, &none);

  if (cpu == TW_CPU_NONE)
    return &self->all;
  if (cpu >= self->totals->len)
    return &none;
  return &g_array_index (self->totals, TwLossTotals, cpu);
}

/**
 * tw_lost_events_count_between:
 *
 * What a measurement from @begin_ns to @end_ns may be missing: the losses on any CPU
 * whose gap overlaps it, each counted by its events lost (when it does not say: by its
 * packets lost, or 1; at least one event was).
 *
 * Returns: at least how many events were lost while the measurement ran; 0 when none
 */
guint64
tw_lost_events_count_between (TwLostEvents *self,
                              guint64       begin_ns,
                              guint64       end_ns)
{
  const TwLoss *losses;
  guint64 total = 0;
  guint64 last_end;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, 0);

  losses = (const TwLoss *) (gpointer) self->losses->data;
  hi = self->losses->len;
  /* the first loss known after @begin_ns; none known later than @end_ns + max_span
   * can have begun before @end_ns */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (losses[mid].end <= begin_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  last_end = end_ns > G_MAXUINT64 - self->max_span ? G_MAXUINT64 : end_ns + self->max_span;
  for (gsize i = lo; i < self->losses->len && losses[i].end <= last_end; i++)
    if (losses[i].begin < end_ns)
      total += losses[i].count != TW_LOST_COUNT_UNKNOWN ? losses[i].count
               : MAX (losses[i].packets, 1);
  return total;
}
