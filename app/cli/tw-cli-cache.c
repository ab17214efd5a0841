/* tw-cli-cache.c: `tracewb-cli cache list|clear`, the trace cache's folder
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "tw-cli.h"

static char *
format_bytes (guint64 bytes)
{
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

static int
cache_list (TwTraceCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) entries = tw_trace_cache_list (cache, &error);
  g_autofree char *limit = format_bytes (tw_trace_cache_get_limit (cache));
  g_autofree char *total_text = NULL;
  guint64 total = 0;

  if (entries == NULL)
    return tw_cli_fail ("cache", g_steal_pointer (&error));
  if (entries->len > 0)
    g_print ("%-10s  %-16s  %-10s  %s\n", "SIZE", "LAST USED", "STATE", "TRACE");
  for (guint i = 0; i < entries->len; i++)
    {
      const TwTraceCacheEntry *entry = entries->pdata[i];
      g_autoptr(GDateTime) used = g_date_time_new_from_unix_local (entry->last_used / G_USEC_PER_SEC);
      g_autofree char *size = format_bytes (entry->disk_bytes);
      g_autofree char *when = used ? g_date_time_format (used, "%Y-%m-%d %H:%M") : g_strdup ("?");

      g_print ("%-10s  %-16s  %-10s  %s\n", size, when, entry->state,
               entry->trace_path ? entry->trace_path : entry->file);
      total += entry->disk_bytes;
    }
  total_text = format_bytes (total);
  g_print ("%u file%s, %s of a limit of %s, in %s\n", entries->len,
           entries->len == 1 ? "" : "s", total_text, limit, tw_trace_cache_get_dir (cache));
  return 0;
}

static int
cache_clear (TwTraceCache *cache)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *freed_text = NULL;
  guint64 freed = 0;
  guint n = tw_trace_cache_clear (cache, &freed, &error);

  if (error)
    return tw_cli_fail ("cache", g_steal_pointer (&error));
  freed_text = format_bytes (freed);
  g_print ("removed %u file%s (%s) from %s\n", n, n == 1 ? "" : "s", freed_text,
           tw_trace_cache_get_dir (cache));
  return 0;
}

/**
 * tw_cli_cache:
 *
 * `tracewb-cli cache list`: every cache file with its size, when it was last used, whether
 * its trace changed since (stale) or is gone (missing), and the folder's total and limit.
 * `tracewb-cli cache clear`: removes them all.
 */
int
tw_cli_cache (int    argc,
              char **argv)
{
  g_autoptr(GOptionContext) context =
    g_option_context_new ("list|clear — the trace cache: what it holds, or empty it");
  g_autoptr(TwTraceCache) cache = NULL;

  g_option_context_set_description (context,
    "Traces read are kept in $XDG_CACHE_HOME/tracewb/traces so that reopening one maps it\n"
    "instead of reading it again. Size limit: TRACEWB_CACHE_LIMIT (e.g. 5G), else a tenth\n"
    "of the disk's free space plus the cache, at most 20 GiB; the least recently used go\n"
    "first. TRACEWB_NO_CACHE=1 or `tracewb-cli --no-cache COMMAND` turn it off.");
  if (!tw_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc != 2 || (strcmp (argv[1], "list") != 0 && strcmp (argv[1], "clear") != 0))
    {
      g_printerr ("tracewb-cli cache: say list or clear\n");
      return 2;
    }

  /* the folder is the user's even with --no-cache: listing and clearing still apply */
  cache = tw_trace_cache_new (NULL);
  if (g_getenv ("TRACEWB_CACHE_LIMIT"))
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes;

      if (!tw_trace_cache_parse_size (g_getenv ("TRACEWB_CACHE_LIMIT"), &bytes, &error))
        {
          g_prefix_error (&error, "TRACEWB_CACHE_LIMIT: ");
          return tw_cli_fail ("cache", g_steal_pointer (&error));
        }
      tw_trace_cache_set_limit (cache, bytes);
    }
  return strcmp (argv[1], "list") == 0 ? cache_list (cache) : cache_clear (cache);
}
