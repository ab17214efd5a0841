/* tw-ctf-writer-private.h: the babeltrace2 writer the packer is checked and measured against
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-ctf-writer.h"

G_BEGIN_DECLS

gboolean _tw_ctf_bt_writer_is_available (GError     **error);
gboolean _tw_ctf_bt_writer_write_range  (TwTrace     *trace,
                                         guint64      first,
                                         guint64      end,
                                         const char  *dir,
                                         GError     **error);

G_END_DECLS
