/* tw-lost-events.h: events a source says it dropped, as events of the store
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

/*
 * A loss is one event of kind TW_EVENT_KIND_LOST on the CPU whose buffer lost events,
 * at the time the loss became known: the time of the first event kept after it (ftrace
 * marks that event's page, CTF the packet after the gap). Its arg column holds the
 * number of events lost, clamped to G_MAXUINT32, 0 when the source does not say; its
 * fields are
 *
 *   count    U64, optional: events lost (absent: unknown)
 *   packets  U64, optional: whole packets lost (CTF), whose events nobody counted
 *   since    U64, optional: ns; the loss began after this time (CTF says when the gap
 *            began); absent: after the previous event of that CPU in the store
 *
 * Kept in the store, not in a side table, so that the event list, the timeline, the
 * evaluators and every copy of the store (readers running in another process) carry
 * them without knowing about them.
 */
#define TW_LOST_COUNT_UNKNOWN 0

guint16 tw_lost_events_add_type (TwTrace           *trace,
                                 const char        *name,
                                 GError           **error);
void    tw_lost_events_pack     (const TwEventType *type,
                                 guint8            *payload,
                                 guint64            count,
                                 guint64            packets,
                                 guint64            since_ns);
void    tw_lost_events_append   (TwTrace           *trace,
                                 guint16            type,
                                 guint64            time_ns,
                                 guint16            cpu,
                                 guint64            count,
                                 guint64            packets,
                                 guint64            since_ns);

static inline guint32
tw_lost_events_arg (guint64 count)
{
  return (guint32) MIN (count, (guint64) G_MAXUINT32);
}

/* One loss: events of @cpu in (begin, end) may be missing from the store. */
typedef struct {
  guint64 begin;   /* ns */
  guint64 end;     /* ns, the lost event's time */
  guint64 count;   /* events lost, TW_LOST_COUNT_UNKNOWN when the source does not say */
  guint64 packets; /* whole packets lost, 0 when none or not known */
  guint64 index;   /* the lost event in the trace */
  guint16 cpu;     /* or TW_CPU_NONE */
} TwLoss;

typedef struct {
  guint64 n_reports;   /* lost events in the store */
  guint64 n_lost;      /* the events they count */
  guint64 n_packets;   /* the whole packets they count */
  guint64 n_unknown;   /* reports that do not count events */
} TwLossTotals;

typedef struct _TwLostEvents TwLostEvents;

TwLostEvents       *tw_lost_events_new            (TwTrace        *trace);
void                tw_lost_events_free           (TwLostEvents   *self);
const TwLoss       *tw_lost_events_get_losses     (TwLostEvents   *self,
                                                   gsize          *n_losses);
guint               tw_lost_events_get_n_cpus     (TwLostEvents   *self);
const TwLossTotals *tw_lost_events_get_totals     (TwLostEvents   *self,
                                                   guint           cpu);
guint64             tw_lost_events_count_between  (TwLostEvents   *self,
                                                   guint64         begin_ns,
                                                   guint64         end_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwLostEvents, tw_lost_events_free)

G_END_DECLS
