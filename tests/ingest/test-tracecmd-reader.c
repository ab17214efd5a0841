/* test-tracecmd-reader.c: the trace.dat reader against trace-cmd on real and fresh traces
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-ingest.h>
#include <fcntl.h>
#include <unistd.h>

#include "tw-test-readers.h"
#include "tw-test-utils.h"

static const char *const shared_dats[] = {
  "ftrace/recorded/sched_irq_5s.dat",
  "ftrace/recorded/sched_irq_5s.v6.dat",
  "ftrace/recorded/sched_irq_all_2s.dat",
  "ftrace/external/langraph-vbox-x86_64-v7/trace.dat",
};

/* ---------------------------------------------------------------- the reference */

/* What `trace-cmd report -t` prints, counted here by splitting on blanks: the first
 * SECONDS.NANOSECONDS: token is the time, the next one the event name. */
typedef struct {
  GHashTable *counts;  /* name → guint count */
  guint64     n;
  guint64     first;
  guint64     last;
} ReportCounts;

static void
report_counts_clear (ReportCounts *c)
{
  g_clear_pointer (&c->counts, g_hash_table_unref);
}

/* SECONDS.FRACTION: at [s, end) → ns */
static gboolean
parse_time_token (const char *s,
                  const char *end,
                  guint64    *ns)
{
  const char *dot = memchr (s, '.', end - s);
  guint64 sec = 0, frac = 0;
  guint n_frac = 0;

  if (dot == NULL || dot == s || end - s < 3 || end[-1] != ':')
    return FALSE;
  for (const char *p = s; p < dot; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      sec = sec * 10 + (*p - '0');
    }
  for (const char *p = dot + 1; p < end - 1; p++, n_frac++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      frac = frac * 10 + (*p - '0');
    }
  if (n_frac == 0)
    return FALSE;
  for (; n_frac < 9; n_frac++)
    frac *= 10;
  *ns = sec * G_GUINT64_CONSTANT (1000000000) + frac;
  return TRUE;
}

static void
count_name (GHashTable *counts,
            const char *s,
            gsize       len)
{
  char name[128];
  guint *count;

  g_assert_cmpuint (len, <, sizeof name);
  memcpy (name, s, len);
  name[len] = '\0';
  if ((count = g_hash_table_lookup (counts, name)) == NULL)
    g_hash_table_insert (counts, g_strdup (name), (count = g_new0 (guint, 1)));
  (*count)++;
}

/* Without allocating per line (the test also runs under ASan): the first blank-separated
 * token that is SECONDS.FRACTION: is the time, the next one NAME:. */
static gboolean
count_report (const char   *path,
              ReportCounts *c)
{
  const char *argv[] = { "trace-cmd", "report", "-t", path, NULL };
  g_autofree char *out = tw_test_run_tool (argv, NULL);
  const char *line;

  if (out == NULL)
    return FALSE;
  c->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  c->first = G_MAXUINT64;
  c->last = 0;
  for (line = out; *line; )
    {
      const char *eol = strchrnul (line, '\n');
      const char *p = line;
      gboolean have_time = FALSE;
      guint64 ns = 0;

      while (p < eol)
        {
          const char *tok;

          while (p < eol && (*p == ' ' || *p == '\t'))
            p++;
          tok = p;
          while (p < eol && *p != ' ' && *p != '\t')
            p++;
          if (tok == p)
            break;
          if (!have_time)
            {
              if (tok[0] == '=' && tok[1] == '>')
                break;  /* a stack trace's continuation line */
              have_time = parse_time_token (tok, p, &ns);
            }
          else
            {
              if (p[-1] == ':')
                {
                  count_name (c->counts, tok, p - 1 - tok);
                  c->n++;
                  c->first = MIN (c->first, ns);
                  c->last = MAX (c->last, ns);
                }
              break;
            }
        }
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

static void
assert_counts_match (TwTrace      *trace,
                     ReportCounts *c)
{
  GHashTableIter iter;
  gpointer key, value;
  g_autoptr(GHashTable) ours = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint64 i = 0; i < tw_trace_get_n_events (trace); i++)
    {
      TwEvent ev;
      const char *name;

      tw_trace_get_event (trace, i, &ev);
      name = tw_trace_get_event_type (trace, ev.type)->name;
      g_hash_table_insert (ours, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (ours, name)) + 1));
    }
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, c->n);
  g_assert_cmpuint (g_hash_table_size (ours), ==, g_hash_table_size (c->counts));
  g_hash_table_iter_init (&iter, c->counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_test_message ("%s: reference %u, ours %u", (char *) key, *(guint *) value,
                      GPOINTER_TO_UINT (g_hash_table_lookup (ours, key)));
      g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (ours, key)), ==, *(guint *) value);
    }
  g_assert_cmpuint (tw_trace_get_first_time (trace), ==, c->first);
  g_assert_cmpuint (tw_trace_get_last_time (trace), ==, c->last);
}

/* ---------------------------------------------------------------- tests */

static void
test_report_counts (gconstpointer data)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (data);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *format = NULL;
  ReportCounts c = { 0 };

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  if (!count_report (path, &c))
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  format = tw_trace_dup_metadata (trace, "format");
  g_assert_cmpstr (format, ==, "trace-dat");
  assert_counts_match (trace, &c);
  report_counts_clear (&c);
}

static gboolean
arg_is_task (TwEventKind kind)
{
  return kind == TW_EVENT_KIND_SWITCH || kind == TW_EVENT_KIND_WAKEUP
         || kind == TW_EVENT_KIND_TASK_CREATE || kind == TW_EVENT_KIND_TASK_EXIT;
}

static const char *
source_id (TwTrace *trace,
           guint32  task)
{
  return task == TW_TASK_NONE ? "(none)" : tw_trace_get_task (trace, task)->source_id;
}

/* The store from the .dat equals the one from its `trace-cmd report -t` text. */
static void
test_same_store_as_text (gconstpointer data)
{
  g_autofree char *path = tw_test_dup_shared_trace_path (data);
  const char *argv[] = { "trace-cmd", "report", "-t", path, NULL };
  g_autofree char *text = NULL;
  g_autofree char *text_path = NULL;
  g_autoptr(TwTrace) dat = NULL;
  g_autoptr(TwTrace) txt = NULL;
  g_autoptr(GError) error = NULL;
  guint64 n;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  if ((text = tw_test_run_tool (argv, NULL)) == NULL)
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  text_path = tw_test_write_temp_file ("report.txt", text, -1);
  dat = load (path, &error);
  g_assert_no_error (error);
  txt = tw_reader_registry_load_file (text_path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  n = tw_trace_get_n_events (dat);
  g_assert_cmpuint (n, ==, tw_trace_get_n_events (txt));
  g_assert_cmpuint (tw_trace_get_n_tasks (dat), ==, tw_trace_get_n_tasks (txt));
  for (guint64 i = 0; i < n; i++)
    {
      TwEvent a, b;
      const TwEventType *ta, *tb;

      tw_trace_get_event (dat, i, &a);
      tw_trace_get_event (txt, i, &b);
      ta = tw_trace_get_event_type (dat, a.type);
      tb = tw_trace_get_event_type (txt, b.type);
      if (a.time != b.time || a.cpu != b.cpu || strcmp (ta->name, tb->name) != 0
          || ta->kind != tb->kind
          || strcmp (source_id (dat, a.task), source_id (txt, b.task)) != 0)
        g_error ("event %" G_GUINT64_FORMAT ": dat %" G_GUINT64_FORMAT " cpu %u %s task %s, "
                 "text %" G_GUINT64_FORMAT " cpu %u %s task %s", i, a.time, a.cpu, ta->name,
                 source_id (dat, a.task), b.time, b.cpu, tb->name, source_id (txt, b.task));
      if (arg_is_task (ta->kind))
        g_assert_cmpstr (source_id (dat, a.arg), ==, source_id (txt, b.arg));
      else
        g_assert_cmpuint (a.arg, ==, b.arg);
      if (ta->kind == TW_EVENT_KIND_SWITCH)
        {
          /* the text shows trace-cmd 3.1's older letters (W for the kernel's I, no "+"):
           * compare what the state model takes from them, still running or not */
          g_autofree char *sa = tw_test_dup_event_field (dat, i, "prev_state");
          g_autofree char *sb = tw_test_dup_event_field (txt, i, "prev_state");

          g_assert_nonnull (sa);
          g_assert_nonnull (sb);
          g_assert_cmpint (sa[0] == 'R', ==, sb[0] == 'R');
        }
    }

  for (guint32 t = 0; t < tw_trace_get_n_tasks (dat); t++)
    {
      const TwTask *task = tw_trace_get_task (dat, t);
      guint32 other = tw_trace_lookup_task (txt, task->source_id);

      g_assert_cmpuint (other, !=, TW_TASK_NONE);
      g_assert_cmpstr (task->name, ==, tw_trace_get_task (txt, other)->name);
      g_assert_cmpint (task->tid, ==, tw_trace_get_task (txt, other)->tid);
      g_assert_cmpint (task->flags, ==, tw_trace_get_task (txt, other)->flags);
    }
}

/* `933.349603382: sched_switch: trace-cmd:14268 [120] R ==> migration/1:21 [0]` on CPU 1
 * (trace-cmd report -R shows prev_state=256: TASK_REPORT_MAX, preempted). */
static void
test_known_switch (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  static const struct { const char *field; const char *value; } expected[] = {
    { "prev_comm", "trace-cmd" }, { "prev_pid", "14268" }, { "prev_prio", "120" },
    { "prev_state", "R+" }, { "next_comm", "migration/1" }, { "next_pid", "21" },
    { "next_prio", "0" },
  };
  g_autofree char *clock = NULL;
  guint64 index;
  TwEvent ev;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  trace = load (path, &error);
  g_assert_no_error (error);
  index = tw_trace_find_first_at_or_after (trace, G_GUINT64_CONSTANT (933349603382));
  g_assert_true (tw_trace_get_event (trace, index, &ev));
  g_assert_cmpuint (ev.time, ==, G_GUINT64_CONSTANT (933349603382));
  g_assert_cmpuint (ev.cpu, ==, 1);
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->name, ==, "sched_switch");
  g_assert_cmpstr (tw_trace_get_task (trace, ev.task)->source_id, ==, "14268");
  g_assert_cmpstr (tw_trace_get_task (trace, ev.arg)->source_id, ==, "21");
  g_assert_cmpstr (tw_trace_get_task (trace, ev.arg)->name, ==, "migration/1");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_autofree char *value = tw_test_dup_event_field (trace, index, expected[i].field);

      g_assert_cmpstr (value, ==, expected[i].value);
    }
  clock = tw_trace_dup_metadata (trace, "clock");
  g_assert_cmpstr (clock, ==, "local");
}

static gboolean
write_file (const char *path,
            const char *value)
{
  return g_file_set_contents_full (path, value, -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

/* A recording made here, in a tracefs instance of its own (the top buffer may belong to
 * someone else's recording), extracted with trace-cmd and compared with its report. */
static void
test_recorded_here (void)
{
  const char *tracing = "/sys/kernel/tracing";
  g_autofree char *name = g_strdup_printf ("tracewb-test-%d", (int) getpid ());
  g_autofree char *instance = g_build_filename (tracing, "instances", name, NULL);
  g_autofree char *out = g_build_filename (tw_test_get_private_dir (), "recorded.dat", NULL);
  const char *events[] = { "sched/sched_switch", "sched/sched_wakeup", "irq/irq_handler_entry",
                           "irq/irq_handler_exit", "irq/softirq_entry", "irq/softirq_exit" };
  const char *extract[] = { "trace-cmd", "extract", "-B", name, "-o", out, NULL };
  const char *load_argv[] = { "sh", "-c", "for i in 1 2 3 4 5 6 7 8; do sleep 0.005; done", NULL };
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *ignored = NULL;
  g_autofree char *on = NULL;
  g_autofree char *buffers = NULL;
  ReportCounts c = { 0 };
  int status = 0;

  if (getuid () != 0)
    {
      g_test_skip ("recording needs root (tracefs); run the tests as root to record a trace.dat");
      return;
    }
  if (!g_file_test ("/sys/kernel/tracing/instances", G_FILE_TEST_IS_DIR))
    {
      const char *mount_argv[] = { "mount", "-t", "tracefs", "nodev", tracing, NULL };

      g_free (tw_test_run_tool (mount_argv, NULL));
    }
  if (g_mkdir (instance, 0755) != 0)
    {
      g_test_skip ("no tracefs instances here (/sys/kernel/tracing/instances)");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (events); i++)
    {
      g_autofree char *enable = g_strdup_printf ("%s/events/%s/enable", instance, events[i]);

      g_assert_true (write_file (enable, "1"));
    }
  on = g_build_filename (instance, "tracing_on", NULL);
  g_assert_true (write_file (on, "1"));
  ignored = tw_test_run_tool (load_argv, NULL);
  g_assert_true (write_file (on, "0"));
  g_free (tw_test_run_tool (extract, &status));
  /* trace-cmd extract -B removes the instance it read; when it did not, we do */
  g_rmdir (instance);
  if (!g_file_test (out, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("trace-cmd extract wrote nothing");
      return;
    }

  g_assert_true (count_report (out, &c));
  trace = load (out, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (c.n, >, 0);
  g_assert_nonnull (g_hash_table_lookup (c.counts, "sched_switch"));
  assert_counts_match (trace, &c);
  buffers = tw_trace_dup_metadata (trace, "trace_dat_buffers");
  g_assert_cmpstr (buffers, ==, name);
  report_counts_clear (&c);
  g_unlink (out);
}

static char *
write_variant (const char *name,
               const char *data,
               gsize       len)
{
  return tw_test_write_temp_file (name, data, len);
}

static void
assert_fails_cleanly (const char *path,
                      gboolean    must_fail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(TwTrace) trace = NULL;
  int saved = dup (STDOUT_FILENO);
  int null_fd = open ("/dev/null", O_WRONLY);

  /* libtracecmd prints "File possibly truncated" on stdout, which is TAP here */
  fflush (stdout);
  dup2 (null_fd, STDOUT_FILENO);
  trace = tw_reader_registry_load_file (path, "trace-dat", NULL, NULL, NULL, &error);
  fflush (stdout);
  dup2 (saved, STDOUT_FILENO);
  close (saved);
  close (null_fd);

  if (trace == NULL)
    {
      g_assert_error (error, TW_READER_ERROR, error->code);
      g_assert_true (strstr (error->message, path) != NULL);
      g_test_message ("%s", error->message);
    }
  else
    {
      g_assert_false (must_fail);
      g_assert_no_error (error);
    }
}

/* Cut and damaged copies of real files: an error naming the file, never a crash. */
static void
test_corrupt (void)
{
  g_autofree char *v6 = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.v6.dat");
  g_autofree char *v7 = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autofree char *d6 = NULL;
  g_autofree char *d7 = NULL;
  gsize n6, n7;

  if (v6 == NULL || v7 == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  g_assert_true (g_file_get_contents (v6, &d6, &n6, NULL));
  g_assert_true (g_file_get_contents (v7, &d7, &n7, NULL));

  /* cut: in the headers (half of each) and in the v6 CPU data (95 %) */
  {
    g_autofree char *a = write_variant ("half6.dat", d6, n6 / 2);
    g_autofree char *b = write_variant ("half7.dat", d7, n7 / 2);
    g_autofree char *c = write_variant ("cut95.dat", d6, n6 / 100 * 95);
    g_autofree char *d = write_variant ("magic.dat", d7, 8);

    assert_fails_cleanly (a, TRUE);
    assert_fails_cleanly (b, TRUE);
    assert_fails_cleanly (c, TRUE);
    assert_fails_cleanly (d, TRUE);
  }

  /* flipped bytes: in the header (page size / endianness / version region), then every
   * 4099th byte of the last 700 kB (v6: event data) */
  {
    g_autofree char *h = g_memdup2 (d7, n7);
    g_autofree char *e = g_memdup2 (d6, n6);
    g_autofree char *hp = NULL;
    g_autofree char *ep = NULL;

    for (gsize i = 30; i < 34; i++)
      h[i] ^= 0xff;
    for (gsize off = n6 - 700000; off + 10 < n6; off += 4099)
      e[off] ^= 0xff;
    hp = write_variant ("header.dat", h, n7);
    ep = write_variant ("data.dat", e, n6);
    assert_fails_cleanly (hp, TRUE);
    assert_fails_cleanly (ep, FALSE);
  }
}

static void
test_probe (void)
{
  g_autofree char *path = tw_test_dup_shared_trace_path ("ftrace/recorded/sched_irq_5s.dat");
  g_autoptr(TwReader) reader = NULL;
  g_autoptr(GError) error = NULL;

  if (path == NULL)
    {
      g_test_skip ("shared trace not found (../shared/traces)");
      return;
    }
  reader = tw_reader_registry_probe_file (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (tw_reader_get_name (reader), ==, "trace-dat");
}

/* Progress ends at 1; a cancelled read fails as cancelled, with nothing kept. */
static void
test_progress_and_cancel (void)
{
  tw_test_check_progress_and_cancel ("ftrace/recorded/sched_irq_5s.dat", "trace-dat");
}

#if !HAVE_LIBTRACECMD
static void
test_not_built (void)
{
  g_test_skip ("trace.dat support was not built (libtracecmd-dev missing)");
}
#endif

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#if !HAVE_LIBTRACECMD
  g_test_add_func ("/tw/ingest/tracecmd/not-built", test_not_built);
  return g_test_run ();
#endif

  for (guint i = 0; i < G_N_ELEMENTS (shared_dats); i++)
    {
      g_autofree char *base = g_path_get_basename (shared_dats[i]);
      g_autofree char *parent = g_path_get_dirname (shared_dats[i]);
      g_autofree char *dir = g_path_get_basename (parent);
      g_autofree char *a = g_strdup_printf ("/tw/ingest/tracecmd/report-counts/%s-%s", dir, base);
      g_autofree char *b = g_strdup_printf ("/tw/ingest/tracecmd/same-store-as-text/%s-%s", dir, base);

      g_test_add_data_func (a, shared_dats[i], test_report_counts);
      g_test_add_data_func (b, shared_dats[i], test_same_store_as_text);
    }
  g_test_add_func ("/tw/ingest/tracecmd/known-switch", test_known_switch);
  g_test_add_func ("/tw/ingest/tracecmd/recorded-here", test_recorded_here);
  g_test_add_func ("/tw/ingest/tracecmd/corrupt", test_corrupt);
  g_test_add_func ("/tw/ingest/tracecmd/probe", test_probe);

  g_test_add_func ("/tw/ingest/tracecmd/progress-and-cancel", test_progress_and_cancel);

  return g_test_run ();
}
