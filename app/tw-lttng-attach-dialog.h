/* tw-lttng-attach-dialog.h: File ▸ Attach to LTTng…: a relay's sessions, one to attach to
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define TW_TYPE_LTTNG_ATTACH_DIALOG (tw_lttng_attach_dialog_get_type ())
G_DECLARE_FINAL_TYPE (TwLttngAttachDialog, tw_lttng_attach_dialog, TW, LTTNG_ATTACH_DIALOG, GtkWindow)

TwLttngAttachDialog *tw_lttng_attach_dialog_new           (GtkWindow           *parent);
void                 tw_lttng_attach_dialog_list          (TwLttngAttachDialog *self,
                                                           const char          *relay_url);
guint                tw_lttng_attach_dialog_get_n_sessions (TwLttngAttachDialog *self);
gboolean             tw_lttng_attach_dialog_select        (TwLttngAttachDialog *self,
                                                           guint                index,
                                                           gboolean             checked);
const char          *tw_lttng_attach_dialog_get_status    (TwLttngAttachDialog *self);

G_END_DECLS
