/* tw-row-reorder-private.h: rows held back until a horizon, then queued in time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-monitor.h"

G_BEGIN_DECLS

/*
 * A live source whose rows come out of time order within a known bound (a target's
 * monitor sends one sensor ring's batch after another's, each element at its own, older
 * time) holds them here and queues them, sorted, once its horizon has passed them: the
 * monitor's merge takes each source's queue in order.
 */
typedef struct {
  GArray     *rows;   /* TwHeldRow, by time; rows of one time in the order they came */
  GByteArray *blob;   /* their payloads */
  gsize       dead;   /* bytes of @blob whose rows were queued */
} TwRowReorder;

void     _tw_row_reorder_init     (TwRowReorder *self);
void     _tw_row_reorder_clear    (TwRowReorder *self);
gboolean _tw_row_reorder_is_empty (const TwRowReorder *self);
void     _tw_row_reorder_hold     (TwRowReorder  *self,
                                   guint64        time_ns,
                                   guint16        cpu,
                                   guint16        type,
                                   guint32        task,
                                   guint32        arg,
                                   const guint8  *payload,
                                   guint          payload_size);
guint64  _tw_row_reorder_release  (TwRowReorder  *self,
                                   TwLiveQueue   *queue,
                                   guint64        limit,
                                   guint64       *last_time);

G_END_DECLS
