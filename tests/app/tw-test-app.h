/* tw-test-app.h: the application the window test programs share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-application.h"

/* g_test_init() with isolated directories, then, when there is a display, the
 * application, registered. Returns it, or NULL without a display (GUI tests skip then). */
static inline TwApplication *
tw_test_init_application (int    *argc,
                          char ***argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) mime_dirs = g_ptr_array_new_with_free_func (g_free);
  const char * const *system_dirs = g_get_system_data_dirs ();
  TwApplication *app;

  /* Isolated test dirs hide the MIME database, and image loaders sniff types with it
   * (the window's SVG icon): keep reading the system's. */
  for (guint i = 0; system_dirs[i]; i++)
    g_ptr_array_add (mime_dirs, g_build_filename (system_dirs[i], "mime", NULL));
  g_ptr_array_add (mime_dirs, NULL);

  g_test_init (argc, argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_content_type_set_mime_dirs ((const char * const *) mime_dirs->pdata);

  if (!gtk_init_check ())
    return NULL;
  app = tw_application_new ();
  /* tests must not find (or be) a running tracewb on the session bus */
  g_application_set_flags (G_APPLICATION (app),
                           G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  return app;
}
