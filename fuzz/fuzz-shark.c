/* fuzz-shark.c: libFuzzer target for the S.Ha.R.K. dump parser and probe
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>
#include <tw-shark-reader-private.h>

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  tw_shark_probe_buffer (data, size, size);

  if (tw_shark_parse_buffer (data, size, "fuzz.dump", trace, NULL, NULL, NULL, &error))
    {
      g_autoptr(TwStateModel) model = NULL;

      /* A successful read is whole: one row per stored record, sorted after sealing. */
      g_assert_true (size % 16 == 0 && size > 0);
      g_assert_true (tw_trace_get_n_events (trace) <= size / 16);
      g_assert_true (tw_trace_seal (trace, NULL, NULL));
      for (guint64 i = 1; i < tw_trace_get_n_events (trace); i++)
        g_assert_true (tw_trace_get_time (trace, i - 1) <= tw_trace_get_time (trace, i));
      for (guint64 i = 0; i < MIN (tw_trace_get_n_events (trace), 64); i++)
        {
          TwEvent ev;
          g_autofree char *args = NULL;

          tw_trace_get_event (trace, i, &ev);
          args = tw_trace_format_args (trace, &ev);
        }
      model = tw_state_model_new (trace);
      g_assert_true (tw_state_model_update (model, NULL, NULL));
    }
  else
    g_assert_nonnull (error);
  return 0;
}
