/* tw-wrap-box.h: a row of children that wraps onto further lines when narrow
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TW_TYPE_WRAP_BOX (tw_wrap_box_get_type ())
G_DECLARE_FINAL_TYPE (TwWrapBox, tw_wrap_box, TW, WRAP_BOX, GtkWidget)

GtkWidget *tw_wrap_box_new        (int         spacing);
void       tw_wrap_box_append     (TwWrapBox  *self,
                                   GtkWidget  *child);
guint      tw_wrap_box_get_n_lines (TwWrapBox *self);

G_END_DECLS
