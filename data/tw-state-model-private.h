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
 * MB per pixel column. Level 0 has bins of 2^shift ns (4 to 16 elements each where a
 * series is even), each level above combines 4 bins of the one below. A bin holds the
 * summary of every element that meets it; summaries combine associatively (first task,
 * OR of bits), so the bins of a time range add up to exactly the summary of the range.
 *
 * Painters ask for pixel columns. When a level has bins no wider than a column, each
 * column boundary is rounded up to that level's grid (a shift of less than a pixel,
 * like the rounding of any edge to pixels) and the column is the sum of its bins; the
 * exact path computes the same rounded columns from the elements, so both agree to the
 * bit.
 *
 * Bins hold the elements that can no longer change: every run, state and mark of a
 * series but an open run or state (a prefix), every irq but the open handlers, which
 * are added when they close and summarized one by one until then (a handler whose exit
 * was lost can stay open for the rest of the trace). They stay valid before
 * @valid_until: the first time an element that can still change (or a later one) can
 * touch; columns after it are computed from the elements. The bins grow in place at the
 * end of every tw_state_model_update(): each element is added once, to the level-0 bins
 * it meets and to the bins above them, so that a model built in steps keeps its
 * uncovered tail to its open elements and pays for its bins once.
 *
 * The grid depends on the elements alone, never on how the updates were cut, so a
 * model built in steps has the bins (and draws the pixels) of one built at once. It
 * follows what the elements reach, in their order: their ends, or the starts of irqs
 * (an open handler's end is not known yet). It is
 * created at BINS_MIN_ELEMENTS elements, with the finest shift that covers them in
 * BINS_MIN_ELEMENTS >> BINS_ELEMENT_SHIFT bins; made 4 times coarser (level 0
 * dropped, level 1 becomes it) whenever an element would need more level-0 bins than
 * the series has elements >> BINS_ELEMENT_SHIFT; made again from the elements, finer,
 * when at a power-of-two count of elements the level-0 bins are BINS_REFINE times
 * fewer than that (a series dense after a sparse start). Level k + 1 has
 * ceil(len[k] / 4) bins, up to the first level of at most 4.
 */
#define BINS_MIN_ELEMENTS 1024
#define BINS_ELEMENT_SHIFT 2
#define BINS_REFINE       32
#define BINS_MAX_LEVELS   32

typedef struct {
  guint64      origin;
  guint64      valid_until;
  gsize        n_elements;               /* elements 0.. are in the bins */
  gsize        n_built;                  /* elements the grid was last fitted to */
  guint64      extent;                   /* from @origin, what the elements 0.. reach */
  guint        shift;
  guint        n_levels;
  TwHugeArray  level[BINS_MAX_LEVELS];   /* TwSummary; level k's bins are 4^k times wider */
} Bins;

#define BINS_LEVEL(bins, k) ((TwSummary *) (gpointer) (bins)->level[k].data)

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

/* A machine of a trace of several (tw_trace_get_n_hosts() > 1): its CPUs' runs and
 * irqs and its tasks' states still open close at its own last event, not at the
 * trace's, for a machine whose trace stopped earlier did nothing the trace saw after. */
typedef struct {
  const char *host;    /* interned */
  guint64     end;     /* ns, the latest event of its CPUs (or of its tasks, off-CPU) */
} HostEnd;

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
  /* Empty unless the trace names several hosts; resolved once per update like @tracked: */
  GArray     *host_ends;   /* HostEnd */
  GArray     *cpu_hosts;   /* guint16 per CPU: 1 + index into @host_ends, 0: no host */
  GArray     *task_hosts;  /* guint16 per task, the same */
};

/* tw-state-model.c, for tw-state-model-image.c */
void      _tw_state_model_series_init (Series         *series,
                                       gsize           element_size);
void      _tw_state_model_resume_bins (TwStateModel   *self);
CpuState *_tw_state_model_add_cpu     (TwStateModel   *self,
                                       guint           cpu);
TaskState *_tw_state_model_add_task   (TwStateModel   *self,
                                       guint32         task);

guint64   _tw_state_model_cpu_end     (TwStateModel   *self,
                                       guint           cpu);
guint64   _tw_state_model_task_end    (TwStateModel   *self,
                                       guint32         task);
void      _tw_state_model_refresh_hosts (TwStateModel *self);
void      _tw_state_model_set_cpu_end (TwStateModel   *self,
                                       guint           cpu,
                                       guint64         end);
void      _tw_state_model_set_task_end (TwStateModel  *self,
                                       guint32         task,
                                       guint64         end);

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
