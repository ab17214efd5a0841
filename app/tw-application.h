/* tw-application.h: the tracewb GtkApplication
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "tw-window.h"

G_BEGIN_DECLS

#define TW_TYPE_APPLICATION (tw_application_get_type ())
G_DECLARE_FINAL_TYPE (TwApplication, tw_application, TW, APPLICATION, GtkApplication)

TwApplication *tw_application_new            (void);
char          *tw_application_dup_demo_path  (GError        **error);
TwWindow      *tw_application_start_live     (TwApplication  *self,
                                              const char     *sensor_dir,
                                              const char     *demo_program,
                                              GError        **error);
TwWindow      *tw_application_start_lttng_live (TwApplication     *self,
                                                const char *const *urls,
                                                GError           **error);
int            tw_application_run            (TwApplication  *self,
                                              int             argc,
                                              char          **argv);

G_END_DECLS
