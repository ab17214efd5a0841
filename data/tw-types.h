/* tw-types.h: shared enums, sentinels and plain structs of the event model
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sentinels for "not there". Task and CPU indexes are table indexes, not source ids. */
#define TW_TASK_NONE    G_MAXUINT32
#define TW_CPU_NONE     G_MAXUINT16
#define TW_TYPE_NONE    G_MAXUINT16
#define TW_PAYLOAD_NONE G_MAXUINT32
#define TW_EVENT_NONE   G_MAXUINT64
#define TW_TIME_NONE    G_MAXUINT64
/* The arg of an irq or softirq event whose number the source lost (a cut text line):
 * it pairs with the innermost open handler of its kind, whatever the number. */
#define TW_IRQ_NUMBER_UNKNOWN G_MAXUINT32

/**
 * TwEventKind:
 *
 * Canonical kinds let every view and evaluator work on every format (DESIGN §3).
 * A reader maps its raw events to these where they apply and always keeps the raw name
 * in the type table. What the core `task` and `arg` columns mean depends on the kind:
 *
 * | kind            | task column              | arg column                      |
 * |-----------------|--------------------------|---------------------------------|
 * | SWITCH          | task switched out (prev) | task switched in (next), index  |
 * | WAKEUP          | waker (may be none)      | woken task, index               |
 * | IRQ_*, SOFTIRQ_*| task interrupted         | irq number / softirq vector     |
 * | TASK_CREATE     | creator (may be none)    | created task, index             |
 * | TASK_EXIT       | exiting task             | exiting task, index             |
 * | USER            | task that logged it      | user event id                   |
 * | MUTEX_*         | task                     | mutex id (low 32 bits)          |
 * | SENSOR          | task of the sensor       | sensor index                    |
 * | LOST            | none                     | events lost (0: unknown)        |
 * | OTHER           | task that logged it      | 0                               |
 *
 * A SWITCH may carry a payload field named `prev_state`: a string as the source spells
 * how the switched-out task left the CPU (ftrace's "R+", "S"), which the reader interns
 * with tw_trace_intern_task_state(), saying which TwTaskState it stands for. The state
 * model reads that state, never the spelling; a switch without one left the task READY.
 *
 * A LOST event says the source dropped events (ftrace overruns, CTF discarded events or
 * packets) on its CPU before its time, the time the loss became known: see
 * tw-lost-events.h for its fields. It sits in the store like any event so that every
 * view, evaluator and copy of the store sees it.
 */
typedef enum {
  TW_EVENT_KIND_OTHER = 0,
  TW_EVENT_KIND_SWITCH,
  TW_EVENT_KIND_WAKEUP,
  TW_EVENT_KIND_IRQ_ENTRY,
  TW_EVENT_KIND_IRQ_EXIT,
  TW_EVENT_KIND_SOFTIRQ_ENTRY,
  TW_EVENT_KIND_SOFTIRQ_EXIT,
  TW_EVENT_KIND_TASK_CREATE,
  TW_EVENT_KIND_TASK_EXIT,
  TW_EVENT_KIND_USER,
  TW_EVENT_KIND_MUTEX_LOCK,
  TW_EVENT_KIND_MUTEX_UNLOCK,
  TW_EVENT_KIND_MUTEX_WAIT,
  TW_EVENT_KIND_SENSOR,
  TW_EVENT_KIND_LOST,
  TW_N_EVENT_KINDS
} TwEventKind;

const char  *tw_event_kind_to_string   (TwEventKind  kind);
gboolean     tw_event_kind_from_string (const char  *name,
                                        TwEventKind *kind);

typedef enum {
  TW_TASK_STATE_UNKNOWN = 0,
  TW_TASK_STATE_RUNNING,
  TW_TASK_STATE_READY,
  TW_TASK_STATE_BLOCKED,
  TW_TASK_STATE_DEAD,
} TwTaskState;

const char  *tw_task_state_to_string   (TwTaskState  state);

/* Field value types of an event type's schema. Payloads are packed little-endian-free
 * (native) records read with memcpy; strings are ids into the trace's string table. */
typedef enum {
  TW_FIELD_U8 = 0,
  TW_FIELD_U16,
  TW_FIELD_U32,
  TW_FIELD_U64,
  TW_FIELD_I32,
  TW_FIELD_I64,
  TW_FIELD_F64,
  TW_FIELD_STRING,
} TwFieldType;

typedef enum {
  TW_FIELD_FLAG_NONE     = 0,
  TW_FIELD_FLAG_HEX      = 1 << 0, /* show as 0x… */
  TW_FIELD_FLAG_OPTIONAL = 1 << 1, /* may be absent in a given event (CSV empty cell) */
  TW_FIELD_FLAG_TASK     = 1 << 2, /* the value is a task index of the trace */
  /* What a sampled counter's field measures (tw-counter-tracks.h): its sampler says */
  TW_FIELD_FLAG_CPU_LOAD     = 1 << 3, /* a CPU's busy share, %, of the interval that
                                        * ends at the sample (the event's CPU) */
  TW_FIELD_FLAG_MEMORY_USED  = 1 << 4, /* memory in use, bytes, from the sample on */
  TW_FIELD_FLAG_MEMORY_TOTAL = 1 << 5, /* the memory there is, bytes: the top of the
                                        * MEMORY_USED graph */
} TwFieldFlags;

typedef struct {
  const char   *name;
  TwFieldType   type;
  TwFieldFlags  flags;
} TwFieldSpec;

typedef struct {
  TwFieldType type;
  union {
    guint64 u;
    gint64  i;
    double  f;
    guint32 str; /* string id, see tw_trace_get_string() */
  };
} TwValue;

/* Progress of long work, called from the worker thread: fraction in [0, 1]. */
typedef void (*TwProgressFunc) (double   fraction,
                                gpointer user_data);

G_END_DECLS
