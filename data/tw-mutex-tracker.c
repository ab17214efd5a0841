/* tw-mutex-tracker.c: each mutex's owner and waiters at a time (the meta-mutex of
 * Valpereiro 2006, POSIX trace based behavioural reflection)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-mutex-tracker.h"

/*
 * Mutex states are not part of the state model yet, so they are replayed from the
 * events: moving forward continues from where the last query stopped (O(events crossed)),
 * moving back replays from the start (O(events up to the time)). Cursor moves are mostly
 * small steps forward, and traces without mutex events skip all of it.
 */

struct _TwMutexTracker
{
  TwTrace    *trace;
  guint8     *kinds;      /* TwEventKind per type index, filled for the types known */
  guint       n_kinds;
  gboolean    has_mutexes;
  GPtrArray  *mutexes;    /* TwMutexState*, in order of first appearance */
  GHashTable *by_id;      /* mutex id → TwMutexState* */
  guint64     next_row;   /* first row not replayed */
  guint64     time;       /* state is after every event with time ≤ this */
};

static void
mutex_state_free (TwMutexState *state)
{
  g_array_unref (state->waiters);
  g_free (state);
}

static void
refresh_kinds (TwMutexTracker *self)
{
  guint n = tw_trace_get_n_event_types (self->trace);

  if (n == self->n_kinds)
    return;
  self->kinds = g_realloc (self->kinds, MAX (n, 1));
  for (guint t = self->n_kinds; t < n; t++)
    {
      TwEventKind kind = tw_trace_get_event_type (self->trace, t)->kind;

      self->kinds[t] = kind;
      if (kind == TW_EVENT_KIND_MUTEX_LOCK || kind == TW_EVENT_KIND_MUTEX_UNLOCK
          || kind == TW_EVENT_KIND_MUTEX_WAIT)
        self->has_mutexes = TRUE;
    }
  self->n_kinds = n;
}

/**
 * tw_mutex_tracker_new:
 *
 * Returns: (transfer full): a tracker at the trace's beginning (no event replayed)
 */
TwMutexTracker *
tw_mutex_tracker_new (TwTrace *trace)
{
  TwMutexTracker *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_new0 (TwMutexTracker, 1);
  self->trace = g_object_ref (trace);
  self->mutexes = g_ptr_array_new_with_free_func ((GDestroyNotify) mutex_state_free);
  self->by_id = g_hash_table_new (NULL, NULL);
  self->time = 0;
  refresh_kinds (self);
  return self;
}

void
tw_mutex_tracker_free (TwMutexTracker *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->trace);
  g_clear_pointer (&self->mutexes, g_ptr_array_unref);
  g_clear_pointer (&self->by_id, g_hash_table_unref);
  g_free (self->kinds);
  g_free (self);
}

/**
 * tw_mutex_tracker_has_mutexes:
 *
 * Returns: %TRUE when the trace has any mutex event type
 */
gboolean
tw_mutex_tracker_has_mutexes (TwMutexTracker *self)
{
  refresh_kinds (self);
  return self->has_mutexes;
}

static TwMutexState *
lookup_or_add (TwMutexTracker *self,
               guint32         mutex)
{
  TwMutexState *state = g_hash_table_lookup (self->by_id, GUINT_TO_POINTER (mutex));

  if (state == NULL)
    {
      state = g_new0 (TwMutexState, 1);
      state->mutex = mutex;
      state->owner = TW_TASK_NONE;
      state->owned_since = TW_TIME_NONE;
      state->waiters = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_ptr_array_add (self->mutexes, state);
      g_hash_table_insert (self->by_id, GUINT_TO_POINTER (mutex), state);
    }
  return state;
}

static void
remove_waiter (TwMutexState *state,
               guint32       task)
{
  for (guint i = 0; i < state->waiters->len; i++)
    if (g_array_index (state->waiters, guint32, i) == task)
      {
        g_array_remove_index (state->waiters, i);
        return;
      }
}

static void
apply (TwMutexTracker *self,
       TwEventKind     kind,
       guint64         time,
       guint32         task,
       guint32         mutex)
{
  TwMutexState *state = lookup_or_add (self, mutex);

  switch ((int) kind)
    {
    case TW_EVENT_KIND_MUTEX_WAIT:
      remove_waiter (state, task);
      g_array_append_val (state->waiters, task);
      break;
    case TW_EVENT_KIND_MUTEX_LOCK:
      remove_waiter (state, task);
      state->owner = task;
      state->owned_since = time;
      break;
    case TW_EVENT_KIND_MUTEX_UNLOCK:
      /* trust the trace: an unlock frees the mutex even when its lock was not traced */
      state->owner = TW_TASK_NONE;
      state->owned_since = TW_TIME_NONE;
      break;
    default:
      g_assert_not_reached ();
    }
}

/**
 * tw_mutex_tracker_advance_to:
 *
 * Makes the states those after every event at or before @time_ns.
 */
void
tw_mutex_tracker_advance_to (TwMutexTracker *self,
                             guint64         time_ns)
{
  guint64 n = tw_trace_get_n_events (self->trace);

  g_return_if_fail (self != NULL);

  refresh_kinds (self);
  if (!self->has_mutexes)
    return;

  if (time_ns < self->time)
    {
      g_ptr_array_set_size (self->mutexes, 0);
      g_hash_table_remove_all (self->by_id);
      self->next_row = 0;
    }
  self->time = time_ns;

  while (self->next_row < n)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, self->next_row >> TW_CHUNK_SHIFT);
      guint row = self->next_row & TW_CHUNK_MASK;
      guint end = (guint) MIN ((guint64) chunk->n, n - (self->next_row & ~(guint64) TW_CHUNK_MASK));

      for (; row < end; row++)
        {
          guint16 type = chunk->type[row];
          TwEventKind kind;

          if (chunk->time[row] > time_ns)
            {
              self->next_row = (self->next_row & ~(guint64) TW_CHUNK_MASK) + row;
              return;
            }
          kind = type < self->n_kinds ? self->kinds[type] : TW_EVENT_KIND_OTHER;
          if (kind == TW_EVENT_KIND_MUTEX_LOCK || kind == TW_EVENT_KIND_MUTEX_UNLOCK
              || kind == TW_EVENT_KIND_MUTEX_WAIT)
            apply (self, kind, chunk->time[row], chunk->task[row], chunk->arg[row]);
        }
      self->next_row = (self->next_row & ~(guint64) TW_CHUNK_MASK) + end;
    }
}

guint
tw_mutex_tracker_get_n_mutexes (TwMutexTracker *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->mutexes->len;
}

/**
 * tw_mutex_tracker_get_mutex:
 *
 * Returns: (transfer none): the @i-th mutex seen, in order of first appearance
 */
const TwMutexState *
tw_mutex_tracker_get_mutex (TwMutexTracker *self,
                            guint           i)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (i < self->mutexes->len, NULL);

  return self->mutexes->pdata[i];
}
