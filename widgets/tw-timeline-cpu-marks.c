/* tw-timeline-cpu-marks.c: losses and repairs drawn on the timeline's CPU rows
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "tw-timeline-cpu-marks.h"

#include "tw-timeline-describe.h"

/*
 * Where a CPU's tracer lost events, and where the state model repaired a switch the
 * trace contradicted, the row gets a mark (as Trace Compass and KernelShark mark lost
 * events): one per pixel column from the model's summaries, so a trace with millions of
 * them costs O(pixels). Losses also get their count written beside them while few are in
 * view; the tooltip and the Details pane say the rest.
 */

/* Beyond this many marks in view, counts would only overlap: the bars say enough. */
#define MAX_LABELS 64
#define LABEL_GAP  6

static void
draw_labels (TwStateModel             *model,
             cairo_t                  *cr,
             PangoLayout              *layout,
             const TwTimelineColors   *colors,
             const TwTimelineViewport *vp,
             guint                     cpu,
             double                    y)
{
  TwTrace *trace = tw_state_model_get_trace (model);
  gsize n;
  const TwCpuMark *marks = tw_state_model_get_cpu_marks (model, cpu, &n);
  gsize first = tw_state_model_lower_bound (model, TW_SERIES_CPU_MARKS, cpu, vp->begin_ns);
  gsize last = tw_state_model_lower_bound_from (model, TW_SERIES_CPU_MARKS, cpu, first, vp->end_ns);
  double free_from = TW_TIMELINE_LABEL_WIDTH;

  if (last - first > MAX_LABELS)
    return;
  for (gsize i = first; i < last; i++)
    {
      double x = floor (tw_timeline_viewport_time_to_x (vp, marks[i].time)) + 4;
      g_autofree char *text = NULL;
      TwEvent ev;
      int w, h;

      if (marks[i].kind != TW_CPU_MARK_LOST || x < free_from
          || !tw_trace_get_event (trace, marks[i].index, &ev))
        continue;
      text = tw_timeline_describe_loss (trace, &ev);
      pango_layout_set_text (layout, text, -1);
      pango_layout_set_width (layout, -1);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
      pango_layout_get_pixel_size (layout, &w, &h);
      tw_timeline_set_source (cr, colors->background);
      cairo_rectangle (cr, x - 1, y + 1, w + 2, h);
      cairo_fill (cr);
      tw_timeline_set_source (cr, colors->lost);
      cairo_move_to (cr, x, y + 1);
      pango_cairo_show_layout (cr, layout);
      free_from = x + w + LABEL_GAP;
    }
}

/**
 * tw_timeline_cpu_marks_draw:
 * @y: the top of @cpu's row
 * @height: its height
 *
 * Draws @cpu's losses and repairs over its row, in the painter's pixel columns of
 * @viewport; nothing (at no cost) on a CPU without any.
 */
void
tw_timeline_cpu_marks_draw (TwStateModel             *model,
                            cairo_t                  *cr,
                            PangoLayout              *layout,
                            const TwTimelineColors   *colors,
                            const TwTimelineViewport *vp,
                            guint                     cpu,
                            double                    y,
                            double                    height)
{
  static const guint32 order[] = { TW_SUMMARY_CPU_MARK_REPAIR, TW_SUMMARY_CPU_MARK_LOST };
  double plot_x1 = MAX (vp->width, TW_TIMELINE_LABEL_WIDTH + 1);
  guint n_columns = (guint) (plot_x1 - TW_TIMELINE_LABEL_WIDTH);
  double ns_per_px = (double) MAX (vp->end_ns - vp->begin_ns, 1) / n_columns;
  g_autofree TwSummary *sums = NULL;
  gsize n;

  tw_state_model_get_cpu_marks (model, cpu, &n);
  if (n == 0)
    return;
  sums = g_new (TwSummary, n_columns);
  tw_state_model_summarize (model, TW_SERIES_CPU_MARKS, cpu, vp->begin_ns, ns_per_px, n_columns,
                            TW_SUMMARIZE_DEFAULT, sums);
  /* losses last: their bar is the row's whole height */
  for (guint k = 0; k < G_N_ELEMENTS (order); k++)
    for (guint c = 0; c < n_columns; c++)
      if (sums[c].bits & order[k])
        tw_timeline_draw_cpu_mark (cr, colors, order[k], TW_TIMELINE_LABEL_WIDTH + c, y, height);
  draw_labels (model, cr, layout, colors, vp, cpu, y);
}

/**
 * tw_timeline_cpu_marks_hit:
 * @slop_ns: how far from @time_ns a mark may be
 * @event: (out): the mark's event: the loss, or the switch a repair answers
 * @description: (out) (transfer full): what the mark stands for, for a tooltip
 *
 * Returns: %TRUE when a mark of @cpu lies within @slop_ns of @time_ns: the nearest, and
 *   the others at its time (a loss and the repair it caused share one)
 */
gboolean
tw_timeline_cpu_marks_hit (TwStateModel  *model,
                           guint          cpu,
                           guint64        time_ns,
                           guint64        slop_ns,
                           guint64       *event,
                           char         **description)
{
  gsize n;
  const TwCpuMark *marks = tw_state_model_get_cpu_marks (model, cpu, &n);
  gsize i = tw_state_model_lower_bound (model, TW_SERIES_CPU_MARKS, cpu,
                                        time_ns > slop_ns ? time_ns - slop_ns : 0);
  gsize best = n;
  guint64 best_dist = G_MAXUINT64;
  GString *text;

  for (gsize k = i; k < n && k < i + 256 && marks[k].time <= time_ns + slop_ns; k++)
    {
      guint64 dist = marks[k].time > time_ns ? marks[k].time - time_ns : time_ns - marks[k].time;

      if (dist < best_dist)
        {
          best = k;
          best_dist = dist;
        }
    }
  if (best == n)
    return FALSE;
  while (best > 0 && marks[best - 1].time == marks[best].time)
    best--;
  *event = marks[best].index;
  text = g_string_new (NULL);
  for (gsize k = best; k < n && marks[k].time == marks[best].time; k++)
    {
      g_autofree char *one = tw_timeline_describe_cpu_mark (tw_state_model_get_trace (model), cpu, &marks[k]);

      if (one == NULL)
        continue;
      if (text->len > 0)
        g_string_append (text, "\n\n");
      g_string_append (text, one);
    }
  *description = g_string_free (text, FALSE);
  return TRUE;
}
