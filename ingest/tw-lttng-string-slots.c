/* tw-lttng-string-slots.c: the live helper's payload strings, by slot
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-lttng-string-slots-private.h"

#include <string.h>

#include "tw-kernel-common-private.h"
#include "tw-lttng-live-protocol-private.h"

/* twice the strings cached, so probes stay short; 16 bytes each: 128 KiB. A probe for a
 * new string lands anywhere in the table, and babeltrace2's decoding between two probes
 * evicts a bigger one from the CPU's caches (at 2^15 slots each probe was a miss, a tenth
 * of the helper's time); strings repeating among more than 4096 others are sent again,
 * which costs the parent a lookup that finds them */
#define TABLE_SIZE (2 * TW_LTTNG_STRING_SLOTS_CACHED)
/* long strings empty the cache sooner: it never holds more bytes than this */
#define ARENA_MAX  (8u << 20)

typedef struct {
  guint32 hash;
  guint32 len;
  guint32 id_plus_one;
  guint32 offset;      /* of the bytes in the arena */
} Entry;

struct _TwLttngStringSlots {
  Entry      *table;
  guint       n;
  GByteArray *arena;   /* the cached strings' bytes, emptied with the cache */
  guint32     next;    /* the next slot to give out */
};

TwLttngStringSlots *
_tw_lttng_string_slots_new (void)
{
  TwLttngStringSlots *self = g_new0 (TwLttngStringSlots, 1);

  self->table = g_new0 (Entry, TABLE_SIZE);
  self->arena = g_byte_array_new ();
  return self;
}

void
_tw_lttng_string_slots_free (TwLttngStringSlots *self)
{
  if (self == NULL)
    return;
  g_free (self->table);
  g_byte_array_unref (self->arena);
  g_free (self);
}

/**
 * _tw_lttng_string_slots_get:
 * @fresh: (out): %TRUE when the slot is new for @s: the parent must be told
 *
 * Returns: TW_LTTNG_STRING_SLOT | the slot of @s
 */
guint32
_tw_lttng_string_slots_get (TwLttngStringSlots *self,
                            const char         *s,
                            gsize               len,
                            gboolean           *fresh)
{
  guint32 hash = _tw_hash_span (s, len);
  guint i = hash & (TABLE_SIZE - 1);
  Entry *e;

  for (; self->table[i].id_plus_one != 0; i = (i + 1) & (TABLE_SIZE - 1))
    {
      e = &self->table[i];
      if (e->hash == hash && e->len == len && memcmp (self->arena->data + e->offset, s, len) == 0)
        {
          *fresh = FALSE;
          return e->id_plus_one - 1;
        }
    }
  /* full: forget everything (a slot given out before may be given out again now) */
  if (self->n == TW_LTTNG_STRING_SLOTS_CACHED || self->arena->len > ARENA_MAX)
    {
      memset (self->table, 0, TABLE_SIZE * sizeof *self->table);
      g_byte_array_set_size (self->arena, 0);
      self->n = 0;
      i = hash & (TABLE_SIZE - 1);
    }
  e = &self->table[i];
  e->hash = hash;
  e->len = len;
  e->offset = self->arena->len;
  e->id_plus_one = (TW_LTTNG_STRING_SLOT | (self->next & (TW_LTTNG_STRING_SLOTS - 1))) + 1;
  g_byte_array_append (self->arena, (const guint8 *) s, len);
  self->next++;
  self->n++;
  *fresh = TRUE;
  return e->id_plus_one - 1;
}
