/* test-story-canvas.c: a user arranges Fig. 2 in the designer, moves a state, undoes both
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include <tw-evaluators.h>
#include <tw-ingest.h>
#include <tw-widgets.h>

#include "tw-application.h"
#include "tw-designer-window.h"
#include "tw-test-gtk.h"
#include "tw-test-input.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"

/*
 * The designer open on the paper's Fig. 2 (Espinosa Minguet et al., "Getting System
 * Metrics Using POSIX Tracing Services") over the demo trace. Everything the user does
 * goes through the X server: a click on the toolbar's Auto-layout button, a drag of a
 * state, Ctrl+Z and Ctrl+Shift+Z. What is checked is what the user sees: states apart
 * and each drawn in its kind's colour where the automaton says it is, labels off the
 * states, and undo bringing back exactly the positions from before.
 */

typedef struct {
  TwTrace          *trace;
  TwStateModel     *model;
  TwViewState      *state;
  TwDesignerWindow *designer;
} Fixture;

static gboolean
preview_finished (gpointer data)
{
  return !tw_designer_window_get_preview_running (data);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *demo = g_build_filename (TW_SOURCE_DIR, "data", "demo", "demo.shark", NULL);
  g_autofree char *fig2 = g_build_filename (TW_SOURCE_DIR, "data", "automata",
                                            "fig2-user-metric.json", NULL);
  g_autoptr(GError) error = NULL;

  f->trace = tw_reader_registry_load_file (demo, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->model = tw_state_model_new (f->trace);
  g_assert_true (tw_state_model_update (f->model, NULL, NULL));
  f->state = tw_view_state_new (f->model);
  f->designer = tw_designer_window_new (NULL, f->state);
  g_assert_true (tw_designer_window_open (f->designer, fig2, &error));
  g_assert_no_error (error);
  tw_test_present_window (GTK_WINDOW (f->designer), 1200, 720);
  g_assert_true (tw_test_wait_until (preview_finished, f->designer, 30000));
  tw_test_wait_frames (GTK_WIDGET (f->designer), 2);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->designer)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&f->designer)));
  g_clear_object (&f->state);
  g_clear_object (&f->model);
  g_clear_object (&f->trace);
}

static char *
text_of (TwAutomatonCanvas *canvas)
{
  return tw_automaton_to_data (tw_automaton_canvas_get_automaton (canvas), NULL);
}

static GtkWidget *
find_action_button (GtkWidget  *root,
                    const char *action)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  tw_test_collect_descendants (root, GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_actionable_get_action_name (buttons->pdata[i]), action) == 0)
      return buttons->pdata[i];
  return NULL;
}

static void
click_centre (GtkWidget *widget)
{
  tw_test_input_click (widget, gtk_widget_get_width (widget) / 2.0,
                       gtk_widget_get_height (widget) / 2.0, 1, NULL);
}

/* The drawing as the user sees it: every state in view, apart from the others, filled
 * with its kind's colour just below its centre (where its name is not), and every
 * transition's label off every state. */
static void
assert_readable (TwAutomatonCanvas *canvas)
{
  TwAutomaton *a = tw_automaton_canvas_get_automaton (canvas);
  GtkWidget *area = tw_automaton_canvas_get_drawing_area (canvas);
  TwAutomatonPainter *painter = tw_automaton_canvas_get_painter (canvas);
  guint n = tw_automaton_get_n_states (a);
  TwAutomatonViewport vp;
  cairo_surface_t *surface;

  tw_test_wait_frames (area, 2);
  tw_automaton_canvas_get_viewport (canvas, &vp);
  surface = tw_test_grab_widget (area);
  for (guint i = 0; i < n; i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, i);
      double sx, sy, fill[3], px[3];

      for (guint j = 0; j < i; j++)
        {
          const TwAutomatonState *o = tw_automaton_get_state (a, j);
          g_assert_cmpfloat (hypot (s->x - o->x, s->y - o->y), >=, 2 * TW_AUTOMATON_STATE_RADIUS + 20);
        }
      tw_automaton_viewport_to_screen (&vp, s->x, s->y + 0.6 * TW_AUTOMATON_STATE_RADIUS, &sx, &sy);
      g_assert_cmpfloat (sx, >, 0);
      g_assert_cmpfloat (sy, >, 0);
      g_assert_cmpfloat (sx, <, vp.width);
      g_assert_cmpfloat (sy, <, vp.height);
      tw_automaton_state_kind_get_fill (s->kind, fill);
      tw_test_surface_get_rgb (surface, (int) sx, (int) sy, px);
      g_assert_true (tw_test_rgb_near (px, fill));
    }
  cairo_surface_destroy (surface);

  for (guint t = 0; t < tw_automaton_get_n_transitions (a); t++)
    {
      double lx, ly;

      g_assert_true (tw_automaton_painter_get_label_position (painter, &vp, t, &lx, &ly));
      for (guint i = 0; i < n; i++)
        {
          const TwAutomatonState *s = tw_automaton_get_state (a, i);
          double sx, sy;

          tw_automaton_viewport_to_screen (&vp, s->x, s->y, &sx, &sy);
          g_assert_cmpfloat (hypot (lx - sx, ly - sy), >, TW_AUTOMATON_STATE_RADIUS * vp.zoom);
        }
    }
}

static void
test_auto_layout_drag_undo (Fixture       *f,
                            gconstpointer  data)
{
  TwAutomatonCanvas *canvas = tw_designer_window_get_canvas (f->designer);
  TwAutomaton *a = tw_automaton_canvas_get_automaton (canvas);
  GtkWidget *area = tw_automaton_canvas_get_drawing_area (canvas);
  GtkWidget *arrange = find_action_button (GTK_WIDGET (canvas), "canvas.auto-layout");
  g_autofree char *before = text_of (canvas);
  g_autofree char *arranged = NULL, *dragged = NULL, *undone = NULL, *redone = NULL;
  TwAutomatonViewport vp;
  double sx, sy, x3, y3;

  if (tw_test_input_skip ())
    return;
  g_assert_nonnull (arrange);
  g_assert_false (tw_automaton_document_can_undo (tw_automaton_canvas_get_document (canvas)));

  click_centre (arrange);
  arranged = text_of (canvas);
  g_assert_cmpstr (arranged, !=, before);
  g_assert_true (tw_automaton_document_can_undo (tw_automaton_canvas_get_document (canvas)));
  /* dot ranks the states from the initial one, left to right */
  for (guint i = 1; i < tw_automaton_get_n_states (a); i++)
    g_assert_cmpfloat (tw_automaton_get_state (a, i)->x, >, tw_automaton_get_state (a, 0)->x);
  assert_readable (canvas);
  tw_test_save_widget_png (GTK_WIDGET (f->designer), "designer-auto-layout.png");

  /* a drag moves state 3 by what the pointer moved, as one step */
  x3 = tw_automaton_get_state (a, 3)->x;
  y3 = tw_automaton_get_state (a, 3)->y;
  tw_automaton_canvas_get_viewport (canvas, &vp);
  tw_automaton_viewport_to_screen (&vp, x3, y3, &sx, &sy);
  tw_test_input_drag (area, sx, sy, sx + 60, sy + 90);
  g_assert_cmpfloat (fabs (tw_automaton_get_state (a, 3)->x - (x3 + 60 / vp.zoom)), <=, 2);
  g_assert_cmpfloat (fabs (tw_automaton_get_state (a, 3)->y - (y3 + 90 / vp.zoom)), <=, 2);
  dragged = text_of (canvas);

  tw_test_input_keys (area, "ctrl+z");
  undone = text_of (canvas);
  g_assert_cmpstr (undone, ==, arranged);
  g_clear_pointer (&undone, g_free);
  tw_test_input_keys (area, "ctrl+z");
  undone = text_of (canvas);
  g_assert_cmpstr (undone, ==, before);
  g_assert_false (tw_automaton_document_can_undo (tw_automaton_canvas_get_document (canvas)));
  assert_readable (canvas);

  tw_test_input_keys (area, "ctrl+shift+z ctrl+shift+z");
  redone = text_of (canvas);
  g_assert_cmpstr (redone, ==, dragged);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();
  /* the app's resources (the designer's template) */
  g_object_unref (tw_application_new ());

  g_test_add ("/tw/app/story-canvas/auto-layout-drag-undo", Fixture, NULL, fixture_setup,
              test_auto_layout_drag_undo, fixture_teardown);

  return g_test_run ();
}
