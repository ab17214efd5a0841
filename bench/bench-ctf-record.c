/* bench-ctf-record.c: recording a large live store as CTF, beside our CSV writer and
 * babeltrace2's own CTF-to-CTF conversion of the same trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * usage: bench-ctf-record [--packer-only] [--dir DIR] [EVENTS]   (default 4000000)
 *   --packer-only  only the packer's rows (no babeltrace2 writer, CSV or peer)
 *   --dir DIR      write under DIR (default: a new folder in the temporary directory)
 *
 * The store is what a live session holds (kernel switches and wakeups on 4 CPUs, sensor
 * elements without a CPU, libgtop samples), appended and never sealed, as the window's
 * Record… finds it. Figures, in events/s:
 *   packer     tw_ctf_packer_write_range(): our packer (tw-ctf-packer.c), to the page
 *              cache (no fsync), with one thread and with one per processor (what
 *              Record… uses)
 *   packer+sync tw_ctf_writer_write_events(): the same, written beside, fsync'ed and
 *              renamed, as Record… and --record do: to the disk
 *   bt         our source component → sink.ctf.fs (tw-ctf-bt-writer.c), to the page
 *              cache: the writer recording used before the packer
 *   source     our source component → sink.utils.dummy: what our messages cost alone
 *   csv        tw_csv_writer_write_events() of the same rows (the export)
 *   peer       `babeltrace2 TRACE --output-format=ctf --output DIR`: babeltrace2's own
 *              src.ctf.fs → sink.ctf.fs of the trace we wrote, in its own process
 * Before each writer, what the ones before wrote is synced and dropped from the page
 * cache (not timed).
 */
#include "config.h"

#include "tw-test-utils.h"

#include <tw-ctf-packer.h>
#include <tw-ctf-writer-private.h>
#include <tw-ingest.h>
#include <tw-kernel-common-private.h>

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static TwTrace *
make_live_store (guint64 n_events)
{
  static const TwFieldSpec sensor_fields[] = {
    { "value",  TW_FIELD_F64, TW_FIELD_FLAG_NONE },
    { "seq",    TW_FIELD_U64, TW_FIELD_FLAG_NONE },
    { "status", TW_FIELD_U32, TW_FIELD_FLAG_NONE },
  };
  static const TwFieldSpec cpu_fields[] = {
    { "load_pct", TW_FIELD_F64, TW_FIELD_FLAG_CPU_LOAD },
  };
  TwTrace *trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;
  guint16 sw, wake, sensor, load;
  guint32 tasks[64], idle[4], sensor_task;
  guint8 payload[128];
  guint32 states[2];
  guint64 t = 1000000;

  sw = tw_trace_add_event_type (trace, "sched_switch", "sched", TW_EVENT_KIND_SWITCH, _tw_kernel_switch_fields,
                                G_N_ELEMENTS (_tw_kernel_switch_fields), &error);
  wake = tw_trace_add_event_type (trace, "sched_wakeup", "sched", TW_EVENT_KIND_WAKEUP, _tw_kernel_wakeup_fields,
                                  G_N_ELEMENTS (_tw_kernel_wakeup_fields), &error);
  sensor = tw_trace_add_event_type (trace, "ctl", "sensor", TW_EVENT_KIND_SENSOR, sensor_fields,
                                    G_N_ELEMENTS (sensor_fields), &error);
  load = tw_trace_add_event_type (trace, "gtop_cpu_load", "gtop", TW_EVENT_KIND_OTHER, cpu_fields,
                                  G_N_ELEMENTS (cpu_fields), &error);
  g_assert_no_error (error);
  for (guint c = 0; c < 4; c++)
    {
      g_autofree char *id = g_strdup_printf ("0/%u", c);
      g_autofree char *name = g_strdup_printf ("swapper/%u", c);

      idle[c] = tw_trace_add_task (trace, id, name, 0, 0);
      tw_trace_set_task_flags (trace, idle[c], TW_TASK_FLAG_IDLE);
    }
  for (guint k = 0; k < G_N_ELEMENTS (tasks); k++)
    {
      g_autofree char *id = g_strdup_printf ("%u", 1000 + k);
      g_autofree char *name = g_strdup_printf ("worker-%u", k);

      tasks[k] = tw_trace_add_task (trace, id, name, -1, 1000 + k);
    }
  sensor_task = tw_trace_add_task (trace, "sensor:999:ctl", "ctl", 999, -1);
  states[0] = tw_trace_intern_task_state (trace, "S", TW_TASK_STATE_BLOCKED);
  states[1] = tw_trace_intern_task_state (trace, "R+", TW_TASK_STATE_READY);

  for (guint64 i = 0; i < n_events; i++)
    {
      guint16 c = i % 4;
      guint32 task = tasks[(i * 7) % 64];
      const TwEventType *type;
      TwValue v;

      t += 97 + i % 50;
      memset (payload, 0, sizeof payload);
      switch (i % 8)
        {
        case 0: case 1: case 2: case 3:
          type = tw_trace_get_event_type (trace, sw);
          v = (TwValue) { .type = TW_FIELD_STRING, .str = states[i % 3 == 0] };
          tw_event_type_set_field (type, payload, 3, &v);
          v = (TwValue) { .type = TW_FIELD_I64, .i = 120 };
          tw_event_type_set_field (type, payload, 2, &v);
          tw_trace_append (trace, t, c, sw, i % 2 ? task : idle[c], i % 2 ? idle[c] : task, payload);
          break;
        case 4:
          type = tw_trace_get_event_type (trace, wake);
          v = (TwValue) { .type = TW_FIELD_I64, .i = 120 };
          tw_event_type_set_field (type, payload, 2, &v);
          tw_trace_append (trace, t, c, wake, task, tasks[(i * 11) % 64], payload);
          break;
        case 5: case 6:
          type = tw_trace_get_event_type (trace, sensor);
          v = (TwValue) { .type = TW_FIELD_F64, .f = (double) (i % 1000) / 7.0 };
          tw_event_type_set_field (type, payload, 0, &v);
          v = (TwValue) { .type = TW_FIELD_U64, .u = i };
          tw_event_type_set_field (type, payload, 1, &v);
          v = (TwValue) { .type = TW_FIELD_U32, .u = i % 3 };
          tw_event_type_set_field (type, payload, 2, &v);
          tw_trace_append (trace, t, TW_CPU_NONE, sensor, sensor_task, 0, payload);
          break;
        default:
          type = tw_trace_get_event_type (trace, load);
          v = (TwValue) { .type = TW_FIELD_F64, .f = (double) (i % 100) };
          tw_event_type_set_field (type, payload, 0, &v);
          tw_trace_append (trace, t, c, load, TW_TASK_NONE, 0, payload);
          break;
        }
    }
  return trace;
}

/* CPU time of this process so far, µs: user (packing) and system (the page cache). */
static void
cpu_time (gint64 *user,
          gint64 *sys)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  *user = (gint64) ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec;
  *sys = (gint64) ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

static double
rate (guint64 n,
      gint64  us)
{
  return us > 0 ? (double) n * 1e6 / (double) us : 0;
}

/* The rate and the bytes an event took: all stream files of the trace at @path. */
static void
print_written (const char *what,
               guint64     n,
               gint64      us,
               const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint64 bytes = 0;

  while (dir && (name = g_dir_read_name (dir)))
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      GStatBuf st;

      if (strcmp (name, "metadata") != 0 && g_stat (file, &st) == 0)
        bytes += (guint64) st.st_size;
    }
  printf ("  %s %8.2f M events/s  (%.2f s, %.1f bytes/event, %.0f MB/s)\n", what, rate (n, us) / 1e6, us / 1e6,
          n ? (double) bytes / (double) n : 0, us > 0 ? (double) bytes / (double) us : 0);
}

/* What the runs before wrote under @dir goes to the disk and out of the page cache
 * first (not timed): each writer starts from the same page cache, instead of the
 * second paying for reclaiming the first's pages (at 20 M events, 1.25 GB: twice the
 * system time, whichever writer came second). */
static void
settle (const char *dir)
{
  g_autoptr(GDir) traces = g_dir_open (dir, 0, NULL);
  const char *trace;
  int fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

  if (fd >= 0)
    {
      syncfs (fd);
      close (fd);
    }
  while (traces && (trace = g_dir_read_name (traces)))
    {
      g_autofree char *folder = g_build_filename (dir, trace, NULL);
      g_autoptr(GDir) files = g_dir_open (folder, 0, NULL);
      const char *name;

      while (files && (name = g_dir_read_name (files)))
        {
          g_autofree char *path = g_build_filename (folder, name, NULL);

          fd = open (path, O_RDONLY | O_CLOEXEC);
          if (fd < 0)
            continue;
          posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
          close (fd);
        }
    }
}

/* Packs the store with @n_threads (0: one per processor) into @path, to the page
 * cache, and prints the wall clock and the process's CPU time beside it. */
static void
run_packer (TwTrace    *trace,
            guint64     n,
            guint       n_threads,
            const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *what = NULL;
  g_autofree char *dir = g_path_get_dirname (path);
  gint64 start, us, user0, sys0, user1, sys1;

  settle (dir);
  cpu_time (&user0, &sys0);
  start = g_get_monotonic_time ();
  if (!tw_ctf_packer_write_range (trace, 0, n, path, NULL, n_threads, NULL, NULL, NULL, &error))
    g_error ("%s", error->message);
  us = g_get_monotonic_time () - start;
  cpu_time (&user1, &sys1);
  what = g_strdup_printf ("ours   CTF packer, %u thread%s, page cache  ", n_threads ? n_threads : g_get_num_processors (),
                          (n_threads ? n_threads : g_get_num_processors ()) == 1 ? " " : "s");
  print_written (what, n, us, path);
  printf ("         its CPU: packing (user) %.2f s, page cache (system) %.2f s: %.1f M events/s of CPU time\n",
          (user1 - user0) / 1e6, (sys1 - sys0) / 1e6, rate (n, (user1 - user0) + (sys1 - sys0)) / 1e6);
}

static void
run_peers (TwTrace    *trace,
           guint64     n,
           const char *dir,
           const char *ctf)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bt = g_build_filename (dir, "bt", NULL);
  g_autofree char *csv = g_build_filename (dir, "events.csv", NULL);
  g_autofree char *peer = g_build_filename (dir, "peer", NULL);
  g_autofree char *babeltrace2 = g_find_program_in_path ("babeltrace2");
  g_autoptr(GFile) csv_file = NULL;
  g_autoptr(GFileOutputStream) csv_stream = NULL;
  gint64 start, bt_us, source_us, csv_us;

  start = g_get_monotonic_time ();
  if (!_tw_ctf_bt_writer_write_range (trace, 0, n, NULL, &error))
    g_error ("%s", error->message);
  source_us = g_get_monotonic_time () - start;

  settle (dir);
  start = g_get_monotonic_time ();
  if (!_tw_ctf_bt_writer_write_range (trace, 0, n, bt, &error))
    g_error ("%s", error->message);
  bt_us = g_get_monotonic_time () - start;

  csv_file = g_file_new_for_path (csv);
  csv_stream = g_file_replace (csv_file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, &error);
  g_assert_no_error (error);
  start = g_get_monotonic_time ();
  if (!tw_csv_writer_write_events (trace, n, G_OUTPUT_STREAM (csv_stream), NULL, NULL, NULL, &error))
    g_error ("%s", error->message);
  g_output_stream_close (G_OUTPUT_STREAM (csv_stream), NULL, NULL);
  csv_us = g_get_monotonic_time () - start;

  print_written ("ours   CTF source → sink.ctf.fs, page cache", n, bt_us, bt);
  printf ("  ours   source alone (→ sink.utils.dummy)  %8.2f M events/s\n", rate (n, source_us) / 1e6);
  printf ("  ours   CSV export                         %8.2f M events/s\n", rate (n, csv_us) / 1e6);

  if (babeltrace2 == NULL)
    printf ("  peer   babeltrace2 not installed\n");
  else
    {
      const char *peer_argv[] = { babeltrace2, ctf, "--output-format=ctf", "--output", peer, NULL };
      int status = 0;

      start = g_get_monotonic_time ();
      if (!g_spawn_sync (NULL, (char **) peer_argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL,
                         &status, &error))
        g_error ("%s", error->message);
      printf ("  peer   babeltrace2 CTF → --output-format=ctf  %8.2f M events/s  (%.2f s, exit %d)\n",
              rate (n, g_get_monotonic_time () - start) / 1e6, (g_get_monotonic_time () - start) / 1e6,
              status);
    }
}

int
main (int    argc,
      char **argv)
{
  gboolean packer_only = FALSE;
  g_autofree char *under = NULL;
  GOptionEntry entries[] = {
    { "packer-only", 0, 0, G_OPTION_ARG_NONE, &packer_only, "Only the packer (no babeltrace2 writer, CSV, peer)", NULL },
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &under, "Write under DIR", "DIR" },
    { NULL },
  };
  g_autoptr(GOptionContext) context = g_option_context_new ("[EVENTS]");
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *one = NULL;
  g_autofree char *ctf = NULL;
  g_autofree char *synced = NULL;
  g_autofree char *load = NULL;
  guint64 n;
  gint64 start, synced_us;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-ctf-record: %s\n", error->message);
      return 2;
    }
  n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 4000000;
  if (!tw_ctf_writer_is_available (&error))
    {
      printf ("bench-ctf-record: skipped: %s\n", error->message);
      return 0;
    }
  if (under)
    {
      g_autofree char *holder = g_build_filename (under, "bench-ctf-record-XXXXXX", NULL);

      dir = g_strdup (g_mkdtemp (holder));
    }
  else
    dir = g_dir_make_tmp ("bench-ctf-record-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_nonnull (dir);
  one = g_build_filename (dir, "one-thread", NULL);
  ctf = g_build_filename (dir, "ctf", NULL);
  synced = g_build_filename (dir, "synced", NULL);

  trace = make_live_store (n);
  g_file_get_contents ("/proc/loadavg", &load, NULL, NULL);
  printf ("live store: %" G_GUINT64_FORMAT " events (switch, wakeup on 4 CPUs; sensor; libgtop), not sealed\n"
          "under %s, %u processors, load average %.14s\n", n, dir, g_get_num_processors (), load ? load : "?");

  run_packer (trace, n, 1, one);
  run_packer (trace, n, 0, ctf);

  settle (dir);
  start = g_get_monotonic_time ();
  if (!tw_ctf_writer_write_events (trace, n, synced, NULL, NULL, NULL, &error))
    g_error ("%s", error->message);
  synced_us = g_get_monotonic_time () - start;
  print_written ("ours   CTF packer, fsync'ed and renamed: disk", n, synced_us, synced);

  if (!packer_only)
    run_peers (trace, n, dir, ctf);
  printf ("  target ≥ 20 M events/s\n");
  tw_test_remove_tree (dir);
  return 0;
}
