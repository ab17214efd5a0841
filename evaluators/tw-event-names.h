/* tw-event-names.h: event names users type, checked against a trace's type table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/**
 * TwEventNameSyntax:
 * @TW_EVENT_NAME_RAW: a type name as the trace spells it (`tracewb-cli events --type`)
 * @TW_EVENT_NAME_SELECTOR: a type name or `kind:NAME` (metrics, updates, modules)
 * @TW_EVENT_NAME_LABEL: a type name or a bare kind name (automaton labels)
 *
 * The ways a user names events; suggestions are spelled the way the name was asked in.
 */
typedef enum {
  TW_EVENT_NAME_RAW,
  TW_EVENT_NAME_SELECTOR,
  TW_EVENT_NAME_LABEL,
} TwEventNameSyntax;

gboolean  tw_event_names_is_known         (TwTrace            *trace,
                                           const char         *name,
                                           TwEventNameSyntax   syntax);
GStrv     tw_event_names_dup_all          (TwTrace            *trace,
                                           TwEventNameSyntax   syntax);
GStrv     tw_event_names_dup_closest      (TwTrace            *trace,
                                           const char         *name,
                                           TwEventNameSyntax   syntax,
                                           guint               max_names);
char     *tw_event_names_dup_unknown_text (TwTrace            *trace,
                                           const char         *name,
                                           TwEventNameSyntax   syntax);
char     *tw_event_names_check            (TwTrace            *trace,
                                           const char *const  *names,
                                           TwEventNameSyntax   syntax);
gboolean  tw_event_names_contain_text     (TwTrace            *trace,
                                           const char         *text,
                                           TwEventNameSyntax   syntax);

G_END_DECLS
