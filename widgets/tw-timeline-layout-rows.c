/* tw-timeline-layout-rows.c: what the timeline's rows show and where a task or CPU is
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-timeline-layout-private.h"

/*
 * Questions about the rows tw-timeline-layout.c built: a row's label, which row shows a
 * task or a CPU (its own, or the header that hides it), which header a row is under.
 */

/**
 * tw_timeline_layout_dup_row_label:
 *
 * Returns: (transfer full): the text of the row's header
 */
char *
tw_timeline_layout_dup_row_label (TwTimelineLayout    *self,
                                  const TwTimelineRow *row)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), NULL);

  switch (row->kind)
    {
    case TW_TIMELINE_ROW_HOST:
      {
        const HostGroup *g = &g_array_index (self->host_groups, HostGroup, row->id);
        g_autofree char *tasks = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u task", "%u tasks",
                                                               g->n_tasks), g->n_tasks);
        g_autofree char *cpus = NULL;

        /* a target traced in user space only has tasks, no CPU rows: "0 CPUs" would
         * read as a machine without processors */
        if (g->n_cpus == 0)
          /* TRANSLATORS: a machine's header row in a trace of several, when its trace
           * has no CPUs (user space only): its name, then "14 tasks" */
          return g_strdup_printf (_("%s (%s)"), g->name, tasks);
        cpus = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u CPU", "%u CPUs", g->n_cpus), g->n_cpus);
        /* TRANSLATORS: a machine's header row in a trace of several: its name, then
         * "2 CPUs" and "14 tasks" */
        return g_strdup_printf (_("%s (%s, %s)"), g->name, cpus, tasks);
      }
    case TW_TIMELINE_ROW_SECTION:
      return g_strdup (row->id == 0 ? _("CPUs") : row->id == 2 ? _("Load and memory") : _("Tasks"));
    case TW_TIMELINE_ROW_COUNTER:
      return tw_counter_tracks_dup_label (self->counters, row->id);
    case TW_TIMELINE_ROW_CPU:
      {
        guint16 host_cpu;
        const char *host = tw_trace_get_cpu_host (self->trace, row->id, &host_cpu);

        /* TRANSLATORS: a CPU of one of several machines: its host, its number there */
        return host ? g_strdup_printf (_("%s: CPU %u"), host, host_cpu)
                    : g_strdup_printf (_("CPU %u"), row->id);
      }
    case TW_TIMELINE_ROW_PROCESS:
      {
        Process *p = g_ptr_array_index (self->processes, row->id);
        const TwTask *leader = tw_trace_get_task (self->trace, p->leader);
        const char *name = leader && leader->name ? leader->name : _("process");
        g_autofree char *pid = g_strdup_printf ("%" G_GINT64_FORMAT, p->pid);

        g_autofree char *label = NULL;

        /* the pid apart: translators' tools cannot expand G_GINT64_FORMAT */
        label = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%s, %u thread)",
                                              "%s (%s, %u threads)", p->tasks->len),
                                 name, pid, p->tasks->len);
        /* a process of one of several machines: its host first, as its tasks have it */
        return p->host ? g_strdup_printf ("%s: %s", p->host, label) : g_steal_pointer (&label);
      }
    case TW_TIMELINE_ROW_TASK:
    default:
      return tw_trace_dup_task_label (self->trace, row->id);
    }
}


/**
 * tw_timeline_layout_find_task_row:
 *
 * Returns: the row that shows @task: its own, or the header of its collapsed process,
 *   host or section; -1 when it has no row (idle, filtered out, no states)
 */
int
tw_timeline_layout_find_task_row (TwTimelineLayout *self,
                                  guint32           task)
{
  const TwTask *t;
  const char *host;
  int fallback = -1;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), -1);

  t = tw_trace_get_task (self->trace, task);
  host = t && self->host_groups->len > 0 ? t->host : NULL;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const TwTimelineRow *r = &g_array_index (self->rows, TwTimelineRow, i);

      if (r->kind == TW_TIMELINE_ROW_TASK && r->id == task)
        return i;
      if (r->kind == TW_TIMELINE_ROW_HOST && host != NULL
          && g_array_index (self->host_groups, HostGroup, r->id).name == host
          && g_array_index (self->host_groups, HostGroup, r->id).collapsed)
        fallback = i;
      else if (r->kind == TW_TIMELINE_ROW_SECTION && r->id == 1 && self->tasks_collapsed
               && host == NULL)
        fallback = i;
      else if (r->kind == TW_TIMELINE_ROW_PROCESS)
        {
          Process *p = g_ptr_array_index (self->processes, r->id);

          if (p->collapsed)
            for (guint j = 0; j < p->tasks->len; j++)
              if (g_array_index (p->tasks, guint32, j) == task)
                return i;
        }
    }
  return fallback >= 0 && _tw_timeline_layout_task_has_rows (self, task) ? fallback : -1;
}

/**
 * tw_timeline_layout_find_cpu_row:
 *
 * Returns: the row of @cpu, or the header of its collapsed host or CPU section; -1 when
 *   there is none
 */
int
tw_timeline_layout_find_cpu_row (TwTimelineLayout *self,
                                 guint             cpu)
{
  const char *host;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), -1);

  host = self->host_groups->len > 0 ? tw_trace_get_cpu_host (self->trace, cpu, NULL) : NULL;
  for (guint i = 0; i < self->rows->len; i++)
    {
      const TwTimelineRow *r = &g_array_index (self->rows, TwTimelineRow, i);

      if (r->kind == TW_TIMELINE_ROW_CPU && r->id == cpu)
        return i;
      if (r->kind == TW_TIMELINE_ROW_HOST && host != NULL
          && g_array_index (self->host_groups, HostGroup, r->id).name == host
          && g_array_index (self->host_groups, HostGroup, r->id).collapsed)
        return i;
      if (r->kind == TW_TIMELINE_ROW_SECTION && r->id == 0 && self->cpus_collapsed && host == NULL)
        return i;
    }
  return -1;
}

/**
 * tw_timeline_layout_is_collapsed:
 *
 * Returns: whether @row is a section, host or process header whose rows are hidden
 */
gboolean
tw_timeline_layout_is_collapsed (TwTimelineLayout *self,
                                 guint             row)
{
  const TwTimelineRow *r;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), FALSE);
  g_return_val_if_fail (row < self->rows->len, FALSE);

  r = &g_array_index (self->rows, TwTimelineRow, row);
  if (r->kind == TW_TIMELINE_ROW_SECTION)
    return r->id == 0 ? self->cpus_collapsed
           : r->id == 2 ? self->counters_collapsed : self->tasks_collapsed;
  if (r->kind == TW_TIMELINE_ROW_PROCESS)
    return ((Process *) g_ptr_array_index (self->processes, r->id))->collapsed;
  if (r->kind == TW_TIMELINE_ROW_HOST)
    return g_array_index (self->host_groups, HostGroup, r->id).collapsed;
  return FALSE;
}

/**
 * tw_timeline_layout_is_header:
 *
 * Returns: whether @row is a header that collapses (a section, a host, a process), not a
 *   row of data
 */
gboolean
tw_timeline_layout_is_header (TwTimelineLayout *self,
                              guint             row)
{
  TwTimelineRowKind kind;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), FALSE);
  g_return_val_if_fail (row < self->rows->len, FALSE);

  kind = g_array_index (self->rows, TwTimelineRow, row).kind;
  return kind == TW_TIMELINE_ROW_SECTION || kind == TW_TIMELINE_ROW_HOST
         || kind == TW_TIMELINE_ROW_PROCESS;
}

/**
 * tw_timeline_layout_find_header:
 *
 * Returns: @row itself when it is a header, else the header it is under (its process,
 *   host or section: the nearest header above with a smaller indent); -1 for none
 */
int
tw_timeline_layout_find_header (TwTimelineLayout *self,
                                guint             row)
{
  int indent;

  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), -1);
  g_return_val_if_fail (row < self->rows->len, -1);

  if (tw_timeline_layout_is_header (self, row))
    return row;
  indent = g_array_index (self->rows, TwTimelineRow, row).indent;
  for (int i = (int) row - 1; i >= 0; i--)
    if (tw_timeline_layout_is_header (self, i)
        && g_array_index (self->rows, TwTimelineRow, i).indent < indent)
      return i;
  return -1;
}

/**
 * tw_timeline_layout_get_n_host_groups:
 *
 * Returns: how many machines have a header row: 0 in a trace of one machine
 */
guint
tw_timeline_layout_get_n_host_groups (TwTimelineLayout *self)
{
  g_return_val_if_fail (TW_IS_TIMELINE_LAYOUT (self), 0);

  return self->host_groups->len;
}
