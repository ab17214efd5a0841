/* test-story-list.c: user stories 3 and 6 on the event list: live growth, task search,
 * the Time column, keeping rows in view, a steady filter bar, Details, a bin's list
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <tw-sensor.h>

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

/* Opens the shared trace @relative; FALSE, the test skipped, when it is missing. */
static gboolean
open_shared (Fixture    *fx,
             const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GFile) file = NULL;
  GtkWidget *stack;

  if (path == NULL)
    {
      g_autofree char *message = g_strdup_printf ("shared/traces/%s is absent", relative);

      g_test_skip (message);
      return FALSE;
    }
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

/* The rows' area: the column view's list view, below the column titles. */
static GtkWidget *
rows_area (TwEventList *list)
{
  return find_descendant (GTK_WIDGET (tw_event_list_get_column_view (list)), GTK_TYPE_LIST_VIEW);
}

/* Whether the row showing event @index (its time, in the list's format) is inside the
 * rows' visible area. */
static gboolean
event_row_in_view (TwEventList *list,
                   guint64      index)
{
  TwTrace *trace = tw_trace_model_get_trace (tw_event_list_get_model (list));
  GtkWidget *scroller = rows_area (list);
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

static gboolean
widget_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* Opens @chooser's popover as a click on it does. The popup surface maps when the X
 * server says so, which a loaded machine takes more than two frames to say. */
static void
open_chooser (GtkWidget *chooser,
              Chooser   *c)
{
  GtkWidget *button = find_descendant (chooser, GTK_TYPE_MENU_BUTTON);
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (button));

  c->chooser = chooser;
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  g_assert_true (tw_test_wait_until (widget_mapped, popover, WAIT_MS));
  tw_test_wait_frames (button, 2);
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

  /* opened again, the list is on that task, far down; a search shows its first match
   * (not the row at the old place in a long list of matches) */
  open_chooser (c.chooser, &c);
  tw_test_wait_frames (c.list_view, 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (c.list_view))), >, 0);
  search_chooser (&c, "fluffy", count_tasks (trace, "fluffy", -1, TRUE));
  tw_test_wait_frames (c.list_view, 2);
  g_assert_cmpfloat (gtk_adjustment_get_value (gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (c.list_view))), ==, 0);
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

/* ------------------------------------------------------------------ the Time column */

/* @label shows all of its text: it got at least its natural width. */
static void
assert_label_whole (GtkWidget *label)
{
  int natural;

  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
  g_assert_cmpint (gtk_widget_get_width (label), >=, natural);
}

static GtkWidget *
find_label_with_text (GtkWidget  *widget,
                      const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  tw_test_collect_descendants (widget, GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (labels->pdata[i]), text) == 0)
      return labels->pdata[i];
  return NULL;
}

static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name)
          && g_strcmp0 (name, action) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Story 3: an LTTng trace's epoch times show every digit to the nanosecond, and read
 * back as the event's time; the header menu's relative mode shows "+s" since the first
 * event with that event's time in the title. */
static void
test_time_column (Fixture       *fx,
                  gconstpointer  data)
{
  TwEventList *list;
  TwTrace *trace;
  GtkColumnView *view;
  g_autoptr(GtkColumnViewColumn) column = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *first = NULL;
  g_autofree char *title = NULL;
  guint64 t0;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, MANY_THREADS))
    return;
  list = event_list (fx);
  view = tw_event_list_get_column_view (list);
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
  t0 = tw_trace_get_first_time (trace);
  g_assert_cmpuint (t0, >, G_GUINT64_CONSTANT (1400000000) * 1000000000);

  rows = drawn_rows (list);
  g_assert_cmpuint (rows->len, >, 5);
  first = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, t0 / 1000000000, t0 % 1000000000);
  g_assert_cmpstr (gtk_label_get_text (row_time_label (rows->pdata[0])), ==, first);
  for (guint i = 0; i < rows->len; i++)
    assert_label_whole (GTK_WIDGET (row_time_label (rows->pdata[i])));

  /* the header menu (a right click on the title) switches to times since the first event */
  column = g_list_model_get_item (gtk_column_view_get_columns (view), 0);
  g_assert_true (menu_has_action (gtk_column_view_column_get_header_menu (column), "eventlist.relative-time"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list), "eventlist.relative-time", NULL));
  g_assert_true (tw_event_list_get_relative_time (list));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = drawn_rows (list);
  g_assert_cmpstr (gtk_label_get_text (row_time_label (rows->pdata[0])), ==, "+0.000000000");
  for (guint i = 0; i < rows->len; i++)
    assert_label_whole (GTK_WIDGET (row_time_label (rows->pdata[i])));
  title = g_strdup_printf ("Time (s) since %s", first);
  g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, title);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  /* the title fits its button (title label → box → button): the button's content is as
   * wide as the text; a box given less still takes the text's width, and the button cuts it */
  {
    GtkWidget *label = find_label_with_text (GTK_WIDGET (view), title);
    GtkWidget *button = gtk_widget_get_parent (gtk_widget_get_parent (label));
    int natural;

    gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
    g_assert_cmpint (gtk_widget_get_width (button), >=, natural);
  }
  {
    TwTraceModel *model = tw_event_list_get_model (list);
    guint64 t = tw_trace_get_time (trace, tw_trace_model_get_event_index (model, 3));
    g_autofree char *expected = g_strdup_printf ("+%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                                                 (t - t0) / 1000000000, (t - t0) % 1000000000);

    g_assert_cmpstr (gtk_label_get_text (row_time_label (rows->pdata[3])), ==, expected);
  }

  /* and back */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (list), "eventlist.relative-time", NULL));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  g_clear_pointer (&rows, g_ptr_array_unref);
  rows = drawn_rows (list);
  g_assert_cmpstr (gtk_label_get_text (row_time_label (rows->pdata[0])), ==, first);
  g_assert_cmpstr (gtk_column_view_column_get_title (column), ==, "Time (s)");
}

/* ------------------------------------------------------------------ Find */

/* A time as the list shows it, "1457113582.794565804", in ns. */
static guint64
parse_list_time (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, ".", 2);

  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_assert_cmpuint (strlen (parts[1]), ==, 9);
  return g_ascii_strtoull (parts[0], NULL, 10) * 1000000000 + g_ascii_strtoull (parts[1], NULL, 10);
}

/* The event of the first row drawn whole at the top of the view. */
static guint64
top_event_in_view (TwEventList *list)
{
  GtkWidget *scroller = rows_area (list);
  TwTrace *trace = tw_trace_model_get_trace (tw_event_list_get_model (list));
  g_autoptr(GPtrArray) rows = drawn_rows (list);
  guint64 best = TW_EVENT_NONE;
  float best_y = G_MAXFLOAT;

  for (guint i = 0; i < rows->len; i++)
    {
      graphene_rect_t bounds;
      g_assert_true (gtk_widget_compute_bounds (rows->pdata[i], scroller, &bounds));
      if (bounds.origin.y < 0 || bounds.origin.y >= best_y)
        continue;
      best_y = bounds.origin.y;
      best = tw_trace_find_first_at_or_after (trace, parse_list_time (gtk_label_get_text (row_time_label (rows->pdata[i]))));
    }
  return best;
}

static void
clear_find (Fixture *fx)
{
  GtkWidget *entry = find_descendant (GTK_WIDGET (event_list (fx)), GTK_TYPE_SEARCH_ENTRY);

  /* as the user empties the entry: GtkSearchEntry reports "" at once */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  g_assert_true (tw_event_list_get_filtering (event_list (fx)));
  wait_filtered (fx);
}

/* Story 3: clearing Find keeps the selected row in view, or without a selection the row
 * that was at the top, instead of jumping to the first row. */
static void
test_find_clear_keeps_row (Fixture       *fx,
                           gconstpointer  data)
{
  TwEventList *list;
  TwViewState *state;
  guint64 selected, top;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, MANY_THREADS))
    return;
  list = event_list (fx);
  state = tw_window_get_view_state (fx->window);

  /* a row picked far down (by the timeline or the list) */
  selected = 150000;
  tw_view_state_set_selected_event (state, selected);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  g_assert_true (event_row_in_view (list, selected));
  tw_event_list_set_filter_text (list, "sched");
  wait_filtered (fx);
  clear_find (fx);
  g_assert_cmpuint (n_shown (list), ==, 240644);
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, selected);
  g_assert_true (event_row_in_view (list, selected));

  /* nothing selected: the row at the top of the filtered list stays on screen */
  tw_view_state_set_selected_event (state, TW_EVENT_NONE);
  tw_event_list_set_filter_text (list, "sched_switch");
  wait_filtered (fx);
  gtk_widget_activate_action (find_descendant (GTK_WIDGET (tw_event_list_get_column_view (list)), GTK_TYPE_LIST_VIEW),
                              "list.scroll-to-item", "u", n_shown (list) / 2);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  top = top_event_in_view (list);
  g_assert_cmpuint (top, >, 1000);
  clear_find (fx);
  g_assert_true (event_row_in_view (list, top));
}

/* ------------------------------------------------------------------ the filter bar */

static void
get_bar_bounds (TwEventList     *list,
                graphene_rect_t *bounds)
{
  GtkWidget *entry = find_descendant (GTK_WIDGET (list), GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *bar = gtk_widget_get_parent (entry);
  guint i = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (bar); child; child = gtk_widget_get_next_sibling (child))
    g_assert_true (gtk_widget_compute_bounds (child, bar, &bounds[i++]));
  g_assert_cmpuint (i, ==, 5);   /* Find, type, task, CPU, count */
}

/* Story 3: picking filters changes the buttons' labels and the count, not where the
 * filter bar's controls are. */
static void
test_filter_bar_steady (Fixture       *fx,
                        gconstpointer  data)
{
  TwEventList *list;
  TwTrace *trace;
  GtkWidget *type_dropdown, *cpu_dropdown, *chooser;
  graphene_rect_t before[5], after[5];
  guint longest = 0;
  guint32 long_task = 0;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, MANY_THREADS))
    return;
  list = event_list (fx);
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
  get_bar_bounds (list, before);

  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    if (strlen (tw_trace_get_event_type (trace, t)->name) > strlen (tw_trace_get_event_type (trace, longest)->name))
      longest = t;
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    if (strlen (tw_trace_get_task (trace, t)->name) > strlen (tw_trace_get_task (trace, long_task)->name))
      long_task = t;
  g_assert_cmpuint (strlen (tw_trace_get_event_type (trace, longest)->name), >, 20);

  type_dropdown = gtk_widget_get_next_sibling (find_descendant (GTK_WIDGET (list), GTK_TYPE_SEARCH_ENTRY));
  chooser = gtk_widget_get_next_sibling (type_dropdown);
  cpu_dropdown = gtk_widget_get_next_sibling (chooser);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (cpu_dropdown), 8);
  wait_filtered (fx);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (type_dropdown), longest + 1);
  wait_filtered (fx);
  tw_task_chooser_set_selected_task (TW_TASK_CHOOSER (chooser), long_task);
  wait_filtered (fx);
  g_assert_true (g_str_has_suffix (count_text (list), " of 240644 events"));
  get_bar_bounds (list, after);
  for (guint i = 0; i < 5; i++)
    {
      g_assert_cmpfloat (after[i].origin.x, ==, before[i].origin.x);
      g_assert_cmpfloat (after[i].size.width, ==, before[i].size.width);
    }
}

/* ------------------------------------------------------------------ Details */

static guint
count_occurrences (const char *haystack,
                   const char *needle)
{
  guint n = 0;

  for (const char *p = strstr (haystack, needle); p; p = strstr (p + 1, needle))
    n++;
  return n;
}

/* Story 3: Details names a S.Ha.R.K. context once: "288 (pid 4)", not "(pid 4)" twice. */
static void
test_details_pid_once (Fixture       *fx,
                       gconstpointer  data)
{
  TwEventList *list;
  TwTrace *trace;
  TwEvent ev;
  guint64 index = 0;
  g_autofree char *details = NULL;
  g_autofree char *label = NULL;
  g_autofree char *line = NULL;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, "shark/shark-newtracer-test.dump"))
    return;
  list = event_list (fx);
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
  for (; tw_trace_get_event (trace, index, &ev); index++)
    {
      const TwTask *t = tw_trace_get_task (trace, ev.task);

      if (t && t->name == NULL && t->pid >= 0)
        break;
    }
  g_assert_true (tw_trace_get_event (trace, index, &ev));
  label = tw_trace_dup_task_label (trace, ev.task);
  g_assert_nonnull (strstr (label, "(pid "));

  /* picked in the list, as a click does */
  gtk_selection_model_select_item (gtk_column_view_get_model (tw_event_list_get_column_view (list)),
                                   tw_trace_model_find_position (tw_event_list_get_model (list), index, NULL), TRUE);
  details = tw_details_pane_dup_text (TW_DETAILS_PANE (tw_window_get_details_pane (fx->window)));
  line = g_strdup_printf ("\nTask: %s\n", label);
  g_assert_nonnull (strstr (details, line));
  g_assert_cmpuint (count_occurrences (details, "(pid "), ==, 1);
}

/* ------------------------------------------------------------------ a bin's measurements */

typedef struct {
  TwEvaluationsPane *pane;
  guint              index;
} Running;

static gboolean
evaluation_done (gpointer data)
{
  Running *r = data;

  return !tw_evaluations_pane_is_running (r->pane, r->index);
}

/* Story 4: a histogram bar's measurements name their tasks as the rest of the window does
 * ("cc1-14305", not "14305") and show whole times. */
static void
test_bin_list_names (Fixture       *fx,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  TwEvaluationsPane *pane;
  TwHistogramView *hist;
  const TwHistogramSnapshot *snapshot;
  TwMeasurementList *bin_list;
  TwMeasurementTable *table;
  TwTrace *trace;
  GtkWidget *notebook, *bin_view, *list_view;
  Running running;
  int tallest = -1;
  guint checked = 0;

  SKIP_WITHOUT_DISPLAY ();
  if (!open_shared (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  trace = tw_view_state_get_trace (tw_window_get_view_state (fx->window));
  pane = tw_window_get_evaluations_pane (fx->window);
  notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);
  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  g_assert_true (tw_evaluations_pane_add_system_metric (pane, "irq-duration", &error));
  g_assert_no_error (error);
  running = (Running) { pane, 0 };
  g_assert_true (tw_test_wait_until (evaluation_done, &running, WAIT_MS));
  table = tw_evaluations_pane_get_table (pane, 0);
  hist = tw_evaluations_pane_get_histogram_view (pane, 0);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);
  snapshot = tw_histogram_view_get_snapshot (hist);
  g_assert_nonnull (snapshot);
  for (guint b = 0; b < snapshot->n_bins; b++)
    if (snapshot->bins[b] > 0 && (tallest < 0 || snapshot->bins[b] > snapshot->bins[tallest]))
      tallest = b;
  tw_histogram_view_select_bin (hist, tallest);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 3);

  bin_list = tw_histogram_view_get_bin_list (hist);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (bin_list)), >, 10);
  bin_view = find_descendant (GTK_WIDGET (hist), GTK_TYPE_COLUMN_VIEW);
  list_view = find_descendant (bin_view, GTK_TYPE_LIST_VIEW);
  for (GtkWidget *row = gtk_widget_get_first_child (list_view); row; row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row) && find_descendant (row, GTK_TYPE_LABEL))
      g_ptr_array_add (rows, row);
  g_assert_cmpuint (rows->len, >, 3);
  for (guint i = 0; i < rows->len; i++)
    {
      g_autoptr(GPtrArray) cells = g_ptr_array_new ();
      const TwMeasurementRow *m = NULL;
      const char *task_text, *begin_text;

      tw_test_collect_descendants (rows->pdata[i], GTK_TYPE_LABEL, cells);
      g_assert_cmpuint (cells->len, ==, 5);
      task_text = gtk_label_get_text (cells->pdata[0]);
      begin_text = gtk_label_get_text (cells->pdata[1]);
      /* the measurement with that begin */
      for (guint p = 0; p < g_list_model_get_n_items (G_LIST_MODEL (bin_list)) && m == NULL; p++)
        {
          const TwMeasurementRow *r = tw_measurement_table_get_row (table, tw_measurement_list_get_row (bin_list, p));
          g_autofree char *begin = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s",
                                                    r->begin / 1000000000, r->begin % 1000000000);

          if (g_strcmp0 (begin, begin_text) == 0)
            m = r;
        }
      if (m == NULL)
        continue;
      {
        g_autofree char *label = tw_trace_dup_task_label (trace, m->task);

        g_assert_cmpstr (task_text, ==, label);
        g_assert_nonnull (strchr (task_text, '-'));   /* name-pid, not a bare pid */
      }
      for (guint c = 1; c < cells->len; c++)
        assert_label_whole (cells->pdata[c]);
      /* the list has room for task, begin and end without scrolling */
      {
        GtkWidget *scroller = gtk_widget_get_ancestor (bin_view, GTK_TYPE_SCROLLED_WINDOW);
        graphene_rect_t end_bounds;

        g_assert_true (gtk_widget_compute_bounds (cells->pdata[2], scroller, &end_bounds));
        g_assert_cmpfloat (end_bounds.origin.x + end_bounds.size.width, <=, gtk_widget_get_width (scroller));
      }
      checked++;
    }
  g_assert_cmpuint (checked, >, 3);
}

/* ------------------------------------------------------------------ live */

/* Runs the main loop for @ms (the session's ticks, the poll thread, the list's look). */
static void
spin (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * 1000;

  while (g_get_monotonic_time () < end)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
}

static gboolean
list_has_rows (gpointer data)
{
  return n_shown (data) > 0;
}

static guint n_items_changed;

static void
count_items_changed (void)
{
  n_items_changed++;
}

typedef struct {
  TwEventList *list;
  guint        before;
} Growth;

static gboolean
list_grew (gpointer data)
{
  Growth *g = data;

  return n_shown (g->list) > g->before;
}

/* The list grows (rows and count) over at least @ms (longer on a loaded machine), at a
 * bounded rate of items-changed; returns the rows it shows then. */
static guint
assert_list_grows (TwEventList *list,
                   guint        ms)
{
  TwTraceModel *model = tw_event_list_get_model (list);
  Growth growth = { list, n_shown (list) };
  g_autofree char *count = NULL;
  gint64 start = g_get_monotonic_time ();
  gulong handler;
  guint elapsed_ms;

  n_items_changed = 0;
  handler = g_signal_connect_swapped (model, "items-changed", G_CALLBACK (count_items_changed), NULL);
  spin (ms);
  g_assert_true (tw_test_wait_until (list_grew, &growth, WAIT_MS));
  elapsed_ms = (g_get_monotonic_time () - start) / 1000;
  g_signal_handler_disconnect (model, handler);
  g_assert_true (tw_event_list_get_model (list) == model);
  /* the list looks 4 times a second, not at each of the session's ~30 updates */
  g_test_message ("%u → %u rows in %u ms, %u items-changed", growth.before, n_shown (list), elapsed_ms,
                  n_items_changed);
  g_assert_cmpuint (n_items_changed, >, 0);
  g_assert_cmpuint (n_items_changed, <=, elapsed_ms / 250 + 2);
  if (tw_trace_model_get_filter (model) == NULL)
    {
      count = g_strdup_printf ("%u events", n_shown (list));
      g_assert_cmpstr (count_text (list), ==, count);
    }
  return n_shown (list);
}

/* Story 6: under the live demo the list grows with the trace (count and rows), rows
 * can be selected, it keeps growing while paused, and a filter keeps up. */
static void
test_live_list (Fixture       *fx,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sensor_dir = NULL;
  const char *program = g_getenv ("TW_DEMO_RT");
  TwEventList *list;
  TwViewState *state;
  TwTrace *trace;
  GtkSelectionModel *selection;
  guint position;
  guint64 index;
  TwEvent ev;
  const char *type_name;

  SKIP_WITHOUT_DISPLAY ();
  if (program == NULL)
    {
      g_test_skip ("TW_DEMO_RT not set (run through meson test)");
      return;
    }
  sensor_dir = tw_test_use_temp_sensor_dir ();
  fx->session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_spawn_demo (fx->session, program, &error));
  g_assert_no_error (error);
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
  list = event_list (fx);
  state = tw_window_get_view_state (fx->window);
  trace = tw_live_session_get_trace (fx->session);

  g_assert_true (tw_test_wait_until (list_has_rows, list, WAIT_MS));
  assert_list_grows (list, 2000);

  /* a row picked in the list is the view state's selected event */
  selection = gtk_column_view_get_model (tw_event_list_get_column_view (list));
  position = n_shown (list) / 2;
  gtk_selection_model_select_item (selection, position, TRUE);
  index = tw_trace_model_get_event_index (tw_event_list_get_model (list), position);
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, index);
  g_assert_cmpuint (tw_view_state_get_cursor (state), ==, tw_trace_get_time (trace, index));

  /* paused: the timeline stands still, the list still shows what arrives */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.live-pause", NULL));
  g_assert_true (tw_live_session_get_paused (fx->session));
  assert_list_grows (list, 1000);
  g_assert_cmpuint (tw_event_list_get_selected_position (list), ==, position);

  /* Find by a type's name: the filtered list grows too, with that type's rows only */
  g_assert_true (tw_trace_get_event (trace, index, &ev));
  type_name = tw_trace_get_event_type (trace, ev.type)->name;
  tw_event_list_set_filter_text (list, type_name);
  /* no frames waited for: a busy live window (under ASan) may draw none for seconds */
  g_assert_true (tw_test_wait_until (not_filtering, list, WAIT_MS));
  g_assert_cmpuint (n_shown (list), >, 0);
  assert_list_grows (list, 1000);
  for (guint i = 0; i < n_shown (list); i += 1 + n_shown (list) / 50)
    {
      TwEvent shown;

      g_assert_true (tw_trace_get_event (trace, tw_trace_model_get_event_index (tw_event_list_get_model (list), i), &shown));
      g_assert_cmpuint (shown.type, ==, ev.type);
    }

  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  tw_test_remove_sensor_dir (g_steal_pointer (&sensor_dir));
}

static void
commit_elements (TwSensor *sensor,
                 guint     n)
{
  for (guint i = 0; i < n; i++)
    {
      guint64 *element = tw_sensor_write (sensor);

      *element = i;
      tw_sensor_commit (sensor, element);
    }
}

typedef struct {
  TwEventList *list;
  guint        n;
} ShownCount;

static gboolean
shows_n (gpointer data)
{
  ShownCount *c = data;

  return !tw_event_list_get_filtering (c->list) && n_shown (c->list) == c->n;
}

/* Story 6: a Find typed before the task it names appears shows that task's rows once
 * they arrive (Find resolves its text against the tasks there are). */
static void
test_live_find_new_task (Fixture       *fx,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *sensor_dir = NULL;
  TwSensor *early, *late;
  TwEventList *list;
  ShownCount count;

  SKIP_WITHOUT_DISPLAY ();
  sensor_dir = tw_test_use_temp_sensor_dir ();
  early = tw_sensor_new ("early", "tick", "u64 seq", 4096, 0);
  g_assert_nonnull (early);
  fx->session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
  list = event_list (fx);
  commit_elements (early, 5);
  count = (ShownCount) { list, 5 };
  g_assert_true (tw_test_wait_until (shows_n, &count, WAIT_MS));

  tw_event_list_set_filter_text (list, "LATE");
  count.n = 0;
  g_assert_true (tw_test_wait_until (shows_n, &count, WAIT_MS));
  /* past the entry's search delay: Find is resolved once, before "late" exists */
  spin (300);

  late = tw_sensor_new ("late", "tick", "u64 seq", 4096, 0);
  g_assert_nonnull (late);
  commit_elements (late, 7);
  commit_elements (early, 3);
  count.n = 7;
  g_assert_true (tw_test_wait_until (shows_n, &count, WAIT_MS));
  g_assert_true (g_str_has_suffix (count_text (list), " of 15 events"));

  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  tw_sensor_free (early);
  tw_sensor_free (late);
  tw_test_remove_sensor_dir (g_steal_pointer (&sensor_dir));
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
  ADD ("live-list", test_live_list);
  ADD ("live-find-new-task", test_live_find_new_task);
  ADD ("time-column", test_time_column);
  ADD ("find-clear-keeps-row", test_find_clear_keeps_row);
  ADD ("filter-bar-steady", test_filter_bar_steady);
  ADD ("details-pid-once", test_details_pid_once);
  ADD ("bin-list-names", test_bin_list_names);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
