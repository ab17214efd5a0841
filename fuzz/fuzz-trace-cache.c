/* fuzz-trace-cache.c: libFuzzer target for the trace cache's loader (trailer, image header,
 * index, chunks, rows)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A cache file is sparse and gigabytes long, so an input describes one:
 *
 *   [image header, 96 bytes][guint32 n][n bytes of rows][the index]
 *
 * Each input is loaded twice: its bytes as they are (the header and trailer checks), and
 * laid out as a file whose header points at the index, with the rows' bytes at the start
 * of each column of the first chunk and of its payloads, and a trailer whose digest
 * matches, so that the index's tables and the rows' checks are reached.
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

static void
load (int fd)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_trace_cache_open_fd (fd, NULL, &error);

  g_assert_true ((trace == NULL) == (error != NULL));
  if (trace)
    read_all_rows (trace);
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static const guint64 columns[] = { 0, TW_CHUNK_TASK_OFFSET, TW_CHUNK_ARG_OFFSET,
                                     TW_CHUNK_PAYLOAD_OFFSET, TW_CHUNK_TYPE_OFFSET,
                                     TW_CHUNK_CPU_OFFSET, COLUMNS_BYTES };
  guint8 header[96], trailer[44], digest[32];
  g_autoptr(GChecksum) sum = NULL;
  gsize digest_len = sizeof digest;
  guint32 n_rows_bytes, n_slots, key_len = strlen (KEY);
  guint64 index_at, index_len;
  const guint8 *index;
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
  index = data + sizeof header + 4 + n_rows_bytes;
  index_len = size - sizeof header - 4 - n_rows_bytes;

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
  memcpy (trailer, digest, 32);
  memcpy (trailer + 32, &key_len, 4);
  memcpy (trailer + 36, "TWCKEY02", 8);
  put (fd, KEY, key_len, index_at + index_len);
  put (fd, trailer, sizeof trailer, index_at + index_len + key_len);
  load (fd);
  return 0;
}
