/* tw-timeline-layout.c: the timeline's rows, their order, grouping, filter and heights
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdlib.h>

#include "tw-timeline-layout-private.h"

/*
 * What rows the timeline has, top to bottom, and where: CPU rows, counter tracks, and
 * task rows grouped by process, sorted, filtered and collapsed as the user asked. The
 * painter draws these rows, the widget scrolls over their height and maps pointer
 * positions to them; all of them follow one "changed" signal.
 *
 * A task keeps its place once it has one: a live trace grows and CPU times change at
 * every update, and rows that reorder under the pointer cannot be read. Only choosing
 * a sort order again sorts every task afresh; new tasks go below the placed ones.
 *
 * A trace of several machines (LTTng live of several targets) names the host of each
 * task and CPU: CPU rows go host by host, in each host's CPU order, and tasks too
 * (before any other order, so that a task new on host A does not land among host B's),
 * with the host in their labels; processes are a host's pid, not a pid. With more than
 * one host, each host also gets a header row, as Trace Compass and Perfetto group
 * machines: its name and how many CPUs and tasks it shows, with its CPU rows and then
 * its task rows below it; collapsing it hides both. Rows of no host (the local libgtop
 * counters, a sensor's tasks) keep their sections after the hosts. A trace of one
 * machine has no header of the kind and looks as it always did.
 */

G_DEFINE_FINAL_TYPE (TwTimelineLayout, tw_timeline_layout, G_TYPE_OBJECT)

enum {
  CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

#define RANK_NONE G_MAXUINT32

static void
process_free (gpointer data)
{
  Process *p = data;

  g_array_unref (p->tasks);
  g_free (p);
}

static guint32
task_rank (TwTimelineLayout *self,
           guint32           task)
{
  return task < self->ranks->len ? g_array_index (self->ranks, guint32, task) : RANK_NONE;
}

gboolean
_tw_timeline_layout_task_has_rows (TwTimelineLayout *self,
                                   guint32           task)
{
  const TwTask *t = tw_trace_get_task (self->trace, task);
  gsize n_states, n_marks;

  if (t == NULL || (t->flags & TW_TASK_FLAG_IDLE))
    return FALSE;
  if (self->task_filter && !g_hash_table_contains (self->task_filter, GUINT_TO_POINTER (task)))
    return FALSE;
  tw_state_model_get_task_states (self->model, task, &n_states);
  tw_state_model_get_task_marks (self->model, task, &n_marks);
  return n_states > 0 || n_marks > 0;
}

static int
compare_tasks (TwTimelineLayout *self,
               guint32           a,
               guint32           b)
{
  const TwTask *ta = tw_trace_get_task (self->trace, a);
  const TwTask *tb = tw_trace_get_task (self->trace, b);
  guint32 ra = task_rank (self, a);
  guint32 rb = task_rank (self, b);
  int cmp = g_strcmp0 (ta->host, tb->host);

  if (cmp != 0)
    return cmp;
  if (ra != rb)
    return ra < rb ? -1 : 1;
  switch (self->sort)
    {
    case TW_TASK_SORT_CPU_TIME:
      {
        guint64 ca = tw_state_model_get_task_cpu_time (self->model, a);
        guint64 cb = tw_state_model_get_task_cpu_time (self->model, b);
        cmp = ca > cb ? -1 : ca < cb;
      }
      break;

    case TW_TASK_SORT_ID:
      cmp = ta->tid < tb->tid ? -1 : ta->tid > tb->tid;
      break;

    case TW_TASK_SORT_NAME:
    default:
      cmp = g_strcmp0 (ta->name ? ta->name : ta->source_id, tb->name ? tb->name : tb->source_id);
      break;
    }

  if (cmp == 0)
    cmp = g_strcmp0 (ta->source_id, tb->source_id);
  return cmp;
}

static int
compare_task_cb (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  return compare_tasks (user_data, *(const guint32 *) a, *(const guint32 *) b);
}

static int
compare_process_cb (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const Process *pa = *(Process * const *) a;
  const Process *pb = *(Process * const *) b;

  return compare_tasks (user_data, g_array_index (pa->tasks, guint32, 0),
                        g_array_index (pb->tasks, guint32, 0));
}

static void
add_row (TwTimelineLayout  *self,
         TwTimelineRowKind  kind,
         guint32            id,
         int                height,
         int                indent)
{
  TwTimelineRow row = { kind, id, self->height, height, indent };

  g_array_append_val (self->rows, row);
  self->height += height;
}

/* Processes are keyed by (host, pid): hosts are interned, so their pointers compare. */
typedef struct {
  const char *host;
  gint64      pid;
} ProcessKey;

static guint
process_key_hash (gconstpointer key)
{
  const ProcessKey *k = key;

  return g_int64_hash (&k->pid) ^ g_direct_hash (k->host);
}

static gboolean
process_key_equal (gconstpointer a,
                   gconstpointer b)
{
  const ProcessKey *ka = a, *kb = b;

  return ka->pid == kb->pid && ka->host == kb->host;
}

/* A process whose main thread has no row of its own (the user-sensor tasks of a live
 * session, whose program the libgtop sampler names by pid) still takes the main
 * thread's name for its header when the trace knows that task. */
static void
find_row_less_leaders (TwTimelineLayout *self,
                       GHashTable       *by_pid)
{
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);
  guint missing = 0;

  for (guint i = 0; i < self->processes->len; i++)
    missing += ((Process *) g_ptr_array_index (self->processes, i))->leader == TW_TASK_NONE;
  for (guint32 k = 0; k < n_tasks && missing > 0; k++)
    {
      const TwTask *t = tw_trace_get_task (self->trace, k);
      ProcessKey key = { t->host, t->pid };
      Process *p;

      if (t->pid < 0 || t->tid != t->pid || t->name == NULL
          || (p = g_hash_table_lookup (by_pid, &key)) == NULL || p->leader != TW_TASK_NONE)
        continue;
      p->leader = k;
      missing--;
    }
}

/* Threads of one process share a header row; a task whose process the source does not
 * know (pid < 0) stands alone, as does a process of one thread. */
static void
build_processes (TwTimelineLayout *self,
                 GArray           *tasks)
{
  g_autoptr(GHashTable) by_pid = g_hash_table_new_full (process_key_hash, process_key_equal, g_free, NULL);

  g_ptr_array_set_size (self->processes, 0);

  for (guint i = 0; i < tasks->len; i++)
    {
      guint32 task = g_array_index (tasks, guint32, i);
      const TwTask *t = tw_trace_get_task (self->trace, task);
      ProcessKey key = { t->host, t->pid };
      Process *p = t->pid >= 0 ? g_hash_table_lookup (by_pid, &key) : NULL;

      if (p == NULL)
        {
          p = g_new0 (Process, 1);
          p->pid = t->pid;
          p->host = t->host;
          p->leader = TW_TASK_NONE;
          p->tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
          p->collapsed = t->pid >= 0 && g_hash_table_contains (self->collapsed_pids, &key);
          g_ptr_array_add (self->processes, p);
          if (t->pid >= 0)
            g_hash_table_insert (by_pid, g_memdup2 (&key, sizeof key), p);
        }
      if (t->tid == t->pid)
        p->leader = task;
      g_array_append_val (p->tasks, task);
    }
  find_row_less_leaders (self, by_pid);

  for (guint i = 0; i < self->processes->len; i++)
    {
      Process *p = g_ptr_array_index (self->processes, i);
      g_array_sort_with_data (p->tasks, compare_task_cb, self);
    }
  g_ptr_array_sort_with_data (self->processes, compare_process_cb, self);
}

static gboolean
process_is_group (const Process *p)
{
  const guint32 *first = (const guint32 *) p->tasks->data;

  return p->pid >= 0 && (p->tasks->len > 1 || first[0] != p->leader);
}

static int
compare_counter_cb (gconstpointer a,
                    gconstpointer b,
                    gpointer      user_data)
{
  const TwCounterTrack *ta = tw_counter_tracks_get_track (user_data, *(const guint *) a);
  const TwCounterTrack *tb = tw_counter_tracks_get_track (user_data, *(const guint *) b);

  if (ta->kind != tb->kind)
    return ta->kind == TW_COUNTER_CPU_LOAD ? -1 : 1;
  if (ta->cpu != tb->cpu)
    return ta->cpu < tb->cpu ? -1 : 1;
  return ta->task < tb->task ? -1 : ta->task > tb->task;
}

/* The counter section: CPU load tracks in CPU order, then memory. */
static void
add_counter_rows (TwTimelineLayout *self)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n;

  tw_counter_tracks_update (self->counters);
  n = tw_counter_tracks_get_n_tracks (self->counters);
  if (n == 0)
    return;
  add_row (self, TW_TIMELINE_ROW_SECTION, 2, TW_TIMELINE_SECTION_HEIGHT, 0);
  if (self->counters_collapsed)
    return;
  for (guint i = 0; i < n; i++)
    g_array_append_val (order, i);
  g_array_sort_with_data (order, compare_counter_cb, self->counters);
  for (guint i = 0; i < n; i++)
    add_row (self, TW_TIMELINE_ROW_COUNTER, g_array_index (order, guint, i),
             TW_TIMELINE_COUNTER_HEIGHT, 1);
}

/* Every task of the rows gets its place: the next update keeps it. */
static void
remember_ranks (TwTimelineLayout *self)
{
  guint32 rank = 0;

  g_array_set_size (self->ranks, tw_trace_get_n_tasks (self->trace));
  memset (self->ranks->data, 0xff, self->ranks->len * sizeof (guint32));
  for (guint i = 0; i < self->processes->len; i++)
    {
      Process *p = g_ptr_array_index (self->processes, i);

      for (guint j = 0; j < p->tasks->len; j++)
        g_array_index (self->ranks, guint32, g_array_index (p->tasks, guint32, j)) = rank++;
    }
}

/* The tasks that have rows, grouped into processes (none: no process). */
static void
collect_task_rows (TwTimelineLayout *self)
{
  g_autoptr(GArray) tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 n_tasks = tw_trace_get_n_tasks (self->trace);

  for (guint32 k = 0; k < n_tasks; k++)
    if (_tw_timeline_layout_task_has_rows (self, k))
      g_array_append_val (tasks, k);
  g_ptr_array_set_size (self->processes, 0);
  if (tasks->len == 0)
    return;

  build_processes (self, tasks);
  if (self->task_filter == NULL)
    remember_ranks (self);
}

/* The rows of the processes of @host (NULL: of no host), one level below @indent. */
static void
add_process_rows (TwTimelineLayout *self,
                  const char       *host,
                  int               indent)
{
  for (guint i = 0; i < self->processes->len; i++)
    {
      Process *p = g_ptr_array_index (self->processes, i);
      gboolean group = process_is_group (p);

      /* without header rows (one machine, named or not), every process is the section's */
      if (self->host_groups->len > 0 && p->host != host)
        continue;
      if (group)
        {
          add_row (self, TW_TIMELINE_ROW_PROCESS, i, TW_TIMELINE_TASK_HEIGHT, indent + 1);
          if (p->collapsed)
            continue;
        }
      for (guint j = 0; j < p->tasks->len; j++)
        add_row (self, TW_TIMELINE_ROW_TASK, g_array_index (p->tasks, guint32, j),
                 TW_TIMELINE_TASK_HEIGHT, group ? indent + 2 : indent + 1);
    }
}

/* The tasks section: every task in a trace of one machine, the tasks of no host when
 * hosts have header rows. */
static void
add_task_section (TwTimelineLayout *self)
{
  gboolean any = FALSE;

  for (guint i = 0; i < self->processes->len && !any; i++)
    any = self->host_groups->len == 0
          || ((Process *) g_ptr_array_index (self->processes, i))->host == NULL;
  if (!any)
    return;
  add_row (self, TW_TIMELINE_ROW_SECTION, 1, TW_TIMELINE_SECTION_HEIGHT, 0);
  if (!self->tasks_collapsed)
    add_process_rows (self, NULL, 0);
}

typedef struct {
  const char *host;
  guint16     host_cpu;
  guint16     cpu;
} CpuPlace;

static int
compare_cpu_places (gconstpointer a,
                    gconstpointer b)
{
  const CpuPlace *pa = a, *pb = b;
  int cmp = g_strcmp0 (pa->host, pb->host);

  if (cmp != 0)
    return cmp;
  return pa->host_cpu < pb->host_cpu ? -1 : pa->host_cpu > pb->host_cpu;
}

/* The store's CPUs in row order: in CPU order; in a trace of several machines, host by
 * host. Returns them, @n_cpus of them. */
static CpuPlace *
place_cpus (TwTimelineLayout *self,
            guint             n_cpus)
{
  CpuPlace *places = g_new (CpuPlace, MAX (n_cpus, 1));

  for (guint c = 0; c < n_cpus; c++)
    {
      places[c].cpu = c;
      places[c].host = tw_trace_get_cpu_host (self->trace, c, &places[c].host_cpu);
    }
  if (tw_trace_get_n_hosts (self->trace) > 0)
    qsort (places, n_cpus, sizeof *places, compare_cpu_places);
  return places;
}

/* The rows of the CPUs of @host (NULL: of no host; every CPU without header rows). */
static void
add_cpu_rows (TwTimelineLayout *self,
              const CpuPlace   *places,
              guint             n_cpus,
              const char       *host,
              int               indent)
{
  for (guint c = 0; c < n_cpus; c++)
    if (self->host_groups->len == 0 || places[c].host == host)
      add_row (self, TW_TIMELINE_ROW_CPU, places[c].cpu, TW_TIMELINE_CPU_HEIGHT, indent + 1);
}

static HostGroup *
find_host_group (TwTimelineLayout *self,
                 const char       *host)
{
  for (guint i = 0; i < self->host_groups->len; i++)
    if (g_array_index (self->host_groups, HostGroup, i).name == host)
      return &g_array_index (self->host_groups, HostGroup, i);
  return NULL;
}

static int
compare_host_groups (gconstpointer a,
                     gconstpointer b)
{
  return g_strcmp0 (((const HostGroup *) a)->name, ((const HostGroup *) b)->name);
}

/* The machines that get header rows: every host of a CPU or of a task with rows, when
 * there are two or more; their counts are the rows each shows when expanded. */
static void
build_host_groups (TwTimelineLayout *self,
                   const CpuPlace   *places,
                   guint             n_cpus)
{
  g_array_set_size (self->host_groups, 0);
  if (tw_trace_get_n_hosts (self->trace) < 2)
    return;
  for (guint c = 0; c < n_cpus; c++)
    if (places[c].host)
      {
        HostGroup *g = find_host_group (self, places[c].host);

        if (g == NULL)
          {
            HostGroup fresh = { places[c].host, 0, 0, FALSE };

            g_array_append_val (self->host_groups, fresh);
            g = &g_array_index (self->host_groups, HostGroup, self->host_groups->len - 1);
          }
        g->n_cpus++;
      }
  for (guint i = 0; i < self->processes->len; i++)
    {
      Process *p = g_ptr_array_index (self->processes, i);
      HostGroup *g;

      if (p->host == NULL)
        continue;
      if ((g = find_host_group (self, p->host)) == NULL)
        {
          HostGroup fresh = { p->host, 0, 0, FALSE };

          g_array_append_val (self->host_groups, fresh);
          g = &g_array_index (self->host_groups, HostGroup, self->host_groups->len - 1);
        }
      g->n_tasks += p->tasks->len;
    }
  /* a trace whose second host has no row yet (a live session's first events) */
  if (self->host_groups->len < 2)
    {
      g_array_set_size (self->host_groups, 0);
      return;
    }
  g_array_sort (self->host_groups, compare_host_groups);
  for (guint i = 0; i < self->host_groups->len; i++)
    {
      HostGroup *g = &g_array_index (self->host_groups, HostGroup, i);

      g->collapsed = g_hash_table_contains (self->collapsed_hosts, g->name);
    }
}

/**
 * tw_timeline_layout_update:
 *
 * Rebuilds the rows from the trace (after loading, and as a live trace grows) and emits
 * #TwTimelineLayout::changed.
 */
void
tw_timeline_layout_update (TwTimelineLayout *self)
{
  g_autofree CpuPlace *places = NULL;
  gboolean any_plain_cpu = FALSE;
  guint n_cpus;

  g_return_if_fail (TW_IS_TIMELINE_LAYOUT (self));

  g_array_set_size (self->rows, 0);
  self->height = 0;

  n_cpus = tw_state_model_get_n_cpus (self->model);
  places = place_cpus (self, n_cpus);
  collect_task_rows (self);
  build_host_groups (self, places, n_cpus);

  for (guint h = 0; h < self->host_groups->len; h++)
    {
      const HostGroup *g = &g_array_index (self->host_groups, HostGroup, h);

      add_row (self, TW_TIMELINE_ROW_HOST, h, TW_TIMELINE_SECTION_HEIGHT, 0);
      if (g->collapsed)
        continue;
      add_cpu_rows (self, places, n_cpus, g->name, 0);
      add_process_rows (self, g->name, 0);
    }

  for (guint c = 0; c < n_cpus && !any_plain_cpu; c++)
    any_plain_cpu = self->host_groups->len == 0 || places[c].host == NULL;
  if (any_plain_cpu)
    {
      add_row (self, TW_TIMELINE_ROW_SECTION, 0, TW_TIMELINE_SECTION_HEIGHT, 0);
      if (!self->cpus_collapsed)
        add_cpu_rows (self, places, n_cpus, NULL, 0);
    }
  add_counter_rows (self);
  add_task_section (self);

  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * tw_timeline_layout_get_rows:
 * @n_rows: (out): the number of rows
 *
 * Returns: (transfer none) (array length=n_rows): the rows, top to bottom
 */
const TwTimelineRow *
tw_timeline_layout_get_rows (TwTimelineLayout *self,
                             guint            *n_rows)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), NULL);

  *n_rows = self->rows->len;
  return (const TwTimelineRow *) self->rows->data;
}

int
tw_timeline_layout_get_height (TwTimelineLayout *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), 0);

  return self->height;
}

/**
 * tw_timeline_layout_find_row_at:
 * @y_in_rows: px from the top of the rows area (scroll included)
 *
 * Returns: the row index, or -1
 */
int
tw_timeline_layout_find_row_at (TwTimelineLayout *self,
                                double            y_in_rows)
{
  guint lo = 0;
  guint hi;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), -1);

  hi = self->rows->len;
  if (y_in_rows < 0)
    return -1;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      const TwTimelineRow *row = &g_array_index (self->rows, TwTimelineRow, mid);

      if (y_in_rows < row->y)
        hi = mid;
      else if (y_in_rows >= row->y + row->height)
        lo = mid + 1;
      else
        return mid;
    }
  return -1;
}

/**
 * tw_timeline_layout_toggle_row:
 *
 * Collapses or expands a section, host or process header row; other rows are left alone.
 */
void
tw_timeline_layout_toggle_row (TwTimelineLayout *self,
                               guint             row)
{
  const TwTimelineRow *r;

  g_return_if_fail (TW_IS_TIMELINE_LAYOUT (self));
  g_return_if_fail (row < self->rows->len);

  r = &g_array_index (self->rows, TwTimelineRow, row);
  if (r->kind == TW_TIMELINE_ROW_SECTION && r->id == 0)
    self->cpus_collapsed = !self->cpus_collapsed;
  else if (r->kind == TW_TIMELINE_ROW_SECTION && r->id == 2)
    self->counters_collapsed = !self->counters_collapsed;
  else if (r->kind == TW_TIMELINE_ROW_SECTION)
    self->tasks_collapsed = !self->tasks_collapsed;
  else if (r->kind == TW_TIMELINE_ROW_PROCESS)
    {
      Process *p = g_ptr_array_index (self->processes, r->id);
      ProcessKey key = { p->host, p->pid };

      if (!g_hash_table_remove (self->collapsed_pids, &key))
        g_hash_table_add (self->collapsed_pids, g_memdup2 (&key, sizeof key));
    }
  else if (r->kind == TW_TIMELINE_ROW_HOST)
    {
      const char *name = g_array_index (self->host_groups, HostGroup, r->id).name;

      if (!g_hash_table_remove (self->collapsed_hosts, name))
        g_hash_table_add (self->collapsed_hosts, g_strdup (name));
    }
  else
    return;

  tw_timeline_layout_update (self);
}

void
tw_timeline_layout_set_task_sort (TwTimelineLayout *self,
                                  TwTaskSort        sort)
{
  g_return_if_fail (TW_IS_TIMELINE_LAYOUT (self));

  self->sort = sort;
  g_array_set_size (self->ranks, 0);
  tw_timeline_layout_update (self);
}

/**
 * tw_timeline_layout_has_task_filter:
 *
 * Returns: whether only some tasks have rows
 */
gboolean
tw_timeline_layout_has_task_filter (TwTimelineLayout *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), FALSE);

  return self->task_filter != NULL;
}

/**
 * tw_timeline_layout_set_task_filter:
 * @tasks: (array length=n_tasks) (nullable): the tasks to show, or %NULL for all
 */
void
tw_timeline_layout_set_task_filter (TwTimelineLayout *self,
                                    const guint32    *tasks,
                                    guint             n_tasks)
{
  g_return_if_fail (TW_IS_TIMELINE_LAYOUT (self));

  g_clear_pointer (&self->task_filter, g_hash_table_unref);
  if (tasks != NULL)
    {
      self->task_filter = g_hash_table_new (NULL, NULL);
      for (guint i = 0; i < n_tasks; i++)
        g_hash_table_add (self->task_filter, GUINT_TO_POINTER (tasks[i]));
    }
  tw_timeline_layout_update (self);
}

/**
 * tw_timeline_layout_dup_row_tasks:
 *
 * Returns: (transfer full) (element-type guint32): the tasks a task, process or host row
 *   stands for; empty for other rows
 */
GArray *
tw_timeline_layout_dup_row_tasks (TwTimelineLayout *self,
                                  guint             row)
{
  GArray *tasks = g_array_new (FALSE, FALSE, sizeof (guint32));
  const TwTimelineRow *r;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), tasks);
  g_return_val_if_fail (row < self->rows->len, tasks);

  r = &g_array_index (self->rows, TwTimelineRow, row);
  if (r->kind == TW_TIMELINE_ROW_TASK)
    g_array_append_val (tasks, r->id);
  else if (r->kind == TW_TIMELINE_ROW_PROCESS)
    {
      Process *p = g_ptr_array_index (self->processes, r->id);
      g_array_append_vals (tasks, p->tasks->data, p->tasks->len);
    }
  else if (r->kind == TW_TIMELINE_ROW_HOST)
    {
      const char *host = g_array_index (self->host_groups, HostGroup, r->id).name;

      for (guint i = 0; i < self->processes->len; i++)
        {
          Process *p = g_ptr_array_index (self->processes, i);

          if (p->host == host)
            g_array_append_vals (tasks, p->tasks->data, p->tasks->len);
        }
    }
  return tasks;
}

TwTaskSort
tw_timeline_layout_get_task_sort (TwTimelineLayout *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), TW_TASK_SORT_CPU_TIME);

  return self->sort;
}

/**
 * tw_timeline_layout_get_counter_tracks:
 *
 * Returns: (transfer none): the counter series (libgtop CPU load, memory); ids of
 *   %TW_TIMELINE_ROW_COUNTER rows index them
 */
TwCounterTracks *
tw_timeline_layout_get_counter_tracks (TwTimelineLayout *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), NULL);

  return self->counters;
}

/* ---------------------------------------------------------------- GObject */

static void
tw_timeline_layout_finalize (GObject *object)
{
  TwTimelineLayout *self = (TwTimelineLayout *)object;

  g_clear_object (&self->model);
  g_clear_object (&self->counters);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->processes, g_ptr_array_unref);
  g_clear_pointer (&self->ranks, g_array_unref);
  g_clear_pointer (&self->collapsed_pids, g_hash_table_unref);
  g_clear_pointer (&self->task_filter, g_hash_table_unref);
  g_clear_pointer (&self->host_groups, g_array_unref);
  g_clear_pointer (&self->collapsed_hosts, g_hash_table_unref);

  G_OBJECT_CLASS (tw_timeline_layout_parent_class)->finalize (object);
}

static void
tw_timeline_layout_class_init (TwTimelineLayoutClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_timeline_layout_finalize;

  /**
   * TwTimelineLayout::changed:
   *
   * The rows changed: their number, order, heights or what they show.
   */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_timeline_layout_init (TwTimelineLayout *self)
{
  self->rows = g_array_new (FALSE, FALSE, sizeof (TwTimelineRow));
  self->processes = g_ptr_array_new_with_free_func (process_free);
  self->ranks = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->collapsed_pids = g_hash_table_new_full (process_key_hash, process_key_equal, g_free, NULL);
  self->host_groups = g_array_new (FALSE, FALSE, sizeof (HostGroup));
  self->collapsed_hosts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->sort = TW_TASK_SORT_CPU_TIME;
}

/**
 * tw_timeline_layout_new:
 *
 * Returns: (transfer full): the rows of @model's trace, laid out
 */
TwTimelineLayout *
tw_timeline_layout_new (TwStateModel *model)
{
  TwTimelineLayout *self;

  g_return_val_if_fail (TW_IS_STATE_MODEL (model), NULL);

  self = g_object_new (TW_TYPE_TIMELINE_LAYOUT, NULL);
  self->model = g_object_ref (model);
  self->trace = tw_state_model_get_trace (model);
  self->counters = tw_counter_tracks_new (self->trace);
  tw_timeline_layout_update (self);
  return self;
}
