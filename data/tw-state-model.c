/* tw-state-model.c: per-CPU and per-task intervals derived from the events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/mman.h>

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

/*
 * A series is an array sorted by start time plus its level-of-detail index: the start of
 * every 8th element (l1) and of every 64th of those (l2). Painters search a series once
 * per pixel column; over arrays of hundreds of MB each step of a plain binary search is a
 * cache miss, while the index keeps the search in a few cache lines (the last step reads
 * 8 elements, three lines). l1 costs one byte per element.
 */
#define L1_SHIFT 3
#define L1_MASK  ((1u << L1_SHIFT) - 1)
#define L2_SHIFT 6
#define L2_MASK  ((1u << L2_SHIFT) - 1)

/* A growable array. Small ones live in malloc; past 4 MiB the array moves once into a
 * reservation of 16 GiB of address space (MAP_NORESERVE: only touched pages count),
 * 2 MiB aligned and advised as huge pages, where it grows without copying and takes
 * one page fault per 2 MiB instead of one per 4 KiB. First touch of fresh memory is
 * most of the cost of building the model on virtual machines. */
#define VEC_HUGE_BYTES   (4u << 20)
#define VEC_RESERVE      (G_GUINT64_CONSTANT (16) << 30)
#define VEC_ALIGN        (2u << 20)

typedef struct {
  guint8   *data;
  gsize     len;        /* elements */
  gsize     cap;        /* bytes */
  guint     size;       /* bytes per element */
  gboolean  mapped;     /* data is a reservation of cap bytes */
} Vec;

typedef struct {
  Vec     items;
  GArray *l1;         /* guint64 */
  GArray *l2;         /* guint64 */
} Series;

typedef struct {
  Series    runs;       /* TwRunInterval */
  Series    irqs;       /* TwIrqInterval */
  GArray   *irq_stack;  /* guint: indexes into irqs of open handlers, innermost last */
  gboolean  run_open;
} CpuState;

typedef struct {
  Series    states;     /* TwTaskInterval */
  Series    marks;      /* TwTaskMark */
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

static guint8 *
map_reservation (gsize size)
{
  gsize len = size + VEC_ALIGN;
  guint8 *raw = mmap (NULL, len, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  guint8 *aligned;

  if (raw == MAP_FAILED)
    return NULL;
  aligned = (guint8 *) (((guintptr) raw + VEC_ALIGN - 1) & ~(guintptr) (VEC_ALIGN - 1));
  if (aligned > raw)
    munmap (raw, aligned - raw);
  munmap (aligned + size, (raw + len) - (aligned + size));
  madvise (aligned, size, MADV_HUGEPAGE);
  return aligned;
}

static void
vec_reserve (Vec   *vec,
             gsize  n)
{
  gsize need = n * vec->size;
  gsize cap;
  guint8 *data;

  if (need <= vec->cap)
    return;

  cap = MAX (MAX (need, vec->cap * 2), 16 * vec->size);
  if (!vec->mapped && cap < VEC_HUGE_BYTES)
    {
      vec->data = g_realloc (vec->data, cap);
      vec->cap = cap;
      return;
    }

  if (vec->mapped)
    {
      /* past the reservation (16 GiB of one series): move page tables, not bytes */
      cap = (cap + VEC_ALIGN - 1) & ~(gsize) (VEC_ALIGN - 1);
      if ((data = mremap (vec->data, vec->cap, cap, MREMAP_MAYMOVE)) == MAP_FAILED)
        g_error ("tw-state-model: out of memory growing to %" G_GSIZE_FORMAT " bytes", cap);
    }
  else
    {
      cap = MAX ((gsize) VEC_RESERVE, (cap + VEC_ALIGN - 1) & ~(gsize) (VEC_ALIGN - 1));
      if ((data = map_reservation (cap)) == NULL)
        g_error ("tw-state-model: cannot reserve %" G_GSIZE_FORMAT " bytes of address space", cap);
      memcpy (data, vec->data, vec->len * vec->size);
      g_free (vec->data);
      vec->mapped = TRUE;
    }

  vec->data = data;
  vec->cap = cap;
}

static void
vec_clear (Vec *vec)
{
  if (vec->mapped)
    munmap (vec->data, vec->cap);
  else
    g_free (vec->data);
  vec->data = NULL;
  vec->len = vec->cap = 0;
}

#define VEC_AT(vec, type, i) (((type *) (vec).data)[i])
#define VEC_LAST(vec, type)  (((type *) (vec).data)[(vec).len - 1])

static void
series_init (Series *series,
             gsize   element_size)
{
  series->items = (Vec) { NULL, 0, 0, element_size, FALSE };
  series->l1 = g_array_new (FALSE, FALSE, sizeof (guint64));
  series->l2 = g_array_new (FALSE, FALSE, sizeof (guint64));
}

static void
series_clear (Series *series)
{
  vec_clear (&series->items);
  g_clear_pointer (&series->l1, g_array_unref);
  g_clear_pointer (&series->l2, g_array_unref);
}

/* Every element type of a series starts with its guint64 start time. */
static void
series_append (Series        *series,
               gconstpointer  item)
{
  guint64 start;

  memcpy (&start, item, sizeof start);
  if ((series->items.len & L1_MASK) == 0)
    {
      if ((series->l1->len & L2_MASK) == 0)
        g_array_append_val (series->l2, start);
      g_array_append_val (series->l1, start);
    }
  if G_UNLIKELY ((series->items.len + 1) * series->items.size > series->items.cap)
    vec_reserve (&series->items, series->items.len + 1);
  memcpy (series->items.data + series->items.len * series->items.size, item, series->items.size);
  series->items.len++;
}

static void
series_pop (Series *series)
{
  series->items.len--;
  if ((series->items.len & L1_MASK) == 0)
    {
      g_array_set_size (series->l1, series->l1->len - 1);
      if ((series->l1->len & L2_MASK) == 0)
        g_array_set_size (series->l2, series->l2->len - 1);
    }
}

static gsize
lower_bound_u64 (const guint64 *values,
                 gsize          lo,
                 gsize          hi,
                 guint64        t)
{
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (values[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* First element with start ≥ t: each level narrows the next to one block. */
static gsize
series_lower_bound (const Series *series,
                    guint64       t)
{
  const Vec *items = &series->items;
  gsize p2 = lower_bound_u64 ((const guint64 *) series->l2->data, 0, series->l2->len, t);
  gsize lo1 = p2 > 0 ? (p2 - 1) << L2_SHIFT : 0;
  gsize hi1 = MIN ((p2 << L2_SHIFT) + 1, series->l1->len);
  gsize p1 = lower_bound_u64 ((const guint64 *) series->l1->data, lo1, hi1, t);
  gsize lo = p1 > 0 ? (p1 - 1) << L1_SHIFT : 0;
  gsize hi = MIN ((p1 << L1_SHIFT) + 1, items->len);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      guint64 start;

      memcpy (&start, items->data + mid * items->size, sizeof start);
      if (start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static void
cpu_state_free (gpointer data)
{
  CpuState *cpu = data;

  series_clear (&cpu->runs);
  series_clear (&cpu->irqs);
  g_array_unref (cpu->irq_stack);
  g_free (cpu);
}

static void
task_state_free (gpointer data)
{
  TaskState *task = data;

  series_clear (&task->states);
  series_clear (&task->marks);
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

      series_init (&state->runs, sizeof (TwRunInterval));
      series_init (&state->irqs, sizeof (TwIrqInterval));
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

      series_init (&state->states, sizeof (TwTaskInterval));
      series_init (&state->marks, sizeof (TwTaskMark));
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
      TwTaskInterval *last = &VEC_LAST (ts->states.items, TwTaskInterval);

      if (last->state == state && last->cpu == cpu)
        return;
      last->end = time;
      if (last->state == TW_TASK_STATE_RUNNING)
        ts->cpu_time += last->end - last->start;
      /* A zero-length interval says nothing a user could see: reuse its slot. */
      if (last->start == time)
        series_pop (&ts->states);
    }

  if (state == TW_TASK_STATE_DEAD)
    {
      ts->open = FALSE;
      return;
    }

  series_append (&ts->states, &next);
  ts->open = TRUE;
}

static TwTaskState
task_current_state (TwStateModel *self,
                    guint32       task)
{
  TaskState *ts = task_at (self, task);

  if (!ts->open)
    return TW_TASK_STATE_UNKNOWN;
  return VEC_LAST (ts->states.items, TwTaskInterval).state;
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
          TwRunInterval *last = &VEC_LAST (cs->runs.items, TwRunInterval);

          /* The CPU was running another task than the one switched out: the trace lost
           * that task's switch-out. It stopped running here at the latest; what it did
           * since is unknown, not "running until the end of the trace". */
          if (last->task != prev && is_tracked_task (self, last->task)
              && task_current_state (self, last->task) == TW_TASK_STATE_RUNNING
              && VEC_LAST (task_at (self, last->task)->states.items, TwTaskInterval).cpu == cpu)
            task_enter (self, last->task, TW_TASK_STATE_UNKNOWN, TW_CPU_NONE, t);

          last->end = t;
          if (last->start == t)
            series_pop (&cs->runs);
        }
      series_append (&cs->runs, &run);
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
  index = cs->irqs.items.len;
  series_append (&cs->irqs, &irq);
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
      TwIrqInterval *irq = &VEC_AT (cs->irqs.items, TwIrqInterval, index);

      if (irq->kind != kind || irq->number != number)
        continue;

      for (guint j = i; j <= cs->irq_stack->len; j++)
        VEC_AT (cs->irqs.items, TwIrqInterval, g_array_index (cs->irq_stack, guint, j - 1)).end = time;
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
  series_append (&task_at (self, task)->marks, &mark);
}

static void
extend_open_intervals (TwStateModel *self)
{
  guint64 t = self->last_time;

  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);

      if (cs->run_open)
        VEC_LAST (cs->runs.items, TwRunInterval).end = t;
      for (guint i = 0; i < cs->irq_stack->len; i++)
        VEC_AT (cs->irqs.items, TwIrqInterval, g_array_index (cs->irq_stack, guint, i)).end = t;
    }

  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      if (ts->open)
        VEC_LAST (ts->states.items, TwTaskInterval).end = t;
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
  *n_runs = ((CpuState *) g_ptr_array_index (self->cpus, cpu))->runs.items.len;
  return (const TwRunInterval *) ((CpuState *) g_ptr_array_index (self->cpus, cpu))->runs.items.data;
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
  *n_irqs = ((CpuState *) g_ptr_array_index (self->cpus, cpu))->irqs.items.len;
  return (const TwIrqInterval *) ((CpuState *) g_ptr_array_index (self->cpus, cpu))->irqs.items.data;
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
  *n_states = ((TaskState *) g_ptr_array_index (self->tasks, task))->states.items.len;
  return (const TwTaskInterval *) ((TaskState *) g_ptr_array_index (self->tasks, task))->states.items.data;
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
  *n_marks = ((TaskState *) g_ptr_array_index (self->tasks, task))->marks.items.len;
  return (const TwTaskMark *) ((TaskState *) g_ptr_array_index (self->tasks, task))->marks.items.data;
}

/* As series_lower_bound, for an answer known to be ≥ @from: gallop forward through l1
 * from @from's block. Painters walk columns left to right, so each search starts where
 * the last one ended and touches memory in order. */
static gsize
series_lower_bound_from (const Series *series,
                         gsize         from,
                         guint64       t)
{
  const Vec *items = &series->items;
  const guint64 *l1 = (const guint64 *) series->l1->data;
  gsize stride = items->size;
  gsize n1 = series->l1->len;
  gsize b, step = 1, p1, lo, hi;
  guint64 start;

  if (from >= items->len)
    return items->len;
  memcpy (&start, items->data + from * stride, sizeof start);
  if (start >= t)
    return from;

  /* l1[b] ≤ start[from] < t; find the first block whose sample is ≥ t */
  b = from >> L1_SHIFT;
  while (b + step < n1 && l1[b + step] < t)
    {
      b += step;
      step *= 2;
    }
  p1 = lower_bound_u64 (l1, b + 1, MIN (b + step + 1, n1), t);
  lo = MAX (from + 1, (p1 - 1) << L1_SHIFT);
  hi = MIN ((p1 << L1_SHIFT) + 1, items->len);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      memcpy (&start, items->data + mid * stride, sizeof start);
      if (start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static const Series *
lookup_series (TwStateModel *self,
               TwSeries      series,
               guint         id)
{
  switch (series)
    {
    case TW_SERIES_CPU_RUNS:
      return id < self->cpus->len ? &((CpuState *) g_ptr_array_index (self->cpus, id))->runs : NULL;
    case TW_SERIES_CPU_IRQS:
      return id < self->cpus->len ? &((CpuState *) g_ptr_array_index (self->cpus, id))->irqs : NULL;
    case TW_SERIES_TASK_STATES:
      return id < self->tasks->len ? &((TaskState *) g_ptr_array_index (self->tasks, id))->states : NULL;
    case TW_SERIES_TASK_MARKS:
      return id < self->tasks->len ? &((TaskState *) g_ptr_array_index (self->tasks, id))->marks : NULL;
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * tw_state_model_lower_bound:
 * @id: the CPU or task index the series belongs to
 *
 * Searches a series through its level-of-detail index: a few cache lines per call, so
 * painters can afford one search per pixel column.
 *
 * Returns: the index of the first element whose start (or time, for marks) is ≥ @time_ns;
 *   the series' length when there is none
 */
gsize
tw_state_model_lower_bound (TwStateModel *self,
                            TwSeries      series,
                            guint         id,
                            guint64       time_ns)
{
  const Series *s;

  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  s = lookup_series (self, series, id);
  return s ? series_lower_bound (s, time_ns) : 0;
}

/**
 * tw_state_model_lower_bound_from:
 * @from: an index known to be at or before the answer
 *
 * tw_state_model_lower_bound() for searches that move forward in time, such as one per
 * pixel column from left to right: costs grow with the distance from @from.
 *
 * Returns: the index of the first element at or after @from whose start is ≥ @time_ns
 */
gsize
tw_state_model_lower_bound_from (TwStateModel *self,
                                 TwSeries      series,
                                 guint         id,
                                 gsize         from,
                                 guint64       time_ns)
{
  const Series *s;

  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  s = lookup_series (self, series, id);
  return s ? series_lower_bound_from (s, from, time_ns) : 0;
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
  gssize i = (gssize) tw_state_model_lower_bound (self, TW_SERIES_CPU_RUNS, cpu, time_ns + 1) - 1;

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
  gssize i = (gssize) tw_state_model_lower_bound (self, TW_SERIES_TASK_STATES, task, time_ns + 1) - 1;

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
      const TwTaskInterval *last = &VEC_LAST (ts->states.items, TwTaskInterval);

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

      size += cs->runs.items.len * sizeof (TwRunInterval) + cs->irqs.items.len * sizeof (TwIrqInterval);
    }
  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      size += ts->states.items.len * sizeof (TwTaskInterval) + ts->marks.items.len * sizeof (TwTaskMark);
    }
  return size;
}
