/* tw-plugin.h: evaluation modules loaded from shared objects (tw-evaluator.h ABI)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <tw-data.h>

#include "tw-evaluator.h"
#include "tw-evaluator-interface.h"

G_BEGIN_DECLS

#define TW_PLUGIN_ERROR (tw_plugin_error_quark ())

typedef enum {
  TW_PLUGIN_ERROR_OPEN,        /* the file is not a loadable shared object */
  TW_PLUGIN_ERROR_SYMBOL,      /* no tw_evaluator_module_get */
  TW_PLUGIN_ERROR_VERSION,     /* built for another ABI version */
  TW_PLUGIN_ERROR_INVALID,     /* the module's description is incomplete */
  TW_PLUGIN_ERROR_BIND,        /* the module refused the source */
} TwPluginError;

GQuark tw_plugin_error_quark (void);

/* A loaded module is a TwEvaluator (tw-evaluator-interface.h). */
#define TW_TYPE_PLUGIN (tw_plugin_get_type ())
G_DECLARE_FINAL_TYPE (TwPlugin, tw_plugin, TW, PLUGIN, GObject)

TwPlugin                *tw_plugin_new_for_path      (const char          *path,
                                                      GError             **error);
const char              *tw_plugin_get_path          (TwPlugin            *self);
const char              *tw_plugin_get_name          (TwPlugin            *self);
const char              *tw_plugin_get_description   (TwPlugin            *self);
const TwEvaluatorModule *tw_plugin_get_module        (TwPlugin            *self);
const TwEvaluatorBatchFuncs *tw_plugin_get_batch_funcs (TwPlugin          *self);

TwMeasurementTable      *tw_plugin_new_table         (TwPlugin            *self);
TwUpdate                *tw_plugin_create_update     (TwPlugin            *self,
                                                      TwMeasurementTable  *table,
                                                      TwHistogram         *histogram);

G_END_DECLS
