/* tw-renderer-choice.c: the cairo renderer when GTK's GL one would run in software
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Without a GPU (virtual machines, remote X, CI), Mesa rasterizes GL in software and
 * GTK's GL renderer then costs more than everything else the window does: the live
 * window spent 7.2 s of CPU in 4.2 s with it and 0.40 s with the cairo renderer, and its
 * commit-to-histogram latency went from 45–54 ms to 23 ms median (docs/live.md). So
 * before the first window, when the user did not choose with GSK_RENDERER, a GL context
 * is asked what renders it, and a software one selects the cairo renderer. GSK reads
 * GSK_RENDERER once, when it makes its first renderer, which is why this runs first.
 */
#include "config.h"

#include "tw-renderer-choice.h"

#include <epoxy/gl.h>
#include <string.h>

/**
 * tw_renderer_choice_is_software_gl:
 * @gl_renderer: what glGetString (GL_RENDERER) says
 *
 * Returns: whether it names one of Mesa's software rasterizers
 */
gboolean
tw_renderer_choice_is_software_gl (const char *gl_renderer)
{
  static const char *const software[] = { "llvmpipe", "softpipe", "swrast", "software rasterizer" };
  g_autofree char *lower = NULL;

  g_return_val_if_fail (gl_renderer != NULL, FALSE);

  lower = g_ascii_strdown (gl_renderer, -1);
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (lower, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/**
 * tw_renderer_choice_apply:
 *
 * Sets GSK_RENDERER=cairo when it is unset and @display's GL is rendered in software.
 * Call before the first window is realized.
 *
 * Returns: whether it chose the cairo renderer
 */
gboolean
tw_renderer_choice_apply (GdkDisplay *display)
{
  g_autoptr(GdkGLContext) context = NULL;
  const char *renderer;
  gboolean software;

  g_return_val_if_fail (GDK_IS_DISPLAY (display), FALSE);

  if (g_getenv ("GSK_RENDERER") != NULL)
    return FALSE;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return FALSE;
  gdk_gl_context_make_current (context);
  renderer = (const char *) glGetString (GL_RENDERER);
  software = renderer != NULL && tw_renderer_choice_is_software_gl (renderer);
  gdk_gl_context_clear_current ();
  if (software)
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
  return software;
}
