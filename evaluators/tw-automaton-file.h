/* tw-automaton-file.h: reading and writing metric automata as JSON files
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-automaton.h"

G_BEGIN_DECLS

#define TW_AUTOMATON_FILE_VERSION 1

typedef enum {
  TW_AUTOMATON_FILE_ERROR_SYNTAX,   /* not JSON */
  TW_AUTOMATON_FILE_ERROR_VERSION,  /* not a version this build reads */
  TW_AUTOMATON_FILE_ERROR_MISSING,  /* a required member is absent */
  TW_AUTOMATON_FILE_ERROR_TYPE,     /* a member has the wrong JSON type */
  TW_AUTOMATON_FILE_ERROR_VALUE,    /* a member has a value out of its set */
} TwAutomatonFileError;

#define TW_AUTOMATON_FILE_ERROR (tw_automaton_file_error_quark ())
GQuark tw_automaton_file_error_quark (void);

TwAutomaton *tw_automaton_load_from_data (const char   *data,
                                          gssize        length,
                                          const char   *display_name,
                                          GError      **error);
TwAutomaton *tw_automaton_load           (const char   *path,
                                          GError      **error);
char        *tw_automaton_to_data        (TwAutomaton  *automaton,
                                          gsize        *length);
gboolean     tw_automaton_save           (TwAutomaton  *automaton,
                                          const char   *path,
                                          GError      **error);

G_END_DECLS
