/* tw-ftrace-text-reader.c: reads the text of `trace-cmd report` and of tracefs `trace`
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-ftrace-text-reader.h"
#include "tw-kernel-common-private.h"
#include "tw-ftrace-text-reader-private.h"

#include <string.h>

/*
 * What this reader accepts (docs: see the comments on each parser below):
 *
 *   [header]   `cpus=N`, `version = N`, `# …` (tracefs header and legend),
 *              `CPU N is empty`, `##### CPU N buffer started ####`, blank lines,
 *              the wakeup latency summary of `trace-cmd report -w`
 *   [event]    COMM-PID [(TGID)] [CPU] [FLAGS] SECONDS[.FRACTION]: NAME: TEXT
 *              COMM-PID CPUFLAGS SECONDS[.FRACTION]: NAME: TEXT  (trace-cmd report -l)
 *              `(+DELTA)` before NAME (report --ts-diff), ` Latency: N usecs` after a
 *              sched_switch (report -w), no blank after `[CPU]` (a wide counter time)
 *   [lost]     CPU:N [LOST M EVENTS] (tracefs), CPU:N [M EVENTS DROPPED] and
 *              CPU:N [EVENTS DROPPED] (trace-cmd report: count unknown) → an event of kind
 *              TW_EVENT_KIND_LOST ("lost_events") on CPU N at the time of its next event
 *   [continue] `=> func (addr)` lines after a stack-trace event: appended to its text
 *
 * Time: the store keeps the kernel's absolute trace-clock time in ns, parsed exactly
 * from the decimal text (integer seconds and up to 9 fraction digits, no floating
 * point), so `first_ns` equals what trace-cmd prints × 10⁹. A timestamp without a
 * fraction (counter clocks) is taken as a count, 1 unit = 1 ns.
 *
 * Tasks: keyed by pid (the kernel thread id); pid 0 is one idle task per CPU, source id
 * "0/<cpu>", named "swapper/<cpu>", pid and tid 0, flagged idle. The thread's tid is
 * the pid, its process id the TGID column when the text has one, else -1. The latest
 * comm seen for a pid names the task; `<...>` (comm unknown to the kernel) never renames.
 *
 * Fields: sched_switch, sched_wakeup(_new), irq_handler_*, softirq_entry/exit have fixed
 * schemas filled from either the tracefs `name=value` text or trace-cmd's compact text.
 * Every other event gets its schema from its first line: one field per `name=value`
 * pair (integers I64, `0x…` U64 hex, anything else a string) plus an optional string
 * field `text`. Later lines of the same event that do not fit (a key the first line did
 * not have, a value that is not a number where the first line had one, or no pairs at
 * all) put the misfits, as `name=value` text, into `text` instead of failing. An event
 * whose first line has no pairs keeps its whole text in `text`.
 *
 * An event line whose fields are cut off (the last line of a truncated capture, a line
 * broken in two) is kept with the fields that parse, and counted (metadata
 * `truncated_events`, `first_truncated_line`): a switch without its next task has arg
 * TW_TASK_NONE, a wakeup without its pid TW_TASK_NONE, an irq without its number
 * TW_IRQ_NUMBER_UNKNOWN; an unterminated last line counts as cut. So the events are
 * exactly the lines with an event header.
 *
 * Lines that do not parse are counted (metadata `skipped_lines`) unless the very first
 * non-header line fails, or no line parses at all: then the read fails naming the line.
 */

#define MAX_PAIRS        64
#define MAX_NAME_LEN     127
#define PROGRESS_LINES   4096
#define MAX_CPU_INDEX    (TW_CPU_NONE - 1)

/* ---------------------------------------------------------------- text helpers */

typedef struct {
  const char *key;
  const char *val;
  guint       key_len;
  guint       val_len;
} Pair;

static inline gboolean
is_space (char c)
{
  return c == ' ' || c == '\t';
}

static inline gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

static inline gboolean
is_ident (char c)
{
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit (c) || c == '_';
}

static inline const char *
skip_spaces (const char *s,
             const char *end)
{
  while (s < end && is_space (*s))
    s++;
  return s;
}

static inline const char *
trim_end (const char *start,
          const char *end)
{
  while (end > start && is_space (end[-1]))
    end--;
  return end;
}

static gboolean
span_equals (const char *s,
             gsize       len,
             const char *literal)
{
  return strlen (literal) == len && memcmp (s, literal, len) == 0;
}

static gboolean
span_has_prefix (const char *s,
                 const char *end,
                 const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (end - s) >= n && memcmp (s, prefix, n) == 0;
}

/* Decimal integer, optionally negative; a trailing " [unit]" (sched_stat_runtime's
 * "runtime=1694423 [ns]") is allowed and dropped. */
static gboolean
parse_i64 (const char *s,
           gsize       len,
           gint64     *out)
{
  const char *end = s + len;
  gboolean negative = FALSE;
  guint64 v = 0;
  const char *digits;

  if (s < end && *s == '-')
    {
      negative = TRUE;
      s++;
    }
  digits = s;
  while (s < end && is_digit (*s))
    {
      guint d = *s - '0';

      if (v > (guint64) (G_MAXINT64 - d) / 10)
        return FALSE;
      v = v * 10 + d;
      s++;
    }
  if (s == digits)
    return FALSE;
  if (s < end)
    {
      if (end - s < 4 || s[0] != ' ' || s[1] != '[' || end[-1] != ']'
          || memchr (s + 2, ']', end - s - 3) != NULL)
        return FALSE;
    }
  *out = negative ? -(gint64) v : (gint64) v;
  return TRUE;
}

static gboolean
parse_hex (const char *s,
           gsize       len,
           guint64    *out)
{
  guint64 v = 0;

  if (len < 3 || len > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
    return FALSE;
  for (gsize i = 2; i < len; i++)
    {
      int d = g_ascii_xdigit_value (s[i]);

      if (d < 0)
        return FALSE;
      v = (v << 4) | (guint) d;
    }
  *out = v;
  return TRUE;
}

/* Generic `name=value name=value` text: a key is an identifier followed by '=' at the
 * start or after a space or '['; a value runs to the next key (values may hold spaces).
 * `[action=SCHED]` loses its brackets. Returns 0 when the text does not start with a
 * key, so unkeyed text stays whole. */
static guint
parse_pairs (const char *s,
             const char *end,
             Pair       *pairs,
             guint       max_pairs)
{
  guint n = 0;
  const char *p = s;

  while (p < end && n < max_pairs)
    {
      const char *k = p;
      const char *v;

      while (p < end && is_ident (*p))
        p++;
      if (p == k || p >= end || *p != '=')
        {
          if (n == 0)
            return 0;
          /* not a key: keep scanning inside the current value */
          p = k + 1;
          while (p < end && !((p[-1] == ' ' || p[-1] == '[') && is_ident (*p)))
            p++;
          continue;
        }
      if (n > 0)
        {
          /* close the previous value before this key's delimiter */
          const char *prev_end = k;
          Pair *prev = &pairs[n - 1];

          if (prev_end > prev->val && prev_end[-1] == '[')
            prev_end--;
          prev_end = trim_end (prev->val, prev_end);
          prev->val_len = prev_end - prev->val;
        }
      v = p + 1;
      pairs[n].key = k;
      pairs[n].key_len = p - k;
      pairs[n].val = v;
      pairs[n].val_len = end - v;
      n++;
      p = v;
      while (p < end && !((p[-1] == ' ' || p[-1] == '[') && is_ident (*p)))
        p++;
    }

  /* strip the bracket of a `[key=value]` pair */
  for (guint i = 0; i < n; i++)
    {
      Pair *pair = &pairs[i];
      const char *ve = trim_end (pair->val, pair->val + pair->val_len);

      if (pair->key > s && pair->key[-1] == '[' && ve > pair->val && ve[-1] == ']')
        ve--;
      pair->val_len = ve - pair->val;
    }
  return n;
}

static void
set_pair (Pair       *pair,
          const char *key,
          const char *val,
          const char *val_end)
{
  pair->key = key;
  pair->key_len = strlen (key);
  pair->val = val;
  pair->val_len = val_end - val;
}

/* trace-cmd's `COMM:PID [PRIO]` ending at @end (the COMM may hold ':' and spaces). */
static gboolean
parse_comm_pid_prio (const char *s,
                     const char *end,
                     const char *comm_key,
                     const char *pid_key,
                     const char *prio_key,
                     Pair       *pairs)
{
  const char *open;
  const char *colon;
  gint64 dummy;

  end = trim_end (s, end);
  if (end - s < 5 || end[-1] != ']')
    return FALSE;
  open = end - 2;
  while (open > s && *open != '[')
    open--;
  if (*open != '[' || open == s || open[-1] != ' ')
    return FALSE;
  if (!parse_i64 (open + 1, end - 1 - (open + 1), &dummy))
    return FALSE;
  set_pair (&pairs[2], prio_key, open + 1, end - 1);

  end = trim_end (s, open);
  if (end - s < 2)
    return FALSE;
  colon = end - 1;
  while (colon > s && *colon != ':')
    colon--;
  if (*colon != ':' || !parse_i64 (colon + 1, end - colon - 1, &dummy))
    return FALSE;
  set_pair (&pairs[0], comm_key, s, colon);
  set_pair (&pairs[1], pid_key, colon + 1, end);
  return TRUE;
}

/* `trace-cmd report -w` ends the sched_switch that ends a wakeup with
 * ` Latency: 3.547 usecs`: the end of the event's own text is before it. */
static const char *
strip_wakeup_latency (const char *s,
                      const char *end)
{
  static const char marker[] = " Latency: ";
  static const char unit[] = " usecs";
  const char *p = end - (sizeof unit - 1);
  const char *digits_end = p;

  if (p <= s || memcmp (p, unit, sizeof unit - 1) != 0)
    return end;
  while (p > s && (is_digit (p[-1]) || p[-1] == '.'))
    p--;
  if (p == digits_end || p - s < (gssize) (sizeof marker - 1)
      || memcmp (p - (sizeof marker - 1), marker, sizeof marker - 1) != 0)
    return end;
  return p - (sizeof marker - 1);
}

static const char *
find_arrow (const char *s,
            const char *end)
{
  for (const char *p = s; p + 5 <= end; p++)
    if (p[0] == ' ' && p[1] == '=' && p[2] == '=' && p[3] == '>' && p[4] == ' ')
      return p;
  return NULL;
}

/* sched_switch, tracefs: `prev_comm=A prev_pid=1 prev_prio=120 prev_state=S ==>
 * next_comm=B next_pid=2 next_prio=120`; trace-cmd: `A:1 [120] S ==> B:2 [120]`. */
static guint
parse_switch_text (const char *s,
                   const char *end,
                   Pair       *pairs)
{
  const char *arrow;
  const char *state;
  const char *left_end;
  guint n;

  end = strip_wakeup_latency (s, end);
  arrow = find_arrow (s, end);

  if (arrow == NULL)
    /* `trace-cmd report -R` (raw): every field, no arrow, numeric prev_state */
    return span_has_prefix (s, end, "prev_comm=") ? parse_pairs (s, end, pairs, 8) : 0;

  if (span_has_prefix (s, end, "prev_comm="))
    {
      n = parse_pairs (s, arrow, pairs, 4);
      if (n == 0)
        return 0;
      return n + parse_pairs (skip_spaces (arrow + 4, end), end, pairs + n, 4);
    }

  left_end = trim_end (s, arrow);
  state = left_end;
  while (state > s && !is_space (state[-1]))
    state--;
  if (state == left_end || state == s)
    return 0;
  if (!parse_comm_pid_prio (s, state, "prev_comm", "prev_pid", "prev_prio", pairs))
    return 0;
  set_pair (&pairs[3], "prev_state", state, left_end);
  if (!parse_comm_pid_prio (skip_spaces (arrow + 4, end), end,
                            "next_comm", "next_pid", "next_prio", pairs + 4))
    return 4;  /* cut after the arrow: the next task is lost */
  return 7;
}

/* sched_wakeup, tracefs: `comm=A pid=1 prio=120 target_cpu=001`; trace-cmd:
 * `A:1 [120] CPU:001` (older kernels add ` success=1`). */
static guint
parse_wakeup_text (const char *s,
                   const char *end,
                   Pair       *pairs)
{
  const char *p;
  const char *prio_end = NULL;
  guint n;

  n = parse_pairs (s, end, pairs, MAX_PAIRS);
  if (n > 0)
    return n;

  /* the last " [digits]" closes COMM:PID [PRIO] */
  for (p = end - 1; p > s; p--)
    if (*p == ']')
      {
        const char *open = p - 1;
        gint64 dummy;

        while (open > s && *open != '[')
          open--;
        if (*open == '[' && parse_i64 (open + 1, p - open - 1, &dummy))
          {
            prio_end = p + 1;
            break;
          }
      }
  if (prio_end == NULL || !parse_comm_pid_prio (s, prio_end, "comm", "pid", "prio", pairs))
    return 0;
  n = 3;

  p = prio_end;
  while (p < end)
    {
      const char *tok;

      p = skip_spaces (p, end);
      tok = p;
      while (p < end && !is_space (*p))
        p++;
      if (span_has_prefix (tok, p, "CPU:"))
        set_pair (&pairs[n++], "target_cpu", tok + 4, p);
      if (n == 4)
        break;
    }
  return n;
}

/* A raw numeric prev_state as the kernel's own format prints it (sched_switch's print
 * fmt since 4.14): report bits S D T t X Z P I joined by '|', "R" when none is set, and
 * "+" for the bit above them (TASK_REPORT_MAX, preempted). trace-cmd 3.1's plain report
 * uses an older table (W for 0x80, X and Z swapped, no "+"); the kernel's is the truth
 * for the kernels that write these bits, and the state model reads both the same way. */
static gboolean
format_prev_state (const char *s,
                   gsize       len,
                   char       *buf,
                   gsize       buf_len,
                   gsize      *out_len)
{
  static const char letters[] = "SDTtXZPI";
  gint64 value;
  gsize n = 0;

  if (len == 0 || !is_digit (s[0]) || !parse_i64 (s, len, &value))
    return FALSE;
  for (guint bit = 0; bit < 8; bit++)
    if (value & (1 << bit) && n + 2 < buf_len)
      {
        if (n > 0)
          buf[n++] = '|';
        buf[n++] = letters[bit];
      }
  if (n == 0)
    buf[n++] = 'R';
  if (value & 0x100)
    buf[n++] = '+';
  *out_len = n;
  return TRUE;
}

/* ---------------------------------------------------------------- event types */

typedef enum {
  DECODE_GENERIC = 0,
  DECODE_SWITCH,
  DECODE_WAKEUP,
} Decode;

typedef struct {
  const char        *name;
  TwEventKind        kind;
  Decode             decode;
  const char        *arg_key;  /* the pair giving the arg column, or NULL */
  const TwFieldSpec *fields;   /* NULL: schema from the first line */
  guint              n_fields;
} KnownEvent;

#define OPT TW_FIELD_FLAG_OPTIONAL

static const KnownEvent known_events[] = {
  { "sched_switch", TW_EVENT_KIND_SWITCH, DECODE_SWITCH, NULL,
    _tw_kernel_switch_fields, G_N_ELEMENTS (_tw_kernel_switch_fields) },
  { "sched_wakeup", TW_EVENT_KIND_WAKEUP, DECODE_WAKEUP, NULL,
    _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "sched_wakeup_new", TW_EVENT_KIND_WAKEUP, DECODE_WAKEUP, NULL,
    _tw_kernel_wakeup_fields, G_N_ELEMENTS (_tw_kernel_wakeup_fields) },
  { "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY, DECODE_GENERIC, "irq",
    _tw_kernel_irq_entry_fields, G_N_ELEMENTS (_tw_kernel_irq_entry_fields) },
  { "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT, DECODE_GENERIC, "irq",
    _tw_kernel_irq_exit_fields, G_N_ELEMENTS (_tw_kernel_irq_exit_fields) },
  { "softirq_entry", TW_EVENT_KIND_SOFTIRQ_ENTRY, DECODE_GENERIC, "vec",
    _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
  { "softirq_exit", TW_EVENT_KIND_SOFTIRQ_EXIT, DECODE_GENERIC, "vec",
    _tw_kernel_softirq_fields, G_N_ELEMENTS (_tw_kernel_softirq_fields) },
  { "sched_process_fork", TW_EVENT_KIND_TASK_CREATE, DECODE_GENERIC, NULL, NULL, 0 },
  { "sched_process_exit", TW_EVENT_KIND_TASK_EXIT, DECODE_GENERIC, NULL, NULL, 0 },
};

/* One event name of this file: its row in the trace's type table and how to read it. */
typedef struct {
  const char        *name;        /* the key of Parser.types */
  guint              name_len;
  const TwEventType *type_info;
  guint16            type;
  TwEventKind        kind;
  Decode             decode;
  const char        *arg_key;
  int                text_field;  /* the free-text field, -1 when none */
  int                state_field; /* a switch's prev_state, -1 when none */
  gboolean           text_only;   /* the whole text goes to `text` */
} FtraceType;

/* ---------------------------------------------------------------- parser */

#define TYPE_CACHE_SIZE 64

typedef struct {
  const FtraceType *type;
} TypeSlot;

typedef struct {
  const char *comm;
  guint       comm_len;
  gint64      pid;
  gint64      tgid;     /* -1 when the line has no TGID column or it is unknown */
  guint       cpu;
  guint64     time_ns;
  const char *name;     /* NULL: @implicit_name */
  guint       name_len;
  const char *implicit_name;
  const char *text;
  const char *text_end;
} EventLine;

typedef struct {
  TwTrace      *trace;
  const char   *path;
  GHashTable   *types;        /* event name (owned) → FtraceType (owned) */
  TwKernelTasks tasks;
  TypeSlot      type_cache[TYPE_CACHE_SIZE]; /* by hash of the name, before `types` */
  TwStringCache strings;      /* span → string id, so hot strings skip the trace's lock */
  GString      *scratch;      /* NUL-terminated copies of spans */
  GString      *overflow;     /* misfit pairs of the current line */
  guint8       *payload;
  gsize         payload_cap;
  char          state[24];    /* a raw prev_state turned into letters */
  guint64       skipped;
  guint64       first_skipped_line;
  guint64       truncated;
  guint64       first_truncated_line;
  guint16       lost_type;    /* TW_TYPE_NONE until the first LOST line */
  GArray       *pending_lost; /* PendingLoss per CPU: a loss waits for the CPU's next event */
  guint64       last_time;
  gboolean      saw_tracefs_header;
  gboolean      saw_report_header;
} Parser;

typedef struct {
  guint64  count;
  gboolean pending;
  gboolean unknown;  /* a line did not say how many */
} PendingLoss;

static void
ftrace_type_free (gpointer data)
{
  g_free (data);
}

/* The task of a pid (created on first sight), renamed to @comm when it differs. */
static guint32
task_for_pid (Parser     *self,
              gint64      pid,
              gint64      tgid,
              guint       cpu,
              const char *comm,
              gsize       comm_len)
{
  guint32 task = _tw_kernel_tasks_get (&self->tasks, pid, cpu);

  if (task == TW_TASK_NONE || pid == 0)
    return task;
  if (tgid >= 0 && tw_trace_get_task (self->trace, task)->pid != tgid)
    tw_trace_set_task_ids (self->trace, task, tgid, pid);
  if (comm != NULL && _tw_kernel_comm_is_known (comm, comm_len))
    _tw_kernel_tasks_rename (&self->tasks, task, _tw_string_cache_get (&self->strings, comm, comm_len));
  return task;
}

/* SECONDS[.FRACTION]: exactly, in ns; @s points at the first digit. */
static const char *
parse_timestamp (const char *s,
                 const char *end,
                 guint64    *time_ns)
{
  guint64 seconds = 0;
  guint64 fraction = 0;
  const char *start = s;
  guint n_fraction = 0;

  while (s < end && is_digit (*s))
    {
      if (seconds > (G_MAXUINT64 - 9) / 10)
        return NULL;
      seconds = seconds * 10 + (*s - '0');
      s++;
    }
  if (s == start || s >= end)
    return NULL;

  if (*s == '.')
    {
      s++;
      while (s < end && is_digit (*s))
        {
          if (n_fraction == 9)
            return NULL;
          fraction = fraction * 10 + (*s - '0');
          n_fraction++;
          s++;
        }
      if (n_fraction == 0)
        return NULL;
      for (guint i = n_fraction; i < 9; i++)
        fraction *= 10;
      if (seconds > (G_MAXUINT64 - fraction) / G_GUINT64_CONSTANT (1000000000))
        return NULL;
      *time_ns = seconds * G_GUINT64_CONSTANT (1000000000) + fraction;
    }
  else
    *time_ns = seconds;

  if (s >= end || *s != ':' || (s + 1 < end && !is_space (s[1])))
    return NULL;
  return s + 1;
}

/* The part before `[CPU]`: `COMM-PID` or `COMM-PID (TGID)`; COMM may hold dashes and
 * spaces, so the pid is the digits after the last dash. */
static gboolean
parse_task_prefix (const char *s,
                   const char *end,
                   EventLine  *line)
{
  const char *digits_end;
  const char *p;

  end = trim_end (s, end);
  line->tgid = -1;
  if (end > s && end[-1] == ')')
    {
      const char *open = end - 1;
      const char *in_start;
      const char *in_end;

      while (open > s && *open != '(')
        open--;
      if (*open != '(')
        return FALSE;
      in_start = skip_spaces (open + 1, end - 1);
      in_end = trim_end (in_start, end - 1);
      if (in_start == in_end)
        return FALSE;
      if (*in_start == '-')
        {
          for (p = in_start; p < in_end; p++)
            if (*p != '-')
              return FALSE;
        }
      else if (!parse_i64 (in_start, in_end - in_start, &line->tgid) || line->tgid < 0)
        return FALSE;
      end = trim_end (s, open);
    }

  digits_end = end;
  p = end;
  while (p > s && is_digit (p[-1]))
    p--;
  if (p == digits_end || p - s < 2 || p[-1] != '-')
    return FALSE;
  if (!parse_i64 (p, digits_end - p, &line->pid))
    return FALSE;
  line->comm = s;
  line->comm_len = (p - 1) - s;
  return TRUE;
}

/* `trace-cmd report --ts-diff` puts the time since the previous event, `(+3)`, before
 * the event name. */
static const char *
skip_ts_diff (const char *s,
              const char *end)
{
  const char *p = s;

  if (end - p < 4 || p[0] != '(' || p[1] != '+' || !is_digit (p[2]))
    return s;
  for (p += 2; p < end && is_digit (*p); p++)
    ;
  if (p >= end || *p != ')')
    return s;
  return skip_spaces (p + 1, end);
}

/* After `]`: [FLAGS] TIMESTAMP: [(+DELTA)] NAME: TEXT */
static gboolean
parse_after_cpu (const char *s,
                 const char *end,
                 EventLine  *line)
{
  const char *p = skip_spaces (s, end);
  const char *after;

  /* a counter clock's timestamp wider than trace-cmd's column touches the CPU:
   * `[000]54116388962168:` */
  if (p >= end || (p == s && !is_digit (*p)))
    return FALSE;
  after = is_digit (*p) ? parse_timestamp (p, end, &line->time_ns) : NULL;
  if (after == NULL)
    {
      /* an irq-flags / latency column such as `d.h2.` */
      const char *flags = p;

      if (p == s)
        return FALSE;

      while (p < end && !is_space (*p))
        p++;
      if (p - flags > 8)
        return FALSE;
      p = skip_spaces (p, end);
      if (p >= end || !is_digit (*p) || !(after = parse_timestamp (p, end, &line->time_ns)))
        return FALSE;
    }

  p = skip_spaces (after, end);
  p = skip_ts_diff (p, end);
  if (p >= end)
    return FALSE;

  line->name = p;
  while (p < end && is_ident (*p))
    p++;
  if (p > line->name && p < end && *p == ':' && p - line->name <= MAX_NAME_LEN)
    {
      line->name_len = p - line->name;
      line->text = skip_spaces (p + 1, end);
    }
  else
    {
      /* tracefs without an event name: stack traces and the function tracer */
      line->text = line->name;
      line->name = NULL;
      if (span_has_prefix (line->text, end, "<stack trace>"))
        line->implicit_name = "kernel_stack";
      else if (span_has_prefix (line->text, end, "<user stack trace>"))
        line->implicit_name = "user_stack";
      else
        line->implicit_name = "function";
    }
  line->text_end = trim_end (line->text, end);
  return TRUE;
}

static gboolean
parse_event_line (const char *s,
                  const char *end,
                  EventLine  *line)
{
  const char *start = skip_spaces (s, end);
  const char *p = start;

  memset (line, 0, sizeof *line);

  /* the CPU column: the first ` [digits]` that a valid task prefix precedes */
  while (p < end && (p = memchr (p, '[', end - p)) != NULL)
    {
      const char *d = p + 1;
      guint cpu = 0;

      while (d < end && is_digit (*d) && d - p <= 5)
        {
          cpu = cpu * 10 + (*d - '0');
          d++;
        }
      if (p > start && is_space (p[-1]) && d > p + 1 && d < end && *d == ']'
          && cpu <= MAX_CPU_INDEX
          && parse_task_prefix (start, p, line) && parse_after_cpu (d + 1, end, line))
        {
          line->cpu = cpu;
          return TRUE;
        }
      p++;
    }

  /* `trace-cmd report -l`: the CPU number is glued to the latency flags, `1dN.4.` */
  for (p = start + 1; p < end; p++)
    {
      const char *d = p;
      const char *flags_end;
      guint cpu = 0;

      if (!is_space (p[-1]) || !is_digit (*p))
        continue;
      while (d < end && is_digit (*d) && d - p < 5)
        {
          cpu = cpu * 10 + (*d - '0');
          d++;
        }
      flags_end = d;
      while (flags_end < end && !is_space (*flags_end))
        flags_end++;
      if (d > p && flags_end > d && flags_end - d <= 8 && !is_digit (*d)
          && cpu <= MAX_CPU_INDEX
          && parse_task_prefix (start, p, line) && parse_after_cpu (flags_end, end, line))
        {
          line->cpu = cpu;
          return TRUE;
        }
    }
  return FALSE;
}

static FtraceType *
create_type (Parser      *self,
             const char  *name,
             const Pair  *pairs,
             guint        n_pairs,
             GError     **error)
{
  const KnownEvent *known = NULL;
  g_autofree TwFieldSpec *specs = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  FtraceType *ft;
  guint n_specs = 0;
  gboolean have_text_key = FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
    if (strcmp (known_events[i].name, name) == 0)
      known = &known_events[i];

  ft = g_new0 (FtraceType, 1);
  ft->kind = known ? known->kind : TW_EVENT_KIND_OTHER;
  ft->decode = known ? known->decode : DECODE_GENERIC;
  ft->arg_key = known ? known->arg_key : NULL;
  ft->text_field = -1;

  if (known && known->fields)
    {
      ft->type = tw_trace_add_event_type (self->trace, name, NULL, ft->kind,
                                          known->fields, known->n_fields, error);
    }
  else
    {
      specs = g_new0 (TwFieldSpec, n_pairs + 1);
      for (guint i = 0; i < n_pairs; i++)
        {
          char *key = g_strndup (pairs[i].key, pairs[i].key_len);
          gint64 i64;
          guint64 u64;
          gboolean dup = FALSE;

          for (guint j = 0; j < n_specs; j++)
            dup |= strcmp (specs[j].name, key) == 0;
          if (dup)
            {
              g_free (key);
              continue;
            }
          g_ptr_array_add (names, key);
          have_text_key |= strcmp (key, "text") == 0;
          specs[n_specs].name = key;
          specs[n_specs].flags = OPT;
          if (parse_i64 (pairs[i].val, pairs[i].val_len, &i64))
            specs[n_specs].type = TW_FIELD_I64;
          else if (parse_hex (pairs[i].val, pairs[i].val_len, &u64))
            {
              specs[n_specs].type = TW_FIELD_U64;
              specs[n_specs].flags |= TW_FIELD_FLAG_HEX;
            }
          else
            specs[n_specs].type = TW_FIELD_STRING;
          n_specs++;
        }
      ft->text_only = n_specs == 0;
      ft->text_field = n_specs;
      specs[n_specs].name = have_text_key ? "text_extra" : "text";
      specs[n_specs].type = TW_FIELD_STRING;
      specs[n_specs].flags = OPT;
      n_specs++;
      ft->type = tw_trace_add_event_type (self->trace, name, NULL, ft->kind,
                                          specs, n_specs, error);
    }

  if (ft->type == TW_TYPE_NONE)
    {
      g_free (ft);
      return NULL;
    }
  ft->type_info = tw_trace_get_event_type (self->trace, ft->type);
  ft->state_field = ft->kind == TW_EVENT_KIND_SWITCH
                    ? tw_event_type_lookup_field (ft->type_info, "prev_state") : -1;
  if (ft->type_info->payload_size > self->payload_cap)
    {
      self->payload_cap = ft->type_info->payload_size;
      self->payload = g_realloc (self->payload, self->payload_cap);
    }
  ft->name = g_strdup (name);
  ft->name_len = strlen (name);
  g_hash_table_insert (self->types, (char *) ft->name, ft);
  return ft;
}

static const Pair *
find_pair (const Pair *pairs,
           guint       n_pairs,
           const char *key)
{
  for (guint i = 0; i < n_pairs; i++)
    if (span_equals (pairs[i].key, pairs[i].key_len, key))
      return &pairs[i];
  return NULL;
}

static gboolean
pair_i64 (const Pair *pairs,
          guint       n_pairs,
          const char *key,
          gint64     *value)
{
  const Pair *pair = find_pair (pairs, n_pairs, key);

  return pair != NULL && parse_i64 (pair->val, pair->val_len, value);
}

static void
append_overflow (Parser     *self,
                 const char *s,
                 gsize       len)
{
  if (self->overflow->len > 0)
    g_string_append_c (self->overflow, ' ');
  g_string_append_len (self->overflow, s, len);
}

/* Packs the pairs into the type's payload; misfits go to the `text` field. */
static void
fill_payload (Parser           *self,
              const FtraceType *ft,
              const Pair       *pairs,
              guint             n_pairs,
              const char       *text,
              const char       *text_end)
{
  const TwEventType *t = ft->type_info;
  guint n_keys = ft->text_field >= 0 ? (guint) ft->text_field : t->n_fields;
  guint8 *payload = self->payload;

  memset (payload, 0, t->payload_size);
  g_string_truncate (self->overflow, 0);

  if (ft->text_only)
    {
      TwValue v = { .type = TW_FIELD_STRING };

      if (text_end > text)
        {
          v.str = _tw_string_cache_get (&self->strings, text, text_end - text);
          tw_event_type_set_field (t, payload, ft->text_field, &v);
        }
      return;
    }

  if (n_pairs == 0 && text_end > text)
    append_overflow (self, text, text_end - text);

  for (guint i = 0; i < n_pairs; i++)
    {
      const Pair *pair = &pairs[i];
      int field = -1;
      TwValue v = { 0 };
      gboolean ok = FALSE;

      /* fast path: lines of one event usually list their pairs in the same order */
      if (i < n_keys && span_equals (pair->key, pair->key_len, t->fields[i].name))
        field = i;
      else
        for (guint f = 0; f < n_keys && field < 0; f++)
          if (span_equals (pair->key, pair->key_len, t->fields[f].name))
            field = f;

      if (field >= 0 && !(t->presence_bytes && payload[field / 8] & (1u << (field % 8))))
        {
          v.type = t->fields[field].type;
          switch (v.type)
            {
            case TW_FIELD_I64:
              ok = parse_i64 (pair->val, pair->val_len, &v.i);
              break;
            case TW_FIELD_U64:
              ok = parse_hex (pair->val, pair->val_len, &v.u);
              break;
            case TW_FIELD_STRING:
              v.str = field == ft->state_field
                      ? _tw_string_cache_get_prev_state (&self->strings, pair->val, pair->val_len)
                      : _tw_string_cache_get (&self->strings, pair->val, pair->val_len);
              ok = TRUE;
              break;
            case TW_FIELD_U8:
            case TW_FIELD_U16:
            case TW_FIELD_U32:
            case TW_FIELD_I32:
            case TW_FIELD_F64:
            default:
              break;
            }
        }
      if (ok)
        tw_event_type_set_field (t, payload, field, &v);
      else if (ft->text_field >= 0)
        {
          /* keys of the compact trace-cmd forms are literals, not spans of the line */
          append_overflow (self, pair->key, pair->key_len);
          g_string_append_c (self->overflow, '=');
          g_string_append_len (self->overflow, pair->val, pair->val_len);
        }
    }

  if (ft->text_field >= 0 && self->overflow->len > 0)
    {
      TwValue v = { .type = TW_FIELD_STRING,
                    .str = _tw_string_cache_get (&self->strings, self->overflow->str, self->overflow->len) };
      tw_event_type_set_field (t, payload, ft->text_field, &v);
    }
}

static FtraceType *
lookup_type (Parser     *self,
             const char *name,
             gsize       name_len)
{
  TypeSlot *slot = &self->type_cache[_tw_hash_span (name, name_len) % TYPE_CACHE_SIZE];
  char key[MAX_NAME_LEN + 1];
  FtraceType *ft;

  if (slot->type && slot->type->name_len == name_len
      && memcmp (slot->type->name, name, name_len) == 0)
    return (FtraceType *) slot->type;

  memcpy (key, name, name_len);
  key[name_len] = '\0';
  if ((ft = g_hash_table_lookup (self->types, key)))
    slot->type = ft;
  return ft;
}

/* Reads one event line into the trace. Returns FALSE when the line does not make an
 * event (counted as skipped), or with @error set when the trace refuses a type. */
/* A loss the text reported on @cpu becomes known at the CPU's next event (@time_ns): it
 * goes into the store just before that event. */
static void
flush_lost (Parser        *self,
            TwEventChunk **chunk,
            guint          cpu,
            guint64        time_ns)
{
  PendingLoss *loss;
  const TwEventType *type;
  guint8 payload[64];
  guint64 count;

  if (self->pending_lost == NULL || cpu >= self->pending_lost->len)
    return;
  loss = &g_array_index (self->pending_lost, PendingLoss, cpu);
  if (!loss->pending)
    return;
  type = tw_trace_get_event_type (self->trace, self->lost_type);
  g_assert (type->payload_size <= sizeof payload);
  count = loss->unknown ? TW_LOST_COUNT_UNKNOWN : loss->count;
  tw_lost_events_pack (type, payload, count, 0, TW_TIME_NONE);
  if ((*chunk)->n == TW_CHUNK_SIZE)
    *chunk = tw_trace_begin_append (self->trace);
  tw_event_chunk_push (*chunk, time_ns, cpu, self->lost_type, TW_TASK_NONE,
                       tw_lost_events_arg (count), payload, type->payload_size);
  memset (loss, 0, sizeof *loss);
}

static gboolean
note_lost (Parser   *self,
           guint     cpu,
           guint64   count,
           GError  **error)
{
  PendingLoss *loss;

  if (self->lost_type == TW_TYPE_NONE
      && (self->lost_type = tw_lost_events_add_type (self->trace, "lost_events", error)) == TW_TYPE_NONE)
    return FALSE;
  if (self->pending_lost == NULL)
    self->pending_lost = g_array_new (FALSE, TRUE, sizeof (PendingLoss));
  if (cpu >= self->pending_lost->len)
    g_array_set_size (self->pending_lost, cpu + 1);
  loss = &g_array_index (self->pending_lost, PendingLoss, cpu);
  loss->pending = TRUE;
  loss->count += count;
  loss->unknown |= count == TW_LOST_COUNT_UNKNOWN;
  return TRUE;
}

/* Reads one event line into the trace. Returns FALSE with @error set when the trace
 * refuses a type; sets @cut when fields that make the event what it is are missing. */
static gboolean
handle_event (Parser          *self,
              TwEventChunk   **chunk,
              const EventLine *line,
              const char      *text_end,
              gboolean        *took_continuation,
              gboolean        *cut,
              GError         **error)
{
  Pair pairs[MAX_PAIRS];
  guint n_pairs = 0;
  const char *name = line->name ? line->name : line->implicit_name;
  gsize name_len = line->name ? line->name_len : strlen (line->implicit_name);
  FtraceType *ft = lookup_type (self, name, name_len);
  guint32 task;
  guint32 arg = 0;
  guint16 cpu = line->cpu;
  gint64 pid;
  gint64 value;

  if (ft == NULL || ft->decode != DECODE_GENERIC || !ft->text_only)
    {
      Decode decode = ft ? ft->decode : DECODE_GENERIC;

      if (ft == NULL)
        for (guint i = 0; i < G_N_ELEMENTS (known_events); i++)
          if (span_equals (name, name_len, known_events[i].name))
            decode = known_events[i].decode;

      switch (decode)
        {
        case DECODE_SWITCH:
          n_pairs = parse_switch_text (line->text, line->text_end, pairs);
          break;
        case DECODE_WAKEUP:
          n_pairs = parse_wakeup_text (line->text, line->text_end, pairs);
          break;
        case DECODE_GENERIC:
        default:
          n_pairs = parse_pairs (line->text, line->text_end, pairs, MAX_PAIRS);
          break;
        }
    }

  if (ft == NULL)
    {
      char key[MAX_NAME_LEN + 1];

      memcpy (key, name, name_len);
      key[name_len] = '\0';
      if (!(ft = create_type (self, key, pairs, n_pairs, error)))
        return FALSE;
    }

  task = task_for_pid (self, line->pid, line->tgid, line->cpu, line->comm, line->comm_len);

  switch (ft->kind)
    {
    case TW_EVENT_KIND_SWITCH:
      {
        const Pair *prev_comm = find_pair (pairs, n_pairs, "prev_comm");
        const Pair *next_comm = find_pair (pairs, n_pairs, "next_comm");
        gint64 next_pid;

        Pair *prev_state = (Pair *) find_pair (pairs, n_pairs, "prev_state");
        gsize state_len;

        if (prev_state && format_prev_state (prev_state->val, prev_state->val_len, self->state,
                                             sizeof self->state, &state_len))
          {
            prev_state->val = self->state;
            prev_state->val_len = state_len;
          }
        /* without prev_pid, the line's own task: the one switched out */
        if (pair_i64 (pairs, n_pairs, "prev_pid", &pid))
          task = task_for_pid (self, pid, pid == line->pid ? line->tgid : -1, line->cpu,
                               prev_comm ? prev_comm->val : NULL, prev_comm ? prev_comm->val_len : 0);
        else
          *cut = TRUE;
        arg = TW_TASK_NONE;
        if (pair_i64 (pairs, n_pairs, "next_pid", &next_pid))
          arg = task_for_pid (self, next_pid, -1, line->cpu, next_comm ? next_comm->val : NULL,
                              next_comm ? next_comm->val_len : 0);
        *cut |= arg == TW_TASK_NONE || prev_comm == NULL || next_comm == NULL;
      }
      break;

    case TW_EVENT_KIND_WAKEUP:
      {
        const Pair *comm = find_pair (pairs, n_pairs, "comm");
        guint target = line->cpu;

        arg = TW_TASK_NONE;
        if (!pair_i64 (pairs, n_pairs, "pid", &pid))
          {
            *cut = TRUE;
            break;
          }
        if (pair_i64 (pairs, n_pairs, "target_cpu", &value) && value >= 0
            && value <= MAX_CPU_INDEX)
          target = value;
        arg = task_for_pid (self, pid, -1, target, comm ? comm->val : NULL,
                            comm ? comm->val_len : 0);
      }
      break;

    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      arg = TW_IRQ_NUMBER_UNKNOWN;
      if (pair_i64 (pairs, n_pairs, ft->arg_key, &value) && value >= 0 && value < G_MAXUINT32)
        arg = value;
      else
        *cut = TRUE;
      break;

    case TW_EVENT_KIND_TASK_CREATE:
      {
        const Pair *comm = find_pair (pairs, n_pairs, "child_comm");

        arg = TW_TASK_NONE;
        if (pair_i64 (pairs, n_pairs, "child_pid", &pid))
          arg = task_for_pid (self, pid, -1, line->cpu, comm ? comm->val : NULL,
                              comm ? comm->val_len : 0);
      }
      break;

    case TW_EVENT_KIND_TASK_EXIT:
      {
        const Pair *comm = find_pair (pairs, n_pairs, "comm");

        if (pair_i64 (pairs, n_pairs, "pid", &pid) && pid != line->pid)
          task = task_for_pid (self, pid, -1, line->cpu, comm ? comm->val : NULL,
                               comm ? comm->val_len : 0);
        arg = task;
      }
      break;

    case TW_EVENT_KIND_OTHER:
    case TW_EVENT_KIND_USER:
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
    case TW_EVENT_KIND_SENSOR:
    case TW_EVENT_KIND_LOST:
    case TW_N_EVENT_KINDS:
    default:
      break;
    }

  /* continuation lines widen the text of a text-only event (kernel_stack) */
  *took_continuation = ft->text_only;
  fill_payload (self, ft, pairs, n_pairs, line->text, ft->text_only ? text_end : line->text_end);

  if G_UNLIKELY (self->pending_lost != NULL)
    flush_lost (self, chunk, cpu, line->time_ns);
  self->last_time = MAX (self->last_time, line->time_ns);
  if ((*chunk)->n == TW_CHUNK_SIZE)
    *chunk = tw_trace_begin_append (self->trace);
  tw_event_chunk_push (*chunk, line->time_ns, cpu, ft->type, task, arg, self->payload,
                       ft->type_info->payload_size);
  return TRUE;
}

/* tracefs `CPU:1 [LOST 123 EVENTS]`; trace-cmd report `CPU:1 [123 EVENTS DROPPED]`, or
 * `CPU:1 [EVENTS DROPPED]` when the buffer did not say how many (@count 0). */
static gboolean
parse_lost_line (const char *s,
                 const char *end,
                 guint      *cpu,
                 guint64    *count)
{
  const char *p = s;
  const char *digits;
  gint64 n = 0;

  if (!span_has_prefix (p, end, "CPU:"))
    return FALSE;
  digits = p += 4;
  while (p < end && is_digit (*p))
    p++;
  if (p == digits || p - digits > 5 || !parse_i64 (digits, p - digits, &n) || n > MAX_CPU_INDEX)
    return FALSE;
  *cpu = n;
  if (!span_has_prefix (p, end, " ["))
    return FALSE;
  p += 2;
  if (span_has_prefix (p, end, "LOST "))
    p += 5;
  digits = p;
  while (p < end && is_digit (*p))
    p++;
  *count = TW_LOST_COUNT_UNKNOWN;
  if (p > digits && (!parse_i64 (digits, p - digits, &n) || n <= 0))
    return FALSE;
  if (p > digits)
    *count = n;
  if (p > digits && digits[-1] == ' ' && span_equals (p, end - p, " EVENTS]"))
    return TRUE;
  return span_equals (p, end - p, p > digits ? " EVENTS DROPPED]" : "EVENTS DROPPED]")
         && (p == digits || digits[-1] == '[');
}

/* Lines that carry no event and are not errors. */
static gboolean
is_header_line (Parser     *self,
                const char *s,
                const char *end)
{
  gint64 n;

  if (s == end)
    return TRUE;
  if (*s == '#')
    {
      if (span_has_prefix (s, end, "# tracer:"))
        self->saw_tracefs_header = TRUE;
      return TRUE;
    }
  if (span_has_prefix (s, end, "cpus=") && parse_i64 (s + 5, end - s - 5, &n))
    {
      self->saw_report_header = TRUE;
      if (n > 0 && self->trace != NULL)
        tw_trace_note_cpu (self->trace, MIN (n, MAX_CPU_INDEX + 1) - 1);
      return TRUE;
    }
  if (span_has_prefix (s, end, "version = ") && parse_i64 (s + 10, end - s - 10, &n))
    return TRUE;
  if (span_has_prefix (s, end, "CPU ") && end - s > 13
      && memcmp (end - 9, " is empty", 9) == 0)
    return TRUE;
  /* the summary `trace-cmd report -w` prints after the events */
  if (span_has_prefix (s, end, "Average wakeup latency: ")
      || span_has_prefix (s, end, "Maximum Latency: ")
      || span_has_prefix (s, end, "Minimum Latency: ")
      || (end - s == 16 && memcmp (s, "RT task timings:", 16) == 0))
    return TRUE;
  return FALSE;
}

static const char *
line_end (const char *s,
          const char *end)
{
  const char *nl = memchr (s, '\n', end - s);

  return nl ? nl : end;
}

static const char *
strip_cr (const char *s,
          const char *eol)
{
  return eol > s && eol[-1] == '\r' ? eol - 1 : eol;
}

static gboolean
is_continuation (const char *s,
                 const char *eol)
{
  s = skip_spaces (s, eol);
  return eol - s >= 2 && s[0] == '=' && s[1] == '>';
}

static void
parser_clear (Parser *self)
{
  g_clear_pointer (&self->types, g_hash_table_unref);
  g_clear_pointer (&self->payload, g_free);
  _tw_kernel_tasks_clear (&self->tasks);
  _tw_string_cache_clear (&self->strings);
  if (self->scratch)
    g_string_free (g_steal_pointer (&self->scratch), TRUE);
  if (self->overflow)
    g_string_free (g_steal_pointer (&self->overflow), TRUE);
  g_clear_pointer (&self->pending_lost, g_array_unref);
}

/**
 * _tw_ftrace_text_parse_buffer:
 * @trace: the trace to append to (not sealed here)
 * @path: the name used in messages
 * @data: (array length=len): the text, not necessarily NUL-terminated
 * @progress: (nullable) (scope call): progress, every few thousand lines
 *
 * Returns: %FALSE with @error naming @path and the line on failure
 */
gboolean
_tw_ftrace_text_parse_buffer (TwTrace         *trace,
                              const char      *path,
                              const char      *data,
                              gsize            len,
                              TwProgressFunc   progress,
                              gpointer         progress_data,
                              GCancellable    *cancellable,
                              GError         **error)
{
  Parser self = { 0 };
  const char *pos = data;
  const char *end = data + len;
  TwEventChunk *chunk;
  guint64 line_no = 0;
  guint64 n_events = 0;
  guint since_progress = 0;
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  self.trace = trace;
  self.path = path;
  self.lost_type = TW_TYPE_NONE;
  self.types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, ftrace_type_free);
  _tw_kernel_tasks_init (&self.tasks, trace);
  self.scratch = g_string_sized_new (256);
  self.overflow = g_string_sized_new (256);
  self.payload_cap = 64;
  self.payload = g_malloc (self.payload_cap);
  _tw_string_cache_init (&self.strings, trace);

  chunk = tw_trace_begin_append (trace);

  while (pos < end)
    {
      const char *eol = line_end (pos, end);
      const char *stop = strip_cr (pos, eol);
      const char *s = skip_spaces (pos, stop);
      guint64 this_line = ++line_no;
      gboolean unterminated = eol == end;
      EventLine line;
      GError *local_error = NULL;
      guint lost_cpu;
      guint64 lost_count;

      if (G_UNLIKELY (++since_progress == PROGRESS_LINES))
        {
          since_progress = 0;
          tw_trace_end_append (trace);
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto out;
          if (progress)
            progress ((double) (pos - data) / len, progress_data);
        }

      pos = eol < end ? eol + 1 : end;

      if (is_header_line (&self, s, stop))
        continue;

      if (!is_continuation (s, stop) && parse_event_line (s, stop, &line))
        {
          const char *text_end = line.text_end;
          guint n_continuation = 0;
          gboolean took_continuation = FALSE;
          gboolean cut = FALSE;

          /* a stack trace's `=> func` lines belong to the event above them */
          while (pos < end && is_continuation (pos, end))
            {
              const char *next_eol = line_end (pos, end);

              text_end = strip_cr (pos, next_eol);
              pos = next_eol < end ? next_eol + 1 : end;
              line_no++;
              n_continuation++;
            }

          if (handle_event (&self, &chunk, &line, text_end, &took_continuation, &cut, &local_error))
            {
              n_events++;
              if (cut || (unterminated && n_continuation == 0))
                {
                  if (self.truncated++ == 0)
                    self.first_truncated_line = this_line;
                }
              if (n_continuation > 0 && !took_continuation)
                {
                  /* only a free-text event can hold them */
                  if (self.skipped == 0)
                    self.first_skipped_line = this_line + 1;
                  self.skipped += n_continuation;
                }
              continue;
            }
          if (local_error)
            {
              g_propagate_prefixed_error (error, local_error, "%s: line %" G_GUINT64_FORMAT ": ",
                                          path, this_line);
              goto out;
            }
          /* the whole block is skipped: the event and its continuation lines */
          if (self.skipped == 0 && n_events > 0)
            self.first_skipped_line = this_line;
          if (n_events > 0 || self.skipped > 0)
            self.skipped += n_continuation;
        }

      if (parse_lost_line (s, stop, &lost_cpu, &lost_count))
        {
          if (!note_lost (&self, lost_cpu, lost_count, &local_error))
            {
              g_propagate_prefixed_error (error, local_error, "%s: line %" G_GUINT64_FORMAT ": ",
                                          path, this_line);
              goto out;
            }
          continue;
        }
      if (n_events == 0 && self.skipped == 0)
        {
          g_autofree char *shown = g_strndup (s, MIN (stop - s, 80));

          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, path, this_line,
                                       "not an ftrace event line: “%s”", shown);
          goto out;
        }
      if (self.skipped++ == 0)
        self.first_skipped_line = this_line;
    }

  if (n_events == 0 && !self.saw_tracefs_header && !self.saw_report_header)
    {
      tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, path, MAX (line_no, 1),
                                   "no ftrace events and no trace-cmd or tracefs header");
      goto out;
    }

  if (self.skipped > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self.skipped);
      g_autofree char *first = g_strdup_printf ("%" G_GUINT64_FORMAT, self.first_skipped_line);

      tw_trace_set_metadata (trace, "skipped_lines", n);
      tw_trace_set_metadata (trace, "first_skipped_line", first);
    }
  if (self.truncated > 0)
    {
      g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, self.truncated);
      g_autofree char *first = g_strdup_printf ("%" G_GUINT64_FORMAT, self.first_truncated_line);

      tw_trace_set_metadata (trace, "truncated_events", n);
      tw_trace_set_metadata (trace, "first_truncated_line", first);
    }
  /* losses that no later event of their CPU made known end the trace */
  for (guint c = 0; self.pending_lost && c < self.pending_lost->len; c++)
    flush_lost (&self, &chunk, c, self.last_time);
  tw_trace_set_metadata (trace, "ftrace_source",
                         self.saw_report_header ? "trace-cmd report"
                         : self.saw_tracefs_header ? "tracefs trace" : "ftrace text");
  tw_trace_set_metadata (trace, "time_origin", "absolute kernel trace clock");

  if (progress)
    progress (1.0, progress_data);
  ok = TRUE;

out:
  tw_trace_end_append (trace);
  parser_clear (&self);
  return ok;
}

/* ---------------------------------------------------------------- the reader */

/* trace-cmd report opens with `cpus=N`, tracefs with `# tracer:`; otherwise, the file
 * is ours as far as its first lines are ftrace event lines. */
static guint
tw_ftrace_text_reader_probe (const char   *path,
                             const guint8 *head,
                             gsize         head_len)
{
  const char *s = (const char *) head;
  const char *end = s + head_len;
  Parser dummy = { 0 };
  guint lost_cpu;
  guint64 lost_count;
  guint n_lines = 0;
  guint n_events = 0;
  guint n_bad = 0;

  if (head_len == 0 || memchr (head, '\0', head_len) != NULL)
    return 0;

  while (s < end && n_lines < 64)
    {
      const char *eol = memchr (s, '\n', end - s);
      const char *stop;
      EventLine line;

      if (eol == NULL)
        break;  /* a partial last line says nothing */
      stop = strip_cr (s, eol);
      s = skip_spaces (s, stop);
      n_lines++;
      if (is_continuation (s, stop))
        ;
      else if (is_header_line (&dummy, s, stop) || parse_lost_line (s, stop, &lost_cpu, &lost_count))
        ;
      else if (parse_event_line (s, stop, &line))
        n_events++;
      else
        n_bad++;
      s = eol + 1;
    }

  if ((dummy.saw_report_header || dummy.saw_tracefs_header) && n_bad <= n_events)
    return n_events > 0 || n_bad == 0 ? 100 : 60;
  if (n_events > 0 && n_bad == 0)
    return 90;
  if (n_events > n_bad)
    return 50;
  return 0;
}

const TwReaderInfo tw_ftrace_text_reader_info = {
  .name = "ftrace-text",
  .label = "ftrace text",
  .description = "Linux ftrace text (trace-cmd report, /sys/kernel/tracing/trace)",
  .suffixes = (const char *const[]) { "txt", "report", "trace", NULL },
  .probe = tw_ftrace_text_reader_probe,
  .parse = _tw_ftrace_text_parse_buffer,
};
