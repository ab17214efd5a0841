/* test-live-tracks.c: libgtop CPU-load and memory tracks and user-sensor marks in the real
 * timeline widget, checked by its pixels and its tooltips
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-test-pixels.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"

#define MS G_GUINT64_CONSTANT (1000000)
#define GIB (G_GUINT64_CONSTANT (1) << 30)

/* what the painter gives user and sensor marks */
static const double sensor_rgb[3] = { 0.38, 0.21, 0.51 };

typedef struct {
  TwTrace      *trace;
  TwStateModel *model;
  TwViewState  *state;
  GtkWidget    *window;
  TwTimeline   *timeline;
  guint16       load;
  guint16       memory;
  guint32       cpu0;
  guint32       mem;
  guint32       sensor_task;
  guint64       sensor_event;
} Fixture;

static void
show (Fixture *f)
{
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->state = tw_view_state_new (f->model);

  f->timeline = tw_test_present_timeline (f->state, 1000, 560, &f->window);
}

/* A live session built through the store API, not sealed: CPU 0's load is sampled at 1,
 * 2 and 3 ms (20 %, 75 %, 40 %: 75 % over (1, 2] ms, 40 % over (2, 3]); memory uses 2 of
 * 8 GiB from 1 ms and 6 from 2.5 ms; the sensor `job@done` of task "job" logs one
 * element at 1.5 ms. */
static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  static const TwFieldSpec sensor_fields[] = {
    { "seq",   TW_FIELD_U64,    TW_FIELD_FLAG_NONE },
    { "cpu",   TW_FIELD_U32,    TW_FIELD_FLAG_NONE },
    { "value", TW_FIELD_F64,    TW_FIELD_FLAG_NONE },
    { "name",  TW_FIELD_STRING, TW_FIELD_FLAG_NONE },
  };
  g_autoptr(GError) error = NULL;
  const TwEventType *type;
  guint16 sensor;
  guint32 cpu1;
  guint8 payload[64] = { 0 };
  TwValue v;

  f->trace = tw_trace_new ();
  f->load = tw_test_add_gtop_type (f->trace, FALSE);
  f->memory = tw_test_add_gtop_type (f->trace, TRUE);
  sensor = tw_trace_add_event_type (f->trace, "job@done", "sensor", TW_EVENT_KIND_SENSOR,
                                    sensor_fields, G_N_ELEMENTS (sensor_fields), &error);
  g_assert_no_error (error);
  f->cpu0 = tw_trace_add_task (f->trace, "gtop:cpu/0", "CPU 0", -1, -1);
  cpu1 = tw_trace_add_task (f->trace, "gtop:cpu/1", "CPU 1", -1, -1);
  f->mem = tw_trace_add_task (f->trace, "gtop:memory", "memory", -1, -1);
  /* as the monitor names a sensor's task: one per (writer pid, task name) */
  f->sensor_task = tw_trace_add_task (f->trace, "sensor:42:job", "job", 42, -1);
  /* the program itself, as the libgtop sampler names it; it has no row of its own */
  tw_trace_add_task (f->trace, "42", "demo", 42, 42);

  tw_test_append_gtop_sample (f->trace, f->load, 1 * MS, 0, f->cpu0, 20, 0);
  tw_test_append_gtop_sample (f->trace, f->load, 1 * MS, 1, cpu1, 50, 0);
  tw_test_append_gtop_sample (f->trace, f->memory, 1 * MS, TW_CPU_NONE, f->mem, 2 * GIB, 8 * GIB);

  type = tw_trace_get_event_type (f->trace, sensor);
  v = (TwValue) { .type = TW_FIELD_U64, .u = 12 };
  tw_event_type_set_field (type, payload, 0, &v);
  v = (TwValue) { .type = TW_FIELD_U32, .u = 1 };
  tw_event_type_set_field (type, payload, 1, &v);
  v = (TwValue) { .type = TW_FIELD_F64, .f = 0.5 };
  tw_event_type_set_field (type, payload, 2, &v);
  v = (TwValue) { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (f->trace, "job") };
  tw_event_type_set_field (type, payload, 3, &v);
  f->sensor_event = tw_trace_get_n_events (f->trace);
  tw_trace_append (f->trace, 1500 * 1000, TW_CPU_NONE, sensor, f->sensor_task, 0, payload);

  tw_test_append_gtop_sample (f->trace, f->load, 2 * MS, 0, f->cpu0, 75, 0);
  tw_test_append_gtop_sample (f->trace, f->load, 2 * MS, 1, cpu1, 50, 0);
  tw_test_append_gtop_sample (f->trace, f->memory, 2500 * 1000, TW_CPU_NONE, f->mem, 6 * GIB, 8 * GIB);
  tw_test_append_gtop_sample (f->trace, f->load, 3 * MS, 0, f->cpu0, 40, 0);
  tw_test_append_gtop_sample (f->trace, f->load, 3 * MS, 1, cpu1, 50, 0);

  show (f);
  tw_view_state_set_visible_range (f->state, 0, 5 * MS);
  tw_test_wait_frames (GTK_WIDGET (f->timeline), 2);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&f->window)));
  g_clear_object (&f->state);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

static const TwTimelineRow *
find_row (Fixture           *f,
          TwTimelineRowKind  kind,
          guint32            id)
{
  guint n;
  const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (f->timeline), &n);

  for (guint i = 0; i < n; i++)
    if (rows[i].kind == kind && rows[i].id == id)
      return &rows[i];
  g_assert_not_reached ();
}

/* The row of the CPU-load track of @cpu (or the memory track for TW_CPU_NONE). */
static const TwTimelineRow *
find_counter_row (Fixture *f,
                  guint16  cpu)
{
  TwCounterTracks *tracks = tw_timeline_layout_get_counter_tracks (tw_timeline_get_layout (f->timeline));

  for (guint i = 0; i < tw_counter_tracks_get_n_tracks (tracks); i++)
    {
      const TwCounterTrack *t = tw_counter_tracks_get_track (tracks, i);

      if ((cpu == TW_CPU_NONE) == (t->kind == TW_COUNTER_MEMORY) && t->cpu == cpu)
        return find_row (f, TW_TIMELINE_ROW_COUNTER, i);
    }
  g_assert_not_reached ();
}

static int
graph_bottom (const TwTimelineRow *row)
{
  return TW_TIMELINE_RULER_HEIGHT + row->y + row->height - TW_TIMELINE_COUNTER_PAD_BOTTOM;
}

static int
graph_height (const TwTimelineRow *row)
{
  return row->height - TW_TIMELINE_COUNTER_PAD_TOP - TW_TIMELINE_COUNTER_PAD_BOTTOM;
}

/* How many px above the graph's bottom column @x is drawn, judged against column
 * @empty_x of the same row where no sample speaks (the row's bare background). */
static int
drawn_height (cairo_surface_t     *surface,
              const TwTimelineRow *row,
              int                  x,
              int                  empty_x)
{
  int bottom = graph_bottom (row);

  for (int y = TW_TIMELINE_RULER_HEIGHT + row->y + 1; y < bottom; y++)
    {
      double px[3], bg[3];

      tw_test_surface_get_rgb (surface, x, y, px);
      tw_test_surface_get_rgb (surface, empty_x, y, bg);
      if (!tw_test_rgb_near (px, bg))
        return bottom - y;
    }
  return 0;
}

static int
x_at (Fixture *f,
      guint64  time_ns)
{
  TwTimelineViewport vp;

  tw_timeline_get_viewport (f->timeline, &vp);
  return (int) floor (tw_timeline_viewport_time_to_x (&vp, time_ns));
}

static char *
dup_tooltip_at (Fixture *f,
                int      x,
                int      y,
                guint64 *event)
{
  TwTimelineViewport vp;
  TwTimelineHit hit;
  char *text;

  /* exactly what the widget's query-tooltip handler asks */
  tw_timeline_get_viewport (f->timeline, &vp);
  tw_timeline_painter_hit_test (tw_timeline_get_painter (f->timeline), &vp, x, y, &hit);
  text = g_steal_pointer (&hit.description);
  if (event)
    *event = hit.event;
  tw_timeline_hit_clear (&hit);
  return text;
}

static void
assert_height (int    measured,
               double value,
               double scale,
               int    graph_h)
{
  int expected = (int) round (value / scale * graph_h);

  g_test_message ("drawn %d px, expected %d px (%.1f of %.1f)", measured, expected, value, scale);
  g_assert_cmpint (ABS (measured - expected), <=, 1);
}

static void
test_load_height (Fixture       *f,
                  gconstpointer  data)
{
  cairo_surface_t *surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  const TwTimelineRow *cpu0 = find_counter_row (f, 0);
  const TwTimelineRow *memory = find_counter_row (f, TW_CPU_NONE);
  int empty_x = x_at (f, 500 * 1000);   /* before the first sample: nothing is known */
  g_autofree char *tip = NULL;

  g_assert_cmpint (graph_height (cpu0), >, 20);
  assert_height (drawn_height (surface, cpu0, x_at (f, 1500 * 1000), empty_x), 75, 100, graph_height (cpu0));
  assert_height (drawn_height (surface, cpu0, x_at (f, 2500 * 1000), empty_x), 40, 100, graph_height (cpu0));
  /* after the last sample (3 ms) nothing is drawn */
  g_assert_cmpint (drawn_height (surface, cpu0, x_at (f, 3500 * 1000), empty_x), ==, 0);
  /* memory: 2 of 8 GiB, then 6 of 8 GiB held to the end of the trace (3 ms) */
  assert_height (drawn_height (surface, memory, x_at (f, 2 * MS), empty_x), 2, 8, graph_height (memory));
  assert_height (drawn_height (surface, memory, x_at (f, 2800 * 1000), empty_x), 6, 8, graph_height (memory));

  tip = dup_tooltip_at (f, x_at (f, 1500 * 1000), graph_bottom (cpu0) - 2, NULL);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "CPU 0 load: 75.0 %"));
  g_clear_pointer (&tip, g_free);
  tip = dup_tooltip_at (f, x_at (f, 2800 * 1000), graph_bottom (memory) - 2, NULL);
  g_assert_nonnull (strstr (tip, "Memory used: 6.0\u00a0GiB of 8.0\u00a0GiB"));
  cairo_surface_destroy (surface);
}

static void
test_sensor_mark (Fixture       *f,
                  gconstpointer  data)
{
  cairo_surface_t *surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  const TwTimelineRow *row = find_row (f, TW_TIMELINE_ROW_TASK, f->sensor_task);
  int x = x_at (f, 1500 * 1000);
  int y = TW_TIMELINE_RULER_HEIGHT + row->y + 2;
  guint64 event = TW_EVENT_NONE;
  g_autofree char *tip = NULL;
  double px[3];

  tw_test_surface_get_rgb (surface, x, y, px);
  g_assert_true (tw_test_rgb_near (px, sensor_rgb));
  tw_test_surface_get_rgb (surface, x + 20, y, px);
  g_assert_false (tw_test_rgb_near (px, sensor_rgb));

  tip = dup_tooltip_at (f, x, y, &event);
  g_assert_nonnull (tip);
  g_test_message ("tooltip: %s", tip);
  g_assert_nonnull (strstr (tip, "job@done"));
  g_assert_nonnull (strstr (tip, "seq=12 cpu=1 value=0.5 name=job"));
  /* what a click selects, so the details pane shows the element's fields */
  g_assert_cmpuint (event, ==, f->sensor_event);

  /* the sensor's task sits under its writer's process, named after the program */
  {
    guint n;
    const TwTimelineRow *rows = tw_timeline_layout_get_rows (tw_timeline_get_layout (f->timeline), &n);
    g_autofree char *label = NULL;

    g_assert_cmpint (row - rows, >, 0);
    g_assert_cmpuint (row[-1].kind, ==, TW_TIMELINE_ROW_PROCESS);
    label = tw_timeline_layout_dup_row_label (tw_timeline_get_layout (f->timeline), &row[-1]);
    g_assert_cmpstr (label, ==, "demo (42, 1 thread)");
  }
  cairo_surface_destroy (surface);
}

/* Live: rows appended and published after the widget showed the trace extend the track
 * at the next frame, without any call on the widget. */
static void
test_growing (Fixture       *f,
              gconstpointer  data)
{
  const TwTimelineRow *cpu0 = find_counter_row (f, 0);
  int empty_x = x_at (f, 500 * 1000);
  int x = x_at (f, 3500 * 1000);
  cairo_surface_t *surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  int graph_h = graph_height (cpu0);

  g_assert_cmpint (drawn_height (surface, cpu0, x, empty_x), ==, 0);
  cairo_surface_destroy (surface);

  tw_test_append_gtop_sample (f->trace, f->load, 4 * MS, 0, f->cpu0, 90, 0);
  gtk_widget_queue_draw (GTK_WIDGET (f->timeline));
  tw_test_wait_frames (GTK_WIDGET (f->timeline), 2);

  surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  assert_height (drawn_height (surface, cpu0, x, empty_x), 90, 100, graph_h);
  g_assert_cmpint (drawn_height (surface, cpu0, x_at (f, 4500 * 1000), empty_x), ==, 0);
  cairo_surface_destroy (surface);
}

/* ---------------------------------------------------------------- a recorded session */

typedef struct {
  guint64 time;
  char  **cells;
} CsvRow;

static int
column_of (char       **header,
           const char  *name)
{
  for (int i = 0; header[i]; i++)
    if (g_str_equal (header[i], name))
      return i;
  g_assert_not_reached ();
}

/* The recording read as plain text, apart from the reader: rows of @event. */
static GArray *
csv_rows (const char  *text,
          const char  *event,
          char      ***header)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GArray *rows = g_array_new (FALSE, FALSE, sizeof (CsvRow));

  *header = NULL;
  for (guint i = 0; lines[i]; i++)
    {
      CsvRow row;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      if (*header == NULL)
        {
          *header = g_strsplit (lines[i], ",", -1);
          continue;
        }
      row.cells = g_strsplit (lines[i], ",", -1);
      if (!g_str_equal (row.cells[column_of (*header, "event")], event))
        {
          g_strfreev (row.cells);
          continue;
        }
      row.time = g_ascii_strtoull (row.cells[0], NULL, 10);
      g_array_append_val (rows, row);
    }
  return rows;
}

static void
csv_rows_free (GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    g_strfreev (g_array_index (rows, CsvRow, i).cells);
  g_array_unref (rows);
}

/* Recorded with `tracewb-demo-rt --periods 20,50` and `tracewb-cli monitor --gtop
 * --record`, see tests/fixtures/live/README.md. */
static void
test_recorded_session (void)
{
  g_autofree char *path = tw_test_dup_fixture_path ("live/demo-rt-gtop.csv");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) load_header = NULL;
  g_auto(GStrv) job_header = NULL;
  GArray *loads, *jobs;
  Fixture fx = { 0 }, *f = &fx;
  cairo_surface_t *surface;
  const TwTimelineRow *row;
  const CsvRow *s1, *s2, *job;
  guint32 task;
  int empty_x;
  double px[3];
  g_autofree char *tip = NULL;
  g_autofree char *want_job = NULL;
  g_autofree char *want_response = NULL;
  double load;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  f->trace = tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  show (f);
  tw_view_state_zoom_to_fit (f->state);
  tw_test_wait_frames (GTK_WIDGET (f->timeline), 2);

  /* CPU 0's second load sample covers the time since the first */
  loads = csv_rows (text, "gtop_cpu_load", &load_header);
  g_assert_cmpuint (loads->len, >=, 4);
  s1 = s2 = NULL;
  for (guint i = 0; i < loads->len; i++)
    {
      const CsvRow *r = &g_array_index (loads, CsvRow, i);

      if (!g_str_equal (r->cells[column_of (load_header, "cpu")], "0"))
        continue;
      if (s1 == NULL)
        s1 = r;
      else if (s2 == NULL)
        s2 = r;
    }
  g_assert_nonnull (s2);
  load = g_ascii_strtod (s2->cells[column_of (load_header, "load_pct")], NULL);

  surface = tw_test_grab_widget (GTK_WIDGET (f->timeline));
  row = find_counter_row (f, 0);
  empty_x = x_at (f, tw_trace_get_first_time (f->trace)) + 1;
  assert_height (drawn_height (surface, row, x_at (f, s1->time + (s2->time - s1->time) / 2), empty_x),
                 load, 100, graph_height (row));
  g_assert_cmpint (drawn_height (surface, row, empty_x, empty_x), ==, 0);

  /* a job-end element of thread 1 is a mark on its task's row, with its fields */
  jobs = csv_rows (text, "demo-rt-1@job-end", &job_header);
  g_assert_cmpuint (jobs->len, >, 10);
  job = &g_array_index (jobs, CsvRow, jobs->len / 2);
  task = tw_trace_lookup_task (f->trace, job->cells[column_of (job_header, "task")]);
  g_assert_cmpuint (task, !=, TW_TASK_NONE);
  row = find_row (f, TW_TIMELINE_ROW_TASK, task);
  tw_test_surface_get_rgb (surface, x_at (f, job->time), TW_TIMELINE_RULER_HEIGHT + row->y + 2, px);
  g_assert_true (tw_test_rgb_near (px, sensor_rgb));
  tip = dup_tooltip_at (f, x_at (f, job->time), TW_TIMELINE_RULER_HEIGHT + row->y + 2, NULL);
  g_assert_nonnull (tip);
  g_test_message ("tooltip: %s", tip);
  want_job = g_strdup_printf ("job=%s ", job->cells[column_of (job_header, "job")]);
  want_response = g_strdup_printf ("response_ns=%s", job->cells[column_of (job_header, "response_ns")]);
  g_assert_nonnull (strstr (tip, "demo-rt-1@job-end"));
  g_assert_nonnull (strstr (tip, want_job));
  g_assert_nonnull (strstr (tip, want_response));

  cairo_surface_destroy (surface);
  csv_rows_free (loads);
  csv_rows_free (jobs);
  fixture_teardown (f, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display (run under xvfb-run)");
      return g_test_run ();
    }

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/widgets/live-tracks/load-height", test_load_height);
  ADD ("/tw/widgets/live-tracks/sensor-mark", test_sensor_mark);
  ADD ("/tw/widgets/live-tracks/growing", test_growing);
#undef ADD
  g_test_add_func ("/tw/widgets/live-tracks/recorded-session", test_recorded_session);

  return g_test_run ();
}
