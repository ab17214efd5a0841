/* tw-evaluation.c: runs updates over a trace in strict time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-evaluation.h"

#include <string.h>

/* One active update. */
typedef struct {
  TwUpdate  *update;
  gpointer   context;
  gpointer   func_data;
  guint16   *slots;     /* per type: 0 = skip, s = consumed through selector s − 1 */
  guint      n_types;   /* types resolved in @slots */
  TwUpdateBatchFunc batch; /* or NULL: per event only */
} Entry;

/* What the hot loop calls for one (update, selector): everything copied out of the
 * update, so a consumed event costs loads from one array and the call. */
typedef struct {
  TwUpdateDirectFunc direct;  /* NULL: prepare then commit */
  gboolean (*prepare) (gpointer, gpointer, const TwEvent *, guint);
  void     (*commit)  (gpointer, gpointer, gboolean);
  gpointer   context;
  gpointer   func_data;
  guint      selector;
} Call;

typedef struct {
  TwUpdate *update;
  gboolean  add;
} PendingOp;

struct _TwEvaluation {
  GObject   parent_instance;

  TwTrace  *trace;
  GArray   *entries;     /* Entry, touched only under @run_lock */
  /* The dispatch table, derived from @entries: the calls of type t are
   * calls[type_first[t], type_first[t + 1]), in the order of @entries (updates that
   * share a context see an event in the order they joined). One lookup per event, not
   * one test per update. Rebuilt when @entries, the check function or the number of
   * types change; touched only under @run_lock. */
  Call     *calls;
  guint32  *type_first;
  guint     n_dispatch_types;
  gboolean  dispatch_stale;
  guint64   position;    /* next event index to evaluate */
  guint64  *cpu_counts;  /* per CPU number (TW_CPU_NONE's stays 0): events evaluated
                          * on it so far; allocated whole, so it never moves */
  TwEvaluationCheckFunc check;
  gpointer  check_data;
  GMutex    run_lock;    /* held by a run, and by whoever changes @entries */

  GMutex    lock;        /* guards @pending */
  GArray   *pending;     /* PendingOp */
  gint      has_pending; /* atomic: the hot loop's cheap check */

  /* Per-type tracing costs: NULL until an update asks for them, and then the loop
   * sums each event's cost beside the counts. @pending_costs waits under @lock for the
   * run to install it, with the update that asked. */
  guint64  *type_cost_ps;  /* per type, resolved with the dispatch table */
  TwEventCosts *costs;
  TwEventCosts *pending_costs;
  TwEventCostCounters cost_counters;

  /* last, so that the fields the hot loop reads keep their places */
  GError   *failure;     /* what an update reported (tw_evaluation_report_error()); under
                          * @run_lock, set only from update functions during a run */
};

G_DEFINE_FINAL_TYPE (TwEvaluation, tw_evaluation, G_TYPE_OBJECT)

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
  g_clear_pointer (&self->calls, g_free);
  g_clear_pointer (&self->type_first, g_free);
  for (guint i = 0; i < self->pending->len; i++)
    tw_update_unref (g_array_index (self->pending, PendingOp, i).update);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->cpu_counts, g_free);
  g_clear_pointer (&self->type_cost_ps, g_free);
  g_clear_pointer (&self->cost_counters.cpu, g_free);
  g_clear_object (&self->costs);
  g_clear_object (&self->pending_costs);
  g_clear_error (&self->failure);
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
  self->dispatch_stale = TRUE;
  /* 512 KiB of address space; calloc maps it, and only the pages of CPUs that occur
   * are ever touched */
  self->cpu_counts = g_new0 (guint64, (gsize) TW_CPU_NONE + 1);
}

/**
 * tw_evaluation_new:
 * @trace: the events to evaluate; sealed (sorted), or a live trace that only grows in
 *   time order
 *
 * An evaluation runs its updates over the events of @trace in strict time order (the
 * store's order; equal times keep their order of arrival). It can be fed in steps
 * (tw_evaluation_run_to()) while a live trace grows, and updates can join and leave
 * while it runs, without pausing it (Riegel 2005 §4.3).
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
  return self->cpu_counts[cpu];
}

/**
 * tw_evaluation_get_cpu_counts:
 *
 * The per-CPU event counts of tw_evaluation_get_cpu_event_count() as an array, for
 * update functions that read them per event: element c is the count of CPU c (the one
 * of %TW_CPU_NONE stays 0). The array never moves while the evaluation lives.
 *
 * Returns: (transfer none) (array fixed-size=65536): the counts
 */
const guint64 *
tw_evaluation_get_cpu_counts (TwEvaluation *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION (self), NULL);
  return self->cpu_counts;
}

static gboolean
same_costs (TwEventCosts *a,
            TwEventCosts *b)
{
  g_autofree char *sa = tw_event_costs_to_string (a);
  g_autofree char *sb = tw_event_costs_to_string (b);

  return a == b || strcmp (sa, sb) == 0;
}

/**
 * tw_evaluation_use_event_costs:
 * @costs: what each event type costs the tracing system
 *
 * For an update's bind function: from the update's first event on, the evaluation sums
 * each event's cost into tw_evaluation_get_cost_counters(). Updates of one evaluation
 * share one set of costs.
 *
 * Returns: %FALSE when another update of the evaluation uses other costs (@error set)
 */
gboolean
tw_evaluation_use_event_costs (TwEvaluation  *self,
                               TwEventCosts  *costs,
                               GError       **error)
{
  gboolean ok = TRUE;

  g_return_val_if_fail (TW_IS_EVALUATION (self), FALSE);
  g_return_val_if_fail (TW_IS_EVENT_COSTS (costs), FALSE);

  g_mutex_lock (&self->lock);
  if (self->pending_costs != NULL || self->costs != NULL)
    ok = same_costs (self->pending_costs ? self->pending_costs : self->costs, costs);
  else
    self->pending_costs = g_object_ref (costs);
  g_mutex_unlock (&self->lock);
  if (!ok)
    {
      g_autofree char *text = tw_event_costs_to_string (costs);

      g_set_error (error, TW_EVALUATION_ERROR, TW_EVALUATION_ERROR_BIND,
                   "an evaluation subtracts one set of tracing costs; this one (%s) "
                   "differs from the one its other evaluators use", text);
    }
  return ok;
}

/**
 * tw_evaluation_get_cost_counters:
 *
 * Returns: (transfer none): the counters; they never move, and count from the first
 *   event after an update asked for costs (tw_evaluation_use_event_costs())
 */
const TwEventCostCounters *
tw_evaluation_get_cost_counters (TwEvaluation *self)
{
  g_return_val_if_fail (TW_IS_EVALUATION (self), NULL);
  return &self->cost_counters;
}

/* Under @run_lock, before the update that asked for them sees an event. */
static void
install_costs (TwEvaluation *self)
{
  g_mutex_lock (&self->lock);
  if (self->costs == NULL && self->pending_costs != NULL)
    {
      self->costs = g_steal_pointer (&self->pending_costs);
      self->cost_counters.cpu = g_new0 (guint64, (gsize) TW_CPU_NONE + 1);
      self->dispatch_stale = TRUE;
    }
  g_clear_object (&self->pending_costs);
  g_mutex_unlock (&self->lock);
}

static void
resolve_costs (TwEvaluation *self,
               guint         n_types)
{
  if (self->costs == NULL)
    return;
  self->type_cost_ps = g_renew (guint64, self->type_cost_ps, MAX (n_types, 1));
  for (guint t = 0; t < n_types; t++)
    self->type_cost_ps[t] = tw_event_costs_get_type_cost_ps (self->costs,
                                                             tw_trace_get_event_type (self->trace, t));
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
  install_costs (self);
  self->dispatch_stale = TRUE;
}

/* Resolves every entry against the current type table into the dispatch table. */
static void
rebuild_dispatch (TwEvaluation *self)
{
  guint n_types = tw_trace_get_n_event_types (self->trace);
  Entry *entries = (Entry *) (gpointer) self->entries->data;
  guint n_entries = self->entries->len;
  guint32 n_calls = 0;

  /* without a check function, updates with a batch entry get runs, not calls */
  for (guint e = 0; e < n_entries; e++)
    {
      entry_extend_slots (self, &entries[e]);
      if (self->check == NULL && entries[e].batch != NULL)
        continue;
      for (guint t = 0; t < n_types; t++)
        n_calls += entries[e].slots[t] != 0;
    }

  self->type_first = g_renew (guint32, self->type_first, n_types + 1);
  self->calls = g_renew (Call, self->calls, MAX (n_calls, 1));
  n_calls = 0;
  for (guint t = 0; t < n_types; t++)
    {
      self->type_first[t] = n_calls;
      for (guint e = 0; e < n_entries; e++)
        {
          const Entry *entry = &entries[e];
          const TwUpdateFuncs *funcs;
          guint slot = entry->slots[t];
          Call *call;

          if (slot == 0 || (self->check == NULL && entry->batch != NULL))
            continue;
          funcs = tw_update_get_funcs (entry->update);
          call = &self->calls[n_calls++];
          /* a check function sits between prepare and commit: no shortcut then */
          call->direct = self->check == NULL
                         ? tw_update_get_direct_func (entry->update, slot - 1) : NULL;
          call->prepare = funcs->prepare;
          call->commit = funcs->commit;
          call->context = entry->context;
          call->func_data = entry->func_data;
          call->selector = slot - 1;
        }
    }
  self->type_first[n_types] = n_calls;
  resolve_costs (self, n_types);
  self->n_dispatch_types = n_types;
  self->dispatch_stale = FALSE;
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
 * Riegel 2005, §4.3: a monitor does not own the elements it evaluates, so after prepare it
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
  self->dispatch_stale = TRUE;
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

/**
 * tw_evaluation_report_error:
 * @error: (transfer full): why the update cannot go on
 *
 * For an update function that meets input it cannot evaluate any further (an automaton
 * that a type new in a live trace makes ambiguous): the run stops at the end of the
 * current run of events and tw_evaluation_run_to() returns @error, as does every later
 * run. The update ignores the events it is still given meanwhile. Only from an update
 * function during a run; the first error reported wins.
 */
void
tw_evaluation_report_error (TwEvaluation *self,
                            GError       *error)
{
  g_return_if_fail (TW_IS_EVALUATION (self));
  g_return_if_fail (error != NULL);

  if (self->failure == NULL)
    self->failure = error;
  else
    g_error_free (error);
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
    self->cpu_counts[c] += (guint64) lanes[0][c] + lanes[1][c] + lanes[2][c] + lanes[3][c];
  if (lanes[0][N_LANE_CPUS] + lanes[1][N_LANE_CPUS] + lanes[2][N_LANE_CPUS] +
      lanes[3][N_LANE_CPUS] > 0)
    for (i = 0; i < n; i++)
      if (cpu[i] >= N_LANE_CPUS && cpu[i] != TW_CPU_NONE)
        self->cpu_counts[cpu[i]]++;
}

/* The tracing costs of rows [first, first + n), as count_cpu_events() counts them. */
static void
add_event_costs (TwEvaluation       *self,
                 const TwEventChunk *chunk,
                 guint               first,
                 guint               n)
{
  TwEventCostCounters *counters = &self->cost_counters;

  for (guint i = first; i < first + n; i++)
    {
      guint16 type = chunk->type[i];
      guint64 cost = type < self->n_dispatch_types ? self->type_cost_ps[type] : 0;

      counters->trace += cost;
      if (chunk->cpu[i] != TW_CPU_NONE)
        counters->cpu[chunk->cpu[i]] += cost;
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

/* Feeds events [row, rows) of @chunk one by one; @base is the index of the chunk's
 * row 0. Inlined twice, with @costing a constant, so that the loop without tracing
 * costs has no trace of them. Returns where it stopped: @rows, or the row at which an
 * update that asked for costs joined, from which the caller goes on with costs. */
static G_ALWAYS_INLINE inline guint
run_events (TwEvaluation       *self,
            const TwEventChunk *chunk,
            guint               row,
            guint               rows,
            guint64             base,
            gboolean            batching,
            guint              *batch_from,
            const gboolean      costing)
{
  for (; row < rows; row++)
    {
      guint16 type = chunk->type[row];
      guint16 cpu = chunk->cpu[row];

      if G_UNLIKELY (g_atomic_int_get (&self->has_pending))
        {
          /* the batches catch up to here, then the change applies */
          if (batching)
            run_batches (self, chunk, *batch_from, row - *batch_from);
          *batch_from = row;
          apply_pending (self);
          rebuild_dispatch (self);
          if (!costing && self->costs != NULL)
            return row;
        }
      /* a live trace registered a type after the table was built */
      if G_UNLIKELY (type >= self->n_dispatch_types &&
                     tw_trace_get_n_event_types (self->trace) > self->n_dispatch_types)
        rebuild_dispatch (self);

      if (type < self->n_dispatch_types &&
          self->type_first[type] != self->type_first[type + 1])
        {
          const Call *call = &self->calls[self->type_first[type]];
          const Call *last = &self->calls[self->type_first[type + 1]];
          TwEvent event;

          event.index = base + row;
          event.time = chunk->time[row];
          event.task = chunk->task[row];
          event.arg = chunk->arg[row];
          event.type = type;
          event.cpu = cpu;
          event.payload = chunk->payload[row] == TW_PAYLOAD_NONE
                          ? NULL : chunk->blob + chunk->payload[row];
          if (costing)
            {
              self->cost_counters.current = self->type_cost_ps[type];
              self->cost_counters.current_cpu = cpu;
            }
          for (; call < last; call++)
            {
              gboolean prepared;

              if (call->direct != NULL)
                {
                  call->direct (call->context, call->func_data, &event);
                  continue;
                }
              prepared = call->prepare (call->context, call->func_data, &event,
                                        call->selector);
              if G_UNLIKELY (self->check != NULL && prepared)
                prepared = self->check (base + row, self->check_data);
              call->commit (call->context, call->func_data, prepared);
            }
        }

      if G_LIKELY (cpu != TW_CPU_NONE)
        self->cpu_counts[cpu]++;
      if (costing)
        add_event_costs (self, chunk, row, 1);
    }
  return row;
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
 * Returns: %FALSE when cancelled or when an update reported an error
 *   (tw_evaluation_report_error()), with @error set; the position then says how far it
 *   got
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

  if (self->dispatch_stale || tw_trace_get_n_event_types (self->trace) > self->n_dispatch_types)
    rebuild_dispatch (self);

  while (index < end && self->failure == NULL)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, index >> TW_CHUNK_SHIFT);
      guint row = index & TW_CHUNK_MASK;
      guint rows = (guint) MIN ((guint64) TW_CHUNK_SIZE, end - (index - row));
      guint batch_from = row;
      gboolean batching = self->check == NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          ok = FALSE;
          break;
        }

      /* batches and per-event calls: the updates and types as of this chunk */
      if (g_atomic_int_get (&self->has_pending))
        apply_pending (self);
      if (self->dispatch_stale || tw_trace_get_n_event_types (self->trace) > self->n_dispatch_types)
        rebuild_dispatch (self);

      if (batching && self->type_first[self->n_dispatch_types] == 0)
        {
          /* nobody to call per event: the batches take the whole run */
          count_cpu_events (self, chunk, row, rows - row);
          if G_UNLIKELY (self->costs != NULL)
            add_event_costs (self, chunk, row, rows - row);
          run_batches (self, chunk, row, rows - row);
          index += rows - row;
          row = rows;
          batch_from = rows;
        }

      while (row < rows)
        {
          guint64 base = index - row;

          if (self->costs != NULL)
            row = run_events (self, chunk, row, rows, base, batching, &batch_from, TRUE);
          else
            row = run_events (self, chunk, row, rows, base, batching, &batch_from, FALSE);
          index = base + row;
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
  if (ok && self->failure != NULL)
    {
      g_propagate_error (error, g_error_copy (self->failure));
      ok = FALSE;
    }
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

/**
 * tw_evaluation_run_update:
 * @trace: a sealed trace
 * @update: what to feed
 * @progress: (nullable): called every 64 Ki events with the fraction done
 * @cancellable: (nullable): checked every 64 Ki events
 *
 * Feeds every event of @trace to @update alone, then finishes it: one metric, plugin
 * or automaton over a whole trace, as `tracewb-cli eval` does.
 *
 * Returns: %FALSE with @error set when the update refuses the trace or on cancel
 */
gboolean
tw_evaluation_run_update (TwTrace         *trace,
                          TwUpdate        *update,
                          TwProgressFunc   progress,
                          gpointer         progress_data,
                          GCancellable    *cancellable,
                          GError         **error)
{
  g_autoptr(TwEvaluation) evaluation = NULL;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  evaluation = tw_evaluation_new (trace);
  if (!tw_evaluation_add_update (evaluation, update, error) ||
      !tw_evaluation_run (evaluation, progress, progress_data, cancellable, error))
    return FALSE;
  tw_evaluation_finish (evaluation);
  return TRUE;
}
