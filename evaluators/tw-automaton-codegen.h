/* tw-automaton-codegen.h: a metric automaton as a C evaluation module (tw-evaluator.h)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "tw-automaton.h"

G_BEGIN_DECLS

char     *tw_automaton_codegen_generate (TwAutomaton   *automaton,
                                         const char    *entry_symbol,
                                         const char    *prefix,
                                         GError       **error);
gboolean  tw_automaton_codegen_write    (TwAutomaton   *automaton,
                                         GOutputStream *stream,
                                         GCancellable  *cancellable,
                                         GError       **error);
gboolean  tw_automaton_codegen_needs_all_events (TwAutomaton *automaton);
gboolean  tw_automaton_codegen_build   (const char    *source,
                                        const char    *output,
                                        char         **messages,
                                        GError       **error);

G_END_DECLS
