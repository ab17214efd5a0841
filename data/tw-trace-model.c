/* tw-trace-model.c: a GListModel over a trace's rows, items made on demand
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-trace-model.h"

/*
 * Position → row costs nothing without a filter (the position is the row). With a
 * filter, the matching rows are kept per block of 64 Ki rows as 16-bit offsets (2 bytes
 * per match) with a cumulative count per block, so position → row is a binary search over
 * blocks and row → position a binary search inside one block: no O(n) work when a list
 * scrolls or jumps, and no object per row. Items are made in get_item, for the rows a
 * list shows, as Sysprof's document model does.
 *
 * GListModel counts in guint: a trace of more than G_MAXUINT rows shows its first
 * G_MAXUINT rows.
 */

#define BLOCK_SHIFT 16
#define BLOCK_SIZE  (1u << BLOCK_SHIFT)
#define BLOCK_MASK  (BLOCK_SIZE - 1)

/* a store chunk holds whole blocks, so a block's rows are in one chunk */
G_STATIC_ASSERT (TW_CHUNK_SHIFT >= BLOCK_SHIFT);

typedef struct {
  GArray  *rows;        /* guint16: matching rows' offsets in their block, in trace order */
  GArray  *block_ends;  /* guint: matches in blocks [0, b], one entry per scanned block */
  guint64  scanned;     /* trace rows looked at so far */
} FilterIndex;

struct _TwTraceModel
{
  GObject        parent_instance;

  TwTrace       *trace;
  TwEventFilter *filter;      /* NULL: every row */
  FilterIndex   *index;       /* NULL iff filter is NULL */
  guint64        n_rows;      /* trace rows the model has announced (≤ n_events) */
  guint          n_items;
  guint          generation;  /* bumped by every set_filter: stale async results lose */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwTraceModel, tw_trace_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static FilterIndex *
filter_index_new (void)
{
  FilterIndex *idx = g_new0 (FilterIndex, 1);

  idx->rows = g_array_new (FALSE, FALSE, sizeof (guint16));
  idx->block_ends = g_array_new (FALSE, FALSE, sizeof (guint));
  return idx;
}

static void
filter_index_free (FilterIndex *idx)
{
  g_array_unref (idx->rows);
  g_array_unref (idx->block_ends);
  g_free (idx);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (FilterIndex, filter_index_free)

/* Scans rows [idx->scanned, upto) of @trace; checks @cancellable once per block. */
static gboolean
filter_index_scan (FilterIndex         *idx,
                   const TwEventFilter *filter,
                   TwTrace             *trace,
                   guint64              upto,
                   GCancellable        *cancellable,
                   GError             **error)
{
  while (idx->scanned < upto && idx->rows->len < G_MAXUINT)
    {
      guint b = idx->scanned >> BLOCK_SHIFT;
      guint64 block_start = (guint64) b << BLOCK_SHIFT;
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, idx->scanned >> TW_CHUNK_SHIFT);
      guint base = block_start & TW_CHUNK_MASK;   /* the block's first row in its chunk */
      guint row = idx->scanned & BLOCK_MASK;
      guint row_end = (guint) MIN ((guint64) BLOCK_SIZE, upto - block_start);

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      if (idx->block_ends->len <= b)
        g_array_append_val (idx->block_ends, idx->rows->len);

      for (; row < row_end; row++)
        if (tw_event_filter_matches (filter, chunk->type[base + row], chunk->task[base + row],
                                     chunk->cpu[base + row]))
          {
            guint16 r = row;
            g_array_append_val (idx->rows, r);
          }

      g_array_index (idx->block_ends, guint, b) = idx->rows->len;
      idx->scanned = block_start + row_end;
    }
  return TRUE;
}

static GType
tw_trace_model_get_item_type (GListModel *model)
{
  return TW_TYPE_EVENT_ITEM;
}

static guint
tw_trace_model_get_n_items (GListModel *model)
{
  return TW_TRACE_MODEL (model)->n_items;
}

static gpointer
tw_trace_model_get_item (GListModel *model,
                         guint       position)
{
  TwTraceModel *self = TW_TRACE_MODEL (model);
  guint64 index = tw_trace_model_get_event_index (self, position);

  if (index == TW_EVENT_NONE)
    return NULL;
  return tw_event_item_new (self->trace, index);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = tw_trace_model_get_item_type;
  iface->get_n_items = tw_trace_model_get_n_items;
  iface->get_item = tw_trace_model_get_item;
}

static void
tw_trace_model_finalize (GObject *object)
{
  TwTraceModel *self = (TwTraceModel *)object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->filter, tw_event_filter_unref);
  g_clear_pointer (&self->index, filter_index_free);

  G_OBJECT_CLASS (tw_trace_model_parent_class)->finalize (object);
}

static void
tw_trace_model_class_init (TwTraceModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_trace_model_finalize;
}

static void
tw_trace_model_init (TwTraceModel *self)
{
}

static guint
count_items (TwTraceModel *self)
{
  if (self->index)
    return self->index->rows->len;
  return (guint) MIN (self->n_rows, (guint64) G_MAXUINT);
}

/**
 * tw_trace_model_new:
 *
 * Returns: (transfer full): a model showing every row @trace has now; call
 *   tw_trace_model_update() to pick up rows a growing trace appends later
 */
TwTraceModel *
tw_trace_model_new (TwTrace *trace)
{
  TwTraceModel *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_TRACE_MODEL, NULL);
  self->trace = g_object_ref (trace);
  self->n_rows = tw_trace_get_n_events (trace);
  self->n_items = count_items (self);
  return self;
}

/**
 * tw_trace_model_get_trace:
 *
 * Returns: (transfer none): the trace
 */
TwTrace *
tw_trace_model_get_trace (TwTraceModel *self)
{
  g_return_val_if_fail (TW_IS_TRACE_MODEL (self), NULL);

  return self->trace;
}

/**
 * tw_trace_model_get_filter:
 *
 * Returns: (transfer none) (nullable): the filter in effect, %NULL when every row shows
 */
TwEventFilter *
tw_trace_model_get_filter (TwTraceModel *self)
{
  g_return_val_if_fail (TW_IS_TRACE_MODEL (self), NULL);

  return self->filter;
}

/* Main thread: install a built index (or none) and tell the lists everything changed. */
static void
install_filter (TwTraceModel  *self,
                TwEventFilter *filter,
                FilterIndex   *idx)
{
  guint old_n = self->n_items;

  g_clear_pointer (&self->filter, tw_event_filter_unref);
  g_clear_pointer (&self->index, filter_index_free);
  self->filter = filter;
  self->index = idx;

  /* Rows the trace appended while the index was built in a thread. */
  if (self->index)
    filter_index_scan (self->index, self->filter, self->trace, self->n_rows, NULL, NULL);

  self->n_items = count_items (self);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_n, self->n_items);
}

/**
 * tw_trace_model_set_filter:
 * @filter: (nullable): rows to show; %NULL (or a filter that lets all through) for all
 *
 * Filters in the calling thread; use tw_trace_model_set_filter_async() for big traces.
 *
 * Returns: %FALSE when cancelled (the model is unchanged)
 */
gboolean
tw_trace_model_set_filter (TwTraceModel   *self,
                           TwEventFilter  *filter,
                           GCancellable   *cancellable,
                           GError        **error)
{
  g_autoptr(FilterIndex) idx = NULL;

  g_return_val_if_fail (TW_IS_TRACE_MODEL (self), FALSE);

  self->generation++;
  if (filter == NULL || tw_event_filter_is_all (filter))
    {
      install_filter (self, NULL, NULL);
      return TRUE;
    }

  idx = filter_index_new ();
  if (!filter_index_scan (idx, filter, self->trace, self->n_rows, cancellable, error))
    return FALSE;
  install_filter (self, tw_event_filter_ref (filter), g_steal_pointer (&idx));
  return TRUE;
}

typedef struct {
  TwEventFilter *filter;
  TwTrace       *trace;
  guint64        n_rows;
  guint          generation;
} FilterJob;

static void
filter_job_free (FilterJob *job)
{
  g_clear_pointer (&job->filter, tw_event_filter_unref);
  g_clear_object (&job->trace);
  g_free (job);
}

static void
filter_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  FilterJob *job = task_data;
  g_autoptr(FilterIndex) idx = filter_index_new ();
  GError *error = NULL;

  if (!filter_index_scan (idx, job->filter, job->trace, job->n_rows, cancellable, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&idx), (GDestroyNotify) filter_index_free);
}

/**
 * tw_trace_model_set_filter_async:
 * @filter: (nullable): rows to show; %NULL for all
 *
 * Builds the row index in a thread; the model keeps showing the old rows until
 * tw_trace_model_set_filter_finish() installs the new ones. A later call supersedes
 * an earlier one that has not finished (its finish reports %G_IO_ERROR_CANCELLED).
 */
void
tw_trace_model_set_filter_async (TwTraceModel        *self,
                                 TwEventFilter       *filter,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  FilterJob *job;

  g_return_if_fail (TW_IS_TRACE_MODEL (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, tw_trace_model_set_filter_async);

  job = g_new0 (FilterJob, 1);
  job->filter = filter && !tw_event_filter_is_all (filter) ? tw_event_filter_ref (filter) : NULL;
  job->trace = g_object_ref (self->trace);
  job->n_rows = self->n_rows;
  job->generation = ++self->generation;
  g_task_set_task_data (task, job, (GDestroyNotify) filter_job_free);

  if (job->filter == NULL)
    g_task_return_pointer (task, NULL, NULL);
  else
    g_task_run_in_thread (task, filter_thread);
}

/**
 * tw_trace_model_set_filter_finish:
 *
 * Returns: %FALSE when the filter was cancelled or superseded (the model is unchanged)
 */
gboolean
tw_trace_model_set_filter_finish (TwTraceModel  *self,
                                  GAsyncResult  *result,
                                  GError       **error)
{
  FilterJob *job;
  FilterIndex *idx;
  GError *local_error = NULL;

  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  job = g_task_get_task_data (G_TASK (result));
  idx = g_task_propagate_pointer (G_TASK (result), &local_error);
  if (local_error)
    {
      g_propagate_error (error, local_error);
      return FALSE;
    }
  if (job->generation != self->generation)
    {
      g_clear_pointer (&idx, filter_index_free);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                           "A newer filter replaced this one");
      return FALSE;
    }

  install_filter (self, job->filter ? tw_event_filter_ref (job->filter) : NULL, idx);
  return TRUE;
}

/**
 * tw_trace_model_get_event_index:
 *
 * Returns: the trace row shown at @position, or %TW_EVENT_NONE past the end
 */
guint64
tw_trace_model_get_event_index (TwTraceModel *self,
                                guint         position)
{
  const guint *ends;
  guint lo, hi;

  g_return_val_if_fail (TW_IS_TRACE_MODEL (self), TW_EVENT_NONE);

  if (position >= self->n_items)
    return TW_EVENT_NONE;
  if (self->index == NULL)
    return position;

  /* the first block whose cumulative count exceeds position */
  ends = (const guint *) (gpointer) self->index->block_ends->data;
  lo = 0;
  hi = self->index->block_ends->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (ends[mid] <= position)
        lo = mid + 1;
      else
        hi = mid;
    }
  return ((guint64) lo << BLOCK_SHIFT) | g_array_index (self->index->rows, guint16, position);
}

/**
 * tw_trace_model_find_position:
 * @index: a trace row
 * @exact: (out) (optional): set to whether row @index itself is shown
 *
 * Returns: the position of row @index, or of the first shown row after it (the number
 *   of items when none follows)
 */
guint
tw_trace_model_find_position (TwTraceModel *self,
                              guint64       index,
                              gboolean     *exact)
{
  guint c, lo, hi;
  guint16 row;

  g_return_val_if_fail (TW_IS_TRACE_MODEL (self), 0);

  if (self->index == NULL)
    {
      if (exact)
        *exact = index < self->n_items;
      return (guint) MIN (index, (guint64) self->n_items);
    }

  c = index >> BLOCK_SHIFT;
  if (c >= self->index->block_ends->len)
    {
      if (exact)
        *exact = FALSE;
      return self->n_items;
    }

  row = index & BLOCK_MASK;
  lo = c > 0 ? g_array_index (self->index->block_ends, guint, c - 1) : 0;
  hi = g_array_index (self->index->block_ends, guint, c);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (self->index->rows, guint16, mid) < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (exact)
    *exact = lo < self->n_items && tw_trace_model_get_event_index (self, lo) == index;
  return lo;
}

/**
 * tw_trace_model_update:
 *
 * Picks up rows a growing (live) trace published since the last call and emits
 * items-changed for the new items at the end. Costs O(new rows). Main thread.
 */
void
tw_trace_model_update (TwTraceModel *self)
{
  guint64 n_events;
  guint old_n;

  g_return_if_fail (TW_IS_TRACE_MODEL (self));

  n_events = tw_trace_get_n_events (self->trace);
  if (n_events <= self->n_rows)
    return;

  self->n_rows = n_events;
  if (self->index)
    filter_index_scan (self->index, self->filter, self->trace, n_events, NULL, NULL);

  old_n = self->n_items;
  self->n_items = count_items (self);
  if (self->n_items != old_n)
    g_list_model_items_changed (G_LIST_MODEL (self), old_n, 0, self->n_items - old_n);
}
