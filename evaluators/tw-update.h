/* tw-update.h: update functions (prepare/commit), user contexts and updates
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

typedef struct _TwEvaluation TwEvaluation;

/**
 * TwUpdateFuncs:
 * @bind: (nullable): called when the update joins @evaluation (its trace:
 *   tw_evaluation_get_trace()); a %FALSE return (with @error set) refuses the update.
 *   The update may keep @evaluation (unowned) while it takes part, e.g. for
 *   tw_evaluation_get_cpu_event_count().
 * @prepare: computes an update from @event (Riegel 2005 §4.3); @selector is the index of
 *   the update's first selector that matched the event's type. Returns whether the
 *   preparation succeeded.
 * @commit: applies (@ok %TRUE) or discards (@ok %FALSE) what @prepare computed. The
 *   evaluation passes @ok = %FALSE when @prepare failed or when the source says the
 *   event changed while it was prepared (live sensors).
 * @finish: (nullable): end of input, or the update left the evaluation
 *
 * An update function: the evaluation algorithm. It keeps its state in the user
 * context (shared by every update that was given the same #TwUpdateContext, so several
 * functions over several event kinds form one state machine) and in @func_data (its own).
 * All calls come from the thread running the evaluation, in strict time order.
 */
typedef struct {
  gboolean (*bind)    (gpointer        context,
                       gpointer        func_data,
                       TwEvaluation   *evaluation,
                       GError        **error);
  gboolean (*prepare) (gpointer        context,
                       gpointer        func_data,
                       const TwEvent  *event,
                       guint           selector);
  void     (*commit)  (gpointer        context,
                       gpointer        func_data,
                       gboolean        ok);
  void     (*finish)  (gpointer        context,
                       gpointer        func_data);
} TwUpdateFuncs;

/**
 * TwUpdateDirectFunc:
 *
 * An optional second way into an update function, one per selector
 * (tw_update_set_direct_funcs()): the effect of prepare (@context, @func_data, @event,
 * selector) followed by commit (@context, @func_data, ok = what prepare returned), in
 * one call. An evaluation without a check function calls it instead of the pair, so
 * that a consumed event costs one indirect call and the function needs no branch on
 * the selector.
 */
typedef void (*TwUpdateDirectFunc) (gpointer       context,
                                    gpointer       func_data,
                                    const TwEvent *event);

/**
 * TwUpdateBatchFunc:
 * @chunk: the trace's rows
 * @first: the first row of the run
 * @n_rows: how many rows, from @first on
 * @slots: (array length=n_types): per event type, 0 when the update does not consume
 *   it, else 1 + the index of its first selector that matched (every row's type is
 *   below @n_types)
 *
 * An optional second way into an update function (tw_update_set_batch_func()): a run
 * of consecutive events at once, with exactly the effect of prepare then commit (ok =
 * what prepare returned) of each consumed one in turn. The evaluation uses it when
 * it does not check events one by one (no check function); it runs the batches of an
 * event range before or after the other updates' calls for the same events, so it
 * suits updates that share no state with other updates and do not add or remove
 * updates themselves.
 */
typedef void (*TwUpdateBatchFunc) (gpointer            context,
                                   gpointer            func_data,
                                   const TwEventChunk *chunk,
                                   guint               first,
                                   guint               n_rows,
                                   const guint16      *slots,
                                   guint               n_types);

typedef struct _TwUpdateContext TwUpdateContext;
typedef struct _TwUpdate TwUpdate;

#define TW_TYPE_UPDATE_CONTEXT (tw_update_context_get_type ())
#define TW_TYPE_UPDATE         (tw_update_get_type ())

GType            tw_update_context_get_type  (void) G_GNUC_CONST;
TwUpdateContext *tw_update_context_new       (gpointer           data,
                                              GDestroyNotify     destroy);
TwUpdateContext *tw_update_context_ref       (TwUpdateContext   *self);
void             tw_update_context_unref     (TwUpdateContext   *self);
gpointer         tw_update_context_get_data  (TwUpdateContext   *self);

GType            tw_update_get_type          (void) G_GNUC_CONST;
TwUpdate        *tw_update_new               (const TwUpdateFuncs *funcs,
                                              gpointer           func_data,
                                              GDestroyNotify     func_data_destroy,
                                              TwUpdateContext   *context,
                                              const char *const *selectors);
TwUpdate        *tw_update_ref               (TwUpdate          *self);
void             tw_update_unref             (TwUpdate          *self);
const TwUpdateFuncs *tw_update_get_funcs     (TwUpdate          *self);
void             tw_update_set_direct_funcs  (TwUpdate          *self,
                                              const TwUpdateDirectFunc *direct,
                                              guint              n_direct);
TwUpdateDirectFunc tw_update_get_direct_func (TwUpdate          *self,
                                              guint              selector);
void             tw_update_set_batch_func    (TwUpdate          *self,
                                              TwUpdateBatchFunc  batch);
TwUpdateBatchFunc tw_update_get_batch_func   (TwUpdate          *self);
gpointer         tw_update_get_func_data     (TwUpdate          *self);
TwUpdateContext *tw_update_get_context       (TwUpdate          *self);
const char *const *tw_update_get_selectors   (TwUpdate          *self);
guint16         *tw_update_dup_type_slots    (TwUpdate          *self,
                                              TwTrace           *trace,
                                              guint              first_type,
                                              guint16           *slots,
                                              guint              n_types);
gboolean         tw_update_selector_matches  (const char        *selector,
                                              const TwEventType *type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwUpdateContext, tw_update_context_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwUpdate, tw_update_unref)

G_END_DECLS
