/* tw-ctf-plan-private.h: what each event type of a store becomes in a CTF trace we write
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

#define TW_CTF_ENV_EVENT_TYPES "tracewb_event_types"
#define TW_CTF_ENV_HOSTS       "tracewb_hosts"

/* Metadata of the store that a trace we write keeps in its environment under @env, and
 * our reader gives back: what its sensors declared and their monitor's counts
 * (tw-sensor-layout-private.h), which a recording would otherwise lose. */
typedef struct {
  const char *metadata;
  const char *env;
} TwCtfKeptMetadata;

#define TW_CTF_N_KEPT_METADATA 2
extern const TwCtfKeptMetadata _tw_ctf_kept_metadata[TW_CTF_N_KEPT_METADATA];

typedef enum {
  TW_CTF_FROM_FIELD,
  TW_CTF_FROM_TASK_NAME,
  TW_CTF_FROM_TASK_TID,
  TW_CTF_FROM_ARG_TASK_NAME,
  TW_CTF_FROM_ARG_TASK_TID,
  TW_CTF_FROM_ARG_TASK_PID,
  TW_CTF_FROM_ARG,
  TW_CTF_FROM_PREV_STATE,
  TW_CTF_FROM_CPU,
  TW_CTF_FROM_ZERO,
} TwCtfMemberSource;

typedef enum {
  TW_CTF_OUT_UNSIGNED,
  TW_CTF_OUT_SIGNED,
  TW_CTF_OUT_REAL,
  TW_CTF_OUT_STRING,
} TwCtfMemberOut;

/* One member of an event's payload: its name, where its value comes from, how it is
 * written. */
typedef struct {
  const char        *name;
  TwCtfMemberSource  source;
  TwCtfMemberOut     out;
  guint8             bits;
  gboolean           hex;
  gboolean           task_ref;   /* a field holding a task index: written as the task's id */
  gboolean           absent_max; /* an absent value is written as the maximum (a loss's `since`) */
  int                field;      /* FROM_FIELD, FROM_PREV_STATE: the type's field, or −1 */
} TwCtfMember;

typedef struct {
  const TwEventType *type;
  GArray            *members;     /* TwCtfMember; NULL: the type is not written */
  const char        *arg_member;  /* the member the store's arg comes back from, or NULL */
  gboolean           arg_extra;   /* … which is not one of the type's fields */
} TwCtfTypePlan;

/* A member's value for one event: @s for strings, @u for unsigned, @i for signed,
 * @f for reals. */
typedef struct {
  guint64     u;
  gint64      i;
  double      f;
  const char *s;
} TwCtfValue;

void        _tw_ctf_plan_type          (TwCtfTypePlan     *plan,
                                        const TwEventType *type);
TwCtfTypePlan *_tw_ctf_plan_range      (TwTrace           *trace,
                                        guint64            first,
                                        guint64            end,
                                        guint              n_types,
                                        GString           *types_entry);
void        _tw_ctf_plans_free         (TwCtfTypePlan     *plans,
                                        guint              n_types);
void        _tw_ctf_append_type_entry  (GString             *out,
                                        const TwCtfTypePlan *plan);
char       *_tw_ctf_dup_hosts_entry    (TwTrace           *trace);
char       *_tw_ctf_dup_kept_metadata  (TwTrace           *trace,
                                        const TwCtfKeptMetadata *kept);
const char *_tw_ctf_task_name          (const TwTask      *task);
gboolean    _tw_ctf_kind_has_arg_task  (TwEventKind        kind);
void        _tw_ctf_member_value       (TwTrace           *trace,
                                        const TwCtfMember *m,
                                        const TwEventType *type,
                                        const guint8      *payload,
                                        const TwTask      *task,
                                        const TwTask      *arg_task,
                                        guint32            arg,
                                        guint16            cpu,
                                        TwCtfValue        *out);

G_END_DECLS
