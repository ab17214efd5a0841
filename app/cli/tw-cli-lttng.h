/* tw-cli-lttng.h: `tracewb-cli monitor --lttng-live`: sessions of a relay, what a session sent
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <tw-ingest.h>

G_BEGIN_DECLS

int         tw_cli_lttng_list            (const char       *url,
                                          gboolean          json);
void        tw_cli_lttng_report          (TwTrace          *trace,
                                          const char       *url,
                                          JsonBuilder      *builder);
/* adds a target sensor's stream check (`stream_ok`, …) to its object */
typedef void (*TwCliStreamReportFunc) (TwLiveSource *source,
                                       guint         index,
                                       JsonBuilder  *builder,
                                       gpointer      user_data);

void        tw_cli_lttng_report_sensors  (GPtrArray        *sources,
                                          JsonBuilder      *builder,
                                          TwCliStreamReportFunc stream_func,
                                          gpointer          stream_data);
const char *tw_cli_lttng_connection_name (TwLiveConnection  connection);

G_END_DECLS
