/* test-cli-render.c: `tracewb-cli render`, which runs in tracewb-render, and the CLI
 * that no longer loads GTK
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gdk-pixbuf/gdk-pixbuf.h>
#include <string.h>
#include <unistd.h>

#include "tw-test-utils.h"

static guint32
read_be32 (const guint8 *p)
{
  return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | p[3];
}

/* A PNG of the asked size, drawn: the timeline and its legend take many colours. */
static void
test_png (void)
{
  g_autofree char *trace = tw_test_dup_fixture_path ("trace-dat/sched-irq-v7.dat");
  g_autofree char *png = g_build_filename (tw_test_get_private_dir (), "timeline.png", NULL);
  const char *const args[] = { "render", trace, "-o", png, "--width", "800", "--height", "500", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree guint8 *data = NULL;
  gsize len;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (png, (char **) &data, &len, NULL));
  g_assert_cmpuint (len, >, 5000);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  g_assert_cmpmem (data + 12, 4, "IHDR", 4);
  g_assert_cmpuint (read_be32 (data + 16), ==, 800);
  g_assert_cmpuint (read_be32 (data + 20), ==, 500);
}

static void
test_svg (void)
{
  g_autofree char *trace = tw_test_dup_fixture_path ("ftrace/tracefs-sched-irq.txt");
  g_autofree char *svg = g_build_filename (tw_test_get_private_dir (), "timeline.svg", NULL);
  const char *const args[] = { "render", trace, "-o", svg, "--no-legend", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *text = NULL;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_true (g_file_get_contents (svg, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, "<svg"));
  g_assert_nonnull (strstr (text, "width=\"1920\""));
}

/* Errors keep their exit statuses and words through the exec. */
static void
test_errors (void)
{
  g_autofree char *missing = g_build_filename (tw_test_get_private_dir (), "none.dat", NULL);
  const char *const no_file[] = { "render", missing, "-o", "x.png", NULL };
  const char *const usage[] = { "render", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  tw_test_run_cli_or_fail (no_file, &out, &err, &status);
  g_assert_cmpint (status, ==, 1);
  g_assert_true (g_str_has_prefix (err, "tracewb-cli render: "));
  g_assert_nonnull (strstr (err, missing));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  tw_test_run_cli_or_fail (usage, &out, &err, &status);
  g_assert_cmpint (status, ==, 2);
  g_assert_true (g_str_has_prefix (err, "usage: tracewb-cli render FILE"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a missing drawing program is said, naming where it was looked for */
  g_setenv ("TRACEWB_RENDER_HELPER", "/nonexistent/tracewb-render", TRUE);
  tw_test_run_cli_or_fail (usage, &out, &err, &status);
  g_unsetenv ("TRACEWB_RENDER_HELPER");
  g_assert_cmpint (status, ==, 1);
  g_assert_cmpstr (err, ==, "tracewb-cli render: TRACEWB_RENDER_HELPER=/nonexistent/tracewb-render: "
                            "no such program\n");
}

/* The dynamic loader's list of what a command loads (LD_DEBUG=libs, on stderr) */
static char *
libraries_loaded_by (const char *const *args)
{
  g_autofree char *out = NULL;
  char *err = NULL;
  int status;

  g_setenv ("LD_DEBUG", "libs", TRUE);
  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_unsetenv ("LD_DEBUG");
  return err;
}

/* tracewb-cli starts without GTK's libraries; render loads them (which shows the loader's
 * list would name them). */
static void
test_gtk_only_for_render (void)
{
  const char *const version[] = { "--version", NULL };
  const char *const render[] = { "render", NULL };
  g_autofree char *cli_libs = libraries_loaded_by (version);
  g_autofree char *render_libs = libraries_loaded_by (render);

  g_assert_nonnull (strstr (cli_libs, "libglib-2.0.so"));
  g_assert_null (strstr (cli_libs, "libgtk-4.so"));
  g_assert_nonnull (strstr (render_libs, "libgtk-4.so"));
}

/* The last event time `tracewb-cli info` gives for @path. */
static guint64
last_time_of (const char *path)
{
  const char *const args[] = { "info", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *line;
  int status;

  tw_test_run_cli_or_fail (args, &out, &err, &status);
  g_assert_cmpint (status, ==, 0);
  line = strstr (out, "\nlast ");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\nlast "), NULL, 10);
}

/* A folder of two machines' traces, lager's ending weeks before qemu0's, drawn around
 * lager's end: past it no row shows a task's colour (before, the task lager's trace
 * left running filled its rows up to qemu0's end). Rows, grid and text are greys. */
static void
test_host_end (void)
{
  static const char *const names[] = { "ctf/lttng-kernel-bug446190/trace",
                                       "ctf/lttng-kernel-flipping-endianness/trace" };
  static const char *const hosts[] = { "lager", "qemu0" };
  g_autofree char *folder = g_build_filename (tw_test_get_private_dir (), "two-hosts", NULL);
  g_autofree char *png = g_build_filename (tw_test_get_private_dir (), "host-end.png", NULL);
  g_autofree char *lager = tw_test_dup_shared_trace_path (names[0]);
  g_autofree char *from = NULL, *to = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GdkPixbuf) pixbuf = NULL;
  g_autoptr(GError) error = NULL;
  const int width = 1200, height = 800, labels = 200;
  guint64 end;
  guint coloured = 0, coloured_before = 0;
  int status;

  if (lager == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tw_test_dup_shared_trace_path (names[i]);
      g_autofree char *link = g_build_filename (folder, hosts[i], NULL);

      g_assert_cmpint (symlink (path, link), ==, 0);
    }
  end = last_time_of (lager);
  from = g_strdup_printf ("--from=%" G_GUINT64_FORMAT, end - 2 * G_GUINT64_CONSTANT (1000000000));
  to = g_strdup_printf ("--to=%" G_GUINT64_FORMAT, end + 2 * G_GUINT64_CONSTANT (1000000000));
  {
    const char *const args[] = { "render", folder, "-o", png, from, to, "--width", "1200",
                                 "--height", "800", "--no-legend", NULL };

    tw_test_run_cli_or_fail (args, &out, &err, &status);
  }
  g_assert_cmpint (status, ==, 0);
  pixbuf = gdk_pixbuf_new_from_file (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_pixbuf_get_width (pixbuf), ==, width);

  /* lager's end is the middle of the rows area; below the time ruler */
  for (int y = 40; y < height; y++)
    for (int x = labels + 10; x < width - 5; x++)
      {
        const guint8 *p = gdk_pixbuf_get_pixels (pixbuf) + y * gdk_pixbuf_get_rowstride (pixbuf)
                          + x * gdk_pixbuf_get_n_channels (pixbuf);
        gboolean colour = MAX (MAX (p[0], p[1]), p[2]) - MIN (MIN (p[0], p[1]), p[2]) > 40;

        if (x < labels + (width - labels) / 2 - 5)
          coloured_before += colour;
        else if (x > labels + (width - labels) / 2 + 5)
          coloured += colour;
      }
  g_assert_cmpuint (coloured_before, >, 100);
  g_assert_cmpuint (coloured, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-render/png", test_png);
  g_test_add_func ("/cli-render/svg", test_svg);
  g_test_add_func ("/cli-render/host-end", test_host_end);
  g_test_add_func ("/cli-render/errors", test_errors);
  g_test_add_func ("/cli-render/gtk-only-for-render", test_gtk_only_for_render);
  return g_test_run ();
}
