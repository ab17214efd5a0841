/* tw-lttng-string-slots-private.h: the live helper's payload strings, by slot
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A live session's payload strings are often unique to their event (an LTTng tracef
 * message, a log line): interning each in the helper's own trace cost a hash table of
 * every string ever seen (and the helper's memory without end) for ids the parent only
 * maps to its store's. The helper instead names a recent string by a slot of a ring of
 * TW_LTTNG_STRING_SLOTS (tw-lttng-live-protocol-private.h): a span seen lately gets its
 * slot again, a new one the next slot, told to the parent in a STRING frame before the
 * rows that use it. The cache forgets everything once it holds
 * TW_LTTNG_STRING_SLOTS_CACHED strings, so a slot in use is never one the ring has come
 * round to again while a row still refers to it (see the protocol's bound).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _TwLttngStringSlots TwLttngStringSlots;

TwLttngStringSlots *_tw_lttng_string_slots_new  (void);
void                _tw_lttng_string_slots_free (TwLttngStringSlots *self);
guint32             _tw_lttng_string_slots_get  (TwLttngStringSlots *self,
                                                 const char         *s,
                                                 gsize               len,
                                                 gboolean           *fresh);

G_END_DECLS
