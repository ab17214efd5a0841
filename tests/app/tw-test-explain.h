/* tw-test-explain.h: what the window tests of explaining a measurement share: a simulated
 * dump whose ground truth is known, opened in the window, and waiting for explanations
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib/gstdio.h>
#include <tw-evaluators.h>
#include <tw-ingest.h>

#include "tw-evaluations-pane.h"
#include "tw-explain-panel.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define TW_TEST_EXPLAIN_WAIT_MS 60000

/* A window at 1280 × 900, and the dump it was given to open (removed after). */
typedef struct {
  TwWindow *window;
  char     *dump;
} TwTestExplainFixture;

static inline void
tw_test_explain_fixture_setup (TwTestExplainFixture *fx,
                               GtkApplication       *app)
{
  if (app == NULL)
    return;
  fx->window = tw_window_new (app);
  tw_test_present_window (GTK_WINDOW (fx->window), 1280, 900);
}

static inline void
tw_test_explain_fixture_teardown (TwTestExplainFixture *fx)
{
  if (fx->window == NULL)
    return;
  tw_test_close_window (GTK_WINDOW (fx->window));
  if (fx->dump)
    g_remove (fx->dump);
  g_free (fx->dump);
}

static inline gboolean
tw_test_window_shows_trace (gpointer window)
{
  return g_strcmp0 (tw_window_get_page (window), "trace") == 0 && !tw_window_get_loading (window);
}

static inline gboolean
tw_test_explain_panel_done (gpointer panel)
{
  return !tw_explain_panel_is_running (panel) && tw_explain_panel_get_explanation (panel) != NULL;
}

static inline gboolean
tw_test_worst_case_done (gpointer pane)
{
  return !tw_evaluations_pane_is_worst_case_running (pane)
         && tw_evaluations_pane_get_worst_case (pane) != NULL;
}

/* The worst job of the simulator's lowest-priority task, from its ground truth. */
static inline const TwSimulatorJobTruth *
tw_test_explain_worst_job (const TwSimulatorTruth *truth,
                           guint                  *task_index)
{
  *task_index = truth->n_tasks - 2;
  return &truth->tasks[*task_index].worst_job;
}

/* Writes a simulated dump with irqs to @path (*@path, for the caller to remove), opens it
 * in @window and waits until it shows. Returns its truth. */
static inline TwSimulatorTruth *
tw_test_open_simulated_dump (TwWindow  *window,
                             char     **path)
{
  TwSimulatorTruth *truth = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  TwSimulatorOptions options;

  tw_simulator_options_init (&options);
  options.max_events = 60000;
  options.irq_mean_interval_us = 700;
  *path = g_build_filename (tw_test_get_private_dir (), "explain-story.shark", NULL);
  g_assert_true (tw_simulator_write_file (&options, *path, &truth, &error));
  g_assert_no_error (error);
  file = g_file_new_for_path (*path);
  tw_window_open_file (window, file);
  g_assert_true (tw_test_wait_until (tw_test_window_shows_trace, window, TW_TEST_EXPLAIN_WAIT_MS));
  return truth;
}
