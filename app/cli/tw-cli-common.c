/* tw-cli-common.c: what the sub-commands share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <tw-ingest.h>

#include "tw-cli.h"

static void
print_progress (double   fraction,
                gpointer user_data)
{
  /* Only a terminal wants a progress line; pipes and tests get clean output. */
  fprintf (stderr, "\rloading %3.0f%%", fraction * 100.0);
  if (fraction >= 1.0)
    fprintf (stderr, "\r              \r");
}

/**
 * tw_cli_load_trace:
 * @format: (nullable): a reader name, or %NULL to probe
 *
 * Returns: (transfer full) (nullable): the sealed trace
 */
TwTrace *
tw_cli_load_trace (const char  *path,
                   const char  *format,
                   GError     **error)
{
  gboolean tty = isatty (fileno (stderr));
  TwTrace *trace = tw_reader_registry_load_file_full (path, format,
                                                      TW_LOAD_OUT_OF_PROCESS | TW_LOAD_USE_CACHE,
                                                      tty ? print_progress : NULL, NULL, NULL,
                                                      error);
  g_autofree char *skipped = NULL;
  g_autofree char *first = NULL;

  if (trace && tw_reader_registry_get_cache_note (trace))
    g_printerr ("tracewb-cli: %s: %s\n", path, tw_reader_registry_get_cache_note (trace));
  /* readers that tolerate bad lines say so in metadata; users must hear about it */
  if (trace && (skipped = tw_trace_dup_metadata (trace, "skipped_lines")))
    {
      first = tw_trace_dup_metadata (trace, "first_skipped_line");
      g_printerr ("tracewb-cli: %s: %s lines skipped%s%s%s\n", path, skipped,
                  first ? " (first: line " : "", first ? first : "", first ? ")" : "");
    }
  return trace;
}

gboolean
tw_cli_parse_options (GOptionContext   *context,
                      int              *argc,
                      char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      g_printerr ("tracewb-cli: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * tw_cli_fail:
 * @error: (transfer full): what went wrong
 *
 * Returns: the exit status for a failed command
 */
int
tw_cli_fail (const char *command,
             GError     *error)
{
  g_printerr ("tracewb-cli %s: %s\n", command, error->message);
  g_error_free (error);
  return 1;
}
