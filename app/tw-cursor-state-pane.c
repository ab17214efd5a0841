/* tw-cursor-state-pane.c: the system's state at the cursor (meta-objects of the
 * POSIX trace based behavioural reflection, Valpereiro 2006)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-cursor-state-pane.h"

#include <glib/gi18n-lib.h>

/*
 * Valpereiro and Pinho, *POSIX Trace Based Behavioural Reflection* (Ada-Europe 2006),
 * extend the POSIX trace model with a partial reflective model that reifies the system's
 * state into meta-objects an analyser queries: here they are what runs on each CPU, each
 * task's state (both from the state model, binary searches) and each mutex's owner and
 * blocked tasks (Fig. 5's Meta_Mutex, replayed from
 * the mutex events by a TwMutexTracker: O(events crossed) per cursor move forward).
 * Cursor moves come in bursts while dragging, so the text is rebuilt once per idle, and
 * only while the pane is on screen: a hidden pane just remembers that it is out of date
 * (a jump back in time would otherwise replay the mutex events on every click).
 */

struct _TwCursorStatePane
{
  GtkWidget       parent_instance;

  TwViewState    *view_state;
  gulong          cursor_handler;
  TwMutexTracker *mutexes;
  guint           update_source;
  gboolean        dirty;          /* the cursor moved while the pane was hidden */

  GtkWidget      *scroller;
  GtkWidget      *text_view;
};

G_DEFINE_FINAL_TYPE (TwCursorStatePane, tw_cursor_state_pane, GTK_TYPE_WIDGET)

static const char *
state_name (TwTaskState state)
{
  switch (state)
    {
    case TW_TASK_STATE_RUNNING: return _("running");
    case TW_TASK_STATE_READY:   return _("ready");
    case TW_TASK_STATE_BLOCKED: return _("blocked");
    case TW_TASK_STATE_DEAD:    return _("dead");
    case TW_TASK_STATE_UNKNOWN:
    default:                    return _("unknown");
    }
}

static void
insert_heading (GtkTextBuffer *buffer,
                const char    *text)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert_with_tags_by_name (buffer, &end, text, -1, "heading", NULL);
  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, "\n", 1);
}

static void
insert_line (GtkTextBuffer *buffer,
             const char    *text)
{
  GtkTextIter end;

  gtk_text_buffer_get_end_iter (buffer, &end);
  gtk_text_buffer_insert (buffer, &end, text, -1);
  gtk_text_buffer_insert (buffer, &end, "\n", 1);
}

/* CPUs in the timeline's order: by host, then by their number there (a folder of several
 * machines numbers them as its traces are met). */
static int
compare_cpus (gconstpointer a,
              gconstpointer b,
              gpointer      trace)
{
  guint16 cpu_a = *(const guint16 *) a, cpu_b = *(const guint16 *) b;
  guint16 host_cpu_a, host_cpu_b;
  const char *host_a = tw_trace_get_cpu_host (trace, cpu_a, &host_cpu_a);
  const char *host_b = tw_trace_get_cpu_host (trace, cpu_b, &host_cpu_b);
  int by_host = g_strcmp0 (host_a, host_b);

  return by_host != 0 ? by_host : (int) host_cpu_a - (int) host_cpu_b;
}

static void
append_cpus (GtkTextBuffer *buffer,
             TwStateModel  *model,
             TwTrace       *trace,
             guint64        cursor)
{
  guint n_cpus = tw_state_model_get_n_cpus (model);
  g_autofree guint16 *order = g_new (guint16, MAX (n_cpus, 1));

  insert_heading (buffer, _("Running on each CPU"));
  for (guint i = 0; i < n_cpus; i++)
    order[i] = (guint16) i;
  g_qsort_with_data (order, (gint) n_cpus, sizeof *order, compare_cpus, trace);
  for (guint i = 0; i < n_cpus; i++)
    {
      guint16 cpu = order[i];
      guint32 task = tw_state_model_get_running_task (model, cpu, cursor);
      const TwTask *t = task == TW_TASK_NONE ? NULL : tw_trace_get_task (trace, task);
      g_autofree char *label = t ? tw_trace_dup_task_label (trace, task) : g_strdup (_("nothing known"));
      /* "3", or "HOST/3" in a trace of several machines */
      g_autofree char *name = tw_trace_dup_cpu_label (trace, cpu);
      g_autofree char *line = g_strdup_printf (_("  CPU %-3s %s%s"), name, label,
                                               t && (t->flags & TW_TASK_FLAG_IDLE) ? _(" (idle)") : "");
      insert_line (buffer, line);
    }
  if (n_cpus == 0)
    insert_line (buffer, _("  the trace names no CPU"));
}

static void
append_tasks (GtkTextBuffer *buffer,
              TwStateModel  *model,
              TwTrace       *trace,
              guint64        cursor)
{
  guint32 n_tasks = tw_trace_get_n_tasks (trace);
  guint n_unknown = 0;

  insert_heading (buffer, _("\nTask states"));
  for (guint32 task = 0; task < n_tasks; task++)
    {
      TwTaskState state = tw_state_model_get_task_state (model, task, cursor);
      g_autofree char *label = NULL;
      g_autofree char *line = NULL;

      if (state == TW_TASK_STATE_UNKNOWN || (tw_trace_get_task (trace, task)->flags & TW_TASK_FLAG_IDLE))
        {
          n_unknown += state == TW_TASK_STATE_UNKNOWN;
          continue;
        }
      label = tw_trace_dup_task_label (trace, task);
      line = g_strdup_printf ("  %-32s %s", label, state_name (state));
      insert_line (buffer, line);
    }
  if (n_unknown > 0)
    {
      g_autofree char *line = g_strdup_printf (_("  (%u tasks with no known state at this time)"), n_unknown);
      insert_line (buffer, line);
    }
}

static void
append_mutexes (GtkTextBuffer  *buffer,
                TwMutexTracker *mutexes,
                TwTrace        *trace,
                guint64         cursor)
{
  guint n;

  if (!tw_mutex_tracker_has_mutexes (mutexes))
    return;

  insert_heading (buffer, _("\nMutexes (owner, waiting tasks)"));
  tw_mutex_tracker_advance_to (mutexes, cursor);
  n = tw_mutex_tracker_get_n_mutexes (mutexes);
  for (guint i = 0; i < n; i++)
    {
      const TwMutexState *m = tw_mutex_tracker_get_mutex (mutexes, i);
      g_autoptr(GString) line = g_string_new (NULL);

      g_string_append_printf (line, _("  mutex 0x%-8x "), m->mutex);
      if (m->owner == TW_TASK_NONE)
        g_string_append (line, _("free"));
      else
        {
          g_autofree char *owner = tw_trace_dup_task_label (trace, m->owner);
          g_autofree char *since = tw_time_text_format (m->owned_since);
          g_string_append_printf (line, _("owned by %s since %s"), owner, since);
        }
      for (guint w = 0; w < m->waiters->len; w++)
        {
          g_autofree char *waiter = tw_trace_dup_task_label (trace, g_array_index (m->waiters, guint32, w));
          g_string_append_printf (line, "%s%s", w == 0 ? _("; waiting: ") : ", ", waiter);
        }
      insert_line (buffer, line->str);
    }
  if (n == 0)
    insert_line (buffer, _("  no mutex event before the cursor"));
}

static void
rebuild (TwCursorStatePane *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  TwStateModel *model;
  TwTrace *trace;
  guint64 cursor;
  g_autofree char *when = NULL;
  g_autofree char *title = NULL;

  gtk_text_buffer_set_text (buffer, "", 0);
  if (self->view_state == NULL)
    return;

  cursor = tw_view_state_get_cursor (self->view_state);
  if (cursor == TW_TIME_NONE)
    {
      insert_line (buffer, _("No cursor. Click in the timeline or select an event."));
      return;
    }

  model = tw_view_state_get_model (self->view_state);
  trace = tw_view_state_get_trace (self->view_state);
  when = tw_time_text_format (cursor);
  title = g_strdup_printf (_("At %s"), when);
  insert_heading (buffer, title);
  insert_line (buffer, "");
  append_cpus (buffer, model, trace, cursor);
  append_tasks (buffer, model, trace, cursor);
  append_mutexes (buffer, self->mutexes, trace, cursor);
}

static gboolean
update_idle_cb (gpointer user_data)
{
  TwCursorStatePane *self = user_data;

  self->update_source = 0;
  self->dirty = FALSE;
  rebuild (self);
  return G_SOURCE_REMOVE;
}

static void
cursor_changed_cb (TwCursorStatePane *self)
{
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->dirty = TRUE;
      return;
    }
  if (self->update_source == 0)
    self->update_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, update_idle_cb, self, NULL);
}

static void
tw_cursor_state_pane_dispose (GObject *object)
{
  TwCursorStatePane *self = (TwCursorStatePane *)object;

  tw_cursor_state_pane_set_view_state (self, NULL);
  g_clear_handle_id (&self->update_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), TW_TYPE_CURSOR_STATE_PANE);

  G_OBJECT_CLASS (tw_cursor_state_pane_parent_class)->dispose (object);
}

static void
tw_cursor_state_pane_map (GtkWidget *widget)
{
  TwCursorStatePane *self = TW_CURSOR_STATE_PANE (widget);

  GTK_WIDGET_CLASS (tw_cursor_state_pane_parent_class)->map (widget);
  if (self->dirty)
    cursor_changed_cb (self);
}

static void
tw_cursor_state_pane_class_init (TwCursorStatePaneClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = tw_cursor_state_pane_dispose;
  widget_class->map = tw_cursor_state_pane_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "cursorstatepane");
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/tracewb/Workbench/tw-cursor-state-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, TwCursorStatePane, scroller);
  gtk_widget_class_bind_template_child (widget_class, TwCursorStatePane, text_view);
}

static void
tw_cursor_state_pane_init (TwCursorStatePane *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * tw_cursor_state_pane_new:
 *
 * Returns: (transfer floating): a state-at-cursor pane
 */
GtkWidget *
tw_cursor_state_pane_new (void)
{
  return g_object_new (TW_TYPE_CURSOR_STATE_PANE, NULL);
}

/**
 * tw_cursor_state_pane_set_view_state:
 * @view_state: (nullable): whose cursor to follow
 */
void
tw_cursor_state_pane_set_view_state (TwCursorStatePane *self,
                                     TwViewState       *view_state)
{
  g_return_if_fail (TW_IS_CURSOR_STATE_PANE (self));

  if (self->view_state == view_state)
    return;
  if (self->view_state)
    g_clear_signal_handler (&self->cursor_handler, self->view_state);
  g_clear_pointer (&self->mutexes, tw_mutex_tracker_free);
  g_set_object (&self->view_state, view_state);
  if (view_state)
    {
      self->mutexes = tw_mutex_tracker_new (tw_view_state_get_trace (view_state));
      self->cursor_handler = g_signal_connect_swapped (view_state, "notify::cursor",
                                                       G_CALLBACK (cursor_changed_cb), self);
    }
  if (self->text_view)
    rebuild (self);
}

/**
 * tw_cursor_state_pane_dup_text:
 *
 * Brings the text up to date with the cursor first (even while the pane is hidden).
 *
 * Returns: (transfer full): the text shown
 */
char *
tw_cursor_state_pane_dup_text (TwCursorStatePane *self)
{
  GtkTextBuffer *buffer;
  GtkTextIter start, end;

  g_return_val_if_fail (TW_IS_CURSOR_STATE_PANE (self), NULL);

  if (self->update_source || self->dirty)
    {
      g_clear_handle_id (&self->update_source, g_source_remove);
      self->dirty = FALSE;
      rebuild (self);
    }
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->text_view));
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}
