/* tw-cli-jcs.c: `tracewb-cli jcs`, monitor rate and buffer size for a sensor's stream
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>
#include <tw-evaluators.h>

#include "tw-cli.h"

/* Durations are seconds unless suffixed with ns, us, ms or s; rounded to whole ns. */
static gboolean
parse_duration (const char  *option,
                const char  *text,
                gint64      *ns,
                GError     **error)
{
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);
  double scale = 1e9;

  if (end != text && (*end == '\0' || tw_time_unit_get_ns (end, &scale)))
    {
      double scaled = round (value * scale);

      /* ±2^62 ns (146 years) leaves tw_jcs_init room to report ranges itself. */
      if (isfinite (scaled) && fabs (scaled) < 4.6e18)
        {
          *ns = (gint64) scaled;
          return TRUE;
        }
    }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--%s “%s” is not a duration (seconds, or a number with ns, us, ms or s)",
               option, text);
  return FALSE;
}

static char *
format_seconds (gint64 ns)
{
  g_autofree char *text = g_strdup_printf ("%s%" G_GINT64_FORMAT ".%09" G_GINT64_FORMAT,
                                           ns < 0 ? "-" : "", ABS (ns) / 1000000000,
                                           ABS (ns) % 1000000000);
  gsize n = strlen (text);

  while (text[n - 1] == '0')
    text[--n] = '\0';
  if (text[n - 1] == '.')
    text[--n] = '\0';
  return g_strconcat (text, " s", NULL);
}

typedef struct {
  guint64      R;
  gint64       l;
  guint64      B;
  gint64       b_max;
  TwJcsBacklog backlog;
} Report;

static void
add_int (JsonBuilder *builder,
         const char  *name,
         gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
add_seconds (JsonBuilder *builder,
             const char  *name,
             gint64       ns)
{
  g_autofree char *name_ns = g_strconcat (name, "_ns", NULL);

  json_builder_set_member_name (builder, name);
  json_builder_add_double_value (builder, ns / 1e9);
  add_int (builder, name_ns, ns);
}

static void
print_json (const TwJcs  *jcs,
            const Report *report)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (builder);
  add_int (builder, "L", jcs->L);
  add_int (builder, "R_min", jcs->R_min);
  add_int (builder, "R_max", jcs->R_max);
  add_seconds (builder, "l_min", jcs->l_min);
  add_int (builder, "R", report->R);
  add_seconds (builder, "l", report->l);
  add_int (builder, "B", report->B);
  add_int (builder, "k_b", report->backlog.k_b);
  add_int (builder, "k_a", report->backlog.k_a);
  json_builder_set_member_name (builder, "b_b");
  if (report->backlog.has_b_b)
    json_builder_add_int_value (builder, report->backlog.b_b);
  else
    json_builder_add_null_value (builder);
  add_int (builder, "b_a", report->backlog.b_a);
  add_int (builder, "b_max", report->b_max);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  text = json_generator_to_data (generator, NULL);
  g_print ("%s\n", text);
}

static void
print_text (const TwJcs  *jcs,
            const Report *report,
            gboolean      latency_given)
{
  g_autofree char *T = format_seconds (jcs->stream.T);
  g_autofree char *D = format_seconds (jcs->stream.D);
  g_autofree char *tau = format_seconds (jcs->stream.tau);
  g_autofree char *T_M = format_seconds (jcs->monitor.T_M);
  g_autofree char *d = format_seconds (jcs->monitor.d);
  g_autofree char *l_min = format_seconds (jcs->l_min);
  g_autofree char *l = format_seconds (report->l);
  g_autofree char *b_b = report->backlog.has_b_b
    ? g_strdup_printf ("%" G_GINT64_FORMAT, report->backlog.b_b)
    : g_strdup ("none (k_b < 1)");

  g_print ("stream   T = %s, D = %s, tau = %s\n", T, D, tau);
  g_print ("monitor  T_M = %s, d = %s\n\n", T_M, d);
  g_print ("%-7s %-14" G_GUINT64_FORMAT " %s\n", "L", jcs->L,
           "maximal burst, 1 + ⌊tau/(T − D)⌋ elements");
  g_print ("%-7s %-14" G_GUINT64_FORMAT " %s\n", "R_min", jcs->R_min,
           "elements per period at the average rate, ⌈T_M/T⌉");
  g_print ("%-7s %-14" G_GUINT64_FORMAT " %s\n", "R_max", jcs->R_max,
           "elements per period that keep the latency at l_min, E(T_M)");
  g_print ("%-7s %-14s %s\n", "l_min", l_min, "smallest latency a monitor guarantees, T_M + d");
  g_print ("%-7s %-14" G_GUINT64_FORMAT " %s\n", "R", report->R,
           latency_given ? "smallest R with l(R) <= the latency asked for" : "R_max");
  g_print ("%-7s %-14s %s\n", "l", l, "latency bound l(R)");
  g_print ("%-7s %-14" G_GUINT64_FORMAT " %s\n", "B", report->B,
           "sensor buffer for latency l, E(l)");
  g_print ("%-7s %-14" G_GINT64_FORMAT " %s\n", "k_b", report->backlog.k_b,
           "last monitor period ending inside the burst");
  g_print ("%-7s %-14" G_GINT64_FORMAT " %s\n", "k_a", report->backlog.k_a,
           "first monitor period ending after it (at least 1)");
  g_print ("%-7s %-14s %s\n", "b_b", b_b, "backlog at the end of the burst (eq. 22)");
  g_print ("%-7s %-14" G_GINT64_FORMAT " %s\n", "b_a", report->backlog.b_a,
           "backlog after the burst (eq. 23)");
  g_print ("%-7s %-14" G_GINT64_FORMAT " %s\n", "b_max", report->b_max,
           "most elements waiting for this monitor, b_max(R)");
}

int
tw_cli_jcs (int    argc,
            char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("— monitor rate and buffer size for a jitter-constrained stream");
  g_autofree char *T_text = NULL, *D_text = NULL, *tau_text = NULL, *tau_late_text = NULL;
  g_autofree char *T_M_text = NULL, *d_text = NULL, *latency_text = NULL;
  TwJcsStream stream = { 0 };
  TwJcsMonitor monitor = { 0 };
  gint64 tau_late = 0, latency = 0;
  TwJcs jcs;
  Report report = { 0 };
  gboolean json = FALSE;
  GError *error = NULL;
  const GOptionEntry entries[] = {
    { "T", 0, 0, G_OPTION_ARG_STRING, &T_text, "Sensor period", "DURATION" },
    { "D", 0, 0, G_OPTION_ARG_STRING, &D_text, "Minimal distance between two elements",
      "DURATION" },
    { "tau", 0, 0, G_OPTION_ARG_STRING, &tau_text, "Maximal earliness of an element",
      "DURATION" },
    { "tau-late", 0, 0, G_OPTION_ARG_STRING, &tau_late_text,
      "Maximal lateness of an element (added to tau; default 0)", "DURATION" },
    { "TM", 0, 0, G_OPTION_ARG_STRING, &T_M_text, "Monitor period", "DURATION" },
    { "d", 0, 0, G_OPTION_ARG_STRING, &d_text, "Monitor deadline (<= TM)", "DURATION" },
    { "latency", 0, 0, G_OPTION_ARG_STRING, &latency_text,
      "Latency to meet (default: the smallest, l_min)", "DURATION" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, "One JSON object", NULL },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  g_option_context_set_description (context,
    "Durations are seconds, or numbers suffixed with ns, us, ms or s (Riegel 2005 §4.2;\n"
    "docs/jcs.md). Example, the paper's Fig. 11:\n"
    "  tracewb-cli jcs --T 3 --D 2 --tau 3 --TM 5 --d 4\n");
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 1 || !T_text || !D_text || !tau_text || !T_M_text || !d_text)
    {
      g_printerr ("usage: tracewb-cli jcs --T T --D D --tau TAU [--tau-late TAU'] "
                  "--TM TM --d D_M [--latency L] [--json]\n");
      return 2;
    }

  if (!parse_duration ("T", T_text, &stream.T, &error) ||
      !parse_duration ("D", D_text, &stream.D, &error) ||
      !parse_duration ("tau", tau_text, &stream.tau, &error) ||
      (tau_late_text && !parse_duration ("tau-late", tau_late_text, &tau_late, &error)) ||
      !parse_duration ("TM", T_M_text, &monitor.T_M, &error) ||
      !parse_duration ("d", d_text, &monitor.d, &error) ||
      (latency_text && !parse_duration ("latency", latency_text, &latency, &error)))
    return tw_cli_fail ("jcs", error);
  if (tau_late < 0)
    return tw_cli_fail ("jcs", g_error_new (TW_JCS_ERROR, TW_JCS_ERROR_INVALID,
                                            "tau-late must be >= 0"));
  /* (T, D, τ, τ') is the stream (T, D, τ + τ', 0), §4.2; both are < 2^62. */
  stream.tau = stream.tau < 0 ? stream.tau : stream.tau + tau_late;

  if (!tw_jcs_init (&jcs, &stream, &monitor, &error))
    return tw_cli_fail ("jcs", error);

  if (latency_text)
    {
      if (!tw_jcs_rate_for_latency (&jcs, latency, &report.R, &error))
        return tw_cli_fail ("jcs", error);
    }
  else
    report.R = jcs.R_max;
  report.l = tw_jcs_latency (&jcs, report.R);
  report.B = tw_jcs_buffer_size (&jcs, report.l);
  report.b_max = tw_jcs_max_backlog (&jcs, report.R, &report.backlog);

  if (json)
    print_json (&jcs, &report);
  else
    print_text (&jcs, &report, latency_text != NULL);
  return 0;
}
