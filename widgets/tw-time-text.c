/* tw-time-text.c: times as users type and read them ("933.512", "2.79", "+250 ms")
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a user types to go to a time is what the event list shows: seconds, with nine
 * decimals, in the trace's time base — 933.349599835 on an ftrace trace,
 * 1457113582.794565804 on an LTTng one (ns since the Unix epoch). Nobody retypes ten
 * leading digits that every time of the trace shares, so the last digits are enough:
 *
 *   A number of seconds that lies wholly before the trace's first event, and has fewer
 *   digits before the point than the first event's seconds, means the first time of
 *   the trace whose seconds end with those digits: on a trace that starts at
 *   1457113582.794565804, "582.79" and "2.7945658" are 1457113582.79 and
 *   1457113582.7945658. Digits after the point may stop anywhere (the list's
 *   "2.794565804" typed as "2.7945658" still names that event's ten nanoseconds).
 *
 * When no time of the trace ends that way the number is taken as written. Other units
 * (ns, us, µs, ms) are always taken as written, and "+" counts from the first event.
 * Arithmetic is decimal on integers: "1.1 s" is exactly 1100000000 ns.
 */
#include "config.h"

#include "tw-time-text.h"

#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#define NS_PER_S G_GUINT64_CONSTANT (1000000000)

static const struct {
  const char *suffix;
  guint64     ns;
  guint       decimals;   /* fraction digits that still name whole ns */
} units[] = {
  { "s",  NS_PER_S, 9 },  /* first: a number without a unit is seconds, as the list */
  { "ms", 1000000, 6 },
  { "us", 1000, 3 },
  { "µs", 1000, 3 },      /* U+00B5 MICRO SIGN */
  { "μs", 1000, 3 },      /* U+03BC GREEK SMALL LETTER MU */
  { "ns", 1, 0 },
};

typedef enum {
  TYPED_OK,
  TYPED_INVALID,
  TYPED_TOO_BIG,
} TypedStatus;

/* One time as typed, before the trace gives it a meaning. */
typedef struct {
  gboolean since_first;   /* a leading "+" */
  gboolean in_seconds;    /* "s" or no unit */
  guint    int_digits;    /* digits typed before the point */
  guint64  ns;            /* the number, in ns */
  guint64  step_ns;       /* what one more unit of the last digit typed adds, ≥ 1 */
} TypedTime;

static guint64
power_of_ten (guint exponent)
{
  guint64 p = 1;

  while (exponent-- > 0)
    p *= 10;
  return p;
}

static guint
n_digits (guint64 value)
{
  guint n = 0;

  for (; value > 0; value /= 10)
    n++;
  return n;
}

static gboolean
lookup_unit (const char *unit,
             guint      *index)
{
  if (unit[0] == '\0')
    {
      *index = 0;
      return TRUE;
    }
  for (guint u = 0; u < G_N_ELEMENTS (units); u++)
    if (g_ascii_strcasecmp (unit, units[u].suffix) == 0)
      {
        *index = u;
        return TRUE;
      }
  return FALSE;
}

static TypedStatus
parse_typed (const char *text,
             TypedTime  *typed)
{
  const char *p = text;
  guint64 whole = 0;
  guint64 frac = 0;
  guint frac_digits = 0;
  gboolean any_digit = FALSE;
  g_autofree char *unit = NULL;
  guint u;

  *typed = (TypedTime) { 0 };
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '+')
    {
      typed->since_first = TRUE;
      for (p++; g_ascii_isspace (*p); p++)
        ;
    }
  for (; g_ascii_isdigit (*p); p++)
    {
      if (whole > (G_MAXUINT64 - 9) / 10)
        return TYPED_TOO_BIG;
      whole = whole * 10 + (guint64) (*p - '0');
      typed->int_digits++;
      any_digit = TRUE;
    }
  if (*p == '.')
    for (p++; g_ascii_isdigit (*p); p++)
      {
        /* digits below a nanosecond are dropped */
        if (frac_digits < 9)
          {
            frac = frac * 10 + (guint64) (*p - '0');
            frac_digits++;
          }
        any_digit = TRUE;
      }
  if (!any_digit)
    return TYPED_INVALID;

  while (g_ascii_isspace (*p))
    p++;
  unit = g_strchomp (g_strdup (p));
  if (!lookup_unit (unit, &u))
    return TYPED_INVALID;

  for (; frac_digits > units[u].decimals; frac_digits--)
    frac /= 10;
  typed->step_ns = units[u].ns / power_of_ten (frac_digits);
  frac *= power_of_ten (units[u].decimals - frac_digits);
  if (whole > (G_MAXUINT64 - frac) / units[u].ns)
    return TYPED_TOO_BIG;
  typed->ns = whole * units[u].ns + frac;
  typed->in_seconds = units[u].ns == NS_PER_S;
  return TYPED_OK;
}

/* The first time of the trace whose seconds end with the digits typed (see the top of
 * the file); FALSE when the number is not such a tail or no time of the trace ends so. */
static gboolean
complete_from_trace (const TypedTime *typed,
                     guint64          first_ns,
                     guint64          last_ns,
                     guint64         *time_ns)
{
  guint64 base;
  guint64 candidate;

  if (typed->since_first || !typed->in_seconds || typed->ns > first_ns ||
      first_ns - typed->ns < typed->step_ns ||
      typed->int_digits >= n_digits (first_ns / NS_PER_S))
    return FALSE;

  /* fewer digits than the first time's seconds: base ≤ first_ns, no overflow */
  base = power_of_ten (typed->int_digits) * NS_PER_S;
  candidate = first_ns - first_ns % base + typed->ns;
  if (candidate + typed->step_ns <= first_ns)
    {
      if (candidate > G_MAXUINT64 - base)
        return FALSE;
      candidate += base;
    }
  if (candidate > last_ns)
    return FALSE;
  *time_ns = candidate;
  return TRUE;
}

/* "1457113582.794565804" → "2.794565804": the example of a tail the error gives. */
static char *
dup_tail_example (const char *seconds)
{
  const char *point = strchr (seconds, '.');

  return point != NULL && point - seconds >= 2 ? g_strdup (point - 1) : NULL;
}

/* One short line per form, so that it reads as a list wherever it is shown. */
static void
set_not_a_time_error (GError     **error,
                      const char  *text,
                      guint64      first_ns)
{
  g_autofree char *first = tw_time_text_format_seconds (first_ns);
  g_autofree char *tail = dup_tail_example (first);
  g_autofree char *tail_line = NULL;

  if (tail != NULL)
    tail_line = g_strdup_printf (_("  or their last digits: %s\n"), tail);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
               _("“%s” is not a time. Type one of:\n"
                 "  seconds as the list shows them: %s\n"
                 "%s"
                 "  a number and a unit: 250 ms, 1200 us, 42 ns\n"
                 "  + and a time since the first event: +1.5 ms"),
               text, first, tail_line ? tail_line : "");
}

/**
 * tw_time_text_resolve:
 * @text: a time as a user types it: seconds as the event list shows them, or their last
 *   digits; a number and a unit (s, ms, us or µs, ns); either after a "+" for a time
 *   since the first event. Spaces are allowed around and between.
 * @first_ns: the trace's first event time
 * @last_ns: the trace's last event time
 * @time_ns: (out): the time meant, in the trace's time base
 * @form: (out) (optional): how @text was read
 *
 * The rule for last digits is at the top of this file.
 *
 * Returns: %FALSE with %G_IO_ERROR_INVALID_ARGUMENT, whose message says what a time
 *   looks like on this trace, when @text is not a time
 */
gboolean
tw_time_text_resolve (const char      *text,
                      guint64          first_ns,
                      guint64          last_ns,
                      guint64         *time_ns,
                      TwTimeTextForm  *form,
                      GError         **error)
{
  TypedTime typed;
  TwTimeTextForm how = TW_TIME_TEXT_AS_WRITTEN;
  guint64 t;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (time_ns != NULL, FALSE);

  switch (parse_typed (text, &typed))
    {
    case TYPED_INVALID:
      set_not_a_time_error (error, text, first_ns);
      return FALSE;
    case TYPED_TOO_BIG:
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is too large a time"), text);
      return FALSE;
    case TYPED_OK:
    default:
      break;
    }

  if (typed.since_first)
    {
      if (typed.ns > G_MAXUINT64 - first_ns)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       _("“%s” is too large a time"), text);
          return FALSE;
        }
      t = first_ns + typed.ns;
      how = TW_TIME_TEXT_SINCE_FIRST;
    }
  else if (complete_from_trace (&typed, first_ns, last_ns, &t))
    how = TW_TIME_TEXT_COMPLETED;
  else
    t = typed.ns;

  *time_ns = t;
  if (form)
    *form = how;
  return TRUE;
}

/**
 * tw_time_text_describe:
 * @time_ns: what tw_time_text_resolve() gave
 * @form: how it read the text
 *
 * Returns: (transfer full): what a text was read as, for the user to check while
 *   typing: "→ 1457113582.806910804 s (+12.345 ms)", and on a second line what is
 *   worth knowing about it ("before the first event; leading digits from the trace")
 */
char *
tw_time_text_describe (guint64        time_ns,
                       TwTimeTextForm form,
                       guint64        first_ns,
                       guint64        last_ns)
{
  g_autofree char *absolute = tw_time_text_format (time_ns);
  g_autofree char *offset = NULL;
  g_autoptr(GPtrArray) notes = g_ptr_array_new ();
  g_autofree char *joined = NULL;

  offset = tw_time_text_format_duration (time_ns < first_ns ? first_ns - time_ns
                                                            : time_ns - first_ns);
  if (time_ns < first_ns)
    g_ptr_array_add (notes, _("before the first event"));
  else if (time_ns > last_ns)
    g_ptr_array_add (notes, _("after the last event"));
  if (form == TW_TIME_TEXT_COMPLETED)
    g_ptr_array_add (notes, _("leading digits from the trace"));
  g_ptr_array_add (notes, NULL);
  joined = g_strjoinv ("; ", (char **) notes->pdata);

  return g_strdup_printf ("→ %s (%s%s)%s%s", absolute, time_ns < first_ns ? "−" : "+", offset,
                          joined[0] ? "\n" : "", joined);
}

/**
 * tw_time_text_format_seconds:
 *
 * Returns: (transfer full): @time_ns as the event list shows it: seconds with nine
 *   decimals and no unit, "933.349599835"
 */
char *
tw_time_text_format_seconds (guint64 time_ns)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                          time_ns / NS_PER_S, time_ns % NS_PER_S);
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
  g_autofree char *seconds = tw_time_text_format_seconds (time_ns);

  return g_strdup_printf ("%s s", seconds);
}

/**
 * tw_time_text_format_duration:
 *
 * Returns: (transfer full): @ns exactly, in the largest unit that keeps it ≥ 1, without
 *   trailing zeros: "12.345 ms", "1.5 s", "250 µs", "42 ns"
 */
char *
tw_time_text_format_duration (guint64 ns)
{
  static const struct { guint64 scale; guint decimals; const char *unit; } scales[] = {
    { NS_PER_S, 9, "s" },
    { 1000000, 6, "ms" },
    { 1000, 3, "µs" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (scales); i++)
    if (ns >= scales[i].scale)
      {
        g_autofree char *frac = g_strdup_printf ("%0*" G_GUINT64_FORMAT, (int) scales[i].decimals,
                                                 ns % scales[i].scale);
        gsize len = strlen (frac);

        while (len > 0 && frac[len - 1] == '0')
          frac[--len] = '\0';
        return g_strdup_printf ("%" G_GUINT64_FORMAT "%s%s %s", ns / scales[i].scale,
                                len > 0 ? "." : "", frac, scales[i].unit);
      }
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}
