/* tw-kernel-common.c: what the kernel-trace readers and samplers share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-kernel-common-private.h"

#include <string.h>

#define DIRECT_PIDS (1u << 22)  /* the kernel's largest pid_max */

struct _TwStringSlot {
  guint32 hash;
  guint32 len;
  guint32 id_plus_one;
  guint32 names_state;  /* the trace knows the task state the string names */
};

/* The cache holds the strings a trace repeats (task names, states, enum-like values) at
 * most a few MiB big, where a probe stays in the CPU's caches. Text unique to each event
 * (an LTTng tracef message, a log line) would otherwise grow it without end and make every
 * probe a miss to memory — a sixth of an LTTng live reader's time at 10^6 messages.
 * Beyond this many slots a full cache is emptied and refills with what repeats;
 * tw_trace_intern_string() still gives a string seen before its old id. */
#define STRING_CACHE_MAX_SLOTS (1u << 17)

void
_tw_string_cache_init (TwStringCache *self,
                       TwTrace       *trace)
{
  self->trace = trace;
  self->mask = 1023;
  self->n = 0;
  self->slots = g_new0 (struct _TwStringSlot, self->mask + 1);
  self->scratch = g_string_sized_new (64);
}

void
_tw_string_cache_clear (TwStringCache *self)
{
  g_clear_pointer (&self->slots, g_free);
  if (self->scratch)
    g_string_free (g_steal_pointer (&self->scratch), TRUE);
}

static struct _TwStringSlot *
slots_insert (struct _TwStringSlot *slots,
              guint                 mask,
              struct _TwStringSlot  slot)
{
  guint i = slot.hash & mask;

  while (slots[i].id_plus_one != 0)
    i = (i + 1) & mask;
  slots[i] = slot;
  return &slots[i];
}

static struct _TwStringSlot *
cache_insert (TwStringCache *self,
              const char    *s,
              gsize          len,
              guint32        hash)
{
  struct _TwStringSlot slot = { 0 };

  g_string_truncate (self->scratch, 0);
  g_string_append_len (self->scratch, s, len);
  slot.hash = hash;
  /* a span with a NUL inside is stored cut there and never matches by length again */
  slot.len = strlen (self->scratch->str);
  slot.id_plus_one = tw_trace_intern_string (self->trace, self->scratch->str) + 1;

  if (++self->n * 2 > self->mask + 1 && self->mask + 1 >= STRING_CACHE_MAX_SLOTS)
    {
      /* full: start again rather than grow (see STRING_CACHE_MAX_SLOTS) */
      memset (self->slots, 0, (self->mask + 1) * sizeof *self->slots);
      self->n = 1;
    }
  else if (self->n * 2 > self->mask + 1)
    {
      guint mask = self->mask * 2 + 1;
      struct _TwStringSlot *slots = g_new0 (struct _TwStringSlot, mask + 1);

      for (guint j = 0; j <= self->mask; j++)
        if (self->slots[j].id_plus_one != 0)
          slots_insert (slots, mask, self->slots[j]);
      g_free (self->slots);
      self->slots = slots;
      self->mask = mask;
    }
  return slots_insert (self->slots, self->mask, slot);
}

/* The slot of @s, found or added: inlined in both callers, as the hit path is the
 * readers' hottest string lookup. */
G_ALWAYS_INLINE static inline struct _TwStringSlot *
cache_slot (TwStringCache *self,
            const char    *s,
            gsize          len)
{
  guint32 hash = _tw_hash_span (s, len);

  for (guint i = hash & self->mask; self->slots[i].id_plus_one != 0; i = (i + 1) & self->mask)
    {
      struct _TwStringSlot *found = &self->slots[i];

      if (found->hash == hash && found->len == len
          && memcmp (tw_trace_get_string (self->trace, found->id_plus_one - 1), s, len) == 0)
        return found;
    }
  return cache_insert (self, s, len, hash);
}

guint32
_tw_string_cache_get (TwStringCache *self,
                      const char    *s,
                      gsize          len)
{
  return cache_slot (self, s, len)->id_plus_one - 1;
}

/* The id of @s, the prev_state of a switch as the kernel spells it, which the trace then
 * knows the task state of (tw_trace_intern_task_state()). */
guint32
_tw_string_cache_get_prev_state (TwStringCache *self,
                                 const char    *s,
                                 gsize          len)
{
  struct _TwStringSlot *slot = cache_slot (self, s, len);

  if G_UNLIKELY (!slot->names_state)
    {
      const char *letters = tw_trace_get_string (self->trace, slot->id_plus_one - 1);

      tw_trace_intern_task_state (self->trace, letters, _tw_kernel_task_state (letters));
      slot->names_state = TRUE;
    }
  return slot->id_plus_one - 1;
}

void
_tw_kernel_tasks_init (TwKernelTasks *self,
                       TwTrace       *trace)
{
  memset (self, 0, sizeof *self);
  self->trace = trace;
  self->big_pids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}

void
_tw_kernel_tasks_clear (TwKernelTasks *self)
{
  g_clear_pointer (&self->pid_tasks, g_free);
  g_clear_pointer (&self->idle_tasks, g_free);
  g_clear_pointer (&self->names, g_free);
  g_clear_pointer (&self->big_pids, g_hash_table_unref);
}

static guint32 *
grow (guint32 *array,
      guint   *n,
      guint    needed,
      guint    limit,
      guint32  fill)
{
  guint new_n = MAX (needed, MIN (MAX (*n, 256) * 2, limit));

  new_n = MAX (new_n, needed);
  array = g_renew (guint32, array, new_n);
  for (guint i = *n; i < new_n; i++)
    array[i] = fill;
  *n = new_n;
  return array;
}

static guint32
idle_task (TwKernelTasks *self,
           guint          cpu)
{
  char source_id[32];
  char name[32];
  guint32 task;

  if (cpu < self->n_idle_tasks && self->idle_tasks[cpu] != TW_TASK_NONE)
    return self->idle_tasks[cpu];
  if (cpu >= self->n_idle_tasks)
    self->idle_tasks = grow (self->idle_tasks, &self->n_idle_tasks, cpu + 1, G_MAXUINT,
                             TW_TASK_NONE);

  g_snprintf (source_id, sizeof source_id, "0/%u", cpu);
  g_snprintf (name, sizeof name, "swapper/%u", cpu);
  task = tw_trace_add_task (self->trace, source_id, name, 0, 0);
  tw_trace_set_task_flags (self->trace, task, TW_TASK_FLAG_IDLE);
  self->idle_tasks[cpu] = task;
  return task;
}

/**
 * _tw_kernel_tasks_get:
 *
 * Returns: the task of @pid (created on first sight), the idle task of @cpu for pid 0,
 *   TW_TASK_NONE for a negative pid
 */
guint32
_tw_kernel_tasks_get (TwKernelTasks *self,
                      gint64         pid,
                      guint          cpu)
{
  char source_id[32];
  guint32 task;

  if (pid < 0)
    return TW_TASK_NONE;
  if (pid == 0)
    return idle_task (self, cpu);

  if (pid < DIRECT_PIDS)
    {
      if ((guint64) pid >= self->n_pid_tasks)
        self->pid_tasks = grow (self->pid_tasks, &self->n_pid_tasks, pid + 1, DIRECT_PIDS,
                                TW_TASK_NONE);
      if (self->pid_tasks[pid] != TW_TASK_NONE)
        return self->pid_tasks[pid];
    }
  else
    {
      gpointer found = g_hash_table_lookup (self->big_pids, &pid);

      if (found)
        return GPOINTER_TO_UINT (found) - 1;
    }

  g_snprintf (source_id, sizeof source_id, "%" G_GINT64_FORMAT, pid);
  task = tw_trace_add_task (self->trace, source_id, NULL, -1, pid);
  if (pid < DIRECT_PIDS)
    self->pid_tasks[pid] = task;
  else
    g_hash_table_insert (self->big_pids, g_memdup2 (&pid, sizeof pid), GUINT_TO_POINTER (task + 1));
  return task;
}

gboolean
_tw_kernel_comm_is_known (const char *comm,
                          gsize       len)
{
  /* `<...>`: the kernel had no comm saved for the pid; `<idle>`: the idle task */
  return len > 0 && !(comm[0] == '<' && comm[len - 1] == '>');
}

/* @name_id: a string id of the trace; renames @task when its name differs. */
void
_tw_kernel_tasks_rename (TwKernelTasks *self,
                         guint32        task,
                         guint32        name_id)
{
  const char *name;

  if (task == TW_TASK_NONE)
    return;
  if (task >= self->n_names)
    self->names = grow (self->names, &self->n_names, task + 1, G_MAXUINT, 0);
  if (self->names[task] == name_id + 1)
    return;
  if (tw_trace_get_task (self->trace, task)->flags & TW_TASK_FLAG_IDLE)
    return;
  name = tw_trace_get_string (self->trace, name_id);
  if (!_tw_kernel_comm_is_known (name, strlen (name)))
    return;
  self->names[task] = name_id + 1;
  tw_trace_set_task_name (self->trace, task, name);
}

gsize
_tw_kernel_format_prev_state (guint64 value,
                              char   *buf,
                              gsize   buf_len)
{
  static const char letters[] = "SDTtXZPI";
  gsize n = 0;

  g_return_val_if_fail (buf_len >= 24, 0);

  for (guint bit = 0; bit < 8; bit++)
    if (value & (1u << bit))
      {
        if (n > 0)
          buf[n++] = '|';
        buf[n++] = letters[bit];
      }
  if (n == 0)
    buf[n++] = 'R';
  if (value >> 8)
    buf[n++] = '+';
  buf[n] = '\0';
  return n;
}

guint64
_tw_kernel_parse_prev_state (const char *letters)
{
  static const char bits[] = "SDTtXZPI";
  guint64 value = 0;

  for (const char *p = letters; p && *p; p++)
    {
      const char *at = *p ? strchr (bits, *p) : NULL;

      if (*p == '+')
        value |= 1u << 8;
      else if (at)
        value |= 1u << (at - bits);
    }
  return value;
}

TwTaskState
_tw_kernel_task_state (const char *letters)
{
  if (letters[0] == '\0' || letters[0] == 'R')
    return TW_TASK_STATE_READY;
  if (letters[0] == 'X' || letters[0] == 'Z' || letters[0] == 'x')
    return TW_TASK_STATE_DEAD;
  return TW_TASK_STATE_BLOCKED;
}

const char *
_tw_kernel_softirq_name (guint64 vec)
{
  static const char *const names[] = {
    "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED", "HRTIMER", "RCU",
  };

  return vec < G_N_ELEMENTS (names) ? names[vec] : NULL;
}

/* The canonical kernel events' schemas, one copy for every kernel source: a trace.dat,
 * its trace-cmd report text and a live recording must give the same store. */
const TwFieldSpec _tw_kernel_switch_fields[] = {
  { "prev_comm",  TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  { "prev_pid",   TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "prev_prio",  TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  { "next_comm",  TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  { "next_pid",   TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "next_prio",  TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
};

const TwFieldSpec _tw_kernel_wakeup_fields[] = {
  { "comm",       TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  { "pid",        TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "prio",       TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "target_cpu", TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
};

const TwFieldSpec _tw_kernel_irq_entry_fields[] = {
  { "irq",  TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "name", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
};

const TwFieldSpec _tw_kernel_irq_exit_fields[] = {
  { "irq", TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "ret", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
};

const TwFieldSpec _tw_kernel_softirq_fields[] = {
  { "vec",    TW_FIELD_I64,    TW_FIELD_FLAG_OPTIONAL },
  { "action", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
};
