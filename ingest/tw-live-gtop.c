/* tw-live-gtop.c: a libgtop sampler (CPU load, memory, per-process CPU time) as a live source
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every `interval` (default 500 ms; checked at each poll, so the monitor's poll period
 * bounds the jitter) one sample set, all stamped with the CLOCK_MONOTONIC time the
 * sample was taken:
 *   gtop_cpu_load   on task "gtop:cpu/N" ("CPU N"), CPU column N: load_pct (busy share
 *                   of the interval, 0..100), user_pct, system_pct, iowait_pct
 *   gtop_memory     on task "gtop:memory": total, used, free, cached, buffer (bytes), used_pct
 *   gtop_process    on the process's task (source id "<pid>", the kernel reader's id for
 *                   its main thread, named by libgtop's command name): cpu_time_ns (user +
 *                   system, cumulated), cpu_pct (over the interval, 100 = one CPU busy)
 * Shares need two samples: the first sample set only records the baseline.
 * All kind OTHER (arg 0).
 */
#include "config.h"

#include "tw-live-gtop.h"
#include "tw-gtop-types.h"

#include <string.h>

#if HAVE_LIBGTOP
/* libgtop's headers test configure macros they never define. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wundef"
#include <glibtop.h>
#include <glibtop/cpu.h>
#include <glibtop/mem.h>
#include <glibtop/proclist.h>
#include <glibtop/procstate.h>
#include <glibtop/proctime.h>
#pragma GCC diagnostic pop

static const TwFieldSpec process_fields[] = {
  { "cpu_time_ns", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
  { "cpu_pct",     TW_FIELD_F64, TW_FIELD_FLAG_NONE },
};

typedef struct {
  guint64 total, idle, user, sys, iowait;
} CpuTicks;

typedef struct {
  TwLiveSource  parent;
  guint64       interval_ns;
  guint64       last_sample_ns;
  gboolean      have_baseline;
  guint16       cpu_type, memory_type, process_type;
  guint         n_cpus;
  CpuTicks     *cpu_prev;
  guint32      *cpu_tasks;
  guint32       memory_task;
  GHashTable   *proc_prev;     /* pid → cumulated CPU ns at the previous sample (boxed) */
} GtopSource;

static void
put_f64 (const TwEventType *type, guint8 *payload, guint field, double v)
{
  TwValue value = { .type = TW_FIELD_F64, .f = v };

  tw_event_type_set_field (type, payload, field, &value);
}

static void
put_u64 (const TwEventType *type, guint8 *payload, guint field, guint64 v)
{
  TwValue value = { .type = TW_FIELD_U64, .u = v };

  tw_event_type_set_field (type, payload, field, &value);
}

static double
share (guint64 part, guint64 total)
{
  double pct = total ? 100.0 * (double) part / (double) total : 0.0;

  return CLAMP (pct, 0.0, 100.0);
}

static gboolean
gtop_start (TwLiveSource *source,
            TwTrace      *trace,
            GError      **error)
{
  GtopSource *self = (GtopSource *) source;

  if (glibtop_init () == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "libgtop failed to initialise");
      return FALSE;
    }
  self->n_cpus = MIN ((guint) glibtop_global_server->ncpu + 1, GLIBTOP_NCPU);
  self->cpu_prev = g_new0 (CpuTicks, self->n_cpus);
  self->cpu_tasks = g_new0 (guint32, self->n_cpus);
  self->cpu_type = tw_gtop_add_type (trace, TW_COUNTER_CPU_LOAD, error);
  if (self->cpu_type == TW_TYPE_NONE)
    return FALSE;
  self->memory_type = tw_gtop_add_type (trace, TW_COUNTER_MEMORY, error);
  if (self->memory_type == TW_TYPE_NONE)
    return FALSE;
  self->process_type = tw_trace_add_event_type (trace, "gtop_process", "gtop", TW_EVENT_KIND_OTHER,
                                                process_fields, G_N_ELEMENTS (process_fields), error);
  if (self->process_type == TW_TYPE_NONE)
    return FALSE;
  for (guint i = 0; i < self->n_cpus; i++)
    {
      g_autofree char *id = g_strdup_printf ("gtop:cpu/%u", i);
      g_autofree char *name = g_strdup_printf ("CPU %u", i);

      self->cpu_tasks[i] = tw_trace_add_task (trace, id, name, -1, -1);
    }
  self->memory_task = tw_trace_add_task (trace, "gtop:memory", "memory", -1, -1);
  return TRUE;
}

static void
sample_cpus (GtopSource  *self,
             TwTrace     *trace,
             TwLiveQueue *queue,
             guint64      now)
{
  const TwEventType *type = tw_trace_get_event_type (trace, self->cpu_type);
  glibtop_cpu cpu;
  guint8 payload[64];

  glibtop_get_cpu (&cpu);
  for (guint i = 0; i < self->n_cpus; i++)
    {
      CpuTicks t = { cpu.xcpu_total[i], cpu.xcpu_idle[i], cpu.xcpu_user[i] + cpu.xcpu_nice[i],
                     cpu.xcpu_sys[i] + cpu.xcpu_irq[i] + cpu.xcpu_softirq[i], cpu.xcpu_iowait[i] };
      CpuTicks p = self->cpu_prev[i];

      self->cpu_prev[i] = t;
      if (!self->have_baseline || t.total <= p.total)
        continue;
      {
        guint64 total = t.total - p.total;
        guint64 idle = (t.idle - p.idle) + (t.iowait - p.iowait);

        memset (payload, 0, type->payload_size);
        put_f64 (type, payload, 0, share (total > idle ? total - idle : 0, total));
        put_f64 (type, payload, 1, share (t.user - p.user, total));
        put_f64 (type, payload, 2, share (t.sys - p.sys, total));
        put_f64 (type, payload, 3, share (t.iowait - p.iowait, total));
        tw_live_queue_push (queue, now, (guint16) i, self->cpu_type, self->cpu_tasks[i], 0,
                            payload, type->payload_size);
        self->parent.counts.received++;
      }
    }
}

static void
sample_memory (GtopSource  *self,
               TwTrace     *trace,
               TwLiveQueue *queue,
               guint64      now)
{
  const TwEventType *type = tw_trace_get_event_type (trace, self->memory_type);
  glibtop_mem mem;
  guint8 payload[64];

  glibtop_get_mem (&mem);
  memset (payload, 0, type->payload_size);
  put_u64 (type, payload, 0, mem.total);
  put_u64 (type, payload, 1, mem.user);
  put_u64 (type, payload, 2, mem.free);
  put_u64 (type, payload, 3, mem.cached);
  put_u64 (type, payload, 4, mem.buffer);
  put_f64 (type, payload, 5, share (mem.user, mem.total));
  tw_live_queue_push (queue, now, TW_CPU_NONE, self->memory_type, self->memory_task, 0,
                      payload, type->payload_size);
  self->parent.counts.received++;
}

static void
sample_processes (GtopSource  *self,
                  TwTrace     *trace,
                  TwLiveQueue *queue,
                  guint64      now,
                  guint64      elapsed_ns)
{
  const TwEventType *type = tw_trace_get_event_type (trace, self->process_type);
  g_autoptr (GHashTable) current = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  glibtop_proclist list;
  pid_t *pids = glibtop_get_proclist (&list, GLIBTOP_KERN_PROC_ALL, 0);
  guint8 payload[32];

  for (guint64 i = 0; pids && i < list.number; i++)
    {
      glibtop_proc_time t;
      glibtop_proc_state st;
      guint64 ns, *prev, *box;
      char id[32];
      guint32 task;

      glibtop_get_proc_time (&t, pids[i]);
      glibtop_get_proc_state (&st, pids[i]);
      if (t.frequency == 0)
        continue;
      ns = (guint64) ((double) (t.utime + t.stime) * 1e9 / (double) t.frequency);
      box = g_new (guint64, 1);
      *box = ns;
      g_hash_table_insert (current, GINT_TO_POINTER (pids[i]), box);
      prev = g_hash_table_lookup (self->proc_prev, GINT_TO_POINTER (pids[i]));
      if (!self->have_baseline || prev == NULL)
        continue;

      g_snprintf (id, sizeof id, "%d", (int) pids[i]);
      task = tw_trace_lookup_task (trace, id);
      if (task == TW_TASK_NONE)
        task = tw_trace_add_task (trace, id, st.cmd[0] ? st.cmd : NULL, pids[i], pids[i]);
      memset (payload, 0, type->payload_size);
      put_u64 (type, payload, 0, ns);
      put_f64 (type, payload, 1, elapsed_ns && ns >= *prev ? 100.0 * (double) (ns - *prev) / (double) elapsed_ns : 0.0);
      tw_live_queue_push (queue, now, TW_CPU_NONE, self->process_type, task, 0, payload, type->payload_size);
      self->parent.counts.received++;
    }
  g_free (pids);
  g_hash_table_unref (self->proc_prev);
  self->proc_prev = g_steal_pointer (&current);
}

static gboolean
gtop_poll (TwLiveSource *source,
           TwTrace      *trace,
           TwLiveQueue  *queue,
           GError      **error)
{
  GtopSource *self = (GtopSource *) source;
  guint64 now = tw_live_monotonic_ns ();
  guint64 elapsed = now - self->last_sample_ns;

  if (self->have_baseline && elapsed < self->interval_ns)
    return TRUE;
  sample_cpus (self, trace, queue, now);
  sample_memory (self, trace, queue, now);
  sample_processes (self, trace, queue, now, elapsed);
  self->have_baseline = TRUE;
  self->last_sample_ns = now;
  return TRUE;
}

static void
gtop_free (TwLiveSource *source)
{
  GtopSource *self = (GtopSource *) source;

  g_free (self->cpu_prev);
  g_free (self->cpu_tasks);
  g_clear_pointer (&self->proc_prev, g_hash_table_unref);
  g_free (self);
}

static const TwLiveSourceClass gtop_source_class = {
  .kind = "gtop",
  .start = gtop_start,
  .poll = gtop_poll,
  .stop = NULL,           /* nothing to release: libgtop reads /proc */
  .free = gtop_free,
};
#endif /* HAVE_LIBGTOP */

/**
 * tw_live_gtop_is_supported:
 *
 * Returns: %FALSE with an error when the build has no libgtop
 */
gboolean
tw_live_gtop_is_supported (GError **error)
{
#if HAVE_LIBGTOP
  return TRUE;
#else
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "built without libgtop: the CPU-load and memory sampler is not available "
               "(install libgtop2-dev and reconfigure with -Dgtop=enabled)");
  return FALSE;
#endif
}

/**
 * tw_live_gtop_new:
 * @interval_ns: sampling period; 0 = 500 ms
 *
 * Returns: (transfer full) (nullable): the sampler, or %NULL without libgtop
 */
TwLiveSource *
tw_live_gtop_new (guint64   interval_ns,
                  GError  **error)
{
#if HAVE_LIBGTOP
  GtopSource *self = g_new0 (GtopSource, 1);

  tw_live_source_init (&self->parent, &gtop_source_class, "gtop");
  self->interval_ns = interval_ns ? interval_ns : 500 * G_GUINT64_CONSTANT (1000000);
  self->proc_prev = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  return &self->parent;
#else
  tw_live_gtop_is_supported (error);
  return NULL;
#endif
}
