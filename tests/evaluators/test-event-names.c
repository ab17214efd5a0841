/* test-event-names.c: event names users type, checked against a trace's type table
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <tw-evaluators.h>

#include "tw-test-utils.h"

/* The names an LTTng kernel trace and a user's tracepoints give. */
static TwTrace *
build_trace (void)
{
  TwTrace *trace = tw_trace_new ();

  tw_test_add_simple_type (trace, "sched_switch", TW_EVENT_KIND_SWITCH);
  tw_test_add_simple_type (trace, "sched_wakeup", TW_EVENT_KIND_WAKEUP);
  tw_test_add_simple_type (trace, "sched_waking", TW_EVENT_KIND_OTHER);
  tw_test_add_simple_type (trace, "irq_handler_entry", TW_EVENT_KIND_IRQ_ENTRY);
  tw_test_add_simple_type (trace, "irq_handler_exit", TW_EVENT_KIND_IRQ_EXIT);
  tw_test_add_simple_type (trace, "job@start", TW_EVENT_KIND_USER);
  return trace;
}

static void
test_known (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  static const struct {
    const char        *name;
    TwEventNameSyntax  syntax;
    gboolean           known;
  } cases[] = {
    { "sched_switch", TW_EVENT_NAME_RAW, TRUE },
    { "sched_switch", TW_EVENT_NAME_SELECTOR, TRUE },
    { "sched_switch", TW_EVENT_NAME_LABEL, TRUE },
    { "kind:switch", TW_EVENT_NAME_SELECTOR, TRUE },
    { "kind:switch", TW_EVENT_NAME_RAW, FALSE },
    { "kind:switch", TW_EVENT_NAME_LABEL, FALSE },
    { "switch", TW_EVENT_NAME_LABEL, TRUE },
    { "switch", TW_EVENT_NAME_SELECTOR, FALSE },
    { "kind:softirq_entry", TW_EVENT_NAME_SELECTOR, FALSE },  /* no type of that kind */
    { "kind:other", TW_EVENT_NAME_SELECTOR, FALSE },          /* selects nothing */
    { "Sched_Switch", TW_EVENT_NAME_SELECTOR, FALSE },
    { "", TW_EVENT_NAME_SELECTOR, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%s in syntax %d", cases[i].name, cases[i].syntax);
      g_assert_cmpint (tw_event_names_is_known (trace, cases[i].name, cases[i].syntax), ==,
                       cases[i].known);
    }
}

static void
test_all (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  g_auto(GStrv) selectors = tw_event_names_dup_all (trace, TW_EVENT_NAME_SELECTOR);
  g_auto(GStrv) labels = tw_event_names_dup_all (trace, TW_EVENT_NAME_LABEL);
  g_auto(GStrv) raw = tw_event_names_dup_all (trace, TW_EVENT_NAME_RAW);
  g_autofree char *s = g_strjoinv (" ", selectors);
  g_autofree char *l = g_strjoinv (" ", labels);
  g_autofree char *r = g_strjoinv (" ", raw);

  g_assert_cmpstr (r, ==, "sched_switch sched_wakeup sched_waking irq_handler_entry "
                          "irq_handler_exit job@start");
  g_assert_cmpstr (s, ==, "sched_switch sched_wakeup sched_waking irq_handler_entry "
                          "irq_handler_exit job@start kind:switch kind:wakeup kind:irq_entry "
                          "kind:irq_exit kind:user");
  g_assert_cmpstr (l, ==, "sched_switch sched_wakeup sched_waking irq_handler_entry "
                          "irq_handler_exit job@start switch wakeup irq_entry irq_exit user");
}

static void
test_closest (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  static const struct {
    const char        *name;
    TwEventNameSyntax  syntax;
    const char        *expected;   /* the suggestions, best first, space-separated */
  } cases[] = {
    /* typos: a few edits away */
    { "sched_wakup", TW_EVENT_NAME_SELECTOR, "sched_wakeup sched_waking" },
    { "shced_switch", TW_EVENT_NAME_SELECTOR, "sched_switch kind:switch" },
    /* case */
    { "Sched_Switch", TW_EVENT_NAME_SELECTOR, "sched_switch kind:switch" },
    /* a kind written without its prefix, or another tracer's spelling */
    { "switch", TW_EVENT_NAME_SELECTOR, "kind:switch sched_switch" },
    { "switch", TW_EVENT_NAME_RAW, "sched_switch" },
    { "kind:switch", TW_EVENT_NAME_LABEL, "switch sched_switch" },
    { "irq_entry", TW_EVENT_NAME_RAW, "irq_handler_entry" },
    { "irq_entry", TW_EVENT_NAME_SELECTOR, "kind:irq_entry irq_handler_entry" },
    /* a part of names: the closer length first, then by name */
    { "wak", TW_EVENT_NAME_RAW, "sched_wakeup sched_waking" },
    { "job", TW_EVENT_NAME_RAW, "job@start" },
    /* nothing close */
    { "page_fault", TW_EVENT_NAME_SELECTOR, "" },
    { "", TW_EVENT_NAME_SELECTOR, "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) closest = tw_event_names_dup_closest (trace, cases[i].name, cases[i].syntax, 2);
      g_autofree char *joined = g_strjoinv (" ", closest);

      g_test_message ("closest to “%s” in syntax %d: %s", cases[i].name, cases[i].syntax, joined);
      g_assert_cmpstr (joined, ==, cases[i].expected);
    }
}

static void
test_unknown_text (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  g_autofree char *typo = tw_event_names_dup_unknown_text (trace, "sched_wakup", TW_EVENT_NAME_SELECTOR);
  g_autofree char *none = tw_event_names_dup_unknown_text (trace, "page_fault", TW_EVENT_NAME_SELECTOR);

  g_assert_cmpstr (typo, ==, "no event “sched_wakup” in this trace (did you mean sched_wakeup, "
                             "sched_waking?)");
  g_assert_cmpstr (none, ==, "no event “page_fault” in this trace, nor one with a similar name");
}

static void
test_contain_text (void)
{
  g_autoptr(TwTrace) trace = build_trace ();

  g_assert_true (tw_event_names_contain_text (trace, "wak", TW_EVENT_NAME_RAW));
  g_assert_true (tw_event_names_contain_text (trace, "WAK", TW_EVENT_NAME_RAW));
  g_assert_true (tw_event_names_contain_text (trace, "handler_ent", TW_EVENT_NAME_RAW));
  g_assert_true (tw_event_names_contain_text (trace, "kind:sw", TW_EVENT_NAME_SELECTOR));
  g_assert_false (tw_event_names_contain_text (trace, "kind:sw", TW_EVENT_NAME_RAW));
  g_assert_false (tw_event_names_contain_text (trace, "wakx", TW_EVENT_NAME_RAW));
}

/* Every event a metric takes from the user is checked; built-in selectors are not. */
static void
test_metric_check (void)
{
  g_autoptr(TwTrace) trace = build_trace ();
  g_autoptr(TwMetric) typo = tw_metric_new_user ("m", "sched_wakup", "kind:switch", TRUE);
  g_autoptr(TwMetric) both = tw_metric_new_user ("m", "start", "kind:stop", TRUE);
  g_autoptr(TwMetric) good = tw_metric_new_user ("m", "job@start", "kind:switch", FALSE);
  g_autoptr(TwMetric) jitter = tw_metric_new_system ("jitter:kind:wakeup", NULL);
  g_autoptr(TwMetric) arrival = tw_metric_new_system ("inter-arrival:sched_swich", NULL);
  g_autoptr(TwMetric) response = tw_metric_new_system ("response-time", NULL);
  g_autoptr(TwMetric) irq = tw_metric_new_system ("softirq-duration", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_false (tw_metric_check_events (typo, trace, &error));
  g_assert_error (error, TW_METRIC_ERROR, TW_METRIC_ERROR_UNKNOWN_EVENT);
  g_assert_cmpstr (error->message, ==, "no event “sched_wakup” in this trace (did you mean "
                                       "sched_wakeup, sched_waking?)");
  g_clear_error (&error);

  g_assert_false (tw_metric_check_events (both, trace, &error));
  g_assert_nonnull (strstr (error->message, "“start”"));
  g_assert_nonnull (strstr (error->message, "job@start"));
  g_assert_nonnull (strstr (error->message, "; no event “kind:stop”"));
  g_clear_error (&error);

  g_assert_false (tw_metric_check_events (arrival, trace, &error));
  g_assert_nonnull (strstr (error->message, "did you mean sched_switch"));
  g_clear_error (&error);

  /* the default START,END of response-time are S.Ha.R.K.'s */
  g_assert_false (tw_metric_check_events (response, trace, &error));
  g_assert_nonnull (strstr (error->message, "task_activate"));
  g_clear_error (&error);

  g_assert_true (tw_metric_check_events (good, trace, &error));
  g_assert_true (tw_metric_check_events (jitter, trace, &error));
  /* no softirq types here, but the user named no event: nothing to say */
  g_assert_true (tw_metric_check_events (irq, trace, &error));
  g_assert_no_error (error);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/evaluators/event-names/known", test_known);
  g_test_add_func ("/tw/evaluators/event-names/all", test_all);
  g_test_add_func ("/tw/evaluators/event-names/closest", test_closest);
  g_test_add_func ("/tw/evaluators/event-names/unknown-text", test_unknown_text);
  g_test_add_func ("/tw/evaluators/event-names/contain-text", test_contain_text);
  g_test_add_func ("/tw/evaluators/event-names/metric-check", test_metric_check);

  return g_test_run ();
}
