/* tw-cli.h: the sub-commands of tracewb-cli
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/* Each sub-command gets argv with argv[0] = its own name and returns the exit status. */
int tw_cli_info (int argc, char **argv);
int tw_cli_events (int argc, char **argv);
#if HAVE_GUI
/* in tracewb-render only (tracewb-cli execs it: tw-cli-render-launch.c) */
int tw_cli_render (int argc, char **argv);
int tw_cli_render_launch (int argc, char **argv);
#endif
int tw_cli_jcs (int argc, char **argv);
int tw_cli_convert (int argc, char **argv);
int tw_cli_simulate (int argc, char **argv);
int tw_cli_eval (int argc, char **argv);
int tw_cli_compare (int argc, char **argv);
int tw_cli_explain (int argc, char **argv);
int tw_cli_calibrate (int argc, char **argv);
int tw_cli_metrics (int argc, char **argv);
int tw_cli_automaton (int argc, char **argv);
int tw_cli_monitor (int argc, char **argv);
int tw_cli_cache (int argc, char **argv);

/* shared helpers */
TwTrace *tw_cli_load_trace (const char  *path,
                            const char  *format,
                            GError     **error);
gboolean tw_cli_parse_options (GOptionContext *context,
                               int            *argc,
                               char         ***argv);
int      tw_cli_fail       (const char  *command,
                            GError      *error);

G_END_DECLS
