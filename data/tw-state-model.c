/* tw-state-model.c: per-CPU and per-task intervals derived from the events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-state-model-private.h"
#include "tw-trace-cache.h"
#include "tw-trace-private.h"

/*
 * One pass over the events in time order, resumable: tw_state_model_update() continues
 * where the last call stopped, so a live trace pays only for what arrived since.
 *
 * Every array is sorted by start time. The last element of a CPU's runs and of a task's
 * states may be open (still going on); its end is the time of the last processed event
 * until something closes it. Open interrupts are tracked by index in a per-CPU stack and
 * closed in place, which keeps the irq array sorted by start even though nested handlers
 * end in reverse order.
 *
 * In a trace of several machines "the last processed event" is the last one of the
 * machine the CPU or task belongs to (HostEnd): one whose trace stopped earlier keeps
 * its last states up to where its trace stops, not up to where the others' do.
 */

G_DEFINE_FINAL_TYPE (TwStateModel, tw_state_model, G_TYPE_OBJECT)

#define VEC_AT(vec, type, i) (((type *) (vec).data)[i])
#define VEC_LAST(vec, type)  (((type *) (vec).data)[(vec).len - 1])

void
_tw_state_model_series_init (Series *series,
                             gsize   element_size)
{
  tw_huge_array_init (&series->items, element_size);
  tw_huge_array_init (&series->l1, sizeof (guint64));
  tw_huge_array_init (&series->l2, sizeof (guint64));
  tw_huge_array_init (&series->kinds, sizeof (guint8));
  tw_huge_array_init (&series->parents, sizeof (guint32));
}

static void
bins_free (Bins *bins)
{
  for (guint k = 0; k < bins->n_levels; k++)
    tw_huge_array_clear (&bins->level[k]);
  g_free (bins);
}

static void
series_clear (Series *series)
{
  g_clear_pointer (&series->bins, bins_free);
  tw_huge_array_clear (&series->kinds);
  tw_huge_array_clear (&series->parents);
  tw_huge_array_clear (&series->items);
  tw_huge_array_clear (&series->l1);
  tw_huge_array_clear (&series->l2);
}

/* Every element type of a series starts with its guint64 start time. Inline, with the
 * constant @size of the caller's element, so that the copy is a few moves. */
static inline void
series_append (Series        *series,
               gconstpointer  item,
               gsize          size)
{
  if G_UNLIKELY ((series->items.len & L1_MASK) == 0)
    {
      guint64 start;

      memcpy (&start, item, sizeof start);
      if ((series->l1.len & L2_MASK) == 0)
        memcpy (tw_huge_array_push (&series->l2), &start, sizeof start);
      memcpy (tw_huge_array_push (&series->l1), &start, sizeof start);
    }
  memcpy (tw_huge_array_push (&series->items), item, size);
}

static void
series_pop (Series *series)
{
  series->items.len--;
  if ((series->items.len & L1_MASK) == 0)
    {
      series->l1.len--;
      if ((series->l1.len & L2_MASK) == 0)
        series->l2.len--;
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
  const TwHugeArray *items = &series->items;
  gsize p2 = lower_bound_u64 ((const guint64 *) series->l2.data, 0, series->l2.len, t);
  gsize lo1 = p2 > 0 ? (p2 - 1) << L2_SHIFT : 0;
  gsize hi1 = MIN ((p2 << L2_SHIFT) + 1, series->l1.len);
  gsize p1 = lower_bound_u64 ((const guint64 *) series->l1.data, lo1, hi1, t);
  gsize lo = p1 > 0 ? (p1 - 1) << L1_SHIFT : 0;
  gsize hi = MIN ((p1 << L1_SHIFT) + 1, items->len);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      guint64 start;

      memcpy (&start, items->data + mid * items->element_size, sizeof start);
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
  series_clear (&cpu->marks);
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
  g_clear_pointer (&self->tracked, g_byte_array_unref);
  g_clear_pointer (&self->prev_states, g_byte_array_unref);
  g_clear_pointer (&self->image, g_bytes_unref);
  g_clear_pointer (&self->host_ends, g_array_unref);
  g_clear_pointer (&self->cpu_hosts, g_array_unref);
  g_clear_pointer (&self->task_hosts, g_array_unref);

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
  self->tracked = g_byte_array_new ();
  self->prev_states = g_byte_array_new ();
  self->host_ends = g_array_new (FALSE, FALSE, sizeof (HostEnd));
  self->cpu_hosts = g_array_new (FALSE, TRUE, sizeof (guint16));
  self->task_hosts = g_array_new (FALSE, TRUE, sizeof (guint16));
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
  self->end_event = G_MAXUINT64;
  self->whole = TRUE;
  return self;
}

/**
 * tw_state_model_new_window:
 * @first_event: the first event to process
 * @end_event: one past the last
 *
 * A model of the events in [@first_event, @end_event) only, for a question about a short
 * stretch of a long trace (tracewb-cli explain). What ran and in which state each task
 * was are unknown until the window's events say; a handler entered before it is not
 * seen. tw_state_model_update() never processes beyond @end_event.
 *
 * Returns: (transfer full): the model, empty until updated
 */
TwStateModel *
tw_state_model_new_window (TwTrace *trace,
                           guint64  first_event,
                           guint64  end_event)
{
  TwStateModel *self = tw_state_model_new (trace);

  g_return_val_if_fail (first_event <= end_event, self);

  self->n_processed = first_event;
  self->end_event = end_event;
  self->whole = FALSE;
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

CpuState *
_tw_state_model_add_cpu (TwStateModel *self,
                         guint         cpu)
{
  while (self->cpus->len <= cpu)
    {
      CpuState *state = g_new0 (CpuState, 1);

      _tw_state_model_series_init (&state->runs, sizeof (TwRunInterval));
      _tw_state_model_series_init (&state->irqs, sizeof (TwIrqInterval));
      _tw_state_model_series_init (&state->marks, sizeof (TwCpuMark));
      state->irq_stack = g_array_new (FALSE, FALSE, sizeof (guint));
      g_ptr_array_add (self->cpus, state);
    }
  return g_ptr_array_index (self->cpus, cpu);
}

static inline CpuState *
cpu_at (TwStateModel *self,
        guint         cpu)
{
  if G_LIKELY (cpu < self->cpus->len)
    return self->cpus->pdata[cpu];
  return _tw_state_model_add_cpu (self, cpu);
}

TaskState *
_tw_state_model_add_task (TwStateModel *self,
                          guint32       task)
{
  while (self->tasks->len <= task)
    {
      TaskState *state = g_new0 (TaskState, 1);

      _tw_state_model_series_init (&state->states, sizeof (TwTaskInterval));
      _tw_state_model_series_init (&state->marks, sizeof (TwTaskMark));
      g_ptr_array_add (self->tasks, state);
    }
  return g_ptr_array_index (self->tasks, task);
}

static inline TaskState *
task_at (TwStateModel *self,
         guint32       task)
{
  if G_LIKELY (task < self->tasks->len)
    return self->tasks->pdata[task];
  return _tw_state_model_add_task (self, task);
}

/* ---------------------------------------------------------------- hosts */

/* 1 + the index of @host in @host_ends (added at end 0 when new), or 0 for no host. */
static guint16
host_slot (TwStateModel *self,
           const char   *host)
{
  HostEnd added = { host, 0 };

  if (host == NULL)
    return 0;
  /* interned, and a handful of them */
  for (guint i = 0; i < self->host_ends->len; i++)
    if (g_array_index (self->host_ends, HostEnd, i).host == host)
      return i + 1;
  g_array_append_val (self->host_ends, added);
  return self->host_ends->len;
}

/* Reads the hosts of the CPUs and tasks the trace has now, when it names several: a
 * trace of one machine keeps the tables empty and its loop free of them. */
void
_tw_state_model_refresh_hosts (TwStateModel *self)
{
  guint n_cpus, n_tasks;

  if (tw_trace_get_n_hosts (self->trace) < 2)
    return;
  n_cpus = tw_trace_get_n_cpus (self->trace);
  n_tasks = tw_trace_get_n_tasks (self->trace);
  g_array_set_size (self->cpu_hosts, n_cpus);
  for (guint c = 0; c < n_cpus; c++)
    g_array_index (self->cpu_hosts, guint16, c) =
      host_slot (self, tw_trace_get_cpu_host (self->trace, c, NULL));
  g_array_set_size (self->task_hosts, n_tasks);
  for (guint32 k = 0; k < n_tasks; k++)
    g_array_index (self->task_hosts, guint16, k) =
      host_slot (self, tw_trace_get_task (self->trace, k)->host);
}

static inline guint16
cpu_host (TwStateModel *self,
          guint         cpu)
{
  return cpu < self->cpu_hosts->len ? g_array_index (self->cpu_hosts, guint16, cpu) : 0;
}

static inline guint16
task_host (TwStateModel *self,
           guint32       task)
{
  return task < self->task_hosts->len ? g_array_index (self->task_hosts, guint16, task) : 0;
}

static inline guint64
slot_end (TwStateModel *self,
          guint16       slot)
{
  return slot == 0 ? self->last_time : g_array_index (self->host_ends, HostEnd, slot - 1).end;
}

/* An event at @t of @cpu (or, off-CPU, of @task) moves its host's end. */
static inline void
note_host_time (TwStateModel *self,
                guint16       cpu,
                guint32       task,
                guint64       t)
{
  guint16 slot = cpu != TW_CPU_NONE ? cpu_host (self, cpu) : task_host (self, task);
  HostEnd *he;

  if (slot == 0)
    return;
  he = &g_array_index (self->host_ends, HostEnd, slot - 1);
  he->end = MAX (he->end, t);
}

/* Where the open elements of @cpu's series end: its host's last event, or the trace's. */
guint64
_tw_state_model_cpu_end (TwStateModel *self,
                         guint         cpu)
{
  return slot_end (self, cpu_host (self, cpu));
}

guint64
_tw_state_model_task_end (TwStateModel *self,
                          guint32       task)
{
  return slot_end (self, task_host (self, task));
}

/* A model adopted from its image learns its hosts' ends from the records. */
void
_tw_state_model_set_cpu_end (TwStateModel *self,
                             guint         cpu,
                             guint64       end)
{
  note_host_time (self, cpu, TW_TASK_NONE, end);
}

void
_tw_state_model_set_task_end (TwStateModel *self,
                              guint32       task,
                              guint64       end)
{
  note_host_time (self, TW_CPU_NONE, task, end);
}

/* Resolves the types up to @type: tw_state_model_update() resolves those the trace
 * has when it begins, a live trace may add more as it goes. */
static const TypeInfo *
type_info_add (TwStateModel *self,
               guint16       type)
{
  while (self->types->len <= type)
    {
      const TwEventType *t = tw_trace_get_event_type (self->trace, self->types->len);
      TypeInfo info = { TW_EVENT_KIND_OTHER, -1, t };

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

static inline const TypeInfo *
type_info (TwStateModel *self,
           guint16       type)
{
  if G_LIKELY (type < self->types->len)
    return &g_array_index (self->types, TypeInfo, type);
  return type_info_add (self, type);
}

static gboolean
is_tracked_task_in_table (TwStateModel *self,
                          guint32       task)
{
  const TwTask *t;

  if (task == TW_TASK_NONE)
    return FALSE;
  t = tw_trace_get_task (self->trace, task);
  return t != NULL && !(t->flags & TW_TASK_FLAG_IDLE);
}

/* Reads the task table's flags into @tracked for the tasks it has now. */
static void
refresh_tracked (TwStateModel *self)
{
  guint32 n = tw_trace_get_n_tasks (self->trace);

  g_byte_array_set_size (self->tracked, n);
  for (guint32 k = 0; k < n; k++)
    self->tracked->data[k] = is_tracked_task_in_table (self, k);
}

/* Whether @task is one to give states and to draw as running (not an idle task, not
 * TW_TASK_NONE). */
static inline gboolean
is_tracked_task (TwStateModel *self,
                 guint32       task)
{
  if G_LIKELY (task < self->tracked->len)
    return self->tracked->data[task];
  return is_tracked_task_in_table (self, task);
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

  series_append (&ts->states, &next, sizeof next);
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

/* The state a switch left its prev task in: the one its reader gave the prev_state
 * string (tw_trace_intern_task_state()); READY when it gave none. */
static TwTaskState
switched_out_state (TwStateModel    *self,
                    const TypeInfo  *info,
                    const TwEventChunk *chunk,
                    guint            row)
{
  TwValue value;
  TwTaskState state;

  if (info->prev_state_field < 0 || chunk->payload[row] == TW_PAYLOAD_NONE)
    return TW_TASK_STATE_READY;

  if (!tw_event_type_get_field (info->type, chunk->blob + chunk->payload[row],
                                info->prev_state_field, &value)
      || value.type != TW_FIELD_STRING)
    return TW_TASK_STATE_READY;

  /* A few distinct strings stand in millions of switches, and the reader named the state
   * of each before the first row that holds it was published. */
  if G_LIKELY (value.str < self->prev_states->len && self->prev_states->data[value.str] != 0)
    return self->prev_states->data[value.str] - 1;
  state = tw_trace_get_string_task_state (self->trace, value.str);
  if (state == TW_TASK_STATE_UNKNOWN)
    state = TW_TASK_STATE_READY;
  if (tw_trace_get_string (self->trace, value.str) != NULL)
    {
      if (value.str >= self->prev_states->len)
        {
          guint old = self->prev_states->len;

          g_byte_array_set_size (self->prev_states, value.str + 1);
          memset (self->prev_states->data + old, 0, value.str + 1 - old);
        }
      self->prev_states->data[value.str] = 1 + state;
    }
  return state;
}

static void
add_cpu_mark (CpuState      *cs,
              guint64        time,
              guint64        index,
              guint32        task,
              TwCpuMarkKind  kind)
{
  TwCpuMark mark = { time, index, task, kind };

  series_append (&cs->marks, &mark, sizeof mark);
  *(guint8 *) tw_huge_array_push (&cs->marks.kinds) = kind == TW_CPU_MARK_LOST
                                                       ? TW_SUMMARY_CPU_MARK_LOST
                                                       : TW_SUMMARY_CPU_MARK_REPAIR;
  if (kind != TW_CPU_MARK_LOST)
    cs->n_repairs++;
}

/* The CPU @task runs on by the model, or TW_CPU_NONE when it is not running. */
static guint16
running_cpu (TwStateModel *self,
             guint32       task)
{
  if (task_current_state (self, task) != TW_TASK_STATE_RUNNING)
    return TW_CPU_NONE;
  return VEC_LAST (task_at (self, task)->states.items, TwTaskInterval).cpu;
}

/* What @task did after its run on @cpu ended at @t is unknown, not "running until the
 * end of the trace": that would hide its later wakeups and draw it on two CPUs. */
static void
end_stale_run (TwStateModel *self,
               guint32       task,
               guint16       cpu,
               guint64       t)
{
  if (is_tracked_task (self, task) && running_cpu (self, task) == cpu)
    task_enter (self, task, TW_TASK_STATE_UNKNOWN, TW_CPU_NONE, t);
}

/* @next is switched in on @cpu while the model has it running on another CPU (its
 * switch-out there was lost, or the CPUs' clocks disagree): its run there ends. */
static void
end_double_run (TwStateModel *self,
                guint32       next,
                guint16       cpu,
                guint64       t,
                guint64       index)
{
  guint16 other = running_cpu (self, next);
  CpuState *os;

  if (other == TW_CPU_NONE || other == cpu)
    return;
  os = cpu_at (self, other);
  if (os->run_open && VEC_LAST (os->runs.items, TwRunInterval).task == next)
    {
      TwRunInterval *last = &VEC_LAST (os->runs.items, TwRunInterval);

      last->end = t;
      if (last->start == t)
        series_pop (&os->runs);
      os->run_open = FALSE;
    }
  add_cpu_mark (os, t, index, next, TW_CPU_MARK_DOUBLE_RUN);
}

static void
handle_switch (TwStateModel       *self,
               const TypeInfo     *info,
               const TwEventChunk *chunk,
               guint               row,
               guint64             index)
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
           * that task's switch-out. It stopped running here at the latest. */
          if (last->task != prev && prev != TW_TASK_NONE && last->task != TW_TASK_NONE)
            {
              end_stale_run (self, last->task, cpu, t);
              add_cpu_mark (cs, t, index, last->task, TW_CPU_MARK_STALE_RUN);
            }
          last->end = t;
          if (last->start == t)
            series_pop (&cs->runs);
        }
      series_append (&cs->runs, &run, sizeof run);
      cs->run_open = TRUE;
    }

  /* a switch-out of a task the model has running on another CPU is the late half of a
   * repair end_double_run() already made there */
  if (is_tracked_task (self, prev) && prev != next)
    {
      guint16 on = running_cpu (self, prev);

      if (on == TW_CPU_NONE || on == cpu || cpu == TW_CPU_NONE)
        task_enter (self, prev, switched_out_state (self, info, chunk, row), TW_CPU_NONE, t);
    }
  if (is_tracked_task (self, next))
    {
      if (cpu != TW_CPU_NONE)
        end_double_run (self, next, cpu, t, index);
      task_enter (self, next, TW_TASK_STATE_RUNNING, cpu, t);
    }
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
  guint32 parent;

  if (cpu == TW_CPU_NONE)
    return;

  cs = cpu_at (self, cpu);
  irq.depth = cs->irq_stack->len + 1;
  index = cs->irqs.items.len;
  parent = cs->irq_stack->len > 0 ? g_array_index (cs->irq_stack, guint, cs->irq_stack->len - 1)
                                  : G_MAXUINT32;
  series_append (&cs->irqs, &irq, sizeof irq);
  memcpy (tw_huge_array_push (&cs->irqs.parents), &parent, sizeof parent);
  g_array_append_val (cs->irq_stack, index);
}

static void bins_add_closed_irq (TwStateModel *self,
                                 CpuState     *cs,
                                 guint         index);

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

      if (irq->kind != kind
          || (irq->number != number && irq->number != TW_IRQ_NUMBER_UNKNOWN
              && number != TW_IRQ_NUMBER_UNKNOWN))
        continue;

      for (guint j = i; j <= cs->irq_stack->len; j++)
        VEC_AT (cs->irqs.items, TwIrqInterval, g_array_index (cs->irq_stack, guint, j - 1)).end = time;
      irq->unclosed = 0;
      if (irq->number == TW_IRQ_NUMBER_UNKNOWN)
        irq->number = number;
      for (guint j = i; j <= cs->irq_stack->len; j++)
        bins_add_closed_irq (self, cs, g_array_index (cs->irq_stack, guint, j - 1));
      g_array_set_size (cs->irq_stack, i - 1);
      return;
    }
}

static void
add_mark (TwStateModel *self,
          guint32       task,
          guint64       time,
          guint64       index,
          TwEventKind   kind)
{
  TwTaskMark mark = { time, index };
  Series *marks;
  guint8 bits;

  if (task == TW_TASK_NONE)
    return;
  if (kind == TW_EVENT_KIND_WAKEUP)
    bits = TW_SUMMARY_MARK_WAKEUP;
  else if (kind == TW_EVENT_KIND_MUTEX_LOCK || kind == TW_EVENT_KIND_MUTEX_UNLOCK
           || kind == TW_EVENT_KIND_MUTEX_WAIT)
    bits = TW_SUMMARY_MARK_MUTEX;
  else
    bits = TW_SUMMARY_MARK_OTHER;
  marks = &task_at (self, task)->marks;
  series_append (marks, &mark, sizeof mark);
  *(guint8 *) tw_huge_array_push (&marks->kinds) = bits;
}

static void update_bins (TwStateModel *self);

/* Open elements end at their host's last event, and never before they start: a source
 * that let an event of one machine open an element of another would otherwise make an
 * element end before its start. */
static void
extend_open_intervals (TwStateModel *self)
{
  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);
      guint64 t = _tw_state_model_cpu_end (self, c);

      if (cs->run_open)
        {
          TwRunInterval *last = &VEC_LAST (cs->runs.items, TwRunInterval);

          last->end = MAX (t, last->start);
        }
      for (guint i = 0; i < cs->irq_stack->len; i++)
        {
          TwIrqInterval *irq = &VEC_AT (cs->irqs.items, TwIrqInterval,
                                        g_array_index (cs->irq_stack, guint, i));

          irq->end = MAX (t, irq->start);
        }
    }

  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      if (ts->open)
        {
          TwTaskInterval *last = &VEC_LAST (ts->states.items, TwTaskInterval);

          last->end = MAX (_tw_state_model_task_end (self, k), last->start);
        }
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
  return tw_state_model_update_some (self, G_MAXUINT64, cancellable, error);
}

/**
 * tw_state_model_update_some:
 * @max_events: process at most this many events (whole chunks' rows at a time are
 *   cut to it)
 *
 * As tw_state_model_update(), in steps: a main loop builds the model of a trace that
 * is still being read this way, a few milliseconds at a time, and draws in between.
 * The model after the last step holds what a single update builds and draws the same.
 *
 * Returns: %FALSE when cancelled
 */
gboolean
tw_state_model_update_some (TwStateModel  *self,
                            guint64        max_events,
                            GCancellable  *cancellable,
                            GError       **error)
{
  guint64 n;

  g_return_val_if_fail (TW_IS_STATE_MODEL (self), FALSE);

  /* A trace mapped from its cache brings the arrays of its whole model, checked: the
   * first update of a whole model borrows them instead of going through the events. */
  if (self->whole && self->n_processed == 0 && self->cpus->len == 0 && self->tasks->len == 0 &&
      _tw_trace_get_state_image (self->trace) != NULL)
    _tw_state_model_adopt_image (self, _tw_trace_get_state_image (self->trace));

  n = MIN (tw_trace_get_n_events (self->trace), self->end_event);
  if (n - MIN (n, self->n_processed) > max_events)
    n = self->n_processed + max_events;
  refresh_tracked (self);
  _tw_state_model_refresh_hosts (self);
  if (tw_trace_get_n_event_types (self->trace) > 0)
    type_info_add (self, tw_trace_get_n_event_types (self->trace) - 1);

  while (self->n_processed < n)
    {
      guint64 i = self->n_processed;
      guint64 base = (i >> TW_CHUNK_SHIFT) << TW_CHUNK_SHIFT;
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, i >> TW_CHUNK_SHIFT);
      guint row = i & TW_CHUNK_MASK;
      guint end = MIN (chunk->n, row + (guint) MIN (n - i, (guint64) TW_CHUNK_SIZE));
      guint64 last_time = self->last_time;
      gboolean hosts = self->host_ends->len > 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;

      for (; row < end; row++)
        {
          const TypeInfo *info = type_info (self, chunk->type[row]);
          guint64 t = chunk->time[row];

          switch (info->kind)
            {
            case TW_EVENT_KIND_SWITCH:
              handle_switch (self, info, chunk, row, base + row);
              break;

            case TW_EVENT_KIND_LOST:
              if (chunk->cpu[row] != TW_CPU_NONE)
                add_cpu_mark (cpu_at (self, chunk->cpu[row]), t, base + row, TW_TASK_NONE,
                              TW_CPU_MARK_LOST);
              break;

            case TW_EVENT_KIND_WAKEUP:
              add_mark (self, chunk->arg[row], t, base + row, info->kind);
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
              add_mark (self, chunk->task[row], t, base + row, info->kind);
              break;

            case TW_EVENT_KIND_OTHER:
              /* A task's other events are drawn by its run on that CPU when the model
               * has it running there (a kernel trace's syscalls); otherwise nothing
               * else shows them — a UST trace without kernel events has no switches
               * at all — so they become marks, and the task gets a row. */
              if (is_tracked_task (self, chunk->task[row])
                  && running_cpu (self, chunk->task[row]) != chunk->cpu[row])
                add_mark (self, chunk->task[row], t, base + row, info->kind);
              break;

            case TW_EVENT_KIND_TASK_CREATE:
            case TW_N_EVENT_KINDS:
            default:
              break;
            }

          last_time = MAX (last_time, t);
          if G_UNLIKELY (hosts)
            note_host_time (self, chunk->cpu[row], chunk->task[row], t);
        }

      self->last_time = last_time;
      self->n_processed = base + end;
    }

  /* CPUs that exist but never switched still get (empty) rows. */
  if (tw_trace_get_n_cpus (self->trace) > 0)
    cpu_at (self, tw_trace_get_n_cpus (self->trace) - 1);

  extend_open_intervals (self);
  update_bins (self);
  /* a whole model of a sealed trace is what its cache file wants beside the store */
  if (self->whole && self->image == NULL && tw_trace_is_sealed (self->trace) &&
      self->n_processed == tw_trace_get_n_events (self->trace))
    tw_trace_cache_offer_state_model (self);
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

/**
 * tw_state_model_get_cpu_marks:
 * @n_marks: (out): the number of marks
 *
 * Returns: (transfer none) (array length=n_marks) (nullable): losses and repairs on
 *   @cpu, by time
 */
const TwCpuMark *
tw_state_model_get_cpu_marks (TwStateModel *self,
                              guint         cpu,
                              gsize        *n_marks)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), NULL);

  *n_marks = 0;
  if (cpu >= self->cpus->len)
    return NULL;
  *n_marks = ((CpuState *) g_ptr_array_index (self->cpus, cpu))->marks.items.len;
  return (const TwCpuMark *) ((CpuState *) g_ptr_array_index (self->cpus, cpu))->marks.items.data;
}

/**
 * tw_state_model_get_cpu_repairs:
 *
 * Returns: how many inconsistent switches the model repaired on @cpu (its
 *   TW_CPU_MARK_STALE_RUN and TW_CPU_MARK_DOUBLE_RUN marks)
 */
guint64
tw_state_model_get_cpu_repairs (TwStateModel *self,
                                guint         cpu)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), 0);

  if (cpu >= self->cpus->len)
    return 0;
  return ((CpuState *) g_ptr_array_index (self->cpus, cpu))->n_repairs;
}

/* As series_lower_bound, for an answer known to be ≥ @from: gallop forward through l1
 * from @from's block. Painters walk columns left to right, so each search starts where
 * the last one ended and touches memory in order. */
static gsize
series_lower_bound_from (const Series *series,
                         gsize         from,
                         guint64       t)
{
  const TwHugeArray *items = &series->items;
  const guint64 *l1 = (const guint64 *) series->l1.data;
  gsize stride = items->element_size;
  gsize n1 = series->l1.len;
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
    case TW_SERIES_CPU_MARKS:
      return id < self->cpus->len ? &((CpuState *) g_ptr_array_index (self->cpus, id))->marks : NULL;
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


/* ---------------------------------------------------------------- bins and summaries */

/* An element's extent [*start, *end); an instant (or empty interval) covers its ns. */
static inline void
element_span (TwSeries      kind,
              const guint8 *item,
              guint64      *start,
              guint64      *end)
{
  memcpy (start, item, sizeof *start);
  if (kind == TW_SERIES_TASK_MARKS || kind == TW_SERIES_CPU_MARKS)
    *end = *start + 1;
  else
    {
      memcpy (end, item + sizeof (guint64), sizeof *end);
      if (*end <= *start)
        *end = *start + 1;
    }
}

static inline TwSummary
element_summary (TwStateModel *self,
                 TwSeries      kind,
                 const Series *series,
                 gsize         i)
{
  const guint8 *item = series->items.data + i * series->items.element_size;
  TwSummary sum = { TW_TASK_NONE, 0 };

  switch (kind)
    {
    case TW_SERIES_CPU_RUNS:
      {
        const TwRunInterval *run = (const TwRunInterval *) item;

        if (is_tracked_task (self, run->task))
          {
            sum.task = run->task;
            sum.bits = TW_SUMMARY_RUN_ANY;
          }
        else
          sum.bits = TW_SUMMARY_RUN_ANY | TW_SUMMARY_RUN_IDLE;
      }
      break;

    case TW_SERIES_CPU_IRQS:
      {
        const TwIrqInterval *irq = (const TwIrqInterval *) item;
        guint lane = MIN (MAX (irq->depth, 1), TW_SUMMARY_IRQ_LANES) - 1;
        guint what = irq->unclosed ? TW_SUMMARY_IRQ_UNCLOSED
                     : irq->kind == TW_IRQ_HARD ? TW_SUMMARY_IRQ_HARD : TW_SUMMARY_IRQ_SOFT;

        sum.bits = TW_SUMMARY_IRQ_BIT (lane, what);
      }
      break;

    case TW_SERIES_TASK_STATES:
      sum.bits = 1u << (((const TwTaskInterval *) item)->state & 31);
      break;

    case TW_SERIES_TASK_MARKS:
    case TW_SERIES_CPU_MARKS:
      sum.bits = series->kinds.data[i];
      break;

    default:
      break;
    }
  return sum;
}

static inline void
summary_add (TwSummary       *into,
             const TwSummary *sum)
{
  if (into->task == TW_TASK_NONE)
    into->task = sum->task;
  into->bits |= sum->bits;
}

/* Bins of level 0 a series of @n elements may have: bins_add_element() coarsens the
 * grid past it. */
static inline gsize
bins_limit (const Bins *bins,
            gsize       n)
{
  return MAX (MAX (n, bins->n_built), BINS_MIN_ELEMENTS) >> BINS_ELEMENT_SHIFT;
}

/* Makes level @k (the top one plus one) from the level below. */
static void
bins_add_level (Bins *bins,
                guint k)
{
  const TwSummary *below = BINS_LEVEL (bins, k - 1);
  gsize n_below = bins->level[k - 1].len;
  gsize len = (n_below + 3) / 4;
  TwSummary *level;

  tw_huge_array_init (&bins->level[k], sizeof (TwSummary));
  tw_huge_array_reserve (&bins->level[k], len);
  bins->level[k].len = len;
  level = BINS_LEVEL (bins, k);
  for (gsize b = 0; b < len; b++)
    {
      TwSummary sum = { TW_TASK_NONE, 0 };

      for (gsize j = b * 4; j < MIN (b * 4 + 4, n_below); j++)
        summary_add (&sum, &below[j]);
      level[b] = sum;
    }
  bins->n_levels = k + 1;
}

/* Level 0 to @len0 bins, the levels above to theirs, empty: no element met them yet.
 * Levels are added up to the first of at most 4 bins. */
static void
bins_grow (Bins  *bins,
           gsize  len0)
{
  gsize len = len0;

  for (guint k = 0; k < bins->n_levels; k++, len = (len + 3) / 4)
    {
      TwHugeArray *level = &bins->level[k];
      gsize old = level->len;

      if (len <= old)
        break;
      tw_huge_array_reserve (level, len);
      level->len = len;
      for (gsize b = old; b < len; b++)
        BINS_LEVEL (bins, k)[b] = (TwSummary) { TW_TASK_NONE, 0 };
    }
  while (bins->n_levels < BINS_MAX_LEVELS && bins->level[bins->n_levels - 1].len > 4)
    bins_add_level (bins, bins->n_levels);
}

/* The grid 4 times coarser: level 1 is level 0 of bins 4 times wider, exactly what
 * adding the elements to those would have made. */
static void
bins_coarsen (Bins *bins)
{
  if (bins->n_levels == 1)
    bins_add_level (bins, 1);
  tw_huge_array_clear (&bins->level[0]);
  memmove (&bins->level[0], &bins->level[1], (bins->n_levels - 1) * sizeof bins->level[0]);
  bins->n_levels--;
  bins->shift += 2;
}

/* Element @i (the next one) reaches @reach (exclusive): the grid is made coarser while
 * that would need more level-0 bins than the series may have. */
G_ALWAYS_INLINE static inline void
bins_decide (Bins    *bins,
             gsize    i,
             guint64  reach)
{
  bins->extent = MAX (bins->extent, reach - bins->origin);
  while G_UNLIKELY (((bins->extent - 1) >> bins->shift) >= bins_limit (bins, i + 1) && bins->shift < 56)
    bins_coarsen (bins);
  bins->n_elements = i + 1;
}

/* Adds element @i, which can no longer change and spans [@s, @e), to the level-0 bins
 * it meets and the ones above them. A bin above holds what its four below hold, so once
 * no bin of a level changes, none above does. Always inlined with a constant @kind. */
G_ALWAYS_INLINE static inline void
bins_add_summary (TwStateModel *self,
                  TwSeries      kind,
                  const Series *series,
                  Bins         *bins,
                  gsize         i,
                  guint64       s,
                  guint64       e)
{
  TwSummary sum = element_summary (self, kind, series, i);
  gsize b0 = (s - bins->origin) >> bins->shift;
  gsize b1 = (e - 1 - bins->origin) >> bins->shift;

  if G_UNLIKELY (b1 >= bins->level[0].len)
    bins_grow (bins, b1 + 1);

  for (guint k = 0; k < bins->n_levels; k++, b0 >>= 2, b1 >>= 2)
    {
      TwSummary *level = BINS_LEVEL (bins, k);
      gboolean changed = FALSE;

      for (gsize b = b0; b <= b1; b++)
        if ((level[b].bits | sum.bits) != level[b].bits ||
            (level[b].task == TW_TASK_NONE && sum.task != TW_TASK_NONE))
          {
            summary_add (&level[b], &sum);
            changed = TRUE;
          }
      if (!changed)
        break;
    }
}

/* Whether @i is in @open, indexes in increasing order (a CPU's open handlers). */
static gboolean
is_open (const GArray *open,
         gsize         i)
{
  guint lo = 0, hi = open ? open->len : 0;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (open, guint, mid) < i)
        lo = mid + 1;
      else
        hi = mid;
    }
  return open && lo < open->len && g_array_index (open, guint, lo) == i;
}

/* Element @i into the grid, and into the bins unless it is open (a handler in @open).
 * What an irq reaches is its start: its end is not known while it is open. */
G_ALWAYS_INLINE static inline void
bins_take (TwStateModel *self,
           TwSeries      kind,
           const Series *series,
           Bins         *bins,
           gsize         i,
           const GArray *open)
{
  guint64 s, e;

  element_span (kind, series->items.data + i * series->items.element_size, &s, &e);
  bins_decide (bins, i, kind == TW_SERIES_CPU_IRQS ? s + 1 : e);
  if (kind != TW_SERIES_CPU_IRQS || !is_open (open, i))
    bins_add_summary (self, kind, series, bins, i, s, e);
}

/* Bins of elements 0 to @n - 1 on the finest grid that covers what they reach in
 * bins_limit (@n) bins, empty. */
static Bins *
bins_new (TwSeries      kind,
          const Series *series,
          gsize         n)
{
  const TwHugeArray *items = &series->items;
  Bins *bins = g_new0 (Bins, 1);
  gsize limit;

  memcpy (&bins->origin, items->data, sizeof bins->origin);
  bins->n_built = n;
  for (gsize i = 0; i < n; i++)
    {
      guint64 s, e;

      element_span (kind, items->data + i * items->element_size, &s, &e);
      bins->extent = MAX (bins->extent, (kind == TW_SERIES_CPU_IRQS ? s + 1 : e) - bins->origin);
    }
  limit = bins_limit (bins, n);
  while (((bins->extent - 1) >> bins->shift) >= limit)
    bins->shift++;
  tw_huge_array_init (&bins->level[0], sizeof (TwSummary));
  bins->n_levels = 1;
  /* never empty, even while every irq it took is open: a model image has a bin */
  bins_grow (bins, 1);
  return bins;
}

/* Always inlined with a constant @kind, so that the compiler drops the switches on it. */
G_ALWAYS_INLINE static inline void
bins_extend_kind (TwStateModel *self,
                  TwSeries      kind,
                  Series       *series,
                  gsize         n_final,
                  const GArray *open)
{
  for (gsize i = series->bins ? series->bins->n_elements : 0; i < n_final; i++)
    {
      Bins *bins = series->bins;

      if (bins != NULL && (((i + 1) & i) != 0 ||
                           (((bins->extent - 1) >> bins->shift) + 1) * BINS_REFINE >=
                           bins_limit (bins, i + 1)))
        {
          bins_take (self, kind, series, bins, i, open);
          continue;
        }
      if (bins == NULL && i + 1 < BINS_MIN_ELEMENTS)
        continue;
      /* the first bins, or the series got denser than its grid: start again here */
      g_clear_pointer (&series->bins, bins_free);
      bins = series->bins = bins_new (kind, series, i + 1);
      for (gsize j = 0; j <= i; j++)
        bins_take (self, kind, series, bins, j, open);
    }
}

/* An irq handler closed: into the bins if they took its place while it was open. */
static void
bins_add_closed_irq (TwStateModel *self,
                     CpuState     *cs,
                     guint         index)
{
  guint64 s, e;

  if (cs->irqs.bins == NULL || index >= cs->irqs.bins->n_elements)
    return;
  element_span (TW_SERIES_CPU_IRQS, cs->irqs.items.data + (gsize) index * cs->irqs.items.element_size,
                &s, &e);
  bins_add_summary (self, TW_SERIES_CPU_IRQS, &cs->irqs, cs->irqs.bins, index, s, e);
}

/* Adds the elements that can no longer change, the first @n_final, to the bins of
 * @series (made once there are enough of them); they stay valid before @valid_until. */
static void
series_update_bins (TwStateModel *self,
                    TwSeries      kind,
                    Series       *series,
                    gsize         n_final,
                    const GArray *open,
                    guint64       valid_until)
{
  /* One loop per kind, so that the compiler drops the switches on the kind. */
  switch (kind)
    {
    case TW_SERIES_CPU_RUNS:
      bins_extend_kind (self, TW_SERIES_CPU_RUNS, series, n_final, open);
      break;
    case TW_SERIES_CPU_IRQS:
      bins_extend_kind (self, TW_SERIES_CPU_IRQS, series, n_final, open);
      break;
    case TW_SERIES_TASK_STATES:
      bins_extend_kind (self, TW_SERIES_TASK_STATES, series, n_final, open);
      break;
    case TW_SERIES_TASK_MARKS:
      bins_extend_kind (self, TW_SERIES_TASK_MARKS, series, n_final, open);
      break;
    case TW_SERIES_CPU_MARKS:
      bins_extend_kind (self, TW_SERIES_CPU_MARKS, series, n_final, open);
      break;
    default:
      g_assert_not_reached ();
    }
  if (series->bins != NULL)
    series->bins->valid_until = valid_until;
}

/* A model adopted from an image has bins of every element that could no longer change
 * when it was written, which are the ones that cannot now. */
static void
series_resume_bins (TwStateModel *self,
                    TwSeries      kind,
                    Series       *series,
                    gsize         n_final,
                    const GArray *open,
                    guint64       valid_until)
{
  Bins *bins = series->bins;

  if (bins != NULL)
    {
      bins->n_elements = bins->n_built = n_final;
      bins->extent = (guint64) bins->level[0].len << bins->shift;
    }
}

typedef void (*SeriesBinsFunc) (TwStateModel *self,
                                TwSeries      kind,
                                Series       *series,
                                gsize         n_final,
                                const GArray *open,
                                guint64       valid_until);

/* Calls @func on every series with how many of its elements are settled (can no longer
 * change, or for irqs, are past: the open handlers among them are @open) and the first
 * time an element that can change (or a later one) may touch. */
static void
foreach_series_bins (TwStateModel   *self,
                     SeriesBinsFunc  func)
{
  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);
      guint64 t = _tw_state_model_cpu_end (self, c);
      gsize n_runs = cs->runs.items.len;
      guint64 open_run = G_MAXUINT64;

      if (cs->run_open && n_runs > 0)
        open_run = VEC_AT (cs->runs.items, TwRunInterval, --n_runs).start;
      func (self, TW_SERIES_CPU_RUNS, &cs->runs, n_runs, NULL, MIN (t, open_run));
      func (self, TW_SERIES_CPU_IRQS, &cs->irqs, cs->irqs.items.len, cs->irq_stack, t);
      func (self, TW_SERIES_CPU_MARKS, &cs->marks, cs->marks.items.len, NULL, t);
    }

  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);
      gsize n_states = ts->states.items.len;
      guint64 open = G_MAXUINT64;
      guint64 t = _tw_state_model_task_end (self, k);

      if (ts->open && n_states > 0)
        open = VEC_AT (ts->states.items, TwTaskInterval, --n_states).start;
      func (self, TW_SERIES_TASK_STATES, &ts->states, n_states, NULL, MIN (t, open));
      func (self, TW_SERIES_TASK_MARKS, &ts->marks, ts->marks.items.len, NULL, t);
    }
}

static void
update_bins (TwStateModel *self)
{
  foreach_series_bins (self, series_update_bins);
}

void
_tw_state_model_resume_bins (TwStateModel *self)
{
  foreach_series_bins (self, series_resume_bins);
}

/* Columns c_from.. from the elements: column c takes every element meeting [lo[c], hi[c]).
 * Both bounds never decrease with c. */
static void
summarize_elements (TwStateModel   *self,
                    TwSeries        kind,
                    const Series   *series,
                    const guint64  *lo,
                    const guint64  *hi,
                    guint           c_from,
                    guint           n,
                    TwSummary      *out)
{
  const TwHugeArray *items = &series->items;
  guint64 first = lo[c_from];
  guint64 last = hi[n - 1];
  gsize i = series_lower_bound (series, first);
  guint c = c_from;

  if (kind == TW_SERIES_CPU_RUNS || kind == TW_SERIES_TASK_STATES)
    {
      /* these never overlap: only the element before can reach into the range */
      if (i > 0)
        i--;
    }
  else if (kind == TW_SERIES_CPU_IRQS && i > 0)
    {
      /* Handlers open at @first enclose the last one that began before it (or are it):
       * walk its parents. A handler whose exit was lost can be open since long ago. Irq
       * summaries only OR bits, so these may come before the ones after them. */
      for (guint32 j = (guint32) (i - 1); j != G_MAXUINT32;
           j = TW_HUGE_ARRAY_AT (&series->parents, guint32, j))
        {
          const guint8 *item = items->data + (gsize) j * items->element_size;
          TwSummary sum;
          guint64 s, e;
          guint k = c_from;

          element_span (kind, item, &s, &e);
          if (e <= first)
            continue;
          sum = element_summary (self, kind, series, j);
          for (; k < n && lo[k] < e; k++)
            summary_add (&out[k], &sum);
        }
    }

  for (; i < items->len; i++)
    {
      const guint8 *item = items->data + i * items->element_size;
      TwSummary sum;
      guint64 s, e;

      element_span (kind, item, &s, &e);
      if (s >= last)
        break;
      while (c < n && hi[c] <= s)
        c++;
      if (c < n && lo[c] >= e)
        continue;
      sum = element_summary (self, kind, series, i);
      for (guint k = c; k < n && lo[k] < e; k++)
        summary_add (&out[k], &sum);
    }
}

static inline guint64
grid_round_up (const Bins *bins,
               guint       shift,
               guint64     t)
{
  guint64 mask = (G_GUINT64_CONSTANT (1) << shift) - 1;

  if (t <= bins->origin)
    return t;
  return bins->origin + (((t - bins->origin) + mask) & ~mask);
}

static inline gsize
grid_index (const Bins *bins,
            guint       shift,
            gsize       len,
            guint64     t)
{
  if (t <= bins->origin)
    return 0;
  return MIN ((t - bins->origin) >> shift, len);
}

/* The first of @n columns whose right bound @hi (never decreasing) is past @t: an open
 * handler meets one run of columns, found by search rather than by testing every column
 * for every handler (the tests were most of a wide frame's CPU rows). */
static guint
first_column_after (const guint64 *hi,
                    guint          n,
                    guint64        t)
{
  guint a = 0, b = n;

  while (a < b)
    {
      guint mid = a + (b - a) / 2;

      if (hi[mid] > t)
        b = mid;
      else
        a = mid + 1;
    }
  return a;
}

/* The first of @n columns whose left bound @lo (never decreasing) is at or past @t. */
static guint
first_column_from (const guint64 *lo,
                   guint          from,
                   guint          n,
                   guint64        t)
{
  guint a = from, b = n;

  while (a < b)
    {
      guint mid = a + (b - a) / 2;

      if (lo[mid] >= t)
        b = mid;
      else
        a = mid + 1;
    }
  return a;
}

/* Adds the handlers still open on a CPU (not in the bins yet) to columns 0..@n - 1.
 * Dozens can be open at once, each over most of a wide view: a simulated busy CPU had
 * ~90, and adding each to its columns was a fifth of a frame. They were opened in time
 * order, so a handler's first column is never before the previous one's, and the
 * columns a handler shares with an earlier one of the same summary (the one reaching
 * furthest) have it already: only the columns past it are added. */
#define OPEN_IRQ_SUMMARIES 16

typedef struct {
  TwSummary sum;
  guint     reached;  /* columns before it have sum */
} OpenIrqReach;

static void
summarize_open_irqs (TwStateModel  *self,
                     const Series  *s,
                     const GArray  *open,
                     const guint64 *lo,
                     const guint64 *hi,
                     guint          n,
                     TwSummary     *out)
{
  OpenIrqReach done[OPEN_IRQ_SUMMARIES];
  guint n_done = 0, last_k0 = 0;

  for (guint j = 0; j < open->len; j++)
    {
      guint index = g_array_index (open, guint, j);
      TwSummary sum = element_summary (self, TW_SERIES_CPU_IRQS, s, index);
      guint64 start, end;
      guint k0, k1, from, d;

      element_span (TW_SERIES_CPU_IRQS, s->items.data + (gsize) index * s->items.element_size,
                    &start, &end);
      k0 = first_column_after (hi, n, start);
      k1 = first_column_from (lo, k0, n, end);
      if (k0 < last_k0)
        n_done = 0;  /* not in time order after all: add every column */
      last_k0 = k0;
      for (d = 0; d < n_done && (done[d].sum.bits != sum.bits || done[d].sum.task != sum.task); d++)
        ;
      from = d < n_done ? MAX (k0, done[d].reached) : k0;
      for (guint k = from; k < k1; k++)
        summary_add (&out[k], &sum);
      if (d < n_done)
        done[d].reached = MAX (done[d].reached, k1);
      else if (n_done < OPEN_IRQ_SUMMARIES)
        done[n_done++] = (OpenIrqReach) { sum, k1 };
    }
}

/**
 * tw_state_model_summarize:
 * @begin_ns: the time at the left edge of column 0
 * @ns_per_column: the width of a column in ns (a pixel column, for painters)
 * @flags: %TW_SUMMARIZE_EXACT to compute from the elements rather than the bins
 * @out: (array length=n_columns) (out caller-allocates): one summary per column
 *
 * Summarizes the elements of a series that meet each of @n_columns columns
 * [@begin_ns + c × @ns_per_column, @begin_ns + (c + 1) × @ns_per_column). On wide
 * views each column boundary is first rounded up to the series' bin grid when its bins
 * are no wider than a column, and then a frame costs O(columns) whatever the
 * number of elements. The result does not depend on %TW_SUMMARIZE_EXACT.
 */
void
tw_state_model_summarize (TwStateModel     *self,
                          TwSeries          series,
                          guint             id,
                          guint64           begin_ns,
                          double            ns_per_column,
                          guint             n_columns,
                          TwSummarizeFlags  flags,
                          TwSummary        *out)
{
  const Series *s;
  const Bins *bins;
  g_autofree guint64 *bounds = NULL;
  guint64 *lo, *hi;
  int level = -1;
  guint c = 0;

  g_return_if_fail (TW_IS_STATE_MODEL (self));
  g_return_if_fail (ns_per_column > 0);

  for (guint k = 0; k < n_columns; k++)
    out[k] = (TwSummary) { TW_TASK_NONE, 0 };
  s = lookup_series (self, series, id);
  if (s == NULL || s->items.len == 0 || n_columns == 0)
    return;

  bins = s->bins;
  if (bins != NULL)
    for (guint k = 0; k < bins->n_levels; k++)
      {
        if ((double) (G_GUINT64_CONSTANT (1) << (bins->shift + 2 * k)) > ns_per_column)
          break;
        level = k;
      }

  bounds = g_new (guint64, 2 * (gsize) n_columns);
  lo = bounds;
  hi = bounds + n_columns;
  if (level < 0)
    {
      /* The real column [x, x + 1) meets [start, end) of integer ns; offsets from
       * begin_ns stay exact where begin_ns itself (an epoch time) would not in a double.
       * One product per boundary, shared by the columns on both sides: it is ≥ 0, so the
       * conversion truncates as floor() would, and ceil() is one more when it dropped a
       * fraction (these loops were a sixth of a zoomed-in frame). */
      guint64 left = 0;

      for (guint k = 0; k < n_columns; k++)
        {
          double right = (double) (k + 1) * ns_per_column;
          guint64 whole = (guint64) right;

          lo[k] = begin_ns + left;
          hi[k] = begin_ns + whole + ((double) whole < right);
          left = whole;
        }
      summarize_elements (self, series, s, lo, hi, 0, n_columns, out);
      return;
    }

  {
    guint shift = bins->shift + 2 * level;
    const TwSummary *level_bins = BINS_LEVEL (bins, level);
    gsize len = bins->level[level].len;

    lo[0] = grid_round_up (bins, shift, begin_ns);
    for (guint k = 0; k < n_columns; k++)
      {
        hi[k] = grid_round_up (bins, shift, begin_ns + (guint64) ((double) (k + 1) * ns_per_column));
        if (k + 1 < n_columns)
          lo[k + 1] = hi[k];
      }

    if (!(flags & TW_SUMMARIZE_EXACT))
      for (; c < n_columns && hi[c] <= bins->valid_until; c++)
        {
          gsize b1 = grid_index (bins, shift, len, hi[c]);

          for (gsize b = grid_index (bins, shift, len, lo[c]); b < b1; b++)
            summary_add (&out[c], &level_bins[b]);
        }
    if (series == TW_SERIES_CPU_IRQS && c > 0)
      summarize_open_irqs (self, s, ((CpuState *) g_ptr_array_index (self->cpus, id))->irq_stack,
                           lo, hi, c, out);
    if (c < n_columns)
      summarize_elements (self, series, s, lo, hi, c, n_columns, out);
  }
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
 * Returns: bytes held by the interval arrays and their bins
 */
static gsize
series_bins_size (const Series *series)
{
  gsize size = 0;

  if (series->bins)
    for (guint k = 0; k < series->bins->n_levels; k++)
      size += series->bins->level[k].len * sizeof (TwSummary);
  return size;
}

gsize
tw_state_model_get_memory_size (TwStateModel *self)
{
  gsize size = 0;

  for (guint c = 0; c < self->cpus->len; c++)
    {
      CpuState *cs = g_ptr_array_index (self->cpus, c);

      size += cs->runs.items.len * sizeof (TwRunInterval) + cs->irqs.items.len * sizeof (TwIrqInterval);
      size += cs->marks.items.len * sizeof (TwCpuMark);
      size += series_bins_size (&cs->runs) + series_bins_size (&cs->irqs) + series_bins_size (&cs->marks);
    }
  for (guint k = 0; k < self->tasks->len; k++)
    {
      TaskState *ts = g_ptr_array_index (self->tasks, k);

      size += ts->states.items.len * sizeof (TwTaskInterval) + ts->marks.items.len * sizeof (TwTaskMark);
      size += series_bins_size (&ts->states) + series_bins_size (&ts->marks);
    }
  return size;
}

/**
 * tw_state_model_get_from_cache:
 *
 * Returns: whether the model's arrays are those of the trace's cache file, mapped, rather
 *   than built from the events
 */
gboolean
tw_state_model_get_from_cache (TwStateModel *self)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (self), FALSE);

  return self->image != NULL;
}
