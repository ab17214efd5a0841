/* tw-measurement-item.h: one row of a measurement table, as a list model item
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define TW_TYPE_MEASUREMENT_ITEM (tw_measurement_item_get_type ())
G_DECLARE_FINAL_TYPE (TwMeasurementItem, tw_measurement_item, TW, MEASUREMENT_ITEM, GObject)

TwMeasurementItem *tw_measurement_item_new     (gsize              row);
gsize              tw_measurement_item_get_row (TwMeasurementItem *self);

G_END_DECLS
