/* test-story-words.c: what users type, in the real window on the real traces
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Story 2 (navigate): go to a time typed as the event list shows it — on the LTTng
 * many-threads trace (epoch ns) and the recorded trace.dat — in every accepted form,
 * through Ctrl+G's popover: the right event is selected and the cursor is on screen.
 * Story 4 (measure): a metric naming an event the trace lacks says so and offers the
 * closest names; event-name entries complete substrings; evaluation tabs get names
 * that tell them apart.
 */
#include "config.h"

#include <tw-evaluators.h>

#include "tw-application.h"
#include "tw-event-name-entry.h"
#include "tw-go-to-time.h"
#include "tw-test-app.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define WAIT_MS   60000
#define NS_PER_S  G_GUINT64_CONSTANT (1000000000)

static TwApplication *app;
static gboolean have_display;

typedef struct {
  TwWindow *window;
} Fixture;

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
    tw_test_close_window (GTK_WINDOW (fx->window));
}

static gboolean
page_is_trace (gpointer data)
{
  return g_strcmp0 (tw_window_get_page (data), "trace") == 0 && !tw_window_get_loading (data);
}

/* Opens a trace of ../shared/traces in the window; FALSE (the test skipped) when the
 * traces are not there. */
static gboolean
open_shared_trace (Fixture    *fx,
                   const char *relative)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GFile) file = NULL;

  if (path == NULL)
    {
      g_test_skip_printf ("shared/traces/%s is not there", relative);
      return FALSE;
    }
  file = g_file_new_for_path (path);
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
  return TRUE;
}

static TwTrace *
get_trace (Fixture *fx)
{
  return tw_view_state_get_trace (tw_window_get_view_state (fx->window));
}

/* ------------------------------------------------------------------ go to time */

static TwGoToTime *
find_go_to_time (Fixture *fx)
{
  g_autoptr(GPtrArray) found = g_ptr_array_new ();

  tw_test_collect_descendants (GTK_WIDGET (fx->window), TW_TYPE_GO_TO_TIME, found);
  g_assert_cmpuint (found->len, ==, 1);
  return g_ptr_array_index (found, 0);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static gboolean
is_unmapped (gpointer widget)
{
  return !gtk_widget_get_mapped (widget);
}

/* Ctrl+G, then the text typed into the popover's entry. */
static GtkWidget *
open_and_type (Fixture    *fx,
               const char *text)
{
  TwGoToTime *popover = find_go_to_time (fx);
  GtkWidget *entry = tw_go_to_time_get_entry (popover);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fx->window), "win.go-to-time", NULL));
  g_assert_true (tw_test_wait_until (is_mapped, popover, WAIT_MS));
  /* the user types at once: the entry has the focus */
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (fx->window)), entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  return entry;
}

/* Enter in the entry: the Enter key binding of its text widget (which has the focus)
 * emits the text's ::activate, which the entry forwards. */
static void
press_enter (GtkWidget *entry)
{
  GtkWidget *text = gtk_root_get_focus (gtk_widget_get_root (entry));

  g_assert_true (GTK_IS_TEXT (text) && gtk_widget_is_ancestor (text, entry));
  g_signal_emit_by_name (text, "activate");
}

/* Zooms to the trace's first 10 µs, so that going anywhere else must move the view. */
static void
zoom_to_start (Fixture *fx)
{
  TwViewState *state = tw_window_get_view_state (fx->window);
  guint64 first = tw_trace_get_first_time (get_trace (fx));

  tw_view_state_set_visible_range (state, first, first + 10000);
}

/* Types @text as a user would and presses Enter: the event nearest @meant_ns must be
 * selected, the cursor on it and in view. */
static void
go_to (Fixture    *fx,
       const char *text,
       guint64     meant_ns)
{
  TwViewState *state = tw_window_get_view_state (fx->window);
  TwTrace *trace = get_trace (fx);
  TwGoToTime *popover = find_go_to_time (fx);
  g_autofree char *meant = g_strdup_printf ("→ %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s (",
                                            meant_ns / NS_PER_S, meant_ns % NS_PER_S);
  guint64 expected = tw_trace_find_event_at (trace, meant_ns);
  GtkWidget *entry;
  guint64 begin, end, cursor;

  g_test_message ("go to “%s”: %s", text, meant);
  zoom_to_start (fx);
  tw_view_state_set_selected_event (state, TW_EVENT_NONE);
  entry = open_and_type (fx, text);
  /* said while typing, before Enter */
  g_assert_true (g_str_has_prefix (tw_go_to_time_get_feedback (popover), meant));

  press_enter (entry);
  g_assert_true (tw_test_wait_until (is_unmapped, popover, WAIT_MS));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 1);

  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, expected);
  cursor = tw_view_state_get_cursor (state);
  g_assert_cmpuint (cursor, ==, tw_trace_get_time (trace, expected));
  tw_view_state_get_visible_range (state, &begin, &end);
  g_assert_cmpuint (cursor, >=, begin);
  g_assert_cmpuint (cursor, <, end);
}

/* A bad time is said in red, and nothing moves. */
static void
go_to_bad (Fixture    *fx,
           const char *text,
           const char *example)
{
  TwViewState *state = tw_window_get_view_state (fx->window);
  TwGoToTime *popover = find_go_to_time (fx);
  guint64 selected = tw_view_state_get_selected_event (state);
  GtkWidget *entry = open_and_type (fx, text);
  g_autofree char *said = g_strdup_printf ("“%s” is not a time", text);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  gboolean red = FALSE;

  press_enter (entry);
  tw_test_wait_frames (GTK_WIDGET (fx->window), 1);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (popover)));
  g_assert_true (g_str_has_prefix (tw_go_to_time_get_feedback (popover), said));
  g_assert_nonnull (strstr (tw_go_to_time_get_feedback (popover), example));
  tw_test_collect_descendants (GTK_WIDGET (popover), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    red |= gtk_widget_has_css_class (g_ptr_array_index (labels, i), "error");
  g_assert_true (red);
  g_assert_cmpuint (tw_view_state_get_selected_event (state), ==, selected);
  gtk_popover_popdown (GTK_POPOVER (popover));
  g_assert_true (tw_test_wait_until (is_unmapped, popover, WAIT_MS));
}

/* The many-threads LTTng trace: times are ns since the Unix epoch, 1457113582.79… s;
 * the list shows all ten digits of the seconds. */
static void
test_go_to_time_lttng (Fixture       *fx,
                       gconstpointer  data)
{
  TwTrace *trace;
  guint64 first, t, s, frac;
  g_autofree char *full = NULL;
  g_autofree char *tail3 = NULL;
  g_autofree char *tail1_cut = NULL;
  g_autofree char *tail1_s = NULL;
  g_autofree char *since_ms = NULL;
  g_autofree char *since_us = NULL;
  g_autofree char *in_ns = NULL;
  g_autofree char *point = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ctf/lttng-kernel-many-threads/trace"))
    return;
  trace = get_trace (fx);
  first = tw_trace_get_first_time (trace);
  t = tw_trace_get_time (trace, tw_trace_get_n_events (trace) / 4);
  s = t / NS_PER_S;
  frac = t % NS_PER_S;
  g_assert_cmpuint (s, >, 1000000000);          /* an epoch time: the point of the story */

  full = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, s, frac);
  go_to (fx, full, t);
  /* the last digits of the seconds, as a user retypes them from the list */
  tail3 = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, s % 1000, frac);
  go_to (fx, tail3, t);
  tail1_cut = g_strdup_printf ("%" G_GUINT64_FORMAT ".%07" G_GUINT64_FORMAT, s % 10, frac / 100);
  go_to (fx, tail1_cut, t - t % 100);
  tail1_s = g_strdup_printf (" %" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT " s ", s % 10, frac);
  go_to (fx, tail1_s, t);
  /* units, and + since the first event */
  since_ms = g_strdup_printf ("+%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT " ms",
                              (t - first) / 1000000, (t - first) % 1000000);
  go_to (fx, since_ms, t);
  since_us = g_strdup_printf ("+ %" G_GUINT64_FORMAT " µs", (t - first) / 1000);
  go_to (fx, since_us, t - (t - first) % 1000);
  in_ns = g_strdup_printf ("%" G_GUINT64_FORMAT "ns", t);
  go_to (fx, in_ns, t);
  go_to (fx, "+0", first);

  /* the first event, typed as the list shows it but cut: said honestly */
  open_and_type (fx, "2.7945658");
  g_assert_cmpstr (tw_go_to_time_get_feedback (find_go_to_time (fx)), ==,
                   "→ 1457113582.794565800 s (−4 ns)\n"
                   "before the first event; leading digits from the trace");
  gtk_popover_popdown (GTK_POPOVER (find_go_to_time (fx)));

  point = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                           (first / NS_PER_S) % 10, first % NS_PER_S);
  go_to_bad (fx, "2.79 sec", point);
  go_to_bad (fx, "+", point);
}

/* The recorded trace.dat: times since boot, 933.3… s to 939.8… s. */
static void
test_go_to_time_trace_dat (Fixture       *fx,
                           gconstpointer  data)
{
  TwTrace *trace;
  guint64 first, t, s, frac;
  g_autofree char *full = NULL;
  g_autofree char *tail1 = NULL;
  g_autofree char *tail2_cut = NULL;
  g_autofree char *since_ms = NULL;
  g_autofree char *since_s = NULL;
  g_autofree char *in_ms = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  trace = get_trace (fx);
  first = tw_trace_get_first_time (trace);
  t = tw_trace_get_time (trace, tw_trace_get_n_events (trace) / 2);
  s = t / NS_PER_S;
  frac = t % NS_PER_S;
  g_assert_cmpuint (s, >=, 100);   /* three digits of seconds: "6.5" is a tail */

  full = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, s, frac);
  go_to (fx, full, t);
  tail1 = g_strdup_printf ("%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, s % 10, frac);
  go_to (fx, tail1, t);
  tail2_cut = g_strdup_printf ("%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT, s % 100, frac / 1000);
  go_to (fx, tail2_cut, t - t % 1000);
  since_ms = g_strdup_printf ("+%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT "ms",
                              (t - first) / 1000000, (t - first) % 1000000);
  go_to (fx, since_ms, t);
  since_s = g_strdup_printf ("+%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT,
                             (t - first) / NS_PER_S, (t - first) % NS_PER_S);
  go_to (fx, since_s, t);
  in_ms = g_strdup_printf ("%" G_GUINT64_FORMAT ".%06" G_GUINT64_FORMAT " ms",
                           t / 1000000, t % 1000000);
  go_to (fx, in_ms, t);

  go_to_bad (fx, "soon", "933.349599835");
}

/* ------------------------------------------------------------------ event names */

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  tw_test_collect_descendants (root, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      return g_ptr_array_index (buttons, i);
  g_error ("no button “%s”", label);
}

/* What a pointer click ends in (gtk_widget_activate() on a button clicks it 250 ms
 * later, after animating the press). */
static void
click (GtkWidget *button)
{
  g_signal_emit_by_name (button, "clicked");
}

static TwEventNameEntry *
find_name_entry (TwEvaluationsPane *pane,
                 guint              index)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();

  tw_test_collect_descendants (GTK_WIDGET (pane), TW_TYPE_EVENT_NAME_ENTRY, entries);
  g_assert_cmpuint (entries->len, ==, 2);   /* start, end */
  return g_ptr_array_index (entries, index);
}

/* The pane's message line: what the last button press said. */
static const char *
pane_message (TwEvaluationsPane *pane)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  tw_test_collect_descendants (GTK_WIDGET (pane), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    {
      GtkWidget *label = g_ptr_array_index (labels, i);

      /* in the pane's control rows, not in an evaluation's page */
      if (gtk_widget_has_css_class (label, "error") &&
          gtk_widget_get_parent (gtk_widget_get_parent (label)) == GTK_WIDGET (pane))
        return gtk_label_get_text (GTK_LABEL (label));
    }
  g_error ("the pane has no message line");
}

static TwEvaluationsPane *
show_pane (Fixture *fx)
{
  TwEvaluationsPane *pane = tw_window_get_evaluations_pane (fx->window);
  GtkWidget *notebook = gtk_widget_get_ancestor (GTK_WIDGET (pane), GTK_TYPE_NOTEBOOK);

  gtk_notebook_set_current_page (GTK_NOTEBOOK (notebook),
                                 gtk_notebook_page_num (GTK_NOTEBOOK (notebook), GTK_WIDGET (pane)));
  tw_test_wait_frames (GTK_WIDGET (fx->window), 1);
  return pane;
}

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

static void
wait_evaluation (TwEvaluationsPane *pane,
                 guint              index)
{
  Running r = { pane, index };

  g_assert_true (tw_test_wait_until (evaluation_done, &r, WAIT_MS));
  g_assert_null (tw_evaluations_pane_get_error_message (pane, index));
}

/* Story 4: a user metric naming an event the trace lacks says so, with the closest
 * names, instead of measuring nothing; the warning icon takes the best one. */
static void
test_unknown_event (Fixture       *fx,
                    gconstpointer  data)
{
  TwEvaluationsPane *pane;
  TwEventNameEntry *start, *end;
  GtkWidget *add;
  g_autofree char *tooltip = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  pane = show_pane (fx);
  start = find_name_entry (pane, 0);
  end = find_name_entry (pane, 1);
  add = find_button (GTK_WIDGET (pane), "Add _User Metric");

  gtk_editable_set_text (GTK_EDITABLE (start), "sched_wakup");
  gtk_editable_set_text (GTK_EDITABLE (end), "sched_switch");
  /* the entry warns before anything is added */
  g_assert_true (tw_event_name_entry_is_unknown (start));
  g_assert_false (tw_event_name_entry_is_unknown (end));
  g_assert_cmpstr (gtk_entry_get_icon_name (GTK_ENTRY (start), GTK_ENTRY_ICON_SECONDARY), ==,
                   "dialog-warning-symbolic");
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (end), GTK_ENTRY_ICON_SECONDARY));
  tooltip = gtk_entry_get_icon_tooltip_text (GTK_ENTRY (start), GTK_ENTRY_ICON_SECONDARY);
  g_assert_nonnull (strstr (tooltip, "No event “sched_wakup” in this trace"));
  g_assert_nonnull (strstr (tooltip, "Click to use sched_wakeup."));

  click (add);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 0);
  g_assert_cmpstr (pane_message (pane), ==,
                   "no event “sched_wakup” in this trace (did you "
                   "mean sched_wakeup?)");

  /* a click on the warning takes the best name, and the metric measures */
  g_signal_emit_by_name (start, "icon-press", GTK_ENTRY_ICON_SECONDARY);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (start)), ==, "sched_wakeup");
  g_assert_false (tw_event_name_entry_is_unknown (start));
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (start), GTK_ENTRY_ICON_SECONDARY));
  click (add);
  g_assert_cmpstr (pane_message (pane), ==, "");
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 1);
  wait_evaluation (pane, 0);
  g_assert_cmpuint (tw_measurement_table_get_n_rows (tw_evaluations_pane_get_table (pane, 0)), >, 0);

  /* a kind written without its prefix, in the metric that takes an event name */
  gtk_editable_set_text (GTK_EDITABLE (start), "switch");
  g_assert_true (tw_event_name_entry_is_unknown (start));
  g_assert_null (gtk_entry_get_icon_name (GTK_ENTRY (start), GTK_ENTRY_ICON_SECONDARY));  /* typing on */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gtk_widget_get_prev_sibling (find_button (GTK_WIDGET (pane), "_Add Metric"))),
                              6);   /* inter-arrival */
  click (find_button (GTK_WIDGET (pane), "_Add Metric"));
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 1);
  g_assert_cmpstr (pane_message (pane), ==,
                   "no event “switch” in this trace (did you mean "
                   "kind:switch, sched_switch?)");
}

static GtkTreeView *
completion_view (GtkWidget *entry)
{
  g_autoptr(GPtrArray) views = g_ptr_array_new ();

  tw_test_collect_descendants (entry, GTK_TYPE_TREE_VIEW, views);
  g_assert_cmpuint (views->len, ==, 1);
  return g_ptr_array_index (views, 0);
}

static char *
dup_completions (GtkWidget  *entry,
                 const char *typed)
{
  GtkEntryCompletion *completion = gtk_entry_get_completion (GTK_ENTRY (entry));
  GtkTreeModel *model = gtk_tree_view_get_model (completion_view (entry));
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) names = NULL;
  GtkTreeIter iter;

  gtk_editable_set_text (GTK_EDITABLE (entry), typed);
  gtk_entry_completion_complete (completion);
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *name = NULL;

      gtk_tree_model_get (model, &iter, 0, &name, -1);
      g_strv_builder_add (builder, name);
    }
  names = g_strv_builder_end (builder);
  return g_strjoinv (" ", names);
}

/* The completion lists names that contain what was typed, not only those that start
 * with it, and the closest names for a typo. */
static void
test_completion (Fixture       *fx,
                 gconstpointer  data)
{
  TwEvaluationsPane *pane;
  GtkWidget *start;
  g_autofree char *wakeup = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *typo = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  pane = show_pane (fx);
  start = GTK_WIDGET (find_name_entry (pane, 0));
  gtk_widget_grab_focus (start);

  wakeup = dup_completions (start, "wakeup");
  g_assert_cmpstr (wakeup, ==, "sched_wakeup kind:wakeup");
  entry = dup_completions (start, "ENTRY");
  g_assert_cmpstr (entry, ==, "softirq_entry irq_handler_entry kind:irq_entry kind:softirq_entry");
  typo = dup_completions (start, "sched_swich");
  g_assert_cmpstr (typo, ==, "sched_switch");
}

/* A name typed whole is not offered again, so the completion has no row left and GTK
 * closes its popup, instead of leaving it over the pane while the user goes on to the next
 * field (seen walking the Explain story). */
static void
test_completion_typed_whole (Fixture       *fx,
                             gconstpointer  data)
{
  g_autoptr(GFile) file = g_file_new_for_path (TW_SOURCE_DIR "/tests/fixtures/ftrace/tracefs-sched-irq.txt");
  TwEvaluationsPane *pane;
  GtkWidget *start;
  g_autofree char *partial = NULL;
  g_autofree char *whole = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  tw_window_open_file (fx->window, file);
  g_assert_true (tw_test_wait_until (page_is_trace, fx->window, WAIT_MS));
  pane = show_pane (fx);
  start = GTK_WIDGET (find_name_entry (pane, 0));
  gtk_widget_grab_focus (start);

  partial = dup_completions (start, "sched_sw");
  g_assert_cmpstr (partial, ==, "sched_switch");
  whole = dup_completions (start, "sched_switch");
  g_assert_cmpstr (whole, ==, "");
  tw_test_wait_frames (GTK_WIDGET (fx->window), 2);
}

/* Two evaluations of one metric get names that tell their tabs apart. */
static void
test_unique_tab_names (Fixture       *fx,
                       gconstpointer  data)
{
  TwEvaluationsPane *pane;
  GtkWidget *add;
  GtkWidget *notebook;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  pane = show_pane (fx);
  add = find_button (GTK_WIDGET (pane), "_Add Metric");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (gtk_widget_get_prev_sibling (add)), 0);  /* irq-duration */
  for (guint i = 0; i < 3; i++)
    click (add);
  g_assert_cmpuint (tw_evaluations_pane_get_n_evaluations (pane), ==, 3);
  g_assert_cmpstr (tw_evaluations_pane_get_name (pane, 0), ==, "irq-duration");
  g_assert_cmpstr (tw_evaluations_pane_get_name (pane, 1), ==, "irq-duration (2)");
  g_assert_cmpstr (tw_evaluations_pane_get_name (pane, 2), ==, "irq-duration (3)");
  notebook = gtk_widget_get_ancestor (tw_evaluations_pane_get_page (pane, 1), GTK_TYPE_NOTEBOOK);
  g_assert_cmpstr (gtk_notebook_get_tab_label_text (GTK_NOTEBOOK (notebook),
                                                    tw_evaluations_pane_get_page (pane, 1)),
                   ==, "irq-duration (2)");

  /* a freed name is used again */
  for (guint i = 0; i < 3; i++)
    wait_evaluation (pane, i);
  tw_evaluations_pane_remove (pane, 1);
  click (add);
  g_assert_cmpstr (tw_evaluations_pane_get_name (pane, 2), ==, "irq-duration (2)");
  wait_evaluation (pane, 2);
}

/* An automaton whose label the trace lacks still runs, and its tab says which. */
static const char TYPO_AUTOMATON[] =
  "{ \"tracewb_automaton\": 1, \"name\": \"typo\", \"initial\": \"idle\",\n"
  "  \"states\": [ { \"id\": \"idle\", \"kind\": \"out\" }, { \"id\": \"begin\", \"kind\": \"begin\" },\n"
  "              { \"id\": \"end\", \"kind\": \"end\" } ],\n"
  "  \"transitions\": [\n"
  "    { \"from\": \"idle\", \"to\": \"begin\", \"event\": \"irq_handler_entri\", \"task\": \"same\" },\n"
  "    { \"from\": \"begin\", \"to\": \"end\", \"event\": \"irq_exit\", \"task\": \"same\" },\n"
  "    { \"from\": \"end\", \"to\": \"idle\", \"label\": \"lambda\" } ] }\n";

static void
test_automaton_unknown_label (Fixture       *fx,
                              gconstpointer  data)
{
  g_autofree char *path = tw_test_write_temp_file ("typo.json", TYPO_AUTOMATON, -1);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  TwEvaluationsPane *pane;
  gboolean said = FALSE;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  if (!open_shared_trace (fx, "ftrace/recorded/sched_irq_5s.dat"))
    return;
  pane = show_pane (fx);
  g_assert_true (tw_evaluations_pane_add_automaton (pane, path, &error));
  g_assert_no_error (error);
  wait_evaluation (pane, 0);
  tw_test_collect_descendants (tw_evaluations_pane_get_page (pane, 0), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    said |= strstr (gtk_label_get_text (g_ptr_array_index (labels, i)),
                    "typo.json: 0 measurements; no event “irq_handler_entri” in this trace (did "
                    "you mean irq_handler_entry") != NULL;
  g_assert_true (said);
}

int
main (int    argc,
      char **argv)
{
  int status;

  app = tw_test_init_application (&argc, &argv);
  have_display = app != NULL;

#define ADD(path, func) g_test_add ("/tw/app/story-words/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("go-to-time/lttng", test_go_to_time_lttng);
  ADD ("go-to-time/trace-dat", test_go_to_time_trace_dat);
  ADD ("unknown-event", test_unknown_event);
  ADD ("completion", test_completion);
  ADD ("completion-typed-whole", test_completion_typed_whole);
  ADD ("unique-tab-names", test_unique_tab_names);
  ADD ("automaton-unknown-label", test_automaton_unknown_label);
#undef ADD

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}
