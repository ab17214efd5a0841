/* bench-shark-ingest.c: S.Ha.R.K. dump ingest speed and memory per event, beside `cat`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double
now_s (void)
{
  return g_get_monotonic_time () / 1e6;
}

/* CPU time of this thread: on a shared machine it says what one core needs even when
 * other processes take turns on it. */
static double
cpu_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static gsize
resident_bytes (void)
{
  g_autofree char *text = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &text, NULL, NULL) ||
      sscanf (text, "%lu %lu", &size, &resident) != 2)
    return 0;
  return (gsize) resident * sysconf (_SC_PAGESIZE);
}

/* Reads the whole file once so that every run reads from the page cache. */
static void
warm_page_cache (const char *path)
{
  static char buf[1 << 20];
  int fd = open (path, O_RDONLY);

  if (fd < 0)
    return;
  while (read (fd, buf, sizeof buf) > 0)
    ;
  close (fd);
}

static double
time_cat (const char *path)
{
  g_autofree char *quoted = g_shell_quote (path);
  g_autofree char *command = g_strdup_printf ("cat %s > /dev/null", quoted);
  char *argv[] = { (char *) "/bin/sh", (char *) "-c", command, NULL };
  double best = G_MAXDOUBLE;

  for (int run = 0; run < 3; run++)
    {
      double start = now_s ();

      if (!g_spawn_sync (NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, NULL, NULL))
        return -1;
      best = MIN (best, now_s () - start);
    }
  return best;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("— S.Ha.R.K. ingest benchmark");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwReader) reader = tw_reader_new (&tw_shark_reader_info);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwStateModel) model = NULL;
  g_autofree char *file = NULL;
  gint64 events = 50000000;
  gint runs = 3;
  double best = G_MAXDOUBLE;
  double best_cpu = G_MAXDOUBLE;
  double cat_s;
  guint64 n = 0;
  gsize file_size;
  gsize rss_before = 0, rss_loaded, rss_model;
  GStatBuf st;
  const GOptionEntry entries[] = {
    { "file", 0, 0, G_OPTION_ARG_FILENAME, &file, "A dump to read (default: simulate one in /tmp)", "FILE" },
    { "events", 0, 0, G_OPTION_ARG_INT64, &events, "Events of the simulated dump (default 50 M)", "N" },
    { "runs", 0, 0, G_OPTION_ARG_INT, &runs, "Timed runs, the best counts (default 3)", "N" },
    { NULL }
  };

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || events < 1 || runs < 1)
    {
      g_printerr ("bench-shark-ingest: %s\n", error ? error->message : "bad arguments");
      return 2;
    }

  if (file == NULL)
    {
      file = g_strdup_printf ("%s/tw-bench-shark-%" G_GINT64_FORMAT ".shark", g_get_tmp_dir (), events);
      if (g_stat (file, &st) != 0 || (guint64) st.st_size != (guint64) events * 16)
        {
          TwSimulatorOptions options;
          double start = now_s ();

          tw_simulator_options_init (&options);
          options.max_events = events;
          options.n_tasks = 8;
          options.utilization = 0.8;
          options.overrun_probability = 0.01;
          if (!tw_simulator_write_file (&options, file, NULL, &error))
            {
              g_printerr ("bench-shark-ingest: %s\n", error->message);
              return 1;
            }
          g_print ("simulate        %" G_GINT64_FORMAT " events in %.3f s (%.1f M events/s, to %s)\n",
                   events, now_s () - start, events / (now_s () - start) / 1e6, file);
        }
    }
  if (g_stat (file, &st) != 0)
    {
      g_printerr ("bench-shark-ingest: %s: cannot stat\n", file);
      return 1;
    }
  file_size = st.st_size;

  warm_page_cache (file);
  cat_s = time_cat (file);

  for (int run = 0; run < runs; run++)
    {
      double start, elapsed, cpu_start, cpu;

      g_clear_object (&trace);
      trace = tw_trace_new ();
      if (run == 0)
        rss_before = resident_bytes ();
      start = now_s ();
      cpu_start = cpu_s ();
      if (!tw_reader_read (reader, file, trace, NULL, NULL, NULL, &error) ||
          !tw_trace_seal (trace, NULL, &error))
        {
          g_printerr ("bench-shark-ingest: %s\n", error->message);
          return 1;
        }
      elapsed = now_s () - start;
      cpu = cpu_s () - cpu_start;
      g_print ("run %d          %.3f s = %.1f M events/s (thread CPU %.3f s = %.1f M events/s)\n",
               run + 1, elapsed, tw_trace_get_n_events (trace) / elapsed / 1e6,
               cpu, tw_trace_get_n_events (trace) / cpu / 1e6);
      best = MIN (best, elapsed);
      best_cpu = MIN (best_cpu, cpu);
      n = tw_trace_get_n_events (trace);
    }
  rss_loaded = resident_bytes ();

  model = tw_state_model_new (trace);
  {
    double start = now_s ();
    double start_cpu = cpu_s ();
    double wall, cpu;

    tw_state_model_update (model, NULL, NULL);
    wall = now_s () - start;
    cpu = cpu_s () - start_cpu;
    g_print ("state model     %.3f s = %.1f M events/s (thread CPU %.3f s = %.1f M events/s)\n",
             wall, n / wall / 1e6, cpu, n / cpu / 1e6);
  }
  rss_model = resident_bytes ();

  g_print ("file            %s: %" G_GUINT64_FORMAT " events, %.1f MB\n", file, n, file_size / 1e6);
  g_print ("ingest (best of %d, one core, page cache): %.3f s = %.1f M events/s, %.0f MB/s\n",
           runs, best, n / best / 1e6, file_size / best / 1e6);
  g_print ("ingest (best thread CPU time of %d): %.3f s = %.1f M events/s\n",
           runs, best_cpu, n / best_cpu / 1e6);
  g_print ("cat FILE > /dev/null (same run, best of 3):  %.3f s = %.0f MB/s\n",
           cat_s, file_size / cat_s / 1e6);
  g_print ("resident after load:  %.2f B/event (RSS delta); store %.2f B/event "
           "(core columns 24 + payload blob %.2f)\n",
           (double) (rss_loaded - rss_before) / n,
           (double) tw_trace_get_memory_size (trace) / n,
           (double) tw_trace_get_memory_size (trace) / n - 24.0);
  g_print ("with state model:     %.2f B/event (RSS delta); model %.2f B/event\n",
           (double) (rss_model - rss_before) / n,
           (double) tw_state_model_get_memory_size (model) / n);
  g_print ("run 1 maps fresh memory for the store; later runs reuse the mappings the store keeps\n"
           "from the trace freed before them (as closing and reopening a trace in the app does)\n");
  g_print ("targets: >= 100 M events/s; <= 24 B/event core columns; <= 48 B/event with models\n");
  return 0;
}
