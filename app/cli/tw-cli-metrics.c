/* tw-cli-metrics.c: `tracewb-cli metrics`: the metrics offered by name and what they need
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-cli.h"

int
tw_cli_metrics (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("[FILE] — list the system metrics, or the events one requires");
  g_autofree char *required = NULL;
  g_autofree char *format = NULL;
  const GOptionEntry entries[] = {
    { "required", 'r', 0, G_OPTION_ARG_STRING, &required,
      "Print the events METRIC requires (the types of FILE, or the selectors)", "METRIC" },
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Reader to use instead of probing", "NAME" },
    { NULL }
  };
  GListModel *factories = tw_evaluator_factory_list_registered ();
  GError *error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc > 2 || (argc == 2 && required == NULL))
    {
      g_printerr ("usage: tracewb-cli metrics [--required METRIC [FILE]]\n");
      return 2;
    }

  if (required != NULL)
    {
      g_autoptr(TwEvaluator) evaluator = tw_evaluator_factory_create_for_spec (required, &error);
      g_autoptr(TwTrace) trace = NULL;
      g_auto(GStrv) events = NULL;

      if (evaluator == NULL)
        return tw_cli_fail ("metrics", error);
      if (argc == 2 && !(trace = tw_cli_load_trace (argv[1], format, &error)))
        return tw_cli_fail ("metrics", error);
      if (trace && !tw_evaluator_check (evaluator, trace, &error))
        {
          g_prefix_error (&error, "%s: ", argv[1]);
          return tw_cli_fail ("metrics", error);
        }
      events = tw_evaluator_dup_required_events (evaluator, trace);
      for (guint i = 0; events[i]; i++)
        g_print ("%s\n", events[i]);
      return 0;
    }

  for (guint i = 0; i < g_list_model_get_n_items (factories); i++)
    {
      g_autoptr(TwEvaluatorFactory) factory = g_list_model_get_item (factories, i);
      const char *parameter = tw_evaluator_factory_get_parameter (factory);
      g_autofree char *name = parameter
                              ? g_strdup_printf ("%s:%s", tw_evaluator_factory_get_name (factory),
                                                 parameter)
                              : g_strdup (tw_evaluator_factory_get_name (factory));

      g_print ("%-28s %s\n", name, tw_evaluator_factory_get_description (factory));
    }
  return 0;
}
