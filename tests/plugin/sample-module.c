/* sample-module.c: an evaluation module built outside the libraries (tw-evaluator.h only)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Measures interrupt handler durations per CPU, innermost entry to the exit of the same
 * irq number, and counts the events on that CPU in between: the same numbers as the
 * built-in irq-duration metric, computed by a plugin. Build variants for the tests:
 * -DSAMPLE_ABI_VERSION=N claims another ABI version, -DSAMPLE_NO_ENTRY_POINT exports
 * no entry point.
 */
#include <stdlib.h>
#include <string.h>

#include "tw-evaluator.h"

#ifndef SAMPLE_ABI_VERSION
# define SAMPLE_ABI_VERSION TW_EVALUATOR_ABI_VERSION
#endif

#define MAX_CPUS  256
#define MAX_DEPTH 16

enum { EV_ENTRY, EV_EXIT, N_EVENTS };

typedef struct {
  uint32_t irq;
  uint32_t task;
  uint64_t begin;
  uint64_t count_at;
} Open;

typedef struct {
  uint64_t count;
  unsigned depth;
  Open     open[MAX_DEPTH];
} Cpu;

typedef struct {
  const TwEvaluatorHost *host;
  uint32_t               ids[N_EVENTS];
  Cpu                    cpus[MAX_CPUS];
  /* prepared, applied at commit */
  TwEvaluatorEvent       ev;
  uint64_t               n_events;
} Context;

static void *
sample_context_new (void)
{
  return calloc (1, sizeof (Context));
}

static void
sample_context_free (void *context)
{
  free (context);
}

static bool
sample_bind (void                  *context,
             const TwEvaluatorHost *host,
             const uint32_t        *event_ids)
{
  Context *ctx = context;

  ctx->host = host;
  memcpy (ctx->ids, event_ids, sizeof ctx->ids);
  /* Without both ends there is nothing to measure. */
  return event_ids[EV_ENTRY] != TW_EVALUATOR_EVENT_ABSENT &&
         event_ids[EV_EXIT] != TW_EVALUATOR_EVENT_ABSENT;
}

static bool
sample_prepare (void                   *context,
                const TwEvaluatorEvent *event)
{
  Context *ctx = context;

  if (event->cpu >= MAX_CPUS)
    return false;
  ctx->ev = *event;
  return true;
}

static void
sample_commit (void *context,
               bool  ok)
{
  Context *ctx = context;
  Cpu *cpu;

  if (!ok)
    return;
  ctx->n_events++;
  cpu = &ctx->cpus[ctx->ev.cpu];

  if (ctx->ev.event_id == ctx->ids[EV_ENTRY])
    {
      if (cpu->depth == MAX_DEPTH)
        {
          memmove (cpu->open, cpu->open + 1, (MAX_DEPTH - 1) * sizeof (Open));
          cpu->depth--;
        }
      cpu->open[cpu->depth].irq = ctx->ev.arg;
      cpu->open[cpu->depth].task = ctx->ev.task;
      cpu->open[cpu->depth].begin = ctx->ev.time_ns;
      cpu->open[cpu->depth].count_at = cpu->count;
      cpu->depth++;
    }
  else if (ctx->ev.event_id == ctx->ids[EV_EXIT])
    {
      for (unsigned d = cpu->depth; d-- > 0;)
        if (cpu->open[d].irq == ctx->ev.arg)
          {
            double irq = cpu->open[d].irq;
            TwEvaluatorMeasurement m;

            memset (&m, 0, sizeof m);
            m.task = cpu->open[d].task;
            m.begin_ns = cpu->open[d].begin;
            m.end_ns = ctx->ev.time_ns;
            m.length_ns = m.end_ns - m.begin_ns;
            m.intermediate_events = (uint32_t) (cpu->count - cpu->open[d].count_at - 1);
            m.columns = &irq;
            m.n_columns = 1;
            ctx->host->emit_measurement (ctx->host, &m);
            cpu->depth = d;
            break;
          }
    }
  cpu->count++;
}

static void
sample_finish (void *context)
{
  Context *ctx = context;

  /* One value besides the measurements: how many events the module saw. */
  ctx->host->emit_value (ctx->host, (double) ctx->n_events);
}

static const char *const event_names[N_EVENTS] = { "kind:irq_entry", "kind:irq_exit" };
static const char *const column_names[] = { "irq" };

static const TwEvaluatorModule sample_module = {
  SAMPLE_ABI_VERSION,
  sizeof (TwEvaluatorModule),
  "sample-irq",
  "irq handler durations (sample external module)",
  event_names,
  N_EVENTS,
  TW_EVALUATOR_FLAG_ALL_EVENTS,
  column_names,
  1,
  0,
  sample_context_new,
  sample_context_free,
  sample_bind,
  sample_prepare,
  sample_commit,
  sample_finish,
};

#ifndef SAMPLE_NO_ENTRY_POINT
__attribute__ ((visibility ("default"))) const TwEvaluatorModule *tw_evaluator_module_get (unsigned abi_version);

__attribute__ ((visibility ("default"))) const TwEvaluatorModule *
tw_evaluator_module_get (unsigned abi_version)
{
  (void) abi_version;
  /* A real module would return NULL for a version it cannot serve; this one reports
   * what it was built for and lets the host decide (the tests rely on that). */
  return &sample_module;
}

#ifdef SAMPLE_BAD_BATCH
/* The optional batch entry, broken: a description without its process function. */
static const TwEvaluatorBatchFuncs sample_bad_batch = {
  TW_EVALUATOR_ABI_VERSION,
  sizeof (TwEvaluatorBatchFuncs),
  NULL,
};

__attribute__ ((visibility ("default"))) const TwEvaluatorBatchFuncs *
tw_evaluator_module_get_batch (const TwEvaluatorModule *module, unsigned abi_version);

__attribute__ ((visibility ("default"))) const TwEvaluatorBatchFuncs *
tw_evaluator_module_get_batch (const TwEvaluatorModule *module, unsigned abi_version)
{
  (void) abi_version;
  return module == &sample_module ? &sample_bad_batch : NULL;
}
#endif
#else
__attribute__ ((visibility ("default"))) int sample_not_an_entry_point (void);

__attribute__ ((visibility ("default"))) int
sample_not_an_entry_point (void)
{
  return (int) sample_module.n_columns;
}
#endif
