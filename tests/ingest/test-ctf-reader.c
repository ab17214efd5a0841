/* test-ctf-reader.c: the CTF reader against babeltrace2 on real LTTng kernel traces
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <unistd.h>
#include <tw-ingest.h>
#include "tw-switch-repairs.h"

#include "tw-test-readers.h"
#include "tw-test-utils.h"

typedef struct {
  const char *dir;
  guint64     n_events;  /* from the trace's README, a second opinion */
} SharedCtf;

static const SharedCtf shared_ctfs[] = {
  { "ctf/lttng-kernel-bug446190/trace", 31556 },
  { "ctf/lttng-kernel-flipping-endianness/trace", 14310 },
  { "ctf/lttng-kernel-many-threads/trace", 240644 },
  { "ctf/lttng-kernel-synctraces-scp-dest/trace", 85729 },
  { "ctf/lttng-kernel-tracefile-rotation/trace", 12305 },
};

/* ---------------------------------------------------------------- the reference */

/* What babeltrace2 prints with --clock-seconds, split on blanks: `[SECONDS.NS]`, the
 * delta, the hostname, then `NAME:`. */
typedef struct {
  GHashTable *counts;
  guint64     n;
  guint64     first;
  guint64     last;
} BtCounts;

static void
bt_counts_clear (BtCounts *c)
{
  g_clear_pointer (&c->counts, g_hash_table_unref);
}

static gboolean
count_babeltrace (const char *dir,
                  BtCounts   *c)
{
  g_autofree char *inputs = g_strdup_printf ("inputs=[\"%s\"]", dir);
  /* babeltrace2's muxer stops on the scp-dest trace (its packets overlap): without the
   * muxer its text sink reads every stream whole, out of time order, which counting
   * does not mind */
  const char *argv[] = { "babeltrace2", "run", "--component=src:src.ctf.fs", "--params", inputs,
                         "--component=snk:sink.text.pretty", "--params=clock-seconds=yes",
                         "--connect=src:snk", NULL };
  const char *muxed[] = { "babeltrace2", "--clock-seconds", dir, NULL };
  gboolean single_stream = strstr (dir, "scp-dest") != NULL;
  g_autofree char *out = tw_test_run_tool (single_stream ? argv : muxed, NULL);
  const char *line;

  if (out == NULL)
    return FALSE;
  c->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->first = G_MAXUINT64;
  c->last = 0;
  /* without allocating per line: the test also runs under ASan */
  for (line = out; *line; )
    {
      const char *eol = strchrnul (line, '\n');
      const char *p = line + 1;
      guint64 sec = 0, frac = 0;
      guint n_frac = 0;
      char name[128];
      const char *tok;
      guint *count;

      if (*line != '[')
        {
          line = *eol ? eol + 1 : eol;
          continue;
        }
      for (; p < eol && g_ascii_isdigit (*p); p++)
        sec = sec * 10 + (*p - '0');
      g_assert_true (p < eol && *p == '.');
      for (p++; p < eol && g_ascii_isdigit (*p); p++, n_frac++)
        frac = frac * 10 + (*p - '0');
      g_assert_cmpuint (n_frac, ==, 9);
      g_assert_true (*p == ']');
      /* then `(+delta) host NAME:` */
      for (;;)
        {
          while (p < eol && *p == ' ')
            p++;
          tok = p;
          while (p < eol && *p != ' ')
            p++;
          g_assert_true (tok < p);
          if (p[-1] == ':')
            break;
        }
      g_assert_cmpuint (p - 1 - tok, <, sizeof name);
      memcpy (name, tok, p - 1 - tok);
      name[p - 1 - tok] = '\0';
      if ((count = g_hash_table_lookup (c->counts, name)) == NULL)
        g_hash_table_insert (c->counts, g_strdup (name), (count = g_new0 (guint, 1)));
      (*count)++;
      c->n++;
      c->first = MIN (c->first, sec * G_GUINT64_CONSTANT (1000000000) + frac);
      c->last = MAX (c->last, sec * G_GUINT64_CONSTANT (1000000000) + frac);
      line = *eol ? eol + 1 : eol;
    }
  return TRUE;
}

static TwTrace *
load (const char *path,
      GError    **error)
{
  return tw_reader_registry_load_file (path, NULL, NULL, NULL, NULL, error);
}

/* ---------------------------------------------------------------- tests */

static void
test_babeltrace_counts (gconstpointer data)
{
  const SharedCtf *ctf = data;
  g_autofree char *path = tw_test_dup_shared_trace_path (ctf->dir);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *format = NULL;
  GHashTableIter iter;
  gpointer key, value;
  BtCounts c = { 0 };

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  if (!count_babeltrace (path, &c))
    {
      g_test_skip ("babeltrace2 is not installed");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "ctf");

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;
      const char *name;

      tw_trace_get_event (trace, i, &ev);
      name = tw_trace_get_event_type (trace, ev.type)->name;
      g_hash_table_insert (ours, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (ours, name)) + 1));
    }
  g_assert_cmpuint (c.n, ==, ctf->n_events);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, c.n);
  g_assert_cmpuint (g_hash_table_size (ours), ==, g_hash_table_size (c.counts));
  g_hash_table_iter_init (&iter, c.counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (ours, key)), ==, *(guint *) value);
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, c.first);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, c.last);
  bt_counts_clear (&c);
}

typedef struct {
  const char *dir;
  guint64     time;
  guint       cpu;
  const char *prev_tid;
  const char *prev_comm;
  const char *prev_state;
  const char *next_source_id;
  const char *next_comm;
} KnownSwitch;

/* From `babeltrace2 --clock-seconds`:
 * [1457113582.794629142] wilbrod sched_switch: { cpu_id = 5 }, { prev_comm = "lttng-consumerd",
 *   prev_tid = 4297, prev_prio = 20, prev_state = 2, next_comm = "swapper/5", next_tid = 0, … }
 * [1417383672.251352767] qemu0 sched_switch: { cpu_id = 0 }, { prev_comm = "lttng-sessiond",
 *   prev_tid = 211, prev_prio = 20, prev_state = 1024, next_comm = "lttng-consumerd",
 *   next_tid = 232, … }   (big-endian; 1024 is 3.14's TASK_STATE_MAX: preempted) */
static const KnownSwitch known_switches[] = {
  { "ctf/lttng-kernel-many-threads/trace", G_GUINT64_CONSTANT (1457113582794629142), 5,
    "4297", "lttng-consumerd", "D", "0/5", "swapper/5" },
  { "ctf/lttng-kernel-flipping-endianness/trace", G_GUINT64_CONSTANT (1417383672251352767), 0,
    "211", "lttng-sessiond", "R+", "232", "lttng-consumerd" },
};

static void
test_known_switch (gconstpointer data)
{
  const KnownSwitch *k = data;
  g_autofree char *path = tw_test_dup_shared_trace_path (k->dir);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prev_tid = NULL;
  g_autofree char *prev_comm = NULL;
  g_autofree char *prev_state = NULL;
  g_autofree char *next_comm = NULL;
  guint64 index;
  TwEvent ev;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  index = tw_trace_find_first_at_or_after (trace, k->time);
  /* other CPUs may log at the same ns: find the switch */
  for (;; index++)
    {
      g_assert_true (tw_trace_get_event (trace, index, &ev));
      g_assert_cmpuint (ev.time, ==, k->time);
      if (strcmp (tw_trace_get_event_type (trace, ev.type)->name, "sched_switch") == 0)
        break;
    }
  g_assert_cmpuint (ev.cpu, ==, k->cpu);
  g_assert_cmpint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_SWITCH);
  prev_tid = tw_test_dup_event_field (trace, index, "prev_tid");
  prev_comm = tw_test_dup_event_field (trace, index, "prev_comm");
  prev_state = tw_test_dup_event_field (trace, index, "prev_state");
  next_comm = tw_test_dup_event_field (trace, index, "next_comm");
  g_assert_cmpstr (prev_tid, ==, k->prev_tid);
  g_assert_cmpstr (prev_comm, ==, k->prev_comm);
  g_assert_cmpstr (prev_state, ==, k->prev_state);
  g_assert_cmpstr (next_comm, ==, k->next_comm);
  g_assert_cmpstr (tw_trace_get_task (trace, ev.task)->source_id, ==, k->prev_tid);
  g_assert_cmpstr (tw_trace_get_task (trace, ev.arg)->source_id, ==, k->next_source_id);
}

/* The scp-dest trace's packets overlap: we read it whole and say so. */
static void
test_overlapping_packets (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-synctraces-scp-dest/trace");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *overlaps = NULL;
  g_autofree char *note = NULL;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 85729);
  overlaps = tw_trace_dup_metadata (trace, "ctf_overlapping_packets");
  note = tw_trace_dup_metadata (trace, "ctf_note");
  g_assert_nonnull (overlaps);
  g_assert_cmpuint (g_ascii_strtoull (overlaps, NULL, 10), >, 0);
  g_assert_nonnull (strstr (note, "sorted by time"));
}

/* An LTTng session folder holds its traces below it (kernel/, ust/uid/1000/64-bit/): it
 * reads as all of them, as babeltrace2 reads it, and says which it found. */
static void
test_session_folder (void)
{
  g_autofree char *a = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-bug446190/trace");
  g_autofree char *b = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-flipping-endianness/trace");
  g_autofree char *session = g_build_filename (tw_test_get_private_dir (), "session", NULL);
  g_autofree char *ust = g_build_filename (session, "ust", "uid", "1000", NULL);
  g_autofree char *kernel = g_build_filename (session, "kernel", NULL);
  g_autofree char *ust64 = g_build_filename (ust, "64-bit", NULL);
  g_autofree char *empty = g_build_filename (tw_test_get_private_dir (), "no-trace-below", "a", NULL);
  g_autofree char *traces = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if (a == NULL || b == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (ust, 0755), ==, 0);
  g_assert_cmpint (symlink (a, kernel), ==, 0);
  g_assert_cmpint (symlink (b, ust64), ==, 0);
  trace = load (session, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 31556 + 14310);
  traces = tw_trace_dup_metadata (trace, "ctf_traces");
  g_assert_cmpstr (traces, ==, "kernel, ust/uid/1000/64-bit");
  g_clear_object (&trace);

  /* lttng-modules 2.5 and 2.10 give sched_wakeup different fields: one schema per name
   * cannot hold both, and the error says which folder */
  {
    g_autofree char *c = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-tracefile-rotation/trace");
    g_autofree char *other = g_build_filename (tw_test_get_private_dir (), "session-2", NULL);
    g_autofree char *k = g_build_filename (other, "kernel", NULL);
    g_autofree char *k2 = g_build_filename (other, "kernel-2", NULL);

    g_assert_cmpint (g_mkdir_with_parents (other, 0755), ==, 0);
    g_assert_cmpint (symlink (a, k), ==, 0);
    g_assert_cmpint (symlink (c, k2), ==, 0);
    trace = load (other, &error);
    g_assert_null (trace);
    g_assert_true (g_str_has_prefix (error->message, other));
    g_assert_nonnull (strstr (error->message, "sched_wakeup"));
    g_test_message ("%s", error->message);
    g_clear_error (&error);
  }

  /* a folder without a trace below it is no trace, said of the folder */
  g_assert_cmpint (g_mkdir_with_parents (empty, 0755), ==, 0);
  g_clear_pointer (&empty, g_free);
  empty = g_build_filename (tw_test_get_private_dir (), "no-trace-below", NULL);
  trace = load (empty, &error);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, empty));
}

static guint64
total_repairs (TwTrace *trace)
{
  g_autoptr(GArray) repairs = tw_switch_repairs_count (trace);
  guint64 total = 0;

  for (guint i = 0; i < repairs->len; i++)
    total += g_array_index (repairs, guint64, i);
  return total;
}

/* In the model of a folder of two hosts, each host's CPUs and tasks stop where its own
 * trace stops: lager's ends weeks before qemu0's, and its last states end with it. */
static void
assert_hosts_end_apart (TwTrace *trace)
{
  g_autoptr(TwStateModel) model = tw_test_new_state_model (trace);
  g_autoptr(GHashTable) ends = g_hash_table_new (NULL, NULL);
  guint64 lager_end, qemu_end;
  guint open = 0;

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const char *host;

      tw_trace_get_event (trace, i, &event);
      host = event.cpu != TW_CPU_NONE ? tw_trace_get_cpu_host (trace, event.cpu, NULL)
                                      : tw_trace_get_task (trace, event.task)->host;
      g_assert_nonnull (host);
      /* in time order: the last one seen is the host's end */
      g_hash_table_insert (ends, (gpointer) host, GSIZE_TO_POINTER (event.time));
    }
  lager_end = GPOINTER_TO_SIZE (g_hash_table_lookup (ends, tw_trace_get_cpu_host (trace, 0, NULL)));
  qemu_end = tw_trace_get_last_time (trace);
  g_assert_cmpstr (tw_trace_get_cpu_host (trace, 0, NULL), ==, "lager");
  g_assert_cmpuint (lager_end + 1000000000ull, <, qemu_end);

  for (guint c = 0; c < tw_trace_get_n_cpus (trace); c++)
    {
      const char *host = tw_trace_get_cpu_host (trace, c, NULL);
      guint64 end = GPOINTER_TO_SIZE (g_hash_table_lookup (ends, host));
      gsize n;
      const TwRunInterval *runs = tw_state_model_get_cpu_runs (model, c, &n);

      for (gsize r = 0; r < n; r++)
        g_assert_cmpuint (runs[r].end, <=, end);
      if (n > 0 && runs[n - 1].end == end)
        open++;
    }
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      guint64 end = GPOINTER_TO_SIZE (g_hash_table_lookup (ends, tw_trace_get_task (trace, t)->host));
      gsize n;
      const TwTaskInterval *states = tw_state_model_get_task_states (model, t, &n);

      if (n > 0)
        g_assert_cmpuint (states[n - 1].end, <=, end);
    }
  /* every CPU ran something up to its host's end */
  g_assert_cmpuint (open, ==, tw_trace_get_n_cpus (trace));
}

/* A relay's output of two targets (HOST/SESSION/kernel each, real traces of machines
 * "lager" and "qemu0") reads as one trace whose CPUs and tasks are each host's: CPU 0
 * and tid 1 of one are not the other's, so nothing is merged (tasks and CPUs add up),
 * every switch names tasks of its CPU's host, and no switch is repaired that was not
 * when each trace was read alone. */
static void
test_hosts_folder (void)
{
  static const char *const names[] = { "ctf/lttng-kernel-bug446190/trace",
                                       "ctf/lttng-kernel-flipping-endianness/trace" };
  static const char *const hosts[] = { "lager", "qemu0" };
  g_autofree char *relay = g_build_filename (tw_test_get_private_dir (), "relay", NULL);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 events = 0, repairs = 0, switches = 0;
  guint cpus = 0, tasks = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tw_test_dup_shared_trace_path (names[i]);
      g_autofree char *session = g_build_filename (relay, hosts[i], "s-20141007-120000", NULL);
      g_autofree char *kernel = g_build_filename (session, "kernel", NULL);
      g_autoptr(TwTrace) alone = NULL;

      if (path == NULL)
        {
          g_test_skip ("shared trace not found (../shared/traces)");
          return;
        }
      g_assert_cmpint (g_mkdir_with_parents (session, 0755), ==, 0);
      g_assert_cmpint (symlink (path, kernel), ==, 0);
      alone = load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (tw_trace_get_n_hosts (alone), ==, 0);
      events += tw_trace_get_n_events (alone);
      cpus += tw_trace_get_n_cpus (alone);
      tasks += tw_trace_get_n_tasks (alone);
      repairs += total_repairs (alone);
    }

  trace = load (relay, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, events);
  g_assert_cmpuint (tw_trace_get_n_hosts (trace), ==, 2);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, cpus);
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), ==, tasks);
  g_assert_cmpuint (total_repairs (trace), ==, repairs);
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    g_assert_nonnull (tw_trace_get_task (trace, t)->host);
  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent event;
      const char *host;

      tw_trace_get_event (trace, i, &event);
      if (tw_trace_get_event_type (trace, event.type)->kind != TW_EVENT_KIND_SWITCH)
        continue;
      host = tw_trace_get_cpu_host (trace, event.cpu, NULL);
      g_assert_nonnull (host);
      g_assert_cmpstr (tw_trace_get_task (trace, event.task)->host, ==, host);
      g_assert_cmpstr (tw_trace_get_task (trace, event.arg)->host, ==, host);
      switches++;
    }
  g_assert_cmpuint (switches, >, 1000);
  assert_hosts_end_apart (trace);
}

/* A trace is its directory or its metadata file; both probe as CTF. */
static void
test_probe (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-tracefile-rotation/trace");
  g_autofree char *metadata = NULL;
  g_autoptr(TwReader) a = NULL;
  g_autoptr(TwReader) b = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  metadata = g_build_filename (path, "metadata", NULL);
  a = tw_reader_registry_probe_file (path, &error);
  g_assert_no_error (error);
  b = tw_reader_registry_probe_file (metadata, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_reader_get_name (a), ==, "ctf");
  g_assert_cmpstr (tw_reader_get_name (b), ==, "ctf");
  trace = load (metadata, &error);
  g_assert_no_error (error);
  /* 11 rotated files, one stream per CPU */
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 12305);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 4);
}

/* A folder with no CTF metadata in it is refused by name, not as a missing file. */
static void
test_folder_without_trace (void)
{
  g_autofree char *dir = g_dir_make_tmp ("tw-ctf-empty-XXXXXX", NULL);
  g_autoptr(TwReader) reader = NULL;
  g_autoptr(GError) error = NULL;

  reader = tw_reader_registry_probe_file (dir, &error);
  g_assert_null (reader);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNKNOWN_FORMAT);
  g_assert_true (g_str_has_prefix (error->message, dir));
  g_assert_nonnull (strstr (error->message, "a folder without a trace"));
  g_rmdir (dir);
}

/* The many-threads trace: thousands of tasks, each named, forks give process ids. */
static void
test_many_threads (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-many-threads/trace");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint n_named = 0, n_in_process = 0;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_cpus (trace), ==, 8);
  for (guint32 t = 0; t < tw_trace_get_n_tasks (trace); t++)
    {
      const TwTask *task = tw_trace_get_task (trace, t);

      n_named += task->name != NULL;
      n_in_process += task->pid > 0 && task->pid != task->tid;
    }
  g_test_message ("%u tasks, %u named, %u threads of another process",
                  tw_trace_get_n_tasks (trace), n_named, n_in_process);
  g_assert_cmpuint (tw_trace_get_n_tasks (trace), >, 1000);
  g_assert_cmpuint (n_named, ==, tw_trace_get_n_tasks (trace));
  g_assert_cmpuint (n_in_process, >, 1000);
}

static char *
copy_trace (const char *from,
            const char *name)
{
  g_autofree char *to = g_build_filename (tw_test_get_private_dir (), name, NULL);
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *entry;

  g_assert_cmpint (g_mkdir_with_parents (to, 0755), ==, 0);
  while ((entry = g_dir_read_name (dir)))
    {
      g_autofree char *src = g_build_filename (from, entry, NULL);
      g_autofree char *dst = g_build_filename (to, entry, NULL);
      g_autofree char *data = NULL;
      gsize len;

      if (!g_file_test (src, G_FILE_TEST_IS_REGULAR))
        continue;
      g_assert_true (g_file_get_contents (src, &data, &len, NULL));
      g_assert_true (g_file_set_contents (dst, data, len, NULL));
    }
  return g_steal_pointer (&to);
}

static void
damage (const char *dir,
        const char *file,
        gboolean    cut_half,
        gsize       flip_from,
        gsize       flip_step)
{
  g_autofree char *path = g_build_filename (dir, file, NULL);
  g_autofree char *data = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  if (flip_step)
    for (gsize i = flip_from; i < len; i += flip_step)
      data[i] ^= 0x5a;
  g_assert_true (g_file_set_contents (path, data, cut_half ? len / 2 : len, NULL));
}

static void
assert_clean (const char *dir,
              gboolean    must_fail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);

  if (trace == NULL)
    {
      g_assert_true (error->domain == TW_READER_ERROR);
      g_assert_nonnull (strstr (error->message, dir));
      g_test_message ("%s", error->message);
    }
  else
    {
      g_assert_false (must_fail);
      g_test_message ("%s: read %" G_GUINT64_FORMAT " events", dir, tw_trace_get_n_events (trace));
    }
}

/* Cut and damaged copies of a real trace: a clear error, never a crash. */
static void
test_corrupt (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ctf/lttng-kernel-bug446190/trace");

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  {
    g_autofree char *d = copy_trace (path, "cut-metadata");

    damage (d, "metadata", TRUE, 0, 0);
    assert_clean (d, TRUE);
  }
  {
    g_autofree char *d = copy_trace (path, "flip-metadata-header");

    damage (d, "metadata", FALSE, 0, 7);
    assert_clean (d, TRUE);
  }
  {
    g_autofree char *d = copy_trace (path, "cut-stream");

    damage (d, "channel0_1", TRUE, 0, 0);
    assert_clean (d, FALSE);
  }
  {
    g_autofree char *d = copy_trace (path, "flip-stream-header");

    damage (d, "channel0_0", FALSE, 0, 4096);  /* every packet's magic and header */
    assert_clean (d, TRUE);
  }
  {
    g_autofree char *d = copy_trace (path, "flip-stream-data");

    damage (d, "channel0_3", FALSE, 200, 997);
    assert_clean (d, FALSE);
  }
  {
    g_autofree char *d = g_build_filename (tw_test_get_private_dir (), "not-a-trace", NULL);

    g_assert_cmpint (g_mkdir_with_parents (d, 0755), ==, 0);
    assert_clean (d, TRUE);
  }
}

/* Progress ends at 1; a cancelled read fails as cancelled, with nothing kept. */
static void
test_progress_and_cancel (void)
{
  tw_test_check_progress_and_cancel ("ctf/lttng-kernel-many-threads/trace", "ctf");
}

#if !HAVE_BABELTRACE
static void
test_not_built (void)
{
  g_test_skip ("CTF support was not built (libbabeltrace2-dev missing)");
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#if !HAVE_BABELTRACE
  g_test_add_func ("/tw/ingest/ctf/not-built", test_not_built);
  return g_test_run ();
#endif

  for (guint i = 0; i < G_N_ELEMENTS (shared_ctfs); i++)
    {
      g_autofree char *parent = g_path_get_dirname (shared_ctfs[i].dir);
      g_autofree char *name = g_path_get_basename (parent);
      g_autofree char *test = g_strdup_printf ("/tw/ingest/ctf/babeltrace-counts/%s", name);

      g_test_add_data_func (test, &shared_ctfs[i], test_babeltrace_counts);
    }
  g_test_add_data_func ("/tw/ingest/ctf/known-switch/many-threads", &known_switches[0], test_known_switch);
  g_test_add_data_func ("/tw/ingest/ctf/known-switch/big-endian", &known_switches[1], test_known_switch);
  g_test_add_func ("/tw/ingest/ctf/overlapping-packets", test_overlapping_packets);
  g_test_add_func ("/tw/ingest/ctf/probe-and-rotation", test_probe);
  g_test_add_func ("/tw/ingest/ctf/folder-without-trace", test_folder_without_trace);
  g_test_add_func ("/tw/ingest/ctf/session-folder", test_session_folder);
  g_test_add_func ("/tw/ingest/ctf/hosts-folder", test_hosts_folder);
  g_test_add_func ("/tw/ingest/ctf/many-threads", test_many_threads);
  g_test_add_func ("/tw/ingest/ctf/corrupt", test_corrupt);

  g_test_add_func ("/tw/ingest/ctf/progress-and-cancel", test_progress_and_cancel);

  return g_test_run ();
}
