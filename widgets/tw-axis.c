/* tw-axis.c: round tick values for the axes of plots
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-axis.h"

/**
 * tw_axis_nice_step:
 * @at_least: the smallest step that would do, > 0
 *
 * Returns: the smallest 1, 2 or 5 × 10^k that is ≥ @at_least: ticks at such steps read
 *   as round numbers in any unit
 */
double
tw_axis_nice_step (double at_least)
{
  double decade;

  if (!(at_least > 0) || !isfinite (at_least))
    return 1;
  decade = pow (10, floor (log10 (at_least)));
  /* the tolerance keeps 0.3 / 0.1 = 2.9999… from skipping a step */
  for (int i = 0; i < 3; i++)
    {
      static const double multiples[] = { 1, 2, 5 };

      if (multiples[i] * decade >= at_least * (1 - 1e-9))
        return multiples[i] * decade;
    }
  return 10 * decade;
}

/**
 * tw_axis_decimals:
 * @step: a tick step from tw_axis_nice_step()
 *
 * Returns: the decimals that tell ticks @step apart: 0 for 5, 1 for 0.5, 3 for 0.002
 */
int
tw_axis_decimals (double step)
{
  if (!(step > 0))
    return 0;
  return (int) CLAMP (ceil (-log10 (step) - 1e-9), 0, 12);
}

/**
 * tw_axis_format_tick:
 * @value: a multiple of @step
 * @step: the tick step
 *
 * Returns: (transfer full): @value with tw_axis_decimals() decimals ("0.25", "12"), never
 *   "-0"
 */
char *
tw_axis_format_tick (double value,
                     double step)
{
  if (fabs (value) < step * 1e-6)
    value = 0;
  return g_strdup_printf ("%.*f", tw_axis_decimals (step), value);
}
