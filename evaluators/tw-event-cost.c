/* tw-event-cost.c: what storing one trace event costs, given or calibrated
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "tw-event-cost.h"

void
tw_event_cost_calibration_clear (TwEventCostCalibration *calibration)
{
  g_clear_pointer (&calibration->measured, g_free);
  g_clear_pointer (&calibration->machine, g_free);
}

/**
 * tw_event_cost_parse:
 * @text: a time with its unit: `800ns`, `0.8us`, `0.8µs`, `0.0008ms`
 *
 * A bare number is refused: 0.8 could be µs as well as ns, and a cost off by a
 * thousand would silently make every compensated length 0.
 */
gboolean
tw_event_cost_parse (const char  *text,
                     double      *cost_ns,
                     GError     **error)
{
  static const struct { const char *unit; double ns; } units[] = {
    { "ns", 1 }, { "us", 1e3 }, { "µs", 1e3 }, { "ms", 1e6 },
  };
  char *end;
  double value = g_ascii_strtod (text, &end);
  const char *unit = end;

  while (*unit == ' ')
    unit++;
  for (guint i = 0; end != text && i < G_N_ELEMENTS (units); i++)
    if (strcmp (unit, units[i].unit) == 0 && isfinite (value) && value >= 0)
      {
        *cost_ns = value * units[i].ns;
        return TRUE;
      }
  if (end == text)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--event-cost “%s”: expected the cost of one event with its unit "
                 "(e.g. 0.8us, 800ns) or “calibrated”", text);
  else if (*unit == '\0')
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--event-cost “%s”: a number without a unit: %s of what? "
                 "(e.g. %sus or %sns)", text, text, text, text);
  else if (!isfinite (value) || value < 0)
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--event-cost “%s”: a cost is a time of 0 or more", text);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--event-cost “%s”: unknown unit “%s” (ns, us, µs or ms)", text, unit);
  return FALSE;
}

/**
 * tw_event_cost_source_for_trace:
 *
 * Returns: (nullable): the tracing system that stored @trace's events ("ftrace",
 *   "lttng", "shark", "csv"), %NULL for a live trace, whose sources mix
 */
const char *
tw_event_cost_source_for_trace (TwTrace *trace)
{
  g_autofree char *format = tw_trace_dup_metadata (trace, "format");

  if (format == NULL || strcmp (format, "live") == 0)
    return NULL;
  if (strcmp (format, "trace-dat") == 0 || strcmp (format, "ftrace-text") == 0)
    return "ftrace";
  if (strcmp (format, "ctf") == 0)
    return "lttng";
  if (strcmp (format, "shark") == 0)
    return "shark";
  if (strcmp (format, "csv") == 0)
    return "csv";
  return NULL;
}

/* Returns: the calibration file: event-costs.ini in the user's config folder */
char *
tw_event_cost_dup_store_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "tracewb", "event-costs.ini", NULL);
}

static GKeyFile *
load_store (const char  *path,
            gboolean     missing_ok,
            GError     **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GError) local = NULL;

  if (g_key_file_load_from_file (file, path, G_KEY_FILE_KEEP_COMMENTS, &local))
    return g_steal_pointer (&file);
  if (missing_ok && g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    return g_steal_pointer (&file);
  g_set_error (error, local->domain, local->code, "%s: %s", path, local->message);
  return NULL;
}

/**
 * tw_event_cost_dup_stored:
 *
 * Returns: (transfer full) (nullable): what the store holds costs for, in its order:
 *   sources (`ftrace`) and single types of a source (`ftrace:sched_switch`); %NULL with
 *   @error set when the store cannot be read
 */
GStrv
tw_event_cost_dup_stored (GError **error)
{
  g_autofree char *path = tw_event_cost_dup_store_path ();
  g_autoptr(GKeyFile) file = load_store (path, TRUE, error);

  if (file == NULL)
    return NULL;
  return g_key_file_get_groups (file, NULL);
}

/**
 * tw_event_cost_lookup:
 * @source: what tw_event_cost_source_for_trace() or `tracewb-cli calibrate` names
 *
 * Returns: %TRUE with @calibration filled; %FALSE with G_IO_ERROR_NOT_FOUND when the
 *   source was never calibrated here, or the store's own error
 */
gboolean
tw_event_cost_lookup (const char              *source,
                      TwEventCostCalibration  *calibration,
                      GError                 **error)
{
  g_autofree char *path = tw_event_cost_dup_store_path ();
  g_autoptr(GKeyFile) file = load_store (path, TRUE, error);
  g_autoptr(GError) local = NULL;

  if (file == NULL)
    return FALSE;
  if (!g_key_file_has_group (file, source))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                   "no tracing cost for %s events on this machine: `tracewb-cli calibrate` "
                   "measures it, --event-cost gives it", source);
      return FALSE;
    }
  calibration->cost_ns = g_key_file_get_double (file, source, "cost_ns", &local);
  if (local == NULL)
    calibration->spread_ns = g_key_file_get_double (file, source, "spread_ns", &local);
  if (local != NULL || !isfinite (calibration->cost_ns) || calibration->cost_ns < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   "%s: [%s]: cost_ns and spread_ns must be numbers of ns%s%s", path, source,
                   local ? ": " : "", local ? local->message : "");
      return FALSE;
    }
  calibration->n_rounds = g_key_file_get_integer (file, source, "rounds", NULL);
  calibration->events_per_round = g_key_file_get_uint64 (file, source, "events_per_round", NULL);
  calibration->measured = g_key_file_get_string (file, source, "measured", NULL);
  calibration->machine = g_key_file_get_string (file, source, "machine", NULL);
  return TRUE;
}

/**
 * tw_event_cost_lookup_for_trace:
 *
 * The cost stored for the source of @trace (`[ftrace]`), with the costs stored for
 * single types of that source (`[ftrace:sched_switch]`, `calibrate --set
 * ftrace:sched_switch=1.2us`) before it.
 *
 * Returns: (transfer full) (nullable): the costs, %NULL when none is stored (or the
 *   trace mixes sources)
 */
TwEventCosts *
tw_event_cost_lookup_for_trace (TwTrace *trace)
{
  const char *source = tw_event_cost_source_for_trace (trace);
  g_autofree char *path = NULL;
  g_autoptr(GKeyFile) file = NULL;
  g_autoptr(TwEventCosts) costs = NULL;
  g_auto(GStrv) groups = NULL;
  gboolean any = FALSE;

  if (source == NULL)
    return NULL;
  path = tw_event_cost_dup_store_path ();
  if (!(file = load_store (path, TRUE, NULL)))
    return NULL;
  costs = tw_event_costs_new_uniform (0);
  groups = g_key_file_get_groups (file, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      const char *type = groups[i] + strlen (source) + 1;
      double ns;

      if (!g_str_has_prefix (groups[i], source) ||
          (groups[i][strlen (source)] != '\0' && groups[i][strlen (source)] != ':'))
        continue;
      ns = g_key_file_get_double (file, groups[i], "cost_ns", NULL);
      if (!isfinite (ns) || ns < 0)
        continue;
      if (groups[i][strlen (source)] == '\0')
        tw_event_costs_set_default (costs, ns);
      else if (*type != '\0')
        tw_event_costs_set_type_cost (costs, type, ns);
      any = TRUE;
    }
  return any ? g_steal_pointer (&costs) : NULL;
}

/* Writes @calibration under @source, keeping the other sources' entries. */
gboolean
tw_event_cost_store (const char                   *source,
                     const TwEventCostCalibration *calibration,
                     GError                      **error)
{
  g_autofree char *path = tw_event_cost_dup_store_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GKeyFile) file = load_store (path, TRUE, error);

  if (file == NULL)
    return FALSE;
  g_key_file_set_double (file, source, "cost_ns", calibration->cost_ns);
  g_key_file_set_double (file, source, "spread_ns", calibration->spread_ns);
  g_key_file_set_integer (file, source, "rounds", calibration->n_rounds);
  g_key_file_set_uint64 (file, source, "events_per_round", calibration->events_per_round);
  g_key_file_set_string (file, source, "measured", calibration->measured ? calibration->measured : "");
  g_key_file_set_string (file, source, "machine", calibration->machine ? calibration->machine : "");
  if (g_mkdir_with_parents (dir, 0755) < 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
                   "cannot create %s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (file, path, error);
}
