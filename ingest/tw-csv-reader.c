/* tw-csv-reader.c: CSV events, one event per line (docs/csv-format.md)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-csv-reader-private.h"
#include "tw-gtop-types.h"
#include "tw-kernel-common-private.h"

#include <errno.h>
#include <string.h>

/*
 * Two passes over the mapped file. An event type's schema must be fixed before its first
 * row is stored, and which argument columns a type has, and whether a column holds only
 * integers for that type, is only known after the last row. Pass 1 only splits records
 * and classifies cells; pass 2 stores. Records are unescaped into one reused buffer, so
 * neither pass allocates per line.
 */

#define CHECK_EVERY 4096
#define PASS1_SHARE 0.3

/* ---------------------------------------------------------------- splitting records */

typedef struct {
  guint32  start;  /* offset of the NUL-terminated text in the record buffer */
  guint32  len;
  gboolean quoted;
} Cell;

typedef struct {
  const char *path;        /* for messages */
  const char *p;
  const char *end;
  guint64     line;        /* 1-based physical line at p */
  guint64     record_line; /* line where the current record starts */
  char       *buf;
  gsize       buf_len;
  gsize       buf_cap;
  Cell       *cells;
  guint       n_cells;
  guint       cells_cap;
} Lexer;

static void
lexer_init (Lexer      *lx,
            const char *path,
            const char *data,
            gsize       len)
{
  memset (lx, 0, sizeof *lx);
  lx->path = path;
  lx->p = data;
  lx->end = data + len;
  lx->line = 1;
  /* A UTF-8 byte order mark, as spreadsheet programs write, is not part of the header. */
  if (len >= 3 && memcmp (data, "\xEF\xBB\xBF", 3) == 0)
    lx->p += 3;
}

static void
lexer_clear (Lexer *lx)
{
  g_clear_pointer (&lx->buf, g_free);
  g_clear_pointer (&lx->cells, g_free);
}

static inline void
lexer_reserve (Lexer *lx,
               gsize  more)
{
  if G_UNLIKELY (lx->buf_len + more > lx->buf_cap)
    {
      lx->buf_cap = MAX (lx->buf_cap * 2, lx->buf_len + more + 256);
      lx->buf = g_realloc (lx->buf, lx->buf_cap);
    }
}

static inline gboolean
is_blank (char c)
{
  return c == ' ' || c == '\t';
}

static void
lexer_fail_nul (Lexer   *lx,
                GError **error)
{
  tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, lx->path, lx->line,
                               "NUL byte: this is not a CSV text file");
}

static gboolean
lexer_end_cell (Lexer    *lx,
                guint32   start,
                gboolean  quoted,
                GError  **error)
{
  Cell *cell;

  if G_UNLIKELY (lx->buf_len >= G_MAXUINT32)
    {
      tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, lx->path, lx->record_line,
                                   "record longer than 4 GiB");
      return FALSE;
    }
  lexer_reserve (lx, 1);
  lx->buf[lx->buf_len++] = '\0';

  if G_UNLIKELY (lx->n_cells == lx->cells_cap)
    {
      lx->cells_cap = MAX (16, lx->cells_cap * 2);
      lx->cells = g_renew (Cell, lx->cells, lx->cells_cap);
    }
  cell = &lx->cells[lx->n_cells++];
  cell->start = start;
  cell->len = lx->buf_len - 1 - start;
  cell->quoted = quoted;
  return TRUE;
}

/* Reads the next record (skipping blank and comment lines) into lx->cells.
 * Returns 1 for a record, 0 at the end, -1 with @error set. */
static int
lexer_next (Lexer   *lx,
            GError **error)
{
  const char *end = lx->end;
  const char *p = lx->p;

  for (;;)
    {
      const char *q = p;

      while (q < end && (is_blank (*q) || *q == '\r'))
        q++;
      if (q == end)
        {
          lx->p = end;
          return 0;
        }
      if (*q == '\n')
        {
          p = q + 1;
          lx->line++;
          continue;
        }
      if (*q == '#')
        {
          const char *nl = memchr (q, '\n', end - q);

          if (nl == NULL)
            {
              lx->p = end;
              return 0;
            }
          p = nl + 1;
          lx->line++;
          continue;
        }
      break;
    }

  lx->record_line = lx->line;
  lx->buf_len = 0;
  lx->n_cells = 0;

  for (;;)
    {
      guint32 start = lx->buf_len;

      while (p < end && is_blank (*p))
        p++;

      if (p < end && *p == '"')
        {
          /* RFC 4180: commas, newlines and doubled quotes inside quotes are text. */
          p++;
          for (;;)
            {
              char c;

              if G_UNLIKELY (p >= end)
                {
                  tw_reader_set_error_at_line (error, TW_READER_ERROR_TRUNCATED, lx->path,
                                               lx->record_line,
                                               "quoted cell not closed before the end of the file");
                  return -1;
                }
              c = *p;
              if (c == '"')
                {
                  if (p + 1 < end && p[1] == '"')
                    {
                      lexer_reserve (lx, 1);
                      lx->buf[lx->buf_len++] = '"';
                      p += 2;
                      continue;
                    }
                  p++;
                  break;
                }
              if G_UNLIKELY (c == '\0')
                {
                  lexer_fail_nul (lx, error);
                  return -1;
                }
              if (c == '\n')
                lx->line++;
              lexer_reserve (lx, 1);
              lx->buf[lx->buf_len++] = c;
              p++;
            }
          while (p < end && (is_blank (*p) || *p == '\r'))
            p++;
          if G_UNLIKELY (p < end && *p != ',' && *p != '\n')
            {
              tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, lx->path, lx->line,
                                           "unexpected “%c” after the closing quote of cell %u "
                                           "(a quote inside a quoted cell is written \"\")",
                                           g_ascii_isprint (*p) ? *p : '?', lx->n_cells + 1);
              return -1;
            }
          if (!lexer_end_cell (lx, start, TRUE, error))
            return -1;
        }
      else
        {
          const char *s = p;
          const char *e;

          while (p < end && *p != ',' && *p != '\n')
            {
              if G_UNLIKELY (*p == '\0')
                {
                  lexer_fail_nul (lx, error);
                  return -1;
                }
              p++;
            }
          e = p;
          while (e > s && (is_blank (e[-1]) || e[-1] == '\r'))
            e--;
          lexer_reserve (lx, (e - s) + 1);
          memcpy (lx->buf + lx->buf_len, s, e - s);
          lx->buf_len += e - s;
          if (!lexer_end_cell (lx, start, FALSE, error))
            return -1;
        }

      if (p >= end)
        break;
      if (*p == ',')
        {
          p++;
          continue;
        }
      /* *p == '\n' */
      p++;
      lx->line++;
      break;
    }

  lx->p = p;
  return 1;
}

static inline const char *
cell_text (const Lexer *lx,
           guint        i)
{
  return lx->buf + lx->cells[i].start;
}

/* Missing trailing cells read as empty: see docs/csv-format.md, "Short lines". */
static inline gboolean
cell_is_empty (const Lexer *lx,
               guint        i)
{
  return i >= lx->n_cells || (lx->cells[i].len == 0 && !lx->cells[i].quoted);
}

/* ---------------------------------------------------------------- numbers */

/* Parses [+-]digits or 0x hexdigits. *negative tells the sign; *magnitude the absolute
 * value. FALSE when the text is not such an integer or does not fit 64 bits. */
static gboolean
parse_integer (const char *s,
               gsize       len,
               gboolean   *negative,
               gboolean   *hex,
               guint64    *magnitude)
{
  const char *end = s + len;
  guint64 v = 0;

  *negative = FALSE;
  *hex = FALSE;
  if (s == end)
    return FALSE;

  if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    {
      s += 2;
      *hex = TRUE;
      for (; s < end; s++)
        {
          int d = g_ascii_xdigit_value (*s);

          if (d < 0 || v > (G_MAXUINT64 >> 4))
            return FALSE;
          v = (v << 4) | (guint) d;
        }
      *magnitude = v;
      return TRUE;
    }

  if (*s == '-' || *s == '+')
    {
      *negative = *s == '-';
      s++;
      if (s == end)
        return FALSE;
    }
  for (; s < end; s++)
    {
      guint d = (guint) (*s - '0');

      if (d > 9)
        return FALSE;
      if (v > G_MAXUINT64 / 10 || (v == G_MAXUINT64 / 10 && d > G_MAXUINT64 % 10))
        return FALSE;
      v = v * 10 + d;
    }
  *magnitude = v;
  return TRUE;
}

/* Decimal fractions and exponents ("1.5", "-2e-3", ".5"); no "inf", "nan" or hex floats,
 * which are more often names than numbers in a CSV. */
static gboolean
is_decimal_float (const char *s,
                  gsize       len)
{
  const char *end = s + len;
  guint digits = 0;

  if (s < end && (*s == '-' || *s == '+'))
    s++;
  while (s < end && g_ascii_isdigit (*s))
    s++, digits++;
  if (s < end && *s == '.')
    {
      s++;
      while (s < end && g_ascii_isdigit (*s))
        s++, digits++;
    }
  if (digits == 0)
    return FALSE;
  if (s < end && (*s == 'e' || *s == 'E'))
    {
      guint exp_digits = 0;

      s++;
      if (s < end && (*s == '-' || *s == '+'))
        s++;
      while (s < end && g_ascii_isdigit (*s))
        s++, exp_digits++;
      if (exp_digits == 0)
        return FALSE;
    }
  return s == end;
}

/* ---------------------------------------------------------------- columns and types */

typedef enum {
  COL_TIME,
  COL_CPU,
  COL_TASK,
  COL_EVENT,
  COL_KIND,
  COL_TASK_NAME,
  COL_TASK_PID,
  COL_TASK_TID,
  COL_TASK_IDLE,
  COL_HOST,
  COL_ARG,
} ColumnRole;

static const char * const reserved_columns[] = {
  [COL_TIME] = "time_ns",
  [COL_CPU] = "cpu",
  [COL_TASK] = "task",
  [COL_EVENT] = "event",
  [COL_KIND] = "kind",
  [COL_TASK_NAME] = "task_name",
  [COL_TASK_PID] = "task_pid",
  [COL_TASK_TID] = "task_tid",
  [COL_TASK_IDLE] = "task_idle",
  [COL_HOST] = "host",
};

/* Canonical argument columns, by the kind whose core `arg` they fill. */
typedef enum {
  CANON_NEXT,
  CANON_PREV,
  CANON_TARGET,
  CANON_IRQ,
  CANON_VEC,
  CANON_ID,
  CANON_MUTEX,
  CANON_SENSOR,
  N_CANON
} CanonColumn;

static const char * const canon_names[N_CANON] = {
  "next", "prev", "target", "irq", "vec", "id", "mutex", "sensor",
};

/**
 * _tw_csv_column_is_reserved:
 *
 * Returns: %TRUE when a header cell @name has a meaning of its own, so an argument of
 *   that name must be written as "arg:NAME"
 */
gboolean
_tw_csv_column_is_reserved (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (reserved_columns); i++)
    if (strcmp (name, reserved_columns[i]) == 0)
      return TRUE;
  return g_str_has_prefix (name, TW_CSV_ARG_PREFIX);
}

/**
 * _tw_csv_kind_column_for:
 *
 * Returns: (nullable): the argument column that fills the core `arg` of @kind
 */
const char *
_tw_csv_kind_column_for (TwEventKind kind)
{
  switch (kind)
    {
    case TW_EVENT_KIND_SWITCH:        return canon_names[CANON_NEXT];
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_TASK_EXIT:     return canon_names[CANON_TARGET];
    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:      return canon_names[CANON_IRQ];
    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:  return canon_names[CANON_VEC];
    case TW_EVENT_KIND_USER:          return canon_names[CANON_ID];
    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:    return canon_names[CANON_MUTEX];
    case TW_EVENT_KIND_SENSOR:        return canon_names[CANON_SENSOR];
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:                          return NULL;
    }
}

/* Whether a canonical column names a task for events of @kind. */
static gboolean
canon_is_task (TwEventKind kind,
               CanonColumn canon)
{
  switch (kind)
    {
    case TW_EVENT_KIND_SWITCH:
      return canon == CANON_NEXT || canon == CANON_PREV;
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_TASK_EXIT:
      return canon == CANON_TARGET;
    default:
      return FALSE;
    }
}

typedef struct {
  ColumnRole  role;
  const char *arg_name;  /* for COL_ARG: the name without any "arg:" prefix */
  int         canon;     /* CanonColumn, or -1 */
} Column;

/* What pass 1 learnt about one argument column of one event name. */
enum {
  STAT_SEEN      = 1 << 0,
  STAT_NOT_INT   = 1 << 1,
  STAT_NOT_NUM   = 1 << 2,
  STAT_FLOAT     = 1 << 3,
  STAT_NEGATIVE  = 1 << 4,
  STAT_HEX       = 1 << 5,
  STAT_BIG       = 1 << 6,  /* > G_MAXINT64 */
};

typedef struct {
  char        *name;
  TwEventKind  kind;
  gboolean     kind_given;     /* a `kind` cell named it */
  guint64      kind_line;
  guint8      *stats;          /* per column */
  guint16      type;
  const TwEventType *event_type;
  int         *field_of;       /* per column: field index or -1 */
  int          canon_of[N_CANON]; /* field index of each canonical column, or -1 */
  int          state_column;   /* a switch's prev_state column, or -1 */
  gboolean     state_numeric;  /* its cells are all integers: the kernel's raw values */
} EventInfo;

static void
event_info_free (gpointer data)
{
  EventInfo *info = data;

  g_free (info->name);
  g_free (info->stats);
  g_free (info->field_of);
  g_free (info);
}

typedef struct {
  TwTrace        *trace;
  const char     *path;
  const char     *data;
  gsize           len;
  TwProgressFunc  progress;
  gpointer        progress_data;
  GCancellable   *cancellable;

  Column         *columns;
  guint           n_columns;
  int             col[COL_ARG];  /* column index of each reserved role, or -1 */
  int             canon_col[N_CANON];

  GHashTable     *events;        /* name → EventInfo */
  GPtrArray      *event_order;   /* EventInfo in first-seen order */
  EventInfo      *last_event;

  GHashTable     *tasks;         /* interned source id → task index + 1 */
  const char     *last_task_id;
  guint32         last_task;

  /* a trace of several machines (a `host` column): the line's host, or NULL; store CPUs
   * by (host string id << 16 | CPU on the host) + 1 */
  const char     *line_host;
  GHashTable     *host_cpus;
  guint64         max_plain_cpu;  /* + 1: CPUs of lines without a host */

  guint8         *payload;
  gsize           payload_cap;
} Parser;

static const char *
column_label (const Parser *ps,
              guint         column)
{
  const Column *c = &ps->columns[column];

  return c->role == COL_ARG ? c->arg_name : reserved_columns[c->role];
}

static void
parser_clear (Parser *ps)
{
  g_clear_pointer (&ps->columns, g_free);
  g_clear_pointer (&ps->events, g_hash_table_unref);
  g_clear_pointer (&ps->event_order, g_ptr_array_unref);
  g_clear_pointer (&ps->tasks, g_hash_table_unref);
  g_clear_pointer (&ps->host_cpus, g_hash_table_unref);
  g_clear_pointer (&ps->payload, g_free);
}

static gboolean
parse_header (Parser   *ps,
              Lexer    *lx,
              GError  **error)
{
  static const ColumnRole required[] = { COL_TIME, COL_CPU, COL_TASK, COL_EVENT };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  int r = lexer_next (lx, error);

  if (r < 0)
    return FALSE;
  if (r == 0)
    {
      tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->line,
                                   "no header line: the first line that is not a comment "
                                   "must name the columns, at least time_ns,cpu,task,event");
      return FALSE;
    }

  ps->n_columns = lx->n_cells;
  ps->columns = g_new0 (Column, ps->n_columns);
  for (guint i = 0; i < COL_ARG; i++)
    ps->col[i] = -1;
  for (guint i = 0; i < N_CANON; i++)
    ps->canon_col[i] = -1;

  for (guint i = 0; i < ps->n_columns; i++)
    {
      const char *name = cell_text (lx, i);
      Column *column = &ps->columns[i];

      if (!g_utf8_validate (name, lx->cells[i].len, NULL))
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path,
                                       lx->record_line, "column %u: name is not valid UTF-8",
                                       i + 1);
          return FALSE;
        }

      column->role = COL_ARG;
      column->canon = -1;
      for (guint k = 0; k < COL_ARG; k++)
        if (strcmp (name, reserved_columns[k]) == 0)
          column->role = k;
      column->arg_name = g_str_has_prefix (name, TW_CSV_ARG_PREFIX)
                         ? name + strlen (TW_CSV_ARG_PREFIX) : name;

      if (column->arg_name[0] == '\0')
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path,
                                       lx->record_line, "column %u has no name", i + 1);
          return FALSE;
        }
      /* Duplicates are judged by meaning: "irq" and "arg:irq" are the same argument. */
      if (column->role == COL_ARG ? !g_hash_table_add (seen, (gpointer) column->arg_name)
                                  : ps->col[column->role] >= 0)
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path,
                                       lx->record_line, "column “%s” appears twice", name);
          return FALSE;
        }

      if (column->role != COL_ARG)
        ps->col[column->role] = i;
      else
        for (guint c = 0; c < N_CANON; c++)
          if (strcmp (column->arg_name, canon_names[c]) == 0)
            {
              column->canon = c;
              ps->canon_col[c] = i;
            }
    }

  for (guint i = 0; i < G_N_ELEMENTS (required); i++)
    if (ps->col[required[i]] < 0)
      {
        tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                                     "no “%s” column (the header must name time_ns, cpu, "
                                     "task and event)", reserved_columns[required[i]]);
        return FALSE;
      }
  return TRUE;
}

static gboolean
report_progress (Parser   *ps,
                 Lexer    *lx,
                 double    base,
                 double    share,
                 GError  **error)
{
  if (g_cancellable_set_error_if_cancelled (ps->cancellable, error))
    return FALSE;
  if (ps->progress && ps->len > 0)
    ps->progress (base + share * (double) (lx->p - ps->data) / (double) ps->len,
                  ps->progress_data);
  return TRUE;
}

static guint8
classify_cell (const char *s,
               gsize       len,
               gboolean    quoted)
{
  gboolean negative, hex;
  guint64 magnitude;

  /* A quoted cell is text even when it looks like a number ("007", "42"). */
  if (quoted)
    return STAT_SEEN | STAT_NOT_INT | STAT_NOT_NUM;
  if (parse_integer (s, len, &negative, &hex, &magnitude))
    {
      if (negative && magnitude > (guint64) G_MAXINT64 + 1)
        return STAT_SEEN | STAT_NOT_INT | STAT_FLOAT;
      return STAT_SEEN | (negative ? STAT_NEGATIVE : 0) | (hex ? STAT_HEX : 0)
             | (!negative && magnitude > G_MAXINT64 ? STAT_BIG : 0);
    }
  if (is_decimal_float (s, len))
    return STAT_SEEN | STAT_NOT_INT | STAT_FLOAT;
  return STAT_SEEN | STAT_NOT_INT | STAT_NOT_NUM;
}

static gboolean
parse_kind_cell (Parser       *ps,
                 Lexer        *lx,
                 const char   *text,
                 TwEventKind  *kind,
                 GError      **error)
{
  if (strcmp (text, "other") == 0)
    {
      *kind = TW_EVENT_KIND_OTHER;
      return TRUE;
    }
  if (tw_event_kind_from_string (text, kind))
    return TRUE;
  tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                               "column “kind”: “%s” is not a kind (switch, wakeup, irq_entry, "
                               "irq_exit, softirq_entry, softirq_exit, task_create, task_exit, "
                               "user, mutex_lock, mutex_unlock, mutex_wait, sensor, other)",
                               text);
  return FALSE;
}

/* Most exports are plain ASCII: one vectorisable pass spares a UTF-8 check per cell. */
static gboolean
is_ascii (const char *s,
          gsize       len)
{
  guint8 high = 0;

  for (gsize i = 0; i < len; i++)
    high |= (guint8) s[i];
  return high < 0x80;
}

static EventInfo *
lookup_event (Parser     *ps,
              const char *name)
{
  if (ps->last_event && strcmp (ps->last_event->name, name) == 0)
    return ps->last_event;
  ps->last_event = g_hash_table_lookup (ps->events, name);
  return ps->last_event;
}

static gboolean
parse_unsigned_cell (Lexer   *lx,
                     guint    column,
                     guint64  max,
                     guint64 *value)
{
  gboolean negative, hex;

  return parse_integer (cell_text (lx, column), lx->cells[column].len, &negative, &hex, value)
         && !negative && !hex && *value <= max;
}

/* Pass 1: check the structure of every record and learn each event name's columns. */
static gboolean
survey (Parser   *ps,
        Lexer    *lx,
        GError  **error)
{
  guint64 records = 0;
  int r;

  while ((r = lexer_next (lx, error)) > 0)
    {
      const char *name;
      EventInfo *info;

      if (++records % CHECK_EVERY == 0 && !report_progress (ps, lx, 0.0, PASS1_SHARE, error))
        return FALSE;

      if (lx->n_cells > ps->n_columns)
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                                       "%u cells but the header names %u columns",
                                       lx->n_cells, ps->n_columns);
          return FALSE;
        }
      if (!is_ascii (lx->buf, lx->buf_len))
        for (guint i = 0; i < lx->n_cells; i++)
          if (!g_utf8_validate (cell_text (lx, i), lx->cells[i].len, NULL))
            {
              tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path,
                                           lx->record_line, "column “%s”: not valid UTF-8",
                                           column_label (ps, i));
              return FALSE;
            }

      if (cell_is_empty (lx, ps->col[COL_EVENT]) || lx->cells[ps->col[COL_EVENT]].len == 0)
        {
          tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                                       "column “event” is empty");
          return FALSE;
        }
      name = cell_text (lx, ps->col[COL_EVENT]);

      if (!(info = lookup_event (ps, name)))
        {
          info = g_new0 (EventInfo, 1);
          info->name = g_strdup (name);
          info->stats = g_new0 (guint8, ps->n_columns);
          if (!tw_event_kind_from_string (name, &info->kind))
            info->kind = TW_EVENT_KIND_OTHER;
          g_hash_table_insert (ps->events, info->name, info);
          g_ptr_array_add (ps->event_order, info);
          ps->last_event = info;
        }

      if (ps->col[COL_KIND] >= 0 && !cell_is_empty (lx, ps->col[COL_KIND]))
        {
          TwEventKind kind;

          if (!parse_kind_cell (ps, lx, cell_text (lx, ps->col[COL_KIND]), &kind, error))
            return FALSE;
          if (info->kind_given && kind != info->kind)
            {
              tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path,
                                           lx->record_line,
                                           "column “kind”: event “%s” is %s here but %s on "
                                           "line %" G_GUINT64_FORMAT, name,
                                           tw_event_kind_to_string (kind),
                                           tw_event_kind_to_string (info->kind),
                                           info->kind_line);
              return FALSE;
            }
          info->kind = kind;
          info->kind_given = TRUE;
          info->kind_line = lx->record_line;
        }

      if (ps->col[COL_HOST] >= 0 && cell_is_empty (lx, ps->col[COL_HOST])
          && !cell_is_empty (lx, ps->col[COL_CPU]))
        {
          guint64 cpu;

          /* a bad number is the store pass's error, with its message */
          if (parse_unsigned_cell (lx, ps->col[COL_CPU], TW_CPU_NONE - 1, &cpu))
            ps->max_plain_cpu = MAX (ps->max_plain_cpu, cpu + 1);
        }

      for (guint i = 0; i < lx->n_cells; i++)
        if (ps->columns[i].role == COL_ARG && !cell_is_empty (lx, i))
          info->stats[i] |= classify_cell (cell_text (lx, i), lx->cells[i].len,
                                           lx->cells[i].quoted);
    }
  return r == 0;
}

/* A switch's prev_state keeps its text, whatever it looks like: it is interned with the
 * task state it names (intern_prev_state()). */
static gboolean
is_state_column (const Column *column,
                 TwEventKind   kind)
{
  return kind == TW_EVENT_KIND_SWITCH && strcmp (column->arg_name, "prev_state") == 0;
}

static TwFieldSpec
field_spec_for (const Column *column,
                TwEventKind   kind,
                guint8        stats)
{
  TwFieldSpec spec = { column->arg_name, TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL };

  if (is_state_column (column, kind))
    return spec;
  if (column->canon >= 0 && canon_is_task (kind, column->canon))
    {
      spec.type = TW_FIELD_U32;
      spec.flags |= TW_FIELD_FLAG_TASK;
    }
  else if (!(stats & STAT_NOT_INT))
    {
      if ((stats & STAT_HEX) && !(stats & STAT_NEGATIVE))
        {
          spec.type = TW_FIELD_U64;
          spec.flags |= TW_FIELD_FLAG_HEX;
        }
      else if (!(stats & STAT_BIG))
        spec.type = TW_FIELD_I64;
      else if (!(stats & STAT_NEGATIVE))
        spec.type = TW_FIELD_U64;
    }
  else if (!(stats & STAT_NOT_NUM) && !(stats & STAT_HEX))
    spec.type = TW_FIELD_F64;
  return spec;
}

static gboolean
create_types (Parser   *ps,
              GError  **error)
{
  g_autofree TwFieldSpec *specs = g_new0 (TwFieldSpec, MAX (ps->n_columns, 1));
  gsize max_payload = 0;

  for (guint e = 0; e < ps->event_order->len; e++)
    {
      EventInfo *info = ps->event_order->pdata[e];
      g_autoptr(GError) local_error = NULL;
      guint n_fields = 0;

      info->field_of = g_new (int, MAX (ps->n_columns, 1));
      for (guint c = 0; c < N_CANON; c++)
        info->canon_of[c] = -1;
      info->state_column = -1;

      for (guint i = 0; i < ps->n_columns; i++)
        {
          info->field_of[i] = -1;
          if (ps->columns[i].role != COL_ARG || !(info->stats[i] & STAT_SEEN))
            continue;
          if (ps->columns[i].canon >= 0)
            info->canon_of[ps->columns[i].canon] = n_fields;
          if (is_state_column (&ps->columns[i], info->kind))
            {
              info->state_column = i;
              info->state_numeric = !(info->stats[i] & STAT_NOT_INT);
            }
          info->field_of[i] = n_fields;
          specs[n_fields] = field_spec_for (&ps->columns[i], info->kind, info->stats[i]);
          /* a recorded libgtop session: its load and memory are counters again */
          specs[n_fields++].flags |= tw_gtop_field_flags (info->name, ps->columns[i].arg_name);
        }

      info->type = tw_trace_add_event_type (ps->trace, info->name, NULL, info->kind,
                                            specs, n_fields, &local_error);
      if (info->type == TW_TYPE_NONE)
        {
          g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID, "%s: %s", ps->path,
                       local_error->message);
          return FALSE;
        }
      info->event_type = tw_trace_get_event_type (ps->trace, info->type);

      /* The trace may already hold a type of this name (a second file read into it):
       * its payload layout must be the one the cells are packed into. */
      for (guint f = 0; f < n_fields; f++)
        if (strcmp (info->event_type->fields[f].name, specs[f].name) != 0
            || info->event_type->fields[f].type != specs[f].type
            || info->event_type->fields[f].flags != specs[f].flags)
          {
            g_set_error (error, TW_READER_ERROR, TW_READER_ERROR_INVALID,
                         "%s: event type “%s” already exists with other arguments", ps->path,
                         info->name);
            return FALSE;
          }
      max_payload = MAX (max_payload, info->event_type->payload_size);
    }

  ps->payload_cap = MAX (max_payload, 1);
  ps->payload = g_malloc0 (ps->payload_cap);
  return TRUE;
}

static guint32
lookup_task (Parser     *ps,
             const char *source_id)
{
  gpointer found;
  guint32 task;

  if (ps->last_task_id && strcmp (ps->last_task_id, source_id) == 0)
    return ps->last_task;

  if ((found = g_hash_table_lookup (ps->tasks, source_id)))
    task = GPOINTER_TO_UINT (found) - 1;
  else
    {
      task = tw_trace_add_task (ps->trace, source_id, NULL, -1, -1);
      /* a task belongs to the machine of the line that first names it */
      if (ps->line_host)
        tw_trace_set_task_host (ps->trace, task, ps->line_host);
      g_hash_table_insert (ps->tasks, (gpointer) tw_trace_get_task (ps->trace, task)->source_id,
                           GUINT_TO_POINTER (task + 1));
    }
  ps->last_task_id = tw_trace_get_task (ps->trace, task)->source_id;
  ps->last_task = task;
  return task;
}

static gboolean
fail_cell (Parser     *ps,
           Lexer      *lx,
           guint       column,
           const char *what,
           GError    **error)
{
  tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                               "column “%s”: “%s” is not %s", column_label (ps, column),
                               cell_text (lx, column), what);
  return FALSE;
}

static gboolean
parse_signed_cell (Lexer  *lx,
                   guint   column,
                   gint64 *value)
{
  gboolean negative, hex;
  guint64 magnitude;

  if (!parse_integer (cell_text (lx, column), lx->cells[column].len, &negative, &hex, &magnitude))
    return FALSE;
  if (negative ? magnitude > (guint64) G_MAXINT64 + 1 : magnitude > G_MAXINT64)
    return FALSE;
  *value = negative ? (gint64) (0 - magnitude) : (gint64) magnitude;
  return TRUE;
}

/* A switch's prev_state: letters as ftrace spells them (docs/csv-format.md), or in a
 * column of integers the kernel's raw value, where 0 is a task still runnable. */
static guint32
intern_prev_state (Parser          *ps,
                   const EventInfo *info,
                   const char      *text,
                   gsize            len)
{
  gboolean negative, hex;
  guint64 raw;

  if (info->state_numeric && parse_integer (text, len, &negative, &hex, &raw))
    return tw_trace_intern_task_state (ps->trace, text, raw == 0 ? TW_TASK_STATE_READY
                                                                 : TW_TASK_STATE_BLOCKED);
  return tw_trace_intern_task_state (ps->trace, text, _tw_kernel_task_state (text));
}

static gboolean
fill_field (Parser            *ps,
            Lexer             *lx,
            const EventInfo   *info,
            guint              field,
            guint              column,
            GError           **error)
{
  const TwEventType *type = info->event_type;
  const char *text = cell_text (lx, column);
  TwValue value = { .type = type->fields[field].type };
  gboolean negative, hex;
  guint64 magnitude;

  if (type->fields[field].flags & TW_FIELD_FLAG_TASK)
    value.u = lookup_task (ps, text);
  else
    switch (value.type)
      {
      case TW_FIELD_I64:
        if (!parse_signed_cell (lx, column, &value.i))
          return fail_cell (ps, lx, column, "an integer", error);
        break;
      case TW_FIELD_U64:
        if (!parse_integer (text, lx->cells[column].len, &negative, &hex, &magnitude) || negative)
          return fail_cell (ps, lx, column, "a non-negative integer", error);
        value.u = magnitude;
        break;
      case TW_FIELD_F64:
        value.f = g_ascii_strtod (text, NULL);
        break;
      case TW_FIELD_STRING:
        value.str = (int) column == info->state_column
                    ? intern_prev_state (ps, info, text, lx->cells[column].len)
                    : tw_trace_intern_string (ps->trace, text);
        break;
      case TW_FIELD_U8:
      case TW_FIELD_U16:
      case TW_FIELD_U32:
      case TW_FIELD_I32:
      default:
        g_assert_not_reached ();
      }
  tw_event_type_set_field (type, ps->payload, field, &value);
  return TRUE;
}

/* The core `arg` column of one row, per the table in tw-types.h. */
static gboolean
canonical_arg (Parser     *ps,
               Lexer      *lx,
               EventInfo  *info,
               guint32     task,
               guint32    *arg,
               GError    **error)
{
  int column = -1;
  guint64 value;

  switch (info->kind)
    {
    case TW_EVENT_KIND_SWITCH:
    case TW_EVENT_KIND_WAKEUP:
      column = ps->canon_col[info->kind == TW_EVENT_KIND_SWITCH ? CANON_NEXT : CANON_TARGET];
      *arg = column >= 0 && !cell_is_empty (lx, column)
             ? lookup_task (ps, cell_text (lx, column)) : TW_TASK_NONE;
      return TRUE;

    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_TASK_EXIT:
      column = ps->canon_col[CANON_TARGET];
      *arg = column >= 0 && !cell_is_empty (lx, column)
             ? lookup_task (ps, cell_text (lx, column)) : task;
      return TRUE;

    case TW_EVENT_KIND_SOFTIRQ_ENTRY:
    case TW_EVENT_KIND_SOFTIRQ_EXIT:
      column = ps->canon_col[CANON_VEC];
      if (column < 0 || cell_is_empty (lx, column))
        column = ps->canon_col[CANON_IRQ];
      break;

    case TW_EVENT_KIND_IRQ_ENTRY:
    case TW_EVENT_KIND_IRQ_EXIT:
      column = ps->canon_col[CANON_IRQ];
      break;

    case TW_EVENT_KIND_USER:
      column = ps->canon_col[CANON_ID];
      break;

    case TW_EVENT_KIND_SENSOR:
      column = ps->canon_col[CANON_SENSOR];
      break;

    case TW_EVENT_KIND_MUTEX_LOCK:
    case TW_EVENT_KIND_MUTEX_UNLOCK:
    case TW_EVENT_KIND_MUTEX_WAIT:
      column = ps->canon_col[CANON_MUTEX];
      if (column >= 0 && !cell_is_empty (lx, column))
        {
          gboolean negative, hex;

          /* Mutex ids are often addresses: keep the low 32 bits, as tw-types.h says. */
          if (lx->cells[column].quoted
              || !parse_integer (cell_text (lx, column), lx->cells[column].len,
                                 &negative, &hex, &value) || negative)
            return fail_cell (ps, lx, column, "a mutex id (a non-negative integer)", error);
          *arg = (guint32) value;
          return TRUE;
        }
      *arg = 0;
      return TRUE;

    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
    default:
      *arg = 0;
      return TRUE;
    }

  if (column < 0 || cell_is_empty (lx, column))
    {
      *arg = 0;
      return TRUE;
    }
  /* Hex is fine here: users copy irq numbers and ids from kernel logs ("0x1f"). */
  {
    gboolean negative, hex;

    if (lx->cells[column].quoted
        || !parse_integer (cell_text (lx, column), lx->cells[column].len, &negative, &hex, &value)
        || negative || value > G_MAXUINT32)
      return fail_cell (ps, lx, column, "a number from 0 to 4294967295", error);
  }
  *arg = (guint32) value;
  return TRUE;
}

/* `task_idle`: 1 makes the line's task its CPU's idle task (drawn as idle, never as
 * running), 0 makes it an ordinary task again; the last cell given wins. */
static gboolean
apply_task_idle (Parser   *ps,
                 Lexer    *lx,
                 guint32   task,
                 GError  **error)
{
  int column = ps->col[COL_TASK_IDLE];
  TwTaskFlags flags;
  guint64 idle;

  if (column < 0 || cell_is_empty (lx, column))
    return TRUE;
  if (lx->cells[column].quoted || !parse_unsigned_cell (lx, column, 1, &idle))
    return fail_cell (ps, lx, column, "1 (an idle task) or 0", error);
  flags = tw_trace_get_task (ps->trace, task)->flags;
  flags = idle ? flags | TW_TASK_FLAG_IDLE : flags & ~TW_TASK_FLAG_IDLE;
  tw_trace_set_task_flags (ps->trace, task, flags);
  return TRUE;
}

static gboolean
apply_task_columns (Parser   *ps,
                    Lexer    *lx,
                    guint32   task,
                    GError  **error)
{
  const TwTask *t;
  int column;

  if (task == TW_TASK_NONE
      || (ps->col[COL_TASK_NAME] < 0 && ps->col[COL_TASK_PID] < 0 && ps->col[COL_TASK_TID] < 0
          && ps->col[COL_TASK_IDLE] < 0))
    return TRUE;
  t = tw_trace_get_task (ps->trace, task);

  column = ps->col[COL_TASK_NAME];
  if (column >= 0 && !cell_is_empty (lx, column)
      && g_strcmp0 (t->name, cell_text (lx, column)) != 0)
    tw_trace_set_task_name (ps->trace, task, cell_text (lx, column));

  for (guint k = COL_TASK_PID; k <= COL_TASK_TID; k++)
    {
      gint64 id;

      column = ps->col[k];
      if (column < 0 || cell_is_empty (lx, column))
        continue;
      if (!parse_signed_cell (lx, column, &id) || id < 0)
        return fail_cell (ps, lx, column, "a process or thread id (a non-negative integer)",
                          error);
      if (k == COL_TASK_PID && id != t->pid)
        tw_trace_set_task_ids (ps->trace, task, id, t->tid);
      else if (k == COL_TASK_TID && id != t->tid)
        tw_trace_set_task_ids (ps->trace, task, t->pid, id);
    }
  return apply_task_idle (ps, lx, task, error);
}

/* The store CPU of CPU *@cpu of the line's host: CPU 0 of host A is not CPU 0 of B. */
static gboolean
host_cpu (Parser   *ps,
          Lexer    *lx,
          guint64  *cpu,
          GError  **error)
{
  guint64 key = (guint64) tw_trace_intern_string (ps->trace, ps->line_host) << 16 | *cpu;
  gpointer found;
  guint16 mapped;

  if (ps->host_cpus == NULL)
    ps->host_cpus = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  if ((found = g_hash_table_lookup (ps->host_cpus, &key)))
    {
      *cpu = GPOINTER_TO_UINT (found) - 1;
      return TRUE;
    }
  mapped = tw_trace_add_host_cpu (ps->trace, ps->line_host, (guint16) *cpu);
  if (mapped == TW_CPU_NONE)
    {
      tw_reader_set_error_at_line (error, TW_READER_ERROR_INVALID, ps->path, lx->record_line,
                                   "more than 65535 CPUs over all hosts");
      return FALSE;
    }
  g_hash_table_insert (ps->host_cpus, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (mapped + 1u));
  *cpu = mapped;
  return TRUE;
}

/* Pass 2: store every record. */
static gboolean
store (Parser   *ps,
       Lexer    *lx,
       GError  **error)
{
  TwEventChunk *chunk;
  guint64 records = 0;
  int r;

  /* the CPUs of lines without a host keep their numbers: hosts' CPUs come after them */
  if (ps->max_plain_cpu > 0)
    tw_trace_note_cpu (ps->trace, (guint16) (ps->max_plain_cpu - 1));
  chunk = tw_trace_begin_append (ps->trace);

  while ((r = lexer_next (lx, error)) > 0)
    {
      EventInfo *info = lookup_event (ps, cell_text (lx, ps->col[COL_EVENT]));
      const TwEventType *type = info->event_type;
      guint64 time_ns, cpu = TW_CPU_NONE;
      guint32 task = TW_TASK_NONE;
      guint32 arg = 0;
      int column;

      if (++records % CHECK_EVERY == 0)
        {
          tw_trace_end_append (ps->trace);
          if (!report_progress (ps, lx, PASS1_SHARE, 1.0 - PASS1_SHARE, error))
            return FALSE;
        }

      column = ps->col[COL_TIME];
      if (cell_is_empty (lx, column))
        return fail_cell (ps, lx, column, "a time (it is required)", error);
      if (!parse_unsigned_cell (lx, column, TW_TIME_NONE - 1, &time_ns))
        return fail_cell (ps, lx, column, "a time in ns (a non-negative decimal integer)", error);

      column = ps->col[COL_CPU];
      if (!cell_is_empty (lx, column) && !parse_unsigned_cell (lx, column, TW_CPU_NONE - 1, &cpu))
        return fail_cell (ps, lx, column, "a CPU number (0 to 65534)", error);

      column = ps->col[COL_HOST];
      ps->line_host = column >= 0 && !cell_is_empty (lx, column) && lx->cells[column].len > 0
                      ? cell_text (lx, column) : NULL;
      if (ps->line_host && cpu != TW_CPU_NONE && !host_cpu (ps, lx, &cpu, error))
        return FALSE;

      /* A switch's `prev` is the task switched out, which is what the task column means. */
      column = ps->canon_col[CANON_PREV];
      if (info->kind == TW_EVENT_KIND_SWITCH && column >= 0 && !cell_is_empty (lx, column))
        task = lookup_task (ps, cell_text (lx, column));
      else if (!cell_is_empty (lx, ps->col[COL_TASK]))
        task = lookup_task (ps, cell_text (lx, ps->col[COL_TASK]));

      if (!apply_task_columns (ps, lx, task, error))
        return FALSE;

      if (type->payload_size > 0)
        {
          memset (ps->payload, 0, type->payload_size);
          for (guint i = 0; i < lx->n_cells; i++)
            if (info->field_of[i] >= 0 && !cell_is_empty (lx, i)
                && !fill_field (ps, lx, info, info->field_of[i], i, error))
              return FALSE;
        }

      if (!canonical_arg (ps, lx, info, task, &arg, error))
        return FALSE;

      if G_UNLIKELY (chunk->n == TW_CHUNK_SIZE)
        chunk = tw_trace_begin_append (ps->trace);
      tw_event_chunk_push (chunk, time_ns, (guint16) cpu, info->type, task, arg,
                           ps->payload, type->payload_size);
    }
  tw_trace_end_append (ps->trace);
  return r == 0;
}

/**
 * _tw_csv_parse_buffer:
 * @display_name: the file name used in messages
 * @data: (array length=len): the CSV text
 * @progress: (nullable) (scope call): called with the fraction done
 *
 * Appends the events of a CSV text to @trace (see docs/csv-format.md). The file reader
 * maps the file and calls this; the fuzzer calls it on its input.
 *
 * Returns: %FALSE with @error set, naming @display_name and the line
 */
gboolean
_tw_csv_parse_buffer (TwTrace         *trace,
                      const char      *display_name,
                      const char      *data,
                      gsize            len,
                      TwProgressFunc   progress,
                      gpointer         progress_data,
                      GCancellable    *cancellable,
                      GError         **error)
{
  Parser ps = {
    .trace = trace,
    .path = display_name,
    .data = data,
    .len = len,
    .progress = progress,
    .progress_data = progress_data,
    .cancellable = cancellable,
  };
  Lexer lx;
  Lexer header_lx;
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (data != NULL || len == 0, FALSE);

  /* An empty mapped file has no contents pointer; no pointer arithmetic on NULL. */
  if (data == NULL)
    data = "";

  ps.events = g_hash_table_new (g_str_hash, g_str_equal);
  ps.event_order = g_ptr_array_new_with_free_func (event_info_free);
  ps.tasks = g_hash_table_new (g_str_hash, g_str_equal);

  /* The header lexer keeps its buffer: column names point into it. */
  lexer_init (&header_lx, display_name, data, len);
  lexer_init (&lx, display_name, data, len);

  if (!parse_header (&ps, &header_lx, error))
    goto out;

  lx.p = header_lx.p;
  lx.line = header_lx.line;
  if (!survey (&ps, &lx, error) || !create_types (&ps, error))
    goto out;

  lx.p = header_lx.p;
  lx.line = header_lx.line;
  ps.last_event = NULL;
  if (!store (&ps, &lx, error))
    goto out;

  if (progress)
    progress (1.0, progress_data);
  ok = TRUE;

out:
  lexer_clear (&lx);
  lexer_clear (&header_lx);
  parser_clear (&ps);
  return ok;
}

/* ---------------------------------------------------------------- the reader */

static guint
tw_csv_reader_probe (const char   *path,
                     const guint8 *head,
                     gsize         head_len)
{
  Lexer lx;
  guint found = 0;

  lexer_init (&lx, path, (const char *) head, head_len);
  /* The head may end inside a later record; only the header line has to be complete. */
  if (lexer_next (&lx, NULL) > 0)
    for (guint i = 0; i < lx.n_cells; i++)
      for (guint k = COL_TIME; k <= COL_EVENT; k++)
        if (strcmp (cell_text (&lx, i), reserved_columns[k]) == 0)
          found |= 1u << k;
  lexer_clear (&lx);

  return found == 0xf ? 90 : 0;
}

const TwReaderInfo tw_csv_reader_info = {
  .name = "csv",
  .label = "CSV events",
  .description = "CSV events: one event per line, columns time_ns,cpu,task,event and arguments",
  .suffixes = (const char *const[]) { "csv", NULL },
  .probe = tw_csv_reader_probe,
  .parse = _tw_csv_parse_buffer,
};
