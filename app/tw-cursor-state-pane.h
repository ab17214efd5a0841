/* tw-cursor-state-pane.h: the system's state at the cursor (meta-objects of the
 * POSIX trace based behavioural reflection, Valpereiro 2006)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_CURSOR_STATE_PANE (tw_cursor_state_pane_get_type ())
G_DECLARE_FINAL_TYPE (TwCursorStatePane, tw_cursor_state_pane, TW, CURSOR_STATE_PANE, GtkWidget)

GtkWidget *tw_cursor_state_pane_new            (void);
void       tw_cursor_state_pane_set_view_state (TwCursorStatePane *self,
                                                TwViewState       *view_state);
char      *tw_cursor_state_pane_dup_text       (TwCursorStatePane *self);

G_END_DECLS
