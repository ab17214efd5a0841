/* test-time-text.c: parsing and formatting times users type
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <tw-time-text.h>

/* The many-threads LTTng trace (epoch ns) and the recorded ftrace trace. */
#define LTTNG_FIRST  G_GUINT64_CONSTANT (1457113582794565804)
#define LTTNG_LAST   G_GUINT64_CONSTANT (1457113583227228162)
#define FTRACE_FIRST G_GUINT64_CONSTANT (933349599835)
#define FTRACE_LAST  G_GUINT64_CONSTANT (939878529883)

/* A trace from 0 to the end of time: every text is taken as written. */
static void
test_parse_units (void)
{
  static const struct {
    const char *text;
    guint64     ns;
  } cases[] = {
    { "1.5 s", 1500000000 },
    { "250ms", 250000000 },
    { "1200 us", 1200000 },
    { "1200 µs", 1200000 },
    { "1200 μs", 1200000 },
    { "42ns", 42 },
    { "42", 42000000000 },                /* no unit: seconds, as the list shows */
    { "933.349599835", 933349599835 },
    { "  7 S ", 7000000000 },
    { "1.1 s", 1100000000 },              /* exact, no binary rounding */
    { "0.000000001 s", 1 },
    { "0.0000000019", 1 },                /* below a ns: dropped */
    { "2.5 us", 2500 },
    { ".5 ms", 500000 },
    { "3. ms", 3000000 },
    { "18446744073 s", 18446744073000000000u },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      TwTimeTextForm form = TW_TIME_TEXT_SINCE_FIRST;
      guint64 ns = 0;

      g_assert_true (tw_time_text_resolve (cases[i].text, 0, G_MAXUINT64, &ns, &form, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ns, ==, cases[i].ns);
      g_assert_cmpint (form, ==, TW_TIME_TEXT_AS_WRITTEN);
    }
}

static void
test_parse_bad (void)
{
  static const char *bad[] = { "", "s", "+", "ms 12", "1.5 sec", "-3 s", "1,5 s", "12 ks",
                               "99999999999999999999 ns", "18446744074 s", "1..2 s", "++1 s" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 ns = 12345;

      g_assert_false (tw_time_text_resolve (bad[i], LTTNG_FIRST, LTTNG_LAST, &ns, NULL, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_cmpuint (ns, ==, 12345);
    }
}

/* The error says what a time looks like on this trace. */
static void
test_error_examples (void)
{
  g_autoptr(GError) lttng = NULL;
  g_autoptr(GError) zero = NULL;
  guint64 ns;

  g_assert_false (tw_time_text_resolve ("soon", LTTNG_FIRST, LTTNG_LAST, &ns, NULL, &lttng));
  g_assert_cmpstr (lttng->message, ==,
                   "“soon” is not a time. Type one of:\n"
                   "  seconds as the list shows them: 1457113582.794565804\n"
                   "  or their last digits: 2.794565804\n"
                   "  a number and a unit: 250 ms, 1200 us, 42 ns\n"
                   "  + and a time since the first event: +1.5 ms");
  g_assert_false (tw_time_text_resolve ("soon", 1000, 5000, &ns, NULL, &zero));
  g_assert_cmpstr (zero->message, ==,
                   "“soon” is not a time. Type one of:\n"
                   "  seconds as the list shows them: 0.000001000\n"
                   "  a number and a unit: 250 ms, 1200 us, 42 ns\n"
                   "  + and a time since the first event: +1.5 ms");
}

typedef struct {
  const char     *text;
  guint64         ns;
  TwTimeTextForm  form;
} Resolved;

static void
check_resolved (const Resolved *cases,
                guint           n_cases,
                guint64         first,
                guint64         last)
{
  for (guint i = 0; i < n_cases; i++)
    {
      g_autoptr(GError) error = NULL;
      TwTimeTextForm form;
      guint64 ns = 0;

      g_test_message ("“%s”", cases[i].text);
      g_assert_true (tw_time_text_resolve (cases[i].text, first, last, &ns, &form, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ns, ==, cases[i].ns);
      g_assert_cmpint (form, ==, cases[i].form);
    }
}

/* Last digits of the list's seconds are completed from the trace's leading digits. */
static void
test_resolve_epoch (void)
{
  static const Resolved cases[] = {
    { "1457113582.794565804", 1457113582794565804u, TW_TIME_TEXT_AS_WRITTEN },
    { "1457113582.79456580", 1457113582794565800u, TW_TIME_TEXT_AS_WRITTEN },
    { "582.794565804", 1457113582794565804u, TW_TIME_TEXT_COMPLETED },
    { "2.794565804", 1457113582794565804u, TW_TIME_TEXT_COMPLETED },
    /* cut in the fraction: [.7945658, .7945659) holds the first event (…804) */
    { "2.7945658", 1457113582794565800u, TW_TIME_TEXT_COMPLETED },
    { "2.9 s", 1457113582900000000u, TW_TIME_TEXT_COMPLETED },
    { "3.1", 1457113583100000000u, TW_TIME_TEXT_COMPLETED },
    { ".9", 1457113582900000000u, TW_TIME_TEXT_COMPLETED },
    /* the list's 2.794565804 starts with 2.7 */
    { "2.7", 1457113582700000000u, TW_TIME_TEXT_COMPLETED },
    /* no time of the trace ends so: as written (before the trace) */
    { "3.3", 3300000000u, TW_TIME_TEXT_AS_WRITTEN },
    { "2.5", 2500000000u, TW_TIME_TEXT_AS_WRITTEN },
    /* other units are taken as written */
    { "2794 ms", 2794000000u, TW_TIME_TEXT_AS_WRITTEN },
    { "+12.345 ms", 1457113582806910804u, TW_TIME_TEXT_SINCE_FIRST },
    { "+ 1", 1457113583794565804u, TW_TIME_TEXT_SINCE_FIRST },
    { "+0", 1457113582794565804u, TW_TIME_TEXT_SINCE_FIRST },
  };

  check_resolved (cases, G_N_ELEMENTS (cases), LTTNG_FIRST, LTTNG_LAST);
}

static void
test_resolve_ftrace (void)
{
  static const Resolved cases[] = {
    { "935.5", 935500000000u, TW_TIME_TEXT_AS_WRITTEN },
    { "5.5", 935500000000u, TW_TIME_TEXT_COMPLETED },
    { "35.5", 935500000000u, TW_TIME_TEXT_COMPLETED },
    { "9.878529883", 939878529883u, TW_TIME_TEXT_COMPLETED },
    { "3.4", 933400000000u, TW_TIME_TEXT_COMPLETED },
    /* 933.0 is before the first event and 943.0 after the last */
    { "3.0", 3000000000u, TW_TIME_TEXT_AS_WRITTEN },
    { "+250 ms", 933599599835u, TW_TIME_TEXT_SINCE_FIRST },
  };

  check_resolved (cases, G_N_ELEMENTS (cases), FTRACE_FIRST, FTRACE_LAST);
}

/* A trace that starts at 0: nothing to complete. */
static void
test_resolve_from_zero (void)
{
  static const Resolved cases[] = {
    { "5", 5000000000u, TW_TIME_TEXT_AS_WRITTEN },
    { "0.000002", 2000, TW_TIME_TEXT_AS_WRITTEN },
    { "+2 us", 3000, TW_TIME_TEXT_SINCE_FIRST },
  };

  check_resolved (cases, G_N_ELEMENTS (cases), 1000, 40100);
}

static void
test_describe (void)
{
  g_autofree char *inside = tw_time_text_describe (1457113582806910804u, TW_TIME_TEXT_SINCE_FIRST,
                                                   LTTNG_FIRST, LTTNG_LAST);
  g_autofree char *completed = tw_time_text_describe (1457113582794565800u, TW_TIME_TEXT_COMPLETED,
                                                      LTTNG_FIRST, LTTNG_LAST);
  g_autofree char *before = tw_time_text_describe (3000000000u, TW_TIME_TEXT_AS_WRITTEN,
                                                   FTRACE_FIRST, FTRACE_LAST);
  g_autofree char *after = tw_time_text_describe (940000000000u, TW_TIME_TEXT_AS_WRITTEN,
                                                  FTRACE_FIRST, FTRACE_LAST);

  g_assert_cmpstr (inside, ==, "→ 1457113582.806910804 s (+12.345 ms)");
  g_assert_cmpstr (completed, ==, "→ 1457113582.794565800 s (−4 ns)\n"
                                  "before the first event; leading digits from the trace");
  g_assert_cmpstr (before, ==, "→ 3.000000000 s (−930.349599835 s)\nbefore the first event");
  g_assert_cmpstr (after, ==, "→ 940.000000000 s (+6.650400165 s)\nafter the last event");
}

static void
test_format (void)
{
  g_autofree char *a = tw_time_text_format (0);
  g_autofree char *b = tw_time_text_format (12000345678);
  g_autofree char *c = tw_time_text_format (1);
  g_autofree char *s = tw_time_text_format_seconds (LTTNG_FIRST);
  guint64 back = 0;

  g_assert_cmpstr (a, ==, "0.000000000 s");
  g_assert_cmpstr (b, ==, "12.000345678 s");
  g_assert_cmpstr (c, ==, "0.000000001 s");
  g_assert_cmpstr (s, ==, "1457113582.794565804");
  g_assert_true (tw_time_text_resolve (b, 0, G_MAXUINT64, &back, NULL, NULL));
  g_assert_cmpuint (back, ==, 12000345678);
}

static void
test_format_duration (void)
{
  static const struct {
    guint64     ns;
    const char *text;
  } cases[] = {
    { 0, "0 ns" },
    { 42, "42 ns" },
    { 1500, "1.5 µs" },
    { 12345000, "12.345 ms" },
    { 432662358, "432.662358 ms" },
    { 1000000000, "1 s" },
    { 930349599835, "930.349599835 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = tw_time_text_format_duration (cases[i].ns);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/widgets/time-text/parse-units", test_parse_units);
  g_test_add_func ("/tw/widgets/time-text/parse-bad", test_parse_bad);
  g_test_add_func ("/tw/widgets/time-text/error-examples", test_error_examples);
  g_test_add_func ("/tw/widgets/time-text/resolve-epoch", test_resolve_epoch);
  g_test_add_func ("/tw/widgets/time-text/resolve-ftrace", test_resolve_ftrace);
  g_test_add_func ("/tw/widgets/time-text/resolve-from-zero", test_resolve_from_zero);
  g_test_add_func ("/tw/widgets/time-text/describe", test_describe);
  g_test_add_func ("/tw/widgets/time-text/format", test_format);
  g_test_add_func ("/tw/widgets/time-text/format-duration", test_format_duration);

  return g_test_run ();
}
