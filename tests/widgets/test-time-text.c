/* test-time-text.c: parsing and formatting times users type
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <tw-time-text.h>

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
    { "42ns", 42 },
    { "42", 42 },
    { "  7 S ", 7000000000 },
    { "1.1 s", 1100000000 },              /* exact, no binary rounding */
    { "0.000000001 s", 1 },
    { "0.0000000019 s", 1 },              /* below a ns: dropped */
    { "2.5 us", 2500 },
    { ".5 ms", 500000 },
    { "3. ms", 3000000 },
    { "18446744073 s", 18446744073000000000u },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 ns = 0;

      g_assert_true (tw_time_text_parse (cases[i].text, &ns, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (ns, ==, cases[i].ns);
    }
}

static void
test_parse_bad (void)
{
  static const char *bad[] = { "", "s", "ms 12", "1.5 sec", "-3 s", "1,5 s", "12 ks",
                               "99999999999999999999 ns", "18446744074 s", "1..2 s" };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 ns = 12345;

      g_assert_false (tw_time_text_parse (bad[i], &ns, &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, bad[i]));
      g_assert_cmpuint (ns, ==, 12345);
    }
}

static void
test_format (void)
{
  g_autofree char *a = tw_time_text_format (0);
  g_autofree char *b = tw_time_text_format (12000345678);
  g_autofree char *c = tw_time_text_format (1);
  guint64 back = 0;

  g_assert_cmpstr (a, ==, "0.000000000 s");
  g_assert_cmpstr (b, ==, "12.000345678 s");
  g_assert_cmpstr (c, ==, "0.000000001 s");
  g_assert_true (tw_time_text_parse (b, &back, NULL));
  g_assert_cmpuint (back, ==, 12000345678);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/widgets/time-text/parse-units", test_parse_units);
  g_test_add_func ("/tw/widgets/time-text/parse-bad", test_parse_bad);
  g_test_add_func ("/tw/widgets/time-text/format", test_format);

  return g_test_run ();
}
