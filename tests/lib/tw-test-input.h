/* tw-test-input.h: real keys and pointer for the GUI test programs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/*
 * Tests that say "the user pressed n with the focus on the Events tab" must go through
 * what a user goes through: the X server, GTK's event delivery, every controller on the
 * way. xdotool sends the keys and pointer events through the XTEST extension of the
 * Xvfb the tests run in; the helpers then wait until the window has handled them.
 * Coordinates are in @widget's own pixels.
 */

static inline gboolean
tw_test_input_available (void)
{
#ifdef GDK_WINDOWING_X11
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");

  return xdotool != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ());
#else
  return FALSE;
#endif
}

/* Skips the test (returning TRUE) where real input cannot be sent. */
static inline gboolean
tw_test_input_skip (void)
{
  if (tw_test_input_available ())
    return FALSE;
  g_test_skip ("real input needs an X11 display (xvfb-run) and xdotool (.ci/packages.txt)");
  return TRUE;
}

/* Lets the window handle everything the X server has for it. */
static inline void
tw_test_input_flush (void)
{
  gint64 deadline = g_get_monotonic_time () + 150 * 1000;

  gdk_display_sync (gdk_display_get_default ());
  while (g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (2000);
}

static inline void
tw_test_input_xdotool (const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (gpointer) "xdotool");
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  tw_test_input_flush ();
}

#ifdef GDK_WINDOWING_X11
static inline char *
tw_test_input_dup_xid (GtkWidget *widget)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (widget));

  return g_strdup_printf ("%lu", (gulong) gdk_x11_surface_get_xid (surface));
}
#endif

/* Gives @widget's window the X input focus (no window manager runs under Xvfb). */
static inline void
tw_test_input_focus_window (GtkWidget *widget)
{
#ifdef GDK_WINDOWING_X11
  g_autofree char *xid = tw_test_input_dup_xid (widget);
  const char *args[] = { "windowfocus", "--sync", xid, NULL };

  tw_test_input_xdotool (args);
#endif
}

/* Presses @keys (xdotool's names: "n", "ctrl+plus", "Escape", "Page_Down") one after
 * the other, with the focus wherever the window has it now. */
static inline void
tw_test_input_keys (GtkWidget  *widget,
                    const char *keys)
{
  g_auto(GStrv) split = g_strsplit (keys, " ", -1);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  tw_test_input_focus_window (widget);
  g_ptr_array_add (args, (gpointer) "key");
  g_ptr_array_add (args, (gpointer) "--clearmodifiers");
  for (guint i = 0; split[i]; i++)
    g_ptr_array_add (args, split[i]);
  g_ptr_array_add (args, NULL);
  tw_test_input_xdotool ((const char * const *) args->pdata);
}

/* Where @x, @y of @widget lie in its X window. */
static inline void
tw_test_input_window_point (GtkWidget *widget,
                            double     x,
                            double     y,
                            char     **wx,
                            char     **wy)
{
  GtkNative *native = gtk_widget_get_native (widget);
  double nx, ny, sx, sy;

  g_assert_true (gtk_widget_translate_coordinates (widget, GTK_WIDGET (native), x, y, &nx, &ny));
  gtk_native_get_surface_transform (native, &sx, &sy);
  *wx = g_strdup_printf ("%d", (int) (nx + sx));
  *wy = g_strdup_printf ("%d", (int) (ny + sy));
}

static inline void
tw_test_input_move (GtkWidget *widget,
                    double     x,
                    double     y)
{
#ifdef GDK_WINDOWING_X11
  g_autofree char *xid = tw_test_input_dup_xid (widget);
  g_autofree char *wx = NULL;
  g_autofree char *wy = NULL;

  tw_test_input_window_point (widget, x, y, &wx, &wy);
  {
    const char *args[] = { "mousemove", "--sync", "--window", xid, wx, wy, NULL };
    tw_test_input_xdotool (args);
  }
#endif
}

/* Clicks @button @count times (1 left, 3 right; 4/5 are wheel notches up/down, 6/7
 * left/right) at @x, @y, with @modifier ("ctrl", "shift") held, or none when %NULL. */
static inline void
tw_test_input_clicks (GtkWidget  *widget,
                      double      x,
                      double      y,
                      int         button,
                      guint       count,
                      const char *modifier)
{
  g_autofree char *b = g_strdup_printf ("%d", button);
  g_autofree char *n = g_strdup_printf ("%u", count);

  tw_test_input_move (widget, x, y);
  if (modifier)
    {
      const char *args[] = { "keydown", modifier, "click", "--repeat", n, "--delay", "20", b,
                             "keyup", modifier, NULL };
      tw_test_input_xdotool (args);
    }
  else
    {
      const char *args[] = { "click", "--repeat", n, "--delay", "20", b, NULL };
      tw_test_input_xdotool (args);
    }
}

static inline void
tw_test_input_click (GtkWidget  *widget,
                     double      x,
                     double      y,
                     int         button,
                     const char *modifier)
{
  tw_test_input_clicks (widget, x, y, button, 1, modifier);
}

/* Drags with the left button from (@x1, @y1) to (@x2, @y2) in a few steps. */
static inline void
tw_test_input_drag (GtkWidget *widget,
                    double     x1,
                    double     y1,
                    double     x2,
                    double     y2)
{
  const char *down[] = { "mousedown", "1", NULL };
  const char *up[] = { "mouseup", "1", NULL };

  tw_test_input_move (widget, x1, y1);
  tw_test_input_xdotool (down);
  for (int step = 1; step <= 4; step++)
    tw_test_input_move (widget, x1 + (x2 - x1) * step / 4, y1 + (y2 - y1) * step / 4);
  tw_test_input_xdotool (up);
}
