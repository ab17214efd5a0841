/* test-story-list.c: user stories 3 and 6 on the event list: live growth, task search,
 * the Time column, keeping rows in view, a steady filter bar, Details, a bin's list
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tw-application.h"
#include "tw-designer-window.h"
#include "tw-details-pane.h"
#include "tw-evaluations-pane.h"
#include "tw-live-session.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS 60000
#define MANY_THREADS "ctf/lttng-kernel-many-threads/trace"

static TwApplication *app;
static gboolean have_display;

typedef struct {
  TwWindow      *window;
  TwLiveSession *session;
} Fixture;

#define SKIP_WITHOUT_DISPLAY() \
  G_STMT_START { if (!have_display) { g_test_skip ("no display (run under xvfb-run)"); return; } } G_STMT_END

static void
fixture_setup (Fixture       *fx,
               gconstpointer  data)
{
  if (!have_display)
    return;
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1280, 900);
}

static void
fixture_teardown (Fixture       *fx,
                  gconstpointer  data)
{
  if (have_display)
    tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
}

/* ------------------------------------------------------------------ helpers */

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

static gboolean
no_transition (gpointer data)
{
  return !gtk_stack_get_transition_running (data);
}

/* Opens the shared trace @relative; FALSE (the test skipped) when it is missing. */
static gboolean
open_shared (Fixture    *fx,
             const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GFile) file = NULL;
  GtkWidget *stack;

  if (path == NULL)
    return FALSE;
  file = g_file_new_for_path (path);
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  stack = gtk_widget_get_ancestor (GTK_WIDGET (tw_window_get_event_list (fx->window)), GTK_TYPE_STACK);
  g_assert_true (tw_test_wait_until (no_transition, stack, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  return TRUE;
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  tw_test_collect_descendants (widget, type, found);
  return found->len > 0 ? found->pdata[0] : NULL;
}

static TwEventList *
event_list (Fixture *fx)
{
  return tw_window_get_event_list (fx->window);
}

static guint
n_shown (TwEventList *list)
{
  return g_list_model_get_n_items (G_LIST_MODEL (tw_event_list_get_model (list)));
}

static gboolean
not_filtering (gpointer data)
{
  return !tw_event_list_get_filtering (data);
}

static void
wait_filtered (Fixture *fx)
{
  g_assert_true (tw_test_wait_until (not_filtering, event_list (fx), WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
}

/* The text of the label right of the filters: "N events", "N of M events" */
static const char *
count_text (TwEventList *list)
{
  GtkWidget *entry = find_descendant (GTK_WIDGET (list), GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *bar = gtk_widget_get_parent (entry);

  return gtk_label_get_text (GTK_LABEL (gtk_widget_get_last_child (bar)));
}

/* The row widgets the list view draws now, top to bottom, with their first cell's label. */
static GPtrArray *
drawn_rows (TwEventList *list)
{
  GtkWidget *list_view = find_descendant (GTK_WIDGET (tw_event_list_get_column_view (list)), GTK_TYPE_LIST_VIEW);
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (list_view); row; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row) && find_descendant (row, GTK_TYPE_LABEL))
      g_ptr_array_add (rows, row);
  return rows;
}

static GtkLabel *
row_time_label (GtkWidget *row)
{
  return GTK_LABEL (find_descendant (row, GTK_TYPE_LABEL));
}

/* Whether the row showing event @index (its time, in the list's format) is inside the
 * scrolled window's visible area. */
static gboolean
event_row_in_view (TwEventList *list,
                   guint64      index)
{
  TwTrace *trace = tw_trace_model_get_trace (tw_event_list_get_model (list));
  GtkWidget *scroller = gtk_widget_get_parent (GTK_WIDGET (tw_event_list_get_column_view (list)));
  g_autoptr(GPtrArray) rows = drawn_rows (list);
  guint64 t = tw_trace_get_time (trace, index);
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                                           t / 1000000000, t % 1000000000);

  for (guint i = 0; i < rows->len; i++)
    {
      graphene_rect_t bounds;

      if (g_strcmp0 (gtk_label_get_text (row_time_label (rows->pdata[i])), text) != 0)
        continue;
      g_assert_true (gtk_widget_compute_bounds (rows->pdata[i], scroller, &bounds));
      if (bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scroller) + 0.5)
        return TRUE;
    }
  return FALSE;
}

/* ------------------------------------------------------------------ the task chooser */

typedef struct {
  GtkWidget *chooser;
  GtkWidget *entry;
  GtkWidget *list_view;
} Chooser;

static GListModel *
chooser_rows (Chooser *c)
{
  return G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (c->list_view)));
}

static const char *
chooser_row_text (Chooser *c,
                  guint    position)
{
  g_autoptr(GtkStringObject) row = g_list_model_get_item (chooser_rows (c), position);

  return gtk_string_object_get_string (row);
}

/* Opens @chooser's popover as a click on it does. */
static void
open_chooser (GtkWidget *chooser,
              Chooser   *c)
{
  GtkWidget *button = find_descendant (chooser, GTK_TYPE_MENU_BUTTON);
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));

  c->chooser = chooser;
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  tw_test_wait_frames (button, 2);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  c->entry = find_descendant (GTK_WIDGET (popover), GTK_TYPE_SEARCH_ENTRY);
  c->list_view = find_descendant (GTK_WIDGET (popover), GTK_TYPE_LIST_VIEW);
  g_assert_nonnull (c->entry);
  g_assert_nonnull (c->list_view);
  /* the search takes what is typed at once */
  g_assert_true (gtk_widget_has_focus (c->entry) || gtk_widget_is_ancestor (gtk_root_get_focus (gtk_widget_get_root (c->entry)), c->entry));
}

typedef struct {
  Chooser *c;
  guint    n;
} RowsCount;

static gboolean
rows_counted (gpointer data)
{
  RowsCount *r = data;

  return g_list_model_get_n_items (chooser_rows (r->c)) == r->n;
}

/* Types @text in the search entry and waits for the search to show @n rows (a
 * replaced text passes through "", which GtkSearchEntry reports at once). */
static void
search_chooser (Chooser    *c,
                const char *text,
                guint       n)
{
  RowsCount r = { c, n };
  gint64 start = g_get_monotonic_time ();

  gtk_editable_set_text (GTK_EDITABLE (c->entry), text);
  g_assert_true (tw_test_wait_until (rows_counted, &r, WAIT_MS));
  g_test_message ("search for “%s”: %u rows after %.0f ms (the entry waits 150 ms)", text,
                  n, (g_get_monotonic_time () - start) / 1000.0);
}

static char *
dup_folded (const char *text)
{
  return g_utf8_casefold (text, -1);
}

/* Every row contains @needle (case-insensitively). */
static void
assert_rows_contain (Chooser    *c,
                     const char *needle)
{
  g_autofree char *folded_needle = dup_folded (needle);
  guint n_rows = g_list_model_get_n_items (chooser_rows (c));

  g_assert_cmpuint (n_rows, >, 0);
  for (guint i = 0; i < n_rows; i++)
    {
      g_autofree char *folded = dup_folded (chooser_row_text (c, i));

      g_assert_nonnull (strstr (folded, folded_needle));
    }
}

/* Tasks of @trace whose label contains @needle, or whose pid is @pid (when ≥ 0). */
static guint
count_tasks (TwTrace    *trace,
             const char *needle,
             gint64      pid,
             gboolean    idle)
{
  g_autofree char *folded_needle = dup_folded (needle);
  guint n = 0;

  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      g_autofree char *label = tw_trace_dup_task_label (trace, t);
      g_autofree char *folded = dup_folded (label);
      const TwTask *task = tw_trace_get_task (trace, t);

      if ((task->flags & TW_TASK_FLAG_IDLE) && !idle)
        continue;
      n += strstr (folded, folded_needle) != NULL || (pid >= 0 && task->pid == pid);
    }
  return n;
}

static guint64
count_task_events (TwTrace *trace,
                   guint32  task)
{
  guint64 n = 0;
  TwEvent ev;

  for (guint64 i = 0; tw_trace_get_event (trace, i, &ev); i++)
    n += ev.task == task;
  return n;
}

/* A process of @trace with more than one thread: its pid. */
static gint64
find_threaded_pid (TwTrace *trace)
{
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);

      if (task->name && task->pid >= 0 && task->tid >= 0 && task->pid != task->tid)
        return task->pid;
    }
  return -1;
}

/* Story 3: the event list's task filter finds one task among 8 000 by a part of its name
 * and by its process id, and picking it filters the list to that task's events. */
static void
test_task_search (Fixture       *fx,
                  gconstpointer  data)
{
  TwEventList *list;
  TwTrace *trace;
  Chooser c;
  guint32 picked;
  gint64 pid;
  g_autofree char *pid_text = NULL;
  g_autofree char *count = NULL;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, MANY_THREADS))
    return;
  list = event_list (fx);
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), >, 5000);

  open_chooser (find_descendant (GTK_WIDGET (list), TW_TYPE_TASK_CHOOSER), &c);
  /* every task, after "All tasks" */
  g_assert_cmpuint (g_list_model_get_n_items (chooser_rows (&c)), ==, tw_trace_get_n_tasks (trace) + 1);
  g_assert_cmpstr (chooser_row_text (&c, 0), ==, "All tasks");

  /* a substring of a name, in any case */
  search_chooser (&c, "ConsumerD", count_tasks (trace, "consumerd", -1, TRUE));
  assert_rows_contain (&c, "consumerd");

  /* a pid: every thread of the process (and labels with those digits) */
  pid = find_threaded_pid (trace);
  g_assert_cmpint (pid, >=, 0);
  pid_text = g_strdup_printf ("%" G_GINT64_FORMAT, pid);
  search_chooser (&c, pid_text, count_tasks (trace, pid_text, pid, TRUE));
  assert_rows_contain (&c, pid_text);
  g_assert_cmpuint (g_list_model_get_n_items (chooser_rows (&c)), >, 1000);

  /* Enter picks the first match; the list shows that task's events */
  search_chooser (&c, "consumerd", count_tasks (trace, "consumerd", -1, TRUE));
  g_signal_emit_by_name (c.entry, "activate");
  picked = tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (c.chooser));
  g_assert_cmpuint (picked, !=, TW_TASK_NONE);
  {
    g_autofree char *label = tw_trace_dup_task_label (trace, picked);
    g_assert_nonnull (strstr (label, "consumerd"));
  }
  wait_filtered (fx);
  g_assert_cmpuint (n_shown (list), ==, count_task_events (trace, picked));
  g_assert_cmpuint (n_shown (list), >, 0);
  count = g_strdup_printf ("%u of %" G_GUINT64_FORMAT " events", n_shown (list), tw_trace_get_n_events (trace));
  g_assert_cmpstr (count_text (list), ==, count);

  /* a click on a row of another search picks that row's task */
  open_chooser (c.chooser, &c);
  search_chooser (&c, pid_text, count_tasks (trace, pid_text, pid, TRUE));
  gtk_widget_activate_action (c.list_view, "list.activate-item", "u", 1);
  g_assert_cmpuint (tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (c.chooser)), !=, picked);
  picked = tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (c.chooser));
  wait_filtered (fx);
  g_assert_cmpuint (n_shown (list), ==, count_task_events (trace, picked));
}

/* Story 5: the designer's "Step a task" searches the same way, and steps the task picked. */
static void
test_designer_task_search (Fixture       *fx,
                           gconstpointer  data)
{
  TwDesignerWindow *designer;
  TwViewState *state;
  TwTrace *trace;
  Chooser c;
  guint32 picked;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, MANY_THREADS))
    return;
  state = tw_window_get_view_state (fx->window);
  trace = tw_view_state_get_trace (state);
  designer = tw_designer_window_new (GTK_WINDOW (fx->window), state);
  tw_test_present_window (GTK_WINDOW (designer), 1100, 800);

  open_chooser (find_descendant (GTK_WIDGET (designer), TW_TYPE_TASK_CHOOSER), &c);
  /* no "all" row, no idle tasks: a task to step */
  g_assert_cmpuint (g_list_model_get_n_items (chooser_rows (&c)), ==, count_tasks (trace, "", -1, FALSE));
  search_chooser (&c, "ConsumerD", count_tasks (trace, "consumerd", -1, FALSE));
  assert_rows_contain (&c, "consumerd");
  gtk_widget_activate_action (c.list_view, "list.activate-item", "u", 0);
  picked = tw_task_chooser_get_selected_task (TW_TASK_CHOOSER (c.chooser));
  {
    g_autofree char *label = tw_trace_dup_task_label (trace, picked);
    g_assert_nonnull (strstr (label, "consumerd"));
  }

  /* a step goes to that task's first event */
  g_assert_true (tw_designer_window_step (designer, 1));
  {
    TwEvent ev;

    g_assert_true (tw_trace_get_event (trace, tw_view_state_get_selected_event (state), &ev));
    g_assert_cmpuint (ev.task, ==, picked);
  }
  gtk_window_destroy (GTK_WINDOW (designer));
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func) \
  g_test_add ("/tw/app/story-list/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("task-search", test_task_search);
  ADD ("designer-task-search", test_designer_task_search);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
