/* tw-test-reader-process.h: what the tests of out-of-process reading share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <tw-ingest.h>

/* The hooks the reader helper obeys (ingest/tw-reader-process.c). */
#define TW_TEST_READER_HOOK_ENV "TRACEWB_READER_TEST_HOOK"

/* The babeltrace2 2.0.4 abort: valid CTF 1.8 whose event context holds a sequence whose
 * length babeltrace2 looks up in the wrong scope (its metadata file says how). */
#define TW_TEST_BT2_ABORT_FIXTURE "ctf/bt2-abort-sequence-length"

/* A running reader helper of this process, or 0: its children as /proc lists them per
 * thread (the loading thread spawned it). */
static inline GPid
tw_test_find_reader_child (void)
{
  g_autoptr(GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;

  while (tasks && (tid = g_dir_read_name (tasks)))
    {
      g_autofree char *path = g_strdup_printf ("/proc/self/task/%s/children", tid);
      g_autofree char *children = NULL;
      g_auto(GStrv) pids = NULL;

      if (!g_file_get_contents (path, &children, NULL, NULL))
        continue;
      pids = g_strsplit (g_strstrip (children), " ", -1);
      for (guint i = 0; pids[i]; i++)
        {
          g_autofree char *comm_path = g_strdup_printf ("/proc/%s/comm", pids[i]);
          g_autofree char *comm = NULL;

          if (*pids[i] && g_file_get_contents (comm_path, &comm, NULL, NULL) &&
              strcmp (g_strstrip (comm), TW_READER_HELPER_NAME) == 0)
            return (GPid) g_ascii_strtoll (pids[i], NULL, 10);
        }
    }
  return 0;
}

/* Whether @pid names a process at all (a zombie too): after a reap it does not. */
static inline gboolean
tw_test_pid_exists (GPid pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d", (int) pid);

  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static inline void
tw_test_digest_string (GChecksum  *sum,
                       const char *str)
{
  /* a NULL and an empty string differ */
  g_checksum_update (sum, (const guchar *) (str ? str : "\1NULL"), -1);
  g_checksum_update (sum, (const guchar *) "", 1);
}

/* Every table and every row of @trace, as one SHA-256: equal digests, equal traces. */
static inline char *
tw_test_dup_trace_digest (TwTrace *trace)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  g_auto(GStrv) keys = tw_trace_dup_metadata_keys (trace);
  guint64 n_events = tw_trace_get_n_events (trace);
  guint n_cpus = tw_trace_get_n_cpus (trace);
  const char *str;

  g_checksum_update (sum, (const guchar *) &n_events, sizeof n_events);
  g_checksum_update (sum, (const guchar *) &n_cpus, sizeof n_cpus);
  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = tw_trace_dup_metadata (trace, keys[i]);

      tw_test_digest_string (sum, keys[i]);
      tw_test_digest_string (sum, value);
    }
  for (guint32 id = 0; (str = tw_trace_get_string (trace, id)); id++)
    {
      TwTaskState state = tw_trace_get_string_task_state (trace, id);

      tw_test_digest_string (sum, str);
      g_checksum_update (sum, (const guchar *) &state, sizeof state);
    }
  for (guint t = 0; t < tw_trace_get_n_event_types (trace); t++)
    {
      const TwEventType *type = tw_trace_get_event_type (trace, t);

      tw_test_digest_string (sum, type->name);
      tw_test_digest_string (sum, type->family);
      g_checksum_update (sum, (const guchar *) &type->kind, sizeof type->kind);
      for (guint f = 0; f < type->n_fields; f++)
        {
          tw_test_digest_string (sum, type->fields[f].name);
          g_checksum_update (sum, (const guchar *) &type->fields[f].type, sizeof (TwFieldType));
          g_checksum_update (sum, (const guchar *) &type->fields[f].flags, sizeof (TwFieldFlags));
        }
    }
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);

      tw_test_digest_string (sum, task->source_id);
      tw_test_digest_string (sum, task->name);
      g_checksum_update (sum, (const guchar *) &task->pid, sizeof task->pid);
      g_checksum_update (sum, (const guchar *) &task->tid, sizeof task->tid);
      g_checksum_update (sum, (const guchar *) &task->flags, sizeof task->flags);
      tw_test_digest_string (sum, task->host);
    }
  /* the machine of each CPU, in a trace of several */
  for (guint c = 0; c < n_cpus; c++)
    {
      guint16 host_cpu;

      tw_test_digest_string (sum, tw_trace_get_cpu_host (trace, c, &host_cpu));
      g_checksum_update (sum, (const guchar *) &host_cpu, sizeof host_cpu);
    }
  /* rows column by column, chunk by chunk, and the payload bytes they point to */
  for (guint c = 0; c < tw_trace_get_n_chunks (trace); c++)
    {
      const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

      g_checksum_update (sum, (const guchar *) chunk->time, chunk->n * sizeof (guint64));
      g_checksum_update (sum, (const guchar *) chunk->cpu, chunk->n * sizeof (guint16));
      g_checksum_update (sum, (const guchar *) chunk->type, chunk->n * sizeof (guint16));
      g_checksum_update (sum, (const guchar *) chunk->task, chunk->n * sizeof (guint32));
      g_checksum_update (sum, (const guchar *) chunk->arg, chunk->n * sizeof (guint32));
      g_checksum_update (sum, (const guchar *) chunk->payload, chunk->n * sizeof (guint32));
      if (chunk->blob_len > 0)
        g_checksum_update (sum, chunk->blob, chunk->blob_len);
    }
  return g_strdup (g_checksum_get_string (sum));
}

/* ---------------------------------------------------------------- a synthetic trace */

#define TW_TEST_SYNTHETIC_TASKS 700

/* @n rows of every event kind, out of time order (the store sorts them into new chunks,
 * freeing the first ones), with numbers, strings and optional fields, tasks with flags,
 * metadata and CPU numbers. */
static inline void
tw_test_fill_synthetic (TwTrace *trace,
                        guint64  n,
                        guint    seed)
{
  static const TwFieldSpec fields[] = {
    { "count", TW_FIELD_U32, TW_FIELD_FLAG_NONE },
    { "label", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
    { "delta", TW_FIELD_I64, TW_FIELD_FLAG_NONE },
    { "ratio", TW_FIELD_F64, TW_FIELD_FLAG_HEX },
  };
  guint16 types[TW_N_EVENT_KINDS];
  g_autoptr(GError) error = NULL;

  for (guint k = 0; k < TW_N_EVENT_KINDS; k++)
    {
      g_autofree char *name = g_strdup_printf ("kind-%s-%u", tw_event_kind_to_string (k), seed);

      types[k] = tw_trace_add_event_type (trace, name, k % 2 ? "family" : NULL, k, fields,
                                          k % 3 ? G_N_ELEMENTS (fields) : 0, &error);
      g_assert_no_error (error);
    }
  for (guint t = 0; t < TW_TEST_SYNTHETIC_TASKS; t++)
    {
      g_autofree char *id = g_strdup_printf ("%u/%u", t, seed);
      g_autofree char *name = g_strdup_printf ("task-%u", t);
      guint32 task = tw_trace_add_task (trace, id, t % 5 ? name : NULL, t, t + seed);

      if (t % 7 == 0)
        tw_trace_set_task_flags (trace, task, TW_TASK_FLAG_IDLE);
      /* a trace of several machines names the host of each task */
      if (t % 3 == 1)
        tw_trace_set_task_host (trace, task, "host-a");
    }
  tw_trace_set_metadata (trace, "format", "synthetic");
  tw_trace_set_metadata (trace, "lost_events", "12");
  tw_trace_note_cpu (trace, 9);
  /* CPUs 10 and 11 are two machines' CPU 0, numbered out of order */
  g_assert_cmpuint (tw_trace_add_host_cpu (trace, "host-b", 0), ==, 10);
  g_assert_cmpuint (tw_trace_add_host_cpu (trace, "host-a", 0), ==, 11);

  for (guint64 i = 0; i < n; i++)
    {
      guint k = i % TW_N_EVENT_KINDS;
      const TwEventType *type = tw_trace_get_event_type (trace, types[k]);
      guint8 payload[64] = { 0 };
      TwValue count = { .type = TW_FIELD_U32, .u = i };
      TwValue delta = { .type = TW_FIELD_I64, .i = -(gint64) i * seed };
      TwValue ratio = { .type = TW_FIELD_F64, .f = i / 3.0 };

      if (type->n_fields > 0)
        {
          tw_event_type_set_field (type, payload, 0, &count);
          if (i % 4)
            {
              g_autofree char *label = g_strdup_printf ("label-%" G_GUINT64_FORMAT, i % 97);
              TwValue value = { .type = TW_FIELD_STRING,
                                .str = tw_trace_intern_string (trace, label) };

              tw_event_type_set_field (type, payload, 1, &value);
            }
          tw_event_type_set_field (type, payload, 2, &delta);
          tw_event_type_set_field (type, payload, 3, &ratio);
        }
      tw_trace_append (trace, (i * 7919) % n * 10 + seed, i % 12 == 11 ? TW_CPU_NONE : i % 12,
                       types[k], i % 9 == 0 ? TW_TASK_NONE : i % TW_TEST_SYNTHETIC_TASKS, (guint32) i,
                       type->n_fields ? payload : NULL);
    }
}
