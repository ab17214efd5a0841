/* tw-time-text.h: times as users type and read them ("933.512", "2.79", "+250 ms")
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * TwTimeTextForm:
 * @TW_TIME_TEXT_AS_WRITTEN: a time in the trace's time base, as the list shows it
 * @TW_TIME_TEXT_COMPLETED: the last digits of the list's seconds; the leading ones
 *   came from the trace
 * @TW_TIME_TEXT_SINCE_FIRST: "+" a time since the trace's first event
 *
 * How tw_time_text_resolve() read a text.
 */
typedef enum {
  TW_TIME_TEXT_AS_WRITTEN,
  TW_TIME_TEXT_COMPLETED,
  TW_TIME_TEXT_SINCE_FIRST,
} TwTimeTextForm;

gboolean  tw_time_text_resolve         (const char      *text,
                                        guint64          first_ns,
                                        guint64          last_ns,
                                        guint64         *time_ns,
                                        TwTimeTextForm  *form,
                                        GError         **error);
char     *tw_time_text_describe        (guint64          time_ns,
                                        TwTimeTextForm   form,
                                        guint64          first_ns,
                                        guint64          last_ns);
char     *tw_time_text_format          (guint64          time_ns);
char     *tw_time_text_format_seconds  (guint64          time_ns);
char     *tw_time_text_format_duration (guint64          ns);

G_END_DECLS
