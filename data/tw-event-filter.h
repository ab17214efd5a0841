/* tw-event-filter.h: which rows of a trace an event list shows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

/**
 * TwEventFilter:
 *
 * A row passes when its type is in the type set, its task in the task set and its CPU in
 * the CPU set (an unset set lets every row through), and, when a text was given, when its
 * type name or its task label contains that text. Sets are bitmaps, so testing a row costs
 * three bit tests and never allocates: filters run over millions of rows in a thread.
 * A filter is immutable once handed to a model; build a new one to change it.
 */
typedef struct _TwEventFilter TwEventFilter;

#define TW_TYPE_EVENT_FILTER (tw_event_filter_get_type ())
GType          tw_event_filter_get_type     (void) G_GNUC_CONST;

TwEventFilter *tw_event_filter_new          (void);
TwEventFilter *tw_event_filter_ref          (TwEventFilter *self);
void           tw_event_filter_unref        (TwEventFilter *self);

void           tw_event_filter_add_type     (TwEventFilter *self,
                                             guint16        type);
void           tw_event_filter_add_task     (TwEventFilter *self,
                                             guint32        task);
void           tw_event_filter_add_cpu      (TwEventFilter *self,
                                             guint16        cpu);
void           tw_event_filter_set_text     (TwEventFilter *self,
                                             TwTrace       *trace,
                                             const char    *text);
gboolean       tw_event_filter_is_all       (const TwEventFilter *self);
gboolean       tw_event_filter_matches      (const TwEventFilter *self,
                                             guint16        type,
                                             guint32        task,
                                             guint16        cpu);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwEventFilter, tw_event_filter_unref)

G_END_DECLS
