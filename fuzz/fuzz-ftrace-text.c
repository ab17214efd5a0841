/* fuzz-ftrace-text.c: libFuzzer target for the ftrace text reader
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-ingest.h>

#include "tw-ftrace-text-reader-private.h"

int LLVMFuzzerInitialize    (int          *argc,
                            char       ***argv);
int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  /* a g_return_if_fail in the store means the reader broke an API contract */
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  return 0;
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr(TwReader) reader = tw_reader_new (&tw_ftrace_text_reader_info);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(GError) error = NULL;

  /* the probe sees the same bytes a file's head would give it */
  tw_reader_probe (reader, "fuzz.txt", data, size);

  /* A failed read must say why; a good one must seal into a consistent trace. */
  if (_tw_ftrace_text_parse_buffer (trace, "fuzz.txt", (const char *) data, size, NULL, NULL,
                                    NULL, &error))
    {
      TwEvent event;

      g_assert (error == NULL);
      g_assert (tw_trace_seal (trace, NULL, NULL));
      for (guint64 i = 0; tw_trace_get_event (trace, i, &event); i++)
        {
          g_autofree char *args = tw_trace_format_args (trace, &event);
          g_autofree char *label = tw_trace_dup_task_label (trace, event.task);

          g_assert (args != NULL && label != NULL);
        }
    }
  else
    g_assert (error != NULL && error->message != NULL);
  return 0;
}
