/* tw-lttng-live-protocol-private.h: what the LTTng live helper sends its parent
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The helper (`tracewb-reader --lttng-live URL`, tw-lttng-live-child.c) writes frames on
 * fd 3, native byte order (both ends run on one machine): a header, then @size bytes.
 * Rows travel many to a frame, written when 64 KiB gathered or the stream went quiet,
 * never one by one. Every frame that rows refer to (their type, task, the strings of
 * their payloads) comes before them; ids are the helper's own, the parent maps them.
 *
 *   STRING   u32 id, u8 TwTaskState the reader gave it (a prev_state spelling; 0: none),
 *            the bytes, NUL (a NUL inside cuts the string there). An id with TW_LTTNG_STRING_SLOT set names a slot of a
 *            ring (tw-lttng-string-slots-private.h), not a string of the helper's trace:
 *            the slot holds these bytes until a later STRING frame names it again. A
 *            payload string slot is named again at least TW_LTTNG_STRING_SLOTS −
 *            TW_LTTNG_STRING_SLOTS_REACH frames after the last row that used it went
 *            (the helper ships its rows before it has given out more than
 *            TW_LTTNG_STRING_SLOTS_PER_BATCH new slots)
 *   TYPE     u16 id, u16 kind, u16 n_fields, name NUL, family NUL (empty: none),
 *            then per field: u8 type, u8 flags, name NUL
 *   TASK     u32 id, i64 pid, i64 tid, u32 flags, u8 has_name, source_id NUL, name NUL
 *   ROWS     rows of: u64 time, u16 cpu, u16 type, u32 task, u32 arg, u16 size, payload
 *   HORIZON  i64 ns: no row earlier than this will follow
 *   STATE    u32 TwLttngLiveState
 *   SESSION  u64 timer_us, u64 streams, u64 clients, url NUL, host NUL, name NUL
 *   SENSOR   a sensor a target's monitor reports (tw-lttng-sensor-decoder.c), sent when
 *            its counts or losses changed: u32 monitor, u32 sensor, i64 pid,
 *            u8 have_counts, u8 big_endian, u64 received, missed, inconsistent,
 *            nonmonotonic (the monitor's), u64 decoded, lost, duplicates, restarts,
 *            counts events so far, f64 rate, f64 × 5 the declared stream (T, D, τ,
 *            T_M, d in ns, all 0: none), task NUL, sensor name NUL, schema NUL
 *   ARRIVALS elements of sensors that declared a stream, for its check, as decoded (a
 *            duplicate is not), after the SENSOR frame that names their sensor:
 *            u32 monitor, u32 sensor, u64 position, u64 time, each
 *   END      text: the session ended (`--lttng-sessions`: the list is complete)
 *   ERROR    text: why the helper gives up; it exits 1 right after
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  TW_LTTNG_FRAME_STRING = 1,
  TW_LTTNG_FRAME_TYPE,
  TW_LTTNG_FRAME_TASK,
  TW_LTTNG_FRAME_ROWS,
  TW_LTTNG_FRAME_HORIZON,
  TW_LTTNG_FRAME_STATE,
  TW_LTTNG_FRAME_SESSION,
  TW_LTTNG_FRAME_END,
  TW_LTTNG_FRAME_ERROR,
  TW_LTTNG_FRAME_SENSOR,
  TW_LTTNG_FRAME_ARRIVALS,
} TwLttngFrameKind;

typedef enum {
  TW_LTTNG_LIVE_STATE_CONNECTED = 1,   /* the graph runs: attached to the session */
} TwLttngLiveState;

typedef struct {
  guint32 kind;
  guint32 size;
} TwLttngFrameHeader;

#define TW_LTTNG_SENSOR_HEAD (4 + 4 + 8 + 1 + 1 + 9 * 8 + 8 + 5 * 8)
#define TW_LTTNG_ARRIVAL     (4 + 4 + 8 + 8)
#define TW_LTTNG_ROW_HEAD   (8 + 2 + 2 + 4 + 4 + 2)
#define TW_LTTNG_DATA_FD    3
#define TW_LTTNG_MAX_FRAME  (16u << 20)

#define TW_LTTNG_STRING_SLOT            (1u << 31)
#define TW_LTTNG_STRING_SLOTS           (1u << 16)
#define TW_LTTNG_STRING_SLOTS_CACHED    (1u << 12)
#define TW_LTTNG_STRING_SLOTS_PER_BATCH (1u << 14)
/* how far back in slots given out a row's string can be: a cached one, the batch's new
 * ones, and one row's strings (4 bytes each in a payload of at most 64 KiB) */
#define TW_LTTNG_STRING_SLOTS_REACH \
  (TW_LTTNG_STRING_SLOTS_CACHED + TW_LTTNG_STRING_SLOTS_PER_BATCH + G_MAXUINT16 / 4)
G_STATIC_ASSERT (TW_LTTNG_STRING_SLOTS_REACH < TW_LTTNG_STRING_SLOTS);

G_END_DECLS
