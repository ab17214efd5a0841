/* fuzz-csv.c: libFuzzer target for the CSV events reader and the writer behind it
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-csv-reader-private.h>
#include <tw-ingest.h>

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *
write_csv (TwTrace *trace)
{
  g_autoptr(GOutputStream) stream = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;

  if (!tw_csv_writer_write (trace, stream, NULL, &error)
      || !g_output_stream_write_all (stream, "", 1, NULL, NULL, &error))
    g_error ("writing a trace the reader accepted failed: %s", error->message);
  g_output_stream_close (stream, NULL, NULL);
  return g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (stream));
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(TwReader) reader = tw_reader_new (&tw_csv_reader_info);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTrace) again = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *written = NULL;
  g_autofree char *rewritten = NULL;

  tw_reader_probe (reader, "fuzz.csv", data, size);

  if (!_tw_csv_parse_buffer (trace, "fuzz.csv", (const char *) data, size, NULL, NULL, NULL,
                             &error))
    {
      /* Every failure must say where. */
      if (error == NULL || strstr (error->message, "fuzz.csv") == NULL)
        g_error ("failure without a message naming the input");
      return 0;
    }
  if (!tw_trace_seal (trace, NULL, &error))
    g_error ("seal failed: %s", error->message);

  /* What the writer makes of an accepted input must read back to the same text. */
  written = write_csv (trace);
  again = tw_trace_new ();
  if (!_tw_csv_parse_buffer (again, "written.csv", written, strlen (written), NULL, NULL, NULL,
                             &error)
      || !tw_trace_seal (again, NULL, &error))
    g_error ("the writer's output does not read back: %s\n%s", error->message, written);
  if (tw_trace_get_n_events (again) != tw_trace_get_n_events (trace))
    g_error ("round trip changed the number of events");
  rewritten = write_csv (again);
  if (strcmp (rewritten, written) != 0)
    g_error ("round trip changed the text:\n%s\n---\n%s", written, rewritten);
  return 0;
}
