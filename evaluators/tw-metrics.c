/* tw-metrics.c: built-in system metrics and the Metrics interface (Espinosa 2003 §2)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-metrics.h"

#include "tw-evaluation.h"
#include "tw-event-names.h"

#include <math.h>
#include <string.h>

/* Nesting deeper than this is a trace that lost exits: the oldest entry is dropped. */
#define MAX_IRQ_DEPTH 32

/* Activations pending behind an overrunning job (S.Ha.R.K. keeps them); more than this
 * and the oldest pending one is dropped. */
#define MAX_QUEUED_JOBS 8

typedef enum {
  METRIC_IRQ,
  METRIC_SOFTIRQ,
  METRIC_RUN_SLICE,
  METRIC_WAKEUP_LATENCY,
  METRIC_WAKEUP_HANDLER,
  METRIC_RESPONSE_TIME,
  METRIC_INTER_ARRIVAL,
  METRIC_JITTER,
  METRIC_MEASURED,
  METRIC_USER,
} MetricType;

static const TwMetricInfo system_metrics[] = {
  { "irq-duration", NULL,
    "interrupt handler duration per irq number, irq entry → exit on one CPU, nesting-aware" },
  { "softirq-duration", NULL,
    "soft-interrupt duration per vector, softirq entry → exit on one CPU" },
  { "run-slice", NULL,
    "time a task runs on a CPU at a stretch, switched in → switched out" },
  { "wakeup-latency", NULL,
    "wakeup of a task → the task switched in" },
  { "wakeup-handler", NULL,
    "duration of the outermost irq/softirq handler in which a task was woken (the system "
    "time of waking it: Delay Until Wakeup)" },
  { "response-time", "START,END",
    "per job: START → END logged by the same task (default task_activate,task_end_cycle)" },
  { "inter-arrival", "EVENT",
    "time between consecutive EVENTs (a type name or kind:NAME)" },
  { "jitter", "EVENT",
    "cycle-to-cycle jitter of EVENT: |Δk − Δk−1| of consecutive inter-arrival times" },
  { "measured", "EVENT",
    "the measurement each EVENT carries in its length_ns (begin_ns, end_ns) fields: what a "
    "target's `tracewb-cli monitor --lttng` measured (measurement:NAME)" },
};

static const MetricType system_metric_types[] = {
  METRIC_IRQ, METRIC_SOFTIRQ, METRIC_RUN_SLICE, METRIC_WAKEUP_LATENCY,
  METRIC_WAKEUP_HANDLER, METRIC_RESPONSE_TIME, METRIC_INTER_ARRIVAL, METRIC_JITTER,
  METRIC_MEASURED,
};

G_STATIC_ASSERT (G_N_ELEMENTS (system_metrics) == G_N_ELEMENTS (system_metric_types));

struct _TwMetric {
  GObject     parent_instance;

  MetricType  type;
  char       *name;
  char       *description;
  char       *first_event;    /* START / EVENT / initial event */
  char       *second_event;   /* END / final event */
  gboolean    include_system;
};

static void tw_metric_evaluator_init (TwEvaluatorInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TwMetric, tw_metric, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (TW_TYPE_EVALUATOR, tw_metric_evaluator_init))

G_DEFINE_QUARK (tw-metric-error-quark, tw_metric_error)

static void
tw_metric_finalize (GObject *object)
{
  TwMetric *self = TW_METRIC (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->first_event, g_free);
  g_clear_pointer (&self->second_event, g_free);

  G_OBJECT_CLASS (tw_metric_parent_class)->finalize (object);
}

static void
tw_metric_class_init (TwMetricClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_metric_finalize;
}

static void
tw_metric_init (TwMetric *self)
{
}

/**
 * tw_metrics_get_system_metrics:
 * @n_metrics: (out): how many
 *
 * Returns: (transfer none) (array length=n_metrics): the system metrics, by name
 */
const TwMetricInfo *
tw_metrics_get_system_metrics (guint *n_metrics)
{
  g_return_val_if_fail (n_metrics != NULL, NULL);
  *n_metrics = G_N_ELEMENTS (system_metrics);
  return system_metrics;
}

/**
 * tw_metric_new_system:
 * @name: a name of tw_metrics_get_system_metrics(), with its parameter after a colon
 *   where it takes one: "irq-duration", "inter-arrival:sched_wakeup",
 *   "response-time:job_start,job_end"
 *
 * Returns: (transfer full) (nullable): the metric, or %NULL with @error set
 */
TwMetric *
tw_metric_new_system (const char  *name,
                      GError     **error)
{
  g_autoptr(TwMetric) self = NULL;
  g_autofree char *base = NULL;
  const char *param;
  guint i;

  g_return_val_if_fail (name != NULL, NULL);

  param = strchr (name, ':');
  base = param ? g_strndup (name, param - name) : g_strdup (name);
  if (param)
    param++;

  for (i = 0; i < G_N_ELEMENTS (system_metrics); i++)
    if (strcmp (system_metrics[i].name, base) == 0)
      break;
  if (i == G_N_ELEMENTS (system_metrics))
    {
      g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN,
                   "no system metric named “%s” (see `tracewb-cli metrics`)", base);
      return NULL;
    }

  self = g_object_new (TW_TYPE_METRIC, NULL);
  self->type = system_metric_types[i];
  self->name = g_strdup (name);
  self->description = g_strdup (system_metrics[i].description);
  self->include_system = TRUE;

  switch (self->type)
    {
    case METRIC_RESPONSE_TIME:
      {
        g_auto(GStrv) parts = g_strsplit (param ? param : "task_activate,task_end_cycle", ",", -1);

        if (g_strv_length (parts) != 2 || !parts[0][0] || !parts[1][0] ||
            strcmp (parts[0], parts[1]) == 0)
          {
            g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                         "metric “%s”: expected response-time:START,END with two different "
                         "event names", name);
            return NULL;
          }
        self->first_event = g_strdup (parts[0]);
        self->second_event = g_strdup (parts[1]);
      }
      break;

    case METRIC_INTER_ARRIVAL:
    case METRIC_JITTER:
    case METRIC_MEASURED:
      if (param == NULL || param[0] == '\0' || strcmp (param, "*") == 0)
        {
          g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                       "metric “%s”: expected %s:EVENT (an event type name or kind:NAME)",
                       name, base);
          return NULL;
        }
      self->first_event = g_strdup (param);
      break;

    default:
      if (param != NULL)
        {
          g_set_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_INVALID,
                       "metric “%s” takes no parameter", base);
          return NULL;
        }
      break;
    }

  return g_steal_pointer (&self);
}

/**
 * tw_metric_new_user:
 * @name: the user's name for it
 * @initial_event: the event (type name or kind:NAME) a task logs where measuring starts
 * @final_event: the event the same task logs where it ends
 * @include_system: %TRUE: length is the elapsed time; %FALSE: the task's own running
 *   time, without interrupt/softirq handlers and without the time it was preempted
 *   (the paper's Fig. 2 behaviour), from the canonical switch and irq events
 *
 * A user metric (Espinosa 2003 §2, New_User_Metric). Its measurements carry three free
 * columns that split the elapsed time: running_ns (own running time outside handlers),
 * irq_ns (handlers that interrupted the task while it was running) and preempted_ns
 * (the rest: ready or blocked).
 *
 * Returns: (transfer full): the metric
 */
TwMetric *
tw_metric_new_user (const char *name,
                    const char *initial_event,
                    const char *final_event,
                    gboolean    include_system)
{
  TwMetric *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (initial_event != NULL && final_event != NULL, NULL);

  self = g_object_new (TW_TYPE_METRIC, NULL);
  self->type = METRIC_USER;
  self->name = g_strdup (name);
  self->first_event = g_strdup (initial_event);
  self->second_event = g_strdup (final_event);
  self->include_system = include_system;
  self->description = g_strdup_printf ("%s → %s of the same task, %s", initial_event, final_event,
                                       include_system ? "elapsed time (system included)"
                                                      : "own running time (no irq, no preemption)");
  return self;
}

/**
 * tw_metric_get_name:
 *
 * Returns: (transfer none): the name the metric was created with
 */
const char *
tw_metric_get_name (TwMetric *self)
{
  g_return_val_if_fail (TW_IS_METRIC (self), NULL);
  return self->name;
}

/**
 * tw_metric_get_description:
 *
 * Returns: (transfer none): one line saying what it measures
 */
const char *
tw_metric_get_description (TwMetric *self)
{
  g_return_val_if_fail (TW_IS_METRIC (self), NULL);
  return self->description;
}

/**
 * tw_metric_is_user:
 *
 * Returns: whether it is a user metric (tw_metric_new_user())
 */
gboolean
tw_metric_is_user (TwMetric *self)
{
  g_return_val_if_fail (TW_IS_METRIC (self), FALSE);
  return self->type == METRIC_USER;
}

/**
 * tw_metric_get_column_names:
 *
 * Returns: (transfer none) (array zero-terminated=1): the free columns of its rows
 */
const char *const *
tw_metric_get_column_names (TwMetric *self)
{
  static const char *const irq[] = { "irq", "depth", "cpu", NULL };
  static const char *const soft[] = { "vector", "depth", "cpu", NULL };
  static const char *const cpu[] = { "cpu", NULL };
  static const char *const user[] = { "running_ns", "irq_ns", "preempted_ns", NULL };
  static const char *const none[] = { NULL };

  g_return_val_if_fail (TW_IS_METRIC (self), NULL);

  switch (self->type)
    {
    case METRIC_IRQ:            return irq;
    case METRIC_SOFTIRQ:        return soft;
    case METRIC_RUN_SLICE:
    case METRIC_WAKEUP_LATENCY:
    case METRIC_WAKEUP_HANDLER: return cpu;
    case METRIC_USER:           return user;
    default:                    return none;
    }
}

/* The selectors an update of the metric consumes: exactly the events it depends on
 * (intermediate events come from the evaluation's per-CPU counts). */
static GStrv
dup_selectors (TwMetric *self)
{
  GStrvBuilder *b = g_strv_builder_new ();
  GStrv out;

  switch (self->type)
    {
    case METRIC_IRQ:
      g_strv_builder_add_many (b, "kind:irq_entry", "kind:irq_exit", NULL);
      break;
    case METRIC_SOFTIRQ:
      g_strv_builder_add_many (b, "kind:softirq_entry", "kind:softirq_exit", NULL);
      break;
    case METRIC_RUN_SLICE:
      g_strv_builder_add (b, "kind:switch");
      break;
    case METRIC_WAKEUP_LATENCY:
      g_strv_builder_add_many (b, "kind:wakeup", "kind:switch", NULL);
      break;
    case METRIC_WAKEUP_HANDLER:
      g_strv_builder_add_many (b, "kind:irq_entry", "kind:irq_exit", "kind:softirq_entry",
                               "kind:softirq_exit", "kind:wakeup", NULL);
      break;
    case METRIC_RESPONSE_TIME:
      g_strv_builder_add_many (b, self->first_event, self->second_event, NULL);
      break;
    case METRIC_INTER_ARRIVAL:
    case METRIC_JITTER:
    case METRIC_MEASURED:
      g_strv_builder_add (b, self->first_event);
      break;
    case METRIC_USER:
      g_strv_builder_add_many (b, self->first_event, self->second_event, "kind:switch",
                               "kind:irq_entry", "kind:irq_exit", "kind:softirq_entry",
                               "kind:softirq_exit", NULL);
      break;
    default:
      g_assert_not_reached ();
    }
  out = g_strv_builder_end (b);
  g_strv_builder_unref (b);
  return out;
}

/**
 * tw_metric_check_events:
 * @trace: the trace it is about to measure
 *
 * Checks the events the user named (a user metric's start and end, the EVENT of
 * inter-arrival and jitter, response-time's START and END) against @trace's types: a
 * name that selects nothing can only give zero measurements.
 *
 * Returns: %FALSE with %TW_METRIC_ERROR_UNKNOWN_EVENT when a name selects no type of
 *   @trace; the message names each such event and the trace's closest names
 */
gboolean
tw_metric_check_events (TwMetric  *self,
                        TwTrace   *trace,
                        GError   **error)
{
  const char *named[] = { self->first_event, self->second_event, NULL };
  g_autofree char *unknown = NULL;

  g_return_val_if_fail (TW_IS_METRIC (self), FALSE);
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  /* a metric that names no event has first_event NULL: an empty list */
  unknown = tw_event_names_check (trace, named, TW_EVENT_NAME_SELECTOR);
  if (unknown == NULL)
    return TRUE;
  g_set_error_literal (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN_EVENT, unknown);
  return FALSE;
}

/* ------------------------------------------------------------------ evaluation */

typedef struct {
  guint32 number;
  guint32 task;
  guint64 begin;
  guint64 count_at;     /* the CPU's event count at the entry event */
} OpenHandler;

typedef struct {
  guint        depth;
  guint32      current;        /* task running here, TW_TASK_NONE when unknown */
  guint64      since;          /* run-slice: switch-in time */
  guint64      since_count;
  guint64      since_cost;     /* the CPU's cost through the event at @since */
  gboolean     since_valid;
  guint64      irq_start;      /* user metric: outermost handler entry */
  guint32     *woken;          /* wakeup-handler: tasks woken in the handler */
  guint        n_woken;
  guint        woken_cap;
  OpenHandler  stack[MAX_IRQ_DEPTH]; /* last: the fields above share a cache line */
  guint64      stack_cost[MAX_IRQ_DEPTH]; /* with per-type costs: the CPU's cost
                                           * through each open handler's entry */
} CpuState;

/* Out of TaskState, which stays small (a cache line and a half) for the common case
 * of a task that never overruns. */
typedef struct {
  guint64  time[MAX_QUEUED_JOBS];
  guint64  index[MAX_QUEUED_JOBS];
  guint64  cost[MAX_QUEUED_JOBS];   /* the trace's cost through the START */
} JobQueue;

typedef struct {
  /* user metric and response-time; a new job clears the fields before n_queued */
  guint64  begin;
  guint64  begin_index;
  guint64  own;                /* running time outside handlers */
  guint64  sys;                /* handlers while it was current */
  guint64  seg_start;
  guint64  own_from;           /* CPU event count before the segment's first event */
  guint64  cur_from;           /* ... before the current stretch's first event */
  guint32  own_count;
  guint32  cur_count;
  guint16  cur_cpu;            /* user metric; run-slice and wakeup-latency: where it runs */
  guint8   open;
  guint8   active;             /* in an own-running segment */
  guint8   current;            /* the current task of cur_cpu */
  guint8   n_queued;           /* STARTs that came while a job was open */
  /* wakeup-latency, run-slice */
  guint8   waiting;            /* woken, not yet switched in */
  guint8   running;            /* on cur_cpu */
  guint64  wake_time;
  guint64  wake_index;
  JobQueue *queue;             /* n_queued pending STARTs; allocated at the first */
} TaskState;

#define JOB_FIELDS_SIZE G_STRUCT_OFFSET (TaskState, n_queued)

/* With per-type costs, beside each TaskState: the costs (ps) that its counts count.
 * Apart, so that TaskState stays as small without costs. */
typedef struct {
  guint64  begin;              /* the trace's cost through the job's START */
  guint64  wake;               /* ... through the wakeup */
  guint64  own_from;           /* the CPU's cost through the segment's first event */
  guint64  cur_from;           /* ... through the current stretch's first event */
  guint64  own;
  guint64  cur;
} TaskCost;

typedef struct {
  MetricType          type;
  gboolean            include_system;
  TwMeasurementTable *table;
  TwHistogram        *histogram;
  TwTrace            *trace;
  const guint64      *cpu_counts; /* of the evaluation the update takes part in */
  /* with per-type costs (the table's), the evaluation's cost counters: each row's
   * overhead is the difference of them that its count is of the counts; else NULL */
  const TwEventCostCounters *costs;
  TaskCost           *task_costs;  /* n_tasks, with @costs */

  const TwUpdateDirectFunc *steps; /* per selector */
  TwEvent             ev;        /* prepared */
  guint               selector;
  guint32             subject;   /* commit: the prepared event's subject task */

  guint8             *kinds;     /* TwEventKind per type, for subject () */
  guint               n_kinds;

  CpuState           *cpus;
  guint               n_cpus;
  TaskState          *tasks;
  guint               n_tasks;

  guint64             prev_time;
  guint64             prev_index;
  guint64             prev_cost;
  guint64             prev_delta;
  gboolean            have_prev;
  gboolean            have_delta;
} MetricEval;

static void
metric_eval_free (gpointer data)
{
  MetricEval *me = data;

  for (guint c = 0; c < me->n_cpus; c++)
    g_free (me->cpus[c].woken);
  g_free (me->cpus);
  for (guint t = 0; t < me->n_tasks; t++)
    g_free (me->tasks[t].queue);
  g_free (me->tasks);
  g_free (me->task_costs);
  g_free (me->kinds);
  g_clear_object (&me->table);
  g_clear_object (&me->histogram);
  g_clear_object (&me->trace);
  g_free (me);
}

/* @overhead_ps: with per-type costs, the cost of @m's intermediate events */
static void
emit (MetricEval          *me,
      const TwMeasurementRow *m,
      guint64              overhead_ps,
      const double        *columns)
{
  if (me->table && G_UNLIKELY (me->costs != NULL))
    tw_measurement_table_append_with_overhead (me->table, m, overhead_ps, columns);
  else if (me->table)
    tw_measurement_table_append (me->table, m, columns);
  if (me->histogram)
    tw_histogram_insert (me->histogram, (double) m->length);
}

static G_NO_INLINE void
grow_cpus (MetricEval *me,
           guint16     cpu)
{
  guint n = MAX ((guint) cpu + 1, me->n_cpus * 2);

  me->cpus = g_renew (CpuState, me->cpus, n);
  memset (me->cpus + me->n_cpus, 0, (n - me->n_cpus) * sizeof (CpuState));
  for (guint c = me->n_cpus; c < n; c++)
    me->cpus[c].current = TW_TASK_NONE;
  me->n_cpus = n;
}

static inline CpuState *
get_cpu (MetricEval *me,
         guint16     cpu)
{
  if G_UNLIKELY (cpu >= me->n_cpus)
    grow_cpus (me, cpu);
  return &me->cpus[cpu];
}

static G_NO_INLINE void
grow_tasks (MetricEval *me,
            guint32     task)
{
  guint n = MAX ((guint) task + 1, me->n_tasks * 2);

  me->tasks = g_renew (TaskState, me->tasks, n);
  memset (me->tasks + me->n_tasks, 0, (n - me->n_tasks) * sizeof (TaskState));
  if (me->costs != NULL)
    {
      me->task_costs = g_renew (TaskCost, me->task_costs, n);
      memset (me->task_costs + me->n_tasks, 0, (n - me->n_tasks) * sizeof (TaskCost));
    }
  me->n_tasks = n;
}

static inline TaskState *
get_task (MetricEval *me,
          guint32     task)
{
  if G_UNLIKELY (task >= me->n_tasks)
    grow_tasks (me, task);
  return &me->tasks[task];
}

static gboolean
is_idle (MetricEval *me,
         guint32     task)
{
  const TwTask *t;

  if (task == TW_TASK_NONE || task >= tw_trace_get_n_tasks (me->trace))
    return TRUE;
  t = tw_trace_get_task (me->trace, task);
  return (t->flags & TW_TASK_FLAG_IDLE) != 0;
}

static gboolean
metric_bind (gpointer       context,
             gpointer       func_data,
             TwEvaluation  *evaluation,
             GError       **error)
{
  MetricEval *me = func_data;

  TwEventCosts *costs = me->table ? tw_measurement_table_get_type_costs (me->table) : NULL;

  me->cpu_counts = tw_evaluation_get_cpu_counts (evaluation);
  g_set_object (&me->trace, tw_evaluation_get_trace (evaluation));
  if (costs != NULL && me->costs == NULL)
    {
      if (!tw_evaluation_use_event_costs (evaluation, costs, error))
        return FALSE;
      me->costs = tw_evaluation_get_cost_counters (evaluation);
      me->task_costs = g_new0 (TaskCost, me->n_tasks);
    }
  return TRUE;
}

/* With per-type costs: the cost of the events on @cpu up to the current one, included */
static inline guint64
cpu_cost_through (MetricEval *me,
                  guint16     cpu)
{
  return me->costs->cpu[cpu] + (cpu == me->costs->current_cpu ? me->costs->current : 0);
}

/* ... of the events on @cpu before the current one */
static inline guint64
cpu_cost_before (MetricEval *me,
                 guint16     cpu)
{
  return me->costs->cpu[cpu];
}

/* ... of every event up to the current one, included */
static inline guint64
trace_cost_through (MetricEval *me)
{
  return me->costs->trace + me->costs->current;
}

static inline TaskCost *
task_cost (MetricEval *me,
           guint32     task)
{
  get_task (me, task);
  return &me->task_costs[task];
}

/* Events on @cpu before the current one: intermediate events are differences of it. */
static inline guint64
cpu_count (MetricEval *me,
           guint16     cpu)
{
  return me->cpu_counts[cpu];
}

/* The task an event is about: the woken, created or switched-in task for the kinds
 * whose arg column is a task (S.Ha.R.K.'s task_activate is a wakeup of the activated
 * task, logged by whoever activated it), else the task that logged it. */
static G_NO_INLINE void
grow_kinds (MetricEval *me)
{
  guint n = tw_trace_get_n_event_types (me->trace);

  me->kinds = g_renew (guint8, me->kinds, MAX (n, 1));
  for (guint t = me->n_kinds; t < n; t++)
    me->kinds[t] = tw_trace_get_event_type (me->trace, t)->kind;
  me->n_kinds = n;
}

static inline guint32
subject (MetricEval    *me,
         const TwEvent *event)
{
  if G_UNLIKELY (event->type >= me->n_kinds)
    {
      grow_kinds (me);
      if (event->type >= me->n_kinds)
        return event->task;
    }
  switch (me->kinds[event->type])
    {
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_SWITCH:
      return event->arg;
    default:
      return event->task;
    }
}

/* Prepare copies what commit needs out of the event: the event may be a live sensor
 * element that changes under us, so nothing is decided until commit (Riegel 2005 §4.3). */
static gboolean
metric_prepare (gpointer       context,
                gpointer       func_data,
                const TwEvent *event,
                guint          selector)
{
  MetricEval *me = func_data;

  me->ev = *event;
  me->selector = selector;
  return TRUE;
}

static gboolean
metric_prepare_cpu (gpointer       context,
                    gpointer       func_data,
                    const TwEvent *event,
                    guint          selector)
{
  /* Per-CPU metrics cannot place an event without a CPU. */
  return event->cpu != TW_CPU_NONE && metric_prepare (context, func_data, event, selector);
}

/* Each metric is a list of steps, one per selector: a step applies one consumed event.
 * The direct path calls a step with the store's event; the prepare/commit path calls
 * the same step from commit with prepare's copy, so both compute the same thing. */
static void
metric_commit (gpointer context,
               gpointer func_data,
               gboolean ok)
{
  MetricEval *me = func_data;

  if (ok)
    me->steps[me->selector] (context, me, &me->ev);
}

/* irq-duration / softirq-duration: selectors entry, exit. */
static void
handler_entry (gpointer       context,
               gpointer       func_data,
               const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth == MAX_IRQ_DEPTH)
    {
      memmove (cs->stack, cs->stack + 1, (MAX_IRQ_DEPTH - 1) * sizeof (OpenHandler));
      memmove (cs->stack_cost, cs->stack_cost + 1, (MAX_IRQ_DEPTH - 1) * sizeof (guint64));
      cs->depth--;
    }
  if G_UNLIKELY (me->costs != NULL)
    cs->stack_cost[cs->depth] = cpu_cost_through (me, ev->cpu);
  cs->stack[cs->depth++] = (OpenHandler) { ev->arg, ev->task, ev->time, cpu_count (me, ev->cpu) };
}

static void
handler_exit (gpointer       context,
              gpointer       func_data,
              const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);

  /* Match the innermost open handler of the same number (an unknown number, from a cut
   * line, matches any); handlers above it lost their exit and are dropped. An exit
   * nobody entered is ignored. */
  for (guint d = cs->depth; d-- > 0;)
    if (cs->stack[d].number == ev->arg || cs->stack[d].number == TW_IRQ_NUMBER_UNKNOWN
        || ev->arg == TW_IRQ_NUMBER_UNKNOWN)
      {
        const OpenHandler *h = &cs->stack[d];
        TwMeasurementRow m = {
          .task = h->task,
          .intermediate_events = (guint32) (cpu_count (me, ev->cpu) - h->count_at - 1),
          .begin = h->begin,
          .end = ev->time,
          .length = ev->time - h->begin,
        };
        double cols[3] = { h->number != TW_IRQ_NUMBER_UNKNOWN ? h->number : ev->arg, d + 1, ev->cpu };

        emit (me, &m, me->costs ? cpu_cost_before (me, ev->cpu) - cs->stack_cost[d] : 0, cols);
        cs->depth = d;
        break;
      }
}

static const TwUpdateDirectFunc handler_steps[] = { handler_entry, handler_exit };

/* A switch-out of @task on @cpu: it stops running unless it runs on another CPU, where
 * a later switch-in already moved it (its switch-out here came late or was lost). */
static void
stop_running (MetricEval *me,
              guint32     task,
              guint16     cpu)
{
  TaskState *ts = get_task (me, task);

  if (cpu == TW_CPU_NONE || ts->cur_cpu == cpu)
    ts->running = FALSE;
}

/* Switches whose switched-out task is not the one the CPU last switched in, or that
 * switch in a task running on another CPU, lost a switch-out: the task that kept
 * "running" no longer runs there (tw-state-model.c repairs the same). Returns the CPU's
 * state. */
static CpuState *
repair_switch (MetricEval    *me,
               const TwEvent *ev)
{
  CpuState *cs;
  TaskState *next;

  if (ev->cpu == TW_CPU_NONE)
    {
      if (ev->task != TW_TASK_NONE)
        stop_running (me, ev->task, TW_CPU_NONE);
      return NULL;
    }
  cs = get_cpu (me, ev->cpu);
  if (cs->current != TW_TASK_NONE && cs->current != ev->task)
    stop_running (me, cs->current, ev->cpu);
  if (ev->task != TW_TASK_NONE)
    stop_running (me, ev->task, ev->cpu);
  if (ev->arg == TW_TASK_NONE)
    return cs;
  next = get_task (me, ev->arg);
  if (next->running && next->cur_cpu != ev->cpu && get_cpu (me, next->cur_cpu)->current == ev->arg)
    get_cpu (me, next->cur_cpu)->current = TW_TASK_NONE;
  return get_cpu (me, ev->cpu);
}

/* The switch-in after repair_switch(). */
static void
start_running (MetricEval    *me,
               const TwEvent *ev)
{
  TaskState *ts = get_task (me, ev->arg);

  ts->running = TRUE;
  ts->cur_cpu = ev->cpu;
}

/* run-slice: selector switch. */
static void
run_slice_switch (gpointer       context,
                  gpointer       func_data,
                  const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;
  guint32 prev = ev->task;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = repair_switch (me, ev);

  if (cs->since_valid && cs->current == prev && !is_idle (me, prev))
    {
      TwMeasurementRow m = {
        .task = prev,
        .intermediate_events = (guint32) (cpu_count (me, ev->cpu) - cs->since_count - 1),
        .begin = cs->since,
        .end = ev->time,
        .length = ev->time - cs->since,
      };
      double cols[1] = { ev->cpu };

      emit (me, &m, me->costs ? cpu_cost_before (me, ev->cpu) - cs->since_cost : 0, cols);
    }
  cs->current = ev->arg;
  cs->since = ev->time;
  cs->since_count = cpu_count (me, ev->cpu);
  if (me->costs)
    cs->since_cost = cpu_cost_through (me, ev->cpu);
  cs->since_valid = TRUE;
  if (ev->arg != TW_TASK_NONE)
    start_running (me, ev);
}

static const TwUpdateDirectFunc run_slice_steps[] = { run_slice_switch };

/* wakeup-latency: selectors wakeup, switch. */
static void
wakeup_latency_wakeup (gpointer       context,
                       gpointer       func_data,
                       const TwEvent *ev)
{
  MetricEval *me = func_data;
  TaskState *ts;

  if (ev->arg == TW_TASK_NONE)
    return;
  ts = get_task (me, ev->arg);
  /* A wakeup of a running task, or a second one before it ran: the first counts. */
  if (!ts->running && !ts->waiting)
    {
      ts->waiting = TRUE;
      ts->wake_time = ev->time;
      ts->wake_index = ev->index;
      if (me->costs)
        task_cost (me, ev->arg)->wake = trace_cost_through (me);
    }
}

static void
wakeup_latency_switch (gpointer       context,
                       gpointer       func_data,
                       const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs = repair_switch (me, ev);

  if (ev->arg != TW_TASK_NONE)
    {
      TaskState *ts = get_task (me, ev->arg);

      if (ts->waiting)
        {
          TwMeasurementRow m = {
            .task = ev->arg,
            .intermediate_events = (guint32) (ev->index - ts->wake_index - 1),
            .begin = ts->wake_time,
            .end = ev->time,
            .length = ev->time - ts->wake_time,
          };
          double cols[1] = { ev->cpu == TW_CPU_NONE ? -1 : ev->cpu };

          emit (me, &m, me->costs ? me->costs->trace - task_cost (me, ev->arg)->wake : 0, cols);
          ts->waiting = FALSE;
        }
      start_running (me, ev);
    }
  if (cs != NULL)
    cs->current = ev->arg;
}

static const TwUpdateDirectFunc wakeup_latency_steps[] = {
  wakeup_latency_wakeup, wakeup_latency_switch,
};

/* wakeup-handler: selectors irq_entry, irq_exit, softirq_entry, softirq_exit, wakeup.
 * Hard and soft handlers share one nesting count per CPU: the outermost one is the
 * system activity that did the waking. */
static void
wakeup_handler_entry (gpointer       context,
                      gpointer       func_data,
                      const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth++ == 0)
    {
      cs->since = ev->time;
      cs->since_count = cpu_count (me, ev->cpu);
      if (me->costs)
        cs->since_cost = cpu_cost_through (me, ev->cpu);
      cs->n_woken = 0;
    }
}

static void
wakeup_handler_exit (gpointer       context,
                     gpointer       func_data,
                     const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth == 0)
    return;
  if (--cs->depth == 0)
    for (guint i = 0; i < cs->n_woken; i++)
      {
        TwMeasurementRow m = {
          .task = cs->woken[i],
          .intermediate_events = (guint32) (cpu_count (me, ev->cpu) - cs->since_count - 1),
          .begin = cs->since,
          .end = ev->time,
          .length = ev->time - cs->since,
        };
        double cols[1] = { ev->cpu };

        emit (me, &m, me->costs ? cpu_cost_before (me, ev->cpu) - cs->since_cost : 0, cols);
      }
}

static void
wakeup_handler_wakeup (gpointer       context,
                       gpointer       func_data,
                       const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth > 0 && ev->arg != TW_TASK_NONE)
    {
      if G_UNLIKELY (cs->n_woken == cs->woken_cap)
        {
          cs->woken_cap = MAX (8, cs->woken_cap * 2);
          cs->woken = g_renew (guint32, cs->woken, cs->woken_cap);
        }
      cs->woken[cs->n_woken++] = ev->arg;
    }
}

static const TwUpdateDirectFunc wakeup_handler_steps[] = {
  wakeup_handler_entry, wakeup_handler_exit, wakeup_handler_entry, wakeup_handler_exit,
  wakeup_handler_wakeup,
};

/* A START while the task's job is still open queues a job: it begins when the open one
 * ends (the task works through its pending activations in order). */
static void
queue_job (TaskState *ts,
           guint64    time,
           guint64    index,
           guint64    cost)
{
  JobQueue *q = ts->queue;

  if (q == NULL)
    q = ts->queue = g_new (JobQueue, 1);
  if (ts->n_queued == MAX_QUEUED_JOBS)
    {
      memmove (q->time, q->time + 1, (MAX_QUEUED_JOBS - 1) * sizeof (guint64));
      memmove (q->index, q->index + 1, (MAX_QUEUED_JOBS - 1) * sizeof (guint64));
      memmove (q->cost, q->cost + 1, (MAX_QUEUED_JOBS - 1) * sizeof (guint64));
      ts->n_queued--;
    }
  q->time[ts->n_queued] = time;
  q->index[ts->n_queued] = index;
  q->cost[ts->n_queued] = cost;
  ts->n_queued++;
}

static gboolean
dequeue_job (TaskState *ts,
             guint64   *time,
             guint64   *index,
             guint64   *cost)
{
  JobQueue *q = ts->queue;

  if (ts->n_queued == 0)
    return FALSE;
  *time = q->time[0];
  *index = q->index[0];
  *cost = q->cost[0];
  ts->n_queued--;
  memmove (q->time, q->time + 1, ts->n_queued * sizeof (guint64));
  memmove (q->index, q->index + 1, ts->n_queued * sizeof (guint64));
  memmove (q->cost, q->cost + 1, ts->n_queued * sizeof (guint64));
  return TRUE;
}

/* response-time: selectors START, END; the task is the events' subject. */
static void
response_start (gpointer       context,
                gpointer       func_data,
                const TwEvent *ev)
{
  MetricEval *me = func_data;
  TaskState *ts;

  if ((me->subject = subject (me, ev)) == TW_TASK_NONE)
    return;
  ts = get_task (me, me->subject);
  if (ts->open)
    {
      queue_job (ts, ev->time, ev->index, me->costs ? trace_cost_through (me) : 0);
      return;
    }
  ts->open = TRUE;
  ts->begin = ev->time;
  ts->begin_index = ev->index;
  if (me->costs)
    task_cost (me, me->subject)->begin = trace_cost_through (me);
}

static void
response_end (gpointer       context,
              gpointer       func_data,
              const TwEvent *ev)
{
  MetricEval *me = func_data;
  TaskState *ts;

  if ((me->subject = subject (me, ev)) == TW_TASK_NONE)
    return;
  ts = get_task (me, me->subject);
  if (ts->open)
    {
      TwMeasurementRow m = {
        .task = me->subject,
        .intermediate_events = (guint32) (ev->index - ts->begin_index - 1),
        .begin = ts->begin,
        .end = ev->time,
        .length = ev->time - ts->begin,
      };

      guint64 cost_begin = 0;

      emit (me, &m, me->costs ? me->costs->trace - task_cost (me, me->subject)->begin : 0, NULL);
      /* a pending job's response time counts from its own activation */
      ts->open = dequeue_job (ts, &ts->begin, &ts->begin_index, &cost_begin);
      if (me->costs)
        task_cost (me, me->subject)->begin = cost_begin;
    }
}

static const TwUpdateDirectFunc response_steps[] = { response_start, response_end };

/* inter-arrival and jitter: selector EVENT. */
static void
arrival_event (gpointer       context,
               gpointer       func_data,
               const TwEvent *ev)
{
  MetricEval *me = func_data;
  guint64 delta;

  me->subject = subject (me, ev);
  if (me->have_prev)
    {
      delta = ev->time - me->prev_time;
      if (me->type == METRIC_INTER_ARRIVAL)
        {
          TwMeasurementRow m = {
            .task = me->subject,
            .intermediate_events = (guint32) (ev->index - me->prev_index - 1),
            .begin = me->prev_time,
            .end = ev->time,
            .length = delta,
          };

          emit (me, &m, me->costs ? me->costs->trace - me->prev_cost : 0, NULL);
        }
      else if (me->have_delta)
        {
          TwMeasurementRow m = {
            .task = me->subject,
            .intermediate_events = (guint32) (ev->index - me->prev_index - 1),
            .begin = me->prev_time,
            .end = ev->time,
            .length = delta > me->prev_delta ? delta - me->prev_delta : me->prev_delta - delta,
          };

          emit (me, &m, me->costs ? me->costs->trace - me->prev_cost : 0, NULL);
        }
      me->prev_delta = delta;
      me->have_delta = TRUE;
    }
  me->prev_time = ev->time;
  me->prev_index = ev->index;
  if (me->costs)
    me->prev_cost = trace_cost_through (me);
  me->have_prev = TRUE;
}

static const TwUpdateDirectFunc arrival_steps[] = { arrival_event };

/* measured: selector EVENT. The measurement was made elsewhere (a target's monitor) and
 * travelled as an event: its fields say it, its task is the measured task. */
static gboolean
measured_field (const TwEventType *type,
                const TwEvent     *ev,
                const char        *name,
                guint64           *out)
{
  int f = tw_event_type_lookup_field (type, name);
  TwValue v;

  if (f < 0 || !tw_event_type_get_field (type, ev->payload, f, &v))
    return FALSE;
  if (v.type == TW_FIELD_I32 || v.type == TW_FIELD_I64)
    *out = v.i < 0 ? 0 : (guint64) v.i;
  else if (v.type == TW_FIELD_F64)
    *out = v.f < 0 ? 0 : (guint64) v.f;
  else if (v.type != TW_FIELD_STRING)
    *out = v.u;
  else
    return FALSE;
  return TRUE;
}

static void
measured_event (gpointer       context,
                gpointer       func_data,
                const TwEvent *ev)
{
  MetricEval *me = func_data;
  const TwEventType *type = tw_trace_get_event_type (me->trace, ev->type);
  guint64 length, begin = ev->time, end = ev->time, intermediate = 0;
  TwMeasurementRow m;

  if (!measured_field (type, ev, "length_ns", &length))
    return;
  measured_field (type, ev, "begin_ns", &begin);
  measured_field (type, ev, "end_ns", &end);
  measured_field (type, ev, "intermediate_events", &intermediate);
  m = (TwMeasurementRow) {
    .task = ev->task,
    .intermediate_events = (guint32) MIN (intermediate, G_MAXUINT32),
    .begin = MIN (begin, end),
    .end = end,
    .length = length,
  };
  /* measured elsewhere: its intermediate events are only a count */
  emit (me, &m, me->costs ? (guint64) llround (m.intermediate_events *
                                                tw_measurement_table_get_event_cost (me->table) * 1e3) : 0,
        NULL);
}

static const TwUpdateDirectFunc measured_steps[] = { measured_event };

/* user metric: selectors initial, final, switch, irq_entry, irq_exit, softirq_entry,
 * softirq_exit. Intermediate events come from the per-CPU event counts: a stretch (the
 * task is the CPU's current task) or an own segment (it runs outside handlers) that
 * starts at event s and ends at event e counts the events after s up to e, e included
 * (the state before e was "running") unless e is the final event. */
static inline TaskState *
open_task (MetricEval *me,
           guint32     task)
{
  if (task == TW_TASK_NONE || task >= me->n_tasks || !me->tasks[task].open)
    return NULL;
  return &me->tasks[task];
}

/* With per-type costs, out of the inline paths that run without them: a stretch on
 * @cpu that began where @from was marked ends here, the current event counted unless
 * it is the final one (as the counts do). */
static G_NO_INLINE void
add_stretch_cost (MetricEval *me,
                  guint64    *sum,
                  guint64     from,
                  guint16     cpu,
                  gboolean    final)
{
  *sum += cpu_cost_through (me, cpu) - from - (final ? me->costs->current : 0);
}

static G_NO_INLINE void
mark_cost (MetricEval *me,
           guint64    *from,
           guint16     cpu)
{
  *from = cpu_cost_through (me, cpu);
}

/* @costed: the metric sums per-type costs; a constant where it is called per event,
 * so that the paths without costs carry no test of it */
static G_ALWAYS_INLINE inline void
user_pause (MetricEval *me,
            guint32     task,
            guint16     cpu,
            guint64     time,
            gboolean    final,
            gboolean    costed)
{
  TaskState *ts = open_task (me, task);

  if (ts && ts->active)
    {
      ts->own += time - ts->seg_start;
      if (cpu != TW_CPU_NONE)
        ts->own_count += (guint32) (cpu_count (me, cpu) - ts->own_from - (final ? 1 : 0));
      if (costed && cpu != TW_CPU_NONE)
        add_stretch_cost (me, &me->task_costs[task].own, me->task_costs[task].own_from, cpu, final);
      ts->active = FALSE;
    }
}

static G_ALWAYS_INLINE inline void
user_resume (MetricEval *me,
             guint32     task,
             guint16     cpu,
             guint64     time,
             gboolean    costed)
{
  TaskState *ts = open_task (me, task);

  if (ts && !ts->active)
    {
      ts->seg_start = time;
      ts->own_from = cpu_count (me, cpu);
      if (costed && cpu != TW_CPU_NONE)
        mark_cost (me, &me->task_costs[task].own_from, cpu);
      ts->active = TRUE;
    }
}

static G_ALWAYS_INLINE inline void
user_leave (MetricEval *me,
            guint32     task,
            guint16     cpu,
            gboolean    final,
            gboolean    costed)
{
  TaskState *ts = open_task (me, task);

  if (ts && ts->current && ts->cur_cpu == cpu)
    {
      ts->cur_count += (guint32) (cpu_count (me, cpu) - ts->cur_from - (final ? 1 : 0));
      if (costed)
        add_stretch_cost (me, &me->task_costs[task].cur, me->task_costs[task].cur_from, cpu, final);
      ts->current = FALSE;
    }
}

static G_ALWAYS_INLINE inline void
user_enter (MetricEval *me,
            guint32     task,
            guint16     cpu,
            gboolean    costed)
{
  TaskState *ts = open_task (me, task);

  if (ts && !ts->current)
    {
      ts->cur_from = cpu_count (me, cpu);
      if (costed)
        mark_cost (me, &me->task_costs[task].cur_from, cpu);
      ts->cur_cpu = cpu;
      ts->current = TRUE;
    }
}


/* START: a task starts a job (or queues one behind its open job). */
static void
user_start (gpointer       context,
            gpointer       func_data,
            const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs = ev->cpu != TW_CPU_NONE ? get_cpu (me, ev->cpu) : NULL;
  guint32 task;
  TaskState *ts;

  if ((me->subject = subject (me, ev)) == TW_TASK_NONE)
    return;
  task = me->subject;
  ts = get_task (me, task);
  if (ts->open)
    {
      queue_job (ts, ev->time, ev->index, 0);
      return;
    }
  /* a closed task has no queued jobs (a job that ends with some queued stays open) */
  memset (ts, 0, JOB_FIELDS_SIZE);
  if (me->costs)
    memset (&me->task_costs[task], 0, sizeof (TaskCost));
  ts->open = TRUE;
  ts->begin = ev->time;
  ts->begin_index = ev->index;
  ts->cur_cpu = TW_CPU_NONE;
  /* An event about another task (an activation) says nothing about it running:
   * its first switch in starts its time. */
  if (task != ev->task)
    {
      if (cs != NULL && cs->current == task)
        {
          user_enter (me, task, ev->cpu, me->costs != NULL);
          if (cs->depth == 0)
            user_resume (me, task, ev->cpu, ev->time, me->costs != NULL);
        }
      return;
    }
  if (cs == NULL)
    {
      /* Without a CPU nothing can interrupt it as far as we can tell. */
      ts->active = TRUE;
      ts->seg_start = ev->time;
      return;
    }
  /* The task logged the event, so it runs here now (whatever we believed). */
  if (cs->current != task)
    {
      user_pause (me, cs->current, ev->cpu, ev->time, FALSE, me->costs != NULL);
      user_leave (me, cs->current, ev->cpu, FALSE, me->costs != NULL);
      cs->current = task;
    }
  user_enter (me, task, ev->cpu, me->costs != NULL);
  if (cs->depth == 0)
    user_resume (me, task, ev->cpu, ev->time, me->costs != NULL);
}

/* END: the task's open job ends; a queued one starts. */
static void
user_end (gpointer       context,
          gpointer       func_data,
          const TwEvent *ev)
{
  MetricEval *me = func_data;
  CpuState *cs = ev->cpu != TW_CPU_NONE ? get_cpu (me, ev->cpu) : NULL;
  guint32 task;
  TaskState *ts;
  guint64 elapsed;
  double cols[3];
  TwMeasurementRow m;
  guint64 begin, begin_index, begin_cost;

  me->subject = subject (me, ev);
  if ((ts = open_task (me, me->subject)) == NULL)
    return;
  task = me->subject;

  user_pause (me, task, ts->cur_cpu, ev->time, ts->cur_cpu == ev->cpu, me->costs != NULL);
  user_leave (me, task, ts->cur_cpu, ts->cur_cpu == ev->cpu, me->costs != NULL);
  elapsed = ev->time - ts->begin;
  cols[0] = ts->own;
  cols[1] = ts->sys;
  cols[2] = elapsed - MIN (elapsed, ts->own + ts->sys);
  m = (TwMeasurementRow) {
    .task = task,
    .intermediate_events = me->include_system ? ts->cur_count : ts->own_count,
    .begin = ts->begin,
    .end = ev->time,
    .length = me->include_system ? elapsed : ts->own,
  };
  emit (me, &m, !me->costs ? 0 : me->include_system ? me->task_costs[task].cur : me->task_costs[task].own,
        cols);
  ts->open = FALSE;
  ts->current = FALSE;

  /* The next pending job starts now, where this one ended, with the task as it
   * is (running here unless the END came from someone else). */
  if (dequeue_job (ts, &begin, &begin_index, &begin_cost))
    {
      memset (ts, 0, JOB_FIELDS_SIZE);
      if (me->costs)
        memset (&me->task_costs[task], 0, sizeof (TaskCost));
      ts->open = TRUE;
      ts->begin = begin;
      ts->begin_index = begin_index;
      ts->cur_cpu = TW_CPU_NONE;
      if (cs != NULL && cs->current == task)
        {
          /* counted like a START here: the END itself is not inside it */
          user_enter (me, task, ev->cpu, me->costs != NULL);
          if (cs->depth == 0)
            user_resume (me, task, ev->cpu, ev->time, me->costs != NULL);
        }
    }
}

/* switch: prev out, next in. */
static G_ALWAYS_INLINE inline void
user_switch (gpointer       context,
             gpointer       func_data,
             const TwEvent *ev,
             gboolean       costed)
{
  MetricEval *me = func_data;
  CpuState *cs;
  guint32 prev;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  prev = cs->current != TW_TASK_NONE ? cs->current : ev->task;

  user_pause (me, prev, ev->cpu, ev->time, FALSE, costed);
  user_leave (me, prev, ev->cpu, FALSE, costed);
  if (ev->task != prev)
    {
      user_pause (me, ev->task, ev->cpu, ev->time, FALSE, costed);
      user_leave (me, ev->task, ev->cpu, FALSE, costed);
    }
  cs->current = ev->arg;
  user_enter (me, ev->arg, ev->cpu, costed);
  if (cs->depth == 0)
    user_resume (me, ev->arg, ev->cpu, ev->time, costed);
}

/* irq or softirq entry */
static G_ALWAYS_INLINE inline void
user_handler_entry (gpointer       context,
                    gpointer       func_data,
                    const TwEvent *ev,
                    gboolean       costed)
{
  MetricEval *me = func_data;
  CpuState *cs;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth < G_MAXUINT / 2 && cs->depth++ == 0)
    {
      cs->irq_start = ev->time;
      user_pause (me, cs->current, ev->cpu, ev->time, FALSE, costed);
    }
}

/* irq or softirq exit; one nobody entered is ignored */
static G_ALWAYS_INLINE inline void
user_handler_exit (gpointer       context,
                   gpointer       func_data,
                   const TwEvent *ev,
                   gboolean       costed)
{
  MetricEval *me = func_data;
  CpuState *cs;
  TaskState *ts;

  if (ev->cpu == TW_CPU_NONE)
    return;
  cs = get_cpu (me, ev->cpu);
  if (cs->depth > 0 && --cs->depth == 0 && (ts = open_task (me, cs->current)) != NULL)
    {
      ts->sys += ev->time - cs->irq_start;
      user_resume (me, cs->current, ev->cpu, ev->time, costed);
    }
}

/* Each per-event step twice: without per-type costs and with them. */
#define USER_STEP_VARIANTS(step)                                                         \
  static void step##_plain (gpointer c, gpointer d, const TwEvent *ev) { step (c, d, ev, FALSE); } \
  static void step##_costed (gpointer c, gpointer d, const TwEvent *ev) { step (c, d, ev, TRUE); }
USER_STEP_VARIANTS (user_switch)
USER_STEP_VARIANTS (user_handler_entry)
USER_STEP_VARIANTS (user_handler_exit)
#undef USER_STEP_VARIANTS

static const TwUpdateDirectFunc user_steps[] = {
  user_start, user_end, user_switch_plain, user_handler_entry_plain, user_handler_exit_plain,
  user_handler_entry_plain, user_handler_exit_plain,
};
static const TwUpdateDirectFunc user_costed_steps[] = {
  user_start, user_end, user_switch_costed, user_handler_entry_costed,
  user_handler_exit_costed, user_handler_entry_costed, user_handler_exit_costed,
};

static const TwUpdateFuncs cpu_metric_funcs = {
  metric_bind, metric_prepare_cpu, metric_commit, NULL,
};
static const TwUpdateFuncs metric_funcs = {
  metric_bind, metric_prepare, metric_commit, NULL,
};

/**
 * tw_metric_new_table:
 *
 * Returns: (transfer full): an empty table with the metric's name and free columns
 */
TwMeasurementTable *
tw_metric_new_table (TwMetric *self)
{
  TwMeasurementTable *table;

  g_return_val_if_fail (TW_IS_METRIC (self), NULL);

  table = tw_measurement_table_new (tw_metric_get_column_names (self));
  tw_measurement_table_set_name (table, self->name);
  return table;
}

/**
 * tw_metric_create_update:
 * @table: (nullable): receives the measurements (free columns as
 *   tw_metric_get_column_names(); tw_metric_new_table() makes a fitting one)
 * @histogram: (nullable): receives each measurement's length
 *
 * The metric as an update for a #TwEvaluation, so that several metrics (and other
 * updates) run in one pass, offline or live. The update keeps its state, so it takes
 * part in one evaluation; create one per evaluation.
 *
 * Returns: (transfer full): a new update with its own state
 */
TwUpdate *
tw_metric_create_update (TwMetric           *self,
                         TwMeasurementTable *table,
                         TwHistogram        *histogram)
{
  g_auto(GStrv) selectors = NULL;
  const TwUpdateFuncs *funcs = &metric_funcs;
  const TwUpdateDirectFunc *steps = NULL;
  guint n_steps = 0;
  MetricEval *me;
  TwUpdate *update;

  g_return_val_if_fail (TW_IS_METRIC (self), NULL);
  g_return_val_if_fail (table == NULL || TW_IS_MEASUREMENT_TABLE (table), NULL);
  g_return_val_if_fail (table == NULL ||
                        tw_measurement_table_get_n_columns (table) ==
                        g_strv_length ((char **) tw_metric_get_column_names (self)), NULL);
  g_return_val_if_fail (histogram == NULL || TW_IS_HISTOGRAM (histogram), NULL);

#define SET_STEPS(array) (steps = (array), n_steps = G_N_ELEMENTS (array))
  switch (self->type)
    {
    case METRIC_IRQ:
    case METRIC_SOFTIRQ:        SET_STEPS (handler_steps); funcs = &cpu_metric_funcs; break;
    case METRIC_RUN_SLICE:      SET_STEPS (run_slice_steps); funcs = &cpu_metric_funcs; break;
    case METRIC_WAKEUP_LATENCY: SET_STEPS (wakeup_latency_steps); break;
    case METRIC_WAKEUP_HANDLER: SET_STEPS (wakeup_handler_steps); funcs = &cpu_metric_funcs; break;
    case METRIC_RESPONSE_TIME:  SET_STEPS (response_steps); break;
    case METRIC_INTER_ARRIVAL:
    case METRIC_JITTER:         SET_STEPS (arrival_steps); break;
    case METRIC_MEASURED:       SET_STEPS (measured_steps); break;
    case METRIC_USER:
      /* the table's costs, which its bind asks the evaluation to sum */
      if (table != NULL && tw_measurement_table_get_type_costs (table) != NULL)
        SET_STEPS (user_costed_steps);
      else
        SET_STEPS (user_steps);
      break;
    default:                    g_assert_not_reached ();
    }
#undef SET_STEPS

  me = g_new0 (MetricEval, 1);
  me->type = self->type;
  me->include_system = self->include_system;
  me->table = table ? g_object_ref (table) : NULL;
  me->histogram = histogram ? g_object_ref (histogram) : NULL;
  me->steps = steps;
  selectors = dup_selectors (self);
  g_assert (g_strv_length (selectors) == n_steps);
  update = tw_update_new (funcs, me, metric_eval_free, NULL, (const char *const *) selectors);
  tw_update_set_direct_funcs (update, steps, n_steps);
  return update;
}

static const char *
metric_get_name (TwEvaluator *evaluator)
{
  return TW_METRIC (evaluator)->name;
}

static const char *
metric_get_description (TwEvaluator *evaluator)
{
  return TW_METRIC (evaluator)->description;
}

static gboolean
metric_check (TwEvaluator  *evaluator,
              TwTrace      *trace,
              GError      **error)
{
  return tw_metric_check_events (TW_METRIC (evaluator), trace, error);
}

static TwMeasurementTable *
metric_new_table (TwEvaluator *evaluator)
{
  return tw_metric_new_table (TW_METRIC (evaluator));
}

static TwUpdate *
metric_create_update (TwEvaluator        *evaluator,
                      TwMeasurementTable *table,
                      TwHistogram        *histogram)
{
  return tw_metric_create_update (TW_METRIC (evaluator), table, histogram);
}

static GStrv
metric_dup_required_events (TwEvaluator *evaluator)
{
  return dup_selectors (TW_METRIC (evaluator));
}

static void
tw_metric_evaluator_init (TwEvaluatorInterface *iface)
{
  iface->get_name = metric_get_name;
  iface->get_description = metric_get_description;
  iface->dup_required_events = metric_dup_required_events;
  iface->check = metric_check;
  iface->new_table = metric_new_table;
  iface->create_update = metric_create_update;
}
