/* tw-event-filter.c: which rows of a trace an event list shows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-event-filter.h"

/* Types and CPUs are 16-bit indexes: a full bitmap is 8 KiB. Tasks grow as needed. */
#define SMALL_BITMAP_BYTES (65536 / 8)

struct _TwEventFilter
{
  gatomicrefcount  ref_count;

  guint8          *types;       /* NULL = any type */
  guint8          *cpus;        /* NULL = any CPU */
  GByteArray      *tasks;       /* NULL = any task; bit per task index */

  /* text search: the row's type or its task must be in these (NULL = no text) */
  guint8          *text_types;
  GByteArray      *text_tasks;
};

G_DEFINE_BOXED_TYPE (TwEventFilter, tw_event_filter, tw_event_filter_ref, tw_event_filter_unref)

/**
 * tw_event_filter_new:
 *
 * Returns: (transfer full): a filter that lets every row through
 */
TwEventFilter *
tw_event_filter_new (void)
{
  TwEventFilter *self = g_new0 (TwEventFilter, 1);

  g_atomic_ref_count_init (&self->ref_count);
  return self;
}

/**
 * tw_event_filter_ref:
 *
 * Returns: (transfer full): @self
 */
TwEventFilter *
tw_event_filter_ref (TwEventFilter *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
tw_event_filter_unref (TwEventFilter *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_free (self->types);
  g_free (self->cpus);
  g_free (self->text_types);
  g_clear_pointer (&self->tasks, g_byte_array_unref);
  g_clear_pointer (&self->text_tasks, g_byte_array_unref);
  g_free (self);
}

static inline gboolean
bit_test (const guint8 *bits,
          guint         i)
{
  return (bits[i >> 3] >> (i & 7)) & 1;
}

static void
task_bitmap_set (GByteArray **bits,
                 guint32      task)
{
  guint need = task / 8 + 1;

  if (*bits == NULL)
    *bits = g_byte_array_new ();
  if ((*bits)->len < need)
    {
      guint old = (*bits)->len;
      g_byte_array_set_size (*bits, need);
      memset ((*bits)->data + old, 0, need - old);
    }
  (*bits)->data[task >> 3] |= 1u << (task & 7);
}

static inline gboolean
task_bitmap_test (const GByteArray *bits,
                  guint32           task)
{
  return task != TW_TASK_NONE && task / 8 < bits->len && bit_test (bits->data, task);
}

/**
 * tw_event_filter_add_type:
 *
 * Lets rows of @type through (the first call makes the filter select by type).
 */
void
tw_event_filter_add_type (TwEventFilter *self,
                          guint16        type)
{
  g_return_if_fail (self != NULL);

  if (self->types == NULL)
    self->types = g_malloc0 (SMALL_BITMAP_BYTES);
  self->types[type >> 3] |= 1u << (type & 7);
}

/**
 * tw_event_filter_add_task:
 *
 * Lets rows of @task through (the first call makes the filter select by task; rows
 * without a task never pass a task filter).
 */
void
tw_event_filter_add_task (TwEventFilter *self,
                          guint32        task)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (task != TW_TASK_NONE);

  task_bitmap_set (&self->tasks, task);
}

/**
 * tw_event_filter_add_cpu:
 *
 * Lets rows on @cpu through (the first call makes the filter select by CPU).
 */
void
tw_event_filter_add_cpu (TwEventFilter *self,
                         guint16        cpu)
{
  g_return_if_fail (self != NULL);

  if (self->cpus == NULL)
    self->cpus = g_malloc0 (SMALL_BITMAP_BYTES);
  self->cpus[cpu >> 3] |= 1u << (cpu & 7);
}

/**
 * tw_event_filter_set_text:
 * @text: (nullable): what the type name or task label must contain (case-insensitive);
 *   %NULL or "" for no text condition
 *
 * Resolves the text against @trace's type and task tables now, so rows are tested with
 * bits, not strings. Tasks added to @trace later are not matched.
 */
void
tw_event_filter_set_text (TwEventFilter *self,
                          TwTrace       *trace,
                          const char    *text)
{
  g_autofree char *needle = NULL;
  guint n_types;
  guint32 n_tasks;

  g_return_if_fail (self != NULL);
  g_return_if_fail (TW_IS_TRACE (trace));

  g_clear_pointer (&self->text_types, g_free);
  g_clear_pointer (&self->text_tasks, g_byte_array_unref);
  if (text == NULL || text[0] == '\0')
    return;

  needle = g_utf8_casefold (text, -1);
  self->text_types = g_malloc0 (SMALL_BITMAP_BYTES);
  self->text_tasks = g_byte_array_new ();

  n_types = tw_trace_get_n_event_types (trace);
  for (guint t = 0; t < n_types; t++)
    {
      g_autofree char *name = g_utf8_casefold (tw_trace_get_event_type (trace, t)->name, -1);

      if (strstr (name, needle))
        self->text_types[t >> 3] |= 1u << (t & 7);
    }

  n_tasks = tw_trace_get_n_tasks (trace);
  for (guint32 t = 0; t < n_tasks; t++)
    {
      g_autofree char *label = tw_trace_dup_task_label (trace, t);
      g_autofree char *folded = g_utf8_casefold (label, -1);

      if (strstr (folded, needle))
        task_bitmap_set (&self->text_tasks, t);
    }
}

/**
 * tw_event_filter_is_all:
 *
 * Returns: %TRUE when the filter lets every row through
 */
gboolean
tw_event_filter_is_all (const TwEventFilter *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return !self->types && !self->cpus && !self->tasks && !self->text_types;
}

/**
 * tw_event_filter_matches:
 *
 * Thread-safe (the filter is immutable while models use it); no allocation.
 *
 * Returns: %TRUE when a row with these columns passes
 */
gboolean
tw_event_filter_matches (const TwEventFilter *self,
                         guint16              type,
                         guint32              task,
                         guint16              cpu)
{
  if (self->types && !bit_test (self->types, type))
    return FALSE;
  if (self->cpus && (cpu == TW_CPU_NONE || !bit_test (self->cpus, cpu)))
    return FALSE;
  if (self->tasks && !task_bitmap_test (self->tasks, task))
    return FALSE;
  if (self->text_types && !bit_test (self->text_types, type)
      && !task_bitmap_test (self->text_tasks, task))
    return FALSE;
  return TRUE;
}
