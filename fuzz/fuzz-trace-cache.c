/* fuzz-trace-cache.c: libFuzzer target for the trace cache's loader (trailer, image header,
 * index, chunks, rows, the state model section)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A cache file is sparse and gigabytes long, so an input describes one:
 *
 *   [image header, 96 bytes][guint32 n][n bytes of rows][guint32 m][m bytes of state
 *   model section][the index]
 *
 * Each input is loaded twice: its bytes as they are (the header and trailer checks), and
 * laid out as a file whose header points at the index, with the rows' bytes at the start
 * of each column of the first chunk and of its payloads, the model section after the
 * image where a cache file has it (its digest made to match its header and records), and
 * a trailer whose digest matches, so that the index's tables, the rows' checks and the
 * model's are reached. A trace that loads has its every row read and its state model
 * (mapped from the section when it has one) walked as the timeline would.
 */
#include "config.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <tw-data.h>

#define HEADER_BYTES  ((guint64) 2 << 20)
#define COLUMNS_BYTES ((guint64) TW_CHUNK_SIZE * 24)
#define SLOT_BYTES    (COLUMNS_BYTES + ((guint64) G_MAXUINT32 + 1))
#define KEY           "fuzz"
#define MODEL_ALIGN   ((guint64) 64 << 10)
#define MODEL_HEADER  96   /* tw-state-model-image.c's ModelHeader */
#define MODEL_DIGEST  64   /* its digest's offset */
#define MODEL_RECORDS 48   /* its records_bytes' offset */

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

static void
put (int           fd,
     gconstpointer bytes,
     gsize         len,
     guint64       at)
{
  if (len > 0 && pwrite (fd, bytes, len, at) != (gssize) len)
    g_error ("fuzz-trace-cache: cannot write the memory file");
}

/* Every row of @trace, decoded and formatted, as a view would. */
static void
read_all_rows (TwTrace *trace)
{
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      g_autofree char *args = NULL;
      TwEvent event;

      g_assert_true (tw_trace_get_event (trace, i, &event));
      g_assert_nonnull (tw_trace_get_event_type (trace, event.type));
      args = tw_trace_format_args (trace, &event);
    }
}

/* Every series of the model of @trace summarized, as the timeline's first frame does. */
static void
walk_model (TwTrace *trace)
{
  g_autoptr(TwStateModel) model = tw_state_model_new (trace);
  guint64 first = tw_trace_get_first_time (trace), last = tw_trace_get_last_time (trace);
  TwSummary sums[16];

  g_assert_true (tw_state_model_update (model, NULL, NULL));
  for (guint c = 0; c < tw_state_model_get_n_cpus (model); c++)
    {
      tw_state_model_summarize (model, TW_SERIES_CPU_RUNS, c, first, (last - first) / 16.0 + 1, 16, 0, sums);
      tw_state_model_summarize (model, TW_SERIES_CPU_IRQS, c, first, (last - first) / 16.0 + 1, 16, 0, sums);
      tw_state_model_summarize (model, TW_SERIES_CPU_MARKS, c, first, (last - first) / 16.0 + 1, 16, 0, sums);
      tw_state_model_get_running_task (model, c, last);
    }
  for (guint32 k = 0; k < tw_trace_get_n_tasks (trace); k++)
    {
      gsize n;
      const TwTaskMark *marks = tw_state_model_get_task_marks (model, k, &n);

      for (gsize i = 0; i < n; i++)
        {
          TwEvent event;

          g_assert_true (tw_trace_get_event (trace, marks[i].index, &event));
        }
      tw_state_model_summarize (model, TW_SERIES_TASK_STATES, k, first, (last - first) / 16.0 + 1, 16, 0, sums);
      tw_state_model_summarize (model, TW_SERIES_TASK_MARKS, k, first, (last - first) / 16.0 + 1, 16, 0, sums);
      tw_state_model_get_task_state (model, k, last);
    }
}

static void
load (int fd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_trace_cache_open_fd (fd, NULL, &error);

  g_assert_true ((trace == NULL) == (error != NULL));
  if (trace)
    {
      read_all_rows (trace);
      walk_model (trace);
    }
}

/* Makes the model section's digest that of its header and records, as written. */
static void
digest_model (guint8 *model,
              gsize   len)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  gsize digest_len = 32;
  guint64 records;

  if (len < MODEL_HEADER)
    return;
  memcpy (&records, model + MODEL_RECORDS, 8);
  records = CLAMP (records, MODEL_HEADER, len);
  memset (model + MODEL_DIGEST, 0, 32);
  g_checksum_update (sum, model, records);
  g_checksum_get_digest (sum, model + MODEL_DIGEST, &digest_len);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const guint64 columns[] = { 0, TW_CHUNK_TASK_OFFSET, TW_CHUNK_ARG_OFFSET,
                                     TW_CHUNK_PAYLOAD_OFFSET, TW_CHUNK_TYPE_OFFSET,
                                     TW_CHUNK_CPU_OFFSET, COLUMNS_BYTES };
  guint8 header[96], trailer[60], digest[32];
  g_autoptr(GChecksum) sum = NULL;
  g_autofree guint8 *model = NULL;
  gsize digest_len = sizeof digest;
  guint32 n_rows_bytes, n_slots, n_model_bytes = 0, key_len = strlen (KEY);
  guint64 index_at, index_len, model_at, end;
  const guint8 *index, *rest;
  gsize rest_len;
  int fd;

  /* the bytes as a file */
  fd = memfd_create ("fuzz-trace-cache", MFD_CLOEXEC);
  put (fd, data, size, 0);
  load (fd);

  if (size < sizeof header + 4)
    return 0;
  memcpy (header, data, sizeof header);
  memcpy (&n_rows_bytes, data + sizeof header, 4);
  n_rows_bytes = MIN (n_rows_bytes, size - sizeof header - 4);
  rest = data + sizeof header + 4 + n_rows_bytes;
  rest_len = size - sizeof header - 4 - n_rows_bytes;
  if (rest_len >= 4)
    {
      memcpy (&n_model_bytes, rest, 4);
      n_model_bytes = MIN (n_model_bytes, rest_len - 4);
      model = g_memdup2 (rest + 4, n_model_bytes);
      digest_model (model, n_model_bytes);
      rest += 4 + n_model_bytes;
      rest_len -= 4 + n_model_bytes;
    }
  index = rest;
  index_len = rest_len;

  /* a few slots at most (each is 4 GiB of sparse file), the index right after them */
  memcpy (&n_slots, header + 12, 4);
  n_slots %= 4;
  index_at = HEADER_BYTES + n_slots * SLOT_BYTES;
  memcpy (header + 12, &n_slots, 4);
  memcpy (header + 16, &index_at, 8);
  memcpy (header + 24, &index_len, 8);

  fd = memfd_create ("fuzz-trace-cache", MFD_CLOEXEC);
  put (fd, header, sizeof header, 0);
  for (guint i = 0; i < G_N_ELEMENTS (columns) && n_slots > 0; i++)
    put (fd, data + sizeof header + 4, n_rows_bytes, HEADER_BYTES + columns[i]);
  put (fd, index, index_len, index_at);

  sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_checksum_update (sum, header, sizeof header);
  g_checksum_update (sum, index, index_len);
  g_checksum_get_digest (sum, digest, &digest_len);
  end = index_at + index_len;
  model_at = n_model_bytes > 0 ? (end + MODEL_ALIGN - 1) / MODEL_ALIGN * MODEL_ALIGN : 0;
  if (n_model_bytes > 0)
    {
      put (fd, model, n_model_bytes, model_at);
      end = model_at + n_model_bytes;
    }
  memcpy (trailer, &model_at, 8);
  memcpy (trailer + 8, &(guint64) { n_model_bytes }, 8);
  memcpy (trailer + 16, digest, 32);
  memcpy (trailer + 48, &key_len, 4);
  memcpy (trailer + 52, "TWCKEY03", 8);
  put (fd, KEY, key_len, end);
  put (fd, trailer, sizeof trailer, end + key_len);
  load (fd);
  return 0;
}
