/* tw-simulator.c: a fixed-priority preemptive single-CPU system that writes S.Ha.R.K. dumps
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-simulator.h"
#include "tw-shark-format.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The model (docs/shark-format.md, "Simulator"): periodic tasks with rate-monotonic
 * priorities, released by a periodic timer interrupt; each job runs a random share of
 * its WCET (60–100 %, or 250 % for an overrun); the highest- and lowest-priority tasks
 * share one mutex for the middle third of their jobs (plain blocking, no inheritance);
 * sporadic device interrupts; an idle ("dummy") task when nothing is ready. Everything
 * is logged the way the S.Ha.R.K. kernel logs it, and every record costs 30–129 cycles
 * of kernel time, so no two records share a TSC.
 *
 * The ground truth is counted as records are written, from the simulator's own state,
 * never by reading the dump back.
 */

#define TICK_BASE        ((G_GUINT64_CONSTANT (5) << 32) + 4242)
#define MUTEX_ID         0x0012a3c0u
#define IDLE             (-1)
#define NOBODY           (-2)  /* before the first context_switch */
#define OUT_BUFFER       (1u << 20)

/* ---------------------------------------------------------------- PRNG: xoshiro256** */

typedef struct {
  guint64 s[4];
} Rng;

static guint64
splitmix64 (guint64 *x)
{
  guint64 z = (*x += G_GUINT64_CONSTANT (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * G_GUINT64_CONSTANT (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static void
rng_seed (Rng     *rng,
          guint64  seed)
{
  for (guint i = 0; i < 4; i++)
    rng->s[i] = splitmix64 (&seed);
}

static inline guint64
rotl (guint64 x,
      int     k)
{
  return (x << k) | (x >> (64 - k));
}

static inline guint64
rng_next (Rng *rng)
{
  guint64 *s = rng->s;
  guint64 result = rotl (s[1] * 5, 7) * 9;
  guint64 t = s[1] << 17;

  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl (s[3], 45);
  return result;
}

/* Uniform in [0, 1) with 53 bits. */
static inline double
rng_double (Rng *rng)
{
  return (rng_next (rng) >> 11) * (1.0 / 9007199254740992.0);
}

/* Uniform in [0, n). */
static inline guint64
rng_below (Rng     *rng,
           guint64  n)
{
  return (guint64) (((unsigned __int128) rng_next (rng) * n) >> 64);
}

/* ---------------------------------------------------------------- simulator state */

typedef struct {
  guint16 ctx;
  guint   pid;
  guint64 period;
  guint64 wcet;
  guint64 next_release;
  guint64 pending;          /* released jobs not finished, including the current one */
  gboolean job_started;
  guint64 job_number;
  guint   phase;            /* 0 before, 1 inside, 2 after the critical section */
  guint64 remaining[3];
  gboolean uses_mutex;
  gboolean wants_lock;      /* blocked on the mutex, retries when dispatched */
} SimTask;

/* A periodic task's current job as the records written so far say (the ground truth
 * of explanations: docs/explain.md). */
typedef struct {
  guint    pending;         /* task_activate records not yet ended by task_end_cycle */
  gboolean tracked;         /* the open job was released while none was pending */
  gboolean ran;             /* it was switched in since its release or its unlock */
  gboolean blocked;         /* it waits for the mutex */
  TwSimulatorJobTruth job;
} JobTrack;

typedef struct {
  TwSimulatorOptions opts;
  Rng        rng;
  SimTask   *tasks;         /* sorted by priority, highest first */
  guint      n_tasks;
  guint16    idle_ctx;
  guint      idle_pid;

  guint64    now;           /* TSC */
  guint64    last_tick;     /* TSC of the last record written */
  guint64    cpm;
  gint       cur;           /* running task index, IDLE, or NOBODY before boot */
  gint       mutex_owner;   /* task index or -1 */
  guint64    next_timer;
  guint64    next_irq;
  guint64    timer_period;

  /* output */
  guint8    *buf;
  gsize      buf_len;
  int        fd;
  GByteArray *bytes;
  const char *path;
  GError    **error;
  gboolean   failed;
  guint64    written;
  gboolean   full;          /* only trace_stop may still be written */

  /* truth */
  TwSimulatorTruth *truth;
  gint       switched;      /* truth index of the task switched in last, -1 = none */
  guint64    switched_ns;
  guint8    *ctx_seen;      /* 65536 entries */

  /* job truth: the state each record leaves, which holds until the next record */
  gboolean   track_jobs;
  JobTrack  *jobs;          /* per periodic task */
  guint64    record_ns;     /* time of the last record */
  gint       handler;       /* irq number of the running handler, -1 */
  gint       owner;         /* truth index of the mutex owner, -1 */
} Sim;

static guint64
tick_to_ns (Sim     *sim,
            guint64  tick)
{
  return (guint64) ((unsigned __int128) (tick - TICK_BASE) * 1000000 / sim->cpm);
}

static void
flush_output (Sim *sim)
{
  gsize done = 0;

  if (sim->failed || sim->buf_len == 0)
    {
      sim->buf_len = 0;
      return;
    }
  if (sim->bytes != NULL)
    {
      g_byte_array_append (sim->bytes, sim->buf, sim->buf_len);
      sim->buf_len = 0;
      return;
    }
  while (done < sim->buf_len)
    {
      gssize n = write (sim->fd, sim->buf + done, sim->buf_len - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;
          g_set_error (sim->error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s",
                       sim->path, g_strerror (saved));
          sim->failed = TRUE;
          break;
        }
      done += n;
    }
  sim->buf_len = 0;
}

/* Truth index of a context: tasks 0..n-1, the idle task n. */
static gint
truth_index (Sim     *sim,
             guint16  ctx)
{
  if (ctx == sim->idle_ctx)
    return sim->n_tasks;
  for (guint i = 0; i < sim->n_tasks; i++)
    if (sim->tasks[i].ctx == ctx)
      return i;
  return -1;
}

static gboolean
names_context (guint8 code)
{
  switch (code)
    {
    case TW_SHARK_ID:
    case TW_SHARK_TASK_CREATE:
    case TW_SHARK_TASK_ACTIVATE:
    case TW_SHARK_TASK_END_CYCLE:
    case TW_SHARK_TASK_SCHEDULE:
    case TW_SHARK_TASK_DEADLINE_MISS:
    case TW_SHARK_CONTEXT_SWITCH:
    case TW_SHARK_SET_MUTEX_LOCK:
    case TW_SHARK_SET_MUTEX_UNLOCK:
    case TW_SHARK_SET_MUTEX_WAIT:
    case TW_SHARK_TIMER_WAKEUP_END:
      return TRUE;
    default:
      return FALSE;
    }
}

static void
job_reset (TwSimulatorJobTruth *job,
           guint                n)
{
  guint64 *preempted = job->preempted_ns;
  guint64 *waiting = job->waiting_ns;
  guint64 *inversion = job->inversion_ns;

  memset (preempted, 0, n * sizeof (guint64));
  memset (waiting, 0, n * sizeof (guint64));
  memset (inversion, 0, n * sizeof (guint64));
  memset (job, 0, sizeof *job);
  job->preempted_ns = preempted;
  job->waiting_ns = waiting;
  job->inversion_ns = inversion;
  job->owner = -1;
}

static void
job_copy (TwSimulatorJobTruth       *to,
          const TwSimulatorJobTruth *from,
          guint                      n)
{
  guint64 *preempted = to->preempted_ns;
  guint64 *waiting = to->waiting_ns;
  guint64 *inversion = to->inversion_ns;

  memcpy (preempted, from->preempted_ns, n * sizeof (guint64));
  memcpy (waiting, from->waiting_ns, n * sizeof (guint64));
  memcpy (inversion, from->inversion_ns, n * sizeof (guint64));
  *to = *from;
  to->preempted_ns = preempted;
  to->waiting_ns = waiting;
  to->inversion_ns = inversion;
}

/* Gives the time since the last record to every tracked job, by the state that record
 * left: the current task (sim->switched), the handler, the job's own flags. */
static void
jobs_account (Sim     *sim,
              guint64  ns)
{
  guint64 d = ns - sim->record_ns;
  gint cur = sim->switched;

  for (guint i = 0; i < sim->n_tasks && d > 0 && cur >= 0; i++)
    {
      JobTrack *jt = &sim->jobs[i];
      TwSimulatorJobTruth *job = &jt->job;

      if (!jt->tracked)
        continue;
      if (cur == (gint) i && sim->handler >= 0)
        job->interrupted_ns[sim->handler] += d;
      else if (cur == (gint) i)
        job->running_ns += d;
      else if (jt->blocked && cur != job->owner && cur != (gint) sim->n_tasks)
        job->inversion_ns[cur] += d;
      else if (jt->blocked)
        job->blocked_ns += d;
      else if (jt->ran)
        job->preempted_ns[cur] += d;
      else
        job->waiting_ns[cur] += d;
    }
}

static void
job_end (Sim     *sim,
         gint     i,
         guint64  ns)
{
  JobTrack *jt = &sim->jobs[i];
  TwSimulatorJobTruth *worst = &sim->truth->tasks[i].worst_job;

  if (jt->pending == 0)
    return;
  jt->pending--;
  if (!jt->tracked)
    return;
  jt->tracked = FALSE;
  jt->job.end_ns = ns;
  if (worst->end_ns == 0 || ns - jt->job.begin_ns > worst->end_ns - worst->begin_ns)
    job_copy (worst, &jt->job, sim->n_tasks + 1);
}

/* The state record @code leaves for the jobs, after jobs_account() gave them the time
 * before it. */
static void
jobs_apply (Sim     *sim,
            guint8   code,
            guint16  par1,
            guint64  ns)
{
  gint i = (code == TW_SHARK_INTERRUPT_START || code == TW_SHARK_INTERRUPT_END)
           ? -1 : truth_index (sim, par1);
  JobTrack *jt = i >= 0 && i < (gint) sim->n_tasks ? &sim->jobs[i] : NULL;

  sim->record_ns = ns;
  switch (code)
    {
    case TW_SHARK_TIMER_WAKEUP_START:
      sim->handler = 0;
      break;
    case TW_SHARK_INTERRUPT_START:
      sim->handler = par1 < TW_SIMULATOR_MAX_IRQ ? par1 : -1;
      break;
    case TW_SHARK_TIMER_WAKEUP_END:
    case TW_SHARK_INTERRUPT_END:
      sim->handler = -1;
      break;
    case TW_SHARK_CONTEXT_SWITCH:
      if (jt)
        jt->ran = TRUE;
      break;
    case TW_SHARK_TASK_ACTIVATE:
      if (jt && jt->pending++ == 0)
        {
          job_reset (&jt->job, sim->n_tasks + 1);
          jt->job.begin_ns = ns;
          jt->tracked = TRUE;
          jt->ran = FALSE;
        }
      break;
    case TW_SHARK_TASK_END_CYCLE:
      if (jt)
        job_end (sim, i, ns);
      break;
    case TW_SHARK_SET_MUTEX_LOCK:
      sim->owner = i;
      if (jt)
        jt->blocked = FALSE;
      break;
    case TW_SHARK_SET_MUTEX_WAIT:
      if (jt)
        {
          jt->blocked = TRUE;
          jt->job.owner = sim->owner;
        }
      break;
    case TW_SHARK_SET_MUTEX_UNLOCK:
      /* the waiters retry when dispatched: from here they are runnable, woken */
      sim->owner = -1;
      for (guint k = 0; k < sim->n_tasks; k++)
        if (sim->jobs[k].blocked)
          {
            sim->jobs[k].blocked = FALSE;
            sim->jobs[k].ran = FALSE;
          }
      break;
    default:
      break;
    }
}

/* Writes one record at the current time, then lets the kernel's logging cost pass.
 * Returns FALSE when the record did not fit in the event budget. */
static gboolean
emit (Sim     *sim,
      guint8   code,
      guint16  par1,
      guint32  par2)
{
  TwSimulatorTruth *truth = sim->truth;
  guint64 ns = 0;

  if (sim->full && code != TW_SHARK_TRACE_STOP)
    return FALSE;

  if (sim->buf_len + TW_SHARK_RECORD_SIZE > OUT_BUFFER)
    flush_output (sim);
  tw_shark_record_write_le (sim->buf + sim->buf_len, code, par1, sim->now, par2);
  sim->buf_len += TW_SHARK_RECORD_SIZE;

  /* Times in ns only where the truth needs them: a 128-bit division is dear. */
  if (truth->n_events == 0)
    truth->first_ns = tick_to_ns (sim, sim->now);
  sim->last_tick = sim->now;
  truth->n_events++;
  truth->type_counts[code]++;
  if (names_context (code) && !sim->ctx_seen[par1])
    {
      sim->ctx_seen[par1] = 1;
      truth->n_contexts++;
    }
  if (code == TW_SHARK_CONTEXT_SWITCH || code == TW_SHARK_TRACE_STOP || sim->track_jobs)
    ns = tick_to_ns (sim, sim->now);
  if (sim->track_jobs)
    {
      jobs_account (sim, ns);
      jobs_apply (sim, code, par1, ns);
    }
  if (code == TW_SHARK_CONTEXT_SWITCH)
    {
      if (sim->switched >= 0)
        truth->tasks[sim->switched].cpu_time_ns += ns - sim->switched_ns;
      sim->switched = truth_index (sim, par1);
      sim->switched_ns = ns;
    }
  else if (code == TW_SHARK_TRACE_STOP && sim->switched >= 0)
    truth->tasks[sim->switched].cpu_time_ns += ns - sim->switched_ns;

  if (++sim->written + 1 >= sim->opts.max_events)
    sim->full = TRUE;
  sim->now += 30 + rng_below (&sim->rng, 100);
  return TRUE;
}

static guint16
cur_ctx (Sim *sim)
{
  return sim->cur < 0 ? sim->idle_ctx : sim->tasks[sim->cur].ctx;
}

static void
start_job (Sim *sim,
           gint i)
{
  SimTask *t = &sim->tasks[i];
  double share = rng_double (&sim->rng) < sim->opts.overrun_probability
                 ? 2.5 : 0.6 + 0.4 * rng_double (&sim->rng);
  guint64 exec = MAX (1, (guint64) (t->wcet * share));

  t->job_started = TRUE;
  t->job_number++;
  t->phase = 0;
  if (t->uses_mutex)
    {
      t->remaining[0] = exec / 3;
      t->remaining[1] = exec / 3;
      t->remaining[2] = exec - 2 * (exec / 3);
    }
  else
    {
      t->remaining[0] = 0;
      t->remaining[1] = 0;
      t->remaining[2] = exec;
    }
  emit (sim, TW_SHARK_USER_EVENT_0, t->pid, (guint32) t->job_number);
}

static gint
highest_ready (Sim *sim)
{
  for (guint i = 0; i < sim->n_tasks; i++)
    if (sim->tasks[i].pending > 0 && !sim->tasks[i].wants_lock)
      return i;
  return IDLE;
}

/* Tries to take the mutex at the start of the critical section. */
static void
try_lock (Sim *sim,
          gint i)
{
  SimTask *t = &sim->tasks[i];

  if (sim->mutex_owner < 0 || sim->mutex_owner == i)
    {
      sim->mutex_owner = i;
      t->wants_lock = FALSE;
      t->phase = 1;
      emit (sim, TW_SHARK_SET_MUTEX_LOCK, t->ctx, MUTEX_ID);
    }
  else
    {
      t->wants_lock = TRUE;
      emit (sim, TW_SHARK_SET_MUTEX_WAIT, t->ctx, MUTEX_ID);
    }
}

static void
schedule (Sim *sim)
{
  gint best = highest_ready (sim);
  guint16 ctx = best == IDLE ? sim->idle_ctx : sim->tasks[best].ctx;

  emit (sim, TW_SHARK_TASK_SCHEDULE, ctx, ctx);
  if (best != sim->cur)
    {
      emit (sim, TW_SHARK_CONTEXT_SWITCH, ctx, 0);
      sim->cur = best;
    }
  if (best == IDLE)
    return;
  if (!sim->tasks[best].job_started)
    start_job (sim, best);
}

/* The running task finished the work of its current phase. */
static void
phase_done (Sim *sim)
{
  gint i = sim->cur;
  SimTask *t = &sim->tasks[i];

  switch (t->phase)
    {
    case 0:
      if (t->uses_mutex)
        {
          try_lock (sim, i);
          if (t->wants_lock)
            schedule (sim);
          return;
        }
      t->phase = 2;
      return;

    case 1:
      emit (sim, TW_SHARK_SET_MUTEX_UNLOCK, t->ctx, MUTEX_ID);
      sim->mutex_owner = -1;
      t->phase = 2;
      for (guint k = 0; k < sim->n_tasks; k++)
        sim->tasks[k].wants_lock = FALSE; /* waiters retry when dispatched */
      schedule (sim);
      return;

    default:
      if (emit (sim, TW_SHARK_USER_EVENT_0 + 0x10, t->pid, (guint32) t->job_number))
        sim->truth->tasks[i].jobs_completed++;
      emit (sim, TW_SHARK_TASK_END_CYCLE, t->ctx, 0);
      t->pending--;
      t->job_started = FALSE;
      schedule (sim);
      return;
    }
}

static void
timer_interrupt (Sim *sim)
{
  gboolean released = FALSE;

  emit (sim, TW_SHARK_TIMER_WAKEUP_START, 0, 0);
  for (guint i = 0; i < sim->n_tasks; i++)
    {
      SimTask *t = &sim->tasks[i];

      if (t->next_release > sim->next_timer)
        continue;
      if (t->pending > 0 && emit (sim, TW_SHARK_TASK_DEADLINE_MISS, t->ctx, 0))
        {
          sim->truth->tasks[i].deadline_misses++;
          sim->truth->deadline_misses++;
        }
      if (emit (sim, TW_SHARK_TASK_ACTIVATE, t->ctx, 0))
        sim->truth->tasks[i].jobs_released++;
      t->pending++;
      t->next_release += t->period;
      released = TRUE;
    }
  emit (sim, TW_SHARK_TIMER_POST, 0, 0);
  emit (sim, TW_SHARK_TIMER_WAKEUP_END, cur_ctx (sim), 0);
  sim->next_timer += sim->timer_period;
  if (released)
    schedule (sim);
}

static void
device_interrupt (Sim *sim)
{
  static const guint16 irqs[] = { 1, 11, 14 };
  guint16 irq = irqs[rng_below (&sim->rng, G_N_ELEMENTS (irqs))];
  guint64 mean = (guint64) sim->opts.irq_mean_interval_us * sim->cpm / 1000;

  emit (sim, TW_SHARK_INTERRUPT_START, irq, 0);
  sim->now += rng_below (&sim->rng, sim->cpm / 100 + 1); /* handler work: up to 10 µs */
  emit (sim, TW_SHARK_INTERRUPT_END, irq, 0);
  sim->next_irq = sim->now + 1 + rng_below (&sim->rng, 2 * mean + 1);
}

/* Sorts by period (rate-monotonic priority), then by creation order. */
static int
compare_period (gconstpointer a,
                gconstpointer b)
{
  const SimTask *ta = a;
  const SimTask *tb = b;

  if (ta->period != tb->period)
    return ta->period < tb->period ? -1 : 1;
  return ta->pid < tb->pid ? -1 : (ta->pid > tb->pid);
}

static void
setup_tasks (Sim *sim)
{
  static const guint periods_ms[] = { 4, 5, 8, 10, 16, 20, 25, 40, 50, 100 };
  double left = sim->opts.utilization;
  guint n = sim->n_tasks;
  guint64 timer_period = sim->timer_period;

  sim->idle_ctx = 256;
  sim->idle_pid = 0;
  for (guint i = 0; i < n; i++)
    {
      SimTask *t = &sim->tasks[i];
      double u;

      /* UUniFast: shares of the total utilization, uniform over the simplex. */
      if (i + 1 < n)
        {
          double next = left * pow (rng_double (&sim->rng), 1.0 / (n - 1 - i));
          u = left - next;
          left = next;
        }
      else
        u = left;

      t->ctx = 264 + 8 * i;
      t->pid = i + 1;
      t->period = (guint64) periods_ms[rng_below (&sim->rng, G_N_ELEMENTS (periods_ms))]
                  * sim->cpm;
      /* Releases come with timer interrupts: periods are whole timer periods. */
      t->period = MAX (timer_period, t->period / timer_period * timer_period);
      t->wcet = MAX (1, (guint64) (u * t->period));
    }
  qsort (sim->tasks, n, sizeof (SimTask), compare_period);
  if (n >= 2)
    sim->tasks[0].uses_mutex = sim->tasks[n - 1].uses_mutex = TRUE;
}

static void
job_alloc (TwSimulatorJobTruth *job,
           guint                n)
{
  job->preempted_ns = g_new0 (guint64, n);
  job->waiting_ns = g_new0 (guint64, n);
  job->inversion_ns = g_new0 (guint64, n);
  job->owner = -1;
}

static void
job_free (TwSimulatorJobTruth *job)
{
  g_free (job->preempted_ns);
  g_free (job->waiting_ns);
  g_free (job->inversion_ns);
}

static void
truth_init (Sim *sim)
{
  TwSimulatorTruth *truth = g_new0 (TwSimulatorTruth, 1);

  truth->cycles_per_msec = sim->cpm;
  truth->n_tasks = sim->n_tasks + 1;
  truth->tasks = g_new0 (TwSimulatorTaskTruth, truth->n_tasks);
  for (guint i = 0; i < sim->n_tasks; i++)
    {
      truth->tasks[i].ctx = sim->tasks[i].ctx;
      truth->tasks[i].pid = sim->tasks[i].pid;
    }
  truth->tasks[sim->n_tasks].ctx = sim->idle_ctx;
  truth->tasks[sim->n_tasks].pid = sim->idle_pid;
  for (guint i = 0; i < truth->n_tasks; i++)
    job_alloc (&truth->tasks[i].worst_job, truth->n_tasks);
  sim->truth = truth;
}

static void
run (Sim *sim)
{
  /* Boot: the idle (main) task starts the tracer, names the tasks and creates them. */
  emit (sim, TW_SHARK_TRACE_START, sim->idle_ctx, (guint32) sim->cpm);
  emit (sim, TW_SHARK_ID, sim->idle_ctx, sim->idle_pid);
  for (guint i = 0; i < sim->n_tasks; i++)
    emit (sim, TW_SHARK_ID, sim->tasks[i].ctx, sim->tasks[i].pid);
  for (guint i = 0; i < sim->n_tasks; i++)
    emit (sim, TW_SHARK_TASK_CREATE, sim->tasks[i].ctx, sim->tasks[i].pid);
  schedule (sim);

  sim->next_timer = sim->now + sim->timer_period;
  for (guint i = 0; i < sim->n_tasks; i++)
    sim->tasks[i].next_release = sim->next_timer;
  sim->next_irq = sim->opts.irq_mean_interval_us == 0 ? G_MAXUINT64
                  : sim->now + rng_below (&sim->rng, (guint64) sim->opts.irq_mean_interval_us * sim->cpm / 500 + 1);

  while (!sim->full && !sim->failed)
    {
      guint64 done = G_MAXUINT64;
      guint64 next;
      SimTask *t = sim->cur < 0 ? NULL : &sim->tasks[sim->cur];

      if (t != NULL)
        done = sim->now + t->remaining[t->phase];
      next = MIN (done, MIN (sim->next_timer, sim->next_irq));
      next = MAX (next, sim->now);
      if (t != NULL)
        t->remaining[t->phase] -= MIN (t->remaining[t->phase], next - sim->now);
      sim->now = next;

      if (t != NULL && t->remaining[t->phase] == 0)
        phase_done (sim);
      else if (sim->next_timer <= sim->next_irq)
        timer_interrupt (sim);
      else
        device_interrupt (sim);
    }

  emit (sim, TW_SHARK_TRACE_STOP, 0, 0);
  sim->truth->last_ns = tick_to_ns (sim, sim->last_tick);
  flush_output (sim);
}

/**
 * tw_simulator_options_init:
 *
 * Fills @options with the defaults: seed 1, 4 tasks, utilization 0.7, 367 MHz, 100 000
 * events, no overruns, a 1 ms timer and a device interrupt every 5 ms on average.
 */
void
tw_simulator_options_init (TwSimulatorOptions *options)
{
  options->seed = 1;
  options->n_tasks = 4;
  options->utilization = 0.7;
  options->cpu_mhz = 367;
  options->max_events = 100000;
  options->overrun_probability = 0.0;
  options->timer_period_us = 1000;
  options->irq_mean_interval_us = 5000;
}

static gboolean
check_options (const TwSimulatorOptions  *o,
               GError                   **error)
{
  const char *problem = NULL;

  if (o->n_tasks < 1 || o->n_tasks > 64)
    problem = "the number of tasks must be 1–64";
  else if (!(o->utilization > 0.0 && o->utilization <= 4.0))
    problem = "the utilization must be in (0, 4]";
  else if (o->cpu_mhz < 1 || o->cpu_mhz > 100000)
    problem = "the CPU clock must be 1–100000 MHz";
  else if (o->max_events < 1)
    problem = "at least one event is needed";
  else if (!(o->overrun_probability >= 0.0 && o->overrun_probability <= 1.0))
    problem = "the overrun probability must be in [0, 1]";
  else if (o->timer_period_us < 10 || o->timer_period_us > 1000000)
    problem = "the timer period must be 10 µs–1 s";
  else if (o->irq_mean_interval_us > 10000000)
    problem = "the mean interrupt interval must be at most 10 s";

  if (problem)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "simulator: %s", problem);
      return FALSE;
    }
  return TRUE;
}

static gboolean
simulate (const TwSimulatorOptions  *options,
          int                        fd,
          GByteArray                *bytes,
          const char                *path,
          TwSimulatorTruth         **truth_out,
          GError                   **error)
{
  Sim sim = { 0 };
  g_autofree guint8 *buf = NULL;
  g_autofree SimTask *tasks = NULL;
  g_autofree guint8 *ctx_seen = NULL;
  g_autoptr(TwSimulatorTruth) truth = NULL;

  sim.opts = *options;
  rng_seed (&sim.rng, options->seed);
  sim.n_tasks = options->n_tasks;
  sim.cpm = (guint64) options->cpu_mhz * 1000;
  sim.timer_period = (guint64) options->timer_period_us * sim.cpm / 1000;
  sim.now = TICK_BASE;
  sim.cur = NOBODY; /* so that the boot schedule logs a context_switch to the idle task */
  sim.mutex_owner = -1;
  sim.switched = -1;
  sim.fd = fd;
  sim.bytes = bytes;
  sim.path = path;
  sim.error = error;
  sim.buf = buf = g_malloc (OUT_BUFFER);
  sim.tasks = tasks = g_new0 (SimTask, sim.n_tasks);
  sim.ctx_seen = ctx_seen = g_new0 (guint8, 65536);
  sim.full = options->max_events <= 1;
  /* a division per record: only for who asks */
  sim.track_jobs = truth_out != NULL;
  sim.handler = -1;
  sim.owner = -1;

  setup_tasks (&sim);
  truth_init (&sim);
  truth = sim.truth;
  sim.jobs = g_new0 (JobTrack, sim.n_tasks);
  for (guint i = 0; i < sim.n_tasks; i++)
    job_alloc (&sim.jobs[i].job, sim.n_tasks + 1);
  run (&sim);
  for (guint i = 0; i < sim.n_tasks; i++)
    job_free (&sim.jobs[i].job);
  g_free (sim.jobs);

  if (sim.failed)
    return FALSE;
  if (truth_out)
    *truth_out = g_steal_pointer (&truth);
  return TRUE;
}

/**
 * tw_simulator_write_file:
 * @truth: (out) (optional) (transfer full): what the simulator knows of the trace
 *
 * Writes a S.Ha.R.K. dump of the simulated system to @path.
 *
 * Returns: %FALSE with @error set on bad options or a write error
 */
gboolean
tw_simulator_write_file (const TwSimulatorOptions  *options,
                         const char                *path,
                         TwSimulatorTruth         **truth,
                         GError                   **error)
{
  int fd;
  gboolean ok;

  g_return_val_if_fail (options != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!check_options (options, error))
    return FALSE;

  fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  ok = simulate (options, fd, NULL, path, truth, error);
  if (close (fd) != 0 && ok)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  return ok;
}

/**
 * tw_simulator_generate:
 * @truth: (out) (optional) (transfer full): what the simulator knows of the trace
 *
 * Returns: (transfer full) (nullable): the dump in memory
 */
GBytes *
tw_simulator_generate (const TwSimulatorOptions  *options,
                       TwSimulatorTruth         **truth,
                       GError                   **error)
{
  g_autoptr(GByteArray) bytes = NULL;

  g_return_val_if_fail (options != NULL, NULL);

  if (!check_options (options, error))
    return NULL;

  bytes = g_byte_array_sized_new (MIN (options->max_events, 1u << 20) * TW_SHARK_RECORD_SIZE);
  if (!simulate (options, -1, bytes, "(memory)", truth, error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

static void
append_by_task (GString                *s,
                const TwSimulatorTruth *truth,
                const char             *name,
                const guint64          *ns)
{
  gboolean first = TRUE;

  g_string_append_printf (s, ", \"%s\" : [", name);
  for (guint k = 0; k < truth->n_tasks; k++)
    {
      if (ns[k] == 0)
        continue;
      g_string_append_printf (s, "%s{ \"pid\" : %" G_GINT64_FORMAT ", \"ns\" : %"
                              G_GUINT64_FORMAT " }", first ? " " : ", ", truth->tasks[k].pid,
                              ns[k]);
      first = FALSE;
    }
  g_string_append (s, first ? "]" : " ]");
}

static void
append_job_json (GString                   *s,
                 const TwSimulatorTruth    *truth,
                 const TwSimulatorJobTruth *job)
{
  gboolean first = TRUE;

  g_string_append_printf (s, ",\n      \"worst_job\" : { \"begin_ns\" : %" G_GUINT64_FORMAT
                          ", \"end_ns\" : %" G_GUINT64_FORMAT ", \"running_ns\" : %"
                          G_GUINT64_FORMAT ", \"blocked_ns\" : %" G_GUINT64_FORMAT,
                          job->begin_ns, job->end_ns, job->running_ns, job->blocked_ns);
  if (job->owner >= 0)
    g_string_append_printf (s, ", \"mutex_owner_pid\" : %" G_GINT64_FORMAT,
                            truth->tasks[job->owner].pid);
  g_string_append (s, ", \"interrupted\" : [");
  for (guint irq = 0; irq < TW_SIMULATOR_MAX_IRQ; irq++)
    {
      if (job->interrupted_ns[irq] == 0)
        continue;
      g_string_append_printf (s, "%s{ \"irq\" : %u, \"ns\" : %" G_GUINT64_FORMAT " }",
                              first ? " " : ", ", irq, job->interrupted_ns[irq]);
      first = FALSE;
    }
  g_string_append (s, first ? "]" : " ]");
  append_by_task (s, truth, "preempted", job->preempted_ns);
  append_by_task (s, truth, "waiting", job->waiting_ns);
  append_by_task (s, truth, "inversion", job->inversion_ns);
  g_string_append (s, " }");
}

/**
 * tw_simulator_truth_to_json:
 *
 * Returns: (transfer full): the truth as one JSON object: events, first_ns, last_ns,
 *   duration_ns, cycles_per_msec, tasks (distinct contexts), deadline_misses, types
 *   (name → count) and per_task (ctx, pid, jobs_released, jobs_completed,
 *   deadline_misses, cpu_time_ns, and worst_job: begin_ns, end_ns, running_ns,
 *   blocked_ns, mutex_owner_pid, interrupted [irq, ns], preempted, waiting and
 *   inversion [pid, ns] — TwSimulatorJobTruth)
 */
char *
tw_simulator_truth_to_json (const TwSimulatorTruth *truth)
{
  GString *s = g_string_new ("{\n");
  gboolean first = TRUE;

  g_string_append_printf (s, "  \"events\" : %" G_GUINT64_FORMAT ",\n", truth->n_events);
  g_string_append_printf (s, "  \"first_ns\" : %" G_GUINT64_FORMAT ",\n", truth->first_ns);
  g_string_append_printf (s, "  \"last_ns\" : %" G_GUINT64_FORMAT ",\n", truth->last_ns);
  g_string_append_printf (s, "  \"duration_ns\" : %" G_GUINT64_FORMAT ",\n",
                          truth->last_ns - truth->first_ns);
  g_string_append_printf (s, "  \"cycles_per_msec\" : %" G_GUINT64_FORMAT ",\n",
                          truth->cycles_per_msec);
  g_string_append_printf (s, "  \"tasks\" : %u,\n", truth->n_contexts);
  g_string_append_printf (s, "  \"deadline_misses\" : %" G_GUINT64_FORMAT ",\n",
                          truth->deadline_misses);
  g_string_append (s, "  \"types\" : {");
  for (guint code = 0; code < 256; code++)
    {
      if (truth->type_counts[code] == 0)
        continue;
      g_string_append_printf (s, "%s\n    \"%s\" : %" G_GUINT64_FORMAT, first ? "" : ",",
                              tw_shark_code_info (code)->name, truth->type_counts[code]);
      first = FALSE;
    }
  g_string_append (s, "\n  },\n  \"per_task\" : [");
  for (guint i = 0; i < truth->n_tasks; i++)
    {
      const TwSimulatorTaskTruth *t = &truth->tasks[i];

      g_string_append_printf (s, "%s\n    { \"ctx\" : %u, \"pid\" : %" G_GINT64_FORMAT
                              ", \"jobs_released\" : %" G_GUINT64_FORMAT
                              ", \"jobs_completed\" : %" G_GUINT64_FORMAT
                              ", \"deadline_misses\" : %" G_GUINT64_FORMAT
                              ", \"cpu_time_ns\" : %" G_GUINT64_FORMAT,
                              i ? "," : "", t->ctx, t->pid, t->jobs_released,
                              t->jobs_completed, t->deadline_misses, t->cpu_time_ns);
      if (t->worst_job.end_ns != 0)
        append_job_json (s, truth, &t->worst_job);
      g_string_append (s, " }");
    }
  g_string_append (s, "\n  ]\n}\n");
  return g_string_free (s, FALSE);
}

/**
 * tw_simulator_truth_free:
 * @truth: (nullable) (transfer full): what tw_simulator_write_file() gave
 */
void
tw_simulator_truth_free (TwSimulatorTruth *truth)
{
  if (truth == NULL)
    return;
  for (guint i = 0; i < truth->n_tasks; i++)
    job_free (&truth->tasks[i].worst_job);
  g_free (truth->tasks);
  g_free (truth);
}
