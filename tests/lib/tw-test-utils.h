/* tw-test-utils.h: what every test program shares
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

char    *tw_test_dup_fixture_path     (const char *name);
char    *tw_test_dup_shared_trace_path (const char *relative);
const char *tw_test_get_private_dir  (void);
char    *tw_test_write_temp_file      (const char *basename,
                                       const void *contents,
                                       gssize      length);
guint16  tw_test_add_switch_type      (TwTrace    *trace);
guint16  tw_test_add_simple_type      (TwTrace    *trace,
                                       const char *name,
                                       TwEventKind kind);
void     tw_test_append_switch        (TwTrace    *trace,
                                       guint16     type,
                                       guint64     time_ns,
                                       guint16     cpu,
                                       guint32     prev,
                                       guint32     next,
                                       const char *prev_state);
char       *tw_test_dup_event_field    (TwTrace    *trace,
                                        guint64     index,
                                        const char *name);
const char *tw_test_get_task_source_id (TwTrace    *trace,
                                        guint32     task);
guint32     tw_test_find_task_by_pid   (TwTrace    *trace,
                                        gint64      pid);
TwStateModel *tw_test_new_state_model  (TwTrace    *trace);
guint32  tw_test_ensure_tasks         (TwTrace    *trace,
                                       guint32     n_tasks);
TwTrace *tw_test_trace_from_script    (const char *script);
guint16  tw_test_add_gtop_type        (TwTrace    *trace,
                                       gboolean    memory);
void     tw_test_append_gtop_sample   (TwTrace    *trace,
                                       guint16     type,
                                       guint64     time_ns,
                                       guint16     cpu,
                                       guint32     task,
                                       double      value,
                                       guint64     total);
char    *tw_test_use_temp_sensor_dir  (void);
void     tw_test_remove_sensor_dir    (char       *dir);
void     tw_test_remove_tree          (const char *path);
char    *tw_test_run_tool             (const char *const *argv,
                                       int               *status);
char    *tw_test_run_babeltrace2      (const char *const *argv,
                                       guint64           *n_lines);

typedef gboolean (*TwTestCondition) (gpointer data);

gboolean tw_test_wait_until          (TwTestCondition condition,
                                      gpointer        data,
                                      guint           timeout_ms);

/* One type per canonical scheduling kind, for traces built in tests. */
typedef struct {
  guint16 sw;
  guint16 wake;
  guint16 irq_in;
  guint16 irq_out;
  guint16 soft_in;
  guint16 soft_out;
} TwTestKindTypes;

void     tw_test_add_kind_types       (TwTrace         *trace,
                                       TwTestKindTypes *types);
/* A busy multi-CPU kernel, simulated into a trace in pieces: see tw-test-utils.c. */
typedef struct _TwTestSchedule TwTestSchedule;

TwTestSchedule *tw_test_schedule_new    (TwTrace        *trace,
                                         guint           n_cpus,
                                         guint           n_tasks,
                                         guint32         seed);
void            tw_test_schedule_append (TwTestSchedule *schedule,
                                         guint64         n_events);
void            tw_test_schedule_free   (TwTestSchedule *schedule);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwTestSchedule, tw_test_schedule_free)

gboolean tw_test_run_cli              (const char *const *args,
                                       char           **out,
                                       char           **err,
                                       int             *status);
void     tw_test_run_cli_or_fail      (const char *const *args,
                                       char           **out,
                                       char           **err,
                                       int             *status);

G_END_DECLS
