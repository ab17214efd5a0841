/* tw-sensor.c: the writer side of sensors (Riegel 2005 §4.1.1–4.1.2)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Simple sensors (one writer at a time) are wait-free: commit stamps the element and
 * publishes the 64-bit element counter with one release store. GRTMon split its counter
 * into two 32-bit words because its CPUs had no atomic 64-bit store; every 64-bit Linux
 * target has one, so the counter is a plain _Atomic uint64_t.
 *
 * Concurrent sensors are lock-free and follow GRTMon's dequeue/enqueue on an index array
 * of tagged element indices (see tw-sensor-private.h): a writer takes the oldest element
 * of the stream for its exclusive use (CAS on tail), fills it, and inserts its index at
 * the head (CAS on the index entry, then everybody helps to advance head with a CAS).
 * Since 64-bit CAS is universal now, head and tail are full 64-bit counters rather than
 * tagged positions, so the modulo disappears behind a power-of-two mask; index entries
 * pack a 40-bit position tag with a 24-bit element index (ABA on an entry would need a
 * writer to sleep inside commit while 2^40 other elements are committed).
 */
#include "config.h"

#include "tw-sensor-private.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct TwSensor {
  /* Hot fields first: write and commit touch one cache line of the struct. */
  unsigned char      *next;          /* simple: the slot being written */
  uint64_t            count;         /* simple: committed elements */
  uint64_t            slot;          /* simple: index of `next` */
  uint64_t            slots;
  uint64_t            mask;          /* concurrent: slots - 1 */
  size_t              stride;
  unsigned char      *elements;
  _Atomic uint64_t   *index;
  TwSensorFileHeader *header;
  unsigned            flags;
  size_t              capacity;
  size_t              map_size;
  TwSensorClock      *clock;       /* the process's, shared by every sensor */
  char                path[4096];
};

static bool
params_declared (const TwSensorParams *params)
{
  return params && (params->period_ns != 0 || params->min_distance_ns != 0
                    || params->earliness_ns != 0 || params->monitor_period_ns != 0
                    || params->deadline_ns != 0);
}

/**
 * tw_sensor_jcs_buffer_size:
 * @params: a jitter-constrained stream (T, D, τ) and a monitor (T_M, d)
 *
 * E(l_min) with l_min = T_M + d (Riegel 2005 eqs. 1–3): the most elements the stream can
 * produce before a monitor that reads every period is guaranteed to have read them.
 * E(t) = ⌈(t + τ)/T⌉ if t ≥ L·D, else ⌈t/D⌉, with burst length L = 1 + ⌊τ/(T − D)⌋
 * (L·D is unbounded when D = T: the stream is then never denser than 1/D). The writer
 * adds its spare slots on top.
 *
 * Returns: the element count, or 0 with errno EINVAL (bad parameters) or E2BIG
 */
size_t
tw_sensor_jcs_buffer_size (const TwSensorParams *params)
{
  double T, D, tau, TM, d, l, elements;

  if (!params)
    goto invalid;
  T = params->period_ns;
  D = params->min_distance_ns;
  tau = params->earliness_ns;
  TM = params->monitor_period_ns;
  d = params->deadline_ns;
  if (!isfinite (T) || !isfinite (D) || !isfinite (tau) || !isfinite (TM) || !isfinite (d)
      || !(T > 0) || !(D >= 0) || !(D <= T) || !(tau >= 0) || !(TM > 0) || !(d > 0) || !(d <= TM))
    goto invalid;

  l = TM + d;
  if (D == T)
    elements = ceil (l / D);
  else
    {
      double L = 1 + floor (tau / (T - D));

      elements = (D > 0 && l < L * D) ? ceil (l / D) : ceil ((l + tau) / T);
    }
  if (!(elements >= 1) || elements > TW_SENSOR_MAX_SLOTS)
    {
      errno = E2BIG;
      return 0;
    }
  return (size_t) elements;

invalid:
  errno = EINVAL;
  return 0;
}

static uint64_t
next_power_of_two (uint64_t n)
{
  uint64_t p = 1;

  while (p < n)
    p <<= 1;
  return p;
}

static int
init_file (TwSensor *sensor, int fd, const char *task, const char *name, const char *schema_text,
           size_t payload_size, const TwSensorParams *params, uint32_t max_writers)
{
  size_t schema_size = strlen (schema_text) + 1;
  uint64_t schema_offset = TW_SENSOR_HEADER_SIZE;
  uint64_t index_offset = 0, elements_offset, index_bytes = 0, element_bytes, file_size;
  bool concurrent = sensor->flags & TW_SENSOR_CONCURRENT;
  TwSensorFileHeader *header;
  void *map;
  int err;

  elements_offset = (schema_offset + schema_size + 63) / 64 * 64;
  if (concurrent)
    {
      index_offset = elements_offset;
      index_bytes = sensor->slots * sizeof (uint64_t);
      elements_offset = (index_offset + index_bytes + 63) / 64 * 64;
    }
  if (__builtin_mul_overflow (sensor->slots, (uint64_t) sensor->stride, &element_bytes)
      || __builtin_add_overflow (elements_offset, element_bytes, &file_size)
      || file_size > (UINT64_C (1) << 34))
    return -EFBIG;

  /* Reserve tmpfs pages now: a full /dev/shm must fail here, not SIGBUS in commit. */
  err = posix_fallocate (fd, 0, (off_t) file_size);
  if (err)
    return -err;
  map = mmap (NULL, file_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
  if (map == MAP_FAILED)
    return -errno;
  /* Touch every page so that no write ever page-faults (Riegel 2005 §5.2, footnote 30). */
  memset (map, 0, file_size);

  header = map;
  memcpy (header->magic, TW_SENSOR_MAGIC, 8);
  header->version = TW_SENSOR_FORMAT_VERSION;
  header->header_size = TW_SENSOR_HEADER_SIZE;
  header->flags = sensor->flags & TW_SENSOR_CONCURRENT;
  header->element_size = (uint32_t) sensor->stride;
  header->slots = sensor->slots;
  header->file_size = file_size;
  header->schema_offset = schema_offset;
  header->schema_size = schema_size;
  header->index_offset = index_offset;
  header->elements_offset = elements_offset;
  header->pid = getpid ();
  header->pid_start_time = tw_sensor_pid_start_time (header->pid);
  header->created_monotonic_ns = tw_sensor_monotonic_ns ();
  header->created_realtime_ns = tw_sensor_realtime_ns ();
  header->clock_source = sensor->clock->use_tsc ? 1 : 0;
  header->max_writers = max_writers;
  if (params_declared (params))
    {
      header->period_ns = params->period_ns;
      header->min_distance_ns = params->min_distance_ns;
      header->earliness_ns = params->earliness_ns;
      header->monitor_period_ns = params->monitor_period_ns;
      header->deadline_ns = params->deadline_ns;
    }
  snprintf (header->task, sizeof header->task, "%s", task);
  snprintf (header->sensor, sizeof header->sensor, "%s", name);
  memcpy ((char *) map + schema_offset, schema_text, schema_size);

  sensor->header = header;
  sensor->map_size = file_size;
  sensor->elements = (unsigned char *) map + elements_offset;
  sensor->next = sensor->elements;
  if (concurrent)
    {
      /* GRTMon's initial state: the stream holds `slots` dummy elements, entry i points
       * to element i, readers start after them. */
      sensor->index = (_Atomic uint64_t *) (void *) ((char *) map + index_offset);
      for (uint64_t i = 0; i < sensor->slots; i++)
        atomic_store_explicit (&sensor->index[i], ((i & TW_SENSOR_TAG_MASK) << TW_SENSOR_INDEX_BITS) | i,
                               memory_order_relaxed);
      header->first_position = sensor->slots;
      atomic_store_explicit (&header->tail, 0, memory_order_relaxed);
      atomic_store_explicit (&header->head, sensor->slots, memory_order_release);
    }
  return 0;
}

/* Whether an existing file at @path may be replaced: not a sensor of a live writer. */
static bool
existing_is_replaceable (const char *path)
{
  TwSensorReader *reader = tw_sensor_reader_open_mapped (path, false, NULL, 0);
  TwSensorInfo info;
  bool replaceable = true;

  if (!reader)
    return true;
  if (tw_sensor_reader_get_info (reader, &info) == 0 && !info.writer_closed
      && tw_sensor_reader_writer_alive (reader))
    replaceable = false;
  tw_sensor_reader_free (reader);
  return replaceable;
}

/* Publishes the fully initialised file under its final name atomically, so a monitor
 * never sees a half-written header; refuses to replace the file of a live writer. */
static int
publish (const char *tmp_path, const char *path)
{
  if (link (tmp_path, path) == 0)
    {
      unlink (tmp_path);
      return 0;
    }
  if (errno != EEXIST)
    return -errno;
  if (!existing_is_replaceable (path))
    return -EEXIST;
  if (rename (tmp_path, path) < 0)
    return -errno;
  return 0;
}

/**
 * tw_sensor_new_full:
 * @task: the task (program or component) the sensor belongs to
 * @sensor: the sensor's name, unique within @task
 * @schema: the element fields, e.g. "u64 seq; f64 value" (see tw-sensor.h)
 * @capacity: elements a monitor can find in the buffer; 0 to size it from @params
 * @flags: TW_SENSOR_CONCURRENT, TW_SENSOR_UNLINK_ON_FREE
 * @params: (nullable): jitter-constrained stream and monitor parameters
 *
 * Creates the sensor's file in the sensor directory and maps it. A simple sensor gets
 * one spare slot beyond @capacity, a concurrent one `max_writers` spare elements, and
 * its slot count is rounded up to a power of two. Fails with EEXIST when a live writer
 * already owns (@task, @sensor).
 *
 * Returns: (transfer full) (nullable): the sensor, or NULL with errno set
 */
TwSensor *
tw_sensor_new_full (const char *task, const char *sensor_name, const char *schema_text,
                    size_t capacity, unsigned flags, const TwSensorParams *params)
{
  char dir[4096], file_name[512], tmp_path[4096 + 64];
  TwSensorSchema *schema;
  TwSensor *sensor;
  uint32_t max_writers = 0;
  uint64_t want;
  int fd, ret;

  if (flags & ~(unsigned) (TW_SENSOR_CONCURRENT | TW_SENSOR_UNLINK_ON_FREE))
    {
      errno = EINVAL;
      return NULL;
    }
  ret = tw_sensor_file_name (task, sensor_name, file_name, sizeof file_name);
  if (ret < 0)
    {
      errno = -ret;
      return NULL;
    }
  schema = tw_sensor_schema_parse (schema_text, NULL, 0);
  if (!schema)
    return NULL;
  if (capacity == 0)
    {
      capacity = tw_sensor_jcs_buffer_size (params);
      if (capacity == 0)
        {
          tw_sensor_schema_free (schema);
          return NULL;
        }
    }
  else if (params_declared (params) && tw_sensor_jcs_buffer_size (params) == 0 && errno == EINVAL)
    {
      /* Nonsense parameters are refused even when the capacity is given: monitors
       * plan with them. A stream too dense for an automatic size is fine here. */
      tw_sensor_schema_free (schema);
      return NULL;
    }

  sensor = calloc (1, sizeof *sensor);
  if (!sensor)
    {
      tw_sensor_schema_free (schema);
      errno = ENOMEM;
      return NULL;
    }
  sensor->flags = flags;
  sensor->capacity = capacity;
  sensor->stride = (8 + tw_sensor_schema_get_size (schema) + 7) / 8 * 8;
  if (flags & TW_SENSOR_CONCURRENT)
    {
      max_writers = params && params->max_writers ? params->max_writers : TW_SENSOR_DEFAULT_WRITERS;
      want = (uint64_t) capacity + max_writers;
      sensor->slots = next_power_of_two (want);
      sensor->mask = sensor->slots - 1;
    }
  else
    {
      want = (uint64_t) capacity + 1;
      sensor->slots = want;
    }
  if (capacity > TW_SENSOR_MAX_SLOTS || want > TW_SENSOR_MAX_SLOTS || sensor->slots > TW_SENSOR_MAX_SLOTS)
    {
      ret = -E2BIG;
      goto fail;
    }
  sensor->clock = tw_sensor_clock_get ();

  ret = tw_sensor_dir_ensure (dir, sizeof dir);
  if (ret < 0)
    goto fail;
  if ((size_t) snprintf (sensor->path, sizeof sensor->path, "%s/%s", dir, file_name) >= sizeof sensor->path)
    {
      ret = -ENAMETOOLONG;
      goto fail;
    }
  if ((size_t) snprintf (tmp_path, sizeof tmp_path, "%s/.%s.%ld.tmp", dir, file_name, (long) getpid ())
      >= sizeof tmp_path)
    {
      ret = -ENAMETOOLONG;
      goto fail;
    }
  unlink (tmp_path);
  fd = open (tmp_path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0)
    {
      ret = -errno;
      goto fail;
    }
  if (fchmod (fd, 0600) < 0)
    ret = -errno;
  else
    ret = init_file (sensor, fd, task, sensor_name, schema_text, tw_sensor_schema_get_size (schema),
                     params, max_writers);
  close (fd);
  if (ret == 0)
    ret = publish (tmp_path, sensor->path);
  if (ret < 0)
    {
      unlink (tmp_path);
      goto fail;
    }
  tw_sensor_schema_free (schema);
  return sensor;

fail:
  if (sensor->header)
    munmap (sensor->header, sensor->map_size);
  tw_sensor_schema_free (schema);
  free (sensor);
  errno = -ret;
  return NULL;
}

/**
 * tw_sensor_new:
 *
 * tw_sensor_new_full() without stream parameters (@capacity must be > 0).
 *
 * Returns: (transfer full) (nullable): the sensor, or NULL with errno set
 */
TwSensor *
tw_sensor_new (const char *task, const char *sensor, const char *schema, size_t capacity, unsigned flags)
{
  return tw_sensor_new_full (task, sensor, schema, capacity, flags, NULL);
}

/* Concurrent dequeue: take the element of the oldest stream position for our own use. */
static void *
concurrent_write (TwSensor *sensor)
{
  TwSensorFileHeader *header = sensor->header;

  for (;;)
    {
      uint64_t tail = atomic_load_explicit (&header->tail, memory_order_acquire);
      uint64_t entry = atomic_load_explicit (&sensor->index[tail & sensor->mask], memory_order_acquire);

      if ((entry >> TW_SENSOR_INDEX_BITS) != (tail & TW_SENSOR_TAG_MASK))
        {
          /* Position `tail` is not committed yet: every element is in some writer's
           * hands. Refuse rather than wait (lock-free), and let monitors see it. */
          if (atomic_load_explicit (&header->tail, memory_order_acquire) == tail)
            {
              atomic_fetch_add_explicit (&header->dropped, 1, memory_order_relaxed);
              errno = EBUSY;
              return NULL;
            }
          continue;
        }
      if (atomic_compare_exchange_weak_explicit (&header->tail, &tail, tail + 1,
                                                 memory_order_acq_rel, memory_order_relaxed))
        {
          uint64_t index = entry & TW_SENSOR_INDEX_MASK;
          unsigned char *element;

          if (index >= sensor->slots)
            return NULL;
          element = sensor->elements + index * sensor->stride;
          /* Readers that copied this element must see tail moved before our writes. */
          atomic_thread_fence (memory_order_release);
          /* The timestamp word carries the element index until commit overwrites it. */
          memcpy (element, &index, sizeof index);
          return element + 8;
        }
    }
}

/**
 * tw_sensor_write:
 * @sensor: a sensor
 *
 * Returns: (transfer none) (nullable): where to write the next element's payload (the
 * schema's layout, 8-byte aligned); NULL only for a concurrent sensor with more
 * writers in flight than its spare elements (errno EBUSY, counted in the header)
 */
void *
tw_sensor_write (TwSensor *sensor)
{
  if (__builtin_expect (sensor->flags & TW_SENSOR_CONCURRENT, 0))
    return concurrent_write (sensor);
  return sensor->next + 8;
}

static void
concurrent_commit (TwSensor *sensor, unsigned char *element)
{
  TwSensorFileHeader *header = sensor->header;
  uint64_t index;

  memcpy (&index, element, sizeof index);
  if (index >= sensor->slots || sensor->elements + index * sensor->stride != element)
    return;

  for (;;)
    {
      uint64_t head = atomic_load_explicit (&header->head, memory_order_acquire);
      _Atomic uint64_t *slot = &sensor->index[head & sensor->mask];
      uint64_t entry = atomic_load_explicit (slot, memory_order_acquire);
      uint64_t diff = ((entry >> TW_SENSOR_INDEX_BITS) - head) & TW_SENSOR_TAG_MASK;
      bool inserted = false;

      if (diff != 0 && diff < (UINT64_C (1) << (TW_SENSOR_TAG_BITS - 1)))
        continue;   /* the entry is newer than our head: head is stale */
      if (diff != 0)
        {
          /* The entry still holds position head - slots: insert ours. The stamp is
           * taken after reading head and never below the previous position's: writers
           * on other CPUs may read the clock through an older calibration, and stream
           * order must be time order for monitors merging sensors. A previous element
           * already recycled holds a slot index there, which never raises the stamp. */
          uint64_t now = tw_sensor_clock_now (sensor->clock);
          uint64_t mine = ((head & TW_SENSOR_TAG_MASK) << TW_SENSOR_INDEX_BITS) | index;

          if (head > 0)
            {
              uint64_t prev = atomic_load_explicit (&sensor->index[(head - 1) & sensor->mask],
                                                    memory_order_acquire);
              uint64_t prev_index = prev & TW_SENSOR_INDEX_MASK;
              uint64_t prev_now;

              if (prev_index < sensor->slots)
                {
                  memcpy (&prev_now, sensor->elements + prev_index * sensor->stride, sizeof prev_now);
                  if (prev_now > now)
                    now = prev_now;
                }
            }

          memcpy (element, &now, sizeof now);
          inserted = atomic_compare_exchange_strong_explicit (slot, &entry, mine,
                                                              memory_order_acq_rel, memory_order_acquire);
        }
      /* Whoever inserted position head, everybody helps to publish it. */
      atomic_compare_exchange_strong_explicit (&header->head, &head, head + 1,
                                               memory_order_acq_rel, memory_order_relaxed);
      if (inserted)
        return;
    }
}

/**
 * tw_sensor_commit:
 * @sensor: a sensor
 * @element: the pointer tw_sensor_write() returned
 *
 * Stamps the element with the current CLOCK_MONOTONIC time and publishes it to monitors.
 * A simple sensor always commits the element its last write returned; a concurrent one
 * the element @element points to (NULL, from a refused write, is ignored).
 */
void
tw_sensor_commit (TwSensor *sensor, void *element)
{
  unsigned char *slot;
  uint64_t now;

  if (__builtin_expect (sensor->flags & TW_SENSOR_CONCURRENT, 0))
    {
      if (element)
        concurrent_commit (sensor, (unsigned char *) element - 8);
      return;
    }
  slot = sensor->next;
  now = tw_sensor_clock_now (sensor->clock);
  memcpy (slot, &now, sizeof now);
  atomic_store_explicit (&sensor->header->head, ++sensor->count, memory_order_release);
  /* Seqlock-style write barrier: the next element's payload stores must not become
   * visible before the counter that tells readers this slot is being reused. */
  atomic_thread_fence (memory_order_release);
  if (++sensor->slot == sensor->slots)
    {
      sensor->slot = 0;
      sensor->next = sensor->elements;
    }
  else
    sensor->next += sensor->stride;
}

/**
 * tw_sensor_free:
 * @sensor: (nullable) (transfer full): a sensor
 *
 * Marks the file as closed by its writer and unmaps it. The file stays for monitors
 * unless the sensor was created with TW_SENSOR_UNLINK_ON_FREE.
 */
void
tw_sensor_free (TwSensor *sensor)
{
  if (!sensor)
    return;
  atomic_store_explicit (&sensor->header->state, TW_SENSOR_STATE_CLOSED, memory_order_release);
  munmap (sensor->header, sensor->map_size);
  if (sensor->flags & TW_SENSOR_UNLINK_ON_FREE)
    unlink (sensor->path);
  free (sensor);
}

/**
 * tw_sensor_get_path:
 *
 * Returns: (transfer none): the sensor's file in the sensor directory
 */
const char *
tw_sensor_get_path (const TwSensor *sensor)
{
  return sensor->path;
}

/**
 * tw_sensor_get_capacity:
 *
 * Returns: the capacity asked for (or computed from the stream parameters), without spares
 */
size_t
tw_sensor_get_capacity (const TwSensor *sensor)
{
  return sensor->capacity;
}

/**
 * tw_sensor_get_committed:
 *
 * Returns: elements committed so far, by all writers
 */
uint64_t
tw_sensor_get_committed (const TwSensor *sensor)
{
  uint64_t head = atomic_load_explicit (&sensor->header->head, memory_order_acquire);

  return head - sensor->header->first_position;
}

/**
 * tw_sensor_now_ns:
 *
 * Returns: the sensor's clock (CLOCK_MONOTONIC ns): what commit would stamp now
 */
uint64_t
tw_sensor_now_ns (TwSensor *sensor)
{
  return tw_sensor_clock_now (sensor->clock);
}
