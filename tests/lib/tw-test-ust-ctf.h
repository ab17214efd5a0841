/* tw-test-ust-ctf.h: a target monitor's `tracewb:*` events written by hand as a CTF trace
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What an LTTng session folder of a target's monitor holds, without LTTng: one stream
 * file of one packet and its metadata, in either byte order, read back by babeltrace2.
 * The events' fields are those of app/cli/tw-ust-tp.h; the schema event carries the
 * declared stream (`jcs_*`) only when tw_test_ctf_declare_jcs() added it to the
 * metadata, as monitors before the fields did not.
 */
#pragma once

#include <glib.h>
#include <string.h>

#define TW_TEST_CTF_SCHEMA   0
#define TW_TEST_CTF_ELEMENT  1
#define TW_TEST_CTF_COUNTS   2

static const char tw_test_ctf_metadata[] =
  "/* CTF 1.8 */\n"
  "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
  "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
  "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
  "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
  "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
  "trace {\n"
  "  major = 1; minor = 8; byte_order = %s;\n"
  "  packet.header := struct { uint32_t magic; uint32_t stream_id; };\n"
  "};\n"
  "clock { name = \"monotonic\"; freq = 1000000000; offset = 0; };\n"
  "typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } := clock_t;\n"
  "stream {\n"
  "  id = 0;\n"
  "  event.header := struct { uint32_t id; clock_t timestamp; };\n"
  "  packet.context := struct { uint64_t content_size; uint64_t packet_size; };\n"
  "};\n"
  "event { name = \"tracewb:sensor_schema\"; id = 0; stream_id = 0; fields := struct {\n"
  "  uint32_t monitor; uint32_t sensor; int64_t pid; string task; string sensor_name; string schema;\n"
  "  uint32_t element_size; uint32_t payload_size; uint8_t big_endian; }; };\n"
  "event { name = \"tracewb:sensor_element\"; id = 1; stream_id = 0; fields := struct {\n"
  "  uint32_t monitor; uint32_t sensor; uint64_t position; uint64_t missed; uint64_t timestamp;\n"
  "  uint16_t payload_length; uint8_t payload[payload_length]; }; };\n"
  "event { name = \"tracewb:sensor_counts\"; id = 2; stream_id = 0; fields := struct {\n"
  "  uint32_t monitor; uint32_t sensor; uint64_t received; uint64_t missed; uint64_t inconsistent;\n"
  "  uint64_t nonmonotonic; }; };\n";

typedef struct {
  gboolean  big;
  GString  *out;
} TwTestCtf;

static inline void
tw_test_ctf_int (TwTestCtf *w,
                 guint64    v,
                 guint      size)
{
  for (guint i = 0; i < size; i++)
    {
      guint shift = 8 * (w->big ? size - 1 - i : i);

      g_string_append_c (w->out, (char) ((v >> shift) & 0xff));
    }
}

static inline void
tw_test_ctf_str (TwTestCtf  *w,
                 const char *s)
{
  g_string_append_len (w->out, s, (gssize) strlen (s) + 1);
}

static inline void
tw_test_ctf_double (TwTestCtf *w,
                    double     v)
{
  guint64 bits;

  memcpy (&bits, &v, 8);
  tw_test_ctf_int (w, bits, 8);
}

/* A packet's header; returns where its sizes go (known at the end). */
static inline gsize
tw_test_ctf_begin_packet (TwTestCtf *w)
{
  gsize size_at;

  tw_test_ctf_int (w, 0xC1FC1FC1, 4);
  tw_test_ctf_int (w, 0, 4);
  size_at = w->out->len;
  tw_test_ctf_int (w, 0, 8);
  tw_test_ctf_int (w, 0, 8);
  return size_at;
}

/* The schema event's fields with the declared stream after the older ones. */
static inline void
tw_test_ctf_declare_jcs (GString *metadata)
{
  g_assert_cmpuint (g_string_replace (metadata, "uint8_t big_endian; }; };",
                                      "uint8_t big_endian; double jcs_period_ns; double jcs_min_distance_ns;\n"
                                      "  double jcs_earliness_ns; double jcs_monitor_period_ns; double jcs_deadline_ns; }; };",
                                      1), ==, 1);
  g_string_replace (metadata, "trace {",
                    "typealias floating_point { exp_dig = 11; mant_dig = 53; align = 8; } := double;\ntrace {", 1);
}

/* Closes the packet begun at @size_at and writes the trace into @dir, its metadata
 * with the declared streams when @jcs, ending with @more. */
static inline void
tw_test_ctf_save_to (TwTestCtf  *w,
                     gsize       size_at,
                     const char *dir,
                     gboolean    jcs,
                     const char *more)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) metadata = g_string_new (NULL);
  g_autofree char *meta_path = NULL, *stream_path = NULL;
  TwTestCtf sizes = { w->big, g_string_new (NULL) };

  g_string_printf (metadata, tw_test_ctf_metadata, w->big ? "be" : "le");
  if (jcs)
    tw_test_ctf_declare_jcs (metadata);
  g_string_append (metadata, more);
  tw_test_ctf_int (&sizes, (guint64) w->out->len * 8, 8);
  tw_test_ctf_int (&sizes, (guint64) w->out->len * 8, 8);
  memcpy (w->out->str + size_at, sizes.out->str, 16);
  g_string_free (sizes.out, TRUE);
  meta_path = g_build_filename (dir, "metadata", NULL);
  stream_path = g_build_filename (dir, "stream_0", NULL);
  g_assert_true (g_file_set_contents (meta_path, metadata->str, (gssize) metadata->len, &error));
  g_assert_true (g_file_set_contents (stream_path, w->out->str, (gssize) w->out->len, &error));
  g_assert_no_error (error);
}
