/* test-sensor-stress.c: writers at full speed into small buffers while a reader reads
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ground truth comes from the writers (how many they committed, and the sequence
 * number and checksum inside every element); the reader's counts must match it exactly,
 * and no element whose checksum is broken (torn by a concurrent overwrite) may ever be
 * delivered.
 */
#include "config.h"

#include <tw-sensor.h>

#include "tw-test-utils.h"

#include <glib/gstdio.h>
#include <stdatomic.h>

#define STRESS_SECONDS 1.5
#define MAX_WRITERS    3

typedef struct {
  uint32_t writer;
  uint32_t pad;
  uint64_t seq;
  uint64_t a;
  uint64_t check;
} Payload;

#define SCHEMA "u32 writer; u32 pad; u64 seq; u64 a; u64 check"

static uint64_t
checksum (uint32_t writer, uint64_t seq, uint64_t a)
{
  uint64_t h = (seq + 1) * UINT64_C (0x9E3779B97F4A7C15);

  h ^= a + UINT64_C (0x632BE59BD9B4E019) + (h << 6) + (h >> 2);
  h ^= writer + UINT64_C (0x8CB92BA72F3D8DD7) + (h << 6) + (h >> 2);
  return h;
}

static bool
payload_intact (const Payload *p)
{
  return p->writer < MAX_WRITERS && p->check == checksum (p->writer, p->seq, p->a);
}

typedef struct {
  TwSensor   *sensor;
  uint32_t    id;
  atomic_bool *stop;
  uint64_t    committed;
  uint64_t    refused;
} Writer;

static gpointer
writer_thread (gpointer data)
{
  Writer *w = data;
  uint64_t seq = 0;

  while (!atomic_load_explicit (w->stop, memory_order_relaxed))
    {
      Payload *p = tw_sensor_write (w->sensor);

      if (!p)
        {
          w->refused++;
          continue;
        }
      /* Field by field, so that a concurrent copy can catch a mix of two elements. */
      p->writer = w->id;
      p->seq = seq;
      p->a = seq * 2654435761u ^ w->id;
      p->check = checksum (w->id, seq, p->a);
      tw_sensor_commit (w->sensor, p);
      seq++;
    }
  w->committed = seq;
  return NULL;
}

typedef struct {
  uint64_t next_seq[MAX_WRITERS];
  uint64_t received[MAX_WRITERS];
  uint64_t next_position;
  uint64_t position_gaps;
  uint64_t delivered;
  uint64_t torn_caught;
  uint64_t inconsistent;
} Observed;

static void
observe (Observed *o, const Payload *p, uint64_t position, bool simple)
{
  if (!payload_intact (p))
    g_error ("a torn element was delivered at position %" G_GUINT64_FORMAT, position);
  g_assert_cmpuint (position, >=, o->next_position);
  o->position_gaps += position - o->next_position;
  o->next_position = position + 1;
  if (simple)
    g_assert_cmpuint (p->seq, ==, position);
  /* Each writer's own elements arrive in the order it committed them. */
  g_assert_cmpuint (p->seq, >=, o->next_seq[p->writer]);
  o->next_seq[p->writer] = p->seq + 1;
  o->received[p->writer]++;
  o->delivered++;
}

static void
run_stress (unsigned flags, guint n_writers, size_t capacity)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *parent = g_dir_make_tmp ("tw-sensor-stress-XXXXXX", &error);
  g_autofree char *dir = g_build_filename (parent, "sensors", NULL);
  TwSensorParams params = { .max_writers = MAX_WRITERS + 1 };
  TwSensor *sensor;
  TwSensorReader *reader;
  TwSensorReaderCounts counts;
  TwSensorInfo info;
  Writer writers[MAX_WRITERS];
  GThread *threads[MAX_WRITERS];
  atomic_bool stop = false;
  Observed o = { 0 };
  bool simple = !(flags & TW_SENSOR_CONCURRENT);
  uint64_t committed = 0, missed_per_writer = 0, iterations = 0;
  guint8 batch[8 * sizeof (Payload) + 8 * 8];
  gint64 end;

  g_assert_no_error (error);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  sensor = tw_sensor_new_full ("stress", simple ? "simple" : "concurrent", SCHEMA, capacity,
                               flags | TW_SENSOR_UNLINK_ON_FREE, &params);
  g_assert_nonnull (sensor);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_get_info (reader, &info);
  g_assert_cmpuint (info.element_size, ==, 8 + sizeof (Payload));
  tw_sensor_reader_seek_start (reader);

  for (guint i = 0; i < n_writers; i++)
    {
      writers[i] = (Writer) { sensor, i, &stop, 0, 0 };
      threads[i] = g_thread_new ("sensor-writer", writer_thread, &writers[i]);
    }

  end = g_get_monotonic_time () + (gint64) (STRESS_SECONDS * G_USEC_PER_SEC);
  for (bool stopped = false;; iterations++)
    {
      int ret;

      if (!stopped && g_get_monotonic_time () >= end)
        {
          atomic_store (&stop, true);
          for (guint i = 0; i < n_writers; i++)
            g_thread_join (threads[i]);
          stopped = true;
        }
      if (iterations % 2 == 0)
        {
          TwSensorElement element;
          bool raw_intact;

          /* prepare → evaluate (here: check the checksum) → commit */
          ret = tw_sensor_reader_prepare (reader, &element);
          g_assert_cmpint (ret, >=, 0);
          if (ret == TW_SENSOR_READ_EMPTY)
            {
              if (stopped)
                break;
              continue;
            }
          g_assert_cmpuint (element.payload_size, ==, sizeof (Payload));
          raw_intact = payload_intact (element.payload);
          ret = tw_sensor_reader_commit (reader);
          g_assert_cmpint (ret, >=, 0);
          if (ret == TW_SENSOR_READ_ELEMENT)
            {
              g_assert_true (raw_intact);
              observe (&o, element.payload, element.position, simple);
            }
          else
            {
              g_assert_cmpint (ret, ==, TW_SENSOR_READ_INCONSISTENT);
              o.inconsistent++;
              if (!raw_intact)
                o.torn_caught++;
            }
        }
      else
        {
          uint64_t first = 0;

          ret = tw_sensor_reader_read_batch (reader, batch, 8, &first);
          g_assert_cmpint (ret, >=, 0);
          for (int i = 0; i < ret; i++)
            {
              Payload p;

              memcpy (&p, batch + (size_t) i * info.element_size + 8, sizeof p);
              observe (&o, &p, first + (uint64_t) i, simple);
            }
        }
    }

  counts = tw_sensor_reader_get_counts (reader);
  for (guint i = 0; i < n_writers; i++)
    {
      committed += writers[i].committed;
      /* After the writers stopped the reader drains what is left: a simple sensor's last
       * element is always there; a concurrent writer's may have been overwritten by the
       * others, but never one it did not commit. */
      if (simple)
        g_assert_cmpuint (o.next_seq[i], ==, writers[i].committed);
      else
        g_assert_cmpuint (o.next_seq[i], <=, writers[i].committed);
      missed_per_writer += writers[i].committed - o.received[i];
      g_assert_cmpuint (writers[i].refused, ==, 0);
    }
  g_test_message ("%u writer(s), capacity %zu: committed %" G_GUINT64_FORMAT ", received %" G_GUINT64_FORMAT
                  ", missed %" G_GUINT64_FORMAT " (inconsistent %" G_GUINT64_FORMAT ", torn copies caught %"
                  G_GUINT64_FORMAT "), timestamps backwards %" G_GUINT64_FORMAT,
                  n_writers, capacity, committed, counts.received, counts.missed, counts.inconsistent,
                  o.torn_caught, counts.nonmonotonic);

  g_assert_cmpuint (counts.received, ==, o.delivered);
  g_assert_cmpuint (counts.received + counts.missed, ==, committed);
  g_assert_cmpuint (counts.missed, ==, committed - o.delivered);
  g_assert_cmpuint (counts.missed, ==, missed_per_writer);
  g_assert_cmpuint (counts.missed, ==, o.position_gaps + (committed - o.next_position));
  g_assert_cmpuint (o.next_position, ==, committed);   /* the stream's last element arrived */
  /* Batches drop overwritten elements too: they count as inconsistent, not seen here. */
  g_assert_cmpuint (counts.inconsistent, >=, o.inconsistent);
  g_assert_cmpuint (tw_sensor_get_committed (sensor), ==, committed);
  g_assert_cmpuint (counts.nonmonotonic, ==, 0);
  g_assert_cmpuint (committed, >, 10000);

  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  g_rmdir (dir);
  g_rmdir (parent);
}

static void
test_stress_simple (void)
{
  run_stress (0, 1, 16);
}

static void
test_stress_concurrent (void)
{
  run_stress (TW_SENSOR_CONCURRENT, MAX_WRITERS, 16);
}

/* One writer on a concurrent sensor leaves the reader a core: many more reads race the
 * writer's reuse of elements than with the CPUs saturated by writers. */
static void
test_stress_concurrent_one (void)
{
  run_stress (TW_SENSOR_CONCURRENT, 1, 8);
}

static void
test_stress_concurrent_pair (void)
{
  run_stress (TW_SENSOR_CONCURRENT, 2, 4);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/sensor/stress/simple", test_stress_simple);
  g_test_add_func ("/tw/ingest/sensor/stress/concurrent", test_stress_concurrent);
  g_test_add_func ("/tw/ingest/sensor/stress/concurrent-one", test_stress_concurrent_one);
  g_test_add_func ("/tw/ingest/sensor/stress/concurrent-pair", test_stress_concurrent_pair);

  return g_test_run ();
}
