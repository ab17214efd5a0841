/* tw-trace-model.h: a GListModel over a trace's rows, items made on demand
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tw-event-filter.h"
#include "tw-event-item.h"
#include "tw-trace.h"

G_BEGIN_DECLS

#define TW_TYPE_TRACE_MODEL (tw_trace_model_get_type ())
G_DECLARE_FINAL_TYPE (TwTraceModel, tw_trace_model, TW, TRACE_MODEL, GObject)

TwTraceModel  *tw_trace_model_new               (TwTrace             *trace);
TwTrace       *tw_trace_model_get_trace         (TwTraceModel        *self);
TwEventFilter *tw_trace_model_get_filter        (TwTraceModel        *self);

gboolean       tw_trace_model_set_filter        (TwTraceModel        *self,
                                                 TwEventFilter       *filter,
                                                 GCancellable        *cancellable,
                                                 GError             **error);
void           tw_trace_model_set_filter_async  (TwTraceModel        *self,
                                                 TwEventFilter       *filter,
                                                 GCancellable        *cancellable,
                                                 GAsyncReadyCallback  callback,
                                                 gpointer             user_data);
gboolean       tw_trace_model_set_filter_finish (TwTraceModel        *self,
                                                 GAsyncResult        *result,
                                                 GError             **error);

guint64        tw_trace_model_get_event_index   (TwTraceModel        *self,
                                                 guint                position);
guint          tw_trace_model_find_position     (TwTraceModel        *self,
                                                 guint64              index,
                                                 gboolean            *exact);
void           tw_trace_model_update            (TwTraceModel        *self);

G_END_DECLS
