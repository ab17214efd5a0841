/* tw-details-pane.h: every field of the selected event
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-widgets.h>

G_BEGIN_DECLS

#define TW_TYPE_DETAILS_PANE (tw_details_pane_get_type ())
G_DECLARE_FINAL_TYPE (TwDetailsPane, tw_details_pane, TW, DETAILS_PANE, GtkWidget)

GtkWidget   *tw_details_pane_new            (void);
void         tw_details_pane_set_view_state (TwDetailsPane *self,
                                             TwViewState   *view_state);
char        *tw_details_pane_dup_text       (TwDetailsPane *self);

G_END_DECLS
