/* tw-evaluator-factory.h: evaluators offered by name: the system metrics and any registered
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-evaluator-interface.h"

G_BEGIN_DECLS

/**
 * TwEvaluatorNewFunc:
 * @parameter: (nullable): what followed the name after a colon, %NULL when nothing did
 * @user_data: the factory's data
 *
 * Returns: (transfer full) (nullable): a new evaluator, or %NULL with @error set (e.g.
 *   a parameter it needs is missing or malformed)
 */
typedef TwEvaluator *(*TwEvaluatorNewFunc) (const char  *parameter,
                                            gpointer     user_data,
                                            GError     **error);

#define TW_TYPE_EVALUATOR_FACTORY (tw_evaluator_factory_get_type ())
G_DECLARE_FINAL_TYPE (TwEvaluatorFactory, tw_evaluator_factory, TW, EVALUATOR_FACTORY, GObject)

TwEvaluatorFactory *tw_evaluator_factory_new             (const char          *name,
                                                          const char          *parameter,
                                                          const char          *description,
                                                          TwEvaluatorNewFunc   new_func,
                                                          gpointer             user_data,
                                                          GDestroyNotify       destroy);
const char         *tw_evaluator_factory_get_name        (TwEvaluatorFactory  *self);
const char         *tw_evaluator_factory_get_parameter   (TwEvaluatorFactory  *self);
const char         *tw_evaluator_factory_get_description (TwEvaluatorFactory  *self);
TwEvaluator        *tw_evaluator_factory_create          (TwEvaluatorFactory  *self,
                                                          const char          *parameter,
                                                          GError             **error);

GListModel         *tw_evaluator_factory_list_registered (void);
void                tw_evaluator_factory_register        (TwEvaluatorFactory  *factory);
TwEvaluatorFactory *tw_evaluator_factory_lookup          (const char          *name);
TwEvaluator        *tw_evaluator_factory_create_for_spec (const char          *spec,
                                                          GError             **error);

G_END_DECLS
