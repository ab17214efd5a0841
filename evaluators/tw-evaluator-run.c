/* tw-evaluator-run.c: one evaluator over one trace, in a worker thread or live, and its results
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Whatever the evaluator, a run goes one of two ways:
 *
 * - tw_evaluator_run_start(): over a sealed trace in a worker thread (the window never
 *   waits), in steps of STEP_EVENTS events. The thread owns the table and histogram the
 *   update fills; after each step it sends the lengths of the new rows to the main
 *   context, where they feed the histogram shown meanwhile, with the fraction done. At
 *   the end the thread's table and histogram become the run's (the update may put other
 *   values than lengths in its histogram: a plugin's, or a worst case's longest jobs).
 * - tw_evaluator_run_start_live(): over a live trace, on the calling thread, forward
 *   from where the last tw_evaluator_run_advance() stopped, so each arrival costs only
 *   its own events. Not in a thread: a live store's payload blob may move while the
 *   monitor appends (see tw-live-session.c).
 *
 * Everything it reports (notify, ::updated) comes on the main context of the thread that
 * started it.
 */
#include "config.h"

#include "tw-evaluator-run.h"
#include "tw-event-cost.h"

#include "tw-evaluation.h"

/* events per step of a worker thread: between two looks at the cancellable and two
 * batches of lengths for the histogram shown meanwhile */
#define STEP_EVENTS (1u << 18)

struct _TwEvaluatorRun
{
  GObject             parent_instance;

  TwEvaluator        *evaluator;
  TwTrace            *trace;
  guint               n_bins;
  TwHistogramScale    scale;

  TwHistogram        *histogram;     /* what to show: fed on this thread while it runs */
  TwMeasurementTable *table;         /* NULL until a thread finished; live: from the start */
  gsize               rows_previewed; /* thread: rows whose lengths are in @histogram */
  char               *error_message;
  char               *warning;
  double              progress;
  gboolean            running;

  GCancellable       *cancellable;   /* thread */
  TwEvaluation       *evaluation;    /* live */
  guint64             shown_generation; /* live: what the last ::updated showed */
  gsize               shown_rows;
};

G_DEFINE_FINAL_TYPE (TwEvaluatorRun, tw_evaluator_run, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_PROGRESS,
  PROP_HISTOGRAM,
  PROP_TABLE,
  N_PROPS
};

enum {
  UPDATED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What the worker thread owns until it is done. */
typedef struct {
  TwEvaluator        *evaluator;
  TwTrace            *trace;
  TwMeasurementTable *table;
  TwHistogram        *histogram;
  TwEvaluatorRun     *run;           /* for the batches: only passed on, never touched */
  GMainContext       *context;       /* where the batches go */
  gsize               rows_sent;
} Work;

static void
work_free (Work *work)
{
  g_clear_object (&work->evaluator);
  g_clear_object (&work->trace);
  g_clear_object (&work->table);
  g_clear_object (&work->histogram);
  g_clear_object (&work->run);
  g_clear_pointer (&work->context, g_main_context_unref);
  g_free (work);
}

/* New lengths for the histogram shown while the thread runs: rows [@first, @first + n). */
typedef struct {
  TwEvaluatorRun *run;
  gsize           first;
  GArray         *lengths;   /* double */
  double          progress;
} Batch;

static void
batch_free (Batch *batch)
{
  g_clear_object (&batch->run);
  g_clear_pointer (&batch->lengths, g_array_unref);
  g_free (batch);
}

static void
set_running (TwEvaluatorRun *self,
             gboolean        running)
{
  if (self->running == running)
    return;
  self->running = running;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

static void
set_progress (TwEvaluatorRun *self,
              double          progress)
{
  if (self->progress == progress)
    return;
  self->progress = progress;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PROGRESS]);
}

static void
fail (TwEvaluatorRun *self,
      const char     *message)
{
  g_free (self->error_message);
  self->error_message = g_strdup (message);
  set_running (self, FALSE);
}

static gboolean
batch_arrived_cb (gpointer data)
{
  Batch *batch = data;
  TwEvaluatorRun *self = batch->run;

  /* one that comes after the end (or after a batch lost to nothing) changes nothing */
  if (self->running && batch->first == self->rows_previewed)
    {
      tw_histogram_insert_many (self->histogram, (const double *) (gpointer) batch->lengths->data,
                                batch->lengths->len);
      self->rows_previewed += batch->lengths->len;
      set_progress (self, batch->progress);
      g_signal_emit (self, signals[UPDATED], 0);
    }
  return G_SOURCE_REMOVE;
}

/* Worker side: the lengths of the rows the update appended since the last batch. */
static void
send_batch (Work   *work,
            double  progress)
{
  gsize n = tw_measurement_table_get_n_rows (work->table);
  Batch *batch = g_new0 (Batch, 1);
  GSource *source;

  batch->run = g_object_ref (work->run);
  batch->first = work->rows_sent;
  batch->progress = progress;
  batch->lengths = g_array_sized_new (FALSE, FALSE, sizeof (double), n - work->rows_sent);
  for (gsize r = work->rows_sent; r < n; r++)
    {
      double length = (double) tw_measurement_table_get_row (work->table, r)->length;

      g_array_append_val (batch->lengths, length);
    }
  work->rows_sent = n;
  /* a source, not g_main_context_invoke(): that would run the callback right here, in
   * this thread, whenever the main thread is not iterating its context */
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, batch_arrived_cb, batch, (GDestroyNotify) batch_free);
  g_source_attach (source, work->context);
  g_source_unref (source);
}

static void
run_thread (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  Work *work = task_data;
  g_autoptr(TwEvaluation) evaluation = tw_evaluation_new (work->trace);
  g_autoptr(TwUpdate) update = tw_evaluator_create_update (work->evaluator, work->table,
                                                           work->histogram);
  guint64 n = tw_trace_get_n_events (work->trace);
  GError *error = NULL;

  if (!tw_evaluation_add_update (evaluation, update, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  for (guint64 first = 0; first < n; first += STEP_EVENTS)
    {
      guint64 end = MIN (n, first + STEP_EVENTS);

      if (!tw_evaluation_run_to (evaluation, end, NULL, NULL, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      send_batch (work, (double) end / (double) n);
    }
  tw_evaluation_finish (evaluation);
  g_task_return_boolean (task, TRUE);
}

static void
run_done_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  TwEvaluatorRun *self = TW_EVALUATOR_RUN (source);
  Work *work = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;

  g_clear_object (&self->cancellable);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      fail (self, error->message);
      return;
    }
  /* the thread is done with them: what the update made is what to show */
  g_set_object (&self->table, work->table);
  g_set_object (&self->histogram, work->histogram);
  set_progress (self, 1.0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TABLE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTOGRAM]);
  set_running (self, FALSE);
}

static void
tw_evaluator_run_dispose (GObject *object)
{
  TwEvaluatorRun *self = TW_EVALUATOR_RUN (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->evaluation);

  G_OBJECT_CLASS (tw_evaluator_run_parent_class)->dispose (object);
}

static void
tw_evaluator_run_finalize (GObject *object)
{
  TwEvaluatorRun *self = TW_EVALUATOR_RUN (object);

  g_clear_object (&self->evaluator);
  g_clear_object (&self->trace);
  g_clear_object (&self->histogram);
  g_clear_object (&self->table);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->warning, g_free);

  G_OBJECT_CLASS (tw_evaluator_run_parent_class)->finalize (object);
}

static void
tw_evaluator_run_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  TwEvaluatorRun *self = TW_EVALUATOR_RUN (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_HISTOGRAM:
      g_value_set_object (value, self->histogram);
      break;
    case PROP_TABLE:
      g_value_set_object (value, self->table);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_evaluator_run_class_init (TwEvaluatorRunClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = tw_evaluator_run_dispose;
  object_class->finalize = tw_evaluator_run_finalize;
  object_class->get_property = tw_evaluator_run_get_property;

  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HISTOGRAM] =
    g_param_spec_object ("histogram", NULL, NULL, TW_TYPE_HISTOGRAM,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TABLE] =
    g_param_spec_object ("table", NULL, NULL, TW_TYPE_MEASUREMENT_TABLE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwEvaluatorRun::updated:
   *
   * The histogram or the table got new values (not emitted for the swap at the end of
   * a thread, which notifies #TwEvaluatorRun:histogram and #TwEvaluatorRun:table).
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_evaluator_run_init (TwEvaluatorRun *self)
{
}

/**
 * tw_evaluator_run_new:
 * @evaluator: what to run
 * @trace: over what
 * @n_bins: the histogram's bins (auto range, tw_histogram_new_auto())
 * @scale: their scale
 *
 * Returns: (transfer full): a run, not started yet
 */
TwEvaluatorRun *
tw_evaluator_run_new (TwEvaluator      *evaluator,
                      TwTrace          *trace,
                      guint             n_bins,
                      TwHistogramScale  scale)
{
  TwEvaluatorRun *self;

  g_return_val_if_fail (TW_IS_EVALUATOR (evaluator), NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_EVALUATOR_RUN, NULL);
  self->evaluator = g_object_ref (evaluator);
  self->trace = g_object_ref (trace);
  self->n_bins = n_bins;
  self->scale = scale;
  self->histogram = tw_histogram_new_auto (n_bins, scale);
  return self;
}

/**
 * tw_evaluator_run_get_evaluator:
 *
 * Returns: (transfer none): what it runs
 */
TwEvaluator *
tw_evaluator_run_get_evaluator (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->evaluator;
}

/**
 * tw_evaluator_run_get_trace:
 *
 * Returns: (transfer none): over what
 */
TwTrace *
tw_evaluator_run_get_trace (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->trace;
}

/**
 * tw_evaluator_run_get_histogram:
 *
 * While a thread runs: the lengths of the rows it measured so far; once it finished:
 * what the evaluator's update put in its histogram (notify::histogram). Live: the
 * update's histogram from the start.
 *
 * Returns: (transfer none): the histogram to show now
 */
TwHistogram *
tw_evaluator_run_get_histogram (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->histogram;
}

/**
 * tw_evaluator_run_get_table:
 *
 * Returns: (transfer none) (nullable): the measurements; %NULL until a thread finished
 *   (and for good when it failed); live, the table it fills
 */
TwMeasurementTable *
tw_evaluator_run_get_table (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->table;
}

/**
 * tw_evaluator_run_is_running:
 *
 * Returns: whether its thread runs, or it follows a live trace
 */
gboolean
tw_evaluator_run_is_running (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), FALSE);
  return self->running;
}

/**
 * tw_evaluator_run_is_live:
 *
 * Returns: whether it was started with tw_evaluator_run_start_live()
 */
gboolean
tw_evaluator_run_is_live (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), FALSE);
  return self->evaluation != NULL;
}

/**
 * tw_evaluator_run_get_progress:
 *
 * Returns: the fraction of the trace a thread evaluated so far
 */
double
tw_evaluator_run_get_progress (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), 0);
  return self->progress;
}

/**
 * tw_evaluator_run_get_error_message:
 *
 * Returns: (nullable): why it stopped before the end (cancelled, refused the trace, an
 *   automaton made ambiguous by a new event type), %NULL when it did not
 */
const char *
tw_evaluator_run_get_error_message (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->error_message;
}

/**
 * tw_evaluator_run_get_warning:
 *
 * Returns: (nullable): what to say beside the results (tw_evaluator_dup_warning()),
 *   as of the start
 */
const char *
tw_evaluator_run_get_warning (TwEvaluatorRun *self)
{
  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), NULL);
  return self->warning;
}

/* A run starts once. */
static gboolean
can_begin (TwEvaluatorRun *self)
{
  return !self->running && self->error_message == NULL && self->table == NULL &&
         self->cancellable == NULL && self->evaluation == NULL;
}

static void
begin (TwEvaluatorRun *self)
{
  self->warning = tw_evaluator_dup_warning (self->evaluator, self->trace);
  set_running (self, TRUE);
}

/**
 * tw_evaluator_run_start:
 *
 * Runs the evaluator over the whole (sealed) trace in a worker thread; see the top of
 * tw-evaluator-run.c. Its end notifies #TwEvaluatorRun:running.
 */
void
tw_evaluator_run_start (TwEvaluatorRun *self)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(TwEventCosts) costs = NULL;
  Work *work;

  g_return_if_fail (TW_IS_EVALUATOR_RUN (self));
  g_return_if_fail (can_begin (self));

  begin (self);
  work = g_new0 (Work, 1);
  work->evaluator = g_object_ref (self->evaluator);
  work->trace = g_object_ref (self->trace);
  work->table = tw_evaluator_new_table (self->evaluator);
  /* the compensated length beside the raw one, where this machine knows the cost
   * (a worst-case table sets its own, by its own switch) */
  costs = tw_event_cost_lookup_for_trace (self->trace);
  tw_measurement_table_set_event_costs (work->table, costs);
  work->histogram = tw_histogram_new_auto (self->n_bins, self->scale);
  work->run = g_object_ref (self);
  work->context = g_main_context_ref_thread_default ();
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, run_done_cb, NULL);
  g_task_set_source_tag (task, tw_evaluator_run_start);
  g_task_set_task_data (task, work, (GDestroyNotify) work_free);
  g_task_run_in_thread (task, run_thread);
}

/**
 * tw_evaluator_run_start_live:
 *
 * Follows a trace that grows: evaluates what it holds now, then what arrives at each
 * tw_evaluator_run_advance(), on this thread.
 *
 * Returns: %FALSE with @error set when the evaluator refuses the trace
 */
gboolean
tw_evaluator_run_start_live (TwEvaluatorRun  *self,
                             GError         **error)
{
  g_autoptr(TwEvaluation) evaluation = NULL;
  g_autoptr(TwMeasurementTable) table = NULL;
  g_autoptr(TwUpdate) update = NULL;
  g_autoptr(TwEventCosts) costs = NULL;

  g_return_val_if_fail (TW_IS_EVALUATOR_RUN (self), FALSE);
  g_return_val_if_fail (can_begin (self), FALSE);

  evaluation = tw_evaluation_new (self->trace);
  table = tw_evaluator_new_table (self->evaluator);
  costs = tw_event_cost_lookup_for_trace (self->trace);
  tw_measurement_table_set_event_costs (table, costs);
  update = tw_evaluator_create_update (self->evaluator, table, self->histogram);
  if (!tw_evaluation_add_update (evaluation, update, error))
    return FALSE;
  self->evaluation = g_steal_pointer (&evaluation);
  self->table = g_steal_pointer (&table);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TABLE]);
  begin (self);
  tw_evaluator_run_advance (self);
  return TRUE;
}

/**
 * tw_evaluator_run_advance:
 *
 * A live run evaluates the events that arrived since the last call (::updated when
 * that measured something); nothing once it stopped.
 */
void
tw_evaluator_run_advance (TwEvaluatorRun *self)
{
  g_autoptr(GError) error = NULL;
  guint64 generation;
  gsize rows;

  g_return_if_fail (TW_IS_EVALUATOR_RUN (self));

  if (self->evaluation == NULL || !self->running)
    return;
  if (!tw_evaluation_run_to (self->evaluation, tw_trace_get_n_events (self->trace), NULL, NULL,
                             NULL, &error))
    {
      fail (self, error->message);
      return;
    }
  generation = tw_histogram_get_generation (self->histogram);
  rows = tw_measurement_table_get_n_rows (self->table);
  if (generation == self->shown_generation && rows == self->shown_rows)
    return;
  self->shown_generation = generation;
  self->shown_rows = rows;
  g_signal_emit (self, signals[UPDATED], 0);
}

/**
 * tw_evaluator_run_cancel:
 *
 * Stops a thread (it then fails with a message saying so) or a live run (it keeps what
 * it measured).
 */
void
tw_evaluator_run_cancel (TwEvaluatorRun *self)
{
  g_return_if_fail (TW_IS_EVALUATOR_RUN (self));

  if (self->evaluation != NULL)
    set_running (self, FALSE);
  g_cancellable_cancel (self->cancellable);
}
