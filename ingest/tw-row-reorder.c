/* tw-row-reorder.c: rows held back until a horizon, then queued in time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tw-row-reorder-private.h"

typedef struct {
  guint64 time;
  guint32 task, arg;
  guint32 offset;      /* in the blob */
  guint16 cpu, type;
  guint16 size;
} TwHeldRow;

/* the blob is compacted once this much of it belongs to rows already queued */
#define COMPACT_BYTES (1u << 20)

void
_tw_row_reorder_init (TwRowReorder *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (TwHeldRow));
  self->blob = g_byte_array_new ();
  self->dead = 0;
}

void
_tw_row_reorder_clear (TwRowReorder *self)
{
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->blob, g_byte_array_unref);
}

gboolean
_tw_row_reorder_is_empty (const TwRowReorder *self)
{
  return self->rows->len == 0;
}

void
_tw_row_reorder_hold (TwRowReorder  *self,
                      guint64        time_ns,
                      guint16        cpu,
                      guint16        type,
                      guint32        task,
                      guint32        arg,
                      const guint8  *payload,
                      guint          payload_size)
{
  TwHeldRow row = { time_ns, task, arg, self->blob->len, cpu, type, payload_size };
  guint lo = 0, hi = self->rows->len;

  g_byte_array_append (self->blob, payload, payload_size);
  /* most rows come in order: after the last; an older one after every row not later */
  if (hi > 0 && g_array_index (self->rows, TwHeldRow, hi - 1).time > time_ns)
    while (lo < hi)
      {
        guint mid = lo + (hi - lo) / 2;

        if (g_array_index (self->rows, TwHeldRow, mid).time <= time_ns)
          lo = mid + 1;
        else
          hi = mid;
      }
  g_array_insert_val (self->rows, hi, row);
}

/* Rows still held get their payloads moved to a blob of their own. */
static void
compact (TwRowReorder *self)
{
  GByteArray *blob = g_byte_array_sized_new (self->blob->len - self->dead);

  for (guint i = 0; i < self->rows->len; i++)
    {
      TwHeldRow *row = &g_array_index (self->rows, TwHeldRow, i);

      g_byte_array_append (blob, self->blob->data + row->offset, row->size);
      row->offset = blob->len - row->size;
    }
  g_byte_array_unref (self->blob);
  self->blob = blob;
  self->dead = 0;
}

/**
 * _tw_row_reorder_release:
 * @limit: queue the rows at or before this time (G_MAXUINT64: all)
 * @last_time: (out): the time of the last row queued, when any was
 *
 * Returns: how many rows went into @queue
 */
guint64
_tw_row_reorder_release (TwRowReorder *self,
                         TwLiveQueue  *queue,
                         guint64       limit,
                         guint64      *last_time)
{
  guint n = 0;

  while (n < self->rows->len && g_array_index (self->rows, TwHeldRow, n).time <= limit)
    {
      const TwHeldRow *row = &g_array_index (self->rows, TwHeldRow, n);

      tw_live_queue_push (queue, row->time, row->cpu, row->type, row->task, row->arg,
                          self->blob->data + row->offset, row->size);
      self->dead += row->size;
      *last_time = row->time;
      n++;
    }
  g_array_remove_range (self->rows, 0, n);
  if (self->rows->len == 0)
    {
      g_byte_array_set_size (self->blob, 0);
      self->dead = 0;
    }
  else if (self->dead >= COMPACT_BYTES && self->dead * 2 >= self->blob->len)
    compact (self);
  return n;
}
