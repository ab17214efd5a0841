/* tw-tab-name.h: tab labels a user can tell apart
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

char *tw_tab_name_dup_unique (GtkNotebook *notebook,
                              const char  *name);

G_END_DECLS
