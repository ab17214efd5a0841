/* bench-trace-model.c: the event list's model on a large trace, beside one object per row
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <tw-data.h>

/*
 * What a list over millions of rows costs: making the model, filtering it (the index of
 * matching rows), and mapping positions ↔ rows as a list scrolls and jumps. The peer is
 * what a list with one GObject per row pays (GListStore + a filter over the objects, as a
 * GtkFilterListModel would run), measured on a slice and scaled per row.
 */

static double
now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

int
main (int    argc,
      char **argv)
{
  guint64 n = argc > 1 ? g_ascii_strtoull (argv[1], NULL, 10) : 20000000;
  guint64 peer_n = MIN (n, 2000000);
  g_autoptr(TwTrace) trace = tw_trace_new ();
  g_autoptr(TwTraceModel) model = NULL;
  g_autoptr(TwEventFilter) by_type = tw_event_filter_new ();
  g_autoptr(TwEventFilter) by_text = tw_event_filter_new ();
  g_autoptr(GListStore) store = NULL;
  guint64 checksum = 0;
  guint n_items;
  double t0, t_model, t_filter, t_text, t_lookup, t_peer_make, t_peer_filter;
  guint peer_matches = 0;
  TwEventChunk *chunk;

  for (guint t = 0; t < 8; t++)
    {
      g_autofree char *name = g_strdup_printf ("type_%u", t);
      tw_trace_add_event_type (trace, name, NULL, TW_EVENT_KIND_OTHER, NULL, 0, NULL);
    }
  for (guint t = 0; t < 1000; t++)
    {
      g_autofree char *id = g_strdup_printf ("%u", t);
      g_autofree char *name = g_strdup_printf ("task%u", t);
      tw_trace_add_task (trace, id, name, t, t);
    }
  for (guint64 i = 0; i < n; i++)
    {
      chunk = tw_trace_begin_append (trace);
      tw_event_chunk_push (chunk, i * 10, i % 4, (i * 7) % 8, (i * 13) % 1000, 0, NULL, 0);
    }
  tw_trace_end_append (trace);
  tw_trace_seal (trace, NULL, NULL);

  t0 = now_ms ();
  model = tw_trace_model_new (trace);
  t_model = now_ms () - t0;

  tw_event_filter_add_type (by_type, 3);
  t0 = now_ms ();
  tw_trace_model_set_filter (model, by_type, NULL, NULL);
  t_filter = now_ms () - t0;
  n_items = g_list_model_get_n_items (G_LIST_MODEL (model));

  /* random jumps: position → row → item, and row → position (selection sync) */
  t0 = now_ms ();
  for (guint i = 0; i < 1000000; i++)
    {
      guint position = (guint) (((guint64) i * 2654435761u) % n_items);
      guint64 index = tw_trace_model_get_event_index (model, position);
      checksum += tw_trace_model_find_position (model, index, NULL);
    }
  t_lookup = now_ms () - t0;

  tw_event_filter_set_text (by_text, trace, "task12");   /* task12, task120…129, task1200… */
  t0 = now_ms ();
  tw_trace_model_set_filter (model, by_text, NULL, NULL);
  t_text = now_ms () - t0;

  /* the peer: an object per row, then a filter pass over the objects */
  store = g_list_store_new (TW_TYPE_EVENT_ITEM);
  t0 = now_ms ();
  for (guint64 i = 0; i < peer_n; i++)
    {
      g_autoptr(TwEventItem) item = tw_event_item_new (trace, i);
      g_list_store_append (store, item);
    }
  t_peer_make = now_ms () - t0;
  t0 = now_ms ();
  for (guint i = 0; i < peer_n; i++)
    {
      g_autoptr(TwEventItem) item = g_list_model_get_item (G_LIST_MODEL (store), i);
      TwEvent ev;
      tw_event_item_get_event (item, &ev);
      peer_matches += ev.type == 3;
    }
  t_peer_filter = now_ms () - t0;

  printf ("rows                                %" G_GUINT64_FORMAT "\n", n);
  printf ("model creation                      %.3f ms\n", t_model);
  printf ("filter by type (%u rows match)   %.1f ms  (%.2f ns/row)\n", n_items, t_filter, t_filter * 1e6 / n);
  printf ("filter by task text (%u match)   %.1f ms  (%.2f ns/row)\n",
          g_list_model_get_n_items (G_LIST_MODEL (model)), t_text, t_text * 1e6 / n);
  printf ("position<->row, 1M random jumps     %.1f ms  (%.0f ns each)  [checksum %" G_GUINT64_FORMAT "]\n",
          t_lookup, t_lookup * 1e6 / 1000000, checksum);
  printf ("filter index memory                 %.1f MB (2 bytes per match)\n", n_items * 2.0 / 1e6);
  printf ("peer: one object per row            make %.1f ns/row + filter %.1f ns/row "
          "(%u matches in %" G_GUINT64_FORMAT ") → %.0f ms and ~%.0f MB for %" G_GUINT64_FORMAT " rows\n",
          t_peer_make * 1e6 / peer_n, t_peer_filter * 1e6 / peer_n, peer_matches, peer_n,
          (t_peer_make + t_peer_filter) * n / peer_n, 40.0 * n / 1e6, n);
  return 0;
}
