/* tw-cli-info-defects.h: what `tracewb-cli info` says a trace got wrong
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>
#include <tw-data.h>

G_BEGIN_DECLS

typedef struct _TwCliDefects TwCliDefects;

TwCliDefects *tw_cli_defects_new                (TwTrace            *trace);
void          tw_cli_defects_free               (TwCliDefects       *self);
guint64       tw_cli_defects_get_n_lost_reports (const TwCliDefects *self);
void          tw_cli_defects_get_time_bounds    (const TwCliDefects *self,
                                                 TwTrace            *trace,
                                                 guint64            *first,
                                                 guint64            *last);
void          tw_cli_defects_add_json           (const TwCliDefects *self,
                                                 JsonBuilder        *builder);
void          tw_cli_defects_print              (const TwCliDefects *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwCliDefects, tw_cli_defects_free)

G_END_DECLS
