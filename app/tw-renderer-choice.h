/* tw-renderer-choice.h: the cairo renderer when GTK's GL one would run in software
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

gboolean tw_renderer_choice_is_software_gl (const char *gl_renderer);
gboolean tw_renderer_choice_apply          (GdkDisplay *display);

G_END_DECLS
