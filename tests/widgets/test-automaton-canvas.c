/* test-automaton-canvas.c: the automaton designer widget: edits, undo/redo, layout, pixels
 *
 * Copyright 2026 The Trace Workbench authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>
#include <tw-automaton-file.h>
#include <tw-widgets.h>

#include "tw-test-gtk.h"
#include "tw-test-pixels.h"
#include "tw-test-utils.h"

typedef struct {
  GtkWidget         *window;
  TwAutomatonCanvas *canvas;
  guint              changed;
} Fixture;

/* The edits that are the document's alone, and its undo state, go to the document the
 * canvas shows. */
static TwAutomatonDocument *
document_of (TwAutomatonCanvas *canvas)
{
  return tw_automaton_canvas_get_document (canvas);
}

static void
changed_cb (TwAutomatonCanvas *canvas,
            Fixture           *f)
{
  f->changed++;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 640);
  f->canvas = TW_AUTOMATON_CANVAS (tw_automaton_canvas_new ());
  g_signal_connect (f->canvas, "changed", G_CALLBACK (changed_cb), f);
  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (f->canvas));
  gtk_window_present (GTK_WINDOW (f->window));
  tw_test_wait_frames (GTK_WIDGET (f->canvas), 2);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window)
    gtk_window_destroy (GTK_WINDOW (g_steal_pointer (&f->window)));
}

static char *
saved (Fixture *f)
{
  return tw_automaton_to_data (tw_automaton_canvas_get_automaton (f->canvas), NULL);
}

static char *
fig2_path (void)
{
  return g_build_filename (TW_SOURCE_DIR, "data", "automata", "fig2-user-metric.json", NULL);
}

/* Every kind of edit, each undone and redone: the file text after each undo is exactly
 * the text before the edit, and after each redo exactly the text after it. */
static void
test_edit_undo_redo (Fixture       *f,
                     gconstpointer  data)
{
  TwAutomatonCanvas *c = f->canvas;
  TwAutomaton *a = tw_automaton_canvas_get_automaton (c);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  const TwAutomatonTransition *t;
  int s0, s1, s2, t0, t1;
  guint edits = 0;

  g_ptr_array_add (texts, saved (f));
  g_assert_false (tw_automaton_document_can_undo (document_of (c)));

#define EDITED() G_STMT_START {                                   \
    edits++;                                                      \
    g_assert_cmpuint (f->changed, ==, edits);                     \
    g_ptr_array_add (texts, saved (f));                           \
    g_assert_cmpstr (texts->pdata[texts->len - 1], !=, texts->pdata[texts->len - 2]); \
  } G_STMT_END

  s0 = tw_automaton_canvas_add_state (c, TW_STATE_KIND_OUT, 100, 200);
  EDITED ();
  g_assert_cmpint (s0, ==, 0);
  g_assert_cmpstr (tw_automaton_get_state (a, 0)->id, ==, "0");
  /* the first out state becomes the initial one */
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "0");
  s1 = tw_automaton_canvas_add_state (c, TW_STATE_KIND_BEGIN, 300, 100);
  EDITED ();
  s2 = tw_automaton_canvas_add_state (c, TW_STATE_KIND_IN, 500, 200);
  EDITED ();
  g_assert_cmpstr (tw_automaton_get_state (a, s2)->id, ==, "2");
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "0");

  t0 = tw_automaton_canvas_connect (c, s0, s1, TW_LABEL_EVENT, "", TW_TASK_MATCH_ANY,
                                    TW_TASK_FIELD_TASK);
  EDITED ();
  t1 = tw_automaton_canvas_connect (c, s1, s2, TW_LABEL_LAMBDA, NULL, TW_TASK_MATCH_ANY,
                                    TW_TASK_FIELD_TASK);
  EDITED ();
  tw_automaton_canvas_connect (c, s2, s2, TW_LABEL_ANY, NULL, TW_TASK_MATCH_ANY,
                               TW_TASK_FIELD_TASK);
  EDITED ();
  g_assert_cmpint (tw_automaton_canvas_get_selected_transition (c), ==, 2);

  /* a label edit keeps the transition's place in the list */
  tw_automaton_document_set_transition_label (document_of (c), t0, TW_LABEL_EVENT,
                                              " initial_event ", TW_TASK_MATCH_SAME,
                                              TW_TASK_FIELD_TASK);
  EDITED ();
  t = tw_automaton_get_transition (a, t0);
  g_assert_cmpstr (t->from, ==, "0");
  g_assert_cmpstr (t->to, ==, "1");
  g_assert_cmpint (t->label, ==, TW_LABEL_EVENT);
  g_assert_cmpstr (t->event, ==, "initial_event");
  g_assert_cmpint (t->task, ==, TW_TASK_MATCH_SAME);
  g_assert_cmpint (tw_automaton_get_transition (a, t1)->label, ==, TW_LABEL_LAMBDA);

  tw_automaton_document_move_state (document_of (c), s2, 520.4, 240.6);
  EDITED ();
  g_assert_cmpfloat (tw_automaton_get_state (a, s2)->x, ==, 520);
  g_assert_cmpfloat (tw_automaton_get_state (a, s2)->y, ==, 241);
  tw_automaton_document_set_state_kind (document_of (c), s2, TW_STATE_KIND_COND);
  EDITED ();
  tw_automaton_canvas_add_state (c, TW_STATE_KIND_OUT, 100, 400);
  EDITED ();
  tw_automaton_document_set_initial (document_of (c), 3);
  EDITED ();
  g_assert_cmpstr (tw_automaton_get_initial (a), ==, "3");
  tw_automaton_document_set_name (document_of (c), "renamed");
  EDITED ();
  g_assert_cmpstr (tw_automaton_get_name (a), ==, "renamed");
  tw_automaton_canvas_remove_transition (c, t1);
  EDITED ();
  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, 2);
  /* deleting a state through the selection takes its transitions along */
  tw_automaton_canvas_select_state (c, s1);
  tw_automaton_canvas_delete_selection (c);
  EDITED ();
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 3);
  g_assert_cmpuint (tw_automaton_get_n_transitions (a), ==, 1);
  g_assert_cmpint (tw_automaton_find_state (a, "1"), ==, -1);
#undef EDITED

  /* an edit that changes nothing is no step and no signal */
  tw_automaton_document_move_state (document_of (c), 0, tw_automaton_get_state (a, 0)->x,
                                    tw_automaton_get_state (a, 0)->y);
  tw_automaton_document_set_name (document_of (c), "renamed");
  g_assert_cmpuint (f->changed, ==, edits);

  for (guint i = texts->len - 1; i > 0; i--)
    {
      g_autofree char *now = NULL;
      g_assert_true (tw_automaton_canvas_undo (c));
      now = saved (f);
      g_assert_cmpstr (now, ==, texts->pdata[i - 1]);
    }
  g_assert_false (tw_automaton_canvas_undo (c));
  g_assert_false (tw_automaton_document_can_undo (document_of (c)));
  g_assert_cmpuint (f->changed, ==, 2 * edits);
  /* the same object all along: holders of the automaton see the edits */
  g_assert_true (tw_automaton_canvas_get_automaton (c) == a);

  for (guint i = 1; i < texts->len; i++)
    {
      g_autofree char *now = NULL;
      g_assert_true (tw_automaton_canvas_redo (c));
      now = saved (f);
      g_assert_cmpstr (now, ==, texts->pdata[i]);
    }
  g_assert_false (tw_automaton_canvas_redo (c));
  g_assert_cmpuint (f->changed, ==, 3 * edits);

  /* a new edit after an undo drops the redo history */
  g_assert_true (tw_automaton_canvas_undo (c));
  tw_automaton_canvas_add_state (c, TW_STATE_KIND_END, 700, 100);
  g_assert_false (tw_automaton_document_can_redo (document_of (c)));
}

/* Loading keeps unknown members; undo brings them back exactly after a removal. */
static void
test_undo_keeps_file_extras (Fixture       *f,
                             gconstpointer  data)
{
  g_autofree char *path = fig2_path ();
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL, *after = NULL, *undone = NULL;
  g_autofree char *file_text = NULL;

  g_assert_true (tw_automaton_canvas_load (f->canvas, path, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_cmpstr (tw_automaton_document_get_path (document_of (f->canvas)), ==, path);
  g_assert_false (tw_automaton_document_get_modified (document_of (f->canvas)));
  before = saved (f);
  /* the canvas holds what the file module reads, its "description" member included */
  {
    g_autoptr(TwAutomaton) direct = tw_automaton_load (path, &error);
    g_assert_no_error (error);
    file_text = tw_automaton_to_data (direct, NULL);
  }
  g_assert_cmpstr (before, ==, file_text);
  g_assert_nonnull (strstr (before, "\"description\""));

  tw_automaton_canvas_remove_state (f->canvas, 2);   /* state "2": 6 transitions touch it */
  after = saved (f);
  g_assert_cmpstr (after, !=, before);
  g_assert_true (tw_automaton_document_get_modified (document_of (f->canvas)));
  g_assert_true (tw_automaton_canvas_undo (f->canvas));
  undone = saved (f);
  g_assert_cmpstr (undone, ==, before);
  g_assert_false (tw_automaton_document_get_modified (document_of (f->canvas)));
}

static void
test_actions (Fixture       *f,
              gconstpointer  data)
{
  GtkWidget *w = GTK_WIDGET (f->canvas);
  TwAutomaton *a = tw_automaton_canvas_get_automaton (f->canvas);
  TwAutomatonViewport before, after;

  g_assert_true (gtk_widget_activate_action (w, "canvas.add-state", "s", "begin"));
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 1);
  g_assert_cmpint (tw_automaton_get_state (a, 0)->kind, ==, TW_STATE_KIND_BEGIN);
  g_assert_cmpint (tw_automaton_canvas_get_selected_state (f->canvas), ==, 0);
  g_assert_true (gtk_widget_activate_action (w, "canvas.add-state", "s", "out"));
  g_assert_cmpuint (f->changed, ==, 2);
  /* palette states do not land on each other */
  g_assert_cmpfloat (hypot (tw_automaton_get_state (a, 0)->x - tw_automaton_get_state (a, 1)->x,
                            tw_automaton_get_state (a, 0)->y - tw_automaton_get_state (a, 1)->y),
                     >=, 2 * TW_AUTOMATON_STATE_RADIUS);

  tw_automaton_canvas_select_state (f->canvas, 0);
  g_assert_true (gtk_widget_activate_action (w, "canvas.set-kind", "s", "cancel"));
  g_assert_cmpint (tw_automaton_get_state (a, 0)->kind, ==, TW_STATE_KIND_CANCEL);
  g_assert_true (gtk_widget_activate_action (w, "canvas.delete", NULL));
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 1);
  g_assert_cmpstr (tw_automaton_get_state (a, 0)->id, ==, "1");
  g_assert_true (gtk_widget_activate_action (w, "canvas.undo", NULL));
  g_assert_cmpuint (tw_automaton_get_n_states (a), ==, 2);
  g_assert_cmpint (tw_automaton_get_state (a, 0)->kind, ==, TW_STATE_KIND_CANCEL);
  g_assert_true (gtk_widget_activate_action (w, "canvas.undo", NULL));
  g_assert_cmpint (tw_automaton_get_state (a, 0)->kind, ==, TW_STATE_KIND_BEGIN);
  g_assert_true (gtk_widget_activate_action (w, "canvas.redo", NULL));
  g_assert_cmpint (tw_automaton_get_state (a, 0)->kind, ==, TW_STATE_KIND_CANCEL);
  g_assert_cmpuint (f->changed, ==, 7);

  /* arrow keys' action: the selected state moves, one undoable step each */
  {
    double x = tw_automaton_get_state (a, 0)->x, y = tw_automaton_get_state (a, 0)->y;

    tw_automaton_canvas_select_state (f->canvas, 0);
    g_assert_true (gtk_widget_activate_action (w, "canvas.nudge", "(ii)", 24, -1));
    g_assert_cmpfloat (tw_automaton_get_state (a, 0)->x, ==, x + 24);
    g_assert_cmpfloat (tw_automaton_get_state (a, 0)->y, ==, y - 1);
    g_assert_cmpuint (f->changed, ==, 8);
    g_assert_true (gtk_widget_activate_action (w, "canvas.undo", NULL));
    g_assert_cmpfloat (tw_automaton_get_state (a, 0)->x, ==, x);
    g_assert_cmpfloat (tw_automaton_get_state (a, 0)->y, ==, y);
    g_assert_cmpuint (f->changed, ==, 9);
  }

  tw_automaton_canvas_get_viewport (f->canvas, &before);
  g_assert_true (gtk_widget_activate_action (w, "canvas.zoom-in", NULL));
  tw_automaton_canvas_get_viewport (f->canvas, &after);
  g_assert_cmpfloat (after.zoom, >, before.zoom * 1.1);
  /* zooming keeps the middle of the view over the same model point */
  {
    double bx, by, ax, ay;
    tw_automaton_viewport_to_model (&before, before.width / 2.0, before.height / 2.0, &bx, &by);
    tw_automaton_viewport_to_model (&after, after.width / 2.0, after.height / 2.0, &ax, &ay);
    g_assert_cmpfloat (fabs (ax - bx), <, 0.01);
    g_assert_cmpfloat (fabs (ay - by), <, 0.01);
  }
  g_assert_true (gtk_widget_activate_action (w, "canvas.zoom-out", NULL));
  tw_automaton_canvas_get_viewport (f->canvas, &after);
  g_assert_cmpfloat (fabs (after.zoom - before.zoom), <, 1e-9);
  /* view changes are not edits */
  g_assert_cmpuint (f->changed, ==, 9);
}

/* A file without positions is laid out in layers when loaded. */
static void
test_auto_layout (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *path = fig2_path ();
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) a = tw_automaton_load (path, &error);
  g_autofree char *bare = g_build_filename (g_get_tmp_dir (), "no-positions.json", NULL);
  g_autofree char *before_layout = NULL, *undone = NULL;
  TwAutomaton *loaded;
  /* breadth-first depth from state 0 in Fig. 2; state 7 is unreachable */
  static const int depth[] = { 0, 1, 2, 3, 4, 3, 4, 5 };
  double layer_x[6];

  g_assert_no_error (error);
  tw_automaton_add_state (a, "7", TW_STATE_KIND_CANCEL, 0, 0);
  for (guint i = 0; i < tw_automaton_get_n_states (a); i++)
    tw_automaton_set_state_position (a, i, 0, 0);
  g_assert_true (tw_automaton_layout_needed (a));
  g_assert_true (tw_automaton_save (a, bare, &error));

  g_assert_true (tw_automaton_canvas_load (f->canvas, bare, &error));
  g_assert_no_error (error);
  loaded = tw_automaton_canvas_get_automaton (f->canvas);
  g_assert_false (tw_automaton_layout_needed (loaded));
  g_assert_cmpuint (tw_automaton_get_n_states (loaded), ==, G_N_ELEMENTS (depth));

  for (guint i = 0; i < G_N_ELEMENTS (layer_x); i++)
    layer_x[i] = NAN;
  for (guint i = 0; i < tw_automaton_get_n_states (loaded); i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (loaded, i);
      g_assert_cmpint (atoi (s->id), ==, (int) i);
      /* one x per layer, layers left to right */
      if (isnan (layer_x[depth[i]]))
        layer_x[depth[i]] = s->x;
      g_assert_cmpfloat (s->x, ==, layer_x[depth[i]]);
      for (guint j = 0; j < i; j++)
        {
          const TwAutomatonState *o = tw_automaton_get_state (loaded, j);
          g_assert_false (o->x == s->x && o->y == s->y);
          if (o->x == s->x)   /* same layer: well apart vertically */
            g_assert_cmpfloat (fabs (o->y - s->y), >=, 2 * TW_AUTOMATON_STATE_RADIUS + 40);
        }
    }
  for (guint i = 1; i < G_N_ELEMENTS (layer_x); i++)
    g_assert_cmpfloat (layer_x[i], >, layer_x[i - 1] + 2 * TW_AUTOMATON_STATE_RADIUS);

  /* arranging by hand is one undoable step */
  tw_automaton_document_move_state (document_of (f->canvas), 3, 900, 900);
  before_layout = saved (f);
  tw_automaton_canvas_auto_layout (f->canvas);
  g_assert_cmpfloat (tw_automaton_get_state (loaded, 3)->x, ==, layer_x[3]);
  g_assert_true (tw_automaton_canvas_undo (f->canvas));
  undone = saved (f);
  g_assert_cmpstr (undone, ==, before_layout);
  g_unlink (bare);
}

static void
test_event_names (Fixture       *f,
                  gconstpointer  data)
{
  static const char * const names[] = {
    "switch", "sched_switch", "irq_entry", "switch", "", "FTrace_EVT_ipoint", NULL,
  };
  static const char * const expected[] = {
    "FTrace_EVT_ipoint", "irq_entry", "sched_switch", "switch",
  };
  GtkEntryCompletion *completion = tw_automaton_canvas_get_event_completion (f->canvas);
  GtkTreeModel *model = gtk_entry_completion_get_model (completion);
  GtkTreeIter iter;
  guint n = 0;

  tw_automaton_canvas_set_event_names (f->canvas, names);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, G_N_ELEMENTS (expected));
  for (gboolean ok = gtk_tree_model_get_iter_first (model, &iter); ok;
       ok = gtk_tree_model_iter_next (model, &iter))
    {
      g_autofree char *name = NULL;
      gtk_tree_model_get (model, &iter, 0, &name, -1);
      g_assert_cmpstr (name, ==, expected[n]);
      n++;
    }
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));

  tw_automaton_canvas_set_event_names (f->canvas, NULL);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 0);
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)))
        return found;
    }
  return NULL;
}

/* The label editor popover: set its entry and task dropdown, press Enter. */
static void
test_label_popover (Fixture       *f,
                    gconstpointer  data)
{
  TwAutomaton *a = tw_automaton_canvas_get_automaton (f->canvas);
  GtkWidget *area = tw_automaton_canvas_get_drawing_area (f->canvas);
  GtkWidget *popover = NULL, *entry, *dropdown;
  const TwAutomatonTransition *t;
  int s0, s1, tr;

  s0 = tw_automaton_canvas_add_state (f->canvas, TW_STATE_KIND_OUT, 100, 150);
  s1 = tw_automaton_canvas_add_state (f->canvas, TW_STATE_KIND_IN, 350, 150);
  tr = tw_automaton_canvas_connect (f->canvas, s0, s1, TW_LABEL_ANY, NULL, TW_TASK_MATCH_ANY,
                                    TW_TASK_FIELD_TASK);
  f->changed = 0;
  tw_test_wait_frames (GTK_WIDGET (f->canvas), 1);
  tw_automaton_canvas_edit_transition (f->canvas, tr);

  for (GtkWidget *child = gtk_widget_get_first_child (area); child;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child) && !GTK_IS_POPOVER_MENU (child))
      popover = child;
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (popover));
  entry = find_descendant (popover, GTK_TYPE_ENTRY);
  dropdown = find_descendant (popover, GTK_TYPE_DROP_DOWN);
  g_assert_nonnull (entry);
  g_assert_nonnull (dropdown);
  g_assert_true (gtk_entry_get_completion (GTK_ENTRY (entry)) ==
                 tw_automaton_canvas_get_event_completion (f->canvas));

  /* choosing "Event" is the toggle group's first button */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_descendant (popover, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  gtk_editable_set_text (GTK_EDITABLE (entry), "context_end");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), 2);
  g_signal_emit_by_name (entry, "activate");

  t = tw_automaton_get_transition (a, tr);
  g_assert_cmpint (t->label, ==, TW_LABEL_EVENT);
  g_assert_cmpstr (t->event, ==, "context_end");
  g_assert_cmpint (t->task, ==, TW_TASK_MATCH_OTHER);
  g_assert_cmpint (t->task_field, ==, TW_TASK_FIELD_TASK);
  g_assert_cmpuint (f->changed, ==, 1);
  g_assert_true (tw_automaton_canvas_undo (f->canvas));
  g_assert_cmpint (tw_automaton_get_transition (a, tr)->label, ==, TW_LABEL_ANY);
}

/* The loaded Fig. 2 fits the view and each state shows its kind where the viewport says. */
static void
test_pixels (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *path = fig2_path ();
  g_autoptr(GError) error = NULL;
  TwAutomaton *a;
  TwAutomatonViewport vp;
  cairo_surface_t *surface;
  double err[3], px[3];
  int lost;

  g_assert_true (tw_automaton_canvas_load (f->canvas, path, &error));
  g_assert_no_error (error);
  a = tw_automaton_canvas_get_automaton (f->canvas);
  tw_test_wait_frames (GTK_WIDGET (f->canvas), 2);
  tw_test_save_widget_png (GTK_WIDGET (f->canvas), "automaton-designer.png");

  tw_automaton_canvas_get_viewport (f->canvas, &vp);
  surface = tw_test_grab_widget (tw_automaton_canvas_get_drawing_area (f->canvas));
  for (guint i = 0; i < tw_automaton_get_n_states (a); i++)
    {
      const TwAutomatonState *s = tw_automaton_get_state (a, i);
      double sx, sy, fill[3];

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

  /* a design error appears on the canvas as soon as it is made */
  lost = tw_automaton_canvas_add_state (f->canvas, TW_STATE_KIND_CANCEL, 700, 300);
  tw_automaton_canvas_select_state (f->canvas, -1);
  tw_test_wait_frames (GTK_WIDGET (f->canvas), 2);
  tw_test_save_widget_png (GTK_WIDGET (f->canvas), "automaton-designer-error.png");
  tw_automaton_canvas_get_viewport (f->canvas, &vp);
  surface = tw_test_grab_widget (tw_automaton_canvas_get_drawing_area (f->canvas));
  tw_automaton_painter_get_error_color (err);
  {
    const TwAutomatonState *s = tw_automaton_get_state (a, lost);
    double sx, sy;
    tw_automaton_viewport_to_screen (&vp, s->x, s->y - TW_AUTOMATON_STATE_RADIUS - 5, &sx, &sy);
    tw_test_surface_get_rgb (surface, (int) sx, (int) sy, px);
    g_assert_true (tw_test_rgb_near (px, err));
  }
  cairo_surface_destroy (surface);
}

static void
test_save (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "drawn.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TwAutomaton) back = NULL;
  g_autofree char *mine = NULL, *theirs = NULL;
  int s0, s1;

  s0 = tw_automaton_canvas_add_state (f->canvas, TW_STATE_KIND_OUT, 100, 150);
  s1 = tw_automaton_canvas_add_state (f->canvas, TW_STATE_KIND_BEGIN, 300, 150);
  tw_automaton_canvas_connect (f->canvas, s0, s1, TW_LABEL_EVENT, "user", TW_TASK_MATCH_SAME,
                               TW_TASK_FIELD_TASK);
  tw_automaton_canvas_connect (f->canvas, s1, s0, TW_LABEL_LAMBDA, NULL, TW_TASK_MATCH_ANY,
                               TW_TASK_FIELD_TASK);
  g_assert_true (tw_automaton_document_get_modified (document_of (f->canvas)));
  g_assert_true (tw_automaton_document_save (document_of (f->canvas), path, &error));
  g_assert_no_error (error);
  g_assert_false (tw_automaton_document_get_modified (document_of (f->canvas)));
  back = tw_automaton_load (path, &error);
  g_assert_no_error (error);
  g_assert_true (tw_automaton_check (back, &error));
  g_assert_no_error (error);
  mine = saved (f);
  theirs = tw_automaton_to_data (back, NULL);
  g_assert_cmpstr (mine, ==, theirs);
  g_unlink (path);

  /* a failed load leaves the canvas as it was */
  g_assert_false (tw_automaton_canvas_load (f->canvas, path, &error));
  g_assert_nonnull (error);
  g_assert_cmpuint (tw_automaton_get_n_states (tw_automaton_canvas_get_automaton (f->canvas)), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  gtk_init ();
  /* screenshots for the docs: the isolated XDG dirs hide the system's icon theme */
  if (g_getenv ("TW_TEST_PNG_DIR"))
    gtk_icon_theme_add_search_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/usr/share/icons");

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/tw/widgets/automaton-canvas/edit-undo-redo", test_edit_undo_redo);
  ADD ("/tw/widgets/automaton-canvas/undo-keeps-file-extras", test_undo_keeps_file_extras);
  ADD ("/tw/widgets/automaton-canvas/actions", test_actions);
  ADD ("/tw/widgets/automaton-canvas/auto-layout", test_auto_layout);
  ADD ("/tw/widgets/automaton-canvas/event-names", test_event_names);
  ADD ("/tw/widgets/automaton-canvas/label-popover", test_label_popover);
  ADD ("/tw/widgets/automaton-canvas/pixels", test_pixels);
  ADD ("/tw/widgets/automaton-canvas/save", test_save);
#undef ADD

  return g_test_run ();
}
