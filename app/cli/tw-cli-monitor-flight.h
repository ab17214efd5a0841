/* tw-cli-monitor-flight.h: `tracewb-cli monitor --flight`: keep the last rows, save a window per trigger
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <tw-ingest.h>

G_BEGIN_DECLS

typedef struct _TwCliFlight TwCliFlight;

gboolean     tw_cli_flight_parse_span (const char          *text,
                                       guint64             *span_ns,
                                       guint64             *span_bytes,
                                       GError             **error);
TwCliFlight *tw_cli_flight_new        (TwMonitor           *monitor,
                                       guint64              span_ns,
                                       guint64              span_bytes,
                                       guint64              after_ns,
                                       const char          *dir,
                                       const char * const  *triggers,
                                       GError             **error);
gboolean     tw_cli_flight_advance    (TwCliFlight         *self,
                                       gboolean             final,
                                       GError             **error);
void         tw_cli_flight_report     (TwCliFlight         *self,
                                       JsonBuilder         *builder);
void         tw_cli_flight_free       (TwCliFlight         *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwCliFlight, tw_cli_flight_free)

G_END_DECLS
