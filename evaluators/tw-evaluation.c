/* tw-evaluation.c: runs updates over a trace in strict time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-evaluation.h"

#include <string.h>

/* One active update, with what the hot loop needs copied out of it. */
typedef struct {
  TwUpdate  *update;
  gboolean (*prepare) (gpointer, gpointer, const TwEvent *, guint);
  void     (*commit)  (gpointer, gpointer, gboolean);
  gpointer   context;
  gpointer   func_data;
  guint16   *slots;     /* per type: 0 = skip, s = consumed through selector s − 1 */
  guint      n_types;   /* types resolved in @slots */
  TwUpdateBatchFunc batch; /* or NULL: per event only */
} Entry;

typedef struct {
  TwUpdate *update;
  gboolean  add;
} PendingOp;

struct _TwEvaluation {
  GObject   parent_instance;

  TwTrace  *trace;
  GArray   *entries;     /* Entry, touched only under @run_lock */
  guint64   position;    /* next event index to evaluate */
  guint64  *cpu_counts;  /* per CPU: events evaluated on it so far */
  TwEvaluationCheckFunc check;
  gpointer  check_data;
  guint     n_cpu_counts;
  GMutex    run_lock;    /* held by a run, and by whoever changes @entries */

  GMutex    lock;        /* guards @pending */
  GArray   *pending;     /* PendingOp */
  gint      has_pending; /* atomic: the hot loop's cheap check */
};

G_DEFINE_TYPE (TwEvaluation, tw_evaluation, G_TYPE_OBJECT)

G_DEFINE_QUARK (tw-evaluation-error-quark, tw_evaluation_error)

static void
entry_clear (Entry *entry)
{
  g_clear_pointer (&entry->slots, g_free);
  g_clear_pointer (&entry->update, tw_update_unref);
}

static void
tw_evaluation_finalize (GObject *object)
{
  TwEvaluation *self = TW_EVALUATION (object);

  for (guint i = 0; i < self->entries->len; i++)
    entry_clear (&g_array_index (self->entries, Entry, i));
  g_clear_pointer (&self->entries, g_array_unref);
  for (guint i = 0; i < self->pending->len; i++)
    tw_update_unref (g_array_index (self->pending, PendingOp, i).update);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->cpu_counts, g_free);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->run_lock);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (tw_evaluation_parent_class)->finalize (object);
}

static void
tw_evaluation_class_init (TwEvaluationClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_evaluation_finalize;
}

static void
tw_evaluation_init (TwEvaluation *self)
{
  self->entries = g_array_new (FALSE, TRUE, sizeof (Entry));
  self->pending = g_array_new (FALSE, FALSE, sizeof (PendingOp));
  g_mutex_init (&self->lock);
  g_mutex_init (&self->run_lock);
}

/**
 * tw_evaluation_new:
 * @trace: the events to evaluate; sealed (sorted), or a live trace that only grows in
 *   time order
 *
 * An evaluation runs its updates over the events of @trace in strict time order (the
 * store's order; equal times keep their order of arrival). It can be fed in steps
 * (tw_evaluation_run_to()) while a live trace grows, and updates can join and leave
 * while it runs, without pausing it (seed 004 §4.3).
 *
 * Returns: (transfer full): a new evaluation positioned at the first event
 */
TwEvaluation *
tw_evaluation_new (TwTrace *trace)
{
  TwEvaluation *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_EVALUATION, NULL);
  self->trace = g_object_ref (trace);
  return self;
}

/**
 * tw_evaluation_get_trace:
 *
 * Returns: (transfer none): the trace
 */
TwTrace *
tw_evaluation_get_trace (TwEvaluation *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION (self), NULL);
  return self->trace;
}

/**
 * tw_evaluation_get_position:
 *
 * Returns: the index of the next event to evaluate
 */
guint64
tw_evaluation_get_position (TwEvaluation *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION (self), 0);
  return self->position;
}

/**
 * tw_evaluation_get_n_updates:
 *
 * Returns: the number of updates taking part, counting scheduled additions and removals
 *   as done
 */
guint
tw_evaluation_get_n_updates (TwEvaluation *self)
{
  int n;

  g_return_val_if_fail (TW_IS_EVALUATION (self), 0);

  g_mutex_lock (&self->lock);
  n = self->entries->len;
  for (guint i = 0; i < self->pending->len; i++)
    n += g_array_index (self->pending, PendingOp, i).add ? 1 : -1;
  g_mutex_unlock (&self->lock);
  return MAX (n, 0);
}

/**
 * tw_evaluation_get_cpu_event_count:
 *
 * Per-CPU event counts let updates count the events on a CPU between two of their own
 * (intermediate events) without consuming every event. From an update function
 * during a run: the number of events on @cpu evaluated before the current one.
 *
 * Returns: events on @cpu evaluated so far (0 for TW_CPU_NONE)
 */
guint64
tw_evaluation_get_cpu_event_count (TwEvaluation *self,
                                   guint16       cpu)
{
  /* Called per measurement from hot loops: a NULL check, not a type check. */
  g_return_val_if_fail (self != NULL, 0);
  return cpu < self->n_cpu_counts ? self->cpu_counts[cpu] : 0;
}

static void
count_cpu_event_slow (TwEvaluation *self,
                      guint16       cpu)
{
  guint n;

  if (cpu == TW_CPU_NONE)
    return;
  n = MAX ((guint) cpu + 1, self->n_cpu_counts * 2);
  self->cpu_counts = g_renew (guint64, self->cpu_counts, n);
  memset (self->cpu_counts + self->n_cpu_counts, 0, (n - self->n_cpu_counts) * sizeof (guint64));
  self->n_cpu_counts = n;
  self->cpu_counts[cpu]++;
}

static void
entry_extend_slots (TwEvaluation *self,
                    Entry        *entry)
{
  guint n_types = tw_trace_get_n_event_types (self->trace);

  if (n_types > entry->n_types)
    {
      entry->slots = tw_update_dup_type_slots (entry->update, self->trace, entry->n_types,
                                               entry->slots, n_types);
      entry->n_types = n_types;
    }
}

static void
apply_pending (TwEvaluation *self)
{
  g_autoptr(GArray) ops = NULL;

  g_mutex_lock (&self->lock);
  ops = self->pending;
  self->pending = g_array_new (FALSE, FALSE, sizeof (PendingOp));
  g_atomic_int_set (&self->has_pending, 0);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < ops->len; i++)
    {
      PendingOp *op = &g_array_index (ops, PendingOp, i);

      if (op->add)
        {
          Entry entry = { 0 };

          entry.update = op->update; /* the op's reference moves to the entry */
          entry.prepare = tw_update_get_funcs (op->update)->prepare;
          entry.commit = tw_update_get_funcs (op->update)->commit;
          entry.context = tw_update_context_get_data (tw_update_get_context (op->update));
          entry.func_data = tw_update_get_func_data (op->update);
          entry.batch = tw_update_get_batch_func (op->update);
          entry_extend_slots (self, &entry);
          g_array_append_val (self->entries, entry);
          continue;
        }

      for (guint e = 0; e < self->entries->len; e++)
        {
          Entry *entry = &g_array_index (self->entries, Entry, e);

          if (entry->update != op->update)
            continue;
          if (tw_update_get_funcs (entry->update)->finish != NULL)
            tw_update_get_funcs (entry->update)->finish (entry->context, entry->func_data);
          entry_clear (entry);
          g_array_remove_index (self->entries, e);
          break;
        }
      tw_update_unref (op->update);
    }
}

static void
schedule (TwEvaluation *self,
          TwUpdate     *update,
          gboolean      add)
{
  PendingOp op = { tw_update_ref (update), add };

  g_mutex_lock (&self->lock);
  g_array_append_val (self->pending, op);
  g_atomic_int_set (&self->has_pending, 1);
  g_mutex_unlock (&self->lock);

  /* Outside a run nobody else applies it; inside one (this thread's or another's) the
   * loop does before the next event, so an update never sees half of an event. */
  if (g_mutex_trylock (&self->run_lock))
    {
      apply_pending (self);
      g_mutex_unlock (&self->run_lock);
    }
}

/**
 * tw_evaluation_set_check_func:
 * @check: (nullable): tells whether an event is still intact after prepare
 *
 * Seed 004 §4.3: a monitor does not own the elements it evaluates, so after prepare it
 * checks that the element was not overwritten and commits with @ok = %FALSE when it
 * was. A trace's rows never change, so without a check function @ok is just the
 * result of prepare. Set it before a run.
 */
void
tw_evaluation_set_check_func (TwEvaluation          *self,
                              TwEvaluationCheckFunc  check,
                              gpointer               user_data)
{
  g_return_if_fail (TW_IS_EVALUATION (self));

  g_mutex_lock (&self->run_lock);
  self->check = check;
  self->check_data = user_data;
  g_mutex_unlock (&self->run_lock);
}

/**
 * tw_evaluation_add_update:
 *
 * Binds @update to the trace (its bind function runs in the caller's thread) and
 * schedules it to join: it sees every event from the evaluation's position on. May be
 * called from any thread, also from an update function during a run.
 *
 * Returns: %FALSE when the update refused to bind (@error set)
 */
gboolean
tw_evaluation_add_update (TwEvaluation  *self,
                          TwUpdate      *update,
                          GError       **error)
{
  const TwUpdateFuncs *funcs;

  g_return_val_if_fail (TW_IS_EVALUATION (self), FALSE);
  g_return_val_if_fail (update != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  funcs = tw_update_get_funcs (update);
  if (funcs->bind != NULL &&
      !funcs->bind (tw_update_context_get_data (tw_update_get_context (update)),
                    tw_update_get_func_data (update), self, error))
    return FALSE;

  schedule (self, update, TRUE);
  return TRUE;
}

/**
 * tw_evaluation_remove_update:
 *
 * Schedules @update to leave the evaluation before the next event; its finish
 * function then runs and the evaluation drops its reference. Any thread.
 */
void
tw_evaluation_remove_update (TwEvaluation *self,
                             TwUpdate     *update)
{
  g_return_if_fail (TW_IS_EVALUATION (self));
  g_return_if_fail (update != NULL);

  schedule (self, update, FALSE);
}

/* Per-CPU event counts of rows [first, first + n) of a chunk, when no update needs them
 * event by event. A uniprocessor trace bumps one counter per event, a chain of
 * store-to-load dependencies; four lanes of local counters break it. */
static void
count_cpu_events (TwEvaluation       *self,
                  const TwEventChunk *chunk,
                  guint               first,
                  guint               n)
{
  enum { N_LANE_CPUS = 256 };
  guint32 lanes[4][N_LANE_CPUS + 1];
  const guint16 *cpu = chunk->cpu + first;
  guint i = 0;

  memset (lanes, 0, sizeof lanes);
  for (; i + 4 <= n; i += 4)
    {
      /* CPUs beyond the lanes (and TW_CPU_NONE) land in the spare counter */
      lanes[0][MIN (cpu[i], N_LANE_CPUS)]++;
      lanes[1][MIN (cpu[i + 1], N_LANE_CPUS)]++;
      lanes[2][MIN (cpu[i + 2], N_LANE_CPUS)]++;
      lanes[3][MIN (cpu[i + 3], N_LANE_CPUS)]++;
    }
  for (; i < n; i++)
    lanes[0][MIN (cpu[i], N_LANE_CPUS)]++;

  for (guint c = 0; c < N_LANE_CPUS; c++)
    {
      guint64 count = (guint64) lanes[0][c] + lanes[1][c] + lanes[2][c] + lanes[3][c];

      if (count == 0)
        continue;
      if (c >= self->n_cpu_counts)
        {
          /* grows the array and counts one */
          count_cpu_event_slow (self, c);
          count--;
        }
      self->cpu_counts[c] += count;
    }
  if (lanes[0][N_LANE_CPUS] + lanes[1][N_LANE_CPUS] + lanes[2][N_LANE_CPUS] +
      lanes[3][N_LANE_CPUS] > 0)
    for (i = 0; i < n; i++)
      if (cpu[i] >= N_LANE_CPUS)
        {
          if (cpu[i] < self->n_cpu_counts)
            self->cpu_counts[cpu[i]]++;
          else
            count_cpu_event_slow (self, cpu[i]);
        }
}

/* Feeds rows [first, first + n) of @chunk to every update with a batch entry. */
static void
run_batches (TwEvaluation       *self,
             const TwEventChunk *chunk,
             guint               first,
             guint               n)
{
  Entry *entries = (Entry *) (gpointer) self->entries->data;
  guint n_types = tw_trace_get_n_event_types (self->trace);

  if (n == 0)
    return;
  for (guint e = 0; e < self->entries->len; e++)
    {
      Entry *entry = &entries[e];

      if (entry->batch == NULL)
        continue;
      if G_UNLIKELY (n_types > entry->n_types)
        entry_extend_slots (self, entry);
      entry->batch (entry->context, entry->func_data, chunk, first, n, entry->slots,
                    entry->n_types);
    }
}

/**
 * tw_evaluation_run_to:
 * @end: stop before this event index (clamped to the trace's current length)
 * @progress: (nullable): called every 64 Ki events with the fraction done
 * @cancellable: (nullable): checked every 64 Ki events
 *
 * Feeds the events [position, @end) to every update, in time order: for each event
 * and each update that consumes its type, prepare then commit (with @ok = the result
 * of prepare, and of the check function if one is set). Called again later with a
 * larger @end it continues where it stopped, which is how a live trace is evaluated.
 *
 * Without a check function, updates with a batch entry (tw_update_set_batch_func())
 * get runs of events at once instead: the run up to the end of a chunk, or up to the
 * event after which an update was added or removed (the change still applies before
 * the next event).
 *
 * One run at a time: a second thread's call waits for the first (an update function
 * must not call it).
 *
 * Returns: %FALSE when cancelled (@error set); the position then says how far it got
 */
gboolean
tw_evaluation_run_to (TwEvaluation   *self,
                      guint64         end,
                      TwProgressFunc  progress,
                      gpointer        progress_data,
                      GCancellable   *cancellable,
                      GError        **error)
{
  guint64 start;
  guint64 index;
  gboolean ok = TRUE;

  g_return_val_if_fail (TW_IS_EVALUATION (self), FALSE);

  end = MIN (end, tw_trace_get_n_events (self->trace));
  start = self->position;
  index = start;
  g_mutex_lock (&self->run_lock);
  if (g_atomic_int_get (&self->has_pending))
    apply_pending (self);

  while (index < end)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, index >> TW_CHUNK_SHIFT);
      guint row = index & TW_CHUNK_MASK;
      guint rows = (guint) MIN ((guint64) TW_CHUNK_SIZE, end - (index - row));
      guint batch_from = row;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      if (g_atomic_int_get (&self->has_pending))
        apply_pending (self);

      /* The entries only change in apply_pending(): keep them in locals meanwhile. */
      Entry *entries = (Entry *) (gpointer) self->entries->data;
      guint n_entries = self->entries->len;
      gboolean batching = self->check == NULL;
      guint n_per_event = 0;

      for (guint e = 0; e < n_entries; e++)
        n_per_event += !batching || entries[e].batch == NULL;

      if (batching && n_per_event == 0)
        {
          /* nobody to call per event: the batches take the whole run */
          count_cpu_events (self, chunk, row, rows - row);
          run_batches (self, chunk, row, rows - row);
          index += rows - row;
          row = rows;
          batch_from = rows;
        }

      for (; row < rows; row++, index++)
        {
          guint16 type = chunk->type[row];
          guint16 cpu = chunk->cpu[row];
          TwEvent event;
          gboolean built = FALSE;

          if G_UNLIKELY (g_atomic_int_get (&self->has_pending))
            {
              /* the batches catch up to here, then the change applies */
              if (batching)
                run_batches (self, chunk, batch_from, row - batch_from);
              batch_from = row;
              apply_pending (self);
              entries = (Entry *) (gpointer) self->entries->data;
              n_entries = self->entries->len;
            }

          for (guint e = 0; e < n_entries; e++)
            {
              Entry *entry = &entries[e];
              guint slot;
              gboolean prepared;

              if (batching && entry->batch != NULL)
                continue;
              if G_UNLIKELY (type >= entry->n_types)
                entry_extend_slots (self, entry);
              slot = type < entry->n_types ? entry->slots[type] : 0;
              if (slot == 0)
                continue;

              if (!built)
                {
                  event.index = index;
                  event.time = chunk->time[row];
                  event.task = chunk->task[row];
                  event.arg = chunk->arg[row];
                  event.type = type;
                  event.cpu = cpu;
                  event.payload = chunk->payload[row] == TW_PAYLOAD_NONE
                                  ? NULL : chunk->blob + chunk->payload[row];
                  built = TRUE;
                }
              prepared = entry->prepare (entry->context, entry->func_data, &event, slot - 1);
              if G_UNLIKELY (self->check != NULL && prepared)
                prepared = self->check (index, self->check_data);
              entry->commit (entry->context, entry->func_data, prepared);
            }

          if G_LIKELY (cpu < self->n_cpu_counts)
            self->cpu_counts[cpu]++;
          else
            count_cpu_event_slow (self, cpu);
        }
      if (batching)
        run_batches (self, chunk, batch_from, rows - batch_from);

      self->position = index;
      if (progress != NULL && end > start)
        progress ((double) (index - start) / (double) (end - start), progress_data);
    }

  self->position = index;
  if (g_atomic_int_get (&self->has_pending))
    apply_pending (self);
  g_mutex_unlock (&self->run_lock);
  return ok;
}

/**
 * tw_evaluation_run:
 *
 * tw_evaluation_run_to() up to the trace's current end.
 *
 * Returns: %FALSE when cancelled (@error set)
 */
gboolean
tw_evaluation_run (TwEvaluation   *self,
                   TwProgressFunc  progress,
                   gpointer        progress_data,
                   GCancellable   *cancellable,
                   GError        **error)
{
  return tw_evaluation_run_to (self, G_MAXUINT64, progress, progress_data, cancellable, error);
}

/**
 * tw_evaluation_finish:
 *
 * Tells every update that the input ended (their finish functions run, e.g. to report
 * what is still open). The updates stay; feeding more events later is allowed.
 */
void
tw_evaluation_finish (TwEvaluation *self)
{
  g_return_if_fail (TW_IS_EVALUATION (self));

  g_mutex_lock (&self->run_lock);
  if (g_atomic_int_get (&self->has_pending))
    apply_pending (self);
  for (guint e = 0; e < self->entries->len; e++)
    {
      Entry *entry = &g_array_index (self->entries, Entry, e);
      const TwUpdateFuncs *funcs = tw_update_get_funcs (entry->update);

      if (funcs->finish != NULL)
        funcs->finish (entry->context, entry->func_data);
    }
  g_mutex_unlock (&self->run_lock);
}
