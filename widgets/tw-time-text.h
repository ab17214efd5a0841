/* tw-time-text.h: times as users type and read them ("1.5 s", "250ms", "42ns")
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean  tw_time_text_parse  (const char  *text,
                               guint64     *time_ns,
                               GError     **error);
char     *tw_time_text_format (guint64      time_ns);

G_END_DECLS
