/* tw-csv-writer.c: any trace as CSV events, in the format the CSV reader reads
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-csv-writer.h"

#include "tw-csv-reader-private.h"

#include <string.h>

#define FLUSH_BYTES (64 * 1024)
#define CHECK_EVERY 4096

/* What an argument column holds for one event type. */
#define CELL_NONE  (-1)  /* nothing: the type has no such field */
#define CELL_CANON (-2)  /* the core `arg` column, per the type's kind */

/* What the writer writes: the counts read once, at the start. A live trace keeps
 * growing meanwhile (tw-trace.c: one writer, readers below the published counts); rows
 * below @n_events never change, and every task and type they name lies below @n_tasks and
 * @n_types because those are read after @n_events. */
typedef struct {
  guint64 n_events;
  guint   n_types;
  guint32 n_tasks;
} Snapshot;

typedef struct {
  GPtrArray  *names;        /* argument column names, in first-seen order */
  GHashTable *index;        /* name → column + 1 */
  int       **cell_of;      /* per type (NULL when unused): per argument column */
  gboolean    kind_column;
  gboolean    host_column;  /* a trace of several machines */
  gboolean    name_column;
  gboolean    pid_column;
  gboolean    tid_column;
  gboolean    idle_column;
} Layout;

static void
layout_clear (Layout *layout,
              guint   n_types)
{
  if (layout->cell_of)
    for (guint t = 0; t < n_types; t++)
      g_free (layout->cell_of[t]);
  g_clear_pointer (&layout->cell_of, g_free);
  g_clear_pointer (&layout->names, g_ptr_array_unref);
  g_clear_pointer (&layout->index, g_hash_table_unref);
}

static guint
layout_add_column (Layout     *layout,
                   const char *name)
{
  gpointer found = g_hash_table_lookup (layout->index, name);

  if (found)
    return GPOINTER_TO_UINT (found) - 1;
  g_ptr_array_add (layout->names, (gpointer) name);
  g_hash_table_insert (layout->index, (gpointer) name, GUINT_TO_POINTER (layout->names->len));
  return layout->names->len - 1;
}

/* The kind the reader gives a name when no `kind` cell says otherwise. */
static TwEventKind
kind_from_name (const char *name)
{
  TwEventKind kind;

  return tw_event_kind_from_string (name, &kind) ? kind : TW_EVENT_KIND_OTHER;
}

static void
plan_layout (TwTrace        *trace,
             const Snapshot *snap,
             Layout         *layout)
{
  guint n_types = snap->n_types;
  guint n_chunks = (guint) ((snap->n_events + TW_CHUNK_MASK) >> TW_CHUNK_SHIFT);
  g_autofree guint16 *order = g_new (guint16, MAX (n_types, 1));
  g_autofree gboolean *used = g_new0 (gboolean, MAX (n_types, 1));
  guint n_used = 0;

  layout->names = g_ptr_array_new ();
  layout->index = g_hash_table_new (g_str_hash, g_str_equal);
  layout->cell_of = g_new0 (int *, MAX (n_types, 1));

  /* Columns follow the order in which types first occur, so a file reads naturally.
   * Rows are counted from the snapshot, never from a chunk's own count, which the live
   * writer may be moving. */
  for (guint c = 0; c < n_chunks && n_used < n_types; c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      guint rows = (guint) MIN ((guint64) TW_CHUNK_SIZE, snap->n_events - ((guint64) c << TW_CHUNK_SHIFT));

      for (guint r = 0; r < rows; r++)
        if (!used[chunk->type[r]])
          {
            used[chunk->type[r]] = TRUE;
            order[n_used++] = chunk->type[r];
          }
    }

  for (guint u = 0; u < n_used; u++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, order[u]);
      const char *canon = _tw_csv_kind_column_for (type->kind);

      for (guint f = 0; f < type->n_fields; f++)
        layout_add_column (layout, type->fields[f].name);
      if (canon && tw_event_type_lookup_field (type, canon) < 0)
        layout_add_column (layout, canon);
      if (type->kind != kind_from_name (type->name))
        layout->kind_column = TRUE;
    }

  for (guint u = 0; u < n_used; u++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, order[u]);
      const char *canon = _tw_csv_kind_column_for (type->kind);
      int *cells = g_new (int, MAX (layout->names->len, 1));

      for (guint i = 0; i < layout->names->len; i++)
        {
          cells[i] = tw_event_type_lookup_field (type, layout->names->pdata[i]);
          if (cells[i] < 0)
            cells[i] = canon && strcmp (canon, layout->names->pdata[i]) == 0 ? CELL_CANON
                                                                              : CELL_NONE;
        }
      layout->cell_of[order[u]] = cells;
    }

  layout->host_column = tw_trace_get_n_hosts (trace) > 0;
  for (guint32 k = 0; k < snap->n_tasks; k++)
    {
      const TwTask *task = tw_trace_get_task (trace, k);

      layout->name_column |= task->name != NULL;
      layout->pid_column |= task->pid >= 0;
      layout->tid_column |= task->tid >= 0;
      layout->idle_column |= (task->flags & TW_TASK_FLAG_IDLE) != 0;
    }
}

/* Numbers are formatted by hand: g_string_append_printf() allocates on every call, which
 * is most of the writer's time on millions of rows (and far more under sanitizers). */
static void
append_uint (GString *out,
             guint64  value)
{
  char buf[20];
  char *p = buf + sizeof buf;

  do
    *--p = (char) ('0' + value % 10);
  while ((value /= 10) != 0);
  g_string_append_len (out, p, buf + sizeof buf - p);
}

static void
append_int (GString *out,
            gint64   value)
{
  if (value >= 0)
    {
      append_uint (out, (guint64) value);
      return;
    }
  g_string_append_c (out, '-');
  append_uint (out, 0 - (guint64) value);
}

/* Quotes when the reader would otherwise split, trim or misread the text. */
static void
append_text (GString    *out,
             const char *text,
             gboolean    always_quote)
{
  gsize len = strlen (text);
  gboolean quote = always_quote || len == 0
                   || text[0] == ' ' || text[0] == '\t'
                   || text[len - 1] == ' ' || text[len - 1] == '\t'
                   || strpbrk (text, ",\"\r\n") != NULL;

  if (!quote)
    {
      g_string_append_len (out, text, len);
      return;
    }

  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_task (GString *out,
             TwTrace *trace,
             guint32  task)
{
  const TwTask *t = tw_trace_get_task (trace, task);

  if (t != NULL)
    append_text (out, t->source_id, FALSE);
}

static void
append_value (GString           *out,
              TwTrace           *trace,
              const TwFieldSpec *spec,
              const TwValue     *value)
{
  if (spec->flags & TW_FIELD_FLAG_TASK)
    {
      append_task (out, trace, (guint32) value->u);
      return;
    }

  switch (value->type)
    {
    case TW_FIELD_U8:
    case TW_FIELD_U16:
    case TW_FIELD_U32:
    case TW_FIELD_U64:
      if (spec->flags & TW_FIELD_FLAG_HEX)
        {
          char buf[24];

          g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", value->u);
          g_string_append (out, buf);
        }
      else
        append_uint (out, value->u);
      break;
    case TW_FIELD_I32:
    case TW_FIELD_I64:
      append_int (out, value->i);
      break;
    case TW_FIELD_F64:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        g_ascii_dtostr (buf, sizeof buf, value->f);
        g_string_append (out, buf);
        /* "2" would read back as an integer column: keep the value a float. */
        if (strspn (buf, "-0123456789") == strlen (buf))
          g_string_append (out, ".0");
        break;
      }
    case TW_FIELD_STRING:
      /* Always quoted: a quoted cell reads back as text, even "42". */
      append_text (out, tw_trace_get_string (trace, value->str), TRUE);
      break;
    default:
      g_return_if_reached ();
    }
}

static void
append_canonical (GString          *out,
                  TwTrace          *trace,
                  const TwEventType *type,
                  guint32           arg)
{
  switch (type->kind)
    {
    case TW_EVENT_KIND_SWITCH:
    case TW_EVENT_KIND_WAKEUP:
    case TW_EVENT_KIND_TASK_CREATE:
    case TW_EVENT_KIND_TASK_EXIT:
      append_task (out, trace, arg);
      break;
    case TW_EVENT_KIND_OTHER:
    case TW_N_EVENT_KINDS:
      break;
    default:
      append_uint (out, arg);
      break;
    }
}

static gboolean
flush (GOutputStream  *stream,
       GString        *out,
       GCancellable   *cancellable,
       GError        **error)
{
  if (!g_output_stream_write_all (stream, out->str, out->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (out, 0);
  return TRUE;
}

/* The store keeps one name, one pid/tid and one idle flag per task: say them once, at
 * the task's first row. */
static void
append_task_description (GString      *out,
                         const Layout *layout,
                         const TwTask *task,
                         gboolean      describe)
{
  if (layout->name_column)
    {
      g_string_append_c (out, ',');
      if (describe && task->name)
        append_text (out, task->name, TRUE);
    }
  if (layout->pid_column)
    {
      g_string_append_c (out, ',');
      if (describe && task->pid >= 0)
        append_int (out, task->pid);
    }
  if (layout->tid_column)
    {
      g_string_append_c (out, ',');
      if (describe && task->tid >= 0)
        append_int (out, task->tid);
    }
  if (layout->idle_column)
    {
      g_string_append_c (out, ',');
      if (describe && (task->flags & TW_TASK_FLAG_IDLE))
        g_string_append_c (out, '1');
    }
}

static void
append_header (GString      *out,
               TwTrace      *trace,
               const Layout *layout)
{
  g_autofree char *format = tw_trace_dup_metadata (trace, "format");

  g_string_append (out, "# Trace Workbench CSV events (docs/csv-format.md)\n");
  if (format)
    g_string_append_printf (out, "# converted from a “%s” trace\n", format);

  g_string_append (out, "time_ns,cpu,task,event");
  if (layout->kind_column)
    g_string_append (out, ",kind");
  if (layout->host_column)
    g_string_append (out, ",host");
  if (layout->name_column)
    g_string_append (out, ",task_name");
  if (layout->pid_column)
    g_string_append (out, ",task_pid");
  if (layout->tid_column)
    g_string_append (out, ",task_tid");
  if (layout->idle_column)
    g_string_append (out, ",task_idle");
  for (guint i = 0; i < layout->names->len; i++)
    {
      const char *name = layout->names->pdata[i];
      g_autofree char *header = _tw_csv_column_is_reserved (name)
                                ? g_strconcat (TW_CSV_ARG_PREFIX, name, NULL) : g_strdup (name);

      g_string_append_c (out, ',');
      append_text (out, header, FALSE);
    }
  g_string_append_c (out, '\n');
}

static void
append_event (GString       *out,
              TwTrace       *trace,
              const Layout  *layout,
              gboolean      *described,
              const TwEvent *ev)
{
  const TwEventType *type = tw_trace_get_event_type (trace, ev->type);
  const TwTask *task = tw_trace_get_task (trace, ev->task);
  const int *cells = layout->cell_of[ev->type];
  guint16 host_cpu = ev->cpu;
  const char *host = layout->host_column ? tw_trace_get_cpu_host (trace, ev->cpu, &host_cpu) : NULL;

  /* a line's machine is its CPU's; without a CPU, its task's (a CPU of no host keeps its
   * number: a host there would make it that host's CPU) */
  if (ev->cpu == TW_CPU_NONE && task != NULL)
    host = task->host;

  append_uint (out, ev->time);
  g_string_append_c (out, ',');
  if (ev->cpu != TW_CPU_NONE)
    append_uint (out, host_cpu);
  g_string_append_c (out, ',');
  append_task (out, trace, ev->task);
  g_string_append_c (out, ',');
  append_text (out, type->name, FALSE);

  if (layout->kind_column)
    {
      g_string_append_c (out, ',');
      if (type->kind != kind_from_name (type->name))
        g_string_append (out, tw_event_kind_to_string (type->kind));
    }
  if (layout->host_column)
    {
      g_string_append_c (out, ',');
      if (host)
        append_text (out, host, FALSE);
    }

  if (task != NULL)
    {
      append_task_description (out, layout, task, !described[ev->task]);
      described[ev->task] = TRUE;
    }
  else
    for (guint i = 0; i < (guint) (layout->name_column + layout->pid_column
                                   + layout->tid_column + layout->idle_column); i++)
      g_string_append_c (out, ',');

  for (guint i = 0; i < layout->names->len; i++)
    {
      TwValue value;

      g_string_append_c (out, ',');
      if (cells[i] == CELL_CANON)
        append_canonical (out, trace, type, ev->arg);
      else if (cells[i] >= 0 && tw_event_type_get_field (type, ev->payload, cells[i], &value))
        append_value (out, trace, &type->fields[cells[i]], &value);
    }
  g_string_append_c (out, '\n');
}

/**
 * tw_csv_writer_write_events:
 * @trace: a trace, sealed or growing (a live session's store)
 * @n_events: how many events to write: the first @n_events of @trace, at most the ones
 *   published when the call starts
 * @stream: where the CSV text goes; not closed
 * @progress: (nullable): called from the calling thread with the fraction written
 *
 * Writes the first @n_events events of @trace as one CSV line each, in the format of
 * docs/csv-format.md: raw event names, a `kind` column when a kind does not follow from
 * its name, a `host` column in a trace of several machines (each line's CPU numbered on
 * its host), the tasks' names, ids and idle flags on their first lines, the canonical
 * argument columns filled from the core `arg` column where the type has no such field,
 * and every field of every type. Reading the result back gives the same events.
 *
 * The trace may grow while this runs (another thread appending): the file is a snapshot
 * of the counts read at the start, never a row still being written.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_csv_writer_write_events (TwTrace         *trace,
                            guint64          n_events,
                            GOutputStream   *stream,
                            TwProgressFunc   progress,
                            gpointer         progress_data,
                            GCancellable    *cancellable,
                            GError         **error)
{
  g_autoptr(GString) out = g_string_sized_new (FLUSH_BYTES + 4096);
  g_autofree gboolean *described = NULL;
  Layout layout = { 0 };
  Snapshot snap;
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  /* the event count first: the tables read after it cover every row below it */
  snap.n_events = MIN (n_events, tw_trace_get_n_events (trace));
  snap.n_types = tw_trace_get_n_event_types (trace);
  snap.n_tasks = tw_trace_get_n_tasks (trace);
  described = g_new0 (gboolean, MAX (snap.n_tasks, 1));
  plan_layout (trace, &snap, &layout);
  append_header (out, trace, &layout);

  for (guint64 e = 0; e < snap.n_events; e++)
    {
      TwEvent ev;

      if (e % CHECK_EVERY == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            goto out;
          if (progress)
            progress ((double) e / (double) snap.n_events, progress_data);
        }

      tw_trace_get_event (trace, e, &ev);
      append_event (out, trace, &layout, described, &ev);
      if (out->len >= FLUSH_BYTES && !flush (stream, out, cancellable, error))
        goto out;
    }

  ok = flush (stream, out, cancellable, error);
  if (ok && progress)
    progress (1.0, progress_data);

out:
  layout_clear (&layout, snap.n_types);
  return ok;
}

/**
 * tw_csv_writer_write:
 * @trace: a trace
 * @stream: where the CSV text goes; not closed
 *
 * Writes every event of @trace, see tw_csv_writer_write_events().
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_csv_writer_write (TwTrace        *trace,
                     GOutputStream  *stream,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);

  return tw_csv_writer_write_events (trace, tw_trace_get_n_events (trace), stream, NULL, NULL,
                                     cancellable, error);
}
