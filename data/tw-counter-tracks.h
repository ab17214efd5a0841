/* tw-counter-tracks.h: sampled numeric series of a trace (CPU load, memory)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

typedef enum {
  TW_COUNTER_CPU_LOAD,   /* a TW_FIELD_FLAG_CPU_LOAD field, 0..100 % */
  TW_COUNTER_MEMORY,     /* a TW_FIELD_FLAG_MEMORY_USED field, bytes (scale: the largest
                          * TW_FIELD_FLAG_MEMORY_TOTAL seen) */
} TwCounterKind;

/* Which time a sample stands for. A rate (CPU load: the busy share of the interval that
 * ends at the sample) covers (previous sample, sample]; a level (memory in use) holds
 * from its sample until the next one. */
typedef enum {
  TW_COUNTER_HOLD_BACKWARD,
  TW_COUNTER_HOLD_FORWARD,
} TwCounterHold;

/**
 * TwCounterTrack:
 *
 * One series: the samples of one task of one counter type, sorted by time.
 */
typedef struct {
  TwCounterKind  kind;
  TwCounterHold  hold;
  guint32        task;       /* the sampler's task (libgtop's "gtop:cpu/N", "gtop:memory") */
  guint16        cpu;        /* the CPU of a load track, TW_CPU_NONE otherwise */
  double         scale_max;  /* top of the graph: 100 for load, the total for memory */
  const char    *unit;       /* "%" or "B" (static) */
} TwCounterTrack;

#define TW_TYPE_COUNTER_TRACKS (tw_counter_tracks_get_type ())
G_DECLARE_FINAL_TYPE (TwCounterTracks, tw_counter_tracks, TW, COUNTER_TRACKS, GObject)

TwCounterTracks      *tw_counter_tracks_new            (TwTrace         *trace);
gboolean              tw_counter_tracks_update         (TwCounterTracks *self);
guint                 tw_counter_tracks_get_n_tracks   (TwCounterTracks *self);
const TwCounterTrack *tw_counter_tracks_get_track      (TwCounterTracks *self,
                                                        guint            track);
char                 *tw_counter_tracks_dup_label      (TwCounterTracks *self,
                                                        guint            track);
gsize                 tw_counter_tracks_get_n_samples  (TwCounterTracks *self,
                                                        guint            track);
void                  tw_counter_tracks_get_sample     (TwCounterTracks *self,
                                                        guint            track,
                                                        gsize            sample,
                                                        guint64         *time_ns,
                                                        double          *value,
                                                        guint64         *event);
gsize                 tw_counter_tracks_lower_bound    (TwCounterTracks *self,
                                                        guint            track,
                                                        guint64          time_ns);
gboolean              tw_counter_tracks_get_covering   (TwCounterTracks *self,
                                                        guint            track,
                                                        guint64          begin_ns,
                                                        guint64          end_ns,
                                                        gsize           *first,
                                                        gsize           *end);
gboolean              tw_counter_tracks_get_extent     (TwCounterTracks *self,
                                                        guint            track,
                                                        gsize            first,
                                                        gsize            end,
                                                        double          *min,
                                                        double          *max);
gboolean              tw_counter_tracks_get_value_at   (TwCounterTracks *self,
                                                        guint            track,
                                                        guint64          time_ns,
                                                        gsize           *sample);
void                  tw_counter_tracks_get_span       (TwCounterTracks *self,
                                                        guint            track,
                                                        gsize            sample,
                                                        guint64         *begin_ns,
                                                        guint64         *end_ns);
char                 *tw_counter_format_value          (const TwCounterTrack *track,
                                                        double                value);

G_END_DECLS
