/* tw-ctf-decoder-private.h: the CTF reader's decoding, for graphs built elsewhere (live)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The CTF reader maps events to canonical kinds, tasks and fields as they come out of
 * a babeltrace2 graph (tw-ctf-reader.c). The live helper (tw-lttng-live-child.c) runs a
 * src.ctf.lttng-live graph into the same sink, with the rows handed to a function
 * instead of appended to the store: the helper batches them to its parent. Types,
 * tasks and strings still go into the trace given, which then holds no rows.
 */
#pragma once

#include "config.h"

#include <tw-data.h>

#if HAVE_BABELTRACE
#include <babeltrace2/babeltrace.h>

G_BEGIN_DECLS

typedef struct _TwCtfDecoder TwCtfDecoder;

typedef void (*TwCtfRowFunc) (guint64       time_ns,
                              guint16       cpu,
                              guint16       type,
                              guint32       task,
                              guint32       arg,
                              const guint8 *payload,
                              guint         payload_size,
                              gpointer      user_data);

/* the id a payload string field gets (tw-lttng-string-slots-private.h) */
typedef guint32 (*TwCtfStringFunc) (const char *s,
                                    gsize       len,
                                    gpointer    user_data);

TwCtfDecoder *_tw_ctf_decoder_new          (TwTrace                  *trace,
                                            const char               *what,
                                            TwCtfRowFunc              func,
                                            gpointer                  user_data);
gboolean      _tw_ctf_decoder_add_sink     (TwCtfDecoder             *self,
                                            bt_graph                 *graph,
                                            const bt_component_sink **sink);
void          _tw_ctf_decoder_set_payload_strings (TwCtfDecoder   *self,
                                                   TwCtfStringFunc func,
                                                   gpointer        user_data);
void          _tw_ctf_decoder_flush_losses (TwCtfDecoder             *self);
gboolean      _tw_ctf_decoder_take_error   (TwCtfDecoder             *self,
                                            GError                  **error);
gint64        _tw_ctf_decoder_get_horizon  (TwCtfDecoder             *self);
guint64       _tw_ctf_decoder_get_n_events (TwCtfDecoder             *self);
void          _tw_ctf_decoder_free         (TwCtfDecoder             *self);
char         *_tw_ctf_take_bt_error        (void);

G_END_DECLS

#endif /* HAVE_BABELTRACE */
