/* test-counter-tracks.c: libgtop CPU load and memory series, their spans and extents
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-test-utils.h"

#define GIB (G_GUINT64_CONSTANT (1) << 30)

static guint
find_track (TwCounterTracks *tracks,
            TwCounterKind    kind,
            guint16          cpu)
{
  for (guint i = 0; i < tw_counter_tracks_get_n_tracks (tracks); i++)
    {
      const TwCounterTrack *t = tw_counter_tracks_get_track (tracks, i);

      if (t->kind == kind && t->cpu == cpu)
        return i;
    }
  g_assert_not_reached ();
}

/* Load samples cover the interval that ends at them; memory holds from its sample to
 * the next one, and the last one to the latest row of the trace. */
static void
test_spans (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = NULL;
  guint16 load = tw_test_add_gtop_type (trace, FALSE);
  guint16 memory = tw_test_add_gtop_type (trace, TRUE);
  guint16 other = tw_test_add_simple_type (trace, "tick", TW_EVENT_KIND_OTHER);
  guint32 cpu1 = tw_trace_add_task (trace, "gtop:cpu/1", "CPU 1", -1, -1);
  guint32 mem = tw_trace_add_task (trace, "gtop:memory", "memory", -1, -1);
  guint l, m;
  gsize s;
  double v;
  guint64 begin, end, event;

  tw_test_append_gtop_sample (trace, load, 1000, 1, cpu1, 10, 0);
  tw_test_append_gtop_sample (trace, memory, 1000, TW_CPU_NONE, mem, 1 * GIB, 8 * GIB);
  tw_test_append_gtop_sample (trace, load, 2000, 1, cpu1, 20, 0);
  tw_test_append_gtop_sample (trace, memory, 2500, TW_CPU_NONE, mem, 2 * GIB, 8 * GIB);
  tw_test_append_gtop_sample (trace, load, 3000, 1, cpu1, 30, 0);
  tw_trace_append (trace, 4000, 0, other, TW_TASK_NONE, 0, NULL);

  tracks = tw_counter_tracks_new (trace);
  g_assert_cmpuint (tw_counter_tracks_get_n_tracks (tracks), ==, 0);
  g_assert_true (tw_counter_tracks_update (tracks));
  g_assert_false (tw_counter_tracks_update (tracks));
  g_assert_cmpuint (tw_counter_tracks_get_n_tracks (tracks), ==, 2);
  l = find_track (tracks, TW_COUNTER_CPU_LOAD, 1);
  m = find_track (tracks, TW_COUNTER_MEMORY, TW_CPU_NONE);
  g_assert_cmpuint (tw_counter_tracks_get_track (tracks, l)->task, ==, cpu1);
  g_assert_cmpfloat (tw_counter_tracks_get_track (tracks, l)->scale_max, ==, 100);
  g_assert_cmpfloat (tw_counter_tracks_get_track (tracks, m)->scale_max, ==, 8.0 * GIB);
  g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, l), ==, 3);
  g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, m), ==, 2);

  /* load: (1000, 2000] is sample 1, nothing before the first sample or after the last */
  g_assert_false (tw_counter_tracks_get_value_at (tracks, l, 999, &s));
  g_assert_true (tw_counter_tracks_get_value_at (tracks, l, 1000, &s));
  g_assert_cmpuint (s, ==, 0);
  g_assert_true (tw_counter_tracks_get_value_at (tracks, l, 1001, &s));
  g_assert_cmpuint (s, ==, 1);
  g_assert_true (tw_counter_tracks_get_value_at (tracks, l, 2000, &s));
  g_assert_cmpuint (s, ==, 1);
  tw_counter_tracks_get_sample (tracks, l, s, NULL, &v, &event);
  g_assert_cmpfloat (v, ==, 20);
  g_assert_cmpuint (event, ==, 2);
  tw_counter_tracks_get_span (tracks, l, s, &begin, &end);
  g_assert_cmpuint (begin, ==, 1000);
  g_assert_cmpuint (end, ==, 2000);
  g_assert_true (tw_counter_tracks_get_value_at (tracks, l, 2001, &s));
  g_assert_cmpuint (s, ==, 2);
  g_assert_false (tw_counter_tracks_get_value_at (tracks, l, 3001, &s));

  /* memory: [1000, 2500) is sample 0, [2500, 4000) sample 1 */
  g_assert_false (tw_counter_tracks_get_value_at (tracks, m, 999, &s));
  g_assert_true (tw_counter_tracks_get_value_at (tracks, m, 2499, &s));
  g_assert_cmpuint (s, ==, 0);
  g_assert_true (tw_counter_tracks_get_value_at (tracks, m, 3999, &s));
  g_assert_cmpuint (s, ==, 1);
  tw_counter_tracks_get_span (tracks, m, s, &begin, &end);
  g_assert_cmpuint (begin, ==, 2500);
  g_assert_cmpuint (end, ==, 4000);
  g_assert_false (tw_counter_tracks_get_value_at (tracks, m, 4000, &s));

  /* a column [1500, 2600) is spoken for by load samples 1 and 2 and memory 0 and 1 */
  {
    gsize first, last_end;

    g_assert_true (tw_counter_tracks_get_covering (tracks, l, 1500, 2600, &first, &last_end));
    g_assert_cmpuint (first, ==, 1);
    g_assert_cmpuint (last_end, ==, 3);
    g_assert_true (tw_counter_tracks_get_covering (tracks, m, 1500, 2600, &first, &last_end));
    g_assert_cmpuint (first, ==, 0);
    g_assert_cmpuint (last_end, ==, 2);
  }

  /* live growth: the trace ends later now, so memory's last sample holds longer */
  tw_trace_append (trace, 6000, 0, other, TW_TASK_NONE, 0, NULL);
  g_assert_false (tw_counter_tracks_update (tracks));
  g_assert_true (tw_counter_tracks_get_value_at (tracks, m, 5999, &s));
  g_assert_cmpuint (s, ==, 1);

  {
    g_autofree char *pct = tw_counter_format_value (tw_counter_tracks_get_track (tracks, l), 57.31);
    g_autofree char *bytes = tw_counter_format_value (tw_counter_tracks_get_track (tracks, m), 1.5 * GIB);

    g_assert_cmpstr (pct, ==, "57.3 %");
    /* GLib keeps number and unit together with a no-break space */
    g_assert_cmpstr (bytes, ==, "1.5\u00a0GiB");
  }
}

/* In a trace of two machines, the memory level beta's sampler gave last holds to where
 * beta's trace stops, not to alpha's later rows. */
static void
test_host_spans (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = NULL;
  guint16 memory = tw_test_add_gtop_type (trace, TRUE);
  guint16 other = tw_test_add_simple_type (trace, "tick", TW_EVENT_KIND_OTHER);
  guint16 cpu_a = tw_trace_add_host_cpu (trace, "alpha", 0);
  guint16 cpu_b = tw_trace_add_host_cpu (trace, "beta", 0);
  guint32 mem = tw_trace_add_task (trace, "beta/gtop:memory", "memory", -1, -1);
  guint64 begin, end;
  gsize s;
  guint m;

  tw_trace_set_task_host (trace, mem, "beta");
  tw_test_append_gtop_sample (trace, memory, 1000, TW_CPU_NONE, mem, 1 * GIB, 8 * GIB);
  tw_trace_append (trace, 2000, cpu_a, other, TW_TASK_NONE, 0, NULL);
  tw_test_append_gtop_sample (trace, memory, 2500, TW_CPU_NONE, mem, 2 * GIB, 8 * GIB);
  tw_trace_append (trace, 3000, cpu_b, other, TW_TASK_NONE, 0, NULL);
  tw_trace_append (trace, 9000, cpu_a, other, TW_TASK_NONE, 0, NULL);

  tracks = tw_counter_tracks_new (trace);
  g_assert_true (tw_counter_tracks_update (tracks));
  m = find_track (tracks, TW_COUNTER_MEMORY, TW_CPU_NONE);
  g_assert_true (tw_counter_tracks_get_value_at (tracks, m, 2999, &s));
  g_assert_cmpuint (s, ==, 1);
  tw_counter_tracks_get_span (tracks, m, s, &begin, &end);
  g_assert_cmpuint (begin, ==, 2500);
  g_assert_cmpuint (end, ==, 3000);
  g_assert_false (tw_counter_tracks_get_value_at (tracks, m, 3000, &s));
  g_assert_false (tw_counter_tracks_get_value_at (tracks, m, 8000, &s));

  /* beta goes on: its level holds further */
  tw_trace_append (trace, 9500, cpu_b, other, TW_TASK_NONE, 0, NULL);
  g_assert_false (tw_counter_tracks_update (tracks));
  g_assert_true (tw_counter_tracks_get_value_at (tracks, m, 9499, &s));
  g_assert_cmpuint (s, ==, 1);
}

static void
brute_extent (const double *values,
              gsize         first,
              gsize         end,
              double       *min,
              double       *max)
{
  *min = INFINITY;
  *max = -INFINITY;
  for (gsize i = first; i < end; i++)
    {
      *min = MIN (*min, values[i]);
      *max = MAX (*max, values[i]);
    }
}

/* The pyramid's answer equals a plain scan for random ranges, while samples keep
 * arriving in batches (each batch published and read before the next). */
static void
test_extent_matches_scan (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = tw_counter_tracks_new (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);
  guint16 load = tw_test_add_gtop_type (trace, FALSE);
  guint32 cpu0 = tw_trace_add_task (trace, "gtop:cpu/0", "CPU 0", -1, -1);
  const gsize n_total = 20000;
  g_autofree double *values = g_new (double, n_total);
  gsize n = 0;
  guint checks = 0;

  while (n < n_total)
    {
      gsize want = (gsize) g_rand_int_range (rand, 1, 3000);   /* MIN evaluates twice */
      gsize batch = MIN (n_total - n, want);

      for (gsize i = 0; i < batch; i++, n++)
        {
          values[n] = g_rand_double_range (rand, 0, 100);
          tw_test_append_gtop_sample (trace, load, 1000 * (n + 1), 0, cpu0, values[n], 0);
        }
      tw_counter_tracks_update (tracks);
      g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, 0), ==, n);

      for (guint q = 0; q < 200; q++)
        {
          gsize a = g_rand_int_range (rand, 0, (gint32) n);
          gsize b = a + 1 + g_rand_int_range (rand, 0, (gint32) (n - a));
          double min, max, bmin, bmax;

          /* samples are 1000 ns apart from 1000: the search's answer is known */
          guint64 t = g_rand_int_range (rand, 0, (gint32) (1000 * (n + 2)));
          gsize expected_lb = t <= 1000 ? 0 : MIN ((t - 1000 + 999) / 1000, n);

          g_assert_true (tw_counter_tracks_get_extent (tracks, 0, a, b, &min, &max));
          brute_extent (values, a, b, &bmin, &bmax);
          g_assert_cmpfloat (min, ==, bmin);
          g_assert_cmpfloat (max, ==, bmax);
          /* searches in any order (they gallop from the previous one) */
          g_assert_cmpuint (tw_counter_tracks_lower_bound (tracks, 0, t), ==, expected_lb);
          checks++;
        }
    }
  g_assert_cmpuint (checks, >, 1000);
  {
    double min, max;

    g_assert_false (tw_counter_tracks_get_extent (tracks, 0, 5, 5, &min, &max));
  }
}

/* A late row (the live merge lets one through now and then) lands in time order, and
 * the extents still agree with a scan. */
static void
test_late_sample (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = tw_counter_tracks_new (trace);
  guint16 load = tw_test_add_gtop_type (trace, FALSE);
  guint32 cpu0 = tw_trace_add_task (trace, "gtop:cpu/0", "CPU 0", -1, -1);
  double expected[40];
  double min, max;

  for (guint i = 0; i < 40; i++)
    {
      /* sample 20 (value 99) arrives after 21..39 */
      if (i == 20)
        continue;
      expected[i] = i;
      tw_test_append_gtop_sample (trace, load, 100 * (i + 1), 0, cpu0, i, 0);
    }
  tw_counter_tracks_update (tracks);
  expected[20] = 99;
  tw_test_append_gtop_sample (trace, load, 100 * 21, 0, cpu0, 99, 0);
  tw_counter_tracks_update (tracks);

  g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, 0), ==, 40);
  for (guint i = 0; i < 40; i++)
    {
      guint64 t;
      double v;

      tw_counter_tracks_get_sample (tracks, 0, i, &t, &v, NULL);
      g_assert_cmpuint (t, ==, 100 * (i + 1));
      g_assert_cmpfloat (v, ==, expected[i]);
    }
  g_assert_true (tw_counter_tracks_get_extent (tracks, 0, 0, 40, &min, &max));
  g_assert_cmpfloat (min, ==, 0);
  g_assert_cmpfloat (max, ==, 99);
  g_assert_true (tw_counter_tracks_get_extent (tracks, 0, 0, 20, &min, &max));
  g_assert_cmpfloat (max, ==, 19);
}

/* A sampler that starts while the trace is shown: its type and tracks appear later. */
static void
test_type_added_live (void)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = tw_counter_tracks_new (trace);
  guint16 other = tw_test_add_simple_type (trace, "tick", TW_EVENT_KIND_OTHER);
  guint16 load;
  guint32 cpu0;

  tw_trace_append (trace, 10, 0, other, TW_TASK_NONE, 0, NULL);
  g_assert_false (tw_counter_tracks_update (tracks));
  load = tw_test_add_gtop_type (trace, FALSE);
  cpu0 = tw_trace_add_task (trace, "gtop:cpu/0", "CPU 0", -1, -1);
  tw_test_append_gtop_sample (trace, load, 20, 0, cpu0, 42, 0);
  g_assert_true (tw_counter_tracks_update (tracks));
  g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, 0), ==, 1);
  {
    g_autofree char *label = tw_counter_tracks_dup_label (tracks, 0);
    g_assert_cmpstr (label, ==, "CPU 0 load");
  }
}

static void
append_sample (TwTrace *trace,
               guint16  type,
               guint64  time,
               guint16  cpu,
               guint32  task,
               double   value)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);
  g_autofree guint8 *payload = g_malloc0 (t->payload_size);
  TwValue v = { .type = TW_FIELD_F64, .f = value };

  tw_event_type_set_field (t, payload, 0, &v);
  tw_trace_append (trace, time, cpu, type, task, 0, payload);
}

/* A counter is what its sampler flagged, whatever the names: a `gtop_cpu_load` without
 * the flag is a plain type, a "busy" field of another sampler's type a CPU's load. */
static void
test_counters_by_field_flags (void)
{
  static const TwFieldSpec unflagged[] = { { "load_pct", TW_FIELD_F64, TW_FIELD_FLAG_NONE } };
  static const TwFieldSpec flagged[] = { { "busy", TW_FIELD_F64, TW_FIELD_FLAG_CPU_LOAD } };
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwCounterTracks) tracks = tw_counter_tracks_new (trace);
  guint16 named = tw_trace_add_event_type (trace, "gtop_cpu_load", "gtop", TW_EVENT_KIND_OTHER,
                                           unflagged, 1, NULL);
  guint16 other = tw_trace_add_event_type (trace, "cpu_busy", "probe", TW_EVENT_KIND_OTHER,
                                           flagged, 1, NULL);
  guint32 cpu2 = tw_trace_add_task (trace, "probe:cpu/2", "CPU 2", -1, -1);
  const TwCounterTrack *track;
  double value;

  append_sample (trace, named, 10, 1, cpu2, 50);
  append_sample (trace, other, 20, 2, cpu2, 75);
  g_assert_true (tw_counter_tracks_update (tracks));
  g_assert_cmpuint (tw_counter_tracks_get_n_tracks (tracks), ==, 1);
  track = tw_counter_tracks_get_track (tracks, 0);
  g_assert_cmpint (track->kind, ==, TW_COUNTER_CPU_LOAD);
  g_assert_cmpuint (track->cpu, ==, 2);
  g_assert_cmpuint (tw_counter_tracks_get_n_samples (tracks, 0), ==, 1);
  tw_counter_tracks_get_sample (tracks, 0, 0, NULL, &value, NULL);
  g_assert_cmpfloat (value, ==, 75);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/data/counter-tracks/spans", test_spans);
  g_test_add_func ("/tw/data/counter-tracks/host-spans", test_host_spans);
  g_test_add_func ("/tw/data/counter-tracks/extent-matches-scan", test_extent_matches_scan);
  g_test_add_func ("/tw/data/counter-tracks/late-sample", test_late_sample);
  g_test_add_func ("/tw/data/counter-tracks/type-added-live", test_type_added_live);
  g_test_add_func ("/tw/data/counter-tracks/counters-by-field-flags", test_counters_by_field_flags);

  return g_test_run ();
}
