/* tw-state-model-private.h: the state model's arrays, for its image in the trace cache
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-state-model.h"

#include "tw-huge-array.h"

G_BEGIN_DECLS

/*
 * A series is an array sorted by start time plus its level-of-detail index: the start of
 * every 8th element (l1) and of every 64th of those (l2). Painters search a series once
 * per pixel column; over arrays of hundreds of MB each step of a plain binary search is a
 * cache miss, while the index keeps the search in a few cache lines (the last step reads
 * 8 elements, three lines). l1 costs one byte per element.
 */
#define L1_SHIFT 3
#define L1_MASK  ((1u << L1_SHIFT) - 1)
#define L2_SHIFT 6
#define L2_MASK  ((1u << L2_SHIFT) - 1)

/*
 * Bins: pre-aggregated TwSummary of a series over a fixed time grid, so that a frame of a
 * wide view reads O(pixels) summaries in memory order instead of searching hundreds of
 * MB per pixel column. Level 0 has bins of 2^shift ns (one per 8 to 16 elements),
 * each level above combines 4 bins of the one below. A bin holds the summary of every
 * element that meets it; summaries combine associatively (first task, OR of bits), so
 * the bins of a time range add up to exactly the summary of the range.
 *
 * Painters ask for pixel columns. When a level has bins no wider than a column, each
 * column boundary is rounded up to that level's grid (a shift of less than a pixel,
 * like the rounding of any edge to pixels) and the column is the sum of its bins; the exact path computes the
 * same rounded columns from the elements, so both agree to the bit.
 *
 * Bins are built at the end of tw_state_model_update() and stay valid before
 * @valid_until: the first time an element that can still change (an open run, state
 * or handler) or a later one can touch. Columns after it are computed from the
 * elements; the bins are rebuilt once that tail holds more than an eighth of them.
 */
#define BINS_MIN_ELEMENTS 1024
#define BINS_ELEMENT_SHIFT 3
#define BINS_MAX_LEVELS   32

typedef struct {
  guint64      origin;
  guint64      valid_until;
  guint        shift;
  guint        n_levels;
  gsize        len[BINS_MAX_LEVELS];
  TwSummary   *level[BINS_MAX_LEVELS]; /* into @storage */
  TwHugeArray  storage;                /* TwSummary: every level, one after the other */
} Bins;

/*
 * Every array that grows with the events is a TwHugeArray, the side arrays too: past
 * 1 MiB they leave malloc's 4 KiB pages, whose first touch costs a trap per page on
 * virtual machines, more than the work that fills them (see tw-huge-array.c).
 */
typedef struct {
  TwHugeArray items;   /* elements: big series grow in place on huge pages */
  TwHugeArray l1;      /* guint64 */
  TwHugeArray l2;      /* guint64 */
  Bins       *bins;    /* NULL while the series is short */
  TwHugeArray kinds;   /* marks only, guint8: TW_SUMMARY_MARK_* (TW_SUMMARY_CPU_MARK_*
                        * on CPUs) of each, so that drawing them never reads the store */
  TwHugeArray parents; /* irqs only, guint32: index of the enclosing handler, or
                        * G_MAXUINT32: finds the handlers open at a time in O(depth) */
} Series;

typedef struct {
  Series    runs;       /* TwRunInterval */
  Series    irqs;       /* TwIrqInterval */
  Series    marks;      /* TwCpuMark */
  GArray   *irq_stack;  /* guint: indexes into irqs of open handlers, innermost last */
  gboolean  run_open;
  guint64   n_repairs;  /* repair marks in @marks */
} CpuState;

typedef struct {
  Series    states;     /* TwTaskInterval */
  Series    marks;      /* TwTaskMark */
  gboolean  open;
  guint64   cpu_time;   /* ns RUNNING in closed intervals */
} TaskState;

typedef struct {
  TwEventKind        kind;
  int                prev_state_field; /* -1 when the type has none */
  const TwEventType *type;             /* NULL when the trace has no such type */
} TypeInfo;

struct _TwStateModel
{
  GObject     parent_instance;

  TwTrace    *trace;
  guint64     n_processed;
  guint64     end_event;   /* events from here on are not processed: a window */
  gboolean    whole;       /* from the first event, not a window */
  guint64     last_time;
  GPtrArray  *cpus;        /* CpuState */
  GPtrArray  *tasks;       /* TaskState, index = task index */
  GArray     *types;       /* TypeInfo, index = type index */
  /* Per-event lookups resolved once per update rather than per event: */
  GByteArray *tracked;     /* index = task: 1 when is_tracked_task(), as the task table
                            * said when the update began */
  GByteArray *prev_states; /* index = string id: 1 + TwTaskState the string names as a
                            * prev_state, 0 while not yet looked at */
  GBytes     *image;       /* the cache file's section the arrays borrow, or NULL */
};

/* tw-state-model.c, for tw-state-model-image.c */
void      _tw_state_model_series_init (Series         *series,
                                       gsize           element_size);
CpuState *_tw_state_model_add_cpu     (TwStateModel   *self,
                                       guint           cpu);
TaskState *_tw_state_model_add_task   (TwStateModel   *self,
                                       guint32         task);

/* tw-state-model-image.c: the built model as a section of a cache file, and back */
gboolean  _tw_state_model_write_image (TwStateModel   *self,
                                       int             fd,
                                       guint64         at,
                                       guint64        *bytes,
                                       GError        **error);
gboolean  _tw_state_model_check_image (TwTrace        *trace,
                                       GBytes         *image,
                                       GError        **error);
void      _tw_state_model_adopt_image (TwStateModel   *self,
                                       GBytes         *image);

G_END_DECLS
