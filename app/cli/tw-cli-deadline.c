/* tw-cli-deadline.c: `tracewb-cli monitor --deadline`: the monitor thread under SCHED_DEADLINE
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Riegel 2005 §3.5: a monitor that must not miss sensor output gets the resources its
 * sensors' jitter-constrained streams ask for: R elements to evaluate per monitor period
 * T_M (R_max = E(T_M), eq. 5), each at the evaluation's worst-case cost, within the
 * monitor's deadline d. Linux's SCHED_DEADLINE (a constant-bandwidth server, the
 * mechanism the same section names) reserves exactly that: runtime every period, within
 * the deadline. Worst-case execution times are hard to know, so the cost per element is
 * measured at start (the monitor's own polls, before the reservation), with a margin.
 *
 * glibc of Debian 12 has no sched_setattr() wrapper: the system call, with the kernel's
 * struct sched_attr.
 *
 * The runner: with --deadline the monitor's periodic work (poll, evaluate, emit) runs in
 * a thread of its own. It first polls CALIBRATION_NS on normal scheduling, timing each
 * poll's CPU (CLOCK_THREAD_CPUTIME_ID) against the elements it brought: the cheapest
 * poll is the fixed cost, the rest divided by the elements the cost per element. Then it
 * asks for the reservation and keeps polling every period (absolute sleeps), until
 * stopped. Sensors that declared no stream count with twice the most elements they
 * brought in one calibration period: a guess, said as such.
 */
#include "config.h"

#include "tw-cli-deadline.h"

#include <errno.h>
#include <gio/gio.h>
#include <math.h>
#include <sched.h>
#include <time.h>
#include <tw-evaluators.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SCHED_DEADLINE
#define SCHED_DEADLINE 6
#endif

/* the measured costs times this: the measurement saw typical, not worst, cases */
#define MARGIN           2.0
/* the kernel refuses a runtime under 1024 ns (and rounds to µs) */
#define MIN_RUNTIME_NS   10000
#define CALIBRATION_NS   (500 * 1000 * 1000)
/* no element during calibration: GRTMon's ≈400 cycles per evaluated element (Riegel
 * 2005 §5) at 1 GHz, rounded up generously */
#define UNMEASURED_ELEMENT_NS 1000.0

struct tw_sched_attr {
  uint32_t size;
  uint32_t sched_policy;
  uint64_t sched_flags;
  int32_t  sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime;
  uint64_t sched_deadline;
  uint64_t sched_period;
};

/**
 * tw_cli_deadline_size:
 * @period_ns: T_M, the monitor's period
 * @deadline_ns: d ≤ T_M
 *
 * runtime = (poll + R × element) × margin.
 *
 * Returns: %FALSE with @error when that runtime does not fit the deadline
 */
gboolean
tw_cli_deadline_size (const TwCliDeadlineBudget *budget,
                      guint64                    period_ns,
                      guint64                    deadline_ns,
                      TwCliDeadline             *deadline,
                      GError                   **error)
{
  double runtime = (budget->poll_ns + (double) budget->elements * budget->element_ns) * MARGIN;

  deadline->period_ns = period_ns;
  deadline->deadline_ns = MIN (deadline_ns, period_ns);
  deadline->runtime_ns = (guint64) MAX (runtime, (double) MIN_RUNTIME_NS);
  if ((double) deadline->runtime_ns > (double) deadline->deadline_ns)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "--deadline: %" G_GUINT64_FORMAT " elements per period at %.0f ns each "
                   "(+ %.0f ns per period, ×%.0f margin) need %.3f ms of CPU, more than the "
                   "deadline of %.3f ms: poll more often (--period) or evaluate less",
                   budget->elements, budget->element_ns, budget->poll_ns, MARGIN, runtime / 1e6,
                   deadline->deadline_ns / 1e6);
      return FALSE;
    }
  return TRUE;
}

/**
 * tw_cli_deadline_describe_errno:
 *
 * Returns: (transfer full): what a refusal of sched_setattr() with @errsv means here
 */
char *
tw_cli_deadline_describe_errno (int                  errsv,
                                const TwCliDeadline *deadline)
{
  g_autofree char *asked = g_strdup_printf ("runtime %.3f ms, deadline %.3f ms, period %.3f ms",
                                            deadline->runtime_ns / 1e6, deadline->deadline_ns / 1e6,
                                            deadline->period_ns / 1e6);

  switch (errsv)
    {
    case EPERM:
      return g_strdup_printf ("the kernel refused SCHED_DEADLINE (%s): not permitted — it needs "
                              "root (CAP_SYS_NICE); run the monitor as root, or without --deadline",
                              asked);
    case EBUSY:
      return g_strdup_printf ("the kernel refused SCHED_DEADLINE (%s): its admission control "
                              "has not that much CPU bandwidth left (see "
                              "/proc/sys/kernel/sched_rt_runtime_us and the other deadline tasks)",
                              asked);
    case EINVAL:
      return g_strdup_printf ("the kernel refused SCHED_DEADLINE (%s): invalid parameters for "
                              "this kernel (runtime ≤ deadline ≤ period, runtime ≥ 1 µs, period "
                              "within sched_deadline_period_min_us..max_us), or SCHED_DEADLINE "
                              "is not available in it", asked);
    case ENOSYS:
      return g_strdup_printf ("this kernel has no sched_setattr() and so no SCHED_DEADLINE "
                              "(%s asked); run without --deadline", asked);
    default:
      return g_strdup_printf ("the kernel refused SCHED_DEADLINE (%s): %s", asked, g_strerror (errsv));
    }
}

/**
 * tw_cli_deadline_apply:
 *
 * Puts the calling thread under SCHED_DEADLINE with @deadline.
 *
 * Returns: %FALSE with @error saying clearly why the kernel refused
 */
gboolean
tw_cli_deadline_apply (const TwCliDeadline  *deadline,
                       GError              **error)
{
  struct tw_sched_attr attr;

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.sched_policy = SCHED_DEADLINE;
  attr.sched_runtime = deadline->runtime_ns;
  attr.sched_deadline = deadline->deadline_ns;
  attr.sched_period = deadline->period_ns;
  if (syscall (SYS_sched_setattr, 0, &attr, 0) != 0)
    {
      int errsv = errno;
      g_autofree char *why = tw_cli_deadline_describe_errno (errsv, deadline);

      g_set_error_literal (error, G_IO_ERROR, g_io_error_from_errno (errsv), why);
      return FALSE;
    }
  return TRUE;
}

struct _TwCliDeadlineRunner {
  TwMonitor     *monitor;
  guint64        period_ns;
  TwCliPollFunc  poll;
  gpointer       data;
  GMainLoop     *loop;
  GThread       *thread;
  gint           stop;     /* atomic */
  GError        *error;
};

static guint64
thread_cpu_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
}

static guint64
received_total (TwMonitor *monitor)
{
  guint n = tw_monitor_get_n_sources (monitor);
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;

      tw_monitor_get_source_info (monitor, i, &info);
      total += info.counts.received;
    }
  return total;
}

/* Sleeps until @when (CLOCK_MONOTONIC ns). */
static void
sleep_until (guint64 when)
{
  struct timespec ts = { (time_t) (when / 1000000000u), (long) (when % 1000000000u) };

  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
    ;
}

/* R: Σ E(T_M) over the declared streams (eq. 5), and for the others twice the most
 * elements one calibration poll brought; d: the smallest declared monitor deadline. */
static void
count_elements (TwCliDeadlineRunner *self,
                GArray              *most,
                TwCliDeadlineBudget *budget,
                guint64             *deadline_ns)
{
  guint n = tw_monitor_get_n_sources (self->monitor);

  *deadline_ns = self->period_ns;
  for (guint i = 0; i < n; i++)
    {
      TwMonitorSourceInfo info;
      TwJcsStream stream;
      TwJcsMonitor monitor = { (gint64) self->period_ns, (gint64) self->period_ns };
      TwJcs jcs;

      tw_monitor_get_source_info (self->monitor, i, &info);
      if (info.state != TW_MONITOR_SOURCE_ATTACHED)
        continue;
      stream = (TwJcsStream) { llround (info.period_ns), llround (info.min_distance_ns), llround (info.earliness_ns) };
      if (info.deadline_ns > 0 && info.deadline_ns < *deadline_ns)
        *deadline_ns = (guint64) llround (info.deadline_ns);
      if (info.period_ns > 0 && tw_jcs_init (&jcs, &stream, &monitor, NULL))
        {
          budget->elements += jcs.R_max;
          budget->declared += jcs.R_max;
        }
      else if (i < most->len)
        budget->elements += 2 * g_array_index (most, guint64, i);
    }
}

static void
calibrate (TwCliDeadlineRunner *self,
           TwCliDeadlineBudget *budget,
           guint64             *deadline_ns)
{
  g_autoptr(GArray) last = g_array_new (FALSE, TRUE, sizeof (guint64));
  g_autoptr(GArray) most = g_array_new (FALSE, TRUE, sizeof (guint64));
  guint64 start = tw_live_monotonic_ns (), next = start;
  guint64 cpu_total = 0, elements_total = 0, cheapest = G_MAXUINT64;
  guint polls = 0;

  while (tw_live_monotonic_ns () - start < CALIBRATION_NS && !g_atomic_int_get (&self->stop))
    {
      guint64 before = received_total (self->monitor);
      guint64 cpu = thread_cpu_ns (), spent, got;
      guint n;

      self->poll (self->data);
      spent = thread_cpu_ns () - cpu;
      got = received_total (self->monitor) - before;
      cpu_total += spent;
      elements_total += got;
      polls++;
      if (got == 0 && spent < cheapest)
        cheapest = spent;
      /* the most elements each source brought in one period */
      n = tw_monitor_get_n_sources (self->monitor);
      if (last->len < n)
        {
          g_array_set_size (last, n);
          g_array_set_size (most, n);
        }
      for (guint i = 0; i < n; i++)
        {
          TwMonitorSourceInfo info;
          guint64 *l = &g_array_index (last, guint64, i), *m = &g_array_index (most, guint64, i);

          tw_monitor_get_source_info (self->monitor, i, &info);
          *m = MAX (*m, info.counts.received - *l);
          *l = info.counts.received;
        }
      next += self->period_ns;
      sleep_until (next);
    }
  if (cheapest == G_MAXUINT64)
    cheapest = polls ? cpu_total / polls / 2 : 0;
  budget->poll_ns = (double) cheapest;
  budget->element_measured = elements_total > 0 && cpu_total > cheapest * polls;
  if (budget->element_measured)
    budget->element_ns = (double) (cpu_total - cheapest * polls) / (double) elements_total;
  else
    budget->element_ns = UNMEASURED_ELEMENT_NS;
  /* the first poll drains what accumulated before the monitor started, not a period's
   * worth: a source's most per poll is taken at no more than 4× its mean per poll */
  for (guint i = 0; i < most->len; i++)
    g_array_index (most, guint64, i) = MIN (g_array_index (most, guint64, i),
                                            g_array_index (last, guint64, i) / MAX (polls, 1) * 4 + 1);
  count_elements (self, most, budget, deadline_ns);
}

static gpointer
runner_thread (gpointer data)
{
  TwCliDeadlineRunner *self = data;
  TwCliDeadlineBudget budget = { 0 };
  TwCliDeadline deadline;
  guint64 deadline_ns, next;

  calibrate (self, &budget, &deadline_ns);
  if (g_atomic_int_get (&self->stop))
    return NULL;
  if (!tw_cli_deadline_size (&budget, self->period_ns, deadline_ns, &deadline, &self->error)
      || !tw_cli_deadline_apply (&deadline, &self->error))
    {
      g_main_loop_quit (self->loop);
      return NULL;
    }
  g_printerr ("tracewb-cli monitor: SCHED_DEADLINE runtime %.3f ms, deadline %.3f ms, period %.3f ms "
              "(R = %" G_GUINT64_FORMAT " elements per period, %" G_GUINT64_FORMAT " from declared "
              "streams; %.0f ns per element %s, %.0f ns per poll measured)\n",
              deadline.runtime_ns / 1e6, deadline.deadline_ns / 1e6, deadline.period_ns / 1e6,
              budget.elements, budget.declared, budget.element_ns,
              budget.element_measured ? "measured" : "assumed (no element came while measuring)",
              budget.poll_ns);
  next = tw_live_monotonic_ns ();
  while (!g_atomic_int_get (&self->stop))
    {
      self->poll (self->data);
      next += self->period_ns;
      sleep_until (next);
    }
  return NULL;
}

/**
 * tw_cli_deadline_runner_start:
 * @poll: the periodic work, called from the runner's thread only from now on
 * @loop: quit when the kernel refuses the reservation
 *
 * Returns: (transfer full): the running thread; stop it with tw_cli_deadline_runner_stop()
 */
TwCliDeadlineRunner *
tw_cli_deadline_runner_start (TwMonitor     *monitor,
                              guint64        period_ns,
                              TwCliPollFunc  poll,
                              gpointer       data,
                              GMainLoop     *loop)
{
  TwCliDeadlineRunner *self = g_new0 (TwCliDeadlineRunner, 1);

  self->monitor = g_object_ref (monitor);
  self->period_ns = period_ns;
  self->poll = poll;
  self->data = data;
  self->loop = g_main_loop_ref (loop);
  self->thread = g_thread_new ("monitor-deadline", runner_thread, self);
  return self;
}

/**
 * tw_cli_deadline_runner_stop:
 *
 * Stops and joins the thread, and frees @runner.
 *
 * Returns: %FALSE with @error when the kernel refused the reservation (or it did not fit)
 */
gboolean
tw_cli_deadline_runner_stop (TwCliDeadlineRunner  *runner,
                             GError              **error)
{
  gboolean ok;

  g_atomic_int_set (&runner->stop, 1);
  g_thread_join (runner->thread);
  ok = runner->error == NULL;
  if (!ok)
    g_propagate_error (error, runner->error);
  g_object_unref (runner->monitor);
  g_main_loop_unref (runner->loop);
  g_free (runner);
  return ok;
}
