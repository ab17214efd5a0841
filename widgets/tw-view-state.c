/* tw-view-state.c: what every view of one open trace shares
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "tw-view-state.h"

#include <math.h>

/*
 * The timeline, the event list, the details and state-at-cursor panes never talk to each
 * other: each binds to this object's properties and sets them. Times are ns in the
 * trace's time base; TW_TIME_NONE / TW_EVENT_NONE mean "none".
 */

/* Never zoom in below this span: ten ns across the plot shows single nanoseconds
 * ~100 px apart on any screen. */
#define MIN_SPAN_NS 10

struct _TwViewState
{
  GObject       parent_instance;

  TwStateModel *model;
  guint64       visible_begin;
  guint64       visible_end;
  guint64       cursor;
  guint64       selected_event;
  TwSpanRef    *selected_span;
  TwTimelineHighlight *highlight;
  guint64       selection_begin;
  guint64       selection_end;
  /* follow mode of a live trace: see tw_view_state_follow() */
  gboolean      following;
  gboolean      in_follow;
  guint64       follow_end;
  /* the trace shown as if it lasted this long (tw_view_state_set_min_duration()) */
  guint64       min_duration;
};

G_DEFINE_FINAL_TYPE (TwViewState, tw_view_state, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_VISIBLE_BEGIN,
  PROP_VISIBLE_END,
  PROP_CURSOR,
  PROP_SELECTED_EVENT,
  PROP_SELECTED_SPAN,
  PROP_SELECTION_BEGIN,
  PROP_SELECTION_END,
  PROP_FOLLOWING,
  PROP_HIGHLIGHT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  REVEAL_HIGHLIGHT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
tw_view_state_finalize (GObject *object)
{
  TwViewState *self = (TwViewState *)object;

  g_clear_object (&self->model);
  g_clear_pointer (&self->selected_span, tw_span_ref_free);
  g_clear_pointer (&self->highlight, tw_timeline_highlight_unref);

  G_OBJECT_CLASS (tw_view_state_parent_class)->finalize (object);
}

static void
tw_view_state_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  TwViewState *self = TW_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_MODEL:           g_value_set_object (value, self->model); break;
    case PROP_VISIBLE_BEGIN:   g_value_set_uint64 (value, self->visible_begin); break;
    case PROP_VISIBLE_END:     g_value_set_uint64 (value, self->visible_end); break;
    case PROP_CURSOR:          g_value_set_uint64 (value, self->cursor); break;
    case PROP_SELECTED_EVENT:  g_value_set_uint64 (value, self->selected_event); break;
    case PROP_SELECTED_SPAN:   g_value_set_boxed (value, self->selected_span); break;
    case PROP_SELECTION_BEGIN: g_value_set_uint64 (value, self->selection_begin); break;
    case PROP_SELECTION_END:   g_value_set_uint64 (value, self->selection_end); break;
    case PROP_FOLLOWING:       g_value_set_boolean (value, self->following); break;
    case PROP_HIGHLIGHT:       g_value_set_boxed (value, self->highlight); break;
    default:                   G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_view_state_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  TwViewState *self = TW_VIEW_STATE (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;
    case PROP_CURSOR:
      tw_view_state_set_cursor (self, g_value_get_uint64 (value));
      break;
    case PROP_SELECTED_EVENT:
      tw_view_state_set_selected_event (self, g_value_get_uint64 (value));
      break;
    case PROP_SELECTED_SPAN:
      tw_view_state_set_selected_span (self, g_value_get_boxed (value));
      break;
    case PROP_FOLLOWING:
      tw_view_state_set_following (self, g_value_get_boolean (value));
      break;
    case PROP_HIGHLIGHT:
      tw_view_state_set_highlight (self, g_value_get_boxed (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tw_view_state_constructed (GObject *object)
{
  G_OBJECT_CLASS (tw_view_state_parent_class)->constructed (object);
  tw_view_state_zoom_to_fit (TW_VIEW_STATE (object));
}

static void
tw_view_state_class_init (TwViewStateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tw_view_state_finalize;
  object_class->get_property = tw_view_state_get_property;
  object_class->set_property = tw_view_state_set_property;
  object_class->constructed = tw_view_state_constructed;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, TW_TYPE_STATE_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_BEGIN] =
    g_param_spec_uint64 ("visible-begin", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_END] =
    g_param_spec_uint64 ("visible-end", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CURSOR] =
    g_param_spec_uint64 ("cursor", NULL, NULL, 0, G_MAXUINT64, TW_TIME_NONE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_EVENT] =
    g_param_spec_uint64 ("selected-event", NULL, NULL, 0, G_MAXUINT64, TW_EVENT_NONE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_SPAN] =
    g_param_spec_boxed ("selected-span", NULL, NULL, TW_TYPE_SPAN_REF,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION_BEGIN] =
    g_param_spec_uint64 ("selection-begin", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION_END] =
    g_param_spec_uint64 ("selection-end", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  properties[PROP_FOLLOWING] =
    g_param_spec_boolean ("following", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT] =
    g_param_spec_boxed ("highlight", NULL, NULL, TW_TYPE_TIMELINE_HIGHLIGHT,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * TwViewState::reveal-highlight:
   *
   * The highlight's time range was brought into view; views that have rows scroll
   * them to its rows.
   */
  signals[REVEAL_HIGHLIGHT] =
    g_signal_new ("reveal-highlight", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
tw_view_state_init (TwViewState *self)
{
  self->cursor = TW_TIME_NONE;
  self->selected_event = TW_EVENT_NONE;
}

/**
 * tw_view_state_new:
 *
 * Returns: (transfer full): a view state showing all of @model's trace
 */
TwViewState *
tw_view_state_new (TwStateModel *model)
{
  g_return_val_if_fail (TW_IS_STATE_MODEL (model), NULL);

  return g_object_new (TW_TYPE_VIEW_STATE, "model", model, NULL);
}

/**
 * tw_view_state_get_model:
 *
 * Returns: (transfer none): the state model
 */
TwStateModel *
tw_view_state_get_model (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), NULL);

  return self->model;
}

/**
 * tw_view_state_get_trace:
 *
 * Returns: (transfer none): the trace
 */
TwTrace *
tw_view_state_get_trace (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), NULL);

  return tw_state_model_get_trace (self->model);
}

void
tw_view_state_get_visible_range (TwViewState *self,
                                 guint64     *begin_ns,
                                 guint64     *end_ns)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  *begin_ns = self->visible_begin;
  *end_ns = self->visible_end;
}

/* The range a view may show: the trace from its first to its last event (or, live, to
 * the newest time heard of), with a margin of a twentieth of it on each side so the ends
 * never sit flush against the plot's edges. FALSE while there is nothing to bound by. */
static gboolean
get_bounds (TwViewState *self,
            guint64     *lo,
            guint64     *hi)
{
  TwTrace *trace = tw_state_model_get_trace (self->model);
  guint64 first, last, margin;

  if (tw_trace_get_n_events (trace) == 0)
    return FALSE;
  first = tw_trace_get_first_time (trace);
  last = MAX (tw_trace_get_last_time (trace) + 1, self->follow_end);
  last = MAX (last, first + self->min_duration);
  margin = MAX ((last - first) / 20, MIN_SPAN_NS);
  *lo = first > margin ? first - margin : 0;
  *hi = last + MIN (margin, G_MAXUINT64 - last);
  return TRUE;
}

/* Keeps [*begin, *begin + *span) inside the bounds. A sealed trace never shows more than
 * all of itself; a live one may (it is about to fill the view), and then its newest data
 * sits at the right edge, where following puts it. */
static void
clamp_range (TwViewState *self,
             guint64     *begin,
             guint64     *span)
{
  gboolean live = !tw_trace_is_sealed (tw_state_model_get_trace (self->model));
  guint64 lo, hi;

  *span = MAX (*span, MIN_SPAN_NS);
  if (!get_bounds (self, &lo, &hi))
    return;
  if (*span >= hi - lo)
    {
      if (!live)
        {
          *begin = lo;
          *span = hi - lo;
        }
      else
        *begin = hi > *span ? hi - *span : 0;
      return;
    }
  *begin = CLAMP (*begin, lo, hi - *span);
}

/**
 * tw_view_state_set_visible_range:
 *
 * Shows [@begin_ns, @end_ns), kept within the trace (see tw_view_state_get_bounds());
 * spans shorter than 10 ns grow around their middle.
 */
void
tw_view_state_set_visible_range (TwViewState *self,
                                 guint64      begin_ns,
                                 guint64      end_ns)
{
  guint64 span;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (end_ns < begin_ns)
    {
      guint64 tmp = begin_ns;
      begin_ns = end_ns;
      end_ns = tmp;
    }
  span = end_ns - begin_ns;
  if (span < MIN_SPAN_NS)
    {
      guint64 grow = (MIN_SPAN_NS - span) / 2;

      begin_ns = begin_ns > grow ? begin_ns - grow : 0;
      span = MIN_SPAN_NS;
    }
  clamp_range (self, &begin_ns, &span);
  end_ns = begin_ns + span;

  if (begin_ns == self->visible_begin && end_ns == self->visible_end)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  /* Any change that leaves the newest data out of view (a pan or zoom back in time)
   * stops following; zooming with the right edge kept, or panning forward, does not. */
  if (self->following && !self->in_follow && end_ns < self->follow_end)
    {
      self->following = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
    }
  if (begin_ns != self->visible_begin)
    {
      self->visible_begin = begin_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_BEGIN]);
    }
  if (end_ns != self->visible_end)
    {
      self->visible_end = end_ns;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * tw_view_state_get_bounds:
 * @lo: (out): the earliest time a view may show
 * @hi: (out): the end of the latest range a view may show
 *
 * Returns: %FALSE when the trace holds no events yet (nothing is bounded then)
 */
gboolean
tw_view_state_get_bounds (TwViewState *self,
                          guint64     *lo,
                          guint64     *hi)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), FALSE);

  return get_bounds (self, lo, hi);
}

void
tw_view_state_zoom_to_fit (TwViewState *self)
{
  TwTrace *trace;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  trace = tw_state_model_get_trace (self->model);
  tw_view_state_set_visible_range (self, tw_trace_get_first_time (trace),
                                   MAX (tw_trace_get_last_time (trace) + 1,
                                        tw_trace_get_first_time (trace) + self->min_duration));
}

/**
 * tw_view_state_set_min_duration:
 * @duration_ns: 0, or how long the trace is shown to last at least
 *
 * Lets the view run past the trace's end, as if it lasted @duration_ns: two runs shown
 * on one time scale, the shorter one ending early (the compare window).
 */
void
tw_view_state_set_min_duration (TwViewState *self,
                                guint64      duration_ns)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  self->min_duration = duration_ns;
}

/**
 * tw_view_state_zoom:
 * @factor: > 1 zooms in, < 1 zooms out
 * @anchor_ns: the time that stays where it is on screen
 */
void
tw_view_state_zoom (TwViewState *self,
                    double       factor,
                    guint64      anchor_ns)
{
  guint64 span;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  span = MAX (self->visible_end - self->visible_begin, 1);
  anchor_ns = CLAMP (anchor_ns, self->visible_begin, self->visible_end);
  tw_view_state_zoom_at (self, factor, anchor_ns,
                         (double) (anchor_ns - self->visible_begin) / (double) span);
}

/**
 * tw_view_state_zoom_at:
 * @factor: > 1 zooms in, < 1 zooms out
 * @anchor_ns: the time to keep in place
 * @fraction: where it is to be, as a fraction of the visible span from its begin (the
 *   pointer's place on the plot)
 *
 * Works in ns relative to the anchor, never in absolute doubles: traces with epoch
 * timestamps (~1.5e18 ns) would lose 256 ns of resolution there.
 */
void
tw_view_state_zoom_at (TwViewState *self,
                       double       factor,
                       guint64      anchor_ns,
                       double       fraction)
{
  guint64 span;
  double new_span;
  guint64 before;

  g_return_if_fail (TW_IS_VIEW_STATE (self));
  g_return_if_fail (factor > 0);

  span = MAX (self->visible_end - self->visible_begin, 1);
  new_span = CLAMP ((double) span / factor, MIN_SPAN_NS, (double) G_MAXUINT64 / 2);
  before = MIN ((guint64) llround (CLAMP (fraction, 0, 1) * new_span), anchor_ns);
  tw_view_state_set_visible_range (self, anchor_ns - before,
                                   anchor_ns - before + (guint64) llround (new_span));
}

/**
 * tw_view_state_pan:
 * @fraction: how far to move, in visible spans (negative goes back in time)
 */
void
tw_view_state_pan (TwViewState *self,
                   double       fraction)
{
  guint64 span;
  gint64 delta;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  span = self->visible_end - self->visible_begin;
  delta = (gint64) (fraction * (double) span);
  tw_view_state_pan_ns (self, delta);
}

/**
 * tw_view_state_pan_ns:
 * @delta_ns: how far to move (negative goes back in time)
 *
 * Moves the visible range by whole ns, its span kept; it stops at the trace's ends.
 */
void
tw_view_state_pan_ns (TwViewState *self,
                      gint64       delta_ns)
{
  guint64 span;
  guint64 begin;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  /* a look back stops following, even when a live trace too short to move back in
   * keeps the range where it is */
  if (delta_ns < 0)
    tw_view_state_set_following (self, FALSE);
  span = self->visible_end - self->visible_begin;
  if (delta_ns < 0)
    begin = (guint64) -delta_ns > self->visible_begin ? 0 : self->visible_begin - (guint64) -delta_ns;
  else
    begin = self->visible_begin + MIN ((guint64) delta_ns, G_MAXUINT64 - self->visible_end);
  tw_view_state_set_visible_range (self, begin, begin + span);
}

/**
 * tw_view_state_reveal_time:
 *
 * Brings @time_ns into view, keeping the zoom: when it is off screen, the view centres
 * on it; when it is shown already, nothing moves.
 */
void
tw_view_state_reveal_time (TwViewState *self,
                           guint64      time_ns)
{
  guint64 span;
  guint64 begin;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (time_ns >= self->visible_begin && time_ns < self->visible_end)
    return;
  span = self->visible_end - self->visible_begin;
  begin = time_ns > span / 2 ? time_ns - span / 2 : 0;
  tw_view_state_set_visible_range (self, begin, begin + span);
}

guint64
tw_view_state_get_cursor (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), TW_TIME_NONE);

  return self->cursor;
}

void
tw_view_state_set_cursor (TwViewState *self,
                          guint64      time_ns)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (self->cursor == time_ns)
    return;
  self->cursor = time_ns;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CURSOR]);
}

guint64
tw_view_state_get_selected_event (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), TW_EVENT_NONE);

  return self->selected_event;
}

/**
 * tw_view_state_set_selected_event:
 *
 * Selects an event (or none) and moves the cursor to its time.
 */
void
tw_view_state_set_selected_event (TwViewState *self,
                                  guint64      index)
{
  TwTrace *trace;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  trace = tw_state_model_get_trace (self->model);
  if (index != TW_EVENT_NONE && index >= tw_trace_get_n_events (trace))
    index = TW_EVENT_NONE;
  if (self->selected_event == index)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  self->selected_event = index;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_EVENT]);
  if (index != TW_EVENT_NONE)
    {
      tw_view_state_set_selected_span (self, NULL);
      tw_view_state_set_cursor (self, tw_trace_get_time (trace, index));
    }
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * tw_view_state_get_selected_span:
 *
 * Returns: (transfer none) (nullable): the span picked on the timeline
 */
const TwSpanRef *
tw_view_state_get_selected_span (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), NULL);

  return self->selected_span;
}

/**
 * tw_view_state_set_selected_span:
 * @span: (nullable): a span of the model, or %NULL for none
 *
 * Selects a span (a run, a handler, a task's state) instead of an event: the selected
 * event becomes none.
 */
void
tw_view_state_set_selected_span (TwViewState     *self,
                                 const TwSpanRef *span)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (tw_span_ref_equal (self->selected_span, span))
    return;
  g_object_freeze_notify (G_OBJECT (self));
  g_clear_pointer (&self->selected_span, tw_span_ref_free);
  if (span)
    {
      self->selected_span = tw_span_ref_copy (span);
      tw_view_state_set_selected_event (self, TW_EVENT_NONE);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_SPAN]);
  g_object_thaw_notify (G_OBJECT (self));
}

/**
 * tw_view_state_get_selection:
 *
 * Returns: %TRUE when a time range is selected
 */
gboolean
tw_view_state_get_selection (TwViewState *self,
                             guint64     *begin_ns,
                             guint64     *end_ns)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), FALSE);

  *begin_ns = self->selection_begin;
  *end_ns = self->selection_end;
  return self->selection_end > self->selection_begin;
}

void
tw_view_state_set_selection (TwViewState *self,
                             guint64      begin_ns,
                             guint64      end_ns)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (end_ns < begin_ns)
    {
      guint64 tmp = begin_ns;
      begin_ns = end_ns;
      end_ns = tmp;
    }
  if (self->selection_begin == begin_ns && self->selection_end == end_ns)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  self->selection_begin = begin_ns;
  self->selection_end = end_ns;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_BEGIN]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTION_END]);
  g_object_thaw_notify (G_OBJECT (self));
}

void
tw_view_state_clear_selection (TwViewState *self)
{
  tw_view_state_set_selection (self, 0, 0);
}

/**
 * tw_view_state_get_highlight:
 *
 * Returns: (transfer none) (nullable): the path drawn over the timeline
 */
TwTimelineHighlight *
tw_view_state_get_highlight (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), NULL);

  return self->highlight;
}

/**
 * tw_view_state_set_highlight:
 * @highlight: (nullable): a path to draw over the timeline, or %NULL for none
 */
void
tw_view_state_set_highlight (TwViewState         *self,
                             TwTimelineHighlight *highlight)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (self->highlight == highlight)
    return;
  g_clear_pointer (&self->highlight, tw_timeline_highlight_unref);
  if (highlight)
    self->highlight = tw_timeline_highlight_ref (highlight);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHT]);
}

/**
 * tw_view_state_reveal_highlight:
 *
 * Shows all of the highlight: its time range with a tenth of it on each side, and
 * (through #TwViewState::reveal-highlight) its rows.
 */
void
tw_view_state_reveal_highlight (TwViewState *self)
{
  guint64 begin, end, margin;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  if (self->highlight == NULL)
    return;
  tw_timeline_highlight_get_bounds (self->highlight, &begin, &end);
  margin = MAX ((end - begin) / 10, MIN_SPAN_NS);
  tw_view_state_set_visible_range (self, begin > margin ? begin - margin : 0, end + margin);
  g_signal_emit (self, signals[REVEAL_HIGHLIGHT], 0);
}

/**
 * tw_view_state_get_following:
 *
 * Returns: whether the visible range follows the newest data of a live trace
 */
gboolean
tw_view_state_get_following (TwViewState *self)
{
  g_return_val_if_fail (TW_IS_VIEW_STATE (self), FALSE);

  return self->following;
}

/**
 * tw_view_state_set_following:
 *
 * Starts or stops following; starting moves the view to the newest data at once (the
 * span is kept).
 */
void
tw_view_state_set_following (TwViewState *self,
                             gboolean     following)
{
  g_return_if_fail (TW_IS_VIEW_STATE (self));

  following = !!following;
  if (self->following == following)
    return;
  self->following = following;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOLLOWING]);
  if (following && self->follow_end)
    tw_view_state_follow (self, self->follow_end);
}

/**
 * tw_view_state_follow:
 * @newest_ns: the end of the data a live trace holds now
 *
 * Called as a live trace grows. While following, the view's right edge moves to
 * @newest_ns, its span kept; otherwise only remembered, so that a later change of the
 * range that leaves @newest_ns out of view is known to be a look back in time.
 */
void
tw_view_state_follow (TwViewState *self,
                      guint64      newest_ns)
{
  guint64 span;

  g_return_if_fail (TW_IS_VIEW_STATE (self));

  self->follow_end = MAX (self->follow_end, newest_ns);
  if (!self->following)
    return;
  span = self->visible_end - self->visible_begin;
  self->in_follow = TRUE;
  tw_view_state_set_visible_range (self, self->follow_end > span ? self->follow_end - span : 0,
                                   MAX (self->follow_end, span));
  self->in_follow = FALSE;
}
