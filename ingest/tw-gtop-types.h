/* tw-gtop-types.h: the event types the libgtop sampler writes, and what they measure
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

guint16      tw_gtop_add_type    (TwTrace       *trace,
                                  TwCounterKind  kind,
                                  GError       **error);
TwFieldFlags tw_gtop_field_flags (const char    *type_name,
                                  const char    *field_name);

G_END_DECLS
