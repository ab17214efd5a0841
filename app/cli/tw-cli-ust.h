/* tw-cli-ust.h: `tracewb-cli monitor --lttng`: sensors (and measurements) out as LTTng-UST events
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-ingest.h>

#include "tw-ust-emitter.h"

G_BEGIN_DECLS

typedef struct _TwCliUst TwCliUst;

TwCliUst           *tw_cli_ust_new          (TwMonitor  *monitor,
                                             GError    **error);
const TwUstEmitter *tw_cli_ust_get_emitter  (TwCliUst   *self);
guint32             tw_cli_ust_get_monitor  (TwCliUst   *self);
void                tw_cli_ust_poll         (TwCliUst   *self,
                                             gboolean    final);
void                tw_cli_ust_free         (TwCliUst   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwCliUst, tw_cli_ust_free)

G_END_DECLS
