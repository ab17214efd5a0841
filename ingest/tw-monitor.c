/* tw-monitor.c: attach live to sensors (and custom live sources), merge them in time order
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Sources. Every sensor file `<task>@<sensor>.tws` of the sensor directory gets its own
 * read-only reader (tw-sensor.h), so any number of monitors can read the same sensor
 * and one monitor reads any number of sensors. Custom sources (the kernel trace buffer,
 * the libgtop sampler) implement TwLiveSourceClass and are polled the same way.
 *
 * Discovery. The directory is rescanned at most every `scan_interval` (100 ms default)
 * from tw_monitor_poll(). Polling rather than inotify: the monitor already wakes up
 * periodically to drain the buffers (Riegel 2005 §4.2: a monitor reads every T_M), a scan
 * of a tmpfs directory of a few dozen entries costs microseconds, and polling also
 * notices a file replaced by a restarted writer (same name, new inode), which the
 * reader reports (tw_sensor_reader_file_replaced) without any extra machinery. A file
 * that disappeared or was replaced is drained to its end through the still-valid
 * mapping, then marked GONE; the replacement is attached as a new source. A file that
 * fails validation (or later fails a read: a counter running backwards, ...) is marked
 * FAILED with the reader's message naming file and offset; the others keep being
 * served. A failed path is retried only when another file takes its name (new inode):
 * writers publish files atomically, so the same inode stays broken.
 *
 * Position. With from_start, sensors present at the first scan are read from stream
 * position 0 (received + missed = committed); otherwise from their current end.
 * Sensors that appear later are always read from position 0: all they hold was
 * committed after the monitor started looking.
 *
 * Merge. Each source pushes rows into its own queue, in its own order. Before polling a
 * source the monitor reads CLOCK_MONOTONIC (t_poll); after the poll drained the source,
 * every element the source can still deliver was (for sensors) stamped after t_poll,
 * up to clock skew between CPUs and a concurrent writer still in flight between
 * stamping and publishing. So the source's horizon is t_poll, and the monitor emits, in
 * time order, every queued row with time ≤ T = min over attached sources of
 * (horizon − W), where W is the reorder window (default 5 ms) covering that skew and
 * the kernel's per-CPU buffers. Rows are held back until every attached source has been
 * drained past T + W. A row that nevertheless arrives with a time before the last
 * emitted one is stored anyway (never lost) and counted in `late`; the store then
 * knows it is unsorted (tw_trace_seal sorts it). tw_monitor_flush() emits everything.
 * A source in its own time base (TwLiveSource.own_clock: LTTng live, stamped by the
 * target) gives its horizon itself: the time it will deliver nothing earlier than.
 * Several LTTng targets share that time base (ns from the Unix epoch, each target's
 * clock offset applied by babeltrace2), so their rows merge like local sources' do; one
 * whose connection is lost stops holding the others back (holds_merge).
 */
#include "config.h"

#include "tw-monitor.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>

#include <tw-sensor.h>

#include "tw-sensor-layout-private.h"

#define DEFAULT_WINDOW_NS      (5 * 1000 * 1000)
#define DEFAULT_SCAN_NS        (100 * 1000 * 1000)
/* A round's working set (the batch, QUOTA_BATCHES batches of queued rows and payloads)
 * stays within a core's L2: with 256 KiB batches the queued rows spilled to L3 before
 * the merge read them back, ~15% slower drain (bench-monitor). */
#define BATCH_BYTES            (64 * 1024)
#define QUOTA_BATCHES          4       /* per source and round: bounds the queues */

/* ---------------------------------------------------------------------------------------
 * Queues
 * ------------------------------------------------------------------------------------- */

typedef struct {
  guint64 time;
  guint32 task;
  guint32 arg;
  guint32 payload_offset;
  guint32 payload_size;
  guint16 type;
  guint16 cpu;
} Row;

struct _TwLiveQueue {
  Row    *rows;
  gsize   n_rows, cap_rows, head;
  guint8 *blob;
  gsize   blob_len, blob_cap;
};

/* Maps the pages of [@start, @start + @len) now, in one call: the queues grow to their
 * quota once per source, and a fault per 4 KiB page costs several µs under some
 * hypervisors (more than what the page then holds takes to copy). Kernels before 5.14
 * refuse the advice; the pages then fault in as they are written. */
static void
prefault (gpointer start,
          gsize    len)
{
  guintptr page = 4096;
  guintptr first = ((guintptr) start + page - 1) & ~(page - 1);
  guintptr end = ((guintptr) start + len) & ~(page - 1);

  if (end > first)
    madvise ((gpointer) first, end - first, MADV_POPULATE_WRITE);
}

static void
queue_grow_rows (TwLiveQueue *queue)
{
  gsize old = queue->cap_rows;

  queue->cap_rows = MAX (1024, queue->cap_rows * 2);
  queue->rows = g_renew (Row, queue->rows, queue->cap_rows);
  prefault (queue->rows + old, (queue->cap_rows - old) * sizeof (Row));
}

static void
queue_grow_blob (TwLiveQueue *queue,
                 gsize        needed)
{
  gsize old = queue->blob_cap;

  queue->blob_cap = MAX (needed, MAX (4096, queue->blob_cap * 2));
  queue->blob = g_realloc (queue->blob, queue->blob_cap);
  prefault (queue->blob + old, queue->blob_cap - old);
}

/**
 * tw_live_queue_push:
 * @payload: (nullable): the packed payload of @type (its payload_size bytes)
 *
 * Queues one row for the merge. Sources call it from their poll, in their time order.
 */
void
tw_live_queue_push (TwLiveQueue  *queue,
                    guint64       time_ns,
                    guint16       cpu,
                    guint16       type,
                    guint32       task,
                    guint32       arg,
                    const guint8 *payload,
                    guint         payload_size)
{
  Row *row;

  if G_UNLIKELY (queue->n_rows == queue->cap_rows)
    queue_grow_rows (queue);
  row = &queue->rows[queue->n_rows++];
  row->time = time_ns;
  row->cpu = cpu;
  row->type = type;
  row->task = task;
  row->arg = arg;
  row->payload_size = payload_size;
  row->payload_offset = (guint32) queue->blob_len;
  if (payload_size == 0)
    return;
  if G_UNLIKELY (queue->blob_len + payload_size > queue->blob_cap)
    queue_grow_blob (queue, queue->blob_len + payload_size);
  /* Small fixed sizes inline (the common sensor payloads); a libc call costs more. */
  switch (payload_size)
    {
    case 8:  memcpy (queue->blob + queue->blob_len, payload, 8); break;
    case 16: memcpy (queue->blob + queue->blob_len, payload, 16); break;
    case 24: memcpy (queue->blob + queue->blob_len, payload, 24); break;
    case 32: memcpy (queue->blob + queue->blob_len, payload, 32); break;
    default: memcpy (queue->blob + queue->blob_len, payload, payload_size); break;
    }
  queue->blob_len += payload_size;
}

static void
queue_compact (TwLiveQueue *queue)
{
  gsize blob_start;

  if (queue->head == queue->n_rows)
    {
      queue->head = queue->n_rows = queue->blob_len = 0;
      return;
    }
  if (queue->head < 4096 || queue->head < queue->n_rows / 2)
    return;
  /* Payloads are pushed in row order: everything before the head row's is dead. */
  blob_start = queue->rows[queue->head].payload_offset;
  memmove (queue->blob, queue->blob + blob_start, queue->blob_len - blob_start);
  queue->blob_len -= blob_start;
  memmove (queue->rows, queue->rows + queue->head, (queue->n_rows - queue->head) * sizeof (Row));
  queue->n_rows -= queue->head;
  queue->head = 0;
  for (gsize i = 0; i < queue->n_rows; i++)
    queue->rows[i].payload_offset -= (guint32) blob_start;
}

static void
queue_clear (TwLiveQueue *queue)
{
  g_clear_pointer (&queue->rows, g_free);
  g_clear_pointer (&queue->blob, g_free);
  queue->n_rows = queue->cap_rows = queue->head = queue->blob_len = queue->blob_cap = 0;
}

/**
 * tw_live_monotonic_ns:
 *
 * Returns: CLOCK_MONOTONIC in ns, the time base of sensors and of the kernel's `mono`
 */
guint64
tw_live_monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * 1000000000u + (guint64) ts.tv_nsec;
}

/**
 * tw_live_source_init:
 *
 * Fills the common head of a custom source.
 */
void
tw_live_source_init (TwLiveSource            *source,
                     const TwLiveSourceClass *klass,
                     const char              *name)
{
  memset (source, 0, sizeof *source);
  source->klass = klass;
  source->name = g_strdup (name);
}

static void
live_source_free (TwLiveSource *source)
{
  char *name;

  if (source == NULL)
    return;
  name = source->name;
  source->klass->free (source);
  g_free (name);
}

/* ---------------------------------------------------------------------------------------
 * Sensor sources
 * ------------------------------------------------------------------------------------- */

typedef struct {
  TwLiveSource    parent;
  TwSensorReader *reader;
  TwSensorInfo    info;
  char           *path;
  char           *schema;
  guint16         type;
  guint32         task;
  guint32         arg;
  TwSensorLayout  layout;
  guint           payload_size;    /* of the store's type */
  guint8         *payload;         /* scratch, payload_size bytes */
  guint8         *batch;
  gsize           batch_elements;
  gboolean        fast_copy;       /* the store's payload is the sensor payload's prefix */
  TwMonitorElementFunc element_func;
  gpointer        element_data;
  TwMonitorBatchFunc batch_func;
  gpointer        batch_data;
} SensorSource;

static void
sensor_source_stop (TwLiveSource *source)
{
  SensorSource *self = (SensorSource *) source;

  g_clear_pointer (&self->reader, tw_sensor_reader_free);
}

static void
sensor_source_free (TwLiveSource *source)
{
  SensorSource *self = (SensorSource *) source;

  sensor_source_stop (source);
  g_free (self->path);
  g_free (self->schema);
  _tw_sensor_layout_clear (&self->layout);
  g_free (self->payload);
  g_free (self->batch);
  g_free (self);
}

/* The sensor's schema → the store type `<task>@<sensor>` (tw-sensor-layout-private.h). */
static gboolean
sensor_source_start (TwLiveSource *source,
                     TwTrace      *trace,
                     GError      **error)
{
  SensorSource *self = (SensorSource *) source;

  if (!_tw_sensor_layout_init (&self->layout, trace, source->name,
                               tw_sensor_reader_get_schema (self->reader), self->path, error))
    return FALSE;
  self->type = self->layout.type;
  self->payload_size = self->layout.payload_size;
  self->payload = g_malloc0 (MAX (self->payload_size, 1));
  /* Numbers at their width in declaration order, no strings: the store's payload is
   * byte for byte the sensor's payload (up to its size), one memcpy per element. */
  self->fast_copy = self->layout.same_layout && self->payload_size <= self->info.payload_size;
  self->task = _tw_sensor_layout_add_task (trace, self->info.pid, self->info.task);

  self->batch_elements = MAX (16, BATCH_BYTES / self->info.element_size);
  self->batch = g_malloc (self->batch_elements * self->info.element_size);
  prefault (self->batch, self->batch_elements * self->info.element_size);
  return TRUE;
}

/* Queues the @n elements of the batch whose payload the store keeps byte for byte: what
 * tw_live_queue_push does per element, with room made once for all of them and the
 * copies at a size known to the compiler for the common payload sizes. */
static inline __attribute__((always_inline)) void
queue_push_elements_sized (TwLiveQueue  *queue,
                           SensorSource *self,
                           int           n,
                           gsize         size)
{
  gsize stride = self->info.element_size;
  const guint8 *element = self->batch;
  Row *row = queue->rows + queue->n_rows;
  guint8 *blob = queue->blob + queue->blob_len;
  guint32 offset = (guint32) queue->blob_len;

  for (int i = 0; i < n; i++, element += stride, row++, blob += size, offset += (guint32) size)
    {
      memcpy (&row->time, element, sizeof row->time);
      row->cpu = TW_CPU_NONE;
      row->type = self->type;
      row->task = self->task;
      row->arg = self->arg;
      row->payload_size = (guint32) size;
      row->payload_offset = offset;
      memcpy (blob, element + 8, size);
    }
  queue->n_rows += (gsize) n;
  queue->blob_len += (gsize) n * size;
}

static void
queue_push_elements (TwLiveQueue  *queue,
                     SensorSource *self,
                     int           n)
{
  gsize size = self->payload_size;

  while (queue->cap_rows - queue->n_rows < (gsize) n)
    queue_grow_rows (queue);
  if (queue->blob_cap - queue->blob_len < (gsize) n * size)
    queue_grow_blob (queue, queue->blob_len + (gsize) n * size);

  switch (size)
    {
    case 8:  queue_push_elements_sized (queue, self, n, 8); break;
    case 16: queue_push_elements_sized (queue, self, n, 16); break;
    case 24: queue_push_elements_sized (queue, self, n, 24); break;
    case 32: queue_push_elements_sized (queue, self, n, 32); break;
    default: queue_push_elements_sized (queue, self, n, size); break;
    }
}

static gboolean
sensor_source_poll (TwLiveSource *source,
                    TwTrace      *trace,
                    TwLiveQueue  *queue,
                    GError      **error)
{
  SensorSource *self = (SensorSource *) source;
  gsize stride = self->info.element_size;
  TwSensorReaderCounts counts;

  source->more = FALSE;
  for (guint round = 0;; round++)
    {
      guint64 first_position = 0;
      int n = tw_sensor_reader_read_batch (self->reader, self->batch, self->batch_elements, &first_position);

      if (n < 0)
        {
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-n), "%s",
                       tw_sensor_reader_get_error (self->reader));
          return FALSE;
        }
      if (n == 0)
        break;
      if (self->element_func)
        for (int i = 0; i < n; i++)
          {
            guint64 timestamp;

            memcpy (&timestamp, self->batch + (gsize) i * stride, sizeof timestamp);
            self->element_func (self->arg, first_position + (guint64) i, timestamp, self->element_data);
          }
      if (self->batch_func)
        self->batch_func (self->arg, first_position, self->batch, (guint) n, stride,
                          tw_sensor_reader_get_counts (self->reader).missed, self->batch_data);
      if (self->fast_copy)
        queue_push_elements (queue, self, n);
      else
        for (int i = 0; i < n; i++)
          {
            const guint8 *element = self->batch + (gsize) i * stride;
            guint64 timestamp;

            memcpy (&timestamp, element, sizeof timestamp);
            _tw_sensor_layout_decode (&self->layout, trace, element + 8, self->payload);
            tw_live_queue_push (queue, timestamp, TW_CPU_NONE, self->type, self->task, self->arg,
                                self->payload, self->payload_size);
          }
      if ((gsize) n < self->batch_elements)
        break;
      if (round + 1 == QUOTA_BATCHES)
        {
          source->more = TRUE;
          source->drained_until = queue->rows[queue->n_rows - 1].time;
          break;
        }
    }

  counts = tw_sensor_reader_get_counts (self->reader);
  source->counts.received = counts.received;
  source->counts.missed = counts.missed;
  source->counts.inconsistent = counts.inconsistent;
  source->counts.nonmonotonic = counts.nonmonotonic;
  return TRUE;
}

static const TwLiveSourceClass sensor_source_class = {
  .kind = "sensor",
  .start = sensor_source_start,
  .poll = sensor_source_poll,
  .stop = sensor_source_stop,
  .free = sensor_source_free,
};

/* ---------------------------------------------------------------------------------------
 * The monitor
 * ------------------------------------------------------------------------------------- */

typedef struct {
  TwLiveSource         *source;
  SensorSource         *sensor;    /* the same pointer when it is a sensor, else NULL */
  TwLiveQueue           queue;
  guint64               horizon;
  TwMonitorSourceState  state;
  char                 *error;
  char                 *path;      /* sensors and failed files */
  struct stat           st;        /* failed files: retried when this changes */
  gboolean              detached;  /* by tw_monitor_set_source_detached: not read */
} Entry;

struct _TwMonitor
{
  GObject     parent_instance;

  char       *sensor_dir;
  TwTrace    *trace;
  GPtrArray  *entries;         /* Entry */
  GHashTable *by_path;         /* path → Entry being read or failed (not gone) */
  gboolean    from_start;
  gboolean    watch;
  gboolean    scanned;
  guint64     window_ns;
  guint64     scan_interval_ns;
  guint64     last_scan_ns;
  guint64     emitted_until;
  guint64     last_emitted_time;
  TwMonitorElementFunc element_func;
  gpointer    element_data;
  TwMonitorBatchFunc batch_func;
  gpointer    batch_data;
  /* what the store's sensor metadata was last built from (publish_sensors()) */
  guint       published_entries;
  guint64     published_counts;
};

G_DEFINE_FINAL_TYPE (TwMonitor, tw_monitor, G_TYPE_OBJECT)

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  if (entry->source)
    {
      if (entry->source->klass->stop)
        entry->source->klass->stop (entry->source);
      live_source_free (entry->source);
    }
  queue_clear (&entry->queue);
  g_free (entry->error);
  g_free (entry->path);
  g_free (entry);
}

static void
tw_monitor_finalize (GObject *object)
{
  TwMonitor *self = TW_MONITOR (object);

  g_clear_pointer (&self->by_path, g_hash_table_unref);
  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_object (&self->trace);
  g_free (self->sensor_dir);

  G_OBJECT_CLASS (tw_monitor_parent_class)->finalize (object);
}

static void
tw_monitor_class_init (TwMonitorClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_monitor_finalize;
}

static void
tw_monitor_init (TwMonitor *self)
{
  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->by_path = g_hash_table_new (g_str_hash, g_str_equal);
  self->window_ns = DEFAULT_WINDOW_NS;
  self->scan_interval_ns = DEFAULT_SCAN_NS;
  self->watch = TRUE;
  self->trace = tw_trace_new ();
  /* a session may run for hours: past the memory budget, its rows go to a file the
   * kernel can write back */
  tw_trace_set_spills (self->trace);
  tw_trace_set_metadata (self->trace, "format", "live");
  tw_trace_set_metadata (self->trace, "clock", "mono");
}

/**
 * tw_monitor_new:
 * @sensor_dir: (nullable): the sensor directory; %NULL: `$TRACEWB_SENSOR_DIR`, else the
 *   per-user default (tw_sensor_dir_get_path)
 *
 * Returns: (transfer full): a monitor with an empty live store
 */
TwMonitor *
tw_monitor_new (const char *sensor_dir)
{
  TwMonitor *self = g_object_new (TW_TYPE_MONITOR, NULL);

  if (sensor_dir)
    self->sensor_dir = g_strdup (sensor_dir);
  else
    {
      char path[4096];

      if (tw_sensor_dir_get_path (path, sizeof path) >= 0)
        self->sensor_dir = g_strdup (path);
    }
  if (self->sensor_dir)
    tw_trace_set_metadata (self->trace, "sensor_dir", self->sensor_dir);
  return self;
}

/**
 * tw_monitor_set_from_start:
 *
 * Read the sensors present at the first scan from stream position 0 (default: from
 * their current end). Call before the first poll.
 */
void
tw_monitor_set_from_start (TwMonitor *self,
                           gboolean   from_start)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->from_start = from_start;
}

/**
 * tw_monitor_set_reorder_window:
 *
 * W of the merge rule (see the top of tw-monitor.c); default 5 ms.
 */
void
tw_monitor_set_reorder_window (TwMonitor *self,
                               guint64    window_ns)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->window_ns = window_ns;
}

/**
 * tw_monitor_set_scan_interval:
 *
 * How often tw_monitor_poll() rescans the sensor directory; default 100 ms.
 */
void
tw_monitor_set_scan_interval (TwMonitor *self,
                              guint64    interval_ns)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->scan_interval_ns = interval_ns;
}

/**
 * tw_monitor_set_element_func:
 * @func: (nullable): called for every element a sensor delivers
 *
 * A hook for checks that need each element with its stream position (the stream check
 * of the CLI and the GUI). Applies to sensors attached from now on.
 */
void
tw_monitor_set_element_func (TwMonitor            *self,
                             TwMonitorElementFunc  func,
                             gpointer              user_data)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->element_func = func;
  self->element_data = user_data;
}

/**
 * tw_monitor_set_batch_func:
 * @func: (nullable): called for every batch of elements a sensor delivers
 *
 * A hook for what needs the elements themselves (the LTTng emitter of `tracewb-cli
 * monitor --lttng`): each batch in stream order, before the merge, with the sensor's
 * missed count so far. Applies to sensors attached from now on.
 */
void
tw_monitor_set_batch_func (TwMonitor          *self,
                           TwMonitorBatchFunc  func,
                           gpointer            user_data)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->batch_func = func;
  self->batch_data = user_data;
}

/**
 * tw_monitor_set_watch_sensors:
 *
 * %FALSE: do not read the sensor directory at all (custom sources only).
 */
void
tw_monitor_set_watch_sensors (TwMonitor *self,
                              gboolean   watch)
{
  g_return_if_fail (TW_IS_MONITOR (self));
  self->watch = watch;
}

/**
 * tw_monitor_get_trace:
 *
 * Returns: (transfer none): the live store; rows are published by every poll
 */
TwTrace *
tw_monitor_get_trace (TwMonitor *self)
{
  g_return_val_if_fail (TW_IS_MONITOR (self), NULL);
  return self->trace;
}

/**
 * tw_monitor_get_sensor_dir:
 *
 * Returns: (nullable): the directory watched
 */
const char *
tw_monitor_get_sensor_dir (TwMonitor *self)
{
  g_return_val_if_fail (TW_IS_MONITOR (self), NULL);
  return self->sensor_dir;
}

static Entry *
add_entry (TwMonitor    *self,
           TwLiveSource *source,
           const char   *path)
{
  Entry *entry = g_new0 (Entry, 1);

  entry->source = source;
  entry->path = g_strdup (path);
  entry->state = TW_MONITOR_SOURCE_ATTACHED;
  g_ptr_array_add (self->entries, entry);
  return entry;
}

static void
entry_fail (Entry  *entry,
            GError *error)
{
  entry->state = TW_MONITOR_SOURCE_FAILED;
  g_free (entry->error);
  entry->error = g_strdup (error ? error->message : "failed");
  if (entry->source && entry->source->klass->stop)
    entry->source->klass->stop (entry->source);
}

/**
 * tw_monitor_add_source:
 * @source: (transfer full): a custom live source
 *
 * Starts @source and polls it from now on. On failure the source is kept, FAILED, so
 * that its error shows beside the others.
 *
 * Returns: %FALSE when @source did not start
 */
gboolean
tw_monitor_add_source (TwMonitor     *self,
                       TwLiveSource  *source,
                       GError       **error)
{
  Entry *entry;
  g_autoptr (GError) local = NULL;

  g_return_val_if_fail (TW_IS_MONITOR (self), FALSE);
  g_return_val_if_fail (source != NULL, FALSE);

  entry = add_entry (self, source, NULL);
  if (!source->klass->start (source, self->trace, &local))
    {
      entry_fail (entry, local);
      g_propagate_error (error, g_steal_pointer (&local));
      return FALSE;
    }
  return TRUE;
}

static void
attach_sensor (TwMonitor        *self,
               const char       *path,
               const struct stat *st,
               gboolean          from_start)
{
  char message[512] = "";
  TwSensorReader *reader = tw_sensor_reader_open (path, message, sizeof message);
  SensorSource *sensor;
  Entry *entry;
  g_autoptr (GError) error = NULL;
  g_autofree char *name = NULL;

  if (reader == NULL)
    {
      entry = add_entry (self, NULL, path);
      entry->st = *st;
      entry->state = TW_MONITOR_SOURCE_FAILED;
      entry->error = g_strdup (message[0] ? message : g_strerror (errno));
      g_hash_table_replace (self->by_path, entry->path, entry);
      return;
    }

  sensor = g_new0 (SensorSource, 1);
  sensor->reader = reader;
  sensor->path = g_strdup (path);
  if (tw_sensor_reader_get_info (reader, &sensor->info) < 0)
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", tw_sensor_reader_get_error (reader));
      name = g_path_get_basename (path);
    }
  else
    {
      sensor->schema = g_strdup (sensor->info.schema_text);
      name = g_strdup_printf ("%s@%s", sensor->info.task, sensor->info.sensor);
    }
  tw_live_source_init (&sensor->parent, &sensor_source_class, name);
  sensor->arg = self->entries->len;
  sensor->element_func = self->element_func;
  sensor->element_data = self->element_data;
  sensor->batch_func = self->batch_func;
  sensor->batch_data = self->batch_data;

  entry = add_entry (self, &sensor->parent, path);
  entry->sensor = sensor;
  entry->st = *st;
  g_hash_table_replace (self->by_path, entry->path, entry);
  if (error == NULL && from_start && tw_sensor_reader_seek_start (reader) < 0)
    g_set_error (&error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", tw_sensor_reader_get_error (reader));
  if (error == NULL)
    sensor_source_start (&sensor->parent, self->trace, &error);
  if (error)
    entry_fail (entry, error);
}

static gboolean
same_file (const struct stat *a,
           const struct stat *b)
{
  return a->st_ino == b->st_ino && a->st_dev == b->st_dev;
}

/* Drain what a sensor still holds (its mapping outlives the file's name), then retire. */
static void
retire_entry (TwMonitor *self,
              Entry     *entry)
{
  g_autoptr (GError) error = NULL;

  if (entry->state == TW_MONITOR_SOURCE_ATTACHED && !entry->detached)
    {
      do
        if (!entry->source->klass->poll (entry->source, self->trace, &entry->queue, &error))
          {
            entry_fail (entry, error);
            return;
          }
      while (entry->source->more);
      entry->state = TW_MONITOR_SOURCE_GONE;
      if (entry->source->klass->stop)
        entry->source->klass->stop (entry->source);
    }
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

/**
 * tw_monitor_scan:
 *
 * Reads the sensor directory now: attaches new sensor files, retires those that
 * disappeared or were replaced (after draining them) and attaches replacements.
 * Also called by tw_monitor_poll() every scan interval.
 *
 * Returns: %FALSE when the directory cannot be read
 */
gboolean
tw_monitor_scan (TwMonitor  *self,
                 GError    **error)
{
  g_autoptr (GDir) dir = NULL;
  g_autoptr (GHashTable) seen = NULL;
  g_autoptr (GPtrArray) paths = NULL;
  GHashTableIter iter;
  gpointer key, value;
  const char *name;
  gboolean first = !self->scanned;

  g_return_val_if_fail (TW_IS_MONITOR (self), FALSE);

  self->scanned = TRUE;
  self->last_scan_ns = tw_live_monotonic_ns ();
  if (self->sensor_dir == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no sensor directory");
      return FALSE;
    }
  dir = g_dir_open (self->sensor_dir, 0, error);
  if (dir == NULL)
    return FALSE;

  /* Sorted, so sources get their indexes in a reproducible order. */
  paths = g_ptr_array_new_with_free_func (g_free);
  while ((name = g_dir_read_name (dir)))
    if (name[0] != '.' && g_str_has_suffix (name, ".tws"))
      g_ptr_array_add (paths, g_build_filename (self->sensor_dir, name, NULL));
  g_ptr_array_sort (paths, compare_paths);

  seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = paths->pdata[i];
      Entry *entry = g_hash_table_lookup (self->by_path, path);
      struct stat st;

      if (stat (path, &st) < 0 || !S_ISREG (st.st_mode))
        continue;
      g_hash_table_add (seen, (gpointer) path);
      if (entry == NULL)
        {
          attach_sensor (self, path, &st, first ? self->from_start : TRUE);
          continue;
        }
      if (entry->state == TW_MONITOR_SOURCE_FAILED)
        {
          if (same_file (&entry->st, &st))
            continue;
        }
      else if (entry->sensor == NULL || entry->sensor->reader == NULL
               || !tw_sensor_reader_file_replaced (entry->sensor->reader))
        continue;
      /* Replaced by a restarted writer (or a failed file changed): a new source. */
      retire_entry (self, entry);
      g_hash_table_remove (self->by_path, path);
      attach_sensor (self, path, &st, TRUE);
    }

  g_hash_table_iter_init (&iter, self->by_path);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (seen, key))
      {
        retire_entry (self, value);
        g_hash_table_iter_remove (&iter);
      }
  return TRUE;
}

/* Emits every queued row with time ≤ limit, in time order. */
static guint64
emit_until (TwMonitor *self,
            guint64    limit)
{
  TwEventChunk *chunk = NULL;
  guint64 emitted = 0;
  guint n_entries = self->entries->len;
  Entry **entries = (Entry **) self->entries->pdata;

  for (;;)
    {
      Entry *best = NULL;
      guint64 best_time = G_MAXUINT64, second = G_MAXUINT64, until;
      TwLiveQueue *q;

      for (guint i = 0; i < n_entries; i++)
        {
          TwLiveQueue *e = &entries[i]->queue;
          guint64 t;

          if (e->head == e->n_rows)
            continue;
          t = e->rows[e->head].time;
          if (t < best_time)
            {
              second = best_time;
              best_time = t;
              best = entries[i];
            }
          else if (t < second)
            second = t;
        }
      if (best == NULL || best_time > limit)
        break;

      /* A run of the earliest queue up to the next queue's head (or the limit). */
      until = MIN (second, limit);
      q = &best->queue;
      if (chunk == NULL)
        chunk = tw_trace_begin_append (self->trace);
      while (q->head < q->n_rows && q->rows[q->head].time <= until)
        {
          gsize start = q->head, end = start, room, first_byte, bytes, base;

          if G_UNLIKELY (chunk->n == TW_CHUNK_SIZE)
            {
              tw_trace_end_append (self->trace);
              chunk = tw_trace_begin_append (self->trace);
            }
          /* A run's payloads are contiguous in the queue's blob: one copy for all of
           * them, then the columns row by row (what tw_event_chunk_push does per row). */
          room = TW_CHUNK_SIZE - chunk->n;
          while (end < q->n_rows && end - start < room && q->rows[end].time <= until)
            end++;
          first_byte = q->rows[start].payload_offset;
          bytes = q->rows[end - 1].payload_offset + q->rows[end - 1].payload_size - first_byte;
          if (bytes > 0)
            {
              if (chunk->blob_len + bytes > chunk->blob_cap)
                tw_event_chunk_reserve_blob (chunk, chunk->blob_len + bytes);
              memcpy (chunk->blob + chunk->blob_len, q->blob + first_byte, bytes);
            }
          base = chunk->blob_len;
          for (gsize r = start; r < end; r++)
            {
              const Row *row = &q->rows[r];
              guint i = chunk->n++;

              if G_UNLIKELY (row->time < self->last_emitted_time)
                best->source->counts.late++;
              else
                self->last_emitted_time = row->time;
              chunk->time[i] = row->time;
              chunk->cpu[i] = row->cpu;
              chunk->type[i] = row->type;
              chunk->task[i] = row->task;
              chunk->arg[i] = row->arg;
              chunk->unsorted |= row->time < chunk->last_time;
              chunk->last_time = row->time;
              if (row->cpu != TW_CPU_NONE && row->cpu >= chunk->max_cpu_plus_one)
                chunk->max_cpu_plus_one = row->cpu + 1;
              chunk->payload[i] = row->payload_size
                                  ? (guint32) (base + row->payload_offset - first_byte)
                                  : TW_PAYLOAD_NONE;
            }
          chunk->blob_len += bytes;
          emitted += end - start;
          q->head = end;
        }
      queue_compact (q);
    }
  if (chunk)
    tw_trace_end_append (self->trace);
  if (limit != G_MAXUINT64 && limit > self->emitted_until)
    self->emitted_until = limit;
  return emitted;
}

/* Whether the merge waits for @source. A remote source that lost its target (relay
 * gone, session destroyed) says nothing about when its next row will be: waiting for
 * it would stop every other target's rows until it came back. So only a connected one
 * holds the merge, or one connecting for the first time (all of a session's targets
 * start together; a first connection that fails turns LOST at once). One that
 * reconnects joins again once connected; what it sends from before the others'
 * horizon is stored all the same, counted late. */
static gboolean
holds_merge (const TwLiveSource *source)
{
  switch (source->connection)
    {
    case TW_LIVE_CONNECTION_LOCAL:
    case TW_LIVE_CONNECTION_CONNECTED:
      return TRUE;
    case TW_LIVE_CONNECTION_CONNECTING:
      return source->n_reconnects == 0;
    case TW_LIVE_CONNECTION_LOST:
    case TW_LIVE_CONNECTION_ENDED:
    default:
      return FALSE;
    }
}

/* A change to what publish_sensors() would write: the sum of every local sensor's
 * counts and of the remote sources' change counters, which only grow. */
static guint64
sensors_sum (TwMonitor *self)
{
  guint64 sum = 0;

  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *entry = self->entries->pdata[i];
      const TwLiveCounts *c;

      if (entry->source && entry->source->klass->append_sensors)
        sum += entry->source->sensors_changed;
      if (entry->sensor == NULL)
        continue;
      c = &entry->sensor->parent.counts;
      sum += c->received + c->missed + c->inconsistent;
    }
  return sum;
}

/* A local sensor's entries, without a host. */
static void
append_local_sensor (const Entry *entry,
                     GString     *streams,
                     GString     *counts)
{
  const TwSensorParams *params = &entry->sensor->info.params;
  const TwLiveCounts *c = &entry->source->counts;

  if (params->period_ns > 0)
    _tw_sensor_layout_append_declared (streams, NULL, entry->source->name,
                                       (const double[5]) { params->period_ns, params->min_distance_ns,
                                                           params->earliness_ns, params->monitor_period_ns,
                                                           params->deadline_ns });
  _tw_sensor_layout_append_counts (counts, NULL, entry->source->name, c->received, c->missed, c->inconsistent);
}

/* The sensors a store keeps in its metadata as a target's recording through LTTng keeps
 * them (tw-lttng-sensor-decoder.c), so that a recording of this store (the CTF writer
 * puts them in its environment) still says what each sensor declared and what its
 * monitor counted: `sensor_streams` and `sensor_counts`, in one text with the LTTng path
 * (tw-sensor-layout-private.h). This monitor's sensors, and those a remote source's
 * target monitor reads (TwLiveSourceClass.append_sensors), with their host. Rebuilt
 * only when a sensor came or a count moved: a poll of unchanged sensors costs a sum per
 * sensor. */
static void
publish_sensors (TwMonitor *self)
{
  g_autoptr(GString) streams = NULL;
  g_autoptr(GString) counts = NULL;
  guint64 sum = sensors_sum (self);

  if (self->entries->len == self->published_entries && sum == self->published_counts)
    return;
  self->published_entries = self->entries->len;
  self->published_counts = sum;
  streams = g_string_new (NULL);
  counts = g_string_new (NULL);
  for (guint i = 0; i < self->entries->len; i++)
    {
      const Entry *entry = self->entries->pdata[i];

      /* a file whose header did not read has no sensor to name */
      if (entry->sensor && entry->sensor->schema)
        append_local_sensor (entry, streams, counts);
      else if (entry->source && entry->source->klass->append_sensors)
        entry->source->klass->append_sensors (entry->source, streams, counts);
    }
  if (streams->len)
    tw_trace_set_metadata (self->trace, "sensor_streams", streams->str);
  if (counts->len)
    tw_trace_set_metadata (self->trace, "sensor_counts", counts->str);
}

/**
 * tw_monitor_poll:
 *
 * Rescans the directory when the scan interval passed, drains every attached source,
 * and appends (and publishes) the rows the merge rule releases.
 *
 * Returns: the number of rows appended to the store
 */
guint64
tw_monitor_poll (TwMonitor *self)
{
  guint64 emitted = 0;
  gboolean more = TRUE;

  g_return_val_if_fail (TW_IS_MONITOR (self), 0);

  if (self->watch && self->sensor_dir
      && (!self->scanned || tw_live_monotonic_ns () - self->last_scan_ns >= self->scan_interval_ns))
    tw_monitor_scan (self, NULL);

  /* Rounds: a source with more than its quota (a backlog) is drained in slices, each
   * merged into the store before the next, so the queues stay small whatever the
   * backlog. Only sources with more to read take part in the later rounds. */
  for (guint round = 0; more; round++)
    {
      guint64 limit = G_MAXUINT64;
      gboolean any = FALSE;

      more = FALSE;
      for (guint i = 0; i < self->entries->len; i++)
        {
          Entry *entry = self->entries->pdata[i];
          g_autoptr (GError) error = NULL;
          guint64 now;

          if (entry->state != TW_MONITOR_SOURCE_ATTACHED || entry->detached)
            continue;
          if (round == 0 || entry->source->more)
            {
              now = tw_live_monotonic_ns ();
              if (!entry->source->klass->poll (entry->source, self->trace, &entry->queue, &error))
                {
                  entry_fail (entry, error);
                  continue;
                }
              entry->horizon = entry->source->more ? entry->source->drained_until
                               : entry->source->own_clock ? entry->source->horizon : now;
              more |= entry->source->more;
            }
          if (!holds_merge (entry->source))
            continue;
          any = TRUE;
          limit = MIN (limit, entry->horizon);
        }
      if (any)
        limit = limit > self->window_ns ? limit - self->window_ns : 0;
      emitted += emit_until (self, limit);
    }
  publish_sensors (self);
  return emitted;
}

/**
 * tw_monitor_flush:
 *
 * Drains every attached source once more and emits everything queued, whatever the
 * reorder window (at the end of a session).
 *
 * Returns: the number of rows appended
 */
guint64
tw_monitor_flush (TwMonitor *self)
{
  guint64 emitted = 0;
  gboolean more = TRUE;

  g_return_val_if_fail (TW_IS_MONITOR (self), 0);

  for (guint round = 0; more; round++)
    {
      more = FALSE;
      for (guint i = 0; i < self->entries->len; i++)
        {
          Entry *entry = self->entries->pdata[i];
          g_autoptr (GError) error = NULL;

          if (entry->state != TW_MONITOR_SOURCE_ATTACHED || entry->detached
              || (round > 0 && !entry->source->more))
            continue;
          entry->source->flushing = TRUE;
          if (!entry->source->klass->poll (entry->source, self->trace, &entry->queue, &error))
            entry_fail (entry, error);
          else
            more |= entry->source->more;
          entry->source->flushing = FALSE;
        }
      emitted += emit_until (self, G_MAXUINT64);
    }
  publish_sensors (self);
  return emitted;
}

/**
 * tw_monitor_stop:
 *
 * Flushes, then stops every source (the kernel source restores the tracing it changed).
 * The store and the counts stay available.
 */
void
tw_monitor_stop (TwMonitor *self)
{
  g_return_if_fail (TW_IS_MONITOR (self));

  tw_monitor_flush (self);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = self->entries->pdata[i];

      if (entry->state == TW_MONITOR_SOURCE_ATTACHED && entry->source->klass->stop)
        entry->source->klass->stop (entry->source);
      if (entry->state == TW_MONITOR_SOURCE_ATTACHED)
        entry->state = TW_MONITOR_SOURCE_GONE;
    }
}

/**
 * tw_monitor_get_n_sources:
 *
 * Returns: how many sources (attached, gone or failed) the monitor has seen
 */
guint
tw_monitor_get_n_sources (TwMonitor *self)
{
  g_return_val_if_fail (TW_IS_MONITOR (self), 0);
  return self->entries->len;
}

/**
 * tw_monitor_get_source_info:
 * @info: (out): strings point into the monitor and stay valid while it lives
 *
 * Returns: %FALSE when @index is out of range
 */
gboolean
tw_monitor_get_source_info (TwMonitor           *self,
                            guint                index,
                            TwMonitorSourceInfo *info)
{
  Entry *entry;

  g_return_val_if_fail (TW_IS_MONITOR (self), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  memset (info, 0, sizeof *info);
  if (index >= self->entries->len)
    return FALSE;
  entry = self->entries->pdata[index];
  info->state = entry->state;
  info->detached = entry->detached;
  info->error = entry->error;
  info->path = entry->path;
  info->type = TW_TYPE_NONE;
  info->pid = -1;
  if (entry->source == NULL)
    {
      info->kind = "sensor";
      info->name = entry->path;
      return TRUE;
    }
  info->name = entry->source->name;
  info->kind = entry->source->klass->kind;
  info->counts = entry->source->counts;
  info->connection = entry->source->connection;
  info->connection_error = entry->source->connection_error;
  info->n_reconnects = entry->source->n_reconnects;
  if (entry->sensor)
    {
      const TwSensorInfo *si = &entry->sensor->info;

      info->task = si->task;
      info->sensor = si->sensor;
      info->schema = entry->sensor->schema;
      info->pid = si->pid;
      info->type = entry->sensor->type;
      info->period_ns = si->params.period_ns;
      info->min_distance_ns = si->params.min_distance_ns;
      info->earliness_ns = si->params.earliness_ns;
      info->monitor_period_ns = si->params.monitor_period_ns;
      info->deadline_ns = si->params.deadline_ns;
    }
  return TRUE;
}

/**
 * tw_monitor_get_emitted_until:
 *
 * Returns: T of the last merge: every row up to this time is in the store
 */
guint64
tw_monitor_get_emitted_until (TwMonitor *self)
{
  g_return_val_if_fail (TW_IS_MONITOR (self), 0);
  return self->emitted_until;
}

/**
 * tw_monitor_set_source_detached:
 * @index: a source (tw_monitor_get_source_info)
 * @detached: %TRUE to stop reading it, %FALSE to read it again
 *
 * Detaches a sensor without forgetting it: it is not read and does not hold the merge
 * back. Attached again, it is read from the writer's current end: what it committed
 * meanwhile was not wanted, so it is neither stored nor counted as missed (received +
 * missed then no longer adds up to committed). Only sensor sources can be detached;
 * the kernel buffer and samplers stay as they are.
 *
 * Returns: %FALSE with @error set when @index is not a sensor being read
 */
gboolean
tw_monitor_set_source_detached (TwMonitor  *self,
                                guint       index,
                                gboolean    detached,
                                GError    **error)
{
  Entry *entry;

  g_return_val_if_fail (TW_IS_MONITOR (self), FALSE);

  entry = index < self->entries->len ? self->entries->pdata[index] : NULL;
  if (entry == NULL || entry->sensor == NULL || entry->state != TW_MONITOR_SOURCE_ATTACHED)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "source %u is not a sensor being read", index);
      return FALSE;
    }
  detached = !!detached;
  if (entry->detached == detached)
    return TRUE;
  /* Rows it queued before detaching are still merged (they were received). */
  if (!detached && entry->sensor->reader && tw_sensor_reader_seek_end (entry->sensor->reader) < 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", entry->path,
                   tw_sensor_reader_get_error (entry->sensor->reader));
      return FALSE;
    }
  entry->detached = detached;
  return TRUE;
}
