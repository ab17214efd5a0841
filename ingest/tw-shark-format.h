/* tw-shark-format.h: the S.Ha.R.K. tracer ("FTrace") record layout and event codes
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/*
 * One record is 16 bytes (S.Ha.R.K. User Manual vol. V, "Tracer output"):
 *
 *   offset 0  u16  code   (low byte = event code; bit 15 = "fast ipoint", par2 not written)
 *   offset 2  u16  par1
 *   offset 4  u32  TSC high 32 bits
 *   offset 8  u32  TSC low 32 bits
 *   offset 12 u32  par2
 *
 * Native x86 little-endian; see docs/shark-format.md for big-endian files.
 */
#define TW_SHARK_RECORD_SIZE   16
#define TW_SHARK_CODE_MASK     0x00ffu
#define TW_SHARK_FAST_FLAG     0x8000u

typedef struct {
  guint8 bytes[TW_SHARK_RECORD_SIZE];
} TwSharkRecord;

G_STATIC_ASSERT (sizeof (TwSharkRecord) == 16);

/* Event codes of the manual's tables (names without FTrace_EVT_). */
enum {
  TW_SHARK_EMPTY               = 0x00,
  TW_SHARK_CYCLES_PER_MSEC     = 0x10,
  TW_SHARK_TRACE_START         = 0x20,
  TW_SHARK_TRACE_STOP          = 0x30,
  TW_SHARK_ID                  = 0x60,
  TW_SHARK_IPOINT              = 0x01,
  TW_SHARK_TASK_CREATE         = 0x02,
  TW_SHARK_TASK_ACTIVATE       = 0x12,
  TW_SHARK_TASK_END            = 0x42,
  TW_SHARK_TASK_END_CYCLE      = 0x62,
  TW_SHARK_TASK_SCHEDULE       = 0x82,
  TW_SHARK_TASK_TIMER          = 0x92,
  TW_SHARK_TASK_DEADLINE_MISS  = 0xB2,
  TW_SHARK_TASK_WCET_VIOLATION = 0xC2,
  TW_SHARK_INTERRUPT_START     = 0x03,
  TW_SHARK_INTERRUPT_END       = 0x13,
  TW_SHARK_CONTEXT_SWITCH      = 0x15,
  TW_SHARK_INHERITANCE         = 0x25,
  TW_SHARK_SET_MUTEX_LOCK      = 0x16,
  TW_SHARK_SET_MUTEX_UNLOCK    = 0x36, /* the code; the manual's table says 0x43 */
  TW_SHARK_SET_MUTEX_UNLOCK_DOC = 0x43,
  TW_SHARK_SET_MUTEX_WAIT      = 0x46,
  TW_SHARK_SET_MUTEX_POST      = 0x56,
  TW_SHARK_USER_EVENT_0        = 0x09, /* user_event_N = 0x09 + 0x10 * N */
  TW_SHARK_TIMER_POST          = 0x0B,
  TW_SHARK_TIMER_DELETE        = 0x1B,
  TW_SHARK_TIMER_WAKEUP_START  = 0x2B,
  TW_SHARK_TIMER_WAKEUP_END    = 0x3B,
  TW_SHARK_NEXT_CHUNK          = 0xFF,
};

/* What a code means, from the manual's tables. @name is NULL for codes no table lists
 * (the reader names those "code_0xNN"). */
typedef struct {
  const char *name;
  const char *family;
  const char *par1;   /* field name of par1 */
  const char *par2;   /* field name of par2 */
} TwSharkCodeInfo;

const TwSharkCodeInfo *tw_shark_code_info (guint8 code);

/* The record in both byte orders: a file is one or the other (docs/shark-format.md). */
static inline guint16
tw_shark_load16 (const guint8 *p, gboolean big_endian)
{
  guint16 v;

  memcpy (&v, p, 2);
  return big_endian ? GUINT16_FROM_BE (v) : GUINT16_FROM_LE (v);
}

static inline guint32
tw_shark_load32 (const guint8 *p, gboolean big_endian)
{
  guint32 v;

  memcpy (&v, p, 4);
  return big_endian ? GUINT32_FROM_BE (v) : GUINT32_FROM_LE (v);
}

/* The TSC is high word then low word, each in the file's byte order: one 64-bit load,
 * whose halves come out swapped in little-endian (a rotate), in order in big-endian. */
static inline guint64
tw_shark_record_tsc (const guint8 *p, gboolean big_endian)
{
  guint64 v;

  memcpy (&v, p + 4, 8);
  if (big_endian)
    return GUINT64_FROM_BE (v);
  v = GUINT64_FROM_LE (v);
  return (v << 32) | (v >> 32);
}

/* Writes one little-endian record, as an x86 S.Ha.R.K. kernel does. */
static inline void
tw_shark_record_write_le (guint8  *p,
                          guint16  code,
                          guint16  par1,
                          guint64  tsc,
                          guint32  par2)
{
  guint16 c = GUINT16_TO_LE (code);
  guint16 a = GUINT16_TO_LE (par1);
  guint32 hi = GUINT32_TO_LE ((guint32) (tsc >> 32));
  guint32 lo = GUINT32_TO_LE ((guint32) tsc);
  guint32 b = GUINT32_TO_LE (par2);

  memcpy (p, &c, 2);
  memcpy (p + 2, &a, 2);
  memcpy (p + 4, &hi, 4);
  memcpy (p + 8, &lo, 4);
  memcpy (p + 12, &b, 4);
}

G_END_DECLS
