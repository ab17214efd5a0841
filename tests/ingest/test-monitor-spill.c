/* test-monitor-spill.c: a live store's chunks past the memory budget live in a file of the cache folder
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-huge-array.h"
#include "tw-test-utils.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#define SCHEMA   "u64 seq; u64 value; u64 check"
#define CAPACITY 65536
/* less than a chunk's rows: the chunks after the first are made in the file */
#define BUDGET   (1 << 20)

typedef struct {
  guint64 seq;
  guint64 value;
  guint64 check;
} Element;

static guint64
element_check (guint64 seq)
{
  return (seq + 0x9E3779B97F4A7C15u) * 0xBF58476D1CE4E5B9u;
}

/* @n more elements, a sensor's capacity at a time, each drained into the store. */
static void
produce (TwSensor  *sensor,
         TwMonitor *monitor,
         guint64   *seq,
         guint64    n)
{
  for (guint64 end = *seq + n; *seq < end;)
    {
      for (guint i = 0; i < CAPACITY && *seq < end; i++, (*seq)++)
        {
          Element *e = tw_sensor_write (sensor);

          *e = (Element) { *seq, *seq * 3, element_check (*seq) };
          tw_sensor_commit (sensor, e);
        }
      tw_monitor_poll (monitor);
      tw_monitor_flush (monitor);
    }
}

static TwMonitor *
start_monitor (const char *dir,
               TwSensor  **sensor)
{
  TwMonitor *monitor = tw_monitor_new (dir);

  *sensor = tw_sensor_new ("spill", "s", SCHEMA, CAPACITY, 0);
  g_assert_nonnull (*sensor);
  tw_monitor_set_from_start (monitor, TRUE);
  tw_monitor_set_reorder_window (monitor, 0);
  return monitor;
}

/* Rows [from, n) are the sensor's elements in order, checksums right. */
static void
check_rows (TwTrace *trace,
            guint64  from,
            guint64  n)
{
  guint16 type = G_MAXUINT16;

  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, n);
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    if (g_str_has_suffix (tw_trace_get_event_type (trace, t)->name, "s"))
      type = t;
  g_assert_cmpuint (type, !=, G_MAXUINT16);
  for (guint64 i = from; i < n; i += 997)
    {
      TwEvent event;
      TwValue seq, check;

      tw_trace_get_event (trace, i, &event);
      g_assert_cmpuint (event.type, ==, type);
      g_assert_true (tw_trace_get_event_field (trace, &event, "seq", &seq));
      g_assert_true (tw_trace_get_event_field (trace, &event, "check", &check));
      g_assert_cmpuint (seq.u, ==, i);
      g_assert_cmpuint (check.u, ==, element_check (i));
    }
}

/* The inode of the mapping holding @address (/proc/self/maps), 0 for anonymous memory. */
static guint64
mapping_inode (gconstpointer address)
{
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      guint64 start, end, inode = 0;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %*s %*s %*s %" G_GINT64_MODIFIER "u",
                  &start, &end, &inode) == 3 &&
          (guint64) (guintptr) address >= start && (guint64) (guintptr) address < end)
        return inode;
    }
  g_assert_not_reached ();
  return 0;
}

/* The live store's file: the open descriptor of an unlinked file in the cache folder,
 * -1 when there is none. */
static int
find_store_fd (void)
{
  g_autofree char *folder = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  g_autoptr(GDir) fds = g_dir_open ("/proc/self/fd", 0, NULL);
  const char *name;
  int found = -1;

  while ((name = g_dir_read_name (fds)))
    {
      g_autofree char *link = g_build_filename ("/proc/self/fd", name, NULL);
      g_autofree char *target = g_file_read_link (link, NULL);

      if (target && g_str_has_prefix (target, folder) && g_str_has_suffix (target, "(deleted)"))
        {
          g_assert_cmpint (found, ==, -1);
          found = atoi (name);
        }
    }
  return found;
}

static struct stat
store_stat (void)
{
  struct stat st;
  int fd = find_store_fd ();

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  return st;
}

/* A store within the memory budget stays in memory and writes no file. */
static void
test_within_budget (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  TwSensor *sensor;
  TwMonitor *monitor = start_monitor (dir, &sensor);
  guint64 seq = 0, n = TW_CHUNK_SIZE * 5 / 2;

  tw_huge_array_set_memory_budget (G_MAXSIZE / 2);
  produce (sensor, monitor, &seq, n);
  check_rows (tw_monitor_get_trace (monitor), 0, n);
  g_assert_cmpint (find_store_fd (), ==, -1);
  for (guint c = 0; c < 3; c++)
    g_assert_cmpuint (mapping_inode (tw_trace_get_chunk (tw_monitor_get_trace (monitor), c)->time), ==, 0);

  g_object_unref (monitor);
  tw_sensor_free (sensor);
  tw_test_remove_sensor_dir (dir);
  tw_huge_array_set_memory_budget (BUDGET);
}

/* Two chunks and a half past a budget smaller than a chunk: the first chunk, made
 * within it, stays in memory; every later chunk's columns and payloads are pages of
 * the file, and the rows read back from the first. */
static void
test_file_backed (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  TwSensor *sensor;
  g_autoptr(TwMonitor) monitor = start_monitor (dir, &sensor);
  TwTrace *trace = tw_monitor_get_trace (monitor);
  guint64 seq = 0, n = TW_CHUNK_SIZE * 5 / 2;
  struct stat st;

  produce (sensor, monitor, &seq, n);
  check_rows (trace, 0, n);
  g_assert_cmpuint (tw_trace_get_n_chunks (trace), ==, 3);
  st = store_stat ();
  g_assert_cmpuint (mapping_inode (tw_trace_get_chunk (trace, 0)->time), ==, 0);
  for (guint c = 1; c < 3; c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      g_assert_cmpuint (mapping_inode (chunk->time), ==, st.st_ino);
      g_assert_cmpuint (mapping_inode (chunk->blob), ==, st.st_ino);
    }
  /* the rows' columns and payloads take blocks of the file: 24 + 24 bytes a row */
  g_assert_cmpuint ((guint64) st.st_blocks * 512, >=, (n - TW_CHUNK_SIZE) * 48);

  tw_sensor_free (sensor);
  tw_test_remove_sensor_dir (dir);
}

/* A flight recorder that keeps the last chunk: released chunks give their blocks back
 * and their slots to later chunks, so the file neither fills the disk nor grows; the
 * released rows read as zeros and the kept ones stay right. */
static void
test_flight_gives_blocks_back (void)
{
  char *dir = tw_test_use_temp_sensor_dir ();
  TwSensor *sensor;
  g_autoptr(TwMonitor) monitor = start_monitor (dir, &sensor);
  TwTrace *trace = tw_monitor_get_trace (monitor);
  guint64 seq = 0;
  struct stat before, after;
  off_t size_after_first = 0;

  produce (sensor, monitor, &seq, TW_CHUNK_SIZE * 3);
  before = store_stat ();
  for (guint round = 0; round < 6; round++)
    {
      const TwEventChunk *first;

      g_assert_cmpuint (tw_trace_release_before (trace, seq - TW_CHUNK_SIZE / 2), ==,
                        (seq / TW_CHUNK_SIZE - 1) * TW_CHUNK_SIZE);
      after = store_stat ();
      /* at most two chunks' blocks, of three and more written */
      g_assert_cmpuint ((guint64) after.st_blocks * 512, <=, (guint64) TW_CHUNK_SIZE * 48 * 2 + (4 << 20));
      g_assert_cmpuint (after.st_blocks, <, before.st_blocks);
      if (round == 0)
        size_after_first = after.st_size;
      /* slots are reused: the file is no longer than after the first release */
      g_assert_cmpint (after.st_size, <=, size_after_first);
      first = tw_trace_get_chunk (trace, 0);
      g_assert_cmpuint (tw_trace_get_time (trace, 0), ==, 0);
      g_assert_cmpuint (mapping_inode (first->time), ==, 0);
      g_assert_cmpuint (((const guint64 *) first->blob)[0], ==, 0);
      /* a released chunk of the file is anonymous zero pages now */
      g_assert_cmpuint (mapping_inode (tw_trace_get_chunk (trace, 1)->time), ==, 0);
      g_assert_cmpuint (tw_trace_get_time (trace, TW_CHUNK_SIZE), ==, 0);
      produce (sensor, monitor, &seq, TW_CHUNK_SIZE);
    }
  check_rows (trace, tw_trace_release_before (trace, 0), seq);

  tw_sensor_free (sensor);
  tw_test_remove_sensor_dir (dir);
}

/* The cache folder on a small filesystem (root: a 40 MiB tmpfs mounted there): the
 * disk fills during the session, no SIGBUS, the rest goes to memory, every row reads
 * back right. */
static void
test_disk_full (void)
{
  g_autofree char *folder = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  char *dir;
  TwSensor *sensor;
  TwMonitor *monitor;
  guint64 seq = 0, n = TW_CHUNK_SIZE * 6;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  if (mount ("tw-spill-test", folder, "tmpfs", 0, "size=40m") < 0)
    {
      g_test_skip_printf ("cannot mount a small tmpfs (%s): root only", g_strerror (errno));
      return;
    }
  dir = tw_test_use_temp_sensor_dir ();
  monitor = start_monitor (dir, &sensor);
  produce (sensor, monitor, &seq, n);
  check_rows (tw_monitor_get_trace (monitor), 0, n);
  /* the chunks after the first are in the file until it is full, the last ones in memory */
  g_assert_cmpuint (mapping_inode (tw_trace_get_chunk (tw_monitor_get_trace (monitor), 1)->time), !=, 0);
  g_assert_cmpuint (mapping_inode (tw_trace_get_chunk (tw_monitor_get_trace (monitor), 5)->time), ==, 0);

  g_object_unref (monitor);
  tw_sensor_free (sensor);
  tw_test_remove_sensor_dir (dir);
  g_assert_cmpint (umount2 (folder, MNT_DETACH), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tw_huge_array_set_memory_budget (BUDGET);

  g_test_add_func ("/tw/ingest/monitor-spill/within-budget", test_within_budget);
  g_test_add_func ("/tw/ingest/monitor-spill/file-backed", test_file_backed);
  g_test_add_func ("/tw/ingest/monitor-spill/flight-gives-blocks-back", test_flight_gives_blocks_back);
  g_test_add_func ("/tw/ingest/monitor-spill/disk-full", test_disk_full);
  return g_test_run ();
}
