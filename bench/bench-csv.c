/* bench-csv.c: CSV events ingest and CSV writing rate, beside reading the same file raw
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-csv [LINES]   (default 1000000)
 */
#include "config.h"

#include <tw-ingest.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* A scheduler-like mix: switches with prev_state, wakeups, irq pairs, user events with a
 * text argument, and a few events of a kind of their own. */
static void
write_input (const char *path,
             guint       lines)
{
  g_autoptr(GString) text = g_string_new ("time_ns,cpu,task,event,task_name,next,prev_state,"
                                          "target,irq,id,msg\n");
  g_autoptr(GError) error = NULL;
  guint64 t = 1000000;

  for (guint i = 0; i < lines; i++)
    {
      guint cpu = i % 4;
      guint task = 100 + (i * 7) % 64;

      t += 250 + (i * 13) % 500;
      switch (i % 8)
        {
        case 0:
        case 4:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,switch,%s,%u,%s,,,,\n", t,
                                  cpu, task, i < 64 * 8 ? "worker" : "", 100 + (i * 11) % 64,
                                  i % 3 ? "S" : "R+");
          break;
        case 1:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,wakeup,,,,%u,,,\n", t, cpu,
                                  task, 100 + (i * 5) % 64);
          break;
        case 2:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,irq_entry,,,,,%u,,\n", t,
                                  cpu, task, 16 + i % 8);
          break;
        case 3:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,irq_exit,,,,,%u,,\n", t,
                                  cpu, task, 16 + (i - 1) % 8);
          break;
        case 5:
        case 6:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,user,,,,,,%u,\"job %u\"\n",
                                  t, cpu, task, i % 16, i % 1000);
          break;
        default:
          g_string_append_printf (text, "%" G_GUINT64_FORMAT ",%u,%u,heartbeat,,,,,,,ok\n", t,
                                  cpu, task);
          break;
        }
    }
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double
time_raw_read (const char *path,
               gsize      *bytes)
{
  g_autofree char *buf = g_malloc (1 << 20);
  gint64 start = g_get_monotonic_time ();
  int fd = open (path, O_RDONLY);
  gssize n;

  *bytes = 0;
  g_assert_cmpint (fd, >=, 0);
  while ((n = read (fd, buf, 1 << 20)) > 0)
    *bytes += n;
  close (fd);
  return (g_get_monotonic_time () - start) / 1e6;
}

int
main (int   argc,
      char *argv[])
{
  guint lines = argc > 1 ? (guint) strtoul (argv[1], NULL, 10) : 1000000;
  g_autofree char *dir = g_dir_make_tmp ("bench-csv-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "events.csv", NULL);
  g_autofree char *out_path = g_build_filename (dir, "written.csv", NULL);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) out_file = NULL;
  g_autoptr(GFileOutputStream) out = NULL;
  double raw, ingest, writing, ingest_cpu, writing_cpu;
  gsize bytes;
  gint64 start;

  write_input (path, lines);

  /* warm the page cache, then time a plain read of the file: the floor for any reader */
  time_raw_read (path, &bytes);
  raw = time_raw_read (path, &bytes);

  /* CPU time too: on a shared machine the wall clock also counts other processes. */
  start = g_get_monotonic_time ();
  ingest_cpu = cpu_seconds ();
  trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  ingest_cpu = cpu_seconds () - ingest_cpu;
  ingest = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, lines);

  out_file = g_file_new_for_path (out_path);
  out = g_file_replace (out_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  writing_cpu = cpu_seconds ();
  tw_csv_writer_write (trace, G_OUTPUT_STREAM (out), NULL, &error);
  g_output_stream_close (G_OUTPUT_STREAM (out), NULL, &error);
  writing_cpu = cpu_seconds () - writing_cpu;
  writing = (g_get_monotonic_time () - start) / 1e6;
  g_assert_no_error (error);

  printf ("file              %u lines, %.1f MB\n", lines, bytes / 1e6);
  printf ("raw read (cat)    %.3f s   %8.0f MB/s\n", raw, bytes / 1e6 / raw);
  printf ("csv ingest        %.3f s   %8.0f MB/s   %6.2f M events/s   (CPU %.3f s: %.2f M events/s)\n",
          ingest, bytes / 1e6 / ingest, lines / 1e6 / ingest, ingest_cpu, lines / 1e6 / ingest_cpu);
  printf ("csv write         %.3f s   %8.2f M events/s   (CPU %.3f s: %.2f M events/s)\n",
          writing, lines / 1e6 / writing, writing_cpu, lines / 1e6 / writing_cpu);
  printf ("store             %.1f B/event (core columns + payload blobs)\n",
          (double) tw_trace_get_memory_size (trace) / lines);

  g_unlink (out_path);
  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
