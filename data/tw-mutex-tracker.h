/* tw-mutex-tracker.h: each mutex's owner and waiters at a time (the meta-mutex of
 * Valpereiro 2006, POSIX trace based behavioural reflection)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-trace.h"

G_BEGIN_DECLS

/**
 * TwMutexState:
 *
 * Valpereiro and Pinho, *POSIX Trace Based Behavioural Reflection* (Ada-Europe 2006), §4.3,
 * Fig. 5 (Meta_Mutex): the owner and the blocked
 * tasks of one mutex, reified from the trace's MUTEX_LOCK / MUTEX_UNLOCK / MUTEX_WAIT events.
 */
typedef struct {
  guint32  mutex;       /* mutex id: the event's arg column */
  guint32  owner;       /* task index, TW_TASK_NONE when free */
  guint64  owned_since; /* ns, time of the owner's lock; TW_TIME_NONE when free */
  GArray  *waiters;     /* guint32 task indexes, in the order they started waiting */
} TwMutexState;

typedef struct _TwMutexTracker TwMutexTracker;

TwMutexTracker     *tw_mutex_tracker_new          (TwTrace        *trace);
void                tw_mutex_tracker_free         (TwMutexTracker *self);
gboolean            tw_mutex_tracker_has_mutexes  (TwMutexTracker *self);
void                tw_mutex_tracker_advance_to   (TwMutexTracker *self,
                                                   guint64         time_ns);
guint               tw_mutex_tracker_get_n_mutexes (TwMutexTracker *self);
const TwMutexState *tw_mutex_tracker_get_mutex    (TwMutexTracker *self,
                                                   guint           i);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwMutexTracker, tw_mutex_tracker_free)

G_END_DECLS
