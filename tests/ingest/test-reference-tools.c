/* test-reference-tools.c: every trace we have, read by `tracewb-cli info --json` and by
 * the format's own tool, gives the same event count, count per event name and first and
 * last timestamp: the check a user makes first
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "tw-test-utils.h"

/*
 * The traces: every file, and every CTF trace directory, below ../shared/traces and
 * tests/fixtures (README files aside). Each is compared with what reads it besides us:
 *
 *   trace.dat (by its magic)        `trace-cmd report -t` (timestamps in full ns)
 *   CTF (a folder with `metadata`)  `babeltrace2 --clock-seconds --no-delta`
 *   ftrace text                     the text itself: one event per event header line
 *   CSV events (`.csv`)             the text itself, read as docs/csv-format.md says
 *   S.Ha.R.K. dump (`.dump`)        the `NAME.decoded.csv` beside it, when there is one
 *
 * Timestamps are compared as integers in ns (LTTng's are ~1.46e18: a double would lose
 * the last digits). A file neither side reads agrees; one side reading what the other
 * refuses does not. Any other file (Chrome JSON, SystemView, Tracealyzer, a dump
 * without its decode) must read or fail with one line naming it, never crash.
 */

typedef enum {
  REFERENCE_NONE,
  REFERENCE_TRACE_CMD,
  REFERENCE_BABELTRACE,
  REFERENCE_FTRACE_TEXT,
  REFERENCE_CSV,
  REFERENCE_SHARK_DECODE,
} Reference;

static const char *const reference_names[] = {
  [REFERENCE_NONE] = "none",
  [REFERENCE_TRACE_CMD] = "trace-cmd report",
  [REFERENCE_BABELTRACE] = "babeltrace2",
  [REFERENCE_FTRACE_TEXT] = "the ftrace text",
  [REFERENCE_CSV] = "the CSV text",
  [REFERENCE_SHARK_DECODE] = "the decoded CSV",
};

typedef struct {
  char      *path;      /* what `info` reads */
  char      *ref_path;  /* what the reference reads (the decode of a dump) */
  Reference  reference;
} Case;

/* What one side makes of a trace. */
typedef struct {
  gboolean    read;
  char       *refusal;   /* why not, when !read */
  char       *note;      /* how the reference read it, when that is worth saying */
  guint64     n_events;
  GHashTable *counts;    /* name → guint64 * */
  guint64     first;
  guint64     last;
} Summary;

static void
summary_init (Summary *s)
{
  memset (s, 0, sizeof *s);
  s->counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->first = G_MAXUINT64;
}

static void
summary_clear (Summary *s)
{
  g_clear_pointer (&s->counts, g_hash_table_unref);
  g_clear_pointer (&s->refusal, g_free);
  g_clear_pointer (&s->note, g_free);
}

static void
summary_refuse (Summary    *s,
                const char *why)
{
  s->read = FALSE;
  g_free (s->refusal);
  s->refusal = g_strdup (why);
}

static void
summary_add_n (Summary    *s,
               const char *name,
               gsize       name_len,
               guint64     count)
{
  char key[256];
  guint64 *value;

  g_assert_cmpuint (name_len, <, sizeof key);
  memcpy (key, name, name_len);
  key[name_len] = '\0';
  if ((value = g_hash_table_lookup (s->counts, key)) == NULL)
    g_hash_table_insert (s->counts, g_strdup (key), (value = g_new0 (guint64, 1)));
  *value += count;
  s->n_events += count;
}

static void
summary_add (Summary    *s,
             const char *name,
             gsize       name_len,
             guint64     time_ns)
{
  summary_add_n (s, name, name_len, 1);
  s->first = MIN (s->first, time_ns);
  s->last = MAX (s->last, time_ns);
}

static guint64
summary_count (const Summary *s,
               const char    *name)
{
  const guint64 *value = g_hash_table_lookup (s->counts, name);

  return value ? *value : 0;
}

/* ---------------------------------------------------------------- running tools */

typedef void (*LineFunc) (char    *line,
                          Summary *summary);

/* Runs a reference tool and hands its output to @func line by line (NUL-terminated, no
 * newline), without holding it all: babeltrace2 prints ~70 MB for the many-threads
 * trace. Returns FALSE when the tool is not installed. */
static gboolean
run_tool (const char *const  *argv,
          LineFunc            func,
          Summary            *summary,
          char              **err_text)
{
  g_autofree char *found = g_find_program_in_path (argv[0]);
  g_autofree char *err_path = g_build_filename (tw_test_get_private_dir (), "tool-stderr", NULL);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) pending = g_string_new (NULL);
  g_autofree char *err = NULL;
  GInputStream *out;
  char buf[65536];
  gssize n;

  if (found == NULL)
    return FALSE;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_subprocess_launcher_set_stderr_file_path (launcher, err_path);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  out = g_subprocess_get_stdout_pipe (process);
  while ((n = g_input_stream_read (out, buf, sizeof buf, NULL, &error)) > 0)
    {
      gsize start = 0;

      g_string_append_len (pending, buf, n);
      for (gsize i = 0; i < pending->len; i++)
        if (pending->str[i] == '\n')
          {
            pending->str[i] = '\0';
            func (pending->str + start, summary);
            start = i + 1;
          }
      g_string_erase (pending, 0, start);
    }
  g_assert_no_error (error);
  if (pending->len > 0)
    func (pending->str, summary);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);

  g_file_get_contents (err_path, &err, NULL, NULL);
  if (g_subprocess_get_if_signaled (process))
    {
      g_autofree char *why = g_strdup_printf ("%s was killed by signal %d", argv[0],
                                              g_subprocess_get_term_sig (process));

      summary_refuse (summary, why);
    }
  else if (g_subprocess_get_exit_status (process) != 0)
    {
      g_autofree char *why = g_strdup_printf ("%s exited with status %d", argv[0],
                                              g_subprocess_get_exit_status (process));

      summary_refuse (summary, why);
    }
  else
    summary->read = TRUE;
  if (err_text)
    *err_text = g_steal_pointer (&err);
  return TRUE;
}

/* `tracewb-cli info --json PATH`: a summary, or a refusal that must be one line naming
 * the file (anything else, a crash above all, fails the test). */
static void
run_info (const char *path,
          Summary    *ours)
{
  const char *args[] = { "info", "--json", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GList) names = NULL;
  JsonObject *root;
  JsonObject *types;
  g_autofree char *line = NULL;
  int status;

  summary_init (ours);
  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  if (status != 0)
    {
      line = g_strchomp (g_strdup (err));
      if (status != 1 || strchr (line, '\n') != NULL || strstr (line, path) == NULL)
        g_error ("tracewb-cli info %s: status %d (-1: killed), and not one line naming the "
                 "file:\n%s", path, status, err);
      summary_refuse (ours, line);
      return;
    }
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  types = json_object_get_object_member (root, "types");
  names = json_object_get_members (types);
  for (GList *l = names; l; l = l->next)
    summary_add_n (ours, l->data, strlen (l->data), json_object_get_int_member (types, l->data));
  g_assert_cmpuint (ours->n_events, ==, json_object_get_int_member (root, "events"));
  ours->first = json_object_get_int_member (root, "first_ns");
  ours->last = json_object_get_int_member (root, "last_ns");
  ours->read = TRUE;
}

/* ---------------------------------------------------------------- ftrace text */

static GRegex *ftrace_header;

/* An event's header line as the kernel (tracefs `trace`) and `trace-cmd report` print it:
 * `COMM-PID [(TGID)] [CPU] [FLAGS] SECONDS[.FRACTION]: NAME: …`, or with `report -l`
 * the CPU glued to the flags (`1dN.4.`); `report --ts-diff` puts `(+DELTA)` before the
 * name. A line without `NAME:` is the function tracer's (`func <-parent`) or a stack
 * trace of tracefs: tracewb names those `function`, `kernel_stack` and `user_stack`. */
static const char ftrace_header_pattern[] =
  "^\\s*.+?-\\d+\\s+(?:\\(\\s*(?:\\d+|-+)\\)\\s+)?"
  "(?:\\[\\d+\\]\\s*(?:[^\\s\\d]\\S{0,7}\\s+)?|\\d+[^\\s\\d]\\S{0,7}\\s+)"
  "(?<sec>\\d+)(?:\\.(?<frac>\\d{1,9}))?:\\s+"
  "(?:\\(\\+\\d+\\)\\s+)?"
  "(?:(?<name>[A-Za-z_]\\w*):(?:\\s|$)|(?<stack><stack trace\\s*>)|(?<ustack><user stack trace\\s*>))?";

static guint64
parse_decimal (const char *s,
               gsize       len)
{
  guint64 v = 0;

  for (gsize i = 0; i < len; i++)
    {
      g_assert_true (g_ascii_isdigit (s[i]));
      g_assert_cmpuint (v, <=, (G_MAXUINT64 - 9) / 10);
      v = v * 10 + (s[i] - '0');
    }
  return v;
}

/* SECONDS.FRACTION in ns, exactly; a count without a fraction (counter, x86-tsc clocks)
 * stays the count. */
static guint64
seconds_to_ns (const char *sec,
               gsize       sec_len,
               const char *frac,
               gsize       frac_len)
{
  guint64 ns;

  if (frac_len == 0)
    return parse_decimal (sec, sec_len);
  ns = parse_decimal (frac, frac_len);
  for (gsize i = frac_len; i < 9; i++)
    ns *= 10;
  return parse_decimal (sec, sec_len) * G_GUINT64_CONSTANT (1000000000) + ns;
}

static void
ftrace_line (char    *line,
             Summary *s)
{
  g_autoptr(GMatchInfo) match = NULL;
  int sec_start, sec_end, frac_start, frac_end, name_start, name_end;
  guint64 time_ns;

  if (!g_regex_match (ftrace_header, line, 0, &match))
    return;
  g_match_info_fetch_named_pos (match, "sec", &sec_start, &sec_end);
  if (!g_match_info_fetch_named_pos (match, "frac", &frac_start, &frac_end) || frac_start < 0)
    frac_start = frac_end = sec_end;
  time_ns = seconds_to_ns (line + sec_start, sec_end - sec_start,
                           line + frac_start, frac_end - frac_start);
  if (g_match_info_fetch_named_pos (match, "name", &name_start, &name_end) && name_start >= 0)
    summary_add (s, line + name_start, name_end - name_start, time_ns);
  else if (g_match_info_fetch_named_pos (match, "stack", &name_start, &name_end) && name_start >= 0)
    summary_add (s, "kernel_stack", strlen ("kernel_stack"), time_ns);
  else if (g_match_info_fetch_named_pos (match, "ustack", &name_start, &name_end) && name_start >= 0)
    summary_add (s, "user_stack", strlen ("user_stack"), time_ns);
  else
    summary_add (s, "function", strlen ("function"), time_ns);
}

static void
read_text_lines (const char *path,
                 LineFunc    func,
                 Summary    *s)
{
  g_autofree char *text = NULL;
  gsize len;
  char *line;
  char *next;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  for (line = text; line < text + len; line = next)
    {
      char *eol = memchr (line, '\n', text + len - line);

      next = eol ? eol + 1 : text + len;
      if (eol)
        *eol = '\0';
      if (eol > line && eol[-1] == '\r')
        eol[-1] = '\0';
      func (line, s);
    }
}

static void
reference_ftrace_text (const char *path,
                       Summary    *s)
{
  read_text_lines (path, ftrace_line, s);
  if (s->n_events == 0)
    summary_refuse (s, "no ftrace event header line");
  else
    s->read = TRUE;
}

static gboolean
reference_trace_cmd (const char *path,
                     Summary    *s)
{
  const char *argv[] = { "trace-cmd", "report", "-t", path, NULL };

  return run_tool (argv, ftrace_line, s, NULL);
}

/* ---------------------------------------------------------------- babeltrace2 */

/* `[SECONDS.NS] HOST NAME: { … }` (the host only when the trace names one). */
static void
babeltrace_line (char    *line,
                 Summary *s)
{
  char *p = line + 1;
  char *sec = p;
  char *frac;
  char *tok;
  guint64 time_ns;

  if (line[0] != '[')
    return;
  while (g_ascii_isdigit (*p))
    p++;
  g_assert_true (*p == '.');
  frac = ++p;
  while (g_ascii_isdigit (*p))
    p++;
  g_assert_true (*p == ']');
  time_ns = seconds_to_ns (sec, frac - 1 - sec, frac, p - frac);
  for (p++;;)
    {
      while (*p == ' ')
        p++;
      tok = p;
      while (*p && *p != ' ')
        p++;
      g_assert_true (p > tok);
      if (p[-1] == ':')
        break;
    }
  summary_add (s, tok, p - 1 - tok, time_ns);
}

/* babeltrace2's muxer refuses a stream whose packets overlap in time (it stops with
 * "Youngest upstream message iterator wrapper's timestamp is less than muxer's message
 * iterator's last returned timestamp"). Without the muxer its text sink takes one stream
 * at a time: each stream file goes alone, with the metadata, into a folder of its own.
 * Counts and first/last do not depend on the order the events come in. */
static gboolean
babeltrace_per_stream (const char *dir,
                       Summary    *s)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  static guint n;  /* folders of every call, all in this process's private directory */
  const char *name;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *stream = g_build_filename (dir, name, NULL);
      g_autofree char *leaf = g_strdup_printf ("bt-stream-%u", n++);
      g_autofree char *alone = g_build_filename (tw_test_get_private_dir (), leaf, NULL);
      g_autofree char *link_metadata = g_build_filename (alone, "metadata", NULL);
      g_autofree char *link_stream = g_build_filename (alone, name, NULL);
      g_autofree char *inputs = g_strdup_printf ("inputs=[\"%s\"]", alone);
      const char *argv[] = { "babeltrace2", "run", "--component=src:src.ctf.fs", "--params", inputs,
                             "--component=snk:sink.text.pretty",
                             "--params=clock-seconds=yes,no-delta=yes", "--connect=src:snk", NULL };
      Summary one;

      if (strcmp (name, "metadata") == 0 || !g_file_test (stream, G_FILE_TEST_IS_REGULAR))
        continue;
      g_assert_cmpint (g_mkdir_with_parents (alone, 0755), ==, 0);
      g_assert_cmpint (symlink (metadata, link_metadata), ==, 0);
      g_assert_cmpint (symlink (stream, link_stream), ==, 0);
      summary_init (&one);
      run_tool (argv, babeltrace_line, &one, NULL);
      s->read = one.read;
      if (!one.read)
        {
          summary_refuse (s, one.refusal);
          summary_clear (&one);
          return TRUE;
        }
      s->first = MIN (s->first, one.first);
      s->last = MAX (s->last, one.last);
      {
        GHashTableIter iter;
        gpointer key, value;

        g_hash_table_iter_init (&iter, one.counts);
        while (g_hash_table_iter_next (&iter, &key, &value))
          summary_add_n (s, key, strlen (key), *(guint64 *) value);
      }
      summary_clear (&one);
    }
  return TRUE;
}

static gboolean
reference_babeltrace (const char *dir,
                      Summary    *s)
{
  const char *argv[] = { "babeltrace2", "--clock-seconds", "--no-delta", dir, NULL };
  g_autofree char *err = NULL;

  if (!run_tool (argv, babeltrace_line, s, &err))
    return FALSE;
  if (s->read || strstr (err, "Youngest upstream message iterator wrapper's timestamp") == NULL)
    return TRUE;

  summary_clear (s);
  summary_init (s);
  babeltrace_per_stream (dir, s);
  s->note = g_strdup ("babeltrace2's muxer stops on this trace (a stream's packets overlap "
                      "in time): read one stream at a time without it");
  return TRUE;
}

/* ---------------------------------------------------------------- CSV */

/* One record of RFC 4180 CSV from *@pos: its cells (quoted cells may span lines), or NULL
 * at the end. @quoted[i] says whether cell i was quoted. */
static GPtrArray *
csv_record (const char **pos,
            const char  *end,
            GArray      *quoted)
{
  GPtrArray *cells = g_ptr_array_new_with_free_func (g_free);
  const char *p = *pos;

  g_array_set_size (quoted, 0);
  if (p >= end)
    {
      g_ptr_array_unref (cells);
      return NULL;
    }
  for (;;)
    {
      GString *cell = g_string_new (NULL);
      gboolean q = FALSE;

      while (p < end && (*p == ' ' || *p == '\t'))
        p++;
      if (p < end && *p == '"')
        {
          q = TRUE;
          for (p++; p < end; p++)
            {
              if (*p == '"' && p + 1 < end && p[1] == '"')
                g_string_append_c (cell, *p++);
              else if (*p == '"')
                break;
              else
                g_string_append_c (cell, *p);
            }
          p++;
          while (p < end && *p != ',' && *p != '\n')
            p++;
        }
      else
        {
          while (p < end && *p != ',' && *p != '\n')
            g_string_append_c (cell, *p++);
          while (cell->len > 0 && strchr (" \t\r", cell->str[cell->len - 1]))
            g_string_truncate (cell, cell->len - 1);
        }
      g_ptr_array_add (cells, g_string_free (cell, FALSE));
      g_array_append_val (quoted, q);
      if (p >= end || *p == '\n')
        break;
      p++;
    }
  *pos = p < end ? p + 1 : end;
  return cells;
}

static gboolean
csv_is_skipped_line (const char *p,
                     const char *end)
{
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  return p >= end || *p == '\n' || *p == '#';
}

static const char *
csv_next_line (const char *p,
               const char *end)
{
  const char *nl = memchr (p, '\n', end - p);

  return nl ? nl + 1 : end;
}

static int
csv_column (GPtrArray  *header,
            const char *name)
{
  for (guint i = 0; i < header->len; i++)
    if (strcmp (g_ptr_array_index (header, i), name) == 0)
      return i;
  return -1;
}

static gboolean
csv_number (const char *s,
            guint64     max,
            guint64    *out)
{
  if (*s == '\0' || strspn (s, "0123456789") != strlen (s) || strlen (s) > 20)
    return FALSE;
  *out = g_ascii_strtoull (s, NULL, 10);
  return *out <= max;
}

/* CSV events as docs/csv-format.md defines them: a header naming time_ns, cpu, task and
 * event; `#` comment lines and blank lines anywhere; one event per record. */
static void
reference_csv (const char *path,
               Summary    *s)
{
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) header = NULL;
  g_autoptr(GArray) quoted = g_array_new (FALSE, FALSE, sizeof (gboolean));
  const char *p;
  const char *end;
  gsize len;
  int time_col, cpu_col, event_col;
  guint64 line = 1;
  const char *counted;

  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  p = text;
  end = text + len;
  if (len >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    p += 3;
  if (memchr (text, '\0', len) || !g_utf8_validate (text, len, NULL))
    {
      summary_refuse (s, "not UTF-8 text");
      return;
    }
  while (p < end && csv_is_skipped_line (p, end))
    p = csv_next_line (p, end);
  header = csv_record (&p, end, quoted);
  counted = text;
  if (header == NULL || (time_col = csv_column (header, "time_ns")) < 0
      || (cpu_col = csv_column (header, "cpu")) < 0 || csv_column (header, "task") < 0
      || (event_col = csv_column (header, "event")) < 0)
    {
      summary_refuse (s, "the header does not name time_ns, cpu, task and event");
      return;
    }
  while (p < end)
    {
      g_autoptr(GPtrArray) cells = NULL;
      const char *time_text;
      const char *cpu_text;
      guint64 time_ns, cpu;

      for (; counted < p; counted++)
        line += *counted == '\n';
      if (csv_is_skipped_line (p, end))
        {
          p = csv_next_line (p, end);
          continue;
        }
      cells = csv_record (&p, end, quoted);
      time_text = (guint) time_col < cells->len ? g_ptr_array_index (cells, time_col) : "";
      cpu_text = (guint) cpu_col < cells->len ? g_ptr_array_index (cells, cpu_col) : "";
      if (cells->len > header->len || !csv_number (time_text, G_MAXUINT64 - 1, &time_ns)
          || (*cpu_text && !csv_number (cpu_text, 65534, &cpu))
          || (guint) event_col >= cells->len)
        {
          g_autofree char *why = g_strdup_printf ("line %" G_GUINT64_FORMAT " is not a valid event", line);

          summary_refuse (s, why);
          return;
        }
      summary_add (s, g_ptr_array_index (cells, event_col),
                   strlen (g_ptr_array_index (cells, event_col)), time_ns);
    }
  s->read = TRUE;
}

/* ---------------------------------------------------------------- S.Ha.R.K. */

/* The decode of a dump (`index,offset,type_hex,name,par1,tsc_high,tsc_low,tsc,par2`, one
 * row per record; shared/traces/shark/README.md): time is the TSC since the first record,
 * at the clk_per_msec that trace_start (or cycles_per_msec) gives in par2. */
static void
reference_shark_decode (const char *path,
                        Summary    *s)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GArray) tscs = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 cycles_per_ms = 0;
  guint64 tsc0 = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "index,offset,type_hex,name,par1,tsc_high,tsc_low,tsc,par2");
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_auto(GStrv) cols = g_strsplit (lines[i], ",", -1);
      guint64 tsc;

      g_assert_cmpuint (g_strv_length (cols), ==, 9);
      tsc = g_ascii_strtoull (cols[7], NULL, 10);
      if (i == 1)
        tsc0 = tsc;
      if (cycles_per_ms == 0 && (strcmp (cols[3], "trace_start") == 0
                                 || strcmp (cols[3], "cycles_per_msec") == 0))
        cycles_per_ms = g_ascii_strtoull (cols[8], NULL, 10);
      g_array_append_val (tscs, tsc);
      summary_add_n (s, cols[3], strlen (cols[3]), 1);
    }
  g_assert_cmpuint (cycles_per_ms, >, 0);
  for (guint i = 0; i < tscs->len; i++)
    {
      guint64 tsc = g_array_index (tscs, guint64, i);
      guint64 ns = (guint64) ((unsigned __int128) (tsc - tsc0) * 1000000 / cycles_per_ms);

      s->first = MIN (s->first, ns);
      s->last = MAX (s->last, ns);
    }
  s->read = TRUE;
}

/* ---------------------------------------------------------------- comparing */

static gint
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Both sides, name by name, the differing rows marked: what the user of a failed run
 * needs to see which reader miscounts what. */
static void
print_table (const Case    *c,
             const Summary *ours,
             const Summary *ref)
{
  const char *tool = reference_names[c->reference];
  g_autoptr(GHashTable) all = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, ours->counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (all, key);
  g_hash_table_iter_init (&iter, ref->counts);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (all, key);
  g_hash_table_iter_init (&iter, all);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, key);
  g_ptr_array_sort (names, compare_names);

  g_test_message ("%s: tracewb-cli info and %s disagree", c->path, tool);
  g_test_message ("  %-40s %20s %20s", "event", "tracewb-cli info", tool);
  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      guint64 a = summary_count (ours, name);
      guint64 b = summary_count (ref, name);

      g_test_message ("%s %-40s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT,
                      a == b ? " " : "!", name, a, b);
    }
  g_test_message ("%s %-40s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT,
                  ours->n_events == ref->n_events ? " " : "!", "(all events)",
                  ours->n_events, ref->n_events);
  g_test_message ("%s %-40s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT,
                  ours->first == ref->first ? " " : "!", "(first ns)", ours->first, ref->first);
  g_test_message ("%s %-40s %20" G_GUINT64_FORMAT " %20" G_GUINT64_FORMAT,
                  ours->last == ref->last ? " " : "!", "(last ns)", ours->last, ref->last);
}

static gboolean
summaries_agree (const Summary *ours,
                 const Summary *ref)
{
  GHashTableIter iter;
  gpointer key, value;

  if (ours->n_events != ref->n_events || ours->first != ref->first || ours->last != ref->last
      || g_hash_table_size (ours->counts) != g_hash_table_size (ref->counts))
    return FALSE;
  g_hash_table_iter_init (&iter, ref->counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (summary_count (ours, key) != *(guint64 *) value)
      return FALSE;
  return TRUE;
}

static gboolean
run_reference (const Case *c,
               Summary    *ref)
{
  summary_init (ref);
  switch (c->reference)
    {
    case REFERENCE_TRACE_CMD:
      return reference_trace_cmd (c->ref_path, ref);
    case REFERENCE_BABELTRACE:
      return reference_babeltrace (c->ref_path, ref);
    case REFERENCE_FTRACE_TEXT:
      reference_ftrace_text (c->ref_path, ref);
      return TRUE;
    case REFERENCE_CSV:
      reference_csv (c->ref_path, ref);
      return TRUE;
    case REFERENCE_SHARK_DECODE:
      reference_shark_decode (c->ref_path, ref);
      return TRUE;
    case REFERENCE_NONE:
    default:
      break;
    }
  g_assert_not_reached ();
  return FALSE;
}

static void
test_against_reference (gconstpointer data)
{
  const Case *c = data;
  Summary ours;
  Summary ref;

#if !HAVE_BABELTRACE
  if (c->reference == REFERENCE_BABELTRACE)
    {
      g_test_skip ("built without libbabeltrace2: tracewb-cli reads no CTF");
      return;
    }
#endif
#if !HAVE_LIBTRACECMD
  if (c->reference == REFERENCE_TRACE_CMD)
    {
      g_test_skip ("built without libtracecmd: tracewb-cli reads no trace.dat");
      return;
    }
#endif
  if (!run_reference (c, &ref))
    {
      g_autofree char *why = g_strdup_printf ("%s is not installed", reference_names[c->reference]);

      g_test_skip (why);
      summary_clear (&ref);
      return;
    }
  /* `info` says 0 to 0 for a trace without events */
  if (ref.n_events == 0)
    ref.first = ref.last = 0;
  run_info (c->path, &ours);
  if (ref.note)
    g_test_message ("%s: %s", c->path, ref.note);

  if (!ours.read || !ref.read)
    {
      if (ours.read)
        g_test_message ("%s: tracewb-cli info reads it", c->path);
      else
        g_test_message ("%s", ours.refusal);
      g_test_message ("%s: %s: %s", c->path, reference_names[c->reference],
                      ref.read ? "reads it" : ref.refusal);
      if (ours.read != ref.read)
        g_test_fail_printf ("%s: one side reads what the other refuses", c->path);
    }
  else if (!summaries_agree (&ours, &ref))
    {
      print_table (c, &ours, &ref);
      g_test_fail_printf ("%s: tracewb-cli info disagrees with %s", c->path,
                          reference_names[c->reference]);
    }
  else
    g_test_message ("%s: %" G_GUINT64_FORMAT " events, %u names, %" G_GUINT64_FORMAT " to %"
                    G_GUINT64_FORMAT " ns, as %s says", c->path, ours.n_events,
                    g_hash_table_size (ours.counts), ours.first, ours.last,
                    reference_names[c->reference]);
  summary_clear (&ours);
  summary_clear (&ref);
}

/* A file no reference reads: `info` reads it or fails with one line naming it. */
static void
test_reads_or_refuses (gconstpointer data)
{
  const Case *c = data;
  Summary ours;

  run_info (c->path, &ours);
  if (ours.read)
    g_test_message ("%s: read, %" G_GUINT64_FORMAT " events", c->path, ours.n_events);
  else
    g_test_message ("%s", ours.refusal);
  summary_clear (&ours);
}

/* ---------------------------------------------------------------- finding the traces */

static gboolean
has_prefix_bytes (const char   *path,
                  const guint8 *magic,
                  gsize         len)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);
  guint8 head[16];
  gsize got = 0;

  g_assert_cmpuint (len, <=, sizeof head);
  return in && g_input_stream_read_all (G_INPUT_STREAM (in), head, len, &got, NULL, NULL)
         && got == len && memcmp (head, magic, len) == 0;
}

/* Text with an ftrace event header line among its first lines. */
static gboolean
looks_like_ftrace_text (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GFileInputStream) in = g_file_read (file, NULL, NULL);
  g_autofree char *head = g_malloc (65536 + 1);
  Summary probe;
  gsize len = 0;
  char *line;
  gboolean yes;

  if (in == NULL || !g_input_stream_read_all (G_INPUT_STREAM (in), head, 65536, &len, NULL, NULL)
      || memchr (head, '\0', len))
    return FALSE;
  head[len] = '\0';
  summary_init (&probe);
  for (line = head; probe.n_events == 0; )
    {
      char *eol = strchr (line, '\n');

      if (eol == NULL)
        break;  /* a cut last line says nothing */
      *eol = '\0';
      ftrace_line (line, &probe);
      line = eol + 1;
    }
  yes = probe.n_events > 0;
  summary_clear (&probe);
  return yes;
}

static Case *
case_new (const char *path,
          const char *ref_path,
          Reference   reference)
{
  Case *c = g_new0 (Case, 1);

  c->path = g_strdup (path);
  c->ref_path = g_strdup (ref_path ? ref_path : path);
  c->reference = reference;
  return c;
}

static Case *
classify (const char *path)
{
  static const guint8 trace_dat_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
  g_autofree char *metadata = g_build_filename (path, "metadata", NULL);

  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    return g_file_test (metadata, G_FILE_TEST_IS_REGULAR)
           ? case_new (path, NULL, REFERENCE_BABELTRACE) : NULL;
  if (has_prefix_bytes (path, trace_dat_magic, sizeof trace_dat_magic))
    return case_new (path, NULL, REFERENCE_TRACE_CMD);
  if (g_str_has_suffix (path, ".csv"))
    return case_new (path, NULL, REFERENCE_CSV);
  if (g_str_has_suffix (path, ".dump"))
    {
      g_autofree char *stem = g_strndup (path, strlen (path) - strlen (".dump"));
      g_autofree char *decode = g_strconcat (stem, ".decoded.csv", NULL);

      if (g_file_test (decode, G_FILE_TEST_IS_REGULAR))
        return case_new (path, decode, REFERENCE_SHARK_DECODE);
      return case_new (path, NULL, REFERENCE_NONE);
    }
  if (looks_like_ftrace_text (path))
    return case_new (path, NULL, REFERENCE_FTRACE_TEXT);
  return case_new (path, NULL, REFERENCE_NONE);
}

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->path);
  g_free (c->ref_path);
  g_free (c);
}

/* Every trace below @dir, in name order; a CTF trace's folder is one trace. */
static void
collect (const char *dir,
         GPtrArray  *cases)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    if (name[0] != '.' && !g_str_has_suffix (name, ".md"))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_autofree char *metadata = g_build_filename (path, "metadata", NULL);
      Case *c;

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (metadata, G_FILE_TEST_EXISTS))
        collect (path, cases);
      else if ((c = classify (path)))
        g_ptr_array_add (cases, c);
    }
}

static void
add_tests (const char *root,
           const char *label,
           GPtrArray  *cases)
{
  guint first = cases->len;

  collect (root, cases);
  for (guint i = first; i < cases->len; i++)
    {
      Case *c = g_ptr_array_index (cases, i);
      g_autofree char *test = g_strdup_printf ("/tw/reference/%s%s", label, c->path + strlen (root));

      if (c->reference == REFERENCE_NONE)
        g_test_add_data_func (test, c, test_reads_or_refuses);
      else
        g_test_add_data_func (test, c, test_against_reference);
    }
}

/* An LTTng session folder holds its traces below it (`kernel/`, `ust/uid/1000/64-bit/`)
 * and babeltrace2 reads every one of them, merged: a folder made so from two shared
 * traces (the second one stands in for a UST trace; any CTF trace will do). */
static void
add_session_test (const char *shared,
                  GPtrArray  *cases)
{
  g_autofree char *session = g_build_filename (tw_test_get_private_dir (), "lttng-session", NULL);
  g_autofree char *ust = g_build_filename (session, "ust", "uid", "1000", NULL);
  g_autofree char *kernel = g_build_filename (session, "kernel", NULL);
  g_autofree char *ust64 = g_build_filename (ust, "64-bit", NULL);
  g_autofree char *a = g_build_filename (shared, "ctf", "lttng-kernel-bug446190", "trace", NULL);
  g_autofree char *b = g_build_filename (shared, "ctf", "lttng-kernel-flipping-endianness", "trace", NULL);
  Case *c;

  if (!g_file_test (a, G_FILE_TEST_IS_DIR) || !g_file_test (b, G_FILE_TEST_IS_DIR))
    return;
  g_assert_cmpint (g_mkdir_with_parents (ust, 0755), ==, 0);
  g_assert_cmpint (symlink (a, kernel), ==, 0);
  g_assert_cmpint (symlink (b, ust64), ==, 0);
  c = case_new (session, NULL, REFERENCE_BABELTRACE);
  g_ptr_array_add (cases, c);
  g_test_add_data_func ("/tw/reference/generated/lttng-session", c, test_against_reference);
}

static void
test_no_shared_traces (void)
{
  g_test_skip ("../shared/traces is not there (TW_SHARED_DIR names another place)");
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) cases = g_ptr_array_new_with_free_func (case_free);
  g_autofree char *shared = tw_test_dup_shared_trace_path ("");
  g_autofree char *fixtures = tw_test_dup_fixture_path ("");
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  ftrace_header = g_regex_new (ftrace_header_pattern, G_REGEX_OPTIMIZE, 0, &error);
  g_assert_no_error (error);

  if (shared)
    {
      add_tests (shared, "shared", cases);
      add_session_test (shared, cases);
    }
  else
    g_test_add_func ("/tw/reference/shared", test_no_shared_traces);
  add_tests (fixtures, "fixtures", cases);

  status = g_test_run ();
  g_regex_unref (ftrace_header);
  return status;
}
