/* tw-shark-reader.c: reader of S.Ha.R.K. tracer binary dumps
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-shark-reader.h"
#include "tw-shark-format.h"
#include "tw-shark-reader-private.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

/*
 * docs/shark-format.md is the user-facing description of everything decided here: names,
 * families, fields, canonical kinds, task attribution, time, byte order, control records.
 *
 * The hot loop reads one 16-byte record, looks its code up in a 256-entry table (type
 * index, action, user number), converts the TSC with a precomputed reciprocal, finds the
 * task through a 65536-entry context → task array, and pushes one row. Payloads (par1,
 * par2, prev_state) are deduplicated per chunk through a small direct-mapped cache, so
 * the thousands of identical "timer_post 0 0" rows share one copy in the blob.
 */

/* ---------------------------------------------------------------- the code table */

#define F_GENERAL     "general"
#define F_LIGHTWEIGHT "lightweight"
#define F_TASK        "task"
#define F_INTERRUPT   "interrupt"
#define F_CPU         "cpu"
#define F_PRIORITY    "priority"
#define F_MUTEX       "mutex"
#define F_SIGNAL      "signal"
#define F_SERVER      "server"
#define F_USER        "user"
#define F_DATA        "data"
#define F_TIMER       "timer"
#define F_FILTER      "filter"

#define USER(n) [0x09 + 0x10 * n] = { "user_event_" #n, F_USER, "par1", "par2" }

static const TwSharkCodeInfo code_table[256] = {
  [0x00] = { "empty", F_GENERAL, "par1", "par2" },
  [0x10] = { "cycles_per_msec", F_GENERAL, "par1", "clk_per_msec" },
  [0x20] = { "trace_start", F_GENERAL, "par1", "clk_per_msec" },
  [0x30] = { "trace_stop", F_GENERAL, "par1", "par2" },
  [0x40] = { "blackout_start", F_GENERAL, "par1", "par2" },
  [0x50] = { "blackout_end", F_GENERAL, "par1", "par2" },
  [0x60] = { "id", F_GENERAL, "context", "pid" },
  [0x70] = { "numevents", F_GENERAL, "par1", "par2" },

  [0x01] = { "ipoint", F_LIGHTWEIGHT, "number", "par2" },

  [0x02] = { "task_create", F_TASK, "context", "pid" },
  [0x12] = { "task_activate", F_TASK, "context", "par2" },
  [0x22] = { "task_dispatch", F_TASK, "par1", "par2" },
  [0x32] = { "task_epilogue", F_TASK, "par1", "par2" },
  [0x42] = { "task_end", F_TASK, "context", "pid" },
  [0x52] = { "task_begin_cycle", F_TASK, "par1", "par2" },
  [0x62] = { "task_end_cycle", F_TASK, "context", "level" },
  [0x72] = { "task_sleep", F_TASK, "par1", "par2" },
  [0x82] = { "task_schedule", F_TASK, "exec_shadow", "exec" },
  [0x92] = { "task_timer", F_TASK, "context", "level" },
  [0xA2] = { "task_disable", F_TASK, "par1", "par2" },
  [0xB2] = { "task_deadline_miss", F_TASK, "context", "par2" },
  [0xC2] = { "task_wcet_violation", F_TASK, "context", "par2" },

  [0x03] = { "interrupt_start", F_INTERRUPT, "irq", "par2" },
  [0x13] = { "interrupt_end", F_INTERRUPT, "irq", "par2" },
  [0x23] = { "interrupt_hit", F_INTERRUPT, "par1", "par2" },
  [0x33] = { "interrupt_count", F_INTERRUPT, "par1", "par2" },

  [0x04] = { "to_real_mode", F_CPU, "par1", "par2" },
  [0x14] = { "to_protected_mode", F_CPU, "par1", "par2" },
  [0x24] = { "CLI", F_CPU, "par1", "par2" },
  [0x34] = { "STI", F_CPU, "par1", "par2" },

  [0x05] = { "set_priority", F_PRIORITY, "par1", "par2" },
  [0x15] = { "context_switch", F_PRIORITY, "context", "par2" },
  [0x25] = { "inheritance", F_PRIORITY, "exec_shadow", "exec" },

  [0x06] = { "set_mutex_create", F_MUTEX, "par1", "par2" },
  [0x16] = { "set_mutex_lock", F_MUTEX, "context", "mutex" },
  [0x26] = { "set_mutex_inherit", F_MUTEX, "par1", "par2" },
  [0x36] = { "set_mutex_unlock", F_MUTEX, "context", "mutex" },
  [0x43] = { "set_mutex_unlock", F_MUTEX, "context", "mutex" },
  [0x46] = { "set_mutex_wait", F_MUTEX, "context", "mutex" },
  [0x56] = { "set_mutex_post", F_MUTEX, "context", "mutex" },

  [0x07] = { "signal", F_SIGNAL, "par1", "par2" },

  [0x08] = { "server_create", F_SERVER, "par1", "server" },
  [0x18] = { "server_replenish", F_SERVER, "par1", "server" },
  [0x28] = { "server_exhaust", F_SERVER, "par1", "server" },
  [0x38] = { "server_reclaiming", F_SERVER, "par1", "server" },
  [0x48] = { "server_remove", F_SERVER, "par1", "server" },
  [0x58] = { "server_active", F_SERVER, "par1", "server" },
  [0x68] = { "server_using_rec", F_SERVER, "reclaiming", "server" },

  USER (0), USER (1), USER (2), USER (3), USER (4), USER (5), USER (6), USER (7),
  USER (8), USER (9), USER (10), USER (11), USER (12), USER (13), USER (14),

  [0x1A] = { "data_pointer", F_DATA, "par1", "par2" },

  [0x0B] = { "timer_post", F_TIMER, "par1", "par2" },
  [0x1B] = { "timer_delete", F_TIMER, "par1", "par2" },
  [0x2B] = { "timer_wakeup_start", F_TIMER, "par1", "par2" },
  [0x3B] = { "timer_wakeup_end", F_TIMER, "context", "par2" },

  [0xF0] = { "filter_trace_Events", F_FILTER, "status", "par2" },
  [0xF1] = { "filter_ipoint", F_FILTER, "status", "par2" },
  [0xF2] = { "filter_task", F_FILTER, "status", "par2" },
  [0xF3] = { "filter_interrupt", F_FILTER, "status", "par2" },
  [0xF4] = { "filter_CPU", F_FILTER, "status", "par2" },
  [0xF5] = { "filter_priority", F_FILTER, "status", "par2" },
  [0xF6] = { "filter_mutex", F_FILTER, "status", "par2" },
  [0xF7] = { "filter_signal", F_FILTER, "status", "par2" },
  [0xF8] = { "filter_server", F_FILTER, "status", "par2" },
  [0xF9] = { "filter_user", F_FILTER, "status", "par2" },
  [0xFA] = { "filter_data", F_FILTER, "status", "par2" },
  [0xFB] = { "filter_timer", F_FILTER, "status", "par2" },

  [0xFF] = { "next_chunk", F_DATA, "par1", "par2" },
};

#undef USER

/**
 * tw_shark_code_info:
 *
 * Returns: (transfer none): the manual's name, family and parameter names of @code;
 *   name %NULL for a code no table lists
 */
const TwSharkCodeInfo *
tw_shark_code_info (guint8 code)
{
  return &code_table[code];
}

/* What the hot loop does with a record of a code. */
typedef enum {
  ACT_RUNNING = 0,   /* task = running task, arg 0 */
  ACT_CONTROL,       /* empty, next_chunk: not stored */
  ACT_CTX,           /* task = par1's task, arg 0 */
  ACT_ID,            /* ACT_CTX + par2 is the pid */
  ACT_CREATE,        /* task = running, arg = par1's task, par2 is the pid */
  ACT_ACTIVATE,      /* task = running (waker), arg = par1's task */
  ACT_EXIT,          /* task = arg = par1's task; it is dead */
  ACT_END_CYCLE,     /* ACT_CTX; the task sleeps until its next activation */
  ACT_SCHEDULE,      /* ACT_CTX; par1 (exec_shadow) runs from now on */
  ACT_SWITCH,        /* task = switched-out task, arg = par1's task, prev_state */
  ACT_IRQ,           /* task = running, arg = par1 (irq) */
  ACT_TIMER_START,   /* task = running, arg = 0 (the timer "irq") */
  ACT_TIMER_END,     /* task = par1's task, arg = 0 */
  ACT_USER,          /* task = running, arg = user event number */
  ACT_IPOINT,        /* task = running, arg = par1 */
  ACT_MUTEX,         /* task = par1's task, arg = par2 */
  ACT_MUTEX_WAIT,    /* ACT_MUTEX; the task blocks */
} Action;

static Action
code_action (guint8 code)
{
  if ((code & 0x0f) == 0x09 && code != 0xF9)
    return ACT_USER;

  switch (code)
    {
    case TW_SHARK_EMPTY:
    case TW_SHARK_NEXT_CHUNK:          return ACT_CONTROL;
    case TW_SHARK_ID:                  return ACT_ID;
    case TW_SHARK_IPOINT:              return ACT_IPOINT;
    case TW_SHARK_TASK_CREATE:         return ACT_CREATE;
    case TW_SHARK_TASK_ACTIVATE:       return ACT_ACTIVATE;
    case TW_SHARK_TASK_END:            return ACT_EXIT;
    case TW_SHARK_TASK_END_CYCLE:      return ACT_END_CYCLE;
    case TW_SHARK_TASK_SCHEDULE:       return ACT_SCHEDULE;
    case TW_SHARK_TASK_TIMER:
    case TW_SHARK_TASK_DEADLINE_MISS:
    case TW_SHARK_TASK_WCET_VIOLATION:
    case TW_SHARK_INHERITANCE:         return ACT_CTX;
    case TW_SHARK_CONTEXT_SWITCH:      return ACT_SWITCH;
    case TW_SHARK_INTERRUPT_START:
    case TW_SHARK_INTERRUPT_END:       return ACT_IRQ;
    case TW_SHARK_TIMER_WAKEUP_START:  return ACT_TIMER_START;
    case TW_SHARK_TIMER_WAKEUP_END:    return ACT_TIMER_END;
    case TW_SHARK_SET_MUTEX_LOCK:
    case TW_SHARK_SET_MUTEX_UNLOCK:
    case TW_SHARK_SET_MUTEX_UNLOCK_DOC:
    case TW_SHARK_SET_MUTEX_POST:      return ACT_MUTEX;
    case TW_SHARK_SET_MUTEX_WAIT:      return ACT_MUTEX_WAIT;
    default:                           return ACT_RUNNING;
    }
}

static TwEventKind
action_kind (Action   action,
             guint8   code)
{
  switch (action)
    {
    case ACT_SWITCH:      return TW_EVENT_KIND_SWITCH;
    case ACT_ACTIVATE:    return TW_EVENT_KIND_WAKEUP;
    case ACT_CREATE:      return TW_EVENT_KIND_TASK_CREATE;
    case ACT_EXIT:        return TW_EVENT_KIND_TASK_EXIT;
    case ACT_IRQ:
    case ACT_TIMER_START:
    case ACT_TIMER_END:
      return (code == TW_SHARK_INTERRUPT_START || code == TW_SHARK_TIMER_WAKEUP_START)
             ? TW_EVENT_KIND_IRQ_ENTRY : TW_EVENT_KIND_IRQ_EXIT;
    case ACT_USER:
    case ACT_IPOINT:      return TW_EVENT_KIND_USER;
    case ACT_MUTEX_WAIT:  return TW_EVENT_KIND_MUTEX_WAIT;
    case ACT_MUTEX:
      return code == TW_SHARK_SET_MUTEX_LOCK ? TW_EVENT_KIND_MUTEX_LOCK
                                             : TW_EVENT_KIND_MUTEX_UNLOCK;
    case ACT_RUNNING:
    case ACT_CONTROL:
    case ACT_CTX:
    case ACT_ID:
    case ACT_END_CYCLE:
    case ACT_SCHEDULE:
    default:              return TW_EVENT_KIND_OTHER;
    }
}

/* ---------------------------------------------------------------- time */

/*
 * ns = floor ((tsc - origin) * 1e6 / cycles_per_msec), exactly, without a 64-bit
 * division per event. With D = cycles_per_msec, j = floor (log2 D), k = 63 + j and
 * m = ceil (2^k / D) (m < 2^64), floor (x * m / 2^k) = floor (x / D) for every x < 2^62
 * (the error term x·(m·D − 2^k)/(D·2^k) stays below 1/D). So with d = a·D + b:
 * a = d / D by the reciprocal, b = d − a·D, ns = a·1e6 + (b·1e6) / D by the reciprocal
 * again (b·1e6 < 2^52); a delta with d·1e6 < 2^62 (77 min at 1 GHz) takes the
 * reciprocal once, on d·1e6. Deltas past 2^62 ticks, or results near 2^64 ns, take a
 * 128-bit division in a branch no real trace reaches.
 */
typedef struct {
  guint64 divisor;   /* cycles per ms; 0 = no rate, 1 tick = 1 ns */
  guint64 magic;
  guint   shift;     /* k − 64 */
  gboolean fast;     /* the reciprocal path applies (divisor ≥ 2, so k ≥ 64) */
  guint64 one_step_limit;  /* deltas below it take one reciprocal division; 0 when !fast */
} TscConverter;

#define NS_PER_MS     G_GUINT64_CONSTANT (1000000)
#define FAST_D_LIMIT  (G_GUINT64_CONSTANT (1) << 62)
#define FAST_A_LIMIT  ((G_MAXUINT64 - NS_PER_MS) / NS_PER_MS)
#define FAST_NS_D_LIMIT (FAST_D_LIMIT / NS_PER_MS)

static void
tsc_converter_init (TscConverter *conv,
                    guint64       cycles_per_msec)
{
  conv->divisor = cycles_per_msec;
  conv->magic = 0;
  conv->shift = 0;
  conv->fast = cycles_per_msec >= 2;
  conv->one_step_limit = conv->fast ? FAST_NS_D_LIMIT : 0;
  if (conv->fast)
    {
      guint j = 63 - __builtin_clzll (cycles_per_msec);
      unsigned __int128 pow = (unsigned __int128) 1 << (63 + j);

      conv->shift = 63 + j - 64;
      conv->magic = (guint64) ((pow + cycles_per_msec - 1) / cycles_per_msec);
    }
}

/* floor (x / divisor) for x < 2^62: the high half of the product, shifted. */
static inline guint64
tsc_div (const TscConverter *conv,
         guint64             x)
{
  return (guint64) (((unsigned __int128) x * conv->magic) >> 64) >> conv->shift;
}

/* Returns FALSE when the result does not fit a time (≥ TW_TIME_NONE). */
static gboolean
tsc_to_ns_slow (const TscConverter *conv,
                guint64             delta,
                guint64            *ns)
{
  unsigned __int128 v;

  if (conv->divisor == 0)
    v = delta;
  else
    v = (unsigned __int128) delta * NS_PER_MS / conv->divisor;
  if (v >= TW_TIME_NONE)
    return FALSE;
  *ns = (guint64) v;
  return TRUE;
}

static inline gboolean
tsc_to_ns (const TscConverter *conv,
           guint64             delta,
           guint64            *ns)
{
  if G_UNLIKELY (!conv->fast)
    return tsc_to_ns_slow (conv, delta, ns);
  /* delta · 1e6 < 2^62 itself (77 min at 1 GHz): one reciprocal division. */
  if G_LIKELY (delta < conv->one_step_limit)
    {
      *ns = tsc_div (conv, delta * NS_PER_MS);
      return TRUE;
    }
  if G_LIKELY (delta < FAST_D_LIMIT)
    {
      guint64 a = tsc_div (conv, delta);

      if G_LIKELY (a <= FAST_A_LIMIT)
        {
          guint64 b = delta - a * conv->divisor;

          *ns = a * NS_PER_MS + tsc_div (conv, b * NS_PER_MS);
          return TRUE;
        }
    }
  return tsc_to_ns_slow (conv, delta, ns);
}

/* ---------------------------------------------------------------- byte order, probing */

static gboolean
is_known_code (guint16 raw)
{
  guint8 code = raw & TW_SHARK_CODE_MASK;

  return code != TW_SHARK_EMPTY && code_table[code].name != NULL;
}

/* Plausibility of the first records in one byte order: known codes plus non-decreasing
 * TSC steps between them, out of 2 per record. */
static guint
score_byte_order (const guint8 *data,
                  gsize         n_records,
                  gboolean      big_endian)
{
  guint64 prev_tsc = 0;
  gboolean have_prev = FALSE;
  guint score = 0;

  for (gsize i = 0; i < n_records; i++)
    {
      const guint8 *p = data + i * TW_SHARK_RECORD_SIZE;
      guint16 raw = tw_shark_load16 (p, big_endian);
      guint64 tsc = tw_shark_record_tsc (p, big_endian);

      if ((raw & TW_SHARK_CODE_MASK) == TW_SHARK_EMPTY && tsc == 0)
        continue; /* an empty slot says nothing about byte order */
      if (is_known_code (raw))
        score++;
      if (!have_prev || tsc >= prev_tsc)
        score++;
      prev_tsc = tsc;
      have_prev = TRUE;
    }
  return score;
}

#define SNIFF_RECORDS 64

/**
 * tw_shark_detect_big_endian:
 *
 * Decides a file's byte order from its first records: the order in which more of them
 * are known codes with a non-decreasing TSC wins; a tie is little-endian (x86, the only
 * S.Ha.R.K. target).
 *
 * Returns: %TRUE for big-endian
 */
gboolean
tw_shark_detect_big_endian (const guint8 *data,
                            gsize         n_records)
{
  n_records = MIN (n_records, SNIFF_RECORDS);
  return score_byte_order (data, n_records, TRUE) > score_byte_order (data, n_records, FALSE);
}

static const guint8 trace_dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/**
 * tw_shark_probe_buffer:
 * @file_size: the whole file's size
 *
 * Returns: confidence 0–100 that @head starts a S.Ha.R.K. dump
 */
guint
tw_shark_probe_buffer (const guint8 *head,
                       gsize         head_len,
                       guint64       file_size)
{
  gsize n_records = MIN (head_len / TW_SHARK_RECORD_SIZE, SNIFF_RECORDS);
  gsize text = 0;
  gboolean big;
  guint score;
  guint max_score;
  guint confidence;

  if (n_records == 0)
    return 0;
  if (head_len >= sizeof trace_dat_magic && memcmp (head, trace_dat_magic, sizeof trace_dat_magic) == 0)
    return 0;

  /* Text (CSV, ftrace) is printable; a dump has zero bytes in almost every record. */
  for (gsize i = 0; i < n_records * TW_SHARK_RECORD_SIZE; i++)
    if ((head[i] >= 0x20 && head[i] < 0x7f) || head[i] == '\n' || head[i] == '\r' || head[i] == '\t')
      text++;
  if (text * 10 >= n_records * TW_SHARK_RECORD_SIZE * 9)
    return 0;

  big = tw_shark_detect_big_endian (head, n_records);
  score = score_byte_order (head, n_records, big);
  max_score = 2 * n_records;

  if (score * 10 < max_score * 8)
    return 0;
  confidence = score == max_score ? 90 : 60;
  if (n_records < 4)
    confidence /= 2;
  /* A dump cut inside a record is still a dump: claim it weakly, so that reading it
   * reports the truncation instead of "unknown format". */
  if (file_size % TW_SHARK_RECORD_SIZE != 0)
    confidence = 10;
  return confidence;
}

/* ---------------------------------------------------------------- parsing */

typedef struct {
  guint16 type;     /* trace type index, TW_TYPE_NONE until first seen */
  guint8  action;   /* Action */
  guint8  user;     /* user event number for ACT_USER */
} CodeSlot;

/* Payload layout of every type: presence bits, par1 u16, par2 u32 (absent for a fast
 * ipoint), and for context_switch prev_state (string id). */
#define PAYLOAD_PAR1_OFFSET       1
#define PAYLOAD_PAR2_OFFSET       3
#define PAYLOAD_STATE_OFFSET      7
#define PAYLOAD_SIZE              7
#define PAYLOAD_SWITCH_SIZE       11

#define DEDUP_BITS                10
#define DEDUP_SIZE                (1u << DEDUP_BITS)
#define DEDUP_EMPTY               G_MAXUINT64

typedef struct {
  guint64 key;
  guint32 offset;
} DedupEntry;

enum { STATE_R = 0, STATE_S, STATE_X, N_STATES };

/* One past the last context: its ctx_task entry stays TW_TASK_NONE, so "no running task"
 * needs no branch. */
#define NO_CTX 65536

typedef struct {
  const char     *path;
  TwTrace        *trace;
  gboolean        big_endian;
  TscConverter    conv;
  guint64         origin;

  CodeSlot        slots[256];
  guint32        *ctx_task;        /* context → task index + 1; 0 = none yet (so that a
                                    * zeroed array needs no initialising pass) */
  guint8         *ctx_state;       /* 65536 entries: what the task did since dispatch */
  guint32         state_str[N_STATES];
  guint32         running_ctx;     /* NO_CTX = none; from context_switch and task_schedule */
  guint32         switched_ctx;    /* NO_CTX = none; from context_switch only */

  TwEventChunk   *chunk;
  DedupEntry     *dedup;

  guint64         first_row;       /* index of our first row in the trace */
  guint64         n_control;
  guint64         n_fast;
  guint64         min_tsc;
  gboolean        before_origin;   /* a TSC below the origin: times need a fix-up pass */
} Parser;

static guint32
ctx_task_slow (Parser  *parser,
               guint16  ctx)
{
  char id[8];

  g_snprintf (id, sizeof id, "%u", ctx);
  parser->ctx_task[ctx] = tw_trace_add_task (parser->trace, id, NULL, -1, -1) + 1;
  return parser->ctx_task[ctx] - 1;
}

static inline guint32
ctx_task (Parser  *parser,
          guint16  ctx)
{
  guint32 task = parser->ctx_task[ctx] - 1; /* 0 − 1 = TW_TASK_NONE */

  if G_UNLIKELY (task == TW_TASK_NONE)
    task = ctx_task_slow (parser, ctx);
  return task;
}

/* The running context's task exists: it was made when the context started running. */
static inline guint32
running_task (Parser  *parser,
              guint32  running_ctx)
{
  return parser->ctx_task[running_ctx] - 1;
}

static gboolean
register_code (Parser   *parser,
               guint8    code,
               guint64   offset,
               GError  **error)
{
  const TwSharkCodeInfo *info = &code_table[code];
  CodeSlot *slot = &parser->slots[code];
  Action action = code_action (code);
  char unknown[16];
  const char *name = info->name;
  g_autoptr(GError) local_error = NULL;
  TwFieldSpec fields[3] = {
    { info->name ? info->par1 : "par1", TW_FIELD_U16, TW_FIELD_FLAG_NONE },
    { info->name ? info->par2 : "par2", TW_FIELD_U32, TW_FIELD_FLAG_OPTIONAL },
    { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  };
  guint16 type;

  /* Mutex ids are kernel pointers: shown in hex. */
  if (g_strcmp0 (fields[1].name, "mutex") == 0)
    fields[1].flags |= TW_FIELD_FLAG_HEX;
  if (name == NULL)
    {
      g_snprintf (unknown, sizeof unknown, "code_0x%02x", code);
      name = unknown;
    }

  type = tw_trace_add_event_type (parser->trace, name, info->name ? info->family : "unknown",
                                  action_kind (action, code), fields,
                                  action == ACT_SWITCH ? 3 : 2, &local_error);
  if (type == TW_TYPE_NONE)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, parser->path, offset,
                                     "%s", local_error->message);
      return FALSE;
    }

  slot->type = type;
  slot->action = action;
  slot->user = (code >> 4) & 0x0f;
  return TRUE;
}

static void
dedup_reset (Parser *parser)
{
  for (guint i = 0; i < DEDUP_SIZE; i++)
    parser->dedup[i].key = DEDUP_EMPTY;
}

/*
 * A payload is what the key says: par2 in bits 0–31 (0 when absent), par1 in 32–47,
 * "par2 absent" (fast ipoint) in bit 48, 1 + prev_state in 49–50 (0: no prev_state
 * field). Every type lays its payload out alike (PAYLOAD_*), so rows of different codes
 * share a payload when the key is the same; the code needs no place in it.
 */
#define KEY_FAST_BIT   G_GUINT64_CONSTANT (0x0001000000000000)
#define KEY_STATE_SHIFT 49

/* Returns the blob offset of the payload @key describes, sharing an identical earlier
 * one of the chunk. */
static inline guint32
set_payload (Parser  *parser,
             guint64  key)
{
  TwEventChunk *chunk = parser->chunk;
  /* Fibonacci hashing, with the high half (par1, flags) folded onto par2 first so that
   * both reach the slot's bits. Measured on 20 M simulated events: the chunk's blob is
   * 0.55 B/event against 0.52 for a perfect cache (0.67 without the fold; 1.00 with the
   * 29/47-bit fold used while the code was part of the key). */
  guint64 h = (key ^ (key >> 32)) * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  DedupEntry *entry = &parser->dedup[h >> (64 - DEDUP_BITS)];
  guint state_plus_one;
  guint32 par2;
  guint16 par1;
  guint size;
  guint8 *p;

  if G_LIKELY (entry->key == key)
    return entry->offset;

  state_plus_one = key >> KEY_STATE_SHIFT;
  par2 = (guint32) key;
  par1 = (guint16) (key >> 32);
  size = state_plus_one ? PAYLOAD_SWITCH_SIZE : PAYLOAD_SIZE;
  if G_UNLIKELY (chunk->blob_len + size > chunk->blob_cap)
    tw_event_chunk_reserve_blob (chunk, chunk->blob_len + size);
  p = chunk->blob + chunk->blob_len;
  p[0] = 0x01 | ((key & KEY_FAST_BIT) ? 0 : 0x02) | (state_plus_one ? 0x04 : 0);
  memcpy (p + PAYLOAD_PAR1_OFFSET, &par1, 2);
  memcpy (p + PAYLOAD_PAR2_OFFSET, &par2, 4);
  if (state_plus_one)
    memcpy (p + PAYLOAD_STATE_OFFSET, &parser->state_str[state_plus_one - 1], 4);

  entry->key = key;
  entry->offset = (guint32) chunk->blob_len;
  chunk->blob_len += size;
  return entry->offset;
}

static void
next_chunk (Parser *parser)
{
  parser->chunk = tw_trace_begin_append (parser->trace);
  dedup_reset (parser);
}

static gboolean
out_of_range (Parser   *parser,
              guint64   index,
              guint64   tsc,
              GError  **error)
{
  tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, parser->path,
                                 index * TW_SHARK_RECORD_SIZE,
                                 "timestamp out of range (TSC %" G_GUINT64_FORMAT
                                 " with origin %" G_GUINT64_FORMAT ")", tsc, parser->origin);
  return FALSE;
}

/*
 * The 32- and 64-bit columns are written with non-temporal (streaming) stores where the
 * CPU has them: a chunk's columns (6 MiB) are written once and not read again during
 * ingest, and ordinary stores would first read every line into the cache (read for
 * ownership) and push the read buffer and the hot tables out of it. Measured +4–5 % on
 * 20–50 M events; the 16-bit columns stay ordinary stores (no 16-bit streaming store;
 * pairing two rows into one 32-bit store measured no gain). Streaming stores are weakly
 * ordered: column_stores_done () fences them before the rows are published.
 */
#if defined(__x86_64__)
static inline void
column_store_u64 (guint8 *cell, guint64 value)
{
  _mm_stream_si64 ((long long *) (gpointer) cell, (long long) value);
}

static inline void
column_store_u32 (guint8 *cell, guint32 value)
{
  _mm_stream_si32 ((int *) (gpointer) cell, (int) value);
}

static inline void
column_stores_done (void)
{
  _mm_sfence ();
}
#else
static inline void
column_store_u64 (guint8 *cell, guint64 value)
{
  *(guint64 *) (gpointer) cell = value;
}

static inline void
column_store_u32 (guint8 *cell, guint32 value)
{
  *(guint32 *) (gpointer) cell = value;
}

static inline void
column_stores_done (void)
{
}
#endif

/* Copies the run's row state back into the chunk and the parser: before every return. */
#define RUN_WRITE_BACK()                                          \
  G_STMT_START {                                                  \
    column_stores_done ();                                        \
    if (row != chunk->n)                                          \
      {                                                           \
        chunk->n = row;                                           \
        chunk->unsorted = unsorted;                               \
        chunk->last_time = last_time;                             \
        if (chunk->max_cpu_plus_one == 0)                         \
          chunk->max_cpu_plus_one = 1;                            \
      }                                                           \
    parser->running_ctx = running_ctx;                            \
    parser->switched_ctx = switched_ctx;                          \
  } G_STMT_END

/*
 * Parses @n records at @data, the first being record @first_index of the file, into the
 * current chunk, which has room for @n rows (a record makes at most one). Knowing the
 * room up front lets the loop keep the row index, the time order and the running context
 * in registers and address every column from one base pointer, instead of reloading the
 * chunk's fields after each store through it. The byte order is a constant in each
 * instance.
 */
static inline __attribute__((always_inline)) gboolean
parse_run (Parser        *parser,
           const guint8  *data,
           gsize          n,
           guint64        first_index,
           gboolean       big_endian,
           GError       **error)
{
  const TscConverter conv = parser->conv;
  guint64 origin = parser->origin;
  TwEventChunk *chunk = parser->chunk;
  guint8 *base = (guint8 *) chunk->time;
  guint row = chunk->n;
  guint64 last_time = chunk->last_time;
  gboolean unsorted = chunk->unsorted;
  guint32 running_ctx = parser->running_ctx;
  guint32 switched_ctx = parser->switched_ctx;
  const guint8 *end = data + n * TW_SHARK_RECORD_SIZE;
#define RECORD_INDEX(p) (first_index + (guint64) ((p) - data) / TW_SHARK_RECORD_SIZE)

  for (const guint8 *p = data; p < end; p += TW_SHARK_RECORD_SIZE)
    {
      guint16 raw = tw_shark_load16 (p, big_endian);
      guint16 par1 = tw_shark_load16 (p + 2, big_endian);
      guint64 tsc = tw_shark_record_tsc (p, big_endian);
      guint32 par2 = tw_shark_load32 (p + 12, big_endian);
      guint32 par2_kept = par2;
      guint32 key_high = par1;   /* the payload key's bits 32–63 */
      guint8 code = raw & TW_SHARK_CODE_MASK;
      const CodeSlot *slot = &parser->slots[code];
      guint64 delta = tsc - origin;
      guint32 task;
      guint32 arg = 0;
      guint64 ns = 0;

      if G_UNLIKELY (slot->type == TW_TYPE_NONE)
        {
          if (code_action (code) == ACT_CONTROL)
            {
              parser->n_control++;
              continue;
            }
          if (!register_code (parser, code, RECORD_INDEX (p) * TW_SHARK_RECORD_SIZE, error))
            {
              RUN_WRITE_BACK ();
              return FALSE;
            }
        }

      /* One compare for the common case: a TSC below the origin wraps to a delta past
       * the limit, and the limit is 0 without a clock rate. */
      if G_LIKELY (delta < conv.one_step_limit)
        ns = tsc_div (&conv, delta * NS_PER_MS);
      else if (tsc >= origin)
        {
          if G_UNLIKELY (!tsc_to_ns (&conv, delta, &ns))
            {
              RUN_WRITE_BACK ();
              return out_of_range (parser, RECORD_INDEX (p), tsc, error);
            }
        }
      else
        {
          parser->before_origin = TRUE;
          parser->min_tsc = MIN (parser->min_tsc, tsc);
        }

      /* Fast ipoints are rare: their count and their absent par2 stay out of the common
       * path. */
      if G_UNLIKELY (raw & TW_SHARK_FAST_FLAG)
        {
          parser->n_fast++;
          par2_kept = 0;
          key_high |= KEY_FAST_BIT >> 32;
        }

      /* Records that take the running task and no argument (timer_post,
       * timer_wakeup_start and codes without a meaning of their own: a quarter of a
       * simulated trace) bypass the jump table. This conditional branch beside the
       * indirect jump measured +8 % at 50 M events (median 107.5 → 116.9 M events/s). */
      if (slot->action == ACT_RUNNING || slot->action == ACT_TIMER_START)
        task = running_task (parser, running_ctx);
      else
        switch ((Action) slot->action)
          {
          case ACT_CTX:
            task = ctx_task (parser, par1);
            break;
          case ACT_ID:
            task = ctx_task (parser, par1);
            if (!(raw & TW_SHARK_FAST_FLAG))
              tw_trace_set_task_ids (parser->trace, task, par2, par2);
            break;
          case ACT_CREATE:
            task = running_task (parser, running_ctx);
            arg = ctx_task (parser, par1);
            if (!(raw & TW_SHARK_FAST_FLAG))
              tw_trace_set_task_ids (parser->trace, arg, par2, par2);
            break;
          case ACT_ACTIVATE:
            task = running_task (parser, running_ctx);
            arg = ctx_task (parser, par1);
            break;
          case ACT_EXIT:
            task = arg = ctx_task (parser, par1);
            parser->ctx_state[par1] = STATE_X;
            break;
          case ACT_END_CYCLE:
            task = ctx_task (parser, par1);
            if (parser->ctx_state[par1] == STATE_R)
              parser->ctx_state[par1] = STATE_S;
            break;
          case ACT_SCHEDULE:
            task = ctx_task (parser, par1);
            running_ctx = par1;
            break;
          case ACT_SWITCH:
            task = parser->ctx_task[switched_ctx] - 1;
            key_high |= (guint32) (parser->ctx_state[switched_ctx] + 1) << (KEY_STATE_SHIFT - 32);
            arg = ctx_task (parser, par1);
            switched_ctx = running_ctx = par1;
            if (parser->ctx_state[par1] != STATE_X)
              parser->ctx_state[par1] = STATE_R;
            break;
          case ACT_IRQ:
          case ACT_IPOINT:
            task = running_task (parser, running_ctx);
            arg = par1;
            break;
          case ACT_TIMER_END:
            task = ctx_task (parser, par1);
            break;
          case ACT_USER:
            task = running_task (parser, running_ctx);
            arg = slot->user;
            break;
          case ACT_MUTEX_WAIT:
            if (parser->ctx_state[par1] == STATE_R)
              parser->ctx_state[par1] = STATE_S;
            G_GNUC_FALLTHROUGH;
          case ACT_MUTEX:
            task = ctx_task (parser, par1);
            arg = par2;
            break;
          case ACT_CONTROL:
          case ACT_TIMER_START:
          case ACT_RUNNING:
            task = running_task (parser, running_ctx);
            break;
          default:
            /* register_code () stores Actions only; saying so spares the jump table's
             * bounds check. */
            __builtin_unreachable ();
          }

      /* tw_event_chunk_push () with the chunk's fields in locals; CPU is always 0. */
      column_store_u64 (base + (gsize) row * 8, ns);
      column_store_u32 (base + TW_CHUNK_TASK_OFFSET + (gsize) row * 4, task);
      column_store_u32 (base + TW_CHUNK_ARG_OFFSET + (gsize) row * 4, arg);
      ((guint16 *) (base + TW_CHUNK_TYPE_OFFSET))[row] = slot->type;
      ((guint16 *) (base + TW_CHUNK_CPU_OFFSET))[row] = 0;
      unsorted |= ns < last_time;
      last_time = ns;

      column_store_u32 (base + TW_CHUNK_PAYLOAD_OFFSET + (gsize) row * 4,
                        set_payload (parser, ((guint64) key_high << 32) | par2_kept));
      row++;
    }
  RUN_WRITE_BACK ();
  return TRUE;
}

#undef RUN_WRITE_BACK
#undef RECORD_INDEX

/* Parses @n records at @data in runs that fit the current chunk; a new chunk starts only
 * for a row that needs it (trailing control records do not make an empty chunk). */
static inline __attribute__((always_inline)) gboolean
parse_range (Parser        *parser,
             const guint8  *data,
             gsize          n,
             guint64        first_index,
             gboolean       big_endian,
             GError       **error)
{
  gsize i = 0;

  while (i < n)
    {
      gsize room = TW_CHUNK_SIZE - parser->chunk->n;
      gsize count;

      if G_UNLIKELY (room == 0)
        {
          const guint8 *p = data + i * TW_SHARK_RECORD_SIZE;
          guint8 code = tw_shark_load16 (p, big_endian) & TW_SHARK_CODE_MASK;

          if (code_action (code) == ACT_CONTROL)
            {
              parser->n_control++;
              i++;
              continue;
            }
          next_chunk (parser);
          continue;
        }
      count = MIN (room, n - i);
      if (!parse_run (parser, data + i * TW_SHARK_RECORD_SIZE, count, first_index + i,
                      big_endian, error))
        return FALSE;
      i += count;
    }
  return TRUE;
}

static gboolean
parse_range_le (Parser *parser, const guint8 *data, gsize n, guint64 first_index, GError **error)
{
  return parse_range (parser, data, n, first_index, FALSE, error);
}

static gboolean
parse_range_be (Parser *parser, const guint8 *data, gsize n, guint64 first_index, GError **error)
{
  return parse_range (parser, data, n, first_index, TRUE, error);
}

/* Where the records come from: a buffer in memory, or a file read block by block into one
 * reused buffer. Reading beats mapping here: a mapping takes a page fault per 4 KiB of
 * file, and under some hypervisors a fault costs tens of µs, while read() copies from the
 * page cache at memory speed into pages that stay mapped (docs/shark-format.md). */
typedef struct {
  const guint8 *mem;
  int           fd;
  guint8       *buf;
  guint64       size;
  const char   *path;
} Source;

#define BLOCK_RECORDS   (16 * 1024)   /* 256 KiB: stays in the L2 cache between read and parse */
#define FIRST_RECORDS   (64 * 1024)   /* 1 MiB: where the clock rate is looked for */

static const guint8 *
source_get (Source   *src,
            guint64   first_record,
            gsize     n_records,
            GError  **error)
{
  guint64 offset = first_record * TW_SHARK_RECORD_SIZE;
  gsize want = n_records * TW_SHARK_RECORD_SIZE;
  gsize done = 0;

  if (src->mem != NULL)
    return src->mem + offset;

  while (done < want)
    {
      gssize n = pread (src->fd, src->buf + done, want - done, offset + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved = errno;

          /* the disk failed, not the data: keep the errno's I/O error for the caller */
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                       "%s: offset %" G_GUINT64_FORMAT ": %s", src->path, offset + done,
                       g_strerror (saved));
          return NULL;
        }
      if (n == 0)
        {
          tw_reader_set_error_at_offset (error, TW_READER_ERROR_TRUNCATED, src->path, offset + done,
                                         "the file got shorter while it was read");
          return NULL;
        }
      done += n;
    }
  return src->buf;
}

/* After a TSC below the origin (a wrapped cyclic chunk, or damage), the origin becomes
 * the smallest TSC and every row of ours gets its time again, in the same file order. */
static gboolean
fix_up_times (Parser  *parser,
              Source  *src,
              GError **error)
{
  guint64 n_records = src->size / TW_SHARK_RECORD_SIZE;
  guint64 row = parser->first_row;

  parser->origin = parser->min_tsc;
  tw_trace_begin_rewrite (parser->trace);
  for (guint64 block = 0; block < n_records; block += BLOCK_RECORDS)
    {
      gsize n = MIN (BLOCK_RECORDS, n_records - block);
      const guint8 *data = source_get (src, block, n, error);

      if (data == NULL)
        return FALSE;
      for (gsize i = 0; i < n; i++)
        {
          const guint8 *p = data + i * TW_SHARK_RECORD_SIZE;
          guint8 code = tw_shark_load16 (p, parser->big_endian) & TW_SHARK_CODE_MASK;
          guint64 tsc = tw_shark_record_tsc (p, parser->big_endian);
          TwEventChunk *chunk;
          guint64 ns;

          if (code_action (code) == ACT_CONTROL)
            continue;
          if (!tsc_to_ns (&parser->conv, tsc - parser->origin, &ns))
            return out_of_range (parser, block + i, tsc, error);
          chunk = (TwEventChunk *) tw_trace_get_chunk (parser->trace, row >> TW_CHUNK_SHIFT);
          chunk->time[row & TW_CHUNK_MASK] = ns;
          chunk->unsorted = TRUE;
          row++;
        }
    }
  return TRUE;
}

/* The clock rate: the first cycles_per_msec, or trace_start's par2 when non-zero. */
static guint64
find_cycles_per_msec (const guint8 *data,
                      gsize         n_records,
                      gboolean      big_endian)
{
  for (gsize i = 0; i < n_records; i++)
    {
      const guint8 *p = data + i * TW_SHARK_RECORD_SIZE;
      guint8 code = tw_shark_load16 (p, big_endian) & TW_SHARK_CODE_MASK;
      gboolean fast = (tw_shark_load16 (p, big_endian) & TW_SHARK_FAST_FLAG) != 0;
      guint32 par2 = tw_shark_load32 (p + 12, big_endian);

      if ((code == TW_SHARK_CYCLES_PER_MSEC || code == TW_SHARK_TRACE_START) && !fast && par2 != 0)
        return par2;
    }
  return 0;
}

static gboolean
parse_source (Source          *src,
              TwTrace         *trace,
              TwProgressFunc   progress,
              gpointer         progress_data,
              GCancellable    *cancellable,
              GError         **error)
{
  Parser parser = { 0 };
  g_autofree guint32 *ctx_task_array = NULL;
  g_autofree guint8 *ctx_state_array = NULL;
  g_autofree DedupEntry *dedup = NULL;
  guint64 n_records = src->size / TW_SHARK_RECORD_SIZE;
  const guint8 *first_block;
  gboolean origin_known = FALSE;
  guint64 cpm;
  char text[32];

  if (src->size == 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_INVALID, src->path, 0,
                                     "empty file: a S.Ha.R.K. dump holds 16-byte records");
      return FALSE;
    }
  if (src->size % TW_SHARK_RECORD_SIZE != 0)
    {
      tw_reader_set_error_at_offset (error, TW_READER_ERROR_TRUNCATED, src->path,
                                     src->size - src->size % TW_SHARK_RECORD_SIZE,
                                     "the file ends inside a record (%" G_GUINT64_FORMAT
                                     " trailing bytes; size %" G_GUINT64_FORMAT
                                     " is not a multiple of 16)",
                                     src->size % TW_SHARK_RECORD_SIZE, src->size);
      return FALSE;
    }

  parser.path = src->path;
  parser.trace = trace;
  parser.running_ctx = NO_CTX;
  parser.switched_ctx = NO_CTX;
  parser.min_tsc = G_MAXUINT64;
  parser.first_row = tw_trace_get_n_events (trace);

  /* Byte order and clock rate from the first block (a rate logged in the first MiB). */
  first_block = source_get (src, 0, MIN (n_records, FIRST_RECORDS), error);
  if (first_block == NULL)
    return FALSE;
  parser.big_endian = tw_shark_detect_big_endian (first_block, MIN (n_records, FIRST_RECORDS));
  cpm = find_cycles_per_msec (first_block, MIN (n_records, FIRST_RECORDS), parser.big_endian);
  tsc_converter_init (&parser.conv, cpm);

  for (guint i = 0; i < 256; i++)
    parser.slots[i].type = TW_TYPE_NONE;
  ctx_task_array = g_new0 (guint32, NO_CTX + 1);
  ctx_state_array = g_new0 (guint8, NO_CTX + 1);
  dedup = g_new (DedupEntry, DEDUP_SIZE);
  parser.ctx_task = ctx_task_array;
  parser.ctx_state = ctx_state_array;
  parser.dedup = dedup;
  /* spelled as ftrace does, so that users read one vocabulary whatever the source */
  parser.state_str[STATE_R] = tw_trace_intern_task_state (trace, "R", TW_TASK_STATE_READY);
  parser.state_str[STATE_S] = tw_trace_intern_task_state (trace, "S", TW_TASK_STATE_BLOCKED);
  parser.state_str[STATE_X] = tw_trace_intern_task_state (trace, "X", TW_TASK_STATE_DEAD);
  next_chunk (&parser);

  for (guint64 block = 0, step = 0, n = 0; block < n_records; block += n)
    {
      const guint8 *data;
      gboolean ok;

      n = MIN (block == 0 ? FIRST_RECORDS : BLOCK_RECORDS, n_records - block);
      data = block == 0 ? first_block : source_get (src, block, n, error);

      if (data == NULL)
        {
          tw_trace_end_append (trace);
          return FALSE;
        }

      /* The origin is the first stored record's TSC. */
      for (gsize i = 0; i < n && !origin_known; i++)
        {
          const guint8 *p = data + i * TW_SHARK_RECORD_SIZE;

          if (code_action (tw_shark_load16 (p, parser.big_endian) & TW_SHARK_CODE_MASK) != ACT_CONTROL)
            {
              parser.origin = tw_shark_record_tsc (p, parser.big_endian);
              origin_known = TRUE;
            }
        }

      /* Cancellation is checked once per block (16 Ki records), progress every 4 MiB. */
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          tw_trace_end_append (trace);
          return FALSE;
        }
      if (progress && step++ % 16 == 0)
        progress ((double) block / n_records, progress_data);

      ok = parser.big_endian ? parse_range_be (&parser, data, n, block, error)
                             : parse_range_le (&parser, data, n, block, error);
      tw_trace_end_append (trace);
      if (!ok)
        return FALSE;
    }

  if (parser.before_origin && !fix_up_times (&parser, src, error))
    return FALSE;

  tw_trace_note_cpu (trace, 0);
  tw_trace_set_metadata (trace, "byte_order", parser.big_endian ? "big-endian" : "little-endian");
  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, parser.origin);
  tw_trace_set_metadata (trace, "tsc_origin", text);
  if (cpm != 0)
    {
      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, cpm);
      tw_trace_set_metadata (trace, "cycles_per_msec", text);
      tw_trace_set_metadata (trace, "clock", "tsc");
    }
  else
    {
      tw_trace_set_metadata (trace, "cycles_per_msec", NULL);
      tw_trace_set_metadata (trace, "clock", "tsc (no cycles_per_msec in the file: 1 tick = 1 ns)");
    }
  if (parser.n_control > 0)
    {
      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, parser.n_control);
      tw_trace_set_metadata (trace, "control_records", text);
    }
  if (parser.n_fast > 0)
    {
      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, parser.n_fast);
      tw_trace_set_metadata (trace, "fast_ipoints", text);
    }
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

/**
 * tw_shark_parse_buffer:
 * @data: (array length=len): the whole dump
 * @path: the file name for messages
 *
 * Appends the records of a S.Ha.R.K. dump held in memory to @trace: the parser behind
 * the reader, for the fuzzer and the tests.
 *
 * Returns: %FALSE with @error set (naming @path and a byte offset)
 */
gboolean
tw_shark_parse_buffer (const guint8    *data,
                       gsize            len,
                       const char      *path,
                       TwTrace         *trace,
                       TwProgressFunc   progress,
                       gpointer         progress_data,
                       GCancellable    *cancellable,
                       GError         **error)
{
  Source src = { .mem = data ? data : (const guint8 *) "", .fd = -1, .size = len, .path = path };

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  return parse_source (&src, trace, progress, progress_data, cancellable, error);
}

/* ---------------------------------------------------------------- the reader */

static guint
tw_shark_reader_probe (const char   *path,
                       const guint8 *head,
                       gsize         head_len)
{
  struct stat st;
  guint64 size = head_len;

  if (path != NULL && stat (path, &st) == 0 && S_ISREG (st.st_mode))
    size = st.st_size;
  return tw_shark_probe_buffer (head, head_len, size);
}

static gboolean
set_errno_error (GError     **error,
                 const char  *path,
                 int          saved)
{
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", path,
               g_strerror (saved));
  return FALSE;
}

static gboolean
tw_shark_reader_read (const char      *path,
                      TwTrace         *trace,
                      TwProgressFunc   progress,
                      gpointer         progress_data,
                      GCancellable    *cancellable,
                      GError         **error)
{
  g_autofree guint8 *buf = NULL;
  Source src = { .fd = -1, .path = path };
  struct stat st;
  gboolean ok;

  src.fd = open (path, O_RDONLY | O_CLOEXEC);
  if (src.fd < 0)
    return set_errno_error (error, path, errno);
  if (fstat (src.fd, &st) != 0)
    {
      int saved = errno;
      close (src.fd);
      return set_errno_error (error, path, saved);
    }
  if (!S_ISREG (st.st_mode))
    {
      close (src.fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                   "%s: not a regular file", path);
      return FALSE;
    }

  posix_fadvise (src.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  src.size = st.st_size;
  src.buf = buf = g_malloc ((gsize) MIN (src.size, (guint64) MAX (FIRST_RECORDS, BLOCK_RECORDS) * TW_SHARK_RECORD_SIZE) + 1);
  ok = parse_source (&src, trace, progress, progress_data, cancellable, error);
  close (src.fd);
  return ok;
}

const TwReaderInfo tw_shark_reader_info = {
  .name = "shark",
  .label = "S.Ha.R.K. dump",
  .description = "S.Ha.R.K. tracer (FTrace) binary dump: 16-byte records",
  .suffixes = (const char *const[]) { "shark", "dump", NULL },
  .probe = tw_shark_reader_probe,
  .read = tw_shark_reader_read,
};
