/* tw-application.c: the tracewb GtkApplication
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-application.h"
#include <tw-data.h>
#include "tw-app-resources.h"
#include "tw-compare-window.h"
#include "tw-file-chooser.h"
#include "tw-live-session.h"
#include "tw-lttng-attach-dialog.h"
#include "tw-renderer-choice.h"
#include "tw-window.h"

#include <errno.h>
#include <glib-unix.h>
#include <string.h>

#define RESOURCE_BASE "/org/tracewb/Workbench"
#define DEMO_RESOURCE RESOURCE_BASE "/demo/demo.shark"

struct _TwApplication
{
  GtkApplication  parent_instance;

  gboolean        exit_after_startup;  /* smoke tests: quit once the windows settled */
  gboolean        exit_after_first_frame; /* benchmarks: quit at a file's first frame */
  gboolean        open_demo;           /* --demo: open the embedded demo trace at start */
  guint           n_pending_loads;
  gboolean        load_failed;
  gboolean        live;                /* --live: attach to a sensor directory at start */
  gboolean        live_demo;           /* --live-demo: start the demo program and attach */
  char           *sensor_dir;          /* --sensor-dir */
  char           *demo_program;        /* found by handle_local_options */
  gboolean        no_kernel;           /* --no-kernel */
  gboolean        compare;             /* --compare: the two files side by side */
  guint           signal_sources[2];
};

G_DEFINE_FINAL_TYPE (TwApplication, tw_application, GTK_TYPE_APPLICATION)

static TwWindow *
get_window (TwApplication *self,
            gboolean       want_empty)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  /* a window already showing a trace keeps it: a new trace gets a new window */
  if (TW_IS_WINDOW (window)
      && (!want_empty || (tw_window_get_view_state (TW_WINDOW (window)) == NULL
                          && !tw_window_get_loading (TW_WINDOW (window)))))
    return TW_WINDOW (window);
  return tw_window_new (GTK_APPLICATION (self));
}

static gboolean
quit_idle_cb (gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
  return G_SOURCE_REMOVE;
}

static void
maybe_quit_after_startup (TwApplication *self)
{
  if ((self->exit_after_startup || (self->exit_after_first_frame && self->load_failed))
      && self->n_pending_loads == 0)
    g_idle_add_full (G_PRIORITY_LOW, quit_idle_cb, g_object_ref (self), g_object_unref);
}

static void
load_finished_cb (TwWindow      *window,
                  gboolean       success,
                  TwApplication *self)
{
  g_signal_handlers_disconnect_by_func (window, load_finished_cb, self);
  if (!success)
    {
      const char *message = tw_window_get_error_message (window);
      if (message)
        g_printerr ("tracewb: %s\n", message);
      self->load_failed = TRUE;
    }
  self->n_pending_loads--;
  maybe_quit_after_startup (self);
}

static void
first_frame_cb (TwWindow      *window,
                TwApplication *self)
{
  g_signal_handlers_disconnect_by_func (window, first_frame_cb, self);
  g_application_quit (G_APPLICATION (self));
}

static void
compare_finished_cb (TwCompareWindow *window,
                     gboolean         success,
                     TwApplication   *self)
{
  g_signal_handlers_disconnect_by_func (window, compare_finished_cb, self);
  self->load_failed |= !success;
  self->n_pending_loads--;
  maybe_quit_after_startup (self);
}

/* `tracewb A B --compare` */
static void
open_compare (TwApplication  *self,
              GFile         **files,
              int             n_files)
{
  TwCompareWindow *window;

  if (n_files != 2)
    {
      g_printerr ("tracewb: --compare takes two traces, the reference run and the one compared with it\n");
      self->load_failed = TRUE;
      maybe_quit_after_startup (self);
      return;
    }
  window = tw_compare_window_new (GTK_APPLICATION (self), files[0], files[1]);
  if (self->exit_after_startup)
    {
      self->n_pending_loads++;
      g_signal_connect (window, "finished", G_CALLBACK (compare_finished_cb), self);
    }
  gtk_window_present (GTK_WINDOW (window));
}

static void
open_in_window (TwApplication *self,
                TwWindow      *window,
                GFile         *file)
{
  if (self->exit_after_startup || self->exit_after_first_frame)
    {
      self->n_pending_loads++;
      g_signal_connect (window, "load-finished", G_CALLBACK (load_finished_cb), self);
    }
  if (self->exit_after_first_frame)
    g_signal_connect (window, "first-frame", G_CALLBACK (first_frame_cb), self);
  tw_window_open_file (window, file);
  gtk_window_present (GTK_WINDOW (window));
}

/**
 * tw_application_start_live:
 * @sensor_dir: (nullable): the sensor directory (%NULL: `$TRACEWB_SENSOR_DIR`, else the
 *   per-user one)
 * @demo_program: (nullable): a demo program to start first, writing into a private
 *   sensor directory (then @sensor_dir is not used)
 *
 * Starts a live session (with the kernel buffer, unless --no-kernel, and libgtop when
 * available) and shows
 * it in a window; failures show in the window's error banner.
 *
 * Returns: (transfer none): the window
 */
TwWindow *
tw_application_start_live (TwApplication *self,
                           const char    *sensor_dir,
                           const char    *demo_program,
                           GError       **error)
{
  TwWindow *window = get_window (self, TRUE);
  g_autoptr(TwLiveSession) session = tw_live_session_new (sensor_dir);
  g_autoptr(GError) local = NULL;

  gtk_window_present (GTK_WINDOW (window));
  if ((demo_program && !tw_live_session_spawn_demo (session, demo_program, &local))
      || !tw_live_session_start (session, (self->no_kernel ? 0 : TW_LIVE_SESSION_KERNEL) | TW_LIVE_SESSION_GTOP,
                                 &local))
    {
      tw_window_show_error_message (window, "Could not start the live session", local);
      g_propagate_error (error, g_steal_pointer (&local));
      return window;
    }
  tw_window_attach_live (window, session);
  return window;
}

/**
 * tw_application_start_lttng_live:
 * @urls: (array zero-terminated=1): `net://HOST[:PORT]/host/TARGET/SESSION`, one or more
 *
 * Attaches to LTTng live sessions through their relays and shows them in a window, live
 * like a sensor session: several sessions (targets) go on one timeline, their rows
 * merged in time order and grouped by host. Failures show in the window's error banner.
 *
 * Returns: (transfer none): the window
 */
TwWindow *
tw_application_start_lttng_live (TwApplication     *self,
                                 const char *const *urls,
                                 GError           **error)
{
  TwWindow *window = get_window (self, TRUE);
  g_autoptr(GError) local = NULL;
  g_autoptr(TwLiveSession) session = NULL;

  g_return_val_if_fail (urls != NULL && urls[0] != NULL, window);

  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; urls[i] && local == NULL; i++)
    {
      TwLiveSource *source = tw_live_lttng_new (urls[i], &local);

      if (source == NULL)
        break;
      if (session == NULL)
        session = tw_live_session_new_for_remote (source, urls[i]);
      else
        tw_live_session_add_remote (session, source, urls[i]);
    }
  if (local != NULL || !tw_live_session_start (session, 0, &local))
    {
      tw_window_show_error_message (window, _("Could not attach to the LTTng session"), local);
      g_propagate_error (error, g_steal_pointer (&local));
      return window;
    }
  tw_window_attach_live (window, session);
  return window;
}

static void
tw_application_activate (GApplication *app)
{
  TwApplication *self = TW_APPLICATION (app);

  if (self->compare)
    {
      open_compare (self, NULL, 0);
      return;
    }
  if (self->live || self->live_demo)
    {
      g_autoptr(GError) error = NULL;

      self->live = self->live_demo = FALSE;
      tw_application_start_live (self, self->sensor_dir, self->demo_program, &error);
      if (error)
        {
          g_printerr ("tracewb: %s\n", error->message);
          self->load_failed = TRUE;
        }
      /* a live window never settles (an idle could starve behind its updates): a
       * smoke test quits after a second of it */
      if (self->exit_after_startup)
        g_timeout_add_full (G_PRIORITY_DEFAULT, 1000, quit_idle_cb, g_object_ref (self), g_object_unref);
      return;
    }
  gtk_window_present (GTK_WINDOW (get_window (self, FALSE)));
  if (self->open_demo)
    {
      self->open_demo = FALSE;
      g_action_group_activate_action (G_ACTION_GROUP (app), "open-demo", NULL);
    }
  maybe_quit_after_startup (self);
}

static void
tw_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  TwApplication *self = TW_APPLICATION (app);

  g_autoptr(GStrvBuilder) lttng = g_strv_builder_new ();
  g_auto(GStrv) urls = NULL;

  if (self->compare)
    {
      open_compare (self, files, n_files);
      return;
    }
  for (int i = 0; i < n_files; i++)
    {
      /* `tracewb --live net://…`: an LTTng live session, not a file; all of them on the
       * command line go on one timeline (`--live URL1 --live URL2`) */
      if (g_file_has_uri_scheme (files[i], "net"))
        {
          g_autofree char *url = g_file_get_uri (files[i]);

          g_strv_builder_add (lttng, url);
          continue;
        }
      open_in_window (self, get_window (self, TRUE), files[i]);
    }
  urls = g_strv_builder_end (lttng);
  if (urls[0])
    {
      g_autoptr(GError) error = NULL;

      self->live = FALSE;
      tw_application_start_lttng_live (self, (const char *const *) urls, &error);
      if (error)
        {
          g_printerr ("tracewb: %s\n", error->message);
          self->load_failed = TRUE;
        }
    }
  maybe_quit_after_startup (self);
}

static gboolean
quit_on_signal_cb (gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
  return G_SOURCE_CONTINUE;
}

static int
tw_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  TwApplication *self = TW_APPLICATION (app);

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("tracewb %s\n", PACKAGE_VERSION);
      return 0;
    }
  self->open_demo = g_variant_dict_contains (options, "demo");
  self->live = g_variant_dict_contains (options, "live");
  self->live_demo = g_variant_dict_contains (options, "live-demo");
  g_variant_dict_lookup (options, "sensor-dir", "^ay", &self->sensor_dir);
  self->no_kernel = g_variant_dict_contains (options, "no-kernel");
  self->compare = g_variant_dict_contains (options, "compare");
  if (self->sensor_dir && !self->live)
    {
      g_printerr ("tracewb: --sensor-dir goes with --live\n");
      return 2;
    }
  if (self->live && self->live_demo)
    {
      g_printerr ("tracewb: --live and --live-demo exclude each other (the demo has its own sensor directory)\n");
      return 2;
    }
  if (self->live_demo)
    {
      g_auto(GStrv) dirs = tw_live_dup_demo_search_dirs ();
      g_autoptr(GError) error = NULL;

      self->demo_program = tw_live_find_demo_program ((const char *const *) dirs, &error);
      if (self->demo_program == NULL)
        {
          g_printerr ("tracewb: %s\n", error->message);
          return 1;
        }
    }
  if (self->live || self->live_demo)
    {
      /* a live window owns a session (and maybe the demo): its own instance, and a
       * signal ends it cleanly so that the demo does not outlive it */
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
      self->signal_sources[0] = g_unix_signal_add (SIGINT, quit_on_signal_cb, app);
      self->signal_sources[1] = g_unix_signal_add (SIGTERM, quit_on_signal_cb, app);
    }
  if (g_variant_dict_contains (options, "no-cache"))
    {
      /* the instance that reads the files must be this one for the option to hold */
      tw_trace_cache_set_default_enabled (FALSE);
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  if (g_variant_dict_contains (options, "exit-after-first-frame"))
    {
      self->exit_after_first_frame = TRUE;
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  if (g_variant_dict_contains (options, "exit-after-startup"))
    {
      /* a smoke test wants its own instance, not a running one to forward to */
      self->exit_after_startup = TRUE;
      g_application_set_flags (app, g_application_get_flags (app) | G_APPLICATION_NON_UNIQUE);
    }
  return -1;
}

static int
tw_application_command_line_status (TwApplication *self)
{
  return self->load_failed ? 1 : 0;
}

/* ------------------------------------------------------------------ actions */

static void
file_chooser_response_cb (GtkNativeDialog *dialog,
                          int              response,
                          gpointer         user_data)
{
  TwApplication *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      GtkWindow *parent = gtk_native_dialog_get_transient_for (dialog);

      if (file)
        open_in_window (self, TW_IS_WINDOW (parent) ? TW_WINDOW (parent) : get_window (self, FALSE), file);
    }
  g_object_unref (dialog);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwApplication *self = user_data;
  GtkWindow *parent = GTK_WINDOW (get_window (self, FALSE));
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) traces = tw_file_chooser_new_trace_filter ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  gtk_window_present (parent);
  dialog = gtk_file_chooser_native_new (_("Open Trace"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        "_Open", "_Cancel");
  gtk_file_filter_set_name (all, _("All files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), traces);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (file_chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * tw_application_dup_demo_path:
 *
 * The demo trace is embedded in the program; readers take paths (they mmap), so it is
 * written once to the user's cache directory.
 *
 * Returns: (transfer full) (nullable): the path of a file holding the demo trace
 */
char *
tw_application_dup_demo_path (GError **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "tracewb", NULL);
  g_autofree char *path = g_build_filename (dir, "demo.shark", NULL);
  g_autofree char *existing = NULL;
  gsize existing_len = 0;
  gconstpointer data;
  gsize len;

  bytes = g_resources_lookup_data (DEMO_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &len);

  if (g_file_get_contents (path, &existing, &existing_len, NULL)
      && existing_len == len && memcmp (existing, data, len) == 0)
    return g_steal_pointer (&path);

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return NULL;
    }
  if (!g_file_set_contents (path, data, len, error))
    return NULL;
  return g_steal_pointer (&path);
}

static void
open_demo_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwApplication *self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = tw_application_dup_demo_path (&error);
  g_autoptr(GFile) file = NULL;

  if (path == NULL)
    {
      g_warning ("No demo trace: %s", error->message);
      return;
    }
  file = g_file_new_for_path (path);
  open_in_window (self, get_window (self, TRUE), file);
}

static void
attach_response_cb (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  TwApplication *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path)
        tw_application_start_live (self, path, NULL, NULL);
    }
  g_object_unref (dialog);
}

/* Chooses the sensor directory, starting at the default one ($TRACEWB_SENSOR_DIR or
 * the per-user directory). */
static void
attach_sensors_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(TwMonitor) probe = tw_monitor_new (NULL);
  const char *dir = tw_monitor_get_sensor_dir (probe);
  GtkFileChooserNative *dialog;

  dialog = gtk_file_chooser_native_new (_("Attach to Sensors"), parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        "_Attach", "_Cancel");
  if (dir)
    {
      g_autoptr(GFile) folder = g_file_new_for_path (dir);

      g_mkdir_with_parents (dir, 0700);
      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
    }
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (attach_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
lttng_attach_cb (TwLttngAttachDialog *dialog,
                 const char *const   *urls,
                 gpointer             user_data)
{
  tw_application_start_lttng_live (user_data, urls, NULL);
}

/* File ▸ Attach to LTTng…: a relay's sessions to choose from */
static void
attach_lttng_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  TwApplication *self = user_data;
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  TwLttngAttachDialog *dialog = tw_lttng_attach_dialog_new (parent);

  g_signal_connect_object (dialog, "attach", G_CALLBACK (lttng_attach_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
shortcuts_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  if (window)
    gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL);
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *authors[] = { "The Trace Workbench authors", NULL };
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_show_about_dialog (window,
                         "program-name", "Trace Workbench",
                         "logo-icon-name", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", "Timelines of context switches and interrupts, histograms and metric automata for real-time and OS engineers",
                         "copyright", "Copyright 2026 The Trace Workbench authors",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "authors", authors,
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "open", open_action },
  { "open-demo", open_demo_action },
  { "attach-sensors", attach_sensors_action },
  { "attach-lttng", attach_lttng_action },
  { "quit", quit_action },
  { "shortcuts", shortcuts_action },
  { "about", about_action },
};

static void
tw_application_startup (GApplication *app)
{
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.open", { "<Control>o", NULL } },
    { "app.attach-sensors", { "<Control>l", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "win.show-help-overlay", { "<Control>question", "F1", NULL } },
    { "win.go-to-time", { "<Control>g", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.export-timeline", { "<Control>e", NULL } },
    { "win.designer", { "<Control>d", NULL } },
  };
  g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();
  GAction *demo;

  G_APPLICATION_CLASS (tw_application_parent_class)->startup (app);
  tw_renderer_choice_apply (gdk_display_get_default ());

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  /* the demo is embedded only when the build had it */
  demo = g_action_map_lookup_action (G_ACTION_MAP (app), "open-demo");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (demo),
                               g_resources_get_info (DEMO_RESOURCE, G_RESOURCE_LOOKUP_FLAGS_NONE,
                                                     NULL, NULL, NULL));

  gtk_css_provider_load_from_resource (css, RESOURCE_BASE "/style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (APP_ID);
}

/* Windows own live sessions, which own demo processes and tracefs instances: close them
 * all, whatever ended the application (Quit, a signal, the last window). */
static void
tw_application_shutdown (GApplication *app)
{
  GList *windows;

  while ((windows = gtk_application_get_windows (GTK_APPLICATION (app))))
    gtk_window_destroy (windows->data);
  /* a trace whose model was complete is being stored (its file kept since the read
   * only needs the model and the key): cut, it would be left as a temporary file */
  tw_trace_cache_wait_default ();
  G_APPLICATION_CLASS (tw_application_parent_class)->shutdown (app);
}

static void
tw_application_finalize (GObject *object)
{
  TwApplication *self = TW_APPLICATION (object);

  for (guint i = 0; i < G_N_ELEMENTS (self->signal_sources); i++)
    g_clear_handle_id (&self->signal_sources[i], g_source_remove);
  g_free (self->sensor_dir);
  g_free (self->demo_program);
  G_OBJECT_CLASS (tw_application_parent_class)->finalize (object);
}

static void
tw_application_class_init (TwApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = tw_application_finalize;
  app_class->activate = tw_application_activate;
  app_class->open = tw_application_open;
  app_class->startup = tw_application_startup;
  app_class->shutdown = tw_application_shutdown;
  app_class->handle_local_options = tw_application_handle_local_options;
}

static void
tw_application_init (TwApplication *self)
{
  static const GOptionEntry entries[] = {
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Print the version and exit", NULL },
    { "demo", 0, 0, G_OPTION_ARG_NONE, NULL, "Open the embedded demo trace", NULL },
    { "live", 0, 0, G_OPTION_ARG_NONE, NULL,
      "Attach live to the sensors of a sensor directory (default: $TRACEWB_SENSOR_DIR, else the per-user one); "
      "with net://HOST[:PORT]/host/TARGET/SESSION to an LTTng live session (repeat for several targets on one timeline)", NULL },
    { "sensor-dir", 0, 0, G_OPTION_ARG_FILENAME, NULL, "The sensor directory for --live", "DIR" },
    { "no-kernel", 0, 0, G_OPTION_ARG_NONE, NULL,
      "Live: do not read the kernel trace buffer, even where permitted (root, tracefs)", NULL },
    { "live-demo", 0, 0, G_OPTION_ARG_NONE, NULL,
      "Start the live demo program (" TW_LIVE_DEMO_PROGRAM ") and attach to it", NULL },
    { "compare", 0, 0, G_OPTION_ARG_NONE, NULL,
      "Compare two runs: tracewb A B --compare (one evaluation over both, side by side)", NULL },
    { "no-cache", 0, 0, G_OPTION_ARG_NONE, NULL,
      "Read every trace from its file: neither map nor write the trace cache (docs/trace-cache.md)", NULL },
    { "exit-after-startup", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
      "Quit once the window is shown and the files are opened (exit status 1 if one failed)", NULL },
    { "exit-after-first-frame", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, NULL,
      "Quit once the timeline of a file opened drew its first frame", NULL },
    { NULL }
  };

  static gsize registered = 0;

  /* manual registration: a static library's constructor would not be linked in */
  if (g_once_init_enter (&registered))
    {
      tw_app_register_resource ();
      g_once_init_leave (&registered, 1);
    }
  g_application_add_main_option_entries (G_APPLICATION (self), entries);
}

/**
 * tw_application_new:
 *
 * Returns: (transfer full): the application
 */
TwApplication *
tw_application_new (void)
{
  return g_object_new (TW_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       /* not derived from the id: a .Devel id keeps the same resources */
                       "resource-base-path", RESOURCE_BASE,
                       NULL);
}

/**
 * tw_application_run:
 *
 * Returns: the process exit status (1 when a file given with --exit-after-startup failed)
 */
int
tw_application_run (TwApplication  *self,
                    int             argc,
                    char          **argv)
{
  int status = g_application_run (G_APPLICATION (self), argc, argv);

  return status != 0 ? status : tw_application_command_line_status (self);
}
