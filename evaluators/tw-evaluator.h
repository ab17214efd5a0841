/* tw-evaluator.h: the versioned, dependency-free ABI of evaluation modules (plugins)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An evaluation module consumes a stream of events in time order and produces
 * measurements (seed 000 §2: task, begin, end, length, intermediate events) and/or
 * histogram values. It is a shared object, compiled outside the Trace Workbench tree
 * against this header only (C99/C11 or C++, no GLib), that exports
 *
 *     const TwEvaluatorModule *tw_evaluator_module_get (unsigned abi_version);
 *
 * The host passes the ABI version it speaks; a module returns NULL when it cannot
 * serve that version, else its description (a static object that outlives the call).
 *
 * Life of a module instance, all calls from one thread:
 *   context = context_new ()           one user context per instance
 *   bind (context, host, ids)          ids[i] is the id the host gave event_names[i],
 *                                      or TW_EVALUATOR_EVENT_ABSENT when the source has
 *                                      no event of that name
 *   for each input event, in time order:
 *     ok = prepare (context, event)     compute from the event; may fail
 *     commit (context, ok && host saw the event unchanged)
 *   finish (context)                   end of input
 *   context_free (context)
 *
 * Prepare/commit comes from seed 004 §4.3: with live sensors the host cannot be sure
 * that an element did not change while it was read, so a module prepares its update
 * from the event and applies it only in commit (ok = true), or drops it (ok = false).
 * Events, fields and strings passed to prepare are valid only during that call.
 *
 * Event names select what the module consumes. A name is either the raw name of an
 * event type as the source spells it ("sched_switch", "task_activate") or a canonical
 * kind written "kind:NAME" (kind:switch, kind:wakeup, kind:irq_entry, kind:irq_exit,
 * kind:softirq_entry, kind:softirq_exit, kind:task_create, kind:task_exit, kind:user,
 * kind:mutex_lock, kind:mutex_unlock, kind:mutex_wait, kind:sensor), which
 * matches every type of that kind. An event matching several names gets the id of the
 * first. With TW_EVALUATOR_FLAG_ALL_EVENTS the module also receives every other event,
 * with event_id == TW_EVALUATOR_EVENT_OTHER.
 *
 * The meaning of `task` and `arg` follows the canonical kind of the event (for
 * kind:switch task = the task switched out and arg = the task switched in, for
 * kind:irq_* arg = the irq number, for kind:wakeup arg = the woken task, ...). Tasks
 * are small integers of the host; task_label() names them.
 */
#ifndef TW_EVALUATOR_H
#define TW_EVALUATOR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
# define TW_BEGIN_DECLS extern "C" {
# define TW_END_DECLS }
#else
# include <stdbool.h>
# define TW_BEGIN_DECLS
# define TW_END_DECLS
#endif

TW_BEGIN_DECLS

/* Bumped whenever a struct below changes layout or a callback changes meaning. */
#define TW_EVALUATOR_ABI_VERSION 1

#define TW_EVALUATOR_MODULE_SYMBOL "tw_evaluator_module_get"

#define TW_EVALUATOR_EVENT_ABSENT UINT32_MAX       /* bind: the source has no such event */
#define TW_EVALUATOR_EVENT_OTHER  (UINT32_MAX - 1) /* prepare: not one of event_names */
#define TW_EVALUATOR_TASK_NONE    UINT32_MAX
#define TW_EVALUATOR_CPU_NONE     UINT16_MAX

/* TwEvaluatorModule.flags */
#define TW_EVALUATOR_FLAG_ALL_EVENTS 0x1u

typedef enum {
  TW_EVALUATOR_VALUE_NONE = 0,  /* field absent */
  TW_EVALUATOR_VALUE_UINT,
  TW_EVALUATOR_VALUE_INT,
  TW_EVALUATOR_VALUE_DOUBLE,
  TW_EVALUATOR_VALUE_STRING,
} TwEvaluatorValueType;

typedef struct {
  uint32_t type;               /* TwEvaluatorValueType */
  uint32_t reserved;
  union {
    uint64_t    u;
    int64_t     i;
    double      f;
    const char *s;             /* valid during the prepare call */
  } v;
} TwEvaluatorValue;

/* One input event, valid during the prepare call. */
typedef struct {
  uint64_t    time_ns;         /* in the source's time base (ns since its origin) */
  uint32_t    event_id;        /* an id given to bind, or TW_EVALUATOR_EVENT_OTHER */
  uint32_t    task;            /* host task id or TW_EVALUATOR_TASK_NONE */
  uint32_t    arg;             /* canonical argument, see above */
  uint16_t    cpu;             /* or TW_EVALUATOR_CPU_NONE */
  uint16_t    reserved;
  const void *host_event;      /* opaque: pass back to the field accessors */
} TwEvaluatorEvent;

/* One result row. */
typedef struct {
  uint32_t      task;          /* host task id the measurement belongs to */
  uint32_t      intermediate_events;
  uint64_t      begin_ns;
  uint64_t      end_ns;
  uint64_t      length_ns;
  const double *columns;       /* n_columns values (module's column_names), or NULL */
  uint32_t      n_columns;
  uint32_t      reserved;
} TwEvaluatorMeasurement;

typedef struct TwEvaluatorHost TwEvaluatorHost;

/* What the host offers a module; valid from bind until context_free. */
struct TwEvaluatorHost {
  uint32_t    struct_size;     /* sizeof (TwEvaluatorHost) of the host */
  uint32_t    abi_version;
  void       *host_data;       /* opaque */

  /* fields of an event's payload, by name or by index; false when absent */
  bool        (*get_field)       (const TwEvaluatorHost  *host,
                                  const TwEvaluatorEvent *event,
                                  const char             *name,
                                  TwEvaluatorValue       *value);
  bool        (*get_field_at)    (const TwEvaluatorHost  *host,
                                  const TwEvaluatorEvent *event,
                                  unsigned                index,
                                  TwEvaluatorValue       *value);
  unsigned    (*get_n_fields)    (const TwEvaluatorHost  *host,
                                  const TwEvaluatorEvent *event);
  /* the task as the source names it; valid until context_free */
  const char *(*task_label)      (const TwEvaluatorHost  *host,
                                  uint32_t                task);

  /* output: call from prepare, commit or finish */
  void        (*emit_measurement)(const TwEvaluatorHost       *host,
                                  const TwEvaluatorMeasurement *measurement);
  void        (*emit_value)      (const TwEvaluatorHost  *host,
                                  double                  value);
};

typedef struct {
  uint32_t            abi_version;   /* TW_EVALUATOR_ABI_VERSION the module was built for */
  uint32_t            struct_size;   /* sizeof (TwEvaluatorModule) */
  const char         *name;
  const char         *description;
  const char *const  *event_names;   /* n_event_names selectors, see above */
  uint32_t            n_event_names;
  uint32_t            flags;         /* TW_EVALUATOR_FLAG_* */
  const char *const  *column_names;  /* free numeric columns of its measurements */
  uint32_t            n_columns;
  uint32_t            reserved;

  void *(*context_new)  (void);
  void  (*context_free) (void                   *context);
  bool  (*bind)         (void                   *context,
                         const TwEvaluatorHost  *host,
                         const uint32_t         *event_ids);
  bool  (*prepare)      (void                   *context,
                         const TwEvaluatorEvent *event);
  void  (*commit)       (void                   *context,
                         bool                    ok);
  void  (*finish)       (void                   *context);
} TwEvaluatorModule;

typedef const TwEvaluatorModule *(*TwEvaluatorModuleGetFunc) (unsigned abi_version);

/* The layout is part of the ABI: a change here must bump TW_EVALUATOR_ABI_VERSION. */
#if defined(__cplusplus) && __cplusplus >= 201103L
# define TW_EVALUATOR_STATIC_ASSERT(e, m) static_assert (e, m)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
# define TW_EVALUATOR_STATIC_ASSERT(e, m) _Static_assert (e, m)
#else
/* C99: an array type of negative size does not compile */
# define TW_EVALUATOR_PASTE_(a, b) a##b
# define TW_EVALUATOR_PASTE(a, b) TW_EVALUATOR_PASTE_ (a, b)
# define TW_EVALUATOR_STATIC_ASSERT(e, m) \
  typedef char TW_EVALUATOR_PASTE (tw_evaluator_static_assert_, __LINE__)[(e) ? 1 : -1]
#endif

TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorValue) == 16, "TwEvaluatorValue layout");
#if UINTPTR_MAX == UINT64_MAX
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorEvent) == 32, "TwEvaluatorEvent layout");
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorMeasurement) == 48, "TwEvaluatorMeasurement layout");
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorHost) == 64, "TwEvaluatorHost layout");
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorModule) == 104, "TwEvaluatorModule layout");
#endif

TW_END_DECLS

#endif /* TW_EVALUATOR_H */
