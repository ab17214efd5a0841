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

typedef struct {
  GPtrArray  *names;        /* argument column names, in first-seen order */
  GHashTable *index;        /* name → column + 1 */
  int       **cell_of;      /* per type (NULL when unused): per argument column */
  gboolean    kind_column;
  gboolean    name_column;
  gboolean    pid_column;
  gboolean    tid_column;
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
plan_layout (TwTrace *trace,
             Layout  *layout)
{
  guint n_types = tw_trace_get_n_event_types (trace);
  guint64 n = tw_trace_get_n_events (trace);
  g_autofree guint16 *order = g_new (guint16, MAX (n_types, 1));
  g_autofree gboolean *used = g_new0 (gboolean, MAX (n_types, 1));
  guint n_used = 0;

  layout->names = g_ptr_array_new ();
  layout->index = g_hash_table_new (g_str_hash, g_str_equal);
  layout->cell_of = g_new0 (int *, MAX (n_types, 1));

  /* Columns follow the order in which types first occur, so a file reads naturally. */
  for (guint c = 0; c < tw_trace_get_n_chunks (trace) && n_used < n_types; c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);
      guint rows = MIN ((guint64) chunk->n, n - ((guint64) c << TW_CHUNK_SHIFT));

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

  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      const TwTask *task = tw_trace_get_task (trace, k);

      layout->name_column |= task->name != NULL;
      layout->pid_column |= task->pid >= 0;
      layout->tid_column |= task->tid >= 0;
    }
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
        g_string_append_printf (out, "0x%" G_GINT64_MODIFIER "x", value->u);
      else
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, value->u);
      break;
    case TW_FIELD_I32:
    case TW_FIELD_I64:
      g_string_append_printf (out, "%" G_GINT64_FORMAT, value->i);
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
      g_string_append_printf (out, "%u", arg);
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

/**
 * tw_csv_writer_write:
 * @trace: a sealed trace
 * @stream: where the CSV text goes; not closed
 *
 * Writes every event of @trace as one CSV line, in the format of docs/csv-format.md:
 * raw event names, a `kind` column when a kind does not follow from its name, the
 * canonical argument columns filled from the core `arg` column where the type has no
 * such field, and every field of every type. Reading the result back gives the same
 * events.
 *
 * Returns: %FALSE with @error set when writing failed or was cancelled
 */
gboolean
tw_csv_writer_write (TwTrace        *trace,
                     GOutputStream  *stream,
                     GCancellable   *cancellable,
                     GError        **error)
{
  g_autoptr(GString) out = g_string_sized_new (FLUSH_BYTES + 4096);
  g_autofree char *format = NULL;
  g_autofree gboolean *described = NULL;
  guint n_types;
  guint64 n;
  Layout layout = { 0 };
  gboolean ok = FALSE;

  g_return_val_if_fail (TW_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (G_IS_OUTPUT_STREAM (stream), FALSE);

  n_types = tw_trace_get_n_event_types (trace);
  n = tw_trace_get_n_events (trace);
  described = g_new0 (gboolean, MAX (tw_trace_get_n_tasks (trace), 1));
  plan_layout (trace, &layout);

  g_string_append (out, "# Trace Workbench CSV events (docs/csv-format.md)\n");
  if ((format = tw_trace_dup_metadata (trace, "format")))
    g_string_append_printf (out, "# converted from a “%s” trace\n", format);

  g_string_append (out, "time_ns,cpu,task,event");
  if (layout.kind_column)
    g_string_append (out, ",kind");
  if (layout.name_column)
    g_string_append (out, ",task_name");
  if (layout.pid_column)
    g_string_append (out, ",task_pid");
  if (layout.tid_column)
    g_string_append (out, ",task_tid");
  for (guint i = 0; i < layout.names->len; i++)
    {
      const char *name = layout.names->pdata[i];
      g_autofree char *header = _tw_csv_column_is_reserved (name)
                                ? g_strconcat (TW_CSV_ARG_PREFIX, name, NULL) : g_strdup (name);

      g_string_append_c (out, ',');
      append_text (out, header, FALSE);
    }
  g_string_append_c (out, '\n');

  for (guint64 e = 0; e < n; e++)
    {
      const TwEventType *type;
      const TwTask *task;
      const int *cells;
      TwEvent ev;

      if (e % CHECK_EVERY == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        goto out;

      tw_trace_get_event (trace, e, &ev);
      type = tw_trace_get_event_type (trace, ev.type);
      cells = layout.cell_of[ev.type];
      task = tw_trace_get_task (trace, ev.task);

      g_string_append_printf (out, "%" G_GUINT64_FORMAT ",", ev.time);
      if (ev.cpu != TW_CPU_NONE)
        g_string_append_printf (out, "%u", ev.cpu);
      g_string_append_c (out, ',');
      append_task (out, trace, ev.task);
      g_string_append_c (out, ',');
      append_text (out, type->name, FALSE);

      if (layout.kind_column)
        {
          g_string_append_c (out, ',');
          if (type->kind != kind_from_name (type->name))
            g_string_append (out, tw_event_kind_to_string (type->kind));
        }

      /* The store keeps one name and one pid/tid per task: say them once, at the task's
       * first row. */
      if (layout.name_column || layout.pid_column || layout.tid_column)
        {
          gboolean describe = task != NULL && !described[ev.task];

          if (describe)
            described[ev.task] = TRUE;
          if (layout.name_column)
            {
              g_string_append_c (out, ',');
              if (describe && task->name)
                append_text (out, task->name, TRUE);
            }
          if (layout.pid_column)
            {
              g_string_append_c (out, ',');
              if (describe && task->pid >= 0)
                g_string_append_printf (out, "%" G_GINT64_FORMAT, task->pid);
            }
          if (layout.tid_column)
            {
              g_string_append_c (out, ',');
              if (describe && task->tid >= 0)
                g_string_append_printf (out, "%" G_GINT64_FORMAT, task->tid);
            }
        }

      for (guint i = 0; i < layout.names->len; i++)
        {
          TwValue value;

          g_string_append_c (out, ',');
          if (cells[i] == CELL_CANON)
            append_canonical (out, trace, type, ev.arg);
          else if (cells[i] >= 0 && tw_event_type_get_field (type, ev.payload, cells[i], &value))
            append_value (out, trace, &type->fields[cells[i]], &value);
        }
      g_string_append_c (out, '\n');

      if (out->len >= FLUSH_BYTES && !flush (stream, out, cancellable, error))
        goto out;
    }

  ok = flush (stream, out, cancellable, error);

out:
  layout_clear (&layout, n_types);
  return ok;
}
