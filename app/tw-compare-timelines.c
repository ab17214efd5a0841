/* tw-compare-timelines.c: two runs' timelines, one above the other, on one time scale
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tw-compare-timelines.h"

/*
 * Statistics say that run B is slower; the timelines show where. With *One time scale*
 * both runs are drawn from their own start at the same nanoseconds per pixel, so the
 * shorter run ends early, and zooming or panning either moves the other to the same
 * offset from its start. Without it each run fills its own width.
 *
 * The state models are built in a thread when the traces arrive: the statistics do not
 * wait for them.
 */

struct _TwCompareTimelines
{
  GtkWidget     parent_instance;

  GtkWidget    *one_scale;
  GtkWidget    *status;
  GtkWidget    *labels[2];
  GtkWidget    *timelines[2];
  TwViewState  *views[2];
  GCancellable *cancellable;
  gboolean      syncing;     /* moving one view after the other */
};

G_DEFINE_FINAL_TYPE (TwCompareTimelines, tw_compare_timelines, GTK_TYPE_WIDGET)

static guint64
trace_first (TwViewState *view)
{
  return tw_trace_get_first_time (tw_view_state_get_trace (view));
}

static guint64
trace_duration (TwViewState *view)
{
  TwTrace *trace = tw_view_state_get_trace (view);

  return tw_trace_get_last_time (trace) + 1 - tw_trace_get_first_time (trace);
}

/* The other run shows the same offset from its start, the same span. */
static void
follow (TwCompareTimelines *self,
        guint               from)
{
  TwViewState *src = self->views[from], *dst = self->views[1 - from];
  guint64 begin, end, dst_begin;
  gint64 offset;

  if (self->syncing || dst == NULL
      || !gtk_check_button_get_active (GTK_CHECK_BUTTON (self->one_scale)))
    return;
  tw_view_state_get_visible_range (src, &begin, &end);
  /* before the start by the view's margin: negative */
  offset = (gint64) (begin - trace_first (src));
  dst_begin = offset < 0 && (guint64) -offset > trace_first (dst) ? 0 : trace_first (dst) + offset;
  self->syncing = TRUE;
  tw_view_state_set_visible_range (dst, dst_begin, dst_begin + (end - begin));
  self->syncing = FALSE;
}

static void
range_changed_a_cb (TwCompareTimelines *self)
{
  follow (self, 0);
}

static void
range_changed_b_cb (TwCompareTimelines *self)
{
  follow (self, 1);
}

static void
apply_scale (TwCompareTimelines *self)
{
  gboolean one = gtk_check_button_get_active (GTK_CHECK_BUTTON (self->one_scale));
  guint64 longest;

  if (self->views[0] == NULL)
    return;
  longest = MAX (trace_duration (self->views[0]), trace_duration (self->views[1]));
  self->syncing = TRUE;
  for (guint r = 0; r < 2; r++)
    {
      tw_view_state_set_min_duration (self->views[r], one ? longest : 0);
      tw_view_state_zoom_to_fit (self->views[r]);
    }
  self->syncing = FALSE;
}

static void
one_scale_toggled_cb (TwCompareTimelines *self)
{
  apply_scale (self);
}

/* ------------------------------------------------------------------ building */

static void
build_thread (GTask        *task,
              gpointer      source,
              gpointer      task_data,
              GCancellable *cancellable)
{
  TwTrace **traces = task_data;
  g_autoptr(GPtrArray) models = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint r = 0; r < 2; r++)
    {
      g_autoptr(TwStateModel) model = tw_state_model_new (traces[r]);
      GError *error = NULL;

      if (!tw_state_model_update (model, cancellable, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      g_ptr_array_add (models, g_steal_pointer (&model));
    }
  g_task_return_pointer (task, g_steal_pointer (&models), (GDestroyNotify) g_ptr_array_unref);
}

static void
build_done_cb (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  TwCompareTimelines *self = TW_COMPARE_TIMELINES (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) models = g_task_propagate_pointer (G_TASK (result), &error);

  if (models == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        gtk_label_set_text (GTK_LABEL (self->status), error->message);
      return;
    }
  for (guint r = 0; r < 2; r++)
    {
      self->views[r] = tw_view_state_new (g_ptr_array_index (models, r));
      tw_timeline_set_view_state (TW_TIMELINE (self->timelines[r]), self->views[r]);
      g_signal_connect_object (self->views[r], "notify::visible-begin",
                               G_CALLBACK (r == 0 ? range_changed_a_cb : range_changed_b_cb),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->views[r], "notify::visible-end",
                               G_CALLBACK (r == 0 ? range_changed_a_cb : range_changed_b_cb),
                               self, G_CONNECT_SWAPPED);
    }
  apply_scale (self);
  gtk_widget_set_visible (self->status, FALSE);
}

static void
free_traces (gpointer data)
{
  TwTrace **traces = data;

  g_clear_object (&traces[0]);
  g_clear_object (&traces[1]);
  g_free (traces);
}

/**
 * tw_compare_timelines_set_traces:
 * @a: the reference run
 * @b: the run compared with it
 *
 * Builds both runs' state models in a thread, then shows their timelines.
 */
void
tw_compare_timelines_set_traces (TwCompareTimelines *self,
                                 TwTrace            *a,
                                 TwTrace            *b,
                                 const char         *label_a,
                                 const char         *label_b)
{
  g_autoptr(GTask) task = NULL;
  TwTrace **traces;

  g_return_if_fail (TW_IS_COMPARE_TIMELINES (self));
  g_return_if_fail (TW_IS_TRACE (a) && TW_IS_TRACE (b));
  g_return_if_fail (self->cancellable == NULL);

  gtk_label_set_text (GTK_LABEL (self->labels[0]), label_a);
  gtk_label_set_text (GTK_LABEL (self->labels[1]), label_b);
  traces = g_new0 (TwTrace *, 2);
  traces[0] = g_object_ref (a);
  traces[1] = g_object_ref (b);
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, build_done_cb, NULL);
  g_task_set_task_data (task, traces, free_traces);
  g_task_run_in_thread (task, build_thread);
}

/**
 * tw_compare_timelines_get_timeline:
 * @run: 0 for A, 1 for B
 *
 * Returns: (transfer none): that run's timeline
 */
TwTimeline *
tw_compare_timelines_get_timeline (TwCompareTimelines *self,
                                   guint               run)
{
  g_return_val_if_fail (TW_IS_COMPARE_TIMELINES (self) && run < 2, NULL);

  return TW_TIMELINE (self->timelines[run]);
}

/**
 * tw_compare_timelines_is_ready:
 *
 * Returns: whether both timelines have their state models
 */
gboolean
tw_compare_timelines_is_ready (TwCompareTimelines *self)
{
  g_return_val_if_fail (TW_IS_COMPARE_TIMELINES (self), FALSE);

  return self->views[1] != NULL;
}

void
tw_compare_timelines_set_one_scale (TwCompareTimelines *self,
                                    gboolean            one_scale)
{
  g_return_if_fail (TW_IS_COMPARE_TIMELINES (self));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->one_scale), one_scale);
}

/* ------------------------------------------------------------------ widget */

static GtkWidget *
add_run (TwCompareTimelines *self,
         guint               run)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->labels[run] = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->labels[run]), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->labels[run]), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->labels[run], "heading");
  gtk_widget_set_parent (self->labels[run], GTK_WIDGET (self));

  /* rows scroll under a fixed ruler: the timeline is the scrolled window's GtkScrollable */
  self->timelines[run] = tw_timeline_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_overlay_scrolling (GTK_SCROLLED_WINDOW (scroller), FALSE);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_size_request (scroller, -1, 160);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->timelines[run]);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));
  return scroller;
}

static void
tw_compare_timelines_dispose (GObject *object)
{
  TwCompareTimelines *self = TW_COMPARE_TIMELINES (object);
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->views[0]);
  g_clear_object (&self->views[1]);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (tw_compare_timelines_parent_class)->dispose (object);
}

static void
tw_compare_timelines_class_init (TwCompareTimelinesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = tw_compare_timelines_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
}

static void
tw_compare_timelines_init (TwCompareTimelines *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);

  self->one_scale = gtk_check_button_new_with_label (_("One time scale"));
  gtk_widget_set_tooltip_text (self->one_scale,
                               _("Both runs from their own start at the same nanoseconds per pixel: the shorter run ends early, and zooming or panning one moves the other"));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (self->one_scale), TRUE);
  g_signal_connect_swapped (self->one_scale, "toggled", G_CALLBACK (one_scale_toggled_cb), self);
  gtk_widget_set_parent (self->one_scale, GTK_WIDGET (self));

  self->status = gtk_label_new (_("Building the timelines…"));
  gtk_label_set_xalign (GTK_LABEL (self->status), 0);
  gtk_widget_set_parent (self->status, GTK_WIDGET (self));

  add_run (self, 0);
  add_run (self, 1);
}
