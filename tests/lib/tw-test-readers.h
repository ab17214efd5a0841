/* tw-test-readers.h: checks every file reader must pass, for the reader test programs
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-ingest.h>

#include "tw-test-utils.h"

static inline void
tw_test_note_progress (double   fraction,
                       gpointer data)
{
  double *last = data;

  g_assert_cmpfloat (fraction, >=, 0.0);
  g_assert_cmpfloat (fraction, <=, 1.0);
  g_assert_cmpfloat (fraction, >=, *last);
  *last = fraction;
}

/* Loading the shared trace @relative with the reader @reader_name reports progress that
 * never goes back and ends at 1; a cancelled load fails as cancelled and returns nothing. */
static inline void
tw_test_check_progress_and_cancel (const char *relative,
                                   const char *reader_name)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (relative);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwTrace) cancelled = NULL;
  g_autoptr(GError) error = NULL;
  double last = -1;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = tw_reader_registry_load_file (path, reader_name, tw_test_note_progress, &last, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpfloat (last, ==, 1.0);
  g_cancellable_cancel (cancellable);
  cancelled = tw_reader_registry_load_file (path, reader_name, NULL, NULL, cancellable, &error);
  g_assert_null (cancelled);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}
