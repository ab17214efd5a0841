/* tw-sensor-reader.c: the reader side of sensors, for monitors (Riegel 2005 §4.1)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every byte of a sensor file is untrusted: the header is validated once at open and
 * only the validated copies are used afterwards (a writer that rewrites its header
 * later cannot steer the reader outside the mapping); the counters, index entries and
 * elements are re-checked on every read. The reader never writes to the mapping, never
 * waits for the writer, and needs a bounded number of steps per element.
 *
 * Known limit: if another process of the same user truncates a mapped file, touching
 * the lost pages raises SIGBUS. Sensor files are 0600 in a 0700 directory, so only the
 * user's own programs can do that; a library must not install signal handlers.
 */
#include "config.h"

#include "tw-sensor-private.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct TwSensorReader {
  const unsigned char      *map;
  size_t                    map_size;
  const TwSensorFileHeader *header;
  TwSensorSchema           *schema;
  char                     *schema_text;
  const unsigned char      *elements;
  const _Atomic uint64_t   *index;

  /* validated copies of the header */
  unsigned                  flags;
  size_t                    stride;
  uint64_t                  slots;
  uint64_t                  mask;
  uint64_t                  first_position;
  int64_t                   pid;
  uint64_t                  pid_start_time;
  char                      task[TW_SENSOR_NAME_MAX];
  char                      sensor[TW_SENSOR_NAME_MAX];
  TwSensorParams            params;
  uint64_t                  created_monotonic_ns;
  uint64_t                  created_realtime_ns;
  uint32_t                  clock_source;

  uint64_t                  position;
  uint64_t                  located_position;   /* simple: last position located ... */
  uint64_t                  located_slot;       /* ... and its slot */
  uint64_t                  last_head;
  uint64_t                  last_timestamp;
  bool                      have_timestamp;
  bool                      prepared;
  uint64_t                  prepared_position;
  unsigned char            *copy;
  TwSensorReaderCounts      counts;
  dev_t                     device;
  ino_t                     inode;
  char                      path[4096];
  char                      error[512];
};

static int
reader_error (TwSensorReader *reader, int code, const char *format, ...)
  __attribute__ ((format (printf, 3, 4)));

static int
reader_error (TwSensorReader *reader, int code, const char *format, ...)
{
  char message[400];
  va_list args;

  va_start (args, format);
  vsnprintf (message, sizeof message, format, args);
  va_end (args);
  if (snprintf (reader->error, sizeof reader->error, "%s: %s", reader->path, message) >= (int) sizeof reader->error)
    memcpy (reader->error + sizeof reader->error - 4, "...", 4);
  return code;
}

static bool
in_file (uint64_t offset, uint64_t size, uint64_t file_size)
{
  uint64_t end;

  return !__builtin_add_overflow (offset, size, &end) && end <= file_size;
}

static bool
name_field_valid (const char *field)
{
  return memchr (field, '\0', TW_SENSOR_NAME_MAX) != NULL && tw_sensor_name_is_valid (field);
}

/* Validates the header copy @h against a file of @file_size bytes. */
static int
validate (TwSensorReader *reader, const TwSensorFileHeader *h, uint64_t file_size)
{
  uint64_t bytes, schema_end, payload_stride;
  char schema_error[256];

  if (memcmp (h->magic, TW_SENSOR_MAGIC, 8) != 0)
    return reader_error (reader, -EBADMSG, "offset 0: bad magic (not a tracewb sensor file)");
  if (h->version != TW_SENSOR_FORMAT_VERSION)
    return reader_error (reader, -EPROTONOSUPPORT, "offset 8: format version %" PRIu32 ", this reader knows %u",
                         h->version, TW_SENSOR_FORMAT_VERSION);
  if (h->header_size != TW_SENSOR_HEADER_SIZE)
    return reader_error (reader, -EBADMSG, "offset 12: header size %" PRIu32 ", expected %u",
                         h->header_size, TW_SENSOR_HEADER_SIZE);
  if (h->flags & ~(uint32_t) TW_SENSOR_CONCURRENT)
    return reader_error (reader, -EBADMSG, "offset 16: unknown flags 0x%" PRIx32, h->flags);
  if (h->element_size < 8 || h->element_size % 8 || h->element_size > 8 + TW_SENSOR_MAX_PAYLOAD)
    return reader_error (reader, -EBADMSG, "offset 20: element size %" PRIu32 " (must be a multiple of 8, 8..%d)",
                         h->element_size, 8 + TW_SENSOR_MAX_PAYLOAD);
  if (h->slots < 2 || h->slots > TW_SENSOR_MAX_SLOTS
      || ((h->flags & TW_SENSOR_CONCURRENT) && (h->slots & (h->slots - 1))))
    return reader_error (reader, -EBADMSG, "offset 24: %" PRIu64 " slots (must be 2..%u%s)", h->slots,
                         TW_SENSOR_MAX_SLOTS, (h->flags & TW_SENSOR_CONCURRENT) ? ", a power of two" : "");
  if (h->first_position != ((h->flags & TW_SENSOR_CONCURRENT) ? h->slots : 0))
    return reader_error (reader, -EBADMSG, "offset 32: first position %" PRIu64 " does not match the layout",
                         h->first_position);
  if (h->file_size > file_size)
    return reader_error (reader, -EBADMSG, "offset 40: header says %" PRIu64 " bytes, file has %" PRIu64
                         " (truncated)", h->file_size, file_size);
  if (h->schema_offset < TW_SENSOR_HEADER_SIZE || h->schema_size == 0 || h->schema_size > TW_SENSOR_SCHEMA_MAX
      || !in_file (h->schema_offset, h->schema_size, h->file_size))
    return reader_error (reader, -EBADMSG, "offset 48: schema at %" PRIu64 " (%" PRIu64 " bytes) is outside the"
                         " file or longer than %d bytes", h->schema_offset, h->schema_size, TW_SENSOR_SCHEMA_MAX);
  schema_end = h->schema_offset + h->schema_size;
  if (h->flags & TW_SENSOR_CONCURRENT)
    {
      if (h->index_offset < schema_end || h->index_offset % 8
          || !in_file (h->index_offset, h->slots * 8, h->file_size)
          || h->elements_offset < h->index_offset + h->slots * 8)
        return reader_error (reader, -EBADMSG, "offset 64: index array at %" PRIu64 " overlaps or is outside the file",
                             h->index_offset);
    }
  else if (h->index_offset != 0)
    return reader_error (reader, -EBADMSG, "offset 64: a simple sensor has no index array");
  if (__builtin_mul_overflow (h->slots, (uint64_t) h->element_size, &bytes)
      || h->elements_offset < schema_end || h->elements_offset % 8
      || !in_file (h->elements_offset, bytes, h->file_size))
    return reader_error (reader, -EBADMSG, "offset 72: %" PRIu64 " elements of %" PRIu32 " bytes at %" PRIu64
                         " do not fit in %" PRIu64 " bytes", h->slots, h->element_size, h->elements_offset,
                         h->file_size);
  if (!name_field_valid (h->task) || !name_field_valid (h->sensor))
    return reader_error (reader, -EBADMSG, "offset 160: task or sensor name is empty, unterminated or has"
                         " control characters");
  if (!isfinite (h->period_ns) || !isfinite (h->min_distance_ns) || !isfinite (h->earliness_ns)
      || !isfinite (h->monitor_period_ns) || !isfinite (h->deadline_ns))
    return reader_error (reader, -EBADMSG, "offset 120: stream parameters are not finite numbers");

  /* The schema: copy first, then check, so the writer cannot change it under us. */
  reader->schema_text = malloc (h->schema_size);
  if (!reader->schema_text)
    return reader_error (reader, -ENOMEM, "out of memory");
  memcpy (reader->schema_text, reader->map + h->schema_offset, h->schema_size);
  if (reader->schema_text[h->schema_size - 1] != '\0'
      || strlen (reader->schema_text) != h->schema_size - 1)
    return reader_error (reader, -EBADMSG, "offset %" PRIu64 ": schema text is not one NUL-terminated string",
                         h->schema_offset);
  reader->schema = tw_sensor_schema_parse (reader->schema_text, schema_error, sizeof schema_error);
  if (!reader->schema)
    return reader_error (reader, -EBADMSG, "offset %" PRIu64 ": schema: %s", h->schema_offset, schema_error);
  payload_stride = (8 + tw_sensor_schema_get_size (reader->schema) + 7) / 8 * 8;
  if (payload_stride != h->element_size)
    return reader_error (reader, -EBADMSG, "offset 20: element size %" PRIu32 " does not match the schema (%"
                         PRIu64 ")", h->element_size, payload_stride);
  return 0;
}

/**
 * tw_sensor_reader_open:
 * @path: a sensor file
 * @error: (nullable): where to write a message on failure
 * @error_size: its size
 *
 * Maps @path read-only and validates its header. The reader starts at the current end
 * of the stream (a monitor discards old elements, Riegel 2005 §4.2.1); call
 * tw_sensor_reader_seek_start() to read everything still in the buffer.
 *
 * Returns: (transfer full) (nullable): the reader, or NULL with errno set
 */
TwSensorReader *
tw_sensor_reader_open (const char *path, char *error, size_t error_size)
{
  return tw_sensor_reader_open_mapped (path, true, error, error_size);
}

/* @populate: fault the whole file in now (a monitor about to drain it) or not (a
 * directory listing that only looks at the header). */
TwSensorReader *
tw_sensor_reader_open_mapped (const char *path, bool populate, char *error, size_t error_size)
{
  TwSensorReader *reader = calloc (1, sizeof *reader);
  TwSensorFileHeader header;
  struct stat st;
  void *map;
  int fd, ret;

  if (!reader)
    {
      tw_sensor_set_error (error, error_size, "out of memory");
      errno = ENOMEM;
      return NULL;
    }
  snprintf (reader->path, sizeof reader->path, "%s", path);
  fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      ret = reader_error (reader, -errno, "cannot open: %s", strerror (errno));
      goto fail;
    }
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      ret = reader_error (reader, -EINVAL, "not a regular file");
      goto fail;
    }
  if ((uint64_t) st.st_size < TW_SENSOR_HEADER_SIZE)
    {
      close (fd);
      ret = reader_error (reader, -EBADMSG, "truncated: %jd bytes, the header alone needs %u",
                          (intmax_t) st.st_size, TW_SENSOR_HEADER_SIZE);
      goto fail;
    }
  /* Populate: a monitor must not take page faults while it drains. */
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED | (populate ? MAP_POPULATE : 0), fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    {
      ret = reader_error (reader, -errno, "cannot map: %s", strerror (errno));
      goto fail;
    }
  reader->map = map;
  reader->map_size = (size_t) st.st_size;
  reader->device = st.st_dev;
  reader->inode = st.st_ino;
  reader->header = map;
  memcpy (&header, map, sizeof header);
  ret = validate (reader, &header, (uint64_t) st.st_size);
  if (ret < 0)
    goto fail;

  reader->flags = header.flags;
  reader->stride = header.element_size;
  reader->slots = header.slots;
  reader->mask = header.slots - 1;
  reader->first_position = header.first_position;
  reader->pid = header.pid;
  reader->pid_start_time = header.pid_start_time;
  memcpy (reader->task, header.task, sizeof reader->task);
  memcpy (reader->sensor, header.sensor, sizeof reader->sensor);
  reader->params.period_ns = header.period_ns;
  reader->params.min_distance_ns = header.min_distance_ns;
  reader->params.earliness_ns = header.earliness_ns;
  reader->params.monitor_period_ns = header.monitor_period_ns;
  reader->params.deadline_ns = header.deadline_ns;
  reader->params.max_writers = header.max_writers;
  reader->created_monotonic_ns = header.created_monotonic_ns;
  reader->created_realtime_ns = header.created_realtime_ns;
  reader->clock_source = header.clock_source;
  reader->elements = reader->map + header.elements_offset;
  if (header.flags & TW_SENSOR_CONCURRENT)
    reader->index = (const _Atomic uint64_t *) (const void *) (reader->map + header.index_offset);
  reader->copy = malloc (reader->stride);
  if (!reader->copy)
    {
      ret = reader_error (reader, -ENOMEM, "out of memory");
      goto fail;
    }
  reader->last_head = reader->first_position;
  ret = tw_sensor_reader_seek_end (reader);
  if (ret < 0)
    goto fail;
  return reader;

fail:
  tw_sensor_set_error (error, error_size, "%s", reader->error);
  tw_sensor_reader_free (reader);
  errno = -ret;
  return NULL;
}

/**
 * tw_sensor_reader_free:
 * @reader: (nullable) (transfer full): a reader
 */
void
tw_sensor_reader_free (TwSensorReader *reader)
{
  if (!reader)
    return;
  if (reader->map)
    munmap ((void *) reader->map, reader->map_size);
  tw_sensor_schema_free (reader->schema);
  free (reader->schema_text);
  free (reader->copy);
  free (reader);
}

/**
 * tw_sensor_reader_get_error:
 *
 * Returns: (transfer none): the message of the last failure, naming the file
 */
const char *
tw_sensor_reader_get_error (const TwSensorReader *reader)
{
  return reader->error;
}

/**
 * tw_sensor_reader_get_schema:
 *
 * Returns: (transfer none): the element schema, to decode payloads by field name
 */
const TwSensorSchema *
tw_sensor_reader_get_schema (const TwSensorReader *reader)
{
  return reader->schema;
}

/**
 * tw_sensor_reader_get_counts:
 *
 * Returns: received, missed, inconsistent and nonmonotonic so far
 */
TwSensorReaderCounts
tw_sensor_reader_get_counts (const TwSensorReader *reader)
{
  return reader->counts;
}

/* Reads the element counter and rejects one that runs backwards. */
static int
load_head (TwSensorReader *reader, uint64_t *head)
{
  uint64_t value = atomic_load_explicit (&reader->header->head, memory_order_acquire);

  if (value < reader->last_head)
    return reader_error (reader, -EPROTO, "offset 512: element counter ran backwards from %" PRIu64 " to %" PRIu64,
                         reader->last_head - reader->first_position, value - reader->first_position);
  reader->last_head = value;
  *head = value;
  return 0;
}

/* The end of the committed stream. A concurrent writer inserts its element in the index
 * and then advances head; an element already inserted counts as committed (its payload
 * and timestamp were released with the insertion), so a writer that died between the two
 * steps, with nobody left to help, does not hide its last element. */
static int
load_published (TwSensorReader *reader, uint64_t *head)
{
  int ret = load_head (reader, head);

  if (ret < 0 || !(reader->flags & TW_SENSOR_CONCURRENT))
    return ret;
  if ((atomic_load_explicit (&reader->index[*head & reader->mask], memory_order_acquire) >> TW_SENSOR_INDEX_BITS)
      == (*head & TW_SENSOR_TAG_MASK))
    (*head)++;
  return 0;
}

/* The oldest position whose element is still intact, given @head. */
static int
load_oldest (TwSensorReader *reader, uint64_t head, uint64_t *oldest)
{
  uint64_t tail, head_after = 0;
  int ret;

  if (!(reader->flags & TW_SENSOR_CONCURRENT))
    {
      *oldest = head >= reader->slots - 1 ? head - (reader->slots - 1) : 0;
      return 0;
    }
  tail = atomic_load_explicit (&reader->header->tail, memory_order_acquire);
  ret = load_head (reader, &head_after);
  if (ret < 0)
    return ret;
  /* A writer may take position p's element once p is inserted, one step before head
   * passes p: tail never exceeds head + 1. */
  if (tail > head_after + 1)
    return reader_error (reader, -EPROTO, "offset 576: reuse position %" PRIu64 " is ahead of the element counter %"
                         PRIu64, tail, head_after);
  *oldest = tail > reader->first_position ? tail : reader->first_position;
  (void) head;
  return 0;
}

/* Whether the element at @position, copied before this call, was intact. */
static int
check_intact (TwSensorReader *reader, uint64_t position, bool *intact)
{
  atomic_thread_fence (memory_order_acquire);
  if (reader->flags & TW_SENSOR_CONCURRENT)
    {
      uint64_t tail = atomic_load_explicit (&reader->header->tail, memory_order_acquire);

      *intact = tail <= position;
      return 0;
    }
  else
    {
      uint64_t head = 0;
      int ret = load_head (reader, &head);

      if (ret < 0)
        return ret;
      *intact = head - position < reader->slots;
      return 0;
    }
}

/* Where the element of @position lives, or NULL once it was overwritten. */
static int
locate (TwSensorReader *reader, uint64_t position, const unsigned char **element)
{
  uint64_t entry, index;

  if (!(reader->flags & TW_SENSOR_CONCURRENT))
    {
      /* Reading in order, the slot follows from the previous one without a division. */
      if (position == reader->located_position + 1 && reader->located_slot + 1 < reader->slots)
        reader->located_slot++;
      else if (position == reader->located_position + 1)
        reader->located_slot = 0;
      else if (position != reader->located_position)
        reader->located_slot = position % reader->slots;
      reader->located_position = position;
      *element = reader->elements + reader->located_slot * reader->stride;
      return 0;
    }
  entry = atomic_load_explicit (&reader->index[position & reader->mask], memory_order_acquire);
  index = entry & TW_SENSOR_INDEX_MASK;
  if ((entry >> TW_SENSOR_INDEX_BITS) != (position & TW_SENSOR_TAG_MASK))
    {
      uint64_t tail = atomic_load_explicit (&reader->header->tail, memory_order_acquire);

      /* Only a newer insertion may replace the entry, and that needs tail > position. */
      if (tail <= position)
        return reader_error (reader, -EPROTO, "index entry of position %" PRIu64 " holds another position",
                             position - reader->first_position);
      *element = NULL;
      return 0;
    }
  if (index >= reader->slots)
    return reader_error (reader, -EPROTO, "index entry of position %" PRIu64 " points to element %" PRIu64
                         " of %" PRIu64, position - reader->first_position, index, reader->slots);
  *element = reader->elements + index * reader->stride;
  return 0;
}

/**
 * tw_sensor_reader_get_committed:
 * @committed: (out): elements the writer(s) committed so far
 *
 * Returns: 0 or a negative errno (a counter running backwards)
 */
int
tw_sensor_reader_get_committed (TwSensorReader *reader, uint64_t *committed)
{
  uint64_t head = 0;
  int ret = load_published (reader, &head);

  if (ret < 0)
    return ret;
  *committed = head - reader->first_position;
  return 0;
}

/**
 * tw_sensor_reader_seek_start:
 *
 * Reads from stream position 0: elements already overwritten count as missed, so that
 * received + missed ends up equal to everything the writer committed.
 *
 * Returns: 0
 */
int
tw_sensor_reader_seek_start (TwSensorReader *reader)
{
  reader->position = reader->first_position;
  reader->prepared = false;
  return 0;
}

/**
 * tw_sensor_reader_seek_end:
 *
 * Skips everything committed so far without counting it.
 *
 * Returns: 0 or a negative errno
 */
int
tw_sensor_reader_seek_end (TwSensorReader *reader)
{
  uint64_t head = 0;
  int ret = load_published (reader, &head);

  if (ret < 0)
    return ret;
  reader->position = head;
  reader->prepared = false;
  return 0;
}

/**
 * tw_sensor_reader_prepare:
 * @reader: a reader
 * @element: (out): the copied element
 *
 * Copies the next element (skipping, and counting as missed, those already
 * overwritten). The copy may be evaluated, but only tw_sensor_reader_commit() tells
 * whether it is valid. Calling prepare again without commit re-reads the same position.
 *
 * Returns: TW_SENSOR_READ_ELEMENT, TW_SENSOR_READ_EMPTY, or a negative errno
 */
int
tw_sensor_reader_prepare (TwSensorReader *reader, TwSensorElement *element)
{
  const unsigned char *source = NULL;
  uint64_t head = 0, oldest = 0, timestamp;
  int ret;

  reader->prepared = false;
  for (int attempt = 0; attempt < 4 && !source; attempt++)
    {
      if ((ret = load_published (reader, &head)) < 0 || (ret = load_oldest (reader, head, &oldest)) < 0)
        return ret;
      if (reader->position < reader->first_position)
        reader->position = reader->first_position;
      if (reader->position < oldest)
        {
          reader->counts.missed += oldest - reader->position;
          reader->position = oldest;
        }
      if (reader->position >= head)
        return TW_SENSOR_READ_EMPTY;
      if ((ret = locate (reader, reader->position, &source)) < 0)
        return ret;
    }
  if (!source)
    return TW_SENSOR_READ_EMPTY;   /* the writer laps us faster than we can look */

  memcpy (reader->copy, source, reader->stride);
  memcpy (&timestamp, reader->copy, sizeof timestamp);
  reader->prepared = true;
  reader->prepared_position = reader->position;
  element->position = reader->position - reader->first_position;
  element->timestamp_ns = timestamp;
  element->payload = reader->copy + 8;
  element->payload_size = reader->stride - 8;
  element->timestamp_backwards = reader->have_timestamp && timestamp < reader->last_timestamp;
  return TW_SENSOR_READ_ELEMENT;
}

/**
 * tw_sensor_reader_commit:
 * @reader: a reader with a prepared element
 *
 * Checks that the writer did not reuse the prepared element since prepare began, and
 * moves on to the next position.
 *
 * Returns: TW_SENSOR_READ_ELEMENT (valid: count it received, keep what was evaluated),
 * TW_SENSOR_READ_INCONSISTENT (overwritten: discard it; counted missed and
 * inconsistent), or a negative errno
 */
int
tw_sensor_reader_commit (TwSensorReader *reader)
{
  uint64_t position = reader->prepared_position, timestamp;
  bool intact;
  int ret;

  if (!reader->prepared)
    return reader_error (reader, -EINVAL, "commit without a prepared element");
  reader->prepared = false;
  ret = check_intact (reader, position, &intact);
  if (ret < 0)
    return ret;
  reader->position = position + 1;
  if (!intact)
    {
      reader->counts.missed++;
      reader->counts.inconsistent++;
      return TW_SENSOR_READ_INCONSISTENT;
    }
  memcpy (&timestamp, reader->copy, sizeof timestamp);
  if (reader->have_timestamp && timestamp < reader->last_timestamp)
    reader->counts.nonmonotonic++;
  reader->last_timestamp = timestamp;
  reader->have_timestamp = true;
  reader->counts.received++;
  return TW_SENSOR_READ_ELEMENT;
}

/**
 * tw_sensor_reader_next:
 *
 * prepare + commit. TW_SENSOR_READ_INCONSISTENT means an element was lost while read:
 * call again.
 *
 * Returns: TW_SENSOR_READ_ELEMENT, _EMPTY, _INCONSISTENT, or a negative errno
 */
int
tw_sensor_reader_next (TwSensorReader *reader, TwSensorElement *element)
{
  int ret = tw_sensor_reader_prepare (reader, element);

  if (ret != TW_SENSOR_READ_ELEMENT)
    return ret;
  return tw_sensor_reader_commit (reader);
}

/**
 * tw_sensor_reader_read_batch:
 * @reader: a reader
 * @buffer: room for @max_elements elements of info.element_size bytes each
 * @max_elements: at most this many
 * @first_position: (out): stream position of the first element delivered
 *
 * Copies up to @max_elements consecutive intact elements (u64 timestamp + payload
 * each), checking the counter once for the whole batch: the fast path of a monitor.
 *
 * Returns: the number of elements delivered (0: nothing new), or a negative errno
 */
int
tw_sensor_reader_read_batch (TwSensorReader *reader, void *buffer, size_t max_elements, uint64_t *first_position)
{
  unsigned char *out = buffer;
  size_t stride = reader->stride;

  reader->prepared = false;
  if (max_elements > INT32_MAX)
    max_elements = INT32_MAX;
  for (int attempt = 0; attempt < 4; attempt++)
    {
      uint64_t head = 0, oldest = 0, start, n, valid_from, dropped;
      int ret;

      if ((ret = load_published (reader, &head)) < 0 || (ret = load_oldest (reader, head, &oldest)) < 0)
        return ret;
      if (reader->position < reader->first_position)
        reader->position = reader->first_position;
      if (reader->position < oldest)
        {
          reader->counts.missed += oldest - reader->position;
          reader->position = oldest;
        }
      if (reader->position >= head || max_elements == 0)
        return 0;
      start = reader->position;
      n = head - start < max_elements ? head - start : max_elements;

      if (!(reader->flags & TW_SENSOR_CONCURRENT))
        {
          uint64_t slot = start % reader->slots, first_run = reader->slots - slot;

          if (first_run > n)
            first_run = n;
          memcpy (out, reader->elements + slot * stride, first_run * stride);
          if (n > first_run)
            memcpy (out + first_run * stride, reader->elements, (n - first_run) * stride);
        }
      else
        for (uint64_t i = 0; i < n; i++)
          {
            const unsigned char *source;

            if ((ret = locate (reader, start + i, &source)) < 0)
              return ret;
            if (source)
              memcpy (out + i * stride, source, stride);
          }

      atomic_thread_fence (memory_order_acquire);
      if (reader->flags & TW_SENSOR_CONCURRENT)
        valid_from = atomic_load_explicit (&reader->header->tail, memory_order_acquire);
      else
        {
          uint64_t head_after = 0;

          if ((ret = load_head (reader, &head_after)) < 0)
            return ret;
          valid_from = head_after >= reader->slots - 1 ? head_after - (reader->slots - 1) : 0;
        }
      dropped = valid_from > start ? (valid_from - start < n ? valid_from - start : n) : 0;
      reader->counts.missed += dropped;
      reader->counts.inconsistent += dropped;
      reader->position = start + n;
      if (dropped == n)
        continue;
      if (dropped)
        memmove (out, out + dropped * stride, (n - dropped) * stride);
      n -= dropped;
      for (uint64_t i = 0; i < n; i++)
        {
          uint64_t timestamp;

          memcpy (&timestamp, out + i * stride, sizeof timestamp);
          if (reader->have_timestamp && timestamp < reader->last_timestamp)
            reader->counts.nonmonotonic++;
          reader->last_timestamp = timestamp;
          reader->have_timestamp = true;
        }
      reader->counts.received += n;
      if (first_position)
        *first_position = start + dropped - reader->first_position;
      return (int) n;
    }
  return 0;
}

/**
 * tw_sensor_reader_get_info:
 * @reader: a reader
 * @info: (out): the sensor's validated description; info->schema_text belongs to @reader
 *
 * Returns: 0
 */
int
tw_sensor_reader_get_info (TwSensorReader *reader, TwSensorInfo *info)
{
  memset (info, 0, sizeof *info);
  memcpy (info->task, reader->task, sizeof info->task);
  memcpy (info->sensor, reader->sensor, sizeof info->sensor);
  info->schema_text = reader->schema_text;
  info->flags = reader->flags;
  info->element_size = reader->stride;
  info->payload_size = tw_sensor_schema_get_size (reader->schema);
  info->slots = reader->slots;
  info->pid = reader->pid;
  info->dropped = atomic_load_explicit (&reader->header->dropped, memory_order_relaxed);
  info->writer_closed = atomic_load_explicit (&reader->header->state, memory_order_acquire) & TW_SENSOR_STATE_CLOSED;
  info->params = reader->params;
  info->created_monotonic_ns = reader->created_monotonic_ns;
  info->created_realtime_ns = reader->created_realtime_ns;
  info->tsc_clock = reader->clock_source == 1;
  return 0;
}

/**
 * tw_sensor_reader_writer_alive:
 *
 * Returns: whether the writer's process still runs (a crashed writer leaves its file
 * behind; a recycled pid with another start time does not count)
 */
bool
tw_sensor_reader_writer_alive (TwSensorReader *reader)
{
  return tw_sensor_pid_alive (reader->pid, reader->pid_start_time);
}

/**
 * tw_sensor_reader_file_replaced:
 *
 * A writer that restarts publishes a new file under the same name; the reader keeps the
 * old one mapped. Monitors poll this to re-attach.
 *
 * Returns: whether the path no longer names the file this reader maps
 */
bool
tw_sensor_reader_file_replaced (TwSensorReader *reader)
{
  struct stat st;

  if (stat (reader->path, &st) < 0)
    return true;
  return st.st_dev != reader->device || st.st_ino != reader->inode;
}
