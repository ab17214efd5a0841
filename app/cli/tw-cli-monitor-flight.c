/* tw-cli-monitor-flight.c: `tracewb-cli monitor --flight`: keep the last rows, save a window per trigger
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A flight recorder runs for days and keeps only the last N seconds (or N MB) of the
 * merged store; when a trigger fires (a measurement of a metric or an automaton,
 * optionally over a threshold) the rows from N seconds before it to M seconds after it
 * become a CTF recording of their own. The store's rows keep their indexes: the rows
 * before the retained ones are forgotten here and their chunks' memory is given back
 * to the kernel (tw_trace_release_before), so the evaluators keep running forward over
 * one growing store, with their state, exactly as without --flight.
 *
 * Triggers live in app/ for the same reason as the stream check: they join the
 * evaluators and the monitor, which may not see each other.
 */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <tw-evaluators.h>

#include "tw-cli-monitor-eval.h"
#include "tw-cli-monitor-flight.h"

/* A trigger's measurement table is emptied once it holds this many rows. */
#define TRIGGER_TABLE_ROWS 4096

typedef struct {
  char             *spec;
  TwCliMonitorEval *eval;
  gint64            threshold_ns;  /* fires above it; −1: on every measurement */
  gsize             seen;          /* rows of the table looked at */
  guint64           measurements;  /* looked at in all */
  guint64           fired;
} Trigger;

typedef struct {
  guint    index;          /* 1, 2, … */
  char    *trigger;        /* the spec of the trigger that opened it */
  guint64  trigger_ns;     /* when it fired (the measurement's end) */
  guint64  begin_ns;
  guint64  end_ns;         /* the last trigger's time + M */
  guint    n_triggers;     /* triggers merged into it */
  /* once saved */
  char    *path;
  guint64  n_events;
  guint64  first_ns;
  guint64  last_ns;
} Window;

typedef struct {
  guint64  time_ns;
  Trigger *trigger;
} Fire;

struct _TwCliFlight {
  TwMonitor *monitor;
  TwTrace   *trace;
  guint64    span_ns;      /* keep the last N ns, or (0) … */
  guint64    span_bytes;   /* … the last N bytes of store */
  guint64    after_ns;
  char      *dir;
  GPtrArray *triggers;     /* Trigger* */
  GPtrArray *open;         /* Window* waiting for their M seconds after, in time order */
  GPtrArray *saved;        /* Window* */
  guint64    first_kept;   /* rows below it are forgotten */
  guint64    released;     /* rows below it gave their memory back */
  guint64    last_ns;      /* the latest row time seen */
  guint64    saved_until;  /* the end of the last saved window: recordings never overlap */
  guint      n_windows;
  gsize      peak_bytes;
};

static void
trigger_free (gpointer data)
{
  Trigger *trigger = data;

  g_clear_pointer (&trigger->eval, tw_cli_monitor_eval_free);
  g_free (trigger->spec);
  g_free (trigger);
}

static void
window_free (gpointer data)
{
  Window *window = data;

  g_free (window->trigger);
  g_free (window->path);
  g_free (window);
}

/* "100us", "5ms", "1.5s": a bare number is refused (a threshold off by a thousand
 * would fire on everything or never). */
static gboolean
parse_time_ns (const char *text,
               double     *ns)
{
  char *end;
  double value = g_ascii_strtod (text, &end);
  double scale;

  if (end == text || !isfinite (value) || value < 0 || !tw_time_unit_get_ns (end, &scale))
    return FALSE;
  *ns = value * scale;
  return TRUE;
}

/**
 * tw_cli_flight_parse_span:
 * @text: "30" or "30s" (seconds, "500ms" too), or "64MB" / "64MiB" (bytes of store)
 *
 * Exactly one of @span_ns, @span_bytes is set non-zero.
 */
gboolean
tw_cli_flight_parse_span (const char  *text,
                          guint64     *span_ns,
                          guint64     *span_bytes,
                          GError     **error)
{
  static const struct { const char *unit; double bytes; } sizes[] = {
    { "MB", 1e6 }, { "MiB", 1048576 }, { "GB", 1e9 }, { "GiB", 1073741824 },
  };
  char *end;
  double value = g_ascii_strtod (text, &end), ns;

  *span_ns = *span_bytes = 0;
  if (end != text && *end == '\0' && value > 0 && value < 1e9)
    {
      *span_ns = (guint64) llround (value * 1e9);
      return TRUE;
    }
  if (parse_time_ns (text, &ns) && ns >= 1 && ns < 1e18)
    {
      *span_ns = (guint64) llround (ns);
      return TRUE;
    }
  for (guint i = 0; end != text && value > 0 && i < G_N_ELEMENTS (sizes); i++)
    if (strcmp (end, sizes[i].unit) == 0)
      {
        *span_bytes = (guint64) llround (value * sizes[i].bytes);
        return TRUE;
      }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
               "--flight “%s”: expected the time to keep (30, 30s, 500ms) or the store size (64MB, 64MiB)",
               text);
  return FALSE;
}

/* "metric:NAME[:PARAM][>TIME]", "automaton:FILE.json[>TIME]", "plugin:M.so[>TIME]" */
static Trigger *
trigger_new (TwTrace     *trace,
             const char  *spec,
             GError     **error)
{
  const char *gt = strrchr (spec, '>');
  g_autofree char *what = gt ? g_strndup (spec, (gsize) (gt - spec)) : g_strdup (spec);
  g_autoptr (TwCliMonitorEval) eval = NULL;
  Trigger *trigger;
  double threshold = -1;

  if (gt && !parse_time_ns (gt + 1, &threshold))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   "--trigger “%s”: “%s” is not a time with its unit (100us, 5ms, 1s)", spec, gt + 1);
      return NULL;
    }
  if (g_str_has_prefix (what, "metric:") && what[7])
    eval = tw_cli_monitor_eval_new (trace, what + 7, NULL, NULL, error);
  else if (g_str_has_prefix (what, "automaton:") && what[10])
    eval = tw_cli_monitor_eval_new (trace, NULL, what + 10, NULL, error);
  else if (g_str_has_prefix (what, "plugin:") && what[7])
    eval = tw_cli_monitor_eval_new (trace, NULL, NULL, what + 7, error);
  else
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                 "--trigger “%s”: expected metric:NAME[:PARAM][>TIME], automaton:FILE.json[>TIME] "
                 "or plugin:M.so[>TIME]", spec);
  if (eval == NULL)
    {
      g_prefix_error (error, "--trigger: ");
      return NULL;
    }
  trigger = g_new0 (Trigger, 1);
  trigger->spec = g_strdup (spec);
  trigger->eval = g_steal_pointer (&eval);
  trigger->threshold_ns = threshold < 0 ? -1 : (gint64) llround (threshold);
  return trigger;
}

/**
 * tw_cli_flight_new:
 * @span_ns: keep the last @span_ns of rows, or 0 and …
 * @span_bytes: … keep the last @span_bytes of store (whole chunks of TW_CHUNK_SIZE rows)
 * @after_ns: how long a recording goes on after its last trigger
 * @dir: where recordings go (made when missing)
 * @triggers: specs (trigger_new)
 *
 * Returns: (transfer full) (nullable): %NULL with @error naming the trigger or folder
 */
TwCliFlight *
tw_cli_flight_new (TwMonitor          *monitor,
                   guint64             span_ns,
                   guint64             span_bytes,
                   guint64             after_ns,
                   const char         *dir,
                   const char * const *triggers,
                   GError            **error)
{
  g_autoptr (TwCliFlight) self = g_new0 (TwCliFlight, 1);

  g_return_val_if_fail ((span_ns > 0) != (span_bytes > 0), NULL);

  self->monitor = g_object_ref (monitor);
  self->trace = g_object_ref (tw_monitor_get_trace (monitor));
  self->span_ns = span_ns;
  self->span_bytes = span_bytes;
  self->after_ns = after_ns;
  self->dir = g_strdup (dir);
  self->triggers = g_ptr_array_new_with_free_func (trigger_free);
  self->open = g_ptr_array_new_with_free_func (window_free);
  self->saved = g_ptr_array_new_with_free_func (window_free);
  for (guint i = 0; triggers && triggers[i]; i++)
    {
      Trigger *trigger = trigger_new (self->trace, triggers[i], error);

      if (trigger == NULL)
        return NULL;
      g_ptr_array_add (self->triggers, trigger);
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", dir, g_strerror (errsv));
      return NULL;
    }
  return g_steal_pointer (&self);
}

/* The first row at or after @time_ns among the retained ones (the store is in time
 * order but for late rows, which the merge counts). */
static guint64
lower_bound (TwCliFlight *self,
             guint64      time_ns,
             guint64      n)
{
  guint64 lo = self->first_kept, hi = n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (tw_trace_get_time (self->trace, mid) < time_ns)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Bytes of store chunk @c holds (its published rows and payloads). */
static gsize
chunk_bytes (TwTrace *trace,
             guint    c)
{
  const TwEventChunk *chunk = tw_trace_get_chunk (trace, c);

  return (gsize) chunk->n * 24 + chunk->blob_len;
}

/* By size, a window starts at the oldest whole chunk from which the chunks up to the
 * trigger's own fit in the size (that one always counts): what the recorder keeps for
 * the trigger, whether the poll that brought it brought later rows too or not. */
static guint64
size_window_first (TwCliFlight *self,
                   guint64      time_ns,
                   guint64      n)
{
  guint64 at = MIN (lower_bound (self, time_ns, n), n - 1), first = self->first_kept;
  guint c = (guint) (first >> TW_CHUNK_SHIFT), last = (guint) (at >> TW_CHUNK_SHIFT);
  gsize bytes = 0;

  for (guint k = c; k <= last; k++)
    bytes += chunk_bytes (self->trace, k);
  while (c < last && bytes > self->span_bytes)
    {
      bytes -= chunk_bytes (self->trace, c);
      first = (guint64) ++c << TW_CHUNK_SHIFT;
    }
  return first;
}

/* A trigger while a window is open (its M seconds after not yet stored) extends that
 * window; one whose N seconds before reach into a saved recording starts where that one
 * ended. Recordings never overlap. */
static void
fire (TwCliFlight *self,
      Trigger     *trigger,
      guint64      time_ns)
{
  Window *last = self->open->len ? self->open->pdata[self->open->len - 1] : NULL;
  guint64 begin, n = tw_trace_get_n_events (self->trace);

  if (self->span_ns)
    begin = time_ns > self->span_ns ? time_ns - self->span_ns : 0;
  else
    begin = self->first_kept < n ? tw_trace_get_time (self->trace, size_window_first (self, time_ns, n)) : time_ns;
  if (self->saved->len > 0)
    begin = MAX (begin, self->saved_until + 1);
  trigger->fired++;
  if (last && begin <= last->end_ns)
    {
      last->end_ns = MAX (last->end_ns, time_ns + self->after_ns);
      last->n_triggers++;
      return;
    }
  last = g_new0 (Window, 1);
  last->index = ++self->n_windows;
  last->trigger = g_strdup (trigger->spec);
  last->trigger_ns = time_ns;
  last->begin_ns = begin;
  last->end_ns = time_ns + self->after_ns;
  last->n_triggers = 1;
  g_ptr_array_add (self->open, last);
}

static int
compare_fires (gconstpointer a,
               gconstpointer b)
{
  const Fire *x = a, *y = b;

  return (x->time_ns > y->time_ns) - (x->time_ns < y->time_ns);
}

/* New measurements of every trigger, fired in time order so that merging sees them so. */
static gboolean
collect_fires (TwCliFlight  *self,
               gboolean      final,
               GError      **error)
{
  g_autoptr (GArray) fires = g_array_new (FALSE, FALSE, sizeof (Fire));

  for (guint i = 0; i < self->triggers->len; i++)
    {
      Trigger *trigger = self->triggers->pdata[i];
      TwMeasurementTable *table;
      gsize n;

      if (!tw_cli_monitor_eval_advance (trigger->eval, final, error))
        {
          g_prefix_error (error, "--trigger %s: ", trigger->spec);
          return FALSE;
        }
      table = tw_cli_monitor_eval_get_table (trigger->eval);
      n = tw_measurement_table_get_n_rows (table);
      for (; trigger->seen < n; trigger->seen++)
        {
          const TwMeasurementRow *row = tw_measurement_table_get_row (table, trigger->seen);

          trigger->measurements++;
          if (trigger->threshold_ns >= 0 && row->length <= (guint64) trigger->threshold_ns)
            continue;
          g_array_append_val (fires, ((Fire) { row->end, trigger }));
        }
      /* nothing reads a trigger's measurements again: kept, they would grow by a row
       * and a histogram value per measurement for as long as the recorder runs */
      if (n >= TRIGGER_TABLE_ROWS)
        {
          tw_cli_monitor_eval_forget (trigger->eval);
          trigger->seen = 0;
        }
    }
  g_array_sort (fires, compare_fires);
  for (guint i = 0; i < fires->len; i++)
    fire (self, g_array_index (fires, Fire, i).trigger, g_array_index (fires, Fire, i).time_ns);
  return TRUE;
}

static gboolean
save (TwCliFlight  *self,
      Window       *window,
      GError      **error)
{
  guint64 n = tw_trace_get_n_events (self->trace);
  guint64 first = lower_bound (self, window->begin_ns, n);
  guint64 end = lower_bound (self, window->end_ns + 1, n);
  g_autofree char *name = g_strdup_printf ("flight-%04u-%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT "s",
                                           window->index, window->trigger_ns / 1000000000,
                                           window->trigger_ns % 1000000000);

  window->path = g_build_filename (self->dir, name, NULL);
  if (!tw_ctf_writer_write_events_range (self->trace, first, end, window->path, NULL, error))
    return FALSE;
  window->n_events = end - first;
  window->first_ns = end > first ? tw_trace_get_time (self->trace, first) : 0;
  window->last_ns = end > first ? tw_trace_get_time (self->trace, end - 1) : 0;
  self->saved_until = window->end_ns;
  printf ("flight recording %u: %s  %" G_GUINT64_FORMAT " events  trigger %s at %" G_GUINT64_FORMAT
          " ns (%u merged)\n", window->index, window->path, window->n_events, window->trigger,
          window->trigger_ns, window->n_triggers);
  fflush (stdout);
  return TRUE;
}

/* Forgets the rows no window needs: older than N seconds before the latest row, or, by
 * size, whole chunks from the oldest while the rest is over the size. An open window
 * holds back its own rows. */
static void
trim (TwCliFlight *self)
{
  guint64 n = tw_trace_get_n_events (self->trace);
  guint64 hold_ns = self->open->len ? ((Window *) self->open->pdata[0])->begin_ns : G_MAXUINT64;

  if (n == 0)
    return;
  self->last_ns = MAX (self->last_ns, tw_trace_get_time (self->trace, n - 1));
  if (self->span_ns)
    {
      guint64 cutoff = self->last_ns > self->span_ns ? self->last_ns - self->span_ns : 0;

      self->first_kept = lower_bound (self, MIN (cutoff, hold_ns), n);
    }
  else
    {
      guint c = (guint) (self->first_kept >> TW_CHUNK_SHIFT), last = (guint) ((n - 1) >> TW_CHUNK_SHIFT);
      gsize bytes = 0;

      for (guint k = c; k <= last; k++)
        bytes += chunk_bytes (self->trace, k);
      while (c < last && bytes > self->span_bytes && tw_trace_get_chunk (self->trace, c)->last_time < hold_ns)
        {
          bytes -= chunk_bytes (self->trace, c);
          self->first_kept = (guint64) ++c << TW_CHUNK_SHIFT;
        }
    }
  self->released = tw_trace_release_before (self->trace, self->first_kept);
  self->peak_bytes = MAX (self->peak_bytes, tw_trace_get_memory_size (self->trace));
}

/**
 * tw_cli_flight_advance:
 * @final: the monitor stopped: save the open windows with the rows there are
 *
 * After each poll: evaluates the triggers over what it stored, saves the windows whose
 * M seconds after are all in the store, forgets the rows older than the span.
 *
 * Returns: %FALSE with @error when a trigger's evaluation stopped or a recording could
 *   not be written
 */
gboolean
tw_cli_flight_advance (TwCliFlight  *self,
                       gboolean      final,
                       GError      **error)
{
  guint64 complete = final ? G_MAXUINT64 : tw_monitor_get_emitted_until (self->monitor);

  if (!collect_fires (self, final, error))
    return FALSE;
  while (self->open->len > 0 && ((Window *) self->open->pdata[0])->end_ns <= complete)
    {
      Window *window = g_ptr_array_steal_index (self->open, 0);

      g_ptr_array_add (self->saved, window);
      if (!save (self, window, error))
        return FALSE;
    }
  trim (self);
  return TRUE;
}

static void
add_int (JsonBuilder *builder,
         const char  *name,
         guint64      value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, (gint64) value);
}

static void
report_json (TwCliFlight *self,
             JsonBuilder *builder)
{
  guint64 n = tw_trace_get_n_events (self->trace);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, "flight");
  add_int (builder, "span_ns", self->span_ns);
  add_int (builder, "span_bytes", self->span_bytes);
  add_int (builder, "after_ns", self->after_ns);
  add_int (builder, "events", n);
  add_int (builder, "retained_events", n - self->first_kept);
  add_int (builder, "retained_first_ns",
           self->first_kept < n ? tw_trace_get_time (self->trace, self->first_kept) : 0);
  add_int (builder, "released_events", self->released);
  add_int (builder, "store_bytes", tw_trace_get_memory_size (self->trace));
  add_int (builder, "peak_store_bytes", self->peak_bytes);
  json_builder_set_member_name (builder, "triggers");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->triggers->len; i++)
    {
      Trigger *trigger = self->triggers->pdata[i];

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "trigger");
      json_builder_add_string_value (builder, trigger->spec);
      add_int (builder, "fired", trigger->fired);
      add_int (builder, "measurements", trigger->measurements);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_int (builder, "recordings", self->saved->len);
  json_builder_set_member_name (builder, "saved");
  json_builder_begin_array (builder);
  for (guint i = 0; i < self->saved->len; i++)
    {
      Window *window = self->saved->pdata[i];

      json_builder_begin_object (builder);
      add_int (builder, "index", window->index);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, window->path);
      json_builder_set_member_name (builder, "trigger");
      json_builder_add_string_value (builder, window->trigger);
      add_int (builder, "trigger_ns", window->trigger_ns);
      add_int (builder, "triggers", window->n_triggers);
      add_int (builder, "begin_ns", window->begin_ns);
      add_int (builder, "end_ns", window->end_ns);
      add_int (builder, "events", window->n_events);
      add_int (builder, "first_ns", window->first_ns);
      add_int (builder, "last_ns", window->last_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

/**
 * tw_cli_flight_report:
 * @builder: (nullable): a JSON array being built; %NULL: text on stderr
 */
void
tw_cli_flight_report (TwCliFlight *self,
                      JsonBuilder *builder)
{
  guint64 fired = 0;

  if (builder)
    {
      report_json (self, builder);
      return;
    }
  for (guint i = 0; i < self->triggers->len; i++)
    fired += ((Trigger *) self->triggers->pdata[i])->fired;
  g_printerr ("flight: %u recording(s) in %s, %" G_GUINT64_FORMAT " trigger(s) fired; kept %" G_GUINT64_FORMAT
              " of %" G_GUINT64_FORMAT " events, store %" G_GSIZE_FORMAT " bytes (peak %" G_GSIZE_FORMAT ")\n",
              self->saved->len, self->dir, fired, tw_trace_get_n_events (self->trace) - self->first_kept,
              tw_trace_get_n_events (self->trace), tw_trace_get_memory_size (self->trace), self->peak_bytes);
}

void
tw_cli_flight_free (TwCliFlight *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->triggers, g_ptr_array_unref);
  g_clear_pointer (&self->open, g_ptr_array_unref);
  g_clear_pointer (&self->saved, g_ptr_array_unref);
  g_clear_object (&self->trace);
  g_clear_object (&self->monitor);
  g_free (self->dir);
  g_free (self);
}
