/* tw-timeline-layout-private.h: what the layout's files share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-timeline-layout.h"

G_BEGIN_DECLS

typedef struct {
  guint32  leader;    /* task index of the process's main thread, or TW_TASK_NONE */
  const char *host;   /* its machine's name (interned), NULL in a trace of one machine */
  gint64   pid;
  GArray  *tasks;     /* guint32 */
  gboolean collapsed;
} Process;

/* A machine's header row: counts as shown below it. */
typedef struct {
  const char *name;   /* interned in the trace */
  guint       n_cpus;
  guint       n_tasks;
  gboolean    collapsed;
} HostGroup;

struct _TwTimelineLayout
{
  GObject          parent_instance;

  TwStateModel    *model;
  TwTrace         *trace;
  TwCounterTracks *counters;       /* libgtop CPU load and memory series */

  GArray          *rows;           /* TwTimelineRow */
  GPtrArray       *processes;      /* Process */
  GArray          *ranks;          /* guint32 per task: its place, or G_MAXUINT32 */
  GHashTable      *collapsed_pids; /* ProcessKey of the collapsed processes */
  GHashTable      *task_filter;    /* task index set, NULL = all */
  GArray          *host_groups;    /* HostGroup by name; empty: no header rows */
  GHashTable      *collapsed_hosts; /* names of the collapsed hosts (owned) */
  TwTaskSort       sort;
  int              height;
  guint            cpus_collapsed : 1;
  guint            counters_collapsed : 1;
  guint            tasks_collapsed : 1;
};

/* whether @task gets a row: not idle, not filtered out, with states or marks */
gboolean _tw_timeline_layout_task_has_rows (TwTimelineLayout *self,
                                            guint32           task);

G_END_DECLS
