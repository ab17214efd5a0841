/* tw-counter-tracks.c: sampled numeric series of a trace (CPU load, memory)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-counter-tracks.h"

#include <math.h>

/*
 * Samplers store counters as rows whose fields they flag (tw-types.h): the libgtop
 * sampler (ingest/tw-gtop-types.c) one row per CPU with its load and one row per sample
 * period with the memory in use. Views draw them as graphs, which needs the
 * samples of one CPU without the millions of other rows between them, and the minimum
 * and maximum over any range of samples without visiting each: a painter asks once per
 * pixel column. So every series keeps its samples (time, value, event index) in arrays
 * sorted by time plus a min/max pyramid with a fan-out of 16: level k holds the extent
 * of each block of 16^k samples, and a range query climbs it, O(16 · log16 n).
 *
 * Resumable like the state model: tw_counter_tracks_update() continues at the first
 * row it has not seen, reading only rows below the trace's published count, so a live
 * view pays for what arrived since the last frame. A sample that arrives out of order
 * (a live merge lets late rows through) is inserted where it belongs and that series'
 * pyramid is rebuilt; samples come every few hundred ms, so this stays cheap.
 */

#define FANOUT_SHIFT 4
#define FANOUT       (1u << FANOUT_SHIFT)
#define MAX_LEVELS   15   /* 16^15 samples: more than the store can hold */

typedef struct {
  double min;
  double max;
} Extent;

typedef struct {
  TwCounterTrack pub;
  GArray        *times;    /* guint64, ns, sorted */
  GArray        *values;   /* double */
  GArray        *events;   /* guint64 event index of each sample */
  GArray        *levels[MAX_LEVELS]; /* Extent; levels[k] summarises blocks of 16^(k+1) */
  guint          n_levels;
  GArray        *block_start; /* guint64: time of samples 0, 16, 32, …: the search index */
  gsize          hint;     /* where the last search ended: painters search left to right */
} Track;

typedef enum {
  TYPE_PLAIN = 0,
  TYPE_CPU_LOAD,
  TYPE_MEMORY,
} TypeRole;

typedef struct {
  guint8 role;             /* TypeRole */
  int    value_field;
  int    total_field;      /* memory: the field giving the graph's top, or -1 */
} TypeInfo;

struct _TwCounterTracks
{
  GObject     parent_instance;

  TwTrace    *trace;
  guint64     n_processed;
  guint64     last_time;   /* latest time of any processed row: where levels hold to */
  GArray     *types;       /* TypeInfo per event type */
  guint       n_counter_types;
  GPtrArray  *tracks;      /* Track */
  GHashTable *by_key;      /* (task << 1 | kind) → track index + 1 */
  /* In a trace of several machines, (interned host, guint64 latest time of its rows):
   * a level a host's sampler gave holds to where that host's trace stops. */
  GArray     *host_ends;
};

typedef struct {
  const char *host;
  guint64     end;
} HostEnd;

G_DEFINE_FINAL_TYPE (TwCounterTracks, tw_counter_tracks, G_TYPE_OBJECT)

static void
track_free (gpointer data)
{
  Track *track = data;

  g_array_unref (track->times);
  g_array_unref (track->values);
  g_array_unref (track->events);
  g_array_unref (track->block_start);
  for (guint k = 0; k < track->n_levels; k++)
    g_array_unref (track->levels[k]);
  g_free (track);
}

static void
tw_counter_tracks_finalize (GObject *object)
{
  TwCounterTracks *self = (TwCounterTracks *) object;

  g_clear_object (&self->trace);
  g_clear_pointer (&self->types, g_array_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  g_clear_pointer (&self->host_ends, g_array_unref);

  G_OBJECT_CLASS (tw_counter_tracks_parent_class)->finalize (object);
}

static void
tw_counter_tracks_class_init (TwCounterTracksClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_counter_tracks_finalize;
}

static void
tw_counter_tracks_init (TwCounterTracks *self)
{
  self->types = g_array_new (FALSE, TRUE, sizeof (TypeInfo));
  self->tracks = g_ptr_array_new_with_free_func (track_free);
  self->by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->host_ends = g_array_new (FALSE, FALSE, sizeof (HostEnd));
}

/**
 * tw_counter_tracks_new:
 *
 * Finds nothing yet: call tw_counter_tracks_update() to read the trace.
 *
 * Returns: (transfer full): the counter tracks of @trace
 */
TwCounterTracks *
tw_counter_tracks_new (TwTrace *trace)
{
  TwCounterTracks *self;

  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  self = g_object_new (TW_TYPE_COUNTER_TRACKS, NULL);
  self->trace = g_object_ref (trace);
  return self;
}

/* ---------------------------------------------------------------- the pyramid */

static double
level_value (const Track *track,
             guint        level,
             gsize        i,
             gboolean     want_max)
{
  const Extent *e;

  if (level == 0)
    return g_array_index (track->values, double, i);
  e = &g_array_index (track->levels[level - 1], Extent, i);
  return want_max ? e->max : e->min;
}

/* Sample @i (the last one) was appended: widen the blocks that hold it, and start a
 * level above the top one when the top one got its second entry. */
static void
pyramid_add (Track *track,
             gsize  i,
             double v)
{
  guint top_len;

  if ((i & (FANOUT - 1)) == 0)
    g_array_append_val (track->block_start, g_array_index (track->times, guint64, i));
  for (guint k = 0; k < track->n_levels; k++)
    {
      GArray *level = track->levels[k];
      gsize block = i >> (FANOUT_SHIFT * (k + 1));

      if (block == level->len)
        {
          Extent e = { v, v };
          g_array_append_val (level, e);
        }
      else
        {
          Extent *e = &g_array_index (level, Extent, block);
          e->min = MIN (e->min, v);
          e->max = MAX (e->max, v);
        }
    }

  top_len = track->n_levels == 0 ? track->values->len : track->levels[track->n_levels - 1]->len;
  if (top_len > 1 && track->n_levels < MAX_LEVELS)
    {
      Extent e = { INFINITY, -INFINITY };
      GArray *level = g_array_new (FALSE, FALSE, sizeof (Extent));

      for (guint j = 0; j < top_len; j++)
        {
          e.min = MIN (e.min, level_value (track, track->n_levels, j, FALSE));
          e.max = MAX (e.max, level_value (track, track->n_levels, j, TRUE));
        }
      g_array_append_val (level, e);
      track->levels[track->n_levels++] = level;
    }
}

static void
pyramid_rebuild (Track *track)
{
  for (guint k = 0; k < track->n_levels; k++)
    g_array_unref (track->levels[k]);
  track->n_levels = 0;
  g_array_set_size (track->block_start, 0);
  for (gsize i = 0; i < track->values->len; i++)
    pyramid_add (track, i, g_array_index (track->values, double, i));
}

/* ---------------------------------------------------------------- reading the trace */

static int
flagged_field (const TwEventType *type,
               TwFieldFlags       flag)
{
  for (guint f = 0; f < type->n_fields; f++)
    if (type->fields[f].flags & flag)
      return f;
  return -1;
}

/* A counter type is one with a field its sampler flagged as a CPU's load or the memory
 * in use (tw-types.h); the memory's total, when flagged, is the top of its graph. */
static TypeRole
classify_type (const TwEventType *type,
               TypeInfo          *info)
{
  info->total_field = -1;
  if ((info->value_field = flagged_field (type, TW_FIELD_FLAG_CPU_LOAD)) >= 0)
    return TYPE_CPU_LOAD;
  if ((info->value_field = flagged_field (type, TW_FIELD_FLAG_MEMORY_USED)) >= 0)
    {
      info->total_field = flagged_field (type, TW_FIELD_FLAG_MEMORY_TOTAL);
      return TYPE_MEMORY;
    }
  return TYPE_PLAIN;
}

/* Types can be added while live; every row below a published count has its type
 * registered already, so reading the type count after the row count covers them. */
static void
refresh_types (TwCounterTracks *self)
{
  guint n = tw_trace_get_n_event_types (self->trace);

  for (guint t = self->types->len; t < n; t++)
    {
      TypeInfo info = { 0 };

      info.role = classify_type (tw_trace_get_event_type (self->trace, (guint16) t), &info);
      if (info.role != TYPE_PLAIN)
        self->n_counter_types++;
      g_array_append_val (self->types, info);
    }
}

static gboolean
value_as_double (const TwValue *value,
                 double        *out)
{
  switch (value->type)
    {
    case TW_FIELD_U8:
    case TW_FIELD_U16:
    case TW_FIELD_U32:
    case TW_FIELD_U64:
      *out = (double) value->u;
      return TRUE;
    case TW_FIELD_I32:
    case TW_FIELD_I64:
      *out = (double) value->i;
      return TRUE;
    case TW_FIELD_F64:
      *out = value->f;
      return isfinite (value->f);
    case TW_FIELD_STRING:
    default:
      return FALSE;
    }
}

static gboolean
read_field (const TwEventType *type,
            const guint8      *payload,
            int                field,
            double            *out)
{
  TwValue value;

  return field >= 0 && payload != NULL
         && tw_event_type_get_field (type, payload, (guint) field, &value)
         && value_as_double (&value, out);
}

static Track *
ensure_track (TwCounterTracks *self,
              TypeRole         role,
              guint32          task,
              guint16          cpu)
{
  gint64 key = ((gint64) task << 1) | (role == TYPE_MEMORY);
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (self->by_key, &key));
  Track *track;
  gint64 *stored;

  if (index > 0)
    return g_ptr_array_index (self->tracks, index - 1);

  track = g_new0 (Track, 1);
  track->pub.kind = role == TYPE_MEMORY ? TW_COUNTER_MEMORY : TW_COUNTER_CPU_LOAD;
  track->pub.hold = role == TYPE_MEMORY ? TW_COUNTER_HOLD_FORWARD : TW_COUNTER_HOLD_BACKWARD;
  track->pub.task = task;
  track->pub.cpu = role == TYPE_MEMORY ? TW_CPU_NONE : cpu;
  track->pub.scale_max = role == TYPE_MEMORY ? 0 : 100;
  track->pub.unit = role == TYPE_MEMORY ? "B" : "%";
  track->times = g_array_new (FALSE, FALSE, sizeof (guint64));
  track->values = g_array_new (FALSE, FALSE, sizeof (double));
  track->events = g_array_new (FALSE, FALSE, sizeof (guint64));
  track->block_start = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_ptr_array_add (self->tracks, track);

  stored = g_new (gint64, 1);
  *stored = key;
  g_hash_table_insert (self->by_key, stored, GUINT_TO_POINTER (self->tracks->len));
  return track;
}

static void
add_sample (Track   *track,
            guint64  time,
            double   value,
            guint64  event)
{
  gsize n = track->times->len;
  gsize at = n;

  if (n > 0 && time < g_array_index (track->times, guint64, n - 1))
    {
      /* late row: after the last sample not later than it, as a stable sort would */
      gsize lo = 0, hi = n;

      while (lo < hi)
        {
          gsize mid = (lo + hi) / 2;

          if (g_array_index (track->times, guint64, mid) <= time)
            lo = mid + 1;
          else
            hi = mid;
        }
      at = lo;
    }

  g_array_insert_val (track->times, at, time);
  g_array_insert_val (track->values, at, value);
  g_array_insert_val (track->events, at, event);
  if (at == n)
    pyramid_add (track, n, value);
  else
    pyramid_rebuild (track);
}

static void
process_row (TwCounterTracks    *self,
             const TwEventChunk *chunk,
             guint               row,
             guint64             index)
{
  const TypeInfo *info = &g_array_index (self->types, TypeInfo, chunk->type[row]);
  const TwEventType *type = tw_trace_get_event_type (self->trace, chunk->type[row]);
  const guint8 *payload = chunk->payload[row] == TW_PAYLOAD_NONE ? NULL
                          : chunk->blob + chunk->payload[row];
  double value, total;
  Track *track;

  if (chunk->task[row] == TW_TASK_NONE || !read_field (type, payload, info->value_field, &value))
    return;
  track = ensure_track (self, info->role, chunk->task[row], chunk->cpu[row]);
  if (info->role == TYPE_MEMORY && read_field (type, payload, info->total_field, &total))
    track->pub.scale_max = MAX (track->pub.scale_max, total);
  else if (info->role == TYPE_MEMORY)
    track->pub.scale_max = MAX (track->pub.scale_max, value);
  add_sample (track, chunk->time[row], value, index);
  self->last_time = MAX (self->last_time, chunk->time[row]);
}

static HostEnd *
lookup_host_end (TwCounterTracks *self,
                 const char      *host)
{
  /* interned, and a handful of them */
  for (guint i = 0; i < self->host_ends->len; i++)
    if (g_array_index (self->host_ends, HostEnd, i).host == host)
      return &g_array_index (self->host_ends, HostEnd, i);
  return NULL;
}

/* Row @row's machine (its CPU's, or off-CPU its task's) saw something at its time. */
static void
note_host_time (TwCounterTracks    *self,
                const TwEventChunk *chunk,
                guint               row)
{
  const TwTask *task;
  const char *host = NULL;
  HostEnd *he;

  if (chunk->cpu[row] != TW_CPU_NONE)
    host = tw_trace_get_cpu_host (self->trace, chunk->cpu[row], NULL);
  else if ((task = tw_trace_get_task (self->trace, chunk->task[row])) != NULL)
    host = task->host;
  if (host == NULL)
    return;
  if ((he = lookup_host_end (self, host)) == NULL)
    {
      HostEnd added = { host, 0 };

      g_array_append_val (self->host_ends, added);
      he = &g_array_index (self->host_ends, HostEnd, self->host_ends->len - 1);
    }
  he->end = MAX (he->end, chunk->time[row]);
}

/* Where the last level of @t holds to: the latest row of its sampler's machine, or of
 * the trace. */
static guint64
track_end (TwCounterTracks *self,
           const Track     *t)
{
  const TwTask *task = tw_trace_get_task (self->trace, t->pub.task);
  const HostEnd *he;

  if (task == NULL || task->host == NULL || (he = lookup_host_end (self, task->host)) == NULL)
    return self->last_time;
  return he->end;
}

/**
 * tw_counter_tracks_update:
 *
 * Reads the rows the trace published since the last call (all of them the first
 * time). Call from one thread at a time, the one that reads the tracks.
 *
 * Returns: %TRUE when new tracks appeared (views lay out their rows again)
 */
gboolean
tw_counter_tracks_update (TwCounterTracks *self)
{
  guint n_tracks_before;
  guint64 n;
  gboolean hosts;

  g_return_val_if_fail (TW_IS_COUNTER_TRACKS (self), FALSE);

  n_tracks_before = self->tracks->len;
  n = tw_trace_get_n_events (self->trace);
  refresh_types (self);
  hosts = tw_trace_get_n_hosts (self->trace) > 1;

  /* Without counter types the rows hold nothing to read: do not read them (a trace
   * mapped from the cache checks each chunk when first read, seconds for 100 M events). */
  if (self->n_counter_types == 0 && self->n_processed < n)
    {
      self->last_time = MAX (self->last_time, tw_trace_get_time (self->trace, n - 1));
      self->n_processed = n;
    }

  while (self->n_processed < n)
    {
      guint64 i = self->n_processed;
      guint64 base = (i >> TW_CHUNK_SHIFT) << TW_CHUNK_SHIFT;
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, i >> TW_CHUNK_SHIFT);
      guint row = i & TW_CHUNK_MASK;
      guint end = (guint) MIN ((guint64) chunk->n, MIN (n - base, (guint64) TW_CHUNK_SIZE));

      if (self->n_counter_types > 0 && hosts)
        for (guint r = row; r < end; r++)
          note_host_time (self, chunk, r);
      if (self->n_counter_types > 0)
        for (; row < end; row++)
          if G_UNLIKELY (g_array_index (self->types, TypeInfo, chunk->type[row]).role != TYPE_PLAIN)
            process_row (self, chunk, row, base + row);

      /* Where a level held by the last sample ends: the latest row seen. A live chunk
       * may be slightly out of order; its last row is close enough to its latest. */
      if (end > 0)
        self->last_time = MAX (self->last_time, chunk->time[end - 1]);
      self->n_processed = base + end;
    }
  return self->tracks->len != n_tracks_before;
}

/* ---------------------------------------------------------------- queries */

static Track *
get_track (TwCounterTracks *self,
           guint            track)
{
  g_return_val_if_fail (TW_IS_COUNTER_TRACKS (self), NULL);
  g_return_val_if_fail (track < self->tracks->len, NULL);

  return g_ptr_array_index (self->tracks, track);
}

guint
tw_counter_tracks_get_n_tracks (TwCounterTracks *self)
{
  g_return_val_if_fail (TW_IS_COUNTER_TRACKS (self), 0);

  return self->tracks->len;
}

/**
 * tw_counter_tracks_get_track:
 *
 * Returns: (transfer none): the track's description; valid while @self lives
 *   (scale_max may grow at each update)
 */
const TwCounterTrack *
tw_counter_tracks_get_track (TwCounterTracks *self,
                             guint            track)
{
  Track *t = get_track (self, track);

  return t ? &t->pub : NULL;
}

/**
 * tw_counter_tracks_dup_label:
 *
 * Returns: (transfer full): "CPU 1 load", "Memory used"
 */
char *
tw_counter_tracks_dup_label (TwCounterTracks *self,
                             guint            track)
{
  Track *t = get_track (self, track);

  if (t == NULL)
    return NULL;
  if (t->pub.kind == TW_COUNTER_MEMORY)
    return g_strdup ("Memory used");
  if (t->pub.cpu != TW_CPU_NONE)
    return g_strdup_printf ("CPU %u load", t->pub.cpu);
  return g_strdup ("CPU load");
}

gsize
tw_counter_tracks_get_n_samples (TwCounterTracks *self,
                                 guint            track)
{
  Track *t = get_track (self, track);

  return t ? t->times->len : 0;
}

/**
 * tw_counter_tracks_get_sample:
 * @time_ns: (out) (optional): when the sample was taken
 * @value: (out) (optional): its value, in the track's unit
 * @event: (out) (optional): the event index of the sample's row
 */
void
tw_counter_tracks_get_sample (TwCounterTracks *self,
                              guint            track,
                              gsize            sample,
                              guint64         *time_ns,
                              double          *value,
                              guint64         *event)
{
  Track *t = get_track (self, track);

  g_return_if_fail (t != NULL && sample < t->times->len);

  if (time_ns)
    *time_ns = g_array_index (t->times, guint64, sample);
  if (value)
    *value = g_array_index (t->values, double, sample);
  if (event)
    *event = g_array_index (t->events, guint64, sample);
}

/* First index in [lo, n) of a sorted array whose value is ≥ @x, galloping forward from
 * @lo when the answer is known to be there, else a plain binary search over [0, n). */
static gsize
search_from (const guint64 *a,
             gsize          n,
             gsize          hint,
             guint64        x)
{
  gsize lo = 0, hi = n;

  hint = MIN (hint, n);
  if (hint < n && a[hint] < x)
    {
      gsize step = 1, bound = hint + 1;

      lo = hint + 1;
      while (bound < n && a[bound] < x)
        {
          lo = bound + 1;
          bound = lo + step;
          step <<= 1;
        }
      hi = MIN (bound, n);
    }
  else if (hint == 0 || a[hint - 1] < x)
    return hint;
  else
    {
      /* the answer is before the hint: gallop backward */
      gsize step = 1, bound = hint - 1;

      hi = hint - 1;
      while (bound > 0 && a[bound - 1] >= x)
        {
          hi = bound - 1;
          bound = hi > step ? hi - step : 0;
          step <<= 1;
        }
      lo = bound;
    }

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (a[mid] < x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Two steps: the block among the block start times (16 times smaller than the samples,
 * so mostly in cache), then the sample within the block (one or two cache lines). Each
 * gallops from where the previous search ended, so a painter's column after column
 * costs O(log distance). Over a recording of millions of samples the cost of a search
 * is its cache misses, and this keeps them to about two. */
static gsize
lower_bound (Track   *t,
             guint64  time_ns)
{
  const guint64 *times = (const guint64 *) t->times->data;
  gsize n = t->times->len;
  gsize block = search_from ((const guint64 *) t->block_start->data, t->block_start->len,
                             t->hint >> FANOUT_SHIFT, time_ns);
  gsize first, end;

  /* the answer is in block - 1, or it is the first sample of @block */
  if (block == 0)
    return t->hint = 0;
  first = (block - 1) << FANOUT_SHIFT;
  end = MIN (block << FANOUT_SHIFT, n);
  t->hint = first + search_from (times + first, end - first, 0, time_ns);
  return t->hint;
}

/**
 * tw_counter_tracks_lower_bound:
 *
 * Returns: the first sample taken at or after @time_ns; the number of samples when none
 */
gsize
tw_counter_tracks_lower_bound (TwCounterTracks *self,
                               guint            track,
                               guint64          time_ns)
{
  Track *t = get_track (self, track);

  return t ? lower_bound (t, time_ns) : 0;
}

/**
 * tw_counter_tracks_get_covering:
 * @first: (out): the first sample whose span meets [@begin_ns, @end_ns)
 * @end: (out): one past the last such sample
 *
 * The samples that describe some time of [@begin_ns, @end_ns): with backward hold, the
 * samples in the range and the first one after it; with forward hold, the last sample
 * before the range and those in it. The last sample of a forward-hold track holds until
 * the latest time the trace has shown so far. Two binary searches.
 *
 * Returns: %FALSE when no sample speaks for the range
 */
gboolean
tw_counter_tracks_get_covering (TwCounterTracks *self,
                                guint            track,
                                guint64          begin_ns,
                                guint64          end_ns,
                                gsize           *first,
                                gsize           *end)
{
  Track *t = get_track (self, track);
  gsize n, lo, hi;

  *first = *end = 0;
  if (t == NULL || (n = t->times->len) == 0 || end_ns <= begin_ns)
    return FALSE;

  /* begin before end: both searches then gallop forward from the previous column's */
  if (t->pub.hold == TW_COUNTER_HOLD_BACKWARD)
    {
      lo = lower_bound (t, begin_ns);
      hi = lower_bound (t, end_ns);
      /* sample hi covers (time[hi - 1], time[hi]], which starts inside the range */
      if (hi > 0 && hi < n)
        hi++;
    }
  else
    {
      guint64 last = g_array_index (t->times, guint64, n - 1);

      lo = lower_bound (t, begin_ns + 1);
      lo = lo > 0 ? lo - 1 : 0;
      hi = lower_bound (t, end_ns);
      if (lo == n - 1 && begin_ns >= MAX (track_end (self, t), last + 1))
        return FALSE;
    }
  if (lo >= hi)
    return FALSE;
  *first = lo;
  *end = hi;
  return TRUE;
}

/* Widens [*lo_v, *hi_v] by entries [a, b) of @level (0: the samples). */
static void
extent_add (const Track *t,
            guint        level,
            gsize        a,
            gsize        b,
            double      *lo_v,
            double      *hi_v)
{
  double mn = *lo_v, mx = *hi_v;

  if (level == 0)
    {
      const double *v = (const double *) t->values->data;

      for (gsize i = a; i < b; i++)
        {
          mn = MIN (mn, v[i]);
          mx = MAX (mx, v[i]);
        }
    }
  else
    {
      const Extent *e = (const Extent *) t->levels[level - 1]->data;

      for (gsize i = a; i < b; i++)
        {
          mn = MIN (mn, e[i].min);
          mx = MAX (mx, e[i].max);
        }
    }
  *lo_v = mn;
  *hi_v = mx;
}

/**
 * tw_counter_tracks_get_extent:
 * @min: (out): the smallest value of samples [@first, @end)
 * @max: (out): the largest
 *
 * O(16 · log16 n) through the track's min/max pyramid, whatever the range's length.
 *
 * Returns: %FALSE for an empty range
 */
gboolean
tw_counter_tracks_get_extent (TwCounterTracks *self,
                              guint            track,
                              gsize            first,
                              gsize            end,
                              double          *min,
                              double          *max)
{
  Track *t = get_track (self, track);
  double lo_v = INFINITY, hi_v = -INFINITY;
  gsize lo = first, hi;
  guint level = 0;

  if (t == NULL)
    return FALSE;
  hi = MIN (end, t->times->len);
  if (lo >= hi)
    return FALSE;

  while (lo < hi)
    {
      if (level < t->n_levels && hi - lo >= 2 * FANOUT)
        {
          /* the unaligned ends at this level, then whole blocks one level up */
          gsize lo_up = (lo + FANOUT - 1) & ~(gsize) (FANOUT - 1);
          gsize hi_down = hi & ~(gsize) (FANOUT - 1);

          extent_add (t, level, lo, lo_up, &lo_v, &hi_v);
          extent_add (t, level, hi_down, hi, &lo_v, &hi_v);
          lo = lo_up >> FANOUT_SHIFT;
          hi = hi_down >> FANOUT_SHIFT;
          level++;
          continue;
        }
      extent_add (t, level, lo, hi, &lo_v, &hi_v);
      break;
    }
  *min = lo_v;
  *max = hi_v;
  return TRUE;
}

/**
 * tw_counter_tracks_get_value_at:
 * @sample: (out): the sample whose span holds @time_ns
 *
 * Returns: %FALSE when no sample speaks for @time_ns
 */
gboolean
tw_counter_tracks_get_value_at (TwCounterTracks *self,
                                guint            track,
                                guint64          time_ns,
                                gsize           *sample)
{
  gsize end;

  return tw_counter_tracks_get_covering (self, track, time_ns, time_ns + 1, sample, &end);
}

/**
 * tw_counter_tracks_get_span:
 * @begin_ns: (out): where the time @sample speaks for begins
 * @end_ns: (out): where it ends
 */
void
tw_counter_tracks_get_span (TwCounterTracks *self,
                            guint            track,
                            gsize            sample,
                            guint64         *begin_ns,
                            guint64         *end_ns)
{
  Track *t = get_track (self, track);
  const guint64 *times;
  gsize n;

  g_return_if_fail (t != NULL && sample < t->times->len);

  times = (const guint64 *) t->times->data;
  n = t->times->len;
  if (t->pub.hold == TW_COUNTER_HOLD_BACKWARD)
    {
      *begin_ns = sample > 0 ? times[sample - 1] : times[sample];
      *end_ns = times[sample];
    }
  else
    {
      *begin_ns = times[sample];
      *end_ns = sample + 1 < n ? times[sample + 1] : MAX (track_end (self, t), times[sample]);
    }
}

/**
 * tw_counter_format_value:
 *
 * Returns: (transfer full): "57.3 %", "1.8 GiB"
 */
char *
tw_counter_format_value (const TwCounterTrack *track,
                         double                value)
{
  g_return_val_if_fail (track != NULL, NULL);

  if (track->kind == TW_COUNTER_MEMORY)
    return g_format_size_full ((guint64) MAX (value, 0), G_FORMAT_SIZE_IEC_UNITS);
  return g_strdup_printf ("%.1f %%", value);
}
