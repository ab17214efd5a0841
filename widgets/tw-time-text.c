/* tw-time-text.c: times as users type and read them ("1.5 s", "250ms", "42ns")
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-time-text.h"

#include <gio/gio.h>
#include <string.h>

static const struct {
  const char *suffix;
  guint64     ns;
  guint       decimals;   /* fraction digits that still name whole ns */
} units[] = {
  { "ns", 1, 0 },
  { "us", 1000, 3 },
  { "µs", 1000, 3 },
  { "ms", 1000000, 6 },
  { "s",  1000000000, 9 },
};

/**
 * tw_time_text_parse:
 * @text: a decimal number and a unit: s, ms, us (or µs), ns; spaces allowed around and
 *   between; no unit means ns
 * @time_ns: (out): the time in ns
 *
 * Decimal arithmetic on integers, so "1.1 s" is exactly 1100000000 ns; digits finer
 * than a nanosecond are dropped.
 *
 * Returns: %FALSE with %G_IO_ERROR_INVALID_ARGUMENT for text that is not a time
 */
gboolean
tw_time_text_parse (const char  *text,
                    guint64     *time_ns,
                    GError     **error)
{
  const char *p = text;
  guint64 whole = 0;
  guint64 frac = 0;
  guint frac_digits = 0;
  gboolean any_digit = FALSE;
  g_autofree char *unit = NULL;
  guint u;

  g_return_val_if_fail (text != NULL, FALSE);

  while (g_ascii_isspace (*p))
    p++;
  for (; g_ascii_isdigit (*p); p++)
    {
      if (whole > (G_MAXUINT64 - 9) / 10)
        goto too_big;
      whole = whole * 10 + (guint64) (*p - '0');
      any_digit = TRUE;
    }
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p); p++)
      {
        if (frac_digits < 9)
          {
            frac = frac * 10 + (guint64) (*p - '0');
            frac_digits++;
          }
        any_digit = TRUE;
      }
  if (!any_digit)
    goto invalid;

  while (g_ascii_isspace (*p))
    p++;
  unit = g_strdup (p);
  g_strchomp (unit);

  if (unit[0] == '\0')
    u = 0;
  else
    {
      for (u = 0; u < G_N_ELEMENTS (units); u++)
        if (g_ascii_strcasecmp (unit, units[u].suffix) == 0 || strcmp (unit, units[u].suffix) == 0)
          break;
      if (u == G_N_ELEMENTS (units))
        goto invalid;
    }

  /* keep only the fraction digits that are whole ns in this unit */
  while (frac_digits > units[u].decimals)
    {
      frac /= 10;
      frac_digits--;
    }
  for (guint d = frac_digits; d < units[u].decimals; d++)
    frac *= 10;

  if (whole > (G_MAXUINT64 - frac) / units[u].ns)
    goto too_big;
  *time_ns = whole * units[u].ns + frac;
  return TRUE;

invalid:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "“%s” is not a time: write a number and a unit, like 1.5 s, 250 ms, 1200 us or 42 ns",
               text);
  return FALSE;

too_big:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               "“%s” is too large a time", text);
  return FALSE;
}

/**
 * tw_time_text_format:
 *
 * Returns: (transfer full): @time_ns as seconds with nine decimals, "12.000345678 s"
 *   (every digit is kept: trace times are compared to the nanosecond)
 */
char *
tw_time_text_format (guint64 time_ns)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s",
                          time_ns / 1000000000, time_ns % 1000000000);
}
