/* tw-span.h: one interval of the state model that a user picked
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <tw-data.h>

G_BEGIN_DECLS

/* A run on a CPU (TW_SERIES_CPU_RUNS, id = CPU), a handler on a CPU (TW_SERIES_CPU_IRQS,
 * id = CPU) or a task's state (TW_SERIES_TASK_STATES, id = task): element @index of that
 * series, over [@begin, @end). */
typedef struct {
  TwSeries series;
  guint32  id;
  gsize    index;
  guint64  begin;
  guint64  end;
} TwSpanRef;

#define TW_TYPE_SPAN_REF (tw_span_ref_get_type ())

GType      tw_span_ref_get_type (void) G_GNUC_CONST;
TwSpanRef *tw_span_ref_copy     (const TwSpanRef *span);
void       tw_span_ref_free     (TwSpanRef       *span);
gboolean   tw_span_ref_equal    (const TwSpanRef *a,
                                 const TwSpanRef *b);

/* Called once per line of a description: what it is, and its value. */
typedef void (*TwSpanFieldFunc) (const char *name,
                                 const char *value,
                                 gpointer    user_data);

char      *tw_span_ref_dup_title (const TwSpanRef *span,
                                  TwStateModel    *model);
void       tw_span_ref_describe  (const TwSpanRef *span,
                                  TwStateModel    *model,
                                  TwSpanFieldFunc  func,
                                  gpointer         user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TwSpanRef, tw_span_ref_free)

G_END_DECLS
