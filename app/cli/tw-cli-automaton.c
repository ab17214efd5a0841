/* tw-cli-automaton.c: `tracewb-cli automaton check|export-c`: metric automaton files
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <tw-evaluators.h>

#include "tw-cli.h"

static int
automaton_check (int    argc,
                 char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("A.json — list every design error of an automaton file");
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  GError *error = NULL;

  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2)
    {
      g_printerr ("usage: tracewb-cli automaton check A.json\n");
      return 2;
    }
  if (!(automaton = tw_automaton_load (argv[1], &error)))
    return tw_cli_fail ("automaton check", error);
  problems = tw_automaton_validate (automaton);
  for (guint i = 0; i < problems->len; i++)
    {
      const TwAutomatonProblem *p = g_ptr_array_index (problems, i);

      g_print ("%s: state “%s”: %s\n", argv[1], p->state_id ? p->state_id : "", p->message);
    }
  if (problems->len > 0)
    return 1;
  g_print ("ok\n");
  return 0;
}

/* The compiler's warnings and errors go to stderr, as a compiler's would. */
static gboolean
build_module_cli (const char  *source,
                  const char  *output,
                  GError     **error)
{
  g_autofree char *messages = NULL;
  gboolean ok = tw_automaton_codegen_build (source, output, &messages, error);

  if (messages && messages[0])
    fputs (messages, stderr);
  return ok;
}

static char *
dup_module_path (const char *source)
{
  g_autofree char *stem = g_str_has_suffix (source, ".c")
                          ? g_strndup (source, strlen (source) - 2) : g_strdup (source);

  return g_strconcat (stem, ".so", NULL);
}

static int
automaton_export_c (int    argc,
                    char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("A.json — write the automaton as a C evaluation module");
  g_autoptr(TwAutomaton) automaton = NULL;
  g_autofree char *output = NULL;
  g_autofree char *source = NULL;
  g_autofree char *module = NULL;
  gboolean build = FALSE;
  GError *error = NULL;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The C file to write", "A.c" },
    { "build", 0, 0, G_OPTION_ARG_NONE, &build,
      "Also compile it to A.so with $CC or cc (tw-evaluator.h from pkg-config "
      "tracewb-evaluator, else from the source tree)", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2 || output == NULL)
    {
      g_printerr ("usage: tracewb-cli automaton export-c A.json -o A.c [--build]\n");
      return 2;
    }
  if (!(automaton = tw_automaton_load (argv[1], &error)))
    return tw_cli_fail ("automaton export-c", error);
  if (!(source = tw_automaton_codegen_generate (automaton, NULL, NULL, &error)))
    {
      g_prefix_error (&error, "%s: ", argv[1]);
      return tw_cli_fail ("automaton export-c", error);
    }
  if (!g_file_set_contents (output, source, -1, &error))
    return tw_cli_fail ("automaton export-c", error);
  if (!build)
    return 0;
  module = dup_module_path (output);
  if (!build_module_cli (output, module, &error))
    return tw_cli_fail ("automaton export-c", error);
  g_print ("%s\n", module);
  return 0;
}

int
tw_cli_automaton (int    argc,
                  char **argv)
{
  if (argc >= 2 && strcmp (argv[1], "check") == 0)
    return automaton_check (argc - 1, argv + 1);
  if (argc >= 2 && strcmp (argv[1], "export-c") == 0)
    return automaton_export_c (argc - 1, argv + 1);
  g_printerr ("usage: tracewb-cli automaton check A.json\n"
              "       tracewb-cli automaton export-c A.json -o A.c [--build]\n");
  return argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0) ? 0 : 2;
}
