/* tw-measurement-item.c: one row of a measurement table, as a list model item
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-measurement-item.h"

struct _TwMeasurementItem
{
  GObject parent_instance;
  gsize   row;
};

G_DEFINE_FINAL_TYPE (TwMeasurementItem, tw_measurement_item, G_TYPE_OBJECT)

static void
tw_measurement_item_class_init (TwMeasurementItemClass *klass)
{
}

static void
tw_measurement_item_init (TwMeasurementItem *self)
{
}

/**
 * tw_measurement_item_new:
 * @row: a row index of the list's measurement table
 *
 * Returns: (transfer full): the item
 */
TwMeasurementItem *
tw_measurement_item_new (gsize row)
{
  TwMeasurementItem *self = g_object_new (TW_TYPE_MEASUREMENT_ITEM, NULL);

  self->row = row;
  return self;
}

/**
 * tw_measurement_item_get_row:
 *
 * Returns: the row index in the measurement table
 */
gsize
tw_measurement_item_get_row (TwMeasurementItem *self)
{
  g_return_val_if_fail (TW_IS_MEASUREMENT_ITEM (self), 0);
  return self->row;
}
