/* tw-sensor.h: sensors (shared-memory ring buffers) for instrumented programs, and their readers
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Plain C11, no GLib: a real-time program links libtracewb-sensor alone
 * (`pkg-config --cflags --libs tracewb-sensor`).
 *
 * Writer side (Riegel 2005 §4.1):
 *
 *   TwSensor *s = tw_sensor_new ("my-app", "job-end", "u64 job; u32 cpu; f64 ms", 4096, 0);
 *   struct { uint64_t job; uint32_t cpu; double ms; } *e = tw_sensor_write (s);
 *   e->job = 42; e->cpu = 1; e->ms = 0.5;
 *   tw_sensor_commit (s, e);
 *
 * The library stamps every element with a CLOCK_MONOTONIC nanosecond timestamp at
 * commit time (see "Timestamps" in tw-sensor.c). A simple sensor (flags 0) must be
 * written by one thread at a time and is wait-free; a TW_SENSOR_CONCURRENT sensor may be
 * written by many threads at once and is lock-free. Writers never wait for readers.
 *
 * Reader side: tw_sensor_reader_open() maps a sensor file read-only, treats every byte
 * of it as untrusted, and delivers elements in stream order with exact missed counts.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifdef __cplusplus
# define TW_BEGIN_DECLS extern "C" {
# define TW_END_DECLS }
#else
# define TW_BEGIN_DECLS
# define TW_END_DECLS
#endif

#if defined(__GNUC__) && defined(TW_SENSOR_COMPILATION)
# define TW_SENSOR_API __attribute__ ((visibility ("default")))
#else
# define TW_SENSOR_API
#endif

TW_BEGIN_DECLS

/* ---------------------------------------------------------------------------------------
 * Schemas: "u64 seq; u32 cpu; f64 value; char name[16]"
 *
 * Types u8 u16 u32 u64 i8 i16 i32 i64 f32 f64 char; any field may be an array "T name[N]".
 * Fields are laid out in declaration order with natural alignment, exactly as a C
 * compiler lays out the matching struct on x86-64/aarch64 Linux: each field starts at a
 * multiple of its element type's size (char: 1), and the total size is rounded up to the
 * largest alignment. The payload follows the element's 8-byte timestamp.
 * ------------------------------------------------------------------------------------- */

#define TW_SENSOR_NAME_MAX        64     /* task and sensor names, including the NUL */
#define TW_SENSOR_FIELD_NAME_MAX  32     /* field names, including the NUL */
#define TW_SENSOR_SCHEMA_MAX      4096   /* schema text, including the NUL */
#define TW_SENSOR_MAX_FIELDS      256
#define TW_SENSOR_MAX_PAYLOAD     65536  /* bytes of payload per element */

typedef enum {
  TW_SENSOR_FIELD_U8,
  TW_SENSOR_FIELD_U16,
  TW_SENSOR_FIELD_U32,
  TW_SENSOR_FIELD_U64,
  TW_SENSOR_FIELD_I8,
  TW_SENSOR_FIELD_I16,
  TW_SENSOR_FIELD_I32,
  TW_SENSOR_FIELD_I64,
  TW_SENSOR_FIELD_F32,
  TW_SENSOR_FIELD_F64,
  TW_SENSOR_FIELD_CHAR,
} TwSensorFieldType;

typedef struct {
  char              name[TW_SENSOR_FIELD_NAME_MAX];
  TwSensorFieldType type;
  uint32_t          count;        /* array length; 1 for a scalar ("char name[16]": 16) */
  uint32_t          offset;       /* bytes from the start of the payload */
  uint32_t          size;         /* bytes: type size × count */
} TwSensorField;

typedef struct TwSensorSchema TwSensorSchema;

TW_SENSOR_API TwSensorSchema      *tw_sensor_schema_parse        (const char *text,
                                                                   char       *error,
                                                                   size_t      error_size);
TW_SENSOR_API void                 tw_sensor_schema_free         (TwSensorSchema *schema);
TW_SENSOR_API size_t               tw_sensor_schema_get_n_fields (const TwSensorSchema *schema);
TW_SENSOR_API const TwSensorField *tw_sensor_schema_get_field    (const TwSensorSchema *schema,
                                                                   size_t                index);
TW_SENSOR_API int                  tw_sensor_schema_find_field   (const TwSensorSchema *schema,
                                                                   const char           *name);
TW_SENSOR_API size_t               tw_sensor_schema_get_size     (const TwSensorSchema *schema);
TW_SENSOR_API size_t               tw_sensor_schema_get_alignment (const TwSensorSchema *schema);
TW_SENSOR_API const char          *tw_sensor_field_type_name     (TwSensorFieldType type);
TW_SENSOR_API int                  tw_sensor_field_format        (const TwSensorField *field,
                                                                   const void          *payload,
                                                                   char                *buffer,
                                                                   size_t               buffer_size);

/* ---------------------------------------------------------------------------------------
 * Writer side
 * ------------------------------------------------------------------------------------- */

typedef struct TwSensor TwSensor;

enum {
  TW_SENSOR_CONCURRENT      = 1u << 0,  /* lock-free, several threads may write at once */
  TW_SENSOR_UNLINK_ON_FREE  = 1u << 1,  /* remove the file in tw_sensor_free() */
};

/**
 * TwSensorParams:
 *
 * Optional registration parameters. The jitter-constrained stream (Riegel 2005 §4.2) is
 * (period, min_distance, earliness) in nanoseconds; a monitor period T_M and deadline d
 * complete it. All zero = not declared. When they are declared and `capacity` is 0, the
 * buffer holds E(T_M + d) elements: the most the stream can produce within the worst-case
 * latency l_min = T_M + d of a monitor that reads every period (Riegel 2005 eqs. 1–3).
 * `max_writers` bounds concurrent writers of a TW_SENSOR_CONCURRENT sensor (default 64):
 * that many elements are kept spare so that a write never fails below that bound.
 */
typedef struct {
  double   period_ns;           /* T > 0 */
  double   min_distance_ns;     /* 0 ≤ D ≤ T */
  double   earliness_ns;        /* τ ≥ 0 (lateness folded in: τ + τ') */
  double   monitor_period_ns;   /* T_M > 0 */
  double   deadline_ns;         /* 0 < d ≤ T_M */
  uint32_t max_writers;
} TwSensorParams;

TW_SENSOR_API TwSensor *tw_sensor_new      (const char *task,
                                             const char *sensor,
                                             const char *schema,
                                             size_t      capacity,
                                             unsigned    flags);
TW_SENSOR_API TwSensor *tw_sensor_new_full (const char           *task,
                                             const char           *sensor,
                                             const char           *schema,
                                             size_t                capacity,
                                             unsigned              flags,
                                             const TwSensorParams *params);
TW_SENSOR_API void     *tw_sensor_write    (TwSensor *sensor);
TW_SENSOR_API void      tw_sensor_commit   (TwSensor *sensor,
                                             void     *element);
TW_SENSOR_API void      tw_sensor_free     (TwSensor *sensor);

TW_SENSOR_API const char *tw_sensor_get_path     (const TwSensor *sensor);
TW_SENSOR_API size_t      tw_sensor_get_capacity (const TwSensor *sensor);
TW_SENSOR_API uint64_t    tw_sensor_get_committed (const TwSensor *sensor);
TW_SENSOR_API uint64_t    tw_sensor_now_ns       (TwSensor *sensor);
TW_SENSOR_API size_t      tw_sensor_jcs_buffer_size (const TwSensorParams *params);

/* ---------------------------------------------------------------------------------------
 * The sensor directory
 *
 * $TRACEWB_SENSOR_DIR if set, else /dev/shm/tracewb-<uid> (tmpfs, mode 0700, owned by
 * the user). One file per sensor, "<task>@<sensor>.tws", names percent-encoded so that
 * neither '/' nor a leading '.' can appear. Files are 0600 and stay after the writer
 * exits or crashes; stale ones (writer no longer alive) can be listed and removed.
 * ------------------------------------------------------------------------------------- */

typedef struct {
  char     path[4096];
  char     task[TW_SENSOR_NAME_MAX];
  char     sensor[TW_SENSOR_NAME_MAX];
  int64_t  pid;
  bool     valid;        /* the header passed validation (else task/sensor are empty) */
  bool     alive;        /* the writer process still runs */
  char     error[256];   /* why it is not valid */
} TwSensorDirEntry;

TW_SENSOR_API int  tw_sensor_dir_get_path     (char *buffer,
                                                size_t buffer_size);
TW_SENSOR_API int  tw_sensor_file_name        (const char *task,
                                                const char *sensor,
                                                char       *buffer,
                                                size_t      buffer_size);
TW_SENSOR_API int  tw_sensor_dir_list         (TwSensorDirEntry **entries,
                                                size_t            *n_entries);
TW_SENSOR_API int  tw_sensor_dir_remove_stale (size_t *n_removed);

/* ---------------------------------------------------------------------------------------
 * Reader side (for monitors)
 *
 * Positions count committed elements from 0 (the first element the writer committed).
 * prepare copies the next element; commit re-checks that the writer did not reuse it
 * while it was copied (or evaluated): only then is it delivered. Every element that was
 * committed but not delivered counts as missed, so from position 0,
 *   received + missed = committed.
 * `inconsistent` counts the missed elements that were caught being overwritten mid-read.
 * Errors return a negative errno and leave a message in tw_sensor_reader_get_error().
 * ------------------------------------------------------------------------------------- */

typedef struct TwSensorReader TwSensorReader;

typedef struct {
  uint64_t    position;            /* stream position, 0 = first committed element */
  uint64_t    timestamp_ns;        /* CLOCK_MONOTONIC */
  const void *payload;             /* reader-owned copy, valid until the next prepare/read */
  size_t      payload_size;
  bool        timestamp_backwards; /* earlier than the previous delivered element */
} TwSensorElement;

typedef struct {
  uint64_t received;
  uint64_t missed;
  uint64_t inconsistent;
  uint64_t nonmonotonic;
} TwSensorReaderCounts;

typedef struct {
  char     task[TW_SENSOR_NAME_MAX];
  char     sensor[TW_SENSOR_NAME_MAX];
  const char *schema_text;
  unsigned flags;                  /* TW_SENSOR_CONCURRENT */
  size_t   element_size;           /* stride: 8-byte timestamp + payload + padding */
  size_t   payload_size;
  uint64_t slots;                  /* elements in the ring */
  int64_t  pid;
  uint64_t dropped;                /* writes refused (more concurrent writers than spares) */
  bool     writer_closed;          /* the writer called tw_sensor_free() */
  bool     tsc_clock;              /* timestamps come from the TSC mapped to CLOCK_MONOTONIC */
  uint64_t created_monotonic_ns;   /* when the writer created the sensor, CLOCK_MONOTONIC */
  uint64_t created_realtime_ns;    /* the same moment in CLOCK_REALTIME (wall clock) */
  TwSensorParams params;
} TwSensorInfo;

enum {
  TW_SENSOR_READ_EMPTY        = 0,   /* nothing new yet */
  TW_SENSOR_READ_ELEMENT      = 1,   /* prepare: an element was copied / commit: it is valid */
  TW_SENSOR_READ_INCONSISTENT = 2,   /* commit: overwritten while read; never deliver it */
};

TW_SENSOR_API TwSensorReader       *tw_sensor_reader_open        (const char *path,
                                                                   char       *error,
                                                                   size_t      error_size);
TW_SENSOR_API void                  tw_sensor_reader_free        (TwSensorReader *reader);
TW_SENSOR_API const char           *tw_sensor_reader_get_error   (const TwSensorReader *reader);
TW_SENSOR_API const TwSensorSchema *tw_sensor_reader_get_schema  (const TwSensorReader *reader);
TW_SENSOR_API int                   tw_sensor_reader_get_info    (TwSensorReader *reader,
                                                                   TwSensorInfo   *info);
TW_SENSOR_API TwSensorReaderCounts  tw_sensor_reader_get_counts  (const TwSensorReader *reader);
TW_SENSOR_API int                   tw_sensor_reader_get_committed (TwSensorReader *reader,
                                                                     uint64_t       *committed);
TW_SENSOR_API int                   tw_sensor_reader_seek_start  (TwSensorReader *reader);
TW_SENSOR_API int                   tw_sensor_reader_seek_end    (TwSensorReader *reader);
TW_SENSOR_API int                   tw_sensor_reader_prepare     (TwSensorReader  *reader,
                                                                   TwSensorElement *element);
TW_SENSOR_API int                   tw_sensor_reader_commit      (TwSensorReader *reader);
TW_SENSOR_API int                   tw_sensor_reader_next        (TwSensorReader  *reader,
                                                                   TwSensorElement *element);
TW_SENSOR_API int                   tw_sensor_reader_read_batch  (TwSensorReader *reader,
                                                                   void           *buffer,
                                                                   size_t          max_elements,
                                                                   uint64_t       *first_position);
TW_SENSOR_API bool                  tw_sensor_reader_writer_alive (TwSensorReader *reader);
TW_SENSOR_API bool                  tw_sensor_reader_file_replaced (TwSensorReader *reader);

TW_END_DECLS
