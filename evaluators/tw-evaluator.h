/* tw-evaluator.h: the versioned, dependency-free ABI of evaluation modules (plugins)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An evaluation module consumes a stream of events in time order and produces
 * measurements (Espinosa 2003 §2: task, begin, end, length, intermediate events) and/or
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
 * Prepare/commit comes from Riegel 2005 §4.3: with live sensors the host cannot be sure
 * that an element did not change while it was read, so a module prepares its update
 * from the event and applies it only in commit (ok = true), or drops it (ok = false).
 * Events, fields and strings passed to prepare are valid only during that call.
 *
 * Batches (optional, ABI v1): a module may also export
 *
 *     const TwEvaluatorBatchFuncs *tw_evaluator_module_get_batch (const TwEvaluatorModule *module,
 *                                                                 unsigned abi_version);
 *
 * returning, for the description its tw_evaluator_module_get() gave, a process()
 * function that consumes a whole run of events given as columns (TwEvaluatorBatch).
 * When the module has it, the host may call process (context, batch) instead of
 * prepare/commit for any run of events it does not need to check one by one (a trace;
 * not a live sensor, whose elements may change while read). Between bind and
 * context_free the host may mix both ways; the events stay in time order, and a batch
 * must have exactly the effect of prepare then commit (ok = what prepare returned) of
 * each of its events in turn, except that measurements may be emitted at the end of
 * process (in the same order) through batch->emit_measurements. A batch carries no
 * host_event, so a module that reads fields must not export it. Modules without the
 * symbol keep working through prepare/commit.
 *
 * Event names select what the module consumes. A name is either the raw name of an
 * event type as the source spells it ("sched_switch", "task_activate") or a canonical
 * kind written "kind:NAME" (kind:switch, kind:wakeup, kind:irq_entry, kind:irq_exit,
 * kind:softirq_entry, kind:softirq_exit, kind:task_create, kind:task_exit, kind:user,
 * kind:mutex_lock, kind:mutex_unlock, kind:mutex_wait, kind:sensor, kind:lost), which
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

#define TW_EVALUATOR_BATCH_SYMBOL "tw_evaluator_module_get_batch"

/* A run of input events as columns, valid during the process call. Event k has
 * time_ns[k], task[k], arg[k], cpu[k] as in TwEvaluatorEvent, and the host's type
 * number type[k] < n_types; type_ids[type[k]] is its event_id (an id given to bind or
 * TW_EVALUATOR_EVENT_OTHER), or TW_EVALUATOR_EVENT_ABSENT when the event is not for
 * this module (skip it: prepare would not have seen it). type_ids[t] never changes
 * between bind and context_free; n_types only grows (a live source's new types), so
 * a module may build its own lookup table from type_ids once and extend it. */
typedef struct TwEvaluatorBatch TwEvaluatorBatch;

struct TwEvaluatorBatch {
  size_t          n_events;
  const uint64_t *time_ns;
  const uint32_t *task;
  const uint32_t *arg;
  const uint16_t *cpu;
  const uint16_t *type;
  const uint32_t *type_ids;      /* n_types entries */
  uint32_t        n_types;
  uint32_t        reserved;
  /* (nullable) emits measurements[0 .. n) in order, as n emit_measurement calls would;
   * without it, the module calls the host's emit_measurement */
  void          (*emit_measurements) (const TwEvaluatorHost       *host,
                                      const TwEvaluatorMeasurement *measurements,
                                      size_t                        n);
};

typedef struct {
  uint32_t abi_version;          /* TW_EVALUATOR_ABI_VERSION */
  uint32_t struct_size;          /* sizeof (TwEvaluatorBatchFuncs) */
  void   (*process) (void                   *context,
                     const TwEvaluatorBatch *batch);
} TwEvaluatorBatchFuncs;

typedef const TwEvaluatorBatchFuncs *(*TwEvaluatorBatchGetFunc) (const TwEvaluatorModule *module,
                                                                  unsigned                 abi_version);

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
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorBatch) == 72, "TwEvaluatorBatch layout");
TW_EVALUATOR_STATIC_ASSERT (sizeof (TwEvaluatorBatchFuncs) == 16, "TwEvaluatorBatchFuncs layout");
#endif

TW_END_DECLS

#endif /* TW_EVALUATOR_H */
