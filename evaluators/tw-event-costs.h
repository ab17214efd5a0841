/* tw-event-costs.h: the tracing cost of each event type of a trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Espinosa et al., *Getting System Metrics Using POSIX Tracing Services* (Ada-Europe
 * 2003), §2: a measurement's overhead is what storing its intermediate events cost.
 * One cost per source is enough for a trace whose events all cost alike; a kernel
 * event with a large payload (sched_switch) costs more than a small one, and a live
 * trace mixes kernel events with sensor writes. So a cost may be given per event
 * type — `sched_switch=1.2us,irq_handler_entry=0.6us,*=0.8us` — and the overhead of a
 * measurement is the sum of its intermediate events' own costs.
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

#define TW_TYPE_EVENT_COSTS (tw_event_costs_get_type ())
G_DECLARE_FINAL_TYPE (TwEventCosts, tw_event_costs, TW, EVENT_COSTS, GObject)

TwEventCosts *tw_event_costs_new_uniform   (double              cost_ns);
TwEventCosts *tw_event_costs_parse         (const char         *text,
                                            GError            **error);
gboolean      tw_event_costs_add           (TwEventCosts       *self,
                                            const char         *type,
                                            const char         *cost,
                                            GError            **error);
void          tw_event_costs_set_type_cost (TwEventCosts       *self,
                                            const char         *type,
                                            double              cost_ns);
void          tw_event_costs_set_default   (TwEventCosts       *self,
                                            double              cost_ns);
gboolean      tw_event_costs_is_uniform    (TwEventCosts       *self);
double        tw_event_costs_get_default   (TwEventCosts       *self);
gboolean      tw_event_costs_is_zero       (TwEventCosts       *self);
guint64       tw_event_costs_get_type_cost_ps (TwEventCosts    *self,
                                            const TwEventType  *type);
char         *tw_event_costs_to_string     (TwEventCosts       *self);

G_END_DECLS
