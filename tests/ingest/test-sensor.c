/* test-sensor.c: sensor schemas, directory, writer, reader, hostile files, crashed writers
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <tw-sensor.h>
#include "tw-sensor-private.h"

#include "tw-jcs.h"
#include "tw-test-utils.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A fresh sensor directory for one test, removed with its files at the end. */
static char *
use_temp_sensor_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *parent = g_dir_make_tmp ("tw-sensor-XXXXXX", &error);
  char *dir;

  g_assert_no_error (error);
  dir = g_build_filename (parent, "sensors", NULL);
  g_free (parent);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  return dir;
}

static void
remove_sensor_dir (char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *parent = g_path_get_dirname (dir);
  const char *name;

  while (d && (name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_unlink (path);
    }
  g_rmdir (dir);
  g_rmdir (parent);
  g_free (dir);
}

static uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* ----- schemas ----------------------------------------------------------------------- */

static void
test_schema_layout (void)
{
  /* The layout must be the C compiler's for the matching struct. */
  struct example { uint64_t seq; uint32_t cpu; double value; char name[16]; };
  struct packed_small { uint8_t a; uint16_t b; uint8_t c; uint32_t d; };
  struct chars_first { char s[3]; uint64_t x; int16_t y[3]; };
  TwSensorSchema *schema;
  const TwSensorField *field;
  char error[256];

  schema = tw_sensor_schema_parse ("u64 seq; u32 cpu; f64 value; char name[16]", error, sizeof error);
  g_assert_nonnull (schema);
  g_assert_cmpuint (tw_sensor_schema_get_n_fields (schema), ==, 4);
  g_assert_cmpuint (tw_sensor_schema_get_size (schema), ==, sizeof (struct example));
  g_assert_cmpuint (tw_sensor_schema_get_alignment (schema), ==, _Alignof (struct example));
  g_assert_cmpint (tw_sensor_schema_find_field (schema, "value"), ==, 2);
  g_assert_cmpint (tw_sensor_schema_find_field (schema, "nope"), ==, -1);
  field = tw_sensor_schema_get_field (schema, 2);
  g_assert_cmpstr (field->name, ==, "value");
  g_assert_cmpint (field->type, ==, TW_SENSOR_FIELD_F64);
  g_assert_cmpuint (field->offset, ==, offsetof (struct example, value));
  field = tw_sensor_schema_get_field (schema, 3);
  g_assert_cmpuint (field->offset, ==, offsetof (struct example, name));
  g_assert_cmpuint (field->count, ==, 16);
  g_assert_cmpuint (field->size, ==, 16);
  g_assert_null (tw_sensor_schema_get_field (schema, 4));
  tw_sensor_schema_free (schema);

  schema = tw_sensor_schema_parse (" u8 a ;u16 b; u8 c;\tu32 d ; ", error, sizeof error);
  g_assert_nonnull (schema);
  g_assert_cmpuint (tw_sensor_schema_get_size (schema), ==, sizeof (struct packed_small));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 1)->offset, ==, offsetof (struct packed_small, b));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 2)->offset, ==, offsetof (struct packed_small, c));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 3)->offset, ==, offsetof (struct packed_small, d));
  tw_sensor_schema_free (schema);

  schema = tw_sensor_schema_parse ("char s[3]; u64 x; i16 y[ 3 ]", error, sizeof error);
  g_assert_nonnull (schema);
  g_assert_cmpuint (tw_sensor_schema_get_size (schema), ==, sizeof (struct chars_first));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 1)->offset, ==, offsetof (struct chars_first, x));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 2)->offset, ==, offsetof (struct chars_first, y));
  g_assert_cmpuint (tw_sensor_schema_get_field (schema, 2)->size, ==, 6);
  tw_sensor_schema_free (schema);

  schema = tw_sensor_schema_parse ("", error, sizeof error);
  g_assert_nonnull (schema);
  g_assert_cmpuint (tw_sensor_schema_get_n_fields (schema), ==, 0);
  g_assert_cmpuint (tw_sensor_schema_get_size (schema), ==, 0);
  tw_sensor_schema_free (schema);
}

static void
test_schema_invalid (void)
{
  static const struct { const char *text; const char *message; } cases[] = {
    { "u128 x", "unknown type \"u128\"" },
    { "u32", "expected a field name" },
    { "u32 1a", "expected a field name" },
    { "u32 a; u64 a", "duplicate field \"a\"" },
    { "u32 a[0]", "array length must be" },
    { "u32 a[", "expected an array length" },
    { "u32 a[4", "expected ']'" },
    { "u32 a b", "expected ';' after field \"a\"" },
    { "char x[70000]", "array length must be" },
    { "u64 x[8192]; u8 y", "elements larger than 65536 bytes" },
    { "f32 a_very_long_field_name_that_goes_past_31", "field name longer than 31" },
    { "; u8 a", "unknown type" },
  };
  char error[256];
  GString *many = g_string_new (NULL);
  g_autofree char *huge = g_strnfill (TW_SENSOR_SCHEMA_MAX + 10, ' ');

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      error[0] = '\0';
      errno = 0;
      g_assert_null (tw_sensor_schema_parse (cases[i].text, error, sizeof error));
      g_assert_cmpint (errno, ==, EINVAL);
      if (!strstr (error, cases[i].message))
        g_error ("schema \"%s\": message \"%s\" lacks \"%s\"", cases[i].text, error, cases[i].message);
    }
  for (int i = 0; i < TW_SENSOR_MAX_FIELDS + 1; i++)
    g_string_append_printf (many, "u8 f%d;", i);
  g_assert_null (tw_sensor_schema_parse (many->str, error, sizeof error));
  g_assert_nonnull (strstr (error, "more than 256 fields"));
  g_string_free (many, TRUE);
  g_assert_null (tw_sensor_schema_parse (huge, error, sizeof error));
  g_assert_nonnull (strstr (error, "schema longer than"));
  g_assert_null (tw_sensor_schema_parse (NULL, error, sizeof error));
}

static void
test_schema_format (void)
{
  struct { int32_t i; float f; double d; char name[8]; uint16_t v[3]; } payload = {
    -42, 0.5f, 1.0 / 3.0, { 'c', 'p', 'u', '\n', 0, 'x', 0, 0 }, { 1, 2, 65535 },
  };
  TwSensorSchema *schema = tw_sensor_schema_parse ("i32 i; f32 f; f64 d; char name[8]; u16 v[3]", NULL, 0);
  char text[64];

  g_assert_nonnull (schema);
  g_assert_cmpuint (tw_sensor_schema_get_size (schema), ==, sizeof payload);
  g_assert_cmpint (tw_sensor_field_format (tw_sensor_schema_get_field (schema, 0), &payload, text, sizeof text), ==, 3);
  g_assert_cmpstr (text, ==, "-42");
  tw_sensor_field_format (tw_sensor_schema_get_field (schema, 1), &payload, text, sizeof text);
  g_assert_cmpstr (text, ==, "0.5");
  tw_sensor_field_format (tw_sensor_schema_get_field (schema, 2), &payload, text, sizeof text);
  g_assert_cmpfloat (g_ascii_strtod (text, NULL), ==, 1.0 / 3.0);
  tw_sensor_field_format (tw_sensor_schema_get_field (schema, 3), &payload, text, sizeof text);
  g_assert_cmpstr (text, ==, "cpu\\x0a");
  tw_sensor_field_format (tw_sensor_schema_get_field (schema, 4), &payload, text, sizeof text);
  g_assert_cmpstr (text, ==, "1 2 65535");
  /* Too small: the needed length, and a prefix of the text. */
  g_assert_cmpint (tw_sensor_field_format (tw_sensor_schema_get_field (schema, 4), &payload, text, 6), ==, 9);
  g_assert_cmpstr (text, ==, "1 2 ");
  g_assert_cmpstr (tw_sensor_field_type_name (TW_SENSOR_FIELD_U16), ==, "u16");
  tw_sensor_schema_free (schema);
}

static void *map_writable (const char *path, size_t *size);

/* ----- the sensor directory ------------------------------------------------------------ */

static void
test_dir_permissions (void)
{
  char *dir = use_temp_sensor_dir ();
  char path[4096];
  g_autofree char *expected = NULL;
  TwSensor *sensor;
  struct stat st;

  g_assert_cmpint (tw_sensor_dir_get_path (path, sizeof path), ==, 0);
  g_assert_cmpstr (path, ==, dir);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  sensor = tw_sensor_new ("perm task", "s1", "u32 x", 8, 0);
  g_assert_nonnull (sensor);
  g_assert_cmpint (stat (dir, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0700);
  expected = g_build_filename (dir, "perm%20task@s1.tws", NULL);
  g_assert_cmpstr (tw_sensor_get_path (sensor), ==, expected);
  g_assert_cmpint (stat (expected, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 07777, ==, 0600);
  tw_sensor_free (sensor);
  /* The file outlives its writer for monitors, unless asked otherwise. */
  g_assert_true (g_file_test (expected, G_FILE_TEST_EXISTS));
  sensor = tw_sensor_new ("perm task", "s1", "u32 x", 8, TW_SENSOR_UNLINK_ON_FREE);
  g_assert_nonnull (sensor);
  tw_sensor_free (sensor);
  g_assert_false (g_file_test (expected, G_FILE_TEST_EXISTS));

  /* A directory of another user: refuse (root can hand one over to test this). */
  if (getuid () == 0)
    {
      g_autofree char *foreign = g_strconcat (dir, "-foreign", NULL);

      g_assert_cmpint (g_mkdir (foreign, 0700), ==, 0);
      g_assert_cmpint (chown (foreign, 12345, 12345), ==, 0);
      g_setenv ("TRACEWB_SENSOR_DIR", foreign, TRUE);
      errno = 0;
      g_assert_null (tw_sensor_new ("t", "s", "u8 x", 4, 0));
      g_assert_cmpint (errno, ==, EACCES);
      g_rmdir (foreign);
    }

  /* Not a directory: refuse. */
  g_unsetenv ("TRACEWB_SENSOR_DIR");
  g_assert_cmpint (tw_sensor_dir_get_path (path, sizeof path), ==, 0);
  g_assert_true (g_str_has_prefix (path, "/dev/shm/tracewb-"));
  g_setenv ("TRACEWB_SENSOR_DIR", "/dev/null", TRUE);
  errno = 0;
  g_assert_null (tw_sensor_new ("t", "s", "u8 x", 4, 0));
  g_assert_cmpint (errno, ==, ENOTDIR);
  g_setenv ("TRACEWB_SENSOR_DIR", dir, TRUE);
  remove_sensor_dir (dir);
}

static void
test_dir_names (void)
{
  char *dir = use_temp_sensor_dir ();
  char name[512];
  g_autofree char *long_name = g_strnfill (TW_SENSOR_NAME_MAX, 'a');
  g_autofree char *outside = NULL;
  g_autofree char *parent = g_path_get_dirname (dir);
  TwSensor *sensor;

  g_assert_cmpint (tw_sensor_file_name ("my app", "a/b", name, sizeof name), ==, 0);
  g_assert_cmpstr (name, ==, "my%20app@a%2Fb.tws");
  g_assert_cmpint (tw_sensor_file_name ("..", ".hidden", name, sizeof name), ==, 0);
  g_assert_cmpstr (name, ==, "%2E.@%2Ehidden.tws");
  g_assert_cmpint (tw_sensor_file_name ("a@b", "x%y", name, sizeof name), ==, 0);
  g_assert_cmpstr (name, ==, "a%40b@x%25y.tws");
  g_assert_cmpint (tw_sensor_file_name ("", "x", name, sizeof name), ==, -EINVAL);
  g_assert_cmpint (tw_sensor_file_name ("t", "bad\nname", name, sizeof name), ==, -EINVAL);
  g_assert_cmpint (tw_sensor_file_name (long_name, "x", name, sizeof name), ==, -EINVAL);
  g_assert_cmpint (tw_sensor_file_name ("t", "x", name, 4), ==, -ENAMETOOLONG);

  /* A hostile name stays inside the directory. */
  sensor = tw_sensor_new ("../..", "../escape", "u8 x", 4, 0);
  g_assert_nonnull (sensor);
  g_assert_true (g_str_has_prefix (tw_sensor_get_path (sensor), dir));
  g_assert_null (strchr (tw_sensor_get_path (sensor) + strlen (dir) + 1, '/'));
  outside = g_build_filename (parent, "escape", NULL);
  g_assert_false (g_file_test (outside, G_FILE_TEST_EXISTS));
  tw_sensor_free (sensor);

  errno = 0;
  g_assert_null (tw_sensor_new ("t", "s", "u8 x", 4, 1u << 7));
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_null (tw_sensor_new ("t", "s", "u7 x", 4, 0));
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_null (tw_sensor_new ("t", "s", "u8 x", 0, 0));
  g_assert_cmpint (errno, ==, EINVAL);
  g_assert_null (tw_sensor_new ("t", "s", "u8 x", TW_SENSOR_MAX_SLOTS, 0));
  g_assert_cmpint (errno, ==, E2BIG);
  remove_sensor_dir (dir);
}

static void
write_u64 (TwSensor *sensor, uint64_t value)
{
  uint64_t *element = tw_sensor_write (sensor);

  g_assert_nonnull (element);
  *element = value;
  tw_sensor_commit (sensor, element);
}

static void
test_dir_stale (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensorDirEntry *entries;
  TwSensorReader *reader;
  TwSensor *live, *again;
  size_t n, removed;
  pid_t child;
  int status;

  live = tw_sensor_new ("stale-test", "live", "u64 v", 16, 0);
  g_assert_nonnull (live);
  /* Same name while the writer lives: refused. */
  errno = 0;
  g_assert_null (tw_sensor_new ("stale-test", "live", "u64 v", 16, 0));
  g_assert_cmpint (errno, ==, EEXIST);

  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      TwSensor *sensor = tw_sensor_new ("stale-test", "dead", "u64 v", 16, 0);

      if (!sensor)
        _exit (2);
      for (uint64_t i = 0; i < 5; i++)
        {
          uint64_t *element = tw_sensor_write (sensor);
          *element = i;
          tw_sensor_commit (sensor, element);
        }
      _exit (0);   /* no tw_sensor_free: as if it crashed */
    }
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);

  g_assert_cmpint (tw_sensor_dir_list (&entries, &n), ==, 0);
  g_assert_cmpuint (n, ==, 2);
  /* Sorted by file name: "stale-test@dead.tws" < "stale-test@live.tws". */
  g_assert_true (entries[0].valid);
  g_assert_cmpstr (entries[0].sensor, ==, "dead");
  g_assert_cmpint (entries[0].pid, ==, child);
  g_assert_false (entries[0].alive);
  g_assert_cmpstr (entries[1].sensor, ==, "live");
  g_assert_cmpint (entries[1].pid, ==, getpid ());
  g_assert_true (entries[1].alive);
  free (entries);

  /* A writer that died inside tw_sensor_new left its temporary file; a live one's stays. */
  {
    g_autofree char *dead_tmp = g_strdup_printf ("%s/.stale-test@x.tws.%d.tmp", dir, (int) child);
    g_autofree char *live_tmp = g_strdup_printf ("%s/.stale-test@y.tws.%d.tmp", dir, (int) getpid ());

    g_assert_true (g_file_set_contents (dead_tmp, "", 0, NULL));
    g_assert_true (g_file_set_contents (live_tmp, "", 0, NULL));
    g_assert_cmpint (tw_sensor_dir_remove_stale (&removed), ==, 0);
    g_assert_cmpuint (removed, ==, 2);
    g_assert_false (g_file_test (dead_tmp, G_FILE_TEST_EXISTS));
    g_assert_true (g_file_test (live_tmp, G_FILE_TEST_EXISTS));
    g_unlink (live_tmp);
  }
  g_assert_cmpint (tw_sensor_dir_list (&entries, &n), ==, 0);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (entries[0].sensor, ==, "live");
  free (entries);

  /* After a clean free, the name may be taken again: a new file, which an attached
   * reader notices. */
  write_u64 (live, 1);
  reader = tw_sensor_reader_open (tw_sensor_get_path (live), NULL, 0);
  g_assert_nonnull (reader);
  g_assert_false (tw_sensor_reader_file_replaced (reader));
  tw_sensor_free (live);
  g_assert_false (tw_sensor_reader_file_replaced (reader));
  again = tw_sensor_new ("stale-test", "live", "u64 v", 16, 0);
  g_assert_nonnull (again);
  g_assert_cmpuint (tw_sensor_get_committed (again), ==, 0);
  g_assert_true (tw_sensor_reader_file_replaced (reader));
  tw_sensor_reader_free (reader);
  tw_sensor_free (again);
  remove_sensor_dir (dir);
}

/* ----- writer and reader --------------------------------------------------------------- */

static void
test_simple_read (void)
{
  char *dir = use_temp_sensor_dir ();
  struct payload { uint64_t seq; uint32_t cpu; double value; char name[16]; };
  TwSensor *sensor = tw_sensor_new ("reader-test", "basic", "u64 seq; u32 cpu; f64 value; char name[16]", 4, 0);
  TwSensorReader *reader;
  TwSensorReaderCounts counts;
  TwSensorElement element;
  TwSensorInfo info;
  uint64_t before, after, committed, last_ts = 0;
  char error[512], text[32];
  const TwSensorSchema *schema;

  g_assert_nonnull (sensor);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), error, sizeof error);
  g_assert_nonnull (reader);
  g_assert_cmpint (tw_sensor_reader_prepare (reader, &element), ==, TW_SENSOR_READ_EMPTY);

  before = monotonic_ns ();
  for (uint64_t i = 0; i < 10; i++)
    {
      struct payload *p = tw_sensor_write (sensor);

      p->seq = i;
      p->cpu = (uint32_t) (i % 3);
      p->value = (double) i / 4;
      snprintf (p->name, sizeof p->name, "el-%" G_GUINT64_FORMAT, i);
      tw_sensor_commit (sensor, p);
    }
  after = monotonic_ns ();
  g_assert_cmpuint (tw_sensor_get_committed (sensor), ==, 10);
  g_assert_cmpint (tw_sensor_reader_get_committed (reader, &committed), ==, 0);
  g_assert_cmpuint (committed, ==, 10);

  g_assert_cmpint (tw_sensor_reader_get_info (reader, &info), ==, 0);
  g_assert_cmpstr (info.task, ==, "reader-test");
  g_assert_cmpstr (info.sensor, ==, "basic");
  g_assert_cmpstr (info.schema_text, ==, "u64 seq; u32 cpu; f64 value; char name[16]");
  g_assert_cmpuint (info.payload_size, ==, sizeof (struct payload));
  g_assert_cmpuint (info.element_size, ==, 8 + sizeof (struct payload));
  g_assert_cmpuint (info.slots, ==, 5);   /* capacity + the writer's spare */
  g_assert_cmpint (info.pid, ==, getpid ());
  g_assert_false (info.writer_closed);
  g_assert_true (tw_sensor_reader_writer_alive (reader));
  g_assert_cmpuint (info.created_monotonic_ns, <=, before);
  g_assert_cmpuint (info.created_monotonic_ns + UINT64_C (10000000000), >, before);

  /* Capacity 4: positions 6..9 are left, 0..5 missed. */
  schema = tw_sensor_reader_get_schema (reader);
  tw_sensor_reader_seek_start (reader);
  for (uint64_t i = 6; i < 10; i++)
    {
      const struct payload *p;

      g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
      p = element.payload;
      g_assert_cmpuint (element.position, ==, i);
      g_assert_cmpuint (p->seq, ==, i);
      g_assert_cmpuint (p->cpu, ==, i % 3);
      g_assert_cmpfloat (p->value, ==, (double) i / 4);
      tw_sensor_field_format (tw_sensor_schema_get_field (schema, (size_t) tw_sensor_schema_find_field (schema, "name")),
                              element.payload, text, sizeof text);
      g_assert_cmpstr (text, ==, p->name);
      g_assert_cmpuint (element.timestamp_ns, >=, before - 100000);
      g_assert_cmpuint (element.timestamp_ns, <=, after + 100000);
      g_assert_cmpuint (element.timestamp_ns, >=, last_ts);
      g_assert_false (element.timestamp_backwards);
      last_ts = element.timestamp_ns;
    }
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_EMPTY);
  counts = tw_sensor_reader_get_counts (reader);
  g_assert_cmpuint (counts.received, ==, 4);
  g_assert_cmpuint (counts.missed, ==, 6);
  g_assert_cmpuint (counts.inconsistent, ==, 0);

  /* seek_end skips without counting. */
  write_u64 (sensor, 10);
  tw_sensor_reader_seek_end (reader);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_EMPTY);
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).missed, ==, 6);

  tw_sensor_free (sensor);
  g_assert_cmpint (tw_sensor_reader_get_info (reader, &info), ==, 0);
  g_assert_true (info.writer_closed);
  tw_sensor_reader_free (reader);
  remove_sensor_dir (dir);
}

/* A reader caught mid-copy by the writer must refuse the element. */
static void
check_overwritten_while_read (unsigned flags)
{
  char *dir = use_temp_sensor_dir ();
  TwSensorParams params = { .max_writers = 2 };
  TwSensor *sensor = tw_sensor_new_full ("reader-test", "overwrite", "u64 v", 6, flags, &params);
  TwSensorReader *reader;
  TwSensorElement element;
  TwSensorReaderCounts counts;
  TwSensorInfo info;

  g_assert_nonnull (sensor);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_get_info (reader, &info);
  g_assert_cmpuint (info.slots, ==, (flags & TW_SENSOR_CONCURRENT) ? 8 : 7);

  write_u64 (sensor, 100);
  write_u64 (sensor, 101);
  /* Opened before the writes, at the end of an empty stream: it sees both. */
  g_assert_cmpint (tw_sensor_reader_prepare (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (element.position, ==, 0);
  tw_sensor_reader_seek_start (reader);
  g_assert_cmpint (tw_sensor_reader_prepare (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (element.position, ==, 0);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 100);
  /* The writer laps the reader's element: the copy may be anything now. */
  for (uint64_t i = 0; i < 7; i++)
    write_u64 (sensor, 200 + i);
  g_assert_cmpint (tw_sensor_reader_commit (reader), ==, TW_SENSOR_READ_INCONSISTENT);
  counts = tw_sensor_reader_get_counts (reader);
  g_assert_cmpuint (counts.received, ==, 0);
  g_assert_cmpuint (counts.missed, ==, 1);
  g_assert_cmpuint (counts.inconsistent, ==, 1);
  g_assert_cmpint (tw_sensor_reader_commit (reader), ==, -EINVAL);

  /* 9 committed. Simple: the last slots - 1 = 6 are intact (positions 3..8, two more
   * missed). Concurrent: with no writer in flight all 8 elements are (positions 1..8). */
  while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
    g_assert_cmpuint (*(const uint64_t *) element.payload, ==,
                      element.position < 2 ? 100 + element.position : 200 + element.position - 2);
  counts = tw_sensor_reader_get_counts (reader);
  g_assert_cmpuint (counts.received + counts.missed, ==, 9);
  g_assert_cmpuint (counts.received, ==, (flags & TW_SENSOR_CONCURRENT) ? 8 : 6);
  g_assert_cmpuint (counts.inconsistent, ==, 1);

  /* An element the writer did not reach is delivered even after a long evaluation. */
  tw_sensor_reader_seek_end (reader);
  write_u64 (sensor, 300);
  g_assert_cmpint (tw_sensor_reader_prepare (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  for (uint64_t i = 0; i < 4; i++)
    write_u64 (sensor, 301 + i);
  g_assert_cmpint (tw_sensor_reader_commit (reader), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 300);

  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  remove_sensor_dir (dir);
}

static void
test_simple_overwritten (void)
{
  check_overwritten_while_read (0);
}

static void
test_concurrent_overwritten (void)
{
  check_overwritten_while_read (TW_SENSOR_CONCURRENT);
}

static void
test_concurrent_exhausted (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensorParams params = { .max_writers = 1 };
  TwSensor *sensor = tw_sensor_new_full ("reader-test", "exhausted", "u64 v", 1, TW_SENSOR_CONCURRENT, &params);
  TwSensorReader *reader;
  TwSensorElement element;
  TwSensorInfo info;
  uint64_t *a, *b;

  g_assert_nonnull (sensor);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  /* Two slots: two writers in flight take both elements; a third is refused, not made
   * to wait. */
  a = tw_sensor_write (sensor);
  b = tw_sensor_write (sensor);
  g_assert_nonnull (a);
  g_assert_nonnull (b);
  g_assert_true (a != b);
  errno = 0;
  g_assert_null (tw_sensor_write (sensor));
  g_assert_cmpint (errno, ==, EBUSY);
  *a = 1;
  *b = 2;
  tw_sensor_commit (sensor, b);
  tw_sensor_commit (sensor, a);
  tw_sensor_reader_get_info (reader, &info);
  g_assert_cmpuint (info.dropped, ==, 1);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 2);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 1);
  g_assert_cmpuint (element.position, ==, 1);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  remove_sensor_dir (dir);
}

static void
test_batch_read (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensor *sensor = tw_sensor_new ("reader-test", "batch", "u64 v; u32 w", 100, 0);
  TwSensorReader *reader = NULL;
  TwSensorInfo info;
  uint64_t buffer[3 * 64], first = 0, expected = 30;
  int n;

  g_assert_nonnull (sensor);
  for (uint64_t i = 0; i < 130; i++)
    write_u64 (sensor, i);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_get_info (reader, &info);
  g_assert_cmpuint (info.element_size, ==, 24);
  tw_sensor_reader_seek_start (reader);
  /* 130 committed into 100: 30 missed, then batches of 64 that wrap around the ring. */
  while ((n = tw_sensor_reader_read_batch (reader, buffer, 64, &first)) > 0)
    {
      g_assert_cmpuint (first, ==, expected);
      for (int i = 0; i < n; i++)
        g_assert_cmpuint (buffer[3 * i + 1], ==, expected + (uint64_t) i);
      expected += (uint64_t) n;
    }
  g_assert_cmpint (n, ==, 0);
  g_assert_cmpuint (expected, ==, 130);
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).received, ==, 100);
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).missed, ==, 30);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  remove_sensor_dir (dir);
}

static void
test_timestamps_follow_monotonic (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensor *sensor = tw_sensor_new ("clock-test", "ts", "u64 before", 4096, 0);
  TwSensorReader *reader;
  TwSensorElement element;
  uint64_t start = monotonic_ns (), last = 0, n = 0, worst = 0;

  g_assert_nonnull (sensor);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  /* 300 ms spans several re-anchors of the TSC map (every 50 ms). */
  while (monotonic_ns () - start < 300000000u)
    {
      uint64_t *p = tw_sensor_write (sensor);

      p[0] = monotonic_ns ();
      tw_sensor_commit (sensor, p);
      while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
        {
          const uint64_t *q = element.payload;

          /* Within 20 µs of CLOCK_MONOTONIC taken just before the commit. */
          g_assert_cmpuint (element.timestamp_ns + 20000, >=, q[0]);
          g_assert_cmpuint (element.timestamp_ns, <=, monotonic_ns () + 20000);
          g_assert_cmpuint (element.timestamp_ns, >=, last);
          worst = MAX (worst, element.timestamp_ns > q[0] ? element.timestamp_ns - q[0] : q[0] - element.timestamp_ns);
          last = element.timestamp_ns;
          n++;
        }
      g_usleep (20);
    }
  g_assert_cmpuint (n, >, 100);
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).nonmonotonic, ==, 0);

  /* After a long idle stretch the first commit re-anchors before stamping. */
  g_usleep (150000);
  {
    uint64_t *p = tw_sensor_write (sensor);
    uint64_t after;

    p[0] = monotonic_ns ();
    tw_sensor_commit (sensor, p);
    after = monotonic_ns ();
    g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
    g_assert_cmpuint (element.timestamp_ns + 20000, >=, p[0]);
    g_assert_cmpuint (element.timestamp_ns, <=, after + 20000);
    g_assert_cmpuint (element.timestamp_ns, >=, last);
  }
  g_test_message ("%" G_GUINT64_FORMAT " elements, largest |timestamp - CLOCK_MONOTONIC before commit| = %"
                  G_GUINT64_FORMAT " ns", n, worst);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  remove_sensor_dir (dir);
}

/* Reads @reader's next element: its stamp, and the sequence number written into it. */
static uint64_t
next_stamp (TwSensorReader *reader,
            uint64_t        expected_seq)
{
  TwSensorElement element;

  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (((const uint64_t *) element.payload)[0], ==, expected_seq);
  return element.timestamp_ns;
}

/* A job logs its start on one sensor and its end on another: the end's stamp is never
 * before the start's, even when the second sensor was created long after the first
 * (whose TSC map had been re-anchored and slewed since). */
static void
test_sensors_share_clock (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensor *start = tw_sensor_new ("clock-test", "start", "u64 seq", 1 << 16, 0);
  TwSensor *end;
  TwSensorReader *start_reader, *end_reader;
  uint64_t begin = monotonic_ns (), n = 0, last_end = 0;

  g_assert_nonnull (start);
  /* 120 ms: the first sensor's map is re-anchored twice before the second exists */
  while (monotonic_ns () - begin < 120000000u)
    tw_sensor_now_ns (start), g_usleep (100);
  end = tw_sensor_new ("clock-test", "end", "u64 seq", 1 << 16, 0);
  g_assert_nonnull (end);
  start_reader = tw_sensor_reader_open (tw_sensor_get_path (start), NULL, 0);
  end_reader = tw_sensor_reader_open (tw_sensor_get_path (end), NULL, 0);
  g_assert_nonnull (start_reader);
  g_assert_nonnull (end_reader);

  begin = monotonic_ns ();
  while (monotonic_ns () - begin < 100000000u)
    {
      uint64_t *p, s, e;

      p = tw_sensor_write (start);
      p[0] = n;
      tw_sensor_commit (start, p);
      p = tw_sensor_write (end);
      p[0] = n;
      tw_sensor_commit (end, p);
      s = next_stamp (start_reader, n);
      e = next_stamp (end_reader, n);
      g_assert_cmpuint (s, >=, last_end);
      g_assert_cmpuint (e, >=, s);
      last_end = e;
      n++;
      if (n % 64 == 0)
        g_usleep (50);
    }
  g_assert_cmpuint (n, >, 1000);
  tw_sensor_reader_free (start_reader);
  tw_sensor_reader_free (end_reader);
  tw_sensor_free (start);
  tw_sensor_free (end);
  remove_sensor_dir (dir);
}

/* A concurrent writer that died between inserting its element and advancing head (no
 * other writer left to help): the reader still delivers that element. */
static void
test_concurrent_inserted_not_published (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensorParams params = { .max_writers = 2 };
  TwSensor *sensor = tw_sensor_new_full ("reader-test", "half-commit", "u64 v", 6, TW_SENSOR_CONCURRENT, &params);
  TwSensorReader *reader;
  TwSensorElement element;
  TwSensorFileHeader *h;
  _Atomic uint64_t *index;
  uint64_t *payload, head, committed, element_index, now = monotonic_ns ();
  size_t size;

  g_assert_nonnull (sensor);
  write_u64 (sensor, 7);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_seek_start (reader);

  /* First half of a commit by hand: take an element, fill it, insert it, stop. */
  payload = tw_sensor_write (sensor);
  g_assert_nonnull (payload);
  *payload = 8;
  h = map_writable (tw_sensor_get_path (sensor), &size);
  index = (_Atomic uint64_t *) (void *) ((guint8 *) h + h->index_offset);
  head = atomic_load (&h->head);
  /* Until commit, the timestamp word holds the element's index (tw-sensor.c). */
  element_index = payload[-1];
  g_assert_cmpuint (element_index, <, 8);
  memcpy (payload - 1, &now, sizeof now);
  atomic_store (&index[head & 7], (head << TW_SENSOR_INDEX_BITS) | element_index);

  g_assert_cmpint (tw_sensor_reader_get_committed (reader, &committed), ==, 0);
  g_assert_cmpuint (committed, ==, 2);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 7);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 8);
  g_assert_cmpuint (element.position, ==, 1);
  g_assert_cmpuint (element.timestamp_ns, ==, now);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_EMPTY);

  /* The next writer helps head along and goes after it. */
  write_u64 (sensor, 9);
  g_assert_cmpuint (atomic_load (&h->head), ==, head + 2);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
  g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 9);
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).missed, ==, 0);
  munmap (h, size);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  remove_sensor_dir (dir);
}

/* ----- stream parameters (Riegel 2005 §4.2) ------------------------------------------------ */

/* Elements the densest (T, D, τ) stream produces before time @t, by walking it: element
 * e comes D after e−1 but not before e·T − τ. */
static uint64_t
dense_stream_count_before (double T, double D, double tau, double t)
{
  double at = 0;
  uint64_t e = 0;

  while (at < t)
    {
      e++;
      at = MAX (at + D, (double) e * T - tau);
    }
  return e;
}

static void
test_jcs_buffer_size (void)
{
  static const double streams[][5] = {
    /* T, D, τ, T_M, d */
    { 3, 2, 3, 5, 4 },          /* Riegel 2005 Fig. 11 */
    { 10, 10, 0, 100, 100 },
    { 10, 1, 100, 5, 5 },       /* still in the burst at l_min */
    { 1000, 100, 5000, 2500, 1700 },
    { 1e6, 0, 3.3e6, 1e9, 1e9 },
    { 7, 3, 40, 50, 25 },
  };
  char *dir = use_temp_sensor_dir ();
  TwSensorParams params = { 0 };
  TwSensorReader *reader;
  TwSensorInfo info;
  TwSensor *sensor;

  for (guint i = 0; i < G_N_ELEMENTS (streams); i++)
    {
      const double *s = streams[i];
      TwSensorParams p = { s[0], s[1], s[2], s[3], s[4], 0 };

      g_assert_cmpuint (tw_sensor_jcs_buffer_size (&p), ==, dense_stream_count_before (s[0], s[1], s[2], s[3] + s[4]));
    }
  params = (TwSensorParams) { 3, 2, 3, 5, 4, 0 };
  g_assert_cmpuint (tw_sensor_jcs_buffer_size (&params), ==, 4);

  errno = 0;
  params = (TwSensorParams) { 3, 4, 3, 5, 4, 0 };   /* D > T */
  g_assert_cmpuint (tw_sensor_jcs_buffer_size (&params), ==, 0);
  g_assert_cmpint (errno, ==, EINVAL);
  params = (TwSensorParams) { 3, 2, 3, 5, 6, 0 };   /* d > T_M */
  g_assert_cmpuint (tw_sensor_jcs_buffer_size (&params), ==, 0);
  params = (TwSensorParams) { NAN, 2, 3, 5, 4, 0 };
  g_assert_cmpuint (tw_sensor_jcs_buffer_size (&params), ==, 0);
  params = (TwSensorParams) { 1, 0, 0, 1e12, 1e12, 0 };
  errno = 0;
  g_assert_cmpuint (tw_sensor_jcs_buffer_size (&params), ==, 0);
  g_assert_cmpint (errno, ==, E2BIG);

  /* capacity 0 sizes the buffer from the stream; the header keeps the parameters. */
  params = (TwSensorParams) { 3000, 2000, 3000, 5000, 4000, 0 };
  sensor = tw_sensor_new_full ("jcs", "sized", "u32 x", 0, 0, &params);
  g_assert_nonnull (sensor);
  g_assert_cmpuint (tw_sensor_get_capacity (sensor), ==, 4);
  reader = tw_sensor_reader_open (tw_sensor_get_path (sensor), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_get_info (reader, &info);
  g_assert_cmpuint (info.slots, ==, 5);
  g_assert_cmpfloat (info.params.period_ns, ==, 3000);
  g_assert_cmpfloat (info.params.min_distance_ns, ==, 2000);
  g_assert_cmpfloat (info.params.earliness_ns, ==, 3000);
  g_assert_cmpfloat (info.params.monitor_period_ns, ==, 5000);
  g_assert_cmpfloat (info.params.deadline_ns, ==, 4000);
  tw_sensor_reader_free (reader);
  tw_sensor_free (sensor);
  /* Too dense to size automatically, but accepted with an explicit capacity. */
  params = (TwSensorParams) { 1, 0, 0, 1e12, 1e12, 0 };
  g_assert_null (tw_sensor_new_full ("jcs", "dense", "u32 x", 0, 0, &params));
  g_assert_cmpint (errno, ==, E2BIG);
  sensor = tw_sensor_new_full ("jcs", "dense", "u32 x", 64, TW_SENSOR_UNLINK_ON_FREE, &params);
  g_assert_nonnull (sensor);
  tw_sensor_free (sensor);
  params.period_ns = -1;
  errno = 0;
  g_assert_null (tw_sensor_new_full ("jcs", "bad", "u32 x", 16, 0, &params));
  g_assert_cmpint (errno, ==, EINVAL);
  remove_sensor_dir (dir);
}

/* The library's local bound must agree with the evaluators' JCS functions (integer
 * nanoseconds, independent code): B(l_min) = E(T_M + d) over a sweep of small streams. */
static void
test_jcs_matches_evaluators (void)
{
  guint checked = 0;

  for (gint64 T = 1; T <= 9; T++)
    for (gint64 D = 0; D <= T; D++)
      for (gint64 tau = 0; tau <= 14; tau++)
        for (gint64 TM = 1; TM <= 11; TM++)
          for (gint64 d = 1; d <= TM; d++)
            {
              TwJcsStream stream = { T, D, tau };
              TwJcsMonitor monitor = { TM, d };
              TwSensorParams params = { (double) T, (double) D, (double) tau, (double) TM, (double) d, 0 };
              TwJcs jcs;
              guint64 expected;

              g_assert_true (tw_jcs_init (&jcs, &stream, &monitor, NULL));
              expected = tw_jcs_buffer_size (&jcs, jcs.l_min);
              if (tw_sensor_jcs_buffer_size (&params) != expected)
                g_error ("T=%" G_GINT64_FORMAT " D=%" G_GINT64_FORMAT " tau=%" G_GINT64_FORMAT " T_M=%" G_GINT64_FORMAT
                         " d=%" G_GINT64_FORMAT ": sensor lib %zu, evaluators %" G_GUINT64_FORMAT,
                         T, D, tau, TM, d, tw_sensor_jcs_buffer_size (&params), expected);
              checked++;
            }
  g_assert_cmpuint (checked, >, 30000);
}

/* ----- a writer killed mid-stream -------------------------------------------------------- */

static uint64_t
checksum3 (uint64_t a, uint64_t b, uint64_t c)
{
  uint64_t h = a * UINT64_C (0x9E3779B97F4A7C15);

  h ^= b + UINT64_C (0x632BE59BD9B4E019) + (h << 6) + (h >> 2);
  h ^= c + UINT64_C (0x8CB92BA72F3D8DD7) + (h << 6) + (h >> 2);
  return h;
}

static void
test_killed_writer (void)
{
  char *dir = use_temp_sensor_dir ();
  g_autofree char *path = NULL;
  TwSensorReader *reader = NULL;
  TwSensorElement element;
  TwSensorReaderCounts counts;
  uint64_t committed = 0, last_seq = 0, received = 0;
  int fds[2], status;
  char ready;
  pid_t child;

  g_assert_cmpint (pipe (fds), ==, 0);
  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      TwSensor *sensor = tw_sensor_new ("crash-test", "victim", "u64 seq; u64 a; u64 check", 100, 0);

      close (fds[0]);
      if (!sensor || write (fds[1], "r", 1) != 1)
        _exit (2);
      for (uint64_t i = 0;; i++)
        {
          uint64_t *p = tw_sensor_write (sensor);

          p[0] = i;
          p[1] = i * 7;
          p[2] = checksum3 (i, i * 7, 0);
          tw_sensor_commit (sensor, p);
        }
    }
  close (fds[1]);
  g_assert_cmpint (read (fds[0], &ready, 1), ==, 1);
  close (fds[0]);

  path = g_build_filename (dir, "crash-test@victim.tws", NULL);
  reader = tw_sensor_reader_open (path, NULL, 0);
  g_assert_nonnull (reader);
  for (int i = 0; i < 5000 && committed < 20000; i++)
    {
      g_assert_cmpint (tw_sensor_reader_get_committed (reader, &committed), ==, 0);
      g_usleep (1000);
    }
  g_assert_cmpuint (committed, >=, 20000);
  kill (child, SIGKILL);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFSIGNALED (status));
  g_assert_false (tw_sensor_reader_writer_alive (reader));

  /* What it left: the last 100 elements, intact, ending with the last committed one. */
  g_assert_cmpint (tw_sensor_reader_get_committed (reader, &committed), ==, 0);
  tw_sensor_reader_seek_start (reader);
  while (tw_sensor_reader_next (reader, &element) == TW_SENSOR_READ_ELEMENT)
    {
      const uint64_t *p = element.payload;

      g_assert_cmpuint (p[0], ==, element.position);
      g_assert_cmpuint (p[2], ==, checksum3 (p[0], p[1], 0));
      last_seq = p[0];
      received++;
    }
  counts = tw_sensor_reader_get_counts (reader);
  g_assert_cmpuint (received, ==, 100);
  g_assert_cmpuint (counts.received, ==, 100);
  g_assert_cmpuint (counts.missed, ==, committed - 100);
  g_assert_cmpuint (last_seq, ==, committed - 1);
  tw_sensor_reader_free (reader);
  remove_sensor_dir (dir);
}

/* ----- hostile files -------------------------------------------------------------------- */

typedef void (*Mutator) (guint8 *bytes, gsize *length);

static TwSensorFileHeader *
hdr (guint8 *bytes)
{
  return (TwSensorFileHeader *) (void *) bytes;
}

static void mut_magic (guint8 *b, gsize *n) { (void) n; b[0] = 'X'; }
static void mut_version (guint8 *b, gsize *n) { (void) n; hdr (b)->version = 99; }
static void mut_truncated_header (guint8 *b, gsize *n) { (void) b; *n = 100; }
static void mut_empty (guint8 *b, gsize *n) { (void) b; *n = 0; }
static void mut_truncated_elements (guint8 *b, gsize *n) { (void) b; *n -= 64; }
static void mut_slots_beyond_file (guint8 *b, gsize *n) { (void) n; hdr (b)->slots = 1u << 20; }
static void mut_slots_huge (guint8 *b, gsize *n) { (void) n; hdr (b)->slots = UINT64_C (1) << 40; }
static void mut_elements_overflow (guint8 *b, gsize *n) { (void) n; hdr (b)->elements_offset = UINT64_MAX - 8; }
static void mut_file_size (guint8 *b, gsize *n) { (void) n; hdr (b)->file_size *= 2; }
static void mut_schema_huge (guint8 *b, gsize *n) { (void) n; hdr (b)->schema_size = UINT64_C (1) << 62; }
static void mut_schema_offset (guint8 *b, gsize *n) { (void) n; hdr (b)->schema_offset = UINT64_MAX - 2; }
static void mut_element_size (guint8 *b, gsize *n) { (void) n; hdr (b)->element_size = 7; }
static void mut_flags (guint8 *b, gsize *n) { (void) n; hdr (b)->flags = 0x80; }
static void mut_task_unterminated (guint8 *b, gsize *n) { (void) n; memset (hdr (b)->task, 'A', TW_SENSOR_NAME_MAX); }
static void mut_sensor_empty (guint8 *b, gsize *n) { (void) n; hdr (b)->sensor[0] = '\0'; }
static void mut_params_nan (guint8 *b, gsize *n) { (void) n; hdr (b)->earliness_ns = NAN; }
static void mut_first_position (guint8 *b, gsize *n) { (void) n; hdr (b)->first_position = 5; }
static void mut_concurrent_flag (guint8 *b, gsize *n) { (void) n; hdr (b)->flags = TW_SENSOR_CONCURRENT; }

static void
mut_schema_unterminated (guint8 *b, gsize *n)
{
  TwSensorFileHeader *h = hdr (b);

  (void) n;
  b[h->schema_offset + h->schema_size - 1] = 'x';
}

static void
mut_schema_embedded_nul (guint8 *b, gsize *n)
{
  (void) n;
  b[hdr (b)->schema_offset + 2] = '\0';
}

static void
mut_schema_unparsable (guint8 *b, gsize *n)
{
  (void) n;
  memcpy (b + hdr (b)->schema_offset, "u99", 3);
}

static void
mut_schema_other_size (guint8 *b, gsize *n)
{
  (void) n;
  memcpy (b + hdr (b)->schema_offset, "u32 seq; u32 v", 15);
  hdr (b)->schema_size = 15;
}

static void
test_hostile_headers (void)
{
  static const struct { const char *name; Mutator mutate; int error; const char *message; } cases[] = {
    { "magic", mut_magic, EBADMSG, "bad magic" },
    { "version", mut_version, EPROTONOSUPPORT, "format version 99" },
    { "truncated-header", mut_truncated_header, EBADMSG, "truncated: 100 bytes" },
    { "empty", mut_empty, EBADMSG, "truncated: 0 bytes" },
    { "truncated-elements", mut_truncated_elements, EBADMSG, "(truncated)" },
    { "slots-beyond-file", mut_slots_beyond_file, EBADMSG, "do not fit" },
    { "slots-huge", mut_slots_huge, EBADMSG, "slots (must be 2.." },
    { "elements-overflow", mut_elements_overflow, EBADMSG, "do not fit" },
    { "file-size", mut_file_size, EBADMSG, "(truncated)" },
    { "schema-huge", mut_schema_huge, EBADMSG, "schema at" },
    { "schema-offset", mut_schema_offset, EBADMSG, "schema at" },
    { "schema-unterminated", mut_schema_unterminated, EBADMSG, "not one NUL-terminated string" },
    { "schema-embedded-nul", mut_schema_embedded_nul, EBADMSG, "not one NUL-terminated string" },
    { "schema-unparsable", mut_schema_unparsable, EBADMSG, "schema: column 0: unknown type \"u99\"" },
    { "schema-other-size", mut_schema_other_size, EBADMSG, "does not match the schema" },
    { "element-size", mut_element_size, EBADMSG, "element size 7" },
    { "flags", mut_flags, EBADMSG, "unknown flags 0x80" },
    { "task-unterminated", mut_task_unterminated, EBADMSG, "task or sensor name" },
    { "sensor-empty", mut_sensor_empty, EBADMSG, "task or sensor name" },
    { "params-nan", mut_params_nan, EBADMSG, "not finite" },
    { "first-position", mut_first_position, EBADMSG, "first position 5" },
    { "concurrent-flag", mut_concurrent_flag, EBADMSG, "17 slots (must be 2..16777216, a power of two)" },
  };
  char *dir = use_temp_sensor_dir ();
  TwSensor *sensor = tw_sensor_new ("hostile", "template", "u64 seq; u64 v", 16, 0);
  g_autofree guint8 *original = NULL;
  gsize original_length;

  g_assert_nonnull (sensor);
  for (uint64_t i = 0; i < 20; i++)
    write_u64 (sensor, i);
  g_assert_true (g_file_get_contents (tw_sensor_get_path (sensor), (char **) &original, &original_length, NULL));
  tw_sensor_free (sensor);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree guint8 *bytes = g_memdup2 (original, original_length);
      g_autofree char *path = g_build_filename (dir, cases[i].name, NULL);
      gsize length = original_length;
      char error[512] = "";

      cases[i].mutate (bytes, &length);
      g_assert_true (g_file_set_contents (path, (const char *) bytes, (gssize) length, NULL));
      errno = 0;
      if (tw_sensor_reader_open (path, error, sizeof error) != NULL)
        g_error ("%s: a hostile file was accepted", cases[i].name);
      g_assert_cmpint (errno, ==, cases[i].error);
      if (!strstr (error, cases[i].message) || !strstr (error, path))
        g_error ("%s: message \"%s\" lacks \"%s\" or the path", cases[i].name, error, cases[i].message);
    }

  /* The listing reports the bad files and removes none of them. */
  {
    TwSensorDirEntry *entries;
    size_t n, removed;

    g_assert_cmpint (tw_sensor_dir_list (&entries, &n), ==, 0);
    g_assert_cmpuint (n, ==, 1);   /* only "hostile@template.tws" has the suffix */
    g_assert_true (entries[0].valid);
    free (entries);
    g_assert_cmpint (tw_sensor_dir_remove_stale (&removed), ==, 0);
    g_assert_cmpuint (removed, ==, 0);   /* ours: pid alive */
  }
  g_assert_null (tw_sensor_reader_open ("/nonexistent/x.tws", NULL, 0));
  g_assert_cmpint (errno, ==, ENOENT);
  g_assert_null (tw_sensor_reader_open (dir, NULL, 0));
  g_assert_cmpint (errno, ==, EINVAL);
  remove_sensor_dir (dir);
}

/* A live file whose counters a broken writer corrupts after the reader opened it. */
static void *
map_writable (const char *path, size_t *size)
{
  struct stat st;
  int fd = open (path, O_RDWR);
  void *map;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  map = mmap (NULL, (size_t) st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close (fd);
  g_assert_true (map != MAP_FAILED);
  *size = (size_t) st.st_size;
  return map;
}

static void
test_hostile_counters (void)
{
  char *dir = use_temp_sensor_dir ();
  TwSensorParams params = { .max_writers = 2 };
  TwSensor *simple = tw_sensor_new ("hostile", "simple", "u64 v", 16, 0);
  TwSensor *concurrent = tw_sensor_new_full ("hostile", "concurrent", "u64 v", 6, TW_SENSOR_CONCURRENT, &params);
  TwSensorReader *reader;
  TwSensorElement element;
  TwSensorFileHeader *h;
  size_t size;
  uint64_t ts;

  g_assert_nonnull (simple);
  g_assert_nonnull (concurrent);
  for (uint64_t i = 0; i < 10; i++)
    {
      write_u64 (simple, i);
      write_u64 (concurrent, i);
    }

  /* Counter running backwards. */
  reader = tw_sensor_reader_open (tw_sensor_get_path (simple), NULL, 0);
  g_assert_nonnull (reader);
  h = map_writable (tw_sensor_get_path (simple), &size);
  atomic_store (&h->head, 3);
  g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, -EPROTO);
  g_assert_nonnull (strstr (tw_sensor_reader_get_error (reader), "element counter ran backwards from 10 to 3"));
  atomic_store (&h->head, 10);

  /* A timestamp earlier than its predecessor is delivered, flagged and counted. */
  tw_sensor_reader_seek_start (reader);
  memcpy (&ts, (guint8 *) h + h->elements_offset + 16 * 1, sizeof ts);
  ts -= 1000;
  memcpy ((guint8 *) h + h->elements_offset + 16 * 2, &ts, sizeof ts);
  for (int i = 0; i < 3; i++)
    {
      g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
      g_assert_cmpint (element.timestamp_backwards, ==, i == 2);
    }
  g_assert_cmpuint (tw_sensor_reader_get_counts (reader).nonmonotonic, ==, 1);
  munmap (h, size);
  tw_sensor_reader_free (reader);

  /* Concurrent: reuse position ahead of the counter; index entry out of range. */
  reader = tw_sensor_reader_open (tw_sensor_get_path (concurrent), NULL, 0);
  g_assert_nonnull (reader);
  tw_sensor_reader_seek_start (reader);
  h = map_writable (tw_sensor_get_path (concurrent), &size);
  {
    _Atomic uint64_t *index = (_Atomic uint64_t *) (void *) ((guint8 *) h + h->index_offset);
    uint64_t head = atomic_load (&h->head), tail = atomic_load (&h->tail);
    uint64_t p = tail, saved = atomic_load (&index[p & 7]);

    g_assert_cmpuint (head, ==, 8 + 10);
    g_assert_cmpuint (tail, ==, 10);
    atomic_store (&h->tail, head + 5);
    g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, -EPROTO);
    g_assert_nonnull (strstr (tw_sensor_reader_get_error (reader), "ahead of the element counter"));
    atomic_store (&h->tail, tail);

    atomic_store (&index[p & 7], (saved & ~TW_SENSOR_INDEX_MASK) | 4000);
    g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, -EPROTO);
    g_assert_nonnull (strstr (tw_sensor_reader_get_error (reader), "points to element 4000 of 8"));
    atomic_store (&index[p & 7], saved + (UINT64_C (3) << TW_SENSOR_INDEX_BITS));
    g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, -EPROTO);
    g_assert_nonnull (strstr (tw_sensor_reader_get_error (reader), "holds another position"));
    atomic_store (&index[p & 7], saved);
    g_assert_cmpint (tw_sensor_reader_next (reader, &element), ==, TW_SENSOR_READ_ELEMENT);
    g_assert_cmpuint (*(const uint64_t *) element.payload, ==, 2);
  }
  munmap (h, size);
  tw_sensor_reader_free (reader);
  tw_sensor_free (simple);
  tw_sensor_free (concurrent);
  remove_sensor_dir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/tw/ingest/sensor/schema/layout", test_schema_layout);
  g_test_add_func ("/tw/ingest/sensor/schema/invalid", test_schema_invalid);
  g_test_add_func ("/tw/ingest/sensor/schema/format", test_schema_format);
  g_test_add_func ("/tw/ingest/sensor/dir/permissions", test_dir_permissions);
  g_test_add_func ("/tw/ingest/sensor/dir/names", test_dir_names);
  g_test_add_func ("/tw/ingest/sensor/dir/stale", test_dir_stale);
  g_test_add_func ("/tw/ingest/sensor/read/simple", test_simple_read);
  g_test_add_func ("/tw/ingest/sensor/read/simple-overwritten", test_simple_overwritten);
  g_test_add_func ("/tw/ingest/sensor/read/concurrent-overwritten", test_concurrent_overwritten);
  g_test_add_func ("/tw/ingest/sensor/read/concurrent-exhausted", test_concurrent_exhausted);
  g_test_add_func ("/tw/ingest/sensor/read/batch", test_batch_read);
  g_test_add_func ("/tw/ingest/sensor/read/concurrent-half-commit", test_concurrent_inserted_not_published);
  g_test_add_func ("/tw/ingest/sensor/clock/monotonic", test_timestamps_follow_monotonic);
  g_test_add_func ("/tw/ingest/sensor/clock/shared", test_sensors_share_clock);
  g_test_add_func ("/tw/ingest/sensor/jcs/buffer-size", test_jcs_buffer_size);
  g_test_add_func ("/tw/ingest/sensor/jcs/matches-evaluators", test_jcs_matches_evaluators);
  g_test_add_func ("/tw/ingest/sensor/crash/killed-writer", test_killed_writer);
  g_test_add_func ("/tw/ingest/sensor/hostile/headers", test_hostile_headers);
  g_test_add_func ("/tw/ingest/sensor/hostile/counters", test_hostile_counters);

  return g_test_run ();
}
