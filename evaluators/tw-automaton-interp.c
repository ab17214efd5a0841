/* tw-automaton-interp.c: the exact metric automaton interpreter (DESIGN §4)
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Binding turns the automaton into tables a C generator can emit as they are (the
 * automaton as indexes and the winning-transition rule are tw-automaton-tables.c's,
 * which the validator and the C generator use too):
 *
 *   symbol of an event type   every trace type maps to a symbol; types that the same set
 *                             of label names matches share one (symbol 0: no name)
 *   input class               bit 0: the event's task column is the instance's task;
 *                             bit 1: its arg column is (only for types whose arg is a
 *                             task and that a "task_field": "arg" label matches)
 *   next[state][symbol][class] target of the winning transition, or -1: no label
 *                             matches (ignored), or the winner is a self-loop on an
 *                             out, end or cancel state, a visit that changes nothing
 *                             because the visit that entered the state already closed
 *                             the segment, dropped the run and (end, cancel) the
 *                             measurement
 *   lambda_next[state]        the target of the state's λ exit, or -1
 *
 * Per event, the instance of the event's task gets class 1 (or 3), the instance named
 * by the arg column gets class 2, and every other instance class 0. Most instances
 * wait where class 0 gives -1, so instances are kept in per-state member lists and an
 * event only walks the lists of the states where class 0 of its symbol is not -1;
 * that gives the same results as feeding every instance (the differential test checks
 * it against a plain reading of DESIGN §4).
 */
#include "config.h"

#include "tw-automaton-interp-private.h"

#include "tw-automaton-tables-private.h"

#include <tw-pages.h>

#include <stdlib.h>

#define STATE_NONE G_MAXUINT32
#define POS_NONE   G_MAXUINT32

enum {
  HAS_MEASUREMENT = 1 << 0,
  HAS_SEGMENT     = 1 << 1,
  HAS_RUN         = 1 << 2,
};

typedef struct {
  guint32  state;      /* STATE_NONE until the task's first event */
  guint32  flags;
  guint32  member_pos; /* position in the member list of @state, when watched */
  guint32  pad;
  guint64  stamp;      /* the last event this instance was stepped for */
  guint64  meas_begin;
  guint64  meas_length;
  guint64  meas_events;
  guint64  seg_first;
  guint64  seg_last;
  guint64  seg_visits;
  guint64  run_first;
  guint64  run_visits;
  TwSegment *closed;   /* closed segments of the open measurement */
  guint32  n_closed;
  guint32  closed_cap;
} Instance;

/* With per-type tracing costs, beside each Instance: the costs (ps) of the visits its
 * counts count — a segment's or run's visits after its first, a measurement's closed
 * segments' — so that a measurement's overhead is the sum of its intermediate events'
 * own costs. Apart, so that Instance stays as small without costs. */
typedef struct {
  guint64  meas;
  guint64  seg;
  guint64  run;
} InstanceCost;

typedef struct {
  guint32 *items;      /* task indexes */
  guint32  len;
  guint32  cap;
} MemberList;

/* Results live in blocks that never move, so pointers handed out stay valid while a
 * live trace keeps feeding, and growing never copies what is there. A full block is
 * one huge page (tw_pages_alloc_block()). */
#define BLOCK_BYTES             TW_PAGES_HUGE_BYTES
#define FIRST_MEASUREMENTS      256u    /* block b holds 256 << b, up to ... */
#define N_GROWING_BLOCKS        8u
#define MEASUREMENT_BLOCK       (FIRST_MEASUREMENTS << (N_GROWING_BLOCKS - 1))
#define GROWING_MEASUREMENTS    (FIRST_MEASUREMENTS * ((1u << N_GROWING_BLOCKS) - 1))
#define FIRST_SEGMENTS          256u
#define SEGMENT_BLOCK           (BLOCK_BYTES / sizeof (TwSegment))

G_STATIC_ASSERT (MEASUREMENT_BLOCK * sizeof (TwAutomatonMeasurement) <= BLOCK_BYTES);

typedef struct {
  TwSegment *items;
  gsize      len;
  gsize      cap;
} SegmentBlock;

struct _TwAutomatonInterp
{
  GObject      parent_instance;

  TwTrace     *trace;

  /* copied from the automaton, indexes instead of ids; initial is valid */
  TwAutomatonTables tables;

  /* binding to the trace's type table */
  guint        n_bound_types;
  guint        n_syms;
  guint16     *type_sym;
  guint8      *type_arg_task;
  gint32      *next;             /* [(state * n_syms + sym) * 4 + class] */
  guint       *interest_start;   /* [sym], n_syms + 1 entries */
  guint       *interest_states;
  gboolean    *watched;
  MemberList  *members;          /* per state; only watched states have members */
  gboolean    *name_bound;

  /* per-type tracing costs (nullable): the cost of each bound type, in ps */
  TwEventCosts *costs;
  guint64     *type_cost_ps;

  /* run */
  Instance    *instances;
  InstanceCost *instance_costs;  /* n_instances, with @costs */
  guint64      current_cost_ps;  /* with @costs: of the event being fed */
  guint32      n_instances;
  GPtrArray   *measurement_blocks; /* TwAutomatonMeasurement[MEASUREMENT_BLOCK] */
  gsize        n_measurements;
  GArray      *segment_blocks;     /* SegmentBlock */
  guint64      position;
};

G_DEFINE_FINAL_TYPE (TwAutomatonInterp, tw_automaton_interp, G_TYPE_OBJECT)

static void
clear_binding (TwAutomatonInterp *self)
{
  if (self->members)
    {
      for (guint s = 0; s < self->tables.n_states; s++)
        g_free (self->members[s].items);
    }
  g_clear_pointer (&self->members, g_free);
  g_clear_pointer (&self->type_sym, g_free);
  g_clear_pointer (&self->type_arg_task, g_free);
  g_clear_pointer (&self->next, g_free);
  g_clear_pointer (&self->interest_start, g_free);
  g_clear_pointer (&self->interest_states, g_free);
  g_clear_pointer (&self->watched, g_free);
  g_clear_pointer (&self->name_bound, g_free);
  g_clear_pointer (&self->type_cost_ps, g_free);
  self->n_bound_types = 0;
  self->n_syms = 0;
}

static void
clear_instances (TwAutomatonInterp *self)
{
  for (guint32 i = 0; i < self->n_instances; i++)
    g_free (self->instances[i].closed);
  g_clear_pointer (&self->instances, g_free);
  g_clear_pointer (&self->instance_costs, g_free);
  self->n_instances = 0;
}

static void
tw_automaton_interp_finalize (GObject *object)
{
  TwAutomatonInterp *self = TW_AUTOMATON_INTERP (object);

  clear_binding (self);
  clear_instances (self);
  g_clear_object (&self->costs);
  g_clear_object (&self->trace);
  _tw_automaton_tables_clear (&self->tables);
  g_clear_pointer (&self->measurement_blocks, g_ptr_array_unref);
  g_clear_pointer (&self->segment_blocks, g_array_unref);

  G_OBJECT_CLASS (tw_automaton_interp_parent_class)->finalize (object);
}

static void
tw_automaton_interp_class_init (TwAutomatonInterpClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = tw_automaton_interp_finalize;
}

static void
clear_segment_block (gpointer data)
{
  free (((SegmentBlock *) data)->items);
}

static void
tw_automaton_interp_init (TwAutomatonInterp *self)
{
  self->measurement_blocks = g_ptr_array_new_with_free_func (free);
  self->segment_blocks = g_array_new (FALSE, FALSE, sizeof (SegmentBlock));
  g_array_set_clear_func (self->segment_blocks, clear_segment_block);
}

/* A label name matches a type by its raw name, or by canonical kind name ("switch"
 * matches every type of kind switch whatever the source calls it). */
static gboolean
name_matches_type (const char        *name,
                   const TwEventType *type)
{
  TwEventKind kind;

  if (g_strcmp0 (name, type->name) == 0)
    return TRUE;
  return tw_event_kind_from_string (name, &kind) && type->kind == kind;
}

static void
add_member (TwAutomatonInterp *self,
            guint32            task)
{
  Instance *inst = &self->instances[task];
  MemberList *list;

  if (!self->watched[inst->state])
    {
      inst->member_pos = POS_NONE;
      return;
    }
  list = &self->members[inst->state];
  if G_UNLIKELY (list->len == list->cap)
    {
      list->cap = MAX (16, list->cap * 2);
      list->items = g_renew (guint32, list->items, list->cap);
    }
  inst->member_pos = list->len;
  list->items[list->len++] = task;
}

static void
remove_member (TwAutomatonInterp *self,
               guint32            task)
{
  Instance *inst = &self->instances[task];
  MemberList *list;
  guint32 last;

  if (inst->member_pos == POS_NONE)
    return;
  list = &self->members[inst->state];
  last = list->items[--list->len];
  list->items[inst->member_pos] = last;
  self->instances[last].member_pos = inst->member_pos;
  inst->member_pos = POS_NONE;
}

/* Builds every table from the trace's current type table; instances survive (they
 * hold state indexes), so a live trace that grows new types can be bound again. */
static gboolean
bind_tables (TwAutomatonInterp  *self,
             GError            **error)
{
  g_autoptr(GHashTable) sigs = g_hash_table_new_full (g_bytes_hash, g_bytes_equal,
                                                      (GDestroyNotify) g_bytes_unref, NULL);
  g_autoptr(GPtrArray) sym_sig = g_ptr_array_new ();
  g_autoptr(GArray) interest = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree guint8 *bits = NULL;
  g_autofree const guint8 **sym_names = NULL;
  const TwAutomatonTables *tables = &self->tables;
  guint n_names = tables->names->len;
  guint n_states = tables->n_states;
  guint n_types;
  TwAutomatonTie tie;

  clear_binding (self);

  n_types = tw_trace_get_n_event_types (self->trace);
  self->n_bound_types = n_types;
  if (self->costs != NULL)
    {
      self->type_cost_ps = g_new (guint64, MAX (n_types, 1));
      for (guint t = 0; t < n_types; t++)
        self->type_cost_ps[t] = tw_event_costs_get_type_cost_ps (self->costs,
                                                                 tw_trace_get_event_type (self->trace, t));
    }
  self->type_sym = g_new0 (guint16, MAX (n_types, 1));
  self->type_arg_task = g_new0 (guint8, MAX (n_types, 1));
  self->name_bound = g_new0 (gboolean, MAX (n_names, 1));
  bits = g_new0 (guint8, n_names + 1);

  /* symbol 0: the types no name matches */
  g_ptr_array_add (sym_sig, g_bytes_new (bits, n_names));
  g_hash_table_insert (sigs, g_ptr_array_index (sym_sig, 0), GUINT_TO_POINTER (0));

  for (guint t = 0; t < n_types; t++)
    {
      const TwEventType *type = tw_trace_get_event_type (self->trace, t);
      g_autoptr(GBytes) sig = NULL;
      gpointer value;
      int first_arg_label;

      for (guint n = 0; n < n_names; n++)
        {
          bits[n] = name_matches_type (g_ptr_array_index (tables->names, n), type);
          self->name_bound[n] |= bits[n];
        }
      sig = g_bytes_new (bits, n_names);
      if (g_hash_table_lookup_extended (sigs, sig, NULL, &value))
        self->type_sym[t] = GPOINTER_TO_UINT (value);
      else
        {
          if (sym_sig->len > G_MAXUINT16)
            {
              g_set_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND,
                           "Too many distinct event types for one automaton");
              return FALSE;
            }
          /* the table owns the bytes; @sym_sig only points at them */
          self->type_sym[t] = sym_sig->len;
          g_hash_table_insert (sigs, g_bytes_ref (sig), GUINT_TO_POINTER (sym_sig->len));
          g_ptr_array_add (sym_sig, sig);
        }

      /* the first label that reads this type's arg column as a task */
      first_arg_label = -1;
      for (guint n = 0; n < n_names; n++)
        if (bits[n] && tables->arg_task_transition[n] >= 0 &&
            (first_arg_label < 0 || tables->arg_task_transition[n] < first_arg_label))
          first_arg_label = tables->arg_task_transition[n];
      if (first_arg_label < 0)
        continue;
      if (!_tw_event_kind_has_task_arg (type->kind))
        {
          g_autofree char *label = _tw_automaton_tables_dup_label (tables, first_arg_label);

          g_set_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND,
                       "State “%s”: label %s matches event type “%s” of kind %s, "
                       "whose arg is not a task",
                       tables->state_ids[tables->from[first_arg_label]],
                       label, type->name, tw_event_kind_to_string (type->kind));
          return FALSE;
        }
      self->type_arg_task[t] = 1;
    }

  self->n_syms = sym_sig->len;
  self->next = g_new (gint32, (gsize) n_states * self->n_syms * 4);
  sym_names = g_new (const guint8 *, self->n_syms);
  for (guint sym = 0; sym < self->n_syms; sym++)
    sym_names[sym] = g_bytes_get_data (g_ptr_array_index (sym_sig, sym), NULL);
  /* Only names that alias through the trace can tie here: validation rejects every
   * overlap visible in the automaton itself. */
  if (!_tw_automaton_tables_fill_next (&self->tables, self->n_syms, sym_names, self->next, &tie))
    {
      g_autofree char *la = _tw_automaton_tables_dup_label (&self->tables, tie.first);
      g_autofree char *lb = _tw_automaton_tables_dup_label (&self->tables, tie.second);

      g_set_error (error, TW_AUTOMATON_ERROR, TW_AUTOMATON_ERROR_BIND,
                   "State “%s”: labels %s and %s both match the same events of "
                   "this trace with equal specificity", self->tables.state_ids[tie.state],
                   la, lb);
      return FALSE;
    }

  /* which states class 0 of each symbol can change (see the top of the file) */
  self->watched = g_new0 (gboolean, self->tables.n_states);
  self->interest_start = g_new (guint, self->n_syms + 1);
  for (guint sym = 0; sym < self->n_syms; sym++)
    {
      self->interest_start[sym] = interest->len;
      for (guint s = 0; s < self->tables.n_states; s++)
        {
          if (self->next[((gsize) s * self->n_syms + sym) * 4] < 0)
            continue;
          g_array_append_val (interest, s);
          self->watched[s] = TRUE;
        }
    }
  self->interest_start[self->n_syms] = interest->len;
  self->interest_states = g_memdup2 (interest->data, MAX (interest->len, 1) * sizeof (guint));

  self->members = g_new0 (MemberList, self->tables.n_states);
  for (guint32 i = 0; i < self->n_instances; i++)
    if (self->instances[i].state != STATE_NONE)
      add_member (self, i);

  return TRUE;
}

static gboolean
bind (TwAutomatonInterp  *self,
      GError            **error)
{
  if (bind_tables (self, error))
    return TRUE;
  /* half-built tables must never run: drop them, and fail again at every feed */
  clear_binding (self);
  self->n_bound_types = G_MAXUINT;
  return FALSE;
}

/**
 * tw_automaton_interp_new:
 * @automaton: a valid automaton; the interpreter copies what it needs
 * @trace: the trace whose events it reads
 *
 * Validates @automaton and binds its event names to @trace's types: a label names a
 * raw event type or a canonical kind (`switch`, `irq_entry`, …) which matches every
 * type of that kind.
 *
 * Returns: (transfer full) (nullable): the interpreter, or %NULL with @error set when
 *   the automaton has design errors or cannot run over this trace
 */
TwAutomatonInterp *
tw_automaton_interp_new (TwAutomaton  *automaton,
                         TwTrace      *trace,
                         GError      **error)
{
  g_autoptr(TwAutomatonInterp) self = NULL;

  g_return_val_if_fail (TW_IS_AUTOMATON (automaton), NULL);
  g_return_val_if_fail (TW_IS_TRACE (trace), NULL);

  if (!tw_automaton_check (automaton, error))
    return NULL;

  self = g_object_new (TW_TYPE_AUTOMATON_INTERP, NULL);
  self->trace = g_object_ref (trace);
  _tw_automaton_tables_init (&self->tables, automaton);

  if (!bind (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * tw_automaton_interp_reset:
 *
 * Forgets every instance and result, to feed the trace again from its first event.
 */
void
tw_automaton_interp_reset (TwAutomatonInterp *self)
{
  g_return_if_fail (TW_IS_AUTOMATON_INTERP (self));

  clear_instances (self);
  for (guint s = 0; self->members && s < self->tables.n_states; s++)
    self->members[s].len = 0;
  g_ptr_array_set_size (self->measurement_blocks, 0);
  self->n_measurements = 0;
  g_array_set_size (self->segment_blocks, 0);
  self->position = 0;
}

static void
ensure_instance (TwAutomatonInterp *self,
                 guint32            task)
{
  Instance *inst;

  if G_UNLIKELY (task >= self->n_instances)
    {
      guint32 n = MAX (MAX (task + 1, tw_trace_get_n_tasks (self->trace)),
                       self->n_instances * 2);

      self->instances = g_renew (Instance, self->instances, n);
      if (self->costs != NULL)
        {
          self->instance_costs = g_renew (InstanceCost, self->instance_costs, n);
          memset (self->instance_costs + self->n_instances, 0,
                  (n - self->n_instances) * sizeof (InstanceCost));
        }
      for (guint32 i = self->n_instances; i < n; i++)
        {
          memset (&self->instances[i], 0, sizeof (Instance));
          self->instances[i].state = STATE_NONE;
          self->instances[i].member_pos = POS_NONE;
          self->instances[i].stamp = TW_EVENT_NONE;
        }
      self->n_instances = n;
    }
  inst = &self->instances[task];
  if (inst->state != STATE_NONE)
    return;
  inst->state = (guint32) self->tables.initial;
  add_member (self, task);
}

/* @cost: with per-type costs, the instance's; else NULL */
static G_ALWAYS_INLINE inline void
close_segment (Instance     *inst,
               InstanceCost *cost)
{
  if (!(inst->flags & HAS_SEGMENT))
    return;
  inst->flags &= ~HAS_SEGMENT;
  if (inst->flags & HAS_MEASUREMENT)
    {
      inst->meas_length += inst->seg_last - inst->seg_first;
      inst->meas_events += inst->seg_visits - 1;
      if (cost != NULL)
        cost->meas += cost->seg;
      if G_UNLIKELY (inst->n_closed == inst->closed_cap)
        {
          inst->closed_cap = MAX (8, inst->closed_cap * 2);
          inst->closed = g_renew (TwSegment, inst->closed, inst->closed_cap);
        }
      inst->closed[inst->n_closed++] = (TwSegment) { inst->seg_first, inst->seg_last,
                                                     inst->seg_visits };
    }
}

static inline void
drop_measurement (Instance *inst)
{
  inst->flags &= ~HAS_MEASUREMENT;
  inst->n_closed = 0;
}

/* Blocks start small (an automaton edited live over a small trace allocates little)
 * and double up to MEASUREMENT_BLOCK entries; then all have that size. */
static inline void
locate_measurement (gsize  index,
                    guint *block,
                    gsize *offset)
{
  if (index < GROWING_MEASUREMENTS)
    {
      guint b = g_bit_nth_msf (index / FIRST_MEASUREMENTS + 1, -1);

      *block = b;
      *offset = index - FIRST_MEASUREMENTS * (((gsize) 1 << b) - 1);
    }
  else
    {
      *block = N_GROWING_BLOCKS + (index - GROWING_MEASUREMENTS) / MEASUREMENT_BLOCK;
      *offset = (index - GROWING_MEASUREMENTS) % MEASUREMENT_BLOCK;
    }
}

static TwAutomatonMeasurement *
measurement_at (TwAutomatonInterp *self,
                gsize              index)
{
  guint block;
  gsize offset;

  locate_measurement (index, &block, &offset);
  return &((TwAutomatonMeasurement *) g_ptr_array_index (self->measurement_blocks, block))[offset];
}

/* copies the segments of a measurement where they will stay, contiguous */
static const TwSegment *
keep_segments (TwAutomatonInterp *self,
               const TwSegment   *segments,
               guint32            n)
{
  SegmentBlock *block = NULL;
  TwSegment *kept;

  if (n == 0)
    return NULL;
  if (self->segment_blocks->len > 0)
    block = &g_array_index (self->segment_blocks, SegmentBlock, self->segment_blocks->len - 1);
  if (block == NULL || block->cap - block->len < n)
    {
      gsize size = block ? MIN (block->cap * 2, SEGMENT_BLOCK) : FIRST_SEGMENTS;
      SegmentBlock fresh = { NULL, 0, MAX (size, n) };

      fresh.items = tw_pages_alloc_block (fresh.cap * sizeof (TwSegment));
      g_array_append_val (self->segment_blocks, fresh);
      block = &g_array_index (self->segment_blocks, SegmentBlock, self->segment_blocks->len - 1);
    }
  kept = block->items + block->len;
  memcpy (kept, segments, n * sizeof (TwSegment));
  block->len += n;
  return kept;
}

static void
report (TwAutomatonInterp *self,
        Instance          *inst,
        guint32            task,
        guint64            time,
        guint64            event,
        guint64            overhead_ps)
{
  TwAutomatonMeasurement *m;
  guint block;
  gsize offset;

  locate_measurement (self->n_measurements, &block, &offset);
  if G_UNLIKELY (block == self->measurement_blocks->len)
    {
      gsize n = block < N_GROWING_BLOCKS ? FIRST_MEASUREMENTS << block : MEASUREMENT_BLOCK;

      g_ptr_array_add (self->measurement_blocks,
                       tw_pages_alloc_block (n * sizeof (TwAutomatonMeasurement)));
    }
  m = &((TwAutomatonMeasurement *) g_ptr_array_index (self->measurement_blocks, block))[offset];
  self->n_measurements++;
  *m = (TwAutomatonMeasurement) {
    .task = task,
    .n_segments = inst->n_closed,
    .begin_ns = inst->meas_begin,
    .end_ns = time,
    .length_ns = inst->meas_length,
    .intermediate_events = inst->meas_events,
    .end_event = event,
    .segments = keep_segments (self, inst->closed, inst->n_closed),
    .overhead_ps = overhead_ps,
  };
  drop_measurement (inst);
}

/* @costed: the interpreter sums per-type costs; a constant, so that the variant
 * without them does not test it (tw_automaton_interp feeds with either) */
static G_ALWAYS_INLINE inline void
visit (TwAutomatonInterp *self,
       Instance          *inst,
       guint32            task,
       guint              state,
       guint64            time,
       guint64            event,
       const gboolean     costed)
{
  InstanceCost *cost = costed ? &self->instance_costs[task] : NULL;
  const guint64 current = costed ? self->current_cost_ps : 0;

  switch ((TwStateKind) self->tables.kind[state])
    {
    case TW_STATE_KIND_BEGIN:
      drop_measurement (inst);
      inst->flags = HAS_MEASUREMENT;
      inst->meas_begin = time;
      inst->meas_length = 0;
      inst->meas_events = 0;
      if (costed)
        cost->meas = 0;
      break;
    case TW_STATE_KIND_IN:
      if (inst->flags & HAS_RUN)
        {
          inst->flags = (inst->flags & ~HAS_RUN) | HAS_SEGMENT;
          inst->seg_first = inst->run_first;
          inst->seg_last = time;
          inst->seg_visits = inst->run_visits + 1;
          if (costed)
            cost->seg = cost->run + current;
        }
      else if (inst->flags & HAS_SEGMENT)
        {
          inst->seg_last = time;
          inst->seg_visits++;
          if (costed)
            cost->seg += current;
        }
      else
        {
          inst->flags |= HAS_SEGMENT;
          inst->seg_first = inst->seg_last = time;
          inst->seg_visits = 1;
          if (costed)
            cost->seg = 0;
        }
      break;
    case TW_STATE_KIND_COND:
      close_segment (inst, cost);
      if (inst->flags & HAS_RUN)
        {
          inst->run_visits++;
          if (costed)
            cost->run += current;
        }
      else
        {
          inst->flags |= HAS_RUN;
          inst->run_first = time;
          inst->run_visits = 1;
          if (costed)
            cost->run = 0;
        }
      break;
    case TW_STATE_KIND_OUT:
      close_segment (inst, cost);
      inst->flags &= ~HAS_RUN;
      break;
    case TW_STATE_KIND_END:
      close_segment (inst, cost);
      inst->flags &= ~HAS_RUN;
      if (inst->flags & HAS_MEASUREMENT)
        report (self, inst, task, time, event, costed ? cost->meas : 0);
      break;
    case TW_STATE_KIND_CANCEL:
      drop_measurement (inst);
      inst->flags = 0;
      break;
    case TW_N_STATE_KINDS:
    default:
      g_assert_not_reached ();
    }
}

/* visits the target of the winning transition and its λ chain */
static G_ALWAYS_INLINE inline void
take_with (TwAutomatonInterp *self,
           guint32            task,
           int                target,
           guint64            time,
           guint64            event,
           const gboolean     costed)
{
  Instance *inst = &self->instances[task];

  inst->stamp = event;
  for (;;)
    {
      visit (self, inst, task, target, time, event, costed);
      if (self->tables.lambda_next[target] < 0)
        break;
      target = self->tables.lambda_next[target];
    }
  if ((guint) target != inst->state)
    {
      remove_member (self, task);
      inst->state = target;
      add_member (self, task);
    }
}

/* A call, as it was before costs, in each variant: inlined at every step of the loop
 * it would crowd the loop. */
static void
take_plain (TwAutomatonInterp *self,
            guint32            task,
            int                target,
            guint64            time,
            guint64            event)
{
  take_with (self, task, target, time, event, FALSE);
}

static void
take_costed (TwAutomatonInterp *self,
             guint32            task,
             int                target,
             guint64            time,
             guint64            event)
{
  take_with (self, task, target, time, event, TRUE);
}

#define take(self, task, target, time, event, costed) \
  ((costed) ? take_costed (self, task, target, time, event) : take_plain (self, task, target, time, event))

static int
compare_by_task (gconstpointer a,
                 gconstpointer b)
{
  const TwAutomatonMeasurement *ma = a, *mb = b;

  return ma->task < mb->task ? -1 : ma->task > mb->task;
}

/* Instances are independent; only the order of their reports within one event is
 * arbitrary, so make it the order of task indexes. */
static void
order_by_task (TwAutomatonInterp *self,
               gsize              first)
{
  gsize n = self->n_measurements - first;
  g_autofree TwAutomatonMeasurement *tail = g_new (TwAutomatonMeasurement, n);

  for (gsize i = 0; i < n; i++)
    tail[i] = *measurement_at (self, first + i);
  qsort (tail, n, sizeof (TwAutomatonMeasurement), compare_by_task);
  for (gsize i = 0; i < n; i++)
    *measurement_at (self, first + i) = tail[i];
}

/* feed_chunk(), @costed a constant */
static G_ALWAYS_INLINE inline guint
feed_chunk_with (TwAutomatonInterp  *self,
                 const TwEventChunk *chunk,
                 guint               begin,
                 guint               end,
                 guint64             pos,
                 const gboolean      costed)
{
  const guint n_bound_types = self->n_bound_types;
  const gint32 *next = self->next;
  const guint16 *type_sym = self->type_sym;
  const guint8 *type_arg_task = self->type_arg_task;
  const guint *interest_start = self->interest_start;
  const guint *interest_states = self->interest_states;
  MemberList *members = self->members;
  const gsize stride = (gsize) self->n_syms * 4;

  for (guint i = begin; i < end; i++, pos++)
    {
      guint16 type = chunk->type[i];
      guint32 task = chunk->task[i];
      guint64 time = chunk->time[i];
      guint sym;
      guint32 arg_task;
      gsize n_before = self->n_measurements;
      const gint32 *column;
      int target;

      if G_UNLIKELY (type >= n_bound_types)
        return i;
      sym = type_sym[type];
      arg_task = type_arg_task[type] ? chunk->arg[i] : TW_TASK_NONE;
      if (costed)
        self->current_cost_ps = self->type_cost_ps[type];
      column = next + (gsize) sym * 4;

      if (task != TW_TASK_NONE)
        {
          if G_UNLIKELY (task >= self->n_instances || self->instances[task].state == STATE_NONE)
            ensure_instance (self, task);
          target = column[self->instances[task].state * stride + (1 | (arg_task == task ? 2 : 0))];
          if (target >= 0)
            take (self, task, target, time, pos, costed);
        }
      if (arg_task != TW_TASK_NONE && arg_task != task && arg_task < self->n_instances &&
          self->instances[arg_task].state != STATE_NONE)
        {
          target = column[self->instances[arg_task].state * stride + 2];
          if (target >= 0)
            take (self, arg_task, target, time, pos, costed);
        }

      /* Walk each list backwards: an instance that leaves the list is replaced by the
       * last one, already walked; one that moved to a list walked later carries this
       * event's stamp, and the instances stepped above are skipped by index. */
      for (guint k = interest_start[sym]; k < interest_start[sym + 1]; k++)
        {
          MemberList *list = &members[interest_states[k]];

          for (guint32 p = list->len; p-- > 0;)
            {
              guint32 other = list->items[p];
              Instance *inst = &self->instances[other];

              if (other == task || other == arg_task || inst->stamp == pos)
                continue;
              target = column[inst->state * stride];
              if (target >= 0)
                take (self, other, target, time, pos, costed);
            }
        }

      if G_UNLIKELY (self->n_measurements > n_before + 1)
        order_by_task (self, n_before);
    }
  return end;
}

/* Returns where it stopped: @end, or the first event of a type bound after the
 * tables were built (a live trace gained it meanwhile). The loop exists twice, with
 * and without per-type costs, so that the one without carries nothing of them. */
static guint
feed_chunk (TwAutomatonInterp  *self,
            const TwEventChunk *chunk,
            guint               begin,
            guint               end,
            guint64             pos)
{
  if G_UNLIKELY (self->costs != NULL)
    return feed_chunk_with (self, chunk, begin, end, pos, TRUE);
  return feed_chunk_with (self, chunk, begin, end, pos, FALSE);
}

/**
 * _tw_automaton_interp_feed_rows:
 * @chunk: the chunk that holds the next event to feed
 * @first: the row of that event (tw_automaton_interp_get_position() within @chunk)
 * @n: how many rows to feed from @first on
 *
 * Feeds rows of one chunk, the events from the interpreter's position on; binds event
 * types the trace gained since the last call. How an evaluation feeds the interpreter
 * as an update (tw-automaton-evaluator.c).
 *
 * Returns: %FALSE with @error set when new event types make the automaton ambiguous
 */
gboolean
_tw_automaton_interp_feed_rows (TwAutomatonInterp   *self,
                                const TwEventChunk  *chunk,
                                guint                first,
                                guint                n,
                                GError             **error)
{
  guint end = first + n;

  if (tw_trace_get_n_event_types (self->trace) != self->n_bound_types && !bind (self, error))
    return FALSE;
  while (first < end)
    {
      guint stop = feed_chunk (self, chunk, first, end, self->position);

      self->position += stop - first;
      first = stop;
      if (stop < end && !bind (self, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * _tw_automaton_interp_set_event_costs:
 * @costs: (nullable): the tracing cost of each event type
 *
 * Each measurement then carries the sum of its intermediate events' own costs
 * (TwAutomatonMeasurement.overhead_ps). Before the interpreter is fed anything.
 */
void
_tw_automaton_interp_set_event_costs (TwAutomatonInterp *self,
                                      TwEventCosts      *costs)
{
  g_return_if_fail (TW_IS_AUTOMATON_INTERP (self));
  g_return_if_fail (self->position == 0 && self->n_measurements == 0 && self->n_instances == 0);

  g_set_object (&self->costs, costs);
  /* the type costs are resolved with the next binding */
  clear_binding (self);
}

/**
 * _tw_automaton_interp_skip:
 *
 * Steps over the event at the interpreter's position without feeding it (a live
 * source found it overwritten after it was prepared).
 */
void
_tw_automaton_interp_skip (TwAutomatonInterp *self)
{
  self->position++;
}

/**
 * _tw_automaton_interp_set_position:
 *
 * Where an interpreter that joins an evaluation late starts: the index of the first
 * event it will be fed. Only before it was fed anything.
 */
void
_tw_automaton_interp_set_position (TwAutomatonInterp *self,
                                   guint64            position)
{
  g_return_if_fail (self->position == 0 && self->n_measurements == 0);
  self->position = position;
}

/**
 * tw_automaton_interp_feed:
 * @first: must be tw_automaton_interp_get_position()
 * @end: one past the last event to feed (clamped to the trace's events)
 *
 * Feeds events [@first, @end) in store order (time order; ties in file order) to the
 * instances, so a live trace can be evaluated as it grows. Binds event types the trace
 * gained since the last call.
 *
 * Returns: %FALSE with @error set when new event types make the automaton ambiguous
 */
gboolean
tw_automaton_interp_feed (TwAutomatonInterp  *self,
                          guint64             first,
                          guint64             end,
                          GError            **error)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), FALSE);
  g_return_val_if_fail (first == self->position, FALSE);

  end = MIN (end, tw_trace_get_n_events (self->trace));
  if (tw_trace_get_n_event_types (self->trace) != self->n_bound_types && !bind (self, error))
    return FALSE;

  while (self->position < end)
    {
      guint64 pos = self->position;
      const TwEventChunk *chunk = tw_trace_get_chunk (self->trace, pos >> TW_CHUNK_SHIFT);
      guint i = pos & TW_CHUNK_MASK;
      guint n = (guint) MIN ((guint64) chunk->n, i + (end - pos));

      if (!_tw_automaton_interp_feed_rows (self, chunk, i, n - i, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * tw_automaton_interp_run:
 *
 * Feeds every event not fed yet.
 */
gboolean
tw_automaton_interp_run (TwAutomatonInterp  *self,
                         GError            **error)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), FALSE);

  return tw_automaton_interp_feed (self, self->position,
                                   tw_trace_get_n_events (self->trace), error);
}

guint64
tw_automaton_interp_get_position (TwAutomatonInterp *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), 0);

  return self->position;
}

gsize
tw_automaton_interp_get_n_measurements (TwAutomatonInterp *self)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), 0);

  return self->n_measurements;
}

/**
 * tw_automaton_interp_get_measurement:
 * @index: below tw_automaton_interp_get_n_measurements()
 *
 * Measurements are numbered in the order they completed; those completed by one event
 * in the order of their task indexes. A measurement still open when the events run
 * out is not one (yet).
 *
 * Returns: (transfer none): the measurement, with its segments; both stay valid until
 *   the interpreter is reset or freed, whatever is fed meanwhile
 */
const TwAutomatonMeasurement *
tw_automaton_interp_get_measurement (TwAutomatonInterp *self,
                                     gsize              index)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), NULL);
  g_return_val_if_fail (index < self->n_measurements, NULL);

  return measurement_at (self, index);
}

/**
 * tw_automaton_interp_get_instance_state:
 *
 * Returns: the index of the state the task's instance is in, or -1 when the task has
 *   no instance yet (no event of it was fed)
 */
int
tw_automaton_interp_get_instance_state (TwAutomatonInterp *self,
                                        guint32            task)
{
  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), -1);

  if (task >= self->n_instances || self->instances[task].state == STATE_NONE)
    return -1;
  return (int) self->instances[task].state;
}

/**
 * tw_automaton_interp_get_instance:
 * @info: (out caller-allocates): what the instance holds
 *
 * Returns: %FALSE when the task has no instance yet (no event of it was fed)
 */
gboolean
tw_automaton_interp_get_instance (TwAutomatonInterp *self,
                                  guint32            task,
                                  TwInstanceInfo    *info)
{
  const Instance *inst;

  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), FALSE);
  g_return_val_if_fail (info != NULL, FALSE);

  if (task >= self->n_instances || self->instances[task].state == STATE_NONE)
    return FALSE;
  inst = &self->instances[task];
  *info = (TwInstanceInfo) {
    .state = inst->state,
    .has_measurement = (inst->flags & HAS_MEASUREMENT) != 0,
    .has_segment = (inst->flags & HAS_SEGMENT) != 0,
    .has_run = (inst->flags & HAS_RUN) != 0,
    .measurement_begin_ns = inst->meas_begin,
    .length_ns = inst->meas_length,
    .intermediate_events = inst->meas_events,
    .segment_first_ns = inst->seg_first,
    .segment_last_ns = inst->seg_last,
    .segment_visits = inst->seg_visits,
    .run_first_ns = inst->run_first,
    .run_visits = inst->run_visits,
  };
  return TRUE;
}

/**
 * tw_automaton_interp_dup_unbound_events:
 *
 * Returns: (transfer full): the label event names that match no type of the trace
 *   (likely typos, or events this trace does not have)
 */
GStrv
tw_automaton_interp_dup_unbound_events (TwAutomatonInterp *self)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  g_return_val_if_fail (TW_IS_AUTOMATON_INTERP (self), NULL);

  for (guint n = 0; n < self->tables.names->len; n++)
    if (!self->name_bound[n])
      g_strv_builder_add (builder, g_ptr_array_index (self->tables.names, n));
  return g_strv_builder_end (builder);
}
