/* tw-state-model.c: per-CPU and per-task intervals derived from the events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-state-model.h"

/*
 * One pass over the events in time order, resumable: tw_state_model_update() continues
 * where the last call stopped, so a live trace pays only for what arrived since.
 *
 * Every array is sorted by start time. The last element of a CPU's runs and of a task's
 * states may be open (still going on); its end is the time of the last processed event
 * until something closes it. Open interrupts are tracked by index in a per-CPU stack and
 * closed in place, which keeps the irq array sorted by start even though nested handlers
 * end in reverse order.
 */

typedef struct {
  GArray   *runs;       /* TwRunInterval */
  GArray   *irqs;       /* TwIrqInterval */
  GArray   *irq_stack;  /* guint: indexes into irqs of open handlers, innermost last */
  gboolean  run_open;
} CpuState;

typedef struct {
  GArray   *states;     /* TwTaskInterval */
  GArray   *marks;      /* TwTaskMark */
  gboolean  open;
  guint64   cpu_time;   /* ns RUNNING in closed intervals */
} TaskState;

typedef struct {
  TwEventKind kind;
  int         prev_state_field; /* -1 when the type has none */
} TypeInfo;

struct _TwStateModel
{
  GObject    parent_instance;

  TwTrace   *trace;
  guint64    n_processed;
  guint64    last_time;
  GPtrArray *cpus;        /* CpuState */
  GPtrArray *tasks;       /* TaskState, index = task index */
  GArray    *types;       /* TypeInfo, index = type index */
};

G_DEFINE_FINAL_TYPE (TwStateModel, tw_state_model, G_TYPE_OBJECT)

static void
cpu_state_free (gpointer data)
{
  CpuState *cpu = data;

  g_array_unref (cpu->runs);
  g_array_unref (cpu->irqs);
  g_array_unref (cpu->irq_stack);
  g_free (cpu);
}

static void
task_state_free (gpointer data)
{
  TaskState *task = data;

  g_array_unref (task->states);
  g_array_unref (task->marks);
  g_free (task);
}

static void
tw_state_model_finalize (GObject *object)
{
  TwStateModel *self = (TwStateModel *)object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->cpus, g_ptr_array_unref);
  g_clear_pointer (&self->tasks, g_ptr_array_unref);
  g_clear_pointer (&self->types, g_array_unref);

  G_OBJECT_CLASS (tw_state_model_parent_class)->finalize (object);
}

static void
tw_state_model_class_init (TwStateModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_state_model_finalize;
}

static void
tw_state_model_init (TwStateModel *self)
{
  self->cpus = g_ptr_array_new_with_free_func (cpu_state_free);
  self->tasks = g_ptr_array_new_with_free_func (task_state_free);
  self->types = g_array_new (FALSE, FALSE, sizeof (TypeInfo));
}

/**
 * tw_state_model_new:
 *
 * Creates an empty model of @trace; call tw_state_model_update() to fill it.
 *
 * Returns: (transfer full): the model
 */
TwStateModel *
tw_state_model_new (TwTrace *trace)
{
  TwStateModel *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_STATE_MODEL, NULL);
  self->trace = g_object_ref (trace);
  return self;
}

/**
 * tw_state_model_get_trace:
 *
 * Returns: (transfer none): the trace
 */
TwTrace *
tw_state_model_get_trace (TwStateModel *self)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  return self->trace;
}

static CpuState *
cpu_at (TwStateModel *self,
        guint         cpu)
{
  while (self->cpus->len <= cpu)
    {
      CpuState *state = g_new0 (CpuState, 1);

      state->runs = g_array_new (FALSE, FALSE, sizeof (TwRunInterval));
      state->irqs = g_array_new (FALSE, FALSE, sizeof (TwIrqInterval));
      state->irq_stack = g_array_new (FALSE, FALSE, sizeof (guint));
      g_ptr_array_add (self->cpus, state);
    }
  return g_ptr_array_index (self->cpus, cpu);
}

static TaskState *
task_at (TwStateModel *self,
         guint32       task)
{
  while (self->tasks->len <= task)
    {
      TaskState *state = g_new0 (TaskState, 1);

      state->states = g_array_new (FALSE, FALSE, sizeof (TwTaskInterval));
      state->marks = g_array_new (FALSE, FALSE, sizeof (TwTaskMark));
      g_ptr_array_add (self->tasks, state);
    }
  return g_ptr_array_index (self->tasks, task);
}

static const TypeInfo *
type_info (TwStateModel *self,
           guint16       type)
{
  while (self->types->len <= type)
    {
      const TwEventType *t = tw_trace_get_event_type (self->trace, self->types->len);
      TypeInfo info = { TW_EVENT_KIND_OTHER, -1 };

      if (t != NULL)
        {
          info.kind = t->kind;
          if (t->kind == TW_EVENT_KIND_SWITCH)
            info.prev_state_field = tw_event_type_lookup_field (t, "prev_state");
        }
      g_array_append_val (self->types, info);
    }
  return &g_array_index (self->types, TypeInfo, type);
}

static gboolean
is_tracked_task (TwStateModel *self,
                 guint32       task)
{
  const TwTask *t;

  if (task == TW_TASK_NONE)
    return FALSE;
  t = tw_trace_get_task (self->trace, task);
  return t != NULL && !(t->flags & TW_TASK_FLAG_IDLE);
}

static void
task_enter (TwStateModel *self,
            guint32       task,
            TwTaskState   state,
            guint16       cpu,
            guint64       time)
{
  TaskState *ts = task_at (self, task);
  TwTaskInterval next = { time, time, cpu, state };

  if (ts->open)
    {
      TwTaskInterval *last = &g_array_index (ts->states, TwTaskInterval, ts->states->len - 1);

      if (last->state == state && last->cpu == cpu)
        return;
      last->end = time;
      if (last->state == TW_TASK_STATE_RUNNING)
        ts->cpu_time += last->end - last->start;
      /* A zero-length interval says nothing a user could see: reuse its slot. */
      if (last->start == time)
        g_array_set_size (ts->states, ts->states->len - 1);
    }

  if (state == TW_TASK_STATE_DEAD)
    {
      ts->open = FALSE;
      return;
    }

  g_array_append_val (ts->states, next);
  ts->open = TRUE;
}

static TwTaskState
task_current_state (TwStateModel *self,
                    guint32       task)
{
  TaskState *ts = task_at (self, task);

  if (!ts->open)
    return TW_TASK_STATE_UNKNOWN;
  return g_array_index (ts->states, TwTaskInterval, ts->states->len - 1).state;
}

static TwTaskState
switched_out_state (TwStateModel    *self,
                    const TypeInfo  *info,
                    const TwEventChunk *chunk,
                    guint            row)
{
  const TwEventType *type;
  TwValue value;
  const char *s;

  if (info->prev_state_field < 0 || chunk->payload[row] == TW_PAYLOAD_NONE)
    return TW_TASK_STATE_READY;

  type = tw_trace_get_event_type (self->trace, chunk->type[row]);
  if (!tw_event_type_get_field (type, chunk->blob + chunk->payload[row],
                                info->prev_state_field, &value))
    return TW_TASK_STATE_READY;

  if (value.type != TW_FIELD_STRING)
    /* ftrace's numeric prev_state: 0 is TASK_RUNNING, i.e. preempted. */
    return value.u == 0 ? TW_TASK_STATE_READY : TW_TASK_STATE_BLOCKED;

  s = tw_trace_get_string (self->trace, value.str);
  if (s == NULL || s[0] == '\0' || s[0] == 'R')
    return TW_TASK_STATE_READY;
  if (s[0] == 'X' || s[0] == 'Z' || s[0] == 'x')
    return TW_TASK_STATE_DEAD;
  return TW_TASK_STATE_BLOCKED;
}

static void
handle_switch (TwStateModel       *self,
               const TypeInfo     *info,
               const TwEventChunk *chunk,
               guint               row)
{
  guint64 t = chunk->time[row];
  guint16 cpu = chunk->cpu[row];
  guint32 prev = chunk->task[row];
  guint32 next = chunk->arg[row];

  if (cpu != TW_CPU_NONE)
    {
      CpuState *cs = cpu_at (self, cpu);
      TwRunInterval run = { t, t, next };

      if (cs->run_open)
        {
          TwRunInterval *last = &g_array_index (cs->runs, TwRunInterval, cs->runs->len - 1);

          last->end = t;
          if (last->start == t)
            g_array_set_size (cs->runs, cs->runs->len - 1);
        }
      g_array_append_val (cs->runs, run);
      cs->run_open = TRUE;
    }

  if (is_tracked_task (self, prev) && prev != next)
    task_enter (self, prev, switched_out_state (self, info, chunk, row), TW_CPU_NONE, t);
  if (is_tracked_task (self, next))
    task_enter (self, next, TW_TASK_STATE_RUNNING, cpu, t);
}

static void
handle_irq_entry (TwStateModel *self,
                  guint16       cpu,
                  guint64       time,
                  guint32       number,
                  TwIrqKind     kind)
{
  CpuState *cs;
  TwIrqInterval irq = { time, time, number, 0, kind, 1 };
  guint index;

  if (cpu == TW_CPU_NONE)
    return;

  cs = cpu_at (self, cpu);
  irq.depth = cs->irq_stack->len + 1;
  index = cs->irqs->len;
  g_array_append_val (cs->irqs, irq);
  g_array_append_val (cs->irq_stack, index);
}

static void
handle_irq_exit (TwStateModel *self,
                 guint16       cpu,
                 guint64       time,
                 guint32       number,
                 TwIrqKind     kind)
{
  CpuState *cs;

  if (cpu == TW_CPU_NONE)
    return;

  cs = cpu_at (self, cpu);
  /* Find the innermost open handler this exit matches; handlers opened inside it whose
   * exits were lost end here too, still marked unclosed. An exit that matches nothing
   * (its entry came before the trace started) is ignored. */
  for (guint i = cs->irq_stack->len; i > 0; i--)
    {
      guint index = g_array_index (cs->irq_stack, guint, i - 1);
      TwIrqInterval *irq = &g_array_index (cs->irqs, TwIrqInterval, index);

      if (irq->kind != kind || irq->number != number)
        continue;

      for (guint j = i; j <= cs->irq_stack->len; j++)
        g_array_index (cs->irqs, TwIrqInterval,
                       g_array_index (cs->irq_stack, guint, j - 1)).end = time;
      irq->unclosed = 0;
      g_array_set_size (cs->irq_stack, i - 1);
      return;
    }
}

static void
add_mark (TwStateModel *self,
          guint32       task,
          guint64       time,
          guint64       index)
{
  TwTaskMark mark = { time, index };

  if (task == TW_TASK_NONE)
    return;
  g_array_append_val (task_at (self, task)->marks, mark);
}

static void
extend_open_intervals (TwStateModel *self)
{
  guint64 t = self->last_time;

  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);

      if (cs->run_open)
        g_array_index (cs->runs, TwRunInterval, cs->runs->len - 1).end = t;
      for (guint i = 0; i < cs->irq_stack->len; i++)
        g_array_index (cs->irqs, TwIrqInterval, g_array_index (cs->irq_stack, guint, i)).end = t;
    }

  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      if (ts->open)
        g_array_index (ts->states, TwTaskInterval, ts->states->len - 1).end = t;
    }
}

/**
 * tw_state_model_update:
 *
 * Processes the events appended since the last call (all of them the first time).
 * Call from one thread at a time; readers of the arrays must not run concurrently.
 *
 * Returns: %FALSE when cancelled
 */
gboolean
tw_state_model_update (TwStateModel  *self,
                       GCancellable  *cancellable,
                       GError       **error)
{
  guint64 n;

  g_return_val_if_fail (TW_IS_STATE_MODEL (self), FALSE);

  n = tw_trace_get_n_events (self->trace);

  while (self->n_processed < n)
    {
      guint64 i = self->n_processed;
      guint64 base = (i >> TW_CHUNK_SHIFT) << TW_CHUNK_SHIFT;
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, i >> TW_CHUNK_SHIFT);
      guint row = i & TW_CHUNK_MASK;
      guint end = MIN (chunk->n, row + (guint) MIN (n - i, (guint64) TW_CHUNK_SIZE));

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      for (; row < end; row++)
        {
          const TypeInfo *info = type_info (self, chunk->type[row]);
          guint64 t = chunk->time[row];

          switch (info->kind)
            {
            case TW_EVENT_KIND_SWITCH:
              handle_switch (self, info, chunk, row);
              break;

            case TW_EVENT_KIND_WAKEUP:
              add_mark (self, chunk->arg[row], t, base + row);
              if (is_tracked_task (self, chunk->arg[row]))
                {
                  TwTaskState now = task_current_state (self, chunk->arg[row]);

                  if (now != TW_TASK_STATE_RUNNING && now != TW_TASK_STATE_READY)
                    task_enter (self, chunk->arg[row], TW_TASK_STATE_READY, TW_CPU_NONE, t);
                }
              break;

            case TW_EVENT_KIND_TASK_EXIT:
              if (is_tracked_task (self, chunk->arg[row]))
                task_enter (self, chunk->arg[row], TW_TASK_STATE_DEAD, TW_CPU_NONE, t);
              break;

            case TW_EVENT_KIND_IRQ_ENTRY:
              handle_irq_entry (self, chunk->cpu[row], t, chunk->arg[row], TW_IRQ_HARD);
              break;

            case TW_EVENT_KIND_IRQ_EXIT:
              handle_irq_exit (self, chunk->cpu[row], t, chunk->arg[row], TW_IRQ_HARD);
              break;

            case TW_EVENT_KIND_SOFTIRQ_ENTRY:
              handle_irq_entry (self, chunk->cpu[row], t, chunk->arg[row], TW_IRQ_SOFT);
              break;

            case TW_EVENT_KIND_SOFTIRQ_EXIT:
              handle_irq_exit (self, chunk->cpu[row], t, chunk->arg[row], TW_IRQ_SOFT);
              break;

            case TW_EVENT_KIND_USER:
            case TW_EVENT_KIND_MUTEX_LOCK:
            case TW_EVENT_KIND_MUTEX_UNLOCK:
            case TW_EVENT_KIND_MUTEX_WAIT:
            case TW_EVENT_KIND_SENSOR:
              add_mark (self, chunk->task[row], t, base + row);
              break;

            case TW_EVENT_KIND_OTHER:
            case TW_EVENT_KIND_TASK_CREATE:
            case TW_N_EVENT_KINDS:
            default:
              break;
            }

          self->last_time = MAX (self->last_time, t);
        }

      self->n_processed = base + end;
    }

  /* CPUs that exist but never switched still get (empty) rows. */
  if (tw_trace_get_n_cpus (self->trace) > 0)
    cpu_at (self, tw_trace_get_n_cpus (self->trace) - 1);

  extend_open_intervals (self);
  return TRUE;
}

guint64
tw_state_model_get_n_processed (TwStateModel *self)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  return self->n_processed;
}

guint
tw_state_model_get_n_cpus (TwStateModel *self)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  return self->cpus->len;
}

/**
 * tw_state_model_get_cpu_runs:
 * @n_runs: (out): the number of intervals
 *
 * Returns: (transfer none) (array length=n_runs) (nullable): what ran on @cpu, by start
 */
const TwRunInterval *
tw_state_model_get_cpu_runs (TwStateModel *self,
                             guint         cpu,
                             gsize        *n_runs)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  *n_runs = 0;
  if (cpu >= self->cpus->len)
    return NULL;
  *n_runs = ((CpuState *) g_ptr_array_index (self->cpus, cpu))->runs->len;
  return (const TwRunInterval *) ((CpuState *) g_ptr_array_index (self->cpus, cpu))->runs->data;
}

/**
 * tw_state_model_get_cpu_irqs:
 * @n_irqs: (out): the number of intervals
 *
 * Returns: (transfer none) (array length=n_irqs) (nullable): handlers on @cpu, by start
 */
const TwIrqInterval *
tw_state_model_get_cpu_irqs (TwStateModel *self,
                             guint         cpu,
                             gsize        *n_irqs)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  *n_irqs = 0;
  if (cpu >= self->cpus->len)
    return NULL;
  *n_irqs = ((CpuState *) g_ptr_array_index (self->cpus, cpu))->irqs->len;
  return (const TwIrqInterval *) ((CpuState *) g_ptr_array_index (self->cpus, cpu))->irqs->data;
}

/**
 * tw_state_model_get_task_states:
 * @n_states: (out): the number of intervals
 *
 * Returns: (transfer none) (array length=n_states) (nullable): @task's states, by start
 */
const TwTaskInterval *
tw_state_model_get_task_states (TwStateModel *self,
                                guint32       task,
                                gsize        *n_states)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  *n_states = 0;
  if (task >= self->tasks->len)
    return NULL;
  *n_states = ((TaskState *) g_ptr_array_index (self->tasks, task))->states->len;
  return (const TwTaskInterval *) ((TaskState *) g_ptr_array_index (self->tasks, task))->states->data;
}

/**
 * tw_state_model_get_task_marks:
 * @n_marks: (out): the number of marks
 *
 * Returns: (transfer none) (array length=n_marks) (nullable): @task's instant events, by time
 */
const TwTaskMark *
tw_state_model_get_task_marks (TwStateModel *self,
                               guint32       task,
                               gsize        *n_marks)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  *n_marks = 0;
  if (task >= self->tasks->len)
    return NULL;
  *n_marks = ((TaskState *) g_ptr_array_index (self->tasks, task))->marks->len;
  return (const TwTaskMark *) ((TaskState *) g_ptr_array_index (self->tasks, task))->marks->data;
}

/* Index of the last interval with start ≤ t, or -1; works for any struct starting with
 * guint64 start. */
static gssize
find_interval (const guint8 *base,
               gsize         n,
               gsize         stride,
               guint64       t)
{
  gsize lo = 0;
  gsize hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      guint64 start;

      memcpy (&start, base + mid * stride, sizeof start);
      if (start <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gssize) lo - 1;
}

/**
 * tw_state_model_get_running_task:
 *
 * Returns: the task running on @cpu at @time_ns (possibly an idle task), or
 *   %TW_TASK_NONE when the trace does not say
 */
guint32
tw_state_model_get_running_task (TwStateModel *self,
                                 guint         cpu,
                                 guint64       time_ns)
{
  gsize n;
  const TwRunInterval *runs = tw_state_model_get_cpu_runs (self, cpu, &n);
  gssize i = find_interval ((const guint8 *) runs, n, sizeof *runs, time_ns);

  if (i < 0 || (runs[i].end <= time_ns && (gsize) i + 1 < n))
    return TW_TASK_NONE;
  if (runs[i].end < time_ns)
    return TW_TASK_NONE;
  return runs[i].task;
}

/**
 * tw_state_model_get_task_state:
 *
 * Returns: what @task was doing at @time_ns
 */
TwTaskState
tw_state_model_get_task_state (TwStateModel *self,
                               guint32       task,
                               guint64       time_ns)
{
  gsize n;
  const TwTaskInterval *states = tw_state_model_get_task_states (self, task, &n);
  gssize i = find_interval ((const guint8 *) states, n, sizeof *states, time_ns);

  if (i < 0 || states[i].end < time_ns || (states[i].end == time_ns && (gsize) i + 1 < n))
    return TW_TASK_STATE_UNKNOWN;
  return states[i].state;
}

/**
 * tw_state_model_get_task_cpu_time:
 *
 * Returns: ns that @task spent running, up to the last processed event
 */
guint64
tw_state_model_get_task_cpu_time (TwStateModel *self,
                                  guint32       task)
{
  TaskState *ts;
  guint64 total;

  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  if (task >= self->tasks->len)
    return 0;
  ts = g_ptr_array_index (self->tasks, task);
  total = ts->cpu_time;
  if (ts->open)
    {
      const TwTaskInterval *last = &g_array_index (ts->states, TwTaskInterval, ts->states->len - 1);

      if (last->state == TW_TASK_STATE_RUNNING)
        total += last->end - last->start;
    }
  return total;
}

/**
 * tw_state_model_get_memory_size:
 *
 * Returns: bytes held by the interval arrays
 */
gsize
tw_state_model_get_memory_size (TwStateModel *self)
{
  gsize size = 0;

  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);

      size += cs->runs->len * sizeof (TwRunInterval) + cs->irqs->len * sizeof (TwIrqInterval);
    }
  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      size += ts->states->len * sizeof (TwTaskInterval) + ts->marks->len * sizeof (TwTaskMark);
    }
  return size;
}
