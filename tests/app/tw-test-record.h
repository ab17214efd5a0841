/* tw-test-record.h: the live demo, a bulk sensor and a record folder, as the Record… window
 * tests (CSV and CTF) share them
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-ingest.h>
#include <tw-sensor.h>

#include "tw-application.h"
#include "tw-live-session.h"
#include "tw-recorder.h"
#include "tw-test-gtk.h"
#include "tw-test-utils.h"
#include "tw-window.h"

#define TW_TEST_RECORD_WAIT_MS   120000
#define TW_TEST_RECORD_BURST     60000        /* elements a burst: no more than the ring holds */
#define TW_TEST_RECORD_CAPACITY  (1u << 16)

typedef struct {
  char          *record_dir;
  TwWindow      *window;
  TwLiveSession *session;
  TwSensor      *bulk;        /* bulk@tick: u64 seq */
  guint64        committed;
  GError        *finished_error;
  guint          n_finished;
} TwTestRecord;

static inline TwRecorder *
tw_test_record_recorder (TwTestRecord *fx)
{
  return tw_window_get_recorder (fx->window);
}

static inline TwTrace *
tw_test_record_live_trace (TwTestRecord *fx)
{
  return tw_live_session_get_trace (fx->session);
}

/* A tw_test_wait_until() condition on a TwRecorder. */
static inline gboolean
tw_test_record_idle (gpointer recorder)
{
  return !tw_recorder_get_busy (recorder);
}

static inline void
tw_test_record_finished_cb (TwRecorder   *rec,
                            const char   *path,
                            guint64       n_events,
                            GError       *error,
                            TwTestRecord *fx)
{
  g_clear_error (&fx->finished_error);
  fx->finished_error = error ? g_error_copy (error) : NULL;
  fx->n_finished++;
}

/* A record folder of its own and the window, presented; nothing without a display. */
static inline void
tw_test_record_setup (TwTestRecord  *fx,
                      TwApplication *app,
                      const char    *dir_template)
{
  g_autoptr(GError) error = NULL;

  if (app == NULL)
    return;
  fx->record_dir = g_dir_make_tmp (dir_template, &error);
  g_assert_no_error (error);
  fx->window = tw_window_new (GTK_APPLICATION (app));
  tw_test_present_window (GTK_WINDOW (fx->window), 1100, 800);
}

/* Waits for a recording still written (closing the window would hold the application
 * until it ends), then closes everything and removes the record folder. */
static inline void
tw_test_record_teardown (TwTestRecord *fx)
{
  if (fx->window)
    g_assert_true (tw_test_wait_until (tw_test_record_idle, tw_test_record_recorder (fx),
                                       TW_TEST_RECORD_WAIT_MS));
  tw_test_close_window (GTK_WINDOW (g_steal_pointer (&fx->window)));
  g_clear_object (&fx->session);
  g_clear_pointer (&fx->bulk, tw_sensor_free);
  g_clear_error (&fx->finished_error);
  if (fx->record_dir)
    tw_test_remove_tree (fx->record_dir);
  g_clear_pointer (&fx->record_dir, g_free);
}

typedef struct {
  TwTrace *trace;
  guint64  n;
} TwTestRecordStoreWait;

static inline gboolean
tw_test_record_store_has (gpointer data)
{
  TwTestRecordStoreWait *w = data;

  return tw_trace_get_n_events (w->trace) >= w->n;
}

static inline gboolean
tw_test_record_demo_received (gpointer data)
{
  TwLiveSession *session = data;
  guint receiving = 0;

  for (guint i = 0; i < tw_live_session_get_n_sources (session); i++)
    {
      TwMonitorSourceInfo info;

      tw_live_session_get_source_info (session, i, &info);
      receiving += info.sensor && info.counts.received > 0;
    }
  /* the demo's seven sensors and the test's */
  return receiving >= 8;
}

/* The demo as `tracewb --live-demo` starts it, plus the test's bulk sensor in the same
 * private directory, shown in the window; then @n_bulk elements, a burst at a time, each
 * waited for in the store, and the demo's sensors heard from. */
static inline void
tw_test_record_start_demo (TwTestRecord *fx,
                           guint64       n_bulk)
{
  g_autoptr(GError) error = NULL;
  TwTestRecordStoreWait wait;

  fx->session = tw_live_session_new (NULL);
  g_assert_true (tw_live_session_spawn_demo (fx->session, g_getenv ("TW_DEMO_RT"), &error));
  g_assert_no_error (error);
  g_setenv ("TRACEWB_SENSOR_DIR", tw_live_session_get_sensor_dir (fx->session), TRUE);
  fx->bulk = tw_sensor_new ("bulk", "tick", "u64 seq", TW_TEST_RECORD_CAPACITY, 0);
  g_assert_nonnull (fx->bulk);
  g_assert_true (tw_live_session_start (fx->session, 0, &error));
  g_assert_no_error (error);
  tw_window_attach_live (fx->window, fx->session);
  g_signal_connect (tw_test_record_recorder (fx), "finished",
                    G_CALLBACK (tw_test_record_finished_cb), fx);

  wait = (TwTestRecordStoreWait) { tw_test_record_live_trace (fx), 0 };
  g_test_message ("filling");
  while (fx->committed < n_bulk)
    {
      for (guint i = 0; i < TW_TEST_RECORD_BURST; i++)
        {
          guint64 *element = tw_sensor_write (fx->bulk);

          *element = fx->committed++;
          tw_sensor_commit (fx->bulk, element);
        }
      wait.n = tw_trace_get_n_events (wait.trace) + TW_TEST_RECORD_BURST;
      g_assert_true (tw_test_wait_until (tw_test_record_store_has, &wait, TW_TEST_RECORD_WAIT_MS));
    }
  g_assert_true (tw_test_wait_until (tw_test_record_demo_received, fx->session, TW_TEST_RECORD_WAIT_MS));
  g_test_message ("filled: %" G_GUINT64_FORMAT " events", tw_trace_get_n_events (wait.trace));
}

/* The entries of @dir whose names start with @prefix. */
static inline guint
tw_test_record_count_entries (const char *dir,
                              const char *prefix)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)))
    n += g_str_has_prefix (name, prefix);
  return n;
}

/* A tw_test_wait_until() condition on a TwRecorder: Record… is asking for a name. */
static inline gboolean
tw_test_record_has_chooser (gpointer recorder)
{
  return tw_recorder_get_chooser (recorder) != NULL;
}

/* Whether Record…'s chooser names @name in the record folder (it moves to a folder only
 * once it has loaded it). */
static inline gboolean
tw_test_record_chooser_names (TwTestRecord *fx,
                              const char   *name)
{
  GtkNativeDialog *chooser = tw_recorder_get_chooser (tw_test_record_recorder (fx));
  g_autoptr(GFile) file = chooser ? gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser)) : NULL;
  g_autofree char *path = file ? g_file_get_path (file) : NULL;
  g_autofree char *expected = g_build_filename (fx->record_dir, name, NULL);

  return g_strcmp0 (path, expected) == 0;
}

/* Each event type's count among the first @n events of @trace, by name. */
static inline GHashTable *
tw_test_record_count_types (TwTrace *trace,
                            guint64  n)
{
  GHashTable *counts = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint64 e = 0; e < n; e++)
    {
      TwEvent ev;
      const char *name;

      g_assert_true (tw_trace_get_event (trace, e, &ev));
      name = tw_trace_get_event_type (trace, ev.type)->name;
      g_hash_table_insert (counts, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, name)) + 1));
    }
  return counts;
}

/* GTK's file chooser reads its settings schema; the isolated test directories hide the
 * system's schemas, so point GSettings at them first (before g_test_init). */
static inline void
tw_test_record_keep_system_schemas (void)
{
  const char * const *dirs = g_get_system_data_dirs ();

  for (guint i = 0; dirs[i] && !g_getenv ("GSETTINGS_SCHEMA_DIR"); i++)
    {
      g_autofree char *schemas = g_build_filename (dirs[i], "glib-2.0", "schemas", NULL);
      g_autofree char *compiled = g_build_filename (schemas, "gschemas.compiled", NULL);

      if (g_file_test (compiled, G_FILE_TEST_IS_REGULAR))
        g_setenv ("GSETTINGS_SCHEMA_DIR", schemas, TRUE);
    }
}
