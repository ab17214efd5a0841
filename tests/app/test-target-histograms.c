/* test-target-histograms.c: the Sensors tab's section of the targets' histogram snapshots
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Rows as the LTTng decoding stores a target monitor's `tracewb:histogram` events
 * (`histogram:<evaluation>` with the target's hostname, arg the monitor's pid) go into a
 * growing store; at each refresh the section shows each evaluation's newest snapshot,
 * one per target, monitor and evaluation, with the target's bins and statistics; a late
 * row (older than the one shown) does not replace it; other rows are not snapshots. Each
 * is titled by the target its monitor runs on ("tA: response"), as the timeline and the
 * Sensors rows name a target's tasks; two targets whose monitors share a pid have a
 * histogram each.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "tw-target-histograms.h"

/* @with_host: the decoder's rows since they name their target; without, older ones */
static guint16
add_snapshot_type (TwTrace    *trace,
                   const char *name,
                   gboolean    with_host)
{
  static const TwFieldSpec specs[] = {
    { "count", TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "min", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "max", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "mean", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "low", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "width", TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "bins", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
    { "host", TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, name, "measurement", TW_EVENT_KIND_USER, specs,
                                          G_N_ELEMENTS (specs) - !with_host, &error);

  g_assert_no_error (error);
  return type;
}

/* A snapshot row of @monitor on target @host: @bins counts from @low, @width apart. */
static void
append_snapshot (TwTrace    *trace,
                 guint16     type,
                 guint64     time,
                 const char *host,
                 guint32     monitor,
                 double      low,
                 double      width,
                 const char *bins,
                 double      min,
                 double      max)
{
  const TwEventType *info = tw_trace_get_event_type (trace, type);
  g_autofree guint8 *row = g_malloc0 (info->payload_size);
  g_auto(GStrv) counts = g_strsplit (bins, " ", -1);
  guint64 count = 0;
  TwValue v;

  for (guint i = 0; counts[i]; i++)
    count += g_ascii_strtoull (counts[i], NULL, 10);
  v = (TwValue) { .type = TW_FIELD_U64, .u = count };
  tw_event_type_set_field (info, row, 0, &v);
  v = (TwValue) { .type = TW_FIELD_F64, .f = min };
  tw_event_type_set_field (info, row, 1, &v);
  v.f = max;
  tw_event_type_set_field (info, row, 2, &v);
  v.f = (min + max) / 2;
  tw_event_type_set_field (info, row, 3, &v);
  v.f = low;
  tw_event_type_set_field (info, row, 4, &v);
  v.f = width;
  tw_event_type_set_field (info, row, 5, &v);
  v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, bins) };
  tw_event_type_set_field (info, row, 6, &v);
  if (info->n_fields > 7)
    {
      v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, host) };
      tw_event_type_set_field (info, row, 7, &v);
    }
  tw_trace_append (trace, time, TW_CPU_NONE, type, TW_TASK_NONE, monitor, row);
}

static void
test_newest_snapshots (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  TwTargetHistograms *section;
  GtkWidget *window;
  const TwHistogramSnapshot *s;
  const char *name = NULL;
  guint16 response, other;

  if (!gtk_init_check ())
    {
      g_test_skip ("no display");
      return;
    }
  response = add_snapshot_type (trace, "histogram:response", TRUE);
  other = tw_trace_add_event_type (trace, "tick", NULL, TW_EVENT_KIND_OTHER, NULL, 0, NULL);
  window = gtk_window_new ();
  section = TW_TARGET_HISTOGRAMS (tw_target_histograms_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (section));
  gtk_window_present (GTK_WINDOW (window));

  /* nothing yet: nothing shown */
  tw_trace_append (trace, 10, 0, other, TW_TASK_NONE, 0, NULL);
  tw_target_histograms_set_trace (section, trace);
  g_assert_cmpuint (tw_target_histograms_get_n (section), ==, 0);

  /* the first snapshot; leading and trailing empty bins are not drawn */
  append_snapshot (trace, response, 1000, "tA", 77, 0, 10, "0 2 3 0", 11, 29);
  tw_target_histograms_refresh (section);
  g_assert_cmpuint (tw_target_histograms_get_n (section), ==, 1);
  s = tw_target_histograms_get_snapshot (section, 0, &name);
  g_assert_cmpstr (name, ==, "response");
  g_assert_cmpuint (s->count, ==, 5);
  g_assert_cmpuint (s->n_bins, ==, 2);
  g_assert_cmpuint (s->bins[0], ==, 2);
  g_assert_cmpuint (s->bins[1], ==, 3);
  g_assert_cmpfloat (s->edges[0], ==, 10);
  g_assert_cmpfloat (s->edges[2], ==, 30);
  g_assert_cmpfloat (s->max, ==, 29);
  g_assert_true (g_str_has_prefix (tw_target_histograms_get_summary (section, 0), "5 values in 4 bins"));

  /* two more in one refresh: the newest is shown; another target's monitor of the same
   * pid (pid namespaces) gets its own */
  append_snapshot (trace, response, 2000, "tA", 77, 0, 10, "1 2 3 4", 5, 39);
  tw_trace_append (trace, 2500, 0, other, TW_TASK_NONE, 0, NULL);
  append_snapshot (trace, response, 3000, "tA", 77, 0, 10, "1 2 3 4 5", 5, 49);
  append_snapshot (trace, response, 3000, "tB", 77, 100, 1, "7", 100, 100.5);
  tw_target_histograms_refresh (section);
  g_assert_cmpuint (tw_target_histograms_get_n (section), ==, 2);
  s = tw_target_histograms_get_snapshot (section, 0, NULL);
  g_assert_cmpuint (s->count, ==, 15);
  g_assert_cmpuint (s->n_bins, ==, 5);
  g_assert_cmpfloat (s->max, ==, 49);
  s = tw_target_histograms_get_snapshot (section, 1, &name);
  g_assert_cmpstr (name, ==, "response");
  g_assert_cmpuint (s->count, ==, 7);

  /* titled by their targets: two targets' evaluations of one name apart */
  g_assert_cmpstr (tw_target_histograms_get_title (section, 0), ==, "tA: response");
  g_assert_cmpstr (tw_target_histograms_get_title (section, 1), ==, "tB: response");
  /* a row that does not name its target: titled by its monitor's pid */
  append_snapshot (trace, add_snapshot_type (trace, "histogram:job time", FALSE), 3100, NULL, 78, 0, 1, "4", 0, 1);
  tw_target_histograms_refresh (section);
  g_assert_cmpuint (tw_target_histograms_get_n (section), ==, 3);
  g_assert_cmpstr (tw_target_histograms_get_title (section, 2), ==, "job time — monitor 78");

  /* a late row, older than the one shown, does not replace it */
  append_snapshot (trace, response, 2900, "tA", 77, 0, 10, "1", 1, 1);
  tw_target_histograms_refresh (section);
  g_assert_cmpuint (tw_target_histograms_get_snapshot (section, 0, NULL)->count, ==, 15);

  /* drawn: the section is shown once there is a snapshot */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (section)));
  gtk_window_destroy (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/tw/app/target-histograms/newest", test_newest_snapshots);
  return g_test_run ();
}
