/* tw-live-kernel.c: the Linux kernel trace buffer as a live source of the monitor
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A private tracefs instance ("tracewb-<pid>-<n>", its own ring buffers) so that the
 * global buffer and whatever else traces the machine are left alone; `trace_clock` is
 * set to `mono`, the sensors' CLOCK_MONOTONIC, so both merge on one time axis. Events:
 * sched_switch, sched_wakeup, sched_wakeup_new, irq_handler_entry/exit,
 * softirq_entry/exit. Each poll consumes what the per-CPU buffers hold
 * (tracefs_iterate_raw_events reads every CPU's trace_pipe_raw until it is empty) and
 * queues the records sorted by time; `missed` is what the ring buffers report lost
 * (overrun, commit overrun, dropped events of every CPU). Stopping destroys the instance;
 * instances of monitors that were killed are removed at the next start.
 *
 * The rows have the shape the ftrace text reader gives the same events
 * (tw-ftrace-text-reader.c): same raw type names and field schemas, canonical kinds,
 * tasks keyed by pid (source id "<pid>", named by the latest comm), one idle task per
 * CPU ("0/<cpu>", "swapper/<cpu>", flagged idle). String fields (prev_state letters,
 * irq name, softirq action, ret) are taken from the kernel's own print format
 * (tep_print_event), so they read exactly as in a text trace.
 */
#include "config.h"

#include "tw-live-kernel.h"
#include "tw-kernel-common-private.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if HAVE_LIBTRACEFS
#include <tracefs/tracefs.h>
#endif

#if HAVE_LIBTRACEFS

typedef enum {
  K_SWITCH,
  K_WAKEUP,
  K_WAKEUP_NEW,
  K_IRQ_ENTRY,
  K_IRQ_EXIT,
  K_SOFTIRQ_ENTRY,
  K_SOFTIRQ_EXIT,
  N_KERNEL_EVENTS
} KernelEvent;

static const struct {
  const char        *system;
  const char        *name;
  TwEventKind        kind;
  const TwFieldSpec *fields;
  guint              n_fields;
} kernel_events[N_KERNEL_EVENTS] = {
  { "sched", "sched_switch", TW_EVENT_KIND_SWITCH, _tw_kernel_switch_fields, G_N_ELEMENTS (_tw_kernel_switch_fields) },
  { "sched", "sched_wakeup", TW_EVENT_KIND_WAKEUP, _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "sched", "sched_wakeup_new", TW_EVENT_KIND_WAKEUP, _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "irq", "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY, _tw_kernel_irq_entry_fields, G_N_ELEMENTS (_tw_kernel_irq_entry_fields) },
  { "irq", "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT, _tw_kernel_irq_exit_fields, G_N_ELEMENTS (_tw_kernel_irq_exit_fields) },
  { "irq", "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY, _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
  { "irq", "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT, _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
};

typedef struct {
  TwLiveSource             parent;
  struct tracefs_instance *instance;
  struct tep_handle       *tep;
  int                      event_ids[N_KERNEL_EVENTS];
  guint16                  types[N_KERNEL_EVENTS];
  TwKernelTasks            tasks;         /* set up by start, on the monitor's trace */
  gboolean                 tasks_ready;
  struct trace_seq         seq;
  gboolean                 seq_ready;
  guint8                   payload[128];
  /* per poll: records as read, then sorted by time before they are queued */
  TwTrace                 *trace;
  GArray                  *pending;       /* Pending */
  GByteArray              *pending_blob;
} KernelSource;

typedef struct {
  guint64 time;
  guint32 seq;           /* arrival order: keeps the sort stable */
  guint32 task;
  guint32 arg;
  guint32 payload_offset;
  guint16 payload_size;
  guint16 type;
  guint16 cpu;
} Pending;

static int
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const Pending *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The task of pid (thread id) on @cpu; @comm renames it when known. */
static guint32
pid_task (KernelSource *self,
          gint64        pid,
          guint         cpu,
          const char   *comm)
{
  guint32 task = _tw_kernel_tasks_get (&self->tasks, pid, cpu);

  if (comm != NULL && comm[0] != '\0')
    _tw_kernel_tasks_rename (&self->tasks, task, tw_trace_intern_string (self->trace, comm));
  return task;
}

static gint64
field_int (struct tep_event  *event,
           struct tep_record *record,
           const char        *name)
{
  unsigned long long value = 0;

  if (tep_get_field_val (NULL, event, name, record, &value, 0) < 0)
    return -1;
  return (gint64) value;
}

/* A fixed char[N] field (comm), NUL-bounded. */
static void
field_comm (struct tep_event  *event,
            struct tep_record *record,
            const char        *name,
            char              *out,
            gsize              out_size)
{
  int len = 0;
  const char *raw = tep_get_field_raw (NULL, event, name, record, &len, 0);

  out[0] = '\0';
  if (raw && len > 0)
    {
      gsize n = strnlen (raw, MIN ((gsize) len, out_size - 1));
      memcpy (out, raw, n);
      out[n] = '\0';
    }
}

/* "key=value" from the kernel's formatted text; value ends at a space or ']'. */
static gboolean
info_value (const char *info,
            const char *key,
            char       *out,
            gsize       out_size)
{
  gsize key_len = strlen (key);
  const char *p = info;

  while ((p = strstr (p, key)))
    {
      if ((p == info || p[-1] == ' ' || p[-1] == '[') && p[key_len] == '=')
        {
          const char *v = p + key_len + 1;
          gsize n = strcspn (v, " ]");

          n = MIN (n, out_size - 1);
          memcpy (out, v, n);
          out[n] = '\0';
          return TRUE;
        }
      p += key_len;
    }
  return FALSE;
}

static const char *
event_info (KernelSource      *self,
            struct tep_record *record)
{
  trace_seq_reset (&self->seq);
  tep_print_event (self->tep, &self->seq, record, "%s", TEP_PRINT_INFO);
  trace_seq_terminate (&self->seq);
  return self->seq.buffer;
}

static void
set_int (const TwEventType *type, guint field, gint64 v, guint8 *payload)
{
  TwValue value = { .type = TW_FIELD_I64, .i = v };

  tw_event_type_set_field (type, payload, field, &value);
}

static void
set_string_id (const TwEventType *type, guint field, guint32 id, guint8 *payload)
{
  TwValue value = { .type = TW_FIELD_STRING, .str = id };

  tw_event_type_set_field (type, payload, field, &value);
}

static void
set_string (KernelSource *self, const TwEventType *type, guint field, const char *text, guint8 *payload)
{
  set_string_id (type, field, tw_trace_intern_string (self->trace, text), payload);
}

static int
on_record (struct tep_event  *event,
           struct tep_record *record,
           int                cpu,
           void              *data)
{
  KernelSource *self = data;
  KernelEvent k;
  const TwEventType *type;
  guint8 *payload = self->payload;
  guint32 task = TW_TASK_NONE, arg = 0;
  char comm[32], comm2[32], text[64];

  for (k = 0; k < N_KERNEL_EVENTS; k++)
    if (self->event_ids[k] == event->id)
      break;
  if (k == N_KERNEL_EVENTS)
    return 0;

  type = tw_trace_get_event_type (self->trace, self->types[k]);
  memset (payload, 0, type->payload_size);
  self->parent.counts.received++;

  switch (k)
    {
    case K_SWITCH:
      {
        gint64 prev = field_int (event, record, "prev_pid"), next = field_int (event, record, "next_pid");
        const char *info = event_info (self, record);

        field_comm (event, record, "prev_comm", comm, sizeof comm);
        field_comm (event, record, "next_comm", comm2, sizeof comm2);
        task = pid_task (self, prev, cpu, comm);
        arg = pid_task (self, next, cpu, comm2);
        set_string (self, type, 0, comm, payload);
        set_int (type, 1, prev, payload);
        set_int (type, 2, field_int (event, record, "prev_prio"), payload);
        if (info_value (info, "prev_state", text, sizeof text))
          set_string_id (type, 3, tw_trace_intern_task_state (self->trace, text,
                                                              _tw_kernel_task_state (text)),
                         payload);
        set_string (self, type, 4, comm2, payload);
        set_int (type, 5, next, payload);
        set_int (type, 6, field_int (event, record, "next_prio"), payload);
        break;
      }
    case K_WAKEUP:
    case K_WAKEUP_NEW:
      {
        gint64 pid = field_int (event, record, "pid");

        field_comm (event, record, "comm", comm, sizeof comm);
        task = pid_task (self, tep_data_pid (self->tep, record), cpu, NULL);
        arg = pid_task (self, pid, cpu, comm);
        set_string (self, type, 0, comm, payload);
        set_int (type, 1, pid, payload);
        set_int (type, 2, field_int (event, record, "prio"), payload);
        set_int (type, 3, field_int (event, record, "target_cpu"), payload);
        break;
      }
    case K_IRQ_ENTRY:
    case K_IRQ_EXIT:
      {
        gint64 irq = field_int (event, record, "irq");
        const char *info = event_info (self, record);

        task = pid_task (self, tep_data_pid (self->tep, record), cpu, NULL);
        arg = (guint32) irq;
        set_int (type, 0, irq, payload);
        if (info_value (info, k == K_IRQ_ENTRY ? "name" : "ret", text, sizeof text))
          set_string (self, type, 1, text, payload);
        break;
      }
    case K_SOFTIRQ_ENTRY:
    case K_SOFTIRQ_EXIT:
    default:
      {
        gint64 vec = field_int (event, record, "vec");
        const char *info = event_info (self, record);

        task = pid_task (self, tep_data_pid (self->tep, record), cpu, NULL);
        arg = (guint32) vec;
        set_int (type, 0, vec, payload);
        if (info_value (info, "action", text, sizeof text))
          set_string (self, type, 1, text, payload);
        break;
      }
    }

  {
    Pending row = { record->ts, self->pending->len, task, arg, self->pending_blob->len,
                    type->payload_size, self->types[k], (guint16) cpu };

    g_array_append_val (self->pending, row);
    g_byte_array_append (self->pending_blob, payload, type->payload_size);
  }
  return 0;
}

/* Events the kernel lost: the ring buffers' own counts, summed over CPUs. */
static guint64
kernel_lost (KernelSource *self)
{
  guint64 lost = 0;
  long n_cpus = sysconf (_SC_NPROCESSORS_CONF);

  for (long cpu = 0; cpu < n_cpus; cpu++)
    {
      g_autofree char *name = g_strdup_printf ("per_cpu/cpu%ld/stats", cpu);
      char *text = tracefs_instance_file_read (self->instance, name, NULL);
      static const char *const keys[] = { "\noverrun: ", "\ncommit overrun: ", "\ndropped events: " };

      if (text == NULL)
        continue;
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          const char *p = strstr (text, keys[k]);

          if (p)
            lost += g_ascii_strtoull (p + strlen (keys[k]), NULL, 10);
        }
      free (text);
    }
  return lost;
}

static void
kernel_stop (TwLiveSource *source)
{
  KernelSource *self = (KernelSource *) source;

  if (self->instance)
    {
      tracefs_trace_off (self->instance);
      tracefs_instance_destroy (self->instance);
      tracefs_instance_free (self->instance);
      self->instance = NULL;
    }
  g_clear_pointer (&self->tep, tep_free);
}

static void
kernel_free (TwLiveSource *source)
{
  KernelSource *self = (KernelSource *) source;

  kernel_stop (source);
  if (self->seq_ready)
    trace_seq_destroy (&self->seq);
  if (self->tasks_ready)
    _tw_kernel_tasks_clear (&self->tasks);
  g_clear_pointer (&self->pending, g_array_unref);
  g_clear_pointer (&self->pending_blob, g_byte_array_unref);
  g_free (self);
}

/* Instances left by monitors that were killed (no chance to destroy theirs): removing
 * the directory is how tracefs destroys an instance. Only ours, only of dead pids. */
static void
remove_stale_instances (void)
{
  g_autofree char *dir = g_build_filename (tracefs_tracing_dir (), "instances", NULL);
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      int pid = 0, n = 0, end = 0;

      if (sscanf (name, "tracewb-%d-%d%n", &pid, &n, &end) == 2 && name[end] == '\0' && pid > 0
          && kill (pid, 0) < 0 && errno == ESRCH)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          rmdir (path);
        }
    }
}

static gboolean
kernel_start (TwLiveSource *source,
              TwTrace      *trace,
              GError      **error)
{
  KernelSource *self = (KernelSource *) source;
  static const char *systems[] = { "sched", "irq", NULL };
  static gint counter;
  g_autofree char *name = g_strdup_printf ("tracewb-%d-%d", (int) getpid (), g_atomic_int_add (&counter, 1));

  if (!tw_live_kernel_is_supported (error))
    return FALSE;
  if (!self->tasks_ready)
    {
      _tw_kernel_tasks_init (&self->tasks, trace);
      self->tasks_ready = TRUE;
    }
  remove_stale_instances ();
  self->instance = tracefs_instance_create (name);
  if (self->instance == NULL)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "cannot create the tracefs instance “%s”: %s", name, g_strerror (saved));
      return FALSE;
    }
  if (tracefs_instance_file_write (self->instance, "trace_clock", "mono") < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   "tracefs instance “%s”: cannot set trace_clock to mono", name);
      return FALSE;
    }
  /* 4 MiB per CPU: ~100 k events per CPU between two polls at 100 ms. */
  tracefs_instance_set_buffer_size (self->instance, 4096, -1);
  self->tep = tracefs_local_events_system (NULL, systems);
  if (self->tep == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "cannot read the event formats of sched and irq from tracefs");
      return FALSE;
    }
  for (guint k = 0; k < N_KERNEL_EVENTS; k++)
    {
      struct tep_event *event = tep_find_event_by_name (self->tep, kernel_events[k].system, kernel_events[k].name);

      self->event_ids[k] = event ? event->id : -1;
      self->types[k] = tw_trace_add_event_type (trace, kernel_events[k].name, NULL, kernel_events[k].kind,
                                                kernel_events[k].fields, kernel_events[k].n_fields, error);
      if (self->types[k] == TW_TYPE_NONE)
        return FALSE;
      if (event && tracefs_event_enable (self->instance, kernel_events[k].system, kernel_events[k].name) < 0)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "tracefs instance “%s”: cannot enable %s:%s",
                       name, kernel_events[k].system, kernel_events[k].name);
          return FALSE;
        }
    }
  if (self->event_ids[K_SWITCH] < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "this kernel has no sched:sched_switch event");
      return FALSE;
    }
  trace_seq_init (&self->seq);
  self->seq_ready = TRUE;
  tw_trace_set_metadata (trace, "kernel_instance", name);
  if (tracefs_trace_on (self->instance) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "tracefs instance “%s”: cannot turn tracing on", name);
      return FALSE;
    }
  return TRUE;
}

static gboolean
kernel_poll (TwLiveSource *source,
             TwTrace      *trace,
             TwLiveQueue  *queue,
             GError      **error)
{
  KernelSource *self = (KernelSource *) source;

  self->trace = trace;
  g_array_set_size (self->pending, 0);
  g_byte_array_set_size (self->pending_blob, 0);
  if (tracefs_iterate_raw_events (self->tep, self->instance, NULL, 0, on_record, self) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "reading the kernel trace buffer failed");
      return FALSE;
    }
  self->trace = NULL;

  self->parent.counts.missed = kernel_lost (self);

  /* The per-CPU buffers are read page by page: a poll's records are not in one time
   * order across CPUs. Sort them (stably) so the source's queue is. */
  g_array_sort (self->pending, compare_pending);
  for (guint i = 0; i < self->pending->len; i++)
    {
      const Pending *row = &g_array_index (self->pending, Pending, i);

      tw_live_queue_push (queue, row->time, row->cpu, row->type, row->task, row->arg,
                          self->pending_blob->data + row->payload_offset, row->payload_size);
    }
  return TRUE;
}

static const TwLiveSourceClass kernel_source_class = {
  .kind = "kernel",
  .start = kernel_start,
  .poll = kernel_poll,
  .stop = kernel_stop,
  .free = kernel_free,
};

#endif /* HAVE_LIBTRACEFS */

/**
 * tw_live_kernel_is_supported:
 *
 * Returns: %FALSE, with an error saying what is missing (libtracefs at build time, root,
 *   a mounted tracefs), when the kernel source cannot run here
 */
gboolean
tw_live_kernel_is_supported (GError **error)
{
#if HAVE_LIBTRACEFS
  const char *dir = tracefs_tracing_dir ();

  if (dir == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
      return FALSE;
    }
  if (geteuid () != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                   "reading the kernel trace buffer needs root (tracefs at %s)", dir);
      return FALSE;
    }
  return TRUE;
#else
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "built without libtracefs: the live kernel trace buffer is not available "
               "(install libtracefs-dev and reconfigure with -Dtracefs=enabled)");
  return FALSE;
#endif
}

/**
 * tw_live_kernel_new:
 *
 * Returns: (transfer full) (nullable): the kernel source (started by
 *   tw_monitor_add_source), or %NULL when unsupported here
 */
TwLiveSource *
tw_live_kernel_new (GError **error)
{
#if HAVE_LIBTRACEFS
  KernelSource *self;

  if (!tw_live_kernel_is_supported (error))
    return NULL;
  self = g_new0 (KernelSource, 1);
  tw_live_source_init (&self->parent, &kernel_source_class, "kernel");
  self->pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  self->pending_blob = g_byte_array_new ();
  return &self->parent;
#else
  tw_live_kernel_is_supported (error);
  return NULL;
#endif
}
