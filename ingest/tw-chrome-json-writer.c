/* tw-chrome-json-writer.c: any trace as Chrome trace event JSON (Perfetto's UI opens it)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-chrome-json-writer.h"

#include <string.h>

/*
 * Layout (docs/chrome-json-export.md):
 *   - process CPU_PID "CPUs", one thread per CPU (tid = CPU): a complete slice ("X") per
 *     run of a non-idle task, named after the task, and one per interrupt / softirq
 *     handler ("irq N" / "softirq N"), nested inside by time;
 *   - one process per process id of the tasks (pid, or the tid when the pid is unknown),
 *     one thread per task (tid): a slice per RUNNING interval of the state model;
 *   - an instant ("i", thread scope) per event of kind USER or OTHER, on its task's
 *     thread (on its CPU's thread when it has no task), its fields in args.text;
 *   - metadata ("M") naming every process and thread used.
 * `ts`/`dur` are µs from the trace's first event, written from integer ns with three
 * decimals so no precision is lost; otherData.time_origin_ns keeps the origin.
 */

#define FLUSH_BYTES (64 * 1024)
#define CHECK_EVERY 4096
#define CPU_PID     G_GINT64_CONSTANT (1000000000)
#define TID_BASE    G_GINT64_CONSTANT (2000000000)  /* tasks without a known tid */

typedef struct {
  GOutputStream *stream;
  GCancellable  *cancellable;
  GString       *buf;
  guint64        origin;
  gboolean       first;
  guint          since_check;
} Writer;

static gboolean
flush (Writer  *w,
       GError **error)
{
  gsize written;

  if (w->buf->len == 0)
    return TRUE;
  if (!g_output_stream_write_all (w->stream, w->buf->str, w->buf->len, &written,
                                  w->cancellable, error))
    return FALSE;
  g_string_truncate (w->buf, 0);
  return TRUE;
}

static void
append_json_string (GString    *out,
                    const char *s)
{
  g_string_append_c (out, '"');
  for (; s && *s; s++)
    {
      guchar c = *s;

      if (c == '"' || c == '\\')
        {
          g_string_append_c (out, '\\');
          g_string_append_c (out, c);
        }
      else if (c < 0x20)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
    }
  g_string_append_c (out, '"');
}

/* µs with ns precision, exact: "12.345" */
static void
append_us (GString *out,
           guint64  ns)
{
  g_string_append_printf (out, "%" G_GUINT64_FORMAT ".%03u", ns / 1000, (guint) (ns % 1000));
}

static gboolean
begin_event (Writer  *w,
             GError **error)
{
  if (!w->first)
    g_string_append (w->buf, ",\n");
  w->first = FALSE;
  if (++w->since_check == CHECK_EVERY)
    {
      w->since_check = 0;
      if (g_cancellable_set_error_if_cancelled (w->cancellable, error))
        return FALSE;
    }
  if (w->buf->len >= FLUSH_BYTES)
    return flush (w, error);
  return TRUE;
}

static gboolean
write_name_meta (Writer      *w,
                 const char  *what,
                 gint64       pid,
                 gint64       tid,
                 const char  *name,
                 GError     **error)
{
  if (!begin_event (w, error))
    return FALSE;
  g_string_append_printf (w->buf, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%" G_GINT64_FORMAT
                          ",\"tid\":%" G_GINT64_FORMAT ",\"args\":{\"name\":", what, pid, tid);
  append_json_string (w->buf, name);
  g_string_append (w->buf, "}}");
  return TRUE;
}

static gboolean
write_slice (Writer      *w,
             gint64       pid,
             gint64       tid,
             const char  *name,
             const char  *cat,
             guint64      start,
             guint64      end,
             GError     **error)
{
  if (!begin_event (w, error))
    return FALSE;
  g_string_append (w->buf, "{\"ph\":\"X\",\"name\":");
  append_json_string (w->buf, name);
  g_string_append_printf (w->buf, ",\"cat\":\"%s\",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%"
                          G_GINT64_FORMAT ",\"ts\":", cat, pid, tid);
  append_us (w->buf, start - w->origin);
  g_string_append (w->buf, ",\"dur\":");
  append_us (w->buf, end > start ? end - start : 0);
  g_string_append_c (w->buf, '}');
  return TRUE;
}

static gint64
task_tid (const TwTask *t,
          guint32       task)
{
  return t->tid >= 0 ? t->tid : TID_BASE + task;
}

static gint64
task_pid (const TwTask *t,
          guint32       task)
{
  return t->pid > 0 ? t->pid : task_tid (t, task);
}

static char *
task_label (TwTrace *trace,
            guint32  task)
{
  return task == TW_TASK_NONE ? g_strdup ("(none)") : tw_trace_dup_task_label (trace, task);
}

/**
 * tw_chrome_json_writer_write:
 * @trace: a sealed trace
 * @stream: where the JSON goes
 *
 * Writes @trace as Chrome trace event JSON, streaming.
 *
 * Returns: %FALSE with @error set when writing fails or @cancellable is cancelled
 */
gboolean
tw_chrome_json_writer_write (TwTrace        *trace,
                             GOutputStream  *stream,
                             GCancellable   *cancellable,
                             GError        **error)
{
  g_autoptr(TwStateModel) model = NULL;
  g_autoptr(GHashTable) pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  Writer w = { .stream = stream, .cancellable = cancellable, .first = TRUE };
  guint32 n_tasks = tw_trace_get_n_tasks (trace);
  guint64 n_events = tw_trace_get_n_events (trace);
  guint n_cpus;
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  model = tw_state_model_new (trace);
  if (!tw_state_model_update (model, cancellable, error))
    return FALSE;
  n_cpus = tw_state_model_get_n_cpus (model);
  w.origin = n_events > 0 ? tw_trace_get_first_time (trace) : 0;
  w.buf = g_string_sized_new (FLUSH_BYTES + 4096);

  g_string_append_printf (w.buf, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time_origin_ns\":\"%"
                          G_GUINT64_FORMAT "\",\"generator\":\"tracewb\"},\"traceEvents\":[\n",
                          w.origin);

  /* CPUs */
  if (n_cpus > 0 && !write_name_meta (&w, "process_name", CPU_PID, 0, "CPUs", error))
    goto out;
  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      const TwRunInterval *runs;
      const TwIrqInterval *irqs;
      gsize n_runs, n_irqs;
      char name[32];

      g_snprintf (name, sizeof name, "CPU %u", cpu);
      if (!write_name_meta (&w, "thread_name", CPU_PID, cpu, name, error))
        goto out;
      runs = tw_state_model_get_cpu_runs (model, cpu, &n_runs);
      for (gsize i = 0; i < n_runs; i++)
        {
          g_autofree char *label = NULL;

          if (runs[i].task == TW_TASK_NONE
              || tw_trace_get_task (trace, runs[i].task)->flags & TW_TASK_FLAG_IDLE)
            continue;
          label = task_label (trace, runs[i].task);
          if (!write_slice (&w, CPU_PID, cpu, label, "running", runs[i].start, runs[i].end, error))
            goto out;
        }
      irqs = tw_state_model_get_cpu_irqs (model, cpu, &n_irqs);
      for (gsize i = 0; i < n_irqs; i++)
        {
          g_snprintf (name, sizeof name, "%s %u", irqs[i].kind == TW_IRQ_SOFT ? "softirq" : "irq",
                      irqs[i].number);
          if (!write_slice (&w, CPU_PID, cpu, name, irqs[i].kind == TW_IRQ_SOFT ? "softirq" : "irq",
                            irqs[i].start, irqs[i].end, error))
            goto out;
        }
    }

  /* tasks */
  for (guint32 task = 0; task < n_tasks; task++)
    {
      const TwTask *t = tw_trace_get_task (trace, task);
      const TwTaskInterval *states;
      g_autofree char *label = NULL;
      gsize n_states;
      gint64 pid;

      if (t->flags & TW_TASK_FLAG_IDLE)
        continue;
      pid = task_pid (t, task);
      label = task_label (trace, task);
      if (!g_hash_table_contains (pids, &pid))
        {
          g_autofree char *pname = NULL;
          guint32 leader = TW_TASK_NONE;
          char source_id[32];

          g_snprintf (source_id, sizeof source_id, "%" G_GINT64_FORMAT, pid);
          leader = tw_trace_lookup_task (trace, source_id);
          pname = leader != TW_TASK_NONE ? task_label (trace, leader) : g_strdup (label);
          g_hash_table_add (pids, g_memdup2 (&pid, sizeof pid));
          if (!write_name_meta (&w, "process_name", pid, 0, pname, error))
            goto out;
        }
      if (!write_name_meta (&w, "thread_name", pid, task_tid (t, task), label, error))
        goto out;
      states = tw_state_model_get_task_states (model, task, &n_states);
      for (gsize i = 0; i < n_states; i++)
        if (states[i].state == TW_TASK_STATE_RUNNING
            && !write_slice (&w, pid, task_tid (t, task), label, "running",
                             states[i].start, states[i].end, error))
          goto out;
    }

  /* instants */
  for (guint64 i = 0; i < n_events; i++)
    {
      TwEvent ev;
      const TwEventType *type;
      g_autofree char *args = NULL;
      gint64 pid, tid;

      tw_trace_get_event (trace, i, &ev);
      type = tw_trace_get_event_type (trace, ev.type);
      if (type->kind != TW_EVENT_KIND_OTHER && type->kind != TW_EVENT_KIND_USER)
        continue;
      if (ev.task != TW_TASK_NONE && !(tw_trace_get_task (trace, ev.task)->flags & TW_TASK_FLAG_IDLE))
        {
          const TwTask *t = tw_trace_get_task (trace, ev.task);

          pid = task_pid (t, ev.task);
          tid = task_tid (t, ev.task);
        }
      else if (ev.cpu != TW_CPU_NONE && ev.cpu < n_cpus)
        {
          pid = CPU_PID;
          tid = ev.cpu;
        }
      else
        continue;
      if (!begin_event (&w, error))
        goto out;
      g_string_append (w.buf, "{\"ph\":\"i\",\"s\":\"t\",\"name\":");
      append_json_string (w.buf, type->name);
      g_string_append_printf (w.buf, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT
                              ",\"ts\":", pid, tid);
      append_us (w.buf, ev.time - w.origin);
      args = tw_trace_format_args (trace, &ev);
      if (args && *args)
        {
          g_string_append (w.buf, ",\"args\":{\"text\":");
          append_json_string (w.buf, args);
          g_string_append_c (w.buf, '}');
        }
      g_string_append_c (w.buf, '}');
    }

  g_string_append (w.buf, "\n]}\n");
  ok = flush (&w, error);

out:
  g_string_free (w.buf, TRUE);
  return ok;
}
