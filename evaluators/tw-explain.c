/* tw-explain.c: where the time of one measurement went, and the wakeup chain behind it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-explain.h"

#include <json-glib/json-glib.h>

/*
 * The measured task's state intervals cut [begin, end) into stretches; each stretch is
 * cut further by what its CPU did (handlers while the task runs, other tasks' runs while
 * it waits). Every cut moves one cursor forward and gives the piece from the cursor to
 * the cut to exactly one component, so the components sum to end − begin by
 * construction, whatever the trace holds.
 *
 * Only the intervals that meet [begin, end) are read, each series entered by its
 * lower_bound: the cost is that of the stretches, not of the trace. Mutex owners and
 * unlocks are found by short scans of the store around the wait (the mutex tracker
 * replays the trace from its start, which a single explanation cannot afford).
 */

/* How far the scans of the store for a mutex's lock and unlock may go. */
#define MUTEX_SCAN_BACK    (G_GUINT64_CONSTANT (1) << 20)
#define MUTEX_SCAN_FORWARD (G_GUINT64_CONSTANT (1) << 22)
/* Marks looked at backwards for a task's last wakeup or mutex wait. */
#define MARK_SCAN          64
/* Events looked at backwards for the previous event of a CPU that lost events. */
#define LOSS_SCAN_BACK     (G_GUINT64_CONSTANT (1) << 16)
/* Links of the critical path followed at most (a cycle of wakeups cannot loop: each
 * link goes back in time, this only bounds the work). */
#define MAX_PATH           64

typedef struct {
  guint64 begin;
  guint64 end;
} Window;

typedef struct {
  TwStateModel  *model;
  TwTrace       *trace;
  guint32        task;
  guint64        begin;
  guint64        end;
  TwExplanation *out;
  guint64        cursor;
  GArray       **losses;      /* per CPU: Window, read on first use */
  guint          n_cpus;
  GArray        *all_losses;  /* every CPU's, for stretches of no known CPU */
  gint64         own_priority;
  gboolean       own_priority_known;
  gboolean       has_mutexes;
} Builder;

static TwEventKind
event_kind (TwTrace *trace,
            guint16  type)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);

  return t != NULL ? t->kind : TW_EVENT_KIND_OTHER;
}

static gboolean
read_event (TwTrace *trace,
            guint64  index,
            TwEvent *ev)
{
  return index != TW_EVENT_NONE && tw_trace_get_event (trace, index, ev);
}

static gboolean
is_idle (TwTrace *trace,
         guint32  task)
{
  const TwTask *t = tw_trace_get_task (trace, task);

  return t == NULL || (t->flags & TW_TASK_FLAG_IDLE);
}

/* ------------------------------------------------------------------ losses */

/* Where the loss of @mark began: its "since" field, else after the CPU's previous
 * event, else (too far back) the start of the measurement. */
static guint64
loss_begin (Builder         *b,
            const TwCpuMark *mark,
            guint            cpu)
{
  TwEvent ev;
  TwValue since;
  guint64 stop;

  if (read_event (b->trace, mark->index, &ev)
      && tw_trace_get_event_field (b->trace, &ev, "since", &since) && since.type == TW_FIELD_U64)
    return since.u;

  stop = mark->index > LOSS_SCAN_BACK ? mark->index - LOSS_SCAN_BACK : 0;
  for (guint64 i = mark->index; i > stop; i--)
    if (read_event (b->trace, i - 1, &ev) && ev.cpu == cpu)
      return ev.time;
  return MIN (b->begin, mark->time);
}

static void
read_losses (Builder *b,
             guint    cpu,
             GArray  *into)
{
  gsize n;
  const TwCpuMark *marks = tw_state_model_get_cpu_marks (b->model, cpu, &n);

  /* a loss ends at its mark: the ones that end in the measurement, and the first that
   * ends after it */
  for (gsize i = tw_state_model_lower_bound (b->model, TW_SERIES_CPU_MARKS, cpu, b->begin);
       i < n; i++)
    {
      Window w;

      if (marks[i].kind != TW_CPU_MARK_LOST)
        continue;
      w.begin = MAX (loss_begin (b, &marks[i], cpu), b->begin);
      w.end = MIN (marks[i].time, b->end);
      if (w.begin < w.end)
        g_array_append_val (into, w);
      if (marks[i].time >= b->end)
        break;
    }
}

static GArray *
losses_of (Builder *b,
           guint16  cpu)
{
  if (cpu == TW_CPU_NONE || cpu >= b->n_cpus)
    {
      if (b->all_losses == NULL)
        {
          b->all_losses = g_array_new (FALSE, FALSE, sizeof (Window));
          for (guint c = 0; c < b->n_cpus; c++)
            read_losses (b, c, b->all_losses);
        }
      return b->all_losses;
    }
  if (b->losses[cpu] == NULL)
    {
      b->losses[cpu] = g_array_new (FALSE, FALSE, sizeof (Window));
      read_losses (b, cpu, b->losses[cpu]);
    }
  return b->losses[cpu];
}

/* ------------------------------------------------------------------ components */

static gboolean
same_component (const TwExplainComponent *a,
                const TwExplainComponent *c)
{
  return a->kind == c->kind && a->task == c->task && a->irq == c->irq
         && a->irq_kind == c->irq_kind && a->mutex == c->mutex && a->owner == c->owner;
}

static guint
component_index (Builder                  *b,
                 const TwExplainComponent *key)
{
  GArray *components = b->out->components;

  for (guint i = 0; i < components->len; i++)
    if (same_component (&g_array_index (components, TwExplainComponent, i), key))
      return i;
  g_array_append_val (components, *key);
  return components->len - 1;
}

static void
push_stretch (Builder *b,
              guint    component,
              guint64  start,
              guint64  end,
              guint16  cpu)
{
  GArray *stretches = b->out->stretches;
  TwExplainComponent *c = &g_array_index (b->out->components, TwExplainComponent, component);
  TwExplainStretch s = { start, end, component, cpu };

  c->time_ns += end - start;
  if (stretches->len > 0)
    {
      TwExplainStretch *last = &g_array_index (stretches, TwExplainStretch, stretches->len - 1);

      if (last->component == component && last->end == start && last->cpu == cpu)
        {
          last->end = end;
          return;
        }
    }
  c->n_stretches++;
  g_array_append_val (stretches, s);
}

/* Gives [cursor, until) to @key, but the parts of it inside a loss of @cpu to LOST,
 * and moves the cursor to @until. Nothing goes backwards: a cut before the cursor
 * (intervals that overlap where the trace contradicts itself) gives nothing. */
static void
give (Builder                  *b,
      const TwExplainComponent *key,
      guint64                   until,
      guint16                   cpu)
{
  GArray *losses;
  guint index;

  until = MIN (until, b->end);
  if (until <= b->cursor)
    return;

  losses = losses_of (b, cpu);
  index = component_index (b, key);
  for (guint i = 0; i < losses->len && b->cursor < until; i++)
    {
      const Window *w = &g_array_index (losses, Window, i);
      TwExplainComponent lost = { TW_EXPLAIN_LOST, TW_TASK_NONE, TW_TASK_NONE, 0, 0,
                                  TW_EXPLAIN_MUTEX_NONE, TW_TASK_NONE,
                                  TW_EXPLAIN_PRIORITY_NONE, 0, 0 };
      guint64 from = MAX (w->begin, b->cursor);
      guint64 to = MIN (w->end, until);

      if (from >= to)
        continue;
      if (from > b->cursor)
        push_stretch (b, index, b->cursor, from, cpu);
      push_stretch (b, component_index (b, &lost), from, to, cpu);
      /* component_index() may have grown the array: @index stays valid, pointers not */
      b->cursor = to;
    }
  if (until > b->cursor)
    push_stretch (b, index, b->cursor, until, cpu);
  b->cursor = until;
}

static TwExplainComponent
key_of (TwExplainKind kind)
{
  TwExplainComponent key = { kind, TW_TASK_NONE, TW_TASK_NONE, 0, 0, TW_EXPLAIN_MUTEX_NONE,
                             TW_TASK_NONE, TW_EXPLAIN_PRIORITY_NONE, 0, 0 };

  return key;
}

/* ------------------------------------------------------------------ who and when */

/* The switch that put @task on @cpu at @time, for its priority. */
static gint64
priority_at_switch_in (Builder *b,
                       guint32  task,
                       guint16  cpu,
                       guint64  time)
{
  guint64 first, end;

  tw_trace_find_range (b->trace, time, time + 1, &first, &end);
  for (guint64 i = first; i < end; i++)
    {
      TwEvent ev;
      TwValue prio;

      if (!read_event (b->trace, i, &ev) || ev.cpu != cpu || ev.arg != task
          || event_kind (b->trace, ev.type) != TW_EVENT_KIND_SWITCH)
        continue;
      if (!tw_trace_get_event_field (b->trace, &ev, "next_prio", &prio))
        return TW_EXPLAIN_PRIORITY_NONE;
      switch (prio.type)
        {
        case TW_FIELD_I32:
        case TW_FIELD_I64:
          return prio.i;
        case TW_FIELD_U8:
        case TW_FIELD_U16:
        case TW_FIELD_U32:
        case TW_FIELD_U64:
          return (gint64) MIN (prio.u, (guint64) G_MAXINT64);
        case TW_FIELD_F64:
        case TW_FIELD_STRING:
        default:
          return TW_EXPLAIN_PRIORITY_NONE;
        }
    }
  return TW_EXPLAIN_PRIORITY_NONE;
}

/* The last mark of @task at or before @time whose event is of @kind; its event in @ev. */
static gboolean
last_mark_of_kind (Builder     *b,
                   guint32      task,
                   guint64      time,
                   TwEventKind  kind,
                   TwEvent     *ev)
{
  gsize n;
  const TwTaskMark *marks = tw_state_model_get_task_marks (b->model, task, &n);
  gsize i;

  if (marks == NULL || time == G_MAXUINT64)
    return FALSE;
  i = tw_state_model_lower_bound (b->model, TW_SERIES_TASK_MARKS, task, time + 1);
  for (guint k = 0; k < MARK_SCAN && i > 0; k++, i--)
    if (read_event (b->trace, marks[i - 1].index, ev) && event_kind (b->trace, ev->type) == kind)
      return TRUE;
  return FALSE;
}

static guint32
waker_before (Builder *b,
              guint32  task,
              guint64  time)
{
  TwEvent ev;

  if (task == TW_TASK_NONE || !last_mark_of_kind (b, task, time, TW_EVENT_KIND_WAKEUP, &ev))
    return TW_TASK_NONE;
  return ev.task;
}

/* The CPU a runnable or sleeping task waits for in its state interval @i: the one it
 * runs on next, else the one it ran on last; with one CPU, that one. */
static guint16
waiting_cpu (Builder              *b,
             const TwTaskInterval *states,
             gsize                 n,
             gsize                 i)
{
  for (gsize k = i + 1; k < n && k <= i + 4; k++)
    if (states[k].state == TW_TASK_STATE_RUNNING)
      return states[k].cpu;
  for (gsize k = i; k > 0 && k + 4 > i; k--)
    if (states[k - 1].state == TW_TASK_STATE_RUNNING)
      return states[k - 1].cpu;
  return b->n_cpus == 1 ? 0 : TW_CPU_NONE;
}

/* ------------------------------------------------------------------ sweeps */

/* [cursor, until) while the task runs on @cpu: handler time to the innermost handler,
 * the rest to RUNNING. */
static void
sweep_running (Builder *b,
               guint16  cpu,
               guint64  until)
{
  gsize n;
  const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (b->model, cpu, &n);
  TwExplainComponent running = key_of (TW_EXPLAIN_RUNNING);
  const TwIrqInterval *stack[64];
  guint depth = 0;
  gsize i;

  if (irqs == NULL)
    {
      give (b, &running, until, cpu);
      return;
    }
  /* back to the outermost handler open at the cursor: every handler before a closed
   * outermost one ended before it */
  i = tw_state_model_lower_bound (b->model, TW_SERIES_CPU_IRQS, cpu, b->cursor);
  while (i > 0)
    {
      i--;
      if (irqs[i].depth <= 1)
        break;
    }

  for (; i < n && irqs[i].start < until; i++)
    {
      const TwIrqInterval *h = &irqs[i];

      if (h->end <= b->cursor || h->end <= h->start)
        continue;
      while (depth > 0 && stack[depth - 1]->end <= h->start)
        {
          const TwIrqInterval *top = stack[--depth];
          TwExplainComponent key = key_of (TW_EXPLAIN_INTERRUPTED);

          key.irq = top->number;
          key.irq_kind = top->kind;
          give (b, &key, top->end, cpu);
        }
      if (depth > 0)
        {
          TwExplainComponent key = key_of (TW_EXPLAIN_INTERRUPTED);

          key.irq = stack[depth - 1]->number;
          key.irq_kind = stack[depth - 1]->kind;
          give (b, &key, h->start, cpu);
        }
      else
        give (b, &running, h->start, cpu);
      if (depth < G_N_ELEMENTS (stack))
        stack[depth++] = h;
    }
  while (depth > 0)
    {
      const TwIrqInterval *top = stack[--depth];
      TwExplainComponent key = key_of (TW_EXPLAIN_INTERRUPTED);

      key.irq = top->number;
      key.irq_kind = top->kind;
      give (b, &key, MIN (top->end, until), cpu);
    }
  give (b, &running, until, cpu);
}

/* The component of a stretch in which @occupant ran on @cpu from @start while the task
 * was runnable (@kind PREEMPTED or WAITING, @waker who woke the task) or blocked. */
static TwExplainComponent
occupant_key (Builder       *b,
              TwExplainKind  kind,
              guint32        occupant,
              guint16        cpu,
              guint64        start,
              guint32        waker)
{
  TwExplainComponent key = key_of (kind);
  gboolean idle = occupant == TW_TASK_NONE || is_idle (b->trace, occupant);

  key.task = occupant;
  if (kind == TW_EXPLAIN_WAITING)
    key.waker = waker;
  else if (!idle)
    key.waker = waker_before (b, occupant, start);
  if (!idle)
    key.priority = priority_at_switch_in (b, occupant, cpu, start);
  return key;
}

static gint64
own_priority (Builder *b)
{
  gsize n;
  const TwTaskInterval *states;
  gsize i;

  if (b->own_priority_known)
    return b->own_priority;
  b->own_priority_known = TRUE;
  b->own_priority = TW_EXPLAIN_PRIORITY_NONE;
  states = tw_state_model_get_task_states (b->model, b->task, &n);
  i = tw_state_model_lower_bound (b->model, TW_SERIES_TASK_STATES, b->task, b->end);
  for (guint k = 0; k < 16 && i > 0; k++, i--)
    if (states[i - 1].state == TW_TASK_STATE_RUNNING)
      {
        b->own_priority = priority_at_switch_in (b, b->task, states[i - 1].cpu,
                                                 states[i - 1].start);
        break;
      }
  return b->own_priority;
}

typedef enum {
  OCCUPANT_RUNNABLE,   /* PREEMPTED or WAITING by the occupant */
  OCCUPANT_BLOCKED,    /* BLOCKED, or PRIORITY_INVERSION when a third task runs */
} OccupantMode;

/* [cursor, until): what ran on @cpu, one component per occupant. */
static void
sweep_occupants (Builder                  *b,
                 guint16                   cpu,
                 guint64                   until,
                 OccupantMode              mode,
                 const TwExplainComponent *base)
{
  gsize n;
  const TwRunInterval *runs;
  gsize i;

  if (cpu == TW_CPU_NONE)
    {
      TwExplainComponent key = *base;

      if (mode == OCCUPANT_RUNNABLE)
        key.task = TW_TASK_NONE;
      give (b, &key, until, cpu);
      return;
    }

  runs = tw_state_model_get_cpu_runs (b->model, cpu, &n);
  i = tw_state_model_lower_bound (b->model, TW_SERIES_CPU_RUNS, cpu, b->cursor);
  if (i > 0)
    i--;
  for (; i < n && runs[i].start < until && b->cursor < until; i++)
    {
      const TwRunInterval *r = &runs[i];
      TwExplainComponent key = *base;
      gboolean idle = r->task == TW_TASK_NONE || is_idle (b->trace, r->task);

      if (r->end <= b->cursor)
        continue;
      if (r->start > b->cursor)
        {
          /* nothing is known to have run there */
          TwExplainComponent gap = *base;

          gap.task = TW_TASK_NONE;
          give (b, &gap, r->start, cpu);
        }
      if (mode == OCCUPANT_RUNNABLE)
        key = occupant_key (b, base->kind, r->task, cpu, r->start, base->waker);
      else if (base->mutex != TW_EXPLAIN_MUTEX_NONE && !idle && r->task != base->owner
               && r->task != b->task)
        {
          gint64 mine = own_priority (b);
          TwExplainComponent other = occupant_key (b, TW_EXPLAIN_PRIORITY_INVERSION, r->task,
                                                   cpu, r->start, TW_TASK_NONE);

          /* a task known to be at least as urgent is no inversion; without priorities
           * in the trace any third task is one (docs/explain.md) */
          if (mine == TW_EXPLAIN_PRIORITY_NONE || other.priority == TW_EXPLAIN_PRIORITY_NONE
              || other.priority > mine)
            {
              other.mutex = base->mutex;
              other.owner = base->owner;
              key = other;
            }
        }
      give (b, &key, MIN (r->end, until), cpu);
    }
  if (b->cursor < until)
    {
      TwExplainComponent gap = *base;

      if (mode == OCCUPANT_RUNNABLE)
        gap.task = TW_TASK_NONE;
      give (b, &gap, until, cpu);
    }
}

/* The mutex @task waited on when it blocked at @start, its owner then, and when it was
 * unlocked (before @until); FALSE when the block was no mutex wait. */
static gboolean
find_mutex_wait (Builder *b,
                 guint64  start,
                 guint64  until,
                 guint32 *mutex,
                 guint32 *owner,
                 guint64 *unlock,
                 guint32 *unlocker,
                 guint64 *unlock_event)
{
  TwEvent wait, ev;
  guint64 stop, n;

  if (!b->has_mutexes
      || !last_mark_of_kind (b, b->task, start, TW_EVENT_KIND_MUTEX_WAIT, &wait))
    return FALSE;
  /* a lock by the task after that wait means it is not what it blocks on now */
  if (last_mark_of_kind (b, b->task, start, TW_EVENT_KIND_MUTEX_LOCK, &ev) && ev.index > wait.index)
    return FALSE;

  *mutex = wait.arg;
  *owner = TW_TASK_NONE;
  stop = wait.index > MUTEX_SCAN_BACK ? wait.index - MUTEX_SCAN_BACK : 0;
  for (guint64 i = wait.index; i > stop; i--)
    {
      TwEventKind kind;

      if (!read_event (b->trace, i - 1, &ev) || ev.arg != *mutex)
        continue;
      kind = event_kind (b->trace, ev.type);
      if (kind == TW_EVENT_KIND_MUTEX_LOCK)
        {
          *owner = ev.task;
          break;
        }
      if (kind == TW_EVENT_KIND_MUTEX_UNLOCK)
        break;
    }

  *unlock = until;
  *unlocker = TW_TASK_NONE;
  *unlock_event = TW_EVENT_NONE;
  n = MIN (tw_trace_get_n_events (b->trace), wait.index + 1 + MUTEX_SCAN_FORWARD);
  for (guint64 i = wait.index + 1; i < n; i++)
    {
      if (!read_event (b->trace, i, &ev) || ev.time >= until)
        break;
      if (ev.arg == *mutex && event_kind (b->trace, ev.type) == TW_EVENT_KIND_MUTEX_UNLOCK)
        {
          *unlock = MAX (ev.time, start);
          *unlocker = ev.task;
          *unlock_event = ev.index;
          break;
        }
    }
  return TRUE;
}

static void
sweep_blocked (Builder              *b,
               const TwTaskInterval *states,
               gsize                 n,
               gsize                 i,
               guint64               until)
{
  guint16 cpu = waiting_cpu (b, states, n, i);
  TwExplainComponent base = key_of (TW_EXPLAIN_BLOCKED);
  guint32 mutex, owner, unlocker;
  guint64 unlock, unlock_event;

  if (!find_mutex_wait (b, states[i].start, states[i].end, &mutex, &owner, &unlock, &unlocker,
                        &unlock_event))
    {
      give (b, &base, until, TW_CPU_NONE);
      return;
    }
  base.mutex = mutex;
  base.owner = owner;
  sweep_occupants (b, cpu, MIN (unlock, until), OCCUPANT_BLOCKED, &base);
  if (b->cursor < until)
    {
      TwExplainComponent waiting = key_of (TW_EXPLAIN_WAITING);

      waiting.waker = unlocker;
      sweep_occupants (b, cpu, until, OCCUPANT_RUNNABLE, &waiting);
    }
}

/* Whether the task ran since it last woke, before its state interval @i. */
static gboolean
ran_since_wakeup (const TwTaskInterval *states,
                  gsize                 i)
{
  for (gsize k = i; k > 0; k--)
    {
      if (states[k - 1].state == TW_TASK_STATE_RUNNING)
        return TRUE;
      if (states[k - 1].state != TW_TASK_STATE_READY)
        return FALSE;
    }
  return FALSE;
}

static void
sweep_states (Builder *b)
{
  gsize n;
  const TwTaskInterval *states = tw_state_model_get_task_states (b->model, b->task, &n);
  gsize i;

  if (states == NULL)
    {
      TwExplainComponent unknown = key_of (TW_EXPLAIN_UNACCOUNTED);

      give (b, &unknown, b->end, TW_CPU_NONE);
      return;
    }
  i = tw_state_model_lower_bound (b->model, TW_SERIES_TASK_STATES, b->task, b->begin);
  if (i > 0)
    i--;
  for (; i < n && states[i].start < b->end; i++)
    {
      const TwTaskInterval *s = &states[i];
      guint64 until = MIN (s->end, b->end);

      if (s->end <= b->cursor)
        continue;
      if (s->start > b->cursor)
        {
          TwExplainComponent unknown = key_of (TW_EXPLAIN_UNACCOUNTED);

          give (b, &unknown, s->start, TW_CPU_NONE);
        }
      switch ((TwTaskState) s->state)
        {
        case TW_TASK_STATE_RUNNING:
          sweep_running (b, s->cpu, until);
          break;

        case TW_TASK_STATE_READY:
          {
            gboolean preempted = ran_since_wakeup (states, i);
            TwExplainComponent base = key_of (preempted ? TW_EXPLAIN_PREEMPTED
                                                        : TW_EXPLAIN_WAITING);

            if (!preempted)
              base.waker = waker_before (b, b->task, s->start);
            sweep_occupants (b, waiting_cpu (b, states, n, i), until, OCCUPANT_RUNNABLE, &base);
          }
          break;

        case TW_TASK_STATE_BLOCKED:
          sweep_blocked (b, states, n, i, until);
          break;

        case TW_TASK_STATE_UNKNOWN:
        case TW_TASK_STATE_DEAD:
        default:
          {
            TwExplainComponent unknown = key_of (TW_EXPLAIN_UNACCOUNTED);

            give (b, &unknown, until, TW_CPU_NONE);
          }
          break;
        }
    }
  if (b->cursor < b->end)
    {
      TwExplainComponent unknown = key_of (TW_EXPLAIN_UNACCOUNTED);

      give (b, &unknown, b->end, TW_CPU_NONE);
    }
}

/* ------------------------------------------------------------------ critical path */

/* The handler running on @cpu at @time, innermost, or NULL. */
static const TwIrqInterval *
handler_at (Builder *b,
            guint16  cpu,
            guint64  time)
{
  gsize n;
  const TwIrqInterval *irqs = tw_state_model_get_cpu_irqs (b->model, cpu, &n);
  const TwIrqInterval *found = NULL;
  gsize i;

  if (irqs == NULL)
    return NULL;
  i = tw_state_model_lower_bound (b->model, TW_SERIES_CPU_IRQS, cpu, time + 1);
  while (i > 0)
    {
      const TwIrqInterval *h = &irqs[--i];

      if (h->start <= time && time < h->end && (found == NULL || h->depth > found->depth))
        found = h;
      if (h->depth <= 1)
        break;
    }
  return found;
}

/* The event that made @task runnable at or before @time: a wakeup, or the unlock of the
 * mutex it blocked on. */
static gboolean
cause_of_wakeup (Builder       *b,
                 guint32        task,
                 guint64        time,
                 TwExplainStep *step)
{
  TwEvent ev;

  if (!last_mark_of_kind (b, task, time, TW_EVENT_KIND_WAKEUP, &ev))
    return FALSE;
  step->kind = TW_EXPLAIN_STEP_WAKEUP;
  step->task = task;
  step->waker = ev.task;
  step->cpu = ev.cpu;
  step->time = ev.time;
  step->event = ev.index;
  return TRUE;
}

static void
build_path (Builder *b)
{
  guint32 task = b->task;
  guint64 time = b->begin;

  for (guint k = 0; k < MAX_PATH; k++)
    {
      const TwIrqInterval *h;
      TwExplainStep step = { 0 };
      TwExplainStep cause = { TW_EXPLAIN_STEP_RELEASE, task, TW_TASK_NONE, 0, 0, TW_CPU_NONE,
                              time, TW_EVENT_NONE };

      /* the last wakeup at or before the measurement's begin: a run-slice begins at the
       * switch in, after its wakeup */
      if (!cause_of_wakeup (b, task, time, &step))
        {
          g_array_append_val (b->out->path, cause);
          return;
        }
      g_array_append_val (b->out->path, step);

      h = step.cpu != TW_CPU_NONE ? handler_at (b, step.cpu, step.time) : NULL;
      if (h != NULL)
        {
          cause.kind = TW_EXPLAIN_STEP_IRQ;
          cause.task = step.waker;
          cause.irq = h->number;
          cause.irq_kind = h->kind;
          cause.cpu = step.cpu;
          cause.time = h->start;
          g_array_append_val (b->out->path, cause);
          return;
        }
      /* woken from an idle CPU outside any handler, or by nobody: the trace does not
       * say by what */
      if (step.waker == TW_TASK_NONE || step.waker == task || is_idle (b->trace, step.waker)
          || step.time == 0)
        {
          cause.kind = step.waker == task ? TW_EXPLAIN_STEP_RELEASE : TW_EXPLAIN_STEP_UNKNOWN;
          cause.task = step.waker;
          cause.time = step.time;
          cause.cpu = step.cpu;
          g_array_append_val (b->out->path, cause);
          return;
        }
      /* the waker's own wakeup, strictly before: one at the same instant could loop */
      task = step.waker;
      time = step.time - 1;
    }
}

/* ------------------------------------------------------------------ public */

static gboolean
trace_has_mutex_events (TwTrace *trace)
{
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    if (tw_trace_get_event_type (trace, t)->kind == TW_EVENT_KIND_MUTEX_WAIT)
      return TRUE;
  return FALSE;
}

static int
compare_time_desc (gconstpointer a,
                   gconstpointer c)
{
  const TwExplainComponent *x = a;
  const TwExplainComponent *y = c;

  if (x->time_ns != y->time_ns)
    return x->time_ns > y->time_ns ? -1 : 1;
  return (int) x->kind - (int) y->kind;
}

/* Sorts the components by time and renumbers the stretches that point at them. */
static void
sort_components (TwExplanation *self)
{
  guint n = self->components->len;
  g_autofree guint *order = g_new (guint, n);
  g_autofree guint *new_index = g_new (guint, n);
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (TwExplainComponent), n);

  /* an insertion sort of indexes: stable, and the arrays are short */
  for (guint i = 0; i < n; i++)
    order[i] = i;
  for (guint i = 1; i < n; i++)
    for (guint j = i; j > 0; j--)
      {
        const TwExplainComponent *x = &g_array_index (self->components, TwExplainComponent, order[j - 1]);
        const TwExplainComponent *y = &g_array_index (self->components, TwExplainComponent, order[j]);
        guint swap;

        if (compare_time_desc (x, y) <= 0)
          break;
        swap = order[j - 1];
        order[j - 1] = order[j];
        order[j] = swap;
      }
  for (guint i = 0; i < n; i++)
    {
      g_array_append_val (sorted, g_array_index (self->components, TwExplainComponent, order[i]));
      new_index[order[i]] = i;
    }
  for (guint i = 0; i < self->stretches->len; i++)
    {
      TwExplainStretch *s = &g_array_index (self->stretches, TwExplainStretch, i);

      s->component = new_index[s->component];
    }
  g_array_unref (self->components);
  self->components = g_steal_pointer (&sorted);
}

/**
 * tw_explain_measurement:
 * @model: the state model of the trace the measurement comes from, up to date
 * @row: the measurement
 *
 * Breaks the measurement's elapsed time into what its task did and what kept it from
 * running (docs/explain.md), and follows its wakeup back to the first cause. Reads only
 * the intervals that meet [begin, end).
 *
 * Returns: (transfer full): the explanation
 */
TwExplanation *
tw_explain_measurement (TwStateModel           *model,
                        const TwMeasurementRow *row)
{
  TwExplanation *out;
  Builder b = { 0 };

  g_return_val_if_fail (TW_IS_STATE_MODEL (model), NULL);
  g_return_val_if_fail (row != NULL && row->end >= row->begin, NULL);

  out = g_new0 (TwExplanation, 1);
  out->row = *row;
  out->components = g_array_new (FALSE, FALSE, sizeof (TwExplainComponent));
  out->stretches = g_array_new (FALSE, FALSE, sizeof (TwExplainStretch));
  out->path = g_array_new (FALSE, FALSE, sizeof (TwExplainStep));

  b.model = model;
  b.trace = tw_state_model_get_trace (model);
  b.task = row->task;
  b.begin = row->begin;
  b.end = row->end;
  b.cursor = row->begin;
  b.out = out;
  b.n_cpus = tw_state_model_get_n_cpus (model);
  b.losses = g_new0 (GArray *, MAX (b.n_cpus, 1));
  b.has_mutexes = trace_has_mutex_events (b.trace);

  if (row->task == TW_TASK_NONE)
    {
      TwExplainComponent unknown = key_of (TW_EXPLAIN_UNACCOUNTED);

      give (&b, &unknown, b.end, TW_CPU_NONE);
    }
  else
    {
      sweep_states (&b);
      build_path (&b);
    }
  g_assert (b.cursor == b.end);

  for (guint c = 0; c < b.n_cpus; c++)
    g_clear_pointer (&b.losses[c], g_array_unref);
  g_free (b.losses);
  g_clear_pointer (&b.all_losses, g_array_unref);
  sort_components (out);
  return out;
}

/* Whether a window's explanation needed nothing from before the window: every stretch
 * known, every CPU's occupant known, the wakeup chain ending at a cause rather than at
 * the window's edge. */
static gboolean
is_complete (const TwExplanation *e)
{
  if (tw_explanation_sum_kind (e, TW_EXPLAIN_UNACCOUNTED) > 0)
    return FALSE;
  for (guint i = 0; i < e->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (e->components, TwExplainComponent, i);

      if ((c->kind == TW_EXPLAIN_PREEMPTED || c->kind == TW_EXPLAIN_WAITING
           || c->kind == TW_EXPLAIN_PRIORITY_INVERSION) && c->task == TW_TASK_NONE)
        return FALSE;
    }
  return e->path->len == 0
         || g_array_index (e->path, TwExplainStep, e->path->len - 1).kind != TW_EXPLAIN_STEP_RELEASE;
}

/**
 * tw_explain_measurement_in_window:
 * @trace: a sealed trace
 * @row: a measurement of it
 * @n_events: (out) (optional): how many events the last window held
 *
 * Explains @row with a state model of the events around it only (the measurement's
 * length, at least 1 ms, on each side), grown eightfold until nothing in the
 * explanation depends on what came before the window (is_complete()), up to the whole
 * trace: for a single question about a long trace whose state model is not built.
 *
 * Returns: (transfer full): the explanation
 */
TwExplanation *
tw_explain_measurement_in_window (TwTrace                *trace,
                                  const TwMeasurementRow *row,
                                  guint64                *n_events)
{
  guint64 first_time = tw_trace_get_first_time (trace);
  guint64 last_time = tw_trace_get_last_time (trace);
  guint64 margin = MAX (row->end - row->begin, G_GUINT64_CONSTANT (1000000));

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  for (;;)
    {
      guint64 from = row->begin >= first_time && row->begin - first_time > margin
                     ? row->begin - margin : first_time;
      guint64 until = row->end <= last_time && last_time - row->end > margin
                      ? row->end + margin : last_time;
      guint64 first = from == first_time ? 0 : tw_trace_find_first_at_or_after (trace, from);
      guint64 end = until == last_time ? tw_trace_get_n_events (trace)
                                       : tw_trace_find_first_at_or_after (trace, until + 1);
      g_autoptr(TwStateModel) model = tw_state_model_new_window (trace, first, end);
      g_autoptr(TwExplanation) e = NULL;

      tw_state_model_update (model, NULL, NULL);
      e = tw_explain_measurement (model, row);
      if (n_events)
        *n_events = end - first;
      if ((first == 0 && end == tw_trace_get_n_events (trace)) || is_complete (e))
        return g_steal_pointer (&e);
      margin = margin > G_MAXUINT64 / 8 ? G_MAXUINT64 : margin * 8;
    }
}

void
tw_explanation_free (TwExplanation *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->components);
  g_array_unref (self->stretches);
  g_array_unref (self->path);
  g_free (self);
}

/**
 * tw_explanation_get_total:
 *
 * Returns: the sum of the components' times: always end − begin
 */
guint64
tw_explanation_get_total (const TwExplanation *self)
{
  guint64 total = 0;

  for (guint i = 0; i < self->components->len; i++)
    total += g_array_index (self->components, TwExplainComponent, i).time_ns;
  return total;
}

guint64
tw_explanation_sum_kind (const TwExplanation *self,
                         TwExplainKind        kind)
{
  guint64 total = 0;

  for (guint i = 0; i < self->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (self->components, TwExplainComponent, i);

      if (c->kind == kind)
        total += c->time_ns;
    }
  return total;
}

/**
 * tw_explanation_find:
 *
 * Returns: (nullable): the first component of @kind whose task is @task (any task for
 *   INTERRUPTED, BLOCKED, LOST and UNACCOUNTED when @task is TW_TASK_NONE)
 */
const TwExplainComponent *
tw_explanation_find (const TwExplanation *self,
                     TwExplainKind        kind,
                     guint32              task)
{
  for (guint i = 0; i < self->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (self->components, TwExplainComponent, i);

      if (c->kind == kind && c->task == task)
        return c;
    }
  return NULL;
}

const char *
tw_explain_kind_to_string (TwExplainKind kind)
{
  static const char *const names[] = {
    [TW_EXPLAIN_RUNNING] = "running",
    [TW_EXPLAIN_INTERRUPTED] = "interrupted",
    [TW_EXPLAIN_PREEMPTED] = "preempted",
    [TW_EXPLAIN_WAITING] = "waiting",
    [TW_EXPLAIN_BLOCKED] = "blocked",
    [TW_EXPLAIN_PRIORITY_INVERSION] = "priority-inversion",
    [TW_EXPLAIN_LOST] = "lost",
    [TW_EXPLAIN_UNACCOUNTED] = "unaccounted",
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : "unknown";
}

/* Linux's softirq vectors, by number. */
static const char *
softirq_name (guint32 number)
{
  static const char *const names[] = {
    "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
  };

  return number < G_N_ELEMENTS (names) ? names[number] : NULL;
}

static char *
dup_irq (guint32 number,
         guint32 kind)
{
  if (number == TW_IRQ_NUMBER_UNKNOWN)
    return g_strdup (kind == TW_IRQ_SOFT ? "softirq ?" : "irq ?");
  if (kind == TW_IRQ_SOFT && softirq_name (number) != NULL)
    return g_strdup_printf ("softirq %u (%s)", number, softirq_name (number));
  return g_strdup_printf ("%s %u", kind == TW_IRQ_SOFT ? "softirq" : "irq", number);
}

static char *
dup_task (TwTrace *trace,
          guint32  task)
{
  if (task == TW_TASK_NONE)
    return g_strdup ("nothing known");
  if (is_idle (trace, task))
    return g_strdup ("idle");
  return tw_trace_dup_task_label (trace, task);
}

/* g_string_take() is GLib 2.78 */
static void
append_owned (GString *s,
              char    *text)
{
  g_string_append (s, text);
  g_free (text);
}

/**
 * tw_explain_dup_who:
 *
 * Returns: (transfer full): who a component names, in words ("irq 11", "b-12, prio
 *   120, woken by a-11", "mutex 0x12a3c0 owned by c-13"); "" when it names nobody
 */
char *
tw_explain_dup_who (TwTrace                  *trace,
                    const TwExplainComponent *c)
{
  GString *s = g_string_new (NULL);

  switch (c->kind)
    {
    case TW_EXPLAIN_INTERRUPTED:
      append_owned (s, dup_irq (c->irq, c->irq_kind));
      break;

    case TW_EXPLAIN_PREEMPTED:
    case TW_EXPLAIN_WAITING:
    case TW_EXPLAIN_PRIORITY_INVERSION:
      append_owned (s, dup_task (trace, c->task));
      if (c->priority != TW_EXPLAIN_PRIORITY_NONE)
        g_string_append_printf (s, ", prio %" G_GINT64_FORMAT, c->priority);
      if (c->kind == TW_EXPLAIN_WAITING && c->waker != TW_TASK_NONE)
        {
          g_autofree char *waker = tw_trace_dup_task_label (trace, c->waker);

          g_string_append_printf (s, " ran; woken by %s", waker);
        }
      else if (c->kind == TW_EXPLAIN_WAITING)
        g_string_append (s, " ran");
      else if (c->waker != TW_TASK_NONE)
        {
          g_autofree char *waker = tw_trace_dup_task_label (trace, c->waker);

          g_string_append_printf (s, ", woken by %s", waker);
        }
      if (c->kind != TW_EXPLAIN_PRIORITY_INVERSION)
        break;
      G_GNUC_FALLTHROUGH;
    case TW_EXPLAIN_BLOCKED:
      if (c->mutex != TW_EXPLAIN_MUTEX_NONE)
        {
          g_autofree char *owner = tw_trace_dup_task_label (trace, c->owner);

          g_string_append_printf (s, "%smutex 0x%x owned by %s", s->len ? "; " : "", c->mutex,
                                  c->owner == TW_TASK_NONE ? "nobody known" : owner);
        }
      break;

    case TW_EXPLAIN_RUNNING:
    case TW_EXPLAIN_LOST:
    case TW_EXPLAIN_UNACCOUNTED:
    case TW_N_EXPLAIN_KINDS:
    default:
      break;
    }
  return g_string_free (s, FALSE);
}

/**
 * tw_explain_dup_step:
 *
 * Returns: (transfer full): one link of the critical path in words
 */
char *
tw_explain_dup_step (TwTrace             *trace,
                     const TwExplainStep *step)
{
  g_autofree char *task = dup_task (trace, step->task);
  g_autofree char *waker = step->waker == TW_TASK_NONE ? g_strdup ("nobody known")
                                                       : dup_task (trace, step->waker);

  switch (step->kind)
    {
    case TW_EXPLAIN_STEP_WAKEUP:
      return g_strdup_printf ("%s woken by %s", task, waker);
    case TW_EXPLAIN_STEP_IRQ:
      {
        g_autofree char *irq = dup_irq (step->irq, step->irq_kind);

        return g_strdup_printf ("first cause: %s", irq);
      }
    case TW_EXPLAIN_STEP_RELEASE:
      return g_strdup_printf ("first cause: %s's own release (no earlier wakeup)",
                              step->task == TW_TASK_NONE ? "?" : task);
    case TW_EXPLAIN_STEP_UNKNOWN:
    default:
      return g_strdup ("first cause: not known (the wakeup names no waker)");
    }
}

static void
add_task_member (JsonBuilder *json,
                 TwTrace     *trace,
                 const char  *name,
                 guint32      task)
{
  g_autofree char *label = NULL;

  if (task == TW_TASK_NONE)
    return;
  label = tw_trace_dup_task_label (trace, task);
  json_builder_set_member_name (json, name);
  json_builder_add_string_value (json, label);
}

/**
 * tw_explanation_to_json:
 *
 * Returns: (transfer full): the explanation as a JSON object: task, begin_ns, end_ns,
 *   length_ns, components (kind, who, time_ns, share, and task, priority, waker, irq,
 *   mutex, owner where they apply) and critical_path (kind, time_ns, text)
 */
char *
tw_explanation_to_json (const TwExplanation *self,
                        TwTrace             *trace)
{
  g_autoptr(JsonBuilder) json = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  guint64 length = self->row.end - self->row.begin;

  json_builder_begin_object (json);
  add_task_member (json, trace, "task", self->row.task);
  json_builder_set_member_name (json, "begin_ns");
  json_builder_add_int_value (json, (gint64) self->row.begin);
  json_builder_set_member_name (json, "end_ns");
  json_builder_add_int_value (json, (gint64) self->row.end);
  json_builder_set_member_name (json, "length_ns");
  json_builder_add_int_value (json, (gint64) length);
  json_builder_set_member_name (json, "components");
  json_builder_begin_array (json);
  for (guint i = 0; i < self->components->len; i++)
    {
      const TwExplainComponent *c = &g_array_index (self->components, TwExplainComponent, i);
      g_autofree char *who = tw_explain_dup_who (trace, c);

      json_builder_begin_object (json);
      json_builder_set_member_name (json, "kind");
      json_builder_add_string_value (json, tw_explain_kind_to_string (c->kind));
      json_builder_set_member_name (json, "who");
      json_builder_add_string_value (json, who);
      json_builder_set_member_name (json, "time_ns");
      json_builder_add_int_value (json, (gint64) c->time_ns);
      json_builder_set_member_name (json, "share");
      json_builder_add_double_value (json, length ? (double) c->time_ns / length : 0.0);
      add_task_member (json, trace, "ran", c->task);
      add_task_member (json, trace, "waker", c->waker);
      add_task_member (json, trace, "owner", c->owner);
      if (c->priority != TW_EXPLAIN_PRIORITY_NONE)
        {
          json_builder_set_member_name (json, "priority");
          json_builder_add_int_value (json, c->priority);
        }
      if (c->kind == TW_EXPLAIN_INTERRUPTED)
        {
          json_builder_set_member_name (json, "irq");
          json_builder_add_int_value (json, c->irq);
          json_builder_set_member_name (json, "softirq");
          json_builder_add_boolean_value (json, c->irq_kind == TW_IRQ_SOFT);
        }
      if (c->mutex != TW_EXPLAIN_MUTEX_NONE)
        {
          json_builder_set_member_name (json, "mutex");
          json_builder_add_int_value (json, c->mutex);
        }
      json_builder_end_object (json);
    }
  json_builder_end_array (json);
  json_builder_set_member_name (json, "critical_path");
  json_builder_begin_array (json);
  for (guint i = 0; i < self->path->len; i++)
    {
      const TwExplainStep *step = &g_array_index (self->path, TwExplainStep, i);
      static const char *const kinds[] = { "wakeup", "irq", "release", "unknown" };
      g_autofree char *text = tw_explain_dup_step (trace, step);

      json_builder_begin_object (json);
      json_builder_set_member_name (json, "kind");
      json_builder_add_string_value (json, kinds[step->kind]);
      json_builder_set_member_name (json, "time_ns");
      json_builder_add_int_value (json, (gint64) step->time);
      json_builder_set_member_name (json, "text");
      json_builder_add_string_value (json, text);
      json_builder_end_object (json);
    }
  json_builder_end_array (json);
  json_builder_end_object (json);

  root = json_builder_get_root (json);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  return json_generator_to_data (gen, NULL);
}
