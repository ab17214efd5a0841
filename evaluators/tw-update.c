/* tw-update.c: update functions (prepare/commit), user contexts and updates
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-update.h"

#include <string.h>

struct _TwUpdateContext {
  gpointer       data;
  GDestroyNotify destroy;
};

struct _TwUpdate {
  const TwUpdateFuncs *funcs;
  gpointer             func_data;
  GDestroyNotify       func_data_destroy;
  TwUpdateContext     *context;
  GStrv                selectors;
  const TwUpdateDirectFunc *direct;
  guint                n_direct;
  TwUpdateBatchFunc    batch;
};

G_DEFINE_BOXED_TYPE (TwUpdateContext, tw_update_context, tw_update_context_ref, tw_update_context_unref)
G_DEFINE_BOXED_TYPE (TwUpdate, tw_update, tw_update_ref, tw_update_unref)

/**
 * tw_update_context_new:
 * @data: (nullable): the user's state
 * @destroy: (nullable): frees @data when the last update using the context is gone
 *
 * A user context is the state several update functions share (Riegel 2005 §4.3), so that
 * they form one state machine over several sources. Reference counted; the references
 * may be dropped from any thread.
 *
 * Returns: (transfer full): a new context
 */
TwUpdateContext *
tw_update_context_new (gpointer       data,
                       GDestroyNotify destroy)
{
  TwUpdateContext *self = g_atomic_rc_box_new0 (TwUpdateContext);

  self->data = data;
  self->destroy = destroy;
  return self;
}

/**
 * tw_update_context_ref:
 *
 * Returns: (transfer full): @self
 */
TwUpdateContext *
tw_update_context_ref (TwUpdateContext *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
update_context_clear (gpointer mem)
{
  TwUpdateContext *self = mem;

  if (self->destroy != NULL)
    self->destroy (self->data);
}

/**
 * tw_update_context_unref:
 *
 * Drops a reference; the last one frees the data with its destroy function.
 */
void
tw_update_context_unref (TwUpdateContext *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, update_context_clear);
}

/**
 * tw_update_context_get_data:
 *
 * Returns: (transfer none) (nullable): the user's state
 */
gpointer
tw_update_context_get_data (TwUpdateContext *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->data;
}

/**
 * tw_update_new:
 * @funcs: (transfer none): the update function; must outlive the update (usually static)
 * @func_data: (nullable): the function's own state
 * @func_data_destroy: (nullable): frees @func_data with the update
 * @context: (nullable): the shared user context (a reference is taken); %NULL for one
 *   of its own with no data
 * @selectors: (array zero-terminated=1): the events the update consumes: raw type
 *   names, `kind:NAME` for every type of a canonical kind, or `*` for all events
 *
 * An update binds an update function to a user context and to the events it consumes
 * (Riegel 2005 §4.3). Reference counted (the paper's acquire/release); adding it to a
 * #TwEvaluation takes a reference.
 *
 * Returns: (transfer full): a new update
 */
TwUpdate *
tw_update_new (const TwUpdateFuncs *funcs,
               gpointer             func_data,
               GDestroyNotify       func_data_destroy,
               TwUpdateContext     *context,
               const char *const   *selectors)
{
  TwUpdate *self;

  g_return_val_if_fail (funcs != NULL, NULL);
  g_return_val_if_fail (funcs->prepare != NULL && funcs->commit != NULL, NULL);
  g_return_val_if_fail (selectors != NULL, NULL);

  self = g_atomic_rc_box_new0 (TwUpdate);
  self->funcs = funcs;
  self->func_data = func_data;
  self->func_data_destroy = func_data_destroy;
  self->context = context ? tw_update_context_ref (context) : tw_update_context_new (NULL, NULL);
  self->selectors = g_strdupv ((char **) selectors);
  return self;
}

/**
 * tw_update_ref:
 *
 * Returns: (transfer full): @self
 */
TwUpdate *
tw_update_ref (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
update_clear (gpointer mem)
{
  TwUpdate *self = mem;

  if (self->func_data_destroy != NULL)
    self->func_data_destroy (self->func_data);
  g_clear_pointer (&self->context, tw_update_context_unref);
  g_clear_pointer (&self->selectors, g_strfreev);
}

/**
 * tw_update_unref:
 *
 * Drops a reference (the paper's release); the last one frees the function's data and
 * drops the context.
 */
void
tw_update_unref (TwUpdate *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_rc_box_release_full (self, update_clear);
}

/**
 * tw_update_get_funcs:
 *
 * Returns: (transfer none): the update function
 */
const TwUpdateFuncs *
tw_update_get_funcs (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->funcs;
}

/**
 * tw_update_set_direct_funcs:
 * @direct: (array length=n_direct) (transfer none) (nullable): per selector, a
 *   #TwUpdateDirectFunc or %NULL (that selector keeps prepare/commit); must outlive the
 *   update (usually static)
 * @n_direct: entries in @direct (selectors beyond them keep prepare/commit)
 *
 * Gives the update direct functions besides prepare/commit. Set them before the update
 * joins an evaluation.
 */
void
tw_update_set_direct_funcs (TwUpdate                 *self,
                            const TwUpdateDirectFunc *direct,
                            guint                     n_direct)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (direct != NULL || n_direct == 0);

  self->direct = direct;
  self->n_direct = n_direct;
}

/**
 * tw_update_get_direct_func:
 * @selector: index of one of the update's selectors
 *
 * Returns: (nullable): the direct function of @selector, %NULL when it has none
 */
TwUpdateDirectFunc
tw_update_get_direct_func (TwUpdate *self,
                           guint     selector)
{
  g_return_val_if_fail (self != NULL, NULL);
  return selector < self->n_direct ? self->direct[selector] : NULL;
}

/**
 * tw_update_set_batch_func:
 * @batch: (nullable): consumes runs of events (#TwUpdateBatchFunc); %NULL for none
 *
 * Gives the update a batch entry besides prepare/commit. Set it before the update
 * joins an evaluation.
 */
void
tw_update_set_batch_func (TwUpdate          *self,
                          TwUpdateBatchFunc  batch)
{
  g_return_if_fail (self != NULL);
  self->batch = batch;
}

/**
 * tw_update_get_batch_func:
 *
 * Returns: (nullable): the batch entry, or %NULL when the update has none
 */
TwUpdateBatchFunc
tw_update_get_batch_func (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->batch;
}

/**
 * tw_update_get_func_data:
 *
 * Returns: (transfer none) (nullable): the function's own state
 */
gpointer
tw_update_get_func_data (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->func_data;
}

/**
 * tw_update_get_context:
 *
 * Returns: (transfer none): the user context
 */
TwUpdateContext *
tw_update_get_context (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->context;
}

/**
 * tw_update_get_selectors:
 *
 * Returns: (transfer none) (array zero-terminated=1): what the update consumes
 */
const char *const *
tw_update_get_selectors (TwUpdate *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const char *const *) self->selectors;
}

/**
 * tw_update_selector_matches:
 *
 * Returns: whether @selector (a raw type name or `kind:NAME`; not `*`) names @type
 */
gboolean
tw_update_selector_matches (const char        *selector,
                            const TwEventType *type)
{
  TwEventKind kind;

  if (g_str_has_prefix (selector, "kind:"))
    return tw_event_kind_from_string (selector + 5, &kind) && kind == type->kind;
  return g_strcmp0 (selector, type->name) == 0;
}

/**
 * tw_update_dup_type_slots:
 * @slots: (transfer full) (nullable): the slots computed so far for types below
 *   @first_type
 * @n_types: the trace's current number of types
 *
 * Resolves the selectors against the type table once, so that the evaluation's hot
 * loop only indexes an array per event: slot 0 means "not consumed", slot s > 0 means
 * "consumed through selector s − 1" (the first selector that names the type; a `*`
 * selector takes every type no other selector names).
 *
 * Returns: (transfer full): @slots grown to @n_types entries
 */
guint16 *
tw_update_dup_type_slots (TwUpdate *self,
                          TwTrace  *trace,
                          guint     first_type,
                          guint16  *slots,
                          guint     n_types)
{
  guint n_selectors;

  g_return_val_if_fail (self != NULL, NULL);

  n_selectors = g_strv_length (self->selectors);
  slots = g_renew (guint16, slots, MAX (n_types, 1));
  for (guint t = first_type; t < n_types; t++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, t);
      guint16 wildcard = 0;

      slots[t] = 0;
      for (guint s = 0; s < n_selectors && s < G_MAXUINT16 - 1; s++)
        {
          if (strcmp (self->selectors[s], "*") == 0)
            {
              if (wildcard == 0)
                wildcard = s + 1;
            }
          else if (tw_update_selector_matches (self->selectors[s], type))
            {
              slots[t] = s + 1;
              break;
            }
        }
      if (slots[t] == 0)
        slots[t] = wildcard;
    }
  return slots;
}
