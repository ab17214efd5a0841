/* tw-kernel-common-private.h: what the kernel-trace readers and samplers share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/* FNV-1a of a span: the readers' string caches key on it, inlined in their hot paths. */
static inline guint32
_tw_hash_span (const char *s,
               gsize       len)
{
  guint32 h = 2166136261u;

  for (gsize i = 0; i < len; i++)
    h = (h ^ (guchar) s[i]) * 16777619u;
  return h;
}

/* Span → string id of the trace, a reader-local cache in front of
 * tw_trace_intern_string() (which copies, hashes and takes the trace's lock). */
typedef struct {
  TwTrace *trace;
  struct _TwStringSlot *slots;
  guint    mask;
  guint    n;
  GString *scratch;
} TwStringCache;

void     _tw_string_cache_init  (TwStringCache *self,
                                 TwTrace       *trace);
void     _tw_string_cache_clear (TwStringCache *self);
guint32  _tw_string_cache_get   (TwStringCache *self,
                                 const char    *s,
                                 gsize          len);
guint32  _tw_string_cache_get_prev_state (TwStringCache *self,
                                          const char    *s,
                                          gsize          len);

/* Kernel tasks as the ftrace text reader keys them: one task per pid (source id
 * "<pid>", tid = pid), and pid 0 as one idle task per CPU (source id "0/<cpu>", named
 * "swapper/<cpu>", flagged idle). The latest name given renames a task; idle tasks and
 * unknown comms (`<...>`) never rename. */
typedef struct {
  TwTrace    *trace;
  guint32    *pid_tasks;   /* pid → task, TW_TASK_NONE when not yet seen */
  guint       n_pid_tasks;
  GHashTable *big_pids;    /* pids beyond the direct table: gint64* → task + 1 */
  guint32    *idle_tasks;  /* cpu → idle task */
  guint       n_idle_tasks;
  guint32    *names;       /* task → string id + 1 of its current name */
  guint       n_names;
} TwKernelTasks;

void     _tw_kernel_tasks_init   (TwKernelTasks *self,
                                  TwTrace       *trace);
void     _tw_kernel_tasks_clear  (TwKernelTasks *self);
guint32  _tw_kernel_tasks_get    (TwKernelTasks *self,
                                  gint64         pid,
                                  guint          cpu);
void     _tw_kernel_tasks_rename (TwKernelTasks *self,
                                  guint32        task,
                                  guint32        name_id);

gboolean _tw_kernel_comm_is_known (const char *comm,
                                   gsize       len);

/* A numeric sched_switch prev_state as the kernel's format prints it (≥ 4.14): bits
 * S D T t X Z P I joined by '|', "R" when none is set, "+" when a bit above them says
 * the task was preempted. Returns the length written to @buf (NUL-terminated). */
gsize    _tw_kernel_format_prev_state (guint64 value,
                                       char   *buf,
                                       gsize   buf_len);

/* The reverse of _tw_kernel_format_prev_state(): letters ("S", "R+", "D|K") as the
 * kernel's numeric prev_state, which LTTng's sched_switch carries. Unknown letters
 * count as nothing. */
guint64  _tw_kernel_parse_prev_state  (const char *letters);

/* The task state a prev_state in the kernel's letters stands for: "R", "R+" (still
 * runnable: preempted) READY; "X", "Z" (exiting) DEAD; "S", "D", "T", "I"... BLOCKED. The
 * readers give it the trace with the letters (tw_trace_intern_task_state()). */
TwTaskState _tw_kernel_task_state (const char *letters);

/* Names of the softirq vectors as the kernel's softirq_entry format prints them. */
const char *_tw_kernel_softirq_name (guint64 vec);

/* schemas of sched_switch, sched_wakeup(_new), irq_handler_entry/exit, softirq_* */
extern const TwFieldSpec _tw_kernel_switch_fields[7];
extern const TwFieldSpec _tw_kernel_wakeup_fields[4];
extern const TwFieldSpec _tw_kernel_irq_entry_fields[2];
extern const TwFieldSpec _tw_kernel_irq_exit_fields[2];
extern const TwFieldSpec _tw_kernel_softirq_fields[2];

G_END_DECLS
