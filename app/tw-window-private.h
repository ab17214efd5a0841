/* tw-window-private.h: what the window's files (loading, actions, live mode) share
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "tw-window.h"

G_BEGIN_DECLS

typedef struct _TwGrowing TwGrowing;   /* a trace the window shows as it loads */

enum {
  FIRST_FRAME_NONE,
  FIRST_FRAME_WATCHED,   /* "first-frame" at the next paint */
  FIRST_FRAME_SHOWN,
};

typedef struct {
  char    *path;          /* NULL when the trace was handed in */
  char    *title;         /* what the user calls it: file name, "Demo trace" */
  TwTrace *trace;         /* handed in (programmatic), or read by the thread */
  gint     permille;      /* atomic: progress, 0..1000 */
  TwGrowing *growing;     /* what the view of the trace read so far waits on */
} LoadJob;

struct _TwWindow
{
  GtkApplicationWindow  parent_instance;

  /* template children */
  GtkWidget            *recent_button;
  GtkWidget            *primary_button;
  GtkWidget            *go_to_time_button;
  GtkWidget            *go_to_time_popover;
  GtkWidget            *legend_view;
  GtkWidget            *error_revealer;
  GtkWidget            *error_label;
  GtkWidget            *stack;
  GtkWidget            *loading_label;
  GtkWidget            *progress_bar;
  GtkWidget            *trace_paned;
  GtkWidget            *timeline_slot;
  GtkWidget            *notebook;
  GtkWidget            *event_list;
  GtkWidget            *details_pane;
  GtkWidget            *cursor_state_pane;
  GtkWidget            *evaluations_pane;
  GtkWidget            *timeline_scroller; /* in timeline_slot */
  GtkWidget            *timeline;        /* in timeline_scroller */

  TwViewState          *view_state;
  GCancellable         *load_cancellable;
  LoadJob              *load_job;        /* borrowed from the running task */
  guint                 progress_source;
  char                 *previous_page;   /* shown again when loading fails or is cancelled */
  char                 *loading_title;   /* of the load going on */
  char                 *loading_path;
  GMenu                *recent_menu;

  /* the trace shown while its model is built (tw-window-growing.c) */
  GtkWidget            *building_controls; /* progress and Cancel in the header bar */
  GtkWidget            *building_progress;
  TwStateModel         *building;        /* the model being built, NULL when none */
  TwGrowing            *growing;         /* while the trace is still read */
  TwViewState          *before_building; /* shown again if the load fails */
  gboolean              reading_done;
  guint                 first_frame;     /* FIRST_FRAME_*, of the load going on */
  guint                 step_source;
  guint64               building_begin;  /* the range last put in view */
  guint64               building_end;
  guint                 building_n_tasks;
  guint                 building_n_cpus;
  gint64                building_draw_us;
  gint64                building_layout_us;
  gint64                building_paint_start_us;
  gint64                building_paint_us;  /* the last paint's duration */
  gulong                recent_changed_handler;

  /* live mode (tw_window_attach_live) */
  TwLiveSession        *live_session;
  GtkWidget            *live_controls;   /* in the header bar */
  GtkWidget            *follow_button;
  GtkWidget            *pause_button;
  GtkWidget            *recorder;        /* in live_controls */
  GtkWidget            *sensors_pane;
  guint                 live_n_tasks;
  guint                 live_n_cpus;
  guint64               live_n_events;
  gint64                live_relayout_us;
  gint64                live_timeline_us;
};


/* tw-window.c */
void _tw_window_update_actions         (TwWindow     *self);
void _tw_window_show_error_text        (TwWindow     *self,
                                        const char   *text);
void _tw_window_dismiss_error          (TwWindow     *self);
void _tw_window_install_view_state     (TwWindow     *self,
                                        TwStateModel *model);
void _tw_window_connect_panes          (TwWindow     *self);
void _tw_window_leave_live_mode        (TwWindow     *self);
void _tw_window_load_complete          (TwWindow     *self);
void _tw_window_load_failed            (TwWindow     *self,
                                        GError       *error);
void _tw_window_emit_first_frame       (TwWindow     *self);

/* tw-window-live.c */
void _tw_window_show_recorded_sensors  (TwWindow     *self,
                                        TwTrace      *trace);

/* tw-window-growing.c */
TwGrowing *_tw_growing_new             (TwWindow     *window);
TwGrowing *_tw_growing_ref             (TwGrowing    *growing);
void _tw_growing_unref                 (TwGrowing    *growing);
void _tw_window_trace_started          (TwTrace      *trace,
                                        TwGrowing    *growing);
void _tw_window_trace_rewrite          (TwTrace      *trace,
                                        gpointer      growing);
void _tw_window_begin_view             (TwWindow     *self,
                                        TwTrace      *trace,
                                        TwGrowing    *growing);
void _tw_window_end_view               (TwWindow     *self,
                                        gboolean      restore);
void _tw_window_view_read              (TwWindow     *self);
double _tw_window_view_fraction        (TwWindow     *self);


/* tw-window-actions.c */
void _tw_window_init_actions           (TwWindow     *self);
void _tw_window_go_to_time_chosen_cb   (TwWindow     *self,
                                        guint64       time);

/* tw-window-live.c */
void _tw_window_init_live              (TwWindow     *self);
void _tw_window_detach_live            (TwWindow     *self);

G_END_DECLS
