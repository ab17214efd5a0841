/* test-messy-traces.c: what real recordings do wrong, read and said as it is
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <tw-ingest.h>

#include "tw-test-utils.h"

/* ---------------------------------------------------------------- tracewb-cli info */

static JsonObject *
info_json (const char *path,
           JsonParser *parser)
{
  const char *args[] = { "info", "--json", path, NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static char *
info_text (const char *path)
{
  const char *args[] = { "info", path, NULL };
  char *out = NULL;
  g_autofree char *err = NULL;
  int status;

  g_assert_true (tw_test_run_cli (args, &out, &err, &status));
  g_assert_cmpint (status, ==, 0);
  return out;
}

/* ---------------------------------------------------------------- trace.dat */

/* tests/fixtures/ftrace/overrun.dat: two overruns of CPU 1 (see the README there). */
static char *
dup_overrun_path (void)
{
  return g_test_build_filename (G_TEST_DIST, "fixtures", "ftrace", "overrun.dat", NULL);
}

static void
assert_overrun_losses (TwTrace *trace)
{
  g_autoptr(TwLostEvents) lost = tw_lost_events_new (trace);
  const TwLoss *losses;
  gsize n;

  losses = tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (losses[0].cpu, ==, 1);
  g_assert_cmpuint (losses[0].count, ==, 2248);
  g_assert_cmpuint (losses[0].end, ==, G_GUINT64_CONSTANT (20395980034813));
  g_assert_cmpuint (losses[0].begin, <, losses[0].end);
  g_assert_cmpuint (losses[1].cpu, ==, 1);
  g_assert_cmpuint (losses[1].count, ==, 1893);
  g_assert_cmpuint (losses[1].end, ==, G_GUINT64_CONSTANT (20395991284876));
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 1)->n_lost, ==, 2248 + 1893);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 0)->n_reports, ==, 0);
}

/* A recording whose ring buffer overran: each page's missed events become a lost event
 * just before the first record kept after them, where `trace-cmd report` prints
 * `CPU:1 [2248 EVENTS DROPPED]`. */
static void
test_trace_dat_overrun (void)
{
  g_autofree char *path = dup_overrun_path ();
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  TwEvent ev;
  guint64 first;

  if (!HAVE_LIBTRACECMD)
    {
      g_test_skip ("trace.dat support was not built (libtracecmd-dev missing)");
      return;
    }
  trace = tw_reader_registry_load_file (path, "trace-dat", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_overrun_losses (trace);

  first = tw_trace_find_first_at_or_after (trace, G_GUINT64_CONSTANT (20395980034813));
  g_assert_true (tw_trace_get_event (trace, first, &ev));
  g_assert_cmpuint (tw_trace_get_event_type (trace, ev.type)->kind, ==, TW_EVENT_KIND_LOST);
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->name, ==, "lost_events");
  g_assert_cmpuint (ev.arg, ==, 2248);
  g_assert_true (tw_trace_get_event (trace, first + 1, &ev));
  g_assert_cmpstr (tw_trace_get_event_type (trace, ev.type)->name, ==, "sched_switch");
  g_assert_null (tw_trace_dup_metadata (trace, "lost_events"));
}

/* The text trace-cmd prints for the same file gives the same losses, through the ftrace
 * text reader. */
static void
test_trace_dat_overrun_as_text (void)
{
  g_autofree char *path = dup_overrun_path ();
  const char *argv[] = { "trace-cmd", "report", "-t", path, NULL };
  g_autofree char *text = NULL;
  g_autofree char *text_path = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  if ((text = tw_test_run_tool (argv, NULL)) == NULL)
    {
      g_test_skip ("trace-cmd is not installed");
      return;
    }
  g_assert_nonnull (strstr (text, "CPU:1 [2248 EVENTS DROPPED]"));
  text_path = tw_test_write_temp_file ("overrun.txt", text, -1);
  trace = tw_reader_registry_load_file (text_path, "ftrace-text", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  assert_overrun_losses (trace);
}

/* A trace.dat whose header names a codec libtracecmd was built without: the message says
 * which codec, and which ones this libtracecmd reads, not "truncated or corrupt". */
static void
test_trace_dat_codec (void)
{
  g_autofree char *path = dup_overrun_path ();
  g_autofree char *data = NULL;
  g_autofree char *zlib_path = NULL;
  g_autofree char *odd_path = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *codec;
  gsize len;

  if (!HAVE_LIBTRACECMD)
    {
      g_test_skip ("trace.dat support was not built (libtracecmd-dev missing)");
      return;
    }
  g_assert_true (g_file_get_contents (path, &data, &len, NULL));
  /* "\x17\x08\x44tracing" "7\0", endianness, long size, page size, then "zstd\0" */
  codec = data + 10 + 2 + 1 + 1 + 4;
  g_assert_cmpstr (codec, ==, "zstd");

  memcpy (data + (codec - data), "lz9x", 4);
  odd_path = tw_test_write_temp_file ("odd-codec.dat", data, len);
  trace = tw_reader_registry_load_file (odd_path, "trace-dat", NULL, NULL, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, odd_path));
  g_assert_nonnull (strstr (error->message, "offset 18: compressed with lz9x; this system's libtracecmd reads "));
  g_assert_nonnull (strstr (error->message, "zstd"));
  g_assert_true (g_str_has_suffix (error->message, " only"));
  g_assert_null (strstr (error->message, "corrupt"));
  g_clear_error (&error);

  /* the case users meet: a file from a trace-cmd built with zlib */
  memcpy (data + (codec - data), "zlib", 4);
  zlib_path = tw_test_write_temp_file ("zlib.dat", data, len);
  trace = tw_reader_registry_load_file (zlib_path, "trace-dat", NULL, NULL, NULL, &error);
  g_assert_null (trace);
  if (g_error_matches (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED))
    g_assert_nonnull (strstr (error->message, "compressed with zlib; this system's libtracecmd reads zstd"));
  else
    g_test_message ("this libtracecmd reads zlib: %s", error->message);
}

/* ---------------------------------------------------------------- CSV */

/* A CSV line of event `lost` is a loss on its CPU; a `count` column says how many. */
static void
test_csv_lost (void)
{
  static const char csv[] =
    "time_ns,cpu,task,event,next,prev_state,count\n"
    "100,0,a,switch,b,R,\n"
    "300,0,,lost,,,7\n"
    "350,1,,lost,,,\n"
    "400,0,b,switch,a,S,\n";
  g_autofree char *path = tw_test_write_temp_file ("lost.csv", csv, -1);
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwLostEvents) lost = NULL;
  g_autoptr(GError) error = NULL;

  trace = tw_reader_registry_load_file (path, "csv", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  lost = tw_lost_events_new (trace);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 0)->n_lost, ==, 7);
  g_assert_cmpuint (tw_lost_events_get_totals (lost, 1)->n_unknown, ==, 1);
  /* CPU 1 had no event before its loss: its gap runs from the trace's start */
  g_assert_cmpuint (tw_lost_events_count_between (lost, 150, 250), ==, 7 + 1);
  g_assert_cmpuint (tw_lost_events_count_between (lost, 360, 390), ==, 0);
}

/* ---------------------------------------------------------------- CTF */

static void
put_u32 (GByteArray *out,
         guint32     v)
{
  guint32 le = GUINT32_TO_LE (v);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

static void
put_u64 (GByteArray *out,
         guint64     v)
{
  guint64 le = GUINT64_TO_LE (v);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

/* One packet: header (magic, stream id), context (begin, @end, content and packet size in
 * bits, sequence number, events discarded so far, CPU), then a `tick` per time. */
static void
put_packet (GByteArray    *out,
            guint64        seq,
            guint64        discarded,
            guint64        cpu,
            const guint64 *times,
            guint          n,
            guint64        end)
{
  guint64 bits = (64 + 24 * (guint64) n) * 8;

  put_u32 (out, 0xC1FC1FC1);
  put_u32 (out, 0);
  put_u64 (out, times[0]);
  put_u64 (out, end);
  put_u64 (out, bits);
  put_u64 (out, bits);
  put_u64 (out, seq);
  put_u64 (out, discarded);
  put_u64 (out, cpu);
  for (guint i = 0; i < n; i++)
    {
      put_u64 (out, 0);
      put_u64 (out, times[i]);
      put_u64 (out, i);
    }
}

static const char ctf_metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "trace {\n"
  "  major = 1;\n"
  "  minor = 8;\n"
  "  byte_order = le;\n"
  "  packet.header := struct { uint32_t magic; uint32_t stream_id; };\n"
  "};\n"
  "clock { name = monotonic; freq = 1000000000; offset_s = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; }"
  " := uint64_clock_t;\n"
  "stream {\n"
  "  id = 0;\n"
  "  packet.context := struct {\n"
  "    uint64_clock_t timestamp_begin; uint64_clock_t timestamp_end;\n"
  "    uint64_t content_size; uint64_t packet_size;\n"
  "    uint64_t packet_seq_num; uint64_t events_discarded; uint64_t cpu_id;\n"
  "  };\n"
  "  event.header := struct { uint64_t id; uint64_clock_t timestamp; };\n"
  "};\n"
  "event {\n"
  "  name = \"tick\";\n"
  "  id = 0;\n"
  "  stream_id = 0;\n"
  "  fields := struct { uint64_t value; };\n"
  "};\n";

/* CPU 0's stream skips packet 2 (sequence numbers 0, 1, 3); CPU 1's second packet says
 * 5 events were discarded since its first, and ends at 1800, after every event. */
static char *
write_lossy_ctf (void)
{
  g_autofree char *dir = g_build_filename (tw_test_get_private_dir (), "lossy-ctf", NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *s0 = g_build_filename (dir, "stream_0", NULL);
  g_autofree char *s1 = g_build_filename (dir, "stream_1", NULL);
  g_autoptr(GByteArray) cpu0 = g_byte_array_new ();
  g_autoptr(GByteArray) cpu1 = g_byte_array_new ();
  static const guint64 t00[] = { 1000, 1100 }, t01[] = { 1200, 1300 }, t03[] = { 1600, 1700 };
  static const guint64 t10[] = { 1050, 1150 }, t11[] = { 1400, 1500 };

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  put_packet (cpu0, 0, 0, 0, t00, 2, 1100);
  put_packet (cpu0, 1, 0, 0, t01, 2, 1300);
  put_packet (cpu0, 3, 0, 0, t03, 2, 1700);
  put_packet (cpu1, 0, 0, 1, t10, 2, 1150);
  put_packet (cpu1, 1, 5, 1, t11, 2, 1800);
  g_assert_true (g_file_set_contents (metadata, ctf_metadata, -1, NULL));
  g_assert_true (g_file_set_contents (s0, (const char *) cpu0->data, cpu0->len, NULL));
  g_assert_true (g_file_set_contents (s1, (const char *) cpu1->data, cpu1->len, NULL));
  return g_steal_pointer (&dir);
}

/* babeltrace2's discarded-events and discarded-packets messages, as lost events on their
 * CPU at the end of their gap; the store stays in time order. */
static void
test_ctf_discarded (void)
{
  g_autofree char *dir = NULL;
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwLostEvents) lost = NULL;
  g_autoptr(GError) error = NULL;
  const TwLoss *losses;
  gsize n;

  if (!HAVE_BABELTRACE)
    {
      g_test_skip ("CTF support was not built (libbabeltrace2-dev missing)");
      return;
    }
  dir = write_lossy_ctf ();
  {
    const char *argv[] = { "babeltrace2", dir, NULL };
    g_autofree char *out = tw_test_run_tool (argv, NULL);

    if (out != NULL)
      g_test_message ("babeltrace2 reads %s", out);
  }
  trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 10 + 2);

  lost = tw_lost_events_new (trace);
  losses = tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (losses[0].cpu, ==, 0);
  g_assert_cmpuint (losses[0].count, ==, TW_LOST_COUNT_UNKNOWN);
  g_assert_cmpuint (losses[0].packets, ==, 1);
  g_assert_cmpuint (losses[0].begin, ==, 1300);
  g_assert_cmpuint (losses[0].end, ==, 1600);
  g_assert_cmpuint (losses[1].cpu, ==, 1);
  g_assert_cmpuint (losses[1].count, ==, 5);
  g_assert_cmpuint (losses[1].begin, ==, 1150);
  g_assert_cmpuint (losses[1].end, ==, 1800);
  for (guint64 i = 1; i < tw_trace_get_n_events (trace); i++)
    g_assert_cmpuint (tw_trace_get_time (trace, i - 1), <=, tw_trace_get_time (trace, i));
  g_assert_null (tw_trace_dup_metadata (trace, "lost_events"));

  /* info: the events babeltrace2 prints, between the times it prints, and the losses */
  if (g_getenv ("TW_CLI") != NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *info = info_json (dir, parser);
      JsonObject *total = json_object_get_object_member (json_object_get_object_member (info, "lost"),
                                                         "total");

      g_assert_cmpint (json_object_get_int_member (info, "events"), ==, 10);
      g_assert_cmpint (json_object_get_int_member (info, "first_ns"), ==, 1000);
      g_assert_cmpint (json_object_get_int_member (info, "last_ns"), ==, 1700);
      g_assert_cmpint (json_object_get_int_member (total, "events"), ==, 5);
      g_assert_cmpint (json_object_get_int_member (total, "packets"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (total, "uncounted"), ==, 1);
    }
}

/* A stream whose events_discarded counter goes back (0, 10, 7, 12 over four packets):
 * babeltrace2 2.0.4 says 10, then 2^64 − 3, then 5. The store's losses say 10 and then
 * 2 (the 3 counted twice paid back), adding up to the counter's 12, and no loss claims
 * billions of events. LTTng live showed such a counter under heavy loss. */
static void
test_ctf_discarded_counter_back (void)
{
  g_autofree char *dir = g_build_filename (tw_test_get_private_dir (), "counter-back-ctf", NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *s0 = g_build_filename (dir, "stream_0", NULL);
  g_autoptr(GByteArray) cpu0 = g_byte_array_new ();
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(TwLostEvents) lost = NULL;
  g_autoptr(GError) error = NULL;
  static const guint64 t0[] = { 1000, 1100 }, t1[] = { 1200, 1300 }, t2[] = { 1400, 1500 },
                       t3[] = { 1600, 1700 };
  const TwLoss *losses;
  guint64 total = 0;
  gsize n;

  if (!HAVE_BABELTRACE)
    {
      g_test_skip ("CTF support was not built (libbabeltrace2-dev missing)");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  put_packet (cpu0, 0, 0, 0, t0, 2, 1100);
  put_packet (cpu0, 1, 10, 0, t1, 2, 1300);
  put_packet (cpu0, 2, 7, 0, t2, 2, 1500);
  put_packet (cpu0, 3, 12, 0, t3, 2, 1700);
  g_assert_true (g_file_set_contents (metadata, ctf_metadata, -1, NULL));
  g_assert_true (g_file_set_contents (s0, (const char *) cpu0->data, cpu0->len, NULL));

  trace = tw_reader_registry_load_file (dir, "ctf", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  lost = tw_lost_events_new (trace);
  losses = tw_lost_events_get_losses (lost, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (losses[0].count, ==, 10);
  g_assert_cmpuint (losses[0].end, ==, 1300);
  g_assert_cmpuint (losses[1].count, ==, 2);
  g_assert_cmpuint (losses[1].end, ==, 1700);
  for (gsize i = 0; i < n; i++)
    total += losses[i].count;
  g_assert_cmpuint (total, ==, 12);
  g_assert_cmpuint (tw_trace_get_n_events (trace), ==, 8 + 2);
}

/* A CTF 2 metadata stream (a JSON text sequence): babeltrace2 before 2.1 cannot read it,
 * and the message says so with the version at hand. */
static void
test_ctf2_message (void)
{
  g_autofree char *dir = g_build_filename (tw_test_get_private_dir (), "ctf2", NULL);
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  g_autofree char *stream = g_build_filename (dir, "stream", NULL);
  static const char json[] =
    "\x1e{\"type\":\"preamble\",\"version\":2}\n"
    "\x1e{\"type\":\"trace-class\"}\n"
    "\x1e{\"type\":\"clock-class\",\"id\":\"c\",\"frequency\":1000000000}\n"
    "\x1e{\"type\":\"data-stream-class\",\"default-clock-class-id\":\"c\"}\n"
    "\x1e{\"type\":\"event-record-class\",\"name\":\"tick\"}\n";
  g_autoptr(TwTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = g_regex_new ("CTF 2 needs babeltrace2 ≥ 2\\.1; this system has "
                                         "([0-9]+)\\.([0-9]+)\\.[0-9]+$", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  if (!HAVE_BABELTRACE)
    {
      g_test_skip ("CTF support was not built (libbabeltrace2-dev missing)");
      return;
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (metadata, json, -1, NULL));
  g_assert_true (g_file_set_contents (stream, "", 0, NULL));

  trace = tw_reader_registry_load_file (dir, NULL, NULL, NULL, NULL, &error);
  if (trace != NULL)
    {
      g_test_skip ("this babeltrace2 reads CTF 2");
      return;
    }
  g_test_message ("%s", error->message);
  g_assert_error (error, TW_READER_ERROR, TW_READER_ERROR_UNSUPPORTED);
  g_assert_true (g_str_has_prefix (error->message, dir));
  g_assert_true (g_regex_match (regex, error->message, 0, &match));
  {
    const char *argv[] = { "babeltrace2", "--version", NULL };
    g_autofree char *out = tw_test_run_tool (argv, NULL);
    g_autofree char *major = g_match_info_fetch (match, 1);
    g_autofree char *minor = g_match_info_fetch (match, 2);
    g_autofree char *version = g_strdup_printf ("%s.%s.", major, minor);

    /* "Babeltrace 2.0.4 …": the library's version is the tool's */
    if (out != NULL)
      g_assert_nonnull (strstr (out, version));
  }
}

/* `info` counts the trace's events (what trace-cmd report counts), and beside them the
 * losses and repairs per CPU. */
static void
test_cli_info_losses (void)
{
  g_autofree char *path = dup_overrun_path ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *text = NULL;
  JsonObject *info, *lost, *cpu1;

  if (!HAVE_LIBTRACECMD || g_getenv ("TW_CLI") == NULL)
    {
      g_test_skip ("needs trace.dat support and $TW_CLI");
      return;
    }
  info = info_json (path, parser);
  g_assert_cmpint (json_object_get_int_member (info, "events"), ==, 2022);
  g_assert_false (json_object_has_member (json_object_get_object_member (info, "types"), "lost_events"));
  lost = json_object_get_object_member (info, "lost");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (lost, "total"), "events"), ==, 4141);
  cpu1 = json_object_get_object_member (json_object_get_object_member (lost, "cpus"), "1");
  g_assert_cmpint (json_object_get_int_member (cpu1, "reports"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (cpu1, "uncounted"), ==, 0);
  g_assert_false (json_object_has_member (json_object_get_object_member (lost, "cpus"), "0"));
  /* the overrun hid a switch of CPU 1: the model repaired it there */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (info, "repairs"), "total"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (
                     json_object_get_object_member (json_object_get_object_member (info, "repairs"), "cpus"),
                     "1"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (info, "truncated_events"), ==, 0);

  text = info_text (path);
  g_assert_nonnull (strstr (text, "\nevents         2022\n"));
  g_assert_nonnull (strstr (text, "\nlost           4141 events in 2 reports\n"
                                  "  cpu 1        4141 events in 2 reports\n"
                                  "repairs        1 "));
  g_assert_nonnull (strstr (text, "\n  cpu 1        1\n"));
  g_assert_null (strstr (text, "lost_events"));
}

/* Cut lines of an ftrace text: counted in `info`, each still an event. */
static void
test_cli_info_truncated (void)
{
  static const char text[] =
    "cpus=1\n"
    "  bash-100   [000] 10.000100: sched_switch: bash:100 [120] S ==> ls:\n"
    "  ls-200     [000] 10.000200: irq_handler_entry: irq=\n"
    "CPU:0 [EVENTS DROPPED]\n"
    "  ls-200     [000] 10.000300: irq_handler_exit: irq=19 ret=handled\n"
    "  bash-100   [000] 10.000400: foo: x=1 y";
  g_autofree char *path = tw_test_write_temp_file ("cut.txt", text, -1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *info, *total;

  if (g_getenv ("TW_CLI") == NULL)
    {
      g_test_skip ("needs $TW_CLI");
      return;
    }
  info = info_json (path, parser);
  g_assert_cmpint (json_object_get_int_member (info, "events"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (info, "truncated_events"), ==, 3);
  total = json_object_get_object_member (json_object_get_object_member (info, "lost"), "total");
  g_assert_cmpint (json_object_get_int_member (total, "reports"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (total, "uncounted"), ==, 1);

  out = info_text (path);
  g_assert_nonnull (strstr (out, "\ntruncated_events 3\n"));
  g_assert_nonnull (strstr (out, "first_truncated_line 2\n"));
  g_assert_nonnull (strstr (out, "\nlost           1 report without an event count\n"));
}

/* A trace of two targets: each loss and repair is said on the CPU of its host
 * ("beta/1"), not on the store's CPU number, which no target has. */
static void
test_cli_info_hosts (void)
{
  static const char text[] =
    "time_ns,cpu,host,task,event,next,count\n"
    "1000,1,alpha,alpha/5,switch,alpha/1,\n"
    "1000,1,beta,beta/5,switch,beta/1,\n"
    "1500,0,alpha,alpha/5,lost,,7\n"
    "2000,1,alpha,alpha/1,switch,alpha/5,\n"
    /* beta/1 runs on beta's CPU 1, but this switch names beta/2 as switched out */
    "2000,1,beta,beta/2,switch,beta/5,\n";
  g_autofree char *path = tw_test_write_temp_file ("hosts.csv", text, -1);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *info, *repairs, *lost_cpus;

  if (g_getenv ("TW_CLI") == NULL)
    {
      g_test_skip ("needs $TW_CLI");
      return;
    }
  info = info_json (path, parser);
  repairs = json_object_get_object_member (info, "repairs");
  g_assert_cmpint (json_object_get_int_member (repairs, "total"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (repairs, "cpus"), "beta/1"),
                   ==, 1);
  g_assert_cmpuint (json_object_get_size (json_object_get_object_member (repairs, "cpus")), ==, 1);
  lost_cpus = json_object_get_object_member (json_object_get_object_member (info, "lost"), "cpus");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (lost_cpus, "alpha/0"), "events"),
                   ==, 7);
  g_assert_cmpuint (json_object_get_size (lost_cpus), ==, 1);

  out = info_text (path);
  g_assert_nonnull (strstr (out, "\nlost           7 events in 1 report\n"
                                 "  cpu alpha/0  7 events in 1 report\n"));
  g_assert_nonnull (strstr (out, "\n  cpu beta/1   1\n"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/messy/trace-dat-overrun", test_trace_dat_overrun);
  g_test_add_func ("/tw/ingest/messy/trace-dat-overrun-as-text", test_trace_dat_overrun_as_text);
  g_test_add_func ("/tw/ingest/messy/trace-dat-codec", test_trace_dat_codec);
  g_test_add_func ("/tw/ingest/messy/csv-lost", test_csv_lost);
  g_test_add_func ("/tw/ingest/messy/ctf-discarded", test_ctf_discarded);
  g_test_add_func ("/tw/ingest/messy/ctf-discarded-counter-back", test_ctf_discarded_counter_back);
  g_test_add_func ("/tw/ingest/messy/ctf2-message", test_ctf2_message);
  g_test_add_func ("/tw/ingest/messy/cli-info-losses", test_cli_info_losses);
  g_test_add_func ("/tw/ingest/messy/cli-info-truncated", test_cli_info_truncated);
  g_test_add_func ("/tw/ingest/messy/cli-info-hosts", test_cli_info_hosts);

  return g_test_run ();
}
