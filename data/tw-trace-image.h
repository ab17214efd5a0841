/* tw-trace-image.h: a trace's store in a file that two processes map
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

/**
 * TwTraceImage:
 *
 * A memory file (memfd) holding a trace's event chunks where they are written, plus an
 * index of its tables, so that one process can read a trace and another map it without
 * copying a row (see docs/out-of-process-reading.md). Reference counted; not thread
 * safe beyond that (one trace uses it at a time).
 */
typedef struct _TwTraceImage TwTraceImage;

/* the mapping side */
TwTraceImage *tw_trace_image_new             (GError        **error);
int           tw_trace_image_get_fd          (TwTraceImage   *self);
guint         tw_trace_image_get_n_warm_slots (TwTraceImage  *self);
TwTrace      *tw_trace_image_open_trace      (TwTraceImage   *self,
                                              GError        **error);

/* the writing side */
TwTraceImage *tw_trace_image_new_for_fd      (int             fd,
                                              guint           n_warm_slots);
TwTrace      *tw_trace_image_new_trace       (TwTraceImage   *self);
gboolean      tw_trace_image_is_failed       (TwTraceImage   *self);
gboolean      tw_trace_image_publish         (TwTraceImage   *self,
                                              TwTrace        *trace,
                                              guint64        *index_at,
                                              guint64        *end,
                                              GError        **error);

 /* a file of its own (the trace cache): written from any sealed trace, mapped read-only */
gboolean      tw_trace_image_write_file      (TwTrace        *trace,
                                              int             fd,
                                              guint64        *index_at,
                                              guint64        *end,
                                              GError        **error);
TwTrace      *tw_trace_image_open_file       (int             fd,
                                              guint64        *index_at,
                                              guint64        *end,
                                              GError        **error);

TwTraceImage *tw_trace_image_ref             (TwTraceImage   *self);
void          tw_trace_image_unref           (TwTraceImage   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTraceImage, tw_trace_image_unref)

G_END_DECLS
