/* tw-time-unit.c: the time units that thresholds, limits and durations are written in
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tw-time-unit.h"

/**
 * tw_time_unit_get_ns:
 * @unit: "ns", "us", "µs", "ms" or "s"
 * @ns: (out): nanoseconds in one @unit
 *
 * Callers decide what a bare number means; "" is not a unit here.
 *
 * Returns: whether @unit is one of them
 */
gboolean
tw_time_unit_get_ns (const char *unit,
                     double     *ns)
{
  static const struct { const char *name; double ns; } units[] = {
    { "ns", 1 }, { "us", 1e3 }, { "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (strcmp (unit, units[i].name) == 0)
      {
        *ns = units[i].ns;
        return TRUE;
      }
  return FALSE;
}
