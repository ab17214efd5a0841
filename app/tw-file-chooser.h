/* tw-file-chooser.h: ask for a file to open or save, and hear back with its path
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Called once, when the user accepted a local file; not at all when they cancelled. */
typedef void (*TwFileChosenFunc) (GtkWidget  *owner,
                                  const char *path,
                                  gpointer    user_data);

GtkFileChooserNative *tw_file_chooser_new        (GtkWidget            *owner,
                                                  GtkFileChooserAction  action,
                                                  const char           *title,
                                                  const char           *accept_label,
                                                  TwFileChosenFunc      chosen,
                                                  gpointer              user_data,
                                                  GDestroyNotify        destroy);
void                  tw_file_chooser_add_filter (GtkFileChooserNative *dialog,
                                                  const char           *name,
                                                  const char           *suffix);
GtkFileFilter        *tw_file_chooser_new_trace_filter (void);

G_END_DECLS
