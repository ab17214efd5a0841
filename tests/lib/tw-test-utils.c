/* tw-test-utils.c: what every test program shares
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-test-utils.h"

/**
 * tw_test_dup_fixture_path:
 *
 * Returns: (transfer full): the path of a file under tests/fixtures/
 */
char *
tw_test_dup_fixture_path (const char *name)
{
  return g_build_filename (TW_SOURCE_DIR, "tests", "fixtures", name, NULL);
}

/**
 * tw_test_dup_shared_trace_path:
 * @relative: a path below shared/traces/
 *
 * Real traces sit beside the repository (../shared/traces), or where TW_SHARED_DIR says.
 *
 * Returns: (transfer full) (nullable): the path, or %NULL when the file is not there
 *   (the caller skips with g_test_skip)
 */
char *
tw_test_dup_shared_trace_path (const char *relative)
{
  const char *shared = g_getenv ("TW_SHARED_DIR");
  g_autofree char *dir = shared ? g_strdup (shared)
                                : g_build_filename (TW_SOURCE_DIR, "..", "shared", NULL);
  char *path = g_build_filename (dir, "traces", relative, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_free (path);
      return NULL;
    }
  return path;
}

/**
 * tw_test_write_temp_file:
 * @length: bytes, or -1 for a NUL-terminated string
 *
 * Returns: (transfer full): the path of a new file in the test's temporary directory
 */
char *
tw_test_write_temp_file (const char *basename,
                         const void *contents,
                         gssize      length)
{
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), basename, NULL);

  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
  return path;
}

guint16
tw_test_add_switch_type (TwTrace *trace)
{
  static const TwFieldSpec fields[] = {
    { "prev_state", TW_FIELD_STRING, TW_FIELD_FLAG_OPTIONAL },
  };
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, "switch", "sched", TW_EVENT_KIND_SWITCH,
                                          fields, G_N_ELEMENTS (fields), &error);

  g_assert_no_error (error);
  return type;
}

guint16
tw_test_add_simple_type (TwTrace     *trace,
                         const char  *name,
                         TwEventKind  kind)
{
  g_autoptr(GError) error = NULL;
  guint16 type = tw_trace_add_event_type (trace, name, NULL, kind, NULL, 0, &error);

  g_assert_no_error (error);
  return type;
}

void
tw_test_append_switch (TwTrace    *trace,
                       guint16     type,
                       guint64     time_ns,
                       guint16     cpu,
                       guint32     prev,
                       guint32     next,
                       const char *prev_state)
{
  const TwEventType *t = tw_trace_get_event_type (trace, type);
  guint8 payload[16] = { 0 };

  g_assert_cmpuint (t->payload_size, <=, sizeof payload);
  if (prev_state)
    {
      TwValue v = { .type = TW_FIELD_STRING, .str = tw_trace_intern_string (trace, prev_state) };
      tw_event_type_set_field (t, payload, 0, &v);
    }
  tw_trace_append (trace, time_ns, cpu, type, prev, next, payload);
}

static gboolean
wait_timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/**
 * tw_test_wait_until:
 * @condition: checked after every main-loop iteration
 * @timeout_ms: how long to wait at most
 *
 * Spins the default main context until @condition holds (threads finish, idles run,
 * frames get drawn).
 *
 * Returns: %TRUE when @condition held, %FALSE on timeout
 */
gboolean
tw_test_wait_until (TwTestCondition condition,
                    gpointer        data,
                    guint           timeout_ms)
{
  gboolean timed_out = FALSE;
  guint source = g_timeout_add (timeout_ms, wait_timeout_cb, &timed_out);

  while (!condition (data))
    {
      if (timed_out)
        return FALSE;
      g_main_context_iteration (NULL, TRUE);
    }
  if (!timed_out)
    g_source_remove (source);
  return TRUE;
}
