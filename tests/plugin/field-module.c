/* field-module.c: an evaluation module that reads event fields through the host
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For every switch it emits one measurement (task = the task switched out, begin = end
 * = the switch time) whose columns say what the field accessors returned: the number of
 * fields, the first letter of prev_state by name and by index (0 when absent), and the
 * value of a field that does not exist (-1 when the host said absent).
 */
#include <stdlib.h>
#include <string.h>

#include "tw-evaluator.h"

typedef struct {
  const TwEvaluatorHost *host;
  TwEvaluatorEvent       ev;
  double                 columns[4];
} Context;

static void *
field_context_new (void)
{
  return calloc (1, sizeof (Context));
}

static void
field_context_free (void *context)
{
  free (context);
}

static bool
field_bind (void                  *context,
            const TwEvaluatorHost *host,
            const uint32_t        *event_ids)
{
  ((Context *) context)->host = host;
  return event_ids[0] != TW_EVALUATOR_EVENT_ABSENT;
}

/* Fields are only valid during prepare: read them here, apply in commit. */
static bool
field_prepare (void                   *context,
               const TwEvaluatorEvent *event)
{
  Context *ctx = context;
  const TwEvaluatorHost *host = ctx->host;
  TwEvaluatorValue v;

  ctx->ev = *event;
  ctx->columns[0] = host->get_n_fields (host, event);
  ctx->columns[1] = host->get_field (host, event, "prev_state", &v) &&
                    v.type == TW_EVALUATOR_VALUE_STRING ? (double) v.v.s[0] : 0;
  ctx->columns[2] = host->get_field_at (host, event, 0, &v) &&
                    v.type == TW_EVALUATOR_VALUE_STRING ? (double) v.v.s[0] : 0;
  ctx->columns[3] = host->get_field (host, event, "no_such_field", &v) ? 1 : -1;
  return true;
}

static void
field_commit (void *context,
              bool  ok)
{
  Context *ctx = context;
  TwEvaluatorMeasurement m;

  if (!ok)
    return;
  memset (&m, 0, sizeof m);
  m.task = ctx->ev.task;
  m.begin_ns = m.end_ns = ctx->ev.time_ns;
  m.columns = ctx->columns;
  m.n_columns = 4;
  ctx->host->emit_measurement (ctx->host, &m);
}

static const char *const event_names[] = { "kind:switch" };
static const char *const column_names[] = { "n_fields", "by_name", "by_index", "missing" };

static const TwEvaluatorModule field_module = {
  TW_EVALUATOR_ABI_VERSION,
  sizeof (TwEvaluatorModule),
  "fields",
  "reads switch fields through the host",
  event_names,
  1,
  0,
  column_names,
  4,
  0,
  field_context_new,
  field_context_free,
  field_bind,
  field_prepare,
  field_commit,
  NULL,
};

__attribute__ ((visibility ("default"))) const TwEvaluatorModule *tw_evaluator_module_get (unsigned abi_version);

__attribute__ ((visibility ("default"))) const TwEvaluatorModule *
tw_evaluator_module_get (unsigned abi_version)
{
  return abi_version == TW_EVALUATOR_ABI_VERSION ? &field_module : NULL;
}
